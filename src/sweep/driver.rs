//! One sweep run: the chunks to do are solved in parallel on the rayon pool
//! and written by one writer thread, each chunk's record after its parts.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use indicatif::ProgressBar;
use rayon::prelude::*;
use serde_json::json;

use super::chunks::{Chunk, assign_shards, chunks};
use super::estimate::SweepEstimate;
use super::phases::{Span, Timer};
use super::{InterruptedRun, RunOptions, SweepReport};
use crate::data::{Dataset, Table};
use crate::family::{Case, CaseCtx, Cost, Interrupted, Plan};
use crate::mem::thread_cpu;
use crate::progress::{counted, progress_bar_estimated};
use crate::spec::{Experiment, Sweep};
use crate::store::{ChunkId, SweepDir};

/// A solved chunk on its way to the writer: its tables, per dataset.
struct Done {
    id: ChunkId,
    tables: Vec<(&'static Dataset, Vec<Table>)>,
    info: serde_json::Value,
}

/// What the solving threads share.
struct Shared<'a> {
    plan: &'a Plan,
    sweep: &'a Sweep,
    /// The sweep's datasets with the experiment's grid parameters.
    declared: &'static [&'static Dataset],
    cancel: &'a AtomicBool,
    pb: &'a ProgressBar,
    cases_done: AtomicU64,
    cases_todo: usize,
    solve_ns: AtomicU64,
    write_ns: AtomicU64,
    /// CPU nanoseconds of the threads while they write (summed).
    write_cpu_ns: AtomicU64,
    failed: AtomicBool,
    first_error: Mutex<Option<anyhow::Error>>,
    /// Whether a part has been written ([`SweepReport::wrote_parts`]).
    wrote: AtomicBool,
}

impl Shared<'_> {
    fn record_error(&self, e: anyhow::Error) {
        self.failed.store(true, Ordering::Relaxed);
        let mut slot = self.first_error.lock().unwrap_or_else(|p| p.into_inner());
        if slot.is_none() {
            *slot = Some(e);
        }
    }
    fn stopped(&self) -> bool {
        self.cancel.load(Ordering::Relaxed) || self.failed.load(Ordering::Relaxed)
    }
}

/// Runs one sweep of `exp`: prunes stale chunks, solves the missing ones
/// (this shard's share), and reports what was done.
pub fn run_sweep(
    exp: &Experiment,
    sweep: &Sweep,
    plan: Plan,
    opts: &RunOptions,
    cancel: &AtomicBool,
    estimate: Option<&SweepEstimate>,
) -> Result<SweepReport> {
    let t0 = Instant::now();
    let before = Timer::start();
    let dir = sweep.dir(&opts.out, &exp.name);
    let all = chunks(&plan.cases);
    let ids: Vec<ChunkId> = all.iter().map(|c| c.id.clone()).collect();
    dir.prune(&ids)?;
    let mine = own_chunks(&all, opts.shard);
    let mut todo = not_done(&mine, &dir, opts.force);
    // Biggest first: better balance on few cores; the output does not depend on the order.
    todo.sort_by(|a, b| b.cost.cmp(&a.cost).then(a.start.cmp(&b.start)));
    let (pb, shares) = sweep_bar(exp, sweep, &plan, &todo, (opts.quiet, estimate));
    let shared = Shared {
        plan: &plan,
        sweep,
        declared: sweep.declared(),
        cancel,
        pb: &pb,
        cases_done: AtomicU64::new(0),
        cases_todo: todo.iter().map(|c| c.end - c.start).sum(),
        solve_ns: AtomicU64::new(0),
        write_ns: AtomicU64::new(0),
        write_cpu_ns: AtomicU64::new(0),
        failed: AtomicBool::new(false),
        first_error: Mutex::new(None),
        wrote: AtomicBool::new(false),
    };
    pb.set_message(match shares {
        true => format!(
            "0/{} cases · first what the cases share (a table built once)",
            shared.cases_todo
        ),
        false => format!("0/{} cases", shared.cases_todo),
    });
    let planned = before.span();
    let stage = Timer::start();
    solve_and_write(&shared, &todo, &dir);
    let stage = stage.span();
    pb.finish_and_clear();
    stage_outcome(
        &shared,
        &dir,
        &mine,
        &format!("{}/{}", exp.name, sweep.name),
    )?;
    let after = Timer::start();
    let mut report = SweepReport {
        name: sweep.name.clone(),
        cases: plan.cases.len(),
        computed: todo.len(),
        skipped: mine.len() - todo.len(),
        solve_secs: shared.solve_ns.load(Ordering::Relaxed) as f64 / 1e9,
        write_secs: shared.write_ns.load(Ordering::Relaxed) as f64 / 1e9,
        notes: crate::family::note::lines(&plan.notes),
        checksums: checksums(&dir, &mine),
        case_timing: timings(&dir, &mine),
        wrote_parts: shared.wrote.load(Ordering::Relaxed),
        ..Default::default()
    };
    let (solve, mut write) = split_stage(&shared, stage);
    write += after.span();
    report.phases.plan = planned;
    report.phases.solve = solve;
    report.phases.write = write;
    report.wall_secs = t0.elapsed().as_secs_f64();
    Ok(report)
}

