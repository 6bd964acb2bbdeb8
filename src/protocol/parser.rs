//! GTP input: preprocessing of raw lines and the `nom` parser of a command
//! line (`[id] command_name [arguments]`).

use nom::branch::alt;
use nom::bytes::complete::take_till1;
use nom::character::complete::{digit1, space0, space1};
use nom::combinator::{eof, opt};
use nom::multi::many0;
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

/// One parsed command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandLine<'a> {
    /// The id (digits), echoed in the answer exactly as written.
    pub id: Option<&'a str>,
    /// The command name, lower-cased.
    pub name: String,
    /// The arguments, as written.
    pub args: Vec<&'a str>,
}

pub use crate::text::{QUOTED_CHARS, clip, quote};

/// GTP preprocessing: drops control characters other than tab and newline,
/// cuts a `#` comment, turns tabs into spaces and trims. `None` for a line
/// that is then empty (no answer is due).
pub fn preprocess(raw: &str) -> Option<String> {
    let mut out = String::with_capacity(raw.len());
    for ch in raw.chars() {
        match ch {
            '#' => break,
            '\t' => out.push(' '),
            '\n' => {}
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    let trimmed = out.trim();
    (!trimmed.is_empty()).then(|| trimmed.to_string())
}

fn token(input: &str) -> IResult<&str, &str> {
    take_till1(|c: char| c == ' ').parse(input)
}

fn id(input: &str) -> IResult<&str, &str> {
    terminated(digit1, alt((space1, eof))).parse(input)
}

fn command_line(input: &str) -> IResult<&str, (Option<&str>, &str, Vec<&str>)> {
    let (rest, (_, id, _, name, args, _, _)) = (
        space0,
        opt(id),
        space0,
        token,
        many0(preceded(space1, token)),
        space0,
        eof,
    )
        .parse(input)?;
    Ok((rest, (id, name, args)))
}

/// Parses a preprocessed line. On error, returns the id if one could be
/// read, with a message. An id is kept as written (any length, leading
/// zeros included), so that the answer carries the same id.
pub fn parse_command(line: &str) -> Result<CommandLine<'_>, (Option<&str>, String)> {
    match command_line(line) {
        Ok((_, (id, name, args))) => Ok(CommandLine {
            id,
            name: name.to_ascii_lowercase(),
            args,
        }),
        Err(_) => {
            // A bare id with no command.
            let bare = line.trim();
            let id = (!bare.is_empty() && bare.bytes().all(|b| b.is_ascii_digit())).then_some(bare);
            Err((id, "syntax error: missing command".into()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preprocessing() {
        assert_eq!(preprocess("  # just a comment"), None);
        assert_eq!(preprocess(""), None);
        assert_eq!(preprocess("\t\r\n"), None);
        assert_eq!(preprocess("play\tb D12 # c").as_deref(), Some("play b D12"));
        assert_eq!(preprocess("na\u{1}me\r").as_deref(), Some("name"));
    }

    #[test]
    fn clipping() {
        assert_eq!(quote("D12"), "'D12'");
        let exact = "é".repeat(QUOTED_CHARS);
        assert_eq!(quote(&exact), format!("'{exact}'"));
        let long = format!("{exact}xyz");
        assert_eq!(quote(&long), format!("'{exact}…'"));
        assert_eq!(clip("abcdef", 3), "abc…");
    }

    #[test]
    fn ids_and_args() {
        let c = parse_command("12 play b D12").unwrap();
        assert_eq!(c.id, Some("12"));
        assert_eq!(c.name, "play");
        assert_eq!(c.args, vec!["b", "D12"]);
        let c = parse_command("NAME").unwrap();
        assert_eq!((c.id, c.name.as_str(), c.args.len()), (None, "name", 0));
        let c = parse_command("play   w    swap  ").unwrap();
        assert_eq!(c.args, vec!["w", "swap"]);
        assert_eq!(parse_command("7").unwrap_err().0, Some("7"));
        // Ids are echoed as written: leading zeros and any length.
        assert_eq!(parse_command("007 name").unwrap().id, Some("007"));
        let long = "123456789012345678901234567890";
        assert_eq!(
            parse_command(&format!("{long} name")).unwrap().id,
            Some(long)
        );
        assert_eq!(parse_command(long).unwrap_err().0, Some(long));
        let c = parse_command("1abc").unwrap();
        assert_eq!((c.id, c.name.as_str()), (None, "1abc"));
    }
}
