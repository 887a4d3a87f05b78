//! What nimlab prints is accepted back: the `rule`, `take`, `board` and
//! `name` columns of rows made by nimlab's own sweep code for random rules,
//! given to `solve` as they are, give the row's outcome and Grundy value; and
//! every `solve --json` answer matches `docs/solve.schema.json`, its `game`
//! and `position` give the same answer back, and each winning move's `to`
//! position is a P-position (checked by solving it).

use std::sync::LazyLock;

use nimlab::data::{Cell, Table};
use nimlab::family::watch::UNWATCHED;
use nimlab::family::{self, Family};
use nimlab::params::{self, Node};
use proptest::prelude::*;
use serde_json::Value;

/// The schema the families assemble (`docs/solve.schema.json` is held equal
/// to it by tests/registry.rs).
static SCHEMA: LazyLock<jsonschema::Validator> = LazyLock::new(|| {
    let schema = family::schema::solve_schema(family::FAMILIES).unwrap();
    jsonschema::validator_for(&schema).unwrap()
});

fn fam(name: &str) -> &'static dyn Family {
    family::by_name(name).unwrap()
}

/// Every row of `dataset` made by the family's sweep code for `yaml`.
fn rows(f: &dyn Family, yaml: &str, dataset: &str) -> Table {
    family::sweep_rows(f, yaml, dataset).unwrap().unwrap()
}

fn text(t: &Table, col: &str, i: usize) -> String {
    match t.cell(col, i) {
        Some(Cell::Str(s)) => s.to_string(),
        c => panic!("{col}[{i}]: {c:?}"),
    }
}

fn int(t: &Table, col: &str, i: usize) -> Option<i64> {
    match t.cell(col, i) {
        Some(Cell::Int(x)) => Some(x),
        Some(Cell::Null) | None => None,
        c => panic!("{col}[{i}]: {c:?}"),
    }
}

/// `nimlab solve FAMILY ARGS --json`, in process; every answer is checked
/// (schema, fed back, winning moves lead to P-positions).
fn solve(f: &dyn Family, args: &[String]) -> Value {
    let json = solve_raw(f, args).unwrap_or_else(|e| panic!("{args:?}: {e}"));
    check_answer(f, &json);
    json
}

fn solve_raw(f: &dyn Family, args: &[String]) -> anyhow::Result<Value> {
    let v = params::cli_to_map(args, f.cli_args())?;
    Ok(f.solve(&Node::root(&v, params::COMMAND_LINE), UNWATCHED)?
        .json)
}

/// The arguments that give a JSON map (`game`, `position`) back.
fn args_of(maps: &[&Value]) -> Vec<String> {
    let mut out = Vec::new();
    for m in maps {
        for (k, v) in m.as_object().unwrap() {
            out.push(format!("--{k}"));
            out.push(arg_of(v));
        }
    }
    out
}

/// One argument's text: integers beyond 2^53 come as strings of digits
/// (docs/solve.schema.json, `$defs/int`), in a list too (`--heaps
/// 1000000000000000000,5`).
fn arg_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(a) if a.iter().all(|x| x.is_number() || x.is_string()) => {
            a.iter().map(arg_of).collect::<Vec<_>>().join(",")
        }
        v => v.to_string(),
    }
}

/// Every JSON number of `v` is an integer a double holds exactly, or not
/// an integer.
fn no_unsafe_integer(v: &Value) -> bool {
    match v {
        Value::Number(n) => n
            .as_f64()
            .is_some_and(|x| x.abs() < 9_007_199_254_740_992.0),
        Value::Array(a) => a.iter().all(no_unsafe_integer),
        Value::Object(m) => m.values().all(no_unsafe_integer),
        _ => true,
    }
}

