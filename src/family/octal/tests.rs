//! The octal family against independent evidence: published sequences
//! (OEIS), the game tree searched with no nim-sum (`brute.rs`), the
//! take-away and lines families through their own hooks, and the kernels
//! against each other.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use super::brute::Heaps;
use super::code::Code;
use super::kernel::{self, Kernel};
use super::misere::{self, Misere};
use super::periods;
use super::sequence::{self, Horizon};
use crate::data::{Cell, Table};
use crate::family;
use crate::family::watch::UNWATCHED;
use crate::game::{BruteGrundy, BruteOutcome, Game, Play};
use crate::params::{self, Node};

static NO: AtomicBool = AtomicBool::new(false);

fn code(s: &str) -> Code {
    Code::parse(s).unwrap()
}

fn naive(s: &str, n: usize) -> Vec<u32> {
    kernel::naive(&code(s), n, &NO).unwrap()
}

/// OEIS A002186 (Kayles, .77), n = 0..104, as listed there.
const A002186: &[u32] = &[
    0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2,
    1, 8, 6, 7, 4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 4, 2, 7, 4, 1, 2, 8,
    1, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7,
    4, 1, 2, 8, 1, 4, 7, 2, 1,
];

/// OEIS A002187 (Dawson's chess, .137), n = 0..131; .07 has the values a(n − 1).
const A002187: &[u32] = &[
    0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2,
    7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4,
    5, 3, 7, 4, 8, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 9, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1,
    0, 4, 5, 3, 7, 4, 8, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 9, 3, 3, 0, 1, 1, 3, 0, 2,
    1, 1, 0, 4,
];

/// OEIS A071074 (Double Kayles, .7777), n = 0..89.
const A071074: &[u32] = &[
    0, 1, 2, 3, 4, 5, 6, 7, 3, 2, 8, 9, 7, 6, 5, 4, 3, 2, 8, 9, 4, 5, 12, 13, 9, 8, 2, 3, 4, 5, 15,
    14, 3, 2, 8, 9, 7, 6, 5, 4, 3, 2, 8, 9, 13, 12, 15, 14, 9, 8, 2, 3, 4, 5, 16, 17, 10, 11, 8, 9,
    14, 15, 5, 4, 3, 2, 16, 17, 13, 12, 15, 14, 9, 8, 2, 3, 4, 5, 6, 7, 3, 2, 8, 9, 14, 15, 5, 4,
    3, 2,
];

fn proven(s: &str) -> (usize, usize, Vec<u32>) {
    let h = Horizon {
        naive: 4096,
        sparse: 4096,
    };
    let seq = sequence::compute(&code(s), h, &NO).unwrap();
    let p = seq.period.expect("a proven period");
    assert_eq!(p.status, crate::period::Status::Proven);
    let g = (0..seq.values.len()).map(|n| seq.values.get(n)).collect();
    (p.period, p.preperiod, g)
}

#[test]
fn kayles_is_oeis_a002186_with_period_12_from_71() {
    let (p, e, g) = proven("0.77");
    assert_eq!(&g[..A002186.len()], A002186);
    // OEIS: periodic with period 12 from n = 71, last exception n = 70.
    assert_eq!((p, e), (12, 71));
    assert_ne!(g[70], g[82]);
    assert!(periods::window_holds(&g, 2, 12, 71));
    // ".771" has the same values (OEIS).
    assert_eq!(&naive("0.771", 104)[..], A002186);
}

#[test]
fn dawsons_chess_is_oeis_a002187_and_dawsons_kayles_is_it_shifted() {
    let (p, e, g137) = proven("0.137");
    assert_eq!(&g137[..A002187.len()], A002187);
    // OEIS: period 34, last exception at n = 51 for .137; .07 is shifted by one.
    assert_eq!((p, e), (34, 52));
    let (p, e, g07) = proven("0.07");
    assert_eq!((p, e), (34, 53));
    assert_eq!(g07[0], 0);
    for (n, &v) in A002187.iter().enumerate() {
        assert_eq!(g07[n + 1], v, "n = {n}");
    }
}

#[test]
fn double_kayles_is_oeis_a071074_with_period_24() {
    let (p, e, g) = proven("0.7777");
    assert_eq!(&g[..A071074.len()], A071074);
    // OEIS: period 24, last exception at n = 141.
    assert_eq!((p, e), (24, 142));
}

#[test]
fn the_theorem_needs_its_whole_window() {
    // Kayles needs G up to 2e + 2p + t − 1 = 167: to 166, no proof yet.
    let g = naive("0.77", 166);
    assert_eq!(periods::proven(&g, 2), None);
    let g = naive("0.77", 167);
    assert_eq!(
        periods::proven(&g, 2).map(|p| (p.period, p.preperiod)),
        Some((12, 71))
    );
    // A period that only holds on part of the window is refused.
    let mut fake: Vec<u32> = (0..200).map(|n| (n % 5) as u32).collect();
    fake[150] = 9;
    assert!(periods::window_holds(&fake, 3, 5, 0));
    assert!(!periods::window_holds(&fake, 3, 5, 70));
    assert_eq!(periods::proven(&fake, 3), None);
}

