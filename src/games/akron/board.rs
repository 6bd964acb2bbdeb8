//! The Akron position: balls on every level, piles, side to move; adds and
//! moves with the drop cascade; cuts (over/under) decided from the top level
//! down; groups, wins, repetition and the no-legal-move loss; incremental
//! Zobrist hash.

use std::cell::RefCell;
use std::sync::Arc;

use super::geometry::{
    BOTTOM, DOWN_DIR, Geometry, LEFT, LEFT_DIR, NONE, Point, RIGHT, RIGHT_DIR, TOP, UP_DIR,
};
use crate::game::{Color, Effort, Game, MoveError, Notation, Outcome};
use crate::games::common::{Entry, Turn};

/// An Akron move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AkronMove {
    /// A ball from the pile onto a vacant surface hole.
    Add(Point),
    /// One of the mover's balls from the first point to the second.
    Step(Point, Point),
    /// The pie rule: White takes over Black's first move.
    Swap,
}

const EMPTY: u8 = 0;

#[inline]
fn piece(c: Color) -> u8 {
    c as u8 + 1
}

/// The edge bits a colour joins: (first edge, second edge).
pub use crate::games::common::edge_bits;

/// Memory the ring of saved derived states may take, in bytes (see
/// [`saved_slots`]).
const SAVED_BYTES: usize = 8 << 20;

/// Fewest moves the ring of saved derived states covers, whatever the board
/// size: a search's line (at most `MAX_PLY` = 128 plies) is always undone
/// from copies.
const MIN_SAVED: usize = 128;

/// How many derived states the ring keeps on a board of `num_points`
/// points: as many as [`SAVED_BYTES`] holds (a state takes about 12 bytes a
/// point), at least [`MIN_SAVED`]. On 8x8 (204 points) that is 3,426 moves
/// in 8 MB, on 26x26 (6,201 points) 128 moves in 9.5 MB. Keeping one per move
/// of the game instead made memory grow by a state a move (74 KB on 26x26:
/// 450 MB after 6,000 moves).
fn saved_slots(num_points: usize) -> usize {
    (SAVED_BYTES / (12 * num_points.max(1))).max(MIN_SAVED)
}

/// What `undo` needs to take a move back.
#[derive(Clone, Copy, Debug)]
struct Undo {
    /// The move, or `None` for a null move.
    mv: Option<AkronMove>,
    /// Direction index (into [`Geometry::above`]) and length of the drop chain.
    chain_dir: u8,
    chain_len: u8,
    outcome: Option<Outcome>,
    /// `irreversible` before the move.
    irreversible: u32,
}

/// What follows from the board: uncut links and groups.
#[derive(Clone, Debug, Default)]
struct Derived {
    /// Points up to the highest occupied level when this was computed: the
    /// entries of `link_ok`, `comp` and `next` that are valid.
    end: usize,
    /// Link `2p + d` exists and is uncut (d = 0 right, 1 up).
    link_ok: Vec<u8>,
    /// Group of each ball (`NONE` for empty points).
    comp: Vec<u16>,
    /// Next ball of the same group (`NONE` at the end of its list).
    next: Vec<u16>,
    /// Per group (merged groups are left empty): first ball, size, colour
    /// (1 Black, 2 White) and edge bits.
    head: Vec<u16>,
    size: Vec<u16>,
    color: Vec<u8>,
    edges: Vec<u8>,
}

impl Derived {
    fn new(np: usize) -> Derived {
        Derived {
            end: 0,
            link_ok: vec![0; 2 * np],
            comp: vec![NONE; np],
            next: vec![NONE; np],
            head: Vec::with_capacity(np),
            size: Vec::with_capacity(np),
            color: Vec::with_capacity(np),
            edges: Vec::with_capacity(np),
        }
    }

    /// Copies `other` into `self` without allocating once warmed up.
    fn copy_from(&mut self, other: &Derived) {
        let e = other.end;
        self.end = e;
        self.link_ok[..2 * e].copy_from_slice(&other.link_ok[..2 * e]);
        self.comp[..e].copy_from_slice(&other.comp[..e]);
        self.next[..e].copy_from_slice(&other.next[..e]);
        for (a, b) in [(&mut self.head, &other.head), (&mut self.size, &other.size)] {
            a.clear();
            a.extend_from_slice(b);
        }
        for (a, b) in [
            (&mut self.color, &other.color),
            (&mut self.edges, &other.edges),
        ] {
            a.clear();
            a.extend_from_slice(b);
        }
    }
}

/// The balls of one group, in no particular order.
pub struct GroupIter<'a> {
    next: &'a [u16],
    at: u16,
}

impl Iterator for GroupIter<'_> {
    type Item = Point;

    #[inline]
    fn next(&mut self) -> Option<Point> {
        if self.at == NONE {
            return None;
        }
        let p = self.at;
        self.at = self.next[p as usize];
        Some(p)
    }
}

/// Scratch space for move generation (behind a `RefCell` so that
/// `legal_moves(&self)` can use it without allocating).
#[derive(Clone, Debug, Default)]
struct Scratch {
    stamp: Vec<u32>,
    count: Vec<u8>,
    current: u32,
    candidates: Vec<Point>,
}

