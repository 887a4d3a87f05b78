//! `take: maximal`, normal play, on convex boards (every hexagon-family shape).
//!
//! In a full convex hexagon every maximal run is a whole chord (the board's
//! intersection with one line), and removing chord `r = k` (or `q = k`, or
//! `q + r = k`) leaves the parts on either side of it, which are again convex
//! hexagons and are not adjacent to each other. So every position reachable
//! from such a board is a sum of hexagons given by six side lengths, and
//! `G(H) = mex { G(H ∩ {line < k}) xor G(H ∩ {line > k}) }` over the three
//! directions and every `k`. The memo is keyed by side tuples: a dense table
//! over `(p0, p1, p2, p3)` (the other two follow from closure) when the
//! longest side is small enough, with each value written under all 12 images
//! of its tuple; otherwise a concurrent hash map keyed by the canonical tuple.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use super::chordtab::{ChordTable, Hx};
use crate::family::lines::board::{Hex, Pt, canonical_sides, side_images};
use crate::family::lines::components::Mex;
use crate::family::lines::memo::Sharded;

/// Dense tables up to this many entries (bytes) for a single board or a
/// small sweep: 700 MB, lines up to 162 pieces. Zeroing a bigger table costs
/// more than the few sub-hexagons such a sweep reaches.
const DENSE_MAX: u64 = 700_000_000;

/// Dense tables up to this many bytes for sweeps of at least
/// [`MANY_BOARDS`] boards (every hexagon up to a size): 4.3 GB, lines up to
/// 256 pieces (every hexagon with sides ≤ 128). The hashed memo (a locked hash
/// map lookup per value instead of one byte) is much slower there: sides ≤ 100
/// finished 1 chunk of 55 in 10 minutes with it, and all of sides ≤ 96 take
/// 550 s with the dense table.
const DENSE_MAX_SWEEP: u64 = 1 << 32;

/// What counts as a big sweep for [`DENSE_MAX_SWEEP`].
pub const MANY_BOARDS: usize = 100_000;

/// The largest extent of the [`ChordTable`] a sweep of `boards` boards whose
/// longest line has `max_side` pieces computes up front: `max_side − 1`, which
/// holds every hexagon with sides up to `max_side / 2 + 1` (all three extents
/// of a hexagon with sides ≤ m are at most 2m − 2, and its longest line has
/// 2m − 1 pieces), when the sweep is big and the table fits
/// [`DENSE_MAX_SWEEP`]. Hexagons outside it use the memo.
pub fn table_extent(max_side: u32, boards: usize) -> Option<u32> {
    let e = max_side.checked_sub(1)?;
    (boards >= MANY_BOARDS && ChordTable::bytes(e, e, e) <= DENSE_MAX_SWEEP).then_some(e)
}

/// Largest side the hashed memo can key (10 bits per side).
pub const MAX_SIDE: u32 = 1023;

enum Memo {
    /// `g + 1` in one byte; 255 means "g ≥ 254, see `big`".
    Dense {
        d: usize,
        cells: Vec<AtomicU8>,
        big: Sharded<u64, u32>,
    },
    Hashed(Sharded<u64, u32>),
}

/// The chord solver; shared by every case of a sweep.
pub struct HexSolver {
    memo: Memo,
    /// Big sweeps: every hexagon within bounds, computed bottom-up up front
    /// (answers before `memo`, which then only sees hexagons outside it).
    table: Option<ChordTable>,
    max_side: u32,
    computed: AtomicU64,
}

/// A chord: direction index into [`DIRS`] and the line's coordinate
/// (`r` for direction 0, `q` for 1, `q + r` for 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chord {
    /// Direction index.
    pub dir: u8,
    /// Line coordinate.
    pub k: i32,
}

/// `len` zeroed atomic bytes, on huge pages when the kernel allows.
fn zeroed_atomic_bytes(len: usize) -> Vec<AtomicU8> {
    let v = std::mem::ManuallyDrop::new(crate::mem::zeroed_huge::<u8>(len));
    // SAFETY: `AtomicU8` has the same size, alignment and bit validity as
    // `u8`, so the allocation (pointer, length, capacity) is a valid
    // `Vec<AtomicU8>` and is freed with the same layout; `v` is not dropped.
    unsafe { Vec::from_raw_parts(v.as_ptr() as *mut AtomicU8, v.len(), v.capacity()) }
}

impl HexSolver {
    /// A solver for hexagons all of whose sub-hexagons have sides at most `max_side`.
    pub fn new(max_side: u32) -> HexSolver {
        Self::for_sweep(max_side, 1)
    }

