//! A property-based fuzzer over whole command streams, for every game of
//! the registry (cargo-fuzz needs a nightly compiler; this needs nothing
//! but `rand`, with fixed seeds).
//!
//! A stream is generated line by line against the engine's current
//! position: legal moves taken from `legal_moves`, garbage moves, wrong
//! colours, `undo`, `clear_board`, game and size switches (good and absurd
//! sizes), `genmove` with a tiny time and depth, `solve` and `solve_all`
//! with tiny limits (on every size), `setup`, `loadsgf` of
//! generated and mangled records, absurd clocks, bad parameters, ids, long
//! tokens, control characters, non-UTF-8 bytes, empty lines, comments and
//! unknown commands. Each stream is run twice:
//!
//! 1. in-process, line by line through [`Gtp::execute`], with these
//!    oracles after every line: a non-empty, non-comment line gets exactly
//!    one answer, `=` or `?` with the line's id, ended by one blank line;
//!    no answer says `internal error` (a caught panic); a `?` answer changes
//!    nothing (board, legal moves, side to move, result, size, game,
//!    parameters); a command that only reads changes nothing either; after
//!    a successful `undo` the position is the one before the move it took
//!    back; a move listed by `legal_moves` for the side to move is accepted
//!    by `play`; `genmove`'s move is one of `legal_moves COLOR` (and
//!    `resign` only when there is none); `legal_moves` is empty exactly when
//!    the game is over; no command takes longer than [`SLOW`];
//! 2. as bytes through the real command loop ([`protocol::run`]), with a
//!    fresh engine: one answer per line that needs one (non-UTF-8 lines
//!    answered `? syntax error: input is not UTF-8`, lines over 1 MiB
//!    `? line too long`), ids echoed, and, up to the first search command
//!    (whose answers depend on the clock), the same answers as in-process.
//!
//! `cargo test --release --test it fuzz_streams::` runs [`DEFAULT_STREAMS`]
//! streams (seeds 0, 1, ...) and replays the corpus in `tests/fuzz/`.
//! `CROSSCUT_FUZZ_SECONDS=S` runs streams for S seconds instead (seeds from
//! `CROSSCUT_FUZZ_SEED`, default 1000000), printing the executions and
//! findings; each finding is written to `CROSSCUT_FUZZ_OUT` (default
//! `target/fuzz-findings`) as a stream file that `tests/fuzz/` can keep
//! (`scripts/fuzz.sh` does this).
//!
//! Stream files: one command line a line, as sent. A comment line
//! `# fuzz-file NAME HEX` makes the file NAME (hex-encoded content) in the
//! stream's temporary folder before the line is sent (it is also sent: the
//! engine must ignore it), and `{DIR}` in a line is that folder.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crosscut::games::{GAMES, GameEntry};
use crosscut::protocol::{self, Gtp};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// Streams of a default `cargo test` run.
const DEFAULT_STREAMS: u64 = 50;

/// The longest any single command may take in a stream (the searches are
/// limited to depth 3 and 0.05 s; the slowest honest command is a
/// `perft 2` or a large board's `legal_moves`).
const SLOW: Duration = Duration::from_secs(5);

/// Longest line the command loop reads (`protocol::MAX_LINE_BYTES`).
const MAX_LINE: usize = protocol::MAX_LINE_BYTES;

// ---------------------------------------------------------------------
// Looking at lines and answers the way the protocol describes them
// (independently of the engine's parser).

/// A command line as the protocol reads it: id, lower-cased name, args.
#[derive(Debug, Default, Clone)]
struct Parsed {
    id: Option<String>,
    name: String,
    args: Vec<String>,
}

/// The text before the comment, without control characters (tabs become
/// spaces), trimmed; `None` when nothing is left (no answer is due).
fn clean(text: &str) -> Option<String> {
    let text = text.split('#').next().unwrap_or_default();
    let cleaned: String = text
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let t = cleaned.trim();
    (!t.is_empty()).then(|| t.to_string())
}

fn parse(text: &str) -> Option<Parsed> {
    let text = clean(text)?;
    let mut words: Vec<&str> = text.split(' ').filter(|w| !w.is_empty()).collect();
    let mut p = Parsed::default();
    if words[0].bytes().all(|b| b.is_ascii_digit()) {
        p.id = Some(words.remove(0).to_string());
    }
    if let Some((name, args)) = words.split_first() {
        p.name = name.to_ascii_lowercase();
        p.args = args.iter().map(|s| s.to_string()).collect();
    }
    Some(p)
}

/// What the command loop must answer to a raw line: `None` (no answer),
/// or the expected id and, for lines it refuses before parsing, the text.
fn expected_raw(line: &[u8]) -> Option<(Option<String>, Option<&'static str>)> {
    if line.len() + 1 > MAX_LINE {
        let text = String::from_utf8_lossy(&line[..64.min(line.len())]).into_owned();
        let t = text.trim_start();
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        let id = (digits > 0 && t[digits..].starts_with([' ', '\t'])).then(|| t[..digits].into());
        return Some((id, Some("? line too long")));
    }
    let content = match line.iter().position(|&b| b == b'#') {
        Some(i) => &line[..i],
        None => line,
    };
    match std::str::from_utf8(content) {
        Ok(t) => parse(t).map(|p| (p.id, None)),
        Err(_) => {
            let p = parse(&String::from_utf8_lossy(content))?;
            Some((p.id, Some("? syntax error: input is not UTF-8")))
        }
    }
}

/// Checks an answer's form: `=`/`?`, the id, one blank line at the end and
/// none inside, no caught panic.
fn check_answer(answer: &str, id: Option<&str>) -> Result<(), String> {
    let mark = answer.chars().next();
    if !matches!(mark, Some('=') | Some('?')) {
        return Err(format!("answer does not start with = or ?: {answer:?}"));
    }
    let rest = &answer[1..];
    let rest = match id {
        Some(id) => rest
            .strip_prefix(id)
            .ok_or_else(|| format!("answer does not echo id {id}: {answer:?}"))?,
        None => rest,
    };
    // `=[id] result`: a space after the mark and id, even when the result
    // is empty (`= `), as GTP 2 writes it.
    if !rest.starts_with(' ') {
        return Err(format!("bad answer after mark and id: {answer:?}"));
    }
    if !answer.ends_with("\n\n") || answer[..answer.len() - 2].contains("\n\n") {
        return Err(format!(
            "answer not ended by exactly one blank line: {answer:?}"
        ));
    }
    if answer.contains("internal error") {
        return Err(format!("panic caught: {answer:?}"));
    }
    // Text echoed from outside (a record's move or name) must not forge
    // another answer or carry control bytes.
    if answer
        .lines()
        .skip(1)
        .any(|l| l.trim_start().starts_with(['=', '?']))
    {
        return Err(format!("a line looks like another answer: {answer:?}"));
    }
    if answer.contains(['\0', '\r', '\u{85}']) {
        return Err(format!("control bytes in the answer: {answer:?}"));
    }
    Ok(())
}

