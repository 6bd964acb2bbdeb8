//! Orcoon rules at the level of the `Game` trait: perft against a naive
//! reference, make/undo and hash properties over random games, game end.

use crate::common::Rng;
use crate::common::orcoon_ref::*;
use crosscut::game::{Color, Effort, Game, Notation, Outcome, perft};
use crosscut::games::orcoon::{Orcoon, OrcoonMove};

/// Perft by the naive whole-board legality: placements, pass (which ends
/// the game) and swap (White's answer to a first placement).
fn naive_perft(
    n: usize,
    cells: &mut [u8],
    me: u8,
    depth: u32,
    ply: u32,
    first_was_place: bool,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let swap_ok = ply == 1 && me == 2 && first_was_place;
    // Pass: the game is over, so it only ends sequences of this length.
    let mut total = u64::from(depth == 1);
    if swap_ok {
        // The board is unchanged and White is still to move.
        total += naive_perft(n, cells, me, depth - 1, ply + 1, false);
    }
    for p in 0..n * n {
        if naive_legal(n, cells, p, me) {
            cells[p] = me;
            total += naive_perft(n, cells, 3 - me, depth - 1, ply + 1, ply == 0);
            cells[p] = 0;
        }
    }
    total
}

#[test]
fn perft_matches_naive_reference() {
    for (n, depth) in [(3, 4), (4, 3), (5, 3)] {
        let mut g = Orcoon::new(n).unwrap();
        let mut cells = vec![0u8; n * n];
        for d in 1..=depth {
            let got = perft(&mut g, d);
            let want = naive_perft(n, &mut cells, 1, d, 0, false);
            assert_eq!(got, want, "{n}x{n} depth {d}");
        }
    }
}

#[test]
fn perft_known_values() {
    // Recorded from the implementation after it matched the naive
    // reference above; a regression signature.
    let mut g = Orcoon::new(11).unwrap();
    assert_eq!(perft(&mut g, 1), 122);
    assert_eq!(perft(&mut g, 2), 121 * 122);
    let mut g = Orcoon::new(5).unwrap();
    assert_eq!(perft(&mut g, 3), 13_553);
}

/// Plays random games with undo checks at every step.
#[test]
fn random_games_undo_and_hash() {
    let mut rng = Rng(99);
    let mut moves = Vec::new();
    for game in 0..300 {
        let n = 3 + rng.below(9);
        let mut g = Orcoon::new(n).unwrap();
        let mut snapshots = vec![(g.cells().to_vec(), g.hash(), g.to_move(), g.outcome())];
        let mut played = 0;
        loop {
            assert_eq!(g.hash(), g.recompute_hash());
            moves.clear();
            g.legal_moves(&mut moves);
            if g.outcome().is_some() {
                assert!(moves.is_empty());
                break;
            }
            // Pass rarely, so games get long; every listed move is legal.
            let mv = loop {
                let m = moves[rng.below(moves.len())];
                if m != OrcoonMove::Pass || rng.chance(3) || moves.len() <= 2 {
                    break m;
                }
            };
            assert!(g.is_legal(mv));
            let text = g.format_move(mv);
            assert_eq!(g.parse_move(&text), Ok(mv));
            assert_eq!(g.parse_move(&text.to_lowercase()), Ok(mv));
            if rng.chance(10) {
                g.play_null();
                assert_eq!(g.hash(), g.recompute_hash());
                g.undo();
            }
            g.play(mv);
            played += 1;
            snapshots.push((g.cells().to_vec(), g.hash(), g.to_move(), g.outcome()));
            assert!(played <= 2 * n * n + 2, "game {game} does not end");
        }
        assert!(matches!(g.outcome(), Some(Outcome::Win(_))));
        // Undo all the way back, checking every position and hash.
        snapshots.pop();
        while let Some((cells, hash, to_move, outcome)) = snapshots.pop() {
            g.undo();
            assert_eq!(g.cells(), &cells[..]);
            assert_eq!(g.hash(), hash);
            assert_eq!(g.to_move(), to_move);
            assert_eq!(g.outcome(), outcome);
            assert_eq!(g.hash(), g.recompute_hash());
        }
        assert_eq!(g.moves_played(), 0);
    }
}

/// Random games with no pass until no placement is left end by a pass
/// and the adjudication agrees with whoever is joined then.
#[test]
fn random_games_end() {
    let mut rng = Rng(5);
    for _ in 0..100 {
        let n = 3 + rng.below(6);
        let mut g = Orcoon::new(n).unwrap();
        let mut count = 0;
        while g.outcome().is_none() {
            if !play_random_placement(&mut g, &mut rng) {
                g.play(OrcoonMove::Pass);
            }
            count += 1;
            assert!(count <= n * n + 1);
        }
        // The passer had no placement left; the winner is the opponent
        // exactly when the opponent can still join (brute force on small boards).
        let passer = g.to_move().opponent();
        let Some(Outcome::Win(w)) = g.outcome() else {
            panic!()
        };
        if n <= 5 {
            let mut cells = g.cells().to_vec();
            let me = passer.opponent() as u8 + 1;
            let can = brute_force(n, &mut cells, me, &mut Default::default());
            assert_eq!(w == passer.opponent(), can);
        }
    }
}

