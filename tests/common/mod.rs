//! Helpers shared by the integration tests: drive the protocol in-process.
#![allow(dead_code)]

use crosscut::protocol::Gtp;

pub mod onyx_ref;

/// A protocol session for tests.
pub struct Session {
    pub gtp: Gtp,
}

impl Session {
    pub fn new() -> Self {
        Session { gtp: Gtp::new() }
    }

    /// Sends one line; returns the full raw answer.
    pub fn raw(&mut self, line: &str) -> String {
        self.gtp.execute(line).unwrap_or_default()
    }

    /// Sends a command that must succeed; returns the answer text.
    pub fn ok(&mut self, line: &str) -> String {
        let a = self.raw(line);
        assert!(a.starts_with('='), "'{line}' failed: {a}");
        a[1..].trim().to_string()
    }

    /// Sends a command that must succeed within `limit`; returns the
    /// answer text.
    pub fn ok_within(&mut self, line: &str, limit: std::time::Duration) -> String {
        let t = std::time::Instant::now();
        let a = self.ok(line);
        let took = t.elapsed();
        assert!(took < limit, "'{line}' took {took:?} (limit {limit:?})");
        a
    }

    /// Sends a command that must fail; returns the error text.
    pub fn err(&mut self, line: &str) -> String {
        let a = self.raw(line);
        assert!(a.starts_with('?'), "'{line}' should fail but answered: {a}");
        a[1..].trim().to_string()
    }

    /// A session with `game` selected, after running `lines`.
    pub fn with(game: &str, lines: &[&str]) -> Self {
        let mut s = Session::new();
        s.ok(&format!("game {game}"));
        for l in lines {
            s.ok(l);
        }
        s
    }

    /// The board and everything that identifies the position.
    pub fn state(&mut self) -> String {
        let board = self.ok("showboard");
        let legal = self.ok("legal_moves");
        let side = self.ok("gogui-rules_side_to_move");
        format!("{board}\n{legal}\n{side}")
    }

    /// `state()` plus everything else a command could have changed that the
    /// protocol shows: the result, the board size, the game and the params.
    pub fn full_state(&mut self) -> String {
        let state = self.state();
        let score = self.raw("final_score");
        let size = self.ok("gogui-rules_board_size");
        let game = self.ok("gogui-rules_game_id");
        let params = self.ok("param");
        format!("{state}\n{score}\n{size}\n{game}\n{params}")
    }

    /// The legal moves as a list.
    pub fn legal(&mut self) -> Vec<String> {
        self.ok("legal_moves")
            .split_whitespace()
            .map(str::to_string)
            .collect()
    }
}

/// Runs the real binary with `input` on stdin; returns stdout and whether it
/// exited successfully.
pub fn run_binary(input: &[u8]) -> (String, bool) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_crosscut"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn crosscut");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input).expect("write stdin");
    drop(stdin);
    let out = child.wait_with_output().expect("wait");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.success(),
    )
}
