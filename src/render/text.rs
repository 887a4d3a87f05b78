//! Reading a stored dataset as the renderer needs it: cell text (a column's
//! declared display, else the generic text), numbers, facets and filters.

use std::collections::HashMap;

use crate::data::{Cell, Dataset, Table, cell_text};

/// A stored dataset and its declaration.
pub struct Data<'a> {
    /// The rows.
    pub t: &'a Table,
    /// Its declaration.
    pub ds: &'a Dataset,
}

impl Data<'_> {
    /// The text of a cell (empty for null).
    pub fn text(&self, col: &str, row: usize) -> String {
        let mut s = String::new();
        cell_text(self.t, col, row, self.ds.column(col), &mut s);
        s
    }
    /// The text of a cell cut to about `max` characters at an item's end,
    /// saying how many items the whole list has (`1:0+5, 2:1+3, … (812 in
    /// all)`): a table's cell of every winning move of a long heap runs to
    /// tens of kilobytes, and a table of them to gigabytes (the dataset
    /// has them all).
    pub fn text_within(&self, col: &str, row: usize, max: usize) -> String {
        let s = self.text(col, row);
        if s.len() <= max {
            return s;
        }
        let mut end = max;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        let head = &s[..end];
        let cut = head
            .rfind("; ")
            .or_else(|| head.rfind(", "))
            .or_else(|| head.rfind(','))
            .or_else(|| head.rfind(' '))
            .unwrap_or(end);
        let all = match self.t.cell(col, row) {
            Some(Cell::IntList(v)) => Some(v.len()),
            Some(Cell::StrList(l, i)) => Some(l.get(i).count()),
            Some(Cell::StructList(l, i)) => Some(l.row_len(i)),
            _ => None,
        };
        match all {
            Some(n) => format!(
                "{}, … ({n} in all)",
                s[..cut].trim_end_matches([',', ';', ' '])
            ),
            None => format!("{}…", &s[..cut]),
        }
    }
    /// A cell as a number, if it is one.
    pub fn num(&self, col: &str, row: usize) -> Option<f64> {
        match self.t.cell(col, row)? {
            Cell::Int(v) => Some(v as f64),
            Cell::Float(v) => Some(v),
            _ => None,
        }
    }
    /// Is the column null on every row?
    pub fn all_null(&self, col: &str) -> bool {
        (0..self.t.rows()).all(|i| matches!(self.t.cell(col, i), Some(Cell::Null) | None))
    }
    /// The rows at these indices, with the same declaration, for a view
    /// that `reads` these columns: of the columns of lists, those alone (a
    /// dataset's winning moves can take gigabytes; a heatmap of its
    /// outcomes reads none of them).
    pub fn rows(&self, rows: &[usize], reads: &[&str]) -> Table {
        self.t.take_rows_of(rows, |c| {
            reads.contains(&c) || self.t.column(c).is_none_or(|v| !v.is_list())
        })
    }
    /// The rows at these indices as a table of their own ([`Data::rows`]),
    /// or `None` when they are every row in order (the data itself, not a
    /// copy of it).
    pub fn subset(&self, rows: &[usize], reads: &[&str]) -> Option<Table> {
        let all = rows.len() == self.t.rows() && rows.iter().enumerate().all(|(i, &r)| i == r);
        (!all).then(|| self.rows(rows, reads))
    }
    /// The data of `sub` ([`Data::subset`]), or this data when it is `None`.
    pub fn on<'b>(&'b self, sub: &'b Option<Table>) -> Data<'b> {
        Data {
            t: sub.as_ref().unwrap_or(self.t),
            ds: self.ds,
        }
    }
    /// Row indices whose columns have the given text (all pairs must hold).
    pub fn filter(&self, filter: &[(&str, &str)]) -> Vec<usize> {
        (0..self.t.rows())
            .filter(|&i| filter.iter().all(|(c, v)| self.text(c, i) == *v))
            .collect()
    }
    /// Rows grouped by a facet column, in order of first appearance.
    pub fn facets(&self, facet: Option<&str>) -> Vec<(Option<String>, Vec<usize>)> {
        let Some(f) = facet else {
            return vec![(None, (0..self.t.rows()).collect())];
        };
        let mut order: Vec<String> = Vec::new();
        let mut groups: HashMap<String, Vec<usize>> = HashMap::new();
        for i in 0..self.t.rows() {
            let k = self.text(f, i);
            if !groups.contains_key(&k) {
                order.push(k.clone());
            }
            groups.entry(k).or_default().push(i);
        }
        order
            .into_iter()
            .map(|k| {
                let rows = groups.remove(&k).unwrap_or_default();
                (Some(k), rows)
            })
            .collect()
    }
    /// Distinct texts of a column in order of appearance, sorted numerically
    /// when the column holds integers.
    pub fn distinct(&self, col: &str) -> Vec<String> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        let mut ints = true;
        for i in 0..self.t.rows() {
            ints &= matches!(self.t.cell(col, i), Some(Cell::Int(_)));
            let s = self.text(col, i);
            if seen.insert(s.clone()) {
                out.push(s);
            }
        }
        if ints {
            out.sort_by_key(|s| s.parse::<i64>().unwrap_or(0));
        }
        out
    }
    /// Distinct values as legend categories: numeric order for integers,
    /// the declared order for a vocabulary, else text order.
    pub fn categories(&self, col: &str) -> Vec<String> {
        let mut v = self.distinct(col);
        if let Some(crate::data::Dtype::Enum(levels)) = self.ds.column(col).map(|c| c.dtype) {
            v.sort_by_key(|s| levels.iter().position(|l| l == s));
        } else if !v.iter().all(|s| s.parse::<i64>().is_ok()) {
            v.sort();
        }
        v
    }
    /// The names the dataset gives the Grundy values, from its `class`
    /// column where it has one (report 000's classes: 0 is N2, 1 is N1, 2
    /// N3, 3 N4, 4 N5, more "beyond N5"), one per value; empty otherwise.
    pub fn class_names(&self, col: &str) -> HashMap<String, String> {
        let mut m = HashMap::new();
        if col != "grundy" || self.t.column("class").is_none() {
            return m;
        }
        for i in 0..self.t.rows() {
            let c = self.text("class", i);
            if !c.is_empty() {
                m.entry(self.text(col, i)).or_insert(c);
            }
        }
        m
    }
    /// Smallest and largest integer of a column ((0, 1) when it has none).
    pub fn int_range(&self, col: &str) -> (i64, i64) {
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        for i in 0..self.t.rows() {
            if let Some(Cell::Int(v)) = self.t.cell(col, i) {
                lo = lo.min(v);
                hi = hi.max(v);
            }
        }
        if lo > hi { (0, 1) } else { (lo, hi) }
    }
}

/// A title with the sweep's title and the facet.
pub fn titled(title: &str, context: &str, facet: Option<&str>) -> String {
    match facet {
        Some(f) => format!("{title} — {context} — {f}"),
        None => format!("{title} — {context}"),
    }
}

/// A file-name-safe suffix for a facet value.
pub fn suffix(name: &str, facet: Option<&str>) -> String {
    match facet {
        None => name.to_string(),
        Some(f) => {
            let clean: String = f
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            format!("{name}-{}", clean.trim_matches('_'))
        }
    }
}

/// A Markdown table cell.
pub fn md_field(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}
