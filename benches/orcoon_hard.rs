//! The time of Orcoon's hardest known adjudication: `cargo bench --bench
//! orcoon_hard`.
//!
//! The position is `SEED345` of `tests/it/common/orcoon_ref.rs` (13x13, found
//! in an MCTS playout; `tests/it/orcoon_hard.rs` checks both answers
//! independently: White cannot connect, Black can). For each colour it runs
//! `connecting_sequence` five times and prints the fastest, with the
//! solver's counts:
//!
//! ```text
//! White: 0 in T: N nodes, B branching, R probing rounds, P probe nodes, D dead points
//! ```
//!
//! The first number is the length of the connecting sequence found (0: the
//! colour cannot connect). The node counts are the same on every machine
//! for a given build: a change there is a change of the solver; the time
//! depends on the machine and its load (the exact adjudication of White's
//! free placements once took 203 s, 20.6 million nodes, before the probes
//! for dead points).

// The tests' helpers; a benchmark uses only some of them.
#[allow(dead_code)]
#[path = "../tests/it/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use common::orcoon_ref::{SEED345, parse_rows, position};
use crosscut::game::Color;

fn main() {
    let (n, cells) = parse_rows(&SEED345);
    for color in [Color::White, Color::Black] {
        let mut g = position(n, &cells);
        let mut best = Duration::MAX;
        for _ in 0..5 {
            let t = Instant::now();
            std::hint::black_box(g.connecting_sequence(color));
            best = best.min(t.elapsed());
        }
        let s = g.solver();
        println!(
            "{color:?}: {} in {best:?}: {} nodes, {} branching, {} probing rounds, \
             {} probe nodes, {} dead points",
            s.sequence().len(),
            s.nodes,
            s.branch_nodes,
            s.probes,
            s.probe_nodes(),
            s.dead_points()
        );
    }
}
