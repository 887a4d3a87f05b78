//! `nimlab run`: specs solved, stored, rendered, checked and reported.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::spec::{self, Experiment};
use crate::sweep::phases::{Phases, Span, Timer};
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
    /// Print the experiments' names only.
    pub list: bool,
}

/// Runs the specs: the driver solves and stores each experiment, then the
/// render, check and report stages read the store.
pub fn run(args: RunArgs) -> Result<ExitCode> {
    let upfront = Timer::start();
    if args.list {
        let names: String = spec::experiment_names(&args.specs)?
            .into_iter()
            .map(|n| n + "\n")
            .collect();
        super::print(&names)?;
        return Ok(ExitCode::SUCCESS);
    }
    let exps = spec::load_specs(&args.specs)?;
    // Every claim type-checked against its sweep's declared datasets.
    check::check_plan(&exps)?;
    if args.dry_run {
        let t = std::time::Instant::now();
        let (rates, wrote) = super::calibrate::rates(args.opts.quiet, true)?;
        if wrote {
            // Measured now: the dry run's measurements share what is left.
            sweep::sample::calibrated_in(t.elapsed().as_secs_f64());
        }
        let mut refused = false;
        let mut all: Vec<super::stages::Estimated<'_>> = Vec::new();
        for e in &exps {
            let (text, r, est) = dry_run_text(e, &rates, wrote, &args.opts)?;
            super::print(&text)?;
            refused |= r;
            all.extend(est.into_iter().map(|(i, est)| (e, &e.sweeps[i], est)));
        }
        // A shard only solves: no render, check or report (`after_store`).
        let stages = (!args.no_render, !args.no_report);
        let threads = rayon::current_num_threads();
        let after = match args.opts.shard {
            Some(_) => super::stages::StageCost::default(),
            None => super::stages::estimate(&exps, &all, stages, threads),
        };
        let ests: Vec<_> = all.into_iter().map(|(_, _, est)| est).collect();
        if let Some(line) = after.text() {
            super::print(&format!("{line}\n"))?;
        }
        super::print(&total_text(&ests, after))?;
        if !args.no_report {
            super::print(&report_estimate(&exps, &args.opts.out))?;
        }
        super::stages::remove_scratch();
        return Ok(if refused {
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        });
    }
    // Every sweep's estimates before anything is solved or written.
    sweep::guard::check_experiments(&exps)?;
    let (rates, mut wrote) = super::calibrate::rates(args.opts.quiet, false)?;
    crate::cost::set_current(rates);
    // Loading and checking every spec: a share of each experiment's planning.
    let upfront = upfront.span().share(exps.len());
    let cancel = super::ctrl_c_flag("finished chunks are kept, chunks in progress are dropped");
    let opts = &args.opts;
    let mut errors = 0;
    let mut phases = Vec::new();
    for e in &exps {
        let mut ph = Phases::default();
        let reports = sweep::run_experiment(e, opts, &cancel, &mut wrote)?;
        for r in &reports {
            ph += r.phases;
        }
        ph.plan += upfront;
        if opts.shard.is_none() {
            errors += after_store(e, opts, !args.no_render, &mut ph)?;
        }
        if !opts.quiet {
            let rendered = opts.shard.is_none() && !args.no_render;
            let after = (
                ph.render.wall + ph.check.wall,
                rayon::current_num_threads(),
                rendered,
            );
            if let Some(line) = sweep::estimate::beside_measured(&e.name, &reports, after) {
                eprintln!("{line}");
            }
        }
        phases.push(ph);
    }
    if opts.shard.is_none() && !args.no_report {
        let shared = report_stage(&exps, opts)?.share(exps.len());
        phases.iter_mut().for_each(|p| p.report = shared);
    }
    for (e, ph) in exps.iter().zip(&phases) {
        sweep::manifest::record_phases(&opts.out.join(&e.name), opts.shard, ph)?;
        if !opts.quiet {
            eprintln!("{}: {}", e.name, ph.top_two());
        }
    }
    Ok(conjecture_exit(errors))
}

/// Exit code [`crate::cli::EXIT_CONJECTURE_ERROR`] when some conjecture could
/// not be judged, else success.
pub(super) fn conjecture_exit(errors: usize) -> ExitCode {
    if errors > 0 {
        ExitCode::from(crate::cli::EXIT_CONJECTURE_ERROR)
    } else {
        ExitCode::SUCCESS
    }
}

