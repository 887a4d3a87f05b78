//! The estimate measured on the sweep's own cases: within a time budget,
//! some of the sweep's cases are solved (nothing written), from the
//! smallest up to the largest the budget affords, and how their measured
//! time grows with their stated size (the cost model's seconds, or
//! its [`crate::family::Cost::size`] for a case stating no work) is fitted and extrapolated to
//! every case. The cost model's kernels are measured on fixed inputs; a
//! solver path they do not represent (a rule, a board shape, a kernel
//! nobody counted) shows here.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::data::{Dataset, Role, Table};
use crate::family::{Case, CaseCtx, Output, Plan};
use crate::spec::{Experiment, Sweep};
use crate::view::View;

/// Cases shorter than this (CPU seconds) are too short to time
/// against their stated size: their time is dispatch and setup as much as
/// work.
const FLOOR_SECS: f64 = 0.005;
/// A fit from one point alone needs a point this long (seconds): one
/// short point says its setup's cost, not the work's (one case of 2 ms set
/// against a model's microsecond made a sweep of seconds read 26 min).
const ONE_POINT_SECS: f64 = 0.05;
/// The exponent of growth is kept within these (two points close together
/// or noisy would give anything).
const EXPONENT: (f64, f64) = (0.7, 1.6);
/// A case whose bound on memory is beyond this is never solved to sample.
const MEMORY_CAP: u64 = 1 << 30;

/// Wall seconds of sampling per experiment, shared by its sweeps: the
/// dry run of a spec stays under 2 s with its planning.
const EXPERIMENT_BUDGET: f64 = 0.9;
/// Wall seconds of sampling per sweep at most.
const SWEEP_BUDGET: f64 = 0.45;

/// The sampling budget of each sweep of an experiment of `sweeps` sweeps
/// (`NIMLAB_SAMPLE=0` turns sampling off: the cost model alone), its
/// share of what a calibration left ([`share`]).
pub fn budget(sweeps: usize) -> f64 {
    if std::env::var_os("NIMLAB_SAMPLE").is_some_and(|v| v == "0") {
        return 0.0;
    }
    share() * (EXPERIMENT_BUDGET / sweeps.max(1) as f64).min(SWEEP_BUDGET)
}

/// Seconds the kernels' calibration took in this process, in µs.
static CALIBRATED_US: AtomicU64 = AtomicU64::new(0);

/// Records that this process calibrated the kernels in `secs` before its
/// dry run: the dry run's own measurements then take their [`share`] of
/// what is left of its 2 s (a fresh binary's first dry run of 318
/// take-away cases took 0.94 s calibrating and 1.4 s measuring, 2.34 s).
pub fn calibrated_in(secs: f64) {
    CALIBRATED_US.store((secs * 1e6) as u64, Ordering::Relaxed);
}

/// The share of their budgets the dry run's measurements (sampling, the
/// stages after solving) take: all of them, less what a calibration in
/// this process took of [`DRY_RUN_SECS`], at least a fifth.
pub fn share() -> f64 {
    let spent = CALIBRATED_US.load(Ordering::Relaxed) as f64 / 1e6;
    ((DRY_RUN_SECS - spent) / DRY_RUN_SECS).clamp(0.2, 1.0)
}

/// What a dry run's measurements and a calibration take together at most
/// (seconds), the planning and printing left to the rest of its 2 s.
const DRY_RUN_SECS: f64 = 1.6;

/// How measured time grows with a case's stated size: `secs(s) = m0 ·
/// (s / s0)^b + add`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Fit {
    /// The reference size (the largest case measured).
    pub s0: f64,
    /// Its measured seconds.
    pub m0: f64,
    /// The exponent.
    pub b: f64,
    /// Seconds every case takes beyond its growth ([`on_the_mean`]).
    pub add: f64,
}

impl Fit {
    /// Seconds for a case of size `s` (none for size 0).
    pub fn secs(&self, s: f64) -> f64 {
        if s <= 0.0 {
            0.0
        } else {
            self.m0 * (s / self.s0).powf(self.b) + self.add
        }
    }
}

/// One case solved: its stated size, the seconds it took, and whether it
/// finished (else the seconds are a lower bound, the budget spent).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Point {
    /// Stated size.
    pub size: f64,
    /// Process CPU seconds (every thread).
    pub secs: f64,
    /// Finished within the budget.
    pub done: bool,
    /// Bytes of the tables it returned (0 unless it finished).
    pub bytes: f64,
    /// The same tables' bytes read back from their files
    /// ([`crate::data::Table::read_back_bytes`]), the columns of lists
    /// weighted [`LIST_WEIGHT`]: what the render stage holds of them.
    pub read_bytes: f64,
    /// The rows its datasets kept by the sweep are declared to have
    /// ([`declared_rows`]): what its tables' bytes grow with.
    pub rows: f64,
    /// The plan's case it is, or whose copy scaled down it is.
    pub case: Option<usize>,
    /// A copy of the case scaled down ([`Case::scaled`]).
    pub scaled: bool,
}

/// What the render stage holds per byte of a column of lists read back,
/// against one of other columns: their cells' text, built for tables and
/// figures (measured with `/usr/bin/time -v` over the render stage: 1.2×
/// the rows' bytes for parity's outcome rows, no lists; 3.4× for
/// Kayles' winning moves, nearly all lists).
pub const LIST_WEIGHT: f64 = 2.8;

/// Tables smaller than this (bytes) say their columns' fixed parts more
/// than how they grow.
const FLOOR_BYTES: f64 = 65536.0;

/// The rows a case's cost declares for the datasets the sweep keeps
/// (`keep`; `None`: every one).
pub fn declared_rows(cost: &crate::family::Cost, keep: Option<&[String]>) -> f64 {
    cost.rows
        .iter()
        .filter(|(d, _)| keep.is_none_or(|k| k.iter().any(|x| x == d)))
        .map(|&(_, n)| n as f64)
        .sum()
}

/// How the bytes of a case's tables grow with the rows it declares
/// ([`Point::rows`]), fitted as [`fit`] fits time: anchored at the largest
/// finished point above [`FLOOR_BYTES`], the exponent by least squares
/// where the rows span 4× or more (a list of winning moves per row grows
/// with the heaps), else proportional. Against the stated size instead
/// where not `by_rows`.
pub fn fit_bytes(points: &[Point], read_back: bool, by_rows: bool) -> Option<Fit> {
    let pts: Vec<Point> = points
        .iter()
        .map(|p| Point {
            size: if by_rows { p.rows } else { p.size },
            bytes: if read_back { p.read_bytes } else { p.bytes },
            ..*p
        })
        .collect();
    let good: Vec<&Point> = pts
        .iter()
        .filter(|p| p.done && p.size > 0.0 && p.bytes >= FLOOR_BYTES)
        .collect();
    let top = good.iter().max_by(|a, b| a.size.total_cmp(&b.size))?;
    let lo = good.iter().map(|p| p.size).fold(f64::MAX, f64::min);
    let b = if top.size < 4.0 * lo {
        1.0
    } else {
        slope(good.iter().map(|p| (p.size, p.bytes))).map_or(1.0, |(b, _)| b.clamp(0.5, 2.5))
    };
    Some(Fit {
        s0: top.size,
        m0: top.bytes,
        b,
        add: 0.0,
    })
}

/// Fits `points` (sizes > 0): anchored at the largest finished point
/// timed above the floor (the geometric mean of those of that size), the
/// exponent by least squares over the finished
/// points above the floor (1 with one such point, which must then be
/// [`ONE_POINT_SECS`] long). A point stopped at the budget is a lower
/// bound: where it took longer than the fit says, the fit is raised to
/// it, if it was long enough to time and took longer than every finished
/// point at least its size. `None` when no point qualifies.
pub fn fit(points: &[Point]) -> Option<Fit> {
    let finished: Vec<Point> = points.iter().filter(|p| p.done).copied().collect();
    let stopped = points.iter().filter(|p| !p.done && p.size > 0.0);
    let mut f = fit_finished(&finished).or_else(|| {
        let p = stopped.clone().max_by(|a, b| a.secs.total_cmp(&b.secs))?;
        (p.secs >= ONE_POINT_SECS).then_some(Fit {
            s0: p.size,
            m0: p.secs,
            b: 1.0,
            add: 0.0,
        })
    })?;
    // A stopped point too short to time, or no longer than a finished
    // case at least its size took, tells nothing the finished ones do not
    // (a case started with 3 ms of the budget left, stopped at 2.8 ms where
    // cases of its size took 1.7–3 ms, raised a sweep's fit 4×).
    let longest_from = |s: f64| {
        finished
            .iter()
            .filter(|q| q.size >= s)
            .map(|q| q.secs)
            .fold(0.0, f64::max)
    };
    for p in stopped.filter(|p| p.secs >= FLOOR_SECS && p.secs > longest_from(p.size)) {
        let at = f.secs(p.size);
        if p.secs > at && at > 0.0 {
            f.m0 *= p.secs / at;
        }
    }
    Some(f)
}

/// [`fit`], or, where sizes are the model's seconds and no case was long
/// enough to time, a bound from the largest finished case the model gave
/// at least [`BOUND_FROM`] seconds: it took at most [`FLOOR_SECS`], and
/// the others take as much per second of the model (a code whose period
/// is proven early does a hundredth of the work the model counts to its
/// horizon).
fn fit_or_bound(points: &[Point], seconds: bool) -> Option<Fit> {
    fit(points).or_else(|| {
        let p = points
            .iter()
            .filter(|p| seconds && p.done && p.size >= BOUND_FROM)
            .max_by(|a, b| a.size.total_cmp(&b.size))?;
        Some(Fit {
            s0: p.size,
            m0: p.secs.max(FLOOR_SECS),
            b: 1.0,
            add: 0.0,
        })
    })
}

