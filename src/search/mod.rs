//! Searchers, generic over a [`Game`] and an [`Evaluator`] of it: they know
//! nothing of any particular game.

use crate::game::{Effort, Game, Notation};

/// Score units: a static evaluation stays well inside `±WIN_BASE`.
pub type Score = i32;

/// Scores at or above `WIN_BASE - MAX_PLY` (or at or below its negation) are
/// proven wins (losses); the distance to the end is subtracted so that the
/// fastest win and the slowest loss are preferred.
pub const WIN_BASE: Score = 1_000_000;

/// What [`Evaluator::evaluate`] returns to say that the side to move has a
/// move that wins at once; the searcher turns it into a proven win one ply
/// away (a cheap forcing-move extension at the horizon). It is
/// [`win_in`]`(1)`.
pub const WIN_NEXT_MOVE: Score = WIN_BASE / 2;

/// Most plies to the end that a proven evaluation ([`win_in`],
/// [`loss_in`]) may name.
pub const MAX_PROVEN_PLIES: Score = 16;

/// What [`Evaluator::evaluate`] returns for a position the side to move wins
/// by force in `plies` plies (1 to [`MAX_PROVEN_PLIES`]; 1 is
/// [`WIN_NEXT_MOVE`]). The searcher scores it as the win it is, that many
/// plies away.
pub const fn win_in(plies: Score) -> Score {
    WIN_NEXT_MOVE - (plies - 1)
}

/// What [`Evaluator::evaluate`] returns for a position the side to move
/// loses by force in `plies` plies (1 to [`MAX_PROVEN_PLIES`]).
pub const fn loss_in(plies: Score) -> Score {
    -win_in(plies)
}

/// The plies to the end named by a proven evaluation ([`win_in`],
/// [`loss_in`]): positive for a win of the side to move, negative for its
/// loss; `None` for an ordinary score.
pub fn proven_plies(e: Score) -> Option<Score> {
    (e.abs() > WIN_NEXT_MOVE - MAX_PROVEN_PLIES).then(|| e.signum() * (WIN_NEXT_MOVE - e.abs() + 1))
}

/// A static evaluation as a search score at `ply` from the root: a proven
/// result becomes the win or loss it names, counted from the root (so the
/// fastest win and the slowest loss are preferred); any other score is
/// itself.
pub fn search_score(e: Score, ply: Score) -> Score {
    match proven_plies(e) {
        Some(p) if p > 0 => WIN_BASE - (ply + p),
        Some(p) => -(WIN_BASE - (ply - p)),
        None => e,
    }
}

/// The searcher's tuning for one evaluation: pruning margins and limits,
/// each turned off (`None`) unless matches showed it pays with that
/// evaluation. Each evaluation states its values beside the measurement
/// that justifies them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Tuning {
    /// Reverse futility pruning: a node one or two plies from the horizon
    /// whose static score beats beta by this margin for each ply left
    /// fails high without a search (never while the opponent threatens to
    /// win at once).
    pub futility_margin: Option<Score>,
    /// Razoring: a node one ply from the horizon whose static score falls
    /// short of alpha by this margin fails low without a search (never
    /// while the opponent threatens to win at once, nor where
    /// [`Evaluator::razor_allowed`] says no).
    pub razor_margin: Option<Score>,
    /// Late-move pruning: a node one or two plies from the horizon
    /// searches only its first `limit × depth²` moves in the searcher's
    /// order, and of the rest only those after which the mover threatens
    /// to win at once ([`Evaluator::opponent_threatens`] of the position
    /// after the move), unless the best score so far is a proven result.
    /// Never while the opponent threatens to win at once, nor where the
    /// static score is a proven result (a move wins at once).
    pub late_move_limit: Option<usize>,
    /// The [`Effort`] searchers give a costly rule decision inside a search
    /// (Orcoon's pass adjudication); `None`: every decision exact.
    pub rule_effort: Option<u64>,
    /// The nodes where the searcher asks the evaluation's knowledge
    /// ([`Evaluator::proven_result`], [`Evaluator::prune_by_knowledge`]):
    /// the root and every node with at least this many plies left
    /// (`i32::MAX`: the root only); `None`: never.
    pub knowledge_depth: Option<i32>,
    /// Each node costs milliseconds (an evaluation that builds connections
    /// at every node): the root, too, searches the evaluation's candidate
    /// moves only (all legal moves only when every candidate loses), and
    /// the clock is read at every node.
    pub costly_nodes: bool,
}

