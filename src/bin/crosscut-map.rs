//! `crosscut-map`: an opening map (the value of every first move) as a set
//! of independent jobs, one solve per opening, for an existing scheduler to
//! run: GNU parallel on one machine or many, or a Slurm job array.
//!
//! `list` prints the openings, `solve` solves one of them into its own
//! file in the output folder (a finished opening is never solved twice),
//! and `merge` writes the map from those files. An opening too hard for
//! one job is split into its answers: `list --opening MOVE` prints them,
//! `solve --opening MOVE --answer REPLY` solves one, and `merge` decides
//! the opening from them (lost when one answer refutes it, won when every
//! answer loses); an answer splits the same way, as a line of moves
//! (`--answer "REPLY MOVE"`), to any depth. See docs/solutions.md.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use crosscut::engine::Engine;
use crosscut::session::Solved;

/// The usage text.
const USAGE: &str = "\
crosscut-map: opening maps as independent jobs

usage:
  crosscut-map list  GAME [--opening MOVE]
  crosscut-map solve GAME --out DIR (--opening MOVE | --index K)
                     [--answer \"MOVE...\"] [--answer-index K]
                     [--time SECONDS] [--nodes N] [--hash MB] [--retry-unknown]
                     [--param NAME=VALUE ...] [--table FILE]
  crosscut-map merge --out DIR

GAME is: --game NAME [--size N] [--option NAME=VALUE ...] [--by color|player]
  (--by: wins counted by colour, or by player across a swap; default player)

list   prints every opening (the legal first moves, in board order), one a line;
       with --opening (and --answer), the legal moves after that line of moves.
solve  solves the position after one opening (by name, or the K-th of the list
       counting from 0, for job arrays) and writes DIR/job-MOVE.txt; an opening
       already solved is skipped (one left unknown too, unless --retry-unknown);
       one whose twin by a symmetry of the board that keeps the start has its
       file takes the twin's result, turned, without solving (with
       --retry-unknown, only the first of two unknown twins in board order is
       solved again; the other stays its copy).
       --time: seconds for this opening (default 60; 0 for no limit).
       --param: an engine parameter for the solve (as `param NAME VALUE`;
       those that change the nodes searched, never a value, e.g.
       solve_play_knowledge=true).
       --table: a job left unknown saves the solver's table to FILE (entries
       in use, about 24 bytes each); a later solve of the same line (same
       game, options, count and moves; --retry-unknown) with the same FILE
       loads it first and goes on from where the last one stopped, its
       nodes and seconds added to the job's. Another line's file is
       refused. A decided job leaves FILE as it was (delete it).
       With --answer (moves after the opening, space-separated) and/or
       --answer-index K (then the K-th of the legal moves after those), solves
       the position after that line instead, into DIR/job-MOVE-REPLY...txt
       (skipped when done, as above): a split opening.
merge  checks that every opening of the map has its file, all for the same game,
       and writes DIR/map.txt: the value of each opening for the player who
       played it, a board of them (W won, L lost, D drawn, ? unknown or missing),
       and the totals; a twin's copy shows its twin's latest result, turned.
       An opening (or a line) its own job left unknown, or that has none, is
       decided by the jobs below it: the side to move there wins when one
       of its moves wins, and loses when all of its moves are decided and
       none wins or draws (draws when the best draws), its proof the
       position and the deciding moves' proofs; the twin of a split
       opening follows it without a job of its own. By colour, a line still
       undecided (with or without a job) takes the value of a decided line
       that reached the same position (a transposition; a `#` line at the
       end names each), and two lines to one position decided differently
       are an error. A map by colour ends with the swap decision: the
       second player swaps after the openings that win for the opener and
       plays on after those that lose; the start with the swap is lost for
       the first player once every opening is decided and none drawn.
       Exits with 1 when openings are missing.
  -h, --help, --version
";

/// The game a map is of.
#[derive(Clone, Debug, PartialEq)]
struct MapGame {
    game: String,
    size: Option<usize>,
    options: Vec<String>,
    by: String,
}

impl MapGame {
    /// Whether wins are counted by player (across a swap), not by colour.
    fn by_player(&self) -> bool {
        self.by != "color"
    }

    /// An engine set up at the start of this game.
    fn engine(&self) -> Result<Engine> {
        let mut e = Engine::new();
        e.select_game(&self.game).map_err(|m| anyhow!(m))?;
        let entry = e.entry().expect("a game is selected");
        let size = self.size.unwrap_or(entry.default_size);
        let options = entry
            .parse_options(size, &self.options)
            .map_err(|m| anyhow!("--option: {m}"))?;
        for (name, value) in &options {
            e.set_option(name, value).map_err(|m| anyhow!(m))?;
        }
        e.new_game(size).map_err(|m| anyhow!(m))?;
        e.set_param("solve_by", &self.by)
            .map_err(|m| anyhow!("--by: {m}"))?;
        e.set_param("verbose", "false").map_err(|m| anyhow!(m))?;
        Ok(e)
    }

