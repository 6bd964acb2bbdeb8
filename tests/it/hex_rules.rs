//! Hex rules against an independent brute-force reference (a plain 2-D
//! array, winners found by a breadth-first search from scratch), perft,
//! notation, winning geometry, and the searcher on small boards.

use std::collections::{HashMap, VecDeque};

use crosscut::game::{Color, Game, MoveError, Notation, Outcome, perft};
use crosscut::games::hex::{Hex, HexMove, TwoDistance};
use crosscut::search::Evaluator;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// The reference: cells `[y][x]` (row 0 is row `1`, the top), 0 empty,
/// 1 Black, 2 White.
#[derive(Clone, Debug, PartialEq)]
struct Ref {
    n: usize,
    cells: Vec<Vec<u8>>,
    /// 1 Black, 2 White.
    to_move: u8,
    /// Moves made: `Some((x, y))` a placement, `None` the swap.
    moves: Vec<Option<(usize, usize)>>,
    winner: Option<u8>,
}

impl Ref {
    fn new(n: usize) -> Ref {
        Ref {
            n,
            cells: vec![vec![0; n]; n],
            to_move: 1,
            moves: Vec::new(),
            winner: None,
        }
    }

    fn name(x: usize, y: usize) -> String {
        format!("{}{}", (b'a' + x as u8) as char, y + 1)
    }

    fn swap_allowed(&self) -> bool {
        self.winner.is_none() && self.moves.len() == 1 && self.to_move == 2
    }

    fn legal(&self) -> Vec<String> {
        let mut v = Vec::new();
        if self.winner.is_some() {
            return v;
        }
        for y in 0..self.n {
            for x in 0..self.n {
                if self.cells[y][x] == 0 {
                    v.push(Ref::name(x, y));
                }
            }
        }
        if self.swap_allowed() {
            v.push("swap".into());
        }
        v.sort();
        v
    }

    /// The six neighbours, written out from the rulings.
    fn neighbours(&self, x: usize, y: usize) -> Vec<(usize, usize)> {
        let (x, y, n) = (x as i64, y as i64, self.n as i64);
        [
            (x + 1, y),
            (x - 1, y),
            (x, y + 1),
            (x, y - 1),
            (x + 1, y - 1),
            (x - 1, y + 1),
        ]
        .into_iter()
        .filter(|&(a, b)| a >= 0 && b >= 0 && a < n && b < n)
        .map(|(a, b)| (a as usize, b as usize))
        .collect()
    }

    /// Whether colour `c` joins its edges: BFS from its first edge.
    fn connected(&self, c: u8) -> bool {
        let n = self.n;
        let mut seen = vec![vec![false; n]; n];
        let mut queue = VecDeque::new();
        for i in 0..n {
            // Black: row 1 (y = 0); White: column a (x = 0).
            let (x, y) = if c == 1 { (i, 0) } else { (0, i) };
            if self.cells[y][x] == c {
                seen[y][x] = true;
                queue.push_back((x, y));
            }
        }
        while let Some((x, y)) = queue.pop_front() {
            if (c == 1 && y == n - 1) || (c == 2 && x == n - 1) {
                return true;
            }
            for (a, b) in self.neighbours(x, y) {
                if self.cells[b][a] == c && !seen[b][a] {
                    seen[b][a] = true;
                    queue.push_back((a, b));
                }
            }
        }
        false
    }

    fn play(&mut self, mv: &str) {
        if mv == "swap" {
            assert!(self.swap_allowed());
            self.moves.push(None);
            return;
        }
        let x = (mv.as_bytes()[0] - b'a') as usize;
        let y: usize = mv[1..].parse::<usize>().unwrap() - 1;
        assert_eq!(self.cells[y][x], 0);
        self.cells[y][x] = self.to_move;
        self.moves.push(Some((x, y)));
        self.to_move = 3 - self.to_move;
        self.winner = [1, 2].into_iter().find(|&c| self.connected(c));
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| {
                let mut r = self.clone();
                r.play(m);
                r.perft(depth - 1)
            })
            .sum()
    }

    /// Everything the future depends on.
    fn key(&self) -> (Vec<Vec<u8>>, u8, bool) {
        (self.cells.clone(), self.to_move, self.swap_allowed())
    }
}

fn names(pos: &Hex) -> Vec<String> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut v: Vec<String> = moves.iter().map(|&m| pos.format_move(m)).collect();
    v.sort();
    v
}

fn outcome_code(pos: &Hex) -> Option<u8> {
    match pos.outcome() {
        Some(Outcome::Win(Color::Black)) => Some(1),
        Some(Outcome::Win(Color::White)) => Some(2),
        Some(Outcome::Draw) => panic!("hex has no draws"),
        None => None,
    }
}

fn check_same(pos: &Hex, r: &Ref) {
    assert_eq!(names(pos), r.legal(), "\n{}", pos.showboard());
    assert_eq!(outcome_code(pos), r.winner, "\n{}", pos.showboard());
    assert_eq!(pos.to_move().index() as u8 + 1, r.to_move);
    assert_eq!(pos.moves_played(), r.moves.len());
    assert_eq!(pos.hash(), pos.recompute_hash());
}

