//! Orcoon evaluation: connection distance under the placement restrictions.
//! For each colour, a 0-1-2 breadth-first search counts the placements it
//! still needs to join its edges: own stones cost 0, empty points it may
//! place on now cost 1, empty points it may not place on now but later
//! (a restriction that a helper stone can lift) cost 2, and opponent stones
//! and points it can never fill (diagonal to an own stone whose two shared
//! neighbours are the opponent's) block.
//!
//! The score adds each colour's flexibility, the empty points on its
//! shortest connections (the more there are, the harder they are to block):
//! `(their distance - mine) * 100 + (my flexibility - theirs) * 3 + 30`.
//! Flexibility won 117-83 against distance alone (200 games, 0.2 s a move,
//! 11×11); a weight of 10 lost 55-74 against 3.
//!
//! Three results are proven, not scored: a joined side to move wins by
//! passing ([`WIN_NEXT_MOVE`]); a side whose opponent is joined loses in 2
//! (the opponent passes next, and no stone crosses its chain); a side one
//! placement from joining wins in 3 (it joins, a joined chain is never
//! broken, and it passes). 203-197 over 400 games against scoring the last
//! two (0.2 s a move, 11×11): no measurable strength, but exact.

use std::cell::RefCell;

use super::bits::{Bits, Masks};
use super::board::{EMPTY, Orcoon, OrcoonMove, edge_bits, placements, stone, violation};
use super::geometry::{MAX_POINTS, Point};
use crate::game::{Color, Game};
use crate::search::{Evaluator, Score, Tuning, WIN_NEXT_MOVE, loss_in, win_in};

/// Orcoon's evaluation: connection distance under the placement
/// restrictions, with flexibility (see the module documentation).
#[derive(Clone, Copy, Debug, Default)]
pub struct Distance;

/// The searcher's tuning with [`Distance`]:
/// - no pruning margins: none has been shown to pay in Orcoon;
/// - the pass adjudication inside a search gets at most 2,000 solver nodes
///   (typical positions need fewer than 40; the hardest known take the
///   exact procedure about a millisecond): cheap insurance. An undecided
///   pass counts as lost for the passer, so the searcher never passes into
///   the unknown; outside searches the adjudication is exact.
pub const TUNING: Tuning = Tuning {
    futility_margin: None,
    razor_margin: None,
    late_move_limit: None,
    rule_effort: Some(2000),
    knowledge_depth: None,
    costly_nodes: false,
};

/// Distance reported when a colour can no longer connect.
pub const UNREACHABLE: u16 = 999;
/// Score of one placement of connection distance.
const STEP: Score = 100;
/// Value of one empty point on a colour's shortest connections (the more
/// there are, the harder they are to block).
const FLEXIBILITY: Score = 3;
/// Bonus for having the move.
const TEMPO: Score = 30;

/// The cost of `color` entering `p`: 0 own, 1 placeable, 2 placeable
/// later, `None` blocked.
#[inline]
fn cost(pos: &Orcoon, p: Point, me: u8) -> Option<u16> {
    let cells = pos.cells();
    let v = cells[p as usize];
    if v == me {
        return Some(0);
    }
    if v != EMPTY {
        return None;
    }
    let geo = pos.geometry();
    if violation(geo, cells, p, me).is_none() {
        return Some(1);
    }
    let opp = 3 - me;
    let dead = geo.diag_of(p).iter().any(|d| {
        cells[d.d as usize] == me && cells[d.s1 as usize] == opp && cells[d.s2 as usize] == opp
    });
    if dead { None } else { Some(2) }
}

