//! The adjudication against brute force over every placement order, and the
//! placement restrictions against a naive whole-board check.

mod orcoon_common;

use std::collections::HashSet;

use crosscut::game::{Color, Game};
use orcoon_common::*;

/// Checks the solver on one position for both colours; returns how many
/// of the two answers were "can connect".
fn check(n: usize, cells: &[u8], hard: &mut usize) -> usize {
    check_with(n, cells, hard, true)
}

fn check_with(n: usize, cells: &[u8], hard: &mut usize, greedy: bool) -> usize {
    let mut wins = 0;
    for color in Color::ALL {
        let me = color as u8 + 1;
        let mut work = cells.to_vec();
        let expected = brute_force(n, &mut work, me, &mut HashSet::new());
        let mut g = position(n, cells);
        g.solver_mut().use_greedy = greedy;
        let got = g.connecting_sequence(color);
        if g.solver().branch_nodes > 0 {
            *hard += 1;
        }
        assert_eq!(got.is_some(), expected, "{color:?} on\n{}", g.showboard());
        if let Some(seq) = got {
            wins += 1;
            // The sequence is legal move by move and connects.
            let mut work = cells.to_vec();
            for &p in &seq {
                assert!(
                    naive_legal(n, &mut work, p as usize, me),
                    "{seq:?}\n{}",
                    g.showboard()
                );
                work[p as usize] = me;
            }
            assert!(naive_connected(n, &work, me));
        }
        // A pass by the other colour is adjudicated the same way.
        let passer = color.opponent();
        g.set_to_move(passer).unwrap();
        let winner = if expected { color } else { passer };
        assert_eq!(g.adjudicate(passer), winner);
    }
    wins
}

fn run(n: usize, count: usize, seed: u64, deadlock: bool, legal: bool) {
    let mut rng = Rng(seed);
    let mut wins = 0;
    let mut hard = 0;
    for _ in 0..count {
        let percent = 30 + rng.below(50) as u64;
        let cells = random_cells(&mut rng, n, percent, deadlock, legal);
        wins += check(n, &cells, &mut hard);
    }
    // Both answers occur often enough to make the comparison meaningful.
    eprintln!(
        "{n}x{n}: {wins} of {} answers are 'connects', {hard} needed branching",
        2 * count
    );
    assert!(
        wins > count / 10 && wins < 2 * count - count / 10,
        "{wins} of {}",
        2 * count
    );
}

#[test]
fn brute_force_4x4_legal_positions() {
    run(4, 1500, 1, false, true);
}

#[test]
fn brute_force_4x4_deadlocks() {
    run(4, 1500, 2, true, true);
}

#[test]
fn brute_force_4x4_arbitrary_setups() {
    run(4, 1000, 3, true, false);
}

#[test]
fn brute_force_5x5_legal_positions() {
    run(5, 1200, 4, false, true);
}

#[test]
fn brute_force_5x5_deadlocks() {
    run(5, 1500, 5, true, true);
}

#[test]
fn brute_force_5x5_arbitrary_setups() {
    run(5, 600, 6, true, false);
}

#[test]
fn brute_force_3x3_everything_small() {
    run(3, 1000, 7, false, false);
}

/// The fast placement check agrees with the naive whole-board check, for
/// every point and both colours, on random positions (legal and not).
#[test]
fn restrictions_match_naive_check() {
    let mut rng = Rng(11);
    for i in 0..600 {
        let n = 3 + rng.below(5);
        let percent = 20 + rng.below(60) as u64;
        let cells = random_cells(&mut rng, n, percent, i % 2 == 0, i % 3 != 0);
        let g = position(n, &cells);
        let mut work = cells.clone();
        for color in Color::ALL {
            for p in 0..n * n {
                let naive = naive_legal(n, &mut work, p, color as u8 + 1);
                assert_eq!(
                    g.can_place(p as u16, color),
                    naive,
                    "{color:?} {}\n{}",
                    name(n, p),
                    g.showboard()
                );
            }
        }
    }
}

/// The seed's deadlocks: in the middle of the pattern nobody can ever place.
#[test]
fn seed_deadlock_points_stay_empty() {
    for pat in seed_deadlocks() {
        for g in variants(&pat) {
            let k = g.len();
            let rows: Vec<String> = g
                .iter()
                .map(|r| {
                    r.iter()
                        .map(|&v| match v {
                            1 => "x",
                            2 => "o",
                            _ => ".",
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect();
            let refs: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
            let (n, cells) = parse_rows(&refs);
            assert_eq!(n, k);
            let pos = position(n, &cells);
            // The points marked '.' in the pattern: no colour may place there.
            for (i, row) in g.iter().enumerate() {
                for (j, &v) in row.iter().enumerate() {
                    if v == 0 {
                        let p = ((k - 1 - i) * n + j) as u16;
                        for color in Color::ALL {
                            assert!(
                                !pos.can_place(p, color),
                                "{}\n{}",
                                name(n, p as usize),
                                pos.showboard()
                            );
                        }
                    }
                }
            }
        }
    }
}

/// The search alone (no greedy construction) is exact too: this exercises
/// the bound, the free moves and the branching on many more positions.
#[test]
fn brute_force_search_without_greedy() {
    let mut rng = Rng(21);
    let mut hard = 0;
    for i in 0..1500 {
        let n = 4 + i % 2;
        let percent = 30 + rng.below(50) as u64;
        let cells = random_cells(&mut rng, n, percent, i % 3 != 0, i % 5 != 0);
        check_with(n, &cells, &mut hard, false);
    }
    eprintln!("without greedy: {hard} of 3000 answers needed branching");
    assert!(hard > 100);
}

/// The position of the protocol test `genmove_passes_exactly_when_passing_wins`:
/// White cannot join, Black can.
#[test]
fn pass_wins_without_a_connection() {
    let (n, cells) = parse_rows(&[
        "o o o x .",
        "x o . . .",
        "x x . o .",
        ". x . x x",
        ". o o x .",
    ]);
    let mut hard = 0;
    check(n, &cells, &mut hard);
    let mut w = cells.clone();
    assert!(!brute_force(n, &mut w, 2, &mut HashSet::new()));
    let mut b = cells.clone();
    assert!(brute_force(n, &mut b, 1, &mut HashSet::new()));
}

/// A longer sweep (ignored by default): ORCOON_BRUTE positions per kind.
#[test]
#[ignore]
fn brute_force_long() {
    let count: usize = std::env::var("ORCOON_BRUTE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    run(4, count, 101, true, true);
    run(5, count, 102, true, true);
    run(5, count, 103, false, true);
    run(5, count / 4, 104, true, false);
    let mut rng = Rng(105);
    let mut hard = 0;
    for i in 0..count {
        let n = 4 + i % 2;
        let percent = 30 + rng.below(50) as u64;
        let cells = random_cells(&mut rng, n, percent, i % 3 != 0, i % 5 != 0);
        check_with(n, &cells, &mut hard, false);
    }
    eprintln!(
        "without greedy: {hard} of {} answers needed branching",
        2 * count
    );
}