    /// The lines that name the game in a job file.
    fn header(&self, e: &Engine) -> String {
        let rules = e.rules().expect("a game is selected");
        let options: Vec<String> = e
            .options()
            .map(|o| o.iter().map(|(n, v)| format!("{n}={v}")).collect())
            .unwrap_or_default();
        format!(
            "game={}\nsize={}\noptions={}\nby={}\n",
            rules.name(),
            rules.size(),
            options.join(","),
            self.by
        )
    }
}

/// The openings of the map whose start is `e`'s game: the legal first
/// moves, in board order.
fn openings(e: &mut Engine) -> Result<Vec<String>> {
    let rules = e.rules_mut().map_err(|m| anyhow!(m))?;
    let color = rules.to_move();
    Ok(rules.legal_moves_for(color))
}

/// One opening's result, as its job file holds it.
#[derive(Clone, Debug, PartialEq)]
struct Job {
    /// The lines naming the game (`game=`, `size=`, `options=`, `by=`).
    header: String,
    opening: String,
    /// The moves after the opening up to the job's position, for a job of
    /// a split opening (the answer first); empty for the opening's own job.
    answer: Vec<String>,
    /// For the player who played the opening, in the position after the
    /// opening and `answer`: win, loss, draw, unknown.
    value: String,
    /// The winning move of the side to move in the job's position, when
    /// it wins: the answer that refutes the opening (an opening's job), or
    /// the opener's winning move after an answer.
    reply: Option<String>,
    nodes: u64,
    seconds: f64,
    /// The size of the proof (`solve`'s `proof`), when known.
    proof: Option<u64>,
    /// The opening whose solve this one's result was turned from (the
    /// board's symmetry maps the start to itself and one to the other),
    /// when it was not solved itself.
    twin: Option<String>,
    /// For a line `merge` decided from the jobs below it: how many of the
    /// moves after it are decided, and how many there are (not in job
    /// files).
    split: Option<(usize, usize)>,
}

impl Job {
    fn text(&self) -> String {
        let mut s = self.header.clone();
        let _ = writeln!(s, "opening={}", self.opening);
        if !self.answer.is_empty() {
            let _ = writeln!(s, "answer={}", self.answer.join(" "));
        }
        let _ = writeln!(s, "value={}", self.value);
        if let Some(r) = &self.reply {
            let _ = writeln!(s, "reply={r}");
        }
        let _ = writeln!(s, "nodes={}", self.nodes);
        let _ = writeln!(s, "seconds={:.3}", self.seconds);
        if let Some(p) = self.proof {
            let _ = writeln!(s, "proof={p}");
        }
        if let Some(t) = &self.twin {
            let _ = writeln!(s, "twin={t}");
        }
        s
    }

    fn parse(text: &str) -> Result<Job> {
        let get = |key: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
                .map(str::to_string)
        };
        let need = |key: &str| get(key).ok_or_else(|| anyhow!("no {key}= line"));
        let header = ["game", "size", "options", "by"]
            .iter()
            .map(|k| need(k).map(|v| format!("{k}={v}\n")))
            .collect::<Result<String>>()?;
        Ok(Job {
            header,
            opening: need("opening")?,
            answer: get("answer")
                .map(|a| a.split_whitespace().map(str::to_string).collect())
                .unwrap_or_default(),
            value: need("value")?,
            reply: get("reply"),
            nodes: need("nodes")?.parse().context("nodes=")?,
            seconds: need("seconds")?.parse().context("seconds=")?,
            proof: get("proof")
                .map(|p| p.parse())
                .transpose()
                .context("proof=")?,
            twin: get("twin"),
            split: None,
        })
    }
}

/// The job file in `dir` of `opening`, or of the line of moves `answer`
/// after it: `job-MOVE.txt`, `job-MOVE-REPLY.txt`, ...
fn job_path(dir: &Path, opening: &str, answer: &[String]) -> PathBuf {
    let safe = |m: &str| -> String {
        m.chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect()
    };
    let mut name = format!("job-{}", safe(opening));
    for m in answer {
        name.push('-');
        name.push_str(&safe(m));
    }
    dir.join(format!("{name}.txt"))
}

/// What the command line asks for.
struct Args {
    map: MapGame,
    out: Option<PathBuf>,
    opening: Option<String>,
    index: Option<usize>,
    answer: Vec<String>,
    answer_index: Option<usize>,
    time: f64,
    nodes: Option<u64>,
    hash: Option<usize>,
    retry_unknown: bool,
    /// Engine parameters for the solve (NAME=VALUE).
    params: Vec<String>,
    /// The file a solve left unknown saves its table to, and the next
    /// solve of the same line goes on from.
    table: Option<PathBuf>,
}

