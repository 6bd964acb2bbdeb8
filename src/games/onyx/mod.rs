//! Onyx (Larry Back): placement on a board of squares and triangles, the
//! midpoint rule, single and double capture, connection wins, swap.

mod board;
mod display;
pub mod distance;
pub mod eval;
pub mod geometry;
mod hsearch;
pub mod inferior;
mod spares;
pub mod symmetry;
pub mod two_distance;
mod vc;

pub use board::{Onyx, OnyxMove, Start};
pub use eval::{Distance, TwoDistance};
pub use geometry::{DEFAULT_SIZE, Geometry, MAX_SIZE, MIN_SIZE, Point};
pub use vc::combined_winner;

use super::{BenchPosition, GameEntry, GameOption, Layout, rules_of, session_of};
use crate::session::{Options, option};

/// Onyx in the game registry.
pub const ENTRY: GameEntry = GameEntry {
    name: "onyx",
    sizes: (MIN_SIZE, MAX_SIZE, 2),
    default_size: DEFAULT_SIZE,
    options: &[
        GameOption {
            name: "start",
            values: &["standard", "blank"],
            doc: "the start position: standard (sizes divisible by 4; the default there) or blank",
            check: check_start,
        },
        super::common::SWAP,
    ],
    commands: &[],
    layout: Layout::GridWithMidpoints,
    sgf_number: None,
    bench: BENCH,
    book: "",
    // 4 × the points (grid points and midpoints): captures can make positions repeat.
    move_limit: |size| 4 * Geometry::new(size).map_or(size * size, |g| g.num_points),
    new_rules: |size, options| rules_of(ENTRY.name, new_game, size, options),
    new_session: |size, options, hash_mb| {
        session_of(
            "onyx",
            new_game,
            size,
            options,
            vec![Box::new(TwoDistance), Box::new(Distance)],
            hash_mb,
        )
    },
};

/// A new game: the `start` option's start, or by default the standard one
/// where the size has it and the blank one elsewhere. A chosen start is
/// kept as the preference across sizes: on a size without a standard start
/// the game starts blank. The swap is in the game unless the `swap`
/// option is off.
fn new_game(size: usize, options: &Options) -> Result<Onyx, String> {
    let preferred = match option(options, "start") {
        Some("blank") => Start::Blank,
        _ => Start::Standard,
    };
    let mut game = Onyx::with_preferred_start(size, preferred)?;
    game.set_swap(super::common::swap_on(options));
    Ok(game)
}

/// The standard start exists only on sizes divisible by 4.
fn check_start(size: usize, value: &str) -> Result<(), String> {
    if value == "standard" && !size.is_multiple_of(4) {
        Err(format!(
            "the standard start needs a board size divisible by 4, not {size}"
        ))
    } else {
        Ok(())
    }
}

