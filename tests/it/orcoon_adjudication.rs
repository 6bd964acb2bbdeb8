//! The adjudication against brute force over every placement order, and the
//! placement restrictions against a naive whole-board check.

use std::collections::HashSet;

use crate::common::Rng;
use crate::common::orcoon_ref::*;
use crosscut::game::{Color, Game, Notation};

thread_local! {
    /// Dead points the solver found in the checks of this thread.
    static DEAD: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Checks the solver on one position for both colours; returns how many
/// of the two answers were "can connect".
fn check(n: usize, cells: &[u8], hard: &mut usize) -> usize {
    check_with(n, cells, hard, true)
}

fn check_with(n: usize, cells: &[u8], hard: &mut usize, greedy: bool) -> usize {
    check_opts(n, cells, hard, greedy, None)
}

/// `probes`: `None` for the default probes, `Some(None)` without probes,
/// `Some(Some(r))` with probe windows of radius `r`.
fn check_opts(
    n: usize,
    cells: &[u8],
    hard: &mut usize,
    greedy: bool,
    probes: Option<Option<usize>>,
) -> usize {
    let mut wins = 0;
    for color in Color::ALL {
        let me = color as u8 + 1;
        let mut work = cells.to_vec();
        let expected = brute_force(n, &mut work, me, &mut HashSet::new());
        let mut g = position(n, cells);
        g.solver_mut().use_greedy = greedy;
        // Probes from the first node, so that small positions use them too.
        g.solver_mut().quick_nodes = 0;
        match probes {
            None => {}
            Some(None) => g.solver_mut().use_probes = false,
            Some(Some(r)) => g.solver_mut().probe_radius = r,
        }
        let got = g.connecting_sequence(color);
        if g.solver().branch_nodes > 0 || g.solver().probes > 0 {
            *hard += 1;
        }
        DEAD.with(|d| d.set(d.get() + g.solver().dead_points()));
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

/// The search without the probes for dead points is exact (the probes
/// only prune), and with probe windows of other sizes (radius 1 leaves
/// many wildcards, which exercises the relaxation; radius 0 and 3 the
/// extremes).
#[test]
fn brute_force_probe_variants() {
    let mut rng = Rng(31);
    let mut hard = 0;
    for i in 0..1600 {
        let n = 4 + i % 2;
        let percent = 30 + rng.below(50) as u64;
        let cells = random_cells(&mut rng, n, percent, i % 3 != 0, i % 5 != 0);
        let greedy = i % 4 < 2;
        let probes = match i % 4 {
            0 => None,
            1 => Some(Some(1)),
            2 => Some(Some(0)),
            _ => Some(Some(3)),
        };
        check_opts(n, &cells, &mut hard, greedy, probes);
        if i % 8 == 0 {
            check_opts(n, &cells, &mut hard, greedy, Some(None));
        }
    }
    eprintln!("probe variants: {hard} answers needed branching or probes");
    assert!(hard > 100);
}

/// On 6x6 with radius-1 windows, checked against brute force: windows much
/// smaller than the board.
#[test]
fn brute_force_6x6_small_windows() {
    let mut rng = Rng(41);
    let mut hard = 0;
    for i in 0..150 {
        let percent = 55 + rng.below(30) as u64;
        let cells = random_cells(&mut rng, 6, percent, true, i % 5 != 0);
        check_opts(6, &cells, &mut hard, i % 2 == 0, Some(Some(1 + i % 2)));
    }
    eprintln!("6x6: {hard} answers needed branching or probes");
}

/// Every point `color` can fill by some legal sequence from `cells`
/// (brute force over every reachable set; `g` holds `cells` and is used for
/// its legality check, itself compared with the naive one above).
fn fillable(
    g: &mut crosscut::games::orcoon::Orcoon,
    n: usize,
    cells: &mut Vec<u8>,
    color: Color,
) -> Vec<bool> {
    fn go(
        g: &mut crosscut::games::orcoon::Orcoon,
        n: usize,
        cells: &mut Vec<u8>,
        color: Color,
        seen: &mut HashSet<Vec<u8>>,
        out: &mut Vec<bool>,
    ) {
        if !seen.insert(cells.clone()) {
            return;
        }
        for p in 0..n * n {
            if g.can_place(p as u16, color) {
                out[p] = true;
                cells[p] = color as u8 + 1;
                g.setup(Some(color), &name(n, p)).unwrap();
                go(g, n, cells, color, seen, out);
                cells[p] = 0;
                g.setup(None, &name(n, p)).unwrap();
            }
        }
    }
    let mut out = vec![false; n * n];
    go(g, n, cells, color, &mut HashSet::new(), &mut out);
    out
}

/// A probe's "dead" is never wrong: on random positions, every point a
/// probe (any window size) calls dead is one no legal sequence fills.
#[test]
fn probes_against_brute_force_fill() {
    let mut rng = Rng(51);
    let (mut dead, mut unfillable, mut checked) = (0, 0, 0);
    for i in 0..700 {
        let n = 4 + i % 3;
        let percent = 45 + rng.below(45) as u64;
        let mut cells = random_cells(&mut rng, n, percent, i % 3 != 0, i % 4 != 0);
        if cells.iter().filter(|&&v| v == 0).count() > 13 {
            continue;
        }
        let mut g = position(n, &cells);
        for color in Color::ALL {
            let can = fillable(&mut g, n, &mut cells, color);
            for p in 0..n * n {
                if cells[p] != 0 {
                    continue;
                }
                checked += 1;
                unfillable += usize::from(!can[p]);
                for radius in 0..4 {
                    let d = g.solver_mut().probe_dead(&cells, color, p as u16, radius);
                    dead += usize::from(d);
                    assert!(
                        !(d && can[p]),
                        "{color:?} {} radius {radius}\n{}",
                        name(n, p),
                        g.showboard()
                    );
                }
            }
        }
    }
    eprintln!("{checked} points checked, {unfillable} unfillable, {dead} probe answers 'dead'");
    assert!(dead > 200, "{dead}");
}

/// Brute force over every reachable set with the engine's legality check
/// (compared with the naive one above): faster, for bigger boards.
fn fast_brute(
    g: &mut crosscut::games::orcoon::Orcoon,
    n: usize,
    cells: &mut Vec<u8>,
    color: Color,
    seen: &mut HashSet<Vec<u8>>,
) -> bool {
    if g.is_connected(color) {
        return true;
    }
    if !seen.insert(cells.clone()) {
        return false;
    }
    for p in 0..n * n {
        if g.can_place(p as u16, color) {
            cells[p] = color as u8 + 1;
            g.setup(Some(color), &name(n, p)).unwrap();
            let won = fast_brute(g, n, cells, color, seen);
            cells[p] = 0;
            g.setup(None, &name(n, p)).unwrap();
            if won {
                return true;
            }
        }
    }
    false
}

/// Where the probes prune (points the bound `L` admits but no order
/// fills), on 6x6 and 7x7, the answers still agree with brute force, with
/// and without the greedy construction, for several window sizes.
#[test]
fn brute_force_where_probes_prune() {
    let mut rng = Rng(61);
    let (mut pruned, mut tried) = (0, 0);
    let (big_n, big) = parse_rows(&SEED345);
    for i in 0..3000 {
        // A window of the hard position (whose deadlock needs the probes),
        // some of its stones removed, some random legal stones added.
        let n = 6 + i % 3;
        let (r0, c0) = (rng.below(big_n - n + 1), rng.below(big_n - n + 1));
        let mut cells = vec![0u8; n * n];
        for r in 0..n {
            for c in 0..n {
                let v = big[(r0 + r) * big_n + c0 + c];
                if !rng.chance(8) {
                    cells[r * n + c] = v;
                }
            }
        }
        for _ in 0..rng.below(4) {
            let p = rng.below(n * n);
            let v = 1 + rng.below(2) as u8;
            if naive_legal(n, &mut cells, p, v) {
                cells[p] = v;
            }
        }
        if cells.iter().filter(|&&v| v == 0).count() > 22 {
            continue;
        }
        for color in Color::ALL {
            let mut g = position(n, &cells);
            g.solver_mut().use_greedy = i % 3 != 0;
            g.solver_mut().probe_radius = 1 + i % 3;
            g.solver_mut().quick_nodes = if i % 2 == 0 { 0 } else { 2 };
            let got = g.connecting_sequence(color).is_some();
            if g.solver().dead_points() == 0 {
                continue;
            }
            pruned += 1;
            if pruned > 400 {
                continue;
            }
            tried += 1;
            let mut work = cells.clone();
            let mut h = position(n, &cells);
            let expected = fast_brute(&mut h, n, &mut work, color, &mut HashSet::new());
            assert_eq!(got, expected, "{color:?} on\n{}", g.showboard());
        }
    }
    eprintln!("{pruned} answers with dead points, {tried} compared with brute force");
    assert!(tried > 30, "{tried}");
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
