//! Every hexagon's Grundy value under `take: maximal`, normal play, computed
//! bottom-up into one dense table: the chord recursion of [`super::hexsum`]
//! without recursion, tightening loops or hashing.
//!
//! **Coordinates.** A (tight, non-empty) equiangular hexagon, translated so
//! that its lowest row is `r = 0` and its smallest `q` is 0, is
//! `{0 ≤ r ≤ R, 0 ≤ q ≤ Q, a ≤ q + r ≤ Q + R − b}` with `0 ≤ a, b ≤ min(R, Q)`
//! (the two corners cut off the parallelogram `[0,Q]×[0,R]`); its sides are
//! `(Q−a+1, R−b+1, b+1, Q−b+1, R−a+1, a+1)` and its extents along the three
//! line directions are `R`, `Q` and `S = Q + R − a − b`. Every such `(R, Q, a, b)`
//! is a hexagon and every hexagon has exactly one.
//!
//! **Chords.** Removing the chord `r = k` leaves the rows below and the rows
//! above; the chord `q = k` the parts left and right of it; the chord
//! `q + r = k` the parts below and above that line. Each part is again a
//! hexagon (or empty) whose coordinates are a closed form of `k` ([`bottom`],
//! [`lower`], and their images under the point reflection `(a, b) → (b, a)`
//! and the reflection `q ↔ r`, which maps `(R, Q, a, b)` to `(Q, R, a, b)`).
//! `G(H) = mex` over the chords of `G(part 1) xor G(part 2)`.
//!
//! **Order.** A part of `H` has `R' ≤ R` and `Q' ≤ Q`, and `R' + Q' < R + Q`
//! unless it is an `s`-part with `R' = R`, `Q' = Q` and then `a' + b' > a + b`.
//! So the table is filled anti-diagonal by anti-diagonal (`n = R + Q`), and in
//! a block of equal `(R, Q)` by decreasing `a + b`. The blocks `(R, Q)` and
//! `(Q, R)` of one anti-diagonal depend on nothing else of it, so each such
//! pair is one task and the tasks of an anti-diagonal run in parallel.
//!
//! **Symmetry.** Each value is written under every image of its hexagon under
//! the 12 lattice symmetries that lies in the table; an entry already written
//! is skipped, so each symmetry class is computed once (per anti-diagonal
//! pair of blocks, its images there lie in the same task).
//!
//! **Layout.** Rows of constant `(R, a, b)` are contiguous in `Q`: the left
//! and right parts of the `q`-chords then walk along memory, and in a square
//! table (`R` and `Q` have the same bound) the parts of the `r`-chords are read
//! through their `q ↔ r` image, which walks along memory too.

use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicUsize};
use std::sync::{Barrier, Mutex};

use crate::family::lines::board::side_images;

/// A hexagon in table coordinates (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hx {
    /// Rows − 1 (extent along `r`).
    pub r: u32,
    /// Extent along `q`.
    pub q: u32,
    /// Lower-left corner cut (`q + r ≥ a`).
    pub a: u32,
    /// Upper-right corner cut (`q + r ≤ Q + R − b`).
    pub b: u32,
}

impl Hx {
    /// From the six side piece counts (the walk of `board::Hex::from_sides`).
    #[inline]
    pub fn from_sides(p: [u32; 6]) -> Hx {
        Hx {
            r: p[1] + p[2] - 2,
            q: p[0] + p[5] - 2,
            a: p[5] - 1,
            b: p[2] - 1,
        }
    }
    /// The six side piece counts.
    #[inline]
    pub fn sides(self) -> [u32; 6] {
        let Hx { r, q, a, b } = self;
        [q - a + 1, r - b + 1, b + 1, q - b + 1, r - a + 1, a + 1]
    }
    /// Extent along `s = q + r`.
    #[inline]
    pub fn s(self) -> u32 {
        self.q + self.r - self.a - self.b
    }
    /// The image under `q ↔ r`.
    #[inline(always)]
    fn swap(self) -> Hx {
        Hx {
            r: self.q,
            q: self.r,
            ..self
        }
    }
    /// The image under the point reflection.
    #[inline(always)]
    fn flip(self) -> Hx {
        Hx {
            a: self.b,
            b: self.a,
            ..self
        }
    }
    /// Number of chords: `(R + 1) + (Q + 1) + (S + 1)`.
    #[inline]
    pub fn chords(self) -> u32 {
        self.r + self.q + self.s() + 3
    }
}

