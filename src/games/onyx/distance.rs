//! Bit-parallel connection distances: a breadth-first search by levels over
//! bitsets of points. Level k holds the placeable empty points that k
//! placements reach from an edge; own pieces join the level that touches
//! them at no cost; opponent pieces and blocked midpoints are walls.

use std::mem::MaybeUninit;

use super::board::{Onyx, edge_bits};
use super::geometry::Geometry;
use crate::game::{Color, Game};

/// Calls the const-generic function `$f::<W>($args)` with `W` the board's
/// word count (1, 2, 4, 8 or 16).
macro_rules! by_words {
    ($pos:expr, $f:ident($($arg:expr),*)) => {
        match $pos.geometry().words {
            1 => $f::<1>($($arg),*),
            2 => $f::<2>($($arg),*),
            4 => $f::<4>($($arg),*),
            8 => $f::<8>($($arg),*),
            _ => $f::<16>($($arg),*),
        }
    };
}
pub(super) use by_words;

/// Distance reported when a colour can no longer connect.
pub const UNREACHABLE: u16 = 999;
/// Most levels kept (longer distances count as unreachable; no board is
/// that far across).
pub const MAX_LEVELS: usize = 64;

#[inline]
pub(super) fn any<const W: usize>(a: &[u64; W]) -> bool {
    let mut x = 0;
    for &w in a {
        x |= w;
    }
    x != 0
}

/// ORs the neighbour sets of every point of `set` into `nb`.
#[inline(always)]
pub(super) fn add_neighbours<const W: usize>(geo: &Geometry, set: &[u64; W], nb: &mut [u64; W]) {
    let (table, _) = geo.neighbour_bits.as_chunks::<W>();
    for (wi, &word) in set.iter().enumerate() {
        let mut w = word;
        while w != 0 {
            let p = wi * 64 + w.trailing_zeros() as usize;
            w &= w - 1;
            let m = &table[p];
            for k in 0..W {
                nb[k] |= m[k];
            }
        }
    }
}

/// The inputs of a search for one colour.
pub struct Board<const W: usize> {
    /// The colour's own pieces.
    pub own: [u64; W],
    /// Points that cost one placement: placeable empty points, and own
    /// pieces under capture threat.
    pub passable: [u64; W],
    /// Empty points where a piece may be placed.
    pub empty: [u64; W],
    /// Pieces of each colour that the other colour can capture with one
    /// placement: not a safe part of a connection.
    pub threatened: [[u64; W]; 2],
}

impl<const W: usize> Board<W> {
    /// Reads the position for `color`.
    pub fn new(pos: &Onyx, color: Color) -> Self {
        let own = [0u64; W];
        let mut empty = [0u64; W];
        for (k, e) in empty.iter_mut().enumerate() {
            *e = pos.placeable_word(k);
        }
        // Pairs under capture threat.
        let mut threatened = [[0u64; W]; 2];
        for (_, pair, color) in pos.capture_threats() {
            let t = &mut threatened[color.index()];
            for c in pair {
                t[c as usize / 64] |= 1 << (c % 64);
            }
        }
        let mut board = Board {
            own,
            passable: empty,
            empty,
            threatened,
        };
        board.set_color(pos, color);
        board
    }

    /// Makes `color` the colour whose distances are measured: its safe
    /// pieces cost nothing; when it is not its turn, its pieces under
    /// capture threat cost one placement, like an empty point (the side to
    /// move can still save or use them).
    fn set_color(&mut self, pos: &Onyx, color: Color) {
        let t = if color == pos.to_move() {
            [0; W]
        } else {
            self.threatened[color.index()]
        };
        let bits = pos.bits(color);
        for k in 0..W {
            self.own[k] = bits[k] & !t[k];
            self.passable[k] = self.empty[k] | t[k];
        }
    }

    /// The same board seen by the other colour.
    pub fn for_color(&self, pos: &Onyx, color: Color) -> Self {
        let mut board = Board {
            own: [0; W],
            passable: [0; W],
            empty: self.empty,
            threatened: self.threatened,
        };
        board.set_color(pos, color);
        board
    }
}

fn edge<const W: usize>(geo: &Geometry, bit: u8) -> [u64; W] {
    let mut e = [0u64; W];
    e.copy_from_slice(&geo.edge_bits[bit.trailing_zeros() as usize]);
    e
}

