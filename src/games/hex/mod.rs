//! Hex (Piet Hein 1942, John Nash 1948): placement on a rhombus of
//! hexagonal cells, Black joins row 1 to row N, White column `a` to the
//! last; swap. Notation and orientation are Benzene's (`a1` top-left).

mod board;
mod display;
pub mod eval;
pub mod geometry;

pub use board::{Hex, HexMove, edge_bits};
pub use geometry::{Cell, DEFAULT_SIZE, Geometry, MAX_SIZE, MIN_SIZE};
