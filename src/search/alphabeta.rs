//! Negamax principal-variation search: iterative deepening with aspiration
//! windows, a shared transposition table, move ordering by killers,
//! countermoves and history (a bonus for the move that cuts, a malus for
//! those tried before it), late-move reductions, reverse futility pruning
//! and razoring near the horizon, mate-distance scores, Lazy SMP over
//! several threads, and the best few root moves on request (multi-PV).

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::tt::{Bound, Entry, Table};
use super::{
    Evaluator, Line, Progress, Score, SearchLimits, SearchResult, Tuning, WIN_BASE, proven_plies,
    search_score,
};
use crate::game::{Effort, Game, Outcome};

/// Deepest ply the searcher ever reaches.
pub const MAX_PLY: usize = 128;
const INF: Score = WIN_BASE + 1;
const HISTORY_SIZE: usize = 4096;
/// History scores stay within ±this.
const HISTORY_LIMIT: i32 = 1 << 16;
/// Moves of a node remembered for the history malus (later ones go
/// without it).
const TRIED_MAX: usize = 64;
/// Entries of each thread's evaluation cache (a power of two).
const EVAL_CACHE: usize = 1 << 16;
/// Late-move reductions apply from this depth...
const LMR_DEPTH: i32 = 3;
/// ...to moves after this many.
const LMR_MOVES: usize = 4;
/// Divisor of the late-move reduction formula (smaller reduces more).
const LMR_DIVISOR: f64 = 1.0;
/// Reverse futility pruning applies up to this depth (with the margin a
/// ply of [`Tuning::futility_margin`]).
const FUTILITY_DEPTH: i32 = 2;
/// Half-width of the first aspiration window.
const ASPIRATION: Score = 60;
/// Most lines a multi-PV search reports ([`AlphaBeta::multipv`]).
pub const MAX_MULTIPV: usize = 10;
/// Megabytes of the table the further lines of a multi-PV search store
/// in (the main table stays the first line's).
const SIDE_TABLE_MB: usize = 4;

/// Whether a score is a proven win or loss.
pub fn is_mate(score: Score) -> bool {
    score.abs() >= WIN_BASE - MAX_PLY as Score
}

/// Whether a score is a proven loss for the side it belongs to.
fn is_lost(score: Score) -> bool {
    score <= -(WIN_BASE - MAX_PLY as Score)
}

/// A finished iteration: best move, score, depth, principal variation,
/// and with multi-PV the best few root moves (the first being `best`).
#[derive(Clone)]
struct Iteration<M> {
    best: M,
    score: Score,
    depth: u32,
    pv: Vec<M>,
    lines: Vec<Line<M>>,
}

/// The alpha-beta searcher for one game type. It keeps its transposition
/// table between searches.
pub struct AlphaBeta<G: Game> {
    table: Arc<Table<G::Move>>,
    /// Search threads (Lazy SMP); 1 searches on the calling thread only.
    pub threads: usize,
    /// Whether a win found is checked for a faster one before it is played
    /// ([`super::mate::fastest_win`]; on by default).
    pub confirm_fastest: bool,
    hash_mb: usize,
    /// Each thread's evaluation cache, kept between searches: the next
    /// move's search meets many positions the last one evaluated.
    eval_caches: Vec<Vec<(u64, Score)>>,
    /// The next search begins by telling the evaluation to forget what it
    /// keeps between positions ([`Evaluator::forget`]): set by a new
    /// searcher and by [`AlphaBeta::clear`] (a new game), as the table is
    /// new then.
    forget: bool,
    /// How many of the best root moves each iteration reports, with exact
    /// scores (multi-PV; 1 to [`MAX_MULTIPV`], 1 by default). The first
    /// line is searched exactly as with 1; each further one searches the
    /// root again without the moves already found (with its own aspiration
    /// window), storing in a table of its own and restoring the move
    /// ordering's history afterwards, so on one thread the move chosen and
    /// its score at each depth stay those of a search with 1 line.
    pub multipv: usize,
}

/// What the threads of one search share besides the table.
struct Shared<M> {
    /// Set when the search must end.
    stop: AtomicBool,
    /// Nodes counted so far (each thread adds its own now and then).
    nodes: AtomicU64,
    /// The depth of the main thread's running iteration: odd-numbered
    /// helpers search one ply deeper.
    main_depth: AtomicU32,
    /// The deepest iteration a helper has completed: played instead of the
    /// main thread's when it is deeper.
    deepest: Mutex<Option<Iteration<M>>>,
}

impl<M> Shared<M> {
    /// The state of a search about to start.
    fn new() -> Self {
        Shared {
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            main_depth: AtomicU32::new(0),
            deepest: Mutex::new(None),
        }
    }
}

impl<M: Copy + PartialEq> Iteration<M> {
    /// Makes the lines (multi-PV) start with the move chosen, when it was
    /// changed after they were found (an unfinished iteration's better
    /// move, a faster win): the chosen move's line first, then the others,
    /// as many lines as before (the last goes when the chosen move had
    /// none).
    fn lead_lines(&mut self) {
        if self.lines.is_empty() || self.lines[0].pv.first() == Some(&self.best) {
            return;
        }
        let best = self.best;
        let count = self.lines.len();
        self.lines.retain(|l| l.pv.first() != Some(&best));
        self.lines.insert(
            0,
            Line {
                score: self.score,
                pv: self.pv.clone(),
            },
        );
        self.lines.truncate(count);
    }
}

