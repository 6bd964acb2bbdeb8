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
    let summary = tournament::run(cfg)
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("the match into {} stopped", cfg.out_dir.display()))?;
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
    let cfg = match cli::parse_args(&args)
        .map_err(anyhow::Error::msg)
        .context("bad command line (see --help)")
    {
        Ok(cli::Cli::Help) => {
            print!("{}", cli::usage());
            return;
        }
        Ok(cli::Cli::Run(cfg)) => cfg,
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
