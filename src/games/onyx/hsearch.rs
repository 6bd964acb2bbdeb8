//! H-search for Onyx: virtual connections combined by the AND and OR
//! rules (Anshelevich's H-search, as Benzene's `VCBuilder` builds them for
//! Hex), with a capture test on every connection it keeps.
//!
//! # Connections
//!
//! For a colour `c`, the nodes are `c`'s two edges, `c`'s groups and the
//! empty grid points. A connection between two nodes has a *carrier* (empty
//! grid points, never an endpoint), the pieces of `c` it relies on, and a
//! list of *pairs* (see below). A **full** connection (VC) joins its
//! endpoints with the opponent to move; a **semi** connection (SC) has a
//! *key* in its carrier that `c` plays first, after which the rest is a
//! full connection. An empty point as an endpoint means "were `c` to hold
//! it". Midpoints are never in a carrier (one may become illegal when a
//! corner is taken); carrier points are grid points, always legal while
//! empty.
//!
//! - **Base**: two adjacent nodes (a group and an empty point next to it,
//!   two empty points on one line, a group or an empty point on an edge):
//!   a full connection with an empty carrier.
//! - **AND**: full connections `x–z` and `z–y` whose carriers share no
//!   point (but the points of a pair both keep, below), the endpoints of
//!   each outside the other's carrier: through a group `z`, a full
//!   connection `x–y` (the union of the carriers); through an empty point
//!   `z`, a semi-connection `x–y` with key `z`. Each half is answered in
//!   its own carrier; their pairs are kept.
//! - **OR**: semi-connections `x–y` whose carriers (keys included, mended
//!   pairs left out) have an empty intersection: a full connection, the
//!   union. Whatever the opponent plays first in it, one of them is
//!   untouched and `c` plays its key, then follows that part only. When
//!   two of them have disjoint carriers, their keys form a **pair**: a move
//!   in one carrier is answered by the other key, so the opponent never
//!   holds both keys. A part's own pairs hold only where that part is
//!   chosen: each is kept with the points only that part's strategy ever
//!   fills (its *region*), and guards a square only when `c` could hold a
//!   point of that region on the square's diagonal (otherwise another
//!   part was chosen, and `c` never gets that diagonal from this one).
//!
//! The opponent cannot cut the lines of a connection (the board is planar,
//! its lines meet only at points); it can only take carrier points, which
//! the strategy answers, or capture a piece the connection needs.
//!
//! # The capture test
//!
//! A piece of `c` on the diagonal `{p, q}` of a square whose midpoint is
//! empty is captured when the opponent completes the other diagonal
//! `{a, b}` while `c` holds `p` and `q`. A connection passes when every
//! such square where `c` may hold both `p` and `q` (each a piece of `c` now,
//! a carrier point or an empty endpoint) and one of them is *relied on* (a
//! piece the connection needs, a carrier point, an empty endpoint) is
//! *guarded*:
//!
//! - `a` or `b` is a relied piece of `c`, the key of a semi-connection
//!   (which `c` plays first) or an empty endpoint (which `c` holds when the
//!   connection is used): the opponent could take it only after capturing
//!   it, and the first capture of a relied piece is thus impossible;
//! - `{a, b}` is a pair of the connection holding there, which the strategy
//!   never lets the opponent complete.
//!
//! A square that fails is mended where it can be: a piece of `c` on `a` or
//! `b` becomes relied on (and is then tested itself), or, when `a` and `b`
//! are both empty and outside the carrier, they join it as a new pair (the
//! opponent takes one, `c` the other), a game of its own beside the rest:
//! a mended pair may coincide with a pair kept throughout by another part
//! of an AND or OR, which then serves both. Otherwise the connection is
//! dropped. The test is done on every connection made, on the whole of
//! it, so a kept connection never depends on how its parts were tested.
//!
//! While `c` follows the strategy, the pieces it places are carrier points,
//! relied on and never captured; so it connects within as many moves as the
//! carrier has points, whatever the opponent does elsewhere, and no
//! position repeats on the way. `tests/it/onyx_vc.rs` checks every claim
//! against exhaustive minimax.

