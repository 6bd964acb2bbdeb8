//! The games and their registry. Each game lives in its own folder (rules,
//! notation, evaluation) and describes itself in one [`GameEntry`]; the
//! engine, the protocol, `crosscut-match` and `bench` know the games only
//! through [`GAMES`]. Adding a game is one folder and one line there (see
//! `docs/adding-a-game.md`).

pub mod akron;
pub mod common;
pub mod hex;
pub mod onyx;
pub mod orcoon;
pub mod two_distance;

use crate::game::Notation;
use crate::session::{EvalPlayers, GameSession, NewGame, Options, Rules, RulesSession, Session};

/// Every game, in the order `game` lists them. The first is the default
/// of `crosscut-match`.
pub const GAMES: &[&GameEntry] = &[&onyx::ENTRY, &orcoon::ENTRY, &akron::ENTRY, &hex::ENTRY];

/// Builds a referee's game from a board size and options.
pub type NewRules = fn(usize, &Options) -> Result<Box<dyn Rules>, String>;

/// Builds an engine's game from a board size, options and the table's
/// megabytes.
pub type NewSession = fn(usize, &Options, usize) -> Result<Box<dyn Session>, String>;

/// What the registry knows of one game.
pub struct GameEntry {
    /// The name `game` selects it by (lower case).
    pub name: &'static str,
    /// The board sizes the game has: from, to, step.
    pub sizes: (usize, usize, usize),
    /// The size `game NAME` starts with.
    pub default_size: usize,
    /// The game's options, each also a protocol command of its name.
    pub options: &'static [GameOption],
    /// The game's own protocol commands.
    pub commands: &'static [GameCommand],
    /// How the board is laid out, for boards drawn outside the engine
    /// (GoGui mode).
    pub layout: Layout,
    /// SGF's own game number (`GM`), where SGF has one (Hex: 11); records
    /// always name the game in `XG` too.
    pub sgf_number: Option<u32>,
    /// The positions `bench` searches.
    pub bench: &'static [BenchPosition],
    /// The game's opening book (see [`crate::engine::book`]): empty for none.
    pub book: &'static str,
    /// The move limit of a match game on a board of this size when none is
    /// given (`crosscut-match --maxmoves`): a few times the points of the
    /// board, so that engines caught in a cycle end in a draw instead of
    /// playing forever, while no real game comes near it.
    pub move_limit: fn(usize) -> usize,
    /// A referee's game: rules only, no searcher.
    pub new_rules: NewRules,
    /// The engine's game: rules, the game's evaluators (the first in
    /// use), and a searcher whose table has the megabytes given.
    pub new_session: NewSession,
}

/// How a game's points are laid out on its board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// An N×N grid of points, columns from `A` at the left, row 1 at the
    /// bottom (Orcoon; Akron's surface).
    Grid,
    /// The grid plus the midpoint of each square cell (Onyx): in GoGui a
    /// (2N−1)×(2N−1) board of points and midpoints.
    GridWithMidpoints,
    /// An N×N rhombus of hexagonal cells, row 1 at the top (Hex).
    Rhombus,
}

impl Layout {
    /// The geometry word of GoGui's `gogui-rules_board_size` answer, when
    /// the board is not GoGui's square grid: `hex` draws a rhombus of
    /// hexagons.
    pub fn gogui_geometry(self) -> Option<&'static str> {
        match self {
            Layout::Rhombus => Some("hex"),
            Layout::Grid | Layout::GridWithMidpoints => None,
        }
    }
}

/// An option of a game (Onyx's `start`), set by the protocol command of
/// its name and kept by `boardsize` and `clear_board`.
pub struct GameOption {
    /// The option's name, and the command that sets it.
    pub name: &'static str,
    /// The values it takes, the default first.
    pub values: &'static [&'static str],
    /// One line for `help` and the documentation.
    pub doc: &'static str,
    /// Whether `value` exists on a board of the given size (Onyx's standard
    /// start needs a size divisible by 4): the reason if not.
    pub check: fn(usize, &str) -> Result<(), String>,
}

impl GameOption {
    /// The option's value in `options`: the one set, else the default.
    pub fn value_in<'a>(&self, options: &'a crate::session::Options) -> &'a str {
        crate::session::option(options, self.name).unwrap_or(self.values[0])
    }
}

/// A game's own protocol command (Orcoon's `winning_sequence`). It reads
/// the position and must leave it unchanged.
pub struct GameCommand {
    /// The command's name.
    pub name: &'static str,
    /// Its usage line.
    pub usage: &'static str,
    /// Runs it on the game's position (downcast from [`Rules::position_mut`])
    /// with its arguments: the answer or an error message.
    pub run: fn(&mut dyn std::any::Any, &[&str]) -> Result<String, String>,
}