/// Rows `0..k` of `h` (the part below the chord `r = k`), `1 ≤ k ≤ R`.
#[inline(always)]
pub fn bottom(h: Hx, k: u32) -> Hx {
    let q0 = h.a.saturating_sub(k - 1);
    Hx {
        r: k - 1,
        q: h.q - q0,
        a: h.a - q0,
        b: (k - 1).saturating_sub(h.r - h.b),
    }
}

/// Rows above the chord `r = k`, `0 ≤ k < R`.
#[inline(always)]
pub fn top(h: Hx, k: u32) -> Hx {
    bottom(h.flip(), h.r - k).flip()
}

/// The part left of the chord `q = k`, `1 ≤ k ≤ Q`.
#[inline(always)]
pub fn left(h: Hx, k: u32) -> Hx {
    bottom(h.swap(), k).swap()
}

/// The part right of the chord `q = k`, `0 ≤ k < Q`.
#[inline(always)]
pub fn right(h: Hx, k: u32) -> Hx {
    top(h.swap(), k).swap()
}

/// The part below the chord `q + r = k`, `a < k ≤ Q + R − b`.
#[inline(always)]
pub fn lower(h: Hx, k: u32) -> Hx {
    let t = k - 1;
    let r = h.r.min(t);
    let q = h.q.min(t);
    Hx {
        r,
        q,
        a: h.a,
        b: r + q - t,
    }
}

/// The part above the chord `q + r = k`, `a ≤ k < Q + R − b`.
#[inline(always)]
pub fn upper(h: Hx, k: u32) -> Hx {
    lower(h.flip(), h.q + h.r - k).flip()
}

/// Which chord: direction (0: `r = k`, 1: `q = k`, 2: `q + r = k`) and `k`,
/// in the hexagon's own coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cut {
    /// Direction index (as `board::DIRS`).
    pub dir: u8,
    /// The line's coordinate in table coordinates.
    pub k: u32,
}

/// The set of values seen, for the minimum excluded value: one byte per value
/// below 2^16 (Grundy values are stored in 16 bits, so every XOR of two is
/// below 2^16), written without reading (no chain of read-modify-writes
/// between chords). A hexagon with `n` chords has a mex of at most `n`, so only
/// the bytes `0..=n` are cleared and scanned.
struct Seen {
    bytes: Vec<u8>,
}

impl Seen {
    fn new() -> Seen {
        Seen {
            bytes: vec![0; 1 << 16],
        }
    }
    /// Clears the values `0..=n`.
    #[inline]
    fn clear(&mut self, n: u32) {
        self.bytes[..=n as usize].fill(0);
    }
    #[inline(always)]
    fn insert(&mut self, v: u32) {
        self.bytes[v as usize & 0xffff] = 1;
    }
    /// The smallest value not inserted, knowing it is at most `n`.
    #[inline]
    fn mex(&self, n: u32) -> u32 {
        match self.bytes[..=n as usize].iter().position(|&x| x == 0) {
            Some(i) => i as u32,
            None => unreachable!("a set of at most n values misses a value ≤ n"),
        }
    }
}

/// One thread's scratch space.
struct Scratch {
    seen: Seen,
    /// The cells of the parts of each chord.
    cells: Vec<(usize, usize)>,
}

