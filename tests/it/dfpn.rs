//! The df-pn solver's own machinery (`src/solve/dfpn.rs`), each against
//! plain df-pn or a count made by hand: a table that keeps its proofs when
//! full, the proof's size `solve` reports, and the knowledge's estimates and
//! move order (which may change the nodes searched, never a value).

use std::collections::HashSet;

use crate::common::minimax::{V, minimax, near_end, random_moves};
use crosscut::game::{Color, Game, Notation, Outcome};
use crosscut::games::hex::Hex;
use crosscut::games::onyx::{Onyx, OnyxMove, Start};
use crosscut::games::orcoon::Orcoon;
use crosscut::protocol::Gtp;
use crosscut::solve::{Proof, SolveLimits, SolveValue, Solver};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// Hex on an `n`×`n` board without the swap, after `moves` (alternating,
/// Black first).
fn hex(n: usize, moves: &[&str]) -> Hex {
    let mut g = Hex::new(n).unwrap();
    g.set_swap(false);
    for m in moves {
        let mv = Notation::parse_move(&g, m).unwrap();
        g.play(mv);
    }
    g
}

fn limits(by_player: bool, knowledge: bool) -> SolveLimits {
    SolveLimits {
        by_player,
        knowledge,
        ..SolveLimits::unlimited()
    }
}

/// The kind of a value: win, loss, draw, unknown.
fn kind<M>(v: &SolveValue<M>) -> u8 {
    match v {
        SolveValue::Win(_) => 0,
        SolveValue::Loss => 1,
        SolveValue::Draw => 2,
        SolveValue::Unknown => 3,
    }
}

/// A random position of Hex `n`×`n` (with the swap rule) after `k` random
/// moves, not over.
fn random_hex(rng: &mut SmallRng, n: usize, k: usize) -> Option<Hex> {
    let mut g = Hex::new(n).unwrap();
    let mut moves = Vec::new();
    for _ in 0..k {
        moves.clear();
        g.legal_moves(&mut moves);
        let mv = moves[rng.random_range(0..moves.len())];
        g.play(mv);
        if g.outcome().is_some() {
            return None;
        }
    }
    Some(g)
}

/// With a table of 16 entries (four buckets), far fewer than the
/// positions searched, the solver gives plain df-pn's answers with a large
/// table, by colour and by player, with and without the knowledge; and
/// with the knowledge, by colour, it still counts every proof (what the
/// table lost is proven again for the count, hundreds of times here).
#[test]
fn a_tiny_table_gives_the_same_answers_and_counts_its_proofs() {
    let mut rng = SmallRng::seed_from_u64(32);
    let mut compared = 0;
    while compared < 40 {
        let n = 3 + compared % 2;
        let k = if n == 3 {
            rng.random_range(0..5)
        } else {
            rng.random_range(7..12)
        };
        let Some(mut g) = random_hex(&mut rng, n, k) else {
            continue;
        };
        compared += 1;
        for by_player in [false, true] {
            let mut big: Solver<Hex> = Solver::new(16);
            let truth = big.solve(&mut g, &limits(by_player, false), &mut |_| {});
            for knowledge in [false, true] {
                let mut tiny: Solver<Hex> = Solver::new(16);
                tiny.set_hash_entries(16);
                let r = tiny.solve(&mut g, &limits(by_player, knowledge), &mut |_| {});
                // What the tiny table lost of the proof is proven again
                // when the proof is counted (with the knowledge by colour:
                // plain df-pn, or a swap counted by player, through 16
                // entries may need more than the count's budget).
                if knowledge
                    && !by_player
                    && matches!(r.value, SolveValue::Win(_) | SolveValue::Loss)
                {
                    assert!(
                        r.proof.is_some(),
                        "no proof counted (by player {by_player}, knowledge {knowledge}, {:?}):\n{}",
                        r.value,
                        g.showboard()
                    );
                }
                assert_eq!(
                    kind(&r.value),
                    kind(&truth.value),
                    "tiny table {:?}, large {:?} (by player {by_player}, knowledge {knowledge}):\n{}",
                    r.value,
                    truth.value,
                    g.showboard()
                );
            }
        }
    }
}

