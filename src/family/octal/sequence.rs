//! One code's normal-play nim-value sequence: the kernel chosen, computed
//! by stages until the octal periodicity theorem proves a period or the
//! horizon is reached.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::adaptive::{self, AdaptiveWork};
use super::blocks::Par;
use super::code::Code;
use super::kernel::{self, Kernel, SparseStop};
use super::periods;
use crate::period::Period;

/// The first stage (stages grow ×4: 128, 512, 2048, …).
const FIRST: usize = 128;
/// The stage whose values choose the mask of a splitting code (2049 values).
const PROBE: usize = 2048;

/// The values, 32 or 16 bits a heap size (the sparse kernel's long runs).
pub enum Values {
    /// From the naive kernel.
    Wide(Vec<u32>),
    /// From the sparse kernel.
    Narrow(Vec<u16>),
}

impl Values {
    /// `G(n)` for a computed `n`.
    pub fn get(&self, n: usize) -> u32 {
        match self {
            Values::Wide(v) => v[n],
            Values::Narrow(v) => v[n] as u32,
        }
    }
    /// Number of values (the last computed heap size + 1).
    pub fn len(&self) -> usize {
        match self {
            Values::Wide(v) => v.len(),
            Values::Narrow(v) => v.len(),
        }
    }
    /// The observed period (no theorem), see [`periods::observed`].
    pub fn observed(&self) -> Option<Period> {
        match self {
            Values::Wide(v) => periods::observed(v),
            Values::Narrow(v) => periods::observed(v),
        }
    }
    /// Never empty (G(0) is always computed).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// How far to compute.
#[derive(Clone, Copy, Debug)]
pub struct Horizon {
    /// With the naive kernel.
    pub naive: usize,
    /// With the sparse kernel, where a sparse space applies.
    pub sparse: usize,
}

/// A computed sequence.
pub struct Sequence {
    /// The values `G(0..len)`.
    pub values: Values,
    /// The kernel that computed past the first stage.
    pub kernel: Kernel,
    /// Rare positions (of the mask chosen) in the first stage, when a mask was tried.
    pub probe: Option<(u32, usize)>,
    /// The period, when the theorem proves one.
    pub period: Option<Period>,
    /// What the adaptive kernel did, when it ran.
    pub adaptive: Option<AdaptiveWork>,
    /// Seconds spent.
    pub seconds: f64,
}

impl Sequence {
    /// `G(n)` for any `n`: computed, or from the proven period.
    pub fn value(&self, n: u64) -> Option<u32> {
        let len = self.values.len() as u64;
        if n < len {
            return Some(self.values.get(n as usize));
        }
        self.period.map(|p| self.values.get(p.reduce(n)))
    }
}

/// Does a sparse space apply, judging by the first 2049 values: rare
/// positions (for the best mask) are at most one in 16 and none in the last
/// quarter (they die out).
fn sparse_mask(g: &[u32]) -> Option<(u32, usize)> {
    let (mask, count) = kernel::best_mask(g);
    let late = g[g.len() * 3 / 4..].iter().any(|&v| kernel::rare(v, mask));
    (count * 16 <= g.len() && !late).then_some((mask, count))
}

/// Grundy's game (`4!.0`): Flammenkamp's sparse space, every bit but the
/// lowest (a value is rare when it has an even number of ones above bit 0;
/// 360 of its first 2049 values are, too many for [`sparse_mask`], but
/// they die out: 1287 are known to 2^35). With its rare positions among
/// `g`.
fn published_mask(code: &Code, g: &[u32]) -> Option<(u32, usize)> {
    const GRUNDY_MASK: u32 = !1;
    (code.text() == "4!.0").then(|| {
        let count = g[1..]
            .iter()
            .filter(|&&v| kernel::rare(v, GRUNDY_MASK))
            .count();
        (GRUNDY_MASK, count)
    })
}

/// Computes `code`'s sequence: stages of ×4 until a period is proven or the
/// horizon is reached; past the probe stage (the first 2049 values) a
/// splitting code goes on as [`choose`] says.
pub fn compute(code: &Code, h: Horizon, cancel: &AtomicBool) -> Option<Sequence> {
    compute_to(code, h, true, cancel)
}

/// [`compute`], with the periodicity theorem tried after each stage only
/// when `prove` (otherwise to the horizon, the same values: the work of a
/// solver that does not look for periods, for comparisons).
pub fn compute_to(code: &Code, h: Horizon, prove: bool, cancel: &AtomicBool) -> Option<Sequence> {
    let t0 = Instant::now();
    let top = naive_top(code, h);
    let mut g: Vec<u32> = Vec::new();
    let mut target = FIRST.min(top.max(h.sparse));
    loop {
        if !kernel::naive_extend(code, &mut g, target, cancel) {
            return None;
        }
        let period = proven(code, &g, prove);
        if period.is_some() {
            return Some(done(Values::Wide(g), Kernel::Naive, None, period, t0));
        }
        // The stages reach the probe stage exactly (128, 512, 2048).
        if target == PROBE {
            let past = Past::of(code, h);
            match choose(mask_of(code, &g, past), past, || adaptive_trial(code, &g)) {
                Path::Sparse(mask) => {
                    return sparse_stages(code, g, mask, (h, prove), cancel, t0);
                }
                Path::Adaptive(_) => return adaptive_stages(code, g, (top, prove), cancel, t0),
                Path::Naive | Path::Proven(_) => {}
            }
        }
        if target >= top {
            return Some(done(Values::Wide(g), Kernel::Naive, None, None, t0));
        }
        target = (target * 4).min(top);
    }
}

/// How far the naive kernel runs: a splitting code to its naive horizon,
/// and at least to the probe stage when the sparse horizon is further;
/// another code to the further of the two.
pub fn naive_top(code: &Code, h: Horizon) -> usize {
    if !code.splits() {
        h.naive.max(h.sparse)
    } else if h.sparse > h.naive {
        h.naive.max(PROBE.min(h.sparse))
    } else {
        h.naive
    }
}

/// Where a sequence to a horizon goes on past the probe stage.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Path {
    /// The naive kernel (or it stops in the probe stage).
    Naive,
    /// The sparse kernel, with the mask and its rare positions among the
    /// first 2049 values.
    Sparse((u32, usize)),
    /// The adaptive kernel, with what its trial examined per heap size.
    Adaptive(f64),
    /// No further: a period is proven at this stage, up to the probe stage
    /// (a plan's answer, [`planned_path`]).
    Proven(usize),
}