/// Asks for the cache line of `v[i]` (a hint; nothing happens elsewhere).
#[inline(always)]
fn prefetch<T>(v: &[T], i: usize) {
    #[cfg(target_arch = "x86_64")]
    if i < v.len() {
        // SAFETY: the pointer is inside `v`; a prefetch never faults and
        // changes nothing but the cache.
        unsafe {
            std::arch::x86_64::_mm_prefetch(
                v.as_ptr().add(i) as *const i8,
                std::arch::x86_64::_MM_HINT_T0,
            )
        };
    }
}

/// The Grundy values of every hexagon with extents `R ≤ rmax`, `Q ≤ qmax`,
/// `S ≤ smax` (every sub-hexagon of such a hexagon is one too).
pub struct ChordTable {
    rmax: u32,
    qmax: u32,
    smax: u32,
    /// Start of the entries of each `(R, a)` (at `R(R+1)/2 + a`), then the total.
    group: Vec<usize>,
    /// `g + 1`, 0 = not computed.
    cells: Vec<AtomicU16>,
    /// `rmax == qmax`: the `q ↔ r` image of every entry is in the table.
    square: bool,
    /// Square tables: start of the copy of the hexagons with a side of one
    /// piece (see [`ChordTable::unit_idx`]).
    unit: Option<usize>,
    /// Anti-diagonals `0..done` are computed.
    done: AtomicU32,
    /// Held while computing more anti-diagonals.
    building: Mutex<()>,
    /// Threads that compute them.
    threads: usize,
}

/// Largest Grundy value the table stores.
pub const MAX_VALUE: u32 = u16::MAX as u32 - 1;

/// Cells of each row of the group `(R, a)`: the row `(R, a, b)` holds `Q`
/// from `max(a, b)` (both corner cuts fit) to `min(qmax, smax − R + a + b)`
/// (`S ≤ smax`), stored from `Q = a`, so every row of the group fits
/// `min(qmax − a, smax) + 1` cells (the cells before `max(a, b)` are unused).
#[inline(always)]
fn row_cells(qmax: u32, smax: u32, a: u32) -> usize {
    ((qmax - a).min(smax) + 1) as usize
}

/// Start of each group `(R, a)` of the layout, then the total.
fn group_starts(rmax: u32, qmax: u32, smax: u32) -> Vec<usize> {
    let mut out = Vec::with_capacity(((rmax + 1) * (rmax + 2) / 2) as usize + 1);
    let mut acc = 0usize;
    for r in 0..=rmax {
        for a in 0..=r {
            out.push(acc);
            acc += (r as usize + 1) * row_cells(qmax, smax, a);
        }
    }
    out.push(acc);
    out
}

/// Cells of the copy of the hexagons with `a = R` in a square table of
/// extent `e`: `Q − R`, `b` and `R` each in `0..=e` (see [`ChordTable::unit_idx`]).
fn unit_cells(e: u32) -> usize {
    (e as usize + 1).pow(3)
}

/// The tasks of the anti-diagonal `n` (`R + Q = n`), each the `R` of a block
/// (with its twin `(Q, R)` when both lie in the table, then only the one with
/// `R ≤ Q`), largest first (a block of `m = min(R, Q)` holds about `(m + 1)²`
/// hexagons): the threads then end the diagonal on small blocks, not one of
/// them on the largest while the others wait at the barrier.
fn diagonal_tasks(n: u32, rmax: u32, qmax: u32) -> Vec<u32> {
    let (lo, hi) = (n.saturating_sub(qmax), n.min(rmax));
    let mut tasks: Vec<u32> = (lo..=hi)
        .filter(|&r| {
            let q = n - r;
            let twin = q <= rmax && r <= qmax;
            !(twin && q < r)
        })
        .collect();
    tasks.sort_by_key(|&r| (std::cmp::Reverse(r.min(n - r)), r));
    tasks
}

