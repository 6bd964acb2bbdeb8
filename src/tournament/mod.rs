//! `crosscut-match`: plays matches between engines that speak crosscut's
//! protocol, refereed by the rules library, with statistics (Elo, LOS,
//! SPRT), game records, resumable results and traffic logs.
//!
//! The pieces: [`engine_proc`] (child processes and a GTP client with
//! deadlines), [`game_runner`] (one game), [`stats`], [`openings`],
//! [`results`] (the resume file) and [`cli`] (the command line). [`run`]
//! schedules the games over `concurrency` worker threads.

pub mod cli;
pub mod engine_proc;
pub mod game_runner;
pub mod lock;
pub mod openings;
pub mod results;
pub mod stats;

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::sync_channel;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use crate::games;
use crate::session::{Options, Rules};
use engine_proc::EngineSpec;
use game_runner::{Seats, play_game};
use results::{GameResult, Reason, ResultsFile};
use stats::{Sprt, SprtState, Wld};

/// The name of the swap option every game has (on: the pie rule; off: the
/// game without it), which an htp engine sets with `param_game allow_swap`.
pub const SWAP: &str = crate::games::common::SWAP.name;

/// Which game is played, on which board, with which options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSettings {
    /// `game` name.
    pub game: String,
    /// Board size.
    pub size: usize,
    /// The game's options as chosen (`--option start=blank`), each sent to
    /// the engines as the command of its name; the others take the game's
    /// defaults.
    pub options: Options,
}

impl GameSettings {
    /// A referee for a new game with these settings: the game's rules, no
    /// searcher.
    pub fn new_rules(&self) -> Result<Box<dyn Rules>, String> {
        let entry = games::find(&self.game)?;
        let options = entry.check_options(self.size, &self.options)?;
        (entry.new_rules)(self.size, &options)
    }
}

/// The time control.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// No limit from the runner (engines use their own settings); a
    /// `genmove` unanswered after `--timeout` counts as a hang.
    None,
    /// A fixed time per move (`--st`), sent as `time_settings 0 S 1`.
    PerMove {
        /// Seconds per move.
        seconds: f64,
    },
    /// A clock per player (`--tc base+inc`), sent as `time_settings BASE 0
    /// 0` and `time_left` before every `genmove`.
    Clock {
        /// Seconds at the start.
        base: f64,
        /// Seconds added after each move.
        increment: f64,
    },
}

impl TimeControl {
    /// Words for records and headers.
    pub fn describe(&self, margin: Duration) -> String {
        let m = margin.as_secs_f64();
        match self {
            TimeControl::None => "none".into(),
            TimeControl::PerMove { seconds } => format!("{seconds}s per move, margin {m}s"),
            TimeControl::Clock { base, increment } => {
                format!("{base}+{increment} (base+increment seconds), margin {m}s")
            }
        }
    }
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The engines, two or more (more play a round robin).
    pub engines: Vec<EngineSpec>,
    /// The game.
    pub settings: GameSettings,
    /// Games per pairing.
    pub games: u32,
    /// Games at once.
    pub concurrency: usize,
    /// Openings, each played from both sides.
    pub openings: Option<Vec<Vec<String>>>,
    /// Moves after which the game is drawn (reason `move-limit`); `None`
    /// plays on without limit. The command line always sets one, by default
    /// [`cli::default_max_moves`].
    pub max_moves: Option<usize>,
    /// Time control.
    pub tc: TimeControl,
    /// Time tolerated over the limit.
    pub margin: Duration,
    /// Deadline of every command but a timed `genmove`.
    pub timeout: Duration,
    /// Where results and records go.
    pub out_dir: PathBuf,
    /// Continue the run in `out_dir`.
    pub resume: bool,
    /// Where protocol traffic goes, if anywhere.
    pub log_dir: Option<PathBuf>,
    /// Stop when this test decides (two engines only).
    pub sprt: Option<Sprt>,
    /// Event name for records.
    pub event: Option<String>,
    /// No progress lines.
    pub quiet: bool,
    /// Print the table and Elo lines every this many games (0: only at the
    /// end).
    pub report_every: usize,
    /// Play only this share of the games (`--shard K/N`: the games whose
    /// number, counted from 0, is K−1 modulo N), each under its number in
    /// the whole match, so that shards played apart merge into it.
    pub shard: Option<(u32, u32)>,
    /// Instead of playing, merge the results and records of these folders
    /// (`--merge DIR`, the shards' `--out`) into `out_dir`.
    pub merge: Vec<PathBuf>,
}

