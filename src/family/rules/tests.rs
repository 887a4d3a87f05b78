//! The rule family against independent computations: its twins in
//! `takeaway` and `octal` (each family's own sweep), a brute-force
//! [`Game`] whose moves are judged by the claims' evaluator (not the
//! family's compiled conditions), and published sequences.

use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};

use super::Rules;
use crate::data::{Table, Values};
use crate::expr::Expr;
use crate::family::Family;
use crate::family::{by_name, sweep_rows};
use crate::game::{BruteOutcome, Game, Play};

/// Each position's outcome, Grundy value and winning moves, keyed by its
/// heaps, from a dataset of `family`.
fn values(family: &str, yaml: &str, dataset: &str) -> BTreeMap<String, String> {
    let f = by_name(family).unwrap();
    let t = sweep_rows(f, yaml, dataset).unwrap().unwrap();
    let mut out = BTreeMap::new();
    for r in 0..t.rows() {
        let key: Vec<String> = ["play", "N", "N1", "N2"]
            .iter()
            .map(|c| match t.cell(c, r) {
                None | Some(crate::data::Cell::Null) => "-".to_string(),
                Some(v) => format!("{v:?}"),
            })
            .collect();
        // takeaway's `winning_moves` (heap, take), the rules' `winning_rule_moves`
        // (heap, take, heap2, split): their first two fields compared.
        let cell = t
            .cell("winning_moves", r)
            .or_else(|| t.cell("winning_rule_moves", r));
        let mut wins: Vec<Vec<i64>> = match cell {
            Some(crate::data::Cell::StructList(l, i)) => (0..l.row_len(i))
                .map(|k| l.item(i, k)[..2].to_vec())
                .collect(),
            _ => vec![],
        };
        wins.sort();
        let v = format!(
            "{:?} {:?} {wins:?}",
            t.cell("outcome", r),
            t.cell("grundy", r)
        );
        out.insert(key.join(","), v);
    }
    out
}

/// Every takeaway rule form equals its rule-condition twin, value by
/// value (outcome, Grundy value, winning moves), one and two heaps,
/// normal and misère play.
#[test]
fn takeaway_forms_equal_their_condition_twins() {
    let twins = [
        ("take: {max: 5}", "move: \"t <= 5\""),
        ("take: {min: 2, max: 4}", "move: \"2 <= t <= 4\""),
        ("take: {set: [1, 3, 4]}", "move: \"t in [1, 3, 4]\""),
        ("take: any", "move: \"true\""),
        (
            "take: {max: 4}\nno_repeat: true",
            "move: \"t <= 4 and t != last\"",
        ),
        (
            "take: {set: [2, 3]}\nno_repeat: true",
            "move: \"t in [2, 3] and t != last\"",
        ),
        ("take: any\nno_repeat: true", "move: \"t != last\""),
        ("take: any\nno_repeat: true", "move: \"last != t\""),
    ];
    for (take, mv) in twins {
        for (heaps, n) in [(1, 40), (2, 10)] {
            let common = format!("heaps: {heaps}\nN: 0..{n}\nplay: [normal, misere]\n");
            let a = values("takeaway", &format!("{take}\n{common}"), "positions");
            let b = values("rules", &format!("{mv}\n{common}"), "rule_positions");
            assert_eq!(a.len(), b.len(), "{take} / {mv}, {heaps} heaps");
            for (k, v) in &a {
                assert_eq!(Some(v), b.get(k), "{take} / {mv} at {k}");
            }
        }
    }
}

/// Octal codes with digits 3 (0 or 1 heap left) and 7 (0, 1 or 2) equal
/// their `split: false` and `split: true` twins, one and two heaps.
#[test]
fn octal_codes_equal_their_split_twins() {
    let twins = [
        ("0.77", "move: \"t <= 2\"\nsplit: true"),
        ("0.777", "move: \"t <= 3\"\nsplit: true"),
        ("0.707", "move: \"t in [1, 3]\"\nsplit: true"),
        ("0.33", "move: \"t <= 2\""),
        ("0.303", "move: \"t in [1, 3]\""),
    ];
    for (code, rule) in twins {
        for (heaps, n, plays) in [
            (1, 60, "[normal]"),
            (1, 20, "[misere]"),
            (2, 12, "[normal]"),
        ] {
            let common = format!("heaps: {heaps}\nN: 0..{n}\nplay: {plays}\n");
            let ds = if heaps == 1 {
                "nim_values"
            } else {
                "positions"
            };
            let a = values("octal", &format!("code: \"{code}\"\n{common}"), ds);
            let b = values("rules", &format!("{rule}\n{common}"), "rule_positions");
            assert_eq!(a.len(), b.len(), "{code}, {heaps} heaps");
            for (k, v) in &a {
                let (x, y) = (v.split(' ').next(), b[k].split(' ').next());
                assert_eq!(x, y, "{code} / {rule} at {k}: outcome");
                if plays == "[normal]" {
                    let g = |s: &str| s.split(' ').nth(1).unwrap().to_string();
                    assert_eq!(g(v), g(&b[k]), "{code} at {k}: Grundy value");
                }
            }
        }
    }
}

