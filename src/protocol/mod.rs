//! The GTP-style protocol: reads command lines, dispatches them to the
//! [`crate::engine::Engine`] and formats `=`/`?` answers.

mod commands;
pub mod gogui;
pub mod hexgui;
pub mod parser;
pub mod position;
mod safe_text;

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::SyncSender;

use crate::engine::{Engine, Interrupts};
pub use commands::COMMANDS;

/// What a command handler returns: the answer text or an error message.
pub type Reply = Result<String, String>;

/// A protocol session: one engine and the state of the command loop.
pub struct Gtp {
    /// The engine the commands drive.
    pub engine: Engine,
    quit: bool,
    /// GoGui mode ([`gogui`]): GoGui's coordinates and board model.
    gogui: bool,
    /// HexGui's solver settings (`param_dfpn`, see [`hexgui`]).
    dfpn: hexgui::DfpnParams,
    /// Moves a GUI sends after the end, acknowledged but not played (HexGui's
    /// clicks, see [`hexgui::MODE`]; GoGui's passes, see [`gogui`]), each
    /// with the hash of the position it was made in; the plain `undo` takes
    /// them back first (`commands::acknowledge_after_end`).
    after_end: Vec<(u64, String)>,
    /// Whether the controller asked `hexgui-analyze_commands`, as HexGui
    /// does on connect: `genmove` then writes Hex's swap `swap-pieces`.
    hexgui: bool,
    /// Where lines written while a command runs go (HexGui's `gogui-gfx:`
    /// blocks): stdout by default, see [`Gtp::set_live_sink`].
    live: LiveSink,
}

/// A sink for text written before a command's answer, while it runs.
pub type LiveSink = Box<dyn FnMut(&str) + Send>;

/// The default [`LiveSink`]: stdout, flushed at once, best effort.
fn live_to_stdout() -> LiveSink {
    Box::new(|text| {
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
    })
}

impl Default for Gtp {
    fn default() -> Self {
        Self::new()
    }
}

impl Gtp {
    /// A session with a fresh engine and no game selected.
    pub fn new() -> Gtp {
        Gtp {
            engine: Engine::new(),
            quit: false,
            gogui: false,
            dfpn: hexgui::DfpnParams::default(),
            after_end: Vec::new(),
            hexgui: false,
            live: live_to_stdout(),
        }
    }

    /// Sends the text a command writes while it runs (HexGui's `gogui-gfx:`
    /// blocks, each ended by a blank line) to `sink` instead of stdout,
    /// for a controller that does not read this process's stdout.
    pub fn set_live_sink(&mut self, sink: LiveSink) {
        self.live = sink;
    }

    /// Switches GoGui mode on or off (`crosscut --gogui`): see [`gogui`].
    pub fn set_gogui(&mut self, on: bool) -> Result<(), String> {
        self.gogui = on;
        if on {
            gogui::prepare(&mut self.engine)?;
        }
        Ok(())
    }

    /// Whether GoGui mode is on.
    pub fn gogui(&self) -> bool {
        self.gogui
    }

    /// The mode on, if any: what the commands answer differently in it.
    fn mode(&self) -> Option<&'static commands::Mode> {
        if self.gogui {
            Some(&gogui::MODE)
        } else if self.hexgui {
            Some(&hexgui::MODE)
        } else {
            None
        }
    }

    /// Commands answered in every mode besides the protocol's own: HexGui's
    /// (it starts the engine with no option of ours).
    fn always_on(&self) -> &'static [(&'static str, commands::Handler)] {
        hexgui::COMMANDS
    }

    /// The move `genmove` writes (see [`hexgui::written_move`]).
    fn written_move(&self, mv: String) -> String {
        hexgui::written_move(self, mv)
    }

    /// Whether `quit` has been received.
    pub fn has_quit(&self) -> bool {
        self.quit
    }

    /// Handles one raw input line. Returns the complete answer (ending with
    /// the blank line), or `None` for a line that needs none (blank or
    /// comment).
    ///
    /// An error message quotes at most a short prefix of any long argument
    /// (see [`bound_echo`]).
    pub fn execute(&mut self, raw: &str) -> Option<String> {
        let line = parser::preprocess(raw)?;
        log::debug!("<- {}", parser::clip(&line, LOGGED_CHARS));
        let (id, reply) = match parser::parse_command(&line) {
            Ok(cmd) => {
                // A bug must not take the engine down: a panicking command
                // is answered as a failure and the loop goes on.
                let reply = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    commands::dispatch(self, &cmd.name, &cmd.args)
                }))
                .unwrap_or_else(|_| Err(format!("internal error in {}", parser::quote(&cmd.name))));
                if cmd.name == "quit" && reply.is_ok() {
                    self.quit = true;
                }
                let mut words = cmd.args.clone();
                words.push(&cmd.name);
                (cmd.id, reply.map_err(|e| bound_echo(e, &words)))
            }
            Err((id, message)) => (id, Err(bound_echo(message, &[]))),
        };
        if let Err(e) = &reply {
            log::info!("{} failed: {e}", parser::quote(&line));
        }
        let answer = format_answer(id, reply);
        log::debug!("-> {}", parser::clip(answer.trim_end(), LOGGED_CHARS));
        Some(answer)
    }
}

