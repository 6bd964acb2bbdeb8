//! Shared helpers for the Orcoon tests: a deliberately naive reference
//! implementation of the rules that scans the whole board, and brute force
//! over every placement order. Points are indices `r * n + c` of a cell
//! vector (0 empty, 1 Black, 2 White).

use std::collections::HashSet;

use crosscut::game::{Color, Game, Notation};
use crosscut::games::orcoon::{Orcoon, OrcoonMove};

use super::{Rng, coords, pt};

/// Whether a window is a crosscut: both `middles` empty, one colour on the
/// two corners of one diagonal (`one`), the other colour on the other
/// (`other`).
fn crosscut(middles: [u8; 2], one: [u8; 2], other: [u8; 2]) -> bool {
    middles == [0, 0]
        && one[0] != 0
        && other[0] != 0
        && one[0] == one[1]
        && other[0] == other[1]
        && one[0] != other[0]
}

/// Every restriction violation on the whole board, as a set of tags.
pub fn all_violations(n: usize, cells: &[u8]) -> HashSet<(u8, usize, usize, usize)> {
    let at = |r: usize, c: usize| cells[r * n + c];
    let mut v = HashSet::new();
    for r in 0..n {
        for c in 0..n {
            // Diagonal pairs (r,c)-(r+1,c+1) and (r,c)-(r+1,c-1).
            if r + 1 < n {
                for c2 in [c.wrapping_sub(1), c + 1] {
                    if c2 >= n {
                        continue;
                    }
                    let x = at(r, c);
                    if x != 0 && at(r + 1, c2) == x && at(r + 1, c) != x && at(r, c2) != x {
                        v.insert((0, r, c, c2));
                    }
                }
            }
            // Horizontal 2x3 window with lower-left corner (r,c).
            if r + 1 < n
                && c + 2 < n
                && crosscut(
                    [at(r, c + 1), at(r + 1, c + 1)],
                    [at(r, c), at(r + 1, c + 2)],
                    [at(r, c + 2), at(r + 1, c)],
                )
            {
                v.insert((1, r, c, 0));
            }
            // Vertical 3x2 window with lower-left corner (r,c).
            if r + 2 < n
                && c + 1 < n
                && crosscut(
                    [at(r + 1, c), at(r + 1, c + 1)],
                    [at(r, c), at(r + 2, c + 1)],
                    [at(r + 2, c), at(r, c + 1)],
                )
            {
                v.insert((2, r, c, 0));
            }
        }
    }
    v
}

/// Naive legality: the point is empty and the placement creates no new
/// violation anywhere on the board (a placement can only create violations
/// that involve the placed stone, so this is "checked for the placed stone").
pub fn naive_legal(n: usize, cells: &mut [u8], p: usize, me: u8) -> bool {
    if cells[p] != 0 {
        return false;
    }
    let before = all_violations(n, cells);
    cells[p] = me;
    let after = all_violations(n, cells);
    cells[p] = 0;
    after.is_subset(&before)
}

/// Naive connection test by flood fill.
pub fn naive_connected(n: usize, cells: &[u8], me: u8) -> bool {
    let start = |i: usize| if me == 1 { i } else { i * n };
    let is_end = |p: usize| {
        if me == 1 {
            p / n == n - 1
        } else {
            p % n == n - 1
        }
    };
    let mut seen = vec![false; n * n];
    let mut stack: Vec<usize> = (0..n).map(start).filter(|&p| cells[p] == me).collect();
    for &p in &stack {
        seen[p] = true;
    }
    while let Some(p) = stack.pop() {
        if is_end(p) {
            return true;
        }
        let (r, c) = (p / n, p % n);
        let mut nb = vec![];
        if r > 0 {
            nb.push(p - n);
        }
        if r + 1 < n {
            nb.push(p + n);
        }
        if c > 0 {
            nb.push(p - 1);
        }
        if c + 1 < n {
            nb.push(p + 1);
        }
        for q in nb {
            if cells[q] == me && !seen[q] {
                seen[q] = true;
                stack.push(q);
            }
        }
    }
    false
}

/// Brute force over every placement order: can `me` join his edges? States
/// already explored without success are skipped (legality depends only on
/// the stones on the board).
pub fn brute_force(n: usize, cells: &mut Vec<u8>, me: u8, seen: &mut HashSet<Vec<u8>>) -> bool {
    if naive_connected(n, cells, me) {
        return true;
    }
    if !seen.insert(cells.clone()) {
        return false;
    }
    for p in 0..n * n {
        if naive_legal(n, cells, p, me) {
            cells[p] = me;
            if brute_force(n, cells, me, seen) {
                cells[p] = 0;
                return true;
            }
            cells[p] = 0;
        }
    }
    false
}

/// The name of point `p` on an `n` board.
pub fn name(n: usize, p: usize) -> String {
    pt(p % n, p / n)
}

/// The point index of a name like `H6` on an `n` board (the inverse of
/// [`name`]).
pub fn index(n: usize, name: &str) -> usize {
    let (c, r) = coords(name);
    r * n + c
}

/// A position with the given cells (0 empty, 1 Black, 2 White), Black to move.
pub fn position(n: usize, cells: &[u8]) -> Orcoon {
    let mut g = Orcoon::new(n).unwrap();
    for (p, &v) in cells.iter().enumerate() {
        let c = match v {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => continue,
        };
        g.setup(c, &name(n, p)).unwrap();
    }
    g
}

