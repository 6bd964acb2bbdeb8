//! An engine as a child process: spawning, a GTP client whose every command
//! has a deadline (a reader thread feeds an mpsc channel, read with
//! `recv_timeout`), optional logging of the whole protocol traffic, and
//! killing an engine that crashed or hung.
//!
//! Whatever an engine prints, the runner's memory and time stay bounded: the
//! reader thread cuts lines at [`MAX_ANSWER_BYTES`] and hands them over a
//! channel of [`LINE_QUEUE`] lines (a faster engine waits on its pipe), and a
//! command fails when its deadline passes or its answer grows past
//! [`MAX_ANSWER_BYTES`], even while lines keep coming.
//!
//! On Unix each engine runs in a process group of its own, and an engine
//! that is given up on (its output closed, a timeout, a crash) has that whole
//! group killed at once: an engine that closes its stdout but stays alive, or
//! a wrapper script whose children hold on, never holds up the match.
//! On Linux an engine is also killed when the runner's thread that started
//! it ends (`PR_SET_PDEATHSIG`), so a runner stopped by Ctrl-C or killed
//! leaves no engine behind, though the engines are out of the terminal's
//! process group.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, ErrorKind, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The most bytes one answer may take, its lines and the empty lines before
/// it included: an engine that sends more (flooding its output) breaks the
/// protocol.
pub const MAX_ANSWER_BYTES: usize = 1 << 20;

/// Lines read ahead of the runner before the reader thread waits (so an
/// engine that floods its output is held back by its pipe, not buffered).
pub const LINE_QUEUE: usize = 64;

/// How long an engine whose output closed may take to exit before its
/// process group is killed: a crash closes the output a moment before the
/// process ends.
const CLOSE_GRACE: Duration = Duration::from_millis(100);

/// What the stdout reader thread hands over.
enum Output {
    /// One line, its end of line removed.
    Line(String),
    /// A line longer than [`MAX_ANSWER_BYTES`]; nothing is read after it.
    TooLong,
}

/// How [`read_line_bounded`] ended.
#[derive(Debug, PartialEq, Eq)]
enum LineRead {
    /// The output ended with nothing read.
    Eof,
    /// A line (ending in `\n`, or the last one without it) is in the buffer.
    Line,
    /// `max` bytes came without an end of line; they are in the buffer, the
    /// rest of the line is unread.
    TooLong,
}

/// Reads one line into `buf` (cleared first), but never more than `max`
/// bytes of it.
fn read_line_bounded(
    r: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<LineRead> {
    buf.clear();
    loop {
        let avail = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok(if buf.is_empty() {
                LineRead::Eof
            } else {
                LineRead::Line
            });
        }
        let room = max - buf.len();
        if let Some(i) = avail.iter().position(|&b| b == b'\n')
            && i < room
        {
            buf.extend_from_slice(&avail[..=i]);
            r.consume(i + 1);
            return Ok(LineRead::Line);
        }
        let n = avail.len().min(room);
        buf.extend_from_slice(&avail[..n]);
        r.consume(n);
        if buf.len() >= max {
            return Ok(LineRead::TooLong);
        }
    }
}

fn line_text(buf: &[u8]) -> String {
    String::from_utf8_lossy(buf)
        .trim_end_matches(['\n', '\r'])
        .to_string()
}

/// How one engine is started and set up: its command, its name in results,
/// the `param NAME VALUE` and other commands sent after it starts, and the
/// dialect it speaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Name used in tables, records and log file names.
    pub name: String,
    /// Program and arguments.
    pub command: Vec<String>,
    /// `param NAME VALUE` pairs sent once after start.
    pub params: Vec<(String, String)>,
    /// Further commands sent once after start, after the parameters
    /// (`init=CMD;CMD`: an engine's own settings, such as MoHex's
    /// `param_mohex max_time 1`).
    pub init: Vec<String>,
    /// Working directory, if not the runner's.
    pub dir: Option<String>,
    /// The protocol's dialect.
    pub proto: Proto,
}

/// The dialect of GTP an engine speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Proto {
    /// crosscut's protocol (protocol.md): `game`, game options as commands,
    /// `time_settings` and `time_left`, `swap`.
    #[default]
    Crosscut,
    /// Benzene's HTP (MoHex, Wolve): one game, no `game` command; swap
    /// written `swap-pieces` and turned on or off with `param_game
    /// allow_swap 1|0`; no time commands (its time is set with `init=`);
    /// it never resigns, so the referee ends the game at the connection.
    Htp,
}

