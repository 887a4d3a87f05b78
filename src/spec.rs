//! Experiment specs: YAML files under `experiments/`.
//!
//! Loading is layered (as ripgrep's low/high args): the YAML text is parsed by
//! `serde-saphyr` into a plain value tree, which is then validated field by
//! field through [`Node`], a cursor that knows its file and its path inside the
//! file (`sweeps[2].take.min`), so every error names the file, the field and
//! what is allowed. Families read their own parameters through the same cursor.
//!
//! ```yaml
//! experiment: report-004          # optional: defaults to the file name
//! title: Report 004 ...
//! sweeps:
//!   - name: cond1-one-heap        # a dataset directory under output/<experiment>/
//!     family: takeaway            # see `nimlab families`
//!     take: {max: 2..12}          # family parameters: scalars, lists, ranges a..b
//!     N: 0..45
//!     outputs: [winning_table]    # optional: which views to render
//! ```

use std::fmt;
use std::path::{Path, PathBuf};

use std::rc::Rc;

use serde_json::Value;

use crate::family::{self, Family};

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
    fn expect_map(&self) -> Result<&'a serde_json::Map<String, Value>, SpecError> {
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

/// One sweep of an experiment, validated: the family that runs it and its raw
/// parameters (the family validates those when planning).
#[derive(Clone)]
pub struct Sweep {
    /// Dataset directory name, unique within the experiment.
    pub name: String,
    /// Human title for figures and reports.
    pub title: String,
    /// The family.
    pub family: &'static dyn Family,
    /// The sweep's map (family parameters plus the generic keys).
    pub params: Value,
    /// Index in the spec's `sweeps` list (for error paths).
    pub index: usize,
    /// Views to render (empty: the family's defaults).
    pub outputs: Vec<String>,
    /// Datasets to store (None: all). For huge sweeps: e.g. `[periods, loss_sets]`
    /// without the one-row-per-position `positions`.
    pub datasets: Option<Vec<String>>,
}

/// A named claim to check against a sweep's results (see [`crate::check`]).
#[derive(Clone, Debug)]
pub struct Conjecture {
    /// Short name.
    pub name: String,
    /// The sweep and dataset whose rows it speaks about.
    pub sweep: String,
    /// Dataset inside the sweep (default `positions`).
    pub dataset: String,
    /// Optional filter: which rows the claim is about.
    pub filter: Option<String>,
    /// The predicate.
    pub claim: String,
    /// Where it comes from (report and section), free text.
    pub source: String,
    /// The claim in words.
    pub says: String,
    /// Field path, for error messages.
    pub field: String,
}

/// A validated experiment spec.
#[derive(Clone)]
pub struct Experiment {
    /// The file it came from.
    pub file: PathBuf,
    /// Output directory name.
    pub name: String,
    /// Title.
    pub title: String,
    /// Free text shown in the report.
    pub description: String,
    /// The sweeps.
    pub sweeps: Vec<Sweep>,
    /// Conjectures to check.
    pub conjectures: Vec<Conjecture>,
    /// The spec text, verbatim (for the provenance manifest).
    pub text: String,
}

/// Keys every sweep understands; the rest belong to the family.
pub const SWEEP_KEYS: &[&str] = &[
    "name",
    "family",
    "title",
    "outputs",
    "description",
    "datasets",
];

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

/// Loads and validates one spec file.
pub fn load(path: &Path) -> Result<Experiment, SpecError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| SpecError {
        file: file.clone(),
        field: String::new(),
        message: format!("cannot read the file: {e}"),
    })?;
    from_text(&text, path)
}

