//! Can an encoding fail? For a claim, look for one row in its scope and one
//! result cell the claim reads (a column the dataset declares as a result,
//! an outcome or a closed form: never a key or a parameter) whose change (a
//! nearby integer, another level, a longer or shorter list, null) keeps the
//! row in scope and makes the claim false. Nothing is recomputed: a change
//! of a column the family computes from another column the claim also reads
//! (a class and the Grundy value it is read from, or two columns read from
//! one) makes the row contradict the family's own definitions. A claim whose
//! only refuting changes are of that kind is true by construction; one with
//! no refuting change at all cannot fail on data like its own, a defect of
//! the encoding.

use std::collections::BTreeSet;

use super::{CheckError, Verdict};
use crate::data::{
    Dataset, DictVec, EnumVec, IntListVec, Role, StrListVec, StrVec, StructListVec, Table, Values,
};
use crate::expr::Expr;

/// Rows in scope tried at most (spread over the scope).
const ROWS_TRIED: usize = 64;

/// A one-cell change that makes a claim false.
#[derive(Clone, Debug, PartialEq)]
pub struct Mutation {
    /// Row index in the dataset.
    pub row: usize,
    /// The column changed.
    pub column: String,
    /// Its value before and after.
    pub from: String,
    /// The new value.
    pub to: String,
    /// The family's definitions the changed row contradicts (the changed
    /// column computed from, or read from the same source as, another column
    /// the claim reads); `None` for a change that contradicts none.
    pub contradicts: Option<String>,
}

impl std::fmt::Display for Mutation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "row {}: {} = {} instead of {} would make it fail",
            self.row,
            self.column,
            short(&self.to),
            short(&self.from)
        )?;
        if let Some(why) = &self.contradicts {
            write!(
                f,
                ", but only by contradicting the family's definitions: {why}"
            )?;
        }
        Ok(())
    }
}

/// A cell's text cut to 60 characters.
fn short(s: &str) -> String {
    match s.char_indices().nth(60) {
        Some((i, _)) => format!("{} …", &s[..i]),
        None => s.to_string(),
    }
}

/// Roles whose cells a mutation may change: what the solvers computed.
fn is_result(role: Role) -> bool {
    matches!(role, Role::Outcome | Role::Result | Role::ClosedForm)
}

/// A column of the table as the dataset declares it: `other_<name>` (a
/// matched row's column, see `other:`) is declared as `<name>`. Returns the
/// declaration and the prefix to put before its sources.
fn declared<'d>(ds: &'d Dataset, name: &str) -> Option<(&'static crate::data::Column, &'d str)> {
    if let Some(c) = ds.column(name) {
        return Some((c, ""));
    }
    let base = name.strip_prefix("other_")?;
    ds.column(base).map(|c| (c, "other_"))
}

/// The columns a column's value comes from on `row`: its sources' (through
/// the declared row-local derivations that apply: every source present and
/// not null), or itself; and the definitions used on the way. A column
/// computed over other rows (a mex over a board's moves) is its own origin:
/// a relation the solver computed, not a definition.
fn origins(ds: &Dataset, t: &Table, name: &str, row: usize) -> (BTreeSet<String>, Vec<String>) {
    let mut roots = BTreeSet::new();
    let mut hows = Vec::new();
    let mut todo = vec![name.to_string()];
    let mut seen = BTreeSet::new();
    while let Some(n) = todo.pop() {
        if !seen.insert(n.clone()) {
            continue;
        }
        let derived = declared(ds, &n)
            .and_then(|(c, pre)| Some((c.derived?, pre)))
            .filter(|(d, _)| !d.over_rows);
        let applies = derived.filter(|(d, pre)| {
            d.sources.iter().all(|s| {
                t.cell(&format!("{pre}{s}"), row)
                    .is_some_and(|c| !matches!(c, crate::data::Cell::Null))
            })
        });
        match applies {
            Some((d, pre)) => {
                hows.push(format!("`{n}` is {}", d.how));
                todo.extend(d.sources.iter().map(|s| format!("{pre}{s}")));
            }
            None => {
                roots.insert(n);
            }
        }
    }
    (roots, hows)
}

/// The definitions a change of `col` on `row` contradicts, as the claim
/// sees them: `col` and another column the claim reads come from a common
/// column. `None` when there is none.
fn contradicted(ds: &Dataset, t: &Table, col: &str, read: &[String], row: usize) -> Option<String> {
    let (mine, my_hows) = origins(ds, t, col, row);
    let mut hows = Vec::new();
    for other in read.iter().filter(|o| o.as_str() != col) {
        let (theirs, their_hows) = origins(ds, t, other, row);
        if !mine.is_disjoint(&theirs) {
            hows.extend(my_hows.iter().chain(&their_hows).cloned());
        }
    }
    if hows.is_empty() {
        return None;
    }
    let mut uniq: Vec<String> = Vec::new();
    for h in hows {
        if !uniq.contains(&h) {
            uniq.push(h);
        }
    }
    Some(uniq.join("; "))
}

