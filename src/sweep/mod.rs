//! The sweep driver: plan → chunks → parallel solve → Parquet parts. It
//! neither renders nor reports: those are later stages that read the store.
//!
//! Cases are grouped into chunks of consecutive cases (by estimated cost, so a
//! chunk is neither a single tiny case nor hours of work). The chunking depends
//! only on the plan, never on the machine, so a chunk's id is stable: a rerun
//! skips every chunk whose record exists and recomputes the rest, and the
//! final data are the same as an uninterrupted run's.

pub mod chunks;
mod driver;
pub mod guard;
pub mod manifest;
mod merge;
pub mod progress;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::{Context, Result};

pub use chunks::{Chunk, assign_shards, chunks};
pub use merge::merge_experiment;
pub use progress::progress_bar;

use crate::spec::Experiment;

/// How to run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Output root (default `output/`).
    pub out: PathBuf,
    /// Recompute finished chunks.
    pub force: bool,
    /// No progress bars or per-sweep lines.
    pub quiet: bool,
    /// Run only shard `I` of `N` (0-based): a deterministic share of the chunks,
    /// balanced by estimated cost. Shards write disjoint part files in the same
    /// layout and do not render.
    pub shard: Option<(usize, usize)>,
}

/// The error a run ends with after Ctrl-C: what is saved.
#[derive(Debug)]
pub struct InterruptedRun(pub String);

impl std::fmt::Display for InterruptedRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "interrupted{}; finished chunks are saved: run the same command again to complete the rest",
            self.0
        )
    }
}
impl std::error::Error for InterruptedRun {}

/// What a sweep run did.
#[derive(Clone, Debug, Default)]
pub struct SweepReport {
    /// Sweep name.
    pub name: String,
    /// Number of cases.
    pub cases: usize,
    /// Chunks computed now.
    pub computed: usize,
    /// Chunks found finished.
    pub skipped: usize,
    /// Seconds spent solving (summed over threads).
    pub solve_secs: f64,
    /// Seconds spent writing Parquet (summed over threads).
    pub write_secs: f64,
    /// Wall-clock seconds.
    pub wall_secs: f64,
    /// Notes from the plan.
    pub notes: Vec<String>,
    /// Per dataset: name, number of part files, xxh3 of their bytes in order.
    pub checksums: Vec<(String, usize, String)>,
    /// Per case (this run's or the chunk records'): key and seconds.
    pub case_timing: Vec<serde_json::Value>,
}

/// Runs every sweep of an experiment, then writes its manifest. `cancel` is
/// set by Ctrl-C. Orphaned temporaries are pruned first.
pub fn run_experiment(
    exp: &Experiment,
    opts: &RunOptions,
    cancel: &AtomicBool,
) -> Result<Vec<SweepReport>> {
    let started = manifest::now();
    let t0 = Instant::now();
    // Temporaries left by a killed run, in every folder the run writes.
    crate::store::prune_orphans_of(&opts.out, &exp.name)?;
    let mut reports = Vec::new();
    for sweep in &exp.sweeps {
        let plan = sweep.plan()?;
        guard::check_plan(&exp.name, sweep, &plan)?;
        let r = driver::run_sweep(exp, sweep, plan, opts, cancel)
            .with_context(|| format!("experiment {}, sweep {}", exp.name, sweep.name))?;
        if !opts.quiet {
            eprintln!(
                "{}/{}: {} cases ({} chunks computed, {} reused) in {:.2}s",
                exp.name, sweep.name, r.cases, r.computed, r.skipped, r.wall_secs,
            );
            for n in &r.notes {
                eprintln!("  note: {n}");
            }
        }
        reports.push(r);
    }
    manifest::write(
        exp,
        &opts.out.join(&exp.name),
        opts.shard,
        (&started, t0.elapsed().as_secs_f64()),
        &reports,
    )?;
    Ok(reports)
}
