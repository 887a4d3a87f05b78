//! The nim-value sequence of an octal code: `G(n) = mex` of the values of
//! the moves from `n` (a split into `a + b` has the value `G(a) ⊕ G(b)`).
//!
//! Two kernels, giving the same values (tested against each other and
//! against the game tree, `brute.rs`):
//!
//! * [`naive`]: every move of every heap, O(n²) per code when it splits.
//! * [`sparse`]: the sparse-space method (Winning Ways, ch. 4, "Sparse Space
//!   Spells Speed"; Flammenkamp's tables give the masks). For a mask `m` a
//!   value `v` is *rare* when `popcount(v & m)` is even and *common* when odd.
//!   Common ⊕ common and rare ⊕ rare are rare, rare ⊕ common is common, so
//!   the common values among the moves of `n` all come from the single-heap
//!   moves and the splits with a rare part: when rare positions are few this
//!   is a short list, and the smallest missing common value `c` is found
//!   without looking at most splits. `G(n) = c` unless a rare value below `c`
//!   is missing; each, smallest first, is searched for by value among the
//!   other splits, smallest part first ([`super::scan`]: 16 to 64 splits a
//!   step), until one no split reaches (it almost always is found, early).
//!   Exact for any mask; fast when rare positions are few.

use std::sync::atomic::{AtomicBool, Ordering};

use super::blocks::{Narrow, Par, Scratch, extend_narrow, new_move_reaches, run_blocks};
use super::code::Code;
use super::scan::{last_part, search};

/// Which kernel computed a sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Every move of every heap.
    Naive,
    /// The sparse-space method with this mask.
    Sparse(u32),
    /// The adaptive rare/common split ([`super::adaptive`]).
    Adaptive,
}

/// The vocabulary of the `kernel` column.
pub const KERNELS: &[&str] = &["naive", "sparse", "adaptive"];

impl Kernel {
    /// Its code in [`KERNELS`].
    pub fn code(self) -> u8 {
        match self {
            Kernel::Naive => 0,
            Kernel::Sparse(_) => 1,
            Kernel::Adaptive => 2,
        }
    }
    /// The mask, for the sparse kernel.
    pub fn mask(self) -> Option<u32> {
        match self {
            Kernel::Naive | Kernel::Adaptive => None,
            Kernel::Sparse(m) => Some(m),
        }
    }
}

/// Is `v` rare for the mask `m`?
#[inline]
pub fn rare(v: u32, m: u32) -> bool {
    (v & m).count_ones() & 1 == 0
}

/// Marks of the values seen for one heap: `stamp[v] == now` means seen.
pub(super) struct Seen {
    stamp: Vec<u64>,
    now: u64,
}

impl Seen {
    pub(super) fn new() -> Seen {
        Seen {
            stamp: vec![0; 1024],
            now: 0,
        }
    }
    pub(super) fn next(&mut self) {
        self.now += 1;
    }
    #[inline]
    pub(super) fn mark(&mut self, v: u32) {
        let v = v as usize;
        if v >= self.stamp.len() {
            self.stamp.resize((v + 1).next_power_of_two(), 0);
        }
        self.stamp[v] = self.now;
    }
    #[inline]
    fn has(&self, v: u32) -> bool {
        self.stamp.get(v as usize).is_some_and(|&s| s == self.now)
    }
}

/// Marks the values of the moves of `n` that leave at most one heap, that
/// heap below `old` (`old = n`: every such move; see [`super::blocks`]).
#[inline]
pub(super) fn mark_simple<T: Copy + Into<u32>>(
    code: &Code,
    g: &[T],
    (n, old): (usize, usize),
    mut mark: impl FnMut(u32),
) {
    for (i, &d) in code.digits().iter().enumerate().skip(1) {
        if i > n {
            break;
        }
        if d & 1 != 0 && n == i {
            mark(0);
        }
        if d & 2 != 0 && n > i && n - i < old {
            mark(g[n - i].into());
        }
    }
}

