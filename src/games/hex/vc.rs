//! Virtual connections for the solver: a bounded H-search (Anshelevich
//! 2002) over each colour's groups, the two edges and the empty cells, and
//! the [`Knowledge`] it lends the df-pn solver on boards up to
//! [`MAX_VC_SIZE`]×[`MAX_VC_SIZE`] (carriers are one 128-bit word).
//!
//! # What is derived (for one colour)
//!
//! *Points* are the empty cells and the colour's groups: a chain of its
//! stones, and each of its two edges as a virtual stone (a chain touching
//! an edge belongs to that edge's group). A *full* connection between two
//! points, with a *carrier* (a set of empty cells, never containing its
//! own endpoints), means: once both endpoints are the colour's, the colour
//! joins them against any play of the opponent, moving second, using only
//! the carrier. A *semi*-connection means the same with the colour moving
//! first; its carrier includes the key move. Rules:
//!
//! - **Base**: two adjacent points (an empty cell next to a stone of the
//!   group, next to another empty cell, or on the group's edge) are fully
//!   connected with the empty carrier.
//! - **AND**: full x–z (carrier A) and full z–y (carrier B), A ∩ B = ∅,
//!   x ∉ B, y ∉ A: when z is a group, a full x–y with A ∪ B (answer each
//!   intrusion in its own carrier); when z is an empty cell, a semi x–y
//!   with A ∪ B ∪ {z} (z is the key). A semi x–z (key k, carrier A) and a
//!   full z–y (carrier B) through a group z, with the same conditions,
//!   give a semi x–y with A ∪ B (play k first).
//! - **OR**: semis x–y whose carriers have an empty intersection give a
//!   full x–y on the union of their carriers: whatever cell the opponent
//!   takes, one of the semis is untouched, and its key makes it full.
//!   Pairs, triples and the greedy intersection of all known semis are
//!   tried.
//!
//! Bridges (two empty common neighbours), edge template II (a stone on
//! the second row with its two cells on the edge row empty) and the
//! ziggurat (template IIIa) come out of these rules, as do chains of them
//! whose carriers are pairwise disjoint. Each point pair keeps at most
//! [`MAX_FULL`] fulls and [`MAX_SEMI`] semis (the smallest carriers) and
//! the search stops after [`WORK_LIMIT`] derivations: dropping a
//! connection only loses knowledge, never soundness.
//!
//! # What the solver is told
//!
//! For the side to move M and its opponent O, from their connections
//! between their own two edges:
//!
//! - M has a full or semi connection: M wins (play the key, then answer).
//! - Otherwise (and only when swap is not available: with swap pending, a
//!   win of the colour not to move is no win of the *player* holding it)
//!   O has a full connection: O wins.
//! - The intersection of the carriers of all O's full and semi
//!   connections is the *must-play* region: a move p outside the carrier
//!   of one of them leaves it untouched, so O wins (a full at once, a semi
//!   by its key). Such a p cannot win for M either: a filled untouched
//!   carrier would join O's edges too, and Hex has one winner. When the
//!   region is empty, every move of M loses, so O wins; otherwise
//!   [`Knowledge::prune_losing`] keeps only the moves in the region (and
//!   swap).
//!
//! All of this is computed on the position with its fill-in placed (dead
//! cells and captured pairs, [`super::inferior`]), which has the same
//! value: a win there is a win in the original, and a move outside the
//! filled position's must-play region loses in the original too (the
//! fill-in stays valid after it). A move into the fill-in outside the
//! region also loses, except one into the opponent's captured pair while
//! the opponent has only a semi-connection (the partner answers it and
//! the mover is to move again): those stay for
//! [`Knowledge::prune_inferior`], which drops every filled cell and the
//! dominated cells (a winning move always stays), except where a swap may
//! follow the move (the patterns count by colour). Each claim is checked
//! against exhaustive minimax in `tests/it/hex_vc.rs`.

use std::cell::RefCell;

use super::board::{Hex, HexMove, edge_bits};
use super::geometry::{Bits, WORDS};
use super::inferior;
use crate::game::{Color, Game};
use crate::solve::Knowledge;

