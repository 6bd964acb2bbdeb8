//! Local probes for the adjudication ([`super::adjudicate`]): a proof that
//! an empty point can *never* be filled by `me`, whatever `me` places
//! before it, found by a small exact search on a window around the point.
//!
//! # Why the bound `L` needs help
//!
//! The adjudication's upper bound `L` admits a point when each requirement
//! that the stones present *now* put on it can be met inside `L`. A
//! requirement that only arises once another stone of `me` is placed (a
//! later diagonal partner, the like corner of a crosscut window) is not
//! seen. So points can sit in `L` that no order ever fills: in the position
//! of `tests/it/orcoon_hard.rs` White's only crossing needs H6, which needs H5
//! and H7 first, H5 needs G5, G5 needs G6, G6 needs H6 once I7 stands, and
//! H7 needs I7 (with G6 standing, I7 needs H7 first). Every point is in
//! `L`, so the search enumerated every set of White stones in the open areas
//! on both sides before failing (minutes).
//!
//! # The relaxed puzzle on a window
//!
//! For an empty point `p`, let `B` be the square window of points within
//! Chebyshev distance `radius` of `p`. In the *relaxed puzzle* only the
//! empty points of `B` that are not known to be dead may be filled (by
//! `me`), and every empty point outside `B` is a *wildcard*: it is never
//! filled, it never blocks, and it meets any requirement it could meet as a
//! like stone. A placement `q` is relaxed-illegal when
//! - a like stone `d` diagonal to `q` has no shared neighbour that is a
//!   like stone or a wildcard, or
//! - a crosscut window has `q` and a like corner `b`, the opponent's two
//!   corners, and both middles empty (a wildcard is not empty).
//!
//! **Claim.** If a legal sequence σ of the real puzzle from the current
//! stones places `p`, then σ restricted to `B` (σ_B) is a relaxed-legal
//! sequence that places `p`. So when the relaxed puzzle cannot place `p`,
//! no real sequence ever fills `p`: `p` is *dead*.
//!
//! *Proof.* Take `q` in σ_B, `X` the stones before `q` in σ, `Y ⊆ X` those
//! before it in σ_B. `q` is legal on `X`. Every like stone of `Y` is in `X`,
//! and the opponent's stones never change.
//! - A like diagonal stone `d ∈ Y` has a like shared neighbour `s ∈ X`.
//!   Either `s` was on the board from the start (so in `Y`), or it was
//!   placed in σ: inside `B` it is in `Y`, outside `B` it was empty at the
//!   start, so it is a wildcard. Either way `q` is not blocked.
//! - A crosscut window with like corner `b ∈ Y` and the opponent's corners:
//!   on `X` a middle is filled. If `m1` (next to `q`) is filled on `X`, it
//!   is in `Y` or a wildcard, as above, and the window does not block. If
//!   only `m2` is, `q` and `m2` are a like diagonal pair whose shared
//!   neighbours are the empty `m1` and an opponent corner, and `q` was
//!   illegal on `X`: impossible.
//!
//! Points already proven dead are never filled in the real puzzle either
//! (that is what dead means), so σ_B contains none and the relaxed puzzle
//! may leave them empty for good. Deadness is relative to the stones of the
//! node where it was proven and holds for every node below it: those are
//! reached by legal placements, and a sequence from them extends one from
//! the node.
//!
//! # The probe's search
//!
//! An exact depth-first search over sets of relaxed placements, the same
//! scheme as the adjudication's (its proofs carry over word for word with
//! the relaxed rule, a wildcard counting as a like stone that is already
//! there for the requirements and as empty for nothing):
//! 1. `p` relaxed-legal: reachable.
//! 2. A set that already failed (Zobrist key): fail.
//! 3. The relaxed bound `L_B` (least fixpoint, as `L`, over the fillable
//!    points of `B`, wildcards meeting requirements): `p ∉ L_B`: fail.
//! 4. A greedy try (`p` with helpers, as the adjudication's greedy); it only
//!    makes relaxed-legal placements, so success shows reachability.
//! 5. Branch on every relaxed-legal point of `L_B` in the orthogonal
//!    component of `p` in (like stones ∪ `L_B`). Exact by the argument of
//!    the adjudication's "branching on `R`": for a sequence σ placing `p`,
//!    the subsequence inside the component `K` of the final stones that
//!    holds `p` is still relaxed-legal (a real shared neighbour or middle
//!    that serves `q ∈ K` is orthogonally next to `q`, so in `K`; a
//!    wildcard stays a wildcard), still places `p`, and lies in `L_B` and
//!    in that component.
//!
//! A probe gives up after `limit` nodes and then reports "not dead", which
//! only means no pruning: the answer of the adjudication never depends on
//! a probe's limit, only its speed does.

use std::collections::HashSet;
use std::sync::Arc;

use super::board::EMPTY;
use super::geometry::{Geometry, Point};

/// Cell value of a wildcard in the probe's board.
const WILD: u8 = 3;

