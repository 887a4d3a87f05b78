use super::*;
use crate::data::{Column, Dataset, Dtype, Role, StrVec, Table, Values};
use crate::expr::{Expr, syntax_check};

/// The declaration of the Cond(1) test table: the rule labels a row, N is
/// its position; the others are results or rule details.
static COND1: Dataset = Dataset {
    name: "positions",
    doc: "test",
    groups: &[&[
        Column::new("rule", Dtype::Str, Role::Label, "rule"),
        Column::new("take_max", Dtype::Int, Role::Param, "largest take"),
        Column::new("N", Dtype::Int, Role::Position, "heap"),
        Column::new("outcome", Dtype::Str, Role::Outcome, "P or N"),
        Column::new("grundy", Dtype::Int, Role::Result, "Grundy value").nullable(),
        Column::new("winning_moves", Dtype::Str, Role::Result, "moves"),
    ]],
};

/// A declaration whose labels and positions are the table's `rule` and `N`
/// (or none, for tables without them).
fn decl(t: &Table) -> Option<&'static Dataset> {
    t.column("rule").is_some().then_some(&COND1)
}

/// One row with a few typed columns, for expression tests.
fn row() -> Table {
    Table::new()
        .with("a", Values::Bool(vec![true]))
        .with("b", Values::Bool(vec![false]))
        .with("c", Values::Bool(vec![false]))
        .with("n", Values::Int(vec![3]))
        .with("N", Values::Int(vec![12]))
        .with("x", Values::Float(vec![2.5]))
        .with("g", Values::OptInt(vec![None]))
        .with("outcome", Values::Str(["P"].into_iter().collect()))
}

fn ev(src: &str) -> String {
    let t = row();
    let e = Expr::compile(src, &t).unwrap_or_else(|e| panic!("{src}: {e}"));
    let b = e.bind(&t).unwrap();
    b.eval(0).to_string()
}

fn err(src: &str) -> ExprError {
    match Expr::compile_predicate(src, &row()) {
        Ok(_) => panic!("{src}: expected an error"),
        Err(e) => e,
    }
}

#[test]
fn precedence() {
    // and binds tighter than or.
    assert_eq!(ev("a or b and c"), "true");
    assert_eq!(ev("(a or b) and c"), "false");
    assert_eq!(ev("b and c or a"), "true");
    // not binds looser than comparisons: not (a == b).
    assert_eq!(ev("not a == b"), "true");
    assert_eq!(ev("!a == b"), "true");
    assert_eq!(ev("(not a) == b"), "true");
    assert_eq!(ev("not a and b"), "false"); // (not a) and b
    // ==> is right-associative: false ==> (x ==> false) is true, but
    // (false ==> true) ==> false would be false.
    assert_eq!(ev("b ==> a ==> b"), "true");
    assert_eq!(ev("(b ==> a) ==> b"), "false");
    // <=> is loosest: (a or b) <=> (c or a).
    assert_eq!(ev("a or b <=> c or a"), "true");
    assert_eq!(ev("b <=> a ==> b"), "true"); // b <=> (a ==> b): false <=> false
    assert_eq!(ev("(b <=> a) ==> b"), "true"); // (false) ==> b
    // Arithmetic.
    assert_eq!(ev("1 + 2 * 3"), "7");
    assert_eq!(ev("(1 + 2) * 3"), "9");
    assert_eq!(ev("10 - 3 - 2"), "5");
    assert_eq!(ev("100 / 10 / 5"), "2");
    assert_eq!(ev("-n * 2"), "-6");
    assert_eq!(ev("- n % 2"), "1"); // (-3) % 2 == 1
    assert_eq!(ev("2 * n + 3"), "9");
    // Comparisons chain; arithmetic binds tighter.
    assert_eq!(ev("0 <= N % 5 < 5"), "true");
    assert_eq!(ev("1 < n < 3"), "false");
    assert_eq!(ev("N == 4 * n"), "true");
    // Ternary: below or, above ==>; right-associative.
    assert_eq!(ev("n % 2 == 1 ? 2 * (n + 1) : n + 2"), "8");
    assert_eq!(ev("b ? 1 : a ? 2 : 3"), "2");
    assert_eq!(ev("b or a ? 1 : 2"), "1");
    assert_eq!(ev("N == (n % 2 == 1 ? 4 * n : 0)"), "true");
    // Membership at comparison level.
    assert_eq!(ev("n in [1, 3, 5]"), "true");
    assert_eq!(ev("n not in [1, 3, 5]"), "false");
    assert_eq!(ev("n in 2..9"), "true");
    assert_eq!(ev("n in 3..3"), "true");
    assert_eq!(ev("N in 2..9"), "false");
    assert_eq!(ev("N not in 2..9"), "true");
    assert_eq!(ev("n + 1 in 4..n+1 and a"), "true");
    assert_eq!(ev("not n in [3]"), "false");
    assert_eq!(ev("outcome in [\"N\", \"P\"]"), "true");
    // Synonyms and unicode.
    assert_eq!(ev("a && !b || c"), "true");
    assert_eq!(ev("a implies b iff c"), "true");
    assert_eq!(ev("n ≥ 3 ∧ N ≠ 3 ⇒ n ∈ [3]"), "true");
    assert_eq!(
        ev("let m = n + 1; let k = 2*m; k == 8 and m in [4]"),
        "true"
    );
}

