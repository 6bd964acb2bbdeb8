//! Onyx through the protocol: bad input (answered with `?`, nothing
//! changed), GTP conventions, the real binary on a pipe, and play out of
//! turn.

use crate::common::{Session, run_binary};

/// A game in progress: standard start, a few moves, swap offered.
fn midgame() -> Session {
    Session::with("onyx", &["play b D4", "play w E5", "play b F6"])
}

/// Every line must be answered with `?` and leave the game as it was.
fn assert_rejected(s: &mut Session, lines: &[&str]) {
    let before = s.full_state();
    for line in lines {
        let answer = s.raw(line);
        assert!(
            answer.starts_with('?'),
            "'{}' should fail but answered: {answer}",
            line.escape_debug()
        );
        assert!(answer.ends_with("\n\n"), "{answer:?}");
        assert_eq!(
            s.full_state(),
            before,
            "'{}' changed the game",
            line.escape_debug()
        );
    }
}

#[test]
fn garbage_and_unknown_commands() {
    let mut s = midgame();
    assert_rejected(
        &mut s,
        &[
            "foo",
            "xyzzy 1 2 3",
            "!!!",
            "play-b-D4",
            "PLAYB D4",
            "7",
            "genmove_black",
            "game chess",
            "game",
            "game orcoon_nonsense",
            "\u{e9}l\u{e8}ve",
            "\u{1F600}",
        ],
    );
    assert_eq!(s.err("foo"), "unknown command");
    assert_eq!(s.raw("7 foo"), "?7 unknown command\n\n");
}

#[test]
fn missing_and_extra_arguments() {
    let mut s = midgame();
    assert_rejected(
        &mut s,
        &[
            "play",
            "play w",
            "play w E6 E7",
            "play w E6 extra",
            "genmove",
            "genmove w w",
            "undo 1",
            "boardsize",
            "boardsize 12 10",
            "boardsize 12 12 12",
            "game",
            "game onyx onyx",
            "setup",
            "setup black",
            "setup_player",
            "setup_player b w",
            "perft",
            "perft 1 2",
            "known_command",
            "known_command a b",
            "legal_moves b w",
            "time_settings 1 2",
            "time_settings 1 2 3 4",
            "time_left b 10",
            "time_left b 10 0 0",
            "komi",
            "komi 1 2",
            "start",
            "start standard blank",
            "param a b c",
            "gogui-setup black",
        ],
    );
}

#[test]
fn invalid_colours() {
    let mut s = midgame();
    assert_rejected(
        &mut s,
        &[
            "play x E6",
            "play blue E6",
            "play bw E6",
            "play 1 E6",
            "play E6 w",
            "genmove red",
            "legal_moves purple",
            "setup purple A1",
            "setup_player nobody",
            "time_left green 10 0",
            "gogui-setup grey A1",
        ],
    );
    // Colours are case-insensitive.
    s.ok("play WHITE E7");
    s.ok("play Black E8");
}

#[test]
fn moves_off_the_board_and_malformed_points() {
    let mut s = midgame();
    assert_rejected(
        &mut s,
        &[
            "play w M1",
            "play w A13",
            "play w A0",
            "play w A00",
            "play w A012",
            "play w L13",
            "play w Z9",
            "play w A-1",
            "play w 1A",
            "play w A",
            "play w 12",
            "play w CD12",
            "play w DF12",
            "play w DE13",
            "play w DE21",
            "play w ED12",
            "play w DE",
            "play w DEF123",
            "play w DE1213",
            "play w LM1112",
            "play w KL1213",
            "play w DE0",
            "play w D4.",
            "play w D 4",
            "play w *",
            "play w **",
            "play w E6*x",
            "play w pass",
            "play w resign",
            "play w \u{c4}1",
        ],
    );
    // The well-formed neighbour of those is fine.
    s.ok("play w DE1112");
}