/// `len` zeroed atomic 16-bit cells, on huge pages when the kernel allows.
fn zeroed_atomic_u16(len: usize) -> Vec<AtomicU16> {
    let v = std::mem::ManuallyDrop::new(crate::mem::zeroed_huge::<u16>(len));
    // SAFETY: `AtomicU16` has the same size, alignment and bit validity as
    // `u16`, so the allocation is a valid `Vec<AtomicU16>` freed with the same
    // layout; `v` is not dropped.
    unsafe { Vec::from_raw_parts(v.as_ptr() as *mut AtomicU16, v.len(), v.capacity()) }
}

impl ChordTable {
    /// Bytes a table with these bounds allocates.
    pub fn bytes(rmax: u32, qmax: u32, smax: u32) -> u64 {
        let unit = if rmax == qmax { unit_cells(rmax) } else { 0 };
        2 * (*group_starts(rmax, qmax, smax).last().unwrap() + unit + 1) as u64
    }

    /// An empty table (nothing computed).
    fn empty(rmax: u32, qmax: u32, smax: u32) -> ChordTable {
        assert!(
            rmax <= qmax && rmax <= smax,
            "a chord table is thin in r: rmax ≤ qmax and rmax ≤ smax"
        );
        let group = group_starts(rmax, qmax, smax);
        let main = *group.last().unwrap();
        let square = rmax == qmax;
        let unit = if square { unit_cells(rmax) } else { 0 };
        let t = ChordTable {
            rmax,
            qmax,
            smax,
            group,
            cells: zeroed_atomic_u16(main + unit + 1),
            unit: square.then_some(main),
            square,
            done: AtomicU32::new(0),
            building: Mutex::new(()),
            threads: 1,
        };
        t.cells[main + unit].store(1, Relaxed);
        t
    }

    /// Computes every hexagon with extents within the bounds on `threads`
    /// threads (plain threads, so that it may run inside a rayon task).
    /// `progress` is told the number of symmetry classes computed.
    pub fn build(
        rmax: u32,
        qmax: u32,
        smax: u32,
        threads: usize,
        progress: &(dyn Fn(u64) + Sync),
    ) -> ChordTable {
        let t = Self::lazy(rmax, qmax, smax, threads);
        t.ensure_with(rmax + qmax, progress);
        t
    }

    /// A table that computes its anti-diagonals only when a question needs
    /// them ([`ChordTable::grundy`], [`ChordTable::options`]): a sweep whose
    /// first boards are small starts at once, and a calibration run on small
    /// boards costs little. Callers that ask while another is computing wait.
    pub fn lazy(rmax: u32, qmax: u32, smax: u32, threads: usize) -> ChordTable {
        let mut t = Self::empty(rmax, qmax, smax);
        t.threads = threads.max(1);
        t
    }

    /// Computes the anti-diagonals up to `n` (`R + Q ≤ n`), if not done yet.
    fn ensure(&self, n: u32) {
        if self.done.load(Acquire) <= n {
            self.ensure_with(n, &|_| {});
        }
    }

    fn ensure_with(&self, n: u32, progress: &(dyn Fn(u64) + Sync)) {
        let n = n.min(self.rmax + self.qmax);
        let lock = self.building.lock().unwrap_or_else(|e| e.into_inner());
        let from = self.done.load(Acquire);
        if from > n {
            return;
        }
        self.run(from, n, progress);
        self.done.store(n + 1, Release);
        drop(lock);
    }

