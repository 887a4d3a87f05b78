//! The stages after solving (render, check, report), measured for the dry
//! run on the real code: the tables of the cases the estimate solved
//! ([`sweep::sample::Kept`]) are stored in a scratch output directory, on
//! which the run's own stages then render, check and report, first with
//! no data (what the stages cost whatever the data), then with the kept
//! tables from the smallest up while the budget allows. How each stage's
//! time and memory grow with the bytes read back is extrapolated to the
//! bytes of every case's tables. Sweeps with no kept tables (not sampled)
//! are priced by the model ([`sweep::estimate::render_cost`]).

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::Result;

use crate::spec::{Experiment, Sweep};
use crate::sweep::{self, estimate::SweepEstimate, sample::Kept};
use crate::{check, mem, render, report};

/// Wall seconds of measuring per experiment (at most [`MAX_BUDGET`]): the
/// dry run of a spec stays under 2 s with its planning and sampling.
const BUDGET: f64 = 0.6;
/// Wall seconds of measuring at most, however many experiments.
const MAX_BUDGET: f64 = 1.2;

/// What the stages after solving cost: seconds on one thread, seconds on
/// the run's threads, and the memory the process holds at their peak
/// beyond what it held before them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StageCost {
    /// Seconds on one thread.
    pub cpu: f64,
    /// Seconds on the run's threads (sweeps render side by side).
    pub wall: f64,
    /// Bytes held at the stages' peak beyond the process's base.
    pub held: u64,
    /// How many sizes were measured (0: the model alone).
    pub measured: usize,
    /// Seconds on one thread of render, check and report apart.
    pub stages: [f64; 3],
    /// The bytes read back of the largest size measured, and of the run.
    pub bytes: [f64; 2],
}

impl StageCost {
    /// The dry run's line: each stage's time, and what it was measured on.
    pub fn text(&self) -> Option<String> {
        if self.cpu <= 0.0 {
            return None;
        }
        let [render, check, report] = self.stages.map(crate::cost::human_secs);
        let on = match self.measured {
            0 => "by the model (no sampled table measured)".to_string(),
            n => format!(
                "measured on {} of the sampled tables, up to {} of the run's ~{} read back",
                if n == 1 {
                    "1 size".to_string()
                } else {
                    format!("{n} sizes")
                },
                crate::mem::human_bytes(self.bytes[0] as u64),
                crate::mem::human_bytes(self.bytes[1] as u64)
            ),
        };
        Some(format!(
            "after solving: render ~{render}, check ~{check}, report ~{report} on one thread, {on}; memory held ~{}",
            crate::mem::human_bytes(self.held)
        ))
    }
}

/// One measurement: the bytes read back of the tables stored, the most
/// of one sweep, and per stage (render, check, report) its wall seconds
/// and the growth of the process's peak memory.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Level {
    bytes: f64,
    largest: f64,
    secs: [f64; 3],
    held: [f64; 3],
    /// Per stage, the most its heap grew ([`mem::heap::growth_during`]).
    heap: [f64; 3],
}

/// A sweep the run would solve, with its estimate.
pub type Estimated<'a> = (&'a Experiment, &'a Sweep, SweepEstimate);