/// Which kernels may go on past the probe stage: those of a code leaving
/// at most two heaps (three common parts xor to a common value), where
/// their horizon is further.
#[derive(Clone, Copy)]
struct Past {
    sparse: bool,
    adaptive: bool,
}

impl Past {
    fn of(code: &Code, h: Horizon) -> Past {
        let top = naive_top(code, h);
        let probes = two_heap_kernels(code) && top >= PROBE;
        Past {
            sparse: probes && h.sparse > PROBE,
            adaptive: probes && top > PROBE,
        }
    }
}

/// Whether the sparse and adaptive kernels may run for `code`: it splits,
/// and leaves at most two heaps (three common parts xor to a common
/// value).
fn two_heap_kernels(code: &Code) -> bool {
    code.splits() && !code.triples()
}

/// The mask of a sparse space in the first 2049 values `g`, where a
/// kernel may go on past them.
fn mask_of(code: &Code, g: &[u32], past: Past) -> Option<(u32, usize)> {
    let probes = past.sparse || past.adaptive;
    probes
        .then(|| published_mask(code, g).or_else(|| sparse_mask(g)))
        .flatten()
}

/// The run's choice past the probe stage (no period proven there): the
/// sparse kernel where a sparse space shows and its horizon is further,
/// else the adaptive kernel where its `trial` pays ([`adaptive_trial`]),
/// else the naive kernel. The run and the plan ([`planned_path`]) both
/// decide here.
fn choose(mask: Option<(u32, usize)>, past: Past, trial: impl FnOnce() -> Option<f64>) -> Path {
    if let Some(mask) = mask.filter(|_| past.sparse) {
        return Path::Sparse(mask);
    }
    match past.adaptive.then(trial).flatten() {
        Some(rate) => Path::Adaptive(rate),
        None => Path::Naive,
    }
}

/// The period the theorem proves from `g`, when `prove`.
fn proven<T: PartialEq>(code: &Code, g: &[T], prove: bool) -> Option<Period> {
    if prove {
        periods::proven_code(code, g)
    } else {
        None
    }
}

