//! A sweep's estimate from the cost model ([`crate::cost`]): each case's
//! work priced at this machine's measured kernel rates, the shared work
//! once, the writer's bytes; then the wall time on the chosen threads, the
//! CPU-hours, the peak memory (the guard's figures), the output size and the
//! dominant case. Nothing is solved.

use std::sync::Arc;

use serde_json::{Value, json};

use super::guard::{MemoryFigures, memory_figures};
use super::sample::{self, Sampled};
use crate::cost::{self, Rates, Work};
use crate::family::{Cost, Plan};
use crate::mem::human_bytes;
use crate::spec::Sweep;

/// No work.
static EMPTY: Work = Vec::new();

/// What a sweep will cost on this machine.
#[derive(Clone, Debug)]
pub struct SweepEstimate {
    /// Cases.
    pub cases: usize,
    /// Chunks.
    pub chunks: usize,
    /// Threads the wall time is for.
    pub threads: usize,
    /// Seconds on one thread: the cases, the shared work and the writer.
    pub cpu_secs: f64,
    /// Seconds on [`SweepEstimate::threads`] threads.
    pub wall_secs: f64,
    /// [`SweepEstimate::cpu_secs`] at most: each case's work at most
    /// ([`Cost::work_at_most`], a horizon extended to
    /// `proof_cap`).
    pub cpu_secs_at_most: f64,
    /// [`SweepEstimate::wall_secs`] at most, as
    /// [`SweepEstimate::cpu_secs_at_most`].
    pub wall_secs_at_most: f64,
    /// Each case's seconds on one thread, in plan order.
    pub case_secs: Vec<f64>,
    /// The memory figures of the guard.
    pub memory: MemoryFigures,
    /// What writing costs a process beyond its tables (measured: the first
    /// part it writes); none once the process has written a part, whose
    /// memory its resident base then holds.
    pub writer_bytes: u64,
    /// What the process holds already (resident now: the program, the
    /// specs, what the allocator kept of earlier sweeps; not their peak,
    /// which they freed), to which the sweep's peak adds.
    pub base_bytes: u64,
    /// Bytes of the kept datasets' rows, before compression.
    pub output_bytes: u64,
    /// Bytes of the tables whose size the cases count themselves
    /// ([`Cost::table_bytes`]), summed over the cases: what the render
    /// stage reads back of a sweep not sampled.
    pub counted_bytes: f64,
    /// The case taking longest: key and seconds on one thread.
    pub dominant: Option<(String, f64)>,
    /// Why some cases' work cannot be bounded (each once).
    pub unbounded: Vec<String>,
    /// What solving some of the sweep's cases measured, which the case
    /// times above follow ([`super::sample`]).
    pub sampled: Option<Sampled>,
}

/// The estimate of `sweep` planned as `plan`, at `rates`, on `threads`, in a
/// process that has (`wrote`) or has not yet written a Parquet part: the
/// run tells (its earlier sweeps, the calibration's probes).
pub fn estimate(
    sweep: &Sweep,
    plan: &Plan,
    rates: &Rates,
    threads: usize,
    wrote: bool,
) -> SweepEstimate {
    estimate_with(sweep, plan, rates, (threads, wrote), None)
}

/// [`estimate`] measured on the sweep's own cases: within `budget` wall
/// seconds some of them are solved first and the case times follow what
/// they measured ([`super::sample`]), their tables' bytes as the stages
/// after solving read them (`reads`). The dry run's: a case the budget
/// stops is left behind on its thread.
pub fn estimate_sampled(
    sweep: &Sweep,
    plan: &Arc<Plan>,
    rates: &Rates,
    (threads, wrote): (usize, bool),
    (budget, reads): (f64, sample::StagesRead),
) -> SweepEstimate {
    estimate_with(
        sweep,
        plan,
        rates,
        (threads, wrote),
        Some((plan, budget, reads)),
    )
}

