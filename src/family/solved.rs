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
        safe_integers(json!({
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
        }))
    }
}

/// The largest integer every JSON reader holds exactly (2^53 − 1, a double's
/// integers: JavaScript's `Number.MAX_SAFE_INTEGER`).
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// `v` with every integer beyond ±[`MAX_SAFE_INTEGER`] written as a string
/// of its decimal digits (the usual convention: a reader that parses JSON
/// numbers as doubles would round it, 10^18 and 10^18 − 1 alike); the
/// others stay numbers.
pub fn safe_integers(v: Value) -> Value {
    match v {
        Value::Number(n) => {
            let big = match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => u > MAX_SAFE_INTEGER,
                (None, Some(i)) => i.unsigned_abs() > MAX_SAFE_INTEGER,
                _ => false,
            };
            if big {
                Value::String(n.to_string())
            } else {
                Value::Number(n)
            }
        }
        Value::Array(a) => Value::Array(a.into_iter().map(safe_integers).collect()),
        Value::Object(m) => {
            Value::Object(m.into_iter().map(|(k, x)| (k, safe_integers(x))).collect())
        }
        other => other,
    }
}

/// The map of a `json!({...})` object (an empty map for anything else).
pub fn map(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_beyond_2_pow_53_become_strings_and_the_others_stay_numbers() {
        let v = json!({
            "heaps": [9_007_199_254_740_991u64, 9_007_199_254_740_992u64, 3],
            "r": -9_007_199_254_740_992i64,
            "seconds": 0.5,
            "to": {"a": 1_000_000_000_000_000_000u64}
        });
        assert_eq!(
            safe_integers(v),
            json!({
                "heaps": [9_007_199_254_740_991u64, "9007199254740992", 3],
                "r": "-9007199254740992",
                "seconds": 0.5,
                "to": {"a": "1000000000000000000"}
            })
        );
    }
}
