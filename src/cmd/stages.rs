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
}

/// One measurement: the bytes read back of the tables stored, and per
/// stage (render, check, report) its wall seconds and the growth of the
/// process's peak memory.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Level {
    bytes: f64,
    secs: [f64; 3],
    held: [f64; 3],
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
    let unsampled: Vec<SweepEstimate> = ests
        .iter()
        .map(|e| &e.2)
        .filter(|e| kept_of(e).is_empty())
        .cloned()
        .collect();
    // The model's figure is the process's peak: its base and what the
    // render holds.
    let base = unsampled.iter().map(|e| e.base_bytes).max().unwrap_or(0);
    let (model_cpu, model_held) = if render {
        let (secs, peak) = sweep::estimate::render_cost(&unsampled, threads);
        (secs, peak.saturating_sub(base))
    } else {
        (0.0, 0)
    };
    let full: f64 = ests
        .iter()
        .map(|e| &e.2)
        .filter(|e| !kept_of(e).is_empty())
        .map(read_bytes)
        .sum();
    let budget = (BUDGET * exps.len() as f64).min(MAX_BUDGET);
    let levels = measure(exps, ests, (render, report), budget).unwrap_or_default();
    let (cpu, held) = extrapolate(&levels, full);
    let width = exps
        .iter()
        .map(|e| e.sweeps.len())
        .max()
        .unwrap_or(1)
        .clamp(1, threads.max(1));
    StageCost {
        cpu: model_cpu + cpu.iter().sum::<f64>(),
        wall: model_cpu / threads.max(1) as f64 + cpu[0] / width as f64 + cpu[1] + cpu[2],
        held: model_held.max(held as u64),
        measured: levels.done.len(),
    }
}

/// The tables a sweep's sampling kept.
fn kept_of(e: &SweepEstimate) -> &[Kept] {
    e.sampled.as_ref().map_or(&[][..], |s| &s.kept[..])
}

/// The bytes read back of every case's tables.
fn read_bytes(e: &SweepEstimate) -> f64 {
    e.sampled
        .as_ref()
        .map_or(0.0, |s| s.case_read_bytes.iter().sum())
}

/// Measures the stages at each size the budget allows, in a scratch
/// directory removed after; `None` when nothing could be measured. The
/// first size (each sweep's smallest kept tables) pays what the stages pay
/// once per process (fonts loaded); each larger one (at least twice the
/// last) is tried when the first's time and [`GUESS_SECS_PER_BYTE`] say
/// it fits what is left. A size that does not finish in what is left
/// is left behind on its thread (the dry run ends soon after) and says
/// the stages take at least that long there.
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
    let base = mem::resident_memory().unwrap_or(0);
    let mut got = Levels::default();
    for level in 0..most {
        let left = budget - started.elapsed().as_secs_f64();
        let bytes = stored_bytes(ests, level);
        let last = got.done.last().map_or(0.0, |l| l.bytes);
        if got.done.len() >= 2 && bytes < 2.0 * last {
            continue;
        }
        let guess = got
            .done
            .first()
            .map_or(0.0, |l| total(l) + GUESS_SECS_PER_BYTE * bytes);
        if left <= 0.0 || guess > left {
            break;
        }
        let job = Job {
            exps: exps.to_vec(),
            sweeps: stored(exps, ests, level),
            out: scratch.0.join(format!("level{level}")),
            stages,
            base,
        };
        match job.run_within(left) {
            Some(Ok(l)) => got.done.push(l),
            Some(Err(_)) => break,
            None => {
                got.stopped = Some((bytes, left));
                break;
            }
        }
    }
    (!got.done.is_empty()).then_some(got)
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
        .filter_map(|e| pick(kept_of(&e.2), level))
        .map(|k| k.read_bytes)
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
            Some((ei, si, pick(kept_of(est), level).map(|k| k.output.clone())))
        })
        .collect()
}

/// A sweep to store: its experiment's and its own index, its tables.
type Stored = (usize, usize, Option<crate::family::Output>);

/// One size to measure, owned by the thread that measures it.
struct Job {
    exps: Vec<Experiment>,
    sweeps: Vec<Stored>,
    out: PathBuf,
    stages: (bool, bool),
    base: u64,
}

