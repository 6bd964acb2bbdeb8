//! A deliberately simple, independent Onyx rules implementation written from
//! `RULINGS.md` only (no crosscut code): its own geometry from the cell rule,
//! its own legality, captures and win detection by flood fill. Slow and
//! obvious on purpose; the tests compare crosscut against it.

use std::collections::{BTreeSet, HashMap};

pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;

fn other(c: u8) -> u8 {
    3 - c
}

/// One square cell: corners lower-left, lower-right, upper-left, upper-right
/// and its midpoint (indices into `RefGeo::names`).
#[derive(Clone, Copy, Debug)]
pub struct RefSquare {
    pub ll: usize,
    pub lr: usize,
    pub ul: usize,
    pub ur: usize,
    pub mid: usize,
}

/// The board of one size.
pub struct RefGeo {
    pub n: usize,
    /// Point names: `D4`, `DE34`.
    pub names: Vec<String>,
    pub index: HashMap<String, usize>,
    /// Neighbours along the lines, as sets.
    pub adj: Vec<BTreeSet<usize>>,
    pub squares: Vec<RefSquare>,
    /// For midpoints, the square.
    pub square_of_mid: Vec<Option<usize>>,
    /// (column from 0, row from 1) of grid points; None for midpoints.
    pub coords: Vec<Option<(usize, usize)>>,
    /// For each point, the squares it is a corner of.
    pub corner_of: Vec<Vec<usize>>,
}

fn letter(c: usize) -> char {
    (b'A' + c as u8) as char
}

/// The cell with lower-left corner at column `c` (from 0) and row `r` (from
/// 1): 's' square, '/' or '\\'.
pub fn cell_kind(c: usize, r: usize) -> char {
    if (c + r).is_multiple_of(2) {
        's'
    } else if r % 2 == 1 {
        '/'
    } else {
        '\\'
    }
}

impl RefGeo {
    pub fn new(n: usize) -> RefGeo {
        let mut names = Vec::new();
        let mut coords = Vec::new();
        for c in 0..n {
            for r in 1..=n {
                names.push(format!("{}{}", letter(c), r));
                coords.push(Some((c, r)));
            }
        }
        let index_of_grid: HashMap<(usize, usize), usize> = coords
            .iter()
            .enumerate()
            .map(|(i, xy)| (xy.unwrap(), i))
            .collect();
        let g = |c: usize, r: usize| index_of_grid[&(c, r)];
        let mut squares = Vec::new();
        for c in 0..n - 1 {
            for r in 1..n {
                if cell_kind(c, r) == 's' {
                    let mid = names.len();
                    names.push(format!("{}{}{}{}", letter(c), letter(c + 1), r, r + 1));
                    coords.push(None);
                    squares.push(RefSquare {
                        ll: g(c, r),
                        lr: g(c + 1, r),
                        ul: g(c, r + 1),
                        ur: g(c + 1, r + 1),
                        mid,
                    });
                }
            }
        }
        let total = names.len();
        let mut adj = vec![BTreeSet::new(); total];
        let mut link = |a: usize, b: usize| {
            adj[a].insert(b);
            adj[b].insert(a);
        };
        for c in 0..n {
            for r in 1..=n {
                if c + 1 < n {
                    link(g(c, r), g(c + 1, r));
                }
                if r < n {
                    link(g(c, r), g(c, r + 1));
                }
            }
        }
        for c in 0..n - 1 {
            for r in 1..n {
                match cell_kind(c, r) {
                    '/' => link(g(c, r), g(c + 1, r + 1)),
                    '\\' => link(g(c, r + 1), g(c + 1, r)),
                    _ => {}
                }
            }
        }
        let mut square_of_mid = vec![None; total];
        let mut corner_of = vec![Vec::new(); total];
        for (s, sq) in squares.iter().enumerate() {
            square_of_mid[sq.mid] = Some(s);
            for corner in [sq.ll, sq.lr, sq.ul, sq.ur] {
                link(sq.mid, corner);
                corner_of[corner].push(s);
            }
        }
        let index = names
            .iter()
            .enumerate()
            .map(|(i, s)| (s.clone(), i))
            .collect();
        RefGeo {
            n,
            names,
            index,
            adj,
            squares,
            square_of_mid,
            coords,
            corner_of,
        }
    }

    pub fn point(&self, name: &str) -> usize {
        self.index[&name.to_ascii_uppercase()]
    }

    /// Whether point `p` lies on the edge `edge` (0 bottom, 1 top, 2 left, 3 right).
    pub fn on_edge(&self, p: usize, edge: usize) -> bool {
        match self.coords[p] {
            None => false,
            Some((c, r)) => match edge {
                0 => r == 1,
                1 => r == self.n,
                2 => c == 0,
                _ => c == self.n - 1,
            },
        }
    }
}

/// A reference move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RefMove {
    Place(usize),
    Swap,
}

/// A reference position.
#[derive(Clone)]
pub struct RefPos<'g> {
    pub geo: &'g RefGeo,
    pub cells: Vec<u8>,
    pub to_move: u8,
    /// Moves (and handed-over turns) since the start.
    pub plies: usize,
    pub winner: Option<u8>,
    /// Whether White may swap: the only thing that happened so far is one
    /// placement by Black.
    pub swap_possible: bool,
}

