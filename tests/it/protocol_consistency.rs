//! Protocol consistency a controller author relies on: every answer's text
//! starts on the `=` line, `legal_moves` lists moves in board order, an
//! out-of-turn `genmove` (after a swap) logs a warning; protocol.md's
//! examples and command list match the engine; every binary has
//! `--version` and names an option it does not know.

use std::sync::{Mutex, OnceLock};
use std::thread::ThreadId;

use crosscut::protocol::Gtp;

fn raw(gtp: &mut Gtp, line: &str) -> String {
    gtp.execute(line).unwrap_or_default()
}

fn ok(gtp: &mut Gtp, line: &str) -> String {
    let a = raw(gtp, line);
    assert!(a.starts_with('='), "'{line}' failed: {a}");
    a[1..].trim().to_string()
}

fn session(game: &str, lines: &[&str]) -> Gtp {
    let mut gtp = Gtp::new();
    ok(&mut gtp, &format!("game {game}"));
    for l in lines {
        ok(&mut gtp, l);
    }
    gtp
}

/// GTP's rule, for every answer: `=` (and the id), a space, the first line
/// of the text; the other lines follow; one blank line ends it.
fn assert_gtp_answer(answer: &str, what: &str) {
    let first = answer.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("= ") || first.starts_with("=7 "),
        "{what}: the text must start on the '=' line: {answer:?}"
    );
    assert!(
        first.len() > 3 && !first[2..].trim().is_empty(),
        "{what}: empty first line: {answer:?}"
    );
    let body = answer.strip_suffix("\n\n").expect("ends with a blank line");
    assert!(
        !body.contains("\n\n"),
        "{what}: blank line inside: {answer:?}"
    );
}

#[test]
fn multi_line_answers_start_on_the_equals_line() {
    let mut gtp = session("onyx", &["boardsize 8", "param move_time 0.05"]);
    for cmd in [
        "showboard",
        "param",
        "list_commands",
        "gogui-rules_board",
        "legal_moves",
        "analyze b",
        "bench 1 hex",
    ] {
        let a = raw(&mut gtp, cmd);
        assert!(a.lines().count() > 1 || cmd == "legal_moves", "{cmd}: {a}");
        assert_gtp_answer(&a, cmd);
    }
    // With an id too.
    let a = raw(&mut gtp, "7 showboard");
    assert_gtp_answer(&a, "7 showboard");
    assert!(a.starts_with("=7     A   B"), "{a}");
    // The board is drawn whole: its first line is the column header.
    let board = ok(&mut gtp, "showboard");
    assert!(board.starts_with("A   B   C"), "{board}");
    // Every game's showboard.
    for game in ["orcoon", "akron", "hex"] {
        let mut gtp = session(game, &[]);
        assert_gtp_answer(&raw(&mut gtp, "showboard"), game);
    }
}

fn legal(gtp: &mut Gtp) -> Vec<String> {
    ok(gtp, "legal_moves")
        .split_whitespace()
        .map(String::from)
        .collect()
}

#[test]
fn onyx_legal_moves_are_in_board_order() {
    let mut gtp = session("onyx", &["start blank", "play b E5"]);
    let moves = legal(&mut gtp);
    // Row by row from row 1, each row from column A; `swap` last.
    assert_eq!(&moves[..3], ["A1", "B1", "C1"]);
    let pos = |m: &str| moves.iter().position(|x| x == m).unwrap();
    assert!(pos("L1") < pos("A2"));
    assert!(pos("L9") < pos("A10"));
    assert!(pos("A2") < pos("A10"));
    // Midpoints after every grid point, by their lower-left corner.
    assert!(pos("L12") < pos("BC12"));
    assert!(pos("BC12") < pos("AB23"));
    assert!(pos("KL89") < pos("BC910"));
    assert!(pos("JK910") < pos("AB1011"));
    assert_eq!(moves.last().unwrap(), "swap");
    assert_eq!(moves.len(), 12 * 12 - 1 + 60 - 2 + 1);
}

