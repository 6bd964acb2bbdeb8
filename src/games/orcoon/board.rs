//! The Orcoon position: stones, side to move, make/undo, incremental hash,
//! the placement restrictions, and the end of the game by a pass.

use std::sync::Arc;

use super::adjudicate::Solver;
use super::bits::{Bits, Masks};
use super::geometry::{Geometry, KNIGHT_STEPS, MAX_POINTS, Point};
use crate::game::{Color, Effort, Game, MoveError, Notation, Outcome};
use crate::games::common::{Entry, Turn};

/// An Orcoon move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum OrcoonMove {
    /// Place a stone of the side to move on this point.
    Place(Point),
    /// Pass: ends the game, which is then adjudicated.
    Pass,
    /// The pie rule: White takes over Black's first move.
    Swap,
}

/// Why a placement breaks a restriction.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Violation {
    /// The point is not empty.
    Occupied,
    /// Restriction 1: the stone would complete the crosscut pattern; the
    /// other corner of its colour is `b`, the opponent's corners `c1`, `c2`.
    Crosscut {
        /// The like-coloured opposite corner.
        b: Point,
        /// An opponent corner.
        c1: Point,
        /// The other opponent corner.
        c2: Point,
    },
    /// Restriction 2: the stone would be diagonal to the like stone `d`
    /// with no like stone on either shared neighbour.
    Diagonal {
        /// The diagonal like stone.
        d: Point,
    },
}

pub(crate) const EMPTY: u8 = 0;

/// The cell value of a colour's stone: 1 Black, 2 White.
#[inline]
pub fn stone(c: Color) -> u8 {
    c as u8 + 1
}

/// The edge bits a colour joins.
pub use crate::games::common::edge_bits;

/// Whether a stone of cell value `me` may go on `p` of `cells`: the point is
/// empty and both restrictions hold for the placed stone. `None` when legal.
#[inline]
pub fn violation(geo: &Geometry, cells: &[u8], p: Point, me: u8) -> Option<Violation> {
    if cells[p as usize] != EMPTY {
        return Some(Violation::Occupied);
    }
    let opp = 3 - me;
    for d in geo.diag_of(p) {
        if cells[d.d as usize] == me && cells[d.s1 as usize] != me && cells[d.s2 as usize] != me {
            return Some(Violation::Diagonal { d: d.d });
        }
    }
    for w in geo.knight_of(p) {
        if cells[w.b as usize] == me
            && cells[w.c1 as usize] == opp
            && cells[w.c2 as usize] == opp
            && cells[w.m1 as usize] == EMPTY
            && cells[w.m2 as usize] == EMPTY
        {
            return Some(Violation::Crosscut {
                b: w.b,
                c1: w.c1,
                c2: w.c2,
            });
        }
    }
    None
}

/// The empty points where the owner of `me` may place now, and those where
/// it may not now but could later (a helper stone can lift the
/// restriction), as bit sets: [`Orcoon::violation`] for every point at
/// once (the legal moves; the evaluation's costs 1 and 2).
pub fn placements(m: &Masks, me: &Bits, opp: &Bits) -> (Bits, Bits) {
    let empty = m.andnot(&m.andnot(&m.board, me), opp);
    let mut bad = Bits::EMPTY;
    let mut dead = Bits::EMPTY;
    for (dr, dc) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
        let d = m.at(me, dr, dc);
        let lone = m.andnot(&m.andnot(&d, &m.at(me, dr, 0)), &m.at(me, 0, dc));
        bad = m.or(&bad, &lone);
        let walled = m.and(&m.and(&d, &m.at(opp, dr, 0)), &m.at(opp, 0, dc));
        dead = m.or(&dead, &walled);
    }
    // Knight windows as in `Geometry::knight`: (b, c1, c2, m1, m2) offsets.
    for (dr, dc) in KNIGHT_STEPS {
        let (c1, c2, m1, m2) = if dc * dc == 4 {
            ((0, dc), (dr, 0), (0, dc / 2), (dr, dc / 2))
        } else {
            ((dr, 0), (0, dc), (dr / 2, 0), (dr / 2, dc))
        };
        let mut w = m.at(me, dr, dc);
        w = m.and(&w, &m.at(opp, c1.0, c1.1));
        w = m.and(&w, &m.at(opp, c2.0, c2.1));
        w = m.and(&w, &m.at(&empty, m1.0, m1.1));
        w = m.and(&w, &m.at(&empty, m2.0, m2.1));
        bad = m.or(&bad, &w);
    }
    let legal = m.andnot(&empty, &bad);
    let later = m.andnot(&m.andnot(&empty, &legal), &dead);
    (legal, later)
}