fn parse_args(words: &[String]) -> Result<Args> {
    let mut a = Args {
        map: MapGame {
            game: String::new(),
            size: None,
            options: Vec::new(),
            by: "player".into(),
        },
        out: None,
        opening: None,
        index: None,
        answer: Vec::new(),
        answer_index: None,
        time: 60.0,
        nodes: None,
        hash: None,
        retry_unknown: false,
        params: Vec::new(),
        table: None,
    };
    let mut it = words.iter();
    while let Some(w) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| anyhow!("{w} needs a value"))
        };
        match w.as_str() {
            "--game" => a.map.game = value()?,
            "--size" => a.map.size = Some(value()?.parse().context("--size")?),
            "--option" => a.map.options.push(value()?),
            "--by" => a.map.by = value()?,
            "--out" => a.out = Some(PathBuf::from(value()?)),
            "--opening" => a.opening = Some(value()?),
            "--index" => a.index = Some(value()?.parse().context("--index")?),
            "--answer" => {
                a.answer = value()?.split_whitespace().map(str::to_string).collect();
                if a.answer.is_empty() {
                    bail!("--answer needs a move");
                }
            }
            "--answer-index" => a.answer_index = Some(value()?.parse().context("--answer-index")?),
            "--time" => a.time = value()?.parse().context("--time")?,
            "--nodes" => a.nodes = Some(value()?.parse().context("--nodes")?),
            "--hash" => a.hash = Some(value()?.parse().context("--hash")?),
            "--retry-unknown" => a.retry_unknown = true,
            "--param" => a.params.push(value()?),
            "--table" => a.table = Some(PathBuf::from(value()?)),
            other => bail!("unknown option '{other}' (see --help)"),
        }
    }
    if !(0.0..=1e7).contains(&a.time) {
        bail!("--time must be from 0 to 10000000 seconds");
    }
    Ok(a)
}

/// Plays `opening` and then the moves of `answer` on `e`'s start, each
/// by the side to move; the colour that played the opening, and whether
/// the side to move now is the opener's: by colour, the opener's colour;
/// by player (`by_player`), after an odd number of answers (the players
/// alternate, a swap among the answers included). An error names the
/// move that is not legal, or that comes after the game's end.
fn play_line(
    e: &mut Engine,
    opening: &str,
    answer: &[String],
    by_player: bool,
) -> Result<(crosscut::game::Color, bool)> {
    let rules = e.rules_mut().map_err(|m| anyhow!(m))?;
    let opener = rules.to_move();
    rules
        .play(opener, opening)
        .map_err(|m| anyhow!("--opening {opening}: {m}"))?;
    for m in answer {
        if rules.outcome().is_some() {
            bail!("--answer {m}: the game is over before it");
        }
        let mover = rules.to_move();
        rules
            .play(mover, m)
            .map_err(|err| anyhow!("--answer {m}: {err}"))?;
    }
    let opener_moves = if by_player {
        answer.len() % 2 == 1
    } else {
        rules.to_move() == opener
    };
    Ok((opener, opener_moves))
}

/// The moves after `opening` and `answer` (played on `e`'s start): the
/// legal moves of the side to move, in board order (none when the game
/// is over), and whether that side is the opener's ([`play_line`]).
fn moves_after(
    e: &mut Engine,
    opening: &str,
    answer: &[String],
    by_player: bool,
) -> Result<(Vec<String>, bool)> {
    let (_, opener_moves) = play_line(e, opening, answer, by_player)?;
    let rules = e.rules_mut().map_err(|m| anyhow!(m))?;
    if rules.outcome().is_some() {
        return Ok((Vec::new(), opener_moves));
    }
    let mover = rules.to_move();
    Ok((rules.legal_moves_for(mover), opener_moves))
}

fn list(a: &Args) -> Result<()> {
    let mut e = a.map.engine()?;
    let moves = match &a.opening {
        None => openings(&mut e)?,
        Some(o) => moves_after(&mut e, o, &a.answer, a.map.by_player())?.0,
    };
    for m in moves {
        println!("{m}");
    }
    Ok(())
}

/// A value seen from the other side.
fn turned(value: &str) -> &str {
    match value {
        "win" => "loss",
        "loss" => "win",
        other => other,
    }
}

