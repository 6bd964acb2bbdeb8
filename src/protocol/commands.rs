//! Every protocol command: argument checking, the call into the engine and
//! the answer text.

use super::{Gtp, Reply};
use std::time::Duration;

use crate::engine::{BenchLimit, Decision};
use crate::game::{Color, Outcome};
use crate::games::GAME_NAMES;

/// Depth of `bench` without an argument.
const DEFAULT_BENCH_DEPTH: u32 = 5;

/// Deepest `perft` the protocol accepts.
const MAX_PERFT: u32 = 8;

/// The commands, as `list_commands` names them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "game",
    "boardsize",
    "clear_board",
    "loadsgf",
    "komi",
    "start",
    "winning_sequence",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "legal_moves",
    "final_score",
    "setup",
    "setup_player",
    "perft",
    "time_settings",
    "time_left",
    "param",
    "analyze",
    "bench",
    "gogui-rules_game_id",
    "gogui-rules_board_size",
    "gogui-rules_board",
    "gogui-rules_legal_moves",
    "gogui-rules_side_to_move",
    "gogui-rules_final_result",
    "gogui-setup",
    "gogui-setup_player",
];

fn usage(text: &str) -> Reply {
    Err(format!("syntax error: usage: {text}"))
}

fn parse_color(text: &str) -> Result<Color, String> {
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

/// Runs command `name` with `args`.
pub fn dispatch(gtp: &mut Gtp, name: &str, args: &[&str]) -> Reply {
    let engine = &mut gtp.engine;
    match name {
        "protocol_version" => Ok("2".into()),
        "name" => Ok("crosscut".into()),
        "version" => Ok(env!("CARGO_PKG_VERSION").into()),
        "known_command" => match args {
            [c] => Ok(COMMANDS
                .contains(&c.to_ascii_lowercase().as_str())
                .to_string()),
            _ => usage("known_command COMMAND"),
        },
        "list_commands" => Ok(COMMANDS.join("\n")),
        "quit" => Ok(String::new()),
        "game" => match args {
            [g] => engine.select_game(g).map(|_| String::new()),
            _ => usage(&format!("game {}", GAME_NAMES.join("|"))),
        },
        "gogui-rules_game_id" => Ok(engine.session()?.name().into()),
        "gogui-rules_board_size" => Ok(engine.session()?.size().to_string()),
        "boardsize" => match args {
            [n] => {
                let size: usize = n
                    .parse()
                    .map_err(|_| format!("syntax error: '{n}' is not a board size"))?;
                engine
                    .session_mut()?
                    .reset(size)
                    .map_err(|e| format!("unacceptable size: {e}"))?;
                engine.clock.reset_game();
                Ok(String::new())
            }
            _ => usage("boardsize N"),
        },
        "clear_board" => {
            let s = engine.session_mut()?;
            let size = s.size();
            s.reset(size)?;
            engine.clock.reset_game();
            Ok(String::new())
        }
        "loadsgf" => match args {
            [file] | [file, _] => {
                let upto = match args {
                    [_, n] => {
                        let n = parse_count(n)?;
                        if n == 0 {
                            return Err("syntax error: move numbers start at 1".into());
                        }
                        Some(n as usize - 1)
                    }
                    _ => None,
                };
                let record = crate::sgf::load(file)?;
                engine.load_record(&record, upto).map(|_| String::new())
            }
            _ => usage("loadsgf FILE [MOVE_NUMBER]"),
        },
        "komi" => match args {
            [k] if k.parse::<f64>().is_ok() => Ok(String::new()),
            [k] => Err(format!("syntax error: '{k}' is not a number")),
            _ => usage("komi VALUE"),
        },
        "play" => match args {
            [c, m] => {
                let color = parse_color(c)?;
                engine
                    .session_mut()?
                    .play(color, m)
                    .map(|_| String::new())
                    .map_err(|e| e.to_string())
            }
            _ => usage("play COLOR MOVE"),
        },
        "genmove" | "reg_genmove" => match args {
            [c] => {
                let color = parse_color(c)?;
                match engine.genmove(color, name == "genmove")? {
                    Decision::Move(m) => Ok(m),
                    Decision::Resign => Ok("resign".into()),
                }
            }
            _ => usage(&format!("{name} COLOR")),
        },
        "analyze" => match args {
            [c] => engine.analyze(parse_color(c)?),
            _ => usage("analyze COLOR"),
        },
        "bench" => {
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
                [] => crate::engine::Engine::bench(limit, None),
                [g] if GAME_NAMES.contains(&g.to_ascii_lowercase().as_str()) => {
                    crate::engine::Engine::bench(limit, Some(&g.to_ascii_lowercase()))
                }
                [g] => Err(format!("unknown game '{g}'")),
                _ => usage("bench [DEPTH [GAME]] or bench movetime SECONDS [GAME]"),
            }
        }
        "undo" => {
            if !args.is_empty() {
                return usage("undo");
            }
            if engine.session_mut()?.undo() {
                Ok(String::new())
            } else {
                Err("cannot undo".into())
            }
        }
        "showboard" => Ok(format!("\n{}", engine.session()?.showboard())),
        "gogui-rules_board" => Ok(format!("\n{}", engine.session()?.showboard())),
        "legal_moves" | "gogui-rules_legal_moves" => {
            let s = engine.session_mut()?;
            let color = match args {
                [] => s.to_move(),
                [c] => parse_color(c)?,
                _ => return usage(&format!("{name} [COLOR]")),
            };
            Ok(s.legal_moves_for(color).join(" "))
        }
        "gogui-rules_side_to_move" => Ok(engine.session()?.to_move().name().into()),
        "final_score" => match engine.session()?.outcome() {
            Some(o) => Ok(o.score_text()),
            None => Err("the game is not over".into()),
        },
        "gogui-rules_final_result" => Ok(match engine.session()?.outcome() {
            Some(Outcome::Win(c)) => c.name().into(),
            Some(Outcome::Draw) => "draw".into(),
            None => "unknown".into(),
        }),
        "setup" => match args {
            [c, points @ ..] if !points.is_empty() => {
                let color = match c.to_ascii_lowercase().as_str() {
                    "empty" | "e" => None,
                    _ => Some(parse_color(c)?),
                };
                let pairs: Vec<(Option<Color>, &str)> =
                    points.iter().map(|&p| (color, p)).collect();
                engine.session_mut()?.setup(&pairs).map(|_| String::new())
            }
            _ => usage("setup black|white|empty POINT..."),
        },
        "gogui-setup" => {
            if !args.len().is_multiple_of(2) {
                return usage("gogui-setup COLOR POINT [COLOR POINT...]");
            }
            let mut pairs = Vec::new();
            for pair in args.chunks(2) {
                pairs.push((Some(parse_color(pair[0])?), pair[1]));
            }
            engine.session_mut()?.setup(&pairs).map(|_| String::new())
        }
        "setup_player" | "gogui-setup_player" => match args {
            [c] => {
                let color = parse_color(c)?;
                engine
                    .session_mut()?
                    .set_to_move(color)
                    .map(|_| String::new())
            }
            _ => usage(&format!("{name} COLOR")),
        },
        "perft" => match args {
            [d] => {
                let depth = parse_count(d)?;
                if depth > MAX_PERFT {
                    return Err(format!("perft depth must be from 0 to {MAX_PERFT}"));
                }
                Ok(engine.session_mut()?.perft(depth).to_string())
            }
            _ => usage("perft DEPTH"),
        },
        "time_settings" => match args {
            [m, b, s] => {
                let (main, byo, stones) = (parse_seconds(m)?, parse_seconds(b)?, parse_count(s)?);
                engine
                    .clock
                    .set(main, byo, stones)
                    .map(|_| String::new())
                    .map_err(|e| format!("syntax error: {e}"))
            }
            _ => usage("time_settings MAIN_TIME BYO_YOMI_TIME BYO_YOMI_STONES"),
        },
        "time_left" => match args {
            [c, t, s] => {
                let (color, time, stones) = (parse_color(c)?, parse_seconds(t)?, parse_count(s)?);
                engine
                    .clock
                    .set_left(color, time, stones)
                    .map(|_| String::new())
                    .map_err(|e| format!("syntax error: {e}"))
            }
            _ => usage("time_left COLOR TIME STONES"),
        },
        "param" => match args {
            [] => Ok(engine
                .list_params()
                .into_iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join("\n")),
            [k] => engine
                .list_params()
                .into_iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(k))
                .map(|(_, v)| v)
                .ok_or_else(|| format!("unknown parameter '{k}'")),
            [k, v] => engine
                .set_param(&k.to_ascii_lowercase(), v)
                .map(|_| String::new()),
            _ => usage("param [NAME [VALUE]]"),
        },
        _ => {
            // A game's own commands (Onyx's `start`, ...).
            if let Ok(s) = engine.session_mut()
                && s.extra_commands().contains(&name)
            {
                return s.extra_command(name, args);
            }
            if COMMANDS.contains(&name) {
                match engine.session() {
                    Ok(s) => Err(format!("{name} is not a command of {}", s.name())),
                    Err(e) => Err(e),
                }
            } else {
                Err("unknown command".into())
            }
        }
    }
}