/// One game to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// Number in the match, from 1.
    pub index: u32,
    /// Engine starting as Black.
    pub first: usize,
    /// Engine starting as White.
    pub second: usize,
    /// Opening moves to play first.
    pub opening: Option<Vec<String>>,
}

/// The games of a match in order: each pairing (i, j) of engines plays
/// `games` games, colours alternating, each opening twice (once from each
/// side); pairings take turns game pair by game pair.
pub fn schedule(cfg: &MatchConfig) -> Vec<Job> {
    let n = cfg.engines.len();
    let pairings: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect();
    let mut jobs = Vec::new();
    let rounds = cfg.games.div_ceil(2);
    for round in 0..rounds {
        for &(i, j) in &pairings {
            let opening = cfg
                .openings
                .as_ref()
                .map(|o| o[round as usize % o.len()].clone());
            for g in [2 * round, 2 * round + 1] {
                if g >= cfg.games {
                    continue;
                }
                let (first, second) = if g % 2 == 0 { (i, j) } else { (j, i) };
                jobs.push(Job {
                    index: jobs.len() as u32 + 1,
                    first,
                    second,
                    opening: opening.clone(),
                });
            }
        }
    }
    if let Some((k, n)) = cfg.shard {
        jobs.retain(|j| (j.index - 1) % n == k - 1);
    }
    jobs
}

/// Whether `r` is a game of the match scheduled as `jobs` (its number,
/// with the same engines starting as Black and White).
fn belongs(jobs: &[Job], r: &GameResult) -> bool {
    jobs.iter()
        .any(|j| j.index == r.index && j.first == r.first && j.second == r.second)
}

/// Merges the shards of a match (`--merge DIR...`, each the `--out` of one
/// `--shard K/N` run of the same command) into `cfg.out_dir`: every game's
/// result line (the games in order) and record, checked to belong to this
/// match, each game at most once. Returns the union, with the SPRT's state
/// over it, as [`run`] would have returned it for the whole match played
/// at once. The shards' folders are only read.
pub fn merge(cfg: &MatchConfig) -> Result<Summary, String> {
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let whole = MatchConfig {
        shard: None,
        ..cfg.clone()
    };
    let jobs = schedule(&whole);
    let mut results: BTreeMap<u32, (GameResult, PathBuf)> = BTreeMap::new();
    for dir in &cfg.merge {
        let path = dir.join("results.tsv");
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let r = GameResult::from_line(line, &names)
                .map_err(|e| format!("{} line {}: {e}", path.display(), n + 1))?;
            if !belongs(&jobs, &r) {
                return Err(format!(
                    "{}: game {} ({} vs {}) does not belong to this match: merge with the \
                     command line the shards were played with",
                    path.display(),
                    r.index,
                    names[r.first],
                    names[r.second]
                ));
            }
            if let Some((_, other)) = results.get(&r.index) {
                return Err(format!(
                    "game {} is in both {} and {}: shards must not overlap",
                    r.index,
                    other.display(),
                    dir.display()
                ));
            }
            let index = r.index;
            results.insert(index, (r, dir.clone()));
        }
    }
    let games_dir = cfg.out_dir.join("games");
    std::fs::create_dir_all(&games_dir)
        .map_err(|e| format!("cannot create {}: {e}", games_dir.display()))?;
    let _lock = lock::OutLock::acquire(&cfg.out_dir)?;
    let (mut file, _) = ResultsFile::open(&cfg.out_dir.join("results.tsv"), &names, false)?;
    for (index, (r, dir)) in &results {
        let from = record_path(&dir.join("games"), *index);
        let to = record_path(&games_dir, *index);
        std::fs::copy(&from, &to)
            .map_err(|e| format!("cannot copy {} to {}: {e}", from.display(), to.display()))?;
        file.append(r)?;
    }
    let missing = jobs.len() - results.len();
    if missing > 0 && !cfg.quiet {
        let _ = writeln!(
            std::io::stdout().lock(),
            "Merged {} of the match's {} games ({missing} not played yet)",
            results.len(),
            jobs.len()
        );
    }
    let mut summary = Summary {
        results: results.into_values().map(|(r, _)| r).collect(),
        sprt: None,
    };
    summary.sprt = cfg
        .sprt
        .map(|s| s.state(&summary.pairing(0, 1)))
        .filter(|s| *s != SprtState::Continue);
    Ok(summary)
}

