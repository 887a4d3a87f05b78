//! The plan: everything the kernel needs, built once from the move list:
//! the block, tile and leaf sizes, and the moves grouped by word part (pulled
//! tile by tile, at a cross step, or inside a leaf) and by low part (in the
//! word, by fixpoint or by the 16-bit chunk table).

use super::moves::Move;
use crate::game::Play;

/// Word bits of a tile (2^12 words = 32 KiB, L1-sized): moves reaching above
/// it are pulled tile by tile, just before the tile is solved.
pub(super) const TILE_BITS: u32 = 12;
/// Boards from this size on solve in-word moves with [`Chunks`] (building its
/// 128 KiB table costs about a millisecond).
pub(super) const CHUNK_TABLE_MIN_PIECES: usize = 20;
/// Word bits handled by the per-word leaf loop.
pub(super) const LEAF_BITS: u32 = 4;
/// Largest block (local word bits) of the parallel layer scheme: 2^20 words =
/// 8 MiB, so that a block and the sources it pulls from stay in L3.
pub(super) const MAX_BLOCK_BITS: u32 = 20;
/// Top (block) bits wanted for load balance on a few cores.
pub(super) const MIN_TOP_BITS: u32 = 8;
/// The low part of a move: child bit `j` (with `j & z`) goes to parent bit
/// `j + sh`, kept where `a` allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Low {
    pub(super) sh: u32,
    pub(super) z: u64,
    pub(super) a: u64,
}

