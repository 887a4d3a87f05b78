//! The conjecture checker: claims about a sweep's stored results, judged row
//! by row.
//!
//! A conjecture (see [`crate::spec::Conjecture`]) names a sweep's dataset, an
//! optional `where:` filter and a `claim:`, both expressions over the
//! dataset's columns (the language is [`crate::expr`]). [`check_table`] evaluates the filter and then the claim
//! on every row, in the rows' natural (sweep) order, and returns a
//! [`CheckResult`]: the claim **holds** on all N rows that passed the filter,
//! **fails** on K of N (with the first counterexamples), is **vacuous** (no row
//! passed the filter; never reported as holding) or **undetermined** (the
//! claim was null on every matching row). [`check_conjectures`] does this
//! for a spec's conjectures against an experiment's output directory and
//! [`render_markdown`] renders the verdicts as a table.
//!
//! The key columns of a counterexample come from the dataset's declared
//! roles ([`crate::data::Role`]): the checker names no family's columns.

mod claims_doc;
mod evidence;
mod markdown;
mod mutate;
mod other;
mod parts;
mod plan;
mod strategy;
mod table;
#[cfg(test)]
mod tests;

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;

use crate::family::Family;

pub use crate::expr::ExprError;
pub use claims_doc::claims_doc;
pub use markdown::render_markdown;
pub use mutate::{Mutation, find_failing_mutation};
pub use plan::check_plan;
#[cfg(test)]
pub use plan::plan_errors;
pub use table::check_scoped;
#[cfg(test)]
pub use table::check_table;

/// Rows per parallel chunk.
pub(crate) const CHUNK: usize = 1 << 16;

/// Explains why a row is what it is (e.g. a position's options and their
/// values): given by the family of the dataset, see
/// [`crate::family::Family::explain`].
pub type Explain<'a> = dyn Fn(&Table, usize) -> Option<String> + Sync + 'a;

use crate::data::{Dataset, Table};
#[cfg(test)]
use crate::spec::names_in;
use crate::spec::{Conjecture, Experiment};

/// Options of a check.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// How many counterexamples to keep (the first ones in row order).
    pub max_counterexamples: usize,
    /// The key columns shown for a counterexample; `None`: the dataset's
    /// declared labels and positions (its parameters when it has no label).
    pub key_columns: Option<Vec<String>>,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            max_counterexamples: 5,
            key_columns: None,
        }
    }
}

/// The verdict on a conjecture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// True on every row that passed the filter (at least one; some rows may
    /// be undetermined, see [`CheckResult::undetermined`]).
    Holds,
    /// Holds, but the only one-cell changes of a result that would make it
    /// fail contradict the family's own definitions (a column against the
    /// columns it is computed from): the data could not have refuted it.
    ByConstruction,
    /// False on at least one row, and no part where it holds.
    Fails,
    /// Holds on some of the claim's parts and fails on others.
    Partly,
    /// No row passed the filter.
    Vacuous,
    /// Rows passed the filter but the claim was null on all of them.
    Undetermined,
    /// The conjecture could not be checked (missing data, bad expression).
    Error,
}

