//! `other:` — a claim about two rows of one dataset. Each row is matched with
//! the row whose key columns (declared parameters, labels, positions and
//! provenance) equal its own, except those `other:` recomputes from the row;
//! the claim reads the matched row's columns as `other_<column>`. A row
//! without a match is out of the claim's scope.

use std::collections::HashMap;

use crate::data::{Cell, Dataset, Role, Table};
use crate::expr::Expr;

/// Where a row's recomputed key leads.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Target {
    /// A recomputed value is null.
    Null,
    /// The row with that key.
    Row(usize),
    /// No row has that key: the recomputed values, as `N1 = 4, N3 = 2`.
    Outside(String),
}

/// For each row of `table`: the row whose key columns (declared
/// parameters, labels, positions and provenance) equal its own with the
/// columns of `changed` recomputed from the row. `field` names the claim's
/// field in errors (`other`, `strategy`).
pub(super) fn targets(
    table: &Table,
    ds: Option<&Dataset>,
    changed: &[(String, String)],
    field: &str,
) -> Result<Vec<Target>, String> {
    let ds = ds.ok_or_else(|| {
        format!("`{field}:` needs a declared dataset (its key columns match the rows)")
    })?;
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
    let mut compiled = Vec::new();
    for (col, source) in changed {
        let Some(i) = keys.iter().position(|k| k == col) else {
            return Err(format!(
                "`{field}.{col}`: not a key column of the dataset; its key columns: {}",
                keys.join(", ")
            ));
        };
        let e = Expr::compile(source, table).map_err(|e| format!("`{field}.{col}`: {e}"))?;
        compiled.push((i, e));
    }
    let bound = compiled
        .iter()
        .map(|(i, e)| Ok((*i, e.bind(table).map_err(|e| format!("`{field}`: {e}"))?)))
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
    let index = KeyIndex::new(table.rows(), &key_of);
    Ok((0..table.rows())
        .map(|r| {
            let mut k = key_of(r);
            for (i, b) in &bound {
                let v = b.eval(r);
                // `other:` looks a null up as it is written (a key may be null).
                if matches!(v, Cell::Null) && field != "other" {
                    return Target::Null;
                }
                k[*i] = v.to_string();
            }
            match index.get(&k, &key_of) {
                Some(o) => Target::Row(o),
                None => Target::Outside(
                    bound
                        .iter()
                        .map(|(i, _)| format!("{} = {}", keys[*i], k[*i]))
                        .collect::<Vec<_>>()
                        .join(", "),
                ),
            }
        })
        .collect())
}

/// The rows of a table by their key: a hash of the key's cells to a row,
/// each candidate checked against the key itself. It holds 16 bytes a row
/// where a map of the keys' text held a few hundred (540 MB for report
/// 001's 1.6 million outcome rows). As a map of keys, the last row of a
/// repeated key is the one found.
struct KeyIndex {
    /// The key's hash → the last row with it.
    first: HashMap<u64, usize>,
    /// Rows whose key has the hash of another key (rare): by hash.
    more: HashMap<u64, Vec<usize>>,
}

fn key_hash(key: &[String]) -> u64 {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    for k in key {
        h.update(k.as_bytes());
        h.update(&[0]);
    }
    h.digest()
}

impl KeyIndex {
    fn new(rows: usize, key_of: &dyn Fn(usize) -> Vec<String>) -> Self {
        let mut ix = KeyIndex {
            first: HashMap::with_capacity(rows),
            more: HashMap::new(),
        };
        for r in 0..rows {
            let key = key_of(r);
            let h = key_hash(&key);
            match ix.first.get(&h) {
                Some(&o) if key_of(o) != key => {
                    let same = ix.more.entry(h).or_default();
                    match same.iter().position(|&m| key_of(m) == key) {
                        Some(i) => same[i] = r,
                        None => same.push(r),
                    }
                }
                _ => {
                    ix.first.insert(h, r);
                }
            }
        }
        ix
    }
    /// The row with key `key`.
    fn get(&self, key: &[String], key_of: &dyn Fn(usize) -> Vec<String>) -> Option<usize> {
        let h = key_hash(key);
        let o = *self.first.get(&h)?;
        if key_of(o) == key {
            return Some(o);
        }
        self.more
            .get(&h)?
            .iter()
            .copied()
            .find(|&m| key_of(m) == key)
    }
}

/// The rows of `table` that have a matched row, with the matched row's
/// columns appended as `other_<column>`.
pub fn with_other_rows(
    table: &Table,
    ds: Option<&Dataset>,
    other: &[(String, String)],
) -> Result<Table, String> {
    let (mut rows, mut matched) = (Vec::new(), Vec::new());
    for (r, t) in targets(table, ds, other, "other")?.into_iter().enumerate() {
        if let Target::Row(o) = t {
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
