//! The H-search (Anshelevich 2002) that builds one colour's virtual
//! connections, from scratch or **incrementally** from an ancestor
//! position, as Benzene's VCBuilder does: the connections the last
//! positions asked about are kept on a stack, and a position whose stones
//! include an earlier one's starts from that one's connections.
//!
//! # What is derived (for one colour X)
//!
//! *Points* are the empty cells and X's groups: a chain of its stones,
//! and each of its two edges as a virtual stone (a chain touching an edge
//! belongs to that edge's group). A *full* connection between two points,
//! with a *carrier* (a set of empty cells, never containing its own
//! endpoints), means: once both endpoints are X's, X joins them against
//! any play of the opponent, moving second, using only the carrier. A
//! *semi*-connection means the same with X moving first; its carrier
//! includes the key move. Rules:
//!
//! - **Base**: two adjacent points (an empty cell next to a stone of the
//!   group, next to another empty cell, or on the group's edge) are fully
//!   connected with the empty carrier.
//! - **AND**: full x–z (carrier A) and full z–y (carrier B), A ∩ B = ∅,
//!   x ∉ B, y ∉ A: when z is a group, a full x–y with A ∪ B (answer each
//!   intrusion in its own carrier); when z is an empty cell, a semi x–y
//!   with A ∪ B ∪ {z} (z is the key). A semi x–z (key k, carrier A) and a
//!   full z–y (carrier B) through a group z, with the same conditions,
//!   give a semi x–y with A ∪ B (play k first). The rule never goes
//!   through an edge's group (Benzene's `and_over_edge` off): joining two
//!   points both joined to an edge tells nothing about joining the two
//!   edges, and the cells along an edge would all be paired (measured:
//!   six to thirteen times the solver's time on 7×7 and 8×8).
//! - **OR**: semis x–y whose carriers have an empty intersection give a
//!   full x–y on the union of their carriers: whatever cell the opponent
//!   takes, one of the semis is untouched, and its key makes it full.
//!   Every set of up to [`OR_DEPTH`] + 1 semis (one more between an edge
//!   and another point) with the new one among them is found by a
//!   complete search, as Benzene's `VCOr`: a set with an empty
//!   intersection holds a semi without any given cell of the new one's
//!   carrier, so it branches on the semis that avoid one cell; then the
//!   greedy intersection of all known semis is tried.
//! - **Captured sets** (in play only, [`Mode::Play`], as Benzene's
//!   `vc-captured-set`): an empty cell with two empty neighbours in front
//!   of a row of three own stones or of an own edge *captures* those two
//!   once the colour plays it (an intrusion into one is answered in the
//!   other, which joins the cell to the row). The AND rule may combine two
//!   fulls whose carriers share only cells captured by its three points
//!   (the carrier then takes the captured sets whole), and the OR rule
//!   semis whose carriers share only cells captured by the two ends. So a
//!   cell on the second row and one on the first are joined through the
//!   edge (a1–b2 by b1 and c1), as Wolve's connections are; its circuit
//!   is then close to Wolve's. The solver goes without (fewer nodes, but
//!   twice the time per node on 8×8).
//! - **Second-row ladders** (in play only, added when a search is built
//!   or updated, as Benzene's ladder patterns with its `row2start2` and
//!   `row2end2b` shapes): on the second row from one of the colour's
//!   edges, a point s₀ (an empty cell or the colour's stone), the empty
//!   cells s₁ … s_k₋₁ ahead of it and a point s_k (k ≥ 2); on the edge
//!   row, `b` next to s₀ behind, eᵢ next to sᵢ and sᵢ₊₁ (1 ≤ i < k) and
//!   `f` next to s_k ahead, all empty (e₀, next to s₀ and s₁, may be
//!   anything). Then s₀ and s_k are fully connected on `b`, the sᵢ, the
//!   eᵢ and `f` (joined along the row, or both to the edge), and with s_k
//!   the colour's stone s₀ reaches the edge on the same cells. The
//!   colour, answering, keeps a chain from s₀ to some sᵢ whose *threat*
//!   (`b` at s₀, then eᵢ) is empty: an intrusion at the threat is
//!   answered at sᵢ₊₁ (at sₖ₋₁ the chain touches s_k), one at e_k₋₁ or
//!   `f` by the other (s_k joins the edge; the chain goes on, reaching s_k
//!   or the edge), any other by the threat (the chain joins the edge, and
//!   s_k then too: e_k₋₁ and `f` are both empty, or the last answer took
//!   one). The AND rule never joins two points through an edge, so these
//!   are new (the ladders to the colour's own stone the rules find
//!   themselves); with them play's connections decide a quarter more of
//!   the positions measured in docs/solutions.md.
//!
//!   A ladder may also start from a third-row point t (Benzene's
//!   `row2start3`): its second-row neighbours `l` (behind) and s₀, the
//!   edge-row cells `a` (behind `l`), `b` (between them) and e₀ empty, and
//!   the rest as above with k ≥ 1. An intrusion at e_k₋₁ or `f` is
//!   answered by the other (s_k joins the edge), after which t reaches
//!   the edge (by `l` with `a` and `b`, by s₀ with `b` and e₀, or by
//!   ladder from s₀). Any other: at s₀ by `l` (t reaches the edge by `a`
//!   and `b`, s_k by e_k₋₁ and `f`); at `b` by s₀, whose threat is then
//!   e₀ in place of `b` (the ladder above); at `l`, `a` or e₀ by s₀ (the
//!   ladder above); on the ladder beyond by s₀, which joins the edge by
//!   `b` and e₀ while s_k keeps e_k₋₁ and `f`. The tests check lengths
//!   1, 2 and 4 in every orientation with the solver. From an empty t to
//!   an empty s_k only k = 1 is added: the longer ones nearly doubled the
//!   time of a play search (`bench 5 hex` 9.4 → 17.3 s, k ≤ 2 as much)
//!   for 449 of the measured positions decided instead of 438.
//! - **Edge templates** (in both modes, [`edge_templates`]: IV-a, IV-b,
//!   V-a and Benzene's templates of the fourth to sixth rows, most with
//!   stones): fulls between a template's cell and the edge wherever its
//!   stones are the colour's and its carrier holds no opponent stone;
//!   all when a search is built, on an update those with a new stone
//!   among theirs. The solver's tests prove each; in the solver they cut
//!   the 7×7 map's nodes by a quarter.
//!
//! Bridges, edge template II, the ziggurat (template IIIa) and chains of
//! them whose carriers are pairwise disjoint come out of these rules. Each
//! point pair keeps at most [`MAX_FULL`] fulls and [`MAX_SEMI`] semis and
//! a search combines at most [`WORK_LIMIT`] connections from its queue:
//! dropping a connection only loses knowledge, never soundness. A full
//! list takes a new carrier only in place of one whose going leaves the
//! list's intersection no larger (what the must-play region and the
//! circuits read is an intersection; Benzene keeps a full only if it
//! shrinks the intersection), the smallest intersection first, then the
//! largest carrier; at an equal intersection the new carrier must be the
//! smaller.
//!
//! # Incremental update
//!
//! The connections of a position hold in every position with more stones
//! after these changes, which are all the update makes (stones of either
//! colour added, as a move and its fill-in add them):
//!
//! - **An opponent's stone** on cell p: p stops being a point (its
//!   connections go) and every carrier holding p goes. The rest stand: their
//!   strategies never needed p.
//! - **An own stone** on cell p: p leaves every carrier (X owning a cell of
//!   a carrier never hurts: a full on A holds on A − p, a semi on A is at
//!   least a semi on A − p), and p joins the groups it touches (its
//!   neighbouring chains and its edges) into one point, which takes over
//!   their connections (between two of them they vanish). The merged point's
//!   connections, and the shrunk carriers, go back into the queue: combined
//!   again they give what the new group allows (a full through it where an
//!   empty p gave a semi).
//!
//! The queue a search left unprocessed (at its work limit, or stopped at a
//! first semi) goes with its connections: the next position carries on
//! with it after its own new connections. So an updated search knows
//! everything its ancestor knew that still holds, plus what its new stones
//! add; it may know less than a search from scratch (a pair's list, once
//! full, kept smaller carriers that the new stones destroyed). Every
//! derivation is sound either way; `tests/it/hex_vc.rs` checks positions
//! reached both ways against exhaustive minimax.

use std::cell::RefCell;

use super::board::{Hex, edge_bits};
use super::geometry::{Bits, WORDS};
use super::templates::edge_templates;
use crate::game::Color;

/// Largest board side with connection knowledge.
pub const MAX_VC_SIZE: usize = 13;

/// A set of cells of a board up to [`MAX_VC_SIZE`]: one bit a cell (the
/// summaries' word; a search's carriers are the narrowest word that
/// holds its board, see [`Set`]).
pub(super) type Carrier = Wide;

/// Full connections kept for a point pair.
pub const MAX_FULL: usize = 8;
/// Semi-connections kept for a point pair.
pub const MAX_SEMI: usize = 24;
/// Connections combined per colour and search (an update counts its own;
/// a queued connection dropped since is skipped without counting).
pub const WORK_LIMIT: usize = 12_000;
/// Semis the complete OR adds to a new one between an edge and another
/// point, at most.
const OR_DEPTH_EDGE: usize = 3;
/// Semis the complete OR adds to a new one between two other points.
const OR_DEPTH: usize = 2;
/// Fulls one complete OR gives, at most.
const OR_OUT: usize = 16;

/// The word a search's carriers are: `u64` on boards up to 8×8 (64
/// cells; about a fifth faster), `u128` up to 11×11, [`Wide`] above.
trait Set:
    Copy
    + Eq
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::Not<Output = Self>
    + std::ops::BitAndAssign
    + std::ops::BitOrAssign
{
    /// A set of the search's points (its cells and the two edges): the
    /// partners a point has connections with.
    type Points: Set;
    /// No cell.
    const ZERO: Self;
    /// Every cell.
    const ALL: Self;
    /// The cells counted.
    fn count(self) -> u32;
    /// The set of cell `i` alone.
    fn bit(i: usize) -> Self;
    /// As a [`Carrier`].
    fn wide(self) -> Carrier;
    /// The cells of a [`Carrier`] (within the word).
    fn narrow(c: Carrier) -> Self;
    /// The lowest cell (the set not empty).
    fn first(self) -> usize;
    /// The cells above cell `i`.
    fn above(self, i: usize) -> Self;
}