impl Verdict {
    /// `holds`, `true by construction`, `fails`, `partly`, `vacuous`,
    /// `undetermined`, `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::ByConstruction => "true by construction",
            Verdict::Fails => "fails",
            Verdict::Partly => "partly",
            Verdict::Vacuous => "vacuous",
            Verdict::Undetermined => "undetermined",
            Verdict::Error => "error",
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A row's key columns and their values, as shown.
pub type RowKey = Vec<(String, String)>;

/// One row where the claim is false (or null, for an undetermined example).
#[derive(Clone, Debug, PartialEq)]
pub struct Counterexample {
    /// Row index in the dataset (natural order).
    pub row: usize,
    /// The row's key columns and values.
    pub key: Vec<(String, String)>,
    /// The columns the filter and claim mention that are not in `key`, and
    /// their values (strings quoted).
    pub values: Vec<(String, String)>,
    /// For a claim of the form `l OP r` (`<=>`, `==>`, `and`, `or`, a
    /// comparison): the text and value of `l` and of `r`.
    pub sides: Vec<(String, String)>,
    /// Why the row's computed value is what it is, where the family can say
    /// (e.g. the options of a position and their Grundy values).
    pub reason: Option<String>,
    /// A text picture of the row's position, where the family can draw one
    /// (see [`crate::family::Family::draw`]).
    pub drawing: Option<String>,
    /// The operator between the two `sides` (`==`, `<=>`; empty without).
    pub relation: &'static str,
    /// For a strategy played out (`strategy:`): the line of play that
    /// beats it from this position.
    pub line: Option<String>,
}

impl Counterexample {
    /// `rule=max:3, N=4: [outcome == "P"] = true, [N % 4 == 0] = false;
    /// because ...; outcome="P"`: the keys, the claim's two sides (computed
    /// against claimed), the reason, then the other columns mentioned.
    pub fn describe(&self) -> String {
        let kv = |v: &[(String, String)]| {
            v.iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut s = if self.key.is_empty() {
            format!("row {}", self.row)
        } else {
            kv(&self.key)
        };
        if !self.sides.is_empty() {
            let sides = self
                .sides
                .iter()
                .map(|(e, v)| format!("[{e}] = {v}"))
                .collect::<Vec<_>>()
                .join(" vs ");
            let _ = write!(s, ": {sides}");
        }
        if let Some(l) = &self.line {
            let _ = write!(s, "; {l}");
        } else if let Some(r) = &self.reason {
            let _ = write!(s, "; why: {r}");
        }
        if !self.values.is_empty() {
            let _ = write!(s, "; with {}", kv(&self.values));
        }
        s
    }
}

/// The result of one part of a claim.
#[derive(Clone, Debug, PartialEq)]
pub struct PartResult {
    /// The part's name (`k % 2 = 1` for `by: k % 2`).
    pub name: String,
    /// Its verdict (never partly).
    pub verdict: Verdict,
    /// Rows in the part.
    pub matched: usize,
    /// Rows where the claim is false.
    pub failed: usize,
    /// Rows where the claim is null.
    pub undetermined: usize,
    /// The first failing row of the part.
    pub first_counterexample: Option<Counterexample>,
}

impl PartResult {
    /// `k % 2 = 1: holds on 120 rows` or `k % 2 = 0: fails on 3 of 100 rows, first: ...`.
    pub fn summary(&self) -> String {
        let decided = self.matched - self.undetermined;
        match self.verdict {
            Verdict::Holds => format!("{}: holds on {decided} rows", self.name),
            Verdict::Fails => format!(
                "{}: fails on {} of {decided} rows, first: {}",
                self.name,
                self.failed,
                self.first_counterexample
                    .as_ref()
                    .map(Counterexample::describe)
                    .unwrap_or_default()
            ),
            v => format!("{}: {v}", self.name),
        }
    }
}

/// The result of checking a claim on a table.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckResult {
    /// The verdict.
    pub verdict: Verdict,
    /// Rows in the dataset.
    pub rows: usize,
    /// Rows that passed the filter (all rows without one).
    pub matched: usize,
    /// Matching rows where the claim is false.
    pub failed: usize,
    /// Matching rows where the claim is null.
    pub undetermined: usize,
    /// Rows left out because the filter was null on them.
    pub filter_null: usize,
    /// Over the matching rows: each integer key column's smallest and
    /// largest value (the range checked).
    pub ranges: Vec<(String, i64, i64)>,
    /// The first failing rows, in row order.
    pub counterexamples: Vec<Counterexample>,
    /// The first undetermined row, if any.
    pub first_undetermined: Option<Counterexample>,
    /// The claim's parts, each judged (empty without `by:`/`parts:`).
    pub parts: Vec<PartResult>,
    /// For a claim true by construction: the definitions every refuting
    /// change would contradict.
    pub by_construction: Option<String>,
    /// The keys of the first and of the last decided row in scope.
    pub span: Option<(RowKey, RowKey)>,
    /// The dataset's label column (a board's name), if it has one.
    pub label: Option<String>,
    /// The dataset's position columns (a heap size within a rule).
    pub positions: Vec<String>,
    /// What a row is, singular and plural (`board`, `boards`).
    pub unit: (String, String),
    /// The label alone names a row (a board's name), so a range of rows
    /// can be named by its first and last labels.
    pub label_names_row: bool,
    /// The family's names of the positions of the rows the evidence names
    /// (`(1,4,5)`), by their keys.
    pub names: Vec<(RowKey, String)>,
}

impl CheckResult {
    /// Rows where the claim was decided (true or false).
    pub fn decided(&self) -> usize {
        self.matched - self.undetermined
    }

