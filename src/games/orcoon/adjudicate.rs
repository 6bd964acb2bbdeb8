//! Exact adjudication after a pass: can `me` (the passer's opponent), placing
//! any number of his stones one after another, each legal when placed, join
//! his two edges? The opponent's stones never change during this puzzle.
//!
//! # Why placement order matters
//!
//! Whether a placement is legal depends only on the stones on the board, but
//! it is not monotone: a new like stone can forbid a later one (as its lone
//! diagonal partner, or as the like corner of a crosscut window) and can
//! allow one (as a shared neighbour or a crosscut middle). So the set of
//! points `me` can fill is not a fixpoint of "whatever is legal now", and a
//! careless order can lock `me` out of a connection another order makes (the
//! seed's deadlocks are positions where every order fails). The puzzle is a
//! reachability question over *sets* of added stones; the search below
//! decides it exactly, and five reductions keep it small.
//!
//! # The procedure ([`Solver::can_connect`])
//!
//! Depth-first search over sets of added stones. At each set `S`:
//!
//! 1. If `me` is joined: yes.
//! 2. If `S` already failed (remembered by Zobrist key of the set): no.
//! 3. *Upper bound* `L` (`compute_reachable`): a least fixpoint containing
//!    every empty point that any legal sequence from `S` can ever fill
//!    (proof there). If `me`'s stones plus `L` hold no chain between the
//!    edges: no.
//! 4. *Greedy construction* (`greedy`): fill a chain through `L` with the
//!    fewest empty points, point by point from either end, placing helper
//!    stones (a shared neighbour, the middles of a crosscut window) where a
//!    restriction blocks a point. It only makes legal placements, so success
//!    is a certificate: yes, and the placements are the winning sequence.
//! 5. *Free moves* (`place_free_moves`): place every legal point that cannot
//!    make any later placement illegal and recurse once (proof at
//!    `is_free`): the answer does not change.
//! 6. *Dead points* (`find_dead`, only in the second pass, see below):
//!    probe every point of the region that is not legal now with a small
//!    exact search on a window around it (`probe.rs`, proof there).
//!    A point no order can fill is *dead* at this node and every node
//!    below; dead points leave `L` (the bound's proof holds with them
//!    excluded, since no legal sequence places them), and steps 3–5 run
//!    again (at most [`PROBE_ROUNDS`] rounds). This catches what `L`
//!    misses: requirements that arise only once other stones of `me`
//!    stand, so that each point is fillable on its own order but not in
//!    the order a connection needs (the cycle of `tests/it/orcoon_hard.rs`,
//!    where the search without probes took 203 s).
//! 7. Otherwise branch on every legal point of the *relevant region* `R`:
//!    the points of `L` in a component of (`me`'s stones ∪ `L`) that touches
//!    both edges. No otherwise.
//!
//! The search runs twice at most: first without step 6 on a budget of
//! [`QUICK_NODES`] nodes (most positions that branch at all are decided
//! within it, and the probes would only cost time), then, if that budget ran
//! out, again with step 6. A "yes" of the first pass is a certificate, a
//! "no" without exhaustion is exact, and the failed sets it remembered are
//! facts, so the second pass keeps them.
//!
//! # Why branching on `R` only is exact
//!
//! Let σ be a legal sequence from `S` that joins the edges, `F` the final
//! set of `me`'s stones, `K` the orthogonal component of `F` that holds the
//! chain, and σ' the subsequence of σ made of points of `K`. Claim: σ' is
//! legal from `S`. Take `q` in σ', `X` the stones before `q` in σ, `Y ⊆ X`
//! those before it in σ'. `q` is legal on `X`.
//! - Restriction 2: a like diagonal neighbour `d ∈ Y` has a like shared
//!   neighbour `s ∈ X`. `s` is orthogonally adjacent to `q ∈ K`, so `s ∈ K`
//!   (or `s ∈ S`), hence `s ∈ Y`.
//! - Restriction 1: suppose `q` completes a crosscut window on `Y` with like
//!   corner `b ∈ Y`. On `X` a middle is filled. The middle `m1` next to `q`
//!   would be in `K`, so in `Y`: impossible. So only `m2` (next to `b`) is
//!   filled on `X`, `m1` is empty; but then `q` and `m2` are a like diagonal
//!   pair whose shared neighbours are `m1` (empty) and an opponent corner,
//!   and `q` was illegal on `X`: contradiction.
//!
//! `F' = S ∪ σ'` still holds the chain. Every point of σ' is in `L` (the
//! bound is sound) and in `K`, which lies in one component of `S ∪ L`
//! touching both edges: σ' ⊆ `R`. Its first point is legal on `S` and is one
//! of the branches; by induction on the length of σ', the search reaches a
//! joined set. Failed sets are recorded only after every branch failed or
//! the bound excluded them, so the memo never hides a win.
//!
//! The tests check the whole procedure (and the search without the greedy
//! step, without the probes, and with other probe windows) against brute
//! force over every placement order on thousands of random 3×3 to 6×6
//! positions, with and without the seed's deadlock patterns embedded, and
//! on 6×6 to 8×8 windows of the hard 13×13 position where the probes find
//! dead points; the probes alone against brute-force fillability of every
//! point.

