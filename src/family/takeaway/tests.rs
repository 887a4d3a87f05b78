//! Fast paths against the brute-force game tree, and known values.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::brute::Position;
use super::cases::TakeCase;
use super::datasets::POSITIONS;
use super::one_heap::{PROOF_CAP, Proof};
use super::params::{default_horizon, sizes_key};
use super::*;
use crate::data::{Table, Values, cell_text};
use crate::family::{Case, CaseCtx, Output};
use crate::game::{BruteGrundy, BruteOutcome};
use crate::period;

fn run_case(rule: &Rule, sizes: Vec<Vec<u64>>) -> Output {
    let skey = sizes_key(&sizes);
    let max_n = *sizes[0].iter().max().unwrap() as usize;
    let horizon = if sizes.len() == 1 {
        default_horizon(&rule.take, max_n)
    } else {
        0
    };
    let case = TakeCase::new(rule.clone(), Arc::new(sizes), skey, horizon, PROOF_CAP);
    let cancel = AtomicBool::new(false);
    let progress = |_: u64| {};
    case.solve(&CaseCtx {
        progress: &progress,
        cancel: &cancel,
        keep: None,
    })
    .unwrap()
}

/// A cell's text as tables print it (winning moves `1,2` or `A3,B4`).
fn col_str(t: &Table, c: &str, i: usize) -> String {
    let mut s = String::new();
    cell_text(t, c, i, POSITIONS.column(c), &mut s);
    s
}

fn rules() -> Vec<TakeForm> {
    vec![
        TakeForm::Range(1, 1),
        TakeForm::Range(1, 2),
        TakeForm::Range(1, 3),
        TakeForm::Range(2, 3),
        TakeForm::Range(2, 5),
        TakeForm::Range(3, 4),
        TakeForm::Set(vec![1, 3, 4]),
        TakeForm::Set(vec![2, 5]),
        TakeForm::Set(vec![1, 2, 4, 8]),
        TakeForm::Any,
    ]
}

/// Every rule form, both plays, with and without no_repeat, one heap to 40:
/// outcome, Grundy value and the winning moves agree with the game tree.
#[test]
fn one_heap_matches_brute_force() {
    for take in rules() {
        for play in [Play::Normal, Play::Misere] {
            for no_repeat in [false, true] {
                let rule = Rule {
                    take: take.clone(),
                    play,
                    no_repeat,
                };
                let out = run_case(&rule, vec![(0..=40).collect()]);
                let pos = &out[0].1;
                let takes: Arc<[u32]> = take.takes(40).into();
                let mut bo = BruteOutcome::new(play);
                let mut bg = BruteGrundy::default();
                for n in 0..=40u32 {
                    let p = Position {
                        heaps: vec![n],
                        last: None,
                        takes: takes.clone(),
                        no_repeat,
                    };
                    let want_p = bo.is_p(&p);
                    let i = n as usize;
                    assert_eq!(
                        col_str(pos, "outcome", i),
                        if want_p { "P" } else { "N" },
                        "{} N={n}",
                        rule.label()
                    );
                    let wm: Vec<String> = bo
                        .winning_moves(&p)
                        .iter()
                        .map(|(_, t)| t.to_string())
                        .collect();
                    assert_eq!(
                        col_str(pos, "winning_moves", i),
                        wm.join(","),
                        "{} N={n}",
                        rule.label()
                    );
                    let g = pos.cell("grundy", i).unwrap();
                    if play == Play::Normal && !no_repeat {
                        assert_eq!(
                            g,
                            crate::data::Cell::Int(bg.grundy(&p) as i64),
                            "{} N={n}",
                            rule.label()
                        );
                    } else {
                        assert_eq!(g, crate::data::Cell::Null);
                    }
                }
            }
        }
    }
}

/// The joint state `(N, last)` for every last take, one heap.
#[test]
fn no_repeat_joint_state_matches_brute_force() {
    for take in rules().into_iter().filter(|t| *t != TakeForm::Any) {
        for play in [Play::Normal, Play::Misere] {
            let rule = Rule {
                take: take.clone(),
                play,
                no_repeat: true,
            };
            let one = OneHeap::solve(&rule, 60, &|_| {});
            let takes: Arc<[u32]> = take.takes(60).into();
            let mut bo = BruteOutcome::new(play);
            for n in 0..=60u32 {
                for &last in takes.iter() {
                    let p = Position {
                        heaps: vec![n],
                        last: Some(last),
                        takes: takes.clone(),
                        no_repeat: true,
                    };
                    assert_eq!(
                        one.is_p_after(n as usize, Some(last)),
                        bo.is_p(&p),
                        "{} N={n} last={last}",
                        rule.label()
                    );
                    let wm: Vec<u32> = bo.winning_moves(&p).iter().map(|m| m.1).collect();
                    assert_eq!(one.winning_takes(n as usize, Some(last)), wm);
                }
            }
        }
    }
}

