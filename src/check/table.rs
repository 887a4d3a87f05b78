//! Judging one claim on one table: compile the filter and the claim, tally
//! the rows in parallel chunks (merged in row order), then describe the
//! first counterexamples by their key columns (from the dataset's declared
//! roles), the columns the claim mentions and the claim's two sides.

use rayon::prelude::*;

use super::{
    CHUNK, CheckError, CheckOptions, CheckResult, Counterexample, Explain, PartResult, Verdict,
};
use crate::data::{Cell, Dataset, Role, Table, Values, cell_text};
use crate::expr::{Ast, BinOp, Bound, Expr};
use crate::spec::Parts;

/// Evaluates `filter` (if any) then `claim` on every row of `table`, whose
/// declaration (if known) gives the key columns and the cells' text.
#[cfg(test)]
pub fn check_table(
    table: &Table,
    ds: Option<&Dataset>,
    filter: Option<&str>,
    claim: &str,
    opts: &CheckOptions,
) -> Result<CheckResult, CheckError> {
    check_scoped(table, ds, filter, claim, &Parts::Whole, None, opts)
}

/// A row filter: `Some(true)` keeps the row, `None` (null) leaves it out.
type RowFilter<'a> = dyn Fn(usize) -> Option<bool> + Sync + 'a;

/// As [`check_table`], with the claim's parts judged one by one (the
/// verdict is `partly` when it holds on some parts and fails on others)
/// and each counterexample explained by `explain` where it can.
pub fn check_scoped(
    table: &Table,
    ds: Option<&Dataset>,
    filter: Option<&str>,
    claim: &str,
    parts: &Parts,
    explain: Option<&Explain<'_>>,
    opts: &CheckOptions,
) -> Result<CheckResult, CheckError> {
    let wrap = |part| move |error| CheckError { part, error };
    let filter = filter
        .map(|f| Expr::compile_predicate(f, table))
        .transpose()
        .map_err(wrap("where"))?;
    let claim_e = Expr::compile_predicate(claim, table).map_err(wrap("claim"))?;
    let fb = filter
        .as_ref()
        .map(|f| f.bind(table))
        .transpose()
        .map_err(wrap("where"))?;
    let cb = claim_e.bind(table).map_err(wrap("claim"))?;
    let keys = key_columns(table, ds, opts);
    let ranged = ranged_keys(table, &keys);
    let whole = |row: usize| fb.as_ref().map_or(Some(true), |f| f.test(row));
    let total = tally_all(table.rows(), &whole, &cb, &ranged, opts.max_counterexamples);
    let show = Shower {
        table,
        ds,
        keys: &keys,
        mentioned: mentioned(&keys, filter.as_ref(), &claim_e),
        sides: side_exprs(claim, &claim_e, table),
        relation: relation(claim_e.ast()),
        explain,
    };
    let judge = |name: String, keep: &super::parts::Keep<'_>| {
        judge_part(name, table.rows(), keep, &cb, &show)
    };
    let part_results = super::parts::judge_parts(table, parts, &whole, &judge)?;
    Ok(CheckResult {
        verdict: super::parts::overall(verdict(&total), &part_results),
        rows: table.rows(),
        matched: total.matched,
        failed: total.failed,
        undetermined: total.undetermined,
        filter_null: total.filter_null,
        ranges: ranged
            .iter()
            .zip(&total.ranges)
            .filter(|(_, r)| r.0 <= r.1)
            .map(|((n, _), r)| (n.clone(), r.0, r.1))
            .collect(),
        counterexamples: total.fail_rows.iter().map(|&r| show.example(r)).collect(),
        first_undetermined: total.first_undetermined.map(|r| show.example(r)),
        parts: part_results,
        by_construction: None,
        span: total
            .first_decided
            .zip(total.last_decided)
            .map(|(a, b)| (show.key(a), show.key(b))),
        label: ds
            .and_then(|d| d.with_role(Role::Label).first().map(|c| c.name.to_string()))
            .filter(|l| keys.contains(l)),
        positions: position_columns(ds),
        unit: ("case".into(), "cases".into()),
        label_names_row: false,
        names: Vec::new(),
    })
}

/// The integer key columns, whose ranges the evidence reports.
fn ranged_keys<'t>(table: &'t Table, keys: &[String]) -> Vec<(String, &'t Values)> {
    keys.iter()
        .filter_map(|k| {
            let v = table.column(k)?;
            matches!(v, Values::Int(_) | Values::OptInt(_)).then(|| (k.clone(), v))
        })
        .collect()
}

/// The dataset's position columns, by name.
fn position_columns(ds: Option<&Dataset>) -> Vec<String> {
    ds.map(|d| {
        d.with_role(Role::Position)
            .iter()
            .map(|c| c.name.to_string())
            .collect()
    })
    .unwrap_or_default()
}

