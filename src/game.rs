//! What every game offers the rest of the engine: outcomes and the [`Game`]
//! trait (rules only: position, moves, make/undo, winner, hash), the
//! [`Notation`] trait, and the colours and column letters of
//! [`crate::basics`] (re-exported). Nothing here knows about search or the
//! protocol.

use std::fmt::Debug;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, Ordering};

pub use crate::basics::{Color, column_index, column_letter, parse_row_number};
use crate::drawing::Drawing;

/// How a finished game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Outcome {
    /// This colour won.
    Win(Color),
    /// Nobody won (Akron's repetition).
    Draw,
}

impl Outcome {
    /// `B+`, `W+` or `0` (GTP's `final_score` style).
    pub fn score_text(self) -> String {
        match self {
            Outcome::Win(c) => format!("{}+", c.letter()),
            Outcome::Draw => "0".to_string(),
        }
    }
}

/// Why a move text was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveError {
    /// The text is not a move or point of this game and board.
    Syntax(String),
    /// The text names a move that the rules forbid here.
    Illegal(String),
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::Syntax(m) => write!(f, "invalid move: {m}"),
            MoveError::Illegal(m) => write!(f, "illegal move: {m}"),
        }
    }
}

/// How much work a costly rule decision may take when a move is made.
///
/// Most rules are cheap, but Orcoon's pass adjudication is a search of its
/// own. A searcher that plays millions of moves passes a bound; outside
/// searches every decision is exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Effort {
    /// Decide exactly, whatever it costs.
    #[default]
    Exact,
    /// Spend at most this many steps of the decision procedure; a decision
    /// left open is settled against the mover (a pass whose adjudication
    /// is undecided counts as lost for the passer), so a searcher never
    /// steps into the unknown.
    Bounded(u64),
}

/// The rules of one game on one board: a position that can list, make and
/// undo moves, tell the winner and give a Zobrist hash. Nothing here knows
/// about notation, search or the protocol ([`Notation`] writes and reads
/// moves).
///
/// `play` and `undo` must not allocate once the position has warmed up, so
/// searchers can call them millions of times a second.
pub trait Game: Clone + Send + 'static {
    /// A move: a small value type.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    /// Whether a position can come back with nothing in the rules to end
    /// the game for it (Onyx: captures reopen points). Searchers then score
    /// a position repeated on their path, or from the game before it, as a
    /// draw. Games whose rules decide repetitions themselves (Akron) or
    /// whose positions never repeat (placement only) leave it `false`.
    const CAN_REPEAT: bool = false;

    /// Whether every game ends with a winner: no draw by any rule, and no
    /// position repeats (Hex: a full board always has exactly one
    /// connection). Then "the attacker cannot force a win" is "the
    /// defender can", and the solver answers a position for both colours
    /// from one search and one table (see `solve::dfpn`). Left `false`
    /// unless the rules guarantee it.
    const DECISIVE: bool = false;

    /// Points per side of the board.
    fn size(&self) -> usize;

    /// The colour whose turn it is.
    fn to_move(&self) -> Color;

    /// Number of moves played since the start position.
    fn moves_played(&self) -> usize;

    /// The result once the game has ended, `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// Appends every legal move for the side to move to `out` (none once the
    /// game is over). `swap` is included when it is allowed.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Whether `mv` is legal now.
    fn is_legal(&self, mv: Self::Move) -> bool;

    /// Makes a legal move, deciding every rule exactly. Calling it with an
    /// illegal move is a logic error.
    fn play(&mut self, mv: Self::Move) {
        self.play_with(mv, Effort::Exact);
    }

    /// Makes a legal move, spending at most `effort` on a costly rule
    /// decision (see [`Effort`]). Searchers call this one.
    fn play_with(&mut self, mv: Self::Move, effort: Effort);

    /// Hands the turn to the other colour without any other change, as an
    /// entry of the history that [`Game::undo`] takes back. Not a move of the
    /// game: the protocol uses it when a controller plays a colour out of
    /// turn, as GTP allows.
    fn play_null(&mut self);

    /// Takes back the last move made with [`Game::play`] or
    /// [`Game::play_null`].
    fn undo(&mut self);

    /// Zobrist hash of everything that decides the future of the game
    /// (pieces, side to move and any other rule state).
    fn hash(&self) -> u64;

    /// The same hash computed from scratch, for testing the incremental one.
    fn recompute_hash(&self) -> u64;

    /// Sets the side to move in a set-up position (before the first move).
    fn set_to_move(&mut self, color: Color) -> Result<(), String> {
        let _ = color;
        Err("setting the side to move is not supported in this game".into())
    }
}

