//! Every protocol command: one small function each, registered with its
//! name in [`COMMANDS`]. A command checks its arguments, calls the engine
//! and writes the answer text. The current game's own commands (its
//! options, such as Onyx's `start`, and commands such as Orcoon's
//! `winning_sequence`) come from the game registry.

use std::time::Duration;

use super::{Gtp, Reply};
use crate::engine::{BenchLimit, Decision, Engine};
use crate::game::{Color, Outcome};
use crate::games;
use crate::search::alphabeta::MAX_MULTIPV;

/// Depth of `bench` without an argument.
const DEFAULT_BENCH_DEPTH: u32 = 5;

/// Deepest `perft` the protocol accepts.
const MAX_PERFT: u32 = 8;

/// A command's handler: the session and the arguments, the answer.
pub(super) type Handler = fn(&mut Gtp, &[&str]) -> Reply;

/// A mode of the protocol (GoGui mode is one): commands it
/// answers its own way, commands only it has, and how it writes a game
/// command's answer. The session says which mode is on
/// ([`Gtp::mode`]); the commands here never name one.
pub(super) struct Mode {
    /// Commands answered instead of the engine's own of the same name.
    pub(super) overrides: &'static [(&'static str, Handler)],
    /// Commands only the mode has, in the order `list_commands` adds them.
    pub(super) only: &'static [(&'static str, Handler)],
    /// Rewrites the answer of one of the game's own commands.
    pub(super) game_answer: fn(&Gtp, String) -> Reply,
}

/// The engine's commands (every game's), in the order `list_commands`
/// names them; the current game's own commands follow them there.
pub const COMMANDS: &[(&str, Handler)] = &[
    ("protocol_version", |_, _| Ok("2".into())),
    ("name", |_, _| Ok("crosscut".into())),
    ("version", |_, _| Ok(env!("CARGO_PKG_VERSION").into())),
    ("known_command", known_command),
    ("list_commands", |gtp, _| Ok(command_names(gtp).join("\n"))),
    ("quit", |_, _| Ok(String::new())),
    // Read while a command runs, `stop` interrupts it (see `run_with`);
    // its own answer is empty.
    ("stop", |_, _| Ok(String::new())),
    ("game", game),
    ("boardsize", boardsize),
    ("clear_board", clear_board),
    ("loadsgf", loadsgf),
    ("komi", komi),
    ("play", play),
    ("genmove", |gtp, args| genmove(gtp, args, true)),
    ("reg_genmove", |gtp, args| genmove(gtp, args, false)),
    ("undo", undo),
    ("showboard", |gtp, _| Ok(gtp.engine.rules()?.showboard())),
    ("legal_moves", legal_moves),
    ("position", position),
    ("final_score", final_score),
    ("setup", setup),
    ("setup_player", setup_player),
    ("perft", perft),
    ("time_settings", time_settings),
    ("time_left", time_left),
    ("param", param),
    ("evaluators", evaluators),
    ("analyze", analyze),
    ("bench", bench),
    ("solve", |gtp, args| solve(gtp, args, false)),
    ("solve_all", |gtp, args| solve(gtp, args, true)),
    ("gogui-rules_game_id", |gtp, _| {
        Ok(gtp.engine.rules()?.name().into())
    }),
    ("gogui-rules_board_size", |gtp, _| {
        Ok(gtp.engine.rules()?.size().to_string())
    }),
    ("gogui-rules_board", |gtp, _| {
        Ok(gtp.engine.rules()?.showboard())
    }),
    ("gogui-rules_legal_moves", legal_moves),
    ("gogui-rules_side_to_move", |gtp, _| {
        Ok(gtp.engine.rules()?.to_move().name().into())
    }),
    ("gogui-rules_final_result", final_result),
    ("gogui-setup", gogui_setup),
    ("gogui-setup_player", setup_player),
];

/// Every command the engine answers now: its own, then the mode's own
/// (in GoGui mode), then the current game's options and commands.
pub fn command_names(gtp: &Gtp) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = COMMANDS.iter().map(|(n, _)| *n).collect();
    names.extend(gtp.always_on().iter().map(|(n, _)| *n));
    if let Some(mode) = gtp.mode() {
        names.extend(mode.only.iter().map(|(n, _)| *n));
    }
    if let Some(entry) = gtp.engine.entry() {
        names.extend(entry.options.iter().map(|o| o.name));
        names.extend(entry.commands.iter().map(|c| c.name));
    }
    names
}