/// The per-thread state of a search.
struct Worker<'a, G: Game, E> {
    id: usize,
    eval: &'a E,
    /// The evaluation's pruning margins and limits.
    tuning: Tuning,
    /// How moves are made inside the search ([`Tuning::rule_effort`]).
    effort: Effort,
    table: &'a Table<G::Move>,
    shared: &'a Shared<G::Move>,
    deadline: Option<Instant>,
    /// Set from outside to stop the search ([`SearchLimits::interrupt`]).
    interrupt: Option<&'a AtomicBool>,
    /// Search on to the deadline ([`SearchLimits::to_deadline`]).
    to_deadline: bool,
    nodes: u64,
    killers: Vec<[Option<G::Move>; 2]>,
    history: Vec<i32>,
    /// Countermoves: by the history slot of a move, the reply that last
    /// cut off after it.
    counter: Vec<Option<G::Move>>,
    /// By ply, the history slot of the move that led there (none at the
    /// root).
    prev: Vec<Option<usize>>,
    move_lists: Vec<Vec<G::Move>>,
    scored: Vec<Vec<(Score, G::Move)>>,
    /// Static evaluations by hash: placement games reach the same leaf by
    /// many move orders.
    eval_cache: &'a mut [(u64, Score)],
    /// Set from the start of the first iteration until its first root
    /// move is searched: there must be a move.
    must_finish: bool,
    /// Set while the main thread's first iteration runs.
    first_iteration: bool,
    /// Threat extensions stop at this ply (twice the iteration's depth).
    extend_below: usize,
    /// Late-move reductions by depth and move number.
    reductions: Box<[[i32; 256]; 64]>,
    /// The best root move of the running iteration so far, once it is
    /// proven better than the move the iteration began with (a move other
    /// than the first has beaten alpha), or, in the first iteration, which
    /// has none to beat, once a move is searched.
    root_partial: Option<(G::Move, Score)>,
    /// The best move of this thread's last completed root search. The
    /// table's root entry may be another thread's by then.
    root_best: Option<G::Move>,
    /// How many lines each iteration reports (multi-PV; the main thread
    /// only): at most the number of root moves.
    multipv: usize,
    /// Whether lines are reported at all (more than one asked for).
    report_lines: bool,
    /// Root moves left out of the root search: the lines already found in
    /// this iteration of a multi-PV search.
    excluded: Vec<G::Move>,
    /// The table the searches for further lines store in (probed before
    /// the main one), so that the first line's searches meet the main
    /// table as they would without multi-PV.
    side: Option<&'a Table<G::Move>>,
    /// For games whose positions can repeat ([`Game::CAN_REPEAT`]): the
    /// hashes of the game's positions before the root, and of the
    /// positions on the path from the root (by ply). A node whose position
    /// stands among them is a draw.
    before_root: &'a [u64],
    path: Vec<u64>,
}

impl<G: Game> AlphaBeta<G> {
    /// A searcher with a transposition table of about `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Self {
        AlphaBeta {
            table: Arc::new(Table::new(hash_mb)),
            threads: 1,
            confirm_fastest: true,
            hash_mb,
            eval_caches: Vec::new(),
            forget: true,
            multipv: 1,
        }
    }

    /// Resizes (and clears) the transposition table. A size the machine's
    /// memory cannot hold (more than the memory available, counting the
    /// present table's as freed) is refused; on any failure the old table
    /// stays. The new table's memory is committed only as searches fill it.
    pub fn set_hash_mb(&mut self, mb: usize) -> Result<(), String> {
        if mb == self.hash_mb {
            return Ok(());
        }
        super::tt::check_table_size(mb, self.table.bytes() / (1024 * 1024))?;
        self.table = Arc::new(Table::try_new(mb)?);
        self.hash_mb = mb;
        Ok(())
    }

    /// Gives back the memory searches filled: a fresh table of the same
    /// size (committed only as it is used again) replaces the table, and
    /// the evaluation caches are emptied. What was learnt is forgotten. On
    /// failure the old table stays.
    pub fn release_memory(&mut self) {
        if let Ok(t) = Table::try_new(self.hash_mb) {
            self.table = Arc::new(t);
        }
        self.eval_caches = Default::default();
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {
        if let Some(t) = Arc::get_mut(&mut self.table) {
            t.clear();
        }
        self.eval_caches.clear();
        self.forget = true;
    }

    /// Searches `game` with `eval` within `limits`, telling `progress` of
    /// each iteration the main thread completes. Returns `None` only when
    /// the side to move has no legal move (or the game is over). The
    /// position is left as it was.
    pub fn search<E: Evaluator<G>>(
        &mut self,
        game: &mut G,
        eval: &E,
        limits: &SearchLimits,
        progress: Progress<'_, G>,
    ) -> Option<SearchResult<G::Move>> {
        let mut root_moves = Vec::new();
        game.legal_moves(&mut root_moves);
        if root_moves.is_empty() || game.outcome().is_some() {
            return None;
        }
        if let Some(t) = Arc::get_mut(&mut self.table) {
            t.new_search();
        }
        // Helper threads are new each search; the main thread (this one)
        // forgets with the table.
        if std::mem::take(&mut self.forget) {
            eval.forget();
        }
        let shared = Shared::new();
        let before_root = if G::CAN_REPEAT {
            positions_before(game)
        } else {
            Vec::new()
        };
        let before_root = &before_root[..];
        let max_depth = limits.max_depth.clamp(1, (MAX_PLY - 8) as u32);
        let table = &*self.table;
        let threads = self.threads.max(1);
        if self.eval_caches.len() < threads {
            self.eval_caches
                .resize_with(threads, || vec![(0, 0); EVAL_CACHE]);
        }
        let multipv = self.multipv.clamp(1, MAX_MULTIPV);
        let side = (multipv > 1)
            .then(|| Table::try_new(SIDE_TABLE_MB).ok())
            .flatten();
        let (main_cache, helper_caches) = self
            .eval_caches
            .split_first_mut()
            .expect("one cache a thread");
        let best = std::thread::scope(|scope| {
            for (id, cache) in (1..threads).zip(helper_caches.iter_mut()) {
                let mut copy = game.clone();
                let shared = &shared;
                scope.spawn(move || {
                    let mut w = Worker::new(id, eval, table, shared, limits, before_root, cache);
                    w.iterate(&mut copy, max_depth, limits.start, None);
                    w.flush_nodes();
                });
            }
            let mut w = Worker::new(0, eval, table, &shared, limits, before_root, main_cache);
            w.multipv = multipv.min(root_moves.len());
            w.report_lines = multipv > 1;
            w.side = side.as_ref();
            let best = w.iterate(game, max_depth, limits.start, Some(progress));
            w.flush_nodes();
            shared.stop.store(true, Ordering::Relaxed);
            best
        });
        // A helper's completed iteration deeper than the main thread's
        // is played instead.
        let deepest = shared
            .deepest
            .into_inner()
            .unwrap_or_else(|e| e.into_inner());
        let best = match (best, deepest) {
            (Some(b), Some(d)) if d.depth > b.depth => Some(d),
            (None, d) => d,
            (b, _) => b,
        };
        let mut it = best.unwrap_or_else(|| Iteration {
            best: root_moves[0],
            score: 0,
            depth: 0,
            pv: vec![root_moves[0]],
            lines: Vec::new(),
        });
        // A win is played only once no faster one exists: the selective
        // search may have proved a win in k plies where a full-width
        // search finds a faster one (or confirms there is none).
        if self.confirm_fastest && is_mate(it.score) && it.score > 0 {
            let plies = (WIN_BASE - it.score) as u32;
            if plies > 1
                && let Ok(Some((mv, fastest))) =
                    super::mate::fastest_win(game, plies - 2, limits, Some(it.best))
            {
                it.best = mv;
                it.score = WIN_BASE - fastest as Score;
                it.pv = vec![mv];
            }
        }
        it.lead_lines();
        Some(SearchResult {
            best: it.best,
            score: it.score,
            depth: it.depth,
            nodes: shared.nodes.load(Ordering::Relaxed),
            elapsed: limits.start.elapsed(),
            pv: it.pv,
            lines: it.lines,
        })
    }
}

