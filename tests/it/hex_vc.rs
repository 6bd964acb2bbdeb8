//! Hex's connection knowledge (`src/games/hex/vc.rs`) against brute
//! force: on thousands of random positions of 3×3, 4×4 and 5×5 (near the
//! end), an exact minimax written here checks that every `forced_winner`
//! claim is true and that every move `prune_losing` removes loses for the
//! mover; and the solver with the knowledge agrees with plain df-pn.
//!
//! Values are by colour (swap, when legal, is a move after which White
//! moves again). Run with `cargo test --release --test it hex_vc::`; the
//! larger runs are `#[ignore]`d (`-- --ignored`).

use std::collections::HashMap;

use crosscut::game::{Color, Game, Notation, Outcome};
use crosscut::games::hex::{Hex, HexMove};
use crosscut::solve::{Knowledge, SolveLimits, SolveValue, Solver};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// The colour that wins `pos` with best play, by colour (Hex has no
/// draws): exhaustive, memoised on the position's hash.
fn winner(pos: &mut Hex, memo: &mut HashMap<u64, Color>) -> Color {
    if let Some(Outcome::Win(c)) = pos.outcome() {
        return c;
    }
    let key = pos.hash();
    if let Some(&c) = memo.get(&key) {
        return c;
    }
    let me = pos.to_move();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert!(!moves.is_empty(), "a hex game that goes on has moves");
    let mut best = me.opponent();
    for mv in moves {
        pos.play(mv);
        let w = winner(pos, memo);
        pos.undo();
        if w == me {
            best = me;
            break;
        }
    }
    memo.insert(key, best);
    best
}

/// What was checked.
#[derive(Default, Debug)]
struct Tally {
    positions: usize,
    claims: usize,
    pruned_positions: usize,
    removed: usize,
}

/// Checks the knowledge on `pos` (not over), with each side to move.
fn check(pos: &mut Hex, memo: &mut HashMap<u64, Color>, t: &mut Tally) {
    for flip in [false, true] {
        if flip {
            pos.play_null();
        }
        t.positions += 1;
        let value = winner(pos, memo);
        let hash = pos.hash();
        if let Some(c) = pos.forced_winner() {
            t.claims += 1;
            assert_eq!(
                c,
                value,
                "forced_winner claims {c:?}, {:?} to move:\n{}",
                pos.to_move(),
                pos.showboard()
            );
        }
        assert_eq!(pos.hash(), hash, "forced_winner leaves the position");
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut kept = moves.clone();
        pos.prune_losing(&mut kept);
        assert_eq!(pos.hash(), hash, "prune_losing leaves the position");
        assert!(kept.iter().all(|m| moves.contains(m)), "kept a new move");
        if kept.len() < moves.len() {
            t.pruned_positions += 1;
        }
        let me = pos.to_move();
        for &mv in moves.iter().filter(|m| !kept.contains(m)) {
            t.removed += 1;
            assert_ne!(mv, HexMove::Swap, "swap is kept");
            pos.play(mv);
            let w = winner(pos, memo);
            pos.undo();
            assert_eq!(
                w,
                me.opponent(),
                "pruned {} wins for {me:?}:\n{}",
                pos.format_move(mv),
                pos.showboard()
            );
        }
        if flip {
            pos.undo();
        }
    }
}

/// A position from `placed` random placements from the start (no swap),
/// or `None` if the game ended.
fn played(n: usize, placed: usize, rng: &mut SmallRng) -> Option<Hex> {
    let mut pos = Hex::new(n).unwrap();
    let mut moves = Vec::new();
    for _ in 0..placed {
        moves.clear();
        pos.legal_moves(&mut moves);
        moves.retain(|&m| m != HexMove::Swap);
        if moves.is_empty() || pos.outcome().is_some() {
            return None;
        }
        let mv = moves[rng.random_range(0..moves.len())];
        pos.play(mv);
    }
    pos.outcome().is_none().then_some(pos)
}

