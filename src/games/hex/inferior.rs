//! Inferior-cell analysis for Hex: dead cells, captured cells, their
//! fill-in, and dominated moves, from local patterns that are proved sound
//! below (and checked against exhaustive minimax in `tests/it/hex_vc.rs`).
//! Benzene's ICEngine (Henderson, Hayward, Arneson) is the model; the
//! patterns here are a small, provable subset of it.
//!
//! # The ring of a cell
//!
//! The *ring* of an empty cell `c` is its six neighbour positions in
//! circular order, steps (1,0), (1,−1), (0,−1), (−1,0), (−1,1), (0,1):
//! each is a board cell (empty, Black or White) or off the board. An
//! off-board position beyond row 1 or row N is part of Black's edge and
//! counts as a Black stone, one beyond column `a` or the last column as a
//! White stone; the two positions beyond both (at the obtuse corners) are
//! *walls*, of neither colour (they add no adjacency: every edge a cell
//! touches is also one of its unambiguous positions). Consecutive ring
//! positions are adjacent to each other on the board (or belong to the
//! same edge), so a set of ring positions that forms one circular run is
//! connected without `c`.
//!
//! # Dead cells (pattern D)
//!
//! `c` is *useless* for colour X when, for every way of filling the empty
//! positions of its ring, the ring positions that are X (stones, X's
//! edge, filled cells) form at most one circular run. Then no minimal
//! X-winning set holds `c`: in a winning chain through `c`, `c`'s X
//! neighbours are already joined around the ring, so the set without `c`
//! wins too. The test runs over the at most 2⁶ fillings of each of the
//! 4⁶ ring states once, into a table.
//!
//! *Theorem.* On a full Hex board exactly one colour connects, so a cell
//! useless for one colour is useless for both: if X-useful, some minimal
//! X-winning set S holds `c`; fill S with X and every other cell with Y,
//! then switch `c` to Y: X no longer connects, so Y does with a set
//! holding `c`, and (Y-useless) Y still connects with `c` switched back to
//! X, as X does with S: impossible. Hence a cell useless for either
//! colour is **dead**: its colour changes no full board's winner, so it
//! may be filled with either colour without changing the value. Examples:
//! four or more consecutive ring positions of one colour; three of one
//! colour then two of the other; an edge cell whose two edge positions
//! and a neighbouring stone of that edge's colour are consecutive.
//!
//! Deadness is kept when stones are added (a minimal winning set of the
//! larger position holding `c` extends to one of the smaller position
//! holding `c`), so every cell found dead stays dead while others fill.
//!
//! # Cut-off cells (pattern R)
//!
//! An empty cell that some colour X cannot reach from one of its edges
//! through empty cells and X's stones is useless for X (a minimal winning
//! set holding it would join it to both edges through X's stones and the
//! set), hence dead.
//!
//! # Regions behind a clique cutset (pattern K)
//!
//! Let G be a group of X: one chain of X's stones, or one of X's edges
//! with the chains touching it. Its empty neighbours (with the edge's
//! empty cells, for an edge's group) form the set K; any two cells of K
//! are joined through G. An empty cell outside K that X cannot reach from
//! either of its edges through empty cells and X's stones once K is taken
//! out is useless for X: an X chain from edge to edge through it enters
//! its region through a cell u of K and leaves it through a cell v of K
//! (the region touches neither edge), and u–G–v joins the chain without
//! the region, so no minimal winning set holds the cell; hence it is dead.
//! This is Benzene's dead regions of a group's clique cutset
//! (`ComputeDeadRegions`), for every group (Benzene skips single stones).
//!
//! # Captured pairs (pattern C)
//!
//! Two adjacent empty cells `a`, `b` are *captured* by X when, with `b`
//! X, `a` is dead (pattern D on `a`'s ring), and with `a` X, `b` is dead.
//! X may then fill both: filling can only help X (an extra stone never
//! hurts in Hex), and in the original position X answers an intrusion of
//! Y at one by the other, after which the intruding stone is dead and may
//! be recoloured X, so X's strategy for the filled position still wins.
//! The classic instance: edge template II, an X stone on the second row
//! from X's edge and the two empty cells between it and the edge.
//!
//! # Permanently inferior cells (pattern P)
//!
//! An empty cell `c` whose ring holds three consecutive positions of X
//! (stones, X's edge, filled cells) and three empty cells: `a` and `b`
//! next to the run's two ends, `m` between them; and beside each of `a`
//! and `b`, away from `c`, one of: an X on the position next to it and to
//! the run's end, an X on the position next to it and to `m`, or a Y on
//! the position straight beyond it from `c`. These are Benzene's `pinf`
//! fill-in patterns (nine, with their turns), the *permanently inferior*
//! cells of Henderson, Arneson and Hayward ("Solving 8×8 Hex", 2009): X
//! may fill `c` without changing the value, for either side to move,
//! while `a`, `m` and `b` (the *carrier*) are empty. What the ring shows:
//! on a full board `c`'s colour matters only when `m` is X and `a`, `b`
//! are Y (otherwise X's ring positions form one run), and once X holds
//! `m` and `c`, each side condition leaves `a` and `b` dead. The fill is
//! the literature's theorem, not proved here; the tests check every cell
//! the pattern finds against exhaustive search (4×4 to 6×6, both sides
//! to move). Unlike dead and captured cells, the fill does not stay valid
//! when Y plays on the carrier, so the fill-in reports the carriers and a
//! descendant inherits it only while Y has no stone on them
//! ([`fill_in_with_carrier`]). X's own stones there keep it: X on `a` or
//! `b` makes `c` dead (four X in a run); after X on `m`, Y's intrusion at
//! any of `a`, `b`, `c` is answered by X at another (`c`, or `a` when Y
//! took `c`), after which all three are dead: a captured set. So a
//! winning move of the filled position still wins in the original (off
//! the carrier the pattern stays).
//!
//! # Acute corners (pattern A)
//!
//! In the frame of Black and the acute corner at the last row and column
//! (8×8 names): a Black stone at g6, the cells h6, h7, g7, f8, g8 and h8
//! empty, and f7 and e8 not White. Then Black may fill f8, g8 and h8 and
//! White h6 and h7 together, for either side to move; g7 stays empty.
//! White's half alone does not keep the value (exhaustive search on 5×5
//! finds positions where it changes it); once Black holds the corner's
//! row, h6 and h7 are a pair captured by White (pattern C), so the
//! pattern's own part is Black's row, and both are filled at once as
//! Benzene does. This is one of Benzene's capture patterns (fill-in
//! patterns of Henderson, Arneson and Hayward), found where Benzene filled
//! cells our other patterns leave empty; like pattern P it is the
//! literature's, not proved here, and the tests check it against
//! exhaustive search on 4×4 to 6×6.
//! The same holds turned by a half-turn (the other acute corner) and
//! mirrored across the long diagonal with the colours exchanged (White's
//! stone; the transposition maps the grid to itself and each colour's
//! edges to the other's). While the fill is inherited by descendants,
//! a stone on g7, or a White one on f7 or e8, ends it (the carrier).
//!
//! # Fill-in
//!
//! [`fill_in`] fills every dead cell (patterns D, R and K; with the colour
//! holding more of its ring, Black on a tie: either keeps the value) and
//! every captured pair
//! (with its capturer; pairs disjoint from each other and from the dead
//! cells found in the same pass), then the permanently inferior cells one
//! at a time (each found on the board as filled so far), then the acute
//! corners (pattern A), then looks again
//! until nothing is found: each step keeps the value, and the dead and
//! captured cells stay so when stones are added. Moves into the fill-in
//! need not be searched while
//! the filled position has an empty cell: a winning move of the filled
//! position wins in the original too (the fill-in stays valid after a
//! move outside it). When the fill-in covers the board they may be needed
//! (the win may be a move into one's own captured pair).
//!
//! # Dominated moves (pattern M)
//!
//! On a filled position (no dead cell, no captured pair), a move of X at
//! `a` *dominates* X's move at `b` when, after X plays `a`, `b` is dead or
//! in a pair captured by X (only neighbours of `a` and their neighbours
//! can change): then position+Xa equals position+Xa+Xb, which is at least
//! position+Xb for X. Dominated moves are pruned in cell order, `b` only
//! when a dominator of it is not pruned so far; following dominators
//! then ends at a kept move, so whenever X wins, a kept move wins.
//!
//! # Vulnerable moves (pattern V)
//!
//! On a filled position F, X's move at `b` is *vulnerable* with *killer*
//! `y` when `y` is an empty neighbour of `b` and a Y stone on `y` makes `b`
//! dead (pattern D). [`vulnerable`] prunes such moves from X's list K₀ (the
//! moves left after the fill-in and the dominated cells, all of X's
//! winning moves that are not dominated among them), one killer chosen for
//! each, when (1) no killer is next to a dominated cell, and (2) a kept
//! move `k` is no chosen killer.
//!
//! *Claim.* If X wins F, a kept move wins. Suppose not. Let Q₀ = F, and
//! follow a winning move of Qᵢ (X to move), which wins in F too (F has
//! fewer Y stones): by the dominated cells' order it leads to a winning
//! move of K₀ (each step "after Xa, `b` is dead or captured" still holds
//! in Qᵢ, since deadness is kept when stones are added, and the dominator
//! and the partner of a captured pair are neighbours of a dominated cell,
//! so by (1) no killer, still empty). That move `z` is pruned, with killer
//! `y`. If `y` is empty in Qᵢ: Y answers X's `z` with `y`, after which `z`
//! is dead, so X, to move, wins Qᵢ₊₁ = Qᵢ + Y`y` (an empty dead cell is no
//! worse for X than one filled by Y); go on with it. If `y` is Y's
//! already, `z` is dead in Qᵢ, so X wins Qᵢ after any move (one filled
//! dead cell is worth a pass, and any X stone is no worse): then `k`,
//! empty in Qᵢ by (2), wins in Qᵢ and in F, a contradiction. Each step
//! adds a Y stone, so the second case comes.

