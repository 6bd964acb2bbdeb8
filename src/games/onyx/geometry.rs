//! The Onyx board: grid points, squares with their midpoints, the `/` and `\`
//! diagonals, adjacency and Zobrist keys, computed once per size.

use crate::game::{parse_row_number, splitmix64};

/// Smallest board size.
pub const MIN_SIZE: usize = 4;
/// Largest board size.
pub const MAX_SIZE: usize = 26;
/// Default board size.
pub const DEFAULT_SIZE: usize = 12;
/// Most lines meeting at one point (4 orthogonal, 2 diagonals, 2 midpoints).
pub const MAX_DEGREE: usize = 8;

/// Index of a point: grid points first (`row * n + column`, both from 0), then
/// the midpoints of the squares in order.
pub type Point = u16;

/// One square of the board: its four corners and its midpoint.
#[derive(Clone, Copy, Debug)]
pub struct Square {
    /// Corners as lower-left, lower-right, upper-left, upper-right.
    pub corners: [Point; 4],
    /// The midpoint.
    pub midpoint: Point,
    /// Column of the lower-left corner (0 = `A`).
    pub column: usize,
    /// Row of the lower-left corner (0 = row 1).
    pub row: usize,
}

impl Square {
    /// For corner `k`: its diagonal partner (the opposite corner, not
    /// joined to it) and the two corners of the other diagonal, the pairs
    /// a capture sets against each other.
    #[inline]
    pub fn diagonals(&self, k: u8) -> (Point, [Point; 2]) {
        let c = self.corners;
        let others = match k {
            0 | 3 => [c[1], c[2]],
            _ => [c[0], c[3]],
        };
        (c[3 - k as usize], others)
    }
}

/// The shape of a cell between four grid points.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cell {
    /// A square, with the index of its entry in [`Geometry::squares`].
    Square(usize),
    /// A diagonal from lower-left to upper-right.
    Slash,
    /// A diagonal from upper-left to lower-right.
    Backslash,
}

/// Everything about a board size that never changes during a game.
#[derive(Debug)]
pub struct Geometry {
    /// Points per side.
    pub n: usize,
    /// Grid points plus midpoints.
    pub num_points: usize,
    /// The squares.
    pub squares: Vec<Square>,
    /// Neighbours of each point along the board's lines.
    pub neighbours: Vec<[Point; MAX_DEGREE]>,
    /// How many entries of `neighbours` are used.
    pub degree: Vec<u8>,
    /// For each grid point, the squares it is a corner of (up to two), with
    /// the corner's index 0..4 in [`Square::corners`].
    pub corner_of: Vec<[(u16, u8); 2]>,
    /// How many entries of `corner_of` are used.
    pub corner_count: Vec<u8>,
    /// For a midpoint, its square; `u16::MAX` for grid points.
    pub square_of_midpoint: Vec<u16>,
    /// Edge membership bits: 1 bottom, 2 top, 4 left, 8 right.
    pub edges: Vec<u8>,
    /// Zobrist keys: `[point][colour]`.
    pub keys: Vec<[u64; 2]>,
    /// Words of a bitset over the points (1, 2, 4, 8 or 16).
    pub words: usize,
    /// Neighbour bitsets: `words` words per point.
    pub neighbour_bits: Vec<u64>,
    /// Bitsets of the points on each edge, indexed by edge bit position
    /// (bottom, top, left, right).
    pub edge_bits: [Vec<u64>; 4],
    /// Key of "White to move".
    pub white_key: u64,
    /// Key of "swap is available".
    pub swap_key: u64,
}

/// Edge bit: row 1.
pub const BOTTOM: u8 = crate::games::common::FIRST_ROW;
/// Edge bit: row N.
pub const TOP: u8 = crate::games::common::LAST_ROW;
/// Edge bit: column A.
pub const LEFT: u8 = crate::games::common::FIRST_COLUMN;
/// Edge bit: last column.
pub const RIGHT: u8 = crate::games::common::LAST_COLUMN;