/// Distances (in placements) from the `start` edge bits for the stones of
/// cell value `me`, by Dial's algorithm over costs 0, 1, 2; `costs` caches
/// [`cost`] per point (`u8::MAX` unknown, 3 blocked). With `stop`, returns
/// at the first point on those edge bits and gives its distance; otherwise
/// fills `dist` completely and returns [`UNREACHABLE`].
fn edge_distances(
    pos: &Orcoon,
    me: u8,
    start: u8,
    stop: Option<u8>,
    costs: &mut [u8; MAX_POINTS],
    dist: &mut [u16; MAX_POINTS],
) -> u16 {
    let geo = pos.geometry();
    let np = geo.num_points;
    let mut cost_of = |p: Point| -> Option<u16> {
        let c = &mut costs[p as usize];
        if *c == u8::MAX {
            *c = cost(pos, p, me).map_or(3, |v| v as u8);
        }
        (*c < 3).then_some(*c as u16)
    };
    dist[..np].fill(u16::MAX);
    let mut done = [false; MAX_POINTS];
    // Three FIFO buckets (by distance modulo 3) hold every pending entry; a
    // point has at most one pending entry per distance, so a bucket never
    // holds more than `MAX_POINTS` entries.
    let mut ring = [0 as Point; 3 * MAX_POINTS];
    let mut heads = [0usize; 3];
    let mut lens = [0usize; 3];
    let push =
        |ring: &mut [Point], lens: &mut [usize; 3], heads: &[usize; 3], b: usize, p: Point| {
            let i = (heads[b] + lens[b]) % MAX_POINTS;
            ring[b * MAX_POINTS + i] = p;
            lens[b] += 1;
        };
    for p in 0..np as Point {
        if geo.edges[p as usize] & start != 0
            && let Some(c) = cost_of(p)
        {
            dist[p as usize] = c;
            push(&mut ring, &mut lens, &heads, c as usize, p);
        }
    }
    let mut d: u16 = 0;
    while lens.iter().any(|&l| l > 0) {
        let b = d as usize % 3;
        while lens[b] > 0 {
            let p = ring[b * MAX_POINTS + heads[b]];
            heads[b] = (heads[b] + 1) % MAX_POINTS;
            lens[b] -= 1;
            let pi = p as usize;
            if done[pi] || dist[pi] != d {
                continue;
            }
            done[pi] = true;
            if let Some(stop) = stop
                && geo.edges[pi] & stop != 0
            {
                return d;
            }
            for &q in geo.orth_of(p) {
                let qi = q as usize;
                if done[qi] {
                    continue;
                }
                if let Some(c) = cost_of(q) {
                    let nd = d + c;
                    if nd < dist[qi] {
                        dist[qi] = nd;
                        push(&mut ring, &mut lens, &heads, nd as usize % 3, q);
                    }
                }
            }
        }
        d += 1;
    }
    UNREACHABLE
}

/// The same as [`connection_distance`], one point at a time (the
/// reference the bit-parallel version is tested against).
pub fn connection_distance_reference(pos: &Orcoon, color: Color) -> u16 {
    let (from, to) = edge_bits(color);
    let mut costs = [u8::MAX; MAX_POINTS];
    let mut dist = [0u16; MAX_POINTS];
    edge_distances(pos, stone(color), from, Some(to), &mut costs, &mut dist)
}

/// The same as [`shortest_connection_points`], one point at a time: the
/// points whose distances from both edges, less their own cost, sum to
/// the connection distance.
pub fn shortest_connection_points_reference(pos: &Orcoon, color: Color) -> Vec<bool> {
    let np = pos.geometry().num_points;
    let (from, to) = edge_bits(color);
    let mut costs = [u8::MAX; MAX_POINTS];
    let (mut a, mut b) = ([0u16; MAX_POINTS], [0u16; MAX_POINTS]);
    let d = connection_distance_reference(pos, color);
    edge_distances(pos, stone(color), from, None, &mut costs, &mut a);
    edge_distances(pos, stone(color), to, None, &mut costs, &mut b);
    (0..np)
        .map(|p| {
            let c = costs[p] as u16;
            d != 0
                && d != UNREACHABLE
                && (c == 1 || c == 2)
                && a[p] != u16::MAX
                && b[p] != u16::MAX
                && a[p] + b[p] - c == d
        })
        .collect()
}