#[test]
fn taken_points_and_blocked_midpoints() {
    let mut s = midgame();
    // D4, E5, F6 are taken (and A6 of the start). D4 blocks the midpoints
    // DE34 and CD45, E5 blocks EF45 and DE56, F6 blocks FG56 and EF67.
    let legal = s.legal();
    for blocked in ["DE34", "CD45", "EF45", "DE56", "EF67", "FG56"] {
        assert!(!legal.contains(&blocked.to_string()), "{blocked}");
    }
    assert_rejected(
        &mut s,
        &[
            "play w D4",
            "play w E5",
            "play w F6",
            "play w A6",
            "play w G12",
            "play b D4",
            "play w DE34",
            "play w CD45",
            "play w EF45",
            "play w DE56",
            "play w EF67",
            "play w FG56",
            "play b DE34",
            "play w AB67",
        ],
    );
}

#[test]
fn wrong_capture_marks() {
    // Example 4 of the server help: White's D4 captures one pair.
    let mut s = Session::with("onyx", &["start blank"]);
    s.ok("setup black E4 F4 D3 G3");
    s.ok("setup white G4 E3");
    s.ok("setup_player white");
    assert_rejected(
        &mut s,
        &[
            "play w D4**",
            "play w D4***",
            "play w A1*",
            "play w A1**",
            "play w BC12*",
            "play w D4*D4",
        ],
    );
    s.ok("play w d4*");
    // Example 5: Black's D3 captures two pairs.
    let mut s = Session::with("onyx", &["start blank"]);
    s.ok("setup black C4 E4 C2");
    s.ok("setup white D4 C3 E3 D2 F2 G2");
    assert_rejected(&mut s, &["play b D3*", "play b D3***", "play b D3****"]);
    s.ok("play b D3**");
}

#[test]
fn swap_at_the_wrong_time() {
    let mut s = Session::with("onyx", &[]);
    // As the first move, by either colour.
    assert_rejected(&mut s, &["play b swap", "play w swap"]);
    s.ok("play b D4");
    // By Black (out of turn) after Black's first move.
    assert_rejected(&mut s, &["play b swap", "play b SWAP"]);
    s.ok("play w E5");
    // As the third move.
    assert_rejected(&mut s, &["play b swap", "play w swap"]);
    s.ok("play b F6");
    assert_rejected(&mut s, &["play w swap", "play b swap"]);
}

#[test]
fn moves_after_the_end() {
    let mut s = Session::with("onyx", &["start blank"]);
    s.ok("setup black D1 D2 D3 D4 D5 D6 D7 D8 D9 D10 D11");
    s.ok("play b D12");
    assert_eq!(s.ok("final_score"), "B+");
    assert_rejected(
        &mut s,
        &[
            "play w A1",
            "play b A1",
            "play w swap",
            "play w AB12",
            "play w D1",
            "genmove w",
            "genmove b",
            "reg_genmove b",
            "analyze w",
            "setup white A1",
            "setup_player white",
        ],
    );
}

#[test]
fn unacceptable_board_sizes() {
    let mut s = midgame();
    for (line, needle) in [
        ("boardsize 7", "unacceptable size"),
        ("boardsize 30", "unacceptable size"),
        ("boardsize 2", "unacceptable size"),
        ("boardsize 0", "unacceptable size"),
        ("boardsize 28", "unacceptable size"),
        ("boardsize x", ""),
        ("boardsize -4", ""),
        ("boardsize 12.0", ""),
        ("boardsize 99999999999999999999999", ""),
    ] {
        let before = s.full_state();
        let e = s.err(line);
        assert!(e.contains(needle), "{line}: {e}");
        assert_eq!(s.full_state(), before, "{line}");
    }
    // Every even size from 4 to 26 is accepted; odd ones are not.
    for n in 3..=27 {
        let mut s = Session::with("onyx", &[]);
        if n % 2 == 0 {
            s.ok(&format!("boardsize {n}"));
            assert_eq!(s.ok("gogui-rules_board_size"), n.to_string());
        } else {
            s.err(&format!("boardsize {n}"));
            assert_eq!(s.ok("gogui-rules_board_size"), "12");
        }
    }
    // A standard start needs a size divisible by 4: on 10x10 the blank one.
    let mut s = Session::with("onyx", &["boardsize 10"]);
    assert_eq!(s.legal().len(), 100 + 40);
    assert_rejected(&mut s, &["start standard", "start nonsense"]);
}