fn done(
    values: Values,
    kernel: Kernel,
    probe: Option<(u32, usize)>,
    period: Option<Period>,
    t0: Instant,
) -> Sequence {
    Sequence {
        values,
        kernel,
        probe,
        period,
        adaptive: None,
        seconds: t0.elapsed().as_secs_f64(),
    }
}

/// How much more per heap size than the naive kernel the adaptive one may
/// examine in its trial. Where it pays its rate grows slower than the
/// naive kernel's (which grows with the heap): 0.6 examines 809 per heap
/// in the trial against the naive 769 (1.05×), then 2452 against 2560 on
/// 2049..8192 and 4212 against 10240 on 8193..32768; 0.643 1.10×, then
/// 0.41× and 0.10×. Codes where it does not (0.007 1.22×, 0.766 1.40×,
/// 0.024 1.61×) grow like the naive kernel and stay naive; a stage that
/// examines more than the naive kernel hands over to it.
const TRIAL_MARGIN: f64 = 1.15;

/// The naive kernel's moves per heap size from `from + 1` to `to`.
fn naive_rate(code: &Code, from: usize, to: usize) -> f64 {
    let moves = kernel::naive_work(code, to) - kernel::naive_work(code, from);
    moves as f64 / to.saturating_sub(from).max(1) as f64
}

/// The stage after the one ending at `target`, up to `top`.
fn next_stage(target: usize, top: usize) -> usize {
    (target * 4).min(top)
}

/// Does the adaptive kernel pay, judging by a trial on the first values:
/// computing `G(1025..=2048)` again from the first 1025, it examines (splits
/// with a rare part, splits checked, positions relisted by rebuilds) per
/// heap size at most [`TRIAL_MARGIN`] times the naive kernel's moves there.
/// What it examined per heap size, where it pays.
fn adaptive_trial(code: &Code, g: &[u32]) -> Option<f64> {
    const HALF: usize = PROBE / 2;
    if g.len() <= PROBE || g.iter().any(|&v| v > u16::MAX as u32) {
        return None;
    }
    let mut trial: Vec<u16> = g[..=HALF].iter().map(|&v| v as u16).collect();
    let mut work = AdaptiveWork::default();
    let never = AtomicBool::new(false);
    adaptive::extend(code, &mut trial, PROBE, &mut work, &never).ok()?;
    let spent = work.rare_splits + work.check_splits + work.rebuild_work;
    let rate = spent as f64 / (PROBE - HALF) as f64;
    (rate <= TRIAL_MARGIN * naive_rate(code, HALF, PROBE)).then_some(rate)
}

/// What the stages of `code` up to `reached` (512 or the probe stage)
/// show, whatever the horizon: the stage a period is proven at, else,
/// where they reach the probe stage, the mask of a sparse space and, where
/// none shows, the adaptive kernel's trial (a sweep's sparse horizon is
/// never short of its naive one: with a sparse space the adaptive kernel
/// is never tried).
#[derive(Clone, Copy, Debug)]
struct Probed {
    reached: usize,
    proven_at: Option<usize>,
    mask: Option<(u32, usize)>,
    rate: Option<f64>,
}

/// The stage the first, cheap probe reaches ([`planned_path`]).
const EARLY: usize = 512;

/// [`Probed`], computed: the run's stages to `to` (128, 512, 2048, a proof
/// tried after each: a code proven at 128 takes µs, one going on to 512
/// about 0.2 ms, to 2048 about 3 ms and its trial as much).
fn probe(code: &Code, to: usize) -> Probed {
    let h = Horizon {
        naive: to,
        sparse: to,
    };
    let never = AtomicBool::new(false);
    let mut found = Probed {
        reached: to,
        proven_at: None,
        mask: None,
        rate: None,
    };
    match compute(code, h, &never).map(|s| (s.period, s.values)) {
        Some((None, Values::Wide(g))) if to == PROBE && two_heap_kernels(code) => {
            found.mask = published_mask(code, &g).or_else(|| sparse_mask(&g));
            if found.mask.is_none() {
                found.rate = adaptive_trial(code, &g);
            }
        }
        Some((Some(_), values)) => found.proven_at = Some(values.len() - 1),
        _ => {}
    }
    found
}

