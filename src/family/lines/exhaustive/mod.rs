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

pub(crate) mod outofcore;
pub(crate) mod slices;

use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Result, bail};
use rayon::prelude::*;

use crate::game::Play;
use crate::mem::zeroed_huge;

/// The largest board [`solve`] accepts (2^40 bits = 128 GiB, refused by
/// [`memory_bytes`]-aware callers well before that).
pub const MAX_PIECES: usize = 40;

/// One move: legal in `x` iff `x & mask == mask && x & blockers == 0`; it leads
/// to `x ^ mask`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The pieces removed (non-empty).
    pub mask: u64,
    /// Cells that must be empty (`take: maximal`: the cells just beyond the
    /// run's ends); 0 for `take: {max: P}` and `take: any`.
    pub blockers: u64,
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

/// `x` with bit i moved to bit `order[i]`.
fn permute(x: u64, order: &[u8]) -> u64 {
    let mut y = 0;
    let mut rest = x;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        y |= 1 << order[i];
        rest &= rest - 1;
    }
    y
}

/// Pieces wanted pairwise move-free at the bottom of the numbering: 6 in-word
/// bits and the leaf's word bits.
const FREE_BOTTOM: usize = 6 + LEAF_BITS as usize;

/// The solver's piece numbering (`order[i]` for the caller's piece i).
///
/// Only speed depends on it. Moves among pieces 0..5 are solved inside a
/// word and moves touching pieces 6..9 word by word, so the bottom pieces are
/// pairwise *independent* (no move's mask or blockers holds two of them; on
/// the triangular lattice with runs of at most 3 that is one class of its
/// 3-colouring): their only in-word moves are single-piece ones, and every
/// multi-piece move is a whole-word loop. The `top` highest pieces pick the
/// block a position lies in; independent ones there mean that every move
/// crossing blocks flips a single block bit, so a block reads few other
/// blocks (from main memory, for big boards). The other pieces keep their
/// relative order in between.
fn piece_order(n: usize, moves: &[Move], top: usize) -> Vec<u8> {
    let full = if n == 64 { !0 } else { (1u64 << n) - 1 };
    let adj = adjacency(n, moves);
    let bottom = independent(&adj, full, FREE_BOTTOM);
    let top = independent(&adj, full & !bottom, top);
    let mut order = vec![0u8; n];
    let mut next = 0u8;
    for part in [bottom, full & !bottom & !top, top] {
        for (i, o) in order.iter_mut().enumerate() {
            if part >> i & 1 == 1 {
                *o = next;
                next += 1;
            }
        }
    }
    order
}

/// `adj[i]`: the pieces sharing a move's mask or blockers with piece i.
pub(crate) fn adjacency(n: usize, moves: &[Move]) -> Vec<u64> {
    let full = if n == 64 { !0 } else { (1u64 << n) - 1 };
    let mut adj = vec![0u64; n];
    for m in moves {
        let s = (m.mask | m.blockers) & full;
        let mut rest = s;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            adj[i] |= s & !(1 << i);
            rest &= rest - 1;
        }
    }
    adj
}

/// Up to `want` pieces of `among`, pairwise not adjacent in `adj`: greedily,
/// the least connected next, from every start; the largest set found.
fn independent(adj: &[u64], among: u64, want: usize) -> u64 {
    let mut best = 0u64;
    let mut starts = among;
    while starts != 0 && (best.count_ones() as usize) < want {
        let start = starts.trailing_zeros() as usize;
        starts &= starts - 1;
        let mut set = 1u64 << start;
        let mut avail = among & !adj[start] & !set;
        while (set.count_ones() as usize) < want && avail != 0 {
            let mut pick = (u32::MAX, 0);
            let mut rest = avail;
            while rest != 0 {
                let v = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let deg = (adj[v] & avail).count_ones();
                if deg < pick.0 {
                    pick = (deg, v);
                }
            }
            set |= 1 << pick.1;
            avail &= !adj[pick.1] & !(1 << pick.1);
        }
        if set.count_ones() > best.count_ones() {
            best = set;
        }
    }
    best
}

/// The work of [`solve`] on an `n`-piece board under `moves` and `play`, for
/// the cost model, counted from its plan without solving: word operations,
/// and whether its in-word moves have blockers (`take: maximal`: solved by
/// rounds to a fixpoint, as on boards under 20 pieces, where the other rules
/// look up a table). One
/// operation is a move applied to one word of 64 positions (a low part of a
/// pulled group over its sub-cube, a move the leaf loop examines), plus per
/// word one for the word itself and one pass of its in-word moves (the
/// chunk table's four lookups and the moves crossing chunks twice, or each
/// in-word move once; further rounds of the fixpoint are not counted).
/// `None` beyond [`MAX_PIECES`].
pub fn work(n: usize, moves: &[Move], play: Play) -> Option<(u64, bool)> {
    if n > MAX_PIECES || check_moves(n, moves, MAX_PIECES).is_err() {
        return None;
    }
    let full = (1u64 << n) - 1;
    let order = piece_order(n, moves, top_bits(n, SIZES) as usize);
    let moves = permute_moves(moves, &order, full);
    let plan = Plan::build(n, &moves, play, SIZES, false);
    let nh = n.saturating_sub(6) as u32;
    let rounds = plan.chunks.is_none() && plan.word_own_ops() > 1;
    Some((plan.word_ops(nh), rounds))
}

/// Peak bytes [`solve`] allocates for an n-piece board: one bit per position
/// (at least one word) plus small move tables.
pub fn memory_bytes(n: usize) -> u64 {
    let bits = 1u64 << n.min(63);
    (bits / 8).max(8) + (1 << 20)
}

