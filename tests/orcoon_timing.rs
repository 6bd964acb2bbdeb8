//! Adjudication timing on random late-game positions (run with
//! `cargo test --release --test orcoon_timing -- --ignored --nocapture`).

mod orcoon_common;

use std::time::Instant;

use crosscut::game::{Color, Game};
use crosscut::games::orcoon::{Orcoon, OrcoonMove};
use orcoon_common::Rng;

/// A random late-game position: random legal placements (no pass) until
/// `fill` percent of the board is covered or nobody can place.
fn late_game(rng: &mut Rng, n: usize, fill: usize) -> Orcoon {
    let mut g = Orcoon::new(n).unwrap();
    let mut moves = Vec::new();
    let target = n * n * fill / 100;
    let mut stones = 0;
    while stones < target {
        moves.clear();
        g.legal_moves(&mut moves);
        moves.retain(|m| matches!(m, OrcoonMove::Place(_)));
        if moves.is_empty() {
            break;
        }
        g.play(moves[rng.below(moves.len())]);
        stones += 1;
    }
    g
}

fn measure(n: usize, count: usize) {
    let mut rng = Rng(0xC0FFEE + n as u64);
    let mut times = Vec::new();
    let mut connects = 0;
    let mut branching = 0;
    let mut worst_nodes = 0;
    for i in 0..count {
        let fill = 50 + (i * 50) / count;
        let g = late_game(&mut rng, n, fill);
        for color in Color::ALL {
            let mut h = g.clone();
            let t = Instant::now();
            let yes = h.connecting_sequence(color).is_some();
            let dt = t.elapsed();
            times.push(dt);
            connects += yes as usize;
            if h.solver().branch_nodes > 0 {
                branching += 1;
            }
            worst_nodes = worst_nodes.max(h.solver().nodes);
        }
    }
    times.sort();
    let total = times.len();
    println!(
        "{n}x{n}: {total} adjudications ({count} positions x 2 colours, fill 50-100%): \
         median {:?}, p99 {:?}, worst {:?}; {connects} connect; {branching} needed branching; \
         most search nodes {worst_nodes}",
        times[total / 2],
        times[total * 99 / 100],
        times[total - 1]
    );
}

#[test]
#[ignore]
fn adjudication_timing_11() {
    measure(11, 2000);
}

#[test]
#[ignore]
fn adjudication_timing_13() {
    measure(13, 2000);
}

/// A fast version that runs with the suite.
#[test]
fn adjudication_timing_smoke() {
    measure(11, 40);
}