fn estimate_with(
    sweep: &Sweep,
    plan: &Plan,
    rates: &Rates,
    (threads, wrote): (usize, bool),
    sampling: Option<(&Arc<Plan>, f64, sample::StagesRead)>,
) -> SweepEstimate {
    let threads = threads.max(1);
    // What the process holds before sampling: a sampled case's memory (a
    // chord memo) is the sweep's own, counted in its figures.
    let base_bytes = crate::mem::resident_memory().unwrap_or(0);
    let keep = sweep.datasets.as_deref();
    let costs = super::guard::costs(plan, keep);
    let model: Vec<f64> = costs.iter().map(|c| rates.secs(&c.work)).collect();
    let shared: &Work = costs
        .iter()
        .map(|c| &c.shared_work)
        .max_by(|a, b| rates.secs(a).total_cmp(&rates.secs(b)))
        .unwrap_or(&EMPTY);
    let output_bytes = output_bytes(sweep, &costs);
    let counted_bytes = counted_bytes(sweep, &costs);
    let writer = rates.secs(&[(cost::WRITER, output_bytes)]);
    let model_bound: Vec<f64> = costs.iter().map(|c| rates.secs(c.work_at_most())).collect();
    let shared_secs = rates.secs(shared);
    let (case_secs, bound_secs, sampled) = measured_secs(
        sampling,
        (rates, keep),
        (&costs, &model, &model_bound),
        shared_secs,
    );
    let ranges: Vec<std::ops::Range<usize>> = super::chunks(&plan.cases)
        .iter()
        .map(|c| c.start..c.end)
        .collect();
    let chunks = ranges.len();
    let overhead = overhead_secs(sweep, (plan, &costs), chunks, rates);
    let fixed = shared_secs + writer + overhead;
    let splits = spreading(&costs, chunks);
    let (cases_cpu, wall) = cpu_and_wall(&case_secs, (&splits, &ranges), fixed, threads);
    let (bound_cpu, bound_wall) = cpu_and_wall(&bound_secs, (&splits, &ranges), fixed, threads);
    let dominant = case_secs
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .map(|(i, s)| (plan.cases[i].key(), *s));
    let mut unbounded: Vec<String> = Vec::new();
    for u in costs.iter().filter_map(|c| c.unbounded.as_ref()) {
        if !unbounded.contains(u) {
            unbounded.push(u.clone());
        }
    }
    let mut memory = memory_figures((plan, &costs), sweep.declared(), keep, threads);
    let case_bytes = sampled.as_ref().map_or(&[][..], |s| &s.case_bytes[..]);
    let measured_output = case_bytes.iter().sum::<f64>() as u64;
    let output_bytes = output_bytes.max(measured_output);
    held_as_measured(&mut memory, case_bytes, &ranges);
    SweepEstimate {
        cases: plan.cases.len(),
        chunks,
        threads,
        cpu_secs: cases_cpu + fixed,
        wall_secs: wall,
        cpu_secs_at_most: bound_cpu + fixed,
        wall_secs_at_most: bound_wall.max(wall),
        case_secs,
        writer_bytes: writer_bytes(rates, wrote),
        memory,
        base_bytes,
        output_bytes,
        counted_bytes,
        dominant,
        unbounded,
        sampled,
    }
}

/// Each case's seconds and seconds at most on one thread: the model's
/// (`model`, `bound`), then, with a `budget`, as measured on some of the
/// sweep's cases ([`super::sample`]): the cases the model gives seconds
/// by the fit against those seconds, the cases it gives none (a kernel
/// without a rate) by the fit against their size ([`Cost::size`]; the
/// cases cost `costs`).
fn measured_secs(
    sampling: Option<(&Arc<Plan>, f64, sample::StagesRead)>,
    (rates, keep): (&Rates, Option<&[String]>),
    (costs, model, bound): (&[Cost], &[f64], &[f64]),
    shared: f64,
) -> (Vec<f64>, Vec<f64>, Option<Sampled>) {
    let Some((plan, budget, reads)) = sampling.filter(|(p, b, _)| *b > 0.0 && !p.cases.is_empty())
    else {
        return (model.to_vec(), bound.to_vec(), None);
    };
    let costed: Vec<f64> = model.iter().map(|&s| s.max(0.0)).collect();
    let uncosted: Vec<f64> = costs
        .iter()
        .zip(model)
        .map(|(c, &s)| if s > 0.0 { 0.0 } else { c.size as f64 })
        .collect();
    let has = |v: &[f64]| v.iter().any(|&x| x > 0.0);
    let share = match (has(&costed), has(&uncosted)) {
        (true, true) => budget / 2.0,
        (true, false) => budget,
        _ => 0.0,
    };
    let secs_of = |c: &dyn crate::family::Case| rates.secs(&c.cost(keep).work);
    let cost_of = |c: &dyn crate::family::Case| {
        let c = c.cost(keep);
        if rates.secs(&c.work) > 0.0 {
            0.0
        } else {
            c.size as f64
        }
    };
    let rows: Vec<f64> = costs
        .iter()
        .map(|c| sample::declared_rows(c, keep))
        .collect();
    let a = sample::sample(
        plan,
        (keep, &reads),
        (&costed, &rows, true),
        &secs_of,
        (shared, share),
    );
    let b = sample::sample(
        plan,
        (keep, &reads),
        (&uncosted, &rows, false),
        &cost_of,
        (0.0, budget - a.spent),
    );
    // A fit on cases stopped at the budget alone is a lower bound: it
    // raises the model's time, never lowers it.
    let lower = sample::fit_is_lower_bound(&a.points, true);
    let by = |f: Option<sample::Fit>, s: f64, m: f64| {
        f.map_or(m, |f| if lower { f.secs(s).max(m) } else { f.secs(s) })
    };
    let mut secs = Vec::with_capacity(model.len());
    let mut at_most = Vec::with_capacity(model.len());
    for i in 0..model.len() {
        if model[i] > 0.0 {
            let s = a
                .own_secs(i, model[i])
                .unwrap_or(by(a.fit, model[i], model[i]));
            secs.push(s);
            at_most.push(by(a.fit, bound[i], bound[i]).max(s));
        } else {
            let s = b.own_secs(i, uncosted[i]);
            let s = s.unwrap_or(by(b.fit, uncosted[i], model[i]));
            secs.push(s);
            at_most.push(s.max(bound[i]));
        }
    }
    let by = (&rows[..], [&costed[..], &uncosted[..]]);
    let case_bytes = measured_bytes((&a, &b), by, false);
    let case_read_bytes = measured_bytes((&a, &b), by, true);
    let kept = if a.kept.is_empty() { b.kept } else { a.kept };
    let merged = Sampled {
        kept,
        planned: a.planned.into_iter().chain(b.planned).collect(),
        points: a.points.iter().chain(&b.points).copied().collect(),
        fit: a.fit,
        spent: a.spent + b.spent,
        model_ratio: a.model_ratio,
        by_model: a.by_model,
        case_bytes,
        case_read_bytes,
        reads,
        byte_points: a
            .byte_points
            .iter()
            .chain(&b.byte_points)
            .copied()
            .collect(),
    };
    (secs, at_most, Some(merged))
}

