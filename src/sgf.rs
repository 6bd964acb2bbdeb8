//! Game records in SGF (`FF[4]`) with crosscut's move notation: the writer
//! `crosscut-match` uses and the parser behind `loadsgf`.
//!
//! A record is one game tree whose main line is read: the root node holds the
//! game (`XG[onyx]`, private, since SGF has no `GM` number for these games;
//! Hex records also carry its `GM[11]`, and one with only `GM[11]` is Hex),
//! the board size `SZ`, the game's options as set (`XP[start=blank][swap=off]`,
//! one value per option; older records' `XS[blank]` is read as `start`), players,
//! result and reason; then one node per move, `;B[D12]`, `;W[swap]`, with the
//! seconds the move took in `XT` and, under a clock, the time left in
//! `BL`/`WL`. See protocol.md for the full list.

use crate::game::Color;
use crate::session::Options;

/// One move of a record.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordMove {
    /// The colour that played it.
    pub color: Color,
    /// The move in the game's notation (`D12`, `swap`, `pass`).
    pub text: String,
    /// Seconds the move took (`XT`), when measured.
    pub seconds: Option<f64>,
    /// The mover's clock after the move (`BL`/`WL`), under a clock.
    pub time_left: Option<f64>,
    /// A comment (`C`).
    pub comment: Option<String>,
}

impl RecordMove {
    /// A move with no timing or comment.
    pub fn new(color: Color, text: &str) -> RecordMove {
        RecordMove {
            color,
            text: text.to_string(),
            seconds: None,
            time_left: None,
            comment: None,
        }
    }
}

/// A game record.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Record {
    /// Game name as `game` takes it (`XG`).
    pub game: String,
    /// Board size (`SZ`).
    pub size: usize,
    /// The game's options as set (`XP`, one `NAME=VALUE` value each; an
    /// older record's `XS` is the option `start`): those not set take the
    /// game's defaults.
    pub options: Options,
    /// Player who held Black at the end of the game (after any swap) (`PB`).
    pub black: Option<String>,
    /// Player who held White at the end of the game (`PW`).
    pub white: Option<String>,
    /// `B+`, `W+`, `0`, or with a reason `B+Resign`, `W+Time`,
    /// `B+Forfeit` (`RE`).
    pub result: Option<String>,
    /// Why the game ended, in words (`XR`).
    pub reason: Option<String>,
    /// Date `YYYY-MM-DD` (`DT`).
    pub date: Option<String>,
    /// Event (`EV`).
    pub event: Option<String>,
    /// Round, the game's number in the match (`RO`).
    pub round: Option<String>,
    /// Time control in words (`XC`).
    pub time_control: Option<String>,
    /// Number of leading moves that came from an openings file (`XO`).
    pub opening_moves: usize,
    /// Game comment (`GC`).
    pub comment: Option<String>,
    /// The moves of the main line.
    pub moves: Vec<RecordMove>,
}

/// Escapes a property value (`]` and `\`).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn prop(out: &mut String, id: &str, value: &str) {
    out.push_str(id);
    out.push('[');
    out.push_str(&escape(value));
    out.push(']');
}

impl Record {
    /// The record as SGF text, ending with a newline.
    pub fn to_sgf(&self) -> String {
        let mut s = String::from("(;FF[4]CA[UTF-8]AP[crosscut-match]");
        if let Some(number) = crate::games::find(&self.game)
            .ok()
            .and_then(|g| g.sgf_number)
        {
            // SGF's own game number (Hex's, for HexGui and Benzene).
            prop(&mut s, "GM", &number.to_string());
        }
        prop(&mut s, "XG", &self.game);
        prop(&mut s, "SZ", &self.size.to_string());
        let opt = |s: &mut String, id: &str, v: &Option<String>| {
            if let Some(v) = v {
                prop(s, id, v);
            }
        };
        if !self.options.is_empty() {
            s.push_str("XP");
            for (name, value) in &self.options {
                s.push('[');
                s.push_str(&escape(&format!("{name}={value}")));
                s.push(']');
            }
        }
        opt(
            &mut s,
            "GN",
            &Some(format!("{} {}x{}", self.game, self.size, self.size)),
        );
        opt(&mut s, "PB", &self.black);
        opt(&mut s, "PW", &self.white);
        opt(&mut s, "RE", &self.result);
        opt(&mut s, "XR", &self.reason);
        opt(&mut s, "DT", &self.date);
        opt(&mut s, "EV", &self.event);
        opt(&mut s, "RO", &self.round);
        opt(&mut s, "XC", &self.time_control);
        if self.opening_moves > 0 {
            prop(&mut s, "XO", &self.opening_moves.to_string());
        }
        opt(&mut s, "GC", &self.comment);
        for (i, m) in self.moves.iter().enumerate() {
            s.push(if i % 8 == 0 { '\n' } else { ' ' });
            s.push(';');
            prop(&mut s, &m.color.letter().to_string(), &m.text);
            if let Some(t) = m.seconds {
                prop(&mut s, "XT", &format!("{t:.3}"));
            }
            if let Some(t) = m.time_left {
                let id = if m.color == Color::Black { "BL" } else { "WL" };
                prop(&mut s, id, &format!("{t:.3}"));
            }
            if let Some(c) = &m.comment {
                prop(&mut s, "C", c);
            }
        }
        s.push_str(")\n");
        s
    }
}