    /// One line: `holds on all 46 rows (take_max 2..12, N 0..45)` or
    /// `fails on 3 of 46 rows; first counterexample: ...`.
    pub fn summary(&self) -> String {
        let ranges = if self.ranges.is_empty() {
            String::new()
        } else {
            format!(
                " ({})",
                self.ranges
                    .iter()
                    .map(|(c, lo, hi)| if lo == hi {
                        format!("{c} = {lo}")
                    } else {
                        format!("{c} {lo}..{hi}")
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        let mut s = match self.verdict {
            Verdict::Holds => format!("holds on all {} rows{ranges}", self.decided()),
            Verdict::ByConstruction => format!(
                "true by construction on all {} rows{ranges}; only a change that contradicts the family's definitions would make it fail: {}",
                self.decided(),
                self.by_construction.as_deref().unwrap_or_default()
            ),
            Verdict::Fails => format!(
                "fails on {} of {} rows{ranges}; first counterexample: {}",
                self.failed,
                self.decided(),
                self.counterexamples
                    .first()
                    .map(Counterexample::describe)
                    .unwrap_or_default()
            ),
            Verdict::Partly => {
                let holds = self.parts.iter().filter(|p| p.verdict == Verdict::Holds);
                format!(
                    "partly: holds on {} of {} parts, fails on {} of {} rows{ranges}",
                    holds.count(),
                    self.parts.len(),
                    self.failed,
                    self.decided()
                )
            }
            Verdict::Vacuous => format!(
                "vacuous: no row of {} matched the filter{}",
                self.rows,
                if self.filter_null > 0 {
                    format!(" ({} rows where the filter is null)", self.filter_null)
                } else {
                    String::new()
                }
            ),
            Verdict::Undetermined => {
                format!("undetermined on all {} matching rows{ranges}", self.matched)
            }
            Verdict::Error => "error".to_string(),
        };
        if self.undetermined > 0 && self.verdict != Verdict::Undetermined {
            let _ = write!(
                s,
                "; {} rows undetermined (claim is null)",
                self.undetermined
            );
            if let Some(u) = &self.first_undetermined {
                let _ = write!(s, ", first: {}", u.describe());
            }
        }
        if self.filter_null > 0 && self.verdict != Verdict::Vacuous {
            let _ = write!(s, "; {} rows left out (filter is null)", self.filter_null);
        }
        if !self.parts.is_empty() {
            let parts: Vec<String> = self.parts.iter().map(PartResult::summary).collect();
            let _ = write!(s, ". By part: {}", parts.join("; "));
        }
        s
    }
}

/// Which part of a conjecture an expression error is in.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckError {
    /// `where` or `claim`.
    pub part: &'static str,
    /// The error.
    pub error: ExprError,
}

impl std::fmt::Display for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.part, self.error)
    }
}

impl std::error::Error for CheckError {}

/// A conjecture and what became of it.
#[derive(Clone, Debug)]
pub struct ConjectureResult {
    /// The conjecture as written in the spec.
    pub conjecture: Conjecture,
    /// The check's result, or why it could not be checked (a message naming
    /// the conjecture's field, e.g. `conjectures[2].claim: unknown column ...`).
    pub result: Result<CheckResult, String>,
}

impl ConjectureResult {
    /// The verdict ([`Verdict::Error`] when it could not be checked).
    pub fn verdict(&self) -> Verdict {
        match &self.result {
            Ok(r) => r.verdict,
            Err(_) => Verdict::Error,
        }
    }
    /// The verdict as a reader sees it: `holds, assuming the board is …`
    /// for a claim with `assumes:`.
    pub fn verdict_text(&self) -> String {
        let v = self.verdict();
        if self.conjecture.assumes.is_empty() || matches!(v, Verdict::Error) {
            v.to_string()
        } else {
            format!("{v}, assuming {}", self.conjecture.assumes)
        }
    }
    /// The label beside the verdict, `marked (cannot fail)`, for a
    /// claim with `marked:` (None: not marked).
    pub fn mark_label(&self) -> Option<String> {
        self.conjecture.marked.as_ref().map(|m| m.label())
    }
    /// The readings of the experiment's terms this claim uses instead of
    /// the declared ones: `可控 read as: …`, joined by `; ` (empty: none).
    pub fn other_readings(&self) -> String {
        self.conjecture
            .terms
            .iter()
            .map(|(t, r)| format!("{t} read as: {r}"))
            .collect::<Vec<_>>()
            .join("; ")
    }
    /// One line for the terminal: `name: holds on all 46 rows (...)`.
    pub fn summary(&self) -> String {
        match &self.result {
            Ok(r) if !self.conjecture.assumes.is_empty() => format!(
                "{}: {} (assuming {})",
                self.conjecture.name,
                r.summary(),
                self.conjecture.assumes
            ),
            Ok(r) => format!("{}: {}", self.conjecture.name, r.summary()),
            Err(e) => format!("{}: error: {e}", self.conjecture.name),
        }
    }
}

/// Checks an experiment's conjectures against its stored results under
/// `out`, reading each sweep's dataset once. A conjecture that cannot be
/// checked gets an `Err` with the reason; the others are still checked.
pub fn check_conjectures(
    exp: &Experiment,
    out: &Path,
    opts: &CheckOptions,
) -> Vec<ConjectureResult> {
    let mut tables = Tables::new(exp, out);
    exp.conjectures
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let sweep = exp.sweeps.iter().find(|s| s.name == c.sweep);
            let ds = sweep.and_then(|s| s.dir(out, &exp.name).dataset(&c.dataset));
            let table = tables.get(i);
            let table = &*with_other(table, ds, c);
            let family = sweep.map(|s| s.family);
            let table = &*with_strategy(table, ds, family, c);
            let explain = |t: &Table, row: usize| explain_row(family?, &c.dataset, t, row);
            let draw = |t: &Table, r: CheckResult| match family {
                Some(f) => evidence::with_drawings(r, t, &c.dataset, f),
                None => r,
            };
            let result = match table {
                Ok(t) => check_scoped(
                    t,
                    ds,
                    c.filter.as_deref(),
                    &c.claim,
                    &c.parts,
                    Some(&explain),
                    opts,
                )
                .map(|r| draw(t, with_lines(by_construction(r, t, ds, c), t)))
                .map_err(|e| format!("field `{}.{}`: {}", c.field, e.part, e.error)),
                Err(e) => Err(format!("field `{}`: {e}", c.field)),
            };
            tables.done(i);
            ConjectureResult {
                conjecture: c.clone(),
                result: result.and_then(|r| marked_part_exists(c, r)),
            }
        })
        .collect()
}

