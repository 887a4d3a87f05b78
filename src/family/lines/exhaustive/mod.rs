//! Exhaustive retrograde analysis of a `lines` board: the outcome (P or N) of
//! every one of the 2^n subsets of an n-piece board, one bit per position.
//!
//! # Positions and moves
//!
//! Pieces are numbered `0..n` (n ≤ 40); a position is a subset `x` (bit i set
//! when piece i is present). A [`Move`] `(mask, blockers)` is legal in `x` when
//! `x & mask == mask && x & blockers == 0` and leads to `x ^ mask`, always a
//! smaller number. A position is P when it has at least one move and no move
//! reaches a P-position; a position without moves is P in normal play and N
//! in misère play.
//!
//! # Layout
//!
//! Position `x` lives in word `w = x >> 6`, bit `i = x & 63`. Every move splits
//! into a *word part* `(mh, bh) = (mask >> 6, blockers >> 6)` and a *low part*
//! `(ml, bl) = (mask & 63, blockers & 63)`. For the 64 positions of word `w`
//! the move is legal for all-or-none on the word part (`w ⊇ mh`, `w ∩ bh = ∅`),
//! and then for exactly the low patterns `i ⊇ ml`, `i ∩ bl = ∅`. Its child is
//! bit `i ^ ml = i - ml` of word `w ^ mh`. So, for a whole word at once,
//!
//! ```text
//! N[w] |= ((P[w ^ mh] & Z(ml)) << ml) & A(bl)
//! ```
//!
//! where `Z(ml)` is the set of bit indices `j` with `j & ml == 0` (the children
//! that have room for the move's low pieces) and `A(bl)` the set of `i` with
//! `i & bl == 0`. A move with `ml = bl = 0` is a plain `N[w] |= P[w ^ mh]`.
//! Moves with the same word part are grouped: one read of the child word,
//! one shift/mask per distinct low part.
//!
//! # Order: every child final before it is read
//!
//! One `u64` per word, in place: before word `w` is final its slot
//! accumulates `N` (positions known to reach a P-position); finalising turns
//! it into `P`. Only one array of 2^n bits is ever allocated.
//!
//! * **Blocks in popcount layers (parallel).** The word index is split into
//!   `T` top bits (the block; at least 8 for load balance) and `lb ≤ 20` local
//!   bits. A move whose word part touches the top bits leads to a block whose
//!   index has fewer bits set, so blocks are processed in layers by popcount
//!   of the block index; the blocks of a layer are independent and run in
//!   parallel (rayon).
//! * **Tiles** (4096 words, 32 KiB). A block's tiles run in increasing order.
//!   Before a tile is solved it *pulls* every group whose word part reaches
//!   above the tile bits, from a tile that is already final (an earlier tile
//!   of the block, or a tile of a block of an earlier layer). Each pull is a
//!   loop over contiguous runs of words of the sub-cube `u ⊇ mh, u ∩ bh = ∅`
//!   of the tile, fused over the group's low parts (up to four), compiled for
//!   AVX2 when the CPU has it; a sub-cube constrained in the lowest three
//!   word bits runs over whole 8-word units with a lane permutation and
//!   mask. The destination stays in L1/L2; groups with the same source tile
//!   are consecutive.
//! * **Inside a tile: divide and conquer**, unrolled into a loop: leaves of 16
//!   words in increasing order, and after the leaf ending at `e` the cross
//!   step of level `t = trailing_zeros(e)`: every group whose highest word bit
//!   is t, from the lower half `e - 2^t .. e` into the upper half
//!   `e .. e + 2^t` (exactly the moves from the upper half into the lower one).
//! * **Leaves**: one word at a time, by increasing popcount of the word's
//!   index in the leaf (words of equal popcount are independent, so the CPU
//!   overlaps them). Per word: pull the groups whose word part lies inside the
//!   leaf, then *finalise*: `base = !N`, in misère `& has_move` (all ones as
//!   soon as the word holds a piece that can always be taken alone, else an OR
//!   over the moves' legality masks with an early exit), then the in-word
//!   moves (`mh = 0`, child in the same word), if `base != 0`:
//!   - in general, iterate `P = base & !IN(P)` from `P = base` until it stops
//!     changing (the in-word moves form a DAG of depth ≤ 6, so this reaches the
//!     unique fixpoint in at most 7 rounds; 1.5–1.7 on the triangles);
//!   - when they allow it (no word-level blockers; moves within bits 0..3 with
//!     blockers within bits 0..3 only; every `take: {max: P}`/`any` board) and
//!     n ≥ 20, by `Chunks`: four 16-bit chunks solved by a 2^16-entry table,
//!     in the order 0 | 1, 2 | 3, with the chunk-crossing moves applied to the
//!     whole word in between.
//!
//! P-positions are counted per piece count with one `popcount` per in-word
//! level (`i` with `popcount(i) = j`) on every non-zero word, tile by tile
//! while the tile is in cache.
//!
//! Piece numbering matters only for speed: moves among pieces 0..5 are
//! in-word moves, moves touching pieces 6..9 are pulled word by word, and the
//! highest pieces select the block. The solver renumbers ([`piece_order`]):
//! pairwise independent pieces at the bottom and at the top, so that in-word
//! moves are single-piece moves and a move crossing blocks flips one block
//! bit. [`Exhaustive::is_p`] takes the caller's numbering.
//!
//! # The module by job
//!
//! This file: the solved table and its answers ([`solve`],
//! [`Exhaustive::is_p`], [`memory_bytes`], [`fits`]). `moves` (the
//! kernel's moves, checked), `numbering` (the piece order and
//! positions carried into it), `plan` (the move tables built once, the
//! block, tile and leaf sizes), `kernel` (the hot loop: layers, tiles,
//! leaves, pulls, finalisation; its functions are the only ones allowed
//! past ~80 lines, none is today), `counts` (P-positions per piece count,
//! binomials), [`work`] (the work counted for the cost model), `slice`
//! ([`SliceKernel`], the kernel cut into slices); [`slices`] (the sliced
//! engine and its store) builds on it, and the family's `outofcore` driver
//! (`nimlab board lines`) on that. Tests: `tests` (against a plain per-position reference).

