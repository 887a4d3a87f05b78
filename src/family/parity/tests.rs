//! The fast table against a brute force on real hand sizes, report 001's
//! printed lists and worked examples, periods, datasets and errors.

#![allow(clippy::type_complexity, clippy::needless_range_loop)] // tables of hand-checked cases

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::brute::{Move, Position};
use super::solver::{Class, Mover, SafeState, Solution, Variant};
use super::*;
use crate::data::{Cell, Table};
use crate::family::watch::UNWATCHED;
use crate::family::{CaseCtx, Family};
use crate::game::{BruteOutcome, Play};
use crate::params::Node;

fn brute_solver() -> BruteOutcome<Position> {
    // The end of the game is encoded as "the winner has one last move", so the
    // generic solver runs in normal play (see brute.rs).
    BruteOutcome::new(Play::Normal)
}

/// Brute force: does the player to move at (a, b, r) win, with these real hands?
fn brute_wins(
    bo: &mut BruteOutcome<Position>,
    v: Variant,
    takes: &Arc<[u32]>,
    a: u64,
    b: u64,
    r: u64,
    m: Mover,
) -> bool {
    !bo.is_p(&Position::new(v, a, b, r, m, takes.clone()))
}

fn brute_moves(
    bo: &mut BruteOutcome<Position>,
    v: Variant,
    takes: &Arc<[u32]>,
    a: u64,
    b: u64,
    r: u64,
    m: Mover,
) -> Vec<u32> {
    bo.winning_moves(&Position::new(v, a, b, r, m, takes.clone()))
        .into_iter()
        .filter_map(|mv| match mv {
            Move::Take(t) => Some(t),
            Move::Claim => None,
        })
        .collect()
}

fn rule_sets() -> Vec<Vec<u32>> {
    let mut v: Vec<Vec<u32>> = (1..=6).map(|k| (1..=k).collect()).collect();
    v.extend([
        vec![1, 3],
        vec![1, 4],
        vec![1, 2, 4],
        vec![1, 3, 4],
        vec![1, 2, 5],
        vec![1, 5],
        vec![1, 4, 6],
    ]);
    v
}

const R_MAX: u64 = 30;