impl Proto {
    /// The dialect named `name` (`crosscut`, `htp`).
    pub fn parse(name: &str) -> Result<Proto, String> {
        match name.to_ascii_lowercase().as_str() {
            "crosscut" | "gtp" => Ok(Proto::Crosscut),
            "htp" | "benzene" => Ok(Proto::Htp),
            _ => Err(format!(
                "unknown proto '{name}' (crosscut for crosscut's protocol, htp for Benzene's)"
            )),
        }
    }

    /// A move in the runner's notation as this dialect writes it.
    pub fn move_text(self, mv: &str) -> &str {
        match self {
            Proto::Htp if mv.eq_ignore_ascii_case("swap") => "swap-pieces",
            _ => mv,
        }
    }
}

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The engine's output ended (it exited or crashed), or writing to it
    /// failed.
    Crashed(String),
    /// No answer within the deadline.
    Timeout,
    /// An answer that is not GTP (no `=` or `?` at its start), or one over
    /// [`MAX_ANSWER_BYTES`].
    Protocol(String),
    /// The engine could not be started.
    Spawn(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Crashed(m) => write!(f, "engine crashed: {m}"),
            EngineError::Timeout => write!(f, "engine did not answer in time"),
            EngineError::Protocol(m) => write!(f, "protocol error: {m}"),
            EngineError::Spawn(m) => write!(f, "cannot start engine: {m}"),
        }
    }
}

/// A GTP answer: success (`=`) or failure (`?`) with its text (lines joined
/// with `\n`, the status character and any id removed, trimmed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// `=` rather than `?`.
    pub ok: bool,
    /// The text after the status.
    pub text: String,
}

/// Where protocol traffic goes: one file per engine process, shared with its
/// stderr-draining thread.
type Log = Arc<Mutex<Option<BufWriter<File>>>>;

fn log_line(log: &Log, started: Instant, tag: &str, text: &str) {
    if let Ok(mut guard) = log.lock()
        && let Some(w) = guard.as_mut()
    {
        let t = started.elapsed().as_secs_f64();
        for line in text.split('\n') {
            let _ = writeln!(w, "{t:10.3} {tag} {line}");
        }
        let _ = w.flush();
    }
}

/// A running engine.
pub struct EngineProc {
    /// The spec it was started from.
    pub spec: EngineSpec,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Output>,
    log: Log,
    started: Instant,
    dead: bool,
}

