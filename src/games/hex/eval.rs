//! Hex evaluation: Queenbee's two-distance potential (van Rijswijck).
//!
//! For one colour the graph's nodes are the empty cells; the colour's own
//! stones are contracted (two empty cells are adjacent when they are
//! neighbours or both touch the same own group) and the opponent's stones
//! are walls. A cell's two-distance to an edge is 1 when it is on that
//! edge or touches an own group that reaches it, and otherwise 1 + the
//! second smallest two-distance among its neighbours. The potential of a
//! colour is the smallest `td(first edge) + td(second edge)` over the
//! cells, its mobility the number of cells reaching it; the score is the
//! opponent's potential minus the side to move's, scaled as Onyx's.
//!
//! The computation is the level-synchronous relaxation on bit sets of
//! `crate::games::onyx::two_distance` (level d's cells add their
//! contracted neighbourhood to `once`, and to `twice` where already in
//! `once`; level d + 1 is the empty part of `twice` not yet placed),
//! written again here for Hex's fixed-size bit sets: Onyx's is bound to
//! its own geometry and capture rules, and its search trees must not
//! change. The first level from each edge also gives the cells that
//! connect with one placement: wins at once and threats.

use std::cell::RefCell;

use super::board::{Hex, HexMove, edge_bits};
use super::geometry::{Bits, Geometry};
use crate::game::{Color, Game};
use crate::search::{Evaluator, Score, Tuning, WIN_NEXT_MOVE, loss_in};

/// Hex's evaluation: the two-distance potential of both colours.
#[derive(Clone, Copy, Debug, Default)]
pub struct TwoDistance;

/// The searcher's tuning with [`TwoDistance`]: no pruning margins yet (none
/// has been measured in Hex) and every rule decision exact (Hex has no
/// costly one).
pub const TUNING: Tuning = Tuning {
    futility_margin: None,
    razor_margin: None,
    late_move_limit: None,
    rule_effort: None,
};

/// Most two-distance levels kept; larger values count as infinite.
pub const MAX_TD: usize = 64;
/// Potential reported when no cell has two finite two-distances.
pub const TD_INFINITE: u16 = 999;
/// Distance reported when a colour can no longer connect.
pub const UNREACHABLE: u16 = 999;

/// Score of one unit of potential.
const STEP: Score = 100;
/// Value of one unit of mobility.
const MOBILITY: Score = 3;
/// Bonus for having the move.
const TEMPO: Score = 30;

/// Calls `$f::<W>($args)` with `W` the smallest supported word count that
/// holds the board (1, 2, 4 or 6).
macro_rules! by_words {
    ($pos:expr, $f:ident($($arg:expr),*)) => {
        match $pos.geometry().words {
            1 => $f::<1>($($arg),*),
            2 => $f::<2>($($arg),*),
            3 | 4 => $f::<4>($($arg),*),
            _ => $f::<6>($($arg),*),
        }
    };
}

#[inline]
fn any<const W: usize>(a: &[u64; W]) -> bool {
    a.iter().fold(0, |x, &w| x | w) != 0
}

#[inline]
fn count<const W: usize>(a: &[u64; W]) -> u32 {
    a.iter().map(|w| w.count_ones()).sum()
}

#[inline]
fn first<const W: usize>(b: &Bits) -> [u64; W] {
    std::array::from_fn(|k| b[k])
}

/// ORs the neighbour sets of every cell of `set` into `nb`.
#[inline(always)]
fn add_neighbours<const W: usize>(geo: &Geometry, set: &[u64; W], nb: &mut [u64; W]) {
    for (wi, &word) in set.iter().enumerate() {
        let mut w = word;
        while w != 0 {
            let p = wi * 64 + w.trailing_zeros() as usize;
            w &= w - 1;
            let m = &geo.neighbour_bits[p];
            for k in 0..W {
                nb[k] |= m[k];
            }
        }
    }
}

