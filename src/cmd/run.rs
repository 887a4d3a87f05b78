//! `nimlab run`: specs solved, stored, rendered, checked and reported.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Result;

use crate::family::{CaseCtx, Plan};
use crate::spec::{self, Experiment};
use crate::{check, render, report, sweep};

/// What `nimlab run` was asked to do.
pub struct RunArgs {
    /// Spec files or directories.
    pub specs: Vec<PathBuf>,
    /// Driver options (output directory, force, quiet, shard).
    pub opts: sweep::RunOptions,
    /// Skip rendering.
    pub no_render: bool,
    /// Skip the report (REPORT.md, REPORT.html).
    pub no_report: bool,
    /// Print the plan and estimates only.
    pub dry_run: bool,
}

/// Runs the specs: the driver solves and stores each experiment, then the
/// render, check and report stages read the store.
pub fn run(args: RunArgs) -> Result<ExitCode> {
    let exps = spec::load_specs(&args.specs)?;
    if args.dry_run {
        let mut refused = false;
        for e in &exps {
            let (text, r) = dry_run_text(e)?;
            super::print(&text)?;
            refused |= r;
        }
        if !args.no_report {
            super::print(&report_estimate(&exps, &args.opts.out))?;
        }
        return Ok(if refused {
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        });
    }
    // Every sweep's estimates before anything is solved or written.
    sweep::guard::check_experiments(&exps)?;
    let cancel = ctrl_c_flag();
    let opts = &args.opts;
    for e in &exps {
        sweep::run_experiment(e, opts, &cancel)?;
        if opts.shard.is_some() {
            continue;
        }
        if !args.no_render {
            render_stage(e, opts)?;
        }
        if !e.conjectures.is_empty() {
            let results = check::write_conjectures(e, &opts.out)?;
            if !opts.quiet {
                for (v, n) in check::verdict_counts(&results) {
                    eprintln!("{}: conjectures {}: {n}", e.name, v.as_str());
                }
            }
        }
    }
    if opts.shard.is_none() && !args.no_report {
        // The report covers the experiments just run and every other
        // experiment already in the output directory (those from their cache).
        let t0 = std::time::Instant::now();
        let ropts = report::ReportOptions {
            rebuild: false,
            quiet: opts.quiet,
        };
        let summary =
            report::write_report_with(&report::experiments(&exps, &opts.out), &opts.out, ropts)?;
        if !opts.quiet {
            eprintln!(
                "{} in {:.2}s",
                super::report::summary_line(&summary),
                t0.elapsed().as_secs_f64()
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Renders the sweeps of `e` whose data (or this program) changed since
/// they were last rendered, in parallel.
fn render_stage(e: &Experiment, opts: &sweep::RunOptions) -> Result<()> {
    use anyhow::Context as _;
    use rayon::prelude::*;
    let fresh = report::cache::render_fresh(e, &opts.out);
    let done: Vec<Result<Option<usize>>> = e
        .sweeps
        .par_iter()
        .zip(&fresh)
        .map(|(s, &fresh)| {
            if fresh {
                return Ok(None);
            }
            render::render_sweep(s, &s.dir(&opts.out, &e.name))
                .map(|f| Some(f.len()))
                .with_context(|| format!("experiment {}, sweep {}", e.name, s.name))
        })
        .collect();
    let mut stamped = Vec::new();
    for (s, r) in e.sweeps.iter().zip(done) {
        let r = r?;
        stamped.push(r.is_some());
        if !opts.quiet {
            match r {
                Some(n) => eprintln!("{}/{}: {n} files rendered", e.name, s.name),
                None => eprintln!("{}/{}: figures and tables up to date", e.name, s.name),
            }
        }
    }
    report::cache::render_stamp(e, &opts.out, &stamped)
}

/// A flag set by Ctrl-C; a second Ctrl-C while stopping ends the process.
fn ctrl_c_flag() -> Arc<AtomicBool> {
    let cancel = Arc::new(AtomicBool::new(false));
    let c2 = cancel.clone();
    let _ = ctrlc::set_handler(move || {
        if c2.swap(true, Ordering::SeqCst) {
            // Exiting now skips the temporaries' guards: remove them here.
            crate::store::atomic::remove_own_temporaries();
            std::process::exit(130);
        }
        eprintln!(
            "\nnimlab: stopping: finished chunks are kept, chunks in progress are dropped (Ctrl-C again to quit now)…"
        );
    });
    cancel
}

/// The dry-run text of an experiment, and whether a sweep would be refused.
fn dry_run_text(e: &Experiment) -> Result<(String, bool)> {
    use std::fmt::Write as _;
    let mut s = format!("{} ({})\n", e.name, e.file.display());
    let threads = rayon::current_num_threads();
    let budget = crate::mem::case_budget();
    let mut refused = false;
    for sw in &e.sweeps {
        let plan = sw.plan()?;
        let problems = sweep::guard::problems(&plan, sw.datasets.as_deref(), budget);
        if !problems.is_empty() {
            refused = true;
            let _ = writeln!(s, "  {}: REFUSED (would not run):", sw.name);
            for p in &problems {
                let _ = writeln!(s, "    - {p}");
            }
            let _ = writeln!(s, "    (cases in this sweep: {})", plan.cases.len());
            continue;
        }
        let cost = plan
            .cases
            .iter()
            .map(|c| c.cost())
            .fold(0u64, u64::saturating_add);
        let chunks = sweep::chunks(&plan.cases);
        // Peak memory: a chunk's results are held until written; up to one chunk per
        // thread plus two waiting for the writer.
        let chunk_mem = chunks
            .iter()
            .map(|c| {
                plan.cases[c.start..c.end]
                    .iter()
                    .map(|k| k.memory())
                    .fold(0u64, u64::saturating_add)
            })
            .max()
            .unwrap_or(0);
        let mem = chunk_mem.saturating_mul(threads as u64 + 2);
        let rate = calibrate(&plan);
        let eta = match rate {
            Some(r) => format!(
                "~{:.1} s on {threads} threads (calibrated on the cheapest cases)",
                cost as f64 / r / threads as f64
            ),
            None => "time unknown (no case cheap enough to calibrate on)".to_string(),
        };
        let _ = writeln!(
            s,
            "  {}: {} cases in {} chunks, ~{:.3e} work units, {eta}, peak memory ~{}",
            sw.name,
            plan.cases.len(),
            chunks.len(),
            cost as f64,
            crate::mem::human_bytes(mem)
        );
        for n in &plan.notes {
            let _ = writeln!(s, "    note: {n}");
        }
    }
    Ok((s, refused))
}

/// The report stage's share of a run: which sweeps it would rebuild, and
/// how long they took when last built.
fn report_estimate(exps: &[Experiment], out: &std::path::Path) -> String {
    let all = report::experiments(exps, out);
    let (stale, total, secs) = report::plan(&all, out);
    let given: usize = exps.iter().map(|e| e.sweeps.len()).sum();
    let mut s = format!(
        "report: {stale} of {total} sweeps to rebuild (fitting, checking; the others from its cache)"
    );
    if secs > 0.0 {
        s += &format!(", ~{secs:.1} s on one thread as last built");
    }
    if total < given {
        s += &format!(
            "; the {} sweeps not run yet are reported after they are solved (two-coordinate loss sets are fitted: about 1 s per 50 rules of 150 × 150 positions)",
            given - total.min(given)
        );
    }
    s
}

/// Work units per second on one thread, measured by solving the cheapest cases
/// (in memory, nothing written) for up to a quarter of a second.
fn calibrate(plan: &Plan) -> Option<f64> {
    let mut order: Vec<usize> = (0..plan.cases.len()).collect();
    order.sort_by_key(|&i| plan.cases[i].cost());
    let cancel = AtomicBool::new(false);
    let progress = |_: u64| {};
    let ctx = CaseCtx {
        progress: &progress,
        cancel: &cancel,
        keep: None,
    };
    let t0 = std::time::Instant::now();
    let mut done = 0u64;
    for i in order {
        let c = &plan.cases[i];
        if c.cost() > 50_000_000 {
            break;
        }
        c.solve(&ctx).ok()?;
        done += c.cost();
        if t0.elapsed().as_secs_f64() > 0.25 {
            break;
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    (done > 0 && secs > 0.0).then(|| done as f64 / secs)
}

#[cfg(test)]
#[path = "run_tests.rs"]
mod tests;
