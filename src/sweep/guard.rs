//! Refusing, up front, a sweep that cannot finish: a case whose estimated
//! memory ([`Case::memory`]) exceeds this machine's (read from the system,
//! [`crate::mem::case_budget`]) or an output whose estimated rows
//! ([`Case::rows`]) exceed [`MAX_ROWS`]. Nothing is solved or written before
//! the check; `--dry-run` prints the same findings next to its estimates.

use std::fmt::Write as _;

use crate::family::{Case, Plan};
use crate::mem;
use crate::spec::{Experiment, Sweep};

/// The most rows a sweep may write to one dataset: a billion rows is tens of
/// gigabytes of Parquet and more than any reader holds in memory.
pub const MAX_ROWS: u64 = 1_000_000_000;

/// Why a sweep cannot run: each finding names what is too big, the estimate
/// and what to change.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    /// `experiment/sweep`.
    pub sweep: String,
    /// One line per problem.
    pub problems: Vec<String>,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "sweep {} is too big to run:", self.sweep)?;
        for p in &self.problems {
            write!(f, "\n  - {p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Refusal {}

/// The memory problem of one case, if any.
pub fn case_memory_problem(case: &dyn Case, budget: u64) -> Option<String> {
    let need = case.memory();
    (need > budget).then(|| {
        format!(
            "case {} needs about {} of memory; {}. {}",
            case.key(),
            mem::human_bytes(need),
            mem::budget_text(budget),
            capitalized(case.memory_hint())
        )
    })
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// Estimated rows per kept dataset over the whole plan, in the family's
/// declaration order.
pub fn dataset_rows(plan: &Plan, keep: Option<&[String]>) -> Vec<(&'static str, u64)> {
    let mut rows: Vec<(&'static str, u64)> = Vec::new();
    for c in &plan.cases {
        for (d, n) in c.rows() {
            if keep.is_some_and(|k| !k.iter().any(|x| x == d)) {
                continue;
            }
            match rows.iter_mut().find(|(x, _)| *x == d) {
                Some((_, t)) => *t = t.saturating_add(n),
                None => rows.push((d, n)),
            }
        }
    }
    rows
}

/// Every problem of a plan: cases beyond the memory budget (the first few,
/// then a count) and datasets beyond [`MAX_ROWS`].
pub fn problems(plan: &Plan, keep: Option<&[String]>, budget: u64) -> Vec<String> {
    let mut out = Vec::new();
    let mut too_big = plan
        .cases
        .iter()
        .filter_map(|c| case_memory_problem(c.as_ref(), budget));
    out.extend(too_big.by_ref().take(3));
    let more = too_big.count();
    if more > 0 {
        out.push(format!("… and {more} more cases beyond the memory limit"));
    }
    for (d, n) in dataset_rows(plan, keep) {
        if n > MAX_ROWS {
            out.push(format!(
                "dataset `{d}` would have about {n:.3e} rows, more than the {MAX_ROWS:.0e} allowed; use a smaller range or fewer heaps, or list the datasets to keep without it (`datasets:`)",
                n = n as f64,
                MAX_ROWS = MAX_ROWS as f64
            ));
        }
    }
    out
}

/// Checks one sweep's plan.
pub fn check_plan(exp: &str, sweep: &Sweep, plan: &Plan) -> Result<(), Refusal> {
    let problems = problems(plan, sweep.datasets.as_deref(), mem::case_budget());
    if problems.is_empty() {
        Ok(())
    } else {
        Err(Refusal {
            sweep: format!("{exp}/{}", sweep.name),
            problems,
        })
    }
}

/// Checks every sweep of the experiments before anything runs; the error
/// lists every refused sweep.
pub fn check_experiments(exps: &[Experiment]) -> anyhow::Result<()> {
    let mut text = String::new();
    for e in exps {
        for sw in &e.sweeps {
            let plan = sw.plan()?;
            if let Err(r) = check_plan(&e.name, sw, &plan) {
                let _ = write!(text, "{}{r}", if text.is_empty() { "" } else { "\n" });
            }
        }
    }
    if text.is_empty() {
        Ok(())
    } else {
        anyhow::bail!("{text}\nnothing was run (`--dry-run` shows every estimate)")
    }
}
