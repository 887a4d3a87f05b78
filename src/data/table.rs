//! A small columnar table: what families produce and what the store, the
//! renderer and the checker read. Typed vectors ([`super::columns`]), no
//! per-row allocation; a label repeated over a case's rows is a dictionary
//! ([`DictVec`]) costing four bytes a row.

use std::fmt;

use super::columns::{DictVec, EnumVec, IntListVec, StrListVec, StrVec, StructListVec};

/// One column's values. Integers are `i64` (Parquet `INT64`), which every
/// reader (Python, R, DuckDB) handles without unsigned-integer surprises.
#[derive(Clone, Debug)]
pub enum Values {
    /// Non-null integers.
    Int(Vec<i64>),
    /// Nullable integers (e.g. `grundy`, null where no Grundy value is defined).
    OptInt(Vec<Option<i64>>),
    /// Booleans.
    Bool(Vec<bool>),
    /// Floats (timings).
    Float(Vec<f64>),
    /// Nullable floats (e.g. a density, null where there is none).
    OptFloat(Vec<Option<f64>>),
    /// Strings (nullable).
    Str(StrVec),
    /// Repeated labels: a dictionary of strings and one code per row.
    Dict(DictVec),
    /// A closed vocabulary.
    Enum(EnumVec),
    /// Lists of integers (nullable).
    IntList(IntListVec),
    /// Lists of strings (nullable).
    StrList(StrListVec),
    /// Lists of structs of integers.
    StructList(StructListVec),
    /// `n` nulls (a nullable column that does not apply to these rows).
    Null(usize),
    /// One row's value (`.0`, a column of one row) repeated `.1` times: a
    /// case's constant (its rule, a label) held once, not once per row.
    /// Reads, compares and appends as the values repeated
    /// ([`Values::expanded`]); writers write it as one run.
    Repeat(Box<Values>, usize),
}

impl PartialEq for Values {
    /// Equal values, however they are held: a [`Values::Repeat`] compares
    /// as its expansion (without expanding when both hold equal values);
    /// otherwise equal when of the same variant with equal contents.
    fn eq(&self, other: &Values) -> bool {
        macro_rules! same_variant {
            ($($v:ident)*) => {
                match (self, other) {
                    (Values::Repeat(a, n), Values::Repeat(b, m)) if n == m && a == b => true,
                    (Values::Repeat(..), _) | (_, Values::Repeat(..)) => {
                        *self.expanded() == *other.expanded()
                    }
                    $((Values::$v(a), Values::$v(b)) => a == b,)*
                    _ => false,
                }
            };
        }
        same_variant!(Int OptInt Bool Float OptFloat Str Dict Enum IntList StrList StructList Null)
    }
}

/// A single cell, for generic readers (renderers, the expression evaluator).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cell<'a> {
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
    /// A float.
    Float(f64),
    /// A string (or a level of a vocabulary).
    Str(&'a str),
    /// A list of integers.
    IntList(&'a [i64]),
    /// A list of strings: row `.1` of the column.
    StrList(&'a StrListVec, usize),
    /// A list of structs: row `.1` of the column.
    StructList(&'a StructListVec, usize),
    /// Null.
    Null,
}

impl fmt::Display for Cell<'_> {
    /// The generic text of a cell: lists as `a, b, c`, structs as `(x,y)`
    /// joined by `; `. A family declares its own text for columns where the
    /// reports print something else ([`super::schema::Column::display`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cell::Int(v) => write!(f, "{v}"),
            Cell::Bool(v) => write!(f, "{v}"),
            Cell::Float(v) => write!(f, "{v}"),
            Cell::Str(v) => write!(f, "{v}"),
            Cell::IntList(v) => write_joined(f, v.iter(), ", "),
            Cell::StrList(l, i) => write_joined(f, l.get(*i), ", "),
            Cell::StructList(l, i) => {
                for k in 0..l.row_len(*i) {
                    if k > 0 {
                        f.write_str("; ")?;
                    }
                    f.write_str("(")?;
                    write_joined(f, l.item(*i, k).iter(), ",")?;
                    f.write_str(")")?;
                }
                Ok(())
            }
            Cell::Null => write!(f, "null"),
        }
    }
}