/// The stages that read one stored experiment: render (unless `render` is
/// false), then check its conjectures (`conjectures.md`). Returns how many
/// conjectures could not be judged (each says why on standard error). Their
/// times are added to `phases` (`render`, `check`).
pub(super) fn after_store(
    e: &Experiment,
    opts: &sweep::RunOptions,
    render: bool,
    phases: &mut Phases,
) -> Result<usize> {
    if render {
        let t = Timer::start();
        // Each stage starts as the dry run measures it: the memory the
        // solving freed given back (a trial spec peaked 15 % lower).
        crate::mem::release_unused();
        render_stage(e, opts)?;
        phases.render += t.span();
    }
    if e.conjectures.is_empty() {
        return Ok(0);
    }
    let t = Timer::start();
    crate::mem::release_unused();
    let results = check::write_conjectures(e, &opts.out)?;
    phases.check += t.span();
    if !opts.quiet {
        let counts: Vec<String> = check::verdict_counts(&results)
            .into_iter()
            .filter(|(_, n)| *n > 0)
            .map(|(v, n)| format!("{n} {}", v.as_str()))
            .collect();
        eprintln!("{}: conjectures: {}", e.name, counts.join(", "));
    }
    let errors: Vec<&check::ConjectureResult> = results
        .iter()
        .filter(|r| r.verdict() == check::Verdict::Error)
        .collect();
    for r in &errors {
        eprintln!("error: {}: {}", e.file.display(), r.summary());
    }
    Ok(errors.len())
}

/// The report of `exps` and of every other experiment already in the
/// output directory (those from their cache). Returns its time.
pub(super) fn report_stage(exps: &[Experiment], opts: &sweep::RunOptions) -> Result<Span> {
    let timer = Timer::start();
    let t0 = std::time::Instant::now();
    crate::mem::release_unused();
    let ropts = report::ReportOptions {
        rebuild: false,
        quiet: opts.quiet,
    };
    let summary =
        report::write_report_with(&report::experiments(exps, &opts.out), &opts.out, ropts)?;
    if !opts.quiet {
        eprintln!(
            "{} in {:.2}s",
            super::report::summary_line(&summary),
            t0.elapsed().as_secs_f64()
        );
    }
    Ok(timer.span())
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
    let mut files = 0;
    for r in done {
        let r = r?;
        stamped.push(r.is_some());
        files += r.unwrap_or(0);
    }
    if !opts.quiet {
        eprintln!("{}", render_line(e, &stamped, files));
    }
    report::cache::render_stamp(e, &opts.out, &stamped)
}

/// One line for the render stage of an experiment: the files rendered and
/// the sweeps whose figures and tables were up to date.
fn render_line(e: &Experiment, rendered: &[bool], files: usize) -> String {
    let name = match e.sweeps.as_slice() {
        [s] => format!("{}/{}", e.name, s.name),
        _ => e.name.clone(),
    };
    let fresh = rendered.iter().filter(|r| !**r).count();
    match (fresh, rendered.len()) {
        (0, _) => format!("{name}: {} rendered", counted(files, "file")),
        (f, n) if f == n => format!("{name}: figures and tables up to date"),
        (f, _) => format!(
            "{name}: {} rendered ({} up to date)",
            counted(files, "file"),
            counted(f, "sweep")
        ),
    }
}

