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
            for (sweep, files) in render::render_experiment(e, &opts.out)? {
                if !opts.quiet {
                    eprintln!("{}/{sweep}: {} files rendered", e.name, files.len());
                }
            }
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
    if opts.shard.is_none() {
        // The report covers the experiments just run and every other
        // experiment already in the output directory.
        let summary = report::write_report(&report::experiments(&exps, &opts.out), &opts.out)?;
        if !opts.quiet {
            eprintln!("{}", super::report::summary_line(&summary));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A flag set by Ctrl-C; a second Ctrl-C while stopping ends the process.
fn ctrl_c_flag() -> Arc<AtomicBool> {
    let cancel = Arc::new(AtomicBool::new(false));
    let c2 = cancel.clone();
    let _ = ctrlc::set_handler(move || {
        if c2.swap(true, Ordering::SeqCst) {
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
