//! Knowledge-guided Monte-Carlo tree search (`param player
//! knowledge_mcts`): PUCT as AlphaZero selects, with the game's own
//! knowledge where AlphaZero has networks. No random playouts:
//!
//! - a new node's value is its evaluation turned into a win probability
//!   (a logistic of the score), or its exact result when the game is over
//!   or the evaluation's knowledge proves it ([`Evaluator::proven_result`]:
//!   in Hex the virtual connections);
//! - its children are the evaluation's candidate moves (in Hex the moves
//!   the knowledge leaves, the must-play region without fill-in and
//!   dominated cells, the 15 with the most current), their priors falling
//!   with their rank by [`Evaluator::move_order_hint`];
//! - proven results are backed up as in MCTS-solver: a node with a child
//!   that wins for its side to move is won, one whose children all lose is
//!   lost, and selection no longer spends visits below a decided node.
//!
//! The move played is a proven win when there is one, else the most
//! visited child.

use super::{Evaluator, SearchLimits, SearchResult, WIN_BASE, proven_plies};
use crate::game::{Game, Outcome};

/// The exploration constant of PUCT.
const C_PUCT: f64 = 1.5;
/// Score units per unit of the logistic turning a score into a value.
const VALUE_SCALE: f64 = 250.0;
/// Each candidate's prior is this times the one before it (then
/// normalised).
const PRIOR_DECAY: f64 = 0.8;

struct Node<M> {
    mv: Option<M>,
    prior: f64,
    visits: u32,
    /// Sum of the values backed up, for the player who moved into the node.
    value: f64,
    /// The children, `first..first + count` in the arena, once expanded.
    first: usize,
    count: usize,
    expanded: bool,
    /// A proven result for the player who moved into the node.
    proven: Option<bool>,
}

impl<M> Node<M> {
    fn new(mv: Option<M>, prior: f64) -> Self {
        Node {
            mv,
            prior,
            visits: 0,
            value: 0.0,
            first: 0,
            count: 0,
            expanded: false,
            proven: None,
        }
    }
}

/// A score for the side to move as a value in −1..1.
fn value_of(score: i32) -> f64 {
    let x = f64::from(score) / VALUE_SCALE;
    2.0 / (1.0 + (-x).exp()) - 1.0
}

/// The inverse of [`value_of`], clamped short of a proven score.
fn score_of(value: f64) -> i32 {
    let v = value.clamp(-0.999, 0.999);
    (VALUE_SCALE * ((1.0 + v) / (1.0 - v)).ln()) as i32
}

/// Evaluates `game` (not over) for its side to move: `(value, proven)`,
/// proven when the knowledge or a proven evaluation decides it.
fn evaluate<G: Game, E: Evaluator<G>>(game: &G, eval: &E) -> (f64, bool) {
    if let Some((wins, _)) = eval.proven_result(game) {
        return (if wins { 1.0 } else { -1.0 }, true);
    }
    let s = eval.evaluate(game);
    if proven_plies(s).is_some() {
        return (f64::from(s.signum()), true);
    }
    (value_of(s), false)
}