/// The [`Set`] of a primitive word, its points in `$points`.
macro_rules! word_set {
    ($t:ty, $points:ty) => {
        impl Set for $t {
            type Points = $points;
            const ZERO: Self = 0;
            const ALL: Self = <$t>::MAX;
            fn count(self) -> u32 {
                self.count_ones()
            }
            fn bit(i: usize) -> Self {
                1 << i
            }
            fn wide(self) -> Carrier {
                let c = u128::from(self);
                Wide([c as u64, (c >> 64) as u64, 0])
            }
            fn narrow(c: Carrier) -> Self {
                (u128::from(c.0[0]) | u128::from(c.0[1]) << 64) as $t
            }
            fn first(self) -> usize {
                self.trailing_zeros() as usize
            }
            fn above(self, i: usize) -> Self {
                self & (<$t>::MAX << i << 1)
            }
        }
    };
}

word_set!(u64, u128);
word_set!(u128, u128);

/// A set of up to 192 cells: the carriers of boards up to 13×13 (169
/// cells; 171 points).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(super) struct Wide([u64; 3]);

impl Wide {
    /// The set as board cells.
    pub(super) fn bits(self) -> Bits {
        let mut out = [0u64; WORDS];
        out[..3].copy_from_slice(&self.0);
        out
    }

    /// Whether cell `i` is in the set.
    pub(super) fn has(self, i: usize) -> bool {
        i < 192 && self.0[i / 64] & (1 << (i % 64)) != 0
    }

    /// Whether the set is empty.
    pub(super) fn is_empty(self) -> bool {
        self == Wide::ZERO
    }
}

impl std::ops::BitAnd for Wide {
    type Output = Wide;
    fn bitand(self, o: Wide) -> Wide {
        Wide([self.0[0] & o.0[0], self.0[1] & o.0[1], self.0[2] & o.0[2]])
    }
}

impl std::ops::BitOr for Wide {
    type Output = Wide;
    fn bitor(self, o: Wide) -> Wide {
        Wide([self.0[0] | o.0[0], self.0[1] | o.0[1], self.0[2] | o.0[2]])
    }
}

impl std::ops::Not for Wide {
    type Output = Wide;
    fn not(self) -> Wide {
        Wide([!self.0[0], !self.0[1], !self.0[2]])
    }
}

impl std::ops::BitAndAssign for Wide {
    fn bitand_assign(&mut self, o: Wide) {
        *self = *self & o;
    }
}

impl std::ops::BitOrAssign for Wide {
    fn bitor_assign(&mut self, o: Wide) {
        *self = *self | o;
    }
}

impl Set for Wide {
    type Points = Wide;
    const ZERO: Self = Wide([0; 3]);
    const ALL: Self = Wide([u64::MAX; 3]);
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    fn bit(i: usize) -> Self {
        let mut w = [0; 3];
        w[i / 64] = 1 << (i % 64);
        Wide(w)
    }
    fn wide(self) -> Carrier {
        self
    }
    fn narrow(c: Carrier) -> Self {
        c
    }
    fn first(self) -> usize {
        match self.0 {
            [a, _, _] if a != 0 => a.trailing_zeros() as usize,
            [_, b, _] if b != 0 => 64 + b.trailing_zeros() as usize,
            [_, _, c] => 128 + c.trailing_zeros() as usize,
        }
    }
    fn above(self, i: usize) -> Self {
        let k = i / 64;
        let mut w = self.0;
        for (j, x) in w.iter_mut().enumerate() {
            if j < k {
                *x = 0;
            } else if j == k {
                *x &= u64::MAX << (i % 64) << 1;
            }
        }
        Wide(w)
    }
}

/// Largest board side whose carriers fit a `u64`.
const SMALL_SIZE: usize = 8;
/// Points (cells and the two edge groups) of a board up to
/// [`SMALL_SIZE`].
const SMALL_POINTS: usize = SMALL_SIZE * SMALL_SIZE + 2;
/// Largest board side whose carriers fit a `u128`.
const LARGE_SIZE: usize = 11;
/// Points of a board up to [`LARGE_SIZE`].
const LARGE_POINTS: usize = LARGE_SIZE * LARGE_SIZE + 2;
/// Points of a board up to [`MAX_VC_SIZE`].
const HUGE_POINTS: usize = MAX_VC_SIZE * MAX_VC_SIZE + 2;
/// Searches kept on the stack per colour (each is a few hundred
/// kilobytes up to 8×8, a few megabytes above).
const SMALL_LEVELS: usize = 48;
const LARGE_LEVELS: usize = 16;
/// Searches kept per colour on boards past [`LARGE_SIZE`] (about 11 MB
/// each on 13×13).
const HUGE_LEVELS: usize = 8;
/// Cached summaries (a power of two).
const CACHE_SIZE: usize = 1 << 16;
/// No point: a cell holding an opponent's stone.
const NONE: u8 = u8::MAX;

/// The cells of `bits` as a [`Carrier`] (boards up to [`MAX_VC_SIZE`]).
pub(super) fn carrier(bits: &Bits) -> Carrier {
    Wide([bits[0], bits[1], bits[2]])
}

/// At most `K` carriers, none containing another.
#[derive(Clone, Copy)]
struct List<C, const K: usize> {
    len: u8,
    /// The pair whose list this is, in an arena ([`Lists`]).
    pair: u16,
    c: [C; K],
}

impl<C: Set, const K: usize> List<C, K> {
    const EMPTY: List<C, K> = List {
        len: 0,
        pair: 0,
        c: [C::ZERO; K],
    };

    fn items(&self) -> &[C] {
        &self.c[..self.len as usize]
    }

    fn contains(&self, c: C) -> bool {
        self.items().contains(&c)
    }

    /// Whether some carrier is a subset of `c`.
    fn dominates(&self, c: C) -> bool {
        self.items().iter().any(|&o| o & !c == C::ZERO)
    }

    /// Keeps the carriers `keep` accepts.
    fn retain(&mut self, keep: impl Fn(C) -> bool) {
        let mut len = 0;
        for i in 0..self.len as usize {
            if keep(self.c[i]) {
                self.c[len] = self.c[i];
                len += 1;
            }
        }
        self.len = len as u8;
    }

    /// Adds `c` unless a subset of it is there; drops the supersets of
    /// `c`; when `K` are kept, `c` replaces one only if the list's
    /// intersection does not grow (see below). Returns whether `c` was
    /// added.
    fn add(&mut self, c: C) -> bool {
        if self.dominates(c) {
            return false;
        }
        self.retain(|o| c & !o != C::ZERO);
        let len = self.len as usize;
        if len < K {
            self.c[len] = c;
            self.len += 1;
            return true;
        }
        // Full: the carrier `c` replaces goes by the intersection of the
        // list that would be left (smallest first: the must-play region
        // is an intersection), then by its size (largest first); `c`
        // comes in only if the intersection grows no larger and, when
        // it stays as large, `c` is smaller than the carrier it replaces.
        let items = &self.c[..K];
        let mut suffix = [C::ALL; K];
        for i in (0..K - 1).rev() {
            suffix[i] = suffix[i + 1] & items[i + 1];
        }
        let now = (items[0] & suffix[0]).count();
        let mut prefix = c;
        let mut best: Option<(u32, u32, usize)> = None;
        for i in 0..K {
            let left = (prefix & suffix[i]).count();
            let size = items[i].count();
            let ok = left < now || (left == now && c.count() < size);
            if ok && best.is_none_or(|(l, s, _)| left < l || (left == l && size > s)) {
                best = Some((left, size, i));
            }
            prefix &= items[i];
        }
        match best {
            Some((_, _, i)) => {
                self.c[i] = c;
                true
            }
            None => false,
        }
    }
}

/// What a colour has between its two edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Side {
    /// Some full connection.
    pub(super) full: bool,
    /// Some semi-connection.
    pub(super) semi: bool,
    /// The intersection of the carriers of all its fulls and semis found
    /// (all ones when it has none).
    pub(super) must: Carrier,
    /// Whether the search did not stop at a first semi (it may have
    /// stopped at a full, or at the work limit).
    pub(super) complete: bool,
}

/// The rows along one of a colour's edges that ladders use
/// ([`HSearch::add_ladders`]): a cell by its place along the edge.
struct LadderRow {
    /// The board's side.
    n: usize,
    /// Whether the colour is Black (its edges are the first and last rows).
    black: bool,
    /// The edge's point.
    edge: usize,
    /// Whether the edge is the colour's first (row or column 0).
    near: bool,
}

impl LadderRow {
    /// The cell at place `u` along the edge, `d` rows from it (0: the
    /// edge's own row), if on the board.
    fn at(&self, u: isize, d: usize) -> Option<usize> {
        let n = self.n;
        let u = usize::try_from(u).ok().filter(|&u| u < n)?;
        let d = if self.near { d } else { n - 1 - d };
        Some(if self.black { d * n + u } else { u * n + d })
    }

    /// The second-row cell at place `u`.
    fn second(&self, u: isize) -> Option<usize> {
        self.at(u, 1)
    }

    /// The third-row cell at place `u`.
    fn third(&self, u: isize) -> Option<usize> {
        self.at(u, 2)
    }

    /// The edge-row cell next to the second-row places `w` and `w + 1`
    /// (one of them may be off the board), if on the board.
    fn between<C: Set>(&self, w: isize) -> Option<C> {
        self.at(w + isize::from(self.near), 0).map(C::bit)
    }
}

/// The index of the point pair `x` ≠ `y` (a triangle: each pair once).
fn pair(x: usize, y: usize) -> usize {
    let (a, b) = if x < y { (x, y) } else { (y, x) };
    b * (b - 1) / 2 + a
}

/// The points (x, y), x < y, of pair index `p` ([`pair`]'s inverse).
fn unpair(p: usize) -> (usize, usize) {
    let mut b = ((1.0 + (1.0 + 8.0 * p as f64).sqrt()) / 2.0) as usize;
    while b * (b - 1) / 2 > p {
        b -= 1;
    }
    while (b + 1) * b / 2 <= p {
        b += 1;
    }
    (p - b * (b - 1) / 2, b)
}

/// A combined carrier `union` whose parts share the cells `inter` (all
/// captured, within `cap`): with the captured sets `cap` when it shares
/// any, else as it is.
fn with_captured<C: Set>(union: C, inter: C, cap: C) -> C {
    if inter == C::ZERO { union } else { union | cap }
}