use std::sync::LazyLock;

use super::board::{Hex, edge_bits};
use super::geometry::{Bits, Cell, Geometry, MAX_CELLS, WORDS};
use crate::game::Color;

/// Ring position values (two bits each in a ring code).
const EMPTY: usize = 0;
const BLACK: usize = 1;
const WHITE: usize = 2;
const WALL: usize = 3;

/// Pattern P's side conditions in the frame of rotation 0 (the run at
/// ring slots 3, 4, 5; the carrier at slots 0, 1, 2): a position next to
/// the carrier's end at slot 2 (`a`) and one next to its end at slot 0
/// (`b`), with whether the filling colour (`true`) or the other holds it.
const SIDE_A: [((i32, i32), bool); 3] = [((-1, -1), true), ((1, -2), true), ((0, -2), false)];
/// See [`SIDE_A`].
const SIDE_B: [((i32, i32), bool); 3] = [((1, 1), true), ((2, -1), true), ((2, 0), false)];

/// Pattern A in the frame of Black and the corner at the last column and
/// row: offsets from that corner cell (8×8 names in the comments).
const CORNER_STONE: (i32, i32) = (-1, -2); // g6
/// Pattern A's cells that must be empty: h6, h7, g7, f8, g8, h8.
const CORNER_EMPTY: [(i32, i32); 6] = [(0, -2), (0, -1), (-1, -1), (-2, 0), (-1, 0), (0, 0)];
/// Pattern A's cells that must not hold the other colour: f7, e8.
const CORNER_NOT_OTHER: [(i32, i32); 2] = [(-2, -1), (-3, 0)];
/// Pattern A's fill for the stone's colour (f8, g8, h8) and for the other
/// (h6, h7); g7 stays empty.
const CORNER_OWN: [(i32, i32); 3] = [(-2, 0), (-1, 0), (0, 0)];
/// See [`CORNER_OWN`].
const CORNER_OTHER: [(i32, i32); 2] = [(0, -2), (0, -1)];

