//! The one JSON shape of `nimlab solve --json`, for every family
//! (documented by `docs/solve.schema.json`): the rule and the position as
//! the arguments that give them back to `solve`, the outcome, the Grundy
//! value, each winning move with the position it leads to, the method and
//! the time. What only one family has goes under `details`.

use serde_json::{Map, Value, json};

/// One winning move.
pub struct WinningMove {
    /// The move as the text output and `nimlab play` write it (`A3`, `take 2`, `(0,0)..(2,0)`).
    pub text: String,
    /// The position it leads to, as `position` arguments.
    pub to: Map<String, Value>,
    /// Family-specific fields of the move (`heap`, `take`, `cells`…).
    pub extra: Map<String, Value>,
}

/// One position answered.
pub struct Solved {
    /// The family.
    pub family: &'static str,
    /// The rule as the datasets' `rule` column writes it (accepted back by `--rule`).
    pub rule: String,
    /// The rule as separate arguments (`take`, `play`, …).
    pub game: Map<String, Value>,
    /// The position as arguments (`heaps`, `a`/`b`/`r`/`mover`, `board`/`remove`).
    pub position: Map<String, Value>,
    /// Is the player to move losing with perfect play?
    pub is_p: bool,
    /// The Grundy value, where defined.
    pub grundy: Option<u64>,
    /// Every winning move (none for a P-position).
    pub winning_moves: Vec<WinningMove>,
    /// How the answer was computed (a short word).
    pub method: &'static str,
    /// Seconds spent solving.
    pub seconds: f64,
    /// What only this family reports.
    pub details: Map<String, Value>,
}

impl Solved {
    /// The JSON document.
    pub fn json(&self) -> Value {
        let moves: Vec<Value> = self
            .winning_moves
            .iter()
            .map(|m| {
                let mut o = Map::new();
                o.insert("move".into(), json!(m.text));
                o.insert("to".into(), Value::Object(m.to.clone()));
                o.extend(m.extra.clone());
                Value::Object(o)
            })
            .collect();
        json!({
            "family": self.family,
            "rule": self.rule,
            "game": self.game,
            "position": self.position,
            "outcome": if self.is_p { "P" } else { "N" },
            "grundy": self.grundy,
            "winning_moves": moves,
            "method": self.method,
            "seconds": self.seconds,
            "details": self.details,
        })
    }
}

/// The map of a `json!({...})` object (an empty map for anything else).
pub fn map(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}