/// Candidate replacements for a one-row column.
fn candidates(v: &Values) -> Vec<Values> {
    match v {
        Values::Repeat(one, _) => candidates(one),
        Values::Int(x) => near_ints(x[0])
            .into_iter()
            .map(|y| Values::Int(vec![y]))
            .collect(),
        Values::OptInt(x) => {
            let mut c: Vec<Values> = near_ints(x[0].unwrap_or(0))
                .into_iter()
                .map(|y| Values::OptInt(vec![Some(y)]))
                .collect();
            c.push(Values::OptInt(vec![None]));
            c
        }
        Values::Bool(b) => vec![Values::Bool(vec![!b[0]])],
        Values::Float(x) => vec![Values::Float(vec![x[0] + 1.0]), Values::Float(vec![0.0])],
        Values::OptFloat(x) => vec![
            Values::OptFloat(vec![Some(x[0].unwrap_or(0.0) + 1.0)]),
            Values::OptFloat(vec![None]),
        ],
        Values::Str(_) => ["", "x", "0"]
            .iter()
            .map(|s| {
                let mut sv = StrVec::default();
                sv.push(s);
                Values::Str(sv)
            })
            .collect(),
        Values::Dict(d) => (0..d.levels().len() as u32)
            .map(|c| Values::Dict(DictVec::from_parts(d.levels().to_vec(), vec![c])))
            .collect(),
        Values::Enum(e) => (0..e.levels.len() as u8)
            .map(|c| {
                let mut n = EnumVec::new(e.levels, 1);
                n.push(c);
                Values::Enum(n)
            })
            .collect(),
        Values::IntList(l) => int_list_candidates(l),
        Values::StrList(_) => [vec![], vec!["x"]]
            .into_iter()
            .map(|x| {
                let mut n = StrListVec::default();
                n.push(x);
                Values::StrList(n)
            })
            .collect(),
        Values::StructList(l) => struct_list_candidates(l),
        Values::Null(_) => vec![],
    }
}

/// Integers near `x` and small ones, `x` itself left out.
fn near_ints(x: i64) -> Vec<i64> {
    let mut c = vec![x + 1, x - 1, x + 2, x - 2, 0, 1, 2, 3, 4, 5, x * 2, x + 7];
    c.retain(|&y| y != x);
    c.dedup();
    c
}

/// Replacements for a one-row list of integers: short lists, and the
/// list grown, shrunk at either end or nudged.
fn int_list_candidates(l: &IntListVec) -> Vec<Values> {
    let items = l.get_opt(0).unwrap_or(&[]).to_vec();
    let mut lists: Vec<Vec<i64>> = vec![vec![], vec![1], vec![1, 2]];
    let top = items.iter().max().copied().unwrap_or(0);
    lists.push([items.clone(), vec![top + 1]].concat());
    if !items.is_empty() {
        lists.push(items[..items.len() - 1].to_vec());
        lists.push(items[1..].to_vec());
        let mut near = items.clone();
        near[0] += 1;
        lists.push(near);
    }
    lists
        .into_iter()
        .map(|x| {
            let mut n = IntListVec::with_capacity(1, x.len());
            n.push(&x);
            Values::IntList(n)
        })
        .collect()
}

/// Replacements for a one-row list of structs: empty, shrunk, grown.
fn struct_list_candidates(l: &StructListVec) -> Vec<Values> {
    let items: Vec<Vec<i64>> = (0..l.row_len(0)).map(|k| l.item(0, k)).collect();
    let mut lists: Vec<Vec<Vec<i64>>> = vec![vec![]];
    if let Some(last) = items.last() {
        lists.push(items[..items.len() - 1].to_vec());
        let next: Vec<i64> = last.iter().map(|x| x + 1).collect();
        lists.push([items.clone(), vec![next]].concat());
    } else {
        lists.push(vec![vec![1; l.fields.len()]]);
    }
    lists
        .into_iter()
        .map(|x| {
            let mut n = StructListVec::new(l.fields, 1);
            for it in &x {
                n.push_item(it);
            }
            n.end_row();
            Values::StructList(n)
        })
        .collect()
}

fn with_column(t: &Table, name: &str, v: Values) -> Table {
    let mut out = Table::new();
    for (n, old) in t.columns() {
        out.push(n, if n == name { v.clone() } else { old.clone() });
    }
    out
}

