//! The kernel's hot loop: blocks in popcount layers (in parallel), tiles
//! pulling from final tiles, leaves and cross steps inside a tile, and the
//! per-word finalisation (see the module docs). Everything here runs per
//! word of the table; the whole-word loops are compiled for AVX2 when the
//! CPU has it.

use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Result, bail};
use rayon::prelude::*;

use super::counts::count_into;
use super::plan::{Group, Low, Plan};

/// Words per chunk when a group has several low parts (fits in L1).
pub(super) const CHUNK: usize = 256;

impl Plan {
    /// Turns word `w`'s accumulated N bits into its P bits.
    #[inline(always)]
    pub(super) fn finalize(&self, w: u64, n_acc: u64) -> u64 {
        #[cfg(test)]
        self.ops.fetch_add(self.word_own_ops(), Ordering::Relaxed);
        let mut base = !n_acc;
        if self.misere && base != 0 && w & self.always_movable == 0 {
            let mut h = 0u64;
            for e in &self.has_move {
                if w & e.mh == e.mh && w & e.bh == 0 {
                    h |= e.legal;
                    if h == !0 {
                        break;
                    }
                }
            }
            base &= h;
        }
        if base == 0 || (self.inword.is_empty() && self.inword_blocked.is_empty()) {
            return base;
        }
        if let Some(c) = &self.chunks {
            return c.solve(base);
        }
        let mut p = base;
        loop {
            let mut reach = 0u64;
            for m in &self.inword {
                reach |= m.route(p);
            }
            for m in &self.inword_blocked {
                if w & m.bh == 0 {
                    reach |= m.low.route(p);
                }
            }
            let q = base & !reach;
            if q == p {
                return p;
            }
            p = q;
        }
    }

    /// Solves the `len` words `base..base + len` of one block, tile by tile,
    /// and adds their P-positions to `counts`.
    ///
    /// # Safety
    ///
    /// `all` points to the whole table; nobody else reads or writes words
    /// `base..base + len` meanwhile, and every word below `base` that a move
    /// from this block can reach (`base | l` minus a word part) is final and
    /// not written meanwhile.
    pub(super) unsafe fn solve_block(&self, all: Words, base: u64, len: usize, counts: &mut [u64]) {
        let tile = 1usize << self.tile_bits;
        let high = !(tile as u64 - 1);
        for s in (0..len).step_by(tile) {
            let w0 = base | s as u64;
            // SAFETY: words w0..w0 + tile lie in this block, which only this
            // call touches (caller's contract); no other reference to them
            // exists while `dst` lives.
            let dst = unsafe { std::slice::from_raw_parts_mut(all.at(w0), tile) };
            for g in &self.far {
                let mh = g.mh & high;
                if w0 & mh != mh || w0 & g.bh & high != 0 {
                    continue;
                }
                let from = w0 ^ mh;
                // SAFETY: `mh` is a non-zero part of w0's bits above the tile,
                // so the source tile from..from + tile is a different, earlier
                // tile: in this block (finished by the loop already) or in a
                // block with fewer top bits (final, caller's contract). It does
                // not overlap `dst` and nobody writes it meanwhile.
                let src = unsafe { std::slice::from_raw_parts(all.at(from), tile) };
                self.apply(dst, src, g.mh & !high, g.bh & !high, g);
            }
            self.solve_tile(dst, w0);
            count_into(dst, w0, counts);
        }
    }

    /// Solves the words of one tile (`words[l]` is word `base | l`), all
    /// of whose children outside the tile are final and already pulled in.
    ///
    /// This is the divide and conquer of the module docs unrolled into a loop:
    /// leaves in increasing order, and after the leaf ending at local index
    /// `e`, the one cross step whose lower half ends there (level
    /// `t = trailing_zeros(e)`, lower half `e - 2^t .. e`, upper half
    /// `e .. e + 2^t`).
    pub(super) fn solve_tile(&self, words: &mut [u64], base: u64) {
        let len = words.len();
        let leaf = 1usize << self.leaf_bits;
        let mut start = 0;
        while start < len {
            self.leaf(&mut words[start..start + leaf], base | start as u64);
            let e = start + leaf;
            let t = e.trailing_zeros();
            if e < len {
                let node = base | (e - (1 << t)) as u64;
                let (lo, hi) = words[e - (1 << t)..e + (1 << t)].split_at_mut(1 << t);
                let below = (1u64 << t) - 1;
                for g in &self.by_top[t as usize] {
                    if g.bh & node & !below != 0 {
                        continue;
                    }
                    self.apply(hi, lo, g.mh & below, g.bh & below, g);
                }
            }
            start = e;
        }
    }