/// Two and three heaps: XOR path (normal) and joint DP (misère, no_repeat).
#[test]
fn several_heaps_match_brute_force() {
    for take in [
        TakeForm::Range(1, 2),
        TakeForm::Range(2, 3),
        TakeForm::Set(vec![1, 3, 4]),
        TakeForm::Any,
    ] {
        for play in [Play::Normal, Play::Misere] {
            for no_repeat in [false, true] {
                let rule = Rule {
                    take: take.clone(),
                    play,
                    no_repeat,
                };
                for d in [2usize, 3] {
                    let top = if d == 2 { 12u64 } else { 5 };
                    let sizes: Vec<Vec<u64>> = (0..d).map(|_| (0..=top).collect()).collect();
                    let out = run_case(&rule, sizes);
                    let pos = &out[0].1;
                    let takes: Arc<[u32]> = take.takes(top as usize).into();
                    let mut bo = BruteOutcome::new(play);
                    let mut bg = BruteGrundy::default();
                    for i in 0..pos.rows() {
                        let heaps: Vec<u32> = (1..=d)
                            .map(|k| col_str(pos, &format!("N{k}"), i).parse().unwrap())
                            .collect();
                        let p = Position {
                            heaps: heaps.clone(),
                            last: None,
                            takes: takes.clone(),
                            no_repeat,
                        };
                        let want = if bo.is_p(&p) { "P" } else { "N" };
                        assert_eq!(
                            col_str(pos, "outcome", i),
                            want,
                            "{} {heaps:?}",
                            rule.label()
                        );
                        let wm: Vec<String> = bo
                            .winning_moves(&p)
                            .iter()
                            .map(|(h, t)| format!("{}{t}", (b'A' + *h as u8) as char))
                            .collect();
                        assert_eq!(
                            col_str(pos, "winning_moves", i),
                            wm.join(","),
                            "{} {heaps:?}",
                            rule.label()
                        );
                        if play == Play::Normal && !no_repeat {
                            assert_eq!(col_str(pos, "grundy", i), bg.grundy(&p).to_string());
                        }
                    }
                }
            }
        }
    }
}

/// `nimlab solve`'s answer, including huge heaps answered from a proven period.
#[test]
fn answers_far_beyond_the_table() {
    // S = {1,3,4}: period 7 of G = 0 1 0 1 2 3 2. 10^6 ≡ 1 (mod 7) (Fermat), so
    // 10^18 ≡ 1 and G = 1; 10^18 + 4 ≡ 5 and G = 3.
    let rule = Rule {
        take: TakeForm::Set(vec![1, 3, 4]),
        play: Play::Normal,
        no_repeat: false,
    };
    let a = answer(&rule, &[1_000_000_000_000_000_000], None).unwrap();
    assert_eq!(a.grundy, Some(1));
    // To G = 0 (residues 0, 2): from residue 1 only s = 1 (→ 0); s = 3 → 5, s = 4 → 4.
    assert_eq!(a.moves, vec![(0, 1)]);
    let a = answer(&rule, &[1_000_000_000_000_000_004], None).unwrap();
    assert_eq!(a.grundy, Some(3));
    // From residue 5: s = 3 → 2 (G 0) wins; s = 1 → 4 (G 2), s = 4 → 1 (G 1).
    assert_eq!(a.moves, vec![(0, 3)]);
    // Cond(1) n = 5: P iff N ≡ 0 (mod 6), for any N.
    let rule = Rule {
        take: TakeForm::Range(1, 5),
        play: Play::Normal,
        no_repeat: false,
    };
    let big = 6u64 * 123_456_789_012_345;
    assert!(answer(&rule, &[big], None).unwrap().is_p);
    assert_eq!(answer(&rule, &[big + 4], None).unwrap().moves, vec![(0, 4)]);
    // Misère Nim 3-5-7 (report 003): the three winning first moves take one stone.
    let rule = Rule {
        take: TakeForm::Any,
        play: Play::Misere,
        no_repeat: false,
    };
    let a = answer(&rule, &[3, 5, 7], None).unwrap();
    assert!(!a.is_p);
    assert_eq!(a.moves, vec![(0, 1), (1, 1), (2, 1)]);
    // Periodic answers agree with direct tables for misère and no_repeat (n = 5, Cond(1,3)).
    for (play, nr) in [
        (Play::Misere, false),
        (Play::Normal, true),
        (Play::Misere, true),
    ] {
        let rule = Rule {
            take: TakeForm::Range(1, 5),
            play,
            no_repeat: nr,
        };
        let one = OneHeap::solve(&rule, 20_000, &|_| {});
        for n in [19_000u64, 19_999, 20_000] {
            let a = answer(&rule, &[n], None).unwrap();
            assert_eq!(a.is_p, one.is_p[n as usize], "{} N={n}", rule.label());
            let w: Vec<u32> = a.moves.iter().map(|m| m.1).collect();
            assert_eq!(w, one.winning_takes(n as usize, None));
        }
    }
}

