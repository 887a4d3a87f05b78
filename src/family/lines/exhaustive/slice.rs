//! The kernel cut into slices by the solver's top pieces ([`SliceKernel`]),
//! for boards whose table does not fit in memory (`slices/`, `outofcore/`).

use std::sync::atomic::AtomicBool;

use anyhow::{Result, bail};

use super::kernel::{Words, run_layers};
use super::moves::{MAX_PIECES, Move, check_moves};
use super::numbering::permute_moves;
use super::plan::{Group, Plan, SIZES, Sizes, block_bits};
use crate::game::Play;

/// A move group that crosses slices (see [`SliceKernel`]): legal in slice
/// `σ` iff `σ ⊇ slice_mask` and `σ ∩ slice_blockers = ∅`, it reads slice
/// `σ ^ slice_mask`; in block `b` of the slice iff `b ⊇ block_mask` and
/// `b ∩ block_blockers = ∅`, from block `b ^ block_mask` of that slice;
/// inside the block it is the kernel's sub-cube pull.
#[derive(Clone, Debug)]
pub struct CrossGroup {
    /// Slice bits the moves remove.
    pub slice_mask: u64,
    /// Slice bits that must be clear.
    pub slice_blockers: u64,
    /// Block-index bits (inside the slice) the moves remove.
    pub block_mask: u64,
    /// Block-index bits that must be clear.
    pub block_blockers: u64,
    /// The moves, word parts inside one block.
    pub(super) group: Group,
}

/// The exhaustive kernel cut into 2^t *slices* by the solver's top t pieces:
/// slice `σ` holds the positions whose top t pieces are `σ`, as a table of
/// 2^(n − t) bits in the solver's numbering without those pieces. A slice is
/// solved like a range of the whole table's blocks, once the moves from other
/// slices ([`CrossGroup`]s, pulled by the caller block by block through
/// [`SliceKernel::pull`]) are in.
pub struct SliceKernel {
    pub(super) n: usize,
    pub(super) t: u32,
    pub(super) plan: Plan,
    pub(super) cross: Vec<CrossGroup>,
}

impl SliceKernel {
    /// The kernel for an n-piece board under `moves` (the caller's numbering)
    /// and `play`, numbered by `order` (as [`piece_order`](super::numbering::piece_order): `order[i]` is the
    /// solver's number of piece i; the slice pieces are those numbered
    /// `n - t .. n`). Needs `n - t ≥ 6`.
    pub fn new(n: usize, moves: &[Move], play: Play, order: &[u8], t: usize) -> Result<Self> {
        Self::with_sizes(n, moves, play, order, t, SIZES)
    }

    pub(crate) fn with_sizes(
        n: usize,
        moves: &[Move],
        play: Play,
        order: &[u8],
        t: usize,
        sizes: Sizes,
    ) -> Result<Self> {
        check_moves(n, moves, 63)?;
        if n - t.min(n) > MAX_PIECES {
            bail!(
                "a slice of a {n}-piece board cut by {t} pieces has 2^{} positions; at most 2^{MAX_PIECES}",
                n - t.min(n)
            );
        }
        if n < t + 6 {
            bail!(
                "a board of {n} pieces cannot be cut by {t} pieces (at least 6 must stay inside a slice)"
            );
        }
        let mut seen = vec![false; n];
        for &o in order {
            if (o as usize) >= n || std::mem::replace(&mut seen[o as usize], true) {
                bail!("the piece numbering is not a permutation of 0..{n}");
            }
        }
        if order.len() != n {
            bail!(
                "the piece numbering has {} entries for {n} pieces",
                order.len()
            );
        }
        let full = (1u64 << n) - 1;
        let moves = permute_moves(moves, order, full);
        let sizes = Sizes {
            slice_bits: t as u32,
            ..sizes
        };
        let mut plan = Plan::new(n, &moves, play, sizes);
        let lw = (n - 6 - t) as u32;
        let lb = plan.lb;
        let (far, crossing): (Vec<Group>, Vec<Group>) =
            plan.far.drain(..).partition(|g| g.mh >> lw == 0);
        plan.far = far;
        let local = (1u64 << lw) - 1;
        let inner = (1u64 << lb) - 1;
        let cross = crossing
            .into_iter()
            .map(|g| CrossGroup {
                slice_mask: g.mh >> lw,
                slice_blockers: g.bh >> lw,
                block_mask: (g.mh & local) >> lb,
                block_blockers: (g.bh & local) >> lb,
                group: Group {
                    mh: g.mh & inner,
                    bh: g.bh & inner,
                    ..g
                },
            })
            .collect();
        Ok(SliceKernel {
            n,
            t: t as u32,
            plan,
            cross,
        })
    }