/// A step turned `r` times by a sixth of a turn (ring slot `i` to `i + r`).
const fn rotate((mut dx, mut dy): (i32, i32), r: usize) -> (i32, i32) {
    let mut i = 0;
    while i < r {
        (dx, dy) = (dx + dy, -dx);
        i += 1;
    }
    (dx, dy)
}

/// Per ring code: bit `6x + r` when rotation `r` of pattern P's ring
/// holds for the filling colour of index `x` (slots `r+3`, `r+4`, `r+5`
/// of that colour, slots `r`, `r+1`, `r+2` empty).
static PERMANENTLY_INFERIOR: LazyLock<[u16; 4096]> = LazyLock::new(|| {
    std::array::from_fn(|code| {
        let v = |slot: usize| (code >> (2 * (slot % 6))) & 3;
        let mut out = 0u16;
        for (x, colour) in [BLACK, WHITE].into_iter().enumerate() {
            for r in 0..6 {
                if (0..3).all(|s| v(r + s) == EMPTY) && (3..6).all(|s| v(r + s) == colour) {
                    out |= 1 << (6 * x + r);
                }
            }
        }
        out
    })
});

/// Whether the set bits of a 6-bit circular mask form at most one run.
const fn one_run(m: u8) -> bool {
    if m == 0 || m == 0x3f {
        return true;
    }
    // Bit i of `prev` is bit i − 1 of `m` (circularly).
    let prev = ((m << 1) | (m >> 5)) & 0x3f;
    (m & !prev).count_ones() <= 1
}

/// Whether a cell with ring `code` is useless for `colour` (BLACK or
/// WHITE): every filling of the empty positions leaves the colour's
/// positions in at most one run.
const fn useless(code: usize, colour: usize) -> bool {
    let (mut own, mut empty) = (0u8, 0u8);
    let mut i = 0;
    while i < 6 {
        let v = (code >> (2 * i)) & 3;
        if v == colour {
            own |= 1 << i;
        } else if v == EMPTY {
            empty |= 1 << i;
        }
        i += 1;
    }
    let mut t = empty;
    loop {
        if !one_run(own | t) {
            return false;
        }
        if t == 0 {
            return true;
        }
        t = (t - 1) & empty;
    }
}

/// Per ring code: bit 0 useless for Black, bit 1 useless for White.
static DEAD: LazyLock<[u8; 4096]> = LazyLock::new(|| {
    std::array::from_fn(|code| useless(code, BLACK) as u8 | (useless(code, WHITE) as u8) << 1)
});

#[inline]
fn has(b: &Bits, c: usize) -> bool {
    b[c / 64] & (1 << (c % 64)) != 0
}

#[inline]
fn set(b: &mut Bits, c: usize) {
    b[c / 64] |= 1 << (c % 64);
}

#[inline]
fn clear(b: &mut Bits, c: usize) {
    b[c / 64] &= !(1 << (c % 64));
}

/// The cells of `b`, in increasing order.
fn cells(b: Bits, words: usize) -> impl Iterator<Item = usize> {
    (0..words).flat_map(move |k| {
        let mut w = b[k];
        std::iter::from_fn(move || {
            (w != 0).then(|| {
                let c = k * 64 + w.trailing_zeros() as usize;
                w &= w - 1;
                c
            })
        })
    })
}

/// One instance of pattern A: the cells it fills and its carrier, each
/// by colour index (the carrier as [`fill_in_with_carrier`] reports it:
/// cells where a stone of the other colour ends the fill).
#[derive(Clone, Copy)]
struct AcuteCorner {
    fill: [Bits; 2],
    carrier: [Bits; 2],
}

/// A board as two stone sets, on which the analysis fills cells.
struct Board<'a> {
    geo: &'a Geometry,
    /// Stones by colour index.
    st: [Bits; 2],
}