#[test]
fn the_issues_examples_parse() {
    let t = Table::new()
        .with("N", Values::Int(vec![7]))
        .with("n", Values::Int(vec![2]))
        .with("k", Values::Int(vec![3]))
        .with("period", Values::Int(vec![8]))
        .with("grundy", Values::OptInt(vec![Some(4)]))
        .with("y", Values::Int(vec![30]))
        .with("outcome", Values::Str(["N"].into_iter().collect()));
    for (src, want) in [
        (r#"outcome == "P" <=> N % (n + 1) == 0"#, Some(true)),
        (
            r#"outcome == "P" <=> (N == 0 or (N - (n+2)) % (2*n+3) == 0 or N % (2*n+3) == 0)"#,
            Some(false), // N = 7 = 0 mod 7 but outcome is N
        ),
        ("grundy == 4", Some(true)),
        ("period == (k % 2 == 1 ? 2*(k+1) : k+2)", Some(true)),
        ("y >= 22 ==> grundy == 4", Some(true)),
    ] {
        let e = Expr::compile_predicate(src, &t).unwrap_or_else(|e| panic!("{src}: {e}"));
        assert_eq!(e.bind(&t).unwrap().test(0), want, "{src}");
    }
}

#[test]
fn integer_semantics() {
    // Floor division and floor modulus.
    assert_eq!(ev("-7 / 2"), "-4");
    assert_eq!(ev("7 / -2"), "-4");
    assert_eq!(ev("-7 / -2"), "3");
    assert_eq!(ev("7 / 2"), "3");
    assert_eq!(ev("-7 % 3"), "2");
    assert_eq!(ev("7 % -3"), "-2");
    assert_eq!(ev("-6 % 3"), "0");
    assert_eq!(ev("mod(-7, 3)"), "2");
    assert_eq!(ev("(-7 / 3) * 3 + (-7 % 3)"), "-7");
    assert_eq!(ev("0 - n / 2"), "-1"); // unary minus binds tighter only as a prefix
    // Division by zero and overflow are null.
    assert_eq!(ev("n / 0"), "null");
    assert_eq!(ev("n % 0"), "null");
    assert_eq!(ev("9223372036854775807 + 1"), "null");
    // 2-adic valuation.
    assert_eq!(ev("v2(12)"), "2");
    assert_eq!(ev("v2(12) == 2"), "true");
    assert_eq!(ev("v2(1)"), "0");
    assert_eq!(ev("v2(-8)"), "3");
    assert_eq!(ev("v2(0)"), "null");
    assert_eq!(ev("v2(N - 12) >= 1"), "null");
    assert_eq!(ev("N - 12 == 0 or v2(N - 12) >= 1"), "true");
    // Other helpers.
    assert_eq!(ev("gcd(12, 18)"), "6");
    assert_eq!(ev("gcd(-4, 0)"), "4");
    assert_eq!(ev("gcd(0, 0)"), "0");
    assert_eq!(ev("lcm(4, 6, 10)"), "60");
    assert_eq!(ev("abs(-5)"), "5");
    assert_eq!(ev("min(4, n, 7)"), "3");
    assert_eq!(ev("max(4, n, 7)"), "7");
    assert_eq!(ev("pow(2, 10)"), "1024");
    assert_eq!(ev("pow(2, -1)"), "null");
    // Floats only when a float is involved.
    assert_eq!(ev("x * 2"), "5");
    assert_eq!(ev("floor(x)"), "2");
    assert_eq!(ev("ceil(x)"), "3");
    assert_eq!(ev("floor(-x)"), "-3");
    assert_eq!(ev("x / 2"), "1.25");
    assert_eq!(ev("-x % 2"), "1.5");
    assert_eq!(ev("n / 2 == 1"), "true");
    assert_eq!(ev("n / 2.0 == 1.5"), "true");
    assert_eq!(ev("max(n, x)"), "3");
    assert_eq!(ev("1_000 + 2"), "1002");
}

#[test]
fn null_handling() {
    assert_eq!(ev("g"), "null");
    assert_eq!(ev("g == 1"), "null");
    assert_eq!(ev("g != 1"), "null");
    assert_eq!(ev("g + 1"), "null");
    assert_eq!(ev("g == null"), "null");
    assert_eq!(ev("is_null(g)"), "true");
    assert_eq!(ev("is_null(n)"), "false");
    assert_eq!(ev("coalesce(g, 7)"), "7");
    // Kleene logic.
    assert_eq!(ev("b and g == 1"), "false");
    assert_eq!(ev("g == 1 and b"), "false");
    assert_eq!(ev("a and g == 1"), "null");
    assert_eq!(ev("a or g == 1"), "true");
    assert_eq!(ev("g == 1 or a"), "true");
    assert_eq!(ev("b or g == 1"), "null");
    assert_eq!(ev("not g == 1"), "null");
    assert_eq!(ev("b ==> g == 1"), "true");
    assert_eq!(ev("g == 1 ==> a"), "true");
    assert_eq!(ev("a ==> g == 1"), "null");
    assert_eq!(ev("a <=> g == 1"), "null");
    assert_eq!(ev("g in [1, 2]"), "null");
    assert_eq!(ev("n in [1, g]"), "null");
    assert_eq!(ev("n in [3, g]"), "true");
    assert_eq!(ev("g in 1..2"), "null");
    assert_eq!(ev("g == 1 ? 1 : 2"), "null");
}

/// (source, 1-based column of the mistake, part of the message): the cases
/// of [`errors_point_at_the_mistake`].
const ERROR_CASES: &[(&str, usize, &str)] = &[
    ("N % ", 5, "expected an expression after `%`, found the end"),
    ("N %", 4, "expected an expression after `%`"),
    ("foo(", 5, "expected an expression"),
    ("v2(N", 5, "expected `,` or `)` in the arguments of `v2(`"),
    ("foo(1) == 2", 1, "unknown function `foo`"),
    ("N == 0 and M == 1", 12, "unknown column `M`"),
    (
        "1 +* 2 == 3",
        4,
        "expected an expression after `+`, found `*`",
    ),
    (
        "(N + 1 == 2",
        12,
        "expected `)` to close the `(` at column 1",
    ),
    ("N + 1) == 2", 6, "this `)` has no matching `(`"),
    ("N = 3", 3, "equality is written `==`"),
    ("2n == 4", 1, "`2*n`"),
    ("N == 3 & n == 2", 8, "`and`"),
    (
        r#"outcome == 1"#,
        9,
        "`==` cannot compare a string (`outcome`) with an integer (`1`)",
    ),
    (
        r#"outcome + 1 == 2"#,
        9,
        "`+` needs numbers, but its left side is a string (`outcome`)",
    ),
    ("N + 1", 1, "must be true or false, but it is an integer"),
    (
        "a and N",
        3,
        "`and` needs true or false on both sides, but its right side is an integer (`N`)",
    ),
    (
        "a ? 1 : \"x\"",
        3,
        "the branches of `? :` have different types",
    ),
    (
        "v2(x) == 1",
        1,
        "`v2` needs an integer, but argument 1 is a float (`x`)",
    ),
    ("v2(1, 2) == 1", 1, "`v2` takes 1 argument, got 2"),
    ("n in 1", 7, "expected `..` of a range"),
    ("n in [1, 2", 11, "expected `,` or `]`"),
    ("outcome == \"P", 12, "unterminated string"),
    ("N == 3 n", 8, "an operator is missing"),
    ("", 1, "empty expression"),
    ("N ^ 2 == 4", 3, "pow(a, b)"),
    ("let N = 3; N == 3", 5, "would hide the column `N`"),
    ("n(2) == 6", 1, "`n` is a column"),
    ("99999999999999999999 == 1", 1, "too large"),
];

#[test]
fn errors_point_at_the_mistake() {
    let cases = ERROR_CASES;
    for (src, col, msg) in cases {
        let e = err(src);
        assert!(
            e.message.contains(msg),
            "{src:?}: message {:?} should contain {msg:?}",
            e.message
        );
        assert_eq!(e.column(), *col, "{src:?}: {e}");
    }
}

/// The unknown-column message lists the available columns and suggests a
/// near name; Display shows a caret under the mistake.
#[test]
fn unknown_columns_are_listed_and_suggested() {
    let e = err("N == 0 and M == 1");
    assert!(
        e.message
            .contains("available columns: a, b, c, n, N, x, g, outcome")
    );
    assert_eq!(
        e.to_string().lines().nth(2).unwrap(),
        "               ^",
        "{e}"
    );
    let e = err("nn == 1");
    assert!(e.message.contains("unknown column `nn`"), "{}", e.message);
    let e = err("OUTCOME == \"P\"");
    assert!(
        e.message.contains("did you mean `outcome`"),
        "{}",
        e.message
    );
    assert!(syntax_check("N % ").is_err());
    assert!(syntax_check("unknown_column == 1").is_ok());
}

/// Cond(1) with max take n: P ⇔ N ≡ 0 mod n+1. The table has one wrong row.
fn cond1_table(flip: Option<(i64, i64)>) -> Table {
    let mut rule = StrVec::default();
    let mut take_max = Vec::new();
    let mut n = Vec::new();
    let mut outcome = StrVec::default();
    let mut grundy = Vec::new();
    for m in 2..=4 {
        for k in 0..=20 {
            rule.push(&format!("max:{m}"));
            take_max.push(m);
            n.push(k);
            let mut p = k % (m + 1) == 0;
            if flip == Some((m, k)) {
                p = !p;
            }
            outcome.push(if p { "P" } else { "N" });
            grundy.push(if m == 4 { None } else { Some(k % (m + 1)) });
        }
    }
    Table::new()
        .with("rule", Values::Str(rule))
        .with("take_max", Values::Int(take_max))
        .with("N", Values::Int(n))
        .with("outcome", Values::Str(outcome))
        .with("grundy", Values::OptInt(grundy))
        .with("winning_moves", Values::Str((0..63).map(|_| "").collect()))
}

#[test]
fn a_conjecture_that_holds() {
    let t = cond1_table(None);
    let r = check_table(
        &t,
        decl(&t),
        None,
        r#"outcome == "P" <=> N % (take_max + 1) == 0"#,
        &CheckOptions::default(),
    )
    .unwrap();
    assert_eq!(r.verdict, Verdict::Holds);
    assert_eq!(
        (r.rows, r.matched, r.failed, r.undetermined),
        (63, 63, 0, 0)
    );
    assert!(r.counterexamples.is_empty());
    assert_eq!(
        r.ranges,
        vec![("N".to_string(), 0, 20)],
        "take_max is a rule detail column, left out of the key"
    );
    assert_eq!(r.summary(), "holds on all 63 rows (N 0..20)");
    // With a filter and a let.
    let r = check_table(
        &t,
        decl(&t),
        Some("take_max in [2, 3]"),
        "let n = take_max; grundy == N % (n + 1)",
        &CheckOptions::default(),
    )
    .unwrap();
    assert_eq!((r.verdict, r.matched), (Verdict::Holds, 42));
}

#[test]
fn a_conjecture_that_fails_with_the_first_counterexample() {
    let t = cond1_table(Some((3, 8)));
    let opts = CheckOptions::default();
    let claim = r#"outcome == "P" <=> N % (take_max + 1) == 0"#;
    let r = check_table(&t, decl(&t), None, claim, &opts).unwrap();
    assert_eq!(r.verdict, Verdict::Fails);
    assert_eq!((r.matched, r.failed), (63, 1));
    let ce = &r.counterexamples[0];
    assert_eq!(ce.row, 21 + 8);
    assert_eq!(
        ce.key,
        vec![
            ("rule".to_string(), "max:3".to_string()),
            ("N".to_string(), "8".to_string())
        ]
    );
    assert_eq!(
        ce.values,
        vec![
            ("outcome".to_string(), "\"N\"".to_string()),
            ("take_max".to_string(), "3".to_string())
        ]
    );
    assert_eq!(
        ce.sides,
        vec![
            ("outcome == \"P\"".to_string(), "false".to_string()),
            ("N % (take_max + 1) == 0".to_string(), "true".to_string())
        ]
    );
    assert!(r.summary().starts_with(
        "fails on 1 of 63 rows (N 0..20); first counterexample: rule=max:3, N=8: [outcome == \"P\"] = false vs [N % (take_max + 1) == 0] = true; with outcome=\"N\", take_max=3"
    ), "{}", r.summary());

    // A false claim: the counterexamples are the first rows in natural order.
    let r = check_table(&t, decl(&t), Some("take_max >= 3"), "N % 2 == 0", &opts).unwrap();
    assert_eq!(r.verdict, Verdict::Fails);
    assert_eq!((r.matched, r.failed), (42, 20));
    let rows: Vec<usize> = r.counterexamples.iter().map(|c| c.row).collect();
    assert_eq!(rows, vec![22, 24, 26, 28, 30]);
    assert_eq!(r.ranges, vec![("N".to_string(), 0, 20)]);
}

#[test]
fn vacuous_and_undetermined() {
    let t = cond1_table(None);
    let opts = CheckOptions::default();
    let r = check_table(&t, decl(&t), Some("take_max > 100"), "N == N + 1", &opts).unwrap();
    assert_eq!(r.verdict, Verdict::Vacuous);
    assert_eq!((r.rows, r.matched), (63, 0));
    assert!(r.summary().starts_with("vacuous"));
    // Empty table: vacuous too, never holds.
    let empty = t.empty_like();
    let r = check_table(&empty, None, None, "N >= 0", &opts).unwrap();
    assert_eq!(r.verdict, Verdict::Vacuous);

    // grundy is null for take_max = 4: those rows are undetermined.
    let r = check_table(&t, decl(&t), None, "grundy == N % (take_max + 1)", &opts).unwrap();
    assert_eq!(r.verdict, Verdict::Holds);
    assert_eq!((r.matched, r.undetermined, r.decided()), (63, 21, 42));
    assert_eq!(r.first_undetermined.as_ref().unwrap().row, 42);
    assert!(
        r.summary().contains("21 rows undetermined"),
        "{}",
        r.summary()
    );
    let r = check_table(&t, decl(&t), Some("take_max == 4"), "grundy == 0", &opts).unwrap();
    assert_eq!(r.verdict, Verdict::Undetermined);
    // A null filter leaves the row out and counts it.
    let r = check_table(&t, decl(&t), Some("grundy == 0"), "outcome == \"P\"", &opts).unwrap();
    assert_eq!(
        (r.verdict, r.matched, r.filter_null),
        (Verdict::Holds, 7 + 6, 21)
    );
}

#[test]
fn errors_name_the_part() {
    let t = cond1_table(None);
    let e = check_table(
        &t,
        decl(&t),
        Some("take_mx > 1"),
        "N >= 0",
        &CheckOptions::default(),
    )
    .unwrap_err();
    assert_eq!(e.part, "where");
    assert!(e.error.message.contains("unknown column `take_mx`"));
    assert!(
        e.error
            .message
            .contains("available columns: rule, take_max, N, outcome")
    );
    let e = check_table(&t, decl(&t), None, "N >= ", &CheckOptions::default()).unwrap_err();
    assert_eq!((e.part, e.error.column()), ("claim", 6));
}

#[test]
fn large_tables_use_chunks_in_order() {
    // More rows than one chunk: counts and the first counterexamples still
    // come out in row order.
    let n = 3 * CHUNK + 17;
    let t = Table::new().with("N", Values::Int((0..n as i64).collect()));
    let r = check_table(
        &t,
        decl(&t),
        Some("N >= 100000"),
        "N % 7 != 3",
        &CheckOptions::default(),
    )
    .unwrap();
    assert_eq!(r.verdict, Verdict::Fails);
    assert_eq!(r.matched, n - 100000);
    assert_eq!(r.failed, (100000..n).filter(|k| k % 7 == 3).count());
    let rows: Vec<usize> = r.counterexamples.iter().map(|c| c.row).collect();
    // 100000 % 7 == 5, so the first failure is 100005.
    assert_eq!(rows, vec![100005, 100012, 100019, 100026, 100033]);
    assert_eq!(r.ranges, vec![("N".to_string(), 100000, n as i64 - 1)]);
}

#[test]
fn conjectures_against_stored_results_and_markdown() {
    let dir = tempfile::tempdir().unwrap();
    // Real results: takeaway Cond(1) (take 1..n), n = 2..4, N = 0..20.
    let spec = r#"experiment: t
sweeps:
  - name: cond1
    family: takeaway
    take: {max: 2..4}
    N: 0..20
conjectures:
  - name: holds
    sweep: cond1
    where: 'take_max != 3'
    claim: 'outcome == "P" <=> N % (take_max + 1) == 0'
    source: "report 004, §2"
    says: "the losses are the multiples of n+1"
  - name: fails
    sweep: cond1
    claim: 'outcome == "P" <=> (N % (take_max + 1) == 0) != (take_max == 3 and N == 8)'
    source: "report 004, §2"
    says: "the losses are the multiples of n+1, and max:3 also loses at 8"
  - name: vacuous
    sweep: cond1
    where: 'N < 0'
    claim: 'N >= 0'
  - name: bad
    sweep: cond1
    claim: 'N == "two"'
"#;
    let e = crate::spec::from_text(spec, std::path::Path::new("t.yaml")).unwrap();
    crate::sweep::run_quietly(&e, dir.path());
    let rs = check_conjectures(&e, dir.path(), &CheckOptions::default());
    let v: Vec<Verdict> = rs.iter().map(|r| r.verdict()).collect();
    assert_eq!(
        v,
        vec![
            Verdict::Holds,
            Verdict::Fails,
            Verdict::Vacuous,
            Verdict::Error,
        ]
    );
    // (`nimlab run` and `check` refuse this one before solving: plan_errors.)
    let bad = rs[3].result.as_ref().unwrap_err();
    assert!(bad.starts_with("field `conjectures[3].claim`: "), "{bad}");
    let nowhere = tempfile::tempdir().unwrap();
    let missing = check_conjectures(&e, nowhere.path(), &CheckOptions::default());
    let missing = missing[0].result.as_ref().unwrap_err();
    assert!(
        missing.contains("no stored results for sweep `cond1`"),
        "{missing}"
    );
    let md = render_markdown(&rs);
    assert!(
        md.starts_with("4 conjectures: 1 holds, 1 fails, 1 vacuous, 1 error.\n"),
        "{md}"
    );
    assert!(md.contains("| name | claim | source | verdict | evidence |"));
    assert!(
        md.contains(
            "**FAILS** | fails on 1 of 63 rows (N 0..20); first counterexample: rule=max:3, N=8"
        ),
        "{md}"
    );
    assert!(md.contains("where `take_max != 3`"));
    assert!(md.contains("`N == \"two\"`"), "{md}");
    for l in md.lines().filter(|l| l.starts_with('|')) {
        // Every row has the 5 cells (no unescaped `|` inside a cell).
        let cells = l.replace("\\|", "").matches('|').count();
        assert_eq!(cells, 6, "{l}");
    }
}

#[test]
#[ignore]
fn speed() {
    // cargo test --release check::tests::speed -- --ignored --nocapture
    let n = 1_000_000usize;
    let mut rule = StrVec::default();
    let mut outcome = StrVec::default();
    let mut take_max = Vec::with_capacity(n);
    let mut big_n = Vec::with_capacity(n);
    let mut grundy = Vec::with_capacity(n);
    for i in 0..n as i64 {
        let m = 2 + (i / 100_000);
        let k = i % 100_000;
        rule.push(&format!("max:{m}"));
        take_max.push(m);
        big_n.push(k);
        outcome.push(if k % (m + 1) == 0 { "P" } else { "N" });
        grundy.push(Some(k % (m + 1)));
    }
    let t = Table::new()
        .with("rule", Values::Str(rule))
        .with("take_max", Values::Int(take_max))
        .with("N", Values::Int(big_n))
        .with("outcome", Values::Str(outcome))
        .with("grundy", Values::OptInt(grundy));
    for (filter, claim) in [
        (None, r#"outcome == "P" <=> N % (take_max + 1) == 0"#),
        (
            Some("take_max % 2 == 1"),
            r#"let n = take_max; outcome == "P" <=> (N == 0 or (N - (n+2)) % (2*n+3) == 0 or N % (2*n+3) == 0)"#,
        ),
        (
            None,
            "grundy == (take_max % 2 == 1 ? N % (take_max + 1) : mod(N, take_max + 1)) and v2(N + 1) >= 0",
        ),
    ] {
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let t0 = std::time::Instant::now();
            let r = pool.install(|| {
                check_table(&t, decl(&t), filter, claim, &CheckOptions::default()).unwrap()
            });
            let dt = t0.elapsed().as_secs_f64();
            println!(
                "{threads} thread(s): {:.1} M rows/s ({:.3} s) {} — {claim}",
                n as f64 / dt / 1e6,
                dt,
                r.verdict
            );
        }
    }
}

#[test]
fn xor_is_the_nim_sum() {
    // 3 ^ 5 ^ 7 = 1 (011 ^ 101 = 110; 110 ^ 111 = 001), by hand.
    let t = Table::new()
        .with("a", Values::Int(vec![3, 1]))
        .with("b", Values::Int(vec![5, 2]))
        .with("c", Values::Int(vec![7, 3]));
    let r = check_table(
        &t,
        decl(&t),
        None,
        "xor(a, b, c) == (a == 3 ? 1 : 0)",
        &CheckOptions::default(),
    )
    .unwrap();
    assert_eq!(r.verdict, Verdict::Holds);
}

/// Take 1..k, one heap, k = 1..4, N = 0..11, outcomes by hand: P iff
/// N % (k+1) == 0.
fn takeaway_table() -> Table {
    let (mut rule, mut k, mut n, mut outcome) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for kk in 1..=4i64 {
        for nn in 0..12i64 {
            rule.push(format!("max:{kk}"));
            k.push(kk);
            n.push(nn);
            outcome.push(if nn % (kk + 1) == 0 { "P" } else { "N" });
        }
    }
    Table::new()
        .with(
            "rule",
            Values::Str(rule.iter().map(String::as_str).collect()),
        )
        .with("take_max", Values::Int(k))
        .with("N", Values::Int(n))
        .with("outcome", Values::Str(outcome.into_iter().collect()))
}

fn scoped(t: &Table, filter: Option<&str>, claim: &str, parts: &crate::spec::Parts) -> CheckResult {
    check_scoped(
        t,
        decl(t),
        filter,
        claim,
        parts,
        None,
        &CheckOptions::default(),
    )
    .unwrap()
}

/// "P iff N is even" is true for k = 1 only: by parts it holds partly, and
/// the failing part names its first counterexample.
#[test]
fn a_claim_true_on_some_parts_holds_partly() {
    use crate::spec::Parts;
    let t = takeaway_table();
    let claim = r#"outcome == "P" <=> N % 2 == 0"#;
    let whole = scoped(&t, None, claim, &Parts::Whole);
    assert_eq!(whole.verdict, Verdict::Fails);
    assert!(whole.parts.is_empty());
    let by = scoped(&t, None, claim, &Parts::By("take_max".into()));
    assert_eq!(by.verdict, Verdict::Partly);
    let names: Vec<&str> = by.parts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "take_max = 1",
            "take_max = 2",
            "take_max = 3",
            "take_max = 4"
        ]
    );
    let v: Vec<Verdict> = by.parts.iter().map(|p| p.verdict).collect();
    assert_eq!(
        v,
        [
            Verdict::Holds,
            Verdict::Fails,
            Verdict::Fails,
            Verdict::Fails
        ]
    );
    // k = 2: N = 2 is N (2 % 3 != 0) but even: the first counterexample.
    let p2 = &by.parts[1];
    assert_eq!((p2.matched, p2.failed), (12, 6));
    let ce = p2.first_counterexample.as_ref().unwrap();
    assert_eq!(
        ce.key,
        [("rule".into(), "max:2".into()), ("N".into(), "2".into())]
    );
    assert!(
        by.summary()
            .starts_with("partly: holds on 1 of 4 parts, fails on"),
        "{}",
        by.summary()
    );
    assert!(
        by.summary().contains("take_max = 1: holds on 12 rows"),
        "{}",
        by.summary()
    );
}