/// A mark's `part:` names a part the check found (a part of `by:` is
/// named by a value, known only now).
fn marked_part_exists(c: &Conjecture, r: CheckResult) -> Result<CheckResult, String> {
    let Some(part) = c.marked.as_ref().and_then(|m| m.part.as_ref()) else {
        return Ok(r);
    };
    if r.parts.is_empty() || r.parts.iter().any(|p| p.name == *part) {
        return Ok(r);
    }
    let names: Vec<&str> = r.parts.iter().map(|p| p.name.as_str()).collect();
    Err(format!(
        "field `{}.marked.part`: no part named {part:?}; the claim's parts: {}",
        c.field,
        names.join(", ")
    ))
}

/// How many claims carry a mark (`marked:`).
pub fn marked_count(results: &[ConjectureResult]) -> usize {
    results
        .iter()
        .filter(|r| r.conjecture.marked.is_some())
        .count()
}

/// The stored tables an experiment's conjectures read: each dataset read
/// once, with only the columns its conjectures can read (see
/// [`columns_read`]), and dropped after its last conjecture.
struct Tables<'a> {
    exp: &'a Experiment,
    out: &'a Path,
    cache: HashMap<(String, String), Result<Table, String>>,
}

impl<'a> Tables<'a> {
    fn new(exp: &'a Experiment, out: &'a Path) -> Self {
        Tables {
            exp,
            out,
            cache: HashMap::new(),
        }
    }
    fn key(&self, i: usize) -> (String, String) {
        let c = &self.exp.conjectures[i];
        (c.sweep.clone(), c.dataset.clone())
    }
    /// The table of conjecture `i`.
    fn get(&mut self, i: usize) -> &Result<Table, String> {
        let key = self.key(i);
        let (exp, out) = (self.exp, self.out);
        self.cache.entry(key.clone()).or_insert_with(|| {
            let same: Vec<&Conjecture> = exp
                .conjectures
                .iter()
                .filter(|c| (&c.sweep, &c.dataset) == (&key.0, &key.1))
                .collect();
            load(exp, out, &exp.conjectures[i], &same)
        })
    }
    /// Conjecture `i` is judged: its table is dropped if no later one reads it.
    fn done(&mut self, i: usize) {
        let key = self.key(i);
        let later = self.exp.conjectures[i + 1..]
            .iter()
            .any(|c| (&c.sweep, &c.dataset) == (&key.0, &key.1));
        if !later {
            self.cache.remove(&key);
        }
    }
}

