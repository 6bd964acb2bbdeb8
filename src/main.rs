//! The `crosscut` engine: the GTP-style protocol on stdin/stdout.

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    if let Err(e) = crosscut::protocol::run(stdin.lock(), stdout.lock()) {
        log::error!("i/o error: {e}");
        std::process::exit(1);
    }
}
