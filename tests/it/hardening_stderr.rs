//! Writing to stderr is best effort: with stderr unwritable (`/dev/full`)
//! every answer is what it would have been.

use crate::common::engine::Engine;
use std::fs::File;
use std::process::Stdio;

fn dev_full() -> Stdio {
    Stdio::from(File::create("/dev/full").expect("open /dev/full"))
}

/// A usage error is reported by the exit status even when the message
/// cannot be written (a failed `eprintln!` used to panic: status 101).
#[test]
fn usage_error_exits_2_with_stderr_full() {
    for args in [&["--game", "chess"][..], &["--bogus"][..]] {
        let e = Engine::start(args, dev_full());
        assert_eq!(e.finish().code(), Some(2), "{args:?}");
    }
}

/// Logging at every level into a full stderr changes no answer.
#[test]
fn logging_into_a_full_stderr_changes_no_answer() {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_crosscut"));
    cmd.env("RUST_LOG", "trace")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(dev_full());
    let mut child = cmd.spawn().expect("spawn");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(
                b"1 game orcoon\n2 play b nowhere\n3 param verbose false\n4 genmove b\n5 name\n6 analyze b\n",
            )
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let answers: Vec<&str> = text.split("\n\n").collect();
    assert_eq!(answers[0], "=1 ");
    assert!(answers[1].starts_with("?2 "), "{text}");
    assert_eq!(answers[2], "=3 ");
    assert!(answers[3].starts_with("=4 "), "{text}");
    assert_eq!(answers[4], "=5 crosscut");
    assert!(answers[5].starts_with("=6 "), "{text}");
    assert!(out.status.success());
}

/// `genmove` and `analyze` with the searcher's `info` lines on (the default)
/// and stderr full answer a move, not `? internal error`.
#[test]
fn genmove_with_stderr_full() {
    let mut e = Engine::start(&[], dev_full());
    for game in ["onyx", "orcoon", "akron"] {
        assert_eq!(e.cmd(&format!("game {game}")), "= ");
        assert_eq!(e.cmd("param move_time 0.2"), "= ");
        let a = e.cmd("genmove b");
        assert!(a.starts_with("= "), "{game}: {a}");
        let a = e.cmd("analyze w");
        assert!(a.starts_with("= "), "{game}: {a}");
    }
}

/// A start-up failure says what failed, then its cause, on one line, and
/// exits with status 2 before reading any input: a bad `--game`, a bad
/// `web` option, a port already taken.
#[test]
fn start_up_errors_name_what_failed_and_why() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = taken.local_addr().unwrap().port().to_string();
    for (args, expected) in [
        (
            &["--game", "chess"][..],
            "crosscut --game: unknown game 'chess'",
        ),
        (
            &["web", "--port", "x"],
            "crosscut web: --port: 'x' is not a port number",
        ),
        (
            &["web", "--port", &port],
            &format!("crosscut web: cannot listen on 127.0.0.1:{port}: "),
        ),
        (
            &["--bogus"],
            "unknown option '--bogus' (see --help); usage: crosscut [--game ",
        ),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_crosscut"))
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("run crosscut");
        let text = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {text}");
        assert!(text.starts_with(expected), "{args:?}: {text}");
        assert_eq!(text.lines().count(), 1, "{args:?}: {text}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
