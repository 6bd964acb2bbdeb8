//! `showboard` for Akron: a top view (the highest ball of every vertical
//! column, with its level), then one small grid per occupied level, then the
//! piles. `X` is Black, `O` White, `.` an empty point.

use super::board::Akron;
use crate::game::{Color, Game, column_letter};

fn mark(c: Option<Color>) -> char {
    match c {
        Some(Color::Black) => 'X',
        Some(Color::White) => 'O',
        None => '.',
    }
}

/// Draws the board.
pub fn render_board(pos: &Akron) -> String {
    let geo = pos.geometry();
    let n = geo.n;
    let top = pos.top_level();
    let mut out = String::new();

    // Top view on a half-hole grid: a level-L point at column i, row j sits
    // over the half-grid position (2i + L, 2j + L).
    out.push_str("Top view (highest ball over each spot, with its level):\n");
    let w = 2 * n - 1;
    let mut header = String::from("    ");
    for x in 0..w {
        if x % 2 == 0 {
            header.push_str(&format!("{:<3}", column_letter(x / 2)));
        } else {
            header.push_str("   ");
        }
    }
    let header = header.trim_end().to_string();
    out.push_str(&header);
    out.push('\n');
    for y in (0..w).rev() {
        let mut line = if y % 2 == 0 {
            format!("{:>3} ", y / 2 + 1)
        } else {
            "    ".to_string()
        };
        for x in 0..w {
            let cell = if x % 2 != y % 2 {
                "   ".to_string()
            } else {
                let mut shown = if x % 2 == 0 {
                    " . ".to_string()
                } else {
                    "   ".to_string()
                };
                let mut l = x % 2;
                while l <= top && l <= x.min(y) {
                    let (i, j) = ((x - l) / 2, (y - l) / 2);
                    if i < n - l && j < n - l {
                        let p = geo.point(l, i, j);
                        if let Some(c) = pos.at(p) {
                            shown = format!("{}{:<2}", mark(Some(c)), l);
                        }
                    }
                    l += 2;
                }
                shown
            };
            line.push_str(&cell);
        }
        let label = if y % 2 == 0 {
            format!(" {}", y / 2 + 1)
        } else {
            String::new()
        };
        out.push_str(line.trim_end());
        out.push_str(&label);
        out.push('\n');
    }
    out.push_str(&header);
    out.push('\n');

    // One grid per level up to the highest occupied one.
    for l in 0..=top {
        let size = n - l;
        let span = l + 1;
        let width = if l == 0 { 1 } else { 2 };
        out.push_str(&format!("Level {l} ({} points):\n", size * size));
        let names: Vec<String> = (0..size)
            .map(|i| {
                if l == 0 {
                    column_letter(i).to_string()
                } else {
                    format!("{}{}", column_letter(i), column_letter(i + span - 1))
                }
            })
            .collect();
        let row_name = |j: usize| {
            if l == 0 {
                format!("{}", j + 1)
            } else {
                format!("{}{}", j + 1, j + span)
            }
        };
        let rw = row_name(size - 1).len().max(2);
        let mut header = " ".repeat(rw + 1);
        for name in &names {
            header.push_str(&format!("{name:<w$} ", w = width));
        }
        out.push_str(header.trim_end());
        out.push('\n');
        for j in (0..size).rev() {
            let mut line = format!("{:>rw$} ", row_name(j));
            for i in 0..size {
                let p = geo.point(l, i, j);
                line.push_str(&format!("{:<w$} ", mark(pos.at(p)), w = width));
            }
            out.push_str(line.trim_end());
            out.push_str(&format!(" {}\n", row_name(j)));
        }
    }
    out.push_str(&format!(
        "Piles: black (X) {}, white (O) {}; ",
        pos.pile(Color::Black),
        pos.pile(Color::White)
    ));
    match pos.outcome() {
        Some(o) => out.push_str(&format!("game over: {}\n", o.score_text())),
        None => out.push_str(&format!("{} to move\n", pos.to_move().name())),
    }
    out
}

