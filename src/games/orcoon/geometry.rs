//! The Orcoon board: an `n`×`n` grid of points, each point's orthogonal and
//! diagonal neighbours, the knight windows of the crosscut pattern, edge bits
//! and Zobrist keys, computed once per size.

use super::bits::Masks;
use crate::game::{column_index, column_letter, splitmix64};

/// Smallest board size.
pub const MIN_SIZE: usize = 3;
/// Largest board size.
pub const MAX_SIZE: usize = 26;
/// Default board size.
pub const DEFAULT_SIZE: usize = 11;
/// Most points on any board.
pub const MAX_POINTS: usize = MAX_SIZE * MAX_SIZE;

/// Index of a point: `row * n + column`, both from 0 (row 0 is row `1`).
pub type Point = u16;

/// Edge bit: row 1.
pub const BOTTOM: u8 = crate::games::common::FIRST_ROW;
/// Edge bit: row N.
pub const TOP: u8 = crate::games::common::LAST_ROW;
/// Edge bit: column A.
pub const LEFT: u8 = crate::games::common::FIRST_COLUMN;
/// Edge bit: last column.
pub const RIGHT: u8 = crate::games::common::LAST_COLUMN;

/// The eight knight steps (rows, columns): the crosscut windows join a
/// stone to a like corner a knight's move away.
pub const KNIGHT_STEPS: [(i32, i32); 8] = [
    (1, 2),
    (1, -2),
    (-1, 2),
    (-1, -2),
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
];

/// A diagonal neighbour `d` of a point and the two points orthogonally
/// adjacent to both (`s1`, `s2`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Diagonal {
    /// The diagonal neighbour.
    pub d: Point,
    /// First shared orthogonal neighbour.
    pub s1: Point,
    /// Second shared orthogonal neighbour.
    pub s2: Point,
}

/// A 2×3 or 3×2 window in which a point `p` is a corner: `b` is the opposite
/// corner (a knight's move away), `c1`/`c2` the other two corners, `m1` the
/// middle point next to `p`, `m2` the middle point next to `b`. The crosscut
/// pattern is `p`, `b` of one colour, `c1`, `c2` of the other, `m1`, `m2` empty.
#[derive(Clone, Copy, Debug, Default)]
pub struct Knight {
    /// Opposite corner.
    pub b: Point,
    /// Corner in `p`'s row (or column), beside the middle next to `p`.
    pub c1: Point,
    /// Corner in `b`'s row (or column), beside the middle next to `b`.
    pub c2: Point,
    /// Middle point adjacent to `p`.
    pub m1: Point,
    /// Middle point adjacent to `b`.
    pub m2: Point,
}

/// Everything about a board size that never changes during a game.
#[derive(Debug)]
pub struct Geometry {
    /// Points per side.
    pub n: usize,
    /// `n * n`.
    pub num_points: usize,
    /// Orthogonal neighbours.
    pub orth: Vec<[Point; 4]>,
    /// How many entries of `orth` are used.
    pub orth_len: Vec<u8>,
    /// Diagonal neighbours with their shared orthogonal neighbours.
    pub diag: Vec<[Diagonal; 4]>,
    /// How many entries of `diag` are used.
    pub diag_len: Vec<u8>,
    /// Knight windows with the point as a corner.
    pub knight: Vec<[Knight; 8]>,
    /// How many entries of `knight` are used.
    pub knight_len: Vec<u8>,
    /// Edge bits of each point.
    pub edges: Vec<u8>,
    /// Zobrist keys `[point][colour]`.
    pub keys: Vec<[u64; 2]>,
    /// Key of "White to move".
    pub white_key: u64,
    /// Key of "swap is available".
    pub swap_key: u64,
    /// Key of "the game ended by a pass".
    pub over_key: u64,
    /// Bit-set masks of this board.
    pub masks: Masks,
}

