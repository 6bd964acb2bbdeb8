//! Searchers, generic over [`Game`] + [`Evaluate`]: they know nothing of any
//! particular game.

use crate::game::Game;

/// Score units: a static evaluation stays well inside `±WIN_BASE`.
pub type Score = i32;

/// Scores at or above `WIN_BASE - MAX_PLY` (or at or below its negation) are
/// proven wins (losses); the distance to the end is subtracted so that the
/// fastest win and the slowest loss are preferred.
pub const WIN_BASE: Score = 1_000_000;

/// A game's static evaluation, written beside its rules.
pub trait Evaluate: Game {
    /// Static score of the position for the side to move (positive is good
    /// for it). Only called on positions where the game is not over. Must stay
    /// within `±(WIN_BASE / 2)`.
    fn evaluate(&self) -> Score;

    /// A cheap guess of how good `mv` is for the side to move, used only to
    /// order moves (higher first). The default orders nothing.
    fn move_order_hint(&self, mv: Self::Move) -> Score {
        let _ = mv;
        0
    }

    /// A small number standing for `mv` in history tables (reduced modulo
    /// the table size by the searcher). The default maps every move to 0.
    fn history_index(&self, mv: Self::Move) -> usize {
        let _ = mv;
        0
    }
}

pub mod alphabeta;
pub mod tt;

use std::time::{Duration, Instant};

/// What a search may spend.
#[derive(Clone, Debug)]
pub struct SearchLimits {
    /// Deepest iteration.
    pub max_depth: u32,
    /// Time budget from `start`; `None` for no limit.
    pub time: Option<Duration>,
    /// When the command arrived.
    pub start: Instant,
}

/// The result of a search.
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
}
