//! Queenbee's two-distance (van Rijswijck) adapted to Onyx, and an
//! evaluation built on it.
//!
//! The graph is the board's lines (orthogonals, the single diagonals of the
//! non-square cells, midpoint spokes) seen by one colour, as in
//! [`super::distance::Board`]:
//! - *nodes* are the passable points: placeable empty points (a midpoint only
//!   while its four corners are empty), plus, for the colour that is not to
//!   move, its own pieces under capture threat (they may still be lost, so
//!   they count like an empty point, not as a safe link), and, for the side
//!   to move, the opponent's pieces it can capture with one placement (the
//!   capture takes them off and reopens the route; the side not to move
//!   gives the opponent a chance to defend first);
//! - the colour's safe pieces are contracted: two nodes are adjacent when
//!   they share a line or both touch the same own group (a group is free to
//!   pass through, as in Benzene's two-distance over empty virtual
//!   connections);
//! - opponent pieces and blocked midpoints are walls.
//!
//! The two-distance of a node from an edge is 1 when the node is on that
//! edge or touches an own group that reaches it (the edge is one virtual
//! node that the opponent cannot cut from a point standing on it, so it
//! counts as two neighbours at distance 0, as the cells next to the edge in
//! Hex get distance 1 in Queenbee and Benzene); otherwise it is 1 + the
//! second smallest two-distance among its neighbours (infinite with fewer
//! than two finite neighbours). The potential of a colour is the smallest
//! `td(first edge) + td(second edge)` over the nodes, and its mobility the
//! number of nodes that reach it.
//!
//! The computation is a level-synchronous relaxation on bitsets: level d
//! holds the nodes of two-distance d; each node of level d adds its
//! contracted neighbourhood to `once`, and to `twice` where it was already
//! in `once`; level d + 1 is the passable part of `twice` minus the nodes
//! already placed. Own groups are labelled once per colour, and every
//! point's contracted neighbourhood (its lines, plus the points around the
//! own groups it touches) is tabled as a bitset, in a per-thread scratch
//! buffer (grown once, never per call), kept while that colour's pieces
//! stay the same: the neighbourhoods hold no empty-point information (the
//! passable points are masked in when a level is taken), so siblings in
//! the search, which differ only in the other colour's pieces, share them.
//! A colour's groups one piece on from those last labelled are derived
//! from them (the piece joins the groups it touches): at the leaves, the
//! side that just moved has one piece more than at the node above.

use std::cell::RefCell;

use super::board::{Onyx, edge_bits};
use super::distance::{
    Board, MAX_LEVELS, UNREACHABLE, add_neighbours, any, by_words, connects_in_one, search,
};
use super::geometry::Geometry;
use crate::game::{Color, Game};
use crate::search::{Score, WIN_NEXT_MOVE};

/// Most two-distance levels kept; larger values count as infinite.
pub const MAX_TD: usize = 64;

/// Potential reported when no node has two finite two-distances.
pub const TD_INFINITE: u16 = 999;

/// Per-level bitsets of one two-distance search (level 0 unused).
pub type TdLevels<const W: usize> = [[u64; W]; MAX_TD];

/// Score of one unit of potential.
const STEP: Score = 100;
/// Value of one unit of mobility.
const MOBILITY: Score = 3;
/// Bonus for having the move.
const TEMPO: Score = 30;

/// The own groups of one colour, and the contracted neighbourhood of every
/// point that they give.
#[derive(Default)]
struct Groups {
    /// Board size and own pieces the groups were labelled for.
    n: usize,
    own: Vec<u64>,
    /// Every point next to each group (`W` words a group; the group's own
    /// pieces among them).
    around: Vec<u64>,
    /// The edges each group touches.
    gedge: Vec<u8>,
    /// The contracted neighbourhood of each point (`W` words a point):
    /// its neighbours, and every point around the own groups next to it.
    /// Read through the passable points not yet placed, it is the point's
    /// neighbourhood in the contracted graph.
    contracted: Vec<u64>,
}