/// Largest board side with connection knowledge (64 cells: one word).
pub const MAX_VC_SIZE: usize = 11;

/// A set of cells of a board up to [`MAX_VC_SIZE`]: one bit a cell.
type Carrier = u128;

/// The word a search's carriers are: `u64` on boards up to 8×8 (64
/// cells; about a fifth faster), `u128` on the larger ones.
trait Set:
    Copy
    + Eq
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::Not<Output = Self>
    + std::ops::BitAndAssign
    + std::ops::BitOrAssign
{
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
}

/// The [`Set`] of a primitive word.
macro_rules! word_set {
    ($t:ty) => {
        impl Set for $t {
            const ZERO: Self = 0;
            const ALL: Self = <$t>::MAX;
            fn count(self) -> u32 {
                self.count_ones()
            }
            fn bit(i: usize) -> Self {
                1 << i
            }
            fn wide(self) -> Carrier {
                Carrier::from(self)
            }
        }
    };
}

word_set!(u64);
word_set!(u128);

/// Largest board side whose carriers fit a `u64`.
const SMALL_SIZE: usize = 8;
/// Points (cells and the two edge groups) of a board up to
/// [`SMALL_SIZE`].
const SMALL_POINTS: usize = SMALL_SIZE * SMALL_SIZE + 2;

/// The cells of `bits` as a [`Carrier`] (boards up to [`MAX_VC_SIZE`]).
fn carrier(bits: &Bits) -> Carrier {
    bits[0] as Carrier | (bits[1] as Carrier) << 64
}
/// Full connections kept for a point pair.
pub const MAX_FULL: usize = 8;
/// Semi-connections kept for a point pair.
pub const MAX_SEMI: usize = 12;
/// Derivations (connections taken from the queue) per colour and search.
pub const WORK_LIMIT: usize = 12_000;

/// Cells plus the two edge groups.
const MAX_POINTS: usize = MAX_VC_SIZE * MAX_VC_SIZE + 2;
/// Cached summaries (a power of two).
const CACHE_SIZE: usize = 1 << 16;

/// At most `K` carriers, none containing another.
#[derive(Clone, Copy)]
struct List<C, const K: usize> {
    len: u8,
    c: [C; K],
}