impl Tuning {
    /// How searchers make moves under this tuning.
    #[inline]
    pub fn effort(&self) -> Effort {
        self.rule_effort.map_or(Effort::Exact, Effort::Bounded)
    }
}

/// A static evaluation of a game and the search knowledge that goes with it
/// (move ordering, candidate moves, threats, pruning margins). It is a
/// value apart from the rules, so a game can have several and a searcher
/// is generic over the one it is given. Evaluations sit beside their
/// game's rules.
pub trait Evaluator<G: Game>: Send + Sync + 'static {
    /// The name `param eval` selects it by.
    fn name(&self) -> &'static str;

    /// The pruning margins and limits the searcher uses with this
    /// evaluation.
    fn tuning(&self) -> Tuning {
        Tuning::default()
    }

    /// Static score of `pos` for the side to move (positive is good for
    /// it). Only called on positions where the game is not over. Must stay
    /// within `±(WIN_BASE / 4)`, or be a proven result: [`win_in`] or
    /// [`loss_in`] ([`WIN_NEXT_MOVE`] for a win at once).
    fn evaluate(&self, pos: &G) -> Score;

    /// Called in the searching thread when the searcher forgets what it
    /// learnt (a new searcher, a new game), as chess engines clear their
    /// table for a new game: an evaluation that keeps knowledge between
    /// positions in its thread's caches (Hex's connections, updated from
    /// the positions asked before, which a game's later searches build on)
    /// forgets it, so that the first search of a game depends only on its
    /// position and limits (`bench` is a signature). The default keeps
    /// nothing.
    fn forget(&self) {}

    /// A cheap guess of how good `mv` is for the side to move, used only to
    /// order moves (higher first). The default orders nothing.
    fn move_order_hint(&self, pos: &G, mv: G::Move) -> Score {
        let _ = (pos, mv);
        0
    }

    /// The moves worth searching at the root: a root is one node against
    /// the tree below it, so an evaluation that keeps few moves below the
    /// root may keep more here (what [`Self::candidate_moves`] must keep,
    /// this must keep too). The default is [`Self::candidate_moves`].
    fn root_candidate_moves(&self, pos: &G, out: &mut Vec<G::Move>) {
        self.candidate_moves(pos, out)
    }

    /// The moves worth searching below the root: a subset of the legal
    /// moves that must keep every move that wins at once and every move that
    /// stops an immediate win of the opponent. The default keeps them all.
    fn candidate_moves(&self, pos: &G, out: &mut Vec<G::Move>) {
        pos.legal_moves(out);
    }

    /// Whether the opponent of the side to move could win with its next
    /// move if the side to move did nothing: the searcher then looks one
    /// ply further instead of scoring the position (a check extension, so
    /// that double threats at the horizon are seen). The default is never.
    fn opponent_threatens(&self, pos: &G) -> bool {
        let _ = pos;
        false
    }

    /// Whether razoring may cut this node (asked only when its static
    /// score falls short of alpha by [`Tuning::razor_margin`]): an
    /// evaluation says no where the side to move is close enough to winning
    /// that a forcing line could hide behind a poor score. The default is
    /// yes.
    fn razor_allowed(&self, pos: &G) -> bool {
        let _ = pos;
        true
    }

    /// For late-move pruning: fills `out` with every move after which the
    /// side to move may threaten to win at once, and returns `true`; or
    /// returns `false` when it cannot tell cheaply (then each late move is
    /// made and [`Evaluator::opponent_threatens`] asked). Moves left out are
    /// pruned without being made. The default cannot tell.
    fn late_move_threats(&self, pos: &G, out: &mut Vec<G::Move>) -> bool {
        let _ = (pos, out);
        false
    }

    /// A small number standing for `mv` in history tables (reduced modulo
    /// the table size by the searcher). The default maps every move to 0.
    fn history_index(&self, pos: &G, mv: G::Move) -> usize {
        let _ = (pos, mv);
        0
    }

    /// What knowledge beyond the score proves about `pos` (not over):
    /// `Some((true, plies))` when the side to move wins by force,
    /// `Some((false, plies))` when it loses by force, the game ending
    /// within `plies` plies either way; `None` says nothing. Asked at the
    /// nodes [`Tuning::knowledge_depth`] names (Hex: its virtual
    /// connections, the ones the solver uses). The default knows nothing.
    ///
    /// Sound: a result given is the position's true value.
    fn proven_result(&self, pos: &G) -> Option<(bool, u32)> {
        let _ = pos;
        None
    }

    /// Removes from `moves` (moves of the side to move on `pos`, for which
    /// [`Evaluator::proven_result`] said nothing) moves that knowledge
    /// shows to lose or to be no better than a kept one: outside the
    /// opponent's must-play region, dead or dominated. It may leave none
    /// (when none of `moves` can matter). The default removes nothing.
    ///
    /// Sound: if the side to move can force a win with one of `moves`, a
    /// kept move does too.
    fn prune_by_knowledge(&self, pos: &G, moves: &mut Vec<G::Move>) {
        let _ = (pos, moves);
    }
}

