//! The opening book (`param book`, `src/engine/book.rs`): the Hex book is
//! legal, complete and symmetric, and `genmove` plays it exactly where it
//! applies (its game, size and options, the moves from the game's own
//! start, the side to move) and searches everywhere else.

use std::sync::{Arc, Mutex};

use crate::common::Session;
use crosscut::engine::book::{Section, parse};
use crosscut::games::hex;

fn hex_book() -> Vec<Section> {
    parse(hex::ENTRY.book).expect("the Hex book reads")
}

/// Every section is Hex without swap on a board with connection
/// knowledge; it has Black's first move and a reply to every first move;
/// every line is legal from the start; a first move's half-turn has the
/// reply's half-turn (but for the centre, its own).
#[test]
fn the_hex_book_is_legal_complete_and_symmetric() {
    let book = hex_book();
    let sizes: Vec<usize> = book.iter().map(|s| s.size).collect();
    assert_eq!(sizes, [9, 11, 13]);
    for section in &book {
        let n = section.size;
        assert_eq!(section.game, "hex");
        assert_eq!(section.options, vec![("swap".into(), "off".into())]);
        assert_eq!(section.lines.len(), n * n + 1, "size {n}");
        let reply = |moves: &[String]| {
            section
                .lines
                .iter()
                .find(|(m, _)| m == moves)
                .map(|(_, r)| r.clone())
                .unwrap_or_else(|| panic!("size {n}: no reply to {moves:?}"))
        };
        let mut s = Session::with("hex", &["swap off", &format!("boardsize {n}")]);
        // The half-turn (Hex's symmetry that keeps each colour's edges):
        // the game's own, asked on the empty board.
        let turned =
            |s: &Session, m: &str| s.gtp.engine.rules().unwrap().symmetric_move(m).unwrap();
        let firsts = s.legal();
        assert_eq!(firsts.len(), n * n);
        assert!(firsts.contains(&reply(&[])), "size {n}");
        for m in &firsts {
            let r = reply(std::slice::from_ref(m));
            s.ok(&format!("play b {m}"));
            assert!(s.legal().contains(&r), "size {n}: {m} {r}");
            s.ok("undo");
            // The centre is its own half-turn: either of the two replies.
            let m_turned = turned(&s, m);
            if m_turned != *m {
                assert_eq!(reply(&[m_turned]), turned(&s, &r), "size {n}: {m}");
            }
        }
    }
}

/// A Hex session without swap on `size` whose `info` lines are collected.
fn listened(size: usize, more: &[&str]) -> (Session, Arc<Mutex<Vec<String>>>) {
    let mut lines = vec!["swap off".to_string(), format!("boardsize {size}")];
    lines.extend(more.iter().map(|l| l.to_string()));
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let mut s = Session::with("hex", &refs);
    let info = s.collect_info();
    s.ok("param verbose true");
    s.ok("param move_time 0.05");
    (s, info)
}

/// Whether the last `genmove` came from the book (its `info book` line),
/// forgetting the lines seen.
fn from_book(info: &Arc<Mutex<Vec<String>>>) -> bool {
    let lines = std::mem::take(&mut *info.lock().unwrap());
    lines.iter().any(|l| l.starts_with("info book "))
}

#[test]
fn genmove_plays_the_book_where_it_applies() {
    let section = hex_book().into_iter().find(|s| s.size == 11).unwrap();
    let line = |moves: &[&str]| {
        section
            .lines
            .iter()
            .find(|(m, _)| m.iter().map(String::as_str).eq(moves.iter().copied()))
            .map(|(_, r)| r.clone())
            .unwrap()
    };
    let (mut s, info) = listened(11, &[]);
    let first = s.ok("genmove b");
    assert_eq!(first, line(&[]));
    assert!(from_book(&info));
    let reply = s.ok("genmove w");
    assert_eq!(reply, line(&[first.as_str()]));
    assert!(from_book(&info));
    // Past the book the searcher plays.
    s.ok("genmove b");
    assert!(!from_book(&info));
    // `reg_genmove` answers from the book without playing.
    s.ok("undo");
    s.ok("undo");
    assert_eq!(s.ok("reg_genmove w"), line(&[first.as_str()]));
    assert!(from_book(&info));
    assert_eq!(s.legal().len(), 120);
    // Off, the searcher plays.
    s.ok("param book false");
    s.ok("genmove w");
    assert!(!from_book(&info));
}

#[test]
fn the_book_is_not_played_where_it_does_not_apply() {
    let cases: &[(usize, &[&str], &str)] = &[
        // With the swap on the book has no section.
        (11, &["swap on"], "genmove b"),
        // A size without a section.
        (10, &[], "genmove b"),
        // White asked at the start (out of turn).
        (11, &[], "genmove w"),
        // A setup before the first move: the moves are the book's, the
        // position is not.
        (11, &["setup black a5"], "genmove b"),
    ];
    for &(size, more, command) in cases {
        let (mut s, info) = listened(size, more);
        s.ok(command);
        assert!(!from_book(&info), "{size} {more:?} {command}");
    }
}
