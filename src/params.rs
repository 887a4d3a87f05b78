//! Parameters as written by people: the YAML value tree of a spec (or of a
//! command line) and [`Node`], a cursor over it that knows its file and its
//! path inside the file (`sweeps[2].take.min`), so every error names the
//! file, the field and what is allowed. A leaf module: the spec loader and the
//! families read their parameters through it.

use std::fmt;
use std::rc::Rc;

use serde_json::Value;

/// Keys every sweep understands; the rest belong to the family.
pub const SWEEP_KEYS: &[&str] = &[
    "name",
    "family",
    "title",
    "outputs",
    "description",
    "datasets",
];

/// A mistake in a spec: where it is and what is allowed.
#[derive(Debug, Clone, PartialEq)]
pub struct SpecError {
    /// The spec file (or `<command line>`).
    pub file: String,
    /// The field path inside the file, e.g. `sweeps[0].take.min`.
    pub field: String,
    /// What is wrong and what is allowed.
    pub message: String,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}: field `{}`: {}", self.file, self.field, self.message)
        }
    }
}

impl std::error::Error for SpecError {}

/// A cursor into a parsed spec: a value, the file it came from and its path.
#[derive(Clone)]
pub struct Node<'a> {
    value: &'a Value,
    file: &'a str,
    path: Rc<str>,
}

/// A sequence of integers given as a scalar, a list, or a range string.
pub type Ints = Vec<i64>;

