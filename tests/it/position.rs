//! The `position` command: the machine-readable position a GUI draws, for
//! every game — points with coordinates, lines, pieces and levels, side to
//! move, legal moves, last move, what it changed, result and winning chain.

use crate::common::Session;
use serde_json::Value;

fn position(s: &mut Session) -> Value {
    serde_json::from_str(&s.ok("position")).expect("position is JSON")
}

fn piece(pos: &Value, name: &str) -> Value {
    pos["points"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("no point {name}"))["piece"]
        .clone()
}

fn names(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|v| v["point"].as_str().unwrap().to_string())
        .collect()
}

/// What every game's answer has: the points of the board, lines between
/// existing points, the legal moves as `legal_moves` lists them.
fn check_common(s: &mut Session, pos: &Value) {
    let points = pos["points"].as_array().unwrap();
    for l in pos["lines"].as_array().unwrap() {
        assert!(l[0].as_u64().unwrap() < points.len() as u64);
        assert!(l[1].as_u64().unwrap() < points.len() as u64);
    }
    let legal: Vec<String> = pos["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let listed: Vec<String> = s
        .ok("legal_moves")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    assert_eq!(legal, listed);
    assert!(!pos["labels"].as_array().unwrap().is_empty());
}

/// The winning chain is a path of the winner's pieces from one of its goal
/// edges to the other: no point twice, each next to the one before (along
/// the drawing's lines; for Akron the caller checks the path).
fn check_chain(pos: &Value) {
    let points = pos["points"].as_array().unwrap();
    let index = |name: &Value| {
        points
            .iter()
            .position(|p| &p["name"] == name)
            .unwrap_or_else(|| panic!("no point {name}"))
    };
    let chain: Vec<usize> = pos["chain"].as_array().unwrap().iter().map(index).collect();
    assert!(!chain.is_empty(), "no chain");
    let (a, b) = if pos["winner"] == "black" {
        (1, 2)
    } else {
        (4, 8)
    };
    let edges = |i: usize| points[i]["edges"].as_u64().unwrap();
    assert!(edges(chain[0]) & a != 0, "{}", pos["chain"]);
    assert!(edges(*chain.last().unwrap()) & b != 0, "{}", pos["chain"]);
    for &i in &chain {
        assert_eq!(points[i]["piece"], pos["winner"]);
    }
    let unique: std::collections::BTreeSet<usize> = chain.iter().copied().collect();
    assert_eq!(unique.len(), chain.len(), "{}", pos["chain"]);
    if pos["shape"] != "stack" {
        let lines: Vec<(u64, u64)> = pos["lines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| (l[0].as_u64().unwrap(), l[1].as_u64().unwrap()))
            .collect();
        for w in chain.windows(2) {
            let (x, y) = (w[0] as u64, w[1] as u64);
            assert!(
                lines.contains(&(x, y)) || lines.contains(&(y, x)),
                "{} and {} are not joined",
                points[w[0]]["name"],
                points[w[1]]["name"]
            );
        }
    }
}

#[test]
fn onyx_points_midpoints_and_a_capture() {
    let mut s = Session::with("onyx", &["boardsize 4", "start blank"]);
    let pos = position(&mut s);
    check_common(&mut s, &pos);
    assert_eq!(pos["shape"], "grid");
    // 16 grid points and the midpoints of the 4x4 board's squares.
    let points = pos["points"].as_array().unwrap();
    assert_eq!(points.len(), 20);
    let bc12 = points.iter().find(|p| p["name"] == "BC12").unwrap();
    assert_eq!(
        (bc12["x"].as_f64(), bc12["y"].as_f64()),
        (Some(1.5), Some(2.5))
    );
    assert_eq!(bc12["level"], 1);
    // A1 is on Black's bottom edge and White's left edge.
    assert_eq!(points[0]["edges"], 1 | 4);
    for m in ["play b B1", "play w C1", "play b C2", "play w B2"] {
        s.ok(m);
    }
    let pos = position(&mut s);
    check_common(&mut s, &pos);
    assert_eq!(pos["last_move"]["move"], "B2");
    assert_eq!(pos["last_move"]["color"], "white");
    let mut removed = names(&pos["removed"]);
    removed.sort();
    assert_eq!(removed, ["B1", "C2"]);
    assert_eq!(names(&pos["added"]), ["B2"]);
    assert_eq!(piece(&pos, "B1"), Value::Null);
    assert_eq!(pos["to_move"], "black");
    assert_eq!(pos["result"], Value::Null);
}

#[test]
fn onyx_win_gives_the_chain() {
    let mut s = Session::with("onyx", &["boardsize 4", "start blank"]);
    for m in ["A1", "D2", "A2", "D3", "A3", "C4", "A4"] {
        let c = if s.ok("position").contains("\"to_move\":\"black\"") {
            "b"
        } else {
            "w"
        };
        s.ok(&format!("play {c} {m}"));
    }
    let pos = position(&mut s);
    assert_eq!(pos["result"], "B+");
    assert_eq!(pos["winner"], "black");
    assert_eq!(pos["chain"], serde_json::json!(["A1", "A2", "A3", "A4"]));
    check_chain(&pos);
    assert!(pos["legal"].as_array().unwrap().is_empty());
}

#[test]
fn orcoon_grid_and_pass() {
    let mut s = Session::with("orcoon", &["boardsize 5"]);
    let pos = position(&mut s);
    check_common(&mut s, &pos);
    assert_eq!(pos["points"].as_array().unwrap().len(), 25);
    assert_eq!(pos["lines"].as_array().unwrap().len(), 40);
    assert!(pos["legal"].as_array().unwrap().contains(&"pass".into()));
    s.ok("play b C3");
    s.ok("play w pass");
    let pos = position(&mut s);
    assert_eq!(pos["facts"]["passed"], "white");
    assert!(pos["result"].is_string());
}

#[test]
fn akron_levels_and_drops() {
    let mut s = Session::with("akron", &["boardsize 5"]);
    for l in [
        "setup white C3 D3 C4 D4",
        "setup white CD34",
        "setup black A5 E5",
        "setup_player white",
    ] {
        s.ok(l);
    }
    let pos = position(&mut s);
    check_common(&mut s, &pos);
    assert_eq!(pos["shape"], "stack");
    let cd34 = pos["points"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "CD34")
        .unwrap()
        .clone();
    assert_eq!(cd34["level"], 1);
    assert_eq!(cd34["piece"], "white");
    // Row 1 at the bottom: CD34 sits between C3 and D4 (y grows downwards).
    assert_eq!(
        (cd34["x"].as_f64(), cd34["y"].as_f64()),
        (Some(2.5), Some(1.5))
    );
    s.ok("play w C3-E3");
    let pos = position(&mut s);
    // C3 left, the ball on CD34 dropped into C3, E3 was added.
    assert_eq!(piece(&pos, "CD34"), Value::Null);
    assert_eq!(piece(&pos, "C3"), "white");
    assert_eq!(piece(&pos, "E3"), "white");
    assert_eq!(names(&pos["removed"]), ["CD34"]);
    assert_eq!(names(&pos["added"]), ["E3"]);
    assert!(pos["facts"]["white pile"].is_string());
}

#[test]
fn orcoon_pass_with_a_connection_gives_the_chain() {
    // Black joins top and bottom through B1 B2 B3 (a branch on C2 is not
    // part of the chain), then passes and wins.
    let mut s = Session::with("orcoon", &["boardsize 3"]);
    for m in [
        "play b B1",
        "play w A2",
        "play b B2",
        "play w A3",
        "play b C2",
        "play w A1",
        "play b B3",
        "play w pass",
    ] {
        s.ok(m);
    }
    let pos = position(&mut s);
    assert_eq!(pos["winner"], "black", "{pos}");
    assert_eq!(pos["chain"], serde_json::json!(["B1", "B2", "B3"]));
    check_chain(&pos);
}

#[test]
fn akron_chain_is_the_fewest_balls_joining_the_edges() {
    // Black's group: C1 C2, over White's C3 by BC23 and BC34 (level 1),
    // C4 and, once played, C5; D2, E2 and D4 hang on it without being
    // needed. The chain is the path, not the group.
    let mut s = Session::with("akron", &["boardsize 5"]);
    for l in [
        "setup white B2 B3 B4 C3 E5",
        "setup black C1 C2 C4 D2 D4 E2",
        "setup black BC23 BC34",
        "setup_player black",
    ] {
        s.ok(l);
    }
    let pos = position(&mut s);
    assert_eq!(pos["result"], Value::Null, "{pos}");
    s.ok("play b C5");
    let pos = position(&mut s);
    assert_eq!(pos["winner"], "black", "{pos}");
    assert_eq!(
        pos["chain"],
        serde_json::json!(["C1", "C2", "BC23", "BC34", "C4", "C5"])
    );
    check_chain(&pos);
}

#[test]
fn hex_rhombus() {
    let mut s = Session::with("hex", &["boardsize 3"]);
    let pos = position(&mut s);
    check_common(&mut s, &pos);
    assert_eq!(pos["shape"], "hexagon");
    let points = pos["points"].as_array().unwrap();
    // a2 is half a cell right of a1, one row down.
    let a2 = points.iter().find(|p| p["name"] == "a2").unwrap();
    assert_eq!(a2["x"].as_f64(), Some(0.5));
    // Rows 3x2, columns 2x3 and one diagonal direction 2x2: 16 lines.
    assert_eq!(pos["lines"].as_array().unwrap().len(), 16);
    for m in [
        "play b b1",
        "play w a1",
        "play b b2",
        "play w a2",
        "play b b3",
    ] {
        s.ok(m);
    }
    let pos = position(&mut s);
    assert_eq!(pos["winner"], "black");
    assert_eq!(pos["chain"], serde_json::json!(["b1", "b2", "b3"]));
    check_chain(&pos);
}

#[test]
fn position_takes_no_arguments_and_needs_a_game() {
    let mut s = Session::with("hex", &[]);
    assert!(s.err("position x").contains("usage"));
}
