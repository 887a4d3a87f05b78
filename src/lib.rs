//! # nimlab
//!
//! Solve, sweep, tabulate and plot Nim-like games.
//!
//! Architecture (each module knows only the ones above it):
//!
//! * [`game`] — the play convention and the reference brute-force solvers.
//! * [`family`] — the plug-in boundary: a [`family::Family`] turns a sweep's
//!   parameters into [`family::Case`]s and lists its [`view::View`]s; one
//!   folder per family (`takeaway`, …), one registration line in
//!   [`family::FAMILIES`].
//! * [`spec`] — YAML specs → validated [`spec::Experiment`]s, errors naming
//!   file and field.
//! * [`sweep`] — the driver: chunks, rayon, progress, resume.
//! * [`store`] — Parquet (polars) datasets, atomic writes.
//! * [`render`] — Markdown/CSV/PNG tables and PNG/SVG figures from stored data.
//! * [`period`] — minimal period and preperiod, proven or observed.
//! * [`table`] — the small columnar table everything exchanges.
//! * [`check`] — conjectures judged on stored results; [`fit`] — simple
//!   closed forms fitted to two-heap loss sets; [`report`] — `REPORT.md` and
//!   `REPORT.html` over an output directory.

#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod check;
pub mod cli;
pub mod cmd;
pub mod family;
pub mod fit;
pub mod game;
pub mod mem;
pub mod period;
pub mod render;
pub mod report;
pub mod spec;
pub mod store;
pub mod sweep;
pub mod table;
pub mod view;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result, bail};

