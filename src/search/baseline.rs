//! Baseline players: a uniformly random mover and a greedy one-ply player.
//! Difficulty levels for users, yardsticks for the searcher.

use rand::RngExt;
use rand::rngs::SmallRng;

use super::{Evaluator, Score, SearchLimits, WIN_BASE, search_score};
use crate::game::{Game, Outcome};

/// A uniformly random legal move, `None` when there is none.
pub fn random_move<G: Game>(game: &G, rng: &mut SmallRng) -> Option<G::Move> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    if moves.is_empty() {
        None
    } else {
        Some(moves[rng.random_range(0..moves.len())])
    }
}

/// The value of the position after a move, for the player who made it.
fn after_move<G: Game, E: Evaluator<G>>(game: &G, eval: &E) -> Score {
    match game.outcome() {
        Some(Outcome::Win(c)) if c == game.to_move() => -WIN_BASE,
        Some(Outcome::Win(_)) => WIN_BASE,
        Some(Outcome::Draw) => 0,
        None => -search_score(eval.evaluate(game), 0),
    }
}

/// The legal move whose resulting position `eval` scores best for the
/// mover (ties broken at random), `None` when there is no legal move. Past
/// the deadline of `limits` (or when interrupted) it stops and takes the
/// best of the moves it has looked at (at least one).
pub fn greedy_move<G: Game, E: Evaluator<G>>(
    game: &mut G,
    eval: &E,
    rng: &mut SmallRng,
    limits: &SearchLimits,
) -> Option<(G::Move, Score)> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut best: Option<(G::Move, Score)> = None;
    let mut ties = 0u32;
    for m in moves {
        if best.is_some() && limits.expired() {
            break;
        }
        game.play_with(m, eval.tuning().effort());
        let s = after_move(game, eval);
        game.undo();
        match best {
            Some((_, b)) if s < b => {}
            Some((_, b)) if s == b => {
                ties += 1;
                if rng.random_range(0..=ties) == 0 {
                    best = Some((m, s));
                }
            }
            _ => {
                best = Some((m, s));
                ties = 0;
            }
        }
    }
    best
}
