//! The command loop against hostile input: overlong tokens echoed in error
//! messages.

mod common;

use common::Session;

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