/// Level-by-level distance from edge set `from` to `to` through `zero`
/// (cost 0), `one` (cost 1) and `two` (cost 2): the set reached within d
/// is flooded through `zero` from the set within d-1 plus its `one`
/// neighbours and the set within d-2 plus its `two` neighbours. With
/// `levels`, the set reached within each d (0 to the distance) is pushed
/// on it.
fn level_distance(
    m: &Masks,
    zero: &Bits,
    one: &Bits,
    two: &Bits,
    from: &Bits,
    to: &Bits,
    mut levels: Option<&mut Vec<Bits>>,
) -> u16 {
    let flood = |mut x: Bits| loop {
        let y = m.or(&x, &m.and(&m.neighbours(&x), zero));
        if m.same(&y, &x) {
            return x;
        }
        x = y;
    };
    let mut r2 = Bits::EMPTY;
    let mut r1 = flood(m.and(zero, from));
    if let Some(l) = levels.as_deref_mut() {
        l.push(r1);
    }
    if m.intersects(&r1, to) {
        return 0;
    }
    let limit = (2 * m.n * m.n) as u16;
    for d in 1..=limit {
        let mut gate1 = m.neighbours(&r1);
        if d == 1 {
            gate1 = m.or(&gate1, from);
        }
        let mut gate2 = m.neighbours(&r2);
        if d == 2 {
            gate2 = m.or(&gate2, from);
        }
        let new = m.or(&m.and(&gate1, one), &m.and(&gate2, two));
        let r = flood(m.or(&r1, &new));
        if let Some(l) = levels.as_deref_mut() {
            l.push(r);
        }
        if m.intersects(&r, to) {
            return d;
        }
        if d >= 3 && m.same(&r, &r1) && m.same(&r1, &r2) {
            break;
        }
        r2 = r1;
        r1 = r;
    }
    UNREACHABLE
}

/// The cost sets of `color`'s distance: own stones, placeable now,
/// placeable later; and its two edges.
fn distance_sets(pos: &Orcoon, color: Color) -> (Bits, Bits, Bits, Bits, Bits) {
    let m = &pos.geometry().masks;
    let me = pos.stone_bits(color);
    let opp = pos.stone_bits(color.opponent());
    let (one, two) = placements(m, me, opp);
    let (from, to) = match color {
        Color::Black => (m.edge[0], m.edge[1]),
        Color::White => (m.edge[2], m.edge[3]),
    };
    (*me, one, two, from, to)
}

/// The empty points on some shortest connection of `color` (none when it
/// is joined or can never join). A point of cost c reached within f from
/// the first edge and within g from the second lies on a connection of
/// f + g - c placements.
pub fn shortest_connection_points(pos: &Orcoon, color: Color) -> Bits {
    distance_and_shortest_connections(pos, color).1
}

/// The connection distance of `color` and the empty points on its
/// shortest connections ([`shortest_connection_points`]).
pub fn distance_and_shortest_connections(pos: &Orcoon, color: Color) -> (u16, Bits) {
    thread_local! {
        /// The levels of the two searches (kept: no allocation per call).
        static LEVELS: RefCell<(Vec<Bits>, Vec<Bits>)> = const {
            RefCell::new((Vec::new(), Vec::new()))
        };
    }
    let m = &pos.geometry().masks;
    let (zero, one, two, from, to) = distance_sets(pos, color);
    LEVELS.with_borrow_mut(|(a, b)| {
        a.clear();
        b.clear();
        let dist = level_distance(m, &zero, &one, &two, &from, &to, Some(a));
        if dist == 0 || dist == UNREACHABLE {
            return (dist, Bits::EMPTY);
        }
        level_distance(m, &zero, &one, &two, &to, &from, Some(b));
        let d = dist as usize;
        // Level i alone: reached within i, not within i - 1.
        let level = |r: &[Bits], i: usize| m.andnot(&r[i], &r[i - 1]);
        let mut on = Bits::EMPTY;
        for i in 1..=d {
            let la = level(a, i);
            on = m.or(&on, &m.and(&m.and(&la, &one), &level(b, d + 1 - i)));
            if i >= 2 {
                on = m.or(&on, &m.and(&m.and(&la, &two), &level(b, d + 2 - i)));
            }
        }
        (dist, on)
    })
}

