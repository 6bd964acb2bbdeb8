//! Replays the Akron games of `tests/data/akron_games.jsonl` (a reference
//! implementation written from RULINGS.md, independent of crosscut) and
//! compares, at every ply, the legal move set, the drops of the move played,
//! and the result.
//!
//! Sets are compared as sets at every ply (the file lists one for each).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value as Json;

use crosscut::game::{Color, Game, Notation, Outcome};
use crosscut::games::akron::{Akron, AkronMove};

fn legal_set(pos: &Akron) -> BTreeSet<String> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let set: BTreeSet<String> = moves.iter().map(|&m| pos.format_move(m)).collect();
    assert_eq!(set.len(), moves.len(), "duplicate moves in the legal list");
    set
}

fn num(v: &Json) -> i64 {
    v.as_i64().expect("a number")
}

fn string(v: &Json) -> &str {
    v.as_str().expect("a string")
}

fn arr(v: &Json) -> &[Json] {
    v.as_array().expect("an array")
}

fn replay(game: &Json) -> Result<(), String> {
    let seed = num(&game["seed"]);
    let size = num(&game["size"]) as usize;
    let moves: Vec<&str> = arr(&game["moves"]).iter().map(string).collect();
    let sets = game["legal_sets"].as_object().expect("legal_sets");
    let mut drops: BTreeMap<usize, Vec<(String, String)>> = BTreeMap::new();
    for d in arr(&game["drops"]) {
        let chain = arr(&d["chain"])
            .iter()
            .map(|pair| (string(&pair[0]).to_string(), string(&pair[1]).to_string()))
            .collect();
        drops.insert(num(&d["ply"]) as usize, chain);
    }
    let mut pos = Akron::new(size).unwrap();
    for (ply, text) in moves.iter().enumerate() {
        let expected = sets
            .get(&ply.to_string())
            .ok_or_else(|| format!("game {seed}: no legal set at ply {ply}"))?;
        let expected: BTreeSet<String> = arr(expected)
            .iter()
            .map(|m| string(m).to_string())
            .collect();
        let got = legal_set(&pos);
        if got != expected {
            let missing: Vec<_> = expected.difference(&got).collect();
            let extra: Vec<_> = got.difference(&expected).collect();
            return Err(format!(
                "game {seed} ply {ply}: legal sets differ; missing {missing:?}, extra {extra:?}\n{}",
                pos.showboard()
            ));
        }
        if let Some(o) = pos.outcome() {
            return Err(format!("game {seed} ply {ply}: game already over ({o:?})"));
        }
        let mv = pos
            .parse_move(text)
            .map_err(|e| format!("game {seed} ply {ply}: {text}: {e}"))?;
        let got_drops: Vec<(String, String)> = match mv {
            AkronMove::Step(m, _) => pos
                .drops_of(m)
                .into_iter()
                .map(|(a, b)| {
                    let g = pos.geometry();
                    (g.point_name(a).to_string(), g.point_name(b).to_string())
                })
                .collect(),
            _ => Vec::new(),
        };
        let want_drops = drops.remove(&ply).unwrap_or_default();
        if got_drops != want_drops {
            return Err(format!(
                "game {seed} ply {ply} {text}: drops {got_drops:?}, expected {want_drops:?}"
            ));
        }
        let before = pos.hash();
        pos.play(mv);
        assert_eq!(pos.hash(), pos.recompute_hash(), "game {seed} ply {ply}");
        pos.undo();
        assert_eq!(pos.hash(), before, "game {seed} ply {ply}: undo");
        pos.play(mv);
    }
    let result = &game["result"];
    let winner = num(&result["winner"]);
    let reason = string(&result["reason"]);
    let ply = num(&result["ply"]) as usize;
    let expected = match (reason, winner) {
        ("cap", _) => None,
        (_, 0) => Some(Outcome::Draw),
        (_, 1) => Some(Outcome::Win(Color::Black)),
        (_, _) => Some(Outcome::Win(Color::White)),
    };
    if pos.outcome() != expected {
        return Err(format!(
            "game {seed}: result {:?}, expected {expected:?} ({reason} at ply {ply})\n{}",
            pos.outcome(),
            pos.showboard()
        ));
    }
    if reason == "no_legal_move" {
        assert_eq!(ply, moves.len());
    } else if reason != "cap" {
        assert_eq!(ply + 1, moves.len());
    }
    Ok(())
}

#[test]
fn akron_vectors_replay() {
    let text = include_str!("../data/akron_games.jsonl");
    let mut failures = Vec::new();
    let mut games = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let game: Json = serde_json::from_str(line).expect("valid JSON");
        games += 1;
        if let Err(e) = replay(&game) {
            failures.push(e);
        }
    }
    assert_eq!(games, 20);
    assert!(
        failures.is_empty(),
        "{} games failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