/// Report 004's proven formulas, far past its tables.
#[test]
fn report_004_theorems() {
    // Cond(1): L = {k(n+1)}.
    for n in 2..=20u32 {
        let one = OneHeap::solve(
            &Rule {
                take: TakeForm::Range(1, n),
                play: Play::Normal,
                no_repeat: false,
            },
            2000,
            &|_| {},
        );
        for x in 0..=2000 {
            assert_eq!(one.is_p[x], x % (n as usize + 1) == 0);
        }
    }
    // Cond(2): L = {k(n+m) + i : 0 ≤ i < m}.
    for (m, n) in [(2, 3), (2, 5), (3, 4), (4, 6), (5, 6), (3, 10)] {
        let one = OneHeap::solve(
            &Rule {
                take: TakeForm::Range(m, n),
                play: Play::Normal,
                no_repeat: false,
            },
            2000,
            &|_| {},
        );
        for x in 0..=2000usize {
            assert_eq!(
                one.is_p[x],
                x % ((n + m) as usize) < (m as usize),
                "m={m} n={n} x={x}"
            );
        }
    }
    // Cond(1,3), n even: L = {k(n+1)}; n = 8s+5: L = {0} ∪ {n+2+k(2n+3)} ∪ {(2n+3)(k+1)}.
    for n in [2u32, 4, 6, 8, 10, 12] {
        let one = OneHeap::solve(
            &Rule {
                take: TakeForm::Range(1, n),
                play: Play::Normal,
                no_repeat: true,
            },
            1500,
            &|_| {},
        );
        for x in 0..=1500 {
            assert_eq!(one.is_p[x], x % (n as usize + 1) == 0, "n={n} x={x}");
        }
    }
    for n in [5usize, 13, 21] {
        let one = OneHeap::solve(
            &Rule {
                take: TakeForm::Range(1, n as u32),
                play: Play::Normal,
                no_repeat: true,
            },
            1500,
            &|_| {},
        );
        for x in 0..=1500 {
            let q = 2 * n + 3;
            let want = x == 0 || (x >= n + 2 && (x - (n + 2)) % q == 0) || x % q == 0;
            assert_eq!(one.is_p[x], want, "n={n} x={x}");
        }
    }
}

#[test]
fn periods_are_minimal_and_proven() {
    let one = OneHeap::solve(
        &Rule {
            take: TakeForm::Set(vec![1, 3, 4]),
            play: Play::Normal,
            no_repeat: false,
        },
        500,
        &|_| {},
    );
    let per = one.periods();
    let g = per[0].1.unwrap();
    assert_eq!(
        (per[0].0, g.period, g.preperiod, g.status),
        ("grundy", 7, 0, period::Status::Proven)
    );
    let o = per[1].1.unwrap();
    assert_eq!((o.period, o.preperiod), (7, 0));
    // Cond(1,3) n = 5: P-positions 0, 7, 13, 20, 26, … period 13 from 7 (0 is an exception).
    let one = OneHeap::solve(
        &Rule {
            take: TakeForm::Range(1, 5),
            play: Play::Normal,
            no_repeat: true,
        },
        800,
        &|_| {},
    );
    let o = one.periods()[0].1.unwrap();
    // Report 004's formula L = {n+2+k(2n+3)} ∪ {(2n+3)(k+1)} ∪ {0} is periodic from 0.
    assert_eq!(
        (o.period, o.preperiod, o.status),
        (13, 0, period::Status::Proven)
    );
    assert_eq!(
        period::closed_form("N", &one.is_p, &o),
        "N ≥ 0 and N mod 13 ∈ {0, 7}"
    );
}

/// A column of report 004's tables (`max:5`, `min:2,max:5`, with or
/// without ` no_repeat`) as a take form.
fn report_take(column: &str) -> TakeForm {
    let rule_text = column.trim_end_matches(" no_repeat");
    match rule_text.split_once(',') {
        Some((a, b)) => TakeForm::Range(a[4..].parse().unwrap(), b[4..].parse().unwrap()),
        None => TakeForm::Range(1, rule_text[4..].parse().unwrap()),
    }
}

/// The winning takes from one heap of `n` as report 004 prints them (`E`:
/// none), by the brute-force game tree.
fn brute_winning_takes(n: u32, take: &TakeForm, no_repeat: bool) -> String {
    let takes: Arc<[u32]> = take.takes(0).into();
    let p = Position {
        heaps: vec![n],
        last: None,
        takes,
        no_repeat,
    };
    let mut bo = BruteOutcome::new(Play::Normal);
    let moves: Vec<String> = bo
        .winning_moves(&p)
        .iter()
        .map(|m| m.1.to_string())
        .collect();
    if moves.is_empty() {
        "E".to_string()
    } else {
        moves.join(",")
    }
}

/// The same by the fast one-heap path.
fn fast_winning_takes(n: u32, take: &TakeForm, no_repeat: bool) -> String {
    let one = OneHeap::solve(
        &Rule {
            take: take.clone(),
            play: Play::Normal,
            no_repeat,
        },
        n as usize,
        &|_| {},
    );
    let fast: Vec<String> = one
        .winning_takes(n as usize, None)
        .iter()
        .map(|t| t.to_string())
        .collect();
    if fast.is_empty() {
        "E".to_string()
    } else {
        fast.join(",")
    }
}

/// Does a printed cell show the computed takes? A trailing comma from the
/// text layout: the cell may have been cut off, so the printed part must be
/// the computed list or a prefix of it.
fn report_cell_matches(cell: &str, got: &str) -> bool {
    if let Some(prefix) = cell.strip_suffix(',') {
        got == prefix || got.starts_with(&format!("{prefix},"))
    } else {
        cell == got
    }
}

