//! A game in progress behind uniform, text-based interfaces, so the engine
//! and the match runner's referee can hold any game: [`Rules`] (moves in
//! notation, history, board; no search) and [`Session`] (the rules plus an
//! evaluator and the searcher). Each is implemented once, generically, by
//! [`RulesSession`] and [`GameSession`]; the game registry
//! ([`crate::games`]) builds them.

use std::any::Any;

use rand::rngs::SmallRng;

use crate::game::{Color, MoveError, Notation, Outcome, perft_until};
use crate::search::alphabeta::AlphaBeta;
use crate::search::{
    Evaluator, Player, Score, SearchLimits, SearchReport, SearchResult, baseline, mcts, puct,
};
use crate::solve::{DEFAULT_HASH_MB, Knowledge, SolveLimits, SolveValue, Solver};
use std::sync::atomic::AtomicBool;

/// A game's options by name (`start` → `blank`): only those set
/// explicitly; a game takes its default for the others.
pub type Options = Vec<(String, String)>;

/// The value of option `name` in `options`, if set.
pub fn option<'a>(options: &'a Options, name: &str) -> Option<&'a str> {
    options
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// Builds a fresh game from a board size and options; fails (changing
/// nothing) for a size or option the game does not have.
pub type NewGame<G> = fn(usize, &Options) -> Result<G, String>;

/// The rules of a game in progress, in notation: what a referee needs.
pub trait Rules: Send {
    /// The game's name.
    fn name(&self) -> &'static str;
    /// Points per side.
    fn size(&self) -> usize;
    /// Side to move.
    fn to_move(&self) -> Color;
    /// The result, once over.
    fn outcome(&self) -> Option<Outcome>;
    /// Moves played since the start.
    fn moves_played(&self) -> usize;
    /// The moves played so far, in notation.
    fn history(&self) -> Vec<String> {
        self.played().into_iter().map(|(_, m)| m).collect()
    }
    /// The moves played so far with the colour that played each (after a
    /// swap the same colour moves again; a colour that played out of turn
    /// is named as it played).
    fn played(&self) -> Vec<(Color, String)>;
    /// Replaces the game by a fresh one on a `size`×`size` board with
    /// `options`; on error nothing changes.
    fn renew(&mut self, size: usize, options: &Options) -> Result<(), String>;
    /// Plays a move given as text for `color`. When `color` is not to move,
    /// the turn is handed over first, as GTP allows; `undo` takes both back.
    /// Once the game is over every move is refused (RULINGS).
    fn play(&mut self, color: Color, text: &str) -> Result<(), MoveError>;
    /// Takes back one move; false when there is none.
    fn undo(&mut self) -> bool;
    /// All legal moves for `color`, in notation, as `legal_moves` writes
    /// them (for the colour not to move: as if the turn were handed over),
    /// in board order (see [`crate::game::MoveOrder`]).
    fn legal_moves_for(&mut self, color: Color) -> Vec<String>;
    /// The move `text` (of the side to move) turned by a symmetry that
    /// keeps the position, in notation: see [`Notation::symmetric_move`].
    /// `None` when there is none, or `text` is no legal move.
    fn symmetric_move(&self, text: &str) -> Option<String>;
    /// The board for people.
    fn showboard(&self) -> String;
    /// See [`Notation::piece_at`].
    fn piece_at(&self, point: &str) -> Option<Color>;
    /// Zobrist hash of the position.
    fn hash(&self) -> u64;
    /// `perft depth`, or `None` when `stop` was set before it finished.
    fn perft(&mut self, depth: u32, stop: &AtomicBool) -> Option<u64>;
    /// Applies [`Notation::setup`] to each (colour, point) in turn; all or
    /// nothing.
    fn setup(&mut self, placements: &[(Option<Color>, &str)]) -> Result<(), String>;
    /// See [`Game::set_to_move`].
    fn set_to_move(&mut self, color: Color) -> Result<(), String>;
    /// The game's position itself, for the game's own commands (which
    /// downcast it to their game's type and must leave it unchanged).
    fn position_mut(&mut self) -> &mut dyn Any;
    /// The position for a graphical interface, as the `position` command
    /// writes it (see protocol.md): the game's [`crate::drawing::Drawing`]
    /// plus the side to move, the legal moves, the history, the last move
    /// and the points it changed, and the result.
    fn position(&mut self) -> Result<PositionView, String>;
}

