//! Plays one game between two engine processes, refereed by the rules
//! library: every move an engine sends is checked and played on a
//! [`Rules`], passed on to the opponent with
//! `play`, and timed. Seats follow `swap`: the engine that swaps takes Black
//! and the first mover takes White.
//!
//! Besides the rules, the referee ends a game as a draw, reason
//! [`Reason::Repetition`], when the same position (the same
//! [`Rules::hash`], which includes the side to move and Onyx's right to
//! swap) occurs for the third time, counted from the start position with the
//! opening's moves included: two deterministic engines caught in a cycle
//! (Onyx's captures let positions recur) would otherwise play on to the move
//! limit. A move that ends the game by the rules keeps its rules result
//! (Akron's own threefold repetition draw stays reason `rules`). An opening
//! that itself brings a position back a third time ends the game at that
//! move, before the engines are asked for any.

use std::collections::HashMap;
use std::convert::Infallible;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::engine_proc::{EngineError, EngineProc, Proto};
use super::results::{GameResult, Reason};
use super::{Job, MatchConfig, SWAP, TimeControl};
use crate::game::{Color, MoveError, Outcome};
use crate::session::Rules;
use crate::sgf::{Record, RecordMove};

/// Extra time, after the limit and the margin, that an engine gets to answer
/// at all before it counts as hung and is killed.
pub const HANG_GRACE: Duration = Duration::from_millis(1000);

/// The occurrences of one position that end the game as a draw by
/// repetition (the detail in words says "third").
const REPETITIONS: usize = 3;

/// The engine processes of one worker: one slot per engine of the match,
/// started on first use and restarted after a crash or hang.
pub struct Seats {
    procs: Vec<Option<EngineProc>>,
    worker: usize,
}

impl Seats {
    /// No engine started yet.
    pub fn new(engines: usize, worker: usize) -> Seats {
        Seats {
            procs: (0..engines).map(|_| None).collect(),
            worker,
        }
    }

    fn log_path(&self, cfg: &MatchConfig, engine: usize) -> Option<PathBuf> {
        cfg.log_dir.as_ref().map(|d| {
            d.join(format!(
                "{}-w{}.log",
                super::file_name_safe(&cfg.engines[engine].name),
                self.worker
            ))
        })
    }

    /// Makes sure `engine` is running, (re)starting it when needed.
    fn ensure(&mut self, cfg: &MatchConfig, engine: usize) -> Result<&mut EngineProc, EngineError> {
        if self.procs[engine].as_ref().is_some_and(|p| p.is_dead())
            && let Some(p) = self.procs[engine].take()
        {
            p.kill();
        }
        if self.procs[engine].is_none() {
            let log = self.log_path(cfg, engine);
            let p = EngineProc::start(&cfg.engines[engine], log.as_deref(), cfg.timeout)?;
            self.procs[engine] = Some(p);
        }
        Ok(self.procs[engine].as_mut().expect("started"))
    }

    /// Asks every engine to quit.
    pub fn shutdown(&mut self) {
        for p in self.procs.iter_mut().filter_map(Option::take) {
            p.quit(Duration::from_millis(500));
        }
    }
}

/// What the record keeps of a move besides its text: the colour that played
/// it, the seconds it took and the mover's clock after it.
type MoveInfo = (Color, Option<f64>, Option<f64>);

/// How a game ended: the winning seat (0 = first mover, 1 = second; `None`
/// for a draw), why, and the details in words.
struct End {
    winner_seat: Option<usize>,
    reason: Reason,
    detail: String,
}

impl End {
    /// A loss of the engine in `seat` (a forfeit, a resignation, no move).
    fn loss(seat: usize, reason: Reason, detail: String) -> End {
        End {
            winner_seat: Some(1 - seat),
            reason,
            detail,
        }
    }

    /// A draw.
    fn draw(reason: Reason, detail: String) -> End {
        End {
            winner_seat: None,
            reason,
            detail,
        }
    }
}

