//! The Onyx position: pieces, side to move, make/undo with captures,
//! incremental hash and win detection.

use std::sync::Arc;

use super::geometry::{Geometry, Point};
use crate::game::{Color, Effort, Game, MoveError, Notation, Outcome};
use crate::games::common::{Entry, Turn};

/// An Onyx move: a placement on a point, or White's `swap`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum OnyxMove {
    /// Place a piece of the side to move on this point.
    Place(Point),
    /// The pie rule: White takes over Black's first move.
    Swap,
}

/// The start positions of Onyx.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Start {
    /// Two pieces of each colour on the middle square of each opposing side
    /// (boards whose size is divisible by 4).
    Standard,
    /// An empty board.
    Blank,
}

const EMPTY: u8 = 0;

#[inline]
fn piece(c: Color) -> u8 {
    c as u8 + 1
}

/// What `undo` needs to take a move back.
#[derive(Clone, Copy, Debug)]
struct Undo {
    /// The move, or `None` for a null move.
    mv: Option<OnyxMove>,
    captured: [Point; 4],
    num_captured: u8,
    outcome: Option<Outcome>,
}

/// An Onyx position with its history.
#[derive(Clone, Debug)]
pub struct Onyx {
    geo: Arc<Geometry>,
    cells: Vec<u8>,
    turn: Turn,
    outcome: Option<Outcome>,
    history: Vec<Undo>,
    hash: u64,
    /// Bitsets of each colour's pieces (`geo.words` words each).
    bits: [Vec<u64>; 2],
    /// Occupied corners of each square.
    occupied_corners: Vec<u8>,
    /// Bitset of the midpoints that may not be taken (a corner is occupied).
    blocked: Vec<u64>,
    /// Bitset over squares: those with exactly three occupied corners.
    three_corners: Vec<u64>,
    start: Start,
    /// Scratch for connection searches (visit marks and a stack).
    seen: Vec<u32>,
    stamp: u32,
    stack: Vec<Point>,
}

impl Onyx {
    /// A new game on an `n`×`n` board from `start`.
    pub fn new(n: usize, start: Start) -> Result<Onyx, String> {
        if start == Start::Standard && !n.is_multiple_of(4) {
            return Err(format!(
                "the standard start needs a size divisible by 4; use 'start blank' for {n}x{n}"
            ));
        }
        let geo = Arc::new(Geometry::new(n)?);
        let mut pos = Onyx {
            cells: vec![EMPTY; geo.num_points],
            turn: Turn::new(true, geo.white_key, geo.swap_key),
            outcome: None,
            history: Vec::with_capacity(geo.num_points * 2),
            hash: 0,
            bits: [vec![0; geo.words], vec![0; geo.words]],
            occupied_corners: vec![0; geo.squares.len()],
            blocked: vec![0; geo.words],
            three_corners: vec![0; geo.squares.len().div_ceil(64)],
            start,
            seen: vec![0; geo.num_points],
            stamp: 0,
            stack: Vec::with_capacity(geo.num_points),
            geo,
        };
        if start == Start::Standard {
            let m = n / 2;
            for (column, row, c) in [
                (0, m - 1, Color::Black),
                (0, m, Color::Black),
                (n - 1, m - 1, Color::Black),
                (n - 1, m, Color::Black),
                (m - 1, 0, Color::White),
                (m, 0, Color::White),
                (m - 1, n - 1, Color::White),
                (m, n - 1, Color::White),
            ] {
                let p = pos.geo.grid_point(column, row);
                pos.set_cell(p, piece(c));
            }
        }
        pos.hash = pos.recompute_hash();
        Ok(pos)
    }

    /// A new game on an `n`×`n` board from `preferred`, or from the blank
    /// start when the size has no standard start.
    pub fn with_preferred_start(n: usize, preferred: Start) -> Result<Onyx, String> {
        let start = if n.is_multiple_of(4) {
            preferred
        } else {
            Start::Blank
        };
        Onyx::new(n, start)
    }

