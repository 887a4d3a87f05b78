//! Normal play by components: a position's Grundy value is the XOR of its
//! connected components' values (a run and the two points beyond its ends lie
//! in one component, so moves never cross components), and each component's
//! value is memoised under a canonical form for translations and the 12
//! lattice symmetries. Boards of at most 64 pieces (positions are bit masks).
//!
//! The same component (the same cells of this board) turns up again and again
//! as a part of different positions, and its canonical form costs 12 passes
//! over its pieces; so a second map keyed by the component's own bit mask
//! answers those repeats first, and the canonical form is computed once per
//! distinct mask.
//!
//! The solver is this file; [`subboards`] counts its work without solving
//! (for the cost model).

pub(crate) mod subboards;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use super::board::{Board, NEIGHBOURS, Pt, transform};
use super::memo::Sharded;
use super::rules::{BoardMove, Take, legal_distinct, moves};

/// Bits available for a small key's picture (the top 12 bits hold h-1, w-1).
const SMALL_BITS: u32 = 116;

/// Memo entries computed between two measurements of the memo's size.
const MEASURE_EVERY: u64 = 4096;

/// The solver for one board and rule; the memo is shared by all threads.
pub struct Components {
    /// Moves indexed by the lowest piece of their run.
    by_low: Vec<Vec<(u64, u64)>>,
    /// All moves of the board.
    pub moves: Vec<BoardMove>,
    nbr: Vec<u64>,
    /// Images of each board point under the 12 symmetries.
    tf: Vec<[Pt; 12]>,
    small: Sharded<u128, u16>,
    big: Sharded<Box<[u64]>, u16>,
    /// Component bit mask → value: repeats skip the canonical form.
    raw: Sharded<u64, u16>,
    big_bytes: AtomicU64,
    /// The memo's bytes when last measured (every [`MEASURE_EVERY`] entries).
    bytes: AtomicU64,
    budget: u64,
    /// Set when the memo went over budget or the user cancelled: results are void.
    pub stopped: AtomicBool,
    /// Why it stopped.
    pub over_budget: AtomicBool,
    computed: AtomicU64,
    /// What the solver did (tests: the cost model's count is checked against it).
    #[cfg(test)]
    pub(crate) counted: Counted,
}

/// The component solver's own counters (a test build's).
#[cfg(test)]
#[derive(Default, Debug)]
pub(crate) struct Counted {
    /// Legal moves examined inside the components computed.
    pub moves: AtomicU64,
}

/// A component's canonical form.
enum Key {
    Small(u128),
    Big(Vec<u64>),
}

impl Components {
    /// A solver for `board` under `take`, with a memo budget in bytes.
    pub fn new(board: &Board, take: Take, budget: u64) -> Components {
        let n = board.len();
        assert!(n <= 64);
        let all = moves(board, take);
        let mut by_low = vec![Vec::new(); n];
        for m in &all {
            by_low[m.mask.trailing_zeros() as usize].push((m.mask, m.blockers));
        }
        let nbr = board
            .points
            .iter()
            .map(|&(q, r)| {
                NEIGHBOURS
                    .iter()
                    .filter_map(|&(dq, dr)| board.index((q + dq, r + dr)))
                    .fold(0u64, |a, i| a | 1 << i)
            })
            .collect();
        let tf = board
            .points
            .iter()
            .map(|&p| std::array::from_fn(|t| transform(t, p)))
            .collect();
        Components {
            by_low,
            moves: all,
            nbr,
            tf,
            small: Sharded::default(),
            big: Sharded::default(),
            raw: Sharded::default(),
            big_bytes: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
            budget,
            stopped: AtomicBool::new(false),
            over_budget: AtomicBool::new(false),
            computed: AtomicU64::new(0),
            #[cfg(test)]
            counted: Counted::default(),
        }
    }

    /// Components computed so far (memo entries made; a test build's
    /// check of the cost model's count).
    #[cfg(test)]
    pub(crate) fn computed(&self) -> u64 {
        self.computed.load(Ordering::Relaxed)
    }

