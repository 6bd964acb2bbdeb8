//! Exhaustive minimax with a path check, the brute force the solver and
//! the games' connection knowledge are checked against.

use std::collections::HashSet;

use crosscut::game::{Color, Effort, Game, Outcome};
use rand::RngExt;
use rand::rngs::SmallRng;

/// The value for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum V {
    Win,
    Draw,
    Loss,
}

impl V {
    /// The value for the other side.
    pub fn flip(self) -> V {
        match self {
            V::Win => V::Loss,
            V::Loss => V::Win,
            V::Draw => V::Draw,
        }
    }
}

/// Whether the side to move after a move is the mover's opponent: always
/// when wins are counted by player (a swap exchanges the players), else
/// when the colour to move changed.
pub fn opponent_moves<G: Game>(game: &G, mover: Color, by_player: bool) -> bool {
    by_player || game.to_move() != mover
}

/// Exhaustive minimax with a path check (a position repeated on the path
/// is a draw, as RULINGS has it for Onyx); `None` past `budget` nodes.
pub fn minimax<G: Game>(
    game: &mut G,
    path: &mut HashSet<u64>,
    budget: &mut u64,
    by_player: bool,
) -> Option<V> {
    if let Some(o) = game.outcome() {
        return Some(match o {
            Outcome::Draw => V::Draw,
            Outcome::Win(c) if c == game.to_move() => V::Win,
            Outcome::Win(_) => V::Loss,
        });
    }
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let me = game.to_move();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    assert!(!moves.is_empty(), "a game that goes on has moves");
    path.insert(game.hash());
    let mut best = V::Loss;
    for mv in moves {
        game.play_with(mv, Effort::Exact);
        let v = if path.contains(&game.hash()) && game.outcome().is_none() {
            Some(V::Draw)
        } else {
            let v = minimax(game, path, budget, by_player);
            let flip = opponent_moves(game, me, by_player);
            v.map(|v| if flip { v.flip() } else { v })
        };
        game.undo();
        let Some(v) = v else {
            path.remove(&game.hash());
            return None;
        };
        if v == V::Win {
            best = V::Win;
            break;
        }
        if v == V::Draw {
            best = V::Draw;
        }
    }
    path.remove(&game.hash());
    Some(best)
}

/// Plays random moves until the game ends (at most `max_moves`), then takes
/// back `back` of them: a position near the end.
pub fn near_end<G: Game>(game: &mut G, rng: &mut SmallRng, back: usize, max_moves: usize) {
    let mut played = 0;
    let mut moves = Vec::new();
    while game.outcome().is_none() && played < max_moves {
        moves.clear();
        game.legal_moves(&mut moves);
        let mv = moves[rng.random_range(0..moves.len())];
        game.play_with(mv, Effort::Exact);
        played += 1;
    }
    for _ in 0..back.min(played) {
        game.undo();
    }
}

/// Plays `count` random moves (fewer if the game ends first).
pub fn random_moves<G: Game>(game: &mut G, rng: &mut SmallRng, count: usize) {
    let mut moves = Vec::new();
    for _ in 0..count {
        if game.outcome().is_some() {
            return;
        }
        moves.clear();
        game.legal_moves(&mut moves);
        let mv = moves[rng.random_range(0..moves.len())];
        game.play_with(mv, Effort::Exact);
    }
}