#[test]
fn swap_rules() {
    let mut g = Orcoon::new(5).unwrap();
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert!(!moves.contains(&OrcoonMove::Swap));
    let c3 = g.parse_move("C3").unwrap();
    g.play(c3);
    assert!(g.is_legal(OrcoonMove::Swap));
    let h = g.hash();
    g.play(OrcoonMove::Swap);
    assert_eq!(g.to_move(), Color::White);
    assert_ne!(g.hash(), h);
    assert!(!g.is_legal(OrcoonMove::Swap));
    assert_eq!(g.hash(), g.recompute_hash());
    g.undo();
    assert_eq!(g.hash(), h);
}

#[test]
fn play_and_undo_do_not_allocate_capacity_growth() {
    // The history keeps its capacity: play/undo in a warmed-up position
    // does not grow it.
    let mut g = Orcoon::new(11).unwrap();
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    for &m in moves.iter().take(50) {
        g.play(m);
        g.undo();
    }
    let _ = g.clone();
}

/// The bit-parallel evaluation agrees with the point-by-point reference:
/// legality of every point and the connection distance of both colours,
/// on random positions of many sizes (legal ones and arbitrary set-ups).
#[test]
fn bit_parallel_evaluation_matches_reference() {
    use crosscut::games::orcoon::eval::{
        connection_distance, connection_distance_reference, distance_and_shortest_connections,
        shortest_connection_points, shortest_connection_points_reference,
    };
    use crosscut::games::orcoon::{Distance, placements};
    use crosscut::search::{Evaluator, Score, WIN_NEXT_MOVE, loss_in, win_in};
    let mut rng = Rng(4242);
    for i in 0..400 {
        let n = [3, 4, 5, 7, 8, 11, 13, 19, 26][i % 9];
        let percent = 10 + rng.below(80) as u64;
        let cells = random_cells(&mut rng, n, percent, i % 2 == 0, i % 3 != 0);
        let g = position(n, &cells);
        let m = &g.geometry().masks;
        for color in Color::ALL {
            let (legal, _) = placements(m, g.stone_bits(color), g.stone_bits(color.opponent()));
            for p in 0..n * n {
                assert_eq!(
                    legal.has(p),
                    g.can_place(p as u16, color),
                    "{color:?} {}\n{}",
                    name(n, p),
                    g.showboard()
                );
            }
            assert_eq!(
                connection_distance(&g, color),
                connection_distance_reference(&g, color),
                "{color:?}\n{}",
                g.showboard()
            );
            let on = shortest_connection_points(&g, color);
            let want = shortest_connection_points_reference(&g, color);
            for (p, &w) in want.iter().enumerate() {
                assert_eq!(on.has(p), w, "{color:?} {}\n{}", name(n, p), g.showboard());
            }
            let (d, on) = distance_and_shortest_connections(&g, color);
            assert_eq!(d, connection_distance_reference(&g, color));
            assert_eq!(m.count(&on) as usize, want.iter().filter(|&&w| w).count());
        }
        // The score: 100 a placement of distance, 3 a point of flexibility,
        // 30 for the move; a joined side to move wins by passing, a joined
        // opponent wins by passing next, a side one placement from joining
        // joins and then passes.
        let me = g.to_move();
        let side = |c: Color| {
            let d = connection_distance_reference(&g, c) as Score;
            let f = shortest_connection_points_reference(&g, c)
                .iter()
                .filter(|&&w| w)
                .count() as Score;
            (d, f)
        };
        let ((dm, fm), (dt, ft)) = (side(me), side(me.opponent()));
        let want = if dm == 0 {
            WIN_NEXT_MOVE
        } else if dt == 0 {
            loss_in(2)
        } else if dm == 1 {
            win_in(3)
        } else {
            (dt - dm) * 100 + (fm - ft) * 3 + 30
        };
        assert_eq!(Distance.evaluate(&g), want, "\n{}", g.showboard());
    }
}