/// The cells where `color`, placing one stone, touches the edge `edge_bit`
/// (directly or through its own stones): the empty cells on that edge or
/// next to an own chain that reaches it.
fn one_step<const W: usize>(pos: &Hex, color: Color, edge_bit: u8) -> [u64; W] {
    let geo = pos.geometry();
    let own: [u64; W] = first(pos.bits(color));
    let edge: [u64; W] = first(geo.edge_set(edge_bit));
    // The own stones joined to the edge, and every cell they touch.
    let mut reached = [0u64; W];
    let mut frontier: [u64; W] = std::array::from_fn(|k| edge[k] & own[k]);
    let mut nb = edge;
    while any(&frontier) {
        for k in 0..W {
            reached[k] |= frontier[k];
        }
        add_neighbours(geo, &frontier, &mut nb);
        frontier = std::array::from_fn(|k| nb[k] & own[k] & !reached[k]);
    }
    let empty: [u64; W] = first(&pos.empty_bits());
    std::array::from_fn(|k| nb[k] & empty[k])
}

/// The cells where `color` connects its edges with one placement.
fn winning_cells<const W: usize>(pos: &Hex, color: Color) -> [u64; W] {
    let (ea, eb) = edge_bits(color);
    let a = one_step::<W>(pos, color, ea);
    let b = one_step::<W>(pos, color, eb);
    std::array::from_fn(|k| a[k] & b[k])
}

/// Number of cells where `color` connects its edges with one placement.
pub fn winning_cell_count(pos: &Hex, color: Color) -> u32 {
    fn go<const W: usize>(pos: &Hex, color: Color) -> u32 {
        count(&winning_cells::<W>(pos, color))
    }
    by_words!(pos, go(pos, color))
}

/// The fewest placements `color` needs to join its edges (own stones cost
/// nothing, empty cells one, opponent stones block), or [`UNREACHABLE`].
pub fn connection_distance(pos: &Hex, color: Color) -> u16 {
    fn go<const W: usize>(pos: &Hex, color: Color) -> u16 {
        let geo = pos.geometry();
        let (ea, eb) = edge_bits(color);
        let own: [u64; W] = first(pos.bits(color));
        let empty: [u64; W] = first(&pos.empty_bits());
        let to: [u64; W] = first(geo.edge_set(eb));
        let mut nb: [u64; W] = first(geo.edge_set(ea));
        let mut reached = [0u64; W];
        let close = |reached: &mut [u64; W], nb: &mut [u64; W]| loop {
            let add: [u64; W] = std::array::from_fn(|k| nb[k] & own[k] & !reached[k]);
            if !any(&add) {
                break;
            }
            for k in 0..W {
                reached[k] |= add[k];
            }
            add_neighbours(geo, &add, nb);
        };
        let meets = |r: &[u64; W]| (0..W).any(|k| r[k] & to[k] != 0);
        close(&mut reached, &mut nb);
        if meets(&reached) {
            return 0;
        }
        for level in 1..=geo.num_cells {
            let new: [u64; W] = std::array::from_fn(|k| nb[k] & empty[k] & !reached[k]);
            if !any(&new) {
                return UNREACHABLE;
            }
            for k in 0..W {
                reached[k] |= new[k];
            }
            add_neighbours(geo, &new, &mut nb);
            close(&mut reached, &mut nb);
            if meets(&reached) {
                return level as u16;
            }
        }
        UNREACHABLE
    }
    by_words!(pos, go(pos, color))
}

