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
    // After the end only stones on empty cells are taken (HexGui's clicks).
    for bad in [
        "genmove w",
        "play w swap",
        "play w a1",
        "play w zz",
        "play w pass",
    ] {
        s.err(bad);
        assert_eq!(s.full_state(), over, "after '{bad}'");
    }
    s.ok("undo");
    s.err("final_score");
}

/// A move after the end is refused (RULINGS), and nothing changes. Once
/// HexGui has connected (it asks `hexgui-analyze_commands`), its clicks
/// after the end are acknowledged without being played, and its Back
/// (`undo`) takes them back first, one by one: HexGui's board and ours
/// stay equal (a later Back undoes the right move), and the game, its
/// record and its result never change.
#[test]
fn moves_after_the_end_keep_both_boards_equal() {
    let mut s = Session::with("hex", &["boardsize 3"]);
    for m in ["b a1", "w b1", "b a2", "w b2", "b a3"] {
        s.ok(&format!("play {m}"));
    }
    assert_eq!(s.ok("final_score"), "B+");
    let won = s.full_state();
    assert!(s.err("play w c1").contains("game is over"));
    assert_eq!(s.full_state(), won);
    // HexGui connects: its clicks after the end are taken aside.
    s.ok("hexgui-analyze_commands");
    s.ok("play w c1");
    s.ok("play b c3");
    s.ok("play w c2");
    assert_eq!(s.full_state(), won, "the game does not change");
    assert_eq!(s.ok("final_score"), "B+");
    // Occupied cells, cells clicked already and non-cells stay refused.
    for bad in ["play b a1", "play b c3", "play b z9", "play x c1"] {
        s.err(bad);
    }
    assert!(s.legal().is_empty(), "no legal move listed after the end");
    s.err("genmove b");
    // Back: the three clicks, then the game's own last move.
    for _ in 0..3 {
        s.ok("undo");
        assert_eq!(s.full_state(), won);
    }
    s.ok("undo");
    s.err("final_score");
    assert_ne!(s.full_state(), won);
    // Other games refuse every move after the end too.
    let mut o = Session::with("orcoon", &["boardsize 3", "play b pass"]);
    assert!(o.err("play w A1").contains("game is over"));
}

/// What HexGui sends on connect and in a game, through the real binary:
/// empty answers are `= ` with the space (HexGui's Benzene build calls
/// `=` alone an invalid response), `boardsize W H` is taken when square,
/// and the analyze list is in GoGui's format with commands we answer.
#[test]
fn hexgui_connects_and_plays() {
    let (out, ok) = run_binary(
        b"game hex\nname\nversion\nhexgui-analyze_commands\nboardsize 9 9\nboardsize 9 7\n\
          boardsize 9 x\nplay black e5\nplay white swap-pieces\ngenmove white\nundo\nshowboard\nquit\n",
    );
    assert!(ok, "{out}");
    let answers: Vec<&str> = out.split_terminator("\n\n").collect();
    assert_eq!(answers.len(), 13, "{out}");
    assert_eq!(answers[0], "= ", "game hex");
    let answers = &answers[1..];
    assert_eq!(answers[0], "= crosscut");
    assert_eq!(answers[3], "= ", "{out}");
    assert!(answers[4].starts_with("? unacceptable size") && answers[4].contains("square"));
    assert!(answers[5].starts_with("? syntax error"), "{out}");
    assert_eq!(answers[6..8], ["= ", "= "], "{out}");
    assert!(
        answers[8].starts_with("= ") && answers[8].len() > 3,
        "{out}"
    );
    assert_eq!(answers[9], "= ");
    assert!(answers[10].contains(". x ."), "e5 on 9x9: {out}");
    assert_eq!(answers[11], "= ");
    // The analyze menu: type/label/command, types HexGui knows, commands
    // the engine knows (with the colour wildcard filled in).
    let menu = answers[2].strip_prefix("= ").unwrap();
    let mut s = Session::with("hex", &[]);
    let known_types = [
        "inferior", "string", "param", "plist", "var", "pspairs", "gfx",
    ];
    for line in menu.lines() {
        let parts: Vec<&str> = line.split('/').collect();
        assert!((3..=5).contains(&parts.len()), "{line}");
        assert!(known_types.contains(&parts[0]), "{line}");
        let command = parts[2].replace("%m", "b");
        let name = command.split_whitespace().next().unwrap();
        assert_eq!(s.ok(&format!("known_command {name}")), "true", "{line}");
    }
    assert!(
        menu.contains("inferior/") && menu.contains("vc-build %m"),
        "{menu}"
    );
    // `boardsize N N` works for every game; GoGui mode too.
    for game in ["onyx", "orcoon", "akron", "hex"] {
        let mut s = Session::with(game, &["boardsize 8 8"]);
        assert_eq!(s.ok("gogui-rules_board_size"), "8", "{game}");
        s.err("boardsize 8 6");
        assert_eq!(s.ok("gogui-rules_board_size"), "8", "{game}");
    }
}

