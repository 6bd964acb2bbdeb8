//! Moves the board's symmetries make redundant or losing (Benzene's
//! `EndgameUtil::ComputeConsiderSet`), for the solver and the searcher.
//!
//! # Rotation twins
//!
//! The half-turn `(x, y) → (n−1−x, n−1−y)` maps each colour's two edges to
//! themselves, so it maps a position to one of the same value (for either
//! count, by colour or by player: the swap is symmetric too). When a
//! position is its own half-turn (the empty board, and every position with
//! each stone's twin of its colour), a move and its twin lead to positions
//! that are each other's half-turn: equal values, so one of each pair is
//! enough. [`prune`] keeps the lower cell of each pair that is still in the
//! list, so whenever a dropped move wins, its kept twin wins too.
//!
//! # Strategy-stealing losses
//!
//! The reflections `(x, y) → (y, x)` and `(x, y) → (n−1−y, n−1−x)` swap the
//! two colours' edges. A position that one of them maps to itself with the
//! colours exchanged is won by the side to move: the positions with either
//! side to move are then the same game with the players' names exchanged,
//! so if the side not to move won, the side to move could take any cell
//! (an extra stone never hurts in Hex) and win as the second player of the
//! exchanged game. So a move that hands the opponent such a position loses:
//! with the mover M one stone behind the opponent O, the move `m` whose
//! addition makes M's stones the reflection of O's. [`prune`] drops those
//! moves while another move stays (no swap can follow them: the swap is
//! only the second move, and it changes no stone).

use super::board::{Hex, HexMove};
use crate::game::{Color, Game};

/// Whether cell `c` holds `color`'s stone in `pos`.
fn holds(pos: &Hex, c: usize, color: Color) -> bool {
    pos.at(c as u16) == Some(color)
}

/// How many stones `color` has in `pos`.
fn count(pos: &Hex, color: Color) -> u32 {
    pos.bits(color).iter().map(|w| w.count_ones()).sum()
}

/// The half-turn of cell `c` on an `n`×`n` board.
fn rotate(n: usize, c: usize) -> usize {
    n * n - 1 - c
}

/// Whether the half-turn maps `pos` to itself.
pub fn is_own_half_turn(pos: &Hex) -> bool {
    let n = pos.geometry().n;
    (0..n * n).all(|c| pos.at(c as u16) == pos.at(rotate(n, c) as u16))
}

/// The moves of the side to move that lose by the strategy-stealing
/// argument (see the module documentation), as cells.
pub fn strategy_stealing_losses(pos: &Hex) -> Vec<usize> {
    let n = pos.geometry().n;
    let mover = pos.to_move();
    let other = mover.opponent();
    if count(pos, other) != count(pos, mover) + 1 {
        return Vec::new();
    }
    let reflections: [fn(usize, usize, usize) -> usize; 2] =
        [|n, x, y| x * n + y, |n, x, y| (n - 1 - x) * n + (n - 1 - y)];
    let mut out = Vec::new();
    for reflect in reflections {
        // The reflection of each opponent stone must be the mover's, but
        // for one empty cell: the losing move.
        let mut missing = None;
        let mut fits = true;
        for c in (0..n * n).filter(|&c| holds(pos, c, other)) {
            let r = reflect(n, c % n, c / n);
            if holds(pos, r, mover) {
                continue;
            }
            if pos.at(r as u16).is_some() || missing.is_some() {
                fits = false;
                break;
            }
            missing = Some(r);
        }
        if fits && let Some(m) = missing {
            out.push(m);
        }
    }
    out
}

/// Drops from `moves` the strategy-stealing losses (while another move
/// stays) and, in a position that is its own half-turn, the higher cell
/// of each pair of twins both in the list. Whenever the side to move has a
/// winning move in `moves`, one stays.
pub fn prune(pos: &Hex, moves: &mut Vec<HexMove>) {
    let losses = strategy_stealing_losses(pos);
    if !losses.is_empty() {
        let lost =
            |mv: &HexMove| matches!(mv, HexMove::Place(c) if losses.contains(&(*c as usize)));
        if moves.iter().any(|mv| !lost(mv)) {
            moves.retain(|mv| !lost(mv));
        }
    }
    crate::solve::knowledge::keep_one_of_twins(pos, moves);
}
