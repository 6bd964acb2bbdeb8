//! The one facade the protocol talks to: the current game and its history,
//! engine parameters, clocks, and the searcher. Text in, text out: the
//! protocol layer parses commands and formats answers, nothing more. The
//! engine knows the games only through the registry ([`crate::games`]).

pub mod book;
pub mod params;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::game::Color;
use crate::games::{self, GameEntry};
use crate::search::alphabeta::{is_mate, score_text};
use crate::search::{Player, SearchLimits, SearchReport, search_score};
use crate::session::{Options, Rules, SearchRequest, Session, SolveAnswer, Solved};
use crate::timeman::Clock;
pub use params::{MAX_HASH_MB, PARAMS, Params};

use crate::solve::SolveLimits;

/// What the engine decided in `genmove`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// A move, in the game's notation.
    Move(String),
    /// No move is worth playing on: the engine gives up.
    Resign,
}

/// How long `bench` searches each position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BenchLimit {
    /// To this depth (the node count is the build's signature).
    Depth(u32),
    /// For this long (the depth reached is the measure).
    Time(Duration),
}

/// Where the searcher's `info` lines go.
pub type InfoSink = Box<dyn FnMut(&str) + Send>;

/// The default sink of `info` lines: stderr, best effort and never
/// blocking ([`crate::stderr`]).
pub fn info_to_stderr() -> InfoSink {
    Box::new(crate::stderr::line)
}

/// The current game: which game it is, its options and the session.
struct Current {
    entry: &'static GameEntry,
    options: Options,
    session: Box<dyn Session>,
}

/// The engine: the current game, parameters, clocks and the searcher.
pub struct Engine {
    current: Option<Current>,
    /// Parameters (`param`).
    pub params: Params,
    /// Clocks (`time_settings`, `time_left`).
    pub clock: Clock,
    rng: SmallRng,
    info: InfoSink,
    /// Set to stop a running search or perft at once (see
    /// [`Engine::interrupts`]).
    interrupts: Interrupts,
}

/// The flags that stop a running command from outside (the protocol's
/// input reader sets them).
#[derive(Clone, Default)]
pub struct Interrupts {
    /// A `stop` was read: every search and `perft` stop.
    pub stop: Arc<AtomicBool>,
    /// A `stop` was read or the input has ended: a search without a time
    /// limit stops; a timed one (and `perft`) runs to its own limit, so a
    /// script piped in gets the same answers as a person typing.
    pub stop_unbounded: Arc<AtomicBool>,
}

impl Interrupts {
    /// Stops whatever runs (another thread's `stop`).
    pub fn request(&self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        self.stop_unbounded
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Lets the next command run.
    pub fn clear(&self) {
        self.stop.store(false, std::sync::atomic::Ordering::Relaxed);
        self.stop_unbounded
            .store(false, std::sync::atomic::Ordering::Relaxed);
    }
}

impl Default for Engine {
    fn default() -> Self {
        Self::new()
    }
}

/// The longest win (in plies) that `genmove` looks for when the solver has
/// proved a win: a faster one than the solver's move, if it exists.
pub const FASTEST_PLIES: u32 = 9;

/// The error of a game command with no game selected.
pub fn no_game() -> String {
    format!("no game selected: use 'game {}'", games::names_usage())
}

impl Engine {
    /// An engine with no game selected, writing `info` lines on stderr.
    pub fn new() -> Engine {
        let params = Params::default();
        Engine {
            current: None,
            rng: SmallRng::seed_from_u64(params.seed),
            params,
            clock: Clock::default(),
            info: info_to_stderr(),
            interrupts: Interrupts::default(),
        }
    }

    /// The flags that stop a running search (`genmove`, `reg_genmove`,
    /// `analyze`) or `perft` at once when set: the protocol's reader sets
    /// them on `stop` and at the end of the input. A search stopped so
    /// answers with the best move it has; `perft` fails.
    pub fn interrupts(&self) -> Interrupts {
        self.interrupts.clone()
    }

    /// `perft depth` of the current game, or an error when a `stop`
    /// interrupted it (the end of the input does not: its depth bounds it).
    pub fn perft(&mut self, depth: u32) -> Result<u64, String> {
        let stop = self.interrupts.stop.clone();
        self.rules_mut()?
            .perft(depth, &stop)
            .ok_or_else(|| "perft interrupted".to_string())
    }