/// The moves the naive kernel examines computing `G(0..=n_max)`: per heap
/// size `n`, one per take `1..=min(n, t)` ([`mark_simple`]), and for each
/// splitting take `i` the `⌊(n − i)/2⌋` ways to split what is left; the
/// cost model's unit of the octal kernel. (Codes with `!` skip the equal
/// split, one move per size fewer; the count is then an upper bound.)
pub fn naive_work(code: &Code, n_max: usize) -> u64 {
    let (l, t) = (n_max as u64, code.max_take() as u64);
    let simple = if l >= t {
        t * (t + 1) / 2 + (l - t) * t
    } else {
        l * (l + 1) / 2
    };
    // Σ_{m=0..=M} ⌊m/2⌋ = ⌊M²/4⌋, with M = n_max − i.
    let splits: u64 = code
        .split_takes()
        .iter()
        .filter(|&&i| i as u64 <= l)
        .map(|&i| (l - i as u64).saturating_mul(l - i as u64) / 4)
        .fold(0, u64::saturating_add);
    // Three heaps: about Σ_{m ≤ M} m²/12 ways (the partitions of m into
    // three parts), with M = n_max − i.
    let triples: u64 = code
        .triple_takes()
        .iter()
        .filter(|&&i| i as u64 <= l)
        .map(|&i| {
            let m = l - i as u64;
            m.saturating_mul(m + 1).saturating_mul(2 * m + 1) / 72
        })
        .fold(0, u64::saturating_add);
    simple.saturating_add(splits).saturating_add(triples)
}

/// The naive kernel: `G(0..=n_max)`. Returns `None` when cancelled.
pub fn naive(code: &Code, n_max: usize, cancel: &AtomicBool) -> Option<Vec<u32>> {
    let mut g = Vec::with_capacity(n_max + 1);
    naive_extend(code, &mut g, n_max, cancel).then_some(g)
}

/// Extends `g` (the first values) to `G(0..=n_max)` with the naive kernel
/// on the pool's threads ([`Par::current`]); `false` when cancelled.
pub fn naive_extend(code: &Code, g: &mut Vec<u32>, n_max: usize, cancel: &AtomicBool) -> bool {
    naive_extend_with(code, g, n_max, Par::current(), cancel)
}

/// [`naive_extend`] with the heap sizes shared as `par` says (codes that
/// leave three heaps: one thread).
pub fn naive_extend_with(
    code: &Code,
    g: &mut Vec<u32>,
    n_max: usize,
    par: Par,
    cancel: &AtomicBool,
) -> bool {
    let splits: Vec<(usize, bool)> = code
        .split_takes()
        .into_iter()
        .map(|i| (i, code.unequal(i)))
        .collect();
    let triples: Vec<(usize, bool)> = code
        .triple_takes()
        .into_iter()
        .map(|i| (i, code.unequal(i)))
        .collect();
    let par = if triples.is_empty() { par } else { Par::ONE };
    let moves = NaiveMoves {
        code,
        splits: &splits,
        triples: &triples,
    };
    let mut seen = Seen::new();
    let mut n = g.len();
    while n <= n_max && !par.blocks_at(n) {
        if n.is_multiple_of(4096) && cancel.load(Ordering::Relaxed) {
            return false;
        }
        let v = moves.gaps::<1>(g, (n, n), &mut seen)[0];
        g.push(v);
        n += 1;
    }
    if n > n_max {
        return true;
    }
    let scratch = Scratch::new(par.threads, Seen::new);
    let mut st = (g, moves);
    let blocks = run_blocks(
        &mut st,
        &scratch,
        (n, n_max, par.block),
        |(g, moves), seen, (m, n0)| moves.gaps::<GAPS>(g, (m, n0), seen),
        |(g, moves), n0, gaps| {
            if cancel.load(Ordering::Relaxed) {
                return Err(());
            }
            for (m, first) in (n0..).zip(gaps) {
                // The smallest of the first gaps no new move reaches, or
                // else every move again.
                let v = first
                    .iter()
                    .copied()
                    .find(|&v| !new_move_reaches(code, moves.splits, g, (m, n0), v));
                let v = v.unwrap_or_else(|| moves.gaps::<1>(g, (m, m), &mut seen)[0]);
                g.push(v);
            }
            Ok(())
        },
    );
    blocks.is_ok()
}

/// Gaps (values no old move reaches) each thread hands on per heap size
/// in a block of the naive kernel: a new move reaches the first one now
/// and then (one time in 20 at 2^16 for 0.137 in blocks of 32), rarely all.
const GAPS: usize = 4;

/// The moves of a code, for the naive kernel.
struct NaiveMoves<'a> {
    code: &'a Code,
    splits: &'a [(usize, bool)],
    triples: &'a [(usize, bool)],
}