#[test]
fn bad_perft_time_and_param_values() {
    let mut s = midgame();
    assert_rejected(
        &mut s,
        &[
            "perft 99",
            "perft 9",
            "perft -1",
            "perft x",
            "perft 1.5",
            "perft 99999999999999999999",
            "time_settings -1 0 0",
            "time_settings 1e30 0 0",
            "time_settings nan 0 0",
            "time_settings inf 0 0",
            "time_settings 10 -5 1",
            "time_settings 10 5 -1",
            "time_settings 10 5 1.5",
            "time_settings 10 5 99999999999",
            "time_settings x y z",
            "time_left b 1e30 0",
            "time_left b nan 0",
            "time_left b inf 0",
            "time_left b 10 -1",
            "time_left b 10 99999999999",
            "time_left b ten 0",
            "param nonsense",
            "param nonsense 1",
            "param max_depth 0",
            "param max_depth 65",
            "param max_depth -1",
            "param max_depth x",
            "param max_depth 2.5",
            "param move_time -1",
            "param move_time nan",
            "param move_time inf",
            "param move_time 1e9",
            "param move_time soon",
            "param seed -1",
            "param seed x",
            "param player chess",
            "param player alphabeta mcts",
            "param hash 0",
            "param hash 65537",
            "param hash -1",
            "param hash big",
            "param threads 0",
            "param threads 257",
            "param threads two",
            "param verbose maybe",
            "komi x",
            "analyze",
            "analyze x",
            "analyze b w",
            "bench 0",
            "bench 13",
            "bench x",
            "bench 1 2",
        ],
    );
    // The same commands with sensible values are accepted.
    s.ok("perft 0");
    s.ok("time_settings 600 0 0");
    s.ok("time_left b 300 0");
    s.ok("param max_depth 3");
    assert_eq!(s.ok("param max_depth"), "3");
    s.ok("param MOVE_TIME 0.5");
    assert_eq!(s.ok("param move_time"), "0.5");
    s.ok("komi 6.5");
    for player in ["mcts", "greedy", "random", "alphabeta"] {
        s.ok(&format!("param player {player}"));
        assert_eq!(s.ok("param player"), player);
    }
    s.ok("param threads 2");
    s.ok("param hash 2");
    s.ok("param verbose false");
}

#[test]
fn analyze_and_bench_leave_the_game_alone() {
    let mut s = midgame();
    s.ok("param max_depth 2");
    s.ok("param move_time 0.2");
    let before = s.full_state();
    for color in ["w", "b"] {
        let a = s.ok(&format!("analyze {color}"));
        assert!(a.contains("eval"), "{a}");
        assert_eq!(s.full_state(), before, "analyze {color}");
    }
    s.ok("bench 1");
    assert_eq!(s.full_state(), before);
    // After the end, analyze is refused.
    let mut s = Session::with("onyx", &["start blank"]);
    s.ok("setup black E1 E2 E3 E4 E5 E6 E7 E8 E9 E10 E11 E12");
    assert_eq!(s.ok("final_score"), "B+");
    assert_rejected(&mut s, &["analyze b", "analyze w"]);
}

#[test]
fn setup_errors_change_nothing() {
    let mut s = Session::with("onyx", &[]);
    // All or nothing: the bad point makes the whole command fail.
    assert_rejected(
        &mut s,
        &[
            "setup black A1 B2 M13",
            "setup white C3 CD12",
            "setup empty A6 Z1",
            "gogui-setup black A1 white Q99",
            "gogui-setup black A1 white",
        ],
    );
    // Not after the first move.
    let mut s = midgame();
    assert_rejected(
        &mut s,
        &["setup black A1", "setup empty D4", "setup_player white"],
    );
}

