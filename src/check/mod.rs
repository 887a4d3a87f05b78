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
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use rayon::prelude::*;

pub use crate::expr::{Ast, BinOp, Bound, Expr, ExprError, Span, Ty, syntax_check};

use crate::spec::Conjecture;
use crate::store::SweepDir;
use crate::table::{Cell, Table, Values};

/// Columns that hold results, never part of a row's key. Columns a claim
/// mentions are shown anyway.
pub const RESULT_COLUMNS: &[&str] = &[
    "outcome",
    "grundy",
    "winning_moves",
    "computed_to",
    "period",
    "preperiod",
    "periodic_from",
    "status",
    "evidence",
    "period_values",
    "loss_residues",
    "closed_form",
    "count",
    "loss_set",
    "seconds",
    "winner",
    "leads_to",
    "values",
    "exceptions",
    "picture",
    "states",
    "matches_article",
    "claimed_M",
    "M",
];

/// Takeaway rule columns that the `rule` label already states (take set,
/// `no_repeat`, `misere`): left out of the key when `rule` is present.
pub const RULE_DETAIL_COLUMNS: &[&str] = &[
    "take",
    "take_min",
    "take_max",
    "take_set",
    "no_repeat",
    "play",
    "heaps",
];

/// Options of a check.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// How many counterexamples to keep (the first ones in row order).
    pub max_counterexamples: usize,
    /// The key columns shown for a counterexample; `None`: every column
    /// except results ([`RESULT_COLUMNS`]), floats and, when `rule` is
    /// present, the rule's detail columns ([`RULE_DETAIL_COLUMNS`]).
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
    /// False on at least one row.
    Fails,
    /// No row passed the filter.
    Vacuous,
    /// Rows passed the filter but the claim was null on all of them.
    Undetermined,
    /// The conjecture could not be checked (missing data, bad expression).
    Error,
}

impl Verdict {
    /// `holds`, `fails`, `vacuous`, `undetermined`, `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::Fails => "fails",
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
}