/// Depth of helper placements of the probe's greedy try.
const HELPER_DEPTH: u32 = 3;

/// Why a point is relaxed-illegal.
enum Block {
    /// A lone diagonal like stone with these shared neighbours.
    Diagonal(Point, Point),
    /// A crosscut window; the middle next to the point.
    Crosscut(Point),
}

/// The probe with its scratch space.
#[derive(Clone, Debug)]
pub(super) struct Probe {
    geo: Arc<Geometry>,
    cells: Vec<u8>,
    me: u8,
    /// The fillable points of the window.
    fillable: Vec<bool>,
    window: Vec<Point>,
    /// The window's empty points (dead ones too), wildcards again after.
    opened: Vec<Point>,
    in_l: Vec<bool>,
    comp: Vec<u32>,
    stamp: u32,
    queue: Vec<Point>,
    seq: Vec<Point>,
    cand: Vec<Point>,
    fail: HashSet<u64>,
    nodes: u64,
    limit: u64,
    /// Probe search nodes since the solver's call began (statistics).
    pub total_nodes: u64,
}

impl Probe {
    pub(super) fn new(geo: Arc<Geometry>) -> Probe {
        let np = geo.num_points;
        Probe {
            cells: vec![EMPTY; np],
            me: 1,
            fillable: vec![false; np],
            window: Vec::with_capacity(np),
            opened: Vec::with_capacity(np),
            in_l: vec![false; np],
            comp: vec![0; np],
            stamp: 0,
            queue: Vec::with_capacity(np),
            seq: Vec::with_capacity(np),
            cand: Vec::with_capacity(4 * np),
            fail: HashSet::with_capacity(256),
            nodes: 0,
            limit: 0,
            total_nodes: 0,
            geo,
        }
    }

    /// Prepares probes of `me` on `cells`: every empty point becomes a
    /// wildcard until a probe opens its window.
    pub(super) fn begin(&mut self, cells: &[u8], me: u8) {
        self.me = me;
        for (dst, &src) in self.cells.iter_mut().zip(cells) {
            *dst = if src == EMPTY { WILD } else { src };
        }
    }

    /// Whether the empty point `p` is proven dead (see the module docs),
    /// with the window of the given `radius`, the points marked in `dead`
    /// already dead, and at most `limit` nodes. Needs [`Probe::begin`] on
    /// the same cells.
    pub(super) fn is_dead(&mut self, dead: &[bool], p: Point, radius: usize, limit: u64) -> bool {
        let n = self.geo.n;
        let (pr, pc) = (p as usize / n, p as usize % n);
        // The window's empty points: fillable unless dead, never wildcards.
        self.window.clear();
        self.opened.clear();
        for r in pr.saturating_sub(radius)..(pr + radius + 1).min(n) {
            for c in pc.saturating_sub(radius)..(pc + radius + 1).min(n) {
                let q = r * n + c;
                if self.cells[q] == WILD {
                    self.cells[q] = EMPTY;
                    self.opened.push(q as Point);
                    if !dead[q] {
                        self.fillable[q] = true;
                        self.window.push(q as Point);
                    }
                }
            }
        }
        if !self.fail.is_empty() {
            self.fail.clear();
        }
        self.seq.clear();
        self.nodes = 0;
        self.limit = limit;
        let reached = self.reach(p);
        self.total_nodes += self.nodes;
        self.rollback(0);
        for &q in &self.window {
            self.fillable[q as usize] = false;
            self.in_l[q as usize] = false;
        }
        for &q in &self.opened {
            self.cells[q as usize] = WILD;
        }
        !reached
    }

    /// Why the empty point `q` is relaxed-illegal, if it is.
    fn block(&self, q: Point) -> Option<Block> {
        let c = &self.cells;
        let me = self.me;
        let opp = 3 - me;
        let meets = |s: Point| c[s as usize] == me || c[s as usize] == WILD;
        for d in self.geo.diag_of(q) {
            if c[d.d as usize] == me && !meets(d.s1) && !meets(d.s2) {
                return Some(Block::Diagonal(d.s1, d.s2));
            }
        }
        for w in self.geo.knight_of(q) {
            if c[w.b as usize] == me
                && c[w.c1 as usize] == opp
                && c[w.c2 as usize] == opp
                && c[w.m1 as usize] == EMPTY
                && c[w.m2 as usize] == EMPTY
            {
                return Some(Block::Crosscut(w.m1));
            }
        }
        None
    }

    fn place(&mut self, q: Point) {
        self.cells[q as usize] = self.me;
        self.seq.push(q);
    }

    fn rollback(&mut self, len: usize) {
        while self.seq.len() > len {
            let q = self.seq.pop().expect("longer than len");
            self.cells[q as usize] = EMPTY;
        }
    }

