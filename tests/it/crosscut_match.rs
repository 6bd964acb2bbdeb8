//! `crosscut-match` end to end: real matches between tiny-time crosscut
//! instances, and matches against `crosscut-fake-engine` playing illegal
//! moves, garbage, non-GTP output, refusals, crashes, hangs, slow answers and
//! swaps. Every game must get the right result and the match must go on.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crosscut::game::{Color, Outcome};
use crosscut::sgf;
use crosscut::tournament::cli::{Cli, default_max_moves, parse_args};
use crosscut::tournament::engine_proc::shell_split;
use crosscut::tournament::results::{GameResult, Reason};
use crosscut::tournament::stats::SprtState;
use crosscut::tournament::{GameSettings, MatchConfig, Summary, report, run};

const CROSSCUT: &str = env!("CARGO_BIN_EXE_crosscut");
const FAKE: &str = env!("CARGO_BIN_EXE_crosscut-fake-engine");
const MATCH: &str = env!("CARGO_BIN_EXE_crosscut-match");

fn out_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("crosscut-match-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// A config from a command line (`{FAKE}`, `{CROSSCUT}` and `{OUT}`
/// replaced).
fn config(args: &str, out: &Path) -> MatchConfig {
    let line = args
        .replace("{FAKE}", FAKE)
        .replace("{CROSSCUT}", CROSSCUT)
        .replace("{OUT}", &out.display().to_string());
    let mut words = shell_split(&line).unwrap();
    words.push("--quiet".into());
    match parse_args(&words).unwrap() {
        Cli::Run(c) => *c,
        Cli::Help => unreachable!(),
    }
}

fn records(out: &Path) -> Vec<sgf::Record> {
    let mut files: Vec<_> = std::fs::read_dir(out.join("games"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| sgf::parse(&std::fs::read_to_string(f).unwrap()).unwrap())
        .collect()
}

/// Replays a record on the rules library and checks that it agrees with its
/// result line: the moves are legal, and a win by the rules is the one the
/// position shows, credited to the engine holding that colour.
fn check_record(rec: &sgf::Record, r: &GameResult, names: &[String]) {
    let settings = GameSettings {
        game: rec.game.clone(),
        size: rec.size,
        options: rec.options.clone(),
    };
    let mut s = settings.new_rules().unwrap();
    for m in &rec.moves {
        assert_eq!(m.color, s.to_move(), "{rec:?}");
        s.play(m.color, &m.text).unwrap();
    }
    assert_eq!(rec.black.as_deref(), Some(names[r.black].as_str()));
    assert_eq!(rec.white.as_deref(), Some(names[r.white].as_str()));
    if r.reason == Reason::Rules {
        let want = match r.winner {
            Some(c) => Outcome::Win(c),
            None => Outcome::Draw,
        };
        assert_eq!(s.outcome(), Some(want));
    }
    let re = rec.result.as_deref().unwrap();
    assert!(
        re.starts_with(&r.result_code()),
        "{re} vs {}",
        r.result_code()
    );
}

fn names(cfg: &MatchConfig) -> Vec<String> {
    cfg.engines.iter().map(|e| e.name.clone()).collect()
}

fn sorted(mut s: Summary) -> Vec<GameResult> {
    s.results.sort_by_key(|r| r.index);
    s.results
}

#[test]
fn real_match_between_two_crosscut_instances() {
    let out = out_dir("real");
    let cfg = config(
        "--engine 'name=deep cmd={CROSSCUT} param.max_depth=3 param.hash=1' \
         --engine 'name=shallow cmd={CROSSCUT} param.max_depth=1 param.hash=1' \
         --size 8 --games 4 --tc 5+0.05 --concurrency 2 --out {OUT} --log {OUT}/logs",
        &out,
    );
    let results = sorted(run(&cfg).unwrap());
    assert_eq!(results.len(), 4);
    let n = names(&cfg);
    let recs = records(&out);
    assert_eq!(recs.len(), 4);
    for (r, rec) in results.iter().zip(&recs) {
        assert_eq!(r.reason, Reason::Rules, "{r:?}");
        check_record(rec, r, &n);
        // Clock times are recorded for every engine move.
        assert!(
            rec.moves
                .iter()
                .all(|m| m.seconds.is_some() && m.time_left.is_some())
        );
        assert_eq!(rec.moves.len(), r.moves);
    }
    // Colours alternate.
    assert_eq!((results[0].first, results[1].first), (0, 1));
    // Each engine process logged its traffic.
    let logs = std::fs::read_dir(out.join("logs")).unwrap().count();
    assert!(logs >= 2);
    let log = std::fs::read_to_string(out.join("logs/deep-w1.log")).unwrap();
    assert!(log.contains("> param max_depth 3") && log.contains("> genmove"));

    // The engine loads every record with loadsgf and ends in the same state.
    for r in &results {
        let mut e = crate::common::Session::new();
        let path = out.join(format!("games/{:05}.sgf", r.index));
        e.ok(&format!("loadsgf {}", path.display()));
        let score = e.ok("final_score");
        assert_eq!(score, r.result_code());
    }
    std::fs::remove_dir_all(&out).unwrap();
}

/// Plays `games` games of a bad fake engine against a good one, and checks
/// that the bad one lost every game for `reason` and the match went on.
fn bad_engine(mode_args: &str, extra: &str, reason: Reason) -> Vec<GameResult> {
    let out = out_dir(&mode_args.replace([' ', '-'], ""));
    let cfg = config(
        &format!(
            "--engine 'name=good cmd=\"{{FAKE}} --seed 5\"' \
             --engine 'name=bad cmd=\"{{FAKE}} {mode_args}\"' \
             --size 8 --games 2 --timeout 5 --out {{OUT}} {extra}"
        ),
        &out,
    );
    let results = sorted(run(&cfg).unwrap());
    assert_eq!(results.len(), 2, "the match goes on after a forfeit");
    let n = names(&cfg);
    let recs = records(&out);
    for (r, rec) in results.iter().zip(&recs) {
        assert_eq!(r.reason, reason, "{r:?}");
        assert_eq!(r.loser_engine(), Some(1), "{r:?}");
        check_record(rec, r, &n);
        assert!(rec.reason.as_deref().unwrap().starts_with(reason.code()));
    }
    std::fs::remove_dir_all(&out).unwrap();
    results
}

#[test]
fn illegal_move_forfeits() {
    let r = bad_engine("--mode illegal --after 3", "--st 1", Reason::Illegal);
    assert!(r[0].detail.contains("bad played"), "{}", r[0].detail);
}

#[test]
fn garbage_forfeits() {
    bad_engine("--mode garbage --after 2", "--st 1", Reason::Unparsable);
}

#[test]
fn non_gtp_output_forfeits() {
    bad_engine("--mode noise --after 2", "--st 1", Reason::Protocol);
}

#[test]
fn refused_genmove_forfeits() {
    bad_engine("--mode refuse --after 2", "--st 1", Reason::Refused);
}

#[test]
fn resignation_loses() {
    bad_engine("--mode resign --after 2", "", Reason::Resign);
}

#[test]
fn crash_forfeits_and_the_engine_is_restarted() {
    let out = out_dir("crashlog");
    let cfg = config(
        &format!(
            "--engine 'name=good cmd=\"{FAKE} --seed 5\"' \
             --engine 'name=bad cmd=\"{FAKE} --mode crash --after 3\"' \
             --size 8 --games 3 --st 1 --out {{OUT}} --log {{OUT}}/logs"
        ),
        &out,
    );
    let results = sorted(run(&cfg).unwrap());
    assert_eq!(results.len(), 3);
    assert!(
        results
            .iter()
            .all(|r| r.reason == Reason::Crash && r.loser_engine() == Some(1))
    );
    // Started once per game: it crashed every time.
    let log = std::fs::read_to_string(out.join("logs/bad-w1.log")).unwrap();
    assert_eq!(log.matches("# started").count(), 3, "{log}");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn hung_engine_forfeits_and_is_killed() {
    let r = bad_engine(
        "--mode hang --after 2",
        "--st 0.1 --margin 0.05",
        Reason::Hang,
    );
    assert!(r[0].detail.contains("killed"));
}

#[test]
fn hung_engine_without_time_control_hits_the_timeout() {
    let out = out_dir("hangnotc");
    let cfg = config(
        &format!(
            "--engine '{FAKE}' --engine '{FAKE} --mode hang --after 1' \
             --size 8 --games 1 --timeout 1 --out {{OUT}}"
        ),
        &out,
    );
    let results = run(&cfg).unwrap().results;
    assert_eq!(results[0].reason, Reason::Hang);
    assert_eq!(results[0].loser_engine(), Some(1));
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn slow_engine_loses_on_time() {
    bad_engine(
        "--mode slow --delay 0.4 --after 2",
        "--st 0.1 --margin 0.05",
        Reason::Time,
    );
}

#[test]
fn slow_engine_loses_on_the_clock() {
    bad_engine(
        "--mode slow --delay 0.3 --after 1",
        "--tc 1+0 --margin 0.05",
        Reason::Time,
    );
}

#[test]
fn swap_reseats_the_players() {
    let out = out_dir("swap");
    let cfg = config(
        &format!(
            "--engine 'name=mover cmd=\"{FAKE} --seed 9\"' \
             --engine 'name=swapper cmd=\"{FAKE} --mode swap --seed 4\"' \
             --size 8 --option start=blank --games 2 --st 1 --out {{OUT}} --log {{OUT}}/logs"
        ),
        &out,
    );
    let results = sorted(run(&cfg).unwrap());
    let n = names(&cfg);
    let recs = records(&out);
    // Game 1: mover is Black, swapper White answers swap: swapper now holds
    // Black, mover White and moves next.
    let r = &results[0];
    assert_eq!((r.first, r.second), (0, 1));
    assert_eq!((r.black, r.white), (1, 0), "{r:?}");
    assert_eq!(recs[0].moves[1].text, "swap");
    assert_eq!(recs[0].moves[2].color, Color::White);
    assert_eq!(
        recs[0].options,
        vec![("start".to_string(), "blank".to_string())]
    );
    check_record(&recs[0], r, &n);
    // After the swap the first mover is asked for White's move.
    let log = std::fs::read_to_string(out.join("logs/mover-w1.log")).unwrap();
    let after_swap = &log[log.find("> play w swap").expect("told of the swap")..];
    let next_genmove = after_swap
        .lines()
        .find(|l| l.contains("> genmove"))
        .unwrap();
    assert!(next_genmove.ends_with("genmove w"), "{next_genmove}");
    // Game 2: the swapper moves first; the mover does not swap.
    let r = &results[1];
    assert_eq!((r.first, r.black), (1, 1));
    check_record(&recs[1], r, &n);
    // Every result is credited to an engine, whatever colour it ended with.
    for r in &results {
        assert!(r.reason == Reason::Rules || r.reason == Reason::NoMoves);
        let w = r.winner_engine().unwrap();
        assert_eq!(Some(r.winner.unwrap()), r.color_of(w));
    }
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn move_limit_draws_and_openings_are_played_from_both_sides() {
    let out = out_dir("limit");
    std::fs::create_dir_all(&out).unwrap();
    let openings = out.join("openings.txt");
    std::fs::write(&openings, "# two openings\nA1 B2\nC3, swap\n").unwrap();
    let cfg = config(
        &format!(
            "--engine '{FAKE} --seed 2' --engine '{FAKE} --seed 3' --size 8 --games 4 \
             --openings {} --maxmoves 6 --out {{OUT}}/run",
            openings.display()
        ),
        &out,
    );
    let results = sorted(run(&cfg).unwrap());
    assert!(
        results
            .iter()
            .all(|r| r.reason == Reason::MoveLimit && r.winner.is_none())
    );
    let recs = records(&out.join("run"));
    let first_moves: Vec<_> = recs.iter().map(|r| r.moves[0].text.clone()).collect();
    assert_eq!(first_moves, ["A1", "A1", "C3", "C3"]);
    assert!(
        recs.iter()
            .all(|r| r.opening_moves == 2 && r.moves.len() == 6)
    );
    // The records say why the game ended: a draw at the move limit.
    for (r, rec) in results.iter().zip(&recs) {
        assert_eq!(r.detail, "move limit 6 reached");
        assert_eq!(rec.result.as_deref(), Some("0"));
        assert_eq!(
            rec.reason.as_deref(),
            Some("move-limit: move limit 6 reached")
        );
    }
    // Both engines played each opening from both sides.
    assert_eq!((results[0].first, results[1].first), (0, 1));
    // After the opening swap, seats are exchanged.
    assert_eq!((results[2].first, results[2].black), (0, 1));
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn interrupted_run_resumes_from_its_results() {
    let out = out_dir("resume");
    let args = "--engine '{FAKE} --seed 2' --engine '{FAKE} --seed 3' --size 8 --out {OUT} \
                --log {OUT}/logs";
    let first = run(&config(&format!("{args} --games 2"), &out)).unwrap();
    assert_eq!(first.results.len(), 2);
    // The same run again without --resume is refused.
    assert!(run(&config(&format!("{args} --games 4"), &out)).is_err());
    let cfg = config(&format!("{args} --games 4 --resume"), &out);
    let all = sorted(run(&cfg).unwrap());
    assert_eq!(
        all.iter().map(|r| r.index).collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );
    let log = std::fs::read_to_string(out.join("logs/crosscut-fake-engine-w1.log")).unwrap();
    assert_eq!(
        log.matches("# game").count(),
        4,
        "games 1 and 2 are not replayed"
    );
    let text = std::fs::read_to_string(out.join("results.tsv")).unwrap();
    assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), 4);
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn sprt_stops_a_decided_match() {
    let out = out_dir("sprt");
    let cfg = config(
        &format!(
            "--engine '{FAKE}' --engine '{FAKE} --mode resign' --size 8 --games 200 \
             --sprt 0 50 0.05 0.05 --out {{OUT}}"
        ),
        &out,
    );
    let s = run(&cfg).unwrap();
    assert_eq!(s.sprt, Some(SprtState::H1));
    assert!(s.results.len() < 200);
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn spawn_failure_forfeits() {
    let out = out_dir("spawn");
    let cfg = config(
        &format!("--engine '{FAKE}' --engine /nonexistent/engine --size 8 --out {{OUT}}"),
        &out,
    );
    let s = run(&cfg).unwrap();
    assert!(
        s.results
            .iter()
            .all(|r| r.reason == Reason::Setup && r.loser_engine() == Some(1))
    );
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn binary_prints_progress_table_and_elo() {
    let out = out_dir("bin");
    let o = Command::new(MATCH)
        .args([
            "--engine",
            &format!("name=A cmd='{FAKE} --seed 1'"),
            "--engine",
            &format!("name=B cmd='{FAKE} --mode illegal --after 2'"),
            "--size",
            "8",
            "--games",
            "4",
            "--concurrency",
            "2",
            "--out",
            &out.display().to_string(),
        ])
        .output()
        .unwrap();
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    assert_eq!(text.matches("Game ").count(), 4 + 1, "{text}");
    assert!(
        text.contains("A vs B: 4-0-0 (W-L-D), Elo difference: n/a, LOS: "),
        "{text}"
    );
    assert!(text.contains("illegal 4"), "{text}");
    let help = Command::new(MATCH).arg("--help").output().unwrap();
    assert!(String::from_utf8(help.stdout).unwrap().contains("--sprt"));
    let bad = Command::new(MATCH).arg("--engine").output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&bad.stderr),
        "crosscut-match: bad command line (see --help): --engine needs a value\n"
    );
    // A match that cannot write its results stops with status 1 and says so.
    let blocked = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml/match");
    let stopped = Command::new(MATCH)
        .args([
            "--engine",
            &format!("cmd={FAKE}"),
            "--engine",
            &format!("cmd={FAKE}"),
        ])
        .args(["--games", "1", "--out", blocked])
        .output()
        .unwrap();
    assert_eq!(stopped.status.code(), Some(1));
    let text = String::from_utf8_lossy(&stopped.stderr);
    assert!(
        text.starts_with(&format!(
            "crosscut-match: the match into {blocked} stopped: cannot create"
        )),
        "{text}"
    );
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn every_game_is_refereed() {
    for game in crosscut::games::names() {
        let out = out_dir(&format!("game-{game}"));
        let cfg = config(
            &format!(
                "--engine '{FAKE} --seed 11' --engine '{FAKE} --seed 12' --game {game} \
                 --games 2 --maxmoves 300 --st 1 --out {{OUT}}"
            ),
            &out,
        );
        let results = sorted(run(&cfg).unwrap());
        assert_eq!(results.len(), 2, "{game}");
        let n = names(&cfg);
        for (r, rec) in results.iter().zip(&records(&out)) {
            assert!(!r.reason.is_forfeit(), "{game}: {r:?}");
            assert_eq!(rec.game, *game);
            check_record(rec, r, &n);
        }
        std::fs::remove_dir_all(&out).unwrap();
    }
}

/// Runs the `crosscut-match` binary with `args`, its output in files under
/// `out`; kills it (and returns `None`) if it has not finished within
/// `limit`.
fn run_binary(args: &[String], out: &Path, limit: Duration) -> Option<(Output, Duration)> {
    std::fs::create_dir_all(out).unwrap();
    let (so, se) = (out.join("stdout.txt"), out.join("stderr.txt"));
    let t0 = Instant::now();
    let mut child = Command::new(MATCH)
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&so).unwrap())
        .stderr(std::fs::File::create(&se).unwrap())
        .spawn()
        .unwrap();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let output = Output {
                status,
                stdout: std::fs::read(&so).unwrap(),
                stderr: std::fs::read(&se).unwrap(),
            };
            return Some((output, t0.elapsed()));
        }
        if t0.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The game lines of `out/results.tsv`, split into fields.
fn result_lines(out: &Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(out.join("results.tsv"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// A bad engine in `mode_args` against a good one, through the binary: the
/// match must end within 60 seconds, the bad engine forfeiting both games.
fn wedging_engine(name: &str, mode_args: &str, timeout: &str) -> (Vec<Vec<String>>, Duration) {
    let out = out_dir(name);
    let args: Vec<String> = [
        "--engine",
        &format!("name=good cmd='{FAKE} --seed 5'"),
        "--engine",
        &format!("name=bad cmd='{FAKE} {mode_args}'"),
        "--size",
        "8",
        "--games",
        "2",
        "--timeout",
        timeout,
        "--quiet",
        "--out",
        &out.display().to_string(),
    ]
    .map(String::from)
    .to_vec();
    let (o, took) = run_binary(&args, &out, Duration::from_secs(60))
        .unwrap_or_else(|| panic!("{mode_args}: no result after 60 s, the match is wedged"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let lines = result_lines(&out);
    assert_eq!(lines.len(), 2, "{lines:?}");
    for l in &lines {
        // The bad engine lost.
        let winner = if l[5] == "B+" { &l[3] } else { &l[4] };
        assert_eq!(winner, "good", "{l:?}");
    }
    std::fs::remove_dir_all(&out).unwrap();
    (lines, took)
}

#[test]
fn flooding_engine_forfeits_on_protocol() {
    // `=` lines without end, as fast as the pipe takes them: the answer
    // passes 1 MB long before the 30 s timeout.
    let (lines, took) = wedging_engine("flood", "--mode flood --after 2", "30");
    for l in &lines {
        assert_eq!(l[6], "protocol", "{l:?}");
        assert!(
            l[9].contains("bad: genmove") && l[9].contains("longer than 1048576 bytes"),
            "{l:?}"
        );
    }
    // 3.7 s measured on a shared 2-core machine, 10 times that allowed:
    // two games lost on the 30 s timeout would take over 60 s.
    assert!(took < Duration::from_secs(40), "{took:?}");
}

#[test]
fn dripping_engine_hits_the_timeout() {
    // A line every 10 ms, never the empty line that ends the answer: the
    // 1 s timeout holds.
    let (lines, took) = wedging_engine("drip", "--mode drip --delay 0.01 --after 2", "1");
    for l in &lines {
        assert_eq!(l[6], "hang", "{l:?}");
    }
    // 2.6 s measured on a shared 2-core machine, more than 10 times that
    // allowed: without the timeout the match would never end.
    assert!(took < Duration::from_secs(30), "{took:?}");
}

#[test]
fn a_torn_results_line_never_survives_resuming() {
    let out = out_dir("torn");
    let args = "--engine '{FAKE} --seed 2' --engine '{FAKE} --seed 3' --size 8 --out {OUT}";
    run(&config(&format!("{args} --games 2"), &out)).unwrap();
    // The runner was killed while writing game 3's line.
    let path = out.join("results.tsv");
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("3\tcrosscut-fake-engine\tcrosscut-fake-e");
    std::fs::write(&path, &text).unwrap();
    let indices = |s: Summary| sorted(s).iter().map(|r| r.index).collect::<Vec<_>>();
    let first = run(&config(&format!("{args} --games 4 --resume"), &out)).unwrap();
    assert_eq!(indices(first), [1, 2, 3, 4]);
    // Every line is whole: the second resume reads them all.
    let second = run(&config(&format!("{args} --games 6 --resume"), &out)).unwrap();
    assert_eq!(indices(second), [1, 2, 3, 4, 5, 6]);
    let lines = result_lines(&out);
    assert_eq!(
        lines.iter().map(|l| l[0].as_str()).collect::<Vec<_>>(),
        ["1", "2", "3", "4", "5", "6"]
    );
    assert!(lines.iter().all(|l| l.len() == 10), "{lines:?}");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn fake_engine_help_and_bad_options_do_not_start_it() {
    let fake = |args: &[&str]| {
        Command::new(FAKE)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    for h in ["--help", "-h"] {
        let o = fake(&["--mode", "crash", h]);
        assert_eq!(o.status.code(), Some(0));
        let text = String::from_utf8(o.stdout).unwrap();
        assert!(
            text.contains("usage: crosscut-fake-engine") && text.contains("flood"),
            "{text}"
        );
    }
    for bad in [
        &["--bogus"][..],
        &["--mode"],
        &["--mode", "nonsense"],
        &["--after", "x"],
        &["--seed", "1", "extra"],
    ] {
        let o = fake(bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        let text = String::from_utf8(o.stderr).unwrap();
        assert!(text.contains("usage: crosscut-fake-engine"), "{text}");
        assert!(o.stdout.is_empty(), "{bad:?}");
    }
}

#[test]
fn round_robin_ranks_the_engines() {
    let out = out_dir("ranking");
    // A wins every game; B resigns at its third move (after C forfeited);
    // C plays an illegal move at its second.
    let cfg = config(
        &format!(
            "--engine 'name=C cmd=\"{FAKE} --mode illegal --after 2\"' \
             --engine 'name=B cmd=\"{FAKE} --mode resign --after 3\"' \
             --engine 'name=A cmd=\"{FAKE} --seed 4\"' \
             --size 8 --games 2 --out {{OUT}}"
        ),
        &out,
    );
    let summary = run(&cfg).unwrap();
    let text = report(&cfg, &summary);
    let start = text.find("Ranking").expect(&text);
    let rows: Vec<Vec<&str>> = text[start..]
        .lines()
        .skip(2)
        .take(3)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows[0], ["1", "A", "4", "4.0", "100.0%", "n/a"], "{text}");
    assert_eq!(rows[1][..5], ["2", "B", "4", "2.0", "50.0%"], "{text}");
    assert!(text[start..].contains("50.0%   0.0 +/- "), "{text}");
    assert_eq!(rows[2], ["3", "C", "4", "0.0", "0.0%", "n/a"], "{text}");
    // Pairwise lines say n/a too; nothing is infinite.
    assert!(
        text.contains("C vs A: 0-2-0 (W-L-D), Elo difference: n/a, LOS: "),
        "{text}"
    );
    assert!(!text.contains("inf"), "{text}");
    // Two engines: no ranking (the pairing's line says it all).
    let two = Summary::default();
    assert!(!two.table(&["X".into(), "Y".into()]).contains("Ranking"));
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn the_move_limit_has_a_default_per_game() {
    let out = PathBuf::from("unused");
    let limit =
        |extra: &str| config(&format!("--engine {FAKE} --engine {FAKE} {extra}"), &out).max_moves;
    assert_eq!(limit(""), Some(default_max_moves("onyx", 12)));
    assert_eq!(limit("--size 4"), Some(default_max_moves("onyx", 4)));
    assert_eq!(limit("--game akron"), Some(640));
    assert_eq!(limit("--game orcoon --size 5"), Some(100));
    assert_eq!(limit("--game akron --maxmoves 3"), Some(3));
    let help = Command::new(MATCH).arg("--help").output().unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(
        help.contains("--maxmoves N") && help.contains("akron 640"),
        "{help}"
    );
}

/// RULINGS, Onyx: on blank 4×4 these 25 moves bring back after move 25 the
/// position after move 17 (captures make stones reappear).
const ONYX_CYCLE: &str =
    "D1 D4 C2 A4 A2 C1 B1 B2 B4 A3 B3 A3 B1 B2 C2 D2 C3 B2 B3 C1 A2 A3 C2 B2 B1";

/// The RULINGS sequence, then its cycle (moves 18 to 25) twice more: 41
/// moves, legal all the way on blank 4×4 Onyx.
fn onyx_cycle_moves() -> Vec<String> {
    let moves: Vec<String> = ONYX_CYCLE.split(' ').map(String::from).collect();
    let cycle = moves[17..25].to_vec();
    [moves, cycle.clone(), cycle].concat()
}

/// Replays `moves` on blank 4×4 Onyx with the rules library, counting the
/// positions by hash from the start: the move numbers after which the first
/// position to occur three times stood (0 for the start), or `None`.
fn first_threefold(moves: &[String]) -> Option<Vec<usize>> {
    let entry = crosscut::games::find("onyx").unwrap();
    let mut s = (entry.new_rules)(4, &vec![("start".into(), "blank".into())]).unwrap();
    let mut seen: std::collections::HashMap<u64, Vec<usize>> = Default::default();
    seen.entry(s.hash()).or_default().push(0);
    for (i, m) in moves.iter().enumerate() {
        let color = s.to_move();
        s.play(color, m).unwrap();
        assert_eq!(s.outcome(), None, "move {}: {m}", i + 1);
        let at = seen.entry(s.hash()).or_default();
        at.push(i + 1);
        if at.len() == 3 {
            return Some(at.clone());
        }
    }
    None
}

/// The detail a threefold repetition at `at` gets.
fn repetition_detail(at: &[usize]) -> String {
    format!(
        "the position after move {} occurred for the third time after move {} (again after move {})",
        at[0], at[2], at[1]
    )
}

#[test]
fn a_position_occurring_a_third_time_is_drawn_by_repetition() {
    let moves = onyx_cycle_moves();
    let at = first_threefold(&moves).expect("the cycle repeats");
    // The RULINGS' position after move 17 is back after 25, and after 33.
    assert_eq!(at, [17, 25, 33]);
    assert!(at[2] < moves.len(), "the engines would play on");
    let out = out_dir("repetition");
    // Both engines play the same script: each answers the move with the
    // game's move number.
    let fake = format!("{FAKE} --mode script --script {}", moves.join(","));
    let cfg = config(
        &format!(
            "--engine 'name=a cmd=\"{fake}\"' --engine 'name=b cmd=\"{fake}\"' \
             --game onyx --size 4 --option start=blank --games 2 --maxmoves 100 --st 1 --out {{OUT}}"
        ),
        &out,
    );
    let results = sorted(run(&cfg).unwrap());
    let n = names(&cfg);
    let recs = records(&out);
    assert_eq!(results.len(), 2);
    for (r, rec) in results.iter().zip(&recs) {
        assert_eq!(r.reason, Reason::Repetition, "{r:?}");
        assert_eq!((r.winner, r.moves), (None, at[2]), "{r:?}");
        assert_eq!(r.detail, repetition_detail(&at));
        assert!(!r.reason.is_forfeit());
        check_record(rec, r, &n);
        assert_eq!(rec.moves.len(), at[2]);
        let texts: Vec<&str> = rec.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, moves[..at[2]]);
        assert_eq!(rec.result.as_deref(), Some("0"));
        assert_eq!(
            rec.reason.as_deref(),
            Some(format!("repetition: {}", r.detail).as_str())
        );
    }
    // The results file's lines read back: resuming finds both games.
    let text = std::fs::read_to_string(out.join("results.tsv")).unwrap();
    assert_eq!(text.matches("\t0\trepetition\t33\t").count(), 2, "{text}");
    let mut again = cfg.clone();
    again.resume = true;
    let key = |r: &GameResult| (r.index, r.winner, r.reason, r.moves, r.detail.clone());
    let resumed = sorted(run(&again).unwrap());
    assert_eq!(
        resumed.iter().map(key).collect::<Vec<_>>(),
        results.iter().map(key).collect::<Vec<_>>()
    );
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn an_opening_with_a_threefold_repetition_ends_the_game_there() {
    // The whole cycle as an opening: the game ends where the opening brings
    // a position back the third time, before any engine is asked to move.
    let moves = onyx_cycle_moves();
    let at = first_threefold(&moves).unwrap();
    let out = out_dir("repetition-opening");
    std::fs::create_dir_all(&out).unwrap();
    let openings = out.join("openings.txt");
    std::fs::write(&openings, format!("{}\n", moves.join(" "))).unwrap();
    let cfg = config(
        &format!(
            "--engine 'name=a cmd=\"{FAKE} --seed 2\"' --engine 'name=b cmd=\"{FAKE} --seed 3\"' \
             --game onyx --size 4 --option start=blank --games 2 --openings {} --maxmoves 100 --out {{OUT}}/run \
             --log {{OUT}}/logs",
            openings.display()
        ),
        &out,
    );
    let results = sorted(run(&cfg).unwrap());
    let recs = records(&out.join("run"));
    for (r, rec) in results.iter().zip(&recs) {
        assert_eq!(r.reason, Reason::Repetition, "{r:?}");
        assert_eq!((r.winner, r.moves), (None, at[2]), "{r:?}");
        assert_eq!(r.detail, repetition_detail(&at));
        // The record keeps the opening's moves played, and says so.
        assert_eq!((rec.moves.len(), rec.opening_moves), (at[2], at[2]));
    }
    for engine in ["a", "b"] {
        let log = std::fs::read_to_string(out.join(format!("logs/{engine}-w1.log"))).unwrap();
        assert!(!log.contains("> genmove"), "{log}");
        // Two games; the move that made the third occurrence is not told.
        assert_eq!(log.matches("> play ").count(), 2 * (at[2] - 1), "{log}");
    }
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn akron_keeps_its_own_repetition_draw() {
    // Akron's rules draw the third occurrence themselves: reason rules.
    let moves = "A1 D4 A2 D3 A2-B1 D3-C4 B1-A2 C4-D3 A2-B1 D3-C4 B1-A2 C4-D3 A2-B1 D3-C4";
    let fake = format!("{FAKE} --mode script --script {}", moves.replace(' ', ","));
    let out = out_dir("repetition-akron");
    let cfg = config(
        &format!(
            "--engine 'name=a cmd=\"{fake}\"' --engine 'name=b cmd=\"{fake}\"' \
             --game akron --size 4 --games 1 --maxmoves 100 --st 1 --out {{OUT}}"
        ),
        &out,
    );
    let r = &run(&cfg).unwrap().results[0];
    assert_eq!(
        (r.reason, r.winner, r.moves),
        (Reason::Rules, None, 12),
        "{r:?}"
    );
    assert_eq!(r.detail, "draw by the rules");
    std::fs::remove_dir_all(&out).unwrap();
}

/// MoHex from Benzene (`../shared/tools/benzene`), when it is there and
/// starts: its command line, or `None` with a message (a fresh clone
/// without `../shared` skips the test).
fn mohex() -> Option<String> {
    let bin = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/tools/benzene/bin/mohex");
    let started = Command::new(&bin)
        .args(["--quiet", "--use-logfile=0"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(b"name\nquit\n")?;
            c.wait_with_output()
        });
    match started {
        Ok(o) if String::from_utf8_lossy(&o.stdout).contains("= MoHex") => {
            Some(format!("{} --quiet --use-logfile=0", bin.display()))
        }
        _ => {
            eprintln!(
                "SKIPPED: MoHex is not at {} or does not start",
                bin.display()
            );
            None
        }
    }
}

/// A Benzene engine seated with `proto=htp`: no `game` or time commands,
/// its `init` list sent once, `swap` passed on as `swap-pieces` (accepted
/// with `param_game allow_swap 1`), and the game ended by the referee at
/// the connection, since MoHex never resigns.
#[test]
fn benzene_engines_are_seated_with_proto_htp() {
    let Some(mohex) = mohex() else { return };
    let out = out_dir("htp");
    let cfg = config(
        &format!(
            "--game hex --size 5 \
             --engine 'name=mohex cmd=\"{mohex}\" proto=htp init=\"param_mohex max_time 1; param_mohex extend_unstable_search 0\"' \
             --engine 'name=swapper cmd=\"{FAKE} --mode swap --seed 3\"' \
             --games 2 --st 1 --margin 5 --out {{OUT}} --log {{OUT}}/logs"
        ),
        &out,
    );
    let results = sorted(run(&cfg).unwrap());
    let n = names(&cfg);
    let recs = records(&out);
    for (r, rec) in results.iter().zip(&recs) {
        assert_eq!(r.reason, Reason::Rules, "{r:?}");
        check_record(rec, r, &n);
    }
    // Game 1: MoHex opens, the fake swaps; MoHex is told `swap-pieces`
    // and moves on as White.
    assert_eq!(recs[0].moves[1].text, "swap");
    let log = std::fs::read_to_string(out.join("logs/mohex-w1.log")).unwrap();
    for sent in [
        "> param_mohex max_time 1",
        "> param_mohex extend_unstable_search 0",
        "> boardsize 5",
        "> param_game allow_swap 1",
        "> play w swap-pieces",
    ] {
        assert!(log.contains(sent), "{sent} not in\n{log}");
    }
    for never in ["> game ", "> time_settings", "> time_left", "> swap"] {
        assert!(!log.contains(never), "{never} in\n{log}");
    }
    let after_swap = &log[log.find("> play w swap-pieces").unwrap()..];
    let next = after_swap
        .lines()
        .find(|l| l.contains("> genmove"))
        .unwrap();
    assert!(next.ends_with("genmove w"), "{next}");

    // Without swap: MoHex is told so, and nobody swaps.
    let out = out_dir("htp-noswap");
    let cfg = config(
        &format!(
            "--game hex --size 4 --option swap=off \
             --engine {CROSSCUT} \
             --engine 'name=mohex cmd=\"{mohex}\" proto=htp init=\"param_mohex max_time 1\"' \
             --games 1 --st 1 --margin 5 --out {{OUT}} --log {{OUT}}/logs"
        ),
        &out,
    );
    let results = sorted(run(&cfg).unwrap());
    assert_eq!(results[0].reason, Reason::Rules, "{:?}", results[0]);
    let log = std::fs::read_to_string(out.join("logs/mohex-w1.log")).unwrap();
    assert!(log.contains("> param_game allow_swap 0"), "{log}");
    let rec = &records(&out)[0];
    assert_eq!(rec.options, vec![("swap".to_string(), "off".to_string())]);
    assert!(rec.moves.iter().all(|m| m.text != "swap"));
}

#[test]
fn htp_engines_take_only_the_swap_option() {
    let e = parse_args(
        &shell_split(&format!(
            "--game onyx --size 8 --option start=blank --engine {CROSSCUT} \
         --engine 'cmd=x proto=htp'"
        ))
        .unwrap(),
    )
    .unwrap_err();
    assert!(e.contains("no game option but swap"), "{e}");
    let e =
        parse_args(&shell_split("--engine a --engine 'cmd=b proto=klingon'").unwrap()).unwrap_err();
    assert!(e.contains("unknown proto"), "{e}");
}

#[test]
fn an_engine_that_closes_its_output_forfeits_at_once() {
    // It closes its stdout at its second genmove and lives on for 30 s: the
    // seat is forfeited as soon as its output is gone, its process group
    // killed, not when it exits (or at the 30 s timeout).
    let (lines, took) = wedging_engine("closed", "--mode close --delay 30 --after 2", "30");
    for l in &lines {
        assert_eq!(l[6], "crash", "{l:?}");
        assert!(l[9].contains("output closed"), "{l:?}");
    }
    // 0.3 s measured for both games on a shared 2-core machine; waiting for
    // the engine to exit would take 60 s.
    assert!(took < Duration::from_secs(15), "{took:?}");
}

#[test]
fn a_second_runner_on_the_same_folder_is_refused() {
    let out = out_dir("locked");
    std::fs::create_dir_all(&out).unwrap();
    // A lock file left by a runner that died does not block: the lock is
    // the open file's, gone with its process.
    std::fs::write(out.join(".crosscut-match.lock"), "999999\n").unwrap();
    let args = |extra: &str| -> Vec<String> {
        let line = format!(
            "--engine 'name=a cmd=\"{FAKE} --mode slow --delay 0.2 --seed 2\"' \
             --engine 'name=b cmd=\"{FAKE} --seed 3\"' --size 8 --games 2 --maxmoves 20 \
             --quiet --out {} {extra}",
            out.display()
        );
        shell_split(&line).unwrap()
    };
    let first = Command::new(MATCH)
        .args(args(""))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while !out.join("results.tsv").exists() {
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "the first runner never started"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let second = Command::new(MATCH)
        .args(args("--resume"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success(), "{err}");
    assert!(
        err.contains("in use by another crosscut-match (pid") && err.contains("--out"),
        "{err}"
    );
    let first = first.wait_with_output().unwrap();
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let indices: Vec<String> = result_lines(&out).iter().map(|l| l[0].clone()).collect();
    assert_eq!(indices, ["1", "2"], "every game once");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn resuming_repairs_duplicated_games_and_replays_missing_records() {
    let out = out_dir("dupes");
    let args = "--engine '{FAKE} --seed 2' --engine '{FAKE} --seed 3' --size 8 --out {OUT}";
    run(&config(&format!("{args} --games 3"), &out)).unwrap();
    let path = out.join("results.tsv");
    let text = std::fs::read_to_string(&path).unwrap();
    // Game 2's line twice (as two runners on one folder left it), and game
    // 3's record deleted.
    let line2 = text.lines().find(|l| l.starts_with("2\t")).unwrap();
    std::fs::write(&path, format!("{text}{line2}\n")).unwrap();
    std::fs::remove_file(out.join("games/00003.sgf")).unwrap();
    let all = sorted(run(&config(&format!("{args} --games 3 --resume"), &out)).unwrap());
    assert_eq!(all.iter().map(|r| r.index).collect::<Vec<_>>(), [1, 2, 3]);
    let lines = result_lines(&out);
    let mut indices: Vec<&str> = lines.iter().map(|l| l[0].as_str()).collect();
    indices.sort_unstable();
    assert_eq!(indices, ["1", "2", "3"], "{lines:?}");
    assert!(
        out.join("games/00003.sgf").exists(),
        "game 3 is played again"
    );
    // The removed lines are kept: both copies of game 2, and game 3's.
    let removed = std::fs::read_to_string(out.join("results.tsv.removed")).unwrap();
    let removed: Vec<&str> = removed.lines().map(|l| &l[..2]).collect();
    assert_eq!(removed, ["2\t", "2\t", "3\t"], "{removed:?}");
    std::fs::remove_dir_all(&out).unwrap();
}

/// Processes whose environment holds `marker`.
fn processes_marked(marker: &str) -> usize {
    let needle = format!("CROSSCUT_TEST_MARK={marker}");
    std::fs::read_dir("/proc")
        .map(|dir| {
            dir.filter_map(Result::ok)
                .filter(|e| {
                    e.file_name()
                        .to_string_lossy()
                        .bytes()
                        .all(|b| b.is_ascii_digit())
                })
                .filter(|e| {
                    std::fs::read(e.path().join("environ"))
                        .map(|env| env.split(|&b| b == 0).any(|v| v == needle.as_bytes()))
                        .unwrap_or(false)
                })
                .count()
        })
        .unwrap_or(0)
}

/// Engines run in process groups of their own (so a closed seat can be
/// ended with all it started), out of reach of the terminal's Ctrl-C: a
/// runner that is killed must still leave none behind.
#[cfg(target_os = "linux")]
#[test]
fn a_killed_runner_leaves_no_engine_behind() {
    let out = out_dir("killed");
    let marker = format!("{}-killed", std::process::id());
    let mut child = Command::new(MATCH)
        .args(
            shell_split(&format!(
                "--engine 'name=a cmd=\"{FAKE} --mode hang --after 2\"' --engine 'name=b cmd={FAKE}' \
                 --size 8 --games 2 --timeout 100 --quiet --out {}",
                out.display()
            ))
            .unwrap(),
        )
        .env("CROSSCUT_TEST_MARK", &marker)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while processes_marked(&marker) < 3 {
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "the engines never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let t0 = Instant::now();
    while processes_marked(&marker) > 0 {
        assert!(
            t0.elapsed() < Duration::from_secs(5),
            "{} engine(s) outlived the runner",
            processes_marked(&marker)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::fs::remove_dir_all(&out).unwrap();
}

/// A match played in shards (`--shard K/N`, each into its own folder) and
/// merged (`--merge`) equals the same match played whole, game by game:
/// the same games under the same numbers, the same results and records,
/// and the same report (table, Elo). Overlapping shards and games of
/// another match are refused.
#[test]
fn a_sharded_match_merged_equals_the_match_played_whole() {
    let root = out_dir("shards");
    let openings = root.join("openings.txt");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(&openings, "C3\nB2\nD4\n").unwrap();
    let base = format!(
        "--engine 'name=deep cmd={CROSSCUT} param.max_depth=2' \
         --engine 'name=shallow cmd={CROSSCUT} param.max_depth=1' \
         --game orcoon --size 5 --games 6 --openings {} --st 5",
        openings.display()
    );
    let at = |dir: &str, extra: &str| {
        let out = root.join(dir);
        (config(&format!("{base} {extra} --out {{OUT}}"), &out), out)
    };
    let (whole_cfg, whole_out) = at("whole", "");
    let whole = sorted(run(&whole_cfg).unwrap());
    assert_eq!(whole.len(), 6);
    assert!(whole.iter().all(|r| r.reason == Reason::Rules), "{whole:?}");
    let mut shard_dirs = Vec::new();
    for k in 1..=3 {
        let (cfg, out) = at(&format!("shard{k}"), &format!("--shard {k}/3"));
        let played = sorted(run(&cfg).unwrap());
        // Game numbers k, k+3: as in the whole match.
        let numbers: Vec<u32> = played.iter().map(|r| r.index).collect();
        assert_eq!(numbers, [k, k + 3]);
        shard_dirs.push(out);
    }
    let merge_args = shard_dirs
        .iter()
        .map(|d| format!("--merge {}", d.display()))
        .collect::<Vec<_>>()
        .join(" ");
    let (merge_cfg, merged_out) = at("merged", &merge_args);
    let mut merged = crosscut::tournament::merge(&merge_cfg).unwrap();
    let report_merged = report(&merge_cfg, &merged);
    merged.results.sort_by_key(|r| r.index);
    let key = |r: &GameResult| {
        (
            r.index, r.first, r.second, r.black, r.white, r.winner, r.reason, r.moves,
        )
    };
    assert_eq!(
        merged.results.iter().map(key).collect::<Vec<_>>(),
        whole.iter().map(key).collect::<Vec<_>>()
    );
    let moves = |out: &Path| -> Vec<Vec<String>> {
        records(out)
            .iter()
            .map(|r| r.moves.iter().map(|m| m.text.clone()).collect())
            .collect()
    };
    assert_eq!(moves(&merged_out), moves(&whole_out));
    let whole_summary = Summary {
        results: whole.clone(),
        sprt: None,
    };
    assert_eq!(report_merged, report(&whole_cfg, &whole_summary));
    // Merging a shard twice, or into a folder with games, is refused.
    let twice = format!(
        "--merge {} --merge {}",
        shard_dirs[0].display(),
        shard_dirs[0].display()
    );
    let (cfg, _) = at("twice", &twice);
    let e = crosscut::tournament::merge(&cfg).unwrap_err();
    assert!(e.contains("is in both"), "{e}");
    // Results of another match (other engines' order) do not belong.
    let other = format!(
        "--engine 'name=shallow cmd={CROSSCUT}' --engine 'name=deep cmd={CROSSCUT}' \
         --game orcoon --size 5 --games 6 --openings {} --merge {} --out {{OUT}}",
        openings.display(),
        shard_dirs[0].display()
    );
    let e = crosscut::tournament::merge(&config(&other, &root.join("other"))).unwrap_err();
    assert!(e.contains("does not belong"), "{e}");
    let _ = std::fs::remove_dir_all(&root);
}
