//! `showboard` for Orcoon: `X` Black, `O` White, `.` empty, coordinates on
//! all four sides, then the side to move or the result.

use super::board::Orcoon;
use crate::game::{Game, column_letter};

/// Draws the board, top row first.
pub fn render_board(pos: &Orcoon) -> String {
    let n = pos.size();
    let header: String = (0..n)
        .map(|c| column_letter(c).to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let mut out = format!("    {header}\n");
    for row in (0..n).rev() {
        let points: Vec<&str> = (0..n)
            .map(|c| match pos.cells()[row * n + c] {
                1 => "X",
                2 => "O",
                _ => ".",
            })
            .collect();
        out.push_str(&format!(
            "{:>3} {} {}\n",
            row + 1,
            points.join(" "),
            row + 1
        ));
    }
    out.push_str(&format!("    {header}\n"));
    let state = match (pos.outcome(), pos.passer()) {
        (Some(o), Some(p)) => format!("game over: {} ({} passed)", o.score_text(), p.name()),
        (Some(o), None) => format!("game over: {}", o.score_text()),
        (None, _) => format!("{} to move", pos.to_move().name()),
    };
    out.push_str(&format!(
        "X black (bottom-top), O white (left-right); {state}\n"
    ));
    out
}

/// The board for a graphical interface: the grid at integer coordinates
/// (column `A` left, row 1 at the bottom) with its orthogonal lines.
pub fn drawing(pos: &Orcoon) -> crate::drawing::Drawing {
    use crate::drawing::{
        DrawPoint, Drawing, chain_along_lines, goal_bits, grid_labels, grid_lines,
    };
    use crate::game::Color;
    let geo = pos.geometry();
    let n = geo.n;
    let far = n as f64 - 1.0;
    let (black, white) = (
        super::board::edge_bits(Color::Black),
        super::board::edge_bits(Color::White),
    );
    let points = (0..n * n)
        .map(|p| DrawPoint {
            name: geo.point_name(p as super::geometry::Point),
            x: (p % n) as f64,
            y: far - (p / n) as f64,
            level: 0,
            piece: pos.at(p as super::geometry::Point),
            edges: goal_bits(geo.edges[p], black, white),
        })
        .collect();
    let mut d = Drawing {
        shape: "grid",
        points,
        lines: grid_lines(n),
        labels: grid_labels(n),
        ..Drawing::default()
    };
    if let Some(crate::game::Outcome::Win(c)) = pos.outcome() {
        d.chain = chain_along_lines(&d, c);
    }
    if let Some(p) = pos.passer() {
        d.facts.push(("passed".into(), p.name().into()));
    }
    d.sequence = super::winning_sequence_of(pos).unwrap_or_default();
    d
}
