//! The worked examples 1-6 of the Onyx server help (seed 003), read from its
//! ASCII diagrams, and the official rules (seed 000), all through the
//! protocol.

use std::collections::BTreeMap;

use crate::common::Session;

/// What a diagram shows: pieces by point name ('B' or 'W') and the shape of
/// every cell by its midpoint-style name ('/', '\\' or 's' for a square, with
/// a piece or '?' in a square counted as 's').
#[derive(Debug, Default)]
struct Diagram {
    pieces: BTreeMap<String, char>,
    cells: BTreeMap<String, char>,
    columns: Vec<char>,
    rows: Vec<usize>,
}

fn piece_of(ch: char) -> Option<char> {
    match ch {
        'V' | 'X' => Some('B'),
        'H' | 'O' => Some('W'),
        _ => None,
    }
}

/// Reads a diagram in the server help's layout (also crosscut's
/// `showboard`): the last line of letters gives the columns and their text
/// positions; row lines start with the row number; the lines between them
/// hold the cells.
fn parse_diagram(text: &str) -> Diagram {
    let lines: Vec<&str> = text.lines().collect();
    let letters_line = lines
        .iter()
        .rev()
        .find(|l| !l.trim().is_empty() && l.chars().all(|c| c == ' ' || c.is_ascii_uppercase()))
        .expect("a line of column letters");
    let columns: Vec<(usize, char)> = letters_line
        .char_indices()
        .filter(|(_, c)| c.is_ascii_uppercase())
        .collect();
    let at = |line: &str, x: usize| line.chars().nth(x).unwrap_or(' ');
    let mut d = Diagram {
        columns: columns.iter().map(|&(_, c)| c).collect(),
        ..Diagram::default()
    };
    let mut previous_row: Option<usize> = None;
    let mut pending_cells: Option<&str> = None;
    for line in &lines {
        let t = line.trim_start();
        let number: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
        if !number.is_empty() {
            let row: usize = number.parse().unwrap();
            for &(x, col) in &columns {
                if let Some(p) = piece_of(at(line, x)) {
                    d.pieces.insert(format!("{col}{row}"), p);
                }
            }
            if let Some(cells) = pending_cells.take() {
                let upper = previous_row.expect("a row above the cells");
                assert_eq!(upper, row + 1, "rows in order");
                for w in columns.windows(2) {
                    let ((x0, c0), (x1, c1)) = (w[0], w[1]);
                    let ch = at(cells, (x0 + x1) / 2);
                    let name = format!("{c0}{c1}{row}{upper}");
                    let kind = match ch {
                        '/' | '\\' => ch,
                        _ => 's',
                    };
                    d.cells.insert(name.clone(), kind);
                    if let Some(p) = piece_of(ch) {
                        d.pieces.insert(name, p);
                    }
                }
            }
            d.rows.push(row);
            previous_row = Some(row);
        } else if t.starts_with('|') {
            pending_cells = Some(line);
        }
    }
    d
}

/// The part of crosscut's board that a diagram covers.
fn board_part(s: &mut Session, d: &Diagram) -> Diagram {
    let board = s.ok("showboard");
    // Keep the board lines and the last (bottom) line of letters.
    let text: Vec<&str> = board
        .lines()
        .filter(|l| !l.starts_with("X black"))
        .collect();
    let full = parse_diagram(&text.join("\n"));
    let mut part = Diagram {
        columns: d.columns.clone(),
        rows: d.rows.clone(),
        ..Diagram::default()
    };
    for (name, &p) in &full.pieces {
        if in_diagram(name, d) {
            part.pieces.insert(name.clone(), p);
        }
    }
    for (name, &k) in &full.cells {
        if in_diagram(name, d) {
            part.cells.insert(name.clone(), k);
        }
    }
    part
}

fn in_diagram(name: &str, d: &Diagram) -> bool {
    let letters: Vec<char> = name
        .chars()
        .take_while(|c| c.is_ascii_uppercase())
        .collect();
    let digits = &name[letters.len()..];
    if !letters.iter().all(|c| d.columns.contains(c)) {
        return false;
    }
    let rows: Vec<usize> = if letters.len() == 1 {
        vec![digits.parse().unwrap()]
    } else {
        (1..digits.len())
            .filter_map(|k| {
                let a: usize = digits[..k].parse().ok()?;
                let b: usize = digits[k..].parse().ok()?;
                (b == a + 1).then_some(a)
            })
            .flat_map(|a| [a, a + 1])
            .collect()
    };
    !rows.is_empty() && rows.iter().all(|r| d.rows.contains(r))
}