/// Word bits of a tile (2^12 words = 32 KiB, L1-sized): moves reaching above
/// it are pulled tile by tile, just before the tile is solved.
const TILE_BITS: u32 = 12;
/// Boards from this size on solve in-word moves with [`Chunks`] (building its
/// 128 KiB table costs about a millisecond).
const CHUNK_TABLE_MIN_PIECES: usize = 20;
/// Word bits handled by the per-word leaf loop.
const LEAF_BITS: u32 = 4;
/// Largest block (local word bits) of the parallel layer scheme: 2^20 words =
/// 8 MiB, so that a block and the sources it pulls from stay in L3.
const MAX_BLOCK_BITS: u32 = 20;
/// Top (block) bits wanted for load balance on a few cores.
const MIN_TOP_BITS: u32 = 8;
/// Words per chunk when a group has several low parts (fits in L1).
const CHUNK: usize = 256;

/// The low part of a move: child bit `j` (with `j & z`) goes to parent bit
/// `j + sh`, kept where `a` allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Low {
    sh: u32,
    z: u64,
    a: u64,
}

impl Low {
    fn new(ml: u64, bl: u64) -> Low {
        let mut z = 0u64;
        let mut a = 0u64;
        for j in 0..64u64 {
            if j & ml == 0 {
                z |= 1 << j;
            }
            if j & bl == 0 {
                a |= 1 << j;
            }
        }
        Low {
            sh: ml as u32,
            z,
            a,
        }
    }
    /// Parent positions reaching a P-child in `p` by this low part.
    #[inline(always)]
    fn route(&self, p: u64) -> u64 {
        ((p & self.z) << self.sh) & self.a
    }
    /// Low patterns where the low part is legal.
    fn legal(&self) -> u64 {
        (self.z << self.sh) & self.a
    }
}

/// Moves sharing one word part.
#[derive(Clone, Debug)]
struct Group {
    mh: u64,
    bh: u64,
    /// Has the identity low part (`ml = bl = 0`): a plain OR.
    ident: bool,
    /// The other low parts.
    lows: Vec<Low>,
}

impl Group {
    #[inline(always)]
    fn route(&self, p: u64) -> u64 {
        let mut r = if self.ident { p } else { 0 };
        for l in &self.lows {
            r |= l.route(p);
        }
        r
    }
}

/// A move inside one word (`mh = 0`), legal for words with `w & bh == 0`.
#[derive(Clone, Copy, Debug)]
struct InMove {
    bh: u64,
    low: Low,
}

/// In-word moves solved by 16-bit chunks: bits 4 and 5 of the low index pick
/// the chunk. Moves inside a chunk (low mask and low blockers within bits
/// 0..4, no word-level blockers) are the same in every chunk, so a 2^16-entry
/// table maps a chunk's candidates (`base` bits) to its P bits. Chunks are
/// final in the order 0, then 1 and 2, then 3; before each step the moves
/// that cross chunks are applied to the whole word from the final chunks.
struct Chunks {
    table: Vec<u16>,
    cross: Vec<Low>,
}

impl Chunks {
    /// The chunks of `inword`, if they allow it; without its table when
    /// `table` is false (only its shape is wanted: [`work`]).
    fn new(inword: &[Low], table: bool) -> Option<Chunks> {
        let (inner, cross): (Vec<Low>, Vec<Low>) = inword.iter().partition(|l| l.sh < 16);
        if inner.iter().any(|l| !chunk_uniform(l)) {
            return None;
        }
        if !table {
            return Some(Chunks {
                table: Vec::new(),
                cross,
            });
        }
        let mut table = vec![0u16; 1 << 16];
        for (b, t) in table.iter_mut().enumerate() {
            let base = b as u64;
            let mut p = base;
            loop {
                let reach = inner.iter().fold(0u64, |r, l| r | l.route(p));
                let q = base & !reach & 0xffff;
                if q == p {
                    break;
                }
                p = q;
            }
            *t = p as u16;
        }
        Some(Chunks { table, cross })
    }

    #[inline(always)]
    fn solve(&self, base: u64) -> u64 {
        let t = |x: u64| self.table[(x & 0xffff) as usize] as u64;
        let mut p = t(base);
        let reach = self.cross.iter().fold(0u64, |r, l| r | l.route(p));
        let b = base & !reach;
        p |= t(b >> 16) << 16 | t(b >> 32) << 32;
        let reach = self.cross.iter().fold(0u64, |r, l| r | l.route(p));
        p | t((base & !reach) >> 48) << 48
    }
}

/// Is a low part inside chunk 0 the same move in all four chunks (its
/// legality `a` repeats with period 16)?
fn chunk_uniform(l: &Low) -> bool {
    let a0 = l.a & 0xffff;
    l.a == a0 | a0 << 16 | a0 << 32 | a0 << 48
}

/// A move pulled word by word inside a leaf.
#[derive(Clone, Copy, Debug)]
struct LeafMove {
    mh: u32,
    bh: u64,
    low: Low,
}

/// Word-level legality and the low patterns it makes movable (misère only).
#[derive(Clone, Copy, Debug)]
struct HasMove {
    mh: u64,
    bh: u64,
    legal: u64,
}