/// A full table never gives up a proof for an unproven entry: across a
/// series of solves that overflow a table of 64 entries many times over,
/// the number of proofs it holds never falls, and every answer is right.
#[test]
fn a_full_table_keeps_its_proofs() {
    let mut solver: Solver<Hex> = Solver::new(16);
    solver.set_hash_entries(64);
    let plain = limits(false, false);
    let mut start = hex(3, &[]);
    let first = solver.solve(&mut start, &plain, &mut |_| {});
    assert!(matches!(first.value, SolveValue::Win(_)));
    assert!(
        first.nodes > 64,
        "the table overflows: {} nodes",
        first.nodes
    );
    let (used, mut proofs) = solver.table_counts();
    assert!(used <= 64 && proofs > 0, "{used} used, {proofs} proofs");
    let mut rng = SmallRng::seed_from_u64(9);
    let mut solved = 0;
    while solved < 30 {
        let k = rng.random_range(1..4);
        let Some(mut g) = random_hex(&mut rng, 3, k) else {
            continue;
        };
        solved += 1;
        let r = solver.solve(&mut g, &plain, &mut |_| {});
        assert!(kind(&r.value) < 2, "{:?}", r.value);
        let (_, now) = solver.table_counts();
        assert!(now >= proofs, "proofs fell from {proofs} to {now}");
        proofs = now;
    }
    let mut g = hex(3, &[]);
    let again = solver.solve(&mut g, &plain, &mut |_| {});
    assert_eq!(kind(&again.value), 0);
}

/// The proof's size, counted by hand on 2×2 without the swap (Black joins
/// rows 1 and 2): plain df-pn proves Black's b1 (or a2) with White's three
/// replies each answered by the winning cell, 1 + 1 + 3 + 3 = 8
/// positions; with the knowledge Black's semi-connection at the start is
/// seen without search, so the proof is the root alone (the solver still
/// searches the root, to name the move).
#[test]
fn the_proof_size_is_counted_as_by_hand() {
    let mut g = hex(2, &[]);
    let mut solver: Solver<Hex> = Solver::new(1);
    let r = solver.solve(&mut g, &limits(false, false), &mut |_| {});
    assert!(matches!(r.value, SolveValue::Win(_)), "{:?}", r.value);
    assert_eq!(r.proof, Some(8));
    let mut solver: Solver<Hex> = Solver::new(1);
    let r = solver.solve(&mut g, &limits(false, true), &mut |_| {});
    assert!(matches!(r.value, SolveValue::Win(_)), "{:?}", r.value);
    assert_eq!(r.proof, Some(1));
    // A loss: White to move after Black's b1 has lost, and the proof is
    // Black's, from the position after b1: 1 + 3 + 3.
    let mut g = hex(2, &["b1"]);
    let mut solver: Solver<Hex> = Solver::new(1);
    let r = solver.solve(&mut g, &limits(false, false), &mut |_| {});
    assert_eq!(kind(&r.value), 1);
    assert_eq!(r.proof, Some(7));
}

/// On random small positions, every decided value comes with a proof
/// whose size is at least the root and at most the positions the solver
/// stored plus the won leaves, and the knowledge's proofs are smaller on
/// the whole; a draw or an unknown value has none.
#[test]
fn every_decided_solve_reports_its_proof() {
    let mut rng = SmallRng::seed_from_u64(5);
    let (mut plain_total, mut known_total, mut n) = (0, 0, 0);
    while n < 60 {
        let k = rng.random_range(4..10);
        let Some(mut g) = random_hex(&mut rng, 4, k) else {
            continue;
        };
        n += 1;
        for knowledge in [false, true] {
            let mut solver: Solver<Hex> = Solver::new(16);
            let r = solver.solve(&mut g, &limits(false, knowledge), &mut |_| {});
            let proof = r.proof.expect("a decided Hex solve has a proof");
            assert!(proof >= 1, "{proof}");
            let (used, _) = solver.table_counts();
            assert!(
                proof as usize <= 2 * used + 1,
                "{proof} against {used} entries"
            );
            if knowledge {
                known_total += proof;
            } else {
                plain_total += proof;
            }
        }
    }
    assert!(known_total < plain_total, "{known_total} vs {plain_total}");
    let mut solver: Solver<Hex> = Solver::new(1);
    let r = solver.solve(
        &mut hex(5, &[]),
        &SolveLimits {
            nodes: Some(2),
            ..limits(false, false)
        },
        &mut |_| {},
    );
    assert_eq!((kind(&r.value), r.proof), (3, None));
}

