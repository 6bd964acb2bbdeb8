//! Analysis a controller can show: the searcher's best few moves
//! (`param multipv`, `analyze COLOR K`) and `solve_all`'s result for each
//! move as it is decided (its `info solve_all` progress lines).

use crate::common::Session;

/// One `info` line of a multi-PV analysis: (line number, score as a
/// number that orders as the scores do, first move).
fn parse_line(line: &str) -> (usize, i64, String) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = |w: &str| {
        words
            .iter()
            .position(|x| *x == w)
            .unwrap_or_else(|| panic!("no {w} in {line}"))
    };
    let number = words[at("multipv") + 1].parse().expect("a line number");
    let s = at("score");
    let n: i64 = words[s + 2].parse().expect("a score");
    let score = match words[s + 1] {
        "cp" => n,
        "win" => 1_000_000 - n,
        "loss" => -(1_000_000 - n),
        other => panic!("unknown score kind {other} in {line}"),
    };
    (number, score, words[at("pv") + 1].to_string())
}

/// A session on `game` at `size` (swap off) searching to `depth` with no
/// time limit, after `moves`. Hex searches with `two_distance`: its default
/// evaluation proves these small boards at the first ply, and the lines
/// and iterations are what is tested.
fn fixed_depth(game: &str, size: usize, depth: u32, moves: &[&str]) -> Session {
    let eval = if game == "hex" {
        "param eval two_distance"
    } else {
        "param verbose false"
    };
    let mut s = Session::with(
        game,
        &[
            "param verbose false",
            eval,
            "param move_time 0",
            &format!("param max_depth {depth}"),
            "swap off",
            &format!("boardsize {size}"),
        ],
    );
    for m in moves {
        let color = s.ok("gogui-rules_side_to_move");
        s.ok(&format!("play {color} {m}"));
    }
    s
}

/// An answer without its speeds and times (which vary from run to run).
fn timeless(answer: &str) -> String {
    let mut words: Vec<&str> = Vec::new();
    let mut skip = false;
    for w in answer.split(' ') {
        if std::mem::take(&mut skip) {
            continue;
        }
        if w == "nps" || w == "time" {
            skip = true;
        } else {
            words.push(w);
        }
    }
    words.join(" ")
}

/// The first line of `analyze` (its `info` line) with one line asked for:
/// (score, best move).
fn single_best(answer: &str) -> (i64, String) {
    let info = answer.lines().next().expect("an info line");
    assert!(!info.contains("multipv"), "{answer}");
    let with_number = info.replacen("info depth", "info multipv 1 depth", 1);
    let (_, score, mv) = parse_line(&with_number);
    (score, mv)
}

#[test]
fn multipv_gives_distinct_best_moves_led_by_the_single_best() {
    let cases: &[(&str, usize, u32, &[&str])] = &[
        ("hex", 6, 5, &["c3"]),
        ("hex", 5, 4, &[]),
        ("onyx", 8, 4, &[]),
        ("orcoon", 7, 4, &["D4"]),
        ("akron", 6, 3, &[]),
    ];
    for &(game, size, depth, moves) in cases {
        let color = fixed_depth(game, size, depth, moves).ok("gogui-rules_side_to_move");
        let one = fixed_depth(game, size, depth, moves).ok(&format!("analyze {color}"));
        let (score, best) = single_best(&one);
        for k in [2usize, 4] {
            // Asked for by the command, and by the parameter.
            let by_command =
                fixed_depth(game, size, depth, moves).ok(&format!("analyze {color} {k}"));
            let mut s = fixed_depth(game, size, depth, moves);
            s.ok(&format!("param multipv {k}"));
            let by_param = s.ok(&format!("analyze {color}"));
            assert_eq!(timeless(&by_command), timeless(&by_param), "{game}");
            let infos: Vec<&str> = by_command
                .lines()
                .filter(|l| l.starts_with("info "))
                .collect();
            assert_eq!(infos.len(), k, "{game}: {by_command}");
            assert!(by_command.lines().last().unwrap().starts_with("eval "));
            let lines: Vec<(usize, i64, String)> = infos.iter().map(|l| parse_line(l)).collect();
            let numbers: Vec<usize> = lines.iter().map(|l| l.0).collect();
            assert_eq!(numbers, (1..=k).collect::<Vec<_>>(), "{game}");
            // The first line is the move a single line chooses, with its
            // score: the further lines never change it.
            assert_eq!(
                (lines[0].1, &lines[0].2),
                (score, &best),
                "{game}: {by_command}"
            );
            // K distinct moves, each legal.
            let legal = s.ok("legal_moves");
            let mut firsts: Vec<&str> = lines.iter().map(|l| l.2.as_str()).collect();
            for m in &firsts {
                assert!(
                    legal
                        .split_whitespace()
                        .any(|l| l.trim_end_matches('*').eq_ignore_ascii_case(m)),
                    "{game}: {m} is not legal"
                );
            }
            firsts.sort();
            firsts.dedup();
            assert_eq!(firsts.len(), k, "{game}: {by_command}");
            // The further lines in order of their scores.
            for w in lines[1..].windows(2) {
                assert!(w[0].1 >= w[1].1, "{game}: {by_command}");
            }
        }
    }
}

