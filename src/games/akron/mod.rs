//! Akron (Cameron Browne): balls stacked pyramid-fashion on an N×N board of
//! holes; adds and moves with drop cascades, the over/under rule, connection
//! wins, repetition draws, swap.

mod board;
mod display;
pub mod eval;
pub mod geometry;

pub use board::{Akron, AkronMove, EvalScratch, GroupIter, edge_bits};
pub use geometry::{DEFAULT_SIZE, Geometry, MAX_SIZE, MIN_SIZE, Point};
