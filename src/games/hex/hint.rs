//! The moves worth considering in a Hex position, from the virtual
//! connections of [`super::vc`]: what HexGui's Hint button shows
//! (`vc-build COLOR`, Hex's own protocol command).
//!
//! For the colour asked about (as if it were to move):
//!
//! - the moves that **win**: those after which it has won, or (on boards up
//!   to [`MAX_VC_SIZE`]) holds a full connection between its edges. When
//!   there are any, only they are worth considering;
//! - otherwise, when the opponent holds a full or semi connection between
//!   its edges (boards up to [`MAX_VC_SIZE`]; on larger boards, a win in
//!   one), the **must-play** region: the intersection of those
//!   connections' carriers. A move outside it leaves one of them whole and
//!   loses (see [`super::vc`]). An empty region means every move loses.
//!   With swap still available the opponent's connections decide nothing
//!   (the mover may swap), so no region is given.
//!
//! Nothing is claimed that the connections do not prove, so every cell
//! outside the set is a losing or needless move; a position the connections
//! say nothing about has no set.

use super::board::{Hex, HexMove};
use super::geometry::Cell;
use super::hsearch::{MAX_VC_SIZE, Mode, side};
use crate::game::{Color, Game, Outcome};

/// What the connections say about a colour's next move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Consider {
    /// These moves win (every other move is needless).
    Wins(Vec<Cell>),
    /// Every move outside these cells loses (none: every move loses).
    MustPlay(Vec<Cell>),
}

impl Consider {
    /// The cells worth considering.
    pub fn cells(&self) -> &[Cell] {
        match self {
            Consider::Wins(c) | Consider::MustPlay(c) => c,
        }
    }
}

/// The moves worth considering for `color` on `pos` (as if it were to
/// move), or `None` when the connections say nothing or the game is over.
/// `pos` is left as it was.
pub fn consider(pos: &mut Hex, color: Color) -> Option<Consider> {
    if pos.outcome().is_some() {
        return None;
    }
    let handed_over = pos.to_move() != color;
    if handed_over {
        pos.play_null();
    }
    let answer = consider_for_mover(pos);
    if handed_over {
        pos.undo();
    }
    answer
}

/// [`consider`] for the side to move.
fn consider_for_mover(pos: &mut Hex) -> Option<Consider> {
    let mover = pos.to_move();
    let other = mover.opponent();
    let small = pos.geometry().n <= MAX_VC_SIZE;
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let cells: Vec<Cell> = moves
        .iter()
        .filter_map(|m| match m {
            HexMove::Place(c) => Some(*c),
            HexMove::Swap => None,
        })
        .collect();
    let wins: Vec<Cell> = cells
        .iter()
        .copied()
        .filter(|&c| {
            pos.play(HexMove::Place(c));
            let won = match pos.outcome() {
                Some(o) => o == Outcome::Win(mover),
                None => small && side(pos, mover, Mode::Proof, false).full,
            };
            pos.undo();
            won
        })
        .collect();
    if !wins.is_empty() {
        return Some(Consider::Wins(wins));
    }
    if pos.swap_available() {
        return None;
    }
    if small {
        let them = side(pos, other, Mode::Proof, false);
        if !(them.full || them.semi) {
            return None;
        }
        let region = cells
            .into_iter()
            .filter(|&c| them.must.has(c as usize))
            .collect();
        return Some(Consider::MustPlay(region));
    }
    // Larger boards: the opponent's wins in one, each a carrier of one cell.
    pos.play_null();
    let threats: Vec<Cell> = cells
        .iter()
        .copied()
        .filter(|&c| {
            pos.play(HexMove::Place(c));
            let won = pos.outcome() == Some(Outcome::Win(other));
            pos.undo();
            won
        })
        .collect();
    pos.undo();
    match threats.as_slice() {
        [] => None,
        [one] => Some(Consider::MustPlay(vec![*one])),
        _ => Some(Consider::MustPlay(Vec::new())),
    }
}

/// `vc-build COLOR`: the empty cells outside the set worth considering for
/// COLOR, each followed by `x` (HexGui's mark for a cell outside the
/// consider set, drawn grey), on one line; empty when nothing is known.
pub fn vc_build(pos: &mut Hex, args: &[&str]) -> Result<String, String> {
    let [c] = args else {
        return Err("syntax error: usage: vc-build COLOR".into());
    };
    let color = Color::parse(c).ok_or_else(|| format!("syntax error: invalid color '{c}'"))?;
    let Some(set) = consider(pos, color) else {
        return Ok(String::new());
    };
    let keep = set.cells();
    let geo = pos.geometry();
    let marks: Vec<String> = (0..geo.num_cells as Cell)
        .filter(|&c| pos.at(c).is_none() && !keep.contains(&c))
        .map(|c| format!("{} x", geo.cell_name(c)))
        .collect();
    Ok(marks.join(" "))
}