/// Every k ≤ 6 and a few other sets, both variants, r ≤ 30, real hands
/// 0..=5 (so every parity appears with several sizes), both movers: who wins
/// and the exact list of winning moves agree with the game tree.
#[test]
fn fast_table_matches_brute_force() {
    for set in rule_sets() {
        let takes: Arc<[u32]> = set.clone().into();
        for v in [Variant::Sides, Variant::OddWins] {
            let s = Solution::solve(v, &set, R_MAX as usize, &|_| {});
            let mut bo = brute_solver();
            let mut checked = 0;
            for r in 0..=R_MAX {
                for a in 0..=5u64 {
                    for b in 0..=5u64 {
                        if (a + b + r) % 2 != v.total_parity() {
                            continue;
                        }
                        for m in [Mover::A, Mover::B] {
                            let want = brute_wins(&mut bo, v, &takes, a, b, r, m);
                            assert_eq!(
                                s.wins(a, b, r, m),
                                Some(want),
                                "{v:?} {set:?} ({a},{b},{r}) {m:?}"
                            );
                            let wm = brute_moves(&mut bo, v, &takes, a, b, r, m);
                            assert_eq!(
                                s.winning_takes(a, b, r, m).unwrap(),
                                wm,
                                "{v:?} {set:?} ({a},{b},{r}) {m:?}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
            assert!(checked > 500);
        }
    }
}

/// Brute force, written from the rules alone on real hands: (does the
/// player to move win, the number of moves to the end when the winner ends
/// the game as fast as possible and the loser delays it as long as possible).
/// `a`, `b` are A's (Odd's) and B's (Even's) hands; `a_moves`: A is to move.
fn brute_remoteness(
    memo: &mut std::collections::HashMap<(u64, u64, u64, bool), (bool, u32)>,
    v: Variant,
    takes: &[u32],
    (a, b, pile, a_moves): (u64, u64, u64, bool),
) -> (bool, u32) {
    if let Some(&x) = memo.get(&(a, b, pile, a_moves)) {
        return x;
    }
    let answer = if pile == 0 {
        let mine = if a_moves { a } else { b };
        let won = match v {
            // Both odd: Odd (A) wins; both even: Even (B) wins.
            Variant::Sides => (a % 2 == 1) == a_moves,
            Variant::OddWins => mine % 2 == 1,
        };
        (won, 0)
    } else {
        let mut fastest_win: Option<u32> = None;
        let mut longest = 0;
        for &t in takes.iter().filter(|&&t| u64::from(t) <= pile) {
            let t = u64::from(t);
            let next = if a_moves {
                (a + t, b, pile - t, false)
            } else {
                (a, b + t, pile - t, true)
            };
            let (they_win, n) = brute_remoteness(memo, v, takes, next);
            longest = longest.max(n);
            if !they_win {
                fastest_win = Some(fastest_win.map_or(n, |f: u32| f.min(n)));
            }
        }
        match fastest_win {
            Some(n) => (true, n + 1),
            None => (false, longest + 1),
        }
    };
    memo.insert((a, b, pile, a_moves), answer);
    answer
}

/// Remoteness, hand-counted: with take set {1} every game from pile r lasts
/// exactly r moves, whoever wins.
#[test]
fn remoteness_of_take_one_is_the_pile() {
    for v in [Variant::Sides, Variant::OddWins] {
        let s = Solution::solve(v, &[1], 20, &|_| {});
        let rem = s.remoteness(21).unwrap();
        for (r, row) in rem.iter().enumerate() {
            for (a, b) in s.hands(r) {
                assert_eq!(row[solver::slot(a, b, Mover::A)], r as u32, "{v:?} r = {r}");
            }
        }
    }
}

/// The solver's remoteness against the brute force on real hands 0..=3,
/// every rule of [`rule_sets`], both variants, both movers, r ≤ 30.
#[test]
fn remoteness_matches_brute_force() {
    for set in rule_sets() {
        for v in [Variant::Sides, Variant::OddWins] {
            let s = Solution::solve(v, &set, R_MAX as usize, &|_| {});
            let rem = s.remoteness(R_MAX as usize + 1).unwrap();
            let mut memo = Default::default();
            let mut longest = 0;
            for r in 0..=R_MAX {
                for (a, b) in (0..=3u64).flat_map(|a| (0..=3u64).map(move |b| (a, b))) {
                    if (a + b + r) % 2 != v.total_parity() {
                        continue;
                    }
                    for a_moves in [true, false] {
                        let (_, want) = brute_remoteness(&mut memo, v, &set, (a, b, r, a_moves));
                        let (pa, pb) = ((a % 2) as u8, (b % 2) as u8);
                        let got = match (v, a_moves) {
                            (Variant::Sides, true) => {
                                rem[r as usize][solver::slot(pa, pb, Mover::A)]
                            }
                            (Variant::Sides, false) => {
                                rem[r as usize][solver::slot(pa, pb, Mover::B)]
                            }
                            // odd_wins: the mover's hand first.
                            (Variant::OddWins, true) => {
                                rem[r as usize][solver::slot(pa, pb, Mover::A)]
                            }
                            (Variant::OddWins, false) => {
                                rem[r as usize][solver::slot(pb, pa, Mover::A)]
                            }
                        };
                        assert_eq!(got, want, "{v:?} {set:?} ({a},{b},{r}) A moves: {a_moves}");
                        longest = longest.max(want);
                    }
                }
            }
            // The loser's delay is visible: some game lasts more than r / max take moves.
            assert!(longest as u64 >= R_MAX / u64::from(*set.last().unwrap()));
        }
    }
}

fn plan_yaml(yaml: &str) -> Result<Plan, SpecError> {
    plan_asking(yaml, &[])
}

fn plan_asking(yaml: &str, asked: &[String]) -> Result<Plan, SpecError> {
    let v = crate::params::parse_yaml(yaml, "t.yaml").unwrap();
    let node = Node::root(&v, "t.yaml");
    Parity.plan(&node, crate::family::Planning::Solve { asked })
}

fn run_yaml(yaml: &str) -> Vec<(&'static str, Table)> {
    run_asking(yaml, &[])
}

/// The datasets of a sweep whose spec asks for the on-request datasets `asked`.
fn run_asking(yaml: &str, asked: &[String]) -> Vec<(&'static str, Table)> {
    let decls = Parity.datasets();
    let plan = plan_asking(yaml, asked).unwrap();
    let cancel = AtomicBool::new(false);
    let progress = |_: u64| {};
    let mut out: Vec<(&'static str, Table)> = Vec::new();
    for c in &plan.cases {
        for (ds, t) in c
            .solve(&CaseCtx {
                progress: &progress,
                cancel: &cancel,
                keep: None,
            })
            .unwrap()
        {
            assert!(decls.iter().any(|d| std::ptr::eq(*d, ds)));
            ds.validate(&t).unwrap();
            match out.iter_mut().find(|(n, _)| *n == ds.name) {
                Some((_, acc)) => acc.append(&t).unwrap(),
                None => out.push((ds.name, t)),
            }
        }
    }
    out
}

fn dataset<'a>(out: &'a [(&'static str, Table)], name: &str) -> &'a Table {
    &out.iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no dataset {name}"))
        .1
}

fn s(t: &Table, c: &str, i: usize) -> String {
    t.cell(c, i)
        .unwrap_or_else(|| panic!("no column {c}"))
        .to_string()
}

fn int(t: &Table, c: &str, i: usize) -> i64 {
    match t.cell(c, i).unwrap() {
        Cell::Int(v) => v,
        x => panic!("{c} is {x:?}"),
    }
}

/// The stored outcome table, row by row, against the brute force (the hands
/// in the table are parities; the brute force plays them as real hands 0/1
/// and also as 2/3, which must give the same answer).
#[test]
fn outcome_dataset_matches_brute_force() {
    let yaml = "variant: [sides, odd_wins]\nk: 1..6\nr: 0..30\nstrip_k: none\n";
    // Not asked for: no remoteness dataset, no such column in outcome.
    let plain = run_yaml(yaml);
    assert!(plain.iter().all(|(n, _)| *n != "remoteness"));
    assert!(dataset(&plain, "outcome").cell("remoteness", 0).is_none());
    let out = run_asking(yaml, &["remoteness".to_string()]);
    let t = dataset(&out, "outcome");
    let rt = dataset(&out, "remoteness");
    assert_eq!(t.rows(), 6 * 31 * 4 + 6 * 31 * 2);
    assert_eq!(rt.rows(), t.rows());
    let mut solvers: std::collections::HashMap<(String, i64), BruteOutcome<Position>> =
        Default::default();
    let mut remote: std::collections::HashMap<(String, i64), std::collections::HashMap<_, _>> =
        Default::default();
    for i in 0..t.rows() {
        let var = Variant::parse(&s(t, "variant", i)).unwrap();
        let k = int(t, "k", i);
        let takes: Arc<[u32]> = (1..=k as u32).collect::<Vec<_>>().into();
        let bo = solvers
            .entry((s(t, "variant", i), k))
            .or_insert_with(brute_solver);
        let (r, x, y) = (
            int(t, "r", i) as u64,
            int(t, "a_parity", i) as u64,
            int(t, "b_parity", i) as u64,
        );
        assert!(x <= 1 && y <= 1);
        let m = match (var, s(t, "mover", i).as_str()) {
            (Variant::Sides, "odd") => Mover::A,
            (Variant::Sides, "even") => Mover::B,
            // odd_wins: odd_hand is the mover's hand, even_hand the other's.
            (Variant::OddWins, "mover") => Mover::A,
            other => panic!("unexpected mover {other:?}"),
        };
        for extra in [0, 2] {
            let wins = brute_wins(bo, var, &takes, x + extra, y + extra, r, m);
            let winner = match (var, wins, m) {
                (Variant::Sides, true, Mover::A) | (Variant::Sides, false, Mover::B) => "odd",
                (Variant::Sides, _, _) => "even",
                (Variant::OddWins, true, _) => "mover",
                (Variant::OddWins, false, _) => "other",
            };
            assert_eq!(s(t, "winner", i), winner, "row {i}");
            assert_eq!(s(t, "outcome", i), if wins { "N" } else { "P" }, "row {i}");
            let wm = brute_moves(bo, var, &takes, x + extra, y + extra, r, m);
            assert_eq!(s(t, "winning_takes", i), join(&wm, ", "), "row {i}");
            let rm = remote
                .entry((s(t, "variant", i), k))
                .or_insert_with(Default::default);
            let list: Vec<u32> = (1..=k as u32).collect();
            let (xa, yb, a_moves) = (x + extra, y + extra, m == Mover::A);
            let (_, want) = brute_remoteness(rm, var, &list, (xa, yb, r, a_moves));
            // The remoteness rows are the outcome rows, in the same order.
            for c in [
                "variant", "k", "r", "a_parity", "b_parity", "mover", "outcome",
            ] {
                assert_eq!(s(rt, c, i), s(t, c, i), "row {i}, {c}");
            }
            assert_eq!(int(rt, "remoteness", i), i64::from(want), "row {i}");
        }
    }
}

/// Parses the article's notation `(0,1,4n+3)` / `(1,1,8n)`: (state, M).
fn parse_article(text: &str) -> (SafeState, usize) {
    let inner = text.trim().trim_start_matches('(').trim_end_matches(')');
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    let (m, c) = parts[2].split_once('n').unwrap();
    let c = c.trim_start_matches('+');
    let residue = if c.is_empty() { 0 } else { c.parse().unwrap() };
    (
        SafeState {
            a: parts[0].parse().unwrap(),
            b: parts[1].parse().unwrap(),
            residue,
        },
        m.parse().unwrap(),
    )
}

/// Report 001's safe-state lists, transcribed from the article text (數學傳播
/// 47卷3期, 張進安「有關單堆奇偶的拈」), in the article's own order.
/// (k, source, Odd's list, Even's list).
const ARTICLE_LISTS: &[(usize, &str, &[&str], &[&str])] = &[
    (
        1,
        "尾聲 (k = 1 put into the general formula, M = 4)",
        &["(0,0,4n+2)", "(0,1,4n+3)", "(1,0,4n+1)", "(1,1,4n)"],
        &["(1,1,4n+2)", "(0,1,4n+3)", "(1,0,4n+1)", "(0,0,4n)"],
    ),
    (
        2,
        "§六 A. 每次取 1 到 2 個",
        &["(0,1,4n+3)", "(1,0,4n+1)", "(1,1,4n)"],
        &["(0,1,4n+3)", "(1,0,4n+1)", "(0,0,4n)"],
    ),
    (
        3,
        "§四 and §六 B. 每次取 1 到 3 個",
        &["(0,0,8n+4)", "(0,1,8n+5)", "(1,1,8n)", "(1,0,8n+1)"],
        &["(1,1,8n+4)", "(0,1,8n+5)", "(0,0,8n)", "(1,0,8n+1)"],
    ),
    (
        4,
        "§六 C. 每次取 1 到 4 個",
        &["(0,1,6n+5)", "(1,0,6n+1)", "(1,1,6n)"],
        &["(0,1,6n+5)", "(1,0,6n+1)", "(0,0,6n)"],
    ),
    (
        5,
        "§六 D. 每次取 1 到 5 個",
        &["(0,0,12n+6)", "(0,1,12n+7)", "(1,0,12n+1)", "(1,1,12n)"],
        &["(1,1,12n+6)", "(0,1,12n+7)", "(1,0,12n+1)", "(0,0,12n)"],
    ),
    (
        6,
        "§六 E. 每次取 1 到 6 個",
        &["(0,1,8n+7)", "(1,0,8n+1)", "(1,1,8n)"],
        &["(0,1,8n+7)", "(1,0,8n+1)", "(0,0,8n)"],
    ),
];

/// The article's lists for k = 1..6 are reproduced exactly: the same modulus,
/// no preperiod, the same states; and every listed state (and no other) is
/// safe for that side by the brute force with real hands, n = 0..4.
#[test]
fn article_lists_k1_to_6_reproduced() {
    for &(k, source, odd, even) in ARTICLE_LISTS {
        let set: Vec<u32> = (1..=k as u32).collect();
        let s = Solution::solve(Variant::Sides, &set, 0, &|_| {});
        let p = s.period.unwrap();
        let takes: Arc<[u32]> = set.clone().into();
        let mut bo = brute_solver();
        for (side, list) in [(Mover::A, odd), (Mover::B, even)] {
            let parsed: Vec<(SafeState, usize)> = list.iter().map(|t| parse_article(t)).collect();
            let m = parsed[0].1;
            assert!(
                parsed.iter().all(|x| x.1 == m),
                "k = {k} ({source}): one modulus per list"
            );
            let want: BTreeSet<SafeState> = parsed.iter().map(|x| x.0).collect();
            let (got, exc) = s.safe_states(side).unwrap();
            assert_eq!(
                (p.period, p.preperiod),
                (m, 0),
                "k = {k} ({source}): modulus"
            );
            assert!(exc.is_empty());
            assert_eq!(
                got.iter().copied().collect::<BTreeSet<_>>(),
                want,
                "k = {k} ({source}) {side:?}"
            );
            // The same, by brute force on real hands (a and b of size 0..3).
            for r in 0..5 * m {
                for (a, b) in s.hands(r) {
                    let listed = want.contains(&SafeState {
                        a,
                        b,
                        residue: r % m,
                    });
                    for extra in [0u64, 2] {
                        let (ra, rb) = (a as u64 + extra, b as u64 + extra);
                        let safe = !brute_wins(
                            &mut bo,
                            Variant::Sides,
                            &takes,
                            ra,
                            rb,
                            r as u64,
                            side.other(),
                        );
                        assert_eq!(safe, listed, "k = {k} {side:?} ({ra},{rb},{r})");
                    }
                }
            }
        }
    }
}

/// §六's general statement, for every k ≤ 100: M = 2(k+1) for odd k and k+2
/// for even k, with exactly the listed safe states, from r = 0.
#[test]
fn general_formula_holds_for_k_up_to_100() {
    for k in 1..=100usize {
        let set: Vec<u32> = (1..=k as u32).collect();
        let s = Solution::solve(Variant::Sides, &set, 0, &|_| {});
        let p = s.period.unwrap();
        let (m, odd, even) = solver::article_claim(k);
        assert_eq!(
            (p.period, p.preperiod, p.status),
            (m, 0, crate::period::Status::Proven),
            "k = {k}"
        );
        assert_eq!(s.safe_states(Mover::A).unwrap().0, odd, "k = {k}");
        assert_eq!(s.safe_states(Mover::B).unwrap().0, even, "k = {k}");
    }
}

/// The worked examples of §三 and §五 for k = 3: the class of each state and
/// the moves the article plays, checked on the fast table and, with real
/// hands, on the brute force.
#[test]
fn worked_examples_k3() {
    use Class::*;
    let set = vec![1, 2, 3];
    let takes: Arc<[u32]> = set.clone().into();
    let s = Solution::solve(Variant::Sides, &set, 200, &|_| {});
    let mut bo = brute_solver();
    // (a, b, r, class, a winning move of Odd if Odd moves, of Even if Even moves).
    let examples: &[(u64, u64, u64, Class, Option<u32>, Option<u32>)] = &[
        (0, 0, 2, Neither, Some(1), Some(2)), // §三 1.
        (1, 1, 2, Neither, Some(2), Some(1)), // §三 2.
        (0, 0, 4, AbsoluteA, Some(3), None),  // §三 3.
        (1, 1, 4, AbsoluteB, None, Some(3)),  // §三 4.
        (0, 1, 5, Common, None, None),        // §三 5.
        (1, 0, 5, Neither, Some(1), Some(1)), // §三 6.
        (0, 0, 6, Neither, Some(2), Some(1)), // (0,0,6) and (1,1,6)
        (1, 1, 6, Neither, Some(1), Some(2)),
        (0, 0, 8, AbsoluteB, None, Some(3)), // (0,0,8) and (1,1,8)
        (1, 1, 8, AbsoluteA, Some(3), None),
        (1, 0, 9, Common, None, None),        // §三 7.
        (0, 1, 9, Neither, Some(1), Some(1)), // §三 8.
        (0, 1, 7, Neither, Some(2), Some(2)), // "以 (0,1,7) 來看, 雙方先取 2"
        (0, 0, 12, AbsoluteA, Some(3), None), // §五 一: (0,0,8n+4) → (3,0,8n+1)
        (1, 1, 16, AbsoluteA, Some(3), None), // §五 一: (1,1,8n) → (4,1,8n−3)
        (0, 0, 16, AbsoluteB, None, Some(3)), // §五 一: (0,0,8n) → (0,3,8n−3)
        (1, 1, 12, AbsoluteB, None, Some(3)), // §五 一: (1,1,8n+4) → (1,4,8n+1)
        (1, 0, 17, Common, None, None),       // §五 二
        (0, 1, 13, Common, None, None),
    ];
    for &(a, b, r, class, odd_move, even_move) in examples {
        assert_eq!(s.class(a, b, r), Some(class), "({a},{b},{r})");
        for (m, mv) in [(Mover::A, odd_move), (Mover::B, even_move)] {
            let fast = s.winning_takes(a, b, r, m).unwrap();
            assert_eq!(
                fast,
                brute_moves(&mut bo, Variant::Sides, &takes, a, b, r, m),
                "({a},{b},{r}) {m:?}"
            );
            match mv {
                Some(t) => assert!(
                    fast.contains(&t),
                    "({a},{b},{r}) {m:?}: {t} is not winning; winning: {fast:?}"
                ),
                None => {
                    let wins = s.wins(a, b, r, m).unwrap();
                    assert!(
                        !wins
                            || matches!((class, m), (AbsoluteA, Mover::A) | (AbsoluteB, Mover::B))
                    );
                }
            }
        }
    }
    // §四: from each of Odd's safe states, every move of Even is answered by
    // the move the article names, back into a safe state of Odd (n = 1..5).
    // (state (a, b, residue mod 8), [(Even's take, Odd's reply)]).
    let replies: &[((u64, u64, u64), [(u32, u32); 3])] = &[
        ((0, 0, 4), [(1, 3), (2, 1), (3, 1)]),
        ((0, 1, 5), [(1, 3), (2, 3), (3, 1)]),
        ((1, 1, 0), [(1, 3), (2, 1), (3, 1)]),
        ((1, 0, 1), [(1, 3), (2, 3), (3, 1)]),
    ];
    for &((a, b, c), moves) in replies {
        for n in 1..=5u64 {
            let r = 8 * n + c;
            for (te, to) in moves {
                let (a2, b2, r2) = (a, b + te as u64, r - te as u64);
                let (a3, b3, r3) = (a2 + to as u64, b2, r2 - to as u64);
                // Odd's reply wins, by brute force on the real hands.
                assert!(
                    !brute_wins(&mut bo, Variant::Sides, &takes, a3, b3, r3, Mover::B),
                    "§四 ({a},{b},{r}) E{te} O{to}"
                );
                assert!(s.is_safe((a3 % 2) as u8, (b3 % 2) as u8, r3 as usize, Mover::A));
            }
        }
    }
}

/// The closing remark of the article: "每一安全狀態在對手選取後, 都只有唯一的一種取法才能
/// 正確地回到安全狀態" (after the opponent moves from a safe state, exactly one
/// reply restores a safe state). True for odd k; FALSE for even k — a finding.
#[test]
fn unique_reply_holds_for_odd_k_only() {
    for k in 1..=12usize {
        let set: Vec<u32> = (1..=k as u32).collect();
        let s = Solution::solve(Variant::Sides, &set, 0, &|_| {});
        let m = s.period.unwrap().period;
        let mut several = None;
        for r in 2 * k..2 * k + 2 * m {
            for (a, b) in s.hands(r) {
                for side in [Mover::A, Mover::B] {
                    if !s.is_safe(a, b, r, side) {
                        continue;
                    }
                    for t in 1..=k as u64 {
                        let (a2, b2) = match side.other() {
                            Mover::A => (a as u64 + t, b as u64),
                            Mover::B => (a as u64, b as u64 + t),
                        };
                        let w = s.winning_takes(a2, b2, r as u64 - t, side).unwrap();
                        assert!(!w.is_empty(), "a safe state must keep a winning reply");
                        if w.len() > 1 && several.is_none() {
                            several = Some((a, b, r, t, w));
                        }
                    }
                }
            }
        }
        if k % 2 == 1 {
            assert_eq!(several, None, "k = {k}");
        } else {
            assert!(several.is_some(), "k = {k}: expected a counterexample");
        }
    }
    // The smallest counterexample, by brute force on real hands: k = 2, Odd's
    // safe state (0,1,7) (= (0,1,4n+3)); Even takes 2 → (0,3,5); Odd has two
    // winning replies, 1 → (1,3,4) ≡ (1,1,4n) and 2 → (2,3,3) ≡ (0,1,4n+3).
    let takes: Arc<[u32]> = vec![1, 2].into();
    let mut bo = brute_solver();
    assert!(!brute_wins(
        &mut bo,
        Variant::Sides,
        &takes,
        0,
        1,
        7,
        Mover::B
    ));
    assert_eq!(
        brute_moves(&mut bo, Variant::Sides, &takes, 0, 3, 5, Mover::A),
        vec![1, 2]
    );
}

/// Finding: `odd_wins` is `sides` on the other half of the states. In both,
/// the holder of `a` wins iff `a` ends odd (in `sides` because both hands end
/// with the same parity, in `odd_wins` because exactly one ends odd), so
/// `odd_wins` at (a, b, r) with A to move is `sides` at (a, b + 1, r) with Odd
/// to move, and the two variants have the same modulus for every take set.
#[test]
fn odd_wins_is_sides_with_b_shifted() {
    for set in rule_sets()
        .into_iter()
        .chain([vec![1, 3, 4, 5, 6], vec![1, 2, 4, 8, 16]])
    {
        let sd = Solution::solve(Variant::Sides, &set, 300, &|_| {});
        let ow = Solution::solve(Variant::OddWins, &set, 300, &|_| {});
        for r in 0..=300u64 {
            for a in 0..2u64 {
                let b = (a + r + 1) % 2; // a + b + r odd
                assert_eq!(
                    ow.wins(a, b, r, Mover::A),
                    sd.wins(a, b + 1, r, Mover::A),
                    "{set:?} ({a},{b},{r})"
                );
                // B to move in odd_wins is A's opponent: Even in sides.
                assert_eq!(
                    ow.wins(a, b, r, Mover::B),
                    sd.wins(a, b + 1, r, Mover::B),
                    "{set:?} ({a},{b},{r})"
                );
            }
        }
        let (p, q) = (sd.period.unwrap(), ow.period.unwrap());
        assert_eq!((p.period, p.preperiod), (q.period, q.preperiod), "{set:?}");
    }
}

/// The opening example (§一): 17 stones, take 1..3, an odd hand wins.
#[test]
fn opening_example_odd_wins() {
    let set = vec![1, 2, 3];
    let takes: Arc<[u32]> = set.clone().into();
    let s = Solution::solve(Variant::OddWins, &set, 100, &|_| {});
    let p = s.period.unwrap();
    assert_eq!(
        (p.period, p.preperiod),
        (8, 0),
        "「這遊戲的安全狀態以模8的同餘呈現」"
    );
    let mut bo = brute_solver();
    // The first player wins 17, and the only winning move is to take 1.
    assert!(s.wins(0, 0, 17, Mover::A).unwrap());
    assert_eq!(s.winning_takes(0, 0, 17, Mover::A).unwrap(), vec![1]);
    assert_eq!(
        brute_moves(&mut bo, Variant::OddWins, &takes, 0, 0, 17, Mover::A),
        vec![1]
    );
    // Rules 1 and 2: after your move, with your hand odd leave 8n or 8n+1, with
    // your hand even leave 8n+4 or 8n+5 (which one depends on the opponent's
    // parity, since the total is odd): safe states (mine, theirs, r).
    let (list, exc) = s.safe_states(Mover::A).unwrap();
    assert!(exc.is_empty());
    let want = vec![
        SafeState {
            a: 0,
            b: 0,
            residue: 5,
        },
        SafeState {
            a: 0,
            b: 1,
            residue: 4,
        },
        SafeState {
            a: 1,
            b: 0,
            residue: 0,
        },
        SafeState {
            a: 1,
            b: 1,
            residue: 1,
        },
    ];
    assert_eq!(list, want);
    // Rule 4: from (0, 0, r), r odd, the first player loses exactly when r ≡ 5 (mod 8).
    for r in (1..=101u64).step_by(2) {
        let first_wins = brute_wins(&mut bo, Variant::OddWins, &takes, 0, 0, r, Mover::A);
        assert_eq!(first_wins, r % 8 != 5, "r = {r}");
        assert_eq!(s.wins(0, 0, r, Mover::A), Some(first_wins));
    }
}

/// Periods are minimal (no smaller p and no smaller preperiod fits a table
/// ten times longer) and proven (the longer table agrees with the reduction).
#[test]
fn periods_minimal_and_proven() {
    let mut sets = rule_sets();
    sets.extend([
        vec![1, 7],
        vec![1, 2, 9],
        vec![1, 10, 11],
        (1..=17).collect(),
    ]);
    for set in sets {
        for v in [Variant::Sides, Variant::OddWins] {
            let s = Solution::solve(v, &set, 0, &|_| {});
            let p = s.period.unwrap();
            assert_eq!(p.status, crate::period::Status::Proven);
            let long = solver::table(v, &set, 10 * s.bits.len());
            let (n0, m) = (p.preperiod, p.period);
            for r in n0..long.len() - m {
                assert_eq!(long[r], long[r + m], "{v:?} {set:?}: r = {r}, M = {m}");
            }
            // The reduction reproduces every far value.
            for r in 0..long.len() {
                assert_eq!(s.byte(r as u64), Some(long[r]), "{v:?} {set:?} r = {r}");
            }
            if n0 > 0 {
                assert_ne!(
                    long[n0 - 1],
                    long[n0 - 1 + m],
                    "{v:?} {set:?}: preperiod not minimal"
                );
            }
            for q in 1..m {
                assert!(
                    (n0..long.len() - q).any(|r| long[r] != long[r + q]),
                    "{v:?} {set:?}: {q} < {m} is a period"
                );
            }
        }
    }
}

/// The datasets: schema, one safe-list row per side, the claims' verdicts.
#[test]
fn datasets_and_claims() {
    let out = run_yaml("variant: [sides, odd_wins]\nk: [3, 4]\nr: 0..20\n");
    let lists = dataset(&out, "safe_lists");
    assert_eq!(lists.rows(), 2 * 2 + 2);
    for i in 0..lists.rows() {
        if s(lists, "variant", i) == "sides" {
            assert_eq!(s(lists, "matches_article", i), "yes");
        }
    }
    assert_eq!(
        s(lists, "states", 0),
        "(0,0,8n+4), (0,1,8n+5), (1,0,8n+1), (1,1,8n)"
    );
    assert_eq!(s(lists, "absolute", 0), "(0,0,8n+4), (1,1,8n)");
    assert_eq!(s(lists, "common", 0), "(0,1,8n+5), (1,0,8n+1)");
    let moduli = dataset(&out, "moduli");
    assert_eq!(moduli.rows(), 4);
    assert_eq!(
        (int(moduli, "period", 0), s(moduli, "claim", 0).as_str()),
        (8, "holds")
    );
    assert_eq!(
        (int(moduli, "period", 1), s(moduli, "claim", 1).as_str()),
        (6, "holds")
    );
    assert_eq!(s(moduli, "states_claim", 1), "holds");
    assert_eq!(
        s(moduli, "start", 0),
        "0: absolute_even; 2: neither; 4: absolute_odd; 6: neither"
    );
    assert_eq!(s(moduli, "variant", 2), "odd_wins");
    assert_eq!(s(moduli, "claim", 2), "holds"); // k = 3, "mod 8"
    assert_eq!(s(moduli, "claim", 3), "no claim");
    let at = run_yaml("k: 3\nr: 0..20\nat: [[0, 0, 4], [1, 0, 9]]\n");
    let pos = dataset(&at, "positions");
    // (0,0,4): Odd wins whoever moves; Odd's winning move 3.
    assert_eq!(
        (
            s(pos, "mover", 0),
            s(pos, "winner", 0),
            s(pos, "winning_takes", 0),
            s(pos, "state_class", 0)
        ),
        (
            "odd".into(),
            "odd".into(),
            "3".into(),
            "absolute_odd".into()
        )
    );
    assert_eq!(
        (s(pos, "winner", 1), s(pos, "winning_takes", 1)),
        ("odd".into(), "".into())
    );
    assert_eq!(s(pos, "state_class", 2), "common");
    let pattern = dataset(&out, "pattern");
    assert!(pattern.names().contains(&"strip") && pattern.rows() > 0);
}

/// Take sets: parsing, `subsets_of`, and the errors that name their field.
#[test]
fn spec_parsing_and_errors() {
    let plan = plan_yaml("take: {subsets_of: 5}\nr: 0..10\n").unwrap();
    assert_eq!(plan.cases.len(), 16);
    let plan = plan_yaml(
        "variant: [sides, odd_wins]\ntake: [{max: 3}, {set: [1, 3, 4]}, {set: [3, 1, 1]}]\n",
    )
    .unwrap();
    assert_eq!(plan.cases.len(), 6);
    assert!(plan.cases[1].key().contains("take=set:1,3,4"));
    let e = plan_yaml("take: {set: [2, 3]}\n").err().unwrap();
    assert_eq!(e.field, "take.set");
    assert!(e.message.contains("must contain 1"), "{e}");
    let e = plan_yaml("take: [{max: 3}, {set: [[1, 2], [2, 5]]}]\n")
        .err()
        .unwrap();
    assert_eq!(e.field, "take[1].set[1]");
    let e = plan_yaml("take: {min: 2, max: 5}\n").err().unwrap();
    assert_eq!(e.field, "take.min");
    let e = plan_yaml("k: 3\ntake: {max: 3}\n").err().unwrap();
    assert_eq!(e.field, "take");
    let e = plan_yaml("k: 3\nat: [[0, 0, 4], [0, 0, 5]]\n")
        .err()
        .unwrap();
    assert_eq!(e.field, "at[1]");
    let e = plan_yaml("k: 3\nvariant: both\n").err().unwrap();
    assert_eq!(e.field, "variant");
    let e = plan_yaml("r: 0..5\n").err().unwrap();
    assert!(e.message.contains("missing field `k`"), "{e}");
    let e = plan_yaml("k: 3\nfoo: 1\n").err().unwrap();
    assert_eq!(e.field, "foo");
}

fn solve_json(args: &[&str]) -> anyhow::Result<serde_json::Value> {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let v = crate::params::cli_to_map(&args, super::solve::CLI_ARGS)?;
    let node = Node::root(&v, crate::params::COMMAND_LINE);
    Ok(Parity.solve(&node, UNWATCHED)?.json)
}

/// `nimlab solve parity`: both first movers, winning moves, hands, huge piles.
#[test]
fn solve_answers() {
    let j = solve_json(&["--variant", "sides", "--k", "3", "--r", "10"]).unwrap();
    assert_eq!(j["details"]["class"], "neither");
    assert_eq!(j["details"]["movers"][0]["mover"], "odd");
    assert_eq!(j["details"]["movers"][0]["winning_moves"][0]["take"], 1);
    assert_eq!(
        j["details"]["movers"][1]["winning_moves"][0]["to"],
        serde_json::json!({"a": 0, "b": 2, "r": 8, "mover": "odd"})
    );
    // Each mover's moves lead where the top-level ones do, in the same shape.
    assert_eq!(
        j["details"]["movers"][0]["winning_moves"][0]["to"],
        j["winning_moves"][0]["to"]
    );
    // With hands: (1,1,8) is an absolute safe state of Odd; Odd's move is 3.
    let j = solve_json(&["--k", "3", "--r", "8", "--a", "1", "--b", "1"]).unwrap();
    assert_eq!(j["details"]["class"], "absolute_odd");
    assert_eq!(j["details"]["movers"][0]["winning_moves"][0]["take"], 3);
    // Far beyond any table: reduced by the proven period, same answer as r = 8.
    let j = solve_json(&["--k", "3", "--r", "800000000000008", "--a", "3", "--b", "5"]).unwrap();
    assert_eq!(j["details"]["class"], "absolute_odd");
    // odd_wins, the opening example.
    let j = solve_json(&[
        "--variant",
        "odd_wins",
        "--take",
        "1,2,3",
        "--r",
        "17",
        "--mover",
        "a",
    ])
    .unwrap();
    assert_eq!(j["details"]["movers"].as_array().unwrap().len(), 1);
    assert_eq!(j["details"]["movers"][0]["winner"], "a");
    // Errors.
    assert!(
        solve_json(&["--k", "3", "--r", "9"])
            .unwrap_err()
            .to_string()
            .contains("must be even")
    );
    assert!(
        solve_json(&["--take", "2,3", "--r", "10"])
            .unwrap_err()
            .to_string()
            .contains("must contain 1")
    );
}

/// A large rule: k = 100, r ≤ 10^6 gets its proven period, 102 = k + 2
/// (its speed is measured by benchmarks, not here: a timed test fails on a
/// loaded machine).
#[test]
fn large_rule_period() {
    let set: Vec<u32> = (1..=100).collect();
    let s = Solution::solve(Variant::Sides, &set, 1_000_000, &|_| {});
    assert_eq!(s.period.unwrap().period, 102);
}

/// Reasons computed by hand from the rules (GAMES.md §2).
#[test]
fn explain_lists_every_take_and_who_wins() {
    use crate::data::{StrVec, Table, Values};
    use crate::family::Family;
    let row = |variant: &str, take: &str, r: i64, a: i64, b: i64, mover: &str| {
        let s = |x: &str| Values::Str([x].into_iter().collect::<StrVec>());
        Table::new()
            .with("variant", s(variant))
            .with("take", s(take))
            .with("r", Values::Int(vec![r]))
            .with("a_parity", Values::Int(vec![a]))
            .with("b_parity", Values::Int(vec![b]))
            .with("mover", s(mover))
    };
    let why = |t: &Table| super::Parity.explain("outcome", t, 0);
    // Takes 1..2, (0,0,2), Odd to move: 1 leaves (1,0,1) where Even must take 1 and
    // both hands end odd (Odd wins); 2 leaves (0,0,0): both even, Even wins.
    assert_eq!(
        why(&row("sides", "max:2", 2, 0, 0, "odd")).as_deref(),
        Some(
            "Odd to move at (0,0,2): take 1 → (1,0,1), Even to move: the taker wins; \
             take 2 → (0,0,0), Even to move: the opponent wins; winning takes: 1"
        )
    );
    // The same state with Even to move: 1 leaves (0,1,1), Odd takes the last stone and
    // both hands are odd; 2 leaves both hands even.
    assert_eq!(
        why(&row("sides", "max:2", 2, 0, 0, "even")).as_deref(),
        Some(
            "Even to move at (0,0,2): take 1 → (0,1,1), Odd to move: the opponent wins; \
             take 2 → (0,0,0), Odd to move: the taker wins; winning takes: 2"
        )
    );
    // Takes 1..3, one stone, both hands even, whoever holds an odd hand wins: taking it
    // makes the taker's hand odd.
    assert_eq!(
        why(&row("odd_wins", "max:3", 1, 0, 0, "mover")).as_deref(),
        Some(
            "the player to move at (0,0,1): take 1 → (0,1,0) for the other player: the taker wins; \
             winning takes: 1"
        )
    );
    // Takes 1..1, (1,0,1) with Odd to move: the only take leaves (0,0,0), Even's win.
    assert_eq!(
        why(&row("sides", "max:1", 1, 1, 0, "odd")).as_deref(),
        Some(
            "Odd to move at (1,0,1): take 1 → (0,0,0), Even to move: the opponent wins; \
             no take wins: every take leaves a state the opponent wins"
        )
    );
    assert_eq!(why(&row("sides", "bogus", 1, 1, 0, "odd")), None);
}

/// The rows a case states for the memory and output estimates are the rows
/// it writes: per pile size two hand parities (the total's parity fixes
/// a + b's), times two movers for `sides` and one for `odd_wins`.
#[test]
fn stated_outcome_rows_are_the_rows_written() {
    for (variant, per_r) in [("sides", 4), ("odd_wins", 2)] {
        let yaml = format!("variant: {variant}\nk: 3\nr: 0..9\n");
        let plan = plan_yaml(&yaml).unwrap();
        let stated: u64 = plan.cases[0]
            .cost(None)
            .rows
            .iter()
            .filter(|(d, _)| *d == "outcome")
            .map(|(_, n)| n)
            .sum();
        assert_eq!(stated, 10 * per_r);
        let out = run_yaml(&yaml);
        assert_eq!(dataset(&out, "outcome").rows() as u64, 10 * per_r);
    }
}

/// The drawing of an `outcome` row, built by hand from the rules: in the
/// sides game with takes 1..2, the state (0,1,5) with Odd to move is a pile
/// of 5 stones, Odd's hand even (drawn as no stone, its parity), Even's odd
/// (one stone); the widest stone column is the pile's 5.
#[test]
fn draws_an_outcome_row() {
    let out = run_yaml("variant: sides\nk: 2\nr: 0..6\nstrip_k: none\n");
    let t = dataset(&out, "outcome");
    let row = (0..t.rows())
        .find(|&i| {
            int(t, "r", i) == 5
                && int(t, "a_parity", i) == 0
                && int(t, "b_parity", i) == 1
                && s(t, "mover", i) == "odd"
        })
        .unwrap();
    let want = concat!(
        "  pile                5  ●●●●●\n",
        "  Odd's hand          0         even\n",
        "  Even's hand         1  ●      odd\n",
        "  Odd to move; a move takes 1..2 from the pile\n",
    );
    assert_eq!(Parity.draw("outcome", t, row).as_deref(), Some(want));
    // A row of a dataset without a state is not drawn.
    let m = dataset(&out, "moduli");
    assert_eq!(Parity.draw("moduli", m, 0), None);
}

/// How long the game lasts after each take, against a hand count: in
/// odd_wins with takes 1..3, the player to move at (1,0,4) (their hand odd,
/// the other's even) loses whatever they take. Taking 1 leaves (0,0,3) to
/// the opponent, who takes 3 and ends with an odd hand: 2 moves. Taking 3
/// leaves (0,0,1): the opponent takes the last stone, 2 moves. Taking 2
/// leaves (0,1,2) (the opponent's hand even, ours odd): the opponent must
/// take 1 (taking 2 would leave both hands even and lose) to (1,1,1), and
/// the last stone makes 3 moves.
#[test]
fn remoteness_account_of_a_lost_state() {
    let s = super::explain::State {
        a: 1,
        b: 0,
        r: 4,
        odd_to_move: true,
    };
    assert_eq!(
        super::explain::lengths(Variant::OddWins, &[1, 2, 3], s).as_deref(),
        Some(
            "the player to move at (1,0,4) loses whatever they take: taking 1 ends the game in 2 moves, \
             taking 2 ends the game in 3 moves, taking 3 ends the game in 2 moves; the longest delay is taking 2"
        )
    );
}

/// The bytes of a table's typed vectors, counted from its columns' lengths
/// (an integer 8, a vocabulary's code 1, a label's code 4, a list's offset
/// and each item 8, a value held once for every row as that one value): for
/// the memory estimate's count of the tables.
fn typed_bytes(t: &Table) -> u64 {
    t.columns().iter().map(|(_, v)| values_bytes(v)).sum()
}

fn values_bytes(v: &crate::data::Values) -> u64 {
    use crate::data::Values;
    let n = v.len() as u64;
    match v {
        Values::Int(_) => 8 * n,
        Values::Enum(_) => n,
        Values::Dict(_) => 4 * n,
        Values::IntList(l) => 8 * (n + 1) + 8 * l.parts().1.len() as u64,
        Values::Repeat(one, _) => values_bytes(one),
        other => panic!("a column of outcome or remoteness as {other:?}"),
    }
}

/// The expected peak counts a parity case's `outcome` and `remoteness`
/// tables at their typed vectors' bytes: a row of `outcome` is the rule
/// (variant 1, take 4, k 8), the keys (r, a_parity, b_parity 8 each, mover
/// 1), winner, outcome and state_class (1 each), the winning takes' offset
/// and one take (8 + 8): 57 bytes; a row of `remoteness` 13 + 25 + 1 + 8 =
/// 47. The writer's two labels are held once a table (4 bytes each), not a
/// row. With an odd k a row has at most one winning take, so the count is
/// exact but for the takes the rows without one do not use.
#[test]
fn table_bytes_count_the_typed_vectors() {
    assert_eq!(
        (cases::OUTCOME_ROW_BYTES, cases::REMOTENESS_ROW_BYTES),
        (57, 47)
    );
    let yaml = "variant: [sides, odd_wins]\nk: 3\nr: 0..100\n";
    let asked = ["remoteness".to_string()];
    let plan = plan_asking(yaml, &asked).unwrap();
    let out = run_asking(yaml, &asked);
    let ds = |n: &str| *Parity.datasets().iter().find(|d| d.name == n).unwrap();
    let (outcome, remoteness) = (dataset(&out, "outcome"), dataset(&out, "remoteness"));
    // sides: 101 piles × 2 hand parities × 2 movers; odd_wins: × 1 mover.
    assert_eq!(outcome.rows(), 101 * 4 + 101 * 2);
    let counted = |name: &str| -> u64 {
        plan.cases
            .iter()
            .map(|c| c.cost(None))
            .flat_map(|c| c.rows.clone().into_iter().map(move |r| (c.clone(), r)))
            .filter(|(_, (d, _))| *d == name)
            .map(|(c, (_, n))| c.table_bytes_of(ds(name), n))
            .sum()
    };
    // As the writer holds them: with the two labels (one code each, held
    // once for every row).
    let written = |t: &Table| {
        t.clone()
            .with_label("experiment", "e")
            .with_label("sweep", "s")
    };
    let (outcome_w, remoteness_w) = (written(outcome), written(remoteness));
    assert_eq!(typed_bytes(&outcome_w), typed_bytes(outcome) + 8);
    let Some((_, crate::data::Values::IntList(takes))) =
        outcome.columns().iter().find(|(n, _)| n == "winning_takes")
    else {
        panic!("winning_takes is a list of integers")
    };
    // With k = 3 a row has one winning take or none (a loss, or an empty
    // pile, where the game is over).
    assert!((0..takes.len()).all(|i| takes.row_len(i) <= 1));
    let empty = (0..takes.len()).filter(|&i| takes.row_len(i) == 0).count() as u64;
    assert!(empty > 0 && empty < outcome.rows() as u64 / 2);
    // The cases' tables appended into one: one offset more than rows; the
    // labels' 8 bytes once, not a row.
    assert_eq!(
        counted("outcome"),
        typed_bytes(&outcome_w) - 8 - 8 + 8 * empty
    );
    assert_eq!(counted("remoteness"), typed_bytes(&remoteness_w) - 8);
    // Others at their declared sizes.
    let positions = ds("positions");
    assert_eq!(
        plan.cases[0].cost(None).table_bytes_of(positions, 7),
        7 * positions.row_bytes()
    );
}

/// Counterexamples in moves, by hand (GAMES.md §2). Takes 1..2, (0,0,2) with
/// Odd to move: taking 1 leaves (1,0,1), Even must take the last stone and
/// both hands end odd, Odd's win; taking 2 leaves both hands even, Even's
/// win. Takes 1..1, (1,0,1), Odd to move: the only take leaves (0,0,0).
#[test]
fn counterexamples_are_explained_by_their_takes() {
    use crate::data::{StrVec, Table, Values};
    use crate::family::Family as _;
    let row = |take: &str, r: i64, a: i64, mover: &str| {
        let s = |x: &str| Values::Str([x].into_iter().collect::<StrVec>());
        Table::new()
            .with("variant", s("sides"))
            .with("take", s(take))
            .with("r", Values::Int(vec![r]))
            .with("a_parity", Values::Int(vec![a]))
            .with("b_parity", Values::Int(vec![0]))
            .with("mover", s(mover))
    };
    let a = super::Parity
        .capabilities()
        .explains_moves
        .expect("explains moves")("outcome", &row("max:2", 2, 0, "odd"), 0)
    .expect("an account");
    assert_eq!(
        a.text(),
        "Odd to move at (0,0,2) has 2 moves. 1 move reaches a state the opponent loses: \
         taking 1 leaves (1,0,1), Even to move. 1 move reaches a state the opponent wins: \
         taking 2 leaves (0,0,0), Even to move. Odd to move at (0,0,2) wins: taking 1 leaves \
         (1,0,1), Even to move, which the opponent loses"
    );
    let a = super::Parity
        .capabilities()
        .explains_moves
        .expect("explains moves")("outcome", &row("max:1", 1, 1, "odd"), 0)
    .expect("an account");
    assert_eq!(a.moves(), 1);
    assert_eq!(
        a.conclusion,
        "every take leaves a state the opponent wins: Odd to move at (1,0,1) loses"
    );
    // Remoteness rows keep their account of the game's length.
    assert_eq!(
        super::Parity
            .capabilities()
            .explains_moves
            .expect("explains moves")("remoteness", &row("max:1", 1, 1, "odd"), 0),
        None
    );
}