#[test]
fn other_games_legal_moves_are_in_board_order() {
    // Orcoon: points row by row, then pass, then swap.
    let mut gtp = session("orcoon", &["boardsize 11", "play b F6"]);
    let moves = legal(&mut gtp);
    assert_eq!(&moves[..2], ["A1", "B1"]);
    let pos = |m: &str| moves.iter().position(|x| x == m).unwrap();
    assert!(pos("K1") < pos("A2") && pos("K9") < pos("A10"));
    assert_eq!(&moves[moves.len() - 2..], ["pass", "swap"]);
    // Hex: Benzene's rows (row 1 at the top) in order, each from column a.
    let mut gtp = session("hex", &["boardsize 11", "play b f6"]);
    let moves = legal(&mut gtp);
    assert_eq!(&moves[..2], ["a1", "b1"]);
    let pos = |m: &str| moves.iter().position(|x| x == m).unwrap();
    assert!(pos("k1") < pos("a2") && pos("k9") < pos("a10"));
    assert_eq!(moves.last().unwrap(), "swap");
    // Akron: adds (surface holes) first, then ball moves by origin and
    // destination, each in board order.
    let mut gtp = session(
        "akron",
        &[
            "boardsize 5",
            "setup white C3 D3 C4 D4 C2",
            "setup black B2 B3 B4",
            "setup_player black",
        ],
    );
    let moves = legal(&mut gtp);
    let first_move = moves.iter().position(|m| m.contains('-')).unwrap();
    assert!(moves[..first_move].iter().all(|m| !m.contains('-')));
    assert!(moves[first_move..].iter().all(|m| m.contains('-')));
    let mut sorted = moves.clone();
    sorted.sort_by_key(|m| crate::common::board_order(m));
    assert_eq!(moves, sorted);
    assert_eq!(&moves[..3], ["A1", "B1", "C1"]);
    let pos = |m: &str| moves.iter().position(|x| x == m).unwrap();
    assert!(pos("E5") < pos("B2-A3"));
    assert!(pos("B2-A3") < pos("B2-B5") && pos("B2-B5") < pos("B2-BC34"));
    assert!(pos("B2-BC34") < pos("B3-B1"));
}

#[test]
fn board_order_of_names() {
    use crate::common::board_order;
    let order = [
        "A1", "B1", "L1", "A2", "A10", "L12", "BC12", "AB23", "BC910", "AB1011", "CE35", "CE810",
        "A1-B2", "A1-CD34", "B1-A1", "pass", "swap",
    ];
    for w in order.windows(2) {
        assert!(board_order(w[0]) < board_order(w[1]), "{} < {}", w[0], w[1]);
    }
    // Capture marks do not move a point.
    assert_eq!(board_order("D4*"), board_order("D4"));
}

/// A logger that keeps the text of the records logged on the warning
/// test's thread (the logger is the whole process's, and the other tests
/// of the crate run on other threads of it and log too).
struct Keep {
    thread: OnceLock<ThreadId>,
    lines: Mutex<Vec<String>>,
}

impl log::Log for Keep {
    fn enabled(&self, m: &log::Metadata) -> bool {
        m.level() <= log::Level::Warn
    }
    fn log(&self, r: &log::Record) {
        if self.enabled(r.metadata()) && self.thread.get() == Some(&std::thread::current().id()) {
            self.lines.lock().unwrap().push(r.args().to_string());
        }
    }
    fn flush(&self) {}
}

static LOGGED: Keep = Keep {
    thread: OnceLock::new(),
    lines: Mutex::new(Vec::new()),
};

fn warnings() -> Vec<String> {
    std::mem::take(&mut *LOGGED.lines.lock().unwrap())
}

#[test]
fn out_of_turn_genmove_after_swap_is_logged() {
    LOGGED.thread.set(std::thread::current().id()).unwrap();
    log::set_logger(&LOGGED).unwrap();
    log::set_max_level(log::LevelFilter::Warn);
    for (game, first) in [
        ("onyx", "F6"),
        ("orcoon", "F6"),
        ("akron", "D4"),
        ("hex", "f6"),
    ] {
        let mut gtp = session(
            game,
            &[
                "param max_depth 1",
                &format!("play b {first}"),
                "play w swap",
            ],
        );
        warnings();
        // In turn: White moves again after the swap, no warning.
        ok(&mut gtp, "reg_genmove w");
        assert!(warnings().is_empty(), "{game}");
        // Out of turn: GTP allows it, the engine plays a second Black move
        // and says so on stderr.
        ok(&mut gtp, "genmove b");
        let logged = warnings();
        assert_eq!(logged.len(), 1, "{game}: {logged:?}");
        assert!(
            logged[0].contains("genmove black: white is to move")
                && logged[0].contains("swap")
                && logged[0].contains("twice in a row"),
            "{game}: {}",
            logged[0]
        );
        // It was played: White is still to move, two Black moves on the board.
        assert_eq!(ok(&mut gtp, "gogui-rules_side_to_move"), "white");
        ok(&mut gtp, "genmove w");
        assert!(warnings().is_empty(), "{game}");
    }
}