/// A small deterministic generator (xorshift), shared with `hex_tests`.
pub(super) struct Rng(pub(super) u64);
impl Rng {
    pub(super) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn code(&mut self, max_digits: usize) -> Code {
        loop {
            let k = 1 + (self.next() % max_digits as u64) as usize;
            let d0 = if self.next().is_multiple_of(6) { 4 } else { 0 };
            let mut d = vec![d0];
            d.extend((0..k).map(|_| (self.next() % 8) as u8));
            if let Ok(c) = Code::from_digits(&d) {
                return c;
            }
        }
    }
}

#[test]
fn the_kernel_equals_the_game_tree_on_100_random_codes() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..100 {
        let c = rng.code(4);
        // Splitting codes: positions are multisets of heaps; the brute force
        // searches them (no nim-sum) to n = 22; others are one heap, to 200.
        let n_max = if c.splits() { 22 } else { 200 };
        let g = kernel::naive(&c, n_max, &NO).unwrap();
        let mut brute = BruteGrundy::default();
        for n in 0..=n_max as u64 {
            assert_eq!(
                g[n as usize],
                brute.grundy(&Heaps::one(&c, n)),
                "{} n = {n}",
                c.text()
            );
        }
        let m_max = if c.splits() { 16 } else { 200 };
        let p = misere::one_heap(&c, m_max).unwrap();
        let mut bm = BruteOutcome::new(Play::Misere);
        for n in 0..=m_max {
            assert_eq!(
                p[n as usize],
                bm.is_p(&Heaps::one(&c, n)),
                "{} misère n = {n}",
                c.text()
            );
        }
    }
}

/// Normal play by the definition, one heap at a time: G(n) is the mex of
/// the values of every move of the rule's digits (removing i leaves
/// nothing, one heap of n − i, or two heaps a + b = n − i whose value is
/// G(a) XOR G(b), the Sprague–Grundy sum), memoised by n. No kernel code.
fn grundy_by_definition(c: &Code, n_max: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(n_max + 1);
    for n in 0..=n_max {
        // The mex is at most the number of options.
        let mut seen = vec![false; (n + 1) * (n / 2 + 2) + 1];
        let mut see = |v: u32| {
            if (v as usize) < seen.len() {
                seen[v as usize] = true;
            }
        };
        for i in 0..=n {
            let d = c.digit(i);
            let r = n - i;
            if i > 0 && d & 1 != 0 && r == 0 {
                see(0);
            }
            if i > 0 && d & 2 != 0 && r > 0 {
                see(g[r]);
            }
            if d & 4 != 0 {
                for a in 1..r {
                    if a <= r - a {
                        see(g[a] ^ g[r - a]);
                    }
                }
            }
        }
        g.push(seen.iter().position(|&x| !x).unwrap() as u32);
    }
    g
}

