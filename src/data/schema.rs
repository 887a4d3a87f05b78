//! Datasets declared once: each family states, for every dataset it writes,
//! its columns with their types, a one-line meaning, and the role the rest of
//! nimlab reads (the checker's keys, the report's formulas, the fitted
//! two-heap forms). Nothing outside a family names that family's columns.

use std::fmt::Write as _;

use super::table::{Cell, Table, Values};

/// How a family writes the text of a cell where the generic text of
/// [`super::Cell`] is not what the reports print (e.g. winning moves `A3,B4`).
pub type Display = fn(&Table, usize, &mut String);

/// A column's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dtype {
    /// 64-bit integer.
    Int,
    /// 64-bit float (timings only).
    Float,
    /// Boolean.
    Bool,
    /// Free text.
    Str,
    /// A label repeated over many rows (a rule, a board name): text stored
    /// as a dictionary (Parquet dictionary encoding; a categorical for readers).
    Cat,
    /// A closed vocabulary, in this order (a categorical for readers).
    Enum(&'static [&'static str]),
    /// A list of integers.
    IntList,
    /// A list of strings.
    StrList,
    /// A list of structs with these integer fields.
    StructList(&'static [&'static str]),
}

impl Dtype {
    /// Is it a list (of integers, strings or structs)?
    pub fn is_list(self) -> bool {
        matches!(self, Dtype::IntList | Dtype::StrList | Dtype::StructList(_))
    }
    /// The type as the data docs write it.
    pub fn doc(self) -> String {
        match self {
            Dtype::Int => "Int64".into(),
            Dtype::Float => "Float64".into(),
            Dtype::Bool => "Boolean".into(),
            Dtype::Str => "String".into(),
            Dtype::Cat => "Categorical".into(),
            Dtype::Enum(l) => format!("Enum({})", l.join(", ")),
            Dtype::IntList => "List(Int64)".into(),
            Dtype::StrList => "List(String)".into(),
            Dtype::StructList(f) => format!(
                "List(Struct({}))",
                f.iter()
                    .map(|x| format!("{x}: Int64"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

/// What a column is for: the rest of nimlab reads roles, never names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Which experiment and sweep a row comes from (added by the store).
    Provenance,
    /// A parameter of the case (rule, board, take set…).
    Param,
    /// A human label naming the case; it states its parameters, which are
    /// then left out of a counterexample's key.
    Label,
    /// A coordinate of the position within its case (a heap size, a pile,
    /// a hand): with the labels, the key of a row.
    Position,
    /// `P` or `N`: who wins from the position.
    Outcome,
    /// A computed value.
    Result,
    /// A closed form proposed from the data (shown by the report).
    ClosedForm,
    /// A wall-clock measurement: differs between runs, never compared.
    Timing,
}

impl Role {
    /// The role's name in the data docs.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Provenance => "provenance",
            Role::Param => "parameter",
            Role::Label => "label",
            Role::Position => "position",
            Role::Outcome => "outcome",
            Role::Result => "result",
            Role::ClosedForm => "closed form",
            Role::Timing => "timing",
        }
    }
}

/// One declared column.
#[derive(Clone, Copy, Debug)]
pub struct Column {
    /// Name (one meaning across all families).
    pub name: &'static str,
    /// Type.
    pub dtype: Dtype,
    /// May it hold nulls?
    pub nullable: bool,
    /// Role.
    pub role: Role,
    /// One line: what it means.
    pub doc: &'static str,
    /// The family's own cell text, where the generic one is not right.
    pub display: Option<Display>,
    /// How the family computes it from other columns, where it does.
    pub derived: Option<Derivation>,
}

/// A column the family computes from other columns of the same dataset (its
/// own definition, e.g. a class read from the Grundy value): a row whose
/// column disagrees with its sources contradicts the family. The checker reads
/// this to tell a claim the data could refute from one true by construction.
#[derive(Clone, Copy, Debug)]
pub struct Derivation {
    /// The columns it is computed from; the definition applies on a row where
    /// none of them is null.
    pub sources: &'static [&'static str],
    /// The definition in words, `the Nim-sum of left_grundy`.
    pub how: &'static str,
    /// Computed over other rows too (a board's value as the mex of its
    /// moves' rows), not from the same row's columns alone: a relation the
    /// solver computed, not a definition, so a claim reading it is not true
    /// by construction.
    pub over_rows: bool,
}

impl Column {
    /// A non-null column.
    pub const fn new(name: &'static str, dtype: Dtype, role: Role, doc: &'static str) -> Column {
        Column {
            name,
            dtype,
            nullable: false,
            role,
            doc,
            display: None,
            derived: None,
        }
    }
    /// The same column, allowing nulls.
    pub const fn nullable(mut self) -> Column {
        self.nullable = true;
        self
    }
    /// The same column, with the family's own cell text.
    pub const fn display(mut self, f: Display) -> Column {
        self.display = Some(f);
        self
    }
    /// The same column, computed from `sources` as `how` says.
    pub const fn derived(mut self, sources: &'static [&'static str], how: &'static str) -> Column {
        self.derived = Some(Derivation {
            sources,
            how,
            over_rows: false,
        });
        self
    }
    /// The same column, computed from `sources` of this row and of other
    /// rows as `how` says (e.g. a mex over the board's rows): documented,
    /// but no definition a claim could be true by.
    pub const fn derived_over_rows(
        mut self,
        sources: &'static [&'static str],
        how: &'static str,
    ) -> Column {
        self.derived = Some(Derivation {
            sources,
            how,
            over_rows: true,
        });
        self
    }
    /// Does a column of values match this declaration? `Err` says how not.
    pub fn check(&self, v: &Values) -> Result<(), String> {
        if let Values::Repeat(one, n) = v {
            // Nulls repeated no time are no nulls.
            return match *n {
                0 => self.check(&one.empty_like()),
                _ => self.check(one),
            };
        }
        let nulls = match v {
            Values::Null(n) => *n > 0,
            Values::OptInt(x) => x.iter().any(Option::is_none),
            Values::OptFloat(x) => x.iter().any(Option::is_none),
            Values::Str(x) => x.has_nulls(),
            Values::Enum(e) => e.codes.iter().any(|&c| c as usize >= e.levels.len()),
            Values::IntList(x) => x.has_nulls(),
            Values::StrList(x) => x.has_nulls(),
            _ => false,
        };
        if nulls && !self.nullable {
            return Err(format!(
                "column {} holds nulls but is declared non-null",
                self.name
            ));
        }
        let ok = match (self.dtype, v) {
            (_, Values::Null(_)) => true,
            (Dtype::Int, Values::Int(_) | Values::OptInt(_)) => true,
            (Dtype::Float, Values::Float(_) | Values::OptFloat(_)) => true,
            (Dtype::Bool, Values::Bool(_)) => true,
            (Dtype::Str, Values::Str(_)) => true,
            (Dtype::Cat, Values::Dict(_) | Values::Str(_)) => true,
            (Dtype::Enum(l), Values::Enum(e)) => l == e.levels,
            (Dtype::IntList, Values::IntList(_)) => true,
            (Dtype::StrList, Values::StrList(_)) => true,
            (Dtype::StructList(f), Values::StructList(s)) => f == s.fields,
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "column {} is declared {} but holds {}",
                self.name,
                self.dtype.doc(),
                kind(v)
            ))
        }
    }
}