/// The model's seconds from which a case too short to time bounds the
/// model's figures ([`fit_or_bound`]).
const BOUND_FROM: f64 = 10.0 * FLOOR_SECS;

/// Whether [`fit`] of `points` rests on cases stopped at the budget alone
/// (no finished one timed, nor a bound from finished ones too short to
/// time, [`fit_or_bound`], where `seconds`): the time it gives is a lower
/// bound.
pub fn fit_is_lower_bound(points: &[Point], seconds: bool) -> bool {
    let finished: Vec<Point> = points.iter().filter(|p| p.done).copied().collect();
    fit_or_bound(&finished, seconds).is_none()
}

/// [`fit`] of finished points.
fn fit_finished(points: &[Point]) -> Option<Fit> {
    let good: Vec<&Point> = points
        .iter()
        .filter(|p| p.size > 0.0 && p.secs >= FLOOR_SECS)
        .collect();
    let top = good.iter().max_by(|a, b| a.size.total_cmp(&b.size))?;
    if good.len() < 2 && top.secs < ONE_POINT_SECS {
        return None;
    }
    let work = beyond_setup(points);
    let pts: Vec<(f64, f64)> = if work.len() >= 2 {
        work
    } else {
        good.iter().map(|p| (p.size, p.secs)).collect()
    };
    let b = match slope(pts.iter().copied()) {
        // Sizes within a factor 1.5 of each other say nothing of growth.
        Some((b, sxx)) if pts.len() >= 2 && sxx >= 0.16 => b,
        _ => 1.0,
    };
    let span = pts.iter().map(|p| p.0).fold(0.0, f64::max)
        / pts.iter().map(|p| p.0).fold(f64::MAX, f64::min);
    let (lo, hi) = growth_bounds(span);
    // Cases of the same largest size (rules alike to the model) anchor the
    // fit at their geometric mean, not at whichever came last.
    let tops: Vec<f64> = good
        .iter()
        .filter(|p| p.size == top.size)
        .map(|p| p.secs.ln())
        .collect();
    Some(Fit {
        s0: top.size,
        m0: (tops.iter().sum::<f64>() / tops.len() as f64).exp(),
        b: b.clamp(lo, hi),
        add: 0.0,
    })
}

/// The exponents of growth that sizes spanning `span`× may tell: up to
/// the cube from 16× on, else within [`EXPONENT`].
fn growth_bounds(span: f64) -> (f64, f64) {
    if span >= 16.0 { (0.5, 3.0) } else { EXPONENT }
}

/// Where the two smallest cases took the same time within 1.5× for sizes
/// 4× apart or more, that time is what any case pays whatever its size
/// (setting up): each case's (size, seconds beyond it), for the cases
/// that took at least [`WORK_FLOOR`] beyond it. Else none: growth is
/// measured on the cases' whole times from [`FLOOR_SECS`].
fn beyond_setup(points: &[Point]) -> Vec<(f64, f64)> {
    let mut done: Vec<&Point> = points.iter().filter(|p| p.done && p.size > 0.0).collect();
    done.sort_by(|a, b| a.size.total_cmp(&b.size));
    let [a, b, ..] = done[..] else {
        return Vec::new();
    };
    let flat = b.size >= 4.0 * a.size && b.secs <= 1.5 * a.secs && a.secs <= 1.5 * b.secs;
    if !flat {
        return Vec::new();
    }
    let setup = a.secs.min(b.secs);
    done.iter()
        .filter(|p| p.secs - setup >= WORK_FLOOR)
        .map(|p| (p.size, p.secs - setup))
        .collect()
}

/// Seconds beyond the setup from which a case's time tells its growth
/// ([`beyond_setup`]).
const WORK_FLOOR: f64 = 0.001;

/// The least-squares slope of `ln y` against `ln x` over `points`, and
/// the spread of `ln x` (its sum of squares about the mean); `None` for
/// no spread.
pub fn slope(points: impl Iterator<Item = (f64, f64)>) -> Option<(f64, f64)> {
    let (xs, ys): (Vec<f64>, Vec<f64>) = points.map(|(x, y)| (x.ln(), y.ln())).unzip();
    let n = xs.len() as f64;
    let (mx, my) = (xs.iter().sum::<f64>() / n, ys.iter().sum::<f64>() / n);
    let sxx: f64 = xs.iter().map(|x| (x - mx) * (x - mx)).sum();
    let sxy: f64 = xs.iter().zip(&ys).map(|(x, y)| (x - mx) * (y - my)).sum();
    (sxx > 0.0).then(|| (sxy / sxx, sxx))
}

/// The tables of a case sampled, kept for the dry run to measure the
/// stages after solving on them (rendering, checking, the report): what a
/// run would store of the case, and their bytes as read back
/// ([`Point::read_bytes`]).
#[derive(Clone)]
pub struct Kept {
    /// Their bytes read back, lists weighted.
    pub read_bytes: f64,
    /// The datasets the sweep keeps, as the cases returned them: one
    /// case's, or every case's of the sweep ([`Sampled::whole`]).
    pub outputs: Vec<Arc<Output>>,
}

impl std::fmt::Debug for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Kept({} cases, {} bytes)",
            self.outputs.len(),
            self.read_bytes
        )
    }
}

/// How far past its largest copy a case's own growth is followed
/// ([`Sampled::own_secs`]).
const FAR: f64 = 64.0;

/// Seconds under which a copy is setting up as much as working, whatever
/// it grew from ([`Sampled::copies_work`]).
const SETUP_SECS: f64 = 0.001;
/// How much more than the smallest copy the largest took to be work
/// ([`Sampled::copies_work`]).
const WORK_GROWTH: f64 = 10.0;

/// A copy that took within this factor of the model's seconds says the
/// model counts its work ([`Sampled::copy_growth`]).
const MODEL_AGREES: f64 = 2.0;

/// How far an exponent measured over sizes `span`× apart may be from the
/// true one when each time is off by up to [`TIMING_NOISE`]×.
fn timing_spread(span: f64) -> f64 {
    2.0 * TIMING_NOISE.ln() / span.ln()
}

/// How far one short solve's time may be from another's of the same case
/// (a shared machine, caches, page faults).
const TIMING_NOISE: f64 = 1.25;

/// At most this many bytes of sampled tables are kept ([`Kept`]).
const KEPT_BYTES: f64 = 256.0 * 1048576.0;

/// What sampling a sweep found.
#[derive(Clone, Debug, Default)]
pub struct Sampled {
    /// The cases solved (finished or stopped at the budget).
    pub points: Vec<Point>,
    /// The fit of their time against their size, if any was timed.
    pub fit: Option<Fit>,
    /// Seconds the sampling took (wall).
    pub spent: f64,
    /// The measured time over the model's at the largest case timed
    /// (cases the model gives seconds).
    pub model_ratio: Option<f64>,
    /// Each case's tables in bytes, as the sampled cases' tables grow
    /// (empty when none was measured).
    pub case_bytes: Vec<f64>,
    /// The same read back from their files (the render stage's).
    pub case_read_bytes: Vec<f64>,
    /// The tables of some finished cases, the smallest to the largest
    /// ([`keep_spread`]), for the stages after solving.
    pub kept: Vec<Kept>,
    /// The tables of the sweep's own cases that finished (case index,
    /// tables), while they stay within [`KEPT_BYTES`].
    pub planned: Vec<(usize, Kept)>,
    /// The columns read back after solving, which the bytes read back
    /// count.
    pub reads: StagesRead,
    /// The sizes are the cost model's seconds.
    pub by_model: bool,
    /// Copies of cases the model ranks below the largest (neither those
    /// climbed first nor those solved whole), which tell their tables'
    /// bytes only ([`climb_others`]): small copies of many cases would
    /// lower a fit of time drawn through the sweep's largest.
    pub byte_points: Vec<Point>,
}

impl Sampled {
    /// Records a solved case: its point, and its tables while the kept
    /// ones stay within [`KEPT_BYTES`].
    fn record(&mut self, point: Point, output: Option<Output>, case: Option<usize>) {
        self.points.push(point);
        let Some(output) = output else {
            return;
        };
        let kept = Kept {
            read_bytes: point.read_bytes,
            outputs: vec![Arc::new(output)],
        };
        let held: f64 = self.kept.iter().map(|k| k.read_bytes).sum();
        if point.read_bytes > 0.0 && held + point.read_bytes <= KEPT_BYTES {
            self.kept.push(kept.clone());
        }
        let planned: f64 = self.planned.iter().map(|k| k.1.read_bytes).sum();
        if let Some(i) = case
            && planned + point.read_bytes <= KEPT_BYTES
        {
            self.planned.push((i, kept));
        }
    }

    /// Records what [`solve_within`] measured of the plan's case `case`
    /// (of a copy of it scaled down where `scaled`) of size `size`
    /// declaring `rows` rows: whether it finished.
    fn record_solved(
        &mut self,
        [size, rows]: [f64; 2],
        (case, scaled): (usize, bool),
        (secs, done, output): Solved,
    ) -> bool {
        let [bytes, read_bytes] = output
            .as_ref()
            .map_or([0.0; 2], |o| table_bytes(o, &self.reads));
        let point = Point {
            size,
            secs,
            done,
            bytes,
            read_bytes,
            rows,
            case: Some(case),
            scaled,
        };
        self.record(point, output, (!scaled).then_some(case));
        done
    }

