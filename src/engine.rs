//! The one facade the protocol talks to: the current game and its history,
//! engine parameters, clocks, and the searcher. Text in, text out: the
//! protocol layer parses commands and formats answers, nothing more.

use std::time::{Duration, Instant};

use crate::game::{Color, Game, MoveError, Outcome, perft};
use crate::games;
use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::search::alphabeta::AlphaBeta;
use crate::search::{Evaluate, Player, SearchLimits, SearchReport, baseline, mcts};
use crate::timeman::Clock;

/// What the engine decided in `genmove`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// A move, in the game's notation.
    Move(String),
    /// No move is worth playing on: the engine gives up.
    Resign,
}

/// A game behind a uniform, text-based interface, so the engine can hold any
/// of them. Implemented once, generically, by [`GameSession`].
pub trait Session: Send {
    /// The game's name.
    fn name(&self) -> &'static str;
    /// Points per side.
    fn size(&self) -> usize;
    /// Side to move.
    fn to_move(&self) -> Color;
    /// The result, once over.
    fn outcome(&self) -> Option<Outcome>;
    /// Moves played since the start.
    fn moves_played(&self) -> usize;
    /// The moves played so far, in notation.
    fn history(&self) -> Vec<String>;
    /// New game of the same kind on `size`×`size` (options kept).
    fn reset(&mut self, size: usize) -> Result<(), String>;
    /// Plays a move given as text for `color`. When `color` is not to move,
    /// the turn is handed over first, as GTP allows; `undo` takes both back.
    fn play(&mut self, color: Color, text: &str) -> Result<(), MoveError>;
    /// Takes back one move; false when there is none.
    fn undo(&mut self) -> bool;
    /// All legal moves for `color`, sorted as strings, as `legal_moves`
    /// writes them (for the colour not to move: as if the turn were handed
    /// over).
    fn legal_moves_for(&mut self, color: Color) -> Vec<String>;
    /// The board for people.
    fn showboard(&self) -> String;
    /// Zobrist hash of the position.
    fn hash(&self) -> u64;
    /// `perft depth`.
    fn perft(&mut self, depth: u32) -> u64;
    /// Applies [`Game::setup`] to each (colour, point) in turn; all or
    /// nothing.
    fn setup(&mut self, placements: &[(Option<Color>, &str)]) -> Result<(), String>;
    /// See [`Game::set_to_move`].
    fn set_to_move(&mut self, color: Color) -> Result<(), String>;
    /// See [`Game::extra_commands`].
    fn extra_commands(&self) -> &'static [&'static str];
    /// See [`Game::extra_command`].
    fn extra_command(&mut self, name: &str, args: &[&str]) -> Result<String, String>;
    /// Searches the position within `limits` and reports the best move.
    fn search(
        &mut self,
        color: Color,
        limits: &SearchLimits,
        params: &Params,
        rng: &mut SmallRng,
    ) -> Option<SearchReport>;
    /// The static evaluation for `color` (as if it were to move).
    fn evaluate_for(&mut self, color: Color) -> i32;
    /// Sizes the searcher's table to `hash_mb` megabytes (cleared on
    /// change); on failure the old table stays.
    fn set_hash_mb(&mut self, hash_mb: usize) -> Result<(), String>;
}

/// A [`Game`] with its search state, seen through [`Session`].
pub struct GameSession<G: Game + Evaluate> {
    game: G,
    /// The history: moves, and `None` for a turn handed over when a colour
    /// played out of turn.
    moves: Vec<Option<G::Move>>,
    searcher: AlphaBeta<G>,
}

impl<G: Game + Evaluate> GameSession<G> {
    /// Wraps a fresh game.
    pub fn new(game: G) -> Self {
        GameSession {
            game,
            moves: Vec::new(),
            searcher: AlphaBeta::new(16),
        }
    }
}