/// The positions `bench` searches (taken from the replayed vector games).
const BENCH: &[BenchPosition] = &[
    BenchPosition {
        size: 12,
        options: &[("start", "standard")],
        moves: "",
    },
    BenchPosition {
        size: 12,
        options: &[("start", "standard")],
        moves: "CD89 FG78 H1 FG56 D12 B5 J8 K11 AB1011 A1",
    },
    BenchPosition {
        size: 12,
        options: &[("start", "standard")],
        moves: "CD89 FG78 H1 FG56 D12 B5 J8 K11 AB1011 A1 B2 L10 HI78 L5 J4 K12 H9 B7 I4 \
                IJ1011 L9 F7 CD1011 F8 G10 C10 K10 K1 DE910 A2",
    },
    BenchPosition {
        size: 12,
        options: &[("start", "standard")],
        moves: "CD89 FG78 H1 FG56 D12 B5 J8 K11 AB1011 A1 B2 L10 HI78 L5 J4 K12 H9 B7 I4 \
                IJ1011 L9 F7 CD1011 F8 G10 C10 K10 K1 DE910 A2 J6 EF23 K7 GH45 D2 J11 K8 D5 \
                C7 J10 E12 H12 E3 F3 H2 B3 C11 G2 I1 L11",
    },
    BenchPosition {
        size: 12,
        options: &[("start", "blank")],
        moves: "GH1011 KL89 JK1112 G12 K6 HI56 D4 DE910 CD89 F8 E2 A3 B5 C3 F1 I12 CD1011 \
                CD67 F12 GH23",
    },
    BenchPosition {
        size: 12,
        options: &[("start", "blank")],
        moves: "GH1011 KL89 JK1112 G12 K6 HI56 D4 DE910 CD89 F8 E2 A3 B5 C3 F1 I12 CD1011 \
                CD67 F12 GH23 EF45 AB89 D11 HI910 C6 L3 L2 A8 B11 E5 K5 A2 A7 H4 B10 E12 \
                IJ89 F10 IJ1011 D9",
    },
    BenchPosition {
        size: 12,
        options: &[("start", "standard")],
        moves: "C5 H1 B3 E3 C1 C7 J9 K11 HI56 A8 CD89 D10 GH45 B7 KL45 I11 E9 J5 C6 G4 G3 \
                I9 C9 A11 I7 G10 H8 L5 E5 L10 KL23 FG78 J3 H7 B11 CD23 J6 L11 C11 F7",
    },
];

/// Plays one random game on an `n`×`n` board from `start` to its end,
/// showing `visit` every position, the last one included (`visit` may
/// play and undo moves, but must leave the position as it found it).
#[cfg(test)]
pub(crate) fn random_game(
    rng: &mut rand::rngs::SmallRng,
    n: usize,
    start: Start,
    mut visit: impl FnMut(&mut Onyx),
) {
    use crate::game::Game;
    use rand::RngExt;
    let mut pos = Onyx::new(n, start).expect("a valid size");
    let mut moves = Vec::new();
    loop {
        visit(&mut pos);
        if pos.outcome().is_some() {
            return;
        }
        moves.clear();
        pos.legal_moves(&mut moves);
        let m = moves[rng.random_range(0..moves.len())];
        pos.play(m);
    }
}

/// The solver sees wins in one, virtual connections and semi-connections,
/// prunes to the carrier of the opponent's virtual connection (see
/// `vc.rs` for the patterns and why captures cannot break them), drops
/// moves on dead points (`inferior.rs`) and keeps one move of each pair
/// of twins on a symmetric position. With `solve_play_knowledge`, the
/// combined connections of H-search too (`hsearch.rs`).
impl crate::solve::Knowledge for Onyx {
    const LAZY: bool = true;
    /// Every answer is a function of the pieces, the side to move and
    /// whether a swap may come (the per-thread caches are keyed by the
    /// hash, which holds them all).
    const ANSWERS_BY_POSITION: bool = true;

    fn forced_winner(&mut self) -> Option<crate::game::Color> {
        vc::forced_winner(self)
    }

    fn prune_losing(&mut self, moves: &mut Vec<OnyxMove>) {
        vc::prune_losing(self, moves)
    }

    /// On: the combined connections of H-search (`hsearch.rs`) beside the
    /// single paths.
    fn use_play_knowledge(on: bool) {
        vc::use_combined(on)
    }

    /// The moves on dead points but one when their number is odd
    /// (`inferior.rs`), then one move of each pair of twins on a position
    /// that is its own half-turn (`symmetry.rs`; the half-turn maps dead
    /// points to dead points).
    fn prune_inferior(&mut self, moves: &mut Vec<OnyxMove>) {
        inferior::prune_dead_points(self, moves);
        crate::solve::knowledge::keep_one_of_twins(self, moves)
    }

    const ORDERS: bool = true;

    /// By the two-distance evaluation after each move, from the
    /// opponent's view, lowest first.
    fn order_moves(&mut self, moves: &mut [OnyxMove]) {
        crate::solve::knowledge::order_by_evaluation(self, moves, |p| {
            two_distance::evaluate_two_distance(p) as i64
        });
    }
}