    /// Memoised components so far.
    pub fn memo_len(&self) -> u64 {
        self.small.len() + self.big.len()
    }

    /// The memo's bytes when last measured (cheap: no shard is locked).
    pub fn measured_bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Bytes of memory the memo holds now: the hash tables as allocated
    /// (not just their entries) and the big keys' heap data.
    pub fn memo_bytes(&self) -> u64 {
        self.small.table_bytes()
            + self.raw.table_bytes()
            + self.big.table_bytes()
            + self.big_bytes.load(Ordering::Relaxed)
    }

    /// The component of `x` that holds its lowest piece.
    pub fn component(&self, x: u64) -> u64 {
        let seed = x & x.wrapping_neg();
        let mut c = seed;
        let mut frontier = seed;
        while frontier != 0 {
            let mut next = 0u64;
            let mut f = frontier;
            while f != 0 {
                let i = f.trailing_zeros();
                f &= f - 1;
                next |= self.nbr[i as usize];
            }
            next &= x & !c;
            c |= next;
            frontier = next;
        }
        c
    }

    /// The separate regions of position `x` (its components, by their lowest
    /// piece) and each one's Grundy value, solved on this solver's memo.
    pub fn region_values(&self, x: u64) -> Vec<(u64, u32)> {
        let mut rest = x;
        let mut out = Vec::new();
        while rest != 0 {
            let c = self.component(rest);
            rest &= !c;
            out.push((c, self.comp_grundy(c, &|_| {})));
        }
        out
    }

    /// Grundy value of any position (XOR over its components).
    pub fn grundy(&self, x: u64, progress: &(dyn Fn(u64) + Sync)) -> u32 {
        let mut rest = x;
        let mut g = 0;
        while rest != 0 {
            let c = self.component(rest);
            rest &= !c;
            g ^= self.comp_grundy(c, progress);
        }
        g
    }

    fn canon(&self, c: u64) -> Key {
        let mut best = (i32::MAX, i32::MAX);
        let mut cands: [(usize, i32, i32); 12] = [(0, 0, 0); 12];
        let mut nc = 0;
        for t in 0..12 {
            let (mut q0, mut q1, mut r0, mut r1) = (i32::MAX, i32::MIN, i32::MAX, i32::MIN);
            let mut b = c;
            while b != 0 {
                let i = b.trailing_zeros() as usize;
                b &= b - 1;
                let (q, r) = self.tf[i][t];
                q0 = q0.min(q);
                q1 = q1.max(q);
                r0 = r0.min(r);
                r1 = r1.max(r);
            }
            let hw = (r1 - r0 + 1, q1 - q0 + 1);
            if hw < best {
                best = hw;
                nc = 0;
            }
            if hw == best {
                cands[nc] = (t, q0, r0);
                nc += 1;
            }
        }
        let (h, w) = best;
        if (h * w) as u32 <= SMALL_BITS {
            let mut min = u128::MAX;
            for &(t, q0, r0) in &cands[..nc] {
                let mut bits = 0u128;
                let mut b = c;
                while b != 0 {
                    let i = b.trailing_zeros() as usize;
                    b &= b - 1;
                    let (q, r) = self.tf[i][t];
                    bits |= 1u128 << ((r - r0) * w + (q - q0));
                }
                min = min.min(bits);
            }
            Key::Small(min | ((h as u128 - 1) << 122) | ((w as u128 - 1) << 116))
        } else {
            let mut min: Option<Vec<u64>> = None;
            for &(t, q0, r0) in &cands[..nc] {
                let mut rows = vec![0u64; h as usize + 1];
                rows[0] = ((h as u64) << 32) | w as u64;
                let mut b = c;
                while b != 0 {
                    let i = b.trailing_zeros() as usize;
                    b &= b - 1;
                    let (q, r) = self.tf[i][t];
                    rows[(r - r0) as usize + 1] |= 1u64 << (q - q0);
                }
                if min.as_ref().is_none_or(|m| rows < *m) {
                    min = Some(rows);
                }
            }
            Key::Big(min.unwrap())
        }
    }

