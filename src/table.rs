//! A small columnar table: what families produce and what renderers and the
//! conjecture checker read. It is deliberately tiny (typed vectors, no
//! per-row allocation for strings) so that solvers never touch polars; the
//! conversion to and from Parquet lives in [`crate::store`].

use std::fmt;

/// One column's values. Integers are `i64` (Parquet `INT64`), which every
/// reader (Python, R, DuckDB) handles without unsigned-integer surprises.
#[derive(Clone, Debug, PartialEq)]
pub enum Values {
    /// Non-null integers.
    Int(Vec<i64>),
    /// Nullable integers (e.g. `grundy`, null where no Grundy value is defined).
    OptInt(Vec<Option<i64>>),
    /// Booleans.
    Bool(Vec<bool>),
    /// Floats (timings).
    Float(Vec<f64>),
    /// Strings, stored back to back.
    Str(StrVec),
}

/// Strings stored in one buffer with end offsets: pushing a row never allocates
/// once the buffers have grown.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StrVec {
    buf: String,
    ends: Vec<usize>,
}

impl StrVec {
    /// An empty column with room for `rows` rows.
    pub fn with_capacity(rows: usize, bytes: usize) -> Self {
        StrVec {
            buf: String::with_capacity(bytes),
            ends: Vec::with_capacity(rows),
        }
    }
    /// Appends one string.
    pub fn push(&mut self, s: &str) {
        self.buf.push_str(s);
        self.ends.push(self.buf.len());
    }
    /// Appends one row built by `f` writing into the buffer (no temporary `String`).
    pub fn push_with(&mut self, f: impl FnOnce(&mut String)) {
        f(&mut self.buf);
        self.ends.push(self.buf.len());
    }
    /// Row `i`.
    pub fn get(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.buf[start..self.ends[i]]
    }
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.ends.len()
    }
    /// True when there are no rows.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
    /// Iterates over the rows.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }
    fn extend_from(&mut self, other: &StrVec) {
        for s in other.iter() {
            self.push(s);
        }
    }
}

impl<'a> FromIterator<&'a str> for StrVec {
    fn from_iter<I: IntoIterator<Item = &'a str>>(iter: I) -> Self {
        let mut v = StrVec::default();
        for s in iter {
            v.push(s);
        }
        v
    }
}

/// A single cell, for generic readers (renderers, the expression evaluator).
#[derive(Clone, Debug, PartialEq)]
pub enum Cell<'a> {
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
    /// A float.
    Float(f64),
    /// A string.
    Str(&'a str),
    /// Null.
    Null,
}

impl fmt::Display for Cell<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cell::Int(v) => write!(f, "{v}"),
            Cell::Bool(v) => write!(f, "{v}"),
            Cell::Float(v) => write!(f, "{v}"),
            Cell::Str(v) => write!(f, "{v}"),
            Cell::Null => write!(f, "null"),
        }
    }
}

impl Values {
    /// Number of rows.
    pub fn len(&self) -> usize {
        match self {
            Values::Int(v) => v.len(),
            Values::OptInt(v) => v.len(),
            Values::Bool(v) => v.len(),
            Values::Float(v) => v.len(),
            Values::Str(v) => v.len(),
        }
    }
    /// True when there are no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Row `i` as a [`Cell`].
    pub fn cell(&self, i: usize) -> Cell<'_> {
        match self {
            Values::Int(v) => Cell::Int(v[i]),
            Values::OptInt(v) => v[i].map_or(Cell::Null, Cell::Int),
            Values::Bool(v) => Cell::Bool(v[i]),
            Values::Float(v) => Cell::Float(v[i]),
            Values::Str(v) => Cell::Str(v.get(i)),
        }
    }
    fn empty_like(&self) -> Values {
        match self {
            Values::Int(_) => Values::Int(vec![]),
            Values::OptInt(_) => Values::OptInt(vec![]),
            Values::Bool(_) => Values::Bool(vec![]),
            Values::Float(_) => Values::Float(vec![]),
            Values::Str(_) => Values::Str(StrVec::default()),
        }
    }
    fn append(&mut self, other: &Values) -> bool {
        match (self, other) {
            (Values::Int(a), Values::Int(b)) => a.extend_from_slice(b),
            (Values::OptInt(a), Values::OptInt(b)) => a.extend_from_slice(b),
            (Values::OptInt(a), Values::Int(b)) => a.extend(b.iter().map(|&x| Some(x))),
            (s @ Values::Int(_), Values::OptInt(b)) => {
                let Values::Int(a) = s else { unreachable!() };
                let mut v: Vec<Option<i64>> = a.iter().map(|&x| Some(x)).collect();
                v.extend_from_slice(b);
                *s = Values::OptInt(v);
            }
            (Values::Bool(a), Values::Bool(b)) => a.extend_from_slice(b),
            (Values::Float(a), Values::Float(b)) => a.extend_from_slice(b),
            (Values::Str(a), Values::Str(b)) => a.extend_from(b),
            _ => return false,
        }
        true
    }
    fn take_rows(&self, rows: &[usize]) -> Values {
        match self {
            Values::Int(v) => Values::Int(rows.iter().map(|&i| v[i]).collect()),
            Values::OptInt(v) => Values::OptInt(rows.iter().map(|&i| v[i]).collect()),
            Values::Bool(v) => Values::Bool(rows.iter().map(|&i| v[i]).collect()),
            Values::Float(v) => Values::Float(rows.iter().map(|&i| v[i]).collect()),
            Values::Str(v) => Values::Str(rows.iter().map(|&i| v.get(i)).collect()),
        }
    }
}