use cli::{Cli, Command};

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<ExitCode> {
    if let Some(t) = cli.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t.max(1))
            .build_global()
            .context("cannot start the thread pool")?;
    }
    match cli.command {
        Command::Run {
            specs,
            out,
            force,
            quiet,
            no_render,
            dry_run,
            shard,
        } => {
            let exps = load_specs(&specs)?;
            if dry_run {
                for e in &exps {
                    print!("{}", dry_run_text(e)?);
                }
                return Ok(ExitCode::SUCCESS);
            }
            let cancel = Arc::new(AtomicBool::new(false));
            let c2 = cancel.clone();
            // A second Ctrl-C while stopping ends the process at once.
            let _ = ctrlc::set_handler(move || {
                if c2.swap(true, Ordering::SeqCst) {
                    std::process::exit(130);
                }
                eprintln!(
                    "\nnimlab: stopping: finished chunks are kept, chunks in progress are dropped (Ctrl-C again to quit now)…"
                );
            });
            let opts = sweep::RunOptions {
                out,
                force,
                quiet,
                no_render,
                shard,
            };
            for e in &exps {
                sweep::run_experiment(e, &opts, &cancel)?;
                if opts.shard.is_none() && !e.conjectures.is_empty() {
                    let results = write_conjectures(e, &opts.out)?;
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
                let summary =
                    report::write_report(&report::experiments(&exps, &opts.out), &opts.out)?;
                if !opts.quiet {
                    eprintln!("{}", report_line(&summary));
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Check { specs, out } => {
            let exps = load_specs(&specs)?;
            let mut bad = 0;
            for e in &exps {
                if e.conjectures.is_empty() {
                    continue;
                }
                let results = write_conjectures(e, &out)?;
                print!("## {}\n\n{}\n", e.name, check::render_markdown(&results));
                bad += results
                    .iter()
                    .filter(|r| {
                        matches!(r.verdict(), check::Verdict::Fails | check::Verdict::Error)
                    })
                    .count();
            }
            Ok(if bad > 0 {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Board(args) => cmd::board::run(args),
        Command::Merge { specs, from, out } => {
            let exps = load_specs(&specs)?;
            for e in &exps {
                let n = sweep::merge_experiment(e, &from, &out)?;
                eprintln!(
                    "{}: merged {n} chunks into {}",
                    e.name,
                    out.join(&e.name).display()
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Report { specs, out } => {
            let given = if specs.is_empty() {
                Vec::new()
            } else {
                load_specs(&specs)?
            };
            let exps = report::experiments(&given, &out);
            if exps.is_empty() {
                bail!("no results in {}: run `nimlab run` first", out.display());
            }
            let summary = report::write_report(&exps, &out)?;
            eprintln!("{}", report_line(&summary));
            Ok(ExitCode::SUCCESS)
        }
        Command::Render { specs, out } => {
            let exps = load_specs(&specs)?;
            for e in &exps {
                for s in &e.sweeps {
                    let file = e.file.display().to_string();
                    let plan = s.family.plan(&sweep::sweep_node(s, &file))?;
                    let dir = store::SweepDir::new(&out.join(&e.name), &s.name);
                    let files = sweep::render_sweep(s, &plan, &dir)?;
                    eprintln!("{}/{}: {} files rendered", e.name, s.name, files.len());
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Solve {
            family,
            mut json,
            mut params,
        } => {
            // `--json` after the family's parameters lands in `params` (they are
            // free-form); take it out wherever it stands.
            if let Some(i) = params.iter().position(|p| p == "--json") {
                params.remove(i);
                json = true;
            }
            let fam = family::by_name(&family).with_context(|| {
                format!(
                    "unknown family {family:?}; known families: {}",
                    family::FAMILIES
                        .iter()
                        .map(|f| f.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })?;
            let value = solve_params(&params)?;
            let node = spec::Node::root(&value, "<command line>");
            let answer = fam.solve(&node)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&answer.json)?);
            } else {
                print!("{}", answer.text);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Families => {
            for f in family::FAMILIES {
                println!("{}\n  {}\n  parameters:", f.name(), f.about());
                for line in f.params_help().lines() {
                    println!("    {line}");
                }
                println!("  views: {}\n", f.view_names().join(", "));
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn report_line(s: &report::ReportSummary) -> String {
    format!(
        "report: {} ({} experiments; claims: {})",
        s.files
            .iter()
            .map(|f| f.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
        s.experiments,
        s.counts
            .iter()
            .map(|(v, n)| format!("{n} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// Checks an experiment's conjectures on its stored results and writes
/// `<out>/<experiment>/conjectures.md`.
fn write_conjectures(e: &spec::Experiment, out: &Path) -> Result<Vec<check::ConjectureResult>> {
    let dir = out.join(&e.name);
    let results = check::check_conjectures(&dir, &e.conjectures, &check::CheckOptions::default());
    let md = format!(
        "# Conjectures — {}\n\n{}",
        e.title,
        check::render_markdown(&results)
    );
    store::write_atomic(&dir.join("conjectures.md"), md.as_bytes())?;
    Ok(results)
}

/// Turns `--key value` / `key=value` arguments into a parameter map; each
/// value is read as YAML (`3,5,7` as a list).
pub fn solve_params(args: &[String]) -> Result<serde_json::Value> {
    let mut map = serde_json::Map::new();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        let (key, val) = if let Some(k) = a.strip_prefix("--") {
            if let Some((k, v)) = k.split_once('=') {
                (k.to_string(), v.to_string())
            } else {
                let v = args.get(i + 1).filter(|v| !v.starts_with("--"));
                match v {
                    Some(v) => {
                        i += 1;
                        (k.to_string(), v.clone())
                    }
                    None => (k.to_string(), "true".to_string()),
                }
            }
        } else if let Some((k, v)) = a.split_once('=') {
            (k.to_string(), v.to_string())
        } else {
            bail!("cannot read argument {a:?}: give parameters as --key value or key=value");
        };
        let key = key.replace('-', "_");
        let text =
            if val.contains(',') && !val.trim_start().starts_with(['[', '{']) && !val.contains(':')
            {
                format!("[{val}]")
            } else if val.contains(':') && !val.trim_start().starts_with(['[', '{']) {
                // `max:5` or `min:2,max:7` as a map.
                format!("{{{}}}", val.replace(':', ": "))
            } else {
                val.clone()
            };
        let v = spec::parse_yaml(&text, "<command line>")
            .map_err(|e| anyhow::anyhow!("--{key}: {}", e.message))?;
        map.insert(key, v);
        i += 1;
    }
    Ok(serde_json::Value::Object(map))
}

/// The default specs: every `*.yaml` directly under `experiments/`.
pub fn default_specs() -> Result<Vec<PathBuf>> {
    spec_files(Path::new("experiments"))
}

fn spec_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read directory {}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
        .collect();
    v.sort();
    Ok(v)
}

/// Loads specs from files and directories (default: `experiments/*.yaml`).
pub fn load_specs(paths: &[PathBuf]) -> Result<Vec<spec::Experiment>> {
    let mut files = Vec::new();
    if paths.is_empty() {
        files = default_specs()?;
    }
    for p in paths {
        if p.is_dir() {
            files.extend(spec_files(p)?);
        } else {
            files.push(p.clone());
        }
    }
    if files.is_empty() {
        bail!("no spec files found");
    }
    let mut exps: Vec<spec::Experiment> = Vec::new();
    for f in files {
        let e = spec::load(&f)?;
        if let Some(other) = exps.iter().find(|o| o.name == e.name) {
            bail!(
                "{} and {} both name experiment {:?}",
                other.file.display(),
                f.display(),
                e.name
            );
        }
        exps.push(e);
    }
    Ok(exps)
}

fn dry_run_text(e: &spec::Experiment) -> Result<String> {
    use std::fmt::Write as _;
    let mut s = format!("{} ({})\n", e.name, e.file.display());
    let threads = rayon::current_num_threads();
    for sw in &e.sweeps {
        let file = e.file.display().to_string();
        let plan = sw.family.plan(&sweep::sweep_node(sw, &file))?;
        let cost: u64 = plan.cases.iter().map(|c| c.cost()).sum();
        let chunks = sweep::chunks(&plan.cases);
        // Peak memory: a chunk's results are held until written; up to one chunk per
        // thread plus two waiting for the writer.
        let chunk_mem = chunks
            .iter()
            .map(|c| {
                plan.cases[c.start..c.end]
                    .iter()
                    .map(|k| k.memory())
                    .sum::<u64>()
            })
            .max()
            .unwrap_or(0);
        let mem = chunk_mem * (threads as u64 + 2);
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
            "  {}: {} cases in {} chunks, ~{:.3e} work units, {eta}, peak memory ~{:.1} MiB",
            sw.name,
            plan.cases.len(),
            chunks.len(),
            cost as f64,
            mem as f64 / (1u64 << 20) as f64
        );
        for n in &plan.notes {
            let _ = writeln!(s, "    note: {n}");
        }
    }
    Ok(s)
}

/// Work units per second on one thread, measured by solving the cheapest cases
/// (in memory, nothing written) for up to a quarter of a second.
fn calibrate(plan: &family::Plan) -> Option<f64> {
    let mut order: Vec<usize> = (0..plan.cases.len()).collect();
    order.sort_by_key(|&i| plan.cases[i].cost());
    let cancel = AtomicBool::new(false);
    let progress = |_: u64| {};
    let ctx = family::CaseCtx {
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
