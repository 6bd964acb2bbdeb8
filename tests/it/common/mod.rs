//! Helpers shared by the integration tests (and the benchmarks, which
//! include this module with `#[path]`): drive the protocol in-process, the
//! one random generator, point names, random moves and a win-in-one check.
//! Submodules: `engine` (the real binary, one command at a time),
//! `minimax` (exhaustive minimax with a path check), `onyx_ref` and
//! `orcoon_ref` (naive reference rules).

use crosscut::game::{
    Color, Game, MoveError, Notation, Outcome, column_index, column_letter, splitmix64,
};
use crosscut::protocol::Gtp;

pub mod engine;
pub mod minimax;
pub mod onyx_ref;
pub mod orcoon_ref;

/// A small deterministic random generator (SplitMix64) for the random
/// tests.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        splitmix64(&mut self.0)
    }

    /// A number from `0` to `n - 1`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }
}

/// A random move of `moves` (not empty): `percent` times in a hundred one
/// of the moves `preferred` accepts, when there are any, otherwise any.
pub fn random_move<M: Copy>(
    rng: &mut Rng,
    moves: &[M],
    preferred: impl Fn(&M) -> bool,
    percent: u64,
) -> M {
    let pool: Vec<M> = moves.iter().copied().filter(|m| preferred(m)).collect();
    if !pool.is_empty() && rng.chance(percent) {
        pool[rng.below(pool.len())]
    } else {
        moves[rng.below(moves.len())]
    }
}

/// Whether the side to move has a move that wins at once.
pub fn has_win_in_one<G: Game>(pos: &mut G) -> bool {
    let me = pos.to_move();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves.into_iter().any(|m| {
        pos.play(m);
        let won = pos.outcome() == Some(Outcome::Win(me));
        pos.undo();
        won
    })
}

/// Plays `games` random games of up to `plies` moves on `off` (a fresh
/// game `on`, the swap taken away by `set_swap`) beside `on`, the same
/// moves on both, every fourth game starting with the turn handed over:
/// `off` never offers `swap` and refuses it (\"swap is off\" while the game
/// goes on), `on` offers it exactly as White's answer to Black's first
/// move, their legal moves are otherwise the same, their hashes match
/// `recompute_hash` and each other but while `on` offers the swap, and
/// taking every move back gives the fresh hashes again.
pub fn check_swap_off<G: Game + Notation>(
    on: &G,
    set_swap: fn(&mut G, bool),
    swap: G::Move,
    games: usize,
    plies: usize,
) {
    let mut off = on.clone();
    set_swap(&mut off, false);
    let off = &off;
    let mut rng = Rng(30);
    for g in 0..games {
        let (mut a, mut b) = (on.clone(), off.clone());
        let handed_over = g % 4 == 3;
        if handed_over {
            a.play_null();
            b.play_null();
        }
        let (mut la, mut lb) = (Vec::new(), Vec::new());
        for _ in 0..plies {
            la.clear();
            lb.clear();
            a.legal_moves(&mut la);
            b.legal_moves(&mut lb);
            let offered = la.contains(&swap);
            let second_move =
                a.outcome().is_none() && a.moves_played() == 1 && a.to_move() == Color::White;
            assert_eq!(offered, second_move && !handed_over, "game {g}");
            assert_eq!(a.is_legal(swap), offered);
            assert!(!lb.contains(&swap) && !b.is_legal(swap), "game {g}");
            match b.parse_move("swap") {
                Err(MoveError::Illegal(e)) if b.outcome().is_none() => {
                    assert_eq!(e, "swap is off in this game")
                }
                Err(_) => {}
                Ok(_) => panic!("game {g}: swap accepted without the swap"),
            }
            la.retain(|&m| m != swap);
            assert_eq!(la, lb, "game {g}");
            assert_eq!(a.hash() == b.hash(), !offered, "game {g}");
            assert_eq!(a.hash(), a.recompute_hash());
            assert_eq!(b.hash(), b.recompute_hash());
            if lb.is_empty() {
                break;
            }
            let m = lb[rng.below(lb.len())];
            a.play(m);
            b.play(m);
        }
        while b.moves_played() > 0 {
            a.undo();
            b.undo();
            assert_eq!(b.hash(), b.recompute_hash());
        }
        assert_eq!((a.hash(), b.hash()), (on.hash(), off.hash()));
    }
}

/// The name of the point in column `c` and row `r`, both from 0 (`A1` is
/// `(0, 0)`): the letter-and-number names of Onyx, Orcoon and Hex.
pub fn pt(c: usize, r: usize) -> String {
    format!("{}{}", column_letter(c), r + 1)
}

/// Column and row, both from 0, of a point name like `H6` (the inverse of
/// [`pt`]).
pub fn coords(name: &str) -> (usize, usize) {
    let c = column_index(name.as_bytes()[0]).expect("a column letter");
    let r: usize = name[1..].parse().expect("a row number");
    (c, r - 1)
}

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

    /// Collects the engine's `info` lines from now on (instead of writing
    /// them on stderr): the list they are pushed onto.
    pub fn collect_info(&mut self) -> std::sync::Arc<std::sync::Mutex<Vec<String>>> {
        let lines = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = lines.clone();
        self.gtp.engine.set_info_sink(Box::new(move |l: &str| {
            sink.lock().unwrap().push(l.to_string())
        }));
        lines
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

/// Where a point written in the games' notation comes in board order,
/// read from its name alone (an independent check of the games' own
/// `move_order`): (level, row, column). A one-letter point (`C3`, Hex's
/// `c3`) is on level 0; a two-letter one names the block of rows and
/// columns it spans (Onyx's midpoint `DE1112`, Akron's `CD34` and
/// `CE810`): its level is the letter span, its row and column those of its
/// lower-left corner. Capture marks (`D4*`) are ignored.
fn point_order(text: &str) -> Option<(usize, usize, usize)> {
    let text = text.trim_end_matches('*');
    let letters = text.bytes().take_while(u8::is_ascii_alphabetic).count();
    let digits = &text[letters..];
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let columns: Vec<usize> = text[..letters]
        .bytes()
        .map(|b| (b.to_ascii_uppercase() - b'A') as usize)
        .collect();
    match columns[..] {
        [c] => Some((0, digits.parse().ok()?, c)),
        [c1, c2] if c2 > c1 => {
            let span = c2 - c1;
            (1..digits.len()).find_map(|i| {
                let first: usize = digits[..i].parse().ok()?;
                let last: usize = digits[i..].parse().ok()?;
                (last == first + span).then_some((span, first, c1))
            })
        }
        _ => None,
    }
}

/// The board order of a move written in notation, from its text alone:
/// placements by point, then ball moves (`C3-DE45`) by origin and
/// destination, then any other text, then `pass`, `swap` last.
pub fn board_order(text: &str) -> (u8, (usize, usize, usize), (usize, usize, usize)) {
    let none = (0, 0, 0);
    if text.eq_ignore_ascii_case("pass") {
        return (3, none, none);
    }
    if text.eq_ignore_ascii_case("swap") {
        return (4, none, none);
    }
    if let Some(p) = point_order(text) {
        return (0, p, none);
    }
    if let Some((from, to)) = text.split_once('-')
        && let (Some(a), Some(b)) = (point_order(from), point_order(to))
    {
        return (1, a, b);
    }
    (2, none, none)
}

/// The independent implementation's legal moves before ply `ply` of a
/// vector game (`legal_sets` of ../shared/vectors' records).
pub fn vector_legal_set(
    game: &serde_json::Value,
    ply: usize,
) -> std::collections::BTreeSet<String> {
    game["legal_sets"][ply.to_string()]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}