fn kind(v: &Values) -> &'static str {
    match v {
        Values::Int(_) => "integers",
        Values::OptInt(_) => "nullable integers",
        Values::Bool(_) => "booleans",
        Values::Float(_) => "floats",
        Values::OptFloat(_) => "nullable floats",
        Values::Str(_) => "strings",
        Values::Dict(_) => "labels (a dictionary)",
        Values::Enum(_) => "a vocabulary with other levels",
        Values::IntList(_) => "lists of integers",
        Values::StrList(_) => "lists of strings",
        Values::StructList(_) => "lists of structs with other fields",
        Values::Null(_) => "nulls",
        Values::Repeat(one, _) => kind(one),
    }
}

/// One declared dataset: a name (a folder under `data/<family>/`), what a
/// row is, and its columns, composed of groups shared between datasets.
#[derive(Debug)]
pub struct Dataset {
    /// Name, unique within its family.
    pub name: &'static str,
    /// One line: what a row is.
    pub doc: &'static str,
    /// Column groups, in order (e.g. the rule's columns, then the results).
    pub groups: &'static [&'static [Column]],
}

/// No values, of the kind the store reads for a column of type `d`.
fn empty_values(d: Dtype) -> Values {
    use super::columns::{DictVec, EnumVec, StructListVec};
    match d {
        Dtype::Int => Values::Int(Vec::new()),
        Dtype::Float => Values::Float(Vec::new()),
        Dtype::Bool => Values::Bool(Vec::new()),
        Dtype::Str => Values::Str(Default::default()),
        Dtype::Cat => Values::Dict(DictVec::default()),
        Dtype::Enum(levels) => Values::Enum(EnumVec::new(levels, 0)),
        Dtype::IntList => Values::IntList(Default::default()),
        Dtype::StrList => Values::StrList(Default::default()),
        Dtype::StructList(fields) => Values::StructList(StructListVec::new(fields, 0)),
    }
}