/// Report 004's printed one-heap tables, cell by cell. Every cell where the
/// report disagrees with the computation is listed here and re-checked against
/// the brute-force game tree, so the report (not the solver) is shown wrong.
#[test]
fn report_004_tables_cell_by_cell() {
    let fixtures = [
        (
            include_str!("../../../tests/fixtures/report004/cond1.tsv"),
            false,
        ),
        (
            include_str!("../../../tests/fixtures/report004/cond2.tsv"),
            false,
        ),
        (
            include_str!("../../../tests/fixtures/report004/cond13.tsv"),
            true,
        ),
        (
            include_str!("../../../tests/fixtures/report004/cond23.tsv"),
            true,
        ),
    ];
    let mut mismatches = Vec::new();
    let mut cells = 0;
    for (text, no_repeat) in fixtures {
        let mut lines = text.lines().filter(|l| !l.starts_with('#'));
        let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
        for line in lines {
            let f: Vec<&str> = line.split('\t').collect();
            let n: u32 = f[0].parse().unwrap();
            for (c, cell) in f[1..].iter().enumerate() {
                let take = report_take(header[c + 1]);
                let got = brute_winning_takes(n, &take, no_repeat);
                let fast = fast_winning_takes(n, &take, no_repeat);
                assert_eq!(fast, got, "fast vs brute {} N={n}", header[c + 1]);
                cells += 1;
                if !report_cell_matches(cell, &got) {
                    mismatches.push(format!(
                        "{} N={n}: report {cell}, computed {got}",
                        header[c + 1]
                    ));
                }
            }
        }
    }
    assert_eq!(cells, 46 * 11 + 51 * 8 + 50 * 14 + 51 * 12);
    let expected: Vec<String> = KNOWN_REPORT_004_ERRATA
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(
        mismatches,
        expected,
        "\nmismatches:\n{}",
        mismatches.join("\n")
    );
}

/// Cells of report 004's tables that differ from the game's rules (see the
/// test above, which re-derives each one with the brute-force solver).
const KNOWN_REPORT_004_ERRATA: &[&str] = &[];

/// The reason given for a counterexample, take 1..2 (Grundy value N mod 3,
/// by hand): from N = 4 the options are 3 (0) and 2 (2), so the value is 1;
/// in misère play N = 0 has no move and the mover wins.
#[test]
fn explain_lists_the_options_and_their_values() {
    use crate::data::{StrVec, Values};
    let n = 7usize;
    let strs = |f: &dyn Fn(usize) -> String| {
        let v: Vec<String> = (0..n).map(f).collect();
        Values::Str(v.iter().map(String::as_str).collect::<StrVec>())
    };
    let table = |grundy: bool| {
        Table::new()
            .with("rule", strs(&|_| "max:2".into()))
            .with("take_min", Values::Int(vec![1; n]))
            .with("take_max", Values::Int(vec![2; n]))
            .with("play", strs(&|_| "normal".into()))
            .with("no_repeat", Values::Bool(vec![false; n]))
            .with("N", Values::Int((0..n as i64).collect()))
            .with(
                "grundy",
                Values::OptInt((0..n as i64).map(|x| grundy.then_some(x % 3)).collect()),
            )
            .with(
                "outcome",
                strs(&|i| if i % 3 == 0 { "P".into() } else { "N".into() }),
            )
    };
    let t = table(true);
    assert_eq!(
        Takeaway.explain("positions", &t, 4).as_deref(),
        Some(
            "the options of N=4 and their Grundy values: −1→3 (0), −2→2 (2); the smallest value not among them is 1"
        )
    );
    assert_eq!(
        Takeaway.explain("positions", &t, 0).as_deref(),
        Some("no move from N=0: the player to move loses (normal play)")
    );
    // Outcomes only (no Grundy values): a winning move, or that every move reaches N.
    let o = table(false);
    assert_eq!(
        Takeaway.explain("positions", &o, 5).as_deref(),
        Some("winning moves from N=5 (to a P-position): −2→3 (P)")
    );
    assert_eq!(
        Takeaway.explain("positions", &o, 6).as_deref(),
        Some("every move from N=6 reaches an N-position: −1→5 (N), −2→4 (N)")
    );
    assert_eq!(Takeaway.explain("periods", &t, 4), None);
}

