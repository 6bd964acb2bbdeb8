//! GoGui mode (`crosscut --gogui`): the protocol as GoGui reads and writes
//! it.
//!
//! GoGui is a Go program's GUI: its board is a square grid of at most 25
//! points a side, its columns are `A`..`Z` without `I` (as in Go), its rows
//! are numbered from 1 at the bottom, and it reads `gogui-rules_board` as
//! the first N×N characters `X`, `O` and `.` of the answer. In GoGui mode:
//!
//! - every point the engine reads or writes (`play`, `genmove`,
//!   `legal_moves`, `setup`, `analyze`, the game's own commands) is a GoGui
//!   point: `J5` is the ninth column;
//! - Onyx's board is shown as (2N−1)×(2N−1) cells: the grid point of
//!   column c and row r (from 0) is cell (2c, 2r), the midpoint of a square
//!   whose lower-left corner is (c, r) is cell (2c+1, 2r+1), and every other
//!   cell is never playable (shown empty, never listed as legal);
//! - Hex's rows are turned so that GoGui's row 1 is Hex's last row (Hex's
//!   `a1`, top left, is GoGui's `A11` on 11×11);
//! - Akron shows its surface (level 0) only;
//! - a board of more than 25 cells a side is refused;
//! - a move GoGui cannot show (`swap`, Akron's ball moves `C3-DE45`) is not
//!   written: `genmove` fails without playing it and says why.
//!
//! `showboard` and the searcher's `info` lines on stderr keep crosscut's
//! own notation.

use std::collections::HashSet;

use super::commands::{self, Handler, Mode};
use super::{Gtp, Reply};
use crate::game::{Color, column_letter};
use crate::games::{self, Layout};
use crate::session::Rules;

/// GoGui's largest board: 25 points a side (its columns `A`..`Z` without
/// `I`).
pub const MAX_CELLS: usize = 25;

/// GoGui's column letters: `I` is skipped, as in Go.
const LETTERS: &[u8; MAX_CELLS] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// How a game's points sit on GoGui's grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Model {
    /// Points and midpoints ([`Layout::GridWithMidpoints`]), (2N−1)×(2N−1)
    /// cells.
    Midpoints,
    /// Orcoon and Akron's surface: one cell a point, row 1 at the bottom.
    Grid,
    /// One cell a hexagon ([`Layout::Rhombus`]), row 1 (the top) at
    /// GoGui's top row.
    Rhombus,
}

/// A game's board as GoGui shows it.
#[derive(Clone, Copy, Debug)]
pub struct View {
    model: Model,
    /// The game's own board size.
    n: usize,
}

/// GoGui's name of cell (`x`, `y`), both from 0, `y` from the bottom:
/// `A1`, `J1` for the ninth column.
pub fn gogui_point(x: usize, y: usize) -> String {
    format!("{}{}", LETTERS[x] as char, y + 1)
}

/// Reads a GoGui point (any case) on a board of `cells` a side: (x, y),
/// both from 0, `y` from the bottom.
pub fn parse_gogui_point(text: &str, cells: usize) -> Result<(usize, usize), String> {
    let bad = || {
        format!(
            "'{text}' is not a GoGui point (GoGui mode takes points like J5, with the \
             letter I skipped, and pass or swap)"
        )
    };
    let upper = text.to_ascii_uppercase();
    let (letter, digits) = upper.split_at(upper.chars().next().map_or(0, char::len_utf8));
    if letter == "I" {
        return Err(format!(
            "'{text}' is not a GoGui point: GoGui's columns skip the letter I"
        ));
    }
    let x = LETTERS
        .iter()
        .position(|&l| letter.as_bytes() == [l])
        .ok_or_else(bad)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
        return Err(bad());
    }
    let y: usize = digits.parse().map_err(|_| bad())?;
    if x >= cells || y == 0 || y > cells {
        return Err(format!("'{text}' is off GoGui's {cells}x{cells} board"));
    }
    Ok((x, y - 1))
}

impl View {
    /// The view of game `game` (its registry name) on an `n`×`n` board,
    /// whatever its size (see [`View::check`]), from the game's layout.
    pub fn new(game: &str, n: usize) -> View {
        let model = match games::find(game).map(|g| g.layout) {
            Ok(Layout::GridWithMidpoints) => Model::Midpoints,
            Ok(Layout::Rhombus) => Model::Rhombus,
            _ => Model::Grid,
        };
        View { model, n }
    }

    /// The view of the current game, or why GoGui cannot show it.
    pub fn of(rules: &dyn Rules) -> Result<View, String> {
        let view = View::new(rules.name(), rules.size());
        view.check()?;
        Ok(view)
    }

