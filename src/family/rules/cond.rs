//! A rule's condition: read with the claims' parser ([`crate::expr::parse`]),
//! type-checked by the claims' type checker against the names a move may
//! read ([`crate::expr::Expr::compile_predicate`] on an empty table of those
//! columns), then compiled once into a tree of integer operations evaluated
//! per move with no allocation ([`Cond::allows`]).
//!
//! Semantics are the claims' (floor `/` and `%`, null on overflow or
//! division by zero, Kleene's three-valued `and`/`or`/`not`), with one rule
//! of the family on top: **a condition that comes out null allows the
//! move** (a missing history does not restrict).

use crate::data::{Table, Values};
use crate::expr::compile::{div_floor, is_prime, is_square, mod_floor};
use crate::expr::parse::{Ast, BinOp, parse};
use crate::expr::{Expr, ExprError};

/// The slots of the names a condition may read, in [`Env`] order.
pub const N: usize = 0;
/// The take.
pub const T: usize = 1;
/// The opponent's previous take (null before the game's first move).
pub const LAST: usize = 2;
/// The mover's own previous take (null before their first move).
pub const MINE: usize = 3;
/// True on the game's first move.
pub const FIRST: usize = 4;
/// `both:`'s first heap.
pub const N1: usize = 5;
/// `both:`'s second heap.
pub const N2: usize = 6;
/// The first parameter's slot.
pub const PARAMS: usize = 7;

/// The names of the fixed slots.
pub const NAMES: [&str; 7] = ["n", "t", "last", "mine", "first", "n1", "n2"];

/// A value: an integer, a truth value, or null (`Int(i64::MIN)` never
/// stands for null; null is its own variant).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum V {
    /// An integer.
    Int(i64),
    /// A truth value.
    Bool(bool),
    /// Null.
    Null,
}

/// The values of the slots for one move.
pub type Env = [V];