fn solve(a: &Args) -> Result<()> {
    let dir = a
        .out
        .as_deref()
        .ok_or_else(|| anyhow!("solve needs --out DIR"))?;
    let mut e = a.map.engine()?;
    let openings = openings(&mut e)?;
    let opening = match (&a.opening, a.index) {
        (Some(o), None) => o.clone(),
        (None, Some(k)) => openings
            .get(k)
            .cloned()
            .ok_or_else(|| anyhow!("--index {k}: the map has {} openings", openings.len()))?,
        _ => bail!("solve needs one of --opening MOVE and --index K"),
    };
    let mut answer = a.answer.clone();
    if let Some(k) = a.answer_index {
        let (all, _) = moves_after(&mut a.map.engine()?, &opening, &answer, a.map.by_player())?;
        let m = all.get(k).cloned().ok_or_else(|| {
            anyhow!(
                "--answer-index {k}: {} moves follow {opening} {}",
                all.len(),
                answer.join(" ")
            )
        })?;
        answer.push(m);
    }
    let name = line_name(&opening, &answer);
    let path = job_path(dir, &opening, &answer);
    let mut previous = None;
    if let Ok(text) = std::fs::read_to_string(&path) {
        let job = Job::parse(&text).with_context(|| format!("{}", path.display()))?;
        if job.value != "unknown" || !a.retry_unknown {
            println!("{name}: already solved ({})", job.value);
            return Ok(());
        }
        previous = Some(job);
    }
    let header = a.map.header(&e);
    if answer.is_empty()
        && let Some(job) = from_twin(&e, &openings, dir, &opening, &header, a.retry_unknown)?
    {
        write_job(&path, &job)?;
        println!(
            "{opening}: {} as its twin {}",
            job.value,
            job.twin.as_deref().unwrap_or("")
        );
        return Ok(());
    }
    if let Some(mb) = a.hash {
        e.set_param("solve_hash", &mb.to_string())
            .map_err(|m| anyhow!("--hash: {m}"))?;
    }
    if let Some(n) = a.nodes {
        e.set_param("solve_nodes", &n.to_string())
            .map_err(|m| anyhow!("--nodes: {m}"))?;
    }
    for p in &a.params {
        let (name, value) = p
            .split_once('=')
            .ok_or_else(|| anyhow!("--param {p}: NAME=VALUE expected"))?;
        if name == "solve_by" {
            bail!("--param {p}: the count is the map's (--by)");
        }
        e.set_param(name, value)
            .map_err(|m| anyhow!("--param {p}: {m}"))?;
    }
    let (opener, opener_moves) = play_line(&mut e, &opening, &answer, a.map.by_player())?;
    // The table a solve of this line left: its tag names the map and the
    // line, so no other line's entries are ever read.
    let tag = format!("{header}line={name}");
    let mut resumed = None;
    if let Some(t) = a.table.as_deref().filter(|t| t.exists()) {
        let mut file =
            std::fs::File::open(t).with_context(|| format!("cannot read {}", t.display()))?;
        let n = e
            .load_solver_table(&mut file, &tag)
            .map_err(|m| anyhow!("{}: {m}", t.display()))?;
        eprintln!("{name}: {n} table entries from {}", t.display());
        resumed = previous.as_ref().map(|p| (p.nodes, p.seconds));
    }
    let rules = e.rules_mut().map_err(|m| anyhow!(m))?;
    // The value for the side to move, seen from the opener: after the
    // opening alone a win of the answer is a loss of the opening. A
    // finished game is valued by its result.
    let (value, reply, nodes, seconds, proof) = match rules.outcome() {
        Some(crosscut::game::Outcome::Win(c)) => {
            let v = if c == opener { "win" } else { "loss" };
            (v.to_string(), None, 0, 0.0, None)
        }
        Some(crosscut::game::Outcome::Draw) => ("draw".to_string(), None, 0, 0.0, None),
        None => {
            let solved = e.solve(None, Some(a.time)).map_err(|m| anyhow!(m))?;
            let (value, reply) = match solved.value {
                Solved::Win(m) => ("win", m),
                Solved::Loss => ("loss", None),
                Solved::Draw => ("draw", None),
                Solved::Unknown => ("unknown", None),
            };
            let value = if opener_moves { value } else { turned(value) };
            (
                value.to_string(),
                reply,
                solved.nodes,
                solved.elapsed.as_secs_f64(),
                solved.proof,
            )
        }
    };
    // Gone on from a saved table: the line cost its earlier run too.
    let (nodes, seconds) = match resumed {
        Some((n, s)) => (nodes + n, seconds + s),
        None => (nodes, seconds),
    };
    let job = Job {
        header,
        opening: opening.clone(),
        answer,
        value,
        reply,
        nodes,
        seconds,
        proof,
        twin: None,
        split: None,
    };
    write_job(&path, &job)?;
    println!(
        "{name}: {} nodes {} time {:.2}{}",
        job.value,
        job.nodes,
        job.seconds,
        proof_words(job.proof)
    );
    // After the job's file: a table that cannot be written loses no result.
    if let Some(t) = a.table.as_deref().filter(|_| job.value == "unknown") {
        if let Some(dir) = t.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let mut n = 0;
        write_whole_with(t, |file| {
            n = e.save_solver_table(file, &tag).map_err(|m| anyhow!(m))?;
            Ok(())
        })?;
        eprintln!("{name}: {n} table entries to {}", t.display());
    }
    Ok(())
}

/// Writes a job's file: whole, then renamed, so that a job killed midway
/// leaves no file.
fn write_job(path: &Path, job: &Job) -> Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    write_whole(path, &job.text())
}

/// Writes `text` to a file of this process, then renames it to `path`:
/// a reader (or a second merge at the same time) sees the old file or
/// the new one, never a part.
fn write_whole(path: &Path, text: &str) -> Result<()> {
    write_whole_with(path, |f| {
        std::io::Write::write_all(f, text.as_bytes())?;
        Ok(())
    })
}