/// The dry-run text of an experiment (each sweep's estimate from the cost
/// model at `rates`, nothing solved, in a process that has or has not
/// written a part: `wrote`), whether a sweep would be refused, and the
/// estimates: of what a run with `opts` would do (its shard's share, less
/// the chunks finished in its output unless forced).
fn dry_run_text(
    e: &Experiment,
    rates: &crate::cost::Rates,
    wrote: bool,
    opts: &sweep::RunOptions,
) -> Result<(String, bool, Vec<SweepAt>)> {
    use std::fmt::Write as _;
    let mut s = format!("{} ({})\n", e.name, e.file.display());
    let threads = rayon::current_num_threads();
    let budget = crate::mem::case_budget();
    let mut refused = false;
    let mut all = Vec::new();
    for (i, sw) in e.sweeps.iter().enumerate() {
        let (plan, chunks) = sweep::left_to_do(e, sw, sw.plan_estimate()?, opts);
        if let Some(line) = left_text(chunks, opts) {
            let _ = writeln!(s, "  {}: {line}", sw.name);
            if chunks[0] == 0 {
                continue;
            }
        }
        let plan = std::sync::Arc::new(plan);
        let problems = sweep::guard::problems(sw, &plan, budget, threads);
        let sample = if problems.is_empty() {
            sweep::sample::budget(e.sweeps.len())
        } else {
            0.0
        };
        let reads = sweep::sample::StagesRead::of(sw, e);
        let mut est =
            sweep::estimate::estimate_sampled(sw, &plan, rates, (threads, wrote), (sample, reads));
        // Chunked as the whole sweep is, not as its cases left would be.
        est.chunks = chunks[0];
        if !problems.is_empty() {
            refused = true;
            let _ = writeln!(s, "  {}: REFUSED (would not run):", sw.name);
            for p in &problems {
                let _ = writeln!(s, "    - {p}");
            }
            let _ = writeln!(
                s,
                "    (cases in this sweep: {}; were it run: {})",
                plan.cases.len(),
                est.headline()
            );
            continue;
        }
        let _ = writeln!(
            s,
            "  {}: {} in {}: {}",
            sw.name,
            counted(est.cases, "case"),
            counted(est.chunks, "chunk"),
            est.headline()
        );
        if let Some(d) = est.dominant_text() {
            let _ = writeln!(s, "    {d}");
        }
        if let Some(m) = est.sampled_text() {
            let _ = writeln!(s, "    {m}");
        }
        let _ = writeln!(s, "    memory: {}", est.memory.text());
        for u in &est.unbounded {
            let _ = writeln!(s, "    not bounded: {u}");
        }
        for n in crate::family::note::lines(&plan.notes) {
            let _ = writeln!(s, "    note: {n}");
        }
        all.push((i, est));
    }
    Ok((s, refused, all))
}

/// What is left of a sweep whose chunks are `[left, this run's, all]`:
/// `None` when that is everything.
fn left_text([left, mine, all]: [usize; 3], opts: &sweep::RunOptions) -> Option<String> {
    let out = opts.out.display();
    let share = match opts.shard {
        Some((i, n)) => format!("shard {i}/{n}'s {} of {all}", counted(mine, "chunk")),
        None => counted(all, "chunk"),
    };
    match left {
        _ if left == all => None,
        0 if mine == 0 => Some(format!("nothing to do: {share}")),
        0 => Some(format!(
            "nothing left to do: {share} finished in {out} (--force solves them again)"
        )),
        _ if left == mine => Some(format!("{share}; the estimate below is of that share")),
        _ => Some(format!(
            "{} left of {share} ({} finished in {out}); the estimate below is of what is left",
            counted(left, "chunk"),
            mine - left
        )),
    }
}

/// A sweep's estimate and its index in its experiment.
type SweepAt = (usize, sweep::estimate::SweepEstimate);

/// `1 case`, `3 cases`.
fn counted(n: usize, what: &str) -> String {
    crate::progress::counted(n as u64, what)
}

/// The dry run's last line: the sweeps' estimates summed. A sweep whose
/// time is a lower bound makes the total "at least", never "at most"; the
/// peak memory has its bound.
fn total_text(all: &[sweep::estimate::SweepEstimate], after: super::stages::StageCost) -> String {
    if all.is_empty() {
        return "total: nothing to solve\n".to_string();
    }
    let (wall, cpu, peak, out) = sweep::estimate::totals(all);
    let base = all.iter().map(|e| e.base_bytes).max().unwrap_or(0);
    let (wall, cpu, peak) = (
        wall + after.wall,
        cpu + after.cpu,
        peak.max(base.saturating_add(after.held)),
    );
    let bound: f64 = all.iter().map(|e| e.wall_secs_at_most).sum::<f64>() + after.wall;
    let unbounded = all.iter().any(|e| e.open_ended());
    let bound = match sweep::estimate::above(wall, bound) {
        _ if unbounded => format!(" (at least {})", crate::cost::human_secs(bound.max(wall))),
        Some(b) => format!(" (at most {})", crate::cost::human_secs(b)),
        None => String::new(),
    };
    let peak_bound = all.iter().map(|e| e.peak_bound()).max().unwrap_or(0);
    format!(
        "total: {}, ~{}{bound} on {} ({:.3} CPU-hours), peak memory ~{} (at most {}), output ~{} before compression\n",
        counted(all.len(), "sweep"),
        crate::cost::human_secs(wall),
        counted(rayon::current_num_threads(), "thread"),
        cpu / 3600.0,
        crate::mem::human_bytes(peak),
        crate::mem::human_bytes(peak_bound.max(peak)),
        crate::mem::human_bytes(out)
    )
}

