//! Onyx's solver knowledge (virtual connections, `src/games/onyx/vc.rs`)
//! against brute force, on thousands of random positions of small boards:
//!
//! - every `forced_winner` claim is a forced win by an exact minimax
//!   written here (a position repeated on the path is a draw: the value of
//!   endless play, RULINGS "Onyx"; the root value is exact);
//! - a win in one is always claimed (the default's knowledge is kept);
//! - every move `prune_losing` removes loses by force;
//! - the solver with the knowledge agrees with plain df-pn
//!   (`use_knowledge = false`) and with minimax, and its winning moves win.
//!
//! Onyx boards have even sizes from 4: the small boards are 4×4 (random
//! positions and positions near the end of random games), 6×6 and 8×8 (near
//! the end). A position minimax cannot finish within its budget is skipped
//! and counted. `cargo test --release --test it onyx_vc:: -- --ignored`
//! runs ten times as many.

use crate::common::minimax::{V, minimax, near_end, random_moves};

use std::collections::HashSet;

use crosscut::game::{Color, Game, Notation};
use crosscut::games::onyx::{Onyx, OnyxMove, Start};
use crosscut::solve::{Knowledge, SolveLimits, SolveValue, Solver};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// The exact value for the side to move, if minimax finishes in `budget`.
fn value(game: &mut Onyx, budget: u64) -> Option<V> {
    let mut b = budget;
    minimax(game, &mut HashSet::new(), &mut b, true)
}

/// What the checks saw.
#[derive(Default, Debug)]
struct Counts {
    positions: usize,
    claims: usize,
    claims_checked: usize,
    /// Claims of the side not to move (a virtual connection).
    claims_other: usize,
    /// Claims beyond a win in one (virtual or semi-connections).
    claims_vc: usize,
    pruned_positions: usize,
    pruned_moves: usize,
    pruned_checked: usize,
    solved: usize,
    solved_with_minimax: usize,
    skipped: usize,
}