impl<C: Set, const K: usize> List<C, K> {
    const EMPTY: List<C, K> = List {
        len: 0,
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

    /// Adds `c` unless a subset of it is there; drops the supersets of
    /// `c`; when `cap` (at most `K`) are kept, `c` replaces the largest
    /// carrier if smaller. Returns whether `c` was added.
    fn add(&mut self, c: C, cap: usize) -> bool {
        if self.dominates(c) {
            return false;
        }
        let mut len = 0;
        for i in 0..self.len as usize {
            let o = self.c[i];
            if c & !o != C::ZERO {
                self.c[len] = o;
                len += 1;
            }
        }
        self.len = len as u8;
        if len < cap.min(K) {
            self.c[len] = c;
            self.len += 1;
            return true;
        }
        let (mut worst, mut size) = (0, 0);
        for (i, &o) in self.items().iter().enumerate() {
            if o.count() > size {
                (worst, size) = (i, o.count());
            }
        }
        if c.count() < size {
            self.c[worst] = c;
            true
        } else {
            false
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
    complete: bool,
}

/// The H-search's working memory, reused between searches.
struct HSearch<C, const P: usize> {
    full: Vec<List<C, MAX_FULL>>,
    semi: Vec<List<C, MAX_SEMI>>,
    /// Pair indices touched since the last clear.
    dirty: Vec<u16>,
    /// Per point: the partners with a full / a semi.
    full_nb: [u128; P],
    semi_nb: [u128; P],
    /// Per point: whether it is a group (else an empty cell).
    group: [bool; P],
    /// Per point: its cell's bit when it is an empty cell, else 0.
    bit: [C; P],
    /// Connections to combine: (x, y, carrier, full).
    queue: Vec<(u8, u8, C, bool)>,
    /// Fulls and semis kept per pair, derivations per search.
    cap_full: usize,
    cap_semi: usize,
    work_limit: usize,
}

/// The index of the point pair `x`, `y` among `p` points.
fn pair(x: usize, y: usize, p: usize) -> usize {
    if x < y { x * p + y } else { y * p + x }
}

impl<C: Set, const P: usize> HSearch<C, P> {
    fn new() -> Self {
        HSearch {
            full: vec![List::EMPTY; P * P],
            semi: vec![List::EMPTY; P * P],
            dirty: Vec::new(),
            full_nb: [0; P],
            semi_nb: [0; P],
            group: [false; P],
            bit: [C::ZERO; P],
            queue: Vec::new(),
            cap_full: MAX_FULL,
            cap_semi: MAX_SEMI,
            work_limit: WORK_LIMIT,
        }
    }

    fn clear(&mut self) {
        for &p in &self.dirty {
            self.full[p as usize].len = 0;
            self.semi[p as usize].len = 0;
        }
        self.dirty.clear();
        self.full_nb = [0; P];
        self.semi_nb = [0; P];
        self.group = [false; P];
        self.bit = [C::ZERO; P];
        self.queue.clear();
    }

    fn touch(&mut self, p: usize) {
        if self.full[p].len == 0 && self.semi[p].len == 0 {
            self.dirty.push(p as u16);
        }
    }

    fn add_full(&mut self, x: usize, y: usize, c: C) {
        if x == y {
            return;
        }
        let p = pair(x, y, P);
        self.touch(p);
        if self.full[p].add(c, self.cap_full) {
            self.full_nb[x] |= 1 << y;
            self.full_nb[y] |= 1 << x;
            self.queue.push((x as u8, y as u8, c, true));
        }
    }

    fn add_semi(&mut self, x: usize, y: usize, c: C) {
        if x == y {
            return;
        }
        let p = pair(x, y, P);
        if self.full[p].dominates(c) {
            return;
        }
        self.touch(p);
        if !self.semi[p].add(c, self.cap_semi) {
            return;
        }
        self.semi_nb[x] |= 1 << y;
        self.semi_nb[y] |= 1 << x;
        self.queue.push((x as u8, y as u8, c, false));
        // OR: pairs, triples, then the greedy intersection of all.
        let list = self.semi[p];
        let s = list.items();
        for (i, &a) in s.iter().enumerate() {
            if a & c == C::ZERO {
                self.add_full(x, y, a | c);
                continue;
            }
            for &b in &s[i + 1..] {
                if a & b & c == C::ZERO {
                    self.add_full(x, y, a | b | c);
                }
            }
        }
        let (mut inter, mut union) = (c, c);
        let mut sorted = [C::ZERO; MAX_SEMI];
        let sorted = &mut sorted[..s.len()];
        sorted.copy_from_slice(s);
        sorted.sort_unstable_by_key(|a| a.count());
        for &a in sorted.iter() {
            if inter & a != inter {
                inter &= a;
                union |= a;
                if inter == C::ZERO {
                    self.add_full(x, y, union);
                    break;
                }
            }
        }
    }

    /// Combines the connection (a, b, c) with those at its endpoints.
    fn process(&mut self, a: usize, b: usize, c: C, full: bool) {
        let p = pair(a, b, P);
        let present = if full {
            self.full[p].contains(c)
        } else {
            self.semi[p].contains(c)
        };
        if !present {
            return;
        }
        for (mid, end) in [(a, b), (b, a)] {
            let group = self.group[mid];
            if !full && !group {
                continue;
            }
            let mut partners = self.full_nb[mid] & !(1u128 << end);
            while partners != 0 {
                let y = partners.trailing_zeros() as usize;
                partners &= partners - 1;
                let list = self.full[pair(mid, y, P)];
                for &d in list.items() {
                    if c & d != C::ZERO
                        || self.bit[end] & d != C::ZERO
                        || self.bit[y] & c != C::ZERO
                    {
                        continue;
                    }
                    if !full {
                        self.add_semi(end, y, c | d);
                    } else if group {
                        self.add_full(end, y, c | d);
                    } else {
                        self.add_semi(end, y, c | d | self.bit[mid]);
                    }
                }
            }
            if full && group {
                let mut partners = self.semi_nb[mid] & !(1u128 << end);
                while partners != 0 {
                    let y = partners.trailing_zeros() as usize;
                    partners &= partners - 1;
                    let list = self.semi[pair(mid, y, P)];
                    for &s in list.items() {
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
    }

    /// The connections of `color` between its edges on `pos` (not over).
    /// The search ends at the first full connection between the edges, or
    /// at the first semi when `stop_at_semi` (the side to move needs no
    /// more to win).
    fn side(&mut self, pos: &Hex, color: Color, stop_at_semi: bool) -> Side {
        self.clear();
        let geo = pos.geometry();
        let n = geo.n;
        let nc = n * n;
        let (ea, eb) = edge_bits(color);
        let (pa, pb) = (nc, nc + 1);
        self.group[pa] = true;
        self.group[pb] = true;
        // The point of each cell: itself when empty, its group's when a
        // stone of `color`, none for the opponent's stones.
        let mut point = [u8::MAX; P];
        let mut stack = Vec::with_capacity(nc);
        for c in 0..nc {
            match pos.at(c as u16) {
                None => {
                    point[c] = c as u8;
                    self.bit[c] = C::bit(c);
                }
                Some(s) if s == color && point[c] == u8::MAX => {
                    // Flood the chain; it is an edge's group if it touches
                    // the edge.
                    let mut cells = Vec::new();
                    let mut edges = 0u8;
                    point[c] = c as u8;
                    stack.push(c);
                    while let Some(q) = stack.pop() {
                        cells.push(q);
                        edges |= geo.edges[q];
                        for &r in geo.neighbours_of(q as u16) {
                            let r = r as usize;
                            if pos.at(r as u16) == Some(color) && point[r] == u8::MAX {
                                point[r] = c as u8;
                                stack.push(r);
                            }
                        }
                    }
                    let id = if edges & ea != 0 {
                        pa
                    } else if edges & eb != 0 {
                        pb
                    } else {
                        c
                    };
                    if edges & ea != 0 && edges & eb != 0 {
                        // Already joined (a set-up position).
                        return Side {
                            full: true,
                            semi: true,
                            must: 0,
                            complete: true,
                        };
                    }
                    self.group[id] = true;
                    for q in cells {
                        point[q] = id as u8;
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
                } else if point[q] != u8::MAX {
                    self.add_full(c, point[q] as usize, C::ZERO);
                }
            }
            if geo.edges[c] & ea != 0 {
                self.add_full(c, pa, C::ZERO);
            }
            if geo.edges[c] & eb != 0 {
                self.add_full(c, pb, C::ZERO);
            }
        }
        let p = pair(pa, pb, P);
        let mut next = 0;
        let mut complete = true;
        while next < self.queue.len() && next < self.work_limit {
            if self.full[p].len > 0 {
                break;
            }
            if stop_at_semi && self.semi[p].len > 0 {
                complete = false;
                break;
            }
            let (a, b, c, full) = self.queue[next];
            next += 1;
            self.process(a as usize, b as usize, c, full);
        }
        let (f, s) = (self.full[p], self.semi[p]);
        let must = f
            .items()
            .iter()
            .chain(s.items())
            .fold(C::ALL, |m, &c| m & c)
            .wide();
        Side {
            full: f.len > 0,
            semi: s.len > 0,
            must,
            complete,
        }
    }
}

/// A cached summary, keyed by the exact stones and the colour.
#[derive(Clone, Copy)]
struct CacheEntry {
    n: u8,
    color: Color,
    stones: [Carrier; 2],
    side: Side,
}

struct Scratch {
    /// The search of boards up to [`SMALL_SIZE`], and of the larger ones
    /// (each made when first needed).
    small: Option<Box<HSearch<u64, SMALL_POINTS>>>,
    large: Option<Box<HSearch<Carrier, MAX_POINTS>>>,
    cache: Vec<Option<CacheEntry>>,
}

thread_local! {
    static SCRATCH: RefCell<Option<Scratch>> = const { RefCell::new(None) };
}

/// The connections of `color` on `pos` (not over, on a board of at most
/// [`MAX_VC_SIZE`]); `to_move`: `color` moves, so a first semi is enough.
pub(super) fn side(pos: &Hex, color: Color, to_move: bool) -> Side {
    let n = pos.geometry().n;
    let stones = [
        carrier(pos.bits(Color::Black)),
        carrier(pos.bits(Color::White)),
    ];
    let fold = |c: Carrier| (c as u64) ^ ((c >> 64) as u64).rotate_left(17);
    let mix = fold(stones[0]).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ fold(stones[1])
            .wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            .rotate_left(29)
        ^ (n as u64) << 7
        ^ color.index() as u64;
    let index = (mix ^ mix >> 31) as usize & (CACHE_SIZE - 1);
    SCRATCH.with(|s| {
        let mut s = s.borrow_mut();
        let s = s.get_or_insert_with(|| Scratch {
            small: None,
            large: None,
            cache: vec![None; CACHE_SIZE],
        });
        if let Some(e) = s.cache[index]
            && e.n as usize == n
            && e.color == color
            && e.stones == stones
            && (to_move || e.side.complete)
        {
            return e.side;
        }
        let side = if n <= SMALL_SIZE {
            s.small
                .get_or_insert_with(|| Box::new(HSearch::new()))
                .side(pos, color, to_move)
        } else {
            s.large
                .get_or_insert_with(|| Box::new(HSearch::new()))
                .side(pos, color, to_move)
        };
        s.cache[index] = Some(CacheEntry {
            n: n as u8,
            color,
            stones,
            side,
        });
        side
    })
}

/// Whether the connection knowledge applies to `pos`.
fn applies(pos: &Hex) -> bool {
    pos.geometry().n <= MAX_VC_SIZE && pos.outcome().is_none()
}

/// A win in one for the side to move (the solver's default knowledge,
/// for boards past [`MAX_VC_SIZE`]).
fn win_in_one(pos: &mut Hex) -> Option<Color> {
    let mover = pos.to_move();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    for mv in moves {
        pos.play(mv);
        let won = pos.outcome() == Some(crate::game::Outcome::Win(mover));
        pos.undo();
        if won {
            return Some(mover);
        }
    }
    None
}

/// The last fill-in computed (a node's knowledge asks for it up to three
/// times in a row).
struct FillCache {
    n: usize,
    stones: [Bits; 2],
    fill: [Bits; 2],
}

thread_local! {
    static FILL: RefCell<Option<FillCache>> = const { RefCell::new(None) };
}

/// The fill-in of `pos` ([`inferior::fill_in`]), remembered for the next
/// call on the same stones.
fn fill_of(pos: &Hex) -> [Bits; 2] {
    let n = pos.geometry().n;
    let stones = [*pos.bits(Color::Black), *pos.bits(Color::White)];
    FILL.with(|f| {
        let mut f = f.borrow_mut();
        if let Some(e) = f.as_ref()
            && e.n == n
            && e.stones == stones
        {
            return e.fill;
        }
        let fill = inferior::fill_in(pos);
        *f = Some(FillCache { n, stones, fill });
        fill
    })
}

/// Runs `f` on `pos` with its fill-in placed (the stones taken back
/// after): a position of the same value.
fn on_filled<R>(pos: &mut Hex, fill: &[Bits; 2], f: impl FnOnce(&mut Hex) -> R) -> R {
    pos.put_stones(&fill[0], Color::Black);
    pos.put_stones(&fill[1], Color::White);
    let r = f(pos);
    pos.take_stones(&std::array::from_fn(|k| fill[0][k] | fill[1][k]));
    r
}

/// See the module documentation.
impl Knowledge for Hex {
    const LAZY: bool = true;

    fn forced_winner(&mut self) -> Option<Color> {
        if self.outcome().is_some() {
            return None;
        }
        if !applies(self) {
            return win_in_one(self);
        }
        let fill = fill_of(self);
        let swap = self.swap_available();
        on_filled(self, &fill, |pos| {
            let mover = pos.to_move();
            let other = mover.opponent();
            let me = side(pos, mover, true);
            if me.full || me.semi {
                return Some(mover);
            }
            if swap {
                return None;
            }
            let them = side(pos, other, false);
            if them.full || (them.semi && them.must == 0) {
                return Some(other);
            }
            None
        })
    }

    fn estimate(&mut self) -> (u32, u32) {
        if !applies(self) {
            return (1, 1);
        }
        super::estimate::estimate(self)
    }

    fn order_moves(&mut self, moves: &mut [HexMove]) {
        if applies(self) {
            super::estimate::order_moves(self, moves);
        }
    }

    fn prune_losing(&mut self, moves: &mut Vec<HexMove>) {
        if !applies(self) {
            return;
        }
        let fill = fill_of(self);
        let other = self.to_move().opponent();
        let them = on_filled(self, &fill, |pos| side(pos, other, false));
        if !(them.full || them.semi) {
            return;
        }
        // A move into the fill-in outside the region loses too (a dead
        // cell or the mover's own captured pair leaves the filled position
        // with the opponent to move), except in the opponent's captured
        // pair when it has only a semi-connection: its partner answers it
        // and the mover is to move in the filled position again. Those
        // (with the dead cells filled in the opponent's colour) are left
        // to `prune_inferior`.
        let other_fill = if them.full {
            0
        } else {
            carrier(&fill[other.index()])
        };
        let keep = them.must | other_fill;
        moves.retain(|&mv| match mv {
            HexMove::Swap => true,
            HexMove::Place(c) => (c as usize) < 128 && keep & (1 << c) != 0,
        });
    }

    /// Drops the filled cells and the dominated ones
    /// ([`inferior::dominated`]), except where a swap may follow (the
    /// patterns count by colour).
    fn prune_inferior(&mut self, moves: &mut Vec<HexMove>) {
        // A swap may follow Black's first move.
        if !applies(self) || (self.moves_played() == 0 && self.to_move() == Color::Black) {
            return;
        }
        let fill = fill_of(self);
        let empty = self.empty_bits();
        if (0..WORDS).all(|k| empty[k] & !(fill[0][k] | fill[1][k]) == 0) {
            // The fill-in covers the board: its winner may need one of
            // the filled cells.
            return;
        }
        let dominated = inferior::dominated(self, &fill, self.to_move());
        let out: Bits = std::array::from_fn(|k| fill[0][k] | fill[1][k] | dominated[k]);
        moves.retain(|&mv| match mv {
            HexMove::Swap => true,
            HexMove::Place(c) => out[c as usize / 64] & (1 << (c % 64)) == 0,
        });
    }
}

/// The searcher's question ([`crate::search::Evaluator::proven_result`]):
/// the side to move's result as [`Knowledge::forced_winner`] proves it
/// (whether it wins), the game ending within the empty cells' number of
/// plies (one more for a pending swap); `None` when nothing is proven or
/// the board is past [`MAX_VC_SIZE`].
pub fn proven_result(pos: &Hex) -> Option<(bool, u32)> {
    if !applies(pos) {
        return None;
    }
    let mut p = pos.clone();
    let winner = p.forced_winner()?;
    let empty = pos.empty_bits();
    let plies = empty.iter().map(|w| w.count_ones()).sum::<u32>() + 1;
    Some((winner == pos.to_move(), plies))
}

/// The searcher's pruning ([`crate::search::Evaluator::prune_by_knowledge`]):
/// [`Knowledge::prune_losing`] (the opponent's must-play region), then
/// [`Knowledge::prune_inferior`] (fill-in and dominated cells) unless
/// nothing is left; nothing on boards past [`MAX_VC_SIZE`].
pub fn prune_by_knowledge(pos: &Hex, moves: &mut Vec<HexMove>) {
    if !applies(pos) || moves.is_empty() {
        return;
    }
    keep_moves(&mut pos.clone(), moves);
}

/// Cuts `moves` (not empty) with [`Knowledge::prune_losing`], then
/// [`Knowledge::prune_inferior`] unless nothing is left: the moves the
/// knowledge leaves the side to move (the searcher's pruning and the
/// solver's estimates).
pub(super) fn keep_moves(pos: &mut Hex, moves: &mut Vec<HexMove>) {
    pos.prune_losing(moves);
    if !moves.is_empty() {
        pos.prune_inferior(moves);
    }
}
