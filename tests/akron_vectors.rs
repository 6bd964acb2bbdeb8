//! Replays the Akron games of `tests/data/akron_games.jsonl` (a reference
//! implementation written from RULINGS.md, independent of crosscut) and
//! compares, at every ply, the legal move set, the drops of the move played,
//! and the result.

use std::collections::{BTreeMap, BTreeSet};

use crosscut::game::{Color, Game, Outcome};
use crosscut::games::akron::{Akron, AkronMove};

/// A minimal JSON value: enough for the vector files.
#[derive(Debug, Clone)]
enum Json {
    Num(i64),
    Str(String),
    Arr(Vec<Json>),
    Obj(BTreeMap<String, Json>),
    Other,
}

impl Json {
    fn get(&self, key: &str) -> &Json {
        match self {
            Json::Obj(m) => m.get(key).unwrap_or_else(|| panic!("no key {key}")),
            _ => panic!("not an object"),
        }
    }
    fn num(&self) -> i64 {
        match self {
            Json::Num(n) => *n,
            _ => panic!("not a number: {self:?}"),
        }
    }
    fn str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            _ => panic!("not a string: {self:?}"),
        }
    }
    fn arr(&self) -> &[Json] {
        match self {
            Json::Arr(a) => a,
            _ => panic!("not an array: {self:?}"),
        }
    }
    fn obj(&self) -> &BTreeMap<String, Json> {
        match self {
            Json::Obj(m) => m,
            _ => panic!("not an object"),
        }
    }
}

fn parse_json(text: &str) -> Json {
    let bytes = text.as_bytes();
    let mut pos = 0;
    let v = parse_value(bytes, &mut pos);
    v
}

fn skip_ws(b: &[u8], pos: &mut usize) {
    while *pos < b.len() && (b[*pos] as char).is_ascii_whitespace() {
        *pos += 1;
    }
}

fn parse_value(b: &[u8], pos: &mut usize) -> Json {
    skip_ws(b, pos);
    match b[*pos] {
        b'{' => {
            *pos += 1;
            let mut m = BTreeMap::new();
            loop {
                skip_ws(b, pos);
                if b[*pos] == b'}' {
                    *pos += 1;
                    break;
                }
                let Json::Str(k) = parse_value(b, pos) else {
                    panic!("key")
                };
                skip_ws(b, pos);
                assert_eq!(b[*pos], b':');
                *pos += 1;
                let v = parse_value(b, pos);
                m.insert(k, v);
                skip_ws(b, pos);
                if b[*pos] == b',' {
                    *pos += 1;
                }
            }
            Json::Obj(m)
        }
        b'[' => {
            *pos += 1;
            let mut a = Vec::new();
            loop {
                skip_ws(b, pos);
                if b[*pos] == b']' {
                    *pos += 1;
                    break;
                }
                a.push(parse_value(b, pos));
                skip_ws(b, pos);
                if b[*pos] == b',' {
                    *pos += 1;
                }
            }
            Json::Arr(a)
        }
        b'"' => {
            *pos += 1;
            let start = *pos;
            while b[*pos] != b'"' {
                assert_ne!(b[*pos], b'\\', "escapes are not used in the vectors");
                *pos += 1;
            }
            let s = std::str::from_utf8(&b[start..*pos]).unwrap().to_string();
            *pos += 1;
            Json::Str(s)
        }
        b'-' | b'0'..=b'9' => {
            let start = *pos;
            *pos += 1;
            while *pos < b.len() && b[*pos].is_ascii_digit() {
                *pos += 1;
            }
            Json::Num(std::str::from_utf8(&b[start..*pos]).unwrap().parse().unwrap())
        }
        _ => {
            // true / false / null
            while *pos < b.len() && b[*pos].is_ascii_alphabetic() {
                *pos += 1;
            }
            Json::Other
        }
    }
}

fn legal_set(pos: &Akron) -> BTreeSet<String> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let set: BTreeSet<String> = moves.iter().map(|&m| pos.format_move(m)).collect();
    assert_eq!(set.len(), moves.len(), "duplicate moves in the legal list");
    set
}

fn replay(game: &Json) -> Result<(), String> {
    let seed = game.get("seed").num();
    let size = game.get("size").num() as usize;
    let moves: Vec<&str> = game.get("moves").arr().iter().map(|m| m.str()).collect();
    let sets = game.get("legal_sets").obj();
    let mut drops: BTreeMap<usize, Vec<(String, String)>> = BTreeMap::new();
    for d in game.get("drops").arr() {
        let chain = d
            .get("chain")
            .arr()
            .iter()
            .map(|pair| (pair.arr()[0].str().to_string(), pair.arr()[1].str().to_string()))
            .collect();
        drops.insert(d.get("ply").num() as usize, chain);
    }
    let mut pos = Akron::new(size).unwrap();
    for (ply, text) in moves.iter().enumerate() {
        if let Some(expected) = sets.get(&ply.to_string()) {
            let expected: BTreeSet<String> =
                expected.arr().iter().map(|m| m.str().to_string()).collect();
            let got = legal_set(&pos);
            if got != expected {
                let missing: Vec<_> = expected.difference(&got).collect();
                let extra: Vec<_> = got.difference(&expected).collect();
                return Err(format!(
                    "game {seed} ply {ply}: legal sets differ; missing {missing:?}, extra {extra:?}\n{}",
                    pos.showboard()
                ));
            }
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
    let result = game.get("result");
    let winner = result.get("winner").num();
    let reason = result.get("reason").str();
    let ply = result.get("ply").num() as usize;
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
    let text = include_str!("data/akron_games.jsonl");
    let mut failures = Vec::new();
    let mut games = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let game = parse_json(line);
        games += 1;
        if let Err(e) = replay(&game) {
            failures.push(e);
        }
    }
    assert_eq!(games, 20);
    assert!(failures.is_empty(), "{} games failed:\n{}", failures.len(), failures.join("\n"));
}
