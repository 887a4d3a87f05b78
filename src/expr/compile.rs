//! Type checking and compilation of an [`Ast`] against a table's columns, and
//! the row-by-row evaluator.
//!
//! Compilation resolves every column name to a slot once and checks every
//! operator's operand types (errors name the operator and point at it), so
//! evaluation is a walk over a small typed tree with `Copy` values: no
//! allocation and no name lookup per row. List values borrow their column
//! (a slice of an [`IntListVec`], a field of a [`StructListVec`], a row of a
//! [`StrListVec`]) or the compiled literal; `sorted(l)` is a view sorted only
//! where order matters (comparing, displaying), in a stack buffer for lists
//! of up to [`STACK_ITEMS`] items and a heap buffer beyond.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::parse::{self, Ast, BinOp, ExprError, Span};
use crate::data::{
    Cell, DictVec, EnumVec, IntListVec, StrListVec, StrVec, StructListVec, Table, Values,
};

/// The static type of an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// 64-bit integer.
    Int,
    /// 64-bit float.
    Float,
    /// Boolean.
    Bool,
    /// String.
    Str,
    /// The literal `null` (no type of its own).
    Null,
    /// A list of integers (a list column, a field of a column of structs,
    /// `[1, 2]`).
    IntList,
    /// A list of strings.
    StrList,
    /// The empty list `[]` (a list of integers or of strings).
    EmptyList,
}

impl Ty {
    fn name(self) -> &'static str {
        match self {
            Ty::Int => "an integer",
            Ty::Float => "a float",
            Ty::Bool => "a boolean",
            Ty::Str => "a string",
            Ty::Null => "null",
            Ty::IntList => "a list of integers",
            Ty::StrList => "a list of strings",
            Ty::EmptyList => "an empty list",
        }
    }
    fn is_list(self) -> bool {
        matches!(self, Ty::IntList | Ty::StrList | Ty::EmptyList)
    }
    /// The type of a list's items (`Null` for `[]`, whose items may be anything).
    fn item(self) -> Ty {
        match self {
            Ty::IntList => Ty::Int,
            Ty::StrList => Ty::Str,
            _ => Ty::Null,
        }
    }
    fn numeric(self) -> bool {
        matches!(self, Ty::Int | Ty::Float | Ty::Null)
    }
    fn boolish(self) -> bool {
        matches!(self, Ty::Bool | Ty::Null)
    }
    fn of(v: &Values) -> Ty {
        match v {
            Values::Int(_) | Values::OptInt(_) => Ty::Int,
            Values::Bool(_) => Ty::Bool,
            Values::Float(_) | Values::OptFloat(_) => Ty::Float,
            Values::Str(_) | Values::Dict(_) | Values::Enum(_) => Ty::Str,
            Values::IntList(_) => Ty::IntList,
            Values::StrList(_) => Ty::StrList,
            // Not a value: reached through its fields (`Compiler::column`).
            Values::StructList(_) => Ty::Null,
            Values::Null(_) => Ty::Null,
            Values::Repeat(one, _) => Ty::of(one),
        }
    }
}