impl<'a> Node<'a> {
    /// A root node.
    pub fn root(value: &'a Value, file: &'a str) -> Node<'a> {
        Node {
            value,
            file,
            path: Rc::from(""),
        }
    }
    /// The raw value.
    pub fn value(&self) -> &'a Value {
        self.value
    }
    /// The field path.
    pub fn path(&self) -> &str {
        &self.path
    }
    /// The file.
    pub fn file(&self) -> &'a str {
        self.file
    }
    /// An error at this node.
    pub fn err(&self, message: impl Into<String>) -> SpecError {
        SpecError {
            file: self.file.to_string(),
            field: self.path.to_string(),
            message: message.into(),
        }
    }
    fn child_path(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }
    /// A field of a map, if present (and not null).
    pub fn get(&self, key: &str) -> Option<Node<'a>> {
        let v = self.value.as_object()?.get(key)?;
        if v.is_null() {
            return None;
        }
        Some(Node {
            value: v,
            file: self.file,
            path: Rc::from(self.child_path(key)),
        })
    }
    /// A required field.
    pub fn req(&self, key: &str, what: &str) -> Result<Node<'a>, SpecError> {
        self.expect_map()?;
        self.get(key).ok_or_else(|| {
            let mut e = self.err(format!("missing field `{key}`: {what}"));
            if e.field.is_empty() {
                e.field = key.to_string();
            } else {
                e.field = self.child_path(key);
            }
            e
        })
    }
    /// Fails unless this is a map whose keys are all in `allowed`.
    pub fn expect_keys(&self, allowed: &[&str]) -> Result<(), SpecError> {
        let map = self.expect_map()?;
        for k in map.keys() {
            if !allowed.contains(&k.as_str()) {
                let mut e = self.err(format!(
                    "unknown field `{k}`; allowed here: {}",
                    allowed
                        .iter()
                        .map(|a| format!("`{a}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
                e.field = self.child_path(k);
                return Err(e);
            }
        }
        Ok(())
    }
    /// This node as a map, or an error saying what it is.
    pub fn expect_map(&self) -> Result<&'a serde_json::Map<String, Value>, SpecError> {
        self.value
            .as_object()
            .ok_or_else(|| self.err(format!("expected a map, got {}", describe(self.value))))
    }
    /// The items of a list (a scalar counts as a one-item list).
    pub fn items(&self) -> Vec<Node<'a>> {
        match self.value {
            Value::Array(a) => a
                .iter()
                .enumerate()
                .map(|(i, v)| Node {
                    value: v,
                    file: self.file,
                    path: Rc::from(format!("{}[{i}]", self.path)),
                })
                .collect(),
            _ => vec![self.clone()],
        }
    }
    /// A string.
    pub fn str(&self) -> Result<&'a str, SpecError> {
        self.value
            .as_str()
            .ok_or_else(|| self.err(format!("expected a string, got {}", describe(self.value))))
    }
    /// One of the given words.
    pub fn word(&self, allowed: &[&str]) -> Result<&'a str, SpecError> {
        let s = self.value.as_str().filter(|s| allowed.contains(s));
        s.ok_or_else(|| {
            self.err(format!(
                "expected one of {}, got {}",
                allowed
                    .iter()
                    .map(|a| format!("`{a}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                describe(self.value)
            ))
        })
    }
    /// One or several of the given words (a word or a list of words).
    pub fn words(&self, allowed: &[&str]) -> Result<Vec<&'a str>, SpecError> {
        let items = self.items();
        if items.is_empty() {
            return Err(self.err("empty list"));
        }
        items.iter().map(|n| n.word(allowed)).collect()
    }
    /// A boolean, or a list of booleans.
    pub fn bools(&self) -> Result<Vec<bool>, SpecError> {
        let items = self.items();
        if items.is_empty() {
            return Err(self.err("empty list"));
        }
        items
            .iter()
            .map(|n| {
                n.value.as_bool().ok_or_else(|| {
                    n.err(format!("expected true or false, got {}", describe(n.value)))
                })
            })
            .collect()
    }
    /// A single integer in `[lo, hi]`.
    pub fn int(&self, lo: i64, hi: i64) -> Result<i64, SpecError> {
        let v = self.value.as_i64().ok_or_else(|| {
            self.err(format!(
                "expected a whole number from {lo} to {hi}, got {}",
                describe(self.value)
            ))
        })?;
        if v < lo || v > hi {
            return Err(self.err(format!("{v} is out of range: allowed {lo} to {hi}")));
        }
        Ok(v)
    }
    /// Integers in `[lo, hi]` given as a number, a range string `"a..b"` (both
    /// ends included), `"a..b by s"`, a map `{from, to, step}`, or a list of any
    /// of these. The result keeps the given order and may not be empty.
    pub fn ints(&self, lo: i64, hi: i64) -> Result<Ints, SpecError> {
        let mut out = Vec::new();
        let items = self.items();
        if items.is_empty() {
            return Err(self.err("empty list: give at least one value"));
        }
        for it in items {
            it.ints_one(lo, hi, &mut out)?;
        }
        Ok(out)
    }
    fn ints_one(&self, lo: i64, hi: i64, out: &mut Vec<i64>) -> Result<(), SpecError> {
        let allowed = format!(
            "allowed: a whole number from {lo} to {hi}, a range \"a..b\" (both ends included), \"a..b by s\", or a list of these"
        );
        let (a, b, step) = match self.value {
            Value::Number(_) => {
                out.push(self.int(lo, hi)?);
                return Ok(());
            }
            Value::String(s) => {
                parse_range(s).ok_or_else(|| self.err(format!("cannot read {s:?}; {allowed}")))?
            }
            Value::Object(_) => {
                self.expect_keys(&["from", "to", "step"])?;
                let a = self.req("from", "first value")?.int(i64::MIN, i64::MAX)?;
                let b = self
                    .req("to", "last value (included)")?
                    .int(i64::MIN, i64::MAX)?;
                let s = match self.get("step") {
                    Some(n) => n.int(1, i64::MAX)?,
                    None => 1,
                };
                (a, b, s)
            }
            v => return Err(self.err(format!("got {}; {allowed}", describe(v)))),
        };
        if step <= 0 {
            return Err(self.err("the step of a range must be at least 1"));
        }
        if a > b {
            return Err(self.err(format!(
                "empty range {a}..{b}: the first value is larger than the last"
            )));
        }
        if a < lo || b > hi {
            return Err(self.err(format!(
                "range {a}..{b} is out of bounds: allowed {lo} to {hi}"
            )));
        }
        let count = (b - a) / step + 1;
        if count > 100_000_000 {
            return Err(self.err(format!(
                "range {a}..{b} has {count} values; at most 100000000 are allowed"
            )));
        }
        let mut x = a;
        while x <= b {
            out.push(x);
            x += step;
        }
        Ok(())
    }
}

/// Parses `"a..b"` or `"a..b by s"` (spaces allowed; both ends included).
pub fn parse_range(s: &str) -> Option<(i64, i64, i64)> {
    let s = s.trim();
    let (range, step) = match s.split_once(" by ") {
        Some((r, st)) => (r.trim(), st.trim().parse::<i64>().ok()?),
        None => (s, 1),
    };
    let (a, b) = range.split_once("..")?;
    let a = a.trim().parse::<i64>().ok()?;
    let b = b
        .trim()
        .trim_start_matches('=')
        .trim()
        .parse::<i64>()
        .ok()?;
    Some((a, b, step))
}

/// A short description of a value for error messages.
pub fn describe(v: &Value) -> String {
    match v {
        Value::Null => "nothing (null)".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {s:?}"),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "a map".into(),
    }
}

/// Parses YAML text into a value tree, with a located error on bad syntax.
pub fn parse_yaml(text: &str, file: &str) -> Result<Value, SpecError> {
    let v: Value = serde_saphyr::from_str(text).map_err(|e| SpecError {
        file: file.to_string(),
        field: String::new(),
        message: format!("not valid YAML: {}", one_line(&e.to_string())),
    })?;
    Ok(v)
}

