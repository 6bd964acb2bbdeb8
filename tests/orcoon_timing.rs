//! Adjudication timing on random late-game positions (run with
//! `cargo test --release --test orcoon_timing -- --ignored --nocapture`).

mod common;

use std::time::Instant;

use common::Rng;
use crosscut::game::{Color, Game, Notation};
use crosscut::games::orcoon::{Orcoon, OrcoonMove};

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

/// A random legal position built point by point in random order (each
/// point tried with a random colour, kept if legal), with one of the seed's
/// deadlock patterns embedded: more fragmented than a game, many deadlocks.
fn scattered(rng: &mut Rng, n: usize, fill: usize) -> Orcoon {
    let cells = common::orcoon_ref::random_cells(rng, n, fill as u64, true, true);
    common::orcoon_ref::position(n, &cells)
}

fn measure(n: usize, count: usize) {
    measure_with(n, count, "random play", late_game);
    measure_with(n, count, "scattered + deadlock", scattered);
}

fn measure_with(n: usize, count: usize, label: &str, make: fn(&mut Rng, usize, usize) -> Orcoon) {
    let mut rng = Rng(0xC0FFEE + n as u64);
    let mut times = Vec::new();
    let mut connects = 0;
    let mut branching = 0;
    let mut worst_nodes = 0;
    let mut worst_board = String::new();
    let mut slowest = (std::time::Duration::ZERO, String::new());
    let (mut probing, mut dead) = (0, 0);
    for i in 0..count {
        let fill = 50 + (i * 50) / count;
        let g = make(&mut rng, n, fill);
        for color in Color::ALL {
            // The machine is shared: each adjudication runs three times and
            // the fastest counts, so a preemption does not pass for a slow
            // adjudication.
            let mut h = g.clone();
            let mut dt = std::time::Duration::MAX;
            let mut yes = false;
            for _ in 0..3 {
                let t = Instant::now();
                yes = h.connecting_sequence(color).is_some();
                dt = dt.min(t.elapsed());
            }
            times.push(dt);
            connects += yes as usize;
            if h.solver().branch_nodes > 0 {
                branching += 1;
            }
            probing += usize::from(h.solver().probes > 0);
            dead += usize::from(h.solver().dead_points() > 0);
            if dt > slowest.0 {
                let s = h.solver();
                slowest = (
                    dt,
                    format!(
                        "{color:?} to connect: {yes}, {dt:?}, {} nodes, {} branching, \
                         {} probing rounds, {} probe nodes, {} dead\n{}",
                        s.nodes,
                        s.branch_nodes,
                        s.probes,
                        s.probe_nodes(),
                        s.dead_points(),
                        h.showboard()
                    ),
                );
            }
            if h.solver().nodes > worst_nodes {
                worst_nodes = h.solver().nodes;
                worst_board = format!("{color:?} to connect: {yes}, {dt:?}\n{}", h.showboard());
            }
        }
    }
    times.sort();
    let total = times.len();
    println!(
        "{n}x{n} {label}: {total} adjudications ({count} positions x 2 colours, fill 50-100%): \
         median {:?}, p99 {:?}, worst {:?}; {connects} connect; {branching} needed branching; \
         {probing} probed, {dead} found dead points; most search nodes {worst_nodes}",
        times[total / 2],
        times[total * 99 / 100],
        times[total - 1]
    );
    if std::env::var_os("ORCOON_SHOW_WORST").is_some() {
        println!("most nodes: {worst_board}");
        println!("slowest: {}", slowest.1);
    }
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

/// A larger sweep looking for the worst case (ORCOON_STRESS positions per
/// generator, default 10000, on 11x11 and 13x13).
#[test]
#[ignore]
fn adjudication_stress() {
    let count: usize = std::env::var("ORCOON_STRESS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    measure(11, count);
    measure(13, count);
}

/// The largest board.
#[test]
#[ignore]
fn adjudication_timing_26() {
    measure(26, 200);
}
