//! Opening books: replies prepared ahead of time for the first moves of a
//! game, where a search in a move's time sees least (the board is empty,
//! the connections few, and a node costs the most).
//!
//! A game's book is text in its folder, handed to the engine through its
//! registry entry ([`crate::games::GameEntry::book`]):
//!
//! ```text
//! # a comment
//! [hex 11 swap=off]
//! : f6
//! j1 : i3
//! ```
//!
//! A section header names the game, the board size and any options; its
//! lines apply only to that game on that size with each option named at
//! that value (an option not named may have any value). A line is the
//! moves played from the start, a colon, and the reply. `genmove` plays
//! the reply when the game's moves so far are a line's and the position
//! came from the game's own start (no setup), with `param book` on.

use crate::games::GameEntry;
use crate::session::{Options, Rules};

/// One section of a book: where it applies, and its lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// The game's name.
    pub game: String,
    /// The board size.
    pub size: usize,
    /// Options and the value each must have.
    pub options: Vec<(String, String)>,
    /// Moves from the start (lower case) and the reply.
    pub lines: Vec<(Vec<String>, String)>,
}

/// Reads a book's text; an error names the line and what is wrong with it.
pub fn parse(text: &str) -> Result<Vec<Section>, String> {
    let mut sections: Vec<Section> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(header) = line.strip_prefix('[') {
            let header = header
                .strip_suffix(']')
                .ok_or_else(|| format!("book line {n}: a section header ends with ']'"))?;
            let mut words = header.split_whitespace();
            let game = words
                .next()
                .ok_or_else(|| format!("book line {n}: a section header names a game"))?;
            let size = words
                .next()
                .and_then(|w| w.parse::<usize>().ok())
                .ok_or_else(|| format!("book line {n}: a board size follows the game's name"))?;
            let mut options = Vec::new();
            for w in words {
                let (name, value) = w
                    .split_once('=')
                    .ok_or_else(|| format!("book line {n}: '{w}' is not NAME=VALUE"))?;
                options.push((name.to_ascii_lowercase(), value.to_ascii_lowercase()));
            }
            sections.push(Section {
                game: game.to_ascii_lowercase(),
                size,
                options,
                lines: Vec::new(),
            });
            continue;
        }
        let section = sections
            .last_mut()
            .ok_or_else(|| format!("book line {n}: a line before any section header"))?;
        let (moves, reply) = line
            .split_once(':')
            .ok_or_else(|| format!("book line {n}: MOVES : REPLY expected"))?;
        let moves: Vec<String> = moves
            .split_whitespace()
            .map(|m| m.to_ascii_lowercase())
            .collect();
        let mut reply = reply.split_whitespace();
        let (Some(r), None) = (reply.next(), reply.next()) else {
            return Err(format!("book line {n}: one reply after the colon"));
        };
        if section.lines.iter().any(|(m, _)| *m == moves) {
            return Err(format!("book line {n}: these moves have a reply already"));
        }
        section.lines.push((moves, r.to_ascii_lowercase()));
    }
    Ok(sections)
}

/// Whether `section` applies to `entry`'s game on a board of `size` with
/// `options` (an option not set has its default, the first of its values).
pub fn applies(section: &Section, entry: &GameEntry, size: usize, options: &Options) -> bool {
    section.game == entry.name
        && section.size == size
        && section.options.iter().all(|(name, value)| {
            entry
                .options
                .iter()
                .find(|o| o.name == name)
                .is_some_and(|o| o.value_in(options).eq_ignore_ascii_case(value))
        })
}

/// The book's reply in the game of `rules`, if any: the moves played are
/// a line of a section that applies, the position is the one those moves
/// make from the game's own start, and the reply is legal.
pub fn reply(
    entry: &GameEntry,
    options: &Options,
    rules: &mut dyn Rules,
) -> Result<Option<String>, String> {
    let sections = parse(entry.book)?;
    let size = rules.size();
    let history: Vec<String> = rules
        .history()
        .iter()
        .map(|m| m.to_ascii_lowercase())
        .collect();
    let Some(found) = sections
        .iter()
        .filter(|s| applies(s, entry, size, options))
        .find_map(|s| s.lines.iter().find(|(m, _)| *m == history))
    else {
        return Ok(None);
    };
    // The same moves from the game's own start must give this position: a
    // setup before the first move changes it.
    let mut start = (entry.new_rules)(size, options)?;
    for m in &history {
        let color = start.to_move();
        if start.play(color, m).is_err() {
            return Ok(None);
        }
    }
    if start.hash() != rules.hash() || start.to_move() != rules.to_move() {
        return Ok(None);
    }
    let color = rules.to_move();
    Ok(rules
        .legal_moves_for(color)
        .into_iter()
        .find(|m| m.eq_ignore_ascii_case(&found.1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_book_is_read_with_its_sections_and_lines() {
        let book =
            parse("# c\n[hex 11 swap=off]\n: f6\nj1 : i3 # why\n\n[hex 9]\nA1:E5\n").unwrap();
        assert_eq!(book.len(), 2);
        assert_eq!(book[0].game, "hex");
        assert_eq!(book[0].size, 11);
        assert_eq!(book[0].options, vec![("swap".into(), "off".into())]);
        assert_eq!(
            book[0].lines,
            vec![
                (vec![], "f6".to_string()),
                (vec!["j1".to_string()], "i3".to_string())
            ]
        );
        assert_eq!(
            book[1].lines,
            vec![(vec!["a1".to_string()], "e5".to_string())]
        );
    }

    #[test]
    fn a_bad_book_names_its_line() {
        for (text, line) in [
            ("f6 : g6\n", 1),
            ("[hex]\n", 1),
            ("[hex 11 swap]\n", 1),
            ("[hex 11\n", 1),
            ("[hex 11]\n\nj1 i3\n", 3),
            ("[hex 11]\nj1 : i3 i4\n", 2),
            ("[hex 11]\nj1 :\n", 2),
            ("[hex 11]\nj1 : i3\nJ1 : i4\n", 3),
        ] {
            let err = parse(text).unwrap_err();
            assert!(
                err.starts_with(&format!("book line {line}:")),
                "{text:?}: {err}"
            );
        }
    }
}