/// Everything the kernel needs, built once from the move list.
struct Plan {
    misere: bool,
    /// Local word bits of a block.
    lb: u32,
    /// Word bits handled by the leaf loop (≤ lb).
    leaf_bits: u32,
    /// Word bits of a tile (≤ lb).
    tile_bits: u32,
    /// Groups whose word part reaches above the tile bits, pulled tile by tile.
    far: Vec<Group>,
    /// `by_top[t]`: groups whose highest word bit is t (leaf_bits ≤ t < tile_bits).
    by_top: Vec<Vec<Group>>,
    /// Moves whose word part lies inside a leaf, flattened: for every local
    /// leaf index l, `leaf_moves[leaf_range[l]]` are the ones with `mh ⊆ l`.
    leaf_moves: Vec<LeafMove>,
    leaf_range: Vec<(u32, u32)>,
    /// The words of a leaf by increasing popcount: words of equal popcount
    /// do not depend on each other, so the CPU overlaps their finalisation.
    leaf_order: Vec<u8>,
    /// In-word moves without word-level blockers, and with.
    inword: Vec<Low>,
    inword_blocked: Vec<InMove>,
    /// The in-word moves solved by 16-bit chunks, when they allow it.
    chunks: Option<Chunks>,
    /// Word bits j whose single piece can always be taken alone (misère: the
    /// word then has a move at every low pattern).
    always_movable: u64,
    has_move: Vec<HasMove>,
    /// The CPU has AVX2 (whole-word loops run 4 words per instruction).
    avx2: bool,
    /// The word operations done (tests: [`work`] is checked against it).
    #[cfg(test)]
    ops: std::sync::atomic::AtomicU64,
}

/// Bits `i` of a word with `popcount(i) == j`, for j = 0..=6.
const LEVELS: [u64; 7] = {
    let mut l = [0u64; 7];
    let mut i = 0;
    while i < 64 {
        l[(i as u64).count_ones() as usize] |= 1 << i;
        i += 1;
    }
    l
};

/// Block, tile and leaf sizes (the constants above; tests shrink them so
/// that small boards go through every path).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sizes {
    min_top_bits: u32,
    max_block_bits: u32,
    tile_bits: u32,
    leaf_bits: u32,
    chunk_min_pieces: usize,
    /// Highest word bits that select a slice ([`SliceKernel`]; 0 for the
    /// whole table): blocks lie inside the rest.
    slice_bits: u32,
}

pub(crate) const SIZES: Sizes = Sizes {
    min_top_bits: MIN_TOP_BITS,
    max_block_bits: MAX_BLOCK_BITS,
    tile_bits: TILE_BITS,
    leaf_bits: LEAF_BITS,
    chunk_min_pieces: CHUNK_TABLE_MIN_PIECES,
    slice_bits: 0,
};

/// The real sizes, and small blocks, tiles and leaves so that boards of
/// 7..20 pieces use every path (several layers of blocks, tiles pulling
/// from tiles of the same block and of other blocks, cross steps, leaves,
/// in-word moves by fixpoint and by chunk table).
#[cfg(test)]
pub(crate) const TEST_SIZES: [Sizes; 5] = [
    SIZES,
    Sizes {
        min_top_bits: 1,
        max_block_bits: 12,
        tile_bits: 6,
        leaf_bits: 0,
        chunk_min_pieces: 99,
        slice_bits: 0,
    },
    Sizes {
        min_top_bits: 2,
        max_block_bits: 6,
        tile_bits: 3,
        leaf_bits: 1,
        chunk_min_pieces: 99,
        slice_bits: 0,
    },
    Sizes {
        min_top_bits: 3,
        max_block_bits: 4,
        tile_bits: 2,
        leaf_bits: 2,
        chunk_min_pieces: 0,
        slice_bits: 0,
    },
    Sizes {
        min_top_bits: 1,
        max_block_bits: 20,
        tile_bits: 0,
        leaf_bits: 0,
        chunk_min_pieces: 6,
        slice_bits: 0,
    },
];

/// Local word bits of a block for an n-piece board (inside a slice when
/// `sz.slice_bits > 0`).
fn block_bits(n: usize, sz: Sizes) -> u32 {
    let nh = n.saturating_sub(6) as u32 - sz.slice_bits;
    if nh <= sz.min_top_bits + sz.leaf_bits {
        nh
    } else {
        (nh - sz.min_top_bits).min(sz.max_block_bits)
    }
}

/// Block-index bits (the highest pieces) for an n-piece board.
fn top_bits(n: usize, sz: Sizes) -> u32 {
    n.saturating_sub(6) as u32 - block_bits(n, sz)
}

/// The word moves grouped by their word parts `(mh, bh)` with their distinct
/// low parts; the moves inside the word (`mh = 0`), each once; and the
/// word-level legality of each `(mh, bh)`, most likely to fill the word
/// first. Moves never legal (masked by their own blockers) are left out.
fn group_moves(moves: &[Move], full: u64) -> (Vec<Group>, Vec<InMove>, Vec<HasMove>) {
    let mut groups: Vec<Group> = Vec::new();
    let mut inword: Vec<InMove> = Vec::new();
    let mut has: Vec<HasMove> = Vec::new();
    for m in moves {
        let blockers = m.blockers & full;
        if m.mask & blockers != 0 {
            continue; // never legal
        }
        let (mh, bh) = (m.mask >> 6, blockers >> 6);
        let (ml, bl) = (m.mask & 63, blockers & 63);
        let low = Low::new(ml, bl);
        match has.iter_mut().find(|h| h.mh == mh && h.bh == bh) {
            Some(h) => h.legal |= low.legal(),
            None => has.push(HasMove {
                mh,
                bh,
                legal: low.legal(),
            }),
        }
        if mh == 0 {
            if !inword.iter().any(|im| im.bh == bh && im.low == low) {
                inword.push(InMove { bh, low });
            }
            continue;
        }
        let g = match groups.iter_mut().find(|g| g.mh == mh && g.bh == bh) {
            Some(g) => g,
            None => {
                groups.push(Group {
                    mh,
                    bh,
                    ident: false,
                    lows: Vec::new(),
                });
                groups.last_mut().unwrap()
            }
        };
        if ml == 0 && bl == 0 {
            g.ident = true;
        } else if !g.lows.contains(&low) {
            g.lows.push(low);
        }
    }
    // Most likely to fill the word first: full legality, then small word parts.
    has.sort_by_key(|h| {
        (
            h.legal != !0,
            h.mh.count_ones() + h.bh.count_ones(),
            h.mh,
            h.bh,
        )
    });
    (groups, inword, has)
}