    /// Fails when GoGui's board cannot hold the game's.
    pub fn check(&self) -> Result<(), String> {
        if self.cells() <= MAX_CELLS {
            return Ok(());
        }
        let n = self.n;
        Err(match self.model {
            Model::Midpoints => format!(
                "GoGui shows a {n}x{n} board with midpoints as {0}x{0} cells (points and \
                 midpoints), and GoGui's boards stop at {MAX_CELLS}x{MAX_CELLS}: choose a board \
                 of at most {MAX_CELLS} cells a side",
                self.cells()
            ),
            _ => format!("GoGui's boards stop at {MAX_CELLS}x{MAX_CELLS}"),
        })
    }

    /// GoGui's board size: cells a side.
    pub fn cells(&self) -> usize {
        match self.model {
            Model::Midpoints => 2 * self.n - 1,
            _ => self.n,
        }
    }

    /// `gogui-rules_board_gfx`, which GoGui draws over the board after
    /// every move: on a board with midpoints, a small square on every
    /// midpoint and a cross on every cell that is no point (so that they
    /// look unlike the grid's points); nothing on other boards.
    pub fn board_gfx(&self) -> String {
        if self.model != Model::Midpoints {
            return String::new();
        }
        let (mut midpoints, mut none) = (Vec::new(), Vec::new());
        for y in 0..self.cells() {
            for x in 0..self.cells() {
                match self.crosscut_name(x, y) {
                    Some(_) if x % 2 == 1 => midpoints.push(gogui_point(x, y)),
                    Some(_) => {}
                    None => none.push(gogui_point(x, y)),
                }
            }
        }
        format!("SQUARE {}\nMARK {}", midpoints.join(" "), none.join(" "))
    }

    /// crosscut's name of the point at cell (`x`, `y`) (`y` from the
    /// bottom), or `None` for an Onyx cell that is no point.
    pub fn crosscut_name(&self, x: usize, y: usize) -> Option<String> {
        match self.model {
            Model::Grid => Some(format!("{}{}", column_letter(x), y + 1)),
            Model::Rhombus => Some(format!(
                "{}{}",
                column_letter(x).to_ascii_lowercase(),
                self.n - y
            )),
            Model::Midpoints => match (x % 2, y % 2) {
                (0, 0) => Some(format!("{}{}", column_letter(x / 2), y / 2 + 1)),
                (1, 1) => {
                    // The square between columns c, c+1 and rows r, r+1
                    // (c from 0, r from 1) has a midpoint when c + r is even.
                    let (c, r) = (x / 2, y / 2 + 1);
                    (c + r).is_multiple_of(2).then(|| {
                        format!("{}{}{}{}", column_letter(c), column_letter(c + 1), r, r + 1)
                    })
                }
                _ => None,
            },
        }
    }

    /// The cell of crosscut's point `name` (any case; capture marks
    /// ignored), if GoGui's board has it.
    pub fn cell_of(&self, name: &str) -> Option<(usize, usize)> {
        let name = name.trim_end_matches('*');
        let cells = self.cells();
        (0..cells)
            .flat_map(|y| (0..cells).map(move |x| (x, y)))
            .find(|&(x, y)| {
                self.crosscut_name(x, y)
                    .is_some_and(|n| n.eq_ignore_ascii_case(name))
            })
    }

    /// A move of crosscut's as GoGui writes it, or `None` when GoGui
    /// cannot show it (`swap`, Akron's ball moves).
    pub fn to_gogui(&self, mv: &str) -> Option<String> {
        if mv.eq_ignore_ascii_case("pass") {
            return Some("pass".into());
        }
        self.cell_of(mv).map(|(x, y)| gogui_point(x, y))
    }

    /// A move as GoGui (or a person in its shell) writes it, in crosscut's
    /// notation: a GoGui point, `pass`, or `swap`.
    pub fn to_crosscut(&self, text: &str) -> Result<String, String> {
        let lower = text.to_ascii_lowercase();
        if matches!(lower.as_str(), "pass" | "swap" | "swap-pieces") {
            return Ok(lower);
        }
        let (x, y) =
            parse_gogui_point(text, self.cells()).map_err(|e| format!("invalid move: {e}"))?;
        self.crosscut_name(x, y).ok_or_else(|| {
            format!(
                "invalid move: {text} is no point of this board (in GoGui, its points are the \
                 cells of odd column and row, its midpoints those of even column and row \
                 inside a square)"
            )
        })
    }