/// A thread's working memory: for each colour, its groups as last
/// labelled from scratch and as last derived from those with one more
/// piece (each kept while its pieces stay the same: siblings in the search
/// differ in the other colour's pieces, or in the one piece the side that
/// moved placed), and the levels of the two searches.
#[derive(Default)]
struct Scratch {
    groups: [[Groups; 2]; 2],
    levels: Vec<u64>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// The groups of `board`'s own pieces: `pair[0]` when it holds them, or
/// `pair[1]`, derived from `pair[0]` when the pieces are those plus one,
/// or else `pair[0]` labelled afresh.
fn label_groups<'a, const W: usize>(
    geo: &Geometry,
    board: &Board<W>,
    pair: &'a mut [Groups; 2],
) -> &'a Groups {
    let [base, derived] = pair;
    let same = |g: &Groups| g.n == geo.n && g.own[..] == board.own[..];
    if same(base) {
        return base;
    }
    if same(derived) {
        return derived;
    }
    if base.n == geo.n {
        let extra: [u64; W] = std::array::from_fn(|k| board.own[k] & !base.own[k]);
        let missing = (0..W).any(|k| base.own[k] & !board.own[k] != 0);
        let added: u32 = extra.iter().map(|w| w.count_ones()).sum();
        if !missing && added == 1 {
            let wi = extra.iter().position(|&w| w != 0).unwrap_or(0);
            let p = wi * 64 + extra[wi].trailing_zeros() as usize;
            derive(geo, base, p, &board.own, derived);
            return derived;
        }
    }
    relabel(geo, &board.own, base);
    base
}

/// Sets `out` to the groups of `own`: those of `base` with the piece `p`
/// added, which joins every group it touches.
fn derive<const W: usize>(
    geo: &Geometry,
    base: &Groups,
    p: usize,
    own: &[u64; W],
    out: &mut Groups,
) {
    let (around, _) = base.around.as_chunks::<W>();
    let (lines, _) = geo.neighbour_bits.as_chunks::<W>();
    let nb = &lines[p];
    let (wi, bit) = (p / 64, 1u64 << (p % 64));
    // The joined group: the piece, and every group it touches.
    let mut joined = *nb;
    let mut edges = geo.edges[p];
    out.n = base.n;
    out.own.clear();
    out.own.extend_from_slice(own);
    out.gedge.clear();
    out.around.clear();
    for (around, &gedge) in around.iter().zip(&base.gedge) {
        if around[wi] & bit != 0 {
            for (j, a) in joined.iter_mut().zip(around) {
                *j |= a;
            }
            edges |= gedge;
        } else {
            out.gedge.push(gedge);
            out.around.extend_from_slice(around);
        }
    }
    out.gedge.push(edges);
    out.around.extend_from_slice(&joined);
    // Every point next to the joined group gains every point around it;
    // the piece's own row goes back to its lines, as for every own piece.
    out.contracted.clear();
    out.contracted.extend_from_slice(&base.contracted);
    out.contracted[p * W..p * W + W].copy_from_slice(nb);
    widen(&mut out.contracted, &joined, own);
}