    /// Sends the searcher's `info` lines to `sink` instead of stderr.
    pub fn set_info_sink(&mut self, sink: InfoSink) {
        self.info = sink;
    }

    /// The current game's options (Onyx's `start`) as set, if a game is
    /// selected.
    pub fn options(&self) -> Option<&Options> {
        self.current.as_ref().map(|c| &c.options)
    }

    /// The current game as a record (what `loadsgf` reads back): the game,
    /// size, options as set and moves with their colours, and the result once over.
    pub fn record(&self) -> Result<crate::sgf::Record, String> {
        let c = self.current.as_ref().ok_or_else(no_game)?;
        let rules = c.session.rules();
        // Replay to learn who played each move (swap keeps White to move).
        let mut replay = (c.entry.new_rules)(rules.size(), &c.options)?;
        let mut moves = Vec::new();
        for m in rules.history() {
            let color = replay.to_move();
            replay.play(color, &m).map_err(|e| e.to_string())?;
            moves.push(crate::sgf::RecordMove::new(color, &m));
        }
        Ok(crate::sgf::Record {
            game: c.entry.name.to_string(),
            size: rules.size(),
            options: c.options.clone(),
            result: rules.outcome().map(|o| o.score_text()),
            moves,
            ..Default::default()
        })
    }

    /// The current game's registry entry.
    pub fn entry(&self) -> Option<&'static GameEntry> {
        self.current.as_ref().map(|c| c.entry)
    }

    /// The current game's rules, or an error telling the user to pick one.
    pub fn rules(&self) -> Result<&dyn Rules, String> {
        self.current
            .as_ref()
            .map(|c| c.session.rules())
            .ok_or_else(no_game)
    }

    /// The current game's rules, to change them.
    pub fn rules_mut(&mut self) -> Result<&mut dyn Rules, String> {
        self.current
            .as_mut()
            .map(|c| c.session.rules_mut())
            .ok_or_else(no_game)
    }

    fn current_mut(&mut self) -> Result<&mut Current, String> {
        self.current.as_mut().ok_or_else(no_game)
    }

    /// The current session, if a game is selected.
    pub fn session(&self) -> Option<&dyn Session> {
        self.current.as_ref().map(|c| &*c.session)
    }

    /// Selects a game at its default size and options (`game NAME`).
    pub fn select_game(&mut self, name: &str) -> Result<(), String> {
        let entry = games::find(name)?;
        let session = self.new_session(entry, entry.default_size, &Vec::new())?;
        self.current = Some(Current {
            entry,
            options: Vec::new(),
            session,
        });
        self.clock.reset_game();
        Ok(())
    }

    /// A new game of the current kind on a `size`×`size` board, options
    /// kept (`boardsize`, `clear_board`).
    pub fn new_game(&mut self, size: usize) -> Result<(), String> {
        let c = self.current_mut()?;
        c.session.renew(size, &c.options)?;
        self.clock.reset_game();
        Ok(())
    }

