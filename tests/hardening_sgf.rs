//! `loadsgf` against hostile files: deep nesting.

mod hardening_util;

use hardening_util::{Engine, temp_path};
use std::process::Stdio;

/// A record nested 30,000 game trees deep is answered (it used to overflow
/// the stack and abort the engine) and the engine goes on.
#[test]
fn deeply_nested_record_is_answered() {
    let depth = 30_000;
    let mut text = String::from("(;XG[orcoon]SZ[7]");
    text.push_str(&"(;".repeat(depth));
    text.push_str(&")".repeat(depth + 1));
    let path = temp_path("deep.sgf");
    std::fs::write(&path, &text).unwrap();
    let mut e = Engine::start(&[], Stdio::null());
    let a = e.cmd(&format!("loadsgf {}", path.display()));
    assert!(a.starts_with('=') || a.starts_with('?'), "{a}");
    assert_eq!(e.cmd("name"), "= crosscut");
    assert_eq!(e.cmd("gogui-rules_game_id"), "= orcoon");
    std::fs::remove_file(&path).unwrap();
}

/// The deep record's main line is read as before: the first variation at
/// every branch, however deep.
#[test]
fn deep_main_line_is_the_first_variation() {
    // Each move opens a tree whose first variation goes on and whose
    // second plays A1 instead.
    let moves = ["C3", "D4", "E5", "F6"];
    let mut tree = String::new();
    for (i, m) in moves.iter().enumerate().rev() {
        let c = if i % 2 == 0 { 'B' } else { 'W' };
        let other = if tree.is_empty() {
            String::new()
        } else {
            format!("(;{c}[A1])")
        };
        tree = format!("(;{c}[{m}]{tree}{other})");
    }
    let text = format!("(;XG[onyx]SZ[8]{tree}(;B[A1]))");
    let rec = crosscut::sgf::parse(&text).unwrap();
    let got: Vec<_> = rec.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(got, moves);
    // Unbalanced or misplaced parts are still errors.
    assert!(crosscut::sgf::parse("(;XG[onyx]SZ[8](;B[C3])").is_err());
    assert!(crosscut::sgf::parse("(;XG[onyx]SZ[8](;B[C3]);W[D4])").is_err());
    assert!(crosscut::sgf::parse("(;XG[onyx]SZ[8]))").is_ok());
}