#[test]
fn no_game_selected() {
    let mut s = Session::new();
    for line in ["play b D4", "showboard", "legal_moves", "undo", "perft 1"] {
        let e = s.err(line);
        assert!(e.contains("game"), "{line}: {e}");
    }
    s.err("game chess");
    s.err("start blank");
    s.ok("name");
    s.ok("game ONYX");
    s.ok("showboard");
}

#[test]
fn gtp_conventions() {
    let mut s = Session::with("onyx", &[]);
    assert_eq!(s.raw("12 name"), "=12 crosscut\n\n");
    assert_eq!(s.raw("name"), "= crosscut\n\n");
    assert_eq!(s.raw("0 protocol_version"), "=0 2\n\n");
    assert_eq!(s.raw("protocol_version"), "= 2\n\n");
    assert!(s.raw("3 version").starts_with("=3 "));
    assert_eq!(s.raw("5 play b D4"), "=5 \n\n");
    assert_eq!(s.raw("6 undo"), "=6 \n\n");
    assert!(s.raw("8 play b M1").starts_with("?8 "));
    // Comments, blank lines: no answer at all.
    for line in ["", "   ", "\t", "# a comment", "   # another", "\r\n", "\n"] {
        assert_eq!(s.gtp.execute(line), None, "{line:?}");
    }
    // A comment after a command is cut off.
    assert_eq!(s.raw("name # what is your name"), "= crosscut\n\n");
    assert_eq!(s.raw("9 play b D4 # centre-ish"), "=9 \n\n");
    s.ok("undo");
    // Tabs separate like spaces; control characters are dropped.
    assert_eq!(s.raw("10\tplay\tb\tD4"), "=10 \n\n");
    s.ok("undo");
    assert_eq!(s.raw("na\u{1}me\r"), "= crosscut\n\n");
    assert_eq!(s.raw("pl\u{7}ay b D\u{0}4\r\n"), "= \n\n");
    s.ok("undo");
    // Case-insensitive command names.
    assert_eq!(s.raw("NAME"), "= crosscut\n\n");
    // known_command and list_commands.
    assert_eq!(s.ok("known_command play"), "true");
    assert_eq!(s.ok("known_command genmove"), "true");
    assert_eq!(s.ok("known_command start"), "true");
    assert_eq!(s.ok("known_command frobnicate"), "false");
    let list = s.ok("list_commands");
    let commands: Vec<&str> = list.lines().collect();
    for c in [
        "protocol_version",
        "name",
        "version",
        "known_command",
        "list_commands",
        "quit",
        "boardsize",
        "clear_board",
        "play",
        "genmove",
        "undo",
        "showboard",
        "final_score",
    ] {
        assert!(commands.contains(&c), "{c} not listed");
    }
    for c in &commands {
        assert_eq!(s.ok(&format!("known_command {c}")), "true", "{c}");
    }
    // Every answer ends with exactly one blank line, also multi-line ones.
    let board = s.raw("showboard");
    assert!(board.starts_with("= "));
    assert!(board.ends_with("\n\n") && !board.ends_with("\n\n\n"));
    assert!(!board.trim_end().contains("\n\n"));
}