use std::collections::HashSet;
use std::sync::Arc;

use super::board::{EMPTY, edge_bits, violation};
use super::geometry::{Geometry, Point};
use super::probe::Probe;
use crate::game::Color;

/// Depth of helper placements the greedy construction may nest.
const HELPER_DEPTH: u32 = 3;

/// Half the side of a probe's window (see `probe.rs`).
pub const PROBE_RADIUS: usize = 2;

/// Nodes a single probe may search before it gives up (no pruning then).
const PROBE_NODES: u64 = 200;

/// Search nodes of the first pass, without probes (typical positions
/// need fewer than 12).
pub const QUICK_NODES: u64 = 24;

/// Rounds of probing at one node (each round can find more dead points,
/// as dead points are never filled in the next round's probes).
pub const PROBE_ROUNDS: u32 = 3;

/// The adjudicator with its scratch space (reused between calls).
#[derive(Clone, Debug)]
pub struct Solver {
    geo: Arc<Geometry>,
    cells: Vec<u8>,
    me: u8,
    from: u8,
    to: u8,
    /// Membership in the upper bound `L`.
    in_l: Vec<bool>,
    mark_a: Vec<u32>,
    mark_b: Vec<u32>,
    mark_c: Vec<u32>,
    done: Vec<u32>,
    stamp: u32,
    region_stamp: u32,
    queue: Vec<Point>,
    dist: Vec<u16>,
    parent: Vec<Point>,
    path: Vec<Point>,
    cand: Vec<Point>,
    seq: Vec<Point>,
    fail: HashSet<u64>,
    /// Points proven dead (never fillable) at the current node or above.
    dead: Vec<bool>,
    /// The dead points in the order they were found (undone on return).
    dead_log: Vec<Point>,
    probe: Probe,
    /// Search nodes of the last call.
    pub nodes: u64,
    /// Branching nodes (neither bound decided) of the last call.
    pub branch_nodes: u64,
    /// Whether the greedy construction runs (turned off only to test the
    /// search on its own).
    pub use_greedy: bool,
    /// Whether the probes for dead points run before branching (turned
    /// off only to test the search without them).
    pub use_probes: bool,
    /// Half the side of a probe's window ([`PROBE_RADIUS`]; other values
    /// only to test the probes).
    pub probe_radius: usize,
    /// Search nodes of the first pass, without probes ([`QUICK_NODES`]; 0:
    /// probe from the start, to test the probes on small positions).
    pub quick_nodes: u64,
    /// Whether the current pass probes.
    probing: bool,
    /// Probing rounds of the last call.
    pub probes: u64,
    dead_points: u64,
    /// A bound on search nodes (`None`: exact, however long it takes).
    pub node_limit: Option<u64>,
    /// Whether the last call stopped at `node_limit` without an answer (its
    /// `false` then means "undecided").
    pub exhausted: bool,
}