impl Board<'_> {
    fn of(pos: &Hex) -> Board<'_> {
        Board {
            geo: pos.geometry(),
            st: [*pos.bits(Color::Black), *pos.bits(Color::White)],
        }
    }

    /// `pos` with `fill` (as [`fill_in`] gives) placed.
    fn filled<'a>(pos: &'a Hex, fill: &[Bits; 2]) -> Board<'a> {
        let mut board = Board::of(pos);
        for (st, f) in board.st.iter_mut().zip(fill) {
            for k in 0..WORDS {
                st[k] |= f[k];
            }
        }
        board
    }

    fn empty(&self) -> Bits {
        std::array::from_fn(|k| self.geo.all[k] & !(self.st[0][k] | self.st[1][k]))
    }

    fn is_empty(&self, c: usize) -> bool {
        !has(&self.st[0], c) && !has(&self.st[1], c)
    }

    /// The ring code of cell `c`: two bits a position, in ring order.
    #[inline]
    fn ring(&self, c: usize) -> usize {
        let r = &self.geo.ring[c];
        let mut code = r.edge_code as usize;
        for &(q, slot) in &r.cells[..r.count as usize] {
            let q = q as usize;
            let v = has(&self.st[0], q) as usize | (has(&self.st[1], q) as usize) << 1;
            code |= v << (2 * slot);
        }
        code
    }

    fn dead(&self, c: usize) -> bool {
        DEAD[self.ring(c)] != 0
    }

    /// The cells reached from `from` through `pass` (both sets of cells).
    fn flood(&self, pass: &Bits, from: &Bits) -> Bits {
        self.flood_to(pass, &[0; WORDS], from)
    }

    /// The union of the neighbour sets of the cells of `set`.
    fn neighbours(&self, set: &Bits) -> Bits {
        let mut nb = [0u64; WORDS];
        for c in cells(*set, self.geo.words) {
            let m = &self.geo.neighbour_bits[c];
            for k in 0..WORDS {
                nb[k] |= m[k];
            }
        }
        nb
    }

    /// The chains of stones `own` (one colour's) that hold the cells of
    /// `of`, one at a time.
    fn chains<'s>(&'s self, own: &'s Bits, of: Bits) -> impl Iterator<Item = Bits> + 's {
        let mut left = of;
        std::iter::from_fn(move || {
            let start = cells(left, self.geo.words).next()?;
            let mut one = [0u64; WORDS];
            set(&mut one, start);
            let chain = self.flood(own, &one);
            for k in 0..WORDS {
                left[k] &= !chain[k];
            }
            Some(chain)
        })
    }

    /// The empty cells cut off (pattern R): for some colour, not reached
    /// from one of its edges through empty cells and its own stones, or
    /// (pattern K) not reached from either edge when a clique cutset of
    /// one of its groups is taken out.
    fn cut_off(&self) -> Bits {
        let empty = self.empty();
        let mut out = [0u64; WORDS];
        for color in Color::ALL {
            let own = &self.st[color.index()];
            let pass: Bits = std::array::from_fn(|k| empty[k] | own[k]);
            let (ea, eb) = edge_bits(color);
            let (sa, sb) = (self.geo.edge_set(ea), self.geo.edge_set(eb));
            let a = self.flood(&pass, sa);
            let b = self.flood(&pass, sb);
            for k in 0..WORDS {
                out[k] |= empty[k] & !(a[k] & b[k]);
            }
            // Pattern K, over the cutset `cut` of one group.
            let mut cut_by = |cut: &Bits| {
                let through: Bits = std::array::from_fn(|k| pass[k] & !cut[k]);
                let a = self.flood(&through, sa);
                let b = self.flood(&through, sb);
                for k in 0..WORDS {
                    out[k] |= empty[k] & !cut[k] & !(a[k] | b[k]);
                }
            };
            // Each chain of the colour's stones.
            for chain in self.chains(own, *own) {
                let nb = self.neighbours(&chain);
                cut_by(&std::array::from_fn(|k| nb[k] & empty[k]));
            }
            // Each edge with the chains touching it.
            for side in [sa, sb] {
                let group = self.flood(own, side);
                let nb = self.neighbours(&group);
                cut_by(&std::array::from_fn(|k| (nb[k] | side[k]) & empty[k]));
            }
        }
        out
    }

    /// The colour that fills dead cell `c`: the one holding more of its
    /// ring, Black on a tie.
    fn dead_fill(&self, c: usize) -> usize {
        let code = self.ring(c);
        let count = |v| (0..6).filter(|i| (code >> (2 * i)) & 3 == v).count();
        if count(WHITE) > count(BLACK) { 1 } else { 0 }
    }

    /// Whether the adjacent empty cells `a`, `b` are captured by the
    /// colour of index `x` (pattern C).
    fn captured_pair(&mut self, a: usize, b: usize, x: usize) -> bool {
        set(&mut self.st[x], b);
        let a_dead = self.dead(a);
        clear(&mut self.st[x], b);
        if !a_dead {
            return false;
        }
        set(&mut self.st[x], a);
        let b_dead = self.dead(b);
        clear(&mut self.st[x], a);
        b_dead
    }

    /// The value at the position `(dx, dy)` from cell `c` (a stone's
    /// colour, an edge's colour off the board, a wall beyond two edges).
    fn at(&self, c: usize, (dx, dy): (i32, i32)) -> usize {
        let n = self.geo.n as i32;
        let (x, y) = ((c as i32 % n) + dx, (c as i32 / n) + dy);
        match ((0..n).contains(&x), (0..n).contains(&y)) {
            (true, true) => {
                let q = (y * n + x) as usize;
                has(&self.st[0], q) as usize | (has(&self.st[1], q) as usize) << 1
            }
            (true, false) => BLACK,
            (false, true) => WHITE,
            (false, false) => WALL,
        }
    }

    /// Whether empty cell `c` is permanently inferior (pattern P): the
    /// colour index that fills it, and its carrier (the three empty
    /// cells of its ring, which must stay empty for the fill to hold).
    fn permanently_inferior(&self, c: usize) -> Option<(usize, [usize; 3])> {
        let mut cand = PERMANENTLY_INFERIOR[self.ring(c)];
        while cand != 0 {
            let bit = cand.trailing_zeros() as usize;
            cand &= cand - 1;
            let (x, r) = (bit / 6, bit % 6);
            let colour = [BLACK, WHITE][x];
            let side = |options: &[((i32, i32), bool); 3]| {
                options.iter().any(|&(step, own)| {
                    let v = self.at(c, rotate(step, r));
                    v == if own { colour } else { BLACK + WHITE - colour }
                })
            };
            if side(&SIDE_A) && side(&SIDE_B) {
                let ring = &self.geo.ring[c];
                let slot = |s: usize| {
                    let want = ((s + r) % 6) as u8;
                    ring.cells[..ring.count as usize]
                        .iter()
                        .find(|&&(_, k)| k == want)
                        .map(|&(q, _)| q as usize)
                        .expect("an empty ring position is a cell")
                };
                return Some((x, [slot(0), slot(1), slot(2)]));
            }
        }
        None
    }

    /// The instances of pattern A on the board, one slot for each of its
    /// four frames (the two acute corners, a stone of either colour).
    fn acute_corners(&self) -> [Option<AcuteCorner>; 4] {
        let n = self.geo.n as i32;
        // (corner, sign, transposed): the frame's offsets turned to the
        // corner at (0, 0) by a half-turn, mirrored for White's stone.
        let frames = [
            (n - 1, 1, false),
            (0, -1, false),
            (n - 1, 1, true),
            (0, -1, true),
        ];
        frames.map(|(corner, sign, transposed)| {
            let x = transposed as usize;
            let cell = |(dx, dy): (i32, i32)| {
                let (dx, dy) = if transposed { (dy, dx) } else { (dx, dy) };
                ((corner + sign * dy) * n + corner + sign * dx) as usize
            };
            let empty = |d| self.is_empty(cell(d));
            let other = |d| has(&self.st[1 - x], cell(d));
            (n >= 4
                && has(&self.st[x], cell(CORNER_STONE))
                && CORNER_EMPTY.iter().all(|&d| empty(d))
                && !CORNER_NOT_OTHER.iter().any(|&d| other(d)))
            .then(|| {
                let mut fill = [[0u64; WORDS]; 2];
                for d in CORNER_OWN {
                    set(&mut fill[x], cell(d));
                }
                for d in CORNER_OTHER {
                    set(&mut fill[1 - x], cell(d));
                }
                // g7 must stay empty (a stone of either colour ends the
                // fill), f7 and e8 free of the other colour.
                let mut carrier = [[0u64; WORDS]; 2];
                let g7 = cell(CORNER_EMPTY[2]);
                for q in [g7, cell(CORNER_NOT_OTHER[0]), cell(CORNER_NOT_OTHER[1])] {
                    set(&mut carrier[x], q);
                }
                set(&mut carrier[1 - x], g7);
                AcuteCorner { fill, carrier }
            })
        })
    }

    /// One pass of fill-in: fills the dead cells and disjoint captured
    /// pairs found, then the permanently inferior cells one at a time
    /// (each found on the board as filled so far, its carrier added to
    /// `carrier`); returns whether any was.
    fn fill_pass(&mut self, carrier: &mut [Bits; 2]) -> bool {
        let words = self.geo.words;
        let empty = self.empty();
        let mut used = [0u64; WORDS];
        let mut add = [[0u64; WORDS]; 2];
        let cut = self.cut_off();
        for c in cells(empty, words) {
            if has(&cut, c) || self.dead(c) {
                set(&mut add[self.dead_fill(c)], c);
                set(&mut used, c);
            }
        }
        for a in cells(empty, words) {
            if has(&used, a) {
                continue;
            }
            'pair: for &b in self.geo.neighbours_of(a as Cell) {
                let b = b as usize;
                if b < a || !self.is_empty(b) || has(&used, b) {
                    continue;
                }
                for (x, add) in add.iter_mut().enumerate() {
                    if self.captured_pair(a, b, x) {
                        set(add, a);
                        set(add, b);
                        set(&mut used, a);
                        set(&mut used, b);
                        break 'pair;
                    }
                }
            }
        }
        for (st, add) in self.st.iter_mut().zip(&add) {
            for k in 0..WORDS {
                st[k] |= add[k];
            }
        }
        let mut found = used.iter().any(|&w| w != 0);
        for c in cells(self.empty(), words) {
            if let Some((x, ring)) = self.permanently_inferior(c) {
                set(&mut self.st[x], c);
                for q in ring {
                    set(&mut carrier[x], q);
                }
                found = true;
            }
        }
        for corner in self.acute_corners().into_iter().flatten() {
            // An earlier instance of this pass may have filled its cells.
            if (0..WORDS).any(|k| {
                (corner.fill[0][k] | corner.fill[1][k]) & (self.st[0][k] | self.st[1][k]) != 0
            }) {
                continue;
            }
            for (to, from) in self
                .st
                .iter_mut()
                .chain(carrier.iter_mut())
                .zip(corner.fill.iter().chain(&corner.carrier))
            {
                for (w, f) in to.iter_mut().zip(from) {
                    *w |= f;
                }
            }
            found = true;
        }
        found
    }
}