/// The points of a mask, lowest first.
fn points<M: Set>(mut m: M) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != M::ZERO).then(|| {
            let y = m.first();
            m &= !M::bit(y);
            y
        })
    })
}

/// Every pair's list of one kind, in one arena: `index[p]` is the block
/// of pair `p`, 0 for the empty block that every pair without a list
/// reads. A search's lists then lie together, so a copy (a search updated
/// from an ancestor's) is two contiguous copies and a clear a fill of the
/// index, where lists kept in place by pair cost as much again in scattered
/// reads and writes (a third of the solver's time on 8×8).
#[derive(Clone)]
struct Lists<C, const K: usize> {
    index: Vec<u32>,
    /// The blocks, the empty one first; a pair's block is made when its
    /// list is first written, and left behind when its pair is reset.
    blocks: Vec<List<C, K>>,
}

impl<C: Set, const K: usize> Lists<C, K> {
    fn new(pairs: usize) -> Self {
        Lists {
            index: vec![0; pairs],
            blocks: vec![List::EMPTY],
        }
    }

    /// Empties the list of pair `p`.
    fn reset(&mut self, p: usize) {
        self.index[p] = 0;
    }

    /// Empties every list.
    fn clear(&mut self) {
        self.index.fill(0);
        self.blocks.truncate(1);
    }

    /// Becomes a copy of `other`.
    fn copy_from(&mut self, other: &Self) {
        self.index.copy_from_slice(&other.index);
        self.blocks.clear();
        self.blocks.extend_from_slice(&other.blocks);
    }

    /// The lists updated for new stones, from `from`'s (this becoming a
    /// copy of them) or in place: the lists of the pairs `dropped`
    /// rejects are left out, and of the others' carriers those holding a
    /// cell of `gone`; those holding a cell of `own` go to `shrunk`
    /// (pair, carrier without those cells) in each list's order, the rest
    /// kept. One pass over the live blocks, which also compacts them.
    fn update(
        &mut self,
        from: Option<&Self>,
        dropped: impl Fn(usize) -> bool,
        gone: C,
        own: C,
        shrunk: &mut Vec<(usize, C)>,
    ) {
        let blocks = from.map_or(self.blocks.len(), |f| f.blocks.len());
        if from.is_some() {
            self.index.fill(0);
            self.blocks.truncate(1);
        }
        let mut w = 1;
        for b in 1..blocks {
            let (list, live) = match from {
                Some(f) => {
                    let list = f.blocks[b];
                    (list, f.index[list.pair as usize] as usize == b)
                }
                None => {
                    let list = self.blocks[b];
                    (list, self.index[list.pair as usize] as usize == b)
                }
            };
            let p = list.pair as usize;
            if !live {
                continue;
            }
            self.index[p] = 0;
            if dropped(p) {
                continue;
            }
            let mut kept = List::EMPTY;
            kept.pair = list.pair;
            for &c in list.items() {
                if c & gone != C::ZERO {
                    continue;
                }
                if c & own != C::ZERO {
                    shrunk.push((p, c & !own));
                    continue;
                }
                kept.c[kept.len as usize] = c;
                kept.len += 1;
            }
            if kept.len > 0 {
                self.index[p] = w as u32;
                if from.is_some() {
                    self.blocks.push(kept);
                } else {
                    self.blocks[w] = kept;
                }
                w += 1;
            }
        }
        self.blocks.truncate(w);
    }
}

impl<C, const K: usize> std::ops::Index<usize> for Lists<C, K> {
    type Output = List<C, K>;

    fn index(&self, p: usize) -> &List<C, K> {
        &self.blocks[self.index[p] as usize]
    }
}

impl<C: Set, const K: usize> std::ops::IndexMut<usize> for Lists<C, K> {
    /// Pair `p`'s list to write, its block made if it has none.
    fn index_mut(&mut self, p: usize) -> &mut List<C, K> {
        if self.index[p] == 0 {
            self.index[p] = self.blocks.len() as u32;
            let mut list = List::EMPTY;
            list.pair = p as u16;
            self.blocks.push(list);
        }
        &mut self.blocks[self.index[p] as usize]
    }
}

/// One colour's connections on one position, and the queue of those not
/// yet combined.
struct HSearch<C: Set, const P: usize> {
    full: Lists<C, MAX_FULL>,
    semi: Lists<C, MAX_SEMI>,
    /// Per point: the partners it may have a full / a semi with (a
    /// superset: a list may have emptied since).
    full_nb: [C::Points; P],
    semi_nb: [C::Points; P],
    /// Per point: whether it is a group (else an empty cell).
    group: [bool; P],
    /// Per point: its cell's bit when it is an empty cell, else 0.
    bit: [C; P],
    /// Per cell: its point (itself when empty, its group's when the
    /// colour's stone, [`NONE`] when the opponent's).
    point: [u8; P],
    /// Connections to combine: (x, y, carrier, full), from `next` on.
    queue: Vec<(u8, u8, C, bool)>,
    next: usize,
    /// The position: its side, colour and stones (by colour index).
    n: usize,
    color: Color,
    stones: [C; 2],
    /// The colour's two edges are one group: it has won.
    joined: bool,
    /// Per point: the cells captured once the colour plays there (an
    /// empty cell's two neighbours in front of a row of three own stones
    /// or an own edge; Benzene's captured set), else 0; 0 everywhere in
    /// [`Mode::Proof`].
    cap: [C; P],
    mode: Mode,
}

/// What a search is for, which sets how much it derives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    /// The solver's knowledge: the AND and OR rules on disjoint carriers,
    /// and the edge templates.
    Proof,
    /// Play (the searcher and its evaluation): besides, the captured sets
    /// of the endpoints (Benzene's `vc-captured-set`) may be shared by
    /// the carriers combined, as Wolve's connections do. More connections
    /// per search and a circuit closer to Wolve's; in the solver about
    /// half the nodes at twice the time a node on 8×8, so proofs go
    /// without unless asked (`param solve_play_knowledge`, which decides
    /// some hard 8×8 positions the proof's connections do not).
    Play,
}

impl<C: Set, const P: usize> HSearch<C, P> {
    fn new() -> Self {
        HSearch {
            full: Lists::new(P * (P - 1) / 2),
            semi: Lists::new(P * (P - 1) / 2),
            full_nb: [C::Points::ZERO; P],
            semi_nb: [C::Points::ZERO; P],
            group: [false; P],
            bit: [C::ZERO; P],
            point: [NONE; P],
            queue: Vec::new(),
            next: 0,
            n: 0,
            color: Color::Black,
            stones: [C::ZERO; 2],
            joined: false,
            cap: [C::ZERO; P],
            mode: Mode::Proof,
        }
    }

    /// Recomputes every point's captured set from the stones.
    fn compute_caps(&mut self) {
        if self.mode == Mode::Proof {
            self.cap = [C::ZERO; P];
            return;
        }
        let n = self.n as i32;
        let me = self.color.index();
        let all = self.stones[0] | self.stones[1];
        const DIRS: [(i32, i32); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];
        let black = self.color == Color::Black;
        let inside = |x: i32, y: i32| x >= 0 && y >= 0 && x < n && y < n;
        let own = |x: i32, y: i32| -> bool {
            if inside(x, y) {
                self.stones[me] & C::bit((y * n + x) as usize) != C::ZERO
            } else if black {
                (0..n).contains(&x)
            } else {
                (0..n).contains(&y)
            }
        };
        let empty = |x: i32, y: i32| inside(x, y) && all & C::bit((y * n + x) as usize) == C::ZERO;
        let mut cap = [C::ZERO; P];
        for py in 0..n {
            for px in 0..n {
                if !empty(px, py) {
                    continue;
                }
                for i in 0..6 {
                    let (a, b) = (DIRS[i], DIRS[(i + 1) % 6]);
                    let (q1, q2) = ((px + a.0, py + a.1), (px + b.0, py + b.1));
                    if empty(q1.0, q1.1)
                        && empty(q2.0, q2.1)
                        && own(px + 2 * a.0, py + 2 * a.1)
                        && own(px + a.0 + b.0, py + a.1 + b.1)
                        && own(px + 2 * b.0, py + 2 * b.1)
                    {
                        cap[(py * n + px) as usize] =
                            C::bit((q1.1 * n + q1.0) as usize) | C::bit((q2.1 * n + q2.0) as usize);
                        break;
                    }
                }
            }
        }
        self.cap = cap;
    }

    /// The two edge points.
    fn edges(&self) -> (usize, usize) {
        (self.n * self.n, self.n * self.n + 1)
    }

    /// Empties every list.
    fn clear(&mut self) {
        self.full.clear();
        self.semi.clear();
        self.full_nb = [C::Points::ZERO; P];
        self.semi_nb = [C::Points::ZERO; P];
        self.queue.clear();
        self.next = 0;
        self.joined = false;
    }

    fn add_full(&mut self, x: usize, y: usize, c: C) {
        if x == y {
            return;
        }
        if self.full[pair(x, y)].add(c) {
            self.full_nb[x] |= C::Points::bit(y);
            self.full_nb[y] |= C::Points::bit(x);
            self.queue.push((x as u8, y as u8, c, true));
        }
    }

    fn add_semi(&mut self, x: usize, y: usize, c: C) {
        if x == y {
            return;
        }
        let p = pair(x, y);
        if self.full[p].dominates(c) {
            return;
        }
        if !self.semi[p].add(c) {
            return;
        }
        self.semi_nb[x] |= C::Points::bit(y);
        self.semi_nb[y] |= C::Points::bit(x);
        self.queue.push((x as u8, y as u8, c, false));
        // OR: the complete search, then the greedy intersection of all. None
        // can give a full while the carriers of all the semis (`c` among
        // them) share a cell: every subset then shares it too.
        let s = self.semi[p].items();
        // The captured sets of the two ends may stay in every carrier.
        let mut capxy = self.cap[x] | self.cap[y];
        if (self.bit[x] | self.bit[y]) & capxy != C::ZERO {
            capxy = C::ZERO;
        }
        if s.iter().fold(C::ALL, |m, &a| m & a) & !capxy != C::ZERO {
            return;
        }
        let (pa, pb) = self.edges();
        let depth = if [pa, pb].contains(&x) || [pa, pb].contains(&y) {
            OR_DEPTH_EDGE
        } else {
            OR_DEPTH
        };
        let mut found = List::<C, OR_OUT>::EMPTY;
        Self::or_all(s, &self.full[p], (c, c), depth, capxy, &mut found);
        // The greedy pass reads the semis smallest first (a copy: adding
        // fulls below needs `self` whole; it leaves the semis as they are).
        let mut sorted = [C::ZERO; MAX_SEMI];
        let sorted = &mut sorted[..s.len()];
        sorted.copy_from_slice(s);
        sorted.sort_by_key(|a| a.count());
        for &u in found.items() {
            self.add_full(x, y, u);
        }
        let (mut inter, mut union) = (c, c);
        for &a in sorted.iter() {
            if inter & a != inter {
                inter &= a;
                union |= a;
                if inter & !capxy == C::ZERO {
                    self.add_full(x, y, with_captured(union, inter, capxy));
                    break;
                }
            }
        }
    }