impl Solver {
    /// A solver for boards of `geo`.
    pub fn new(geo: Arc<Geometry>) -> Solver {
        let np = geo.num_points;
        Solver {
            cells: vec![EMPTY; np],
            me: 1,
            from: 0,
            to: 0,
            in_l: vec![false; np],
            mark_a: vec![0; np],
            mark_b: vec![0; np],
            mark_c: vec![0; np],
            done: vec![0; np],
            stamp: 0,
            region_stamp: 0,
            queue: Vec::with_capacity(6 * np + 8),
            dist: vec![0; np],
            parent: vec![0; np],
            path: Vec::with_capacity(np),
            cand: Vec::with_capacity(4 * np),
            seq: Vec::with_capacity(np),
            fail: HashSet::with_capacity(1024),
            dead: vec![false; np],
            dead_log: Vec::with_capacity(np),
            probe: Probe::new(geo.clone()),
            nodes: 0,
            branch_nodes: 0,
            use_greedy: true,
            use_probes: true,
            probe_radius: PROBE_RADIUS,
            probing: false,
            quick_nodes: QUICK_NODES,
            probes: 0,
            dead_points: 0,
            node_limit: None,
            exhausted: false,
            geo,
        }
    }

    /// Whether a probe with a window of `radius` proves that `color` can
    /// never fill the empty point `p` of `cells` (for tests; the search
    /// uses the same probe).
    pub fn probe_dead(&mut self, cells: &[u8], color: Color, p: Point, radius: usize) -> bool {
        self.dead.fill(false);
        self.probe.begin(cells, color as u8 + 1);
        cells[p as usize] == EMPTY && self.probe.is_dead(&self.dead, p, radius, PROBE_NODES)
    }

    /// Points proven dead in the last call.
    pub fn dead_points(&self) -> u64 {
        self.dead_points
    }

    /// Search nodes of the probes of the last call.
    pub fn probe_nodes(&self) -> u64 {
        self.probe.total_nodes
    }

    /// The placements found by the last successful `can_connect` (in
    /// order; empty when the colour was already joined).
    pub fn sequence(&self) -> &[Point] {
        &self.seq
    }

    /// Whether `color`, placing freely on `cells`, can join its edges. On
    /// success [`Solver::sequence`] holds one winning sequence.
    pub fn can_connect(&mut self, cells: &[u8], color: Color) -> bool {
        self.cells.copy_from_slice(cells);
        self.me = color as u8 + 1;
        (self.from, self.to) = edge_bits(color);
        self.seq.clear();
        self.fail.clear();
        self.nodes = 0;
        self.branch_nodes = 0;
        self.probes = 0;
        self.dead_points = 0;
        self.probe.total_nodes = 0;
        self.exhausted = false;
        if self.connected() {
            return true;
        }
        if !self.use_probes || self.quick_nodes == 0 {
            self.probing = self.use_probes;
            return self.dfs();
        }
        // Most positions are decided in a few nodes, where the probes would
        // only cost time: first a pass without them on a small budget. Its
        // "yes" is a certificate and its "no" without exhaustion is exact;
        // the failed sets it recorded are facts, so the memo stays.
        let limit = self.node_limit;
        self.probing = false;
        let quick = self.quick_nodes;
        self.node_limit = Some(limit.map_or(quick, |l| l.min(quick)));
        let found = self.dfs();
        self.node_limit = limit;
        if found || !self.exhausted || limit.is_some_and(|l| l <= quick) {
            return found;
        }
        self.exhausted = false;
        self.probing = true;
        self.dfs()
    }

