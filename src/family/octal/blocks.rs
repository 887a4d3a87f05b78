//! Every core on one sequence: the heap sizes of a block `n0..n0 + B` are
//! computed at once, one thread a heap size, then settled in order.
//!
//! The moves of `n` whose heaps are all smaller than `n0` (the *old* moves)
//! read only values known when the block starts. Each thread finds, for
//! its heap sizes, the smallest value no old move reaches (its kernel's
//! work, with the parts it scans kept below `n0`). In order, the few *new*
//! moves of `n` (a heap `≥ n0` left: a take leaving `n − i ≥ n0`, or a split
//! whose larger part is `≥ n0`, at most `B` per take) are compared with it:
//! when none reaches it, it is `G(n)` (the mex of old ∪ new moves); when
//! one does, `G(n)` is computed again from every move, as one thread would.
//! The values are those of one thread whatever the number of threads; the
//! work columns count what the blocks did.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::code::Code;
use super::kernel::SparseStop;
use super::scan::{last_part, reversed};

/// How heap sizes are shared among threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Par {
    /// Threads (1: every heap size in order, the one-thread path).
    pub threads: usize,
    /// The first heap size computed in blocks (smaller ones are cheap).
    pub from: usize,
    /// Heap sizes in a block.
    pub block: usize,
}

/// Heap sizes in a block: enough work per block to hide the hand-over
/// (tens of microseconds at 2^16), few new moves per heap size.
const BLOCK: usize = 32;

/// Heap sizes before the first block (each heap size's work is then a
/// few microseconds at least).
const FROM: usize = 8192;

impl Par {
    /// One thread.
    pub const ONE: Par = Par {
        threads: 1,
        from: usize::MAX,
        block: 1,
    };

    /// The pool's threads, when called outside it (`nimlab solve`; a
    /// sweep's cases already share the pool, one case a thread, and stay
    /// on one thread each).
    pub fn current() -> Par {
        let threads = if rayon::current_thread_index().is_none() {
            rayon::current_num_threads()
        } else {
            1
        };
        Par {
            threads,
            from: FROM,
            block: BLOCK,
        }
    }

    /// Runs `f` on one of the pool's threads when there are several (the
    /// blocks then hand over between its threads, which wait for each other
    /// spinning, not sleeping).
    pub(super) fn on_pool<R: Send>(self, f: impl FnOnce() -> R + Send) -> R {
        if self.threads > 1 && rayon::current_thread_index().is_none() {
            rayon::scope(|_| f())
        } else {
            f()
        }
    }

    /// Is the heap size `n` the start of a block computed by threads?
    #[inline]
    pub(super) fn blocks_at(&self, n: usize) -> bool {
        self.threads > 1 && n >= self.from.max(4 * self.block)
    }
}

/// Per-thread scratch space, one per pool thread, each on cache lines of
/// its own (a thread's counters written beside another's marks would
/// send the line back and forth between their cores).
pub(super) struct Scratch<S>(Vec<Own<Mutex<S>>>);

/// A value aligned to two cache lines (the pair the prefetcher fetches).
#[repr(align(128))]
struct Own<T>(T);

impl<S: Send> Scratch<S> {
    pub(super) fn new(threads: usize, make: impl Fn() -> S) -> Scratch<S> {
        Scratch(
            (0..threads.max(1))
                .map(|_| Own(Mutex::new(make())))
                .collect(),
        )
    }

    /// For each heap size `n0 + j` of `out`, `out[j] = first(scratch, n0 + j)`,
    /// the heap sizes shared among the pool's threads.
    pub(super) fn each<T: Send>(
        &self,
        n0: usize,
        out: &mut [T],
        first: impl Fn(&mut S, usize) -> T + Sync,
    ) {
        let slots = &self.0;
        // A heap size a job: a thread the system has paused holds up the
        // block by one heap size at most.
        out.par_iter_mut()
            .enumerate()
            .with_max_len(1)
            .for_each(|(j, x)| {
                let t = rayon::current_thread_index().unwrap_or(0) % slots.len();
                let mut s = slots[t].0.lock().unwrap_or_else(|e| e.into_inner());
                *x = first(&mut s, n0 + j);
            });
    }

