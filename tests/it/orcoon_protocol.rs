//! Orcoon through the protocol: both restrictions in every orientation, the
//! seed's deadlocks, pass adjudication both ways, `winning_sequence`, swap,
//! undo across a pass, and genmove's passing.

use crate::common::{Session, pt};

fn orcoon(size: usize) -> Session {
    Session::with("orcoon", &[&format!("boardsize {size}")])
}

/// The crosscut pattern `x . o / o . x` as (dc, dr, is_x) corners with
/// rows top to bottom, in all eight orientations (the 2x3 pattern and its
/// rotations and reflections), placed with its lower-left at (1, 1).
fn pattern_orientations() -> Vec<Vec<(usize, usize, bool)>> {
    // Base: x at (0,1) and (2,0), o at (2,1) and (0,0): columns 0..2, rows
    // 0..1 (row 1 is the top row of the window); middles (1,0), (1,1).
    let base = [
        (0i32, 1i32, true),
        (2, 0, true),
        (2, 1, false),
        (0, 0, false),
    ];
    let mut out: Vec<Vec<(usize, usize, bool)>> = Vec::new();
    for sym in 0..8 {
        let mut v: Vec<(i32, i32, bool)> = base
            .iter()
            .map(|&(c, r, x)| {
                let (mut c, mut r) = (c, r);
                if sym & 1 != 0 {
                    c = 2 - c;
                }
                if sym & 2 != 0 {
                    r = 1 - r;
                }
                if sym & 4 != 0 {
                    std::mem::swap(&mut c, &mut r);
                }
                (c, r, x)
            })
            .collect();
        v.sort();
        let v: Vec<(usize, usize, bool)> = v
            .into_iter()
            .map(|(c, r, x)| (c as usize + 1, r as usize + 1, x))
            .collect();
        out.push(v);
    }
    out
}

#[test]
fn crosscut_pattern_is_illegal_in_every_orientation() {
    let orientations = pattern_orientations();
    assert_eq!(orientations.len(), 8);
    for corners in &orientations {
        for last in 0..4 {
            for x_is_black in [true, false] {
                let colour = |x: bool| if x == x_is_black { "b" } else { "w" };
                let mut s = orcoon(6);
                for (i, &(c, r, x)) in corners.iter().enumerate() {
                    if i != last {
                        s.ok(&format!("setup {} {}", colour(x), pt(c, r)));
                    }
                }
                let (c, r, x) = corners[last];
                let mover = colour(x);
                s.ok(&format!("setup_player {mover}"));
                let before = s.state();
                let err = s.err(&format!("play {mover} {}", pt(c, r)));
                assert!(
                    err.contains("illegal move") && err.contains("crosscut"),
                    "{err}"
                );
                assert_eq!(s.state(), before, "a rejected move changes nothing");
                let legal = s.ok(&format!("legal_moves {mover}"));
                assert!(!legal.split(' ').any(|m| m == pt(c, r)), "{legal}");
                // The other colour may play there (no pattern for it), and
                // the same stone is legal once a middle is filled.
                let (minc, minr) = (
                    corners.iter().map(|k| k.0).min().unwrap(),
                    corners.iter().map(|k| k.1).min().unwrap(),
                );
                let (maxc, maxr) = (
                    corners.iter().map(|k| k.0).max().unwrap(),
                    corners.iter().map(|k| k.1).max().unwrap(),
                );
                let middles: Vec<String> = (minc..=maxc)
                    .flat_map(|cc| (minr..=maxr).map(move |rr| (cc, rr)))
                    .filter(|p| !corners.iter().any(|k| (k.0, k.1) == *p))
                    .map(|(cc, rr)| pt(cc, rr))
                    .collect();
                assert_eq!(middles.len(), 2);
                for filler in ["b", "w"] {
                    let mut t = orcoon(6);
                    for (i, &(c2, r2, x2)) in corners.iter().enumerate() {
                        if i != last {
                            t.ok(&format!("setup {} {}", colour(x2), pt(c2, r2)));
                        }
                    }
                    t.ok(&format!("setup {filler} {}", middles[0]));
                    t.ok(&format!("setup_player {mover}"));
                    let legal = t.ok("legal_moves");
                    // Legal unless the filler makes a diagonal problem: a
                    // like filler next to the stone never does; an unlike
                    // one next to it leaves the window free of the pattern.
                    let pattern_free = legal.split(' ').any(|m| m == pt(c, r));
                    let diag_issue = t.raw(&format!("play {mover} {}", pt(c, r)));
                    assert!(
                        pattern_free || diag_issue.contains("diagonal"),
                        "{diag_issue}"
                    );
                }
            }
        }
    }
}

