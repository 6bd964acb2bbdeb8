//! Drive the real binary one command at a time, with a time limit on every
//! answer, and read its memory use (the `hardening_*` tests).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// A running `crosscut` whose answers are read by a thread, so that a hung
/// engine fails the test instead of hanging it.
pub struct Engine {
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    /// Starts the binary with `args`, its stderr going to `stderr`.
    pub fn start(args: &[&str], stderr: Stdio) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_crosscut"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("spawn crosscut");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
        }
    }

    /// Sends raw bytes.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to the engine");
        stdin.flush().expect("flush");
    }

    /// The next answer (its lines up to the blank line), or `None` if none
    /// comes within `limit` or the engine's output ends first.
    pub fn answer_within(&mut self, limit: Duration) -> Option<String> {
        let deadline = std::time::Instant::now() + limit;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let line = self.lines.recv_timeout(left).ok()?;
            if line.is_empty() {
                return Some(out.join("\n"));
            }
            out.push(line);
        }
    }

    /// Sends one command line and returns its answer (within 60 s: no
    /// answer in the `hardening_*` tests takes 2 s on a shared 2-core
    /// machine; the limit only turns a hung engine into a failure).
    pub fn cmd(&mut self, line: &str) -> String {
        self.send_raw(format!("{line}\n").as_bytes());
        self.answer_within(Duration::from_secs(60))
            .unwrap_or_else(|| panic!("no answer to '{}'", &line[..line.len().min(60)]))
    }

    /// The engine's resident memory in kB (`VmRSS`).
    pub fn rss_kb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("read /proc/PID/status");
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .expect("VmRSS")
    }

    /// Closes stdin and waits for the exit status (killing the engine if it
    /// has not exited within 30 s).
    pub fn finish(mut self) -> std::process::ExitStatus {
        drop(self.stdin.take());
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status;
            }
            if std::time::Instant::now() > deadline {
                let _ = self.child.kill();
                return self.child.wait().expect("wait");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A file in the temporary directory, unique to this test process.
pub fn temp_path(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("crosscut-hardening-{}-{name}", std::process::id()))
}