/// Each case's tables in bytes as the sampled cases measured them: its
/// own where it or a copy of it scaled down was solved
/// ([`Sampled::own_bytes`]), else by the fit ([`sample::fit_bytes`]) over
/// the sweep's own cases solved (the copies scaled down where none was:
/// a copy's rows can be shaped unlike the other cases'); empty when no
/// sampled case returned tables of some size. As read back from their
/// files where `read_back`. Fitted two ways, the smaller kept: against
/// the rows each case declares (`rows`: codes with twice the moves and
/// the same rows wrote the same bytes), and against the size each was
/// sampled by (`sizes`, the model's seconds or else [`Cost::size`], by
/// sampler: one code's winning moves outnumber another's on the same
/// rows, as its moves do).
fn measured_bytes(
    (a, b): (&Sampled, &Sampled),
    (rows, sizes): (&[f64], [&[f64]; 2]),
    read_back: bool,
) -> Vec<f64> {
    let pooled = |pts: &[sample::Point], by_rows: bool| {
        let cases: Vec<sample::Point> = pts.iter().filter(|p| !p.scaled).copied().collect();
        sample::fit_bytes(&cases, read_back, by_rows)
            .or_else(|| sample::fit_bytes(pts, read_back, by_rows))
    };
    let at = |s: &Sampled, f: Option<sample::Fit>, (i, x): (usize, f64), by_rows: bool| {
        s.own_bytes(i, x, (read_back, by_rows), f)
            .or_else(|| f.map(|f| f.secs(x)))
    };
    let all: Vec<sample::Point> = a.points.iter().chain(&b.points).copied().collect();
    let by_rows = pooled(&all, true);
    let by_size = [pooled(&a.points, false), pooled(&b.points, false)];
    // Nothing of some size measured: no figure (the copies of other cases
    // may have measured theirs).
    let copies = a.byte_copies() + b.byte_copies();
    if by_rows.is_none() && by_size.iter().all(Option::is_none) && copies == 0 {
        return Vec::new();
    }
    (0..rows.len())
        .map(|i| {
            let own = |s: &Sampled| s.own_bytes(i, rows[i], (read_back, true), by_rows);
            let r = own(a)
                .or_else(|| own(b))
                .or_else(|| by_rows.map(|f| f.secs(rows[i])));
            let s = [(a, by_size[0], sizes[0][i]), (b, by_size[1], sizes[1][i])]
                .into_iter()
                .filter(|&(_, _, x)| x > 0.0)
                .filter_map(|(s, f, x)| at(s, f, (i, x), false))
                .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))));
            match (r, s) {
                (Some(r), Some(s)) => r.min(s),
                (r, s) => r.or(s).unwrap_or(0.0),
            }
        })
        .collect()
}

/// What a case holds while solving, over the bytes of the tables it
/// returns: the tables as they are built, their rows appended to its
/// chunk's and encoded (measured: Kayles' winning moves to 5,000–20,000
/// heaps held 0.98–1.13× their tables' bytes at the peak).
const HELD_PER_TABLE_BYTE: f64 = 1.1;

/// The memory figures raised to what the sampled cases' tables say
/// (`case_bytes`, [`measured_bytes`]): the threads' largest chunks
/// (`chunks`, ranges of cases: a chunk's tables are held until it is
/// written) each holding [`HELD_PER_TABLE_BYTE`] times its cases' tables,
/// beside the shared memory, where that is more than the model's.
fn held_as_measured(
    memory: &mut MemoryFigures,
    case_bytes: &[f64],
    chunks: &[std::ops::Range<usize>],
) {
    let of = |r: &std::ops::Range<usize>| r.clone().filter_map(|i| case_bytes.get(i)).sum::<f64>();
    let mut held: Vec<f64> = chunks.iter().map(|r| of(r) * HELD_PER_TABLE_BYTE).collect();
    held.sort_by(|a, b| b.total_cmp(a));
    let top: f64 = held.iter().take(memory.threads).sum();
    let measured = memory.shared.saturating_add(top as u64);
    memory.expected = memory.expected.max(measured);
    memory.peak = memory.peak.max(measured);
}