/// Whether the stones of cell value `me` join the colour's two edges.
pub fn connected(geo: &Geometry, cells: &[u8], me: u8) -> bool {
    let color = if me == 1 { Color::Black } else { Color::White };
    let (from, to) = edge_bits(color);
    let mut seen = [false; MAX_POINTS];
    let mut stack = [0 as Point; MAX_POINTS];
    let mut top = 0;
    for p in 0..geo.num_points {
        if geo.edges[p] & from != 0 && cells[p] == me {
            seen[p] = true;
            stack[top] = p as Point;
            top += 1;
        }
    }
    while top > 0 {
        top -= 1;
        let p = stack[top];
        if geo.edges[p as usize] & to != 0 {
            return true;
        }
        for &q in geo.orth_of(p) {
            if cells[q as usize] == me && !seen[q as usize] {
                seen[q as usize] = true;
                stack[top] = q;
                top += 1;
            }
        }
    }
    false
}

#[derive(Clone, Copy, Debug)]
struct Undo {
    /// The move, or `None` for a null move.
    mv: Option<OrcoonMove>,
    outcome: Option<Outcome>,
}

const CACHE_SIZE: usize = 1 << 12;

/// An Orcoon position with its history.
#[derive(Clone, Debug)]
pub struct Orcoon {
    geo: Arc<Geometry>,
    cells: Vec<u8>,
    turn: Turn,
    outcome: Option<Outcome>,
    history: Vec<Undo>,
    hash: u64,
    /// The stones of each colour as bit sets (Black, White).
    bits: [Bits; 2],
    solver: Solver,
    /// Adjudications by position hash: (hash, 1 + winner index).
    cache: Vec<(u64, u8)>,
}

impl Orcoon {
    /// A new game on an empty `n`×`n` board.
    pub fn new(n: usize) -> Result<Orcoon, String> {
        let geo = Arc::new(Geometry::new(n)?);
        let mut pos = Orcoon {
            cells: vec![EMPTY; geo.num_points],
            turn: Turn::new(true, geo.white_key, geo.swap_key),
            outcome: None,
            history: Vec::with_capacity(geo.num_points * 2 + 8),
            hash: 0,
            bits: [Bits::EMPTY; 2],
            solver: Solver::new(geo.clone()),
            cache: vec![(0, 0); CACHE_SIZE],
            geo,
        };
        pos.hash = pos.recompute_hash();
        Ok(pos)
    }

