//! The adaptive rare/common kernel, for splitting codes without a fixed
//! sparse space (after the "rc2" idea of Beling's octal solver).
//!
//! A set `C` of *common* values with `C ∩ (C ⊕ C) = ∅` (no two common values
//! xor to a common one; 0 is never common) plays the part of the mask: a
//! split whose two parts both have common values has a value in `C ⊕ C`,
//! never a common value, so the common values among the moves of `n` come
//! from the single-heap moves and the splits with a *rare* part (its value
//! outside `C`). The mex of those moves is `G(n)` as soon as it could be
//! common (in `C`, or unseen and addable to `C`); otherwise the other splits
//! are searched for that value, smallest part first (16 or 32 splits a
//! step in vector instructions), and the candidate moves up past it when
//! one reaches it, until it could be common or no split reaches it. Exact
//! for any `C`; fast when rare positions are few.
//!
//! The split is chosen greedily, most frequent values first (ties: the
//! smaller value), each made common when it can be. It is rebuilt when the
//! value just computed is rare and has become at least as frequent as a
//! common value (rare values should be the infrequent ones): the values more
//! frequent keep their classes, the one just computed is made common if it
//! can be (else nothing changes), and the rest are classified again.

use std::sync::atomic::AtomicBool;

use super::blocks::{Narrow, Par, Scratch, extend_narrow};
use super::code::Code;
use super::kernel::{SparseStop, mark_simple};
use super::scan::{last_part, search};

const UNSEEN: u8 = 0;
const COMMON: u8 = 1;
const RARE: u8 = 2;
/// Values are 16-bit (as the sparse kernel's); a key is `2·G(a) + (a mod 2)`.
const KEYS: usize = 1 << 17;

/// The key of heap size `a` with value `v`.
#[inline]
fn key(v: u32, a: usize) -> u32 {
    (v << 1) | (a as u32 & 1)
}

/// What the adaptive kernel did: its rebuilds and its work by kind of move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AdaptiveWork {
    /// Times the split was rebuilt (a rebuild that changed it).
    pub rebuilds: u64,
    /// Heap sizes looked at again by the rebuilds (rare positions listed).
    pub rebuild_work: u64,
    /// Splits with a rare part examined (the list of rare positions).
    pub rare_splits: u64,
    /// Other splits examined to settle a candidate that could not be common.
    pub check_splits: u64,
}

impl AdaptiveWork {
    /// Adds what `other` did.
    pub fn add(&mut self, other: &AdaptiveWork) {
        self.rebuilds += other.rebuilds;
        self.rebuild_work += other.rebuild_work;
        self.rare_splits += other.rare_splits;
        self.check_splits += other.check_splits;
    }
    /// Every move and position examined.
    pub fn total(&self) -> u64 {
        self.rebuild_work + self.rare_splits + self.check_splits
    }
}

/// The rare/common split of the keys for the splitting takes of one parity
/// `d`: the parts `a + b` of a split of `n` have `key(a) ⊕ key(b) =
/// key(candidate) ⊕ d`, so a candidate key `k` with `k ⊕ d ∉ C ⊕ C` is
/// reached by no split with two common parts (the key `d` is never common).
struct Split {
    d: u32,
    class: Vec<u8>,
    common: Vec<u32>,
    count: Vec<u32>,
    /// The rare positions `a ≥ 1` with their values ([`entry`]).
    rare_at: Vec<u64>,
    /// One more than the largest value seen.
    top: usize,
}

impl Split {
    fn new(d: u32) -> Split {
        Split {
            d,
            class: vec![UNSEEN; KEYS],
            common: Vec::new(),
            count: vec![0; KEYS],
            rare_at: Vec::new(),
            top: 1,
        }
    }

    /// Could `v` be common (in `C`, or unseen and addable)?
    #[inline]
    fn can_be_common(&self, v: u32) -> bool {
        match self.class.get(v as usize).copied().unwrap_or(RARE) {
            COMMON => true,
            RARE => false,
            _ => v != self.d && self.addable(v),
        }
    }

    /// Would `C ∪ {v}` keep `C ∩ (C ⊕ C) = ∅`?
    fn addable(&self, v: u32) -> bool {
        self.common
            .iter()
            .all(|&c| self.class[(v ^ c ^ self.d) as usize] != COMMON)
    }