#[derive(Clone, Debug)]
enum Op {
    Lit(V),
    Var(usize),
    Neg(Box<Op>),
    Not(Box<Op>),
    Bin(BinOp, Box<Op>, Box<Op>),
    Cond(Box<Op>, Box<Op>, Box<Op>),
    InList(Box<Op>, Vec<Op>, bool),
    InRange(Box<Op>, Box<Op>, Box<Op>, bool),
    Call(Fun, Vec<Op>),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Fun {
    IsSquare,
    IsPrime,
    IsNull,
    Abs,
    Min,
    Max,
    Gcd,
    Xor,
    Mod,
    Pow,
    Coalesce,
    Same,
}

/// One compiled condition.
#[derive(Clone, Debug)]
pub struct Cond {
    /// The text as written.
    pub source: String,
    op: Op,
    /// Which slots it reads.
    pub reads: Vec<bool>,
}

/// Where the checked condition is in the spec, for its errors.
fn fail(e: ExprError) -> String {
    e.to_string()
}

impl Cond {
    /// Reads and checks `source` as a condition on the slots `allowed` (a
    /// subset of [`NAMES`]) and the parameters `params` (slots from
    /// [`PARAMS`] on): the error text names the mistake (an unknown name
    /// with the names allowed and a suggestion; a type error).
    pub fn compile(source: &str, allowed: &[&str], params: &[String]) -> Result<Cond, String> {
        let mut t = Table::new();
        for name in allowed {
            let v = if *name == "first" {
                Values::Bool(vec![])
            } else {
                Values::Int(vec![])
            };
            t.push(name, v);
        }
        for p in params {
            t.push(p, Values::Int(vec![]));
        }
        Expr::compile_predicate(source, &t).map_err(fail)?;
        let ast = parse(source).map_err(fail)?;
        let mut reads = vec![false; PARAMS + params.len()];
        let mut lets = Vec::new();
        let op = lower(&ast, params, &mut reads, &mut lets)
            .map_err(|m| format!("{m}, in the condition `{source}`"))?;
        Ok(Cond {
            source: source.to_string(),
            op,
            reads,
        })
    }
    /// Does it read slot `s`?
    pub fn reads(&self, s: usize) -> bool {
        self.reads[s]
    }
    /// Does the move with the slots `env` satisfy it (null allows)?
    #[inline]
    pub fn allows(&self, env: &Env) -> bool {
        !matches!(eval(&self.op, env), V::Bool(false))
    }
}

/// Does `op` read a slot for which `which` holds?
fn reads_any(op: &Op, which: &dyn Fn(usize) -> bool) -> bool {
    let r = |x: &Op| reads_any(x, which);
    match op {
        Op::Lit(_) => false,
        Op::Var(s) => which(*s),
        Op::Neg(x) | Op::Not(x) => r(x),
        Op::Bin(_, a, b) => r(a) || r(b),
        Op::Cond(c, a, b) | Op::InRange(c, a, b, _) => r(c) || r(a) || r(b),
        Op::InList(x, items, _) => r(x) || items.iter().any(r),
        Op::Call(_, args) => args.iter().any(r),
    }
}

/// Does `op` read any of the move's slots (the parameters aside)?
fn reads_move(op: &Op) -> bool {
    reads_any(op, &|s| s < PARAMS)
}

/// A value of `op` that reads no move slot (a constant or parameters).
fn fixed(op: &Op, env: &Env) -> Option<i64> {
    match (reads_move(op), eval(op, env)) {
        (false, V::Int(x)) => Some(x),
        _ => None,
    }
}

/// A bound on `t` that `op` being true (or null) implies, where the
/// condition states one: `t <= e`, `t < e`, `t in [..]`, `t in a..b` with
/// `e`, the items and both ends fixed, through `and` (the least), `or` and
/// `? :` (the largest of both sides). Null allows: a bound holds only where
/// the bounding comparison cannot be null, which fixed operands ensure,
/// and a choice bounds only where it cannot be null ([`never_null`]: `t in
/// last..5` and `100 / (n - t) > 1 ? t <= 2 : t <= 3` allow every take
/// where `last` or the choice is null).
fn bound(op: &Op, env: &Env) -> Option<i64> {
    let is_t = |x: &Op| matches!(x, Op::Var(T));
    match op {
        Op::Bin(BinOp::And, a, b) => match (bound(a, env), bound(b, env)) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        },
        Op::Bin(BinOp::Or, a, b) => Some(bound(a, env)?.max(bound(b, env)?)),
        Op::Cond(c, a, b) if never_null(c) => Some(bound(a, env)?.max(bound(b, env)?)),
        Op::Bin(BinOp::Le, a, e) if is_t(a) => fixed(e, env),
        Op::Bin(BinOp::Lt, a, e) if is_t(a) => fixed(e, env).map(|x| x.saturating_sub(1)),
        Op::Bin(BinOp::Ge, e, a) if is_t(a) => fixed(e, env),
        Op::Bin(BinOp::Gt, e, a) if is_t(a) => fixed(e, env).map(|x| x.saturating_sub(1)),
        Op::Bin(BinOp::Eq, a, e) if is_t(a) => fixed(e, env),
        Op::InList(x, items, false) if is_t(x) => items
            .iter()
            .map(|i| fixed(i, env))
            .collect::<Option<Vec<_>>>()?
            .into_iter()
            .max(),
        Op::InRange(x, lo, hi, false) if is_t(x) => {
            fixed(lo, env)?;
            fixed(hi, env)
        }
        Op::Lit(V::Bool(false)) => Some(0),
        _ => None,
    }
}

