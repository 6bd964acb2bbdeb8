//! Edge templates: shapes in which a cell (empty, or one of the colour's
//! stones) is joined to the colour's nearest edge whatever the opponent
//! does, given the colour's stones the shape names and its other cells
//! empty. The H-search (`hsearch`, play's and the solver's) places them
//! as full connections between the cell and the edge, where its AND and
//! OR rules would not derive them within their limits (they need the
//! complete OR of many semis, or stones the rules reach only through the
//! edge).
//!
//! Each is drawn as rows of cells from the top down to the edge's own
//! row (the last line); each line sits half a cell to the right of the
//! one above, so the cells next to a cell in the line below are the one
//! in the same place and the one before it. `E` is the template's cell,
//! `X` a stone of the colour, `+` a cell that must be empty (the
//! carrier), `.` a cell the template does not use. Every template is
//! placed with its mirror image, along each of the colour's edges.
//!
//! IV-a, IV-b and V-a were found with our own solver (a region cut down a
//! cell at a time while the connection still held); the others are the
//! templates of Benzene's `vc-patterns.txt` (its names; most from David
//! King's collection of edge templates), `lg6-8` left out (56 cells on
//! the sixth row), and `dk5-1`, which is V-a. `tests/it/hex_vc.rs` proves
//! each of them, both mirror images, with the df-pn solver.

use std::sync::OnceLock;

/// An edge template (see the module documentation), as offsets from its
/// cell: (dx, dy), dy counted toward the edge, with the cells next to
/// (0, 0) at (±1, 0), (0, ±1), (1, −1) and (−1, 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeTemplate {
    /// Its name.
    pub name: &'static str,
    /// The row of its cell counted from the edge (the edge's own row is 1).
    pub height: usize,
    /// The cells that must be empty (its carrier, the template's cell
    /// not included).
    pub cells: Vec<(i8, i8)>,
    /// The cells that must hold the colour's stones.
    pub stones: Vec<(i8, i8)>,
}

impl EdgeTemplate {
    /// The mirror image (the rows kept, each reversed about the cell).
    pub fn mirrored(&self) -> EdgeTemplate {
        let flip = |v: &Vec<(i8, i8)>| v.iter().map(|&(x, y)| (-x - y, y)).collect();
        EdgeTemplate {
            name: self.name,
            height: self.height,
            cells: flip(&self.cells),
            stones: flip(&self.stones),
        }
    }
}

/// The templates' drawings (see the module documentation).
const DIAGRAMS: &[(&str, &[&str])] = &[
    (
        "IV-a",
        &[
            ". . . . E + .",
            " . . + + + + +",
            "  . + + + + + +",
            "   + + + + + + +",
        ],
    ),
    (
        "IV-b",
        &[
            ". . . . + E + .",
            " . . + + + + + +",
            "  . + + + . + + +",
            "   + + + + + + + +",
        ],
    ),
    (
        "V-a",
        &[
            ". . . . . + E + . .",
            " . . . . + + + + + .",
            "  . . + + + + + + + +",
            "   . + + + + + + + + +",
            "    + + + + + + + + + +",
        ],
    ),
    ("dk4-3", &[". . E X", " . + + +", "  . + + +", "   + + + +"]),
    (
        "dk4-6",
        &[". . E + .", " . X + + +", "  . + + + +", "   + + + + +"],
    ),
    ("dk4-8", &[". E X X", " + + + +", "  + + + .", "   + + + ."]),
    (
        "dk4-9",
        &[
            ". . . E + X",
            " . . + + + +",
            "  . + + + + +",
            "   + + + + + +",
        ],
    ),
    (
        "dk4-14",
        &[
            ". . . . . . + + + . .",
            " . . . . + E + + + + .",
            "  . . + + + + + + + + +",
            "   . + + + + + + + + + +",
            "    + + . + + + + + + + +",
        ],
    ),
    (
        "dk4-16",
        &[
            ". . . . + + + . .",
            " . . . E + + + + .",
            "  . . + + + + + + +",
            "   . + + + + + + + +",
            "    + + + + + + + + +",
        ],
    ),
    (
        "dk5-5",
        &[
            ". . . E + . .",
            " . . X + + + .",
            "  . + + + + + +",
            "   . + + + + + +",
            "    + + + + + + +",
        ],
    ),
    (
        "dk5-6",
        &[
            ". . . . E X .",
            " . . . + + + .",
            "  . . + + + + +",
            "   . + + + + + +",
            "    + + + + + + +",
        ],
    ),
    (
        "dk5-8",
        &[
            ". . . E + + . .",
            " . . + + + X + +",
            "  . + + + + + + +",
            "   + + + + + + + +",
            "    + + + + + + + +",
        ],
    ),
    (
        "dk5-11",
        &[
            ". . . . + E",
            " . . . + + X",
            "  . . + + + +",
            "   . + + + + +",
            "    + + + + + +",
        ],
    ),
    (
        "dk5-12",
        &[
            ". . . . E + +",
            " . . . + + + X",
            "  . . + + + + +",
            "   . + + + + + +",
            "    + + + + + + +",
        ],
    ),
    (
        "dk5-19",
        &[
            ". . . . . + E",
            " . . . + + + +",
            "  . . X + + + +",
            "   . + + + + + +",
            "    + + + + + + +",
        ],
    ),
    (
        "dk5-20",
        &[
            ". . . . + E",
            " . . . X + +",
            "  . . + + + +",
            "   . + + + + +",
            "    + + + + + +",
        ],
    ),
    (
        "dk5-21",
        &[
            ". . . . . . E .",
            " . . . . + + + .",
            "  . . + + + + X +",
            "   . + + + + + + +",
            "    + + . + + + + +",
        ],
    ),
    (
        "dk6-1",
        &[
            ". . . . . E",
            " . . . . + +",
            "  . . . X + +",
            "   . . + + + +",
            "    . X + + + +",
            "     + + + + + +",
        ],
    ),
    (
        "dk6-2",
        &[
            ". . . . . E +",
            " . . . . + + +",
            "  . . . + + + +",
            "   . . + + X + +",
            "    . + + + + + +",
            "     + + + + + + +",
        ],
    ),
    (
        "dk6-3",
        &[
            ". . . . . E +",
            " . . . . + + +",
            "  . . . + + + +",
            "   . . + + + X +",
            "    . + + + + + +",
            "     + + + + + + +",
        ],
    ),
    (
        "dk6-5",
        &[
            ". . . . + E",
            " . . . + + +",
            "  . . X + + +",
            "   . + + + + +",
            "    . X + + + +",
            "     + + + + + +",
        ],
    ),
    (
        "dk6-7",
        &[
            ". . . E + . .",
            " . . + + + + .",
            "  . X + + + + .",
            "   . + X + + + +",
            "    . + + + + + +",
            "     + + + + + + +",
        ],
    ),
    (
        "ph5-98653",
        &[
            ". . . . X + E . .",
            " . . . + + + + + .",
            "  . . + + + + + + .",
            "   . + + + + + + + +",
            "    + + + + + X + . X",
        ],
    ),
];