impl<'a, G: Game, E: Evaluator<G>> Worker<'a, G, E> {
    fn new(
        id: usize,
        eval: &'a E,
        table: &'a Table<G::Move>,
        shared: &'a Shared<G::Move>,
        limits: &'a SearchLimits,
        before_root: &'a [u64],
        eval_cache: &'a mut [(u64, Score)],
    ) -> Self {
        let tuning = eval.tuning();
        Worker {
            id,
            eval,
            tuning,
            effort: tuning.effort(),
            table,
            shared,
            deadline: limits.deadline(),
            interrupt: limits.interrupt.as_deref(),
            to_deadline: limits.to_deadline,
            nodes: 0,
            killers: vec![[None; 2]; MAX_PLY],
            history: vec![0; HISTORY_SIZE],
            counter: vec![None; HISTORY_SIZE],
            prev: vec![None; MAX_PLY + 1],
            move_lists: (0..MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            scored: (0..MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            eval_cache,
            must_finish: false,
            first_iteration: false,
            extend_below: 0,
            root_partial: None,
            root_best: None,
            multipv: 1,
            report_lines: false,
            excluded: Vec::new(),
            side: None,
            before_root,
            path: vec![0; MAX_PLY + 1],
            reductions: reduction_table(),
        }
    }

    fn flush_nodes(&mut self) {
        self.shared.nodes.fetch_add(self.nodes, Ordering::Relaxed);
        self.nodes = 0;
    }

    /// Iterative deepening. Helper threads (id > 0) start at staggered
    /// depths so that they fill the table ahead of the main thread.
    fn iterate(
        &mut self,
        game: &mut G,
        max_depth: u32,
        start: Instant,
        mut progress: Option<Progress<'_, G>>,
    ) -> Option<Iteration<G::Move>> {
        let mut best: Option<Iteration<G::Move>> = None;
        let first = 1 + (self.id % 2) as u32;
        let mut depth = first.min(max_depth);
        let mut last_cost: Option<Duration> = None;
        while depth <= max_depth {
            let iteration_start = Instant::now();
            if self.id == 0 {
                self.shared.main_depth.store(depth, Ordering::Relaxed);
            }
            // The first iteration runs at least until its first root move
            // is searched: there must be a move.
            self.first_iteration = best.is_none() && self.id == 0;
            self.must_finish = self.first_iteration;
            self.root_partial = None;
            self.root_best = None;
            self.extend_below = 2 * depth as usize;
            let score = match &best {
                Some(prev) if depth >= 4 && !is_mate(prev.score) => {
                    self.aspiration(game, depth, prev.score)
                }
                _ => self.negamax(game, depth as i32, 0, -INF, INF),
            };
            self.must_finish = false;
            self.first_iteration = false;
            if self.shared.stop.load(Ordering::Relaxed)
                && (best.is_some() || self.root_partial.is_some())
            {
                // An unfinished iteration still proves the root moves it
                // searched: a move that beat the first one's bound is better.
                // An unfinished first iteration (the clock ran out on a
                // board with many moves) gives the best move it searched,
                // at depth 0: no iteration was completed.
                match (self.root_partial, best.as_mut()) {
                    (Some((mv, s)), Some(b)) if mv != b.best => {
                        b.best = mv;
                        b.score = s;
                        b.pv = vec![mv];
                    }
                    (Some((mv, s)), None) => {
                        best = Some(Iteration {
                            best: mv,
                            score: s,
                            depth: 0,
                            pv: vec![mv],
                            lines: Vec::new(),
                        });
                    }
                    _ => {}
                }
                break;
            }
            let Some(mut it) = self.completed(game, depth, score) else {
                break;
            };
            if self.report_lines {
                let previous = best.as_ref().map_or(&[][..], |b| &b.lines[..]);
                let guesses: Vec<Score> = previous.iter().map(|l| l.score).collect();
                let mut lines = self.more_lines(game, depth, &it, &guesses);
                // Interrupted, the lines not searched again are the last
                // iteration's.
                for l in previous {
                    if lines.len() >= self.multipv {
                        break;
                    }
                    if !lines.iter().any(|x| x.pv.first() == l.pv.first()) {
                        lines.push(l.clone());
                    }
                }
                lines[1..].sort_by_key(|l| std::cmp::Reverse(l.score));
                it.lines = lines;
            }
            best = Some(it);
            if self.id > 0 {
                let mut deepest = self
                    .shared
                    .deepest
                    .lock()
                    .unwrap_or_else(|e| e.into_inner());
                if deepest.as_ref().is_none_or(|d| d.depth < depth) {
                    *deepest = best.clone();
                }
            }
            if let Some(report) = progress.as_mut() {
                let it = best.as_ref().expect("just set");
                report(
                    game,
                    &SearchResult {
                        best: it.best,
                        score: it.score,
                        depth: it.depth,
                        nodes: self.shared.nodes.load(Ordering::Relaxed) + self.nodes,
                        elapsed: start.elapsed(),
                        pv: it.pv.clone(),
                        lines: it.lines.clone(),
                    },
                );
            }
            if is_mate(score) || self.shared.stop.load(Ordering::Relaxed) {
                break;
            }
            let cost = iteration_start.elapsed();
            if let Some(deadline) = self.deadline
                && self.id == 0
                && !self.to_deadline
            {
                // Predict the next iteration from how the last ones grew; do
                // not start one that has little chance to finish: the time
                // saved stays on the clock. (Searching on to the deadline,
                // an unfinished iteration still gives the root moves it
                // proved better.)
                let growth = match last_cost {
                    Some(prev) if prev > Duration::ZERO => {
                        (cost.as_secs_f64() / prev.as_secs_f64()).clamp(2.0, 40.0)
                    }
                    _ => 4.0,
                };
                let left = deadline.saturating_duration_since(Instant::now());
                if left.as_secs_f64() < 0.4 * growth * cost.as_secs_f64() {
                    break;
                }
            }
            last_cost = Some(cost);
            depth += if self.id == 0 {
                1
            } else {
                1 + self.id.is_multiple_of(3) as u32
            };
            if self.id % 2 == 1 {
                // Odd-numbered helpers keep a ply ahead of the main thread.
                depth = depth.max(self.shared.main_depth.load(Ordering::Relaxed) + 1);
            }
        }
        best
    }

    /// The iteration this thread's root search just completed: its own best
    /// move (the table's root entry may be another thread's by then), then
    /// the table's line.
    fn completed(&self, game: &mut G, depth: u32, score: Score) -> Option<Iteration<G::Move>> {
        let mv = self.root_best?;
        Some(Iteration {
            best: mv,
            score,
            depth,
            pv: principal_variation(&[self.table], game, mv, depth as usize + 4, self.effort),
            lines: Vec::new(),
        })
    }

    /// The lines of a multi-PV iteration of `depth` whose first line is
    /// `first`: each further line searches the root again without the
    /// moves already found, within an aspiration window around `guesses`
    /// (the last iteration's scores, by line) from depth 4, and takes the
    /// best of the rest with its exact score. Those searches store in the
    /// side table and the move ordering's history is restored after them,
    /// so the next iteration's first line is searched as without them.
    /// Interrupted, it gives the lines completed.
    fn more_lines(
        &mut self,
        game: &mut G,
        depth: u32,
        first: &Iteration<G::Move>,
        guesses: &[Score],
    ) -> Vec<Line<G::Move>> {
        let mut lines = vec![Line {
            score: first.score,
            pv: first.pv.clone(),
        }];
        let saved = (
            self.killers.clone(),
            self.history.clone(),
            self.counter.clone(),
            self.root_best,
            self.root_partial,
        );
        self.excluded.push(first.best);
        while lines.len() < self.multipv {
            self.root_best = None;
            let score = match guesses.get(lines.len()) {
                Some(&guess) if depth >= 4 && !is_mate(guess) => {
                    self.aspiration(game, depth, guess)
                }
                _ => self.negamax(game, depth as i32, 0, -INF, INF),
            };
            let Some(mv) = self.root_best.filter(|_| !self.stopped()) else {
                break;
            };
            let tables: Vec<&Table<G::Move>> = self.side.into_iter().chain([self.table]).collect();
            let pv = principal_variation(&tables, game, mv, depth as usize + 4, self.effort);
            lines.push(Line { score, pv });
            self.excluded.push(mv);
        }
        self.excluded.clear();
        (
            self.killers,
            self.history,
            self.counter,
            self.root_best,
            self.root_partial,
        ) = saved;
        lines
    }

    /// A table entry for `key`: while further lines of a multi-PV search
    /// are searched, the side table's first.
    #[inline]
    fn probe(&self, key: u64) -> Option<Entry<G::Move>> {
        if let Some(side) = self.side
            && !self.excluded.is_empty()
            && let Some(e) = side.probe(key)
        {
            return Some(e);
        }
        self.table.probe(key)
    }

    /// Stores a result: in the side table while further lines of a
    /// multi-PV search are searched, else in the main table.
    #[inline]
    fn store(&self, key: u64, depth: i32, score: Score, bound: Bound, best: G::Move) {
        let table = match self.side {
            Some(side) if !self.excluded.is_empty() => side,
            _ => self.table,
        };
        table.store(key, depth as i16, score, bound, Some(best));
    }

    /// The static evaluation, through the cache.
    #[inline]
    fn static_eval(&mut self, game: &G, key: u64) -> Score {
        let slot = &mut self.eval_cache[key as usize & (EVAL_CACHE - 1)];
        if slot.0 == key {
            slot.1
        } else {
            let e = self.eval.evaluate(game);
            *slot = (key, e);
            e
        }
    }

    fn aspiration(&mut self, game: &mut G, depth: u32, guess: Score) -> Score {
        let mut delta = ASPIRATION;
        let (mut alpha, mut beta) = (guess - delta, guess + delta);
        loop {
            let s = self.negamax(game, depth as i32, 0, alpha, beta);
            if self.stopped() {
                return s;
            }
            if s <= alpha {
                alpha = (s - delta).max(-INF);
            } else if s >= beta {
                beta = (s + delta).min(INF);
            } else {
                return s;
            }
            delta *= 4;
            if delta > 2000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    /// Whether the search must stop now (never during the first iteration).
    #[inline]
    fn stopped(&self) -> bool {
        !self.must_finish && self.shared.stop.load(Ordering::Relaxed)
    }

    /// Checks the clock every 16 nodes (on large boards a node can cost a
    /// fifth of a millisecond), or at every node when the tuning says
    /// nodes are costly.
    #[inline]
    fn out_of_time(&mut self) -> bool {
        if self.nodes & 15 == 0 || self.tuning.costly_nodes {
            self.shared.nodes.fetch_add(self.nodes, Ordering::Relaxed);
            self.nodes = 0;
            let timed_out = self.deadline.is_some_and(|d| Instant::now() >= d);
            let interrupted = self.interrupt.is_some_and(|i| i.load(Ordering::Relaxed));
            if (timed_out || interrupted) && !self.must_finish {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
        self.stopped()
    }

    /// The score of a node: a principal-variation search of `depth` plies
    /// below it (`ply` from the root) within the window (`alpha`, `beta`).
    /// Its steps, in order: a finished game's score; the clock; the threat
    /// extension and the horizon; mate-distance pruning; the table;
    /// pruning near the horizon; the moves, ordered; each move searched
    /// (late moves pruned, reduced or re-searched); the table store.
    fn negamax(
        &mut self,
        game: &mut G,
        mut depth: i32,
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
        if G::CAN_REPEAT {
            // A position that came before is a draw: the side that could
            // win gains nothing by going round, the losing side may.
            let key = game.hash();
            if ply > 0 && (self.path[..ply].contains(&key) || self.before_root.contains(&key)) {
                return 0;
            }
            self.path[ply] = key;
        }
        if depth <= 0 && ply < self.extend_below && self.eval.opponent_threatens(game) {
            // The side to move must answer a threat: one more ply.
            depth = 1;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            let e = self.static_eval(game, game.hash());
            return search_score(e, ply as Score);
        }
        // Mate-distance pruning: no line from here beats a win already found
        // closer to the root.
        let best_possible = WIN_BASE - (ply + 1) as Score;
        if alpha >= best_possible {
            return alpha;
        }
        let key = game.hash();
        let mut table_move = None;
        if let Some(e) = self.probe(key) {
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
        // Knowledge beyond the score (the evaluation's connections) at the
        // root and where enough plies are left to pay for it.
        let knowing = self
            .tuning
            .knowledge_depth
            .is_some_and(|d| ply == 0 || depth >= d);
        if knowing
            && ply > 0
            && let Some((wins, plies)) = self.eval.proven_result(game)
        {
            let plies = Score::try_from(plies).unwrap_or(Score::MAX);
            let distance = ply as Score + plies.clamp(1, (MAX_PLY - 1 - ply) as Score);
            return if wins {
                WIN_BASE - distance
            } else {
                -(WIN_BASE - distance)
            };
        }
        let late_moves = match self.prune_near_horizon(game, key, depth, ply, alpha, beta) {
            Pruning::Cut(score) => return score,
            Pruning::Search { late_moves } => late_moves,
        };

        let mut moves = std::mem::take(&mut self.scored[ply]);
        self.order_moves(game, ply, table_move, knowing, &mut moves);
        if moves.is_empty() {
            self.scored[ply] = moves;
            // No legal move: the mover loses (Akron's rule; the other games
            // always have a move while they go on).
            return -(WIN_BASE - ply as Score);
        }

        let original_alpha = alpha;
        let mut best_score = -INF;
        let mut best_move = moves[0].1;
        // The late moves that may threaten to win at once, asked for when
        // the first late move comes (in the move list, free by then):
        // whether the evaluation could tell.
        let mut threats = std::mem::take(&mut self.move_lists[ply]);
        let mut threats_told = None;
        // History slots of the moves searched here so far.
        let mut tried = [0usize; TRIED_MAX];
        let mut tried_n = 0;
        // Whether the moves are the evaluation's candidates only: a node
        // is proven lost only when every legal move loses, so when every
        // candidate loses the others are searched too.
        let mut only_candidates = ply > 0 || self.tuning.costly_nodes;
        let mut next = 0;
        loop {
            if next == moves.len() {
                if !(only_candidates && is_lost(best_score)) || self.stopped() {
                    break;
                }
                only_candidates = false;
                let searched = moves.len();
                let mut all = std::mem::take(&mut self.move_lists[ply]);
                all.clear();
                game.legal_moves(&mut all);
                if ply == 0 {
                    let excluded = &self.excluded;
                    all.retain(|m| !excluded.contains(m));
                }
                if knowing {
                    self.eval.prune_by_knowledge(game, &mut all);
                }
                for &m in &all {
                    if !moves[..searched].iter().any(|&(_, c)| c == m) {
                        moves.push((0, m));
                    }
                }
                self.move_lists[ply] = all;
                if next == moves.len() {
                    break;
                }
            }
            let (i, m) = (next, moves[next].1);
            next += 1;
            let hi = self.eval.history_index(game, m);
            self.prev[ply + 1] = Some(hi);
            // A late move is pruned unless it threatens to connect at once
            // (the threat may be double: a win the search must see).
            if i >= late_moves && !is_mate(best_score) {
                let told = *threats_told.get_or_insert_with(|| {
                    threats.clear();
                    self.eval.late_move_threats(game, &mut threats)
                });
                if told && !threats.contains(&m) {
                    continue;
                }
                game.play_with(m, self.effort);
                if !self.eval.opponent_threatens(game) {
                    game.undo();
                    continue;
                }
            } else {
                game.play_with(m, self.effort);
            }
            let score = self.search_move(game, depth, ply, i, alpha, beta);
            game.undo();
            if self.stopped() {
                break;
            }
            if score > best_score {
                best_score = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    if ply == 0 && (i > 0 || self.first_iteration) {
                        self.root_partial = Some((m, score));
                    }
                    if alpha >= beta {
                        self.reward_cutoff(ply, depth, m, hi, &tried[..tried_n]);
                        break;
                    }
                }
            }
            if tried_n < tried.len() {
                tried[tried_n] = hi;
                tried_n += 1;
            }
            // A root move is searched: the clock may stop the search now.
            if ply == 0 {
                self.must_finish = false;
            }
        }
        self.move_lists[ply] = threats;
        self.scored[ply] = moves;
        if !self.stopped() {
            if ply == 0 {
                self.root_best = Some(best_move);
            }
            let bound = if best_score >= beta {
                Bound::Lower
            } else if best_score > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.store(key, depth, to_table(best_score, ply), bound, best_move);
        }
        best_score
    }

    /// Reverse futility pruning: close to the horizon, a static score that
    /// beats beta by a margin for each ply left is taken as a fail-high;
    /// razoring: one ply from it, a static score that falls short of alpha
    /// by its margin is taken as a fail-low; late-move pruning: close to
    /// the horizon, only the first moves are searched, and of the later
    /// ones those that threaten to connect at once. None of them while the
    /// opponent threatens to connect at once or the static score is a
    /// proven result. The evaluation's [`Tuning`] sets the margins and the
    /// move limit, or leaves them out.
    fn prune_near_horizon(
        &mut self,
        game: &G,
        key: u64,
        depth: i32,
        ply: usize,
        alpha: Score,
        beta: Score,
    ) -> Pruning {
        let near_horizon = ply > 0 && depth <= FUTILITY_DEPTH;
        let tuning = self.tuning;
        let futility = near_horizon.then_some(tuning.futility_margin).flatten();
        let razor = (near_horizon && depth == 1)
            .then_some(tuning.razor_margin)
            .flatten();
        let late_move_limit = near_horizon.then_some(tuning.late_move_limit).flatten();
        // Moves searched here before the rest are pruned (all of them
        // unless late-move pruning applies).
        let mut late_moves = usize::MAX;
        if (futility.is_some() || razor.is_some() || late_move_limit.is_some())
            && !self.eval.opponent_threatens(game)
        {
            let e = self.static_eval(game, key);
            if proven_plies(e).is_none() {
                if let Some(n) = late_move_limit {
                    late_moves = n.max(1) * (depth * depth) as usize;
                }
                if let Some(margin) = futility
                    && !is_mate(beta)
                    && e - margin * depth >= beta
                {
                    return Pruning::Cut(e - margin * depth);
                }
                if let Some(margin) = razor
                    && !is_mate(alpha)
                    && e + margin <= alpha
                    && self.eval.razor_allowed(game)
                {
                    return Pruning::Cut(e + margin);
                }
            }
        }
        Pruning::Search { late_moves }
    }

    /// Fills `moves` with the moves to search at `ply`, each with its
    /// ordering score, best first: the table's move, the killers, the
    /// countermove, then history and the evaluation's hint. Below the root
    /// only the evaluation's candidate moves; at the root every legal move,
    /// and in the first iteration the candidates before the rest (if the
    /// clock cuts that iteration short, the moves it searched hold every
    /// move that wins or stops a win). When `knowing`, the moves the
    /// evaluation's knowledge prunes are left out (if that leaves none of
    /// the candidates, the legal moves are pruned instead; if none of them
    /// either, all are kept).
    fn order_moves(
        &mut self,
        game: &G,
        ply: usize,
        table_move: Option<G::Move>,
        knowing: bool,
        moves: &mut Vec<(Score, G::Move)>,
    ) {
        moves.clear();
        let list = &mut self.move_lists[ply];
        list.clear();
        // The root's moves `multipv` has already given a line.
        let excluded: &[G::Move] = if ply == 0 { &self.excluded } else { &[] };
        let mut candidate = Vec::new();
        if ply == 0 && !self.tuning.costly_nodes {
            if self.first_iteration {
                candidate = vec![false; HISTORY_SIZE];
                self.eval.candidate_moves(game, list);
                for &m in list.iter() {
                    candidate[self.eval.history_index(game, m) % HISTORY_SIZE] = true;
                }
                list.clear();
            }
            legal_moves_but(game, list, excluded);
        } else {
            if ply == 0 {
                self.eval.root_candidate_moves(game, list);
            } else {
                self.eval.candidate_moves(game, list);
            }
            if !excluded.is_empty() {
                list.retain(|m| !excluded.contains(m));
            }
        }
        if knowing {
            self.eval.prune_by_knowledge(game, list);
            // Knowledge that leaves nothing falls back on every legal move
            // (then on them unpruned), never on the root's excluded ones.
            if list.is_empty() {
                legal_moves_but(game, list, excluded);
                self.eval.prune_by_knowledge(game, list);
                if list.is_empty() {
                    legal_moves_but(game, list, excluded);
                }
            }
        }
        // The reply that last cut off after the move that led here.
        let counter_move = self.prev[ply].and_then(|p| self.counter[p % HISTORY_SIZE]);
        for &m in list.iter() {
            let slot = self.eval.history_index(game, m) % HISTORY_SIZE;
            let mut s = self.eval.move_order_hint(game, m);
            if !candidate.is_empty() && candidate[slot] {
                s += 1 << 24;
            }
            if Some(m) == table_move {
                s += 1 << 28;
            } else if self.killers[ply][0] == Some(m) {
                s += 1 << 20;
            } else if self.killers[ply][1] == Some(m) {
                s += 1 << 19;
            } else if counter_move == Some(m) {
                s += 1 << 18;
            }
            s += self.history[slot] / 16;
            moves.push((s, m));
        }
        moves.sort_unstable_by_key(|&(s, _)| std::cmp::Reverse(s));
    }

    /// The score of the `i`-th move of a node, just made: the first with
    /// the full window; the others with a null window first, reduced when
    /// late (late-move reductions), and searched again in full only if
    /// they beat alpha.
    fn search_move(
        &mut self,
        game: &mut G,
        depth: i32,
        ply: usize,
        i: usize,
        alpha: Score,
        beta: Score,
    ) -> Score {
        if i == 0 {
            return -self.negamax(game, depth - 1, ply + 1, -beta, -alpha);
        }
        let reduction = if depth >= LMR_DEPTH && i >= LMR_MOVES {
            self.reductions[(depth as usize).min(63)][i.min(255)]
        } else {
            0
        };
        let mut s = -self.negamax(game, depth - 1 - reduction, ply + 1, -alpha - 1, -alpha);
        if reduction > 0 && s > alpha {
            s = -self.negamax(game, depth - 1, ply + 1, -alpha - 1, -alpha);
        }
        if s > alpha && s < beta {
            s = -self.negamax(game, depth - 1, ply + 1, -beta, -alpha);
        }
        s
    }

    /// Learns from move `m` (history slot `hi`) cutting off at `ply`: a
    /// history malus for the moves `tried` before it, the countermove of
    /// the move that led here, the killers, and a history bonus.
    fn reward_cutoff(&mut self, ply: usize, depth: i32, m: G::Move, hi: usize, tried: &[usize]) {
        for &q in tried {
            let h = &mut self.history[q % HISTORY_SIZE];
            *h = (*h - depth * depth).max(-HISTORY_LIMIT);
        }
        if let Some(p) = self.prev[ply] {
            self.counter[p % HISTORY_SIZE] = Some(m);
        }
        if self.killers[ply][0] != Some(m) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(m);
        }
        let h = &mut self.history[hi % HISTORY_SIZE];
        *h = (*h + depth * depth).min(HISTORY_LIMIT);
    }
}

/// What pruning near the horizon decided for a node.
enum Pruning {
    /// The node's score, without a search.
    Cut(Score),
    /// Search it; of the moves after the first `late_moves` only those
    /// that threaten to win at once.
    Search {
        /// How many moves are searched before late-move pruning.
        late_moves: usize,
    },
}

/// The hashes of the positions of `game`'s history before the present one
/// (moves and handed-over turns taken back one by one on a copy).
fn positions_before<G: Game>(game: &G) -> Vec<u64> {
    let mut g = game.clone();
    let mut out = Vec::with_capacity(g.moves_played());
    while g.moves_played() > 0 {
        g.undo();
        out.push(g.hash());
    }
    out
}

/// Late-move reductions: about ln(depth) * ln(move number) / LMR_DIVISOR
/// plies, at least one, and always leaving at least one ply to search.
fn reduction_table() -> Box<[[i32; 256]; 64]> {
    let mut t = Box::new([[0; 256]; 64]);
    for (depth, row) in t.iter_mut().enumerate() {
        for (i, r) in row.iter_mut().enumerate() {
            if depth >= 2 && i >= 1 {
                let x = (depth as f64).ln() * (i as f64).ln() / LMR_DIVISOR;
                *r = (x.round() as i32).min(depth as i32 - 2).max(1);
            }
        }
    }
    t
}

/// The line from `game` that starts with `first` and goes on with the
/// best moves stored in the tables (the first that has the position).
fn principal_variation<G: Game>(
    tables: &[&Table<G::Move>],
    game: &mut G,
    first: G::Move,
    max_len: usize,
    effort: Effort,
) -> Vec<G::Move> {
    let mut pv = vec![first];
    game.play_with(first, effort);
    while pv.len() < max_len && game.outcome().is_none() {
        let key = game.hash();
        let Some(m) = tables
            .iter()
            .find_map(|t| t.probe(key))
            .and_then(|e| e.best)
        else {
            break;
        };
        if !game.is_legal(m) {
            break;
        }
        game.play_with(m, effort);
        pv.push(m);
    }
    for _ in 0..pv.len() {
        game.undo();
    }
    pv
}

/// Scores as the `info` lines write them: `cp N`, or `win N` / `loss N`
/// with N the plies to the end.
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

/// `game`'s legal moves into `list`, but none of `excluded`.
fn legal_moves_but<G: Game>(game: &G, list: &mut Vec<G::Move>, excluded: &[G::Move]) {
    game.legal_moves(list);
    if !excluded.is_empty() {
        list.retain(|m| !excluded.contains(m));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::onyx::{Onyx, Start, TwoDistance};

    /// An unfinished iteration's better move, not among the last
    /// iteration's lines, leads them and the count stays (it was one line
    /// too many: the browser board drew four candidates of three).
    #[test]
    fn a_better_move_leads_the_lines_and_keeps_their_count() {
        let line = |m: u8, score: Score| Line { score, pv: vec![m] };
        let mut it = Iteration {
            best: 9u8,
            score: 40,
            depth: 3,
            pv: vec![9, 1],
            lines: vec![line(1, 30), line(2, 20), line(3, 10)],
        };
        it.lead_lines();
        let firsts: Vec<u8> = it.lines.iter().map(|l| l.pv[0]).collect();
        assert_eq!(firsts, [9, 1, 2]);
        assert_eq!(it.lines[0].pv, [9, 1]);
        // The chosen move among them: it moves to the front, none is lost.
        it.best = 2;
        it.pv = vec![2];
        it.lead_lines();
        let firsts: Vec<u8> = it.lines.iter().map(|l| l.pv[0]).collect();
        assert_eq!(firsts, [2, 9, 1]);
    }

    /// RULINGS, Onyx: on blank 4×4 these moves bring back after move 25 the
    /// position after move 17. Searched there, the repeated position is a
    /// draw whatever its depth; the same position reached without the
    /// history is scored as usual.
    #[test]
    fn a_repeated_position_is_a_draw_in_the_search() {
        use crate::game::Notation;
        let moves = "D1 D4 C2 A4 A2 C1 B1 B2 B4 A3 B3 A3 B1 B2 C2 D2 C3 B2 B3 C1 A2 A3 C2 B2 B1";
        let mut game = Onyx::new(4, Start::Blank).expect("4x4 board");
        let mut hashes = vec![game.hash()];
        for m in moves.split(' ') {
            let mv = game.parse_move(m).expect("legal");
            game.play(mv);
            hashes.push(game.hash());
        }
        assert_eq!(hashes[25], hashes[17], "RULINGS' cycle");
        let table = Table::new(1);
        let shared = Shared::new();
        let mut cache = vec![(0, 0); EVAL_CACHE];
        let limits = SearchLimits::new(4, None);
        let before = positions_before(&game);
        assert!(before.contains(&hashes[17]));
        let mut w = Worker::new(
            0,
            &TwoDistance,
            &table,
            &shared,
            &limits,
            &before,
            &mut cache,
        );
        for depth in 1..=4 {
            assert_eq!(w.negamax(&mut game, depth, 1, -INF, INF), 0);
        }
        let mut w = Worker::new(0, &TwoDistance, &table, &shared, &limits, &[], &mut cache);
        assert_ne!(w.negamax(&mut game, 2, 1, -INF, INF), 0);
    }

    /// A completed iteration plays the thread's own best root move even
    /// when another thread has since stored a different one at the root
    /// (Lazy SMP helpers share the table).
    #[test]
    fn an_iteration_plays_its_own_root_move_not_the_tables() {
        let mut game = Onyx::new(8, Start::Standard).expect("8x8 board");
        let table = Table::new(1);
        let shared = Shared::new();
        let mut cache = vec![(0, 0); EVAL_CACHE];
        let limits = SearchLimits::new(3, None);
        let mut w = Worker::new(0, &TwoDistance, &table, &shared, &limits, &[], &mut cache);
        let score = w.negamax(&mut game, 3, 0, -INF, INF);
        let own = w
            .root_best
            .expect("a completed root search has a best move");
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let other = *moves.iter().find(|&&m| m != own).expect("two moves");
        // A helper's deeper bound, stored after this thread's result.
        table.store(game.hash(), 60, 0, Bound::Upper, Some(other));
        assert_eq!(table.probe(game.hash()).and_then(|e| e.best), Some(other));
        let it = w.completed(&mut game, 3, score).expect("an iteration");
        assert_eq!(it.best, own);
        assert_eq!(it.pv[0], own);
    }
}