    /// The board geometry.
    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }

    /// Raw cell contents: 0 empty, 1 Black, 2 White.
    #[inline]
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The stones of `color` as a bit set.
    #[inline]
    pub fn stone_bits(&self, color: Color) -> &Bits {
        &self.bits[color.index()]
    }

    /// The stone on `p`, if any.
    #[inline]
    pub fn at(&self, p: Point) -> Option<Color> {
        match self.cells[p as usize] {
            EMPTY => None,
            1 => Some(Color::Black),
            _ => Some(Color::White),
        }
    }

    /// The colour that passed and so ended the game, if it ended that way.
    pub fn passer(&self) -> Option<Color> {
        match self.history.last() {
            Some(Undo {
                mv: Some(OrcoonMove::Pass),
                ..
            }) => Some(self.turn.to_move().opponent()),
            _ => None,
        }
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

    /// Why `color` may not place on `p` now (ignoring whose turn it is and
    /// whether the game is over); `None` when it may.
    #[inline]
    pub fn violation(&self, p: Point, color: Color) -> Option<Violation> {
        violation(&self.geo, &self.cells, p, stone(color))
    }

    /// Whether `color` may place on `p` (ignoring turn and game end).
    #[inline]
    pub fn can_place(&self, p: Point, color: Color) -> bool {
        self.violation(p, color).is_none()
    }

    /// Whether `color`'s stones join its two edges.
    pub fn is_connected(&self, color: Color) -> bool {
        connected(&self.geo, &self.cells, stone(color))
    }

    /// Decides the end of the game if `passer` passed now: the winner.
    /// Exact: see [`Orcoon::adjudicate_with`].
    pub fn adjudicate(&mut self, passer: Color) -> Color {
        self.adjudicate_with(passer, Effort::Exact)
    }

    /// Decides the end of the game if `passer` passed now, spending at most
    /// `effort` solver nodes: the winner. A decision left open by a bounded
    /// effort counts the pass as lost for the passer and is not cached.
    pub fn adjudicate_with(&mut self, passer: Color, effort: Effort) -> Color {
        let other = passer.opponent();
        // Keyed by the position and the passer: the swap's share of the
        // hash left out (whether White may still swap decides nothing here).
        let position = self.hash ^ self.turn.swap_key(self.outcome);
        let key = position ^ self.geo.keys[0][passer.index()].rotate_left(17);
        let slot = (key as usize) & (CACHE_SIZE - 1);
        let (k, v) = self.cache[slot];
        if k == key && v != 0 {
            return Color::ALL[v as usize - 1];
        }
        self.solver.node_limit = match effort {
            Effort::Exact => None,
            Effort::Bounded(nodes) => Some(nodes),
        };
        let connects = self.solver.can_connect(&self.cells, other);
        self.solver.node_limit = None;
        let winner = if connects {
            other
        } else if self.solver.exhausted {
            // Undecided within a search's bound: count the pass as lost, so
            // the searcher never passes into the unknown. Not cached: an
            // exact decision may be asked for later.
            return other;
        } else {
            passer
        };
        self.cache[slot] = (key, winner.index() as u8 + 1);
        winner
    }

    /// One sequence of `color`'s placements from the current position that
    /// joins its edges (empty if already joined), or `None` if there is none.
    pub fn connecting_sequence(&mut self, color: Color) -> Option<Vec<Point>> {
        if self.solver.can_connect(&self.cells, color) {
            Some(self.solver.sequence().to_vec())
        } else {
            None
        }
    }

    /// The solver, for statistics.
    pub fn solver(&self) -> &Solver {
        &self.solver
    }

    /// The solver, to change its options (tests).
    pub fn solver_mut(&mut self) -> &mut Solver {
        &mut self.solver
    }

    fn set_cell(&mut self, p: Point, v: u8) {
        let old = self.cells[p as usize];
        let (w, b) = (p as usize / 64, 1u64 << (p % 64));
        if old != EMPTY {
            self.hash ^= self.geo.keys[p as usize][old as usize - 1];
            self.bits[old as usize - 1].0[w] &= !b;
        }
        if v != EMPTY {
            self.hash ^= self.geo.keys[p as usize][v as usize - 1];
            self.bits[v as usize - 1].0[w] |= b;
        }
        self.cells[p as usize] = v;
    }

    fn describe(&self, p: Point, v: Violation) -> String {
        let name = |q: Point| self.geo.point_name(q);
        match v {
            Violation::Occupied => format!("{} is occupied", name(p)),
            Violation::Crosscut { b, c1, c2 } => format!(
                "{} would form the crosscut pattern with {} against {} and {}",
                name(p),
                name(b),
                name(c1),
                name(c2)
            ),
            Violation::Diagonal { d } => format!(
                "{} would be diagonal to {} with no shared like neighbour",
                name(p),
                name(d)
            ),
        }
    }
}

impl Game for Orcoon {
    type Move = OrcoonMove;

    // Placements only add stones, the swap is played once, and a pass ends
    // the game with a winner by the adjudication: no draw, no repetition.
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