/// How much of a command line or an answer a debug log line shows.
const LOGGED_CHARS: usize = 200;

/// Longest line of an error message, in characters (a last bound on echoed
/// text that [`bound_echo`] did not recognise as an argument).
pub const MAX_ERROR_LINE_CHARS: usize = 400;

/// Bounds the user text an error message echoes: every occurrence of a
/// `word` of the command line longer than [`parser::QUOTED_CHARS`]
/// characters (as written, lower-cased or upper-cased) is cut to that
/// prefix and `…` ([`parser::clip`]), and any line still longer than
/// [`MAX_ERROR_LINE_CHARS`] is cut there.
///
/// This is the one place every command's error passes through, so the
/// messages built by the commands, the engine and the games (which quote a
/// move, a point or a value whole) need no change of their own.
pub fn bound_echo(message: String, words: &[&str]) -> String {
    let mut message = message;
    // A message may quote a word as written or case-folded (`game ONYX`).
    let mut long: Vec<String> = words
        .iter()
        .filter(|w| w.chars().nth(parser::QUOTED_CHARS).is_some())
        .flat_map(|w| {
            [
                w.to_string(),
                w.to_ascii_lowercase(),
                w.to_ascii_uppercase(),
            ]
        })
        .collect();
    // Longest first, so that a word inside a longer one is cut after it.
    long.sort_by_key(|w| std::cmp::Reverse(w.len()));
    long.dedup();
    for w in long {
        if message.contains(&w) {
            message = message.replace(&w, &parser::clip(&w, parser::QUOTED_CHARS));
        }
    }
    if message
        .lines()
        .any(|l| l.chars().nth(MAX_ERROR_LINE_CHARS).is_some())
    {
        message = message
            .lines()
            .map(|l| parser::clip(l, MAX_ERROR_LINE_CHARS))
            .collect::<Vec<_>>()
            .join("\n");
    }
    message
}

/// Formats an answer: `=id text` or `?id message`, ended by one blank
/// line. As GTP has it, the text's first line follows `=id ` on the same
/// line, for every command (`showboard` and the other multi-line answers
/// too), and an empty answer is `=id ` with its space; further lines
/// follow it. Empty lines would end the answer early, so blank lines are
/// dropped (a leading one as well), and no line may look like the start of
/// another answer or hold control bytes (see `safe_text`).
pub fn format_answer(id: Option<&str>, reply: Reply) -> String {
    let (mark, text) = match reply {
        Ok(t) => ('=', t),
        Err(e) => ('?', e),
    };
    let id = id.unwrap_or_default();
    let body: Vec<String> = text
        .split('\n')
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| safe_text::safe_line(l, i == 0))
        .collect();
    let body = body.join("\n");
    // `=[id] result`: the space stays when the result is empty (`= `), as
    // GTP 2 writes it and as HexGui's Benzene build requires.
    format!("{mark}{id} {body}\n\n")
}

/// The answer to a line that is not UTF-8 (decoded lossily in `line`):
/// a syntax error with the line's id, if it has one.
fn not_utf8_answer(line: &str) -> Option<String> {
    let line = parser::preprocess(line)?;
    let id = match parser::parse_command(&line) {
        Ok(cmd) => cmd.id,
        Err((id, _)) => id,
    };
    Some(format_answer(
        id,
        Err("syntax error: input is not UTF-8".into()),
    ))
}

/// Longest command line the loop reads, in bytes, newline included. A
/// longer line is answered `line too long` (with its id, if it starts with
/// one); only its first [`MAX_LINE_BYTES`] bytes are ever held.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The UTF-8 byte-order mark, skipped at the start of the input.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// What [`read_line`] found.
#[derive(Debug, PartialEq, Eq)]
enum LineRead {
    /// The end of the input, nothing read.
    End,
    /// A line, in the buffer.
    Line,
    /// A line over [`MAX_LINE_BYTES`], read to its end; the buffer holds its
    /// first bytes only.
    TooLong,
}

