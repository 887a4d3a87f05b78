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
        if self.file == COMMAND_LINE && !self.field.is_empty() {
            // `take.set[1]` → `--take (`set[1]`)`.
            let cut = self.field.find(['.', '[']).unwrap_or(self.field.len());
            let (arg, rest) = self.field.split_at(cut);
            let rest = rest.trim_start_matches('.');
            write!(f, "--{}", arg.replace('_', "-"))?;
            if !rest.is_empty() {
                write!(f, " (`{rest}`)")?;
            }
            write!(f, ": {}", self.message)
        } else if self.field.is_empty() {
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
    /// The same field holding another value: what the field's text means
    /// (`set:1,3,4` read as `{set: [1, 3, 4]}`), for the same parser to read,
    /// with errors still naming this field.
    pub fn with_value<'b>(&self, value: &'b Value) -> Node<'b>
    where
        'a: 'b,
    {
        Node {
            value,
            file: self.file,
            path: self.path.clone(),
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
                let near = crate::data::nearest_name(k, allowed)
                    .map(|n| format!(" (did you mean `{n}`?)"))
                    .unwrap_or_default();
                let mut e = self.err(format!(
                    "unknown field `{k}`{near}; allowed here: {}",
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
    /// A game's heap sizes in a sweep's form: `heaps: D` (1 to
    /// `max_heaps`; one heap when absent) and, for each heap `i`, `Ni` or
    /// else `N`, one value each in `0..=hi` ([`Node::one_int`]).
    pub fn sweep_heap_sizes(&self, max_heaps: i64, hi: i64) -> Result<Vec<i64>, SpecError> {
        let d = match self.get("heaps") {
            Some(h) => h.one_int(1, max_heaps)? as usize,
            None => 1,
        };
        (1..=d)
            .map(|i| {
                self.get(&format!("N{i}"))
                    .or_else(|| self.get("N"))
                    .ok_or_else(|| self.err(format!("missing N{i} (or N): the size of heap {i}")))?
                    .one_int(0, hi)
            })
            .collect()
    }
    /// One integer in `lo..=hi` where a sweep may give a range or a list:
    /// a game (`nimlab play`) needs one value, and the error says how
    /// many were given and which option picks one.
    pub fn one_int(&self, lo: i64, hi: i64) -> Result<i64, SpecError> {
        let v = self.ints(lo, hi)?;
        match v.as_slice() {
            [x] => Ok(*x),
            _ => {
                let range = match (v.first(), v.last()) {
                    (Some(a), Some(b)) => format!(" ({a}..{b})"),
                    _ => String::new(),
                };
                Err(self.err(format!(
                    "{} values{range}; a game needs one: give --{} <value>",
                    v.len(),
                    self.path()
                )))
            }
        }
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

/// The "file" of parameters given on the command line: their errors read
/// `--take: …` instead of `<file>: field `take`: …`.
pub const COMMAND_LINE: &str = "<command line>";

/// One command-line argument of `nimlab solve` / `nimlab play`, declared by
/// its family: the parameter it sets and how its text becomes the value the
/// family's (spec) parser reads.
#[derive(Clone, Copy, Debug)]
pub struct CliArg {
    /// The parameter, as in a spec (`no_repeat`; given as `--no-repeat` or `--no_repeat`).
    pub name: &'static str,
    /// How the text is read.
    pub form: CliForm,
}

/// How the text of a command-line argument becomes a parameter value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CliForm {
    /// The spec's syntax, read as YAML: `17`, `misere`, `[[0, 0], [1, 0]]`, `{triangle: 5}`.
    Yaml,
    /// A list: `3,5,7` (each item as in YAML: a number, a range `2..4`), or a
    /// YAML list `[3, 5, 7]`; one item is a list of one.
    List,
    /// The text as given, for the family's parser to read (take rules such as
    /// `set:1,3,4` or `{1,3,4}`, which YAML would read as something else).
    Text,
    /// A switch: alone it means true, otherwise `true` or `false`.
    Switch,
}

/// The name of a family's catch-all argument: any `--name value` that is
/// not one of its other arguments (a parameter the family names itself,
/// such as a rule's `--k 3`), read in its form.
pub const ANY_ARG: &str = "*";

impl CliArg {
    /// An argument of the given form.
    pub const fn new(name: &'static str, form: CliForm) -> CliArg {
        CliArg { name, form }
    }
}

fn cli_err(key: &str, message: impl Into<String>) -> SpecError {
    SpecError {
        file: COMMAND_LINE.to_string(),
        field: key.to_string(),
        message: message.into(),
    }
}

/// The argument named `key`, else the catch-all ([`ANY_ARG`]) if declared
/// and `key` is a name (letters, digits and `_`).
fn find_arg<'a>(args: &'a [CliArg], key: &str) -> Option<&'a CliArg> {
    let name = key.starts_with(|c: char| c.is_ascii_alphabetic())
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    args.iter()
        .find(|x| x.name == key)
        .or_else(|| args.iter().find(|x| x.name == ANY_ARG && name))
}

/// Turns `--key value`, `--key=value` or `key=value` arguments into a
/// parameter map, each value read as its family declares (`args`); unknown,
/// repeated or empty arguments are errors naming the argument.
pub fn cli_to_map(given: &[String], args: &[CliArg]) -> Result<Value, SpecError> {
    let allowed = || {
        args.iter()
            .map(|a| match a.name {
                ANY_ARG => "--<parameter>".to_string(),
                n => format!("--{}", n.replace('_', "-")),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut map = serde_json::Map::new();
    let mut i = 0;
    while i < given.len() {
        let a = &given[i];
        let (key, inline) = match a.strip_prefix("--") {
            Some(k) => match k.split_once('=') {
                Some((k, v)) => (k, Some(v)),
                None => (k, None),
            },
            None => match a.split_once('=') {
                Some((k, v)) => (k, Some(v)),
                None => {
                    return Err(cli_err(
                        "",
                        format!(
                            "cannot read argument {a:?}: give parameters as --key value or key=value ({})",
                            allowed()
                        ),
                    ));
                }
            },
        };
        let key = key.replace('-', "_");
        let arg = find_arg(args, &key).ok_or_else(|| {
            cli_err(
                &key,
                format!("unknown argument; allowed here: {}", allowed()),
            )
        })?;
        let next = given.get(i + 1).filter(|v| !v.starts_with("--"));
        let text = match (inline, next) {
            (Some(v), _) => Some(v.to_string()),
            // A switch stands alone before `key=value`; otherwise the next word is its value.
            (None, Some(v)) if arg.form != CliForm::Switch || !v.contains('=') => {
                i += 1;
                Some(v.clone())
            }
            _ => None,
        };
        let value = cli_value(&key, arg.form, text.as_deref())?;
        if map.insert(key.clone(), value).is_some() {
            return Err(cli_err(&key, "given twice; give each argument once"));
        }
        i += 1;
    }
    Ok(Value::Object(map))
}

/// Splits a command line into the arguments `args` declares (each with its
/// value word, as [`cli_to_map`] reads them) and the others, in order: a
/// command whose own options stand among a family's parameters (`nimlab
/// board lines solve --triangle 8 --dir D`) gives the first part to the
/// family's parsers and the rest to its own.
pub fn split_cli(given: &[String], args: &[CliArg]) -> (Vec<String>, Vec<String>) {
    let (mut ours, mut rest) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < given.len() {
        let a = &given[i];
        let named = a.strip_prefix("--").map(|k| (k, true)).or_else(|| {
            a.split_once('=')
                .filter(|(k, _)| !k.starts_with('-'))
                .map(|(k, _)| (k, false))
        });
        let arg = named.and_then(|(k, dashes)| {
            let (key, inline) = match k.split_once('=') {
                Some((key, _)) => (key, true),
                None => (k, !dashes),
            };
            let key = key.replace('-', "_");
            find_arg(args, &key).map(|x| (x, inline))
        });
        let Some((arg, inline)) = arg else {
            rest.push(a.clone());
            i += 1;
            continue;
        };
        ours.push(a.clone());
        let next = given.get(i + 1).filter(|v| !v.starts_with("--"));
        if let (false, Some(v)) = (inline, next)
            && (arg.form != CliForm::Switch || !v.contains('='))
        {
            ours.push(v.clone());
            i += 1;
        }
        i += 1;
    }
    (ours, rest)
}

/// One argument's value from its text (None: the argument stood alone).
fn cli_value(key: &str, form: CliForm, text: Option<&str>) -> Result<Value, SpecError> {
    let Some(text) = text else {
        return match form {
            CliForm::Switch => Ok(Value::Bool(true)),
            _ => Err(cli_err(key, "needs a value")),
        };
    };
    if text.trim().is_empty() {
        return Err(cli_err(key, "needs a value; got an empty one"));
    }
    let yaml = |t: &str| {
        parse_yaml(t, COMMAND_LINE)
            .map_err(|e| cli_err(key, format!("cannot read {t:?}: {}", e.message)))
    };
    match form {
        CliForm::Text => Ok(Value::String(text.to_string())),
        CliForm::Yaml => yaml(text),
        CliForm::Switch => match text {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ => Err(cli_err(
                key,
                format!("expected true or false (or the switch alone), got {text:?}"),
            )),
        },
        CliForm::List => {
            let t = text.trim();
            if t.starts_with('[') {
                return yaml(t);
            }
            t.split(',')
                .map(|item| yaml(item.trim()))
                .collect::<Result<Vec<_>, _>>()
                .map(Value::Array)
        }
    }
}

/// `1,3,4` or `1, 3..5` as a list value (numbers as numbers, the rest as
/// strings, e.g. ranges for [`Node::ints`]); None for an empty item.
pub fn text_list(text: &str) -> Option<Value> {
    let items = text
        .split(',')
        .map(|p| {
            let p = p.trim();
            (!p.is_empty()).then(|| {
                p.parse::<i64>()
                    .map(Value::from)
                    .unwrap_or_else(|_| Value::String(p.to_string()))
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Value::Array(items))
}

/// Text forms of a rule that a family reads as a map: `set:1,3,4`,
/// `min:2,max:7`, `max:3` (keys, each followed by `:` and its values up to the
/// next key; one value stands alone, several make a list), or a YAML map
/// `{set: [1, 3, 4]}`. None when the text is neither (a word, a number, a set
/// `{1,3,4}`). Each value is read as in YAML: `max:2..5` is `{max: "2..5"}`.
pub fn rule_map(text: &str) -> Option<Result<Value, String>> {
    let t = text.trim();
    if t.starts_with('{') && t.contains(':') {
        // YAML (`{max: 3}`), or the short form in braces (`{min:2,max:7}`,
        // `{set:[1,3,4]}`), which YAML reads otherwise.
        let plain = |k: &String| k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if let Ok(v @ Value::Object(_)) = parse_yaml(t, COMMAND_LINE)
            && v.as_object().unwrap().keys().all(plain)
        {
            return Some(Ok(v));
        }
        let inner = t.trim_start_matches('{').trim_end_matches('}');
        return rule_map(&inner.replace(['[', ']'], ""));
    }
    if !t.contains(':') || t.starts_with(['[', '{', '"', '\'']) {
        return None;
    }
    let t = &t.replace(['[', ']'], "");
    let mut map = serde_json::Map::new();
    let mut current: Option<(String, Vec<Value>)> = None;
    let scalar = |v: &str| -> Value {
        let v = v.trim();
        v.parse::<i64>()
            .map(Value::from)
            .unwrap_or_else(|_| Value::String(v.to_string()))
    };
    let mut finish = |entry: Option<(String, Vec<Value>)>| -> Result<(), String> {
        if let Some((k, mut vs)) = entry {
            let v = match vs.len() {
                0 => return Err(format!("`{k}:` has no value")),
                1 => vs.pop().unwrap(),
                _ => Value::Array(vs),
            };
            if map.insert(k.clone(), v).is_some() {
                return Err(format!("`{k}:` is given twice"));
            }
        }
        Ok(())
    };
    for part in t.split(',') {
        match part.split_once(':') {
            Some((k, v)) => {
                if let Err(e) = finish(current.take()) {
                    return Some(Err(e));
                }
                let k = k.trim();
                if k.is_empty() || !k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    return Some(Err(format!("cannot read {t:?}: {k:?} is not a name")));
                }
                let vs = if v.trim().is_empty() {
                    vec![]
                } else {
                    vec![scalar(v)]
                };
                current = Some((k.to_string(), vs));
            }
            None => match current.as_mut() {
                Some((_, vs)) if !part.trim().is_empty() => vs.push(scalar(part)),
                _ => return Some(Err(format!("cannot read {t:?}: an empty value"))),
            },
        }
    }
    if let Err(e) = finish(current.take()) {
        return Some(Err(e));
    }
    Some(Ok(Value::Object(map)))
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

    /// A game's option takes one value; a range is refused saying how many
    /// it holds and which option picks one.
    #[test]
    fn a_game_needs_one_value() {
        let one = |yaml: &str| {
            let v = parse_yaml(yaml, "t.yaml").unwrap();
            Node::root(&v, "t.yaml").req("k", "")?.one_int(0, 100)
        };
        assert_eq!(one("k: 7").unwrap(), 7);
        let e = one("k: 2..15").unwrap_err();
        assert!(
            e.message
                .contains("14 values (2..15); a game needs one: give --k <value>"),
            "{e}"
        );
        assert!(one("k: 200").is_err());
        // A sweep's heaps: N for each, or N1, N2 each.
        let sizes = |yaml: &str| {
            let v = parse_yaml(yaml, "t.yaml").unwrap();
            Node::root(&v, "t.yaml").sweep_heap_sizes(3, 100)
        };
        assert_eq!(sizes("heaps: 2\nN: 7").unwrap(), [7, 7]);
        assert_eq!(sizes("heaps: 2\nN1: 3\nN2: 5").unwrap(), [3, 5]);
        assert_eq!(sizes("N: 4").unwrap(), [4]);
        let e = sizes("heaps: 2\nN1: 3").unwrap_err();
        assert!(e.message.contains("missing N2 (or N)"), "{e}");
        assert!(sizes("heaps: 4\nN: 1").is_err());
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

    const ARGS: &[CliArg] = &[
        CliArg::new("take", CliForm::Text),
        CliArg::new("heaps", CliForm::List),
        CliArg::new("play", CliForm::Yaml),
        CliArg::new("no_repeat", CliForm::Switch),
        CliArg::new("remove", CliForm::Yaml),
    ];

    fn cli(args: &[&str]) -> Result<Value, SpecError> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        cli_to_map(&args, ARGS)
    }

    #[test]
    fn each_argument_reads_as_declared() {
        assert_eq!(
            cli(&[
                "--take",
                "set:1,3,4",
                "--heaps",
                "3,5,7",
                "--play=misere",
                "--no-repeat"
            ])
            .unwrap(),
            serde_json::json!({"take": "set:1,3,4", "heaps": [3, 5, 7], "play": "misere", "no_repeat": true})
        );
        // A switch takes true/false; a list of one is a list; YAML where declared.
        assert_eq!(
            cli(&[
                "--no-repeat",
                "false",
                "heaps=7",
                "--remove",
                "[[0, 0], [1, 0]]"
            ])
            .unwrap(),
            serde_json::json!({"no_repeat": false, "heaps": [7], "remove": [[0, 0], [1, 0]]})
        );
        assert_eq!(
            cli(&["--heaps", "[3, 5]"]).unwrap(),
            serde_json::json!({"heaps": [3, 5]})
        );
    }

    #[test]
    fn command_line_errors_name_the_argument() {
        let e = cli(&["--takes", "any"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--takes: unknown argument; allowed here: --take, --heaps, --play, --no-repeat, --remove"
        );
        let e = cli(&["--take", "any", "--take", "max:3"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--take: given twice; give each argument once"
        );
        let e = cli(&["--take", "--heaps", "3"]).unwrap_err();
        assert_eq!(e.to_string(), "--take: needs a value");
        let e = cli(&["--no-repeat", "maybe"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--no-repeat: expected true or false (or the switch alone), got \"maybe\""
        );
        assert_eq!(
            cli(&["--no-repeat", "heaps=3"]).unwrap(),
            serde_json::json!({"no_repeat": true, "heaps": [3]})
        );
        let e = cli(&["take"]).unwrap_err();
        assert!(e.to_string().contains("--key value"), "{e}");
        // A nested field is shown after the argument.
        let e = SpecError {
            file: COMMAND_LINE.into(),
            field: "take.set[1]".into(),
            message: "m".into(),
        };
        assert_eq!(e.to_string(), "--take (`set[1]`): m");
    }

    #[test]
    fn rule_texts_read_as_maps() {
        let m = |t: &str| rule_map(t).unwrap().unwrap();
        assert_eq!(m("set:1,3,4"), serde_json::json!({"set": [1, 3, 4]}));
        assert_eq!(m("min:2,max:7"), serde_json::json!({"min": 2, "max": 7}));
        assert_eq!(m("max:2..5"), serde_json::json!({"max": "2..5"}));
        assert_eq!(m("{set: [1, 3]}"), serde_json::json!({"set": [1, 3]}));
        assert_eq!(m("{min:2,max:7}"), serde_json::json!({"min": 2, "max": 7}));
        assert_eq!(m("{set:[1,3,4]}"), serde_json::json!({"set": [1, 3, 4]}));
        assert_eq!(m("set:[1, 3]"), serde_json::json!({"set": [1, 3]}));
        assert!(rule_map("any").is_none());
        assert!(rule_map("{1,3,4}").is_none());
        assert!(rule_map("1,3,4").is_none());
        assert!(rule_map("max:").unwrap().is_err());
        assert!(rule_map("max:3,max:4").unwrap().is_err());
        assert!(rule_map(",max:3").unwrap().is_err());
    }
}
