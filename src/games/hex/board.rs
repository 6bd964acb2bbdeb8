//! The Hex position: stones, side to move, make/undo, incremental hash,
//! swap, and the winner found by a flood fill from the placed stone.

use std::sync::Arc;

use super::geometry::{Bits, Cell, Geometry, MAX_CELLS, WORDS};
use crate::game::{Color, Effort, Game, MoveError, Notation, Outcome};
use crate::games::common::{Entry, Turn};

/// A Hex move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum HexMove {
    /// Place a stone of the side to move on this cell.
    Place(Cell),
    /// The pie rule: White takes over Black's first move.
    Swap,
}

/// The two edge bits `color` joins: Black row 1 and row N, White column
/// `a` and the last column.
pub use crate::games::common::edge_bits;

const EMPTY: u8 = 0;

#[inline]
fn stone(c: Color) -> u8 {
    c as u8 + 1
}

#[derive(Clone, Copy, Debug)]
struct Undo {
    /// The move, or `None` for a null move.
    mv: Option<HexMove>,
    outcome: Option<Outcome>,
}

/// A Hex position with its history.
#[derive(Clone, Debug)]
pub struct Hex {
    geo: Arc<Geometry>,
    cells: [u8; MAX_CELLS],
    bits: [Bits; 2],
    turn: Turn,
    outcome: Option<Outcome>,
    history: Vec<Undo>,
    hash: u64,
}

impl Hex {
    /// A new game on an empty `n`×`n` board.
    pub fn new(n: usize) -> Result<Hex, String> {
        let geo = Arc::new(Geometry::new(n)?);
        let mut pos = Hex {
            cells: [EMPTY; MAX_CELLS],
            bits: [[0; WORDS]; 2],
            turn: Turn::new(true, geo.white_key, geo.swap_key),
            outcome: None,
            history: Vec::with_capacity(geo.num_cells + 8),
            hash: 0,
            geo,
        };
        pos.hash = pos.recompute_hash();
        Ok(pos)
    }

    /// The board geometry.
    #[inline]
    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }

    /// The stone on `c`, if any.
    #[inline]
    pub fn at(&self, c: Cell) -> Option<Color> {
        match self.cells[c as usize] {
            EMPTY => None,
            1 => Some(Color::Black),
            _ => Some(Color::White),
        }
    }

    /// The stones of `color` as a bit set.
    #[inline]
    pub fn bits(&self, color: Color) -> &Bits {
        &self.bits[color.index()]
    }

    /// The empty cells as a bit set.
    #[inline]
    pub fn empty_bits(&self) -> Bits {
        std::array::from_fn(|k| self.geo.all[k] & !(self.bits[0][k] | self.bits[1][k]))
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

    /// Whether the chain of `color` through `c` (a stone of that colour)
    /// joins the colour's two edges: a flood fill over that chain only.
    pub fn chain_connects(&self, c: Cell, color: Color) -> bool {
        let me = stone(color);
        let (ea, eb) = edge_bits(color);
        let mut seen = [0u64; WORDS];
        let mut stack = [0 as Cell; MAX_CELLS];
        stack[0] = c;
        let mut top = 1;
        seen[c as usize / 64] |= 1 << (c % 64);
        let mut edges = 0u8;
        while top > 0 {
            top -= 1;
            let p = stack[top];
            edges |= self.geo.edges[p as usize];
            if edges & ea != 0 && edges & eb != 0 {
                return true;
            }
            for &q in self.geo.neighbours_of(p) {
                let (w, b) = (q as usize / 64, 1u64 << (q % 64));
                if self.cells[q as usize] == me && seen[w] & b == 0 {
                    seen[w] |= b;
                    stack[top] = q;
                    top += 1;
                }
            }
        }
        false
    }

    /// Whether `color`'s stones join its two edges (from scratch).
    pub fn is_connected(&self, color: Color) -> bool {
        let (ea, _) = edge_bits(color);
        (0..self.geo.num_cells).any(|c| {
            self.cells[c] == stone(color)
                && self.geo.edges[c] & ea != 0
                && self.chain_connects(c as Cell, color)
        })
    }

    /// Puts stones of `color` on the (empty) `cells` without a move: no
    /// history, no side to move or outcome change. For knowledge computed
    /// on a filled position; [`Hex::take_stones`] takes them back.
    pub(crate) fn put_stones(&mut self, cells: &Bits, color: Color) {
        self.set_cells(cells, stone(color));
    }

    /// Empties `cells` again after [`Hex::put_stones`].
    pub(crate) fn take_stones(&mut self, cells: &Bits) {
        self.set_cells(cells, EMPTY);
    }

    fn set_cells(&mut self, cells: &Bits, v: u8) {
        for (k, &word) in cells[..self.geo.words].iter().enumerate() {
            let mut w = word;
            while w != 0 {
                let c = k * 64 + w.trailing_zeros() as usize;
                w &= w - 1;
                self.set_cell(c as Cell, v);
            }
        }
    }

    fn set_cell(&mut self, c: Cell, v: u8) {
        let old = self.cells[c as usize];
        let (w, b) = (c as usize / 64, 1u64 << (c % 64));
        if old != EMPTY {
            self.hash ^= self.geo.keys[c as usize][old as usize - 1];
            self.bits[old as usize - 1][w] &= !b;
        }
        if v != EMPTY {
            self.hash ^= self.geo.keys[c as usize][v as usize - 1];
            self.bits[v as usize - 1][w] |= b;
        }
        self.cells[c as usize] = v;
    }

    /// The result of the stones on the board, found from scratch.
    fn outcome_from_scratch(&self) -> Option<Outcome> {
        Color::ALL
            .into_iter()
            .find(|&c| self.is_connected(c))
            .map(Outcome::Win)
    }
}