/// The forfeit of the engine in `seat`, named `name`, that failed at `what`.
fn engine_failure(seat: usize, name: &str, what: &str, e: &EngineError) -> End {
    let reason = match e {
        EngineError::Crashed(_) => Reason::Crash,
        EngineError::Timeout => Reason::Hang,
        EngineError::Protocol(_) => Reason::Protocol,
        EngineError::Spawn(_) => Reason::Setup,
    };
    End::loss(seat, reason, format!("{name}: {what}: {e}"))
}

/// Everything a game produced.
pub struct GameOutput {
    /// The result line.
    pub result: GameResult,
    /// The record.
    pub record: Record,
}

/// Plays `job` with the worker's engines: sets both up, tells them the
/// opening, then asks for, checks and passes on moves until the rules, a
/// threefold repetition, a forfeit, a resignation or the move limit end the
/// game.
pub fn play_game(cfg: &MatchConfig, job: &Job, seats: &mut Seats) -> GameOutput {
    let mut referee = Referee::new(cfg, job);
    let Err(end) = referee.play(seats);
    referee.finish(end)
}

/// One game in progress, as the referee sees it.
struct Referee<'a> {
    cfg: &'a MatchConfig,
    job: &'a Job,
    started: Instant,
    /// The engines by seat: `players[0]` moved first (Black at the start).
    players: [usize; 2],
    /// Their names, by seat.
    names: [String; 2],
    /// The seat holding Black now (exchanged by `swap`).
    black_seat: usize,
    /// The game, refereed by the rules library.
    session: Box<dyn Rules>,
    /// For the record, one per move played.
    times: Vec<MoveInfo>,
    /// Seconds left on each seat's clock (under `--tc`).
    clock: [f64; 2],
    /// Every position of the game so far, by hash: the move numbers after
    /// which it stood (0 for the start).
    positions: HashMap<u64, Vec<usize>>,
}

