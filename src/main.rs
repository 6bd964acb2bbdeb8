//! The `crosscut` engine: the GTP-style protocol on stdin/stdout.
//!
//! Options: `--game NAME` selects a game before the first command (for GUIs
//! that start with `boardsize`), `--size N` and `--option NAME=VALUE` set
//! its board and options (for GUIs that take the size from the engine);
//! `--gogui` switches GoGui mode on (GoGui's coordinates and board model,
//! see `crosscut::protocol::gogui`); `--help`; `--version`.
//!
//! Everything written to stderr (usage errors, the log) is best effort: a
//! failed write is ignored (env_logger drops a record it cannot write).

use anyhow::{Context, Result, bail};
use crosscut::protocol::Gtp;
use std::io::Write;

/// Writes a message to stderr, best effort: a stderr that cannot be written
/// (closed, full) must not change what the engine does (`eprintln!` would
/// panic).
fn warn(message: std::fmt::Arguments) {
    let _ = writeln!(std::io::stderr(), "{message}");
}

/// The command line's usage, with the games of the registry.
fn usage() -> String {
    format!(
        "usage: crosscut [--game {} [--size N] [--option NAME=VALUE]...] [--gogui]",
        crosscut::games::names_usage()
    )
}

/// Prints `--help`.
fn help() {
    println!("crosscut: a connection-game engine speaking GTP on stdin/stdout.");
    println!("{}    (see protocol.md)", usage());
    println!("  --game NAME  select a game before the first command");
    println!("  --size N     its board size (after --game)");
    println!("  --option NAME=VALUE");
    println!("               one of its options, e.g. swap=off (after --game; repeatable)");
    println!("  --gogui      GoGui mode: GoGui's coordinates (I skipped) and board");
    println!("  --version    the version");
    println!("crosscut web [--port N] [--listen ADDR]");
    println!(
        "             the browser board on http://127.0.0.1:{}/ (--port 0: any free port)",
        crosscut::web::DEFAULT_PORT
    );
}

/// Starts what the command line asks for: the protocol session, set up,
/// or `None` when nothing is left to do (`--help`; `web`, which serves
/// until killed). An error is a bad command line or a server that cannot
/// start; the library's own error is kept as the cause.
fn start(args: &[String]) -> Result<Option<Gtp>> {
    if let [web, rest @ ..] = args
        && web == "web"
    {
        crosscut::web::main(rest)
            .map_err(anyhow::Error::msg)
            .context("crosscut web")?;
        return Ok(None);
    }
    let mut gtp = Gtp::new();
    let mut rest = args;
    let (mut size, mut options, mut gogui) = (None, Vec::new(), false);
    while !rest.is_empty() {
        match rest {
            [flag, ..] if flag == "--help" || flag == "-h" => {
                help();
                return Ok(None);
            }
            [flag, ..] if flag == "--version" || flag == "-V" => {
                println!("crosscut {}", env!("CARGO_PKG_VERSION"));
                return Ok(None);
            }
            [flag, more @ ..] if flag == "--gogui" => {
                gogui = true;
                rest = more;
            }
            [flag, name, more @ ..] if flag == "--game" => {
                gtp.engine
                    .select_game(name)
                    .map_err(anyhow::Error::msg)
                    .context("crosscut --game")?;
                rest = more;
            }
            [flag, n, more @ ..] if flag == "--size" => {
                size = Some(
                    n.parse::<usize>()
                        .with_context(|| format!("crosscut --size: '{n}' is not a board size"))?,
                );
                rest = more;
            }
            [flag, o, more @ ..] if flag == "--option" => {
                options.push(o.clone());
                rest = more;
            }
            [flag] if matches!(flag.as_str(), "--game" | "--size" | "--option") => {
                bail!("{flag} needs a value; {}", usage())
            }
            [other, ..] => bail!("unknown option '{other}' (see --help); {}", usage()),
            [] => unreachable!("the loop stops on an empty list"),
        }
    }
    if size.is_some() || !options.is_empty() {
        let entry = gtp
            .engine
            .entry()
            .context("--size and --option need --game NAME before them")?;
        let size = size.unwrap_or(entry.default_size);
        let options = entry
            .parse_options(size, &options)
            .map_err(anyhow::Error::msg)
            .context("crosscut --option")?;
        for (name, value) in &options {
            gtp.engine
                .set_option(name, value)
                .map_err(anyhow::Error::msg)
                .with_context(|| format!("crosscut --option {name}={value}"))?;
        }
        gtp.engine
            .new_game(size)
            .map_err(anyhow::Error::msg)
            .context("crosscut --size")?;
    }
    // GoGui mode last: it makes the chosen game one GoGui can play.
    if gogui {
        gtp.set_gogui(true)
            .map_err(anyhow::Error::msg)
            .context("crosscut --gogui")?;
    }
    Ok(Some(gtp))
}

/// Runs the protocol on stdin/stdout until `quit` or the end of the input
/// (the input is read on a thread of its own, see `run_with`).
fn serve(gtp: Gtp) -> Result<()> {
    let stdin = std::io::BufReader::new(std::io::stdin());
    let stdout = std::io::stdout();
    crosscut::protocol::run_with(gtp, stdin, stdout.lock())
        .context("the protocol's input or output failed")
}

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Pipe(Box::new(crosscut::stderr::Writer)))
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let gtp = match start(&args) {
        Ok(Some(gtp)) => gtp,
        Ok(None) => return,
        Err(e) => {
            // A bad command line or a server that cannot start: status 2.
            warn(format_args!("{e:#}"));
            std::process::exit(2);
        }
    };
    let served = serve(gtp);
    if let Err(e) = &served {
        log::error!("{e:#}");
    }
    // What waits for stderr goes out; the reader thread may still wait on
    // an open input after `quit`.
    crosscut::stderr::flush();
    std::process::exit(if served.is_ok() { 0 } else { 1 });
}