/// Adds to `reached` the own pieces that `nb` touches, and the pieces they
/// touch in turn (a free step), ORing their neighbours into `nb`.
#[inline(always)]
fn close<const W: usize>(
    geo: &Geometry,
    own: &[u64; W],
    reached: &mut [u64; W],
    nb: &mut [u64; W],
) {
    loop {
        let mut add = [0u64; W];
        for k in 0..W {
            add[k] = nb[k] & own[k] & !reached[k];
        }
        if !any(&add) {
            break;
        }
        for k in 0..W {
            reached[k] |= add[k];
        }
        add_neighbours(geo, &add, nb);
    }
}

#[inline]
fn meets<const W: usize>(a: &[u64; W], b: &[u64; W]) -> bool {
    let mut x = 0;
    for k in 0..W {
        x |= a[k] & b[k];
    }
    x != 0
}

/// Distance of `color` from its first edge to its second, if at most
/// `limit` (else [`UNREACHABLE`]). When `levels` is given, level k's newly
/// reached points go to `levels[k]`, for k from 1 up to the distance.
pub fn search<const W: usize>(
    geo: &Geometry,
    board: &Board<W>,
    color: Color,
    limit: usize,
    mut levels: Option<&mut [MaybeUninit<[u64; W]>; MAX_LEVELS]>,
) -> u16 {
    let (from, to) = edge_bits(color);
    let to = edge::<W>(geo, to);
    let mut reached = [0u64; W];
    let mut nb = edge::<W>(geo, from);
    close(geo, &board.own, &mut reached, &mut nb);
    if meets(&reached, &to) {
        return 0;
    }
    for level in 1..=limit.min(MAX_LEVELS - 1) {
        let mut new = [0u64; W];
        for k in 0..W {
            new[k] = nb[k] & board.passable[k] & !reached[k];
        }
        if !any(&new) {
            return UNREACHABLE;
        }
        if let Some(l) = levels.as_deref_mut() {
            l[level].write(new);
        }
        for k in 0..W {
            reached[k] |= new[k];
        }
        add_neighbours(geo, &new, &mut nb);
        close(geo, &board.own, &mut reached, &mut nb);
        if meets(&reached, &to) {
            return level as u16;
        }
    }
    UNREACHABLE
}

/// Connection distance and flexibility (empty points on some shortest
/// connection) of `color`.
pub fn distance_and_flexibility<const W: usize>(pos: &Onyx, color: Color) -> (u16, u16) {
    measure(pos, &Board::<W>::new(pos, color), color, &mut [0; W])
}

/// Whether `color` connects with one placement (its connection distance
/// is 1, its pieces under capture threat counting as unsafe when it is not
/// to move).
pub fn wins_next_move(pos: &Onyx, color: Color) -> bool {
    fn go<const W: usize>(pos: &Onyx, color: Color) -> bool {
        connects_in_one(pos.geometry(), &Board::<W>::new(pos, color), color)
    }
    by_words!(pos, go(pos, color))
}

/// Whether `color` connects with one placement on `board`.
pub(super) fn connects_in_one<const W: usize>(
    geo: &Geometry,
    board: &Board<W>,
    color: Color,
) -> bool {
    search(geo, board, color, 1, None) == 1
}

/// Entries of each thread's memo of contested points (a power of two).
const MEMO_ENTRIES: usize = 1 << 14;

/// A thread's recent contested-point sets by position hash: the search
/// visits a node again on every iteration.
struct Memo {
    /// Board size the entries belong to (hashes of other sizes differ).
    n: usize,
    keys: Vec<u64>,
    values: Vec<[u64; 16]>,
}

thread_local! {
    static MEMO: std::cell::RefCell<Memo> = const {
        std::cell::RefCell::new(Memo { n: 0, keys: Vec::new(), values: Vec::new() })
    };
}

/// The points costing a placement on some shortest connection of either
/// colour (`geo.words` words of the result), through this thread's memo.
pub fn contested(pos: &Onyx) -> [u64; 16] {
    let key = pos.hash();
    let n = pos.geometry().n;
    let slot = key as usize & (MEMO_ENTRIES - 1);
    let hit = MEMO.with_borrow(|m| (m.n == n && m.keys[slot] == key).then(|| m.values[slot]));
    if let Some(c) = hit {
        return c;
    }
    let c = by_words!(pos, contested_now(pos));
    MEMO.with_borrow_mut(|m| {
        if m.n != n {
            m.n = n;
            m.keys = vec![!0; MEMO_ENTRIES];
            m.values = vec![[0; 16]; MEMO_ENTRIES];
        }
        m.keys[slot] = key;
        m.values[slot] = c;
    });
    c
}

fn contested_now<const W: usize>(pos: &Onyx) -> [u64; 16] {
    let me = pos.to_move();
    let board = Board::<W>::new(pos, me);
    let mut on = [0u64; W];
    measure(pos, &board, me, &mut on);
    let them = me.opponent();
    measure(pos, &board.for_color(pos, them), them, &mut on);
    let mut out = [0u64; 16];
    out[..W].copy_from_slice(&on);
    out
}

