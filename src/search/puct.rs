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
//! - proven results are backed up as in MCTS-solver, with their length in
//!   plies: a node with a child that wins for its side to move is won (in
//!   one more ply than its fastest such child), one whose children all lose
//!   is lost (in one more than its slowest), and selection no longer spends
//!   visits below a decided node.
//!
//! The move played is the fastest proven win when there is one, else the
//! most visited child not proven to lose, else the slowest loss (a move
//! that stops a win at once before one that does not). The line so far is
//! reported every 200 ms (with `param multipv` K, the K best root moves).

use super::alphabeta::MAX_PLY;
use super::{Evaluator, Line, Score, SearchLimits, SearchResult, WIN_BASE, proven_plies};
use crate::game::{Game, Outcome};

/// The exploration constant of PUCT.
const C_PUCT: f64 = 1.5;
/// Score units per unit of the logistic turning a score into a value.
const VALUE_SCALE: f64 = 250.0;
/// Each candidate's prior is this times the one before it (then
/// normalised).
const PRIOR_DECAY: f64 = 0.8;
/// How often the search reports its line so far (`info` lines).
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_millis(200);

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
    /// With a proven result: plies to the end as far as known (an upper
    /// bound where the knowledge proved it).
    plies: u32,
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
            plies: 0,
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

/// Evaluates `game` (not over) for its side to move: its value, and the
/// plies to the end when a proven evaluation (first: it names a win at
/// once) or the knowledge decides it.
fn evaluate<G: Game, E: Evaluator<G>>(game: &G, eval: &E) -> (f64, Option<u32>) {
    let s = eval.evaluate(game);
    if let Some(p) = proven_plies(s) {
        return (f64::from(s.signum()), Some(p.unsigned_abs()));
    }
    if let Some((wins, plies)) = eval.proven_result(game) {
        return (if wins { 1.0 } else { -1.0 }, Some(plies));
    }
    (value_of(s), None)
}

/// Runs the search from `game` within `limits` (at least one iteration;
/// without a time limit, 100 iterations per `max_depth`).
pub fn search<G: Game, E: Evaluator<G>>(
    game: &mut G,
    eval: &E,
    limits: &SearchLimits,
    multipv: usize,
    progress: &mut dyn FnMut(&mut G, &SearchResult<G::Move>),
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
    let mut reported = std::time::Instant::now();
    while iterations < max_iterations && nodes[0].proven.is_none() {
        if iterations > 0 && limits.expired() {
            break;
        }
        if reported.elapsed() >= PROGRESS_EVERY
            && let Some(r) = report(&nodes, iterations, limits, multipv)
        {
            progress(game, &r);
            reported = std::time::Instant::now();
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
            (if mover_wins { -1.0 } else { 1.0 }, Some(node.plies))
        } else {
            match game.outcome() {
                Some(Outcome::Win(c)) => (if c == game.to_move() { 1.0 } else { -1.0 }, Some(0)),
                Some(Outcome::Draw) => (0.0, None),
                None => evaluate(game, eval),
            }
        };
        // The root is always expanded: a proven root still needs its move.
        if let Some(plies) = exact.filter(|_| current != 0) {
            nodes[current].proven = Some(v < 0.0);
            nodes[current].plies = plies;
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
                let won = kids.iter().filter(|c| c.proven == Some(true));
                if let Some(fastest) = won.map(|c| c.plies).min() {
                    nodes[n].proven = Some(false);
                    nodes[n].plies = fastest + 1;
                } else if kids.iter().all(|c| c.proven == Some(false)) {
                    let slowest = kids.iter().map(|c| c.plies).max().unwrap_or(0);
                    nodes[n].proven = Some(true);
                    nodes[n].plies = slowest + 1;
                }
            }
            if depth > 0 {
                game.undo();
            }
        }
    }
    let result = report(&nodes, iterations, limits, multipv);
    if let Some(r) = &result {
        progress(game, r);
    }
    result
}

/// How a child ranks for the side choosing it (lower first): proven wins,
/// fastest first; then the undecided, most visited first; then proven
/// losses, slowest first.
fn rank<M>(n: &Node<M>) -> (u8, i64) {
    match n.proven {
        Some(true) => (0, i64::from(n.plies)),
        None => (1, -i64::from(n.visits)),
        Some(false) => (2, -i64::from(n.plies)),
    }
}

/// The root child to play or to follow from `from`: the first by [`rank`]
/// (the first of equally fast wins, the last of equal others).
fn pick<M>(nodes: &[Node<M>], from: &Node<M>) -> usize {
    (from.first..from.first + from.count)
        .min_by_key(|&i| {
            let (class, key) = rank(&nodes[i]);
            (class, key, if class == 0 { i as i64 } else { -(i as i64) })
        })
        .expect("children")
}

/// The line from root child `best` (most visited replies), and its score
/// for the root's side to move.
fn line<M: Copy>(nodes: &[Node<M>], best: usize) -> (Score, Vec<M>) {
    let mut pv = Vec::new();
    let mut at = best;
    loop {
        pv.push(nodes[at].mv.expect("a child has a move"));
        if nodes[at].count == 0 || nodes[at].visits < 2 || pv.len() >= 32 {
            break;
        }
        at = pick(nodes, &nodes[at]);
    }
    let b = &nodes[best];
    // Within the searcher's proven scores (`is_mate`).
    let plies = (b.plies + 1).min(MAX_PLY as u32 - 1) as i32;
    let score = match b.proven {
        Some(true) => WIN_BASE - plies,
        Some(false) => -(WIN_BASE - plies),
        None => score_of(b.value / f64::from(b.visits.max(1))),
    };
    (score, pv)
}

/// The search's result so far: the move to play and its line, and with
/// `multipv` above 1 the best root moves by [`rank`]; `None` before the
/// root is expanded. The depth is the line's length.
fn report<M: Copy>(
    nodes: &[Node<M>],
    iterations: u64,
    limits: &SearchLimits,
    multipv: usize,
) -> Option<SearchResult<M>> {
    let root = &nodes[0];
    if root.count == 0 {
        return None;
    }
    let best = pick(nodes, root);
    let (score, pv) = line(nodes, best);
    let mut lines = Vec::new();
    if multipv > 1 {
        let mut kids: Vec<usize> = (root.first..root.first + root.count).collect();
        kids.sort_by_key(|&i| rank(&nodes[i]));
        kids.retain(|&i| i != best);
        kids.insert(0, best);
        for &k in kids.iter().take(multipv) {
            let (score, pv) = line(nodes, k);
            lines.push(Line { score, pv });
        }
    }
    Some(SearchResult {
        best: pv[0],
        score,
        depth: pv.len() as u32,
        nodes: iterations,
        elapsed: limits.start.elapsed(),
        pv,
        lines,
    })
}