/// Whether `op` can never be null, judged cautiously: literals, the heap,
/// the take and the sweep's parameters, and comparisons, `and`, `or`,
/// `not` and lists of such (no arithmetic, which overflows or divides by
/// zero to null; no history, null on the first move).
fn never_null(op: &Op) -> bool {
    use BinOp::{And, Eq, Ge, Gt, Le, Lt, Ne, Or};
    match op {
        Op::Lit(v) => !matches!(v, V::Null),
        Op::Var(s) => *s == N || *s == T || *s >= PARAMS,
        Op::Not(a) => never_null(a),
        Op::Bin(And | Or | Eq | Ne | Lt | Le | Gt | Ge, a, b) => never_null(a) && never_null(b),
        Op::InList(x, items, _) => never_null(x) && items.iter().all(never_null),
        _ => false,
    }
}

/// Is `op` `n % t == 0` (or `mod(n, t) == 0`, either side of `==`)?
fn is_divides(op: &Op) -> bool {
    let rem = |x: &Op| match x {
        Op::Bin(BinOp::Rem, a, b) => matches!((&**a, &**b), (Op::Var(N), Op::Var(T))),
        Op::Call(Fun::Mod, args) => matches!(&args[..], [Op::Var(N), Op::Var(T)]),
        _ => false,
    };
    let zero = |x: &Op| matches!(x, Op::Lit(V::Int(0)));
    match op {
        Op::Bin(BinOp::Eq, a, b) => (rem(a) && zero(b)) || (zero(a) && rem(b)),
        _ => false,
    }
}

/// Does `op` being true or null imply `t` divides `n` (a conjunct
/// `n % t == 0`, which is never null since `1 ≤ t`)?
fn implies_divides(op: &Op) -> bool {
    match op {
        Op::Bin(BinOp::And, a, b) => implies_divides(a) || implies_divides(b),
        x => is_divides(x),
    }
}

impl Cond {
    /// Does the condition only allow takes that divide the heap (a conjunct
    /// `n % t == 0`)? Then only the divisors of `n` are tried.
    pub fn divisors_only(&self) -> bool {
        implies_divides(&self.op)
    }
    /// `A and t != last` (either order) with `A` reading only `t` and
    /// parameters: `A`, the take set of a `takeaway` rule with `no_repeat`;
    /// `t != last` alone: every take (`take: any`).
    pub fn no_repeat_part(&self) -> Option<Cond> {
        let is_ne = |x: &Op| match x {
            Op::Bin(BinOp::Ne, l, r) => matches!(
                (&**l, &**r),
                (Op::Var(T), Op::Var(LAST)) | (Op::Var(LAST), Op::Var(T))
            ),
            _ => false,
        };
        let any = Op::Lit(V::Bool(true));
        let rest = match &self.op {
            op if is_ne(op) => &any,
            Op::Bin(BinOp::And, a, b) => match (is_ne(a), is_ne(b)) {
                (true, false) => &**b,
                (false, true) => &**a,
                _ => return None,
            },
            _ => return None,
        };
        if reads_any(rest, &|s| s < PARAMS && s != T) {
            return None;
        }
        let mut reads = vec![false; self.reads.len()];
        reads[T] = true;
        reads[PARAMS..].copy_from_slice(&self.reads[PARAMS..]);
        Some(Cond {
            source: self.source.clone(),
            op: rest.clone(),
            reads,
        })
    }
    /// The largest take the condition can allow, where it states a bound
    /// (see [`bound`]), with the parameters of `env`.
    pub fn take_bound(&self, env: &Env) -> Option<u32> {
        bound(&self.op, env).map(|b| b.clamp(0, u32::MAX as i64) as u32)
    }
}

fn fun(name: &str) -> Option<Fun> {
    Some(match name {
        "is_square" => Fun::IsSquare,
        "is_prime" => Fun::IsPrime,
        "is_null" => Fun::IsNull,
        "abs" => Fun::Abs,
        "min" => Fun::Min,
        "max" => Fun::Max,
        "gcd" => Fun::Gcd,
        "xor" => Fun::Xor,
        "mod" => Fun::Mod,
        "pow" => Fun::Pow,
        "coalesce" => Fun::Coalesce,
        "floor" | "ceil" => Fun::Same,
        _ => return None,
    })
}

