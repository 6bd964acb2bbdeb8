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

/// The board for a graphical interface: a rhombus of hexagons, row 1 at the
/// top and each row shifted half a cell right of the one above; the lines
/// join neighbouring cells.
pub fn drawing(pos: &Hex) -> crate::drawing::Drawing {
    use crate::drawing::{DrawPoint, Drawing, Label, chain_along_lines, goal_bits};
    let geo = pos.geometry();
    let n = geo.n;
    let h = 3f64.sqrt() / 2.0;
    let (black, white) = (
        super::board::edge_bits(Color::Black),
        super::board::edge_bits(Color::White),
    );
    let at = |x: f64, y: f64| (x + 0.5 * y, h * y);
    let points = (0..n * n)
        .map(|c| {
            let (x, y) = at((c % n) as f64, (c / n) as f64);
            DrawPoint {
                name: geo.cell_name(c as super::geometry::Cell),
                x,
                y,
                level: 0,
                piece: pos.at(c as super::geometry::Cell),
                edges: goal_bits(geo.edges[c], black, white),
            }
        })
        .collect();
    let mut lines = Vec::new();
    for c in 0..n * n {
        for &q in geo.neighbours_of(c as super::geometry::Cell) {
            if q as usize > c {
                lines.push((c, q as usize));
            }
        }
    }
    // Column letters straight above row 1 and below row n; row numbers
    // beside the first and last cells of their row.
    let mut labels = Vec::new();
    let last = (n - 1) as f64;
    for i in 0..n {
        let letter = ((b'a' + i as u8) as char).to_string();
        let (x, y) = at(i as f64, 0.0);
        labels.push(Label {
            text: letter.clone(),
            x,
            y: y - 1.05,
        });
        let (x, y) = at(i as f64, last);
        labels.push(Label {
            text: letter,
            x,
            y: y + 1.05,
        });
        for (x, dx) in [(0.0, -1.2), (last, 1.2)] {
            let (x, y) = at(x, i as f64);
            labels.push(Label {
                text: (i + 1).to_string(),
                x: x + dx,
                y,
            });
        }
    }
    let mut d = Drawing {
        shape: "hexagon",
        points,
        lines,
        labels,
        ..Drawing::default()
    };
    if let Some(crate::game::Outcome::Win(c)) = pos.outcome() {
        d.chain = chain_along_lines(&d, c);
    }
    d
}