/// A [`Game`] with its history, seen through [`Rules`].
pub struct RulesSession<G: Notation> {
    name: &'static str,
    new_game: NewGame<G>,
    game: G,
    /// The history: moves, and `None` for a turn handed over when a colour
    /// played out of turn.
    moves: Vec<Option<G::Move>>,
    /// The game before its first move (after any setup): the history
    /// replayed on it rebuilds the game after a panic (see `guarded`).
    start: G,
}

impl<G: Notation> RulesSession<G> {
    /// A fresh game `name` on a `size`×`size` board with `options`.
    pub fn new(
        name: &'static str,
        new_game: NewGame<G>,
        size: usize,
        options: &Options,
    ) -> Result<Self, String> {
        let game = new_game(size, options)?;
        Ok(RulesSession {
            name,
            new_game,
            start: game.clone(),
            game,
            moves: Vec::new(),
        })
    }

    /// The position.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Runs `f` on a copy of the game with `color` to move (the turn handed
    /// over when it is the other colour's). A failing `f` (a panic) leaves
    /// the game untouched; on success the copy, back where it started,
    /// replaces the game, so whatever the rules cached meanwhile is kept.
    fn on_copy<R>(&mut self, color: Color, f: impl FnOnce(&mut G) -> R) -> R {
        let mut game = self.game.clone();
        let handed_over = color != game.to_move();
        if handed_over {
            game.play_null();
        }
        let r = f(&mut game);
        if handed_over {
            game.undo();
        }
        debug_assert_eq!(game.hash(), self.game.hash());
        self.game = game;
        r
    }

    /// Runs `f` on the game (the history is changed after it, by the
    /// caller). Should `f` panic half-way (a bug in the rules), no
    /// half-played move stays: the game is rebuilt as it was before `f`
    /// (the start with the history replayed), then the panic goes on to
    /// the caller (the protocol answers `?`). Cheaper than working on a
    /// copy, which costs a clone of the game at every move: on Akron
    /// 26×26, a `play` took 175 µs instead of 5, and 324 instead of 45 in
    /// games of 5000 plies; this costs nothing measurable.
    fn guarded<R>(&mut self, f: impl FnOnce(&mut G) -> R) -> R {
        let game = &mut self.game;
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(game))) {
            Ok(r) => r,
            Err(panic) => {
                let mut game = self.start.clone();
                for m in &self.moves {
                    match *m {
                        Some(m) => game.play(m),
                        None => game.play_null(),
                    }
                }
                self.game = game;
                std::panic::resume_unwind(panic)
            }
        }
    }

    /// Runs `f` on the game with `color` to move: when it is the other
    /// colour's turn, the turn is handed over for `f` and taken back after.
    fn as_color<R>(&mut self, color: Color, f: impl FnOnce(&mut G) -> R) -> R {
        self.guarded(|game| {
            let handed_over = color != game.to_move();
            if handed_over {
                game.play_null();
            }
            let r = f(game);
            if handed_over {
                game.undo();
            }
            r
        })
    }
}