impl Geometry {
    /// Builds the geometry of an `n`×`n` board (`n` even, 4..=26).
    pub fn new(n: usize) -> Result<Geometry, String> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&n) || !n.is_multiple_of(2) {
            return Err(format!(
                "Onyx boards have an even size from {MIN_SIZE} to {MAX_SIZE}, not {n}"
            ));
        }
        let grid = n * n;
        let mut squares = Vec::new();
        for row in 0..n - 1 {
            for column in 0..n - 1 {
                if Self::cell_shape(column, row) == CellShape::Square {
                    let corners = [
                        (row * n + column) as Point,
                        (row * n + column + 1) as Point,
                        ((row + 1) * n + column) as Point,
                        ((row + 1) * n + column + 1) as Point,
                    ];
                    let midpoint = (grid + squares.len()) as Point;
                    squares.push(Square {
                        corners,
                        midpoint,
                        column,
                        row,
                    });
                }
            }
        }
        let num_points = grid + squares.len();
        let mut neighbours = vec![[0 as Point; MAX_DEGREE]; num_points];
        let mut degree = vec![0u8; num_points];
        let mut link = |a: usize, b: usize| {
            neighbours[a][degree[a] as usize] = b as Point;
            degree[a] += 1;
            neighbours[b][degree[b] as usize] = a as Point;
            degree[b] += 1;
        };
        for row in 0..n {
            for column in 0..n {
                let p = row * n + column;
                if column + 1 < n {
                    link(p, p + 1);
                }
                if row + 1 < n {
                    link(p, p + n);
                }
            }
        }
        for row in 0..n - 1 {
            for column in 0..n - 1 {
                match Self::cell_shape(column, row) {
                    CellShape::Slash => link(row * n + column, (row + 1) * n + column + 1),
                    CellShape::Backslash => link((row + 1) * n + column, row * n + column + 1),
                    CellShape::Square => {}
                }
            }
        }
        let mut corner_of = vec![[(0u16, 0u8); 2]; num_points];
        let mut corner_count = vec![0u8; num_points];
        let mut square_of_midpoint = vec![u16::MAX; num_points];
        for (s, sq) in squares.iter().enumerate() {
            square_of_midpoint[sq.midpoint as usize] = s as u16;
            for (k, &c) in sq.corners.iter().enumerate() {
                link(sq.midpoint as usize, c as usize);
                let i = corner_count[c as usize] as usize;
                corner_of[c as usize][i] = (s as u16, k as u8);
                corner_count[c as usize] += 1;
            }
        }
        let mut edges = vec![0u8; num_points];
        for row in 0..n {
            for column in 0..n {
                let e = &mut edges[row * n + column];
                if row == 0 {
                    *e |= BOTTOM;
                }
                if row == n - 1 {
                    *e |= TOP;
                }
                if column == 0 {
                    *e |= LEFT;
                }
                if column == n - 1 {
                    *e |= RIGHT;
                }
            }
        }
        let words = num_points.div_ceil(64).next_power_of_two();
        let mut neighbour_bits = vec![0u64; num_points * words];
        for p in 0..num_points {
            for &q in &neighbours[p][..degree[p] as usize] {
                neighbour_bits[p * words + q as usize / 64] |= 1 << (q % 64);
            }
        }
        let edge_bits = [BOTTOM, TOP, LEFT, RIGHT].map(|e| {
            let mut b = vec![0u64; words];
            for (p, &pe) in edges.iter().enumerate() {
                if pe & e != 0 {
                    b[p / 64] |= 1 << (p % 64);
                }
            }
            b
        });
        let mut seed = 0x0_1234_5678_u64 ^ (n as u64) << 40;
        let keys = crate::games::common::point_keys(&mut seed, num_points);
        let white_key = splitmix64(&mut seed);
        let swap_key = splitmix64(&mut seed);
        Ok(Geometry {
            n,
            num_points,
            squares,
            neighbours,
            degree,
            corner_of,
            corner_count,
            square_of_midpoint,
            edges,
            words,
            neighbour_bits,
            edge_bits,
            keys,
            white_key,
            swap_key,
        })
    }

    /// The shape of the cell whose lower-left corner is (`column`, `row`),
    /// both counted from 0: a square when column + row number is even.
    fn cell_shape(column: usize, row: usize) -> CellShape {
        let row_number = row + 1;
        if (column + row_number).is_multiple_of(2) {
            CellShape::Square
        } else if row_number % 2 == 1 {
            CellShape::Slash
        } else {
            CellShape::Backslash
        }
    }

    /// The cell whose lower-left corner is (`column`, `row`).
    pub fn cell(&self, column: usize, row: usize) -> Cell {
        match Self::cell_shape(column, row) {
            CellShape::Slash => Cell::Slash,
            CellShape::Backslash => Cell::Backslash,
            CellShape::Square => Cell::Square(
                self.squares
                    .iter()
                    .position(|s| s.column == column && s.row == row)
                    .expect("every square cell is listed"),
            ),
        }
    }

    /// The neighbours of `p`.
    #[inline]
    pub fn neighbours_of(&self, p: Point) -> &[Point] {
        &self.neighbours[p as usize][..self.degree[p as usize] as usize]
    }

    /// The squares `p` is a corner of, with the corner index.
    #[inline]
    pub fn squares_of(&self, p: Point) -> &[(u16, u8)] {
        &self.corner_of[p as usize][..self.corner_count[p as usize] as usize]
    }

    /// Whether `p` is the midpoint of a square.
    #[inline]
    pub fn is_midpoint(&self, p: Point) -> bool {
        p as usize >= self.n * self.n
    }

    /// Where `p` comes in board order: grid points on level 0, midpoints
    /// on level 1 at their square's lower-left corner.
    pub fn spot(&self, p: Point) -> crate::game::Spot {
        if self.is_midpoint(p) {
            let sq = &self.squares[self.square_of_midpoint[p as usize] as usize];
            crate::game::Spot::new(1, sq.row, sq.column)
        } else {
            let p = p as usize;
            crate::game::Spot::new(0, p / self.n, p % self.n)
        }
    }

    /// The grid point at (`column`, `row`), both from 0.
    pub fn grid_point(&self, column: usize, row: usize) -> Point {
        (row * self.n + column) as Point
    }

    /// Writes `p` in Onyx notation (`D12`, `DE1112`).
    pub fn point_name(&self, p: Point) -> String {
        use crate::game::column_letter;
        if self.is_midpoint(p) {
            let sq = &self.squares[self.square_of_midpoint[p as usize] as usize];
            format!(
                "{}{}{}{}",
                column_letter(sq.column),
                column_letter(sq.column + 1),
                sq.row + 1,
                sq.row + 2
            )
        } else {
            let p = p as usize;
            format!("{}{}", column_letter(p % self.n), p / self.n + 1)
        }
    }

    /// Parses a point in Onyx notation, any case. Errors say what is wrong.
    pub fn parse_point(&self, text: &str) -> Result<Point, String> {
        use crate::game::column_index;
        let bytes = text.as_bytes();
        let letters = bytes.iter().take_while(|b| b.is_ascii_alphabetic()).count();
        let digits = &text[letters..];
        if letters == 0 || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "'{text}' is not a point (expected e.g. D12 or DE1112)"
            ));
        }
        let columns: Vec<usize> = bytes[..letters]
            .iter()
            .map(|&b| column_index(b).unwrap_or(usize::MAX))
            .collect();
        let n = self.n;
        if columns.iter().any(|&c| c >= n) {
            return Err(format!("'{text}' is off the {n}x{n} board"));
        }
        match letters {
            1 => {
                let row = parse_row_number(digits).filter(|r| (1..=n).contains(r));
                match row {
                    Some(r) => Ok(self.grid_point(columns[0], r - 1)),
                    None => Err(format!("'{text}' is off the {n}x{n} board")),
                }
            }
            2 => {
                if columns[1] != columns[0] + 1 {
                    return Err(format!("'{text}': a midpoint names two adjacent columns"));
                }
                let row = (1..digits.len()).find_map(|k| {
                    let a = parse_row_number(&digits[..k])?;
                    let b = parse_row_number(&digits[k..])?;
                    (b == a + 1).then_some(a)
                });
                let Some(row) = row.filter(|r| (1..n).contains(r)) else {
                    return Err(format!(
                        "'{text}': a midpoint names two adjacent rows on the board, lower first"
                    ));
                };
                match self.cell(columns[0], row - 1) {
                    Cell::Square(s) => Ok(self.squares[s].midpoint),
                    _ => Err(format!("'{text}' is not a square, it has no midpoint")),
                }
            }
            _ => Err(format!(
                "'{text}' is not a point (expected e.g. D12 or DE1112)"
            )),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum CellShape {
    Square,
    Slash,
    Backslash,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twelve_has_204_points() {
        let g = Geometry::new(12).unwrap();
        assert_eq!(g.squares.len(), 60);
        assert_eq!(g.num_points, 204);
    }

    #[test]
    fn notation_round_trips() {
        for n in (4..=26).step_by(2) {
            let g = Geometry::new(n).unwrap();
            for p in 0..g.num_points as Point {
                let name = g.point_name(p);
                assert_eq!(g.parse_point(&name), Ok(p), "{name}");
                assert_eq!(g.parse_point(&name.to_lowercase()), Ok(p));
            }
        }
    }

    #[test]
    fn server_help_cells() {
        let g = Geometry::new(12).unwrap();
        assert!(g.parse_point("BC12").is_ok());
        assert!(g.parse_point("DE12").is_ok());
        assert!(g.parse_point("CD12").is_err());
        assert!(g.parse_point("DE1112").is_ok());
        assert!(g.parse_point("JK910").is_ok());
        assert!(g.parse_point("M1").is_err());
        assert!(g.parse_point("A13").is_err());
        assert!(g.parse_point("A0").is_err());
        // G9-H10 are joined by '/', I10-J9 ... example 3 of the server help
        let p = |s| g.parse_point(s).unwrap();
        assert!(g.neighbours_of(p("G9")).contains(&p("H10")));
        assert!(!g.neighbours_of(p("H10")).contains(&p("I9")));
        assert!(g.neighbours_of(p("JK910")).contains(&p("K9")));
        // example 5: D3-C4 not linked, D4-C3 not linked (square CD34? no: '/')
        assert!(!g.neighbours_of(p("D3")).contains(&p("C4")));
        assert!(g.neighbours_of(p("D3")).contains(&p("E2")));
    }
}