/// Seconds the render stage spends per byte of the rows it reads back
/// (weighted as [`RENDER_HELD_PER_BYTE`]'s; measured on one thread: the
/// tables and figures of Kayles-like codes' winning moves, 0.43 and 4.3 GB
/// of rows, took 10 and 20 ns a byte, 4 and 8 ns so weighted).
pub const RENDER_SECS_PER_BYTE: f64 = 6e-9;
/// The process's memory in the render stage per byte of the rows of a
/// sweep it reads back (its columns of lists weighted
/// [`sample::LIST_WEIGHT`]), beyond what it held before (measured with
/// `/usr/bin/time -v`: 1.2× for parity's outcome rows and for Kayles'
/// winning moves to 10,000 heaps so weighted).
pub const RENDER_HELD_PER_BYTE: f64 = 1.2;

/// The render stage after the sweeps: its seconds on one thread and on
/// `threads` threads, and the process's peak while it reads the sweeps
/// back (each renders one sweep at a time, from its rows read back whole). Of
/// the rows measured ([`Sampled::case_read_bytes`]), else of the tables
/// the cases count ([`SweepEstimate::counted_bytes`]: a board sequence's
/// winning runs, 536 MB counted for 2 × 11 sequences of 2,000 boards);
/// the declared row sizes are bounds far above the rows (the default
/// run's say 1.6 GiB; the whole run peaks at 475 MB).
pub fn render_cost(all: &[SweepEstimate], threads: usize) -> ([f64; 2], u64) {
    let measured = |e: &SweepEstimate| -> f64 {
        e.sampled
            .as_ref()
            .filter(|s| !s.case_read_bytes.is_empty())
            .map_or(e.counted_bytes, |s| s.case_read_bytes.iter().sum::<f64>())
    };
    let each: Vec<f64> = all
        .iter()
        .map(|e| measured(e) * RENDER_SECS_PER_BYTE)
        .collect();
    let secs: f64 = each.iter().sum();
    // A sweep renders on one thread: no sooner than the largest.
    let wall = (secs / threads.max(1) as f64).max(each.iter().copied().fold(0.0, f64::max));
    let mut held: Vec<u64> = all
        .iter()
        .map(|e| (measured(e) * RENDER_HELD_PER_BYTE) as u64)
        .collect();
    held.sort_unstable_by(|a, b| b.cmp(a));
    let base = all.iter().map(|e| e.base_bytes).max().unwrap_or(0);
    let peak = held
        .iter()
        .take(threads.max(1))
        .fold(base, |a, &b| a.saturating_add(b));
    ([secs, wall], peak)
}

/// The writing memory an estimate adds to the resident base: the measured
/// figure ([`cost::Overhead::writer_bytes`]) until the process has written a
/// part, then none (after the first part, the resident memory stayed level
/// over a run's later sweeps: the base holds it).
fn writer_bytes(rates: &Rates, written: bool) -> u64 {
    if written {
        0
    } else {
        rates.overhead.writer_bytes
    }
}

/// Which cases spread their work over the threads: those that always do,
/// and where the sweep is one chunk, those that do alone
/// ([`Cost::splits_alone`]).
fn spreading(costs: &[Cost], chunks: usize) -> Vec<bool> {
    costs
        .iter()
        .map(|c| c.splits || (chunks == 1 && c.splits_alone))
        .collect()
}

/// The cases' seconds on one thread, summed, and the sweep's wall seconds
/// on `threads` with `fixed` seconds of work (shared, writer, overhead)
/// spread over them: no sooner than its longest chunk (`chunks`, ranges
/// of cases, whose cases one thread solves in turn; a case that `splits`
/// its own work over the threads counts its seconds over them). Five
/// rules cases of 2 s in one chunk took 10.3 s on 2 threads, estimated
/// 2.7 s.
fn cpu_and_wall(
    case_secs: &[f64],
    (splits, chunks): (&[bool], &[std::ops::Range<usize>]),
    fixed: f64,
    threads: usize,
) -> (f64, f64) {
    let cpu: f64 = case_secs.iter().sum();
    let own = |i: usize| {
        if splits[i] {
            case_secs[i] / threads as f64
        } else {
            case_secs[i]
        }
    };
    let longest = chunks
        .iter()
        .map(|r| r.clone().map(own).sum::<f64>())
        .fold(0.0, f64::max);
    let wall = (cpu / threads as f64).max(longest) + fixed / threads as f64;
    (cpu, wall)
}

/// The fixed costs of a sweep on one thread ([`cost::Overhead`]): each
/// case's dispatch, and each chunk's files (a part per dataset it keeps and
/// its record).
fn overhead_secs(
    sweep: &Sweep,
    (plan, costs): (&Plan, &[Cost]),
    chunks: usize,
    rates: &Rates,
) -> f64 {
    let datasets = super::guard::dataset_rows(costs, sweep.datasets.as_deref()).len();
    let files = chunks * (datasets.max(1) + 1);
    plan.cases.len() as f64 * rates.overhead.case_secs + files as f64 * rates.overhead.file_secs
}

/// Bytes of the rows the sweep keeps: the declared columns' sizes, or
/// what a case counts of a table ([`Cost::table_bytes_of`]: the two-heap
/// octal `0.71` to 700 holds 100 winning moves a row, where a list is
/// declared with four).
fn output_bytes(sweep: &Sweep, costs: &[Cost]) -> u64 {
    let (datasets, keep) = (sweep.declared(), sweep.datasets.as_deref());
    costs
        .iter()
        .map(|c| super::guard::kept_table_bytes(c, datasets, keep))
        .fold(0, u64::saturating_add)
}