/// Named columns of equal length.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    columns: Vec<(String, Values)>,
}

impl Table {
    /// An empty table with no columns.
    pub fn new() -> Self {
        Table::default()
    }
    /// Adds a column (builder style). Panics if its length differs from the others:
    /// that is a programming error in a family, never a user error.
    pub fn with(mut self, name: &str, values: Values) -> Self {
        self.push(name, values);
        self
    }
    /// Adds a column.
    pub fn push(&mut self, name: &str, values: Values) {
        if let Some((_, first)) = self.columns.first() {
            assert_eq!(
                first.len(),
                values.len(),
                "column {name} has a different length"
            );
        }
        assert!(self.column(name).is_none(), "duplicate column {name}");
        self.columns.push((name.to_string(), values));
    }
    /// Adds a column holding the same integer on every row.
    pub fn with_const_int(self, name: &str, v: i64) -> Self {
        let n = self.rows();
        self.with(name, Values::Int(vec![v; n]))
    }
    /// Adds a column holding the same string on every row.
    pub fn with_const_str(self, name: &str, v: &str) -> Self {
        let n = self.rows();
        let mut s = StrVec::with_capacity(n, n * v.len());
        for _ in 0..n {
            s.push(v);
        }
        self.with(name, Values::Str(s))
    }
    /// Adds a column holding the same boolean on every row.
    pub fn with_const_bool(self, name: &str, v: bool) -> Self {
        let n = self.rows();
        self.with(name, Values::Bool(vec![v; n]))
    }
    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.columns.first().map_or(0, |(_, v)| v.len())
    }
    /// The columns, in order.
    pub fn columns(&self) -> &[(String, Values)] {
        &self.columns
    }
    /// Consumes the table, returning its columns.
    pub fn into_columns(self) -> Vec<(String, Values)> {
        self.columns
    }
    /// Column names, in order.
    pub fn names(&self) -> Vec<&str> {
        self.columns.iter().map(|(n, _)| n.as_str()).collect()
    }
    /// A column by name.
    pub fn column(&self, name: &str) -> Option<&Values> {
        self.columns.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
    /// One cell; `None` if the column does not exist.
    pub fn cell(&self, name: &str, row: usize) -> Option<Cell<'_>> {
        self.column(name).map(|v| v.cell(row))
    }
    /// Appends the rows of `other`, which must have the same column names in the
    /// same order (a table with no columns takes `other`'s). Integer columns
    /// become nullable when either side is.
    pub fn append(&mut self, other: &Table) -> anyhow::Result<()> {
        if self.columns.is_empty() {
            self.columns = other.columns.clone();
            return Ok(());
        }
        if self.names() != other.names() {
            anyhow::bail!(
                "cannot append tables with different columns: [{}] vs [{}]",
                self.names().join(", "),
                other.names().join(", ")
            );
        }
        for ((name, a), (_, b)) in self.columns.iter_mut().zip(&other.columns) {
            if !a.append(b) {
                anyhow::bail!("column {name} has different types in appended tables");
            }
        }
        Ok(())
    }
    /// The rows at the given indices, in that order.
    pub fn take_rows(&self, rows: &[usize]) -> Table {
        Table {
            columns: self
                .columns
                .iter()
                .map(|(n, v)| (n.clone(), v.take_rows(rows)))
                .collect(),
        }
    }
    /// A table with the same columns and no rows.
    pub fn empty_like(&self) -> Table {
        Table {
            columns: self
                .columns
                .iter()
                .map(|(n, v)| (n.clone(), v.empty_like()))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strvec_roundtrip() {
        let v: StrVec = ["", "a", "bc", ""].into_iter().collect();
        assert_eq!(v.iter().collect::<Vec<_>>(), vec!["", "a", "bc", ""]);
    }

    #[test]
    fn append_promotes_to_nullable() {
        let mut a = Table::new().with("x", Values::Int(vec![1, 2]));
        let b = Table::new().with("x", Values::OptInt(vec![None]));
        a.append(&b).unwrap();
        assert_eq!(
            a.column("x"),
            Some(&Values::OptInt(vec![Some(1), Some(2), None]))
        );
        let c = Table::new().with("y", Values::Int(vec![1]));
        assert!(a.append(&c).is_err());
    }
}