/// Reasons for several heaps, `no_repeat` and misère, computed by hand.
#[test]
fn explain_solves_every_move_of_several_heaps_and_no_repeat() {
    use crate::data::{StrVec, Values};
    let s = |x: &str| Values::Str([x].into_iter().collect::<StrVec>());
    let row = |take_max: Option<i64>, play: &str, no_repeat: bool, heaps: &[i64]| {
        let mut t = Table::new()
            .with("rule", s("r"))
            .with("take_min", Values::Int(vec![1]))
            .with("take_max", Values::OptInt(vec![take_max]))
            .with("play", s(play))
            .with("no_repeat", Values::Bool(vec![no_repeat]));
        if heaps.len() == 1 {
            t = t.with("N", Values::Int(vec![heaps[0]]));
        } else {
            t = t.with("N", Values::OptInt(vec![None]));
            for (i, &h) in heaps.iter().enumerate() {
                t = t.with(&format!("N{}", i + 1), Values::Int(vec![h]));
            }
        }
        t
    };
    let why = |t: &Table| Takeaway.explain("positions", t, 0);
    // Cond(1,3), n = 2, N = 3 (report 004's table: E): taking 1 leaves 2 with 1 barred,
    // so the reply takes 2 and wins; taking 2 leaves 1, which the reply takes.
    assert_eq!(
        why(&row(Some(2), "normal", true, &[3])).as_deref(),
        Some(
            "every move from (3) at the start of a game reaches an N-position: \
             −1→(2) (N; the reply may not take 1), −2→(1) (N; the reply may not take 2)"
        )
    );
    // Cond(1,3), n = 2, N = 4 (report 004's table: 1): taking 1 leaves 3 with 1 barred:
    // the reply must take 2 and leave 1, the last stone ours; taking 2 leaves 2 with 2
    // barred: the reply takes 1 and leaves 1 with 1 barred, and we cannot move.
    assert_eq!(
        why(&row(Some(2), "normal", true, &[4])).as_deref(),
        Some(
            "winning moves from (4) at the start of a game (to a P-position): \
             −1→(3) (P; the reply may not take 1)"
        )
    );
    // Two heaps, takes 1..2: G(1) = 1, G(2) = 2, and (1,2) has value 1 xor 2 = 3.
    assert_eq!(
        why(&row(Some(2), "normal", false, &[1, 2])).as_deref(),
        Some(
            "the options of (1,2) and their Grundy values: A1→(0,2) (2), B1→(1,1) (0), \
             B2→(1,0) (1); the smallest value not among them is 3"
        )
    );
    // Misère Nim: whoever takes the last stone loses, so (0,1,1) and its images are N
    // and (1,1,1) is P; from (1,1) either move leaves one stone to the opponent.
    assert_eq!(
        why(&row(None, "misere", false, &[1, 1, 1])).as_deref(),
        Some(
            "every move from (1,1,1) reaches an N-position: A1→(0,1,1) (N), B1→(1,0,1) (N), \
             C1→(1,1,0) (N)"
        )
    );
    assert_eq!(
        why(&row(None, "misere", false, &[1, 1])).as_deref(),
        Some("winning moves from (1,1) (to a P-position): A1→(0,1) (P), B1→(1,0) (P)")
    );
    assert_eq!(
        why(&row(None, "misere", false, &[0, 0])).as_deref(),
        Some("no move from (0,0): the player to move wins (misere play)")
    );
}

/// Grundy values of a subtraction game by the definition (mex over the takes),
/// independent of the solver's packed tables.
fn naive_grundy(takes: &[u32], len: usize) -> Vec<u32> {
    let mut g = vec![0u32; len];
    for n in 0..len {
        let seen: Vec<u32> = takes
            .iter()
            .filter(|&&t| t as usize <= n)
            .map(|&t| g[n - t as usize])
            .collect();
        g[n] = (0..).find(|v| !seen.contains(v)).unwrap();
    }
    g
}

/// The smallest `p` with `a(n + p) = a(n)` for every `n ≥ from` in the range.
fn smallest_period<T: PartialEq>(a: &[T], from: usize) -> usize {
    (1..a.len())
        .find(|&p| (from..a.len() - p).all(|n| a[n] == a[n + p]))
        .unwrap()
}

/// Take {6, 16, 22, 25, 38, 42, 46}: its Grundy sequence (the joint state of
/// normal play) has period 1488 from 899, its outcome sequence period 31 from
/// 99. From a horizon of 1000 the proof window (899 + 1488 + 46) is not in
/// sight; the case extends the table (×4) until it is and says so.
#[test]
fn long_joint_period_short_outcome_period_proven_by_extension() {
    let takes = vec![6, 16, 22, 25, 38, 42, 46];
    let g = naive_grundy(&takes, 30_000);
    assert_eq!(smallest_period(&g, 899), 1488);
    assert_ne!(g[898], g[898 + 1488]);
    let is_p: Vec<bool> = g.iter().map(|&v| v == 0).collect();
    assert_eq!(smallest_period(&is_p, 99), 31);
    assert_ne!(is_p[98], is_p[98 + 31]);

    let rule = Rule {
        take: TakeForm::Set(takes),
        play: Play::Normal,
        no_repeat: false,
    };
    assert_eq!(OneHeap::solve(&rule, 1000, &|_| {}).witness(), None);
    let one = OneHeap::solve_proving(&rule, 1000, PROOF_CAP, &|_| {});
    assert_eq!(
        (one.horizon, one.end(), one.extension()),
        (1000, 4000, 3000)
    );
    let per = one.periods();
    let gp = per[0].1.unwrap();
    let op = per[1].1.unwrap();
    assert_eq!(
        (gp.period, gp.preperiod, gp.status),
        (1488, 899, period::Status::Proven)
    );
    assert_eq!(
        (op.period, op.preperiod, op.status),
        (31, 99, period::Status::Proven)
    );
    assert_eq!(&one.is_p[..], &is_p[..=4000]);

    // The periods table says that the proof needed an extension, and how far.
    let case = TakeCase::new(
        rule.clone(),
        Arc::new(vec![(0..=100).collect()]),
        "0..100".into(),
        1000,
        PROOF_CAP,
    );
    let t = &periods_of(&case);
    for i in 0..2 {
        assert_eq!(col_text(t, "horizon", i), "1000");
        assert_eq!(col_text(t, "computed_to", i), "4000");
        assert_eq!(col_text(t, "extended", i), "true");
        assert_eq!(col_text(t, "status", i), "proven");
        assert!(
            col_text(t, "evidence", i).contains("horizon extended from 1000 to 4000"),
            "{}",
            col_text(t, "evidence", i)
        );
    }
    assert_eq!(col_text(t, "period", 1), "31");
}