#[test]
fn binary_end_to_end() {
    // EOF without quit is a clean exit; every line is answered in order.
    let input = "1 protocol_version\n2 name\ngame onyx\n# comment\n\n3 play b D4\n4 play w D4\n5 final_score\n";
    let (out, ok) = run_binary(input.as_bytes());
    assert!(ok, "exit status");
    let answers: Vec<&str> = out.split_terminator("\n\n").collect();
    assert_eq!(answers.len(), 6, "{out}");
    assert_eq!(answers[..4], ["=1 2", "=2 crosscut", "= ", "=3 "]);
    assert!(
        answers[4].starts_with("?4 ") && answers[4].contains("D4"),
        "{out}"
    );
    assert!(answers[5].starts_with("?5 "), "{out}");
    assert!(out.ends_with("\n\n") && !out.ends_with("\n\n\n"));
    // quit: answered, then the rest is ignored.
    let (out, ok) = run_binary(b"game onyx\n7 quit\nname\n");
    assert!(ok);
    assert_eq!(out, "= \n\n=7 \n\n");
    // Ids are echoed exactly as written, longer than any integer type or
    // with leading zeros, on success and on failure alike.
    let long = "123456789012345678901234567890";
    let input = format!("007 name\n{long} bogus\n{long}\n");
    let (out, ok) = run_binary(input.as_bytes());
    assert!(ok);
    let answers: Vec<&str> = out.split_terminator("\n\n").collect();
    assert_eq!(answers[0], "=007 crosscut");
    assert!(answers[1].starts_with(&format!("?{long} ")), "{out}");
    assert!(answers[2].starts_with(&format!("?{long} ")), "{out}");
    // Empty input.
    let (out, ok) = run_binary(b"");
    assert!(ok);
    assert_eq!(out, "");
    // A last line without a newline is still answered; CRLF line ends work.
    let (out, ok) = run_binary(b"name\r\nprotocol_version");
    assert!(ok);
    assert_eq!(out, "= crosscut\n\n= 2\n\n");
    // Input that is not UTF-8 gets an error answer, and the session goes on.
    let (out, ok) = run_binary(b"na\xffme\nname\n");
    assert!(ok);
    assert!(out.starts_with('?'), "{out}");
    assert!(out.ends_with("\n\n= crosscut\n\n"), "{out}");
    // Its id is echoed; a comment needs no answer whatever bytes it holds,
    // and a command before such a comment runs as usual.
    let (out, ok) = run_binary(b"12 na\xffme\n# caf\xe9\n\xe9 # \xff\nname # caf\xe9\n");
    assert!(ok);
    assert_eq!(
        out,
        "?12 syntax error: input is not UTF-8\n\n\
         ? syntax error: input is not UTF-8\n\n= crosscut\n\n"
    );
}

#[test]
fn binary_full_game() {
    // A short decided game on a pipe: Black's column E on a blank board.
    let mut input = String::from("game onyx\nstart blank\n");
    for r in 1..=12 {
        input.push_str(&format!("play b E{r}\n"));
        if r < 12 {
            input.push_str(&format!("play w A{r}\n"));
        }
    }
    input.push_str("final_score\nquit\n");
    let (out, ok) = run_binary(input.as_bytes());
    assert!(ok);
    let answers: Vec<&str> = out.split("\n\n").filter(|a| !a.is_empty()).collect();
    assert_eq!(answers.len(), 2 + 23 + 2);
    assert!(answers[..25].iter().all(|a| *a == "= "), "{out}");
    assert_eq!(answers[25], "= B+");
}

// ---------------------------------------------------------------------------
// Play out of turn.

#[test]
fn play_out_of_turn_hands_the_turn_over() {
    let mut s = Session::with("onyx", &[]);
    let start = s.full_state();
    assert_eq!(s.ok("gogui-rules_side_to_move"), "black");
    // White plays while Black is to move: then Black is to move again.
    s.ok("play w D4");
    assert_eq!(s.ok("gogui-rules_side_to_move"), "black");
    assert!(s.ok("showboard").contains("black to move"));
    // No swap after that: it was not Black's first move.
    assert!(!s.legal().contains(&"swap".to_string()));
    // Black twice in a row.
    s.ok("play b E5");
    s.ok("play b E6");
    assert_eq!(s.ok("gogui-rules_side_to_move"), "white");
    let three = s.full_state();
    // undo takes back a move and the handed-over turn with it.
    s.ok("play w F7");
    s.ok("undo");
    assert_eq!(s.full_state(), three);
    s.ok("undo"); // E6, played out of turn
    assert_eq!(s.ok("gogui-rules_side_to_move"), "white");
    s.ok("undo"); // E5
    assert_eq!(s.ok("gogui-rules_side_to_move"), "black");
    s.ok("undo"); // D4, played out of turn
    assert_eq!(s.full_state(), start);
    s.err("undo");
    assert_eq!(s.full_state(), start);
}

