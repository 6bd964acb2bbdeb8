//! What the square-board games share beneath their rules: the edges a
//! colour joins, the Zobrist keys of the points, and the swap rule. A new
//! game takes them from here instead of writing them again.

use crate::game::{Color, Outcome, splitmix64};

/// Edge bit of the first row (row 1: the bottom, or Hex's top).
pub const FIRST_ROW: u8 = 1;
/// Edge bit of the last row.
pub const LAST_ROW: u8 = 2;
/// Edge bit of the first column (`A`).
pub const FIRST_COLUMN: u8 = 4;
/// Edge bit of the last column.
pub const LAST_COLUMN: u8 = 8;

/// The two edges `color` joins, as edge bits: Black the first and last
/// rows, White the first and last columns.
#[inline]
pub fn edge_bits(color: Color) -> (u8, u8) {
    match color {
        Color::Black => (FIRST_ROW, LAST_ROW),
        Color::White => (FIRST_COLUMN, LAST_COLUMN),
    }
}

/// Zobrist keys for `points` points, one for each colour's piece, drawn
/// in order from the SplitMix generator `seed` (which goes on from there
/// for the game's other keys).
pub fn point_keys(seed: &mut u64, points: usize) -> Vec<[u64; 2]> {
    (0..points)
        .map(|_| [splitmix64(seed), splitmix64(seed)])
        .collect()
}

/// The swap rule of every game (RULINGS, Common): White may swap as the
/// second move of the game, right after Black's first move, while the game
/// goes on. `moves` is the number of entries in the game's history and
/// `first_was_a_move` whether the first one is a real move (not a turn
/// handed over, nor a swap).
#[inline]
pub fn swap_allowed(
    outcome: Option<Outcome>,
    moves: usize,
    to_move: Color,
    first_was_a_move: bool,
) -> bool {
    outcome.is_none() && moves == 1 && to_move == Color::White && first_was_a_move
}
