//! What HexGui (Benzene's GUI for Hex) sends besides plain GTP, answered
//! as MoHex answers it. These commands are always available (HexGui starts
//! the engine with no option of ours); Hex's own analysis (`vc-build`, the
//! Hint button) is a command of the Hex game in the registry
//! ([`crate::games::hex::hint`]).
//!
//! - `hexgui-analyze_commands`: the analysis menu, in GoGui's
//!   `type/label/command` format ([`ANALYZE_COMMANDS`]); asking it marks the
//!   controller as HexGui, so that `genmove` writes Hex's swap
//!   `swap-pieces` ([`written_move`]).
//! - `boardsize W H`: HexGui always sends two numbers (read by
//!   `boardsize` itself, as any GTP engine that takes rectangular sizes).
//! - `param_dfpn [NAME VALUE]`: the solver's settings HexGui's Solve button
//!   sets (`use_guifx`, `timelimit`).
//! - `dfpn-solve-state COLOR`: the winner of the position with COLOR to
//!   move (`black`, `white`, or `empty` when not decided), with the
//!   solver's progress (each root move's value on its cell) written live
//!   as `gogui-gfx:` blocks when `use_guifx` is on ([`gfx_block`]).
//! - Moves after the end: once connected, HexGui still sends `play` for
//!   clicks on a finished board, then `undo` for its Back button. The rules
//!   refuse a move after the end (RULINGS), so HexGui mode ([`MODE`])
//!   acknowledges such a click on an empty cell without playing it, and an
//!   `undo` takes back the last acknowledged click before any real move:
//!   both boards stay equal, and the game and its result never change.
//! - `gogui-interrupt`: tells GoGui-style controllers that the comment line
//!   `# interrupt` stops a running command, as `stop` does (the input
//!   reader sees it: see [`super::run_with`]).

use super::{Gtp, Reply, commands};
use crate::game::Color;
use crate::session::Solved;

use commands::{Handler, Mode};

/// The HexGui commands, in the order `list_commands` names them.
pub(super) const COMMANDS: &[(&str, Handler)] = &[
    ("hexgui-analyze_commands", |gtp, _| {
        gtp.hexgui = true;
        Ok(ANALYZE_COMMANDS.into())
    }),
    ("gogui-interrupt", |_, _| Ok(String::new())),
    ("param_dfpn", param_dfpn),
    ("dfpn-solve-state", dfpn_solve_state),
];

/// `hexgui-analyze_commands`: HexGui's analysis menu, one
/// `type/label/command` line each (GoGui's format; `%m` is the colour to
/// move). `inferior` answers are drawn as MoHex's cell marks, `string`
/// ones shown as text, `param` ones edited in a dialog.
pub const ANALYZE_COMMANDS: &str = "inferior/VC Build (consider set)/vc-build %m\n\
string/DFPN Solve State/dfpn-solve-state %m\n\
param/DFPN Param/param_dfpn\n\
string/Solve/solve %m\n\
string/Solve All Moves/solve_all %m\n\
string/Search and Evaluation/analyze %m\n\
plist/All Legal Moves/legal_moves %m\n\
string/ShowBoard/showboard\n\
string/Final Score/final_score\n\
string/Parameters/param";

/// The settings of `param_dfpn`: HexGui's Solve button turns `use_guifx`
/// on; `timelimit` bounds `dfpn-solve-state` (seconds, 0 = none).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DfpnParams {
    /// Whether `dfpn-solve-state` writes its progress as `gogui-gfx:`
    /// blocks on stdout.
    pub use_guifx: bool,
    /// Seconds `dfpn-solve-state` may take; 0 = no limit (until `stop` or
    /// `# interrupt`).
    pub timelimit: f64,
}

impl Default for DfpnParams {
    fn default() -> Self {
        DfpnParams {
            use_guifx: false,
            timelimit: 0.0,
        }
    }
}

/// The move `genmove` writes: as the engine chose it, except Hex's `swap`
/// once HexGui has connected (it asked `hexgui-analyze_commands`), which
/// is written `swap-pieces`, Benzene's name: Selinger's HexGui reads
/// `swap` as another move (swap-sides) and then takes it back without
/// `undo`, so the two boards would part.
pub(super) fn written_move(gtp: &Gtp, mv: String) -> String {
    if gtp.hexgui && mv == "swap" {
        "swap-pieces".into()
    } else {
        mv
    }
}

fn param_dfpn(gtp: &mut Gtp, args: &[&str]) -> Reply {
    let p = &mut gtp.dfpn;
    match args {
        [] => Ok(format!(
            "[bool] use_guifx {}\n[string] timelimit {}",
            u8::from(p.use_guifx),
            p.timelimit
        )),
        [name, value] => match *name {
            "use_guifx" => {
                p.use_guifx = match *value {
                    "1" | "true" => true,
                    "0" | "false" => false,
                    _ => {
                        return Err(format!(
                            "syntax error: use_guifx takes 0 or 1, not '{value}'"
                        ));
                    }
                };
                Ok(String::new())
            }
            "timelimit" => {
                let secs = value
                    .parse::<f64>()
                    .ok()
                    .filter(|s| (0.0..=86_400.0).contains(s))
                    .ok_or_else(|| {
                        format!("syntax error: timelimit takes 0 to 86400 seconds, not '{value}'")
                    })?;
                p.timelimit = secs;
                Ok(String::new())
            }
            _ => Err(format!(
                "unknown parameter '{name}' (param_dfpn has use_guifx and timelimit)"
            )),
        },
        _ => Err("syntax error: usage: param_dfpn [NAME VALUE]".into()),
    }
}

