//! The words every layer shares, depending on nothing else in the crate: the
//! players' colours and how a board's columns and rows are written. The
//! lowest layer: [`crate::drawing`] and [`crate::game`] build on it, and
//! `game` re-exports it (`crate::game::Color` is the usual path).

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