/// `boardsize W H` as `boardsize N`: the arguments of `boardsize` with a
/// second number accepted when it equals the first (HexGui writes
/// `boardsize 9 9`; every board here is square).
fn square_size<'a>(args: &[&'a str]) -> Result<Vec<&'a str>, String> {
    match args {
        [w, h] => {
            let (wn, hn) = (w.parse::<usize>(), h.parse::<usize>());
            match (wn, hn) {
                (Ok(a), Ok(b)) if a == b => Ok(vec![*w]),
                (Ok(a), Ok(b)) => Err(format!(
                    "unacceptable size: {a}x{b}: the boards are square (boardsize N, or \
                     boardsize N N)"
                )),
                _ => Err(format!(
                    "syntax error: '{w} {h}' is not a board size (boardsize N or boardsize N N)"
                )),
            }
        }
        _ => Ok(args.to_vec()),
    }
}

/// Runs command `name` with `args`.
pub fn dispatch(gtp: &mut Gtp, name: &str, args: &[&str]) -> Reply {
    // `boardsize W H` (HexGui) is `boardsize W` when W = H, in every mode.
    let squared;
    let args = if name == "boardsize" {
        squared = square_size(args)?;
        &squared[..]
    } else {
        args
    };
    if let Some(mode) = gtp.mode() {
        let own = mode.overrides.iter().chain(mode.only);
        if let Some((_, handler)) = own.clone().find(|(n, _)| *n == name) {
            return handler(gtp, args);
        }
    }
    if let Some((_, handler)) = COMMANDS
        .iter()
        .chain(gtp.always_on())
        .find(|(n, _)| *n == name)
    {
        return handler(gtp, args);
    }
    let engine = &mut gtp.engine;
    if let Some(entry) = engine.entry() {
        if let Some(option) = entry.option(name) {
            return match args {
                [value] => engine.set_option(name, value).map(|_| String::new()),
                _ => usage(&format!("{name} {}", option.values.join("|"))),
            };
        }
        if entry.command(name).is_some() {
            let answer = engine.game_command(name, args)?;
            return match gtp.mode() {
                Some(mode) => (mode.game_answer)(gtp, answer),
                None => Ok(answer),
            };
        }
    }
    // Another game's own command: say whose it is.
    for entry in games::GAMES {
        if entry.option(name).is_some() || entry.command(name).is_some() {
            return match engine.rules() {
                Ok(r) => Err(format!("{name} is not a command of {}", r.name())),
                Err(e) => Err(e),
            };
        }
    }
    Err("unknown command".into())
}

fn usage(text: &str) -> Reply {
    Err(format!("syntax error: usage: {text}"))
}

pub(super) fn parse_color(text: &str) -> Result<Color, String> {
    Color::parse(text).ok_or_else(|| format!("syntax error: invalid color '{text}'"))
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| format!("syntax error: '{text}' is not a number of seconds"))
}

fn parse_count(text: &str) -> Result<u32, String> {
    text.parse::<u32>()
        .map_err(|_| format!("syntax error: '{text}' is not a whole number"))
}

fn known_command(gtp: &mut Gtp, args: &[&str]) -> Reply {
    match args {
        [c] => Ok(command_names(gtp)
            .contains(&c.to_ascii_lowercase().as_str())
            .to_string()),
        _ => usage("known_command COMMAND"),
    }
}

pub(super) fn game(gtp: &mut Gtp, args: &[&str]) -> Reply {
    match args {
        [g] => gtp.engine.select_game(g).map(|_| String::new()),
        _ => usage(&format!("game {}", games::names_usage())),
    }
}

pub(super) fn boardsize(gtp: &mut Gtp, args: &[&str]) -> Reply {
    match args {
        [n] => {
            let size: usize = n
                .parse()
                .map_err(|_| format!("syntax error: '{n}' is not a board size"))?;
            gtp.engine
                .new_game(size)
                .map(|_| String::new())
                .map_err(|e| format!("unacceptable size: {e}"))
        }
        _ => usage("boardsize N (or boardsize N N)"),
    }
}

