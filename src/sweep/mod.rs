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
pub mod estimate;
pub mod guard;
pub mod manifest;
mod merge;
pub mod phases;
pub mod sample;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::{Context, Result};

use crate::progress::counted;
pub use crate::progress::progress_bar;
pub use chunks::{Chunk, assign_shards, chunks};
pub use driver::{left_to_do, store_outputs};
pub use merge::merge_experiment;

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

impl RunOptions {
    /// A quiet, unforced, unsharded run into `out`.
    pub fn quiet(out: &std::path::Path) -> RunOptions {
        RunOptions {
            out: out.to_path_buf(),
            force: false,
            quiet: true,
            shard: None,
        }
    }
}

/// Runs every sweep of `exp` quietly into `out` (tests' whole runs).
#[cfg(test)]
pub(crate) fn run_quietly(exp: &Experiment, out: &std::path::Path) {
    run_experiment(
        exp,
        &RunOptions::quiet(out),
        &AtomicBool::new(false),
        &mut false,
    )
    .unwrap();
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
    /// Wall and CPU seconds of its plan, solve and write phases.
    pub phases: phases::Phases,
    /// The cost model's estimate, made before solving (when the process
    /// has rates: [`crate::cost::current`]).
    pub estimate: Option<estimate::SweepEstimate>,
    /// Whether this run of the sweep wrote a Parquet part (what the first
    /// part sets up, the encoder's code and buffers, then stays in the
    /// process's resident memory).
    pub wrote_parts: bool,
}

/// Runs every sweep of an experiment, then writes its manifest. `cancel` is
/// set by Ctrl-C. Orphaned temporaries are pruned first. `wrote`: whether
/// this process has written a Parquet part already (an earlier experiment's
/// sweeps, the calibration's probes), which each sweep's estimate needs
/// ([`estimate::estimate`]); set when a sweep writes one.
pub fn run_experiment(
    exp: &Experiment,
    opts: &RunOptions,
    cancel: &AtomicBool,
    wrote: &mut bool,
) -> Result<Vec<SweepReport>> {
    let started = manifest::now();
    let t0 = Instant::now();
    // Temporaries left by a killed run, in every folder the run writes.
    crate::store::prune_orphans_of(&opts.out, &exp.name)?;
    // The measured peak beside the estimate is this experiment's sweeps'.
    crate::mem::restart_peak_memory();
    let mut reports = Vec::new();
    for sweep in &exp.sweeps {
        crate::mem::release_unused();
        let planning = phases::Timer::start();
        let plan = sweep.plan()?;
        guard::check_plan(&exp.name, sweep, &plan)?;
        let planned = planning.span();
        let threads = rayon::current_num_threads();
        let est =
            crate::cost::current().map(|r| estimate::estimate(sweep, &plan, r, threads, *wrote));
        let mut r = driver::run_sweep(exp, sweep, plan, opts, cancel, est.as_ref())
            .with_context(|| format!("experiment {}, sweep {}", exp.name, sweep.name))?;
        *wrote |= r.wrote_parts;
        r.phases.plan += planned;
        r.estimate = est;
        reports.push(r);
    }
    if !opts.quiet {
        for line in summary(&exp.name, &reports) {
            eprintln!("{line}");
        }
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

/// What a run of an experiment prints: one line for its sweeps (the sweep's
/// own line when there is one), then the notes, grouped by kind within each
/// sweep (see [`crate::family::note`]).
pub fn summary(experiment: &str, reports: &[SweepReport]) -> Vec<String> {
    let chunks = |r: &SweepReport| (r.cases, r.computed, r.skipped);
    let (cases, computed, skipped) = reports
        .iter()
        .map(chunks)
        .fold((0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
    let secs: f64 = reports.iter().map(|r| r.wall_secs).sum();
    let mut out = Vec::new();
    match reports {
        [r] => out.push(format!(
            "{experiment}/{}: {} ({} computed, {skipped} reused) in {secs:.2}s",
            r.name,
            counted(cases as u64, "case"),
            counted(computed as u64, "chunk"),
        )),
        _ => {
            let mut line = format!(
                "{experiment}: {} sweeps, {} ({} computed, {skipped} reused) in {secs:.2}s",
                reports.len(),
                counted(cases as u64, "case"),
                counted(computed as u64, "chunk"),
            );
            let slowest = reports
                .iter()
                .max_by(|a, b| a.wall_secs.total_cmp(&b.wall_secs));
            if let Some(s) = slowest.filter(|s| s.wall_secs >= 1.0) {
                line += &format!("; slowest {} {:.2}s", s.name, s.wall_secs);
            }
            out.push(line);
        }
    }
    for r in reports {
        for n in &r.notes {
            out.push(match reports.len() {
                1 => format!("  note: {n}"),
                _ => format!("  note: {}: {n}", r.name),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(name: &str, cases: usize, computed: usize, secs: f64, notes: &[&str]) -> SweepReport {
        SweepReport {
            name: name.into(),
            cases,
            computed,
            skipped: 1,
            wall_secs: secs,
            notes: notes.iter().map(|n| n.to_string()).collect(),
            ..Default::default()
        }
    }

    #[test]
    fn one_line_per_experiment_then_its_notes() {
        let one = [report("a", 12, 1, 0.5, &["x"])];
        assert_eq!(
            summary("e", &one),
            [
                "e/a: 12 cases (1 chunk computed, 1 reused) in 0.50s",
                "  note: x"
            ]
        );
        let two = [
            report("a", 12, 1, 0.5, &[]),
            report("b", 3, 2, 2.0, &["y", "z"]),
        ];
        assert_eq!(
            summary("e", &two),
            [
                "e: 2 sweeps, 15 cases (3 chunks computed, 2 reused) in 2.50s; slowest b 2.00s",
                "  note: b: y",
                "  note: b: z"
            ]
        );
    }
}
