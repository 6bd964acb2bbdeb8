//! Hex's connection knowledge (`src/games/hex/vc.rs`) and inferior-cell
//! analysis (`src/games/hex/inferior.rs`) against brute force: on
//! thousands of random positions of 3×3, 4×4 and 5×5 (near the end), an
//! exact minimax written here checks that every `forced_winner` claim is
//! true, that every move `prune_losing` removes loses for the mover, that
//! the fill-in, each dead cell (either colour) and each captured set keep
//! the value, and that `prune_inferior` and the dominated cells keep a
//! winning move of a won position; and the solver with the knowledge
//! agrees with plain df-pn.
//!
//! Values are by colour (swap, when legal, is a move after which White
//! moves again). Run with `cargo test --release --test it hex_vc::`; the
//! larger runs are `#[ignore]`d (`-- --ignored`).

use std::collections::HashMap;

use crosscut::game::{Color, Game, Notation, Outcome};
use crosscut::games::hex::geometry::Bits;
use crosscut::games::hex::{Hex, HexMove, TwoDistance, inferior, symmetry, templates, vc};
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
    /// Results proven from the player's connections (with captured sets).
    play_claims: usize,
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
        // The player's connections (`vc::proven_result` and
        // `vc::prune_by_knowledge`, with captured sets): a proven result
        // is right, and a side that wins keeps a winning move.
        if let Some((wins, _)) = vc::proven_result(pos) {
            t.play_claims += 1;
            assert_eq!(
                wins,
                value == me,
                "proven_result claims a {}, {me:?} to move:\n{}",
                if wins { "win" } else { "loss" },
                pos.showboard()
            );
        }
        let mut left = moves.clone();
        vc::prune_by_knowledge(pos, &mut left);
        assert_eq!(pos.hash(), hash, "prune_by_knowledge leaves the position");
        if value == me {
            let wins = left.iter().any(|&mv| {
                pos.play(mv);
                let w = winner(pos, memo);
                pos.undo();
                w == me
            });
            assert!(
                wins,
                "prune_by_knowledge keeps no winning move:\n{}",
                pos.showboard()
            );
        }
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
        let colour = colour_drawn(rng.random(), p);
        pos.setup(colour, &geo.cell_name(c as u16)).unwrap();
    }
    with_random_side(pos, rng)
}

/// Black when `r` (in 0..1) is below `p`, else White when below `2p`, else
/// empty.
fn colour_drawn(r: f64, p: f64) -> Option<Color> {
    if r < p {
        Some(Color::Black)
    } else if r < 2.0 * p {
        Some(Color::White)
    } else {
        None
    }
}

/// `pos` with a random side to move, unless the game is over.
fn with_random_side(mut pos: Hex, rng: &mut SmallRng) -> Option<Hex> {
    let side = if rng.random_range(0..2) == 0 {
        Color::Black
    } else {
        Color::White
    };
    pos.set_to_move(side).unwrap();
    pos.outcome().is_none().then_some(pos)
}

/// Checks `count` positions from `make` with `checker`; returns its
/// tally.
fn check_with<T: Default>(
    count: usize,
    seed: u64,
    mut make: impl FnMut(&mut SmallRng) -> Option<Hex>,
    checker: fn(&mut Hex, &mut HashMap<u64, Color>, &mut T),
) -> T {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut memo = HashMap::new();
    let mut t = T::default();
    let mut made = 0;
    while made < count {
        if let Some(mut pos) = make(&mut rng) {
            made += 1;
            checker(&mut pos, &mut memo, &mut t);
        }
    }
    t
}

/// Checks the connection knowledge on `count` positions from `make`.
fn check_many(count: usize, seed: u64, make: impl FnMut(&mut SmallRng) -> Option<Hex>) -> Tally {
    check_with(count, seed, make, check)
}

#[test]
fn knowledge_is_sound_on_3x3() {
    let t = check_many(1500, 1, |rng| {
        let k = rng.random_range(0..9);
        played(3, k, rng)
    });
    let u = check_many(1500, 2, |rng| set_up(3, 0.3, rng));
    eprintln!("3x3 played: {t:?}\n3x3 set up: {u:?}");
    assert!(t.claims > 100 && t.removed > 100 && u.claims > 100 && t.play_claims > 100);
}

#[test]
fn knowledge_is_sound_on_4x4() {
    let t = check_many(1000, 3, |rng| {
        let k = rng.random_range(5..16);
        played(4, k, rng)
    });
    let u = check_many(1000, 4, |rng| set_up(4, 0.33, rng));
    eprintln!("4x4 played: {t:?}\n4x4 set up: {u:?}");
    assert!(t.claims > 100 && t.removed > 100 && u.claims > 100 && t.play_claims > 100);
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
    assert!(t.claims > 100 && t.removed > 100 && u.claims > 50 && t.play_claims > 100);
}

/// The carriers past the first 64 cells (boards up to 11×11 since the
/// searcher uses the connections): 9×9 and 11×11 positions near the end
/// (a set-up board with at most 12 empty cells, so brute force is quick).
#[test]
fn knowledge_is_sound_on_9x9_to_13x13_near_the_end() {
    // 12×12 and 13×13 take the widest carriers (192 bits).
    for (n, seed) in [(9, 21), (11, 22), (12, 23), (13, 24)] {
        let t = check_many(150, seed, |rng| set_up_near_end(n, 12, rng));
        eprintln!("{n}x{n} set up: {t:?}");
        assert!(
            t.claims > 20 && t.removed > 20 && t.play_claims > 20,
            "{t:?}"
        );
    }
}

/// The knowledge along random games, each position asked about right
/// after its parent: the connection searches are then updated from the
/// parent's (stones added, carriers shrunk or destroyed, groups merged)
/// rather than built from scratch, and the fill-in is the parent's plus
/// what follows. Every claim is checked by brute force as above, from
/// `start` (a set-up position) to the end of the game.
fn check_along_games(
    games: usize,
    seed: u64,
    mut start: impl FnMut(&mut SmallRng) -> Option<Hex>,
    max_empty: usize,
) -> (Tally, u64, u64) {
    use crosscut::games::hex::vc::search_counts;
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut memo = HashMap::new();
    let mut t = Tally::default();
    let before = search_counts();
    let mut played_games = 0;
    while played_games < games {
        let Some(mut pos) = start(&mut rng) else {
            continue;
        };
        played_games += 1;
        let mut moves = Vec::new();
        while pos.outcome().is_none() {
            if empties(&pos) <= max_empty {
                check(&mut pos, &mut memo, &mut t);
            }
            moves.clear();
            pos.legal_moves(&mut moves);
            moves.retain(|&m| m != HexMove::Swap);
            // Mostly a move the knowledge keeps (the solver's and the
            // searcher's paths, which never play into the fill-in), sometimes
            // any move.
            let mut kept = moves.clone();
            if rng.random_range(0..4) > 0 && pos.forced_winner().is_none() {
                pos.prune_losing(&mut kept);
                if !kept.is_empty() {
                    pos.prune_inferior(&mut kept);
                }
            }
            let from = if kept.is_empty() { &moves } else { &kept };
            let mv = from[rng.random_range(0..from.len())];
            pos.play(mv);
        }
    }
    let after = search_counts();
    (
        t,
        after.updated - before.updated,
        after.built - before.built,
    )
}