/// Tallies the claim on the rows `keep` accepts and judges them as one part.
fn judge_part(
    name: String,
    rows: usize,
    keep: &RowFilter<'_>,
    cb: &Bound<'_>,
    show: &Shower<'_>,
) -> PartResult {
    let t = tally_all(rows, keep, cb, &[], 1);
    PartResult {
        name,
        verdict: verdict(&t),
        matched: t.matched,
        failed: t.failed,
        undetermined: t.undetermined,
        first_counterexample: t.fail_rows.first().map(|&r| show.example(r)),
    }
}

fn verdict(t: &Tally) -> Verdict {
    if t.matched == 0 {
        Verdict::Vacuous
    } else if t.failed > 0 {
        Verdict::Fails
    } else if t.undetermined == t.matched {
        Verdict::Undetermined
    } else {
        Verdict::Holds
    }
}

/// The key columns of a row: those `opts` names, else the declared labels
/// and positions (and the parameters when the dataset has no label); every
/// column but floats for an undeclared table.
pub fn key_columns(table: &Table, ds: Option<&Dataset>, opts: &CheckOptions) -> Vec<String> {
    if let Some(k) = &opts.key_columns {
        return k
            .iter()
            .filter(|c| table.column(c).is_some())
            .cloned()
            .collect();
    }
    let Some(ds) = ds else {
        // Undeclared (a table built by hand): every column but floats.
        return table
            .columns()
            .iter()
            .filter(|(_, v)| !matches!(v, Values::Float(_) | Values::OptFloat(_)))
            .map(|(n, _)| n.clone())
            .collect();
    };
    let has_label = !ds.with_role(Role::Label).is_empty();
    ds.stored_columns()
        .filter(|c| match c.role {
            Role::Label | Role::Position => true,
            Role::Param => !has_label,
            _ => false,
        })
        .filter(|c| table.column(c.name).is_some())
        .map(|c| c.name.to_string())
        .collect()
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
    first_decided: Option<usize>,
    last_decided: Option<usize>,
    ranges: Vec<(i64, i64)>,
}

impl Tally {
    fn new(ranges: usize) -> Tally {
        Tally {
            ranges: vec![(i64::MAX, i64::MIN); ranges],
            ..Tally::default()
        }
    }
    fn widen(&mut self, ranged: &[(String, &Values)], row: usize) {
        for (r, (_, v)) in self.ranges.iter_mut().zip(ranged) {
            let x = match v {
                Values::Int(x) => Some(x[row]),
                Values::OptInt(x) => x[row],
                _ => None,
            };
            if let Some(x) = x {
                *r = (r.0.min(x), r.1.max(x));
            }
        }
    }
    fn merge(&mut self, t: Tally, max_ce: usize) {
        self.matched += t.matched;
        self.failed += t.failed;
        self.undetermined += t.undetermined;
        self.filter_null += t.filter_null;
        let room = max_ce.saturating_sub(self.fail_rows.len());
        self.fail_rows.extend(t.fail_rows.into_iter().take(room));
        self.first_undetermined = self.first_undetermined.or(t.first_undetermined);
        self.first_decided = self.first_decided.or(t.first_decided);
        self.last_decided = t.last_decided.or(self.last_decided);
        for (a, b) in self.ranges.iter_mut().zip(&t.ranges) {
            *a = (a.0.min(b.0), a.1.max(b.1));
        }
    }
}

fn tally_all(
    rows: usize,
    fb: &RowFilter<'_>,
    cb: &Bound<'_>,
    ranged: &[(String, &Values)],
    max_ce: usize,
) -> Tally {
    let run = |lo: usize, hi: usize| tally(lo..hi, fb, cb, ranged, max_ce);
    let parts: Vec<Tally> = if rows <= CHUNK {
        vec![run(0, rows)]
    } else {
        (0..rows.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| run(c * CHUNK, ((c + 1) * CHUNK).min(rows)))
            .collect()
    };
    let mut total = Tally::new(ranged.len());
    for t in parts {
        total.merge(t, max_ce);
    }
    total
}

fn tally(
    rows: std::ops::Range<usize>,
    fb: &RowFilter<'_>,
    cb: &Bound<'_>,
    ranged: &[(String, &Values)],
    max_ce: usize,
) -> Tally {
    let mut t = Tally::new(ranged.len());
    for row in rows {
        match fb(row) {
            Some(false) => continue,
            None => {
                t.filter_null += 1;
                continue;
            }
            Some(true) => {}
        }
        t.matched += 1;
        t.widen(ranged, row);
        let v = cb.test(row);
        if v.is_some() {
            t.first_decided = t.first_decided.or(Some(row));
            t.last_decided = Some(row);
        }
        match v {
            Some(true) => {}
            Some(false) => {
                t.failed += 1;
                if t.fail_rows.len() < max_ce {
                    t.fail_rows.push(row);
                }
            }
            None => {
                t.undetermined += 1;
                t.first_undetermined = t.first_undetermined.or(Some(row));
            }
        }
    }
    t
}