/// The brute force: a position with its history, the condition judged by
/// the claims' own evaluator on a one-row table.
#[derive(Clone)]
struct Brute {
    rule: &'static BruteRule,
    heaps: Vec<u32>,
    last: Option<u32>,
    mine: Option<u32>,
}

struct BruteRule {
    mv: String,
    both: Option<String>,
    split: bool,
    params: Vec<(String, i64)>,
}

impl PartialEq for Brute {
    fn eq(&self, o: &Self) -> bool {
        let mut a = self.heaps.clone();
        let mut b = o.heaps.clone();
        a.sort();
        b.sort();
        a == b && self.last == o.last && self.mine == o.mine
    }
}
impl Eq for Brute {}
impl Hash for Brute {
    fn hash<H: Hasher>(&self, h: &mut H) {
        let mut a = self.heaps.clone();
        a.sort();
        a.hash(h);
        self.last.hash(h);
        self.mine.hash(h);
    }
}

fn judge(
    src: &str,
    cols: &[(&str, Option<i64>)],
    first: Option<bool>,
    params: &[(String, i64)],
) -> bool {
    let mut t = Table::new();
    for (n, v) in cols {
        t.push(n, Values::OptInt(vec![*v]));
    }
    if let Some(f) = first {
        t.push("first", Values::Bool(vec![f]));
    }
    for (n, v) in params {
        t.push(n, Values::Int(vec![*v]));
    }
    let e = Expr::compile_predicate(src, &t).unwrap();
    e.bind(&t).unwrap().test(0) != Some(false)
}

impl Game for Brute {
    type Move = (usize, u32);
    fn moves(&self) -> Vec<((usize, u32), Self)> {
        let r = self.rule;
        let o = |x: Option<u32>| x.map(i64::from);
        let mut out = Vec::new();
        let child = |heaps: Vec<u32>, t: u32| Brute {
            rule: r,
            heaps,
            last: Some(t),
            mine: self.last,
        };
        for (i, &n) in self.heaps.iter().enumerate() {
            for t in 1..=n {
                let cols = [
                    ("n", Some(n as i64)),
                    ("t", Some(t as i64)),
                    ("last", o(self.last)),
                    ("mine", o(self.mine)),
                ];
                if !judge(&r.mv, &cols, Some(self.last.is_none()), &r.params) {
                    continue;
                }
                let rest = n - t;
                let mut h = self.heaps.clone();
                h[i] = rest;
                out.push(((i, t), child(h.clone(), t)));
                for a in (1..=rest / 2).filter(|_| r.split) {
                    let mut s = h.clone();
                    s[i] = rest - a;
                    s.push(a);
                    out.push(((i, t), child(s, t)));
                }
            }
        }
        if let Some(b) = &r.both {
            for i in 0..self.heaps.len() {
                for j in i + 1..self.heaps.len() {
                    let (x, y) = (self.heaps[i], self.heaps[j]);
                    for t in 1..=x.min(y) {
                        let cols = [
                            ("t", Some(t as i64)),
                            ("n1", Some(x.min(y) as i64)),
                            ("n2", Some(x.max(y) as i64)),
                        ];
                        if judge(b, &cols, None, &r.params) {
                            let mut h = self.heaps.clone();
                            h[i] -= t;
                            h[j] -= t;
                            out.push(((i, t), child(h, t)));
                        }
                    }
                }
            }
        }
        out
    }
}

/// A spec for the brute force: `move:`, `both:`, `split:`, parameters.
type Spec = (
    &'static str,
    Option<&'static str>,
    bool,
    &'static [(&'static str, i64)],
);