    /// [`HexSolver::new`] shared by a sweep of `boards` boards. A big sweep
    /// (at least [`MANY_BOARDS`] boards) computes every hexagon whose three
    /// extents are below its longest line (see [`table_extent`]) into a
    /// [`ChordTable`], bottom-up as far as its boards need, on as many plain
    /// threads as rayon has.
    pub fn for_sweep(max_side: u32, boards: usize) -> HexSolver {
        assert!(max_side <= MAX_SIDE);
        if let Some(e) = table_extent(max_side, boards) {
            let threads = rayon::current_num_threads();
            return HexSolver {
                memo: Memo::Hashed(Sharded::default()),
                table: Some(ChordTable::lazy(e, e, e, threads)),
                max_side,
                computed: AtomicU64::new(0),
            };
        }
        let d = max_side.max(1) as u64;
        let memo = if d.pow(4) <= Self::dense_max(boards) {
            Memo::Dense {
                d: d as usize,
                cells: zeroed_atomic_bytes(d.pow(4) as usize),
                big: Sharded::default(),
            }
        } else {
            Memo::Hashed(Sharded::default())
        };
        HexSolver {
            memo,
            table: None,
            max_side,
            computed: AtomicU64::new(0),
        }
    }

    /// A solver that reads every value from one [`ChordTable`] thin in `r`
    /// (rows `≤ rows`, lines `≤ length` pieces), computed bottom-up on demand
    /// on as many plain threads as rayon has: for sequences of boards with
    /// few rows and long lines (report 000's A, B, C far along), beyond the
    /// memo's sides of [`MAX_SIDE`]. Every board asked must lie in the table
    /// ([`HexSolver::thin_holds`]); so do all their parts.
    pub fn thin(rows: u32, length: u32) -> HexSolver {
        assert!(rows >= 1 && length >= rows);
        let threads = rayon::current_num_threads();
        HexSolver {
            memo: Memo::Hashed(Sharded::default()),
            table: Some(ChordTable::lazy(rows - 1, length - 1, length - 1, threads)),
            max_side: length,
            computed: AtomicU64::new(0),
        }
    }

    /// Does [`HexSolver::thin`]`(rows, length)` hold the hexagon with these sides?
    pub fn thin_holds(rows: u32, length: u32, p: [u32; 6]) -> bool {
        let h = Hx::from_sides(p);
        h.r < rows && h.q < length && h.s() < length
    }

    /// The `(rows, length)` of the smallest thin table holding these hexagons.
    pub fn thin_bounds(sides: impl IntoIterator<Item = [u32; 6]>) -> (u32, u32) {
        sides.into_iter().fold((1, 1), |(r, l), p| {
            let h = Hx::from_sides(p);
            (r.max(h.r + 1), l.max(h.q.max(h.s()) + 1).max(h.r + 1))
        })
    }

    /// Bytes [`HexSolver::thin`] allocates.
    pub fn thin_bytes(rows: u32, length: u32) -> u64 {
        ChordTable::bytes(rows - 1, length - 1, length - 1)
    }

    fn dense_max(boards: usize) -> u64 {
        if boards >= MANY_BOARDS {
            DENSE_MAX_SWEEP
        } else {
            DENSE_MAX
        }
    }

    /// Bytes [`HexSolver::for_sweep`] allocates up front.
    pub fn upfront_bytes(max_side: u32, boards: usize) -> u64 {
        if let Some(e) = table_extent(max_side, boards) {
            return ChordTable::bytes(e, e, e);
        }
        let d = max_side.max(1) as u64;
        if d.pow(4) <= Self::dense_max(boards) {
            d.pow(4)
        } else {
            0
        }
    }

    /// Shapes solved so far.
    pub fn computed(&self) -> u64 {
        self.computed.load(Ordering::Relaxed)
    }

    /// The largest side this solver handles.
    pub fn max_side(&self) -> u32 {
        self.max_side
    }

    fn dense_index(d: usize, p: &[u32; 6]) -> usize {
        (((p[0] as usize - 1) * d + p[1] as usize - 1) * d + p[2] as usize - 1) * d + p[3] as usize
            - 1
    }

    fn pack(p: [u32; 6]) -> u64 {
        p.iter().fold(0u64, |a, &x| (a << 10) | x as u64)
    }

    fn get(&self, p: &[u32; 6]) -> Option<u32> {
        if let Some(g) = self.table.as_ref().and_then(|t| t.grundy(*p)) {
            return Some(g);
        }
        match &self.memo {
            Memo::Dense { d, cells, big } => {
                match cells[Self::dense_index(*d, p)].load(Ordering::Relaxed) {
                    0 => None,
                    255 => big.get(&Self::pack(canonical_sides(*p))),
                    v => Some(v as u32 - 1),
                }
            }
            Memo::Hashed(m) => m.get(&Self::pack(canonical_sides(*p))),
        }
    }

