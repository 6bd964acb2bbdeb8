//! The command loop against hostile input: a byte-order mark, overlong
//! lines, overlong tokens echoed in error messages.

use crate::common::Session;
use std::io::{BufReader, Cursor, Read};

fn run(input: impl Read + Send + 'static) -> String {
    let mut out = Vec::new();
    crosscut::protocol::run(BufReader::new(input), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// A UTF-8 byte-order mark before the first command is skipped; one later
/// in the input is not.
#[test]
fn byte_order_mark_at_the_start_is_skipped() {
    let out = run(Cursor::new("\u{feff}1 name\n2 version\n\u{feff}3 name\n"));
    let answers: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(answers[0], "=1 crosscut");
    assert!(answers[1].starts_with("=2 "), "{out}");
    assert!(answers[2].starts_with('?'), "{out}");
}

/// A line over the limit is answered `line too long` (with its id) without
/// being held whole, and the next line is read as usual.
#[test]
fn overlong_line_is_refused_and_reading_goes_on() {
    let long = std::io::repeat(b'a').take(64 << 20);
    let input = Cursor::new(&b"12 "[..])
        .chain(long)
        .chain(Cursor::new(&b"\n13 name\n"[..]));
    let out = run(input);
    assert_eq!(out, "?12 line too long\n\n=13 crosscut\n\n");
    // Just under the limit is still a line like any other.
    let mut line = vec![b'x'; (1 << 20) - 10];
    line.push(b'\n');
    let out = run(Cursor::new(line));
    assert_eq!(out, "? unknown command\n\n");
}

/// User text quoted in an error message is cut to a short prefix.
#[test]
fn echoed_user_text_is_bounded() {
    let long = "Z".repeat(100_000);
    let mut s = Session::new();
    let mut lines = vec![
        format!("game {long}"),
        format!("bench 3 {long}"),
        format!("param {long}"),
        format!("param move_time {long}"),
        format!("komi {long}"),
        format!("boardsize {long}"),
        format!("genmove {long}"),
        format!("loadsgf /tmp/{long}"),
        format!("perft {long}"),
    ];
    for game in ["onyx", "orcoon", "akron"] {
        lines.push(format!("game {game}"));
        lines.push(format!("play b {long}"));
        lines.push(format!("play b C{long}"));
        lines.push(format!("setup black {long}"));
        lines.push(format!("legal_moves {long}"));
    }
    lines.push(format!("start {long}"));
    for line in &lines {
        let a = s.raw(line);
        if line.starts_with("game ") && !line.contains(&long) {
            continue;
        }
        assert!(
            a.starts_with('?'),
            "{}: {}",
            &line[..20],
            &a[..a.len().min(200)]
        );
        assert!(a.len() < 300, "{}: {} bytes", &line[..20], a.len());
    }
    // A long quoted text ends in an ellipsis after its prefix.
    let a = s.raw(&format!("param {long}"));
    assert!(a.contains(&format!("'{}…'", &long[..40])), "{a}");
}
