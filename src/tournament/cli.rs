//! The command line of `crosscut-match`, parsed by hand (a dozen options do
//! not need a parser crate).

use std::path::PathBuf;
use std::time::Duration;

use super::engine_proc::{EngineSpec, Proto, shell_split};
use super::stats::Sprt;
use super::{GameSettings, MatchConfig, SWAP, TimeControl, openings, seconds};

/// The usage text, with the games of the registry filled in.
pub fn usage() -> String {
    let games = crate::games::GAMES;
    let options: Vec<String> = games
        .iter()
        .flat_map(|g| {
            g.options
                .iter()
                .map(move |o| format!("{} {}={}", g.name, o.name, o.values.join("|")))
        })
        .collect();
    let limits: Vec<String> = games
        .iter()
        .map(|g| format!("{} {}", g.name, (g.move_limit)(g.default_size)))
        .collect();
    USAGE
        .replace(
            "{games}",
            &format!(
                "{} (default {})",
                crate::games::names().join(", "),
                games[0].name
            ),
        )
        .replace("{options}", &options.join("; "))
        .replace("{limits}", &limits.join(", "))
}

/// The usage text, with `{games}`, `{options}` and `{limits}` to fill in.
const USAGE: &str = "\
crosscut-match: plays matches between engines speaking crosscut's protocol

usage: crosscut-match --engine SPEC --engine SPEC [--engine SPEC...] [options]