pub mod alphabeta;
pub mod baseline;
pub mod mate;
pub mod mcts;
pub mod puct;
pub mod tt;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What a search may spend.
#[derive(Clone, Debug)]
pub struct SearchLimits {
    /// Deepest iteration.
    pub max_depth: u32,
    /// Time budget from `start`; `None` for no limit.
    pub time: Option<Duration>,
    /// Search on to the deadline: time the move leaves unused is lost (a
    /// time per move, a byo-yomi period's last stone). Otherwise an
    /// iteration unlikely to finish in time is not begun, and the time
    /// stays on the clock.
    pub to_deadline: bool,
    /// When the command arrived.
    pub start: Instant,
    /// Set from outside to stop the search at once (end of input, the
    /// `stop` command): it then answers with the best move it has.
    pub interrupt: Option<Arc<AtomicBool>>,
}

impl SearchLimits {
    /// Limits of `max_depth` plies and `time`, searched to the deadline,
    /// from now, with no interruption.
    pub fn new(max_depth: u32, time: Option<Duration>) -> SearchLimits {
        SearchLimits {
            max_depth,
            time,
            to_deadline: true,
            start: Instant::now(),
            interrupt: None,
        }
    }

    /// When the time runs out, if it does.
    pub fn deadline(&self) -> Option<Instant> {
        self.time.map(|t| self.start + t)
    }

    /// Whether the search has been interrupted from outside.
    #[inline]
    pub fn interrupted(&self) -> bool {
        self.interrupt
            .as_ref()
            .is_some_and(|i| i.load(Ordering::Relaxed))
    }

    /// Whether the search must stop now: its time is up or it has been
    /// interrupted.
    pub fn expired(&self) -> bool {
        self.deadline().is_some_and(|d| Instant::now() >= d) || self.interrupted()
    }
}

/// What a search found, in the game's moves: its result, and each
/// completed iteration as it is reported.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The chosen move.
    pub best: M,
    /// Its score for the side to move.
    pub score: Score,
    /// Depth of the last finished iteration (0: none finished).
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// Time used.
    pub elapsed: Duration,
    /// Expected line, starting with the best move.
    pub pv: Vec<M>,
    /// With more than one line asked for (`param multipv`): the best few
    /// root moves of the last completed iteration, each with its exact
    /// score and line, the first being `best` (see
    /// [`alphabeta::AlphaBeta::multipv`]); empty otherwise.
    pub lines: Vec<Line<M>>,
}

/// One of the best root moves of a multi-PV search: its exact score for
/// the side to move and its expected line, starting with the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line<M> {
    /// The score of the line's first move.
    pub score: Score,
    /// The line, starting with the root move.
    pub pv: Vec<M>,
}

impl<M: Copy> SearchResult<M> {
    /// The result of a player that chose `best` without a search (one
    /// node, depth 1) for a command that arrived at `start`.
    pub fn single(best: M, score: Score, start: Instant) -> Self {
        SearchResult {
            best,
            score,
            depth: 1,
            nodes: 1,
            elapsed: start.elapsed(),
            pv: vec![best],
            lines: Vec::new(),
        }
    }
}

/// Where a searcher reports each completed iteration (the main thread's):
/// called with the root position, which it must leave as it found it.
/// The searcher itself never writes anywhere; whoever runs it decides
/// where progress goes.
pub type Progress<'a, G> = &'a mut dyn FnMut(&mut G, &SearchResult<<G as Game>::Move>);

/// The result of a search, written in the game's notation.
#[derive(Clone, Debug)]
pub struct SearchReport {
    /// The chosen move, in notation.
    pub best_move: String,
    /// Its score for the side to move.
    pub score: Score,
    /// Depth of the last finished iteration.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// Time used.
    pub elapsed: Duration,
    /// Expected line, starting with the best move.
    pub pv: Vec<String>,
    /// The best few root moves of a multi-PV search, in notation (see
    /// [`SearchResult::lines`]); empty otherwise.
    pub lines: Vec<Line<String>>,
}