/// Reads one line (to `\n` or the end of the input) into `buf`, holding at
/// most `max` bytes of it: the rest of a longer line is read and dropped.
fn read_line<R: BufRead>(
    input: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<LineRead> {
    let mut read_any = false;
    let mut too_long = false;
    loop {
        let available = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            break;
        }
        read_any = true;
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..=i], true),
            None => (available, false),
        };
        let room = max.saturating_sub(buf.len());
        if chunk.len() > room {
            too_long = true;
        }
        buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = chunk.len();
        input.consume(used);
        if done {
            break;
        }
    }
    Ok(match (read_any, too_long) {
        (false, _) => LineRead::End,
        (true, false) => LineRead::Line,
        (true, true) => LineRead::TooLong,
    })
}

/// The answer to a line over [`MAX_LINE_BYTES`], of which `start` is the
/// beginning: `line too long`, with the id the line starts with, if any.
fn too_long_answer(start: &[u8]) -> String {
    let text = String::from_utf8_lossy(start);
    let text = text.trim_start();
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let id = (digits > 0 && text[digits..].starts_with([' ', '\t'])).then(|| &text[..digits]);
    format_answer(id, Err("line too long".into()))
}

/// Runs the command loop until `quit` or end of input. Every line gets its
/// answer, flushed at once; input that is not UTF-8 is answered as a syntax
/// error, a line over [`MAX_LINE_BYTES`] as `line too long`. A UTF-8
/// byte-order mark at the start of the input is skipped.
pub fn run<R: BufRead + Send + 'static, W: Write>(input: R, output: W) -> std::io::Result<()> {
    run_with(Gtp::new(), input, output)
}

/// One input line, as the reader hands it to the command loop.
enum Input {
    /// A line (its `\n` included, when it had one).
    Line(Vec<u8>),
    /// A line over [`MAX_LINE_BYTES`]: its first bytes.
    TooLong(Vec<u8>),
}

/// What the reader tells the command loop besides the lines: a `stop`
/// line read while a command runs (it stops any search and `perft`) and the
/// end of the input (it stops a search without a time limit).
struct Reader {
    /// The engine's flags: set, a running search stops at once.
    flags: Interrupts,
    /// `stop` lines read and not yet executed.
    pending_stops: AtomicUsize,
    /// The input has ended (or failed).
    ended: AtomicBool,
}

impl Reader {
    /// Sets the flags as the next command must see them: a `stop` waiting
    /// stops any search, the end of the input one without a time limit.
    fn arm(&self) {
        let stop = self.pending_stops.load(Ordering::SeqCst) > 0;
        let ended = self.ended.load(Ordering::SeqCst);
        self.flags.stop.store(stop, Ordering::SeqCst);
        self.flags
            .stop_unbounded
            .store(stop || ended, Ordering::SeqCst);
    }
}

/// Whether a line is a `stop` command (with or without an id), or GoGui's
/// and HexGui's interrupt, the comment line `# interrupt`.
fn is_stop(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    if text.trim() == "# interrupt" {
        return true;
    }
    let mut words = text.split_whitespace();
    match words.next() {
        Some(w) if w.bytes().all(|b| b.is_ascii_digit()) => words.next() == Some("stop"),
        Some(w) => w == "stop",
        None => false,
    }
}

/// Reads the input line by line into `lines` until it ends, skipping a
/// leading byte-order mark. A `stop` line and the end of the input also
/// interrupt whatever runs at once.
fn read_input<R: BufRead>(mut input: R, lines: SyncSender<Input>, interrupts: &Reader) {
    let mut first = true;
    loop {
        let mut buf = Vec::new();
        let read = read_line(&mut input, &mut buf, MAX_LINE_BYTES);
        if std::mem::take(&mut first) && buf.starts_with(BOM) {
            buf.drain(..BOM.len());
        }
        let item = match read {
            Ok(LineRead::Line) => {
                if is_stop(&buf) {
                    interrupts.pending_stops.fetch_add(1, Ordering::SeqCst);
                    interrupts.flags.stop.store(true, Ordering::SeqCst);
                    interrupts
                        .flags
                        .stop_unbounded
                        .store(true, Ordering::SeqCst);
                }
                Input::Line(buf)
            }
            Ok(LineRead::TooLong) => Input::TooLong(buf),
            Ok(LineRead::End) | Err(_) => break,
        };
        if lines.send(item).is_err() {
            return;
        }
    }
    interrupts.ended.store(true, Ordering::SeqCst);
    interrupts
        .flags
        .stop_unbounded
        .store(true, Ordering::SeqCst);
}