/// Columns the filter and claim mention that are not keys.
fn mentioned(keys: &[String], filter: Option<&Expr>, claim: &Expr) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in filter
        .iter()
        .flat_map(|f| f.columns())
        .chain(claim.columns())
    {
        if !keys.contains(c) && !out.contains(c) {
            out.push(c.clone());
        }
    }
    out
}

/// The two sides of a claim `l OP r` (under its `let`s), as expressions.
fn sides(ast: &Ast) -> Option<(Ast, Ast)> {
    match ast {
        Ast::Let(n, s, v, body) => {
            let (l, r) = sides(body)?;
            let wrap = |x: Ast| Ast::Let(n.clone(), *s, v.clone(), Box::new(x));
            Some((wrap(l), wrap(r)))
        }
        Ast::Bin(op, _, _, _) if relation(ast) == Some(*op) => sides_of(ast),
        _ => None,
    }
}

/// The operator between a claim's two sides (under its `let`s).
fn relation(ast: &Ast) -> Option<BinOp> {
    match ast {
        Ast::Let(_, _, _, body) => relation(body),
        Ast::Bin(op, _, _, _)
            if !matches!(
                op,
                BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem
            ) =>
        {
            Some(*op)
        }
        _ => None,
    }
}

fn sides_of(ast: &Ast) -> Option<(Ast, Ast)> {
    match ast {
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

/// The claim's two sides with their source text, compiled.
fn side_exprs(claim: &str, claim_e: &Expr, table: &Table) -> Vec<(String, Expr)> {
    let Some((l, r)) = sides(claim_e.ast()) else {
        return vec![];
    };
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

/// A side's text, cut to [`SIDE_TEXT`] characters (its value follows it).
fn short(t: &str) -> String {
    if t.chars().count() <= SIDE_TEXT {
        t.to_string()
    } else {
        let cut: String = t.chars().take(SIDE_TEXT - 1).collect();
        format!("{cut}…")
    }
}

/// Longest side text shown in full.
const SIDE_TEXT: usize = 60;

/// Describes a row: its keys, the mentioned columns and the claim's sides.
pub(super) struct Shower<'a> {
    table: &'a Table,
    ds: Option<&'a Dataset>,
    keys: &'a [String],
    mentioned: Vec<String>,
    sides: Vec<(String, Expr)>,
    relation: Option<BinOp>,
    explain: Option<&'a Explain<'a>>,
}

impl Shower<'_> {
    fn text(&self, col: &str, row: usize, quote: bool) -> Option<String> {
        let cell = self.table.cell(col, row)?;
        let mut s = String::new();
        match cell {
            Cell::Null => s.push_str("null"),
            Cell::Str(v) if quote => s = format!("{v:?}"),
            _ => cell_text(
                self.table,
                col,
                row,
                self.ds.and_then(|d| d.column(col)),
                &mut s,
            ),
        }
        Some(s)
    }
    /// A row's key columns and values (nulls left out).
    fn key(&self, row: usize) -> Vec<(String, String)> {
        let mut key: Vec<(String, String)> = self
            .keys
            .iter()
            .filter_map(|k| Some((k.clone(), self.text(k, row, false)?)))
            .collect();
        key.retain(|(_, v)| v != "null");
        key
    }
    pub(super) fn example(&self, row: usize) -> Counterexample {
        let pairs = |cols: &[String], quote: bool| {
            cols.iter()
                .filter_map(|k| Some((k.clone(), self.text(k, row, quote)?)))
                .collect()
        };
        let sides: Vec<(String, String)> = self
            .sides
            .iter()
            .filter_map(|(t, e)| {
                let b = e.bind(self.table).ok()?;
                let v = match b.eval(row) {
                    Cell::Str(s) => format!("{s:?}"),
                    c => c.to_string(),
                };
                Some((short(t), v))
            })
            .collect();
        // A null key (a heap a one-heap row does not have) says nothing.
        Counterexample {
            row,
            key: self.key(row),
            values: pairs(&self.mentioned, true),
            sides: sides.clone(),
            reason: self.explain.and_then(|f| f(self.table, row)),
            drawing: None,
            relation: self
                .relation
                .filter(|_| !sides.is_empty())
                .map_or("", BinOp::symbol),
            line: None,
        }
    }
}