use super::board::Onyx;
use super::vc::Groups;
use crate::game::Color;
use crate::games::common::edge_bits;

/// A set of grid points (boards up to 11×11, so the even ones up to 10×10).
type Bits = u128;

/// No key (a full connection).
const NO_KEY: u8 = u8::MAX;
/// Most pairs a connection records (more are dropped: it may then fail
/// the capture test, never pass it wrongly).
const MAX_PAIRS: usize = 4;
/// Most full connections kept between two nodes. Small lists pay: on the
/// 6×6 positions of docs/solutions.md, 1 full and 2 semis a pair left the
/// solver 13% fewer nodes than 4 and 8, each no dearer.
const MAX_FULL: usize = 1;
/// Most semi-connections kept between two nodes.
const MAX_SEMI: usize = 2;
/// Most mends of one capture test.
const MAX_MENDS: usize = 8;
/// Combinations tried by one search before it stops (it then claims only
/// what it found).
const BUDGET: u32 = 60_000;
/// Node of the colour's first edge.
const FIRST: usize = 0;
/// Node of the colour's second edge.
const SECOND: usize = 1;

/// The largest board the search runs on (points per side).
pub(super) const MAX_SIZE: usize = 10;

#[inline]
fn bit(p: u8) -> Bits {
    1 << p
}

/// One connection between two nodes.
#[derive(Clone, Copy, Debug)]
struct Conn {
    /// Carrier points, the key and the mended pairs included.
    carrier: Bits,
    /// The points of the pairs the capture test added (each pair a game
    /// of its own beside the rest of the carrier).
    mended: Bits,
    /// The key of a semi-connection, `NO_KEY` for a full one.
    key: u8,
    /// Pieces of the colour the connection relies on.
    pieces: Bits,
    pairs: [(u8, u8); MAX_PAIRS],
    /// Where each pair holds: it guards a square only if `c` could hold a
    /// point of this set on the square's diagonal (all points for a pair
    /// kept throughout; a pair of one part of an OR holds in the points
    /// only that part's strategy ever fills).
    regions: [Bits; MAX_PAIRS],
    num_pairs: u8,
}

impl Conn {
    fn base(pieces: Bits) -> Conn {
        Conn {
            carrier: 0,
            mended: 0,
            key: NO_KEY,
            pieces,
            pairs: [(0, 0); MAX_PAIRS],
            regions: [0; MAX_PAIRS],
            num_pairs: 0,
        }
    }

    fn key_bits(&self) -> Bits {
        if self.key == NO_KEY { 0 } else { bit(self.key) }
    }

    /// Whether a pair `{a, b}` holds wherever `c` might hold a point of
    /// `diagonal`.
    fn has_pair(&self, a: u8, b: u8, diagonal: Bits) -> bool {
        let n = self.num_pairs as usize;
        self.pairs[..n]
            .iter()
            .zip(&self.regions[..n])
            .any(|(&(x, y), &r)| ((x == a && y == b) || (x == b && y == a)) && r & diagonal != 0)
    }

    /// Whether `{a, b}` is a pair kept throughout.
    fn has_full_pair(&self, a: u8, b: u8) -> bool {
        let n = self.num_pairs as usize;
        self.pairs[..n]
            .iter()
            .zip(&self.regions[..n])
            .any(|(&(x, y), &r)| ((x == a && y == b) || (x == b && y == a)) && r == Bits::MAX)
    }

    fn add_pair(&mut self, a: u8, b: u8, region: Bits) -> bool {
        if self.num_pairs as usize == MAX_PAIRS {
            return false;
        }
        self.pairs[self.num_pairs as usize] = (a, b);
        self.regions[self.num_pairs as usize] = region;
        self.num_pairs += 1;
        true
    }

    /// The carrier without the mended pairs.
    fn core(&self) -> Bits {
        self.carrier & !self.mended
    }

    /// Takes over the mended pairs of `part`: false when one meets this
    /// connection's carrier other than as a pair kept throughout (which
    /// then serves both), or on overflow.
    fn absorb_mended(&mut self, part: &Conn) -> bool {
        for &(a, b) in &part.pairs[..part.num_pairs as usize] {
            let both = bit(a) | bit(b);
            if both & part.mended != both || self.has_full_pair(a, b) {
                continue;
            }
            if both & self.carrier != 0 || !self.add_pair(a, b, Bits::MAX) {
                return false;
            }
            self.carrier |= both;
            self.mended |= both;
        }
        true
    }

