//! The `position` answer: a [`PositionView`] and the game's options as one
//! line of JSON, for graphical interfaces (the browser board reads it; see
//! protocol.md for every field).

use serde_json::{Value, json};

use crate::game::{Color, Outcome};
use crate::session::{Options, PieceChange, PositionView};

/// The name of a piece's colour.
fn piece_name(piece: Option<Color>) -> Value {
    piece.map_or(Value::Null, |c| c.name().into())
}

/// Pieces changed, as `[{"point": .., "piece": ..}]`.
fn changes(list: &[PieceChange]) -> Value {
    list.iter()
        .map(|c| json!({"point": c.point, "piece": c.piece.name()}))
        .collect()
}

/// The `position` answer for `view`, with `options` (the game's options as
/// set; the others are the game's defaults).
pub fn position_json(view: &PositionView, options: &Options) -> Value {
    let d = &view.drawing;
    let points: Vec<Value> = d
        .points
        .iter()
        .map(|p| {
            json!({"name": p.name, "x": p.x, "y": p.y, "level": p.level,
                   "piece": piece_name(p.piece), "edges": p.edges})
        })
        .collect();
    let labels: Vec<Value> = d
        .labels
        .iter()
        .map(|l| json!({"text": l.text, "x": l.x, "y": l.y}))
        .collect();
    let facts: serde_json::Map<String, Value> = d
        .facts
        .iter()
        .map(|(k, v)| (k.clone(), v.clone().into()))
        .collect();
    let options: serde_json::Map<String, Value> = options
        .iter()
        .map(|(k, v)| (k.clone(), v.clone().into()))
        .collect();
    let (last, added, removed) = match &view.last_move {
        Some(m) => (
            json!({"color": m.color.name(), "move": m.text}),
            changes(&m.added),
            changes(&m.removed),
        ),
        None => (Value::Null, json!([]), json!([])),
    };
    json!({
        "game": view.game,
        "size": view.size,
        "options": options,
        "shape": d.shape,
        "to_move": view.to_move.name(),
        "moves_played": view.moves_played,
        "result": view.outcome.map(|o| o.score_text()),
        "winner": match view.outcome {
            Some(Outcome::Win(c)) => c.name().into(),
            _ => Value::Null,
        },
        "points": points,
        "lines": d.lines.iter().map(|&(a, b)| [a, b]).collect::<Vec<_>>(),
        "labels": labels,
        "legal": view.legal,
        "last_move": last,
        "history": view.history.iter().map(|(_, m)| m).collect::<Vec<_>>(),
        "colors": view.history.iter().map(|(c, _)| c.name()).collect::<Vec<_>>(),
        "added": added,
        "removed": removed,
        "removal": d.removal.map(|r| r.name()),
        "pieces_move": d.pieces_move,
        "chain": d.chain,
        "sequence": d.sequence,
        "facts": facts,
    })
}

/// The `position` answer of the engine's current game.
pub fn of_engine(engine: &mut crate::engine::Engine) -> Result<Value, String> {
    let options = engine.options().cloned().unwrap_or_default();
    let view = engine.rules_mut()?.position()?;
    Ok(position_json(&view, &options))
}
