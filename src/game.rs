//! What every game offers the rest of the engine: colours, outcomes and the
//! [`Game`] trait (rules only: position, moves, make/undo, winner, hash).
//! Nothing here knows about search or the protocol.

use std::fmt::Debug;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, Ordering};

/// A player's colour. Black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player's colour.
    Black,
    /// The second player's colour.
    White,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other colour.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// Parses `b`, `black`, `w`, `white` in any case.
    pub fn parse(text: &str) -> Option<Color> {
        match text.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Color::Black),
            "w" | "white" => Some(Color::White),
            _ => None,
        }
    }

    /// One-letter upper-case name, as in `B+`.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// Lower-case full name.
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

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

/// A game's notation: how moves and points are written and read, and the
/// board drawn for people. Kept apart from the rules ([`Game`]).
pub trait Notation: Game {
    /// Parses a move in the game's notation and checks it against the rules.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// Writes a move in the game's notation (no decorations).
    fn format_move(&self, mv: Self::Move) -> String;

    /// Writes a move as `legal_moves` lists it: like [`Notation::format_move`],
    /// plus any decoration the notation attaches (Onyx's capture marks).
    fn format_listed_move(&self, mv: Self::Move) -> String {
        self.format_move(mv)
    }

    /// A move a GUI may still enter once the game is over, when the game
    /// accepts it there (`None`, the default: no move after the end). Hex
    /// accepts a stone on any empty cell, as Benzene's engines do, since
    /// HexGui keeps sending clicks after the end; the result stays the
    /// first connection's ([`crate::session::Rules::play`]).
    fn parse_after_end(&self, text: &str) -> Option<Self::Move> {
        let _ = text;
        None
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
    fn drawing(&self) -> crate::drawing::Drawing {
        crate::drawing::Drawing::default()
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

/// Parses a column letter (`A` = 0), case-insensitive.
pub fn column_index(ch: u8) -> Option<usize> {
    let c = ch.to_ascii_uppercase();
    c.is_ascii_uppercase().then(|| (c - b'A') as usize)
}

/// The letter of column `c` (0 = `A`).
pub fn column_letter(c: usize) -> char {
    (b'A' + c as u8) as char
}

/// Parses a row number of one or two digits without leading zeros (`1`,
/// `12`); the caller checks it against the board.
pub fn parse_row_number(digits: &str) -> Option<usize> {
    if digits.is_empty() || digits.starts_with('0') || digits.len() > 2 {
        return None;
    }
    digits.parse().ok()
}