fn clear_board(gtp: &mut Gtp, _: &[&str]) -> Reply {
    let size = gtp.engine.rules()?.size();
    gtp.engine.new_game(size).map(|_| String::new())
}

pub(super) fn loadsgf(gtp: &mut Gtp, args: &[&str]) -> Reply {
    let (file, upto) = match args {
        [file] => (file, None),
        [file, n] => {
            let n = parse_count(n)?;
            if n == 0 {
                return Err("syntax error: move numbers start at 1".into());
            }
            (file, Some(n as usize - 1))
        }
        _ => return usage("loadsgf FILE [MOVE_NUMBER]"),
    };
    let record = crate::sgf::load(file)?;
    gtp.engine.load_record(&record, upto).map(|_| String::new())
}

fn komi(_: &mut Gtp, args: &[&str]) -> Reply {
    match args {
        [k] if k.parse::<f64>().is_ok() => Ok(String::new()),
        [k] => Err(format!("syntax error: '{k}' is not a number")),
        _ => usage("komi VALUE"),
    }
}

pub(super) fn play(gtp: &mut Gtp, args: &[&str]) -> Reply {
    match args {
        [c, m] => {
            let color = parse_color(c)?;
            gtp.engine
                .rules_mut()?
                .play(color, m)
                .map(|_| String::new())
                .map_err(|e| e.to_string())
        }
        _ => usage("play COLOR MOVE"),
    }
}

fn genmove(gtp: &mut Gtp, args: &[&str], commit: bool) -> Reply {
    let name = if commit { "genmove" } else { "reg_genmove" };
    match args {
        [c] => {
            let color = parse_color(c)?;
            if commit {
                warn_out_of_turn(gtp, name, color);
            }
            match gtp.engine.genmove(color, commit)? {
                Decision::Move(m) => Ok(gtp.written_move(m)),
                Decision::Resign => Ok("resign".into()),
            }
        }
        _ => usage(&format!("{name} COLOR")),
    }
}

/// Logs a warning (best effort, on stderr) when `genmove` is asked for
/// the colour that is not to move: GTP allows it (the turn is handed over
/// and that colour moves twice in a row), but after `swap` it is usually a
/// controller that forgot that White moves again.
pub(super) fn warn_out_of_turn(gtp: &Gtp, command: &str, color: Color) {
    let Ok(rules) = gtp.engine.rules() else {
        return;
    };
    let to_move = rules.to_move();
    if to_move == color || rules.outcome().is_some() {
        return;
    }
    let after_swap = if rules.history().last().is_some_and(|m| m == "swap") {
        " (white answered swap, so white moves again: the player who moved first now \
         plays white)"
    } else {
        ""
    };
    log::warn!(
        "{command} {0}: {1} is to move{after_swap}; as GTP allows, the turn is handed over \
         and {0} moves twice in a row",
        color.name(),
        to_move.name()
    );
}

/// `analyze COLOR [K]`: K (1 to [`MAX_MULTIPV`]) lines for this analysis
/// instead of `param multipv`'s.
pub(super) fn analyze(gtp: &mut Gtp, args: &[&str]) -> Reply {
    match args {
        [c] => gtp.engine.analyze(parse_color(c)?, None),
        [c, k] => {
            let color = parse_color(c)?;
            match k.parse::<usize>() {
                Ok(k) if (1..=MAX_MULTIPV).contains(&k) => gtp.engine.analyze(color, Some(k)),
                _ => Err(format!(
                    "analyze: the number of lines must be from 1 to {MAX_MULTIPV}, not '{k}'"
                )),
            }
        }
        _ => usage("analyze COLOR [K]"),
    }
}