impl<G: Notation> Rules for RulesSession<G> {
    fn name(&self) -> &'static str {
        self.name
    }
    fn size(&self) -> usize {
        self.game.size()
    }
    fn to_move(&self) -> Color {
        self.game.to_move()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }
    fn moves_played(&self) -> usize {
        self.game.moves_played()
    }
    fn played(&self) -> Vec<(Color, String)> {
        let mut replay = self.game.clone();
        for _ in 0..self.moves.len() {
            replay.undo();
        }
        let mut out = Vec::new();
        for &m in &self.moves {
            match m {
                Some(m) => {
                    out.push((replay.to_move(), replay.format_move(m)));
                    replay.play(m);
                }
                None => replay.play_null(),
            }
        }
        out
    }
    fn renew(&mut self, size: usize, options: &Options) -> Result<(), String> {
        self.game = (self.new_game)(size, options)?;
        self.start = self.game.clone();
        self.moves.clear();
        Ok(())
    }
    fn play(&mut self, color: Color, text: &str) -> Result<(), MoveError> {
        if self.game.outcome().is_some() {
            return Err(MoveError::Illegal("the game is over".into()));
        }
        let out_of_turn = color != self.game.to_move();
        let mv = self.guarded(|game| {
            if out_of_turn {
                game.play_null();
            }
            let parsed = game.parse_move(text).and_then(|mv| {
                if game.is_legal(mv) {
                    Ok(mv)
                } else {
                    Err(MoveError::Illegal(format!("{text} is not legal here")))
                }
            });
            match parsed {
                Ok(mv) => game.play(mv),
                Err(_) if out_of_turn => game.undo(),
                Err(_) => {}
            }
            parsed
        })?;
        // The history changes once the move is made.
        if out_of_turn {
            self.moves.push(None);
        }
        self.moves.push(Some(mv));
        Ok(())
    }
    fn undo(&mut self) -> bool {
        let n = self.moves.len();
        if n == 0 {
            return false;
        }
        // A move played out of turn goes back with its handed-over turn.
        let with_turn = n >= 2 && self.moves[n - 2].is_none();
        self.guarded(|game| {
            game.undo();
            if with_turn {
                game.undo();
            }
        });
        self.moves.truncate(n - 1 - usize::from(with_turn));
        true
    }
    fn legal_moves_for(&mut self, color: Color) -> Vec<String> {
        self.as_color(color, |game| {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            moves.sort_by_cached_key(|&m| game.move_order(m));
            moves
                .into_iter()
                .map(|m| game.format_listed_move(m))
                .collect::<Vec<String>>()
        })
    }
    fn symmetric_move(&self, text: &str) -> Option<String> {
        let mv = self.game.parse_move(text).ok()?;
        let image = self.game.symmetric_move(mv)?;
        Some(self.game.format_move(image))
    }
    fn showboard(&self) -> String {
        self.game.showboard()
    }
    fn piece_at(&self, point: &str) -> Option<Color> {
        self.game.piece_at(point)
    }
    fn hash(&self) -> u64 {
        self.game.hash()
    }
    fn perft(&mut self, depth: u32, stop: &AtomicBool) -> Option<u64> {
        self.guarded(|game| perft_until(game, depth, stop))
    }
    fn setup(&mut self, placements: &[(Option<Color>, &str)]) -> Result<(), String> {
        if !self.moves.is_empty() {
            return Err("setup is only allowed before the first move".into());
        }
        let placed = self.guarded(|game| {
            placements
                .iter()
                .try_for_each(|&(color, point)| game.setup(color, point))
        });
        // Before the first move, the game is its start: all or nothing.
        match placed {
            Ok(()) => self.start = self.game.clone(),
            Err(_) => self.game = self.start.clone(),
        }
        placed
    }
    fn set_to_move(&mut self, color: Color) -> Result<(), String> {
        // Every game refuses it after the first move itself.
        self.guarded(|game| game.set_to_move(color))?;
        if self.moves.is_empty() {
            self.start = self.game.clone();
        }
        Ok(())
    }
    fn position_mut(&mut self) -> &mut dyn Any {
        &mut self.game
    }
    fn position(&mut self) -> Result<PositionView, String> {
        position_view(self)
    }
}

/// A point whose piece the last move changed, besides the move's own.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceChange {
    /// The point, in notation.
    pub point: String,
    /// The piece put there or taken away.
    pub piece: Color,
}

/// The last move of a game, for a graphical interface.
#[derive(Clone, Debug, PartialEq)]
pub struct LastMove {
    /// Who played it.
    pub color: Color,
    /// The move in notation.
    pub text: String,
    /// Pieces it put on the board (its own placement, a moved ball's new
    /// place, a dropped ball's).
    pub added: Vec<PieceChange>,
    /// Pieces it took off the board (captures, a moved ball's origin, the
    /// places balls dropped from).
    pub removed: Vec<PieceChange>,
}

/// A position as a graphical interface needs it: the game's
/// [`Drawing`](crate::drawing::Drawing) and the state of play. The
/// `position` command writes it as JSON (see protocol.md).
#[derive(Clone, Debug, PartialEq)]
pub struct PositionView {
    /// The game's name.
    pub game: &'static str,
    /// Points per side.
    pub size: usize,
    /// The board as drawn.
    pub drawing: crate::drawing::Drawing,
    /// Side to move.
    pub to_move: Color,
    /// Moves since the start.
    pub moves_played: usize,
    /// The result, once over.
    pub outcome: Option<Outcome>,
    /// The legal moves of the side to move, in board order (none once over).
    pub legal: Vec<String>,
    /// The last move, unless the game is at its start or the last entry of
    /// the history is a turn handed over.
    pub last_move: Option<LastMove>,
    /// The moves played, in notation, each with the colour that played it.
    pub history: Vec<(Color, String)>,
}

