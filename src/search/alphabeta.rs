//! Negamax principal-variation search with iterative deepening, a
//! transposition table, killer and history move ordering.

use std::time::{Duration, Instant};

use super::tt::{Bound, Table};
use super::{Evaluate, Score, SearchLimits, SearchReport, WIN_BASE};
use crate::game::{Game, Outcome};

/// Deepest ply the searcher ever reaches (iterations plus extensions).
pub const MAX_PLY: usize = 128;
const INF: Score = WIN_BASE + 1;
const HISTORY_SIZE: usize = 4096;

/// Whether a score is a proven win or loss.
pub fn is_mate(score: Score) -> bool {
    score.abs() >= WIN_BASE - MAX_PLY as Score
}

/// The alpha-beta searcher for one game type. It keeps its transposition
/// table and move-ordering tables between searches.
pub struct AlphaBeta<G: Evaluate> {
    table: Table<G::Move>,
    killers: [[Option<G::Move>; 2]; MAX_PLY],
    history: Vec<i32>,
    nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
    move_lists: Vec<Vec<G::Move>>,
    scored: Vec<Vec<(Score, G::Move)>>,
    /// Print one `info` line per finished iteration on stderr.
    pub verbose: bool,
}

impl<G: Evaluate> AlphaBeta<G> {
    /// A searcher with a transposition table of about `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Self {
        AlphaBeta {
            table: Table::new(hash_mb),
            killers: [[None; 2]; MAX_PLY],
            history: vec![0; HISTORY_SIZE],
            nodes: 0,
            deadline: None,
            stopped: false,
            move_lists: (0..MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            scored: (0..MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            verbose: true,
        }
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash_mb(&mut self, mb: usize) {
        self.table = Table::new(mb);
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.history.fill(0);
        self.killers = [[None; 2]; MAX_PLY];
    }

    /// Searches `game` within `limits`. Returns `None` only when the side to
    /// move has no legal move.
    pub fn search(&mut self, game: &mut G, limits: &SearchLimits) -> Option<SearchReport> {
        let mut root_moves = Vec::new();
        game.legal_moves(&mut root_moves);
        if root_moves.is_empty() || game.outcome().is_some() {
            return None;
        }
        self.nodes = 0;
        self.stopped = false;
        self.deadline = limits.time.map(|t| limits.start + t);
        self.table.new_search();
        for h in self.history.iter_mut() {
            *h /= 8;
        }
        let mut best: Option<(G::Move, Score, u32, Vec<G::Move>)> = None;
        let max_depth = limits.max_depth.clamp(1, (MAX_PLY - 16) as u32);
        for depth in 1..=max_depth {
            let score = self.negamax(game, depth as i32, 0, -INF, INF);
            if self.stopped && best.is_some() {
                break;
            }
            let pv = self.principal_variation(game, depth as usize + 4);
            let Some(&mv) = pv.first() else {
                break;
            };
            best = Some((mv, score, depth, pv));
            if self.verbose {
                let (_, s, d, pv) = best.as_ref().expect("just set");
                let ms = limits.start.elapsed().as_millis().max(1);
                let pv_text = format_line(game, pv);
                eprintln!(
                    "info depth {d} score {} nodes {} nps {} time {ms} pv {}",
                    score_text(*s),
                    self.nodes,
                    self.nodes as u128 * 1000 / ms,
                    pv_text.join(" ")
                );
            }
            if is_mate(score) || self.stopped {
                break;
            }
            if let Some(deadline) = self.deadline {
                // Another iteration costs several times this one: do not
                // start what cannot finish.
                let now = Instant::now();
                let used = now.duration_since(limits.start);
                let left = deadline.saturating_duration_since(now);
                if left < used.mul_f32(1.5) {
                    break;
                }
            }
        }
        let (mv, score, depth, pv) = match best {
            Some(b) => b,
            None => {
                let mv = root_moves[0];
                (mv, 0, 0, vec![mv])
            }
        };
        let pv_text = format_line(game, &pv);
        Some(SearchReport {
            best_move: game.format_move(mv),
            score,
            depth,
            nodes: self.nodes,
            elapsed: limits.start.elapsed(),
            pv: pv_text,
        })
    }

    fn out_of_time(&mut self) -> bool {
        if self.nodes & 255 == 0
            && let Some(d) = self.deadline
            && Instant::now() >= d
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn negamax(
        &mut self,
        game: &mut G,
        depth: i32,
        ply: usize,
        mut alpha: Score,
        beta: Score,
    ) -> Score {
        self.nodes += 1;
        if let Some(outcome) = game.outcome() {
            return match outcome {
                Outcome::Win(c) if c == game.to_move() => WIN_BASE - ply as Score,
                Outcome::Win(_) => -(WIN_BASE - ply as Score),
                Outcome::Draw => 0,
            };
        }
        if ply > 0 && self.out_of_time() {
            return 0;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return game.evaluate();
        }
        let key = game.hash();
        let mut table_move = None;
        if let Some(e) = self.table.probe(key) {
            table_move = e.best;
            if ply > 0 && e.depth as i32 >= depth {
                let s = from_table(e.score, ply);
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }

        let mut moves = std::mem::take(&mut self.scored[ply]);
        moves.clear();
        {
            let list = &mut self.move_lists[ply];
            list.clear();
            game.legal_moves(list);
            for &m in list.iter() {
                let mut s = game.move_order_hint(m);
                if Some(m) == table_move {
                    s += 1 << 28;
                } else if self.killers[ply][0] == Some(m) {
                    s += 1 << 20;
                } else if self.killers[ply][1] == Some(m) {
                    s += 1 << 19;
                }
                s += self.history[game.history_index(m) % HISTORY_SIZE] / 16;
                moves.push((s, m));
            }
        }
        if moves.is_empty() {
            self.scored[ply] = moves;
            // No legal move: the rules decide (Akron: the mover loses).
            return -(WIN_BASE - ply as Score);
        }
        moves.sort_unstable_by(|a, b| b.0.cmp(&a.0));

        let original_alpha = alpha;
        let mut best_score = -INF;
        let mut best_move = moves[0].1;
        for (i, &(_, m)) in moves.iter().enumerate() {
            game.play(m);
            let score = if i == 0 {
                -self.negamax(game, depth - 1, ply + 1, -beta, -alpha)
            } else {
                let mut s = -self.negamax(game, depth - 1, ply + 1, -alpha - 1, -alpha);
                if s > alpha && s < beta {
                    s = -self.negamax(game, depth - 1, ply + 1, -beta, -alpha);
                }
                s
            };
            game.undo();
            if self.stopped {
                break;
            }
            if score > best_score {
                best_score = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        if self.killers[ply][0] != Some(m) {
                            self.killers[ply][1] = self.killers[ply][0];
                            self.killers[ply][0] = Some(m);
                        }
                        let h = &mut self.history[game.history_index(m) % HISTORY_SIZE];
                        *h = (*h + depth * depth).min(1 << 16);
                        break;
                    }
                }
            }
        }
        self.scored[ply] = moves;
        if !self.stopped {
            let bound = if best_score >= beta {
                Bound::Lower
            } else if best_score > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.table.store(
                key,
                depth as i16,
                to_table(best_score, ply),
                bound,
                Some(best_move),
            );
        }
        best_score
    }

    fn principal_variation(&mut self, game: &mut G, max_len: usize) -> Vec<G::Move> {
        let mut pv = Vec::new();
        while pv.len() < max_len && game.outcome().is_none() {
            let Some(m) = self.table.probe(game.hash()).and_then(|e| e.best) else {
                break;
            };
            if !game.is_legal(m) {
                break;
            }
            game.play(m);
            pv.push(m);
        }
        for _ in 0..pv.len() {
            game.undo();
        }
        pv
    }

    /// Nodes visited by the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Time since `start`, for reports.
    pub fn since(start: Instant) -> Duration {
        start.elapsed()
    }
}

/// Writes a line of moves played from `game`.
fn format_line<G: Game>(game: &mut G, line: &[G::Move]) -> Vec<String> {
    let mut out = Vec::with_capacity(line.len());
    for &m in line {
        out.push(game.format_move(m));
        game.play(m);
    }
    for _ in line {
        game.undo();
    }
    out
}

/// Scores as UCI writes them: `cp N`, or `win N` / `loss N` in plies.
pub fn score_text(score: Score) -> String {
    if is_mate(score) {
        let plies = WIN_BASE - score.abs();
        if score > 0 {
            format!("win {plies}")
        } else {
            format!("loss {plies}")
        }
    } else {
        format!("cp {score}")
    }
}

fn to_table(score: Score, ply: usize) -> Score {
    if score >= WIN_BASE - MAX_PLY as Score {
        score + ply as Score
    } else if score <= -(WIN_BASE - MAX_PLY as Score) {
        score - ply as Score
    } else {
        score
    }
}

fn from_table(score: Score, ply: usize) -> Score {
    if score >= WIN_BASE - MAX_PLY as Score {
        score - ply as Score
    } else if score <= -(WIN_BASE - MAX_PLY as Score) {
        score + ply as Score
    } else {
        score
    }
}