/// Buffers of the evaluation's searches, one entry per point where indexed
/// by point.
#[derive(Clone, Debug, Default)]
pub struct EvalScratch {
    /// Distances of the connection search.
    pub dist: Vec<u16>,
    /// Distances from the other edge (shortest connections).
    pub dist2: Vec<u16>,
    /// Points on a shortest connection of either colour (candidate moves).
    pub on_path: Vec<bool>,
    /// Current layer (or depth-first stack).
    pub stack: Vec<Point>,
    /// Next layer.
    pub next: Vec<Point>,
    /// Discovery times and low links of the articulation search.
    pub disc: Vec<u16>,
    /// See `disc`.
    pub low: Vec<u16>,
    /// Parent in the depth-first tree.
    pub parent: Vec<u16>,
    /// Next neighbour index to try.
    pub iter: Vec<u8>,
    /// Whether removing the ball splits its group.
    pub cut_vertex: Vec<bool>,
}

/// An Akron position with its history.
#[derive(Clone, Debug)]
pub struct Akron {
    geo: Arc<Geometry>,
    cells: Vec<u8>,
    piles: [u16; 2],
    turn: Turn,
    outcome: Option<Outcome>,
    history: Vec<Undo>,
    /// Position keys (board, piles, side to move) of every position since the
    /// start, the current one last.
    keys: Vec<u64>,
    /// Index in `keys` of the first position after the last add: no earlier
    /// position can come back.
    irreversible: u32,
    hash: u64,
    /// Balls on each level.
    level_count: Vec<u16>,
    /// Surface balls of each colour on each edge (bit index of the edge).
    edge_count: [[u16; 4]; 2],
    /// Groups and links of the current position.
    derived: Derived,
    /// `derived` before each of the latest moves, so that `undo` restores
    /// it instead of recomputing: the state before move `h` (counting from
    /// 0) in slot `h % saved_slots(n)`, `saved_at[slot]` telling which `h`
    /// a slot holds. A ring, so that a long game keeps a bounded number of
    /// copies (see [`saved_slots`]); undoing an older move recomputes.
    saved: Vec<Derived>,
    saved_at: Vec<usize>,
    /// Breadth-first queue of `compute`.
    queue: Vec<Point>,
    scratch: RefCell<Scratch>,
    eval_scratch: RefCell<EvalScratch>,
}

impl Akron {
    /// A new game on an `n`×`n` board.
    pub fn new(n: usize) -> Result<Akron, String> {
        let geo = Arc::new(Geometry::new(n)?);
        let np = geo.num_points;
        let pile = geo.pile_size as u16;
        let mut pos = Akron {
            cells: vec![EMPTY; np],
            piles: [pile, pile],
            turn: Turn::new(true, geo.white_key, geo.swap_key),
            outcome: None,
            history: Vec::with_capacity(1024),
            keys: Vec::with_capacity(1024),
            irreversible: 0,
            hash: 0,
            level_count: vec![0; n],
            edge_count: [[0; 4]; 2],
            derived: Derived::new(np),
            saved: Vec::new(),
            saved_at: Vec::new(),
            queue: Vec::with_capacity(np),
            scratch: RefCell::new(Scratch {
                stamp: vec![0; np],
                count: vec![0; np],
                current: 0,
                candidates: Vec::with_capacity(np),
            }),
            eval_scratch: RefCell::new(EvalScratch {
                dist: vec![0; np],
                dist2: vec![0; np],
                on_path: vec![false; np],
                stack: Vec::with_capacity(4 * np),
                next: Vec::with_capacity(4 * np),
                disc: vec![0; np],
                low: vec![0; np],
                parent: vec![0; np],
                iter: vec![0; np],
                cut_vertex: vec![false; np],
            }),
            geo,
        };
        pos.hash = pos.recompute_hash();
        pos.keys.push(pos.position_key());
        pos.compute();
        Ok(pos)
    }