    /// Words of one slice (2^(n − t − 6)).
    pub fn slice_words(&self) -> usize {
        1 << (self.n - 6 - self.t as usize)
    }

    /// Words of one block (a slice has `slice_words / block_words` blocks).
    pub fn block_words(&self) -> usize {
        1 << self.plan.lb
    }

    /// The moves that cross slices.
    pub fn cross(&self) -> &[CrossGroup] {
        &self.cross
    }

    /// Solves slice `slice` in `words` (`slice_words` words, holding on entry
    /// whatever N bits the caller has already pulled in, zeros otherwise);
    /// `before(b, block)` runs on block b's words just before the block is
    /// solved and must pull every [`CrossGroup`] legal there. Returns the
    /// P-positions of the slice per piece count k = 0..=n.
    pub fn solve(
        &self,
        slice: u64,
        words: &mut [u64],
        before: &(dyn Fn(u64, &mut [u64]) -> Result<()> + Sync),
        progress: &(dyn Fn(u64) + Sync),
        cancel: &AtomicBool,
    ) -> Result<Vec<u64>> {
        assert_eq!(words.len(), self.slice_words(), "slice table size");
        assert!(slice >> self.t == 0, "slice {slice:#x} of {} bits", self.t);
        let lw = (self.n - 6) as u32 - self.t;
        let lb = self.plan.lb;
        let all = Words {
            ptr: words.as_mut_ptr(),
            first: slice << lw,
        };
        // SAFETY: `all` covers the slice (2^(lw − lb) blocks of 2^lb words,
        // global words `slice << lw ..`), and the plan's groups that leave it
        // were moved to `cross` (pulled by `before`); `words` is borrowed
        // mutably for the call, so nothing else touches it.
        let mut counts = unsafe {
            run_layers(
                &self.plan,
                all,
                slice << (lw - lb),
                lw - lb,
                self.n,
                64u64 << lb,
                progress,
                cancel,
                before,
            )?
        };
        counts.truncate(self.n + 1);
        Ok(counts)
    }

    /// `dst |= ` the N bits that `groups` bring from `src` (one block each, the
    /// source block of every group; their block and slice conditions are the
    /// caller's): tile by tile, so that the destination tile stays in L1.
    pub fn pull(&self, dst: &mut [u64], src: &[u64], groups: &[&CrossGroup]) {
        debug_assert!(dst.len() == self.block_words() && src.len() == dst.len());
        let tile = (1usize << self.plan.tile_bits).min(dst.len());
        let high = !(tile as u64 - 1);
        for s in (0..dst.len()).step_by(tile) {
            let w0 = s as u64;
            for cg in groups {
                let g = &cg.group;
                let mh = g.mh & high;
                if w0 & mh != mh || w0 & g.bh & high != 0 {
                    continue;
                }
                let from = (w0 ^ mh) as usize;
                self.plan.apply(
                    &mut dst[s..s + tile],
                    &src[from..from + tile],
                    g.mh & !high,
                    g.bh & !high,
                    g,
                );
            }
        }
    }
}

/// The block bits of a sliced solve's slice (see [`SliceKernel`]).
pub(crate) fn slice_block_bits(n: usize, t: usize) -> u32 {
    block_bits(
        n,
        Sizes {
            slice_bits: t as u32,
            ..SIZES
        },
    )
}