#[test]
fn out_of_turn_legal_moves_and_captures() {
    // Example 4 position, Black to move; White's capture played out of turn.
    let mut s = Session::with("onyx", &["start blank"]);
    s.ok("setup black E4 F4 D3 G3");
    s.ok("setup white G4 E3");
    let start = s.full_state();
    let white = s.ok("legal_moves w");
    assert!(white.split(' ').any(|m| m == "D4*"), "{white}");
    let black = s.ok("legal_moves b");
    assert!(black.split(' ').any(|m| m == "D4"), "{black}");
    assert_eq!(s.full_state(), start, "legal_moves w changed the game");
    s.ok("play w D4*");
    assert_eq!(s.ok("gogui-rules_side_to_move"), "black");
    let board = s.ok("showboard");
    assert!(
        board.contains(" 3 . - . - . - . - O - . - X - . "),
        "{board}"
    );
    s.ok("undo");
    assert_eq!(s.full_state(), start);
    // A rejected out-of-turn move changes nothing either.
    assert_rejected(&mut s, &["play w D4**", "play w E4", "play w DE34"]);
}

#[test]
fn out_of_turn_win_and_undo() {
    let mut s = Session::with("onyx", &["start blank"]);
    s.ok(&format!(
        "setup white {}",
        (b'A'..=b'K')
            .map(|c| format!("{}7", c as char))
            .collect::<Vec<_>>()
            .join(" ")
    ));
    let start = s.full_state();
    s.ok("play w L7");
    assert_eq!(s.ok("final_score"), "W+");
    s.ok("undo");
    assert_eq!(s.full_state(), start);
}

#[test]
fn undo_at_the_start_and_after_setup() {
    let mut s = Session::with("onyx", &["start blank"]);
    s.ok("setup black A1");
    s.ok("setup_player white");
    let start = s.full_state();
    assert_rejected(&mut s, &["undo"]);
    s.ok("play w B1");
    s.ok("undo");
    assert_eq!(s.full_state(), start);
}

#[test]
fn legal_moves_are_sorted_and_match_gogui() {
    let mut s = midgame();
    let legal = s.legal();
    // Board order (protocol.md): grid points row by row, then midpoints.
    let mut sorted = legal.clone();
    sorted.sort_by_key(|m| crate::common::board_order(m));
    assert_eq!(legal, sorted);
    assert_eq!(s.ok("gogui-rules_legal_moves"), s.ok("legal_moves"));
    assert_eq!(s.ok("gogui-rules_board"), s.ok("showboard"));
}

#[test]
fn start_choice_is_kept_by_boardsize_and_clear_board() {
    let mut s = Session::with("onyx", &["start blank", "play b D4"]);
    s.ok("clear_board");
    assert_eq!(s.legal().len(), 204, "clear_board keeps the blank start");
    s.ok("boardsize 8");
    assert_eq!(s.legal().len(), 64 + 24, "boardsize keeps the blank start");
    s.ok("start standard");
    assert_eq!(s.legal().len(), 64 + 24 - 8 - 4);
    // 10x10 has no standard start: blank, and back to standard on 12x12.
    s.ok("boardsize 10");
    assert_eq!(s.legal().len(), 140);
    s.ok("boardsize 12");
    assert_eq!(s.legal().len(), 192);
    s.ok("play b D4");
    s.ok("clear_board");
    assert_eq!(s.legal().len(), 192);
    assert_eq!(s.ok("gogui-rules_board_size"), "12");
}

#[test]
fn out_of_range_times_are_syntax_errors() {
    // protocol.md: "Out-of-range values answer a syntax error and change
    // nothing."
    let mut s = midgame();
    for line in [
        "time_settings -1 0 0",
        "time_settings 1e30 0 0",
        "time_settings 10 -5 1",
        "time_settings 10 5 999999",
        "time_left b 1e30 0",
        "time_left w 10 999999",
    ] {
        let before = s.full_state();
        let e = s.err(line);
        assert!(e.starts_with("syntax error"), "{line}: {e}");
        assert_eq!(s.full_state(), before);
    }
}

#[test]
fn new_games_cannot_be_undone() {
    for reset in ["clear_board", "boardsize 8", "start blank", "game onyx"] {
        let mut s = midgame();
        s.ok(reset);
        let before = s.full_state();
        assert_eq!(s.err("undo"), "cannot undo", "{reset}");
        assert_eq!(s.full_state(), before, "{reset}");
    }
}

