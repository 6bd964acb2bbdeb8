//! Orcoon adjudication timing: `cargo bench --bench orcoon_timing [-- SWEEP...]`.
//!
//! Times `connecting_sequence` (the exact adjudication after a pass: can
//! this colour still join its edges?) for both colours on random positions
//! filled 50% to 100%, from two generators: "random play" (random legal
//! placements, as in a game) and "scattered + deadlock" (points tried in
//! random order with a random colour, with one of the seed's deadlock
//! patterns embedded: more fragmented, many deadlocks). Each adjudication
//! runs three times and the fastest counts, so that a preemption on a
//! shared machine does not pass for a slow adjudication.
//!
//! Sweeps (default `11 13`, about 6 s on a shared 2-core machine; it was
//! the ignored tests `adjudication_timing_11` and `_13` of
//! `tests/orcoon_timing.rs`):
//! - `smoke`: 40 positions on 11x11 (under a second);
//! - `11`, `13`: 2,000 positions on 11x11 or 13x13;
//! - `26`: 200 positions on 26x26 (about 5 s);
//! - `stress`: `ORCOON_STRESS` positions (default 10,000) on 11x11 and
//!   13x13, looking for the worst case.
//!
//! One line per board size and generator:
//!
//! ```text
//! 11x11 random play: 4000 adjudications (2000 positions x 2 colours, fill 50-100%): median M, p99 P, worst W; C connect; B needed branching; X probed, D found dead points; most search nodes N
//! ```
//!
//! The median and p99 are what a game's passes cost; the worst case is what
//! a time control must allow for. With `ORCOON_SHOW_WORST=1` the boards of
//! the slowest adjudication and of the one with the most search nodes are
//! printed too (candidates for `tests/it/orcoon_hard.rs`).

// The tests' helpers; a benchmark uses only some of them.
#[allow(dead_code)]
#[path = "../tests/it/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use common::Rng;
use common::orcoon_ref::{play_random_placement, position, random_cells};
use crosscut::game::{Color, Notation};
use crosscut::games::orcoon::Orcoon;

/// A random late-game position: random legal placements (no pass) until
/// `fill` percent of the board is covered or nobody can place.
fn late_game(rng: &mut Rng, n: usize, fill: usize) -> Orcoon {
    let mut g = Orcoon::new(n).unwrap();
    let target = n * n * fill / 100;
    let mut stones = 0;
    while stones < target && play_random_placement(&mut g, rng) {
        stones += 1;
    }
    g
}

/// A random legal position built point by point in random order (each
/// point tried with a random colour, kept if legal), with one of the seed's
/// deadlock patterns embedded: more fragmented than a game, many deadlocks.
fn scattered(rng: &mut Rng, n: usize, fill: usize) -> Orcoon {
    let cells = random_cells(rng, n, fill as u64, true, true);
    position(n, &cells)
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
    let mut slowest = (Duration::ZERO, String::new());
    let (mut probing, mut dead) = (0, 0);
    for i in 0..count {
        let fill = 50 + (i * 50) / count;
        let g = make(&mut rng, n, fill);
        for color in Color::ALL {
            let mut h = g.clone();
            let mut dt = Duration::MAX;
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

fn main() {
    // `cargo bench` passes `--bench`; any other word is a sweep.
    let mut sweeps: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if sweeps.is_empty() {
        sweeps = vec!["11".into(), "13".into()];
    }
    for sweep in sweeps {
        match sweep.as_str() {
            "smoke" => measure(11, 40),
            "11" => measure(11, 2000),
            "13" => measure(13, 2000),
            "26" => measure(26, 200),
            "stress" => {
                let count: usize = std::env::var("ORCOON_STRESS")
                    .ok()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(10_000);
                measure(11, count);
                measure(13, count);
            }
            other => {
                eprintln!("orcoon_timing: unknown sweep '{other}' (smoke, 11, 13, 26, stress)");
                std::process::exit(2);
            }
        }
    }
}
