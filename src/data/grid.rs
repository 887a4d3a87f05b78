//! The parameters of a sweep's grid as columns: a family whose spec names
//! its own parameters (`k: 2..15`, `limit: [3, 5]`) gets one nullable
//! integer column per name in every dataset of the experiment, after the
//! declared ones, null on the rows of a sweep without that name. The names
//! come from the specs, so the columns are made once per run and kept for
//! the process (a handful of small declarations, never freed).

use std::sync::{Mutex, PoisonError};

use super::schema::{Column, Dataset, Dtype, Role};
use super::table::{Table, Values};

/// The one meaning of a grid column.
pub const GRID_DOC: &str = "a parameter of the sweep's grid, named as in the spec (null on the rows of a sweep without it)";

/// The column of grid parameter `name`.
pub const fn grid_column(name: &'static str) -> Column {
    Column::new(name, Dtype::Int, Role::Param, GRID_DOC).nullable()
}

impl Column {
    /// Is this the column of a grid parameter ([`grid_column`])?
    pub fn is_grid(&self) -> bool {
        self.role == Role::Param && self.doc == GRID_DOC
    }
}

type Interned = Vec<(usize, Vec<String>, &'static [&'static Dataset])>;

static INTERNED: Mutex<Interned> = Mutex::new(Vec::new());

/// `datasets` with the grid parameters `names` as their last columns (the
/// same declarations when `names` is empty). Asking twice for the same list
/// and names gives the same declarations.
pub fn with_grid(
    datasets: &'static [&'static Dataset],
    names: &[String],
) -> &'static [&'static Dataset] {
    if names.is_empty() {
        return datasets;
    }
    let key = datasets.as_ptr() as usize;
    let mut interned = INTERNED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((_, _, d)) = interned.iter().find(|(k, n, _)| *k == key && n == names) {
        return d;
    }
    let columns: &'static [Column] = names
        .iter()
        .map(|n| grid_column(String::leak(n.clone())))
        .collect::<Vec<_>>()
        .leak();
    let made: &'static [&'static Dataset] = datasets
        .iter()
        .map(|d| {
            let mut groups = d.groups.to_vec();
            groups.push(columns);
            &*Box::leak(Box::new(Dataset {
                name: d.name,
                doc: d.doc,
                groups: groups.leak(),
            }))
        })
        .collect::<Vec<_>>()
        .leak();
    interned.push((key, names.to_vec(), made));
    made
}

/// `ds` as `declared` (from [`with_grid`]) declares it: the dataset of the
/// same name, with the grid's columns; `ds` itself if it is not there.
pub fn as_declared(declared: &[&'static Dataset], ds: &'static Dataset) -> &'static Dataset {
    declared
        .iter()
        .copied()
        .find(|d| d.name == ds.name)
        .unwrap_or(ds)
}

impl Dataset {
    /// A case's table with a null column for each grid parameter it lacks
    /// (the parameters of the experiment's other sweeps).
    pub fn complete(&self, mut t: Table) -> Table {
        let rows = t.rows();
        for c in self.columns().filter(|c| c.is_grid()) {
            if t.column(c.name).is_none() {
                t.push(c.name, Values::Null(rows));
            }
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static A: &[Column] = &[Column::new("N", Dtype::Int, Role::Position, "heap size")];
    static DS: Dataset = Dataset {
        name: "d",
        doc: "",
        groups: &[A],
    };
    static LIST: &[&Dataset] = &[&DS];

    #[test]
    fn grid_columns_follow_the_declared_ones_and_are_interned() {
        let names = vec!["limit".to_string(), "j".to_string()];
        let d = with_grid(LIST, &names);
        let cols: Vec<&str> = d[0].columns().map(|c| c.name).collect();
        assert_eq!(cols, ["N", "limit", "j"]);
        assert!(d[0].column("limit").unwrap().is_grid());
        assert!(!d[0].column("N").unwrap().is_grid());
        assert!(std::ptr::eq(d, with_grid(LIST, &names)));
        assert!(std::ptr::eq(with_grid(LIST, &[]), LIST));
    }

    #[test]
    fn a_sweep_without_a_parameter_gets_nulls() {
        let d = with_grid(LIST, &["q".to_string()]);
        let t = Table::new().with("N", Values::Int(vec![1, 2]));
        assert!(d[0].validate(&t).is_err());
        let t = d[0].complete(t);
        assert_eq!(t.column("q"), Some(&Values::Null(2)));
        assert_eq!(d[0].validate(&t), Ok(()));
    }
}