/// A node: its properties in order, each with its values.
type Node = Vec<(String, Vec<String>)>;

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
}

impl<'a> Parser<'a> {
    fn skip_ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.s.get(self.i).copied()
    }

    fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            Err(format!("expected '{}' at byte {}", c as char, self.i))
        }
    }

    fn value(&mut self) -> Result<String, String> {
        self.expect(b'[')?;
        let start = self.i;
        let mut out = String::new();
        let mut from = start;
        while self.i < self.s.len() {
            match self.s[self.i] {
                b'\\' => {
                    out.push_str(&self.text[from..self.i]);
                    self.i += 1;
                    // An escaped newline is a soft line break: dropped.
                    if self.i < self.s.len() && self.s[self.i] != b'\n' {
                        from = self.i;
                    } else {
                        from = self.i + 1;
                    }
                    self.i += 1;
                }
                b']' => {
                    out.push_str(&self.text[from..self.i]);
                    self.i += 1;
                    return Ok(out);
                }
                _ => self.i += 1,
            }
        }
        Err(format!("unclosed property value starting at byte {start}"))
    }

    fn node(&mut self) -> Result<Node, String> {
        self.expect(b';')?;
        let mut node = Node::new();
        let count = &mut 0usize;
        while let Some(c) = self.peek() {
            if !c.is_ascii_uppercase() {
                break;
            }
            let start = self.i;
            while self.i < self.s.len() && self.s[self.i].is_ascii_alphabetic() {
                self.i += 1;
            }
            // FF[3]-style lower-case letters in identifiers are ignored.
            let id: String = self.text[start..self.i]
                .chars()
                .filter(|c| c.is_ascii_uppercase())
                .collect();
            let mut values = Vec::new();
            while self.peek() == Some(b'[') {
                values.push(self.value()?);
                *count += 1;
                if *count > MAX_NODE_VALUES {
                    return Err(format!(
                        "a node with over {MAX_NODE_VALUES} property values (at byte {})",
                        self.i
                    ));
                }
            }
            if values.is_empty() {
                return Err(format!("property {id} has no value"));
            }
            node.push((id, values));
        }
        Ok(node)
    }

    /// A game tree; each node of its main line (first variation at every
    /// branch) is handed to `main_node` as it is read, and the others are
    /// dropped, so memory does not grow with the record's length.
    ///
    /// Iterative, in constant space beyond the nodes kept: a tree nested
    /// however deep cannot overflow the stack. Only three things about the
    /// open trees matter: how many are open, how many of the outermost of
    /// them lie on the main line (the main line is a path from the root, so
    /// those are always the outermost ones), and whether the innermost has
    /// had a variation yet (its nodes must all come before its first
    /// variation; every enclosing tree has had one: the one still open).
    fn tree(
        &mut self,
        main_node: &mut dyn FnMut(Node) -> Result<(), String>,
    ) -> Result<(), String> {
        self.expect(b'(')?;
        let mut open = 1usize;
        let mut main_open = 1usize;
        let mut had_variation = false;
        loop {
            match self.peek() {
                Some(b';') if !had_variation => {
                    let n = self.node()?;
                    if main_open == open {
                        main_node(n)?;
                    }
                }
                Some(b'(') => {
                    self.i += 1;
                    let main = main_open == open && !had_variation;
                    open += 1;
                    if main {
                        main_open = open;
                    }
                    had_variation = false;
                }
                Some(b')') => {
                    self.i += 1;
                    open -= 1;
                    main_open = main_open.min(open);
                    had_variation = true;
                    if open == 0 {
                        return Ok(());
                    }
                }
                _ => return self.expect(b')'),
            }
        }
    }
}