    /// Computes the anti-diagonals `from..=to` on `self.threads` threads
    /// (one: on the calling thread, whose CPU time is then the table's, as
    /// `nimlab calibrate` measures it).
    fn run(&self, from: u32, to: u32, progress: &(dyn Fn(u64) + Sync)) {
        let (rmax, qmax) = (self.rmax, self.qmax);
        let threads = self.threads;
        let barrier = Barrier::new(threads.max(1));
        let next = AtomicUsize::new(0);
        let work = || {
            let mut sc = Scratch {
                seen: Seen::new(),
                cells: Vec::new(),
            };
            for n in from..=to {
                let tasks = diagonal_tasks(n, rmax, qmax);
                // Each thread takes the next task until none is left.
                while let Some(&r) = tasks.get(next.fetch_add(1, Relaxed)) {
                    let q = n - r;
                    let twin = q <= rmax && r <= qmax;
                    let c = self.block(r, q, twin && q != r, &mut sc);
                    if c > 0 {
                        progress(c);
                    }
                }
                if barrier.wait().is_leader() {
                    next.store(0, Relaxed);
                }
                barrier.wait();
            }
        };
        if threads <= 1 {
            return work();
        }
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(work);
            }
        });
    }

    /// Computes the block `(r, q)` (and `(q, r)` when `twin`) by decreasing
    /// `a + b`; returns the number of classes computed.
    fn block(&self, r: u32, q: u32, twin: bool, sc: &mut Scratch) -> u64 {
        let m = r.min(q);
        let mut count = 0;
        for t in (0..=2 * m).rev() {
            if r + q - t > self.smax {
                // S = R + Q − t only grows as t falls.
                break;
            }
            for (br, bq) in [(r, q), (q, r)].into_iter().take(1 + twin as usize) {
                for a in t.saturating_sub(m)..=t.min(m) {
                    let h = Hx {
                        r: br,
                        q: bq,
                        a,
                        b: t - a,
                    };
                    if self.cells[self.idx(h)].load(Relaxed) != 0 {
                        continue;
                    }
                    let g = self.compute(h, sc);
                    self.store(h, g);
                    count += 1;
                }
            }
        }
        count
    }

    /// Writes `g` under every image of `h` in the table.
    fn store(&self, h: Hx, g: u32) {
        assert!(
            g <= MAX_VALUE,
            "a Grundy value above {MAX_VALUE} does not fit the chord table"
        );
        for p in side_images(h.sides()) {
            let img = Hx::from_sides(p);
            if self.contains(img) {
                self.cells[self.idx(img)].store(g as u16 + 1, Relaxed);
                if self.unit.is_some() && img.a == img.r {
                    self.cells[self.unit_idx(img)].store(g as u16 + 1, Relaxed);
                }
            }
        }
    }

    /// Is `h` within the table's bounds?
    #[inline]
    pub fn contains(&self, h: Hx) -> bool {
        h.r <= self.rmax
            && h.q <= self.qmax
            && h.a <= h.r.min(h.q)
            && h.b <= h.r.min(h.q)
            && h.s() <= self.smax
    }

    /// Index of an entry: groups of equal `(R, a)`, rows of equal `b`, then
    /// `Q` (see [`row_cells`]).
    #[inline(always)]
    fn idx(&self, h: Hx) -> usize {
        let g = (h.r * (h.r + 1) / 2 + h.a) as usize;
        self.group[g] + h.b as usize * row_cells(self.qmax, self.smax, h.a) + (h.q - h.a) as usize
    }

    /// `G(h)` from its parts (all computed).
    fn compute(&self, h: Hx, sc: &mut Scratch) -> u32 {
        let n = h.chords();
        self.part_cells(h, &mut sc.cells);
        sc.seen.clear(n);
        for &c in &sc.cells {
            sc.seen.insert(self.chord_value(c));
        }
        sc.seen.mex(n)
    }

    /// The stored cell `i` (`g + 1`, 0 before it is computed).
    #[inline(always)]
    fn raw_at(&self, i: usize) -> u16 {
        debug_assert!(i < self.cells.len());
        // SAFETY: callers pass indices of hexagons within the bounds (parts of
        // a hexagon in the table, or rows of them), which `idx` maps below
        // `cells.len()`.
        unsafe { self.cells.get_unchecked(i) }.load(Relaxed)
    }

    /// The cell of `h = (R, Q, R, b)` (a side of one piece, `p4`) in the
    /// copy of such hexagons: by `Q − R`, then `b`, then `R`. The parts a
    /// chord cuts off near a corner of its hexagon all have a side of one
    /// piece; as the chord moves they change `R`, `Q` and `a` or `b` together,
    /// so in the main table each lies in another slab, while here they lie
    /// along memory (`Q − R` and `b` fixed) or at a fixed stride (`R − b`
    /// fixed), and the whole copy is small enough to stay in cache.
    #[inline(always)]
    fn unit_idx(&self, h: Hx) -> usize {
        debug_assert!(h.a == h.r && h.r <= h.q);
        let e = self.rmax as usize + 1;
        self.unit.unwrap_or(0) + ((h.q - h.r) as usize * e + h.b as usize) * e + h.r as usize
    }

    /// The cell to read `G(h)` from: for a square table, the copy of the
    /// hexagons with a one-piece side when `h` has one (rotated so that it is
    /// `p4`), else `h` itself, or its `q ↔ r` image when `swap` (the parts of
    /// the `r`-chords, which then lie along memory as the chord moves).
    #[inline(always)]
    fn cell_of(&self, h: Hx, swap: bool) -> usize {
        if self.square {
            if h.a == h.r {
                return self.unit_idx(h);
            }
            if h.b == h.r {
                return self.unit_idx(h.flip());
            }
            if h.a == h.q {
                return self.unit_idx(h.swap());
            }
            if h.b == h.q {
                return self.unit_idx(h.flip().swap());
            }
            if swap {
                return self.idx(h.swap());
            }
        }
        self.idx(h)
    }

    /// The cells of the two parts of every chord of `h`, in the order rows,
    /// `q`, `s` ([`Self::empty_cell`] for an empty part), each prefetched: the
    /// reads that follow find most of them in cache, instead of waiting for
    /// memory a few at a time.
    #[inline(always)]
    fn part_cells(&self, h: Hx, out: &mut Vec<(usize, usize)>) {
        let Hx { r, q, a, b } = h;
        let e = self.empty_cell();
        out.clear();
        let mut push = |lo: usize, hi: usize| {
            prefetch(&self.cells[..], lo);
            prefetch(&self.cells[..], hi);
            out.push((lo, hi));
        };
        for k in 0..=r {
            let lo = if k == 0 {
                e
            } else {
                self.cell_of(bottom(h, k), true)
            };
            let hi = if k == r {
                e
            } else {
                self.cell_of(top(h, k), true)
            };
            push(lo, hi);
        }
        for k in 0..=q {
            let lo = if k == 0 {
                e
            } else {
                self.cell_of(left(h, k), false)
            };
            let hi = if k == q {
                e
            } else {
                self.cell_of(right(h, k), false)
            };
            push(lo, hi);
        }
        let top_s = q + r - b;
        for k in a..=top_s {
            let lo = if k == a {
                e
            } else {
                self.cell_of(lower(h, k), false)
            };
            let hi = if k == top_s {
                e
            } else {
                self.cell_of(upper(h, k), false)
            };
            push(lo, hi);
        }
    }

    /// A cell that always holds the value 0: the value of an empty part.
    #[inline(always)]
    fn empty_cell(&self) -> usize {
        self.cells.len() - 1
    }

    /// `G(part 1) xor G(part 2)` for a chord's two cells.
    #[inline(always)]
    fn chord_value(&self, (lo, hi): (usize, usize)) -> u32 {
        let (x, y) = (self.raw_at(lo) as u32, self.raw_at(hi) as u32);
        debug_assert!(x != 0 && y != 0, "a part read before it was computed");
        (x - 1) ^ (y - 1)
    }

    /// `G` of the hexagon with these sides, if it is in the table.
    pub fn grundy(&self, p: [u32; 6]) -> Option<u32> {
        let h = Hx::from_sides(p);
        if !self.contains(h) {
            return None;
        }
        // The hexagon and all its parts lie on anti-diagonals up to R + Q.
        self.ensure(h.r + h.q);
        match self.cells[self.idx(h)].load(Relaxed) {
            0 => None,
            v => Some(v as u32 - 1),
        }
    }

    /// `G` of the hexagon with these sides and the value after each chord,
    /// if it is in the table.
    pub fn options(&self, p: [u32; 6]) -> Option<(u32, Vec<(Cut, u32)>)> {
        let g = self.grundy(p)?;
        let h = Hx::from_sides(p);
        let mut cells = Vec::with_capacity(h.chords() as usize);
        self.part_cells(h, &mut cells);
        let cuts = (0..=h.r)
            .map(|k| Cut { dir: 0, k })
            .chain((0..=h.q).map(|k| Cut { dir: 1, k }))
            .chain((h.a..=h.q + h.r - h.b).map(|k| Cut { dir: 2, k }));
        let out = cuts
            .zip(cells)
            .map(|(c, x)| (c, self.chord_value(x)))
            .collect();
        Some((g, out))
    }

    /// The bounds `(rmax, qmax, smax)`.
    pub fn bounds(&self) -> (u32, u32, u32) {
        (self.rmax, self.qmax, self.smax)
    }
}