#[test]
fn the_kernel_equals_the_definition_to_200_on_100_random_codes() {
    // Splitting codes included (the game tree above reaches 22 for them).
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut splitting = 0;
    for _ in 0..100 {
        let c = rng.code(4);
        splitting += usize::from(c.splits());
        let g = kernel::naive(&c, 200, &NO).unwrap();
        assert_eq!(g, grundy_by_definition(&c, 200), "{}", c.text());
    }
    assert!(splitting >= 30, "only {splitting} splitting codes");
    // Kayles by hand: 0 1 2 3 1 4 3 2 1 4 2 6 (OEIS A002186).
    assert_eq!(
        grundy_by_definition(&code("0.77"), 11),
        [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
    );
}

#[test]
fn misere_positions_of_several_heaps_equal_the_game_tree() {
    let mut rng = Rng(12345);
    for _ in 0..30 {
        let c = rng.code(3);
        let mut m = Misere::new(&c);
        let mut bm = BruteOutcome::new(Play::Misere);
        for a in 0..7u64 {
            for b in a..7 {
                let pos = Heaps {
                    code: c.clone(),
                    heaps: [a, b].into_iter().filter(|&x| x > 0).collect(),
                };
                assert_eq!(m.is_p(&[a, b]), bm.is_p(&pos), "{} ({a}, {b})", c.text());
            }
        }
    }
    // Misère Kayles, by hand: 1 is P (the mover must take the last pin), 2
    // and 3 are N (take all but one), 4 is P.
    let p = misere::one_heap(&code("0.77"), 4).unwrap();
    assert_eq!(p, [false, true, false, false, true]);
}

#[test]
fn the_sparse_kernel_equals_the_naive_one_for_any_mask() {
    let mut rng = Rng(777);
    for k in 0..60 {
        let c = rng.code(3);
        let g = kernel::naive(&c, 1500, &NO).unwrap();
        let mask = match k % 3 {
            0 => kernel::best_mask(&g[..500]).0,
            1 => 1,
            _ => 1 + (rng.next() % 63) as u32,
        };
        let s = kernel::sparse(&c, 1500, mask, &NO).unwrap();
        let s: Vec<u32> = s.into_iter().map(u32::from).collect();
        assert_eq!(s, g, "{} mask {mask}", c.text());
    }
    // 0.16 has a sparse space: the kernel picks it.
    let h = Horizon {
        naive: 3000,
        sparse: 20000,
    };
    let seq = sequence::compute(&code("0.16"), h, &NO).unwrap();
    assert!(matches!(seq.kernel, Kernel::Sparse(_)), "{:?}", seq.kernel);
    let g = kernel::naive(&code("0.16"), 6000, &NO).unwrap();
    for (n, &v) in g.iter().enumerate() {
        assert_eq!(seq.values.get(n), v, "0.16 n = {n}");
    }
}

#[test]
fn the_sparse_kernel_with_many_splitting_takes_equals_the_naive_one() {
    // Up to four splitting takes are marked in one pass over the rare
    // positions, more take by take; mask 1 leaves many rare values missing
    // (the first parts' values marked), the best mask few (compared).
    for (s, takes) in [("0.0404", 2), ("0.4444", 4), ("0.44444", 5), ("4.66666", 6)] {
        let c = code(s);
        assert_eq!(c.split_takes().len(), takes, "{s}");
        let g = kernel::naive(&c, 1500, &NO).unwrap();
        for mask in [1, 2, 3, 7, kernel::best_mask(&g[..500]).0] {
            let v = kernel::sparse(&c, 1500, mask, &NO).unwrap();
            let v: Vec<u32> = v.into_iter().map(u32::from).collect();
            assert_eq!(v, g, "{s} mask {mask}");
        }
    }
}

/// Every row of `dataset` from a family's own sweep code.
fn sweep(family: &str, yaml: &str, dataset: &str) -> Table {
    family::sweep_rows(family::by_name(family).unwrap(), yaml, dataset)
        .unwrap()
        .unwrap()
}

fn int(t: &Table, col: &str, i: usize) -> i64 {
    match t.cell(col, i) {
        Some(Cell::Int(x)) => x,
        c => panic!("{col}[{i}]: {c:?}"),
    }
}

fn text(t: &Table, col: &str, i: usize) -> String {
    match t.cell(col, i) {
        Some(Cell::Str(s)) => s.to_string(),
        c => panic!("{col}[{i}]: {c:?}"),
    }
}

#[test]
fn takeaway_with_take_set_s_is_the_code_with_3_at_s_for_200_sets() {
    let mut rng = Rng(2024);
    let mut sets: Vec<Vec<u32>> = Vec::new();
    while sets.len() < 200 {
        let bits = rng.next() % (1 << 10);
        let s: Vec<u32> = (1..=10).filter(|i| bits & (1 << (i - 1)) != 0).collect();
        if !s.is_empty() && !sets.contains(&s) {
            sets.push(s);
        }
    }
    let yaml = format!("family: takeaway\ntake: {{set: {sets:?}}}\nN: 0..120\n");
    let t = sweep("takeaway", &yaml, "positions");
    let mut by_take: HashMap<String, Vec<(i64, i64)>> = HashMap::new();
    for i in 0..t.rows() {
        by_take
            .entry(text(&t, "take", i))
            .or_default()
            .push((int(&t, "N", i), int(&t, "grundy", i)));
    }
    for s in &sets {
        let mut d = vec![0u8; 11];
        for &x in s {
            d[x as usize] = 3;
        }
        let c = Code::from_digits(&d).unwrap();
        let g = kernel::naive(&c, 120, &NO).unwrap();
        let label = format!(
            "set:{}",
            s.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(",")
        );
        let rows = &by_take[&label];
        assert_eq!(rows.len(), 121, "{label}");
        for &(n, v) in rows {
            assert_eq!(g[n as usize] as i64, v, "{label} = {} at N = {n}", c.text());
        }
    }
}

#[test]
fn lines_on_one_row_is_kayles_and_0_777() {
    let lines = family::by_name("lines").unwrap();
    for (take, c) in [("max:2", "0.77"), ("max:3", "0.777")] {
        let g = naive(c, 60);
        for (n, &want) in g.iter().enumerate().skip(1) {
            let v = serde_json::json!({"mask": "O".repeat(n), "take": take});
            let a = lines
                .solve(&Node::root(&v, params::COMMAND_LINE), UNWATCHED)
                .unwrap();
            assert_eq!(
                a.json["grundy"].as_u64(),
                Some(want as u64),
                "{c}: a row of {n}"
            );
        }
    }
}

#[test]
fn codes_are_validated_with_what_is_allowed() {
    for (bad, says) in [
        ("0.7G", "not a digit 0..7 (octal) or 8..F"),
        ("1.07", "d0 = 1 is not allowed"),
        ("2.7", "d0 = 2 is not allowed"),
        ("0.", "empty code"),
        ("0.000", "empty code"),
        ("77", "no point"),
        ("", "no point"),
    ] {
        let e = Code::parse(bad).unwrap_err();
        assert!(e.contains(says), "{bad}: {e}");
    }
    assert_eq!(code("0.770").text(), "0.77");
    assert_eq!(code(".07").text(), "0.07");
    assert_eq!(code("4.07").split_takes(), vec![0, 2]);
    let (all, empty) = super::code::expand("0.???").unwrap();
    assert_eq!((all.len(), empty), (511, 1));
}

/// A sweep asking only for datasets its heap counts do not write would
/// solve every position and store nothing: the dataset is named instead.
#[test]
fn a_dataset_the_heaps_do_not_write_is_named() {
    let f = family::by_name("octal").unwrap();
    let plan = |yaml: &str| {
        let v = params::parse_yaml(yaml, "x.yaml").unwrap();
        f.plan(&Node::root(&v, "x.yaml"), crate::family::Planning::SOLVE)
            .err()
            .map(|e| e.to_string())
    };
    let e = plan("code: '0.77'\nheaps: 2\nN: 0..10\ndatasets: [nim_values]\n").unwrap();
    assert!(
        e.starts_with("x.yaml: field `datasets[0]`: this sweep does not write the `nim_values`")
            && e.ends_with("its datasets: positions"),
        "{e}"
    );
    let e = plan("code: '0.77'\nN: 0..10\ndatasets: [periods, positions]\n").unwrap();
    assert!(
        e.contains("`datasets[1]`") && e.contains("`positions`"),
        "{e}"
    );
    // Each dataset written by one of the heap counts; a name the family
    // does not declare is left to `datasets:`'s own check.
    assert_eq!(
        plan("code: '0.77'\nheaps: [1, 2]\nN: 0..10\ndatasets: [periods, positions]\n"),
        None
    );
    assert_eq!(
        plan("code: '0.77'\nN: 0..10\ndatasets: [nim_valeus]\n"),
        None
    );
}

#[test]
fn a_spec_mistake_names_the_field() {
    let f = family::by_name("octal").unwrap();
    let v = params::parse_yaml(
        "family: octal\ncode: ['0.77', '0.G7']\nN: 0..10\n",
        "x.yaml",
    )
    .unwrap();
    let e = f
        .plan(&Node::root(&v, "x.yaml"), crate::family::Planning::SOLVE)
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.starts_with("x.yaml: field `code[1]`: \"0.G7\": 'G'"),
        "{e}"
    );
    let v = params::parse_yaml(
        "family: octal\ncode: '0.77'\nplay: misere\nN: 0..50\n",
        "x.yaml",
    )
    .unwrap();
    let e = f
        .plan(&Node::root(&v, "x.yaml"), crate::family::Planning::SOLVE)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("field `N`") && e.contains("N up to 40"), "{e}");
}

