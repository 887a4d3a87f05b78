//! Type checking and compilation of an [`Ast`] against a table's columns, and
//! the row-by-row evaluator.
//!
//! Compilation resolves every column name to a slot once and checks every
//! operator's operand types (errors name the operator and point at it), so
//! evaluation is a walk over a small typed tree with `Copy` values: no
//! allocation and no name lookup per row.

use super::parse::{self, Ast, BinOp, ExprError, Span};
use crate::data::{Cell, DictVec, EnumVec, StrVec, Table, Values};

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
    /// A list (of integers, strings or structs): only named, not yet computed with.
    List,
}

impl Ty {
    fn name(self) -> &'static str {
        match self {
            Ty::Int => "an integer",
            Ty::Float => "a float",
            Ty::Bool => "a boolean",
            Ty::Str => "a string",
            Ty::Null => "null",
            Ty::List => "a list",
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
            Values::Float(_) => Ty::Float,
            Values::Str(_) | Values::Dict(_) | Values::Enum(_) => Ty::Str,
            Values::IntList(_) | Values::StrList(_) | Values::StructList(_) => Ty::List,
            Values::Null(_) => Ty::Null,
        }
    }
}

/// A runtime value: `Copy`, borrowing strings from the table or the program.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum V<'a> {
    Null,
    Int(i64),
    Float(f64),
    Bool(bool),
    Str(&'a str),
}