/// Plays a random legal placement (never a pass, which would end the
/// game); false, with nothing played, when there is none.
pub fn play_random_placement(g: &mut Orcoon, rng: &mut Rng) -> bool {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves.retain(|m| matches!(m, OrcoonMove::Place(_)));
    if moves.is_empty() {
        return false;
    }
    g.play(moves[rng.below(moves.len())]);
    true
}

/// Parses rows (top row first) of `x`, `o`, `.` into cells.
pub fn parse_rows(rows: &[&str]) -> (usize, Vec<u8>) {
    let n = rows.len();
    let mut cells = vec![0; n * n];
    for (i, row) in rows.iter().enumerate() {
        let r = n - 1 - i;
        for (c, ch) in row.split_whitespace().enumerate() {
            cells[r * n + c] = match ch {
                "x" | "X" => 1,
                "o" | "O" => 2,
                _ => 0,
            };
        }
    }
    (n, cells)
}

/// The seed's two deadlock patterns (top row first; `x`, `o`, `.`, and `?`
/// for points outside the pattern), as grids.
pub fn seed_deadlocks() -> Vec<Vec<Vec<u8>>> {
    let pat = |rows: &[&str]| -> Vec<Vec<u8>> {
        rows.iter()
            .map(|r| {
                r.split_whitespace()
                    .map(|t| match t {
                        "x" => 1,
                        "o" => 2,
                        "." => 0,
                        _ => 3,
                    })
                    .collect()
            })
            .collect()
    };
    vec![
        pat(&["x x o", "x . .", "o . x"]),
        pat(&[
            "? ? o x ?",
            "x . . . ?",
            "o . x . o",
            "? . . . x",
            "? x o ? ?",
        ]),
    ]
}

/// All eight symmetries of a square grid pattern, both colourings.
pub fn variants(pattern: &[Vec<u8>]) -> Vec<Vec<Vec<u8>>> {
    let k = pattern.len();
    let mut out = Vec::new();
    for swap in [false, true] {
        for sym in 0..8 {
            let mut g = vec![vec![3u8; k]; k];
            for (i, row) in pattern.iter().enumerate() {
                for (j, &v) in row.iter().enumerate() {
                    let (mut a, mut b) = (i, j);
                    if sym & 1 != 0 {
                        b = k - 1 - b;
                    }
                    if sym & 2 != 0 {
                        a = k - 1 - a;
                    }
                    if sym & 4 != 0 {
                        std::mem::swap(&mut a, &mut b);
                    }
                    let v = if swap && (v == 1 || v == 2) { 3 - v } else { v };
                    g[a][b] = v;
                }
            }
            out.push(g);
        }
    }
    out
}

/// Random cells for an `n` board: with a seed deadlock pattern embedded when
/// `deadlock`, then random stones of density `percent`, and, when `legal`,
/// only stones that keep the board free of violations.
pub fn random_cells(rng: &mut Rng, n: usize, percent: u64, deadlock: bool, legal: bool) -> Vec<u8> {
    let mut cells = vec![0u8; n * n];
    let mut fixed = vec![false; n * n];
    if deadlock {
        let pats = seed_deadlocks();
        let all: Vec<_> = pats
            .iter()
            .flat_map(|p| variants(p))
            .filter(|g| g.len() <= n)
            .collect();
        if !all.is_empty() {
            let g = &all[rng.below(all.len())];
            let k = g.len();
            let (r0, c0) = (rng.below(n - k + 1), rng.below(n - k + 1));
            for (i, row) in g.iter().enumerate() {
                for (j, &v) in row.iter().enumerate() {
                    if v != 3 {
                        let p = (r0 + k - 1 - i) * n + c0 + j;
                        cells[p] = v;
                        fixed[p] = true;
                    }
                }
            }
        }
    }
    let mut order: Vec<usize> = (0..n * n).collect();
    for i in (1..order.len()).rev() {
        let j = rng.below(i + 1);
        order.swap(i, j);
    }
    let passes = if legal { 3 } else { 1 };
    for _ in 0..passes {
        for &p in &order {
            if fixed[p] || cells[p] != 0 || !rng.chance(percent) {
                continue;
            }
            let v = 1 + rng.below(2) as u8;
            if legal {
                if naive_legal(n, &mut cells, p, v) {
                    cells[p] = v;
                }
            } else {
                cells[p] = v;
            }
        }
    }
    cells
}

/// The hardest adjudication known (`tests/it/orcoon_hard.rs`, timed by
/// `benches/orcoon_hard.rs`). Found with an
/// MCTS playout (seed 345), 13x13, Black has just passed.
/// The exact adjudication of White's free placements took 203 s (20.6
/// million search nodes) before the probes for dead points.
pub const SEED345: [&str; 13] = [
    ". . O X . . X X . . X O .",
    ". . . . . O X X . . . . .",
    "O . . X X . X . . O . . O",
    ". . . . O . X X . . . O O",
    "O . . . . X X . . X . O O",
    ". X O . . X X X O . O O X",
    "X X . X . O X . . . . . .",
    ". O . . . . . . X X X O .",
    ". O . X . X . . O O X O .",
    "O O . . . O O X . . X . .",
    ". . . O . . . . . O X O O",
    "O . . . . . X X . O X . .",
    "O O . . O . . . . . X . .",
];
