//! The sweep driver: plan → chunks → parallel solve → Parquet parts. It
//! neither renders nor reports: those are later stages that read the store.
//!
//! Cases are grouped into chunks of consecutive cases (by estimated cost, so a
//! chunk is neither a single tiny case nor hours of work). The chunking depends
//! only on the plan, never on the machine, so a chunk's id is stable: a rerun
//! skips every chunk whose record exists and recomputes the rest, and the
//! final data are the same as an uninterrupted run's.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde_json::json;

use crate::family::{Case, CaseCtx, Interrupted, Plan};
use crate::spec::{Experiment, Sweep};
use crate::store::{ChunkId, SweepDir, write_atomic};
use crate::table::Table;

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

/// Assigns chunks to `n` shards: largest estimated cost first, each to the
/// least-loaded shard (ties to the lower shard). Depends only on the plan.
pub fn assign_shards(chunks: &[Chunk], n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..chunks.len()).collect();
    order.sort_by(|&a, &b| chunks[b].cost.cmp(&chunks[a].cost).then(a.cmp(&b)));
    let mut load = vec![0u64; n.max(1)];
    let mut out = vec![0usize; chunks.len()];
    for i in order {
        let s = (0..load.len()).min_by_key(|&s| (load[s], s)).unwrap();
        load[s] += chunks[i].cost.max(1);
        out[i] = s;
    }
    out
}

/// Peak resident memory of this process so far, in bytes (Linux), if known.
pub fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|_| std::env::var("HOSTNAME").unwrap_or_else(|_| "unknown".into()))
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

/// A chunk: consecutive cases `start..end` of a plan.
#[derive(Clone, Debug)]
pub struct Chunk {
    /// Stable id.
    pub id: ChunkId,
    /// First case.
    pub start: usize,
    /// One past the last case.
    pub end: usize,
    /// Estimated cost.
    pub cost: u64,
}

/// Splits a plan's cases into chunks of roughly equal cost. Depends only on the
/// cases (their keys and costs), never on the machine.
pub fn chunks(cases: &[Box<dyn Case>]) -> Vec<Chunk> {
    let total: u64 = cases.iter().map(|c| c.cost().max(1)).sum();
    let target = (total / 64).max(1 << 20);
    let mut out = Vec::new();
    let mut start = 0;
    let mut acc = 0u64;
    let mut keys = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        acc += c.cost().max(1);
        keys.push(c.key());
        if acc >= target || keys.len() >= 4096 || i + 1 == cases.len() {
            out.push(Chunk {
                id: ChunkId::new(out.len(), &keys),
                start,
                end: i + 1,
                cost: acc,
            });
            start = i + 1;
            acc = 0;
            keys.clear();
        }
    }
    out
}

/// A progress bar on stderr, hidden when stderr is not a terminal or when quiet.
pub fn progress_bar(len: u64, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    pb.set_style(
        ProgressStyle::with_template(
            "{prefix:.bold} [{bar:30}] {percent:>3}% {msg} ({per_sec}, ETA {eta})",
        )
        .unwrap()
        .progress_chars("=> "),
    );
    pb
}

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

/// Runs every sweep of an experiment. `cancel` is set by Ctrl-C.
pub fn run_experiment(
    exp: &Experiment,
    opts: &RunOptions,
    cancel: &AtomicBool,
) -> Result<Vec<SweepReport>> {
    let exp_dir = opts.out.join(&exp.name);
    let started = chrono_now();
    let t0 = Instant::now();
    let mut reports = Vec::new();
    for sweep in &exp.sweeps {
        let plan = sweep.plan()?;
        let r = run_sweep(exp, sweep, plan, &exp_dir, opts, cancel)
            .with_context(|| format!("experiment {}, sweep {}", exp.name, sweep.name))?;
        reports.push(r);
    }
    let shard_json = opts.shard.map(|(i, n)| json!({"index": i, "count": n}));
    let manifest = json!({
        "experiment": exp.name,
        "shard": shard_json,
        "git_commit": env!("NIMLAB_GIT_COMMIT"),
        "host": host_name(),
        "peak_memory_bytes": peak_memory(),
        "title": exp.title,
        "spec_file": exp.file.display().to_string(),
        "spec_xxh3": format!("{:016x}", xxhash_rust::xxh3::xxh3_64(exp.text.as_bytes())),
        "spec": exp.text,
        "nimlab_version": env!("CARGO_PKG_VERSION"),
        "started": started,
        "finished": chrono_now(),
        "wall_seconds": t0.elapsed().as_secs_f64(),
        "threads": rayon::current_num_threads(),
        "sweeps": reports.iter().map(|r| json!({
            "name": r.name, "cases": r.cases, "chunks_computed": r.computed, "chunks_reused": r.skipped,
            "solve_seconds": r.solve_secs, "write_seconds": r.write_secs,
            "wall_seconds": r.wall_secs, "notes": r.notes,
            "datasets": r.checksums.iter().map(|(d, rows, h)| json!({"dataset": d, "parts": rows, "xxh3_of_parts": h})).collect::<Vec<_>>(),
            "cases_timing": r.case_timing,
        })).collect::<Vec<_>>(),
    });
    let name = match opts.shard {
        Some((i, n)) => format!("manifest-shard-{i}-of-{n}.json"),
        None => "manifest.json".to_string(),
    };
    write_atomic(
        &exp_dir.join(name),
        serde_json::to_string_pretty(&manifest)?.as_bytes(),
    )?;
    Ok(reports)
}