/// The fewest placements `color` still needs to join its edges (estimated
/// as above; 0 when connected), computed on bit sets.
pub fn connection_distance(pos: &Orcoon, color: Color) -> u16 {
    let m = &pos.geometry().masks;
    let (zero, one, two, from, to) = distance_sets(pos, color);
    level_distance(m, &zero, &one, &two, &from, &to, None)
}

impl Evaluator<Orcoon> for Distance {
    fn name(&self) -> &'static str {
        "distance"
    }

    fn tuning(&self) -> Tuning {
        TUNING
    }

    fn evaluate(&self, pos: &Orcoon) -> Score {
        let me = pos.to_move();
        let (mine, my_routes) = distance_and_shortest_connections(pos, me);
        if mine == 0 {
            // Joined: passing wins at once.
            return WIN_NEXT_MOVE;
        }
        let (theirs, their_routes) = distance_and_shortest_connections(pos, me.opponent());
        if theirs == 0 {
            // They are joined and pass next turn; no stone of ours crosses
            // their chain, so nothing stops it.
            return loss_in(2);
        }
        if mine == 1 {
            // One placement joins (a joined chain is never broken: there
            // are no captures), then a pass wins.
            return win_in(3);
        }
        let m = &pos.geometry().masks;
        let flexibility = m.count(&my_routes) as Score - m.count(&their_routes) as Score;
        (theirs as Score - mine as Score) * STEP + flexibility * FLEXIBILITY + TEMPO
    }

    /// Placements on a shortest connection of either colour, pass and
    /// swap; every legal move when neither colour has a shortest connection
    /// left (joined or cut off). A win is a pass, always kept. Searching
    /// every placement instead lost 11-96 at 0.2 s a move on 11×11; adding
    /// the eight neighbours of those points lost 21-38.
    fn candidate_moves(&self, pos: &Orcoon, out: &mut Vec<OrcoonMove>) {
        let me = pos.to_move();
        let m = &pos.geometry().masks;
        let keep = m.or(
            &shortest_connection_points(pos, me),
            &shortest_connection_points(pos, me.opponent()),
        );
        pos.legal_moves(out);
        if !m.is_empty(&keep) {
            out.retain(|mv| match mv {
                OrcoonMove::Place(p) => keep.has(*p as usize),
                _ => true,
            });
        }
    }

    fn move_order_hint(&self, pos: &Orcoon, mv: OrcoonMove) -> Score {
        match mv {
            OrcoonMove::Swap => 0,
            // A pass wins at once when the mover is joined: try it first.
            // Otherwise it is usually a loss: try it last.
            OrcoonMove::Pass => {
                if pos.is_connected(pos.to_move()) {
                    1 << 26
                } else {
                    -(1 << 20)
                }
            }
            OrcoonMove::Place(p) => {
                let geo = pos.geometry();
                let cells = pos.cells();
                let me = stone(pos.to_move());
                let mut s = 0;
                for &q in geo.orth_of(p) {
                    match cells[q as usize] {
                        EMPTY => {}
                        v if v == me => s += 30,
                        _ => s += 20,
                    }
                }
                for d in geo.diag_of(p) {
                    if cells[d.d as usize] != EMPTY {
                        s += 10;
                    }
                }
                let n = geo.n as i32;
                let (r, c) = (p as i32 / n, p as i32 % n);
                s - ((2 * r - n + 1).abs() + (2 * c - n + 1).abs())
            }
        }
    }

    fn history_index(&self, _pos: &Orcoon, mv: OrcoonMove) -> usize {
        match mv {
            OrcoonMove::Place(p) => p as usize,
            OrcoonMove::Pass => MAX_POINTS,
            OrcoonMove::Swap => MAX_POINTS + 1,
        }
    }
}
