//! Speed figures for the report (`cargo test --release --test akron_speed
//! -- --ignored --nocapture`): perft, make/undo and move generation from a
//! few positions of the reference games.

use std::time::Instant;

use crosscut::game::{Game, Notation, perft};
use crosscut::games::akron::Akron;
use crosscut::games::akron::Distance;
use crosscut::search::Evaluator;
use serde_json::Value;

/// The position after `plies` moves of reference game `seed`.
fn position(seed: u64, plies: usize) -> Akron {
    let games: Vec<Value> = include_str!("data/akron_games.jsonl")
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

#[test]
#[ignore = "timing, for the report"]
fn akron_speed() {
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
        let t = Instant::now();
        let mut k = 0u64;
        while t.elapsed().as_millis() < 300 {
            for &m in &moves {
                pos.play(m);
                pos.undo();
                k += 1;
            }
        }
        let play_ns = t.elapsed().as_nanos() as f64 / k as f64;
        let t = Instant::now();
        let mut g = 0u64;
        let mut buf = Vec::with_capacity(512);
        while t.elapsed().as_millis() < 300 {
            buf.clear();
            pos.legal_moves(&mut buf);
            g += 1;
        }
        let gen_ns = t.elapsed().as_nanos() as f64 / g as f64;
        let t = Instant::now();
        let mut e = 0u64;
        let mut sink = 0i64;
        while t.elapsed().as_millis() < 300 {
            sink += Distance.evaluate(&pos) as i64;
            e += 1;
        }
        let eval_ns = t.elapsed().as_nanos() as f64 / e as f64;
        assert!(sink != i64::MIN);
        println!(
            "{name}: perft 1-3 {counts:?}; perft 3 in {:.3}s ({:.0} leaves/s); play+undo {play_ns:.0} ns; legal_moves ({} moves) {gen_ns:.0} ns; evaluate {eval_ns:.0} ns",
            perft_s,
            n as f64 / perft_s,
            moves.len()
        );
    }
}