fn get<'n>(node: &'n Node, id: &str) -> Option<&'n str> {
    get_all(node, id).map(|v| v[0].as_str())
}

/// Every value of property `id`.
fn get_all<'n>(node: &'n Node, id: &str) -> Option<&'n [String]> {
    node.iter()
        .find(|(k, _)| k == id)
        .map(|(_, v)| v.as_slice())
}

/// The options a root node sets: `XP`'s `NAME=VALUE` values, and an older
/// record's `XS` as `start` (`XP` wins where both name it). Names and values
/// are read as written; whoever plays the record checks them.
fn options_of(root: &Node) -> Result<Options, String> {
    let mut options: Options = Vec::new();
    if let Some(start) = get(root, "XS") {
        options.push(("start".into(), start.trim().to_string()));
    }
    for value in get_all(root, "XP").unwrap_or(&[]) {
        let (name, value) = value
            .split_once('=')
            .ok_or_else(|| format!("XP[{value}] is not NAME=VALUE"))?;
        let name = name.trim().to_string();
        options.retain(|(n, _)| *n != name);
        options.push((name, value.trim().to_string()));
    }
    Ok(options)
}

/// Most property values one node may hold (a real record's nodes hold a
/// few dozen at most): a node of millions would otherwise cost hundreds of
/// bytes of memory for every few bytes of the record.
pub const MAX_NODE_VALUES: usize = 4096;

/// Largest record [`load`] reads, in bytes (4 MiB: a record of 100,000
/// moves with timings takes under 3 MiB).
pub const MAX_RECORD_BYTES: u64 = 4 << 20;

/// Reads and parses the record in file `path`, as `loadsgf` does. Reads
/// nothing but a regular file (a device or a FIFO is refused before it is
/// opened, so that it can neither block nor stream forever) of at most
/// [`MAX_RECORD_BYTES`]. Errors start with `cannot read FILE:` or
/// `bad record:`; the file name is quoted cut short
/// ([`crate::text::quote`]).
pub fn load(path: &str) -> Result<Record, String> {
    use std::io::Read;
    let name = crate::text::quote(path);
    let cannot = |why: String| format!("cannot read {name}: {why}");
    let check = |meta: std::fs::Metadata| {
        if !meta.is_file() {
            Err(cannot("not a regular file".into()))
        } else if meta.len() > MAX_RECORD_BYTES {
            Err(cannot(format!(
                "too large ({} bytes, the limit is {MAX_RECORD_BYTES})",
                meta.len()
            )))
        } else {
            Ok(())
        }
    };
    check(std::fs::metadata(path).map_err(|e| cannot(e.to_string()))?)?;
    let file = std::fs::File::open(path).map_err(|e| cannot(e.to_string()))?;
    // The same checks on what was opened, in case the path changed since.
    check(file.metadata().map_err(|e| cannot(e.to_string()))?)?;
    let mut bytes = Vec::new();
    file.take(MAX_RECORD_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| cannot(e.to_string()))?;
    if bytes.len() as u64 > MAX_RECORD_BYTES {
        return Err(cannot(format!("too large (over {MAX_RECORD_BYTES} bytes)")));
    }
    let text = String::from_utf8(bytes).map_err(|_| cannot("not UTF-8".into()))?;
    parse(&text).map_err(|e| format!("bad record: {e}"))
}