    /// The search: whether `p` can be placed from the current set. Gives
    /// up (answers yes) past the node limit.
    fn reach(&mut self, p: Point) -> bool {
        self.nodes += 1;
        if self.nodes > self.limit {
            return true;
        }
        if self.block(p).is_none() {
            return true;
        }
        let key = self
            .seq
            .iter()
            .fold(0, |h, &q| h ^ self.geo.keys[q as usize][1]);
        if self.fail.contains(&key) {
            return false;
        }
        let start = self.seq.len();
        if self.try_place(p, 0) {
            return true;
        }
        self.rollback(start);
        self.compute_l();
        if !self.in_l[p as usize] {
            self.fail.insert(key);
            return false;
        }
        self.component(p);
        let base = self.cand.len();
        for i in 0..self.window.len() {
            let q = self.window[i];
            let qi = q as usize;
            if self.cells[qi] == EMPTY
                && self.in_l[qi]
                && self.comp[qi] == self.stamp
                && q != p
                && self.block(q).is_none()
            {
                self.cand.push(q);
            }
        }
        // Nearest first: the helpers `p` needs are its neighbours.
        let n = self.geo.n;
        let dist = |q: Point| {
            let (a, b) = (q as usize, p as usize);
            (a / n).abs_diff(b / n) + (a % n).abs_diff(b % n)
        };
        self.cand[base..].sort_by_key(|&q| dist(q));
        let end = self.cand.len();
        for i in base..end {
            let q = self.cand[i];
            self.place(q);
            if self.reach(p) {
                self.cand.truncate(base);
                return true;
            }
            self.rollback(start);
        }
        self.cand.truncate(base);
        if self.nodes <= self.limit {
            self.fail.insert(key);
        }
        false
    }

    /// The relaxed bound `L_B` into `in_l`: the least set of fillable
    /// points each of whose requirements (from the like stones present)
    /// has a witness that is a wildcard or in `L_B` (soundness as for the
    /// adjudication's `L`, with the relaxed rule).
    fn compute_l(&mut self) {
        for &q in &self.window {
            self.in_l[q as usize] = false;
        }
        self.queue.clear();
        for i in 0..self.window.len() {
            let q = self.window[i];
            if self.cells[q as usize] == EMPTY && self.requirements_met(q) {
                self.in_l[q as usize] = true;
                self.queue.push(q);
            }
        }
        let geo = self.geo.clone();
        while let Some(q) = self.queue.pop() {
            for &r in geo.orth_of(q) {
                let ri = r as usize;
                if self.fillable[ri]
                    && self.cells[ri] == EMPTY
                    && !self.in_l[ri]
                    && self.requirements_met(r)
                {
                    self.in_l[ri] = true;
                    self.queue.push(r);
                }
            }
        }
    }

    fn requirements_met(&self, q: Point) -> bool {
        let c = &self.cells;
        let me = self.me;
        let opp = 3 - me;
        let meets = |s: Point| {
            let v = c[s as usize];
            v == me || v == WILD || self.in_l[s as usize]
        };
        self.geo
            .diag_of(q)
            .iter()
            .all(|d| c[d.d as usize] != me || meets(d.s1) || meets(d.s2))
            && self.geo.knight_of(q).iter().all(|w| {
                !(c[w.b as usize] == me
                    && c[w.c1 as usize] == opp
                    && c[w.c2 as usize] == opp
                    && c[w.m1 as usize] == EMPTY
                    && c[w.m2 as usize] == EMPTY)
                    || self.in_l[w.m1 as usize]
            })
    }

    /// Marks (with a new stamp) the orthogonal component of `p` in like
    /// stones ∪ `L_B`.
    fn component(&mut self, p: Point) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.comp.fill(0);
            self.stamp = 1;
        }
        let s = self.stamp;
        self.queue.clear();
        self.comp[p as usize] = s;
        self.queue.push(p);
        let geo = self.geo.clone();
        while let Some(q) = self.queue.pop() {
            for &r in geo.orth_of(q) {
                let ri = r as usize;
                if self.comp[ri] != s && (self.cells[ri] == self.me || self.in_l[ri]) {
                    self.comp[ri] = s;
                    self.queue.push(r);
                }
            }
        }
    }

    /// Places `q` with helpers (shared neighbours, the middle next to it)
    /// where the relaxed rule blocks it; only relaxed-legal placements.
    /// Helpers stay on the board when `q` fails; the caller rolls back.
    fn try_place(&mut self, q: Point, depth: u32) -> bool {
        let qi = q as usize;
        if self.cells[qi] == self.me {
            return true;
        }
        if self.cells[qi] != EMPTY || !self.fillable[qi] {
            return false;
        }
        for _ in 0..12 {
            match self.block(q) {
                None => {
                    self.place(q);
                    return true;
                }
                Some(_) if depth >= HELPER_DEPTH => return false,
                Some(Block::Diagonal(s1, s2)) => {
                    if !(self.try_place(s1, depth + 1) || self.try_place(s2, depth + 1)) {
                        return false;
                    }
                }
                Some(Block::Crosscut(m1)) => {
                    if !self.try_place(m1, depth + 1) {
                        return false;
                    }
                }
            }
        }
        false
    }
}