/// Checks that crosscut's board shows exactly the diagram's pieces and cell
/// shapes within the diagram's columns and rows.
fn assert_board_matches(s: &mut Session, d: &Diagram, context: &str) {
    let part = board_part(s, d);
    assert_eq!(part.pieces, d.pieces, "{context}: pieces");
    assert_eq!(part.cells, d.cells, "{context}: cell shapes");
}

/// A blank 12x12 game with the diagram's pieces set up.
fn setup_diagram(d: &Diagram, to_move: &str) -> Session {
    let mut s = Session::with("onyx", &["start blank"]);
    for (name, &p) in &d.pieces {
        let color = if p == 'B' { "black" } else { "white" };
        s.ok(&format!("setup {color} {name}"));
    }
    s.ok(&format!("setup_player {to_move}"));
    s
}

fn points(spec: &str) -> String {
    spec.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Column `col`, rows `from..=to`, as point names.
fn column(col: char, from: usize, to: usize) -> String {
    (from..=to)
        .map(|r| format!("{col}{r}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Row `row`, columns `from..=to`.
fn row(row: usize, from: char, to: char) -> String {
    (from..=to)
        .map(|c| format!("{c}{row}"))
        .collect::<Vec<_>>()
        .join(" ")
}

const EXAMPLE_1: &str = "
    2   -   -   -   -
      | / | V | / | H |
    1   -   -   -   -
      A   B   C   D   E";

const EXAMPLE_2: &str = "
   10   -   - V -   -
      | / | ? | / | ? |
    9   -   -   -   - H
      A   B   C   D   E";

const EXAMPLE_3: &str = "
   10   - V -   - H -
      | / |   | / | H |
    9 V -   - V -   - H
      G   H   I   J   K";

const EXAMPLE_4_BEFORE: &str = "
    4   -   - V - V - H
      | / |   | / | ? |
    3   - V - H -   - V
      C   D   E   F   G";

const EXAMPLE_4_AFTER: &str = "
    4   - H -   - V - H
      | / |   | / | ? |
    3   -   - H -   - V
      C   D   E   F   G";

const EXAMPLE_5_BEFORE: &str = "
    4 V - H - V -   -
      | / |   | / |   |
    3 H -   - H -   -
      |   | \\ |   | \\ |
    2 V - H -   - H - H
      C   D   E   F   G";

const EXAMPLE_5_AFTER: &str = "
    4 V -   - V -   -
      | / |   | / |   |
    3   - V -   -   -
      |   | \\ |   | \\ |
    2 V -   -   - H - H
      C   D   E   F   G";

const EXAMPLE_6: &str = "
   4   -   - V -
     |   | / |   |
   3   -   -   - V
     D   E   F   G";

#[test]
fn diagram_parser_reads_the_examples() {
    let d = parse_diagram(EXAMPLE_3);
    let expected: BTreeMap<String, char> = [
        ("H10", 'B'),
        ("G9", 'B'),
        ("I9", 'B'),
        ("J10", 'W'),
        ("K9", 'W'),
        ("JK910", 'W'),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    assert_eq!(d.pieces, expected);
    assert_eq!(d.cells["GH910"], '/');
    assert_eq!(d.cells["HI910"], 's');
    let d = parse_diagram(EXAMPLE_5_BEFORE);
    assert_eq!(d.cells["DE23"], '\\');
    assert_eq!(d.cells["CD23"], 's');
    assert_eq!(d.pieces.len(), 9);
}

#[test]
fn example_1_midpoint_moves() {
    let d = parse_diagram(EXAMPLE_1);
    let mut s = Session::with("onyx", &["start blank"]);
    let legal = s.legal();
    assert!(legal.contains(&"BC12".to_string()));
    assert!(legal.contains(&"DE12".to_string()));
    assert!(!legal.iter().any(|m| m == "CD12" || m == "AB12"));
    let before = s.full_state();
    let e = s.err("play b CD12");
    assert!(e.contains("CD12"), "{e}");
    assert_eq!(s.full_state(), before);
    s.ok("play b BC12");
    s.ok("play w DE12");
    assert_board_matches(&mut s, &d, "example 1");
    // Lower case is accepted too.
    let mut s = Session::with("onyx", &["start blank", "play b bc12", "play w de12"]);
    assert_board_matches(&mut s, &d, "example 1, lower case");
}

#[test]
fn example_2_restriction_on_midpoint_moves() {
    let d = parse_diagram(EXAMPLE_2);
    for to_move in ["black", "white"] {
        let mut s = setup_diagram(&d, to_move);
        assert_board_matches(&mut s, &d, "example 2");
        let legal = s.legal();
        assert!(!legal.contains(&"BC910".to_string()));
        assert!(!legal.contains(&"DE910".to_string()));
        // Other midpoints nearby stay legal.
        assert!(legal.contains(&"FG910".to_string()));
        assert!(legal.contains(&"BC78".to_string()));
        let before = s.full_state();
        for c in ["b", "w"] {
            s.err(&format!("play {c} BC910"));
            s.err(&format!("play {c} DE910"));
            assert_eq!(s.full_state(), before, "{to_move} to move, play {c}");
        }
    }
    // With C10 and E9 emptied, both midpoints are legal again.
    let mut s = setup_diagram(&d, "black");
    s.ok("setup empty C10 E9");
    let legal = s.legal();
    assert!(legal.contains(&"BC910".to_string()));
    assert!(legal.contains(&"DE910".to_string()));
}

#[test]
fn example_3_board_and_links() {
    let d = parse_diagram(EXAMPLE_3);
    let mut s = setup_diagram(&d, "black");
    assert_board_matches(&mut s, &d, "example 3");
    s.err("final_score");
}

/// H10 and G9 are linked by the '/': a Black chain G1..G9, H10, H11, H12
/// wins when its last piece is placed, whichever it is.
#[test]
fn example_3_h10_g9_linked() {
    let d = parse_diagram(EXAMPLE_3);
    for last in ["H10", "G5", "H12"] {
        let mut s = setup_diagram(&d, "black");
        s.ok(&format!("setup black {} H11 H12", column('G', 1, 8)));
        s.ok(&format!("setup empty {last}"));
        s.err("final_score");
        s.ok(&format!("play b {last}"));
        assert_eq!(s.ok("final_score"), "B+", "last piece {last}");
        assert_eq!(s.ok("legal_moves"), "");
    }
    // Without G9 the same chain does not win.
    let mut s = setup_diagram(&d, "black");
    s.ok(&format!("setup black {} H11 H12", column('G', 1, 8)));
    s.ok("setup empty G9 H10");
    s.ok("play b H10");
    s.err("final_score");
}

/// H10 and I9 are not linked; a piece on H9 or I10 links them.
#[test]
fn example_3_h10_i9_not_linked() {
    let d = parse_diagram(EXAMPLE_3);
    let chain = format!("{} H11 H12", column('I', 1, 8));
    let mut s = setup_diagram(&d, "black");
    s.ok(&format!("setup black {chain}"));
    // I1..I9 and H10..H12 are all there, but not joined.
    s.err("final_score");
    let before = s.full_state();
    for joint in ["H9", "I10"] {
        s.ok(&format!("play b {joint}"));
        assert_eq!(s.ok("final_score"), "B+", "{joint}");
        s.ok("undo");
        assert_eq!(s.full_state(), before);
    }
    // Moves elsewhere do not join them; HI910 cannot be played at all.
    s.ok("play b A1");
    s.err("final_score");
    s.err("play w HI910");
    s.ok("play w L12");
    s.err("final_score");
    s.ok("play b H9");
    assert_eq!(s.ok("final_score"), "B+");
}

/// J10 and K9 are linked through the White piece on JK910 (and only
/// through it).
#[test]
fn example_3_jk910_links_j10_k9() {
    // White: A10..I10, then J10, JK910, K9, L9; J10 placed last.
    let mut s = Session::with("onyx", &["start blank"]);
    s.ok(&format!("setup white {} JK910 K9 L9", row(10, 'A', 'I')));
    s.ok("setup_player white");
    s.err("final_score");
    s.ok("play w J10");
    assert_eq!(s.ok("final_score"), "W+");
    // The same chain without the midpoint piece does not win, and the
    // midpoint can no longer be taken.
    let mut s = Session::with("onyx", &["start blank"]);
    s.ok(&format!("setup white {} K9 L9", row(10, 'A', 'I')));
    s.ok("setup_player white");
    s.ok("play w J10");
    s.err("final_score");
    s.ok("play b A1");
    s.err("play w JK910");
    s.ok("play w K10");
    assert_eq!(s.ok("final_score"), "W+");
}

#[test]
fn example_4_capture() {
    let before = parse_diagram(EXAMPLE_4_BEFORE);
    let after = parse_diagram(EXAMPLE_4_AFTER);
    let mut s = setup_diagram(&before, "white");
    assert_board_matches(&mut s, &before, "example 4 before");
    let legal = s.legal();
    assert!(legal.contains(&"D4*".to_string()), "{legal:?}");
    assert!(legal.contains(&"F3*".to_string()), "{legal:?}");
    let start = s.full_state();
    for mv in ["D4", "D4*", "d4*"] {
        s.ok(&format!("play w {mv}"));
        assert_board_matches(&mut s, &after, mv);
        s.ok("undo");
        assert_eq!(s.full_state(), start);
    }
    for bad in ["D4**", "D4***", "C4*", "F4*"] {
        s.err(&format!("play w {bad}"));
        assert_eq!(s.full_state(), start, "{bad}");
    }
    // F3 captures G3 and F4 while FG34 is empty.
    s.ok("play w F3*");
    let mut expected = parse_diagram(EXAMPLE_4_BEFORE);
    expected.pieces.remove("G3");
    expected.pieces.remove("F4");
    expected.pieces.insert("F3".into(), 'W');
    assert_board_matches(&mut s, &expected, "F3*");
}

#[test]
fn example_4_no_capture_with_occupied_midpoint() {
    let d = parse_diagram(EXAMPLE_4_BEFORE);
    for mid in ["black", "white"] {
        let mut s = setup_diagram(&d, "white");
        s.ok(&format!("setup {mid} FG34"));
        let legal = s.legal();
        assert!(legal.contains(&"F3".to_string()), "{legal:?}");
        assert!(legal.contains(&"D4*".to_string()), "{legal:?}");
        let start = s.full_state();
        s.err("play w F3*");
        assert_eq!(s.full_state(), start);
        s.ok("play w F3");
        let mut expected = parse_diagram(EXAMPLE_4_BEFORE);
        expected.pieces.insert("F3".into(), 'W');
        expected
            .pieces
            .insert("FG34".into(), if mid == "black" { 'B' } else { 'W' });
        assert_board_matches(&mut s, &expected, "F3 with FG34 taken");
    }
}

#[test]
fn example_5_double_capture() {
    let before = parse_diagram(EXAMPLE_5_BEFORE);
    let after = parse_diagram(EXAMPLE_5_AFTER);
    let mut s = setup_diagram(&before, "black");
    assert_board_matches(&mut s, &before, "example 5 before");
    assert!(s.legal().contains(&"D3**".to_string()));
    let start = s.full_state();
    for bad in ["D3*", "D3***", "E2*"] {
        s.err(&format!("play b {bad}"));
        assert_eq!(s.full_state(), start, "{bad}");
    }
    for mv in ["D3", "D3**"] {
        s.ok(&format!("play b {mv}"));
        assert_board_matches(&mut s, &after, mv);
        s.ok("undo");
        assert_eq!(s.full_state(), start);
    }
}

/// After the double capture, Black's D3 and C4 are not linked (the '/' of
/// CD34 joins C3 and D4), while White's F2 and G2 are.
#[test]
fn example_5_links_after_capture() {
    let d = parse_diagram(EXAMPLE_5_BEFORE);
    // Black: C4 reaches the top through C5..C12, D3 the bottom through E2, E1.
    let mut s = setup_diagram(&d, "black");
    s.ok(&format!("setup black {} E2 E1", column('C', 5, 12)));
    s.ok("play b D3**");
    s.err("final_score");
    s.ok("play w L12");
    s.err("final_score");
    let start = s.full_state();
    for joint in ["D4", "C3"] {
        s.ok(&format!("play b {joint}"));
        assert_eq!(s.ok("final_score"), "B+", "{joint}");
        s.ok("undo");
        assert_eq!(s.full_state(), start);
    }
    // White: A1..D1 to the left edge, E1-F2 by '/', F2-G2, G2..L2 to the
    // right edge; E1 placed last, after the capture.
    let mut s = setup_diagram(&d, "black");
    s.ok(&format!(
        "setup white {} {}",
        row(1, 'A', 'D'),
        row(2, 'H', 'L')
    ));
    s.ok("play b D3**");
    s.err("final_score");
    s.ok("play w E1");
    assert_eq!(s.ok("final_score"), "W+");
}

/// F4 and G3 are not linked; F3, G4 or FG34 would link them.
#[test]
fn example_6_alternate_representation() {
    let d = parse_diagram(EXAMPLE_6);
    let mut s = setup_diagram(&d, "black");
    assert_board_matches(&mut s, &d, "example 6");
    // G3 reaches the bottom, F4 the top.
    s.ok(&format!("setup black G1 G2 {}", column('F', 5, 12)));
    s.err("final_score");
    s.err("play b FG34");
    let start = s.full_state();
    for joint in ["F3", "G4"] {
        s.ok(&format!("play b {joint}"));
        assert_eq!(s.ok("final_score"), "B+", "{joint}");
        s.ok("undo");
        assert_eq!(s.full_state(), start);
    }
    // A piece on FG34, taken while its corners were empty, links them too.
    let mut s = Session::with("onyx", &["start blank"]);
    s.ok(&format!("setup black G1 G2 {}", column('F', 5, 12)));
    s.ok("play b FG34");
    s.ok("play w A1");
    s.ok("play b F4");
    s.err("final_score");
    s.ok("play w A2");
    s.ok("play b G3");
    assert_eq!(s.ok("final_score"), "B+");
    // And set up directly, the position is already won.
    let mut s = setup_diagram(&d, "black");
    s.ok(&format!("setup black G1 G2 FG34 {}", column('F', 5, 12)));
    assert_eq!(s.ok("final_score"), "B+");
}

// ---------------------------------------------------------------------------
// The official rules (seed 000).

#[test]
fn standard_start() {
    let mut s = Session::with("onyx", &[]);
    let board = s.ok("showboard");
    let full = parse_diagram(&board);
    let expected: BTreeMap<String, char> = [
        ("A6", 'B'),
        ("A7", 'B'),
        ("L6", 'B'),
        ("L7", 'B'),
        ("F1", 'W'),
        ("G1", 'W'),
        ("F12", 'W'),
        ("G12", 'W'),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    assert_eq!(full.pieces, expected);
    assert_eq!(full.cells.len(), 121);
    assert_eq!(full.cells.values().filter(|&&k| k == 's').count(), 60);
    assert_eq!(s.legal().len(), 192);
    assert_eq!(s.ok("perft 1"), "192");
    assert_eq!(s.ok("gogui-rules_side_to_move"), "black");
    for blocked in ["AB67", "KL67", "FG12", "FG1112"] {
        assert!(!s.legal().contains(&blocked.to_string()), "{blocked}");
    }
    // `start standard` and `clear_board` give the same position back.
    let start = s.state();
    s.ok("play b D4");
    s.ok("clear_board");
    assert_eq!(s.state(), start);
    s.ok("start blank");
    assert_eq!(s.legal().len(), 204);
    s.ok("start standard");
    assert_eq!(s.state(), start);
    // The 8x8 standard start.
    s.ok("boardsize 8");
    let full = parse_diagram(&s.ok("showboard"));
    let names: Vec<&str> = full.pieces.keys().map(String::as_str).collect();
    assert_eq!(names, ["A4", "A5", "D1", "D8", "E1", "E8", "H4", "H5"]);
}

#[test]
fn midpoint_rule() {
    let mut s = Session::with("onyx", &["start blank"]);
    assert_eq!(s.legal().len(), 204);
    // D4 is a corner of DE34 and CD45: both midpoints close.
    s.ok("play b D4");
    let legal = s.legal();
    assert_eq!(legal.len(), 204 - 1 - 2 + 1); // + swap
    assert!(!legal.contains(&"DE34".to_string()));
    assert!(!legal.contains(&"CD45".to_string()));
    s.err("play w DE34");
    s.err("play w CD45");
    // A midpoint taken while its square is empty blocks nothing around it.
    s.ok("play w FG56");
    for corner in ["F5", "G5", "F6", "G6"] {
        assert!(s.legal().contains(&corner.to_string()), "{corner}");
    }
    s.ok("play b F5");
    s.ok("play w G5");
    s.ok("play b G6");
    // F6 completes a deadlock (F5-G6 Black, G5-F6 White), but FG56 is
    // occupied: no capture.
    assert!(s.legal().contains(&"F6".to_string()));
    s.ok("play w F6");
    let board = parse_diagram(&s.ok("showboard"));
    for p in ["F5", "G5", "F6", "G6", "FG56"] {
        assert!(board.pieces.contains_key(p), "{p}");
    }
}

#[test]
fn own_pieces_are_never_captured() {
    // DE34: Black D3, White E3 and D4. Black's E4 captures E3 and D4 and
    // keeps D3 and E4.
    let mut s = Session::with("onyx", &["start blank"]);
    s.ok("setup black D3");
    s.ok("setup white E3 D4");
    s.ok("play b E4*");
    let b = parse_diagram(&s.ok("showboard"));
    assert_eq!(b.pieces.get("D3"), Some(&'B'));
    assert_eq!(b.pieces.get("E4"), Some(&'B'));
    assert!(!b.pieces.contains_key("E3"));
    assert!(!b.pieces.contains_key("D4"));
    // White completing a square where the pattern is not a deadlock (own
    // pieces on one side) captures nothing.
    let mut s = Session::with("onyx", &["start blank"]);
    s.ok("setup black D3 E4");
    s.ok("setup white E3");
    s.ok("setup_player white");
    // D4 makes White E3, D4 vs Black D3, E4: White captures Black.
    assert!(s.legal().contains(&"D4*".to_string()));
    let mut s = Session::with("onyx", &["start blank"]);
    s.ok("setup black D3 D4");
    s.ok("setup white E3");
    s.ok("setup_player white");
    // E4: White E3, E4 and Black D3, D4: sides, not diagonals.
    assert!(s.legal().contains(&"E4".to_string()));
    s.ok("play w E4");
    let b = parse_diagram(&s.ok("showboard"));
    assert_eq!(b.pieces.len(), 4);
    // Black filling the last corner of a square where Black is one diagonal
    // and White the other only ever removes White.
    let mut s = Session::with("onyx", &["start blank"]);
    s.ok("setup white D3 E4");
    s.ok("setup black E3");
    s.ok("play b D4*");
    let b = parse_diagram(&s.ok("showboard"));
    let expected: BTreeMap<String, char> = [("D4", 'B'), ("E3", 'B')]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    assert_eq!(b.pieces, expected);
}

#[test]
fn captured_points_can_be_played_again() {
    let d = parse_diagram(EXAMPLE_4_BEFORE);
    let mut s = setup_diagram(&d, "white");
    s.ok("play w D4*");
    // Black may play back on D3 and E4 (DE34 now: D4, E3 White).
    let legal = s.legal();
    assert!(legal.contains(&"D3".to_string()));
    assert!(legal.contains(&"E4".to_string()));
    s.ok("play b D3");
    s.ok("play w A12");
    // E4 would restore the deadlock: Black captures White's D4 and E3.
    s.ok("play b E4*");
    let b = parse_diagram(&s.ok("showboard"));
    assert!(!b.pieces.contains_key("D4"));
    assert!(!b.pieces.contains_key("E3"));
}

/// A chain whose only piece on one edge is a corner point: the corner counts
/// for both edges it touches.
#[test]
fn corners_belong_to_both_edges() {
    let cases: Vec<(&str, String, &str, &str)> = vec![
        // Black, bottom edge only through A1: A1-B2 ('/'), B2..B12.
        ("b", column('B', 2, 12), "A1", "B+"),
        // White, left edge only through A1: A1-B2, B2..L2.
        ("w", row(2, 'B', 'L'), "A1", "W+"),
        // Black, top edge only through L12: K1..K11, K11-L12 ('/').
        ("b", column('K', 1, 11), "L12", "B+"),
        // White, right edge only through L12: A11..K11, K11-L12.
        ("w", row(11, 'A', 'K'), "L12", "W+"),
        // Black, top only through A12: B1..B11, A11, A12.
        ("b", format!("{} A11", column('B', 1, 11)), "A12", "B+"),
        // White, left only through A12: A12, B12, B11..L11.
        ("w", format!("B12 {}", row(11, 'B', 'L')), "A12", "W+"),
        // Black, bottom only through L1: L1, L2, K2..K12.
        ("b", format!("L2 {}", column('K', 2, 12)), "L1", "B+"),
        // White, right only through L1: A1..K1, L1.
        ("w", row(1, 'A', 'K'), "L1", "W+"),
    ];
    for (color, chain, corner, result) in cases {
        let setup_color = if color == "b" { "black" } else { "white" };
        let mut s = Session::with("onyx", &["start blank"]);
        s.ok(&format!("setup {setup_color} {}", points(&chain)));
        s.ok(&format!("setup_player {setup_color}"));
        s.err("final_score");
        s.ok(&format!("play {color} {corner}"));
        assert_eq!(s.ok("final_score"), result, "{color} {chain} + {corner}");
    }
}

#[test]
fn the_game_ends_at_once_on_connection() {
    let mut s = Session::with("onyx", &["start blank"]);
    s.ok(&format!("setup black {}", column('E', 1, 11)));
    s.err("final_score");
    assert_eq!(s.ok("gogui-rules_final_result"), "unknown");
    s.ok("play b E12");
    assert_eq!(s.ok("final_score"), "B+");
    assert_eq!(s.ok("gogui-rules_final_result"), "black");
    assert_eq!(s.ok("legal_moves"), "");
    assert_eq!(s.ok("legal_moves w"), "");
    assert_eq!(s.ok("perft 1"), "0");
    assert!(s.ok("showboard").contains("game over: B+"));
    let end = s.full_state();
    for line in [
        "play w A1",
        "play b A1",
        "play w swap",
        "genmove w",
        "genmove b",
        "reg_genmove w",
    ] {
        let e = s.err(line);
        assert!(e.contains("over"), "{line}: {e}");
        assert_eq!(s.full_state(), end, "{line}");
    }
    // undo still works and the game goes on.
    s.ok("undo");
    s.err("final_score");
    s.ok("play w E12");
    s.err("final_score");
}

#[test]
fn white_wins_left_to_right() {
    let mut s = Session::with("onyx", &[]);
    s.ok(&format!("setup white {}", row(3, 'A', 'K')));
    s.ok("setup_player white");
    s.err("final_score");
    // A Black column does not win for White, nor a White column.
    s.ok("play w L3");
    assert_eq!(s.ok("final_score"), "W+");
    let mut s = Session::with("onyx", &["start blank"]);
    s.ok(&format!("setup white {}", column('C', 1, 11)));
    s.ok("setup_player white");
    s.ok("play w C12");
    s.err("final_score");
    let mut s = Session::with("onyx", &["start blank"]);
    s.ok(&format!("setup black {}", row(5, 'A', 'K')));
    s.ok("play b L5");
    s.err("final_score");
}

#[test]
fn swap() {
    let mut s = Session::with("onyx", &[]);
    assert!(!s.legal().contains(&"swap".to_string()));
    let start = s.full_state();
    s.err("play b swap");
    s.err("play w swap");
    assert_eq!(s.full_state(), start);
    s.ok("play b D12");
    let legal = s.legal();
    assert!(legal.contains(&"swap".to_string()));
    // D12 and the midpoint DE1112 are gone; swap is offered.
    assert_eq!(legal.len(), 190 + 1);
    assert!(!s.ok("legal_moves b").contains("swap"));
    let board = s.ok("showboard");
    s.err("play b swap");
    s.ok("play w SWAP");
    // The board is the same, White is still to move and swap is gone.
    let after = s.ok("showboard");
    assert_eq!(after, board);
    assert_eq!(s.ok("gogui-rules_side_to_move"), "white");
    assert!(!s.legal().contains(&"swap".to_string()));
    assert_eq!(s.legal().len(), 190);
    s.err("play w swap");
    s.ok("play w E5");
    assert_eq!(s.ok("gogui-rules_side_to_move"), "black");
    s.err("play b swap");
    s.err("play w swap");
    // Undo takes the swap back and it is offered again.
    s.ok("undo");
    s.ok("undo");
    assert!(s.legal().contains(&"swap".to_string()));
    // Swap is not available as the third move.
    s.ok("play w E5");
    s.ok("play b E6");
    assert!(!s.legal().contains(&"swap".to_string()));
    s.err("play w swap");
    // Nor after a set-up position where White moves first.
    let mut s = Session::with("onyx", &["setup_player white", "play w D12"]);
    assert!(!s.legal().contains(&"swap".to_string()));
    s.err("play b swap");
    s.err("play w swap");
}