/// The stages' cost for the sweeps `ests` (of `exps`), on `threads`;
/// `render` and `report` as the run would do them.
pub fn estimate(
    exps: &[Experiment],
    ests: &[Estimated<'_>],
    (render, report): (bool, bool),
    threads: usize,
) -> StageCost {
    let levels = measure(exps, ests, (render, report), budget(exps, ests)).unwrap_or_default();
    // Nothing measured (the first size failed, or stopped at the budget:
    // it takes at least what it had): every sweep by the model.
    let by_model = levels.done.is_empty();
    let ([model_cpu, model_wall], model_held) = if render {
        let stopped = levels.stopped.filter(|_| by_model);
        let at_least = stopped.map_or(0.0, |(_, had)| had);
        let ([cpu, wall], held) = model_render(exps, ests, threads, by_model);
        ([cpu.max(at_least), wall.max(at_least)], held)
    } else {
        ([0.0; 2], 0)
    };
    let full: f64 = ests
        .iter()
        .map(|e| &e.2)
        .filter(|e| !kept_of(e).is_empty())
        .map(read_bytes)
        .sum();
    let cpu = extrapolate(&levels, full);
    let held = held_at(&levels, held_at_once(exps, ests, threads));
    let width = exps
        .iter()
        .map(|e| e.sweeps.len())
        .max()
        .unwrap_or(1)
        .clamp(1, threads.max(1));
    StageCost {
        cpu: model_cpu + cpu.iter().sum::<f64>(),
        wall: model_wall + cpu[0] / width as f64 + cpu[1] + cpu[2],
        held: model_held.max(held as u64),
        measured: levels.done.len(),
        stages: std::array::from_fn(|i| cpu[i] + if i == 0 { model_cpu } else { 0.0 }),
        bytes: [levels.done.last().map_or(0.0, |l| l.bytes), full],
    }
}

/// The bytes read back of the sweeps whose tables the stages hold at once:
/// an experiment's largest sweeps, as many as it renders side by side on
/// `threads` (the stages read one sweep's tables, or one dataset's, and
/// free them before the next; the experiments one after another).
fn held_at_once(exps: &[Experiment], ests: &[Estimated<'_>], threads: usize) -> f64 {
    exps.iter()
        .map(|x| {
            let mut each: Vec<f64> = ests
                .iter()
                .filter(|e| std::ptr::eq(e.0, x) && !kept_of(&e.2).is_empty())
                .map(|e| read_bytes(&e.2))
                .collect();
            each.sort_by(|a, b| b.total_cmp(a));
            each.iter().take(threads.max(1)).sum::<f64>()
        })
        .fold(0.0, f64::max)
}

/// The render stage of the sweeps not sampled (of every sweep where
/// `all`), by the model ([`sweep::estimate::render_cost`]): seconds on one
/// thread and on `threads` (an experiment's sweeps render side by side,
/// the experiments one after another), and the memory held beyond the
/// process's base at its peak.
fn model_render(
    exps: &[Experiment],
    ests: &[Estimated<'_>],
    threads: usize,
    all: bool,
) -> ([f64; 2], u64) {
    let mut secs = [0.0; 2];
    let mut held = 0u64;
    for x in exps {
        let unsampled: Vec<SweepEstimate> = ests
            .iter()
            .filter(|e| std::ptr::eq(e.0, x) && (all || kept_of(&e.2).is_empty()))
            .map(|e| e.2.clone())
            .collect();
        // The model's figure is the process's peak: its base and what the
        // render holds.
        let base = unsampled.iter().map(|e| e.base_bytes).max().unwrap_or(0);
        let ([cpu, wall], peak) = sweep::estimate::render_cost(&unsampled, threads);
        secs = [secs[0] + cpu, secs[1] + wall];
        held = held.max(peak.saturating_sub(base));
    }
    (secs, held)
}

/// Wall seconds to measure the stages in: [`BUDGET`] per experiment (its
/// share of what a calibration left, [`sweep::sample::share`]) and
/// what its sampling left of its own budget, at most [`MAX_BUDGET`].
fn budget(exps: &[Experiment], ests: &[Estimated<'_>]) -> f64 {
    let unspent: f64 = exps
        .iter()
        .map(|e| {
            let spent: f64 = ests
                .iter()
                .filter(|x| std::ptr::eq(x.0, e))
                .map(|x| x.2.sampled.as_ref().map_or(0.0, |s| s.spent))
                .sum();
            (sweep::sample::budget(e.sweeps.len()) * e.sweeps.len() as f64 - spent).max(0.0)
        })
        .sum();
    (sweep::sample::share() * BUDGET * exps.len() as f64 + unspent).min(MAX_BUDGET)
}

/// The tables a sweep's sampling kept, the smallest first, and last the
/// whole sweep's where every case was solved ([`sweep::sample::Sampled::whole`]).
fn kept_of(e: &SweepEstimate) -> Vec<Kept> {
    let Some(s) = e.sampled.as_ref() else {
        return Vec::new();
    };
    let mut kept = s.kept.clone();
    if let Some(whole) = s.whole(e.cases) {
        kept.retain(|k| k.read_bytes < whole.read_bytes);
        kept.push(whole);
    }
    kept
}

/// The bytes read back of every case's tables: as solved where every
/// case was, else as fitted.
fn read_bytes(e: &SweepEstimate) -> f64 {
    e.sampled.as_ref().map_or(0.0, |s| match s.whole(e.cases) {
        Some(whole) => whole.read_bytes,
        None => s.case_read_bytes.iter().sum(),
    })
}

/// Measures the stages at some sizes within `budget`, in a scratch
/// directory removed after; `None` when no sweep kept tables. The
/// first size (each sweep's smallest kept tables) pays what the stages pay
/// once per process (fonts loaded); then the size nearest a quarter of the
/// largest that fits ([`later_levels`]), then the largest that what it
/// took says still fits ([`largest_within`]): how the stages grow up
/// there. A size that does not finish in what is left is left behind on
/// its thread (the dry run ends soon after) and says the stages take at
/// least that long there.
fn measure(
    exps: &[Experiment],
    ests: &[Estimated<'_>],
    stages: (bool, bool),
    budget: f64,
) -> Option<Levels> {
    let most = ests.iter().map(|e| kept_of(&e.2).len()).max()?;
    if most == 0 {
        return None;
    }
    let scratch = Scratch::new().ok()?;
    let started = Instant::now();
    let sizes: Vec<f64> = (0..most).map(|l| stored_bytes(ests, l)).collect();
    let mut got = Levels::default();
    let mut levels = vec![0];
    while let Some(l) = levels.pop() {
        let left = budget - started.elapsed().as_secs_f64();
        let job = Job {
            exps: exps.to_vec(),
            sweeps: stored(exps, ests, l),
            out: scratch.0.join(format!("level{l}")),
            stages,
            abandoned: Arc::default(),
        };
        match job.run_within(left) {
            Some(Ok(lv)) => got.done.push(lv),
            Some(Err(_)) => break,
            None => {
                got.stopped = Some((sizes[l], left));
                break;
            }
        }
        let left = budget - started.elapsed().as_secs_f64();
        if l == 0 {
            levels = later_levels(&got.done[0], &sizes, left);
            levels.reverse();
        } else if let [first, mid] = &got.done[..] {
            levels = largest_within(first, mid, &sizes, left)
                .into_iter()
                .collect();
        }
    }
    got.done.sort_by(|a, b| a.bytes.total_cmp(&b.bytes));
    Some(got)
}

/// The sizes to measure after the first (`first`), of `sizes` (bytes
/// read back per level, the smallest first), with `left` seconds: the
/// largest whose guessed time fits ([`GUESS_SECS_PER_BYTE`] past the
/// first's), and before it, where its guess takes at most a quarter of
/// what is left, the one nearest a quarter of its bytes (at least twice
/// the first's and at most half its): how the stages grow up there. The
/// largest is tried last whatever it takes then: a size left behind at
/// the budget is a lower bound.
fn later_levels(first: &Level, sizes: &[f64], left: f64) -> Vec<usize> {
    let guess = |i: usize| total(first) + GUESS_SECS_PER_BYTE * sizes[i];
    let above = |i: &usize| sizes[*i] >= 2.0 * first.bytes;
    let Some(top) = (1..sizes.len())
        .filter(above)
        .filter(|&i| guess(i) <= left)
        .max_by(|&a, &b| sizes[a].total_cmp(&sizes[b]))
    else {
        return Vec::new();
    };
    let quarter = (sizes[top] / 4.0).max(1.0).ln();
    let mid = (1..top)
        .filter(above)
        .filter(|&i| sizes[i] <= sizes[top] / 2.0 && guess(i) <= left / 4.0)
        .min_by(|&a, &b| {
            let d = |i: usize| (sizes[i].max(1.0).ln() - quarter).abs();
            d(a).total_cmp(&d(b))
        });
    mid.into_iter().chain([top]).collect()
}

/// After the first and one more size (`mid`), the largest of `sizes`
/// past `mid` that fits in `left` if what `mid` took beyond the first
/// grows as the square root of the bytes (the stages grew as 0.4 between
/// such sizes), and at least [`GUESS_SECS_PER_BYTE`] a byte.
fn largest_within(first: &Level, mid: &Level, sizes: &[f64], left: f64) -> Option<usize> {
    let past = (total(mid) - total(first)).max(0.0);
    let guess = |b: f64| {
        let grown = past * (b / mid.bytes.max(1.0)).max(1.0).sqrt();
        total(first) + grown.max(GUESS_SECS_PER_BYTE * b)
    };
    (0..sizes.len())
        .filter(|&i| sizes[i] > mid.bytes && guess(sizes[i]) <= left)
        .max_by(|&a, &b| sizes[a].total_cmp(&sizes[b]))
}

/// Seconds per byte read back a size is guessed to add to the first
/// size's, to choose which to try (optimistic: a size that does not finish
/// in what is left still tells a lower bound).
const GUESS_SECS_PER_BYTE: f64 = 1e-8;

/// The sizes measured, the smallest first, and the size stopped at the
/// budget with the seconds it had.
#[derive(Clone, Debug, Default)]
struct Levels {
    done: Vec<Level>,
    stopped: Option<(f64, f64)>,
}

/// A level's seconds, every stage.
fn total(l: &Level) -> f64 {
    l.secs.iter().sum()
}

/// The bytes read back stored at `level`: each sweep's `level`-th
/// smallest kept tables, or its largest.
fn stored_bytes(ests: &[Estimated<'_>], level: usize) -> f64 {
    ests.iter()
        .filter_map(|e| pick(&kept_of(&e.2), level).map(|k| k.read_bytes))
        .sum()
}

/// The kept tables stored at `level`.
fn pick(kept: &[Kept], level: usize) -> Option<&Kept> {
    kept.get(level.min(kept.len().checked_sub(1)?))
}

/// Each sweep to store at `level`: its experiment's and its own index,
/// and its tables there.
fn stored(exps: &[Experiment], ests: &[Estimated<'_>], level: usize) -> Vec<Stored> {
    ests.iter()
        .filter_map(|(e, sw, est)| {
            let ei = exps.iter().position(|x| x.name == e.name)?;
            let si = e.sweeps.iter().position(|x| x.name == sw.name)?;
            Some((ei, si, pick(&kept_of(est), level).cloned()))
        })
        .collect()
}

/// A sweep to store: its experiment's and its own index, its cases'
/// tables (and their bytes read back, as the sampling counted them).
type Stored = (usize, usize, Option<Kept>);

/// One size to measure, owned by the thread that measures it.
struct Job {
    exps: Vec<Experiment>,
    sweeps: Vec<Stored>,
    out: PathBuf,
    stages: (bool, bool),
    /// Set when the dry run stopped waiting: the job stops at its next
    /// stage and removes what it wrote.
    abandoned: Arc<AtomicBool>,
}

impl Job {
    /// Measures on a thread of its own, given `limit` wall seconds;
    /// `None` past them (the thread is left behind, to stop at its next
    /// stage: [`Job::go_on`]).
    fn run_within(self, limit: f64) -> Option<Result<Level>> {
        let (tx, rx) = std::sync::mpsc::channel();
        let abandoned = Arc::clone(&self.abandoned);
        std::thread::spawn(move || {
            let r = self.run();
            if self.abandoned.load(Ordering::Relaxed) {
                let _ = std::fs::remove_dir_all(&self.out);
                if let Some(root) = self.out.parent() {
                    let _ = std::fs::remove_dir(root);
                }
            }
            let _ = tx.send(r);
        });
        let r = rx
            .recv_timeout(std::time::Duration::from_secs_f64(limit.max(0.0)))
            .ok();
        abandoned.store(r.is_none(), Ordering::Relaxed);
        r
    }

    /// An error once the dry run stopped waiting for this job.
    fn go_on(&self) -> Result<()> {
        if self.abandoned.load(Ordering::Relaxed) {
            anyhow::bail!("stopped at the budget");
        }
        Ok(())
    }

    /// Stores every sweep's tables under `out`, then renders, checks and
    /// reports them as a run does; what each stage took.
    fn run(&self) -> Result<Level> {
        let (render, report) = self.stages;
        let out = self.out.as_path();
        let mut l = Level::default();
        for (ei, si, kept) in &self.sweeps {
            self.go_on()?;
            let (e, sw) = (&self.exps[*ei], &self.exps[*ei].sweeps[*si]);
            let dir = sw.dir(out, &e.name);
            std::fs::create_dir_all(out.join(&e.name))?;
            if let Some(k) = kept.as_ref().filter(|k| !k.outputs.is_empty()) {
                sweep::store_outputs(&dir, sw.declared(), &k.outputs)?;
                l.bytes += k.read_bytes;
                l.largest = l.largest.max(k.read_bytes);
            }
            if render {
                stage(&mut l, 0, || render::render_sweep(sw, &dir).map(drop))?;
            }
        }
        let mut stored: Vec<usize> = self.sweeps.iter().map(|s| s.0).collect();
        stored.dedup();
        for &ei in &stored {
            let e = &self.exps[ei];
            self.go_on()?;
            if !e.conjectures.is_empty() {
                stage(&mut l, 1, || check::write_conjectures(e, out).map(drop))?;
            }
        }
        if report {
            let opts = report::ReportOptions {
                rebuild: true,
                quiet: true,
            };
            let exps: Vec<Experiment> = stored.iter().map(|&i| self.exps[i].clone()).collect();
            self.go_on()?;
            stage(&mut l, 2, || {
                report::write_report_with(&exps, out, opts).map(drop)
            })?;
        }
        Ok(l)
    }
}

/// Runs one stage, adding its wall seconds to `l`'s stage `i` and
/// keeping the most the process held beyond what it used before the stage
/// (the allocator's unused memory given back first). Measured from the
/// process's memory before the first size, the stages counted what the
/// tables stored just before them and the sampling had left with the
/// allocator: ten take-away cases to 100,000 read 96 MiB for a run of
/// 38–56 MB, parity sets 120 MiB for 62–76 MB; now 65 and 74 MiB.
fn stage(l: &mut Level, i: usize, f: impl FnOnce() -> Result<()>) -> Result<()> {
    mem::release_unused();
    let before = mem::resident_memory();
    let restarted = mem::restart_peak_memory();
    let t0 = Instant::now();
    let (done, grown) = mem::heap::growth_during(f);
    done?;
    l.secs[i] += t0.elapsed().as_secs_f64();
    l.heap[i] = l.heap[i].max(grown as f64);
    if let (true, Some(before)) = (restarted, before) {
        let peak = mem::peak_memory().unwrap_or(before);
        l.held[i] = l.held[i].max(peak.saturating_sub(before) as f64);
    }
    Ok(())
}

/// Each stage's seconds, extrapolated to `full` bytes read back. The first size's time is what the stages cost
/// whatever the data (fonts loaded, files opened: where the second size
/// took less, the first paid that difference once); what a larger size
/// took beyond it grows past the largest size as it grew between the two
/// largest (a power of the bytes, between [`EXPONENT`]'s: a figure costs
/// much the same at any size, a listing grows with its rows, a search over
/// moduli faster), as [`ONE_SIZE_EXPONENT`] past one size or where the
/// smaller took under [`TIMED_SECS`] beyond the first, by the model's figure
/// ([`FALLBACK_SECS_PER_BYTE`]) past the first alone. Past two sizes
/// grown it grows at least by the seconds each byte added between them: a
/// stage reads every byte, and a power measured where a fixed part (a
/// figure's canvas, too small at the first size to weigh) still weighs
/// bends up past it (a two-heap take-away table's render
/// grew as the bytes^0.61 from 0.6 to 9 MB read back, ^0.93 from 9 to 143
/// MB; this line through 0.6 and 9 MB says 3.6 s at 143 MB, where it took
/// 3.5 s). A size stopped at
/// the budget raises the time to at least what it had there.
fn extrapolate(got: &Levels, full: f64) -> [f64; 3] {
    let Some((first, grown)) = got.done.split_first() else {
        return [0.0; 3];
    };
    let Some(top) = grown.last() else {
        return [
            first.secs[0] + FALLBACK_SECS_PER_BYTE * full,
            first.secs[1],
            first.secs[2],
        ];
    };
    // What a size took beyond what the stages cost at any size: the
    // first's, less what it paid once (fonts) where the second took less.
    let base: [f64; 3] = std::array::from_fn(|i| first.secs[i].min(grown[0].secs[i]));
    let past = |l: &Level, i: usize| (l.secs[i] - base[i]).max(0.0);
    let b = |i: usize| match grown {
        [.., a, z] if past(a, i) >= TIMED_SECS => {
            power(a.bytes, past(a, i), z.bytes, past(z, i)).clamp(EXPONENT.0, EXPONENT.1)
        }
        _ => ONE_SIZE_EXPONENT,
    };
    let bs = [b(0), b(1), b(2)];
    // A stage reads every byte it draws or lists from: past the largest
    // size it grows at least by what each byte added between the two
    // largest sizes grown (their shared part, a figure's canvas, paid
    // once; the first is too small to have drawn it whole).
    let slope = |i: usize| match grown {
        [.., a, z] => (past(z, i) - past(a, i)).max(0.0) / (z.bytes - a.bytes).max(1.0),
        _ => 0.0,
    };
    let at = |bytes: f64| -> [f64; 3] {
        let r = (bytes / top.bytes.max(1.0)).max(1.0);
        let more = (bytes - top.bytes).max(0.0);
        std::array::from_fn(|i| {
            let grown = past(top, i) * r.powf(bs[i]);
            first.secs[i] + grown.max(past(top, i) + slope(i) * more)
        })
    };
    let mut secs = at(full);
    if let Some((bytes, had)) = got.stopped {
        let there: f64 = at(bytes).iter().sum();
        if there < had && there > 0.0 {
            // Raised no further than the steepest growth allowed.
            let raise = (had / there).ln() / (bytes / top.bytes.max(1.0)).ln().max(1e-9);
            let r = (full / top.bytes.max(1.0)).max(1.0);
            secs = std::array::from_fn(|i| {
                let b = (bs[i] + raise).min(EXPONENT.1.max(bs[i]));
                secs[i] * r.powf(b - bs[i])
            });
        }
    }
    secs
}

/// The most memory the stages hold, extrapolated to `full` bytes read back
/// of the tables held at once ([`held_at_once`]): the most held at the
/// largest size, and past its largest sweep's bytes, grown by the bytes
/// as it grew between the two largest sizes' largest sweeps: the
/// process's resident memory from a largest sweep of [`HELD_FROM`] bytes,
/// below it the heap's growth (whole pages and the allocator's keeping
/// tell nothing there), within [`MIN_HELD_PER_BYTE`] and
/// [`MAX_HELD_PER_BYTE`]; the model's per byte where one size alone was
/// measured or the largest sweep did not grow. A size measured holds one
/// sweep's tables at a time (its sweeps stored and rendered in turn).
fn held_at(got: &Levels, full: f64) -> f64 {
    let held = |l: &Level| l.held.iter().copied().fold(0.0, f64::max);
    let Some((first, grown)) = got.done.split_first() else {
        return 0.0;
    };
    let Some(top) = grown.last() else {
        return held(first) + FALLBACK_HELD_PER_BYTE * full;
    };
    let below = match grown {
        [.., a, _] => a,
        _ => first,
    };
    let heap = |l: &Level| l.heap.iter().copied().fold(0.0, f64::max);
    let slope = |of: &dyn Fn(&Level) -> f64| {
        let per_byte = (of(top) - of(below)).max(0.0) / (top.largest - below.largest);
        per_byte.clamp(MIN_HELD_PER_BYTE, MAX_HELD_PER_BYTE)
    };
    let per_byte = if top.largest <= below.largest {
        FALLBACK_HELD_PER_BYTE
    } else if top.largest >= HELD_FROM {
        slope(&held)
    } else {
        slope(&heap)
    };
    held(top).max(held(first)) + per_byte * (full - top.largest).max(0.0)
}

/// The exponent of growth from (`b1`, `c1`) to (`b2`, `c2`).
fn power(b1: f64, c1: f64, b2: f64, c2: f64) -> f64 {
    if b2 <= b1 * 1.01 || c1 <= 0.0 || c2 <= 0.0 {
        return 1.0;
    }
    (c2 / c1).ln() / (b2 / b1).ln()
}

/// The growth past one size measured beyond the first, which cannot tell
/// it: between a figure's (its pixels capped, 0.3 and less), a listing's
/// (1) and a fit's over moduli (1.5); the render stage of a two-heap
/// take-away table grew as 0.4 to 0.8 between 0.6 and 143 MB read back.
const ONE_SIZE_EXPONENT: f64 = 0.75;

/// What a size took beyond the first that tells its growth (seconds):
/// less is the machine's noise (a report stage took 1.4 ms and 0 ms past
/// the first at 0.6 MB in two dry runs, then 25 and 19 ms at 2.8 MB: an
/// exponent of 1.5 and of 1, 18 s and 1.9 s at 212 MB, where it took
/// 1.9 s).
const TIMED_SECS: f64 = 0.005;

/// The exponents of growth past the sizes measured are kept within these.
const EXPONENT: (f64, f64) = (0.3, 1.5);

/// The render stage's seconds per byte read back where no growth was
/// measured: the model's.
const FALLBACK_SECS_PER_BYTE: f64 = sweep::estimate::RENDER_SECS_PER_BYTE;

/// The memory held per byte read back where no growth was measured (one
/// size, or a largest sweep no larger than the size below's): the model's
/// ([`sweep::estimate::render_cost`]). Resident memory measured on small
/// tables is the allocator's as much as the rows' (1 MB of take-away rows
/// held 3 MB more; 142 MB of them, 2.9×): below [`HELD_FROM`] the heap's
/// growth is read instead.
const FALLBACK_HELD_PER_BYTE: f64 = sweep::estimate::RENDER_HELD_PER_BYTE;
/// See [`FALLBACK_HELD_PER_BYTE`].
const HELD_FROM: f64 = 4.0 * 1048576.0;
/// The most memory held per byte read back that a slope between two sizes
/// measured may say: whole runs held 1.2 (parity's outcomes, Kayles'
/// winning moves) to 1.8 bytes a byte (board sequences' winning runs),
/// where slopes between sizes of 7 and 27 MiB said 4 to 5 (a two-heap
/// take-away sweep whose run then held under 2).
const MAX_HELD_PER_BYTE: f64 = 2.0;
/// The least memory held per byte read back that a slope between two
/// sizes measured may say: the stages hold what they read (two heaps of
/// `t != last` to 1,500, both plays: 1.4 GiB read back, the run held 1.1
/// GB), where a slope between sizes of 3 and 11 MiB said 0.03 in one dry
/// run (45 MiB held) and 1.2 in another.
const MIN_HELD_PER_BYTE: f64 = 0.6;

/// A scratch directory, removed when dropped, and again by
/// [`remove_scratch`] (a job left behind may write there until its stage
/// ends).
struct Scratch(PathBuf);

/// Every scratch directory this process made.
static SCRATCH: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

impl Scratch {
    fn new() -> Result<Scratch> {
        let dir = super::calibrate::fresh_dir(&std::env::temp_dir(), "nimlab-stages")?;
        if let Ok(mut all) = SCRATCH.lock() {
            all.push(dir.clone());
        }
        Ok(Scratch(dir))
    }
}

/// Removes the scratch directories of the stages' measurement, as the dry
/// run ends: a job left behind at the budget writes there until its
/// current stage ends (19 were left in the temporary directory by a day
/// of dry runs).
pub fn remove_scratch() {
    if let Ok(all) = SCRATCH.lock() {
        for d in all.iter() {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(bytes: f64, secs: f64, held: f64) -> Level {
        Level {
            bytes,
            largest: bytes,
            secs: [secs, 0.0, 0.0],
            held: [held, 0.0, 0.0],
            heap: [0.0; 3],
        }
    }

    /// [`level`] whose stage grew the heap by `heap` bytes at most.
    fn counted(bytes: f64, secs: f64, held: f64, heap: f64) -> Level {
        Level {
            heap: [0.0, 0.0, heap],
            ..level(bytes, secs, held)
        }
    }

    fn levels(done: &[Level]) -> Levels {
        Levels {
            done: done.to_vec(),
            stopped: None,
        }
    }

    /// Worked by hand. Past the first size, what a size took beyond the
    /// first grows as it grew between the two largest: 0.1 s more at 1 MB,
    /// 0.4 s more at 4 MB is proportional, so 16 MB take 0.1 + 0.4 × 4;
    /// 0.05 s then 0.4 s more grows as the bytes^1.5, so 0.1 + 0.4 × 8.
    /// One size past the first: [`ONE_SIZE_EXPONENT`]. The first alone: the
    /// model's growth per byte.
    #[test]
    fn the_stages_grow_as_measured() {
        let lin = [
            level(1e3, 0.1, 1e6),
            level(1e6, 0.2, 2e6),
            level(4e6, 0.5, 5e6),
        ];
        let secs = extrapolate(&levels(&lin), 1.6e7);
        assert!((secs[0] - 1.7).abs() < 1e-9, "{secs:?}");
        // 4 MB is under [`HELD_FROM`]: the most held there and, past it,
        // what the heap grew a byte between the two largest (the report's
        // 1.5 bytes a byte), not the resident memory's 1 (whole pages).
        let heap = [
            counted(1e3, 0.1, 1e6, 1e5),
            counted(1e6, 0.2, 2e6, 2e6),
            counted(4e6, 0.5, 5e6, 6.5e6),
        ];
        let want = 5e6 + 1.5 * 1.2e7;
        assert!((held_at(&levels(&heap), 1.6e7) - want).abs() < 1.0);
        // The two largest sizes' largest sweeps alike: no growth to read,
        // the model's per byte.
        let flat = [
            counted(1e3, 0.1, 1e6, 1e5),
            counted(4e6, 0.2, 2e6, 2e6),
            counted(4e6, 0.5, 5e6, 6.5e6),
        ];
        let want = 5e6 + FALLBACK_HELD_PER_BYTE * 1.2e7;
        assert!((held_at(&levels(&flat), 1.6e7) - want).abs() < 1.0);
        let fast = [
            level(1e3, 0.1, 0.0),
            level(1e6, 0.15, 0.0),
            level(4e6, 0.5, 0.0),
        ];
        let secs = extrapolate(&levels(&fast), 1.6e7);
        assert!((secs[0] - 3.3).abs() < 1e-9, "{secs:?}");
        let one = [level(1e3, 0.1, 0.0), level(1e6, 0.3, 0.0)];
        let want = 0.1 + 0.2 * 4f64.powf(ONE_SIZE_EXPONENT);
        assert!((extrapolate(&levels(&one), 4e6)[0] - want).abs() < 1e-9);
        // A figure's fixed canvas: 0.6, 9 and 143 MB read back (a two-heap
        // take-away table's render) took 0.055, 0.262 and 3.45 s; the
        // power between the first two says 1.4 s, the line 3.6 s.
        let canvas = [
            level(2774.0, 0.0074, 0.0),
            level(570_497.0, 0.0548, 0.0),
            level(8_952_814.0, 0.2619, 0.0),
        ];
        let secs = extrapolate(&levels(&canvas), 142_894_336.0);
        assert!((secs[0] / 3.45 - 1.0).abs() < 0.1, "{secs:?}");
        // The spec 10 report stage of a new user's trial: 1.4 ms past the
        // first at 0.6 MB is noise, not the start of a power of 1.84 (17.8
        // s); the line between the two sizes says 2.4 s at 212 MB, where
        // it took 1.9 s.
        let report = [
            level(1438.0, 0.0078, 0.0),
            level(587_511.6, 0.0092, 0.0),
            level(2_816_514.0, 0.0332, 0.0),
        ];
        let secs = extrapolate(&levels(&report), 222_349_753.0);
        assert!((2.3..2.5).contains(&secs[0]), "{secs:?}");
        let first = [level(10.0, 0.1, 1e6)];
        let (secs, held) = (
            extrapolate(&levels(&first), 1e6),
            held_at(&levels(&first), 1e6),
        );
        assert!((secs[0] - (0.1 + FALLBACK_SECS_PER_BYTE * 1e6)).abs() < 1e-9);
        assert!((held - (1e6 + FALLBACK_HELD_PER_BYTE * 1e6)).abs() < 1e-3);
        assert_eq!(extrapolate(&Levels::default(), 1e9), [0.0; 3]);
        assert_eq!(held_at(&Levels::default(), 1e9), 0.0);
    }

    /// The first size paid the fonts once (0.3 s where the second took
    /// 0.1 s): the growth counts from the second's 0.1 s, so 4 MB's 0.3 s
    /// more than it, 0.1 s a MB between 1 and 4 MB, make 40 MB take 0.3 +
    /// 0.3 + 3.6 (more than the 0.3 + 0.3 × 10 of the power, proportional
    /// past the second's nothing more). Memory from 8 MiB measured: 2 bytes
    /// held per byte between the two largest, past the most held at the
    /// largest.
    #[test]
    fn what_the_first_paid_once_is_paid_once() {
        let fonts = [
            level(10.0, 0.3, 1e6),
            level(1e6, 0.1, 2e6),
            level(4e6, 0.4, 5e6),
        ];
        let secs = extrapolate(&levels(&fonts), 4e7);
        assert!((secs[0] - 4.2).abs() < 1e-9, "{secs:?}");
        let mib = 1048576.0;
        let big = [
            level(1e3, 0.1, 1e6),
            level(mib, 0.2, 3e6),
            level(8.0 * mib, 0.4, 3e6 + 14.0 * mib),
        ];
        let held = held_at(&levels(&big), 16.0 * mib);
        assert!((held - (3e6 + 30.0 * mib)).abs() < 1.0, "{held}");
        // Stopped at 16 MB after 3 s, where the fit says 1.7 s: the growth
        // is raised so that 16 MB take 3 s.
        let lin = [
            level(1e3, 0.1, 0.0),
            level(1e6, 0.2, 0.0),
            level(4e6, 0.5, 0.0),
        ];
        let mut stopped = levels(&lin);
        stopped.stopped = Some((1.6e7, 3.0));
        let secs = extrapolate(&stopped, 1.6e7);
        assert!((secs[0] - 3.0).abs() < 1e-9, "{secs:?}");
    }

    /// After the first size, the largest that fits, and before it the one
    /// nearest a quarter of its bytes while that takes a quarter of the
    /// time left; none past the first when none fits.
    #[test]
    fn the_sizes_measured_reach_the_largest_that_fits() {
        let first = level(1e3, 0.05, 0.0);
        let sizes = [1e3, 1e5, 1e6, 4e6, 1.6e7, 1e10];
        // 1e10 bytes at GUESS_SECS_PER_BYTE do not fit in 1 s; 1.6e7 do.
        assert_eq!(later_levels(&first, &sizes, 1.0), vec![3, 4]);
        assert_eq!(later_levels(&first, &sizes[..3], 1.0), vec![1, 2]);
        assert_eq!(later_levels(&first, &sizes, 0.0), Vec::<usize>::new());
        // 4 MB took 0.4 s more than the first: 16 MB are guessed at
        // 0.05 + 0.4 × 2 s, which 1 s fits and 0.5 s does not; 1e10 bytes
        // at 1e-8 s a byte fit in neither.
        let mid = level(4e6, 0.45, 0.0);
        assert_eq!(largest_within(&first, &mid, &sizes, 1.0), Some(4));
        assert_eq!(largest_within(&first, &mid, &sizes, 0.5), None);
    }

    /// A size holds one sweep's tables at a time: memory grows with its
    /// largest sweep's bytes, not with the size's total. Three equal
    /// sweeps a size, the largest 4 and 8 MiB (12 and 24 MiB in all),
    /// held 6 and 10 MiB: a byte held per byte of one sweep, so 16 MiB of
    /// tables held at once hold 10 + 8 MiB; a slope past the bounds is
    /// held to them.
    #[test]
    fn memory_grows_with_the_tables_held_at_once() {
        let mib = 1048576.0;
        let l = |largest: f64, held: f64| Level {
            bytes: 3.0 * largest,
            largest,
            secs: [0.1, 0.0, 0.0],
            held: [held, 0.0, 0.0],
            heap: [0.0; 3],
        };
        let got = levels(&[
            l(0.01 * mib, mib),
            l(4.0 * mib, 6.0 * mib),
            l(8.0 * mib, 10.0 * mib),
        ]);
        assert!((held_at(&got, 16.0 * mib) - 18.0 * mib).abs() < 1.0);
        // 40 MiB more held for 8 MiB more of a sweep says 5 bytes a byte:
        // at most [`MAX_HELD_PER_BYTE`] past the largest.
        let steep = [
            l(0.01 * mib, mib),
            l(4.0 * mib, 6.0 * mib),
            l(12.0 * mib, 46.0 * mib),
        ];
        let want = 46.0 * mib + MAX_HELD_PER_BYTE * 4.0 * mib;
        assert!((held_at(&levels(&steep), 16.0 * mib) - want).abs() < 1.0);
        // Nothing more held for 8 MiB more: at least
        // [`MIN_HELD_PER_BYTE`] past the largest.
        let flat = [
            l(0.01 * mib, mib),
            l(4.0 * mib, 6.0 * mib),
            l(12.0 * mib, 6.0 * mib),
        ];
        let want = 6.0 * mib + MIN_HELD_PER_BYTE * 4.0 * mib;
        assert!((held_at(&levels(&flat), 16.0 * mib) - want).abs() < 1.0);
    }
}