impl NaiveMoves<'_> {
    /// The `K` smallest values no move of `n` leaving heaps all below
    /// `old` reaches (`old = n`: `G(n)` first); three heaps only when
    /// `old = n`. Never inlined: inlined into the blocks' loop, its loop
    /// over the splits read `G`'s address from the stack at every split
    /// (a third more time on 0.137 to 2^17, two threads).
    #[inline(never)]
    fn gaps<const K: usize>(
        &self,
        g: &[u32],
        (n, old): (usize, usize),
        seen: &mut Seen,
    ) -> [u32; K] {
        seen.next();
        mark_simple(self.code, g, (n, old), |v| seen.mark(v));
        for &(i, unequal) in self.splits {
            if n >= i + 2 {
                let r = n - i;
                // Unequal heaps: a < r − a; the larger part below `old`
                // (every part from 1 on for `G(n)`: the one-thread loop as
                // it was, its start a constant).
                let top = if unequal { (r - 1) / 2 } else { r / 2 };
                if old >= n {
                    mark_pairs(g, r, 1..=top, seen);
                } else {
                    mark_pairs(g, r, (r + 1).saturating_sub(old).max(1)..=top, seen);
                }
            }
        }
        for &(i, unequal) in self.triples {
            if n >= i + 3 {
                debug_assert_eq!(n, old);
                mark_triples(g, n - i, unequal, seen);
            }
        }
        let mut out = [0; K];
        let mut v = 0;
        for x in &mut out {
            v = (v..).find(|&v| !seen.has(v)).unwrap_or(v);
            *x = v;
            v += 1;
        }
        out
    }
}

/// Marks `G(a) ⊕ G(r − a)` for the parts `a` in `parts`.
#[inline(always)]
fn mark_pairs(g: &[u32], r: usize, parts: std::ops::RangeInclusive<usize>, seen: &mut Seen) {
    for a in parts {
        seen.mark(g[a] ^ g[r - a]);
    }
}

/// Marks the values of every way to leave three heaps `a ≤ b ≤ c` of total
/// `r` (`a < b < c` when they must differ).
fn mark_triples(g: &[u32], r: usize, unequal: bool, seen: &mut Seen) {
    for a in 1..=r / 3 {
        let (from, to) = if unequal {
            (a + 1, (r - a).saturating_sub(1) / 2)
        } else {
            (a, (r - a) / 2)
        };
        let ga = g[a];
        for b in from..=to {
            seen.mark(ga ^ g[b] ^ g[r - a - b]);
        }
    }
}

/// Why the sparse kernel stopped.
#[derive(Debug, PartialEq, Eq)]
pub enum SparseStop {
    /// Ctrl-C.
    Cancelled,
    /// A value did not fit 16 bits.
    TooLarge(usize),
}

/// The sparse-space kernel with mask `mask`: `G(0..=n_max)` as 16-bit values
/// (2 bytes a heap size: 10^8 values in 200 MB).
pub fn sparse(
    code: &Code,
    n_max: usize,
    mask: u32,
    cancel: &AtomicBool,
) -> Result<Vec<u16>, SparseStop> {
    let mut g = Vec::with_capacity(n_max + 1);
    sparse_extend(code, &mut g, n_max, mask, cancel)?;
    Ok(g)
}

/// Extends `g` (the first values) to `G(0..=n_max)` with the sparse kernel
/// on the pool's threads ([`Par::current`]).
pub fn sparse_extend(
    code: &Code,
    g: &mut Vec<u16>,
    n_max: usize,
    mask: u32,
    cancel: &AtomicBool,
) -> Result<(), SparseStop> {
    sparse_extend_with(code, g, (n_max, mask), Par::current(), cancel)
}

/// Whether the sparse kernel's heap sizes are worth sharing among threads,
/// judged on the `rare` rare positions among the first 2049 values (the
/// run and the plan both judge there): where the splits with a rare part
/// per heap size, `rare` per splitting take, are [`SPARSE_SHARED`] or more
/// (about a microsecond). Fewer, the hand-over costs more than it saves:
/// 0.454 (16 rare positions, 3 splitting takes) to 10^7 took 1.67 s on
/// one thread, 3.50 s on two; Grundy's game (360 rare positions at 2048,
/// 1273 at 2^22) to 2^22 23.1 s on one, 13.9 s on two.
pub fn sparse_shares(code: &Code, rare: usize) -> bool {
    rare.saturating_mul(code.split_takes().len()) >= SPARSE_SHARED
}