#[test]
fn lone_diagonal_pair_is_illegal() {
    for (dc, dr) in [(1i32, 1i32), (1, -1), (-1, 1), (-1, -1)] {
        let d = pt((2 + dc) as usize, (2 + dr) as usize);
        let s1 = pt((2 + dc) as usize, 2);
        let s2 = pt(2, (2 + dr) as usize);
        for me in ["b", "w"] {
            let other = if me == "b" { "w" } else { "b" };
            // Alone: illegal.
            let mut s = orcoon(5);
            s.ok(&format!("setup {me} C3"));
            s.ok(&format!("setup_player {me}"));
            let err = s.err(&format!("play {me} {d}"));
            assert!(err.contains("diagonal to C3"), "{err}");
            // With an opponent stone on one shared point: still illegal.
            let mut s = orcoon(5);
            s.ok(&format!("setup {me} C3"));
            s.ok(&format!("setup {other} {s1}"));
            s.ok(&format!("setup_player {me}"));
            s.err(&format!("play {me} {d}"));
            // With a like stone on either shared point: legal.
            for shared in [&s1, &s2] {
                let mut s = orcoon(5);
                s.ok(&format!("setup {me} C3 {shared}"));
                s.ok(&format!("setup_player {me}"));
                s.ok(&format!("play {me} {d}"));
            }
            // The opponent may play diagonally to C3 freely.
            let mut s = orcoon(5);
            s.ok(&format!("setup {me} C3"));
            s.ok(&format!("setup_player {other}"));
            s.ok(&format!("play {other} {d}"));
        }
    }
}

/// The seed's first deadlock on a 3x3 board: nobody can ever fill the
/// three empty points, so neither colour can join and whoever passes wins.
#[test]
fn seed_deadlock_one() {
    // x x o      row 3
    // x . .      row 2
    // o . x      row 1
    let setup = ["setup b A3 B3 A2 C1", "setup w C3 A1"];
    for color in ["b", "w"] {
        let mut s = orcoon(3);
        for l in setup {
            s.ok(l);
        }
        s.ok(&format!("setup_player {color}"));
        let legal = s.ok("legal_moves");
        assert_eq!(legal, "pass", "{color}: {legal}");
        let other = if color == "b" { "w" } else { "b" };
        assert_eq!(s.ok(&format!("legal_moves {other}")), "pass");
        s.ok(&format!("play {color} pass"));
        let expected = if color == "b" { "B+" } else { "W+" };
        assert_eq!(s.ok("final_score"), expected);
        assert!(s.err("winning_sequence").contains("passed and won"));
    }
}

/// The seed's second deadlock (a pinwheel) in the middle of a 7x7 board:
/// its eight inner points stay empty for both colours.
#[test]
fn seed_deadlock_two() {
    //     . . o x .      row 6   (columns B..F)
    //     x . . . .      row 5
    //     o . x . o      row 4
    //     . . . . x      row 3
    //     . x o . .      row 2
    let mut s = orcoon(7);
    s.ok("setup b E6 B5 D4 F3 C2");
    s.ok("setup w D6 B4 F4 D2");
    for color in ["b", "w"] {
        let legal = s.ok(&format!("legal_moves {color}"));
        for p in ["C5", "D5", "E5", "C4", "E4", "C3", "D3", "E3"] {
            assert!(!legal.split(' ').any(|m| m == p), "{color} {p}: {legal}");
        }
    }
}

#[test]
fn pass_adjudication_both_ways() {
    // Black joined (column C): Black passes and wins.
    let mut s = orcoon(5);
    s.ok("setup b C1 C2 C3 C4 C5");
    s.ok("play b pass");
    assert_eq!(s.ok("final_score"), "B+");
    assert!(s.ok("showboard").contains("game over: B+ (black passed)"));
    assert!(s.err("winning_sequence").contains("passed and won"));
    assert!(s.err("play w A1").contains("game is over"));
    assert_eq!(s.ok("legal_moves"), "");

    // On an empty board a pass loses: the opponent joins freely.
    let mut s = orcoon(5);
    s.ok("play b pass");
    assert_eq!(s.ok("final_score"), "W+");
    let seq = s.ok("winning_sequence");
    let stones: Vec<&str> = seq.split(' ').collect();
    assert!(stones.len() >= 5, "{seq}");
    // Replaying the sequence for White on a fresh board is legal move by
    // move and joins left and right, so White would then pass and win.
    let mut t = orcoon(5);
    t.ok("setup_player w");
    for m in &stones {
        t.ok(&format!("play w {m}"));
    }
    t.ok("play b pass");
    assert_eq!(t.ok("final_score"), "W+");

    // White to move, not joined, Black can still join around a deadlock.
    let mut s = orcoon(5);
    s.ok("setup b A3 B3 A2 C1");
    s.ok("setup w C3 A1");
    s.ok("play w pass");
    assert_eq!(s.ok("final_score"), "B+");
    assert!(!s.ok("winning_sequence").is_empty());

    // The command is known; before the end it is an error.
    assert_eq!(s.ok("known_command winning_sequence"), "true");
    let mut s = orcoon(5);
    assert!(s.err("winning_sequence").contains("not ended"));
    assert!(s.err("final_score").contains("not over"));
}