/// Validates spec text (the path names it in errors and gives the default name).
pub fn from_text(text: &str, path: &Path) -> Result<Experiment, SpecError> {
    let file = path.display().to_string();
    let value = parse_yaml(text, &file)?;
    let root = Node::root(&value, &file);
    if !value.is_object() {
        return Err(root.err(format!(
            "a spec is a map with `sweeps:` (and optionally `experiment:`, `title:`, `description:`, `conjectures:`), got {}",
            describe(&value)
        )));
    }
    root.expect_keys(&[
        "experiment",
        "title",
        "description",
        "sweeps",
        "conjectures",
    ])?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let name = match root.get("experiment") {
        Some(n) => n.str()?.to_string(),
        None => stem,
    };
    check_name(&root, &name, "experiment")?;
    let title = root
        .get("title")
        .map(|n| n.str())
        .transpose()?
        .unwrap_or(&name)
        .to_string();
    let description = root
        .get("description")
        .map(|n| n.str())
        .transpose()?
        .unwrap_or("")
        .to_string();
    let sweeps_node = root.req(
        "sweeps",
        "a list of sweeps, each with `name:` and `family:`",
    )?;
    if !sweeps_node.value().is_array() || sweeps_node.items().is_empty() {
        return Err(sweeps_node.err("expected a non-empty list of sweeps"));
    }
    let mut sweeps: Vec<Sweep> = Vec::new();
    for (index, s) in sweeps_node.items().into_iter().enumerate() {
        s.expect_map()?;
        let fam_node = s.req("family", "the game family")?;
        let fam_name = fam_node.str()?;
        let family = family::by_name(fam_name).ok_or_else(|| {
            fam_node.err(format!(
                "unknown family {fam_name:?}; known families: {}",
                family::FAMILIES
                    .iter()
                    .map(|f| f.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
        let sname = s.req(
            "name",
            "a short name (letters, digits, - and _), used as a directory",
        )?;
        let sweep_name = sname.str()?.to_string();
        check_name(&sname, &sweep_name, "name")?;
        if sweeps.iter().any(|o| o.name == sweep_name) {
            return Err(sname.err(format!("duplicate sweep name {sweep_name:?}")));
        }
        let title = s
            .get("title")
            .map(|n| n.str())
            .transpose()?
            .unwrap_or(&sweep_name)
            .to_string();
        let outputs = match s.get("outputs") {
            Some(o) => {
                let views = family.view_names();
                o.words(&views)?.into_iter().map(str::to_string).collect()
            }
            None => vec![],
        };
        // Validate the family parameters now, so a bad spec fails before anything runs.
        let plan = family.plan(&s)?;
        if let Some(o) = s.get("outputs") {
            for (item, want) in o.items().iter().zip(&outputs) {
                if !plan.views.iter().any(|v| &v.name == want) {
                    let offered: Vec<&str> = plan.views.iter().map(|v| v.name.as_str()).collect();
                    return Err(item.err(format!(
                        "view {want:?} does not apply to this sweep; views offered here: {}",
                        offered.join(", ")
                    )));
                }
            }
        }
        let datasets = match s.get("datasets") {
            Some(d) => {
                let items = d.items();
                if items.is_empty() {
                    return Err(d.err("give at least one dataset name, e.g. [periods, loss_sets]"));
                }
                let mut v = Vec::new();
                for it in items {
                    let name = it.str()?;
                    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                        || name.is_empty()
                    {
                        return Err(it.err(format!("{name:?} is not a dataset name")));
                    }
                    v.push(name.to_string());
                }
                Some(v)
            }
            None => None,
        };
        sweeps.push(Sweep {
            name: sweep_name,
            title,
            family,
            params: s.value().clone(),
            index,
            outputs,
            datasets,
        });
    }
    let mut conjectures = Vec::new();
    if let Some(cs) = root.get("conjectures") {
        for c in cs.items() {
            c.expect_keys(&[
                "name", "sweep", "dataset", "where", "claim", "source", "says",
            ])?;
            let name = c.req("name", "a short name")?.str()?.to_string();
            let sweep_node = c.req("sweep", "the sweep whose results the claim is about")?;
            let sweep = sweep_node.str()?.to_string();
            if !sweeps.iter().any(|s| s.name == sweep) {
                return Err(sweep_node.err(format!(
                    "no sweep named {sweep:?} in this spec; sweeps: {}",
                    sweeps
                        .iter()
                        .map(|s| s.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
            let dataset = c
                .get("dataset")
                .map(|n| n.str())
                .transpose()?
                .unwrap_or("positions")
                .to_string();
            let filter = c
                .get("where")
                .map(|n| n.str())
                .transpose()?
                .map(str::to_string);
            let claim_node = c.req("claim", "a predicate over the dataset's columns")?;
            let claim = claim_node.str()?.to_string();
            crate::check::syntax_check(&claim).map_err(|e| claim_node.err(format!("{e}")))?;
            if let Some(w) = c.get("where") {
                crate::check::syntax_check(w.str()?).map_err(|e| w.err(format!("{e}")))?;
            }
            let source = c
                .get("source")
                .map(|n| n.str())
                .transpose()?
                .unwrap_or("")
                .to_string();
            let says = c
                .get("says")
                .map(|n| n.str())
                .transpose()?
                .unwrap_or("")
                .to_string();
            conjectures.push(Conjecture {
                name,
                sweep,
                dataset,
                filter,
                claim,
                source,
                says,
                field: c.path().to_string(),
            });
        }
    }
    Ok(Experiment {
        file: path.to_path_buf(),
        name,
        title,
        description,
        sweeps,
        conjectures,
        text: text.to_string(),
    })
}

fn check_name(node: &Node<'_>, name: &str, what: &str) -> Result<(), SpecError> {
    let ok = !name.is_empty()
        && name.len() <= 100
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
        && !name.starts_with('.');
    if ok {
        Ok(())
    } else {
        Err(node.err(format!(
            "{what} {name:?} is not allowed: use 1 to 100 letters, digits, '-', '_' or '.', not starting with '.'"
        )))
    }
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
}

#[cfg(test)]
mod fuzz {
    use proptest::prelude::*;
    use std::path::Path;

    const VALID: &str = "experiment: t\nsweeps:\n  - name: a\n    family: takeaway\n    take: [{max: 2..3}, {min: 2, max: 5}, {set: [1, 3, 4]}, any]\n    play: [normal, misere]\n    no_repeat: [false, true]\n    heaps: 2\n    N: 0..9\n    outputs: [loss_scatter]\n";

    /// Large numbers would only make the test slow (real sweeps may be big), so
    /// inputs whose numbers have more than four digits are skipped.
    fn small_numbers(s: &str) -> bool {
        let mut run = 0;
        for c in s.chars() {
            run = if c.is_ascii_digit() { run + 1 } else { 0 };
            if run > 4 {
                return false;
            }
        }
        true
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

        /// Arbitrary YAML-ish text never panics the loader.
        #[test]
        fn random_text_never_panics(s in "[-a-z0-9_:{}\\[\\], .\n\"'#|>&*!%@`]{0,200}") {
            if small_numbers(&s) {
                let _ = super::from_text(&s, Path::new("fuzz.yaml"));
            }
        }

        /// Mutations of a valid spec (deleted, inserted and replaced characters)
        /// give a spec or an error, never a panic.
        #[test]
        fn mutated_specs_never_panic(edits in proptest::collection::vec((0usize..400, 0u8..3, "[-a-z0-9_:{}\\[\\], .\n]"), 1..6)) {
            let mut s: Vec<char> = VALID.chars().collect();
            for (pos, kind, ch) in edits {
                let p = pos % (s.len() + 1);
                let c = ch.chars().next().unwrap();
                match kind {
                    0 if p < s.len() => { s.remove(p); }
                    1 => s.insert(p, c),
                    _ if p < s.len() => s[p] = c,
                    _ => {}
                }
            }
            let s: String = s.into_iter().collect();
            if small_numbers(&s) {
                let _ = super::from_text(&s, Path::new("fuzz.yaml"));
            }
        }
    }
}
