//! Orcoon (Luis Bolaños Mures, 2012): placement on the points of a square
//! board under two restrictions (no knight crosscut `x . o / o . x`, no lone
//! diagonal pair), pass ends the game, exact adjudication of the passer's
//! opponent's free placements, swap.

pub mod adjudicate;
pub mod bits;
mod board;
mod display;
pub mod eval;
pub mod geometry;
mod probe;

pub use adjudicate::Solver;
pub use board::{Orcoon, OrcoonMove, Violation};
pub use geometry::{DEFAULT_SIZE, Geometry, MAX_SIZE, MIN_SIZE, Point};
