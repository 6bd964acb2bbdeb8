//! Hex evaluation by electric resistance over the virtual connections:
//! Wolve's evaluation (after Anshelevich's Hexy and Rasmussen's Six), on
//! the connections of [`super::hsearch`].
//!
//! For one colour the circuit's nodes are its *points*: the empty cells,
//! its groups, and its two edges (each edge with the chains touching it).
//! Two points with a full virtual connection are joined by a conductance
//! `k / size`, where `size` is one more than the number of cells that every
//! full connection between them needs (1 for neighbours), and `k` is 1
//! between two empty cells, 2 between an empty cell and a group, 0 between
//! two groups (Benzene's `ConductanceValues`). A unit current enters at the
//! first edge and leaves at the second; the colour's resistance `R` is the
//! first edge's voltage. The connections are those of the position with its
//! fill-in placed (dead and captured cells), as the solver's knowledge sees
//! it, and they come from the same incremental H-search: a node's circuit
//! is built from connections updated from its parent's.
//!
//! The evaluation from the side to move's view is a proven result when
//! either colour's connections decide the game (a full connection for
//! either, or a semi for the side to move), else
//! `SCALE × ln(R_opponent / R_mine) + TEMPO`. The current through each
//! empty cell, summed over both circuits (each carrying a unit current),
//! orders the moves; below the root the searcher looks only at the
//! [`WIDTH`] cells with the most current among those the knowledge leaves
//! (the must-play region, without fill-in and dominated cells), as Wolve
//! does, and at the root at the [`ROOT_WIDTH`] (Wolve: 15 there too; the
//! wider root won more against it). A node costs about 2 ms on 11×11
//! (`bench 5 hex`: 4,468 nodes in about 8.5 s), three quarters of it the
//! connection search: at a second a move the searcher completes two or
//! three plies in the middlegame and more near the end (Wolve: two, some
//! 130–260 nodes in a second).
//!
//! It is Hex's default evaluation. Above [`MAX_VC_SIZE`] there are no
//! connections: it evaluates as [`eval::TwoDistance`] does (its candidates,
//! order and score), with the root narrowed to the candidates.

use std::cell::RefCell;

use super::board::{Hex, HexMove};
use super::eval;
use super::hsearch::{Links, links};
use super::resistance::{cache_key, keep_by_current};
use super::vc::{self, MAX_VC_SIZE};
use crate::game::{Color, Game};
use crate::search::{Evaluator, MAX_PROVEN_PLIES, Score, Tuning, WIN_NEXT_MOVE, loss_in, win_in};

/// Hex's evaluation by resistance over the virtual connections.
#[derive(Clone, Copy, Debug, Default)]
pub struct VcResistance;

/// Conductance of a connection between two empty cells, of size 1.
const EMPTY_TO_EMPTY: f64 = 1.0;
/// Conductance of a connection between an empty cell and a group.
const COLOR_TO_EMPTY: f64 = 2.0;
/// Score of one unit of `ln(R_opponent / R_mine)`.
const SCALE: f64 = 300.0;
/// Bonus for having the move.
const TEMPO: Score = 30;
/// The largest score short of a proven result.
const CAP: f64 = 100_000.0;
/// How many moves (by current) a node below the root searches: Wolve's
/// ply width.
pub const WIDTH: usize = 15;
/// How many moves (by current) the root searches. Wider than below: at
/// depth 1 against Wolve at depth 1 (120 games on two-move openings), the
/// width of 15 scored 38 games, 40 scored 48, all the moves 50; at depth 2
/// (both sides), a root of 40 over 15 below won 19 of 51 games where a
/// root of 15 won 20 of 73 (docs/tuning-log.md).
pub const ROOT_WIDTH: usize = 40;
/// A tiny conductance from every point to the second edge, so that points
/// cut off from both edges leave the system solvable.
const LEAK: f64 = 1e-9;
/// Analyses kept (a power of two), by position hash.
const CACHE: usize = 1 << 12;

/// The searcher's tuning: no pruning margins; the knowledge (proven
/// results, the must-play region, fill-in and dominated cells) at every
/// node with a ply left; each node costly, so the root searches the
/// candidates only and the clock is read at every node.
pub const TUNING: Tuning = Tuning {
    futility_margin: None,
    razor_margin: None,
    late_move_limit: None,
    rule_effort: None,
    knowledge_depth: Some(1),
    costly_nodes: true,
};