/// The dead empty cells of `pos` (patterns D, R and K), found on the position
/// as it is (without fill-in).
pub fn dead_cells(pos: &Hex) -> Bits {
    let cut = Board::of(pos).cut_off();
    let ring = ring_dead_cells(pos);
    std::array::from_fn(|k| cut[k] | ring[k])
}

/// The dead empty cells of `pos` by the ring pattern D alone: cheaper
/// than [`dead_cells`] (no flood), for the searcher's every node.
pub fn ring_dead_cells(pos: &Hex) -> Bits {
    let board = Board::of(pos);
    let mut out = [0u64; WORDS];
    for c in cells(board.empty(), board.geo.words) {
        if board.dead(c) {
            set(&mut out, c);
        }
    }
    out
}

/// The empty cells of `pos` in a pair captured by `color` (pattern C),
/// on the position as it is (without fill-in; dead cells are left out).
/// Filling all of them with `color` keeps the value.
pub fn captured_cells(pos: &Hex, color: Color) -> Bits {
    let mut board = Board::of(pos);
    let mut out = [0u64; WORDS];
    let x = color.index();
    for a in cells(board.empty(), board.geo.words) {
        if board.dead(a) {
            continue;
        }
        for &b in board.geo.neighbours_of(a as Cell) {
            let b = b as usize;
            if board.is_empty(b) && !board.dead(b) && board.captured_pair(a, b, x) {
                set(&mut out, a);
                set(&mut out, b);
            }
        }
    }
    out
}