/// Seconds since the Unix epoch, as text (no date crate needed for provenance).
fn chrono_now() -> String {
    let d = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    format!("{}", d.as_secs())
}

fn run_sweep(
    exp: &Experiment,
    sweep: &Sweep,
    plan: Plan,
    exp_dir: &Path,
    opts: &RunOptions,
    cancel: &AtomicBool,
) -> Result<SweepReport> {
    let t0 = Instant::now();
    let dir = SweepDir::new(exp_dir, &sweep.name);
    let chunks = chunks(&plan.cases);
    let ids: Vec<ChunkId> = chunks.iter().map(|c| c.id.clone()).collect();
    dir.prune(&ids)?;
    let mine: Vec<&Chunk> = match opts.shard {
        Some((i, n)) => {
            let owner = assign_shards(&chunks, n);
            chunks
                .iter()
                .zip(owner)
                .filter(|(_, o)| *o == i)
                .map(|(c, _)| c)
                .collect()
        }
        None => chunks.iter().collect(),
    };
    let mut todo: Vec<&Chunk> = mine
        .iter()
        .copied()
        .filter(|c| opts.force || !dir.is_done(&c.id))
        .collect();
    let skipped = mine.len() - todo.len();
    // Biggest first: better balance on few cores; the output does not depend on the order.
    todo.sort_by(|a, b| b.cost.cmp(&a.cost).then(a.start.cmp(&b.start)));
    let total_cost: u64 = todo.iter().map(|c| c.cost).sum();
    let pb = progress_bar(total_cost, opts.quiet);
    pb.set_prefix(format!("{}/{}", exp.name, sweep.name));
    let cases_done = AtomicU64::new(0);
    let cases_todo: usize = todo.iter().map(|c| c.end - c.start).sum();
    pb.set_message(format!("0/{cases_todo} cases"));
    let solve_ns = AtomicU64::new(0);
    let write_ns = AtomicU64::new(0);
    let first_error: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let failed = AtomicBool::new(false);
    let record_error = |e: anyhow::Error| {
        failed.store(true, Ordering::Relaxed);
        let mut slot = first_error.lock().unwrap();
        if slot.is_none() {
            *slot = Some(e);
        }
    };
    // Solving runs on the rayon pool; writing runs on one plain thread fed by a
    // bounded channel. Polars encodes on its own thread pool, and a rayon worker
    // blocked on another pool would steal more chunks meanwhile (nesting them and
    // their memory); a separate writer avoids that and overlaps I/O with solving.
    type Done = (ChunkId, Vec<(&'static str, Vec<Table>)>, serde_json::Value);
    let (tx, rx) = std::sync::mpsc::sync_channel::<Done>(2);
    std::thread::scope(|scope| {
        let writer = scope.spawn(|| {
            for (id, tables, info) in rx {
                if failed.load(Ordering::Relaxed) {
                    continue;
                }
                let tw = Instant::now();
                let res = (|| -> Result<()> {
                    for (name, parts) in tables {
                        crate::store::write_parquet_parts(&dir.part_path(name, &id), parts)?;
                    }
                    dir.mark_done(&id, &info)
                })();
                write_ns.fetch_add(tw.elapsed().as_nanos() as u64, Ordering::Relaxed);
                if let Err(e) = res {
                    record_error(e);
                }
            }
        });
        todo.par_iter().for_each_with(tx, |tx, chunk| {
            if cancel.load(Ordering::Relaxed) || failed.load(Ordering::Relaxed) {
                return;
            }
            let res = (|| -> Result<Done> {
                let mut tables: Vec<(&'static str, Vec<Table>)> = Vec::new();
                let ts = Instant::now();
                let mut timings = Vec::new();
                for case in &plan.cases[chunk.start..chunk.end] {
                    if cancel.load(Ordering::Relaxed) {
                        bail!(Interrupted);
                    }
                    let progress = |n: u64| pb.inc(n);
                    let ctx = CaseCtx {
                        progress: &progress,
                        cancel,
                        keep: sweep.datasets.as_deref(),
                    };
                    let tc = Instant::now();
                    let out = case
                        .solve(&ctx)
                        .with_context(|| format!("case {}", case.key()))?;
                    timings.push(json!({"key": case.key(), "seconds": tc.elapsed().as_secs_f64()}));
                    for (name, t) in out {
                        if !ctx.wants(name) {
                            continue;
                        }
                        match tables.iter_mut().find(|(n, _)| *n == name) {
                            Some((_, acc)) => {
                                if acc[0].names() != t.names() {
                                    bail!(
                                        "dataset {name}: case {} gives columns [{}], others [{}]",
                                        case.key(),
                                        t.names().join(", "),
                                        acc[0].names().join(", ")
                                    );
                                }
                                acc.push(t);
                            }
                            None => tables.push((name, vec![t])),
                        }
                    }
                    let done = cases_done.fetch_add(1, Ordering::Relaxed) + 1;
                    pb.set_message(format!("{done}/{cases_todo} cases"));
                }
                solve_ns.fetch_add(ts.elapsed().as_nanos() as u64, Ordering::Relaxed);
                Ok((
                    chunk.id.clone(),
                    tables,
                    json!({"chunk": chunk.id.stem(), "cases": timings}),
                ))
            })();
            match res {
                Ok(done) => {
                    if tx.send(done).is_err() {
                        record_error(anyhow::anyhow!("the writer thread stopped"));
                    }
                }
                Err(e) => record_error(e),
            }
        });
        if writer.join().is_err() {
            record_error(anyhow::anyhow!("the writer thread panicked"));
        }
    });
    pb.finish_and_clear();
    let err = first_error.into_inner().unwrap();
    if cancel.load(Ordering::Relaxed)
        || err
            .as_ref()
            .is_some_and(|e| e.downcast_ref::<Interrupted>().is_some())
    {
        let saved = mine.iter().filter(|c| dir.is_done(&c.id)).count();
        bail!(InterruptedRun(format!(
            " in {}/{}: {saved} of {} chunks saved",
            exp.name,
            sweep.name,
            mine.len()
        )));
    }
    if let Some(e) = err {
        return Err(e);
    }
    let mut report = SweepReport {
        name: sweep.name.clone(),
        cases: plan.cases.len(),
        computed: todo.len(),
        skipped,
        solve_secs: solve_ns.into_inner() as f64 / 1e9,
        write_secs: write_ns.into_inner() as f64 / 1e9,
        notes: plan.notes.clone(),
        ..Default::default()
    };
    for d in dir.datasets() {
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        let mut parts = 0;
        for c in &mine {
            let p = dir.part_path(&d, &c.id);
            if let Ok(bytes) = std::fs::read(&p) {
                h.update(&bytes);
                parts += 1;
            }
        }
        report
            .checksums
            .push((d, parts, format!("{:016x}", h.digest())));
    }
    for c in &mine {
        if let Some(serde_json::Value::Array(cases)) = dir
            .chunk_info(&c.id)
            .and_then(|mut v| v.get_mut("cases").map(|x| x.take()))
        {
            report.case_timing.extend(cases);
        }
    }
    report.wall_secs = t0.elapsed().as_secs_f64();
    if !opts.quiet {
        eprintln!(
            "{}/{}: {} cases ({} chunks computed, {} reused) in {:.2}s",
            exp.name, sweep.name, report.cases, report.computed, report.skipped, report.wall_secs,
        );
        for n in &report.notes {
            eprintln!("  note: {n}");
        }
    }
    Ok(report)
}

/// Copies every chunk of an experiment's plan from the shard directories into
/// `out` (parts and records, atomically), fails naming the missing chunks if
/// any shard is incomplete, then writes the manifest (rendering is the
/// caller's next stage). Returns the number of chunks copied.
pub fn merge_experiment(exp: &Experiment, from: &[PathBuf], out: &Path) -> Result<usize> {
    let exp_dir = out.join(&exp.name);
    let mut copied = 0;
    let mut reports = Vec::new();
    for sweep in &exp.sweeps {
        let plan = sweep.plan()?;
        let chunks = chunks(&plan.cases);
        let dest = SweepDir::new(&exp_dir, &sweep.name);
        let mut missing = Vec::new();
        for c in &chunks {
            if dest.is_done(&c.id) {
                continue;
            }
            let src = from
                .iter()
                .map(|f| SweepDir::new(&f.join(&exp.name), &sweep.name))
                .find(|d| d.is_done(&c.id));
            let Some(src) = src else {
                missing.push(c.id.stem());
                continue;
            };
            for d in src.datasets() {
                let p = src.part_path(&d, &c.id);
                if p.exists() {
                    let bytes = std::fs::read(&p)
                        .with_context(|| format!("cannot read {}", p.display()))?;
                    write_atomic(&dest.part_path(&d, &c.id), &bytes)?;
                }
            }
            let info = src.chunk_info(&c.id).unwrap_or_default();
            dest.mark_done(&c.id, &info)?;
            copied += 1;
        }
        if !missing.is_empty() {
            bail!(
                "sweep {}: {} of {} chunks are in none of the shard directories (first: {}); run the missing shards first",
                sweep.name,
                missing.len(),
                chunks.len(),
                missing[0]
            );
        }
        reports.push(sweep.name.clone());
    }
    // Everything is present: a plain run reuses every chunk and writes the manifest.
    let opts = RunOptions {
        out: out.to_path_buf(),
        force: false,
        quiet: true,
        shard: None,
    };
    run_experiment(exp, &opts, &AtomicBool::new(false))?;
    Ok(copied)
}