/// Codes probed in this process, and the seconds spent on each probe.
struct Probes {
    found: std::collections::HashMap<String, Probed>,
    spent: [f64; 2],
}

/// The path a normal-play run of `code` to `h` takes, decided as the run
/// decides it ([`choose`]) on the stages a plan makes again: the run stops
/// where a period was proven, else goes on past the probe stage as
/// [`choose`] says. Each code whose run reaches 512 is probed in a
/// process, once to each level: to 512 while the process has spent less
/// than [`PROBE_SECS`] on such probes, then, where a kernel may go on
/// past the probe stage (a
/// splitting code leaving at most two heaps, its horizon past 2048) and no
/// period was proven, to the probe stage while it has spent less than as
/// much on those (a survey of 511 codes to 10^5 takes 0.1 s to 512, 2.5 s
/// of CPU to 2048: half of them go on past 512). `None` where the probes
/// made do not tell (a case's copies scaled down, planned after it, count
/// their work as the probe of its code says).
pub fn planned_path(code: &Code, h: Horizon) -> Option<Path> {
    static SEEN: std::sync::OnceLock<std::sync::Mutex<Probes>> = std::sync::OnceLock::new();
    let seen = SEEN.get_or_init(|| {
        std::sync::Mutex::new(Probes {
            found: Default::default(),
            spent: [0.0; 2],
        })
    });
    let lock = || {
        seen.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    };
    let (past, top) = (Past::of(code, h), naive_top(code, h));
    let far = past.sparse || past.adaptive;
    let key = code.text();
    let mut found = lock().found.get(&key).copied();
    for (level, to) in [EARLY, PROBE].into_iter().enumerate() {
        let wanted = (to == EARLY && top >= EARLY) || far;
        let told = found.is_some_and(|f| f.reached >= to || f.proven_at.is_some());
        if !wanted || told || lock().spent[level] >= PROBE_SECS {
            continue;
        }
        let t0 = Instant::now();
        let f = probe(code, to);
        let mut m = lock();
        m.spent[level] += t0.elapsed().as_secs_f64();
        // Another thread may have probed further meanwhile: the entry
        // that tells more stays.
        let kept = m.found.entry(key.clone()).or_insert(f);
        if f.reached > kept.reached && kept.proven_at.is_none() {
            *kept = f;
        }
        found = Some(*kept);
    }
    match found.and_then(|f| path_of(f, top, past)) {
        Some(path) => Some(path),
        None => (!far).then_some(Path::Naive),
    }
}

/// The path of a run to `top` with the naive kernel (past the probe stage
/// as `past` allows), from what the stages a probe made showed: a proof at
/// a stage within `top` stops it there (the stages below the probe stage
/// are the same for every horizon past them); `None` where the run goes
/// further than the probe did.
fn path_of(found: Probed, top: usize, past: Past) -> Option<Path> {
    match found.proven_at {
        Some(stage) if stage <= top => Some(Path::Proven(stage)),
        Some(_) => Some(Path::Naive),
        // With a sparse space the trial was not made: where the run would
        // make it (no sparse horizon past the probe stage), not told.
        None if found.mask.is_some() && !past.sparse && past.adaptive => None,
        None if found.reached == PROBE => Some(choose(found.mask, past, || found.rate)),
        None => (top <= found.reached).then_some(Path::Naive),
    }
}

/// The adaptive kernel's trial's work in a run of `code` to `h` that goes
/// along `path`: what it examined where it pays, else the naive kernel's
/// moves over the same heap sizes (it examined more); none where no trial
/// is made. A copy to 3,000 heaps pays it as much as the case to 12,000.
pub fn trial_work(code: &Code, h: Horizon, path: Path) -> u64 {
    const HALF: usize = PROBE / 2;
    match path {
        Path::Adaptive(rate) => (rate * (PROBE - HALF) as f64) as u64,
        Path::Naive if Past::of(code, h).adaptive => {
            kernel::naive_work(code, PROBE) - kernel::naive_work(code, HALF)
        }
        _ => 0,
    }
}

/// The seconds a process spends at most on each kind of probe
/// ([`planned_path`]): a dry run stays well under 2 s with them made. The
/// unit tests, one process planning for many tests at once, have no
/// limit (a test's plan is then the same alone or among the others).
const PROBE_SECS: f64 = if cfg!(test) { f64::INFINITY } else { 0.3 };

