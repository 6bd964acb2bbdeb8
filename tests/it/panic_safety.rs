//! A failed command changes nothing, even when the failure is a panic in
//! the middle of a search (the searcher works on a copy of the position)
//! or of a move (the game is rebuilt from its history). Tested with an
//! evaluator that panics after a number of evaluations, and a game whose
//! rules panic half-way through one move.

use std::sync::atomic::{AtomicUsize, Ordering};

use crosscut::game::{Color, Effort, Game, MoveError, Notation, Outcome};
use crosscut::games::onyx::{Onyx, OnyxMove, Start, TwoDistance};
use crosscut::search::{Evaluator, Player, Score, SearchLimits};
use crosscut::session::{
    EvalPlayers, GameSession, Options, Rules, RulesSession, SearchRequest, Session,
};
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
        multipv: 1,
        rng: &mut rng,
        progress: &mut |_| {},
    };
    s.search(color, &limits, request).map(|r| r.best_move)
}

/// Everything a user can see of a game: board, side, history, hash, moves.
fn snapshot(s: &mut GameSession<Onyx>) -> (String, Color, Vec<String>, u64, Vec<String>) {
    rules_snapshot(s.rules_mut())
}

/// [`snapshot`] of any game's rules.
fn rules_snapshot(r: &mut dyn Rules) -> (String, Color, Vec<String>, u64, Vec<String>) {
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

/// Onyx, except that making the move `D4` panics once the stone is on the
/// board: a bug in the rules, half-way through a `play`.
#[derive(Clone)]
struct Fragile(Onyx);

/// The move whose making panics.
const FRAGILE: &str = "D4";

impl Game for Fragile {
    type Move = OnyxMove;
    const CAN_REPEAT: bool = Onyx::CAN_REPEAT;
    fn size(&self) -> usize {
        self.0.size()
    }
    fn to_move(&self) -> Color {
        self.0.to_move()
    }
    fn moves_played(&self) -> usize {
        self.0.moves_played()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    fn legal_moves(&self, out: &mut Vec<OnyxMove>) {
        self.0.legal_moves(out)
    }
    fn is_legal(&self, mv: OnyxMove) -> bool {
        self.0.is_legal(mv)
    }
    fn play_with(&mut self, mv: OnyxMove, effort: Effort) {
        self.0.play_with(mv, effort);
        if self.0.format_move(mv) == FRAGILE {
            panic!("a deliberate failure half-way through a move");
        }
    }
    fn play_null(&mut self) {
        self.0.play_null()
    }
    fn undo(&mut self) {
        self.0.undo()
    }
    fn hash(&self) -> u64 {
        self.0.hash()
    }
    fn recompute_hash(&self) -> u64 {
        self.0.recompute_hash()
    }
}

impl Notation for Fragile {
    fn parse_move(&self, text: &str) -> Result<OnyxMove, MoveError> {
        self.0.parse_move(text)
    }
    fn format_move(&self, mv: OnyxMove) -> String {
        self.0.format_move(mv)
    }
    fn move_order(&self, mv: OnyxMove) -> crosscut::game::MoveOrder {
        self.0.move_order(mv)
    }
    fn showboard(&self) -> String {
        self.0.showboard()
    }
    fn piece_at(&self, point: &str) -> Option<Color> {
        self.0.piece_at(point)
    }
}

fn fragile_game(size: usize, _: &Options) -> Result<Fragile, String> {
    Onyx::new(size, Start::Standard).map(Fragile)
}

/// A `play` whose move panics half-way through the rules leaves no
/// half-played move: the game is as before the command (board, side to
/// move, history, hash, legal moves), in turn and out of turn, and the
/// game goes on (other moves, `undo`).
#[test]
fn a_play_that_panics_in_the_rules_leaves_the_game_as_it_was() {
    for color in [Color::Black, Color::White] {
        let mut r = RulesSession::new("fragile", fragile_game, 8, &Vec::new()).unwrap();
        for m in ["C4", "F5"] {
            let c = r.to_move();
            r.play(c, m).unwrap();
        }
        let before = rules_snapshot(&mut r);
        let result =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| r.play(color, FRAGILE)));
        assert!(result.is_err(), "{color:?}: the rules should have panicked");
        assert_eq!(rules_snapshot(&mut r), before, "{color:?}");
        assert_eq!((r.moves_played(), r.piece_at(FRAGILE)), (2, None));
        // The game goes on.
        r.play(color, "E4").unwrap();
        assert_eq!(r.piece_at("E4"), Some(color));
        assert!(r.undo());
        assert_eq!(rules_snapshot(&mut r), before, "{color:?} after undo");
    }
}