impl<'a> Referee<'a> {
    /// A game at its start, no engine contacted yet.
    fn new(cfg: &'a MatchConfig, job: &'a Job) -> Referee<'a> {
        let players = [job.first, job.second];
        let session = match cfg.settings.new_rules() {
            Ok(s) => s,
            Err(e) => panic!("game settings were checked at start: {e}"),
        };
        let clock = match cfg.tc {
            TimeControl::Clock { base, .. } => [base, base],
            _ => [0.0, 0.0],
        };
        let positions = HashMap::from([(session.hash(), vec![0])]);
        Referee {
            cfg,
            job,
            started: Instant::now(),
            players,
            names: players.map(|e| cfg.engines[e].name.clone()),
            black_seat: 0,
            session,
            times: Vec::new(),
            clock,
            positions,
        }
    }

    /// The seat holding `color` now.
    fn seat_of(&self, color: Color) -> usize {
        match color {
            Color::Black => self.black_seat,
            Color::White => 1 - self.black_seat,
        }
    }

    /// The colour `seat` holds now.
    fn color_of(&self, seat: usize) -> Color {
        if seat == self.black_seat {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The engine process in `seat` (started by [`Referee::set_up_engines`]).
    fn engine<'s>(&self, seats: &'s mut Seats, seat: usize) -> &'s mut EngineProc {
        seats.procs[self.players[seat]].as_mut().expect("started")
    }

    /// Plays the game until it ends (the `Err`, the only way out: every
    /// step returns how the game ended when it ends it).
    fn play(&mut self, seats: &mut Seats) -> Result<Infallible, End> {
        self.set_up_engines(seats)?;
        self.tell_opening(seats)?;
        loop {
            self.check_end()?;
            let color = self.session.to_move();
            let seat = self.seat_of(color);
            let (mv, spent) = self.ask_for_move(seats, seat, color)?;
            let canonical = self.play_move(seat, color, &mv, spent)?;
            self.note_position()?;
            self.pass_on(seats, 1 - seat, color, &canonical)?;
        }
    }

    /// Starts (or reuses) both engines and sets up the game on them.
    fn set_up_engines(&mut self, seats: &mut Seats) -> Result<(), End> {
        for seat in 0..2 {
            match seats.ensure(self.cfg, self.players[seat]) {
                Ok(p) => self.set_up_engine(p, seat)?,
                Err(err) => return Err(engine_failure(seat, &self.names[seat], "start", &err)),
            }
        }
        Ok(())
    }

    /// The commands that set up a game on an engine speaking `proto`: the
    /// game, the board, the options and the time control (an htp engine:
    /// the board and the swap option only, its time being its own `init`).
    fn setup_commands(&self, proto: Proto) -> Vec<String> {
        let cfg = self.cfg;
        let options = &cfg.settings.options;
        if proto == Proto::Htp {
            let swap = options.iter().find(|(n, _)| n == SWAP);
            let allow = u8::from(swap.is_none_or(|(_, v)| v == "on"));
            return vec![
                format!("boardsize {}", cfg.settings.size),
                "clear_board".to_string(),
                format!("param_game allow_swap {allow}"),
            ];
        }
        let mut cmds = vec![
            format!("game {}", cfg.settings.game),
            format!("boardsize {}", cfg.settings.size),
            "clear_board".to_string(),
        ];
        for (name, value) in options {
            cmds.push(format!("{name} {value}"));
        }
        match cfg.tc {
            TimeControl::Clock { base, .. } => cmds.push(format!("time_settings {base} 0 0")),
            TimeControl::PerMove { seconds } => cmds.push(format!("time_settings 0 {seconds} 1")),
            TimeControl::None => {}
        }
        cmds
    }

    /// Sends the setup commands to the engine in `seat`.
    fn set_up_engine(&self, p: &mut EngineProc, seat: usize) -> Result<(), End> {
        let name = &self.names[seat];
        p.note(&format!(
            "game {} ({} vs {})",
            self.job.index, self.names[0], self.names[1]
        ));
        for c in self.setup_commands(p.spec.proto) {
            match p.command(&c, self.cfg.timeout) {
                Ok(a) if a.ok => {}
                Ok(a) => {
                    let detail = format!("{name}: '{c}' refused: {}", a.text);
                    return Err(End::loss(seat, Reason::Setup, detail));
                }
                Err(err) => return Err(engine_failure(seat, name, &c, &err)),
            }
        }
        Ok(())
    }

    /// Plays the opening (checked at load) and tells it to both engines.
    fn tell_opening(&mut self, seats: &mut Seats) -> Result<(), End> {
        let Some(opening) = &self.job.opening else {
            return Ok(());
        };
        for mv in opening {
            let color = self.session.to_move();
            if let Err(e) = self.session.play(color, mv) {
                panic!("openings were checked at load: {mv}: {e}");
            }
            self.times.push((color, None, None));
            if mv.eq_ignore_ascii_case("swap") {
                self.black_seat = 1 - self.black_seat;
            }
            self.note_position()?;
            for seat in 0..2 {
                self.tell(seats, seat, color, mv)?;
            }
        }
        Ok(())
    }

    /// Notes the position the last move made and ends the game as a draw
    /// when that position has now occurred [`REPETITIONS`] times, unless
    /// the rules ended the game with that move (their result stands).
    fn note_position(&mut self) -> Result<(), End> {
        let now = self.session.moves_played();
        let seen = self.positions.entry(self.session.hash()).or_default();
        seen.push(now);
        if seen.len() < REPETITIONS || self.session.outcome().is_some() {
            return Ok(());
        }
        let position = match seen[0] {
            0 => "the start position".to_string(),
            m => format!("the position after move {m}"),
        };
        let between = seen[1..seen.len() - 1]
            .iter()
            .map(|m| format!("move {m}"))
            .collect::<Vec<_>>()
            .join(", ");
        let detail = format!(
            "{position} occurred for the third time after move {now} (again after {between})"
        );
        Err(End::draw(Reason::Repetition, detail))
    }

    /// Tells the engine in `seat` that `color` played `mv`.
    fn tell(&self, seats: &mut Seats, seat: usize, color: Color, mv: &str) -> Result<(), End> {
        let engine = self.engine(seats, seat);
        let mv = engine.spec.proto.move_text(mv);
        let c = format!("play {} {mv}", color.letter().to_ascii_lowercase());
        match engine.command(&c, self.cfg.timeout) {
            Ok(a) if a.ok => Ok(()),
            Ok(a) => {
                let detail = format!("{}: refused legal '{c}': {}", self.names[seat], a.text);
                Err(End::loss(seat, Reason::Refused, detail))
            }
            Err(err) => Err(engine_failure(seat, &self.names[seat], &c, &err)),
        }
    }

    /// Ends the game before the next move when the rules have ended it, the
    /// side to move has no legal move, or the move limit is reached.
    fn check_end(&mut self) -> Result<(), End> {
        if let Some(outcome) = self.session.outcome() {
            return Err(match outcome {
                Outcome::Draw => End::draw(Reason::Rules, "draw by the rules".into()),
                Outcome::Win(c) => End {
                    winner_seat: Some(self.seat_of(c)),
                    reason: Reason::Rules,
                    detail: format!(
                        "{} won as {} by the rules",
                        self.names[self.seat_of(c)],
                        c.name()
                    ),
                },
            });
        }
        let color = self.session.to_move();
        let seat = self.seat_of(color);
        if self.session.legal_moves_for(color).is_empty() {
            let detail = format!("{} has no legal move as {}", self.names[seat], color.name());
            return Err(End::loss(seat, Reason::NoMoves, detail));
        }
        if let Some(limit) = self.cfg.max_moves
            && self.session.moves_played() >= limit
        {
            let detail = format!("move limit {limit} reached");
            return Err(End::draw(Reason::MoveLimit, detail));
        }
        Ok(())
    }

    /// Tells the engine in `seat` its time (`time_left`) and returns the
    /// time its move may take, margin not included (`None`: no time
    /// control).
    fn tell_time(&self, seats: &mut Seats, seat: usize, cl: char) -> Result<Option<Duration>, End> {
        let (cmd, allowed) = match self.cfg.tc {
            TimeControl::Clock { .. } => {
                let left = self.clock[seat].max(0.0);
                (format!("time_left {cl} {left:.3} 0"), left)
            }
            TimeControl::PerMove { seconds } => (format!("time_left {cl} {seconds} 1"), seconds),
            TimeControl::None => return Ok(None),
        };
        let engine = self.engine(seats, seat);
        if engine.spec.proto == Proto::Htp {
            // Its time is its own setting (`init`); the limit still holds.
            return Ok(Some(Duration::from_secs_f64(allowed)));
        }
        if let Err(err) = engine.command(&cmd, self.cfg.timeout) {
            return Err(engine_failure(seat, &self.names[seat], &cmd, &err));
        }
        Ok(Some(Duration::from_secs_f64(allowed)))
    }

    /// Asks the engine in `seat` for `color`'s move under the time control:
    /// the move as it answered and the seconds it took. A resignation, an
    /// error, a refusal or a late answer ends the game.
    fn ask_for_move(
        &self,
        seats: &mut Seats,
        seat: usize,
        color: Color,
    ) -> Result<(String, f64), End> {
        let name = &self.names[seat];
        let cl = color.letter().to_ascii_lowercase();
        let allowed = self.tell_time(seats, seat, cl)?;
        let margin = self.cfg.margin;
        let wait = match allowed {
            Some(a) => a + margin + HANG_GRACE,
            None => self.cfg.timeout,
        };
        let t0 = Instant::now();
        let answer = self
            .engine(seats, seat)
            .command(&format!("genmove {cl}"), wait);
        let spent = t0.elapsed();
        let answer = match answer {
            Ok(a) => a,
            Err(err) => {
                let mut f = engine_failure(seat, name, &format!("genmove {cl}"), &err);
                if err == EngineError::Timeout {
                    f.detail = format!(
                        "{name}: no answer to genmove {cl} after {:.3}s (killed)",
                        spent.as_secs_f64()
                    );
                }
                return Err(f);
            }
        };
        let spent_s = spent.as_secs_f64();
        if let Some(a) = allowed
            && spent > a + margin
        {
            let detail = format!(
                "{name}: genmove took {spent_s:.3}s, allowed {:.3}s + margin {:.3}s",
                a.as_secs_f64(),
                margin.as_secs_f64()
            );
            return Err(End::loss(seat, Reason::Time, detail));
        }
        if !answer.ok {
            let detail = format!("{name}: genmove {cl} failed: {}", answer.text);
            return Err(End::loss(seat, Reason::Refused, detail));
        }
        let mv = answer.text.trim().to_string();
        if mv.eq_ignore_ascii_case("resign") {
            let detail = format!("{name} resigned as {}", color.name());
            return Err(End::loss(seat, Reason::Resign, detail));
        }
        Ok((mv, spent_s))
    }

    /// Checks `mv` against the rules and plays it, charges the clock of
    /// `seat` with `spent` seconds, exchanges the seats' colours after a
    /// swap, and returns the move in canonical notation. An unparsable or
    /// illegal move forfeits.
    fn play_move(
        &mut self,
        seat: usize,
        color: Color,
        mv: &str,
        spent: f64,
    ) -> Result<String, End> {
        if let Err(e) = self.session.play(color, mv) {
            let reason = match e {
                MoveError::Syntax(_) => Reason::Unparsable,
                MoveError::Illegal(_) => Reason::Illegal,
            };
            let detail = format!(
                "{} played '{mv}' as {}: {e}",
                self.names[seat],
                color.name()
            );
            return Err(End::loss(seat, reason, detail));
        }
        let left = match self.cfg.tc {
            TimeControl::Clock { increment, .. } => {
                self.clock[seat] = self.clock[seat] - spent + increment;
                Some(self.clock[seat])
            }
            _ => None,
        };
        self.times.push((color, Some(spent), left));
        let canonical = self
            .session
            .history()
            .last()
            .cloned()
            .unwrap_or_else(|| mv.to_string());
        if canonical.eq_ignore_ascii_case("swap") {
            self.black_seat = 1 - self.black_seat;
        }
        Ok(canonical)
    }

    /// Passes `color`'s move on to the engine in `seat`, unless it ended
    /// the game.
    fn pass_on(&self, seats: &mut Seats, seat: usize, color: Color, mv: &str) -> Result<(), End> {
        if self.session.outcome().is_none() {
            self.tell(seats, seat, color, mv)?;
        }
        Ok(())
    }

    /// The result line and the record of the game that ended so.
    fn finish(self, end: End) -> GameOutput {
        let cfg = self.cfg;
        let result = GameResult {
            index: self.job.index,
            first: self.players[0],
            second: self.players[1],
            black: self.players[self.black_seat],
            white: self.players[1 - self.black_seat],
            winner: end.winner_seat.map(|s| self.color_of(s)),
            reason: end.reason,
            moves: self.session.moves_played(),
            seconds: self.started.elapsed().as_secs_f64(),
            detail: end.detail,
        };
        let moves: Vec<RecordMove> = self
            .session
            .history()
            .into_iter()
            .zip(&self.times)
            .map(|(text, &(color, seconds, time_left))| RecordMove {
                color,
                text,
                seconds,
                time_left,
                comment: None,
            })
            .collect();
        let re = match result.winner {
            Some(c) => format!("{}+{}", c.letter(), end.reason.sgf_suffix()),
            None => "0".into(),
        };
        let record = Record {
            game: cfg.settings.game.clone(),
            size: cfg.settings.size,
            options: cfg.settings.options.clone(),
            black: Some(cfg.engines[result.black].name.clone()),
            white: Some(cfg.engines[result.white].name.clone()),
            result: Some(re),
            reason: Some(format!("{}: {}", end.reason.code(), result.detail)),
            date: Some(super::today()),
            event: cfg.event.clone(),
            round: Some(self.job.index.to_string()),
            time_control: Some(cfg.tc.describe(cfg.margin)),
            // An opening cut short by a repetition counts its moves played.
            opening_moves: self
                .job
                .opening
                .as_ref()
                .map_or(0, |o| o.len().min(result.moves)),
            comment: None,
            moves,
        };
        GameOutput { result, record }
    }
}