/// The first heap size past the probe stage, from which the adaptive
/// kernel runs ([`Path::Adaptive`]).
pub const ADAPTIVE_FROM: usize = PROBE;

/// The adaptive kernel from the probe stage on, by stages of ×4, to `top`
/// (the naive horizon: the same values, sooner); the naive kernel takes
/// over for the stages left when a stage examined more than the naive
/// kernel would have, or a value does not fit 16 bits.
fn adaptive_stages(
    code: &Code,
    first: Vec<u32>,
    (top, prove): (usize, bool),
    cancel: &AtomicBool,
    t0: Instant,
) -> Option<Sequence> {
    let mut g: Vec<u16> = first.iter().map(|&v| v as u16).collect();
    let mut work = AdaptiveWork::default();
    let mut target = first.len() - 1;
    loop {
        let (from, spent) = (target, work.total());
        target = next_stage(target, top);
        match adaptive::extend(code, &mut g, target, &mut work, cancel) {
            Ok(()) => {}
            Err(SparseStop::Cancelled) => return None,
            Err(SparseStop::TooLarge(_)) => {
                return naive_stages(code, first, (top, prove), cancel, t0);
            }
        }
        let period = proven(code, &g, prove);
        if period.is_some() || target >= top {
            let mut s = done(Values::Narrow(g), Kernel::Adaptive, None, period, t0);
            s.adaptive = Some(work);
            return Some(s);
        }
        // Handed over when this stage examined more than the naive kernel
        // would have.
        let rate = (work.total() - spent) as f64 / (target - from).max(1) as f64;
        if rate > naive_rate(code, from, target) {
            let wide = g.iter().map(|&v| u32::from(v)).collect();
            let mut s = naive_stages(code, wide, (top, prove), cancel, t0)?;
            s.adaptive = Some(work);
            return Some(s);
        }
    }
}

/// The sparse kernel from the first stage on, by stages of ×4 to the sparse
/// horizon, its heap sizes shared among the pool's threads where the first
/// stage's rare positions say it pays ([`kernel::sparse_shares`], as the
/// plan judges it); where a value does not fit 16 bits, the naive kernel
/// from the first stage to the naive horizon instead.
fn sparse_stages(
    code: &Code,
    first: Vec<u32>,
    probe: (u32, usize),
    (h, prove): (Horizon, bool),
    cancel: &AtomicBool,
    t0: Instant,
) -> Option<Sequence> {
    let naive = |first: Vec<u32>| {
        let mut s = naive_stages(code, first, (naive_top(code, h), prove), cancel, t0)?;
        s.probe = Some(probe);
        Some(s)
    };
    if first.iter().any(|&v| v > u16::MAX as u32) {
        return naive(first);
    }
    let par = match kernel::sparse_shares(code, probe.1) {
        true => Par::current(),
        false => Par::ONE,
    };
    let mut g: Vec<u16> = first.iter().map(|&v| v as u16).collect();
    let mut target = first.len() - 1;
    loop {
        target = (target * 4).min(h.sparse);
        match kernel::sparse_extend_with(code, &mut g, (target, probe.0), par, cancel) {
            Ok(()) => {}
            Err(SparseStop::Cancelled) => return None,
            Err(SparseStop::TooLarge(_)) => return naive(first),
        }
        let period = proven(code, &g, prove);
        if period.is_some() || target >= h.sparse {
            let kernel = Kernel::Sparse(probe.0);
            return Some(done(Values::Narrow(g), kernel, Some(probe), period, t0));
        }
    }
}

/// The naive kernel from `g` on, by stages of ×4 to `top` (the sparse and
/// adaptive kernels' fallback when a value does not fit 16 bits).
fn naive_stages(
    code: &Code,
    mut g: Vec<u32>,
    (top, prove): (usize, bool),
    cancel: &AtomicBool,
    t0: Instant,
) -> Option<Sequence> {
    let mut target = g.len() - 1;
    loop {
        target = (target * 4).min(top);
        if !kernel::naive_extend(code, &mut g, target, cancel) {
            return None;
        }
        let period = proven(code, &g, prove);
        if period.is_some() || target >= top {
            return Some(done(Values::Wide(g), Kernel::Naive, None, period, t0));
        }
    }
}