/// The sweep's progress bar over the estimated work of the chunks to solve,
/// its time left starting from the sweep's `estimate` (its share of the
/// work), and whether the cases share work done first (a table built once,
/// which the bar's work does not count).
fn sweep_bar(
    exp: &Experiment,
    sweep: &Sweep,
    plan: &Plan,
    todo: &[&Chunk],
    (quiet, estimate): (bool, Option<&SweepEstimate>),
) -> (ProgressBar, bool) {
    let keep = sweep.datasets.as_deref();
    let costs: Vec<Cost> = plan.cases.iter().map(|c| c.cost(keep)).collect();
    let weights: Vec<u64> = costs.iter().map(weight).collect();
    let sum = |w: &[u64]| w.iter().fold(0u64, |a, &b| a.saturating_add(b));
    let len = todo
        .iter()
        .map(|c| sum(&weights[c.start..c.end]))
        .fold(0u64, u64::saturating_add);
    let all = sum(&weights).max(1);
    let secs = estimate.map(|e| e.wall_secs * len as f64 / all as f64);
    let pb = progress_bar_estimated(len, quiet, secs);
    pb.set_prefix(format!("{}/{}", exp.name, sweep.name));
    let shares = costs.iter().any(|c| !c.shared_work.is_empty());
    (pb, shares)
}

/// How the parallel stage of sweep `name` ended: interrupted (Ctrl-C, or a
/// case that noticed it), with the chunks saved of this shard's `mine`; the
/// first error; or done.
fn stage_outcome(shared: &Shared<'_>, dir: &SweepDir, mine: &[&Chunk], name: &str) -> Result<()> {
    let err = shared
        .first_error
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .take();
    if shared.cancel.load(Ordering::Relaxed)
        || err
            .as_ref()
            .is_some_and(|e| e.downcast_ref::<Interrupted>().is_some())
    {
        let saved = mine.iter().filter(|c| dir.is_done(&c.id)).count();
        bail!(InterruptedRun(format!(
            " in {name}: {saved} of {} saved",
            counted(mine.len() as u64, "chunk")
        )));
    }
    err.map_or(Ok(()), Err)
}

/// The parallel stage's time split into solving and writing: the CPU time of
/// the threads while writing is `write`'s, the rest `solve`'s; the wall time
/// in proportion to the threads' time in each.
fn split_stage(shared: &Shared<'_>, stage: Span) -> (Span, Span) {
    let solve_ns = shared.solve_ns.load(Ordering::Relaxed) as f64;
    let write_ns = shared.write_ns.load(Ordering::Relaxed) as f64;
    let write_cpu = (shared.write_cpu_ns.load(Ordering::Relaxed) as f64 / 1e9).min(stage.cpu);
    let share = if solve_ns + write_ns > 0.0 {
        write_ns / (solve_ns + write_ns)
    } else {
        0.0
    };
    let solve = Span {
        wall: stage.wall * (1.0 - share),
        cpu: stage.cpu - write_cpu,
    };
    let write = Span {
        wall: stage.wall * share,
        cpu: write_cpu,
    };
    (solve, write)
}

/// Of `mine`, the chunks not finished in `dir` (all when `force`).
fn not_done<'a>(mine: &[&'a Chunk], dir: &SweepDir, force: bool) -> Vec<&'a Chunk> {
    mine.iter()
        .copied()
        .filter(|c| force || !dir.is_done(&c.id))
        .collect()
}

/// What a run with `opts` would leave to do of `sweep` planned as `plan`:
/// the plan of this shard's unfinished cases, and how many chunks that is
/// (left, this run's share, all).
pub fn left_to_do(
    exp: &Experiment,
    sweep: &Sweep,
    plan: Plan,
    opts: &RunOptions,
) -> (Plan, [usize; 3]) {
    let dir = sweep.dir(&opts.out, &exp.name);
    let all = chunks(&plan.cases);
    let mine = own_chunks(&all, opts.shard);
    let todo = not_done(&mine, &dir, opts.force);
    let mut keep = vec![false; plan.cases.len()];
    for c in &todo {
        keep[c.start..c.end].iter_mut().for_each(|k| *k = true);
    }
    let counts = [todo.len(), mine.len(), all.len()];
    let mut left = plan;
    let cases = std::mem::take(&mut left.cases);
    left.cases = cases
        .into_iter()
        .zip(keep)
        .filter_map(|(c, k)| k.then_some(c))
        .collect();
    (left, counts)
}