#[cfg(test)]
mod tests {
    use super::super::hexsum::{Chord, HexSolver};
    use super::*;
    use crate::family::lines::board::{Hex, closes};

    /// Every closing side tuple with sides in `1..=l`.
    fn all_sides(l: u32) -> Vec<[u32; 6]> {
        let mut out = Vec::new();
        for p0 in 1..=l {
            for p1 in 1..=l {
                for p2 in 1..=l {
                    for p3 in 1..=l {
                        let (Some(p4), true) = ((p0 + p1).checked_sub(p3), true) else {
                            continue;
                        };
                        let Some(p5) = (p1 + p2).checked_sub(p4) else {
                            continue;
                        };
                        let p = [p0, p1, p2, p3, p4, p5];
                        if closes(p) && p4 <= l && p5 <= l {
                            out.push(p);
                        }
                    }
                }
            }
        }
        out
    }

    /// The chord of `HexSolver` (absolute coordinates of `Hex::from_sides`) for a cut.
    fn chord_of(p: [u32; 6], c: Cut) -> Chord {
        let shift = if c.dir == 0 { 0 } else { p[5] as i32 - 1 };
        Chord {
            dir: c.dir,
            k: c.k as i32 - shift,
        }
    }

    fn parts(h: Hx, c: Cut) -> (Option<Hx>, Option<Hx>) {
        let (k, r, q, a, b) = (c.k, h.r, h.q, h.a, h.b);
        match c.dir {
            0 => ((k > 0).then(|| bottom(h, k)), (k < r).then(|| top(h, k))),
            1 => ((k > 0).then(|| left(h, k)), (k < q).then(|| right(h, k))),
            _ => (
                (k > a).then(|| lower(h, k)),
                (k < q + r - b).then(|| upper(h, k)),
            ),
        }
    }

