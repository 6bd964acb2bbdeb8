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
