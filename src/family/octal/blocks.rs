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
//!
//! The threads stay on the sequence from one block to the next
//! ([`run_blocks`]): between blocks they spin, waiting for the next one,
//! rather than being handed each block's heap sizes as new jobs. A block
//! is a few hundred microseconds of work at 2^20; a fork and join per block
//! (and a pool thread woken from sleep now and then) cost a tenth of it.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, RwLock};

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
pub(super) const FROM: usize = 8192;

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

    /// The scratch spaces, to gather what they counted.
    pub(super) fn into_inner(self) -> impl Iterator<Item = S> {
        self.0
            .into_iter()
            .map(|m| m.0.into_inner().unwrap_or_else(|e| e.into_inner()))
    }
}

/// Where the threads of [`run_blocks`] stand.
#[derive(Default)]
struct Team {
    /// Blocks handed out so far (a thread waits for it to change).
    handed: AtomicUsize,
    /// The next heap size of the block to take, as an offset.
    next: AtomicUsize,
    /// Heap sizes of the block done.
    done: AtomicUsize,
    /// No more blocks (or a thread panicked).
    stop: AtomicBool,
}

/// The block being computed: its first heap size and its length.
#[derive(Clone, Copy, Default)]
struct Block {
    n0: usize,
    len: usize,
}

/// Computes the heap sizes `n..=n_max` in blocks of `block`: for each
/// block, `first(state, scratch, (m, n0))` for every `m` of it on the
/// pool's threads (one scratch of `pool` each), then `settle(state, n0,
/// firsts)` on the calling thread, in order, with the state to itself. An
/// error from `settle` ends the run.
///
/// The state is read by every thread during a block and written by
/// `settle` alone between blocks (a read-write lock, taken once per block
/// by each thread). The other threads take heap sizes from a shared count
/// and wait for the next block spinning.
pub(super) fn run_blocks<St, S, T, E>(
    state: &mut St,
    pool: &Scratch<S>,
    (n, n_max, block): (usize, usize, usize),
    first: impl Fn(&St, &mut S, (usize, usize)) -> T + Sync,
    mut settle: impl FnMut(&mut St, usize, &[T]) -> Result<(), E> + Send,
) -> Result<(), E>
where
    St: Send + Sync,
    S: Send,
    T: Copy + Default + Send,
    E: Send,
{
    assert!(block > 0, "blocks of no heap size");
    let crew = Crew {
        team: Team::default(),
        shared: RwLock::new((state, Block::default())),
        out: (0..block).map(|_| Own(Mutex::default())).collect(),
        pool,
        first,
    };
    rayon::scope(|scope| {
        for slot in 1..pool.0.len() {
            let crew = &crew;
            scope.spawn(move |_| crew.help(slot));
        }
        let _stop = StopOnDrop(&crew.team);
        let mut firsts = vec![T::default(); block];
        let mut n0 = n;
        while n0 <= n_max {
            let len = block.min(n_max + 1 - n0);
            crew.hand_out(Block { n0, len });
            crew.take(0);
            crew.wait_for(len);
            let mut guard = crew.shared.write().unwrap_or_else(|e| e.into_inner());
            for (x, o) in firsts.iter_mut().zip(&crew.out[..len]) {
                *x = *o.0.lock().unwrap_or_else(|e| e.into_inner());
            }
            settle(guard.0, n0, &firsts[..len])?;
            n0 += len;
        }
        Ok(())
    })
}

/// What the threads of [`run_blocks`] share.
struct Crew<'a, St, S, T, F> {
    team: Team,
    /// The state, and the block being computed.
    shared: RwLock<(&'a mut St, Block)>,
    /// What `first` gave for each heap size of the block (each on cache
    /// lines of its own: two threads write neighbouring heap sizes).
    out: Vec<Own<Mutex<T>>>,
    pool: &'a Scratch<S>,
    first: F,
}

impl<St, S, T, F> Crew<'_, St, S, T, F>
where
    F: Fn(&St, &mut S, (usize, usize)) -> T,
{
    /// Makes `b` the block to compute.
    fn hand_out(&self, b: Block) {
        {
            let mut guard = self.shared.write().unwrap_or_else(|e| e.into_inner());
            guard.1 = b;
            self.team.next.store(0, Ordering::Relaxed);
            self.team.done.store(0, Ordering::Relaxed);
        }
        self.team.handed.fetch_add(1, Ordering::Release);
    }

    /// Takes the block's heap sizes one by one until none is left, with the
    /// scratch of `slot`.
    fn take(&self, slot: usize) {
        let guard = self.shared.read().unwrap_or_else(|e| e.into_inner());
        let (st, b) = (&*guard.0, guard.1);
        let mut s = self.pool.0[slot]
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        loop {
            let j = self.team.next.fetch_add(1, Ordering::Relaxed);
            if j >= b.len {
                break;
            }
            let x = (self.first)(st, &mut s, (b.n0 + j, b.n0));
            *self.out[j].0.lock().unwrap_or_else(|e| e.into_inner()) = x;
            self.team.done.fetch_add(1, Ordering::Release);
        }
    }

    /// A thread other than the caller's: takes heap sizes from each block
    /// handed out until the run stops.
    fn help(&self, slot: usize) {
        let _stop = StopOnPanic(&self.team.stop);
        let mut seen = 0;
        while let Some(now) = wait_change(&self.team.handed, seen, &self.team.stop) {
            seen = now;
            self.take(slot);
        }
    }

    /// Waits for the block's `len` heap sizes to be done.
    fn wait_for(&self, len: usize) {
        let mut backoff = Backoff::default();
        while self.team.done.load(Ordering::Acquire) < len {
            let stopped = self.team.stop.load(Ordering::Relaxed);
            assert!(!stopped, "a block thread panicked");
            backoff.wait();
        }
    }
}

