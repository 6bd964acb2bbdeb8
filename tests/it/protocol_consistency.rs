//! Protocol consistency a controller author relies on: every answer's text
//! starts on the `=` line, `legal_moves` lists moves in board order, and an
//! out-of-turn `genmove` (after a swap) logs a warning.

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