/// The board for a graphical interface, seen from above: the surface holes
/// at integer coordinates (column `A` left, row 1 at the bottom) joined by
/// the grid's lines, and a level-L point at the centre of the block of
/// holes it covers, (column + L/2, row + L/2). The winning chain is a
/// shortest path of the winner's balls along uncut links (and between a
/// ball and its supports) from one of its edges to the other.
pub fn drawing(pos: &Akron) -> crate::drawing::Drawing {
    use crate::drawing::{DrawPoint, Drawing, goal_bits, grid_labels, grid_lines};
    let geo = pos.geometry();
    let n = geo.n;
    let far = n as f64 - 1.0;
    let (black, white) = (
        super::board::edge_bits(Color::Black),
        super::board::edge_bits(Color::White),
    );
    let points = (0..geo.num_points)
        .map(|p| {
            let l = geo.level[p] as f64;
            DrawPoint {
                name: geo.point_name(p as super::geometry::Point).to_string(),
                x: geo.column[p] as f64 + l / 2.0,
                y: far - geo.row[p] as f64 - l / 2.0,
                level: geo.level[p] as usize,
                piece: pos.at(p as super::geometry::Point),
                edges: goal_bits(geo.edges[p], black, white),
            }
        })
        .collect();
    let mut d = Drawing {
        shape: "stack",
        points,
        lines: grid_lines(n),
        labels: grid_labels(n),
        removal: Some(crate::drawing::Removal::Drop),
        pieces_move: true,
        ..Drawing::default()
    };
    if let Some(crate::game::Outcome::Win(c)) = pos.outcome() {
        d.chain = winning_chain(pos, c);
    }
    for c in Color::ALL {
        d.facts
            .push((format!("{} pile", c.name()), pos.pile(c).to_string()));
    }
    d
}

/// The fewest balls of `color` that join its two edges: a breadth-first
/// search along uncut same-level links and between balls and their
/// supports, from the balls on one edge to the first ball on the other.
/// Empty when `color` is not connected.
fn winning_chain(pos: &Akron, color: Color) -> Vec<String> {
    use super::geometry::{DOWN_DIR, LEFT_DIR, NONE, RIGHT_DIR, UP_DIR};
    let geo = pos.geometry();
    let (from, to) = super::board::edge_bits(color);
    let mine = |p: super::geometry::Point| p != NONE && pos.at(p) == Some(color);
    let mut parent = vec![NONE; geo.num_points];
    let mut queue = std::collections::VecDeque::new();
    for p in 0..geo.num_points as super::geometry::Point {
        if mine(p) && geo.edges[p as usize] & from != 0 {
            parent[p as usize] = p;
            queue.push_back(p);
        }
    }
    while let Some(p) = queue.pop_front() {
        let pu = p as usize;
        if geo.edges[pu] & to != 0 {
            let mut path = vec![geo.point_name(p).to_string()];
            let mut q = p;
            while parent[q as usize] != q {
                q = parent[q as usize];
                path.push(geo.point_name(q).to_string());
            }
            path.reverse();
            return path;
        }
        let nb = geo.neighbours[pu];
        let (left, down) = (nb[LEFT_DIR], nb[DOWN_DIR]);
        let linked = [
            (nb[RIGHT_DIR], pos.link_uncut(p, 0)),
            (nb[UP_DIR], pos.link_uncut(p, 1)),
            (left, left != NONE && pos.link_uncut(left, 0)),
            (down, down != NONE && pos.link_uncut(down, 1)),
        ];
        let vertical = geo.supports[pu].iter().chain(&geo.above[pu]);
        let next = linked
            .into_iter()
            .filter(|&(_, ok)| ok)
            .map(|(q, _)| q)
            .chain(vertical.copied());
        for q in next {
            if mine(q) && parent[q as usize] == NONE {
                parent[q as usize] = p;
                queue.push_back(q);
            }
        }
    }
    Vec::new()
}