/// A thread's working memory: the contracted neighbourhoods (`W` words a
/// cell), the cells around each own group and the levels of two searches.
#[derive(Default)]
struct Scratch {
    contracted: Vec<u64>,
    around: Vec<u64>,
    gedge: Vec<u8>,
    levels: Vec<u64>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Labels `own`'s groups into `s.around` / `s.gedge` and tables every
/// cell's contracted neighbourhood in `s.contracted`.
fn contract<const W: usize>(geo: &Geometry, own: &[u64; W], s: &mut Scratch) {
    s.around.clear();
    s.gedge.clear();
    s.contracted.clear();
    for nb in &geo.neighbour_bits[..geo.num_cells] {
        s.contracted.extend_from_slice(&nb[..W]);
    }
    let mut rest = *own;
    while let Some(wi) = rest.iter().position(|&w| w != 0) {
        let p = wi * 64 + rest[wi].trailing_zeros() as usize;
        let mut group = [0u64; W];
        group[wi] = 1 << (p % 64);
        let mut frontier = group;
        let mut nb = [0u64; W];
        while any(&frontier) {
            add_neighbours(geo, &frontier, &mut nb);
            frontier = std::array::from_fn(|k| nb[k] & own[k] & !group[k]);
            for k in 0..W {
                group[k] |= frontier[k];
            }
        }
        let mut edges = 0;
        for (k, &word) in group.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                edges |= geo.edges[k * 64 + w.trailing_zeros() as usize];
                w &= w - 1;
            }
            rest[k] &= !word;
        }
        s.gedge.push(edges);
        s.around.extend_from_slice(&nb);
        // Each cell next to the group reaches every cell around it.
        let (contracted, _) = s.contracted.as_chunks_mut::<W>();
        for (k, &word) in nb.iter().enumerate() {
            let mut w = word & !own[k];
            while w != 0 {
                let f = k * 64 + w.trailing_zeros() as usize;
                w &= w - 1;
                for (c, &a) in contracted[f].iter_mut().zip(&nb) {
                    *c |= a;
                }
            }
        }
    }
}

/// One two-distance search from an edge, one level at a time.
struct Td<const W: usize> {
    /// Cells with at least one placed contracted neighbour.
    once: [u64; W],
    /// Cells with at least two: the next level, less `done` and the cells
    /// that are not empty.
    twice: [u64; W],
    /// Cells placed on a level.
    done: [u64; W],
    /// The empty cells: only they are placed.
    passable: [u64; W],
}

impl<const W: usize> Td<W> {
    /// Starts from the edge `edge_bit`: its cells and the cells around the
    /// own groups on it are at distance 1.
    fn new(geo: &Geometry, s: &Scratch, passable: [u64; W], edge_bit: u8) -> Self {
        let mut twice: [u64; W] = first(geo.edge_set(edge_bit));
        let (around, _) = s.around.as_chunks::<W>();
        for (around, &gedge) in around.iter().zip(&s.gedge) {
            if gedge & edge_bit != 0 {
                for (t, a) in twice.iter_mut().zip(around) {
                    *t |= a;
                }
            }
        }
        Td {
            once: twice,
            twice,
            done: [0; W],
            passable,
        }
    }

    /// Takes the next level (empty when the search is over).
    #[inline]
    fn take_level(&mut self) -> [u64; W] {
        let mut new = self.twice;
        for ((n, d), p) in new.iter_mut().zip(&mut self.done).zip(&self.passable) {
            *n &= p & !*d;
            *d |= *n;
        }
        new
    }

    /// Adds the contracted neighbourhoods of `level` to `once` and `twice`.
    #[inline]
    fn expand(&mut self, s: &Scratch, level: &[u64; W]) {
        let (table, _) = s.contracted.as_chunks::<W>();
        let (mut once, mut twice) = (self.once, self.twice);
        for (wi, &word) in level.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                let m = &table[wi * 64 + w.trailing_zeros() as usize];
                w &= w - 1;
                for k in 0..W {
                    twice[k] |= once[k] & m[k];
                    once[k] |= m[k];
                }
            }
        }
        (self.once, self.twice) = (once, twice);
    }
}

#[inline]
fn common<const W: usize>(a: &[u64; W], b: &[u64; W]) -> u16 {
    (0..W).map(|k| (a[k] & b[k]).count_ones()).sum::<u32>() as u16
}