/// A one-cell change of a result cell that keeps or brings a row in scope
/// and makes the claim false: the first that contradicts none of the family's definitions
/// the claim reads, else the first that does (its `contradicts` says which:
/// the claim is then true by construction), else `None`. `ds` declares the
/// columns' roles and derivations (without it, no cell may change).
pub fn find_failing_mutation(
    table: &Table,
    ds: Option<&Dataset>,
    filter: Option<&str>,
    claim: &str,
) -> Result<Option<Mutation>, CheckError> {
    let wrap = |part| move |error| CheckError { part, error };
    let f = filter
        .map(|f| Expr::compile_predicate(f, table))
        .transpose()
        .map_err(wrap("where"))?;
    let c = Expr::compile_predicate(claim, table).map_err(wrap("claim"))?;
    let fb = f
        .as_ref()
        .map(|f| f.bind(table))
        .transpose()
        .map_err(wrap("where"))?;
    let Some(ds) = ds else { return Ok(None) };
    let mut read: Vec<String> = c.columns().to_vec();
    for col in f.iter().flat_map(|f| f.columns()) {
        if !read.contains(col) {
            read.push(col.clone());
        }
    }
    let mutable: Vec<&String> = read
        .iter()
        .filter(|n| declared(ds, n).is_some_and(|(c, _)| is_result(c.role)))
        .collect();
    // Rows in scope first, then rows a change could bring into it.
    let (in_scope, out): (Vec<usize>, Vec<usize>) =
        (0..table.rows()).partition(|&r| fb.as_ref().is_none_or(|b| b.test(r) == Some(true)));
    let sample = |rows: &[usize]| -> Vec<usize> {
        let step = rows.len().div_ceil(ROWS_TRIED).max(1);
        rows.iter().step_by(step).copied().collect()
    };
    let mut by_construction = None;
    for row in sample(&in_scope).into_iter().chain(sample(&out)) {
        let one = table.take_rows(&[row]);
        for col in &mutable {
            let Some(to) = refuting_change(&one, col, filter, claim) else {
                continue;
            };
            let text = |tb: &Table| tb.cell(col, 0).map(|x| x.to_string()).unwrap_or_default();
            let m = Mutation {
                row,
                column: col.to_string(),
                from: text(&one),
                to: text(&to),
                contradicts: contradicted(ds, &one, col, &read, 0)
                    .or_else(|| contradicted(ds, &to, col, &read, 0)),
            };
            if m.contradicts.is_none() {
                return Ok(Some(m));
            }
            by_construction.get_or_insert(m);
        }
    }
    Ok(by_construction)
}

/// The one-row table with a changed `col` that keeps the row in scope and
/// makes the claim false, if a candidate does.
fn refuting_change(one: &Table, col: &str, filter: Option<&str>, claim: &str) -> Option<Table> {
    let orig = one.column(col)?;
    candidates(orig).into_iter().find_map(|cand| {
        let t = with_column(one, col, cand);
        let still = match filter {
            Some(f) => Expr::compile_predicate(f, &t)
                .ok()
                .and_then(|e| e.bind(&t).ok().and_then(|b| b.test(0))),
            None => Some(true),
        };
        if still != Some(true) {
            return None;
        }
        let ce = Expr::compile_predicate(claim, &t).ok()?;
        let cb = ce.bind(&t).ok()?;
        (cb.test(0) == Some(false)).then_some(t)
    })
}

/// For a claim that fails or holds partly: a one-cell change of a row
/// where it holds (in its scope) that makes it false there, so that a part
/// that holds but could not have failed is found as in a claim that
/// holds. An error when it holds on no row (nothing to try).
pub fn where_it_holds(
    table: &Table,
    ds: Option<&Dataset>,
    filter: Option<&str>,
    claim: &str,
) -> Result<Option<Mutation>, String> {
    let test = |e: &str| -> Result<Vec<Option<bool>>, String> {
        let x = Expr::compile_predicate(e, table).map_err(|e| e.to_string())?;
        let b = x.bind(table).map_err(|e| e.to_string())?;
        Ok((0..table.rows()).map(|r| b.test(r)).collect())
    };
    let scope = match filter {
        Some(f) => test(f)?,
        None => vec![Some(true); table.rows()],
    };
    let holds = test(claim)?;
    let rows: Vec<usize> = (0..table.rows())
        .filter(|&r| scope[r] == Some(true) && holds[r] == Some(true))
        .collect();
    if rows.is_empty() {
        return Err("it holds on no row of its scope: no part to try".into());
    }
    let part = table.take_rows(&rows);
    let m = find_failing_mutation(&part, ds, filter, claim).map_err(|e| e.to_string())?;
    Ok(m.map(|m| Mutation {
        row: rows[m.row],
        ..m
    }))
}

/// Does a verdict already show the claim can fail?
pub fn already_fails(v: Verdict) -> bool {
    matches!(v, Verdict::Fails | Verdict::Partly)
}
