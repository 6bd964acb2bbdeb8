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
    Evaluator, Player, Score, SearchLimits, SearchReport, SearchResult, baseline, mcts,
};
use crate::solve::{Knowledge, SolveLimits, SolveValue, Solver};
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
    fn history(&self) -> Vec<String>;
    /// Replaces the game by a fresh one on a `size`×`size` board with
    /// `options`; on error nothing changes.
    fn renew(&mut self, size: usize, options: &Options) -> Result<(), String>;
    /// Plays a move given as text for `color`. When `color` is not to move,
    /// the turn is handed over first, as GTP allows; `undo` takes both back.
    /// Once the game is over only a move the game takes after its end is
    /// played ([`Notation::parse_after_end`]: Hex's stones, for HexGui);
    /// the result stays as it was.
    fn play(&mut self, color: Color, text: &str) -> Result<(), MoveError>;
    /// Takes back one move; false when there is none.
    fn undo(&mut self) -> bool;
    /// All legal moves for `color`, in notation, as `legal_moves` writes
    /// them (for the colour not to move: as if the turn were handed over),
    /// in board order (see [`board_order`]).
    fn legal_moves_for(&mut self, color: Color) -> Vec<String>;
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
    fn position_json(&mut self) -> Result<serde_json::Value, String>;
}

/// Where a point written in the games' notation comes in board order:
/// (level, row, column), all from the name. A one-letter point (`C3`,
/// Hex's `c3`) is on level 0; a two-letter one names the block of rows
/// and columns it spans (Onyx's midpoint `DE1112`, Akron's `CD34` and
/// `CE810`): its level is the letter span, its row and column those of
/// its lower-left (first) corner. Capture marks (`D4*`) are ignored.
fn point_order(text: &str) -> Option<(usize, usize, usize)> {
    let text = text.trim_end_matches('*');
    let letters = text.bytes().take_while(u8::is_ascii_alphabetic).count();
    let digits = &text[letters..];
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let columns: Vec<usize> = text[..letters]
        .bytes()
        .map(|b| (b.to_ascii_uppercase() - b'A') as usize)
        .collect();
    match columns[..] {
        [c] => Some((0, digits.parse().ok()?, c)),
        [c1, c2] if c2 > c1 => {
            let span = c2 - c1;
            (1..digits.len()).find_map(|i| {
                let first: usize = digits[..i].parse().ok()?;
                let last: usize = digits[i..].parse().ok()?;
                (last == first + span).then_some((span, first, c1))
            })
        }
        _ => None,
    }
}

/// The order `legal_moves` lists moves in: placements (points) first,
/// level by level from the surface, each level row by row from row 1 and
/// each row from column `A` (Onyx: every grid point, then the midpoints
/// by their lower-left corner; Akron: the surface holes, then the higher
/// points level by level); then Akron's ball moves (`C3-DE45`) by their
/// origin, then their destination, in the same order; then any other
/// text; then `pass`; `swap` last.
pub fn board_order(text: &str) -> (u8, (usize, usize, usize), (usize, usize, usize)) {
    let none = (0, 0, 0);
    if text.eq_ignore_ascii_case("pass") {
        return (3, none, none);
    }
    if text.eq_ignore_ascii_case("swap") {
        return (4, none, none);
    }
    if let Some(p) = point_order(text) {
        return (0, p, none);
    }
    if let Some((from, to)) = text.split_once('-')
        && let (Some(a), Some(b)) = (point_order(from), point_order(to))
    {
        return (1, a, b);
    }
    (2, none, none)
}

/// A [`Game`] with its history, seen through [`Rules`].
pub struct RulesSession<G: Notation> {
    name: &'static str,
    new_game: NewGame<G>,
    game: G,
    /// The history: moves, and `None` for a turn handed over when a colour
    /// played out of turn.
    moves: Vec<Option<G::Move>>,
}

