//! The games: each one's rules, notation and evaluation.

pub mod akron;
pub mod onyx;

use crate::engine::{GameSession, Session};

/// The names `game` accepts.
pub const GAME_NAMES: &[&str] = &["onyx", "akron"];

/// A new game `name` at its default size and options.
pub fn new_session(name: &str) -> Result<Box<dyn Session>, String> {
    match name.to_ascii_lowercase().as_str() {
        "onyx" => Ok(Box::new(GameSession::new(onyx::Onyx::with_preferred_start(
            onyx::DEFAULT_SIZE,
            onyx::Start::Standard,
        )?))),
        "akron" => Ok(Box::new(GameSession::new(akron::Akron::new(
            akron::DEFAULT_SIZE,
        )?))),
        other => Err(format!(
            "unknown game '{other}' (known: {})",
            GAME_NAMES.join(", ")
        )),
    }
}
