//! Properties over seeded random games, on the library directly
//! (`crosscut::games::onyx::Onyx`) and through the protocol: undo restores
//! the exact position and hash, the incremental hash equals the recomputed
//! one, and every game ends with exactly one winner.

use crate::common::onyx_ref::{RefGeo, RefPos};
use crate::common::{Rng, Session, random_move};
use crosscut::game::{Color, Game, Notation, Outcome, perft};
use crosscut::games::onyx::{Onyx, OnyxMove, Start};

const RELEASE: bool = !cfg!(debug_assertions);

/// Everything observable about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Snapshot {
    cells: Vec<u8>,
    to_move: Color,
    outcome: Option<Outcome>,
    moves_played: usize,
    hash: u64,
    legal: Vec<OnyxMove>,
    /// Listed moves (with capture marks) and the board text: only in full
    /// snapshots, which are slower.
    text: Option<(Vec<String>, String)>,
}

/// The colour bitsets (used by the evaluation) agree with the cells.
fn assert_bits_match(pos: &Onyx) {
    for (color, code) in [(Color::Black, 1u8), (Color::White, 2u8)] {
        let bits = pos.bits(color);
        for (p, &v) in pos.cells().iter().enumerate() {
            let set = bits[p / 64] >> (p % 64) & 1 == 1;
            assert_eq!(set, v == code, "bit of point {p} for {color:?}");
        }
        let count: u32 = bits.iter().map(|w| w.count_ones()).sum();
        let pieces = pos.cells().iter().filter(|&&v| v == code).count();
        assert_eq!(count as usize, pieces, "{color:?}: stray bits");
    }
    // The per-square state (blocked midpoints, squares with three occupied
    // corners) agrees with the cells.
    let geo = pos.geometry();
    for (s, sq) in geo.squares.iter().enumerate() {
        let occupied = sq
            .corners
            .iter()
            .filter(|&&c| pos.cells()[c as usize] != 0)
            .count();
        let m = sq.midpoint as usize;
        let blocked = pos.blocked_midpoints()[m / 64] >> (m % 64) & 1 == 1;
        assert_eq!(blocked, occupied > 0, "blocked bit of square {s}");
        let three = pos.squares_with_three_corners()[s / 64] >> (s % 64) & 1 == 1;
        assert_eq!(three, occupied == 3, "three-corner bit of square {s}");
    }
}

fn snapshot(pos: &Onyx) -> Snapshot {
    assert_bits_match(pos);
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    Snapshot {
        cells: pos.cells().to_vec(),
        to_move: pos.to_move(),
        outcome: pos.outcome(),
        moves_played: pos.moves_played(),
        hash: pos.hash(),
        legal,
        text: None,
    }
}

fn full_snapshot(pos: &Onyx) -> Snapshot {
    let mut s = snapshot(pos);
    let mut listed: Vec<String> = s.legal.iter().map(|&m| pos.format_listed_move(m)).collect();
    listed.sort();
    s.text = Some((listed, pos.showboard()));
    s
}

/// A full snapshot every few plies, a cheap one otherwise.
fn snapshot_at(pos: &Onyx) -> Snapshot {
    if pos.moves_played().is_multiple_of(8) {
        full_snapshot(pos)
    } else {
        snapshot(pos)
    }
}

/// A random legal move, the swap (when allowed) one time in three.
fn random_onyx_move(pos: &Onyx, rng: &mut Rng) -> OnyxMove {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert!(!moves.is_empty(), "no legal move in an unfinished game");
    random_move(rng, &moves, |&m| m == OnyxMove::Swap, 33)
}

/// Checks that `color` really joins its edges and the other colour does not.
fn assert_single_winner(pos: &mut Onyx, context: &str) {
    let Some(Outcome::Win(w)) = pos.outcome() else {
        panic!("{context}: no winner: {:?}", pos.outcome());
    };
    assert!(pos.is_connected(w), "{context}: winner not connected");
    assert!(
        !pos.is_connected(w.opponent()),
        "{context}: both colours connected"
    );
    let path = pos.winning_path(w).expect("a winning path");
    let geo = pos.geometry();
    let n = geo.n;
    let edge = |p: u16, which: usize| -> bool {
        let p = p as usize;
        if p >= n * n {
            return false;
        }
        let (c, r) = (p % n, p / n);
        match which {
            0 => r == 0,
            1 => r == n - 1,
            2 => c == 0,
            _ => c == n - 1,
        }
    };
    let (a, b) = if w == Color::Black { (0, 1) } else { (2, 3) };
    assert!(edge(path[0], a), "{context}: path start");
    assert!(edge(*path.last().unwrap(), b), "{context}: path end");
    for p in &path {
        assert_eq!(pos.at(*p), Some(w), "{context}: path piece");
    }
    for pair in path.windows(2) {
        assert!(
            geo.neighbours_of(pair[0]).contains(&pair[1]),
            "{context}: path not linked"
        );
    }
    // The independent flood fill agrees.
    let rgeo = RefGeo::new(n);
    let mut r = RefPos::blank(&rgeo);
    for (i, name) in rgeo.names.iter().enumerate() {
        let p = geo.parse_point(name).unwrap();
        r.cells[i] = match pos.at(p) {
            None => 0,
            Some(Color::Black) => 1,
            Some(Color::White) => 2,
        };
    }
    let code = if w == Color::Black { 1 } else { 2 };
    assert!(
        r.connected(code),
        "{context}: reference: winner not connected"
    );
    assert!(
        !r.connected(3 - code),
        "{context}: reference: loser connected"
    );
}

