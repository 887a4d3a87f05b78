//! `toy`: a test-only family (compiled under `cfg(test)`), the subtraction
//! game "take 1..k stones from one heap", whose values are known by hand:
//! the Grundy value of N is `N mod (k+1)`, so N is a P-position exactly when
//! k+1 divides it, and the winning take from N is `N mod (k+1)`.
//!
//! It exists to drive the whole pipeline (plan → solve → store → render →
//! check → report) in-process in tests (`src/pipeline_tests.rs`), and it follows the README's
//! "Adding a game family" recipe: this folder and one line in the registry.
//!
//! ```yaml
//! family: toy
//! k: 1..3        # largest take
//! N: 0..12       # heap sizes
//! ```

use crate::data::{Column, Dataset, DictVec, Dtype, EnumVec, IntListVec, Role, Table, Values};
use crate::family::{Answer, Case, CaseCtx, Family, Output, Plan};
use crate::game::{GRUNDY_COLUMN, OUTCOME_COLUMN, OUTCOMES, outcome_code};
use crate::params::{Node, SWEEP_KEYS, SpecError};
use crate::period::{PERIOD_COLUMNS, Period, PeriodRows, Status};
use crate::view::{View, ViewKind};

/// The family.
pub struct Toy;

static RULE: &[Column] = &[
    Column::new("rule", Dtype::Cat, Role::Label, "the rule, `take 1..k`"),
    Column::new("k", Dtype::Int, Role::Param, "the largest take"),
];

static POSITION: &[Column] = &[
    Column::new("N", Dtype::Int, Role::Position, "the heap size"),
    OUTCOME_COLUMN,
    GRUNDY_COLUMN,
    Column::new(
        "winning_takes",
        Dtype::IntList,
        Role::Result,
        "the winning takes",
    ),
];

/// `positions`: one row per rule and heap size.
pub static POSITIONS: Dataset = Dataset {
    name: "positions",
    doc: "One row per rule and heap size.",
    groups: &[RULE, POSITION],
};

/// `periods`: one row per rule.
pub static PERIODS: Dataset = Dataset {
    name: "periods",
    doc: "One row per rule: the period of the outcomes.",
    groups: &[RULE, PERIOD_COLUMNS],
};

static DATASETS: &[&Dataset] = &[&POSITIONS, &PERIODS];

/// Report-style table: rows N, columns the rule, the winning takes (`E` for P).
pub static WINNING_TABLE: View = View {
    name: "winning_table",
    title: "Winning takes (E: P-position)",
    dataset: "positions",
    kind: ViewKind::Grid {
        row: "N",
        column: "rule",
        cell: "winning_takes",
        empty: "E",
        facet: None,
    },
    only: &[],
};

/// The period table.
pub static PERIOD_TABLE: View = View {
    name: "period_table",
    title: "Periods",
    dataset: "periods",
    kind: ViewKind::Listing {
        columns: &["rule", "period", "preperiod", "status", "closed_form"],
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
                "rule",
                Values::Dict(DictVec::repeat(&format!("take 1..{}", self.k), n)),
            )
            .with("k", Values::Int(vec![self.k; n]))
            .with("N", Values::Int(self.ns.clone()))
            .with("outcome", Values::Enum(outcome))
            .with(
                "grundy",
                Values::Int(self.ns.iter().map(|x| x % q).collect()),
            )
            .with("winning_takes", Values::IntList(takes))
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
        let form = format!("N ≥ 0 and N mod {q} ∈ {{0}}");
        rows.push(Some(&p), "by hand: G(N) = N mod (k+1)", Some(&form));
        rows.into_table(
            Table::new()
                .with(
                    "rule",
                    Values::Dict(DictVec::repeat(&format!("take 1..{}", self.k), 1)),
                )
                .with("k", Values::Int(vec![self.k])),
        )
    }
}

impl Case for ToyCase {
    fn key(&self) -> String {
        format!("toy/k={}/N={:?}", self.k, self.ns)
    }
    fn cost(&self) -> u64 {
        self.ns.len() as u64
    }
    fn solve(&self, ctx: &CaseCtx<'_>) -> anyhow::Result<Output> {
        (ctx.progress)(self.cost());
        let mut pos = self.positions();
        if self.bad {
            pos.push("surprise", Values::Int(vec![0; pos.rows()]));
        }
        Ok(vec![(&POSITIONS, pos), (&PERIODS, self.periods())])
    }
}

impl Family for Toy {
    fn name(&self) -> &'static str {
        "toy"
    }
    fn about(&self) -> &'static str {
        "Test-only: take 1..k stones from one heap."
    }
    fn params_help(&self) -> &'static str {
        "k: largest take (values, lists or ranges)\nN: heap sizes"
    }
    fn datasets(&self) -> &'static [&'static Dataset] {
        DATASETS
    }
    fn views(&self) -> &'static [&'static View] {
        VIEWS
    }
    fn plan(&self, sweep: &Node<'_>) -> Result<Plan, SpecError> {
        let mut allowed = SWEEP_KEYS.to_vec();
        allowed.extend(["k", "N", "bad"]);
        sweep.expect_keys(&allowed)?;
        let ks = sweep.req("k", "the largest take")?.ints(1, 100)?;
        let ns = sweep.req("N", "heap sizes")?.ints(0, 1 << 20)?;
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
        })
    }
    fn solve(&self, _: &Node<'_>, _: &dyn super::watch::Watch) -> anyhow::Result<Answer> {
        anyhow::bail!("the toy family answers no single position")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_family_without_a_game_says_it_cannot_be_played() {
        let v = serde_json::json!({"k": 3});
        let e = Toy
            .play(&Node::root(&v, "<command line>"))
            .err()
            .expect("the toy family has no game");
        assert_eq!(e.to_string(), "the family `toy` cannot be played");
    }
}
