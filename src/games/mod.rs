//! The games: each one's rules, notation and evaluation.

pub mod akron;
pub mod hex;
pub mod onyx;
pub mod orcoon;

use crate::engine::{GameSession, Session};

/// The names `game` accepts.
pub const GAME_NAMES: &[&str] = &["onyx", "orcoon", "akron", "hex"];

/// A bench position: game, board size, extra setup command (Onyx's start),
/// moves from the start.
pub type BenchPosition = (&'static str, usize, Option<&'static str>, &'static str);

/// The positions `bench` searches (taken from the replayed vector games;
/// Hex's from an engine self-play game at 0.3 s a move).
pub const BENCH: &[BenchPosition] = &[
    ("onyx", 12, Some("standard"), ""),
    (
        "onyx",
        12,
        Some("standard"),
        "CD89 FG78 H1 FG56 D12 B5 J8 K11 AB1011 A1",
    ),
    (
        "onyx",
        12,
        Some("standard"),
        "CD89 FG78 H1 FG56 D12 B5 J8 K11 AB1011 A1 B2 L10 HI78 L5 J4 K12 H9 B7 I4 IJ1011 L9 F7 \
         CD1011 F8 G10 C10 K10 K1 DE910 A2",
    ),
    (
        "onyx",
        12,
        Some("standard"),
        "CD89 FG78 H1 FG56 D12 B5 J8 K11 AB1011 A1 B2 L10 HI78 L5 J4 K12 H9 B7 I4 IJ1011 L9 F7 \
         CD1011 F8 G10 C10 K10 K1 DE910 A2 J6 EF23 K7 GH45 D2 J11 K8 D5 C7 J10 E12 H12 E3 F3 H2 \
         B3 C11 G2 I1 L11",
    ),
    (
        "onyx",
        12,
        Some("blank"),
        "GH1011 KL89 JK1112 G12 K6 HI56 D4 DE910 CD89 F8 E2 A3 B5 C3 F1 I12 CD1011 CD67 F12 GH23",
    ),
    (
        "onyx",
        12,
        Some("blank"),
        "GH1011 KL89 JK1112 G12 K6 HI56 D4 DE910 CD89 F8 E2 A3 B5 C3 F1 I12 CD1011 CD67 F12 GH23 \
         EF45 AB89 D11 HI910 C6 L3 L2 A8 B11 E5 K5 A2 A7 H4 B10 E12 IJ89 F10 IJ1011 D9",
    ),
    (
        "onyx",
        12,
        Some("standard"),
        "C5 H1 B3 E3 C1 C7 J9 K11 HI56 A8 CD89 D10 GH45 B7 KL45 I11 E9 J5 C6 G4 G3 I9 C9 A11 I7 \
         G10 H8 L5 E5 L10 KL23 FG78 J3 H7 B11 CD23 J6 L11 C11 F7",
    ),
    ("orcoon", 11, None, ""),
    ("orcoon", 11, None, "F6 I9 H9 K4 F4 H4 F5 A6 F7 D5 F3 K10"),
    (
        "orcoon",
        11,
        None,
        "F6 C1 D1 H1 F3 B4 D4 E4 D2 A2 D3 A9 F9 A6 D6 I8 F8 D7 D5 G4 E6 D10 F10 A8",
    ),
    ("akron", 8, None, ""),
    ("akron", 8, None, "D4 E5 E4 D5 C5 F4"),
    (
        "akron",
        8,
        None,
        "D6 F5 A2 B7 B8 H2 D2 A7 C5 F8 H1 B7-A6 A5 G5 C1 G5-E5 A1 A7-B6 E1 F5-D5 E2 C7 C8 \
         H6 E1-C2 C3 D7 D8 C2-E1 H4",
    ),
    (
        "akron",
        8,
        None,
        "E4 swap B3 G2 B5 H1 F8 G3 B1 F6 C2 C4 A5 G2-F3 B5-A6 F3-G4 A5-B6 G3-F4 A6-C6 \
         F4-G3 D2 G4-H3 C6-B7 H7 D2-C3 H5 E7 D7 E3 G3-H2 F1 G3 C3-D2 H2-F3 B7-C6 G3-F4 \
         C2-E2 F3-G4 E3-D1 A1 E2-D3 G4-D4 C6-B5 D4-C3 D3-E1 F4-D4 A8 E4-B4 F1-C2 C4-D3 \
         D1-E2 C3-C4 D2-D1 F4 B6-C5 E3 E2-D2 E3-BC45 C5-A5 D4-E3 C2-E2 C4-D5 C4 E8 G4 \
         E3-D4 F3 A2 E1-E3 E1 F3-DE12 D4-D6 A5-BC45 C5-E6 D2-F3 D7-F7 G8 G3 C5-B6 D6-G7",
    ),
    ("hex", 11, None, ""),
    ("hex", 11, None, "g6 g5 c7 h5 c8 e4 f4 b10 c9 c10"),
    (
        "hex",
        11,
        None,
        "g6 g5 c7 h5 c8 e4 f4 b10 c9 c10 e9 e5 f5 f6 d9 e6 b6 d3 c3 b5 a5 a6",
    ),
];

/// A new game `name` at its default size and options.
pub fn new_session(name: &str) -> Result<Box<dyn Session>, String> {
    match name.to_ascii_lowercase().as_str() {
        "onyx" => Ok(Box::new(GameSession::new(
            onyx::Onyx::with_preferred_start(onyx::DEFAULT_SIZE, onyx::Start::Standard)?,
        ))),
        "orcoon" => Ok(Box::new(GameSession::new(orcoon::Orcoon::new(
            orcoon::DEFAULT_SIZE,
        )?))),
        "akron" => Ok(Box::new(GameSession::new(akron::Akron::new(
            akron::DEFAULT_SIZE,
        )?))),
        "hex" => Ok(Box::new(GameSession::new(hex::Hex::new(
            hex::DEFAULT_SIZE,
        )?))),
        other => Err(format!(
            "unknown game '{other}' (known: {})",
            GAME_NAMES.join(", ")
        )),
    }
}
