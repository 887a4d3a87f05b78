//! Tests of lists in the claim language: parsing of projections and list
//! literals, list equality, membership, the list functions, the display of
//! list values, the type errors, and that ranges and floats still lex as
//! before. Expected values are worked out by hand from the rows below.

use super::compile::Ty;
use super::parse::{Ast, BinOp, Span, parse};
use super::{Expr, ExprError};
use crate::data::{Cell, IntListVec, StrListVec, StructListVec, Table, Values};

static MOVE_FIELDS: &[&str] = &["heap", "take"];

/// Four rows:
///
/// | row | wt     | names      | moves (heap, take)   | n | g    | o   |
/// |-----|--------|------------|----------------------|---|------|-----|
/// | 0   | [1, 3] | ["b", "a"] | (1, 3), (2, 4)       | 3 | 1    | "N" |
/// | 1   | [3, 1] | ["a"]      | (0, 5)               | 1 | null | "N" |
/// | 2   | null   | null       | (none)               | 2 | 3    | "P" |
/// | 3   | []     | []         | (2, 2), (1, 1), (3, 3) | 0 | 0  | "P" |
fn lists() -> Table {
    let mut wt = IntListVec::default();
    wt.push(&[1, 3]);
    wt.push(&[3, 1]);
    wt.push_null();
    wt.push(&[]);
    let mut names = StrListVec::default();
    names.push(["b", "a"]);
    names.push(["a"]);
    names.push_null();
    names.push([]);
    let mut moves = StructListVec::new(MOVE_FIELDS, 4);
    for row in [
        &[[1, 3], [2, 4]][..],
        &[[0, 5]],
        &[],
        &[[2, 2], [1, 1], [3, 3]],
    ] {
        for item in row {
            moves.push_item(item);
        }
        moves.end_row();
    }
    Table::new()
        .with("wt", Values::IntList(wt))
        .with("names", Values::StrList(names))
        .with("moves", Values::StructList(moves))
        .with("n", Values::Int(vec![3, 1, 2, 0]))
        .with("g", Values::OptInt(vec![Some(1), None, Some(3), Some(0)]))
        .with("o", Values::Str(["N", "N", "P", "P"].into_iter().collect()))
}

/// The value of `src` on every row of [`lists`], as text.
fn rows(src: &str) -> Vec<String> {
    let t = lists();
    let e = Expr::compile(src, &t).unwrap_or_else(|e| panic!("{src}: {e}"));
    let b = e.bind(&t).unwrap();
    (0..t.rows()).map(|r| b.eval(r).to_string()).collect()
}

/// As [`rows`], for a claim: true/false/null per row, from `Bound::test`.
fn truth(src: &str) -> Vec<Option<bool>> {
    let t = lists();
    let e = Expr::compile_predicate(src, &t).unwrap_or_else(|e| panic!("{src}: {e}"));
    let b = e.bind(&t).unwrap();
    (0..t.rows()).map(|r| b.test(r)).collect()
}

fn err(src: &str) -> ExprError {
    match Expr::compile_predicate(src, &lists()) {
        Ok(_) => panic!("{src}: expected an error"),
        Err(e) => e,
    }
}

const T: Option<bool> = Some(true);
const F: Option<bool> = Some(false);
const N: Option<bool> = None;

fn sp(start: usize, end: usize) -> Span {
    Span { start, end }
}