fn lower(
    a: &Ast,
    params: &[String],
    reads: &mut [bool],
    lets: &mut Vec<(String, Op)>,
) -> Result<Op, String> {
    let go = |x: &Ast, reads: &mut [bool], lets: &mut Vec<(String, Op)>| {
        lower(x, params, reads, lets).map(Box::new)
    };
    Ok(match a {
        Ast::Int(v, _) => Op::Lit(V::Int(*v)),
        Ast::Bool(b, _) => Op::Lit(V::Bool(*b)),
        Ast::Null(_) => Op::Lit(V::Null),
        Ast::Name(name, _) => {
            if let Some((_, op)) = lets.iter().rev().find(|(n, _)| n == name) {
                return Ok(op.clone());
            }
            let slot = NAMES
                .iter()
                .position(|n| n == name)
                .or_else(|| params.iter().position(|p| p == name).map(|i| PARAMS + i))
                .ok_or_else(|| format!("unknown name `{name}`"))?;
            reads[slot] = true;
            Op::Var(slot)
        }
        Ast::Neg(x, _) => Op::Neg(go(x, reads, lets)?),
        Ast::Not(x, _) => Op::Not(go(x, reads, lets)?),
        Ast::Bin(op, l, r, _) => Op::Bin(*op, go(l, reads, lets)?, go(r, reads, lets)?),
        Ast::Cond(c, x, y, _) => Op::Cond(
            go(c, reads, lets)?,
            go(x, reads, lets)?,
            go(y, reads, lets)?,
        ),
        Ast::InList(x, items, neg, _, _) => {
            let x = go(x, reads, lets)?;
            let items = items
                .iter()
                .map(|i| lower(i, params, reads, lets))
                .collect::<Result<_, _>>()?;
            Op::InList(x, items, *neg)
        }
        Ast::InRange(x, lo, hi, neg, _) => Op::InRange(
            go(x, reads, lets)?,
            go(lo, reads, lets)?,
            go(hi, reads, lets)?,
            *neg,
        ),
        Ast::Call(name, args, _, _) => {
            let f = fun(name)
                .ok_or_else(|| format!("the function `{name}` is not available in a rule"))?;
            let args = args
                .iter()
                .map(|i| lower(i, params, reads, lets))
                .collect::<Result<_, _>>()?;
            Op::Call(f, args)
        }
        Ast::Let(name, _, value, body) => {
            let v = lower(value, params, reads, lets)?;
            lets.push((name.clone(), v));
            let b = lower(body, params, reads, lets);
            lets.pop();
            b?
        }
        Ast::Float(..) | Ast::Str(..) | Ast::Field(..) | Ast::List(..) | Ast::In(..) => {
            return Err("a rule reads integers and truth values only".into());
        }
    })
}

#[inline]
fn tri(v: V) -> Option<bool> {
    match v {
        V::Bool(b) => Some(b),
        _ => None,
    }
}

#[inline]
fn of_tri(b: Option<bool>) -> V {
    b.map_or(V::Null, V::Bool)
}

fn eq(a: V, b: V) -> Option<bool> {
    match (a, b) {
        (V::Null, _) | (_, V::Null) => None,
        (x, y) => Some(x == y),
    }
}

fn arith(op: BinOp, a: i64, b: i64) -> Option<i64> {
    match op {
        BinOp::Add => a.checked_add(b),
        BinOp::Sub => a.checked_sub(b),
        BinOp::Mul => a.checked_mul(b),
        BinOp::Div => div_floor(a, b),
        _ => mod_floor(a, b),
    }
}