/// The cells pattern A fills on `pos` as it is (without fill-in), by the
/// filling colour's index: for each acute corner that holds the pattern,
/// the stone's colour on its corner row and the other colour on the two
/// cells beside the stone. Filling one instance's cells keeps the value.
pub fn acute_corner_cells(pos: &Hex) -> Vec<[Bits; 2]> {
    let board = Board::of(pos);
    board
        .acute_corners()
        .into_iter()
        .flatten()
        .map(|corner| corner.fill)
        .collect()
}

/// The fill-in of `pos`: the empty cells to fill with Black and with
/// White (indexed by [`Color::index`]), dead cells and captured pairs
/// iterated until none is left. The filled position has the value of
/// `pos` for either side to move.
pub fn fill_in(pos: &Hex) -> [Bits; 2] {
    fill_in_with_carrier(pos).0
}

/// [`fill_in`] and the carriers of its permanently inferior cells (by the
/// filling colour's index): the empty cells that must stay empty for the
/// fill-in to hold in a position with more stones.
pub fn fill_in_with_carrier(pos: &Hex) -> ([Bits; 2], [Bits; 2]) {
    let mut board = Board::of(pos);
    let mut carrier = [[0u64; WORDS]; 2];
    while board.fill_pass(&mut carrier) {}
    let (b, w) = (pos.bits(Color::Black), pos.bits(Color::White));
    let fill = [
        std::array::from_fn(|k| board.st[0][k] & !b[k]),
        std::array::from_fn(|k| board.st[1][k] & !w[k]),
    ];
    (fill, carrier)
}

/// The empty cells of `pos` that are permanently inferior and filled by
/// `color` (pattern P), on the position as it is (without fill-in); each
/// one alone may be filled with `color` without changing the value.
pub fn permanently_inferior_cells(pos: &Hex, color: Color) -> Bits {
    let board = Board::of(pos);
    let mut out = [0u64; WORDS];
    for c in cells(board.empty(), board.geo.words) {
        if board
            .permanently_inferior(c)
            .is_some_and(|(x, _)| x == color.index())
        {
            set(&mut out, c);
        }
    }
    out
}

/// A group of one colour for [`decomposition`]: its stones, and the
/// edge it holds (0 or 1 in [`edge_bits`] order) if any.
struct Group {
    stones: Bits,
    edge: Option<usize>,
}