/// The bytes of the kept tables that the cases count themselves
/// ([`Cost::table_bytes`]: a list column's items beyond the declared
/// sizes), summed over the cases; the declared sizes alone are bounds far
/// above the rows, and count nothing here. In memory, their lists not
/// weighted as [`sample::LIST_WEIGHT`] weighs those read back: on board
/// sequences (536 MB counted) the render took 8.8 ns and held 1.8 bytes a
/// counted byte, where [`render_cost`] says 6 and 1.2 unweighted, 17 and
/// 3.4 weighted.
fn counted_bytes(sweep: &Sweep, costs: &[Cost]) -> f64 {
    let keep = sweep.datasets.as_deref();
    let kept = |d: &str| keep.is_none_or(|k| k.iter().any(|x| x == d));
    costs
        .iter()
        .flat_map(|c| c.table_bytes.iter().map(move |(d, _)| (c, *d)))
        .filter(|(_, d)| kept(d))
        .filter_map(|(c, d)| {
            let ds = sweep.declared().iter().find(|x| x.name == d)?;
            Some(c.table_bytes_of(ds, c.rows_of(d)) as f64)
        })
        .sum()
}

impl SweepEstimate {
    /// `~2 min 10 s on 2 threads (0.07 CPU-hours), peak memory ~1.2 GiB
    /// (at most 2 GiB), output ~30 MiB before compression`; where a case's
    /// work may grow, its bound beside: `~3 s (at most 60 s) on 2 threads
    /// (0.002 CPU-hours, at most 0.033)`.
    pub fn headline(&self) -> String {
        let wall = match above(self.wall_secs, self.wall_secs_at_most) {
            Some(b) => format!(" (at most {})", cost::human_secs(b)),
            None if self.open_ended() => " (at least: a lower bound)".to_string(),
            None => String::new(),
        };
        let cpu = above(self.cpu_secs, self.cpu_secs_at_most)
            .map(|b| format!(", at most {:.3}", b / 3600.0))
            .unwrap_or_default();
        format!(
            "~{}{wall} on {} thread{} ({:.3} CPU-hours{cpu}), peak memory ~{} (at most {}), output ~{} before compression",
            cost::human_secs(self.wall_secs),
            self.threads,
            if self.threads == 1 { "" } else { "s" },
            self.cpu_secs / 3600.0,
            human_bytes(self.peak()),
            human_bytes(self.peak_bound()),
            human_bytes(self.output_bytes)
        )
    }
    /// The process's expected peak: what it holds already, the sweep's
    /// expected peak ([`MemoryFigures::expected`]) and the writers' buffers.
    pub fn peak(&self) -> u64 {
        self.base_bytes
            .saturating_add(self.memory.expected)
            .saturating_add(self.writer_bytes)
    }
    /// The process's peak at most: as [`SweepEstimate::peak`] with the
    /// guard's bound ([`MemoryFigures::peak`]).
    pub fn peak_bound(&self) -> u64 {
        self.base_bytes
            .saturating_add(self.memory.peak)
            .saturating_add(self.writer_bytes)
    }
    /// Whether the time is a lower bound: some case's work cannot be
    /// bounded and no bound above the expected time is known.
    pub fn open_ended(&self) -> bool {
        !self.unbounded.is_empty() && above(self.wall_secs, self.wall_secs_at_most).is_none()
    }
    /// What sampling measured, as a sentence: `measured by 4 solves of the
    /// sweep's cases or smaller copies of them (0.42 s): 3.1× the model's
    /// time at the largest,
    /// growing as size^1.2`.
    pub fn sampled_text(&self) -> Option<String> {
        let s = self.sampled.as_ref()?;
        if s.points.is_empty() {
            return (s.spent >= 0.01).then(|| format!("no case sampled ({:.2} s)", s.spent));
        }
        let n = s.points.len();
        // The points are the sweep's cases or copies of its largest cases
        // scaled down on the same solver ([`crate::family::Case::scaled`]).
        let mut t = format!(
            "measured by {n} solve{} of the sweep's cases or smaller copies of them ({:.2} s)",
            if n == 1 { "" } else { "s" },
            s.spent
        );
        if let (Some(r), Some(f)) = (s.model_ratio, s.fit) {
            t += &format!(
                ": {r:.2}× the model's time at the largest, growing as its size^{:.2}",
                f.b
            );
        }
        if s.points.iter().any(|p| !p.done) {
            t += "; the largest stopped at the budget (its time is at least that)";
        }
        let more = s.byte_copies();
        if more > 0 {
            t += &format!(
                "; {more} more cop{} of other cases measured their tables",
                if more == 1 { "y" } else { "ies" }
            );
        }
        Some(t)
    }
    /// The dominant case, as a sentence.
    pub fn dominant_text(&self) -> Option<String> {
        let (key, secs) = self.dominant.as_ref()?;
        Some(format!(
            "dominant case ~{} on one thread: {key}",
            cost::human_secs(*secs)
        ))
    }
    /// For the manifest: the estimate beside what a run measured.
    pub fn json(&self, measured_secs: f64) -> Value {
        json!({
            "threads": self.threads,
            "wall_seconds_estimated": self.wall_secs,
            "wall_seconds_measured": measured_secs,
            "cpu_seconds_estimated": self.cpu_secs,
            "wall_seconds_at_most": self.wall_secs_at_most,
            "cpu_seconds_at_most": self.cpu_secs_at_most,
            "peak_memory_bytes_estimated": self.peak(),
            "peak_memory_bytes_at_most": self.peak_bound(),
            "output_bytes_estimated": self.output_bytes,
            "dominant_case": self.dominant.as_ref().map(|(k, s)| json!({"key": k, "seconds": s})),
            "unbounded": self.unbounded,
        })
    }
}