/// Parts named by a text-valued `by:` or by a list of filters (which may
/// overlap); holding everywhere stays `holds`, failing on every part `fails`.
#[test]
fn named_parts_and_whole_verdicts() {
    use crate::spec::Parts;
    let t = takeaway_table();
    let claim = r#"outcome == "P" <=> N % 2 == 0"#;
    // A text-valued `by:` names its parts by the text; named parts may overlap.
    let text = scoped(
        &t,
        None,
        claim,
        &Parts::By(r#"take_max == 1 ? "one" : "more""#.into()),
    );
    assert_eq!(text.parts[0].name, "one");
    assert_eq!(text.parts[1].name, "more");
    // Named parts may overlap: N ≤ 1 (P at 0, N at 1 for every k: holds),
    // k = 1 (holds), k ≥ 2 (fails at N = 2 for k = 2).
    let named = Parts::Named(vec![
        ("small N".into(), "N <= 1".into()),
        ("k = 1".into(), "take_max == 1".into()),
        ("k >= 2".into(), "take_max >= 2".into()),
    ]);
    let r = scoped(&t, None, claim, &named);
    assert_eq!(r.verdict, Verdict::Partly);
    let v: Vec<Verdict> = r.parts.iter().map(|p| p.verdict).collect();
    assert_eq!(v, [Verdict::Holds, Verdict::Holds, Verdict::Fails]);
    assert_eq!((r.parts[0].matched, r.parts[2].matched), (8, 36));
    // Holding everywhere stays `holds`; failing on every part stays `fails`.
    let all = scoped(
        &t,
        None,
        r#"outcome == "P" <=> N % (take_max + 1) == 0"#,
        &Parts::By("take_max".into()),
    );
    assert_eq!(all.verdict, Verdict::Holds);
    let none = scoped(
        &t,
        Some("take_max >= 2"),
        claim,
        &Parts::By("take_max".into()),
    );
    assert_eq!(none.verdict, Verdict::Fails);
}

/// A family's explainer is asked for each counterexample's reason.
#[test]
fn counterexamples_carry_the_explainers_reason() {
    let t = takeaway_table();
    let explain = |t: &Table, row: usize| Some(format!("row {row} of {}", t.rows()));
    let r = check_scoped(
        &t,
        decl(&t),
        Some("take_max == 1"),
        r#"outcome == "P""#,
        &crate::spec::Parts::Whole,
        Some(&explain),
        &CheckOptions::default(),
    )
    .unwrap();
    let ce = &r.counterexamples[0];
    assert_eq!(ce.reason.as_deref(), Some("row 1 of 48"));
    assert!(
        ce.describe().contains("why: row 1 of 48"),
        "{}",
        ce.describe()
    );
}

/// A claim that no data can falsify has no failing mutation; a real one has.
#[test]
fn mutations_find_rows_that_would_fail() {
    let t = takeaway_table();
    let m = find_failing_mutation(
        &t,
        Some(&COND1),
        Some("take_max == 2"),
        r#"outcome == "P" <=> N % 3 == 0"#,
    )
    .unwrap()
    .expect("a real claim can fail");
    assert_eq!(m.column, "outcome");
    assert_eq!(m.row, 12);
    assert_eq!((m.from.as_str(), m.to.as_str()), ("P", ""));
    assert_eq!(m.contradicts, None);
    // The report 004 weakness: "no loss in 1..n" restated as a tautology of the scope.
    let none = find_failing_mutation(
        &t,
        Some(&COND1),
        Some(r#"outcome == "P" and N > 0"#),
        "N >= 1",
    )
    .unwrap();
    assert_eq!(none, None);
    let taut = find_failing_mutation(&t, Some(&COND1), None, "N == N").unwrap();
    assert_eq!(taut, None);
}

/// Only result cells change: a claim that keys alone could falsify has no
/// mutation, and one that reads keys and a result changes the result.
#[test]
fn mutations_change_results_never_keys() {
    let t = takeaway_table();
    let keys_only =
        find_failing_mutation(&t, Some(&COND1), None, "N >= 0 and take_max >= 1").unwrap();
    assert_eq!(keys_only, None);
    let m = find_failing_mutation(
        &t,
        Some(&COND1),
        None,
        r#"N >= 0 and take_max >= 1 and outcome != "Q""#,
    )
    .unwrap();
    assert_eq!(m.map(|m| m.column), None, "no level Q to change to");
    let m = find_failing_mutation(
        &t,
        Some(&COND1),
        None,
        r#"N >= 0 and take_max >= 1 and outcome in ["P", "N"]"#,
    )
    .unwrap()
    .expect("the outcome can change");
    assert_eq!(m.column, "outcome");
    // A change may bring a row into scope: a P-position found to be an N-position.
    let m = find_failing_mutation(
        &t,
        Some(&COND1),
        Some(r#"outcome != "P""#),
        "N % (take_max + 1) != 0",
    )
    .unwrap()
    .expect("a loss could have been found otherwise");
    assert_eq!((m.column.as_str(), m.from.as_str()), ("outcome", "P"));
    // Without a declaration nothing is known to be a result.
    assert_eq!(
        find_failing_mutation(&t, None, None, r#"outcome in ["P", "N"]"#).unwrap(),
        None
    );
}

/// A declaration where the class and the outcome are read from the Grundy value.
static DERIVED: Dataset = Dataset {
    name: "positions",
    doc: "test",
    groups: &[&[
        Column::new("N", Dtype::Int, Role::Position, "heap"),
        Column::new("grundy", Dtype::Int, Role::Result, "Grundy value").nullable(),
        Column::new("class", Dtype::Str, Role::Result, "class")
            .nullable()
            .derived(&["grundy"], "the Grundy value renamed"),
        Column::new("outcome", Dtype::Str, Role::Outcome, "P or N")
            .derived(&["grundy"], "P exactly when the Grundy value is 0"),
        Column::new("solved", Dtype::Str, Role::Outcome, "P or N, solved alone"),
    ]],
};

/// Heaps 0..12 of the take-1..2 game, where an independent `solved` outcome
/// agrees with the Grundy value; heap 12 has no Grundy value (misère-like).
fn derived_table() -> Table {
    let g: Vec<Option<i64>> = (0..13).map(|n| (n < 12).then_some(n % 3)).collect();
    let class: Vec<Option<String>> = g.iter().map(|g| g.map(|g| format!("G{g}"))).collect();
    let pn = |p: bool| if p { "P" } else { "N" };
    let outcome: Vec<&str> = g
        .iter()
        .enumerate()
        .map(|(n, g)| pn(g.map_or(n % 3 == 0, |g| g == 0)))
        .collect();
    let solved: Vec<&str> = (0..13).map(|n| pn(n % 3 == 0)).collect();
    Table::new()
        .with("N", Values::Int((0..13).collect()))
        .with("grundy", Values::OptInt(g))
        .with(
            "class",
            Values::Str({
                let mut v = StrVec::default();
                class.iter().for_each(|c| v.push_opt(c.as_deref()));
                v
            }),
        )
        .with("outcome", Values::Str(outcome.into_iter().collect()))
        .with("solved", Values::Str(solved.into_iter().collect()))
}

/// Two columns read from one Grundy value cannot disagree: a claim relating
/// them is true by construction, and says why; a claim relating one of them
/// to data computed apart, or reading one alone, can fail.
#[test]
fn claims_true_by_construction() {
    let t = derived_table();
    let both = r#"class == "G0" <=> outcome == "P""#;
    let m = find_failing_mutation(&t, Some(&DERIVED), Some("N < 12"), both)
        .unwrap()
        .expect("a change makes it fail");
    let why = m
        .contradicts
        .expect("only by contradicting the definitions");
    assert!(why.contains("`class` is the Grundy value renamed"), "{why}");
    assert!(why.contains("`outcome` is P exactly when"), "{why}");
    let source = find_failing_mutation(
        &t,
        Some(&DERIVED),
        None,
        r#"outcome == "P" <=> coalesce(grundy, 1) == 0"#,
    )
    .unwrap()
    .expect("a change makes it fail");
    assert!(source.contradicts.is_some(), "{source:?}");
    for claim in [
        r#"class == "G0" <=> solved == "P""#,
        r#"outcome == "P" <=> N % 3 == 0"#,
    ] {
        let m = find_failing_mutation(&t, Some(&DERIVED), Some("N < 12"), claim)
            .unwrap()
            .expect("a change makes it fail");
        assert_eq!(m.contradicts, None, "{claim}: {m:?}");
    }
    // Where the Grundy value is null the outcome is the solver's own.
    let m = find_failing_mutation(
        &t,
        Some(&DERIVED),
        Some("N == 12"),
        r#"outcome == "P" <=> is_null(grundy)"#,
    )
    .unwrap()
    .expect("a change makes it fail");
    assert_eq!((m.column.as_str(), m.contradicts), ("outcome", None));
}

/// Report 000's cuts, by hand: one row per first move of a board, the
/// move's Nim-sum `option` read from the regions it leaves in the same row
/// (a definition), the board's value `board` the mex of `option` over the
/// board's rows (a relation the solver computed). A claim relating `option`
/// to `left` is true by construction; one relating `board` to `left` (lemma
/// 5: a cut into two equal regions of value g makes the board's value ≥ 2)
/// is not, since a board's value could have come out otherwise: its rows
/// here are A(1,5)'s cuts into 2 + 2 (board value 1, so the lemma fails for
/// N3) and B(2,6)'s into 4 + 4 (value 5).
#[test]
fn a_mex_over_other_rows_is_no_definition() {
    static CUTS: Dataset = Dataset {
        name: "cuts",
        doc: "test",
        groups: &[&[
            Column::new("board", Dtype::Str, Role::Position, "board"),
            Column::new("a", Dtype::Int, Role::Result, "first region's value"),
            Column::new("b", Dtype::Int, Role::Result, "second region's value"),
            Column::new("option", Dtype::Int, Role::Result, "a xor b")
                .derived(&["a", "b"], "the Nim-sum of a and b in the same row"),
            Column::new("board_value", Dtype::Int, Role::Result, "the board's value")
                .derived_over_rows(&["option"], "the mex of option over the board's rows"),
        ]],
    };
    let t = Table::new()
        .with(
            "board",
            Values::Str(["B(2,6)", "B(2,6)"].into_iter().collect()),
        )
        .with("a", Values::Int(vec![4, 0]))
        .with("b", Values::Int(vec![4, 1]))
        .with("option", Values::Int(vec![0, 1]))
        .with("board_value", Values::Int(vec![5, 5]));
    let row_local = find_failing_mutation(&t, Some(&CUTS), Some("a == b"), "option == 0")
        .unwrap()
        .expect("a change makes it fail");
    assert!(
        row_local
            .contradicts
            .as_deref()
            .is_some_and(|w| w.contains("`option` is the Nim-sum")),
        "{row_local:?}"
    );
    let lemma = find_failing_mutation(
        &t,
        Some(&CUTS),
        Some("a == b and a == 4"),
        "board_value >= 2",
    )
    .unwrap()
    .expect("a change makes it fail");
    assert_eq!(lemma.column, "board_value");
    assert_eq!(lemma.contradicts, None, "{lemma:?}");
}

/// `other:`: each row is matched with the row whose key columns equal its
/// own except those recomputed; the claim reads it as `other_<column>`.
#[test]
fn claims_about_two_rows() {
    let t = cond1_table(None);
    let pair = |table: &Table, other: &[(&str, &str)]| {
        let o: Vec<(String, String)> = other
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        super::other::with_other_rows(table, decl(table), &o)
    };
    // Period take_max + 1: rows whose N + take_max + 1 is past 20 have no
    // match and leave the scope (m = 2: N 0..17; m = 3: N 0..16).
    let p = pair(&t, &[("N", "N + take_max + 1")]).unwrap();
    let r = check_table(
        &p,
        decl(&p),
        Some("take_max <= 3"),
        "other_grundy == grundy and other_N == N + take_max + 1",
        &CheckOptions::default(),
    )
    .unwrap();
    assert_eq!((r.verdict, r.matched), (Verdict::Holds, 35));
    // One outcome flipped at (m, N) = (2, 9): the rows N = 6 and N = 9 see it.
    let flipped = cond1_table(Some((2, 9)));
    let p = pair(&flipped, &[("N", "N + take_max + 1")]).unwrap();
    let r = check_table(
        &p,
        decl(&p),
        None,
        "other_outcome == outcome",
        &CheckOptions::default(),
    )
    .unwrap();
    assert_eq!((r.verdict, r.failed), (Verdict::Fails, 2));
    let first = &r.counterexamples[0];
    assert!(
        first.key.iter().any(|(k, v)| k == "N" && v == "6"),
        "{:?}",
        first.key
    );
    // Only key columns can be recomputed, and only on a declared dataset.
    let e = pair(&t, &[("grundy", "1")]).unwrap_err();
    assert!(
        e.contains("not a key column") && e.contains("take_max, N"),
        "{e}"
    );
    let bare = Table::new().with("N", Values::Int(vec![1, 2]));
    assert!(
        pair(&bare, &[("N", "N + 1")])
            .unwrap_err()
            .contains("declared dataset")
    );
}

/// Claims are compiled against the declared columns of their sweep's
/// dataset before anything is solved; each mistake names its field.
#[test]
fn plan_errors_name_the_conjecture_and_field_of_each_mistake() {
    let head = "sweeps:\n  - name: a\n    family: parity\n    k: 1..3\n    r: 0..20\n    datasets: [outcome]\nconjectures:\n";
    let errors = |conjectures: &str| {
        let e = crate::spec::from_text(&format!("{head}{conjectures}"), "t.yaml".as_ref()).unwrap();
        plan_errors(std::slice::from_ref(&e))
    };
    let fine = "  - name: ok\n    sweep: a\n    where: 'k >= 1'\n    claim: 'outcome == \"P\" ==> len(winning_takes) == 0'\n    by: 'k % 2'\n    other: {mover: 'mover == \"odd\" ? \"even\" : \"odd\"'}\n";
    assert_eq!(errors(fine), vec![]);
    let cases = [
        (
            "    claim: 'winning_takes == 1'\n",
            ".claim",
            "cannot compare a list of integers",
        ),
        ("    claim: 'k + 1'\n", ".claim", "must be true or false"),
        (
            "    claim: 'k > 0'\n    where: 'winer == \"odd\"'\n",
            ".where",
            "did you mean `winner`?",
        ),
        (
            "    claim: 'k > 0'\n    parts: [{name: x, where: 'moverr == \"odd\"'}]\n",
            ".parts",
            "did you mean `mover`?",
        ),
        (
            "    claim: 'k > 0'\n    other: {r: 'rr + 1'}\n",
            ".other",
            "unknown column `rr`",
        ),
        (
            "    claim: 'k > 0'\n    other: {winner: '\"odd\"'}\n",
            ".other",
            "not a key column",
        ),
        (
            "    claim: 'other_r > r'\n    other: {k: 'k + 1'}\n",
            "",
            "",
        ),
        (
            "    claim: 'other_rr > r'\n    other: {k: 'k + 1'}\n",
            ".claim",
            "did you mean `other_r`?",
        ),
    ];
    for (body, field, needle) in cases {
        let got = errors(&format!("  - name: c\n    sweep: a\n{body}"));
        if field.is_empty() {
            assert_eq!(got, vec![], "{body}");
            continue;
        }
        assert_eq!(got.len(), 1, "{body}: {got:?}");
        let msg = got[0].to_string();
        assert_eq!(got[0].field, format!("conjectures[0]{field}"), "{msg}");
        assert!(msg.starts_with("t.yaml: field `conjectures[0]"), "{msg}");
        assert!(
            msg.contains("(conjecture `c`)") && msg.contains(needle),
            "{msg}"
        );
    }
    // The default dataset (`outcome`, the family's first) is stored; another
    // one the sweep's `datasets:` leaves out is refused when the spec loads.
    let other_ds =
        format!("{head}  - name: c\n    sweep: a\n    dataset: safe_states\n    claim: 'k > 0'\n");
    let err = crate::spec::from_text(&other_ds, "t.yaml".as_ref())
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("conjectures[0].dataset") && err.contains("leaves it out"),
        "{err}"
    );
}

/// The evidence sentence names the rows in the reader's terms: the rule and
/// the heap sizes, the computed value against the claimed one. Take 1..2,
/// last take wins: the P-positions are N ≡ 0 (mod 3), so "N % 2 == 0" fails
/// first at N = 2 (an N-position), then N = 3, 4, 8, 9 (12 heaps 0..11).
#[test]
fn evidence_sentences_in_the_reports_terms() {
    let t = takeaway_table();
    let sentence = |filter: &str, claim: &str| {
        scoped(&t, Some(filter), claim, &crate::spec::Parts::Whole).evidence_sentence()
    };
    assert_eq!(
        sentence("take_max == 2", r#"outcome == (N % 3 == 0 ? "P" : "N")"#),
        "Holds for all 12 cases of max:2 with N = 0 … 11."
    );
    assert_eq!(
        sentence("take_max == 2", r#"outcome == (N % 2 == 0 ? "P" : "N")"#),
        "Fails for max:2, N = 2, 3, 4, 8, 9 … (6 of 12 cases): at the first, \
         nimlab finds outcome N where the report says P."
    );
    // Two rules: their range of labels after the positions' range, or the
    // labels alone where a label names a row (a board's name).
    let two = || {
        scoped(
            &t,
            Some("take_max <= 2"),
            r#"outcome == (N % (take_max + 1) == 0 ? "P" : "N")"#,
            &crate::spec::Parts::Whole,
        )
    };
    assert_eq!(
        two().evidence_sentence(),
        "Holds for all 24 cases with N = 0 … 11 (rule max:1 … max:2)."
    );
    let mut named = two();
    named.label_names_row = true;
    named.unit = ("board".into(), "boards".into());
    assert_eq!(
        named.evidence_sentence(),
        "Holds for every board max:1 … max:2 (24 boards)."
    );
    // A comparison keeps its operator; a one-row scope names the row.
    assert_eq!(
        sentence("take_max == 3 and N == 5", "N >= 6"),
        "Fails for max:3, N = 5 (1 of 1 case): at the first, nimlab finds N 5 where the report says ≥ 6."
    );
}

/// The names an expression reads: its columns and back-quoted names, and the
/// column behind `other_x`; not a `let` name, a struct's field or a function.
#[test]
fn names_an_expression_reads() {
    let mut n = std::collections::HashSet::new();
    names_in(
        "let m = take_min; outcome == \"P\" <=> other_N % (`my col` + m) < min(winning_moves.take)",
        &mut n,
    )
    .expect("it parses");
    let mut got: Vec<&str> = n.iter().map(String::as_str).collect();
    got.sort_unstable();
    assert_eq!(
        got,
        [
            "N",
            "my col",
            "other_N",
            "outcome",
            "take_min",
            "winning_moves"
        ]
    );
    assert!(names_in("N ==", &mut n).is_none());
}

/// `--mutate` on a claim that fails: tried where it holds. "The losses
/// of take 1..2 are the multiples of 3 and of 4" fails at 4 (an
/// N-position) and holds at 0, 3, 6, 9 (P) and 1, 2, 5, … (N): a change of
/// the outcome on one of those rows makes it false there. A claim that
/// holds nowhere has nothing to try; one that fails and whose holding part
/// reads keys only (`N >= 1`, false at 0) cannot fail where it holds.
#[test]
fn mutations_of_a_failing_claim_are_tried_where_it_holds() {
    let t = takeaway_table();
    let claim = r#"outcome == "P" <=> (N % 3 == 0 or N % 4 == 0)"#;
    let m = mutate::where_it_holds(&t, Some(&COND1), Some("take_max == 2"), claim)
        .unwrap()
        .expect("the part where it holds can fail");
    assert_eq!(m.column, "outcome");
    let n = t.int("N", m.row).unwrap();
    let p = t.text("outcome", m.row) == Some("P");
    assert_eq!(t.int("take_max", m.row), Some(2));
    assert_eq!(
        p,
        n % 3 == 0 || n % 4 == 0,
        "row {} (N = {n}) is where it holds",
        m.row
    );
    let nowhere = mutate::where_it_holds(&t, Some(&COND1), None, "N < 0");
    assert!(nowhere.unwrap_err().contains("no part"));
    let keys = mutate::where_it_holds(&t, Some(&COND1), None, "N >= 1");
    assert_eq!(keys, Ok(None));
}

/// The rows of each part in the claim's scope, for `--mutate` part by
/// part: heaps 0..9, `by: N % 2`, `where: N < 6`, by hand: the even heaps
/// 0, 2, 4 and the odd ones 1, 3, 5, in order of first appearance.
#[test]
fn each_part_has_its_rows_in_scope() {
    let t = Table::new().with("N", Values::Int((0..10).collect()));
    let by = crate::spec::Parts::By("N % 2".to_string());
    let parts = super::parts::part_rows(&t, &by, Some("N < 6")).unwrap();
    assert_eq!(
        parts,
        vec![
            ("N % 2 = 0".to_string(), vec![0, 2, 4]),
            ("N % 2 = 1".to_string(), vec![1, 3, 5])
        ]
    );
    assert_eq!(
        super::parts::part_rows(&t, &crate::spec::Parts::Whole, None).unwrap(),
        vec![]
    );
}