    /// [`apply`] with AVX2 when the CPU has it.
    #[inline(always)]
    pub(super) fn apply(&self, dst: &mut [u64], src: &[u64], mh: u64, bh: u64, g: &Group) {
        #[cfg(test)]
        self.ops.fetch_add(
            (dst.len() as u64 >> (mh | bh).count_ones())
                * (u64::from(g.ident) + g.lows.len() as u64),
            Ordering::Relaxed,
        );
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is set only when the CPU has AVX2.
            unsafe { apply_avx2(dst, src, mh, bh, g) };
            return;
        }
        apply(dst, src, mh, bh, g);
    }

    /// The per-word loop over a leaf (2^leaf_bits words).
    pub(super) fn leaf(&self, words: &mut [u64], base: u64) {
        debug_assert_eq!(words.len(), self.leaf_order.len());
        for &l in &self.leaf_order {
            let l = l as usize;
            let w = base | l as u64;
            let mut acc = words[l];
            let (s, e) = self.leaf_range[l];
            #[cfg(test)]
            self.ops.fetch_add(u64::from(e - s), Ordering::Relaxed);
            for m in &self.leaf_moves[s as usize..e as usize] {
                if w & m.bh == 0 {
                    acc |= m.low.route(words[l ^ m.mh as usize]);
                }
            }
            words[l] = self.finalize(w, acc);
        }
    }
}

/// [`apply`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) fn apply_avx2(dst: &mut [u64], src: &[u64], mh: u64, bh: u64, g: &Group) {
    apply_impl(dst, src, mh, bh, g);
}

/// `dst[u] |= g(src[u ^ mh])` for every local index `u ⊇ mh` with `u ∩ bh = ∅`
/// (`dst`, `src` of equal power-of-two length, `mh`, `bh` below it).
pub(super) fn apply(dst: &mut [u64], src: &[u64], mh: u64, bh: u64, g: &Group) {
    apply_impl(dst, src, mh, bh, g);
}

#[inline(always)]
pub(super) fn apply_impl(dst: &mut [u64], src: &[u64], mh: u64, bh: u64, g: &Group) {
    let len = dst.len();
    debug_assert!(len.is_power_of_two() && src.len() == len);
    let cons = mh | bh;
    if len >= LANES && cons & LANE_BITS != 0 {
        return apply_lanes(dst, src, mh, bh, g);
    }
    let runs = Runs::new(len, cons, mh);
    let seg = runs.seg;
    for (d, from) in runs {
        let (dst, src) = (&mut dst[d..d + seg], &src[from..from + seg]);
        if seg == 1 {
            dst[0] |= g.route(src[0]);
        } else {
            match g.lows.len() {
                0 => fused::<0>(dst, src, g),
                1 => fused::<1>(dst, src, g),
                2 => fused::<2>(dst, src, g),
                3 => fused::<3>(dst, src, g),
                4 => fused::<4>(dst, src, g),
                _ => chunked(dst, src, g),
            }
        }
    }
}

/// The runs of the sub-cube of a `len`-word tile (local indices `u ⊇ mh`,
/// `u ∩ (cons ∖ mh) = ∅`): each item `(d, from)` says that destination words
/// `d..d + seg` read source words `from..from + seg`. Runs are `seg` words
/// long (up to the lowest constrained bit); `s` walks the subsets of the free
/// bits above them. An iterator rather than a callback, so that the loop
/// body stays in the caller (compiled for AVX2 there).
pub(super) struct Runs {
    pub(super) seg: usize,
    pub(super) free: u64,
    pub(super) mh: u64,
    pub(super) s: u64,
    pub(super) done: bool,
}