/// The code outside `src/games/` knows the games only through the
/// registry: no game's name is written in it (comments and test modules
/// aside), so a new game is one folder and one registry line
/// (docs/design.md).
#[test]
fn no_game_is_named_outside_its_folder() {
    let names: Vec<&str> = crosscut::games::names();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    let mut dirs = vec![root.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path != root.join("games") {
                    dirs.push(path);
                }
            } else if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("rs" | "js" | "html" | "css")
            ) {
                files.push(path);
            }
        }
    }
    assert!(files.len() > 20, "found only {} files", files.len());
    let mut found = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        for (i, line) in text.lines().enumerate() {
            // Test modules sit at the end of their files.
            if line.trim() == "#[cfg(test)]" {
                break;
            }
            // The code, without its comment.
            let code = match line.find("//") {
                Some(k) if !line[..k].ends_with(':') => &line[..k],
                _ => line,
            };
            let words = code
                .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .map(|w| w.to_ascii_lowercase());
            for w in words {
                if names.contains(&w.as_str()) {
                    found.push(format!("{}:{}: {}", path.display(), i + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "game names outside src/games/:\n{}",
        found.join("\n")
    );
}

/// protocol.md's code blocks, each with the number of its first line.
fn code_blocks(text: &str) -> Vec<(usize, Vec<&str>)> {
    let mut blocks = Vec::new();
    let mut current: Option<(usize, Vec<&str>)> = None;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            match current.take() {
                Some(block) => blocks.push(block),
                None => current = Some((i + 2, Vec::new())),
            }
        } else if let Some((_, lines)) = current.as_mut() {
            lines.push(line);
        }
    }
    blocks
}

/// Whether an answer's first line matches a documented one, where `...`
/// (or `…`) stands for any text.
fn matches_documented(actual: &str, documented: &str) -> bool {
    let documented = documented.replace('…', "...");
    let pieces: Vec<&str> = documented.split("...").collect();
    let mut rest = actual.trim_end();
    for (i, piece) in pieces.iter().enumerate() {
        let piece = if i + 1 == pieces.len() {
            piece.trim_end()
        } else {
            piece
        };
        if i == 0 {
            match rest.strip_prefix(piece) {
                Some(r) => rest = r,
                None => return false,
            }
        } else if i + 1 == pieces.len() {
            return rest.ends_with(piece);
        } else {
            match rest.find(piece) {
                Some(at) => rest = &rest[at + piece.len()..],
                None => return false,
            }
        }
    }
    rest.is_empty()
}

/// Every example of protocol.md written `command → answer` is replayed:
/// each code block holding one, in a fresh engine (under Onyx, the
/// document's first game, unless the block selects one), its lines in
/// order; a line without `→` is a command whose answer is not shown. The
/// answer's first line must match the documented one (`...` for any text;
/// a comment in parentheses after the answer is not part of it).
#[test]
fn protocol_md_examples_hold() {
    let text = include_str!("../../protocol.md");
    let mut checked = 0;
    for (line_no, block) in code_blocks(text) {
        if !block.iter().any(|l| l.contains('→')) {
            continue;
        }
        // The records these examples load are the reader's own files.
        if block.iter().any(|l| l.trim_start().starts_with("loadsgf")) {
            continue;
        }
        // A line indented deeper than the commands continues the answer
        // above it (a board).
        let indent = |l: &str| l.len() - l.trim_start().len();
        let command_indent = block
            .iter()
            .filter(|l| l.contains('→'))
            .map(|l| indent(l))
            .min()
            .unwrap_or(0);
        let mut gtp = Gtp::new();
        if !block.iter().any(|l| l.trim_start().starts_with("game ")) {
            ok(&mut gtp, "game onyx");
        }
        for (i, line) in block.iter().enumerate() {
            let (command, documented) = match line.split_once('→') {
                Some((c, d)) => (c.trim(), Some(d.trim())),
                None => (line.trim(), None),
            };
            if command.is_empty() || (documented.is_none() && indent(line) > command_indent) {
                continue;
            }
            let answer = raw(&mut gtp, command);
            let first = answer.lines().next().unwrap_or_default();
            let Some(documented) = documented else {
                assert!(
                    first.starts_with('='),
                    "protocol.md line {}: '{command}' failed: {answer}",
                    line_no + i
                );
                continue;
            };
            // `=      (White still to move)`: the comment is not answered.
            let documented = match documented.find("  (") {
                Some(at) if documented.ends_with(')') => documented[..at].trim_end(),
                _ => documented,
            };
            assert!(
                matches_documented(first, documented),
                "protocol.md line {}: '{command}' answers\n{first}\nnot, as documented,\n{documented}",
                line_no + i
            );
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} documented answers found");
}

/// protocol.md's `position` example names every field the command writes.
#[test]
fn protocol_md_position_example_has_every_field() {
    let text = include_str!("../../protocol.md");
    let example = code_blocks(text)
        .into_iter()
        .map(|(_, b)| b.join("\n"))
        .find(|b| b.contains("\nposition\n= {"))
        .expect("the position example");
    let mut gtp = session("onyx", &["boardsize 4", "start blank", "play b A1"]);
    let answer = ok(&mut gtp, "position");
    let value: serde_json::Value = serde_json::from_str(&answer).expect("JSON");
    for key in value.as_object().expect("an object").keys() {
        assert!(
            example.contains(&format!("\"{key}\":")),
            "protocol.md's position example lacks {key}"
        );
    }
}

/// Every command the engine answers (under each game, and in GoGui mode)
/// is named in protocol.md.
#[test]
fn protocol_md_names_every_command() {
    let text = include_str!("../../protocol.md");
    for game in ["onyx", "orcoon", "akron", "hex"] {
        for gogui in [false, true] {
            let mut gtp = session(game, &[]);
            // GoGui refuses a game whose pieces move.
            if gtp.set_gogui(gogui).is_err() {
                continue;
            }
            for name in ok(&mut gtp, "list_commands").lines() {
                assert!(
                    text.contains(&format!("`{name}")),
                    "{name} ({game}) is not in protocol.md"
                );
            }
        }
    }
}

/// What a newcomer types first: `--version` on every binary, and an option
/// that does not exist named in the error.
#[test]
fn every_binary_has_version_and_names_unknown_options() {
    use std::process::Command;
    for (name, exe) in [
        ("crosscut", env!("CARGO_BIN_EXE_crosscut")),
        ("crosscut-match", env!("CARGO_BIN_EXE_crosscut-match")),
        (
            "crosscut-fake-engine",
            env!("CARGO_BIN_EXE_crosscut-fake-engine"),
        ),
    ] {
        let out = Command::new(exe).arg("--version").output().unwrap();
        assert!(out.status.success(), "{name} --version");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            format!("{name} {}", env!("CARGO_PKG_VERSION"))
        );
        let out = Command::new(exe).arg("--frobnicate").output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{name} --frobnicate");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("unknown option '--frobnicate'"),
            "{name}: {err}"
        );
    }
    let out = Command::new(env!("CARGO_BIN_EXE_crosscut"))
        .args(["web", "--frobnicate"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown option '--frobnicate'"));
}

/// `crosscut-match` warns when more than two games a pairing are played
/// without `--openings`: deterministic engines would replay them.
#[test]
fn match_warns_of_replayed_games_without_openings() {
    use std::process::Command;
    let dir = std::env::temp_dir().join(format!("crosscut-replay-{}", std::process::id()));
    let exe = env!("CARGO_BIN_EXE_crosscut");
    let run = |games: &str| {
        let _ = std::fs::remove_dir_all(&dir);
        let out = Command::new(env!("CARGO_BIN_EXE_crosscut-match"))
            .args([
                "--engine", exe, "--engine", exe, "--game", "hex", "--size", "1",
            ])
            .args(["--games", games, "--quiet", "--out"])
            .arg(&dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    assert!(run("4").contains("without --openings"));
    assert!(!run("2").contains("without --openings"));
    let _ = std::fs::remove_dir_all(&dir);
}