/// The splits with a rare part per heap size from which the sparse kernel
/// shares heap sizes among threads ([`sparse_shares`]).
const SPARSE_SHARED: usize = 160;

/// [`sparse_extend`] with the heap sizes shared as `par` says.
pub fn sparse_extend_with(
    code: &Code,
    g: &mut Vec<u16>,
    (n_max, mask): (usize, u32),
    par: Par,
    cancel: &AtomicBool,
) -> Result<(), SparseStop> {
    // Mask 0 would make every value rare (no common value to find). Three
    // common parts xor to a common value: codes leaving three heaps are
    // for the naive kernel only.
    debug_assert!(!code.triples());
    let mask = mask.max(1);
    let takes: Vec<(usize, bool)> = code
        .split_takes()
        .iter()
        .map(|&i| (i, code.unequal(i)))
        .collect();
    let mut sparse = Sparse {
        code,
        takes: &takes,
        rare_at: (1..g.len()).filter(|&a| rare(g[a] as u32, mask)).collect(),
        mask,
    };
    let mut own = SparseScratch::new();
    let pool = Scratch::new(par.threads, SparseScratch::new);
    let scratch = (&mut own, &pool);
    extend_narrow(
        &mut sparse,
        (code, &takes),
        g,
        (n_max, par),
        scratch,
        cancel,
    )
}

/// One thread's marks and list for the sparse kernel.
struct SparseScratch {
    seen: Seen,
    missing: Vec<u32>,
}

impl SparseScratch {
    fn new() -> SparseScratch {
        SparseScratch {
            seen: Seen::new(),
            missing: Vec::new(),
        }
    }
}

/// What the sparse kernel reads for a heap size, and its rare positions.
struct Sparse<'a> {
    code: &'a Code,
    takes: &'a [(usize, bool)],
    /// The rare positions below the heap sizes being computed.
    rare_at: Vec<usize>,
    mask: u32,
}

impl Narrow for Sparse<'_> {
    type Scratch = SparseScratch;

    /// The splits with a rare part marked, then the rare values missing
    /// below the smallest common one searched for ([`find_rare`]).
    fn gap(
        &self,
        (g, back): (&[u16], &[u16]),
        (n, old): (usize, usize),
        s: &mut SparseScratch,
    ) -> u32 {
        let (mask, seen) = (self.mask, &mut s.seen);
        seen.next();
        mark_simple(self.code, g, (n, old), |v| seen.mark(v));
        let mut takes = self.takes;
        if old == n {
            // The rare parts of a split of every take at once.
            let fused = mark_fused(g, &self.rare_at, n, takes, seen);
            takes = &takes[fused..];
        }
        for &(i, unequal) in takes {
            if n < i + 2 {
                continue;
            }
            let r = n - i;
            // The other part `r − a` below `old`.
            let from = if r >= old {
                self.rare_at.partition_point(|&a| a + old <= r)
            } else {
                0
            };
            for &a in &self.rare_at[from..] {
                if a >= r {
                    break;
                }
                if !(unequal && 2 * a == r) {
                    seen.mark((g[a] ^ g[r - a]) as u32);
                }
            }
        }
        // The smallest common value `c` no move reaches, and the rare ones
        // below it that no split with a rare part reaches.
        s.missing.clear();
        let mut c = 0;
        while seen.has(c) || rare(c, mask) {
            if !seen.has(c) {
                s.missing.push(c);
            }
            c += 1;
        }
        if s.missing.is_empty() {
            c
        } else {
            find_rare((g, back), self.takes, (n, old), &mut s.missing, seen).unwrap_or(c)
        }
    }

    fn record(&mut self, _: &[u16], (n, v): (usize, u32), _: &mut SparseScratch) {
        if n > 0 && rare(v, self.mask) {
            self.rare_at.push(n);
        }
    }
}