    /// Sets option `name` of the current game to `value` (a game option's
    /// command, e.g. Onyx's `start blank`) and starts a new game with it.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let c = self.current_mut()?;
        let size = c.session.rules().size();
        let value = value.to_ascii_lowercase();
        c.entry.check_option(size, name, &value)?;
        let mut options = c.options.clone();
        options.retain(|(n, _)| n != name);
        options.push((name.to_string(), value));
        c.session.renew(size, &options)?;
        c.options = options;
        self.clock.reset_game();
        Ok(())
    }

    /// Runs one of the current game's own commands.
    pub fn game_command(&mut self, name: &str, args: &[&str]) -> Result<String, String> {
        let c = self.current_mut()?;
        let command = c
            .entry
            .command(name)
            .ok_or_else(|| format!("{name} is not a command of {}", c.entry.name))?;
        (command.run)(c.session.rules_mut().position_mut(), args)
    }

    /// Switches to the evaluator `name` (`param eval`): now, when a game is
    /// selected (it must have one of that name), and for every game
    /// selected later that has one.
    pub fn select_evaluator(&mut self, name: &str) -> Result<(), String> {
        let name = name.to_ascii_lowercase();
        match self.current.as_mut() {
            Some(c) => c.session.select_evaluator(&name)?,
            None if name.is_empty()
                || !name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') =>
            {
                return Err(format!("'{name}' is not an evaluator's name"));
            }
            None => {}
        }
        self.params.eval = Some(name);
        Ok(())
    }

    /// A new session of `entry`, with the evaluator asked for (`param
    /// eval`) when the game has it.
    fn new_session(
        &self,
        entry: &'static GameEntry,
        size: usize,
        options: &Options,
    ) -> Result<Box<dyn Session>, String> {
        let mut session = (entry.new_session)(size, options, self.params.hash_mb)?;
        if let Some(name) = &self.params.eval
            && session.evaluators().contains(&name.as_str())
        {
            session.select_evaluator(name)?;
        }
        Ok(session)
    }

    /// Replaces the current game by a game record (`loadsgf`): a fresh game
    /// of the recorded kind, size and options, with the first `moves` moves of
    /// the record (all when `None`) replayed and checked. On error the
    /// current game stays as it was.
    pub fn load_record(
        &mut self,
        record: &crate::sgf::Record,
        moves: Option<usize>,
    ) -> Result<(), String> {
        let entry = games::find(&record.game)?;
        if !entry.has_size(record.size) {
            return Err(format!(
                "unacceptable size: {} has sizes {}, not {}",
                entry.name,
                entry.sizes_text(),
                record.size
            ));
        }
        let options = entry.check_options(record.size, &record.options)?;
        let mut s = self
            .new_session(entry, record.size, &options)
            .map_err(|e| format!("unacceptable size: {e}"))?;
        let n = moves.unwrap_or(record.moves.len()).min(record.moves.len());
        for (i, m) in record.moves[..n].iter().enumerate() {
            let rules = s.rules_mut();
            if rules.outcome().is_some() {
                return Err(format!("move {}: the game is already over", i + 1));
            }
            if m.color != rules.to_move() {
                return Err(format!(
                    "move {}: {} to play, but the record has {}",
                    i + 1,
                    rules.to_move().name(),
                    m.color.name()
                ));
            }
            rules
                .play(m.color, &m.text)
                .map_err(|e| format!("move {} ({}): {e}", i + 1, m.text))?;
        }
        self.current = Some(Current {
            entry,
            options,
            session: s,
        });
        self.clock.reset_game();
        Ok(())
    }

    /// The limits of a search for `color` begun at `start`: `max_depth`,
    /// and the clock's budget ([`Clock::budget`]).
    fn limits(&self, color: Color, start: Instant) -> SearchLimits {
        let budget = self.clock.budget(color, self.params.move_time);
        SearchLimits {
            max_depth: self.params.max_depth,
            time: budget.map(|b| b.time),
            to_deadline: budget.is_some_and(|b| !b.kept),
            start,
            interrupt: Some(match budget {
                Some(_) => self.interrupts.stop.clone(),
                None => self.interrupts.stop_unbounded.clone(),
            }),
        }
    }

    /// Searches for `color` within the limits of the parameters and clock,
    /// reporting the best `multipv` moves of each iteration, writing `info`
    /// lines when verbose. `None`: no legal move.
    fn search(
        &mut self,
        color: Color,
        start: Instant,
        multipv: usize,
    ) -> Result<Option<SearchReport>, String> {
        let limits = self.limits(color, start);
        let c = self.current.as_mut().ok_or_else(no_game)?;
        if c.session.rules().outcome().is_some() {
            return Err("the game is over".into());
        }
        let verbose = self.params.verbose;
        let info = &mut self.info;
        let mut progress = |r: &SearchReport| {
            if verbose {
                for line in r.info_lines() {
                    info(&line);
                }
            }
        };
        let request = SearchRequest {
            player: self.params.player,
            threads: self.params.threads,
            multipv,
            rng: &mut self.rng,
            progress: &mut progress,
        };
        // GTP lets a controller ask for either colour: out of turn, the
        // engine searches as if the turn had been handed to `color`.
        Ok(c.session.search(color, &limits, request))
    }

    /// Searches and plays (when `commit`) a move for `color`.
    ///
    /// The opening book's reply goes first ([`Engine::book_move`]). Then,
    /// with `param genmove_solve`, the solver (see
    /// [`Engine::solve_for_genmove`]). When it proves a win, the move
    /// played starts the fastest win of at most [`FASTEST_PLIES`] plies
    /// (a full-width search in the time left), or else is the solver's
    /// winning move. Otherwise the searcher plays: its proven wins are the
    /// fastest (confirmed full width), and in a lost position its
    /// mate-distance scores choose the slowest loss.
    pub fn genmove(&mut self, color: Color, commit: bool) -> Result<Decision, String> {
        let start = Instant::now();
        let mv = match self.book_move(color)? {
            Some(mv) => {
                if self.params.verbose {
                    (self.info)(&format!("info book {mv}"));
                }
                Some(mv)
            }
            None => self.search_for_genmove(color, start)?,
        };
        self.clock.spent(color, start.elapsed());
        let Some(mv) = mv else {
            return Ok(Decision::Resign);
        };
        if commit {
            self.rules_mut()?
                .play(color, &mv)
                .map_err(|e| e.to_string())?;
        }
        Ok(Decision::Move(mv))
    }

    /// `genmove`'s move when the book has none: the solver's proven win
    /// (see [`Engine::solve_for_genmove`]) played by its fastest line, or
    /// the searcher's move; `None` without a legal move.
    fn search_for_genmove(
        &mut self,
        color: Color,
        start: Instant,
    ) -> Result<Option<String>, String> {
        Ok(match self.solve_for_genmove(color)? {
            Some(win) => {
                let limits = self.limits(color, start);
                let c = self.current.as_mut().ok_or_else(no_game)?;
                Some(match c.session.fastest_win(color, FASTEST_PLIES, &limits) {
                    Some((fastest, _)) => fastest,
                    None => win,
                })
            }
            None => self
                .search(color, start, self.params.multipv)?
                .map(|r| r.best_move),
        })
    }

    /// The opening book's reply for `color` ([`book::reply`]), with `param
    /// book` on and `color` to move; `None` otherwise.
    fn book_move(&mut self, color: Color) -> Result<Option<String>, String> {
        if !self.params.book {
            return Ok(None);
        }
        let c = self.current.as_mut().ok_or_else(no_game)?;
        let rules = c.session.rules_mut();
        if rules.outcome().is_some() || rules.to_move() != color {
            return Ok(None);
        }
        book::reply(c.entry, &c.options, rules)
    }

    /// `genmove`'s first step when `param genmove_solve` is set and the
    /// side to move has at most `param genmove_solve_moves` legal moves
    /// (0: any number): the solver, for that many seconds at most (and at
    /// most half the move's budget), with wins counted by player, its
    /// table kept from move to move. A proven win's first move, or `None`.
    fn solve_for_genmove(&mut self, color: Color) -> Result<Option<String>, String> {
        let mut secs = self.params.genmove_solve;
        if secs <= 0.0 {
            return Ok(None);
        }
        let budget = self.clock.budget(color, self.params.move_time);
        if let Some(b) = budget {
            secs = secs.min(b.time.as_secs_f64() / 2.0);
        }
        let limits = SolveLimits {
            nodes: None,
            time: Some(Duration::from_secs_f64(secs)),
            start: Instant::now(),
            by_player: true,
            knowledge: self.params.solve_knowledge,
            estimates: self.params.solve_estimates,
            play_knowledge: self.params.solve_play_knowledge,
            // Part of the move: without a time limit for the move, the end
            // of the input stops it as it stops the search.
            interrupt: Some(match budget {
                Some(_) => self.interrupts.stop.clone(),
                None => self.interrupts.stop_unbounded.clone(),
            }),
        };
        let hash_mb = self.params.solve_hash_mb;
        let verbose = self.params.verbose;
        let most = self.params.genmove_solve_moves;
        let c = self.current.as_mut().ok_or_else(no_game)?;
        if c.session.rules().outcome().is_some() {
            return Err("the game is over".into());
        }
        if most > 0 && c.session.rules_mut().legal_moves_for(color).len() > most {
            return Ok(None);
        }
        let info = &mut self.info;
        let answer = c.session.solve(color, &limits, hash_mb, &mut |_| {});
        if verbose {
            info(&format!("info solve genmove {}", answer.text()));
        }
        Ok(match answer.value {
            Solved::Win(m) => m,
            _ => None,
        })
    }

    /// Searches without playing and describes the result: the `info` line of
    /// the last iteration (with `lines` above 1, or else `param multipv`
    /// above 1, one line for each of the best moves) plus the static
    /// evaluation (`analyze COLOR [K]`).
    pub fn analyze(&mut self, color: Color, lines: Option<usize>) -> Result<String, String> {
        let start = Instant::now();
        let c = self.current.as_mut().ok_or_else(no_game)?;
        if c.session.rules().outcome().is_some() {
            return Err("the game is over".into());
        }
        let eval = c.session.evaluate_for(color);
        let multipv = lines.unwrap_or(self.params.multipv);
        let report = self.search(color, start, multipv)?.ok_or("no legal move")?;
        // A proven result reads as the `info` lines write one (`win N`).
        let proven = search_score(eval, 0);
        let eval = if is_mate(proven) {
            score_text(proven)
        } else {
            eval.to_string()
        };
        Ok(format!("{}\neval {eval}", report.info_lines().join("\n")))
    }

    /// Searches the registry's bench positions (of the game `only`, or of
    /// every game) within `limit` with one thread and a fresh 16 MB table
    /// each, and reports nodes, time and speed. To a fixed depth the node
    /// count depends only on the build, so it is a regression signature;
    /// for a fixed time, the depth reached counts.
    pub fn bench(limit: BenchLimit, only: Option<&GameEntry>) -> Result<String, String> {
        let (depth, time) = match limit {
            BenchLimit::Depth(d) => (d, None),
            BenchLimit::Time(t) => (64, Some(t)),
        };
        let mut rng = SmallRng::seed_from_u64(Params::default().seed);
        let mut lines = Vec::new();
        let (mut nodes, mut micros) = (0u64, 0u128);
        let mut number = 0;
        for entry in games::GAMES {
            for position in entry.bench {
                number += 1;
                if only.is_some_and(|g| g.name != entry.name) {
                    continue;
                }
                let options: Options = position
                    .options
                    .iter()
                    .map(|(n, v)| (n.to_string(), v.to_string()))
                    .collect();
                let mut s = (entry.new_session)(position.size, &options, 16)?;
                for m in position.moves.split_whitespace() {
                    let rules = s.rules_mut();
                    let c = rules.to_move();
                    rules
                        .play(c, m)
                        .map_err(|e| format!("bench position {number}: {e}"))?;
                }
                let limits = SearchLimits::new(depth, time);
                let c = s.rules().to_move();
                let request = SearchRequest {
                    player: Player::AlphaBeta,
                    threads: 1,
                    multipv: 1,
                    rng: &mut rng,
                    progress: &mut |_| {},
                };
                let r = s
                    .search(c, &limits, request)
                    .ok_or_else(|| format!("bench position {number} has no move"))?;
                nodes += r.nodes;
                micros += r.elapsed.as_micros();
                lines.push(format!(
                    "position {number} {} {}",
                    entry.name,
                    r.info_line()
                ));
            }
        }
        let ms = (micros / 1000).max(1);
        let what = match limit {
            BenchLimit::Depth(d) => format!("depth {d}"),
            BenchLimit::Time(t) => format!("movetime {}", t.as_secs_f64()),
        };
        lines.push(format!(
            "bench {what} nodes {nodes} time {ms} nps {}",
            nodes as u128 * 1_000_000 / micros.max(1)
        ));
        Ok(lines.join("\n"))
    }

    /// The limits of a solve begun now: `seconds` when given, else
    /// `solve_time`; and `solve_nodes`.
    fn solve_limits(&self, seconds: Option<f64>) -> SolveLimits {
        let secs = seconds.unwrap_or(self.params.solve_time);
        let nodes = (self.params.solve_nodes > 0).then_some(self.params.solve_nodes);
        let time = (secs > 0.0).then(|| Duration::from_secs_f64(secs));
        let unlimited = nodes.is_none() && time.is_none();
        SolveLimits {
            nodes,
            time,
            start: Instant::now(),
            by_player: self.params.solve_by_player,
            knowledge: self.params.solve_knowledge,
            estimates: self.params.solve_estimates,
            play_knowledge: self.params.solve_play_knowledge,
            // `stop` ends a solve; the end of the input ends an unlimited
            // one (it would run forever with no one to read its answer),
            // while a limited one runs to its limit (a script piped in gets
            // its answers).
            interrupt: Some(if unlimited {
                self.interrupts.stop_unbounded.clone()
            } else {
                self.interrupts.stop.clone()
            }),
        }
    }

    /// Runs `solve` (a session's solve or solve_all) for `color` (the side
    /// to move when `None`) within `seconds` (else `solve_time`) and
    /// `solve_nodes`, with the solver's table size and progress lines to
    /// the info sink when verbose.
    fn solving<R>(
        &mut self,
        color: Option<Color>,
        seconds: Option<f64>,
        solve: impl FnOnce(&mut dyn Session, Color, &SolveLimits, usize, &mut dyn FnMut(&str)) -> R,
    ) -> Result<R, String> {
        let limits = self.solve_limits(seconds);
        let hash_mb = self.params.solve_hash_mb;
        let verbose = self.params.verbose;
        let c = self.current.as_mut().ok_or_else(no_game)?;
        if c.session.rules().outcome().is_some() {
            return Err("the game is over".into());
        }
        let color = color.unwrap_or(c.session.rules().to_move());
        let info = &mut self.info;
        let mut progress = |line: &str| {
            if verbose {
                info(line)
            }
        };
        Ok(solve(
            c.session.as_mut(),
            color,
            &limits,
            hash_mb,
            &mut progress,
        ))
    }

    /// Solves the position for `color` (the side to move when `None`)
    /// within `seconds` (else `solve_time`) and `solve_nodes`. Progress
    /// lines go to the info sink when verbose.
    pub fn solve(
        &mut self,
        color: Option<Color>,
        seconds: Option<f64>,
    ) -> Result<SolveAnswer, String> {
        self.solve_reporting(color, seconds, &mut |_| {})
    }

    /// [`Engine::solve`] with its progress lines (about one a second, as
    /// the info sink gets them when verbose) also handed to `progress`:
    /// HexGui's live solver display ([`crate::protocol::hexgui`]).
    pub fn solve_reporting(
        &mut self,
        color: Option<Color>,
        seconds: Option<f64>,
        progress: &mut dyn FnMut(&str),
    ) -> Result<SolveAnswer, String> {
        self.solving(
            color,
            seconds,
            |session, color, limits, hash_mb, verbose_sink| {
                let mut both = |line: &str| {
                    verbose_sink(line);
                    progress(line);
                };
                session.solve(color, limits, hash_mb, &mut both)
            },
        )
    }

    /// Writes the current game's solver table to `out` under `tag`
    /// ([`crate::solve::Solver::save_table`]), for a later solve of the
    /// same position to go on from: the entries written.
    pub fn save_solver_table(
        &self,
        out: &mut dyn std::io::Write,
        tag: &str,
    ) -> Result<u64, String> {
        let c = self.current.as_ref().ok_or_else(no_game)?;
        c.session
            .save_solver_table(out, tag)
            .map_err(|e| format!("cannot save the solver's table: {e}"))
    }

    /// Replaces the current game's solver table by one of `solve_hash`
    /// megabytes filled from what [`Engine::save_solver_table`] wrote
    /// under `tag` ([`crate::solve::Solver::load_table`]; another tag is
    /// refused): the entries read.
    pub fn load_solver_table(
        &mut self,
        input: &mut dyn std::io::Read,
        tag: &str,
    ) -> Result<u64, String> {
        let hash_mb = self.params.solve_hash_mb;
        let c = self.current.as_mut().ok_or_else(no_game)?;
        c.session
            .load_solver_table(input, tag, hash_mb)
            .map_err(|e| format!("cannot load the solver's table: {e}"))
    }

    /// Solves every legal move of `color` (the side to move when `None`),
    /// each within the limits of [`Engine::solve`]: each move in board
    /// order with the value for `color` after it.
    pub fn solve_all(
        &mut self,
        color: Option<Color>,
        seconds: Option<f64>,
    ) -> Result<Vec<(String, SolveAnswer)>, String> {
        self.solving(
            color,
            seconds,
            |session, color, limits, hash_mb, progress| {
                session.solve_all(color, limits, hash_mb, progress)
            },
        )
    }

    /// Sizes the current session's table (`param hash`); on failure the
    /// old table stays.
    fn set_hash_mb(&mut self, mb: usize) -> Result<(), String> {
        match self.current.as_mut() {
            Some(c) => c.session.set_hash_mb(mb),
            None => Ok(()),
        }
    }

    /// Gives back the memory the current game's searches and solves
    /// filled (see [`Session::release_memory`]); what they learnt is
    /// forgotten.
    pub fn release_memory(&mut self) {
        if let Some(c) = self.current.as_mut() {
            c.session.release_memory();
        }
    }

    /// Sets a parameter by name from text.
    pub fn set_param(&mut self, name: &str, value: &str) -> Result<(), String> {
        params::find(name)?.set(self, value)
    }

    /// A parameter's value by name.
    pub fn param(&self, name: &str) -> Result<String, String> {
        Ok((params::find(name)?.get)(self))
    }

    /// All parameters as (name, value), in the table's order.
    pub fn list_params(&self) -> Vec<(&'static str, String)> {
        PARAMS.iter().map(|p| (p.name, (p.get)(self))).collect()
    }
}