    /// The board geometry.
    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }

    /// The start this game was created from.
    pub fn start(&self) -> Start {
        self.start
    }

    /// The piece on `p`, if any.
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

    /// The bitset of `color`'s pieces.
    #[inline]
    pub fn bits(&self, color: Color) -> &[u64] {
        &self.bits[color.index()]
    }

    /// The bitset of midpoints that may not be taken (a corner of their
    /// square is occupied).
    #[inline]
    pub fn blocked_midpoints(&self) -> &[u64] {
        &self.blocked
    }

    /// How many corners of square `s` are occupied.
    #[inline]
    pub fn occupied_corners(&self, s: usize) -> u8 {
        self.occupied_corners[s]
    }

    /// Bitset over squares (bit `s` for `geo.squares[s]`): the squares with
    /// exactly three occupied corners, where captures can happen.
    #[inline]
    pub fn squares_with_three_corners(&self) -> &[u64] {
        &self.three_corners
    }

    /// Word `k` of the bitset of points where a piece may be placed now
    /// (empty, and not a blocked midpoint), ignoring whether the game is over.
    #[inline]
    pub fn placeable_word(&self, k: usize) -> u64 {
        let np = self.geo.num_points;
        let valid = if (k + 1) * 64 <= np {
            u64::MAX
        } else if k * 64 >= np {
            0
        } else {
            (1u64 << (np - k * 64)) - 1
        };
        !(self.bits[0][k] | self.bits[1][k] | self.blocked[k]) & valid
    }

    /// The capture threat in square `s`, if any: its midpoint is empty and
    /// one corner is empty, the opposite corner holds one colour and the
    /// other two corners the other colour. Returns the empty corner (where
    /// the first colour captures and the second defends) and the
    /// threatened pair with its colour.
    #[inline]
    pub fn capture_threat(&self, s: usize) -> Option<(Point, [Point; 2], Color)> {
        let sq = &self.geo.squares[s];
        if self.occupied_corners[s] != 3 || self.cells[sq.midpoint as usize] != EMPTY {
            return None;
        }
        let v = sq.corners.map(|c| self.cells[c as usize]);
        let empty = v.iter().position(|&x| x == EMPTY)?;
        let partner = v[3 - empty];
        let (a, b) = if empty == 0 || empty == 3 {
            (1, 2)
        } else {
            (0, 3)
        };
        (v[a] == v[b] && v[a] != partner).then(|| {
            let color = if v[a] == piece(Color::Black) {
                Color::Black
            } else {
                Color::White
            };
            (sq.corners[empty], [sq.corners[a], sq.corners[b]], color)
        })
    }

    /// The legal moves whose point is in the bitset `within` (swap
    /// included when legal), in point order.
    pub fn legal_moves_within(&self, within: &[u64], out: &mut Vec<OnyxMove>) {
        if self.outcome.is_some() {
            return;
        }
        for (k, &mask) in within.iter().enumerate().take(self.geo.words) {
            let mut w = mask & self.placeable_word(k);
            while w != 0 {
                out.push(OnyxMove::Place(
                    (k * 64) as Point + w.trailing_zeros() as Point,
                ));
                w &= w - 1;
            }
        }
        if self.swap_available() {
            out.push(OnyxMove::Swap);
        }
    }

    /// Every capture threat on the board (see [`Onyx::capture_threat`]).
    pub fn capture_threats(&self) -> impl Iterator<Item = (Point, [Point; 2], Color)> + '_ {
        self.three_corners
            .iter()
            .enumerate()
            .flat_map(|(i, &word)| {
                std::iter::successors((word != 0).then_some(word), |&w| {
                    let w = w & (w - 1);
                    (w != 0).then_some(w)
                })
                .map(move |w| i * 64 + w.trailing_zeros() as usize)
            })
            .filter_map(|s| self.capture_threat(s))
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

    /// Whether a piece may be placed on `p` (empty, and for a midpoint all
    /// four corners empty), ignoring whether the game is over.
    #[inline]
    pub fn can_place(&self, p: Point) -> bool {
        if self.cells[p as usize] != EMPTY {
            return false;
        }
        let s = self.geo.square_of_midpoint[p as usize];
        s == u16::MAX || self.occupied_corners[s as usize] == 0
    }

    /// The opponent pieces a placement of `color` on grid point `p` would
    /// capture, written into `out`; returns how many (0, 2 or 4).
    #[inline]
    pub fn captures(&self, p: Point, color: Color, out: &mut [Point; 4]) -> usize {
        let me = piece(color);
        let them = piece(color.opponent());
        let mut n = 0;
        for &(s, k) in self.geo.squares_of(p) {
            // A capture needs the three other corners occupied.
            if self.three_corners[s as usize / 64] >> (s % 64) & 1 == 0 {
                continue;
            }
            let sq = &self.geo.squares[s as usize];
            if self.cells[sq.midpoint as usize] != EMPTY {
                continue;
            }
            let (partner, [a, b]) = sq.diagonals(k);
            if self.cells[partner as usize] == me
                && self.cells[a as usize] == them
                && self.cells[b as usize] == them
            {
                out[n] = a;
                out[n + 1] = b;
                n += 2;
            }
        }
        n
    }

    /// Whether `color` has a chain joining its two edges.
    pub fn is_connected(&mut self, color: Color) -> bool {
        let (_, to) = edge_bits(color);
        let n = self.geo.n;
        for i in 0..n {
            let p = match color {
                Color::Black => i,
                Color::White => i * n,
            } as Point;
            if self.cells[p as usize] == piece(color) && self.group_edges(p) & to != 0 {
                return true;
            }
        }
        false
    }

    /// Whether `color` has a piece on the edge with bit `edge`.
    fn has_piece_on(&self, color: Color, edge: u8) -> bool {
        let line = &self.geo.edge_bits[edge.trailing_zeros() as usize];
        self.bits(color).iter().zip(line).any(|(a, b)| a & b != 0)
    }

    /// The union of the edge bits of the group of the piece on `p`.
    fn group_edges(&mut self, start: Point) -> u8 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.stamp = 1;
        }
        let colour = self.cells[start as usize];
        let mut edges = 0;
        self.stack.clear();
        self.stack.push(start);
        self.seen[start as usize] = self.stamp;
        while let Some(p) = self.stack.pop() {
            edges |= self.geo.edges[p as usize];
            for &q in self.geo.neighbours_of(p) {
                if self.cells[q as usize] == colour && self.seen[q as usize] != self.stamp {
                    self.seen[q as usize] = self.stamp;
                    self.stack.push(q);
                }
            }
        }
        edges
    }

    /// One chain of `color` joining its edges, from one edge to the other,
    /// if there is one.
    pub fn winning_path(&self, color: Color) -> Option<Vec<Point>> {
        let (from, to) = edge_bits(color);
        let me = piece(color);
        let mut parent = vec![u16::MAX; self.geo.num_points];
        let mut queue = std::collections::VecDeque::new();
        for (p, parent) in parent.iter_mut().enumerate() {
            if self.cells[p] == me && self.geo.edges[p] & from != 0 {
                *parent = p as u16;
                queue.push_back(p as Point);
            }
        }
        while let Some(p) = queue.pop_front() {
            if self.geo.edges[p as usize] & to != 0 {
                let mut path = vec![p];
                let mut q = p;
                while parent[q as usize] != q {
                    q = parent[q as usize];
                    path.push(q);
                }
                path.reverse();
                return Some(path);
            }
            for &q in self.geo.neighbours_of(p) {
                if self.cells[q as usize] == me && parent[q as usize] == u16::MAX {
                    parent[q as usize] = p;
                    queue.push_back(q);
                }
            }
        }
        None
    }

    fn set_cell(&mut self, p: Point, v: u8) {
        let old = self.cells[p as usize];
        if old != EMPTY {
            self.hash ^= self.geo.keys[p as usize][old as usize - 1];
        }
        if v != EMPTY {
            self.hash ^= self.geo.keys[p as usize][v as usize - 1];
        }
        self.cells[p as usize] = v;
        let (w, bit) = (p as usize / 64, 1u64 << (p % 64));
        if old != EMPTY {
            self.bits[old as usize - 1][w] &= !bit;
        }
        if v != EMPTY {
            self.bits[v as usize - 1][w] |= bit;
        }
        if (old == EMPTY) != (v == EMPTY) && !self.geo.is_midpoint(p) {
            for i in 0..self.geo.corner_count[p as usize] as usize {
                let s = self.geo.corner_of[p as usize][i].0 as usize;
                let m = self.geo.squares[s].midpoint as usize;
                let count = &mut self.occupied_corners[s];
                if v == EMPTY {
                    *count -= 1;
                    if *count == 0 {
                        self.blocked[m / 64] &= !(1u64 << (m % 64));
                    }
                } else {
                    *count += 1;
                    self.blocked[m / 64] |= 1u64 << (m % 64);
                }
                let three = &mut self.three_corners[s / 64];
                if *count == 3 {
                    *three |= 1 << (s % 64);
                } else {
                    *three &= !(1 << (s % 64));
                }
            }
        }
    }

    fn refresh_outcome(&mut self) {
        self.outcome = Color::ALL
            .into_iter()
            .find(|&c| self.is_connected(c))
            .map(Outcome::Win);
    }
}