/// `solve [COLOR] [SECONDS]` and `solve_all [COLOR] [SECONDS]`.
fn solve(gtp: &mut Gtp, args: &[&str], all: bool) -> Reply {
    let name = if all { "solve_all" } else { "solve" };
    let (color, rest) = match args {
        [c, rest @ ..] if Color::parse(c).is_some() => (Color::parse(c), rest),
        _ => (None, args),
    };
    let seconds = match rest {
        [] => None,
        [s] => {
            let secs = parse_seconds(s)?;
            if !(0.0..=86_400.0).contains(&secs) {
                return Err(format!("{name} seconds must be from 0 to 86400"));
            }
            Some(secs)
        }
        _ => return usage(&format!("{name} [COLOR] [SECONDS]")),
    };
    if all {
        Ok(gtp
            .engine
            .solve_all(color, seconds)?
            .iter()
            .map(|(m, a)| format!("{m} {}", a.text()))
            .collect::<Vec<_>>()
            .join("\n"))
    } else {
        Ok(gtp.engine.solve(color, seconds)?.text())
    }
}

fn bench(_: &mut Gtp, args: &[&str]) -> Reply {
    let (limit, game) = match args {
        [t, secs, rest @ ..] if t.eq_ignore_ascii_case("movetime") => {
            let secs = parse_seconds(secs)?;
            if !(0.001..=600.0).contains(&secs) {
                return Err("bench movetime must be from 0.001 to 600 seconds".into());
            }
            (BenchLimit::Time(Duration::from_secs_f64(secs)), rest)
        }
        [t] if t.eq_ignore_ascii_case("movetime") => {
            return usage("bench movetime SECONDS [GAME]");
        }
        [] => (BenchLimit::Depth(DEFAULT_BENCH_DEPTH), args),
        [d, rest @ ..] => {
            let depth = parse_count(d)?;
            if !(1..=12).contains(&depth) {
                return Err("bench depth must be from 1 to 12".into());
            }
            (BenchLimit::Depth(depth), rest)
        }
    };
    match game {
        [] => Engine::bench(limit, None),
        [g] => Engine::bench(limit, Some(games::find(g)?)),
        _ => usage("bench [DEPTH [GAME]] or bench movetime SECONDS [GAME]"),
    }
}

/// The moves a GUI sent after the end that were acknowledged without being
/// played (GoGui's passes, HexGui's clicks: see [`acknowledge_after_end`])
/// and still stand: those made in the current position.
pub(super) fn after_end(gtp: &mut Gtp) -> &mut Vec<(u64, String)> {
    let hash = gtp.engine.rules().ok().map(|r| r.hash());
    gtp.after_end.retain(|(h, _)| Some(*h) == hash);
    &mut gtp.after_end
}

/// Acknowledges `mv`, sent by a GUI after the end, without playing it (the
/// rules refuse every move then): `undo` takes it back first, so the GUI's
/// board and the engine's stay in step.
pub(super) fn acknowledge_after_end(gtp: &mut Gtp, mv: &str) -> Reply {
    let hash = gtp.engine.rules()?.hash();
    after_end(gtp).push((hash, mv.to_ascii_lowercase()));
    Ok(String::new())
}

/// `undo`: a move acknowledged after the end first (see
/// [`acknowledge_after_end`]), then the game's last move.
pub(super) fn undo(gtp: &mut Gtp, args: &[&str]) -> Reply {
    if !args.is_empty() {
        return usage("undo");
    }
    if after_end(gtp).pop().is_some() {
        return Ok(String::new());
    }
    if gtp.engine.rules_mut()?.undo() {
        Ok(String::new())
    } else {
        Err("cannot undo".into())
    }
}

fn legal_moves(gtp: &mut Gtp, args: &[&str]) -> Reply {
    let rules = gtp.engine.rules_mut()?;
    let color = match args {
        [] => rules.to_move(),
        [c] => parse_color(c)?,
        _ => return usage("legal_moves [COLOR]"),
    };
    Ok(rules.legal_moves_for(color).join(" "))
}

fn final_score(gtp: &mut Gtp, _: &[&str]) -> Reply {
    match gtp.engine.rules()?.outcome() {
        Some(o) => Ok(o.score_text()),
        None => Err("the game is not over".into()),
    }
}

fn final_result(gtp: &mut Gtp, _: &[&str]) -> Reply {
    Ok(match gtp.engine.rules()?.outcome() {
        Some(Outcome::Win(c)) => c.name().into(),
        Some(Outcome::Draw) => "draw".into(),
        None => "unknown".into(),
    })
}