    /// The other pairs of `part`, holding only within `within` (those
    /// beyond [`MAX_PAIRS`] dropped: the strategy still keeps them, the
    /// capture test just cannot use them).
    fn add_pairs_of(&mut self, part: &Conn, within: Bits) {
        let n = part.num_pairs as usize;
        for (&(a, b), &r) in part.pairs[..n].iter().zip(&part.regions[..n]) {
            let both = bit(a) | bit(b);
            if both & part.mended != both && r & within != 0 && !self.add_pair(a, b, r & within) {
                return;
            }
        }
    }
}

/// What the search found for a colour between its two edges.
#[derive(Clone, Copy, Default)]
pub(super) struct EdgeConnections {
    /// The carrier of a full connection.
    pub full: Option<Bits>,
    /// The intersection of the carriers (keys included) of the
    /// semi-connections, when there is one.
    pub semi: Option<Bits>,
}

/// The board as the search sees it for one colour.
struct Board {
    mine: Bits,
    empty: Bits,
    /// The corners of each square whose midpoint is empty, as grid
    /// points: lower-left, lower-right, upper-left, upper-right.
    squares: Vec<[u8; 4]>,
}

impl Board {
    /// The capture test (module doc) of `conn` between the empty
    /// endpoints `ends`: the connection, mended, or `None`.
    fn secure(&self, mut conn: Conn, ends: Bits) -> Option<Conn> {
        for _ in 0..=MAX_MENDS {
            let owned = self.mine | conn.carrier | ends;
            let relied = conn.pieces | conn.carrier | ends;
            let guards = conn.pieces | conn.key_bits() | ends;
            let mut mended = false;
            'squares: for c in &self.squares {
                for (p, q, a, b) in [(c[0], c[3], c[1], c[2]), (c[1], c[2], c[0], c[3])] {
                    let d = bit(p) | bit(q);
                    if d & owned != d || d & relied == 0 {
                        continue;
                    }
                    let other = bit(a) | bit(b);
                    if other & guards != 0 || conn.has_pair(a, b, d) {
                        continue;
                    }
                    if other & self.mine != 0 {
                        conn.pieces |= other & self.mine;
                    } else if other & self.empty == other
                        && other & (conn.carrier | ends) == 0
                        && conn.add_pair(a, b, Bits::MAX)
                    {
                        conn.carrier |= other;
                        conn.mended |= other;
                    } else {
                        return None;
                    }
                    mended = true;
                    break 'squares;
                }
            }
            if !mended {
                return Some(conn);
            }
        }
        None
    }
}

/// The connections kept between two nodes: the first `full_len` of
/// `full` and `semi_len` of `semi` (the rest is left from earlier use).
#[derive(Clone, Copy)]
struct Slot {
    full: [Conn; MAX_FULL],
    full_len: u8,
    semi: [Conn; MAX_SEMI],
    semi_len: u8,
}

impl Slot {
    fn full(&self) -> &[Conn] {
        &self.full[..self.full_len as usize]
    }

    fn semi(&self) -> &[Conn] {
        &self.semi[..self.semi_len as usize]
    }
}

/// Whether `list` holds a connection whose carrier is within `carrier`.
fn dominated(list: &[Conn], carrier: Bits) -> bool {
    list.iter().any(|c| c.carrier & carrier == c.carrier)
}

/// Drops from `list[..len]` the connections whose carrier holds all of
/// `carrier`; returns the new length.
fn drop_supersets<const N: usize>(list: &mut [Conn; N], len: u8, carrier: Bits) -> u8 {
    let mut kept = 0;
    for i in 0..len as usize {
        if list[i].carrier & carrier != carrier {
            list[kept] = list[i];
            kept += 1;
        }
    }
    kept as u8
}

/// Most nodes (edges, groups, empty grid points) of a search.
const MAX_NODES: usize = 256;