/// Take 1..114 with no repeat: the losses are the multiples of 115 (report
/// 004's theorem for even n, by hand: from 115k + u take u; from 115k every
/// take t leaves 115(k−1) + 115 − t, which wins by taking 115 − t ≠ t). The
/// joint state's window is not in sight at the horizon, but the losses'
/// induction proves the period there, without extending the table.
#[test]
fn no_repeat_losses_proven_by_induction_without_extension() {
    let rule = Rule {
        take: TakeForm::Range(1, 114),
        play: Play::Normal,
        no_repeat: true,
    };
    let horizon = 7360;
    assert_eq!(OneHeap::solve(&rule, horizon, &|_| {}).witness(), None);
    let one = OneHeap::solve_proving(&rule, horizon, PROOF_CAP, &|_| {});
    assert_eq!((one.end(), one.extension()), (horizon, 0));
    assert!((0..=horizon).all(|n| one.is_p[n] == (n % 115 == 0)));
    assert_eq!(one.proof(), Some(Proof::Losses(115, 0)));
    let case = TakeCase::new(
        rule,
        Arc::new(vec![(0..=100).collect()]),
        "0..100".into(),
        horizon,
        PROOF_CAP,
    );
    let t = &dataset_of(&case, "periods");
    assert_eq!(col_text(t, "period", 0), "115");
    assert_eq!(col_text(t, "status", 0), "proven");
    assert_eq!(col_text(t, "extended", 0), "false");
    assert!(col_text(t, "evidence", 0).starts_with("by induction on the losses"));
}

/// With the cap below the proof window the period stays observed, and the
/// evidence says where it was observed and that the cap was reached.
#[test]
fn proof_cap_reached_gives_observed_with_its_window() {
    let take = TakeForm::Set(vec![6, 16, 22, 25, 38, 42, 46]);
    let case = one_heap((take, Play::Normal, false), 100, (1000, 2000));
    let t = &periods_of(&case);
    assert_eq!(col_text(t, "computed_to", 1), "2000");
    assert_eq!(col_text(t, "extended", 1), "true");
    assert_eq!(col_text(t, "status", 1), "observed");
    assert_eq!(col_text(t, "period", 1), "31");
    assert_eq!(
        col_text(t, "evidence", 1),
        "no proof window by N = 2000 (the cap); observed on [99, 2000], 61 periods"
    );
    // The Grundy sequence's period 1488 cannot be seen three times by 2000.
    assert_eq!(col_text(t, "status", 0), "none");
}

/// A cell's text in any takeaway table.
fn col_text(t: &Table, c: &str, i: usize) -> String {
    let mut s = String::new();
    let col = super::datasets::PERIODS.column(c);
    cell_text(t, c, i, col, &mut s);
    s
}

/// A one-heap case's work expected and at most, counted by hand: the
/// sequence is solved to the horizon (100), and where the period's proof
/// extends it, again to 400, 1600 and the cap 2000, each from the start;
/// the 11 rows read once (4 units each).
#[test]
fn work_at_most_counts_each_extension_to_the_cap() {
    let case = |take: TakeForm, no_repeat: bool| {
        let rule = Rule {
            take,
            play: Play::Normal,
            no_repeat,
        };
        TakeCase::new(
            rule,
            Arc::new(vec![(0..=10).collect()]),
            "0..10".into(),
            100,
            2000,
        )
    };
    // Normal play: one unit per heap size.
    let c = case(TakeForm::Range(1, 2), false);
    assert_eq!(
        c.cost(None).work,
        vec![(super::kernels::SUBTRACTION, 100 + 44)]
    );
    assert_eq!(
        *c.cost(None).work_at_most(),
        vec![(super::kernels::SUBTRACTION, 100 + 400 + 1600 + 2000 + 44)]
    );
    // no_repeat, normal play: a unit of its own kernel per heap size.
    let c = case(TakeForm::Range(1, 3), true);
    assert_eq!(
        c.cost(None).work,
        vec![(super::kernels::NO_REPEAT, 100 + 44)]
    );
    assert_eq!(
        *c.cost(None).work_at_most(),
        vec![(super::kernels::NO_REPEAT, 100 + 400 + 1600 + 2000 + 44)]
    );
    // Any take (Nim): no period to prove, nothing extended.
    let c = case(TakeForm::Any, false);
    let cost = c.cost(None);
    assert_eq!(cost.work_at_most(), &cost.work);
}