/// The name of `candidates` nearest to `word` (a misspelling: equal but for
/// case, or, for a word of three letters or more, at most a third of its
/// letters edited), if any.
pub fn nearest_name<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    if let Some(c) = candidates.iter().find(|c| c.eq_ignore_ascii_case(word)) {
        return Some(c);
    }
    let limit = word.chars().count() / 3;
    if limit == 0 {
        return None;
    }
    candidates
        .iter()
        .map(|c| (edit_distance(&word.to_lowercase(), &c.to_lowercase()), *c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Levenshtein distance (insertions, deletions, substitutions), by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (diag + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// The columns the store puts first in every file: a row says which
/// experiment and sweep it belongs to.
pub static PROVENANCE: &[Column] = &[
    Column::new(
        "experiment",
        Dtype::Cat,
        Role::Provenance,
        "the experiment (the spec's `experiment:`, default its file name)",
    ),
    Column::new("sweep", Dtype::Cat, Role::Provenance, "the sweep's `name:`"),
];

impl Dataset {
    /// Every column a family writes, in order (without [`PROVENANCE`]).
    pub fn columns(&self) -> impl Iterator<Item = &'static Column> + '_ {
        self.groups.iter().flat_map(|g| g.iter())
    }
    /// Every column in a stored file: [`PROVENANCE`], then the family's.
    pub fn stored_columns(&self) -> impl Iterator<Item = &'static Column> + '_ {
        PROVENANCE.iter().chain(self.columns())
    }
    /// A column by name (provenance included).
    pub fn column(&self, name: &str) -> Option<&'static Column> {
        self.stored_columns().find(|c| c.name == name)
    }
    /// The columns with a role, in order.
    pub fn with_role(&self, role: Role) -> Vec<&'static Column> {
        self.stored_columns().filter(|c| c.role == role).collect()
    }
    /// Checks a case's table: exactly the declared columns (any order), each
    /// of its declared type and nullability.
    pub fn validate(&self, t: &Table) -> Result<(), String> {
        for (name, v) in t.columns() {
            let c = self
                .columns()
                .find(|c| c.name == name)
                .ok_or_else(|| format!("dataset {}: column {name} is not declared", self.name))?;
            c.check(v)
                .map_err(|e| format!("dataset {}: {e}", self.name))?;
        }
        for c in self.columns() {
            if t.column(c.name).is_none() {
                return Err(format!(
                    "dataset {}: declared column {} is missing",
                    self.name, c.name
                ));
            }
        }
        Ok(())
    }
    /// The loss set's plane of `t`, when its rows are points of one: the
    /// two integer position columns filled on every row, and the outcome
    /// column (what the report fits simple forms to; a dataset of one heap
    /// with nullable columns for more is no plane).
    pub fn plane(&self, t: &Table) -> Option<(&'static str, &'static str, &'static str)> {
        let outcome = self.with_role(Role::Outcome).first()?.name;
        match self.filled_positions(t)[..] {
            [x, y] => Some((x, y, outcome)),
            _ => None,
        }
    }
    /// Could a table whose first rows are `head` be a plane ([`Dataset::plane`])?
    /// Two integer position columns at least filled on every row of it (a
    /// column filled on every row of the table is on the head's; the head
    /// of three heaps' rows before two heaps' fills three).
    /// Three columns declared never null fill every row: no plane (rows
    /// keyed by a pile and two parities, never null, were read whole, 514
    /// MB, to find that).
    pub fn may_be_plane(&self, head: &Table) -> bool {
        let filled = self.filled_positions(head);
        let always = filled
            .iter()
            .filter(|&&c| self.column(c).is_some_and(|c| !c.nullable))
            .count();
        !self.with_role(Role::Outcome).is_empty() && filled.len() >= 2 && always <= 2
    }
    /// The integer position columns filled on every row of `t`.
    fn filled_positions(&self, t: &Table) -> Vec<&'static str> {
        self.with_role(Role::Position)
            .into_iter()
            .filter(|c| c.dtype == Dtype::Int)
            .filter(|c| (0..t.rows()).all(|i| matches!(t.cell(c.name, i), Some(Cell::Int(_)))))
            .map(|c| c.name)
            .collect()
    }
    /// A table with no rows and every stored column (provenance included),
    /// each of the kind the store reads back for its declared type: what a
    /// claim is type-checked against before anything is solved.
    pub fn empty_table(&self) -> Table {
        let mut t = Table::new();
        for c in self.stored_columns() {
            t.push(c.name, empty_values(c.dtype));
        }
        t
    }
    /// About how many bytes a stored row takes in memory before it is
    /// written (the table's columns; a list counted with four items), for
    /// the writer's share of the memory estimate.
    pub fn row_bytes(&self) -> u64 {
        self.stored_columns()
            .map(|c| match c.dtype {
                Dtype::Int | Dtype::Float => 9,
                Dtype::Bool | Dtype::Enum(_) => 1,
                Dtype::Cat => 4,
                Dtype::Str => 32,
                Dtype::IntList => 8 + 4 * 8,
                Dtype::StrList => 8 + 4 * 24,
                Dtype::StructList(f) => 8 + 4 * 8 * f.len() as u64,
            })
            .sum()
    }
    /// The dataset's columns as a Markdown table (for the data docs).
    pub fn markdown(&self) -> String {
        let mut s = String::from("| column | type | role | meaning |\n|---|---|---|---|\n");
        for c in self.columns() {
            let _ = writeln!(
                s,
                "| `{}` | {}{} | {} | {} |",
                c.name,
                c.dtype.doc(),
                if c.nullable { ", nullable" } else { "" },
                c.role.as_str(),
                derived_doc(c).replace('|', "\\|")
            );
        }
        s
    }
}