/// Every normative spec of the issue (one and two heaps, both plays, at
/// small sizes): the family's outcomes equal the brute force's.
#[test]
fn normative_specs_agree_with_the_brute_force() {
    let specs: &[Spec] = &[
        ("is_square(t)", None, false, &[]),
        ("n % t == 0 and t < n", None, false, &[]),
        ("2 * t <= n", None, false, &[]),
        ("is_prime(t)", None, false, &[]),
        ("first ? t < n : t <= 2 * last", None, false, &[]),
        ("t <= 5 and t != mine", None, false, &[]),
        ("t <= 6 and (is_null(last) or t >= last)", None, false, &[]),
        ("t <= 2", None, true, &[]),
        ("true", Some("true"), false, &[]),
        ("t <= k and t != last", None, false, &[("k", 3)]),
        ("t <= k and t != last", None, false, &[("k", 4)]),
        // Bounds the candidates stop at (`Cond::take_bound`): through `or`,
        // `? :`, a list and a range.
        ("t < 4 or t == 6", None, true, &[]),
        ("n > 5 ? t <= 2 : t in [1, 3]", None, false, &[]),
        ("t in 2..5 and t != last", None, false, &[]),
        ("t != last", None, false, &[]),
        // No bound where null allows: a choice null when it divides by
        // zero.
        ("100 / (n - t) > 1 ? t <= 2 : t <= 3", None, false, &[]),
        ("n % (t - 3) == 0 ? t <= 2 : t <= 4", None, false, &[]),
    ];
    for &(mv, both, split, params) in specs {
        let params: Vec<(String, i64)> = params.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        let rule: &'static BruteRule = Box::leak(Box::new(BruteRule {
            mv: mv.into(),
            both: both.map(String::from),
            split,
            params: params.clone(),
        }));
        let heap_counts: &[usize] = if both.is_some() { &[2] } else { &[1, 2] };
        for &heaps in heap_counts {
            let n = if heaps == 1 { 16 } else { 7 };
            for play in [Play::Normal, Play::Misere] {
                let mut yaml = format!(
                    "move: \"{mv}\"\nheaps: {heaps}\nN: 0..{n}\nplay: {}\nsplit: {split}\n",
                    play.as_str()
                );
                if let Some(b) = both {
                    yaml.push_str(&format!("both: \"{b}\"\n"));
                }
                for (k, v) in &params {
                    yaml.push_str(&format!("{k}: {v}\n"));
                }
                let t = sweep_rows(&Rules, &yaml, "rule_positions")
                    .unwrap()
                    .unwrap();
                let mut brute = BruteOutcome::new(play);
                let mut seen = HashMap::new();
                for r in 0..t.rows() {
                    let heaps_of: Vec<u32> = if heaps == 1 {
                        vec![t.int("N", r).unwrap() as u32]
                    } else {
                        vec![
                            t.int("N1", r).unwrap() as u32,
                            t.int("N2", r).unwrap() as u32,
                        ]
                    };
                    let g = Brute {
                        rule,
                        heaps: heaps_of.clone(),
                        last: None,
                        mine: None,
                    };
                    let p = brute.is_p(&g);
                    let got = t.text("outcome", r).map(|s| s == "P");
                    assert_eq!(got, Some(p), "{mv} {yaml} at {heaps_of:?}");
                    seen.insert(heaps_of, p);
                }
                assert_eq!(seen.len(), (n as usize + 1).pow(heaps as u32), "{yaml}");
            }
        }
    }
}

/// The subtract-a-square game's P-positions (OEIS A030193, its first
/// terms) and Fibonacci nim's (the Fibonacci numbers), from the family.
#[test]
fn classic_loss_sets() {
    let losses = |yaml: &str| -> Vec<i64> {
        let t = sweep_rows(&Rules, yaml, "rule_positions").unwrap().unwrap();
        (0..t.rows())
            .filter(|&r| t.text("outcome", r) == Some("P"))
            .map(|r| t.int("N", r).unwrap())
            .collect()
    };
    assert_eq!(
        losses("move: \"is_square(t)\"\nN: 0..73\n"),
        vec![
            0, 2, 5, 7, 10, 12, 15, 17, 20, 22, 34, 39, 44, 52, 57, 62, 65, 67, 72
        ]
    );
    assert_eq!(
        losses("move: \"first ? t < n : t <= 2 * last\"\nN: 0..100\n"),
        vec![0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89]
    );
}

/// The error planning the sweep `yaml` gives (it must give one).
fn refused(yaml: &str) -> crate::params::SpecError {
    let v = crate::params::parse_yaml(yaml, "s.yaml").unwrap();
    Rules
        .plan(
            &crate::params::Node::root(&v, "s.yaml"),
            crate::family::Planning::SOLVE,
        )
        .err()
        .expect("refused")
}