/// A name usable in file names.
pub fn file_name_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Today's date (UTC) as `YYYY-MM-DD`.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    // Howard Hinnant's civil_from_days.
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Totals per engine.
#[derive(Clone, Debug, Default)]
struct EngineTotals {
    all: Wld,
    by_color: [Wld; 2],
    forfeits: BTreeMap<Reason, u32>,
}

/// What a finished match looked like.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Every game, in the order they finished (resumed ones first).
    pub results: Vec<GameResult>,
    /// Whether an SPRT stopped the match early, and how.
    pub sprt: Option<SprtState>,
}

impl Summary {
    /// Wins/losses/draws of engine `a` against engine `b`.
    pub fn pairing(&self, a: usize, b: usize) -> Wld {
        let mut w = Wld::default();
        for r in &self.results {
            let players = [r.first, r.second];
            if !(players.contains(&a) && players.contains(&b)) {
                continue;
            }
            match r.winner_engine() {
                Some(x) if x == a => w.wins += 1,
                Some(_) => w.losses += 1,
                None => w.draws += 1,
            }
        }
        w
    }

    fn totals(&self, n: usize) -> Vec<EngineTotals> {
        let mut t = vec![EngineTotals::default(); n];
        for r in &self.results {
            for e in [r.first, r.second] {
                let c = r.color_of(e).expect("played");
                let slot = &mut t[e];
                let (all, col) = (&mut slot.all, c.index());
                match r.winner_engine() {
                    Some(x) if x == e => {
                        all.wins += 1;
                        slot.by_color[col].wins += 1;
                    }
                    Some(_) => {
                        all.losses += 1;
                        slot.by_color[col].losses += 1;
                        if r.reason.is_forfeit() {
                            *slot.forfeits.entry(r.reason).or_default() += 1;
                        }
                    }
                    None => {
                        all.draws += 1;
                        slot.by_color[col].draws += 1;
                    }
                }
            }
        }
        t
    }

    /// The overall ranking of a round robin: per engine, sorted by score,
    /// its games, points (win 1, draw ½), score and Elo against the field
    /// (from its score against all its opponents together; `n/a` at 0 % or
    /// 100 %).
    pub fn ranking(&self, names: &[String]) -> String {
        let t = self.totals(names.len());
        let width = names.iter().map(|n| n.len()).max().unwrap_or(4).max(6);
        let mut order: Vec<usize> = (0..names.len()).collect();
        let points = |w: &Wld| f64::from(w.wins) + 0.5 * f64::from(w.draws);
        order.sort_by(|&a, &b| {
            let sa = t[a].all.score().unwrap_or(0.0);
            let sb = t[b].all.score().unwrap_or(0.0);
            sb.total_cmp(&sa)
                .then(points(&t[b].all).total_cmp(&points(&t[a].all)))
                .then(a.cmp(&b))
        });
        let mut s = format!(
            "Ranking (Elo against the field: each engine's score against all its opponents)\n\
             {:>3} {:<width$} {:>5} {:>7} {:>6}   Elo vs field\n",
            "#", "Engine", "games", "points", "score"
        );
        for (rank, &e) in order.iter().enumerate() {
            let w = &t[e].all;
            let score = w
                .score()
                .map_or_else(|| "-".to_string(), |x| format!("{:.1}%", 100.0 * x));
            s.push_str(&format!(
                "{:>3} {:<width$} {:>5} {:>7.1} {:>6}   {}\n",
                rank + 1,
                names[e],
                w.games(),
                points(w),
                score,
                stats::elo_text(w)
            ));
        }
        s
    }