    /// The scratch spaces, to gather what they counted.
    pub(super) fn into_inner(self) -> impl Iterator<Item = S> {
        self.0
            .into_iter()
            .map(|m| m.0.into_inner().unwrap_or_else(|e| e.into_inner()))
    }
}

/// Does a move of `n` that leaves a heap `≥ old` (a new move of its block)
/// have the value `v`? `g` holds every value below `n`; codes leaving at
/// most two heaps.
pub(super) fn new_move_reaches<T: Copy + Into<u32>>(
    code: &Code,
    takes: &[(usize, bool)],
    g: &[T],
    (n, old): (usize, usize),
    v: u32,
) -> bool {
    for (i, &d) in code.digits().iter().enumerate().skip(1) {
        if i >= n || n - i < old {
            break;
        }
        if d & 2 != 0 && g[n - i].into() == v {
            return true;
        }
    }
    for &(i, unequal) in takes {
        if n < i + 2 || n - i <= old {
            continue;
        }
        let r = n - i;
        // The larger part `r − a ≥ old`.
        let hi = (r - old).min(last_part(r, unequal));
        if (1..=hi).any(|a| g[a].into() ^ g[r - a].into() == v) {
            return true;
        }
    }
    false
}

/// A kernel of 16-bit values (the sparse and the adaptive one), as
/// [`extend_narrow`] runs it.
pub(super) trait Narrow: Sync {
    /// One thread's marks and counters.
    type Scratch: Send;
    /// The smallest value no move of `n` leaving heaps all below `old`
    /// reaches (`old = n`: `G(n)`); `g` holds the values known, `back`
    /// the same reversed ([`reversed`]).
    fn gap(&self, g: (&[u16], &[u16]), n_old: (usize, usize), s: &mut Self::Scratch) -> u32;
    /// Takes in `G(n) = v`, just pushed on `g`.
    fn record(&mut self, g: &[u16], n_v: (usize, u32), s: &mut Self::Scratch);
}

/// Extends `g` (the first values) to `G(0..=n_max)` with `kernel`, the heap
/// sizes shared as `par` says: on one thread a heap size at a time, on
/// several by blocks (the module's note). `own` is the calling thread's
/// scratch, `pool` the pool threads'.
pub(super) fn extend_narrow<K: Narrow>(
    kernel: &mut K,
    (code, takes): (&Code, &[(usize, bool)]),
    g: &mut Vec<u16>,
    (n_max, par): (usize, Par),
    (own, pool): (&mut K::Scratch, &Scratch<K::Scratch>),
    cancel: &AtomicBool,
) -> Result<(), SparseStop> {
    let mut back = reversed(g, n_max);
    let mut gaps = vec![0u32; par.block];
    g.reserve((n_max + 1).saturating_sub(g.len()));
    let mut n = g.len();
    while n <= n_max {
        let blocks = par.blocks_at(n);
        if (blocks || n.is_multiple_of(65536)) && cancel.load(Ordering::Relaxed) {
            return Err(SparseStop::Cancelled);
        }
        let end = if blocks {
            (n + par.block).min(n_max + 1)
        } else {
            n + 1
        };
        let gaps = &mut gaps[..end - n];
        if blocks {
            let (known, k) = ((&g[..], &back[..]), &*kernel);
            pool.each(n, gaps, |s, m| k.gap(known, (m, n), s));
        }
        for m in n..end {
            let v = if !blocks || new_move_reaches(code, takes, g, (m, n), gaps[m - n]) {
                kernel.gap((g, &back), (m, m), own)
            } else {
                gaps[m - n]
            };
            if v > u16::MAX as u32 {
                return Err(SparseStop::TooLarge(m));
            }
            g.push(v as u16);
            back[n_max - m] = v as u16;
            kernel.record(g, (m, v), own);
        }
        n = end;
    }
    Ok(())
}