    #[inline]
    fn legal(&self, p: Point) -> bool {
        violation(&self.geo, &self.cells, p, self.me).is_none()
    }

    fn place(&mut self, p: Point) {
        self.cells[p as usize] = self.me;
        self.seq.push(p);
    }

    fn rollback(&mut self, len: usize) {
        while self.seq.len() > len {
            let p = self.seq.pop().expect("longer than len");
            self.cells[p as usize] = EMPTY;
        }
    }

    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark_a.fill(0);
            self.mark_b.fill(0);
            self.mark_c.fill(0);
            self.done.fill(0);
            self.region_stamp = 0;
            self.stamp = 1;
        }
        self.stamp
    }

    /// Whether `me`'s stones join the edges.
    fn connected(&mut self) -> bool {
        let s = self.next_stamp();
        self.queue.clear();
        for p in 0..self.geo.num_points {
            if self.geo.edges[p] & self.from != 0 && self.cells[p] == self.me {
                self.mark_c[p] = s;
                self.queue.push(p as Point);
            }
        }
        while let Some(p) = self.queue.pop() {
            if self.geo.edges[p as usize] & self.to != 0 {
                return true;
            }
            for &q in self.geo.orth_of(p) {
                if self.cells[q as usize] == self.me && self.mark_c[q as usize] != s {
                    self.mark_c[q as usize] = s;
                    self.queue.push(q);
                }
            }
        }
        false
    }

    /// The upper bound `L`: the least set of empty points such that a point
    /// is in `L` when each requirement the present stones put on it can be
    /// met by an earlier placement in `L`:
    /// - for each diagonal like stone `d` with no like shared neighbour, a
    ///   shared neighbour must be placed first;
    /// - for each crosscut window in which it would complete the pattern
    ///   (like opposite corner `b`, opponent's two corners, empty middles),
    ///   the middle `m1` next to it must be placed first.
    ///
    /// Soundness (every point ever placed in a legal sequence is in `L`):
    /// by induction on the placement time. A point `p` placed at time `t`
    /// is legal then; for each requirement above (made by stones present
    /// now, hence also at `t`), the shared neighbour / middle that makes `p`
    /// legal at `t` is not on the board now (else there were no
    /// requirement), so it was placed before `t` and is in `L` by induction.
    /// For the crosscut window it must be `m1`: if only the other middle
    /// `m2` were on the board at `t`, `p` and `m2` would be a like diagonal
    /// pair whose shared neighbours are the empty `m1` and an opponent
    /// corner, and `p` would be illegal at `t`.
    ///
    /// Dead points (step 6 of the module docs) are left out: no legal
    /// sequence from this node places one, so the induction never meets
    /// them.
    fn compute_reachable(&mut self) {
        let np = self.geo.num_points;
        self.in_l.fill(false);
        // A requirement on `q` can only be met by a point next to `q` (a
        // shared neighbour or the middle next to it), so when a point joins
        // `L` only its orthogonal neighbours need another look.
        self.queue.clear();
        for p in 0..np {
            if self.cells[p] == EMPTY && !self.dead[p] && self.requirements_met(p as Point) {
                self.in_l[p] = true;
                self.queue.push(p as Point);
            }
        }
        let geo = self.geo.clone();
        while let Some(p) = self.queue.pop() {
            for &q in geo.orth_of(p) {
                let qi = q as usize;
                if self.cells[qi] == EMPTY
                    && !self.in_l[qi]
                    && !self.dead[qi]
                    && self.requirements_met(q)
                {
                    self.in_l[qi] = true;
                    self.queue.push(q);
                }
            }
        }
    }

    /// Whether each requirement on the empty point `p` (see
    /// `compute_reachable`) has a witness in `L` as it stands.
    #[inline]
    fn requirements_met(&self, p: Point) -> bool {
        let cells = &self.cells;
        let in_l = &self.in_l;
        let me = self.me;
        let opp = 3 - me;
        self.geo.diag_of(p).iter().all(|d| {
            cells[d.d as usize] != me
                || cells[d.s1 as usize] == me
                || cells[d.s2 as usize] == me
                || in_l[d.s1 as usize]
                || in_l[d.s2 as usize]
        }) && self.geo.knight_of(p).iter().all(|w| {
            !(cells[w.b as usize] == me
                && cells[w.c1 as usize] == opp
                && cells[w.c2 as usize] == opp
                && cells[w.m1 as usize] == EMPTY
                && cells[w.m2 as usize] == EMPTY)
                || in_l[w.m1 as usize]
        })
    }

    #[inline]
    fn open(&self, p: usize) -> bool {
        self.cells[p] == self.me || self.in_l[p]
    }

    /// Marks (in `mark_a` / `mark_b`) what `me`'s stones plus `L` reach from
    /// each edge; false if they do not join the edges. Needs `L`.
    fn mark_region(&mut self) -> bool {
        let s = self.next_stamp();
        self.region_stamp = s;
        for (edge, use_a) in [(self.from, true), (self.to, false)] {
            self.queue.clear();
            for p in 0..self.geo.num_points {
                if self.geo.edges[p] & edge != 0 && self.open(p) {
                    self.mark(p, use_a, s);
                    self.queue.push(p as Point);
                }
            }
            let geo = self.geo.clone();
            while let Some(p) = self.queue.pop() {
                for &q in geo.orth_of(p) {
                    let qi = q as usize;
                    let seen = if use_a {
                        self.mark_a[qi]
                    } else {
                        self.mark_b[qi]
                    };
                    if seen != s && self.open(qi) {
                        self.mark(qi, use_a, s);
                        self.queue.push(q);
                    }
                }
            }
            if use_a
                && !(0..self.geo.num_points)
                    .any(|p| self.geo.edges[p] & self.to != 0 && self.mark_a[p] == s)
            {
                return false;
            }
        }
        true
    }

    #[inline]
    fn mark(&mut self, p: usize, use_a: bool, s: u32) {
        if use_a {
            self.mark_a[p] = s;
        } else {
            self.mark_b[p] = s;
        }
    }

    #[inline]
    fn in_region(&self, p: usize) -> bool {
        self.mark_a[p] == self.region_stamp && self.mark_b[p] == self.region_stamp
    }

    /// A chain through `me`'s stones and `L` with the fewest empty points,
    /// from the first edge to the second, into `path` (0-1 BFS). Needs `L`
    /// and a successful `mark_region`.
    fn shortest_chain(&mut self) {
        let np = self.geo.num_points;
        let cap = 6 * np + 8;
        self.queue.clear();
        self.queue.resize(cap, 0);
        self.dist.fill(u16::MAX);
        let (mut head, mut tail) = (np + 1, np + 1);
        for p in 0..np {
            if self.geo.edges[p] & self.from != 0 && self.in_region(p) {
                let c = u16::from(self.cells[p] != self.me);
                self.dist[p] = c;
                self.parent[p] = p as Point;
                if c == 0 {
                    head = (head + cap - 1) % cap;
                    self.queue[head] = p as Point;
                } else {
                    self.queue[tail] = p as Point;
                    tail = (tail + 1) % cap;
                }
            }
        }
        let mut end = None;
        let settled = self.next_stamp();
        while head != tail {
            let p = self.queue[head];
            head = (head + 1) % cap;
            let pi = p as usize;
            if self.done[pi] == settled {
                continue;
            }
            self.done[pi] = settled;
            if self.geo.edges[pi] & self.to != 0 {
                end = Some(p);
                break;
            }
            for &q in self.geo.orth_of(p) {
                let qi = q as usize;
                if !self.open(qi) {
                    continue;
                }
                let c = u16::from(self.cells[qi] != self.me);
                let nd = self.dist[pi] + c;
                if nd < self.dist[qi] {
                    self.dist[qi] = nd;
                    self.parent[qi] = p;
                    if c == 0 {
                        head = (head + cap - 1) % cap;
                        self.queue[head] = q;
                    } else {
                        self.queue[tail] = q;
                        tail = (tail + 1) % cap;
                    }
                }
            }
        }
        self.path.clear();
        if let Some(mut p) = end {
            loop {
                self.path.push(p);
                let q = self.parent[p as usize];
                if q == p {
                    break;
                }
                p = q;
            }
            self.path.reverse();
        }
    }

    /// Tries to place `p`, first placing helpers (shared neighbours, crosscut
    /// middles) where a restriction blocks it. Helpers stay on the board
    /// even when `p` fails; the caller rolls back.
    fn try_place(&mut self, p: Point, depth: u32) -> bool {
        let pi = p as usize;
        if self.cells[pi] == self.me {
            return true;
        }
        if self.cells[pi] != EMPTY || !self.in_l[pi] {
            return false;
        }
        for _ in 0..12 {
            let geo = self.geo.clone();
            match violation(&geo, &self.cells, p, self.me) {
                None => {
                    self.place(p);
                    return true;
                }
                Some(_) if depth >= HELPER_DEPTH => return false,
                Some(super::board::Violation::Diagonal { d }) => {
                    let Some(w) = geo.diag_of(p).iter().find(|w| w.d == d) else {
                        return false;
                    };
                    if !(self.try_place(w.s1, depth + 1) || self.try_place(w.s2, depth + 1)) {
                        return false;
                    }
                }
                Some(super::board::Violation::Crosscut { b, .. }) => {
                    let Some(w) = geo.knight_of(p).iter().find(|w| w.b == b) else {
                        return false;
                    };
                    if !(self.try_place(w.m1, depth + 1) || self.try_place(w.m2, depth + 1)) {
                        return false;
                    }
                }
                Some(super::board::Violation::Occupied) => return false,
            }
        }
        false
    }

    /// Fills a shortest chain from either end, with helpers. On failure the
    /// board is as before. Needs `L` and `mark_region`.
    fn greedy(&mut self) -> bool {
        self.shortest_chain();
        if self.path.is_empty() {
            return false;
        }
        let start = self.seq.len();
        for reverse in [false, true] {
            let mut ok = true;
            for i in 0..self.path.len() {
                let p = if reverse {
                    self.path[self.path.len() - 1 - i]
                } else {
                    self.path[i]
                };
                if !self.try_place(p, 0) {
                    ok = false;
                    break;
                }
            }
            if ok && self.connected() {
                return true;
            }
            self.rollback(start);
        }
        false
    }

    /// Whether a legal placement on `p` is *free*: it cannot make any later
    /// placement illegal. A new like stone can only forbid a later placement
    /// `q` (1) as its diagonal neighbour without a like shared neighbour, or
    /// (2) as the like corner of a crosscut window `q` would complete. So `p`
    /// is free when every empty diagonal neighbour already has a like shared
    /// neighbour with `p`, and no knight window of `p` has an empty opposite
    /// corner, the opponent's two corners and empty middles. Then any legal
    /// sequence from the position stays legal with `p` placed first (the
    /// stone only removes requirements: as a shared neighbour or a middle),
    /// and joins the edges if the sequence did. The conditions cannot go
    /// stale later in the sequence: like stones stay, the opponent adds no
    /// stone during the puzzle, and a filled middle stays filled.
    fn is_free(&self, p: Point) -> bool {
        let cells = &self.cells;
        let me = self.me;
        let opp = 3 - me;
        self.geo.diag_of(p).iter().all(|d| {
            cells[d.d as usize] != EMPTY || cells[d.s1 as usize] == me || cells[d.s2 as usize] == me
        }) && self.geo.knight_of(p).iter().all(|w| {
            !(cells[w.b as usize] == EMPTY
                && cells[w.c1 as usize] == opp
                && cells[w.c2 as usize] == opp
                && cells[w.m1 as usize] == EMPTY
                && cells[w.m2 as usize] == EMPTY)
        })
    }

    /// Places free moves in the region until none is left; returns how many.
    fn place_free_moves(&mut self) -> usize {
        let mut placed = 0;
        loop {
            let mut any = false;
            for p in 0..self.geo.num_points {
                if self.cells[p] == EMPTY
                    && self.in_region(p)
                    && self.legal(p as Point)
                    && self.is_free(p as Point)
                {
                    self.place(p as Point);
                    placed += 1;
                    any = true;
                }
            }
            if !any {
                return placed;
            }
        }
    }

    /// Zobrist key of the set of stones placed so far in this call.
    fn set_key(&self) -> u64 {
        self.seq
            .iter()
            .fold(0, |h, &p| h ^ self.geo.keys[p as usize][0])
    }

    /// Probes (see `probe.rs`) every point of the region that is not
    /// legal now and not yet known dead; marks the dead ones. Returns
    /// whether any was found. Needs `L` and `mark_region`.
    fn find_dead(&mut self) -> bool {
        let mut found = false;
        self.probe.begin(&self.cells, self.me);
        for p in 0..self.geo.num_points {
            if self.cells[p] == EMPTY
                && !self.dead[p]
                && self.in_region(p)
                && !self.legal(p as Point)
                && self
                    .probe
                    .is_dead(&self.dead, p as Point, self.probe_radius, PROBE_NODES)
            {
                self.dead[p] = true;
                self.dead_log.push(p as Point);
                self.dead_points += 1;
                found = true;
            }
        }
        self.probes += 1;
        found
    }

    /// The search from the current set of placed stones. Points proven
    /// dead below this node are forgotten on return.
    fn dfs(&mut self) -> bool {
        let mark = self.dead_log.len();
        let found = self.dfs_node();
        while self.dead_log.len() > mark {
            let p = self.dead_log.pop().expect("longer than mark");
            self.dead[p as usize] = false;
        }
        found
    }

    fn dfs_node(&mut self) -> bool {
        self.nodes += 1;
        if self.exhausted || self.node_limit.is_some_and(|l| self.nodes > l) {
            self.exhausted = true;
            return false;
        }
        if self.connected() {
            return true;
        }
        let key = self.set_key();
        if self.fail.contains(&key) {
            return false;
        }
        let mut rounds = 0;
        loop {
            self.compute_reachable();
            if !self.mark_region() {
                self.fail.insert(key);
                return false;
            }
            if self.use_greedy && self.greedy() {
                return true;
            }
            let start = self.seq.len();
            if self.place_free_moves() > 0 {
                if self.dfs() {
                    return true;
                }
                self.rollback(start);
                if !self.exhausted {
                    self.fail.insert(key);
                }
                return false;
            }
            // Before branching: drop the points no order can fill, then
            // the bound, the greedy and the free moves again.
            if rounds >= PROBE_ROUNDS || !self.probing || !self.find_dead() {
                break;
            }
            rounds += 1;
        }
        self.branch_nodes += 1;
        let start = self.seq.len();
        // Branch on every legal placement in the region.
        let base = self.cand.len();
        for p in 0..self.geo.num_points {
            if self.cells[p] == EMPTY && self.in_region(p) && self.legal(p as Point) {
                self.cand.push(p as Point);
            }
        }
        let end = self.cand.len();
        for i in base..end {
            let p = self.cand[i];
            self.place(p);
            if self.dfs() {
                self.cand.truncate(base);
                return true;
            }
            self.rollback(start);
            if self.exhausted {
                break;
            }
        }
        self.cand.truncate(base);
        if !self.exhausted {
            self.fail.insert(key);
        }
        false
    }
}