impl Board<'_> {
    /// The groups of `color`: its two edges with the chains
    /// touching them, then its other chains; `None` when its two edges
    /// are joined.
    fn groups(&self, color: Color) -> Option<Vec<Group>> {
        let own = &self.st[color.index()];
        let (ea, eb) = edge_bits(color);
        let mut out = Vec::new();
        let mut left = *own;
        for (i, e) in [ea, eb].into_iter().enumerate() {
            let stones = self.flood(own, self.geo.edge_set(e));
            if (0..WORDS).any(|k| stones[k] & !left[k] != 0) {
                return None;
            }
            for k in 0..WORDS {
                left[k] &= !stones[k];
            }
            out.push(Group {
                stones,
                edge: Some(i),
            });
        }
        out.extend(
            self.chains(own, left)
                .map(|stones| Group { stones, edge: None }),
        );
        Some(out)
    }

    /// The empty cells next to group `g` of `color` (with its edge's
    /// empty cells when it holds one).
    fn liberties(&self, g: &Group, color: Color) -> Bits {
        let nb = self.neighbours(&g.stones);
        let empty = self.empty();
        let side = g.edge.map(|i| {
            let (ea, eb) = edge_bits(color);
            *self.geo.edge_set([ea, eb][i])
        });
        std::array::from_fn(|k| (nb[k] | side.map_or(0, |s| s[k])) & empty[k])
    }

    /// The cells a stone of `stones` is next to or joined to by a bridge
    /// with both its cells empty (Benzene's `oppmiai`).
    fn reach(&self, stones: &Bits) -> Bits {
        let mut out = self.neighbours(stones);
        for p in cells(*stones, self.geo.words) {
            let nbs = self.geo.neighbours_of(p as Cell);
            for (i, &r1) in nbs.iter().enumerate() {
                for &r2 in &nbs[i + 1..] {
                    let (r1, r2) = (r1 as usize, r2 as usize);
                    if !self.is_empty(r1)
                        || !self.is_empty(r2)
                        || !has(&self.geo.neighbour_bits[r1], r2)
                    {
                        continue;
                    }
                    let (m1, m2) = (&self.geo.neighbour_bits[r1], &self.geo.neighbour_bits[r2]);
                    for k in 0..WORDS {
                        out[k] |= m1[k] & m2[k];
                    }
                }
            }
            clear(&mut out, p);
        }
        out
    }

    /// Whether X's group `g` (stones reaching `reach`) touches Y's group
    /// `h`, directly or by a bridge (`y` is Y).
    fn touches(&self, g: &Group, reach: &Bits, h: &Group, y: Color) -> bool {
        if g.edge.is_some() && h.edge.is_some() {
            return true; // an edge of each colour meets the other's at a corner
        }
        if (0..WORDS).any(|k| reach[k] & h.stones[k] != 0) {
            return true;
        }
        let Some(i) = h.edge else {
            return false;
        };
        let (ea, eb) = edge_bits(y);
        let row = self.geo.edge_set([ea, eb][i]);
        cells(g.stones, self.geo.words).any(|p| {
            if has(row, p) {
                return true;
            }
            // Two neighbours on the edge's row, both empty: a bridge to it.
            let on_row = self.geo.neighbour_bits[p];
            let (mut count, mut free) = (0, true);
            for q in cells(std::array::from_fn(|k| on_row[k] & row[k]), self.geo.words) {
                count += 1;
                free &= self.is_empty(q);
            }
            count == 2 && free
        })
    }

    /// The cells reached from `from` through `pass`, entering the cells of
    /// `stop` but going on only from the others.
    fn flood_to(&self, pass: &Bits, stop: &Bits, from: &Bits) -> Bits {
        let mut reached: Bits = std::array::from_fn(|k| from[k] & pass[k]);
        let mut done = [0u64; WORDS];
        loop {
            let go: Bits = std::array::from_fn(|k| reached[k] & !stop[k] & !done[k]);
            if go.iter().all(|&w| w == 0) {
                return reached;
            }
            let nb = self.neighbours(&go);
            for k in 0..WORDS {
                done[k] |= go[k];
                reached[k] |= nb[k] & pass[k];
            }
        }
    }
}

/// A *decomposition* of `color` (Benzene's combinatorial decomposition,
/// `Decompositions::Find`): two of its groups G₁, G₂ that both touch two
/// of the opponent's groups (directly, or by a bridge whose two cells are
/// empty; the opponent's edges are groups, and each of the colour's edges
/// touches both of them at the corners), with a full connection whose
/// carrier lies in the region they enclose: the empty cells the colour
/// cannot reach from an edge that is neither G₁ nor G₂ through empty cells
/// and its stones, going on from no empty neighbour of G₁ or G₂. Then the
/// colour may fill that carrier: Benzene's rule (Henderson, Arneson and
/// Hayward), not proved here but checked, as every fill-in, against
/// exhaustive minimax in `tests/it/hex_vc.rs`. `fulls(a, b, out)` gives the carriers of the colour's
/// fulls between two groups, each named by a cell of its stones or `n²`,
/// `n² + 1` for its edges (as [`edge_bits`] orders them). `None` when there
/// is none, when the colour has a full between its edges already (its
/// win is proven), or past 128 opponent groups (one bit each).
pub(super) fn decomposition(
    pos: &Hex,
    color: Color,
    mut fulls: impl FnMut(usize, usize, &mut Vec<Bits>),
) -> Option<Bits> {
    let board = Board::of(pos);
    let nc = board.geo.n * board.geo.n;
    let mut carriers = Vec::new();
    fulls(nc, nc + 1, &mut carriers);
    if !carriers.is_empty() {
        return None;
    }
    let y = color.opponent();
    let (mine, theirs) = (board.groups(color)?, board.groups(y)?);
    if theirs.len() > 128 {
        return None;
    }
    // Per group of the colour: the opponent's groups it touches.
    let touched: Vec<u128> = mine
        .iter()
        .map(|g| {
            let reach = board.reach(&g.stones);
            theirs
                .iter()
                .enumerate()
                .filter(|(_, h)| board.touches(g, &reach, h, y))
                .fold(0, |m, (j, _)| m | 1 << j)
        })
        .collect();
    let name = |g: &Group| match g.edge {
        Some(i) => nc + i,
        None => cells(g.stones, board.geo.words).next().expect("a chain"),
    };
    let empty = board.empty();
    let own = board.st[color.index()];
    let (ea, eb) = edge_bits(color);
    for i in 0..mine.len() {
        for j in 0..i {
            if (touched[i] & touched[j]).count_ones() < 2 {
                continue;
            }
            let (g1, g2) = (&mine[i], &mine[j]);
            fulls(name(g1), name(g2), &mut carriers);
            if carriers.is_empty() {
                continue;
            }
            let (l1, l2) = (board.liberties(g1, color), board.liberties(g2, color));
            let stop: Bits = std::array::from_fn(|k| l1[k] | l2[k]);
            let pass: Bits =
                std::array::from_fn(|k| empty[k] | own[k] & !g1.stones[k] & !g2.stones[k]);
            let mut outside = [0u64; WORDS];
            for (e, bit) in [ea, eb].into_iter().enumerate() {
                if g1.edge != Some(e) && g2.edge != Some(e) {
                    let r = board.flood_to(&pass, &stop, board.geo.edge_set(bit));
                    for k in 0..WORDS {
                        outside[k] |= r[k];
                    }
                }
            }
            let area: Bits = std::array::from_fn(|k| empty[k] & !outside[k]);
            if let Some(c) = carriers
                .iter()
                .find(|c| c.iter().any(|&w| w != 0) && (0..WORDS).all(|k| c[k] & !area[k] == 0))
            {
                return Some(*c);
            }
        }
    }
    None
}