    /// The complete OR (as Benzene's `VCOr`): sets of semis (carriers'
    /// intersection `inter`, union `union`) grown by up to `depth` more
    /// until the intersection is empty, or holds only cells of `capxy`
    /// (the ends' captured sets, then taken into the union); each union
    /// not dominated by one of `fulls` (the pair's) or by one found goes
    /// to `found`. A set with an empty intersection holds a semi without
    /// the intersection's cell chosen, so branching on those misses none.
    fn or_all(
        semis: &[C],
        fulls: &List<C, MAX_FULL>,
        (inter, union): (C, C),
        depth: usize,
        capxy: C,
        found: &mut List<C, OR_OUT>,
    ) {
        if inter & !capxy == C::ZERO {
            found.add(with_captured(union, inter, capxy));
            return;
        }
        if depth == 0 {
            return;
        }
        let mut best = (usize::MAX, C::ZERO);
        let mut bits = inter & !capxy;
        while bits != C::ZERO {
            let a = C::bit(bits.first());
            bits &= !a;
            let avoid = semis.iter().filter(|&&t| t & a == C::ZERO).count();
            if avoid < best.0 {
                best = (avoid, a);
            }
        }
        let a = best.1;
        for &t in semis.iter().filter(|&&t| t & a == C::ZERO) {
            let u = union | t;
            if fulls.dominates(u) || found.dominates(u) {
                continue;
            }
            Self::or_all(semis, fulls, (inter & t, u), depth - 1, capxy, found);
        }
    }

    /// Combines the connection (a, b, c) with those at its endpoints;
    /// returns false, doing nothing, when it is no longer kept (dropped
    /// since it was queued: a stale entry).
    fn process(&mut self, a: usize, b: usize, c: C, full: bool) -> bool {
        let p = pair(a, b);
        let present = if full {
            self.full[p].contains(c)
        } else {
            self.semi[p].contains(c)
        };
        if !present {
            return false;
        }
        let (pa, pb) = self.edges();
        for (mid, end) in [(a, b), (b, a)] {
            let group = self.group[mid];
            // Never through an edge (Benzene's `and_over_edge` off): it
            // joins the cells near an edge pairwise, a flood of
            // connections that tells nothing about joining the edges.
            if (!full && !group) || mid == pa || mid == pb {
                continue;
            }
            for y in points(self.full_nb[mid] & !C::Points::bit(end)) {
                // The lists of (mid, y) do not change below: only those
                // of (end, y) do.
                let q = pair(mid, y);
                let capset = self.cap[end] | self.cap[mid] | self.cap[y];
                for i in 0..self.full[q].len as usize {
                    let d = self.full[q].c[i];
                    let common = c & d;
                    if common != C::ZERO && (!full || common & !capset != C::ZERO) {
                        continue;
                    }
                    let u = with_captured(c | d, common, capset);
                    if (self.bit[end] | self.bit[y]) & u != C::ZERO {
                        continue;
                    }
                    if !full {
                        self.add_semi(end, y, u);
                    } else if group {
                        self.add_full(end, y, u);
                    } else {
                        self.add_semi(end, y, u | self.bit[mid]);
                    }
                }
            }
            if full && group {
                for y in points(self.semi_nb[mid] & !C::Points::bit(end)) {
                    let q = pair(mid, y);
                    for i in 0..self.semi[q].len as usize {
                        let s = self.semi[q].c[i];
                        if c & s == C::ZERO
                            && self.bit[end] & s == C::ZERO
                            && self.bit[y] & c == C::ZERO
                        {
                            self.add_semi(end, y, c | s);
                        }
                    }
                }
            }
        }
        true
    }

    /// Starts `color`'s search on `pos` from scratch: its points, the
    /// base connections, the edge templates and (in play) the ladders,
    /// queued.
    fn build(&mut self, pos: &Hex, color: Color, mode: Mode) {
        self.build_base(pos, color, mode);
        self.add_edge_templates(None);
        self.add_ladders();
    }

    /// [`build`](Self::build) without the edge templates and ladders: the
    /// points and the base connections only.
    fn build_base(&mut self, pos: &Hex, color: Color, mode: Mode) {
        self.clear();
        self.mode = mode;
        let geo = pos.geometry();
        let n = geo.n;
        let nc = n * n;
        self.n = n;
        self.color = color;
        self.stones = [
            C::narrow(carrier(pos.bits(Color::Black))),
            C::narrow(carrier(pos.bits(Color::White))),
        ];
        self.compute_caps();
        let (ea, eb) = edge_bits(color);
        let (pa, pb) = self.edges();
        self.group = [false; P];
        self.bit = [C::ZERO; P];
        self.point = [NONE; P];
        self.group[pa] = true;
        self.group[pb] = true;
        let mut stack = Vec::with_capacity(nc);
        for c in 0..nc {
            match pos.at(c as u16) {
                None => {
                    self.point[c] = c as u8;
                    self.bit[c] = C::bit(c);
                }
                Some(s) if s == color && self.point[c] == NONE => {
                    // Flood the chain; it is an edge's group if it touches
                    // the edge.
                    let mut cells = Vec::new();
                    let mut edges = 0u8;
                    self.point[c] = c as u8;
                    stack.push(c);
                    while let Some(q) = stack.pop() {
                        cells.push(q);
                        edges |= geo.edges[q];
                        for &r in geo.neighbours_of(q as u16) {
                            let r = r as usize;
                            if pos.at(r as u16) == Some(color) && self.point[r] == NONE {
                                self.point[r] = c as u8;
                                stack.push(r);
                            }
                        }
                    }
                    if edges & ea != 0 && edges & eb != 0 {
                        // Already joined (a set-up position).
                        self.joined = true;
                        return;
                    }
                    let id = if edges & ea != 0 {
                        pa
                    } else if edges & eb != 0 {
                        pb
                    } else {
                        c
                    };
                    self.group[id] = true;
                    for q in cells {
                        self.point[q] = id as u8;
                    }
                }
                Some(_) => {}
            }
        }
        // Base: adjacency.
        for c in 0..nc {
            if pos.at(c as u16).is_some() {
                continue;
            }
            for &q in geo.neighbours_of(c as u16) {
                let q = q as usize;
                if pos.at(q as u16).is_none() {
                    if q > c {
                        self.add_full(c, q, C::ZERO);
                    }
                } else if self.point[q] != NONE {
                    self.add_full(c, self.point[q] as usize, C::ZERO);
                }
            }
            if geo.edges[c] & ea != 0 {
                self.add_full(c, pa, C::ZERO);
            }
            if geo.edges[c] & eb != 0 {
                self.add_full(c, pb, C::ZERO);
            }
        }
    }

    /// The edge templates ([`edge_templates`], each with its mirror
    /// image, toward both edges; in both modes) whose stones are the
    /// colour's and whose carriers hold none of the opponent's stones, as
    /// fulls between their cell (empty, or one of the colour's groups) and
    /// the edge. When a search is built (`fresh` is `None`) every
    /// template is tried; an update keeps those whose carriers the
    /// opponent's new stones leave alone, so it tries only the templates
    /// with a stone among the colour's new ones (`fresh`).
    fn add_edge_templates(&mut self, fresh: Option<C>) {
        let n = self.n as i32;
        let (pa, pb) = self.edges();
        let black = self.color == Color::Black;
        let (own, theirs) = (
            self.stones[self.color.index()],
            self.stones[1 - self.color.index()],
        );
        for t in edge_templates() {
            if (fresh.is_some() && t.stones.is_empty()) || t.height as i32 > n {
                continue;
            }
            for mirror in [false, true] {
                for (edge, far) in [(pa, false), (pb, true)] {
                    let row = if far {
                        n - t.height as i32
                    } else {
                        t.height as i32 - 1
                    };
                    for along in 0..n {
                        let (ax, ay) = if black { (along, row) } else { (row, along) };
                        // The bit of the board cell at offset (dx, dy)
                        // from the anchor toward this edge, if on the board.
                        let place = |&(dx, dy): &(i8, i8)| {
                            let (dx, dy) = (dx as i32, dy as i32);
                            let dx = if mirror { -dx - dy } else { dx };
                            let (u, v) = if far { (dx, dy) } else { (-dx, -dy) };
                            let (x, y) = if black {
                                (ax + u, ay + v)
                            } else {
                                (ax + v, ay + u)
                            };
                            ((0..n).contains(&x) && (0..n).contains(&y))
                                .then(|| C::bit((y * n + x) as usize))
                        };
                        let mut stones = C::ZERO;
                        if !t.stones.iter().all(|s| {
                            place(s).is_some_and(|b| {
                                stones |= b;
                                b & own != C::ZERO
                            })
                        }) || fresh.is_some_and(|f| f & stones == C::ZERO)
                        {
                            continue;
                        }
                        let point = self.point[(ay * n + ax) as usize];
                        if point == NONE {
                            continue;
                        }
                        let mut carrier = C::ZERO;
                        let fits = t.cells.iter().all(|c| {
                            place(c).is_some_and(|b| {
                                carrier |= b;
                                b & theirs == C::ZERO
                            })
                        });
                        if fits {
                            self.add_full(point as usize, edge, carrier & !own);
                        }
                    }
                }
            }
        }
    }