impl Geometry {
    /// The geometry of an `n`×`n` board, `n` from 3 to 26.
    pub fn new(n: usize) -> Result<Geometry, String> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
            return Err(format!(
                "Orcoon boards have a size from {MIN_SIZE} to {MAX_SIZE}, not {n}"
            ));
        }
        let np = n * n;
        let ni = n as i32;
        let at = |r: i32, c: i32| -> Option<Point> {
            (r >= 0 && c >= 0 && r < ni && c < ni).then(|| (r * ni + c) as Point)
        };
        let mut orth = vec![[0; 4]; np];
        let mut orth_len = vec![0u8; np];
        let mut diag = vec![[Diagonal::default(); 4]; np];
        let mut diag_len = vec![0u8; np];
        let mut knight = vec![[Knight::default(); 8]; np];
        let mut knight_len = vec![0u8; np];
        let mut edges = vec![0u8; np];
        for r in 0..ni {
            for c in 0..ni {
                let p = (r * ni + c) as usize;
                for (dr, dc) in [(1, 0), (0, 1), (-1, 0), (0, -1)] {
                    if let Some(q) = at(r + dr, c + dc) {
                        orth[p][orth_len[p] as usize] = q;
                        orth_len[p] += 1;
                    }
                }
                for (dr, dc) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                    if let (Some(d), Some(s1), Some(s2)) =
                        (at(r + dr, c + dc), at(r + dr, c), at(r, c + dc))
                    {
                        diag[p][diag_len[p] as usize] = Diagonal { d, s1, s2 };
                        diag_len[p] += 1;
                    }
                }
                for (dr, dc) in KNIGHT_STEPS {
                    let Some(b) = at(r + dr, c + dc) else {
                        continue;
                    };
                    let w = if dc.abs() == 2 {
                        // Rows r and r+dr, columns c, c+dc/2, c+dc.
                        Knight {
                            b,
                            c1: at(r, c + dc).expect("inside"),
                            c2: at(r + dr, c).expect("inside"),
                            m1: at(r, c + dc / 2).expect("inside"),
                            m2: at(r + dr, c + dc / 2).expect("inside"),
                        }
                    } else {
                        // Columns c and c+dc, rows r, r+dr/2, r+dr.
                        Knight {
                            b,
                            c1: at(r + dr, c).expect("inside"),
                            c2: at(r, c + dc).expect("inside"),
                            m1: at(r + dr / 2, c).expect("inside"),
                            m2: at(r + dr / 2, c + dc).expect("inside"),
                        }
                    };
                    knight[p][knight_len[p] as usize] = w;
                    knight_len[p] += 1;
                }
                let e = &mut edges[p];
                if r == 0 {
                    *e |= BOTTOM;
                }
                if r == ni - 1 {
                    *e |= TOP;
                }
                if c == 0 {
                    *e |= LEFT;
                }
                if c == ni - 1 {
                    *e |= RIGHT;
                }
            }
        }
        let mut seed = 0x05ee_d0c0_u64 ^ (n as u64) << 40;
        let keys = crate::games::common::point_keys(&mut seed, np);
        let white_key = splitmix64(&mut seed);
        let swap_key = splitmix64(&mut seed);
        let over_key = splitmix64(&mut seed);
        Ok(Geometry {
            n,
            num_points: np,
            orth,
            orth_len,
            diag,
            diag_len,
            knight,
            knight_len,
            edges,
            keys,
            white_key,
            swap_key,
            over_key,
            masks: Masks::new(n),
        })
    }

    /// Orthogonal neighbours of `p`.
    #[inline]
    pub fn orth_of(&self, p: Point) -> &[Point] {
        &self.orth[p as usize][..self.orth_len[p as usize] as usize]
    }

    /// Diagonal neighbours of `p`.
    #[inline]
    pub fn diag_of(&self, p: Point) -> &[Diagonal] {
        &self.diag[p as usize][..self.diag_len[p as usize] as usize]
    }

    /// Knight windows with `p` as a corner.
    #[inline]
    pub fn knight_of(&self, p: Point) -> &[Knight] {
        &self.knight[p as usize][..self.knight_len[p as usize] as usize]
    }

    /// The point at (`column`, `row`), both from 0.
    #[inline]
    pub fn point(&self, column: usize, row: usize) -> Point {
        (row * self.n + column) as Point
    }

    /// Writes `p` as `C3`.
    pub fn point_name(&self, p: Point) -> String {
        let p = p as usize;
        format!("{}{}", column_letter(p % self.n), p / self.n + 1)
    }

    /// Parses `C3` (any case).
    pub fn parse_point(&self, text: &str) -> Result<Point, String> {
        let bytes = text.as_bytes();
        let n = self.n;
        let bad = || format!("'{text}' is not a point (expected e.g. C3)");
        if bytes.len() < 2 || !bytes[0].is_ascii_alphabetic() {
            return Err(bad());
        }
        let digits = &text[1..];
        if !digits.bytes().all(|b| b.is_ascii_digit())
            || digits.starts_with('0')
            || digits.len() > 2
        {
            return Err(bad());
        }
        let column = column_index(bytes[0]).ok_or_else(bad)?;
        let row: usize = digits.parse().map_err(|_| bad())?;
        if column >= n || !(1..=n).contains(&row) {
            return Err(format!("'{text}' is off the {n}x{n} board"));
        }
        Ok(self.point(column, row - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        for n in MIN_SIZE..=MAX_SIZE {
            let g = Geometry::new(n).unwrap();
            for p in 0..g.num_points as Point {
                let name = g.point_name(p);
                assert_eq!(g.parse_point(&name), Ok(p), "{name}");
                assert_eq!(g.parse_point(&name.to_lowercase()), Ok(p));
            }
        }
        let g = Geometry::new(11).unwrap();
        for bad in [
            "", "A", "A0", "A12", "L1", "1A", "AB1", "A01", "A1x", "pass",
        ] {
            assert!(g.parse_point(bad).is_err(), "{bad}");
        }
        assert!(Geometry::new(2).is_err());
        assert!(Geometry::new(27).is_err());
    }

    #[test]
    fn windows_are_consistent() {
        let g = Geometry::new(7).unwrap();
        let rc = |p: Point| ((p as usize / 7) as i32, (p as usize % 7) as i32);
        for p in 0..49 as Point {
            let (r, c) = rc(p);
            assert_eq!(g.knight_of(p).len(), {
                let mut k = 0;
                for (dr, dc) in KNIGHT_STEPS {
                    if (0..7).contains(&(r + dr)) && (0..7).contains(&(c + dc)) {
                        k += 1;
                    }
                }
                k
            });
            for w in g.knight_of(p) {
                // m1 next to p, m2 next to b, c1 next to m1, c2 next to m2.
                assert!(g.orth_of(p).contains(&w.m1));
                assert!(g.orth_of(w.b).contains(&w.m2));
                assert!(g.orth_of(w.m1).contains(&w.m2));
                assert!(g.orth_of(w.m1).contains(&w.c1));
                assert!(g.orth_of(w.m2).contains(&w.c2));
                assert!(g.orth_of(p).contains(&w.c2));
                assert!(g.orth_of(w.b).contains(&w.c1));
            }
            for d in g.diag_of(p) {
                assert!(g.orth_of(p).contains(&d.s1) && g.orth_of(p).contains(&d.s2));
                assert!(g.orth_of(d.d).contains(&d.s1) && g.orth_of(d.d).contains(&d.s2));
            }
        }
    }
}