/// Two-distance potential and mobility of `color`. Both searches advance
/// together; after level k every cell with both two-distances at most k is
/// known and any other sums to at least k + 2, so the search stops once
/// the best sum is at most k + 1.
fn potential<const W: usize>(pos: &Hex, color: Color) -> (u16, u16) {
    let geo = pos.geometry();
    let (ea, eb) = edge_bits(color);
    let own: [u64; W] = first(pos.bits(color));
    let empty: [u64; W] = first(&pos.empty_bits());
    let mut counts = [0u16; 2 * MAX_TD];
    let mut best = usize::MAX;
    SCRATCH.with(|s| {
        let s = &mut *s.borrow_mut();
        contract(geo, &own, s);
        let mut levels = std::mem::take(&mut s.levels);
        if levels.len() < 2 * MAX_TD * W {
            levels.resize(2 * MAX_TD * W, 0);
        }
        {
            let (lv, _) = levels.as_chunks_mut::<W>();
            let (la, lb) = lv.split_at_mut(MAX_TD);
            let mut a = Td::new(geo, s, empty, ea);
            let mut b = Td::new(geo, s, empty, eb);
            let (mut a_open, mut b_open) = (true, true);
            let (mut all_a, mut all_b) = ([0u64; W], [0u64; W]);
            for k in 1..MAX_TD {
                la[k] = if a_open {
                    if k > 1 {
                        a.expand(s, &la[k - 1]);
                    }
                    a.take_level()
                } else {
                    [0; W]
                };
                a_open = any(&la[k]);
                lb[k] = if b_open {
                    if k > 1 {
                        b.expand(s, &lb[k - 1]);
                    }
                    b.take_level()
                } else {
                    [0; W]
                };
                b_open = any(&lb[k]);
                if (!a_open && !b_open) || (k == 1 && !(a_open && b_open)) {
                    break;
                }
                let mut meets = 0;
                for w in 0..W {
                    all_a[w] |= la[k][w];
                    all_b[w] |= lb[k][w];
                    meets |= (la[k][w] & all_b[w]) | (lb[k][w] & all_a[w]);
                }
                if meets == 0 {
                    continue;
                }
                for j in 1..=k {
                    if k + j > best {
                        break;
                    }
                    let c = common(&la[k], &lb[j]);
                    if c > 0 {
                        counts[k + j] += c;
                        best = best.min(k + j);
                    }
                }
                for i in 1..k {
                    if i + k > best {
                        break;
                    }
                    let c = common(&la[i], &lb[k]);
                    if c > 0 {
                        counts[i + k] += c;
                        best = best.min(i + k);
                    }
                }
                if best <= k + 1 {
                    break;
                }
            }
        }
        s.levels = levels;
    });
    if best == usize::MAX {
        (TD_INFINITE, 0)
    } else {
        (best as u16, counts[best])
    }
}

/// Two-distance potential and mobility of `color` ([`TD_INFINITE`] when no
/// cell has two finite two-distances).
pub fn potential_and_mobility(pos: &Hex, color: Color) -> (u16, u16) {
    by_words!(pos, potential(pos, color))
}

/// The potential the score counts: the two-distance potential, or, with no
/// two routes left, the single route counted twice, `2 × distance + 2`;
/// at most `4n`.
fn effective_potential(pos: &Hex, color: Color, potential: u16) -> u16 {
    let cap = 4 * pos.size() as u16;
    if potential != TD_INFINITE {
        return potential.min(cap);
    }
    match connection_distance(pos, color) {
        UNREACHABLE => cap,
        d => (2 * d + 2).min(cap),
    }
}