Engines (two or more; more than two play a round robin):
  --engine SPEC        an engine: either its command line (\"target/release/crosscut\"),
                       or words KEY=VALUE: name=NAME cmd='COMMAND ARGS' dir=DIR
                       param.NAME=VALUE (sends 'param NAME VALUE' at start; repeatable)
                       init='CMD;CMD' (commands sent once at start, after the params)
                       proto=htp for Benzene's MoHex and Wolve: no 'game' or
                       time commands (set their time with init='param_mohex max_time 1'),
                       swap as 'swap-pieces', --option swap=on|off as 'param_game
                       allow_swap 1|0'; they never resign: the game ends at the connection
  --each SPEC          KEY=VALUE words applied to every engine (param.*, dir)
Game:
  --game NAME          {games}
  --size N             board size (default: the game's)
  --option NAME=VALUE  a game option, sent to the engines as the command of its
                       name (repeatable; the others keep the game's defaults):
                       {options}
  --games N            games per pairing of engines (default 2); colours alternate
  --openings FILE      one opening per line (moves separated by spaces); each is
                       played twice, once from each side
  --maxmoves N         a game reaching N moves (openings included) is drawn,
                       reason move-limit (default: a few times the points of
                       the board; at the default sizes {limits})
                       the third occurrence of a position draws too, reason repetition
Time (a game is lost on time when a move takes longer than allowed + margin):
  --st SECONDS         time per move
  --tc BASE+INC        a clock per player: BASE seconds, INC added per move
  --margin SECONDS     tolerance over the limit (default 0.1)
  --timeout SECONDS    deadline of every other command, and of genmove without a
                       time control (default 30)
Running:
  --concurrency N      games at once (default 1)
  --sprt ELO0 ELO1 ALPHA BETA
                       stop when the SPRT of engine 1 against engine 2 decides
  --out DIR            results.tsv and games/NNNNN.sgf go here (default match-out)
  --resume             continue the interrupted run in --out DIR
  --log DIR            keep every engine's protocol traffic in DIR
  --event NAME         event name for the records
  --report N           print the table and Elo lines every N games
  --shard K/N          play only the K-th of N shares of the games (game numbers
                       as in the whole match), e.g. one share a machine
  --merge DIR          (repeatable) play nothing: merge the --out folders of the
                       shards into --out and report the whole match (results,
                       Elo, SPRT); give the same command line as the shards
  --quiet              no line per game
  -h, --help           this text
";

/// The move limit of a game when `--maxmoves` is not given: the game's
/// own default for the size ([`crate::games::GameEntry::move_limit`]), or
/// 10 × size² for a game the registry does not know.
pub fn default_max_moves(game: &str, size: usize) -> usize {
    crate::games::find(game).map_or(10 * size * size, |g| (g.move_limit)(size))
}

/// What the command line asks for.
#[derive(Debug)]
pub enum Cli {
    /// Print the usage.
    Help,
    /// Play this match.
    Run(Box<MatchConfig>),
}

#[derive(Default)]
struct EngineOpts {
    name: Option<String>,
    command: Vec<String>,
    params: Vec<(String, String)>,
    init: Vec<String>,
    dir: Option<String>,
    proto: Option<Proto>,
}

const KEYS: [&str; 5] = ["name", "cmd", "dir", "init", "proto"];

fn is_kv_word(w: &str) -> bool {
    w.split_once('=')
        .is_some_and(|(k, _)| KEYS.contains(&k) || k.starts_with("param."))
}

fn apply_kv(opts: &mut EngineOpts, word: &str, each: bool) -> Result<(), String> {
    let (k, v) = word.split_once('=').expect("checked by is_kv_word");
    match k {
        "name" if !each => opts.name = Some(v.to_string()),
        "cmd" if !each => opts.command = shell_split(v)?,
        "dir" => opts.dir = Some(v.to_string()),
        "init" => opts.init.extend(
            v.split(';')
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(str::to_string),
        ),
        "proto" => opts.proto = Some(Proto::parse(v)?),
        _ if k.starts_with("param.") && k.len() > 6 => {
            opts.params.push((k[6..].to_string(), v.to_string()))
        }
        _ => return Err(format!("'{word}' is not allowed here")),
    }
    Ok(())
}

fn parse_engine(spec: &str) -> Result<EngineOpts, String> {
    let words = shell_split(spec)?;
    let mut opts = EngineOpts::default();
    if !words.is_empty() && words.iter().all(|w| is_kv_word(w)) {
        for w in &words {
            apply_kv(&mut opts, w, false)?;
        }
        if opts.command.is_empty() {
            return Err(format!("--engine '{spec}': no cmd=..."));
        }
    } else {
        opts.command = words;
        if opts.command.is_empty() {
            return Err("--engine needs a command".into());
        }
    }
    Ok(opts)
}

fn number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{what} must be a whole number, not '{text}'"))
}

fn parse_tc(text: &str) -> Result<TimeControl, String> {
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let base = seconds(base, "--tc base")?.as_secs_f64();
    let increment = seconds(inc, "--tc increment")?.as_secs_f64();
    if base <= 0.0 {
        return Err("--tc base time must be positive".into());
    }
    Ok(TimeControl::Clock { base, increment })
}

/// Parses the arguments (without the program name).
pub fn parse_args(args: &[String]) -> Result<Cli, String> {
    let mut engines: Vec<EngineOpts> = Vec::new();
    let mut each = EngineOpts::default();
    let mut game = crate::games::GAMES[0].name.to_string();
    let mut size: Option<usize> = None;
    let mut option_words: Vec<String> = Vec::new();
    let mut games = 2u32;
    let mut openings_file = None;
    let mut max_moves = None;
    let mut tc = TimeControl::None;
    let mut margin = Duration::from_millis(100);
    let mut timeout = Duration::from_secs(30);
    let mut concurrency = 1usize;
    let mut sprt = None;
    let mut out_dir = PathBuf::from("match-out");
    let mut resume = false;
    let mut log_dir = None;
    let mut event = None;
    let mut quiet = false;
    let mut report_every = 0usize;
    let mut shard = None;
    let mut merge = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |what: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{what} needs a value"))
        };
        match a.as_str() {
            "-h" | "--help" => return Ok(Cli::Help),
            "--engine" => engines.push(parse_engine(&value(a)?)?),
            "--each" => {
                for w in shell_split(&value(a)?)? {
                    if !is_kv_word(&w) {
                        return Err(format!("--each: '{w}' is not KEY=VALUE"));
                    }
                    apply_kv(&mut each, &w, true)?;
                }
            }
            "--game" => game = value(a)?.to_ascii_lowercase(),
            "--size" => size = Some(number(&value(a)?, "--size")?),
            "--option" => option_words.push(value(a)?),
            "--games" => games = number(&value(a)?, "--games")?,
            "--openings" => openings_file = Some(value(a)?),
            "--maxmoves" => max_moves = Some(number(&value(a)?, "--maxmoves")?),
            "--st" => {
                let s = seconds(&value(a)?, "--st")?.as_secs_f64();
                if s <= 0.0 {
                    return Err("--st must be positive".into());
                }
                tc = TimeControl::PerMove { seconds: s };
            }
            "--tc" => tc = parse_tc(&value(a)?)?,
            "--margin" => margin = seconds(&value(a)?, "--margin")?,
            "--timeout" => timeout = seconds(&value(a)?, "--timeout")?,
            "--concurrency" => concurrency = number(&value(a)?, "--concurrency")?,
            "--sprt" => {
                let mut v = [0.0; 4];
                for x in &mut v {
                    let t = value(a)?;
                    *x = t
                        .parse()
                        .map_err(|_| format!("--sprt takes four numbers, not '{t}'"))?;
                }
                sprt = Some(Sprt::new(v[0], v[1], v[2], v[3])?);
            }
            "--out" => out_dir = PathBuf::from(value(a)?),
            "--resume" => resume = true,
            "--log" => log_dir = Some(PathBuf::from(value(a)?)),
            "--event" => event = Some(value(a)?),
            "--quiet" => quiet = true,
            "--report" => report_every = number(&value(a)?, "--report")?,
            "--shard" => shard = Some(parse_shard(&value(a)?)?),
            "--merge" => merge.push(PathBuf::from(value(a)?)),
            other => return Err(format!("unknown option '{other}' (see --help)")),
        }
    }
    if engines.len() < 2 {
        return Err("at least two --engine are needed (see --help)".into());
    }
    if sprt.is_some() && engines.len() != 2 {
        return Err("--sprt needs exactly two engines".into());
    }
    if games == 0 {
        return Err("--games must be at least 1".into());
    }
    if concurrency == 0 {
        return Err("--concurrency must be at least 1".into());
    }
    let size = match size {
        Some(s) => s,
        None => crate::games::find(&game)?.default_size,
    };
    let options = crate::games::find(&game)?
        .parse_options(size, &option_words)
        .map_err(|e| format!("--option: {e}"))?;
    let settings = GameSettings {
        game,
        size,
        options,
    };
    settings.new_rules()?;
    if max_moves == Some(0) {
        return Err("--maxmoves must be at least 1".into());
    }
    let max_moves =
        Some(max_moves.unwrap_or_else(|| default_max_moves(&settings.game, settings.size)));
    let openings = match openings_file {
        Some(f) => Some(openings::load_openings(&f, &settings)?),
        None => None,
    };
    // Names: given, or the program's file name, made unique.
    let mut specs: Vec<EngineSpec> = Vec::new();
    for e in engines {
        let given = e.name.is_some();
        let base = e.name.unwrap_or_else(|| {
            std::path::Path::new(&e.command[0])
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "engine".into())
        });
        let mut name = base.clone();
        let mut k = 2;
        while specs.iter().any(|s| s.name == name) {
            if given {
                return Err(format!("two engines are named '{name}'"));
            }
            name = format!("{base}-{k}");
            k += 1;
        }
        if name.is_empty() || name.contains(['\t', '\n']) {
            return Err(format!("bad engine name '{name}'"));
        }
        let mut params = each.params.clone();
        params.extend(e.params);
        let mut init = each.init.clone();
        init.extend(e.init);
        let proto = e.proto.or(each.proto).unwrap_or_default();
        if proto == Proto::Htp
            && let Some((option, _)) = settings.options.iter().find(|(n, _)| n != SWAP)
        {
            return Err(format!(
                "{name}: an htp engine takes no game option but {SWAP}, not '{option}'"
            ));
        }
        specs.push(EngineSpec {
            name,
            command: e.command,
            params,
            init,
            dir: e.dir.or_else(|| each.dir.clone()),
            proto,
        });
    }
    Ok(Cli::Run(Box::new(MatchConfig {
        engines: specs,
        settings,
        games,
        concurrency,
        openings,
        max_moves,
        tc,
        margin,
        timeout,
        out_dir,
        resume,
        log_dir,
        sprt,
        event,
        quiet,
        report_every,
        shard,
        merge,
    })))
}

