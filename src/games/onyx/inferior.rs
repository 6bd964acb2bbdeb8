//! Dead points of Onyx: empty points where a piece of either colour can
//! never matter, found from facts that captures cannot undo.
//!
//! Hex's dead cells rest on "an extra piece of one's own never hurts",
//! which is false in Onyx: a piece can be captured, it can complete a
//! crosscut that captures, and a piece on a square's corner forbids the
//! midpoint. So the rule here first asks which pieces are **permanent**
//! (never captured, whatever is played), then which empty points a piece
//! could never matter on.
//!
//! **Permanent pieces.** A midpoint's piece is never captured (captures
//! take corners). A corner piece of colour X on square S (midpoint empty)
//! is safe in S when its diagonal partner is a permanent piece of the
//! other colour, or a corner of the other diagonal is a permanent piece of
//! X: S can then never hold X on one diagonal and the other colour on the
//! other. The permanent pieces are the largest set in which every piece
//! is safe in each of its squares with an empty midpoint (computed by
//! removing unsafe pieces until none is left: no piece of the set can be
//! the first of it to be captured).
//!
//! **Dead points.** An empty grid point `p` is dead when
//!
//! 1. *no square of `p` can ever hold a crosscut*: each square `p` is a
//!    corner of has its midpoint taken, or its other diagonal holds two
//!    permanent pieces of different colours, or `p`'s diagonal partner and
//!    a corner of the other diagonal are permanent pieces of one colour.
//!    Then a piece on `p` is never captured, never captures, and forbids
//!    no midpoint that could still be taken (each such square has a
//!    permanent corner piece, or its midpoint is taken); and
//! 2. *for each colour C, `p` is on no chain of C that needs it*: the
//!    points next to `p` that could ever hold C (not a permanent piece of
//!    the other colour, not a midpoint that can never be taken), with C's
//!    edges that `p` is on, are pairwise *linked*: two points by a line,
//!    by lying on one edge of C, or by a permanent piece of C (other than
//!    `p`) next to both; an edge and a point by the point lying on it or
//!    next to a permanent piece of C (other than `p`) on it. A chain of C
//!    through `p` then goes around it (a chain ending on `p` at an edge
//!    starts at the next point, or at that permanent piece, instead).
//!
//! So a piece on a dead point changes no move's legality, no capture and
//! no connection: placing it is a pass. Both conditions rest on permanent
//! facts, so a dead point stays dead. Why a pass may be dropped although
//! Onyx has none (a move could be a zugzwang's way out): a position with
//! dead points has the value of the same position with two of them
//! removed, since whoever wins (or holds a draw) in the smaller game
//! answers a move on a dead point by another one. So the value depends on
//! the dead points only through the parity of their number: with an even
//! number, no move on one is needed; with an odd number, one of them (a
//! pass) is as good as any other. [`prune_dead_points`] keeps exactly
//! that. `tests/it/onyx_vc.rs` checks it against minimax: the value kept,
//! a dead point filled by either colour giving the same value, and two
//! filled giving the position's value.

use super::OnyxMove;
use super::board::Onyx;
use super::geometry::Point;
use crate::game::{Color, Game};
use crate::games::common::edge_bits;

/// The permanent pieces of `pos` (see the module documentation), by
/// point.
pub fn permanent_pieces(pos: &Onyx) -> Vec<bool> {
    let geo = pos.geometry();
    let mut permanent: Vec<bool> = (0..geo.num_points)
        .map(|p| pos.at(p as Point).is_some())
        .collect();
    let grid = geo.n * geo.n;
    loop {
        let mut changed = false;
        for p in 0..grid as Point {
            if !permanent[p as usize] {
                continue;
            }
            let Some(x) = pos.at(p) else { continue };
            let safe = geo.squares_of(p).iter().all(|&(s, k)| {
                let sq = &geo.squares[s as usize];
                if pos.at(sq.midpoint).is_some() {
                    return true;
                }
                let (partner, others) = sq.diagonals(k);
                let held = |q: Point, c: Color| permanent[q as usize] && pos.at(q) == Some(c);
                held(partner, x.opponent()) || others.iter().any(|&o| held(o, x))
            });
            if !safe {
                permanent[p as usize] = false;
                changed = true;
            }
        }
        if !changed {
            return permanent;
        }
    }
}

/// The dead points of `pos` (see the module documentation), in board
/// order.
pub fn dead_points(pos: &Onyx) -> Vec<Point> {
    let geo = pos.geometry();
    let permanent = permanent_pieces(pos);
    (0..(geo.n * geo.n) as Point)
        .filter(|&p| {
            pos.at(p).is_none()
                && no_crosscut(pos, &permanent, p)
                && [Color::Black, Color::White]
                    .iter()
                    .all(|&c| bypassed(pos, &permanent, p, c))
        })
        .collect()
}

/// Condition 1: no square of the empty grid point `p` can ever hold a
/// crosscut.
fn no_crosscut(pos: &Onyx, permanent: &[bool], p: Point) -> bool {
    let geo = pos.geometry();
    let fixed = |q: Point| permanent[q as usize].then(|| pos.at(q)).flatten();
    geo.squares_of(p).iter().all(|&(s, k)| {
        let sq = &geo.squares[s as usize];
        if pos.at(sq.midpoint).is_some() {
            return true;
        }
        let (partner, [a, b]) = sq.diagonals(k);
        let mixed = matches!((fixed(a), fixed(b)), (Some(x), Some(y)) if x != y);
        let same = fixed(partner).is_some_and(|c| fixed(a) == Some(c) || fixed(b) == Some(c));
        mixed || same
    })
}