/// A position `bench` searches: board size, options, moves from the start.
pub struct BenchPosition {
    /// Board size.
    pub size: usize,
    /// Options (name, value).
    pub options: &'static [(&'static str, &'static str)],
    /// Moves from the start, separated by spaces.
    pub moves: &'static str,
}

impl GameEntry {
    /// Whether the game has `size`×`size` boards.
    pub fn has_size(&self, size: usize) -> bool {
        let (from, to, step) = self.sizes;
        (from..=to).contains(&size) && (size - from).is_multiple_of(step)
    }

    /// The sizes as people write them: `4 to 26` or `even 4 to 26`.
    pub fn sizes_text(&self) -> String {
        let (from, to, step) = self.sizes;
        match step {
            1 => format!("{from} to {to}"),
            2 => format!("even {from} to {to}"),
            s => format!("{from} to {to} in steps of {s}"),
        }
    }

    /// The option `name`, if the game has it.
    pub fn option(&self, name: &str) -> Option<&'static GameOption> {
        self.options.iter().find(|o| o.name == name)
    }

    /// The game's command `name`, if it has one.
    pub fn command(&self, name: &str) -> Option<&'static GameCommand> {
        self.commands.iter().find(|c| c.name == name)
    }

    /// Checks options given as (name, value) pairs, in any case, for a
    /// `size` board: the same options with names and values in lower case,
    /// each name once (the last value given wins), or the first error (an
    /// option the game does not have, a value it does not take, or one the
    /// size does not have).
    pub fn check_options<N: AsRef<str>, V: AsRef<str>>(
        &self,
        size: usize,
        options: &[(N, V)],
    ) -> Result<Options, String> {
        let mut checked: Options = Vec::new();
        for (name, value) in options {
            let name = name.as_ref().trim().to_ascii_lowercase();
            let value = value.as_ref().trim().to_ascii_lowercase();
            self.check_option(size, &name, &value)?;
            checked.retain(|(n, _)| *n != name);
            checked.push((name, value));
        }
        Ok(checked)
    }

    /// Options as people write them, `NAME=VALUE` (`start=blank`), checked
    /// as [`GameEntry::check_options`] does.
    pub fn parse_options<S: AsRef<str>>(
        &self,
        size: usize,
        words: &[S],
    ) -> Result<Options, String> {
        let pairs = words
            .iter()
            .map(|w| {
                w.as_ref()
                    .split_once('=')
                    .ok_or_else(|| format!("'{}' is not NAME=VALUE", w.as_ref()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        self.check_options(size, &pairs)
    }

    /// Checks `value` for option `name` on a `size` board.
    pub fn check_option(&self, size: usize, name: &str, value: &str) -> Result<(), String> {
        let o = self.option(name).ok_or_else(|| {
            let known: Vec<&str> = self.options.iter().map(|o| o.name).collect();
            if known.is_empty() {
                format!("{} has no option '{name}'", self.name)
            } else {
                format!(
                    "{} has no option '{name}' (its options: {})",
                    self.name,
                    known.join(", ")
                )
            }
        })?;
        if !o.values.contains(&value) {
            return Err(format!(
                "unknown {name} '{value}' ({})",
                o.values.join(" or ")
            ));
        }
        (o.check)(size, value)
    }
}

/// The game called `name` (any case).
pub fn find(name: &str) -> Result<&'static GameEntry, String> {
    GAMES
        .iter()
        .copied()
        .find(|g| g.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("unknown game '{name}' (known: {})", names().join(", ")))
}

/// The game whose SGF game number (`GM`) is `number`, if any.
pub fn by_sgf_number(number: u32) -> Option<&'static GameEntry> {
    GAMES.iter().copied().find(|g| g.sgf_number == Some(number))
}

/// The games' names, in registry order.
pub fn names() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.name).collect()
}

/// The names joined by `|`, for usage lines (`onyx|orcoon|akron`).
pub fn names_usage() -> String {
    names().join("|")
}

/// A referee's game from a game's constructor: the generic half of
/// [`GameEntry::new_rules`].
pub fn rules_of<G: Notation>(
    name: &'static str,
    new_game: NewGame<G>,
    size: usize,
    options: &Options,
) -> Result<Box<dyn Rules>, String> {
    Ok(Box::new(RulesSession::new(name, new_game, size, options)?))
}

/// An engine's game from a game's constructor and its evaluators (the
/// first in use): the generic half of [`GameEntry::new_session`].
pub fn session_of<G: Notation + crate::solve::Knowledge>(
    name: &'static str,
    new_game: NewGame<G>,
    size: usize,
    options: &Options,
    evaluators: Vec<Box<dyn EvalPlayers<G>>>,
    hash_mb: usize,
) -> Result<Box<dyn Session>, String> {
    let rules = RulesSession::new(name, new_game, size, options)?;
    Ok(Box::new(GameSession::new(rules, evaluators, hash_mb)?))
}
