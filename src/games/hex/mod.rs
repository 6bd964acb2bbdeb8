//! Hex (Piet Hein 1942, John Nash 1948): placement on a rhombus of
//! hexagonal cells, Black joins row 1 to row N, White column `a` to the
//! last; swap. Notation and orientation are Benzene's (`a1` top-left).

mod board;
pub mod circuit;
mod display;
mod estimate;
pub mod eval;
pub mod geometry;
pub mod hint;
mod hsearch;
pub mod inferior;
pub mod resistance;
pub mod symmetry;
pub mod templates;
pub mod vc;

pub use board::{Hex, HexMove, edge_bits};
pub use circuit::VcResistance;
pub use eval::TwoDistance;
pub use geometry::{Cell, DEFAULT_SIZE, Geometry, MAX_SIZE, MIN_SIZE};
pub use resistance::Resistance;

use super::{BenchPosition, GameCommand, GameEntry, Layout, rules_of, session_of};
use crate::session::Options;

/// Hex in the game registry.
pub const ENTRY: GameEntry = GameEntry {
    name: "hex",
    sizes: (MIN_SIZE, MAX_SIZE, 1),
    default_size: DEFAULT_SIZE,
    options: &[super::common::SWAP],
    commands: &[GameCommand {
        name: "vc-build",
        usage: "vc-build COLOR",
        run: vc_build,
    }],
    layout: Layout::Rhombus,
    sgf_number: Some(11),
    bench: BENCH,
    book: include_str!("book.txt"),
    // 2 × size²: placements only, a game fills the board at most once.
    move_limit: |size| 2 * size * size,
    new_rules: |size, options| rules_of(ENTRY.name, new_game, size, options),
    new_session: |size, options, hash_mb| {
        session_of(
            ENTRY.name,
            new_game,
            size,
            options,
            vec![
                Box::new(VcResistance),
                Box::new(TwoDistance),
                Box::new(Resistance),
            ],
            hash_mb,
        )
    },
};

/// `vc-build COLOR` (HexGui's Hint): see [`hint::vc_build`].
fn vc_build(position: &mut dyn std::any::Any, args: &[&str]) -> Result<String, String> {
    let pos = position
        .downcast_mut::<Hex>()
        .ok_or("vc-build: the position is not a Hex position")?;
    hint::vc_build(pos, args)
}

/// A new game: an empty board, with the swap unless the `swap` option
/// is off.
fn new_game(size: usize, options: &Options) -> Result<Hex, String> {
    let mut game = Hex::new(size)?;
    game.set_swap(super::common::swap_on(options));
    Ok(game)
}

/// The positions `bench` searches (from an engine self-play game at 0.3 s
/// a move).
const BENCH: &[BenchPosition] = &[
    BenchPosition {
        size: 11,
        options: &[],
        moves: "",
    },
    BenchPosition {
        size: 11,
        options: &[],
        moves: "g6 g5 c7 h5 c8 e4 f4 b10 c9 c10",
    },
    BenchPosition {
        size: 11,
        options: &[],
        moves: "g6 g5 c7 h5 c8 e4 f4 b10 c9 c10 e9 e5 f5 f6 d9 e6 b6 d3 c3 b5 a5 a6",
    },
];