fn check_answer(f: &dyn Family, json: &Value) {
    assert!(
        no_unsafe_integer(json),
        "an integer beyond 2^53 as a number: {json:#}"
    );
    let errors: Vec<String> = SCHEMA
        .iter_errors(json)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:?} in {json:#}");
    // `game` and `position` give the same answer.
    let again = solve_raw(f, &args_of(&[&json["game"], &json["position"]])).unwrap();
    for k in [
        "rule",
        "game",
        "position",
        "outcome",
        "grundy",
        "winning_moves",
    ] {
        assert_eq!(again[k], json[k], "{k}: {json:#}");
    }
    // A winning move leads to a position where the player to move loses.
    for m in json["winning_moves"].as_array().unwrap() {
        let to = solve_raw(f, &args_of(&[&json["game"], &m["to"]])).unwrap();
        assert_eq!(to["outcome"], "P", "{m} from {json:#}");
        assert!(SCHEMA.is_valid(&to), "{to:#}");
    }
}

/// Heaps beyond 2^53 (which JSON readers parsing numbers as doubles round:
/// jq 1.6 printed `1e+18` for both) are strings of digits: 10^18 and
/// 10^18 − 1 give distinct exact answers, accepted back. Take 1..3: N is a
/// P-position iff N ≡ 0 (mod 4); 10^18 ≡ 0, 10^18 − 1 ≡ 3, whose winning
/// take is 3, to 10^18 − 4.
#[test]
fn heaps_beyond_2_pow_53_stay_exact() {
    let f = fam("takeaway");
    let a = solve(
        f,
        &strings(&["--take", "max:3", "--heaps", "1000000000000000000"]),
    );
    let b = solve(
        f,
        &strings(&["--take", "max:3", "--heaps", "999999999999999999"]),
    );
    assert_eq!(
        a["position"]["heaps"],
        serde_json::json!(["1000000000000000000"])
    );
    assert_eq!(a["outcome"], "P");
    assert_eq!(
        b["position"]["heaps"],
        serde_json::json!(["999999999999999999"])
    );
    assert_eq!(b["outcome"], "N");
    assert_eq!(b["grundy"], 3);
    let m = &b["winning_moves"][0];
    assert_eq!(
        (&m["take"], &m["heap"]),
        (&serde_json::json!(3), &serde_json::json!(1))
    );
    assert_eq!(m["to"]["heaps"], serde_json::json!(["999999999999999996"]));
    assert_ne!(a.to_string(), b.to_string());
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// A take-away take rule in a spec's form.
fn take_rule() -> impl Strategy<Value = String> {
    prop_oneof![
        (1u32..=6).prop_map(|n| format!("{{max: {n}}}")),
        (1u32..=4, 0u32..=4).prop_map(|(m, d)| format!("{{min: {m}, max: {}}}", m + d)),
        proptest::collection::btree_set(1u32..=7, 1..=4)
            .prop_map(|s| format!("{{set: {:?}}}", s.into_iter().collect::<Vec<_>>())),
        Just("any".to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    /// Takeaway, one to three heaps: `--rule <rule column>` and `--take <take
    /// column> --play … --no-repeat …` answer the row.
    #[test]
    fn takeaway_rows_are_accepted_back(
        take in take_rule(),
        misere in any::<bool>(),
        no_repeat in any::<bool>(),
        heaps in 1usize..=3,
        picks in proptest::collection::vec(any::<proptest::sample::Index>(), 3),
    ) {
        let f = fam("takeaway");
        let n = if heaps == 3 { 6 } else { 12 };
        let yaml = format!(
            "name: t\nfamily: takeaway\ntake: {take}\nplay: {}\nno_repeat: {no_repeat}\nheaps: {heaps}\nN: 0..{n}\n",
            if misere { "misere" } else { "normal" }
        );
        let t = rows(f, &yaml, "positions");
        for p in &picks {
            let i = p.index(t.rows());
            let sizes: Vec<String> = if heaps == 1 {
                vec![int(&t, "N", i).unwrap().to_string()]
            } else {
                (1..=heaps).map(|h| int(&t, &format!("N{h}"), i).unwrap().to_string()).collect()
            };
            let sizes = sizes.join(",");
            let by_rule = solve(f, &strings(&["--rule", &text(&t, "rule", i), "--heaps", &sizes]));
            let mut args = strings(&["--take", &text(&t, "take", i), "--heaps", &sizes]);
            args.extend(strings(&["--play", &text(&t, "play", i)]));
            if matches!(t.cell("no_repeat", i), Some(Cell::Bool(true))) {
                args.push("--no-repeat".into());
            }
            let by_take = solve(f, &args);
            for j in [&by_rule, &by_take] {
                prop_assert_eq!(j["outcome"].as_str().unwrap(), text(&t, "outcome", i), "{} row {}", yaml, i);
                prop_assert_eq!(j["grundy"].as_i64(), int(&t, "grundy", i), "{} row {}", yaml, i);
                prop_assert_eq!(&j["rule"], &Value::from(text(&t, "rule", i)));
            }
        }
    }

    /// Parity: the `outcome` rows through `--variant … --take <take column>`,
    /// the `pattern` rows through `--rule <rule column>`.
    #[test]
    fn parity_rows_are_accepted_back(
        extra in proptest::collection::btree_set(2u32..=6, 0..=3),
        interval in any::<bool>(),
        k in 1u32..=6,
        odd_wins in any::<bool>(),
        picks in proptest::collection::vec(any::<proptest::sample::Index>(), 3),
    ) {
        let f = fam("parity");
        let take = if interval {
            format!("{{max: {k}}}")
        } else {
            let mut s = vec![1];
            s.extend(extra);
            format!("{{set: {s:?}}}")
        };
        let variant = if odd_wins { "odd_wins" } else { "sides" };
        let yaml = format!("name: t\nfamily: parity\nvariant: {variant}\ntake: {take}\nr: 0..20\nstrip_to: 20\n");
        let t = rows(f, &yaml, "outcome");
        for p in &picks {
            let i = p.index(t.rows());
            let mover = match (odd_wins, text(&t, "mover", i).as_str()) {
                (true, "mover") => "a".to_string(),
                (true, m) => panic!("odd_wins rows are the mover's: {m}"),
                (false, m) => m.to_string(),
            };
            let j = solve(f, &strings(&[
                "--variant", &text(&t, "variant", i), "--take", &text(&t, "take", i),
                "--a", &int(&t, "a_parity", i).unwrap().to_string(),
                "--b", &int(&t, "b_parity", i).unwrap().to_string(),
                "--r", &int(&t, "r", i).unwrap().to_string(), "--mover", &mover,
            ]));
            prop_assert_eq!(j["outcome"].as_str().unwrap(), text(&t, "outcome", i), "{} row {}", yaml, i);
            let takes: Vec<i64> = j["winning_moves"].as_array().unwrap().iter().map(|m| m["take"].as_i64().unwrap()).collect();
            let expected: Vec<i64> = match t.cell("winning_takes", i) {
                Some(Cell::IntList(v)) => v.to_vec(),
                c => panic!("{c:?}"),
            };
            prop_assert_eq!(takes, expected);
        }
        let t = rows(f, &yaml, "pattern");
        for p in &picks {
            let i = p.index(t.rows());
            // `a=0 b=1, odd moves` (sides) or `mover 0, other 1` (odd_wins).
            let strip = text(&t, "strip", i);
            let nums: Vec<String> = strip
                .split(|c: char| !c.is_ascii_digit())
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect();
            let mover = if odd_wins { "a" } else { strip.rsplit(", ").next().unwrap().trim_end_matches(" moves") };
            let j = solve(f, &strings(&[
                "--rule", &text(&t, "rule", i), "--a", &nums[0], "--b", &nums[1],
                "--r", &int(&t, "r", i).unwrap().to_string(), "--mover", mover,
            ]));
            let winner = text(&t, "winner", i);
            let mover_wins = winner == mover || winner == "mover";
            prop_assert_eq!(j["outcome"].as_str().unwrap(), if mover_wins { "N" } else { "P" }, "{} {}", yaml, strip);
            prop_assert_eq!(&j["rule"], &Value::from(text(&t, "rule", i)));
        }
    }

    /// Lines: `--board <board column> --rule <rule column>` and `--board
    /// <name column> --take <take column> --play …` answer the row.
    #[test]
    fn lines_rows_are_accepted_back(
        board in prop_oneof![
            (1u32..=4).prop_map(|n| format!("{{triangle: {n}}}")),
            (1u32..=3, 1u32..=4).prop_map(|(x, y)| format!("{{trapezoid: [{x}, {y}]}}")),
            (1u32..=3, 1u32..=3).prop_map(|(x, y)| format!("{{parallelogram: [{x}, {y}]}}")),
            (1u32..=2, 1u32..=2, 1u32..=2).prop_map(|(x, y, z)| format!("{{pentagon: [{x}, {y}, {z}]}}")),
            (1u32..=2).prop_map(|s| format!("{{regular: {s}}}")),
            Just("{mask: \"OO./.OO/O.O\"}".to_string()),
        ],
        take in prop_oneof![Just("maximal".to_string()), Just("any".to_string()), (1u32..=3).prop_map(|p| format!("{{max: {p}}}"))],
        misere in any::<bool>(),
    ) {
        let f = fam("lines");
        let yaml = format!(
            "name: t\nfamily: lines\nboard: {board}\ntake: {take}\nplay: {}\n",
            if misere { "misere" } else { "normal" }
        );
        let t = rows(f, &yaml, "positions");
        prop_assert_eq!(t.rows(), 1);
        let by_rule = solve(f, &strings(&["--board", &text(&t, "board", 0), "--rule", &text(&t, "rule", 0)]));
        let by_name = solve(f, &strings(&[
            "--board", &text(&t, "name", 0), "--take", &text(&t, "take", 0), "--play", &text(&t, "play", 0),
        ]));
        for j in [&by_rule, &by_name] {
            prop_assert_eq!(j["outcome"].as_str().unwrap(), text(&t, "outcome", 0), "{}", yaml);
            prop_assert_eq!(j["grundy"].as_i64(), int(&t, "grundy", 0), "{}", yaml);
            prop_assert_eq!(&j["rule"], &Value::from(text(&t, "rule", 0)));
            prop_assert_eq!(j["details"]["name"].as_str().unwrap(), text(&t, "name", 0));
        }
    }
}

/// (family, `solve --json` arguments, the method it must answer by): the
/// cases of [`every_method_answers_in_the_one_shape`].
const ONE_SHAPE_CASES: &[(&str, &[&str], &str)] = &[
    ("takeaway", &["--heaps", "3,5,7", "--take", "any"], "nim"),
    (
        "takeaway",
        &["--heaps", "1000000000000000000", "--take", "set:1,3,4"],
        "period",
    ),
    (
        "takeaway",
        &["--heaps", "1000000000000000000,7", "--rule", "min:2,max:7"],
        "period",
    ),
    (
        "takeaway",
        &[
            "--heaps",
            "10",
            "--take",
            "max:3",
            "--no-repeat",
            "--last-take",
            "2",
        ],
        "sequence",
    ),
    (
        "takeaway",
        &["--heaps", "3,5,7", "--rule", "any misere"],
        "joint_table",
    ),
    (
        "takeaway",
        &["--heaps", "4,5", "--rule", "{1,3,4} no_repeat"],
        "joint_table",
    ),
    (
        "parity",
        &["--k", "3", "--r", "800000000000008", "--a", "3", "--b", "5"],
        "period",
    ),
    (
        "parity",
        &[
            "--rule",
            "odd_wins take {1,3,4}",
            "--r",
            "17",
            "--mover",
            "b",
        ],
        "table",
    ),
    (
        "lines",
        &[
            "--triangle",
            "4",
            "--take",
            "max:3",
            "--play",
            "misere",
            "--counts",
        ],
        "exhaustive",
    ),
    (
        "lines",
        &["--board", "H(2,2,2,2,2,2)", "--remove", "[[0,0]]"],
        "components",
    ),
    (
        "lines",
        &["--board", "T(1)", "--remove", "[[0,0]]"],
        "empty",
    ),
    (
        "octal",
        &["--code", "0.77", "--heaps", "3,100000"],
        "period",
    ),
    (
        "octal",
        &["--code", "0.137", "--heaps", "9,1,4"],
        "sequence",
    ),
    (
        "octal",
        &["--rule", "0.77 misere", "--heaps", "2,3"],
        "search",
    ),
    ("octal", &["--code", "4.07", "--heaps", "0,12"], "period"),
    (
        "rules",
        &["--move", "is_square(t)", "--heaps", "7,12"],
        "grundy",
    ),
    (
        "rules",
        &[
            "--move",
            "t <= k and t != last",
            "--k",
            "3",
            "--heaps",
            "9,4",
            "--last",
            "2",
        ],
        "joint state",
    ),
    (
        "rules",
        &[
            "--move",
            "t <= 5 and t != mine",
            "--heaps",
            "11",
            "--mine",
            "3",
            "--last",
            "1",
        ],
        "joint state",
    ),
    (
        "rules",
        &["--move", "true", "--both", "true", "--heaps", "4,6"],
        "joint state",
    ),
    (
        "rules",
        &[
            "--move", "t <= 2", "--split", "--heaps", "9", "--play", "misere",
        ],
        "joint state",
    ),
];

/// Every family's JSON, on the methods the random rows do not reach: Nim,
/// a proven period (10^18 stones), the joint table, a huge parity pile, a
/// lines position with pieces removed, counts.
#[test]
fn every_method_answers_in_the_one_shape() {
    let cases = ONE_SHAPE_CASES;
    let mut answered: Vec<&str> = cases.iter().map(|c| c.0).collect();
    answered.dedup();
    let every: Vec<&str> = family::FAMILIES.iter().map(|f| f.name()).collect();
    assert_eq!(answered, every, "a case for every family's solve --json");
    for (name, args, method) in cases {
        let j = solve(fam(name), &strings(args));
        assert_eq!(j["method"], *method, "{name} {args:?}: {j:#}");
    }
}

/// By hand: take {1, 3, 4}: G(0..=13) = 0 1 0 1 2 3 2, 0 1 0 1 2 3 2 (period 7
/// from 0), so 10^18 ≡ 1 (mod 7) has G = 1; the same rule in every written form.
#[test]
fn one_take_set_in_every_form() {
    let f = fam("takeaway");
    for take in [
        "set:1,3,4",
        "{1,3,4}",
        "1,3,4",
        "{set: [1, 3, 4]}",
        "{set:[1,3,4]}",
        "set:4,3,1",
    ] {
        let j = solve(
            f,
            &strings(&["--heaps", "1000000000000000000", "--take", take]),
        );
        assert_eq!(j["grundy"], 1, "{take}");
        assert_eq!(j["game"]["take"], "set:1,3,4", "{take}");
    }
    // An interval: `2..7`, `min:2,max:7` and `{min: 2, max: 7}` are one rule
    // (by hand: G(n) = floor(n / 2) for n ≤ 8, so G(8) = 4).
    for take in ["2..7", "min:2,max:7", "{min: 2, max: 7}", "{min:2,max:7}"] {
        let j = solve(f, &strings(&["--heaps", "8", "--take", take]));
        assert_eq!(j["game"]["take"], "min:2,max:7", "{take}");
        assert_eq!(j["grundy"], 4, "{take}");
    }
}

/// Bad values name the argument and what is allowed; nothing panics.
#[test]
fn bad_values_name_the_argument() {
    let err = |name: &str, args: &[&str]| {
        solve_raw(fam(name), &strings(args))
            .err()
            .unwrap_or_else(|| panic!("{args:?} should fail"))
            .to_string()
    };
    let e = err("takeaway", &["--heaps", "3", "--take", "foo"]);
    assert!(
        e.starts_with("--take: unknown take rule \"foo\"; allowed: `any`"),
        "{e}"
    );
    let e = err("takeaway", &["--heaps", "3", "--take", "max:0"]);
    assert!(e.starts_with("--take (`max`): 0 is out of range"), "{e}");
    let e = err("takeaway", &["--heaps", "3", "--rule", "max:3 sometimes"]);
    assert!(e.starts_with("--rule: cannot read \"sometimes\""), "{e}");
    let e = err(
        "takeaway",
        &["--heaps", "3", "--rule", "max:3", "--play", "misere"],
    );
    assert!(e.starts_with("--rule: give either"), "{e}");
    let e = err(
        "takeaway",
        &["--heaps", "3", "--take", "max:3", "--last-take", "2"],
    );
    assert!(
        e.starts_with("--last-take: only matters with no_repeat"),
        "{e}"
    );
    let e = err("takeaway", &["--heap", "3"]);
    assert!(
        e.starts_with("--heap: unknown argument; allowed here: --heaps,"),
        "{e}"
    );
    let e = err("parity", &["--take", "2..4", "--r", "4"]);
    assert!(e.starts_with("--take: a take set must contain 1"), "{e}");
    let e = err("parity", &["--rule", "sides 1..3", "--r", "4"]);
    assert!(e.starts_with("--rule: cannot read the rule"), "{e}");
    let e = err("lines", &["--board", "Q(3)"]);
    assert!(
        e.starts_with("--board: cannot read the board \"Q(3)\"; a board is a name"),
        "{e}"
    );
    for board in ["triangle:3", "triangle: 3", "{triangle: 3}", "T(3)"] {
        let j = solve(fam("lines"), &strings(&["--board", board]));
        assert_eq!(j["position"]["board"], "triangle: 3", "{board}");
    }
    let j = solve(fam("lines"), &strings(&["--board", "trapezoid:2,7"]));
    assert_eq!(j["details"]["name"], "A(2,7)");
    let e = err("lines", &["--board", "T(3)", "--triangle", "3"]);
    assert!(e.starts_with("--board: give the board once"), "{e}");
    let e = err("lines", &["--board", "A(3)"]);
    assert!(e.contains("`trapezoid` takes a list of 2 values"), "{e}");
    let e = err("lines", &["--triangle", "3", "--take", "max:0"]);
    assert!(
        e.starts_with("--take (`max`): P = 0 would remove nothing"),
        "{e}"
    );
}

/// A spec reads the same text forms as the command line: take rules and
/// boards as the data print them.
#[test]
fn a_spec_reads_the_printed_forms() {
    let t = rows(
        fam("takeaway"),
        "name: t\nfamily: takeaway\ntake: [\"set:1,3,4\", \"{1,3,4}\", \"2..7\", {max: 3}]\nN: 0..3\n",
        "periods",
    );
    let mut takes: Vec<String> = (0..t.rows()).map(|i| text(&t, "take", i)).collect();
    takes.dedup();
    assert_eq!(takes, ["set:1,3,4", "min:2,max:7", "max:3"]);
    let t = rows(
        fam("lines"),
        "name: t\nfamily: lines\nboard: [\"A(2,3)\", \"triangle: 3\", {triangle: 4}]\ntake: \"max:2\"\n",
        "positions",
    );
    let names: Vec<String> = (0..t.rows()).map(|i| text(&t, "name", i)).collect();
    assert_eq!(names, ["A(2,3)", "T(3)", "T(4)"]);
    assert_eq!(text(&t, "take", 0), "max:2");
    let t = rows(
        fam("parity"),
        "name: t\nfamily: parity\ntake: [\"{1,3,4}\", \"1..3\"]\nr: 0..3\n",
        "moduli",
    );
    let takes: Vec<String> = (0..t.rows()).map(|i| text(&t, "take", i)).collect();
    assert_eq!(takes, ["set:1,3,4", "max:3"]);
}