/// The bound when it is above the expected figure (`None` when they are
/// equal: the work cannot grow).
pub fn above(expected: f64, bound: f64) -> Option<f64> {
    (bound > expected * (1.0 + 1e-9)).then_some(bound)
}

/// The summary's sentence after a run's stages that read an experiment
/// (render, check): the estimate, the sweeps' and the model's render
/// ([`render_cost`]) where `rendered`, beside the time they took (`after`:
/// the render's and the check's seconds) and the process's peak memory
/// since the experiment started, theirs included (`None` without
/// estimates).
pub fn beside_measured(
    experiment: &str,
    reports: &[super::SweepReport],
    (after, threads, rendered): (f64, usize, bool),
) -> Option<String> {
    let ests: Vec<SweepEstimate> = reports.iter().filter_map(|r| r.estimate.clone()).collect();
    if ests.is_empty() {
        return None;
    }
    let ([_, render], render_peak) = if rendered {
        render_cost(&ests, threads)
    } else {
        ([0.0; 2], 0)
    };
    let estimated = ests.iter().map(|e| e.wall_secs).sum::<f64>() + render;
    let took: f64 = reports.iter().map(|r| r.wall_secs).sum::<f64>() + after;
    let peak = ests
        .iter()
        .map(|e| e.peak())
        .max()
        .unwrap_or(0)
        .max(render_peak);
    let measured = crate::mem::peak_memory().map_or("unknown".to_string(), human_bytes);
    let reused: usize = reports.iter().map(|r| r.skipped).sum();
    Some(format!(
        "{experiment}: estimated {}, took {} (render and check {}); peak memory estimated ~{}, measured {} (the process's){}",
        cost::human_secs(estimated),
        cost::human_secs(took),
        cost::human_secs(after),
        human_bytes(peak),
        measured,
        if reused > 0 {
            let reused = crate::progress::counted(reused as u64, "chunk");
            format!(" ({reused} reused: the estimate is for them all)")
        } else {
            String::new()
        }
    ))
}

