//! A failed command changes nothing, even when the failure is a panic in
//! the middle of a search: the searcher works on a copy of the position.
//! Tested with an evaluator that panics after a number of evaluations.

use std::sync::atomic::{AtomicUsize, Ordering};

use crosscut::game::Color;
use crosscut::games::onyx::{Onyx, Start, TwoDistance};
use crosscut::search::{Evaluator, Player, Score, SearchLimits};
use crosscut::session::{EvalPlayers, GameSession, Options, RulesSession, SearchRequest, Session};
use rand::SeedableRng;
use rand::rngs::SmallRng;

/// Onyx's evaluation, until it has been asked `limit` times: then it
/// panics, deep inside a search.
struct Panicky {
    calls: AtomicUsize,
    limit: usize,
}

impl Evaluator<Onyx> for Panicky {
    fn name(&self) -> &'static str {
        "panicky"
    }
    fn evaluate(&self, pos: &Onyx) -> Score {
        if self.calls.fetch_add(1, Ordering::Relaxed) >= self.limit {
            panic!("a deliberate failure in the evaluation");
        }
        TwoDistance.evaluate(pos)
    }
}

fn new_game(size: usize, _: &Options) -> Result<Onyx, String> {
    Onyx::new(size, Start::Standard)
}

fn session(limit: usize) -> GameSession<Onyx> {
    let rules = RulesSession::new("onyx", new_game, 8, &Vec::new()).unwrap();
    let panicky: Box<dyn EvalPlayers<Onyx>> = Box::new(Panicky {
        calls: AtomicUsize::new(0),
        limit,
    });
    GameSession::new(rules, vec![panicky, Box::new(TwoDistance)], 1).unwrap()
}

fn search(s: &mut GameSession<Onyx>, player: Player, color: Color) -> Option<String> {
    let mut rng = SmallRng::seed_from_u64(1);
    let limits = SearchLimits::new(6, None);
    let request = SearchRequest {
        player,
        threads: 1,
        rng: &mut rng,
        progress: &mut |_| {},
    };
    s.search(color, &limits, request).map(|r| r.best_move)
}

/// Everything a user can see of a game: board, side, history, hash, moves.
fn snapshot(s: &mut GameSession<Onyx>) -> (String, Color, Vec<String>, u64, Vec<String>) {
    let r = s.rules_mut();
    let to_move = r.to_move();
    (
        r.showboard(),
        to_move,
        r.history(),
        r.hash(),
        r.legal_moves_for(to_move),
    )
}

#[test]
fn a_panicking_search_leaves_the_game_as_it_was() {
    // (MCTS evaluates only playouts cut at their length limit, which games
    // on 8×8 never reach.)
    for player in [Player::AlphaBeta, Player::Greedy] {
        // Out of turn too: the turn handed over for the search is taken back.
        for color in [Color::White, Color::Black] {
            let mut s = session(50);
            for m in ["C4", "F5"] {
                let c = s.rules().to_move();
                s.rules_mut().play(c, m).unwrap();
            }
            let before = snapshot(&mut s);
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                search(&mut s, player, color)
            }));
            assert!(
                result.is_err(),
                "{player:?}: the evaluator should have panicked"
            );
            assert_eq!(snapshot(&mut s), before, "{player:?} for {color:?}");
            assert_eq!(s.rules().moves_played(), 2);
            // The game goes on: the other evaluator plays a move.
            s.select_evaluator("two_distance").unwrap();
            let mv = search(&mut s, player, color).expect("a move");
            assert_eq!(snapshot(&mut s), before, "a search alone changes nothing");
            s.rules_mut().play(color, &mv).unwrap();
        }
    }
}

/// The same search without the panic plays, and the copy it searched
/// replaces the game exactly (same hash as recomputed).
#[test]
fn a_search_that_succeeds_leaves_the_game_as_it_was_too() {
    let mut s = session(usize::MAX);
    let before = snapshot(&mut s);
    let mv = search(&mut s, Player::AlphaBeta, Color::Black).expect("a move");
    assert_eq!(snapshot(&mut s), before);
    s.rules_mut().play(Color::Black, &mv).unwrap();
    assert_eq!(s.evaluator(), "panicky");
    assert_eq!(s.evaluators(), ["panicky", "two_distance"]);
    assert!(s.select_evaluator("nonsense").is_err());
    assert_eq!(s.evaluator(), "panicky");
}