    /// The layout gives every hexagon of the table its own cell.
    #[test]
    fn layout_is_a_bijection() {
        for (rmax, qmax, smax) in [(9, 9, 9), (6, 9, 7), (3, 20, 25), (5, 12, 5), (8, 8, 3 + 8)] {
            let t = ChordTable::empty(rmax, qmax, smax);
            let main = t.unit.unwrap_or(t.cells.len() - 1);
            let mut seen = vec![false; main];
            let mut seen_unit = vec![false; t.cells.len() - main];
            for r in 0..=rmax {
                for q in 0..=qmax {
                    for a in 0..=r.min(q) {
                        for b in 0..=r.min(q) {
                            let h = Hx { r, q, a, b };
                            if !t.contains(h) {
                                continue;
                            }
                            let i = t.idx(h);
                            assert!(!seen[i], "{h:?} shares cell {i}");
                            seen[i] = true;
                            if t.unit.is_some() && a == r {
                                let u = t.unit_idx(h) - main;
                                assert!(!seen_unit[u], "{h:?} shares unit cell {u}");
                                seen_unit[u] = true;
                            }
                        }
                    }
                }
            }
            // Unused: the cells before max(a, b) in the rows b > a, and after
            // the end of the rows b < R − (S bound).
            let used = seen.iter().filter(|&&x| x).count();
            assert!(
                used * 10 > seen.len() * 4,
                "{used} of {} cells used",
                seen.len()
            );
        }
    }

