//! The Hex board: an `n`×`n` rhombus of hexagonal cells, each cell's six
//! neighbours (as lists and as bit sets), the four edges and the Zobrist
//! keys, computed once per size.

use crate::game::{column_index, parse_row_number, splitmix64};

/// Smallest board size.
pub const MIN_SIZE: usize = 1;
/// Largest board size.
pub const MAX_SIZE: usize = 19;
/// Default board size.
pub const DEFAULT_SIZE: usize = 11;
/// Most cells on any board.
pub const MAX_CELLS: usize = MAX_SIZE * MAX_SIZE;
/// Words of a bit set holding every cell of the largest board.
pub const WORDS: usize = MAX_CELLS.div_ceil(64);

/// A set of cells, one bit a cell (bit `c % 64` of word `c / 64`).
pub type Bits = [u64; WORDS];

/// Index of a cell: `y * n + x`, with `x` the column from 0 (`a`) and `y`
/// the row from 0 (row `1`, the top).
pub type Cell = u16;

/// Edge bit: row 1 (top), one of Black's edges.
pub const TOP: u8 = crate::games::common::FIRST_ROW;
/// Edge bit: row N (bottom), Black's other edge.
pub const BOTTOM: u8 = crate::games::common::LAST_ROW;
/// Edge bit: column `a` (left), one of White's edges.
pub const LEFT: u8 = crate::games::common::FIRST_COLUMN;
/// Edge bit: the last column (right), White's other edge.
pub const RIGHT: u8 = crate::games::common::LAST_COLUMN;

/// The six neighbour steps `(dx, dy)`: (x±1, y), (x, y±1), (x+1, y−1),
/// (x−1, y+1).
pub const STEPS: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];

/// The ring of a cell: its six neighbour positions in circular order
/// (steps [`RING_STEPS`]), as the inferior-cell patterns read them.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ring {
    /// The positions on the board: (cell, slot in the ring).
    pub cells: [(Cell, u8); 6],
    /// How many of `cells` are used.
    pub count: u8,
    /// The off-board positions, two bits a slot: 1 Black's edge (beyond
    /// row 1 or row N), 2 White's edge, 3 both (the obtuse corners'
    /// outside position, of neither colour); 0 for the slots on the board.
    pub edge_code: u16,
}

/// The ring's steps `(dx, dy)` in circular order: consecutive positions
/// are neighbours of each other.
pub const RING_STEPS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// Everything about one board size that never changes during a game.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Cells per side.
    pub n: usize,
    /// `n * n`.
    pub num_cells: usize,
    /// Words of the bit sets actually used (`num_cells` bits).
    pub words: usize,
    /// The neighbours of each cell (`count` of the six slots used).
    pub neighbours: Vec<([Cell; 6], u8)>,
    /// The neighbours of each cell as a bit set.
    pub neighbour_bits: Vec<Bits>,
    /// Edge bits ([`TOP`] ...) of each cell.
    pub edges: Vec<u8>,
    /// The cells of each edge, indexed by the edge bit's position
    /// (`TOP`, `BOTTOM`, `LEFT`, `RIGHT`).
    pub edge_bits: [Bits; 4],
    /// All cells of the board.
    pub all: Bits,
    /// The ring of each cell.
    pub ring: Vec<Ring>,
    /// Zobrist keys `[cell][colour]`.
    pub keys: Vec<[u64; 2]>,
    /// Key of White to move.
    pub white_key: u64,
    /// Key of swap being available.
    pub swap_key: u64,
}

