//! Hex evaluation by electric resistance (Anshelevich's Hexy, Six, Wolve).
//!
//! For one colour the board is a circuit: each cell is a node whose
//! resistance is 1 when empty, [`OWN`] (nearly nothing) when the colour's
//! stone, and infinite when the opponent's; two neighbouring cells `a`,
//! `b` are joined by a conductance `1 / (r(a) + r(b))`, and the colour's
//! two edges are the poles (a cell on an edge is joined to it by
//! `1 / r(cell)`). With the first edge at voltage 1 and the second at 0,
//! the current `I` that flows gives the colour's resistance `R = 1 / I`:
//! many short, wide routes make it small. A bridge between two own stones
//! (both common neighbours empty), and an own stone on the second row with
//! its two edge cells empty (edge template II), are virtual connections:
//! they add a conductance [`VIRTUAL`] between their ends, so that the
//! circuit sees them as nearly joined, as Wolve raises conductances along
//! its virtual connections.
//!
//! The evaluation from the side to move's view is
//! `SCALE × ln(R_opponent / R_mine) + TEMPO`. The voltages are found by a
//! banded Cholesky factorisation of the circuit's conductance matrix (cells
//! in row order: a cell's neighbours and bridge partners are at most `2n`
//! cells away, so about `n² × (2n)² / 2` multiplications a colour).
//!
//! The current through each empty cell, summed over both colours' circuits
//! (each normalised by its total), tells where the fight is: it orders the
//! moves, and the searcher looks below the root only at the
//! [`WIDTH`] cells with the most current (and at the cells that win or
//! stop a win at once), as Wolve does.

use std::cell::RefCell;

use super::board::{Hex, HexMove, edge_bits};
use super::eval;
use super::geometry::{Cell, MAX_CELLS};
use crate::game::{Color, Game};
use crate::search::{Evaluator, Score, Tuning, WIN_NEXT_MOVE, loss_in};

/// Hex's evaluation by electric resistance.
#[derive(Clone, Copy, Debug, Default)]
pub struct Resistance;

/// Resistance of a cell holding the colour's own stone.
const OWN: f64 = 0.01;
/// Conductance added along a bridge or an edge template II.
const VIRTUAL: f64 = 10.0;
/// Score of one unit of `ln(R_opponent / R_mine)`.
const SCALE: f64 = 300.0;
/// Bonus for having the move.
const TEMPO: Score = 30;
/// The largest score the evaluation gives short of a proven result.
const CAP: Score = 100_000;
/// Below the root, how many cells (by current) are searched.
pub const WIDTH: usize = 20;
/// A tiny conductance from every cell to a node at voltage ½, so that
/// cells cut off from both edges leave the system solvable.
const LEAK: f64 = 1e-10;

/// One colour's circuit solved: its resistance and the voltages.
struct Scratch {
    /// The band of the factor: `band[i * (bw + 1) + k]` is row `i`,
    /// column `i − k`.
    band: Vec<f64>,
    /// Right-hand side, then the voltages.
    volt: Vec<f64>,
    /// The first column of each row's profile (the lowest cell joined to
    /// it): the factor has no fill before it.
    first: Vec<usize>,
    /// The conductance from each cell to the first and the second edge.
    to_edge: Vec<[f64; 2]>,
    /// The flows of the last position asked for: its hash and, per cell,
    /// the summed normalised current.
    flow_key: u64,
    flow: Vec<f64>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch {
        band: Vec::new(),
        volt: Vec::new(),
        first: Vec::new(),
        to_edge: Vec::new(),
        flow_key: 0,
        flow: vec![0.0; MAX_CELLS],
    });
}

/// Band width of the system on an `n`×`n` board: the largest row distance
/// between two joined cells (a bridge across two rows: `2n − 1`).
fn band_width(n: usize) -> usize {
    (2 * n).saturating_sub(1).max(1)
}

/// A step `(dx, dy)` between cells.
type Step = (i32, i32);