/// The evaluation from the side to move's view: [`WIN_NEXT_MOVE`] when it
/// connects with one placement, a loss in 2 when the opponent has two
/// such cells (one stone blocks one of them), else
/// `(their potential − my potential) × STEP + (my mobility − their
/// mobility) × MOBILITY + TEMPO`.
pub fn evaluate_two_distance(pos: &Hex) -> Score {
    fn go<const W: usize>(pos: &Hex, me: Color) -> Score {
        if any(&winning_cells::<W>(pos, me)) {
            return WIN_NEXT_MOVE;
        }
        let them = me.opponent();
        if count(&winning_cells::<W>(pos, them)) >= 2 {
            return loss_in(2);
        }
        let (mine, my_mob) = potential::<W>(pos, me);
        let (theirs, their_mob) = potential::<W>(pos, them);
        let mine = effective_potential(pos, me, mine);
        let theirs = effective_potential(pos, them, theirs);
        (theirs as Score - mine as Score) * STEP
            + (my_mob as Score - their_mob as Score) * MOBILITY
            + TEMPO
    }
    by_words!(pos, go(pos, pos.to_move()))
}

impl Evaluator<Hex> for TwoDistance {
    fn name(&self) -> &'static str {
        "two_distance"
    }

    fn tuning(&self) -> Tuning {
        TUNING
    }

    fn evaluate(&self, pos: &Hex) -> Score {
        evaluate_two_distance(pos)
    }

    /// The legal moves but the dead cells of the ring pattern
    /// ([`super::inferior::ring_dead_cells`]; the flood of the cut-off
    /// cells cost a third of the node rate and changed no bench tree):
    /// a dead cell never wins at once nor stops a win at once (it is in no
    /// minimal winning set), and a move there is never better than another.
    fn candidate_moves(&self, pos: &Hex, out: &mut Vec<HexMove>) {
        pos.legal_moves(out);
        let dead = super::inferior::ring_dead_cells(pos);
        if dead.iter().any(|&w| w != 0) {
            let before = out.len();
            out.retain(|&mv| match mv {
                HexMove::Place(c) => dead[c as usize / 64] & (1 << (c % 64)) == 0,
                HexMove::Swap => true,
            });
            if out.is_empty() && before > 0 {
                pos.legal_moves(out);
            }
        }
    }

    /// The opponent connects with one placement.
    fn opponent_threatens(&self, pos: &Hex) -> bool {
        winning_cell_count(pos, pos.to_move().opponent()) > 0
    }

    /// Stones next to the cell (contact play), then closeness to the
    /// centre.
    fn move_order_hint(&self, pos: &Hex, mv: HexMove) -> Score {
        match mv {
            HexMove::Swap => 0,
            HexMove::Place(c) => {
                let geo = pos.geometry();
                let nb = &geo.neighbour_bits[c as usize];
                let stones: u32 = (0..geo.words)
                    .map(|k| {
                        (nb[k] & (pos.bits(Color::Black)[k] | pos.bits(Color::White)[k]))
                            .count_ones()
                    })
                    .sum();
                let n = geo.n as i32;
                let (x, y) = (c as i32 % n, c as i32 / n);
                // Hex distance from the centre.
                let (dx, dy) = (2 * x - (n - 1), 2 * y - (n - 1));
                let centre = (dx.abs() + dy.abs() + (dx + dy).abs()) / 2;
                stones as Score * 10 - centre
            }
        }
    }

    fn history_index(&self, _pos: &Hex, mv: HexMove) -> usize {
        match mv {
            HexMove::Place(c) => c as usize + 1,
            HexMove::Swap => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    //! The bit-parallel two-distance against its definition iterated to a
    //! fixed point, and the one-placement wins against making every move.
    use super::*;
    use crate::game::Notation;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    const INF: u16 = u16::MAX;

    /// Two-distances of `color` to `edge_bit` by the definition, iterated
    /// until nothing changes.
    fn naive(pos: &Hex, color: Color, edge_bit: u8) -> Vec<u16> {
        let geo = pos.geometry();
        let nc = geo.num_cells;
        // Own groups by flood fill.
        let mut comp = vec![usize::MAX; nc];
        let mut comp_edges = Vec::new();
        for p in 0..nc {
            if pos.at(p as u16) != Some(color) || comp[p] != usize::MAX {
                continue;
            }
            let id = comp_edges.len();
            let mut e = 0;
            let mut stack = vec![p];
            comp[p] = id;
            while let Some(q) = stack.pop() {
                e |= geo.edges[q];
                for &r in geo.neighbours_of(q as u16) {
                    if pos.at(r) == Some(color) && comp[r as usize] == usize::MAX {
                        comp[r as usize] = id;
                        stack.push(r as usize);
                    }
                }
            }
            comp_edges.push(e);
        }
        let empty = |p: usize| pos.at(p as u16).is_none();
        let groups = |p: usize| -> Vec<usize> {
            geo.neighbours_of(p as u16)
                .iter()
                .filter(|&&q| pos.at(q) == Some(color))
                .map(|&q| comp[q as usize])
                .collect()
        };
        let adj: Vec<Vec<usize>> = (0..nc)
            .map(|p| {
                let mut v: Vec<usize> = geo
                    .neighbours_of(p as u16)
                    .iter()
                    .map(|&q| q as usize)
                    .filter(|&q| empty(q))
                    .collect();
                let gp = groups(p);
                for r in (0..nc).filter(|&r| r != p && empty(r)) {
                    if groups(r).iter().any(|g| gp.contains(g)) {
                        v.push(r);
                    }
                }
                v.sort_unstable();
                v.dedup();
                v
            })
            .collect();
        let on_edge = |p: usize| {
            geo.edges[p] & edge_bit != 0 || groups(p).iter().any(|&g| comp_edges[g] & edge_bit != 0)
        };
        let mut td = vec![INF; nc];
        loop {
            let mut changed = false;
            for p in (0..nc).filter(|&p| empty(p)) {
                let v = if on_edge(p) {
                    1
                } else {
                    let mut vals: Vec<u16> = adj[p].iter().map(|&r| td[r]).collect();
                    vals.sort_unstable();
                    match vals.get(1) {
                        Some(&v) if v != INF => v + 1,
                        _ => INF,
                    }
                };
                if v != td[p] {
                    td[p] = v;
                    changed = true;
                }
            }
            if !changed {
                return td;
            }
        }
    }

    #[test]
    fn two_distance_matches_fixed_point_and_wins_match_moves() {
        let mut rng = SmallRng::seed_from_u64(3);
        for &(n, games) in &[(3, 30), (5, 30), (8, 20), (11, 10), (13, 3)] {
            for _ in 0..games {
                let mut pos = Hex::new(n).unwrap();
                let mut moves = Vec::new();
                while pos.outcome().is_none() {
                    for c in Color::ALL {
                        let (ea, eb) = edge_bits(c);
                        let a = naive(&pos, c, ea);
                        let b = naive(&pos, c, eb);
                        let sums: Vec<u16> = a
                            .iter()
                            .zip(&b)
                            .filter(|&(&x, &y)| x != INF && y != INF)
                            .map(|(&x, &y)| x + y)
                            .collect();
                        let want = match sums.iter().min() {
                            Some(&m) => (m, sums.iter().filter(|&&s| s == m).count() as u16),
                            None => (TD_INFINITE, 0),
                        };
                        assert_eq!(
                            potential_and_mobility(&pos, c),
                            want,
                            "\n{}",
                            pos.showboard()
                        );
                        // Winning cells: placing there connects.
                        let mut wins = 0;
                        for p in 0..pos.geometry().num_cells {
                            if pos.at(p as u16).is_none() {
                                let mut q = pos.clone();
                                if q.to_move() != c {
                                    q.play_null();
                                }
                                q.play(HexMove::Place(p as u16));
                                if q.outcome() == Some(crate::game::Outcome::Win(c)) {
                                    wins += 1;
                                }
                            }
                        }
                        assert_eq!(winning_cell_count(&pos, c), wins);
                    }
                    moves.clear();
                    pos.legal_moves(&mut moves);
                    let m = moves[rng.random_range(0..moves.len())];
                    pos.play(m);
                }
            }
        }
    }
}