fn is_ok(answer: &str) -> bool {
    answer.starts_with('=')
}

/// The text of a `=` answer, without its id, trimmed.
fn text(answer: &str) -> Option<&str> {
    is_ok(answer).then(|| {
        answer[1..]
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim()
    })
}

fn color_of(word: &str) -> Option<&'static str> {
    match word.to_ascii_lowercase().as_str() {
        "b" | "black" => Some("black"),
        "w" | "white" => Some("white"),
        _ => None,
    }
}

/// A move as compared: upper case, no Onyx capture marks.
fn norm(m: &str) -> String {
    m.trim_end_matches('*').to_ascii_uppercase()
}

// ---------------------------------------------------------------------
// The engine's observable state.

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Snap {
    /// showboard, legal_moves, side, final_score, size, game: raw answers.
    position: String,
    /// `param`'s raw answer.
    params: String,
    /// The side to move's legal moves (empty without a game).
    legal: Vec<String>,
    /// `black`/`white`, without a game `None`.
    side: Option<String>,
    /// Whether final_score answers a result.
    over: bool,
    /// The game's name and size.
    game: Option<(String, usize)>,
}

impl Snap {
    fn param(&self, name: &str) -> Option<&str> {
        let body = text(&self.params)?;
        body.lines().find_map(|l| {
            let (k, v) = l.split_once(' ')?;
            (k == name).then_some(v)
        })
    }
}

const READ_ONLY: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "showboard",
    "legal_moves",
    "final_score",
    "perft",
    "reg_genmove",
    "evaluators",
    "analyze",
    "bench",
    "solve",
    "solve_all",
    "winning_sequence",
    "gogui-rules_game_id",
    "gogui-rules_board_size",
    "gogui-rules_board",
    "gogui-rules_legal_moves",
    "gogui-rules_side_to_move",
    "gogui-rules_final_result",
];

/// Commands that change settings the state shows, but not the position.
const SETTINGS: &[&str] = &["param", "time_settings", "time_left", "komi"];

/// Commands after which the game starts anew (no move to undo known).
const RESETS: &[&str] = &[
    "game",
    "boardsize",
    "clear_board",
    "loadsgf",
    "setup",
    "gogui-setup",
    "setup_player",
    "gogui-setup_player",
];

/// Search commands: their answers depend on the clock.
const SEARCHES: &[&str] = &[
    "genmove",
    "reg_genmove",
    "analyze",
    "bench",
    "solve",
    "solve_all",
];

// ---------------------------------------------------------------------
// The in-process executor and its oracles.

struct Exec {
    gtp: Gtp,
    dir: PathBuf,
    snap: Snap,
    /// The state before each move that `undo` may take back.
    undo_stack: Vec<Snap>,
    /// The moves since the game started (colour, move), for records.
    history: Vec<(char, String)>,
    /// Every line sent, in order (the stream).
    lines: Vec<Vec<u8>>,
    /// The answers of the in-process run, `None` for lines not answered or
    /// not run in-process.
    answers: Vec<Option<String>>,
    findings: Vec<String>,
    /// Stream lines run, and engine calls in all (oracle queries included).
    commands: u64,
    calls: u64,
    quit: bool,
    stats: Stats,
}

/// What the streams exercised: answers per command (`=`, `?`), and how
/// often the deeper oracles had something to check.
#[derive(Default)]
struct Stats {
    answers: BTreeMap<String, (u64, u64)>,
    undo_checks: u64,
    games_ended: u64,
    non_utf8_lines: u64,
}

impl Stats {
    fn add(&mut self, o: &Stats) {
        for (k, (a, b)) in &o.answers {
            let e = self.answers.entry(k.clone()).or_default();
            e.0 += a;
            e.1 += b;
        }
        self.undo_checks += o.undo_checks;
        self.games_ended += o.games_ended;
        self.non_utf8_lines += o.non_utf8_lines;
    }

    fn show(&self) -> String {
        let mut s = format!(
            "undo checks {}, games ended {}, non-UTF-8 lines {}\nanswers by command: ",
            self.undo_checks, self.games_ended, self.non_utf8_lines
        );
        for (k, (a, b)) in &self.answers {
            let _ = write!(s, "{k} ={a} ?{b}, ");
        }
        s
    }
}

impl Exec {
    fn new(dir: PathBuf) -> Exec {
        let mut ex = Exec {
            gtp: Gtp::new(),
            dir,
            snap: Snap::default(),
            undo_stack: Vec::new(),
            history: Vec::new(),
            lines: Vec::new(),
            answers: Vec::new(),
            findings: Vec::new(),
            commands: 0,
            calls: 0,
            quit: false,
            stats: Stats::default(),
        };
        ex.snap = ex.snapshot();
        ex
    }

    fn call(&mut self, line: &str) -> String {
        self.calls += 1;
        let a = self.gtp.execute(line).unwrap_or_default();
        if a.contains("internal error") {
            self.findings
                .push(format!("panic caught in oracle query '{line}': {a:?}"));
        }
        a
    }

