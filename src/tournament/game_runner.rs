//! Plays one game between two engine processes, refereed by the rules
//! library: every move an engine sends is checked and played on a
//! [`Rules`], passed on to the opponent with
//! `play`, and timed. Seats follow `swap`: the engine that swaps takes Black
//! and the first mover takes White.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::engine_proc::{EngineError, EngineProc};
use super::results::{GameResult, Reason};
use super::{Job, MatchConfig, TimeControl};
use crate::game::{Color, MoveError, Outcome};
use crate::session::Rules;
use crate::sgf::{Record, RecordMove};

/// Extra time, after the limit and the margin, that an engine gets to answer
/// at all before it counts as hung and is killed.
pub const HANG_GRACE: Duration = Duration::from_millis(1000);

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

/// A forfeit: who lost and why.
struct Forfeit {
    /// Seat (0 = first mover, 1 = second) of the engine at fault.
    seat: usize,
    reason: Reason,
    detail: String,
}

fn engine_failure(seat: usize, name: &str, what: &str, e: &EngineError) -> Forfeit {
    let reason = match e {
        EngineError::Crashed(_) => Reason::Crash,
        EngineError::Timeout => Reason::Hang,
        EngineError::Protocol(_) => Reason::Protocol,
        EngineError::Spawn(_) => Reason::Setup,
    };
    Forfeit {
        seat,
        reason,
        detail: format!("{name}: {what}: {e}"),
    }
}

/// Everything a game produced.
pub struct GameOutput {
    /// The result line.
    pub result: GameResult,
    /// The record.
    pub record: Record,
}