/// [`run`] with a session prepared beforehand (e.g. by command-line options).
///
/// The input is read on a thread of its own, so that a `stop` line stops a
/// running search at once, and the end of the input one without a time
/// limit (a timed search runs to its limit, so a script piped in gets the
/// moves a person typing would): the search answers with its best move so
/// far, the loop answers the lines already read, and then it returns.
pub fn run_with<R: BufRead + Send + 'static, W: Write>(
    mut gtp: Gtp,
    input: R,
    mut output: W,
) -> std::io::Result<()> {
    let interrupts = Arc::new(Reader {
        flags: gtp.engine.interrupts(),
        pending_stops: AtomicUsize::new(0),
        ended: AtomicBool::new(false),
    });
    let (sender, lines) = std::sync::mpsc::sync_channel(64);
    let reader = Arc::clone(&interrupts);
    std::thread::Builder::new()
        .name("input".into())
        .spawn(move || read_input(input, sender, &reader))?;
    while let Ok(item) = lines.recv() {
        let answer = match item {
            Input::TooLong(line) => Some(too_long_answer(&line)),
            Input::Line(line) => {
                if is_stop(&line) {
                    interrupts.pending_stops.fetch_sub(1, Ordering::SeqCst);
                }
                interrupts.arm();
                // A comment is cut before the text is decoded (`#` never
                // occurs inside a UTF-8 sequence): whatever it holds, it
                // needs no answer.
                let content = match line.iter().position(|&b| b == b'#') {
                    Some(i) => &line[..i],
                    None => &line[..],
                };
                match std::str::from_utf8(content) {
                    Ok(text) => gtp.execute(text),
                    Err(_) => not_utf8_answer(&String::from_utf8_lossy(content)),
                }
            }
        };
        if let Some(a) = answer {
            output.write_all(a.as_bytes())?;
            output.flush()?;
        }
        if gtp.has_quit() {
            return Ok(());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_within_the_bound() {
        let mut input = std::io::BufReader::with_capacity(4, &b"abcdefgh\nxy\nabc"[..]);
        let mut buf = Vec::new();
        assert_eq!(
            read_line(&mut input, &mut buf, 5).unwrap(),
            LineRead::TooLong
        );
        assert_eq!(buf, b"abcde");
        buf.clear();
        assert_eq!(read_line(&mut input, &mut buf, 5).unwrap(), LineRead::Line);
        assert_eq!(buf, b"xy\n");
        buf.clear();
        assert_eq!(read_line(&mut input, &mut buf, 5).unwrap(), LineRead::Line);
        assert_eq!(buf, b"abc");
        buf.clear();
        assert_eq!(read_line(&mut input, &mut buf, 5).unwrap(), LineRead::End);
    }

    #[test]
    fn echoes_are_bounded() {
        let w = "x".repeat(100);
        let m = bound_echo(format!("bad '{w}' ('{w}')"), &[&w, "b"]);
        let cut = format!("{}…", &w[..parser::QUOTED_CHARS]);
        assert_eq!(m, format!("bad '{cut}' ('{cut}')"));
        let m = bound_echo(format!("'{}'\nok", "y".repeat(1000)), &[]);
        assert_eq!(m.lines().count(), 2);
        assert!(
            m.lines()
                .all(|l| l.chars().count() <= MAX_ERROR_LINE_CHARS + 1)
        );
        assert_eq!(bound_echo("short 'D12'".into(), &["D12"]), "short 'D12'");
    }

    #[test]
    fn too_long_lines_keep_their_id() {
        assert_eq!(too_long_answer(b"12 play"), "?12 line too long\n\n");
        assert_eq!(too_long_answer(b"12play"), "? line too long\n\n");
        assert_eq!(too_long_answer(b"xxxx"), "? line too long\n\n");
    }

    #[test]
    fn interrupts_are_stops() {
        assert!(is_stop(b"stop\n") && is_stop(b"12 stop") && is_stop(b"# interrupt\n"));
        assert!(!is_stop(b"# interrupted\n") && !is_stop(b"stopp") && !is_stop(b"# stop"));
    }

    #[test]
    fn empty_answers_keep_their_space() {
        assert_eq!(format_answer(None, Ok(String::new())), "= \n\n");
        assert_eq!(format_answer(Some("7"), Ok("\n".into())), "=7 \n\n");
        assert_eq!(format_answer(None, Ok("x".into())), "= x\n\n");
    }
}