/// Totals over sweeps: wall seconds (one after another), CPU seconds, the
/// largest peak memory, output bytes.
pub fn totals(all: &[SweepEstimate]) -> (f64, f64, u64, u64) {
    all.iter().fold((0.0, 0.0, 0, 0), |t, e| {
        (
            t.0 + e.wall_secs,
            t.1 + e.cpu_secs,
            t.2.max(e.peak()),
            t.3.saturating_add(e.output_bytes),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A case solved returns its bytes (1 MB on 100 rows, sampled at 1 s
    /// of the model). The others take the smaller of the two fits, both
    /// proportional here: case 1, twice the model's seconds on the same
    /// rows, 1 MB by rows (not 2 MB by seconds); case 2, twice the rows at
    /// the same seconds, 1 MB by seconds (not 2 MB by rows). No point
    /// measured: no figure.
    #[test]
    fn table_bytes_take_the_smaller_fit() {
        let solved = sample::Point {
            size: 1.0,
            secs: 0.1,
            done: true,
            bytes: 1e6,
            read_bytes: 2e6,
            rows: 100.0,
            case: Some(0),
            scaled: false,
        };
        let a = Sampled {
            points: vec![solved],
            ..Sampled::default()
        };
        let b = Sampled::default();
        let (rows, secs, none) = ([100.0, 100.0, 200.0], [1.0, 2.0, 1.0], [0.0; 3]);
        let got = measured_bytes((&a, &b), (&rows, [&secs, &none]), false);
        assert_eq!(got, vec![1e6, 1e6, 1e6]);
        let read = measured_bytes((&a, &b), (&rows, [&secs, &none]), true);
        assert_eq!(read, vec![2e6, 2e6, 2e6]);
        assert!(measured_bytes((&b, &b), (&rows, [&secs, &none]), false).is_empty());
    }

    /// A case solved by the second sampler keeps its own bytes on the
    /// rows side too: the pooled fit over the others (1 MB per 100 rows)
    /// must not stand in for the 5 MB it measured.
    #[test]
    fn a_case_solved_by_either_sampler_keeps_its_bytes() {
        let point = |case, rows, bytes| sample::Point {
            size: 1.0,
            secs: 0.1,
            done: true,
            bytes,
            read_bytes: bytes,
            rows,
            case: Some(case),
            scaled: false,
        };
        let a = Sampled {
            points: vec![
                point(0, 100.0, 1e6),
                point(2, 200.0, 2e6),
                point(3, 400.0, 4e6),
            ],
            ..Sampled::default()
        };
        let b = Sampled {
            points: vec![point(1, 100.0, 5e6)],
            ..Sampled::default()
        };
        let rows = [100.0, 100.0, 200.0, 400.0];
        let sizes = ([1.0, 0.0, 2.0, 4.0], [0.0, 1.0, 0.0, 0.0]);
        let got = measured_bytes((&a, &b), (&rows, [&sizes.0, &sizes.1]), false);
        assert_eq!(got, vec![1e6, 5e6, 2e6, 4e6]);
    }

    /// A case measured on copies of its own for its bytes only
    /// ([`Sampled::byte_points`]) grows from them: copies of 500 and 1,000
    /// rows of 0.25 and 1 MB grow as rows², so 4,000 rows hold 16 MB,
    /// where the largest case's copies (its 1,000 rows: 0.2 MB, growing as
    /// the rows) would say 0.8 MB for it. The copies do not enter the fit
    /// of time.
    #[test]
    fn a_case_with_copies_for_its_bytes_grows_as_they_did() {
        let copy = |case, rows: f64, bytes| sample::Point {
            size: rows / 1000.0,
            secs: 0.01,
            done: true,
            bytes,
            read_bytes: bytes,
            rows,
            case: Some(case),
            scaled: true,
        };
        let a = Sampled {
            points: vec![copy(0, 500.0, 0.1e6), copy(0, 1000.0, 0.2e6)],
            byte_points: vec![copy(1, 500.0, 0.25e6), copy(1, 1000.0, 1e6)],
            ..Sampled::default()
        };
        let b = Sampled::default();
        let (rows, secs, none) = ([4000.0, 4000.0], [4.0, 4.0], [0.0; 2]);
        let got = measured_bytes((&a, &b), (&rows, [&secs, &none]), false);
        assert!((got[0] - 0.8e6).abs() < 1.0, "{got:?}");
        assert!((got[1] - 16e6).abs() < 1.0, "{got:?}");
        assert!(a.own_secs(1, 4.0).is_none());
        // The largest case's tables too small to tell anything (under 64
        // KiB): the other case's copies still give its bytes, and the
        // largest none.
        let small = Sampled {
            points: vec![copy(0, 500.0, 1e3), copy(0, 1000.0, 2e3)],
            byte_points: a.byte_points.clone(),
            ..Sampled::default()
        };
        let got = measured_bytes((&small, &b), (&rows, [&secs, &none]), false);
        assert_eq!(got.len(), 2, "{got:?}");
        assert!((got[1] - 16e6).abs() < 1.0, "{got:?}");
        assert_eq!(got[0], 0.0);
    }

    /// On 2 threads, cases of 4 s and 1 s of work and 1 s of fixed work:
    /// 5 s of CPU; a case on one thread holds the sweep for its 4 s (plus
    /// half the fixed), a case that splits its work takes 2 s, so the
    /// cases' 5 s over 2 threads decide.
    #[test]
    fn a_case_that_splits_its_work_is_timed_over_the_threads() {
        let apart = [0..1, 1..2];
        assert_eq!(
            cpu_and_wall(&[4.0, 1.0], (&[false, false], &apart), 1.0, 2),
            (5.0, 4.5)
        );
        assert_eq!(
            cpu_and_wall(&[4.0, 1.0], (&[true, false], &apart), 1.0, 2),
            (5.0, 3.0)
        );
        assert_eq!(
            cpu_and_wall(&[4.0, 1.0], (&[true, false], &apart), 1.0, 1),
            (5.0, 6.0)
        );
        // In one chunk, one thread solves both in turn: 5 s, then half
        // the fixed work; the splitting case over the threads, 2 + 1 s.
        let together = vec![std::ops::Range { start: 0, end: 2 }];
        assert_eq!(
            cpu_and_wall(&[4.0, 1.0], (&[false, false], &together), 1.0, 2),
            (5.0, 5.5)
        );
        assert_eq!(
            cpu_and_wall(&[4.0, 1.0], (&[true, false], &together), 1.0, 2),
            (5.0, 3.5)
        );
    }

    /// The writing memory is added to the resident base until the process
    /// has written a part; then the base holds it.
    #[test]
    fn writing_memory_counts_until_a_part_is_written() {
        let rates = Rates {
            per_sec: Vec::new(),
            overhead: cost::Overhead {
                writer_bytes: 3 << 20,
                ..cost::Overhead::default()
            },
            binary: String::new(),
            cpu: String::new(),
        };
        assert_eq!(writer_bytes(&rates, false), 3 << 20);
        assert_eq!(writer_bytes(&rates, true), 0);
    }

    /// A sweep's estimate in a process that has not written a part counts
    /// the measured writing memory in its peak; told that the process has,
    /// the same estimate counts none, and nothing else differs.
    #[test]
    fn the_estimate_counts_writing_memory_as_the_run_says() {
        let e = crate::spec::from_text(
            "sweeps:\n  - name: a\n    family: takeaway\n    take: {max: 2..4}\n    N: 0..99\n",
            std::path::Path::new("t.yaml"),
        )
        .unwrap();
        let sw = &e.sweeps[0];
        let plan = sw.plan().unwrap();
        let rates = Rates {
            per_sec: crate::family::calibration::kernels()
                .into_iter()
                .map(|k| (k, 1e6))
                .collect(),
            overhead: cost::Overhead {
                writer_bytes: 3 << 20,
                ..cost::Overhead::default()
            },
            binary: String::new(),
            cpu: String::new(),
        };
        let fresh = estimate(sw, &plan, &rates, 1, false);
        let after = estimate(sw, &plan, &rates, 1, true);
        assert_eq!((fresh.writer_bytes, after.writer_bytes), (3 << 20, 0));
        // The resident base is read at each call: compare without it.
        let peak = |x: &SweepEstimate| x.peak() - x.base_bytes;
        let bound = |x: &SweepEstimate| x.peak_bound() - x.base_bytes;
        assert_eq!(peak(&fresh) - peak(&after), 3 << 20);
        assert_eq!(bound(&fresh) - bound(&after), 3 << 20);
        assert_eq!(fresh.cpu_secs, after.cpu_secs);
    }

    /// A case that spreads alone (the octal kernels' blocks) takes its time
    /// over the threads only where its sweep is one chunk: beside other
    /// chunks it holds one thread (0.6 to 200,000 alone: 1.27 s on one
    /// thread, 0.63 s on two; two such cases in two chunks: 2.18 and
    /// 1.06 s). A case that always spreads does so in any sweep.
    #[test]
    fn a_case_spreads_alone_only_in_a_sweep_of_one_chunk() {
        let alone = Cost {
            splits_alone: true,
            ..Cost::default()
        };
        let always = Cost {
            splits: true,
            ..Cost::default()
        };
        assert_eq!(spreading(std::slice::from_ref(&alone), 1), [true]);
        assert_eq!(spreading(&[alone.clone(), alone], 2), [false, false]);
        assert_eq!(spreading(&[always.clone(), always], 2), [true, true]);
        // 1.2 s alone on 2 threads: 0.6 s; beside a 1.0 s case in its own
        // chunk, the longer chunk's 1.2 s.
        let whole = 0..1;
        let one = cpu_and_wall(&[1.2], (&[true], std::slice::from_ref(&whole)), 0.0, 2);
        assert_eq!(one, (1.2, 0.6));
        let two = cpu_and_wall(&[1.2, 1.0], (&[false, false], &[0..1, 1..2]), 0.0, 2);
        assert_eq!(two, (2.2, 1.2));
    }

    /// What [`spreading`] rests on: the driver's `par_iter` over the
    /// chunks to do runs one chunk on the calling thread (outside the
    /// pool, where a kernel may use every pool thread) and two or more on
    /// the pool's threads.
    #[test]
    fn one_chunk_runs_on_the_calling_thread() {
        use rayon::prelude::*;
        let on = |n: usize| -> Vec<Option<usize>> {
            let chunks: Vec<usize> = (0..n).collect();
            chunks
                .par_iter()
                .map(|_| rayon::current_thread_index())
                .collect()
        };
        assert_eq!(on(1), [None]);
        assert!(on(2).iter().all(Option::is_some));
    }

    /// A sweep not sampled is rendered as the tables its cases count: a
    /// board sequence's winning runs, beyond the declared rows; a sweep
    /// renders on one thread, so two threads finish no sooner than it.
    #[test]
    fn a_sweep_not_sampled_renders_the_tables_its_cases_count() {
        let text = "sweeps:\n  - name: a\n    family: lines\n    board: [{parallelogram: [5, 1..2000]}]\n    take: maximal\n    along: y\n  - name: b\n    family: takeaway\n    take: {max: 2}\n    N: 0..9\n";
        let e = crate::spec::from_text(text, std::path::Path::new("t.yaml")).unwrap();
        let rates = Rates {
            per_sec: crate::family::calibration::kernels()
                .into_iter()
                .map(|k| (k, 1e6))
                .collect(),
            overhead: cost::Overhead::default(),
            binary: String::new(),
            cpu: String::new(),
        };
        let est = |sw: &Sweep| estimate(sw, &sw.plan_estimate().unwrap(), &rates, 2, true);
        let (a, b) = (est(&e.sweeps[0]), est(&e.sweeps[1]));
        assert!(a.sampled.is_none() && b.sampled.is_none());
        // 2,000 boards of up to 10,000 pieces: far beyond their declared
        // rows (4 winning runs a row, 2,000 rows), and in the output.
        let positions = e.sweeps[0]
            .declared()
            .iter()
            .find(|d| d.name == "positions");
        let declared = 2000.0 * positions.unwrap().row_bytes() as f64;
        assert!(a.counted_bytes > 10.0 * declared, "{}", a.counted_bytes);
        assert!(
            a.output_bytes as f64 >= a.counted_bytes,
            "{}",
            a.output_bytes
        );
        assert!(b.counted_bytes < 1e4, "{}", b.counted_bytes);
        let ([cpu, wall], _) = render_cost(&[a.clone(), b.clone()], 2);
        let each = [a.counted_bytes, b.counted_bytes].map(|x| x * RENDER_SECS_PER_BYTE);
        assert_eq!(cpu, each[0] + each[1]);
        assert_eq!(wall, each[0]);
    }
}
