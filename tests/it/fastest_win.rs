//! Fastest wins: the searcher plays a win only once no faster one exists.
//!
//! The positions below were found by `scan_for_slow_wins` (ignored; run it
//! with `--ignored --nocapture`): random positions where the selective
//! search, left to itself, proves a win that is not the fastest.

use crosscut::game::{Color, Game, Notation};
use crosscut::games::hex::Hex;
use crosscut::games::onyx::{Onyx, Start};
use crosscut::search::alphabeta::AlphaBeta;
use crosscut::search::mate::fastest_win;
use crosscut::search::{Evaluator, SearchLimits, WIN_BASE};

use crate::common::Rng;

/// Win length in plies of a searcher's score, if it is a win.
fn win_plies(score: i32) -> Option<u32> {
    (score > WIN_BASE - 128).then(|| (WIN_BASE - score) as u32)
}

/// The searcher's move and its claimed win length at `depth`.
fn search<G: Game, E: Evaluator<G>>(
    game: &mut G,
    eval: &E,
    depth: u32,
    confirm: bool,
) -> (G::Move, Option<u32>) {
    let mut ab = AlphaBeta::new(16);
    ab.confirm_fastest = confirm;
    let limits = SearchLimits::new(depth, None);
    let r = ab
        .search(game, eval, &limits, &mut |_, _| {})
        .expect("a move");
    (r.best, win_plies(r.score))
}

/// Scans random positions of `make` for wins the selective search proves
/// slower than the fastest.
fn scan<G: Notation, E: Evaluator<G>>(
    name: &str,
    eval: &E,
    positions: usize,
    depth: u32,
    make: impl Fn() -> G,
    rng: &mut Rng,
) {
    for _ in 0..positions {
        let mut g = make();
        let plies = 4 + rng.below(20);
        let mut moves = Vec::new();
        let mut played = Vec::new();
        for _ in 0..plies {
            moves.clear();
            g.legal_moves(&mut moves);
            if moves.is_empty() || g.outcome().is_some() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            played.push(g.format_move(mv));
            g.play(mv);
        }
        if g.outcome().is_some() {
            continue;
        }
        let (_, claimed) = search(&mut g, eval, depth, false);
        let Some(k) = claimed else { continue };
        if k < 5 {
            continue;
        }
        let limits = SearchLimits::new(1, None);
        if let Ok(Some((mv, fastest))) = fastest_win(&mut g, k - 2, &limits, None) {
            println!(
                "{name}: search wins in {k}, fastest {fastest} with {}: {}",
                g.format_move(mv),
                played.join(" ")
            );
        }
    }
}

/// Independent check: whether the side to move wins within `plies` plies
/// (plain recursion over every move).
fn wins_within<G: Game>(g: &mut G, plies: u32) -> bool {
    let me = g.to_move();
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves.into_iter().any(|mv| {
        g.play(mv);
        let r = match g.outcome() {
            Some(o) => o == crosscut::game::Outcome::Win(me),
            None => plies >= 3 && loses_within(g, me, plies - 1),
        };
        g.undo();
        r
    })
}

/// Whether the side to move loses to `attacker` within `plies` plies.
fn loses_within<G: Game>(g: &mut G, attacker: Color, plies: u32) -> bool {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves.into_iter().all(|mv| {
        g.play(mv);
        let r = match g.outcome() {
            Some(o) => o == crosscut::game::Outcome::Win(attacker),
            None => wins_within(g, plies - 1),
        };
        g.undo();
        r
    })
}

/// Replays `moves` on `g`.
fn replay<G: Notation>(mut g: G, moves: &str) -> G {
    for m in moves.split_whitespace() {
        let mv = g.parse_move(m).expect("a move");
        assert!(g.is_legal(mv), "{m} is legal");
        g.play(mv);
    }
    g
}