/// Plays `job` with the worker's engines.
pub fn play_game(cfg: &MatchConfig, job: &Job, seats: &mut Seats) -> GameOutput {
    let started = Instant::now();
    // players[0] moved first (Black at the start); colour_of_seat maps seats
    // to their colours now (swapped by `swap`).
    let players = [job.first, job.second];
    let mut black_seat = 0usize;
    let names = [
        cfg.engines[players[0]].name.clone(),
        cfg.engines[players[1]].name.clone(),
    ];
    let mut session: Box<dyn Rules> = match cfg.settings.new_rules() {
        Ok(s) => s,
        Err(e) => panic!("game settings were checked at start: {e}"),
    };
    let mut times: Vec<MoveInfo> = Vec::new();
    let mut clock = match cfg.tc {
        TimeControl::Clock { base, .. } => [base, base],
        _ => [0.0, 0.0],
    };

    let finish = |session: &dyn Rules,
                  black_seat: usize,
                  times: &[MoveInfo],
                  winner_seat: Option<usize>,
                  reason: Reason,
                  detail: String| {
        let seat_color = |seat: usize| {
            if seat == black_seat {
                Color::Black
            } else {
                Color::White
            }
        };
        let result = GameResult {
            index: job.index,
            first: players[0],
            second: players[1],
            black: players[black_seat],
            white: players[1 - black_seat],
            winner: winner_seat.map(seat_color),
            reason,
            moves: session.moves_played(),
            seconds: started.elapsed().as_secs_f64(),
            detail,
        };
        let moves: Vec<RecordMove> = session
            .history()
            .into_iter()
            .zip(times)
            .map(|(text, &(color, seconds, time_left))| RecordMove {
                color,
                text,
                seconds,
                time_left,
                comment: None,
            })
            .collect();
        let re = match result.winner {
            Some(c) => format!("{}+{}", c.letter(), reason.sgf_suffix()),
            None => "0".into(),
        };
        let record = Record {
            game: cfg.settings.game.clone(),
            size: cfg.settings.size,
            start: cfg.settings.start.clone(),
            black: Some(cfg.engines[result.black].name.clone()),
            white: Some(cfg.engines[result.white].name.clone()),
            result: Some(re),
            reason: Some(format!("{}: {}", reason.code(), result.detail)),
            date: Some(super::today()),
            event: cfg.event.clone(),
            round: Some(job.index.to_string()),
            time_control: Some(cfg.tc.describe(cfg.margin)),
            opening_moves: job.opening.as_ref().map_or(0, Vec::len),
            comment: None,
            moves,
        };
        GameOutput { result, record }
    };
    let forfeit = |session: &dyn Rules, black_seat: usize, times: &[MoveInfo], f: Forfeit| {
        finish(
            session,
            black_seat,
            times,
            Some(1 - f.seat),
            f.reason,
            f.detail,
        )
    };

    // Start both engines and set up the game.
    for seat in 0..2 {
        let e = players[seat];
        let setup = |p: &mut EngineProc| -> Result<(), Forfeit> {
            p.note(&format!(
                "game {} ({} vs {})",
                job.index, names[0], names[1]
            ));
            let mut cmds = vec![
                format!("game {}", cfg.settings.game),
                format!("boardsize {}", cfg.settings.size),
                "clear_board".to_string(),
            ];
            if let Some(s) = &cfg.settings.start {
                cmds.push(format!("start {s}"));
            }
            match cfg.tc {
                TimeControl::Clock { base, .. } => cmds.push(format!("time_settings {base} 0 0")),
                TimeControl::PerMove { seconds } => {
                    cmds.push(format!("time_settings 0 {seconds} 1"))
                }
                TimeControl::None => {}
            }
            for c in cmds {
                match p.command(&c, cfg.timeout) {
                    Ok(a) if a.ok => {}
                    Ok(a) => {
                        return Err(Forfeit {
                            seat,
                            reason: Reason::Setup,
                            detail: format!("{}: '{c}' refused: {}", names[seat], a.text),
                        });
                    }
                    Err(err) => return Err(engine_failure(seat, &names[seat], &c, &err)),
                }
            }
            Ok(())
        };
        let r = match seats.ensure(cfg, e) {
            Ok(p) => setup(p),
            Err(err) => Err(engine_failure(seat, &names[seat], "start", &err)),
        };
        if let Err(f) = r {
            return forfeit(&*session, black_seat, &times, f);
        }
    }

    // Tells the engine in `seat` that `color` played `mv`.
    let tell = |seats: &mut Seats, seat: usize, color: Color, mv: &str| -> Result<(), Forfeit> {
        let p = seats.procs[players[seat]].as_mut().expect("started");
        let c = format!("play {} {mv}", color.letter().to_ascii_lowercase());
        match p.command(&c, cfg.timeout) {
            Ok(a) if a.ok => Ok(()),
            Ok(a) => Err(Forfeit {
                seat,
                reason: Reason::Refused,
                detail: format!("{}: refused legal '{c}': {}", names[seat], a.text),
            }),
            Err(err) => Err(engine_failure(seat, &names[seat], &c, &err)),
        }
    };

    // The opening, told to both engines.
    if let Some(opening) = &job.opening {
        for mv in opening {
            let color = session.to_move();
            if let Err(e) = session.play(color, mv) {
                panic!("openings were checked at load: {mv}: {e}");
            }
            times.push((color, None, None));
            for seat in 0..2 {
                if let Err(f) = tell(seats, seat, color, mv) {
                    return forfeit(&*session, black_seat, &times, f);
                }
            }
            if mv.eq_ignore_ascii_case("swap") {
                black_seat = 1 - black_seat;
            }
        }
    }

    loop {
        if let Some(outcome) = session.outcome() {
            let winner = match outcome {
                Outcome::Win(Color::Black) => Some(black_seat),
                Outcome::Win(Color::White) => Some(1 - black_seat),
                Outcome::Draw => None,
            };
            let detail = match outcome {
                Outcome::Draw => "draw by the rules".to_string(),
                Outcome::Win(c) => format!(
                    "{} won as {} by the rules",
                    names[if c == Color::Black {
                        black_seat
                    } else {
                        1 - black_seat
                    }],
                    c.name()
                ),
            };
            return finish(&*session, black_seat, &times, winner, Reason::Rules, detail);
        }
        let color = session.to_move();
        let seat = if color == Color::Black {
            black_seat
        } else {
            1 - black_seat
        };
        if session.legal_moves_for(color).is_empty() {
            let detail = format!("{} has no legal move as {}", names[seat], color.name());
            return finish(
                &*session,
                black_seat,
                &times,
                Some(1 - seat),
                Reason::NoMoves,
                detail,
            );
        }
        if cfg.max_moves.is_some_and(|m| session.moves_played() >= m) {
            let detail = format!("move limit {} reached", cfg.max_moves.unwrap_or(0));
            return finish(
                &*session,
                black_seat,
                &times,
                None,
                Reason::MoveLimit,
                detail,
            );
        }

        let cl = color.letter().to_ascii_lowercase();
        let p = seats.procs[players[seat]].as_mut().expect("started");
        // The time this move may take, margin not included.
        let allowed = match cfg.tc {
            TimeControl::Clock { .. } => {
                let cmd = format!("time_left {cl} {:.3} 0", clock[seat].max(0.0));
                if let Err(err) = p.command(&cmd, cfg.timeout) {
                    let f = engine_failure(seat, &names[seat], &cmd, &err);
                    return forfeit(&*session, black_seat, &times, f);
                }
                Some(Duration::from_secs_f64(clock[seat].max(0.0)))
            }
            TimeControl::PerMove { seconds } => {
                let cmd = format!("time_left {cl} {seconds} 1");
                if let Err(err) = p.command(&cmd, cfg.timeout) {
                    let f = engine_failure(seat, &names[seat], &cmd, &err);
                    return forfeit(&*session, black_seat, &times, f);
                }
                Some(Duration::from_secs_f64(seconds))
            }
            TimeControl::None => None,
        };
        let wait = match allowed {
            Some(a) => a + cfg.margin + HANG_GRACE,
            None => cfg.timeout,
        };
        let t0 = Instant::now();
        let answer = p.command(&format!("genmove {cl}"), wait);
        let spent = t0.elapsed();
        let answer = match answer {
            Ok(a) => a,
            Err(err) => {
                let mut f = engine_failure(seat, &names[seat], &format!("genmove {cl}"), &err);
                if err == EngineError::Timeout {
                    f.detail = format!(
                        "{}: no answer to genmove {cl} after {:.3}s (killed)",
                        names[seat],
                        spent.as_secs_f64()
                    );
                }
                return forfeit(&*session, black_seat, &times, f);
            }
        };
        let spent_s = spent.as_secs_f64();
        if let Some(a) = allowed
            && spent > a + cfg.margin
        {
            let f = Forfeit {
                seat,
                reason: Reason::Time,
                detail: format!(
                    "{}: genmove took {spent_s:.3}s, allowed {:.3}s + margin {:.3}s",
                    names[seat],
                    a.as_secs_f64(),
                    cfg.margin.as_secs_f64()
                ),
            };
            return forfeit(&*session, black_seat, &times, f);
        }
        if !answer.ok {
            let f = Forfeit {
                seat,
                reason: Reason::Refused,
                detail: format!("{}: genmove {cl} failed: {}", names[seat], answer.text),
            };
            return forfeit(&*session, black_seat, &times, f);
        }
        let mv = answer.text.trim().to_string();
        if mv.eq_ignore_ascii_case("resign") {
            let detail = format!("{} resigned as {}", names[seat], color.name());
            return finish(
                &*session,
                black_seat,
                &times,
                Some(1 - seat),
                Reason::Resign,
                detail,
            );
        }
        if let Err(e) = session.play(color, &mv) {
            let reason = match e {
                MoveError::Syntax(_) => Reason::Unparsable,
                MoveError::Illegal(_) => Reason::Illegal,
            };
            let f = Forfeit {
                seat,
                reason,
                detail: format!("{} played '{mv}' as {}: {e}", names[seat], color.name()),
            };
            return forfeit(&*session, black_seat, &times, f);
        }
        let left = match cfg.tc {
            TimeControl::Clock { increment, .. } => {
                clock[seat] = clock[seat] - spent_s + increment;
                Some(clock[seat])
            }
            _ => None,
        };
        times.push((color, Some(spent_s), left));
        // Pass the move on in canonical notation.
        let canonical = session.history().last().cloned().unwrap_or(mv);
        if session.outcome().is_none()
            && let Err(f) = tell(seats, 1 - seat, color, &canonical)
        {
            return forfeit(&*session, black_seat, &times, f);
        }
        if canonical.eq_ignore_ascii_case("swap") {
            black_seat = 1 - black_seat;
        }
    }
}