/// [`Rules::position`] of a [`RulesSession`].
fn position_view<G: Notation>(rules: &mut RulesSession<G>) -> Result<PositionView, String> {
    let drawing = rules.game.drawing();
    if drawing.points.is_empty() {
        return Err(format!("{} has no drawing", rules.name));
    }
    // The last move, who played it, and the points it changed besides its
    // own: captures (Onyx) empty points, drops (Akron) move balls down.
    let last_move = match rules.moves.last() {
        Some(&Some(mv)) => {
            let mut before = rules.game.clone();
            before.undo();
            let color = before.to_move();
            let text = before.format_move(mv);
            let old = before.drawing();
            let (mut added, mut removed) = (Vec::new(), Vec::new());
            for (a, b) in old.points.iter().zip(&drawing.points) {
                if a.piece != b.piece {
                    if let Some(piece) = a.piece {
                        let point = a.name.clone();
                        removed.push(PieceChange { point, piece });
                    }
                    if let Some(piece) = b.piece {
                        let point = b.name.clone();
                        added.push(PieceChange { point, piece });
                    }
                }
            }
            Some(LastMove {
                color,
                text,
                added,
                removed,
            })
        }
        _ => None,
    };
    let to_move = rules.game.to_move();
    let outcome = rules.game.outcome();
    let legal = if outcome.is_some() {
        Vec::new()
    } else {
        rules.legal_moves_for(to_move)
    };
    Ok(PositionView {
        game: rules.name,
        size: rules.game.size(),
        drawing,
        to_move,
        moves_played: rules.game.moves_played(),
        outcome,
        legal,
        last_move,
        history: rules.played(),
    })
}

/// How `genmove` and `analyze` search: the player, threads and where the
/// searcher's progress goes.
pub struct SearchRequest<'a> {
    /// Whom to ask for the move.
    pub player: Player,
    /// Search threads (alpha-beta only).
    pub threads: usize,
    /// How many of the best moves each iteration reports (alpha-beta
    /// only; [`AlphaBeta::multipv`]).
    pub multipv: usize,
    /// The engine's random choices.
    pub rng: &'a mut SmallRng,
    /// Told of each completed iteration, in notation.
    pub progress: &'a mut dyn FnMut(&SearchReport),
}

/// An evaluator of `G` with the players that use it, behind a trait
/// object, so that one session can hold several evaluators and switch
/// between them (`param eval`). Implemented for every [`Evaluator`]; the
/// search itself stays generic (one dynamic call per search).
pub trait EvalPlayers<G: Notation>: Send {
    /// The evaluator's name ([`Evaluator::name`]).
    fn evaluator_name(&self) -> &'static str;
    /// The static evaluation of `game` for the side to move
    /// ([`Evaluator::evaluate`]).
    fn static_score(&self, game: &G) -> Score;
    /// Asks `player` for a move in `game` within `limits`.
    fn search(
        &self,
        searcher: &mut AlphaBeta<G>,
        game: &mut G,
        limits: &SearchLimits,
        request: SearchRequest<'_>,
    ) -> Option<SearchResult<G::Move>>;
}

impl<G: Notation, E: Evaluator<G>> EvalPlayers<G> for E {
    fn evaluator_name(&self) -> &'static str {
        self.name()
    }
    fn static_score(&self, game: &G) -> Score {
        self.evaluate(game)
    }
    fn search(
        &self,
        searcher: &mut AlphaBeta<G>,
        game: &mut G,
        limits: &SearchLimits,
        request: SearchRequest<'_>,
    ) -> Option<SearchResult<G::Move>> {
        let progress = request.progress;
        match request.player {
            Player::AlphaBeta => {
                searcher.threads = request.threads;
                searcher.multipv = request.multipv;
                searcher.search(game, self, limits, &mut |g, it| {
                    progress(&SearchReport::new(g, it))
                })
            }
            Player::Mcts => mcts::search(game, self, limits, request.rng),
            Player::KnowledgeMcts => {
                puct::search(game, self, limits, request.multipv, &mut |g, it| {
                    progress(&SearchReport::new(g, it))
                })
            }
            Player::Greedy => baseline::greedy_move(game, self, request.rng, limits)
                .map(|(mv, score)| SearchResult::single(mv, score, limits.start)),
            Player::Random => baseline::random_move(game, request.rng)
                .map(|mv| SearchResult::single(mv, 0, limits.start)),
        }
    }
}