impl Runs {
    #[inline(always)]
    pub(super) fn new(len: usize, cons: u64, mh: u64) -> Runs {
        let c = if cons == 0 {
            len.trailing_zeros()
        } else {
            cons.trailing_zeros().min(len.trailing_zeros())
        };
        let seg = 1usize << c;
        Runs {
            seg,
            free: !cons & (len as u64 - 1) & !(seg as u64 - 1),
            mh,
            s: 0,
            done: false,
        }
    }
}

impl Iterator for Runs {
    type Item = (usize, usize);
    #[inline(always)]
    fn next(&mut self) -> Option<(usize, usize)> {
        if self.done {
            return None;
        }
        let s = self.s;
        if s == self.free {
            self.done = true;
        } else {
            self.s = s.wrapping_sub(self.free) & self.free;
        }
        Some(((s | self.mh) as usize, s as usize))
    }
}

/// Words handled as one unit by [`apply_lanes`] (two AVX2 registers).
pub(super) const LANES: usize = 8;
/// The local word bits inside such a unit.
pub(super) const LANE_BITS: u64 = LANES as u64 - 1;

/// [`apply_impl`] for a sub-cube constrained in its lowest three word bits,
/// whose runs would be 1, 2 or 4 words long: it runs over whole 8-word
/// units instead, destination word `l` of a unit reading source word
/// `l ^ (mh & 7)` of the same unit (a fixed lane permutation, compiled per
/// value), and keeps only the lanes inside the sub-cube.
#[inline(always)]
pub(super) fn apply_lanes(dst: &mut [u64], src: &[u64], mh: u64, bh: u64, g: &Group) {
    let len = dst.len();
    let (ml, bl) = (mh & LANE_BITS, bh & LANE_BITS);
    let keep: [u64; LANES] = std::array::from_fn(|l| {
        let l = l as u64;
        if l & ml == ml && l & bl == 0 { !0 } else { 0 }
    });
    let cons = (mh | bh) & !LANE_BITS;
    let runs = Runs::new(len, cons, mh & !LANE_BITS);
    let seg = runs.seg;
    for (d, from) in runs {
        let (dst, src) = (&mut dst[d..d + seg], &src[from..from + seg]);
        seq_macro::seq!(M in 0..8 {
            match (ml, g.lows.len()) {
                #(
                    (M, 0) => lanes::<M, 0>(dst, src, &keep, g),
                    (M, 1) => lanes::<M, 1>(dst, src, &keep, g),
                    (M, 2) => lanes::<M, 2>(dst, src, &keep, g),
                    (M, 3) => lanes::<M, 3>(dst, src, &keep, g),
                )*
                _ => lanes_any(dst, src, ml as usize, &keep, g),
            }
        });
    }
}

/// `dst[u] |= g(src[u ^ M]) & keep[u % 8]`, all `K` low parts per word.
#[inline(always)]
pub(super) fn lanes<const M: usize, const K: usize>(
    dst: &mut [u64],
    src: &[u64],
    keep: &[u64; LANES],
    g: &Group,
) {
    let lows: [Low; K] = std::array::from_fn(|i| g.lows[i]);
    let ident = if g.ident { !0u64 } else { 0 };
    for (d, s) in dst.chunks_exact_mut(LANES).zip(src.chunks_exact(LANES)) {
        let s: [u64; LANES] = std::array::from_fn(|l| s[l ^ M]);
        for l in 0..LANES {
            let mut r = s[l] & ident;
            for low in &lows {
                r |= low.route(s[l]);
            }
            d[l] |= r & keep[l];
        }
    }
}

/// [`lanes`] for any lane permutation and number of low parts.
pub(super) fn lanes_any(dst: &mut [u64], src: &[u64], m: usize, keep: &[u64; LANES], g: &Group) {
    for (d, s) in dst.chunks_exact_mut(LANES).zip(src.chunks_exact(LANES)) {
        for l in 0..LANES {
            d[l] |= g.route(s[l ^ m]) & keep[l];
        }
    }
}

/// One pass, all `K` low parts of the group per word (vectorises).
#[inline(always)]
pub(super) fn fused<const K: usize>(dst: &mut [u64], src: &[u64], g: &Group) {
    let lows: [Low; K] = std::array::from_fn(|i| g.lows[i]);
    let keep = if g.ident { !0u64 } else { 0 };
    for (d, &s) in dst.iter_mut().zip(src) {
        let mut r = s & keep;
        for l in &lows {
            r |= l.route(s);
        }
        *d |= r;
    }
}