impl<'a> V<'a> {
    fn f64(self) -> Option<f64> {
        match self {
            V::Int(v) => Some(v as f64),
            V::Float(v) => Some(v),
            _ => None,
        }
    }
    pub(crate) fn cell(self) -> Cell<'a> {
        match self {
            V::Null => Cell::Null,
            V::Int(v) => Cell::Int(v),
            V::Float(v) => Cell::Float(v),
            V::Bool(v) => Cell::Bool(v),
            V::Str(v) => Cell::Str(v),
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
}

/// The helper functions: name, arity (min, max), what they do.
pub const FUNCTIONS: &[(&str, usize, usize, &str)] = &[
    (
        "v2",
        1,
        1,
        "v2(n): the 2-adic valuation (largest e with 2^e | n); v2(0) is null",
    ),
    ("mod", 2, 2, "mod(a, b): the same as a % b (floor modulus)"),
    ("floor", 1, 1, "floor(x): largest integer ≤ x"),
    ("ceil", 1, 1, "ceil(x): smallest integer ≥ x"),
    ("abs", 1, 1, "abs(x)"),
    ("min", 1, usize::MAX, "min(a, b, ...)"),
    ("max", 1, usize::MAX, "max(a, b, ...)"),
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
];

#[derive(Clone, Debug)]
enum Node {
    Col(usize),
    Lit(Lit),
    Neg(Box<Node>),
    IntArith(Arith, Box<Node>, Box<Node>),
    FloatArith(Arith, Box<Node>, Box<Node>),
    Cmp(Cmp, Box<Node>, Box<Node>),
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

#[derive(Clone, Debug)]
enum Lit {
    Null,
    Int(i64),
    Float(f64),
    Bool(bool),
    Str(Box<str>),
}

/// A column bound for evaluation.
#[derive(Clone, Copy)]
enum Col<'t> {
    Int(&'t [i64]),
    OptInt(&'t [Option<i64>]),
    Bool(&'t [bool]),
    Float(&'t [f64]),
    Str(&'t StrVec),
    Enum(&'t EnumVec),
    Dict(&'t DictVec),
    Other,
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
        let (root, ty) = c.compile(&ast)?;
        Ok(Expr {
            source: source.to_string(),
            ast,
            root,
            columns: c.columns,
            ty,
        })
    }

    /// The expression's text.
    pub fn source(&self) -> &str {
        &self.source
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
            cols.push(match v {
                Values::Int(x) => Col::Int(x),
                Values::OptInt(x) => Col::OptInt(x),
                Values::Bool(x) => Col::Bool(x),
                Values::Float(x) => Col::Float(x),
                Values::Str(x) => Col::Str(x),
                Values::Enum(x) => Col::Enum(x),
                Values::Dict(x) => Col::Dict(x),
                Values::IntList(_)
                | Values::StrList(_)
                | Values::StructList(_)
                | Values::Null(_) => Col::Other,
            });
        }
        // The compiled tree relies on the column types seen at compile time.
        let recompiled = Expr::from_ast(&self.source, self.ast.clone(), table)?;
        if recompiled.columns != self.columns || recompiled.ty != self.ty {
            return Err(ExprError::new(
                &self.source,
                self.ast.full_span(),
                "the table's columns have other types than the table this was compiled for",
            ));
        }
        Ok(Bound { expr: self, cols })
    }
}

/// An expression bound to a table: evaluate it on rows.
pub struct Bound<'a> {
    expr: &'a Expr,
    cols: Vec<Col<'a>>,
}

impl<'a> Bound<'a> {
    /// The value on row `row`.
    pub fn eval(&self, row: usize) -> Cell<'a> {
        eval(&self.expr.root, &self.cols, row).cell()
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
        (x, y) => x.f64()? == y.f64()?,
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

fn eval<'a>(n: &'a Node, cols: &[Col<'a>], row: usize) -> V<'a> {
    match n {
        Node::Col(slot) => match cols[*slot] {
            Col::Int(x) => V::Int(x[row]),
            Col::OptInt(x) => x[row].map_or(V::Null, V::Int),
            Col::Bool(x) => V::Bool(x[row]),
            Col::Float(x) => V::Float(x[row]),
            Col::Str(x) => x.get_opt(row).map_or(V::Null, V::Str),
            Col::Enum(x) => x.get(row).map_or(V::Null, V::Str),
            Col::Dict(x) => x.get(row).map_or(V::Null, V::Str),
            Col::Other => V::Null,
        },
        Node::Lit(l) => match l {
            Lit::Null => V::Null,
            Lit::Int(v) => V::Int(*v),
            Lit::Float(v) => V::Float(*v),
            Lit::Bool(v) => V::Bool(*v),
            Lit::Str(s) => V::Str(s),
        },
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
        Node::And(l, r) => match tri(eval(l, cols, row)) {
            Some(false) => V::Bool(false),
            a => match (a, tri(eval(r, cols, row))) {
                (_, Some(false)) => V::Bool(false),
                (Some(true), Some(true)) => V::Bool(true),
                _ => V::Null,
            },
        },
        Node::Or(l, r) => match tri(eval(l, cols, row)) {
            Some(true) => V::Bool(true),
            a => match (a, tri(eval(r, cols, row))) {
                (_, Some(true)) => V::Bool(true),
                (Some(false), Some(false)) => V::Bool(false),
                _ => V::Null,
            },
        },
        Node::Implies(l, r) => match tri(eval(l, cols, row)) {
            Some(false) => V::Bool(true),
            a => match (a, tri(eval(r, cols, row))) {
                (_, Some(true)) => V::Bool(true),
                (Some(true), Some(false)) => V::Bool(false),
                _ => V::Null,
            },
        },
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
        Node::InList(x, items, negated) => {
            let x = eval(x, cols, row);
            if matches!(x, V::Null) {
                return V::Null;
            }
            // As SQL: true if some item equals x; else null if some item is null.
            let mut saw_null = false;
            for it in items {
                match eq_vals(x, eval(it, cols, row)) {
                    Some(true) => return V::Bool(!negated),
                    Some(false) => {}
                    None => saw_null = true,
                }
            }
            if saw_null { V::Null } else { V::Bool(*negated) }
        }
        Node::InRange(x, lo, hi, negated) => {
            let x = eval(x, cols, row);
            let a = compare(Cmp::Ge, x, eval(lo, cols, row));
            let b = compare(Cmp::Le, x, eval(hi, cols, row));
            let inside = match (a, b) {
                (Some(false), _) | (_, Some(false)) => Some(false),
                (Some(true), Some(true)) => Some(true),
                _ => None,
            };
            of_tri(inside.map(|v| v != *negated))
        }
        Node::Call(f, args) => call(*f, args, cols, row),
    }
}

fn call<'a>(f: Func, args: &'a [Node], cols: &[Col<'a>], row: usize) -> V<'a> {
    let arg = |i: usize| eval(&args[i], cols, row);
    match f {
        Func::V2 => match arg(0) {
            V::Int(n) => v2(n).map_or(V::Null, V::Int),
            _ => V::Null,
        },
        Func::Floor | Func::Ceil => match arg(0) {
            V::Int(n) => V::Int(n),
            V::Float(x) => {
                let y = if f == Func::Floor {
                    x.floor()
                } else {
                    x.ceil()
                };
                if y.is_finite() && y >= i64::MIN as f64 && y < i64::MAX as f64 {
                    V::Int(y as i64)
                } else {
                    V::Null
                }
            }
            _ => V::Null,
        },
        Func::Abs => match arg(0) {
            V::Int(n) => n.checked_abs().map_or(V::Null, V::Int),
            V::Float(x) => V::Float(x.abs()),
            _ => V::Null,
        },
        Func::Min | Func::Max => {
            let mut best = V::Null;
            let mut any_float = false;
            for i in 0..args.len() {
                let v = arg(i);
                match v {
                    V::Null => return V::Null,
                    V::Float(_) => any_float = true,
                    _ => {}
                }
                let better = match best {
                    V::Null => true,
                    b => compare(if f == Func::Min { Cmp::Lt } else { Cmp::Gt }, v, b)
                        .unwrap_or(false),
                };
                if better {
                    best = v;
                }
            }
            // Mixed integer and float arguments give a float.
            match (any_float, best) {
                (true, V::Int(x)) => V::Float(x as f64),
                _ => best,
            }
        }
        Func::Xor => {
            let mut acc = 0i64;
            for i in 0..args.len() {
                let V::Int(n) = arg(i) else {
                    return V::Null;
                };
                acc ^= n;
            }
            V::Int(acc)
        }
        Func::Gcd | Func::Lcm => {
            let mut acc: i64 = if f == Func::Gcd { 0 } else { 1 };
            for i in 0..args.len() {
                let V::Int(n) = arg(i) else {
                    return V::Null;
                };
                let next = if f == Func::Gcd {
                    gcd(acc, n)
                } else if n == 0 || acc == 0 {
                    Some(0)
                } else {
                    gcd(acc, n)
                        .and_then(|g| (acc / g).checked_mul(n))
                        .map(i64::abs)
                };
                match next {
                    Some(v) => acc = v,
                    None => return V::Null,
                }
            }
            V::Int(acc)
        }
        Func::Pow => match (arg(0), arg(1)) {
            (V::Int(a), V::Int(e)) => ipow(a, e).map_or(V::Null, V::Int),
            (a, e) => match (a.f64(), e.f64()) {
                (Some(a), Some(e)) => {
                    let r = a.powf(e);
                    if r.is_nan() { V::Null } else { V::Float(r) }
                }
                _ => V::Null,
            },
        },
        Func::IsNull => V::Bool(matches!(arg(0), V::Null)),
        Func::Coalesce => {
            for i in 0..args.len() {
                let v = arg(i);
                if !matches!(v, V::Null) {
                    return v;
                }
            }
            V::Null
        }
    }
}

fn unify(a: Ty, b: Ty) -> Option<Ty> {
    Some(match (a, b) {
        (Ty::Null, t) | (t, Ty::Null) => t,
        (x, y) if x == y => x,
        (Ty::Int, Ty::Float) | (Ty::Float, Ty::Int) => Ty::Float,
        _ => return None,
    })
}

impl Compiler<'_> {
    fn err(&self, span: Span, msg: impl Into<String>) -> ExprError {
        ExprError::new(self.src, span, msg)
    }

    /// "its left side is a string (`outcome`)".
    fn side(&self, ast: &Ast, ty: Ty) -> String {
        let s = ast.full_span();
        format!("{} (`{}`)", ty.name(), &self.src[s.start..s.end])
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
        let Some(values) = self.table.column(name) else {
            let names = self.table.names();
            let close = names
                .iter()
                .find(|n| n.eq_ignore_ascii_case(name))
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
            return Err(self.err(
                span,
                format!(
                    "unknown column `{name}`{close}{fhint}; available columns: {}{lets}",
                    if names.is_empty() {
                        "(none)".to_string()
                    } else {
                        names.join(", ")
                    }
                ),
            ));
        };
        let slot = match self.columns.iter().position(|c| c == name) {
            Some(s) => s,
            None => {
                self.columns.push(name.to_string());
                self.columns.len() - 1
            }
        };
        Ok((Node::Col(slot), Ty::of(values)))
    }

    fn compile(&mut self, ast: &Ast) -> Result<(Node, Ty), ExprError> {
        Ok(match ast {
            Ast::Int(v, _) => (Node::Lit(Lit::Int(*v)), Ty::Int),
            Ast::Float(v, _) => (Node::Lit(Lit::Float(*v)), Ty::Float),
            Ast::Str(s, _) => (Node::Lit(Lit::Str(s.as_str().into())), Ty::Str),
            Ast::Bool(b, _) => (Node::Lit(Lit::Bool(*b)), Ty::Bool),
            Ast::Null(_) => (Node::Lit(Lit::Null), Ty::Null),
            Ast::Name(n, span) => self.column(n, *span)?,
            Ast::Let(name, span, value, body) => {
                if self.table.column(name).is_some() {
                    return Err(self.err(
                        *span,
                        format!("`let {name}` would hide the column `{name}`; choose another name"),
                    ));
                }
                // Type-check the value once here, so its errors point at it.
                self.compile(value)?;
                self.lets.push((name.clone(), (**value).clone()));
                let r = self.compile(body);
                self.lets.pop();
                r?
            }
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
            Ast::Bin(op, l, r, span) => {
                let (ln, lt) = self.compile(l)?;
                let (rn, rt) = self.compile(r)?;
                let (ln, rn) = (Box::new(ln), Box::new(rn));
                let sym = op.symbol();
                match op {
                    BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => {
                        for (a, t, which) in [(l, lt, "left"), (r, rt, "right")] {
                            if !t.numeric() {
                                return Err(self.err(
                                    *span,
                                    format!(
                                        "`{sym}` needs numbers, but its {which} side is {}",
                                        self.side(a, t)
                                    ),
                                ));
                            }
                        }
                        let ar = match op {
                            BinOp::Add => Arith::Add,
                            BinOp::Sub => Arith::Sub,
                            BinOp::Mul => Arith::Mul,
                            BinOp::Div => Arith::Div,
                            _ => Arith::Rem,
                        };
                        if lt == Ty::Float || rt == Ty::Float {
                            (Node::FloatArith(ar, ln, rn), Ty::Float)
                        } else {
                            (Node::IntArith(ar, ln, rn), Ty::Int)
                        }
                    }
                    BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                        let ok = match unify(lt, rt) {
                            Some(Ty::Bool) => matches!(op, BinOp::Eq | BinOp::Ne),
                            Some(_) => true,
                            None => false,
                        };
                        if !ok {
                            return Err(self.err(
                                *span,
                                format!(
                                    "`{sym}` cannot compare {} with {}",
                                    self.side(l, lt),
                                    self.side(r, rt)
                                ),
                            ));
                        }
                        (Node::Cmp(Cmp::of(*op), ln, rn), Ty::Bool)
                    }
                    BinOp::And | BinOp::Or | BinOp::Implies | BinOp::Iff => {
                        for (a, t, which) in [(l, lt, "left"), (r, rt, "right")] {
                            if !t.boolish() {
                                return Err(self.err(
                                    *span,
                                    format!(
                                        "`{sym}` needs true or false on both sides, but its {which} side is {}",
                                        self.side(a, t)
                                    ),
                                ));
                            }
                        }
                        let n = match op {
                            BinOp::And => Node::And(ln, rn),
                            BinOp::Or => Node::Or(ln, rn),
                            BinOp::Implies => Node::Implies(ln, rn),
                            _ => Node::Iff(ln, rn),
                        };
                        (n, Ty::Bool)
                    }
                }
            }
            Ast::Cond(c, a, b, span) => {
                let (cn, ct) = self.compile(c)?;
                if !ct.boolish() {
                    return Err(self.err(
                        *span,
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
                        *span,
                        format!(
                            "the branches of `? :` have different types: {} and {}",
                            self.side(a, at),
                            self.side(b, bt)
                        ),
                    )
                })?;
                (Node::Cond(Box::new(cn), Box::new(an), Box::new(bn)), t)
            }
            Ast::InList(x, items, negated, span, _) => {
                let (xn, xt) = self.compile(x)?;
                let mut nodes = Vec::with_capacity(items.len());
                for it in items {
                    let (n, t) = self.compile(it)?;
                    if unify(xt, t).is_none() {
                        return Err(self.err(
                            *span,
                            format!(
                                "`in` compares {} with a list item that is {}",
                                self.side(x, xt),
                                self.side(it, t)
                            ),
                        ));
                    }
                    nodes.push(n);
                }
                (Node::InList(Box::new(xn), nodes, *negated), Ty::Bool)
            }
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
            Ast::Call(name, args, span, _) => self.call(name, args, *span)?,
        })
    }

    fn call(&mut self, name: &str, args: &[Ast], span: Span) -> Result<(Node, Ty), ExprError> {
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
        if args.len() < lo || args.len() > hi {
            let n = if lo == hi {
                format!("{lo}")
            } else if hi == usize::MAX {
                format!("at least {lo}")
            } else {
                format!("{lo} to {hi}")
            };
            return Err(self.err(
                span,
                format!(
                    "`{name}` takes {n} argument{}, got {}: {usage}",
                    if n == "1" { "" } else { "s" },
                    args.len()
                ),
            ));
        }
        let mut nodes = Vec::with_capacity(args.len());
        let mut tys = Vec::with_capacity(args.len());
        for a in args {
            let (n, t) = self.compile(a)?;
            nodes.push(n);
            tys.push(t);
        }
        let bad = |this: &Self, i: usize, need: &str| {
            this.err(
                span,
                format!(
                    "`{name}` needs {need}, but argument {} is {}: {usage}",
                    i + 1,
                    this.side(&args[i], tys[i])
                ),
            )
        };
        let need = |this: &Self, ok: fn(Ty) -> bool, need: &str| -> Result<(), ExprError> {
            match tys.iter().position(|t| !ok(*t)) {
                Some(i) => Err(bad(this, i, need)),
                None => Ok(()),
            }
        };
        let int_or_null = |t: Ty| matches!(t, Ty::Int | Ty::Null);
        let (f, ty) = match name {
            "v2" => {
                need(self, int_or_null, "an integer")?;
                (Func::V2, Ty::Int)
            }
            "mod" => {
                need(self, Ty::numeric, "numbers")?;
                let (b, a) = (nodes.pop().unwrap(), nodes.pop().unwrap());
                let float = tys.contains(&Ty::Float);
                let n = if float {
                    Node::FloatArith(Arith::Rem, Box::new(a), Box::new(b))
                } else {
                    Node::IntArith(Arith::Rem, Box::new(a), Box::new(b))
                };
                return Ok((n, if float { Ty::Float } else { Ty::Int }));
            }
            "floor" | "ceil" => {
                need(self, Ty::numeric, "a number")?;
                (
                    if name == "floor" {
                        Func::Floor
                    } else {
                        Func::Ceil
                    },
                    Ty::Int,
                )
            }
            "abs" | "min" | "max" => {
                need(self, Ty::numeric, "numbers")?;
                let t = if tys.contains(&Ty::Float) {
                    Ty::Float
                } else {
                    Ty::Int
                };
                let f = match name {
                    "abs" => Func::Abs,
                    "min" => Func::Min,
                    _ => Func::Max,
                };
                (f, t)
            }
            "gcd" | "lcm" => {
                need(self, int_or_null, "integers")?;
                (if name == "gcd" { Func::Gcd } else { Func::Lcm }, Ty::Int)
            }
            "xor" => {
                need(self, int_or_null, "integers")?;
                (Func::Xor, Ty::Int)
            }
            "pow" => {
                need(self, Ty::numeric, "numbers")?;
                let t = if tys.contains(&Ty::Float) {
                    Ty::Float
                } else {
                    Ty::Int
                };
                (Func::Pow, t)
            }
            "is_null" => (Func::IsNull, Ty::Bool),
            _ => {
                // coalesce
                let mut t = Ty::Null;
                for (i, a) in tys.iter().enumerate() {
                    t = unify(t, *a).ok_or_else(|| bad(self, i, "arguments of one type"))?;
                }
                (Func::Coalesce, t)
            }
        };
        Ok((Node::Call(f, nodes), ty))
    }
}