    /// In [`Mode::Play`], the second-row ladders (see the module
    /// documentation): for each second-row point s₀ of the colour (an
    /// empty cell or one of its stones) and each direction along the row,
    /// with `b` the edge-row cell next to s₀ behind it, the empty cells
    /// s₁ … s_k₋₁ ahead on the second row and e₁ … e_k₋₁ on the edge row
    /// (eᵢ next to sᵢ and sᵢ₊₁), a second-row point s_k (k ≥ 2) and `f`,
    /// the edge-row cell next to s_k ahead, all empty: a full between s₀
    /// and s_k on those cells, and between s₀ and the edge when s_k is
    /// the colour's stone. The same from a third-row point t whose two
    /// second-row neighbours, `l` behind and s₀ ahead, are empty, with
    /// e₀ and the edge-row cell `a` behind `l` empty too (k ≥ 1; the
    /// carrier takes `l`, s₀, `a` and e₀ besides); from an empty t, an
    /// empty s_k only at k = 1.
    fn add_ladders(&mut self) {
        let n = self.n;
        if self.mode != Mode::Play || n < 4 {
            return;
        }
        let (pa, pb) = self.edges();
        for (edge, near) in [(pa, true), (pb, false)] {
            let row = LadderRow {
                n,
                black: self.color == Color::Black,
                edge,
                near,
            };
            let all = self.stones[0] | self.stones[1];
            let empty = |c: Option<C>| c.filter(|&c| all & c == C::ZERO);
            for u in 0..n as isize {
                for dir in [1isize, -1] {
                    // From a second-row point s₀ = u: `b` and s₁ empty.
                    let start = self.point[row.second(u).expect("on the row")];
                    if start != NONE
                        && let (Some(b), Some(s1)) = (
                            empty(row.between(u.min(u - dir))),
                            empty(row.second(u + dir).map(C::bit)),
                        )
                    {
                        self.ladder_walk(&row, start as usize, u + dir, dir, b | s1, usize::MAX);
                    }
                    // From a third-row point t = u: its second-row
                    // neighbours l and s₀ (ahead), then `a` behind l, `b`
                    // between them and e₀ ahead, all empty.
                    let Some(t) = row.third(u) else { continue };
                    let start = self.point[t];
                    let s0 = u + if row.near {
                        (dir + 1) / 2
                    } else {
                        (dir - 1) / 2
                    };
                    let l = s0 - dir;
                    let cells = [
                        row.second(l).map(C::bit),
                        row.second(s0).map(C::bit),
                        row.between(l.min(l - dir)),
                        row.between(l.min(s0)),
                        row.between(s0.min(s0 + dir)),
                    ];
                    if start != NONE && cells.iter().all(|&c| empty(c).is_some()) {
                        let carrier = cells.iter().fold(C::ZERO, |c, x| c | x.unwrap_or(C::ZERO));
                        // From an empty t, only the nearest empty end:
                        // the longer ones cost more than they decide.
                        let reach = if self.group[start as usize] {
                            usize::MAX
                        } else {
                            1
                        };
                        self.ladder_walk(&row, start as usize, s0, dir, carrier, reach);
                    }
                }
            }
        }
    }

    /// Walks a ladder of [`add_ladders`](Self::add_ladders) along the
    /// second row in direction `dir` from place `u` (reached: the chain's
    /// cells so far are in `carrier`, every one from `start` up to `u`):
    /// each place ahead whose edge-row cell between it and the last one
    /// is empty is an end s_k, a full from `start` when its edge-row cell
    /// ahead (`f`) is empty (an empty end only within `reach` places of
    /// `u`; an end that is the colour's stone at any distance); the walk
    /// goes on past empty places.
    fn ladder_walk(
        &mut self,
        row: &LadderRow,
        start: usize,
        mut u: isize,
        dir: isize,
        mut carrier: C,
        reach: usize,
    ) {
        let all = self.stones[0] | self.stones[1];
        let theirs = self.stones[1 - self.color.index()];
        let from = u;
        while let Some(s) = row.second(u + dir) {
            let next = u + dir;
            let e = row
                .between(u.min(next))
                .expect("between two cells of the row");
            if all & e != C::ZERO || theirs & C::bit(s) != C::ZERO {
                break;
            }
            carrier |= e;
            if let Some(f) = row
                .between(next.min(next + dir))
                .filter(|&f| all & f == C::ZERO)
            {
                let end = self.point[s] as usize;
                if self.group[end] || next.abs_diff(from) <= reach {
                    self.add_full(start, end, carrier | f);
                }
                if self.group[end] {
                    self.add_full(start, row.edge, carrier | f);
                }
            }
            if all & C::bit(s) != C::ZERO {
                break;
            }
            carrier |= C::bit(s);
            u = next;
        }
    }

    /// Removes every connection of point `x` with `y` (only the lengths
    /// are reset: copying the lists out was a twentieth of the solver's
    /// time).
    fn drop_pair(&mut self, x: usize, y: usize) {
        let p = pair(x, y);
        self.full.reset(p);
        self.semi.reset(p);
        for (a, b) in [(x, y), (y, x)] {
            self.full_nb[a] &= !C::Points::bit(b);
            self.semi_nb[a] &= !C::Points::bit(b);
        }
    }

    /// Every (x, y) with x < y that may have connections.
    fn pairs(&self) -> Vec<(usize, usize)> {
        let mut all = Vec::new();
        for x in 0..P {
            for y in points((self.full_nb[x] | self.semi_nb[x]).above(x)) {
                all.push((x, y));
            }
        }
        all
    }

    /// Updates the search to `pos`, whose stones include the search's
    /// (see the module documentation), and queues what is new before
    /// what was left unprocessed.
    #[cfg(test)]
    fn extend(&mut self, pos: &Hex) {
        self.update(None, pos);
    }

    /// Becomes the search `from` (of a position `pos` extends) updated to
    /// `pos`, as a copy then [`extend`](Self::extend) would, with the
    /// lists copied and updated in one pass.
    fn copy_extending(&mut self, from: &Self, pos: &Hex) {
        self.full_nb = from.full_nb;
        self.semi_nb = from.semi_nb;
        self.group = from.group;
        self.bit = from.bit;
        self.point = from.point;
        self.queue.clear();
        self.queue.extend_from_slice(&from.queue[from.next..]);
        self.next = 0;
        self.n = from.n;
        self.color = from.color;
        self.stones = from.stones;
        self.joined = from.joined;
        self.cap = from.cap;
        self.mode = from.mode;
        self.update(Some(from), pos);
    }

    /// [`extend`](Self::extend), the lists read from `from` when given
    /// (whose other fields this search holds already), else its own.
    fn update(&mut self, from: Option<&Self>, pos: &Hex) {
        let stones = [
            C::narrow(carrier(pos.bits(Color::Black))),
            C::narrow(carrier(pos.bits(Color::White))),
        ];
        let me = self.color.index();
        let them = 1 - me;
        let added = [
            stones[me] & !self.stones[me],
            stones[them] & !self.stones[them],
        ];
        self.stones = stones;
        if self.joined || added[0] | added[1] == C::ZERO {
            if let Some(from) = from {
                self.full.copy_from(&from.full);
                self.semi.copy_from(&from.semi);
            }
            return;
        }
        self.compute_caps();
        let left = self.queue.split_off(self.next);
        self.queue.clear();
        self.next = 0;
        let gone = added[1];
        let own = added[0];
        // The carriers holding the opponent's new stones go, with every
        // list of their cells (no longer points); own stones leave the
        // carriers: taken out, and added back shrunk below (they may
        // dominate others now), in the order of the pairs (x, y) and
        // fulls first, as the lists are.
        let nc = self.n * self.n;
        let dropped = |p: usize| {
            if gone == C::ZERO {
                return false;
            }
            let (x, y) = unpair(p);
            (x < nc && gone & C::bit(x) != C::ZERO) || (y < nc && gone & C::bit(y) != C::ZERO)
        };
        let mut shrunk_full = Vec::new();
        let mut shrunk_semi = Vec::new();
        self.full
            .update(from.map(|f| &f.full), dropped, gone, own, &mut shrunk_full);
        self.semi
            .update(from.map(|f| &f.semi), dropped, gone, own, &mut shrunk_semi);
        let mut shrunk: Vec<(usize, usize, bool, C)> = shrunk_full
            .into_iter()
            .map(|(p, c)| (p, true, c))
            .chain(shrunk_semi.into_iter().map(|(p, c)| (p, false, c)))
            .map(|(p, full, c)| {
                let (x, y) = unpair(p);
                (x, y, full, c)
            })
            .collect();
        shrunk.sort_by_key(|&(x, y, full, _)| (x, y, !full));
        // The opponent's stones: their cells stop being points.
        let mut cells = added[1];
        while cells != C::ZERO {
            let q = cells.first();
            cells &= !C::bit(q);
            for y in points(self.full_nb[q] | self.semi_nb[q]) {
                self.drop_pair(q, y);
            }
            self.point[q] = NONE;
            self.bit[q] = C::ZERO;
        }
        for (x, y, full, c) in shrunk {
            if full {
                self.add_full(x, y, c);
            } else {
                self.add_semi(x, y, c);
            }
        }
        let mut cells = own;
        while cells != C::ZERO && !self.joined {
            let q = cells.first();
            cells &= !C::bit(q);
            self.join(pos, q);
        }
        if !self.joined {
            self.add_edge_templates(Some(own));
            self.add_ladders();
        }
        self.queue.extend(left);
    }