    /// Case `i`'s seconds at its stated size `size` as measured: its own
    /// solve's where it finished here; else, from the largest copy of it
    /// scaled down that finished, growing as its copies grew
    /// ([`Sampled::copy_growth`]), and at least what the case had when it
    /// was stopped at the budget. The copy is at least 1/[`FAR`] of the
    /// size, unless the sizes are the model's seconds and the copies took
    /// long enough to be work ([`Sampled::copies_work`]): then a case grows
    /// faster than the model over [`FAR`]× at most, and as the model
    /// beyond (two heaps with moves from both: a copy to 20 took 2.2 ms,
    /// 88× the model's; the case, to 320, 5.0 s, 56×).
    pub fn own_secs(&self, i: usize, size: f64) -> Option<f64> {
        let solved = |p: &&Point| p.case == Some(i) && !p.scaled && p.done;
        if let Some(p) = self.points.iter().find(solved) {
            return Some(p.secs);
        }
        let p = self.copies(i).max_by(|a, b| a.size.total_cmp(&b.size))?;
        // At least what the case itself had when stopped at the budget.
        let stopped = self
            .points
            .iter()
            .filter(|p| p.case == Some(i) && !p.scaled && !p.done)
            .map(|p| p.secs)
            .fold(0.0, f64::max);
        let b = self.copy_growth(i, p);
        let r = (size / p.size).max(1.0);
        // Faster than the model's seconds, over at most what copies span
        // (64×), and as the model beyond.
        let grown = match self.by_model && self.copies_work(i) {
            true if b > 1.0 => p.secs * r.min(FAR).powf(b) * (r / FAR).max(1.0),
            true => p.secs * r.powf(b),
            false if r <= FAR => p.secs * r.powf(b),
            false => return None,
        };
        Some(grown.max(stopped))
    }

    /// Whether case `i`'s largest copy that finished took long enough to
    /// be its work rather than setting up: [`FLOOR_SECS`], or at least
    /// [`SETUP_SECS`] and [`WORK_GROWTH`]× its smallest copy (copies to 1,
    /// 5 and 20 of two heaps to 320 took 0.03, 0.1 and 2.2 ms).
    fn copies_work(&self, i: usize) -> bool {
        let (least, most) = self.copies(i).fold((f64::MAX, 0.0f64), |(a, b), p| {
            (a.min(p.secs), b.max(p.secs))
        });
        most >= FLOOR_SECS || (most >= SETUP_SECS && most >= WORK_GROWTH * least)
    }

    /// Case `i`'s copies scaled down that finished, of sizes above 0.
    fn copies(&self, i: usize) -> impl Iterator<Item = &Point> {
        self.points
            .iter()
            .filter(move |p| p.case == Some(i) && p.scaled && p.done && p.size > 0.0)
    }

    /// Whether the plan's case `i` itself was solved here (`finished`:
    /// to its end), not a copy of it.
    fn tried_whole(&self, i: usize, finished: bool) -> bool {
        self.points
            .iter()
            .any(|p| p.case == Some(i) && !p.scaled && (p.done || !finished))
    }

    /// The copies of other cases that measured their tables: finished,
    /// with tables of [`FLOOR_BYTES`] at least ([`Sampled::byte_points`]).
    pub fn byte_copies(&self) -> usize {
        self.byte_points
            .iter()
            .filter(|p| p.done && p.bytes >= FLOOR_BYTES)
            .count()
    }

    /// The largest size case `i` or a copy of it was measured at.
    fn measured(&self, i: usize) -> f64 {
        self.points
            .iter()
            .filter(|p| p.case == Some(i))
            .map(|p| p.size)
            .fold(0.0, f64::max)
    }

    /// The exponent case `i` grows with beyond its largest copy `top`:
    /// as its two largest copies grew ([`Sampled::copies_growth`]), else
    /// as the fit says (as the size without a fit, or where the sizes are
    /// the model's seconds: the fit pools other cases). Where the sizes are
    /// the model's seconds and `top` took within [`MODEL_AGREES`]× of
    /// them, as the model, unless the copies grew faster than their timing
    /// can be told from it ([`timing_spread`]): the model's kernel rates
    /// are measured on its own kernels, and copies that slow less than the
    /// model counts pay a setup a larger case does not (0.74 to 300,000,
    /// naive: copies at 1/64 and 1/16 of its heaps took 1.6× and 0.89× the
    /// model, growing as the model^0.79; the whole case 1.01×, 71.6 s,
    /// where ^0.79 said 20 s).
    fn copy_growth(&self, i: usize, top: &Point) -> f64 {
        let grown = self.copies_growth(i);
        let b = grown.map(|g| g.0).unwrap_or_else(|| match self.fit {
            Some(f) if !self.by_model => f.b,
            _ => 1.0,
        });
        let ratio = top.secs / top.size;
        let agrees = (1.0 / MODEL_AGREES..=MODEL_AGREES).contains(&ratio);
        let spread = grown.map_or(0.0, |g| timing_spread(g.1));
        if self.by_model && agrees && b <= 1.0 + spread {
            1.0
        } else {
            b
        }
    }

    /// How case `i` grew between its two largest copies scaled down that
    /// finished, where they span 2× and the smaller took long enough to
    /// time (within the exponents their span may tell, as [`fit`]'s), and
    /// their span.
    fn copies_growth(&self, i: usize) -> Option<(f64, f64)> {
        let mut copies: Vec<&Point> = self.copies(i).collect();
        copies.sort_by(|a, b| a.size.total_cmp(&b.size));
        let [.., a, z] = copies[..] else {
            return None;
        };
        let span = z.size / a.size;
        (span >= 2.0 && a.secs >= FLOOR_SECS).then(|| {
            let (lo, hi) = growth_bounds(span);
            (((z.secs / a.secs).ln() / span.ln()).clamp(lo, hi), span)
        })
    }

    /// Case `i`'s tables in bytes for the `rows` it declares, as measured
    /// (read back where `read_back`): its own solve's where it finished
    /// here; else from its largest copy scaled down, growing with the rows
    /// as its two largest copies grew where their rows span 2×
    /// ([`fit_bytes`]'s bounds), else as `pooled` says; `None` without a
    /// copy of [`FLOOR_BYTES`]. Against the stated size (`rows` then
    /// one) where not `by_rows`.
    pub fn own_bytes(
        &self,
        i: usize,
        rows: f64,
        (read_back, by_rows): (bool, bool),
        pooled: Option<Fit>,
    ) -> Option<f64> {
        let bytes = |p: &Point| if read_back { p.read_bytes } else { p.bytes };
        let x = |p: &Point| if by_rows { p.rows } else { p.size };
        let mine = |scaled: bool| {
            self.points
                .iter()
                .chain(&self.byte_points)
                .filter(move |p| p.case == Some(i) && p.scaled == scaled && p.done)
        };
        if let Some(p) = mine(false).next() {
            return Some(bytes(p));
        }
        let mut copies: Vec<&Point> = mine(true)
            .filter(|p| x(p) > 0.0 && bytes(p) >= FLOOR_BYTES)
            .collect();
        copies.sort_by(|a, b| x(a).total_cmp(&x(b)));
        let top = copies.last()?;
        let b = match copies[..] {
            [.., a, z] if x(z) >= 2.0 * x(a) => {
                ((bytes(z) / bytes(a)).ln() / (x(z) / x(a)).ln()).clamp(0.5, 2.5)
            }
            _ => pooled.map_or(1.0, |f| f.b),
        };
        Some(bytes(top) * (rows / x(top)).max(1.0).powf(b))
    }

    /// Every case of a plan of `cases` cases, when each finished within
    /// [`KEPT_BYTES`]: the whole sweep's tables, in the cases' order.
    pub fn whole(&self, cases: usize) -> Option<Kept> {
        let mut all: Vec<&(usize, Kept)> = self.planned.iter().collect();
        all.sort_by_key(|k| k.0);
        all.dedup_by_key(|k| k.0);
        let read_bytes: f64 = all.iter().map(|k| k.1.read_bytes).sum();
        (all.len() == cases && cases > 0 && read_bytes <= KEPT_BYTES).then(|| Kept {
            read_bytes,
            outputs: all.iter().flat_map(|k| k.1.outputs.clone()).collect(),
        })
    }
}

/// Keeps at most [`KEPT`] of `kept`, spread over their bytes: the
/// smallest, the largest and those nearest the sizes evenly spaced between
/// on a log scale, the spread the stages' growth is measured over.
fn keep_spread(mut kept: Vec<Kept>) -> Vec<Kept> {
    kept.sort_by(|a, b| a.read_bytes.total_cmp(&b.read_bytes));
    kept.dedup_by(|a, b| a.read_bytes == b.read_bytes);
    if kept.len() <= KEPT {
        return kept;
    }
    let ln: Vec<f64> = kept.iter().map(|k| k.read_bytes.max(1.0).ln()).collect();
    let (lo, hi) = (ln[0], ln[ln.len() - 1]);
    let mut chosen: Vec<usize> = (0..KEPT)
        .map(|k| {
            let target = lo + (hi - lo) * k as f64 / (KEPT - 1) as f64;
            (0..ln.len())
                .min_by(|&a, &b| (ln[a] - target).abs().total_cmp(&(ln[b] - target).abs()))
                .unwrap_or(0)
        })
        .collect();
    chosen.dedup();
    kept.into_iter()
        .enumerate()
        .filter(|(i, _)| chosen.contains(i))
        .map(|(_, k)| k)
        .collect()
}

/// The most sampled cases' tables kept.
const KEPT: usize = 5;