/// The cells bridged with `c`, each with the two cells between: the
/// steps `(dx, dy)` of the six bridges and of the neighbour steps that
/// make their carriers.
const BRIDGES: [(Step, Step, Step); 6] = [
    ((1, 1), (1, 0), (0, 1)),
    ((-1, -1), (-1, 0), (0, -1)),
    ((2, -1), (1, 0), (1, -1)),
    ((-2, 1), (-1, 0), (-1, 1)),
    ((1, -2), (0, -1), (1, -1)),
    ((-1, 2), (0, 1), (-1, 1)),
];

/// The resistance of cell `c` in `color`'s circuit: 1 empty, [`OWN`]
/// the colour's stone, `None` (an open circuit) the opponent's.
fn cell_resistance(pos: &Hex, color: Color, c: usize) -> Option<f64> {
    match pos.at(c as Cell) {
        None => Some(1.0),
        Some(s) if s == color => Some(OWN),
        Some(_) => None,
    }
}

impl Scratch {
    /// Solves `color`'s circuit on `pos`: its resistance (infinite when no
    /// current flows), with the voltages left in `volt`.
    fn solve(&mut self, pos: &Hex, color: Color) -> f64 {
        let geo = pos.geometry();
        let n = geo.n;
        let nc = geo.num_cells;
        let bw = band_width(n);
        let row = bw + 1;
        self.band.clear();
        self.band.resize(nc * row, 0.0);
        self.volt.clear();
        self.volt.resize(nc, 0.0);
        self.to_edge.clear();
        self.to_edge.resize(nc, [0.0; 2]);
        self.first.clear();
        self.first.extend(0..nc);
        let (ea, eb) = edge_bits(color);
        let r = |c: usize| cell_resistance(pos, color, c);
        // Conductances: diagonal sums and the lower band.
        for c in 0..nc {
            let Some(rc) = r(c) else {
                self.band[c * row] = 1.0;
                continue;
            };
            let mut diag = LEAK;
            self.volt[c] = LEAK * 0.5;
            for &q in geo.neighbours_of(c as Cell) {
                let q = q as usize;
                if let Some(rq) = r(q) {
                    let g = 1.0 / (rc + rq);
                    diag += g;
                    if q < c {
                        self.band[c * row + (c - q)] -= g;
                        self.first[c] = self.first[c].min(q);
                    }
                }
            }
            let e = geo.edges[c];
            for (side, bit) in [ea, eb].into_iter().enumerate() {
                if e & bit != 0 {
                    let g = 1.0 / rc;
                    self.to_edge[c][side] += g;
                }
            }
            self.band[c * row] += diag;
        }
        // Virtual connections of the colour's stones.
        let own = |x: i32, y: i32| -> bool {
            (0..n as i32).contains(&x)
                && (0..n as i32).contains(&y)
                && pos.at((y as usize * n + x as usize) as Cell) == Some(color)
        };
        let empty = |x: i32, y: i32| -> bool {
            (0..n as i32).contains(&x)
                && (0..n as i32).contains(&y)
                && pos.at((y as usize * n + x as usize) as Cell).is_none()
        };
        for c in 0..nc {
            if pos.at(c as Cell) != Some(color) {
                continue;
            }
            let (x, y) = ((c % n) as i32, (c / n) as i32);
            for ((dx, dy), (ax, ay), (bx, by)) in BRIDGES {
                let (px, py) = (x + dx, y + dy);
                if own(px, py) && empty(x + ax, y + ay) && empty(x + bx, y + by) {
                    let q = py as usize * n + px as usize;
                    if q < c {
                        self.band[c * row] += VIRTUAL;
                        self.band[q * row] += VIRTUAL;
                        self.band[c * row + (c - q)] -= VIRTUAL;
                        self.first[c] = self.first[c].min(q);
                    }
                }
            }
            // Edge template II: two empty cells on the edge row below.
            for (side, bit) in [ea, eb].into_iter().enumerate() {
                let carrier = match bit {
                    crate::games::common::FIRST_ROW if y == 1 => [(x, 0), (x + 1, 0)],
                    crate::games::common::LAST_ROW if y == n as i32 - 2 => {
                        [(x, y + 1), (x - 1, y + 1)]
                    }
                    crate::games::common::FIRST_COLUMN if x == 1 => [(0, y), (0, y + 1)],
                    crate::games::common::LAST_COLUMN if x == n as i32 - 2 => {
                        [(x + 1, y), (x + 1, y - 1)]
                    }
                    _ => continue,
                };
                if carrier.iter().all(|&(cx, cy)| empty(cx, cy)) {
                    self.to_edge[c][side] += VIRTUAL;
                }
            }
        }
        for c in 0..nc {
            let [ga, gb] = self.to_edge[c];
            self.band[c * row] += ga + gb;
            self.volt[c] += ga;
        }
        self.factor_and_solve(nc, bw);
        let current: f64 = (0..nc)
            .map(|c| self.to_edge[c][0] * (1.0 - self.volt[c]))
            .sum();
        if current > 1e-7 {
            1.0 / current
        } else {
            f64::INFINITY
        }
    }