/// Whether a check of the conjectures `cs` (all on one dataset) reads
/// column `col`: every column but the results, closed forms and timings,
/// and of those the ones an expression names, the sources they are derived
/// from and those the family's explanations read. Every column when the
/// family does not say what its explanations read.
/// Also returns the names the expressions use (a column they do not name
/// may be held as nulls where it has no value).
fn columns_read(
    ds: &Dataset,
    cs: &[&Conjecture],
    family: &dyn crate::family::Family,
) -> Option<(HashSet<String>, HashSet<String>)> {
    use crate::data::Role;
    let explained = (family.capabilities().explained_columns?)(ds.name);
    let mut named = HashSet::new();
    for c in cs {
        named.extend(c.names_read()?);
    }
    let mut read = named.clone();
    read.extend(explained.iter().map(|s| s.to_string()));
    let mut keep: HashSet<String> = ds
        .stored_columns()
        .filter(|col| {
            !matches!(col.role, Role::Result | Role::ClosedForm | Role::Timing)
                || read.contains(col.name)
        })
        .map(|col| col.name.to_string())
        .collect();
    // The sources of a kept derived column, transitively.
    let mut todo: Vec<String> = keep.iter().cloned().collect();
    while let Some(n) = todo.pop() {
        let Some(d) = ds.column(&n).and_then(|col| col.derived) else {
            continue;
        };
        for s in d.sources {
            if keep.insert(s.to_string()) {
                todo.push(s.to_string());
            }
        }
    }
    Some((keep, named))
}

/// A claim that holds is true by construction when the only one-cell
/// changes that would make it fail contradict the family's definitions.
fn by_construction(
    mut r: CheckResult,
    t: &Table,
    ds: Option<&Dataset>,
    c: &Conjecture,
) -> CheckResult {
    if r.verdict != Verdict::Holds {
        return r;
    }
    if let Ok(Some(m)) = find_failing_mutation(t, ds, c.filter.as_deref(), &c.claim)
        && m.contradicts.is_some()
    {
        r.verdict = Verdict::ByConstruction;
        r.by_construction = m.contradicts;
    }
    r
}