    fn set(&mut self, v: u32, common: bool) {
        self.class[v as usize] = if common { COMMON } else { RARE };
        if common {
            self.common.push(v);
        }
    }

    /// Classifies the key `v`, of heap size `n`, and counts it.
    fn push(&mut self, v: u32, n: usize) {
        self.count[v as usize] += 1;
        self.top = self.top.max(v as usize + 1);
        if self.class[v as usize] == UNSEEN {
            let common = v != self.d && self.addable(v);
            self.set(v, common);
        }
        if n > 0 && self.class[v as usize] == RARE {
            self.rare_at.push(entry(n, (v >> 1) as u16));
        }
    }

    /// The values seen, most frequent first (ties: the smaller value).
    fn by_frequency(&self) -> Vec<u32> {
        let mut vs: Vec<u32> = (0..self.top as u32)
            .filter(|&v| v != self.d && self.count[v as usize] > 0)
            .collect();
        vs.sort_by(|a, b| self.count[*b as usize].cmp(&self.count[*a as usize]));
        vs
    }

    /// Has the rare value `x` become at least as frequent as a common one?
    fn should_rebuild(&self, x: u32) -> bool {
        let r = self.count[x as usize];
        x != self.d
            && self.common.iter().any(|&c| {
                let n = self.count[c as usize];
                n > 0 && ((c > x && r == n) || (c < x && r == n + 1))
            })
    }

    /// Rebuilds the split after the rare value `x` became frequent; `false`
    /// when `x` cannot be made common (nothing changes).
    fn rebuild(&mut self, x: u32, g: &[u16]) -> bool {
        let order = self.by_frequency();
        let top = self.top;
        let old = self.class[..top].to_vec();
        self.class[..top].fill(UNSEEN);
        self.common.clear();
        self.class[self.d as usize] = RARE;
        let mut rest = order.iter();
        for &v in rest.by_ref() {
            if v == x {
                if !self.addable(v) {
                    self.class[..top].copy_from_slice(&old);
                    self.common = (0..top as u32)
                        .filter(|&v| old[v as usize] == COMMON)
                        .collect();
                    return false;
                }
                self.set(v, true);
                break;
            }
            self.set(v, old[v as usize] == COMMON);
        }
        for &v in rest {
            let common = self.addable(v);
            self.set(v, common);
        }
        self.relist(g);
        true
    }

    /// A split from scratch for the values `g`.
    fn build(&mut self, g: &[u16]) {
        for (a, &v) in g.iter().enumerate() {
            let k = key(v as u32, a) as usize;
            self.count[k] += 1;
            self.top = self.top.max(k + 1);
        }
        self.class[self.d as usize] = RARE;
        for v in self.by_frequency() {
            let common = self.addable(v);
            self.set(v, common);
        }
        self.relist(g);
    }

    fn relist(&mut self, g: &[u16]) {
        self.rare_at.clear();
        let class = &self.class;
        self.rare_at.extend(
            (1..g.len())
                .filter(|&a| class[key(g[a] as u32, a) as usize] == RARE)
                .map(|a| entry(a, g[a])),
        );
    }
}

/// The splits of the two parities of take (`None` where no take of that
/// parity splits).
type Splits = [Option<Split>; 2];

fn splits_for(takes: &[usize], g: &[u16]) -> Splits {
    [0, 1].map(|d| {
        takes.iter().any(|&i| i % 2 == d).then(|| {
            let mut s = Split::new(d as u32);
            s.build(g);
            s
        })
    })
}

/// The parities of take whose split `v`, the candidate value of `n`, is
/// rare for (bit `d`): only their splits with two common parts can reach
/// it.
#[inline]
fn rare_for(splits: &Splits, v: u32, n: usize) -> u8 {
    if v > u16::MAX as u32 {
        return 3;
    }
    let k = key(v, n);
    let mut out = 0;
    for (d, s) in splits.iter().enumerate() {
        if s.as_ref().is_some_and(|s| !s.can_be_common(k)) {
            out |= 1 << d;
        }
    }
    out
}