/// Condition 2 for colour `c`: the points next to `p` that could ever
/// hold `c`, and `c`'s edges `p` is on, are pairwise linked.
fn bypassed(pos: &Onyx, permanent: &[bool], p: Point, c: Color) -> bool {
    let geo = pos.geometry();
    let (from, to) = edge_bits(c);
    let mine = |q: Point| permanent[q as usize] && pos.at(q) == Some(c);
    // Points next to `p` that may hold `c` some day. A midpoint next to
    // `p` is of a square of `p`: when empty, condition 1 has made it one
    // that can never be taken.
    let mut near = [0 as Point; 16];
    let mut count = 0;
    for &q in geo.neighbours_of(p) {
        let open = match pos.at(q) {
            Some(o) => o == c || !permanent[q as usize],
            None => !geo.is_midpoint(q),
        };
        if open {
            near[count] = q;
            count += 1;
        }
    }
    let near = &near[..count];
    // Each of `c`'s edges `p` is on: every point must lie on it or next
    // to a permanent piece of `c` that does.
    let on_edge = |q: Point, edge: u8| {
        geo.edges[q as usize] & edge != 0
            || geo
                .neighbours_of(q)
                .iter()
                .any(|&g| g != p && mine(g) && geo.edges[g as usize] & edge != 0)
    };
    for edge in [from, to] {
        if geo.edges[p as usize] & edge != 0 && !near.iter().all(|&q| on_edge(q, edge)) {
            return false;
        }
    }
    let linked = |a: Point, b: Point| {
        geo.neighbours_of(a).contains(&b)
            || geo.edges[a as usize] & geo.edges[b as usize] & (from | to) != 0
            || geo
                .neighbours_of(a)
                .iter()
                .any(|&g| g != p && mine(g) && geo.neighbours_of(g).contains(&b))
    };
    near.iter()
        .enumerate()
        .all(|(i, &a)| near[i + 1..].iter().all(|&b| linked(a, b)))
}

/// Removes from `moves` the moves on dead points, but one when their
/// number is odd (the first listed: a pass is then a move of its own).
/// Whatever the side to move can force, it can force with a kept move
/// (module documentation). Nothing changes while a swap may come, nor
/// when every legal move is on a dead point (the game without them has
/// no move at all, which is no loss).
pub fn prune_dead_points(pos: &Onyx, moves: &mut Vec<OnyxMove>) {
    if pos.swap_available() {
        return;
    }
    let dead = dead_points(pos);
    if dead.is_empty() {
        return;
    }
    let on_dead = |m: &OnyxMove| matches!(m, OnyxMove::Place(p) if dead.contains(p));
    if dead.len().is_multiple_of(2) && moves.iter().all(on_dead) {
        let mut legal = Vec::new();
        pos.legal_moves(&mut legal);
        if legal.iter().all(on_dead) {
            return;
        }
    }
    let mut keep_one = dead.len() % 2 == 1;
    moves.retain(|m| !on_dead(m) || std::mem::take(&mut keep_one));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;
    use crate::games::onyx::Start;

    fn position(moves: &[&str]) -> Onyx {
        let mut pos = Onyx::new(4, Start::Blank).unwrap();
        pos.set_swap(false);
        for m in moves {
            let mv = pos.parse_move(m).unwrap();
            pos.play(mv);
        }
        pos
    }

    fn names(pos: &Onyx, points: &[Point]) -> Vec<String> {
        points
            .iter()
            .map(|&p| pos.geometry().point_name(p))
            .collect()
    }

    #[test]
    fn a_corner_shut_in_by_permanent_pieces_is_dead() {
        // BC12 and AB23 taken: the pieces on A2, B1 and B2 can never be
        // captured; A1 then matters to neither colour.
        let pos = position(&["BC12", "AB23", "B1", "A2", "B2", "D4"]);
        let permanent = permanent_pieces(&pos);
        for name in ["BC12", "AB23", "B1", "A2", "B2"] {
            let p = pos.geometry().parse_point(name).unwrap();
            assert!(permanent[p as usize], "{name} is permanent");
        }
        assert!(names(&pos, &dead_points(&pos)).contains(&"A1".to_string()));
        // With B1 empty, White's chain from the left edge through A1 to B1
        // may need A1.
        let pos = position(&["BC12", "AB23", "D1", "A2"]);
        assert!(!names(&pos, &dead_points(&pos)).contains(&"A1".to_string()));
    }

    #[test]
    fn a_piece_that_can_be_captured_is_not_permanent() {
        // Black on A2 and B3 (a diagonal of square AB23), White on B2: White
        // captures both on A3.
        let pos = position(&["A2", "B2", "B3", "D4"]);
        let permanent = permanent_pieces(&pos);
        let at = |n: &str| permanent[pos.geometry().parse_point(n).unwrap() as usize];
        assert!(!at("A2") && !at("B3"));
    }

    #[test]
    fn moves_on_dead_points_are_kept_by_parity() {
        let pos = position(&["BC12", "AB23", "B1", "A2", "B2", "D4"]);
        let dead = dead_points(&pos);
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let before = moves.len();
        prune_dead_points(&pos, &mut moves);
        let kept_dead = moves
            .iter()
            .filter(|m| matches!(m, OnyxMove::Place(p) if dead.contains(p)))
            .count();
        assert_eq!(kept_dead, dead.len() % 2);
        assert_eq!(moves.len(), before - dead.len() + kept_dead);
    }
}