/// A `positions` row is counted at its typed vectors' bytes, by hand: one
/// heap with Grundy values 8 (N) + 1 (outcome) + 8 (grundy) + 8 (the moves'
/// offset) + 8 (one take) = 33; two heaps with no repeat 16 + 1 + 0 + 8 + 16
/// = 41. The solved tables hold what the count assumes: the heap columns
/// and the Grundy value where counted (the others null), and at most one
/// winning move a row for take 1..5 on one heap (from N ≢ 0 mod 6 only
/// taking N mod 6 wins).
#[test]
fn position_rows_counted_at_their_typed_bytes() {
    let one = rule_case(false, vec![(0..=100).collect()], 100);
    assert_eq!(one.position_row_bytes(), 33);
    let t = dataset_of(&one, "positions");
    assert!(matches!(column(&t, "N"), Values::Int(_)));
    assert!(matches!(column(&t, "grundy"), Values::Int(_)));
    assert!(matches!(column(&t, "N1"), Values::Null(_)));
    let Values::StructList(moves) = column(&t, "winning_moves") else {
        panic!("winning_moves is a list of structs")
    };
    assert!((0..t.rows()).all(|i| moves.row_len(i) == usize::from(i % 6 != 0)));

    let two = rule_case(true, vec![(0..=10).collect(), (0..=10).collect()], 0);
    assert_eq!(two.position_row_bytes(), 41);
    let t = dataset_of(&two, "positions");
    assert!(matches!(column(&t, "N"), Values::Null(_)));
    assert!(matches!(column(&t, "grundy"), Values::Null(_)));
    assert!(matches!(column(&t, "N2"), Values::Int(_)));
}

/// A case of take 1..5, normal play, over `sizes`.
fn rule_case(no_repeat: bool, sizes: Vec<Vec<u64>>, horizon: usize) -> TakeCase {
    let rule = Rule {
        take: TakeForm::Range(1, 5),
        play: Play::Normal,
        no_repeat,
    };
    TakeCase::new(rule, Arc::new(sizes), "sizes".into(), horizon, PROOF_CAP)
}

/// The table of dataset `name` a case solves.
fn dataset_of(case: &TakeCase, name: &str) -> Table {
    let cancel = AtomicBool::new(false);
    let ctx = CaseCtx {
        progress: &|_| {},
        cancel: &cancel,
        keep: None,
    };
    let out = case.solve(&ctx).unwrap();
    out.into_iter().find(|(d, _)| d.name == name).unwrap().1
}

/// A column of `t` by name.
fn column<'a>(t: &'a Table, name: &str) -> &'a Values {
    t.columns()
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v)
        .unwrap()
}

/// Counterexamples in moves, by hand. Take 1..2, normal play, one heap:
/// Grundy N mod 3, so from 4 taking 1 leaves 3 (0, a loss for the
/// opponent) and taking 2 leaves 2 (2). Misère Nim (1,1,1): every move
/// leaves two single stones, (0,1,1) and its images, from which the
/// opponent takes one and leaves us the last: a loss for the mover.
#[test]
fn counterexamples_are_explained_by_their_moves() {
    use crate::data::{StrVec, Values};
    use crate::family::Family as _;
    let n = 7usize;
    let strs = |f: &dyn Fn(usize) -> String| {
        let v: Vec<String> = (0..n).map(f).collect();
        Values::Str(v.iter().map(String::as_str).collect::<StrVec>())
    };
    let t = Table::new()
        .with("rule", strs(&|_| "max:2".into()))
        .with("take_min", Values::Int(vec![1; n]))
        .with("take_max", Values::Int(vec![2; n]))
        .with("play", strs(&|_| "normal".into()))
        .with("no_repeat", Values::Bool(vec![false; n]))
        .with("N", Values::Int((0..n as i64).collect()))
        .with(
            "grundy",
            Values::OptInt((0..n as i64).map(|x| Some(x % 3)).collect()),
        )
        .with(
            "outcome",
            strs(&|i| if i % 3 == 0 { "P".into() } else { "N".into() }),
        );
    let a = Takeaway
        .capabilities()
        .explains_moves
        .expect("explains moves")("positions", &t, 4)
    .expect("an account");
    assert_eq!(
        a.text(),
        "a heap of 4 has 2 moves. 1 move reaches a loss for the opponent (P): taking 1 leaves 3 \
         (Grundy 0). 1 move reaches a win for the opponent (N): taking 2 leaves 2 (Grundy 2). \
         A heap of 4 is a win for the player to move (N): taking 1 leaves 3, a loss for the opponent"
    );
    let s = |x: &str| Values::Str([x].into_iter().collect::<StrVec>());
    let mut m = Table::new()
        .with("rule", s("any"))
        .with("take_min", Values::Int(vec![1]))
        .with("take_max", Values::OptInt(vec![None]))
        .with("play", s("misere"))
        .with("no_repeat", Values::Bool(vec![false]))
        .with("N", Values::OptInt(vec![None]));
    for i in 1..=3 {
        m = m.with(&format!("N{i}"), Values::Int(vec![1]));
    }
    let a = Takeaway
        .capabilities()
        .explains_moves
        .expect("explains moves")("positions", &m, 0)
    .expect("an account");
    assert_eq!(a.groups.len(), 1);
    assert_eq!(a.groups[0].leads_to, "a win for the opponent (N)");
    assert_eq!(a.moves(), 3);
    assert!(a.text().contains("taking 1 from heap A leaves (0,1,1)"));
    assert!(
        a.conclusion
            .ends_with("(1,1,1) is a loss for the player to move (P)")
    );
}