fn write_joined<T: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    items: impl Iterator<Item = T>,
    sep: &str,
) -> fmt::Result {
    for (k, x) in items.enumerate() {
        if k > 0 {
            f.write_str(sep)?;
        }
        write!(f, "{x}")?;
    }
    Ok(())
}

impl Values {
    /// Number of rows.
    pub fn len(&self) -> usize {
        match self {
            Values::Int(v) => v.len(),
            Values::OptInt(v) => v.len(),
            Values::Bool(v) => v.len(),
            Values::Float(v) => v.len(),
            Values::OptFloat(v) => v.len(),
            Values::Str(v) => v.len(),
            Values::Dict(v) => v.len(),
            Values::Enum(v) => v.len(),
            Values::IntList(v) => v.len(),
            Values::StrList(v) => v.len(),
            Values::StructList(v) => v.len(),
            Values::Null(n) | Values::Repeat(_, n) => *n,
        }
    }
    /// Room for `more` rows, where a row has a fixed width (numbers,
    /// vocabularies' codes): a table read part by part grows once, not by
    /// doubling (a report read 283 MiB of rows with 759 MB
    /// allocated at once).
    fn reserve(&mut self, more: usize) {
        match self {
            Values::Int(v) => v.reserve_exact(more),
            Values::OptInt(v) => v.reserve_exact(more),
            Values::Bool(v) => v.reserve_exact(more),
            Values::Float(v) => v.reserve_exact(more),
            Values::OptFloat(v) => v.reserve_exact(more),
            Values::Dict(v) => v.reserve(more),
            Values::Enum(v) => v.codes.reserve_exact(more),
            _ => {}
        }
    }
    /// Bytes the values hold in memory (not their allocations' spare room).
    pub fn bytes(&self) -> usize {
        match self {
            Values::Int(v) => v.len() * 8,
            Values::OptInt(v) => v.len() * 16,
            Values::Bool(v) => v.len(),
            Values::Float(v) => v.len() * 8,
            Values::OptFloat(v) => v.len() * 16,
            Values::Str(v) => v.bytes(),
            Values::Dict(v) => v.bytes(),
            Values::Enum(v) => v.codes.len(),
            Values::IntList(v) => v.bytes(),
            Values::StrList(v) => v.bytes(),
            Values::StructList(v) => v.bytes(),
            Values::Null(_) => 0,
            Values::Repeat(one, _) => one.bytes(),
        }
    }
    /// Bytes the values take read back from a file, where a value held
    /// once for many rows (a repeated constant, a counting field of
    /// structs) is one per row again; a field of structs of one value,
    /// held once when read back, is counted one per struct too (the
    /// render's figures per byte are measured on this count).
    pub fn read_back_bytes(&self) -> usize {
        match self {
            Values::StructList(v) => v.expanded_bytes(),
            Values::Repeat(one, n) => one.bytes() * n,
            v => v.bytes(),
        }
    }
    /// Is it a column of lists?
    pub fn is_list(&self) -> bool {
        match self {
            Values::IntList(_) | Values::StrList(_) | Values::StructList(_) => true,
            Values::Repeat(one, _) => one.is_list(),
            _ => false,
        }
    }
    /// `n` rows of the value of `one`, a column of one row.
    pub fn repeat(one: Values, n: usize) -> Values {
        debug_assert_eq!(one.len(), 1, "a repeated value is one row");
        debug_assert!(!matches!(one, Values::Repeat(..)));
        Values::Repeat(Box::new(one), n)
    }
    /// The values with a [`Values::Repeat`] held one per row (others as they are).
    pub fn expanded(&self) -> std::borrow::Cow<'_, Values> {
        match self {
            Values::Repeat(one, n) => std::borrow::Cow::Owned(one.take_rows(&vec![0; *n])),
            v => std::borrow::Cow::Borrowed(v),
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
            Values::OptFloat(v) => v[i].map_or(Cell::Null, Cell::Float),
            Values::Str(v) => v.get_opt(i).map_or(Cell::Null, Cell::Str),
            Values::Dict(v) => v.get(i).map_or(Cell::Null, Cell::Str),
            Values::Enum(v) => v.get(i).map_or(Cell::Null, Cell::Str),
            Values::IntList(v) => v.get_opt(i).map_or(Cell::Null, Cell::IntList),
            Values::StrList(v) if v.is_valid(i) => Cell::StrList(v, i),
            Values::StrList(_) => Cell::Null,
            Values::StructList(v) => Cell::StructList(v, i),
            Values::Null(_) => Cell::Null,
            Values::Repeat(one, _) => one.cell(0),
        }
    }
    pub(crate) fn empty_like(&self) -> Values {
        match self {
            Values::Int(_) => Values::Int(vec![]),
            Values::OptInt(_) => Values::OptInt(vec![]),
            Values::Bool(_) => Values::Bool(vec![]),
            Values::Float(_) => Values::Float(vec![]),
            Values::OptFloat(_) => Values::OptFloat(vec![]),
            Values::Str(_) => Values::Str(StrVec::default()),
            Values::Dict(_) => Values::Dict(DictVec::default()),
            Values::Enum(e) => Values::Enum(EnumVec::new(e.levels, 0)),
            Values::IntList(_) => Values::IntList(IntListVec::default()),
            Values::StrList(_) => Values::StrList(StrListVec::default()),
            Values::StructList(s) => Values::StructList(StructListVec::new(s.fields, 0)),
            Values::Null(_) => Values::Null(0),
            Values::Repeat(one, _) => one.empty_like(),
        }
    }
    /// Appends `other`'s rows; false when the types cannot be combined.
    fn append(&mut self, other: &Values) -> bool {
        match (&mut *self, other) {
            (Values::Repeat(a, n), Values::Repeat(b, m)) if a == b => {
                *n += m;
                return true;
            }
            (s @ Values::Repeat(..), o) => {
                let mut v = s.expanded().into_owned();
                if !v.append(o) {
                    return false;
                }
                *s = v;
                return true;
            }
            (s, o @ Values::Repeat(..)) => return s.append(&o.expanded()),
            _ => {}
        }
        match (&mut *self, other) {
            (Values::Null(a), Values::Null(b)) => {
                *a += b;
                return true;
            }
            (Values::Null(n), o) => {
                let Some(mut v) = nulls_like(o, *n) else {
                    return false;
                };
                if !v.append(o) {
                    return false;
                }
                *self = v;
                return true;
            }
            (s, Values::Null(n)) => {
                let Some(v) = nulls_like(s, *n) else {
                    return false;
                };
                return s.append(&v);
            }
            _ => {}
        }
        match (self, other) {
            (Values::Int(a), Values::Int(b)) => a.extend_from_slice(b),
            (Values::OptInt(a), Values::OptInt(b)) => a.extend_from_slice(b),
            (Values::OptInt(a), Values::Int(b)) => a.extend(b.iter().map(|&x| Some(x))),
            (s @ Values::Int(_), Values::OptInt(b)) => {
                let Values::Int(a) = s else { unreachable!() };
                // The room reserved for the rows to come is kept.
                let mut v = Vec::with_capacity(a.capacity().max(a.len() + b.len()));
                v.extend(a.iter().map(|&x| Some(x)));
                v.extend_from_slice(b);
                *s = Values::OptInt(v);
            }
            (Values::Bool(a), Values::Bool(b)) => a.extend_from_slice(b),
            (Values::Float(a), Values::Float(b)) => a.extend_from_slice(b),
            (Values::OptFloat(a), Values::OptFloat(b)) => a.extend_from_slice(b),
            (Values::OptFloat(a), Values::Float(b)) => a.extend(b.iter().map(|&x| Some(x))),
            (s @ Values::Float(_), Values::OptFloat(b)) => {
                let Values::Float(a) = s else { unreachable!() };
                let mut v = Vec::with_capacity(a.capacity().max(a.len() + b.len()));
                v.extend(a.iter().map(|&x| Some(x)));
                v.extend_from_slice(b);
                *s = Values::OptFloat(v);
            }
            (Values::Str(a), Values::Str(b)) => a.extend_from(b),
            (Values::Dict(a), Values::Dict(b)) => a.extend_from(b),
            (Values::Enum(a), Values::Enum(b)) if a.levels == b.levels => {
                a.codes.extend_from_slice(&b.codes)
            }
            (Values::IntList(a), Values::IntList(b)) => a.extend_from(b),
            (Values::StrList(a), Values::StrList(b)) => a.extend_from(b),
            (Values::StructList(a), Values::StructList(b)) if a.fields == b.fields => {
                a.extend_from(b)
            }
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
            Values::OptFloat(v) => Values::OptFloat(rows.iter().map(|&i| v[i]).collect()),
            Values::Str(v) => Values::Str(v.take_rows(rows)),
            Values::Dict(v) => Values::Dict(v.take_rows(rows)),
            Values::Enum(e) => Values::Enum(EnumVec {
                levels: e.levels,
                codes: rows.iter().map(|&i| e.codes[i]).collect(),
            }),
            Values::IntList(v) => Values::IntList(v.take_rows(rows)),
            Values::StrList(v) => Values::StrList(v.take_rows(rows)),
            Values::StructList(v) => Values::StructList(v.take_rows(rows)),
            Values::Null(_) => Values::Null(rows.len()),
            Values::Repeat(one, _) => Values::Repeat(one.clone(), rows.len()),
        }
    }
}