pub(super) fn setup(gtp: &mut Gtp, args: &[&str]) -> Reply {
    match args {
        [c, points @ ..] if !points.is_empty() => {
            let color = match c.to_ascii_lowercase().as_str() {
                "empty" | "e" => None,
                _ => Some(parse_color(c)?),
            };
            let pairs: Vec<(Option<Color>, &str)> = points.iter().map(|&p| (color, p)).collect();
            gtp.engine.rules_mut()?.setup(&pairs).map(|_| String::new())
        }
        _ => usage("setup black|white|empty POINT..."),
    }
}

pub(super) fn gogui_setup(gtp: &mut Gtp, args: &[&str]) -> Reply {
    if !args.len().is_multiple_of(2) {
        return usage("gogui-setup COLOR POINT [COLOR POINT...]");
    }
    let mut pairs = Vec::new();
    for pair in args.chunks(2) {
        pairs.push((Some(parse_color(pair[0])?), pair[1]));
    }
    gtp.engine.rules_mut()?.setup(&pairs).map(|_| String::new())
}

fn setup_player(gtp: &mut Gtp, args: &[&str]) -> Reply {
    match args {
        [c] => {
            let color = parse_color(c)?;
            gtp.engine
                .rules_mut()?
                .set_to_move(color)
                .map(|_| String::new())
        }
        _ => usage("setup_player COLOR"),
    }
}

fn perft(gtp: &mut Gtp, args: &[&str]) -> Reply {
    match args {
        [d] => {
            let depth = parse_count(d)?;
            if depth > MAX_PERFT {
                return Err(format!("perft depth must be from 0 to {MAX_PERFT}"));
            }
            gtp.engine.perft(depth).map(|n| n.to_string())
        }
        _ => usage("perft DEPTH"),
    }
}

fn time_settings(gtp: &mut Gtp, args: &[&str]) -> Reply {
    match args {
        [m, b, s] => {
            let (main, byo, stones) = (parse_seconds(m)?, parse_seconds(b)?, parse_count(s)?);
            gtp.engine
                .clock
                .set(main, byo, stones)
                .map(|_| String::new())
                .map_err(|e| format!("syntax error: {e}"))
        }
        _ => usage("time_settings MAIN_TIME BYO_YOMI_TIME BYO_YOMI_STONES"),
    }
}

fn time_left(gtp: &mut Gtp, args: &[&str]) -> Reply {
    match args {
        [c, t, s] => {
            let (color, time, stones) = (parse_color(c)?, parse_seconds(t)?, parse_count(s)?);
            gtp.engine
                .clock
                .set_left(color, time, stones)
                .map(|_| String::new())
                .map_err(|e| format!("syntax error: {e}"))
        }
        _ => usage("time_left COLOR TIME STONES"),
    }
}

fn param(gtp: &mut Gtp, args: &[&str]) -> Reply {
    let engine = &mut gtp.engine;
    match args {
        [] => Ok(engine
            .list_params()
            .into_iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join("\n")),
        [k] => engine.param(k),
        [k, v] => engine.set_param(k, v).map(|_| String::new()),
        _ => usage("param [NAME [VALUE]]"),
    }
}

fn evaluators(gtp: &mut Gtp, args: &[&str]) -> Reply {
    if !args.is_empty() {
        return usage("evaluators");
    }
    match gtp.engine.session() {
        Some(s) => Ok(s.evaluators().join(" ")),
        None => Err(crate::engine::no_game()),
    }
}

/// `position`: the position for a graphical interface, as one line of JSON
/// (see protocol.md).
fn position(gtp: &mut Gtp, args: &[&str]) -> Reply {
    if !args.is_empty() {
        return Err("syntax error: usage: position".into());
    }
    Ok(super::position::of_engine(&mut gtp.engine)?.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_squared() {
        assert_eq!(square_size(&["9", "9"]).unwrap(), vec!["9"]);
        assert_eq!(square_size(&["9"]).unwrap(), vec!["9"]);
        assert!(square_size(&["9", "7"]).unwrap_err().contains("square"));
        assert!(square_size(&["9", "x"]).unwrap_err().contains("syntax"));
    }
}
