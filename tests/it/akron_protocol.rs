//! Akron through the protocol: the reference games replayed with `play` and
//! `legal_moves`, and every rule (adds, moves, drops, destinations, cuts,
//! wins, lift reveal, no legal move, repetition, swap, setup, notation,
//! errors) as a controller sees it.

use std::collections::BTreeSet;

use crate::common::Session;
use serde_json::Value;

fn akron(size: usize, lines: &[&str]) -> Session {
    let mut s = Session::with("akron", &[&format!("boardsize {size}")]);
    for l in lines {
        s.ok(l);
    }
    s
}

fn legal(s: &mut Session) -> BTreeSet<String> {
    s.ok("legal_moves")
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

#[test]
fn vectors_replay_through_protocol() {
    let games: Vec<Value> = include_str!("../data/akron_games.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("valid json"))
        .collect();
    assert_eq!(games.len(), 20);
    let mut plies = 0;
    for g in &games {
        let seed = &g["seed"];
        let size = g["size"].as_u64().unwrap() as usize;
        let mut s = akron(size, &[]);
        let moves = g["moves"].as_array().unwrap();
        for (i, mv) in moves.iter().enumerate() {
            let expected = crate::common::vector_legal_set(g, i);
            assert_eq!(legal(&mut s), expected, "seed {seed} ply {i}");
            let side = s.ok("gogui-rules_side_to_move");
            s.ok(&format!("play {side} {}", mv.as_str().unwrap()));
            plies += 1;
        }
        let result = &g["result"];
        let expected = match (
            result["reason"].as_str().unwrap(),
            result["winner"].as_u64(),
        ) {
            ("cap", _) => None,
            (_, Some(0)) => Some("0"),
            (_, Some(1)) => Some("B+"),
            _ => Some("W+"),
        };
        match expected {
            Some(score) => {
                assert_eq!(s.ok("final_score"), score, "seed {seed}");
                assert_eq!(
                    s.ok("legal_moves"),
                    "",
                    "seed {seed}: no move after the end"
                );
            }
            None => {
                s.err("final_score");
            }
        }
    }
    assert!(plies > 2500);
}

#[test]
fn notation_adds_moves_and_errors() {
    let mut s = akron(8, &[]);
    assert_eq!(legal(&mut s).len(), 64);
    s.ok("play b c3");
    assert!(s.err("play w C3").contains("occupied"));
    assert!(s.err("play w CD34").contains("illegal"));
    assert!(s.err("play w Z9").contains("invalid move"));
    assert!(s.err("play w CC33").contains("invalid move"));
    assert!(s.err("play w pass").contains("no passing"));
    s.ok("play w D3");
    s.ok("play b C4");
    s.ok("play w H8");
    // C3 may move to any hole touching C4 (B4, C5, D4) but not beside
    // itself only.
    let moves = legal(&mut s);
    for m in ["C3-B4", "C3-C5", "C3-D4", "C4-B3", "C4-C2"] {
        assert!(moves.contains(m), "{m}");
    }
    assert!(!moves.contains("C3-B3"));
    assert!(s.err("play b C3-B3").contains("illegal"));
    assert!(s.err("play b D3-E3").contains("not black's"));
    s.ok("play b c3-d4");
    let board = s.ok("showboard");
    assert!(board.contains("Level 0"), "{board}");
    assert!(
        board.contains("Piles: black (X) 30, white (O) 30"),
        "{board}"
    );
    s.ok("undo");
    s.ok("play b C3-C5");
}

#[test]
fn swap_as_the_second_move_only() {
    let mut s = akron(5, &[]);
    s.err("play b swap");
    s.ok("play b C3");
    assert!(legal(&mut s).contains("swap"));
    s.ok("play w swap");
    assert_eq!(s.ok("gogui-rules_side_to_move"), "white");
    assert!(!legal(&mut s).contains("swap"));
    s.err("play w swap");
    s.ok("play w D4");
    assert_eq!(s.ok("gogui-rules_side_to_move"), "black");
    s.err("play b swap");
}

#[test]
fn setup_places_on_supports_and_adjusts_piles() {
    let mut s = akron(5, &[]);
    assert!(s.err("setup black CD34").contains("support"));
    s.ok("setup white C3 D3 C4 D4");
    s.ok("setup black CD34");
    assert!(s.err("setup empty C3").contains("supports"));
    let board = s.ok("showboard");
    assert!(
        board.contains("Piles: black (X) 11, white (O) 8"),
        "{board}"
    );
    assert!(board.contains("Level 1"));
    assert!(
        board.contains("X1"),
        "top view shows the level-1 ball: {board}"
    );
    s.ok("setup empty CD34");
    s.ok("setup empty C3");
    let board = s.ok("showboard");
    assert!(
        board.contains("Piles: black (X) 12, white (O) 9"),
        "{board}"
    );
    // All or nothing.
    let before = s.state();
    s.err("setup black A1 BC45");
    assert_eq!(s.state(), before);
    // Only before the first move.
    s.ok("play b A1");
    s.err("setup white E5");
}

#[test]
fn figure3_drop_through_protocol() {
    let mut s = akron(
        5,
        &[
            "setup white C3 D3 C4 D4",
            "setup white CD34",
            "setup black A5 E5",
            "setup_player white",
        ],
    );
    assert!(s.err("play w C3-CD34").contains("illegal"));
    s.ok("play w C3-E3");
    let board = s.ok("showboard");
    // Level 1 is empty again: the highest level shown is 0.
    assert!(!board.contains("Level 1"), "{board}");
    s.ok("undo");
    assert!(s.ok("showboard").contains("Level 1"));
}

#[test]
fn figure4_deadlock_through_protocol() {
    let mut s = akron(
        5,
        &[
            "setup white A2 A3 B3 C3 D4 E4",
            "setup black D3 C4 D1 C5",
            "setup_player white",
        ],
    );
    assert!(legal(&mut s).contains("A2-CD34"));
    s.ok("play w A2-CD34");
    assert_eq!(s.ok("final_score"), "W+");
    assert!(s.err("play b B1").contains("over"));
    s.ok("undo");
    s.err("final_score");
    s.ok("play w B1");
}

#[test]
fn figures5_and_6_cut_and_recut_through_protocol() {
    let base = [
        "boardsize 6",
        "setup white B2 B3 B4 E2 E3 E4 C3 D3 E1",
        "setup black C2 D2 C4 D4 C5",
        "setup white BC23 BC34 DE23 DE34",
        "setup black CD23",
    ];
    let mut s = Session::with("akron", &base);
    // Figure 5: Black's C5 steps up to CD34; CD23-CD34 cuts White C3-D3.
    assert!(legal(&mut s).contains("C5-CD34"));
    s.ok("play b C5-CD34");
    // Figure 6: White E1 (linked to E2 under DE23) steps up to level 2 at
    // CE24, which now has its four supports; White's level-2 ball cuts
    // Black's cut once BD24 stands beside it. Group effects are checked in
    // the rules tests; here the moves are legal and the game goes on.
    assert!(legal(&mut s).contains("E1-CE24"));
    s.ok("play w E1-CE24");
    assert!(s.ok("showboard").contains("Level 2"));
    s.err("final_score");
}

#[test]
fn figure8_cascade_through_protocol() {
    let mut s = akron(
        8,
        &[
            "setup white A1 B1 C1 D1",
            "setup black A2 B2 C2 D2 A3 B3 C3 D3 A4 B4 C4 D4",
            "setup black AB12 BC12 CD12 AB23 BC23 CD23 AB34 BC34 CD34",
            "setup black AC13 BD13 AC24 BD24",
            "setup white AD14",
            "setup_player white",
        ],
    );
    assert!(!legal(&mut s).contains("A1-AD14"));
    assert!(s.err("play w A1-AD14").contains("illegal"));
    s.ok("play w A1-E1");
    let board = s.ok("showboard");
    assert!(!board.contains("Level 3"), "AD14 emptied: {board}");
}

#[test]
fn lift_reveal_through_protocol() {
    let mut s = akron(
        5,
        &[
            "setup black C1 C2 C3 C4 C5",
            "setup white B2 B3 D2 D3 B4 B5 D4 D5",
            "setup white BC23 CD23 CD45",
            "setup_player white",
        ],
    );
    s.err("final_score");
    s.ok("play w BC23-BC45");
    assert_eq!(s.ok("final_score"), "B+");
}

#[test]
fn no_legal_move_through_protocol() {
    let mut s = akron(
        3,
        &[
            "setup black A1 C1 A3 C3",
            "setup white B2",
            "setup_player white",
        ],
    );
    s.ok("play w A2");
    assert_eq!(s.ok("final_score"), "W+");
    assert_eq!(s.ok("legal_moves"), "");
    assert!(s.err("genmove b").contains("over"));
}

#[test]
fn repetition_through_protocol() {
    let mut s = akron(4, &["play b A1", "play w D4", "play b A2", "play w D3"]);
    for _ in 0..2 {
        s.err("final_score");
        for (c, m) in [
            ("b", "A2-B1"),
            ("w", "D3-C4"),
            ("b", "B1-A2"),
            ("w", "C4-D3"),
        ] {
            s.ok(&format!("play {c} {m}"));
        }
    }
    assert_eq!(s.ok("final_score"), "0");
    s.err("play b A2-B1");
    s.ok("undo");
    s.err("final_score");
}

#[test]
fn connection_through_protocol() {
    let mut s = akron(4, &["setup black A1 A2 A3", "setup white D1 D2"]);
    s.ok("play b A4");
    assert_eq!(s.ok("final_score"), "B+");
}

#[test]
fn rejected_commands_change_nothing() {
    let mut s = akron(5, &["play b C3", "play w D3", "play b C4"]);
    let before = s.state();
    for bad in [
        "play w C3",
        "play w C4-C5",
        "play w D3-D4",
        "play w CD34",
        "play w swap",
        "play w X1",
        "boardsize 2",
        "boardsize 27",
        "setup white A1",
    ] {
        s.err(bad);
        assert_eq!(s.state(), before, "{bad}");
    }
}

#[test]
fn perft_and_sizes() {
    let mut s = akron(3, &[]);
    assert_eq!(s.ok("perft 1"), "9");
    assert_eq!(s.ok("perft 2"), "81");
    s.ok("boardsize 26");
    assert_eq!(s.ok("perft 1"), "676");
    s.ok("boardsize 10");
    assert!(
        s.ok("showboard")
            .contains("Piles: black (X) 50, white (O) 50")
    );
    s.ok("game akron");
    assert_eq!(s.ok("gogui-rules_board_size"), "8");
}

#[test]
fn genmove_plays_legal_moves_and_takes_a_win() {
    let mut s = akron(5, &["param max_depth 2", "param verbose false"]);
    for _ in 0..6 {
        let side = s.ok("gogui-rules_side_to_move");
        let before = legal(&mut s);
        let m = s.ok(&format!("genmove {side}"));
        assert!(before.contains(&m), "{m} not legal");
    }
    let mut s = akron(
        5,
        &[
            "setup black A1 A2 A3 A4",
            "setup white E1 E2 E3 D3",
            "param max_depth 3",
            "param verbose false",
        ],
    );
    assert_eq!(s.ok("genmove b"), "A5");
}

#[test]
fn over_under_decides_wins_through_protocol() {
    // Black's column C1..C5 on 5×5 is cut between C2 and C3 by White's
    // level-1 link BC23-CD23: completing the column with C5 does not win.
    let cut = [
        "setup black C1 C2 C3 C4",
        "setup white B2 B3 D2 D3",
        "setup white BC23 CD23",
    ];
    let mut s = akron(5, &cut);
    s.ok("play b C5");
    s.err("final_score");
    // Without the level-1 link the same add wins.
    let mut s = akron(5, &cut[..2]);
    s.ok("play b C5");
    assert_eq!(s.ok("final_score"), "B+");
}

#[test]
fn a_cut_link_is_restored_when_the_cutting_ball_leaves() {
    // White lifts BC23 (its link over C2-C3): Black's column is whole
    // again, and since White did the lifting, Black wins at once.
    let mut s = akron(
        5,
        &[
            "setup black C1 C2 C3 C4 C5",
            "setup white B2 B3 D2 D3 A2",
            "setup white BC23 CD23",
            "setup_player white",
        ],
    );
    s.err("final_score");
    s.ok("play w BC23-A1");
    assert_eq!(s.ok("final_score"), "B+");
}
