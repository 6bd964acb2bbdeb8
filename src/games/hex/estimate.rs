//! What Hex's knowledge tells the df-pn solver beyond proofs: estimates of
//! a new position's proof and disproof numbers
//! ([`crate::solve::Knowledge::estimate`]) and the order of a node's moves
//! ([`crate::solve::Knowledge::order_moves`]). Both steer the search and
//! never decide a position, so neither can make an answer wrong.

use super::board::{Hex, HexMove};
use super::eval::evaluate_two_distance;
use crate::game::Game;

/// (φ, δ) of the side to move at `pos` (not over, on a board with
/// connection knowledge): (1, the number of moves the knowledge leaves
/// it), the values its first expansion would give, as df-pn+ initialises
/// them. A side left few moves (a small must-play region) is cheap to
/// refute, so its parent tries the move that left it so first.
pub(super) fn estimate(pos: &mut Hex) -> (u32, u32) {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    if !moves.is_empty() {
        super::vc::keep_moves(pos, &mut moves, super::vc::solver_mode());
    }
    (1, moves.len().max(1) as u32)
}

/// `moves` best first for the side to move: by the two-distance evaluation
/// ([`evaluate_two_distance`]) after each move, from the opponent's view,
/// lowest first (a move that wins at once first of all); stable.
pub(super) fn order_moves(pos: &mut Hex, moves: &mut [HexMove]) {
    crate::solve::knowledge::order_by_evaluation(pos, moves, |p| evaluate_two_distance(p) as i64);
}