/// Each leaf index's moves (the groups whose word part lies within it, the
/// identity low part first) as one list and each index's range in it.
fn leaf_table(leaf: &[Group], leaf_bits: u32) -> (Vec<LeafMove>, Vec<(u32, u32)>) {
    let mut leaf_moves = Vec::new();
    let mut leaf_range = Vec::new();
    for l in 0..(1u64 << leaf_bits) {
        let start = leaf_moves.len() as u32;
        for g in leaf.iter().filter(|g| g.mh & l == g.mh) {
            let mh = g.mh as u32;
            if g.ident {
                leaf_moves.push(LeafMove {
                    mh,
                    bh: g.bh,
                    low: Low::new(0, 0),
                });
            }
            leaf_moves.extend(g.lows.iter().map(|&low| LeafMove { mh, bh: g.bh, low }));
        }
        leaf_range.push((start, leaf_moves.len() as u32));
    }
    (leaf_moves, leaf_range)
}

impl Plan {
    fn new(n: usize, moves: &[Move], play: Play, sz: Sizes) -> Plan {
        Plan::build(n, moves, play, sz, true)
    }

    /// [`Plan::new`]; without the chunk table's entries when `table` is
    /// false (a plan to count [`work`] on, not to solve with).
    fn build(n: usize, moves: &[Move], play: Play, sz: Sizes, table: bool) -> Plan {
        let lb = block_bits(n, sz);
        let tile_bits = sz.tile_bits.min(lb);
        let leaf_bits = sz.leaf_bits.min(tile_bits);
        let full = if n == 64 { !0 } else { (1u64 << n) - 1 };

        let (groups, inword, has) = group_moves(moves, full);

        let mut far = Vec::new();
        let mut by_top = vec![Vec::new(); tile_bits as usize];
        let mut leaf = Vec::new();
        for g in groups {
            let t = 63 - g.mh.leading_zeros();
            if t >= tile_bits {
                far.push(g);
            } else if t >= leaf_bits {
                by_top[t as usize].push(g);
            } else {
                leaf.push(g);
            }
        }
        // Pulls from the same source block next to each other.
        far.sort_by_key(|g| (g.mh >> tile_bits, g.mh));
        let (leaf_moves, leaf_range) = leaf_table(&leaf, leaf_bits);
        let always_movable = has
            .iter()
            .filter(|h| h.legal == !0 && h.bh == 0 && h.mh.count_ones() == 1)
            .fold(0, |a, h| a | h.mh);
        let (free, blocked): (Vec<InMove>, Vec<InMove>) =
            inword.into_iter().partition(|m| m.bh == 0);
        let inword: Vec<Low> = free.into_iter().map(|m| m.low).collect();
        let chunks = if blocked.is_empty() && n >= sz.chunk_min_pieces {
            Chunks::new(&inword, table)
        } else {
            None
        };
        Plan {
            misere: play == Play::Misere,
            lb,
            leaf_bits,
            tile_bits,
            far,
            by_top,
            leaf_moves,
            leaf_range,
            leaf_order: {
                let mut o: Vec<u8> = (0..1u8 << leaf_bits).collect();
                o.sort_by_key(|l| l.count_ones());
                o
            },
            inword,
            inword_blocked: blocked,
            chunks,
            always_movable,
            has_move: has,
            avx2: has_avx2(),
            #[cfg(test)]
            ops: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// One word's own operations ([`work`]): one for the word, and one pass
    /// of its in-word moves (the chunk table's four lookups and the moves
    /// crossing chunks twice, or each in-word move once).
    fn word_own_ops(&self) -> u64 {
        let pass = match &self.chunks {
            _ if self.inword.is_empty() && self.inword_blocked.is_empty() => 0,
            Some(c) => 4 + 2 * c.cross.len(),
            None => self.inword.len() + self.inword_blocked.len(),
        };
        1 + pass as u64
    }

    /// The word operations of the whole table ([`work`]), from the plan.
    fn word_ops(&self, nh: u32) -> u64 {
        let words = 1u64 << nh;
        let routes = |g: &Group| u64::from(g.ident) + g.lows.len() as u64;
        let pulled: u64 = self
            .far
            .iter()
            .chain(self.by_top.iter().flatten())
            .map(|g| (words >> (g.mh | g.bh).count_ones()) * routes(g))
            .sum();
        let per_leaf = words >> self.leaf_bits;
        let leaf: u64 = self
            .leaf_range
            .iter()
            .map(|&(s, e)| u64::from(e - s) * per_leaf)
            .sum();
        pulled + leaf + words * self.word_own_ops()
    }

    /// Turns word `w`'s accumulated N bits into its P bits.
    #[inline(always)]
    fn finalize(&self, w: u64, n_acc: u64) -> u64 {
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
    unsafe fn solve_block(&self, all: Words, base: u64, len: usize, counts: &mut [u64]) {
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
    fn solve_tile(&self, words: &mut [u64], base: u64) {
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
    fn apply(&self, dst: &mut [u64], src: &[u64], mh: u64, bh: u64, g: &Group) {
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
    fn leaf(&self, words: &mut [u64], base: u64) {
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

fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// [`apply`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn apply_avx2(dst: &mut [u64], src: &[u64], mh: u64, bh: u64, g: &Group) {
    apply_impl(dst, src, mh, bh, g);
}

/// `dst[u] |= g(src[u ^ mh])` for every local index `u ⊇ mh` with `u ∩ bh = ∅`
/// (`dst`, `src` of equal power-of-two length, `mh`, `bh` below it).
fn apply(dst: &mut [u64], src: &[u64], mh: u64, bh: u64, g: &Group) {
    apply_impl(dst, src, mh, bh, g);
}

#[inline(always)]
fn apply_impl(dst: &mut [u64], src: &[u64], mh: u64, bh: u64, g: &Group) {
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
struct Runs {
    seg: usize,
    free: u64,
    mh: u64,
    s: u64,
    done: bool,
}

impl Runs {
    #[inline(always)]
    fn new(len: usize, cons: u64, mh: u64) -> Runs {
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
const LANES: usize = 8;
/// The local word bits inside such a unit.
const LANE_BITS: u64 = LANES as u64 - 1;

/// [`apply_impl`] for a sub-cube constrained in its lowest three word bits,
/// whose runs would be 1, 2 or 4 words long: it runs over whole 8-word
/// units instead, destination word `l` of a unit reading source word
/// `l ^ (mh & 7)` of the same unit (a fixed lane permutation, compiled per
/// value), and keeps only the lanes inside the sub-cube.
#[inline(always)]
fn apply_lanes(dst: &mut [u64], src: &[u64], mh: u64, bh: u64, g: &Group) {
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
fn lanes<const M: usize, const K: usize>(
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
fn lanes_any(dst: &mut [u64], src: &[u64], m: usize, keep: &[u64; LANES], g: &Group) {
    for (d, s) in dst.chunks_exact_mut(LANES).zip(src.chunks_exact(LANES)) {
        for l in 0..LANES {
            d[l] |= g.route(s[l ^ m]) & keep[l];
        }
    }
}

/// One pass, all `K` low parts of the group per word (vectorises).
#[inline(always)]
fn fused<const K: usize>(dst: &mut [u64], src: &[u64], g: &Group) {
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
fn chunked(dst: &mut [u64], src: &[u64], g: &Group) {
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

/// Adds the P-positions of `words` (word index `base..`) to `counts` by piece count.
fn count_into(words: &[u64], base: u64, counts: &mut [u64]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has the popcnt instruction (checked just above).
        unsafe { count_popcnt(words, base, counts) };
        return;
    }
    count_words(words, base, counts);
}

/// [`count_words`] compiled with the popcnt instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn count_popcnt(words: &[u64], base: u64, counts: &mut [u64]) {
    count_words(words, base, counts);
}

#[inline(always)]
fn count_words(words: &[u64], base: u64, counts: &mut [u64]) {
    // By level first (`by_level[j][k]`): the seven adds of a word go to
    // seven separate rows, which keeps them scalar and free of store
    // forwarding stalls between words of different popcount.
    let mut by_level = [[0u64; MAX_PIECES + 1]; 7];
    for (l, &p) in words.iter().enumerate() {
        if p == 0 {
            continue;
        }
        let k = (base | l as u64).count_ones() as usize;
        for (row, lv) in by_level.iter_mut().zip(LEVELS) {
            row[k] += (p & lv).count_ones() as u64;
        }
    }
    for (j, row) in by_level.iter().enumerate() {
        for (k, &c) in row.iter().enumerate() {
            if c != 0 {
                counts[k + j] += c;
            }
        }
    }
}

/// The binomial coefficients C(n, 0..=n) (how many positions of each
/// piece count a board of `n` cells has).
pub(crate) fn binomials(n: usize) -> Vec<u64> {
    let mut row = vec![1u64];
    for _ in 0..n {
        let mut next = vec![1u64; row.len() + 1];
        for k in 1..row.len() {
            next[k] = row[k - 1] + row[k];
        }
        row = next;
    }
    row
}

/// Raw table pointer shared by the workers of one layer: word `w` (global
/// word index) lives at `ptr + (w - first)`; `first` is 0 for the whole
/// table and the slice's first word for a [`SliceKernel`] slice.
#[derive(Clone, Copy)]
struct Words {
    ptr: *mut u64,
    first: u64,
}

impl Words {
    /// Where global word `w` lives.
    ///
    /// # Safety
    ///
    /// `w - first` lies inside the allocation `ptr` points into.
    #[inline(always)]
    unsafe fn at(self, w: u64) -> *mut u64 {
        // SAFETY: the caller's contract.
        unsafe { self.ptr.add((w - self.first) as usize) }
    }
}
// SAFETY: the pointer is only turned into slices under the layer discipline
// described at the use site (disjoint mutable blocks, read-only final blocks).
unsafe impl Send for Words {}
// SAFETY: as above.
unsafe impl Sync for Words {}

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
        ops: plan.ops.load(Ordering::Relaxed),
    })
}

/// Refuses boards above `max` pieces, empty masks and pieces ≥ n.
fn check_moves(n: usize, moves: &[Move], max: usize) -> Result<()> {
    if n > max {
        bail!("a board of {n} pieces is too big for exhaustive analysis (at most {max})");
    }
    let full = (1u64 << n) - 1;
    for m in moves {
        if m.mask == 0 {
            bail!("a move removes no piece");
        }
        if m.mask & !full != 0 {
            bail!(
                "a move names piece {} on a board of {n} pieces",
                63 - (m.mask & !full).leading_zeros()
            );
        }
    }
    Ok(())
}

/// The moves in the solver's numbering `order` (blockers outside the board dropped).
fn permute_moves(moves: &[Move], order: &[u8], full: u64) -> Vec<Move> {
    moves
        .iter()
        .map(|m| Move {
            mask: permute(m.mask, order),
            blockers: permute(m.blockers & full, order),
        })
        .collect()
}

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
unsafe fn run_layers<B>(
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
    group: Group,
}

/// The exhaustive kernel cut into 2^t *slices* by the solver's top t pieces:
/// slice `σ` holds the positions whose top t pieces are `σ`, as a table of
/// 2^(n − t) bits in the solver's numbering without those pieces. A slice is
/// solved like a range of the whole table's blocks, once the moves from other
/// slices ([`CrossGroup`]s, pulled by the caller block by block through
/// [`SliceKernel::pull`]) are in.
pub struct SliceKernel {
    n: usize,
    t: u32,
    plan: Plan,
    cross: Vec<CrossGroup>,
}

impl SliceKernel {
    /// The kernel for an n-piece board under `moves` (the caller's numbering)
    /// and `play`, numbered by `order` (as [`piece_order`]: `order[i]` is the
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

/// The solver's numbering for a sliced solve ([`SliceKernel`]): the pieces
/// `top` (the slice pieces) get the highest numbers, in the given order; the
/// pieces `bottom` the lowest (the six in-word pieces; may be empty), then
/// pairwise independent pieces up to ten as in [`piece_order`]; the
/// `local_top` pieces just below the slice pieces (a slice's block index)
/// are pairwise independent and independent of the slice pieces where
/// possible, so that a move from another slice reads one block.
pub(crate) fn slice_order(
    n: usize,
    moves: &[Move],
    top: &[usize],
    bottom: &[usize],
    local_top: usize,
) -> Vec<u8> {
    let full = if n == 64 { !0 } else { (1u64 << n) - 1 };
    let adj = adjacency(n, moves);
    let near = |set: u64| {
        let mut a = set;
        let mut rest = set;
        while rest != 0 {
            a |= adj[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        a
    };
    let s_set = top.iter().fold(0u64, |a, &i| a | 1 << i);
    let b_set = bottom.iter().fold(0u64, |a, &i| a | 1 << i);
    let more = independent(
        &adj,
        full & !s_set & !near(b_set),
        FREE_BOTTOM.saturating_sub(bottom.len()),
    );
    let block = independent(
        &adj,
        full & !s_set & !b_set & !more & !near(s_set),
        local_top,
    );
    let mut order = vec![0u8; n];
    let mut next = 0u8;
    for &i in bottom {
        order[i] = next;
        next += 1;
    }
    for part in [more, full & !s_set & !b_set & !more & !block, block] {
        for (i, o) in order.iter_mut().enumerate() {
            if part >> i & 1 == 1 {
                *o = next;
                next += 1;
            }
        }
    }
    for &i in top {
        order[i] = next;
        next += 1;
    }
    order
}

/// `x` in the solver's numbering `order` (bit i moved to bit `order[i]`).
pub(crate) fn to_solver(x: u64, order: &[u8]) -> u64 {
    permute(x, order)
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

#[cfg(test)]
mod tests {
    use super::super::board::Shape;
    use super::super::rules::{self, Take};
    use super::*;

    /// Obviously correct: one position at a time, children first.
    fn reference(n: usize, moves: &[Move], play: Play) -> Vec<bool> {
        let mut p = vec![false; 1 << n];
        for x in 0..(1u64 << n) {
            let mut any = false;
            let mut reaches_p = false;
            for m in moves {
                if x & m.mask == m.mask && x & m.blockers == 0 {
                    any = true;
                    if p[(x ^ m.mask) as usize] {
                        reaches_p = true;
                    }
                }
            }
            p[x as usize] = if any {
                !reaches_p
            } else {
                play == Play::Normal
            };
        }
        p
    }

    fn run(n: usize, moves: &[Move], play: Play) -> Exhaustive {
        run_sized(n, moves, play, SIZES)
    }

    fn run_sized(n: usize, moves: &[Move], play: Play, sizes: Sizes) -> Exhaustive {
        let done = std::sync::atomic::AtomicU64::new(0);
        let progress = |d| {
            done.fetch_add(d, Ordering::Relaxed);
        };
        let e = solve_sized(n, moves, play, &progress, &AtomicBool::new(false), sizes).unwrap();
        assert_eq!(
            done.load(Ordering::Relaxed),
            1u64 << n,
            "progress adds up to 2^n"
        );
        e
    }

    fn check(n: usize, moves: &[Move], play: Play) {
        let want = reference(n, moves, play);
        for sizes in TEST_SIZES {
            check_against(n, moves, play, &want, sizes);
        }
    }

    fn check_against(n: usize, moves: &[Move], play: Play, want: &[bool], sizes: Sizes) {
        let got = run_sized(n, moves, play, sizes);
        assert_eq!(got.n, n);
        assert_eq!(got.p_bits.len(), (1usize << n.saturating_sub(6)).max(1));
        for (x, &w) in want.iter().enumerate() {
            assert_eq!(
                got.is_p(x as u64),
                w,
                "n={n} play={play:?} {sizes:?} position {x:#b}"
            );
        }
        if n < 6 {
            assert_eq!(got.p_bits[0] >> (1u32 << n), 0, "bits beyond 2^n are clear");
        }
        let mut counts = vec![(0u64, 0u64); n + 1];
        for (x, &w) in want.iter().enumerate() {
            let k = (x as u64).count_ones() as usize;
            counts[k].0 += 1;
            counts[k].1 += w as u64;
        }
        assert_eq!(got.counts, counts, "n={n} play={play:?} {sizes:?} counts");
    }

    /// Small xorshift, so the tests need no extra crate.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, k: u64) -> u64 {
            self.next() % k
        }
    }

    fn random_moves(rng: &mut Rng, n: usize, count: usize, blockers: bool) -> Vec<Move> {
        (0..count)
            .map(|_| {
                let mut mask = 0u64;
                for _ in 0..1 + rng.below(3) {
                    mask |= 1 << rng.below(n as u64);
                }
                let mut b = 0u64;
                if blockers && rng.below(2) == 0 {
                    for _ in 0..1 + rng.below(2) {
                        b |= 1 << rng.below(n as u64);
                    }
                    b &= !mask;
                }
                Move { mask, blockers: b }
            })
            .collect()
    }

    /// The family's triangle of `rows` rows (numbered bottom row first) and
    /// its moves under `take`.
    fn triangle(rows: u32, take: Take) -> (usize, Vec<Move>) {
        let board = Shape::Triangle(rows).board();
        let moves = rules::moves(&board, take).iter().map(Move::from).collect();
        (board.len(), moves)
    }

    #[test]
    fn retro_piece_order_puts_independent_pieces_at_the_bottom() {
        for rows in [7, 8] {
            let (n, moves) = triangle(rows, Take::Max(3));
            let order = piece_order(n, &moves, 8);
            let mut seen = order.clone();
            seen.sort_unstable();
            assert_eq!(seen, (0..n as u8).collect::<Vec<_>>(), "a permutation");
            // No move holds two of the solver's pieces 0..FREE_BOTTOM: the
            // triangle's colour classes have 10 (7 rows) and 12 (8 rows) pieces.
            for m in &moves {
                let bottom = (permute(m.mask, &order) & ((1 << FREE_BOTTOM) - 1)).count_ones();
                assert!(
                    bottom <= 1,
                    "{rows} rows: move {:#x} holds {bottom}",
                    m.mask
                );
            }
        }
        // Row of three, runs of 2: pieces 0 and 2 are independent, 1 is not.
        let m = |mask| Move { mask, blockers: 0 };
        let moves = [m(0b001), m(0b010), m(0b100), m(0b011), m(0b110)];
        assert_eq!(piece_order(3, &moves, 0), vec![0, 2, 1]);
    }

    #[test]
    fn retro_row_of_three_by_hand() {
        // Pieces 0-1-2 in a row, take 1 or 2 adjacent pieces.
        let m = |mask| Move { mask, blockers: 0 };
        let moves = [m(0b001), m(0b010), m(0b100), m(0b011), m(0b110)];
        // Normal: {} P; singles N; {0,1}, {1,2} N (take both); {0,2} P (either
        // single leaves a single); {0,1,2} N (take 1 → {0,2}).
        let e = run(3, &moves, Play::Normal);
        let p: Vec<u64> = (0..8).filter(|&x| e.is_p(x)).collect();
        assert_eq!(p, vec![0b000, 0b101]);
        assert_eq!(e.counts, vec![(1, 1), (3, 0), (3, 1), (1, 0)]);
        // Misère: {} N; singles P (forced to leave {}); every pair can leave a
        // single: N; {0,1,2} takes {0,1} → {2}: N.
        let e = run(3, &moves, Play::Misere);
        let p: Vec<u64> = (0..8).filter(|&x| e.is_p(x)).collect();
        assert_eq!(p, vec![0b001, 0b010, 0b100]);
        assert_eq!(e.counts, vec![(1, 0), (3, 3), (3, 0), (1, 0)]);
        check(3, &moves, Play::Normal);
        check(3, &moves, Play::Misere);
    }

    #[test]
    fn retro_trivial_boards() {
        for play in [Play::Normal, Play::Misere] {
            let e = run(0, &[], play);
            assert_eq!(e.is_p(0), play == Play::Normal);
            assert_eq!(e.counts, vec![(1, (play == Play::Normal) as u64)]);
            // No moves at all: every position is terminal.
            check(9, &[], play);
            let e = run(
                1,
                &[Move {
                    mask: 1,
                    blockers: 0,
                }],
                play,
            );
            assert_eq!(
                e.counts,
                vec![
                    (1, (play == Play::Normal) as u64),
                    (1, (play == Play::Misere) as u64)
                ]
            );
        }
    }

    #[test]
    fn retro_single_row_take_any_is_nim_like() {
        // Maximal runs in a single row: every block of consecutive pieces is a
        // heap removed whole; compare with the reference anyway on 14 pieces.
        let n = 14;
        let mut moves = Vec::new();
        for a in 0..n {
            for b in a..n {
                let mask = ((1u64 << (b + 1)) - 1) & !((1u64 << a) - 1);
                let mut bl = 0;
                if a > 0 {
                    bl |= 1 << (a - 1);
                }
                if b + 1 < n {
                    bl |= 1 << (b + 1);
                }
                moves.push(Move { mask, blockers: bl });
            }
        }
        for play in [Play::Normal, Play::Misere] {
            check(n, &moves, play);
        }
        // Normal play, maximal runs: every position's value is its number of
        // runs mod 2 (each heap has Grundy value 1).
        let e = run(n, &moves, Play::Normal);
        for x in 0..(1u64 << n) {
            let runs = (x & !(x << 1)).count_ones();
            assert_eq!(e.is_p(x), runs % 2 == 0, "{x:#b}");
        }
    }

    #[test]
    fn retro_random_moves_against_reference() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for round in 0..60 {
            let n = 1 + rng.below(20) as usize;
            let count = 1 + rng.below(3 * n as u64 + 4) as usize;
            let blockers = round % 2 == 1;
            let moves = random_moves(&mut rng, n, count, blockers);
            for play in [Play::Normal, Play::Misere] {
                check(n, &moves, play);
            }
        }
    }

    #[test]
    fn retro_random_high_bits_and_blocks() {
        // n large enough for the parallel block layers (n ≥ 6 + 6 + 4 + 1).
        let mut rng = Rng(12345);
        for &n in &[17usize, 18, 19, 20] {
            for blockers in [false, true] {
                let moves = random_moves(&mut rng, n, 3 * n, blockers);
                for play in [Play::Normal, Play::Misere] {
                    check(n, &moves, play);
                }
            }
        }
    }

    #[test]
    fn retro_triangles_against_reference() {
        for rows in 1..=5 {
            for take in rules::SAMPLE_RULES {
                let (n, moves) = triangle(rows, take);
                assert_eq!(n, (rows * (rows + 1) / 2) as usize);
                for play in [Play::Normal, Play::Misere] {
                    check(n, &moves, play);
                }
            }
        }
    }

    #[test]
    fn retro_triangle_6_rows_against_reference() {
        // 21 pieces: the block layers, the recursion and the leaves all active.
        for take in [Take::Max(2), Take::Max(3), Take::Maximal] {
            let (n, moves) = triangle(6, take);
            assert_eq!(n, 21);
            for play in [Play::Normal, Play::Misere] {
                check(n, &moves, play);
            }
        }
    }

    #[test]
    fn retro_reversed_numbering_and_one_thread() {
        // Same board numbered from the other end (many in-word moves), on a
        // one-thread pool: same answer as the reference.
        let (n, moves) = triangle(5, Take::Max(3));
        let rev = |m: u64| {
            (0..n)
                .filter(|&i| m >> i & 1 == 1)
                .fold(0u64, |a, i| a | 1 << (n - 1 - i))
        };
        let moves: Vec<Move> = moves
            .iter()
            .map(|m| Move {
                mask: rev(m.mask),
                blockers: rev(m.blockers),
            })
            .collect();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        pool.install(|| {
            for play in [Play::Normal, Play::Misere] {
                check(n, &moves, play);
            }
        });
    }

    #[test]
    fn retro_cancel_and_bad_input() {
        let (n, moves) = triangle(6, Take::Max(3));
        let cancel = AtomicBool::new(true);
        assert!(solve(n, &moves, Play::Misere, &|_| {}, &cancel).is_err());
        let no = AtomicBool::new(false);
        assert!(solve(41, &[], Play::Misere, &|_| {}, &no).is_err());
        assert!(
            solve(
                3,
                &[Move {
                    mask: 0,
                    blockers: 0
                }],
                Play::Misere,
                &|_| {},
                &no
            )
            .is_err()
        );
        assert!(
            solve(
                3,
                &[Move {
                    mask: 8,
                    blockers: 0
                }],
                Play::Misere,
                &|_| {},
                &no
            )
            .is_err()
        );
        assert_eq!(memory_bytes(36), (1 << 33) + (1 << 20));
    }

    /// The cost model's count of word operations ([`work`], from the plan
    /// alone) is what the solver does, on every path (each of the test
    /// sizes) and rule; and by hand on the smallest boards.
    #[test]
    fn the_counted_work_is_the_solvers() {
        let shapes = [
            Shape::Triangle(2),
            Shape::Triangle(4),
            Shape::Triangle(5),
            Shape::Parallelogram(3, 4),
            Shape::Trapezoid(2, 9),
        ];
        for shape in shapes {
            let b = shape.board();
            let n = b.len();
            for take in [Take::Max(1), Take::Max(2), Take::Any, Take::Maximal] {
                let moves: Vec<Move> = rules::moves(&b, take).iter().map(Move::from).collect();
                for play in [Play::Normal, Play::Misere] {
                    let (ops, rounds) = work(n, &moves, play).unwrap();
                    let got = run(n, &moves, play).ops;
                    assert_eq!(ops, got, "{} {} {play:?}", shape.name(), take.text());
                    // Maximal runs have blockers: never the chunk table.
                    if take == Take::Maximal {
                        assert!(rounds, "{}", shape.name());
                    }
                    for sizes in TEST_SIZES.into_iter().skip(1) {
                        let order = piece_order(n, &moves, top_bits(n, sizes) as usize);
                        let pm = permute_moves(&moves, &order, (1u64 << n) - 1);
                        let plan = Plan::build(n, &pm, play, sizes, false);
                        let want = plan.word_ops(n.saturating_sub(6) as u32);
                        let got = run_sized(n, &moves, play, sizes).ops;
                        assert_eq!(
                            want,
                            got,
                            "{} {} {play:?} {sizes:?}",
                            shape.name(),
                            take.text()
                        );
                    }
                }
            }
        }
        // By hand: the triangle of 2 rows (3 pieces, one word), `max:1`:
        // three single-piece moves inside the word, one pass (no chunk
        // table under 20 pieces): 1 + 3 operations.
        let b = Shape::Triangle(2).board();
        let moves: Vec<Move> = rules::moves(&b, Take::Max(1))
            .iter()
            .map(Move::from)
            .collect();
        assert_eq!(work(3, &moves, Play::Normal), Some((4, true)));
        // 7 pieces in a row, `max:1`: 2 words; piece 6 is the word bit, its
        // move a group of one low part applied to the one word holding it
        // (1), six in-word moves per word (2 × (1 + 6)): 15.
        let b = Shape::Trapezoid(1, 7).board();
        let moves: Vec<Move> = rules::moves(&b, Take::Max(1))
            .iter()
            .map(Move::from)
            .collect();
        assert_eq!(work(7, &moves, Play::Normal), Some((15, true)));
    }
}