/// One random game with every property checked at every ply; returns its
/// length.
fn checked_game(n: usize, start: Start, rng: &mut Rng) -> usize {
    let mut pos = Onyx::new(n, start).unwrap();
    assert_eq!(pos.hash(), pos.recompute_hash());
    let mut history = vec![snapshot_at(&pos)];
    while pos.outcome().is_none() {
        let ctx = format!("{n}x{n} {start:?} ply {}", pos.moves_played());
        let before = history.last().unwrap().clone();
        let mv = random_onyx_move(&pos, rng);
        pos.play(mv);
        assert_eq!(pos.hash(), pos.recompute_hash(), "{ctx}: hash after {mv:?}");
        assert_ne!(pos.hash(), before.hash, "{ctx}: hash unchanged by {mv:?}");
        // Undo restores everything, then the move is made again.
        pos.undo();
        assert_eq!(snapshot_at(&pos), before, "{ctx}: undo of {mv:?}");
        assert_eq!(pos.hash(), pos.recompute_hash());
        pos.play(mv);
        // A null move changes the hash and is undone exactly.
        if rng.below(8) == 0 && pos.outcome().is_none() {
            let s = snapshot(&pos);
            pos.play_null();
            assert_eq!(pos.hash(), pos.recompute_hash(), "{ctx}: null move");
            assert_ne!(pos.hash(), s.hash);
            assert_eq!(pos.to_move(), s.to_move.opponent());
            pos.undo();
            assert_eq!(snapshot(&pos), s, "{ctx}: undo of a null move");
        }
        history.push(snapshot_at(&pos));
        assert!(pos.moves_played() < 20_000, "{ctx}: game does not end");
    }
    let plies = pos.moves_played();
    assert_single_winner(&mut pos, &format!("{n}x{n} {start:?}"));
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert!(moves.is_empty(), "moves after the end");
    // Undo the whole game, comparing with the positions on the way.
    history.pop();
    while let Some(expected) = history.pop() {
        pos.undo();
        assert_eq!(
            snapshot_at(&pos),
            expected,
            "undo back to ply {}",
            history.len()
        );
        assert_eq!(pos.hash(), pos.recompute_hash());
    }
    assert_eq!(pos.moves_played(), 0);
    plies
}

#[test]
fn random_games_undo_hash_and_single_winner() {
    let games = if RELEASE { 40 } else { 3 };
    let mut rng = Rng(0x0b5e_55ed);
    let mut plies = 0;
    let mut count = 0;
    for (n, start) in [
        (12, Start::Standard),
        (12, Start::Blank),
        (8, Start::Standard),
        (8, Start::Blank),
        (4, Start::Blank),
        (6, Start::Blank),
        (14, Start::Blank),
    ] {
        for _ in 0..games {
            plies += checked_game(n, start, &mut rng);
            count += 1;
        }
    }
    assert!(plies > count * 10);
}

#[test]
fn both_colours_win_sometimes() {
    let mut rng = Rng(42);
    let mut wins = [0; 2];
    for _ in 0..if RELEASE { 200 } else { 20 } {
        let mut pos = Onyx::new(8, Start::Blank).unwrap();
        while pos.outcome().is_none() {
            let mv = random_onyx_move(&pos, &mut rng);
            pos.play(mv);
        }
        match pos.outcome() {
            Some(Outcome::Win(c)) => wins[c.index()] += 1,
            o => panic!("{o:?}"),
        }
    }
    assert!(wins[0] > 0 && wins[1] > 0, "{wins:?}");
}