/// `solve` answers `VALUE nodes N time T proof P`, the words existing
/// readers parse first and in place.
#[test]
fn solve_answers_the_proof_size_last() {
    let mut gtp = Gtp::new();
    for l in [
        "game hex",
        "boardsize 4",
        "param verbose false",
        "param solve_by color",
    ] {
        assert!(gtp.execute(l).unwrap().starts_with('='));
    }
    let a = gtp.execute("solve").unwrap();
    let words: Vec<&str> = a.trim_start_matches("= ").split_whitespace().collect();
    // 4×4's winning openings: the short diagonal.
    assert_eq!(words[0], "win", "{a}");
    assert!(["d1", "c2", "b3", "a4"].contains(&words[1]), "{a}");
    assert_eq!(
        (words[2], words[4], words[6]),
        ("nodes", "time", "proof"),
        "{a}"
    );
    assert!(words[7].parse::<u64>().unwrap() >= 1, "{a}");
    assert_eq!(words.len(), 8, "{a}");
}

/// The knowledge's estimates, move order and progressive widening change
/// the nodes, never the value: by colour and by player on random 4×4 and
/// 5×5 positions, the solver with them agrees with the solver without
/// them (and with plain df-pn on 4×4), and its winning moves win by plain
/// df-pn.
#[test]
fn estimates_move_order_and_widening_keep_the_values() {
    let mut rng = SmallRng::seed_from_u64(77);
    let mut n = 0;
    while n < 60 {
        let size = 4 + n % 2;
        let k = if size == 4 {
            rng.random_range(6..12)
        } else {
            rng.random_range(12..20)
        };
        let Some(mut g) = random_hex(&mut rng, size, k) else {
            continue;
        };
        n += 1;
        for by_player in [false, true] {
            let value = |g: &mut Hex, estimates: bool, order: bool, knowledge: bool| {
                let mut s: Solver<Hex> = Solver::new(16);
                s.order = order;
                s.widening = order;
                let limits = SolveLimits {
                    estimates,
                    ..limits(by_player, knowledge)
                };
                s.solve(g, &limits, &mut |_| {}).value
            };
            let without = value(&mut g, false, false, true);
            let with = value(&mut g, true, true, true);
            assert_eq!(kind(&with), kind(&without), "{}", g.showboard());
            if size == 4 {
                let plain = value(&mut g, false, false, false);
                assert_eq!(kind(&with), kind(&plain), "{}", g.showboard());
            }
            if let (SolveValue::Win(mv), false) = (with, by_player) {
                let me = g.to_move();
                g.play(mv);
                let after = value(&mut g, false, false, true);
                g.undo();
                assert_eq!(kind(&after), 1, "{mv:?} does not win for {me:?}");
            }
        }
    }
}

/// Play's connections in the solver (`SolveLimits::play_knowledge`,
/// `param solve_play_knowledge`) change the nodes, never the value: by
/// colour and by player on random 4×4 to 6×6 positions the solver agrees
/// with and without them (and with plain df-pn on 4×4), and a winning
/// move it names wins by the proof's connections; on 6×6 after a3 (by
/// colour) it searches fewer nodes, so the switch reaches the knowledge.
#[test]
fn play_knowledge_keeps_the_values() {
    let mut rng = SmallRng::seed_from_u64(78);
    let mut n = 0;
    while n < 45 {
        let size = 4 + n % 3;
        let k = rng.random_range(2 * size..4 * size);
        let Some(mut g) = random_hex(&mut rng, size, k) else {
            continue;
        };
        n += 1;
        for by_player in [false, true] {
            let value = |g: &mut Hex, play: bool, knowledge: bool| {
                let mut s: Solver<Hex> = Solver::new(16);
                let limits = SolveLimits {
                    play_knowledge: play,
                    ..limits(by_player, knowledge)
                };
                s.solve(g, &limits, &mut |_| {}).value
            };
            let proof = value(&mut g, false, true);
            let play = value(&mut g, true, true);
            assert_eq!(kind(&play), kind(&proof), "{}", g.showboard());
            if size == 4 {
                let plain = value(&mut g, false, false);
                assert_eq!(kind(&play), kind(&plain), "{}", g.showboard());
            }
            if let (SolveValue::Win(mv), false) = (play, by_player) {
                let me = g.to_move();
                g.play(mv);
                let after = value(&mut g, false, true);
                g.undo();
                assert_eq!(kind(&after), 1, "{mv:?} does not win for {me:?}");
            }
        }
    }
    let mut g = Hex::new(6).unwrap();
    g.set_swap(false);
    let a3 = Notation::parse_move(&g, "a3").unwrap();
    g.play(a3);
    let mut nodes = |play: bool| {
        let mut s: Solver<Hex> = Solver::new(16);
        let limits = SolveLimits {
            play_knowledge: play,
            ..limits(false, true)
        };
        let r = s.solve(&mut g, &limits, &mut |_| {});
        assert_eq!(kind(&r.value), 1);
        r.nodes
    };
    let (proof, play) = (nodes(false), nodes(true));
    assert!(play < proof, "play {play} proof {proof}");
}

