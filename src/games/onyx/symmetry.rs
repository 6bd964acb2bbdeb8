//! The half-turn of the Onyx board: twin moves, for the solver and the
//! opening maps.
//!
//! # The half-turn is a symmetry of the rules
//!
//! The half-turn maps the grid point in column `x`, row `y` (both from 0)
//! to column `n−1−x`, row `n−1−y`. The cell with its lower-left corner at
//! (`c`, `r`) goes to the cell at (`n−2−c`, `n−2−r`): `c + r` keeps its
//! parity (`n` is even), so squares go to squares, and a diagonal cell's
//! row keeps its parity, so `/` goes to `/` and `\` to `\` (a half-turn
//! keeps a line's slope). Lines go to lines, squares' corners and midpoints
//! to those of the image square (a diagonal pair to a diagonal pair, so a
//! capture to a capture), each colour's two edges to themselves (bottom and
//! top exchanged, left and right exchanged), and the standard start to
//! itself. So the half-turn maps every position to one of the same value,
//! by colour and by player (the swap changes no piece).
//!
//! In point numbers (grid points `row · n + column`, then the midpoints
//! in the order of their squares, by row then column) the image of a grid
//! point `p` is `n² − 1 − p`, and the squares' order reverses, so the
//! image of a midpoint `p` is `n² + (num_points − 1) − p`.
//!
//! # Twins
//!
//! When a position is its own half-turn (the blank and standard starts,
//! and every position with each piece's twin of its colour), a move and
//! its twin lead to positions that are each other's half-turn: equal
//! values, so one of each pair is enough: the solver keeps the first in
//! board order of each pair still in its list
//! ([`crate::solve::knowledge::keep_one_of_twins`], through
//! [`crate::game::Notation::symmetric_move`]).

use super::board::Onyx;
use super::geometry::{Geometry, Point};

/// The half-turn image of `p`.
pub fn half_turn(geo: &Geometry, p: Point) -> Point {
    let grid = geo.n * geo.n;
    let p = p as usize;
    let image = if p < grid {
        grid - 1 - p
    } else {
        grid + geo.num_points - 1 - p
    };
    image as Point
}

/// Whether the half-turn maps `pos` to itself (each piece's image holds a
/// piece of the same colour).
pub fn is_own_half_turn(pos: &Onyx) -> bool {
    let geo = pos.geometry();
    let cells = pos.cells();
    (0..geo.num_points).all(|p| cells[p] == cells[half_turn(geo, p as Point) as usize])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::onyx::Start;

    /// The half-turn is an involution without fixed points that maps
    /// lines to lines, squares (corners and midpoint) to squares with
    /// diagonal pairs kept, and each edge to the opposite one.
    #[test]
    fn the_half_turn_maps_the_board_to_itself() {
        for n in (4..=26).step_by(2) {
            let geo = Geometry::new(n).unwrap();
            for p in 0..geo.num_points as Point {
                let q = half_turn(&geo, p);
                assert_eq!(half_turn(&geo, q), p, "n {n}");
                assert_ne!(q, p, "n {n}: no point is its own image");
                let mut nb: Vec<Point> = geo
                    .neighbours_of(p)
                    .iter()
                    .map(|&r| half_turn(&geo, r))
                    .collect();
                let mut theirs = geo.neighbours_of(q).to_vec();
                nb.sort_unstable();
                theirs.sort_unstable();
                assert_eq!(nb, theirs, "n {n}, point {p}");
                let e = geo.edges[p as usize];
                // bottom 1 ↔ top 2, left 4 ↔ right 8.
                let flipped = ((e & 0b0101) << 1) | ((e & 0b1010) >> 1);
                assert_eq!(geo.edges[q as usize], flipped, "n {n}, point {p}");
            }
            for sq in &geo.squares {
                let image = geo
                    .squares
                    .iter()
                    .find(|s| s.midpoint == half_turn(&geo, sq.midpoint))
                    .expect("a midpoint's image is a midpoint");
                // Corners lower-left, lower-right, upper-left, upper-right:
                // the half-turn reverses them, so diagonal pairs
                // ({0, 3} and {1, 2}) stay pairs.
                for k in 0..4 {
                    assert_eq!(
                        half_turn(&geo, sq.corners[k]),
                        image.corners[3 - k],
                        "n {n}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_starts_are_their_own_half_turns() {
        for n in [4, 6, 8, 12] {
            let blank = Onyx::new(n, Start::Blank).unwrap();
            assert!(is_own_half_turn(&blank));
        }
        for n in [8, 12, 16] {
            let standard = Onyx::new(n, Start::Standard).unwrap();
            assert!(is_own_half_turn(&standard));
        }
    }

    #[test]
    fn one_of_each_pair_is_kept_on_a_symmetric_position_only() {
        use crate::game::Game;
        use crate::games::onyx::OnyxMove;
        use crate::solve::knowledge::keep_one_of_twins;
        let mut pos = Onyx::new(6, Start::Blank).unwrap();
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let all = moves.len();
        keep_one_of_twins(&pos, &mut moves);
        assert_eq!(moves.len() * 2, all);
        let p = pos.geometry().grid_point(1, 2);
        pos.play(OnyxMove::Place(p));
        moves.clear();
        pos.legal_moves(&mut moves);
        let before = moves.len();
        keep_one_of_twins(&pos, &mut moves);
        assert_eq!(moves.len(), before, "not its own half-turn");
    }
}