impl<G: Notation> RulesSession<G> {
    /// A fresh game `name` on a `size`×`size` board with `options`.
    pub fn new(
        name: &'static str,
        new_game: NewGame<G>,
        size: usize,
        options: &Options,
    ) -> Result<Self, String> {
        Ok(RulesSession {
            name,
            new_game,
            game: new_game(size, options)?,
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

    /// Runs `f` on the game with `color` to move: when it is the other
    /// colour's turn, the turn is handed over for `f` and taken back after.
    fn as_color<R>(&mut self, color: Color, f: impl FnOnce(&mut G) -> R) -> R {
        let handed_over = color != self.game.to_move();
        if handed_over {
            self.game.play_null();
        }
        let r = f(&mut self.game);
        if handed_over {
            self.game.undo();
        }
        r
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
    fn history(&self) -> Vec<String> {
        let mut replay = self.game.clone();
        for _ in 0..self.moves.len() {
            replay.undo();
        }
        let mut out = Vec::new();
        for &m in &self.moves {
            match m {
                Some(m) => {
                    out.push(replay.format_move(m));
                    replay.play(m);
                }
                None => replay.play_null(),
            }
        }
        out
    }
    fn renew(&mut self, size: usize, options: &Options) -> Result<(), String> {
        self.game = (self.new_game)(size, options)?;
        self.moves.clear();
        Ok(())
    }
    fn play(&mut self, color: Color, text: &str) -> Result<(), MoveError> {
        let over = self.game.outcome().is_some();
        if over && self.game.parse_after_end(text).is_none() {
            return Err(MoveError::Illegal("the game is over".into()));
        }
        let out_of_turn = color != self.game.to_move();
        if out_of_turn {
            self.game.play_null();
        }
        let parsed = if over {
            // A placement the game takes after its end (Hex).
            self.game
                .parse_after_end(text)
                .ok_or_else(|| MoveError::Illegal("the game is over".into()))
        } else {
            self.game.parse_move(text).and_then(|mv| {
                if self.game.is_legal(mv) {
                    Ok(mv)
                } else {
                    Err(MoveError::Illegal(format!("{text} is not legal here")))
                }
            })
        };
        match parsed {
            Ok(mv) => {
                if out_of_turn {
                    self.moves.push(None);
                }
                self.game.play(mv);
                self.moves.push(Some(mv));
                Ok(())
            }
            Err(e) => {
                if out_of_turn {
                    self.game.undo();
                }
                Err(e)
            }
        }
    }
    fn undo(&mut self) -> bool {
        if self.moves.pop().is_none() {
            return false;
        }
        self.game.undo();
        // A move played out of turn goes back with its handed-over turn.
        if self.moves.last() == Some(&None) {
            self.moves.pop();
            self.game.undo();
        }
        true
    }
    fn legal_moves_for(&mut self, color: Color) -> Vec<String> {
        let mut out = self.as_color(color, |game| {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            moves
                .into_iter()
                .map(|m| game.format_listed_move(m))
                .collect::<Vec<String>>()
        });
        out.sort_by_cached_key(|m| (board_order(m), m.clone()));
        out
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
        perft_until(&mut self.game, depth, stop)
    }
    fn setup(&mut self, placements: &[(Option<Color>, &str)]) -> Result<(), String> {
        if !self.moves.is_empty() {
            return Err("setup is only allowed before the first move".into());
        }
        let before = self.game.clone();
        for &(color, point) in placements {
            if let Err(e) = self.game.setup(color, point) {
                self.game = before;
                return Err(e);
            }
        }
        Ok(())
    }
    fn set_to_move(&mut self, color: Color) -> Result<(), String> {
        // Every game refuses it after the first move itself.
        self.game.set_to_move(color)
    }
    fn position_mut(&mut self) -> &mut dyn Any {
        &mut self.game
    }
    fn position_json(&mut self) -> Result<serde_json::Value, String> {
        position_json(self)
    }
}

/// The name of a piece's colour in the `position` answer.
fn piece_name(piece: Option<Color>) -> serde_json::Value {
    piece.map_or(serde_json::Value::Null, |c| c.name().into())
}

/// [`Rules::position_json`] of a [`RulesSession`].
fn position_json<G: Notation>(rules: &mut RulesSession<G>) -> Result<serde_json::Value, String> {
    use serde_json::json;
    let drawing = rules.game.drawing();
    if drawing.points.is_empty() {
        return Err(format!("{} has no drawing", rules.name));
    }
    // The last move, who played it, and the points it changed besides its
    // own: captures (Onyx) empty points, drops (Akron) move balls down.
    let mut last = serde_json::Value::Null;
    let (mut added, mut removed) = (Vec::new(), Vec::new());
    if let Some(&Some(mv)) = rules.moves.last() {
        let mut before = rules.game.clone();
        before.undo();
        let color = before.to_move();
        last = json!({"color": color.name(), "move": before.format_move(mv)});
        let old = before.drawing();
        for (a, b) in old.points.iter().zip(&drawing.points) {
            if a.piece != b.piece {
                if a.piece.is_some() {
                    removed.push(json!({"point": a.name, "piece": piece_name(a.piece)}));
                }
                if b.piece.is_some() {
                    added.push(json!({"point": b.name, "piece": piece_name(b.piece)}));
                }
            }
        }
    }
    let to_move = rules.game.to_move();
    let legal = if rules.game.outcome().is_some() {
        Vec::new()
    } else {
        rules.legal_moves_for(to_move)
    };
    let outcome = rules.game.outcome();
    let points: Vec<serde_json::Value> = drawing
        .points
        .iter()
        .map(|p| {
            json!({"name": p.name, "x": p.x, "y": p.y, "level": p.level,
                   "piece": piece_name(p.piece), "edges": p.edges})
        })
        .collect();
    let labels: Vec<serde_json::Value> = drawing
        .labels
        .iter()
        .map(|l| json!({"text": l.text, "x": l.x, "y": l.y}))
        .collect();
    let facts: serde_json::Map<String, serde_json::Value> = drawing
        .facts
        .iter()
        .map(|(k, v)| (k.clone(), v.clone().into()))
        .collect();
    Ok(json!({
        "game": rules.name,
        "size": rules.game.size(),
        "shape": drawing.shape,
        "to_move": to_move.name(),
        "moves_played": rules.game.moves_played(),
        "result": outcome.map(|o| o.score_text()),
        "winner": match outcome {
            Some(Outcome::Win(c)) => c.name().into(),
            _ => serde_json::Value::Null,
        },
        "points": points,
        "lines": drawing.lines.iter().map(|&(a, b)| [a, b]).collect::<Vec<_>>(),
        "labels": labels,
        "legal": legal,
        "last_move": last,
        "history": rules.history(),
        "added": added,
        "removed": removed,
        "chain": drawing.chain,
        "facts": facts,
    }))
}

/// How `genmove` and `analyze` search: the player, threads and where the
/// searcher's progress goes.
pub struct SearchRequest<'a> {
    /// Whom to ask for the move.
    pub player: Player,
    /// Search threads (alpha-beta only).
    pub threads: usize,
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
                searcher.search(game, self, limits, &mut |g, it| {
                    progress(&SearchReport::new(g, it))
                })
            }
            Player::Mcts => mcts::search(game, self, limits, request.rng),
            Player::Greedy => baseline::greedy_move(game, self, request.rng, limits)
                .map(|(mv, score)| SearchResult::single(mv, score, limits.start)),
            Player::Random => baseline::random_move(game, request.rng)
                .map(|mv| SearchResult::single(mv, 0, limits.start)),
        }
    }
}