impl SearchReport {
    /// Writes `result` in the notation of `game`, the position searched.
    pub fn new<G: Notation>(game: &mut G, result: &SearchResult<G::Move>) -> SearchReport {
        SearchReport {
            best_move: game.format_move(result.best),
            score: result.score,
            depth: result.depth,
            nodes: result.nodes,
            elapsed: result.elapsed,
            pv: format_line(game, &result.pv),
            lines: result
                .lines
                .iter()
                .map(|l| Line {
                    score: l.score,
                    pv: format_line(game, &l.pv),
                })
                .collect(),
        }
    }
}

/// Writes a line of moves played from `game` (left as it was).
pub fn format_line<G: Notation>(game: &mut G, line: &[G::Move]) -> Vec<String> {
    let mut out = Vec::with_capacity(line.len());
    for &m in line {
        out.push(game.format_move(m));
        game.play(m);
    }
    for _ in line {
        game.undo();
    }
    out
}

/// Which player `genmove` uses (`param player`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// The alpha-beta searcher (the engine's strength).
    AlphaBeta,
    /// Plain UCT with uniformly random playouts.
    Mcts,
    /// Monte-Carlo tree search guided by the evaluation and its knowledge
    /// ([`puct`]).
    KnowledgeMcts,
    /// The move with the best one-ply evaluation.
    Greedy,
    /// A uniformly random legal move.
    Random,
}

impl Player {
    /// Every player, as `param player` names them.
    pub const ALL: [Player; 5] = [
        Player::AlphaBeta,
        Player::Mcts,
        Player::KnowledgeMcts,
        Player::Greedy,
        Player::Random,
    ];

    /// The name `param player` uses.
    pub fn name(self) -> &'static str {
        match self {
            Player::AlphaBeta => "alphabeta",
            Player::Mcts => "mcts",
            Player::KnowledgeMcts => "knowledge_mcts",
            Player::Greedy => "greedy",
            Player::Random => "random",
        }
    }

    /// Parses a name.
    pub fn parse(text: &str) -> Option<Player> {
        Player::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(text))
    }
}

impl SearchReport {
    /// The report as an `info` line: `info depth D score S nodes N nps X
    /// time MS pv M1 M2 ...`.
    pub fn info_line(&self) -> String {
        self.info_text("", self.score, &self.pv)
    }

    /// The report as `info` lines: the one [`SearchReport::info_line`],
    /// or with several lines (multi-PV) one for each, best first, each
    /// numbered: `info depth D multipv I score S nodes N nps X time MS pv
    /// M1 M2 ...`.
    pub fn info_lines(&self) -> Vec<String> {
        if self.lines.len() <= 1 {
            return vec![self.info_line()];
        }
        self.lines
            .iter()
            .enumerate()
            .map(|(i, l)| self.info_text(&format!(" multipv {}", i + 1), l.score, &l.pv))
            .collect()
    }

    /// One `info` line with `tag` after the depth, for a line of `score`.
    fn info_text(&self, tag: &str, score: Score, pv: &[String]) -> String {
        let ms = self.elapsed.as_millis();
        let nps = self.nodes as u128 * 1000 / ms.max(1);
        format!(
            "info depth {}{tag} score {} nodes {} nps {nps} time {ms} pv {}",
            self.depth,
            alphabeta::score_text(score),
            self.nodes,
            pv.join(" ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proven_evaluations_name_their_plies() {
        assert_eq!(win_in(1), WIN_NEXT_MOVE);
        for p in 1..=MAX_PROVEN_PLIES {
            assert_eq!(proven_plies(win_in(p)), Some(p));
            assert_eq!(proven_plies(loss_in(p)), Some(-p));
        }
        for e in [0, 1, -1, WIN_BASE / 4, -WIN_BASE / 4] {
            assert_eq!(proven_plies(e), None);
        }
        assert_eq!(proven_plies(win_in(MAX_PROVEN_PLIES + 1)), None);
        assert_eq!(search_score(win_in(3), 2), WIN_BASE - 5);
        assert_eq!(search_score(loss_in(2), 4), -(WIN_BASE - 6));
        assert_eq!(search_score(-40, 7), -40);
    }
}