/// A set-up position: each cell Black with probability `p`, else White
/// with probability `p`, else empty; a random side to move.
fn set_up(n: usize, p: f64, rng: &mut SmallRng) -> Option<Hex> {
    let mut pos = Hex::new(n).unwrap();
    let geo = pos.geometry().clone();
    for c in 0..n * n {
        let r: f64 = rng.random();
        let colour = if r < p {
            Some(Color::Black)
        } else if r < 2.0 * p {
            Some(Color::White)
        } else {
            None
        };
        pos.setup(colour, &geo.cell_name(c as u16)).unwrap();
    }
    let side = if rng.random_range(0..2) == 0 {
        Color::Black
    } else {
        Color::White
    };
    pos.set_to_move(side).unwrap();
    pos.outcome().is_none().then_some(pos)
}

/// Checks `count` positions from `make`; returns the tally.
fn check_many(
    count: usize,
    seed: u64,
    mut make: impl FnMut(&mut SmallRng) -> Option<Hex>,
) -> Tally {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut memo = HashMap::new();
    let mut t = Tally::default();
    let mut made = 0;
    while made < count {
        if let Some(mut pos) = make(&mut rng) {
            made += 1;
            check(&mut pos, &mut memo, &mut t);
        }
    }
    t
}

#[test]
fn knowledge_is_sound_on_3x3() {
    let t = check_many(1500, 1, |rng| {
        let k = rng.random_range(0..9);
        played(3, k, rng)
    });
    let u = check_many(1500, 2, |rng| set_up(3, 0.3, rng));
    eprintln!("3x3 played: {t:?}\n3x3 set up: {u:?}");
    assert!(t.claims > 100 && t.removed > 100 && u.claims > 100);
}

#[test]
fn knowledge_is_sound_on_4x4() {
    let t = check_many(1000, 3, |rng| {
        let k = rng.random_range(5..16);
        played(4, k, rng)
    });
    let u = check_many(1000, 4, |rng| set_up(4, 0.33, rng));
    eprintln!("4x4 played: {t:?}\n4x4 set up: {u:?}");
    assert!(t.claims > 100 && t.removed > 100 && u.claims > 100);
}

#[test]
fn knowledge_is_sound_on_5x5_near_the_end() {
    let t = check_many(700, 5, |rng| {
        let k = rng.random_range(14..25);
        played(5, k, rng)
    });
    let u = check_many(500, 6, |rng| {
        set_up(5, 0.3, rng).filter(|p| empties(p) <= 12)
    });
    eprintln!("5x5 played: {t:?}\n5x5 set up: {u:?}");
    assert!(t.claims > 100 && t.removed > 100 && u.claims > 50);
}

fn empties(pos: &Hex) -> usize {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves.iter().filter(|&&m| m != HexMove::Swap).count()
}

/// The solve value kind for the side to move (the winning move is checked
/// by colour against minimax by the caller).
fn solve(pos: &mut Hex, knowledge: bool, by_player: bool) -> SolveValue<HexMove> {
    let mut solver: Solver<Hex> = Solver::new(4);
    solver.use_knowledge = knowledge;
    let limits = SolveLimits {
        by_player,
        ..SolveLimits::unlimited()
    };
    let hash = pos.hash();
    let r = solver.solve(pos, &limits, &mut |_| {});
    assert_eq!(pos.hash(), hash);
    r.value
}