/// What `solve` found, in notation.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveAnswer {
    /// `win MOVE`, `loss`, `draw` or `unknown` (for `solve_all`, the
    /// value for the side that made the move, without a move).
    pub value: String,
    /// Nodes the solver expanded.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: std::time::Duration,
}

impl SolveAnswer {
    /// `VALUE nodes N time T`, as `solve` answers.
    pub fn text(&self) -> String {
        format!(
            "{} nodes {} time {:.2}",
            self.value,
            self.nodes,
            self.elapsed.as_secs_f64()
        )
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
fn value_for<M>(value: &SolveValue<M>, mover: Color, color: Color) -> &'static str {
    let mine = mover == color;
    match value {
        SolveValue::Win(_) if mine => "win",
        SolveValue::Win(_) => "loss",
        SolveValue::Loss if mine => "loss",
        SolveValue::Loss => "win",
        SolveValue::Draw => "draw",
        SolveValue::Unknown => "unknown",
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
            solver: Solver::new(crate::engine::params::DEFAULT_SOLVE_HASH_MB),
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
                SolveValue::Win(m) => format!("win {}", game.format_move(m)),
                ref v => value_for(v, color, color).to_string(),
            };
            SolveAnswer {
                value,
                nodes: r.nodes,
                elapsed: r.elapsed,
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
        let mut out = self.rules.on_copy(color, |game| {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            let mut out = Vec::new();
            for mv in moves {
                let text = game.format_listed_move(mv);
                let start = std::time::Instant::now();
                game.play(mv);
                let answer = match game.outcome() {
                    Some(o) => SolveAnswer {
                        value: match o {
                            Outcome::Win(c) if c == color => "win",
                            Outcome::Win(_) => "loss",
                            Outcome::Draw => "draw",
                        }
                        .to_string(),
                        nodes: 0,
                        elapsed: start.elapsed(),
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
                            value: value_for(&r.value, mover, color).to_string(),
                            nodes: r.nodes,
                            elapsed: r.elapsed,
                        }
                    }
                };
                game.undo();
                out.push((text, answer));
            }
            out
        });
        out.sort_by_cached_key(|(m, _)| (board_order(m), m.clone()));
        out
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
