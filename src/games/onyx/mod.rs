//! Onyx (Larry Back): placement on a board of squares and triangles, the
//! midpoint rule, single and double capture, connection wins, swap.

mod board;
mod display;
pub mod distance;
pub mod eval;
pub mod geometry;
pub mod two_distance;

pub use board::{Onyx, OnyxMove, Start};
pub use geometry::{DEFAULT_SIZE, Geometry, MAX_SIZE, MIN_SIZE, Point};

/// Plays one random game on an `n`×`n` board from `start` to its end,
/// showing `visit` every position, the last one included (`visit` may
/// play and undo moves, but must leave the position as it found it).
#[cfg(test)]
pub(crate) fn random_game(
    rng: &mut rand::rngs::SmallRng,
    n: usize,
    start: Start,
    mut visit: impl FnMut(&mut Onyx),
) {
    use crate::game::Game;
    use rand::RngExt;
    let mut pos = Onyx::new(n, start).expect("a valid size");
    let mut moves = Vec::new();
    loop {
        visit(&mut pos);
        if pos.outcome().is_some() {
            return;
        }
        moves.clear();
        pos.legal_moves(&mut moves);
        let m = moves[rng.random_range(0..moves.len())];
        pos.play(m);
    }
}
