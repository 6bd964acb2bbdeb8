//! Plain UCT: a tree of visit and win counts, UCB1 selection, one new node
//! per iteration, uniformly random playouts. A baseline, not a contender.

use rand::RngExt;
use rand::rngs::SmallRng;

use super::{Evaluator, SearchLimits, SearchResult};
use crate::game::{Color, Game, Outcome};

/// Longest playout; longer ones are scored by the evaluation's sign.
const MAX_PLAYOUT: usize = 1000;
/// The UCB1 exploration constant.
const EXPLORATION: f64 = 1.4;

struct Node<M> {
    /// The move that led here (None at the root).
    mv: Option<M>,
    /// Sum of rewards for the player who made `mv`.
    wins: f64,
    visits: u32,
    children: Vec<usize>,
    untried: Vec<M>,
}

/// Who won a playout, as a reward for the player who moved into a node whose
/// side to move is `to_move`. The player who moved into it is the opponent of
/// its side to move, also after `swap` (the swapper takes the other colour).
fn reward(winner: Option<Color>, to_move: Color) -> f64 {
    match winner {
        Some(c) if c == to_move.opponent() => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

/// The winner at the end of a finished game, or when the side to move has no
/// legal move (it loses).
fn winner_of<G: Game>(game: &G, moves: &[G::Move]) -> Option<Option<Color>> {
    match game.outcome() {
        Some(Outcome::Win(c)) => Some(Some(c)),
        Some(Outcome::Draw) => Some(None),
        None if moves.is_empty() => Some(Some(game.to_move().opponent())),
        None => None,
    }
}

/// Runs UCT from `game` within `limits` (at least one iteration); `eval`
/// scores playouts cut at their length limit.
pub fn search<G: Game, E: Evaluator<G>>(
    game: &mut G,
    eval: &E,
    limits: &SearchLimits,
    rng: &mut SmallRng,
) -> Option<SearchResult<G::Move>> {
    let effort = eval.tuning().effort();
    let mut root_moves = Vec::new();
    game.legal_moves(&mut root_moves);
    if root_moves.is_empty() || game.outcome().is_some() {
        return None;
    }
    // Without a time limit, the depth limit stands for a playout count.
    let max_iterations = if limits.time.is_some() {
        u64::MAX
    } else {
        1000 * limits.max_depth.max(1) as u64
    };
    let mut nodes: Vec<Node<G::Move>> = vec![Node {
        mv: None,
        wins: 0.0,
        visits: 0,
        children: Vec::new(),
        untried: root_moves.clone(),
    }];
    let mut path = Vec::with_capacity(256);
    let mut scratch = Vec::with_capacity(256);
    let mut iterations = 0u64;
    while iterations < max_iterations {
        if iterations > 0 && limits.expired() {
            break;
        }
        iterations += 1;
        // Selection.
        path.clear();
        let mut current = 0;
        path.push(current);
        let mut depth = 0;
        while nodes[current].untried.is_empty() && !nodes[current].children.is_empty() {
            let parent_visits = (nodes[current].visits.max(1) as f64).ln();
            let &next = nodes[current]
                .children
                .iter()
                .max_by(|&&a, &&b| {
                    let ucb = |i: usize| {
                        let n = &nodes[i];
                        let v = n.visits.max(1) as f64;
                        n.wins / v + EXPLORATION * (parent_visits / v).sqrt()
                    };
                    ucb(a).total_cmp(&ucb(b))
                })
                .expect("children exist");
            game.play_with(nodes[next].mv.expect("children have moves"), effort);
            depth += 1;
            current = next;
            path.push(current);
        }
        // Expansion.
        if !nodes[current].untried.is_empty() && game.outcome().is_none() {
            let k = rng.random_range(0..nodes[current].untried.len());
            let mv = nodes[current].untried.swap_remove(k);
            game.play_with(mv, effort);
            depth += 1;
            let mut untried = Vec::new();
            game.legal_moves(&mut untried);
            nodes.push(Node {
                mv: Some(mv),
                wins: 0.0,
                visits: 0,
                children: Vec::new(),
                untried,
            });
            let child = nodes.len() - 1;
            nodes[current].children.push(child);
            current = child;
            path.push(current);
        }
        // Playout.
        let mut played = 0;
        let winner = loop {
            scratch.clear();
            game.legal_moves(&mut scratch);
            if let Some(w) = winner_of(game, &scratch) {
                break w;
            }
            if played >= MAX_PLAYOUT {
                let e = eval.evaluate(game);
                break match e.cmp(&0) {
                    std::cmp::Ordering::Greater => Some(game.to_move()),
                    std::cmp::Ordering::Less => Some(game.to_move().opponent()),
                    std::cmp::Ordering::Equal => None,
                };
            }
            let mv = scratch[rng.random_range(0..scratch.len())];
            game.play_with(mv, effort);
            played += 1;
        };
        for _ in 0..played {
            game.undo();
        }
        // Backpropagation, undoing the tree moves on the way up.
        for (i, &n) in path.iter().enumerate().rev() {
            let to_move = game.to_move();
            nodes[n].visits += 1;
            nodes[n].wins += reward(winner, to_move);
            if i > 0 {
                game.undo();
                depth -= 1;
            }
        }
        debug_assert_eq!(depth, 0);
    }
    let best = nodes[0]
        .children
        .iter()
        .copied()
        .max_by_key(|&c| nodes[c].visits)?;
    let node = &nodes[best];
    let mv = node.mv.expect("child has a move");
    let rate = node.wins / node.visits.max(1) as f64;
    Some(SearchResult {
        best: mv,
        score: ((rate - 0.5) * 2000.0) as i32,
        depth: 1,
        nodes: iterations,
        elapsed: limits.start.elapsed(),
        pv: vec![mv],
        lines: Vec::new(),
    })
}