/// What the circuits say about one position.
#[derive(Clone)]
struct Analysis {
    key: u64,
    /// The evaluation from the side to move's view.
    score: Score,
    /// Each colour's resistance (by colour index); `None` when the
    /// connections decide the game.
    resistance: Option<[f64; 2]>,
    /// Per cell, the summed current of both circuits (0 off the empty
    /// cells of the filled position).
    flow: Vec<f32>,
}

struct Scratch {
    links: Links,
    /// The dense conductance matrix (row-major), then its factor.
    a: Vec<f64>,
    /// Right-hand side, then the voltages.
    v: Vec<f64>,
    /// Per point, its unknown's index (`usize::MAX`: the sink, or none).
    index: Vec<usize>,
    /// Per row of `a`, its first non-zero column ([`cholesky_solve`]).
    first: Vec<usize>,
    cache: Vec<Option<Analysis>>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch {
        links: Links::default(),
        a: Vec::new(),
        v: Vec::new(),
        index: Vec::new(),
        first: Vec::new(),
        cache: vec![None; CACHE],
    });
}

/// The conductance of a full connection of `size` between two points.
fn conductance(group_x: bool, group_y: bool, size: u8) -> f64 {
    let k = match (group_x, group_y) {
        (false, false) => EMPTY_TO_EMPTY,
        (true, true) => 0.0,
        _ => COLOR_TO_EMPTY,
    };
    k / f64::from(size)
}

impl Scratch {
    /// Solves the circuit of `self.links` on an `n`×`n` board: the
    /// resistance, and each empty cell's current added to `flow`.
    fn solve(&mut self, n: usize, flow: &mut [f32]) -> f64 {
        let nc = n * n;
        let source = nc;
        let l = &self.links;
        self.index.clear();
        self.index.resize(nc + 2, usize::MAX);
        let mut m = 0;
        for p in (0..nc)
            .filter(|&c| l.point[c] as usize == c)
            .chain([source])
        {
            self.index[p] = m;
            m += 1;
        }
        self.a.clear();
        self.a.resize(m * m, 0.0);
        self.v.clear();
        self.v.resize(m, 0.0);
        for i in 0..m {
            self.a[i * m + i] = LEAK;
        }
        for &(x, y, size) in &l.fulls {
            let (x, y) = (x as usize, y as usize);
            let g = conductance(l.group[x], l.group[y], size);
            if g == 0.0 {
                continue;
            }
            let (ix, iy) = (self.index[x], self.index[y]);
            if ix != usize::MAX {
                self.a[ix * m + ix] += g;
            }
            if iy != usize::MAX {
                self.a[iy * m + iy] += g;
            }
            if ix != usize::MAX && iy != usize::MAX {
                self.a[ix * m + iy] -= g;
                self.a[iy * m + ix] -= g;
            }
        }
        let src = self.index[source];
        self.v[src] = 1.0;
        cholesky_solve(&mut self.a, &mut self.v, m, &mut self.first);
        let volt = |p: usize| {
            let i = self.index[p];
            if i == usize::MAX { 0.0 } else { self.v[i] }
        };
        for &(x, y, size) in &l.fulls {
            let (x, y) = (x as usize, y as usize);
            let g = conductance(l.group[x], l.group[y], size);
            if g == 0.0 {
                continue;
            }
            let current = (g * (volt(x) - volt(y))).abs() as f32;
            for p in [x, y] {
                if p < nc && !l.group[p] {
                    flow[p] += current;
                }
            }
        }
        self.v[src].max(0.0)
    }

    /// The analysis of `pos` (not over, at most [`MAX_VC_SIZE`]).
    fn analyse(&mut self, pos: &Hex) -> Analysis {
        let n = pos.geometry().n;
        let mut flow = vec![0.0f32; n * n];
        if let Some((wins, plies)) = vc::proven_result(pos) {
            let plies = Score::try_from(plies)
                .unwrap_or(MAX_PROVEN_PLIES)
                .clamp(1, MAX_PROVEN_PLIES);
            let score = if wins { win_in(plies) } else { loss_in(plies) };
            return Analysis {
                key: cache_key(pos),
                score,
                resistance: None,
                flow,
            };
        }
        let me = pos.to_move();
        let mut resistance = [0.0; 2];
        let mut filled = pos.clone();
        vc::with_decomposed_fill_in(&mut filled, |f| {
            for color in [Color::Black, Color::White] {
                links(f, color, &mut self.links);
                resistance[color.index()] = if self.links.joined {
                    0.0
                } else {
                    self.solve(n, &mut flow)
                };
            }
        });
        let (mine, theirs) = (resistance[me.index()], resistance[me.opponent().index()]);
        let x = (theirs.max(1e-12) / mine.max(1e-12)).ln() * SCALE;
        Analysis {
            key: cache_key(pos),
            score: x.clamp(-CAP, CAP) as Score + TEMPO,
            resistance: Some(resistance),
            flow,
        }
    }