#[test]
fn winning_moves_lead_to_p_positions_by_solve() {
    let f = family::by_name("octal").unwrap();
    for (heaps, rule) in [
        (vec![5u64, 7], "0.77"),
        (vec![9], "0.07"),
        (vec![4, 6], "0.77 misere"),
        (vec![30, 41, 3], "4.07"),
    ] {
        let v = serde_json::json!({"heaps": heaps, "rule": rule});
        let a = f
            .solve(&Node::root(&v, params::COMMAND_LINE), UNWATCHED)
            .unwrap();
        for m in a.json["winning_moves"].as_array().unwrap() {
            let v = serde_json::json!({"heaps": m["to"]["heaps"], "rule": rule});
            let b = f
                .solve(&Node::root(&v, params::COMMAND_LINE), UNWATCHED)
                .unwrap();
            assert_eq!(b.json["outcome"], "P", "{rule} {heaps:?} → {}", m["to"]);
        }
    }
    // Kayles 5 + 7: G = 4 ⊕ 2 = 6, an N-position.
    let v = serde_json::json!({"heaps": [5, 7], "code": "0.77"});
    let a = f
        .solve(&Node::root(&v, params::COMMAND_LINE), UNWATCHED)
        .unwrap();
    assert_eq!(
        (a.json["outcome"].as_str(), a.json["grundy"].as_u64()),
        (Some("N"), Some(6))
    );
}