fn bin(op: BinOp, l: &Op, r: &Op, env: &Env) -> V {
    match op {
        BinOp::And => {
            let a = tri(eval(l, env));
            if a == Some(false) {
                return V::Bool(false);
            }
            match (a, tri(eval(r, env))) {
                (_, Some(false)) => V::Bool(false),
                (Some(true), Some(true)) => V::Bool(true),
                _ => V::Null,
            }
        }
        BinOp::Or => {
            let a = tri(eval(l, env));
            if a == Some(true) {
                return V::Bool(true);
            }
            match (a, tri(eval(r, env))) {
                (_, Some(true)) => V::Bool(true),
                (Some(false), Some(false)) => V::Bool(false),
                _ => V::Null,
            }
        }
        BinOp::Implies => {
            let a = tri(eval(l, env)).map(|x| !x);
            match (a, tri(eval(r, env))) {
                (Some(true), _) | (_, Some(true)) => V::Bool(true),
                (Some(false), Some(false)) => V::Bool(false),
                _ => V::Null,
            }
        }
        BinOp::Iff => match (tri(eval(l, env)), tri(eval(r, env))) {
            (Some(a), Some(b)) => V::Bool(a == b),
            _ => V::Null,
        },
        BinOp::Eq => of_tri(eq(eval(l, env), eval(r, env))),
        BinOp::Ne => of_tri(eq(eval(l, env), eval(r, env)).map(|x| !x)),
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => match (eval(l, env), eval(r, env)) {
            (V::Int(a), V::Int(b)) => V::Bool(match op {
                BinOp::Lt => a < b,
                BinOp::Le => a <= b,
                BinOp::Gt => a > b,
                _ => a >= b,
            }),
            (V::Bool(a), V::Bool(b)) => V::Bool(match op {
                BinOp::Lt => !a & b,
                BinOp::Le => a <= b,
                BinOp::Gt => a & !b,
                _ => a >= b,
            }),
            _ => V::Null,
        },
        _ => match (eval(l, env), eval(r, env)) {
            (V::Int(a), V::Int(b)) => arith(op, a, b).map_or(V::Null, V::Int),
            _ => V::Null,
        },
    }
}

fn eval(op: &Op, env: &Env) -> V {
    match op {
        Op::Lit(v) => *v,
        Op::Var(s) => env[*s],
        Op::Neg(x) => match eval(x, env) {
            V::Int(a) => a.checked_neg().map_or(V::Null, V::Int),
            _ => V::Null,
        },
        Op::Not(x) => of_tri(tri(eval(x, env)).map(|b| !b)),
        Op::Bin(o, l, r) => bin(*o, l, r, env),
        Op::Cond(c, a, b) => match tri(eval(c, env)) {
            Some(true) => eval(a, env),
            Some(false) => eval(b, env),
            None => V::Null,
        },
        Op::InList(x, items, neg) => {
            let x = eval(x, env);
            if x == V::Null {
                return V::Null;
            }
            let mut out = Some(false);
            for i in items {
                match eq(x, eval(i, env)) {
                    Some(true) => {
                        out = Some(true);
                        break;
                    }
                    None => out = None,
                    Some(false) => {}
                }
            }
            of_tri(out.map(|b| b != *neg))
        }
        Op::InRange(x, lo, hi, neg) => match (eval(x, env), eval(lo, env), eval(hi, env)) {
            (V::Int(x), V::Int(lo), V::Int(hi)) => V::Bool((lo <= x && x <= hi) != *neg),
            _ => V::Null,
        },
        Op::Call(f, args) => call(*f, args, env),
    }
}

/// The integer arguments folded from `init` (none: from the first) with
/// `f`; none when an argument is not an integer or `f` gives none. No
/// allocation: it runs once a move checked (`max(1, n / 2)` allocated 68
/// million times in a two-heap sweep to 300).
fn fold_ints(
    args: &[Op],
    env: &Env,
    init: Option<i64>,
    f: impl Fn(i64, i64) -> Option<i64>,
) -> Option<i64> {
    let mut xs = args.iter().map(|a| match eval(a, env) {
        V::Int(x) => Some(x),
        _ => None,
    });
    let first = match init {
        Some(x) => x,
        None => xs.next()??,
    };
    xs.try_fold(first, |acc, x| f(acc, x?))
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a as i64
}