#[test]
fn knowledge_is_sound_along_played_games() {
    let (t, updated, built) =
        check_along_games(60, 31, |rng| played(5, rng.random_range(2..8), rng), 14);
    eprintln!("5x5 along games: {t:?}, searches {updated} updated, {built} built");
    assert!(t.claims > 100 && t.removed > 100, "{t:?}");
    // A move into the fill-in (near the end, where it covers the board,
    // most moves are) changes a filled cell's colour, and one onto the
    // carrier of a permanently inferior cell takes that cell out of the
    // fill-in: that position starts from an older search or from scratch
    // (1,157 updated and 1,008 built before the permanently inferior
    // cells; 1,082 and 1,084 with them).
    assert!(
        updated > 500 && updated * 5 > built * 4,
        "the searches are mostly updated from their parents: {updated} updated, {built} built"
    );
    for (n, seed) in [(7, 32), (9, 33), (11, 34), (13, 35)] {
        let (t, updated, built) =
            check_along_games(12, seed, |rng| set_up_near_end(n, 22, rng), 12);
        eprintln!("{n}x{n} along games: {t:?}, searches {updated} updated, {built} built");
        assert!(
            t.claims > 10 && updated >= 10,
            "{t:?}, {updated} updated, {built} built"
        );
    }
}

/// An `n`×`n` position with at most `max_empty` empty cells: random
/// stones, Black and White as many as can be, then the side to move; the
/// game not over.
fn set_up_near_end(n: usize, max_empty: usize, rng: &mut SmallRng) -> Option<Hex> {
    let mut pos = Hex::new(n).unwrap();
    let geo = pos.geometry().clone();
    let cells = n * n;
    let mut order: Vec<usize> = (0..cells).collect();
    for i in (1..cells).rev() {
        order.swap(i, rng.random_range(0..=i));
    }
    let empty = rng.random_range(4..=max_empty);
    for (k, &c) in order[empty..].iter().enumerate() {
        let colour = if k % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        pos.setup(Some(colour), &geo.cell_name(c as u16)).unwrap();
    }
    with_random_side(pos, rng)
}

/// Hex's evaluation with the connections asked at every node with 2 or
/// more plies left (the default asks them at the root only), so that the
/// searcher's proven results come from them.
struct KnowingFrom2;

impl crosscut::search::Evaluator<Hex> for KnowingFrom2 {
    fn name(&self) -> &'static str {
        "knowing_from_2"
    }
    fn tuning(&self) -> crosscut::search::Tuning {
        crosscut::search::Tuning {
            knowledge_depth: Some(2),
            ..crosscut::games::hex::eval::TUNING
        }
    }
    fn evaluate(&self, pos: &Hex) -> crosscut::search::Score {
        crosscut::games::hex::eval::evaluate_two_distance(pos)
    }
    fn candidate_moves(&self, pos: &Hex, out: &mut Vec<HexMove>) {
        TwoDistance.candidate_moves(pos, out)
    }
    fn proven_result(&self, pos: &Hex) -> Option<(bool, u32)> {
        TwoDistance.proven_result(pos)
    }
    fn prune_by_knowledge(&self, pos: &Hex, moves: &mut Vec<HexMove>) {
        TwoDistance.prune_by_knowledge(pos, moves)
    }
}

/// The searcher asks the same knowledge at its nodes (the root and nodes
/// with enough plies left): every proven score it reports on random 4×4
/// and 5×5 positions has the sign brute force gives, and the move of a
/// proven win wins.
#[test]
fn searcher_knowledge_agrees_with_brute_force() {
    searcher_agrees_with_brute_force(&KnowingFrom2, 31, 6, 120);
}

/// The same with the resistance over the virtual connections
/// (`vc_resistance`), whose evaluation, candidate moves and proven results
/// all come from the connections at every node: its proven scores have
/// brute force's sign and its proven wins' moves win.
#[test]
fn vc_resistance_agrees_with_brute_force() {
    searcher_agrees_with_brute_force(&crosscut::games::hex::VcResistance, 37, 4, 50);
}

/// The knowledge-guided MCTS (`param player knowledge_mcts`) with
/// `vc_resistance` on random 4×4 and 5×5 positions: every proven score it
/// reports has brute force's sign, and the move of a proven win wins.
#[test]
fn knowledge_mcts_agrees_with_brute_force() {
    use crosscut::search::{SearchLimits, puct};
    let limits = SearchLimits::new(4, None);
    player_agrees_with_brute_force(41, 60, 15, |pos| {
        puct::search(
            pos,
            &crosscut::games::hex::VcResistance,
            &limits,
            1,
            &mut |_, _| {},
        )
        .expect("a move")
    });
}

/// Searches `count` random 4×4 and 5×5 positions `depth` plies deep with
/// `eval` and checks every proven score and proven win's move with brute
/// force (more than a quarter of them must be proven).
fn searcher_agrees_with_brute_force(
    eval: &impl crosscut::search::Evaluator<Hex>,
    seed: u64,
    depth: u32,
    count: usize,
) {
    use crosscut::search::SearchLimits;
    use crosscut::search::alphabeta::AlphaBeta;
    let limits = SearchLimits::new(depth, None);
    player_agrees_with_brute_force(seed, count, count / 4, |pos| {
        AlphaBeta::new(4)
            .search(pos, eval, &limits, &mut |_, _| {})
            .expect("a move")
    });
}

