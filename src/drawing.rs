//! A position in a form a graphical interface can draw: every point with
//! drawing coordinates, the board's lines, the pieces and their levels,
//! coordinate labels and the goal edges. Each game builds its
//! [`Drawing`] ([`crate::game::Notation::drawing`]); the `position`
//! command adds the state of play ([`crate::session::Rules::position`])
//! and writes it as JSON.

use crate::basics::{Color, column_letter};

/// Edge bit of a point: on Black's first goal edge.
pub const BLACK_A: u8 = 1;
/// Edge bit of a point: on Black's second goal edge.
pub const BLACK_B: u8 = 2;
/// Edge bit of a point: on White's first goal edge.
pub const WHITE_A: u8 = 4;
/// Edge bit of a point: on White's second goal edge.
pub const WHITE_B: u8 = 8;

/// One point of the board.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawPoint {
    /// The point in the game's notation (`C3`, `DE1112`, `c3`).
    pub name: String,
    /// Horizontal drawing coordinate: one unit between neighbouring grid
    /// points, growing to the right.
    pub x: f64,
    /// Vertical drawing coordinate, growing downwards (as in SVG).
    pub y: f64,
    /// The level (Akron's stacked balls; 0 elsewhere), or 1 for Onyx's
    /// midpoints, so that a GUI can tell them apart.
    pub level: usize,
    /// The piece on it.
    pub piece: Option<Color>,
    /// Goal edges it lies on: [`BLACK_A`], [`BLACK_B`], [`WHITE_A`],
    /// [`WHITE_B`].
    pub edges: u8,
}

/// A coordinate label at drawing coordinates.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// The text (`A`, `12`).
    pub text: String,
    /// Horizontal coordinate of its centre.
    pub x: f64,
    /// Vertical coordinate of its centre.
    pub y: f64,
}

/// A board as a GUI draws it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Drawing {
    /// How cells look: `grid` (points on lines), `hexagon` (a hexagon
    /// around each point) or `stack` (Akron's holes and balls).
    pub shape: &'static str,
    /// Every point, in board order.
    pub points: Vec<DrawPoint>,
    /// The board's lines, as pairs of indices into `points`.
    pub lines: Vec<(usize, usize)>,
    /// Coordinates around the board.
    pub labels: Vec<Label>,
    /// When the game is won: the winner's chain joining its edges, in
    /// notation (empty otherwise, or when the game ended without one on
    /// the board, as an adjudicated Orcoon pass).
    pub chain: Vec<String>,
    /// Further facts to show, as (name, value): Akron's piles.
    pub facts: Vec<(String, String)>,
    /// What it means when a move takes pieces off the board besides a
    /// moved piece's origin (Onyx's captures, Akron's drops), if the game
    /// has such moves.
    pub removal: Option<Removal>,
    /// Whether pieces on the board move (Akron's balls): a GUI then
    /// selects a piece, then its destination.
    pub pieces_move: bool,
    /// Moves that explain the result, to be shown numbered in order:
    /// Orcoon's winning sequence after a pass its passer lost; empty
    /// otherwise.
    pub sequence: Vec<String>,
}

/// What the pieces a move takes off the board (besides a moved piece's
/// origin) are, in the games' own words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Removal {
    /// Opposing pieces captured (Onyx).
    Capture,
    /// Pieces that dropped to a lower level from where they stood (Akron).
    Drop,
}

impl Removal {
    /// Its name in the `position` answer.
    pub fn name(self) -> &'static str {
        match self {
            Removal::Capture => "capture",
            Removal::Drop => "drop",
        }
    }
}

/// The goal-edge bits of a point from a game's own edge bits and its
/// colours' edge pairs (`edge_bits(colour)` of the game).
pub fn goal_bits(edges: u8, black: (u8, u8), white: (u8, u8)) -> u8 {
    let mut out = 0;
    if edges & black.0 != 0 {
        out |= BLACK_A;
    }
    if edges & black.1 != 0 {
        out |= BLACK_B;
    }
    if edges & white.0 != 0 {
        out |= WHITE_A;
    }
    if edges & white.1 != 0 {
        out |= WHITE_B;
    }
    out
}

/// Labels around a square `n`×`n` grid whose column `c`, row `r` (both
/// from 0, row 0 at the bottom) is drawn at (`c`, `n - 1 - r`): column
/// letters below and above, row numbers left and right.
pub fn grid_labels(n: usize) -> Vec<Label> {
    let mut out = Vec::new();
    let far = n as f64 - 1.0;
    for c in 0..n {
        let text = column_letter(c).to_string();
        for y in [-0.8, far + 0.8] {
            out.push(Label {
                text: text.clone(),
                x: c as f64,
                y,
            });
        }
    }
    for r in 0..n {
        for x in [-0.8, far + 0.8] {
            out.push(Label {
                text: (r + 1).to_string(),
                x,
                y: far - r as f64,
            });
        }
    }
    out
}

/// The lines of a square `n`×`n` grid whose point (c, r) is
/// `points[r * n + c]`.
pub fn grid_lines(n: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for r in 0..n {
        for c in 0..n {
            let p = r * n + c;
            if c + 1 < n {
                out.push((p, p + 1));
            }
            if r + 1 < n {
                out.push((p, p + n));
            }
        }
    }
    out
}

/// The shortest chain of `color`'s pieces along `lines` from one of its
/// goal edges to the other, in notation; empty when there is none.
pub fn chain_along_lines(drawing: &Drawing, color: Color) -> Vec<String> {
    let (from, to) = match color {
        Color::Black => (BLACK_A, BLACK_B),
        Color::White => (WHITE_A, WHITE_B),
    };
    let pts = &drawing.points;
    let mut adj = vec![Vec::new(); pts.len()];
    for &(a, b) in &drawing.lines {
        adj[a].push(b);
        adj[b].push(a);
    }
    let mine = |i: usize| pts[i].piece == Some(color);
    let mut parent = vec![usize::MAX; pts.len()];
    let mut queue = std::collections::VecDeque::new();
    for i in 0..pts.len() {
        if mine(i) && pts[i].edges & from != 0 {
            parent[i] = i;
            queue.push_back(i);
        }
    }
    while let Some(i) = queue.pop_front() {
        if pts[i].edges & to != 0 {
            let mut path = vec![pts[i].name.clone()];
            let mut j = i;
            while parent[j] != j {
                j = parent[j];
                path.push(pts[j].name.clone());
            }
            path.reverse();
            return path;
        }
        for &j in &adj[i] {
            if mine(j) && parent[j] == usize::MAX {
                parent[j] = i;
                queue.push_back(j);
            }
        }
    }
    Vec::new()
}
