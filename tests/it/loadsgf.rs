//! `loadsgf`: loading a game record into a fresh game of the recorded kind,
//! size and start, replaying and checking its moves; on error the game stays
//! as it was.

use crate::common::Session;

fn write(name: &str, text: &str) -> String {
    let p = std::env::temp_dir().join(format!(
        "crosscut-loadsgf-{}-{name}.sgf",
        std::process::id()
    ));
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn loads_a_record_and_its_prefix() {
    let f = write(
        "ok",
        "(;FF[4]AP[crosscut-match]XG[onyx]SZ[8]XS[blank]PB[a]PW[b]RE[0]\n;B[C3]XT[0.1];W[swap];W[D4];B[E5])",
    );
    let mut s = Session::new();
    s.ok(&format!("loadsgf {f}"));
    assert_eq!(s.ok("gogui-rules_game_id"), "onyx");
    assert_eq!(s.ok("gogui-rules_board_size"), "8");
    assert_eq!(s.ok("gogui-rules_side_to_move"), "white");
    // Blank start: nothing on A4 (a standard-start point on 8x8).
    s.err("play w C3");
    s.ok("undo");
    s.ok("undo");
    s.ok("undo");
    s.ok("undo");
    s.err("undo");
    // Up to move 3: two moves played (C3, swap), White to move.
    s.ok(&format!("loadsgf {f} 3"));
    s.ok("undo");
    s.ok("undo");
    s.err("undo");
    let _ = std::fs::remove_file(f);
}

#[test]
fn a_bad_record_changes_nothing() {
    let mut s = Session::new();
    s.ok("game onyx");
    s.ok("boardsize 12");
    s.ok("play b D4");
    let illegal = write("illegal", "(;XG[onyx]SZ[8];B[C3];W[C3])");
    let e = s.err(&format!("loadsgf {illegal}"));
    assert!(e.contains("move 2"), "{e}");
    let wrong_turn = write("turn", "(;XG[onyx]SZ[8];B[C3];B[D4])");
    s.err(&format!("loadsgf {wrong_turn}"));
    let unknown = write("unknown", "(;XG[chess]SZ[8])");
    s.err(&format!("loadsgf {unknown}"));
    let garbage = write("garbage", "not a record");
    s.err(&format!("loadsgf {garbage}"));
    s.err("loadsgf /nonexistent/file.sgf");
    s.err("loadsgf");
    // Still the 12x12 game with D4 played.
    assert_eq!(s.ok("gogui-rules_board_size"), "12");
    s.ok("undo");
    s.err("undo");
    assert!(s.ok("list_commands").lines().any(|l| l == "loadsgf"));
    for f in [illegal, wrong_turn, unknown, garbage] {
        let _ = std::fs::remove_file(f);
    }
}