/// The table a conjecture reads: the stored one, or with `other:` each row
/// beside its matched row.
fn with_other<'a>(
    table: &'a Result<Table, String>,
    ds: Option<&Dataset>,
    c: &Conjecture,
) -> std::borrow::Cow<'a, Result<Table, String>> {
    match table {
        Ok(t) if !c.other.is_empty() => {
            std::borrow::Cow::Owned(other::with_other_rows(t, ds, &c.other))
        }
        _ => std::borrow::Cow::Borrowed(table),
    }
}

/// The table a conjecture with `strategy:` reads: with the strategy played
/// out from every row (`strategy_wins`, `strategy_line`).
fn with_strategy<'a>(
    table: &'a Result<Table, String>,
    ds: Option<&Dataset>,
    family: Option<&dyn crate::family::Family>,
    c: &Conjecture,
) -> std::borrow::Cow<'a, Result<Table, String>> {
    match table {
        Ok(t) if !c.strategy.is_empty() => std::borrow::Cow::Owned(strategy::with_strategy(
            t,
            ds,
            family,
            &c.dataset,
            &c.strategy,
        )),
        _ => std::borrow::Cow::Borrowed(table),
    }
}

/// The counterexamples with the line of play that beats the strategy,
/// where the table has one (`strategy:`).
pub(super) fn with_lines(mut r: CheckResult, t: &Table) -> CheckResult {
    let line = |c: &mut Counterexample| {
        c.line = t.text(strategy::LINE, c.row).map(str::to_string);
    };
    r.counterexamples.iter_mut().for_each(line);
    r.parts
        .iter_mut()
        .filter_map(|p| p.first_counterexample.as_mut())
        .for_each(line);
    r
}

/// The stored dataset a conjecture is about (the columns the conjectures
/// `same`, all on that dataset, can read), or why there is none.
fn load(
    exp: &Experiment,
    out: &Path,
    c: &Conjecture,
    same: &[&Conjecture],
) -> Result<Table, String> {
    let Some(sweep) = exp.sweeps.iter().find(|s| s.name == c.sweep) else {
        return Err(format!("no sweep named `{}`", c.sweep));
    };
    let dir = sweep.dir(out, &exp.name);
    if dir.dataset(&c.dataset).is_none() {
        let names: Vec<&str> = dir.datasets.iter().map(|d| d.name).collect();
        return Err(format!(
            "family {} has no dataset `{}`; its datasets: {}",
            dir.family,
            c.dataset,
            names.join(", ")
        ));
    }
    let keep = dir
        .dataset(&c.dataset)
        .and_then(|ds| columns_read(ds, same, sweep.family));
    let read = match &keep {
        Some((k, named)) => {
            dir.read_columns(&c.dataset, &|n| k.contains(n), &|n| !named.contains(n))
        }
        None => dir.read(&c.dataset),
    };
    match read {
        Ok(Some(t)) => Ok(t),
        Ok(None) => Err(format!(
            "no stored results for sweep `{}`, dataset `{}` in {}; run `nimlab run` first",
            c.sweep,
            c.dataset,
            dir.dataset_dir(&c.dataset).display()
        )),
        Err(e) => Err(format!("{e:#}")),
    }
}

/// Verdict counts, in the order holds, true by construction, fails, partly,
/// vacuous, undetermined, error.
pub fn verdict_counts(results: &[ConjectureResult]) -> Vec<(Verdict, usize)> {
    [
        Verdict::Holds,
        Verdict::ByConstruction,
        Verdict::Fails,
        Verdict::Partly,
        Verdict::Vacuous,
        Verdict::Undetermined,
        Verdict::Error,
    ]
    .into_iter()
    .map(|v| (v, results.iter().filter(|r| r.verdict() == v).count()))
    .collect()
}