/// Onyx's move order puts a move that wins at once first.
#[test]
fn onyx_orders_a_winning_move_first() {
    use crosscut::solve::Knowledge;
    let mut g = Onyx::new(4, Start::Blank).unwrap();
    for m in ["A1", "C1", "A2", "C2", "A3", "C3"] {
        let mv = Notation::parse_move(&g, m).unwrap();
        g.play(mv);
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let last = moves.len() - 1;
    moves.swap(0, last);
    g.order_moves(&mut moves);
    g.play(moves[0]);
    assert_eq!(g.outcome(), Some(Outcome::Win(Color::Black)), "{g:?}");
}

/// A move that ends the game in the other side's win goes last: Orcoon's
/// pass on the empty board (White then joins its edges).
#[test]
fn orcoon_orders_a_losing_pass_last() {
    use crosscut::solve::Knowledge;
    let mut g = Orcoon::new(3).unwrap();
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves.rotate_right(1);
    g.order_moves(&mut moves);
    let last = *moves.last().unwrap();
    g.play(last);
    assert_eq!(g.outcome(), Some(Outcome::Win(Color::White)), "{moves:?}");
    g.undo();
    g.play(moves[0]);
    assert_eq!(g.outcome(), None);
}

/// The checks of the move-order tests on `g` (not over): by colour and by
/// player, the solver with the knowledge's move order and the widening it
/// turns on agrees with the solver without them wherever both finish
/// (and, when `plain`, with plain df-pn), and its winning moves win by the
/// solver without them. How many values were compared.
fn order_keeps_the_values<G>(g: &mut G, plain: bool) -> usize
where
    G: crosscut::solve::Knowledge + std::fmt::Debug,
{
    let mut compared = 0;
    for by_player in [false, true] {
        let value = |g: &mut G, order: bool, knowledge: bool| {
            let mut s: Solver<G> = Solver::new(16);
            s.order = order;
            s.widening = order;
            let limits = SolveLimits {
                nodes: Some(200_000),
                ..limits(by_player, knowledge)
            };
            s.solve(g, &limits, &mut |_| {}).value
        };
        let with = value(g, true, true);
        let without = value(g, false, true);
        if kind(&with) == 3 || kind(&without) == 3 {
            continue;
        }
        compared += 1;
        assert_eq!(kind(&with), kind(&without), "{g:?}");
        if plain {
            let plain = value(g, false, false);
            if kind(&plain) != 3 {
                assert_eq!(kind(&with), kind(&plain), "{g:?}");
            }
        }
        if let (SolveValue::Win(mv), false) = (with, by_player) {
            let me = g.to_move();
            g.play(mv);
            // After a swap the same colour moves again (by colour).
            let wanted = if g.to_move() == me { 0 } else { 1 };
            let after = value(g, false, true);
            g.undo();
            assert_eq!(kind(&after), wanted, "{mv:?} does not win for {me:?}");
        }
    }
    compared
}

/// A game's move order changes the nodes, never the value
/// ([`order_keeps_the_values`]): on 48 positions of the game `new` makes
/// for a size, alternately after a few random moves on a `sizes[0]` board
/// (checked against plain df-pn too) and a few moves from a random game's
/// end on a `sizes[1]` one; at least 60 values compared.
fn move_order_keeps_the_values<G>(seed: u64, sizes: [usize; 2], new: impl Fn(usize) -> G)
where
    G: crosscut::solve::Knowledge + std::fmt::Debug,
{
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut compared = 0;
    for k in 0..48 {
        let mut g = new(sizes[k % 2]);
        if k % 2 == 0 {
            let count = rng.random_range(2..9);
            random_moves(&mut g, &mut rng, count);
        } else {
            let back = rng.random_range(3..8);
            near_end(&mut g, &mut rng, back, 200);
        }
        if g.outcome().is_none() {
            compared += order_keeps_the_values(&mut g, k % 2 == 0);
        }
    }
    assert!(compared >= 60, "only {compared} compared");
}

/// Onyx's move order (by its two-distance evaluation): blank 4×4 and 6×6.
#[test]
fn onyx_move_order_and_widening_keep_the_values() {
    move_order_keeps_the_values(78, [4, 6], |n| Onyx::new(n, Start::Blank).unwrap());
}

/// Onyx keeps one move of each pair of twins on a position that is its
/// own half-turn: the values stay those of plain df-pn. The blank 4×4
/// start and 24 positions made symmetric (two random pieces and their
/// twins, each of its colour, Black to move again).
#[test]
fn onyx_twin_pruning_keeps_the_values() {
    use crosscut::games::onyx::symmetry::{half_turn, is_own_half_turn};
    let mut rng = SmallRng::seed_from_u64(2020);
    let mut start = Onyx::new(4, Start::Blank).unwrap();
    let mut compared = order_keeps_the_values(&mut start, true);
    let mut made = 0;
    while made < 24 {
        let mut g = Onyx::new(4, Start::Blank).unwrap();
        let mut moves = Vec::new();
        let mut picked = Vec::new();
        for _ in 0..2 {
            moves.clear();
            g.legal_moves(&mut moves);
            let mv = moves[rng.random_range(0..moves.len())];
            picked.push(mv);
            g.play(mv);
        }
        let twins: Vec<OnyxMove> = picked
            .iter()
            .map(|&m| match m {
                OnyxMove::Place(p) => OnyxMove::Place(half_turn(g.geometry(), p)),
                other => other,
            })
            .collect();
        if twins.iter().all(|&m| {
            g.outcome().is_none() && g.is_legal(m) && {
                g.play(m);
                true
            }
        }) && g.outcome().is_none()
            && is_own_half_turn(&g)
        {
            made += 1;
            compared += order_keeps_the_values(&mut g, true);
        }
    }
    assert!(compared >= 30, "only {compared} compared");
}

/// A node entered again is expanded from memory (Onyx's knowledge answers
/// by the position alone): the solver searches exactly the same tree, so
/// the same value, nodes and proof with the memory and without it, by
/// colour and by player, on Onyx 4×4 and 6×6 positions after a few random
/// moves (most of them decided within the node limit).
#[test]
fn onyx_expansions_from_memory_search_the_same_tree() {
    let mut rng = SmallRng::seed_from_u64(4711);
    let (mut decided, mut remembered) = (0, 0);
    for k in 0..16 {
        let six = k % 4 == 3;
        let mut g = Onyx::new(if six { 6 } else { 4 }, Start::Blank).unwrap();
        let count = if six {
            rng.random_range(10..16)
        } else {
            rng.random_range(2..8)
        };
        random_moves(&mut g, &mut rng, count);
        if g.outcome().is_some() {
            continue;
        }
        for by_player in [false, true] {
            let run = |g: &mut Onyx, remember: bool| {
                let mut hits = 0;
                let value = tree(
                    g,
                    by_player,
                    true,
                    30_000,
                    |s| s.remember = remember,
                    |s| hits = s.remembered(),
                );
                (value, hits)
            };
            let (with, hits) = run(&mut g, true);
            let (without, none) = run(&mut g, false);
            assert_eq!(with, without, "{g:?}");
            assert_eq!(none, 0);
            remembered += hits;
            if !with.0.starts_with("Unknown") {
                decided += 1;
            }
        }
    }
    assert!(decided >= 12, "only {decided} decided");
    assert!(remembered >= 1000, "only {remembered} nodes from memory");
}

/// The value, nodes and proof of a solve of `g` within `nodes` nodes, by
/// player or by colour, with or without the knowledge, by a solver that
/// `set` sets up and `after` looks at once done.
fn tree<G: crosscut::solve::Knowledge>(
    g: &mut G,
    by_player: bool,
    knowledge: bool,
    nodes: u64,
    set: impl FnOnce(&mut Solver<G>),
    after: impl FnOnce(&Solver<G>),
) -> (String, u64, Option<u64>) {
    let mut s: Solver<G> = Solver::new(16);
    set(&mut s);
    let limits = SolveLimits {
        nodes: Some(nodes),
        ..limits(by_player, knowledge)
    };
    let r = s.solve(g, &limits, &mut |_| {});
    after(&s);
    (format!("{:?}", r.value), r.nodes, r.proof)
}

/// A node's children's table entries prefetched and read after all are
/// asked for ([`Solver::prefetch`]) give the tree read one by one gives:
/// Onyx with and without its knowledge (which asks nothing of a new
/// child), by colour and by player, and plain Hex; the same value, nodes
/// and proof.
#[test]
fn prefetched_reads_search_the_same_tree() {
    fn same<G: crosscut::solve::Knowledge + std::fmt::Debug>(g: &mut G, knowledge: bool) -> bool {
        let mut decided = false;
        for by_player in [false, true] {
            let run = |g: &mut G, prefetch: bool| {
                tree(
                    g,
                    by_player,
                    knowledge,
                    20_000,
                    |s| s.prefetch = prefetch,
                    |_| {},
                )
            };
            let with = run(g, true);
            assert_eq!(with, run(g, false), "{g:?}");
            decided |= !with.0.starts_with("Unknown");
        }
        decided
    }
    let mut rng = SmallRng::seed_from_u64(4712);
    let mut decided = 0;
    for k in 0..12 {
        let six = k % 3 == 2;
        let mut g = Onyx::new(if six { 6 } else { 4 }, Start::Blank).unwrap();
        let count = rng.random_range(2..if six { 14 } else { 7 });
        random_moves(&mut g, &mut rng, count);
        if g.outcome().is_none() {
            decided += same(&mut g, k % 2 == 0) as u32;
        }
    }
    for k in 0..4 {
        let mut g = Hex::new(4).unwrap();
        random_moves(&mut g, &mut rng, k);
        if g.outcome().is_none() {
            decided += same(&mut g, false) as u32;
        }
    }
    assert!(decided >= 8, "only {decided} decided");
}

/// Orcoon's move order (by its connection distance): 3×3 (4×4 positions
/// often pass the node limit, and take long with the pass adjudication).
#[test]
fn orcoon_move_order_and_widening_keep_the_values() {
    move_order_keeps_the_values(79, [3, 3], |n| Orcoon::new(n).unwrap());
}

/// The checks of [`a_decisive_game_is_solved_by_one_search`] on `g`:
/// whether the side to move lost, `None` when minimax does not finish
/// within its budget.
fn one_search<G: crosscut::solve::Knowledge + std::fmt::Debug>(
    g: &mut G,
    lim: &SolveLimits,
) -> Option<bool> {
    assert!(G::DECISIVE);
    let mut budget = 300_000;
    let value = minimax(g, &mut HashSet::new(), &mut budget, lim.by_player)?;
    assert_ne!(value, V::Draw, "{g:?}");
    let wins = value == V::Win;
    let me = g.to_move();
    let mut one: Solver<G> = Solver::new(16);
    let first = one.prove(g, me, lim, &mut |_| {});
    let first_nodes = one.nodes();
    let mut solver: Solver<G> = Solver::new(16);
    let r = solver.solve(g, lim, &mut |_| {});
    assert_eq!(kind(&r.value), if wins { 0 } else { 1 }, "{g:?}");
    assert_eq!(first == Proof::Proven, wins, "{g:?}");
    assert_eq!(r.nodes, first_nodes, "{g:?}");
    if !wins {
        assert!(r.proof.is_some_and(|p| p >= 1), "{g:?}");
        // At most the root is expanded again (its children are all in
        // the table).
        let again = solver.prove(g, me.opponent(), lim, &mut |_| {});
        assert_eq!(again, Proof::Proven, "{g:?}");
        assert!(solver.nodes() <= 1, "{} nodes {g:?}", solver.nodes());
    }
    Some(!wins)
}

/// Hex and Orcoon have no draw (`Game::DECISIVE`): `solve` answers from
/// one search, the side to move's, whose disproof is the loss (the two
/// colours share the table's entries, so asking for the opponent
/// afterwards expands at most the root again). On random Hex 4×4
/// positions (with and without knowledge) and Orcoon 3×3 positions from
/// the start on (the swap still to come in some; by colour and by
/// player): the value is exhaustive search's, `solve` expands exactly the
/// nodes of that one search, and a loss comes with the opponent's proof.
#[test]
fn a_decisive_game_is_solved_by_one_search() {
    let mut rng = SmallRng::seed_from_u64(31);
    let (mut n, mut losses) = (0, 0);
    while n < 40 {
        let k = rng.random_range(2..8);
        let Some(mut g) = random_hex(&mut rng, 4, k) else {
            continue;
        };
        g.set_swap(false);
        for knowledge in [false, true] {
            let Some(lost) = one_search(&mut g, &limits(false, knowledge)) else {
                break;
            };
            n += usize::from(knowledge);
            losses += usize::from(lost);
        }
    }
    assert!(losses >= 20, "{losses}");
    let (mut n, mut losses) = (0, 0);
    while n < 30 {
        let mut g = Orcoon::new(3).unwrap();
        let k = rng.random_range(0..4);
        random_moves(&mut g, &mut rng, k);
        if g.outcome().is_some() {
            continue;
        }
        for by_player in [false, true] {
            let Some(lost) = one_search(&mut g, &limits(by_player, true)) else {
                break;
            };
            n += usize::from(by_player);
            losses += usize::from(lost);
        }
    }
    assert!(losses >= 10, "{losses}");
}

/// A saved table loads back whole (the same entries and proofs, the count
/// taken from the file), and a solve from it goes on where the saved one
/// stopped: on blank Onyx 4×4 by colour, a solve stopped at half its
/// nodes, saved and loaded into a fresh solver, finishes with the value
/// of the solve in one go, in fewer nodes than it. Another tag, or a file
/// of another format, is refused.
#[test]
fn a_saved_table_loads_back_and_the_solve_goes_on() {
    let g = Onyx::new(4, Start::Blank).unwrap();
    let by_colour = limits(false, true);
    let mut whole: Solver<Onyx> = Solver::new(16);
    let r = whole.solve(&mut g.clone(), &by_colour, &mut |_| {});
    assert!(matches!(r.value, SolveValue::Win(_)), "{:?}", r.value);
    let in_one_go = r.nodes;
    assert!(in_one_go > 1000, "{in_one_go}");
    let mut first: Solver<Onyx> = Solver::new(16);
    let half = SolveLimits {
        nodes: Some(in_one_go / 2),
        ..by_colour.clone()
    };
    let r = first.solve(&mut g.clone(), &half, &mut |_| {});
    assert!(matches!(r.value, SolveValue::Unknown), "{:?}", r.value);
    let mut saved = Vec::new();
    let written = first.save_table(&mut saved, "onyx 4 blank").unwrap();
    assert_eq!(written as usize, first.table_counts().0);
    let mut second: Solver<Onyx> = Solver::new(1);
    let read = second
        .load_table(&mut saved.as_slice(), "onyx 4 blank", 16)
        .unwrap();
    assert_eq!(read, written);
    assert_eq!(second.table_counts(), first.table_counts());
    let r = second.solve(&mut g.clone(), &by_colour, &mut |_| {});
    assert!(matches!(r.value, SolveValue::Win(_)), "{:?}", r.value);
    assert!(r.nodes < in_one_go, "{} against {in_one_go}", r.nodes);
    for (input, tag) in [
        (saved.as_slice(), "onyx 6 blank"),
        (&b"crosscut df-pn table 0\nby=color\nx\n"[..], "x"),
        (&b"crosscut df-pn table 1\nby=both\nx\n"[..], "x"),
        (&b""[..], "x"),
    ] {
        let mut third: Solver<Onyx> = Solver::new(1);
        let e = third.load_table(&mut &input[..], tag, 16).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidData, "{e}");
    }
}