/// The values reached from one heap size: `stamp[v] == now` (a store per
/// mark, no read, so marks in a row do not wait on each other).
struct Marks {
    /// Every 16-bit value, and one more, never marked, that ends the
    /// search for an unmarked value (a fixed length: no bound to check).
    stamp: Box<[u32; STAMPS]>,
    now: u32,
}

const STAMPS: usize = (1 << 16) + 1;

impl Marks {
    fn new() -> Marks {
        let stamp = vec![0; STAMPS].into_boxed_slice().try_into();
        Marks {
            stamp: stamp.unwrap_or_else(|_| unreachable!("{STAMPS} stamps")),
            now: 0,
        }
    }

    /// Empties the marks.
    #[inline]
    fn clear(&mut self) {
        if self.now == u32::MAX {
            self.stamp.fill(0);
            self.now = 0;
        }
        self.now += 1;
    }

    #[inline]
    fn mark(&mut self, v: u32) {
        self.stamp[v as u16 as usize] = self.now;
    }

    /// The smallest value from `v` on not marked (at most 2^16).
    #[inline]
    fn mex_from(&self, v: u32) -> u32 {
        let now = self.now;
        let from = v as usize;
        let at = self.stamp[from..].iter().position(|&s| s != now);
        (from + at.unwrap_or(0)) as u32
    }
}

/// Extends `g` (the first values) to `G(0..=n_max)` with the adaptive
/// kernel on the pool's threads ([`Par::current`]), adding what it did to
/// `work`.
pub fn extend(
    code: &Code,
    g: &mut Vec<u16>,
    n_max: usize,
    work: &mut AdaptiveWork,
    cancel: &AtomicBool,
) -> Result<(), SparseStop> {
    extend_with(code, g, n_max, (work, Par::current()), cancel)
}

/// [`extend`] with the heap sizes shared as `par` says.
pub fn extend_with(
    code: &Code,
    g: &mut Vec<u16>,
    n_max: usize,
    (work, par): (&mut AdaptiveWork, Par),
    cancel: &AtomicBool,
) -> Result<(), SparseStop> {
    debug_assert!(!code.triples(), "three common parts xor to a common value");
    let takes: Vec<(usize, bool)> = code
        .split_takes()
        .into_iter()
        .map(|i| (i, code.unequal(i)))
        .collect();
    let mut moves = Moves {
        code,
        takes: &takes,
        split: splits_for(&code.split_takes(), g),
    };
    work.rebuild_work += g.len() as u64;
    let mut own = (Marks::new(), AdaptiveWork::default());
    let pool = Scratch::new(par.threads, || (Marks::new(), AdaptiveWork::default()));
    let out = extend_narrow(
        &mut moves,
        (code, &takes),
        g,
        (n_max, par),
        (&mut own, &pool),
        cancel,
    );
    work.add(&own.1);
    for (_, w) in pool.into_inner() {
        work.add(&w);
    }
    out
}

/// Counts the value `v` of `n` (just pushed on `g`) in the splits, and
/// rebuilds a split where it asks to be.
fn record(split: &mut Splits, g: &[u16], (n, v): (usize, u32), work: &mut AdaptiveWork) {
    let k = key(v, n);
    for s in split.iter_mut().flatten() {
        s.push(k, n);
        if n > 0 && s.class[k as usize] == RARE && s.should_rebuild(k) && s.rebuild(k, g) {
            work.rebuilds += 1;
            work.rebuild_work += g.len() as u64;
        }
    }
}

/// What the adaptive kernel reads for a heap size, and its split.
struct Moves<'a> {
    code: &'a Code,
    takes: &'a [(usize, bool)],
    split: Splits,
}

impl Narrow for Moves<'_> {
    type Scratch = (Marks, AdaptiveWork);

    fn gap(&self, g: (&[u16], &[u16]), n_old: (usize, usize), s: &mut Self::Scratch) -> u32 {
        self.gap_with(g, n_old, &mut s.0, &mut s.1)
    }

    fn record(&mut self, g: &[u16], n_v: (usize, u32), s: &mut Self::Scratch) {
        record(&mut self.split, g, n_v, &mut s.1);
    }
}