mod counts;
mod kernel;
mod moves;
mod numbering;
mod plan;
mod slice;
pub(crate) mod slices;
#[cfg(test)]
mod tests;
mod work;

use std::sync::atomic::AtomicBool;

use anyhow::Result;

use crate::game::Play;
use crate::mem::{self, zeroed_huge};

pub(crate) use counts::binomials;
use kernel::{Words, run_layers};
use moves::check_moves;
pub use moves::{MAX_PIECES, Move};
pub(crate) use numbering::{adjacency, slice_order, to_solver};
use numbering::{permute, permute_moves, piece_order};
#[cfg(test)]
pub(crate) use plan::TEST_SIZES;
use plan::{Plan, top_bits};
pub(crate) use plan::{SIZES, Sizes};
pub(crate) use slice::slice_block_bits;
pub use slice::{CrossGroup, SliceKernel};
pub use work::work;

/// Why the whole table of a `pieces`-piece board cannot be held in memory,
/// if it cannot (one bit per position, under the case budget).
pub fn fits(pieces: u64) -> Result<(), String> {
    if pieces > 63 {
        return Err(format!(
            "the exhaustive analysis needs one bit for each of the 2^{pieces} positions, far beyond this machine's memory ({})",
            mem::human_bytes(mem::machine_memory().unwrap_or(0))
        ));
    }
    let bytes = memory_bytes(pieces as usize);
    let budget = mem::case_budget();
    if bytes > budget {
        return Err(format!(
            "the exhaustive analysis of {pieces} pieces needs about {} (2^{pieces} positions, one bit each); {}",
            mem::human_bytes(bytes),
            mem::budget_text(budget)
        ));
    }
    Ok(())
}

