//! Exact solving: a df-pn (depth-first proof-number) searcher over any
//! [`crate::game::Game`], rules only, with its own transposition table
//! ([`dfpn`]), and the connection knowledge a game may lend it
//! ([`knowledge`]). It answers whether a side can force a win, and with
//! two searches whether a position is a win, a loss or a draw.

pub mod dfpn;
mod expansions;
pub mod knowledge;

pub use dfpn::{Proof, SolveLimits, SolveReport, SolveValue, Solver, Strategy};
pub use knowledge::Knowledge;

/// The solver's table size in megabytes when none is chosen (the default
/// of `param solve_hash`).
pub const DEFAULT_HASH_MB: usize = 64;