/// Once HexGui has connected (it asks `hexgui-analyze_commands`), the
/// engine's swap is written `swap-pieces`, Benzene's name: Selinger's
/// HexGui reads `swap` as swap-sides, which it takes back without `undo`.
#[test]
fn swap_is_written_swap_pieces_for_hexgui() {
    // On 3x3 the centre wins, so White's proven best answer is the swap.
    let mut s = Session::with(
        "hex",
        &["boardsize 3", "play b b2", "param genmove_solve 1"],
    );
    assert_eq!(s.ok("reg_genmove w"), "swap");
    s.ok("hexgui-analyze_commands");
    assert_eq!(s.ok("reg_genmove w"), "swap-pieces");
    assert_eq!(s.ok("genmove w"), "swap-pieces");
    assert!(s.ok("position").contains(r#""history":["b2","swap"]"#));
    s.ok("undo");
    s.ok("play w swap-pieces");
}

/// HexGui's Stop writes `# interrupt`: it stops a search as `stop` does,
/// is answered by nothing (it is a comment), and the next command runs.
#[test]
fn interrupt_comment_stops_a_search() {
    use crate::common::engine::Engine;
    use std::time::{Duration, Instant};
    let mut e = Engine::start(&["--game", "hex"], std::process::Stdio::null());
    assert_eq!(e.cmd("param move_time 0"), "= ");
    assert_eq!(e.cmd("known_command gogui-interrupt"), "= true");
    e.send_raw(b"genmove b\n");
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    e.send_raw(b"# interrupt\n");
    let mv = e
        .answer_within(Duration::from_secs(10))
        .expect("genmove answered after # interrupt");
    assert!(mv.starts_with("= ") && mv.len() > 3, "{mv}");
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(
        e.cmd("name"),
        "= crosscut",
        "no answer to the comment itself"
    );
    // A solve without a limit, stopped the same way.
    assert_eq!(e.cmd("param_dfpn timelimit 0"), "= ");
    e.send_raw(b"dfpn-solve-state b\n");
    std::thread::sleep(Duration::from_millis(300));
    e.send_raw(b"# interrupt\n");
    let solved = e
        .answer_within(Duration::from_secs(10))
        .expect("solve stopped");
    assert_eq!(solved, "= empty");
    assert!(e.finish().success());
}

/// Solve: `dfpn-solve-state` names the winner as `solve` decides it, and
/// with `param_dfpn use_guifx 1` writes its progress live as `gogui-gfx:`
/// blocks HexGui's dfpn display reads, before the answer.
#[test]
fn solve_state_answers_the_winner_with_live_progress() {
    let mut s = Session::with("hex", &["boardsize 4", "play b a1", "play w d4"]);
    for (mover, other) in [("b", "white"), ("w", "black")] {
        let solve = s.ok(&format!("solve {mover}"));
        let winner = s.ok(&format!("dfpn-solve-state {mover}"));
        if solve.starts_with("win") {
            assert!(other != winner && winner != "empty", "{solve}: {winner}");
        } else {
            assert_eq!(winner, other, "{solve}");
        }
    }
    assert!(s.ok("param_dfpn").contains("use_guifx 0"));
    s.err("param_dfpn use_guifx 2");
    s.err("param_dfpn frob 1");
    s.err("dfpn-solve-state");
    let (out, ok) = run_binary(
        b"game hex\nboardsize 9\nparam_dfpn use_guifx 1\nparam_dfpn timelimit 2.5\n\
          dfpn-solve-state b\nparam_dfpn use_guifx 0\nquit\n",
    );
    assert!(ok, "{out}");
    let blocks: Vec<&str> = out.split_terminator("\n\n").collect();
    let gfx: Vec<&&str> = blocks
        .iter()
        .filter(|b| b.starts_with("gogui-gfx:"))
        .collect();
    assert!(!gfx.is_empty(), "{out}");
    for b in &gfx {
        let lines: Vec<&str> = b.lines().collect();
        assert_eq!(lines[..3], ["gogui-gfx:", "dfpn", "VAR"], "{b}");
        // Every move's value for Black: W, L or its proof number; the
        // empty board searches one of each pair of half-turn twins (41).
        let labels: Vec<&str> = lines[3].split(' ').collect();
        assert_eq!(labels[0], "LABEL", "{b}");
        assert_eq!(labels.len(), 1 + 2 * 41, "{b}");
        for pair in labels[1..].chunks(2) {
            let number = pair[1] == "inf" || pair[1].parse::<u32>().is_ok();
            assert!(number || pair[1] == "W" || pair[1] == "L", "{b}");
        }
        assert!(lines[4].starts_with("TEXT attacker black pn "), "{b}");
    }
    // The gfx blocks come before the solve's answer, which is last but two.
    let answer = blocks.iter().position(|b| *b == "= empty").expect("answer");
    assert_eq!(answer, blocks.len() - 3, "{out}");
    assert!(
        blocks[..answer]
            .iter()
            .rev()
            .take(gfx.len())
            .all(|b| b.starts_with("gogui-gfx:"))
    );
}

/// Hint: `vc-build COLOR` marks with `x` the empty cells outside the set
/// worth considering. Checked against the solver on random 5x5 positions:
/// either every marked cell loses, or every unmarked cell wins (the marked
/// ones are then only needless).
#[test]
fn hint_marks_only_needless_cells() {
    let mut rng = crate::common::Rng(34);
    let mut marked_positions = 0;
    for _ in 0..40 {
        let mut s = Session::with("hex", &["boardsize 5", "param solve_by color"]);
        let stones = 2 + rng.below(6);
        for _ in 0..stones {
            let legal: Vec<String> = s.legal().into_iter().filter(|m| m != "swap").collect();
            let m = &legal[rng.below(legal.len())];
            let mover = s.ok("gogui-rules_side_to_move");
            s.ok(&format!("play {mover} {m}"));
        }
        if s.raw("final_score").starts_with('=') {
            continue;
        }
        let mover = s.ok("gogui-rules_side_to_move");
        let hint = s.ok(&format!("vc-build {mover}"));
        let words: Vec<&str> = hint.split_whitespace().collect();
        assert!(
            words.chunks(2).all(|p| p.len() == 2 && p[1] == "x"),
            "{hint}"
        );
        let marked: Vec<&str> = words.iter().step_by(2).copied().collect();
        if marked.is_empty() {
            continue;
        }
        marked_positions += 1;
        let values: Vec<(String, String)> = s
            .ok(&format!("solve_all {mover}"))
            .lines()
            .map(|l| {
                let mut w = l.split_whitespace();
                (w.next().unwrap().to_string(), w.next().unwrap().to_string())
            })
            .collect();
        let marked_lose = values
            .iter()
            .filter(|(m, _)| marked.contains(&m.as_str()))
            .all(|(_, v)| v == "loss");
        let unmarked_win = values
            .iter()
            .filter(|(m, _)| !marked.contains(&m.as_str()))
            .all(|(_, v)| v == "win");
        assert!(
            marked_lose || unmarked_win,
            "{hint}\n{values:?}\n{}",
            s.ok("showboard")
        );
    }
    assert!(
        marked_positions >= 5,
        "only {marked_positions} positions had a hint"
    );
    // Black a1 a2 a3 on 4x4: every Black move wins (nothing marked); White
    // must play a4 (every other cell marked).
    let mut s = Session::with(
        "hex",
        &["boardsize 4", "setup black a1 a2 a3", "setup white b1 c1"],
    );
    assert_eq!(s.ok("vc-build b"), "");
    // (a4 too when the search finds Black's full connection, which the
    // work limit may leave unfound: then every White move loses.)
    let hint = s.ok("vc-build w");
    assert!(
        hint.starts_with("d1 x b2 x c2 x d2 x b3 x c3 x d3 x") && hint.ends_with("b4 x c4 x d4 x"),
        "{hint}"
    );
    s.err("vc-build");
    s.err("vc-build purple");
    let mut o = Session::with("onyx", &[]);
    assert!(o.err("vc-build b").contains("not a command of onyx"));
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
    assert_eq!(answers[0], "="); // trimmed: `= `
    // Board order: row by row from row 1 (the top in Hex), each from column a.
    assert_eq!(answers[4], "= a1 b1 c1 a2 b2 c2 a3 b3", "{out}");
    assert_eq!(answers[10], "= W+", "{out}");
    // A move after the end is refused; the result stays.
    assert!(answers[11].starts_with('?'), "{out}");
    assert!(answers[12].starts_with('?'), "{out}");
    assert!(answers[13].contains("game over: W+"), "{out}");
    assert!(
        answers[13].contains(" 1  . . x  1"),
        "b1 is not on the board: {out}"
    );
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