/// [`write_whole`] of what `write` writes to the file.
fn write_whole_with(
    path: &Path,
    write: impl FnOnce(&mut std::fs::File) -> Result<()>,
) -> Result<()> {
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    let mut file =
        std::fs::File::create(&tmp).with_context(|| format!("cannot write {}", tmp.display()))?;
    write(&mut file).with_context(|| format!("cannot write {}", tmp.display()))?;
    drop(file);
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// The result of `opening` turned from its twin's, when the game names a
/// symmetry of the start ([`crosscut::session::Rules::symmetric_move`])
/// that maps `opening` to another opening (of `openings`, the map's in
/// board order) whose job (of the same map, solved itself) is decided, or
/// unknown and either `retry_unknown` not asked or the twin first in
/// board order (its retry decides both): the same value, the refutation
/// turned.
fn from_twin(
    e: &Engine,
    openings: &[String],
    dir: &Path,
    opening: &str,
    header: &str,
    retry_unknown: bool,
) -> Result<Option<Job>> {
    let rules = e.rules().map_err(|m| anyhow!(m))?;
    let Some(twin) = rules.symmetric_move(opening).filter(|t| t != opening) else {
        return Ok(None);
    };
    let path = job_path(dir, &twin, &[]);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(None);
    };
    let job = Job::parse(&text).with_context(|| format!("{}", path.display()))?;
    // Of two unknown twins retried, the first in board order is solved
    // again; the other stays its copy, and `merge` reads the twin's
    // latest result.
    let place = |o: &str| openings.iter().position(|x| x == o);
    let twin_first = place(&twin) < place(opening);
    if job.header != header
        || job.twin.is_some()
        || (job.value == "unknown" && retry_unknown && !twin_first)
    {
        return Ok(None);
    }
    // The map takes the position after the twin to the one after the
    // opening; a reply that names no point (the swap) is its own image.
    let reply = job.reply.map(|r| rules.symmetric_move(&r).unwrap_or(r));
    Ok(Some(Job {
        header: header.to_string(),
        opening: opening.to_string(),
        answer: Vec::new(),
        value: job.value,
        reply,
        nodes: 0,
        seconds: 0.0,
        proof: None,
        twin: Some(twin),
        split: None,
    }))
}

/// A position, as a transposition is recognised: the hash of everything
/// that decides the game's future and the board as `showboard` draws it.
type Position = (u64, String);

/// A map's job files, for deciding lines from the jobs below them.
struct Lines<'a> {
    map: &'a MapGame,
    header: &'a str,
    /// Every job file of the map.
    jobs: &'a [Job],
    /// By colour, each decided line by its position: a line left
    /// undecided whose position another line reached takes that line's
    /// value (a value counted for a colour does not depend on the moves
    /// that led there). By player there are no transpositions (a swap
    /// among the moves exchanges whose win a value counts).
    known: Option<RefCell<HashMap<Position, Job>>>,
    /// The map's game, on which each line is played from the start
    /// ([`Lines::at_start`]).
    engine: RefCell<Engine>,
    /// The position after each line asked ([`Lines::position`]).
    positions: RefCell<HashMap<String, Position>>,
    /// Each line decided by a transposition, and the line it took its
    /// value from.
    transposed: RefCell<BTreeMap<String, String>>,
}

