//! `toy`: a test-only family (compiled under `cfg(test)`), the subtraction
//! game "take 1..k stones from one heap", whose values are known by hand:
//! the Grundy value of N is `N mod (k+1)`, so N is a P-position exactly when
//! k+1 divides it, and the winning take from N is `N mod (k+1)`.
//!
//! It exists to drive the whole pipeline (plan → solve → store → render →
//! check → report) in-process in tests (`src/pipeline_tests.rs`), and it
//! follows the README's "Adding a game family" recipe: this folder, one
//! line in the registry, its datasets and views, its kernel
//! ([`kernels`]) with a probe, each case's work, memory and rows, and tests.
//! Being test-only, it has no docs page, no `solve` answers (so no part of
//! the solve schema) and no spec under `experiments/`.
//!
//! ```yaml
//! family: toy
//! reach: 1..3      # largest take k
//! pebbles: 0..12   # pile sizes N
//! ```
//!
//! Its datasets and columns (`toy_piles`, `toy_cycles`, `toy_game`, `reach`,
//! `pebbles`, `good_grabs`) are names no real family uses, so the pipeline
//! tests show that the core reads roles, not names.

use crate::data::{Column, Dataset, DictVec, Dtype, EnumVec, IntListVec, Role, Table, Values};
use crate::family::{Answer, Case, CaseCtx, Cost, Family, Output, Plan, Planning};
use crate::game::{GRUNDY_COLUMN, OUTCOME_COLUMN, OUTCOMES, outcome_code};
use crate::params::{Node, SWEEP_KEYS, SpecError};
use crate::period::{PERIOD_COLUMNS, Period, PeriodRows, Status};
use crate::view::{View, ViewKind};

pub(crate) mod kernels;

/// The family.
pub struct Toy;

/// The sweep its probe solves: three rules on 1,001 pile sizes each.
const PROBE: &str = "reach: 1..3\npebbles: 0..1000\n";

static RULE: &[Column] = &[
    Column::new("toy_game", Dtype::Cat, Role::Label, "the game, `take 1..k`"),
    Column::new("reach", Dtype::Int, Role::Param, "the largest take k"),
];

static POSITION: &[Column] = &[
    Column::new("pebbles", Dtype::Int, Role::Position, "the pile size"),
    OUTCOME_COLUMN,
    GRUNDY_COLUMN,
    Column::new(
        "good_grabs",
        Dtype::IntList,
        Role::Result,
        "the winning takes",
    ),
];

/// `positions`: one row per rule and heap size.
pub static POSITIONS: Dataset = Dataset {
    name: "toy_piles",
    doc: "One row per rule and heap size.",
    groups: &[RULE, POSITION],
};

/// `periods`: one row per rule.
pub static PERIODS: Dataset = Dataset {
    name: "toy_cycles",
    doc: "One row per rule: the period of the outcomes.",
    groups: &[RULE, PERIOD_COLUMNS],
};

static DATASETS: &[&Dataset] = &[&POSITIONS, &PERIODS];

/// Report-style table: rows N, columns the rule, the winning takes (`E` for P).
pub static WINNING_TABLE: View = View {
    name: "winning_table",
    title: "Winning takes (E: P-position)",
    dataset: "toy_piles",
    kind: ViewKind::Grid {
        row: "pebbles",
        column: "toy_game",
        cell: "good_grabs",
        empty: "E",
        facet: None,
    },
    only: &[],
};

/// The period table.
pub static PERIOD_TABLE: View = View {
    name: "period_table",
    title: "Periods",
    dataset: "toy_cycles",
    kind: ViewKind::Listing {
        columns: &["toy_game", "period", "preperiod", "status", "closed_form"],
        filter: &[],
    },
    only: &[],
};

static VIEWS: &[&View] = &[&WINNING_TABLE, &PERIOD_TABLE];

/// One rule on the sweep's heap sizes.
struct ToyCase {
    k: i64,
    ns: Vec<i64>,
    /// Emit an undeclared column (to test that the driver refuses it).
    bad: bool,
}