impl Game for Hex {
    type Move = HexMove;

    // A full board has exactly one connection, stones never leave, and
    // the swap is played once: every game ends with a winner.
    const DECISIVE: bool = true;

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

    fn legal_moves(&self, out: &mut Vec<HexMove>) {
        if self.outcome.is_some() {
            return;
        }
        let empty = self.empty_bits();
        for (i, &word) in empty[..self.geo.words].iter().enumerate() {
            let mut w = word;
            while w != 0 {
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                out.push(HexMove::Place((i * 64 + b) as Cell));
            }
        }
        if self.swap_available() {
            out.push(HexMove::Swap);
        }
    }

    fn is_legal(&self, mv: HexMove) -> bool {
        self.outcome.is_none()
            && match mv {
                HexMove::Swap => self.swap_available(),
                HexMove::Place(c) => {
                    (c as usize) < self.geo.num_cells && self.cells[c as usize] == EMPTY
                }
            }
    }

    fn play_with(&mut self, mv: HexMove, _effort: Effort) {
        let mover = self.turn.to_move();
        let undo = Undo {
            mv: Some(mv),
            outcome: self.outcome,
        };
        if let HexMove::Place(c) = mv {
            self.set_cell(c, stone(mover));
            if self.chain_connects(c, mover) {
                self.outcome = Some(Outcome::Win(mover));
            }
        }
        self.history.push(undo);
        let entry = Entry::of(Some(mv), HexMove::Swap);
        self.turn
            .record(&mut self.hash, undo.outcome, self.outcome, entry);
    }

    fn play_null(&mut self) {
        self.history.push(Undo {
            mv: None,
            outcome: self.outcome,
        });
        self.turn.hand_over(&mut self.hash, self.outcome);
    }

    fn undo(&mut self) {
        let Some(undo) = self.history.pop() else {
            return;
        };
        let entry = Entry::of(undo.mv, HexMove::Swap);
        let (hash, outcome) = (&mut self.hash, &mut self.outcome);
        self.turn.take_back(hash, outcome, undo.outcome, entry);
        if let Some(HexMove::Place(c)) = undo.mv {
            self.set_cell(c, EMPTY);
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        let mut h = 0;
        for c in 0..self.geo.num_cells {
            let v = self.cells[c];
            if v != EMPTY {
                h ^= self.geo.keys[c][v as usize - 1];
            }
        }
        h ^ self.turn.key(self.outcome)
    }

    fn set_to_move(&mut self, color: Color) -> Result<(), String> {
        self.turn.set_to_move(&mut self.hash, color)
    }
}

impl Notation for Hex {
    fn move_order(&self, mv: HexMove) -> crate::game::MoveOrder {
        use crate::game::{MoveOrder, Spot};
        let n = self.geo.n;
        match mv {
            HexMove::Place(c) => MoveOrder::Place(Spot::new(0, c as usize / n, c as usize % n)),
            HexMove::Swap => MoveOrder::Swap,
        }
    }

    fn piece_at(&self, point: &str) -> Option<Color> {
        self.at(self.geo.parse_cell(point).ok()?)
    }

    fn parse_move(&self, text: &str) -> Result<HexMove, MoveError> {
        let lower = text.to_ascii_lowercase();
        let over = || Err(MoveError::Illegal("the game is over".into()));
        if lower == "swap" || lower == "swap-pieces" {
            return self.turn.check_swap(self.outcome).map(|()| HexMove::Swap);
        }
        if lower == "pass" {
            return Err(MoveError::Illegal("there is no pass in hex".into()));
        }
        let c = self.geo.parse_cell(text).map_err(MoveError::Syntax)?;
        if self.outcome.is_some() {
            return over();
        }
        if self.cells[c as usize] != EMPTY {
            return Err(MoveError::Illegal(format!(
                "{} is occupied",
                self.geo.cell_name(c)
            )));
        }
        Ok(HexMove::Place(c))
    }

    fn format_move(&self, mv: HexMove) -> String {
        match mv {
            HexMove::Place(c) => self.geo.cell_name(c),
            HexMove::Swap => "swap".to_string(),
        }
    }

    /// The half-turn (see [`super::symmetry`]), on a position that is its
    /// own half-turn.
    fn symmetric_move(&self, mv: HexMove) -> Option<HexMove> {
        if !super::symmetry::is_own_half_turn(self) {
            return None;
        }
        let last = (self.geo.num_cells - 1) as Cell;
        Some(match mv {
            HexMove::Place(c) => HexMove::Place(last - c),
            HexMove::Swap => HexMove::Swap,
        })
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
        let c = self.geo.parse_cell(point)?;
        self.set_cell(c, color.map_or(EMPTY, stone));
        self.outcome = self.outcome_from_scratch();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::geometry::{BOTTOM, LEFT, RIGHT, TOP};
    use super::*;

    #[test]
    fn edges_of_each_colour() {
        assert_eq!(edge_bits(Color::Black), (TOP, BOTTOM));
        assert_eq!(edge_bits(Color::White), (LEFT, RIGHT));
    }

    #[test]
    fn one_by_one_is_won_by_the_first_stone() {
        let mut pos = Hex::new(1).unwrap();
        let mv = pos.parse_move("a1").unwrap();
        pos.play(mv);
        assert_eq!(pos.outcome(), Some(Outcome::Win(Color::Black)));
        pos.undo();
        assert_eq!(pos.outcome(), None);
        assert_eq!(pos.hash(), pos.recompute_hash());
    }
}