impl Lines<'_> {
    /// The map's game at its start (a new game of the same size and
    /// options), to play a line on.
    fn at_start(&self) -> Result<std::cell::RefMut<'_, Engine>> {
        let mut e = self.engine.borrow_mut();
        let size = e.rules().map_err(|m| anyhow!(m))?.size();
        e.new_game(size).map_err(|m| anyhow!(m))?;
        Ok(e)
    }

    /// The position after `opening` and `answer`, played on the map's
    /// start.
    fn position(&self, opening: &str, answer: &[String]) -> Result<Position> {
        let line = line_name(opening, answer);
        if let Some(p) = self.positions.borrow().get(&line) {
            return Ok(p.clone());
        }
        let mut e = self.at_start()?;
        play_line(&mut e, opening, answer, self.map.by_player())?;
        let rules = e.rules().map_err(|m| anyhow!(m))?;
        let p = (rules.hash(), rules.showboard());
        self.positions.borrow_mut().insert(line, p.clone());
        Ok(p)
    }

    /// The result for the opener after `opening` and `answer`
    /// ([`Lines::resolve_by_jobs`]), or, when that leaves it undecided,
    /// the result of a decided line that reached the same position (see
    /// [`Lines::known`]); a decided line is recorded for the others. An
    /// error when two lines to one position are decided differently.
    fn resolve(&self, opening: &str, answer: &[String]) -> Result<Option<Job>> {
        let found = self.resolve_by_jobs(opening, answer)?;
        let Some(known) = &self.known else {
            return Ok(found);
        };
        let position = self.position(opening, answer)?;
        let line = line_name(opening, answer);
        let decided = found.as_ref().filter(|j| j.value != "unknown");
        let mut known = known.borrow_mut();
        match (decided, known.get(&position)) {
            (Some(j), Some(k)) if k.value != j.value => bail!(
                "{line} is {} but {}, the same position, is {}",
                j.value,
                job_line(k),
                k.value
            ),
            (Some(j), None) => {
                known.insert(position, j.clone());
                Ok(found)
            }
            (Some(_), Some(_)) => Ok(found),
            (None, Some(k)) => {
                let mut j = found.unwrap_or_else(|| Job {
                    header: self.header.to_string(),
                    opening: opening.to_string(),
                    answer: answer.to_vec(),
                    value: String::new(),
                    reply: None,
                    nodes: 0,
                    seconds: 0.0,
                    proof: None,
                    twin: None,
                    split: None,
                });
                j.value = k.value.clone();
                j.reply = k.reply.clone();
                j.proof = k.proof;
                self.transposed.borrow_mut().insert(line, job_line(k));
                Ok(Some(j))
            }
            (None, None) => Ok(found),
        }
    }

    /// The result for the opener after `opening` and `answer`: its own
    /// job's when that is decided (or when no job lies below it), else
    /// from the jobs below (the side to move wins when one of its moves
    /// wins, naming the first in board order; it loses, or draws, when
    /// every move is decided and none is better; otherwise unknown), with
    /// the nodes and seconds of every job at and below the line, the
    /// number of moves decided, and the proof's size when the proofs of
    /// the moves that decide it are known: this position and theirs (the
    /// winning move's, or every move's). `None`: no job at or below it. An error
    /// when a job below names no legal move, or contradicts a decided job
    /// above it.
    fn resolve_by_jobs(&self, opening: &str, answer: &[String]) -> Result<Option<Job>> {
        let own = self
            .jobs
            .iter()
            .find(|j| j.opening == opening && j.answer == answer);
        let below: Vec<&Job> = self
            .jobs
            .iter()
            .filter(|j| {
                j.opening == opening
                    && j.answer.len() > answer.len()
                    && j.answer.starts_with(answer)
            })
            .collect();
        if below.is_empty() {
            return Ok(own.cloned());
        }
        let line = line_name(opening, answer);
        let (all, opener_moves) = moves_after(
            &mut *self.at_start()?,
            opening,
            answer,
            self.map.by_player(),
        )?;
        if let Some(j) = below
            .iter()
            .find(|j| !all.contains(&j.answer[answer.len()]))
        {
            bail!(
                "{}: {} is not a legal move after {line}",
                job_line(j),
                j.answer[answer.len()]
            );
        }
        let mut results = Vec::new();
        for m in &all {
            let next = [answer, std::slice::from_ref(m)].concat();
            results.push(self.resolve(opening, &next)?);
        }
        let value_of = |k: usize| results[k].as_ref().map(|j| j.value.as_str());
        let (wanted, otherwise) = if opener_moves {
            ("win", "loss")
        } else {
            ("loss", "win")
        };
        let decided = (0..all.len())
            .filter(|&k| value_of(k).is_some_and(|v| v != "unknown"))
            .count();
        let winner = (0..all.len()).find(|&k| value_of(k) == Some(wanted));
        let value = if winner.is_some() {
            wanted
        } else if decided < all.len() {
            "unknown"
        } else if (0..all.len()).any(|k| value_of(k) == Some("draw")) {
            "draw"
        } else {
            otherwise
        };
        // The proof: this position and the proofs of the moves that
        // decide it (the winning one, or every one), when all are known.
        let deciding: Vec<usize> = match winner {
            Some(k) => vec![k],
            None if value != "unknown" => (0..all.len()).collect(),
            None => Vec::new(),
        };
        let proof = (!deciding.is_empty())
            .then(|| {
                deciding
                    .iter()
                    .map(|&k| results[k].as_ref().and_then(|j| j.proof))
                    .sum::<Option<u64>>()
                    .map(|p| p + 1)
            })
            .flatten();
        let spent = own.into_iter().chain(below.iter().copied());
        let derived = Job {
            header: self.header.to_string(),
            opening: opening.to_string(),
            answer: answer.to_vec(),
            value: value.to_string(),
            reply: winner.map(|k| all[k].clone()),
            nodes: spent.clone().map(|j| j.nodes).sum(),
            seconds: spent.map(|j| j.seconds).sum(),
            proof,
            twin: None,
            split: Some((decided, all.len())),
        };
        match own {
            Some(own) if own.value != "unknown" => {
                if value != "unknown" && value != own.value {
                    bail!(
                        "{line}: its job says {} but the jobs below it say {value}",
                        own.value
                    );
                }
                Ok(Some(own.clone()))
            }
            // A twin's copy left unknown stays a copy (which `merge`
            // brings up to date) unless the jobs below decide it.
            Some(own) if own.twin.is_some() && value == "unknown" => Ok(Some(own.clone())),
            _ => Ok(Some(derived)),
        }
    }
}