fn call(f: Fun, args: &[Op], env: &Env) -> V {
    let one = || eval(&args[0], env);
    match f {
        Fun::IsNull => V::Bool(one() == V::Null),
        Fun::Coalesce => args
            .iter()
            .map(|a| eval(a, env))
            .find(|v| *v != V::Null)
            .unwrap_or(V::Null),
        Fun::IsSquare | Fun::IsPrime | Fun::Abs | Fun::Same => match one() {
            V::Int(x) => match f {
                Fun::IsSquare => V::Bool(is_square(x)),
                Fun::IsPrime => V::Bool(is_prime(x)),
                Fun::Abs => x.checked_abs().map_or(V::Null, V::Int),
                _ => V::Int(x),
            },
            _ => V::Null,
        },
        _ => {
            let r = match f {
                Fun::Min => fold_ints(args, env, None, |a, b| Some(a.min(b))),
                Fun::Max => fold_ints(args, env, None, |a, b| Some(a.max(b))),
                Fun::Gcd => fold_ints(args, env, Some(0), |a, b| Some(gcd(a, b))),
                Fun::Xor => fold_ints(args, env, Some(0), |a, b| Some(a ^ b)),
                Fun::Mod => fold_ints(args, env, None, mod_floor),
                _ => fold_ints(args, env, None, |x, e| {
                    u32::try_from(e).ok().and_then(|e| x.checked_pow(e))
                }),
            };
            r.map_or(V::Null, V::Int)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(n: i64, t: i64, last: Option<i64>, mine: Option<i64>) -> Vec<V> {
        let o = |x: Option<i64>| x.map_or(V::Null, V::Int);
        vec![
            V::Int(n),
            V::Int(t),
            o(last),
            o(mine),
            V::Bool(last.is_none()),
            V::Null,
            V::Null,
            V::Int(3),
        ]
    }

    fn c(src: &str) -> Cond {
        Cond::compile(src, &NAMES[..5], &["k".to_string()]).unwrap()
    }

    /// The examples worked by hand: a null history allows.
    #[test]
    fn a_missing_history_does_not_restrict() {
        let r = c("t != last");
        assert!(r.allows(&env(5, 2, None, None)));
        assert!(!r.allows(&env(5, 2, Some(2), None)));
        assert!(r.allows(&env(5, 3, Some(2), None)));
        let r = c("t <= 5 and t != mine");
        assert!(r.allows(&env(9, 5, Some(1), None)));
        assert!(!r.allows(&env(9, 6, Some(1), None)));
        assert!(!r.allows(&env(9, 4, Some(1), Some(4))));
        let r = c("first ? t < n : t <= 2 * last");
        assert!(r.allows(&env(5, 4, None, None)));
        assert!(!r.allows(&env(5, 5, None, None)));
        assert!(r.allows(&env(5, 4, Some(2), None)));
        assert!(!r.allows(&env(5, 5, Some(2), None)));
        let r = c("t <= k and (is_null(last) or t >= last)");
        assert!(r.allows(&env(9, 3, None, None)));
        assert!(!r.allows(&env(9, 4, None, None)));
        assert!(!r.allows(&env(9, 1, Some(2), None)));
    }

    /// The functions of several integers, worked by hand: each argument
    /// counts, and a null one (or a division by zero, an overflow) makes
    /// the result null.
    #[test]
    fn functions_of_several_integers() {
        let e = env(12, 8, None, None);
        let hold = [
            "min(9, n, t) == 8",
            "max(1, n / 2, t) == 8",
            "gcd(n, t) == 4",
            "gcd(0 - n, 18) == 6",
            "xor(n, t, 3) == 7",
            "mod(0 - n, 5) == 3",
            "pow(2, t) == 256",
            "is_null(mod(n, 0))",
            "is_null(pow(2, 0 - 1))",
            "is_null(pow(n, 40))",
            "is_null(min(last, 3))",
            "is_null(max(n, t, mine))",
        ];
        for src in hold {
            assert!(c(src).allows(&e), "{src}");
        }
        for src in [
            "min(9, n, t) == 9",
            "max(1, n / 2, t) == 6",
            "xor(n, t) == 7",
        ] {
            assert!(!c(src).allows(&e), "{src}");
        }
    }

    #[test]
    fn the_claims_arithmetic_and_functions() {
        let r = c("n % t == 0 and t < n");
        let ok: Vec<i64> = (1..=12)
            .filter(|&t| r.allows(&env(12, t, None, None)))
            .collect();
        assert_eq!(ok, vec![1, 2, 3, 4, 6]);
        let r = c("is_square(t)");
        let ok: Vec<i64> = (1..=30)
            .filter(|&t| r.allows(&env(30, t, None, None)))
            .collect();
        assert_eq!(ok, vec![1, 4, 9, 16, 25]);
        let r = c("is_prime(t) and t in 1..k + 4");
        let ok: Vec<i64> = (1..=30)
            .filter(|&t| r.allows(&env(30, t, None, None)))
            .collect();
        assert_eq!(ok, vec![2, 3, 5, 7]);
        let r = c("let h = n / 2; t <= h");
        let ok: Vec<i64> = (1..=9)
            .filter(|&t| r.allows(&env(9, t, None, None)))
            .collect();
        assert_eq!(ok, vec![1, 2, 3, 4]);
        let e = env(0, 0, None, None);
        assert_eq!(c("t in [1, 3, 4]").take_bound(&e), Some(4));
        assert_eq!(c("t <= k and t != last").take_bound(&e), Some(3));
        assert_eq!(c("t < 2 * k or t in 2..5").take_bound(&e), Some(5));
        assert_eq!(c("is_square(t)").take_bound(&e), None);
        assert_eq!(c("t <= n").take_bound(&e), None);
        assert_eq!(c("t <= k or t > 9").take_bound(&e), None);
        // Null allows: a range from the history, a choice that may be null.
        assert_eq!(c("t in last..5").take_bound(&e), None);
        assert_eq!(
            c("100 / (n - t) > 1 ? t <= 2 : t <= 3").take_bound(&e),
            None
        );
        assert_eq!(c("n > 5 ? t <= 2 : t in [1, 3]").take_bound(&e), Some(3));
        assert!(c("t in [1, 3, 4]").reads(T));
        assert!(c("n % t == 0 and t < n").divisors_only());
        assert!(c("t < n and 0 == mod(n, t)").divisors_only());
        assert!(!c("n % t == 0 or t < n").divisors_only());
        let e = env(0, 0, None, None);
        let part = c("t <= k and t != last").no_repeat_part().unwrap();
        assert_eq!(part.take_bound(&e), Some(3));
        assert!(!part.reads(LAST));
        assert!(c("last != t and t in [2, 5]").no_repeat_part().is_some());
        assert!(c("t <= n and t != last").no_repeat_part().is_none());
        assert!(c("t <= 5 and t != mine").no_repeat_part().is_none());
        // Alone: every take.
        let any = c("t != last").no_repeat_part().unwrap();
        assert_eq!(any.take_bound(&e), None);
        assert!(any.allows(&env(7, 5, Some(5), None)));
        assert!(c("t != last or t == 1").no_repeat_part().is_none());
        assert!(!c("t in [1, 3, 4]").reads(N));
    }

    #[test]
    fn mistakes_are_named() {
        let e = Cond::compile("t != lst", &NAMES[..5], &[]).unwrap_err();
        assert!(e.contains("did you mean `last`"), "{e}");
        let e = Cond::compile("t + first", &NAMES[..5], &[]).unwrap_err();
        assert!(e.contains("first"), "{e}");
        let e = Cond::compile("t", &NAMES[..5], &[]).unwrap_err();
        assert!(!e.is_empty());
    }
}