/// A `gogui-gfx:` block as HexGui's `dfpn` display reads it: no
/// variation, `labels` (cell and value pairs: see [`cell_labels`]) written
/// on the cells (`W` drawn green, `L` red), and the solver's progress line
/// (`info solve ...`) as the status text; ended by the blank line that
/// ends a block.
pub fn gfx_block(progress: &str, labels: &str) -> String {
    let text = progress.strip_prefix("info solve ").unwrap_or(progress);
    let labels = if labels.is_empty() {
        String::new()
    } else {
        format!(" {labels}")
    };
    format!("gogui-gfx:\ndfpn\nVAR\nLABEL{labels}\nTEXT {text}\n\n")
}

/// The pairs of the solver's `info solve moves MOVE VALUE ...` line whose
/// move is a cell (a letter and a row number: HexGui can write on it; not
/// `swap`), as `MOVE LABEL ...`: `W`, `L`, or the move's proof number
/// alone (`PN` of `PN/DN`: a cell holds a few characters).
pub fn cell_labels(moves: &str) -> String {
    let words: Vec<&str> = moves.split_whitespace().collect();
    words
        .chunks(2)
        .filter(|pair| {
            let mut chars = pair[0].chars();
            pair.len() == 2
                && chars.next().is_some_and(|c| c.is_ascii_alphabetic())
                && chars.as_str().parse::<u32>().is_ok()
        })
        .map(|pair| {
            let proof = pair[1].split('/').next().unwrap_or(pair[1]);
            format!("{} {proof}", pair[0])
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The winner `dfpn-solve-state` names from `solve`'s answer for `color`.
fn winner(answer: &Solved, color: Color) -> &'static str {
    match answer {
        Solved::Win(_) => color.name(),
        Solved::Loss => color.opponent().name(),
        Solved::Draw | Solved::Unknown => "empty",
    }
}

fn dfpn_solve_state(gtp: &mut Gtp, args: &[&str]) -> Reply {
    let [c] = args else {
        return Err("syntax error: usage: dfpn-solve-state COLOR".into());
    };
    let color = commands::parse_color(c)?;
    let DfpnParams {
        use_guifx,
        timelimit,
    } = gtp.dfpn;
    let live = &mut gtp.live;
    // The root's moves come in a line of their own before each report.
    let mut labels = String::new();
    let mut progress = |line: &str| {
        if let Some(moves) = line.strip_prefix("info solve moves ") {
            labels = cell_labels(moves);
        } else if use_guifx {
            live(&gfx_block(line, &labels));
        }
    };
    let answer = gtp
        .engine
        .solve_reporting(Some(color), Some(timelimit), &mut progress)?;
    Ok(winner(&answer.value, color).into())
}

/// HexGui mode, on once HexGui has connected (it asked
/// `hexgui-analyze_commands`): clicks after the end acknowledged, not
/// played (see the module's documentation).
pub(super) static MODE: Mode = Mode {
    overrides: &[("play", play_after_end)],
    only: &[],
    game_answer: |_, answer| Ok(answer),
};

/// `play` in HexGui mode: as outside it while the game goes on; after the
/// end, a click on an empty cell is acknowledged and kept aside.
fn play_after_end(gtp: &mut Gtp, args: &[&str]) -> Reply {
    let [c, m] = args else {
        return commands::play(gtp, args);
    };
    let Ok(rules) = gtp.engine.rules_mut() else {
        return commands::play(gtp, args);
    };
    if rules.outcome().is_none() {
        return commands::play(gtp, args);
    }
    commands::parse_color(c)?;
    let empty_point = rules
        .position()
        .ok()
        .and_then(|v| {
            v.drawing
                .points
                .into_iter()
                .find(|p| p.name.eq_ignore_ascii_case(m))
        })
        .is_some_and(|p| p.piece.is_none());
    let taken = commands::after_end(gtp)
        .iter()
        .any(|(_, t)| t.eq_ignore_ascii_case(m));
    if !empty_point || taken {
        return commands::play(gtp, args);
    }
    commands::acknowledge_after_end(gtp, m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winners_and_blocks() {
        let win = Solved::Win(Some("d1".into()));
        assert_eq!(winner(&win, Color::White), "white");
        assert_eq!(winner(&Solved::Loss, Color::White), "black");
        assert_eq!(winner(&Solved::Unknown, Color::Black), "empty");
        let block = gfx_block("info solve attacker black pn 3 dn 4", "");
        assert!(block.starts_with("gogui-gfx:\ndfpn\nVAR\nLABEL\nTEXT attacker black"));
        assert!(block.ends_with("\n\n") && !block.trim_end().contains("\n\n"));
        let labels = cell_labels("a1 W b2 3/inf swap L c10 12/4");
        assert_eq!(labels, "a1 W b2 3 c10 12");
        let block = gfx_block("info solve x", &labels);
        assert!(block.contains("\nLABEL a1 W b2 3 c10 12\nTEXT x\n"));
    }
}