impl Geometry {
    /// The geometry of an `n`×`n` board (`MIN_SIZE..=MAX_SIZE`).
    pub fn new(n: usize) -> Result<Geometry, String> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
            return Err(format!(
                "hex board size must be {MIN_SIZE} to {MAX_SIZE}, not {n}"
            ));
        }
        let nc = n * n;
        let mut neighbours = Vec::with_capacity(nc);
        let mut neighbour_bits = vec![[0u64; WORDS]; nc];
        let mut edges = vec![0u8; nc];
        let mut edge_bits = [[0u64; WORDS]; 4];
        let mut all = [0u64; WORDS];
        for c in 0..nc {
            let (x, y) = ((c % n) as i32, (c / n) as i32);
            let mut list = [0 as Cell; 6];
            let mut count = 0u8;
            for (dx, dy) in STEPS {
                let (nx, ny) = (x + dx, y + dy);
                if (0..n as i32).contains(&nx) && (0..n as i32).contains(&ny) {
                    let q = (ny * n as i32 + nx) as usize;
                    list[count as usize] = q as Cell;
                    count += 1;
                    neighbour_bits[c][q / 64] |= 1 << (q % 64);
                }
            }
            neighbours.push((list, count));
            let mut e = 0;
            if y == 0 {
                e |= TOP;
            }
            if y == n as i32 - 1 {
                e |= BOTTOM;
            }
            if x == 0 {
                e |= LEFT;
            }
            if x == n as i32 - 1 {
                e |= RIGHT;
            }
            edges[c] = e;
            for (i, eb) in edge_bits.iter_mut().enumerate() {
                if e & (1 << i) != 0 {
                    eb[c / 64] |= 1 << (c % 64);
                }
            }
            all[c / 64] |= 1 << (c % 64);
        }
        let ring = (0..nc)
            .map(|c| {
                let (x, y) = ((c % n) as i32, (c / n) as i32);
                let mut r = Ring::default();
                for (slot, (dx, dy)) in RING_STEPS.into_iter().enumerate() {
                    let (nx, ny) = (x + dx, y + dy);
                    let inside_x = (0..n as i32).contains(&nx);
                    let inside_y = (0..n as i32).contains(&ny);
                    let v = match (inside_x, inside_y) {
                        (true, true) => {
                            r.cells[r.count as usize] = ((ny * n as i32 + nx) as Cell, slot as u8);
                            r.count += 1;
                            0
                        }
                        (true, false) => 1,
                        (false, true) => 2,
                        (false, false) => 3,
                    };
                    r.edge_code |= v << (2 * slot);
                }
                r
            })
            .collect();
        let mut seed = 0x4845_5800 ^ n as u64;
        let keys = crate::games::common::point_keys(&mut seed, nc);
        let white_key = splitmix64(&mut seed);
        let swap_key = splitmix64(&mut seed);
        Ok(Geometry {
            n,
            num_cells: nc,
            words: nc.div_ceil(64),
            neighbours,
            neighbour_bits,
            edges,
            edge_bits,
            all,
            ring,
            keys,
            white_key,
            swap_key,
        })
    }

    /// The neighbours of cell `c`.
    #[inline]
    pub fn neighbours_of(&self, c: Cell) -> &[Cell] {
        let (list, count) = &self.neighbours[c as usize];
        &list[..*count as usize]
    }

    /// The cell at column `x`, row `y` (both from 0; row 0 is row `1`).
    #[inline]
    pub fn cell(&self, x: usize, y: usize) -> Cell {
        (y * self.n + x) as Cell
    }

    /// The set of an edge bit's cells.
    #[inline]
    pub fn edge_set(&self, bit: u8) -> &Bits {
        &self.edge_bits[bit.trailing_zeros() as usize]
    }

    /// Benzene's name of a cell: lower-case column letter, row number
    /// (`a1` is the top-left corner).
    pub fn cell_name(&self, c: Cell) -> String {
        let (x, y) = (c as usize % self.n, c as usize / self.n);
        format!("{}{}", (b'a' + x as u8) as char, y + 1)
    }

    /// Parses a cell name in any case (`a1`, `K11`).
    pub fn parse_cell(&self, text: &str) -> Result<Cell, String> {
        let bytes = text.as_bytes();
        let bad = || format!("'{text}' is not a cell of a {0}x{0} hex board", self.n);
        if bytes.len() < 2 || !bytes[0].is_ascii_alphabetic() {
            return Err(bad());
        }
        let x = column_index(bytes[0]).ok_or_else(bad)?;
        let y = parse_row_number(&text[1..]).ok_or_else(bad)?;
        if x >= self.n || y == 0 || y > self.n {
            return Err(bad());
        }
        Ok(self.cell(x, y - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_follow_the_rulings() {
        let g = Geometry::new(5).unwrap();
        let c = g.parse_cell("c3").unwrap();
        let mut names: Vec<String> = g.neighbours_of(c).iter().map(|&q| g.cell_name(q)).collect();
        names.sort();
        assert_eq!(names, ["b3", "b4", "c2", "c4", "d2", "d3"]);
        assert_eq!(g.neighbours_of(g.parse_cell("a1").unwrap()).len(), 2);
        assert_eq!(g.neighbours_of(g.parse_cell("e1").unwrap()).len(), 3);
        assert_eq!(g.edges[g.parse_cell("A1").unwrap() as usize], TOP | LEFT);
        assert!(g.parse_cell("f1").is_err() && g.parse_cell("a6").is_err());
        assert!(g.parse_cell("a0").is_err() && g.parse_cell("a01").is_err());
    }
}
