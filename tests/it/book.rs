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

/// The book's sections: Hex without and with swap on 9×9, 11×11 and
/// 13×13.
const SECTIONS: [(usize, &str); 6] = [
    (9, "off"),
    (9, "on"),
    (11, "off"),
    (11, "on"),
    (13, "off"),
    (13, "on"),
];

/// The book's section for `size` with the swap option at `swap`.
fn find_section(size: usize, swap: &str) -> Section {
    hex_book()
        .into_iter()
        .find(|s| s.size == size && s.options[0].1 == swap)
        .unwrap_or_else(|| panic!("no section for size {size}, swap {swap}"))
}

/// The reply of `section` to `moves`.
fn reply<S: AsRef<str> + std::fmt::Debug>(section: &Section, moves: &[S]) -> String {
    section
        .lines
        .iter()
        .find(|(m, _)| {
            m.iter()
                .map(String::as_str)
                .eq(moves.iter().map(AsRef::as_ref))
        })
        .map(|(_, r)| r.clone())
        .unwrap_or_else(|| panic!("size {}: no reply to {moves:?}", section.size))
}

/// Every section is Hex on a board with connection knowledge, without
/// swap or with it. Without swap it has Black's first move and a reply to
/// every first move; with swap, the opening, White's answer to every first
/// move (`swap` or a reply) and the first player's reply after each swap.
/// Every line is legal from the start; a first move's half-turn has the
/// reply's half-turn (but for the centre, its own) and the same swap
/// decision. After a swap the board is the one without swap after that
/// move, with White to move: the reply is the same.
#[test]
fn the_hex_book_is_legal_complete_and_symmetric() {
    let book = hex_book();
    let found: Vec<(usize, &str)> = book
        .iter()
        .map(|s| {
            assert_eq!(s.game, "hex");
            assert_eq!(s.options.len(), 1);
            assert_eq!(s.options[0].0, "swap");
            (s.size, s.options[0].1.as_str())
        })
        .collect();
    assert_eq!(found, SECTIONS);
    for section in &book {
        let n = section.size;
        let swap = section.options[0].1 == "on";
        let expected = if swap { 2 * n * n + 1 } else { n * n + 1 };
        assert_eq!(section.lines.len(), expected, "size {n}");
        let mut s = Session::with(
            "hex",
            &[
                if swap { "swap on" } else { "swap off" },
                &format!("boardsize {n}"),
            ],
        );
        // The half-turn (Hex's symmetry that keeps each colour's edges):
        // the game's own, asked on the empty board.
        let turned =
            |s: &Session, m: &str| s.gtp.engine.rules().unwrap().symmetric_move(m).unwrap();
        let firsts = s.legal();
        assert_eq!(firsts.len(), n * n);
        let opening = reply::<&str>(section, &[]);
        assert!(firsts.contains(&opening), "size {n}");
        // With swap the opening is a first move the book itself answers.
        if swap {
            assert_ne!(reply(section, &[opening]), "swap", "size {n}");
        }
        let without = find_section(n, "off");
        for m in &firsts {
            let r = reply(section, std::slice::from_ref(m));
            let m_turned = turned(&s, m);
            s.ok(&format!("play b {m}"));
            assert!(s.legal().contains(&r), "size {n}: {m} {r}");
            if swap {
                let after = [m.clone(), "swap".to_string()];
                let r_after = reply(section, &after);
                s.ok("play w swap");
                assert!(s.legal().contains(&r_after), "size {n}: {m} swap {r_after}");
                assert_eq!(r_after, reply(&without, std::slice::from_ref(m)));
                s.ok("undo");
                // Twins: the same decision.
                let twin = reply(section, std::slice::from_ref(&m_turned));
                assert_eq!(r == "swap", twin == "swap", "size {n}: {m}");
            }
            s.ok("undo");
            // The centre is its own half-turn: either of the two replies.
            if m_turned != *m && r != "swap" {
                assert_eq!(reply(section, &[m_turned]), turned(&s, &r), "size {n}: {m}");
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
    let section = find_section(11, "off");
    let line = |moves: &[&str]| reply(&section, moves);
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

/// With swap, the book opens, answers each first move with `swap` or a
/// reply, and answers after a swap; in HexGui's convention the swap is
/// written `swap-pieces`.
#[test]
fn genmove_plays_the_swap_book() {
    let section = find_section(11, "on");
    let line = |moves: &[&str]| reply(&section, moves);
    let (mut s, info) = listened(11, &["swap on"]);
    let first = s.ok("genmove b");
    assert_eq!(first, line(&[]));
    assert!(from_book(&info));
    assert_eq!(s.ok("genmove w"), line(&[first.as_str()]));
    assert!(from_book(&info));
    // A first move the book swaps, and one it answers.
    let firsts: Vec<String> = section
        .lines
        .iter()
        .filter(|(m, _)| m.len() == 1)
        .map(|(m, _)| m[0].clone())
        .collect();
    let swapped = firsts.iter().find(|m| line(&[m]) == "swap").unwrap();
    let answered = firsts.iter().find(|m| line(&[m]) != "swap").unwrap();
    for m in [swapped, answered] {
        s.ok("clear_board");
        s.ok(&format!("play b {m}"));
        let r = s.ok("genmove w");
        assert_eq!(r, line(&[m]));
        assert!(from_book(&info));
        if r == "swap" {
            // The first player, now White, moves next: the book again.
            assert_eq!(s.ok("genmove w"), line(&[m, "swap"]));
            assert!(from_book(&info));
        }
    }
    // HexGui's name for the swap, in and out.
    s.ok("hexgui-analyze_commands");
    s.ok("clear_board");
    s.ok(&format!("play b {swapped}"));
    assert_eq!(s.ok("genmove w"), "swap-pieces");
    assert!(from_book(&info));
    s.ok("undo");
    s.ok("play w swap-pieces");
    assert_eq!(s.ok("genmove w"), line(&[swapped, "swap"]));
    assert!(from_book(&info));
}

#[test]
fn the_book_is_not_played_where_it_does_not_apply() {
    let cases: &[(usize, &[&str], &str)] = &[
        // Past the book's lines (with swap, the third move).
        (11, &["swap on", "play b a1", "play w b2"], "genmove b"),
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
