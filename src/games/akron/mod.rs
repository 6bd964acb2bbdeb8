//! Akron (Cameron Browne): balls stacked pyramid-fashion on an N×N board of
//! holes; adds and moves with drop cascades, the over/under rule, connection
//! wins, repetition draws, swap.

mod board;
mod display;
pub mod eval;
pub mod geometry;

pub use board::{Akron, AkronMove, EvalScratch, GroupIter, edge_bits};
pub use eval::Distance;
pub use geometry::{DEFAULT_SIZE, Geometry, MAX_SIZE, MIN_SIZE, Point};

use super::{BenchPosition, GameEntry, Layout, rules_of, session_of};
use crate::session::Options;

/// Akron in the game registry.
pub const ENTRY: GameEntry = GameEntry {
    name: "akron",
    sizes: (MIN_SIZE, MAX_SIZE, 1),
    default_size: DEFAULT_SIZE,
    options: &[super::common::SWAP],
    commands: &[],
    layout: Layout::Grid,
    sgf_number: None,
    bench: BENCH,
    book: "",
    // 10 × size²: balls move, and games can last long.
    move_limit: |size| 10 * size * size,
    new_rules: |size, options| rules_of(ENTRY.name, new_game, size, options),
    new_session: |size, options, hash_mb| {
        session_of(
            "akron",
            new_game,
            size,
            options,
            vec![Box::new(Distance)],
            hash_mb,
        )
    },
};

/// A new game: an empty board, with the swap unless the `swap` option
/// is off.
fn new_game(size: usize, options: &Options) -> Result<Akron, String> {
    let mut game = Akron::new(size)?;
    game.set_swap(super::common::swap_on(options));
    Ok(game)
}

/// The positions `bench` searches.
const BENCH: &[BenchPosition] = &[
    BenchPosition {
        size: 8,
        options: &[],
        moves: "",
    },
    BenchPosition {
        size: 8,
        options: &[],
        moves: "D4 E5 E4 D5 C5 F4",
    },
    BenchPosition {
        size: 8,
        options: &[],
        moves: "D6 F5 A2 B7 B8 H2 D2 A7 C5 F8 H1 B7-A6 A5 G5 C1 G5-E5 A1 A7-B6 E1 F5-D5 E2 \
                C7 C8 H6 E1-C2 C3 D7 D8 C2-E1 H4",
    },
    BenchPosition {
        size: 8,
        options: &[],
        moves: "E4 swap B3 G2 B5 H1 F8 G3 B1 F6 C2 C4 A5 G2-F3 B5-A6 F3-G4 A5-B6 G3-F4 \
                A6-C6 F4-G3 D2 G4-H3 C6-B7 H7 D2-C3 H5 E7 D7 E3 G3-H2 F1 G3 C3-D2 H2-F3 \
                B7-C6 G3-F4 C2-E2 F3-G4 E3-D1 A1 E2-D3 G4-D4 C6-B5 D4-C3 D3-E1 F4-D4 A8 \
                E4-B4 F1-C2 C4-D3 D1-E2 C3-C4 D2-D1 F4 B6-C5 E3 E2-D2 E3-BC45 C5-A5 D4-E3 \
                C2-E2 C4-D5 C4 E8 G4 E3-D4 F3 A2 E1-E3 E1 F3-DE12 D4-D6 A5-BC45 C5-E6 D2-F3 \
                D7-F7 G8 G3 C5-B6 D6-G7",
    },
];

/// The solver sees wins in one (the default); no connection knowledge yet.
impl crate::solve::Knowledge for Akron {}