    /// The results table: per engine, games, wins/losses/draws, score, the
    /// same per final colour, forfeits by cause; then game ends by reason;
    /// with more than two engines, the [`Summary::ranking`].
    pub fn table(&self, names: &[String]) -> String {
        let t = self.totals(names.len());
        let width = names.iter().map(|n| n.len()).max().unwrap_or(4).max(6);
        let mut s = String::new();
        s.push_str(&format!(
            "{:<width$} {:>5} {:>5} {:>6} {:>5} {:>6}   {:>11}   {:>11}   forfeits lost\n",
            "Engine", "games", "wins", "losses", "draws", "score", "as black", "as white"
        ));
        let mut order: Vec<usize> = (0..names.len()).collect();
        order.sort_by(|&a, &b| {
            let sa = t[a].all.score().unwrap_or(0.0);
            let sb = t[b].all.score().unwrap_or(0.0);
            sb.total_cmp(&sa).then(a.cmp(&b))
        });
        for e in order {
            let x = &t[e];
            let wld = |w: &Wld| format!("{}-{}-{}", w.wins, w.losses, w.draws);
            let forfeits = if x.forfeits.is_empty() {
                "-".to_string()
            } else {
                x.forfeits
                    .iter()
                    .map(|(r, n)| format!("{} {n}", r.code()))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            s.push_str(&format!(
                "{:<width$} {:>5} {:>5} {:>6} {:>5} {:>5.1}%   {:>11}   {:>11}   {}\n",
                names[e],
                x.all.games(),
                x.all.wins,
                x.all.losses,
                x.all.draws,
                100.0 * x.all.score().unwrap_or(0.0),
                wld(&x.by_color[0]),
                wld(&x.by_color[1]),
                forfeits
            ));
        }
        let mut by_reason: BTreeMap<Reason, u32> = BTreeMap::new();
        for r in &self.results {
            *by_reason.entry(r.reason).or_default() += 1;
        }
        s.push_str("(W-L-D as black / as white: the colour held at the end, after any swap)\n");
        if names.len() > 2 {
            s.push_str(&self.ranking(names));
        }
        s.push_str(&format!(
            "Game ends: {}\n",
            by_reason
                .iter()
                .map(|(r, n)| format!("{} {n}", r.code()))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        s
    }
}

fn progress_line(
    r: &GameResult,
    total: usize,
    names: &[String],
    (a, b): (usize, usize),
    running: &Wld,
) -> String {
    let outcome = match r.winner_engine() {
        Some(w) => format!("{} wins", names[w]),
        None => "draw".into(),
    };
    let swapped = if r.black != r.first { " (swapped)" } else { "" };
    format!(
        "Game {}/{total}: {} (B) vs {} (W){swapped}: {} {} by {}, {} moves, {:.1}s | {} vs {}: {}-{}-{}",
        r.index,
        names[r.first],
        names[r.second],
        r.result_code(),
        outcome,
        r.reason.code(),
        r.moves,
        r.seconds,
        names[a],
        names[b],
        running.wins,
        running.losses,
        running.draws
    )
}

/// The results table (with the ranking of a round robin), Elo lines of every
/// pairing, the first engine of each seen against the second, and the SPRT
/// line.
pub fn report(cfg: &MatchConfig, summary: &Summary) -> String {
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let mut s = summary.table(&names);
    for i in 0..names.len() {
        for j in i + 1..names.len() {
            let w = summary.pairing(i, j);
            s.push_str(&format!(
                "{} vs {}: {}-{}-{} (W-L-D), {}\n",
                names[i],
                names[j],
                w.wins,
                w.losses,
                w.draws,
                stats::elo_line(&w)
            ));
        }
    }
    if let Some(sprt) = &cfg.sprt {
        s.push_str(&sprt.report(&summary.pairing(0, 1)));
        s.push('\n');
    }
    s
}

/// Plays the match: resumes from `out_dir/results.tsv` when asked, writes a
/// record per game to `out_dir/games/`, prints progress to stdout (unless
/// quiet), and returns every result.
pub fn run(cfg: &MatchConfig) -> Result<Summary, String> {
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    if names.len() < 2 {
        return Err("a match needs at least two engines".into());
    }
    // Games are refereed from these settings: check them (and the openings)
    // once here, so the workers can rely on them.
    let mut check = cfg.settings.new_rules()?;
    for opening in cfg.openings.iter().flatten() {
        for mv in opening {
            let color = check.to_move();
            check
                .play(color, mv)
                .map_err(|e| format!("opening {}: {mv}: {e}", opening.join(" ")))?;
        }
        check = cfg.settings.new_rules()?;
    }
    let games_dir = cfg.out_dir.join("games");
    std::fs::create_dir_all(&games_dir)
        .map_err(|e| format!("cannot create {}: {e}", games_dir.display()))?;
    if let Some(d) = &cfg.log_dir {
        std::fs::create_dir_all(d).map_err(|e| format!("cannot create {}: {e}", d.display()))?;
    }
    // Held to the end of the run: a second runner on this folder is refused.
    let _lock = lock::OutLock::acquire(&cfg.out_dir)?;
    let (mut file, mut done) =
        ResultsFile::open(&cfg.out_dir.join("results.tsv"), &names, cfg.resume)?;
    forget_unrecorded(&mut file, &mut done, &games_dir)?;
    let jobs = schedule(cfg);
    let total = jobs.len();
    for r in &done {
        if !belongs(&jobs, r) {
            return Err(format!(
                "results.tsv game {} ({} vs {}) does not belong to this match: same engines, \
                 games and openings are needed to resume",
                r.index, names[r.first], names[r.second]
            ));
        }
    }
    let finished: HashSet<u32> = done.iter().map(|r| r.index).collect();
    let mut summary = Summary {
        results: done,
        sprt: None,
    };
    let decided = |summary: &Summary| {
        cfg.sprt
            .map(|s| s.state(&summary.pairing(0, 1)))
            .filter(|s| *s != SprtState::Continue)
    };
    let out = std::io::stdout();
    if !summary.results.is_empty() && !cfg.quiet {
        let _ = writeln!(
            out.lock(),
            "Resuming: {} of {total} games already played",
            summary.results.len()
        );
    }
    summary.sprt = decided(&summary);
    let queue: VecDeque<Job> = if summary.sprt.is_some() {
        VecDeque::new()
    } else {
        jobs.into_iter()
            .filter(|j| !finished.contains(&j.index))
            .collect()
    };
    let workers = cfg.concurrency.max(1).min(queue.len().max(1));
    let queue = Arc::new(Mutex::new(queue));
    let stop = Arc::new(AtomicBool::new(false));
    // A rendezvous channel: a worker hands its result over before it looks
    // at `stop` and takes the next game, so once the SPRT decides, each
    // worker finishes at most the game it is playing. (With an unbounded
    // channel, fast games ran ahead of the results' fsyncs and a decided
    // match could be played to its end.)
    let (tx, rx) = sync_channel(0);
    let mut handles = Vec::new();
    for w in 0..workers {
        let (queue, stop, tx, cfg) = (queue.clone(), stop.clone(), tx.clone(), cfg.clone());
        let games_dir = games_dir.clone();
        handles.push(thread::spawn(move || {
            let mut seats = Seats::new(cfg.engines.len(), w + 1);
            loop {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let job = match queue.lock().map(|mut q| q.pop_front()) {
                    Ok(Some(j)) => j,
                    _ => break,
                };
                let output = play_game(&cfg, &job, &mut seats);
                let path = record_path(&games_dir, job.index);
                if let Err(e) = std::fs::write(&path, output.record.to_sgf()) {
                    log::error!("cannot write {}: {e}", path.display());
                }
                if tx.send(output.result).is_err() {
                    break;
                }
            }
            seats.shutdown();
        }));
    }
    drop(tx);
    for r in rx {
        file.append(&r)?;
        summary.results.push(r);
        let r = summary.results.last().expect("just pushed");
        if !cfg.quiet {
            let (a, b) = (r.first.min(r.second), r.first.max(r.second));
            let line = progress_line(r, total, &names, (a, b), &summary.pairing(a, b));
            let _ = writeln!(out.lock(), "{line}");
        }
        let played = summary.results.len();
        if cfg.report_every > 0 && played.is_multiple_of(cfg.report_every) && played < total {
            let _ = writeln!(out.lock(), "\n{}", report(cfg, &summary));
        }
        if summary.sprt.is_none()
            && let Some(state) = decided(&summary)
        {
            summary.sprt = Some(state);
            stop.store(true, Ordering::SeqCst);
            if !cfg.quiet {
                let _ = writeln!(
                    out.lock(),
                    "SPRT decided ({}): finishing the games in progress",
                    if state == SprtState::H1 { "H1" } else { "H0" }
                );
            }
        }
    }
    for h in handles {
        let _ = h.join();
    }
    Ok(summary)
}

/// The record of game `index` in `games_dir`.
fn record_path(games_dir: &std::path::Path, index: u32) -> PathBuf {
    games_dir.join(format!("{index:05}.sgf"))
}

/// Removes from the results the games whose record is missing (deleted
/// since, or never written), saying so, so that resuming plays them again.
fn forget_unrecorded(
    file: &mut ResultsFile,
    done: &mut Vec<GameResult>,
    games_dir: &std::path::Path,
) -> Result<(), String> {
    let missing: HashSet<u32> = done
        .iter()
        .map(|r| r.index)
        .filter(|&i| !record_path(games_dir, i).exists())
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let mut list: Vec<u32> = missing.iter().copied().collect();
    list.sort_unstable();
    let list: Vec<String> = list.iter().map(u32::to_string).collect();
    log::warn!(
        "{}: no record for game(s) {}: their results lines are removed (kept in {}) and they are played again",
        games_dir.display(),
        list.join(", "),
        file.removed_path().display()
    );
    file.forget(&missing)?;
    done.retain(|r| !missing.contains(&r.index));
    Ok(())
}

/// How long a deadline of `seconds` is, refusing nonsense.
pub fn seconds(text: &str, what: &str) -> Result<Duration, String> {
    let v: f64 = text
        .parse()
        .map_err(|_| format!("{what} must be a number of seconds, not '{text}'"))?;
    if !v.is_finite() || !(0.0..=1.0e6).contains(&v) {
        return Err(format!("{what} must be from 0 to 1000000 seconds"));
    }
    Ok(Duration::from_secs_f64(v))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(engines: usize, games: u32, openings: Option<Vec<Vec<String>>>) -> MatchConfig {
        MatchConfig {
            engines: (0..engines)
                .map(|i| EngineSpec {
                    name: format!("E{i}"),
                    command: vec!["x".into()],
                    params: vec![],
                    init: vec![],
                    dir: None,
                    proto: engine_proc::Proto::Crosscut,
                })
                .collect(),
            settings: GameSettings {
                game: "onyx".into(),
                size: 8,
                options: Vec::new(),
            },
            games,
            concurrency: 1,
            openings,
            max_moves: None,
            tc: TimeControl::None,
            margin: Duration::ZERO,
            timeout: Duration::from_secs(1),
            out_dir: PathBuf::from("/nonexistent"),
            resume: false,
            log_dir: None,
            sprt: None,
            event: None,
            quiet: true,
            report_every: 0,
            shard: None,
            merge: Vec::new(),
        }
    }

    #[test]
    fn schedule_alternates_colours_and_repeats_openings() {
        let o = vec![vec!["A1".to_string()], vec!["B2".to_string()]];
        let jobs = schedule(&cfg(2, 5, Some(o)));
        let seats: Vec<_> = jobs.iter().map(|j| (j.first, j.second)).collect();
        assert_eq!(seats, [(0, 1), (1, 0), (0, 1), (1, 0), (0, 1)]);
        let op: Vec<_> = jobs
            .iter()
            .map(|j| j.opening.clone().unwrap()[0].clone())
            .collect();
        assert_eq!(op, ["A1", "A1", "B2", "B2", "A1"]);
        assert_eq!(
            jobs.iter().map(|j| j.index).collect::<Vec<_>>(),
            [1, 2, 3, 4, 5]
        );
    }

    #[test]
    fn round_robin_of_three() {
        let jobs = schedule(&cfg(3, 2, None));
        assert_eq!(jobs.len(), 6);
        let pairs: Vec<_> = jobs.iter().map(|j| (j.first, j.second)).collect();
        assert_eq!(pairs, [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]);
    }

    #[test]
    fn date_is_plausible() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
