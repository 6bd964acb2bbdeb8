//! Searcher sanity through the protocol, with small limits: `genmove` only
//! answers legal moves, takes a win in one, and blocks the opponent's win in
//! one.

use std::time::Duration;

use crate::common::{Rng, Session, has_win_in_one};

/// A session with a quick searcher.
fn quick(lines: &[&str]) -> Session {
    let mut s = Session::with("onyx", &["param max_depth 2", "param move_time 0.2"]);
    for l in lines {
        s.ok(l);
    }
    s
}

fn bare(m: &str) -> String {
    m.trim_end_matches('*').to_string()
}

fn column(col: char, rows: impl IntoIterator<Item = usize>) -> String {
    rows.into_iter()
        .map(|r| format!("{col}{r}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn row(r: usize, cols: impl IntoIterator<Item = char>) -> String {
    cols.into_iter()
        .map(|c| format!("{c}{r}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn genmove_answers_only_legal_moves() {
    let mut rng = Rng(0x9e17);
    let positions = if cfg!(debug_assertions) { 4 } else { 16 };
    for i in 0..positions {
        let (size, start) = match i % 4 {
            0 => (8, "standard"),
            1 => (8, "blank"),
            2 => (12, "standard"),
            _ => (12, "blank"),
        };
        let mut s = quick(&[&format!("boardsize {size}"), &format!("start {start}")]);
        s.ok("param max_depth 1");
        // A random position.
        let plies = rng.below(40);
        for _ in 0..plies {
            let legal = s.legal();
            if legal.is_empty() {
                break;
            }
            let side = s.ok("gogui-rules_side_to_move");
            s.ok(&format!("play {side} {}", legal[rng.below(legal.len())]));
        }
        if s.legal().is_empty() {
            continue;
        }
        let side = s.ok("gogui-rules_side_to_move");
        let other = if side == "black" { "white" } else { "black" };
        for (color, depth) in [(side.as_str(), 1), (side.as_str(), 2), (other, 1)] {
            s.ok(&format!("param max_depth {depth}"));
            let before = s.full_state();
            let legal: Vec<String> = s
                .ok(&format!("legal_moves {color}"))
                .split_whitespace()
                .map(bare)
                .collect();
            let answer = s.ok(&format!("reg_genmove {color}"));
            assert!(
                legal.contains(&answer),
                "position {i}: reg_genmove {color} answered {answer}, not legal"
            );
            assert_eq!(s.full_state(), before, "reg_genmove changed the game");
        }
        // genmove plays its answer.
        let before = s.state();
        let answer = s.ok(&format!("genmove {side}"));
        assert_ne!(answer, "resign");
        assert_ne!(s.state(), before);
        s.ok("undo");
        assert_eq!(s.state(), before);
        s.ok(&format!("play {side} {answer}"));
    }
}

/// Every player (`param player`) and two threads answer legal moves.
#[test]
fn every_player_answers_legal_moves() {
    let mut rng = Rng(0x91a7);
    for (i, player) in ["alphabeta", "mcts", "greedy", "random", "alphabeta"]
        .iter()
        .enumerate()
    {
        let threads = if i == 4 { 2 } else { 1 };
        let mut s = quick(&[
            &format!("param player {player}"),
            &format!("param threads {threads}"),
            "param move_time 0.1",
            "boardsize 8",
        ]);
        for _ in 0..if cfg!(debug_assertions) { 2 } else { 6 } {
            if s.legal().is_empty() {
                break;
            }
            let side = s.ok("gogui-rules_side_to_move");
            let legal: Vec<String> = s.legal().iter().map(|m| bare(m)).collect();
            let answer = s.ok(&format!("genmove {side}"));
            assert!(legal.contains(&answer), "{player}: {answer} not legal");
            // A random reply keeps the positions varied.
            let legal = s.legal();
            if legal.is_empty() {
                break;
            }
            let side = s.ok("gogui-rules_side_to_move");
            s.ok(&format!("play {side} {}", legal[rng.below(legal.len())]));
        }
    }
}

#[test]
fn genmove_takes_a_win_in_one() {
    // Black: E1..E11; White scattered. Black to move wins with E12 or F12.
    let mut s = quick(&["start blank"]);
    s.ok(&format!("setup black {}", column('E', 1..=11)));
    s.ok("setup white A5 B7 H3 J9 K11");
    let m = s.ok("genmove b");
    assert_eq!(s.ok("final_score"), "B+", "genmove b answered {m}");
    // White: A3..K3, L3 or L4 wins; on the 12x12 standard start.
    let mut s = quick(&["setup_player white"]);
    s.ok(&format!("setup white {}", row(3, 'A'..='K')));
    s.ok("setup black B4 C2 J4");
    let m = s.ok("genmove w");
    assert_eq!(s.ok("final_score"), "W+", "genmove w answered {m}");
    // Out of turn: genmove for the colour not to move still finds it.
    let mut s = quick(&["start blank"]);
    s.ok(&format!("setup black {}", column('H', 2..=12)));
    s.ok("setup_player white");
    let m = s.ok("genmove b");
    assert_eq!(s.ok("final_score"), "B+", "genmove b out of turn: {m}");
}

#[test]
fn genmove_takes_the_shared_winning_point() {
    // Black E1..E5, E7..E12 and White A6..D6, F6..L6: E6 wins for whoever
    // plays it.
    for (color, result) in [("black", "B+"), ("white", "W+")] {
        let mut s = quick(&["start blank"]);
        s.ok(&format!(
            "setup black {}",
            column('E', (1..=5).chain(7..=12))
        ));
        s.ok(&format!(
            "setup white {}",
            row(6, ('A'..='D').chain('F'..='L'))
        ));
        s.ok(&format!("setup_player {color}"));
        assert_eq!(s.ok(&format!("genmove {color}")), "E6");
        assert_eq!(s.ok("final_score"), result);
    }
}

#[test]
fn genmove_blocks_a_win_in_one() {
    // Black E1..E5, E7..E12: only E6 joins them. White to move must take it.
    let mut s = quick(&["start blank", "setup_player white"]);
    s.ok(&format!(
        "setup black {}",
        column('E', (1..=5).chain(7..=12))
    ));
    s.ok("setup white A1 K2");
    assert_eq!(s.ok("genmove w"), "E6");
    s.err("final_score");
    // The same for Black against White's row 8 with a hole at H8.
    let mut s = quick(&["start blank"]);
    s.ok(&format!(
        "setup white {}",
        row(8, ('A'..='G').chain('I'..='L'))
    ));
    s.ok("setup black C2 J3");
    assert_eq!(s.ok("genmove b"), "H8");
    s.err("final_score");
}

/// The clock decides: move_time, a cap on its plan, is raised to 5 s, so
/// that ignoring the clock would show. 5-17 ms measured on a shared 2-core
/// machine; the limit is far more than 10 times that.
#[test]
fn genmove_respects_a_short_clock() {
    let mut s = Session::with("onyx", &["param max_depth 64", "param move_time 5"]);
    s.ok("time_settings 2 0 0");
    s.ok("time_left b 0.3 0");
    let m = s.ok_within("genmove b", Duration::from_secs(2));
    assert_ne!(m, "resign");
    assert_eq!(s.ok("gogui-rules_side_to_move"), "white");
}

#[test]
fn genmove_out_of_turn_is_undone_with_its_handed_over_turn() {
    let mut s = quick(&[]);
    let start = s.full_state();
    let m = s.ok("genmove w");
    assert_eq!(s.ok("gogui-rules_side_to_move"), "black");
    assert!(s.ok("showboard").contains('O'));
    s.ok("undo");
    assert_eq!(s.full_state(), start, "after genmove w {m} and undo");
    s.err("undo");
}

/// As above: 3-20 ms measured, a limit of far more than 10 times that.
#[test]
fn genmove_with_no_time_left_still_answers_a_legal_move() {
    let mut s = Session::with("onyx", &["param max_depth 64", "param move_time 5"]);
    s.ok("time_settings 10 0 0");
    s.ok("time_left b 0 0");
    let legal: Vec<String> = s.legal().iter().map(|m| bare(m)).collect();
    let m = s.ok_within("reg_genmove b", Duration::from_secs(2));
    assert!(legal.contains(&m), "{m}");
    // Overtime reported as a negative time: the same.
    s.ok("time_left b -3 0");
    let m = s.ok_within("reg_genmove b", Duration::from_secs(2));
    assert!(legal.contains(&m), "{m}");
}

// ---------------------------------------------------------------------------
// Tactics found in random games, checked by brute force with the library.

use crosscut::game::{Color, Game, Notation, Outcome};
use crosscut::games::onyx::TwoDistance;
use crosscut::games::onyx::{Onyx, OnyxMove, Start};
use crosscut::search::Evaluator;

fn moves_of(pos: &Onyx) -> Vec<OnyxMove> {
    let mut v = Vec::new();
    pos.legal_moves(&mut v);
    v
}

/// Whether the opponent of the side to move would win at once if it were
/// its turn.
fn opponent_threatens(pos: &mut Onyx) -> bool {
    pos.play_null();
    let t = has_win_in_one(pos);
    pos.undo();
    t
}

/// Whether some move of the side to move leaves the opponent no win in one.
fn can_block(pos: &mut Onyx) -> bool {
    for m in moves_of(pos) {
        pos.play(m);
        let ok = pos.outcome().is_some() || !has_win_in_one(pos);
        pos.undo();
        if ok {
            return true;
        }
    }
    false
}

enum Case {
    Win(Vec<String>),
    Block(Vec<String>),
}

fn tactical_cases(count: usize) -> Vec<Case> {
    let mut rng = Rng(0x7ac7);
    let (mut wins, mut blocks) = (Vec::new(), Vec::new());
    let mut games = 0;
    while (wins.len() < count || blocks.len() < count) && games < 400 {
        games += 1;
        let start = if games % 2 == 0 {
            Start::Standard
        } else {
            Start::Blank
        };
        let mut pos = Onyx::new(8, start).unwrap();
        let mut played: Vec<String> = vec![format!("{start:?}").to_lowercase()];
        while pos.outcome().is_none() {
            if has_win_in_one(&mut pos) {
                if wins.len() < count && rng.below(3) == 0 {
                    wins.push(Case::Win(played.clone()));
                }
            } else if blocks.len() < count && opponent_threatens(&mut pos) && can_block(&mut pos) {
                blocks.push(Case::Block(played.clone()));
            }
            let moves = moves_of(&pos);
            let m = moves[rng.below(moves.len())];
            played.push(pos.format_move(m));
            pos.play(m);
        }
    }
    assert!(wins.len() >= count / 2 && blocks.len() >= count / 2);
    wins.into_iter().chain(blocks).collect()
}

fn replay(case: &[String]) -> (Session, Onyx) {
    let start = if case[0] == "standard" {
        Start::Standard
    } else {
        Start::Blank
    };
    let mut s = Session::with(
        "onyx",
        &[
            "boardsize 8",
            &format!("start {}", case[0]),
            "param max_depth 2",
            "param move_time 0",
        ],
    );
    let mut pos = Onyx::new(8, start).unwrap();
    for m in &case[1..] {
        let side = if pos.to_move() == Color::Black {
            "b"
        } else {
            "w"
        };
        s.ok(&format!("play {side} {m}"));
        pos.play(pos.parse_move(m).unwrap());
    }
    (s, pos)
}

#[test]
fn genmove_wins_and_blocks_in_random_positions() {
    let count = if cfg!(debug_assertions) { 3 } else { 12 };
    for (i, case) in tactical_cases(count).into_iter().enumerate() {
        let (moves, is_win) = match &case {
            Case::Win(m) => (m, true),
            Case::Block(m) => (m, false),
        };
        let (mut s, mut pos) = replay(moves);
        // Every other case with two search threads.
        s.ok(&format!("param threads {}", 1 + i % 2));
        let me = pos.to_move();
        let side = if me == Color::Black { "b" } else { "w" };
        let answer = s.ok(&format!("genmove {side}"));
        pos.play(pos.parse_move(&answer).unwrap());
        if is_win {
            assert_eq!(
                pos.outcome(),
                Some(Outcome::Win(me)),
                "{side} missed a win in one after {moves:?}: played {answer}"
            );
            assert_eq!(s.ok("final_score"), format!("{}+", me.letter()));
        } else {
            assert!(
                pos.outcome().is_some() || !has_win_in_one(&mut pos),
                "{side} did not block after {moves:?}: played {answer}"
            );
        }
    }
}

/// A move after which the opponent cannot stop an immediate win, and the
/// searcher's threat test sees the threat (so its extension applies).
fn double_threat_move(pos: &mut Onyx) -> Option<OnyxMove> {
    if has_win_in_one(pos) {
        return None;
    }
    moves_of(pos).into_iter().find(|&m| {
        pos.play(m);
        let forced =
            pos.outcome().is_none() && TwoDistance.opponent_threatens(pos) && !can_block(pos);
        pos.undo();
        forced
    })
}

/// Plays random games on a blank 8×8 board (seeded) and keeps the moves
/// up to the first position of each game where `wanted` holds, until
/// `count` are found or 300 games are played.
fn first_positions_where(
    seed: u64,
    count: usize,
    mut wanted: impl FnMut(&mut Onyx) -> bool,
) -> Vec<Vec<String>> {
    let mut rng = Rng(seed);
    let mut cases = Vec::new();
    let mut games = 0;
    while cases.len() < count && games < 300 {
        games += 1;
        let mut pos = Onyx::new(8, Start::Blank).unwrap();
        let mut played: Vec<String> = vec!["blank".into()];
        while pos.outcome().is_none() {
            if wanted(&mut pos) {
                cases.push(played.clone());
                break;
            }
            let moves = moves_of(&pos);
            let m = moves[rng.below(moves.len())];
            played.push(pos.format_move(m));
            pos.play(m);
        }
    }
    cases
}

/// Threat extension: a search of depth 1 looks one ply further at a leaf
/// where the side to move must answer a threat, so it finds the moves that
/// leave two threats (a win in three plies), checked by brute force.
#[test]
fn one_ply_search_finds_double_threats() {
    let count = if cfg!(debug_assertions) { 3 } else { 10 };
    let cases = first_positions_where(0xd0b1, count, |pos| double_threat_move(pos).is_some());
    assert!(cases.len() >= count / 2, "{} cases", cases.len());
    for case in cases {
        let (mut s, mut pos) = replay(&case);
        s.ok("param max_depth 1");
        let me = pos.to_move();
        let side = if me == Color::Black { "b" } else { "w" };
        let answer = s.ok(&format!("genmove {side}"));
        pos.play(pos.parse_move(&answer).unwrap());
        assert!(
            pos.outcome() == Some(Outcome::Win(me)) || !can_block(&mut pos),
            "{side} missed a double threat after {case:?}: played {answer}"
        );
    }
}

/// Whether every move of the side to move leaves the opponent a double
/// threat (the side to move is lost in four plies), with no immediate
/// tactics first: no win in one for either side.
fn lost_to_a_double_threat(pos: &mut Onyx) -> bool {
    if has_win_in_one(pos) || opponent_threatens(pos) {
        return false;
    }
    // A cheap filter: the opponent has a double threat right now.
    pos.play_null();
    let now = double_threat_move(pos).is_some();
    pos.undo();
    now && moves_of(pos).into_iter().all(|m| {
        pos.play(m);
        let lost = pos.outcome().is_none() && double_threat_move(pos).is_some();
        pos.undo();
        lost
    })
}

/// A short forced loss is seen one ply deeper than the last: a search of
/// depth 2 from a position where every move leaves the opponent a double
/// threat (found by brute force) reports the loss, through the threat
/// extension at its leaves. (Every score there is a loss, so the windows
/// are mate scores and no pruning near the horizon applies.)
#[test]
fn two_ply_search_sees_the_opponents_double_threats() {
    let count = if cfg!(debug_assertions) { 2 } else { 6 };
    let cases = first_positions_where(0x2d7, count, lost_to_a_double_threat);
    assert!(cases.len() >= count / 2, "{} cases", cases.len());
    for case in cases {
        let (mut s, pos) = replay(&case);
        let side = if pos.to_move() == Color::Black {
            "b"
        } else {
            "w"
        };
        let a = s.ok(&format!("analyze {side}"));
        assert!(
            a.starts_with("info depth 2 score loss "),
            "{side} did not see the double threat after {case:?}: {a}"
        );
    }
}

#[test]
fn seed_makes_the_random_players_repeatable() {
    for player in ["random", "mcts"] {
        let mut s = quick(&[
            &format!("param player {player}"),
            "param move_time 0",
            "param max_depth 1",
            "boardsize 8",
        ]);
        let mut answers = Vec::new();
        for _ in 0..2 {
            s.ok("param seed 5");
            answers.push((s.ok("reg_genmove b"), s.ok("reg_genmove w")));
        }
        assert_eq!(answers[0], answers[1], "{player}");
    }
}

/// The only winning move also captures: genmove answers the bare point.
#[test]
fn genmove_answers_a_capture_without_marks() {
    let mut s = quick(&["start blank"]);
    s.ok(&format!(
        "setup black {} {} F7",
        column('E', 1..=5),
        column('D', 6..=12)
    ));
    s.ok("setup white D5 F6 E7");
    assert!(s.legal().contains(&"E6*".to_string()));
    assert_eq!(s.ok("reg_genmove b"), "E6");
    assert_eq!(s.ok("genmove b"), "E6");
    assert_eq!(s.ok("final_score"), "B+");
    let board = s.ok("showboard");
    assert!(
        board.contains(" 7 . - . - . - X - . - X - . - . "),
        "{board}"
    );
    assert!(
        board.contains(" 6 . - . - . - X - X - . - . - . "),
        "{board}"
    );
}

/// Dense random set-up positions on every size: the searcher and the
/// evaluation (`reg_genmove`, `analyze`) answer legal moves and never fail.
#[test]
fn searcher_survives_dense_random_setups() {
    let mut rng = Rng(0xde5e);
    let sizes: Vec<usize> = if cfg!(debug_assertions) {
        vec![4, 8, 12]
    } else {
        (4..=26).step_by(2).collect()
    };
    for n in sizes {
        for _ in 0..2 {
            let mut s = quick(&[&format!("boardsize {n}"), "start blank"]);
            s.ok("param move_time 0.05");
            let geo = crate::common::onyx_ref::RefGeo::new(n);
            let (mut black, mut white) = (Vec::new(), Vec::new());
            for (p, name) in geo.names.iter().enumerate() {
                let density = if geo.square_of_mid[p].is_some() {
                    10
                } else {
                    25
                };
                match rng.below(100) {
                    x if x < density => black.push(name.clone()),
                    x if x < 2 * density => white.push(name.clone()),
                    _ => {}
                }
            }
            if !black.is_empty() {
                s.ok(&format!("setup black {}", black.join(" ")));
            }
            if !white.is_empty() {
                s.ok(&format!("setup white {}", white.join(" ")));
            }
            if s.raw("final_score").starts_with('=') {
                continue;
            }
            for color in ["b", "w"] {
                let legal: Vec<String> = s
                    .ok(&format!("legal_moves {color}"))
                    .split_whitespace()
                    .map(bare)
                    .collect();
                let before = s.full_state();
                let m = s.ok(&format!("reg_genmove {color}"));
                assert!(
                    legal.contains(&m) || (legal.is_empty() && m == "resign"),
                    "{n}x{n}: reg_genmove {color} answered {m}"
                );
                if !legal.is_empty() {
                    s.ok(&format!("analyze {color}"));
                }
                assert_eq!(s.full_state(), before);
            }
        }
    }
}
