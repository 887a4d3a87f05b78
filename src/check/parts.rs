//! A claim's parts (`by:` an expression, or named `parts:` with a `where:`
//! each), judged one by one, and the verdict they make together: `partly`
//! when the claim holds on some parts and fails on others.

use std::collections::HashMap;

use rayon::prelude::*;

use super::{CHUNK, CheckError, PartResult, Verdict};
use crate::data::{Cell, Table};
use crate::expr::{Bound, Expr};

/// The rows of one part.
pub(super) type Keep<'a> = dyn Fn(usize) -> Option<bool> + Sync + 'a;

/// Judges the claim on one part's rows: its name and which rows it keeps.
pub(super) type Judge<'a> = dyn Fn(String, &Keep<'_>) -> PartResult + Sync + 'a;
use crate::spec::Parts;

/// Each part's result, in order (`by:`: by first appearance in row order).
pub(super) fn judge_parts(
    table: &Table,
    parts: &Parts,
    whole: &Keep<'_>,
    judge: &Judge<'_>,
) -> Result<Vec<PartResult>, CheckError> {
    let wrap = |error| CheckError {
        part: "parts",
        error,
    };
    let rows = table.rows();
    match parts {
        Parts::Whole => Ok(vec![]),
        Parts::Named(list) => {
            let mut out = Vec::new();
            for (name, w) in list {
                let e = Expr::compile_predicate(w, table).map_err(wrap)?;
                let b = e.bind(table).map_err(wrap)?;
                let keep = |row: usize| match whole(row) {
                    Some(true) => b.test(row),
                    _ => Some(false),
                };
                out.push(judge(name.clone(), &keep));
            }
            Ok(out)
        }
        Parts::By(by) => {
            let e = Expr::compile(by, table).map_err(|error| CheckError { part: "by", error })?;
            let b = e
                .bind(table)
                .map_err(|error| CheckError { part: "by", error })?;
            let (names, group) = groups(rows, whole, &b);
            Ok(names
                .into_iter()
                .enumerate()
                .map(|(g, (value, is_text))| {
                    let keep = |row: usize| Some(group[row] == g as u32);
                    // A text value names the part itself (`by: 'k % 2 == 1 ? "odd k" : "even k"'`).
                    let name = if is_text {
                        value
                    } else {
                        format!("{by} = {value}")
                    };
                    judge(name, &keep)
                })
                .collect())
        }
    }
}

/// A chunk's distinct values (text, is it text) and its rows' local ids.
type ChunkGroups = (Vec<(String, bool)>, Vec<u32>);

/// The distinct values of `by` over the rows in scope (first appearance
/// first; with whether the value is text), and each row's group
/// (`u32::MAX` outside the scope). Chunks run in parallel; their local
/// values are merged in row order.
fn groups(
    rows: usize,
    whole: &(dyn Fn(usize) -> Option<bool> + Sync),
    by: &Bound<'_>,
) -> (Vec<(String, bool)>, Vec<u32>) {
    let chunk = |lo: usize, hi: usize| -> ChunkGroups {
        let mut names: Vec<(String, bool)> = Vec::new();
        let mut index: HashMap<String, u32> = HashMap::new();
        let mut ids = vec![u32::MAX; hi - lo];
        for (row, g) in (lo..hi).zip(ids.iter_mut()) {
            if whole(row) != Some(true) {
                continue;
            }
            let cell = by.eval(row);
            let found = match cell {
                Cell::Str(s) => index.get(s).copied(),
                _ => None,
            };
            *g = found.unwrap_or_else(|| {
                let (key, is_text) = match cell {
                    Cell::Str(s) => (s.to_string(), true),
                    c => (c.to_string(), false),
                };
                *index.entry(key.clone()).or_insert_with(|| {
                    names.push((key, is_text));
                    (names.len() - 1) as u32
                })
            });
        }
        (names, ids)
    };
    let parts: Vec<ChunkGroups> = (0..rows.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| chunk(c * CHUNK, ((c + 1) * CHUNK).min(rows)))
        .collect();
    let mut names: Vec<(String, bool)> = Vec::new();
    let mut group = Vec::with_capacity(rows);
    for (local, ids) in parts {
        let map: Vec<u32> = local
            .into_iter()
            .map(|n| match names.iter().position(|m| *m == n) {
                Some(p) => p as u32,
                None => {
                    names.push(n);
                    (names.len() - 1) as u32
                }
            })
            .collect();
        group.extend(
            ids.into_iter()
                .map(|g| if g == u32::MAX { g } else { map[g as usize] }),
        );
    }
    (names, group)
}

/// The verdict of the whole scope, refined by its parts: a claim that fails
/// somewhere but holds on at least one part holds `partly`.
pub(super) fn overall(whole: Verdict, parts: &[PartResult]) -> Verdict {
    if whole == Verdict::Fails && parts.iter().any(|p| p.verdict == Verdict::Holds) {
        Verdict::Partly
    } else {
        whole
    }
}

/// Each part's name and its rows in the claim's scope (`filter`), in the
/// parts' order; empty for a claim without parts.
pub(super) fn part_rows(
    table: &Table,
    parts: &Parts,
    filter: Option<&str>,
) -> Result<Vec<(String, Vec<usize>)>, String> {
    let fe = filter
        .map(|f| Expr::compile_predicate(f, table))
        .transpose()
        .map_err(|e| e.to_string())?;
    let fb = fe
        .as_ref()
        .map(|e| e.bind(table))
        .transpose()
        .map_err(|e| e.to_string())?;
    let whole = |row: usize| fb.as_ref().map_or(Some(true), |f| f.test(row));
    let found = std::sync::Mutex::new(Vec::new());
    let judge = |name: String, keep: &Keep<'_>| {
        let rows: Vec<usize> = (0..table.rows())
            .filter(|&r| whole(r) == Some(true) && keep(r) == Some(true))
            .collect();
        found
            .lock()
            .expect("not poisoned")
            .push((name.clone(), rows));
        PartResult {
            name,
            verdict: Verdict::Holds,
            matched: 0,
            failed: 0,
            undetermined: 0,
            first_counterexample: None,
        }
    };
    judge_parts(table, parts, &whole, &judge).map_err(|e| e.error.to_string())?;
    Ok(found.into_inner().expect("not poisoned"))
}
