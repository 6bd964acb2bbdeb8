//! Akron speed figures: `cargo bench --bench akron_speed`.
//!
//! For a few positions (the 8x8 start and positions of the reference games
//! in `tests/data/akron_games.jsonl`, after the given number of plies) it
//! prints one line:
//!
//! ```text
//! 900002 ply 40: perft 1-3 [a, b, c]; perft 3 in Ts (L leaves/s); play+undo P ns; legal_moves (M moves) G ns; evaluate E ns
//! ```
//!
//! - `perft 1-3`: the move-tree sizes to depth 1, 2 and 3, the same on
//!   every machine and build (a change there is a change of the rules);
//! - `perft 3 in`: the time of the depth-3 perft and its leaves a second;
//! - `play+undo`: one `play` and `undo` of a legal move, averaged over all
//!   the legal moves for 0.3 s;
//! - `legal_moves`: one generation of the legal moves (as many as shown);
//! - `evaluate`: one call of the `Distance` evaluation.
//!
//! Times are wall-clock on whatever else the machine is doing: compare
//! runs on the same machine at the same load, and run twice.

use std::hint::black_box;
use std::time::{Duration, Instant};

use crosscut::game::{Game, Notation, perft};
use crosscut::games::akron::{Akron, Distance};
use crosscut::search::Evaluator;
use serde_json::Value;

/// How long each per-call figure is measured.
const MEASURE: Duration = Duration::from_millis(300);

/// The position after `plies` moves of reference game `seed`.
fn position(seed: u64, plies: usize) -> Akron {
    let games: Vec<Value> = include_str!("../tests/data/akron_games.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let g = games
        .iter()
        .find(|g| g["seed"].as_u64() == Some(seed))
        .unwrap();
    let mut pos = Akron::new(g["size"].as_u64().unwrap() as usize).unwrap();
    for m in g["moves"].as_array().unwrap().iter().take(plies) {
        let mv = pos.parse_move(m.as_str().unwrap()).unwrap();
        pos.play(mv);
    }
    pos
}

/// Nanoseconds a call of `f`, calling it for [`MEASURE`]; `f` returns how
/// many calls it made.
fn ns_per_call(mut f: impl FnMut() -> u64) -> f64 {
    let t = Instant::now();
    let mut calls = 0u64;
    while t.elapsed() < MEASURE {
        calls += f();
    }
    t.elapsed().as_nanos() as f64 / calls as f64
}

fn main() {
    let positions = [
        ("8x8 start", Akron::new(8).unwrap()),
        ("900002 ply 40", position(900002, 40)),
        ("900004 ply 120", position(900004, 120)),
        ("900003 ply 200", position(900003, 200)),
        ("900016 ply 30 (5x5)", position(900016, 30)),
    ];
    for (name, mut pos) in positions {
        let counts: Vec<u64> = (1..=3).map(|d| perft(&mut pos, d)).collect();
        let t = Instant::now();
        let n = perft(&mut pos, 3);
        let perft_s = t.elapsed().as_secs_f64();
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let play_ns = ns_per_call(|| {
            for &m in &moves {
                pos.play(black_box(m));
                pos.undo();
            }
            moves.len() as u64
        });
        let mut buf = Vec::with_capacity(512);
        let gen_ns = ns_per_call(|| {
            buf.clear();
            pos.legal_moves(black_box(&mut buf));
            1
        });
        // The evaluations are summed into a sink the optimiser must keep.
        let mut sink = 0i64;
        let eval_ns = ns_per_call(|| {
            sink = sink.wrapping_add(Distance.evaluate(black_box(&pos)) as i64);
            1
        });
        black_box(sink);
        println!(
            "{name}: perft 1-3 {counts:?}; perft 3 in {perft_s:.3}s ({:.0} leaves/s); \
             play+undo {play_ns:.0} ns; legal_moves ({} moves) {gen_ns:.0} ns; \
             evaluate {eval_ns:.0} ns",
            n as f64 / perft_s,
            moves.len()
        );
    }
}