/// The searcher at `depth` plays a win of `fastest` plies, which the
/// independent check confirms, and no faster win exists.
fn plays_fastest<G: Notation, E: Evaluator<G>>(mut g: G, eval: &E, depth: u32, fastest: u32) {
    assert!(!wins_within(&mut g, fastest - 2), "no faster win exists");
    assert!(
        wins_within(&mut g, fastest),
        "a win of {fastest} plies exists"
    );
    let (mv, claimed) = search(&mut g, eval, depth, true);
    assert_eq!(
        claimed,
        Some(fastest),
        "the searcher claims the fastest win"
    );
    let me = g.to_move();
    g.play(mv);
    let won = g.outcome() == Some(crosscut::game::Outcome::Win(me))
        || (fastest >= 3 && loses_within(&mut g, me, fastest - 1));
    assert!(won, "{} wins within {fastest} plies", g.format_move(mv));
}

#[test]
fn onyx_plays_a_win_in_5_not_the_win_in_7_it_saw_first() {
    let g = replay(
        Onyx::new(6, Start::Blank).unwrap(),
        "E1 A1 C5 B1 AB45 D3 A4 C4 D2 B6 D4 F4 B3 C3 C6 F6 E6",
    );
    let eval = crosscut::games::onyx::TwoDistance;
    // Left to itself, the selective search proves a slower win first.
    let (_, slow) = search(&mut g.clone(), &eval, 5, false);
    assert_eq!(slow, Some(7));
    plays_fastest(g, &eval, 5, 5);
}

/// Hex's two-distance evaluation without its connection knowledge (which
/// sees this win as it is, so the check for a faster one has nothing to
/// do): the selective search alone.
struct TwoDistanceAlone;

impl Evaluator<Hex> for TwoDistanceAlone {
    fn name(&self) -> &'static str {
        "two_distance_alone"
    }
    fn tuning(&self) -> crosscut::search::Tuning {
        crosscut::search::Tuning {
            knowledge_depth: None,
            ..crosscut::games::hex::eval::TUNING
        }
    }
    fn evaluate(&self, pos: &Hex) -> crosscut::search::Score {
        crosscut::games::hex::eval::evaluate_two_distance(pos)
    }
    fn candidate_moves(&self, pos: &Hex, out: &mut Vec<crosscut::games::hex::HexMove>) {
        crosscut::games::hex::eval::TwoDistance.candidate_moves(pos, out)
    }
    fn opponent_threatens(&self, pos: &Hex) -> bool {
        crosscut::games::hex::eval::TwoDistance.opponent_threatens(pos)
    }
}

#[test]
fn hex_plays_a_win_in_5_not_the_win_in_7_it_saw_first() {
    let g = replay(Hex::new(5).unwrap(), "e4 c2 a3 d2 a4 e5 a1 e1 d1 c4 d4 d5");
    let (_, slow) = search(&mut g.clone(), &TwoDistanceAlone, 5, false);
    assert_eq!(slow, Some(7));
    plays_fastest(g.clone(), &TwoDistanceAlone, 5, 5);
    // With the connections the searcher plays the fastest win too.
    plays_fastest(g, &crosscut::games::hex::eval::TwoDistance, 5, 5);
}

/// A win the searcher claims is a win: in this Onyx position its
/// candidate moves left out Black's only defence after F4, and it claimed
/// F4 won in 7 plies (an engine game threw the win away so; the solver and
/// the proof checker of tests/it/proofs.rs show F4 loses). A node is now
/// proven lost only when every legal move loses, and BC12, the one winning
/// move, is found.
#[test]
fn a_claimed_win_is_a_win() {
    let mut g = replay(
        Onyx::new(6, Start::Blank).unwrap(),
        "DE34 E1 F2 D4 A3 E3 D3 E4 A5 C3 B3 A6 B6 A4 B5 A1 E2 F1 F5 C4 B4 D1 D2",
    );
    let eval = crosscut::games::onyx::TwoDistance;
    for depth in 5..=7 {
        let (mv, claimed) = search(&mut g, &eval, depth, false);
        assert_eq!(g.format_move(mv), "BC12");
        assert_eq!(claimed, Some(7));
    }
    plays_fastest(g, &eval, 6, 7);
}