/// A connection does not end the game; a pass by its owner does.
#[test]
fn connection_does_not_end_the_game() {
    let mut s = orcoon(3);
    for (b, w) in [("B1", "A1"), ("B2", "A2"), ("B3", "A3")] {
        s.ok(&format!("play b {b}"));
        if w != "A3" {
            s.ok(&format!("play w {w}"));
        }
    }
    // Black is joined; the game goes on with White to move.
    assert!(s.err("final_score").contains("not over"));
    // White cannot join any more: a White pass loses.
    s.ok("play w pass");
    assert_eq!(s.ok("final_score"), "B+");
}

#[test]
fn swap_through_the_protocol() {
    let mut s = orcoon(5);
    assert!(!s.ok("legal_moves").contains("swap"));
    s.ok("play b C3");
    assert!(s.ok("legal_moves").split(' ').any(|m| m == "swap"));
    assert!(s.err("play b swap").contains("illegal"));
    s.ok("play w swap");
    assert_eq!(s.ok("gogui-rules_side_to_move"), "white");
    assert!(s.ok("showboard").contains("X"));
    assert!(!s.ok("legal_moves").contains("swap"));
    assert!(s.err("play w swap").contains("illegal"));
    s.ok("play w B2");
    s.ok("undo");
    s.ok("undo");
    assert!(s.ok("legal_moves").contains("swap"));
}

#[test]
fn undo_across_a_pass() {
    let mut s = orcoon(5);
    s.ok("play b C3");
    s.ok("play w B2");
    let before = s.state();
    s.ok("play b pass");
    assert_eq!(s.ok("final_score"), "W+");
    s.ok("undo");
    assert!(s.err("final_score").contains("not over"));
    assert_eq!(s.state(), before);
    assert!(s.err("winning_sequence").contains("not ended"));
    s.ok("play b C2");
    s.ok("play w pass");
    s.ok("undo");
    s.ok("undo");
    assert_eq!(s.state(), before);
}

#[test]
fn genmove_passes_exactly_when_passing_wins() {
    // Black joined, Black to move: passing wins at once.
    let mut s = orcoon(7);
    s.ok("param move_time 0.2");
    s.ok("setup b D1 D2 D3 D4 D5 D6 D7");
    s.ok("setup w A1 B2");
    assert_eq!(s.ok("genmove b"), "pass");
    assert_eq!(s.ok("final_score"), "B+");

    // White joined, Black to move: every move loses, but a pass loses at
    // once, so Black places a stone.
    let mut s = orcoon(7);
    s.ok("param move_time 0.2");
    s.ok("setup w A4 B4 C4 D4 E4 F4 G4");
    s.ok("setup_player b");
    let m = s.ok("genmove b");
    assert_ne!(m, "pass");
    // White now passes and wins.
    assert_eq!(s.ok("genmove w"), "pass");
    assert_eq!(s.ok("final_score"), "W+");

    // Neither colour is joined; White can never join here (found by a
    // search over random 5x5 positions, confirmed by brute force in
    // `pass_wins_without_a_connection`), Black still can: Black passes and
    // wins although it has placements; White to move must not pass.
    //   5 O O O X .
    //   4 X O . . .
    //   3 X X . O .
    //   2 . X . X X
    //   1 . O O X .
    let setup = [
        "setup b D5 A4 A3 B3 B2 D2 E2 D1",
        "setup w A5 B5 C5 B4 D3 B1 C1",
    ];
    let mut s = orcoon(5);
    s.ok("param move_time 0.2");
    for l in setup {
        s.ok(l);
    }
    assert!(s.ok("legal_moves").split(' ').count() > 3);
    assert_eq!(s.ok("genmove b"), "pass");
    assert_eq!(s.ok("final_score"), "B+");
    let mut s = orcoon(5);
    s.ok("param move_time 0.2");
    for l in setup {
        s.ok(l);
    }
    s.ok("setup_player w");
    assert_ne!(s.ok("genmove w"), "pass");

    // Early in the game a pass loses: genmove never passes there.
    let mut s = orcoon(7);
    s.ok("param move_time 0.1");
    for _ in 0..6 {
        let b = s.ok("genmove b");
        assert_ne!(b, "pass");
        let w = s.ok("genmove w");
        assert_ne!(w, "pass");
    }
}