/// Marks the values of the splits of `n` with a rare part, for up to four
/// takes at once (each rare position read once for all of them): the
/// parts below the smallest `r = n − i`, then the rest of each take's.
/// Returns how many of `takes` it marked: all, or none when a take has
/// too few parts or keeps the parts unequal (the per-take loop's cases).
fn mark_fused(
    g: &[u16],
    rare_at: &[usize],
    n: usize,
    takes: &[(usize, bool)],
    seen: &mut Seen,
) -> usize {
    let Some(&(last, _)) = takes.last() else {
        return 0;
    };
    if n < last + 2 || takes.iter().any(|t| t.1) {
        return 0;
    }
    let k = rare_at.partition_point(|&a| a < n - last);
    let (both, rest) = rare_at.split_at(k);
    let rs = |j: usize| n - takes[j].0;
    match takes.len() {
        1 => mark_parts(g, both, [rs(0)], seen),
        2 => mark_parts(g, both, [rs(0), rs(1)], seen),
        3 => mark_parts(g, both, [rs(0), rs(1), rs(2)], seen),
        4 => mark_parts(g, both, [rs(0), rs(1), rs(2), rs(3)], seen),
        _ => return 0,
    }
    for j in 0..takes.len() - 1 {
        let r = rs(j);
        for &a in rest.iter().take_while(|&&a| a < r) {
            seen.mark((g[a] ^ g[r - a]) as u32);
        }
    }
    takes.len()
}

/// Marks `G(a) ⊕ G(r − a)` for the parts `a` in `parts` (each below every
/// `r` of `rs`) and every `r`.
#[inline(always)]
fn mark_parts<const T: usize>(g: &[u16], parts: &[usize], rs: [usize; T], seen: &mut Seen) {
    for &a in parts {
        let ga = g[a];
        for r in rs {
            seen.mark((ga ^ g[r - a]) as u32);
        }
    }
}

/// Parts of each take looked at for every missing rare value at once,
/// before each one left is searched for by value (most are found among
/// the first few parts).
const FIRST_PARTS: usize = 64;

/// Up to this many missing values, each is compared with the first splits'
/// values in vector instructions rather than the values marked.
const FEW_MISSING: usize = 4;

/// Looks for the rare values `missing` (ascending, below the candidate)
/// among the splits of `n`: the first [`FIRST_PARTS`] parts of each take
/// (with few values sought, each compared with them all in vector
/// instructions; with more, their values marked in `seen` and the values
/// reached dropped), then each value left, smallest first, by value
/// ([`search`]); returns the smallest one that no split reaches, or `None`
/// when every one is reached.
fn find_rare(
    (g, back): (&[u16], &[u16]),
    takes: &[(usize, bool)],
    (n, old): (usize, usize),
    missing: &mut Vec<u32>,
    seen: &mut Seen,
) -> Option<u32> {
    // A take at a time: the parts `a` ascend in `g`, the larger parts
    // `r − a` in `back` (`back[n_max − m] = G(m)`), so the values of the
    // first splits are one vector xor of two slices.
    let mut xs = [0u16; FIRST_PARTS];
    for &(i, unequal) in takes {
        if n < i + 2 {
            continue;
        }
        let r = n - i;
        // The larger part `r − a` below `old`.
        let lo = (r + 1).saturating_sub(old).max(1);
        let hi = FIRST_PARTS.min(last_part(r, unequal));
        if lo > hi {
            continue;
        }
        let at = back.len() - r;
        for ((x, &p), &q) in xs
            .iter_mut()
            .zip(&g[lo..=hi])
            .zip(&back[at + lo - 1..at + hi])
        {
            *x = p ^ q;
        }
        let xs = &xs[..=hi - lo];
        if missing.len() <= FEW_MISSING {
            missing.retain(|&m| !xs.iter().fold(false, |f, &x| f | (u32::from(x) == m)));
        } else {
            for &x in xs {
                seen.mark(u32::from(x));
            }
            missing.retain(|&m| !seen.has(m));
        }
        if missing.is_empty() {
            return None;
        }
    }
    missing.iter().copied().find(|&v| {
        v > u16::MAX as u32
            || search((g, back), takes, 3, (n, old), v as u16, FIRST_PARTS + 1).is_none()
    })
}

/// The mask with the fewest rare positions in `1..g.len()` (ties: the
/// smallest mask), and that count; masks range over the bits of the largest
/// value seen.
pub fn best_mask(g: &[u32]) -> (u32, usize) {
    let top = g.iter().copied().max().unwrap_or(0);
    let bits = 32 - top.leading_zeros();
    let limit = 1u32 << bits.min(10);
    let mut best = (0, usize::MAX);
    for m in 1..limit.max(2) {
        let count = g.iter().skip(1).filter(|&&v| rare(v, m)).count();
        if count < best.1 {
            best = (m, count);
        }
    }
    best
}