/// A position's value as the solver proved it, for one colour, with the
/// winning move in notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Solved {
    /// A forced win, starting with this move when one is named (`solve`
    /// names it; `solve_all`, valuing the position after a move, does not).
    Win(Option<String>),
    /// A forced loss.
    Loss,
    /// A forced draw.
    Draw,
    /// Not decided within the limits.
    Unknown,
}

impl std::fmt::Display for Solved {
    /// `win MOVE`, `win`, `loss`, `draw` or `unknown`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Solved::Win(Some(m)) => write!(f, "win {m}"),
            Solved::Win(None) => f.write_str("win"),
            Solved::Loss => f.write_str("loss"),
            Solved::Draw => f.write_str("draw"),
            Solved::Unknown => f.write_str("unknown"),
        }
    }
}

/// What `solve` found, in notation.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveAnswer {
    /// The value for the colour solved for (for `solve_all`, the value for
    /// the side that made the move, without a move).
    pub value: Solved,
    /// Nodes the solver expanded.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: std::time::Duration,
    /// The proof's size in positions, for a win or a loss whose proof
    /// the solver's table holds whole ([`crate::solve::SolveReport::proof`]).
    pub proof: Option<u64>,
}

impl SolveAnswer {
    /// `VALUE nodes N time T`, followed by ` proof P` when the proof's
    /// size is known, as `solve` answers.
    pub fn text(&self) -> String {
        let mut text = format!(
            "{} nodes {} time {:.2}",
            self.value,
            self.nodes,
            self.elapsed.as_secs_f64()
        );
        if let Some(p) = self.proof {
            text.push_str(&format!(" proof {p}"));
        }
        text
    }
}

/// A game in progress with its evaluators and the searcher: what the
/// engine holds.
pub trait Session: Send {
    /// The rules and history.
    fn rules(&self) -> &dyn Rules;
    /// The rules and history, to change them.
    fn rules_mut(&mut self) -> &mut dyn Rules;
    /// The names of the evaluators, the default first.
    fn evaluators(&self) -> Vec<&'static str>;
    /// The name of the evaluator in use (`param eval`).
    fn evaluator(&self) -> &'static str;
    /// Switches to the evaluator called `name`; the searcher forgets what
    /// it learnt with the other. On error nothing changes.
    fn select_evaluator(&mut self, name: &str) -> Result<(), String>;
    /// Replaces the game by a fresh one ([`Rules::renew`]) and forgets what
    /// the searcher learnt. The evaluator stays.
    fn renew(&mut self, size: usize, options: &Options) -> Result<(), String>;
    /// Searches the position for `color` within `limits` and reports the
    /// best move. The search works on a copy: whatever happens inside it,
    /// the game is left as it was.
    fn search(
        &mut self,
        color: Color,
        limits: &SearchLimits,
        request: SearchRequest<'_>,
    ) -> Option<SearchReport>;
    /// The static evaluation for `color` (as if it were to move).
    fn evaluate_for(&mut self, color: Color) -> i32;
    /// The fastest forced win of `color` (as if it were to move) within
    /// `max_plies` plies, by a full-width search within `limits`
    /// ([`crate::search::mate::fastest_win`]): its first move and length,
    /// or `None` (no win that fast, or the limits ran out).
    fn fastest_win(
        &mut self,
        color: Color,
        max_plies: u32,
        limits: &SearchLimits,
    ) -> Option<(String, u32)>;
    /// Sizes the searcher's table to `hash_mb` megabytes (cleared on
    /// change); on failure the old table stays.
    fn set_hash_mb(&mut self, hash_mb: usize) -> Result<(), String>;
    /// Gives back the memory that searches and solves filled (the tables
    /// are replaced by fresh ones of the same sizes, whose memory is
    /// committed only as it is used): for an engine that stays idle long,
    /// such as a browser tab's.
    fn release_memory(&mut self);
    /// Solves the position for `color` (as if it were to move) with the
    /// df-pn solver, whose table of `hash_mb` megabytes is kept between
    /// calls (cleared by [`Session::renew`] or a new size). The game is
    /// left as it was. Progress lines go to `progress`.
    fn solve(
        &mut self,
        color: Color,
        limits: &SolveLimits,
        hash_mb: usize,
        progress: &mut dyn FnMut(&str),
    ) -> SolveAnswer;
    /// Writes the solver's table to `out` under `tag`
    /// ([`Solver::save_table`]): the entries written.
    fn save_solver_table(&self, out: &mut dyn std::io::Write, tag: &str) -> std::io::Result<u64>;
    /// Replaces the solver's table by one of `hash_mb` megabytes holding
    /// what [`Session::save_solver_table`] wrote under `tag`
    /// ([`Solver::load_table`]): the entries read.
    fn load_solver_table(
        &mut self,
        input: &mut dyn std::io::Read,
        tag: &str,
        hash_mb: usize,
    ) -> std::io::Result<u64>;
    /// Solves every legal move of `color` (as if it were to move), each
    /// within `limits` counted from its own start: (move, value for
    /// `color` after it), in board order.
    fn solve_all(
        &mut self,
        color: Color,
        limits: &SolveLimits,
        hash_mb: usize,
        progress: &mut dyn FnMut(&str),
    ) -> Vec<(String, SolveAnswer)>;
}

