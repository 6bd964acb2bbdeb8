//! `crosscut-match`: plays matches between engines that speak crosscut's
//! protocol. See `crosscut-match --help`, README.md and protocol.md.

use std::io::Write;

use crosscut::tournament::{self, cli};

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cfg = match cli::parse_args(&args) {
        Ok(cli::Cli::Help) => {
            print!("{}", cli::usage());
            return;
        }
        Ok(cli::Cli::Run(cfg)) => cfg,
        Err(e) => {
            eprintln!("crosscut-match: {e}");
            std::process::exit(2);
        }
    };
    match tournament::run(&cfg) {
        Ok(summary) => {
            // Errors (a closed pipe) are ignored: the results are on disk.
            let _ = write!(
                std::io::stdout(),
                "\n{}Results: {}  Records: {}\n",
                tournament::report(&cfg, &summary),
                cfg.out_dir.join("results.tsv").display(),
                cfg.out_dir.join("games").display()
            );
        }
        Err(e) => {
            eprintln!("crosscut-match: {e}");
            std::process::exit(1);
        }
    }
}