/// Mistakes found when the spec is read, each naming its field.
#[test]
fn mistakes_are_refused_when_the_spec_is_read() {
    let plan = refused;
    let e = plan("move: \"t != lst\"\nN: 0..9\n");
    assert_eq!(e.field, "move");
    assert!(e.message.contains("did you mean `last`"), "{}", e.message);
    let e = plan("move: \"t + 1\"\nN: 0..9\n");
    assert_eq!(e.field, "move");
    let e = plan("move: \"t > n\"\nN: 0..9\n");
    assert!(e.message.contains("allows no move"), "{}", e.message);
    let e = plan("move: \"t <= 3\"\nplays: misere\nN: 0..9\n");
    assert_eq!(e.field, "plays");
    assert!(e.message.contains("did you mean `play`"), "{}", e.message);
}

/// Misère play of a splitting rule is not a sum of heaps: solved on the
/// whole position to 40 tokens in all (misère Kayles equal to `octal`'s own
/// search of 0.77 there), heap sizes beyond refused with a note naming `N`
/// (the sweep still runs as written), and `nimlab solve` refusing beyond.
#[test]
fn misere_splitting_rules_stop_at_forty_tokens() {
    let a = values(
        "octal",
        "code: \"0.77\"\nN: 0..40\nplay: [misere]\n",
        "nim_values",
    );
    let b = values(
        "rules",
        "move: \"t <= 2\"\nsplit: true\nN: 0..40\nplay: [misere]\n",
        "rule_positions",
    );
    assert_eq!(a.len(), 41);
    assert_eq!(a.len(), b.len());
    for (k, v) in &a {
        assert_eq!(
            v.split(' ').next(),
            b[k].split(' ').next(),
            "misère Kayles at {k}"
        );
    }
    let yaml = "move: \"t <= 2\"\nsplit: true\nheaps: [1, 2]\nN: 0..1000\nplay: [normal, misere]\n";
    let v = crate::params::parse_yaml(yaml, "s.yaml").unwrap();
    let plan = Rules
        .plan(
            &crate::params::Node::root(&v, "s.yaml"),
            crate::family::Planning::SOLVE,
        )
        .unwrap();
    let rows: Vec<u64> = plan.cases.iter().map(|c| c.cost(None).rows[0].1).collect();
    // normal 1 heap, 2 heaps; misère 1 heap (N <= 40), 2 heaps (N <= 20).
    assert_eq!(rows, vec![1001, 1001 * 1001, 41, 21 * 21]);
    let notes: Vec<String> = plan.notes.iter().map(|n| n.to_string()).collect();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes[0].starts_with("N: heap sizes above 40 refused"),
        "{notes:?}"
    );
    assert!(
        notes[1].starts_with("N: heap sizes above 20 refused"),
        "{notes:?}"
    );
    let solve = |heaps: &str| {
        let y = format!("move: \"t <= 2\"\nsplit: true\nplay: misere\nheaps: {heaps}\n");
        let v = crate::params::parse_yaml(&y, "s.yaml").unwrap();
        super::solve::solve(&crate::params::Node::root(&v, "s.yaml"))
    };
    let e = solve("[21, 20]").err().expect("refused").to_string();
    assert!(e.contains("40 tokens") && e.contains("41"), "{e}");
    let ok = solve("[20, 20]").unwrap();
    assert!(ok.text.contains("outcome:"), "{}", ok.text);
}

/// A field the family does not know names a parameter of the grid: a
/// dimension, a column and a name in the condition. Take 1..limit loses
/// exactly on the multiples of limit + 1 (the subtraction game, by hand).
#[test]
fn any_free_name_is_a_parameter_of_the_grid() {
    let t = sweep_rows(
        &Rules,
        "move: \"t <= limit\"\nlimit: [2, 3]\nN: 0..12\n",
        "rule_positions",
    )
    .unwrap()
    .unwrap();
    assert_eq!(t.rows(), 26);
    for r in 0..t.rows() {
        let Some(crate::data::Cell::Int(limit)) = t.cell("limit", r) else {
            panic!("row {r}: no limit");
        };
        let Some(crate::data::Cell::Int(n)) = t.cell("N", r) else {
            panic!("row {r}: no N");
        };
        let lost = n % (limit + 1) == 0;
        assert_eq!(
            t.cell("outcome", r),
            Some(crate::data::Cell::Str(if lost { "P" } else { "N" })),
            "limit {limit} N {n}"
        );
    }
}