    /// The colour's new stone on cell `q` (already out of every carrier)
    /// joins the groups it touches into one point.
    fn join(&mut self, pos: &Hex, q: usize) {
        let geo = pos.geometry();
        let (ea, eb) = edge_bits(self.color);
        let (pa, pb) = self.edges();
        let mut members = vec![self.point[q] as usize];
        for &r in geo.neighbours_of(q as u16) {
            let r = r as usize;
            if self.stones[self.color.index()] & C::bit(r) != C::ZERO {
                members.push(self.point[r] as usize);
            }
        }
        if geo.edges[q] & ea != 0 {
            members.push(pa);
        }
        if geo.edges[q] & eb != 0 {
            members.push(pb);
        }
        members.sort_unstable();
        members.dedup();
        if members.contains(&pa) && members.contains(&pb) {
            self.joined = true;
            return;
        }
        let rep = if members.contains(&pa) {
            pa
        } else if members.contains(&pb) {
            pb
        } else {
            members
                .iter()
                .copied()
                .find(|&m| self.group[m])
                .unwrap_or(members[0])
        };
        let was_group = self.group[rep];
        for &m in &members {
            if m == rep {
                continue;
            }
            for y in points(self.full_nb[m] | self.semi_nb[m]) {
                if !members.contains(&y) {
                    // Handed over to `rep` (a pair of its own: `y` is no
                    // member, so not `rep`), then dropped.
                    let p = pair(m, y);
                    for i in 0..self.full[p].len as usize {
                        let c = self.full[p].c[i];
                        self.add_full(rep, y, c);
                    }
                    for i in 0..self.semi[p].len as usize {
                        let c = self.semi[p].c[i];
                        self.add_semi(rep, y, c);
                    }
                }
                self.drop_pair(m, y);
            }
            self.group[m] = false;
            self.bit[m] = C::ZERO;
            let nc = self.n * self.n;
            for cell in 0..nc {
                if self.point[cell] as usize == m {
                    self.point[cell] = rep as u8;
                }
            }
        }
        self.point[q] = rep as u8;
        self.group[rep] = true;
        self.bit[rep] = C::ZERO;
        if !was_group {
            // An empty cell became a group: everything through it is new.
            for y in points(self.full_nb[rep] | self.semi_nb[rep]) {
                let p = pair(rep, y);
                for &c in self.full[p].items() {
                    self.queue.push((rep as u8, y as u8, c, true));
                }
                for &c in self.semi[p].items() {
                    self.queue.push((rep as u8, y as u8, c, false));
                }
            }
        }
    }

    /// Combines queued connections, at most [`WORK_LIMIT`], until the
    /// edges have a full connection (or a first semi when `stop_at_semi`:
    /// then it answers false, the search not complete).
    fn run(&mut self, stop_at_semi: bool) -> bool {
        if self.joined {
            return true;
        }
        let (pa, pb) = self.edges();
        let p = pair(pa, pb);
        let mut work = 0;
        while self.next < self.queue.len() && work < WORK_LIMIT {
            if self.full[p].len > 0 {
                break;
            }
            if stop_at_semi && self.semi[p].len > 0 {
                return false;
            }
            let (a, b, c, full) = self.queue[self.next];
            self.next += 1;
            // Stale entries cost a lookup, not a combination: not counted.
            work += self.process(a as usize, b as usize, c, full) as usize;
        }
        true
    }

    /// What the colour has between its edges.
    fn summary(&self, complete: bool) -> Side {
        if self.joined {
            return Side {
                full: true,
                semi: true,
                must: Carrier::ZERO,
                complete: true,
            };
        }
        let (pa, pb) = self.edges();
        let p = pair(pa, pb);
        let (f, s) = (self.full[p], self.semi[p]);
        let must = if f.len + s.len == 0 {
            Carrier::ALL
        } else {
            f.items()
                .iter()
                .chain(s.items())
                .fold(C::ALL, |m, &c| m & c)
                .wide()
        };
        Side {
            full: f.len > 0,
            semi: s.len > 0,
            must,
            complete,
        }
    }
}

impl<C: Set, const P: usize> HSearch<C, P> {
    /// The carriers of the fulls between the points of `a` and `b` (see
    /// [`full_carriers`]); none when either is no point of the colour or
    /// both are the same.
    fn full_carriers(&self, a: usize, b: usize, out: &mut Vec<Carrier>) {
        let nc = self.n * self.n;
        let point = |x: usize| if x < nc { self.point[x] as usize } else { x };
        let (pa, pb) = (point(a), point(b));
        if self.joined || pa == pb || pa == NONE as usize || pb == NONE as usize {
            return;
        }
        out.extend(self.full[pair(pa, pb)].items().iter().map(|c| c.wide()));
    }

    /// The points and full connections, for a circuit (see [`Links`]).
    fn links(&self, out: &mut Links) {
        let nc = self.n * self.n;
        out.joined = self.joined;
        out.point.clear();
        out.point.extend_from_slice(&self.point[..nc]);
        out.group.clear();
        out.group.extend_from_slice(&self.group[..nc + 2]);
        out.fulls.clear();
        if self.joined {
            return;
        }
        for (x, y) in self.pairs() {
            let list = self.full[pair(x, y)];
            if list.len == 0 {
                continue;
            }
            let common = list.items().iter().fold(C::ALL, |m, &c| m & c);
            let size = 1 + common.count().min(254);
            out.fulls.push((x as u8, y as u8, size as u8));
        }
    }
}

/// One colour's virtual connections as a circuit reads them (Benzene's
/// adjacency graph for its resistance): the points and, for each pair of
/// points with a full connection, how many cells every one of its fulls
/// needs.
#[derive(Clone, Debug, Default)]
pub(super) struct Links {
    /// Per cell: its point (the cell itself when empty, its group's point
    /// when the colour's stone: `n²` and `n² + 1` for the chains on the
    /// first and the second edge), `u8::MAX` when the opponent's.
    pub(super) point: Vec<u8>,
    /// Per point (cells, then the two edges): whether it is a group.
    pub(super) group: Vec<bool>,
    /// `(x, y, size)`, `x < y`: points with a full connection, `size` one
    /// more than the cells common to all its carriers (1: adjacent).
    pub(super) fulls: Vec<(u8, u8, u8)>,
    /// The colour's two edges are one group already.
    pub(super) joined: bool,
}

/// Evaluates `$body` with `$searches` the [`Scratch`] `$s`'s two colours'
/// searches (made when first needed) of the word that holds a board of
/// side `$n`, and `$keep` how many of them it keeps.
macro_rules! by_word {
    ($s:expr, $n:expr, |$searches:ident, $keep:ident| $body:expr) => {
        if $n <= SMALL_SIZE {
            let $searches = $s
                .small
                .get_or_insert_with(|| [Searches::new(), Searches::new()]);
            let $keep = SMALL_LEVELS;
            $body
        } else if $n <= LARGE_SIZE {
            let $searches = $s
                .large
                .get_or_insert_with(|| [Searches::new(), Searches::new()]);
            let $keep = LARGE_LEVELS;
            $body
        } else {
            let $searches = $s
                .huge
                .get_or_insert_with(|| [Searches::new(), Searches::new()]);
            let $keep = HUGE_LEVELS;
            $body
        }
    };
}

/// The full connections of `color` on `pos` (not over, on a board of at
/// most [`MAX_VC_SIZE`]), from a complete search: the kept one if there
/// is one, else one updated or built and kept.
pub(super) fn links(pos: &Hex, color: Color, out: &mut Links) {
    with_complete(pos, color, Mode::Play, |s| s.links(out));
}

/// The carriers of the full connections of `color` on `pos` between the
/// points of `a` and `b` (each a cell holding one of the colour's stones,
/// for its group, or `n²` and `n² + 1` for the colour's first and second
/// edge, as [`edge_bits`] orders them), from a complete search as `mode`
/// derives it (kept, or updated or built); `out` is cleared first.
pub(super) fn full_carriers(
    pos: &Hex,
    color: Color,
    mode: Mode,
    (a, b): (usize, usize),
    out: &mut Vec<Carrier>,
) {
    out.clear();
    with_complete(pos, color, mode, |s| s.full_carriers(a, b, out));
}

/// What is read from a complete search, whatever its word.
trait Complete {
    fn links(&self, out: &mut Links);
    fn full_carriers(&self, a: usize, b: usize, out: &mut Vec<Carrier>);
}

impl<C: Set, const P: usize> Complete for HSearch<C, P> {
    fn links(&self, out: &mut Links) {
        HSearch::links(self, out);
    }
    fn full_carriers(&self, a: usize, b: usize, out: &mut Vec<Carrier>) {
        HSearch::full_carriers(self, a, b, out);
    }
}

/// Runs `f` on the complete search of `color` on `pos` as `mode` derives
/// it: the kept one, else one updated or built and kept.
fn with_complete(pos: &Hex, color: Color, mode: Mode, f: impl FnOnce(&dyn Complete)) {
    fn go<C: Set, const P: usize>(
        searches: &mut Searches<C, P>,
        pos: &Hex,
        (color, mode): (Color, Mode),
        keep: usize,
        f: impl FnOnce(&dyn Complete),
    ) {
        if let Some(i) = searches.complete(pos, color, mode, keep) {
            f(&*searches.slots[i]);
        }
    }
    let n = pos.geometry().n;
    SCRATCH.with(|s| {
        let mut s = s.borrow_mut();
        let s = s.get_or_insert_with(Scratch::new);
        let k = color.index();
        by_word!(s, n, |searches, keep| go(
            &mut searches[k],
            pos,
            (color, mode),
            keep,
            f
        ))
    })
}

/// One colour's searches of the positions asked about last, the least
/// recently used making room for a new one.
struct Searches<C: Set, const P: usize> {
    slots: Vec<Box<HSearch<C, P>>>,
    /// When each slot was last used.
    used: Vec<u64>,
    clock: u64,
}

impl<C: Set, const P: usize> Searches<C, P> {
    fn new() -> Self {
        Searches {
            slots: Vec::new(),
            used: Vec::new(),
            clock: 0,
        }
    }

    /// The stones of `pos` as this word's sets.
    fn stones(pos: &Hex) -> [C; 2] {
        [
            C::narrow(carrier(pos.bits(Color::Black))),
            C::narrow(carrier(pos.bits(Color::White))),
        ]
    }

    /// Marks every kept search unusable (a side of 0 matches no position);
    /// the slots are reused as if new.
    fn forget(&mut self) {
        self.slots.iter_mut().for_each(|s| s.n = 0);
        self.used.iter_mut().for_each(|u| *u = 0);
        self.clock = 0;
    }

    /// The slot of a complete `mode` search of `color` on `pos`: the kept
    /// one, else one updated or built (at most `keep` kept).
    fn complete(&mut self, pos: &Hex, color: Color, mode: Mode, keep: usize) -> Option<usize> {
        if self.exact(pos, color, mode, false).is_none() {
            self.search(pos, color, mode, false, keep);
        }
        self.slot_of(pos, color, mode)
    }

    /// The slot of the search kept for exactly `pos`, if there is one.
    fn slot_of(&self, pos: &Hex, color: Color, mode: Mode) -> Option<usize> {
        let stones = Self::stones(pos);
        let n = pos.geometry().n;
        (0..self.slots.len()).find(|&i| {
            let s = &self.slots[i];
            s.n == n && s.color == color && s.mode == mode && s.stones == stones
        })
    }