    /// Factors the band (Cholesky, in place, within each row's profile)
    /// and solves for the voltages (in place of the right-hand side).
    fn factor_and_solve(&mut self, nc: usize, bw: usize) {
        let row = bw + 1;
        let a = &mut self.band;
        // The factor's fill stays inside the matrix's profile (each row
        // from its first non-zero column on).
        let first = &self.first;
        for i in 0..nc {
            let lo = first[i];
            for j in lo..=i {
                let mut s = a[i * row + (i - j)];
                let klo = lo.max(first[j]);
                for k in klo..j {
                    s -= a[i * row + (i - k)] * a[j * row + (j - k)];
                }
                if i == j {
                    a[i * row] = s.max(1e-300).sqrt();
                } else {
                    a[i * row + (i - j)] = s / a[j * row];
                }
            }
        }
        let v = &mut self.volt;
        for i in 0..nc {
            let lo = first[i];
            let mut s = v[i];
            for k in lo..i {
                s -= a[i * row + (i - k)] * v[k];
            }
            v[i] = s / a[i * row];
        }
        for i in (0..nc).rev() {
            let hi = (i + bw).min(nc - 1);
            let mut s = v[i];
            for k in i + 1..=hi {
                if first[k] <= i {
                    s -= a[k * row + (k - i)] * v[k];
                }
            }
            v[i] = s / a[i * row];
        }
    }

    /// Adds the current through each empty cell of the circuit just
    /// solved for `color` (normalised by the total `1 / resistance`) to
    /// `flow`.
    fn add_flow(&mut self, pos: &Hex, color: Color, resistance: f64) {
        if !resistance.is_finite() {
            return;
        }
        let geo = pos.geometry();
        let r = |c: usize| cell_resistance(pos, color, c);
        for c in 0..geo.num_cells {
            if pos.at(c as Cell).is_some() {
                continue;
            }
            let v = self.volt[c];
            let mut through = self.to_edge[c][0] * (1.0 - v).abs() + self.to_edge[c][1] * v.abs();
            for &q in geo.neighbours_of(c as Cell) {
                if let Some(rq) = r(q as usize) {
                    through += (v - self.volt[q as usize]).abs() / (1.0 + rq);
                }
            }
            self.flow[c] += 0.5 * through * resistance;
        }
    }
}

/// Each colour's resistance on `pos`.
pub fn resistances(pos: &Hex) -> [f64; 2] {
    SCRATCH.with(|s| {
        let mut s = s.borrow_mut();
        [Color::Black, Color::White].map(|c| s.solve(pos, c))
    })
}

/// The evaluation from the side to move's view: [`WIN_NEXT_MOVE`] when it
/// connects with one placement, a loss in 2 when the opponent has two
/// such cells, else `SCALE × ln(R_opponent / R_mine) + TEMPO` (capped).
pub fn evaluate_resistance(pos: &Hex) -> Score {
    let me = pos.to_move();
    if eval::winning_cell_count(pos, me) > 0 {
        return WIN_NEXT_MOVE;
    }
    if eval::winning_cell_count(pos, me.opponent()) >= 2 {
        return loss_in(2);
    }
    let r = resistances(pos);
    let (mine, theirs) = (r[me.index()], r[me.opponent().index()]);
    let x = (theirs.min(1e9) / mine.min(1e9)).ln() * SCALE;
    (x.clamp(-(CAP as f64), CAP as f64) as Score) + TEMPO
}