    /// A point given in GoGui's notation (`setup`), in crosscut's.
    fn point_to_crosscut(&self, text: &str) -> Result<String, String> {
        let (x, y) = parse_gogui_point(text, self.cells())?;
        self.crosscut_name(x, y)
            .ok_or_else(|| format!("{text} is no point of this board"))
    }

    /// `gogui-rules_board`: the cells' colours, `X` Black, `O` White, `.`
    /// empty (and every Onyx cell that is no point), one row a line, top
    /// row first, separated by spaces, and nothing else.
    pub fn board(&self, rules: &mut dyn Rules) -> String {
        let cells = self.cells();
        let mut rows = Vec::with_capacity(cells);
        for y in (0..cells).rev() {
            let row: Vec<&str> = (0..cells)
                .map(|x| {
                    match self
                        .crosscut_name(x, y)
                        .and_then(|name| color_at(rules, &name))
                    {
                        Some(Color::Black) => "X",
                        Some(Color::White) => "O",
                        None => ".",
                    }
                })
                .collect();
            rows.push(row.join(" "));
        }
        rows.join("\n")
    }

    /// The legal moves of `color` that GoGui can show, in GoGui's board
    /// order (row by row from GoGui's row 1, each from column `A`), then
    /// `pass` when it is legal (with `with_pass`).
    pub fn legal_moves(&self, rules: &mut dyn Rules, color: Color, with_pass: bool) -> Vec<String> {
        let listed: HashSet<String> = rules
            .legal_moves_for(color)
            .iter()
            .map(|m| m.trim_end_matches('*').to_ascii_uppercase())
            .collect();
        let cells = self.cells();
        let mut out = Vec::new();
        for y in 0..cells {
            for x in 0..cells {
                if self
                    .crosscut_name(x, y)
                    .is_some_and(|n| listed.contains(&n.to_ascii_uppercase()))
                {
                    out.push(gogui_point(x, y));
                }
            }
        }
        if with_pass && listed.contains("PASS") {
            out.push("pass".into());
        }
        out
    }