impl ToyCase {
    fn positions(&self) -> Table {
        let q = self.k + 1;
        let n = self.ns.len();
        let mut outcome = EnumVec::new(OUTCOMES, n);
        let mut takes = IntListVec::default();
        for &x in &self.ns {
            outcome.push(outcome_code(x % q == 0));
            match x % q {
                0 => takes.push(&[]),
                t => takes.push(&[t]),
            }
        }
        Table::new()
            .with(
                "toy_game",
                Values::Dict(DictVec::repeat(&format!("take 1..{}", self.k), n)),
            )
            .with("reach", Values::Int(vec![self.k; n]))
            .with("pebbles", Values::Int(self.ns.clone()))
            .with("outcome", Values::Enum(outcome))
            .with(
                "grundy",
                Values::Int(self.ns.iter().map(|x| x % q).collect()),
            )
            .with("good_grabs", Values::IntList(takes))
    }
    fn periods(&self) -> Table {
        let q = self.k + 1;
        let p = Period {
            preperiod: 0,
            period: q as usize,
            status: Status::Proven,
            end: *self.ns.last().unwrap_or(&0) as usize,
        };
        let mut rows = PeriodRows::default();
        let form = format!("pebbles ≥ 0 and pebbles mod {q} ∈ {{0}}");
        rows.push(Some(&p), "by hand: G(N) = N mod (k+1)", Some(&form));
        rows.into_table(
            Table::new()
                .with(
                    "toy_game",
                    Values::Dict(DictVec::repeat(&format!("take 1..{}", self.k), 1)),
                )
                .with("reach", Values::Int(vec![self.k])),
        )
    }
}

impl Case for ToyCase {
    fn key(&self) -> String {
        format!("toy/k={}/N={:?}", self.k, self.ns)
    }
    fn cost(&self, _keep: Option<&[String]>) -> Cost {
        let n = self.ns.len() as u64;
        Cost {
            size: n,
            work: vec![(kernels::TOY, n)],
            // Nothing but its two tables, before they are written.
            memory_bound: n * POSITIONS.row_bytes() + PERIODS.row_bytes(),
            rows: vec![(POSITIONS.name, n), (PERIODS.name, 1)],
            ..Cost::default()
        }
    }
    fn solve(&self, ctx: &CaseCtx<'_>) -> anyhow::Result<Output> {
        (ctx.progress)(self.ns.len() as u64);
        let mut pos = self.positions();
        if self.bad {
            pos.push("surprise", Values::Int(vec![0; pos.rows()]));
        }
        Ok(vec![(&POSITIONS, pos), (&PERIODS, self.periods())])
    }
}

/// Plans made of each sweep, by its name: a test holds that a run plans
/// each sweep once.
static PLANS: std::sync::Mutex<Vec<(String, usize)>> = std::sync::Mutex::new(Vec::new());

fn count_plan(sweep: &Node<'_>) {
    let Some(name) = sweep
        .get("name")
        .and_then(|n| n.str().ok().map(str::to_string))
    else {
        return;
    };
    let mut plans = PLANS.lock().unwrap_or_else(|p| p.into_inner());
    match plans.iter_mut().find(|(n, _)| *n == name) {
        Some((_, k)) => *k += 1,
        None => plans.push((name, 1)),
    }
}

/// How many times a sweep named `name` was planned in this process.
pub fn plans_of(name: &str) -> usize {
    let plans = PLANS.lock().unwrap_or_else(|p| p.into_inner());
    plans.iter().find(|(n, _)| n == name).map_or(0, |(_, k)| *k)
}