    fn comp_grundy(&self, c: u64, progress: &(dyn Fn(u64) + Sync)) -> u32 {
        if c.count_ones() == 1 {
            // A lone piece: its only move empties it.
            return 1;
        }
        if self.stopped.load(Ordering::Relaxed) {
            return 0;
        }
        if let Some(g) = self.raw.get(&c) {
            return u32::from(g);
        }
        let key = self.canon(c);
        let hit = match &key {
            Key::Small(k) => self.small.get(k),
            Key::Big(k) => self.big.get(&k[..]),
        };
        if let Some(g) = hit {
            self.raw.insert(c, g);
            return u32::from(g);
        }
        let mut seen = Mex::default();
        let mut b = c;
        while b != 0 {
            let i = b.trailing_zeros() as usize;
            b &= b - 1;
            for &(mask, blk) in &self.by_low[i] {
                if c & mask == mask && c & blk == 0 {
                    #[cfg(test)]
                    self.counted.moves.fetch_add(1, Ordering::Relaxed);
                    seen.insert(self.grundy(c & !mask, progress));
                }
            }
        }
        let g = seen.mex();
        assert!(
            g < u16::MAX as u32,
            "a Grundy value of 65535 or more does not fit the memo"
        );
        if self.bytes.load(Ordering::Relaxed) > self.budget {
            self.over_budget.store(true, Ordering::Relaxed);
            self.stopped.store(true, Ordering::Relaxed);
            return 0;
        }
        self.raw.insert(c, g as u16);
        match key {
            Key::Small(k) => self.small.insert(k, g as u16),
            Key::Big(k) => {
                self.big_bytes
                    .fetch_add(48 + 8 * k.len() as u64, Ordering::Relaxed);
                self.big.insert(k.into_boxed_slice(), g as u16)
            }
        }
        let n = self.computed.fetch_add(1, Ordering::Relaxed) + 1;
        if n.is_multiple_of(MEASURE_EVERY) {
            // The tables grow one shard at a time, so between two
            // measurements the memo outgrows the budget by a few shards at most.
            self.bytes.store(self.memo_bytes(), Ordering::Relaxed);
            progress(MEASURE_EVERY);
        }
        g
    }

    /// The Grundy value of `x` and the value after each distinct legal move
    /// (computed in parallel on the shared memo). Check [`Self::stopped`] after.
    pub fn options(&self, x: u64, progress: &(dyn Fn(u64) + Sync)) -> (u32, Vec<(BoardMove, u32)>) {
        let legal: Vec<BoardMove> = legal_distinct(&self.moves, x)
            .into_iter()
            .copied()
            .collect();
        let vals: Vec<(BoardMove, u32)> = legal
            .into_par_iter()
            .map(|m| (m, self.grundy(x & !m.mask, progress)))
            .collect();
        let mut seen = Mex::default();
        for &(_, g) in &vals {
            seen.insert(g);
        }
        (seen.mex(), vals)
    }
}

/// A set of small values, for the minimum excluded value.
#[derive(Default)]
pub struct Mex {
    words: [u64; 4],
    more: Vec<u64>,
}

impl Mex {
    /// Adds a value.
    #[inline]
    pub fn insert(&mut self, g: u32) {
        let w = g as usize >> 6;
        if w < 4 {
            self.words[w] |= 1 << (g & 63);
        } else {
            if self.more.len() <= w - 4 {
                self.more.resize(w - 3, 0);
            }
            self.more[w - 4] |= 1 << (g & 63);
        }
    }
    /// The smallest value not added.
    pub fn mex(&self) -> u32 {
        for (w, &s) in self.words.iter().chain(&self.more).enumerate() {
            if s != u64::MAX {
                return w as u32 * 64 + (!s).trailing_zeros();
            }
        }
        64 * (4 + self.more.len() as u32)
    }
}
