//! Helpers shared by the integration tests: drive the protocol in-process.
#![allow(dead_code)]

use crosscut::protocol::Gtp;

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
}