    /// The analysis of `pos`, from the cache when it is there.
    fn cached(&mut self, pos: &Hex) -> &Analysis {
        let key = cache_key(pos);
        let slot = key as usize & (CACHE - 1);
        if !matches!(&self.cache[slot], Some(a) if a.key == key) {
            let a = self.analyse(pos);
            self.cache[slot] = Some(a);
        }
        self.cache[slot].as_ref().expect("just filled")
    }
}

/// Solves `a · x = v` in place (`a`, `m`×`m` row-major, symmetric positive
/// definite, becomes its Cholesky factor; `v` becomes `x`).
///
/// Row `i` of `a` is zero before its first non-zero column `first[i]`
/// (its *envelope*; `first` is scratch space), and so is row `i` of the
/// factor: every term the envelope leaves out is a product with an exact
/// zero, so skipping them gives the dense algorithm's numbers while the
/// work falls from m³/6 to about m·w²/2 for rows w wide (a board's
/// points in row order are joined mostly to points a row or two away).
fn cholesky_solve(a: &mut [f64], v: &mut [f64], m: usize, first: &mut Vec<usize>) {
    first.clear();
    first.extend((0..m).map(|i| (0..i).find(|&k| a[i * m + k] != 0.0).unwrap_or(i)));
    for j in 0..m {
        let fj = first[j];
        let mut d = a[j * m + j];
        for k in fj..j {
            d -= a[j * m + k] * a[j * m + k];
        }
        let d = d.max(1e-300).sqrt();
        a[j * m + j] = d;
        for i in j + 1..m {
            let fi = first[i];
            if j < fi {
                // Outside row i's envelope: the factor's entry is zero.
                continue;
            }
            let mut s = a[i * m + j];
            for k in fi.max(fj)..j {
                s -= a[i * m + k] * a[j * m + k];
            }
            a[i * m + j] = s / d;
        }
    }
    for i in 0..m {
        let mut s = v[i];
        for k in first[i]..i {
            s -= a[i * m + k] * v[k];
        }
        v[i] = s / a[i * m + i];
    }
    for i in (0..m).rev() {
        let mut s = v[i];
        for k in i + 1..m {
            if first[k] <= i {
                s -= a[k * m + i] * v[k];
            }
        }
        v[i] = s / a[i * m + i];
    }
}

/// The legal moves the knowledge leaves (the must-play region, without
/// fill-in and dominated cells), of which the `width` with the most
/// current, and every cell where either colour connects with one placement.
fn candidates(pos: &Hex, out: &mut Vec<HexMove>, width: usize) {
    if !applies(pos) {
        return eval::TwoDistance.candidate_moves(pos, out);
    }
    out.clear();
    pos.legal_moves(out);
    vc::prune_by_knowledge(pos, out);
    if out.is_empty() {
        pos.legal_moves(out);
    }
    keep_by_current(pos, out, width, |c| f64::from(flow_at(pos, c as usize)));
}

/// Whether the board has connection knowledge.
fn applies(pos: &Hex) -> bool {
    pos.geometry().n <= MAX_VC_SIZE
}

/// The evaluation of `pos` from the side to move's view (see the module
/// documentation).
pub fn evaluate_vc_resistance(pos: &Hex) -> Score {
    if !applies(pos) {
        return eval::evaluate_two_distance(pos);
    }
    let me = pos.to_move();
    if eval::winning_cell_count(pos, me) > 0 {
        return WIN_NEXT_MOVE;
    }
    SCRATCH.with(|s| s.borrow_mut().cached(pos).score)
}

/// Each colour's resistance over its connections on `pos` (by colour
/// index; not over, at most [`MAX_VC_SIZE`]), `None` when the connections
/// decide the game.
pub fn vc_resistances(pos: &Hex) -> Option<[f64; 2]> {
    SCRATCH.with(|s| s.borrow_mut().cached(pos).resistance)
}

/// The summed current of both circuits through `cell` on `pos`.
fn flow_at(pos: &Hex, cell: usize) -> f32 {
    SCRATCH.with(|s| {
        let mut s = s.borrow_mut();
        s.cached(pos).flow.get(cell).copied().unwrap_or(0.0)
    })
}