/// Solves cases of `plan` (sizes `sizes`, 0 for none to sample; the
/// model's seconds when `seconds`; the rows they declare `rows`) within
/// `budget` wall seconds: copies of the largest scaled down
/// ([`climb_largest`]), the cases themselves the smallest first, then each
/// time the largest the fit so far says takes at most a third of what is
/// left ([`solve_whole`]), then copies of other cases for their tables
/// ([`climb_others`]); returns what was measured. `shared` is the shared
/// work's modelled seconds: a sweep with shared work is not sampled.
pub fn sample(
    plan: &Arc<Plan>,
    (keep, reads): (Option<&[String]>, &StagesRead),
    (sizes, rows, seconds): (&[f64], &[f64], bool),
    size_of: &dyn Fn(&dyn Case) -> f64,
    (shared, budget): (f64, f64),
) -> Sampled {
    let started = Instant::now();
    let mut out = Sampled {
        reads: reads.clone(),
        by_model: seconds,
        ..Sampled::default()
    };
    // Cases sharing work (a table built once for the sweep) are not
    // solved here: the first would build the shared work, which no
    // budget stops and every later case waits for.
    if shared > 0.0
        || plan
            .cases
            .iter()
            .any(|c| !c.cost(keep).shared_work.is_empty())
    {
        out.spent = started.elapsed().as_secs_f64();
        return out;
    }
    let mut order: Vec<usize> = (0..plan.cases.len()).filter(|&i| sizes[i] > 0.0).collect();
    order.sort_by(|&a, &b| sizes[a].total_cmp(&sizes[b]));
    let left = |t: &Instant| budget - t.elapsed().as_secs_f64();
    // Sizes in the model's seconds: a case is started only when three
    // times its modelled seconds fit in what is left, as not every solver
    // notices the budget's flag at once. The largest case scaled down first, when its family can: growth on
    // its own solver path, and a fit that says which of the sweep's own
    // cases the budget affords.
    let group = climb_largest(
        &mut out,
        (plan, &order, sizes),
        keep,
        size_of,
        (&started, budget),
    );
    solve_whole(
        &mut out,
        (plan, &order, [sizes, rows]),
        keep,
        &group,
        (&started, budget),
    );
    // Half of what is left: the rest measures the stages after solving.
    let room = left(&started).max(0.0) / 2.0;
    climb_others(
        &mut out,
        (plan, &order, &group),
        keep,
        size_of,
        (&Instant::now(), room),
    );
    fit_all(&mut out, (&group, sizes));
    out.kept = keep_spread(std::mem::take(&mut out.kept));
    out.spent = started.elapsed().as_secs_f64();
    out
}

/// The sweep's own cases solved whole within `budget` (its `started`
/// clock), those of `order` (ascending sizes `sizes`, declared rows `rows`)
/// within [`MEMORY_CAP`]: the smallest first, then each time the largest
/// the fit so far (or the `group`'s copies, [`whole_cases_fit`]) says takes
/// at most a third of what is left; then the cases left, the smallest
/// first, while each takes at most a third of what is left.
fn solve_whole(
    out: &mut Sampled,
    (plan, order, [sizes, rows]): (&Arc<Plan>, &[usize], [&[f64]; 2]),
    keep: Option<&[String]>,
    group: &[usize],
    (started, budget): (&Instant, f64),
) {
    let seconds = out.by_model;
    let left = |t: &Instant| budget - t.elapsed().as_secs_f64();
    let order: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&i| plan.cases[i].cost(keep).memory_bound <= MEMORY_CAP)
        .collect();
    // Before any case is timed, the cases measured on copies say.
    let own = whole_cases_fit(out, (group, sizes));
    let affordable = |pts: &[Point], s: f64| match fit_or_bound(pts, seconds).or(own) {
        Some(f) => 3.0 * f.secs(s) <= left(started),
        None => !seconds || 3.0 * s <= budget,
    };
    let mut next = order
        .first()
        .copied()
        .filter(|&i| affordable(&out.points, sizes[i]));
    while let Some(i) = next {
        match solve_planned(out, (plan, i, [sizes[i], rows[i]]), keep, left(started)) {
            // A case that cannot be solved here (an estimating plan's
            // stand-in): try the next larger.
            None => {
                next = order
                    .iter()
                    .copied()
                    .find(|&j| sizes[j] > sizes[i])
                    .filter(|&j| affordable(&out.points, sizes[j]));
            }
            Some(false) => break,
            Some(true) => {
                let room = left(started) / 3.0;
                let f = fit_or_bound(&out.points, seconds).or(own);
                next = next_larger(&order, sizes, (i, f), (room, seconds));
            }
        }
    }
    // The cases left, the smallest first, while the fit says each takes at
    // most a third of what is left: a small sweep is solved whole, and its
    // stages measured on what the run will write.
    for &i in &order {
        if out.tried_whole(i, false) {
            continue;
        }
        if !affordable(&out.points, sizes[i])
            || solve_planned(out, (plan, i, [sizes[i], rows[i]]), keep, left(started)) != Some(true)
        {
            break;
        }
    }
}

/// The largest case of `order` (sizes `sizes`) climbed on copies of it as
/// far as the budget goes, then the cases tied with it ([`tied`]) in turn;
/// returns them, the largest first (none without a case to sample).
fn climb_largest(
    out: &mut Sampled,
    (plan, order, sizes): (&Plan, &[usize], &[f64]),
    keep: Option<&[String]>,
    size_of: &dyn Fn(&dyn Case) -> f64,
    clock: (&Instant, f64),
) -> Vec<usize> {
    let Some(&top) = order.last() else {
        return Vec::new();
    };
    let group = tied(order, sizes, top);
    if climb_scaled(out, (plan, &group[..1], &FACTORS), keep, size_of, clock) {
        climb_scaled(out, (plan, &group[1..], &FACTORS), keep, size_of, clock);
    }
    group
}

/// Within `clock`'s budget, copies of the cases neither solved whole nor in
/// the `group` climbed first ([`climb_largest`]), the largest first, at
/// most [`OTHERS_MAX`], for their tables' bytes ([`Sampled::byte_points`]):
/// cases the model ranks below the largest can hold
/// far larger tables (a splitting rule `t <= k` to 8,000: 8.1 million
/// winning moves with `k = 1`, 0.76 million with `k = 3`, the largest by
/// the model; measured on `k = 3` alone, the dry run said 63 MiB where the
/// run peaked at 456 MB).
fn climb_others(
    out: &mut Sampled,
    (plan, order, group): (&Plan, &[usize], &[usize]),
    keep: Option<&[String]>,
    size_of: &dyn Fn(&dyn Case) -> f64,
    clock: (&Instant, f64),
) {
    if clock.1 < 2.0 * FLOOR_SECS {
        return;
    }
    let others: Vec<usize> = order
        .iter()
        .rev()
        .copied()
        .filter(|&i| !group.contains(&i) && !out.tried_whole(i, true))
        .take(OTHERS_MAX)
        .collect();
    // A case's first copy guessed by the fit so far of the sweep's own
    // cases and copies.
    let mut side = Sampled {
        reads: out.reads.clone(),
        by_model: out.by_model,
        fit: fit_or_bound(&out.points, out.by_model),
        ..Sampled::default()
    };
    // Copies of 1/16 and 1/4 of their sizes: smaller ones hold too few
    // bytes to tell their growth ([`FLOOR_BYTES`]).
    let factors = [1.0 / 16.0, 0.25];
    climb_scaled(&mut side, (plan, &others, &factors), keep, size_of, clock);
    out.byte_points = side.points;
}

/// At most this many cases beyond the largest and those tied with it are
/// measured on their own copies ([`climb_others`]).
const OTHERS_MAX: usize = 6;

/// The sweep's fit once sampling is done: over every point (the model's
/// ratio read there, at the largest case timed), then over whole cases and
/// the `group`'s own estimates where they make one ([`whole_cases_fit`]),
/// raised to the mean of the cases solved ([`on_the_mean`]).
fn fit_all(out: &mut Sampled, (group, sizes): (&[usize], &[f64])) {
    out.fit = fit_or_bound(&out.points, out.by_model);
    out.model_ratio = out.fit.map(|f| f.m0 / f.s0);
    out.fit = whole_cases_fit(out, (group, sizes)).or(out.fit);
    out.fit = out.fit.map(|f| on_the_mean(f, &out.points));
}

/// `f` raised to the mean of the sweep's own cases solved, where at
/// least [`MEAN_FROM`] finished: what they took beyond what `f` says of
/// them, on the mean, is added to every case (where it is more than 0).
/// A fit through the typical case says less than the sum of cases whose
/// cost has a long tail or a part every case pays: 318 take-away cases
/// of one rule, 22 of them proven only by extending the horizon 4× to
/// 167×, took 13.3 s of CPU where the fit said 1.8 s; 800 parity cases of
/// a few ms each, 3.7–5.1 s where the fit said 1.5 s. Added, not
/// multiplied: 64 octal codes, most proven in a ms where the fit said a
/// hundredth of it, would have raised the largest 4× (13 s for 3.6 s).
fn on_the_mean(f: Fit, points: &[Point]) -> Fit {
    let solved: Vec<&Point> = points
        .iter()
        .filter(|p| p.done && !p.scaled && p.size > 0.0)
        .collect();
    if solved.len() < MEAN_FROM {
        return f;
    }
    let beyond: f64 = solved.iter().map(|p| p.secs - f.secs(p.size)).sum();
    Fit {
        add: f.add + (beyond / solved.len() as f64).max(0.0),
        ..f
    }
}

/// Cases solved whole from which their mean raises the fit
/// ([`on_the_mean`]).
const MEAN_FROM: usize = 8;

/// The fit over whole cases, where cases of `group` (the sweep's largest
/// and those tied with it, of sizes `sizes`) were measured on copies of
/// their own: the cases solved (those stopped at the budget raising it, as
/// in [`fit`]) and each of `group` not solved as its copies say
/// ([`Sampled::own_secs`]). A case counts whose copies tell its growth
/// ([`Sampled::copies_growth`]), or, where the sizes are the model's
/// seconds, whose copies took long enough to be work
/// ([`Sampled::copies_work`]); where they are not the model's seconds,
/// some other case must have been solved whole and timed. The
/// copies tell how one case grows with its own size; cases that differ in
/// their rule can grow otherwise with the model's (two-heap take-away
/// under `no_repeat`: `max: 1` to `max: 30` on the same heaps took 0.25 to
/// 1.0 s, the model 30×).
fn whole_cases_fit(out: &Sampled, (group, sizes): (&[usize], &[f64])) -> Option<Fit> {
    let own: Vec<Point> = group
        .iter()
        .filter(|&&i| {
            let told = out.by_model && out.copies_work(i);
            !out.tried_whole(i, false) && (told || out.copies_growth(i).is_some())
        })
        .filter_map(|&i| {
            Some(Point {
                size: sizes[i],
                secs: out.own_secs(i, sizes[i])?,
                done: true,
                case: Some(i),
                ..Point::default()
            })
        })
        .collect();
    if own.is_empty() {
        return None;
    }
    let mut whole: Vec<Point> = out.points.iter().filter(|p| !p.scaled).copied().collect();
    if !out.by_model && !whole.iter().any(|p| p.done && p.secs >= FLOOR_SECS) {
        return None;
    }
    whole.extend(own);
    fit(&whole)
}

