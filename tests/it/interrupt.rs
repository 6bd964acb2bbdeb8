//! Stopping: a `stop` line read while a command runs interrupts any search
//! (the move so far is played), `perft` and `solve`; the end of the input stops a
//! search without a time limit, while a timed one runs to its limit.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn engine() -> Child {
    Command::new(env!("CARGO_BIN_EXE_crosscut"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine starts")
}

/// Waits for the engine to exit, at most `limit` (far beyond what the
/// behaviour needs: without it the search would run for hours).
fn exits_within(child: &mut Child, limit: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if child.try_wait().expect("wait").is_some() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    false
}

/// The answers read from the engine's output, one per call.
struct Answers(BufReader<std::process::ChildStdout>);

impl Answers {
    fn next(&mut self) -> String {
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            if self.0.read_line(&mut line).expect("read") == 0 || line == "\n" {
                return answer;
            }
            answer.push_str(&line);
        }
    }
}

#[test]
fn end_of_input_stops_a_search_without_a_time_limit() {
    let mut child = engine();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"game onyx\nparam move_time 0\nparam max_depth 64\ngenmove b\n")
        .unwrap();
    drop(stdin);
    assert!(
        exits_within(&mut child, Duration::from_secs(30)),
        "still searching after the input ended"
    );
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let answers: Vec<&str> = text.split("\n\n").collect();
    assert!(
        answers[3].starts_with("= "),
        "genmove answers a move: {text}"
    );
}

#[test]
fn a_timed_search_runs_to_its_limit_after_the_input_ends() {
    let mut child = engine();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"game onyx\nparam move_time 0.3\ngenmove b\n")
        .unwrap();
    drop(stdin);
    assert!(exits_within(&mut child, Duration::from_secs(30)));
    let out = child.wait_with_output().unwrap();
    let info = String::from_utf8(out.stderr).unwrap();
    // Completed iterations: it was not stopped in its first ply.
    assert!(info.contains("info depth 2 "), "{info}");
}

#[test]
fn stop_interrupts_a_search_and_perft() {
    let mut child = engine();
    let mut stdin = child.stdin.take().unwrap();
    let mut answers = Answers(BufReader::new(child.stdout.take().unwrap()));
    stdin
        .write_all(b"game onyx\nparam move_time 0\nparam verbose false\n")
        .unwrap();
    for _ in 0..3 {
        assert_eq!(answers.next(), "= \n");
    }
    // An unlimited search, stopped by `stop`: it plays the move it has.
    stdin.write_all(b"genmove b\n").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    stdin.write_all(b"7 stop\nshowboard\n").unwrap();
    let mv = answers.next();
    assert!(mv.starts_with("= ") && mv.len() > 3, "{mv}");
    assert_eq!(answers.next(), "=7 \n");
    assert!(answers.next().contains("white to move"));
    // perft 8 on 12x12 would take days; `stop` ends it with `?`.
    stdin.write_all(b"perft 8\n").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    stdin.write_all(b"stop\nperft 1\n").unwrap();
    assert_eq!(answers.next(), "? perft interrupted\n");
    assert_eq!(answers.next(), "= \n");
    assert!(
        answers.next().starts_with("= "),
        "perft runs again after a stop"
    );
    // A solve without a limit (12x12 would take years): `stop` ends it,
    // and it answers `unknown`; the next solve runs.
    stdin.write_all(b"param solve_time 0\nsolve\n").unwrap();
    assert_eq!(answers.next(), "= \n");
    std::thread::sleep(Duration::from_millis(300));
    stdin.write_all(b"stop\nsolve w 0.05\n").unwrap();
    let solve = answers.next();
    assert!(solve.starts_with("= unknown nodes "), "{solve}");
    assert_eq!(answers.next(), "= \n");
    assert!(answers.next().starts_with("= unknown nodes "));
    // A `stop` with nothing running is answered and changes nothing.
    stdin.write_all(b"stop\nquit\n").unwrap();
    assert_eq!(answers.next(), "= \n");
    assert_eq!(answers.next(), "= \n");
    drop(stdin);
    assert!(exits_within(&mut child, Duration::from_secs(30)));
}