impl EngineProc {
    /// Starts `spec`; traffic is appended to `log_file` when given.
    pub fn spawn(spec: &EngineSpec, log_file: Option<&Path>) -> Result<EngineProc, EngineError> {
        let (program, args) = spec
            .command
            .split_first()
            .ok_or_else(|| EngineError::Spawn("empty command".into()))?;
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // Its own group, so that it can be killed with whatever it started.
            cmd.process_group(0);
        }
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::process::CommandExt;
            // Out of the terminal's process group, the engine no longer gets
            // the runner's Ctrl-C: it is killed when the thread that started
            // it (a match worker) ends, however the runner ends.
            // SAFETY: the closure runs in the child between fork and exec
            // and only calls prctl, which is async-signal-safe.
            unsafe {
                cmd.pre_exec(|| {
                    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                    Ok(())
                });
            }
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("{}: {e}", spec.command.join(" "))))?;
        let log: Log = Arc::new(Mutex::new(match log_file {
            Some(p) => Some(BufWriter::new(
                File::options()
                    .create(true)
                    .append(true)
                    .open(p)
                    .map_err(|e| EngineError::Spawn(format!("log {}: {e}", p.display())))?,
            )),
            None => None,
        }));
        let started = Instant::now();
        log_line(
            &log,
            started,
            "#",
            &format!("started {} (pid {})", spec.command.join(" "), child.id()),
        );
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = sync_channel(LINE_QUEUE);
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                let out = match read_line_bounded(&mut reader, &mut buf, MAX_ANSWER_BYTES) {
                    Ok(LineRead::Eof) | Err(_) => break,
                    Ok(LineRead::Line) => Output::Line(line_text(&buf)),
                    Ok(LineRead::TooLong) => Output::TooLong,
                };
                let stop = matches!(out, Output::TooLong);
                if tx.send(out).is_err() || stop {
                    break;
                }
            }
        });
        let stderr = child.stderr.take().expect("piped stderr");
        let err_log = log.clone();
        thread::spawn(move || {
            let mut reader = BufReader::new(stderr);
            let mut buf = Vec::new();
            // A long line is logged in pieces, so memory stays bounded.
            while let Ok(LineRead::Line | LineRead::TooLong) =
                read_line_bounded(&mut reader, &mut buf, MAX_ANSWER_BYTES)
            {
                log_line(&err_log, started, "!", &line_text(&buf));
            }
        });
        let stdin = child.stdin.take();
        Ok(EngineProc {
            spec: spec.clone(),
            child,
            stdin,
            lines: rx,
            log,
            started,
            dead: false,
        })
    }

    /// Starts `spec` and sends its parameters, then its `init` commands.
    pub fn start(
        spec: &EngineSpec,
        log_file: Option<&Path>,
        timeout: Duration,
    ) -> Result<EngineProc, EngineError> {
        let mut p = EngineProc::spawn(spec, log_file)?;
        let params = spec
            .params
            .iter()
            .map(|(name, value)| format!("param {name} {value}"));
        for c in params.chain(spec.init.iter().cloned()) {
            let a = p.command(&c, timeout)?;
            if !a.ok {
                return Err(EngineError::Spawn(format!("'{c}' refused: {}", a.text)));
            }
        }
        Ok(p)
    }

    /// Whether the engine crashed, hung or broke the protocol, so it must be
    /// restarted before its next game.
    pub fn is_dead(&self) -> bool {
        self.dead
    }

    /// Writes a comment line into the traffic log.
    pub fn note(&self, text: &str) {
        log_line(&self.log, self.started, "#", text);
    }

    /// Sends one command and waits at most `timeout` for its answer. A
    /// timeout, crash or protocol error marks the engine dead.
    pub fn command(&mut self, cmd: &str, timeout: Duration) -> Result<Answer, EngineError> {
        let r = self.command_inner(cmd, timeout);
        if r.is_err() {
            self.dead = true;
        }
        r
    }

    fn command_inner(&mut self, cmd: &str, timeout: Duration) -> Result<Answer, EngineError> {
        if self.dead {
            return Err(EngineError::Crashed("engine already stopped".into()));
        }
        log_line(&self.log, self.started, ">", cmd);
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| EngineError::Crashed("stdin closed".into()))?;
        if let Err(e) = stdin
            .write_all(cmd.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush())
        {
            return Err(EngineError::Crashed(format!("cannot write: {e}")));
        }
        let deadline = Instant::now() + timeout;
        let mut first: Option<(bool, String)> = None;
        let mut rest: Vec<String> = Vec::new();
        // Bytes received for this answer, ends of line included.
        let mut bytes = 0usize;
        loop {
            // Checked before every line: an engine printing without end
            // would otherwise always have a line ready.
            let now = Instant::now();
            if now >= deadline {
                log_line(&self.log, self.started, "#", "timeout");
                return Err(EngineError::Timeout);
            }
            let received = self.lines.recv_timeout(deadline - now);
            let line = match received {
                Ok(Output::Line(l)) => l,
                Ok(Output::TooLong) => {
                    return Err(
                        self.too_long(format!("a line longer than {MAX_ANSWER_BYTES} bytes"))
                    );
                }
                Err(RecvTimeoutError::Timeout) => {
                    log_line(&self.log, self.started, "#", "timeout");
                    return Err(EngineError::Timeout);
                }
                Err(RecvTimeoutError::Disconnected) => {
                    // The output is gone, so no answer can come: the seat is
                    // given up at once, whether or not the process lives on.
                    let status = self.end_closed();
                    log_line(
                        &self.log,
                        self.started,
                        "#",
                        &format!("output closed: {status}"),
                    );
                    return Err(EngineError::Crashed(format!("output closed ({status})")));
                }
            };
            bytes += line.len() + 1;
            if bytes > MAX_ANSWER_BYTES {
                return Err(self.too_long(format!(
                    "an answer longer than {MAX_ANSWER_BYTES} bytes ({} lines)",
                    rest.len() + 1
                )));
            }
            log_line(&self.log, self.started, "<", &line);
            match &mut first {
                None => {
                    let trimmed = line.trim();
                    if trimmed.is_empty() {
                        continue;
                    }
                    let ok = match trimmed.as_bytes()[0] {
                        b'=' => true,
                        b'?' => false,
                        _ => return Err(EngineError::Protocol(format!("unexpected '{trimmed}'"))),
                    };
                    // Drop the status and an optional numeric id.
                    let body = trimmed[1..].trim_start_matches(|c: char| c.is_ascii_digit());
                    first = Some((ok, body.trim().to_string()));
                }
                Some(_) => {
                    if line.trim().is_empty() {
                        break;
                    }
                    rest.push(line);
                }
            }
        }
        let (ok, head) = first.expect("answer started");
        let mut text = head;
        for l in rest {
            text.push('\n');
            text.push_str(&l);
        }
        Ok(Answer {
            ok,
            text: text.trim().to_string(),
        })
    }

    /// The error for an answer over [`MAX_ANSWER_BYTES`], logged.
    fn too_long(&self, what: String) -> EngineError {
        let m = format!("{what}: the engine floods its output");
        log_line(&self.log, self.started, "#", &m);
        EngineError::Protocol(m)
    }

    /// Asks the engine to quit, waits up to `grace`, then kills it.
    pub fn quit(mut self, grace: Duration) {
        if !self.dead {
            let _ = self.command("quit", grace);
        }
        self.stop(grace);
    }

    /// Ends an engine whose output closed: waits a moment for an exit that
    /// is under way (a crash closes the output just before the process
    /// ends), then kills its process group. Returns how it ended, as text.
    fn end_closed(&mut self) -> String {
        let deadline = Instant::now() + CLOSE_GRACE;
        loop {
            match self.child.try_wait() {
                Ok(Some(s)) => {
                    self.dead = true;
                    return s.to_string();
                }
                Err(e) => return e.to_string(),
                Ok(None) if Instant::now() >= deadline => {
                    self.kill_group();
                    return "still running, killed".into();
                }
                Ok(None) => thread::sleep(Duration::from_millis(2)),
            }
        }
    }

    /// Kills the engine's process group (on Unix; the process itself
    /// elsewhere) and reaps the process. The group is signalled before the
    /// process is reaped, so its id cannot have been reused.
    fn kill_group(&mut self) {
        #[cfg(unix)]
        if let Ok(pid) = libc::pid_t::try_from(self.child.id()) {
            // SAFETY: killpg only sends a signal; the group is the one this
            // process created for its child (`process_group(0)`), and the
            // child is not reaped yet, so the id is still ours.
            unsafe {
                libc::killpg(pid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.dead = true;
    }

    /// Closes stdin, waits up to `grace` for the process to exit, then kills
    /// its process group.
    fn stop(&mut self, grace: Duration) {
        self.stdin = None;
        let deadline = Instant::now() + grace;
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => break,
                Ok(None) if Instant::now() >= deadline => {
                    self.kill_group();
                    log_line(&self.log, self.started, "#", "killed");
                    break;
                }
                Ok(None) => thread::sleep(Duration::from_millis(5)),
            }
        }
        self.dead = true;
    }

    /// Kills the process at once (a hung engine).
    pub fn kill(mut self) {
        self.stop(Duration::ZERO);
    }
}