/// Solves the plan's case `i` (of size and declared rows `size`) within
/// `left` seconds and records it in `out`: whether it finished, `None`
/// when it could not be solved here or no time is left.
fn solve_planned(
    out: &mut Sampled,
    (plan, i, size): (&Arc<Plan>, usize, [f64; 2]),
    keep: Option<&[String]>,
    left: f64,
) -> Option<bool> {
    // Too little left to time a case.
    if left < 2.0 * FLOOR_SECS {
        return None;
    }
    let solved = solve_within(Target::Planned(Arc::clone(plan), i), keep, left)?;
    Some(out.record_solved(size, (i, false), solved))
}

/// After case `i` finished, the largest case of `order` at least twice
/// its size (at most four times without a `fit` yet) that the fit says
/// takes at most `room` seconds (its size too, where `seconds` says sizes
/// are the model's seconds).
fn next_larger(
    order: &[usize],
    sizes: &[f64],
    (i, f): (usize, Option<Fit>),
    (room, seconds): (f64, bool),
) -> Option<usize> {
    order.iter().rev().copied().find(|&j| {
        let guess = f.map_or(0.0, |f| f.secs(sizes[j]));
        sizes[j] >= 2.0 * sizes[i]
            && (f.is_some() || sizes[j] <= 4.0 * sizes[i])
            && guess <= room
            && (!seconds || sizes[j] <= room)
    })
}

/// The sweep's largest case `top` and the cases of `order` whose sizes
/// are within [`TIED`] of its, the largest first, at most [`TIED_MAX`]:
/// cases the model puts alike can differ most in what they take (four
/// octal codes to the same heap, one naive for 71.6 s, another proven in
/// 10 ms), and each is measured on its own copies.
fn tied(order: &[usize], sizes: &[f64], top: usize) -> Vec<usize> {
    let mut group = vec![top];
    group.extend(
        order
            .iter()
            .rev()
            .copied()
            .filter(|&j| j != top && sizes[j] >= TIED * sizes[top])
            .take(TIED_MAX - 1),
    );
    group
}

/// Cases within this share of the largest's size are measured on their
/// own copies ([`tied`]).
const TIED: f64 = 0.5;
/// At most this many cases are measured on their own copies.
const TIED_MAX: usize = 4;

/// Solves scaled-down versions of the `cases` (the sweep's largest, or
/// those tied with it, [`tied`]; others for their tables,
/// [`climb_others`]) at `factors` of their sizes ([`FACTORS`]), each
/// factor for every case before the next, each copy larger than what was
/// measured of its case and when its copies so far say it takes at most a
/// third of what is left: growth measured on the cases' own solver paths.
/// Where the copy at 1/4 (a factor given) is beyond that, one at 1/8 is
/// tried (a history rule to 1,500 growing as n³, read from its copy to
/// 94, was 2.1× over; from its copy to 188, 0.6–0.7×; climbing 1/8 before
/// 1/4 always left parity's `k: 100..400` to 40,000 without its 1/4 copy:
/// 2 s for 14 s). The first copy stopped ([`Climb::Stopped`]: at the
/// budget, too little left, not solvable here) ends the climb (returns
/// false).
fn climb_scaled(
    out: &mut Sampled,
    (plan, cases, factors): (&Plan, &[usize], &[f64]),
    keep: Option<&[String]>,
    size_of: &dyn Fn(&dyn Case) -> f64,
    (started, budget): (&Instant, f64),
) -> bool {
    let mut climbing: Vec<usize> = cases
        .iter()
        .copied()
        .filter(|&i| size_of(plan.cases[i].as_ref()) > 2.0 * out.measured(i))
        .collect();
    for &factor in factors {
        let mut next = Vec::with_capacity(climbing.len());
        let left = || budget - started.elapsed().as_secs_f64();
        for &i in &climbing {
            let Some(case) = plan.cases[i].scaled(factor) else {
                continue;
            };
            let mut climb = climb_one(out, (i, case), keep, size_of, left());
            if factor == 0.25
                && matches!(climb, Climb::Skipped)
                && let Some(nearer) = plan.cases[i].scaled(0.125)
            {
                climb = climb_one(out, (i, nearer), keep, size_of, left());
            }
            match climb {
                Climb::Stopped => return false,
                Climb::Solved | Climb::Skipped => next.push(i),
            }
        }
        climbing = next;
    }
    true
}

/// The sizes of the copies of a case climbed, as shares of its own.
const FACTORS: [f64; 4] = [1.0 / 256.0, 1.0 / 64.0, 1.0 / 16.0, 0.25];

/// What [`climb_one`] did with a copy.
enum Climb {
    /// Solved to its end.
    Solved,
    /// Too large for what is left or for memory, or too small to tell
    /// more.
    Skipped,
    /// Stopped at the budget, too little left to time it, or it could not
    /// be solved here.
    Stopped,
}

/// Solves `case`, a copy of the plan's case `i`, within `left` seconds
/// where it is larger than what was measured of `i`, within
/// [`MEMORY_CAP`], and takes at most a third of `left` as `i`'s copies so
/// far say ([`Sampled::own_secs`]; else `out`'s fit where it has one, the
/// sweep's for the copies of [`climb_others`], else the fit of every
/// point).
fn climb_one(
    out: &mut Sampled,
    (i, case): (usize, Box<dyn Case>),
    keep: Option<&[String]>,
    size_of: &dyn Fn(&dyn Case) -> f64,
    left: f64,
) -> Climb {
    let cost = case.cost(keep);
    let size = size_of(case.as_ref());
    let measured = out.measured(i);
    let guess = out
        .own_secs(i, size)
        .or_else(|| out.fit.or_else(|| fit(&out.points)).map(|f| f.secs(size)))
        .unwrap_or(0.0);
    if cost.memory_bound > MEMORY_CAP || size <= 1.5 * measured || guess > left / 3.0 {
        return Climb::Skipped;
    }
    if left < 2.0 * FLOOR_SECS {
        return Climb::Stopped;
    }
    let rows = declared_rows(&cost, keep);
    let Some(solved) = solve_within(Target::Scaled(case), keep, left) else {
        return Climb::Stopped;
    };
    if out.record_solved([size, rows], (i, true), solved) {
        Climb::Solved
    } else {
        Climb::Stopped
    }
}

/// A case to sample: one of the plan's, or one scaled down
/// ([`crate::family::Case::scaled`]).
enum Target {
    Planned(Arc<Plan>, usize),
    Scaled(Box<dyn Case>),
}

/// What [`solve_within`] measured: CPU seconds (of its thread where it
/// finished, of the process where it was stopped), whether the case
/// finished, and its tables (those the sweep keeps) when it finished.
type Solved = (f64, bool, Option<Output>);

/// Solves `case` (nothing written) on a thread of its own, given `limit`
/// wall seconds (`None` when it failed). Past the limit its cancel flag is
/// set and it is left behind: not every solver polls the flag, and the dry
/// run must answer within its budget (the process ends soon after; a run
/// never samples).
fn solve_within(target: Target, keep: Option<&[String]>, limit: f64) -> Option<Solved> {
    let keep: Option<Vec<String>> = keep.map(<[String]>::to_vec);
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&cancel);
    let (tx, rx) = mpsc::channel::<(f64, Option<Output>)>();
    let cpu = crate::mem::process_cpu();
    let pool = one_thread_pool(false)?;
    std::thread::spawn(move || {
        let ctx = CaseCtx {
            progress: &|_| {},
            cancel: &flag,
            keep: keep.as_deref(),
        };
        let (secs, out) = pool.install(|| {
            let start = crate::mem::thread_cpu();
            let out = match &target {
                Target::Planned(plan, i) => plan.cases[*i].solve(&ctx),
                Target::Scaled(case) => case.solve(&ctx),
            };
            (crate::mem::thread_cpu() - start, out)
        });
        let kept = |name: &str| ctx.keep.is_none_or(|k| k.iter().any(|x| x == name));
        let out = out
            .ok()
            .map(|o| o.into_iter().filter(|(ds, _)| kept(ds.name)).collect());
        let _ = tx.send((secs, out));
    });
    match rx.recv_timeout(Duration::from_secs_f64(limit.max(0.0))) {
        Ok((secs, Some(out))) => Some((secs, true, Some(out))),
        Ok((_, None)) => None,
        Err(_) => {
            cancel.store(true, Ordering::Relaxed);
            // The next case on a pool of its own: this one may go on.
            one_thread_pool(true);
            Some((crate::mem::process_cpu() - cpu, false, None))
        }
    }
}

/// The pool of one thread the sampled cases are solved on (`fresh`: a new
/// one, the last left to a case stopped at the budget). A case is timed in
/// its thread's CPU time on one thread: in the process's CPU time, a
/// solver that spreads its work over the threads counted the idle
/// threads' waiting too (one copy of a 34-piece board took 18 ms in one
/// dry run, 56–75 ms in four others).
fn one_thread_pool(fresh: bool) -> Option<Arc<rayon::ThreadPool>> {
    static POOL: std::sync::Mutex<Option<Arc<rayon::ThreadPool>>> = std::sync::Mutex::new(None);
    let mut p = POOL.lock().ok()?;
    if fresh || p.is_none() {
        *p = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .ok()
            .map(Arc::new);
    }
    p.clone()
}

