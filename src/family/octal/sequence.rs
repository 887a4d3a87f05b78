//! One code's normal-play nim-value sequence: the kernel chosen, computed
//! by stages until the octal periodicity theorem proves a period or the
//! horizon is reached.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::adaptive::{self, AdaptiveWork};
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
/// horizon is reached; a splitting code whose first 2049 values show a
/// sparse space goes on with the sparse kernel. `None` when cancelled.
pub fn compute(code: &Code, h: Horizon, cancel: &AtomicBool) -> Option<Sequence> {
    compute_to(code, h, true, cancel)
}

/// [`compute`], with the periodicity theorem tried after each stage only
/// when `prove` (otherwise to the horizon, the same values: the work of a
/// solver that does not look for periods, for comparisons).
pub fn compute_to(code: &Code, h: Horizon, prove: bool, cancel: &AtomicBool) -> Option<Sequence> {
    let t0 = Instant::now();
    // A splitting code is computed naively to the horizon, and at least to
    // the probe stage when the sparse horizon is further.
    let top = if !code.splits() {
        h.naive.max(h.sparse)
    } else if h.sparse > h.naive {
        h.naive.max(PROBE.min(h.sparse))
    } else {
        h.naive
    };
    let mut g: Vec<u32> = Vec::new();
    let mut target = FIRST.min(top.max(h.sparse));
    let mut probed = false;
    loop {
        if !kernel::naive_extend(code, &mut g, target, cancel) {
            return None;
        }
        let period = proven(code, &g, prove);
        if period.is_some() {
            return Some(done(Values::Wide(g), Kernel::Naive, None, period, t0));
        }
        // Three common parts xor to a common value: the sparse and adaptive
        // kernels are for codes that leave at most two heaps.
        if code.splits() && !code.triples() && !probed && target >= PROBE {
            probed = true;
            let probe = published_mask(code, &g).or_else(|| sparse_mask(&g));
            if let Some(probe) = probe.filter(|_| h.sparse > target) {
                return sparse_stages(code, g, probe, (h.sparse, prove), cancel, t0);
            }
            if top > target && adaptive_pays(code, &g) {
                return adaptive_stages(code, g, (top, prove), cancel, t0);
            }
        }
        if target >= top {
            return Some(done(Values::Wide(g), Kernel::Naive, None, None, t0));
        }
        target = (target * 4).min(top);
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
fn adaptive_pays(code: &Code, g: &[u32]) -> bool {
    adaptive_trial(code, g).is_some()
}

/// The adaptive kernel's trial ([`adaptive_pays`]): what it examined per
/// heap size, where it pays.
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

/// Where a run of `code` to a horizon past the probe stage goes on with
/// the adaptive kernel, as the run decides it on its first 2049 values
/// (no period proven, no sparse space, the trial pays): what the trial
/// examined per heap size; else `None`. About 3 ms a code, done once per
/// code in a process (the plan asks for each of its cases), for the first
/// [`MAX_PROBES`] codes asked (a survey of 511 codes would take 1.7 s to
/// plan; past them, `None`: the naive kernel's count).
/// Where `probe` is false, only a code probed before is answered (a case's
/// copies scaled down, planned after it, count their work as it does).
pub fn adaptive_rate(code: &Code, probe: bool) -> Option<f64> {
    type Seen = std::sync::Mutex<std::collections::HashMap<String, Option<f64>>>;
    static SEEN: std::sync::OnceLock<Seen> = std::sync::OnceLock::new();
    let seen = SEEN.get_or_init(Default::default);
    let key = code.text();
    let lock = || {
        seen.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    };
    let (known, probed) = {
        let m = lock();
        (m.get(&key).copied(), m.len())
    };
    match known {
        Some(r) => return r,
        None if probed >= MAX_PROBES || !probe => return None,
        None => {}
    }
    let r = probe_adaptive(code);
    lock().insert(key, r);
    r
}

/// [`adaptive_rate`], computed: the run's probe stage, naive to 2048.
fn probe_adaptive(code: &Code) -> Option<f64> {
    if !code.splits() || code.triples() {
        return None;
    }
    let never = AtomicBool::new(false);
    let g = kernel::naive(code, PROBE, &never)?;
    if periods::proven_code(code, &g).is_some() {
        return None;
    }
    if published_mask(code, &g)
        .or_else(|| sparse_mask(&g))
        .is_some()
    {
        return None;
    }
    adaptive_trial(code, &g)
}

/// Codes a process probes at most ([`adaptive_rate`]); the unit tests,
/// one process planning many codes, have no cap.
const MAX_PROBES: usize = if cfg!(test) { 1 << 20 } else { 64 };

/// The first heap size past the probe stage, from which the adaptive
/// kernel runs ([`adaptive_rate`]).
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

/// The sparse kernel from the first stage on, by stages of ×4; falls back
/// to the naive values of the first stage if a value does not fit 16 bits.
fn sparse_stages(
    code: &Code,
    first: Vec<u32>,
    probe: (u32, usize),
    (top, prove): (usize, bool),
    cancel: &AtomicBool,
    t0: Instant,
) -> Option<Sequence> {
    let naive = |first: Vec<u32>| done(Values::Wide(first), Kernel::Naive, Some(probe), None, t0);
    if first.iter().any(|&v| v > u16::MAX as u32) {
        return Some(naive(first));
    }
    let mut g: Vec<u16> = first.iter().map(|&v| v as u16).collect();
    let mut target = first.len() - 1;
    loop {
        target = (target * 4).min(top);
        match kernel::sparse_extend(code, &mut g, target, probe.0, cancel) {
            Ok(()) => {}
            Err(SparseStop::Cancelled) => return None,
            Err(SparseStop::TooLarge(_)) => return Some(naive(first)),
        }
        let period = proven(code, &g, prove);
        if period.is_some() || target >= top {
            let kernel = Kernel::Sparse(probe.0);
            return Some(done(Values::Narrow(g), kernel, Some(probe), period, t0));
        }
    }
}

/// The naive kernel from `g` on, by stages of ×4 to `top` (the adaptive
/// kernel's fallback when a value does not fit 16 bits).
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