/// The engine's answers to `input` when it runs under an 8 GB
/// address-space limit; fails the test when the engine does not exit
/// normally (an allocation failure aborts it).
fn answers_with_8_gb(input: &[u8]) -> String {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 8000000; exec '{}'",
            env!("CARGO_BIN_EXE_crosscut")
        ))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "engine died: {:?}, output {text:?}",
        out.status
    );
    text
}

/// A table bigger than the memory the engine may have is refused with `?`
/// and the engine goes on (run under an 8 GB address-space limit). Which
/// check refuses it depends on the machine: the allocation under the limit,
/// or, when other processes leave less than 16 GB free, the check of the
/// available memory before it.
#[test]
fn huge_hash_request_does_not_kill_the_engine() {
    let text = answers_with_8_gb(b"game onyx\nparam hash 16000\nparam hash\nname\n");
    assert!(
        text.contains("? cannot allocate") || text.contains("? a 16000 MB table does not fit"),
        "{text:?}"
    );
    assert!(text.ends_with("= 16\n\n= crosscut\n\n"), "{text:?}");
}

/// `swap off` (every game's option) takes the swap out of the game: after
/// Black's first move White is not offered it, `play w swap` is refused
/// and changes nothing; the choice survives `boardsize` and `clear_board`
/// until `swap on` gives the swap back.
#[test]
fn swap_off_through_the_protocol() {
    for (game, first) in [
        ("onyx", "D4"),
        ("orcoon", "C3"),
        ("akron", "C3"),
        ("hex", "c3"),
    ] {
        let mut s = Session::with(game, &[]);
        assert!(s.ok("list_commands").lines().any(|l| l == "swap"), "{game}");
        assert_eq!(s.ok("known_command swap"), "true");
        assert!(s.err("swap maybe").contains("on or off"), "{game}");
        s.ok("swap off");
        for reset in ["", "boardsize 8", "clear_board"] {
            if !reset.is_empty() {
                s.ok(reset);
            }
            s.ok(&format!("play b {first}"));
            let legal = s.ok("legal_moves white");
            assert!(!legal.split_whitespace().any(|m| m == "swap"), "{game}");
            assert!(!legal.is_empty(), "{game}");
            assert!(s.err("play w swap").contains("swap is off"), "{game}");
            assert_rejected(&mut s, &["play w swap", "play w SWAP"]);
            s.ok("undo");
        }
        s.ok("swap on");
        s.ok(&format!("play b {first}"));
        assert!(
            s.ok("legal_moves white")
                .split_whitespace()
                .any(|m| m == "swap")
        );
        s.ok("play w swap");
    }
}

/// The solver's table, allocated only at the first `solve`, is checked
/// when set, as the searcher's is: under an 8 GB address-space limit
/// `solve_hash 16000` is refused with `?` (whatever memory the machine
/// has), the size and the game stay, and `solve` then answers instead of
/// aborting the process (an allocation failure is not a panic that can be
/// caught).
#[test]
fn huge_solve_hash_is_refused_and_solve_still_answers() {
    let text = answers_with_8_gb(
        b"game onyx\nboardsize 4\nstart blank\nplay b A1\nshowboard\n\
          param solve_hash 16000\nparam solve_hash\nshowboard\nsolve w 1\n\
          param solve_hash 2\nparam solve_hash\nname\n",
    );
    let answers: Vec<&str> = text.split("\n\n").collect();
    assert!(
        answers[5].starts_with("? cannot allocate a 16000 MB table")
            || answers[5].starts_with("? a 16000 MB table does not fit"),
        "{text:?}"
    );
    assert_eq!(answers[6], "= 64", "{text:?}");
    assert_eq!(answers[7], answers[4], "the game changed");
    assert!(answers[8].starts_with("= "), "{text:?}");
    assert_eq!(&answers[9..], ["= ", "= 2", "= crosscut", ""], "{text:?}");
}