#[test]
fn projections_and_list_literals_parse() {
    // moves.take == [1, -2]
    // 0    5    10   15
    let ast = parse("moves.take == [1, -2]").unwrap();
    let want = Ast::Bin(
        BinOp::Eq,
        Box::new(Ast::Field(
            Box::new(Ast::Name("moves".into(), sp(0, 5))),
            "take".into(),
            sp(6, 10),
        )),
        Box::new(Ast::List(
            vec![Ast::Int(1, sp(15, 16)), Ast::Int(-2, sp(18, 20))],
            sp(14, 15),
            21,
        )),
        sp(11, 13),
    );
    assert_eq!(ast, want);
    assert_eq!(ast.full_span(), sp(0, 21));
    // A back-quoted column has fields too; fields chain (the type checker
    // rejects `a.b.c`); `[]` and a trailing comma.
    let Ast::Field(base, f, _) = parse("`my moves`.heap").unwrap() else {
        panic!()
    };
    assert_eq!(
        (*base, f.as_str()),
        (Ast::Name("my moves".into(), sp(0, 10)), "heap")
    );
    let Ast::Field(inner, c, cs) = parse("a.b.c").unwrap() else {
        panic!()
    };
    assert_eq!((c.as_str(), cs), ("c", sp(4, 5)));
    assert!(matches!(*inner, Ast::Field(_, ref b, s) if b == "b" && s == sp(2, 3)));
    assert_eq!(parse("[]").unwrap(), Ast::List(vec![], sp(0, 1), 2));
    assert!(matches!(parse("[1, 2,]").unwrap(), Ast::List(ref v, _, 7) if v.len() == 2));
    assert!(matches!(parse(r#"["a", 'b']"#).unwrap(), Ast::List(ref v, _, _) if v.len() == 2));
    // Membership: a list after `in` is Ast::InList (also in parentheses), a
    // name, field or call is Ast::In, `a..b` a range.
    assert!(
        matches!(parse("x in [1, 2]").unwrap(), Ast::InList(_, ref v, false, _, 11) if v.len() == 2)
    );
    assert!(
        matches!(parse("x in ([1, 2])").unwrap(), Ast::InList(_, ref v, false, _, _) if v.len() == 2)
    );
    assert!(
        matches!(parse("x not in wt").unwrap(), Ast::In(_, ref l, true, _) if matches!(**l, Ast::Name(..)))
    );
    assert!(
        matches!(parse("x in moves.take").unwrap(), Ast::In(_, ref l, false, _) if matches!(**l, Ast::Field(..)))
    );
    assert!(
        matches!(parse("x in sorted(l)").unwrap(), Ast::In(_, ref l, false, _) if matches!(**l, Ast::Call(..)))
    );
    // A list value in arithmetic position and in calls.
    assert!(matches!(
        parse("len([1, 2]) == 2").unwrap(),
        Ast::Bin(BinOp::Eq, ..)
    ));
}

/// A list or a field written wrongly: the message points at the mistake.
#[test]
fn list_and_field_parse_errors_point_at_the_mistake() {
    for (src, col, msg) in [
        ("[1, 2", 6, "expected `,` or `]` in the list"),
        ("[", 2, "expected an expression"),
        (
            "moves . take",
            7,
            "fields of a column of structs `column.field`",
        ),
        ("moves.", 6, "unexpected character `.`"),
        ("2.take == 1", 2, "unexpected character `.`"),
        ("x in 1", 7, "expected `..` of a range"),
        ("x in 1 + 2", 11, "expected `..` of a range"),
        ("N [1]", 3, "an operator is missing"),
        ("true.x", 6, "unexpected the field `.x`"),
    ] {
        let e = parse(src).unwrap_err();
        assert!(
            e.message.contains(msg),
            "{src:?}: {:?} should contain {msg:?}",
            e.message
        );
        assert_eq!(e.column(), col, "{src:?}: {e}");
    }
}

#[test]
fn ranges_and_floats_still_lex_as_before() {
    let t = Table::new()
        .with("x", Values::Int(vec![5, 9, 10]))
        .with("a", Values::Int(vec![2, 2, 2]))
        .with("b", Values::Int(vec![9, 9, 9]))
        .with("f", Values::Float(vec![1.5, 0.25, 2500.0]));
    let on = |src: &str| -> Vec<Option<bool>> {
        let e = Expr::compile_predicate(src, &t).unwrap_or_else(|e| panic!("{src}: {e}"));
        let b = e.bind(&t).unwrap();
        (0..3).map(|r| b.test(r)).collect()
    };
    assert_eq!(on("x in 2..9"), [T, T, F]);
    assert_eq!(on("x in a..b"), [T, T, F]);
    assert_eq!(on("x not in a..b"), [F, F, T]);
    assert_eq!(on("x in a..b+1"), [T, T, T]);
    assert_eq!(on("x in 2 .. 9"), [T, T, F]);
    assert_eq!(on("f == 1.5"), [T, F, F]);
    assert_eq!(on("f < 1.0"), [F, T, F]);
    assert_eq!(on("f == 2.5e3"), [F, F, T]);
    assert_eq!(on("f == 25_00.0"), [F, F, T]);
    assert_eq!(on("x in [5, 10]"), [T, F, T]);
    // The parse trees: a range of names, a float literal.
    assert!(matches!(
        parse("x in a..b").unwrap(),
        Ast::InRange(_, ref lo, ref hi, false, _)
            if **lo == Ast::Name("a".into(), sp(5, 6)) && **hi == Ast::Name("b".into(), sp(8, 9))
    ));
    assert_eq!(parse("1.5").unwrap(), Ast::Float(1.5, sp(0, 3)));
    assert!(
        matches!(parse("2..9").unwrap_err().message.as_str(), m if m.contains("unexpected `..`"))
    );
}

#[test]
fn list_equality() {
    // Same items in the same order; a null list gives null.
    assert_eq!(truth("wt == [1, 3]"), [T, F, N, F]);
    assert_eq!(truth("wt != [1, 3]"), [F, T, N, T]);
    assert_eq!(truth("[1, 3] == wt"), [T, F, N, F]);
    assert_eq!(truth("wt == []"), [F, F, N, T]);
    assert_eq!(truth("wt == null"), [N, N, N, N]);
    assert_eq!(truth("names == [\"b\", \"a\"]"), [T, F, N, F]);
    assert_eq!(truth("names == ['a']"), [F, T, N, F]);
    assert_eq!(truth("names == []"), [F, F, N, T]);
    assert_eq!(truth("[] == []"), [T, T, T, T]);
    // Fields of a column of structs, in the structs' order.
    assert_eq!(truth("moves.take == [3, 4]"), [T, F, F, F]);
    assert_eq!(truth("moves.heap == [2, 1, 3]"), [F, F, F, T]);
    assert_eq!(truth("moves.heap == []"), [F, F, T, F]);
    assert_eq!(truth("moves.heap == moves.take"), [F, F, T, T]);
    // wt = [1, 3] / [3, 1] / null / [] against moves.take = [3, 4] / [5] / [] / [2, 1, 3].
    assert_eq!(truth("wt != moves.take"), [T, T, N, T]);
    // Computed items, compared one by one: false as soon as one differs,
    // null when none differs but one is null.
    // n = 3, 1, 2, 0; g = 1, null, 3, 0.
    assert_eq!(truth("wt == [n - 2, n]"), [T, F, N, F]);
    // Row 1: [3, 1] against [null, 1]: no item differs, one is unknown.
    assert_eq!(truth("wt != [g, n]"), [F, N, N, T]);
    assert_eq!(truth("moves.take == [g + 2, n + 1]"), [T, F, F, F]);
    assert_eq!(truth("moves.take == [g + 4]"), [F, N, F, F]);
    assert_eq!(truth("names == [o, 'a']"), [F, F, N, F]);
    assert_eq!(truth("names == ['b', o]"), [F, F, N, F]);
    assert_eq!(truth("let k = n + 1; moves.take == [k]"), [F, F, F, F]);
    // Lists as branches and defaults.
    assert_eq!(truth("coalesce(wt, [7]) == [7]"), [F, F, T, F]);
    assert_eq!(truth("(n > 2 ? wt : []) == []"), [F, T, T, T]);
    assert_eq!(truth("is_null(wt)"), [F, F, T, F]);
    // A list of lists in `x in [..]`.
    assert_eq!(truth("wt in [[3, 1], []]"), [F, T, N, T]);
}

#[test]
fn membership() {
    // wt = [1, 3] / [3, 1] / null / []: a null list gives null.
    assert_eq!(truth("3 in wt"), [T, T, N, F]);
    assert_eq!(truth("3 not in wt"), [F, F, N, T]);
    assert_eq!(truth("2 in wt"), [F, F, N, F]);
    assert_eq!(truth("3.0 in wt"), [T, T, N, F]);
    // A null item looked for gives null. g = 1, null, 3, 0.
    assert_eq!(truth("g in wt"), [T, N, N, F]);
    assert_eq!(truth("null in wt"), [N, N, N, N]);
    // n = 3, 1, 2, 0 in moves.take = [3, 4] / [5] / [] / [2, 1, 3].
    assert_eq!(truth("n in moves.take"), [T, F, F, F]);
    assert_eq!(truth("n + 1 in moves.heap"), [F, F, F, T]);
    assert_eq!(truth("'a' in names"), [T, T, N, F]);
    assert_eq!(truth("o not in names"), [T, T, N, T]);
    assert_eq!(truth("1 in sorted(wt)"), [T, T, N, F]);
    // In a literal: `x in [..]` (items may be computed) and a list value.
    assert_eq!(truth("n in [1, 3]"), [T, T, F, F]);
    assert_eq!(truth("n in [g, 2]"), [F, N, T, T]);
    assert_eq!(truth("n in ([1, 3])"), [T, T, F, F]);
    assert_eq!(truth("n in []"), [F, F, F, F]);
    assert_eq!(truth("n in coalesce(wt, [])"), [T, T, F, F]);
    assert_eq!(truth("let w = [1, 3]; n in w"), [T, T, F, F]);
    // Membership binds like a comparison.
    // Row 2: (null and false) or false.
    assert_eq!(truth("3 in wt and n == 3 or n == 0"), [T, F, F, T]);
}

#[test]
fn list_functions() {
    assert_eq!(rows("len(wt)"), ["2", "2", "null", "0"]);
    assert_eq!(rows("len(names)"), ["2", "1", "null", "0"]);
    assert_eq!(rows("len(moves)"), ["2", "1", "0", "3"]);
    assert_eq!(rows("len(moves.take)"), ["2", "1", "0", "3"]);
    assert_eq!(rows("len([5, 6, 7])"), ["3"; 4]);
    assert_eq!(rows("len('héllo')"), ["5"; 4]);
    assert_eq!(rows("len(o)"), ["1"; 4]);
    assert_eq!(rows("sum(wt)"), ["4", "4", "null", "0"]);
    assert_eq!(rows("sum(moves.take)"), ["7", "5", "0", "6"]);
    assert_eq!(rows("sum(moves.heap)"), ["3", "0", "0", "6"]);
    assert_eq!(rows("sum([9223372036854775807, 1])"), ["null"; 4]);
    assert_eq!(rows("sum([])"), ["0"; 4]);
    assert_eq!(rows("min(wt)"), ["1", "1", "null", "null"]);
    assert_eq!(rows("max(wt)"), ["3", "3", "null", "null"]);
    assert_eq!(rows("max(moves.take)"), ["4", "5", "null", "3"]);
    assert_eq!(rows("min(moves.heap)"), ["1", "0", "null", "1"]);
    assert_eq!(rows("min([])"), ["null"; 4]);
    // Gaps of consecutive items in increasing order (moves.take = [3, 4] /
    // [5] / [] / [2, 1, 3]): null with fewer than two items.
    assert_eq!(rows("min_gap(moves.take)"), ["1", "null", "null", "1"]);
    assert_eq!(rows("max_gap(wt)"), ["2", "2", "null", "null"]);
    assert_eq!(rows("min_gap([0, 7, 13, 20])"), ["6"; 4]);
    assert_eq!(rows("max_gap([20, 0, 13, 7])"), ["7"; 4]);
    // min/max of several numbers are unchanged.
    assert_eq!(rows("min(3, 1)"), ["1"; 4]);
    assert_eq!(rows("max(n, 2)"), ["3", "2", "2", "2"]);
    assert_eq!(rows("min(g)"), ["1", "null", "3", "0"]);
    // sorted: compared in increasing order.
    assert_eq!(truth("sorted(wt) == [1, 3]"), [T, T, N, F]);
    assert_eq!(truth("sorted(wt) == wt"), [T, F, N, T]);
    assert_eq!(truth("sorted(wt) != [3, 1]"), [T, T, N, T]);
    assert_eq!(truth("sorted(sorted(wt)) == [1, 3]"), [T, T, N, F]);
    assert_eq!(truth("sorted(names) == ['a', 'b']"), [T, F, N, F]);
    assert_eq!(truth("sorted(moves.heap) == [1, 2, 3]"), [F, F, F, T]);
    assert_eq!(
        truth("sorted(moves.take) == sorted(moves.heap)"),
        [F, F, T, T]
    );
    assert_eq!(truth("sorted([3, 1, 2]) == [1, 2, 3]"), [T, T, T, T]);
    assert_eq!(truth("sorted(wt) == [n - 2, n]"), [T, F, N, F]);
    assert_eq!(rows("sum(sorted(wt))"), ["4", "4", "null", "0"]);
    assert_eq!(rows("len(sorted(names))"), ["2", "1", "null", "0"]);
    // The static types.
    let t = lists();
    for (src, ty) in [
        ("moves.take", Ty::IntList),
        ("names", Ty::StrList),
        ("[]", Ty::EmptyList),
        ("sorted(names)", Ty::StrList),
        ("['a']", Ty::StrList),
        ("[n]", Ty::IntList),
        ("len(moves)", Ty::Int),
        ("n > 1 ? [] : wt", Ty::IntList),
    ] {
        assert_eq!(Expr::compile(src, &t).unwrap().ty(), ty, "{src}");
    }
}

/// Lists longer than the stack buffer of `sorted` are sorted on the heap.
#[test]
fn long_lists_sort_too() {
    let n = 3 * super::compile::STACK_ITEMS as i64 + 5;
    let mut desc = IntListVec::default();
    desc.push_iter((1..=n).rev());
    let mut asc = IntListVec::default();
    asc.push_iter(1..=n);
    let words: Vec<String> = (0..n).rev().map(|k| format!("w{k:03}")).collect();
    let mut rev = StrListVec::default();
    rev.push(words.iter().map(String::as_str));
    let t = Table::new()
        .with("desc", Values::IntList(desc))
        .with("asc", Values::IntList(asc))
        .with("rev", Values::StrList(rev));
    let on = |src: &str| {
        let e = Expr::compile(src, &t).unwrap_or_else(|e| panic!("{src}: {e}"));
        e.bind(&t).unwrap().eval(0).to_string()
    };
    assert_eq!(on("sorted(desc) == asc"), "true");
    assert_eq!(on("sorted(desc) == desc"), "false");
    assert_eq!(on("sorted(desc) == sorted(asc)"), "true");
    assert_eq!(
        on("sum(desc) == n * (n + 1) / 2"
            .replace('n', &n.to_string())
            .as_str()),
        "true"
    );
    let sorted_words: Vec<String> = (0..n).map(|k| format!("w{k:03}")).collect();
    assert_eq!(on("sorted(rev)"), sorted_words.join(", "));
    assert_eq!(on("sorted(rev) == rev"), "false");
    assert_eq!(on("sorted(sorted(rev)) == sorted(rev)"), "true");
    assert_eq!(
        on("sorted(desc)"),
        (1..=n)
            .map(|k| k.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
}

#[test]
fn list_values_display() {
    // Column lists, fields and literals are borrowed; sorted views and
    // computed lists are built for display.
    assert_eq!(rows("wt"), ["1, 3", "3, 1", "null", ""]);
    assert_eq!(rows("moves.take"), ["3, 4", "5", "", "2, 1, 3"]);
    assert_eq!(rows("sorted(wt)"), ["1, 3", "1, 3", "null", ""]);
    assert_eq!(rows("sorted(names)"), ["a, b", "a", "null", ""]);
    assert_eq!(rows("sorted(moves.heap)"), ["1, 2", "0", "", "1, 2, 3"]);
    assert_eq!(rows("[1, 2]"), ["1, 2"; 4]);
    assert_eq!(rows("[]"), [""; 4]);
    assert_eq!(rows("['x', \"y\"]"), ["x, y"; 4]);
    assert_eq!(rows("[n, n + 1]"), ["3, 4", "1, 2", "2, 3", "0, 1"]);
    assert_eq!(rows("let k = n * 2; [k]"), ["6", "2", "4", "0"]);
    // A computed list with a null item shows as null.
    assert_eq!(rows("[n, g]"), ["3, 1", "null", "2, 3", "0, 0"]);
    assert_eq!(rows("[o, 'x']"), ["N, x", "N, x", "P, x", "P, x"]);
    // The cells' kinds, and many evaluations on one binding.
    let t = lists();
    let e = Expr::compile("sorted(wt)", &t).unwrap();
    let b = e.bind(&t).unwrap();
    for _ in 0..1000 {
        assert_eq!(b.eval(1), Cell::IntList(&[1, 3]));
    }
    assert_eq!(b.eval(2), Cell::Null);
    let e = Expr::compile("names", &t).unwrap();
    assert!(matches!(e.bind(&t).unwrap().eval(0), Cell::StrList(_, 0)));
    let e = Expr::compile("moves.heap", &t).unwrap();
    assert_eq!(e.bind(&t).unwrap().eval(3), Cell::IntList(&[2, 1, 3]));
}

/// How an error about a list suggests membership.
const WITH_IN: &str = "(to test whether it is an item of the list, write `x in list`)";

/// (source, 1-based column of the mistake, parts of the message)
const LIST_TYPE_ERRORS: &[(&str, usize, &[&str])] = &[
    (
        "wt == 3",
        4,
        &[
            "`==` cannot compare a list of integers (`wt`) with an integer (`3`)",
            WITH_IN,
        ],
    ),
    (
        "3 != wt",
        3,
        &[
            "`!=` cannot compare an integer (`3`) with a list of integers (`wt`)",
            WITH_IN,
        ],
    ),
    (
        "wt == n % (n + 1 )",
        4,
        &["with an integer (`n % (n + 1 )`)"],
    ),
    (
        "wt == 'a'",
        4,
        &["cannot compare a list of integers (`wt`) with a string (`'a'`)"],
    ),
    (
        "wt < [1]",
        4,
        &["`<` cannot order lists", "only with `==` and `!=`"],
    ),
    (
        "wt == names",
        4,
        &["cannot compare a list of integers (`wt`) with a list of strings (`names`)"],
    ),
    (
        "n.take == [1]",
        1,
        &[
            "`n` is not a column of structs (it holds an integer on each row), so it has no field `.take`",
        ],
    ),
    (
        "o.take == [1]",
        1,
        &["`o` is not a column of structs (it holds a string on each row)"],
    ),
    (
        "moves.tak == [1]",
        7,
        &["`moves` has no field `tak`; its fields: heap, take"],
    ),
    (
        "nope.take == [1]",
        1,
        &[
            "unknown column `nope`",
            "available columns: wt, names, moves, n, g, o",
        ],
    ),
    (
        "moves == []",
        1,
        &[
            "`moves` is a list of structs with fields heap, take",
            "`moves.heap`",
            "`len(moves)`",
        ],
    ),
    (
        "let m = moves; len(m) == 1",
        9,
        &["`moves` is a list of structs"],
    ),
    (
        "let k = [1]; k.x == [1]",
        14,
        &["`k` is a name bound by `let`, not a column of structs"],
    ),
    (
        "moves.take.x == [1]",
        1,
        &["only a column of structs has fields, but this is a list of integers (`moves.take`)"],
    ),
    (
        "'a' in wt",
        5,
        &["`in` looks for a string (`'a'`) in a list of integers (`wt`)"],
    ),
    (
        "wt in wt",
        4,
        &[
            "`in` tests whether one value is an item of a list, but its left side is a list of integers (`wt`)",
        ],
    ),
    (
        "3 in n",
        3,
        &["`in` needs a list", "but it is an integer (`n`)"],
    ),
    (
        "sum(names) == 1",
        1,
        &["`sum` needs a list of integers, but argument 1 is a list of strings (`names`)"],
    ),
    (
        "sorted(n) == [1]",
        1,
        &["`sorted` needs a list, but argument 1 is an integer (`n`)"],
    ),
    (
        "len(n) == 1",
        1,
        &["`len` needs a list or a string, but argument 1 is an integer (`n`)"],
    ),
    (
        "min(names) == 'a'",
        1,
        &["`min` needs numbers or one list of integers, but argument 1 is a list of strings"],
    ),
    (
        "min(wt, 2) == 1",
        1,
        &["`min` needs numbers, but argument 1 is a list of integers (`wt`)"],
    ),
    (
        "wt + 1 == 2",
        4,
        &["`+` needs numbers, but its left side is a list of integers (`wt`)"],
    ),
    (
        "[1, 'a'] == wt",
        5,
        &[
            "the items of a list have one type, but the first is an integer (`1`) and this one a string (`'a'`)",
        ],
    ),
    (
        "[1.5] == wt",
        2,
        &["a list holds integers or strings, but this item is a float (`1.5`)"],
    ),
    (
        "[true] == []",
        2,
        &["a list holds integers or strings, but this item is a boolean (`true`)"],
    ),
    (
        "[null] == []",
        2,
        &["a list holds integers or strings, but this item is null (`null`)"],
    ),
    (
        "sum([n]) == 1",
        6,
        &["must be constants", "compared with `==` or `!=`"],
    ),
    ("[n] == [n]", 5, &["compares two lists of computed items"]),
    (
        "wt",
        1,
        &["must be true or false, but it is a list of integers expression"],
    ),
    (
        "wt in [1, 2]",
        4,
        &["`in` compares a list of integers (`wt`) with a list item that is an integer (`1`)"],
    ),
];

#[test]
fn list_type_errors_point_at_the_mistake() {
    let cases = LIST_TYPE_ERRORS;
    for (src, col, parts) in cases {
        let e = err(src);
        for part in *parts {
            assert!(
                e.message.contains(part),
                "{src:?}: message {:?} should contain {part:?}",
                e.message
            );
        }
        assert_eq!(e.column(), *col, "{src:?}: {e}");
    }
}

/// The compiled tree depends on the fields of a column of structs, so an
/// expression does not bind to a table whose structs have other fields.
#[test]
fn binding_checks_the_fields() {
    static SWAPPED: &[&str] = &["take", "heap"];
    let e = Expr::compile_predicate("moves.take == [3, 4]", &lists()).unwrap();
    let mut moves = StructListVec::new(SWAPPED, 1);
    moves.push_item(&[3, 1]);
    moves.push_item(&[4, 2]);
    moves.end_row();
    let other = Table::new().with("moves", Values::StructList(moves));
    let Err(err) = e.bind(&other) else {
        panic!("bound to structs with other fields")
    };
    assert!(err.message.contains("other types"), "{}", err.message);
    // Compiled for that table, the same claim reads its own `take` field.
    let e = Expr::compile_predicate("moves.take == [3, 4]", &other).unwrap();
    assert_eq!(e.bind(&other).unwrap().test(0), Some(true));
}

/// Columns holding one value on every row ([`Values::Repeat`]) evaluate as
/// the value repeated, row by row (each row of [`lists`] in turn).
#[test]
fn values_held_once_evaluate_as_repeated() {
    let t = lists();
    let claims = [
        "wt == [1, 3]",
        "names == [o, 'a']",
        "moves.take == [g + 2, n + 1]",
        "moves.heap == []",
        "is_null(g)",
        "3 in wt",
    ];
    for at in 0..t.rows() {
        let plain = t.take_rows(&[at; 3]);
        let mut once = Table::new();
        for (name, v) in t.take_rows(&[at]).into_columns() {
            once.push(&name, Values::repeat(v, 3));
        }
        for src in claims {
            let test = |t: &Table| -> Vec<Option<bool>> {
                let e = Expr::compile_predicate(src, t).unwrap_or_else(|e| panic!("{src}: {e}"));
                let b = e.bind(t).unwrap();
                (0..3).map(|r| b.test(r)).collect()
            };
            assert_eq!(test(&once), test(&plain), "{src} on row {at}");
            assert_eq!(test(&once), vec![truth(src)[at]; 3], "{src} on row {at}");
        }
    }
}

/// `is_square` and `is_prime` on -3..=100, row by row, against the squares
/// and the primes below 100 written out by hand (OEIS A000290, A000040),
/// and null for a null argument.
#[test]
fn square_and_prime_tests_match_the_written_lists() {
    let squares = [0, 1, 4, 9, 16, 25, 36, 49, 64, 81, 100];
    let primes = [
        2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89,
        97,
    ];
    let xs: Vec<i64> = (-3..=100).collect();
    let t = Table::new().with("x", Values::Int(xs.clone()));
    for (src, want) in [("is_square(x)", &squares[..]), ("is_prime(x)", &primes[..])] {
        let e = Expr::compile_predicate(src, &t).unwrap();
        let b = e.bind(&t).unwrap();
        for (r, x) in xs.iter().enumerate() {
            assert_eq!(b.test(r), Some(want.contains(x)), "{src} at x = {x}");
        }
    }
    let e = Expr::compile_predicate("is_null(is_prime(null))", &t).unwrap();
    assert_eq!(e.bind(&t).unwrap().test(0), Some(true));
    assert!(super::compile::is_square(3_037_000_499 * 3_037_000_499));
    assert!(!super::compile::is_prime(3_037_000_499 * 3));
}
