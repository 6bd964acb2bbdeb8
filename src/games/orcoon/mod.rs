//! Orcoon (Luis Bolaños Mures, 2012): placement on the points of a square
//! board under two restrictions (no knight crosscut `x . o / o . x`, no lone
//! diagonal pair), pass ends the game, exact adjudication of the passer's
//! opponent's free placements, swap.

pub mod adjudicate;
pub mod bits;
mod board;
mod display;
pub mod eval;
pub mod geometry;
mod probe;

pub use adjudicate::Solver;
pub use board::{Orcoon, OrcoonMove, Violation, placements};
pub use eval::Distance;
pub use geometry::{DEFAULT_SIZE, Geometry, MAX_SIZE, MIN_SIZE, Point};

use super::{BenchPosition, GameCommand, GameEntry, Layout, rules_of, session_of};
use crate::game::{Game, Outcome};
use crate::session::Options;

/// Orcoon in the game registry.
pub const ENTRY: GameEntry = GameEntry {
    name: "orcoon",
    sizes: (MIN_SIZE, MAX_SIZE, 1),
    default_size: DEFAULT_SIZE,
    options: &[super::common::SWAP],
    commands: &[GameCommand {
        name: "winning_sequence",
        usage: "winning_sequence",
        run: winning_sequence,
    }],
    layout: Layout::Grid,
    sgf_number: None,
    bench: BENCH,
    book: "",
    // 4 × size²: placements only, and a pass ends the game.
    move_limit: |size| 4 * size * size,
    new_rules: |size, options| rules_of(ENTRY.name, new_game, size, options),
    new_session: |size, options, hash_mb| {
        session_of(
            "orcoon",
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
fn new_game(size: usize, options: &Options) -> Result<Orcoon, String> {
    let mut game = Orcoon::new(size)?;
    game.set_swap(super::common::swap_on(options));
    Ok(game)
}

/// `winning_sequence`: after a pass that the passer lost, one sequence of
/// the winner's placements that joins its edges.
fn winning_sequence(position: &mut dyn std::any::Any, args: &[&str]) -> Result<String, String> {
    let pos = position
        .downcast_mut::<Orcoon>()
        .ok_or("winning_sequence is a command of orcoon")?;
    if !args.is_empty() {
        return Err("syntax error: usage: winning_sequence".into());
    }
    winning_sequence_of(pos).map(|seq| seq.join(" "))
}

/// After a pass that the passer lost, one sequence of the winner's
/// placements that joins its edges (on a copy: the adjudication's solver
/// is kept as it was), in notation; why not otherwise.
pub(crate) fn winning_sequence_of(pos: &Orcoon) -> Result<Vec<String>, String> {
    let (Some(passer), Some(Outcome::Win(winner))) = (pos.passer(), pos.outcome()) else {
        return Err("the game has not ended by a pass".into());
    };
    if winner == passer {
        return Err(format!(
            "{} passed and won: {} cannot connect",
            passer.name(),
            winner.opponent().name()
        ));
    }
    let mut copy = pos.clone();
    let seq = copy
        .connecting_sequence(winner)
        .ok_or("internal error: no connecting sequence found")?;
    Ok(seq.iter().map(|&p| copy.geometry().point_name(p)).collect())
}

/// The positions `bench` searches.
const BENCH: &[BenchPosition] = &[
    BenchPosition {
        size: 11,
        options: &[],
        moves: "",
    },
    BenchPosition {
        size: 11,
        options: &[],
        moves: "F6 I9 H9 K4 F4 H4 F5 A6 F7 D5 F3 K10",
    },
    BenchPosition {
        size: 11,
        options: &[],
        moves: "F6 C1 D1 H1 F3 B4 D4 E4 D2 A2 D3 A9 F9 A6 D6 I8 F8 D7 D5 G4 E6 D10 F10 A8",
    },
];

/// The solver sees wins in one (the default); no connection knowledge
/// yet. It orders a node's moves by the evaluation ([`Distance`])
/// after each, from the opponent's view (which turns on the solver's
/// progressive widening).
impl crate::solve::Knowledge for Orcoon {
    const ORDERS: bool = true;

    fn order_moves(&mut self, moves: &mut [OrcoonMove]) {
        use crate::search::Evaluator;
        crate::solve::knowledge::order_by_evaluation(self, moves, |p| Distance.evaluate(p) as i64);
    }
}