    fn legal_moves(&self, out: &mut Vec<OrcoonMove>) {
        if self.outcome.is_some() {
            return;
        }
        // All points at once on bit sets (the same test as `violation`;
        // compared point by point in the tests).
        let m = &self.geo.masks;
        let (legal, _) = placements(
            m,
            &self.bits[self.turn.to_move().index()],
            &self.bits[self.turn.to_move().opponent().index()],
        );
        for (i, &word) in legal.0[..m.words].iter().enumerate() {
            let mut w = word;
            while w != 0 {
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                out.push(OrcoonMove::Place((i * 64 + b) as Point));
            }
        }
        out.push(OrcoonMove::Pass);
        if self.swap_available() {
            out.push(OrcoonMove::Swap);
        }
    }

    fn is_legal(&self, mv: OrcoonMove) -> bool {
        self.outcome.is_none()
            && match mv {
                OrcoonMove::Pass => true,
                OrcoonMove::Swap => self.swap_available(),
                OrcoonMove::Place(p) => {
                    (p as usize) < self.geo.num_points && self.can_place(p, self.turn.to_move())
                }
            }
    }

    fn play_with(&mut self, mv: OrcoonMove, effort: Effort) {
        let mover = self.turn.to_move();
        let undo = Undo {
            mv: Some(mv),
            outcome: self.outcome,
        };
        match mv {
            OrcoonMove::Swap => {}
            OrcoonMove::Place(p) => self.set_cell(p, stone(mover)),
            OrcoonMove::Pass => {
                let winner = self.adjudicate_with(mover, effort);
                self.outcome = Some(Outcome::Win(winner));
                self.hash ^= self.geo.over_key;
            }
        }
        self.history.push(undo);
        let entry = Entry::of(Some(mv), OrcoonMove::Swap);
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
        let entry = Entry::of(undo.mv, OrcoonMove::Swap);
        let (hash, outcome) = (&mut self.hash, &mut self.outcome);
        self.turn.take_back(hash, outcome, undo.outcome, entry);
        match undo.mv {
            Some(OrcoonMove::Place(p)) => self.set_cell(p, EMPTY),
            Some(OrcoonMove::Pass) => self.hash ^= self.geo.over_key,
            Some(OrcoonMove::Swap) | None => {}
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
        if self.passer().is_some() {
            h ^= self.geo.over_key;
        }
        h ^ self.turn.key(self.outcome)
    }

    fn set_to_move(&mut self, color: Color) -> Result<(), String> {
        self.turn.set_to_move(&mut self.hash, color)
    }
}

impl Notation for Orcoon {
    fn move_order(&self, mv: OrcoonMove) -> crate::game::MoveOrder {
        use crate::game::{MoveOrder, Spot};
        let n = self.geo.n;
        match mv {
            OrcoonMove::Place(p) => MoveOrder::Place(Spot::new(0, p as usize / n, p as usize % n)),
            OrcoonMove::Pass => MoveOrder::Pass,
            OrcoonMove::Swap => MoveOrder::Swap,
        }
    }

    fn piece_at(&self, point: &str) -> Option<Color> {
        self.at(self.geo.parse_point(point).ok()?)
    }

    fn parse_move(&self, text: &str) -> Result<OrcoonMove, MoveError> {
        let lower = text.to_ascii_lowercase();
        let over = || Err(MoveError::Illegal("the game is over".into()));
        match lower.as_str() {
            "pass" => {
                return if self.outcome.is_some() {
                    over()
                } else {
                    Ok(OrcoonMove::Pass)
                };
            }
            "swap" => {
                return self
                    .turn
                    .check_swap(self.outcome)
                    .map(|()| OrcoonMove::Swap);
            }
            _ => {}
        }
        let p = self.geo.parse_point(text).map_err(MoveError::Syntax)?;
        if self.outcome.is_some() {
            return over();
        }
        match self.violation(p, self.turn.to_move()) {
            None => Ok(OrcoonMove::Place(p)),
            Some(v) => Err(MoveError::Illegal(self.describe(p, v))),
        }
    }

    fn format_move(&self, mv: OrcoonMove) -> String {
        match mv {
            OrcoonMove::Place(p) => self.geo.point_name(p),
            OrcoonMove::Pass => "pass".to_string(),
            OrcoonMove::Swap => "swap".to_string(),
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
        self.set_cell(p, color.map_or(EMPTY, stone));
        Ok(())
    }
}