/// A line of moves (an opening and the moves after it), as the command
/// line and the output name it.
fn line_name(opening: &str, answer: &[String]) -> String {
    std::iter::once(opening)
        .chain(answer.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A job's line of moves ([`line_name`]).
fn job_line(j: &Job) -> String {
    line_name(&j.opening, &j.answer)
}

/// ` proof P` after a job's figures when the proof's size is known.
fn proof_words(proof: Option<u64>) -> String {
    proof.map(|p| format!(" proof {p}")).unwrap_or_default()
}

/// The value's letter on the map's board.
fn letter(value: &str) -> char {
    match value {
        "win" => 'W',
        "loss" => 'L',
        "draw" => 'D',
        _ => '?',
    }
}

/// The map's line on the swap (the pie rule), from the values by colour
/// of the openings (`value`: `win`, `loss`, `draw`, or anything else or
/// nothing when undecided). The swap leaves the board as it is and gives
/// the opening to the second player, White to move again, so by colour a
/// swapped opening keeps its value and changes hands: the second player
/// swaps after an opening that wins for the opener and plays on after one
/// that loses, and the first player's best is a draw. With every opening
/// decided and none drawn, the first player loses the game with the swap.
fn swap_decision<'a>(
    openings: &'a [String],
    value: impl Fn(&'a String) -> Option<&'a str>,
) -> String {
    let with = |v: &str| -> Vec<&str> {
        openings
            .iter()
            .filter(|o| value(o) == Some(v))
            .map(|o| o.as_str())
            .collect()
    };
    let (won, lost, drawn) = (with("win"), with("loss"), with("draw"));
    let open = openings.len() - won.len() - lost.len() - drawn.len();
    let start = if !drawn.is_empty() {
        "a draw (the first player opens with a drawn opening)".to_string()
    } else if open == 0 {
        "lost for the first player".to_string()
    } else {
        format!("at best a draw for the first player ({open} undecided)")
    };
    let list = |v: &[&str]| {
        if v.is_empty() {
            String::new()
        } else {
            format!(": {}", v.join(" "))
        }
    };
    format!(
        "# with the swap: the second player swaps after the {} won openings{} and plays on after the {} lost{}; the start is {start}",
        won.len(),
        list(&won),
        lost.len(),
        list(&lost),
    )
}

fn merge(a: &Args) -> Result<bool> {
    let dir = a
        .out
        .as_deref()
        .ok_or_else(|| anyhow!("merge needs --out DIR"))?;
    let mut jobs = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let path = entry?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with("job-") && name.ends_with(".txt") {
            let text = std::fs::read_to_string(&path)?;
            jobs.push(Job::parse(&text).with_context(|| format!("{}", path.display()))?);
        }
    }
    let first = jobs
        .first()
        .cloned()
        .ok_or_else(|| anyhow!("no job files in {}", dir.display()))?;
    if let Some(j) = jobs.iter().find(|j| j.header != first.header) {
        bail!(
            "the jobs are of different maps: {} and {}",
            first.header.replace('\n', " "),
            j.header.replace('\n', " ")
        );
    }
    let field = |key: &str| {
        first
            .header
            .lines()
            .find_map(|l| l.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
            .unwrap_or("")
            .to_string()
    };
    let map = MapGame {
        game: field("game"),
        size: Some(field("size").parse().context("size=")?),
        options: field("options")
            .split(',')
            .filter(|o| !o.is_empty())
            .map(str::to_string)
            .collect(),
        by: field("by"),
    };
    let mut e = map.engine()?;
    let openings = openings(&mut e)?;
    // Each opening's result: its own job's, or decided by the jobs of a
    // split opening below it.
    if let Some(j) = jobs.iter().find(|j| !openings.contains(&j.opening)) {
        bail!(
            "{}: {} is not an opening of the map",
            job_line(j),
            j.opening
        );
    }
    let lines = Lines {
        map: &map,
        header: &first.header,
        jobs: &jobs,
        engine: RefCell::new(map.engine()?),
        known: (!map.by_player()).then(|| RefCell::new(HashMap::new())),
        positions: RefCell::new(HashMap::new()),
        transposed: RefCell::new(BTreeMap::new()),
    };
    // Again while the last pass decided more positions: a line may reach
    // the position of one resolved after it.
    let mut resolved;
    let mut decided = 0;
    loop {
        lines.transposed.borrow_mut().clear();
        resolved = Vec::new();
        for o in &openings {
            if let Some(j) = lines.resolve(o, &[])? {
                resolved.push(j);
            }
        }
        let now = lines.known.as_ref().map_or(0, |k| k.borrow().len());
        if now == decided {
            break;
        }
        decided = now;
    }
    let mut jobs = resolved;
    // A twin's copy takes its twin's latest result, turned: the twin may
    // have been solved again since the copy was written.
    let rules = e.rules().map_err(|m| anyhow!(m))?;
    let solved: Vec<Job> = jobs.iter().filter(|j| j.twin.is_none()).cloned().collect();
    // An opening with no job of its own whose twin was split (its result
    // is in no file) is a copy of its twin all the same.
    for o in &openings {
        if jobs.iter().any(|j| &j.opening == o) {
            continue;
        }
        let twin = rules.symmetric_move(o).filter(|t| t != o);
        if let Some(src) = solved.iter().find(|s| Some(&s.opening) == twin.as_ref())
            && src.split.is_some()
        {
            jobs.push(Job {
                header: src.header.clone(),
                opening: o.clone(),
                answer: Vec::new(),
                value: String::new(),
                reply: None,
                nodes: 0,
                seconds: 0.0,
                proof: None,
                twin: Some(src.opening.clone()),
                split: None,
            });
        }
    }
    for j in &mut jobs {
        if let Some(src) = solved.iter().find(|s| Some(&s.opening) == j.twin.as_ref()) {
            j.value = src.value.clone();
            j.reply = src
                .reply
                .as_ref()
                .map(|r| rules.symmetric_move(r).unwrap_or_else(|| r.clone()));
            j.split = src.split;
        }
    }
    let view = e
        .rules_mut()
        .and_then(|r| r.position())
        .map_err(|m| anyhow!(m))?;
    let value_of = |o: &str| jobs.iter().find(|j| j.opening == o);
    let missing: Vec<&String> = openings.iter().filter(|o| value_of(o).is_none()).collect();
    // The board: each point's letter at its drawing place (half units).
    let points = &view.drawing.points;
    let cols = points
        .iter()
        .map(|p| (2.0 * p.x).round() as usize)
        .max()
        .unwrap_or(0)
        + 1;
    let rows = points
        .iter()
        .map(|p| (2.0 * p.y).round() as usize)
        .max()
        .unwrap_or(0)
        + 1;
    let mut grid = vec![vec![' '; cols]; rows];
    for p in points {
        if let Some(o) = openings.iter().find(|o| **o == p.name) {
            let c = value_of(o).map_or('?', |j| letter(&j.value));
            grid[(2.0 * p.y).round() as usize][(2.0 * p.x).round() as usize] = c;
        }
    }
    let mut out = first.header.clone();
    let _ = writeln!(
        out,
        "# the value of each opening for the player who played it: W won, L lost, D drawn, ? unknown"
    );
    for row in grid {
        let line: String = row.into_iter().collect();
        if !line.trim().is_empty() {
            let _ = writeln!(out, "{}", line.trim_end());
        }
    }
    let (mut won, mut lost, mut other) = (0, 0, 0);
    let mut total_nodes = 0u64;
    let mut total_seconds = 0.0;
    let mut total_proof = 0u64;
    for o in &openings {
        match value_of(o) {
            Some(j) => {
                match j.value.as_str() {
                    "win" => won += 1,
                    "loss" => lost += 1,
                    _ => other += 1,
                }
                total_nodes += j.nodes;
                total_seconds += j.seconds;
                let reply = j
                    .reply
                    .as_deref()
                    .map(|r| format!(" reply {r}"))
                    .unwrap_or_default();
                total_proof += j.proof.unwrap_or(0);
                let split = j
                    .split
                    .map(|(d, n)| format!(" answers {d}/{n}"))
                    .unwrap_or_default();
                let _ = match &j.twin {
                    Some(t) => writeln!(out, "{o} {}{reply} as its twin {t}{split}", j.value),
                    None => writeln!(
                        out,
                        "{o} {}{reply} nodes {} time {:.2}{}{split}",
                        j.value,
                        j.nodes,
                        j.seconds,
                        proof_words(j.proof)
                    ),
                };
            }
            None => {
                let _ = writeln!(out, "{o} missing");
            }
        }
    }
    let _ = writeln!(
        out,
        "# {} openings: {won} won, {lost} lost, {other} drawn or unknown, {} missing; {total_nodes} nodes, {total_seconds:.1} s, proofs {total_proof} positions",
        openings.len(),
        missing.len()
    );
    if !map.by_player() {
        let value = |o: &String| value_of(o).map(|j| j.value.as_str());
        let _ = writeln!(out, "{}", swap_decision(&openings, value));
    }
    for (line, from) in lines.transposed.borrow().iter() {
        let _ = writeln!(out, "# {line}: by transposition, as {from}");
    }
    let path = dir.join("map.txt");
    write_whole(&path, &out)?;
    print!("{out}");
    if !missing.is_empty() {
        eprintln!(
            "crosscut-map: {} of {} openings missing: {}",
            missing.len(),
            openings.len(),
            missing
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    Ok(missing.is_empty())
}

fn main() {
    let words: Vec<String> = std::env::args().skip(1).collect();
    let run = || -> Result<bool> {
        let Some((command, rest)) = words.split_first() else {
            bail!("a command is needed: list, solve or merge (see --help)");
        };
        match command.as_str() {
            "-h" | "--help" => {
                print!("{USAGE}");
                Ok(true)
            }
            "--version" => {
                println!("crosscut-map {}", env!("CARGO_PKG_VERSION"));
                Ok(true)
            }
            "list" | "solve" | "merge" => {
                let a = parse_args(rest)?;
                if command != "merge" && a.map.game.is_empty() {
                    bail!("{command} needs --game NAME");
                }
                match command.as_str() {
                    "list" => list(&a).map(|_| true),
                    "solve" => solve(&a).map(|_| true),
                    _ => merge(&a),
                }
            }
            other => bail!("unknown command '{other}' (list, solve or merge; see --help)"),
        }
    };
    match run() {
        Ok(true) => {}
        Ok(false) => std::process::exit(1),
        Err(e) => {
            eprintln!("crosscut-map: {e:#}");
            std::process::exit(2);
        }
    }
}