#[test]
fn multipv_scores_do_not_increase_on_a_quiet_position() {
    // Hex 5x5 without swap at depth 4: every line's search agrees, so the
    // scores fall from the first line on.
    let mut s = fixed_depth("hex", 5, 4, &[]);
    let answer = s.ok("analyze b 5");
    let scores: Vec<i64> = answer
        .lines()
        .filter(|l| l.starts_with("info "))
        .map(|l| parse_line(l).1)
        .collect();
    assert_eq!(scores.len(), 5, "{answer}");
    for w in scores.windows(2) {
        assert!(w[0] >= w[1], "{answer}");
    }
}

#[test]
fn multipv_lines_are_written_each_iteration_and_bounded() {
    let mut s = fixed_depth("hex", 4, 3, &[]);
    let lines = s.collect_info();
    s.ok("param verbose true");
    s.ok("analyze b 3");
    let written = lines.lock().unwrap().clone();
    // Three numbered lines for each of the three iterations.
    assert_eq!(written.len(), 9, "{written:?}");
    for (i, l) in written.iter().enumerate() {
        let (n, _, _) = parse_line(l);
        assert_eq!(n, i % 3 + 1, "{written:?}");
        assert!(
            l.starts_with(&format!("info depth {} multipv", i / 3 + 1)),
            "{l}"
        );
    }
    // More lines than moves: one line per move.
    let mut tiny = fixed_depth("hex", 2, 3, &[]);
    let answer = tiny.ok("analyze b 10");
    assert_eq!(answer.lines().filter(|l| l.contains("multipv")).count(), 4);
    // Out of range: refused, nothing changed.
    for bad in [
        "analyze b 0",
        "analyze b 11",
        "analyze b x",
        "analyze b 2 3",
    ] {
        s.err(bad);
    }
    for bad in ["param multipv 0", "param multipv 11", "param multipv -1"] {
        s.err(bad);
    }
    assert_eq!(s.ok("param multipv"), "1");
    s.ok("param multipv 10");
    assert_eq!(s.ok("param multipv"), "10");
}

/// The bench's node counts (its regression signature) do not depend on
/// `param multipv`: bench searches one line.
#[test]
fn bench_is_unchanged_by_multipv() {
    let nodes = |s: &mut Session| -> Vec<String> {
        s.ok("bench 4 hex")
            .lines()
            .map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                let at = w.iter().position(|x| *x == "nodes").unwrap();
                w[at + 1].to_string()
            })
            .collect()
    };
    let mut s = Session::new();
    let one = nodes(&mut s);
    s.ok("param multipv 5");
    assert_eq!(nodes(&mut s), one);
}

#[test]
fn solve_all_reports_each_move_as_it_is_decided() {
    let mut s = Session::with("hex", &["swap off", "boardsize 3", "param solve_by color"]);
    let lines = s.collect_info();
    let answer = s.ok("solve_all");
    let reported: Vec<String> = lines
        .lock()
        .unwrap()
        .iter()
        .filter_map(|l| l.strip_prefix("info solve_all ").map(str::to_string))
        .collect();
    // One line per move, in the answer's order, each the answer's line.
    assert_eq!(reported.len(), 9, "{reported:?}");
    assert_eq!(reported.join("\n"), answer);
    // Silent when not verbose.
    lines.lock().unwrap().clear();
    s.ok("param verbose false");
    s.ok("solve_all");
    assert!(lines.lock().unwrap().is_empty());
}