/// The outcome of every subset of an n-piece board.
#[derive(Clone, Debug)]
pub struct Exhaustive {
    /// Number of pieces.
    pub n: usize,
    /// Bit `y` (word `y >> 6`, bit `y & 63`) is set iff position `y`, in the
    /// solver's piece numbering ([`Exhaustive::is_p`] translates), is a
    /// P-position; `max(1, 2^n / 64)` words, bits ≥ 2^n clear.
    p_bits: Vec<u64>,
    /// `order[i]`: the solver's number for the caller's piece i.
    order: Vec<u8>,
    /// Index k = piece count: (C(n, k) positions, P-positions with k pieces).
    pub counts: Vec<(u64, u64)>,
    /// The word operations the solver counted ([`work`] is checked against it).
    #[cfg(test)]
    ops: u64,
}

impl Exhaustive {
    /// Is position `x` (a subset of `0..n`) a P-position?
    pub fn is_p(&self, x: u64) -> bool {
        debug_assert!(
            self.n >= 64 || x >> self.n == 0,
            "position {x:#x} outside a {}-piece board",
            self.n
        );
        let y = permute(x, &self.order);
        (self.p_bits[(y >> 6) as usize] >> (y & 63)) & 1 == 1
    }
}

/// Peak bytes [`solve`] allocates for an n-piece board: one bit per position
/// (at least one word) plus small move tables.
pub fn memory_bytes(n: usize) -> u64 {
    let bits = 1u64 << n.min(63);
    (bits / 8).max(8) + (1 << 20)
}

/// Solves every position of an `n`-piece board under `moves` and `play`.
///
/// Runs on the current rayon pool; calls `progress` with the number of
/// positions finished since the last call; returns an error soon after
/// `cancel` is set.
pub fn solve(
    n: usize,
    moves: &[Move],
    play: Play,
    progress: &(dyn Fn(u64) + Sync),
    cancel: &AtomicBool,
) -> Result<Exhaustive> {
    solve_sized(n, moves, play, progress, cancel, SIZES)
}

fn solve_sized(
    n: usize,
    moves: &[Move],
    play: Play,
    progress: &(dyn Fn(u64) + Sync),
    cancel: &AtomicBool,
    sizes: Sizes,
) -> Result<Exhaustive> {
    check_moves(n, moves, MAX_PIECES)?;
    let full = (1u64 << n) - 1;
    let order = piece_order(n, moves, top_bits(n, sizes) as usize);
    let moves = permute_moves(moves, &order, full);
    let plan = Plan::new(n, &moves, play, sizes);
    let nh = n.saturating_sub(6) as u32;
    let lb = plan.lb;
    let top_bits = nh - lb;
    let mut words: Vec<u64> = zeroed_huge(1usize << nh);
    let block_positions = if n < 6 { 1u64 << n } else { 64u64 << lb };
    let all = Words {
        ptr: words.as_mut_ptr(),
        first: 0,
    };
    // SAFETY: `all` covers the whole table (2^top_bits blocks of 2^lb words),
    // so every word a move of the plan reaches lies inside it; nothing else
    // touches `words` while the layers run.
    let mut counts = unsafe {
        run_layers(
            &plan,
            all,
            0,
            top_bits,
            n,
            block_positions,
            progress,
            cancel,
            &|_, _| Ok(()),
        )?
    };
    if n < 6 {
        // Bits ≥ 2^n are not positions (they were computed as if they were).
        let extra = words[0] & !((1u64 << (1u32 << n)) - 1);
        words[0] &= (1u64 << (1u32 << n)) - 1;
        for x in 0..64u64 {
            if extra >> x & 1 == 1 {
                counts[x.count_ones() as usize] -= 1;
            }
        }
    }
    let binom = binomials(n);
    let counts = (0..=n).map(|k| (binom[k], counts[k])).collect();
    Ok(Exhaustive {
        n,
        p_bits: words,
        order,
        counts,
        #[cfg(test)]
        ops: plan.ops.load(std::sync::atomic::Ordering::Relaxed),
    })
}