/// Memory one thread's searches reuse.
#[derive(Default)]
struct Buffers {
    /// The slot of each pair of nodes (`a * nodes + b`, `a < b`), plus 1;
    /// 0 for none yet.
    index: Vec<u32>,
    /// Slots in use: the first `used`.
    slots: Vec<Slot>,
    /// For each node, the nodes it has a full connection with.
    partners: Vec<[u64; MAX_NODES / 64]>,
    /// New full connections to combine: (node, node, connection).
    queue: std::collections::VecDeque<(u16, u16, Conn)>,
}

thread_local! {
    static BUFFERS: std::cell::RefCell<Buffers> = std::cell::RefCell::new(Buffers::default());
}

/// The state of one search.
struct Search<'a> {
    board: Board,
    /// The point of each node (`u8::MAX` for edges and groups).
    point: Vec<u8>,
    /// The grid pieces of each node (groups only).
    pieces: Vec<Bits>,
    nodes: usize,
    used: usize,
    buf: &'a mut Buffers,
    work: u32,
}

impl Search<'_> {
    /// The slot of `a–b`, if it has one.
    fn get(&self, a: usize, b: usize) -> Option<&Slot> {
        let (a, b) = (a.min(b), a.max(b));
        match self.buf.index[a * self.nodes + b] {
            0 => None,
            i => Some(&self.buf.slots[i as usize - 1]),
        }
    }

    /// The slot of `a–b`, made empty if it had none.
    fn slot(&mut self, a: usize, b: usize) -> &mut Slot {
        let (a, b) = (a.min(b), a.max(b));
        let i = &mut self.buf.index[a * self.nodes + b];
        if *i == 0 {
            if self.used == self.buf.slots.len() {
                self.buf.slots.push(Slot {
                    full: [Conn::base(0); MAX_FULL],
                    full_len: 0,
                    semi: [Conn::base(0); MAX_SEMI],
                    semi_len: 0,
                });
            }
            let slot = &mut self.buf.slots[self.used];
            slot.full_len = 0;
            slot.semi_len = 0;
            self.used += 1;
            *i = self.used as u32;
        }
        let i = *i as usize - 1;
        &mut self.buf.slots[i]
    }

    fn ends(&self, a: usize, b: usize) -> Bits {
        let mut e = 0;
        for x in [a, b] {
            if self.point[x] != u8::MAX {
                e |= bit(self.point[x]);
            }
        }
        e
    }

    /// Adds a full connection `a–b` (tested first); queues it for the AND
    /// rule.
    fn add_full(&mut self, a: usize, b: usize, conn: Conn) {
        let ends = self.ends(a, b);
        if conn.carrier & ends != 0 {
            return;
        }
        if let Some(slot) = self.get(a, b)
            && (dominated(slot.full(), conn.carrier) || slot.full_len as usize >= MAX_FULL)
        {
            return;
        }
        let Some(conn) = self.board.secure(conn, ends) else {
            return;
        };
        let slot = self.slot(a, b);
        if dominated(slot.full(), conn.carrier) {
            return;
        }
        slot.full_len = drop_supersets(&mut slot.full, slot.full_len, conn.carrier);
        slot.full[slot.full_len as usize] = conn;
        slot.full_len += 1;
        self.buf.partners[a][b / 64] |= 1 << (b % 64);
        self.buf.partners[b][a / 64] |= 1 << (a % 64);
        self.buf.queue.push_back((a as u16, b as u16, conn));
    }

    /// Adds a semi-connection `a–b` (tested first) and applies the OR rule.
    fn add_semi(&mut self, a: usize, b: usize, conn: Conn) {
        let ends = self.ends(a, b);
        if conn.carrier & ends != 0 {
            return;
        }
        if let Some(slot) = self.get(a, b)
            && (dominated(slot.full(), conn.carrier)
                || dominated(slot.semi(), conn.carrier)
                || slot.semi_len as usize >= MAX_SEMI)
        {
            return;
        }
        let Some(conn) = self.board.secure(conn, ends) else {
            return;
        };
        let slot = self.slot(a, b);
        if dominated(slot.full(), conn.carrier) || dominated(slot.semi(), conn.carrier) {
            return;
        }
        slot.semi_len = drop_supersets(&mut slot.semi, slot.semi_len, conn.carrier);
        let mut others = [conn; MAX_SEMI];
        let count = slot.semi_len as usize;
        others[..count].copy_from_slice(&slot.semi[..count]);
        slot.semi[count] = conn;
        slot.semi_len += 1;
        let others = &mut others[..count];
        // Two with disjoint carriers: their keys are a pair.
        for t in others.iter() {
            if t.core() & conn.core() == 0 {
                let mut full = Conn::base(conn.pieces | t.pieces);
                full.carrier = conn.core() | t.core();
                full.add_pair(conn.key, t.key, Bits::MAX);
                let mended = conn.mended | t.mended;
                full.add_pairs_of(&conn, conn.core() & !t.carrier & !mended);
                full.add_pairs_of(t, t.core() & !conn.carrier & !mended);
                if full.absorb_mended(&conn) && full.absorb_mended(t) {
                    self.add_full(a, b, full);
                }
            }
        }
        // Greedily, the smallest carriers first, until the intersection
        // of the cores is empty.
        others.sort_by_key(|c| c.carrier.count_ones());
        let mut meet = conn.core();
        let mut parts = [conn; MAX_SEMI + 1];
        let mut len = 1;
        for t in others.iter() {
            if meet & t.core() != meet {
                meet &= t.core();
                parts[len] = *t;
                len += 1;
                if meet == 0 {
                    break;
                }
            }
        }
        if meet == 0 {
            let parts = &parts[..len];
            let mut full = Conn::base(0);
            let mended = parts.iter().fold(0, |m, t| m | t.mended);
            for (i, t) in parts.iter().enumerate() {
                full.carrier |= t.core();
                full.pieces |= t.pieces;
                let others = parts
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .fold(0, |m, (_, u)| m | u.carrier);
                full.add_pairs_of(t, t.core() & !others & !mended);
            }
            if parts.iter().all(|t| full.absorb_mended(t)) {
                self.add_full(a, b, full);
            }
        }
    }

    /// The AND rule on the new full connection `x–z` with every full
    /// connection `z–y`.
    fn and_through(&mut self, x: usize, z: usize, conn: Conn) {
        if z == FIRST || z == SECOND {
            return;
        }
        let x_end = self.ends(x, x);
        for word in 0..self.nodes.div_ceil(64) {
            let mut ys = self.buf.partners[z][word];
            while ys != 0 {
                let y = word * 64 + ys.trailing_zeros() as usize;
                ys &= ys - 1;
                if y == x {
                    continue;
                }
                let y_end = self.ends(y, y);
                let count = self.get(z, y).map_or(0, |s| s.full_len as usize);
                for i in 0..count {
                    let Some(other) = self.get(z, y).map(|s| s.full[i]) else {
                        break;
                    };
                    self.work += 1;
                    if self.work >= BUDGET {
                        return;
                    }
                    if other.core() & conn.core() != 0
                        || other.carrier & x_end != 0
                        || conn.carrier & y_end != 0
                    {
                        continue;
                    }
                    // The result's carrier holds at least this much: skip
                    // it early when it is dominated or has no room.
                    let key = match self.point[z] {
                        u8::MAX => 0,
                        p => bit(p),
                    };
                    let least = conn.carrier | other.carrier | key;
                    if let Some(t) = self.get(x, y)
                        && (dominated(t.full(), least)
                            || if key == 0 {
                                t.full_len as usize >= MAX_FULL
                            } else {
                                dominated(t.semi(), least) || t.semi_len as usize >= MAX_SEMI
                            })
                    {
                        continue;
                    }
                    let mut joined = Conn::base(conn.pieces | other.pieces | self.pieces[z]);
                    joined.carrier = conn.core() | other.core();
                    joined.add_pairs_of(&conn, Bits::MAX);
                    joined.add_pairs_of(&other, Bits::MAX);
                    if !joined.absorb_mended(&conn) || !joined.absorb_mended(&other) {
                        continue;
                    }
                    if self.point[z] == u8::MAX {
                        self.add_full(x, y, joined);
                    } else {
                        joined.key = self.point[z];
                        joined.carrier |= bit(self.point[z]);
                        self.add_semi(x, y, joined);
                    }
                }
            }
        }
    }

    fn run(&mut self) {
        while let Some((a, b, conn)) = self.buf.queue.pop_front() {
            let done = self.get(FIRST, SECOND).is_some_and(|s| s.full_len > 0);
            if done || self.work >= BUDGET {
                return;
            }
            self.and_through(a as usize, b as usize, conn);
            self.and_through(b as usize, a as usize, conn);
        }
    }
}