/// Inside a search the adjudication may be bounded: an undecided pass counts
/// as lost for the passer and is not remembered, so the exact decision
/// outside the search is unaffected. The bound is an explicit effort
/// passed with the move, not a mode of the position.
#[test]
fn bounded_adjudication_is_conservative_and_not_cached() {
    // A black column walls White off: if Black passes, White cannot join.
    let walled = || {
        let mut g = Orcoon::new(5).unwrap();
        for p in ["C1", "C2", "C3", "C4", "C5"] {
            g.setup(Some(Color::Black), p).unwrap();
        }
        g
    };
    assert_eq!(walled().adjudicate(Color::Black), Color::Black);
    let mut g = walled();
    assert_eq!(
        g.adjudicate_with(Color::Black, Effort::Bounded(0)),
        Color::White,
        "undecided: the passer loses"
    );
    assert!(g.solver_mut().exhausted);
    assert!(
        g.solver_mut().node_limit.is_none(),
        "the bound is for that call only"
    );
    assert_eq!(
        g.adjudicate(Color::Black),
        Color::Black,
        "exact again, nothing cached"
    );
    // A pass made by a searcher with a bound, and the same pass made exactly.
    let mut g = walled();
    g.play_with(OrcoonMove::Pass, Effort::Bounded(0));
    assert_eq!(g.outcome(), Some(Outcome::Win(Color::White)));
    g.undo();
    g.play(OrcoonMove::Pass);
    assert_eq!(g.outcome(), Some(Outcome::Win(Color::Black)));
}

/// The searcher's candidate moves: the legal placements on a shortest
/// connection of either colour (by the point-by-point reference), pass and
/// swap; every legal move when no such point exists.
#[test]
fn candidate_moves_are_the_shortest_connections() {
    use crosscut::games::orcoon::Distance;
    use crosscut::games::orcoon::eval::shortest_connection_points_reference;
    use crosscut::search::Evaluator;
    let mut rng = Rng(77);
    let (mut legal, mut cand) = (Vec::new(), Vec::new());
    let mut pruned = 0;
    for game in 0..60 {
        let n = [5, 7, 9, 11][game % 4];
        let mut g = Orcoon::new(n).unwrap();
        loop {
            legal.clear();
            g.legal_moves(&mut legal);
            if legal.is_empty() {
                break;
            }
            cand.clear();
            Distance.candidate_moves(&g, &mut cand);
            let me = g.to_move();
            let a = shortest_connection_points_reference(&g, me);
            let b = shortest_connection_points_reference(&g, me.opponent());
            let none = !a.iter().chain(&b).any(|&x| x);
            let want: Vec<OrcoonMove> = legal
                .iter()
                .copied()
                .filter(|m| match m {
                    OrcoonMove::Place(p) => none || a[*p as usize] || b[*p as usize],
                    _ => true,
                })
                .collect();
            assert_eq!(cand, want, "\n{}", g.showboard());
            assert!(cand.contains(&OrcoonMove::Pass));
            pruned += legal.len() - cand.len();
            if !play_random_placement(&mut g, &mut rng) {
                break;
            }
        }
    }
    assert!(pruned > 0, "the candidates never left anything out");
}

/// Whether the side to move wins within `plies` plies whatever the
/// opponent does (`plies` odd), by searching every legal move.
fn wins_within(g: &mut Orcoon, plies: u32) -> bool {
    let me = g.to_move();
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves.into_iter().any(|m| {
        g.play(m);
        let won = match g.outcome() {
            Some(o) => o == Outcome::Win(me),
            None => plies >= 3 && loses_within(g, plies - 1),
        };
        g.undo();
        won
    })
}

/// Whether the side to move loses within `plies` plies whatever it does
/// (`plies` even).
fn loses_within(g: &mut Orcoon, plies: u32) -> bool {
    let me = g.to_move();
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves.into_iter().all(|m| {
        g.play(m);
        let lost = match g.outcome() {
            Some(o) => o == Outcome::Win(me.opponent()),
            None => wins_within(g, plies - 1),
        };
        g.undo();
        lost
    })
}

/// The evaluation's proven scores hold by brute force over every reply:
/// `loss_in(2)` (the opponent is joined) and `win_in(3)` (one placement
/// joins), on random positions of small boards.
#[test]
fn proven_evaluations_hold_by_brute_force() {
    use crosscut::games::orcoon::Distance;
    use crosscut::search::{Evaluator, proven_plies};
    let mut rng = Rng(9);
    let (mut losses, mut wins) = (0, 0);
    for game in 0..40 {
        let n = [4, 5][game % 2];
        let mut g = Orcoon::new(n).unwrap();
        loop {
            match proven_plies(Distance.evaluate(&g)) {
                Some(-2) => {
                    losses += 1;
                    assert!(loses_within(&mut g, 2), "\n{}", g.showboard());
                }
                Some(3) => {
                    wins += 1;
                    assert!(wins_within(&mut g, 3), "\n{}", g.showboard());
                }
                _ => {}
            }
            if !play_random_placement(&mut g, &mut rng) {
                break;
            }
        }
    }
    assert!(losses > 10 && wins > 10, "{losses} {wins}");
}

/// Without the swap (`swap off`) White's second move never offers nor
/// accepts it; with it the game is unchanged (see
/// [`crate::common::check_swap_off`]).
#[test]
fn swap_off_never_offers_the_swap() {
    let on = Orcoon::new(5).unwrap();
    crate::common::check_swap_off(&on, Orcoon::set_swap, OrcoonMove::Swap, 40, 30);
}