impl<G: Game + Evaluate> GameSession<G> {
    /// Runs `f` on the game with `color` to move: when it is the other
    /// colour's turn, the turn is handed over for `f` and taken back after.
    fn as_color<R>(&mut self, color: Color, f: impl FnOnce(&mut G) -> R) -> R {
        let handed_over = color != self.game.to_move();
        if handed_over {
            self.game.play_null();
        }
        let r = f(&mut self.game);
        if handed_over {
            self.game.undo();
        }
        r
    }
}

impl<G: Game + Evaluate> Session for GameSession<G> {
    fn name(&self) -> &'static str {
        self.game.name()
    }
    fn size(&self) -> usize {
        self.game.size()
    }
    fn to_move(&self) -> Color {
        self.game.to_move()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }
    fn moves_played(&self) -> usize {
        self.game.moves_played()
    }
    fn history(&self) -> Vec<String> {
        let mut replay = self.game.clone();
        for _ in 0..self.moves.len() {
            replay.undo();
        }
        let mut out = Vec::new();
        for &m in &self.moves {
            match m {
                Some(m) => {
                    out.push(replay.format_move(m));
                    replay.play(m);
                }
                None => replay.play_null(),
            }
        }
        out
    }
    fn reset(&mut self, size: usize) -> Result<(), String> {
        self.game.reset(size)?;
        self.moves.clear();
        self.searcher.clear();
        Ok(())
    }
    fn play(&mut self, color: Color, text: &str) -> Result<(), MoveError> {
        if self.game.outcome().is_some() {
            return Err(MoveError::Illegal("the game is over".into()));
        }
        let out_of_turn = color != self.game.to_move();
        if out_of_turn {
            self.game.play_null();
        }
        let parsed = self.game.parse_move(text).and_then(|mv| {
            if self.game.is_legal(mv) {
                Ok(mv)
            } else {
                Err(MoveError::Illegal(format!("{text} is not legal here")))
            }
        });
        match parsed {
            Ok(mv) => {
                if out_of_turn {
                    self.moves.push(None);
                }
                self.game.play(mv);
                self.moves.push(Some(mv));
                Ok(())
            }
            Err(e) => {
                if out_of_turn {
                    self.game.undo();
                }
                Err(e)
            }
        }
    }
    fn undo(&mut self) -> bool {
        if self.moves.pop().is_none() {
            return false;
        }
        self.game.undo();
        // A move played out of turn goes back with its handed-over turn.
        if self.moves.last() == Some(&None) {
            self.moves.pop();
            self.game.undo();
        }
        true
    }
    fn legal_moves_for(&mut self, color: Color) -> Vec<String> {
        let mut out = self.as_color(color, |game| {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            moves
                .into_iter()
                .map(|m| game.format_listed_move(m))
                .collect::<Vec<String>>()
        });
        out.sort();
        out
    }
    fn showboard(&self) -> String {
        self.game.showboard()
    }
    fn hash(&self) -> u64 {
        self.game.hash()
    }
    fn perft(&mut self, depth: u32) -> u64 {
        perft(&mut self.game, depth)
    }
    fn setup(&mut self, placements: &[(Option<Color>, &str)]) -> Result<(), String> {
        if !self.moves.is_empty() {
            return Err("setup is only allowed before the first move".into());
        }
        let before = self.game.clone();
        for &(color, point) in placements {
            if let Err(e) = self.game.setup(color, point) {
                self.game = before;
                return Err(e);
            }
        }
        Ok(())
    }
    fn set_to_move(&mut self, color: Color) -> Result<(), String> {
        if !self.moves.is_empty() {
            return Err("the side to move can only be set before the first move".into());
        }
        self.game.set_to_move(color)
    }
    fn extra_commands(&self) -> &'static [&'static str] {
        self.game.extra_commands()
    }
    fn extra_command(&mut self, name: &str, args: &[&str]) -> Result<String, String> {
        let before = self.game.moves_played();
        let answer = self.game.extra_command(name, args)?;
        // A command that replaced the game (Onyx's `start`) drops the history.
        if self.game.moves_played() != before || self.game.moves_played() == 0 {
            self.moves.clear();
        }
        Ok(answer)
    }
    fn search(
        &mut self,
        color: Color,
        limits: &SearchLimits,
        params: &Params,
        rng: &mut SmallRng,
    ) -> Option<SearchReport> {
        let handed_over = color != self.game.to_move();
        if handed_over {
            self.game.play_null();
        }
        self.game.set_searching(true);
        let game = &mut self.game;
        let quick = |mv: Option<G::Move>, score: i32, game: &mut G| {
            mv.map(|m| SearchReport {
                best_move: game.format_move(m),
                score,
                depth: 1,
                nodes: 1,
                elapsed: limits.start.elapsed(),
                pv: vec![game.format_move(m)],
            })
        };
        let report = match params.player {
            Player::AlphaBeta => {
                self.searcher.threads = params.threads;
                self.searcher.verbose = params.verbose;
                self.searcher.search(game, limits)
            }
            Player::Mcts => mcts::search(game, limits, rng),
            Player::Greedy => {
                let deadline = limits.time.map(|t| limits.start + t);
                let best = baseline::greedy_move(game, rng, deadline);
                quick(best.map(|b| b.0), best.map_or(0, |b| b.1), game)
            }
            Player::Random => {
                let mv = baseline::random_move(game, rng);
                quick(mv, 0, game)
            }
        };
        self.game.set_searching(false);
        if handed_over {
            self.game.undo();
        }
        report
    }
    fn set_hash_mb(&mut self, hash_mb: usize) -> Result<(), String> {
        self.searcher.set_hash_mb(hash_mb)
    }
    fn evaluate_for(&mut self, color: Color) -> i32 {
        self.as_color(color, |game| game.evaluate())
    }
}