/// Asks `search` for a move on `count` random 4×4 and 5×5 positions and
/// checks every proven score and proven win's move with brute force; more
/// than `least` of them must be proven.
fn player_agrees_with_brute_force(
    seed: u64,
    count: usize,
    least: usize,
    mut search: impl FnMut(&mut Hex) -> crosscut::search::SearchResult<HexMove>,
) {
    use crosscut::search::alphabeta::is_mate;
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut memo = HashMap::new();
    let (mut proven, mut searched) = (0, 0);
    while searched < count {
        let pos = if searched % 2 == 0 {
            let k = rng.random_range(4..12);
            played(4, k, &mut rng)
        } else {
            let k = rng.random_range(8..16);
            played(5, k, &mut rng)
        };
        let Some(mut pos) = pos else { continue };
        searched += 1;
        let r = search(&mut pos);
        let me = pos.to_move();
        let value = winner(&mut pos, &mut memo);
        if is_mate(r.score) {
            proven += 1;
            assert_eq!(
                r.score > 0,
                value == me,
                "score {}:\n{}",
                r.score,
                pos.showboard()
            );
        }
        if is_mate(r.score) && r.score > 0 {
            pos.play(r.best);
            let after = winner(&mut pos, &mut memo);
            pos.undo();
            assert_eq!(
                after,
                me,
                "{} throws the win away:\n{}",
                pos.format_move(r.best),
                pos.showboard()
            );
        }
    }
    assert!(proven > least, "{proven} proven of {searched}");
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
    let mut pos = Hex::new(14).unwrap();
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

/// The larger runs of a checker: 3×3 and 4×4 from every stage, 4×4 and
/// 5×5 set up, 5×5 near the end; seeds from `seed`.
fn check_larger<T: Default + std::fmt::Debug>(
    seed: u64,
    checker: fn(&mut Hex, &mut HashMap<u64, Color>, &mut T),
) {
    let t = check_with(
        20_000,
        seed,
        |rng| {
            let k = rng.random_range(0..9);
            played(3, k, rng)
        },
        checker,
    );
    eprintln!("3x3: {t:?}");
    let t = check_with(
        20_000,
        seed + 1,
        |rng| {
            let k = rng.random_range(0..16);
            played(4, k, rng)
        },
        checker,
    );
    eprintln!("4x4: {t:?}");
    let t = check_with(20_000, seed + 2, |rng| set_up(4, 0.25, rng), checker);
    eprintln!("4x4 set up: {t:?}");
    let t = check_with(
        5_000,
        seed + 3,
        |rng| {
            let k = rng.random_range(11..25);
            played(5, k, rng)
        },
        checker,
    );
    eprintln!("5x5: {t:?}");
    let t = check_with(
        3_000,
        seed + 4,
        |rng| set_up(5, 0.25, rng).filter(|p| empties(p) <= 14),
        checker,
    );
    eprintln!("5x5 set up: {t:?}");
}

#[test]
#[ignore = "minutes: more and emptier positions"]
fn knowledge_is_sound_on_many_positions() {
    check_larger(11, check);
    let c = compare_solvers(1000, 15, |rng| {
        let k = rng.random_range(3..16);
        played(4, k, rng)
    });
    eprintln!("solver compared on {c} 4x4 positions");
}

#[test]
#[ignore = "timing, prints only"]
fn knowledge_timing() {
    for n in [5, 6, 7, 8, 9, 11, 13] {
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
        // Along games: each position right after its parent, so the
        // connections are updated rather than built (the searcher's and
        // the solver's case).
        use crosscut::games::hex::vc::search_counts;
        let before = search_counts();
        let start = std::time::Instant::now();
        let mut asked = 0;
        for _ in 0..10 {
            let mut pos = Hex::new(n).unwrap();
            let mut moves = Vec::new();
            while pos.outcome().is_none() {
                asked += 1;
                let _ = pos.forced_winner();
                moves.clear();
                pos.legal_moves(&mut moves);
                let mut kept = moves.clone();
                pos.prune_losing(&mut kept);
                let from = if kept.is_empty() { &moves } else { &kept };
                let mv = from[rng.random_range(0..from.len())];
                pos.play(mv);
            }
        }
        let after = search_counts();
        eprintln!(
            "{n}x{n} along 10 games: {asked} positions, {:.3} ms each ({} searches updated, {} built)",
            start.elapsed().as_secs_f64() * 1000.0 / asked as f64,
            after.updated - before.updated,
            after.built - before.built
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

fn has(b: &Bits, c: usize) -> bool {
    b[c / 64] & (1 << (c % 64)) != 0
}

fn count(b: &Bits) -> usize {
    b.iter().map(|w| w.count_ones() as usize).sum()
}

/// `pos` set up again (same stones, same side to move, no history) with
/// the cells of `add[0]` Black and of `add[1]` White.
fn with_stones(pos: &Hex, add: [&Bits; 2]) -> Hex {
    let n = pos.size();
    let geo = pos.geometry().clone();
    let mut out = Hex::new(n).unwrap();
    for c in 0..n * n {
        let colour = if has(add[0], c) {
            Some(Color::Black)
        } else if has(add[1], c) {
            Some(Color::White)
        } else {
            pos.at(c as u16)
        };
        if colour.is_some() {
            out.setup(colour, &geo.cell_name(c as u16)).unwrap();
        }
    }
    out.set_to_move(pos.to_move()).unwrap();
    out
}

/// What the inferior-cell checks saw.
#[derive(Default, Debug)]
struct InferiorTally {
    positions: usize,
    won: usize,
    filled_positions: usize,
    filled_cells: usize,
    decomposed: usize,
    dead: usize,
    captured: usize,
    permanently_inferior: usize,
    acute_corners: usize,
    dominated: usize,
    vulnerable: usize,
    inferior_removed: usize,
}

/// `cells` as [`with_stones`] takes them for `colour` (`empty` for the
/// other).
fn for_colour<'a>(colour: Color, cells: &'a Bits, empty: &'a Bits) -> [&'a Bits; 2] {
    if colour == Color::Black {
        [cells, empty]
    } else {
        [empty, cells]
    }
}

/// Asserts that `pos` with the stones `add` placed has the value of `pos`
/// for either side to move; `what` names the stones in the message.
fn same_value_either_side(pos: &Hex, add: [&Bits; 2], memo: &mut HashMap<u64, Color>, what: &str) {
    let f = with_stones(pos, add);
    for flip in [false, true] {
        let (mut p, mut q) = (pos.clone(), f.clone());
        if flip {
            p.play_null();
            q.play_null();
        }
        assert_eq!(
            winner(&mut q, memo),
            winner(&mut p, memo),
            "{what} changes the value:\n{}",
            p.showboard()
        );
    }
}

/// Checks the inferior-cell analysis on `pos` (not over), with each side
/// to move.
fn check_inferior(pos: &mut Hex, memo: &mut HashMap<u64, Color>, t: &mut InferiorTally) {
    let empty = [0u64; 6];
    let value = winner(pos, memo);
    // (a) the fill-in keeps the value (for either side to move: the flip
    // below checks the other).
    let fill = inferior::fill_in(pos);
    assert_eq!(count(&fill[0]) + count(&fill[1]), {
        let both: Bits = std::array::from_fn(|k| fill[0][k] | fill[1][k]);
        count(&both)
    });
    if fill.iter().any(|f| f.iter().any(|&w| w != 0)) {
        t.filled_positions += 1;
        t.filled_cells += count(&fill[0]) + count(&fill[1]);
        let mut f = with_stones(pos, [&fill[0], &fill[1]]);
        assert_eq!(
            winner(&mut f, memo),
            value,
            "fill-in changes the value:\n{}\nfilled:\n{}",
            pos.showboard(),
            f.showboard()
        );
    }
    // (a′) so do the decompositions placed after it.
    let decomposed = vc::decomposed_fill_in(pos);
    if count(&decomposed[0]) + count(&decomposed[1]) > count(&fill[0]) + count(&fill[1]) {
        t.decomposed += 1;
        let mut f = with_stones(pos, [&decomposed[0], &decomposed[1]]);
        assert_eq!(
            winner(&mut f, memo),
            value,
            "a decomposition changes the value:\n{}\nfilled:\n{}",
            pos.showboard(),
            f.showboard()
        );
    }
    // (b) a dead cell may take either colour.
    let dead = inferior::dead_cells(pos);
    let ring = inferior::ring_dead_cells(pos);
    assert!(
        (0..6).all(|k| ring[k] & !dead[k] == 0),
        "ring-dead not dead"
    );
    for c in (0..pos.geometry().num_cells).filter(|&c| has(&dead, c)) {
        assert_eq!(pos.at(c as u16), None, "a dead cell is empty");
        t.dead += 1;
        let mut one = empty;
        one[c / 64] |= 1 << (c % 64);
        for add in [[&one, &empty], [&empty, &one]] {
            let mut f = with_stones(pos, add);
            assert_eq!(
                winner(&mut f, memo),
                value,
                "dead {} is not:\n{}",
                pos.geometry().cell_name(c as u16),
                pos.showboard()
            );
        }
    }
    // Captured cells filled with their capturer.
    for colour in Color::ALL {
        let cap = inferior::captured_cells(pos, colour);
        if count(&cap) > 0 {
            t.captured += count(&cap);
            let add = for_colour(colour, &cap, &empty);
            let mut f = with_stones(pos, add);
            assert_eq!(
                winner(&mut f, memo),
                value,
                "{colour:?}'s captured cells are not:\n{}",
                pos.showboard()
            );
        }
    }
    // Permanently inferior cells, each filled alone with its colour, for
    // either side to move.
    for colour in Color::ALL {
        let pinf = inferior::permanently_inferior_cells(pos, colour);
        for c in (0..pos.geometry().num_cells).filter(|&c| has(&pinf, c)) {
            t.permanently_inferior += 1;
            let mut one = empty;
            one[c / 64] |= 1 << (c % 64);
            let what = format!(
                "{colour:?}'s permanently inferior {}",
                pos.geometry().cell_name(c as u16)
            );
            same_value_either_side(pos, for_colour(colour, &one, &empty), memo, &what);
        }
    }
    // Each acute corner's fill (pattern A, both colours at once), for
    // either side to move.
    for fill in inferior::acute_corner_cells(pos) {
        t.acute_corners += 1;
        same_value_either_side(pos, [&fill[0], &fill[1]], memo, "an acute corner's fill");
    }
    for flip in [false, true] {
        if flip {
            pos.play_null();
        }
        t.positions += 1;
        let me = pos.to_move();
        let value = winner(pos, memo);
        let won = value == me;
        t.won += won as usize;
        let wins = |pos: &mut Hex, memo: &mut HashMap<u64, Color>, mv: HexMove| {
            pos.play(mv);
            let w = winner(pos, memo);
            pos.undo();
            w == me
        };
        // (c) the dominated cells of the filled position, and the filled
        // cells, never hold every winning move.
        let dominated = inferior::dominated(pos, &fill, me);
        t.dominated += count(&dominated);
        let free = pos.empty_bits();
        let open: Vec<usize> = (0..pos.geometry().num_cells)
            .filter(|&c| has(&free, c) && !has(&fill[0], c) && !has(&fill[1], c))
            .collect();
        let kept: Vec<HexMove> = open
            .iter()
            .filter(|&&c| !has(&dominated, c))
            .map(|&c| HexMove::Place(c as u16))
            .collect();
        // A fill-in that covers the board is not used for pruning.
        if won && !open.is_empty() {
            assert!(
                kept.iter().any(|&mv| wins(pos, memo, mv)),
                "every winning move of {me:?} is filled or dominated:\n{}",
                pos.showboard()
            );
        }
        // (d) the vulnerable moves among those left keep a winning one.
        let mut left = [0u64; 6];
        for &mv in &kept {
            if let HexMove::Place(c) = mv {
                left[c as usize / 64] |= 1 << (c % 64);
            }
        }
        let vulnerable = inferior::vulnerable(pos, &fill, me, &left, &dominated);
        t.vulnerable += count(&vulnerable);
        if won && !open.is_empty() {
            assert!(
                kept.iter().any(|&mv| match mv {
                    HexMove::Place(c) => !has(&vulnerable, c as usize) && wins(pos, memo, mv),
                    HexMove::Swap => false,
                }),
                "every winning move of {me:?} is filled, dominated or vulnerable:\n{}",
                pos.showboard()
            );
        }
        // The solver's pruning, both steps.
        let hash = pos.hash();
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let all = moves.len();
        pos.prune_losing(&mut moves);
        if !moves.is_empty() {
            pos.prune_inferior(&mut moves);
        }
        assert_eq!(pos.hash(), hash, "pruning leaves the position");
        t.inferior_removed += all - moves.len();
        if won {
            assert!(
                moves.iter().any(|&mv| wins(pos, memo, mv)),
                "the solver's pruning drops every winning move of {me:?}:\n{}",
                pos.showboard()
            );
        }
        if flip {
            pos.undo();
        }
    }
}

/// Checks the inferior cells of `count` positions from `make`.
fn check_inferior_many(
    count: usize,
    seed: u64,
    make: impl FnMut(&mut SmallRng) -> Option<Hex>,
) -> InferiorTally {
    check_with(count, seed, make, check_inferior)
}

#[test]
fn inferior_cells_are_sound_on_small_boards() {
    let a = check_inferior_many(800, 21, |rng| {
        let k = rng.random_range(0..9);
        played(3, k, rng)
    });
    let b = check_inferior_many(500, 22, |rng| set_up(3, 0.3, rng));
    let c = check_inferior_many(400, 23, |rng| {
        let k = rng.random_range(6..16);
        played(4, k, rng)
    });
    let d = check_inferior_many(400, 24, |rng| set_up(4, 0.33, rng));
    let e = check_inferior_many(250, 25, |rng| {
        let k = rng.random_range(15..25);
        played(5, k, rng)
    });
    let f = check_inferior_many(150, 26, |rng| {
        set_up(5, 0.3, rng).filter(|p| empties(p) <= 11)
    });
    for (name, t) in [
        ("3x3 played", &a),
        ("3x3 set up", &b),
        ("4x4 played", &c),
        ("4x4 set up", &d),
        ("5x5 played", &e),
        ("5x5 set up", &f),
    ] {
        eprintln!("{name}: {t:?}");
    }
    // Vulnerable moves are rare on a filled position (the rest of the
    // killer's ring must already nearly isolate the cell).
    assert!(
        [&c, &d, &e, &f].iter().map(|t| t.vulnerable).sum::<usize>() > 40,
        "too few vulnerable moves to check"
    );
    assert!(
        [&c, &d, &e, &f].iter().map(|t| t.decomposed).sum::<usize>() > 40,
        "too few decompositions to check"
    );
    assert!(
        [&c, &d, &e, &f]
            .iter()
            .map(|t| t.permanently_inferior)
            .sum::<usize>()
            > 40,
        "too few permanently inferior cells to check"
    );
    for t in [&c, &d, &e, &f] {
        assert!(
            t.filled_positions > 50 && t.dead > 50 && t.won > 50,
            "{t:?}"
        );
        assert!(t.captured > 20 && t.dominated > 20, "{t:?}");
    }
}

#[test]
#[ignore = "minutes: more and emptier positions"]
fn inferior_cells_are_sound_on_many_positions() {
    check_larger(31, check_inferior);
}

/// A set-up position of an `n`×`n` board built a pair of cells at a time:
/// `pair` maps a cell to its partner, and `fill` gives the two cells'
/// contents (called with a random number in 0..1).
fn paired_set_up(
    n: usize,
    rng: &mut SmallRng,
    pair: impl Fn(usize) -> usize,
    mut fill: impl FnMut(f64) -> [Option<Color>; 2],
) -> Hex {
    let mut pos = Hex::new(n).unwrap();
    let geo = pos.geometry().clone();
    for c in 0..n * n {
        let d = pair(c);
        if d < c {
            continue;
        }
        let [a, b] = fill(rng.random());
        if d == c {
            // A cell its own partner takes a colour only if both agree.
            if a == b && a.is_some() {
                pos.setup(a, &geo.cell_name(c as u16)).unwrap();
            }
            continue;
        }
        for (cell, colour) in [(c, a), (d, b)] {
            if colour.is_some() {
                pos.setup(colour, &geo.cell_name(cell as u16)).unwrap();
            }
        }
    }
    pos
}

/// A position the half-turn maps to itself (each cell and its twin empty
/// or of one colour), a random side to move.
fn half_turn_set_up(n: usize, p: f64, rng: &mut SmallRng) -> Option<Hex> {
    let pos = paired_set_up(n, rng, |c| n * n - 1 - c, |r| [colour_drawn(r, p); 2]);
    with_random_side(pos, rng)
}

/// A position that a colour-exchanging reflection (`(x, y) → (y, x)`, or
/// `(n−1−y, n−1−x)` when `second`) maps to itself but for one White stone
/// taken away: White to move, one stone behind.
fn nearly_mirrored_set_up(n: usize, p: f64, second: bool, rng: &mut SmallRng) -> Option<Hex> {
    let reflect = move |c: usize| {
        let (x, y) = (c % n, c / n);
        if second {
            (n - 1 - x) * n + (n - 1 - y)
        } else {
            x * n + y
        }
    };
    let mut flip = SmallRng::seed_from_u64(rng.random());
    let mut pos = paired_set_up(n, rng, reflect, |r| {
        if r >= p {
            [None, None]
        } else if flip.random_range(0..2) == 0 {
            [Some(Color::Black), Some(Color::White)]
        } else {
            [Some(Color::White), Some(Color::Black)]
        }
    });
    let white: Vec<usize> = (0..n * n)
        .filter(|&c| pos.at(c as u16) == Some(Color::White))
        .collect();
    if white.is_empty() {
        return None;
    }
    let gone = white[rng.random_range(0..white.len())];
    let name = pos.geometry().cell_name(gone as u16);
    pos.setup(None, &name).unwrap();
    pos.set_to_move(Color::White).unwrap();
    pos.outcome().is_none().then_some(pos)
}

/// What the symmetry checks saw.
#[derive(Default, Debug)]
struct SymmetryTally {
    half_turns: usize,
    twins: usize,
    losses: usize,
    inferior: InferiorTally,
}

/// Checks [`symmetry`] on `pos`: twins of a position that is its own
/// half-turn have equal values, strategy-stealing losses lose, and the
/// solver's whole pruning keeps a winning move (as [`check_inferior`]).
fn check_symmetry(pos: &mut Hex, memo: &mut HashMap<u64, Color>, t: &mut SymmetryTally) {
    let me = pos.to_move();
    let n = pos.size();
    let value_after = |pos: &mut Hex, memo: &mut HashMap<u64, Color>, c: usize| {
        pos.play(HexMove::Place(c as u16));
        let w = winner(pos, memo);
        pos.undo();
        w
    };
    if symmetry::is_own_half_turn(pos) {
        t.half_turns += 1;
        let empty: Vec<usize> = (0..n * n).filter(|&c| pos.at(c as u16).is_none()).collect();
        for c in empty {
            let twin = n * n - 1 - c;
            if twin > c {
                t.twins += 1;
                assert_eq!(
                    value_after(pos, memo, c),
                    value_after(pos, memo, twin),
                    "twins differ:\n{}",
                    pos.showboard()
                );
            }
        }
    }
    for c in symmetry::strategy_stealing_losses(pos) {
        t.losses += 1;
        assert_eq!(pos.at(c as u16), None);
        assert_eq!(
            value_after(pos, memo, c),
            me.opponent(),
            "{} does not lose:\n{}",
            pos.geometry().cell_name(c as u16),
            pos.showboard()
        );
    }
    check_inferior(pos, memo, &mut t.inferior);
}

#[test]
fn symmetry_pruning_is_sound() {
    let check = |count, seed, make: fn(&mut SmallRng) -> Option<Hex>| {
        check_with(count, seed, make, check_symmetry)
    };
    let turns = [
        check(300, 41, |rng| half_turn_set_up(4, 0.2, rng)),
        check(150, 42, |rng| {
            half_turn_set_up(5, 0.3, rng).filter(|p| empties(p) <= 13)
        }),
    ];
    let mirrors = [
        check(300, 43, |rng| nearly_mirrored_set_up(4, 0.3, false, rng)),
        check(300, 44, |rng| nearly_mirrored_set_up(4, 0.3, true, rng)),
        check(150, 45, |rng| {
            nearly_mirrored_set_up(5, 0.6, false, rng).filter(|p| empties(p) <= 13)
        }),
        check(150, 46, |rng| {
            nearly_mirrored_set_up(5, 0.6, true, rng).filter(|p| empties(p) <= 13)
        }),
    ];
    for t in turns.iter().chain(&mirrors) {
        eprintln!("{t:?}");
    }
    for t in &turns {
        assert!(t.half_turns > 100 && t.twins > 300, "{t:?}");
    }
    for t in &mirrors {
        assert!(t.losses > 100 && t.inferior.won > 50, "{t:?}");
    }
}

#[test]
fn the_empty_board_is_searched_up_to_its_half_turn() {
    let mut pos = Hex::new(6).unwrap();
    pos.set_swap(false);
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    pos.prune_inferior(&mut moves);
    assert_eq!(moves.len(), 18);
    // After a stone, the reply that mirrors it across the long diagonal
    // loses: b5 answers e2.
    pos.play(HexMove::Place(pos.geometry().parse_cell("e2").unwrap()));
    assert_eq!(
        symmetry::strategy_stealing_losses(&pos),
        vec![pos.geometry().parse_cell("b5").unwrap() as usize]
    );
}

#[test]
fn edge_template_two_is_captured_and_filled() {
    // b2 on 5x5: Black captures b1 and c1 (its edge template II to row 1);
    // the fill-in fills them Black (and a1, a2 White: with a2 White, a
    // Black a1 joins nothing b1 does not, and the other way round).
    let pos = position(5, &["b2"], &[], Color::White);
    let cap = inferior::captured_cells(&pos, Color::Black);
    let g = pos.geometry();
    let names: Vec<String> = (0..25)
        .filter(|&c| has(&cap, c))
        .map(|c| g.cell_name(c as u16))
        .collect();
    assert!(
        names.contains(&"b1".to_string()) && names.contains(&"c1".to_string()),
        "{names:?}"
    );
    let fill = inferior::fill_in(&pos);
    for (c, colour) in [("b1", 0), ("c1", 0), ("a1", 1), ("a2", 1)] {
        let c = g.parse_cell(c).unwrap() as usize;
        assert!(has(&fill[colour], c), "{}", g.cell_name(c as u16));
    }
    // A corner cell walled in by three White neighbours and the edges.
    let pos = position(3, &[], &["b1", "a2"], Color::Black);
    let dead = inferior::dead_cells(&pos);
    assert!(has(&dead, 0), "a1 is dead");
}

#[test]
fn a_region_behind_a_groups_cutset_is_dead() {
    // A White ring around d4 at distance two: d4's six neighbours are
    // empty (so no ring pattern sees it), but every way in passes a cell
    // next to the ring's chain (pattern K).
    let ring = [
        "f4", "f3", "f2", "e2", "d2", "c3", "b4", "b5", "b6", "c6", "d6", "e5",
    ];
    let pos = position(7, &[], &ring, Color::Black);
    let d4 = pos.geometry().parse_cell("d4").unwrap() as usize;
    assert!(!has(&inferior::ring_dead_cells(&pos), d4));
    assert!(has(&inferior::dead_cells(&pos), d4), "d4 is dead");
}

/// The drawn edge template `name` (`templates::edge_templates`: IV-a and
/// IV-b on the fourth row, V-a on the fifth, found by taking cells out of
/// a large region while the solver still proved the connection).
fn drawn(name: &str) -> templates::EdgeTemplate {
    templates::edge_template(name)
        .expect("a drawn template")
        .clone()
}

/// Cells as (column, row) offsets from a template's cell.
type Offsets = Vec<(i32, i32)>;

/// A template's carrier and stones as offsets from its cell.
fn offsets(t: &templates::EdgeTemplate) -> (Offsets, Offsets) {
    let wide = |v: &[(i8, i8)]| v.iter().map(|&(x, y)| (x as i32, y as i32)).collect();
    (wide(&t.cells), wide(&t.stones))
}

/// The fifth-row template and its mirror image are connections, and every
/// cell of V-a is needed: what makes it sound for the H-search to place
/// them as fulls in play.
#[test]
fn the_fifth_row_template_holds_and_needs_every_cell() {
    let cell = (7, 6);
    let (a, _) = offsets(&drawn("V-a"));
    assert_eq!(a.len(), 34);
    assert!(edge_template_holds(cell, &a, &[]));
    assert!(edge_template_holds(
        cell,
        &offsets(&drawn("V-a").mirrored()).0,
        &[]
    ));
    for skip in &a {
        let less: Vec<_> = a.iter().copied().filter(|c| c != skip).collect();
        assert!(!edge_template_holds(cell, &less, &[]), "without {skip:?}");
    }
}

/// Whether Black's stone on `cell` (column, row from 0) of an 11×11 board,
/// joined to the top edge by a column of Black stones, reaches the bottom
/// edge with White to move, when only the cells at `offsets` from it are
/// empty, those at `stones` Black's, and every other cell is White's: the
/// df-pn solver decides.
fn edge_template_holds(cell: (i32, i32), offsets: &[(i32, i32)], stones: &[(i32, i32)]) -> bool {
    let n = 11;
    let mut pos = Hex::new(n as usize).unwrap();
    for y in 0..n {
        for x in 0..n {
            let name = format!("{}{}", (b'a' + x as u8) as char, y + 1);
            let at = (x - cell.0, y - cell.1);
            let color = if x == cell.0 && y <= cell.1 || stones.contains(&at) {
                Some(Color::Black)
            } else if offsets.contains(&at) {
                None
            } else {
                Some(Color::White)
            };
            if let Some(c) = color {
                pos.setup(Some(c), &name).unwrap();
            }
        }
    }
    pos.set_to_move(Color::White).unwrap();
    match solve(&mut pos, true, false) {
        SolveValue::Loss => true,
        SolveValue::Win(_) => false,
        other => panic!("{other:?}"),
    }
}

/// The fourth-row templates are connections, and every cell of IV-a is
/// needed (without any one of them White cuts). The H-search derives all
/// three from its AND and OR rules (`hsearch::tests::
/// the_rules_derive_the_fourth_row_templates`), so the solver's proof here
/// may use them: the cells outside are White's, so only these carriers
/// can be its connection, and each removal must break it.
#[test]
fn fourth_row_templates_hold_and_need_every_cell() {
    let cell = (5, 7);
    for t in [drawn("IV-a"), drawn("IV-a").mirrored(), drawn("IV-b")] {
        assert!(edge_template_holds(cell, &offsets(&t).0, &[]), "{t:?}");
    }
    let (a, _) = offsets(&drawn("IV-a"));
    for skip in &a {
        let less: Vec<_> = a.iter().copied().filter(|c| c != skip).collect();
        assert!(!edge_template_holds(cell, &less, &[]), "without {skip:?}");
    }
}

/// Every edge template play's H-search places (`templates::
/// edge_templates`), and its mirror image, is a connection: the solver
/// proves it with the template's stones Black's, its carrier empty and
/// every other cell White's (the template's cell joined to the top edge),
/// as far to the left of an 11×11 board as it fits.
#[test]
fn every_edge_template_holds() {
    for t in templates::edge_templates() {
        for t in [t.clone(), t.mirrored()] {
            let (cells, stones) = offsets(&t);
            let left = cells.iter().chain(&stones).map(|c| c.0).min().unwrap();
            let cell = (-left.min(0), 11 - t.height as i32);
            assert!(
                edge_template_holds(cell, &cells, &stones),
                "{}: {t:?}",
                t.name
            );
        }
    }
}

/// A second-row ladder of `colour` on 8×8 toward one of its edges
/// (`near`: the first row's, else the last's), from s₀ (a stone joined to
/// the colour's other edge by a line of its stones) `k` cells along the
/// row in direction `dir` to s_k (a stone): the ladder's cells empty
/// (`b`, s₁ … s_k₋₁, e₁ … e_k₋₁, `f`; see `hsearch`), every other cell the
/// opponent's (e₀ too), the opponent to move; `lose` gives one ladder
/// cell to the opponent as well. With `third`, the ladder starts from a
/// third-row stone t instead (the line of stones reaches t), s₀ and `l`
/// its second-row neighbours, and `a`, `l`, s₀ and e₀ are ladder cells
/// too. Returns the position and its cells.
fn ladder(
    colour: Color,
    near: bool,
    third: bool,
    dir: i32,
    k: i32,
    lose: Option<usize>,
) -> (Hex, Vec<(i32, i32)>) {
    let n = 8;
    let (row1, row2, row3, first) = if near {
        (0, 1, 2, 1)
    } else {
        (n - 1, n - 2, n - 3, 0)
    };
    let u0 = match (third, dir > 0) {
        (false, true) => 1,
        (false, false) => n - 2,
        (true, true) => 2,
        (true, false) => n - 3,
    };
    let between = |w: i32| (w + first, row1);
    let mut ladder = vec![between(u0.min(u0 - dir))];
    // The line of stones from the other edge ends at s₀ or at t.
    let (line, top) = if third {
        let l = u0 - dir;
        ladder.extend([
            (l, row2),
            (u0, row2),
            between(l.min(l - dir)),
            between(u0.min(u0 + dir)),
        ]);
        let t = if near {
            u0 - (dir + 1) / 2
        } else {
            u0 - (dir - 1) / 2
        };
        (t, row3)
    } else {
        (u0, row2)
    };
    for i in 1..k {
        ladder.push((u0 + i * dir, row2));
        ladder.push(between((u0 + i * dir).min(u0 + (i + 1) * dir)));
    }
    let uk = u0 + k * dir;
    ladder.push(between(uk.min(uk + dir)));
    let mut own: Vec<(i32, i32)> = (0..n)
        .filter(|&r| if near { r >= top } else { r <= top })
        .map(|r| (line, r))
        .collect();
    own.push((uk, row2));
    let empty: Vec<(i32, i32)> = ladder
        .iter()
        .enumerate()
        .filter(|&(i, _)| Some(i) != lose)
        .map(|(_, &c)| c)
        .collect();
    // (along the edge, row) to a cell name: Black's rows are rows, White's
    // are columns.
    let name = |(u, r): (i32, i32)| {
        let (x, y) = if colour == Color::Black {
            (u, r)
        } else {
            (r, u)
        };
        format!("{}{}", (b'a' + x as u8) as char, y + 1)
    };
    let mut pos = Hex::new(n as usize).unwrap();
    for u in 0..n {
        for r in 0..n {
            let c = (u, r);
            if own.contains(&c) {
                pos.setup(Some(colour), &name(c)).unwrap();
            } else if !empty.contains(&c) {
                pos.setup(Some(colour.opponent()), &name(c)).unwrap();
            }
        }
    }
    pos.set_to_move(colour.opponent()).unwrap();
    (pos, ladder)
}

/// The ladders the H-search adds in play (`hsearch`, `add_ladders`; that
/// it finds them is `hsearch`'s own test) hold, and need every cell of
/// theirs: for both colours, both edges, both directions and several
/// lengths (from the second row 2, 3 and 5, from the third row 1, 2 and
/// 4), the ladder's colour wins with the opponent to move (the solver,
/// which the ladder's far end as a stone tells the same as an empty cell
/// the colour takes), and for the two shorter lengths the opponent wins
/// once it holds any one of the ladder's cells.
#[test]
fn ladders_hold_and_need_every_cell() {
    for (third, lengths) in [(false, [2, 3, 5]), (true, [1, 2, 4])] {
        for colour in [Color::Black, Color::White] {
            for near in [false, true] {
                for dir in [1, -1] {
                    for k in lengths {
                        let (mut pos, cells) = ladder(colour, near, third, dir, k, None);
                        let case = format!(
                            "{colour:?} third {third} near {near} dir {dir} k {k}:\n{}",
                            pos.showboard()
                        );
                        assert_eq!(solve(&mut pos, true, false), SolveValue::Loss, "{case}");
                        if k == lengths[2] {
                            continue;
                        }
                        for (i, cell) in cells.iter().enumerate() {
                            let (mut less, _) = ladder(colour, near, third, dir, k, Some(i));
                            assert!(
                                matches!(solve(&mut less, true, false), SolveValue::Win(_)),
                                "without {cell:?}: {case}"
                            );
                        }
                    }
                }
            }
        }
    }
}

/// Whether `pos` has a permanently inferior cell (pattern P) of either
/// colour.
fn has_permanently_inferior(pos: &Hex) -> bool {
    Color::ALL
        .iter()
        .any(|&c| count(&inferior::permanently_inferior_cells(pos, c)) > 0)
}

/// [`check_inferior_many`] on `count` random positions of each size
/// `(n, most empty cells, seed)` (stones drawn with `density` a colour)
/// that `holds`: the tallies by size.
fn check_chosen(
    sizes: [(usize, usize, u64); 3],
    count: usize,
    density: f64,
    holds: fn(&Hex) -> bool,
) -> Vec<InferiorTally> {
    sizes
        .into_iter()
        .map(|(n, most_empty, seed)| {
            let t = check_inferior_many(count, seed, |rng| {
                set_up(n, density, rng).filter(|p| empties(p) <= most_empty && holds(p))
            });
            eprintln!("{n}x{n}: {t:?}");
            t
        })
        .collect()
}

#[test]
fn permanently_inferior_cells_are_sound() {
    // Positions chosen to hold pattern P, up to 6x6: each cell filled
    // alone keeps the value for either side to move, and so does the
    // whole fill-in (check_inferior).
    let sizes = [(4, 10, 51), (5, 12, 52), (6, 13, 53)];
    for t in check_chosen(sizes, 120, 0.34, has_permanently_inferior) {
        assert!(t.permanently_inferior >= 120, "{t:?}");
    }
}

/// The names of the cells of `b` on `pos`'s board, in cell order.
fn cell_names(pos: &Hex, b: &Bits) -> Vec<String> {
    let g = pos.geometry();
    (0..g.num_cells)
        .filter(|&c| has(b, c))
        .map(|c| g.cell_name(c as u16))
        .collect()
}

/// Whether `pos` holds pattern A (an acute corner's fill).
fn has_acute_corner(pos: &Hex) -> bool {
    !inferior::acute_corner_cells(pos).is_empty()
}

#[test]
fn acute_corner_fills_are_sound() {
    // Positions chosen to hold pattern A, 4x4 to 6x6: each corner's fill
    // keeps the value for either side to move, and so does the whole
    // fill-in (check_inferior). Stones are sparse near the corner, since
    // the pattern wants six of its cells empty.
    let sizes = [(4, 10, 61), (5, 13, 62), (6, 14, 63)];
    for t in check_chosen(sizes, 100, 0.3, has_acute_corner) {
        assert!(t.acute_corners >= 100, "{t:?}");
    }
}

#[test]
fn an_acute_corner_fill_holds_where_white_s_half_alone_does_not() {
    // 5x5, Black d3, e3 e4 d4 c5 d5 e5 empty, c4 and b5 too (they may
    // hold Black; empty they leave most room), the other cells random: the whole fill (Black c5 d5 e5, White e3 e4)
    // keeps the value for either side to move, while each half alone
    // changes it somewhere among these positions, so the check has power.
    let mut rng = SmallRng::seed_from_u64(64);
    let mut memo = HashMap::new();
    let (mut checked, mut own_half_differs, mut other_half_differs) = (0, 0, 0);
    let cells = |names: &[&str]| -> Bits {
        let g = Hex::new(5).unwrap().geometry().clone();
        let mut b = [0u64; 6];
        for name in names {
            let c = g.parse_cell(name).unwrap() as usize;
            b[c / 64] |= 1 << (c % 64);
        }
        b
    };
    let (own, other, none) = (cells(&["c5", "d5", "e5"]), cells(&["e3", "e4"]), [0u64; 6]);
    while checked < 200 {
        let Some(base) = set_up(5, 0.3, &mut rng) else {
            continue;
        };
        let mut pos = Hex::new(5).unwrap();
        pos.set_swap(false);
        let g = pos.geometry().clone();
        for c in 0..25u16 {
            let name = g.cell_name(c);
            let colour = match name.as_str() {
                "d3" => Some(Color::Black),
                "e3" | "e4" | "d4" | "c5" | "d5" | "e5" | "c4" | "b5" => None,
                _ => base.at(c),
            };
            pos.setup(colour, &name).unwrap();
        }
        if pos.outcome().is_some() || empties(&pos) > 15 || !has_acute_corner(&pos) {
            continue;
        }
        checked += 1;
        for flip in [false, true] {
            let mut p = pos.clone();
            let mut whole = with_stones(&pos, [&own, &other]);
            let mut own_half = with_stones(&pos, [&own, &none]);
            let mut other_half = with_stones(&pos, [&none, &other]);
            if flip {
                for q in [&mut p, &mut whole, &mut own_half, &mut other_half] {
                    q.play_null();
                }
            }
            let value = winner(&mut p, &mut memo);
            assert_eq!(
                winner(&mut whole, &mut memo),
                value,
                "the corner's fill changes the value:\n{}",
                p.showboard()
            );
            own_half_differs += (winner(&mut own_half, &mut memo) != value) as usize;
            other_half_differs += (winner(&mut other_half, &mut memo) != value) as usize;
        }
    }
    eprintln!(
        "{checked} positions; Black's half alone changes {own_half_differs} values, White's {other_half_differs}"
    );
    assert_eq!(own_half_differs, 0);
    assert!(other_half_differs > 0);
}

#[test]
fn acute_corners_are_filled_as_benzene_fills_them() {
    // Benzene's compute-fillin on 8x8: Black g6 alone gives Black f8 g8
    // h8 and White h6 h7; with White d7 also Black f7 g7 d8 e8 (our other
    // patterns, once the corner is filled). Black b3 (the half-turn) gives
    // Black a1 b1 c1 and White a2 a3; White f7 (the transposed pattern)
    // White h6 h7 h8 and Black f8 g8; White c2 (both) White a1 a2 a3 and
    // Black b1 c1.
    type Case<'a> = (&'a [&'a str], &'a [&'a str], &'a [&'a str], &'a [&'a str]);
    let cases: [Case; 5] = [
        (&["g6"], &[], &["f8", "g8", "h8"], &["h6", "h7"]),
        (
            &["g6"],
            &["d7"],
            &["f7", "g7", "d8", "e8", "f8", "g8", "h8"],
            &["h6", "h7"],
        ),
        (&["b3"], &[], &["a1", "b1", "c1"], &["a2", "a3"]),
        (&[], &["f7"], &["f8", "g8"], &["h6", "h7", "h8"]),
        (&["a8"], &["c2"], &["b1", "c1"], &["a1", "a2", "a3"]),
    ];
    for (black, white, fb, fw) in cases {
        let pos = position(8, black, white, Color::Black);
        let fill = inferior::fill_in(&pos);
        assert_eq!(cell_names(&pos, &fill[0]), fb, "{black:?} {white:?}");
        assert_eq!(cell_names(&pos, &fill[1]), fw, "{black:?} {white:?}");
    }
    // A White stone on f7 or e8, or any stone on g7, ends the pattern.
    for (black, white) in [
        (&["g6"][..], &["f7"][..]),
        (&["g6"], &["e8"]),
        (&["g6", "g7"], &[]),
        (&["g6"], &["g7"]),
    ] {
        let pos = position(8, black, white, Color::Black);
        assert!(!has_acute_corner(&pos), "{black:?} {white:?}");
    }
}

#[test]
fn an_acute_corner_leaves_the_inherited_fill_with_its_carrier() {
    // After Black g6 the corner is filled (Black f8 g8 h8, White h6 h7). A
    // stone on g7 (either colour) or a White one on f7 or e8 ends the
    // pattern: the child's fill-in, which starts from the parent's kept
    // one, must equal the child's own, found from scratch.
    let pos = position(8, &["g6", "a1"], &["a2"], Color::White);
    let h8 = pos.geometry().parse_cell("h8").unwrap() as usize;
    for (cell, colour) in [
        ("g7", Color::White),
        ("f7", Color::White),
        ("e8", Color::White),
        ("g7", Color::Black),
    ] {
        vc::forget_knowledge();
        assert!(has(&vc::decomposed_fill_in(&pos)[0], h8), "h8 filled");
        let mut child = pos.clone();
        if colour != child.to_move() {
            child.play_null();
        }
        child.play(HexMove::Place(pos.geometry().parse_cell(cell).unwrap()));
        let kept = vc::decomposed_fill_in(&child);
        vc::forget_knowledge();
        let fresh = vc::decomposed_fill_in(&child);
        assert_eq!(
            kept, fresh,
            "{colour:?} {cell}: the inherited fill differs from the child's own"
        );
    }
}

#[test]
fn a_permanently_inferior_cell_leaves_the_inherited_fill_with_its_carrier() {
    // After g2 on 8x8 f1 is filled Black (carrier e1, e2, f2). A White
    // stone on the carrier ends the pattern: the position after it, whose
    // fill-in starts from the parent's kept one, must not keep f1 (after
    // White e2, f1 is dead: Black's positions on its ring form one run).
    let pos = position(8, &["g2"], &[], Color::White);
    let f1 = pos.geometry().parse_cell("f1").unwrap() as usize;
    for cell in ["e1", "f2"] {
        vc::forget_knowledge();
        assert!(has(&vc::decomposed_fill_in(&pos)[0], f1), "f1 filled");
        let mut child = pos.clone();
        child.play(HexMove::Place(pos.geometry().parse_cell(cell).unwrap()));
        let fill = vc::decomposed_fill_in(&child);
        assert!(
            !has(&fill[0], f1) && !has(&fill[1], f1),
            "f1 kept after White {cell}"
        );
    }
}

#[test]
fn permanently_inferior_cell_is_filled() {
    // g2 on 8x8: Black captures g1 and h1 (edge template II); with g1
    // Black, f1 has Black's edge and g1 as three ring positions in a run,
    // e1 beside the edge and f2 beside g2 (pattern P): Black fills f1.
    let pos = position(8, &["g2"], &[], Color::White);
    let fill = inferior::fill_in(&pos);
    assert_eq!(
        cell_names(&pos, &fill[0]),
        ["f1", "g1", "h1"],
        "{:?}",
        cell_names(&pos, &fill[1])
    );
    // Once White holds f2, a cell of its carrier, f1 is no longer
    // permanently inferior (nor dead).
    let pos = position(8, &["g2"], &["f2"], Color::Black);
    let fill = inferior::fill_in(&pos);
    assert!(!has(&fill[0], 5) && !has(&fill[1], 5), "f1 stays empty");
}
