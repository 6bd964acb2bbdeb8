//! `showboard` for Hex: the rhombus as Benzene draws it, each row shifted
//! half a cell right of the one above; `x` Black, `o` White, `.` empty;
//! lower-case column letters, rows numbered from 1 at the top.

use super::board::Hex;
use crate::game::{Color, Game};

/// Draws the board, row 1 first.
pub fn render_board(pos: &Hex) -> String {
    let geo = pos.geometry();
    let n = geo.n;
    let header: String = (0..n)
        .map(|x| ((b'a' + x as u8) as char).to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let mut out = format!("    {header}\n");
    for y in 0..n {
        let cells: Vec<&str> = (0..n)
            .map(|x| match pos.at(geo.cell(x, y)) {
                Some(Color::Black) => "x",
                Some(Color::White) => "o",
                None => ".",
            })
            .collect();
        out.push_str(&format!(
            "{}{:>2}  {}  {}\n",
            " ".repeat(y),
            y + 1,
            cells.join(" "),
            y + 1
        ));
    }
    out.push_str(&format!("{}    {header}\n", " ".repeat(n - 1)));
    let state = match pos.outcome() {
        Some(o) => format!("game over: {}", o.score_text()),
        None => format!("{} to move", pos.to_move().name()),
    };
    out.push_str(&format!(
        "x black (row 1 to row {n}), o white (column a to {}); {state}\n",
        (b'a' + n as u8 - 1) as char
    ));
    out
}