/// A [`Game`] with its history, its evaluators and the searcher, seen
/// through [`Session`].
pub struct GameSession<G: Notation + Knowledge> {
    rules: RulesSession<G>,
    evaluators: Vec<Box<dyn EvalPlayers<G>>>,
    /// The index of the evaluator in use.
    current: usize,
    searcher: AlphaBeta<G>,
    solver: Solver<G>,
}

/// The value for `color` of a position with a solve report for its side
/// to move (`mover`): kept when `mover` is `color`, turned round
/// otherwise; a winning move is not named.
fn value_for<M>(value: &SolveValue<M>, mover: Color, color: Color) -> Solved {
    let mine = mover == color;
    match value {
        SolveValue::Win(_) if mine => Solved::Win(None),
        SolveValue::Win(_) => Solved::Loss,
        SolveValue::Loss if mine => Solved::Loss,
        SolveValue::Loss => Solved::Win(None),
        SolveValue::Draw => Solved::Draw,
        SolveValue::Unknown => Solved::Unknown,
    }
}

impl<G: Notation + Knowledge> GameSession<G> {
    /// Wraps a game with its evaluators (the first in use; at least one)
    /// and a searcher whose table has `hash_mb` megabytes.
    pub fn new(
        rules: RulesSession<G>,
        evaluators: Vec<Box<dyn EvalPlayers<G>>>,
        hash_mb: usize,
    ) -> Result<Self, String> {
        if evaluators.is_empty() {
            return Err("a game needs an evaluator".into());
        }
        let mut searcher = AlphaBeta::new(1);
        searcher.set_hash_mb(hash_mb)?;
        Ok(GameSession {
            rules,
            evaluators,
            current: 0,
            searcher,
            solver: Solver::new(DEFAULT_HASH_MB),
        })
    }
}