/// Runs the search from `game` within `limits` (at least one iteration;
/// without a time limit, 100 iterations per `max_depth`).
pub fn search<G: Game, E: Evaluator<G>>(
    game: &mut G,
    eval: &E,
    limits: &SearchLimits,
) -> Option<SearchResult<G::Move>> {
    let effort = eval.tuning().effort();
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    if legal.is_empty() || game.outcome().is_some() {
        return None;
    }
    let max_iterations = if limits.time.is_some() {
        u64::MAX
    } else {
        100 * u64::from(limits.max_depth.max(1))
    };
    let mut nodes: Vec<Node<G::Move>> = vec![Node::new(None, 1.0)];
    let mut path: Vec<usize> = Vec::with_capacity(128);
    let mut moves = Vec::new();
    let mut iterations = 0u64;
    while iterations < max_iterations && nodes[0].proven.is_none() {
        if iterations > 0 && limits.expired() {
            break;
        }
        iterations += 1;
        path.clear();
        path.push(0);
        let mut current = 0;
        // Selection: down the expanded, undecided nodes.
        while nodes[current].expanded && nodes[current].proven.is_none() && nodes[current].count > 0
        {
            let parent = &nodes[current];
            let sqrt_n = f64::from(parent.visits.max(1)).sqrt();
            let fpu = if parent.visits > 0 {
                -parent.value / f64::from(parent.visits) - 0.2
            } else {
                0.0
            };
            let mut best = None;
            let mut best_score = f64::NEG_INFINITY;
            for (i, c) in nodes
                .iter()
                .enumerate()
                .skip(parent.first)
                .take(parent.count)
            {
                let score = match c.proven {
                    Some(true) => f64::INFINITY,
                    Some(false) => -1e9 + f64::from(c.visits),
                    None => {
                        let q = if c.visits > 0 {
                            c.value / f64::from(c.visits)
                        } else {
                            fpu
                        };
                        q + C_PUCT * c.prior * sqrt_n / (1.0 + f64::from(c.visits))
                    }
                };
                if score > best_score {
                    best_score = score;
                    best = Some(i);
                }
            }
            let next = best.expect("children");
            game.play_with(nodes[next].mv.expect("a child has a move"), effort);
            current = next;
            path.push(current);
        }
        // The leaf: its value for its side to move, and its expansion.
        let node = &nodes[current];
        let (v, exact) = if let Some(mover_wins) = node.proven {
            (if mover_wins { -1.0 } else { 1.0 }, true)
        } else {
            match game.outcome() {
                Some(Outcome::Win(c)) => (if c == game.to_move() { 1.0 } else { -1.0 }, true),
                Some(Outcome::Draw) => (0.0, false),
                None => evaluate(game, eval),
            }
        };
        // The root is always expanded: a proven root still needs its move.
        if exact && current != 0 {
            nodes[current].proven = Some(v < 0.0);
        } else if !nodes[current].expanded && game.outcome().is_none() {
            moves.clear();
            eval.candidate_moves(game, &mut moves);
            if moves.is_empty() {
                game.legal_moves(&mut moves);
            }
            let mut keyed: Vec<(i32, G::Move)> = moves
                .iter()
                .map(|&m| (eval.move_order_hint(game, m), m))
                .collect();
            keyed.sort_by_key(|&(h, _)| std::cmp::Reverse(h));
            let total: f64 = (0..keyed.len()).map(|r| PRIOR_DECAY.powi(r as i32)).sum();
            let first = nodes.len();
            for (r, &(_, m)) in keyed.iter().enumerate() {
                nodes.push(Node::new(Some(m), PRIOR_DECAY.powi(r as i32) / total));
            }
            let n = &mut nodes[current];
            n.first = first;
            n.count = keyed.len();
            n.expanded = true;
        }
        // Backup, undoing the moves on the way up; `v` is for the side to
        // move at the node, so its mover gets −v.
        let mut v = v;
        for (depth, &n) in path.iter().enumerate().rev() {
            nodes[n].visits += 1;
            nodes[n].value -= v;
            v = -v;
            let node = &nodes[n];
            if node.expanded && node.proven.is_none() && node.count > 0 {
                let kids = &nodes[node.first..node.first + node.count];
                if kids.iter().any(|c| c.proven == Some(true)) {
                    nodes[n].proven = Some(false);
                } else if kids.iter().all(|c| c.proven == Some(false)) {
                    nodes[n].proven = Some(true);
                }
            }
            if depth > 0 {
                game.undo();
            }
        }
    }
    let root = &nodes[0];
    if root.count == 0 {
        return None;
    }
    let pick = |from: &Node<G::Move>| -> usize {
        let kids = from.first..from.first + from.count;
        kids.clone()
            .find(|&i| nodes[i].proven == Some(true))
            .or_else(|| {
                kids.clone()
                    .filter(|&i| nodes[i].proven != Some(false))
                    .max_by_key(|&i| nodes[i].visits)
            })
            .unwrap_or_else(|| kids.max_by_key(|&i| nodes[i].visits).expect("children"))
    };
    let best = pick(root);
    let mut pv = Vec::new();
    let mut at = best;
    loop {
        pv.push(nodes[at].mv.expect("a child has a move"));
        if nodes[at].count == 0 || nodes[at].visits < 2 || pv.len() >= 32 {
            break;
        }
        at = pick(&nodes[at]);
    }
    let b = &nodes[best];
    let score = match b.proven {
        Some(true) => WIN_BASE - pv.len() as i32,
        Some(false) => -(WIN_BASE - pv.len() as i32),
        None => score_of(b.value / f64::from(b.visits.max(1))),
    };
    Some(SearchResult {
        best: pv[0],
        score,
        depth: pv.len() as u32,
        nodes: iterations,
        elapsed: limits.start.elapsed(),
        pv,
        lines: Vec::new(),
    })
}