fn one_line(s: &str) -> String {
    s.lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join("\n    ")
}

/// Turns `--key value` / `key=value` arguments into a parameter map; each
/// value is read as YAML (`3,5,7` as a list).
pub fn args_to_map(args: &[String]) -> anyhow::Result<serde_json::Value> {
    let mut map = serde_json::Map::new();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        let (key, val) = if let Some(k) = a.strip_prefix("--") {
            if let Some((k, v)) = k.split_once('=') {
                (k.to_string(), v.to_string())
            } else {
                let v = args.get(i + 1).filter(|v| !v.starts_with("--"));
                match v {
                    Some(v) => {
                        i += 1;
                        (k.to_string(), v.clone())
                    }
                    None => (k.to_string(), "true".to_string()),
                }
            }
        } else if let Some((k, v)) = a.split_once('=') {
            (k.to_string(), v.to_string())
        } else {
            anyhow::bail!(
                "cannot read argument {a:?}: give parameters as --key value or key=value"
            );
        };
        let key = key.replace('-', "_");
        let text =
            if val.contains(',') && !val.trim_start().starts_with(['[', '{']) && !val.contains(':')
            {
                format!("[{val}]")
            } else if val.contains(':') && !val.trim_start().starts_with(['[', '{']) {
                // `max:5`, `min:2,max:7` or `set:1,3,4` as a map.
                short_map(&val)
            } else {
                val.clone()
            };
        let v = parse_yaml(&text, "<command line>")
            .map_err(|e| anyhow::anyhow!("--{key}: {}", e.message))?;
        map.insert(key, v);
        i += 1;
    }
    Ok(serde_json::Value::Object(map))
}

/// `min:2,max:7` → `{min: 2, max: 7}`; values after a key up to the next key
/// form a list: `set:1,3,4` → `{set: [1, 3, 4]}`.
fn short_map(val: &str) -> String {
    let mut entries: Vec<(String, Vec<String>)> = Vec::new();
    for part in val.split(',') {
        match part.split_once(':') {
            Some((k, v)) => entries.push((k.trim().to_string(), vec![v.trim().to_string()])),
            None => match entries.last_mut() {
                Some(e) => e.1.push(part.trim().to_string()),
                None => entries.push((part.trim().to_string(), Vec::new())),
            },
        }
    }
    let body: Vec<String> = entries
        .into_iter()
        .map(|(k, v)| match v.len() {
            1 => format!("{k}: {}", v[0]),
            _ => format!("{k}: [{}]", v.join(", ")),
        })
        .collect();
    format!("{{{}}}", body.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node_ints(yaml: &str) -> Result<Ints, SpecError> {
        let v = parse_yaml(yaml, "t.yaml").unwrap();
        let root = Node::root(&v, "t.yaml");
        root.req("x", "")?.ints(0, 1000)
    }

    #[test]
    fn int_forms() {
        assert_eq!(node_ints("x: 5").unwrap(), vec![5]);
        assert_eq!(node_ints("x: 2..5").unwrap(), vec![2, 3, 4, 5]);
        assert_eq!(node_ints("x: 0..10 by 5").unwrap(), vec![0, 5, 10]);
        assert_eq!(node_ints("x: [1, 3..4, 9]").unwrap(), vec![1, 3, 4, 9]);
        assert_eq!(
            node_ints("x: {from: 1, to: 7, step: 3}").unwrap(),
            vec![1, 4, 7]
        );
    }

    #[test]
    fn int_errors_name_the_field() {
        let e = node_ints("x: 5..2").unwrap_err();
        assert_eq!(e.field, "x");
        assert!(e.message.contains("empty range"), "{e}");
        let e = node_ints("x: [1, -3]").unwrap_err();
        assert_eq!(e.field, "x[1]");
        assert!(e.message.contains("out of range"), "{e}");
        let e = node_ints("x: []").unwrap_err();
        assert!(e.message.contains("empty"), "{e}");
        let e = node_ints("x: abc").unwrap_err();
        assert!(e.message.contains("cannot read"), "{e}");
    }

    #[test]
    fn short_take_rules_on_the_command_line() {
        let args: Vec<String> = [
            "--take",
            "set:1,3,4",
            "--t2",
            "min:2,max:7",
            "--t3",
            "max:3",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(
            args_to_map(&args).unwrap(),
            serde_json::json!({"take": {"set": [1, 3, 4]}, "t2": {"min": 2, "max": 7}, "t3": {"max": 3}})
        );
    }
}