    /// The search kept for exactly `pos`, carried on as `stop_at_semi`
    /// asks, if there is one.
    fn exact(&mut self, pos: &Hex, color: Color, mode: Mode, stop_at_semi: bool) -> Option<Side> {
        let i = self.slot_of(pos, color, mode)?;
        self.clock += 1;
        self.used[i] = self.clock;
        let complete = self.slots[i].run(stop_at_semi);
        Some(self.slots[i].summary(complete))
    }

    /// The connections of `color` on `pos`, not kept yet: updated from the
    /// kept search of the most stones that `pos` extends, else from
    /// scratch; at most `keep` (at least 2) searches are kept.
    fn search(
        &mut self,
        pos: &Hex,
        color: Color,
        mode: Mode,
        stop_at_semi: bool,
        keep: usize,
    ) -> Side {
        let stones = Self::stones(pos);
        let n = pos.geometry().n;
        let extends: Vec<bool> = self
            .slots
            .iter()
            .map(|s| {
                s.n == n
                    && s.color == color
                    && s.mode == mode
                    && (0..2).all(|k| s.stones[k] & !stones[k] == C::ZERO)
            })
            .collect();
        let count = |s: &HSearch<C, P>| (s.stones[0] | s.stones[1]).count();
        let ancestor = (0..self.slots.len())
            .filter(|&i| extends[i])
            .max_by_key(|&i| count(&self.slots[i]));
        // The room: the least recently used search that `pos` does not
        // extend (the ancestors are likely the path to `pos`, to be met
        // again), else the ancestor of the fewest stones.
        let slot = if self.slots.len() < keep {
            self.slots.push(Box::new(HSearch::new()));
            self.used.push(0);
            self.slots.len() - 1
        } else {
            (0..self.slots.len())
                .filter(|&i| !extends[i])
                .min_by_key(|&i| self.used[i])
                .or_else(|| {
                    (0..self.slots.len())
                        .filter(|&i| Some(i) != ancestor)
                        .min_by_key(|&i| count(&self.slots[i]))
                })
                .unwrap_or(0)
        };
        match ancestor {
            Some(a) => {
                let (from, to) = if a < slot {
                    let (lo, hi) = self.slots.split_at_mut(slot);
                    (&lo[a], &mut hi[0])
                } else {
                    let (lo, hi) = self.slots.split_at_mut(a);
                    (&hi[0], &mut lo[slot])
                };
                to.copy_extending(from, pos);
                COUNTS.with(|c| c.borrow_mut().updated += 1);
            }
            None => {
                self.slots[slot].build(pos, color, mode);
                COUNTS.with(|c| c.borrow_mut().built += 1);
            }
        }
        self.clock += 1;
        self.used[slot] = self.clock;
        let top = &mut self.slots[slot];
        let complete = top.run(stop_at_semi);
        top.summary(complete)
    }
}

/// A cached summary, keyed by the exact stones and the colour.
#[derive(Clone, Copy)]
struct CacheEntry {
    n: u8,
    color: Color,
    mode: Mode,
    stones: [Carrier; 2],
    side: Side,
}

struct Scratch {
    /// Each colour's searches on boards up to [`SMALL_SIZE`], up to
    /// [`LARGE_SIZE`], and on the larger ones (each made when first
    /// needed).
    small: Option<[Searches<u64, SMALL_POINTS>; 2]>,
    large: Option<[Searches<u128, LARGE_POINTS>; 2]>,
    huge: Option<[Searches<Wide, HUGE_POINTS>; 2]>,
    cache: Vec<Option<CacheEntry>>,
}

/// How this thread's searches began (see [`search_counts`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchCounts {
    /// Searches started from scratch.
    pub built: u64,
    /// Searches updated from an ancestor position's.
    pub updated: u64,
}

impl Scratch {
    fn new() -> Self {
        Scratch {
            small: None,
            large: None,
            huge: None,
            cache: vec![None; CACHE_SIZE],
        }
    }
}

thread_local! {
    static COUNTS: RefCell<SearchCounts> = const {
        RefCell::new(SearchCounts { built: 0, updated: 0 })
    };
    static SCRATCH: RefCell<Option<Scratch>> = const { RefCell::new(None) };
}

/// The connections of `color` on `pos` (not over, on a board of at most
/// [`MAX_VC_SIZE`]) as `mode` derives them; `to_move`: `color` moves, so
/// a first semi is enough.
pub(super) fn side(pos: &Hex, color: Color, mode: Mode, to_move: bool) -> Side {
    let n = pos.geometry().n;
    let stones = [
        carrier(pos.bits(Color::Black)),
        carrier(pos.bits(Color::White)),
    ];
    let fold = |c: Carrier| c.0[0] ^ c.0[1].rotate_left(17) ^ c.0[2].rotate_left(41);
    let mix = fold(stones[0]).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ fold(stones[1])
            .wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            .rotate_left(29)
        ^ (n as u64) << 7
        ^ (mode as u64) << 1
        ^ color.index() as u64;
    let index = (mix ^ mix >> 31) as usize & (CACHE_SIZE - 1);
    SCRATCH.with(|s| {
        let mut s = s.borrow_mut();
        let s = s.get_or_insert_with(Scratch::new);
        let k = color.index();
        let key = CacheEntry {
            n: n as u8,
            color,
            mode,
            stones,
            side: NO_SIDE,
        };
        let cache = &mut s.cache[index];
        by_word!(s, n, |searches, keep| ask(
            &mut searches[k],
            cache,
            key,
            pos,
            to_move,
            keep
        ))
    })
}

/// A summary with nothing found (a cache key's placeholder).
const NO_SIDE: Side = Side {
    full: false,
    semi: false,
    must: Carrier::ALL,
    complete: false,
};

/// The connections of `key.color` on `pos`: the search kept for exactly
/// `pos`, else the cached summary (`cached`, if it is `key`'s), else a
/// new search (kept, at most `keep`; its summary cached).
fn ask<C: Set, const P: usize>(
    searches: &mut Searches<C, P>,
    cached: &mut Option<CacheEntry>,
    key: CacheEntry,
    pos: &Hex,
    to_move: bool,
    keep: usize,
) -> Side {
    if let Some(side) = searches.exact(pos, key.color, key.mode, to_move) {
        return side;
    }
    if let Some(e) = cached
        && e.n == key.n
        && e.color == key.color
        && e.mode == key.mode
        && e.stones == key.stones
        && (to_move || e.side.complete)
    {
        return e.side;
    }
    let side = searches.search(pos, key.color, key.mode, to_move, keep);
    *cached = Some(CacheEntry { side, ..key });
    side
}

/// Forgets this thread's kept searches and cached summaries (keeping
/// their memory): the next question starts from scratch, as in a new
/// thread.
pub(super) fn forget() {
    SCRATCH.with(|s| {
        if let Some(s) = s.borrow_mut().as_mut() {
            s.cache.iter_mut().for_each(|e| *e = None);
            if let Some(small) = s.small.as_mut() {
                small.iter_mut().for_each(Searches::forget);
            }
            if let Some(large) = s.large.as_mut() {
                large.iter_mut().for_each(Searches::forget);
            }
            if let Some(huge) = s.huge.as_mut() {
                huge.iter_mut().for_each(Searches::forget);
            }
        }
    })
}

