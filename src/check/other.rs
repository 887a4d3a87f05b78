//! `other:` — a claim about two rows of one dataset. Each row is matched with
//! the row whose key columns (declared parameters, labels, positions and
//! provenance) equal its own, except those `other:` recomputes from the row;
//! the claim reads the matched row's columns as `other_<column>`. A row
//! without a match is out of the claim's scope.

use std::collections::HashMap;

use crate::data::{Dataset, Role, Table};
use crate::expr::Expr;

/// The rows of `table` that have a matched row, with the matched row's
/// columns appended as `other_<column>`.
pub fn with_other_rows(
    table: &Table,
    ds: Option<&Dataset>,
    other: &[(String, String)],
) -> Result<Table, String> {
    let ds = ds.ok_or("`other:` needs a declared dataset (its key columns match the rows)")?;
    let keys: Vec<&str> = ds
        .stored_columns()
        .filter(|c| {
            matches!(
                c.role,
                Role::Provenance | Role::Param | Role::Label | Role::Position
            )
        })
        .map(|c| c.name)
        .filter(|n| table.column(n).is_some())
        .collect();
    let mut changed = Vec::new();
    for (col, source) in other {
        let Some(i) = keys.iter().position(|k| k == col) else {
            return Err(format!(
                "`other.{col}`: not a key column of the dataset; its key columns: {}",
                keys.join(", ")
            ));
        };
        let e = Expr::compile(source, table).map_err(|e| format!("`other.{col}`: {e}"))?;
        changed.push((i, e));
    }
    let bound = changed
        .iter()
        .map(|(i, e)| Ok((*i, e.bind(table).map_err(|e| format!("`other`: {e}"))?)))
        .collect::<Result<Vec<_>, String>>()?;
    let key_of = |row: usize| -> Vec<String> {
        keys.iter()
            .map(|k| {
                table
                    .cell(k, row)
                    .map(|c| c.to_string())
                    .unwrap_or_default()
            })
            .collect()
    };
    let index: HashMap<Vec<String>, usize> = (0..table.rows()).map(|r| (key_of(r), r)).collect();
    let (mut rows, mut matched) = (Vec::new(), Vec::new());
    for r in 0..table.rows() {
        let mut k = key_of(r);
        for (i, b) in &bound {
            k[*i] = b.eval(r).to_string();
        }
        if let Some(&o) = index.get(&k) {
            rows.push(r);
            matched.push(o);
        }
    }
    let mut t = table.take_rows(&rows);
    for (name, v) in table.take_rows(&matched).into_columns() {
        t.push(&format!("other_{name}"), v);
    }
    Ok(t)
}