/// A parameter's name is refused where it cannot be one, each time naming
/// the field: a misspelt field, a name the condition reads, a function, a
/// word of the language, a column of the datasets.
#[test]
fn a_parameter_name_that_cannot_be_one_is_refused() {
    let plan = refused;
    for (field, says) in [
        ("moves", "did you mean `move`"),
        ("heap", "did you mean `heaps`"),
        ("n", "the condition's own"),
        ("last", "the condition's own"),
        ("is_prime", "not a field"),
        ("and", "not a field"),
        ("rule", "a column"),
        ("outcome", "a column"),
        ("N2", "a column"),
    ] {
        let e = plan(&format!("move: \"t <= 3\"\nN: 0..9\n{field}: 2\n"));
        assert_eq!(e.field, field);
        assert!(e.message.contains(says), "{field}: {}", e.message);
    }
}

/// The model's size of a case counts the moves tried: a take set's grow
/// with the heaps, a split's also with the ways to cut what is left in two
/// (about n/2 per take), so 4× the heaps is about 16× the work.
#[test]
fn a_splitting_rules_size_counts_its_cuts() {
    let size = |extra: &str, n: u32| {
        let yaml = format!("move: \"t <= 2\"\n{extra}N: {n}\n");
        let v = crate::params::parse_yaml(&yaml, "s.yaml").unwrap();
        let node = crate::params::Node::root(&v, "s.yaml");
        let plan = Rules.plan(&node, crate::family::Planning::SOLVE).unwrap();
        plan.cases[0].cost(None).size as f64
    };
    let split = size("split: true\n", 4000) / size("split: true\n", 1000);
    let takes = size("", 4000) / size("", 1000);
    assert!((15.0..17.0).contains(&split), "{split}");
    assert!((3.5..4.5).contains(&takes), "{takes}");
    // Every take and cut of heaps to 2^24 - 1: beyond 2^64, held there.
    let yaml = "move: \"t >= 1\"\nsplit: true\nN: [16777215]\n";
    let v = crate::params::parse_yaml(yaml, "s.yaml").unwrap();
    let node = crate::params::Node::root(&v, "s.yaml");
    let plan = Rules.plan(&node, crate::family::Planning::SOLVE).unwrap();
    assert_eq!(plan.cases[0].cost(None).size, u64::MAX);
}

/// The joint-state solver's states, as the plan counts them for its
/// memory and its work, against the states a solve of every heap size
/// reaches: within
/// a fifth below and half again above (the history's pairs the takes can
/// reach are counted, or measured on small heaps where the takes have no
/// bound: which of them the game reaches is not known before).
#[test]
fn the_joint_states_counted_bound_those_reached() {
    for (cond, n) in [
        ("first ? t < n : t <= 2 * last", 300u32),
        ("t <= 6 and t != mine", 3000),
        ("t <= 9 and abs(t - last) != 1", 2000),
        ("first ? t <= 3 : t <= last + 1", 1500),
        ("t != mine", 150),
    ] {
        let yaml = format!("move: \"{cond}\"\nN: 0..{n}\n");
        let v = crate::params::parse_yaml(&yaml, "s.yaml").unwrap();
        let node = crate::params::Node::root(&v, "s.yaml");
        let f = super::params::fields(&node).unwrap();
        let rule = super::params::rules(&f, &node, n).unwrap().remove(0);
        let case = super::cases::RulesCase {
            rule: rule.clone(),
            heaps: 1,
            sizes: (0..=n).collect(),
            horizon: n as usize,
            probe: Default::default(),
        };
        let mut joint = super::solver::Joint::new(&rule);
        // As the solve does: each heap size's outcome, then its winning
        // moves (every move tried).
        for h in 0..=n {
            if !joint.loses(&[h], Default::default()) {
                joint.winning_moves(&[h]);
            }
        }
        let reached = joint.states() as f64;
        let counted = case.joint_states();
        let ratio = counted as f64 / reached;
        assert!(
            (0.8..=1.5).contains(&ratio),
            "{cond}: {counted} for {reached}"
        );
        // The work: those states, each trying at most every take (counted
        // as every state the history allows, `first ? t <= 3 : t <= last +
        // 1` was 500 times this; its dry run said 16 s for 0.8 s).
        let size = crate::family::Case::cost(&case, None).size as f64;
        let most = 1.5 * reached * f64::from(n + 1);
        assert!(
            (0.8 * reached..=most).contains(&size),
            "{cond}: size {size} for {reached} states"
        );
    }
}

/// A splitting rule searched on the whole position counts its sequence's
/// horizon in the tokens it may reach: a horizon past the search's 40
/// tokens is refused when the spec is read (it was planned, then never
/// finished).
#[test]
fn a_splitting_rules_horizon_is_within_the_search() {
    let e = refused("move: \"t <= last + 1\"\nsplit: true\nN: 0..20\nhorizon: 200\n");
    assert_eq!(e.field, "N");
    assert!(e.message.contains("reaches 200"), "{e}");
}
