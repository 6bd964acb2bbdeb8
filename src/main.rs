//! The `crosscut` engine: the GTP-style protocol on stdin/stdout.
//!
//! Options: `--game NAME` selects a game before the first command (for GUIs
//! that start with `boardsize`); `--gogui` switches GoGui mode on (GoGui's
//! coordinates and board model, see `crosscut::protocol::gogui`); `--version`;
//! `--help`.
//!
//! Everything written to stderr (usage errors, the log) is best effort: a
//! failed write is ignored (env_logger drops a record it cannot write).

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
        "usage: crosscut [--game {}] [--gogui] [--version]",
        crosscut::games::names_usage()
    )
}

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Pipe(Box::new(crosscut::stderr::Writer)))
        .init();
    let mut gtp = Gtp::new();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "web") {
        if let Err(e) = crosscut::web::main(&args[1..]) {
            warn(format_args!("crosscut web: {e}"));
            std::process::exit(2);
        }
        return;
    }
    let mut rest = &args[..];
    while !rest.is_empty() {
        match rest {
            [flag, ..] if flag == "--help" || flag == "-h" => {
                println!("crosscut: a connection-game engine speaking GTP on stdin/stdout.");
                println!("{}    (see protocol.md)", usage());
                println!("  --game NAME  select a game before the first command");
                println!("  --gogui      GoGui mode: GoGui's coordinates (I skipped) and board");
                println!("  --version    the version");
                println!("crosscut web [--port N] [--listen ADDR]");
                println!(
                    "             the browser board on http://127.0.0.1:{}/ (--port 0: any free port)",
                    crosscut::web::DEFAULT_PORT
                );
                return;
            }
            [flag, ..] if flag == "--version" || flag == "-V" => {
                println!("crosscut {}", env!("CARGO_PKG_VERSION"));
                return;
            }
            [flag, rest2 @ ..] if flag == "--gogui" => {
                gtp.set_gogui(true);
                rest = rest2;
            }
            [flag, name, rest2 @ ..] if flag == "--game" => {
                if let Err(e) = gtp.engine.select_game(name) {
                    warn(format_args!("crosscut: {e}"));
                    std::process::exit(2);
                }
                rest = rest2;
            }
            [flag] if flag == "--game" => {
                warn(format_args!(
                    "crosscut: --game needs a game's name\n{}",
                    usage()
                ));
                std::process::exit(2);
            }
            [other, ..] => {
                warn(format_args!(
                    "crosscut: unknown option '{other}' (see --help)\n{}",
                    usage()
                ));
                std::process::exit(2);
            }
            [] => break,
        }
    }
    // The input is read on a thread of its own (see `run_with`).
    let stdin = std::io::BufReader::new(std::io::stdin());
    let stdout = std::io::stdout();
    if let Err(e) = crosscut::protocol::run_with(gtp, stdin, stdout.lock()) {
        log::error!("i/o error: {e}");
        crosscut::stderr::flush();
        std::process::exit(1);
    }
    // What waits for stderr goes out; the reader thread may still wait on
    // an open input after `quit`.
    crosscut::stderr::flush();
    std::process::exit(0);
}
