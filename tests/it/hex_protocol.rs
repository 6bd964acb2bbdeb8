//! Hex through the protocol: the in-process session and the real binary;
//! illegal input answered with `?` leaving the game unchanged; the
//! searcher wins in one and blocks a win in one; SGF records.

use crate::common::{Session, run_binary};

#[test]
fn plays_a_game_through_the_protocol() {
    let mut s = Session::with("hex", &["boardsize 5"]);
    assert_eq!(s.ok("gogui-rules_game_id"), "hex");
    assert_eq!(s.ok("gogui-rules_board_size"), "5");
    assert_eq!(s.legal().len(), 25);
    s.ok("play b C3");
    let legal = s.legal();
    assert_eq!(legal.len(), 25, "24 cells and swap");
    assert!(legal.contains(&"swap".to_string()));
    assert!(legal.iter().all(|m| m == &m.to_ascii_lowercase()));
    s.ok("play w swap-pieces");
    assert_eq!(s.ok("gogui-rules_side_to_move"), "white");
    assert!(!s.legal().contains(&"swap".to_string()));
    s.ok("param move_time 0.05");
    let mv = s.ok("genmove w");
    assert_eq!(mv, mv.to_ascii_lowercase());
    assert!(s.legal().len() == 23, "{mv} was played");
    let board = s.ok("showboard");
    assert!(board.contains(" a b c d e"), "{board}");
    assert!(board.contains('x') && board.contains('o'), "{board}");
    s.err("final_score");
}

#[test]
fn rejected_commands_change_nothing() {
    let mut s = Session::with("hex", &["boardsize 5", "play b a1", "play w b2"]);
    let before = s.full_state();
    for bad in [
        "play b a1",
        "play b B2",
        "play b f1",
        "play b a6",
        "play b a0",
        "play b 11",
        "play b swap",
        "play w swap",
        "play b pass",
        "play x c3",
        "boardsize 20",
        "boardsize 0",
        "setup black c3",
    ] {
        s.err(bad);
        assert_eq!(s.full_state(), before, "after '{bad}'");
    }
    // Black column a wins; then no move is accepted.
    for m in [
        "play b a2",
        "play w c2",
        "play b a3",
        "play w d2",
        "play b a4",
    ] {
        s.ok(m);
    }
    s.err("final_score");
    s.ok("play w e2");
    s.ok("play b a5");
    assert_eq!(s.ok("final_score"), "B+");
    let over = s.full_state();
    for bad in ["play w c3", "play b c3", "genmove w", "play w swap"] {
        s.err(bad);
        assert_eq!(s.full_state(), over, "after '{bad}'");
    }
    s.ok("undo");
    s.err("final_score");
}

#[test]
fn searcher_wins_in_one_and_blocks_a_win_in_one() {
    // Black a1..a4 on 5x5: a5 wins at once (it is the only cell that does).
    let mut s = Session::with(
        "hex",
        &[
            "boardsize 5",
            "setup black a1 a2 a3 a4",
            "setup white c2 d3",
        ],
    );
    s.ok("param move_time 0.3");
    assert_eq!(s.ok("genmove b"), "a5");
    assert_eq!(s.ok("final_score"), "B+");
    // The same with White to move: a5 is the only cell that does not lose
    // at once.
    let mut s = Session::with(
        "hex",
        &[
            "boardsize 5",
            "setup black a1 a2 a3 a4",
            "setup white c2 d3",
            "setup_player white",
        ],
    );
    s.ok("param move_time 0.3");
    assert_eq!(s.ok("genmove w"), "a5");
    // White's turn on 4x4 with White b2 c2 d2: a2 wins at once for White
    // and so does nothing else; Black's threat (a1 a3 a4 need a2) too.
    let mut s = Session::with(
        "hex",
        &[
            "boardsize 4",
            "setup white b2 c2 d2",
            "setup black a1 a3 a4",
            "setup_player white",
        ],
    );
    s.ok("param move_time 0.3");
    assert_eq!(s.ok("genmove w"), "a2");
    assert_eq!(s.ok("final_score"), "W+");
}

#[test]
fn the_binary_speaks_hex() {
    let (out, ok) = run_binary(
        b"game hex\nboardsize 3\nplay b C3\nplay w swap\nlegal_moves\nplay w a2\nplay b c1\n\
          play w B2\nplay b a3\nplay w c2\nfinal_score\nplay b b1\nplay b zz\nshowboard\nquit\n",
    );
    assert!(ok, "{out}");
    let answers: Vec<&str> = out.split("\n\n").map(str::trim).collect();
    assert_eq!(answers[0], "=");
    // Board order: row by row from row 1 (the top in Hex), each from column a.
    assert_eq!(answers[4], "= a1 b1 c1 a2 b2 c2 a3 b3", "{out}");
    assert_eq!(answers[10], "= W+", "{out}");
    assert!(answers[11].starts_with('?'), "{out}");
    assert!(answers[12].starts_with('?'), "{out}");
    assert!(answers[13].contains("game over: W+"), "{out}");
    let (help, ok) = run_binary(b"");
    assert!(ok && help.is_empty());
}

#[test]
fn loads_hex_records() {
    let p = std::env::temp_dir().join(format!("crosscut-hex-{}.sgf", std::process::id()));
    // A HexGui-style record: GM[11], no XG, lower-case cells, swap-pieces.
    std::fs::write(
        &p,
        "(;FF[4]GM[11]AP[HexGui:0.9]SZ[5];B[c3];W[swap-pieces];W[b2];B[d4])",
    )
    .unwrap();
    let mut s = Session::new();
    s.ok(&format!("loadsgf {}", p.display()));
    assert_eq!(s.ok("gogui-rules_game_id"), "hex");
    assert_eq!(s.ok("gogui-rules_board_size"), "5");
    assert_eq!(s.ok("gogui-rules_side_to_move"), "white");
    assert_eq!(s.legal().len(), 22);
    std::fs::remove_file(&p).ok();
}
