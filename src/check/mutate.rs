//! Can an encoding fail? For a claim, look for one row in its scope and one
//! cell of a column the claim reads whose change (a nearby integer, another
//! level, a longer or shorter list, null) keeps the row in scope and makes
//! the claim false. A claim with no such row and cell cannot fail on data
//! like its own, which is a defect of the encoding.

use super::{CheckError, Verdict};
use crate::data::{DictVec, EnumVec, IntListVec, StrListVec, StrVec, StructListVec, Table, Values};
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
}

impl std::fmt::Display for Mutation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "row {}: {} = {} instead of {} would make it fail",
            self.row, self.column, self.to, self.from
        )
    }
}

/// Candidate replacements for a one-row column.
fn candidates(v: &Values) -> Vec<Values> {
    let ints = |x: i64| -> Vec<i64> {
        let mut c = vec![x + 1, x - 1, x + 2, x - 2, 0, 1, 2, 3, 4, 5, x * 2, x + 7];
        c.retain(|&y| y != x);
        c.dedup();
        c
    };
    match v {
        Values::Int(x) => ints(x[0])
            .into_iter()
            .map(|y| Values::Int(vec![y]))
            .collect(),
        Values::OptInt(x) => {
            let mut c: Vec<Values> = ints(x[0].unwrap_or(0))
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
        Values::IntList(l) => {
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
        Values::StrList(_) => [vec![], vec!["x"]]
            .into_iter()
            .map(|x| {
                let mut n = StrListVec::default();
                n.push(x);
                Values::StrList(n)
            })
            .collect(),
        Values::StructList(l) => {
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
        Values::Null(_) => vec![],
    }
}

fn with_column(t: &Table, name: &str, v: Values) -> Table {
    let mut out = Table::new();
    for (n, old) in t.columns() {
        out.push(n, if n == name { v.clone() } else { old.clone() });
    }
    out
}

/// A one-cell change of a row in scope that makes the claim false, if one
/// of the changes tried does; `verdict` is the claim's verdict on the data
/// (a claim that already fails can fail: its first failing row is enough).
pub fn find_failing_mutation(
    table: &Table,
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
    let in_scope: Vec<usize> = (0..table.rows())
        .filter(|&r| fb.as_ref().is_none_or(|b| b.test(r) == Some(true)))
        .collect();
    let step = in_scope.len().div_ceil(ROWS_TRIED).max(1);
    for &row in in_scope.iter().step_by(step) {
        let one = table.take_rows(&[row]);
        for col in c.columns() {
            let Some(orig) = one.column(col) else {
                continue;
            };
            for cand in candidates(orig) {
                let t = with_column(&one, col, cand);
                let still = match filter {
                    Some(f) => Expr::compile_predicate(f, &t)
                        .ok()
                        .and_then(|e| e.bind(&t).ok().and_then(|b| b.test(0))),
                    None => Some(true),
                };
                if still != Some(true) {
                    continue;
                }
                let Ok(ce) = Expr::compile_predicate(claim, &t) else {
                    continue;
                };
                let Ok(cb) = ce.bind(&t) else { continue };
                if cb.test(0) == Some(false) {
                    let text =
                        |tb: &Table| tb.cell(col, 0).map(|x| x.to_string()).unwrap_or_default();
                    return Ok(Some(Mutation {
                        row,
                        column: col.clone(),
                        from: text(&one),
                        to: text(&t),
                    }));
                }
            }
        }
    }
    Ok(None)
}

/// Does a verdict already show the claim can fail?
pub fn already_fails(v: Verdict) -> bool {
    matches!(v, Verdict::Fails | Verdict::Partly)
}