/// `--shard K/N`: 1 ≤ K ≤ N.
fn parse_shard(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("--shard takes K/N with 1 <= K <= N, not '{text}'");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (k, n): (u32, u32) = (k.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        shell_split(s).unwrap()
    }

    fn run_cfg(s: &str) -> MatchConfig {
        match parse_args(&args(s)).unwrap() {
            Cli::Run(c) => *c,
            Cli::Help => panic!("help"),
        }
    }

    #[test]
    fn engines_plain_and_keyed() {
        let c = run_cfg(
            r#"--engine "target/release/crosscut" --engine "name=deep cmd='target/release/crosscut -v' param.max_depth=6" --each "param.move_time=0.05" --tc 10+0.1 --games 4 --size 8"#,
        );
        assert_eq!(c.engines[0].name, "crosscut");
        assert_eq!(c.engines[0].command, ["target/release/crosscut"]);
        assert_eq!(c.engines[1].name, "deep");
        assert_eq!(c.engines[1].command, ["target/release/crosscut", "-v"]);
        assert_eq!(
            c.engines[1].params,
            [
                ("move_time".to_string(), "0.05".to_string()),
                ("max_depth".to_string(), "6".to_string())
            ]
        );
        assert_eq!(
            c.tc,
            TimeControl::Clock {
                base: 10.0,
                increment: 0.1
            }
        );
        assert_eq!((c.games, c.settings.size), (4, 8));
    }

    #[test]
    fn duplicate_names_and_errors() {
        let c = run_cfg("--engine a/x --engine b/x --engine x");
        let names: Vec<_> = c.engines.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["x", "x-2", "x-3"]);
        assert!(parse_args(&args("--engine x")).is_err());
        assert!(parse_args(&args("--engine 'name=a cmd=x' --engine 'name=a cmd=y'")).is_err());
        assert!(parse_args(&args("--engine x --engine y --bogus")).is_err());
        assert!(
            parse_args(&args(
                "--engine x --engine y --size 10 --option start=standard"
            ))
            .is_err()
        );
        assert!(parse_args(&args("--engine x --engine y --sprt 0 5 0.05")).is_err());
        assert!(matches!(parse_args(&args("--help")), Ok(Cli::Help)));
        assert!(parse_args(&args("--engine x --engine y --maxmoves 0")).is_err());
    }

    #[test]
    fn move_limit_defaults_per_game_and_size() {
        // Onyx 12: 144 grid points and 60 square midpoints.
        assert_eq!(default_max_moves("onyx", 12), 4 * 204);
        assert_eq!(default_max_moves("orcoon", 11), 4 * 121);
        assert_eq!(default_max_moves("akron", 8), 640);
        let limit = |s: &str| run_cfg(&format!("--engine x --engine y {s}")).max_moves;
        assert_eq!(limit(""), Some(816));
        assert_eq!(limit("--size 8"), Some(default_max_moves("onyx", 8)));
        assert_eq!(limit("--game akron --size 5"), Some(250));
        assert_eq!(limit("--game orcoon"), Some(484));
        assert_eq!(limit("--maxmoves 7"), Some(7));
        assert_eq!(limit("--game akron --maxmoves 5000"), Some(5000));
        assert!(usage().contains("onyx 816,"), "{}", usage());
    }
}