impl Counterexample {
    /// `rule=max:3, N=4: outcome="P"; [outcome == "P"] = true, [N % 4 == 0] = false`.
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
        if !self.values.is_empty() {
            let _ = write!(s, ": {}", kv(&self.values));
        }
        if !self.sides.is_empty() {
            let sides = self
                .sides
                .iter()
                .map(|(e, v)| format!("[{e}] = {v}"))
                .collect::<Vec<_>>()
                .join(", ");
            let _ = write!(s, "; {sides}");
        }
        s
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
            Verdict::Fails => format!(
                "fails on {} of {} rows{ranges}; first counterexample: {}",
                self.failed,
                self.decided(),
                self.counterexamples
                    .first()
                    .map(Counterexample::describe)
                    .unwrap_or_default()
            ),
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

/// The key columns of a table under `opts`.
pub fn key_columns(table: &Table, opts: &CheckOptions) -> Vec<String> {
    if let Some(k) = &opts.key_columns {
        return k
            .iter()
            .filter(|c| table.column(c).is_some())
            .cloned()
            .collect();
    }
    let has_rule = table.column("rule").is_some();
    table
        .columns()
        .iter()
        .filter(|(n, v)| {
            let result = RESULT_COLUMNS.contains(&n.as_str()) || matches!(v, Values::Float(_));
            let detail = has_rule && RULE_DETAIL_COLUMNS.contains(&n.as_str());
            !(result || detail)
        })
        .map(|(n, _)| n.clone())
        .collect()
}

fn show(c: Cell<'_>, quote: bool) -> String {
    match c {
        Cell::Str(s) if quote => format!("{s:?}"),
        c => c.to_string(),
    }
}

/// The two sides of a claim `l OP r` (under its `let`s), as expressions.
fn sides(ast: &Ast) -> Option<(Ast, Ast)> {
    match ast {
        Ast::Let(n, s, v, body) => {
            let (l, r) = sides(body)?;
            let wrap = |x: Ast| Ast::Let(n.clone(), *s, v.clone(), Box::new(x));
            Some((wrap(l), wrap(r)))
        }
        Ast::Bin(op, l, r, _)
            if !matches!(
                op,
                BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem
            ) =>
        {
            Some(((**l).clone(), (**r).clone()))
        }
        _ => None,
    }
}

fn innermost(ast: &Ast) -> &Ast {
    match ast {
        Ast::Let(_, _, _, body) => innermost(body),
        a => a,
    }
}

/// Per-chunk tallies, merged in row order.
#[derive(Default)]
struct Tally {
    matched: usize,
    failed: usize,
    undetermined: usize,
    filter_null: usize,
    fail_rows: Vec<usize>,
    first_undetermined: Option<usize>,
    ranges: Vec<(i64, i64)>,
}

const CHUNK: usize = 1 << 16;

/// Evaluates `filter` (if any) then `claim` on every row of `table`.
pub fn check_table(
    table: &Table,
    filter: Option<&str>,
    claim: &str,
    opts: &CheckOptions,
) -> Result<CheckResult, CheckError> {
    let filter = filter
        .map(|f| Expr::compile_predicate(f, table))
        .transpose()
        .map_err(|error| CheckError {
            part: "where",
            error,
        })?;
    let claim_e = Expr::compile_predicate(claim, table).map_err(|error| CheckError {
        part: "claim",
        error,
    })?;
    let wrap = |part| move |error| CheckError { part, error };
    let fb = filter
        .as_ref()
        .map(|f| f.bind(table))
        .transpose()
        .map_err(wrap("where"))?;
    let cb = claim_e.bind(table).map_err(wrap("claim"))?;
    let keys = key_columns(table, opts);
    let range_cols: Vec<(String, &Values)> = keys
        .iter()
        .filter_map(|k| {
            let v = table.column(k)?;
            matches!(v, Values::Int(_) | Values::OptInt(_)).then(|| (k.clone(), v))
        })
        .collect();
    let max_ce = opts.max_counterexamples;
    let rows = table.rows();

    let run = |lo: usize, hi: usize| -> Tally {
        let mut t = Tally {
            ranges: vec![(i64::MAX, i64::MIN); range_cols.len()],
            ..Tally::default()
        };
        for row in lo..hi {
            if let Some(f) = &fb {
                match f.test(row) {
                    Some(true) => {}
                    Some(false) => continue,
                    None => {
                        t.filter_null += 1;
                        continue;
                    }
                }
            }
            t.matched += 1;
            for (i, (_, v)) in range_cols.iter().enumerate() {
                let x = match v {
                    Values::Int(x) => Some(x[row]),
                    Values::OptInt(x) => x[row],
                    _ => None,
                };
                if let Some(x) = x {
                    let r = &mut t.ranges[i];
                    r.0 = r.0.min(x);
                    r.1 = r.1.max(x);
                }
            }
            match cb.test(row) {
                Some(true) => {}
                Some(false) => {
                    t.failed += 1;
                    if t.fail_rows.len() < max_ce {
                        t.fail_rows.push(row);
                    }
                }
                None => {
                    t.undetermined += 1;
                    if t.first_undetermined.is_none() {
                        t.first_undetermined = Some(row);
                    }
                }
            }
        }
        t
    };
    let tallies: Vec<Tally> = if rows <= CHUNK {
        vec![run(0, rows)]
    } else {
        (0..rows.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| run(c * CHUNK, ((c + 1) * CHUNK).min(rows)))
            .collect()
    };
    let mut total = Tally {
        ranges: vec![(i64::MAX, i64::MIN); range_cols.len()],
        ..Tally::default()
    };
    for t in tallies {
        total.matched += t.matched;
        total.failed += t.failed;
        total.undetermined += t.undetermined;
        total.filter_null += t.filter_null;
        for r in t.fail_rows {
            if total.fail_rows.len() < max_ce {
                total.fail_rows.push(r);
            }
        }
        if total.first_undetermined.is_none() {
            total.first_undetermined = t.first_undetermined;
        }
        for (a, b) in total.ranges.iter_mut().zip(&t.ranges) {
            a.0 = a.0.min(b.0);
            a.1 = a.1.max(b.1);
        }
    }

    // Counterexamples: key columns, mentioned columns, the claim's two sides.
    let mut mentioned: Vec<String> = Vec::new();
    for c in filter
        .iter()
        .flat_map(|f| f.columns())
        .chain(claim_e.columns())
    {
        if !keys.contains(c) && !mentioned.contains(c) {
            mentioned.push(c.clone());
        }
    }
    let side_exprs: Vec<(String, Expr)> = match sides(claim_e.ast()) {
        Some((l, r)) => {
            let text = |a: &Ast| {
                let s = innermost(a).full_span();
                claim[s.start..s.end.min(claim.len())].to_string()
            };
            let (lt, rt) = (text(&l), text(&r));
            match (
                Expr::from_ast(claim, l, table),
                Expr::from_ast(claim, r, table),
            ) {
                (Ok(le), Ok(re)) => vec![(lt, le), (rt, re)],
                _ => vec![],
            }
        }
        None => vec![],
    };
    let side_bound: Vec<(&str, Bound<'_>)> = side_exprs
        .iter()
        .filter_map(|(t, e)| Some((t.as_str(), e.bind(table).ok()?)))
        .collect();
    let example = |row: usize| Counterexample {
        row,
        key: keys
            .iter()
            .filter_map(|k| Some((k.clone(), show(table.cell(k, row)?, false))))
            .collect(),
        values: mentioned
            .iter()
            .filter_map(|k| Some((k.clone(), show(table.cell(k, row)?, true))))
            .collect(),
        sides: side_bound
            .iter()
            .map(|(t, b)| (t.to_string(), show(b.eval(row), true)))
            .collect(),
    };
    let verdict = if total.matched == 0 {
        Verdict::Vacuous
    } else if total.failed > 0 {
        Verdict::Fails
    } else if total.undetermined == total.matched {
        Verdict::Undetermined
    } else {
        Verdict::Holds
    };
    Ok(CheckResult {
        verdict,
        rows,
        matched: total.matched,
        failed: total.failed,
        undetermined: total.undetermined,
        filter_null: total.filter_null,
        ranges: range_cols
            .iter()
            .zip(&total.ranges)
            .filter(|(_, r)| r.0 <= r.1)
            .map(|((n, _), r)| (n.clone(), r.0, r.1))
            .collect(),
        counterexamples: total.fail_rows.iter().map(|&r| example(r)).collect(),
        first_undetermined: total.first_undetermined.map(example),
    })
}

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
    /// One line for the terminal: `name: holds on all 46 rows (...)`.
    pub fn summary(&self) -> String {
        match &self.result {
            Ok(r) => format!("{}: {}", self.conjecture.name, r.summary()),
            Err(e) => format!("{}: error: {e}", self.conjecture.name),
        }
    }
}

/// Checks conjectures against the stored results under `experiment_dir`
/// (`output/<experiment>`), reading each sweep's dataset once. A conjecture
/// that cannot be checked gets an `Err` with the reason; the others are
/// still checked.
pub fn check_conjectures(
    experiment_dir: &Path,
    conjectures: &[Conjecture],
    opts: &CheckOptions,
) -> Vec<ConjectureResult> {
    let mut cache: HashMap<(String, String), Result<Table, String>> = HashMap::new();
    conjectures
        .iter()
        .map(|c| {
            let key = (c.sweep.clone(), c.dataset.clone());
            let table = cache.entry(key).or_insert_with(|| {
                let dir = SweepDir::new(experiment_dir, &c.sweep);
                match dir.read(&c.dataset) {
                    Ok(Some(t)) => Ok(t),
                    Ok(None) => {
                        let have = dir.datasets();
                        Err(format!(
                            "no stored results for sweep `{}`, dataset `{}` in {} ({}); run `nimlab run` first",
                            c.sweep,
                            c.dataset,
                            dir.dataset_dir(&c.dataset).display(),
                            if have.is_empty() {
                                "the sweep has no datasets yet".to_string()
                            } else {
                                format!("datasets present: {}", have.join(", "))
                            }
                        ))
                    }
                    Err(e) => Err(format!("{e:#}")),
                }
            });
            let result = match table {
                Ok(t) => check_table(t, c.filter.as_deref(), &c.claim, opts).map_err(|e| {
                    format!(
                        "field `{}.{}`: {}",
                        c.field,
                        if e.part == "where" { "where" } else { "claim" },
                        e.error
                    )
                }),
                Err(e) => Err(format!("field `{}`: {e}", c.field)),
            };
            ConjectureResult {
                conjecture: c.clone(),
                result,
            }
        })
        .collect()
}

/// Verdict counts, in the order holds, fails, vacuous, undetermined, error.
pub fn verdict_counts(results: &[ConjectureResult]) -> Vec<(Verdict, usize)> {
    [
        Verdict::Holds,
        Verdict::Fails,
        Verdict::Vacuous,
        Verdict::Undetermined,
        Verdict::Error,
    ]
    .into_iter()
    .map(|v| (v, results.iter().filter(|r| r.verdict() == v).count()))
    .collect()
}

fn md_cell(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace('\n', "<br>")
}

fn md_code(s: &str) -> String {
    // A code span that survives inside a table cell.
    let s = s.replace('|', "\\|").replace('\n', " ");
    if s.contains('`') {
        format!("`` {s} ``")
    } else {
        format!("`{s}`")
    }
}

/// A Markdown rendering: a summary line and a table with one row per
/// conjecture (name, claim in words and as written, source, verdict,
/// evidence: rows checked and ranges, first counterexample).
pub fn render_markdown(results: &[ConjectureResult]) -> String {
    let mut s = String::new();
    let counts: Vec<String> = verdict_counts(results)
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .map(|(v, n)| format!("{n} {v}"))
        .collect();
    let _ = writeln!(
        s,
        "{} conjecture{}: {}.\n",
        results.len(),
        if results.len() == 1 { "" } else { "s" },
        if counts.is_empty() {
            "none".to_string()
        } else {
            counts.join(", ")
        }
    );
    if results.is_empty() {
        return s;
    }
    s.push_str("| name | claim | source | verdict | evidence |\n|---|---|---|---|---|\n");
    for r in results {
        let c = &r.conjecture;
        let mut claim = String::new();
        if !c.says.is_empty() {
            claim.push_str(&md_cell(&c.says));
            claim.push_str("<br>");
        }
        claim.push_str(&md_code(&c.claim));
        if let Some(f) = &c.filter {
            let _ = write!(claim, " where {}", md_code(f));
        }
        let where_ = format!("{} / {}", c.sweep, c.dataset);
        let verdict = match r.verdict() {
            Verdict::Holds => "holds".to_string(),
            Verdict::Fails => "**FAILS**".to_string(),
            v => format!("*{v}*"),
        };
        let evidence = match &r.result {
            Ok(res) => {
                let mut e = md_cell(&res.summary());
                if res.counterexamples.len() > 1 {
                    let more: Vec<String> = res.counterexamples[1..]
                        .iter()
                        .map(|x| {
                            x.key
                                .iter()
                                .map(|(k, v)| format!("{k}={v}"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        })
                        .collect();
                    let _ = write!(e, "; next: {}", md_cell(&more.join("; ")));
                }
                format!("{e} ({})", md_cell(&where_))
            }
            Err(msg) => md_cell(msg.lines().next().unwrap_or("")),
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} |",
            md_cell(&c.name),
            claim,
            md_cell(&c.source),
            verdict,
            evidence
        );
    }
    s
}

/// Checks an experiment's conjectures on its stored results and writes
/// `<out>/<experiment>/conjectures.md`.
pub fn write_conjectures(
    e: &crate::spec::Experiment,
    out: &Path,
) -> anyhow::Result<Vec<ConjectureResult>> {
    let dir = out.join(&e.name);
    let results = check_conjectures(&dir, &e.conjectures, &CheckOptions::default());
    let md = format!(
        "# Conjectures — {}\n\n{}",
        e.title,
        render_markdown(&results)
    );
    crate::store::write_atomic(&dir.join("conjectures.md"), md.as_bytes())?;
    Ok(results)
}