/// Distance and flexibility of `color`; its shortest connections' points
/// are ORed into `contested`.
fn measure<const W: usize>(
    pos: &Onyx,
    board: &Board<W>,
    color: Color,
    contested: &mut [u64; W],
) -> (u16, u16) {
    let mut on_paths = [0u64; W];
    let d = shortest_paths(pos, board, color, &mut on_paths);
    let mut flex = 0;
    for k in 0..W {
        flex += on_paths[k].count_ones();
        contested[k] |= on_paths[k];
    }
    (d, flex as u16)
}

/// Distance of `color`; the points costing a placement that lie on some
/// shortest connection are ORed into `on_paths` (none when the distance is
/// 0 or unreachable).
///
/// A search from the first edge records each point's level f(p); a point
/// is on a shortest connection of length d exactly when the search from
/// the second edge reaches it at level d + 1 - f(p). So the second search
/// only ever admits, at its level j, points of the first search's level
/// d + 1 - j: a point it admits has a connection of length d through it
/// (admission only removes routes, so its level is at least its true one,
/// and f(p) + b(p) - 1 >= d always), and every point of a shortest
/// connection is admitted, by induction from the second edge along that
/// connection. It visits only the shortest connections, not the board.
fn shortest_paths<const W: usize>(
    pos: &Onyx,
    board: &Board<W>,
    color: Color,
    on_paths: &mut [u64; W],
) -> u16 {
    let geo = pos.geometry();
    let mut from = [const { MaybeUninit::<[u64; W]>::uninit() }; MAX_LEVELS];
    let d = search(geo, board, color, MAX_LEVELS, Some(&mut from));
    if d == 0 || d == UNREACHABLE {
        return d;
    }
    let d = d as usize;
    // Levels 1..=d were all written by the search that returned d.
    let level = |k: usize| -> [u64; W] {
        debug_assert!((1..=d).contains(&k));
        // SAFETY: `search` wrote `from[k]` for every k in 1..=d before
        // returning d, and k is in that range.
        unsafe { from[k].assume_init() }
    };
    let mut reached = [0u64; W];
    let mut nb = edge::<W>(geo, edge_bits(color).1);
    close(geo, &board.own, &mut reached, &mut nb);
    for j in 1..=d {
        let allowed = level(d + 1 - j);
        let mut new = [0u64; W];
        for k in 0..W {
            new[k] = nb[k] & allowed[k] & !reached[k];
        }
        debug_assert!(any(&new), "a shortest connection passes every level");
        for k in 0..W {
            reached[k] |= new[k];
            on_paths[k] |= new[k];
        }
        add_neighbours(geo, &new, &mut nb);
        close(geo, &board.own, &mut reached, &mut nb);
    }
    d as u16
}

/// [`distance_and_flexibility`] for the board's word count.
pub fn distance_and_flexibility_any(pos: &Onyx, color: Color) -> (u16, u16) {
    by_words!(pos, distance_and_flexibility(pos, color))
}

/// The fewest placements `color` needs to join its edges (capture threats
/// ignored: the exact count if nobody else moved).
pub fn connection_distance(pos: &Onyx, color: Color) -> u16 {
    fn go<const W: usize>(pos: &Onyx, color: Color) -> u16 {
        let mut board = Board::<W>::new(pos, color);
        board.threatened = [[0; W]; 2];
        board.set_color(pos, color);
        search(pos.geometry(), &board, color, MAX_LEVELS, None)
    }
    by_words!(pos, go(pos, color))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::onyx::Start;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    /// The memo answers exactly what a fresh analysis computes, across
    /// sizes sharing one thread, after undo and for both sides to move.
    #[test]
    fn memoised_contested_points_equal_fresh_ones() {
        let mut rng = SmallRng::seed_from_u64(11);
        for &n in &[12, 8, 12, 16] {
            let mut pos = Onyx::new(n, Start::Blank).unwrap();
            let mut moves = Vec::new();
            while pos.outcome().is_none() {
                for _ in 0..2 {
                    let fresh = by_words!(pos, contested_now(&pos));
                    assert_eq!(contested(&pos), fresh);
                }
                moves.clear();
                pos.legal_moves(&mut moves);
                let m = moves[rng.random_range(0..moves.len())];
                pos.play(m);
                if rng.random_range(0..8) == 0 {
                    pos.undo();
                    contested(&pos);
                    pos.play(m);
                }
            }
        }
    }
}