/// Parses a whole-number parameter value within `range`.
fn parse_in<T>(name: &str, value: &str, range: std::ops::RangeInclusive<T>) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    match value.parse::<T>() {
        Ok(v) if range.contains(&v) => Ok(v),
        _ => Err(format!(
            "{name} must be a whole number from {} to {}, not '{value}'",
            range.start(),
            range.end()
        )),
    }
}

/// Largest transposition table `param hash` accepts, in megabytes.
pub const MAX_HASH_MB: usize = 16384;

/// Engine parameters settable with `param`.
#[derive(Clone, Debug)]
pub struct Params {
    /// Deepest iteration of the searcher (plies).
    pub max_depth: u32,
    /// Seconds per move when no clock is set; 0 means no time limit besides
    /// `max_depth`.
    pub move_time: f64,
    /// Seed of the engine's random choices.
    pub seed: u64,
    /// Which player `genmove` uses.
    pub player: Player,
    /// Transposition table size in megabytes.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Whether the searcher prints `info` lines on stderr.
    pub verbose: bool,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            max_depth: 64,
            move_time: 1.0,
            seed: 1,
            player: Player::AlphaBeta,
            hash_mb: 16,
            threads: 1,
            verbose: true,
        }
    }
}

/// How long `bench` searches each position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BenchLimit {
    /// To this depth (the node count is the build's signature).
    Depth(u32),
    /// For this long (the depth reached is the measure).
    Time(Duration),
}

/// The engine: the current game, parameters, clocks and the searcher.
pub struct Engine {
    session: Option<Box<dyn Session>>,
    /// Parameters (`param`).
    pub params: Params,
    /// Clocks (`time_settings`, `time_left`).
    pub clock: Clock,
    rng: SmallRng,
}

impl Default for Engine {
    fn default() -> Self {
        Self::new()
    }
}

impl Engine {
    /// An engine with no game selected.
    pub fn new() -> Engine {
        let params = Params::default();
        Engine {
            session: None,
            rng: SmallRng::seed_from_u64(params.seed),
            params,
            clock: Clock::default(),
        }
    }

    /// The current game, or an error telling the user to pick one.
    pub fn session(&self) -> Result<&dyn Session, String> {
        self.session
            .as_deref()
            .ok_or_else(|| "no game selected: use 'game onyx|orcoon|akron|hex'".to_string())
    }

