//! The Akron board: N×N surface holes and the pyramid of higher points
//! above them, each resting on a 2×2 block of the level below. Supports,
//! points above, same-level neighbours, link crossings (the over/under
//! rule), edges, notation and Zobrist keys, computed once per size.

use crate::game::{column_index, column_letter, parse_row_number, splitmix64};

/// Smallest board size.
pub const MIN_SIZE: usize = 3;
/// Largest board size.
pub const MAX_SIZE: usize = 26;
/// Default board size (the inventor's; 10 for advanced play).
pub const DEFAULT_SIZE: usize = 8;

/// Index of a point: level by level from the surface, row by row from the
/// bottom, column by column from the left.
pub type Point = u16;

/// "No point" in the fixed-size tables.
pub const NONE: Point = u16::MAX;

/// Edge bit: row 1.
pub const BOTTOM: u8 = crate::games::common::FIRST_ROW;
/// Edge bit: row N.
pub const TOP: u8 = crate::games::common::LAST_ROW;
/// Edge bit: column A.
pub const LEFT: u8 = crate::games::common::FIRST_COLUMN;
/// Edge bit: last column.
pub const RIGHT: u8 = crate::games::common::LAST_COLUMN;

/// Index in [`Geometry::neighbours`]: the point to the right (next column).
pub const RIGHT_DIR: usize = 0;
/// Index in [`Geometry::neighbours`]: the point above on the board (next row).
pub const UP_DIR: usize = 1;
/// Index in [`Geometry::neighbours`]: the point to the left.
pub const LEFT_DIR: usize = 2;
/// Index in [`Geometry::neighbours`]: the point below on the board.
pub const DOWN_DIR: usize = 3;

/// Everything about a board size that never changes during a game.
#[derive(Debug)]
pub struct Geometry {
    /// Holes per side.
    pub n: usize,
    /// Points on all levels.
    pub num_points: usize,
    /// First point of each level; `offset[n]` is `num_points`.
    pub offset: Vec<usize>,
    /// Level of each point.
    pub level: Vec<u8>,
    /// Column of each point within its level (0 = `A`): the first column of
    /// the block of holes it covers.
    pub column: Vec<u8>,
    /// Row of each point within its level (0 = row 1).
    pub row: Vec<u8>,
    /// The four points a higher point rests on (lower-left, lower-right,
    /// upper-left, upper-right); all `NONE` on the surface.
    pub supports: Vec<[Point; 4]>,
    /// The up to four points resting on a point, in the order of the
    /// direction (di, dj) of their column/row offset: (-1,-1), (0,-1),
    /// (-1,0), (0,0). `NONE` where there is no such point.
    pub above: Vec<[Point; 4]>,
    /// Same-level neighbours: right, up, left, down (`NONE` off the level).
    pub neighbours: Vec<[Point; 4]>,
    /// Every point a ball on this point touches: the four same-level
    /// neighbours (right, up, left, down), the four supports, the four
    /// points above; `NONE` where there is none.
    pub touching: Vec<[Point; 12]>,
    /// For link `2p + d` (p to its right neighbour for d = 0, to its up
    /// neighbour for d = 1), the links crossing it from above, nearest level
    /// first: `cross_list[cross_start[l]..cross_start[l + 1]]`.
    pub cross_start: Vec<u32>,
    /// See [`Geometry::cross_start`].
    pub cross_list: Vec<u32>,
    /// Edge bits of surface holes (0 above the surface).
    pub edges: Vec<u8>,
    /// Balls in each pile at the start: ⌊N²/2⌋.
    pub pile_size: usize,
    /// Zobrist keys: `[point][colour]`.
    pub keys: Vec<[u64; 2]>,
    /// Zobrist keys of pile counts: `[colour][count]`.
    pub pile_keys: [Vec<u64>; 2],
    /// Key of "White to move".
    pub white_key: u64,
    /// Key of "swap is available".
    pub swap_key: u64,
    names: Vec<String>,
}