impl Family for Toy {
    fn name(&self) -> &'static str {
        "toy"
    }
    fn about(&self) -> &'static str {
        "Test-only: take 1..k stones from one heap."
    }
    fn params_help(&self) -> &'static str {
        "reach: largest take (values, lists or ranges)\npebbles: pile sizes"
    }
    fn datasets(&self) -> &'static [&'static Dataset] {
        DATASETS
    }
    fn views(&self) -> &'static [&'static View] {
        VIEWS
    }
    fn plan(&self, sweep: &Node<'_>, _: Planning<'_>) -> Result<Plan, SpecError> {
        count_plan(sweep);
        let mut allowed = SWEEP_KEYS.to_vec();
        allowed.extend(["reach", "pebbles", "bad"]);
        sweep.expect_keys(&allowed)?;
        let ks = sweep.req("reach", "the largest take")?.ints(1, 100)?;
        let ns = sweep.req("pebbles", "pile sizes")?.ints(0, 1 << 20)?;
        let bad = sweep
            .get("bad")
            .map(|b| b.bools())
            .transpose()?
            .is_some_and(|b| b[0]);
        Ok(Plan {
            cases: ks
                .into_iter()
                .map(|k| {
                    Box::new(ToyCase {
                        k,
                        ns: ns.clone(),
                        bad,
                    }) as Box<dyn Case>
                })
                .collect(),
            views: vec![&WINNING_TABLE, &PERIOD_TABLE],
            notes: vec![],
            grid: vec![],
        })
    }
    fn probes(&self) -> Vec<crate::family::calibration::Probe> {
        use crate::family::calibration::{Probe, probe_sweep};
        vec![Probe {
            kernel: kernels::TOY,
            run: || probe_sweep(&Toy, PROBE, kernels::TOY),
        }]
    }
    fn solve_schema(&self) -> &'static str {
        // It answers no position: nothing beyond the shared shape.
        "{}"
    }
    fn solve(&self, _: &Node<'_>, _: &dyn super::watch::Watch) -> anyhow::Result<Answer> {
        anyhow::bail!("the toy family answers no single position")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The probe states 3 × 1,001 pile sizes (by hand: three rules on
    /// 0..=1000), and each case's rows are those its tables hold.
    #[test]
    fn the_probe_states_its_work_and_cases_their_rows() {
        let probe = &Toy.probes()[0];
        assert_eq!(probe.kernel, kernels::TOY);
        assert_eq!((probe.run)().unwrap(), 3 * 1001);
        assert!(crate::family::calibration::kernels().contains(&kernels::TOY));
        let v = crate::params::parse_yaml(PROBE, "probe.yaml").unwrap();
        let plan = Toy
            .plan(&Node::root(&v, "probe.yaml"), Planning::SOLVE)
            .unwrap();
        let cancel = std::sync::atomic::AtomicBool::new(false);
        let ctx = CaseCtx {
            progress: &|_| {},
            cancel: &cancel,
            keep: None,
        };
        for case in &plan.cases {
            let out = case.solve(&ctx).unwrap();
            let made: Vec<(&str, u64)> =
                out.iter().map(|(d, t)| (d.name, t.rows() as u64)).collect();
            assert_eq!(made, case.cost(None).rows);
        }
    }

    /// A pile of `n` stones under "take 1..k": the plain position of the
    /// recipe's step 10, solved by the brute-force game tree.
    #[derive(Clone, PartialEq, Eq, Hash)]
    struct Pile {
        n: i64,
        k: i64,
    }

    impl crate::game::Game for Pile {
        type Move = i64;
        fn moves(&self) -> Vec<(i64, Pile)> {
            let k = self.k;
            (1..=k.min(self.n))
                .map(|t| (t, Pile { n: self.n - t, k }))
                .collect()
        }
    }

    /// The toy's rows (its fast path, `N mod (k+1)`) against the game tree:
    /// every pile's Grundy value, outcome and winning takes, k = 1..=4.
    #[test]
    fn rows_match_the_brute_force_game_tree() {
        use crate::data::Cell;
        use crate::game::{BruteGrundy, BruteOutcome, Play};
        for k in 1..=4 {
            let case = ToyCase {
                k,
                ns: (0..=30).collect(),
                bad: false,
            };
            let t = case.positions();
            let mut grundy = BruteGrundy::<Pile>::default();
            let mut outcome = BruteOutcome::<Pile>::new(Play::Normal);
            for (row, &n) in case.ns.iter().enumerate() {
                let pile = Pile { n, k };
                let g = i64::from(grundy.grundy(&pile));
                assert_eq!(t.int("grundy", row), Some(g), "k = {k}, N = {n}");
                let p = outcome.is_p(&pile);
                let want = if p { "P" } else { "N" };
                assert_eq!(t.text("outcome", row), Some(want), "k = {k}, N = {n}");
                let wins = outcome.winning_moves(&pile);
                assert_eq!(
                    t.cell("good_grabs", row),
                    Some(Cell::IntList(&wins)),
                    "k = {k}, N = {n}"
                );
            }
        }
    }

    #[test]
    fn a_family_without_a_game_says_it_cannot_be_played() {
        let v = serde_json::json!({"reach": 3});
        let e = Toy
            .play(&Node::root(&v, "<command line>"))
            .err()
            .expect("the toy family has no game");
        assert_eq!(e.to_string(), "the family `toy` cannot be played");
    }
}
