//! Replays the games of an independent Onyx implementation (AbstractPlay's
//! games library; `tests/data/onyx_games.jsonl`, see `../shared/vectors`)
//! and compares, at every ply, the legal move set, the captures and the
//! winner.

use std::collections::BTreeSet;

use crate::common::Session;
use crosscut::game::{Color, Game, Notation};
use crosscut::games::onyx::{Onyx, Start};
use serde_json::Value;

fn games() -> Vec<Value> {
    include_str!("../data/onyx_games.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("valid json"))
        .collect()
}

fn player(v: &Value) -> Option<Color> {
    match v.as_u64() {
        Some(1) => Some(Color::Black),
        Some(2) => Some(Color::White),
        _ => None,
    }
}

#[test]
fn vectors_replay_through_protocol() {
    let games = games();
    assert_eq!(games.len(), 20);
    let mut plies_checked = 0;
    for g in &games {
        let seed = &g["seed"];
        let start = g["start"].as_str().unwrap();
        let mut s = Session::with("onyx", &[&format!("start {start}")]);
        let mut lib = Onyx::new(
            12,
            if start == "standard" {
                Start::Standard
            } else {
                Start::Blank
            },
        )
        .unwrap();
        // Initial pieces.
        for pair in g["initial"].as_array().unwrap() {
            let p = lib
                .geometry()
                .parse_point(pair[0].as_str().unwrap())
                .unwrap();
            assert_eq!(lib.at(p), player(&pair[1]), "seed {seed}: initial {pair}");
        }
        let moves: Vec<&str> = g["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let captures = g["captures"].as_array().unwrap();
        for (i, mv) in moves.iter().enumerate() {
            let expected = crate::common::vector_legal_set(g, i);
            let ours: BTreeSet<String> = s
                .ok("legal_moves")
                .split_whitespace()
                .filter(|m| *m != "swap")
                .map(str::to_string)
                .collect();
            assert_eq!(ours, expected, "seed {seed} ply {i}: legal sets differ");
            assert_eq!(
                ours.len() as u64,
                g["legal_counts"][i].as_u64().unwrap(),
                "seed {seed} ply {i}: count"
            );
            let color = if i % 2 == 0 { "b" } else { "w" };
            s.ok(&format!("play {color} {mv}"));
            // The library: captures exactly as listed.
            let before: Vec<u8> = lib.cells().to_vec();
            let m = lib.parse_move(mv).unwrap();
            lib.play(m);
            let removed: BTreeSet<String> = before
                .iter()
                .enumerate()
                .filter(|&(p, &v)| v != 0 && lib.cells()[p] == 0)
                .map(|(p, _)| lib.geometry().point_name(p as u16))
                .collect();
            let listed: BTreeSet<String> = captures
                .iter()
                .filter(|c| c["ply"].as_u64() == Some(i as u64))
                .flat_map(|c| c["pairs"].as_array().unwrap().iter())
                .flat_map(|pair| pair.as_array().unwrap().iter())
                .map(|p| p.as_str().unwrap().to_string())
                .collect();
            assert_eq!(removed, listed, "seed {seed} ply {i}: captures of {mv}");
            let over = i + 1 == moves.len();
            assert_eq!(
                lib.outcome().is_some(),
                over,
                "seed {seed} ply {i}: game end"
            );
            plies_checked += 1;
        }
        let winner = if g["winner"].as_u64() == Some(1) {
            "B+"
        } else {
            "W+"
        };
        assert_eq!(s.ok("final_score"), winner, "seed {seed}");
        s.err(&format!(
            "play {} A1",
            if moves.len().is_multiple_of(2) {
                "b"
            } else {
                "w"
            }
        ));
        // Final board.
        let mut expected = vec![0u8; lib.cells().len()];
        for pair in g["final_board"].as_array().unwrap() {
            let p = lib
                .geometry()
                .parse_point(pair[0].as_str().unwrap())
                .unwrap();
            expected[p as usize] = pair[1].as_u64().unwrap() as u8;
        }
        assert_eq!(lib.cells(), &expected[..], "seed {seed}: final board");
        // The listed winning chain is one of the winner's.
        let w = player(&g["winner"]).unwrap();
        for p in g["win_path"].as_array().unwrap() {
            let p = lib.geometry().parse_point(p.as_str().unwrap()).unwrap();
            assert_eq!(lib.at(p), Some(w));
        }
        assert!(lib.winning_path(w).is_some());
    }
    assert!(plies_checked > 2500, "{plies_checked}");
}