/// Two heaps of `0..=n` each under `rule`, no horizon.
fn two_heaps(rule: Rule, n: u64) -> TakeCase {
    let heap: Vec<u64> = (0..=n).collect();
    TakeCase::new(
        rule,
        Arc::new(vec![heap.clone(), heap]),
        format!("0..{n}"),
        0,
        2000,
    )
}

/// A two-heap case holds its joint codes and, where the sweep keeps
/// `positions`, each position's row while it is made. Measured on one
/// thread (`/usr/bin/time -v`, `nimlab --threads 1 run … --no-render
/// --no-report`, take `{min: 1, max: 29}`, `no_repeat`, two heaps to
/// 3,000): 52,392 KiB keeping `lattices`, 687,696 KiB keeping
/// `positions`, where a process solving a one-heap case to 10 holds
/// 15,272 KiB. The estimate is within 1.5× of what each held beyond that
/// base, and keeping positions costs the rows on top of the codes.
#[test]
fn memory_counts_the_rows_only_where_positions_are_kept() {
    let rule = Rule {
        take: TakeForm::Range(1, 29),
        play: Play::Normal,
        no_repeat: true,
    };
    let c = two_heaps(rule, 3000);
    let held = |kib: u64| ((kib - 15_272) * 1024) as f64;
    let within = |got: u64, measured: f64| {
        let r = got as f64 / measured;
        (1.0 / 1.5..=1.5).contains(&r)
    };
    let lattices = c.cost(Some(&["lattices".to_string()]));
    let got = lattices.memory_expected.unwrap();
    assert!(within(got, held(52_392)), "{got}");
    assert!(lattices.memory_bound >= got);
    let kept = c.cost(Some(&["positions".to_string()]));
    let got = kept.memory_expected.unwrap();
    assert!(within(got, held(687_696)), "{got}");
    // Every dataset kept (the default) holds the rows as positions does.
    assert_eq!(c.cost(None).memory_bound, kept.memory_bound);
}

/// A sum of one-heap games holds one heap's Grundy values (8 bytes a heap
/// size), not a joint table, and its lattice a grid of a bit a position:
/// two heaps of `{2, 5, 7}` to 6,000 peaked at 16 MB for the whole process
/// (`/usr/bin/time -v`, one thread), where 4 bytes a state counted 137 MiB.
#[test]
fn a_sum_holds_one_heaps_values_and_its_lattice_bits() {
    let rule = Rule {
        take: TakeForm::Set(vec![2, 5, 7]),
        play: Play::Normal,
        no_repeat: false,
    };
    let c = two_heaps(rule, 6000).with_lattices(true);
    let lattices = c.cost(Some(&["lattices".to_string()]));
    // Within the whole process's measured peak (16 MB, its base included)
    // and at least its grid's 36 million bits.
    let got = lattices.memory_expected.unwrap();
    assert!((4_500_000..=16_000_000).contains(&got), "{got}");
    assert_eq!(lattices.memory_bound, got);
}

/// A copy scaled down to sample a one-heap case is computed to its own
/// horizon and no further: `max: 152` in misère play under `no_repeat`
/// proves its period only past 60,000 (the run extends it to 3,840,000 or
/// more), and a copy extended as far would cost the sample what the case
/// to its horizon does not.
#[test]
fn a_scaled_copy_is_not_extended() {
    let take = TakeForm::Range(1, 152);
    let case = one_heap((take, Play::Misere, true), 60000, (60000, 10_000_000));
    let t = &periods_of(case.scaled(1.0 / 256.0).unwrap().as_ref());
    let horizon: usize = col_text(t, "horizon", 0).parse().unwrap();
    assert!((200..300).contains(&horizon), "{horizon}");
    assert_eq!(col_text(t, "computed_to", 0), horizon.to_string());
    assert_eq!(col_text(t, "extended", 0), "false");
}

/// The `periods` table `case` solves to.
fn periods_of(case: &dyn Case) -> Table {
    let cancel = AtomicBool::new(false);
    let out = case
        .solve(&CaseCtx {
            progress: &|_| {},
            cancel: &cancel,
            keep: None,
        })
        .unwrap();
    out.into_iter()
        .find(|(d, _)| d.name == "periods")
        .unwrap()
        .1
}

/// A one-heap case of `take` (in `play`, under `no_repeat` or not) on the
/// heaps `0..=n`, to `horizon`, extended up to `cap`.
fn one_heap(
    (take, play, no_repeat): (TakeForm, Play, bool),
    n: u64,
    (horizon, cap): (usize, usize),
) -> TakeCase {
    let rule = Rule {
        take,
        play,
        no_repeat,
    };
    let sizes = Arc::new(vec![(0..=n).collect()]);
    TakeCase::new(rule, sizes, format!("0..{n}"), horizon, cap)
}