/// The report stage's share of a run: which sweeps it would rebuild, and
/// how long they took when last built.
fn report_estimate(exps: &[Experiment], out: &std::path::Path) -> String {
    let all = report::experiments(exps, out);
    let (stale, total, secs) = report::plan(&all, out);
    let given: usize = exps.iter().map(|e| e.sweeps.len()).sum();
    // What the report rebuilds of a sweep (its checks, and the fits of
    // loss sets where its rows hold any) is known only from its rows: the
    // line names neither.
    let mut s = match total {
        0 => "report: nothing stored yet".to_string(),
        _ => format!(
            "report: {stale} of {} to rebuild (the others from its cache)",
            counted(total, "sweep")
        ),
    };
    if secs > 0.0 {
        s += &format!(", ~{secs:.1} s on one thread as last built");
    }
    if total < given {
        let left = given - total.min(given);
        s += &format!(
            "; {} not run yet {} reported after {} solved",
            counted(left, "sweep"),
            if left == 1 { "is" } else { "are" },
            if left == 1 { "it is" } else { "they are" }
        );
    }
    s + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kernel at a million units a second.
    fn flat_rates() -> crate::cost::Rates {
        crate::cost::Rates {
            per_sec: crate::family::calibration::kernels()
                .into_iter()
                .map(|k| (k, 1e6))
                .collect(),
            overhead: crate::cost::Overhead::default(),
            binary: String::new(),
            cpu: String::new(),
        }
    }

    /// Every spec shipped (the default run's, the overnight ones and the
    /// benches') is estimated with no "time unknown": each sweep's estimate
    /// prices every case's work (a case with none would be free, which no
    /// real case is), and every shipped claim type-checks.
    /// The stages after solving are measured, not modelled, where the dry
    /// run sampled cases: the octal spec's sampled tables are stored,
    /// rendered, checked and reported at two sizes or more, and cost time and
    /// memory (a failure to store or render them would fall back to the model
    /// without a word).
    #[test]
    fn the_stages_after_solving_are_measured_on_sampled_tables() {
        let exps = spec::load_specs(&[std::path::PathBuf::from("experiments/octal.yaml")]).unwrap();
        let e = &exps[0];
        let opts = sweep::RunOptions::quiet(std::path::Path::new("/nonexistent/nimlab-output"));
        let (_, _, ests) = dry_run_text(e, &flat_rates(), false, &opts).unwrap();
        let all: Vec<_> = ests
            .into_iter()
            .map(|(i, est)| (e, &e.sweeps[i], est))
            .collect();
        let after = super::super::stages::estimate(&exps, &all, (true, true), 2);
        assert!(after.measured >= 2, "{after:?}");
        assert!(
            after.cpu > 0.0 && after.wall > 0.0 && after.held > 0,
            "{after:?}"
        );
    }

    #[test]
    fn every_shipped_sweep_gets_an_estimate() {
        let dirs = ["experiments", "experiments/overnight", "benches/specs"];
        let paths: Vec<std::path::PathBuf> = dirs.iter().map(Into::into).collect();
        let exps = spec::load_specs(&paths).unwrap();
        assert!(exps.len() >= 14, "{} specs", exps.len());
        assert_eq!(
            check::plan_errors(&exps),
            vec![],
            "every shipped claim type-checks"
        );
        let rates = flat_rates();
        for e in &exps {
            let opts = sweep::RunOptions::quiet(std::path::Path::new("/nonexistent/nimlab-output"));
            let (text, _, all) = dry_run_text(e, &rates, false, &opts).unwrap();
            assert!(!text.contains("unknown"), "{text}");
            for (_, est) in &all {
                assert!(
                    est.wall_secs > 0.0 && est.cpu_secs >= est.wall_secs,
                    "{text}"
                );
                assert_eq!(est.case_secs.len(), est.cases);
            }
        }
    }

    /// A run plans each sweep once: loading the spec plans it and the
    /// guard, the run and the render use that plan; a dry run likewise
    /// (the toy family counts its plans per sweep name).
    #[test]
    fn a_run_and_a_dry_run_plan_each_sweep_once() {
        use crate::family::toy::plans_of;
        let spec = |tag: &str| {
            let text = format!(
                "experiment: once-{tag}\nsweeps:\n  - name: once-{tag}-a\n    family: toy\n    reach: 1..3\n    pebbles: 0..20\n  - name: once-{tag}-b\n    family: toy\n    reach: 2\n    pebbles: 0..5\n"
            );
            spec::from_text(&text, std::path::Path::new("t.yaml")).unwrap()
        };
        let dir = tempfile::tempdir().unwrap();
        let e = spec("run");
        sweep::guard::check_experiments(std::slice::from_ref(&e)).unwrap();
        sweep::run_quietly(&e, dir.path());
        render::render_experiment(&e, dir.path()).unwrap();
        assert_eq!((plans_of("once-run-a"), plans_of("once-run-b")), (1, 1));
        let e = spec("dry");
        let rates = flat_rates();
        let opts = sweep::RunOptions::quiet(dir.path());
        dry_run_text(&e, &rates, false, &opts).unwrap();
        assert_eq!((plans_of("once-dry-a"), plans_of("once-dry-b")), (1, 1));
    }

    #[test]
    fn peak_memory_counts_one_case_of_one_chunk_per_thread() {
        let dir = std::path::Path::new("t.yaml");
        let e = spec::from_text(
            "sweeps:\n  - name: a\n    family: takeaway\n    take: {max: 2..4}\n    heaps: 2\n    N: 0..99\n    play: misere\n",
            dir,
        )
        .unwrap();
        let sw = &e.sweeps[0];
        let plan = sw.plan().unwrap();
        let costs = sweep::guard::costs(&plan, None);
        let each = costs[0].memory_bound;
        assert!(costs.iter().all(|c| c.memory_bound == each));
        // Each case writes 100 × 100 positions rows, held twice (table and encoder).
        let positions = sw.family.datasets().iter().find(|d| d.name == "positions");
        let table = 2 * 100 * 100 * positions.unwrap().row_bytes();
        assert!(costs.iter().all(|c| c.rows == [("positions", 10_000)]));
        let chunks: Vec<u64> = sweep::chunks(&plan.cases)
            .iter()
            .map(|c| (c.end - c.start) as u64 * table)
            .collect();
        let f = |t| sweep::guard::memory_figures((&plan, &costs), sw.family.datasets(), None, t);
        let mut top = chunks.clone();
        top.sort_unstable_by(|a, b| b.cmp(a));
        // A chunk's cases are solved in turn: one case a chunk at once.
        let at_once = |t: usize| chunks.len().min(t) as u64;
        assert_eq!(
            f(2).peak,
            at_once(2) * each + top.iter().take(2).sum::<u64>()
        );
        // Expected: each case at its expected size, the tables once at the
        // sizes the case counts (two heaps, misère, no Grundy value: 16 + 1 +
        // 8 + 16 = 41 bytes a row, by hand).
        let expected = costs[0].expected_memory();
        let rows_of_two_chunks: u64 = {
            let mut sizes: Vec<u64> = sweep::chunks(&plan.cases)
                .iter()
                .map(|c| (c.end - c.start) as u64 * 10_000)
                .collect();
            sizes.sort_unstable_by(|a, b| b.cmp(a));
            sizes.iter().take(2).sum()
        };
        assert_eq!(
            f(2).expected,
            at_once(2) * expected + 41 * rows_of_two_chunks
        );
        assert_eq!(f(8).peak, at_once(8) * each + chunks.iter().sum::<u64>());
        assert_eq!(f(8).writer, top[0]);
        assert_eq!(f(1).largest.unwrap().1, each);
    }
}

#[cfg(test)]
#[path = "run_tests.rs"]
mod no_spec_tests;