    #[test]
    fn coordinates_roundtrip() {
        for p in all_sides(7) {
            let h = Hx::from_sides(p);
            assert_eq!(h.sides(), p);
            let hex = Hex::from_sides(p);
            assert_eq!(h.r as i32, hex.r1 - hex.r0);
            assert_eq!(h.q as i32, hex.q1 - hex.q0);
            assert_eq!(h.s() as i32, hex.s1 - hex.s0);
        }
    }

    /// The closed-form parts equal the tightened regions of `HexSolver::split`.
    #[test]
    fn parts_match_the_tightened_regions() {
        for p in all_sides(7) {
            let h = Hx::from_sides(p);
            let hex = Hex::from_sides(p);
            let chords: Vec<Chord> = HexSolver::chords(&hex).collect();
            let mut cuts = Vec::new();
            for dir in 0..3u8 {
                let (lo, hi) = match dir {
                    0 => (0, h.r),
                    1 => (0, h.q),
                    _ => (h.a, h.q + h.r - h.b),
                };
                cuts.extend((lo..=hi).map(|k| Cut { dir, k }));
            }
            assert_eq!(cuts.len(), chords.len(), "{p:?}");
            assert_eq!(cuts.len() as u32, h.chords());
            for c in cuts {
                let ch = chord_of(p, c);
                assert!(chords.contains(&ch), "{p:?} {c:?}");
                let (x, y) = HexSolver::split(&hex, ch);
                let (u, v) = parts(h, c);
                assert_eq!(x.map(|x| x.sides()), u.map(|u| u.sides()), "{p:?} {c:?}");
                assert_eq!(y.map(|y| y.sides()), v.map(|v| v.sides()), "{p:?} {c:?}");
            }
        }
    }

    /// Every value of a square table and of a thin one equals the recursion's.
    #[test]
    fn table_matches_the_recursion() {
        let rec = HexSolver::new(90);
        for (rmax, qmax, smax) in [
            (24, 24, 24),
            (13, 20, 20),
            (3, 40, 40),
            (5, 30, 33),
            (6, 25, 18),
        ] {
            for threads in [1, 2] {
                let t = ChordTable::build(rmax, qmax, smax, threads, &|_| {});
                let mut checked = 0;
                for p in all_sides(qmax.max(rmax) + 1) {
                    let h = Hx::from_sides(p);
                    let want = t
                        .contains(h)
                        .then(|| rec.grundy(Hex::from_sides(p), &|_| {}));
                    assert_eq!(t.grundy(p), want, "{p:?} in ({rmax}, {qmax}, {smax})");
                    checked += want.is_some() as usize;
                }
                assert!(checked > 1000, "{checked}");
            }
        }
    }

    #[test]
    fn options_match_the_recursion() {
        let t = ChordTable::build(16, 16, 16, 2, &|_| {});
        let rec = HexSolver::new(20);
        for p in all_sides(8) {
            let (g, opts) = t.options(p).unwrap();
            let (g2, opts2) = rec.options(Hex::from_sides(p), &|_| {});
            assert_eq!(g, g2);
            let mapped: Vec<(Chord, u32)> =
                opts.iter().map(|&(c, v)| (chord_of(p, c), v)).collect();
            let mut a = mapped.clone();
            let mut b = opts2.clone();
            a.sort_by_key(|x| (x.0.dir, x.0.k));
            b.sort_by_key(|x| (x.0.dir, x.0.k));
            assert_eq!(a, b, "{p:?}");
        }
    }
}