/// The bytes of a case's tables, and as read back from their files by the
/// stages after solving (the columns they read, `reads`; lists weighted
/// [`LIST_WEIGHT`]).
fn table_bytes(out: &Output, reads: &StagesRead) -> [f64; 2] {
    out.iter().fold([0.0, 0.0], |[b, r], (ds, t)| {
        let forms = has_forms(ds, t);
        let read: f64 = t
            .columns()
            .iter()
            .filter(|(name, v)| reads.reads((ds, forms), name, v.is_list()))
            .map(|(_, v)| {
                let w = if v.is_list() { LIST_WEIGHT } else { 1.0 };
                v.read_back_bytes() as f64 * w
            })
            .sum();
        [b + t.bytes() as f64, r + read]
    })
}

/// The columns the stages after solving read of a sweep's tables: of the
/// datasets its views drawn read, those views' columns of lists and the
/// other columns; of the datasets its claims read, every column where its
/// family does not say which its checks read, else the columns of lists
/// they explain with, that a claim names, or that are not results, and the
/// others; of a dataset of the report's simple
/// forms (a closed form, or a plane of outcomes: [`Dataset::plane`] of the
/// table itself), the columns that are not lists. The others stay unread: a
/// scatter of a two-heap sweep's P-positions reads no list of winning
/// moves, often most of its bytes, and a dataset no stage reads is not read
/// back at all (a rule's positions with one heap, 39 rules to 20,000: 121
/// MiB counted as read back and 148 MiB held, where the run peaked at 53
/// MB).
#[derive(Clone, Debug, Default)]
pub struct StagesRead {
    /// (dataset, column) named by a view drawn.
    named: Vec<(&'static str, &'static str)>,
    /// The datasets claims read.
    claimed: Vec<String>,
    /// The names those claims read; `None` where one does not parse
    /// (then every list of their datasets).
    claim_names: Option<Vec<String>>,
    /// The checks' columns of each dataset; `None`: every column.
    explained: Option<fn(&str) -> &'static [&'static str]>,
}

impl StagesRead {
    /// What the stages read of `sweep`'s tables, with the claims of `exp`.
    pub fn of(sweep: &Sweep, exp: &Experiment) -> StagesRead {
        let claims: Vec<_> = exp
            .conjectures
            .iter()
            .filter(|c| c.sweep == sweep.name)
            .collect();
        let drawn = |v: &View| {
            sweep
                .outputs
                .as_ref()
                .is_none_or(|o| o.iter().any(|x| x == v.name))
        };
        StagesRead {
            named: sweep
                .views
                .iter()
                .filter(|v| drawn(v))
                .flat_map(|v| v.kind.columns().into_iter().map(|c| (v.dataset, c)))
                .collect(),
            claimed: claims.iter().map(|c| c.dataset.clone()).collect(),
            claim_names: claims
                .iter()
                .map(|c| c.names_read())
                .collect::<Option<Vec<_>>>()
                .map(|v| v.into_iter().flatten().collect()),
            explained: sweep.family.capabilities().explained_columns,
        }
    }

    /// Do the stages read the column `column` (a column of lists where
    /// `list`) of a table of `ds` (to which the report fits simple forms
    /// where `forms`, [`has_forms`])?
    pub fn reads(&self, (ds, forms): (&Dataset, bool), column: &str, list: bool) -> bool {
        let viewed = self.named.iter().any(|&(d, _)| d == ds.name);
        let claimed = self.claimed.iter().any(|d| d == ds.name);
        if !list {
            return viewed || claimed || forms;
        }
        let named = self.named.iter().any(|&(d, c)| d == ds.name && c == column);
        let checked = self.explained.is_none_or(|f| f(ds.name).contains(&column))
            || self
                .claim_names
                .as_ref()
                .is_none_or(|n| n.iter().any(|w| w == column))
            || ds.column(column).is_some_and(|c| c.role != Role::Result);
        named || (claimed && checked)
    }
}

