//! crosscut: an engine for the square-board connection games Onyx, Orcoon and
//! Akron, speaking a GTP-style protocol.

pub mod engine;
pub mod game;
pub mod games;
pub mod protocol;
pub mod search;
pub mod timeman;