/// Checks an experiment's conjectures on its stored results and writes
/// `<out>/<experiment>/conjectures.md`.
pub fn write_conjectures(e: &Experiment, out: &Path) -> anyhow::Result<Vec<ConjectureResult>> {
    let results = check_conjectures(e, out, &CheckOptions::default());
    let md = format!(
        "# Conjectures — {}\n\n{}",
        e.title,
        render_markdown(&results)
    );
    crate::store::write_atomic(&out.join(&e.name).join("conjectures.md"), md.as_bytes())?;
    Ok(results)
}

/// For each conjecture that holds (or is vacuous or undetermined): a
/// one-cell change of a row in its scope that would make it fail, or `None`
/// when none of the changes tried does (the encoding may be unable to
/// fail). A conjecture that fails or holds partly is tried on the rows of
/// its scope where it holds (named `name (where it holds)`): a part that
/// holds but could not have failed is found there too.
pub fn mutations(
    e: &Experiment,
    out: &Path,
    results: &[ConjectureResult],
) -> Vec<(String, Result<Option<Mutation>, String>)> {
    let mut tables = Tables::new(e, out);
    results
        .iter()
        .enumerate()
        .flat_map(|(i, r)| {
            let c = &r.conjecture;
            let table = tables.get(i);
            let sweep = e.sweeps.iter().find(|s| s.name == c.sweep);
            let ds = sweep.and_then(|s| s.dir(out, &e.name).dataset(&c.dataset));
            let table = &*with_other(table, ds, c);
            if !c.strategy.is_empty() {
                // The strategy's moves, not a cell: another legal move.
                let family = sweep.map(|s| s.family);
                let m = match table {
                    Ok(t) => strategy::mutation(
                        t,
                        ds,
                        family,
                        &c.dataset,
                        &c.strategy,
                        c.filter.as_deref(),
                        &c.claim,
                    ),
                    Err(err) => Err(err.clone()),
                };
                return vec![(format!("{} (a strategy move)", c.name), m)];
            }
            if mutate::already_fails(r.verdict()) {
                return match table {
                    Ok(t) => where_it_holds_by_part(t, ds, c),
                    Err(err) => vec![(format!("{} (where it holds)", c.name), Err(err.clone()))],
                };
            }
            let m = match table {
                Ok(t) => find_failing_mutation(t, ds, c.filter.as_deref(), &c.claim)
                    .map_err(|err| format!("{err}")),
                Err(err) => Err(err.clone()),
            };
            vec![(c.name.clone(), m)]
        })
        .collect()
}

/// A failing or partly claim tried where it holds: as a whole, and part by
/// part for a claim with parts (each part that holds on some row), so that
/// a part that could not have failed is named.
fn where_it_holds_by_part(
    t: &Table,
    ds: Option<&Dataset>,
    c: &Conjecture,
) -> Vec<(String, Result<Option<Mutation>, String>)> {
    let filter = c.filter.as_deref();
    let mut out = vec![(
        format!("{} (where it holds)", c.name),
        mutate::where_it_holds(t, ds, filter, &c.claim),
    )];
    let parts = match parts::part_rows(t, &c.parts, filter) {
        Ok(p) => p,
        Err(e) => {
            out.push((format!("{} (its parts)", c.name), Err(e)));
            return out;
        }
    };
    for (name, rows) in parts {
        let part = t.take_rows(&rows);
        // A part that fails everywhere has nothing to try.
        let m = match mutate::where_it_holds(&part, ds, filter, &c.claim) {
            Err(e) if e.starts_with("it holds on no row") => continue,
            m => m.map(|m| {
                m.map(|m| Mutation {
                    row: rows[m.row],
                    ..m
                })
            }),
        };
        out.push((format!("{} [part {name}] (where it holds)", c.name), m));
    }
    out
}

/// Why a row has its value: its first moves and where they lead where the
/// family explains moves, else the family's one-line reason.
fn explain_row(f: &dyn Family, dataset: &str, t: &Table, row: usize) -> Option<String> {
    f.capabilities()
        .explains_moves
        .and_then(|first_moves| first_moves(dataset, t, row))
        .map(|a| a.text())
        .or_else(|| f.explain(dataset, t, row))
}