/// The empty cells of `pos` filled with `fill` (as [`fill_in`] gives)
/// where a move of `color` is dominated (pattern M): pruning them all
/// keeps a winning move of `color` whenever it has one.
pub fn dominated(pos: &Hex, fill: &[Bits; 2], color: Color) -> Bits {
    let mut board = Board::filled(pos, fill);
    let x = color.index();
    let words = board.geo.words;
    let empty = board.empty();
    let mut dominated_by = [[0u64; WORDS]; MAX_CELLS];
    for a in cells(empty, words) {
        set(&mut board.st[x], a);
        for &b in board.geo.neighbours_of(a as Cell) {
            let b = b as usize;
            if !board.is_empty(b) {
                continue;
            }
            if board.dead(b) {
                set(&mut dominated_by[b], a);
                continue;
            }
            for &d in board.geo.neighbours_of(b as Cell) {
                let d = d as usize;
                if board.is_empty(d) && board.captured_pair(b, d, x) {
                    set(&mut dominated_by[b], a);
                    set(&mut dominated_by[d], a);
                }
            }
        }
        clear(&mut board.st[x], a);
    }
    let mut pruned = [0u64; WORDS];
    for b in cells(empty, words) {
        let by = &dominated_by[b];
        if (0..WORDS).any(|k| by[k] & !pruned[k] != 0) {
            set(&mut pruned, b);
        }
    }
    pruned
}

/// The moves of `color` in `moves` (empty cells of `pos` with `fill`
/// placed, as [`fill_in`] gives; the moves left after the filled and the
/// dominated cells) that are vulnerable (pattern V) with a killer not next
/// to a cell of `dominated`, when a move would stay that is no chosen
/// killer; nothing otherwise. Pruning them keeps a winning move of
/// `color` whenever `moves` holds one that is not dominated.
pub fn vulnerable(
    pos: &Hex,
    fill: &[Bits; 2],
    color: Color,
    moves: &Bits,
    dominated: &Bits,
) -> Bits {
    let mut board = Board::filled(pos, fill);
    let words = board.geo.words;
    // Cells next to a dominated one may not be killers.
    let mut near = [0u64; WORDS];
    for d in cells(*dominated, words) {
        let m = &board.geo.neighbour_bits[d];
        for k in 0..WORDS {
            near[k] |= m[k];
        }
    }
    let y = color.opponent().index();
    let mut pruned = [0u64; WORDS];
    let mut killers = [0u64; WORDS];
    for b in cells(*moves, words) {
        for &q in board.geo.neighbours_of(b as Cell) {
            let q = q as usize;
            if !board.is_empty(q) || has(&near, q) {
                continue;
            }
            set(&mut board.st[y], q);
            let dead = board.dead(b);
            clear(&mut board.st[y], q);
            if dead {
                set(&mut pruned, b);
                set(&mut killers, q);
                break;
            }
        }
    }
    let witness = (0..WORDS).any(|k| moves[k] & !pruned[k] & !killers[k] != 0);
    if witness { pruned } else { [0; WORDS] }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(ring: [usize; 6]) -> usize {
        ring.iter().enumerate().map(|(i, &v)| v << (2 * i)).sum()
    }

    #[test]
    fn ring_patterns() {
        use super::{BLACK as B, EMPTY as E, WHITE as W};
        // Four consecutive of one colour: dead.
        assert_ne!(DEAD[code([B, B, B, B, E, E])], 0);
        assert_ne!(DEAD[code([E, W, W, W, W, E])], 0);
        // Three of one colour, then two of the other: dead.
        assert_ne!(DEAD[code([B, B, B, W, W, E])], 0);
        // An empty cell among empties, or between two stones of each
        // colour facing each other: alive.
        assert_eq!(DEAD[code([E; 6])], 0);
        assert_eq!(DEAD[code([B, W, B, W, E, E])], 0);
        assert_eq!(DEAD[code([B, B, B, E, E, E])], 0);
        // A wall joins nothing.
        assert_eq!(DEAD[code([B, WALL, B, W, E, W])], 0);
        assert!(one_run(0b000111) && one_run(0b100001) && !one_run(0b010101));
    }
}
