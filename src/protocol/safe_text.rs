//! Answers never carry bytes that could be read as protocol structure:
//! text that comes from outside (a record's move or name, quoted in an
//! error) may hold control characters and line breaks.

use std::fmt::Write;

/// One line of an answer made safe: control characters (NUL, CR, the C1
/// controls such as NEL) and the Unicode line and paragraph separators are
/// written as `\u{..}` escapes, and a line after the first that begins (past
/// any blanks) with `=` or `?`, so that it could be taken for the start of
/// another answer, gets `> ` before it.
pub fn safe_line(line: &str, first: bool) -> String {
    let mut out = String::with_capacity(line.len());
    let marker = line.trim_start().starts_with(['=', '?']);
    if !first && marker {
        out.push_str("> ");
    }
    for c in line.chars() {
        if (c.is_control() && c != '\t') || c == '\u{2028}' || c == '\u{2029}' {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_escaped_and_markers_quoted() {
        assert_eq!(safe_line("a\0b\rc\u{85}", true), "a\\u{0}b\\u{d}c\\u{85}");
        assert_eq!(safe_line("= 5 fake", false), "> = 5 fake");
        assert_eq!(safe_line(" ?1 x", false), ">  ?1 x");
        assert_eq!(safe_line("a1 win", false), "a1 win");
        assert_eq!(safe_line("tab\there", true), "tab\there");
    }
}