/// The edge bits a colour joins: (first edge, second edge).
pub(crate) use crate::games::common::edge_bits;

impl Game for Onyx {
    type Move = OnyxMove;

    // Captures empty points again: positions repeat (RULINGS, Onyx).
    const CAN_REPEAT: bool = true;

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

    fn legal_moves(&self, out: &mut Vec<OnyxMove>) {
        if self.outcome.is_some() {
            return;
        }
        self.legal_moves_within(&[u64::MAX; 16], out);
    }

    fn is_legal(&self, mv: OnyxMove) -> bool {
        self.outcome.is_none()
            && match mv {
                OnyxMove::Swap => self.swap_available(),
                OnyxMove::Place(p) => (p as usize) < self.geo.num_points && self.can_place(p),
            }
    }

    fn play_with(&mut self, mv: OnyxMove, _effort: Effort) {
        let mover = self.turn.to_move();
        let mut undo = Undo {
            mv: Some(mv),
            captured: [0; 4],
            num_captured: 0,
            outcome: self.outcome,
        };
        match mv {
            OnyxMove::Swap => {}
            OnyxMove::Place(p) => {
                let n = if self.geo.is_midpoint(p) {
                    0
                } else {
                    self.captures(p, mover, &mut undo.captured)
                };
                undo.num_captured = n as u8;
                for &q in &undo.captured[..n] {
                    self.set_cell(q, EMPTY);
                }
                self.set_cell(p, piece(mover));
                // Only the mover's group through p can have newly connected
                // (captures remove opponent pieces only), and only if the
                // mover has pieces on both its edges.
                let (from, to) = edge_bits(mover);
                if self.has_piece_on(mover, from) && self.has_piece_on(mover, to) {
                    let e = self.group_edges(p);
                    if e & from != 0 && e & to != 0 {
                        self.outcome = Some(Outcome::Win(mover));
                    }
                }
            }
        }
        self.history.push(undo);
        let entry = Entry::of(Some(mv), OnyxMove::Swap);
        self.turn
            .record(&mut self.hash, undo.outcome, self.outcome, entry);
    }