/// Parses the first game of an SGF text into a [`Record`]. The game must
/// name its game (`XG`, `GM[11]` for Hex, or `GN` starting with the game's
/// name) and size.
pub fn parse(text: &str) -> Result<Record, String> {
    let mut p = Parser {
        s: text.as_bytes(),
        text,
        i: 0,
    };
    // Anything before the first '(' is ignored, as SGF readers do.
    match text.find('(') {
        Some(i) => p.i = i,
        None => return Err("no game tree: SGF starts with '('".into()),
    }
    // The root is kept; every later node is turned into its move (if any)
    // as it is read.
    let mut line = Vec::new();
    let mut moves = Vec::new();
    let mut k = 0;
    p.tree(&mut |node| {
        if let Some(m) = node_move(k, &node)? {
            moves.push(m);
        }
        if line.is_empty() {
            line.push(node);
        }
        k += 1;
        Ok(())
    })?;
    let root = line.first().ok_or("empty game tree")?;
    let owned = |id: &str| get(root, id).map(str::to_string);
    let game = match get(root, "XG") {
        Some(g) => g.trim().to_ascii_lowercase(),
        // SGF's own game number (Hex's: HexGui and Benzene write it).
        None => match get(root, "GM")
            .and_then(|n| n.trim().parse().ok())
            .and_then(crate::games::by_sgf_number)
        {
            Some(g) => g.name.to_string(),
            None => get(root, "GN")
                .and_then(|g| g.split_whitespace().next())
                .map(|g| g.to_ascii_lowercase())
                .ok_or("the record does not name its game (XG)")?,
        },
    };
    let size = get(root, "SZ")
        .ok_or("the record has no board size (SZ)")?
        .trim()
        .parse::<usize>()
        .map_err(|_| "SZ must be a number (square boards only)".to_string())?;
    let mut rec = Record {
        game,
        size,
        options: options_of(root)?,
        black: owned("PB"),
        white: owned("PW"),
        result: owned("RE"),
        reason: owned("XR"),
        date: owned("DT"),
        event: owned("EV"),
        round: owned("RO"),
        time_control: owned("XC"),
        opening_moves: get(root, "XO")
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0),
        comment: owned("GC"),
        moves: Vec::new(),
    };
    rec.moves = moves;
    Ok(rec)
}

/// The move of main-line node `k`, if it has one.
fn node_move(k: usize, node: &Node) -> Result<Option<RecordMove>, String> {
    let b = get(node, "B");
    let w = get(node, "W");
    let (color, text) = match (b, w) {
        (Some(t), None) => (Color::Black, t),
        (None, Some(t)) => (Color::White, t),
        (None, None) => return Ok(None),
        (Some(_), Some(_)) => return Err(format!("node {k} has both B and W")),
    };
    let num = |id: &str| get(node, id).and_then(|v| v.trim().parse::<f64>().ok());
    Ok(Some(RecordMove {
        color,
        text: text.trim().to_string(),
        seconds: num("XT"),
        time_left: num(if color == Color::Black { "BL" } else { "WL" }),
        comment: get(node, "C").map(str::to_string),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let rec = Record {
            game: "onyx".into(),
            size: 12,
            options: vec![
                ("start".into(), "standard".into()),
                ("swap".into(), "off".into()),
            ],
            black: Some("B [x]".into()),
            white: Some("W\\y".into()),
            result: Some("W+Forfeit".into()),
            reason: Some("illegal move E5 by B".into()),
            date: Some("2026-11-22".into()),
            opening_moves: 1,
            moves: vec![
                RecordMove::new(Color::Black, "D4"),
                RecordMove {
                    color: Color::White,
                    text: "swap".into(),
                    seconds: Some(0.25),
                    time_left: Some(9.5),
                    comment: Some("a ] comment".into()),
                },
            ],
            ..Record::default()
        };
        let text = rec.to_sgf();
        assert!(text.starts_with("(;FF[4]CA[UTF-8]AP[crosscut-match]XG[onyx]SZ[12]"));
        assert!(text.contains("XP[start=standard][swap=off]"));
        assert!(text.contains(";W[swap]XT[0.250]WL[9.500]"));
        assert_eq!(parse(&text).unwrap(), rec);
    }

    #[test]
    fn options_and_older_records() {
        let rec = parse("(;XG[onyx]SZ[8]XS[blank])").unwrap();
        assert_eq!(
            rec.options,
            vec![("start".to_string(), "blank".to_string())]
        );
        let rec = parse("(;XG[onyx]SZ[8]XS[blank]XP[swap=off][start=standard])").unwrap();
        let expected: Options = vec![
            ("swap".into(), "off".into()),
            ("start".into(), "standard".into()),
        ];
        assert_eq!(rec.options, expected);
        assert!(parse("(;XG[onyx]SZ[8]XP[swap])").is_err());
    }

    #[test]
    fn reads_variations_and_foreign_files() {
        let rec = parse("junk (;GN[Onyx game]SZ[8];B[A1](;W[B2];B[C3])(;W[D4]))").unwrap();
        assert_eq!(rec.game, "onyx");
        assert_eq!(rec.size, 8);
        let moves: Vec<_> = rec.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(moves, ["A1", "B2", "C3"]);
        assert!(parse("(;SZ[8];B[A1])").is_err());
        assert!(parse("(;XG[onyx]SZ[8];B[A1]").is_err());
        assert!(parse("(;XG[onyx]SZ[8];B[A1]W[B2])").is_err());
        assert!(parse("nothing").is_err());
    }
}