/// The summed, normalised current of both circuits through `cell` on
/// `pos` (computed once for a position and kept for its next questions).
fn flow_at(pos: &Hex, cell: Cell) -> f64 {
    SCRATCH.with(|s| {
        let mut s = s.borrow_mut();
        if s.flow_key != cache_key(pos) {
            s.flow.iter_mut().for_each(|f| *f = 0.0);
            for color in [Color::Black, Color::White] {
                let r = s.solve(pos, color);
                s.add_flow(pos, color, r);
            }
            s.flow_key = cache_key(pos);
        }
        s.flow[cell as usize]
    })
}

/// The key a cache of position analyses keeps `pos` under: its hash,
/// board size and swap rule (a cache outlives a game, and the hash names
/// neither).
pub(super) fn cache_key(pos: &Hex) -> u64 {
    pos.hash()
        ^ (pos.geometry().n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ u64::from(pos.swap_available()).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
}

/// Keeps of `out` the `width` placements with the most `current` (a swap
/// first), and every cell where either colour connects with one placement
/// (a win at once, or the only stop of one).
pub(super) fn keep_by_current(
    pos: &Hex,
    out: &mut Vec<HexMove>,
    width: usize,
    current: impl Fn(Cell) -> f64,
) {
    if out.len() <= width {
        return;
    }
    let me = pos.to_move();
    let urgent = [
        eval::winning_cells_of(pos, me),
        eval::winning_cells_of(pos, me.opponent()),
    ];
    let is_urgent = |c: Cell| {
        urgent
            .iter()
            .any(|u| u[c as usize / 64] & (1 << (c % 64)) != 0)
    };
    let mut scored: Vec<(f64, HexMove)> = out
        .iter()
        .map(|&m| match m {
            HexMove::Swap => (f64::INFINITY, m),
            HexMove::Place(c) if is_urgent(c) => (f64::INFINITY, m),
            HexMove::Place(c) => (current(c), m),
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    out.clear();
    for (i, &(f, m)) in scored.iter().enumerate() {
        if i < width || f == f64::INFINITY {
            out.push(m);
        }
    }
}

impl Evaluator<Hex> for Resistance {
    fn name(&self) -> &'static str {
        "resistance"
    }

    fn tuning(&self) -> Tuning {
        eval::TUNING
    }

    /// Forgets the connections and the flows kept from earlier positions.
    fn forget(&self) {
        super::vc::forget_knowledge();
        SCRATCH.with(|s| s.borrow_mut().flow_key = 0);
    }

    fn evaluate(&self, pos: &Hex) -> Score {
        evaluate_resistance(pos)
    }

    /// The two-distance evaluation's candidates (the legal moves but the
    /// ring-dead cells), of which the [`WIDTH`] with the most current, and
    /// every cell where either colour connects with one placement (a win
    /// at once, or the only stop of one).
    fn candidate_moves(&self, pos: &Hex, out: &mut Vec<HexMove>) {
        eval::TwoDistance.candidate_moves(pos, out);
        keep_by_current(pos, out, WIDTH, |c| flow_at(pos, c));
    }

    fn opponent_threatens(&self, pos: &Hex) -> bool {
        eval::TwoDistance.opponent_threatens(pos)
    }

    /// The current through the cell (both circuits), then contact play.
    fn move_order_hint(&self, pos: &Hex, mv: HexMove) -> Score {
        match mv {
            HexMove::Swap => 0,
            HexMove::Place(c) => {
                (flow_at(pos, c) * 1000.0) as Score + eval::TwoDistance.move_order_hint(pos, mv)
            }
        }
    }

    fn history_index(&self, pos: &Hex, mv: HexMove) -> usize {
        eval::TwoDistance.history_index(pos, mv)
    }

    fn proven_result(&self, pos: &Hex) -> Option<(bool, u32)> {
        eval::TwoDistance.proven_result(pos)
    }

    fn prune_by_knowledge(&self, pos: &Hex, moves: &mut Vec<HexMove>) {
        eval::TwoDistance.prune_by_knowledge(pos, moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;

    fn play(pos: &mut Hex, moves: &str) {
        for m in moves.split_whitespace() {
            let mv = pos.parse_move(m).expect("legal");
            pos.play(mv);
        }
    }

    /// On an empty board the two colours' circuits are mirror images:
    /// equal resistances. On 1×1 one cell joins both edges.
    #[test]
    fn empty_boards_are_symmetric() {
        for n in 1..=11 {
            let pos = Hex::new(n).expect("board");
            let [b, w] = resistances(&pos);
            assert!((b - w).abs() < 1e-9 * b, "n={n}: {b} {w}");
            assert!(b.is_finite() && b > 0.0);
        }
    }

    /// Resistance against a direct computation: on a 1×n strip of empty
    /// cells (a 1×1 board, then the series of a column) and after stones.
    #[test]
    fn stones_lower_their_colour_and_raise_the_other() {
        let mut pos = Hex::new(5).expect("board");
        let before = resistances(&pos);
        play(&mut pos, "c3");
        let after = resistances(&pos);
        assert!(after[Color::Black.index()] < before[Color::Black.index()]);
        assert!(after[Color::White.index()] > before[Color::White.index()]);
        // A 1×1 board: the cell joins both edges, resistance 1/(1) + 1/(1)
        // in series = 2 for either colour.
        let one = Hex::new(1).expect("board");
        let [b, w] = resistances(&one);
        assert!((b - 2.0).abs() < 1e-6 && (w - 2.0).abs() < 1e-6, "{b} {w}");
    }

    /// A colour whose stones join its edges but for one empty cell wins at
    /// once, and the evaluation says so; a blocked colour has infinite
    /// resistance.
    #[test]
    fn wins_and_walls() {
        let mut pos = Hex::new(3).expect("board");
        pos.set_swap(false);
        play(&mut pos, "b1 a1 b2 a2");
        assert_eq!(evaluate_resistance(&pos), WIN_NEXT_MOVE);
        // White across row 2: Black's edges are cut apart.
        let mut wall = Hex::new(3).expect("board");
        let mut row2 = [0u64; crate::games::hex::geometry::WORDS];
        row2[0] = 0b111 << 3;
        wall.put_stones(&row2, Color::White);
        let r = resistances(&wall);
        assert!(r[Color::Black.index()].is_infinite());
        assert!(r[Color::White.index()] < 0.1, "{r:?}");
    }
}

#[cfg(test)]
mod dense_check {
    //! The banded solve against a dense one written apart: the circuit
    //! built from the cells' coordinates (neighbours, bridges and edge
    //! templates found by brute force over pairs of cells), solved by
    //! Gaussian elimination with the edges as extra nodes held at 1 and
    //! 0, on random positions of several sizes.
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    fn adjacent(a: (i32, i32), b: (i32, i32)) -> bool {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        matches!(
            (dx, dy),
            (1, 0) | (-1, 0) | (0, 1) | (0, -1) | (1, -1) | (-1, 1)
        )
    }

    /// `color`'s resistance on `pos`, densely.
    fn dense(pos: &Hex, color: Color) -> f64 {
        let n = pos.geometry().n as i32;
        let cells: Vec<(i32, i32)> = (0..n * n).map(|c| (c % n, c / n)).collect();
        let at = |p: (i32, i32)| pos.at((p.1 * n + p.0) as Cell);
        let r = |p: (i32, i32)| match at(p) {
            None => Some(1.0),
            Some(s) if s == color => Some(OWN),
            Some(_) => None,
        };
        // Nodes: the cells, then the first and the second edge.
        let m = cells.len() + 2;
        let (sa, sb) = (m - 2, m - 1);
        let mut g = vec![vec![0.0f64; m]; m];
        let link = |g: &mut [Vec<f64>], i: usize, j: usize, c: f64| {
            g[i][j] += c;
            g[j][i] += c;
        };
        let on_edge = |p: (i32, i32), first: bool| match color {
            Color::Black => p.1 == if first { 0 } else { n - 1 },
            Color::White => p.0 == if first { 0 } else { n - 1 },
        };
        for (i, &a) in cells.iter().enumerate() {
            let Some(ra) = r(a) else { continue };
            for (j, &b) in cells.iter().enumerate().skip(i + 1) {
                let Some(rb) = r(b) else { continue };
                if adjacent(a, b) {
                    link(&mut g, i, j, 1.0 / (ra + rb));
                }
                // A bridge: two own stones with exactly two common
                // neighbours, both empty.
                if at(a) == Some(color) && at(b) == Some(color) && !adjacent(a, b) {
                    let common: Vec<_> = cells
                        .iter()
                        .filter(|&&q| adjacent(a, q) && adjacent(b, q))
                        .collect();
                    if common.len() == 2 && common.iter().all(|&&q| at(q).is_none()) {
                        link(&mut g, i, j, VIRTUAL);
                    }
                }
            }
            for (first, e) in [(true, sa), (false, sb)] {
                if on_edge(a, first) {
                    link(&mut g, i, e, 1.0 / ra);
                }
                // Edge template II: an own stone one row from the edge
                // whose two neighbours on the edge are empty.
                if at(a) == Some(color) && !on_edge(a, first) {
                    let edge_nb: Vec<_> = cells
                        .iter()
                        .filter(|&&q| adjacent(a, q) && on_edge(q, first))
                        .collect();
                    if edge_nb.len() == 2 && edge_nb.iter().all(|&&q| at(q).is_none()) {
                        link(&mut g, i, e, VIRTUAL);
                    }
                }
            }
        }
        // Unknowns: the cells (blocked ones pinned to 0 with no links).
        let k = cells.len();
        let mut a = vec![vec![0.0f64; k + 1]; k];
        for i in 0..k {
            let total: f64 = g[i].iter().sum::<f64>() + LEAK;
            a[i][i] = if r(cells[i]).is_some() { total } else { 1.0 };
            for j in 0..k {
                if j != i {
                    a[i][j] = -g[i][j];
                }
            }
            a[i][k] = g[i][sa] + LEAK * 0.5;
        }
        for col in 0..k {
            let piv = (col..k)
                .max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))
                .unwrap();
            a.swap(col, piv);
            let pivot = a[col].clone();
            for (row, line) in a.iter_mut().enumerate() {
                if row != col && line[col] != 0.0 {
                    let f = line[col] / pivot[col];
                    for (x, p) in line[col..].iter_mut().zip(&pivot[col..]) {
                        *x -= f * p;
                    }
                }
            }
        }
        let v: Vec<f64> = (0..k).map(|i| a[i][k] / a[i][i]).collect();
        let current: f64 = (0..k).map(|i| g[i][sa] * (1.0 - v[i])).sum();
        if current > 1e-7 {
            1.0 / current
        } else {
            f64::INFINITY
        }
    }

    #[test]
    fn banded_equals_dense_on_random_positions() {
        let mut rng = SmallRng::seed_from_u64(5);
        for trial in 0..200 {
            let n = rng.random_range(1..=9);
            let mut pos = Hex::new(n).expect("board");
            let stones = rng.random_range(0..=(n * n * 2 / 3));
            for _ in 0..stones {
                let c = rng.random_range(0..n * n) as Cell;
                if pos.at(c).is_none() {
                    let mut one = [0u64; crate::games::hex::geometry::WORDS];
                    one[c as usize / 64] |= 1 << (c % 64);
                    let colour = if rng.random_range(0..2) == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    pos.put_stones(&one, colour);
                }
            }
            let banded = resistances(&pos);
            for color in [Color::Black, Color::White] {
                let d = dense(&pos, color);
                let b = banded[color.index()];
                assert!(
                    (d.is_infinite() && b.is_infinite()) || (d - b).abs() <= 1e-6 * d.max(1.0),
                    "trial {trial}, {n}x{n}, {color:?}: banded {b}, dense {d}\n{}",
                    crate::game::Notation::showboard(&pos)
                );
            }
        }
    }
}
