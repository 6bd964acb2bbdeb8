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