/// A runtime value: `Copy`, borrowing strings and lists from the table or
/// the program.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum V<'a> {
    Null,
    Int(i64),
    Float(f64),
    Bool(bool),
    Str(&'a str),
    /// A list of integers, in order.
    Ints(&'a [i64]),
    /// A list of strings: row `.1` of a column (or of a literal's one-row column).
    Strs(&'a StrListVec, usize),
    /// `sorted(l)` of a list of integers: these items, read in increasing order.
    SortedInts(&'a [i64]),
    /// `sorted(l)` of a list of strings.
    SortedStrs(&'a StrListVec, usize),
}

impl<'a> V<'a> {
    fn f64(self) -> Option<f64> {
        match self {
            V::Int(v) => Some(v as f64),
            V::Float(v) => Some(v),
            _ => None,
        }
    }
    /// The value as a cell; a sorted view that is not already in order is
    /// sorted into `kept`.
    pub(crate) fn cell(self, kept: &'a Kept) -> Cell<'a> {
        match self {
            V::Null => Cell::Null,
            V::Int(v) => Cell::Int(v),
            V::Float(v) => Cell::Float(v),
            V::Bool(v) => Cell::Bool(v),
            V::Str(v) => Cell::Str(v),
            V::Ints(v) => Cell::IntList(v),
            V::SortedInts(v) if v.is_sorted() => Cell::IntList(v),
            V::SortedInts(v) => {
                let mut v = v.to_vec();
                v.sort_unstable();
                kept.ints(v)
            }
            V::Strs(l, i) => Cell::StrList(l, i),
            V::SortedStrs(l, i) => {
                let mut v: Vec<&str> = l.get(i).collect();
                v.sort_unstable();
                kept.strs(v)
            }
        }
    }
    /// The number of items of a list (`None` for anything else).
    fn list_len(self) -> Option<usize> {
        match self {
            V::Ints(v) | V::SortedInts(v) => Some(v.len()),
            V::Strs(l, i) | V::SortedStrs(l, i) => Some(l.row_len(i)),
            _ => None,
        }
    }
}

/// Lists up to this many items are sorted on the stack (where `sorted(l)`
/// is compared); longer ones in a heap buffer.
pub const STACK_ITEMS: usize = 32;

/// Calls `f` with the `n` items of `items` sorted: on the stack for up to
/// [`STACK_ITEMS`] items, in a heap buffer beyond.
fn with_sorted<T: Ord + Copy + Default, R>(
    n: usize,
    items: impl Iterator<Item = T>,
    f: impl FnOnce(&[T]) -> R,
) -> R {
    if n <= STACK_ITEMS {
        let mut buf = [T::default(); STACK_ITEMS];
        let mut k = 0;
        for (d, s) in buf.iter_mut().zip(items) {
            *d = s;
            k += 1;
        }
        buf[..k].sort_unstable();
        f(&buf[..k])
    } else {
        let mut v: Vec<T> = items.collect();
        v.sort_unstable();
        f(&v)
    }
}

/// Calls `f` with the items of a list of integers in the list's order
/// (sorted for a sorted view); `None` for a value that is not such a list.
fn with_ints<R>(v: V<'_>, f: impl FnOnce(&[i64]) -> R) -> Option<R> {
    match v {
        V::Ints(s) => Some(f(s)),
        V::SortedInts(s) if s.is_sorted() => Some(f(s)),
        V::SortedInts(s) => Some(with_sorted(s.len(), s.iter().copied(), f)),
        _ => None,
    }
}

/// As [`with_ints`] for a list of strings.
fn with_strs<R>(v: V<'_>, f: impl FnOnce(&mut dyn Iterator<Item = &str>) -> R) -> Option<R> {
    match v {
        V::Strs(l, i) => Some(f(&mut l.get(i))),
        V::SortedStrs(l, i) => Some(with_sorted(l.row_len(i), l.get(i), |s| {
            f(&mut s.iter().copied())
        })),
        _ => None,
    }
}

/// Values that [`Bound::eval`] computed (a sorted list, a list of computed
/// items), kept until the [`Bound`] is dropped so that the cells it returns
/// can borrow them. Append-only segments of doubling size, each slot set
/// once: lending a kept value needs no `unsafe` and no lock, and a `Bound`
/// stays shareable between threads.
#[derive(Default)]
pub(crate) struct Kept {
    next: AtomicUsize,
    segments: [OnceLock<Box<[OnceLock<Owned>]>>; 32],
}

enum Owned {
    Ints(Box<[i64]>),
    /// One row.
    Strs(StrListVec),
}

impl Kept {
    fn keep(&self, v: Owned) -> &Owned {
        let k = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        // Segment s holds the slots k in [2^s, 2^(s+1)).
        let s = (usize::BITS - 1 - k.leading_zeros()) as usize;
        let seg =
            self.segments[s].get_or_init(|| (0..1usize << s).map(|_| OnceLock::new()).collect());
        let slot = &seg[k - (1 << s)];
        // Each slot index is handed out once, so the slot is empty.
        slot.get_or_init(|| v)
    }
    fn ints(&self, v: Vec<i64>) -> Cell<'_> {
        match self.keep(Owned::Ints(v.into())) {
            Owned::Ints(v) => Cell::IntList(v),
            Owned::Strs(l) => Cell::StrList(l, 0),
        }
    }
    fn strs(&self, v: Vec<&str>) -> Cell<'_> {
        let mut l = StrListVec::default();
        l.push(v);
        match self.keep(Owned::Strs(l)) {
            Owned::Ints(v) => Cell::IntList(v),
            Owned::Strs(l) => Cell::StrList(l, 0),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    fn of(op: BinOp) -> Cmp {
        match op {
            BinOp::Eq => Cmp::Eq,
            BinOp::Ne => Cmp::Ne,
            BinOp::Lt => Cmp::Lt,
            BinOp::Le => Cmp::Le,
            BinOp::Gt => Cmp::Gt,
            _ => Cmp::Ge,
        }
    }
    #[inline]
    fn test(self, o: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering::*;
        match self {
            Cmp::Eq => o == Equal,
            Cmp::Ne => o != Equal,
            Cmp::Lt => o == Less,
            Cmp::Le => o != Greater,
            Cmp::Gt => o == Greater,
            Cmp::Ge => o != Less,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Func {
    V2,
    IsSquare,
    IsPrime,
    Floor,
    Ceil,
    Abs,
    Min,
    Max,
    Gcd,
    Lcm,
    Xor,
    Pow,
    IsNull,
    Coalesce,
    /// `len(l)` (also of a string: its characters).
    Len,
    /// `sum(l)` of a list of integers.
    Sum,
    /// `min(l)` of a list of integers.
    MinOf,
    /// `max(l)` of a list of integers.
    MaxOf,
    Sorted,
    /// `min_gap(l)`: smallest difference of consecutive items, sorted.
    MinGap,
    /// `max_gap(l)`: largest difference of consecutive items, sorted.
    MaxGap,
}

/// The helper functions: name, arity (min, max), what they do.
pub const FUNCTIONS: &[(&str, usize, usize, &str)] = &[
    (
        "v2",
        1,
        1,
        "v2(n): the 2-adic valuation (largest e with 2^e | n); v2(0) is null",
    ),
    (
        "is_square",
        1,
        1,
        "is_square(n): n is a perfect square (0, 1, 4, 9, ...); false below 0",
    ),
    (
        "is_prime",
        1,
        1,
        "is_prime(n): n is a prime (2, 3, 5, 7, ...)",
    ),
    ("mod", 2, 2, "mod(a, b): the same as a % b (floor modulus)"),
    ("floor", 1, 1, "floor(x): largest integer ≤ x"),
    ("ceil", 1, 1, "ceil(x): smallest integer ≥ x"),
    ("abs", 1, 1, "abs(x)"),
    (
        "min",
        1,
        usize::MAX,
        "min(a, b, ...), or min(l) of a list of integers (null if empty)",
    ),
    (
        "max",
        1,
        usize::MAX,
        "max(a, b, ...), or max(l) of a list of integers (null if empty)",
    ),
    (
        "gcd",
        1,
        usize::MAX,
        "gcd(a, b, ...): non-negative; gcd(0, 0) = 0",
    ),
    ("lcm", 1, usize::MAX, "lcm(a, b, ...): non-negative"),
    (
        "xor",
        1,
        usize::MAX,
        "xor(a, b, ...): bitwise exclusive or (the Nim-sum)",
    ),
    (
        "pow",
        2,
        2,
        "pow(a, e): a^e (integer for integers, e ≥ 0; null on overflow)",
    ),
    ("is_null", 1, 1, "is_null(x): true when x is null"),
    (
        "coalesce",
        1,
        usize::MAX,
        "coalesce(a, b, ...): the first argument that is not null",
    ),
    (
        "len",
        1,
        1,
        "len(l): the number of items of a list (or of structs of a column of structs, or of characters of a string)",
    ),
    (
        "sum",
        1,
        1,
        "sum(l): the sum of a list of integers (0 if empty; null on overflow)",
    ),
    (
        "sorted",
        1,
        1,
        "sorted(l): the list's items in increasing order",
    ),
    (
        "min_gap",
        1,
        1,
        "min_gap(l): the smallest difference between consecutive items of a list of integers in increasing order (null with fewer than two items)",
    ),
    (
        "max_gap",
        1,
        1,
        "max_gap(l): the largest difference between consecutive items of a list of integers in increasing order (null with fewer than two items)",
    ),
];

#[derive(Clone, Debug, PartialEq)]
enum Node {
    Col(usize),
    /// Field `.1` of the structs of a column of structs (a list of integers).
    Field(usize, usize),
    /// The number of structs of a column of structs.
    StructLen(usize),
    Lit(Lit),
    /// A list with computed items `[N, N + 1]`: only as an operand of
    /// `ItemsEq` or at the root of an expression (for display).
    Items(Vec<Node>),
    Neg(Box<Node>),
    IntArith(Arith, Box<Node>, Box<Node>),
    FloatArith(Arith, Box<Node>, Box<Node>),
    Cmp(Cmp, Box<Node>, Box<Node>),
    /// `l == m` (or `!=` when negated) between two lists.
    ListEq(Box<Node>, Box<Node>, bool),
    /// `l == [a, b, ...]` (or `!=`) with computed items.
    ItemsEq(Box<Node>, Vec<Node>, bool),
    /// `x in l` (or `not in`) for a list value `l`.
    In(Box<Node>, Box<Node>, bool),
    And(Box<Node>, Box<Node>),
    Or(Box<Node>, Box<Node>),
    Implies(Box<Node>, Box<Node>),
    Iff(Box<Node>, Box<Node>),
    Not(Box<Node>),
    Cond(Box<Node>, Box<Node>, Box<Node>),
    InList(Box<Node>, Vec<Node>, bool),
    InRange(Box<Node>, Box<Node>, Box<Node>, bool),
    Call(Func, Vec<Node>),
}

#[derive(Clone, Debug, PartialEq)]
enum Lit {
    Null,
    Int(i64),
    Float(f64),
    Bool(bool),
    Str(Box<str>),
    /// `[1, 2]` (also `[]`).
    Ints(Box<[i64]>),
    /// `["a", "b"]`: a one-row column (boxed: it is large, and nodes are
    /// stored side by side).
    Strs(Box<StrListVec>),
}

/// A column bound for evaluation.
#[derive(Clone, Copy)]
enum Col<'t> {
    Int(&'t [i64]),
    OptInt(&'t [Option<i64>]),
    Bool(&'t [bool]),
    Float(&'t [f64]),
    OptFloat(&'t [Option<f64>]),
    Str(&'t StrVec),
    Enum(&'t EnumVec),
    Dict(&'t DictVec),
    IntList(&'t IntListVec),
    StrList(&'t StrListVec),
    Structs(&'t StructListVec),
    /// Row 0 of this column, on every row.
    Repeat(&'t Values),
    Other,
}

/// A column's values as read by the evaluator.
fn col_of(v: &Values) -> Col<'_> {
    match v {
        Values::Int(x) => Col::Int(x),
        Values::OptInt(x) => Col::OptInt(x),
        Values::Bool(x) => Col::Bool(x),
        Values::Float(x) => Col::Float(x),
        Values::OptFloat(x) => Col::OptFloat(x),
        Values::Str(x) => Col::Str(x),
        Values::Enum(x) => Col::Enum(x),
        Values::Dict(x) => Col::Dict(x),
        Values::IntList(x) => Col::IntList(x),
        Values::StrList(x) => Col::StrList(x),
        Values::StructList(x) => Col::Structs(x),
        Values::Repeat(one, _) => Col::Repeat(one),
        Values::Null(_) => Col::Other,
    }
}

/// The values whose types a column has: a value held once, else the column.
fn held(v: &Values) -> &Values {
    match v {
        Values::Repeat(one, _) => one,
        v => v,
    }
}

/// Column `col` at `row`, a repeated value read at its one row.
#[inline]
fn at(col: Col<'_>, row: usize) -> (Col<'_>, usize) {
    match col {
        Col::Repeat(one) => (col_of(one), 0),
        c => (c, row),
    }
}

/// The source text of `s`, with the closing parentheses the syntax tree
/// leaves out (`N % (k + 1` is `N % (k + 1)`) taken from what follows.
fn closed_text(src: &str, s: Span) -> &str {
    let mut end = s.end.min(src.len());
    let text = &src[s.start..end];
    let open = text
        .matches('(')
        .count()
        .saturating_sub(text.matches(')').count());
    for _ in 0..open {
        let rest = &src[end..];
        let skip = rest.len() - rest.trim_start().len();
        if !rest[skip..].starts_with(')') {
            break;
        }
        end += skip + 1;
    }
    &src[s.start..end]
}

/// A compiled expression: parse once, evaluate on many rows.
#[derive(Clone, Debug)]
pub struct Expr {
    source: String,
    ast: Ast,
    root: Node,
    /// Column names, by slot (in order of first mention).
    columns: Vec<String>,
    ty: Ty,
}

struct Compiler<'s> {
    src: &'s str,
    table: &'s Table,
    columns: Vec<String>,
    lets: Vec<(String, Ast)>,
}

impl Expr {
    /// Parses and type-checks `source` against the columns of `table` (its
    /// rows are not read).
    pub fn compile(source: &str, table: &Table) -> Result<Expr, ExprError> {
        let ast = parse::parse(source)?;
        Self::from_ast(source, ast, table)
    }

    /// As [`Expr::compile`], and fails unless the expression is true/false
    /// (a claim or a `where` filter).
    pub fn compile_predicate(source: &str, table: &Table) -> Result<Expr, ExprError> {
        let e = Self::compile(source, table)?;
        if !e.ty.boolish() {
            return Err(ExprError::new(
                source,
                e.ast.full_span(),
                format!(
                    "this must be true or false, but it is {} expression; compare it with something (e.g. `== 0`)",
                    e.ty.name()
                ),
            ));
        }
        Ok(e)
    }

    pub(crate) fn from_ast(source: &str, ast: Ast, table: &Table) -> Result<Expr, ExprError> {
        let mut c = Compiler {
            src: source,
            table,
            columns: Vec::new(),
            lets: Vec::new(),
        };
        let (root, ty) = c.operand(&ast)?;
        Ok(Expr {
            source: source.to_string(),
            ast,
            root,
            columns: c.columns,
            ty,
        })
    }

    /// The syntax tree.
    pub fn ast(&self) -> &Ast {
        &self.ast
    }
    /// The columns it reads, in order of first mention.
    pub fn columns(&self) -> &[String] {
        &self.columns
    }
    /// Its static type.
    #[cfg(test)]
    pub fn ty(&self) -> Ty {
        self.ty
    }

    /// Binds the expression to a table's columns for evaluation. Fails if a
    /// column is missing or has another type than at compile time.
    pub fn bind<'a>(&'a self, table: &'a Table) -> Result<Bound<'a>, ExprError> {
        let mut cols = Vec::with_capacity(self.columns.len());
        for name in &self.columns {
            let v = table.column(name).ok_or_else(|| {
                ExprError::new(
                    &self.source,
                    Span { start: 0, end: 0 },
                    format!("the table has no column `{name}`"),
                )
            })?;
            cols.push(col_of(v));
        }
        // The compiled tree relies on the column types (and the fields of
        // columns of structs) seen at compile time.
        let recompiled = Expr::from_ast(&self.source, self.ast.clone(), table)?;
        if recompiled.columns != self.columns
            || recompiled.ty != self.ty
            || recompiled.root != self.root
        {
            return Err(ExprError::new(
                &self.source,
                self.ast.full_span(),
                "the table's columns have other types than the table this was compiled for",
            ));
        }
        Ok(Bound {
            expr: self,
            cols,
            kept: Kept::default(),
        })
    }
}

/// An expression bound to a table: evaluate it on rows.
pub struct Bound<'a> {
    expr: &'a Expr,
    cols: Vec<Col<'a>>,
    /// Lists [`Bound::eval`] computed for display.
    kept: Kept,
}

impl<'a> Bound<'a> {
    /// The value on row `row`, for display. A list is a
    /// [`Cell::IntList`] or [`Cell::StrList`]: it borrows the table or the
    /// expression, except the value of `sorted(l)` when `l` is not already
    /// in order and a list of computed items (`[N, N + 1]`), which are
    /// built and kept until this `Bound` is dropped (one small allocation
    /// per call; [`Bound::test`] never allocates for them). A list of
    /// computed items one of which is null is [`Cell::Null`].
    pub fn eval(&self, row: usize) -> Cell<'_> {
        let root = &self.expr.root;
        if let Node::Items(items) = root {
            return self.items_cell(items, row);
        }
        eval(root, &self.cols, row).cell(&self.kept)
    }
    fn items_cell(&self, items: &'a [Node], row: usize) -> Cell<'_> {
        let vals = items.iter().map(|n| eval(n, &self.cols, row));
        if let Some(v) = vals
            .clone()
            .map(|v| match v {
                V::Int(x) => Some(x),
                _ => None,
            })
            .collect::<Option<Vec<i64>>>()
        {
            return self.kept.ints(v);
        }
        match vals
            .map(|v| match v {
                V::Str(x) => Some(x),
                _ => None,
            })
            .collect::<Option<Vec<&str>>>()
        {
            Some(v) => self.kept.strs(v),
            None => Cell::Null,
        }
    }
    /// The truth value on row `row`: `None` when it is null (undetermined)
    /// or not a boolean.
    #[inline]
    pub fn test(&self, row: usize) -> Option<bool> {
        match eval(&self.expr.root, &self.cols, row) {
            V::Bool(b) => Some(b),
            _ => None,
        }
    }
}

#[inline]
fn tri(v: V<'_>) -> Option<bool> {
    match v {
        V::Bool(b) => Some(b),
        _ => None,
    }
}

#[inline]
fn of_tri<'a>(v: Option<bool>) -> V<'a> {
    v.map_or(V::Null, V::Bool)
}

/// Is `n` a perfect square (0, 1, 4, 9, ...)? False below 0.
pub fn is_square(n: i64) -> bool {
    if n < 0 {
        return false;
    }
    let r = (n as f64).sqrt() as i64;
    (r.saturating_sub(1)..=r + 1).any(|x| x >= 0 && x.checked_mul(x) == Some(n))
}

/// Is `n` a prime? (Trial division by 2, 3 and 6k ± 1.)
pub fn is_prime(n: i64) -> bool {
    if n < 4 {
        return n >= 2;
    }
    if n % 2 == 0 || n % 3 == 0 {
        return false;
    }
    let mut d = 5i64;
    while d.saturating_mul(d) <= n {
        if n % d == 0 || n % (d + 2) == 0 {
            return false;
        }
        d += 6;
    }
    true
}

/// Floor division (rounds toward −∞); `None` on division by zero or overflow.
pub fn div_floor(a: i64, b: i64) -> Option<i64> {
    if b == 0 {
        return None;
    }
    let q = a.checked_div(b)?;
    if a % b != 0 && ((a < 0) != (b < 0)) {
        Some(q - 1)
    } else {
        Some(q)
    }
}

/// Floor modulus: `a - b * div_floor(a, b)`, so `0 ≤ a % b < b` for `b > 0`;
/// `None` when `b == 0`.
pub fn mod_floor(a: i64, b: i64) -> Option<i64> {
    if b == 0 {
        return None;
    }
    let r = a.wrapping_rem(b);
    if r != 0 && ((r < 0) != (b < 0)) {
        Some(r + b)
    } else {
        Some(r)
    }
}

fn int_arith(op: Arith, a: i64, b: i64) -> Option<i64> {
    match op {
        Arith::Add => a.checked_add(b),
        Arith::Sub => a.checked_sub(b),
        Arith::Mul => a.checked_mul(b),
        Arith::Div => div_floor(a, b),
        Arith::Rem => mod_floor(a, b),
    }
}

fn float_arith(op: Arith, a: f64, b: f64) -> Option<f64> {
    let r = match op {
        Arith::Add => a + b,
        Arith::Sub => a - b,
        Arith::Mul => a * b,
        Arith::Div => {
            if b == 0.0 {
                return None;
            }
            a / b
        }
        Arith::Rem => {
            if b == 0.0 {
                return None;
            }
            a - b * (a / b).floor()
        }
    };
    (!r.is_nan()).then_some(r)
}

fn gcd(a: i64, b: i64) -> Option<i64> {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    i64::try_from(a).ok()
}

fn v2(n: i64) -> Option<i64> {
    (n != 0).then(|| n.trailing_zeros() as i64)
}

fn ipow(a: i64, e: i64) -> Option<i64> {
    let e = u32::try_from(e).ok()?;
    a.checked_pow(e)
}

#[inline]
fn eq_vals(a: V<'_>, b: V<'_>) -> Option<bool> {
    Some(match (a, b) {
        (V::Null, _) | (_, V::Null) => return None,
        (V::Int(x), V::Int(y)) => x == y,
        (V::Str(x), V::Str(y)) => x == y,
        (V::Bool(x), V::Bool(y)) => x == y,
        (x, y) => match (x.f64(), y.f64()) {
            (Some(a), Some(b)) => a == b,
            _ => return list_eq(x, y),
        },
    })
}

/// Two lists are equal when they have the same items in the same order;
/// null when either is null. (Not inlined: it keeps `eq_vals`, on the hot
/// path of `x in [..]`, small.)
#[inline(never)]
fn list_eq(a: V<'_>, b: V<'_>) -> Option<bool> {
    if let (V::Ints(x), V::Ints(y)) = (a, b) {
        return Some(x == y);
    }
    let (n, m) = (a.list_len()?, b.list_len()?);
    if n != m {
        return Some(false);
    }
    if n == 0 {
        // `[]` (an empty list of integers) equals an empty list of strings.
        return Some(true);
    }
    if let Some(r) = with_ints(a, |x| with_ints(b, |y| x == y)) {
        return r;
    }
    with_strs(a, |x| with_strs(b, |y| x.eq(y)))?
}

/// `l == [a, b, ...]` with computed items: false when the lengths differ or
/// some item differs, else null when some item is null, else true.
fn items_eq<'a>(l: V<'a>, items: &'a [Node], cols: &[Col<'a>], row: usize) -> Option<bool> {
    if l.list_len()? != items.len() {
        return Some(false);
    }
    let mut saw_null = false;
    // Is the pair not known to differ?
    let mut same = |e: Option<bool>| {
        saw_null |= e.is_none();
        e != Some(false)
    };
    let item = |k: &'a Node| eval(k, cols, row);
    let all = match with_ints(l, |x| {
        x.iter()
            .zip(items)
            .all(|(&x, k)| same(eq_vals(V::Int(x), item(k))))
    }) {
        Some(all) => all,
        None => with_strs(l, |x| {
            x.zip(items).all(|(x, k)| same(eq_vals(V::Str(x), item(k))))
        })?,
    };
    if !all {
        Some(false)
    } else if saw_null {
        None
    } else {
        Some(true)
    }
}

/// `x in l`: null when `x` or `l` is null.
fn contains(l: V<'_>, x: V<'_>) -> Option<bool> {
    Some(match (l, x) {
        (_, V::Null) | (V::Null, _) => return None,
        (V::Ints(s) | V::SortedInts(s), V::Int(x)) => s.contains(&x),
        (V::Ints(s) | V::SortedInts(s), V::Float(x)) => s.iter().any(|&v| v as f64 == x),
        (V::Strs(l, i) | V::SortedStrs(l, i), V::Str(x)) => l.get(i).any(|v| v == x),
        // An empty list (`[]`) of another item type.
        _ => false,
    })
}

#[inline]
fn compare(op: Cmp, a: V<'_>, b: V<'_>) -> Option<bool> {
    let o = match (a, b) {
        (V::Null, _) | (_, V::Null) => return None,
        (V::Int(x), V::Int(y)) => x.cmp(&y),
        (V::Str(x), V::Str(y)) => x.cmp(y),
        (V::Bool(x), V::Bool(y)) => x.cmp(&y),
        (x, y) => x.f64()?.partial_cmp(&y.f64()?)?,
    };
    Some(op.test(o))
}

#[inline]
fn cell_value(col: Col<'_>, row: usize) -> V<'_> {
    let (col, row) = at(col, row);
    match col {
        Col::Int(x) => V::Int(x[row]),
        Col::OptInt(x) => x[row].map_or(V::Null, V::Int),
        Col::Bool(x) => V::Bool(x[row]),
        Col::Float(x) => V::Float(x[row]),
        Col::OptFloat(x) => x[row].map_or(V::Null, V::Float),
        Col::Str(x) => x.get_opt(row).map_or(V::Null, V::Str),
        Col::Enum(x) => x.get(row).map_or(V::Null, V::Str),
        Col::Dict(x) => x.get(row).map_or(V::Null, V::Str),
        Col::IntList(x) => x.get_opt(row).map_or(V::Null, V::Ints),
        Col::StrList(x) if x.is_valid(row) => V::Strs(x, row),
        // A column of structs is read through its fields.
        Col::StrList(_) | Col::Structs(_) | Col::Repeat(_) | Col::Other => V::Null,
    }
}

fn eval<'a>(n: &'a Node, cols: &[Col<'a>], row: usize) -> V<'a> {
    match n {
        Node::Col(slot) => cell_value(cols[*slot], row),
        Node::Field(slot, f) => match at(cols[*slot], row) {
            (Col::Structs(x), row) => V::Ints(x.field(row, *f)),
            _ => V::Null,
        },
        Node::StructLen(slot) => match at(cols[*slot], row) {
            (Col::Structs(x), row) => V::Int(x.row_len(row) as i64),
            _ => V::Null,
        },
        Node::Lit(l) => lit(l),
        // Compiled only under `ItemsEq` or at the root (`Bound::eval`).
        Node::Items(_) => V::Null,
        Node::ListEq(l, r, negated) => {
            of_tri(list_eq(eval(l, cols, row), eval(r, cols, row)).map(|e| e != *negated))
        }
        Node::ItemsEq(l, items, negated) => {
            of_tri(items_eq(eval(l, cols, row), items, cols, row).map(|e| e != *negated))
        }
        Node::In(x, l, negated) => {
            of_tri(contains(eval(l, cols, row), eval(x, cols, row)).map(|e| e != *negated))
        }
        Node::Neg(x) => match eval(x, cols, row) {
            V::Int(v) => v.checked_neg().map_or(V::Null, V::Int),
            V::Float(v) => V::Float(-v),
            _ => V::Null,
        },
        Node::IntArith(op, l, r) => match (eval(l, cols, row), eval(r, cols, row)) {
            (V::Int(a), V::Int(b)) => int_arith(*op, a, b).map_or(V::Null, V::Int),
            _ => V::Null,
        },
        Node::FloatArith(op, l, r) => match (eval(l, cols, row).f64(), eval(r, cols, row).f64()) {
            (Some(a), Some(b)) => float_arith(*op, a, b).map_or(V::Null, V::Float),
            _ => V::Null,
        },
        Node::Cmp(op, l, r) => of_tri(compare(*op, eval(l, cols, row), eval(r, cols, row))),
        // Kleene three-valued logic, short-circuiting where the answer is known.
        Node::And(l, r) => and(tri(eval(l, cols, row)), || tri(eval(r, cols, row))),
        Node::Or(l, r) => or(tri(eval(l, cols, row)), || tri(eval(r, cols, row))),
        Node::Implies(l, r) => or(tri(eval(l, cols, row)).map(|a| !a), || {
            tri(eval(r, cols, row))
        }),
        Node::Iff(l, r) => match (tri(eval(l, cols, row)), tri(eval(r, cols, row))) {
            (Some(a), Some(b)) => V::Bool(a == b),
            _ => V::Null,
        },
        Node::Not(x) => of_tri(tri(eval(x, cols, row)).map(|b| !b)),
        Node::Cond(c, a, b) => match tri(eval(c, cols, row)) {
            Some(true) => eval(a, cols, row),
            Some(false) => eval(b, cols, row),
            None => V::Null,
        },
        Node::InList(x, items, negated) => in_list(eval(x, cols, row), items, *negated, cols, row),
        Node::InRange(x, lo, hi, negated) => {
            let x = eval(x, cols, row);
            let a = compare(Cmp::Ge, x, eval(lo, cols, row));
            let b = compare(Cmp::Le, x, eval(hi, cols, row));
            of_tri(and_tri(a, b).map(|v| v != *negated))
        }
        Node::Call(f, args) => call(*f, args, cols, row),
    }
}

/// A literal's value.
#[inline]
fn lit(l: &Lit) -> V<'_> {
    match l {
        Lit::Null => V::Null,
        Lit::Int(v) => V::Int(*v),
        Lit::Float(v) => V::Float(*v),
        Lit::Bool(v) => V::Bool(*v),
        Lit::Str(s) => V::Str(s),
        Lit::Ints(v) => V::Ints(v),
        Lit::Strs(l) => V::Strs(l, 0),
    }
}

/// Kleene's `a and b`: false if either is false, true if both are true,
/// else null.
#[inline]
fn and_tri(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    match (a, b) {
        (Some(false), _) | (_, Some(false)) => Some(false),
        (Some(true), Some(true)) => Some(true),
        _ => None,
    }
}

/// `a and b`, `b` evaluated only when `a` is not false.
#[inline]
fn and<'a>(a: Option<bool>, b: impl FnOnce() -> Option<bool>) -> V<'a> {
    match a {
        Some(false) => V::Bool(false),
        a => of_tri(and_tri(a, b())),
    }
}

/// `a or b` (Kleene), `b` evaluated only when `a` is not true: `a implies
/// b` is `(not a) or b`.
#[inline]
fn or<'a>(a: Option<bool>, b: impl FnOnce() -> Option<bool>) -> V<'a> {
    match a {
        Some(true) => V::Bool(true),
        a => of_tri(and_tri(a.map(|v| !v), b().map(|v| !v)).map(|v| !v)),
    }
}

/// `x in (items)`, as SQL: true if some item equals x; else null if x or
/// some item is null; else false (each negated when `negated`).
fn in_list<'a>(x: V<'a>, items: &'a [Node], negated: bool, cols: &[Col<'a>], row: usize) -> V<'a> {
    if matches!(x, V::Null) {
        return V::Null;
    }
    let mut saw_null = false;
    for it in items {
        match eq_vals(x, eval(it, cols, row)) {
            Some(true) => return V::Bool(!negated),
            Some(false) => {}
            None => saw_null = true,
        }
    }
    if saw_null { V::Null } else { V::Bool(negated) }
}

fn call<'a>(f: Func, args: &'a [Node], cols: &[Col<'a>], row: usize) -> V<'a> {
    let arg = |i: usize| eval(&args[i], cols, row);
    let all = || (0..args.len()).map(arg);
    match f {
        Func::V2 => match arg(0) {
            V::Int(n) => v2(n).map_or(V::Null, V::Int),
            _ => V::Null,
        },
        Func::IsSquare | Func::IsPrime => match arg(0) {
            V::Int(n) if f == Func::IsSquare => V::Bool(is_square(n)),
            V::Int(n) => V::Bool(is_prime(n)),
            _ => V::Null,
        },
        Func::Floor | Func::Ceil => rounded(f == Func::Floor, arg(0)),
        Func::Abs => match arg(0) {
            V::Int(n) => n.checked_abs().map_or(V::Null, V::Int),
            V::Float(x) => V::Float(x.abs()),
            _ => V::Null,
        },
        Func::Min | Func::Max => extremum(if f == Func::Min { Cmp::Lt } else { Cmp::Gt }, all()),
        Func::Xor => fold_ints(all(), 0, |acc, n| Some(acc ^ n)),
        Func::Gcd => fold_ints(all(), 0, gcd),
        Func::Lcm => fold_ints(all(), 1, lcm),
        Func::Pow => power(arg(0), arg(1)),
        Func::IsNull => V::Bool(matches!(arg(0), V::Null)),
        Func::Len
        | Func::Sum
        | Func::MinOf
        | Func::MaxOf
        | Func::Sorted
        | Func::MinGap
        | Func::MaxGap => list_fn(f, arg(0)),
        Func::Coalesce => all().find(|v| !matches!(v, V::Null)).unwrap_or(V::Null),
    }
}

/// `floor` (or `ceil`) of a number, as an integer; null out of range.
fn rounded(floor: bool, v: V<'_>) -> V<'_> {
    match v {
        V::Int(n) => V::Int(n),
        V::Float(x) => {
            let y = if floor { x.floor() } else { x.ceil() };
            if y.is_finite() && y >= i64::MIN as f64 && y < i64::MAX as f64 {
                V::Int(y as i64)
            } else {
                V::Null
            }
        }
        _ => V::Null,
    }
}

/// The argument that beats every other under `better` (`Lt`: the smallest);
/// null if any is null; a float when any argument is a float.
fn extremum<'a>(better: Cmp, args: impl Iterator<Item = V<'a>>) -> V<'a> {
    let mut best = V::Null;
    let mut any_float = false;
    for v in args {
        match v {
            V::Null => return V::Null,
            V::Float(_) => any_float = true,
            _ => {}
        }
        if matches!(best, V::Null) || compare(better, v, best).unwrap_or(false) {
            best = v;
        }
    }
    match (any_float, best) {
        (true, V::Int(x)) => V::Float(x as f64),
        _ => best,
    }
}

/// Integer arguments folded by `op` from `init`; null on a non-integer
/// argument or an overflow.
fn fold_ints<'a>(
    args: impl Iterator<Item = V<'a>>,
    init: i64,
    op: impl Fn(i64, i64) -> Option<i64>,
) -> V<'a> {
    let mut acc = init;
    for v in args {
        let V::Int(n) = v else {
            return V::Null;
        };
        match op(acc, n) {
            Some(x) => acc = x,
            None => return V::Null,
        }
    }
    V::Int(acc)
}

fn lcm(a: i64, b: i64) -> Option<i64> {
    if a == 0 || b == 0 {
        return Some(0);
    }
    gcd(a, b).and_then(|g| (a / g).checked_mul(b)).map(i64::abs)
}

/// `pow(a, e)`: exact for integers (null on overflow), else a float.
fn power<'a>(a: V<'a>, e: V<'a>) -> V<'a> {
    match (a, e) {
        (V::Int(a), V::Int(e)) => ipow(a, e).map_or(V::Null, V::Int),
        (a, e) => match (a.f64(), e.f64()) {
            (Some(a), Some(e)) => {
                let r = a.powf(e);
                if r.is_nan() { V::Null } else { V::Float(r) }
            }
            _ => V::Null,
        },
    }
}

/// The functions of one list (or, for `len`, of a string).
fn list_fn(f: Func, v: V<'_>) -> V<'_> {
    match (f, v) {
        (Func::Len, V::Str(s)) => V::Int(s.chars().count() as i64),
        (Func::Len, v) => v.list_len().map_or(V::Null, |n| V::Int(n as i64)),
        (Func::Sum, V::Ints(s) | V::SortedInts(s)) => s
            .iter()
            .try_fold(0i64, |a, &x| a.checked_add(x))
            .map_or(V::Null, V::Int),
        (Func::MinOf, V::Ints(s) | V::SortedInts(s)) => {
            s.iter().min().map_or(V::Null, |&m| V::Int(m))
        }
        (Func::MaxOf, V::Ints(s) | V::SortedInts(s)) => {
            s.iter().max().map_or(V::Null, |&m| V::Int(m))
        }
        (Func::MinGap | Func::MaxGap, V::Ints(s) | V::SortedInts(s)) => {
            gap(s, f == Func::MinGap).map_or(V::Null, V::Int)
        }
        (Func::Sorted, V::Ints(s)) => V::SortedInts(s),
        (Func::Sorted, V::Strs(l, i)) => V::SortedStrs(l, i),
        (Func::Sorted, v) => v,
        _ => V::Null,
    }
}

/// The smallest (or largest) difference of consecutive items in increasing
/// order; a copy is sorted only when the items are not in order already.
fn gap(s: &[i64], smallest: bool) -> Option<i64> {
    let pick = |it: &mut dyn Iterator<Item = i64>| if smallest { it.min() } else { it.max() };
    if s.windows(2).all(|w| w[0] <= w[1]) {
        pick(
            &mut s
                .windows(2)
                .map(|w| w[1].checked_sub(w[0]).unwrap_or(i64::MAX)),
        )
    } else {
        let mut v = s.to_vec();
        v.sort_unstable();
        pick(
            &mut v
                .windows(2)
                .map(|w| w[1].checked_sub(w[0]).unwrap_or(i64::MAX)),
        )
    }
}

fn unify(a: Ty, b: Ty) -> Option<Ty> {
    Some(match (a, b) {
        (Ty::Null, t) | (t, Ty::Null) => t,
        (x, y) if x == y => x,
        (Ty::Int, Ty::Float) | (Ty::Float, Ty::Int) => Ty::Float,
        (Ty::EmptyList, t) | (t, Ty::EmptyList) if t.is_list() => t,
        _ => return None,
    })
}

impl<'s> Compiler<'s> {
    fn err(&self, span: Span, msg: impl Into<String>) -> ExprError {
        ExprError::new(self.src, span, msg)
    }

    /// "its left side is a string (`outcome`)".
    fn side(&self, ast: &Ast, ty: Ty) -> String {
        let s = ast.full_span();
        format!("{} (`{}`)", ty.name(), closed_text(self.src, s))
    }

    fn is_let(&self, name: &str) -> bool {
        self.lets.iter().any(|(n, _)| n == name)
    }

    /// A column of the table, or an error naming the available columns.
    fn lookup(&self, name: &str, span: Span) -> Result<&'s Values, ExprError> {
        if let Some(values) = self.table.column(name) {
            return Ok(held(values));
        }
        let names = self.table.names();
        let close = crate::data::nearest_name(name, &names)
            .map(|n| format!(" (did you mean `{n}`?)"))
            .unwrap_or_default();
        let fname = FUNCTIONS.iter().any(|f| f.0 == name);
        let fhint = if fname {
            format!("; `{name}` is a function: call it as `{name}(...)`")
        } else {
            String::new()
        };
        let lets = if self.lets.is_empty() {
            String::new()
        } else {
            format!(
                "; names bound by `let`: {}",
                self.lets
                    .iter()
                    .map(|(n, _)| n.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        Err(self.err(
            span,
            format!(
                "unknown column `{name}`{close}{fhint}; available columns: {}{lets}",
                if names.is_empty() {
                    "(none)".to_string()
                } else {
                    names.join(", ")
                }
            ),
        ))
    }

    /// The slot of a column, given in order of first mention.
    fn slot(&mut self, name: &str) -> usize {
        match self.columns.iter().position(|c| c == name) {
            Some(s) => s,
            None => {
                self.columns.push(name.to_string());
                self.columns.len() - 1
            }
        }
    }

    fn column(&mut self, name: &str, span: Span) -> Result<(Node, Ty), ExprError> {
        if let Some(i) = self.lets.iter().rposition(|(n, _)| n == name) {
            // Substitute the bound expression, compiled in the scope it was
            // written in.
            let value = self.lets[i].1.clone();
            let rest = self.lets.split_off(i);
            let r = self.compile(&value);
            self.lets.extend(rest);
            return r;
        }
        let values = self.lookup(name, span)?;
        if let Values::StructList(s) = values {
            return Err(self.err(
                span,
                format!(
                    "`{name}` is a list of structs with fields {}: use a field, e.g. `{name}.{}` (the list of its structs' `{}`), or count the structs with `len({name})`",
                    s.fields.join(", "),
                    s.fields.first().unwrap_or(&"field"),
                    s.fields.first().unwrap_or(&"field"),
                ),
            ));
        }
        Ok((Node::Col(self.slot(name)), Ty::of(values)))
    }

    /// The column of structs `base` names (for `base.field` and `len(base)`),
    /// or an error pointing at `base`.
    fn structs(
        &mut self,
        base: &Ast,
        field: &str,
    ) -> Result<(usize, &'s StructListVec), ExprError> {
        let Ast::Name(name, span) = base else {
            let (_, t) = self.compile(base)?;
            return Err(self.err(
                base.full_span(),
                format!(
                    "only a column of structs has fields, but this is {}, so it has no field `.{field}`",
                    self.side(base, t)
                ),
            ));
        };
        if self.is_let(name) {
            return Err(self.err(
                *span,
                format!("`{name}` is a name bound by `let`, not a column of structs: it has no field `.{field}`"),
            ));
        }
        match self.lookup(name, *span)? {
            Values::StructList(s) => Ok((self.slot(name), s)),
            v => Err(self.err(
                *span,
                format!(
                    "`{name}` is not a column of structs (it holds {} on each row), so it has no field `.{field}`",
                    Ty::of(v).name()
                ),
            )),
        }
    }

    /// `len(moves)` of a column of structs: the number of its structs.
    fn struct_len(&mut self, args: &[Ast]) -> Option<Node> {
        let [Ast::Name(n, _)] = args else {
            return None;
        };
        let is_structs = matches!(self.table.column(n).map(held), Some(Values::StructList(_)));
        (is_structs && !self.is_let(n)).then(|| Node::StructLen(self.slot(n)))
    }

    /// `base.field`: the list of the field's values in the row's structs.
    fn field(&mut self, base: &Ast, field: &str, span: Span) -> Result<(Node, Ty), ExprError> {
        let (slot, s) = self.structs(base, field)?;
        let Some(f) = s.field_index(field) else {
            let b = base.full_span();
            return Err(self.err(
                span,
                format!(
                    "`{}` has no field `{field}`; its fields: {}",
                    &self.src[b.start..b.end],
                    s.fields.join(", ")
                ),
            ));
        };
        Ok((Node::Field(slot, f), Ty::IntList))
    }

    /// A list literal. Its items are integers or strings, all of one type;
    /// constants make a literal compiled once, computed items (allowed when
    /// `computed` is true: beside `==`/`!=` and at the root) a [`Node::Items`].
    fn list(&mut self, items: &[Ast], computed: bool) -> Result<(Node, Ty), ExprError> {
        let mut nodes = Vec::with_capacity(items.len());
        let mut first: Option<(&Ast, Ty)> = None;
        let mut not_constant = None;
        for it in items {
            let (n, t) = self.compile(it)?;
            if !matches!(t, Ty::Int | Ty::Str) {
                return Err(self.err(
                    it.full_span(),
                    format!(
                        "a list holds integers or strings, but this item is {}",
                        self.side(it, t)
                    ),
                ));
            }
            match first {
                None => first = Some((it, t)),
                Some((a, ta)) if ta != t => {
                    return Err(self.err(
                        it.full_span(),
                        format!(
                            "the items of a list have one type, but the first is {} and this one {}",
                            self.side(a, ta),
                            self.side(it, t)
                        ),
                    ));
                }
                Some(_) => {}
            }
            if !matches!(n, Node::Lit(_)) {
                not_constant = not_constant.or(Some(it));
            }
            nodes.push(n);
        }
        let ty = match first {
            None => return Ok((Node::Lit(Lit::Ints(Box::new([]))), Ty::EmptyList)),
            Some((_, Ty::Int)) => Ty::IntList,
            Some(_) => Ty::StrList,
        };
        if let Some(it) = not_constant {
            if computed {
                return Ok((Node::Items(nodes), ty));
            }
            return Err(self.err(
                it.full_span(),
                "the items of a list used as a value must be constants (numbers or strings); \
                 a list of computed items may only be compared with `==` or `!=`, or searched with `x in [a, b, ...]`",
            ));
        }
        let lit = if ty == Ty::IntList {
            Lit::Ints(
                nodes
                    .iter()
                    .map(|n| match n {
                        Node::Lit(Lit::Int(v)) => *v,
                        _ => unreachable!("checked above"),
                    })
                    .collect(),
            )
        } else {
            let mut l = StrListVec::default();
            l.push(nodes.iter().map(|n| match n {
                Node::Lit(Lit::Str(s)) => &**s,
                _ => unreachable!("checked above"),
            }));
            Lit::Strs(Box::new(l))
        };
        Ok((Node::Lit(lit), ty))
    }

    /// An operand of `==`/`!=`, or the whole expression: as [`Self::compile`],
    /// and a list may have computed items.
    fn operand(&mut self, ast: &Ast) -> Result<(Node, Ty), ExprError> {
        match ast {
            Ast::List(items, _, _) => self.list(items, true),
            Ast::Let(name, span, value, body) => self.bind_let(name, *span, value, body, true),
            _ => self.compile(ast),
        }
    }

    /// `let name = value; body`.
    fn bind_let(
        &mut self,
        name: &str,
        span: Span,
        value: &Ast,
        body: &Ast,
        operand: bool,
    ) -> Result<(Node, Ty), ExprError> {
        if self.table.column(name).is_some() {
            return Err(self.err(
                span,
                format!("`let {name}` would hide the column `{name}`; choose another name"),
            ));
        }
        // Type-check the value once here, so its errors point at it.
        self.compile(value)?;
        self.lets.push((name.to_string(), value.clone()));
        let r = if operand {
            self.operand(body)
        } else {
            self.compile(body)
        };
        self.lets.pop();
        r
    }

    fn compile(&mut self, ast: &Ast) -> Result<(Node, Ty), ExprError> {
        Ok(match ast {
            Ast::Int(v, _) => (Node::Lit(Lit::Int(*v)), Ty::Int),
            Ast::Float(v, _) => (Node::Lit(Lit::Float(*v)), Ty::Float),
            Ast::Str(s, _) => (Node::Lit(Lit::Str(s.as_str().into())), Ty::Str),
            Ast::Bool(b, _) => (Node::Lit(Lit::Bool(*b)), Ty::Bool),
            Ast::Null(_) => (Node::Lit(Lit::Null), Ty::Null),
            Ast::Name(n, span) => self.column(n, *span)?,
            Ast::Field(base, f, span) => self.field(base, f, *span)?,
            Ast::List(items, _, _) => self.list(items, false)?,
            Ast::Let(name, span, value, body) => self.bind_let(name, *span, value, body, false)?,
            Ast::Neg(x, span) => {
                let (n, t) = self.compile(x)?;
                if !t.numeric() {
                    return Err(self.err(
                        *span,
                        format!("`-` needs a number, but its operand is {}", self.side(x, t)),
                    ));
                }
                (
                    Node::Neg(Box::new(n)),
                    if t == Ty::Null { Ty::Int } else { t },
                )
            }
            Ast::Not(x, span) => {
                let (n, t) = self.compile(x)?;
                if !t.boolish() {
                    return Err(self.err(
                        *span,
                        format!(
                            "`not` needs true or false, but its operand is {}",
                            self.side(x, t)
                        ),
                    ));
                }
                (Node::Not(Box::new(n)), Ty::Bool)
            }
            Ast::Bin(op, l, r, span) => self.binary(*op, l, r, *span)?,
            Ast::Cond(c, a, b, span) => self.cond(c, a, b, *span)?,
            Ast::InList(x, items, negated, span, _) => self.in_list(x, items, *negated, *span)?,
            Ast::InRange(x, lo, hi, negated, span) => {
                let (xn, xt) = self.compile(x)?;
                let (ln, lt) = self.compile(lo)?;
                let (hn, ht) = self.compile(hi)?;
                for (a, t) in [(x, xt), (lo, lt), (hi, ht)] {
                    if !t.numeric() {
                        return Err(self.err(
                            *span,
                            format!("`in a..b` needs numbers, but {}", self.side(a, t)),
                        ));
                    }
                }
                (
                    Node::InRange(Box::new(xn), Box::new(ln), Box::new(hn), *negated),
                    Ty::Bool,
                )
            }
            Ast::In(x, l, negated, span) => self.in_value(x, l, *negated, *span)?,
            Ast::Call(name, args, span, _) => self.call(name, args, *span)?,
        })
    }

    fn binary(&mut self, op: BinOp, l: &Ast, r: &Ast, span: Span) -> Result<(Node, Ty), ExprError> {
        let equality = matches!(op, BinOp::Eq | BinOp::Ne);
        let (ln, lt) = if equality {
            self.operand(l)?
        } else {
            self.compile(l)?
        };
        let (rn, rt) = if equality {
            self.operand(r)?
        } else {
            self.compile(r)?
        };
        let sym = op.symbol();
        let arith = match op {
            BinOp::Add => Some(Arith::Add),
            BinOp::Sub => Some(Arith::Sub),
            BinOp::Mul => Some(Arith::Mul),
            BinOp::Div => Some(Arith::Div),
            BinOp::Rem => Some(Arith::Rem),
            _ => None,
        };
        if let Some(ar) = arith {
            for (a, t, which) in [(l, lt, "left"), (r, rt, "right")] {
                if !t.numeric() {
                    return Err(self.err(
                        span,
                        format!(
                            "`{sym}` needs numbers, but its {which} side is {}",
                            self.side(a, t)
                        ),
                    ));
                }
            }
            let (ln, rn) = (Box::new(ln), Box::new(rn));
            return Ok(if lt == Ty::Float || rt == Ty::Float {
                (Node::FloatArith(ar, ln, rn), Ty::Float)
            } else {
                (Node::IntArith(ar, ln, rn), Ty::Int)
            });
        }
        if op.is_comparison() {
            return self.comparison(op, (l, ln, lt), (r, rn, rt), span);
        }
        for (a, t, which) in [(l, lt, "left"), (r, rt, "right")] {
            if !t.boolish() {
                return Err(self.err(
                    span,
                    format!(
                        "`{sym}` needs true or false on both sides, but its {which} side is {}",
                        self.side(a, t)
                    ),
                ));
            }
        }
        let (ln, rn) = (Box::new(ln), Box::new(rn));
        let n = match op {
            BinOp::And => Node::And(ln, rn),
            BinOp::Or => Node::Or(ln, rn),
            BinOp::Implies => Node::Implies(ln, rn),
            _ => Node::Iff(ln, rn),
        };
        Ok((n, Ty::Bool))
    }

    fn comparison(
        &mut self,
        op: BinOp,
        (l, ln, lt): (&Ast, Node, Ty),
        (r, rn, rt): (&Ast, Node, Ty),
        span: Span,
    ) -> Result<(Node, Ty), ExprError> {
        let sym = op.symbol();
        let Some(t) = unify(lt, rt) else {
            // `3 == l` for a list of integers l: suggest membership.
            let hint = match (lt.is_list(), rt.is_list()) {
                (false, true) if unify(lt, rt.item()).is_some() => {
                    " (to test whether it is an item of the list, write `x in list`)"
                }
                (true, false) if unify(rt, lt.item()).is_some() => {
                    " (to test whether it is an item of the list, write `x in list`)"
                }
                _ => "",
            };
            return Err(self.err(
                span,
                format!(
                    "`{sym}` cannot compare {} with {}{hint}",
                    self.side(l, lt),
                    self.side(r, rt)
                ),
            ));
        };
        if t.is_list() {
            if !matches!(op, BinOp::Eq | BinOp::Ne) {
                return Err(self.err(
                    span,
                    format!(
                        "`{sym}` cannot order lists ({} and {}); lists compare only with `==` and `!=`",
                        self.side(l, lt),
                        self.side(r, rt)
                    ),
                ));
            }
            let negated = op == BinOp::Ne;
            let n = match (ln, rn) {
                (Node::Items(_), Node::Items(_)) => {
                    return Err(self.err(
                        span,
                        format!("`{sym}` compares two lists of computed items; compare their items instead"),
                    ));
                }
                (Node::Items(items), other) | (other, Node::Items(items)) => {
                    Node::ItemsEq(Box::new(other), items, negated)
                }
                (a, b) => Node::ListEq(Box::new(a), Box::new(b), negated),
            };
            return Ok((n, Ty::Bool));
        }
        if t == Ty::Bool && !matches!(op, BinOp::Eq | BinOp::Ne) {
            return Err(self.err(
                span,
                format!(
                    "`{sym}` cannot compare {} with {}",
                    self.side(l, lt),
                    self.side(r, rt)
                ),
            ));
        }
        Ok((Node::Cmp(Cmp::of(op), Box::new(ln), Box::new(rn)), Ty::Bool))
    }

    fn cond(&mut self, c: &Ast, a: &Ast, b: &Ast, span: Span) -> Result<(Node, Ty), ExprError> {
        let (cn, ct) = self.compile(c)?;
        if !ct.boolish() {
            return Err(self.err(
                span,
                format!(
                    "the condition of `? :` must be true or false, but it is {}",
                    self.side(c, ct)
                ),
            ));
        }
        let (an, at) = self.compile(a)?;
        let (bn, bt) = self.compile(b)?;
        let t = unify(at, bt).ok_or_else(|| {
            self.err(
                span,
                format!(
                    "the branches of `? :` have different types: {} and {}",
                    self.side(a, at),
                    self.side(b, bt)
                ),
            )
        })?;
        Ok((Node::Cond(Box::new(cn), Box::new(an), Box::new(bn)), t))
    }

    /// `x in [a, b, ...]`: equality with some item (computed items allowed).
    fn in_list(
        &mut self,
        x: &Ast,
        items: &[Ast],
        negated: bool,
        span: Span,
    ) -> Result<(Node, Ty), ExprError> {
        let (xn, xt) = self.compile(x)?;
        let mut nodes = Vec::with_capacity(items.len());
        for it in items {
            let (n, t) = self.compile(it)?;
            if unify(xt, t).is_none() {
                return Err(self.err(
                    span,
                    format!(
                        "`in` compares {} with a list item that is {}",
                        self.side(x, xt),
                        self.side(it, t)
                    ),
                ));
            }
            nodes.push(n);
        }
        Ok((Node::InList(Box::new(xn), nodes, negated), Ty::Bool))
    }

    /// `x in l` for a list value `l`.
    fn in_value(
        &mut self,
        x: &Ast,
        l: &Ast,
        negated: bool,
        span: Span,
    ) -> Result<(Node, Ty), ExprError> {
        let (xn, xt) = self.compile(x)?;
        let (ln, lt) = self.compile(l)?;
        if !lt.is_list() && lt != Ty::Null {
            return Err(self.err(
                span,
                format!(
                    "`in` needs a list (a list column, a field `column.field`, `[a, b, ...]`) or a range `a..b` on its right, but it is {}",
                    self.side(l, lt)
                ),
            ));
        }
        if xt.is_list() {
            return Err(self.err(
                span,
                format!(
                    "`in` tests whether one value is an item of a list, but its left side is {}",
                    self.side(x, xt)
                ),
            ));
        }
        if unify(xt, lt.item()).is_none() {
            return Err(self.err(
                span,
                format!(
                    "`in` looks for {} in {}",
                    self.side(x, xt),
                    self.side(l, lt)
                ),
            ));
        }
        Ok((Node::In(Box::new(xn), Box::new(ln), negated), Ty::Bool))
    }

    fn call(&mut self, name: &str, args: &[Ast], span: Span) -> Result<(Node, Ty), ExprError> {
        let usage = self.function_usage(name, args.len(), span)?;
        if name == "len"
            && let Some(n) = self.struct_len(args)
        {
            return Ok((n, Ty::Int));
        }
        let mut nodes = Vec::with_capacity(args.len());
        let mut tys = Vec::with_capacity(args.len());
        for a in args {
            let (n, t) = self.compile(a)?;
            nodes.push(n);
            tys.push(t);
        }
        let sig = signature(name, &tys);
        let bad = |this: &Self, i: usize, need: &str| {
            let side = this.side(&args[i], tys[i]);
            this.err(
                span,
                format!(
                    "`{name}` needs {need}, but argument {} is {side}: {usage}",
                    i + 1
                ),
            )
        };
        if let Some(i) = tys.iter().position(|t| !(sig.accepts)(*t)) {
            return Err(bad(self, i, sig.need));
        }
        let any_float = tys.contains(&Ty::Float);
        let ty = match sig.result {
            Res::Fixed(t) => t,
            Res::FloatIfAny => {
                if any_float {
                    Ty::Float
                } else {
                    Ty::Int
                }
            }
            Res::First => tys[0],
            Res::Unified => {
                let mut t = Ty::Null;
                for (i, a) in tys.iter().enumerate() {
                    t = unify(t, *a).ok_or_else(|| bad(self, i, "arguments of one type"))?;
                }
                t
            }
        };
        Ok(match sig.func {
            Some(f) => (Node::Call(f, nodes), ty),
            // `mod` is the remainder operator.
            None => {
                let (b, a) = (nodes.pop().unwrap(), nodes.pop().unwrap());
                let (a, b) = (Box::new(a), Box::new(b));
                let n = if any_float {
                    Node::FloatArith(Arith::Rem, a, b)
                } else {
                    Node::IntArith(Arith::Rem, a, b)
                };
                (n, ty)
            }
        })
    }

    /// The usage line of function `name`, or the error for an unknown name
    /// or a wrong number of arguments.
    fn function_usage(
        &self,
        name: &str,
        n_args: usize,
        span: Span,
    ) -> Result<&'static str, ExprError> {
        let Some(&(_, lo, hi, usage)) = FUNCTIONS.iter().find(|f| f.0 == name) else {
            let col = if self.table.column(name).is_some() {
                format!(" (`{name}` is a column: multiplication is written `{name} * (...)`)")
            } else {
                String::new()
            };
            return Err(self.err(
                span,
                format!(
                    "unknown function `{name}`{col}; functions: {}",
                    FUNCTIONS.iter().map(|f| f.0).collect::<Vec<_>>().join(", ")
                ),
            ));
        };
        if n_args < lo || n_args > hi {
            let n = if lo == hi {
                format!("{lo}")
            } else if hi == usize::MAX {
                format!("at least {lo}")
            } else {
                format!("{lo} to {hi}")
            };
            let s = if n == "1" { "" } else { "s" };
            return Err(self.err(
                span,
                format!("`{name}` takes {n} argument{s}, got {n_args}: {usage}"),
            ));
        }
        Ok(usage)
    }
}

/// What a function accepts and gives.
struct Signature {
    /// The function (`None`: `mod`, compiled to the remainder operator).
    func: Option<Func>,
    /// Which argument types it accepts.
    accepts: fn(Ty) -> bool,
    /// What it needs, in words, for the error message.
    need: &'static str,
    result: Res,
}

/// The type of a function's result.
enum Res {
    Fixed(Ty),
    /// A float when any argument is a float, else an integer.
    FloatIfAny,
    /// The first argument's type.
    First,
    /// The one type of every argument (nulls aside).
    Unified,
}

/// The signature of function `name` (known to exist) given its argument types.
fn signature(name: &str, tys: &[Ty]) -> Signature {
    let int_or_null: fn(Ty) -> bool = |t| matches!(t, Ty::Int | Ty::Null);
    let int_list: fn(Ty) -> bool = |t| matches!(t, Ty::IntList | Ty::EmptyList | Ty::Null);
    let sig = |func, accepts, need, result| Signature {
        func,
        accepts,
        need,
        result,
    };
    let one_list = tys.len() == 1 && (tys[0].is_list() || tys[0] == Ty::Null);
    let int = Res::Fixed(Ty::Int);
    match name {
        "len" => sig(
            Some(Func::Len),
            |t| t.is_list() || matches!(t, Ty::Str | Ty::Null),
            "a list or a string",
            int,
        ),
        "sum" => sig(Some(Func::Sum), int_list, "a list of integers", int),
        "min" if one_list => sig(
            Some(Func::MinOf),
            int_list,
            "numbers or one list of integers",
            int,
        ),
        "max" if one_list => sig(
            Some(Func::MaxOf),
            int_list,
            "numbers or one list of integers",
            int,
        ),
        "sorted" => sig(
            Some(Func::Sorted),
            |t| t.is_list() || t == Ty::Null,
            "a list",
            Res::First,
        ),
        "min_gap" => sig(Some(Func::MinGap), int_list, "a list of integers", int),
        "max_gap" => sig(Some(Func::MaxGap), int_list, "a list of integers", int),
        "v2" => sig(Some(Func::V2), int_or_null, "an integer", int),
        "is_square" => sig(
            Some(Func::IsSquare),
            int_or_null,
            "an integer",
            Res::Fixed(Ty::Bool),
        ),
        "is_prime" => sig(
            Some(Func::IsPrime),
            int_or_null,
            "an integer",
            Res::Fixed(Ty::Bool),
        ),
        "mod" => sig(None, Ty::numeric, "numbers", Res::FloatIfAny),
        "floor" => sig(Some(Func::Floor), Ty::numeric, "a number", int),
        "ceil" => sig(Some(Func::Ceil), Ty::numeric, "a number", int),
        "abs" => sig(Some(Func::Abs), Ty::numeric, "numbers", Res::FloatIfAny),
        "min" => sig(Some(Func::Min), Ty::numeric, "numbers", Res::FloatIfAny),
        "max" => sig(Some(Func::Max), Ty::numeric, "numbers", Res::FloatIfAny),
        "gcd" => sig(Some(Func::Gcd), int_or_null, "integers", int),
        "lcm" => sig(Some(Func::Lcm), int_or_null, "integers", int),
        "xor" => sig(Some(Func::Xor), int_or_null, "integers", int),
        "pow" => sig(Some(Func::Pow), Ty::numeric, "numbers", Res::FloatIfAny),
        "is_null" => sig(
            Some(Func::IsNull),
            |_| true,
            "anything",
            Res::Fixed(Ty::Bool),
        ),
        _ => sig(Some(Func::Coalesce), |_| true, "anything", Res::Unified),
    }
}