/// Runs every check on `game`.
fn check(
    game: &mut Onyx,
    solver: &mut Solver<Onyx>,
    plain: &mut Solver<Onyx>,
    budget: u64,
    play: bool,
    counts: &mut Counts,
) {
    if game.outcome().is_some() {
        return;
    }
    // The solvers below set the thread's form of knowledge at each start.
    <Onyx as Knowledge>::use_play_knowledge(play);
    counts.positions += 1;
    let hash = game.hash();
    let me = game.to_move();
    let claim = game.forced_winner();
    assert_eq!(game.hash(), hash, "forced_winner leaves the position");
    let in_one = crate::common::has_win_in_one(game);
    if in_one {
        assert_eq!(
            claim,
            Some(me),
            "a win in one is missed:\n{}",
            game.showboard()
        );
    }
    let exact = value(game, budget);
    if let Some(c) = claim {
        counts.claims += 1;
        if !in_one {
            counts.claims_vc += 1;
        }
        if c != me {
            counts.claims_other += 1;
        }
        if let Some(v) = exact {
            counts.claims_checked += 1;
            let want = if c == me { V::Win } else { V::Loss };
            assert_eq!(
                v,
                want,
                "forced_winner claims {c:?}, {me:?} to move, after {} moves:\n{}",
                game.moves_played(),
                game.showboard()
            );
        }
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut kept = moves.clone();
    game.prune_losing(&mut kept);
    assert_eq!(game.hash(), hash, "prune_losing leaves the position");
    assert!(
        kept.iter().all(|m| moves.contains(m)),
        "prune_losing adds no move"
    );
    if kept.len() < moves.len() {
        counts.pruned_positions += 1;
    }
    for &mv in moves.iter().filter(|m| !kept.contains(m)) {
        counts.pruned_moves += 1;
        game.play(mv);
        let after = value(game, budget);
        let board = game.showboard();
        game.undo();
        if let Some(v) = after {
            counts.pruned_checked += 1;
            // The opponent moves after the move (no swap from move 3 on).
            assert_eq!(
                v,
                V::Win,
                "prune_losing removed {} which does not lose; {me:?} to move:\n{}\nafter:\n{board}",
                game.format_move(mv),
                game.showboard()
            );
        }
    }
    // The solver, with and without knowledge.
    let limits = SolveLimits {
        nodes: Some(100_000),
        play_knowledge: play,
        ..SolveLimits::unlimited()
    };
    let with = solver.solve(game, &limits, &mut |_| {});
    assert_eq!(game.hash(), hash);
    let without = plain.solve(game, &limits, &mut |_| {});
    let as_v = |v: &SolveValue<OnyxMove>| match v {
        SolveValue::Win(_) => Some(V::Win),
        SolveValue::Loss => Some(V::Loss),
        SolveValue::Draw => Some(V::Draw),
        SolveValue::Unknown => None,
    };
    let (a, b) = (as_v(&with.value), as_v(&without.value));
    if let (Some(a), Some(b)) = (a, b) {
        counts.solved += 1;
        assert_eq!(
            a,
            b,
            "knowledge {a:?} but plain df-pn {b:?}, {me:?} to move:\n{}",
            game.showboard()
        );
    }
    if let Some(v) = exact {
        if let Some(a) = a {
            counts.solved_with_minimax += 1;
            assert_eq!(a, v, "solver {a:?}, minimax {v:?}:\n{}", game.showboard());
        }
        if let SolveValue::Win(mv) = with.value {
            game.play(mv);
            let after = value(game, budget);
            game.undo();
            if let Some(after) = after {
                assert_eq!(
                    after,
                    V::Loss,
                    "the solver's winning move {mv:?} does not win"
                );
            }
        }
    } else {
        counts.skipped += 1;
    }
}

/// Checks `count` positions from `make`, with the combined connections
/// of H-search when `play` (`solve_play_knowledge`); fresh solver tables
/// every ten.
fn run(
    count: usize,
    budget: u64,
    seed: u64,
    play: bool,
    mut make: impl FnMut(&mut SmallRng) -> Onyx,
) -> Counts {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut solver = Solver::new(2);
    let mut plain = Solver::new(2);
    plain.use_knowledge = false;
    let mut counts = Counts::default();
    for i in 0..count {
        if i % 10 == 0 {
            solver.clear();
            plain.clear();
        }
        let mut game = make(&mut rng);
        check(
            &mut game,
            &mut solver,
            &mut plain,
            budget,
            play,
            &mut counts,
        );
    }
    counts
}

/// How many times the quick runs the `--ignored` runs make.
const BIG: usize = 10;

fn random_4x4(scale: usize, seed: u64, play: bool) -> Counts {
    let c = run(300 * scale, 30_000, seed, play, |rng| {
        let mut g = Onyx::new(4, Start::Blank).unwrap();
        let k = rng.random_range(4..16);
        random_moves(&mut g, rng, k);
        g
    });
    eprintln!("onyx 4x4 random (combined: {play}): {c:?}");
    c
}

fn near_end_of(
    n: usize,
    start: Start,
    scale: usize,
    count: usize,
    seed: u64,
    play: bool,
) -> Counts {
    let c = run(count * scale, 30_000, seed, play, |rng| {
        let mut g = Onyx::new(n, start).unwrap();
        let back = rng.random_range(1..9);
        near_end(&mut g, rng, back, 4 * n * n);
        g
    });
    eprintln!("onyx {n}x{n} near end (combined: {play}): {c:?}");
    c
}

#[test]
fn knowledge_is_sound_on_random_4x4_positions() {
    let c = random_4x4(1, 41, false);
    assert!(c.claims_checked >= 50, "{c:?}");
    assert!(c.claims_vc >= 25, "{c:?}");
    assert!(c.claims_other >= 10, "{c:?}");
    assert!(c.pruned_checked >= 40, "{c:?}");
    assert!(c.solved >= 200, "{c:?}");
}

#[test]
fn knowledge_is_sound_near_the_end_of_4x4_games() {
    let c = near_end_of(4, Start::Blank, 1, 300, 42, false);
    assert!(c.claims_checked >= 100, "{c:?}");
    assert!(c.claims_vc >= 30, "{c:?}");
    assert!(c.pruned_checked >= 60, "{c:?}");
}

#[test]
fn knowledge_is_sound_near_the_end_of_6x6_and_8x8_games() {
    let c = near_end_of(6, Start::Blank, 1, 100, 43, false);
    assert!(c.claims_checked >= 20, "{c:?}");
    let c = near_end_of(8, Start::Standard, 1, 40, 44, false);
    assert!(c.claims_checked >= 5, "{c:?}");
}

#[test]
#[ignore = "ten times the quick runs: a few minutes"]
fn knowledge_is_sound_big_run() {
    random_4x4(BIG, 141, false);
    near_end_of(4, Start::Blank, BIG, 300, 142, false);
    near_end_of(6, Start::Blank, BIG, 100, 143, false);
    near_end_of(8, Start::Standard, BIG, 40, 144, false);
}

/// The same checks with H-search's combined connections asked too
/// (`solve_play_knowledge`): every claim, every pruned move and the
/// solver's values against minimax and plain df-pn.
#[test]
fn knowledge_with_combined_connections_is_sound() {
    let c = random_4x4(1, 61, true);
    assert!(c.claims_checked >= 50 && c.pruned_checked >= 40, "{c:?}");
    let c = near_end_of(6, Start::Blank, 1, 100, 63, true);
    assert!(c.claims_checked >= 20, "{c:?}");
}

#[test]
#[ignore = "ten times the quick run: a few minutes"]
fn knowledge_with_combined_connections_big_run() {
    random_4x4(BIG, 161, true);
    near_end_of(4, Start::Blank, BIG, 300, 162, true);
    near_end_of(6, Start::Blank, BIG, 100, 163, true);
    near_end_of(8, Start::Standard, BIG, 40, 164, true);
}

#[test]
fn a_virtual_connection_is_seen_and_prunes_to_its_carrier() {
    // Black B2 and C3 on 4x4: B2 reaches row 1 by A1 or B1 (the diagonal
    // A1-B2), B2 and C3 meet at B3 or C2, C3 reaches row 4 by C4 or D4
    // (the diagonal C3-D4). Every capture is answered by the test of
    // vc.rs (B1, C2, B3, C4 are guarded by B2 and C3).
    let mut g = Onyx::new(4, Start::Blank).unwrap();
    for m in ["B2", "D1", "C3"] {
        let mv = g.parse_move(m).unwrap();
        g.play(mv);
    }
    assert_eq!(g.forced_winner(), Some(Color::Black));
    let mut plain = Solver::new(4);
    plain.use_knowledge = false;
    let r = plain.solve(&mut g, &SolveLimits::unlimited(), &mut |_| {});
    assert_eq!(r.value, SolveValue::Loss);
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    g.prune_losing(&mut moves);
    let mut kept: Vec<String> = moves.iter().map(|&m| g.format_move(m)).collect();
    kept.sort();
    assert_eq!(kept, ["A1", "B1", "B3", "C2", "C4", "D4"]);
    // With Black to move (a null move hands the turn over) Black holds
    // the connection too.
    g.play_null();
    assert_eq!(g.forced_winner(), Some(Color::Black));
}

/// A semi-connection whose one move is not a one-point link between two
/// nodes but a point from which a two-way link goes on: White's group
/// A5 B5 C4 C3 D3 touches the left edge; E3 joins D3 and then reaches the
/// right edge by F3 or F4 (the diagonal E3-F4). White to move wins, seen
/// without search (and the plain solver agrees).
#[test]
fn a_semi_connection_through_a_key_point_is_seen() {
    let mut g = Onyx::new(6, Start::Blank).unwrap();
    g.set_swap(false);
    for p in ["D5", "E5", "A4", "B4", "D4", "B3", "C2", "D2"] {
        g.setup(Some(Color::Black), p).unwrap();
    }
    for p in ["D6", "A5", "B5", "C4", "C3", "D3", "A2", "A1"] {
        g.setup(Some(Color::White), p).unwrap();
    }
    for m in ["F2", "E2", "C1"] {
        let mv = g.parse_move(m).unwrap();
        g.play(mv);
    }
    assert_eq!(g.to_move(), Color::White);
    assert_eq!(g.forced_winner(), Some(Color::White), "{}", g.showboard());
    let mut plain = Solver::new(16);
    plain.use_knowledge = false;
    let limits = SolveLimits {
        nodes: Some(2_000_000),
        ..SolveLimits::unlimited()
    };
    let r = plain.solve(&mut g, &limits, &mut |_| {});
    assert!(matches!(r.value, SolveValue::Win(_)), "{:?}", r.value);
}

#[test]
fn nothing_but_wins_in_one_while_a_swap_can_come() {
    // Before the third move the knowledge counts colours, so it claims
    // only wins in one and prunes nothing (the swap stays).
    let mut rng = SmallRng::seed_from_u64(7);
    for _ in 0..200 {
        let mut g = Onyx::new(4, Start::Blank).unwrap();
        let k = rng.random_range(0..2);
        random_moves(&mut g, &mut rng, k);
        let in_one = crate::common::has_win_in_one(&mut g);
        let claim = g.forced_winner();
        assert_eq!(claim.is_some(), in_one);
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let all = moves.clone();
        g.prune_losing(&mut moves);
        assert_eq!(moves, all);
        if g.moves_played() == 1 {
            assert!(moves.contains(&OnyxMove::Swap));
        }
    }
}

#[test]
fn solve_knowledge_switches_the_knowledge_off() {
    let mut gtp = crosscut::protocol::Gtp::new();
    let mut ask = |line: &str| {
        let a = gtp.execute(line).unwrap_or_default();
        assert!(a.starts_with('='), "'{line}' failed: {a}");
        a[1..].trim().to_string()
    };
    for l in [
        "game onyx",
        "start blank",
        "boardsize 4",
        "param verbose false",
        "param solve_time 0",
        "play b B2",
        "play w D1",
        "play b C3",
    ] {
        ask(l);
    }
    let nodes = |answer: &str| -> u64 {
        let words: Vec<&str> = answer.split_whitespace().collect();
        let i = words.iter().position(|&w| w == "nodes").unwrap();
        words[i + 1].parse().unwrap()
    };
    let with = ask("solve");
    assert!(with.starts_with("loss "), "{with}");
    assert!(
        nodes(&with) <= 2,
        "the connection is seen at the root: {with}"
    );
    ask("clear_board");
    for l in [
        "play b B2",
        "play w D1",
        "play b C3",
        "param solve_knowledge false",
    ] {
        ask(l);
    }
    assert_eq!(ask("param solve_knowledge"), "false");
    let without = ask("solve");
    assert!(without.starts_with("loss "), "{without}");
    assert!(nodes(&without) > 2, "{without}");
}

/// What the dead-point checks saw.
#[derive(Default, Debug)]
struct DeadCounts {
    positions: usize,
    with_dead: usize,
    dead: usize,
    /// Positions whose value minimax gave, with the pruned moves' best.
    values_checked: usize,
    /// Dead points filled by either colour, both values given.
    fills_checked: usize,
    /// Two dead points filled, both values given.
    pairs_checked: usize,
}

/// Puts a piece of `color` on `p`, the side to move kept (a null move
/// hands the turn over); undone by two `undo`s.
fn place_keeping_turn(game: &mut Onyx, p: crosscut::games::onyx::Point, color: Color) {
    if color == game.to_move() {
        game.play(OnyxMove::Place(p));
        game.play_null();
    } else {
        game.play_null();
        game.play(OnyxMove::Place(p));
    }
}

/// Checks the dead points of `game` against minimax: the moves
/// `prune_dead_points` keeps give the position's value; a dead point
/// filled by either colour gives one value; two filled give the
/// position's value.
fn check_dead_points(game: &mut Onyx, budget: u64, counts: &mut DeadCounts) {
    use crosscut::games::onyx::inferior::{dead_points, prune_dead_points};
    if game.outcome().is_some() || game.swap_available() {
        return;
    }
    counts.positions += 1;
    let dead = dead_points(game);
    if dead.is_empty() {
        return;
    }
    counts.with_dead += 1;
    counts.dead += dead.len();
    let hash = game.hash();
    let exact = value(game, budget);
    let mut kept = Vec::new();
    game.legal_moves(&mut kept);
    prune_dead_points(game, &mut kept);
    if let Some(v) = exact {
        let mut best = Some(V::Loss);
        for &mv in &kept {
            game.play(mv);
            let after = value(game, budget).map(V::flip);
            game.undo();
            best = match (best, after) {
                (_, Some(V::Win)) | (Some(V::Win), _) => Some(V::Win),
                (Some(a), Some(b)) => Some(if a == V::Draw || b == V::Draw {
                    V::Draw
                } else {
                    V::Loss
                }),
                _ => None,
            };
        }
        if let Some(b) = best {
            counts.values_checked += 1;
            let names: Vec<String> = dead
                .iter()
                .map(|&p| game.geometry().point_name(p))
                .collect();
            assert_eq!(
                b,
                v,
                "the kept moves give {b:?}, the position is {v:?}; dead {names:?}:\n{}",
                game.showboard()
            );
        }
    }
    let filled = |game: &mut Onyx, fill: &[(crosscut::games::onyx::Point, Color)]| {
        for &(p, c) in fill {
            place_keeping_turn(game, p, c);
        }
        let v = value(game, budget);
        for _ in 0..2 * fill.len() {
            game.undo();
        }
        v
    };
    let p = dead[0];
    let black = filled(game, &[(p, Color::Black)]);
    let white = filled(game, &[(p, Color::White)]);
    if let (Some(b), Some(w)) = (black, white) {
        counts.fills_checked += 1;
        assert_eq!(
            b,
            w,
            "{} filled by Black gives {b:?}, by White {w:?}:\n{}",
            game.geometry().point_name(p),
            game.showboard()
        );
    }
    if dead.len() >= 2 {
        let q = dead[dead.len() - 1];
        let two = filled(game, &[(p, Color::White), (q, Color::Black)]);
        if let (Some(t), Some(v)) = (two, exact) {
            counts.pairs_checked += 1;
            assert_eq!(
                t,
                v,
                "two dead points filled change the value:\n{}",
                game.showboard()
            );
        }
    }
    assert_eq!(game.hash(), hash);
}

/// A random position of `moves` moves where a placeable midpoint is taken
/// half the time (taken midpoints make pieces permanent, and so dead
/// points).
fn midpoint_heavy(n: usize, moves: usize, rng: &mut SmallRng) -> Onyx {
    let mut g = Onyx::new(n, Start::Blank).unwrap();
    g.set_swap(false);
    let mut legal = Vec::new();
    for _ in 0..moves {
        if g.outcome().is_some() {
            break;
        }
        legal.clear();
        g.legal_moves(&mut legal);
        let mids: Vec<OnyxMove> = legal
            .iter()
            .copied()
            .filter(|m| matches!(m, OnyxMove::Place(p) if g.geometry().is_midpoint(*p)))
            .collect();
        let mv = if !mids.is_empty() && rng.random_range(0..2) == 0 {
            mids[rng.random_range(0..mids.len())]
        } else {
            legal[rng.random_range(0..legal.len())]
        };
        g.play(mv);
    }
    g
}

fn dead_point_run(scale: usize, seed: u64) -> DeadCounts {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut counts = DeadCounts::default();
    for i in 0..600 * scale {
        let mut g = if i % 2 == 0 {
            let k = rng.random_range(6..16);
            midpoint_heavy(4, k, &mut rng)
        } else {
            let mut g = Onyx::new(4, Start::Blank).unwrap();
            g.set_swap(false);
            let back = rng.random_range(1..7);
            near_end(&mut g, &mut rng, back, 64);
            g
        };
        check_dead_points(&mut g, 30_000, &mut counts);
    }
    for _ in 0..100 * scale {
        let mut g = Onyx::new(6, Start::Blank).unwrap();
        g.set_swap(false);
        let back = rng.random_range(1..5);
        near_end(&mut g, &mut rng, back, 4 * 36);
        check_dead_points(&mut g, 30_000, &mut counts);
    }
    eprintln!("onyx dead points: {counts:?}");
    counts
}

#[test]
fn dead_points_are_sound_against_minimax() {
    let c = dead_point_run(1, 51);
    assert!(c.values_checked >= 30, "{c:?}");
    assert!(c.fills_checked >= 30, "{c:?}");
    assert!(c.pairs_checked >= 10, "{c:?}");
}

#[test]
#[ignore = "ten times the quick run"]
fn dead_points_are_sound_big_run() {
    dead_point_run(BIG, 151);
}
/// Why only permanent pieces shut a point in: here several pieces can
/// still be captured (square BC34 has an empty midpoint and Black on the
/// diagonal B4 C3, White on C4), and A4 matters: with Black to move, Black
/// on A4 and White on A4 give different values. Read as if every piece
/// were permanent, A4 would pass the neighbour test (found by a search
/// for exactly that mistake).
#[test]
fn a_point_next_to_pieces_that_can_be_captured_is_not_dead() {
    use crosscut::games::onyx::inferior::dead_points;
    let mut g = Onyx::new(4, Start::Blank).unwrap();
    g.set_swap(false);
    for p in ["BC12", "B4", "D4", "C3"] {
        g.setup(Some(Color::Black), p).unwrap();
    }
    for p in ["C4", "D3", "D2", "B1"] {
        g.setup(Some(Color::White), p).unwrap();
    }
    assert_eq!(g.to_move(), Color::Black);
    let a4 = g.geometry().parse_point("A4").unwrap();
    assert!(!dead_points(&g).contains(&a4), "{}", g.showboard());
    place_keeping_turn(&mut g, a4, Color::Black);
    let black = value(&mut g, 1_000_000);
    g.undo();
    g.undo();
    place_keeping_turn(&mut g, a4, Color::White);
    let white = value(&mut g, 1_000_000);
    assert_ne!(black, white, "A4 matters");
}

/// What the H-search checks saw.
#[derive(Default, Debug)]
struct CombinedCounts {
    positions: usize,
    claims: usize,
    claims_other: usize,
    checked: usize,
}

/// Every claim of H-search alone (`combined_winner`) is a forced win by
/// minimax, on `count` positions from `make`.
fn combined_run(
    count: usize,
    budget: u64,
    seed: u64,
    mut make: impl FnMut(&mut SmallRng) -> Onyx,
) -> CombinedCounts {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut c = CombinedCounts::default();
    for _ in 0..count {
        let mut game = make(&mut rng);
        if game.outcome().is_some() {
            continue;
        }
        c.positions += 1;
        let me = game.to_move();
        let Some(claim) = crosscut::games::onyx::combined_winner(&game) else {
            continue;
        };
        c.claims += 1;
        c.claims_other += (claim != me) as usize;
        if let Some(v) = value(&mut game, budget) {
            c.checked += 1;
            let want = if claim == me { V::Win } else { V::Loss };
            assert_eq!(
                v,
                want,
                "H-search claims {claim:?}, {me:?} to move:\n{}",
                game.showboard()
            );
        }
    }
    c
}

fn combined_checks(scale: usize, seed: u64) -> [CombinedCounts; 3] {
    let a = combined_run(400 * scale, 30_000, seed, |rng| {
        let mut g = Onyx::new(4, Start::Blank).unwrap();
        let k = rng.random_range(3..14);
        random_moves(&mut g, rng, k);
        g
    });
    let b = combined_run(150 * scale, 30_000, seed + 1, |rng| {
        let mut g = Onyx::new(6, Start::Blank).unwrap();
        let back = rng.random_range(1..12);
        near_end(&mut g, rng, back, 4 * 36);
        g
    });
    let c = combined_run(60 * scale, 30_000, seed + 2, |rng| {
        let mut g = Onyx::new(8, Start::Standard).unwrap();
        let back = rng.random_range(1..10);
        near_end(&mut g, rng, back, 4 * 64);
        g
    });
    eprintln!("H-search: 4x4 {a:?}\n6x6 {b:?}\n8x8 {c:?}");
    [a, b, c]
}

#[test]
fn combined_connections_are_sound_against_minimax() {
    let [a, b, c] = combined_checks(1, 51);
    assert!(a.checked >= 50 && a.claims_other >= 10, "{a:?}");
    assert!(b.checked >= 20, "{b:?}");
    assert!(c.checked >= 5, "{c:?}");
}

#[test]
#[ignore = "ten times the quick run"]
fn combined_connections_are_sound_big_run() {
    combined_checks(BIG, 151);
}

/// White's chain A2-B2-C2 reaches D3 across the square C2-D3 (free corners
/// C3 and D2) and D3 reaches E4 across the square D3-E4 (D4 and E3), and
/// E4-E5-F5 touches the right edge: each square is both a bridge and a
/// capture threat, answered by the same pair. H-search combines the two
/// (the first square's pair also guards the second's diagonal D3 and the
/// other way round) into a full connection: Black to move has lost.
#[test]
fn combined_connections_join_two_bridges_across_squares() {
    let mut g = Onyx::new(6, Start::Blank).unwrap();
    let black = ["A6", "B6", "C6", "F6", "A5", "A4", "A3", "E2", "B1", "BC34"];
    let white = ["D5", "E5", "F5", "E4", "D3", "F3", "A2", "B2", "C2", "D1"];
    for (b, w) in black.iter().zip(white) {
        for m in [b, &w] {
            let mv = g.parse_move(m).unwrap();
            g.play(mv);
        }
    }
    assert_eq!(g.to_move(), Color::Black);
    assert_eq!(
        crosscut::games::onyx::combined_winner(&g),
        Some(Color::White),
        "{}",
        g.showboard()
    );
    // With Black on D2 the first square is one link short, and the
    // capture threat on C2-D3 is Black's: no full connection is claimed.
    let mut g2 = Onyx::new(6, Start::Blank).unwrap();
    let black2 = ["A6", "B6", "C6", "F6", "A5", "A4", "A3", "E2", "B1", "D2"];
    for (b, w) in black2.iter().zip(white) {
        for m in [b, &w] {
            let mv = g2.parse_move(m).unwrap();
            g2.play(mv);
        }
    }
    assert_ne!(
        crosscut::games::onyx::combined_winner(&g2),
        Some(Color::White),
        "{}",
        g2.showboard()
    );
}