/// The solver with and without knowledge on `count` positions from `make`,
/// by colour and by player; a winning move by colour is checked with
/// minimax. Returns the number of positions compared.
fn compare_solvers(
    count: usize,
    seed: u64,
    mut make: impl FnMut(&mut SmallRng) -> Option<Hex>,
) -> usize {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut memo = HashMap::new();
    let mut made = 0;
    while made < count {
        let Some(mut pos) = make(&mut rng) else {
            continue;
        };
        made += 1;
        for by_player in [false, true] {
            let plain = solve(&mut pos, false, by_player);
            let known = solve(&mut pos, true, by_player);
            let kind = |v: &SolveValue<HexMove>| match v {
                SolveValue::Win(_) => 0,
                SolveValue::Loss => 1,
                SolveValue::Draw => 2,
                SolveValue::Unknown => 3,
            };
            assert_eq!(
                kind(&plain),
                kind(&known),
                "plain {plain:?}, knowledge {known:?} (by player {by_player}):\n{}",
                pos.showboard()
            );
            assert!(kind(&known) < 2, "hex has a winner");
            if !by_player {
                let me = pos.to_move();
                let value = winner(&mut pos, &mut memo);
                assert_eq!(value == me, kind(&known) == 0, "solver vs minimax");
                if let SolveValue::Win(mv) = known {
                    pos.play(mv);
                    let w = winner(&mut pos, &mut memo);
                    pos.undo();
                    assert_eq!(w, me, "the winning move {mv:?} does not win");
                }
            }
        }
    }
    made
}

#[test]
fn solver_with_knowledge_agrees_with_plain_dfpn() {
    let a = compare_solvers(300, 7, |rng| {
        let k = rng.random_range(0..9);
        played(3, k, rng)
    });
    let b = compare_solvers(200, 8, |rng| {
        let k = rng.random_range(6..16);
        played(4, k, rng)
    });
    let c = compare_solvers(100, 9, |rng| {
        let k = rng.random_range(15..25);
        played(5, k, rng)
    });
    eprintln!("solver compared on {a} 3x3, {b} 4x4, {c} 5x5 positions");
}

#[test]
fn small_starts_keep_their_known_values() {
    for n in 1..=4 {
        let mut pos = Hex::new(n).unwrap();
        let by_colour = solve(&mut pos, true, false);
        assert!(
            matches!(by_colour, SolveValue::Win(_)),
            "{n}: {by_colour:?}"
        );
        if n > 1 {
            assert_eq!(solve(&mut pos, true, true), SolveValue::Loss, "{n}");
        }
    }
}

#[test]
fn larger_boards_fall_back_to_a_win_in_one() {
    let mut pos = Hex::new(9).unwrap();
    for m in ["a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4", "a5", "b5"] {
        let mv = pos.parse_move(m).unwrap();
        pos.play(mv);
    }
    assert_eq!(pos.forced_winner(), None);
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let before = moves.len();
    pos.prune_losing(&mut moves);
    assert_eq!(moves.len(), before);
}

#[test]
#[ignore = "minutes: more and emptier positions"]
fn knowledge_is_sound_on_many_positions() {
    let t = check_many(20_000, 11, |rng| {
        let k = rng.random_range(0..9);
        played(3, k, rng)
    });
    eprintln!("3x3: {t:?}");
    let t = check_many(20_000, 12, |rng| {
        let k = rng.random_range(2..16);
        played(4, k, rng)
    });
    eprintln!("4x4: {t:?}");
    let t = check_many(20_000, 13, |rng| set_up(4, 0.25, rng));
    eprintln!("4x4 set up: {t:?}");
    let t = check_many(3_000, 14, |rng| {
        let k = rng.random_range(13..25);
        played(5, k, rng)
    });
    eprintln!("5x5: {t:?}");
    let c = compare_solvers(1000, 15, |rng| {
        let k = rng.random_range(3..16);
        played(4, k, rng)
    });
    eprintln!("solver compared on {c} 4x4 positions");
}

#[test]
#[ignore = "timing, prints only"]
fn knowledge_timing() {
    for n in [5, 6, 7, 8] {
        let mut rng = SmallRng::seed_from_u64(n as u64);
        let start = std::time::Instant::now();
        let (mut calls, mut claims, mut kept, mut total) = (0, 0, 0, 0);
        while calls < 300 {
            let k = rng.random_range(0..n * n / 3);
            let Some(mut pos) = played(n, k, &mut rng) else {
                continue;
            };
            calls += 1;
            if pos.forced_winner().is_some() {
                claims += 1;
                continue;
            }
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            total += moves.len();
            pos.prune_losing(&mut moves);
            kept += moves.len();
        }
        eprintln!(
            "{n}x{n}: {calls} positions, {claims} claims, kept {kept} of {total} moves, {:.3} ms each",
            start.elapsed().as_secs_f64() * 1000.0 / calls as f64
        );
    }
}