/// Can the report fit simple forms to the table `t` of `ds`: a closed
/// form's column, or outcomes over a plane ([`Dataset::plane`])?
fn has_forms(ds: &Dataset, t: &Table) -> bool {
    !ds.with_role(Role::ClosedForm).is_empty() || ds.plane(t).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Values;

    /// A two-heap octal sweep drawing the scatter of its P-positions, a
    /// claim about them: the stages read its positions' coordinates and
    /// outcomes, not their lists of winning splits (the scatter does not
    /// name them, and an octal check explains with values and outcomes).
    /// Without the scatter and the claim the report still fits the plane's
    /// simple forms: the coordinates, no list; on rows of one heap it
    /// fits none and reads nothing.
    #[test]
    fn the_stages_read_what_they_name() {
        let dir = tempfile::tempdir().unwrap();
        let spec = dir.path().join("two.yaml");
        let text = "experiment: two\nsweeps:\n  - name: s\n    family: octal\n    code: [\"0.77\"]\n    heaps: 2\n    N: 0..20\n    datasets: [positions]\n    outputs: [OUT]\nconjectures:\n  - name: c\n    sweep: s\n    dataset: positions\n    claim: 'outcome == \"P\"'\n";
        let positions = &crate::family::octal::datasets::POSITIONS;
        let heaps = |n: [Option<i64>; 3]| {
            let mut t = Table::new();
            for (c, v) in ["N1", "N2", "N3"].into_iter().zip(n) {
                t.push(c, Values::OptInt(vec![v, v]));
            }
            t
        };
        let two_heaps = heaps([Some(3), Some(5), None]);
        let one_heap = heaps([Some(3), None, None]);
        for (outputs, claimed) in [("loss_scatter", true), ("", false)] {
            let mut t = text.replace("OUT", outputs);
            if !claimed {
                t.truncate(t.find("conjectures").unwrap());
            }
            std::fs::write(&spec, t).unwrap();
            let e = crate::spec::load_specs(std::slice::from_ref(&spec)).unwrap();
            let reads = StagesRead::of(&e[0].sweeps[0], &e[0]);
            let pos = (positions, has_forms(positions, &two_heaps));
            assert!(reads.reads(pos, "N1", false), "{outputs}");
            assert!(reads.reads(pos, "outcome", false), "{outputs}");
            assert!(!reads.reads(pos, "winning_splits", true), "{outputs}");
            // Rows of one heap are no plane: nothing to fit, nothing read
            // unless a view or a claim reads it.
            assert_eq!(
                reads.reads(
                    (positions, has_forms(positions, &one_heap)),
                    "outcome",
                    false
                ),
                claimed,
                "{outputs}"
            );
        }
        // A claim that names the list reads it.
        let t = text
            .replace("OUT", "loss_scatter")
            .replace("outcome == \"P\"", "len(winning_splits) >= 0");
        std::fs::write(&spec, t).unwrap();
        let e = crate::spec::load_specs(std::slice::from_ref(&spec)).unwrap();
        let reads = StagesRead::of(&e[0].sweeps[0], &e[0]);
        assert!(reads.reads((positions, true), "winning_splits", true));
        // One heap: the table of winning moves reads them; with no view
        // and no claim nothing reads the values (no plane, no closed form).
        let values = &crate::family::octal::datasets::NIM_VALUES;
        for (outputs, read) in [("winning_table", true), ("", false)] {
            let t = text
                .replace("OUT", outputs)
                .replace("    heaps: 2\n", "")
                .replace("[positions]", "[nim_values]");
            std::fs::write(&spec, &t[..t.find("conjectures").unwrap()]).unwrap();
            let e = crate::spec::load_specs(std::slice::from_ref(&spec)).unwrap();
            let reads = StagesRead::of(&e[0].sweeps[0], &e[0]);
            let values = (values, has_forms(values, &one_heap));
            assert_eq!(
                reads.reads(values, "winning_splits", true),
                read,
                "{outputs}"
            );
            assert_eq!(reads.reads(values, "grundy", false), read, "{outputs}");
        }
    }

    /// A finished copy of case `case` scaled down.
    fn copy(case: usize, size: f64, secs: f64) -> Point {
        Point {
            case: Some(case),
            scaled: true,
            ..p(size, secs)
        }
    }

    fn p(size: f64, secs: f64) -> Point {
        Point {
            size,
            secs,
            done: true,
            bytes: 0.0,
            read_bytes: 0.0,
            rows: size,
            case: None,
            scaled: false,
        }
    }

    /// Times growing as the square of the size give exponent 2, kept at
    /// the cap; times proportional give 1; the fit passes through the
    /// largest point.
    #[test]
    fn the_fit_follows_the_growth_within_its_bounds() {
        let lin = fit(&[p(1.0, 0.1), p(4.0, 0.4), p(16.0, 1.6)]).unwrap();
        assert!((lin.b - 1.0).abs() < 1e-9);
        assert!((lin.secs(64.0) - 6.4).abs() < 1e-9);
        let quad = fit(&[p(1.0, 0.1), p(4.0, 1.6)]).unwrap();
        assert_eq!(quad.b, EXPONENT.1);
        assert!((quad.secs(4.0) - 1.6).abs() < 1e-12);
        // Points under the floor are not timed; one point: proportional,
        // if it is long enough to be the work's and not its setup's.
        let one = fit(&[p(1.0, 1e-3), p(10.0, 0.2)]).unwrap();
        assert_eq!(one.b, 1.0);
        assert!((one.secs(20.0) - 0.4).abs() < 1e-12);
        assert_eq!(fit(&[p(10.0, 0.03)]), None);
        assert_eq!(fit(&[p(1.0, 1e-5)]), None);
        // A point stopped at the budget is a lower bound that raises the
        // fit where it took longer than the fit says.
        let stopped = Point {
            size: 16.0,
            secs: 3.2,
            done: false,
            bytes: 0.0,
            read_bytes: 0.0,
            rows: 16.0,
            case: None,
            scaled: false,
        };
        let raised = fit(&[p(1.0, 0.1), p(4.0, 0.4), stopped]).unwrap();
        assert!((raised.secs(16.0) - 3.2).abs() < 1e-9);
        assert!((raised.secs(4.0) - 0.8).abs() < 1e-9);
        // Not one no longer than a finished case at least its size took
        // (a small case sets up as much as it works: the fit through the
        // largest is below it).
        let seen = Point {
            size: 0.5,
            secs: 0.09,
            ..stopped
        };
        assert_eq!(
            fit(&[p(1.0, 0.1), p(4.0, 0.4), seen]),
            fit(&[p(1.0, 0.1), p(4.0, 0.4)])
        );
        // A fit on a stopped case alone (or beside cases too short to
        // time that the model gave under [`BOUND_FROM`]) is a lower bound; beside a finished case timed, it is not.
        assert!(fit_is_lower_bound(&[stopped], true));
        assert!(fit_is_lower_bound(&[p(0.01, 1e-3), stopped], true));
        // A case the model gave 1 s, done in 1 ms, bounds the model.
        assert!(!fit_is_lower_bound(&[p(1.0, 1e-3), stopped], true));
        assert!(!fit_is_lower_bound(&[p(4.0, 0.4), stopped], true));
    }

    /// Two small cases taking the same 0.3 ms for sizes 16× apart say what
    /// any case pays to set up: growth is measured beyond it, 1.5 ms then
    /// 78 ms for 16× the size (exponent ln 52 / ln 16), not from the one
    /// case over [`FLOOR_SECS`] (proportional). Cases whose times grow
    /// from the smallest keep their whole times.
    #[test]
    fn growth_is_measured_beyond_what_every_case_pays() {
        let pts = [
            p(1.0, 3e-4),
            p(16.0, 3e-4),
            p(256.0, 1.8e-3),
            p(4096.0, 7.83e-2),
        ];
        let f = fit(&pts).unwrap();
        assert!((f.b - 52f64.ln() / 16f64.ln()).abs() < 1e-9, "{f:?}");
        assert!((f.secs(4096.0) - 7.83e-2).abs() < 1e-12);
        let lin = [p(1.0, 0.01), p(4.0, 0.04), p(16.0, 0.16)];
        assert!(beyond_setup(&lin).is_empty());
        assert!((fit(&lin).unwrap().b - 1.0).abs() < 1e-9);
    }

    /// Cases too short to time say, where sizes are the model's seconds,
    /// that the model is over: the largest (the model's 0.4 s, done in
    /// 2 ms) bounds the others at [`FLOOR_SECS`] per 0.4 s of the model.
    /// Not where sizes are not seconds, nor from a case the model gave
    /// under [`BOUND_FROM`].
    #[test]
    fn cases_too_short_to_time_bound_the_model() {
        let pts = [p(0.1, 1e-3), p(0.4, 2e-3)];
        let f = fit_or_bound(&pts, true).unwrap();
        assert!((f.secs(1.6) - 4.0 * FLOOR_SECS).abs() < 1e-12);
        assert_eq!(fit_or_bound(&pts, false), None);
        assert_eq!(fit_or_bound(&[p(0.01, 1e-3)], true), None);
    }

    /// A case solved in the sampling takes what it took; one whose copy
    /// scaled down to a quarter took 0.1 s takes 0.4 s (no fit:
    /// proportional), not from a copy 1/100 of its size; every case solved
    /// gives the whole sweep's tables, in the cases' order.
    #[test]
    fn a_case_solved_or_copied_takes_its_own_time() {
        let at = |case: usize, scaled: bool, size: f64, secs: f64| Point {
            case: Some(case),
            scaled,
            ..p(size, secs)
        };
        let s = Sampled {
            points: vec![
                at(0, false, 1.0, 0.3),
                at(1, true, 2.5, 0.1),
                at(2, true, 0.1, 0.1),
            ],
            ..Sampled::default()
        };
        assert_eq!(s.own_secs(0, 1.0), Some(0.3));
        assert!((s.own_secs(1, 10.0).unwrap() - 0.4).abs() < 1e-12);
        assert_eq!(s.own_secs(2, 10.0), None);
        assert_eq!(s.own_secs(3, 1.0), None);
        let kept = |bytes: f64| Kept {
            read_bytes: bytes,
            outputs: vec![Arc::new(Vec::new())],
        };
        let mut s = Sampled {
            planned: vec![(1, kept(2.0)), (0, kept(1.0))],
            ..Sampled::default()
        };
        assert_eq!(
            s.whole(2).map(|k| (k.read_bytes, k.outputs.len())),
            Some((3.0, 2))
        );
        assert!(s.whole(3).is_none());
        s.planned.clear();
        assert!(s.whole(0).is_none());
    }

    /// Measured on 0.74 to 300,000 (naive, the model's seconds as sizes):
    /// copies took 1.6× and 0.89× the model at 0.0173 and 0.277 of its
    /// seconds, growing as the model^0.79; the whole case took 71.6 s for
    /// 70.8. Copies that agree with the model grow as it does, so far as
    /// the timing can tell: 0.89 × 70.8 = 63 s, where ^0.79 said 20 s. A
    /// code whose copies take a tenth of the model (an adaptive kernel
    /// the model counts as naive) grows as they do, however far; sizes that
    /// are not the model's seconds grow as measured up to 64×.
    #[test]
    fn copies_that_agree_with_the_model_grow_as_it_does() {
        let s = Sampled {
            points: vec![
                copy(0, 0.0173, 0.027),
                copy(0, 0.277, 0.246),
                copy(1, 0.0173, 0.006),
                copy(1, 0.277, 0.03),
            ],
            by_model: true,
            ..Sampled::default()
        };
        let naive = s.own_secs(0, 70.8).unwrap();
        assert!((naive - 0.246 / 0.277 * 70.8).abs() < 1e-9, "{naive}");
        let b = (0.03f64 / 0.006).ln() / (0.277f64 / 0.0173).ln();
        assert!(b < 0.75, "{b}");
        let far = s.own_secs(1, 70.8).unwrap();
        let want = 0.03 * (70.8f64 / 0.277).powf(b);
        assert!((far - want).abs() < 1e-9, "{far}");
        // Growth faster than the model by more than the timing tells is
        // kept, the top copy at 1.5× the model: ×64 for ×16, over 64× at
        // most, then as the model.
        let steep = Sampled {
            points: vec![copy(0, 0.0173, 0.4155 / 64.0), copy(0, 0.277, 0.4155)],
            by_model: true,
            ..Sampled::default()
        };
        let b = steep.copy_growth(0, &steep.points[1]);
        assert!(
            (b - 64f64.ln() / (0.277f64 / 0.0173).ln()).abs() < 1e-9,
            "{b}"
        );
        let far = steep.own_secs(0, 70.8).unwrap();
        let want = 0.4155 * 64f64.powf(b) * (70.8 / 0.277 / 64.0);
        assert!((far - want).abs() < 1e-6, "{far}");
        // Not the model's seconds: as measured, and no further than 64×.
        let sized = Sampled {
            by_model: false,
            ..s.clone()
        };
        let b0 = (0.246f64 / 0.027).ln() / (0.277f64 / 0.0173).ln();
        assert!((sized.copy_growth(0, &sized.points[1]) - b0).abs() < 1e-9);
        let near = sized.own_secs(0, 10.0).unwrap();
        assert!((near - 0.246 * (10.0f64 / 0.277).powf(b0)).abs() < 1e-9);
        assert_eq!(sized.own_secs(0, 70.8), None);
    }

    /// A new user's two-heap sweep of six rules, all of the model's 0.0888
    /// s: copies to 1, 5 and 20 of four took 0.03, 0.1 and 1.8–2.2 ms
    /// (88× the model at the largest), and a whole case was stopped at
    /// the budget after 0.284 s. The four grow as the model from their
    /// largest copies (7.9 s; the case took 5.0 s), and the fit the other
    /// two follow is at their geometric mean, not the stopped case's 0.284
    /// s. Copies that took no longer than setting up tell nothing.
    #[test]
    fn the_tied_cases_make_the_fit_where_no_whole_case_finished() {
        let stopped = Point {
            case: Some(0),
            done: false,
            ..p(0.0888, 0.284)
        };
        let tops = [(5, 0.0022), (4, 0.0019), (3, 0.0018), (2, 0.0019)];
        let mut points = vec![stopped];
        for (i, secs) in tops {
            points.extend([copy(i, 2.1e-8, 3e-5), copy(i, 5.8e-7, 1e-4)]);
            points.push(copy(i, 2.49e-5, secs));
        }
        let sizes = [0.0888; 6];
        let out = Sampled {
            points,
            by_model: true,
            ..Sampled::default()
        };
        let grow = 0.0888 / 2.49e-5;
        assert!((out.own_secs(5, 0.0888).unwrap() - 0.0022 * grow).abs() < 1e-9);
        let f = whole_cases_fit(&out, (&[5, 4, 3, 2], &sizes)).unwrap();
        let mean = tops.iter().map(|t| (t.1 * grow).ln()).sum::<f64>() / 4.0;
        assert!((f.secs(0.0888) - mean.exp()).abs() < 1e-9, "{f:?}");
        // Not the model's seconds: copies that tell no growth make no fit.
        let sized = Sampled {
            by_model: false,
            ..out.clone()
        };
        assert_eq!(whole_cases_fit(&sized, (&[5, 4, 3, 2], &sizes)), None);
        // Copies of setting up alone (a tenth of a ms, flat): no estimate
        // past 64×, and no fit.
        let setup = Sampled {
            points: vec![copy(5, 2.1e-8, 3e-5), copy(5, 5.8e-7, 1e-4)],
            by_model: true,
            ..Sampled::default()
        };
        assert!(!setup.copies_work(5));
        assert_eq!(setup.own_secs(5, 0.0888), None);
        assert_eq!(whole_cases_fit(&setup, (&[5], &sizes)), None);
    }

    /// Ten cases solved, one of them 20 s beyond the 0.1 s the fit says
    /// of it (a period proven only by extending the horizon): every case
    /// takes 2 s more, on the mean. Fewer than [`MEAN_FROM`] cases, or cases
    /// no longer than the fit says, add nothing.
    #[test]
    fn the_fit_is_raised_to_the_mean_of_the_cases_solved() {
        let f = Fit {
            s0: 1.0,
            m0: 0.1,
            b: 1.0,
            add: 0.0,
        };
        let mut cases: Vec<Point> = (0..9).map(|_| p(1.0, 0.1)).collect();
        cases.push(p(1.0, 20.1));
        let raised = on_the_mean(f, &cases);
        assert!((raised.add - 2.0).abs() < 1e-9, "{raised:?}");
        assert!((raised.secs(4.0) - 2.4).abs() < 1e-9, "{raised:?}");
        assert_eq!(raised.secs(0.0), 0.0);
        assert_eq!(on_the_mean(f, &cases[..7]), f);
        let quick: Vec<Point> = (0..10).map(|_| p(1.0, 0.05)).collect();
        assert_eq!(on_the_mean(f, &quick), f);
    }

    /// The cases within half the largest's size are climbed on copies of
    /// their own, the largest first, at most four.
    #[test]
    fn cases_tied_with_the_largest_are_measured_each() {
        let sizes: [f64; 7] = [35.4, 70.8, 70.8, 70.8, 10.0, 40.0, 36.0];
        let mut order: Vec<usize> = (0..sizes.len()).collect();
        order.sort_by(|&a, &b| sizes[a].total_cmp(&sizes[b]));
        let top = *order.last().unwrap();
        let group = tied(&order, &sizes, top);
        // The largest, then the next largest down to half its size.
        assert_eq!(group, vec![3, 2, 1, 5]);
        assert_eq!(tied(&[4, 1], &sizes, 1), vec![1]);
    }

    /// A case solved returns its own tables' bytes; one with copies scaled
    /// down grows from its largest as its two largest grew (1 MB at size
    /// 2, 4 MB at 8: proportional, 16 MB at 32), else as the pooled fit
    /// says (here the square); copies under the floor tell nothing.
    #[test]
    fn a_case_returns_its_own_bytes() {
        let at = |case: usize, scaled: bool, size: f64, bytes: f64| Point {
            case: Some(case),
            scaled,
            bytes,
            read_bytes: 2.0 * bytes,
            ..p(size, 0.1)
        };
        let s = Sampled {
            points: vec![
                at(0, false, 1.0, 5e3),
                at(1, true, 2.0, 1e6),
                at(1, true, 8.0, 4e6),
                at(2, true, 4.0, 1e6),
                at(3, true, 4.0, 1e3),
            ],
            ..Sampled::default()
        };
        let square = Some(Fit {
            s0: 1.0,
            m0: 1.0,
            b: 2.0,
            add: 0.0,
        });
        assert_eq!(s.own_bytes(0, 1.0, (false, true), square), Some(5e3));
        assert_eq!(s.own_bytes(0, 1.0, (true, true), square), Some(1e4));
        let one = s.own_bytes(1, 32.0, (false, true), square).unwrap();
        assert!((one - 1.6e7).abs() < 1e-3, "{one}");
        let two = s.own_bytes(2, 8.0, (false, true), square).unwrap();
        assert!((two - 4e6).abs() < 1e-3, "{two}");
        assert_eq!(s.own_bytes(3, 8.0, (false, true), square), None);
        assert_eq!(s.own_bytes(4, 8.0, (false, true), square), None);
    }

    /// Tables growing as the square of the size (a list of winning moves
    /// per heap) give exponent 2 through the largest point; sizes within
    /// 4× of each other, proportional; tables under the floor, no fit;
    /// the read-back bytes are fitted apart.
    #[test]
    fn table_bytes_follow_their_growth() {
        let b = |size: f64, bytes: f64| Point {
            bytes,
            read_bytes: 3.0 * bytes,
            ..p(size, 0.1)
        };
        let pts = [b(1.0, 1e5), b(4.0, 1.6e6), b(16.0, 2.56e7)];
        let f = fit_bytes(&pts, false, true).unwrap();
        assert!((f.b - 2.0).abs() < 1e-9);
        assert!((f.secs(32.0) - 1.024e8).abs() < 1.0);
        let r = fit_bytes(&pts, true, true).unwrap();
        assert!((r.secs(32.0) - 3.072e8).abs() < 3.0);
        let near = fit_bytes(&[b(2.0, 2e5), b(4.0, 8e5)], false, true).unwrap();
        assert_eq!(near.b, 1.0);
        assert_eq!(fit_bytes(&[b(2.0, 1e3)], false, true), None);
    }

    /// A real sweep: takeaway with heaps up to 3 sizes, its cases sampled
    /// within the budget; the largest sampled is larger than the smallest,
    /// the sampling stays within its budget (and a little beyond: a case
    /// polls the flag now and then).
    #[test]
    fn sampling_climbs_to_larger_cases_within_the_budget() {
        let e = crate::spec::from_text(
            "sweeps:\n  - name: a\n    family: takeaway\n    take: {max: 2..6}\n    heaps: 3\n    N: 0..40\n",
            std::path::Path::new("t.yaml"),
        )
        .unwrap();
        let plan = Arc::new(e.sweeps[0].plan().unwrap());
        let sizes: Vec<f64> = plan
            .cases
            .iter()
            .map(|c| c.cost(None).size as f64)
            .collect();
        let rows: Vec<f64> = plan
            .cases
            .iter()
            .map(|c| declared_rows(&c.cost(None), None))
            .collect();
        let s = sample(
            &plan,
            (None, &StagesRead::default()),
            (&sizes, &rows, false),
            &|c| c.cost(None).size as f64,
            (0.0, 0.3),
        );
        assert!(!s.points.is_empty());
        assert!(s.spent < 0.3 + 0.2, "spent {}", s.spent);
        let min = sizes.iter().copied().fold(f64::MAX, f64::min);
        // The small end first: a scaled-down copy of the largest case, or
        // the smallest case.
        assert!(s.points[0].size <= min, "{:?}", s.points);
        // A case of the plan records the rows it declares.
        for p in s.points.iter().filter(|p| !p.scaled) {
            assert_eq!(p.rows, rows[p.case.unwrap()], "{p:?}");
        }
    }

    /// Measured on a new user's two-heap take-away sweep (`no_repeat`,
    /// `max: 1..30`, heaps to 3,000): copies of `max: 30` at a quarter and
    /// a sixteenth of its heaps took 0.107 and 0.0065 s for 0.64 and 0.04
    /// of the model's seconds, and `max: 1` whole 0.333 s for 0.658. The
    /// largest grows as its own copies did (×16.5 for ×16: 1.76 s at
    /// 10.24, where it took 1.0 s), not as the pooled fit (3 s); the
    /// others follow the whole cases, `max: 1`'s and the largest's
    /// (`max: 15`, 5.1 of the model: 1.05 s, where it took 0.98 s), not
    /// the copies' growth from `max: 1` (8.5 s).
    #[test]
    fn the_largest_grows_as_its_copies_and_the_rest_as_whole_cases() {
        let copy = |size, secs| Point {
            case: Some(29),
            scaled: true,
            ..p(size, secs)
        };
        let whole = Point {
            case: Some(0),
            ..p(0.658, 0.333)
        };
        let points = vec![copy(0.04, 0.0065), copy(0.64, 0.107), whole];
        let mut sizes = vec![0.0; 30];
        sizes[29] = 10.24;
        let out = Sampled {
            fit: fit(&points),
            points,
            ..Sampled::default()
        };
        let top = out.own_secs(29, 10.24).unwrap();
        let own_b = (0.107f64 / 0.0065).ln() / 16f64.ln();
        assert!((top - 0.107 * 16f64.powf(own_b)).abs() < 1e-9, "{top}");
        assert!((1.6..1.9).contains(&top), "{top}");
        let f = whole_cases_fit(&out, (&[29], &sizes)).unwrap();
        assert_eq!((f.s0, f.m0), (10.24, top));
        // 0.333 s to 1.76 s over 15.6× of the model: 0.6, kept within
        // the exponents a span under 16× may say.
        assert_eq!(f.b, EXPONENT.0);
        assert!((0.9..1.2).contains(&f.secs(5.1)), "{}", f.secs(5.1));
        // Solved whole, the largest is what it took, and no new fit.
        let mut solved = out.clone();
        solved.points.push(Point {
            case: Some(29),
            ..p(10.24, 1.0)
        });
        assert_eq!(solved.own_secs(29, 10.24), Some(1.0));
        assert_eq!(whole_cases_fit(&solved, (&[29], &sizes)), None);
        // One copy tells no growth of its own: the largest would follow
        // the fit it makes, so no new fit.
        let one = Sampled {
            points: vec![copy(0.64, 0.107), whole],
            ..out.clone()
        };
        assert_eq!(whole_cases_fit(&one, (&[29], &sizes)), None);
        // Whole cases too short to time tell nothing.
        let short = Sampled {
            points: vec![copy(0.04, 0.0065), copy(0.64, 0.107), p(0.658, 0.001)],
            ..out.clone()
        };
        assert_eq!(whole_cases_fit(&short, (&[29], &sizes)), None);
        // A whole case stopped at the budget after 2 s raises the fit to
        // at least that at its size.
        let mut stopped = out.clone();
        stopped.points.push(Point {
            done: false,
            ..p(5.1, 2.0)
        });
        let f = whole_cases_fit(&stopped, (&[29], &sizes)).unwrap();
        assert!(f.secs(5.1) >= 2.0 - 1e-9, "{}", f.secs(5.1));
    }
}