/// Every win the searcher claims in random positions is confirmed by the
/// full-width search within as many plies.
#[test]
fn claimed_wins_hold_in_random_positions() {
    let mut rng = Rng(0xc1a1);
    let mut claims = 0;
    for i in 0..200 {
        let (claimed, held) = if i % 2 == 0 {
            let mut g = random_position(
                Onyx::new(4 + 2 * (i % 4 / 2), Start::Blank).unwrap(),
                &mut rng,
                30,
            );
            check_claim(&mut g, &crosscut::games::onyx::TwoDistance)
        } else {
            let mut g = random_position(Hex::new(5).unwrap(), &mut rng, 16);
            check_claim(&mut g, &crosscut::games::hex::eval::TwoDistance)
        };
        claims += claimed as usize;
        assert!(held, "position {i}: a claimed win holds");
    }
    assert!(claims >= 20, "enough claims checked: {claims}");
}

/// A position `plies` random moves (at most) from `g`, not over.
fn random_position<G: Game>(mut g: G, rng: &mut Rng, plies: usize) -> G {
    let mut moves = Vec::new();
    for _ in 0..rng.below(plies) + 4 {
        moves.clear();
        g.legal_moves(&mut moves);
        let before = g.clone();
        g.play(moves[rng.below(moves.len())]);
        if g.outcome().is_some() {
            return before;
        }
    }
    g
}

/// (whether the searcher claims a win at depth 4, whether the claim holds).
fn check_claim<G: Game, E: Evaluator<G>>(g: &mut G, eval: &E) -> (bool, bool) {
    let (_, claimed) = search(g, eval, 4, false);
    match claimed {
        Some(k) => {
            let limits = SearchLimits::new(1, None);
            let found = fastest_win(g, k, &limits, None).expect("no limit");
            (true, found.is_some())
        }
        None => (false, true),
    }
}

/// `fastest_win` against the independent check on random small positions.
#[test]
fn fastest_win_agrees_with_brute_force() {
    let mut rng = Rng(0x5eed);
    let mut wins = 0;
    for i in 0..400 {
        let mut g = Hex::new(3 + i % 2).unwrap();
        let mut moves = Vec::new();
        for _ in 0..rng.below(8) {
            moves.clear();
            g.legal_moves(&mut moves);
            if moves.is_empty() || g.outcome().is_some() {
                break;
            }
            g.play(moves[rng.below(moves.len())]);
        }
        if g.outcome().is_some() {
            continue;
        }
        let limits = SearchLimits::new(1, None);
        let got = fastest_win(&mut g, 5, &limits, None).expect("no limit");
        let want = [1, 3, 5].into_iter().find(|&n| wins_within(&mut g, n));
        assert_eq!(got.map(|(_, n)| n), want);
        if let Some((mv, n)) = got {
            wins += 1;
            let me = g.to_move();
            g.play(mv);
            let ok = g.outcome() == Some(crosscut::game::Outcome::Win(me))
                || (n >= 3 && loses_within(&mut g, me, n - 1));
            assert!(ok);
            g.undo();
        }
    }
    assert!(wins > 50, "enough wins checked: {wins}");
}

#[test]
#[ignore]
fn scan_for_slow_wins() {
    let mut rng = Rng(0xfa57);
    scan(
        "onyx 6 blank",
        &crosscut::games::onyx::TwoDistance,
        300,
        5,
        || Onyx::new(6, Start::Blank).unwrap(),
        &mut rng,
    );
    scan(
        "hex 5",
        &crosscut::games::hex::eval::TwoDistance,
        300,
        5,
        || Hex::new(5).unwrap(),
        &mut rng,
    );
}