    /// Buffers for the evaluation (borrowed for one search at a time).
    pub fn eval_scratch(&self) -> std::cell::RefMut<'_, EvalScratch> {
        self.eval_scratch.borrow_mut()
    }

    /// The board geometry.
    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }

    /// The ball on `p`, if any.
    #[inline]
    pub fn at(&self, p: Point) -> Option<Color> {
        match self.cells[p as usize] {
            EMPTY => None,
            1 => Some(Color::Black),
            _ => Some(Color::White),
        }
    }

    /// Raw cell contents: 0 empty, 1 Black, 2 White.
    #[inline]
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// Balls left in `color`'s pile.
    #[inline]
    pub fn pile(&self, color: Color) -> usize {
        self.piles[color.index()] as usize
    }

    /// The highest level holding a ball (0 on an empty board).
    pub fn top_level(&self) -> usize {
        self.level_count.iter().rposition(|&c| c > 0).unwrap_or(0)
    }

    /// The group of the ball on `p` (an index valid until the next change).
    #[inline]
    pub fn group(&self, p: Point) -> u16 {
        self.derived.comp[p as usize]
    }

    /// Number of group indices in the current position (some may be empty
    /// after merges).
    pub fn num_groups(&self) -> usize {
        self.derived.head.len()
    }

    /// The balls of group `g` (none for a merged-away index).
    pub fn group_members(&self, g: u16) -> GroupIter<'_> {
        let d = &self.derived;
        GroupIter {
            next: &d.next,
            at: if d.size[g as usize] == 0 {
                NONE
            } else {
                d.head[g as usize]
            },
        }
    }

    /// Number of balls in group `g`.
    pub fn group_size(&self, g: u16) -> usize {
        self.derived.size[g as usize] as usize
    }

    /// The colour of group `g` (1 Black, 2 White).
    pub fn group_color(&self, g: u16) -> u8 {
        self.derived.color[g as usize]
    }

    /// The edge bits group `g` reaches.
    pub fn group_edges(&self, g: u16) -> u8 {
        self.derived.edges[g as usize]
    }

    /// Whether link `2p + d` (d = 0 to the right, 1 upwards) joins two balls
    /// of one colour and is not cut.
    #[inline]
    pub fn link_uncut(&self, p: Point, d: usize) -> bool {
        self.cells[p as usize] != EMPTY && self.derived.link_ok[2 * p as usize + d] != 0
    }

    /// How many balls rest on `p` (a ball with more than one on it may not
    /// move).
    #[inline]
    pub fn balls_above(&self, p: Point) -> usize {
        self.geo.above[p as usize]
            .iter()
            .filter(|&&a| a != NONE && self.cells[a as usize] != EMPTY)
            .count()
    }

    /// Whether every support of `p` holds a ball (always true on the surface).
    #[inline]
    pub fn supported(&self, p: Point) -> bool {
        self.geo.level[p as usize] == 0
            || self.geo.supports[p as usize]
                .iter()
                .all(|&s| self.cells[s as usize] != EMPTY)
    }

    /// Whether swap is legal now: White's answer to Black's first move,
    /// when the game has the swap.
    pub fn swap_available(&self) -> bool {
        self.turn.swap_available(self.outcome)
    }

    /// Whether the game has the swap (the `swap` option).
    pub fn swap_on(&self) -> bool {
        self.turn.swap_on()
    }

    /// Gives the game the swap or takes it away.
    pub fn set_swap(&mut self, on: bool) {
        self.turn.set_swap(&mut self.hash, self.outcome, on);
    }

    /// Whether `color` is connected edge to edge in the current position.
    pub fn is_connected(&self, color: Color) -> bool {
        let (a, b) = edge_bits(color);
        let c = piece(color);
        let d = &self.derived;
        (0..d.head.len())
            .any(|g| d.size[g] > 0 && d.color[g] == c && d.edges[g] & a != 0 && d.edges[g] & b != 0)
    }

    /// The drop chain of a ball on `m` with at most one ball on it: the
    /// direction index into `above` and the number of balls that drop.
    #[inline]
    pub fn drop_chain(&self, m: Point) -> (u8, u8) {
        let above = &self.geo.above[m as usize];
        let Some(dir) =
            (0..4).find(|&k| above[k] != NONE && self.cells[above[k] as usize] != EMPTY)
        else {
            return (0, 0);
        };
        let mut len = 1u8;
        let mut q = above[dir];
        loop {
            let next = self.geo.above[q as usize][dir];
            if next == NONE || self.cells[next as usize] == EMPTY {
                break;
            }
            len += 1;
            q = next;
        }
        (dir as u8, len)
    }

    /// The drops a move of the ball on `m` causes, as `(from, to)` pairs,
    /// bottom up (empty when nothing rests on `m`).
    pub fn drops_of(&self, m: Point) -> Vec<(Point, Point)> {
        let (dir, len) = self.drop_chain(m);
        let mut out = Vec::new();
        let mut below = m;
        for _ in 0..len {
            let up = self.geo.above[below as usize][dir as usize];
            out.push((up, below));
            below = up;
        }
        out
    }

    /// The hash of board, piles and side to move (what repetition compares).
    fn position_key(&self) -> u64 {
        self.hash ^ self.turn.swap_key(self.outcome)
    }

    fn set_cell(&mut self, p: Point, v: u8) {
        let pu = p as usize;
        let old = self.cells[pu];
        if old == v {
            return;
        }
        let level = self.geo.level[pu] as usize;
        let edges = self.geo.edges[pu];
        if old != EMPTY {
            self.hash ^= self.geo.keys[pu][old as usize - 1];
            self.level_count[level] -= 1;
            for b in 0..4 {
                if edges & (1 << b) != 0 {
                    self.edge_count[old as usize - 1][b] -= 1;
                }
            }
        }
        if v != EMPTY {
            self.hash ^= self.geo.keys[pu][v as usize - 1];
            self.level_count[level] += 1;
            for b in 0..4 {
                if edges & (1 << b) != 0 {
                    self.edge_count[v as usize - 1][b] += 1;
                }
            }
        }
        self.cells[pu] = v;
    }

    fn set_pile(&mut self, c: usize, count: u16) {
        self.hash ^= self.geo.pile_keys[c][self.piles[c] as usize];
        self.piles[c] = count;
        self.hash ^= self.geo.pile_keys[c][count as usize];
    }

    /// Whether `color` has surface balls on both its edges (a necessary
    /// condition for a connection).
    #[inline]
    fn may_connect(&self, color: Color) -> bool {
        let (a, b) = edge_bits(color);
        let e = &self.edge_count[color.index()];
        e[a.trailing_zeros() as usize] > 0 && e[b.trailing_zeros() as usize] > 0
    }

    /// Decides every link (uncut or not) from the top level down, then the
    /// groups. Returns the colours connected edge to edge as bits (1 Black,
    /// 2 White).
    fn compute(&mut self) -> u8 {
        self.compute_links();
        self.compute_groups()
    }

    /// Whether the link `link` between the balls on `p` and `q` (or points)
    /// exists and is uncut, given the links above it.
    #[inline]
    fn link_state(&self, link: usize, p: Point, q: Point) -> u8 {
        let c = self.cells[p as usize];
        if c == EMPTY || q == NONE || self.cells[q as usize] != c {
            return 0;
        }
        let end = self.derived.end;
        for &x in self.geo.crossings(link) {
            let xp = (x / 2) as usize;
            if xp >= end {
                break;
            }
            if self.derived.link_ok[x as usize] != 0 && self.cells[xp] == 3 - c {
                return 0;
            }
        }
        1
    }

    /// Recomputes the four links of surface hole `p` (after a ball left or
    /// arrived there: surface links cut nothing, so no other link changes).
    fn relink_surface(&mut self, p: Point) {
        let nb = self.geo.neighbours[p as usize];
        let pu = p as usize;
        let links = [
            (2 * pu, p, nb[RIGHT_DIR]),
            (2 * pu + 1, p, nb[UP_DIR]),
            (2 * nb[LEFT_DIR] as usize, nb[LEFT_DIR], p),
            (2 * nb[DOWN_DIR] as usize + 1, nb[DOWN_DIR], p),
        ];
        for (link, a, b) in links {
            if a != NONE && b != NONE {
                self.derived.link_ok[link] = self.link_state(link, a, b);
            }
        }
    }

    /// Decides every link from the top level down.
    fn compute_links(&mut self) {
        let geo = &*self.geo;
        let top = self.level_count.iter().rposition(|&c| c > 0).unwrap_or(0);
        let end = geo.offset[top + 1];
        let d = &mut self.derived;
        d.end = end;
        for l in (0..=top).rev() {
            for p in geo.offset[l]..geo.offset[l + 1] {
                let c = self.cells[p];
                for dir in 0..2 {
                    let q = geo.neighbours[p][dir];
                    let mut ok = 0;
                    if c != EMPTY && q != NONE && self.cells[q as usize] == c {
                        ok = 1;
                        let other = 3 - c;
                        for &x in geo.crossings(2 * p + dir) {
                            let xp = (x / 2) as usize;
                            if xp >= end {
                                break;
                            }
                            if d.link_ok[x as usize] != 0 && self.cells[xp] == other {
                                ok = 0;
                                break;
                            }
                        }
                    }
                    d.link_ok[2 * p + dir] = ok;
                }
            }
        }
    }

    /// The groups from the links. Returns the colours connected edge to
    /// edge as bits (1 Black, 2 White).
    fn compute_groups(&mut self) -> u8 {
        let geo = &*self.geo;
        let d = &mut self.derived;
        let end = d.end;
        d.comp[..end].fill(NONE);
        d.head.clear();
        d.size.clear();
        d.color.clear();
        d.edges.clear();
        let mut connected = 0u8;
        let queue = &mut self.queue;
        for start in 0..end {
            let c = self.cells[start];
            if c == EMPTY || d.comp[start] != NONE {
                continue;
            }
            let id = d.head.len() as u16;
            queue.clear();
            d.comp[start] = id;
            queue.push(start as Point);
            let mut edges = 0u8;
            let mut k = 0;
            while k < queue.len() {
                let p = queue[k] as usize;
                k += 1;
                edges |= geo.edges[p];
                let nb = &geo.neighbours[p];
                let comp = &mut d.comp;
                let cells = &self.cells;
                let mut visit = |q: Point, ok: bool| {
                    if ok && q != NONE && comp[q as usize] == NONE && cells[q as usize] == c {
                        comp[q as usize] = id;
                        queue.push(q);
                    }
                };
                visit(nb[RIGHT_DIR], d.link_ok[2 * p] != 0);
                visit(nb[UP_DIR], d.link_ok[2 * p + 1] != 0);
                let l = nb[LEFT_DIR];
                visit(l, l != NONE && d.link_ok[2 * l as usize] != 0);
                let dn = nb[DOWN_DIR];
                visit(dn, dn != NONE && d.link_ok[2 * dn as usize + 1] != 0);
                if geo.level[p] > 0 {
                    for &s in &geo.supports[p] {
                        visit(s, true);
                    }
                }
                for &a in &geo.above[p] {
                    visit(a, a != NONE);
                }
            }
            for w in queue.windows(2) {
                d.next[w[0] as usize] = w[1];
            }
            d.next[*queue.last().expect("the start") as usize] = NONE;
            d.head.push(start as Point);
            d.size.push(queue.len() as u16);
            d.color.push(c);
            d.edges.push(edges);
            let (a, b) = if c == 1 { (BOTTOM, TOP) } else { (LEFT, RIGHT) };
            if edges & a != 0 && edges & b != 0 {
                connected |= c;
            }
        }
        connected
    }

    /// Updates links and groups after an add on surface hole `p` (an add
    /// cuts nothing: cuts only reach down, and nothing rests on `p`).
    /// Returns whether the mover is now connected edge to edge.
    fn add_incremental(&mut self, p: Point) -> bool {
        let geo = &*self.geo;
        let pu = p as usize;
        let c = self.cells[pu];
        let other = 3 - c;
        let d = &mut self.derived;
        let end = d.end.max(geo.offset[1]);
        d.end = end;
        let id = d.head.len() as u16;
        d.comp[pu] = id;
        d.next[pu] = NONE;
        d.head.push(p);
        d.size.push(1);
        d.color.push(c);
        d.edges.push(geo.edges[pu]);
        let nb = geo.neighbours[pu];
        let links = [
            (nb[RIGHT_DIR], 2 * pu),
            (nb[UP_DIR], 2 * pu + 1),
            (nb[LEFT_DIR], 2 * nb[LEFT_DIR] as usize),
            (nb[DOWN_DIR], 2 * nb[DOWN_DIR] as usize + 1),
        ];
        for (q, link) in links {
            if q == NONE {
                continue;
            }
            let mut ok = self.cells[q as usize] == c;
            if ok {
                for &x in geo.crossings(link) {
                    let xp = (x / 2) as usize;
                    if xp >= end {
                        break;
                    }
                    if d.link_ok[x as usize] != 0 && self.cells[xp] == other {
                        ok = false;
                        break;
                    }
                }
            }
            d.link_ok[link] = ok as u8;
            if ok {
                // Merge the smaller group into the larger.
                let (ga, gb) = (d.comp[pu] as usize, d.comp[q as usize] as usize);
                if ga != gb {
                    let (small, big) = if d.size[ga] < d.size[gb] {
                        (ga, gb)
                    } else {
                        (gb, ga)
                    };
                    let mut x = d.head[small];
                    let mut last = x;
                    while x != NONE {
                        d.comp[x as usize] = big as u16;
                        last = x;
                        x = d.next[x as usize];
                    }
                    d.next[last as usize] = d.head[big];
                    d.head[big] = d.head[small];
                    d.size[big] += d.size[small];
                    d.size[small] = 0;
                    d.edges[big] |= d.edges[small];
                }
            }
        }
        let g = d.comp[pu] as usize;
        let (a, b) = if c == 1 { (BOTTOM, TOP) } else { (LEFT, RIGHT) };
        d.edges[g] & a != 0 && d.edges[g] & b != 0
    }

    /// Saves the derived state before a move that changes the board.
    fn save_derived(&mut self) {
        let h = self.history.len();
        let slot = h % saved_slots(self.geo.num_points);
        while self.saved.len() <= slot {
            self.saved.push(Derived::new(self.geo.num_points));
            self.saved_at.push(usize::MAX);
        }
        self.saved[slot].copy_from(&self.derived);
        self.saved_at[slot] = h;
    }

    /// Restores the derived state saved before the move just taken back, or
    /// recomputes it if its slot has been reused since (a move further back
    /// than the ring holds).
    ///
    /// A slot tagged with `h` holds the state before the move now taken back:
    /// that move saved it when it was played, and any later save into the
    /// same slot was for another move number, or for `h` itself after this
    /// move had been taken back, which cannot be.
    fn restore_derived(&mut self) {
        let h = self.history.len();
        let slot = h % saved_slots(self.geo.num_points);
        if self.saved_at.get(slot) == Some(&h) {
            let (derived, saved) = (&mut self.derived, &self.saved[slot]);
            derived.copy_from(saved);
        } else {
            self.compute();
        }
    }

    /// Calls `f` with every legal move until it returns false. Returns false
    /// when stopped early.
    fn generate(&self, f: &mut dyn FnMut(AkronMove) -> bool) -> bool {
        if self.outcome.is_some() {
            return true;
        }
        let geo = &*self.geo;
        let me = piece(self.turn.to_move());
        if self.piles[self.turn.to_move().index()] > 0
            && (self.level_count[0] as usize) < geo.n * geo.n
        {
            for p in 0..geo.offset[1] {
                if self.cells[p] == EMPTY && !f(AkronMove::Add(p as Point)) {
                    return false;
                }
            }
        }
        if self.swap_available() && !f(AkronMove::Swap) {
            return false;
        }
        let mut guard = self.scratch.borrow_mut();
        let s = &mut *guard;
        let mut excluded = [NONE; 32];
        let dv = &self.derived;
        for g in 0..dv.head.len() {
            if dv.size[g] < 2 || dv.color[g] != me {
                continue;
            }
            // Destinations touching the group: empty points on the surface
            // or with four supports, with how many group balls touch them.
            s.current = s.current.wrapping_add(1);
            if s.current == 0 {
                s.stamp.fill(0);
                s.current = 1;
            }
            let cur = s.current;
            s.candidates.clear();
            for b in self.group_members(g as u16) {
                let bu = b as usize;
                let ups = if geo.level[bu] as usize + 1 < geo.n {
                    &geo.above[bu][..]
                } else {
                    &[][..]
                };
                for &q in geo.neighbours[bu].iter().chain(ups) {
                    if q == NONE || self.cells[q as usize] != EMPTY || !self.supported(q) {
                        continue;
                    }
                    let qu = q as usize;
                    if s.stamp[qu] != cur {
                        s.stamp[qu] = cur;
                        s.count[qu] = 0;
                        s.candidates.push(q);
                    }
                    s.count[qu] += 1;
                }
            }
            for m in self.group_members(g as u16) {
                if self.balls_above(m) > 1 {
                    continue;
                }
                let (dir, len) = self.drop_chain(m);
                excluded[0] = m;
                let mut q = m;
                for k in 0..len as usize {
                    q = geo.above[q as usize][dir as usize];
                    excluded[k + 1] = q;
                }
                let excluded = &excluded[..len as usize + 1];
                for &d in &s.candidates {
                    let du = d as usize;
                    if geo.level[du] > 0 && geo.supports[du].iter().any(|x| excluded.contains(x)) {
                        continue;
                    }
                    let lost = excluded
                        .iter()
                        .filter(|&&x| dv.comp[x as usize] == g as u16 && geo.touches(x, d))
                        .count();
                    if (s.count[du] as usize) > lost && !f(AkronMove::Step(m, d)) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Whether the side to move can win at once by an add (exact: an add
    /// cuts nothing and nothing rests on the new ball, so it wins exactly
    /// when its uncut links join groups that reach both edges).
    pub fn add_wins(&self) -> bool {
        let me = piece(self.turn.to_move());
        if self.outcome.is_some() || self.piles[self.turn.to_move().index()] == 0 {
            return false;
        }
        let geo = &*self.geo;
        let (a, b) = edge_bits(self.turn.to_move());
        let d = &self.derived;
        for p in 0..geo.offset[1] {
            if self.cells[p] != EMPTY {
                continue;
            }
            let mut edges = geo.edges[p];
            let nb = &geo.neighbours[p];
            let links = [
                (2 * p, nb[RIGHT_DIR]),
                (2 * p + 1, nb[UP_DIR]),
                (2 * nb[LEFT_DIR] as usize, nb[LEFT_DIR]),
                (2 * nb[DOWN_DIR] as usize + 1, nb[DOWN_DIR]),
            ];
            for (link, q) in links {
                if q == NONE || self.cells[q as usize] != me {
                    continue;
                }
                let cut = geo.crossings(link).iter().any(|&x| {
                    let xp = (x / 2) as usize;
                    xp < d.end && d.link_ok[x as usize] != 0 && self.cells[xp] == 3 - me
                });
                if !cut {
                    edges |= d.edges[d.comp[q as usize] as usize];
                }
            }
            if edges & a != 0 && edges & b != 0 {
                return true;
            }
        }
        false
    }

    /// Whether the ball on `m` may move to `d` (the side to move's ball).
    pub fn step_valid(&self, m: Point, d: Point) -> bool {
        let geo = &*self.geo;
        let (mu, du) = (m as usize, d as usize);
        if mu >= geo.num_points || du >= geo.num_points {
            return false;
        }
        let me = piece(self.turn.to_move());
        if self.cells[mu] != me || self.cells[du] != EMPTY || self.balls_above(m) > 1 {
            return false;
        }
        let (dir, len) = self.drop_chain(m);
        let mut excluded = [NONE; 32];
        excluded[0] = m;
        let mut q = m;
        for k in 0..len as usize {
            q = geo.above[q as usize][dir as usize];
            excluded[k + 1] = q;
        }
        let excluded = &excluded[..len as usize + 1];
        if geo.level[du] > 0
            && geo.supports[du]
                .iter()
                .any(|&x| self.cells[x as usize] == EMPTY || excluded.contains(&x))
        {
            return false;
        }
        let comp = &self.derived.comp;
        let group = comp[mu];
        let sups: &[Point] = if geo.level[du] > 0 {
            &geo.supports[du]
        } else {
            &[]
        };
        geo.neighbours[du].iter().chain(sups).any(|&x| {
            x != NONE
                && self.cells[x as usize] == me
                && !excluded.contains(&x)
                && comp[x as usize] == group
        })
    }

    /// Whether the side to move has any legal move.
    fn has_legal_move(&self) -> bool {
        if self.piles[self.turn.to_move().index()] > 0
            && (self.level_count[0] as usize) < self.geo.n * self.geo.n
        {
            return true;
        }
        !self.generate(&mut |_| false)
    }

    /// The result of the current position from scratch (after setup).
    fn refresh_outcome(&mut self) {
        let connected = self.compute();
        self.outcome = if connected & 1 != 0 {
            Some(Outcome::Win(Color::Black))
        } else if connected & 2 != 0 {
            Some(Outcome::Win(Color::White))
        } else {
            None
        };
        if self.outcome.is_none() && !self.has_legal_move() {
            self.outcome = Some(Outcome::Win(self.turn.to_move().opponent()));
        }
    }

    /// After the move: repetition, then the side to move's lack of moves.
    fn finish_move(&mut self) {
        let key = self.position_key();
        self.keys.push(key);
        if self.outcome.is_none() {
            let since = &self.keys[self.irreversible as usize..];
            if since.iter().filter(|&&k| k == key).count() >= 3 {
                self.outcome = Some(Outcome::Draw);
            } else if !self.has_legal_move() {
                self.outcome = Some(Outcome::Win(self.turn.to_move().opponent()));
            }
        }
    }

    fn parse_point(&self, text: &str) -> Result<Point, MoveError> {
        self.geo.parse_point(text).map_err(MoveError::Syntax)
    }

    /// Why a move of the ball on `m` to `d` is illegal (for error messages).
    fn step_error(&self, m: Point, d: Point) -> String {
        let geo = &*self.geo;
        let (mn, dn) = (geo.point_name(m), geo.point_name(d));
        let me = piece(self.turn.to_move());
        if self.cells[m as usize] == EMPTY {
            return format!("there is no ball on {mn}");
        }
        if self.cells[m as usize] != me {
            return format!("the ball on {mn} is not {}'s", self.turn.to_move().name());
        }
        let above = self.balls_above(m);
        if above > 1 {
            return format!(
                "the ball on {mn} supports {above} balls (at most one may rest on a moving ball)"
            );
        }
        if self.cells[d as usize] != EMPTY {
            return format!("{dn} is not empty");
        }
        if !self.supported(d) {
            return format!("{dn} is not on the surface and lacks a support");
        }
        if self.group_size(self.group(m)) < 2 {
            return format!("the ball on {mn} has no connected ball of its colour to move beside");
        }
        format!(
            "{dn} must rest on balls that neither move nor drop, and touch a ball of yours \
             connected to {mn} that neither moves nor drops"
        )
    }
}

impl Game for Akron {
    type Move = AkronMove;

    fn size(&self) -> usize {
        self.geo.n
    }

    fn to_move(&self) -> Color {
        self.turn.to_move()
    }

    fn moves_played(&self) -> usize {
        self.history.len()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn legal_moves(&self, out: &mut Vec<AkronMove>) {
        self.generate(&mut |m| {
            out.push(m);
            true
        });
    }

    fn is_legal(&self, mv: AkronMove) -> bool {
        if self.outcome.is_some() {
            return false;
        }
        match mv {
            AkronMove::Swap => self.swap_available(),
            AkronMove::Add(p) => {
                (p as usize) < self.geo.offset[1]
                    && self.cells[p as usize] == EMPTY
                    && self.piles[self.turn.to_move().index()] > 0
            }
            AkronMove::Step(m, d) => self.step_valid(m, d),
        }
    }

    fn play_with(&mut self, mv: AkronMove, _effort: Effort) {
        let mover = self.turn.to_move();
        let me = piece(mover);
        let mut undo = Undo {
            mv: Some(mv),
            chain_dir: 0,
            chain_len: 0,
            outcome: self.outcome,
            irreversible: self.irreversible,
        };
        match mv {
            AkronMove::Swap => {}
            AkronMove::Add(p) => {
                self.save_derived();
                self.set_cell(p, me);
                let c = mover.index();
                self.set_pile(c, self.piles[c] - 1);
                if self.add_incremental(p) && self.outcome.is_none() {
                    self.outcome = Some(Outcome::Win(mover));
                }
                // Nothing that happened before an add can come back.
                self.irreversible = self.keys.len() as u32;
            }
            AkronMove::Step(m, d) => {
                self.save_derived();
                let (dir, len) = self.drop_chain(m);
                undo.chain_dir = dir;
                undo.chain_len = len;
                let mut below = m;
                for _ in 0..len {
                    let up = self.geo.above[below as usize][dir as usize];
                    let v = self.cells[up as usize];
                    self.set_cell(below, v);
                    below = up;
                }
                self.set_cell(below, EMPTY);
                // The opponent wins as soon as the ball is lifted if that
                // (with the drops) reveals his connection.
                // A surface ball with nothing on it cuts nothing: lifting it
                // cannot help the opponent.
                let opp = mover.opponent();
                if (len > 0 || self.geo.level[m as usize] > 0)
                    && self.may_connect(opp)
                    && self.compute() & piece(opp) != 0
                    && self.outcome.is_none()
                {
                    self.outcome = Some(Outcome::Win(opp));
                }
                self.set_cell(d, me);
                let connected = if len == 0
                    && self.geo.level[m as usize] == 0
                    && self.geo.level[d as usize] == 0
                {
                    // On the surface with no drops only the links of the
                    // two holes change.
                    self.relink_surface(m);
                    self.relink_surface(d);
                    self.compute_groups()
                } else {
                    self.compute()
                };
                if self.outcome.is_none() && connected & me != 0 {
                    self.outcome = Some(Outcome::Win(mover));
                }
            }
        }
        self.history.push(undo);
        let entry = Entry::of(Some(mv), AkronMove::Swap);
        self.turn
            .record(&mut self.hash, undo.outcome, self.outcome, entry);
        self.finish_move();
    }

    fn play_null(&mut self) {
        self.history.push(Undo {
            mv: None,
            chain_dir: 0,
            chain_len: 0,
            outcome: self.outcome,
            irreversible: self.irreversible,
        });
        self.turn.hand_over(&mut self.hash, self.outcome);
        // A handed-over turn is no move of the game: it decides nothing.
        self.keys.push(self.position_key());
    }

    fn undo(&mut self) {
        let Some(undo) = self.history.pop() else {
            return;
        };
        self.keys.pop();
        let entry = Entry::of(undo.mv, AkronMove::Swap);
        let (hash, outcome) = (&mut self.hash, &mut self.outcome);
        self.turn.take_back(hash, outcome, undo.outcome, entry);
        self.irreversible = undo.irreversible;
        match undo.mv {
            Some(AkronMove::Swap) | None => {}
            Some(AkronMove::Add(p)) => {
                self.set_cell(p, EMPTY);
                let c = self.turn.to_move().index();
                self.set_pile(c, self.piles[c] + 1);
                self.restore_derived();
            }
            Some(AkronMove::Step(m, d)) => {
                let me = piece(self.turn.to_move());
                self.set_cell(d, EMPTY);
                // Lift the dropped balls back, top first.
                let mut chain = [NONE; 32];
                chain[0] = m;
                for k in 0..undo.chain_len as usize {
                    chain[k + 1] = self.geo.above[chain[k] as usize][undo.chain_dir as usize];
                }
                for k in (1..=undo.chain_len as usize).rev() {
                    let v = self.cells[chain[k - 1] as usize];
                    self.set_cell(chain[k], v);
                }
                self.set_cell(m, me);
                self.restore_derived();
            }
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        let mut h = 0;
        for (p, &v) in self.cells.iter().enumerate() {
            if v != EMPTY {
                h ^= self.geo.keys[p][v as usize - 1];
            }
        }
        for c in 0..2 {
            h ^= self.geo.pile_keys[c][self.piles[c] as usize];
        }
        h ^ self.turn.key(self.outcome)
    }

    fn set_to_move(&mut self, color: Color) -> Result<(), String> {
        self.turn.set_to_move(&mut self.hash, color)?;
        self.keys.clear();
        self.keys.push(self.position_key());
        self.refresh_outcome();
        Ok(())
    }
}

impl Notation for Akron {
    fn move_order(&self, mv: AkronMove) -> crate::game::MoveOrder {
        use crate::game::MoveOrder;
        match mv {
            AkronMove::Add(p) => MoveOrder::Place(self.geo.spot(p)),
            AkronMove::Step(a, b) => MoveOrder::Step(self.geo.spot(a), self.geo.spot(b)),
            AkronMove::Swap => MoveOrder::Swap,
        }
    }

    fn piece_at(&self, point: &str) -> Option<Color> {
        self.at(self.geo.parse_point(point).ok()?)
    }

    fn parse_move(&self, text: &str) -> Result<AkronMove, MoveError> {
        let lower = text.trim().to_ascii_lowercase();
        if lower == "swap" {
            return self.turn.check_swap(self.outcome).map(|()| AkronMove::Swap);
        }
        if lower == "pass" {
            return Err(MoveError::Illegal("there is no passing in Akron".into()));
        }
        let text = text.trim();
        if let Some((from, to)) = text.split_once('-') {
            let m = self.parse_point(from)?;
            let d = self.parse_point(to)?;
            if self.outcome.is_some() {
                return Err(MoveError::Illegal("the game is over".into()));
            }
            if !self.step_valid(m, d) {
                return Err(MoveError::Illegal(self.step_error(m, d)));
            }
            return Ok(AkronMove::Step(m, d));
        }
        let p = self.parse_point(text)?;
        if self.outcome.is_some() {
            return Err(MoveError::Illegal("the game is over".into()));
        }
        let name = self.geo.point_name(p);
        if self.geo.level[p as usize] > 0 {
            return Err(MoveError::Illegal(format!(
                "{name}: balls from the pile go on a surface hole, never onto the stack"
            )));
        }
        if self.cells[p as usize] != EMPTY {
            return Err(MoveError::Illegal(format!("{name} is occupied")));
        }
        if self.piles[self.turn.to_move().index()] == 0 {
            return Err(MoveError::Illegal(format!(
                "{}'s pile is empty",
                self.turn.to_move().name()
            )));
        }
        Ok(AkronMove::Add(p))
    }

    fn format_move(&self, mv: AkronMove) -> String {
        match mv {
            AkronMove::Swap => "swap".to_string(),
            AkronMove::Add(p) => self.geo.point_name(p).to_string(),
            AkronMove::Step(m, d) => {
                format!("{}-{}", self.geo.point_name(m), self.geo.point_name(d))
            }
        }
    }

    fn showboard(&self) -> String {
        super::display::render_board(self)
    }

    fn drawing(&self) -> crate::drawing::Drawing {
        super::display::drawing(self)
    }

    fn setup(&mut self, color: Option<Color>, point: &str) -> Result<(), String> {
        if !self.history.is_empty() {
            return Err("setup is only allowed before the first move".into());
        }
        let p = self.geo.parse_point(point)?;
        let pu = p as usize;
        let name = self.geo.point_name(p).to_string();
        let old = self.cells[pu];
        match color {
            None => {
                if old == EMPTY {
                    return Ok(());
                }
                if self.balls_above(p) > 0 {
                    return Err(format!("{name} supports a ball: remove that first"));
                }
                self.set_cell(p, EMPTY);
                let c = old as usize - 1;
                self.set_pile(c, self.piles[c] + 1);
            }
            Some(color) => {
                let v = piece(color);
                if old == v {
                    return Ok(());
                }
                if old == EMPTY && !self.supported(p) {
                    return Err(format!("{name} lacks a support"));
                }
                let c = color.index();
                if self.piles[c] == 0 {
                    return Err(format!("{}'s pile is empty", color.name()));
                }
                if old != EMPTY {
                    let o = old as usize - 1;
                    self.set_pile(o, self.piles[o] + 1);
                }
                self.set_cell(p, v);
                self.set_pile(c, self.piles[c] - 1);
            }
        }
        self.keys.clear();
        self.keys.push(self.position_key());
        self.irreversible = 0;
        self.refresh_outcome();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The legal moves as a sorted list (their order follows the group
    /// numbering, which a recomputation may change).
    fn sorted_moves(pos: &Akron) -> Vec<String> {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut names: Vec<String> = moves.iter().map(|m| format!("{m:?}")).collect();
        names.sort();
        names
    }

    /// Undoing a long game on the largest board, past what the ring of saved
    /// states holds, gives back every position: its hash, outcome and legal
    /// moves.
    #[test]
    fn undo_past_the_ring_restores_every_position() {
        let mut pos = Akron::new(super::super::MAX_SIZE).unwrap();
        let slots = saved_slots(pos.geo.num_points);
        let mut seen = Vec::new();
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut moves = Vec::new();
        while seen.len() < slots + 200 {
            moves.clear();
            pos.legal_moves(&mut moves);
            if moves.is_empty() || pos.outcome.is_some() {
                break;
            }
            seen.push((pos.hash, pos.outcome, sorted_moves(&pos)));
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            // Mostly steps, to stack balls and move them.
            let steps: Vec<AkronMove> = moves
                .iter()
                .copied()
                .filter(|m| matches!(m, AkronMove::Step(..)))
                .collect();
            let pool = if !steps.is_empty() && !rng.is_multiple_of(4) {
                &steps
            } else {
                &moves
            };
            pos.play(pool[(rng >> 8) as usize % pool.len()]);
        }
        assert!(
            seen.len() > slots,
            "the game ended after {} moves",
            seen.len()
        );
        assert!(pos.saved.len() <= slots);
        while let Some((hash, outcome, legal)) = seen.pop() {
            pos.undo();
            assert_eq!(pos.hash, hash, "move {}", seen.len());
            assert_eq!(pos.outcome, outcome, "move {}", seen.len());
            assert_eq!(sorted_moves(&pos), legal, "move {}", seen.len());
        }
    }
}