impl Evaluator<Hex> for VcResistance {
    fn name(&self) -> &'static str {
        "vc_resistance"
    }

    fn tuning(&self) -> Tuning {
        TUNING
    }

    /// Forgets the connections and the analyses kept from earlier
    /// positions.
    fn forget(&self) {
        vc::forget_knowledge();
        SCRATCH.with(|s| s.borrow_mut().cache.iter_mut().for_each(|a| *a = None));
    }

    fn evaluate(&self, pos: &Hex) -> Score {
        evaluate_vc_resistance(pos)
    }

    /// The legal moves the knowledge leaves (the must-play region, without
    /// fill-in and dominated cells), of which the [`WIDTH`] with the most
    /// current, and every cell where either colour connects with one
    /// placement.
    fn candidate_moves(&self, pos: &Hex, out: &mut Vec<HexMove>) {
        candidates(pos, out, WIDTH);
    }

    /// As below the root, keeping the [`ROOT_WIDTH`] with the most current.
    fn root_candidate_moves(&self, pos: &Hex, out: &mut Vec<HexMove>) {
        candidates(pos, out, ROOT_WIDTH);
    }

    fn opponent_threatens(&self, pos: &Hex) -> bool {
        eval::TwoDistance.opponent_threatens(pos)
    }

    /// The current through the cell (both circuits), then contact play.
    fn move_order_hint(&self, pos: &Hex, mv: HexMove) -> Score {
        match mv {
            _ if !applies(pos) => eval::TwoDistance.move_order_hint(pos, mv),
            HexMove::Swap => 0,
            HexMove::Place(c) => {
                (flow_at(pos, c as usize) * 1000.0) as Score
                    + eval::TwoDistance.move_order_hint(pos, mv)
            }
        }
    }

    fn history_index(&self, pos: &Hex, mv: HexMove) -> usize {
        eval::TwoDistance.history_index(pos, mv)
    }

    fn proven_result(&self, pos: &Hex) -> Option<(bool, u32)> {
        vc::proven_result(pos)
    }

    fn prune_by_knowledge(&self, pos: &Hex, moves: &mut Vec<HexMove>) {
        vc::prune_by_knowledge(pos, moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    fn play(pos: &mut Hex, moves: &str) {
        for m in moves.split_whitespace() {
            let mv = pos.parse_move(m).expect("legal");
            pos.play(mv);
        }
    }

    /// The Cholesky solve against Gaussian elimination with partial
    /// pivoting, on random circuits (a random graph's conductance matrix
    /// with a leak to ground).
    #[test]
    fn cholesky_solves_random_circuits() {
        let mut rng = SmallRng::seed_from_u64(3);
        for _ in 0..100 {
            let m = rng.random_range(1..40);
            let mut a = vec![0.0f64; m * m];
            for i in 0..m {
                a[i * m + i] = LEAK + rng.random_range(0.0..0.5);
                for j in 0..i {
                    if rng.random_range(0..4) == 0 {
                        let g = rng.random_range(0.1..2.0);
                        a[i * m + i] += g;
                        a[j * m + j] += g;
                        a[i * m + j] -= g;
                        a[j * m + i] -= g;
                    }
                }
            }
            let b: Vec<f64> = (0..m).map(|_| rng.random_range(-1.0..1.0)).collect();
            // Gaussian elimination on [a | b].
            let mut g: Vec<Vec<f64>> = (0..m)
                .map(|i| {
                    let mut row = a[i * m..(i + 1) * m].to_vec();
                    row.push(b[i]);
                    row
                })
                .collect();
            for col in 0..m {
                let piv = (col..m)
                    .max_by(|&x, &y| g[x][col].abs().total_cmp(&g[y][col].abs()))
                    .expect("rows");
                g.swap(col, piv);
                let pivot = g[col].clone();
                for line in g.iter_mut().skip(col + 1) {
                    let f = line[col] / pivot[col];
                    for (x, p) in line[col..].iter_mut().zip(&pivot[col..]) {
                        *x -= f * p;
                    }
                }
            }
            let mut x = vec![0.0; m];
            for i in (0..m).rev() {
                let s: f64 = (i + 1..m).map(|k| g[i][k] * x[k]).sum();
                x[i] = (g[i][m] - s) / g[i][i];
            }
            let mut v = b.clone();
            cholesky_solve(&mut a, &mut v, m, &mut Vec::new());
            for i in 0..m {
                assert!(
                    (v[i] - x[i]).abs() <= 1e-6 * x[i].abs().max(1.0),
                    "{v:?} {x:?}"
                );
            }
        }
    }

    /// The dense Cholesky solve that [`cholesky_solve`] narrows to the
    /// envelope.
    fn dense_cholesky_solve(a: &mut [f64], v: &mut [f64], m: usize) {
        for j in 0..m {
            let mut d = a[j * m + j];
            for k in 0..j {
                d -= a[j * m + k] * a[j * m + k];
            }
            let d = d.max(1e-300).sqrt();
            a[j * m + j] = d;
            for i in j + 1..m {
                let mut s = a[i * m + j];
                for k in 0..j {
                    s -= a[i * m + k] * a[j * m + k];
                }
                a[i * m + j] = s / d;
            }
        }
        for i in 0..m {
            let mut s = v[i];
            for k in 0..i {
                s -= a[i * m + k] * v[k];
            }
            v[i] = s / a[i * m + i];
        }
        for i in (0..m).rev() {
            let mut s = v[i];
            for k in i + 1..m {
                s -= a[k * m + i] * v[k];
            }
            v[i] = s / a[i * m + i];
        }
    }

    /// The envelope skips only products with an exact zero: the same
    /// voltages as the dense solve, to the bit, on banded random circuits
    /// (points joined to points up to `w` apart, a few far links, and a
    /// source joined to the first row, as a board's circuit is).
    #[test]
    fn the_envelope_gives_the_dense_solve_s_numbers() {
        let mut rng = SmallRng::seed_from_u64(5);
        let mut first = Vec::new();
        for _ in 0..200 {
            let m = rng.random_range(1..130);
            let w = rng.random_range(1..30);
            let mut a = vec![0.0f64; m * m];
            let join = |a: &mut [f64], i: usize, j: usize, g: f64| {
                a[i * m + i] += g;
                a[j * m + j] += g;
                a[i * m + j] -= g;
                a[j * m + i] -= g;
            };
            for i in 0..m {
                a[i * m + i] += LEAK;
                for j in i.saturating_sub(w)..i {
                    if rng.random_range(0..3) == 0 {
                        join(&mut a, i, j, rng.random_range(0.05..2.0));
                    }
                }
                if i > 0 && rng.random_range(0..20) == 0 {
                    let j = rng.random_range(0..i);
                    join(&mut a, i, j, 1.0 / 3.0);
                }
            }
            if m > 1 {
                for j in 0..w.min(m - 1) {
                    join(&mut a, m - 1, j, 2.0);
                }
            }
            let b: Vec<f64> = (0..m).map(|_| rng.random_range(-1.0..1.0)).collect();
            let (mut a1, mut v1) = (a.clone(), b.clone());
            dense_cholesky_solve(&mut a1, &mut v1, m);
            let (mut a2, mut v2) = (a, b);
            cholesky_solve(&mut a2, &mut v2, m, &mut first);
            assert_eq!(v1, v2);
        }
    }

    /// Circuits worked by hand on a 1×1 and a 2×2 board's points.
    #[test]
    fn hand_circuits() {
        let mut s = Scratch {
            links: Links::default(),
            a: Vec::new(),
            v: Vec::new(),
            index: Vec::new(),
            first: Vec::new(),
            cache: Vec::new(),
        };
        // One empty cell joined to both edges (empty to group: 2 each):
        // 1/2 + 1/2 in series; the unit current enters and leaves it.
        s.links = Links {
            point: vec![0],
            group: vec![false, true, true],
            fulls: vec![(0, 1, 1), (0, 2, 1)],
            joined: false,
        };
        let mut flow = vec![0.0f32; 1];
        let r = s.solve(1, &mut flow);
        assert!((r - 1.0).abs() < 1e-6, "{r}");
        assert!((flow[0] - 2.0).abs() < 1e-5, "{flow:?}");
        // Two such cells in parallel, one of them through a connection of
        // size 2 on the second edge's side (conductance 1): 1/2 + 1/2 = 1
        // and 1/2 + 1 = 3/2 in parallel: 3/5.
        s.links = Links {
            point: vec![0, 1, 2, 3],
            group: vec![false; 4].into_iter().chain([true, true]).collect(),
            fulls: vec![(0, 4, 1), (0, 5, 1), (1, 4, 1), (1, 5, 2)],
            joined: false,
        };
        let mut flow = vec![0.0f32; 4];
        let r = s.solve(2, &mut flow);
        assert!((r - 0.6).abs() < 1e-6, "{r}");
        // Currents 3/5 and 2/5 through the two cells (in and out).
        assert!(
            (flow[0] - 1.2).abs() < 1e-5 && (flow[1] - 0.8).abs() < 1e-5,
            "{flow:?}"
        );
        assert_eq!(flow[2], 0.0);
    }

    /// On an empty board the two colours' circuits are mirror images (but
    /// for ties the bounded H-search breaks by the order it meets cells);
    /// a stone lowers its colour's resistance and raises the other's.
    #[test]
    fn empty_boards_are_symmetric_and_stones_count() {
        let mut undecided = 0;
        for n in 4..=MAX_VC_SIZE {
            let mut pos = Hex::new(n).expect("board");
            pos.set_swap(false);
            let Some([b, w]) = vc_resistances(&pos) else {
                continue;
            };
            undecided += 1;
            // Mirror images up to the H-search's bounded lists, which
            // keep ties in the order cells are met (rows for one colour,
            // columns for the other).
            assert!((b - w).abs() < 0.02 * b, "n={n}: {b} {w}");
            assert!((evaluate_vc_resistance(&pos) - TEMPO).abs() <= 6);
            let centre = format!("{}{}", (b'a' + (n / 2) as u8) as char, n / 2 + 1);
            play(&mut pos, &centre);
            if let Some([b2, w2]) = vc_resistances(&pos) {
                assert!(b2 < b && w2 > w, "n={n}: {b} {w} then {b2} {w2}");
            }
        }
        assert!(undecided >= 5, "{undecided}");
    }

    /// Decided positions give proven scores: White to move with Black's
    /// stones joined by bridges from edge to edge loses; Black to move
    /// with a semi wins.
    #[test]
    fn connections_decide() {
        let mut pos = Hex::new(5).expect("board");
        pos.set_swap(false);
        play(&mut pos, "c2 a1 d3 a2 c4 a3");
        // Black c2-d3 is a bridge... and c2, c4 reach their edges by
        // templates: Black to move has won.
        assert!(vc_resistances(&pos).is_none());
        assert!(evaluate_vc_resistance(&pos) > WIN_NEXT_MOVE - MAX_PROVEN_PLIES);
        play(&mut pos, "a5");
        assert!(evaluate_vc_resistance(&pos) < -(WIN_NEXT_MOVE - MAX_PROVEN_PLIES));
    }

    /// On random positions the candidates are legal, at most [`WIDTH`]
    /// besides the one-placement wins (the root's at most [`ROOT_WIDTH`],
    /// holding every candidate), and hold every cell where either colour
    /// connects with one placement.
    #[test]
    fn candidates_are_few_and_keep_the_urgent_cells() {
        let mut rng = SmallRng::seed_from_u64(8);
        for trial in 0..40 {
            let n = [7, 9, 11][trial % 3];
            let mut pos = Hex::new(n).expect("board");
            pos.set_swap(false);
            let plies = rng.random_range(0..n * 2);
            for _ in 0..plies {
                let mut moves = Vec::new();
                pos.legal_moves(&mut moves);
                let mv = moves[rng.random_range(0..moves.len())];
                pos.play(mv);
                if pos.outcome().is_some() {
                    pos.undo();
                    break;
                }
            }
            let mut out = Vec::new();
            VcResistance.candidate_moves(&pos, &mut out);
            // The root keeps every candidate and at most ROOT_WIDTH in all.
            let mut root = Vec::new();
            VcResistance.root_candidate_moves(&pos, &mut root);
            assert!(out.iter().all(|m| root.contains(m)));
            let mut legal = Vec::new();
            pos.legal_moves(&mut legal);
            assert!(out.iter().all(|m| legal.contains(m)));
            let me = pos.to_move();
            let mut urgent = 0;
            for color in [me, me.opponent()] {
                let cells = eval::winning_cells_of(&pos, color);
                for c in 0..n * n {
                    if cells[c / 64] & (1 << (c % 64)) != 0 {
                        urgent += 1;
                        if color == me {
                            assert!(out.contains(&HexMove::Place(c as u16)));
                        }
                    }
                }
            }
            assert!(out.len() <= WIDTH + urgent, "{}", out.len());
            assert!(root.len() <= ROOT_WIDTH + urgent, "{}", root.len());
            assert!(!out.is_empty(), "{}", pos.showboard());
        }
    }
}
