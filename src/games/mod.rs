//! The games: each one's rules, notation and evaluation.

pub mod onyx;
pub mod orcoon;

use crate::engine::{GameSession, Session};

/// The names `game` accepts.
pub const GAME_NAMES: &[&str] = &["onyx", "orcoon"];

/// A new game `name` at its default size and options.
pub fn new_session(name: &str) -> Result<Box<dyn Session>, String> {
    match name.to_ascii_lowercase().as_str() {
        "onyx" => Ok(Box::new(GameSession::new(
            onyx::Onyx::with_preferred_start(onyx::DEFAULT_SIZE, onyx::Start::Standard)?,
        ))),
        "orcoon" => Ok(Box::new(GameSession::new(orcoon::Orcoon::new(
            orcoon::DEFAULT_SIZE,
        )?))),
        other => Err(format!(
            "unknown game '{other}' (known: {})",
            GAME_NAMES.join(", ")
        )),
    }
}