/// How many connection searches this thread has started from scratch and
/// how many it has updated from an ancestor's (a summary answered from
/// the cache counts in neither): what the tests and the timing runs read
/// to see the incremental update at work.
pub fn search_counts() -> SearchCounts {
    COUNTS.with(|c| *c.borrow())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::hex::board::HexMove;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    /// [`Wide`]'s operations against `u128`'s on sets within 128 cells,
    /// and its cells above 128 by hand.
    #[test]
    fn wide_sets_agree_with_u128() {
        let mut rng = SmallRng::seed_from_u64(5);
        for _ in 0..2000 {
            let a: u128 = rng.random::<u128>() & rng.random::<u128>();
            let b: u128 = rng.random::<u128>() | rng.random::<u128>();
            let (wa, wb) = (a.wide(), b.wide());
            assert_eq!(u128::narrow(wa & wb), a & b);
            assert_eq!(u128::narrow(wa | wb), a | b);
            assert_eq!(u128::narrow(!wa), !a);
            assert_eq!(wa.count(), a.count());
            if a != 0 {
                assert_eq!(wa.first(), a.first());
            }
            let i = rng.random_range(0..128);
            assert_eq!(u128::narrow(wa.above(i)), a.above(i), "{a:x} {i}");
            assert_eq!(Wide::bit(i), u128::bit(i).wide());
            assert_eq!(wa.has(i), a & (1 << i) != 0);
        }
        let w = Wide::bit(170) | Wide::bit(64) | Wide::bit(3);
        assert_eq!(w.count(), 3);
        assert_eq!(w.first(), 3);
        assert_eq!(w.above(3).first(), 64);
        assert_eq!(w.above(64).first(), 170);
        assert_eq!(w.above(170), Wide::ZERO);
        assert_eq!(Wide::ALL.above(191), Wide::ZERO);
        assert!(w.has(170) && !w.has(169) && !w.has(500));
        assert_eq!(points(w).collect::<Vec<_>>(), [3, 64, 170]);
    }

    /// A search's summary and links, from scratch or updated along a game.
    fn seen<C: Set, const P: usize>(
        s: &mut HSearch<C, P>,
        pos: &Hex,
        color: Color,
        mode: Mode,
        update: bool,
    ) -> (Side, Vec<(u8, u8, u8)>) {
        if update {
            s.extend(pos);
        } else {
            s.build(pos, color, mode);
        }
        let complete = s.run(false);
        let mut links = Links::default();
        s.links(&mut links);
        (s.summary(complete), links.fulls)
    }

    /// The same search on the three carrier words (`u64`, `u128`,
    /// [`Wide`]) finds the same connections, from scratch and updated
    /// along random games: the wider words change nothing but the board
    /// sizes they hold.
    #[test]
    fn searches_agree_across_words() {
        let mut rng = SmallRng::seed_from_u64(9);
        let mut small = Box::new(HSearch::<u64, SMALL_POINTS>::new());
        let mut large = Box::new(HSearch::<u128, LARGE_POINTS>::new());
        let mut huge = Box::new(HSearch::<Wide, HUGE_POINTS>::new());
        for game in 0..12 {
            let n = 4 + game % 5;
            // Both modes: games 2 and 3 of every four with captured sets.
            let mode = if game % 4 < 2 {
                Mode::Proof
            } else {
                Mode::Play
            };
            let color = if game % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let mut pos = Hex::new(n).expect("board");
            pos.set_swap(false);
            let mut moves = Vec::new();
            let mut first = true;
            while pos.outcome().is_none() {
                let update = !first && rng.random_range(0..3) > 0;
                let a = seen(&mut small, &pos, color, mode, update);
                let b = seen(&mut large, &pos, color, mode, update);
                let c = seen(&mut huge, &pos, color, mode, update);
                assert_eq!(a, b, "{n}x{n}");
                assert_eq!(b, c, "{n}x{n}");
                first = false;
                moves.clear();
                pos.legal_moves(&mut moves);
                moves.retain(|&m| m != HexMove::Swap);
                pos.play(moves[rng.random_range(0..moves.len())]);
            }
        }
    }

    /// The full connections' carriers of points `x` and `y`.
    fn fulls_of<C: Set, const P: usize>(s: &HSearch<C, P>, x: usize, y: usize) -> Vec<C> {
        s.full[pair(x, y)].items().to_vec()
    }

    /// Ladders in play, on 8×8: from the second row, Black b7 (its other
    /// edge-row cell b8 White's) and the empty e7 are joined on a8 c7 d7
    /// c8 d8 e8 (along the seventh row, or both to the bottom edge); from
    /// the third row, the empty d6 and e7 on c7 d7 b8 c8 d8 e8, and Black
    /// d6 and the empty f7 on c7 d7 e7 b8 c8 d8 e8 f8 (d7 or c7 first,
    /// then along the row or to the edge). The AND and OR rules alone
    /// find none of them (they join nothing through an edge).
    #[test]
    fn ladders_join_in_play() {
        use crate::game::Notation;
        let cases: [([&str; 2], &str, &str, &[&str]); 3] = [
            (
                ["b7", "b8"],
                "b7",
                "e7",
                &["a8", "c7", "d7", "c8", "d8", "e8"],
            ),
            (
                ["a1", "h1"],
                "d6",
                "e7",
                &["c7", "d7", "b8", "c8", "d8", "e8"],
            ),
            (
                ["d6", "a1"],
                "d6",
                "f7",
                &["c7", "d7", "e7", "b8", "c8", "d8", "e8", "f8"],
            ),
        ];
        for (moves, from, to, cells) in cases {
            let mut pos = Hex::new(8).expect("board");
            pos.set_swap(false);
            for m in moves {
                let mv = pos.parse_move(m).expect("legal");
                pos.play(mv);
            }
            let cell = |name: &str| pos.geometry().parse_cell(name).expect("a cell") as usize;
            let carrier = cells.iter().fold(0, |c, name| c | 1u64 << cell(name));
            let mut s = Box::new(HSearch::<u64, SMALL_POINTS>::new());
            for (mode, found) in [(Mode::Play, true), (Mode::Proof, false)] {
                s.build(&pos, Color::Black, mode);
                s.run(false);
                let start = s.point[cell(from)] as usize;
                let fulls = fulls_of(&s, start, cell(to));
                assert_eq!(
                    fulls.contains(&carrier),
                    found,
                    "{from} {mode:?}: {fulls:x?}"
                );
            }
        }
    }

    /// Every edge template is placed (in both modes), with Black's
    /// stones on its cell and its stones at the bottom of 11×11 (as far
    /// left as it fits; White's stones in the far corner): its carrier joins the
    /// cell to the edge when the search is built on that position, and
    /// when it is updated to it from the position before the last of the
    /// template's stones (the rules alone find most of them in neither).
    #[test]
    fn every_edge_template_is_placed_when_built_and_updated() {
        use crate::game::Notation;
        let n = 11;
        for t in edge_templates() {
            let left = t.cells.iter().chain(&t.stones).map(|c| c.0 as i32);
            let (ex, ey) = (-left.min().unwrap_or(0).min(0), n - t.height as i32);
            let cell = |(dx, dy): (i8, i8)| ((ey + dy as i32) * n + ex + dx as i32) as usize;
            let mut blacks = vec![cell((0, 0))];
            blacks.extend(t.stones.iter().map(|&d| cell(d)));
            let board = |blacks: &[usize]| {
                let mut pos = Hex::new(n as usize).expect("board");
                pos.set_swap(false);
                for (i, &b) in blacks.iter().enumerate() {
                    pos.play(HexMove::Place(b as u16));
                    let white = ["k1", "k2", "j1", "j2"][i];
                    let mv = pos.parse_move(white).expect("legal");
                    pos.play(mv);
                }
                pos
            };
            let carrier = t.cells.iter().fold(0u128, |c, &d| c | 1 << cell(d));
            let found = |s: &HSearch<u128, LARGE_POINTS>| {
                let (_, south) = s.edges();
                fulls_of(s, s.point[cell((0, 0))] as usize, south).contains(&carrier)
            };
            let mut s = Box::new(HSearch::<u128, LARGE_POINTS>::new());
            for mode in [Mode::Play, Mode::Proof] {
                s.build(&board(&blacks), Color::Black, mode);
                s.run(false);
                assert!(found(&s), "{} built, {mode:?}", t.name);
                if blacks.len() > 1 {
                    s.build(&board(&blacks[..blacks.len() - 1]), Color::Black, mode);
                    s.run(false);
                    s.extend(&board(&blacks));
                    s.run(false);
                    assert!(found(&s), "{} updated, {mode:?}", t.name);
                }
            }
        }
    }

    /// Captured sets (Black, 5×5; cell `x + 5y`): a cell on the second row
    /// captures the two cells between it and its edge, and a cell two rows
    /// in front of three own stones in a row the two between. In play the
    /// carriers combined may share them (a1 and b2 are joined through b1
    /// and c1: White's b1 is answered at c1, which joins b2 to the edge
    /// a1 touches); the solver's searches have no captured sets.
    #[test]
    fn captured_sets_join_more_in_play() {
        use crate::game::Notation;
        let bit = |x: usize, y: usize| 1u64 << (x + 5 * y);
        let pos = Hex::new(5).expect("board");
        let mut s = Box::new(HSearch::<u64, SMALL_POINTS>::new());
        s.build(&pos, Color::Black, Mode::Play);
        s.run(false);
        assert_eq!(s.cap[1 + 5], bit(1, 0) | bit(2, 0), "b2 captures b1 c1");
        assert_eq!(s.cap[2 + 15], bit(2, 4) | bit(1, 4), "c4 captures c5 b5");
        assert_eq!(s.cap[2 + 10], 0, "c3 captures nothing");
        assert_eq!(s.cap[0], 0, "a1 captures nothing");
        let a1_b2 = fulls_of(&s, 0, 6);
        assert!(a1_b2.contains(&(bit(1, 0) | bit(2, 0))), "{a1_b2:x?}");
        s.build(&pos, Color::Black, Mode::Proof);
        s.run(false);
        assert!(s.cap.iter().all(|&c| c == 0));
        assert!(!fulls_of(&s, 0, 6).contains(&(bit(1, 0) | bit(2, 0))));
        // Black a4 b4 c4: c2 captures c3 and b3 in front of them.
        let mut pos = Hex::new(5).expect("board");
        pos.set_swap(false);
        for m in ["a4", "e1", "b4", "e2", "c4", "e3"] {
            let mv = pos.parse_move(m).expect("legal");
            pos.play(mv);
        }
        s.build(&pos, Color::Black, Mode::Play);
        assert_eq!(s.cap[2 + 5], bit(2, 2) | bit(1, 2), "c2 captures c3 b3");
    }

    /// e5 of an empty 11×11 board is on Black's fifth row from the top
    /// edge and on White's fifth column from the left edge; the
    /// fifth-row template V-a (34 cells, six columns to one side) fits
    /// there toward both, and both modes' searches place it (the AND and
    /// OR rules do not find that connection on a full board).
    #[test]
    fn the_fifth_row_template_is_placed() {
        let pos = Hex::new(11).expect("board");
        let e5 = 4 + 11 * 4;
        for color in [Color::Black, Color::White] {
            for mode in [Mode::Play, Mode::Proof] {
                let mut s = Box::new(HSearch::<u128, LARGE_POINTS>::new());
                s.build(&pos, color, mode);
                s.run(false);
                let (near, _) = s.edges();
                let fulls = s.full[pair(e5, near)].items().to_vec();
                assert!(
                    fulls.iter().any(|c| c.count() == 34),
                    "{color:?} {mode:?}: {fulls:x?}"
                );
            }
        }
    }

    /// The fourth-row edge templates come out of the AND and OR rules (the
    /// complete OR of up to four semis at an edge): with one stone on
    /// f8 of 11×11, Black's fulls to the bottom edge include IV-a, its
    /// mirror image and IV-b (drawn in `templates.rs`, proven in
    /// `tests/it/hex_vc.rs`), with the search built without the templates.
    /// The table places them anyway: near a corner or among stones the
    /// rules' limits may not reach them.
    #[test]
    fn the_rules_derive_the_fourth_row_templates() {
        use crate::game::Notation;
        let mut pos = Hex::new(11).expect("board");
        pos.set_swap(false);
        let mv = pos.parse_move("f8").expect("legal");
        pos.play(mv);
        let f8 = 5 + 11 * 7;
        let drawn = |name: &str| {
            let t = super::super::templates::edge_template(name);
            t.expect("a drawn template").clone()
        };
        let mask = |t: super::super::templates::EdgeTemplate| -> u128 {
            t.cells.iter().fold(0, |m, &(x, y)| {
                m | 1u128 << (f8 as i32 + x as i32 + 11 * y as i32)
            })
        };
        let shapes = [
            mask(drawn("IV-a")),
            mask(drawn("IV-a").mirrored()),
            mask(drawn("IV-b")),
        ];
        // The rules alone: the search built without the templates.
        let mut s = Box::new(HSearch::<u128, LARGE_POINTS>::new());
        s.build_base(&pos, Color::Black, Mode::Proof);
        s.run(false);
        let (_, south) = s.edges();
        let fulls = s.full[pair(s.point[f8] as usize, south)].items().to_vec();
        for m in shapes {
            assert!(fulls.contains(&m), "{m:x}: {fulls:x?}");
        }
    }
}