/// Labels the groups of `own` afresh.
fn relabel<const W: usize>(geo: &Geometry, own: &[u64; W], s: &mut Groups) {
    s.n = geo.n;
    s.own.clear();
    s.own.extend_from_slice(own);
    s.gedge.clear();
    s.around.clear();
    let mut rest = *own;
    while let Some(wi) = rest.iter().position(|&w| w != 0) {
        let p = wi * 64 + rest[wi].trailing_zeros() as usize;
        let mut group = [0u64; W];
        group[wi] = 1 << (p % 64);
        let mut frontier = group;
        let mut nb = [0u64; W];
        loop {
            let mut add = [0u64; W];
            add_neighbours(geo, &frontier, &mut add);
            let mut new = [0u64; W];
            for k in 0..W {
                nb[k] |= add[k];
                new[k] = add[k] & own[k] & !group[k];
                group[k] |= new[k];
            }
            if !any(&new) {
                break;
            }
            frontier = new;
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
    }
    s.contracted.clear();
    s.contracted
        .extend_from_slice(&geo.neighbour_bits[..geo.num_points * W]);
    let (around, _) = s.around.as_chunks::<W>();
    for around in around {
        widen(&mut s.contracted, around, own);
    }
}

/// Each point next to a group (the own pieces `own` left out) gains every
/// point `around` it in its contracted neighbourhood.
fn widen<const W: usize>(contracted: &mut [u64], around: &[u64; W], own: &[u64; W]) {
    let (contracted, _) = contracted.as_chunks_mut::<W>();
    for (k, &word) in around.iter().enumerate() {
        let mut w = word & !own[k];
        while w != 0 {
            let f = k * 64 + w.trailing_zeros() as usize;
            w &= w - 1;
            for (c, &a) in contracted[f].iter_mut().zip(around) {
                *c |= a;
            }
        }
    }
}

/// One two-distance search from an edge, one level at a time.
struct Td<const W: usize> {
    /// Points with at least one placed contracted neighbour.
    once: [u64; W],
    /// Points with at least two: the next level, once `done` and the
    /// points that are not passable are removed.
    twice: [u64; W],
    /// Points placed on a level.
    done: [u64; W],
    /// The passable points: only they are placed.
    passable: [u64; W],
}

impl<const W: usize> Td<W> {
    /// Starts from the edge `edge_bit`: its passable points and the
    /// neighbours of the own groups on it are at distance 1 (the passable
    /// points are masked in when the first level is taken).
    fn new(geo: &Geometry, board: &Board<W>, s: &Groups, edge_bit: u8) -> Self {
        let (edge, _) = geo.edge_bits[edge_bit.trailing_zeros() as usize].as_chunks::<W>();
        let mut twice = edge[0];
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
            passable: board.passable,
        }
    }

    /// Takes the points of the next level (empty when the search is over):
    /// the passable points with two placed contracted neighbours, less
    /// those placed.
    /// Call [`Td::expand`] on it before taking the level after.
    #[inline]
    fn take_level(&mut self) -> [u64; W] {
        let mut new = self.twice;
        for ((n, d), p) in new.iter_mut().zip(&mut self.done).zip(&self.passable) {
            *n &= p & !*d;
            *d |= *n;
        }
        new
    }

    /// Adds the contracted neighbourhoods of `level` (the level just
    /// taken) to `once` and `twice`, whole: points that are placed or not
    /// passable are counted too, and left out when the next level is taken
    /// (a point's count never depends on another's). The last level of a
    /// search is never expanded.
    #[inline]
    fn expand(&mut self, s: &Groups, level: &[u64; W]) {
        let (table, _) = s.contracted.as_chunks::<W>();
        // Kept in locals (registers) through the loop.
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

/// Two-distance levels of `board`'s colour from the edge `edge_bit`
/// (groups labelled in `s`), run to the end; returns the number of levels
/// filled (levels `1..returned`).
#[cfg(test)]
fn two_distance<const W: usize>(
    geo: &Geometry,
    board: &Board<W>,
    s: &Groups,
    edge_bit: u8,
    levels: &mut TdLevels<W>,
) -> usize {
    let mut td = Td::new(geo, board, s, edge_bit);
    for d in 1..MAX_TD {
        if d > 1 {
            td.expand(s, &levels[d - 1]);
        }
        levels[d] = td.take_level();
        if !any(&levels[d]) {
            return d;
        }
    }
    MAX_TD
}

#[inline]
fn common<const W: usize>(a: &[u64; W], b: &[u64; W]) -> u16 {
    (0..W).map(|k| (a[k] & b[k]).count_ones()).sum::<u32>() as u16
}

/// Potential and mobility of `color` on `board` (a board read for `color`).
/// Both searches advance together, a level at a time; after level k every
/// point with both two-distances at most k is known, and any other point
/// sums to at least k + 2, so the search stops once the best sum is at
/// most k + 1.
fn potential<const W: usize>(pos: &Onyx, board: &Board<W>, color: Color) -> (u16, u16) {
    let geo = pos.geometry();
    let (ea, eb) = edge_bits(color);
    let mut counts = [0u16; 2 * MAX_TD];
    let mut best = usize::MAX;
    SCRATCH.with(|s| {
        let Scratch { groups, levels } = &mut *s.borrow_mut();
        let s = label_groups(geo, board, &mut groups[color.index()]);
        // Only the levels written below are read: no clearing needed.
        if levels.len() < 2 * MAX_TD * W {
            levels.resize(2 * MAX_TD * W, 0);
        }
        let (levels, _) = levels.as_chunks_mut::<W>();
        let (la, lb) = levels.split_at_mut(MAX_TD);
        let mut a = Td::new(geo, board, s, ea);
        let mut b = Td::new(geo, board, s, eb);
        let (mut a_open, mut b_open) = (true, true);
        // Every point placed by each search so far.
        let (mut all_a, mut all_b) = ([0u64; W], [0u64; W]);
        for k in 1..MAX_TD {
            // A level is expanded only when the next one is needed: the
            // search stops without expanding its last.
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
            // New sums need a point of this level of one search that the
            // other has placed (at this level or before).
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
    });
    if best == usize::MAX {
        (TD_INFINITE, 0)
    } else {
        (best as u16, counts[best])
    }
}

/// The board the evaluation reads for `color`: [`Board::new`] (its pieces
/// under capture threat unsafe when it is not to move), with
/// [`captures_open`].
fn eval_board<const W: usize>(pos: &Onyx, color: Color) -> Board<W> {
    captures_open(Board::new(pos, color), pos, color)
}

/// For the side to move, the opponent's pieces it can capture with one
/// placement become passable: the capture takes them off the board.
fn captures_open<const W: usize>(mut board: Board<W>, pos: &Onyx, color: Color) -> Board<W> {
    if color == pos.to_move() {
        let capturable = &board.threatened[color.opponent().index()];
        for (p, c) in board.passable.iter_mut().zip(capturable) {
            *p |= c;
        }
    }
    board
}

/// Potential and mobility of `color` on the board the evaluation reads
/// ([`eval_board`]).
pub fn potential_and_mobility(pos: &Onyx, color: Color) -> (u16, u16) {
    fn go<const W: usize>(pos: &Onyx, color: Color) -> (u16, u16) {
        potential(pos, &eval_board::<W>(pos, color), color)
    }
    by_words!(pos, go(pos, color))
}

/// The potential the score counts: the two-distance potential, or, when a
/// colour has no two routes left (infinite potential), its single route
/// counted twice over, `2 × connection distance + 2`; at most `4n`. No two
/// routes is a long way off, not lost: captures can reopen a route.
fn effective_potential<const W: usize>(
    geo: &Geometry,
    board: &Board<W>,
    color: Color,
    potential: u16,
) -> u16 {
    let cap = 4 * geo.n as u16;
    if potential != TD_INFINITE {
        return potential.min(cap);
    }
    let d = search(geo, board, color, MAX_LEVELS, None);
    if d >= UNREACHABLE {
        cap
    } else {
        (2 * d + 2).min(cap)
    }
}

/// Two-distance evaluation from the side to move's view:
/// `(their potential - my potential) * STEP + (my mobility - their
/// mobility) * MOBILITY + TEMPO` with the potentials of
/// [`effective_potential`], or [`WIN_NEXT_MOVE`] when the side to move
/// connects with one placement (plain connection distance 1).
pub fn evaluate_two_distance(pos: &Onyx) -> Score {
    fn go<const W: usize>(pos: &Onyx, me: Color) -> Score {
        let geo = pos.geometry();
        let board = Board::<W>::new(pos, me);
        if connects_in_one(geo, &board, me) {
            return WIN_NEXT_MOVE;
        }
        let them = me.opponent();
        let their_board = board.for_color(pos, them);
        let board = captures_open(board, pos, me);
        let (mine, my_mob) = potential(pos, &board, me);
        let (theirs, their_mob) = potential(pos, &their_board, them);
        let mine = effective_potential(geo, &board, me, mine);
        let theirs = effective_potential(geo, &their_board, them, theirs);
        (theirs as Score - mine as Score) * STEP
            + (my_mob as Score - their_mob as Score) * MOBILITY
            + TEMPO
    }
    by_words!(pos, go(pos, pos.to_move()))
}

#[cfg(test)]
mod tests {
    //! The bit-parallel two-distance against the definition iterated to a
    //! fixed point.
    use super::*;
    use crate::game::Notation;
    use crate::games::onyx::Start;
    use crate::games::onyx::random_game;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    const MAX_POINTS: usize = 26 * 26 + 13 * 25 + 1;
    const INF: u16 = u16::MAX;

    fn bit(bits: &[u64], p: usize) -> bool {
        bits[p / 64] >> (p % 64) & 1 != 0
    }

    /// The contracted graph of `own` / `passable`: neighbour lists of the
    /// passable points, and which edges each passable point touches
    /// (directly or through an own group).
    fn contracted(geo: &Geometry, own: &[u64], passable: &[u64]) -> (Vec<Vec<usize>>, Vec<u8>) {
        let np = geo.num_points;
        let mut comp = vec![usize::MAX; np];
        let mut comp_edges = Vec::new();
        for p in 0..np {
            if !bit(own, p) || comp[p] != usize::MAX {
                continue;
            }
            let c = comp_edges.len();
            let mut edges = 0;
            let mut stack = vec![p];
            comp[p] = c;
            while let Some(q) = stack.pop() {
                edges |= geo.edges[q];
                for &r in geo.neighbours_of(q as u16) {
                    let r = r as usize;
                    if bit(own, r) && comp[r] == usize::MAX {
                        comp[r] = c;
                        stack.push(r);
                    }
                }
            }
            comp_edges.push(edges);
        }
        let groups_of: Vec<Vec<usize>> = (0..np)
            .map(|p| {
                let mut g: Vec<usize> = geo
                    .neighbours_of(p as u16)
                    .iter()
                    .map(|&q| q as usize)
                    .filter(|&q| bit(own, q))
                    .map(|q| comp[q])
                    .collect();
                g.sort_unstable();
                g.dedup();
                g
            })
            .collect();
        // The passable points around each group.
        let mut around = vec![Vec::new(); comp_edges.len()];
        for r in (0..np).filter(|&r| bit(passable, r)) {
            for &g in &groups_of[r] {
                around[g].push(r);
            }
        }
        let mut adj = vec![Vec::new(); np];
        let mut edges = vec![0u8; np];
        for p in (0..np).filter(|&p| bit(passable, p)) {
            edges[p] = geo.edges[p];
            let mut list: Vec<usize> = geo
                .neighbours_of(p as u16)
                .iter()
                .map(|&q| q as usize)
                .filter(|&q| bit(passable, q))
                .collect();
            for &g in &groups_of[p] {
                edges[p] |= comp_edges[g];
                list.extend(around[g].iter().copied().filter(|&r| r != p));
            }
            list.sort_unstable();
            list.dedup();
            adj[p] = list;
        }
        (adj, edges)
    }

    /// The two-distance by its definition, iterated until nothing changes.
    fn naive(passable: &[u64], adj: &[Vec<usize>], edges: &[u8], edge_bit: u8) -> Vec<u16> {
        let np = adj.len();
        let mut td = vec![INF; np];
        loop {
            let mut changed = false;
            for p in (0..np).filter(|&p| bit(passable, p)) {
                let v = if edges[p] & edge_bit != 0 {
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

    fn check<const W: usize>(pos: &Onyx, color: Color) {
        let geo = pos.geometry();
        let board = eval_board::<W>(pos, color);
        let (adj, edges) = contracted(geo, &board.own, &board.passable);
        let (ea, eb) = edge_bits(color);
        let na = naive(&board.passable, &adj, &edges, ea);
        let nb = naive(&board.passable, &adj, &edges, eb);
        let mut from = [[0u64; W]; MAX_TD];
        let mut to = [[0u64; W]; MAX_TD];
        SCRATCH.with(|s| {
            let pair = &mut s.borrow_mut().groups[color.index()];
            let s = label_groups(geo, &board, pair);
            let nf = two_distance(geo, &board, s, ea, &mut from);
            let nt = two_distance(geo, &board, s, eb, &mut to);
            let level = |levels: &TdLevels<W>, n: usize, p: usize| {
                (1..n)
                    .find(|&d| bit(&levels[d], p))
                    .map_or(INF, |d| d as u16)
            };
            let capped = |v: u16| if (v as usize) < MAX_TD { v } else { INF };
            for p in 0..geo.num_points {
                assert_eq!(
                    level(&from, nf, p),
                    capped(na[p]),
                    "{color:?} from first edge at {}\n{}",
                    geo.point_name(p as u16),
                    pos.showboard()
                );
                assert_eq!(level(&to, nt, p), capped(nb[p]));
            }
        });
        assert_eq!(potential_and_mobility(pos, color), (best_of(&na, &nb)));
    }

    fn best_of(a: &[u16], b: &[u16]) -> (u16, u16) {
        let sums: Vec<u16> = a
            .iter()
            .zip(b)
            .filter(|&(&x, &y)| {
                x != INF && y != INF && (x as usize) < MAX_TD && (y as usize) < MAX_TD
            })
            .map(|(&x, &y)| x + y)
            .collect();
        match sums.iter().min() {
            Some(&m) => (m, sums.iter().filter(|&&s| s == m).count() as u16),
            None => (TD_INFINITE, 0),
        }
    }

    #[test]
    fn two_distance_matches_fixed_point() {
        assert!(MAX_POINTS >= Geometry::new(26).unwrap().num_points);
        let mut rng = SmallRng::seed_from_u64(11);
        for &(n, start, games, every) in &[
            (12, Start::Standard, 12, 1),
            (12, Start::Blank, 12, 1),
            (8, Start::Blank, 20, 1),
            (6, Start::Blank, 20, 1),
            (4, Start::Blank, 20, 1),
            (16, Start::Standard, 4, 3),
            (26, Start::Blank, 1, 40),
        ] {
            for _ in 0..games {
                let mut ply = 0;
                random_game(&mut rng, n, start, |pos| {
                    if ply % every == 0 {
                        for c in Color::ALL {
                            by_words!(pos, check(pos, c));
                        }
                    }
                    ply += 1;
                });
            }
        }
    }

    /// Groups derived from the last labelling plus one piece hold the same
    /// groups and the same contracted neighbourhoods as a fresh labelling
    /// (the groups may come in another order).
    #[test]
    fn derived_groups_match_a_fresh_labelling() {
        fn check<const W: usize>(pos: &Onyx, pairs: &mut [[Groups; 2]; 2], derived: &mut usize) {
            let geo = pos.geometry();
            for c in Color::ALL {
                let board = eval_board::<W>(pos, c);
                let pair = &mut pairs[c.index()];
                let derived_slot: *const Groups = &pair[1];
                let got = label_groups(geo, &board, pair);
                if std::ptr::eq(got, derived_slot) {
                    *derived += 1;
                }
                let mut fresh = Groups::default();
                relabel(geo, &board.own, &mut fresh);
                assert_eq!(got.contracted, fresh.contracted, "\n{}", pos.showboard());
                let sorted = |g: &Groups| {
                    let mut v: Vec<(Vec<u64>, u8)> = g
                        .around
                        .chunks(W)
                        .map(|a| a.to_vec())
                        .zip(g.gedge.iter().copied())
                        .collect();
                    v.sort();
                    v
                };
                assert_eq!(sorted(got), sorted(&fresh), "\n{}", pos.showboard());
            }
        }
        let mut rng = SmallRng::seed_from_u64(17);
        let mut derived = 0;
        for (n, start) in [(12, Start::Standard), (8, Start::Blank), (6, Start::Blank)] {
            for _ in 0..6 {
                // One pair per colour, as the evaluation keeps them.
                let mut pairs: [[Groups; 2]; 2] = Default::default();
                random_game(&mut rng, n, start, |pos| {
                    by_words!(pos, check(pos, &mut pairs, &mut derived));
                });
            }
        }
        assert!(derived > 100, "{derived} derivations");
    }

    /// A colour with no two routes is scored by its single route, twice
    /// over; the test finds such positions in random games and recomputes
    /// the score from the parts.
    #[test]
    fn single_route_counts_twice() {
        let mut rng = SmallRng::seed_from_u64(5);
        let mut single_routes = 0;
        for _ in 0..30 {
            random_game(&mut rng, 8, Start::Standard, |pos| {
                let pos = &*pos;
                if pos.outcome().is_some() {
                    return;
                }
                let me = pos.to_move();
                let geo = pos.geometry();
                assert_eq!(geo.words, 2);
                let mut score = |c: Color| {
                    let board = eval_board::<2>(pos, c);
                    let (p, m) = potential_and_mobility(pos, c);
                    let p = if p == TD_INFINITE {
                        single_routes += 1;
                        match search(geo, &board, c, 64, None) {
                            UNREACHABLE => 32,
                            d => (2 * d + 2).min(32),
                        }
                    } else {
                        p.min(32)
                    };
                    (p as Score, m as Score)
                };
                let (mine, my_mob) = score(me);
                let (theirs, their_mob) = score(me.opponent());
                let e = evaluate_two_distance(pos);
                if e != WIN_NEXT_MOVE {
                    assert_eq!(
                        e,
                        (theirs - mine) * STEP + (my_mob - their_mob) * MOBILITY + TEMPO,
                        "\n{}",
                        pos.showboard()
                    );
                }
            });
        }
        assert!(single_routes > 20, "{single_routes}");
    }

    #[test]
    fn empty_board_potential() {
        // On an empty board every point of row 1 is at two-distance 1 from
        // the bottom. Square cells have no diagonal, so the second route
        // often costs a detour: the potential lies between the plain
        // distance + 1 and twice that.
        let pos = Onyx::new(8, Start::Blank).unwrap();
        let (p, m) = potential_and_mobility(&pos, Color::Black);
        assert!((9..=18).contains(&p), "{p}");
        assert!(m > 0);
        let e = evaluate_two_distance(&pos);
        assert!(e.abs() < 10 * STEP, "{e}");
    }
}