/// Many low parts: one pass per low part over L1-sized chunks.
#[inline(always)]
pub(super) fn chunked(dst: &mut [u64], src: &[u64], g: &Group) {
    for (dc, sc) in dst.chunks_mut(CHUNK).zip(src.chunks(CHUNK)) {
        if g.ident {
            for (d, s) in dc.iter_mut().zip(sc) {
                *d |= *s;
            }
        }
        for low in &g.lows {
            let low = *low;
            for (d, s) in dc.iter_mut().zip(sc) {
                *d |= low.route(*s);
            }
        }
    }
}

/// Raw table pointer shared by the workers of one layer: word `w` (global
/// word index) lives at `ptr + (w - first)`; `first` is 0 for the whole
/// table and the slice's first word for a [`SliceKernel`](super::SliceKernel) slice.
#[derive(Clone, Copy)]
pub(super) struct Words {
    pub(super) ptr: *mut u64,
    pub(super) first: u64,
}

impl Words {
    /// Where global word `w` lives.
    ///
    /// # Safety
    ///
    /// `w - first` lies inside the allocation `ptr` points into.
    #[inline(always)]
    pub(super) unsafe fn at(self, w: u64) -> *mut u64 {
        // SAFETY: the caller's contract.
        unsafe { self.ptr.add((w - self.first) as usize) }
    }
}
// SAFETY: the pointer is only turned into slices under the layer discipline
// described at the use site (disjoint mutable blocks, read-only final blocks).
unsafe impl Send for Words {}
// SAFETY: as above.
unsafe impl Sync for Words {}

/// Solves the blocks `first + b` (global block indices, 2^lb words each) for
/// `b` in `0..2^local_top`, in layers by `popcount(b)`, the blocks of a layer
/// in parallel; `before(b, block)` runs on a block's words just before it is
/// solved (a sliced solve pulls the moves from other slices there). Returns
/// the P-positions per piece count (`n + 8` entries).
///
/// # Safety
///
/// `all` covers the words of these blocks, and every word below them that a
/// group of `plan` pulls into them (final, not written meanwhile); nothing
/// else touches those words while the layers run.
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn run_layers<B>(
    plan: &Plan,
    all: Words,
    first: u64,
    local_top: u32,
    n: usize,
    block_positions: u64,
    progress: &(dyn Fn(u64) + Sync),
    cancel: &AtomicBool,
    before: &B,
) -> Result<Vec<u64>>
where
    B: Fn(u64, &mut [u64]) -> Result<()> + Sync + ?Sized,
{
    let lb = plan.lb;
    let block = 1usize << lb;
    let mut counts = vec![0u64; n + 8];
    let nblocks = 1u64 << local_top;
    for k in 0..=local_top {
        let layer: Vec<u64> = (0..nblocks).filter(|b| b.count_ones() == k).collect();
        let layer_counts = layer
            .par_iter()
            .map(|&b| -> Result<Vec<u64>> {
                if cancel.load(Ordering::Relaxed) {
                    bail!("cancelled");
                }
                let base = (first + b) << lb;
                // SAFETY: the blocks of one layer are distinct, so block b is
                // touched by this task only (caller's contract: by nobody
                // else); a move from block b reaches either block b itself
                // (earlier words) or a block b ^ t (t ⊆ b, t ≠ 0) with fewer
                // bits set, finished in an earlier layer and read-only now,
                // or words below the blocks (final, caller's contract).
                let words = unsafe { std::slice::from_raw_parts_mut(all.at(base), block) };
                before(b, words)?;
                let mut c = vec![0u64; n + 8];
                // SAFETY: as above; `words` is not used any more.
                unsafe { plan.solve_block(all, base, block, &mut c) };
                progress(block_positions);
                Ok(c)
            })
            .try_reduce(
                || vec![0u64; n + 8],
                |mut a, b| {
                    for (x, y) in a.iter_mut().zip(&b) {
                        *x += y;
                    }
                    Ok(a)
                },
            )?;
        for (x, y) in counts.iter_mut().zip(&layer_counts) {
            *x += y;
        }
    }
    Ok(counts)
}