/// Reads a drawing; `None` unless it has exactly one `E` and only the
/// four symbols.
fn parse(name: &'static str, lines: &[&str]) -> Option<EdgeTemplate> {
    let mut cells = Vec::new();
    let mut stones = Vec::new();
    let mut end = None;
    for (y, line) in lines.iter().enumerate() {
        for (x, symbol) in line.split_whitespace().enumerate() {
            let at = (i8::try_from(x).ok()?, i8::try_from(y).ok()?);
            match symbol {
                "E" if end.is_none() => end = Some(at),
                "X" => stones.push(at),
                "+" => cells.push(at),
                "." => {}
                _ => return None,
            }
        }
    }
    let (ex, ey) = end?;
    let shift = |v: Vec<(i8, i8)>| v.into_iter().map(|(x, y)| (x - ex, y - ey)).collect();
    Some(EdgeTemplate {
        name,
        height: lines.len() - ey as usize,
        cells: shift(cells),
        stones: shift(stones),
    })
}

/// Every edge template (as drawn; place each with its mirror image).
pub fn edge_templates() -> &'static [EdgeTemplate] {
    static TEMPLATES: OnceLock<Vec<EdgeTemplate>> = OnceLock::new();
    TEMPLATES.get_or_init(|| {
        DIAGRAMS
            .iter()
            .filter_map(|&(name, lines)| parse(name, lines))
            .collect()
    })
}

/// The edge template drawn under `name` (`IV-a`, `dk5-3`, …), if any.
pub fn edge_template(name: &str) -> Option<&'static EdgeTemplate> {
    edge_templates().iter().find(|t| t.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_drawing_reads() {
        assert_eq!(edge_templates().len(), DIAGRAMS.len());
        let iva = &edge_templates()[0];
        assert_eq!((iva.name, iva.height, iva.cells.len()), ("IV-a", 4, 19));
        assert!(iva.cells.contains(&(1, 0)) && iva.cells.contains(&(-4, 3)));
        assert_eq!(iva.mirrored().mirrored(), *iva);
        for t in edge_templates() {
            assert!(t.height >= 2 && t.height <= 6, "{}", t.name);
            // The last line is the edge's row.
            let deepest = t.cells.iter().chain(&t.stones).map(|c| c.1).max();
            assert_eq!(deepest, Some(t.height as i8 - 1), "{}", t.name);
        }
    }

    #[test]
    fn a_bad_drawing_is_refused() {
        assert_eq!(parse("two", &[". E E", " + + +"]), None);
        assert_eq!(parse("none", &[". + .", " + + +"]), None);
        assert_eq!(parse("odd", &[". E o", " + + +"]), None);
    }
}