impl<G: Notation + Knowledge> Session for GameSession<G> {
    fn rules(&self) -> &dyn Rules {
        &self.rules
    }
    fn rules_mut(&mut self) -> &mut dyn Rules {
        &mut self.rules
    }
    fn evaluators(&self) -> Vec<&'static str> {
        self.evaluators.iter().map(|e| e.evaluator_name()).collect()
    }
    fn evaluator(&self) -> &'static str {
        self.evaluators[self.current].evaluator_name()
    }
    fn select_evaluator(&mut self, name: &str) -> Result<(), String> {
        let i = self
            .evaluators
            .iter()
            .position(|e| e.evaluator_name().eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                format!(
                    "{} has no evaluator '{name}' (known: {})",
                    self.rules.name(),
                    self.evaluators().join(", ")
                )
            })?;
        if i != self.current {
            self.current = i;
            self.searcher.clear();
        }
        Ok(())
    }
    fn renew(&mut self, size: usize, options: &Options) -> Result<(), String> {
        self.rules.renew(size, options)?;
        self.searcher.clear();
        self.solver.clear();
        Ok(())
    }
    fn search(
        &mut self,
        color: Color,
        limits: &SearchLimits,
        request: SearchRequest<'_>,
    ) -> Option<SearchReport> {
        // On a copy: a failing search (a panic) leaves the game untouched.
        let eval = &self.evaluators[self.current];
        let searcher = &mut self.searcher;
        self.rules.on_copy(color, |game| {
            eval.search(searcher, game, limits, request)
                .map(|r| SearchReport::new(game, &r))
        })
    }
    fn set_hash_mb(&mut self, hash_mb: usize) -> Result<(), String> {
        self.searcher.set_hash_mb(hash_mb)
    }
    fn release_memory(&mut self) {
        self.searcher.release_memory();
        self.solver.clear();
    }
    fn save_solver_table(&self, out: &mut dyn std::io::Write, tag: &str) -> std::io::Result<u64> {
        self.solver.save_table(out, tag)
    }
    fn load_solver_table(
        &mut self,
        input: &mut dyn std::io::Read,
        tag: &str,
        hash_mb: usize,
    ) -> std::io::Result<u64> {
        self.solver.load_table(input, tag, hash_mb)
    }
    fn solve(
        &mut self,
        color: Color,
        limits: &SolveLimits,
        hash_mb: usize,
        progress: &mut dyn FnMut(&str),
    ) -> SolveAnswer {
        self.solver.set_hash_mb(hash_mb);
        let solver = &mut self.solver;
        self.rules.on_copy(color, |game| {
            // The progress lines name the root's moves (HexGui's display).
            let names = game.clone();
            solver.set_move_names(Some(Box::new(move |m| names.format_move(m))));
            let r = solver.solve(game, limits, progress);
            solver.set_move_names(None);
            let value = match r.value {
                SolveValue::Win(m) => Solved::Win(Some(game.format_move(m))),
                ref v => value_for(v, color, color),
            };
            SolveAnswer {
                value,
                nodes: r.nodes,
                elapsed: r.elapsed,
                proof: r.proof,
            }
        })
    }
    fn solve_all(
        &mut self,
        color: Color,
        limits: &SolveLimits,
        hash_mb: usize,
        progress: &mut dyn FnMut(&str),
    ) -> Vec<(String, SolveAnswer)> {
        self.solver.set_hash_mb(hash_mb);
        let solver = &mut self.solver;
        self.rules.on_copy(color, |game| {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            moves.sort_by_cached_key(|&m| game.move_order(m));
            let mut out = Vec::new();
            for mv in moves {
                let text = game.format_listed_move(mv);
                let start = std::time::Instant::now();
                game.play(mv);
                let answer = match game.outcome() {
                    Some(o) => SolveAnswer {
                        value: match o {
                            Outcome::Win(c) if c == color => Solved::Win(None),
                            Outcome::Win(_) => Solved::Loss,
                            Outcome::Draw => Solved::Draw,
                        },
                        nodes: 0,
                        elapsed: start.elapsed(),
                        proof: None,
                    },
                    None => {
                        // Counted by player, a swap hands the turn to the
                        // other player, who now holds the swapper's old
                        // colour.
                        let mover = if game.to_move() == color && limits.by_player {
                            color.opponent()
                        } else {
                            game.to_move()
                        };
                        let limits = SolveLimits {
                            start,
                            ..limits.clone()
                        };
                        let r = solver.solve(game, &limits, progress);
                        SolveAnswer {
                            value: value_for(&r.value, mover, color),
                            nodes: r.nodes,
                            elapsed: r.elapsed,
                            proof: r.proof,
                        }
                    }
                };
                game.undo();
                progress(&format!("info solve_all {text} {}", answer.text()));
                out.push((text, answer));
            }
            out
        })
    }
    fn evaluate_for(&mut self, color: Color) -> i32 {
        let eval = &self.evaluators[self.current];
        self.rules.as_color(color, |game| eval.static_score(game))
    }
    fn fastest_win(
        &mut self,
        color: Color,
        max_plies: u32,
        limits: &SearchLimits,
    ) -> Option<(String, u32)> {
        self.rules.on_copy(color, |game| {
            match crate::search::mate::fastest_win(game, max_plies, limits, None) {
                Ok(Some((mv, plies))) => Some((game.format_move(mv), plies)),
                _ => None,
            }
        })
    }
}