impl Job {
    /// Measures on a thread of its own, given `limit` wall seconds;
    /// `None` past them (the thread is left behind).
    fn run_within(self, limit: f64) -> Option<Result<Level>> {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(self.run());
        });
        rx.recv_timeout(std::time::Duration::from_secs_f64(limit.max(0.0)))
            .ok()
    }

    /// Stores every sweep's tables under `out`, then renders, checks and
    /// reports them as a run does; what each stage took.
    fn run(&self) -> Result<Level> {
        let (render, report) = self.stages;
        let (out, base) = (self.out.as_path(), self.base);
        let mut l = Level::default();
        for (ei, si, output) in &self.sweeps {
            let (e, sw) = (&self.exps[*ei], &self.exps[*ei].sweeps[*si]);
            let dir = sw.dir(out, &e.name);
            std::fs::create_dir_all(out.join(&e.name))?;
            if let Some(output) = output {
                sweep::store_output(&dir, sw.declared(), output)?;
                l.bytes += crate::sweep::sample::read_back(output);
            }
            if render {
                stage(&mut l, (0, base), || {
                    render::render_sweep(sw, &dir).map(drop)
                })?;
            }
        }
        let mut stored: Vec<usize> = self.sweeps.iter().map(|s| s.0).collect();
        stored.dedup();
        for &ei in &stored {
            let e = &self.exps[ei];
            if !e.conjectures.is_empty() {
                stage(&mut l, (1, base), || {
                    check::write_conjectures(e, out).map(drop)
                })?;
            }
        }
        if report {
            let opts = report::ReportOptions {
                rebuild: true,
                quiet: true,
            };
            let exps: Vec<Experiment> = stored.iter().map(|&i| self.exps[i].clone()).collect();
            stage(&mut l, (2, base), || {
                report::write_report_with(&exps, out, opts).map(drop)
            })?;
        }
        Ok(l)
    }
}

/// Runs one stage, adding its wall seconds to `l`'s stage `i` and
/// keeping the most the process held beyond `base` (what it held before
/// the first size: so memory the allocator kept from an earlier size and
/// reused counts).
fn stage(l: &mut Level, (i, base): (usize, u64), f: impl FnOnce() -> Result<()>) -> Result<()> {
    let restarted = mem::restart_peak_memory();
    let t0 = Instant::now();
    f()?;
    l.secs[i] += t0.elapsed().as_secs_f64();
    if restarted {
        let peak = mem::peak_memory().unwrap_or(base);
        l.held[i] = l.held[i].max(peak.saturating_sub(base) as f64);
    }
    Ok(())
}

/// Each stage's seconds and the most memory held, extrapolated to `full`
/// bytes read back. What the first size cost beyond the second is paid
/// once per run (fonts loaded). Past the largest size measured, each
/// stage grows as it grew between the two largest sizes past the first
/// (a power of the bytes, between [`EXPONENT`]'s: a figure costs much the
/// same at any size, a listing grows with its rows), or between the first
/// and the one size past it, by the model's figure ([`FALLBACK_SECS_PER_BYTE`]) from
/// the first alone. A size stopped at the budget raises the time to at
/// least what it had there; memory grows proportionally.
fn extrapolate(got: &Levels, full: f64) -> ([f64; 3], f64) {
    let Some((first, grown)) = got.done.split_first() else {
        return ([0.0; 3], 0.0);
    };
    let first_held = first.held.iter().copied().fold(0.0, f64::max);
    let Some(top) = grown.last() else {
        let secs = [
            first.secs[0] + FALLBACK_SECS_PER_BYTE * full,
            first.secs[1],
            first.secs[2],
        ];
        return (secs, first_held + FALLBACK_HELD_PER_BYTE * full);
    };
    let b = |i: usize| {
        let (a, z) = match grown {
            [.., a, z] => (a, z),
            _ => (first, top),
        };
        power(a.bytes, a.secs[i], z.bytes, z.secs[i]).clamp(EXPONENT.0, EXPONENT.1)
    };
    let bs = [b(0), b(1), b(2)];
    let at = |bytes: f64| -> [f64; 3] {
        let r = (bytes / top.bytes.max(1.0)).max(1.0);
        std::array::from_fn(|i| top.secs[i] * r.powf(bs[i]))
    };
    let mut secs = at(full);
    if let Some((bytes, had)) = got.stopped {
        let there: f64 = at(bytes).iter().sum();
        if there < had && there > 0.0 {
            let raise = (had / there).ln() / (bytes / top.bytes.max(1.0)).ln().max(1e-9);
            let r = (full / top.bytes.max(1.0)).max(1.0);
            secs = std::array::from_fn(|i| secs[i] * r.powf(raise));
        }
    }
    let once: [f64; 3] = std::array::from_fn(|i| (first.secs[i] - grown[0].secs[i]).max(0.0));
    let secs = std::array::from_fn(|i| secs[i] + once[i]);
    // Memory measured on small tables is the allocator's and the fonts'
    // as much as the rows': its growth per byte counts from a size of
    // [`HELD_FROM`] bytes.
    let per_byte = grown
        .iter()
        .filter(|l| l.bytes >= HELD_FROM)
        .map(|l| (l.held.iter().copied().fold(0.0, f64::max) - first_held).max(0.0) / l.bytes)
        .fold(None, |a: Option<f64>, b| Some(a.map_or(b, |a| a.max(b))))
        .unwrap_or(FALLBACK_HELD_PER_BYTE);
    (secs, first_held + per_byte * full)
}

/// The exponent of growth from (`b1`, `c1`) to (`b2`, `c2`).
fn power(b1: f64, c1: f64, b2: f64, c2: f64) -> f64 {
    if b2 <= b1 * 1.01 || c1 <= 0.0 || c2 <= 0.0 {
        return 1.0;
    }
    (c2 / c1).ln() / (b2 / b1).ln()
}