impl Moves<'_> {
    /// The smallest value no move of `n` leaving heaps all below `old`
    /// reaches (`old = n`: `G(n)`): the splits with a rare part marked,
    /// the candidate settled ([`settle`]).
    fn gap_with(
        &self,
        g: (&[u16], &[u16]),
        (n, old): (usize, usize),
        marks: &mut Marks,
        work: &mut AdaptiveWork,
    ) -> u32 {
        marks.clear();
        mark_simple(self.code, g.0, (n, old), |v| marks.mark(v));
        for &(i, unequal) in self.takes {
            if n < i + 2 {
                continue;
            }
            let Some(s) = &self.split[i % 2] else {
                continue;
            };
            work.rare_splits += mark_rare(g.0, &s.rare_at, (n - i, old), unequal, marks);
        }
        let v = marks.mex_from(0);
        settle(g, self.takes, (n, old), v, &self.split, marks, work)
    }
}

/// A rare position `a` and its value `G(a)` in one word (`a · 2^16 +
/// G(a)`): the list of them ascends with `a`, and marking a split reads
/// `G(a)` from it rather than from `G` at scattered places.
#[inline]
fn entry(a: usize, v: u16) -> u64 {
    ((a as u64) << 16) | u64::from(v)
}

/// Marks the values of the splits of `r` with a rare part (at a rare
/// position `a < r`, listed with its value) and the other part below
/// `old`; returns how many.
#[inline]
fn mark_rare(
    g: &[u16],
    rare_at: &[u64],
    (r, old): (usize, usize),
    unequal: bool,
    marks: &mut Marks,
) -> u64 {
    let k = rare_at.partition_point(|&x| x < entry(r, 0));
    let from = if r >= old {
        rare_at[..k].partition_point(|&x| x < entry(r + 1 - old, 0))
    } else {
        0
    };
    let mut mark = |xs: &[u64]| {
        for &x in xs {
            marks.mark(u32::from(x as u16 ^ g[r - (x >> 16) as usize]));
        }
    };
    if unequal && r.is_multiple_of(2) {
        // Not the equal split, when the parts must differ.
        let e = from + rare_at[from..k].partition_point(|&x| x < entry(r / 2, 0));
        let skip = usize::from(e < k && rare_at[e] >> 16 == (r / 2) as u64);
        mark(&rare_at[from..e]);
        mark(&rare_at[e + skip..k]);
    } else {
        mark(&rare_at[from..k]);
    }
    // Every rare position counted, the equal split's too (the work column).
    (k - from) as u64
}

/// The value of `n` from its first candidate `v` (every split with a rare
/// part marked). While the candidate is rare for the split of some parity
/// of take, the splits of those takes are searched for it by value,
/// smallest part first; when one reaches it, it is marked and the
/// candidate moves up past the values marked. The search for the next
/// candidate starts again from the smallest part: it is a few vector
/// instructions per 16 splits, cheaper than marking the splits passed.
/// `work` counts each split examined once however often it was searched.
fn settle(
    g: (&[u16], &[u16]),
    takes: &[(usize, bool)],
    (n, old): (usize, usize),
    mut v: u32,
    split: &Splits,
    marks: &mut Marks,
    work: &mut AdaptiveWork,
) -> u32 {
    let (mut searched, mut furthest) = (0u8, 0);
    let mut parities = rare_for(split, v, n);
    while parities != 0 {
        searched |= parities;
        match search(g, takes, parities, (n, old), v as u16, 1) {
            Some(a) => furthest = furthest.max(a),
            None => {
                furthest = n;
                break;
            }
        }
        marks.mark(v);
        v = marks.mex_from(v);
        parities = rare_for(split, v, n);
    }
    for &(i, unequal) in takes {
        if searched & (1 << (i % 2)) != 0 && n >= i + 2 {
            work.check_splits += furthest.min(last_part(n - i, unequal)) as u64;
        }
    }
    v
}

/// Rare positions `n ≥ 1` of the greedy splits built from the values `g`
/// (the larger of the two parities' counts), for a code with splitting
/// takes `takes`.
pub fn rare_count(takes: &[usize], g: &[u16]) -> usize {
    splits_for(takes, g)
        .iter()
        .flatten()
        .map(|s| s.rare_at.len())
        .max()
        .unwrap_or(0)
}
