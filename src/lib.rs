//! crosscut: an engine for the square-board connection games Onyx, Orcoon and
//! Akron, speaking a GTP-style protocol.

#![warn(missing_docs)]

pub mod basics;
pub mod drawing;
pub mod engine;
pub mod game;
pub mod games;
pub mod protocol;
pub mod search;
pub mod session;
pub mod sgf;
pub mod solve;
pub mod stderr;
pub mod text;
pub mod timeman;
pub mod tournament;
pub mod web;