/// The exponents of growth past the sizes measured are kept within these.
const EXPONENT: (f64, f64) = (0.3, 1.5);

/// The render stage's seconds per byte read back where no growth was
/// measured: the model's.
const FALLBACK_SECS_PER_BYTE: f64 = sweep::estimate::RENDER_SECS_PER_BYTE;

/// The memory held per byte read back where no size of [`HELD_FROM`]
/// bytes was measured: the model's ([`sweep::estimate::render_cost`]).
/// Memory measured on small tables is the allocator's as much as the
/// rows' (1 MB of take-away rows held 3 MB more; 142 MB of them, 2.9×).
const FALLBACK_HELD_PER_BYTE: f64 = sweep::estimate::RENDER_HELD_PER_BYTE;
/// See [`FALLBACK_HELD_PER_BYTE`].
const HELD_FROM: f64 = 16.0 * 1048576.0;

/// A scratch directory, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Result<Scratch> {
        super::calibrate::fresh_dir(&std::env::temp_dir(), "nimlab-stages").map(Scratch)
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
            secs: [secs, 0.0, 0.0],
            held: [held, 0.0, 0.0],
        }
    }

    fn levels(done: &[Level]) -> Levels {
        Levels {
            done: done.to_vec(),
            stopped: None,
        }
    }

    /// Worked by hand: the first size (10 bytes) costs 0.3 s, 0.2 s more
    /// than the second (1 MB, 0.1 s): fonts loaded once. From 1 MB to 4 MB
    /// the stage grew 4× (0.1 to 0.4 s: exponent 1), so at 40 MB it takes
    /// 0.2 + 0.4 × 10 = 4.2 s; its memory, 5 MB at 4 MB, 50 MB at 40 MB.
    /// Growing 2× for 4× the bytes (exponent 0.5), 40 MB take 0.2 +
    /// 0.2 × √10. The first alone: the model's growth per byte.
    #[test]
    fn the_stages_grow_as_measured() {
        let lv = [
            level(10.0, 0.3, 1e6),
            level(1e6, 0.1, 2e6),
            level(4e6, 0.4, 5e6),
        ];
        let (secs, held) = extrapolate(&levels(&lv), 4e7);
        assert!((secs[0] - 4.2).abs() < 1e-9, "{secs:?}");
        let want = 1e6 + FALLBACK_HELD_PER_BYTE * 4e7;
        assert!((held - want).abs() < 1.0, "{held}");
        // From 16 MiB measured, the growth measured: 16 MiB held 20 MiB
        // more than the first size, 1.25 per byte, so 40 MB hold 1 + 50 MB.
        let big = [
            level(10.0, 0.1, 1e6),
            level(16.0 * 1048576.0, 0.4, 1e6 + 20.0 * 1048576.0),
        ];
        let (_, held) = extrapolate(&levels(&big), 4e7);
        assert!((held - 5.1e7).abs() < 1.0, "{held}");
        let sq = [
            level(10.0, 0.3, 0.0),
            level(1e6, 0.1, 0.0),
            level(4e6, 0.2, 0.0),
        ];
        let (secs, _) = extrapolate(&levels(&sq), 4e7);
        assert!(
            (secs[0] - (0.2 + 0.2 * 10f64.sqrt())).abs() < 1e-9,
            "{secs:?}"
        );
        // One size past the first: growth between them (0.1 s at 1 MB to
        // 0.3 s at 1 GB grows as 1000^(1/6)... kept at least 0.3).
        let one = [level(1e6, 0.1, 0.0), level(1e9, 0.3, 0.0)];
        let want = 0.3 * 8f64.powf(EXPONENT.0);
        assert!((extrapolate(&levels(&one), 8e9).0[0] - want).abs() < 1e-9);
        let one = [level(1e6, 0.1, 0.0), level(4e6, 0.4, 0.0)];
        assert!((extrapolate(&levels(&one), 8e6).0[0] - 0.8).abs() < 1e-9);
        let first = [level(10.0, 0.1, 1e6)];
        let (secs, held) = extrapolate(&levels(&first), 1e6);
        assert!((secs[0] - (0.1 + FALLBACK_SECS_PER_BYTE * 1e6)).abs() < 1e-9);
        assert!((held - (1e6 + FALLBACK_HELD_PER_BYTE * 1e6)).abs() < 1e-3);
        assert_eq!(extrapolate(&Levels::default(), 1e9), ([0.0; 3], 0.0));
        // Stopped at 16 MB after 3 s, where the fit says 1.6 s: the growth
        // is raised so that 16 MB take 3 s (1.6 × 4^x = 3).
        let mut stopped = levels(&lv);
        stopped.stopped = Some((1.6e7, 3.0));
        let (secs, _) = extrapolate(&stopped, 1.6e7);
        assert!((secs[0] - 3.2).abs() < 1e-9, "{secs:?}");
    }
}