    fn play_null(&mut self) {
        self.history.push(Undo {
            mv: None,
            captured: [0; 4],
            num_captured: 0,
            outcome: self.outcome,
        });
        self.turn.hand_over(&mut self.hash, self.outcome);
    }

    fn undo(&mut self) {
        let Some(undo) = self.history.pop() else {
            return;
        };
        let entry = Entry::of(undo.mv, OnyxMove::Swap);
        let (hash, outcome) = (&mut self.hash, &mut self.outcome);
        self.turn.take_back(hash, outcome, undo.outcome, entry);
        if let Some(OnyxMove::Place(p)) = undo.mv {
            self.set_cell(p, EMPTY);
            let them = piece(self.turn.to_move().opponent());
            for &q in &undo.captured[..undo.num_captured as usize] {
                self.set_cell(q, them);
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
        h ^ self.turn.key(self.outcome)
    }

    fn set_to_move(&mut self, color: Color) -> Result<(), String> {
        self.turn.set_to_move(&mut self.hash, color)
    }
}

impl Notation for Onyx {
    fn move_order(&self, mv: OnyxMove) -> crate::game::MoveOrder {
        use crate::game::MoveOrder;
        match mv {
            OnyxMove::Place(p) => MoveOrder::Place(self.geo.spot(p)),
            OnyxMove::Swap => MoveOrder::Swap,
        }
    }

    fn piece_at(&self, point: &str) -> Option<Color> {
        self.at(self.geo.parse_point(point).ok()?)
    }

    fn parse_move(&self, text: &str) -> Result<OnyxMove, MoveError> {
        let lower = text.to_ascii_lowercase();
        if lower == "swap" {
            return self.turn.check_swap(self.outcome).map(|()| OnyxMove::Swap);
        }
        if lower == "pass" {
            return Err(MoveError::Illegal("there is no passing in Onyx".into()));
        }
        let stars = text.len() - text.trim_end_matches('*').len();
        let body = &text[..text.len() - stars];
        let p = self.geo.parse_point(body).map_err(MoveError::Syntax)?;
        if stars > 2 {
            return Err(MoveError::Syntax(format!(
                "'{text}': at most two capture marks"
            )));
        }
        if self.outcome.is_some() {
            return Err(MoveError::Illegal("the game is over".into()));
        }
        if self.cells[p as usize] != EMPTY {
            return Err(MoveError::Illegal(format!(
                "{} is occupied",
                self.geo.point_name(p)
            )));
        }
        if !self.can_place(p) {
            return Err(MoveError::Illegal(format!(
                "{}: a midpoint may be taken only while its four corners are empty",
                self.geo.point_name(p)
            )));
        }
        if stars > 0 {
            let mut buf = [0; 4];
            let pairs = if self.geo.is_midpoint(p) {
                0
            } else {
                self.captures(p, self.turn.to_move(), &mut buf) / 2
            };
            if pairs != stars {
                return Err(MoveError::Illegal(format!(
                    "{text}: the move captures {pairs} pair(s), not {stars}"
                )));
            }
        }
        Ok(OnyxMove::Place(p))
    }

    fn format_move(&self, mv: OnyxMove) -> String {
        match mv {
            OnyxMove::Swap => "swap".to_string(),
            OnyxMove::Place(p) => self.geo.point_name(p),
        }
    }

    fn format_listed_move(&self, mv: OnyxMove) -> String {
        match mv {
            OnyxMove::Place(p) if !self.geo.is_midpoint(p) => {
                let mut buf = [0; 4];
                let pairs = self.captures(p, self.turn.to_move(), &mut buf) / 2;
                format!("{}{}", self.geo.point_name(p), "*".repeat(pairs))
            }
            _ => self.format_move(mv),
        }
    }

    fn showboard(&self) -> String {
        super::display::render_board(self)
    }

    /// The half-turn (see [`super::symmetry`]), on a position that is its
    /// own half-turn.
    fn symmetric_move(&self, mv: OnyxMove) -> Option<OnyxMove> {
        if !super::symmetry::is_own_half_turn(self) {
            return None;
        }
        Some(match mv {
            OnyxMove::Place(p) => OnyxMove::Place(super::symmetry::half_turn(&self.geo, p)),
            OnyxMove::Swap => OnyxMove::Swap,
        })
    }

    fn drawing(&self) -> crate::drawing::Drawing {
        super::display::drawing(self)
    }

    fn setup(&mut self, color: Option<Color>, point: &str) -> Result<(), String> {
        if !self.history.is_empty() {
            return Err("setup is only allowed before the first move".into());
        }
        let p = self.geo.parse_point(point)?;
        self.set_cell(p, color.map_or(EMPTY, piece));
        self.refresh_outcome();
        Ok(())
    }
}