impl Geometry {
    /// Builds the geometry of an `n`×`n` board (3..=26).
    pub fn new(n: usize) -> Result<Geometry, String> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
            return Err(format!(
                "Akron boards have a size from {MIN_SIZE} to {MAX_SIZE}, not {n}"
            ));
        }
        let mut offset = Vec::with_capacity(n + 1);
        let mut total = 0;
        for l in 0..n {
            offset.push(total);
            total += (n - l) * (n - l);
        }
        offset.push(total);
        let num_points = total;
        let idx =
            |l: usize, i: usize, j: usize| -> Point { (offset[l] + j * (n - l) + i) as Point };
        let mut level = vec![0u8; num_points];
        let mut column = vec![0u8; num_points];
        let mut row = vec![0u8; num_points];
        let mut supports = vec![[NONE; 4]; num_points];
        let mut above = vec![[NONE; 4]; num_points];
        let mut neighbours = vec![[NONE; 4]; num_points];
        let mut edges = vec![0u8; num_points];
        let mut names = Vec::with_capacity(num_points);
        for l in 0..n {
            let w = n - l;
            for j in 0..w {
                for i in 0..w {
                    let p = idx(l, i, j) as usize;
                    level[p] = l as u8;
                    column[p] = i as u8;
                    row[p] = j as u8;
                    if l > 0 {
                        supports[p] = [
                            idx(l - 1, i, j),
                            idx(l - 1, i + 1, j),
                            idx(l - 1, i, j + 1),
                            idx(l - 1, i + 1, j + 1),
                        ];
                    }
                    if l + 1 < n {
                        let wa = w - 1;
                        for (k, (di, dj)) in [(-1i32, -1i32), (0, -1), (-1, 0), (0, 0)]
                            .into_iter()
                            .enumerate()
                        {
                            let (a, b) = (i as i32 + di, j as i32 + dj);
                            if a >= 0 && b >= 0 && (a as usize) < wa && (b as usize) < wa {
                                above[p][k] = idx(l + 1, a as usize, b as usize);
                            }
                        }
                    }
                    if i + 1 < w {
                        neighbours[p][RIGHT_DIR] = idx(l, i + 1, j);
                    }
                    if j + 1 < w {
                        neighbours[p][UP_DIR] = idx(l, i, j + 1);
                    }
                    if i > 0 {
                        neighbours[p][LEFT_DIR] = idx(l, i - 1, j);
                    }
                    if j > 0 {
                        neighbours[p][DOWN_DIR] = idx(l, i, j - 1);
                    }
                    if l == 0 {
                        let e = &mut edges[p];
                        if j == 0 {
                            *e |= BOTTOM;
                        }
                        if j == n - 1 {
                            *e |= TOP;
                        }
                        if i == 0 {
                            *e |= LEFT;
                        }
                        if i == n - 1 {
                            *e |= RIGHT;
                        }
                        names.push(format!("{}{}", column_letter(i), j + 1));
                    } else {
                        names.push(format!(
                            "{}{}{}{}",
                            column_letter(i),
                            column_letter(i + l),
                            j + 1,
                            j + l + 1
                        ));
                    }
                }
            }
        }
        // Crossings (RULINGS, over/under): a level-L link between (i,j) and
        // (i+1,j) is crossed k levels up (k odd) by the link joining
        // (i-(k-1)/2, j-(k+1)/2) and (i-(k-1)/2, j-(k-1)/2); a link between
        // (i,j) and (i,j+1) by (i-(k+1)/2, j-(k-1)/2) and (i-(k-1)/2, j-(k-1)/2).
        let mut cross_start = Vec::with_capacity(2 * num_points + 1);
        let mut cross_list = Vec::new();
        for p in 0..num_points {
            let (l, i, j) = (level[p] as i64, column[p] as i64, row[p] as i64);
            for d in 0..2 {
                cross_start.push(cross_list.len() as u32);
                let mut k = 1;
                while l + k < n as i64 {
                    let lk = l + k;
                    let w = n as i64 - lk;
                    let h = (k - 1) / 2;
                    // The crossing link as (its lower/left end, its direction).
                    let (a, b, dir) = if d == 0 {
                        (i - h, j - h - 1, UP_DIR)
                    } else {
                        (i - h - 1, j - h, RIGHT_DIR)
                    };
                    let (a2, b2) = if dir == UP_DIR {
                        (a, b + 1)
                    } else {
                        (a + 1, b)
                    };
                    if a >= 0 && b >= 0 && a2 < w && b2 < w {
                        let q = idx(lk as usize, a as usize, b as usize) as u32;
                        cross_list.push(2 * q + dir as u32);
                    }
                    k += 2;
                }
            }
        }
        cross_start.push(cross_list.len() as u32);
        let touching = (0..num_points)
            .map(|p| {
                let mut t = [NONE; 12];
                t[..4].copy_from_slice(&neighbours[p]);
                t[4..8].copy_from_slice(&supports[p]);
                t[8..].copy_from_slice(&above[p]);
                t
            })
            .collect();
        let pile_size = n * n / 2;
        let mut seed = 0xA4B0_0000_u64 ^ ((n as u64) << 40);
        let keys = crate::games::common::point_keys(&mut seed, num_points);
        let pile_keys = [
            (0..=pile_size).map(|_| splitmix64(&mut seed)).collect(),
            (0..=pile_size).map(|_| splitmix64(&mut seed)).collect(),
        ];
        let white_key = splitmix64(&mut seed);
        let swap_key = splitmix64(&mut seed);
        Ok(Geometry {
            n,
            num_points,
            offset,
            level,
            column,
            row,
            supports,
            above,
            neighbours,
            touching,
            cross_start,
            cross_list,
            edges,
            pile_size,
            keys,
            pile_keys,
            white_key,
            swap_key,
            names,
        })
    }

    /// The point on level `l` at column `i`, row `j` (all from 0).
    #[inline]
    pub fn point(&self, l: usize, i: usize, j: usize) -> Point {
        (self.offset[l] + j * (self.n - l) + i) as Point
    }

    /// The links crossing link `link` from above, nearest first.
    #[inline]
    pub fn crossings(&self, link: usize) -> &[u32] {
        &self.cross_list[self.cross_start[link] as usize..self.cross_start[link + 1] as usize]
    }

    /// Whether a ball on `x` touches the point `d` (same level and
    /// orthogonally adjacent, or `x` one of `d`'s supports, or `d` one of
    /// `x`'s supports).
    #[inline]
    pub fn touches(&self, x: Point, d: Point) -> bool {
        let (x, d) = (x as usize, d as usize);
        let (lx, ld) = (self.level[x], self.level[d]);
        let (xi, xj) = (self.column[x] as i32, self.row[x] as i32);
        let (di, dj) = (self.column[d] as i32, self.row[d] as i32);
        if lx == ld {
            (xi - di).abs() + (xj - dj).abs() == 1
        } else if lx + 1 == ld {
            (xi == di || xi == di + 1) && (xj == dj || xj == dj + 1)
        } else if ld + 1 == lx {
            (di == xi || di == xi + 1) && (dj == xj || dj == xj + 1)
        } else {
            false
        }
    }

    /// Where `p` comes in board order: its level, row and column.
    #[inline]
    pub fn spot(&self, p: Point) -> crate::game::Spot {
        let p = p as usize;
        crate::game::Spot::new(
            self.level[p] as usize,
            self.row[p] as usize,
            self.column[p] as usize,
        )
    }

    /// Writes `p` in Akron notation (`C3`, `CD34`, `CE810`).
    #[inline]
    pub fn point_name(&self, p: Point) -> &str {
        &self.names[p as usize]
    }

    /// Parses a point in Akron notation, any case. Errors say what is wrong.
    pub fn parse_point(&self, text: &str) -> Result<Point, String> {
        let bytes = text.as_bytes();
        let letters = bytes.iter().take_while(|b| b.is_ascii_alphabetic()).count();
        let digits = &text[letters..];
        if letters == 0 || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "'{text}' is not a point (expected e.g. C3, CD34 or CE35)"
            ));
        }
        let n = self.n;
        let columns: Vec<usize> = bytes[..letters]
            .iter()
            .map(|&b| column_index(b).unwrap_or(usize::MAX))
            .collect();
        if columns.iter().any(|&c| c >= n) {
            return Err(format!("'{text}' is off the {n}x{n} board"));
        }
        match letters {
            1 => match parse_row_number(digits).filter(|r| (1..=n).contains(r)) {
                Some(r) => Ok(self.point(0, columns[0], r - 1)),
                None => Err(format!("'{text}' is off the {n}x{n} board")),
            },
            2 => {
                let (c0, c1) = (columns[0], columns[1]);
                if c1 <= c0 {
                    return Err(format!(
                        "'{text}': a higher point names its first and last columns, left first \
                         (a surface hole is written like C3)"
                    ));
                }
                let l = c1 - c0;
                let row = (1..digits.len()).find_map(|k| {
                    let a = parse_row_number(&digits[..k])?;
                    let b = parse_row_number(&digits[k..])?;
                    (b == a + l).then_some(a)
                });
                match row.filter(|&r| r >= 1 && r + l <= n) {
                    Some(r) => Ok(self.point(l, c0, r - 1)),
                    None => Err(format!(
                        "'{text}': a level-{l} point covers {} rows on the board, \
                         written first and last, lower first",
                        l + 1
                    )),
                }
            }
            _ => Err(format!(
                "'{text}' is not a point (expected e.g. C3, CD34 or CE35)"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_counts() {
        let g = Geometry::new(8).unwrap();
        assert_eq!(g.num_points, 204);
        assert_eq!(g.pile_size, 32);
        assert_eq!(Geometry::new(10).unwrap().pile_size, 50);
        assert!(Geometry::new(2).is_err());
        assert!(Geometry::new(27).is_err());
        assert!(Geometry::new(3).is_ok());
    }

    #[test]
    fn notation_round_trips() {
        for n in [3, 4, 5, 8, 10, 12, 26] {
            let g = Geometry::new(n).unwrap();
            for p in 0..g.num_points as Point {
                let name = g.point_name(p).to_string();
                assert_eq!(g.parse_point(&name), Ok(p), "{name}");
                assert_eq!(g.parse_point(&name.to_lowercase()), Ok(p));
            }
        }
    }

    #[test]
    fn rulings_examples() {
        let g = Geometry::new(10).unwrap();
        let p = |s| g.parse_point(s).unwrap();
        assert_eq!(p("CD34"), g.point(1, 2, 2));
        assert_eq!(p("CE35"), g.point(2, 2, 2));
        assert_eq!(p("CE810"), g.point(2, 2, 7));
        assert_eq!(
            g.supports[p("CD34") as usize],
            [p("C3"), p("D3"), p("C4"), p("D4")]
        );
        assert!(g.parse_point("CC33").is_err());
        assert!(g.parse_point("DC34").is_err());
        assert!(g.parse_point("CD35").is_err());
        assert!(g.parse_point("K1").is_err());
        assert!(g.parse_point("A11").is_err());
        assert!(g.parse_point("IJ1011").is_err());
        assert!(g.parse_point("AJ110").is_ok());
    }

    #[test]
    fn crossings_follow_the_formula() {
        let g = Geometry::new(8).unwrap();
        let p = |s| g.parse_point(s).unwrap() as u32;
        // C3-D3 (level 0, to the right) is crossed by CD23-CD34 (level 1,
        // upwards) and by BE14-BE25 (level 3).
        assert_eq!(
            g.crossings(2 * p("C3") as usize),
            &[2 * p("CD23") + 1, 2 * p("BE14") + 1]
        );
        // C3-C4 (upwards) is crossed by BC34-CD34 and AD25-BE25.
        assert_eq!(
            g.crossings(2 * p("C3") as usize + 1),
            &[2 * p("BC34"), 2 * p("AD25")]
        );
        // Symmetry: every crossing is seen from both links at their midpoint.
        for link in 0..2 * g.num_points {
            for &x in g.crossings(link) {
                let (a, b) = (link / 2, x as usize / 2);
                let centre = |q: usize, d: usize| {
                    let l = g.level[q] as f64;
                    let (i, j) = (g.column[q] as f64 + l / 2.0, g.row[q] as f64 + l / 2.0);
                    if d == 0 { (i + 0.5, j) } else { (i, j + 0.5) }
                };
                assert_eq!(centre(a, link % 2), centre(b, x as usize % 2));
            }
        }
    }

    #[test]
    fn above_and_supports_agree() {
        let g = Geometry::new(6).unwrap();
        for p in 0..g.num_points {
            for &a in &g.above[p] {
                if a != NONE {
                    assert!(g.supports[a as usize].contains(&(p as Point)));
                    assert!(g.touches(p as Point, a));
                }
            }
        }
    }
}