/// The chunks this run owns: all, or one shard's share.
fn own_chunks(all: &[Chunk], shard: Option<(usize, usize)>) -> Vec<&Chunk> {
    match shard {
        Some((i, n)) => {
            let owner = assign_shards(all, n);
            all.iter()
                .zip(owner)
                .filter(|(_, o)| *o == i)
                .map(|(c, _)| c)
                .collect()
        }
        None => all.iter().collect(),
    }
}

/// Each chunk is solved and then written by the same rayon task: the Parquet
/// encoder is single-threaded, so writing inside the tasks spreads encoding
/// over every core (one writer thread was the bottleneck of large sweeps).
fn solve_and_write(shared: &Shared<'_>, todo: &[&Chunk], dir: &SweepDir) {
    todo.par_iter().for_each(|chunk| {
        if shared.stopped() {
            return;
        }
        let done = match solve_chunk(shared, chunk) {
            Ok(done) => done,
            Err(e) => return shared.record_error(e),
        };
        if shared.failed.load(Ordering::Relaxed) {
            return;
        }
        let (tw, cw) = (Instant::now(), thread_cpu());
        if !done.tables.is_empty() {
            shared.wrote.store(true, Ordering::Relaxed);
        }
        let res = write_chunk(dir, done);
        shared
            .write_ns
            .fetch_add(tw.elapsed().as_nanos() as u64, Ordering::Relaxed);
        let cpu = ((thread_cpu() - cw).max(0.0) * 1e9) as u64;
        shared.write_cpu_ns.fetch_add(cpu, Ordering::Relaxed);
        if let Err(e) = res {
            shared.record_error(e);
        }
    });
}

