//! `showboard` for Onyx: the ASCII layout of the Onyx server help (003), with
//! `X` for Black (the server's V), `O` for White (H) and `.` for an empty point.

use super::board::Onyx;
use super::geometry::Cell;
use crate::game::{Color, Game, column_letter};

fn mark(c: Option<Color>, empty: char) -> char {
    match c {
        Some(Color::Black) => 'X',
        Some(Color::White) => 'O',
        None => empty,
    }
}

/// Draws the board, top row first, with coordinates on all four sides.
pub fn render_board(pos: &Onyx) -> String {
    let geo = pos.geometry();
    let n = geo.n;
    let header: String = (0..n)
        .map(|c| column_letter(c).to_string())
        .collect::<Vec<_>>()
        .join("   ");
    let mut out = format!("    {header}\n");
    for row in (0..n).rev() {
        let points: Vec<String> = (0..n)
            .map(|c| mark(pos.at(geo.grid_point(c, row)), '.').to_string())
            .collect();
        out.push_str(&format!(
            "{:>3} {} {:>2}\n",
            row + 1,
            points.join(" - "),
            row + 1
        ));
        if row > 0 {
            out.push_str("    |");
            for c in 0..n - 1 {
                let ch = match geo.cell(c, row - 1) {
                    Cell::Slash => '/',
                    Cell::Backslash => '\\',
                    Cell::Square(s) => mark(pos.at(geo.squares[s].midpoint), ' '),
                };
                out.push_str(&format!(" {ch} |"));
            }
            out.push('\n');
        }
    }
    out.push_str(&format!("    {header}\n"));
    let state = match pos.outcome() {
        Some(o) => format!("game over: {}", o.score_text()),
        None => format!("{} to move", pos.to_move().name()),
    };
    out.push_str(&format!("X black, O white; {state}\n"));
    out
}

/// The board for a graphical interface: the grid points at integer
/// coordinates, each square's midpoint (level 1) at its centre, the lines
/// of the board (orthogonal, the `/` and `\` diagonals, and the four
/// half-diagonals from each midpoint to its corners).
pub fn drawing(pos: &Onyx) -> crate::drawing::Drawing {
    use crate::drawing::{DrawPoint, Drawing, chain_along_lines, goal_bits, grid_labels};
    let geo = pos.geometry();
    let n = geo.n;
    let far = n as f64 - 1.0;
    let (black, white) = (
        super::board::edge_bits(Color::Black),
        super::board::edge_bits(Color::White),
    );
    let points: Vec<DrawPoint> = (0..geo.num_points)
        .map(|p| {
            let (x, y, level) = if geo.is_midpoint(p as u16) {
                let s = &geo.squares[geo.square_of_midpoint[p] as usize];
                (s.column as f64 + 0.5, far - s.row as f64 - 0.5, 1)
            } else {
                ((p % n) as f64, far - (p / n) as f64, 0)
            };
            DrawPoint {
                name: geo.point_name(p as u16),
                x,
                y,
                level,
                piece: pos.at(p as u16),
                edges: goal_bits(geo.edges[p], black, white),
            }
        })
        .collect();
    let mut lines = Vec::new();
    for p in 0..geo.num_points {
        for &q in geo.neighbours_of(p as u16) {
            if (q as usize) > p {
                lines.push((p, q as usize));
            }
        }
    }
    let mut d = Drawing {
        shape: "grid",
        points,
        lines,
        labels: grid_labels(n),
        removal: Some(crate::drawing::Removal::Capture),
        ..Drawing::default()
    };
    if let Some(crate::game::Outcome::Win(c)) = pos.outcome() {
        d.chain = chain_along_lines(&d, c);
    }
    d
}