#[test]
fn sizes_and_board() {
    let mut s = Session::with("orcoon", &[]);
    assert!(s.ok("showboard").contains(" J K\n"), "default 11x11");
    assert!(s.err("boardsize 2").contains("unacceptable size"));
    assert!(s.err("boardsize 27").contains("unacceptable size"));
    s.ok("boardsize 3");
    s.ok("boardsize 26");
    s.ok("boardsize 4");
    s.ok("play b b2");
    s.ok("play w C3");
    let board = s.ok("showboard");
    assert!(board.contains("  2 . X . . 2"), "{board}");
    assert!(board.contains("  3 . . O . 3"), "{board}");
    assert!(board.contains("black to move"), "{board}");
    assert!(s.err("play b E1").contains("invalid move"));
    assert!(s.err("play b B2").contains("occupied"));
    // 14 empty points, of which A1, A3 and C1 are diagonal to B2 alone; and pass.
    assert_eq!(s.ok("perft 1"), "12");
}

/// Self-play on small boards with short thinking times, with swaps, passes
/// and undos mixed in: every game ends, the winner passed or the loser
/// passed into an adjudicated loss, and undo across the end works.
#[test]
fn self_play_small_boards() {
    for size in 3..=7 {
        let mut s = orcoon(size);
        s.ok("param move_time 0.01");
        let mut moves = 0;
        loop {
            let side = s.ok("gogui-rules_side_to_move");
            let colour = &side[..1];
            let legal = s.ok("legal_moves");
            let mv = s.ok(&format!("genmove {colour}"));
            moves += 1;
            assert!(moves <= 2 * size * size + 4, "{size}: game does not end");
            if let Some(result) = s.raw("final_score").strip_prefix("= ") {
                let result = result.trim();
                // Only a pass ends the game, and the engine passed only to
                // win, or because nothing else was legal.
                assert_eq!(mv, "pass");
                assert!(
                    result.starts_with(colour.to_ascii_uppercase().as_str()) || legal == "pass",
                    "{size}: {result} after passing with {legal} legal"
                );
                s.ok("undo");
                assert!(s.err("final_score").contains("not over"));
                break;
            }
            if moves % 5 == 0 {
                s.ok("undo");
                s.ok(&format!("play {colour} {mv}"));
            }
        }
    }
}

/// Two engines, `alphabeta` and `mcts`, play each other on 7x7 (each
/// takes Black once), with a third session as referee: every move either
/// engine generates is legal in the referee's position and is accepted by
/// the other engine, a swap hands Black to the other engine, and every game
/// ends. (What was kept of `tests/orcoon_match.rs`; the match itself, for
/// strength, is `scripts/orcoon-match.sh`.)
#[test]
fn alphabeta_and_mcts_play_each_other_to_the_end() {
    let size = 7;
    for a_black in [true, false] {
        let player = |p: &str| {
            Session::with(
                "orcoon",
                &[
                    &format!("boardsize {size}"),
                    "param verbose false",
                    "param move_time 0.02",
                    &format!("param player {p}"),
                ],
            )
        };
        let (mut a, mut b) = (player("alphabeta"), player("mcts"));
        let mut referee = orcoon(size);
        let mut black_is_a = a_black;
        let mut moves = 0;
        loop {
            let colour = &referee.ok("gogui-rules_side_to_move")[..1];
            let legal = referee.legal();
            let (mover, other) = if (colour == "b") == black_is_a {
                (&mut a, &mut b)
            } else {
                (&mut b, &mut a)
            };
            let mv = mover.ok(&format!("genmove {colour}"));
            if mv == "resign" {
                break;
            }
            assert!(legal.contains(&mv), "{mv} not in {legal:?}");
            other.ok(&format!("play {colour} {mv}"));
            referee.ok(&format!("play {colour} {mv}"));
            if mv == "swap" {
                black_is_a = !black_is_a;
            }
            moves += 1;
            assert!(moves <= 2 * size * size + 4, "the game does not end");
            if referee.raw("final_score").starts_with('=') {
                for s in [&mut a, &mut b] {
                    assert_eq!(s.raw("final_score"), referee.raw("final_score"));
                }
                break;
            }
        }
    }
}

/// Proven evaluations are shown as such: a side one placement from joining
/// wins in 3 plies (join, any reply, pass), a side whose opponent is joined
/// loses in 2, a joined side to move wins in 1 (pass).
#[test]
fn analyze_names_proven_results() {
    let mut s = orcoon(5);
    s.ok("setup black C1 C2 C3 C4");
    s.ok("param max_depth 2");
    let a = s.ok("analyze b");
    assert!(
        a.contains("score win 3") && a.ends_with("eval win 3"),
        "{a}"
    );
    s.ok("setup black C5");
    let a = s.ok("analyze w");
    assert!(
        a.contains("score loss 2") && a.ends_with("eval loss 2"),
        "{a}"
    );
    let a = s.ok("analyze b");
    assert!(a.contains("pv pass") && a.ends_with("eval win 1"), "{a}");
}