#[test]
fn hash_does_not_depend_on_the_move_order() {
    // D4 E5 F6 G7 and F6 G7 D4 E5 reach the same position.
    let play = |moves: &[&str]| {
        let mut pos = Onyx::new(12, Start::Standard).unwrap();
        for m in moves {
            let mv = pos.parse_move(m).unwrap();
            pos.play(mv);
        }
        pos
    };
    let a = play(&["D4", "E5", "F6", "G7"]);
    let b = play(&["F6", "G7", "D4", "E5"]);
    assert_eq!(a.cells(), b.cells());
    assert_eq!(a.hash(), b.hash());
    // Same board, other side to move: different hash.
    let c = play(&["D4", "E5", "F6"]);
    let mut d = play(&["D4", "E5", "F6"]);
    d.play_null();
    assert_eq!(c.cells(), d.cells());
    assert_ne!(c.hash(), d.hash());
    // Swap available or not: different hash.
    let e = play(&["D4"]);
    let f = play(&["D4", "swap"]);
    assert_eq!(e.cells(), f.cells());
    assert_eq!(e.to_move(), f.to_move());
    assert_ne!(e.hash(), f.hash());
    assert_eq!(f.hash(), f.recompute_hash());
}

#[test]
fn setup_keeps_the_hash_right() {
    let mut pos = Onyx::new(12, Start::Standard).unwrap();
    let start = pos.hash();
    pos.setup(Some(Color::Black), "D4").unwrap();
    assert_eq!(pos.hash(), pos.recompute_hash());
    pos.setup(Some(Color::White), "D4").unwrap();
    assert_eq!(pos.hash(), pos.recompute_hash());
    pos.setup(Some(Color::White), "DE1112").unwrap();
    pos.set_to_move(Color::White).unwrap();
    assert_eq!(pos.hash(), pos.recompute_hash());
    assert_bits_match(&pos);
    pos.setup(None, "D4").unwrap();
    pos.setup(None, "DE1112").unwrap();
    assert_bits_match(&pos);
    pos.set_to_move(Color::Black).unwrap();
    assert_eq!(pos.hash(), start);
    assert!(pos.setup(Some(Color::Black), "CD12").is_err());
    assert_eq!(pos.hash(), start);
}

/// perft from positions just before the end of random games, where wins
/// stop the count: crosscut against the reference.
#[test]
fn perft_near_the_end_matches_reference() {
    let mut rng = Rng(0xe4d);
    let geo = RefGeo::new(8);
    let mut checked = 0;
    for _ in 0..if RELEASE { 20 } else { 3 } {
        // Play a random game, remembering the moves.
        let mut pos = Onyx::new(8, Start::Blank).unwrap();
        let mut moves = Vec::new();
        while pos.outcome().is_none() {
            let mv = random_onyx_move(&pos, &mut rng);
            moves.push(pos.format_listed_move(mv));
            pos.play(mv);
        }
        // Replay in both up to three plies before the end.
        let keep = moves.len().saturating_sub(3);
        let mut pos = Onyx::new(8, Start::Blank).unwrap();
        let mut r = RefPos::blank(&geo);
        for m in &moves[..keep] {
            let mv = pos.parse_move(m).unwrap();
            pos.play(mv);
            let rm = r
                .legal()
                .into_iter()
                .find(|&x| r.listed(x) == *m)
                .expect("same move in the reference");
            r.play(rm);
        }
        for d in 1..=3 {
            assert_eq!(perft(&mut pos, d), r.perft(d), "perft {d}");
        }
        checked += 1;
    }
    assert!(checked > 0);
}

/// Undo through the protocol restores `showboard`, `legal_moves` and the
/// side to move, all along random games.
#[test]
fn protocol_undo_restores_the_position() {
    let mut rng = Rng(7);
    for g in 0..if RELEASE { 6 } else { 1 } {
        let start = if g % 2 == 0 { "standard" } else { "blank" };
        let mut s = Session::with("onyx", &[&format!("start {start}")]);
        let mut states = vec![s.state()];
        loop {
            let legal = s.legal();
            if legal.is_empty() {
                break;
            }
            let side = s.ok("gogui-rules_side_to_move");
            let mv = &legal[rng.below(legal.len())];
            let before = states.last().unwrap().clone();
            s.ok(&format!("play {side} {mv}"));
            s.ok("undo");
            assert_eq!(s.state(), before, "game {g}: undo of {mv}");
            s.ok(&format!("play {side} {mv}"));
            states.push(s.state());
        }
        s.ok("final_score");
        states.pop();
        while let Some(expected) = states.pop() {
            s.ok("undo");
            assert_eq!(s.state(), expected, "game {g}");
        }
        s.err("undo");
    }
}

/// Without the swap (`swap off`) White's second move never offers nor
/// accepts it, from either start; with it the game is unchanged (see
/// [`crate::common::check_swap_off`]).
#[test]
fn swap_off_never_offers_the_swap() {
    for start in [Start::Standard, Start::Blank] {
        let on = Onyx::new(8, start).unwrap();
        crate::common::check_swap_off(&on, Onyx::set_swap, OnyxMove::Swap, 40, 40);
    }
}