    /// The current game, mutable.
    pub fn session_mut(&mut self) -> Result<&mut (dyn Session + 'static), String> {
        self.session
            .as_deref_mut()
            .ok_or_else(|| "no game selected: use 'game onyx|orcoon|akron|hex'".to_string())
    }

    /// A new game `name`, its searcher configured by the parameters.
    fn new_session(&self, name: &str) -> Result<Box<dyn Session>, String> {
        let mut session = games::new_session(name)?;
        session.set_hash_mb(self.params.hash_mb)?;
        Ok(session)
    }

    /// Selects a game at its default size (`game NAME`).
    pub fn select_game(&mut self, name: &str) -> Result<(), String> {
        self.session = Some(self.new_session(name)?);
        self.clock.reset_game();
        Ok(())
    }

    /// Replaces the current game by a game record (`loadsgf`): a fresh game
    /// of the recorded kind, size and start, with the first `moves` moves of
    /// the record (all when `None`) replayed and checked. On error the
    /// current game stays as it was.
    pub fn load_record(
        &mut self,
        record: &crate::sgf::Record,
        moves: Option<usize>,
    ) -> Result<(), String> {
        let mut s = self.new_session(&record.game)?;
        s.reset(record.size)
            .map_err(|e| format!("unacceptable size: {e}"))?;
        if let Some(start) = &record.start {
            s.extra_command("start", &[start.as_str()])?;
        }
        let n = moves.unwrap_or(record.moves.len()).min(record.moves.len());
        for (i, m) in record.moves[..n].iter().enumerate() {
            if s.outcome().is_some() {
                return Err(format!("move {}: the game is already over", i + 1));
            }
            if m.color != s.to_move() {
                return Err(format!(
                    "move {}: {} to play, but the record has {}",
                    i + 1,
                    s.to_move().name(),
                    m.color.name()
                ));
            }
            s.play(m.color, &m.text)
                .map_err(|e| format!("move {} ({}): {e}", i + 1, m.text))?;
        }
        self.session = Some(s);
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
        }
    }

    /// Searches and plays (when `commit`) a move for `color`.
    pub fn genmove(&mut self, color: Color, commit: bool) -> Result<Decision, String> {
        let start = Instant::now();
        let limits = self.limits(color, start);
        let session = self
            .session
            .as_deref_mut()
            .ok_or_else(|| "no game selected: use 'game onyx|orcoon|akron|hex'".to_string())?;
        if session.outcome().is_some() {
            return Err("the game is over".into());
        }
        // GTP lets a controller ask for either colour: out of turn, the
        // engine searches as if the turn had been handed to `color`.
        let report = session.search(color, &limits, &self.params, &mut self.rng);
        self.clock.spent(color, start.elapsed());
        match report {
            Some(r) => {
                if commit {
                    session
                        .play(color, &r.best_move)
                        .map_err(|e| e.to_string())?;
                }
                Ok(Decision::Move(r.best_move))
            }
            None => Ok(Decision::Resign),
        }
    }

    /// Searches without playing and describes the result: the `info` line of
    /// the last iteration plus the static evaluation (`analyze COLOR`).
    pub fn analyze(&mut self, color: Color) -> Result<String, String> {
        let start = Instant::now();
        let limits = self.limits(color, start);
        let session = self
            .session
            .as_deref_mut()
            .ok_or_else(|| "no game selected: use 'game onyx|orcoon|akron|hex'".to_string())?;
        if session.outcome().is_some() {
            return Err("the game is over".into());
        }
        let eval = session.evaluate_for(color);
        let report = session
            .search(color, &limits, &self.params, &mut self.rng)
            .ok_or("no legal move")?;
        // A proven result reads as the `info` lines write one (`win N`).
        let proven = crate::search::search_score(eval, 0);
        let eval = if crate::search::alphabeta::is_mate(proven) {
            crate::search::alphabeta::score_text(proven)
        } else {
            eval.to_string()
        };
        Ok(format!(
            "{}
eval {eval}",
            report.info_line()
        ))
    }

    /// Searches the fixed bench positions within `limit` with one thread
    /// and a fresh 16 MB table each, and reports nodes, time and speed. To
    /// a fixed depth the node count depends only on the build, so it is a
    /// regression signature; for a fixed time, the depth reached counts.
    pub fn bench(limit: BenchLimit, only: Option<&str>) -> Result<String, String> {
        let (depth, time) = match limit {
            BenchLimit::Depth(d) => (d, None),
            BenchLimit::Time(t) => (64, Some(t)),
        };
        let params = Params {
            max_depth: depth,
            move_time: 0.0,
            player: Player::AlphaBeta,
            hash_mb: 16,
            threads: 1,
            verbose: false,
            ..Params::default()
        };
        let mut rng = SmallRng::seed_from_u64(params.seed);
        let mut lines = Vec::new();
        let (mut nodes, mut micros) = (0u64, 0u128);
        for (i, &(game, size, start_name, moves)) in games::BENCH.iter().enumerate() {
            if only.is_some_and(|g| g != game) {
                continue;
            }
            let mut s = games::new_session(game)?;
            s.reset(size)?;
            if let Some(st) = start_name {
                s.extra_command("start", &[st])?;
            }
            for m in moves.split_whitespace() {
                let c = s.to_move();
                s.play(c, m)
                    .map_err(|e| format!("bench position {i}: {e}"))?;
            }
            let limits = SearchLimits {
                max_depth: depth,
                time,
                to_deadline: true,
                start: Instant::now(),
            };
            let c = s.to_move();
            let r = s
                .search(c, &limits, &params, &mut rng)
                .ok_or_else(|| format!("bench position {i} has no move"))?;
            nodes += r.nodes;
            micros += r.elapsed.as_micros();
            lines.push(format!("position {} {game} {}", i + 1, r.info_line()));
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

    /// Sets a parameter by name from text.
    pub fn set_param(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "max_depth" => self.params.max_depth = parse_in(name, value, 1..=64)?,
            "move_time" => {
                let v: f64 = value
                    .parse()
                    .map_err(|_| format!("move_time must be a number of seconds, not '{value}'"))?;
                if !(0.0..=86_400.0).contains(&v) || !v.is_finite() {
                    return Err("move_time must be from 0 to 86400 seconds".into());
                }
                self.params.move_time = v;
            }
            "seed" => {
                let v = parse_in(name, value, 0..=u64::MAX)?;
                self.params.seed = v;
                self.rng = SmallRng::seed_from_u64(v);
            }
            "player" => {
                self.params.player = Player::parse(value).ok_or_else(|| {
                    format!("player must be alphabeta, mcts, greedy or random, not '{value}'")
                })?;
            }
            "hash" => {
                let v = parse_in(name, value, 1..=MAX_HASH_MB)?;
                if let Some(s) = self.session.as_deref_mut() {
                    s.set_hash_mb(v)?;
                }
                self.params.hash_mb = v;
            }
            "threads" => self.params.threads = parse_in(name, value, 1..=256)?,
            "verbose" => {
                self.params.verbose = match value.to_ascii_lowercase().as_str() {
                    "1" | "true" | "on" => true,
                    "0" | "false" | "off" => false,
                    _ => return Err(format!("verbose must be true or false, not '{value}'")),
                };
            }
            _ => return Err(format!("unknown parameter '{name}'")),
        }
        Ok(())
    }

    /// All parameters as `name value` lines.
    pub fn list_params(&self) -> Vec<(String, String)> {
        vec![
            ("max_depth".into(), self.params.max_depth.to_string()),
            ("move_time".into(), self.params.move_time.to_string()),
            ("seed".into(), self.params.seed.to_string()),
            ("player".into(), self.params.player.name().to_string()),
            ("hash".into(), self.params.hash_mb.to_string()),
            ("threads".into(), self.params.threads.to_string()),
            ("verbose".into(), self.params.verbose.to_string()),
        ]
    }

    /// Time since `start`, for callers measuring a command.
    pub fn elapsed(start: Instant) -> Duration {
        start.elapsed()
    }
}