/// A controller that never reads stderr: the `info` lines fill the pipe
/// (64 KB, about 140 genmoves), and the engine must go on answering; lines
/// it cannot write are dropped.
#[test]
fn an_unread_stderr_never_blocks_the_engine() {
    let mut child = engine();
    let mut stdin = child.stdin.take().unwrap();
    let mut answers = Answers(BufReader::new(child.stdout.take().unwrap()));
    // stderr stays piped and unread for the whole test.
    let _stderr = child.stderr.take().unwrap();
    stdin
        .write_all(b"game onyx\nboardsize 8\nparam max_depth 3\nparam move_time 0\n")
        .unwrap();
    for _ in 0..4 {
        assert_eq!(answers.next(), "= \n");
    }
    let start = Instant::now();
    for genmoves in 0..600 {
        // Out of turn too (after a swap): that logs a warning, also on the
        // unread stderr.
        let color = if genmoves % 2 == 0 { "b" } else { "w" };
        stdin
            .write_all(format!("genmove {color}\nfinal_score\n").as_bytes())
            .unwrap();
        let mv = answers.next();
        if answers.next().starts_with("= ") || mv.starts_with('?') {
            stdin.write_all(b"clear_board\n").unwrap();
            assert_eq!(answers.next(), "= \n");
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "blocked after {genmoves} genmoves"
        );
    }
    drop(stdin);
    assert!(exits_within(&mut child, Duration::from_secs(30)));
}

/// Sends `setup` then `command` on the largest board of `game`, waits
/// `wait`, then `stop` (or ends the input when `end_input`), and returns
/// the command's answer and how long after the `stop` (or the end) it
/// came.
fn interrupted_on_a_large_board(
    game: &str,
    setup: &str,
    command: &str,
    end_input: bool,
) -> (String, Duration) {
    let size = if game == "hex" { 19 } else { 26 };
    let mut child = engine();
    let mut stdin = child.stdin.take().unwrap();
    let mut answers = Answers(BufReader::new(child.stdout.take().unwrap()));
    let lines = format!("game {game}\nboardsize {size}\nparam verbose false\n{setup}");
    stdin.write_all(lines.as_bytes()).unwrap();
    for _ in 0..lines.lines().count() {
        assert_eq!(answers.next(), "= \n", "{lines}");
    }
    stdin.write_all(format!("{command}\n").as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    if end_input {
        drop(stdin);
    } else {
        stdin.write_all(b"stop\n").unwrap();
        stdin.flush().unwrap();
    }
    let answer = answers.next();
    let took = t.elapsed();
    let _ = child.kill();
    let _ = child.wait();
    (answer, took)
}

/// On the largest boards one node of the solver (with the games'
/// knowledge) took up to seconds, and the limits were read only between
/// nodes: `stop` took 6 s (`solve`, Akron 26×26) to over 300 s
/// (`solve_all`), and `solve 0.001` took 5.5 s. Measured now: at most 0.03 s.
#[test]
fn stop_and_the_end_of_input_end_the_solver_at_once_on_large_boards() {
    for game in ["onyx", "orcoon", "akron", "hex"] {
        for (setup, command) in [
            ("", "solve 0"),
            ("", "solve_all 0"),
            ("param genmove_solve 1000\nparam move_time 0\n", "genmove b"),
        ] {
            for end_input in [false, true] {
                let (answer, took) = interrupted_on_a_large_board(game, setup, command, end_input);
                assert!(answer.starts_with("= "), "{game} {command}: {answer}");
                assert!(
                    took < Duration::from_secs(3),
                    "{game} {command} (end of input: {end_input}): answered {took:?} after"
                );
            }
        }
    }
}

#[test]
fn the_solver_keeps_its_time_limit_on_large_boards() {
    for game in ["orcoon", "akron"] {
        let mut child = engine();
        let mut stdin = child.stdin.take().unwrap();
        let mut answers = Answers(BufReader::new(child.stdout.take().unwrap()));
        stdin
            .write_all(format!("game {game}\nboardsize 26\n").as_bytes())
            .unwrap();
        answers.next();
        answers.next();
        let t = Instant::now();
        stdin.write_all(b"solve 0.001\n").unwrap();
        let a = answers.next();
        assert!(a.starts_with("= unknown"), "{a}");
        // 5.5 s (Akron) and 2.2 s (Orcoon) before; a few ms now.
        assert!(
            t.elapsed() < Duration::from_secs(2),
            "{game}: {:?}",
            t.elapsed()
        );
        // genmove with the solver first keeps a 0.1 s move time (6-12 s
        // before on Akron).
        stdin
            .write_all(b"param genmove_solve 1\nparam move_time 0.1\ngenmove b\n")
            .unwrap();
        answers.next();
        answers.next();
        let t = Instant::now();
        let mv = answers.next();
        assert!(mv.starts_with("= "), "{mv}");
        assert!(
            t.elapsed() < Duration::from_secs(2),
            "{game}: {:?}",
            t.elapsed()
        );
        drop(stdin);
        assert!(exits_within(&mut child, Duration::from_secs(30)));
    }
}