impl Drop for EngineProc {
    fn drop(&mut self) {
        if self.child.try_wait().map(|s| s.is_none()).unwrap_or(false) {
            self.kill_group();
        }
    }
}

/// Splits a command line like a POSIX shell: whitespace separates words;
/// single quotes keep everything, double quotes keep all but `\"` and `\\`;
/// a backslash outside quotes escapes the next character.
pub fn shell_split(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(ch) => cur.push(ch),
                        None => return Err(format!("unclosed ' in: {s}")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(ch @ ('"' | '\\' | '$' | '`')) => cur.push(ch),
                            Some(ch) => {
                                cur.push('\\');
                                cur.push(ch);
                            }
                            None => return Err(format!("unclosed \" in: {s}")),
                        },
                        Some(ch) => cur.push(ch),
                        None => return Err(format!("unclosed \" in: {s}")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(ch) => cur.push(ch),
                    None => return Err(format!("trailing backslash in: {s}")),
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_within_bounds() {
        let mut r = std::io::Cursor::new(b"ab\ncdefgh\nij".to_vec());
        let mut buf = Vec::new();
        let mut next = |max| {
            let k = read_line_bounded(&mut r, &mut buf, max).unwrap();
            (k, String::from_utf8(buf.clone()).unwrap())
        };
        assert_eq!(next(4), (LineRead::Line, "ab\n".into()));
        assert_eq!(next(4), (LineRead::TooLong, "cdef".into()));
        assert_eq!(next(4), (LineRead::Line, "gh\n".into()));
        assert_eq!(next(3), (LineRead::Line, "ij".into()));
        assert_eq!(next(3), (LineRead::Eof, "".into()));
        // A line of exactly `max` bytes with its end of line fits.
        let mut r = std::io::Cursor::new(b"abc\n".to_vec());
        assert_eq!(
            read_line_bounded(&mut r, &mut buf, 4).unwrap(),
            LineRead::Line
        );
    }

    #[test]
    fn splits_like_a_shell() {
        assert_eq!(
            shell_split(r#"a 'b c' "d \"e\"" f\ g  "#).unwrap(),
            vec!["a", "b c", "d \"e\"", "f g"]
        );
        assert_eq!(shell_split("").unwrap(), Vec::<String>::new());
        assert_eq!(shell_split("''").unwrap(), vec![""]);
        assert!(shell_split("'x").is_err());
    }
}