impl<'g> RefPos<'g> {
    /// The blank start.
    pub fn blank(geo: &'g RefGeo) -> Self {
        RefPos {
            geo,
            cells: vec![EMPTY; geo.names.len()],
            to_move: BLACK,
            plies: 0,
            winner: None,
            swap_possible: false,
        }
    }

    /// The standard start: each colour on the two outer corners of the middle
    /// square of each of the opponent's sides.
    pub fn standard(geo: &'g RefGeo) -> Self {
        let mut pos = Self::blank(geo);
        let n = geo.n;
        assert_eq!(n % 4, 0);
        let (lo, hi) = (n / 2, n / 2 + 1);
        let last = letter(n - 1);
        for name in [
            format!("A{lo}"),
            format!("A{hi}"),
            format!("{last}{lo}"),
            format!("{last}{hi}"),
        ] {
            pos.cells[geo.point(&name)] = BLACK;
        }
        let (a, b) = (letter(n / 2 - 1), letter(n / 2));
        for name in [
            format!("{a}1"),
            format!("{b}1"),
            format!("{a}{n}"),
            format!("{b}{n}"),
        ] {
            pos.cells[geo.point(&name)] = WHITE;
        }
        pos
    }

    pub fn placeable(&self, p: usize) -> bool {
        if self.cells[p] != EMPTY {
            return false;
        }
        match self.geo.square_of_mid[p] {
            None => true,
            Some(s) => {
                let sq = self.geo.squares[s];
                [sq.ll, sq.lr, sq.ul, sq.ur]
                    .iter()
                    .all(|&c| self.cells[c] == EMPTY)
            }
        }
    }

    pub fn legal(&self) -> Vec<RefMove> {
        if self.winner.is_some() {
            return vec![];
        }
        let mut out: Vec<RefMove> = (0..self.cells.len())
            .filter(|&p| self.placeable(p))
            .map(RefMove::Place)
            .collect();
        if self.swap_possible && self.to_move == WHITE {
            out.push(RefMove::Swap);
        }
        out
    }

    /// The opponent pieces removed if `mover` places on `p`.
    pub fn captures(&self, p: usize, mover: u8) -> Vec<usize> {
        let mut out = Vec::new();
        if self.geo.square_of_mid[p].is_some() {
            return out;
        }
        for &s in &self.geo.corner_of[p] {
            let sq = &self.geo.squares[s];
            if self.cells[sq.mid] != EMPTY {
                continue;
            }
            let diagonals = [(sq.ll, sq.ur), (sq.lr, sq.ul)];
            for (i, &(a, b)) in diagonals.iter().enumerate() {
                let partner = if a == p {
                    b
                } else if b == p {
                    a
                } else {
                    continue;
                };
                let (x, y) = diagonals[1 - i];
                if self.cells[partner] == mover
                    && self.cells[x] == other(mover)
                    && self.cells[y] == other(mover)
                {
                    out.push(x);
                    out.push(y);
                }
            }
        }
        out
    }

    /// Whether `color` joins its two edges: flood fill from every own piece
    /// on the first edge.
    pub fn connected(&self, color: u8) -> bool {
        let (from, to) = if color == BLACK { (0, 1) } else { (2, 3) };
        let mut seen = vec![false; self.cells.len()];
        let mut stack: Vec<usize> = (0..self.cells.len())
            .filter(|&p| self.cells[p] == color && self.geo.on_edge(p, from))
            .collect();
        for &p in &stack {
            seen[p] = true;
        }
        while let Some(p) = stack.pop() {
            if self.geo.on_edge(p, to) {
                return true;
            }
            for &q in &self.geo.adj[p] {
                if !seen[q] && self.cells[q] == color {
                    seen[q] = true;
                    stack.push(q);
                }
            }
        }
        false
    }

    /// Hands the turn to the other colour (a colour playing out of turn).
    pub fn null(&mut self) {
        self.to_move = other(self.to_move);
        self.plies += 1;
        self.swap_possible = false;
    }

    pub fn play(&mut self, mv: RefMove) {
        match mv {
            RefMove::Swap => self.swap_possible = false,
            RefMove::Place(p) => {
                let mover = self.to_move;
                self.swap_possible = self.plies == 0 && mover == BLACK;
                for q in self.captures(p, mover) {
                    self.cells[q] = EMPTY;
                }
                self.cells[p] = mover;
                if self.connected(mover) {
                    self.winner = Some(mover);
                }
                self.to_move = other(mover);
            }
        }
        self.plies += 1;
    }

    /// The move as crosscut's `legal_moves` lists it (capture marks).
    pub fn listed(&self, mv: RefMove) -> String {
        match mv {
            RefMove::Swap => "swap".into(),
            RefMove::Place(p) => format!(
                "{}{}",
                self.geo.names[p],
                "*".repeat(self.captures(p, self.to_move).len() / 2)
            ),
        }
    }

    /// Sorted listed names of all legal moves.
    pub fn legal_listed(&self) -> Vec<String> {
        let mut v: Vec<String> = self.legal().into_iter().map(|m| self.listed(m)).collect();
        v.sort();
        v
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|m| {
                let mut next = self.clone();
                next.play(m);
                next.perft(depth - 1)
            })
            .sum()
    }
}