    fn snapshot(&mut self) -> Snap {
        let board = self.call("showboard");
        let legal = self.call("legal_moves");
        let side = self.call("gogui-rules_side_to_move");
        let score = self.call("final_score");
        let size = self.call("gogui-rules_board_size");
        let game = self.call("gogui-rules_game_id");
        let params = self.call("param");
        let mut s = Snap {
            position: format!("{board}{legal}{side}{score}{size}{game}"),
            params,
            ..Snap::default()
        };
        s.legal = text(&legal)
            .map(|t| t.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default();
        s.side = text(&side).map(str::to_string);
        s.over = is_ok(&score);
        if let (Some(g), Some(n)) = (text(&game), text(&size).and_then(|t| t.parse().ok())) {
            s.game = Some((g.to_string(), n));
        }
        if is_ok(&legal) && s.legal.is_empty() != s.over {
            self.findings.push(format!(
                "legal_moves is {} but final_score answers {score:?}",
                if s.legal.is_empty() {
                    "empty"
                } else {
                    "not empty"
                }
            ));
        }
        s
    }

    fn find(&mut self, line: &str, what: String) {
        self.findings
            .push(format!("after '{}': {what}", short(line, 120)));
    }

    /// Sends one stream line (without its newline) and checks the oracles.
    fn run_line(&mut self, raw: &[u8]) {
        let raw = substitute(raw, &self.dir);
        self.lines.push(raw.clone());
        self.answers.push(None);
        if let Some(spec) = raw.strip_prefix(b"# fuzz-file ")
            && let Err(e) = make_file(&self.dir, spec)
        {
            self.findings.push(format!("bad fuzz-file line: {e}"));
        }
        if raw.len() + 1 > MAX_LINE || self.quit {
            return; // Answered by the loop alone (or never read).
        }
        let content = match raw.iter().position(|&b| b == b'#') {
            Some(i) => &raw[..i],
            None => &raw[..],
        };
        let Ok(line) = std::str::from_utf8(content) else {
            self.stats.non_utf8_lines += 1;
            return; // Answered by the loop alone.
        };
        let line = line.to_string();
        let cmd = parse(&line);
        let before = self.snap.clone();
        // genmove's move must be one of the colour's legal moves.
        let mut legal_for: Option<Vec<String>> = None;
        if let Some(c) = &cmd
            && matches!(c.name.as_str(), "genmove" | "reg_genmove")
            && c.args.len() == 1
            && let Some(col) = color_of(&c.args[0])
        {
            let a = self.call(&format!("legal_moves {col}"));
            legal_for = text(&a).map(|t| t.split_whitespace().map(norm).collect::<Vec<_>>());
        }
        let start = Instant::now();
        self.calls += 1;
        self.commands += 1;
        let answer = self.gtp.execute(&line);
        let took = start.elapsed();
        *self.answers.last_mut().unwrap() = answer.clone();
        if took > SLOW {
            self.find(&line, format!("took {took:?}"));
        }
        let Some(cmd) = cmd else {
            if let Some(a) = answer {
                self.find(&line, format!("a blank or comment line was answered {a:?}"));
            }
            return;
        };
        let Some(answer) = answer else {
            self.find(&line, "no answer".into());
            return;
        };
        if let Err(e) = check_answer(&answer, cmd.id.as_deref()) {
            self.find(&line, e);
        }
        let ok = is_ok(&answer);
        let known = protocol::COMMANDS.iter().any(|(n, _)| *n == cmd.name)
            || GAMES
                .iter()
                .any(|e| e.option(&cmd.name).is_some() || e.command(&cmd.name).is_some());
        let key = if known {
            cmd.name.clone()
        } else {
            "(unknown)".into()
        };
        let e = self.stats.answers.entry(key).or_default();
        if ok {
            e.0 += 1;
        } else {
            e.1 += 1;
        }
        if ok && cmd.name == "quit" {
            self.quit = true;
            return;
        }
        let after = self.snapshot();
        let name = cmd.name.as_str();
        let game_option = self
            .gtp
            .engine
            .entry()
            .is_some_and(|e| e.option(name).is_some())
            || GAMES.iter().any(|e| e.option(name).is_some());
        let game_command = GAMES.iter().any(|e| e.command(name).is_some());
        if !ok {
            if after != before {
                self.find(
                    &line,
                    format!(
                        "the failure {} changed the state:\n{}",
                        answer.trim(),
                        diff(&before, &after)
                    ),
                );
            }
        } else if READ_ONLY.contains(&name) || game_command {
            if after != before {
                self.find(
                    &line,
                    format!(
                        "a read-only command changed the state:\n{}",
                        diff(&before, &after)
                    ),
                );
            }
        } else if SETTINGS.contains(&name) && after.position != before.position {
            self.find(
                &line,
                format!("a setting changed the position:\n{}", diff(&before, &after)),
            );
        }
        // A legal move of the side to move is accepted.
        if name == "play" && cmd.args.len() == 2 && !ok {
            let col = color_of(&cmd.args[0]);
            if col.is_some()
                && col == before.side.as_deref()
                && before
                    .legal
                    .iter()
                    .any(|m| m.eq_ignore_ascii_case(&cmd.args[1]))
            {
                self.find(
                    &line,
                    format!("a listed legal move was refused: {}", answer.trim()),
                );
            }
        }
        if matches!(name, "genmove" | "reg_genmove") && ok {
            let m = text(&answer).unwrap_or_default().to_string();
            if let Some(legal) = &legal_for {
                if m == "resign" {
                    if !legal.is_empty() {
                        self.find(&line, format!("resigned with {} legal moves", legal.len()));
                    }
                } else if !legal.contains(&norm(&m)) {
                    self.find(&line, format!("played '{m}', not a legal move"));
                }
            }
            if (name == "reg_genmove" || m == "resign") && after != before {
                self.find(&line, "a move not played changed the state".into());
            }
        }
        // Undo.
        let moved = ok
            && match name {
                "play" => true,
                "genmove" => text(&answer) != Some("resign"),
                _ => false,
            };
        if moved {
            self.undo_stack.push(before.clone());
            let col = color_of(&cmd.args[0]).map_or('?', |c| if c == "black" { 'B' } else { 'W' });
            let mv = if name == "play" {
                cmd.args[1].clone()
            } else {
                text(&answer).unwrap_or_default().to_string()
            };
            self.history.push((col, mv));
        }
        if name == "undo" {
            if ok {
                self.history.pop();
                if let Some(prev) = self.undo_stack.pop() {
                    self.stats.undo_checks += 1;
                    if prev.position != after.position {
                        self.find(
                            &line,
                            format!(
                                "undo did not restore the position:\n{}",
                                diff(&prev, &after)
                            ),
                        );
                    }
                }
            } else if !self.undo_stack.is_empty() && cmd.args.is_empty() {
                self.find(
                    &line,
                    format!(
                        "undo refused with {} moves played: {}",
                        self.undo_stack.len(),
                        answer.trim()
                    ),
                );
            }
        }
        if ok && (RESETS.contains(&name) || game_option) {
            self.undo_stack.clear();
            self.history.clear();
        }
        if after.over && !before.over {
            self.stats.games_ended += 1;
        }
        self.snap = after;
        self.guard();
    }

    /// Keeps the searches short whatever the stream set: a search limit
    /// out of the fuzzer's bounds is set back (the lines are part of the
    /// stream, so a replay does the same).
    fn guard(&mut self) {
        let mut fixes = Vec::new();
        let num = |s: &Snap, k: &str| s.param(k).and_then(|v| v.parse::<f64>().ok());
        let mt = num(&self.snap, "move_time");
        if mt.is_some_and(|t| !(0.001..=0.05).contains(&t)) {
            fixes.push("param move_time 0.01");
        }
        if num(&self.snap, "max_depth").is_some_and(|d| d > 3.0) {
            fixes.push("param max_depth 2");
        }
        if num(&self.snap, "threads").is_some_and(|d| d > 2.0) {
            fixes.push("param threads 1");
        }
        if num(&self.snap, "hash").is_some_and(|d| d > 4.0) {
            fixes.push("param hash 1");
        }
        for f in fixes {
            self.run_line(f.as_bytes());
        }
    }
}

fn short(s: &str, n: usize) -> String {
    match s.char_indices().nth(n) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

fn diff(a: &Snap, b: &Snap) -> String {
    let mut out = String::new();
    for (x, y) in [(&a.position, &b.position), (&a.params, &b.params)] {
        if x != y {
            let _ = writeln!(out, "before: {}\nafter:  {}", short(x, 600), short(y, 600));
        }
    }
    out
}

fn substitute(raw: &[u8], dir: &Path) -> Vec<u8> {
    let pat = b"{DIR}";
    let dir = dir.to_string_lossy();
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if raw[i..].starts_with(pat) {
            out.extend_from_slice(dir.as_bytes());
            i += pat.len();
        } else {
            out.push(raw[i]);
            i += 1;
        }
    }
    out
}

fn make_file(dir: &Path, spec: &[u8]) -> Result<(), String> {
    let spec = std::str::from_utf8(spec).map_err(|e| e.to_string())?;
    let (name, hex) = spec.trim().split_once(' ').unwrap_or((spec.trim(), ""));
    if name.contains('/') || name.is_empty() {
        return Err(format!("bad file name '{name}'"));
    }
    let bytes = from_hex(hex.trim()).ok_or("bad hex")?;
    std::fs::write(dir.join(name), bytes).map_err(|e| e.to_string())
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn from_hex(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect()
}

// ---------------------------------------------------------------------
// The real command loop over the stream's bytes.

/// Runs the stream through [`protocol::run`] with a fresh engine and
/// checks the answers; `Err` with what went wrong.
fn run_raw(lines: &[Vec<u8>], in_process: &[Option<String>], bom: bool, crlf: bool) -> Vec<String> {
    let mut input = Vec::new();
    if bom {
        input.extend_from_slice(b"\xEF\xBB\xBF");
    }
    for l in lines {
        input.extend_from_slice(l);
        input.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
    }
    let mut out = Vec::new();
    let mut findings = Vec::new();
    if let Err(e) = protocol::run(std::io::Cursor::new(input), &mut out) {
        findings.push(format!("command loop failed: {e}"));
    }
    let out = String::from_utf8_lossy(&out);
    let mut answers: Vec<String> = out.split_inclusive("\n\n").map(str::to_string).collect();
    answers.reverse();
    let mut comparing = true;
    for (i, l) in lines.iter().enumerate() {
        let Some((id, fixed)) = expected_raw(l) else {
            continue;
        };
        let shown = short(&String::from_utf8_lossy(l), 120);
        let Some(a) = answers.pop() else {
            findings.push(format!("raw: no answer to line {} '{shown}'", i + 1));
            break;
        };
        if let Err(e) = check_answer(&a, id.as_deref()) {
            findings.push(format!("raw: line {} '{shown}': {e}", i + 1));
        }
        if let Some(f) = fixed {
            let got = a.trim_end();
            let want = match &id {
                Some(id) => f.replacen('?', &format!("?{id}"), 1),
                None => f.to_string(),
            };
            if got != want {
                findings.push(format!(
                    "raw: line {} '{shown}': answered {got:?}, not {want:?}",
                    i + 1
                ));
            }
        }
        let p = std::str::from_utf8(l).ok().and_then(parse);
        let name = p.as_ref().map(|p| p.name.clone()).unwrap_or_default();
        if SEARCHES.contains(&name.as_str()) {
            comparing = false;
        }
        if comparing
            && let Some(Some(b)) = in_process.get(i)
            && *b != a
        {
            findings.push(format!(
                "raw: line {} '{shown}': the loop answered {a:?}, in-process {b:?}",
                i + 1
            ));
            comparing = false;
        }
        if name == "quit" && is_ok(&a) {
            break;
        }
    }
    if let Some(extra) = answers.last() {
        findings.push(format!(
            "raw: {} answers too many, first {extra:?}",
            answers.len()
        ));
    }
    findings
}

// ---------------------------------------------------------------------
// The generator.

struct Gen {
    rng: SmallRng,
    files: u32,
}

const BAD_COLORS: &[&str] = &[
    "x", "bw", "blue", "0", "1", "empty", "e", "é", "bl", "-", "wb", "blackk",
];

const ABSURD_SIZES: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "5",
    "27",
    "28",
    "100",
    "1000000",
    "-1",
    "-8",
    "+8",
    "08",
    "8.0",
    "8e0",
    "0x8",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999",
    "abc",
    "",
    "١٢",
    "NaN",
];

const SECONDS: &[&str] = &[
    "0",
    "1",
    "10",
    "0.5",
    "-1",
    "-0",
    "1e308",
    "1e309",
    "inf",
    "-inf",
    "NaN",
    "nan",
    "1e-320",
    "86400",
    "86401",
    "abc",
    "",
    "5e-324",
    "0x10",
    "1_000",
    "9999999999999999999999",
    "30.",
    ".5",
];
const COUNTS: &[&str] = &[
    "0",
    "1",
    "25",
    "-1",
    "4294967295",
    "4294967296",
    "1.5",
    "x",
    "99999999999999999999",
];

const UNKNOWN: &[&str] = &[
    "foo",
    "play_",
    "gen_move",
    "kgs-genmove_cleanup",
    "gogui-analyze_commands",
    "lz-analyze",
    "help",
    "time_lefts",
    "undo_all",
    "Ω",
    "play\u{a0}b",
    "\u{200b}name",
    "-",
    "=",
    "?",
    "=1",
    "#",
    "quit_",
    "cputime",
    "final_status_list",
    "fixed_handicap",
    "set_free_handicap",
    "loadsgf\u{0}",
];

const PARAM_NAMES: &[&str] = &[
    "max_depth",
    "move_time",
    "seed",
    "player",
    "eval",
    "hash",
    "threads",
    "verbose",
    "depth",
    "MAX_DEPTH",
    "",
    "move-time",
];

impl Gen {
    fn new(seed: u64) -> Gen {
        Gen {
            rng: SmallRng::seed_from_u64(seed),
            files: 0,
        }
    }

    fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p)
    }

    fn below(&mut self, n: usize) -> usize {
        self.rng.random_range(0..n.max(1))
    }

    fn pick<'a>(&mut self, list: &[&'a str]) -> &'a str {
        list[self.below(list.len())]
    }

    fn entry(&mut self) -> &'static GameEntry {
        GAMES[self.below(GAMES.len())]
    }

    /// A size the game has, mostly small.
    fn good_size(&mut self, e: &GameEntry) -> usize {
        let (from, to, step) = e.sizes;
        let span = if self.chance(0.85) {
            3
        } else {
            (to - from) / step + 1
        };
        let k = self.below(span.min((to - from) / step + 1));
        from + k * step
    }

    fn color(&mut self, s: &Snap) -> String {
        let side = s.side.clone().unwrap_or_else(|| "black".into());
        let other = if side == "black" { "white" } else { "black" };
        match self.below(10) {
            0..=5 => self.spell(&side),
            6..=8 => self.spell(other),
            _ => self.pick(BAD_COLORS).to_string(),
        }
    }

    fn spell(&mut self, color: &str) -> String {
        let c = &color[..1];
        match self.below(4) {
            0 => c.to_string(),
            1 => color.to_string(),
            2 => c.to_ascii_uppercase(),
            _ => color.to_ascii_uppercase(),
        }
    }

    /// Random text: letters, digits, signs, unicode, sometimes long.
    fn garbage(&mut self) -> String {
        const ALPHABET: &[char] = &[
            'a', 'Z', 'd', 'E', '0', '1', '9', '-', '*', '+', '.', ',', '[', ']', '(', ')', ';',
            '\\', '"', '\'', 'é', 'ß', '中', '😀', '\u{a0}', '\u{200b}', '\u{feff}', '\u{1}',
            '\u{7f}', '\r', '\t',
        ];
        let len = match self.below(20) {
            0 => 1000 + self.below(10_000),
            1 => 41 + self.below(20),
            _ => 1 + self.below(8),
        };
        if len > 1000 && self.chance(0.5) {
            return "A".repeat(len);
        }
        (0..len)
            .map(|_| ALPHABET[self.below(ALPHABET.len())])
            .collect()
    }

    fn point_like(&mut self, s: &Snap) -> String {
        let n = s.game.as_ref().map_or(12, |g| g.1);
        let col = |k: usize| (b'A' + (k % 26) as u8) as char;
        let a = self.below(n + 2);
        let r = self.below(n + 3);
        match self.below(12) {
            0 => format!("{}{}", col(a), n + 1),
            1 => format!("{}0", col(a)),
            2 => format!("{}{}{}{}", col(a), col(a + 1), r, r + 1),
            3 => format!("{}{}{}{}", col(a), col(a), r, r),
            4 => format!("{}{}", col(a).to_ascii_lowercase(), r),
            5 => format!("{}{}-{}{}", col(a), r, col(a + 1), r + 1),
            6 => format!("{}{}*", col(a), r),
            7 => format!("{}{}**", col(a), r),
            8 => format!("{}{}", col(a), "9".repeat(1 + self.below(30))),
            9 => format!("{}{}{}", col(a), col(a + 1), r),
            _ => format!("{}{}", col(a), r),
        }
    }

    /// A move: mostly legal ones, else mangled or invented.
    fn a_move(&mut self, s: &Snap) -> String {
        if !s.legal.is_empty() && self.chance(0.5) {
            let m = s.legal[self.below(s.legal.len())].clone();
            return match self.below(8) {
                0 => m.to_ascii_lowercase(),
                1 => format!("{}*", m.trim_end_matches('*')),
                2 => m.trim_end_matches('*').to_string(),
                3 => format!("{m}{}", self.garbage()),
                4 => m.replace('-', "--"),
                5 => m.chars().rev().collect(),
                _ => m,
            };
        }
        match self.below(6) {
            0 => self
                .pick(&[
                    "swap",
                    "pass",
                    "resign",
                    "swap-pieces",
                    "SWAP",
                    "-",
                    "PASS",
                    "null",
                    "tenuki",
                ])
                .into(),
            1 => self.garbage(),
            _ => self.point_like(s),
        }
    }

    fn points(&mut self, s: &Snap) -> String {
        let k = 1 + self.below(4);
        (0..k)
            .map(|_| {
                if !s.legal.is_empty() && self.chance(0.6) {
                    let m = &s.legal[self.below(s.legal.len())];
                    m.split('-')
                        .next()
                        .unwrap_or(m)
                        .trim_end_matches('*')
                        .to_string()
                } else {
                    self.point_like(s)
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A game record for the current game (its moves so far, or random
    /// ones), often mangled; the file's comment line and the loadsgf line.
    fn record(&mut self, ex: &Exec) -> Vec<Vec<u8>> {
        let (game, size) = ex.snap.game.clone().unwrap_or(("onyx".into(), 12));
        let game = if self.chance(0.1) {
            self.entry().name.to_string()
        } else {
            game
        };
        let mut sgf = String::from("(;FF[4]CA[UTF-8]AP[fuzz]");
        match self.below(10) {
            0 => {}
            1 => sgf.push_str(&format!("GN[{game} x]")),
            2 => sgf.push_str("GM[11]"),
            3 => sgf.push_str(&format!("XG[{}]", self.garbage())),
            _ => sgf.push_str(&format!("XG[{game}]")),
        }
        match self.below(10) {
            0 => {}
            1 => sgf.push_str(&format!("SZ[{}]", self.pick(ABSURD_SIZES))),
            2 => sgf.push_str(&format!("SZ[{size}:{size}]")),
            _ => sgf.push_str(&format!("SZ[{size}]")),
        }
        if game == "onyx" && self.chance(0.3) {
            let v = self.pick(&["standard", "blank", "nonsense", ""]);
            sgf.push_str(&format!("XS[{v}]"));
        }
        if self.chance(0.2) {
            sgf.push_str("RE[B+]C[a comment with \\] and \\\\ and ünïcode]");
        }
        let mut moves: Vec<(char, String)> = ex.history.clone();
        if moves.is_empty() || self.chance(0.2) {
            for i in 0..self.below(6) {
                let c = if i % 2 == 0 { 'B' } else { 'W' };
                moves.push((c, self.point_like(&ex.snap)));
            }
        }
        for (c, m) in &moves {
            sgf.push_str(&format!(";{c}[{m}]"));
            if self.chance(0.1) {
                sgf.push_str("XT[0.01]BL[9.5]");
            }
        }
        sgf.push(')');
        let mut bytes = sgf.into_bytes();
        // Mangling.
        match self.below(15) {
            14 => {
                // A value that holds what looks like answers, with NUL
                // and CR: echoed in an error, it must stay inside one.
                let forged = "\n= 1 fake\u{0}\r\n?2 forged\r";
                let s = String::from_utf8_lossy(&bytes).into_owned();
                bytes = match s.find(";B[") {
                    Some(i) if self.chance(0.7) => {
                        let mut s = s;
                        s.insert_str(i + 3, forged);
                        s.into_bytes()
                    }
                    _ => s.replacen("(;", &format!("(;PB[{forged}]"), 1).into_bytes(),
                };
            }
            0..=4 => {}
            5 => {
                let cut = self.below(bytes.len());
                bytes.truncate(cut);
            }
            6 => {
                for _ in 0..1 + self.below(3) {
                    let i = self.below(bytes.len());
                    bytes.remove(i);
                }
            }
            7 => {
                for _ in 0..1 + self.below(3) {
                    let i = self.below(bytes.len() + 1);
                    let b = *[
                        b'(', b')', b'[', b']', b';', b'\\', b'\n', 0xff, 0xc3, b'B', b'W',
                    ]
                    .get(self.below(11))
                    .unwrap();
                    bytes.insert(i, b);
                }
            }
            8 => {
                let depth = 1 + self.below(40_000);
                let mut v = vec![b'('; depth];
                v.extend_from_slice(b";FF[4]XG[hex]SZ[5]");
                v.extend(std::iter::repeat_n(
                    b')',
                    if self.chance(0.5) { depth } else { depth / 2 },
                ));
                bytes = v;
            }
            9 => {
                // Variations.
                let s = String::from_utf8_lossy(&bytes)
                    .trim_end_matches(')')
                    .to_string();
                bytes = format!("{s}(;B[A1])(;W[B2];B[C3]))").into_bytes();
            }
            10 => {
                let big = "x".repeat(1000 + self.below(200_000));
                bytes.splice(
                    bytes.len() - 1..bytes.len() - 1,
                    format!("C[{big}]").into_bytes(),
                );
            }
            11 => bytes.clear(),
            12 => {
                bytes = (0..self.below(200))
                    .map(|_| self.rng.random::<u8>())
                    .collect()
            }
            _ => {
                let s = String::from_utf8_lossy(&bytes).into_owned();
                bytes = s.replace("[", "[ ").replace(";", " ; ").into_bytes();
            }
        }
        self.files += 1;
        let name = format!("r{}.sgf", self.files);
        let mut load = format!("loadsgf {{DIR}}/{name}");
        match self.below(6) {
            0 => load.push_str(&format!(" {}", 1 + self.below(moves.len() + 2))),
            1 => load.push_str(&format!(" {}", self.pick(COUNTS))),
            _ => {}
        }
        vec![
            format!("# fuzz-file {name} {}", to_hex(&bytes)).into_bytes(),
            load.into_bytes(),
        ]
    }

    fn param(&mut self, ex: &Exec) -> String {
        let name = self.pick(PARAM_NAMES);
        if self.chance(0.15) {
            return format!("param {name}");
        }
        let value: String = match name {
            "max_depth" | "MAX_DEPTH" => self
                .pick(&[
                    "1",
                    "2",
                    "3",
                    "0",
                    "65",
                    "-1",
                    "2.5",
                    "x",
                    "18446744073709551616",
                    "",
                ])
                .into(),
            "move_time" => self
                .pick(&[
                    "0.001", "0.01", "0.02", "-1", "NaN", "inf", "1e400", "86401", "0x1",
                    "-0.0001", "abc",
                ])
                .into(),
            "seed" => self
                .pick(&[
                    "0",
                    "1",
                    "18446744073709551615",
                    "18446744073709551616",
                    "-1",
                    "x",
                ])
                .into(),
            "player" => self
                .pick(&["alphabeta", "mcts", "greedy", "random", "MCTS", "human", ""])
                .into(),
            "eval" => {
                let a = ex.snap.game.as_ref().map(|g| g.0.clone());
                match a {
                    Some(_) if self.chance(0.5) => "default".into(),
                    _ => self.garbage(),
                }
            }
            "hash" => self
                .pick(&[
                    "1",
                    "2",
                    "0",
                    "16385",
                    "-1",
                    "99999999999999999999",
                    "1.5",
                    "x",
                ])
                .into(),
            "threads" => self.pick(&["1", "2", "0", "257", "-2", "x"]).into(),
            "verbose" => self.pick(&["false", "off", "0", "maybe", "", "2"]).into(),
            _ => self.garbage(),
        };
        if self.chance(0.05) {
            format!("param {name} {value} extra")
        } else {
            format!("param {name} {value}")
        }
    }

    /// The next lines of the stream, given the engine's state.
    fn next(&mut self, ex: &Exec) -> Vec<Vec<u8>> {
        let s = &ex.snap;
        if s.over && self.chance(0.3) {
            let l = self.pick(&[
                "final_score",
                "winning_sequence",
                "undo",
                "gogui-rules_final_result",
            ]);
            return vec![self.decorate(l.into()).into_bytes()];
        }
        if s.legal.iter().any(|m| m == "pass") && self.chance(0.03) {
            let side = s.side.clone().unwrap_or_default();
            return vec![format!("play {side} pass").into_bytes()];
        }
        let r = self.below(100);
        let line: String = match r {
            0..=21 if !s.legal.is_empty() => {
                let m = s.legal[self.below(s.legal.len())].clone();
                let side = s.side.clone().unwrap_or_default();
                format!("play {} {m}", self.spell(&side))
            }
            0..=26 => format!("play {} {}", self.color(s), self.a_move(s)),
            27..=29 => match self.below(5) {
                0 => "play".into(),
                1 => format!("play {}", self.color(s)),
                2 => format!(
                    "play {} {} {}",
                    self.color(s),
                    self.a_move(s),
                    self.a_move(s)
                ),
                _ => format!("play {} {}", self.pick(BAD_COLORS), self.a_move(s)),
            },
            30..=39 => {
                if self.chance(0.05) {
                    "undo 1".into()
                } else {
                    "undo".into()
                }
            }
            40..=41 => "clear_board".into(),
            42..=43 => {
                if self.chance(0.8) {
                    format!("game {}", self.entry().name)
                } else {
                    let g = self.pick(&["go", "ONYX", "Hex", "", "onyx orcoon", "akron2", "chess"]);
                    if g.is_empty() {
                        "game".into()
                    } else {
                        format!("game {g}")
                    }
                }
            }
            44..=46 => {
                let e = match &s.game {
                    Some((g, _)) => crosscut::games::find(g).unwrap_or(GAMES[0]),
                    None => self.entry(),
                };
                if self.chance(0.65) {
                    format!("boardsize {}", self.good_size(e))
                } else {
                    format!("boardsize {}", self.pick(ABSURD_SIZES))
                }
            }
            47..=50 => {
                let c = self.color(s);
                let cmd = if self.chance(0.7) {
                    "genmove"
                } else {
                    "reg_genmove"
                };
                format!("{cmd} {c}")
            }
            51 => format!("analyze {}", self.color(s)),
            52..=54 => match self.below(6) {
                0 => format!(
                    "setup {} {}",
                    self.pick(&["empty", "e", "EMPTY"]),
                    self.points(s)
                ),
                1 => format!("setup_player {}", self.color(s)),
                2 => format!("gogui-setup_player {}", self.color(s)),
                3 => {
                    let pairs: Vec<String> = (0..1 + self.below(3))
                        .map(|_| {
                            let c = self.color(s);
                            let p = self.points(s);
                            let p = p.split(' ').next().unwrap_or_default().to_string();
                            format!("{c} {p}")
                        })
                        .collect();
                    format!("gogui-setup {}", pairs.join(" "))
                }
                _ => format!("setup {} {}", self.color(s), self.points(s)),
            },
            55..=56 => return self.record(ex),
            57 => {
                let p = self.pick(&[
                    "/nonexistent/x.sgf",
                    "/dev/null",
                    "/dev/zero",
                    "/tmp",
                    "{DIR}",
                    "",
                    "{DIR}/r1.sgf 0",
                    "{DIR}/r1.sgf -1",
                    "{DIR}/r1.sgf 99999999999",
                    "{DIR}/r1.sgf 2 3",
                ]);
                format!("loadsgf {p}")
            }
            58..=59 => format!(
                "time_settings {} {} {}",
                self.pick(SECONDS),
                self.pick(SECONDS),
                self.pick(COUNTS)
            ),
            60..=61 => format!(
                "time_left {} {} {}",
                self.color(s),
                self.pick(SECONDS),
                self.pick(COUNTS)
            ),
            62..=65 => self.param(ex),
            66 => {
                let small = s.game.as_ref().is_some_and(|g| g.1 <= 6);
                let d = if small && self.chance(0.3) {
                    "2"
                } else {
                    self.pick(&["0", "1", "1", "9", "-1", "x", "99999999999", ""])
                };
                format!("perft {d}")
            }
            67 => self
                .pick(&[
                    "winning_sequence",
                    "winning_sequence x",
                    "evaluators",
                    "evaluators x",
                    // The solver with tiny limits, on whatever board (26x26
                    // too): it must keep them (SLOW), where one node of a
                    // large board used to take seconds.
                    "solve 0.01",
                    "solve w 0.005",
                    "solve_all 0.0005",
                ])
                .into(),
            68 => format!(
                "start {}",
                self.pick(&["standard", "blank", "Standard", "x", "", "blank blank"])
            ),
            69..=76 => self
                .pick(&[
                    "showboard",
                    "legal_moves",
                    "legal_moves b",
                    "legal_moves w",
                    "legal_moves x",
                    "final_score",
                    "gogui-rules_game_id",
                    "gogui-rules_board_size",
                    "gogui-rules_board",
                    "gogui-rules_legal_moves",
                    "gogui-rules_side_to_move",
                    "gogui-rules_final_result",
                    "known_command play",
                    "known_command winning_sequence",
                    "known_command",
                    "list_commands",
                    "protocol_version",
                    "name",
                    "version",
                    "komi 6.5",
                    "komi x",
                    "komi",
                    "komi NaN",
                    "param",
                ])
                .into(),
            77..=80 => {
                if self.chance(0.3) {
                    self.garbage()
                } else {
                    let u = self.pick(UNKNOWN);
                    format!("{u} {}", self.garbage())
                }
            }
            81 => self
                .pick(&[
                    "bench 0",
                    "bench 13",
                    "bench x",
                    "bench movetime 0",
                    "bench movetime 601",
                    "bench movetime",
                    "bench 1 nosuchgame",
                    "bench movetime NaN hex",
                    "bench 1 hex extra",
                ])
                .into(),
            82..=85 => {
                return vec![match self.below(8) {
                    0 => b"".to_vec(),
                    1 => b"   \t  ".to_vec(),
                    2 => b"# a comment".to_vec(),
                    3 => b"   # play b A1".to_vec(),
                    4 => b"\r".to_vec(),
                    5 => "\u{3000}\u{a0}".as_bytes().to_vec(),
                    6 => b"# \xff\xfe bytes in a comment".to_vec(),
                    _ => b"\x01\x02\x7f".to_vec(),
                }];
            }
            86..=87 => {
                return vec![match self.below(6) {
                    0 => b"\xff\xfe".to_vec(),
                    1 => b"play b \xc3".to_vec(),
                    2 => b"12 name \x80".to_vec(),
                    3 => b"name # \xff ok in a comment".to_vec(),
                    4 => b"007 showboard \xed\xa0\x80".to_vec(),
                    _ => b"\xc0\xaf".to_vec(),
                }];
            }
            88 => {
                if self.chance(0.1) {
                    // Over the loop's line limit: answered `line too long`.
                    let mut l = b"77 play b ".to_vec();
                    l.resize(MAX_LINE + self.below(1000), b'A');
                    return vec![l];
                }
                format!("play b {}", "A".repeat(100_000 + self.below(200_000)))
            }
            89 => "quit".into(),
            _ => {
                // Another legal move, by the other colour or in upper case.
                if s.legal.is_empty() {
                    "undo".into()
                } else {
                    let m = s.legal[self.below(s.legal.len())].to_ascii_uppercase();
                    format!("play {} {m}", self.color(s))
                }
            }
        };
        if line == "quit" && !self.chance(0.1) {
            return vec![b"showboard".to_vec()];
        }
        vec![self.decorate(line).into_bytes()]
    }

    /// Ids, case, spacing, trailing comments and control characters.
    fn decorate(&mut self, line: String) -> String {
        let mut line = line;
        if self.chance(0.05) {
            let mut words: Vec<String> = line.split(' ').map(str::to_string).collect();
            words[0] = words[0]
                .chars()
                .map(|c| {
                    if self.chance(0.5) {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    }
                })
                .collect();
            line = words.join(" ");
        }
        if self.chance(0.05) {
            line = line.replace(' ', if self.chance(0.5) { "\t" } else { "   " });
        }
        if self.chance(0.25) {
            let id = match self.below(6) {
                0 => "0".to_string(),
                1 => "007".to_string(),
                2 => "123456789012345678901234567890".to_string(),
                _ => self.below(1000).to_string(),
            };
            line = format!("{id} {line}");
        }
        if self.chance(0.04) {
            line.push_str(" # trailing comment");
        }
        if self.chance(0.03) {
            let i = self.below(line.len() + 1);
            if line.is_char_boundary(i) {
                line.insert(i, ['\u{1}', '\r', '\u{7f}', '\u{1b}'][self.below(4)]);
            }
        }
        if self.chance(0.02) {
            line = format!("  {line}  ");
        }
        line
    }
}

// ---------------------------------------------------------------------
// Streams.

/// What one stream found, with the counts.
struct Outcome {
    lines: Vec<Vec<u8>>,
    findings: Vec<String>,
    commands: u64,
    calls: u64,
    stats: Stats,
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("crosscut-fuzz-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Runs lines in-process (generated or replayed), then through the loop.
fn finish(mut ex: Exec, raw_variant: u64) -> Outcome {
    let bom = raw_variant % 5 == 1;
    let crlf = raw_variant % 7 == 3;
    let raw = run_raw(&ex.lines, &ex.answers, bom, crlf);
    ex.findings.extend(raw);
    let _ = std::fs::remove_dir_all(&ex.dir);
    Outcome {
        calls: ex.calls + ex.lines.len() as u64,
        lines: ex.lines,
        findings: ex.findings,
        commands: ex.commands,
        stats: ex.stats,
    }
}

const PRELUDE: &[&str] = &[
    "param verbose false",
    "param move_time 0.01",
    "param max_depth 2",
    "param hash 1",
];

fn generated_stream(seed: u64) -> Outcome {
    let mut g = Gen::new(seed);
    let mut ex = Exec::new(temp_dir(&format!("s{seed}")));
    for l in PRELUDE {
        ex.run_line(l.as_bytes());
    }
    if !g.chance(0.1) {
        let name = g.entry().name;
        ex.run_line(format!("game {name}").as_bytes());
        if g.chance(0.6) {
            let e = crosscut::games::find(name).unwrap();
            let n = g.good_size(e);
            ex.run_line(format!("boardsize {n}").as_bytes());
        }
    }
    let len = 20 + g.below(120);
    for _ in 0..len {
        if ex.quit {
            break;
        }
        for l in g.next(&ex) {
            ex.run_line(&l);
        }
        if !ex.findings.is_empty() {
            break;
        }
    }
    finish(ex, seed)
}

fn replay(lines: &[Vec<u8>], tag: &str) -> Outcome {
    let mut ex = Exec::new(temp_dir(tag));
    for l in lines {
        ex.run_line(l);
    }
    finish(ex, 0)
}

fn split_lines(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut lines: Vec<Vec<u8>> = bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    if lines.last().is_some_and(Vec::is_empty) {
        lines.pop();
    }
    lines
}

/// A finding as a stream file: the findings as comments, then the lines.
fn finding_file(seed: u64, o: &Outcome) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(format!("# fuzz finding, seed {seed}\n").as_bytes());
    for f in &o.findings {
        for l in f.lines() {
            out.extend_from_slice(format!("# {}\n", short(l, 400)).as_bytes());
        }
    }
    for l in &o.lines {
        out.extend_from_slice(l);
        out.push(b'\n');
    }
    out
}

#[test]
fn generated_streams() {
    let seconds: Option<f64> = std::env::var("CROSSCUT_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok());
    let first: u64 = match seconds {
        Some(_) => std::env::var("CROSSCUT_FUZZ_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(1_000_000),
        None => 0,
    };
    let out_dir = PathBuf::from(
        std::env::var("CROSSCUT_FUZZ_OUT").unwrap_or_else(|_| "target/fuzz-findings".into()),
    );
    let start = Instant::now();
    let (mut streams, mut commands, mut calls, mut findings) = (0u64, 0u64, 0u64, 0u64);
    let mut report = Vec::new();
    let mut stats = Stats::default();
    let mut seed = first;
    loop {
        let more = match seconds {
            Some(s) => start.elapsed().as_secs_f64() < s,
            None => streams < DEFAULT_STREAMS,
        };
        if !more {
            break;
        }
        let o = generated_stream(seed);
        streams += 1;
        commands += o.commands;
        calls += o.calls;
        stats.add(&o.stats);
        if !o.findings.is_empty() {
            findings += 1;
            let _ = std::fs::create_dir_all(&out_dir);
            let path = out_dir.join(format!("seed-{seed}.gtp"));
            let _ = std::fs::write(&path, finding_file(seed, &o));
            report.push(format!(
                "seed {seed} ({}): {}",
                path.display(),
                short(&o.findings.join(" | "), 2000)
            ));
        }
        seed += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "fuzz: seeds {first}..{seed} streams {streams} executions {commands} (engine calls {calls}, \
         {:.0}/s) findings {findings} time {secs:.1}s",
        calls as f64 / secs
    );
    println!("fuzz: {}", stats.show());
    for r in &report {
        println!("finding: {r}");
    }
    assert!(
        report.is_empty(),
        "{} findings:\n{}",
        report.len(),
        report.join("\n")
    );
}

#[test]
fn corpus_replays() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/fuzz")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "gtp"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no corpus in {}", dir.display());
    let mut failures = Vec::new();
    for f in &files {
        let name = f.file_stem().unwrap().to_string_lossy().into_owned();
        let o = replay(&split_lines(&std::fs::read(f).unwrap()), &name);
        if !o.findings.is_empty() {
            failures.push(format!("{name}: {}", o.findings.join(" | ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Streams that end while a command without a limit runs, on the largest
/// board of every game: the end of the input stops it (an unlimited
/// `solve`, `solve_all`, `analyze`, and `genmove` with the solver first
/// ran for as long as 48 minutes with no one to read them), every line is
/// answered, and the loop returns.
#[test]
fn streams_that_end_during_an_unlimited_command_end() {
    for e in GAMES {
        let size = e.sizes.1;
        for tail in [
            "solve 0",
            "param solve_time 0\nsolve_all",
            "param genmove_solve 1000\nparam move_time 0\ngenmove b",
            "param move_time 0\nparam max_depth 64\nanalyze w",
        ] {
            let text = format!(
                "game {}\nboardsize {size}\nparam verbose false\n{tail}",
                e.name
            );
            let lines: Vec<Vec<u8>> = text.lines().map(|l| l.as_bytes().to_vec()).collect();
            let (tx, rx) = std::sync::mpsc::channel();
            let n = lines.len();
            std::thread::spawn(move || {
                let _ = tx.send(run_raw(&lines, &vec![None; n], false, false));
            });
            let findings = rx
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|_| panic!("{text:?}: still running 30 s after the input ended"));
            assert!(findings.is_empty(), "{text:?}: {findings:?}");
        }
    }
}

#[test]
fn oracles_catch_what_they_should() {
    // The answer checks.
    assert!(check_answer("=12 x\n\n", Some("12")).is_ok());
    assert!(check_answer("= \n\n", None).is_ok());
    assert!(check_answer("=\n\n", None).is_err());
    assert!(check_answer("=12\n\n", Some("12")).is_err());
    assert!(check_answer("=1 x\n\n", Some("12")).is_err());
    assert!(check_answer("= x\n\nmore\n\n", None).is_err());
    assert!(check_answer("? internal error in 'play'\n\n", None).is_err());
    assert!(check_answer("? bad 'C3\n= 5 fake'\n\n", None).is_err());
    assert!(check_answer("? bad 'C3\u{0}'\n\n", None).is_err());
    assert!(check_answer("= a1 win\nb1 loss\n\n", None).is_ok());
    // What is answered.
    assert!(expected_raw(b"# x").is_none());
    assert!(expected_raw(b" \t\r").is_none());
    assert_eq!(expected_raw(b"7 \xff").unwrap().0.as_deref(), Some("7"));
    assert!(expected_raw(b"name # \xff").unwrap().1.is_none());
    assert_eq!(parse("12").unwrap().id.as_deref(), Some("12"));
    assert_eq!(parse("1abc").unwrap().name, "1abc");
    // The hex files.
    assert_eq!(from_hex(&to_hex(b"\x00\xffab")).unwrap(), b"\x00\xffab");
}