    fn put(&self, p: [u32; 6], g: u32) {
        match &self.memo {
            Memo::Dense { d, cells, big } => {
                if g >= 254 {
                    big.insert(Self::pack(canonical_sides(p)), g);
                }
                let v = (g + 1).min(255) as u8;
                for img in side_images(p) {
                    cells[Self::dense_index(*d, &img)].store(v, Ordering::Relaxed);
                }
            }
            Memo::Hashed(m) => m.insert(Self::pack(canonical_sides(p)), g),
        }
    }

    /// Grundy value of a (possibly empty) region.
    fn value(&self, h: Option<Hex>, progress: &(dyn Fn(u64) + Sync)) -> u32 {
        match h {
            None => 0,
            Some(h) => self.grundy(h, progress),
        }
    }

    /// The two parts left by removing a chord.
    pub fn split(h: &Hex, c: Chord) -> (Option<Hex>, Option<Hex>) {
        let k = c.k;
        match c.dir {
            0 => (
                Hex { r1: k - 1, ..*h }.tighten(),
                Hex { r0: k + 1, ..*h }.tighten(),
            ),
            1 => (
                Hex { q1: k - 1, ..*h }.tighten(),
                Hex { q0: k + 1, ..*h }.tighten(),
            ),
            _ => (
                Hex { s1: k - 1, ..*h }.tighten(),
                Hex { s0: k + 1, ..*h }.tighten(),
            ),
        }
    }

    /// Every chord of a tight hexagon.
    pub fn chords(h: &Hex) -> impl Iterator<Item = Chord> + '_ {
        (h.r0..=h.r1)
            .map(|k| Chord { dir: 0, k })
            .chain((h.q0..=h.q1).map(|k| Chord { dir: 1, k }))
            .chain((h.s0..=h.s1).map(|k| Chord { dir: 2, k }))
    }

    /// The points of a chord, in order along its direction.
    pub fn chord_cells(h: &Hex, c: Chord) -> Vec<Pt> {
        let k = c.k;
        match c.dir {
            0 => {
                let (lo, hi) = h.row(k);
                (lo..=hi).map(|q| (q, k)).collect()
            }
            1 => {
                let (lo, hi) = (h.r0.max(h.s0 - k), h.r1.min(h.s1 - k));
                (lo..=hi).map(|r| (k, r)).collect()
            }
            _ => {
                let (lo, hi) = (h.q0.max(k - h.r1), h.q1.min(k - h.r0));
                (lo..=hi).map(|q| (q, k - q)).collect()
            }
        }
    }

    /// Grundy value of a tight hexagon.
    pub fn grundy(&self, h: Hex, progress: &(dyn Fn(u64) + Sync)) -> u32 {
        let p = h.sides();
        if let Some(g) = self.get(&p) {
            return g;
        }
        let mut seen = Mex::default();
        for c in Self::chords(&h) {
            let (a, b) = Self::split(&h, c);
            seen.insert(self.value(a, progress) ^ self.value(b, progress));
        }
        let g = seen.mex();
        self.put(p, g);
        let n = self.computed.fetch_add(1, Ordering::Relaxed) + 1;
        if n.is_multiple_of(4096) {
            progress(4096);
        }
        g
    }

    /// The Grundy value of a tight hexagon and the value after each chord.
    pub fn options(&self, h: Hex, progress: &(dyn Fn(u64) + Sync)) -> (u32, Vec<(Chord, u32)>) {
        if let Some((g, cuts)) = self.table.as_ref().and_then(|t| t.options(h.sides())) {
            // Table coordinates count from the hexagon's lowest row and smallest q.
            let chords = cuts
                .into_iter()
                .map(|(c, v)| {
                    let base = match c.dir {
                        0 => h.r0,
                        1 => h.q0,
                        _ => h.q0 + h.r0,
                    };
                    (
                        Chord {
                            dir: c.dir,
                            k: base + c.k as i32,
                        },
                        v,
                    )
                })
                .collect();
            return (g, chords);
        }
        let mut seen = Mex::default();
        let mut out = Vec::new();
        for c in Self::chords(&h) {
            let (a, b) = Self::split(&h, c);
            let g = self.value(a, progress) ^ self.value(b, progress);
            seen.insert(g);
            out.push((c, g));
        }
        let g = seen.mex();
        if self.get(&h.sides()).is_none() {
            self.put(h.sides(), g);
        }
        (g, out)
    }
}