/// Nodes and time of solving `pos` for the side to move.
fn measure(pos: &mut Hex, knowledge: bool, by_player: bool, secs: u64) -> String {
    let mut solver: Solver<Hex> = Solver::new(256);
    solver.use_knowledge = knowledge;
    let limits = SolveLimits {
        by_player,
        time: Some(std::time::Duration::from_secs(secs)),
        ..SolveLimits::unlimited()
    };
    let r = solver.solve(pos, &limits, &mut |_| {});
    format!(
        "{:?} nodes {} time {:.2}",
        r.value,
        r.nodes,
        r.elapsed.as_secs_f64()
    )
}

#[test]
#[ignore = "minutes: docs/solutions.md's plain df-pn against knowledge figures"]
fn plain_versus_knowledge() {
    for (n, secs) in [(3, 60), (4, 60), (5, 60)] {
        for by_player in [false, true] {
            if n == 5 && by_player {
                continue;
            }
            let mut pos = Hex::new(n).unwrap();
            let count = if by_player { "player" } else { "color" };
            for knowledge in [false, true] {
                eprintln!(
                    "{n}x{n} by {count}, knowledge {knowledge}: {}",
                    measure(&mut pos, knowledge, by_player, secs)
                );
            }
        }
    }
}

/// A position set up from `black` and `white` cell names, `to_move` to
/// play.
fn position(n: usize, black: &[&str], white: &[&str], to_move: Color) -> Hex {
    let mut pos = Hex::new(n).unwrap();
    for b in black {
        pos.setup(Some(Color::Black), b).unwrap();
    }
    for w in white {
        pos.setup(Some(Color::White), w).unwrap();
    }
    pos.set_to_move(to_move).unwrap();
    pos
}

fn kept_moves(pos: &mut Hex) -> Vec<String> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    pos.prune_losing(&mut moves);
    moves.iter().map(|&m| pos.format_move(m)).collect()
}

#[test]
fn template_two_on_both_sides_is_a_connection() {
    // b2 on 3x3: the second row from both of Black's edges.
    let mut pos = position(3, &["b2"], &[], Color::White);
    assert_eq!(pos.forced_winner(), Some(Color::Black));
    // Only the two templates' cells could matter; other connections
    // (through a2 or c2) leave none at all: every White move loses.
    let kept = kept_moves(&mut pos);
    assert!(
        kept.iter()
            .all(|m| ["a3", "b1", "b3", "c1"].contains(&m.as_str())),
        "{kept:?}"
    );
}

#[test]
fn ziggurat_and_template_two_make_a_connection() {
    // b3 on 4x4: a ziggurat to row 1, template II to row 4.
    let mut pos = position(4, &["b3"], &[], Color::White);
    assert_eq!(pos.forced_winner(), Some(Color::Black));
    let kept = kept_moves(&mut pos);
    assert!(!kept.contains(&"d4".to_string()), "{kept:?}");
    assert!(!kept.contains(&"a1".to_string()), "{kept:?}");
    // A White stone inside the ziggurat still leaves Black a
    // semi-connection: Black to move wins.
    let mut pos = position(4, &["b3"], &["c2"], Color::Black);
    assert_eq!(pos.forced_winner(), Some(Color::Black));
}

#[test]
fn a_pending_swap_hides_the_other_colours_connection() {
    let mut pos = Hex::new(5).unwrap();
    let mv = pos.parse_move("c3").unwrap();
    pos.play(mv);
    // White to move, swap available: Black's connection is no win for the
    // player holding Black now (White would take it over).
    assert_eq!(pos.forced_winner(), None);
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    pos.prune_losing(&mut moves);
    assert!(moves.contains(&HexMove::Swap), "swap is kept");
    // Without the swap (a null move hands Black the turn) it is a win.
    pos.play_null();
    assert_eq!(pos.forced_winner(), Some(Color::Black));
}
