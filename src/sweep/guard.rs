//! Refusing, up front, a sweep that cannot finish: a case whose memory at
//! most ([`Cost::memory_bound`]) exceeds this machine's (read from the
//! system, [`crate::mem::case_budget`]) or an output whose estimated rows
//! ([`Cost::rows`]) exceed [`MAX_ROWS`]. Nothing is solved or written before
//! the check; `--dry-run` prints the same findings next to its estimates.

use std::fmt::Write as _;

use crate::data::Dataset;
use crate::family::{Case, Cost, Plan};
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

/// The memory problem of one case costing `cost`, if any.
pub fn case_memory_problem(case: &dyn Case, cost: &Cost, budget: u64) -> Option<String> {
    let need = cost.memory_bound;
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

/// Each case's cost in a sweep keeping `keep` (its `datasets:`), in plan
/// order.
pub fn costs(plan: &Plan, keep: Option<&[String]>) -> Vec<Cost> {
    plan.cases.iter().map(|c| c.cost(keep)).collect()
}

/// The datasets of `datasets` a case's cost declares rows of and the
/// sweep keeps (`keep`; `None`: every one), with those rows.
fn kept_rows<'a>(
    c: &'a Cost,
    datasets: &'a [&'a Dataset],
    keep: Option<&'a [String]>,
) -> impl Iterator<Item = (&'a Dataset, u64)> + 'a {
    c.rows
        .iter()
        .filter(move |(d, _)| keep.is_none_or(|k| k.iter().any(|x| x == d)))
        .filter_map(move |&(d, n)| Some((*datasets.iter().find(|x| x.name == d)?, n)))
}

/// The bytes of a case's kept tables as it counts them
/// ([`Cost::table_bytes_of`]: the declared columns' sizes, or what the
/// case counts of a table).
pub fn kept_table_bytes(c: &Cost, datasets: &[&Dataset], keep: Option<&[String]>) -> u64 {
    kept_rows(c, datasets, keep)
        .map(|(ds, n)| c.table_bytes_of(ds, n))
        .fold(0u64, u64::saturating_add)
}

/// Estimated rows per kept dataset over the cases costing `costs`, in the
/// family's declaration order.
pub fn dataset_rows(costs: &[Cost], keep: Option<&[String]>) -> Vec<(&'static str, u64)> {
    let mut rows: Vec<(&'static str, u64)> = Vec::new();
    for c in costs {
        for &(d, n) in &c.rows {
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

/// A sweep's memory as the guard counts it (and `--dry-run` prints it): each
/// case's own estimate ([`Cost::memory_bound`]: its solver's tables, the
/// component memo up to `memo_gib`, a period's horizon extended up to
/// `proof_cap`), what is shared by the sweep's cases once
/// ([`Cost::shared_memory`], a
/// table they all read), and the writer's buffers: each thread holds a chunk's
/// tables (rows × the declared columns' bytes, twice for the Parquet
/// encoder) until they are written.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryFigures {
    /// The case needing the most memory: its key and estimate.
    pub largest: Option<(String, u64)>,
    /// Memory shared by the cases (counted once).
    pub shared: u64,
    /// The largest chunk's tables held before writing.
    pub writer: u64,
    /// Threads solving at once.
    pub threads: usize,
    /// The peak: the shared memory, then per thread the largest case of
    /// one of the chunks whose largest cases are largest (beyond the shared
    /// part) and one of the largest chunks' tables.
    pub peak: u64,
    /// The peak the run will likely reach: as [`MemoryFigures::peak`] with
    /// each case's expected memory ([`Cost::expected_memory`]) for its bound
    /// and the chunks' tables once, as the cases count them
    /// ([`Cost::table_bytes`]).
    pub expected: u64,
}

impl MemoryFigures {
    /// `peak ~1.2 GiB on 2 threads (largest case ~600 MiB: KEY; shared ~0 B;
    /// writer ~12 MiB per thread)`.
    pub fn text(&self) -> String {
        let h = mem::human_bytes;
        let largest = match &self.largest {
            Some((k, b)) => format!("largest case ~{}: {k}", h(*b)),
            None => "no case".to_string(),
        };
        format!(
            "peak memory ~{} (at most {}) on {} thread{} ({largest}; shared by the cases ~{}; writer ~{} per thread)",
            h(self.expected),
            h(self.peak),
            self.threads,
            if self.threads == 1 { "" } else { "s" },
            h(self.shared),
            h(self.writer)
        )
    }
}

/// The memory figures of a plan whose cases cost `costs` (in a sweep
/// keeping `keep` of `datasets`), on `threads` threads.
pub fn memory_figures(
    (plan, costs): (&Plan, &[Cost]),
    datasets: &[&Dataset],
    keep: Option<&[String]>,
    threads: usize,
) -> MemoryFigures {
    let threads = threads.max(1);
    let shared = costs.iter().map(|c| c.shared_memory).max().unwrap_or(0);
    let largest = costs
        .iter()
        .enumerate()
        .max_by_key(|(_, c)| c.memory_bound)
        .map(|(i, c)| (plan.cases[i].key(), c.memory_bound));
    let chunks = super::chunks(&plan.cases);
    // A chunk's cases are solved in turn on one thread: its largest case
    // at once (four sparse octal codes of 114 MiB each in one chunk, on 2
    // threads, peaked at 128 MB; counted as two at once, 241 MiB).
    let own = |expected: bool| {
        chunks.iter().map(move |ch| {
            costs[ch.start..ch.end]
                .iter()
                .map(|c| {
                    let m = if expected {
                        c.expected_memory()
                    } else {
                        c.memory_bound
                    };
                    m.saturating_sub(c.shared_memory)
                })
                .max()
                .unwrap_or(0)
        })
    };
    // A case's kept tables: at most, twice (for the Parquet encoder) the
    // declared row sizes or what the case counts, the larger; expected, what
    // the case counts its tables at once (their encoded pages are far smaller
    // than the rows; the encoder's own buffers are measured by `nimlab
    // calibrate`).
    let table_bytes = |c: &Cost, expected: bool| -> u64 {
        if expected {
            return kept_table_bytes(c, datasets, keep);
        }
        kept_rows(c, datasets, keep)
            .map(|(ds, n)| {
                n.saturating_mul(ds.row_bytes())
                    .max(c.table_bytes_of(ds, n))
                    .saturating_mul(2)
            })
            .fold(0u64, u64::saturating_add)
    };
    let chunk_tables = |expected: bool| {
        chunks.iter().map(move |ch| {
            costs[ch.start..ch.end]
                .iter()
                .map(|c| table_bytes(c, expected))
                .fold(0, u64::saturating_add)
        })
    };
    let writer = chunk_tables(false).max().unwrap_or(0);
    let peak = shared
        .saturating_add(top_sum(own(false), threads))
        .saturating_add(top_sum(chunk_tables(false), threads));
    let expected = shared
        .saturating_add(top_sum(own(true), threads))
        .saturating_add(top_sum(chunk_tables(true), threads));
    MemoryFigures {
        largest,
        shared,
        writer,
        threads,
        peak,
        expected,
    }
}

/// The sum of the `n` largest values.
fn top_sum(values: impl Iterator<Item = u64>, n: usize) -> u64 {
    let mut v: Vec<u64> = values.collect();
    v.sort_unstable_by(|a, b| b.cmp(a));
    v.iter().take(n).fold(0, |a, &b| a.saturating_add(b))
}

/// Every problem of a sweep's plan on `threads` threads: cases beyond the
/// memory budget (the first few, then a count), a peak of the cases solved
/// at once beyond it ([`memory_figures`]), and datasets beyond [`MAX_ROWS`].
pub fn problems(sweep: &Sweep, plan: &Plan, budget: u64, threads: usize) -> Vec<String> {
    let keep = sweep.datasets.as_deref();
    let costs = costs(plan, keep);
    let mut out = Vec::new();
    let mut too_big = plan
        .cases
        .iter()
        .zip(&costs)
        .filter_map(|(c, cost)| case_memory_problem(c.as_ref(), cost, budget));
    out.extend(too_big.by_ref().take(3));
    let more = too_big.count();
    if more > 0 {
        out.push(format!("… and {more} more cases beyond the memory limit"));
    }
    let figures = memory_figures((plan, &costs), sweep.declared(), keep, threads);
    if out.is_empty() && figures.peak > budget {
        out.push(format!(
            "{}; {}. Use fewer threads (`--threads`), or {}",
            figures.text(),
            mem::budget_text(budget),
            plan.cases
                .iter()
                .zip(&costs)
                .max_by_key(|(_, cost)| cost.memory_bound)
                .map_or("a smaller range", |(c, _)| c.memory_hint())
        ));
    }
    for (d, n) in dataset_rows(&costs, keep) {
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
    let threads = rayon::current_num_threads();
    let problems = problems(sweep, plan, mem::case_budget(), threads);
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
            // The plan kept for the run that follows.
            if let Err(r) = sw.with_plan_estimate(|plan| check_plan(&e.name, sw, plan))? {
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