impl Low {
    pub(super) fn new(ml: u64, bl: u64) -> Low {
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
    pub(super) fn route(&self, p: u64) -> u64 {
        ((p & self.z) << self.sh) & self.a
    }
    /// Low patterns where the low part is legal.
    pub(super) fn legal(&self) -> u64 {
        (self.z << self.sh) & self.a
    }
}

/// Moves sharing one word part.
#[derive(Clone, Debug)]
pub(super) struct Group {
    pub(super) mh: u64,
    pub(super) bh: u64,
    /// Has the identity low part (`ml = bl = 0`): a plain OR.
    pub(super) ident: bool,
    /// The other low parts.
    pub(super) lows: Vec<Low>,
}

impl Group {
    #[inline(always)]
    pub(super) fn route(&self, p: u64) -> u64 {
        let mut r = if self.ident { p } else { 0 };
        for l in &self.lows {
            r |= l.route(p);
        }
        r
    }
}

/// A move inside one word (`mh = 0`), legal for words with `w & bh == 0`.
#[derive(Clone, Copy, Debug)]
pub(super) struct InMove {
    pub(super) bh: u64,
    pub(super) low: Low,
}

/// In-word moves solved by 16-bit chunks: bits 4 and 5 of the low index pick
/// the chunk. Moves inside a chunk (low mask and low blockers within bits
/// 0..4, no word-level blockers) are the same in every chunk, so a 2^16-entry
/// table maps a chunk's candidates (`base` bits) to its P bits. Chunks are
/// final in the order 0, then 1 and 2, then 3; before each step the moves
/// that cross chunks are applied to the whole word from the final chunks.
pub(super) struct Chunks {
    pub(super) table: Vec<u16>,
    pub(super) cross: Vec<Low>,
}

impl Chunks {
    /// The chunks of `inword`, if they allow it; without its table when
    /// `table` is false (only its shape is wanted: [`work`](super::work)).
    pub(super) fn new(inword: &[Low], table: bool) -> Option<Chunks> {
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
    pub(super) fn solve(&self, base: u64) -> u64 {
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
pub(super) fn chunk_uniform(l: &Low) -> bool {
    let a0 = l.a & 0xffff;
    l.a == a0 | a0 << 16 | a0 << 32 | a0 << 48
}

/// A move pulled word by word inside a leaf.
#[derive(Clone, Copy, Debug)]
pub(super) struct LeafMove {
    pub(super) mh: u32,
    pub(super) bh: u64,
    pub(super) low: Low,
}

/// Word-level legality and the low patterns it makes movable (misère only).
#[derive(Clone, Copy, Debug)]
pub(super) struct HasMove {
    pub(super) mh: u64,
    pub(super) bh: u64,
    pub(super) legal: u64,
}

/// Everything the kernel needs, built once from the move list.
pub(super) struct Plan {
    pub(super) misere: bool,
    /// Local word bits of a block.
    pub(super) lb: u32,
    /// Word bits handled by the leaf loop (≤ lb).
    pub(super) leaf_bits: u32,
    /// Word bits of a tile (≤ lb).
    pub(super) tile_bits: u32,
    /// Groups whose word part reaches above the tile bits, pulled tile by tile.
    pub(super) far: Vec<Group>,
    /// `by_top[t]`: groups whose highest word bit is t (leaf_bits ≤ t < tile_bits).
    pub(super) by_top: Vec<Vec<Group>>,
    /// Moves whose word part lies inside a leaf, flattened: for every local
    /// leaf index l, `leaf_moves[leaf_range[l]]` are the ones with `mh ⊆ l`.
    pub(super) leaf_moves: Vec<LeafMove>,
    pub(super) leaf_range: Vec<(u32, u32)>,
    /// The words of a leaf by increasing popcount: words of equal popcount
    /// do not depend on each other, so the CPU overlaps their finalisation.
    pub(super) leaf_order: Vec<u8>,
    /// In-word moves without word-level blockers, and with.
    pub(super) inword: Vec<Low>,
    pub(super) inword_blocked: Vec<InMove>,
    /// The in-word moves solved by 16-bit chunks, when they allow it.
    pub(super) chunks: Option<Chunks>,
    /// Word bits j whose single piece can always be taken alone (misère: the
    /// word then has a move at every low pattern).
    pub(super) always_movable: u64,
    pub(super) has_move: Vec<HasMove>,
    /// The CPU has AVX2 (whole-word loops run 4 words per instruction).
    pub(super) avx2: bool,
    /// The word operations done (tests: [`work`](super::work) is checked against it).
    #[cfg(test)]
    pub(super) ops: std::sync::atomic::AtomicU64,
}

/// Block, tile and leaf sizes (the constants above; tests shrink them so
/// that small boards go through every path).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sizes {
    pub(super) min_top_bits: u32,
    pub(super) max_block_bits: u32,
    pub(super) tile_bits: u32,
    pub(super) leaf_bits: u32,
    pub(super) chunk_min_pieces: usize,
    /// Highest word bits that select a slice ([`SliceKernel`](super::SliceKernel); 0 for the
    /// whole table): blocks lie inside the rest.
    pub(super) slice_bits: u32,
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
pub(super) fn block_bits(n: usize, sz: Sizes) -> u32 {
    let nh = n.saturating_sub(6) as u32 - sz.slice_bits;
    if nh <= sz.min_top_bits + sz.leaf_bits {
        nh
    } else {
        (nh - sz.min_top_bits).min(sz.max_block_bits)
    }
}

/// Block-index bits (the highest pieces) for an n-piece board.
pub(super) fn top_bits(n: usize, sz: Sizes) -> u32 {
    n.saturating_sub(6) as u32 - block_bits(n, sz)
}

/// The word moves grouped by their word parts `(mh, bh)` with their distinct
/// low parts; the moves inside the word (`mh = 0`), each once; and the
/// word-level legality of each `(mh, bh)`, most likely to fill the word
/// first. Moves never legal (masked by their own blockers) are left out.
pub(super) fn group_moves(moves: &[Move], full: u64) -> (Vec<Group>, Vec<InMove>, Vec<HasMove>) {
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
pub(super) fn leaf_table(leaf: &[Group], leaf_bits: u32) -> (Vec<LeafMove>, Vec<(u32, u32)>) {
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
    pub(super) fn new(n: usize, moves: &[Move], play: Play, sz: Sizes) -> Plan {
        Plan::build(n, moves, play, sz, true)
    }

    /// [`Plan::new`]; without the chunk table's entries when `table` is
    /// false (a plan to count [`work`](super::work) on, not to solve with).
    pub(super) fn build(n: usize, moves: &[Move], play: Play, sz: Sizes, table: bool) -> Plan {
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
}

/// Does the CPU have AVX2 (the kernel's whole-word loops then run 4 words
/// per instruction)?
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