/// `--moves first` lists the first of `--moves all`'s list, `--moves none`
/// none, with the same outcome and value; `--prove false` computes the
/// sequence to the heap (method `sequence`) and finds the value the proven
/// period gives.
#[test]
fn solve_lists_the_moves_asked_and_proves_only_when_asked() {
    let f = family::by_name("octal").unwrap();
    let ask = |v: serde_json::Value| {
        f.solve(&Node::root(&v, params::COMMAND_LINE), UNWATCHED)
            .unwrap()
            .json
    };
    for (heaps, rule) in [
        (vec![5u64, 7], "0.77"),
        (vec![30, 41, 3], "4.07"),
        (vec![4, 6], "0.77 misere"),
        (vec![4, 4], "0.77"),
    ] {
        let all = ask(serde_json::json!({"heaps": heaps, "rule": rule}));
        let moves = all["winning_moves"].as_array().unwrap();
        assert_eq!(all["details"]["moves"], "all");
        for (word, want) in [("first", moves.len().min(1)), ("none", 0)] {
            let a = ask(serde_json::json!({"heaps": heaps, "rule": rule, "moves": word}));
            assert_eq!(
                (&a["outcome"], &a["grundy"]),
                (&all["outcome"], &all["grundy"])
            );
            assert_eq!(a["details"]["moves"], word);
            let listed = a["winning_moves"].as_array().unwrap();
            assert_eq!(listed[..], moves[..want], "{rule} {heaps:?} --moves {word}");
        }
    }
    let v = serde_json::json!({"heaps": [5], "code": "0.77", "moves": "some"});
    let e = f
        .solve(&Node::root(&v, params::COMMAND_LINE), UNWATCHED)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("`all`, `first`, `none`"), "{e}");
    // Dawson's chess: period 34 proven long before 3000.
    for prove in [true, false] {
        let a = ask(serde_json::json!({"heaps": [2999, 3000], "code": "0.137", "prove": prove}));
        let proven = ask(serde_json::json!({"heaps": [2999, 3000], "code": "0.137"}));
        assert_eq!(a["grundy"], proven["grundy"]);
        assert_eq!(a["winning_moves"], proven["winning_moves"]);
        assert_eq!(a["method"], if prove { "period" } else { "sequence" });
    }
}

#[test]
fn the_game_against_the_computer_plays_the_code() {
    use crate::play::Player;
    let f = family::by_name("octal").unwrap();
    let v = serde_json::json!({"heaps": [5, 7], "code": "0.77"});
    let mut g = f.play(&Node::root(&v, params::COMMAND_LINE)).unwrap();
    g.start(Player::Person);
    assert!(g.parse_move("A2:1+2").is_ok());
    assert!(
        g.parse_move("A3")
            .unwrap_err()
            .contains("not a move of code 0.77")
    );
    assert!(g.parse_move("C1").unwrap_err().contains("no heap C"));
    // Kayles 5 + 7 (values 4 and 2) is N: each winning move leaves a P-position,
    // as `solve` (a separate path) judges it.
    let wins = g.winning_moves();
    assert!(!wins.is_empty());
    for m in wins {
        let effect = g.effect(m);
        let heaps: Vec<u64> = effect
            .split(" → ")
            .nth(1)
            .unwrap()
            .split(' ')
            .filter_map(|x| x.parse().ok())
            .collect();
        let v = serde_json::json!({"heaps": heaps, "code": "0.77"});
        let a = f
            .solve(&Node::root(&v, params::COMMAND_LINE), UNWATCHED)
            .unwrap();
        assert_eq!(a.json["outcome"], "P", "{} ({effect})", g.move_name(m));
        g.play(m);
        assert!(g.why().unwrap().contains("safe position (P)"));
        g.undo();
    }
    assert!(g.html().is_ok());
}