#[test]
fn random_games_match_the_reference() {
    let mut rng = SmallRng::seed_from_u64(20240611);
    let mut swaps = 0;
    for n in 1..=8 {
        // Reference key -> hash on this size: equal positions must hash
        // equal, different ones differently (each size has its own keys;
        // the empty board hashes to 0 on all of them).
        let mut hashes: HashMap<(Vec<Vec<u8>>, u8, bool), u64> = HashMap::new();
        let mut by_hash: HashMap<u64, (Vec<Vec<u8>>, u8, bool)> = HashMap::new();
        for _ in 0..60 {
            let mut pos = Hex::new(n).unwrap();
            let mut r = Ref::new(n);
            loop {
                check_same(&pos, &r);
                let key = r.key();
                let h = pos.hash();
                assert_eq!(*hashes.entry(key.clone()).or_insert(h), h);
                assert_eq!(*by_hash.entry(h).or_insert(key.clone()), key);
                let legal = r.legal();
                if legal.is_empty() {
                    assert!(r.winner.is_some(), "hex has no draws");
                    break;
                }
                // Swap half the time it is allowed.
                let text = if r.swap_allowed() && rng.random_range(0..2) == 0 {
                    "swap".to_string()
                } else {
                    legal[rng.random_range(0..legal.len())].clone()
                };
                swaps += (text == "swap") as usize;
                let mv = pos.parse_move(&text).unwrap();
                assert!(pos.is_legal(mv));
                // Undo restores the exact position and hash.
                let (board, hash, before) = (pos.showboard(), pos.hash(), names(&pos));
                pos.play(mv);
                pos.undo();
                assert_eq!(pos.showboard(), board);
                assert_eq!(pos.hash(), hash);
                assert_eq!(names(&pos), before);
                check_same(&pos, &r);
                pos.play(mv);
                r.play(&text);
            }
            // Unwind the whole game: every position comes back.
            while pos.moves_played() > 0 {
                pos.undo();
                assert_eq!(pos.hash(), pos.recompute_hash());
            }
            check_same(&pos, &Ref::new(n));
        }
    }
    assert!(swaps > 100, "{swaps} swaps");
}

/// Perft numbers checked against the reference's own perft.
const PERFT: &[(usize, u32, u64)] = &[
    (1, 1, 1),
    (1, 2, 0),
    (2, 1, 4),
    (2, 2, 16),
    (2, 3, 36),
    (2, 4, 36),
    (2, 5, 12),
    (2, 6, 0),
    (3, 1, 9),
    (3, 2, 81),
    (3, 3, 576),
    (3, 4, 3528),
    (3, 5, 18144),
    (3, 6, 69840),
    (3, 7, 201600),
    (3, 10, 120960),
    (4, 1, 16),
    (4, 2, 256),
    (4, 3, 3600),
    (4, 4, 47040),
];

#[test]
fn perft_matches_the_reference() {
    for &(n, depth, want) in PERFT {
        let mut pos = Hex::new(n).unwrap();
        let got = perft(&mut pos, depth);
        let reference = Ref::new(n).perft(depth);
        assert_eq!(got, reference, "size {n} depth {depth}");
        assert_eq!(got, want, "size {n} depth {depth}");
        assert_eq!(pos.hash(), pos.recompute_hash());
    }
}

fn play_all(pos: &mut Hex, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        pos.play(mv);
    }
}

#[test]
fn notation() {
    let pos = Hex::new(5).unwrap();
    let a1 = pos.parse_move("a1").unwrap();
    assert_eq!(pos.parse_move("A1").unwrap(), a1);
    assert_eq!(pos.format_move(a1), "a1");
    // a1 is the top-left corner: cell 0 (row 1 is the top row).
    assert_eq!(a1, HexMove::Place(0));
    assert_eq!(pos.parse_move("e1").unwrap(), HexMove::Place(4));
    assert_eq!(pos.parse_move("a2").unwrap(), HexMove::Place(5));
    assert_eq!(pos.format_move(HexMove::Place(24)), "e5");
    assert_eq!(pos.format_move(HexMove::Swap), "swap");
    // The first row of the drawing is row 1, with a1 first.
    let board = pos.showboard();
    let row1 = board.lines().nth(1).unwrap();
    assert!(row1.trim_start().starts_with("1 "), "{board}");
    for bad in [
        "f1", "a6", "a0", "a01", "", "a", "1a", "aa1", "a1x", "z9", "a-1", "é1",
    ] {
        assert!(
            matches!(pos.parse_move(bad), Err(MoveError::Syntax(_))),
            "'{bad}' should be a syntax error"
        );
    }
    // Swap only as White's answer to Black's first move.
    assert!(matches!(pos.parse_move("swap"), Err(MoveError::Illegal(_))));
    let mut pos = Hex::new(5).unwrap();
    play_all(&mut pos, "c3");
    assert_eq!(pos.parse_move("swap-pieces").unwrap(), HexMove::Swap);
    assert_eq!(pos.parse_move("SWAP").unwrap(), HexMove::Swap);
    assert!(matches!(pos.parse_move("c3"), Err(MoveError::Illegal(_))));
    assert!(matches!(pos.parse_move("C3"), Err(MoveError::Illegal(_))));
    play_all(&mut pos, "swap");
    // The board does not change and White moves again.
    assert_eq!(pos.to_move(), Color::White);
    assert_eq!(pos.at(12), Some(Color::Black));
    assert!(matches!(pos.parse_move("swap"), Err(MoveError::Illegal(_))));
    play_all(&mut pos, "d4");
    assert_eq!(pos.at(18), Some(Color::White));
    assert_eq!(pos.to_move(), Color::Black);
}