/// Waits for `count` to differ from `seen`; `None` once `stop` is set.
fn wait_change(count: &AtomicUsize, seen: usize, stop: &AtomicBool) -> Option<usize> {
    let mut backoff = Backoff::default();
    loop {
        if stop.load(Ordering::Acquire) {
            return None;
        }
        let now = count.load(Ordering::Acquire);
        if now != seen {
            return Some(now);
        }
        backoff.wait();
    }
}

/// A wait in a loop: spinning a while (a block's heap size or its settling
/// takes microseconds), then yielding the core (a thread the system paused,
/// on a machine with more threads than cores, takes milliseconds).
#[derive(Default)]
struct Backoff(u32);

impl Backoff {
    fn wait(&mut self) {
        if self.0 < 4096 {
            self.0 += 1;
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
}

/// Ends the other threads' wait when the run ends, however it ends.
struct StopOnDrop<'a>(&'a Team);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.stop.store(true, Ordering::Release);
        self.0.handed.fetch_add(1, Ordering::Release);
    }
}

/// Tells the calling thread that a block thread panicked (it would wait
/// for the block forever).
struct StopOnPanic<'a>(&'a AtomicBool);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Release);
        }
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
pub(super) trait Narrow: Send + Sync {
    /// One thread's marks and counters.
    type Scratch: Send;
    /// The smallest value no move of `n` leaving heaps all below `old`
    /// reaches (`old = n`: `G(n)`); `g` holds the values known, `back`
    /// the same reversed ([`reversed`]).
    fn gap(&self, g: (&[u16], &[u16]), n_old: (usize, usize), s: &mut Self::Scratch) -> u32;
    /// Takes in `G(n) = v`, just pushed on `g`.
    fn record(&mut self, g: &[u16], n_v: (usize, u32), s: &mut Self::Scratch);
}

/// What [`extend_narrow`] reads and writes: the kernel, the values and
/// their reversed copy.
struct NarrowState<'a, K> {
    kernel: &'a mut K,
    g: &'a mut Vec<u16>,
    back: Vec<u16>,
    n_max: usize,
}

impl<K: Narrow> NarrowState<'_, K> {
    /// The smallest value no move of `n` leaving heaps all below `old`
    /// reaches (`old = n`: `G(n)`).
    fn gap(&self, (n, old): (usize, usize), s: &mut K::Scratch) -> u32 {
        self.kernel.gap((self.g, &self.back), (n, old), s)
    }

    /// Appends `G(n) = v`.
    fn push(&mut self, n: usize, v: u32, s: &mut K::Scratch) -> Result<(), SparseStop> {
        if v > u16::MAX as u32 {
            return Err(SparseStop::TooLarge(n));
        }
        self.g.push(v as u16);
        self.back[self.n_max - n] = v as u16;
        self.kernel.record(self.g, (n, v), s);
        Ok(())
    }
}

/// Extends `g` (the first values) to `G(0..=n_max)` with `kernel`, the heap
/// sizes shared as `par` says: on one thread a heap size at a time, on
/// several by blocks (the module's note). `own` is the calling thread's
/// scratch, `pool` the block threads'.
pub(super) fn extend_narrow<K: Narrow>(
    kernel: &mut K,
    (code, takes): (&Code, &[(usize, bool)]),
    g: &mut Vec<u16>,
    (n_max, par): (usize, Par),
    (own, pool): (&mut K::Scratch, &Scratch<K::Scratch>),
    cancel: &AtomicBool,
) -> Result<(), SparseStop> {
    g.reserve((n_max + 1).saturating_sub(g.len()));
    let mut st = NarrowState {
        back: reversed(g, n_max),
        kernel,
        g,
        n_max,
    };
    let mut n = st.g.len();
    while n <= n_max && !par.blocks_at(n) {
        if n.is_multiple_of(65536) && cancel.load(Ordering::Relaxed) {
            return Err(SparseStop::Cancelled);
        }
        let v = st.gap((n, n), own);
        st.push(n, v, own)?;
        n += 1;
    }
    if n > n_max {
        return Ok(());
    }
    run_blocks(
        &mut st,
        pool,
        (n, n_max, par.block),
        |st, s, m_n0| st.gap(m_n0, s),
        |st, n0, gaps| {
            if cancel.load(Ordering::Relaxed) {
                return Err(SparseStop::Cancelled);
            }
            for (m, &gap) in (n0..).zip(gaps) {
                let v = if new_move_reaches(code, takes, st.g, (m, n0), gap) {
                    st.gap((m, m), own)
                } else {
                    gap
                };
                st.push(m, v, own)?;
            }
            Ok(())
        },
    )
}