    /// Each word of `text` that is a crosscut point, written as GoGui's.
    fn convert_words(&self, text: &str) -> String {
        text.split(' ')
            .map(|w| self.to_gogui(w).unwrap_or_else(|| w.to_string()))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The colour on crosscut's point `name` (Akron: on the surface hole).
fn color_at(rules: &mut dyn Rules, name: &str) -> Option<Color> {
    rules.piece_at(name)
}

/// The crosscut board size GoGui's `boardsize M` asks for: Onyx's
/// (2N−1)-cell board is Onyx N (an even M is taken as N itself, since
/// Onyx's sizes are even); other games' M is M.
pub fn crosscut_size(game: &str, m: usize) -> Result<usize, String> {
    let n = if View::new(game, m).model == Model::Midpoints && m % 2 == 1 {
        m.div_ceil(2)
    } else {
        m
    };
    View::new(game, n).check()?;
    Ok(n)
}

/// GoGui mode as the dispatcher sees it (see [`Mode`]).
pub(super) static MODE: Mode = Mode {
    overrides: OVERRIDES,
    only: ONLY,
    game_answer: game_command_answer,
};

/// The commands GoGui mode answers its own way (the others are answered
/// as outside it).
pub(super) const OVERRIDES: &[(&str, Handler)] = &[
    ("game", game),
    ("boardsize", boardsize),
    ("loadsgf", loadsgf),
    ("play", play),
    ("genmove", |gtp, args| genmove(gtp, args, true)),
    ("reg_genmove", |gtp, args| genmove(gtp, args, false)),
    ("legal_moves", |gtp, args| legal(gtp, args, true)),
    ("gogui-rules_legal_moves", |gtp, args| {
        legal(gtp, args, true)
    }),
    ("gogui-rules_board", |gtp, _| {
        let rules = gtp.engine.rules_mut()?;
        let view = View::of(rules)?;
        Ok(view.board(rules))
    }),
    ("gogui-rules_board_size", |gtp, _| {
        let view = View::of(gtp.engine.rules()?)?;
        // `N hex` makes GoGui draw a rhombus of hexagons.
        let geometry = gtp.engine.entry().and_then(|e| e.layout.gogui_geometry());
        Ok(match geometry {
            Some(word) => format!("{} {word}", view.cells()),
            None => view.cells().to_string(),
        })
    }),
    ("setup", setup),
    ("gogui-setup", gogui_setup),
    ("analyze", analyze),
];

/// The commands that exist in GoGui mode only, in the order
/// `list_commands` adds them.
pub(super) const ONLY: &[(&str, Handler)] = &[
    ("gogui-analyze_commands", |_, _| Ok(ANALYZE_COMMANDS.into())),
    ("crosscut-best_line", best_line),
    ("crosscut-legal_points", |gtp, args| legal(gtp, args, false)),
    ("gogui-rules_board_gfx", |gtp, _| {
        Ok(View::of(gtp.engine.rules()?)?.board_gfx())
    }),
];

/// `gogui-analyze_commands`: GoGui's `type/label/command` lines. `%c` is
/// replaced by GoGui with the colour to move.
pub const ANALYZE_COMMANDS: &str = "plist/Legal points/crosscut-legal_points\n\
var/Best line/crosscut-best_line\n\
string/Search and evaluation/analyze %c";

/// Why GoGui cannot play the game of `rules`: its pieces move (GoGui can
/// neither show nor enter such moves).
fn refusal(rules: &mut dyn Rules) -> Result<(), String> {
    if rules.position().is_ok_and(|v| v.drawing.pieces_move) {
        let name = rules.name();
        return Err(format!(
            "GoGui cannot show {name}'s moves of pieces on the board (nor enter them): \
             play {name} in the browser board (crosscut web) instead"
        ));
    }
    Ok(())
}

/// Makes the current game one GoGui can play: refused when GoGui cannot
/// play it ([`refusal`]), and the swap off (GoGui cannot enter a swap, nor
/// show who holds which colour after it). Called when GoGui mode starts and
/// whenever a game is selected in it.
pub fn prepare(engine: &mut crate::engine::Engine) -> Result<(), String> {
    let Ok(rules) = engine.rules_mut() else {
        return Ok(());
    };
    refusal(rules)?;
    let name = rules.name();
    if engine
        .entry()
        .is_some_and(|e| e.option(crate::games::common::SWAP.name).is_some())
    {
        engine.set_option(crate::games::common::SWAP.name, "off")?;
        log::info!("GoGui mode: {name} is played without swap (GoGui cannot enter it)");
    }
    Ok(())
}

/// `game NAME` in GoGui mode: the game, made ready for GoGui (see
/// [`prepare`]); a game GoGui cannot play is refused first (checked on a
/// referee's game: no searcher), and the current game stays as it was.
fn game(gtp: &mut Gtp, args: &[&str]) -> Reply {
    let [name] = args else {
        return commands::game(gtp, args);
    };
    let entry = games::find(name)?;
    refusal(&mut *(entry.new_rules)(entry.default_size, &Vec::new())?)?;
    commands::game(gtp, args)?;
    prepare(&mut gtp.engine)?;
    Ok(String::new())
}

/// Whether the current game is over: GoGui and gogui-twogtp end a game
/// only on two passes or a resignation, so after the end `genmove`
/// answers `pass` and `play COLOR pass` is taken, neither changing the
/// game (its result is the rules').
fn over(gtp: &Gtp) -> bool {
    gtp.engine.rules().is_ok_and(|r| r.outcome().is_some())
}

fn boardsize(gtp: &mut Gtp, args: &[&str]) -> Reply {
    let game = gtp.engine.rules()?.name();
    match args {
        [m] => {
            let m: usize = m
                .parse()
                .map_err(|_| format!("syntax error: '{m}' is not a board size"))?;
            let n = crosscut_size(game, m).map_err(|e| format!("unacceptable size: {e}"))?;
            commands::boardsize(gtp, &[&n.to_string()])
        }
        _ => commands::boardsize(gtp, args),
    }
}

fn loadsgf(gtp: &mut Gtp, args: &[&str]) -> Reply {
    if let Some(file) = args.first() {
        let record = crate::sgf::load(file)?;
        View::new(&record.game.to_ascii_lowercase(), record.size).check()?;
    }
    commands::loadsgf(gtp, args)
}

fn play(gtp: &mut Gtp, args: &[&str]) -> Reply {
    match args {
        [c, m] if m.eq_ignore_ascii_case("pass") && over(gtp) => {
            commands::parse_color(c)?;
            commands::acknowledge_after_end(gtp, m)
        }
        [c, m] => {
            let mv = View::of(gtp.engine.rules()?)?.to_crosscut(m)?;
            commands::play(gtp, &[c, &mv])
        }
        _ => commands::play(gtp, args),
    }
}

fn genmove(gtp: &mut Gtp, args: &[&str], commit: bool) -> Reply {
    let name = if commit { "genmove" } else { "reg_genmove" };
    let [c] = args else {
        return Err(format!("syntax error: usage: {name} COLOR"));
    };
    let color = commands::parse_color(c)?;
    let view = View::of(gtp.engine.rules()?)?;
    if over(gtp) {
        return Ok("pass".into());
    }
    if commit {
        commands::warn_out_of_turn(gtp, name, color);
    }
    let mv = match gtp.engine.genmove(color, false)? {
        crate::engine::Decision::Move(m) => m,
        crate::engine::Decision::Resign => return Ok("resign".into()),
    };
    let Some(shown) = view.to_gogui(&mv) else {
        let why = if mv.eq_ignore_ascii_case("swap") {
            format!(
                "enter 'play {} swap' in GoGui's shell to accept it (the board does not change \
                 and the same colour moves again; the players exchange colours)",
                color.name()
            )
        } else {
            "moves of pieces on the board need the browser board (crosscut web)".to_string()
        };
        return Err(format!(
            "crosscut chose {mv}, which GoGui's board cannot show: nothing was played; {why}"
        ));
    };
    if commit {
        gtp.engine
            .rules_mut()?
            .play(color, &mv)
            .map_err(|e| e.to_string())?;
    }
    Ok(shown)
}

fn legal(gtp: &mut Gtp, args: &[&str], with_pass: bool) -> Reply {
    let rules = gtp.engine.rules_mut()?;
    let view = View::of(rules)?;
    let color = match args {
        [] => rules.to_move(),
        [c] => commands::parse_color(c)?,
        _ => return Err("syntax error: usage: legal_moves [COLOR]".into()),
    };
    Ok(view.legal_moves(rules, color, with_pass).join(" "))
}

fn setup(gtp: &mut Gtp, args: &[&str]) -> Reply {
    let view = View::of(gtp.engine.rules()?)?;
    let mut converted = Vec::new();
    for (i, a) in args.iter().enumerate() {
        converted.push(if i == 0 {
            a.to_string()
        } else {
            view.point_to_crosscut(a)?
        });
    }
    let words: Vec<&str> = converted.iter().map(String::as_str).collect();
    commands::setup(gtp, &words)
}

fn gogui_setup(gtp: &mut Gtp, args: &[&str]) -> Reply {
    let view = View::of(gtp.engine.rules()?)?;
    let mut converted = Vec::new();
    for (i, a) in args.iter().enumerate() {
        converted.push(if i % 2 == 0 {
            a.to_string()
        } else {
            view.point_to_crosscut(a)?
        });
    }
    let words: Vec<&str> = converted.iter().map(String::as_str).collect();
    commands::gogui_setup(gtp, &words)
}

/// The moves of an `info` line's `pv` that GoGui can show, up to the first
/// it cannot.
fn pv_of(view: &View, info: &str) -> Vec<String> {
    let Some((_, pv)) = info.split_once(" pv ") else {
        return Vec::new();
    };
    pv.split_whitespace()
        .map_while(|m| view.to_gogui(m))
        .collect()
}

fn analyze(gtp: &mut Gtp, args: &[&str]) -> Reply {
    let view = View::of(gtp.engine.rules()?)?;
    let text = commands::analyze(gtp, args)?;
    // Each `info` line (one per line with multi-PV) with its line in
    // GoGui's points; the `eval` line as it is.
    let out: Vec<String> = text
        .lines()
        .map(|info| {
            if !info.starts_with("info ") {
                return info.to_string();
            }
            let head = info.split(" pv ").next().unwrap_or_default();
            let pv = pv_of(&view, info);
            if pv.is_empty() {
                head.to_string()
            } else {
                format!("{head} pv {}", pv.join(" "))
            }
        })
        .collect();
    Ok(out.join("\n"))
}

fn best_line(gtp: &mut Gtp, args: &[&str]) -> Reply {
    if !args.is_empty() {
        return Err("syntax error: usage: crosscut-best_line".into());
    }
    let rules = gtp.engine.rules()?;
    let view = View::of(rules)?;
    if rules.outcome().is_some() {
        return Ok(String::new());
    }
    let color = rules.to_move().name();
    let text = commands::analyze(gtp, &[color])?;
    Ok(pv_of(&view, text.lines().next().unwrap_or_default()).join(" "))
}

/// The answer of one of the game's own commands (Orcoon's
/// `winning_sequence`) with its points written as GoGui's.
fn game_command_answer(gtp: &Gtp, answer: String) -> Reply {
    match View::of(gtp.engine.rules()?) {
        Ok(view) => Ok(view.convert_words(&answer)),
        Err(_) => Ok(answer),
    }
}