/// A column's meaning, with how it is computed from other columns where it is.
fn derived_doc(c: &Column) -> String {
    match c.derived {
        Some(d) => format!(
            "{} (computed from {}: {})",
            c.doc,
            d.sources
                .iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", "),
            d.how
        ),
        None => c.doc.to_string(),
    }
}

/// The text of a cell as a reader of tables expects it: the column's own
/// display where declared, the generic text otherwise (`""` for null).
pub fn cell_text(t: &Table, col: &str, row: usize, decl: Option<&Column>, out: &mut String) {
    if let Some(f) = decl.and_then(|c| c.display) {
        f(t, row, out);
        return;
    }
    match t.cell(col, row) {
        Some(super::Cell::Null) | None => {}
        Some(c) => {
            let _ = write!(out, "{c}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::columns::StrVec;

    static L: &[&str] = &["P", "N"];
    static COLS: &[Column] = &[
        Column::new("N", Dtype::Int, Role::Position, "heap size"),
        Column::new("outcome", Dtype::Enum(L), Role::Outcome, "P or N"),
        Column::new("grundy", Dtype::Int, Role::Result, "Grundy value").nullable(),
    ];
    static DS: Dataset = Dataset {
        name: "positions",
        doc: "one row per position",
        groups: &[COLS],
    };

    fn good() -> Table {
        let mut e = crate::data::EnumVec::new(L, 2);
        e.push(0);
        e.push(1);
        Table::new()
            .with("N", Values::Int(vec![0, 1]))
            .with("outcome", Values::Enum(e))
            .with("grundy", Values::OptInt(vec![Some(0), None]))
    }

    static HEAPS: &[Column] = &[
        Column::new("N1", Dtype::Int, Role::Position, "heap 1"),
        Column::new("N2", Dtype::Int, Role::Position, "heap 2").nullable(),
        Column::new("N3", Dtype::Int, Role::Position, "heap 3").nullable(),
        Column::new("outcome", Dtype::Enum(L), Role::Outcome, "P or N"),
    ];
    static PLANES: Dataset = Dataset {
        name: "positions",
        doc: "one row per position",
        groups: &[HEAPS],
    };

    /// Rows of heaps `n1`, `n2`, `n3` (none: an absent heap).
    fn heaps(rows: &[(i64, Option<i64>, Option<i64>)]) -> Table {
        let mut e = crate::data::EnumVec::new(L, rows.len());
        rows.iter().for_each(|_| e.push(0));
        Table::new()
            .with("N1", Values::Int(rows.iter().map(|r| r.0).collect()))
            .with("N2", Values::OptInt(rows.iter().map(|r| r.1).collect()))
            .with("N3", Values::OptInt(rows.iter().map(|r| r.2).collect()))
            .with("outcome", Values::Enum(e))
    }

    /// A plane is two integer position columns filled on every row; its
    /// first rows may fill a third (three heaps' rows before two heaps'),
    /// so they are judged only as "may be one", by at least two.
    #[test]
    fn a_plane_and_what_its_head_may_say() {
        let two = heaps(&[(0, Some(1), None), (2, Some(3), None)]);
        assert_eq!(PLANES.plane(&two), Some(("N1", "N2", "outcome")));
        let three_then_two = heaps(&[(0, Some(1), Some(2)), (2, Some(3), None)]);
        assert_eq!(PLANES.plane(&three_then_two), Some(("N1", "N2", "outcome")));
        let head = heaps(&[(0, Some(1), Some(2))]);
        assert_eq!(PLANES.plane(&head), None);
        assert!(PLANES.may_be_plane(&head));
        let one = heaps(&[(0, None, None), (1, None, None)]);
        assert_eq!(PLANES.plane(&one), None);
        assert!(!PLANES.may_be_plane(&one));
        assert!(!DS.may_be_plane(&good()));
        // Three columns never null: no row leaves one out.
        static THREE: Dataset = Dataset {
            name: "outcomes",
            doc: "one row per position",
            groups: &[&[
                Column::new("r", Dtype::Int, Role::Position, "pile"),
                Column::new("a", Dtype::Int, Role::Position, "a hand"),
                Column::new("b", Dtype::Int, Role::Position, "b hand"),
                Column::new("outcome", Dtype::Enum(L), Role::Outcome, "P or N"),
            ]],
        };
        let mut e = crate::data::EnumVec::new(L, 1);
        e.push(0);
        let full = Table::new()
            .with("r", Values::Int(vec![1]))
            .with("a", Values::Int(vec![0]))
            .with("b", Values::Int(vec![1]))
            .with("outcome", Values::Enum(e));
        assert!(!THREE.may_be_plane(&full));
    }

    #[test]
    fn a_declared_table_validates() {
        assert_eq!(DS.validate(&good()), Ok(()));
        assert_eq!(DS.with_role(Role::Position)[0].name, "N");
        assert_eq!(DS.stored_columns().next().unwrap().name, "experiment");
    }

    #[test]
    fn undeclared_missing_or_mistyped_columns_fail() {
        let t = good().with("extra", Values::Int(vec![1, 2]));
        assert!(
            DS.validate(&t)
                .unwrap_err()
                .contains("extra is not declared")
        );
        let t = Table::new()
            .with("N", Values::Int(vec![0]))
            .with("grundy", Values::OptInt(vec![None]));
        assert!(DS.validate(&t).unwrap_err().contains("outcome is missing"));
        let mut t = good();
        t = Table::new()
            .with("N", Values::Str(["0", "1"].into_iter().collect::<StrVec>()))
            .with("outcome", t.column("outcome").unwrap().clone())
            .with("grundy", Values::OptInt(vec![None, None]));
        assert!(DS.validate(&t).unwrap_err().contains("declared Int64"));
    }

    #[test]
    fn nulls_only_where_declared() {
        let t = Table::new()
            .with("N", Values::OptInt(vec![Some(0), None]))
            .with("outcome", good().column("outcome").unwrap().clone())
            .with("grundy", Values::OptInt(vec![None, None]));
        assert!(DS.validate(&t).unwrap_err().contains("holds nulls"));
    }

    #[test]
    fn the_empty_table_has_every_stored_column_of_its_declared_type() {
        let t = DS.empty_table();
        assert_eq!(t.rows(), 0);
        assert_eq!(t.names(), ["experiment", "sweep", "N", "outcome", "grundy"]);
        for c in DS.stored_columns() {
            assert_eq!(c.check(t.column(c.name).unwrap()), Ok(()), "{}", c.name);
        }
    }

    #[test]
    fn the_nearest_name_is_a_small_edit_away() {
        let names = ["take_max", "take_min", "N", "outcome"];
        assert_eq!(nearest_name("takemax", &names), Some("take_max"));
        assert_eq!(nearest_name("Outcome", &names), Some("outcome"));
        assert_eq!(nearest_name("outcom", &names), Some("outcome"));
        assert_eq!(nearest_name("n", &names), Some("N"));
        assert_eq!(nearest_name("grundy", &names), None);
        assert_eq!(nearest_name("M", &names), None);
        assert_eq!(nearest_name("k", &names), None);
    }
}
