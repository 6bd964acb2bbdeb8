//! Onyx (Larry Back): placement on a board of squares and triangles, the
//! midpoint rule, single and double capture, connection wins, swap.

mod board;
mod display;
pub mod distance;
pub mod eval;
pub mod geometry;
pub mod two_distance;

pub use board::{Onyx, OnyxMove, Start};
pub use geometry::{DEFAULT_SIZE, Geometry, MAX_SIZE, MIN_SIZE, Point};