/// The misère page of Kayles 5 + 7 holds, as P, exactly the positions the
/// game tree finds P, among every position the game reaches (found by the
/// game tree's moves, not the solver's).
#[test]
fn the_misere_page_holds_the_p_positions_of_the_game_tree() {
    use std::collections::HashSet;
    let f = family::by_name("octal").unwrap();
    let v = serde_json::json!({"heaps": [5, 7], "rule": "0.77 misere"});
    let g = f.play(&Node::root(&v, params::COMMAND_LINE)).unwrap();
    let page = g.html().unwrap().data;
    assert_eq!(page["misere"], true);
    let held: HashSet<String> = page["p_positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap().to_string())
        .collect();
    let c = code("0.77");
    let mut bm = BruteOutcome::new(Play::Misere);
    let start = Heaps {
        code: c.clone(),
        heaps: vec![5, 7],
    };
    let mut seen = HashSet::from([start.heaps.clone()]);
    let mut todo = vec![start];
    let mut p = 0;
    while let Some(pos) = todo.pop() {
        let key: Vec<String> = pos.heaps.iter().map(|h| h.to_string()).collect();
        let is_p = bm.is_p(&pos);
        p += is_p as usize;
        assert_eq!(held.contains(&key.join(",")), is_p, "{key:?}");
        for (_, next) in pos.moves() {
            if seen.insert(next.heaps.clone()) {
                todo.push(next);
            }
        }
    }
    assert_eq!(held.len(), p, "the page holds only reachable positions");
    // 5 + 7 is N in misère Kayles: the computer moving first wins it.
    assert!(!held.contains("5,7"));
    // Too many positions for a page (four heaps of 40 under 0.333, which
    // never splits: C(44, 4) = 135751 multisets): refused with the count.
    let v = serde_json::json!({"heaps": [40, 40, 40, 40], "rule": "0.333 misere"});
    let g = f.play(&Node::root(&v, params::COMMAND_LINE)).unwrap();
    let refused = g.html().err().expect("a page of too many positions");
    assert!(refused.to_string().contains("at most 50000"), "{refused}");
}

/// OEIS A071430 (0.16), n = 1..102, as listed there.
const A071430: &[u32] = &[
    1, 0, 0, 1, 2, 2, 1, 4, 0, 1, 4, 2, 1, 4, 0, 1, 4, 2, 1, 4, 2, 1, 0, 2, 1, 4, 2, 1, 4, 5, 1, 4,
    2, 1, 4, 2, 1, 4, 2, 3, 4, 2, 3, 4, 2, 3, 4, 2, 3, 4, 2, 3, 4, 2, 1, 4, 2, 3, 3, 2, 5, 4, 2, 5,
    4, 2, 3, 1, 2, 5, 4, 2, 3, 4, 2, 5, 4, 2, 3, 3, 2, 5, 4, 2, 5, 3, 2, 5, 3, 2, 1, 4, 2, 5, 3, 2,
    5, 4, 2, 5, 3, 2,
];

#[test]
fn sparse_0_16_finds_the_period_of_gangolli_and_plambeck() {
    // OEIS A071430: period 149459, last exception at n = 105350; the theorem
    // needs values to 2e + 2p + t − 1 = 509621, which the stages reach at 524288.
    let h = Horizon {
        naive: 2048,
        sparse: 1 << 20,
    };
    let seq = sequence::compute(&code("0.16"), h, &NO).unwrap();
    assert!(matches!(seq.kernel, Kernel::Sparse(_)), "{:?}", seq.kernel);
    for (k, &v) in A071430.iter().enumerate() {
        assert_eq!(seq.values.get(k + 1), v, "n = {}", k + 1);
    }
    let p = seq.period.expect("proven");
    assert_eq!((p.period, p.preperiod), (149_459, 105_351));
    assert_eq!(seq.values.len(), 524_289);
}

/// The naive kernel's moves counted one by one, as its loops examine them
/// (a take of `i ≤ n` per size, then each split `a + b = n − i`, `1 ≤ a ≤ b`),
/// against the closed form the cost model prices.
#[test]
fn naive_work_counts_the_moves_the_kernel_examines() {
    for text in ["0.77", "0.137", "4.07", "0.16", "0.33", "0.1", "4.7"] {
        let c = Code::parse(text).unwrap();
        for n_max in [0, 1, 2, 3, 5, 17, 100] {
            let mut count = 0u64;
            for n in 0..=n_max {
                count += (1..c.digits().len()).filter(|&i| i <= n).count() as u64;
                for i in c.split_takes() {
                    if n >= i + 2 {
                        count += ((n - i) / 2) as u64;
                    }
                }
            }
            assert_eq!(kernel::naive_work(&c, n_max), count, "{text} to {n_max}");
        }
    }
    // By hand: 0.77 to n = 5: takes 0+1+2+2+2+2 = 9; splits after taking 1
    // (n = 3, 4, 5: 1 + 1 + 2) and after taking 2 (n = 4, 5: 1 + 1): 15.
    assert_eq!(kernel::naive_work(&Code::parse("0.77").unwrap(), 5), 15);
}

#[test]
fn the_adaptive_kernel_equals_the_naive_one_on_random_codes() {
    let mut rng = Rng(0x51ed_2701);
    let mut rebuilds = 0;
    let mut checked = 0;
    let mut tested = 0;
    while tested < 80 {
        let c = rng.code(4);
        if !c.splits() {
            continue;
        }
        tested += 1;
        let g = kernel::naive(&c, 2000, &NO).unwrap();
        if g.iter().any(|&v| v > u16::MAX as u32) {
            continue;
        }
        // Started from a few values or from a longer prefix.
        let start = [1, 40, 300][tested % 3];
        let mut a: Vec<u16> = g[..start].iter().map(|&v| v as u16).collect();
        let mut work = super::adaptive::AdaptiveWork::default();
        super::adaptive::extend(&c, &mut a, 2000, &mut work, &NO).unwrap();
        let a: Vec<u32> = a.into_iter().map(u32::from).collect();
        assert_eq!(a, g, "{} from {start}", c.text());
        rebuilds += work.rebuilds;
        checked += work.check_splits;
    }
    // Both of its paths ran: rebuilds of the split and checks of rare candidates.
    assert!(rebuilds > 0 && checked > 0, "{rebuilds} {checked}");
}

#[test]
fn the_adaptive_kernel_on_0_6_and_in_the_stages() {
    // 0.6 has no fixed sparse space: the adaptive kernel rebuilds its split
    // and gives the naive kernel's values.
    let g = naive("0.6", 9000);
    let mut a = vec![0u16];
    let mut work = super::adaptive::AdaptiveWork::default();
    super::adaptive::extend(&code("0.6"), &mut a, 9000, &mut work, &NO).unwrap();
    assert!(work.rebuilds > 0, "{work:?}");
    let a: Vec<u32> = a.into_iter().map(u32::from).collect();
    assert_eq!(a, g);
    // Through the stages (adaptive, or the naive kernel taking over): the
    // same values, to the naive horizon.
    for c in ["0.6", "0.566", "0.626", "0.042"] {
        let h = Horizon {
            naive: 9000,
            sparse: 9000,
        };
        let seq = sequence::compute(&code(c), h, &NO).unwrap();
        let g = naive(c, 9000);
        assert_eq!(seq.values.len(), g.len(), "{c}");
        for (n, &v) in g.iter().enumerate() {
            assert_eq!(seq.values.get(n), v, "{c} n = {n}");
        }
    }
}

/// The winning moves a case of several heaps counts while planning are
/// those its rows list: 40 random codes, two and three heaps, on random
/// heap sizes.
#[test]
fn the_counted_winning_moves_are_those_the_rows_list() {
    use crate::data::Values;
    use crate::family::{Case, CaseCtx};
    let mut rng = Rng(0x5851_f42d_4c95_7f2d);
    // Then codes leaving three heaps (hexadecimal digits), Grundy's game,
    // and heap sizes given twice.
    let fixed = ["0.8", "0.F", "0.B7", "4!.0"];
    for k in 0..40 + 2 * fixed.len() {
        let c = match k.checked_sub(40) {
            Some(i) => code(fixed[i / 2]),
            None => rng.code(4),
        };
        let heaps = 2 + k % 2;
        let n_max = if heaps == 2 { 40 } else { 14 };
        let mut ns: Vec<u64> = (0..=n_max)
            .filter(|_| !rng.next().is_multiple_of(3))
            .collect();
        if k >= 40 {
            ns.extend([3, 3, n_max]);
        }
        let case = super::cases::OctalCase {
            code: c.clone(),
            play: Play::Normal,
            heaps,
            ns,
            horizon: Horizon {
                naive: 64,
                sparse: 64,
            },
            items: std::sync::OnceLock::new(),
        };
        let ctx = CaseCtx {
            progress: &|_| {},
            cancel: &NO,
            keep: None,
        };
        let out = case.solve(&ctx).unwrap();
        let listed = match out[0].1.column("winning_splits") {
            Some(Values::StructList(m)) => *m.offsets().last().unwrap() as u64,
            v => panic!("{v:?}"),
        };
        assert_eq!(
            case.winning_items(),
            Some(listed),
            "{} heaps={heaps}",
            c.text()
        );
    }
}

/// The cost of a one-heap case of code `c` to horizon `h` (both kernels').
fn one_heap_cost(c: &str, play: Play, h: usize) -> crate::family::Cost {
    let case = super::cases::OctalCase {
        code: code(c),
        play,
        heaps: 1,
        ns: vec![0, 10],
        horizon: Horizon {
            naive: h,
            sparse: h,
        },
        items: std::sync::OnceLock::new(),
    };
    crate::family::Case::cost(&case, None)
}

/// A lone case's kernels share its heap sizes among threads in blocks
/// from 8,192 on: normal play to a horizon of 32,768 or more spreads, a
/// short sequence, misère play and a code leaving three heaps (its kernel
/// on one thread) do not.
#[test]
fn long_sequences_spread_when_alone() {
    let spreads = |c: &str, play: Play, h: usize| one_heap_cost(c, play, h).splits_alone;
    assert!(spreads("0.6", Play::Normal, 200_000));
    assert!(spreads("0.6", Play::Normal, 32_768));
    assert!(!spreads("0.6", Play::Normal, 20_000));
    assert!(!spreads("0.6", Play::Misere, 200_000));
    assert!(!spreads("0.F", Play::Normal, 200_000));
    // The sparse kernel shares heap sizes only with many splits with a
    // rare part per heap size: Grundy's game (360 rare positions in the
    // first 2049 values, one splitting take) does, 0.454 (16, three) not.
    assert!(spreads("4!.0", Play::Normal, 200_000));
    assert!(!spreads("0.454", Play::Normal, 200_000));
}

/// The plan makes the stages the run makes to the first 2049 values: the
/// adaptive kernel goes on for 0.6 and 0.643 (their trials pay, per
/// `sequence::TRIAL_MARGIN`'s measurements), the sparse kernel for 0.16,
/// the naive kernel for 0.74 (its trial examines more than the naive
/// kernel); Kayles, Dawson's Kayles and 0.3 stop at the stage their
/// periods are proven at. Where the adaptive kernel goes on, the case
/// counts its work, a tenth of the naive kernel's or less at 200,000 heaps
/// (0.6: 1.2 s of CPU there, naive about 50 s), and a copy of it to 12,500
/// heaps counts the same way.
#[test]
fn the_plan_counts_the_adaptive_kernel_where_the_run_takes_it() {
    use super::sequence::{Path, planned_path};
    let long = Horizon {
        naive: 200_000,
        sparse: 200_000,
    };
    let path = |c: &str| planned_path(&code(c), long).unwrap();
    assert!(matches!(path("0.6"), Path::Adaptive(_)));
    assert!(matches!(path("0.643"), Path::Adaptive(_)));
    assert!(matches!(path("0.16"), Path::Sparse(_)));
    assert_eq!(path("0.74"), Path::Naive);
    // The theorem needs twice the preperiod and period and the largest
    // take: Kayles's period 12 from 71 (168 values) and Dawson's Kayles's
    // 34 from 53 (177) are proven at the stage of 512 values, 0.3's 2 (from
    // 0) at the first, 128.
    assert_eq!(path("0.77"), Path::Proven(512));
    assert_eq!(path("0.07"), Path::Proven(512));
    assert_eq!(path("0.3"), Path::Proven(128));
    let work = |c: &str, h: usize| {
        let w = one_heap_cost(c, Play::Normal, h).work;
        w.iter().map(|(_, u)| *u).sum::<u64>() as f64
    };
    let naive = |h: usize| super::kernel::naive_work(&code("0.6"), h) as f64;
    assert!(work("0.6", 200_000) < naive(200_000) / 10.0);
    assert!(work("0.6", 12_500) < naive(12_500) / 2.0);
    // 0.74 stays naive: its count is the naive kernel's.
    let n74 = super::kernel::naive_work(&code("0.74"), 200_000) as f64;
    assert!(work("0.74", 200_000) >= n74);
}

/// The plan's answer through its memo (`sequence::planned_path`, probes to
/// 512 and to 2048 made once per code) agrees with the run on 80 random
/// codes (up to three digits, some splitting without a take, some proven
/// early, some with sparse spaces) at every horizon, asked the smallest
/// first: below 512, between 512 and 2048, at
/// 2048 with a sparse horizon past it, past 2048 and with the sparse
/// horizon further. The run stops at the stage a proven path names, and
/// otherwise goes on with the kernel it names.
#[test]
fn the_plans_memo_agrees_with_the_run_at_every_horizon() {
    let mut rng = Rng(0x0dd_5eed);
    let never = AtomicBool::new(false);
    let horizons = [
        (300, 300),
        (1000, 1000),
        (1000, 8192),
        (2048, 2048),
        (2048, 8192),
        (4096, 4096),
    ];
    let mut kinds = HashMap::new();
    for _ in 0..80 {
        let c = rng.code(3);
        for (naive, sparse) in horizons {
            let h = Horizon { naive, sparse };
            let seq = sequence::compute(&c, h, &never).unwrap();
            let path = sequence::planned_path(&c, h);
            let what = format!("{} to {h:?}: {path:?}", c.text());
            match path {
                Some(sequence::Path::Proven(stage)) => {
                    assert!(seq.period.is_some(), "{what}");
                    assert_eq!(seq.values.len() - 1, stage, "{what}");
                }
                Some(sequence::Path::Naive) => assert_eq!(seq.kernel, Kernel::Naive, "{what}"),
                Some(sequence::Path::Sparse((mask, _))) => {
                    assert_eq!(seq.kernel, Kernel::Sparse(mask), "{what}")
                }
                Some(sequence::Path::Adaptive(_)) => assert!(seq.adaptive.is_some(), "{what}"),
                None => panic!("not told (no budget in tests): {what}"),
            }
            let kind = path.map(|p| std::mem::discriminant(&p));
            *kinds.entry(kind).or_insert(0) += 1;
        }
    }
    // Proven, naive, sparse and adaptive paths were all drawn.
    assert_eq!(kinds.len(), 4, "{kinds:?}");
}