/// A point's place in board order: level by level from the surface (Onyx's
/// midpoints on level 1), each level row by row from row 1, each row from
/// column `A` (all counted from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Spot {
    /// The level (0: the surface, or every point of a flat board).
    pub level: usize,
    /// The row within the level, from row 1.
    pub row: usize,
    /// The column within the level, from `A`.
    pub column: usize,
}

impl Spot {
    /// The spot at `level`, `row`, `column`.
    pub fn new(level: usize, row: usize, column: usize) -> Spot {
        Spot { level, row, column }
    }
}

/// Where a move comes when moves are listed in board order (`legal_moves`,
/// `solve_all`): placements first, by their point's [`Spot`]; then moves
/// of a piece (Akron's ball moves) by origin, then destination; then
/// `pass`; `swap` last. The variants' order is the listing's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MoveOrder {
    /// A piece placed on a point.
    Place(Spot),
    /// A piece moved from one point to another.
    Step(Spot, Spot),
    /// A pass.
    Pass,
    /// The swap.
    Swap,
}

/// A game's notation: how moves and points are written and read, and the
/// board drawn for people. Kept apart from the rules ([`Game`]).
pub trait Notation: Game {
    /// Where `mv` comes when moves are listed in board order.
    fn move_order(&self, mv: Self::Move) -> MoveOrder;

    /// Parses a move in the game's notation and checks it against the rules.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// Writes a move in the game's notation (no decorations).
    fn format_move(&self, mv: Self::Move) -> String;

    /// Writes a move as `legal_moves` lists it: like [`Notation::format_move`],
    /// plus any decoration the notation attaches (Onyx's capture marks).
    fn format_listed_move(&self, mv: Self::Move) -> String {
        self.format_move(mv)
    }

    /// A board a person can read, ending with a newline.
    fn showboard(&self) -> String;

    /// The colour of the piece on the point written `point` (Akron: the
    /// ball on that point, at its level), `None` for an empty point or a
    /// text that names no point.
    fn piece_at(&self, point: &str) -> Option<Color>;

    /// Puts a piece of `color` on the point written `point`, or empties it
    /// when `color` is `None`, to build test positions. Only allowed before
    /// the first move.
    fn setup(&mut self, color: Option<Color>, point: &str) -> Result<(), String> {
        let _ = (color, point);
        Err("setup is not supported in this game".into())
    }

    /// The board for a graphical interface (see [`crate::drawing`]); a
    /// drawing without points when the game has none.
    fn drawing(&self) -> Drawing {
        Drawing::default()
    }

    /// The image of `mv` under a symmetry of the board that maps the
    /// position to itself with the same side to move and the same rules
    /// (so the positions after `mv` and after its image have the same
    /// value, and each one's moves answer the other's through the same
    /// map), or `None` when the game names none for this position (the
    /// default). A move that names no point (the swap) is its own image.
    fn symmetric_move(&self, mv: Self::Move) -> Option<Self::Move> {
        let _ = mv;
        None
    }
}

/// Number of move sequences of length `depth` from `pos` (no move after a
/// game has ended).
pub fn perft<G: Game>(pos: &mut G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::with_capacity(256);
    pos.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for mv in moves {
        pos.play(mv);
        total += perft(pos, depth - 1);
        pos.undo();
    }
    total
}

/// [`perft`], stopping (with `None`) once `stop` is set: checked at every
/// node two plies or more from the leaves.
pub fn perft_until<G: Game>(pos: &mut G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth < 2 {
        return Some(perft(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut moves = Vec::with_capacity(256);
    pos.legal_moves(&mut moves);
    let mut total = 0;
    for mv in moves {
        pos.play(mv);
        let n = perft_until(pos, depth - 1, stop);
        pos.undo();
        total += n?;
    }
    Some(total)
}

/// A 64-bit SplitMix generator: deterministic keys for Zobrist tables.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
