//! `crosscut-match`: plays matches between engines that speak crosscut's
//! protocol. See `crosscut-match --help`, README.md and protocol.md.

use std::io::Write;

use anyhow::{Context, Result};
use crosscut::tournament::{self, MatchConfig, cli};

/// Writes `crosscut-match: ERROR` (with its causes) to stderr, best effort
/// (`eprintln!` would panic on a closed stderr).
fn report(e: &anyhow::Error) {
    let _ = writeln!(std::io::stderr(), "crosscut-match: {e:#}");
}

/// The match of `cfg`, played, reported on stdout and written to its
/// folder.
fn play(cfg: &MatchConfig) -> Result<()> {
    let summary = if cfg.merge.is_empty() {
        tournament::run(cfg)
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("the match into {} stopped", cfg.out_dir.display()))?
    } else {
        tournament::merge(cfg)
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("the merge into {} stopped", cfg.out_dir.display()))?
    };
    // Errors (a closed pipe) are ignored: the results are on disk.
    let _ = write!(
        std::io::stdout(),
        "\n{}Results: {}  Records: {}\n",
        tournament::report(cfg, &summary),
        cfg.out_dir.join("results.tsv").display(),
        cfg.out_dir.join("games").display()
    );
    Ok(())
}

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--version" || a == "-V") {
        println!("crosscut-match {}", env!("CARGO_PKG_VERSION"));
        return;
    }
    let cfg = match cli::parse_args(&args)
        .map_err(anyhow::Error::msg)
        .context("bad command line (see --help)")
    {
        Ok(cli::Cli::Help) => {
            print!("{}", cli::usage());
            return;
        }
        Ok(cli::Cli::Run(cfg)) => {
            if let Some(w) = replay_warning(&cfg) {
                let _ = writeln!(std::io::stderr(), "crosscut-match: warning: {w}");
            }
            cfg
        }
        Err(e) => {
            report(&e);
            std::process::exit(2);
        }
    };
    if let Err(e) = play(&cfg) {
        report(&e);
        std::process::exit(1);
    }
}

/// The warning for a match whose games are likely copies of each other:
/// more than two games a pairing without `--openings`. crosscut's searcher
/// (and any engine without randomness) plays the same moves in the same
/// position, so each pairing would replay its two games (one with each
/// colour) over and over, and the results would measure nothing new.
fn replay_warning(cfg: &MatchConfig) -> Option<String> {
    (cfg.openings.is_none() && cfg.games > 2).then(|| {
        format!(
            "{} games a pairing without --openings: deterministic engines (crosscut's \
             searcher with the same settings) replay the same two games, one with each \
             colour, again and again. Give --openings FILE (one opening a line, each \
             played from both sides; scripts/openings/ has sets), or vary a \
             seed with param.seed=N for engines with random choices.",
            cfg.games
        )
    })
}