/// `n` nulls in the representation of `like` (`None` for a type without nulls).
fn nulls_like(like: &Values, n: usize) -> Option<Values> {
    Some(match like {
        Values::Int(_) | Values::OptInt(_) => Values::OptInt(vec![None; n]),
        Values::Float(_) | Values::OptFloat(_) => Values::OptFloat(vec![None; n]),
        Values::Str(_) => {
            let mut s = StrVec::default();
            (0..n).for_each(|_| s.push_null());
            Values::Str(s)
        }
        Values::Enum(e) => Values::Enum(EnumVec {
            levels: e.levels,
            codes: vec![EnumVec::NULL; n],
        }),
        Values::IntList(_) => {
            let mut l = IntListVec::default();
            (0..n).for_each(|_| l.push_null());
            Values::IntList(l)
        }
        Values::StrList(_) => {
            let mut l = StrListVec::default();
            (0..n).for_each(|_| l.push_null());
            Values::StrList(l)
        }
        Values::Null(_) => Values::Null(n),
        Values::Repeat(one, _) => return nulls_like(one, n),
        Values::Bool(_) | Values::Dict(_) | Values::StructList(_) => {
            return None;
        }
    })
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
    /// Adds a column holding the same label on every row (a dictionary of
    /// one string).
    pub fn with_label(self, name: &str, label: &str) -> Self {
        let n = self.rows();
        self.with(
            name,
            Values::repeat(Values::Dict(DictVec::repeat(label, 1)), n),
        )
    }
    /// Holds every column that `which` accepts and that is null on every
    /// row as [`Values::Null`] (no storage); its cells read the same.
    pub fn compact_nulls(&mut self, which: impl Fn(&str) -> bool) {
        for (n, v) in &mut self.columns {
            let all_null = match v {
                Values::OptInt(x) => x.iter().all(Option::is_none),
                Values::OptFloat(x) => x.iter().all(Option::is_none),
                Values::Repeat(one, _) => matches!(
                    one.cell(0),
                    Cell::Null if matches!(**one, Values::OptInt(_) | Values::OptFloat(_))
                ),
                _ => false,
            };
            if all_null && which(n) {
                *v = Values::Null(v.len());
            }
        }
    }
    /// Bytes its columns hold in memory ([`Values::bytes`]).
    pub fn bytes(&self) -> usize {
        self.columns().iter().map(|(_, v)| v.bytes()).sum()
    }
    /// Bytes its columns take read back from a file
    /// ([`Values::read_back_bytes`]): the columns of lists, then the others.
    pub fn read_back_bytes(&self) -> [usize; 2] {
        self.columns().iter().fold([0, 0], |[l, o], (_, v)| {
            if v.is_list() {
                [l + v.read_back_bytes(), o]
            } else {
                [l, o + v.read_back_bytes()]
            }
        })
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
    /// An integer cell; `None` if the column does not exist, is not of
    /// integers, or the cell is null.
    pub fn int(&self, name: &str, row: usize) -> Option<i64> {
        match self.cell(name, row)? {
            Cell::Int(v) => Some(v),
            _ => None,
        }
    }
    /// A text cell (a label or a string); `None` otherwise, as [`Table::int`].
    pub fn text(&self, name: &str, row: usize) -> Option<&str> {
        match self.cell(name, row)? {
            Cell::Str(s) => Some(s),
            _ => None,
        }
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
    /// Room for `rows` rows in all in each column of fixed width (see
    /// [`Values::reserve`]): what a table read in parts will hold.
    pub fn reserve_rows(&mut self, rows: usize) {
        let more = rows.saturating_sub(self.rows());
        for (_, v) in &mut self.columns {
            v.reserve(more);
        }
    }
    /// [`Table::append`], taking `other`: a table with no columns becomes
    /// `other` without a copy (a part file read in one batch).
    pub fn append_owned(&mut self, other: Table) -> anyhow::Result<()> {
        if self.columns.is_empty() {
            *self = other;
            return Ok(());
        }
        self.append(&other)
    }
    /// The rows at the given indices, in that order.
    pub fn take_rows(&self, rows: &[usize]) -> Table {
        self.take_rows_of(rows, |_| true)
    }
    /// [`Table::take_rows`] of the columns that `keep` accepts.
    pub fn take_rows_of(&self, rows: &[usize], keep: impl Fn(&str) -> bool) -> Table {
        Table {
            columns: self
                .columns
                .iter()
                .filter(|(n, _)| keep(n))
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

    /// A value held once reads, compares, appends and is cut as the
    /// value repeated; two of them append to one while they agree.
    #[test]
    fn values_held_once() {
        let once = |x: i64, n| Values::repeat(Values::Int(vec![x]), n);
        let t = |v: Values| Table::new().with("x", v);
        let mut a = t(once(7, 2));
        assert_eq!(a.column("x"), Some(&Values::Int(vec![7, 7])));
        assert_ne!(a.column("x"), Some(&Values::Int(vec![7, 8])));
        // Held values compare as their expansions, whichever side holds them.
        assert_eq!(once(7, 2), once(7, 2));
        assert_ne!(once(7, 2), once(7, 3));
        assert_ne!(once(7, 2), once(8, 2));
        assert_eq!(Values::Int(vec![7, 7]), once(7, 2));
        assert_eq!(once(7, 0), once(8, 0));
        assert_eq!(once(7, 0), Values::Int(vec![]));
        assert_ne!(once(7, 1), Values::OptInt(vec![Some(7)]));
        assert_ne!(Values::Int(vec![]), Values::Bool(vec![]));
        assert_eq!((a.rows(), a.int("x", 1)), (2, Some(7)));
        a.append(&t(once(7, 3))).unwrap();
        assert!(matches!(a.column("x"), Some(Values::Repeat(_, 5))));
        a.append(&t(once(4, 1))).unwrap();
        a.append(&t(Values::Null(1))).unwrap();
        let want = [7, 7, 7, 7, 7, 4].map(Some).into_iter().chain([None]);
        assert_eq!(a.column("x"), Some(&Values::OptInt(want.collect())));
        let mut b = t(Values::Int(vec![1]));
        b.append(&t(once(2, 2))).unwrap();
        assert_eq!(b.column("x"), Some(&Values::Int(vec![1, 2, 2])));
        let cut = t(once(9, 4)).take_rows(&[3, 0]);
        assert_eq!(cut.column("x"), Some(&once(9, 2)));
        assert_eq!(cut.empty_like().column("x"), Some(&Values::Int(vec![])));
        let mut nulls = t(Values::repeat(Values::OptInt(vec![None]), 3))
            .with("y", Values::repeat(Values::OptInt(vec![Some(1)]), 3));
        nulls.compact_nulls(|_| true);
        assert_eq!(nulls.column("x"), Some(&Values::Null(3)));
        assert_eq!(nulls.cell("y", 2), Some(Cell::Int(1)));
        let labels = Table::new().with_label("k", "a");
        assert_eq!(labels.rows(), 0);
    }

    #[test]
    fn floats_become_nullable_when_either_side_is() {
        let mut a = Table::new().with("d", Values::Float(vec![0.5]));
        a.append(&Table::new().with("d", Values::Null(1))).unwrap();
        a.append(&Table::new().with("d", Values::OptFloat(vec![Some(0.25)])))
            .unwrap();
        assert_eq!(
            a.column("d"),
            Some(&Values::OptFloat(vec![Some(0.5), None, Some(0.25)]))
        );
        assert_eq!(a.cell("d", 1), Some(Cell::Null));
        assert_eq!(a.take_rows(&[2]).cell("d", 0), Some(Cell::Float(0.25)));
    }

    #[test]
    fn labels_are_dictionaries() {
        let a = || {
            Table::new()
                .with("N", Values::Int(vec![0, 1]))
                .with_label("take", "max:3")
        };
        let mut t = a();
        t.append(&a()).unwrap();
        let b = Table::new()
            .with("N", Values::Int(vec![2]))
            .with_label("take", "max:4");
        t.append(&b).unwrap();
        let Some(Values::Dict(d)) = t.column("take") else {
            panic!("{t:?}")
        };
        assert_eq!(d.levels(), ["max:3", "max:4"]);
        assert_eq!(d.codes(), [0, 0, 0, 0, 1]);
        assert_eq!(t.take_rows(&[4]).cell("take", 0), Some(Cell::Str("max:4")));
    }

    #[test]
    fn null_columns_take_the_type_they_meet() {
        let mut a = Table::new().with("x", Values::Null(2));
        a.append(&Table::new().with("x", Values::Int(vec![5])))
            .unwrap();
        assert_eq!(
            a.column("x"),
            Some(&Values::OptInt(vec![None, None, Some(5)]))
        );
        let mut b = Table::new().with("x", Values::Int(vec![1]));
        b.append(&Table::new().with("x", Values::Null(1))).unwrap();
        assert_eq!(b.column("x"), Some(&Values::OptInt(vec![Some(1), None])));
    }

    #[test]
    fn generic_cell_text() {
        let mut l = IntListVec::default();
        l.push(&[0, 3, 6]);
        assert_eq!(Values::IntList(l).cell(0).to_string(), "0, 3, 6");
        static F: &[&str] = &["a", "b"];
        let mut s = StructListVec::new(F, 1);
        s.push_item(&[1, 2]);
        s.push_item(&[3, 4]);
        s.end_row();
        assert_eq!(Values::StructList(s).cell(0).to_string(), "(1,2); (3,4)");
    }
}