/// Stores cases' `outputs` in `dir` as one finished chunk, each table
/// completed to its declaration among `declared` as a run stores it, the
/// cases' tables of a dataset in order in one part: the dry run's scratch
/// output, on which it measures the stages after solving.
pub fn store_outputs(
    dir: &SweepDir,
    declared: &[&'static Dataset],
    outputs: &[std::sync::Arc<crate::family::Output>],
) -> Result<()> {
    let id = ChunkId::new(0, &[]);
    let mut tables: Vec<(&'static Dataset, Vec<Table>)> = Vec::new();
    for (ds, t) in outputs.iter().flat_map(|o| o.iter()) {
        let ds = crate::data::as_declared(declared, ds);
        let t = ds.complete(t.clone());
        match tables.iter_mut().find(|(d, _)| std::ptr::eq(*d, ds)) {
            Some((_, acc)) => acc.push(t),
            None => tables.push((ds, vec![t])),
        }
    }
    for (ds, parts) in tables {
        dir.write_part(ds, &id, parts)?;
    }
    dir.mark_done(&id, &json!({"chunk": id.stem(), "cases": []}))
}

fn write_chunk(dir: &SweepDir, done: Done) -> Result<()> {
    for (ds, parts) in done.tables {
        dir.write_part(ds, &done.id, parts)?;
    }
    dir.mark_done(&done.id, &done.info)
}

/// Solves a chunk's cases, checks each table against its declaration, and
/// groups them by dataset.
fn solve_chunk(shared: &Shared<'_>, chunk: &Chunk) -> Result<Done> {
    let mut tables: Vec<(&'static Dataset, Vec<Table>)> = Vec::new();
    let ts = Instant::now();
    let mut timings = Vec::new();
    for case in &shared.plan.cases[chunk.start..chunk.end] {
        if shared.cancel.load(Ordering::Relaxed) {
            bail!(Interrupted);
        }
        let tc = Instant::now();
        let out = solve_case(shared, case.as_ref())?;
        timings.push(json!({"key": case.key(), "seconds": tc.elapsed().as_secs_f64()}));
        for (ds, t) in out {
            let ds = crate::data::as_declared(shared.declared, ds);
            let t = ds.complete(t);
            ds.validate(&t)
                .map_err(|e| anyhow::anyhow!("case {}: {e}", case.key()))?;
            match tables.iter_mut().find(|(d, _)| std::ptr::eq(*d, ds)) {
                Some((_, acc)) => acc.push(t),
                None => tables.push((ds, vec![t])),
            }
        }
        let done = shared.cases_done.fetch_add(1, Ordering::Relaxed) + 1;
        shared
            .pb
            .set_message(format!("{done}/{} cases", shared.cases_todo));
    }
    shared
        .solve_ns
        .fetch_add(ts.elapsed().as_nanos() as u64, Ordering::Relaxed);
    Ok(Done {
        id: chunk.id.clone(),
        tables,
        info: json!({"chunk": chunk.id.stem(), "cases": timings}),
    })
}

/// A case's share of the progress bar: its estimated microseconds from the
/// cost model ([`crate::cost::current`]), so the time left is the estimated
/// time of the cases left, however unequal; its size without rates.
fn weight(cost: &Cost) -> u64 {
    weight_at(cost, crate::cost::current())
}

/// [`weight`] at the given rates.
fn weight_at(cost: &Cost, rates: Option<&crate::cost::Rates>) -> u64 {
    match rates {
        Some(r) => (r.secs(&cost.work) * 1e6) as u64 + 1,
        None => cost.weight(),
    }
}

/// Solves one case, keeping the datasets the sweep stores. The progress bar
/// advances by the case's reported work (in its [`Cost::size`]'s unit)
/// scaled to its [`weight`], and by the rest of its weight when it ends, so
/// the bar reaches 100 % exactly when every case is done.
fn solve_case(shared: &Shared<'_>, case: &dyn Case) -> Result<Vec<(&'static Dataset, Table)>> {
    let c = case.cost(shared.sweep.datasets.as_deref());
    let cost = c.weight();
    let w = weight(&c);
    let scale = |x: u64| (u128::from(x.min(cost)) * u128::from(w) / u128::from(cost)) as u64;
    let reported = AtomicU64::new(0);
    let progress = |n: u64| {
        let before = reported.fetch_add(n, Ordering::Relaxed);
        shared
            .pb
            .inc(scale(before.saturating_add(n)) - scale(before));
    };
    let ctx = CaseCtx {
        progress: &progress,
        cancel: shared.cancel,
        keep: shared.sweep.datasets.as_deref(),
    };
    let out = case
        .solve(&ctx)
        .with_context(|| format!("case {}", case.key()))?;
    shared.pb.inc(w - scale(reported.load(Ordering::Relaxed)));
    Ok(out
        .into_iter()
        .filter(|(ds, _)| ctx.wants(ds.name))
        .collect())
}

/// Per dataset: name, number of part files, xxh3 of their bytes in order.
fn checksums(dir: &SweepDir, mine: &[&Chunk]) -> Vec<(String, usize, String)> {
    let mut out = Vec::new();
    for d in dir.present() {
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        let mut parts = 0;
        for c in mine {
            if let Ok(bytes) = std::fs::read(dir.part_path(d.name, &c.id)) {
                h.update(&bytes);
                parts += 1;
            }
        }
        out.push((d.name.to_string(), parts, format!("{:016x}", h.digest())));
    }
    out
}

/// Per case (from the chunk records): key and seconds.
fn timings(dir: &SweepDir, mine: &[&Chunk]) -> Vec<serde_json::Value> {
    let mut out = Vec::new();
    for c in mine {
        if let Some(serde_json::Value::Array(cases)) = dir
            .chunk_info(&c.id)
            .and_then(|mut v| v.get_mut("cases").map(|x| x.take()))
        {
            out.extend(cases);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::{Kernel, Overhead, Rates};

    const UNITS: Kernel = Kernel::new("test", "units");
    use crate::progress::eta_secs;

    /// Three small cases, then one a million times larger: once the small
    /// ones are done, the time left is the large one's, not a quarter of
    /// the elapsed time as cases done would say.
    #[test]
    fn the_time_left_follows_the_cost_model_not_the_cases_done() {
        let rates = Rates {
            per_sec: vec![(UNITS, 1e6)],
            overhead: Overhead::default(),
            binary: String::new(),
            cpu: String::new(),
        };
        let cost = |units: u64| Cost {
            work: vec![(UNITS, units)],
            ..Cost::default()
        };
        let costs = [cost(1000), cost(1000), cost(1000), cost(1_000_000_000)];
        let w: Vec<u64> = costs.iter().map(|c| weight_at(c, Some(&rates))).collect();
        // 1000 units at 10^6 a second: 1 ms, 1000 µs (+1); 10^9 units: 1000 s.
        assert_eq!(w, [1001, 1001, 1001, 1_000_000_001]);
        let total: u64 = w.iter().sum();
        // The three small cases done in 3 ms, as estimated.
        let left = eta_secs((3003, total), 0.003, None).unwrap();
        // 0.003 s × 1_000_000_001 / 3003 = 999.0 s (by hand), where the
        // cases done (3 of 4 in 3 ms) would say 1 ms.
        assert!((left - 999.0).abs() < 0.01, "{left}");
    }
}