/// The connections of `color` between its two edges found by H-search, or
/// `None` on a board larger than [`MAX_SIZE`] or when a group of `color`
/// already joins both edges. Stops at the first full connection.
pub(super) fn edge_connections(pos: &Onyx, color: Color) -> Option<EdgeConnections> {
    let geo = pos.geometry();
    let n = geo.n;
    if n > MAX_SIZE {
        return None;
    }
    let grid = n * n;
    let (first, second) = edge_bits(color);
    let mut mine: Bits = 0;
    let mut empty: Bits = 0;
    for p in 0..grid {
        match pos.at(p as u16) {
            Some(c) if c == color => mine |= bit(p as u8),
            None => empty |= bit(p as u8),
            _ => {}
        }
    }
    let squares = geo
        .squares
        .iter()
        .filter(|s| pos.at(s.midpoint).is_none())
        .map(|s| s.corners.map(|c| c as u8))
        .collect();
    // Nodes: the two edges, the groups (as `Groups` numbers them), the
    // empty grid points.
    let mut groups = Groups::new(pos, color)?;
    let mut edges = std::mem::take(&mut groups.node_edges);
    let mut point = vec![u8::MAX; edges.len()];
    let mut pieces: Vec<Bits> = vec![0; edges.len()];
    let mut node_of: Vec<usize> = groups
        .group
        .iter()
        .map(|&g| {
            if g == u16::MAX {
                usize::MAX
            } else {
                g as usize
            }
        })
        .collect();
    for (p, &g) in groups.group.iter().enumerate().take(grid) {
        if g != u16::MAX {
            pieces[g as usize] |= bit(p as u8);
        }
    }
    for (p, node) in node_of.iter_mut().enumerate().take(grid) {
        if pos.at(p as u16).is_none() {
            *node = point.len();
            point.push(p as u8);
            pieces.push(0);
            edges.push(geo.edges[p]);
        }
    }
    let nodes = point.len();
    if nodes > MAX_NODES {
        return Some(EdgeConnections::default());
    }
    BUFFERS.with(|b| {
        let mut buf = b.borrow_mut();
        buf.index.clear();
        buf.index.resize(nodes * nodes, 0);
        buf.partners.clear();
        buf.partners.resize(nodes, [0; MAX_NODES / 64]);
        buf.queue.clear();
        let mut search = Search {
            board: Board {
                mine,
                empty,
                squares,
            },
            point,
            pieces,
            nodes,
            used: 0,
            buf: &mut buf,
            work: 0,
        };
        // Base connections: edges, then lines between nodes.
        for (id, &e) in edges.iter().enumerate().skip(2) {
            for (edge, b) in [(FIRST, first), (SECOND, second)] {
                if e & b != 0 {
                    search.add_full(edge, id, Conn::base(search.pieces[id]));
                }
            }
        }
        for p in 0..geo.num_points {
            let a = node_of[p];
            if a == usize::MAX {
                continue;
            }
            for &q in geo.neighbours_of(p as u16) {
                let b = node_of[q as usize];
                if b != usize::MAX && a < b && search.get(a, b).is_none_or(|s| s.full_len == 0) {
                    let pieces = search.pieces[a] | search.pieces[b];
                    search.add_full(a, b, Conn::base(pieces));
                }
            }
        }
        search.run();
        let found = search.get(FIRST, SECOND);
        Some(EdgeConnections {
            full: found.and_then(|s| s.full().first()).map(|c| c.carrier),
            semi: found
                .filter(|s| s.semi_len > 0)
                .map(|s| s.semi().iter().fold(Bits::MAX, |m, c| m & c.carrier)),
        })
    })
}