#[test]
fn winning_geometry() {
    // Black's column a, rows 1..3: joins row 1 to row 3.
    let mut pos = Hex::new(3).unwrap();
    play_all(&mut pos, "a1 c1 a2 c2 a3");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Color::Black)));
    assert!(pos.parse_move("b2").is_err());
    // White's row 1, columns a..c: joins column a to column c.
    let mut pos = Hex::new(3).unwrap();
    play_all(&mut pos, "a3 a1 b3 b1 a2 c1");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Color::White)));
    // The anti-diagonal (x+1, y-1) links: Black a3 b2 c1 is a chain, but
    // it touches row 1 and row 3 only through c1 and a3: it wins.
    let mut pos = Hex::new(3).unwrap();
    play_all(&mut pos, "c1 a1 b2 b1 a3");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Color::Black)));
    // The main diagonal (x+1, y+1) is not a link: a1 b2 c3 does not win,
    // nor for White.
    let mut pos = Hex::new(3).unwrap();
    play_all(&mut pos, "a1 c1 b2 a2 c3");
    assert_eq!(pos.outcome(), None);
    let mut pos = Hex::new(3).unwrap();
    play_all(&mut pos, "b1 a1 c1 b2 b3 c3");
    assert_eq!(pos.outcome(), None, "\n{}", pos.showboard());
    // White along the anti-diagonal a3 b2 c1 wins.
    let mut pos = Hex::new(3).unwrap();
    play_all(&mut pos, "a1 a3 a2 b2 b1 c1");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Color::White)));
    // 1x1: the first stone wins.
    let mut pos = Hex::new(1).unwrap();
    play_all(&mut pos, "a1");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Color::Black)));
    // No move after the end; the rejection changes nothing.
    let mut pos = Hex::new(3).unwrap();
    play_all(&mut pos, "a1 c1 a2 c2 a3");
    let (hash, board) = (pos.hash(), pos.showboard());
    assert!(matches!(pos.parse_move("b2"), Err(MoveError::Illegal(_))));
    assert!(matches!(pos.parse_move("swap"), Err(MoveError::Illegal(_))));
    assert_eq!((pos.hash(), pos.showboard()), (hash, board));
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert!(moves.is_empty());
}

#[test]
fn sizes() {
    assert!(Hex::new(0).is_err());
    assert!(Hex::new(20).is_err());
    assert_eq!(Hex::new(19).unwrap().size(), 19);
    let entry = crosscut::games::find("hex").unwrap();
    assert!((entry.new_rules)(20, &Vec::new()).is_err());
    assert!(entry.has_size(19) && !entry.has_size(20) && !entry.has_size(0));
    assert_eq!(
        Hex::new(crosscut::games::hex::DEFAULT_SIZE).unwrap().size(),
        11
    );
}

#[test]
fn evaluation_sees_wins_and_threats() {
    let mut pos = Hex::new(5).unwrap();
    for (c, p) in [
        (Color::Black, "a1"),
        (Color::Black, "a2"),
        (Color::Black, "a3"),
        (Color::Black, "a4"),
    ] {
        pos.setup(Some(c), p).unwrap();
    }
    assert_eq!(TwoDistance.evaluate(&pos), crosscut::search::WIN_NEXT_MOVE);
    assert!(!TwoDistance.opponent_threatens(&pos));
    pos.set_to_move(Color::White).unwrap();
    assert!(TwoDistance.opponent_threatens(&pos));
    assert!(TwoDistance.evaluate(&pos).abs() < crosscut::search::WIN_BASE / 4);
    assert_eq!(
        TwoDistance.history_index(&pos, pos.parse_move("a5").unwrap()),
        TwoDistance.history_index(&pos, HexMove::Place(20))
    );
}

/// Without the swap (`swap off`) White's second move never offers nor
/// accepts it; with it the game is unchanged (see
/// [`crate::common::check_swap_off`]).
#[test]
fn swap_off_never_offers_the_swap() {
    let on = Hex::new(5).unwrap();
    crate::common::check_swap_off(&on, Hex::set_swap, HexMove::Swap, 40, 30);
}
