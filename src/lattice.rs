//! Two-dimensional periodic structure of a set of lattice points, seen in a
//! finite box: the smallest translation lattice under which the set is
//! eventually invariant, the region beyond which it is, one fundamental tile,
//! and the evidence (or the proof). Nothing here knows about games: the input
//! is a box `[0, X] × [0, Y]` and the membership of each point
//! (docs/lattice.md explains the model and the proofs).
//!
//! **Lattices.** Every lattice Λ of full rank in ℤ² has exactly one basis in
//! Hermite normal form, `(p, 0)` and `(a, q)` with `p, q ≥ 1` and
//! `0 ≤ a < p`: `p` is the smallest horizontal period, `q` the smallest
//! positive vertical component of a vector of Λ. The rectangle `p × q` is a
//! fundamental domain (a tile): every point is congruent modulo Λ to exactly
//! one point of it. "Smallest" lattice means the set's whole invariance
//! group: the finest lattice, the smallest tile.
//!
//! **Region.** A set L ⊂ ℕ² is *Λ-periodic beyond `(x0, y0)`* when for any two
//! points P, P' of the quadrant `x ≥ x0, y ≥ y0` with `P − P' ∈ Λ`,
//! `P ∈ L ⇔ P' ∈ L`. The preperiod region is then the L-shaped union of the
//! strips `x < x0` and `y < y0` along the axes, where the loss sets of
//! two-heap games keep their exceptions: a heap that is still small changes
//! the game for every size of the other heap, so those exceptions run along the
//! whole strip and no finite box can hold them. The quadrants beyond which L
//! is periodic are closed under union (two paths of lattice steps meet in
//! their intersection), so the exact preperiod region is a staircase: its
//! corners are [`Structure::staircase`]; [`Structure::corner`] is the one
//! nearest the diagonal. The strips themselves are often periodic along
//! their length: [`Strips`] says from where.
//!
//! **Evidence.** *Observed* requires the preperiod to end well inside the box
//! (`x0 ≤ X/2` and `y0 ≤ Y/2`, the half-range rule of GAMES.md for sequences)
//! and the periodic quadrant to hold at least three tiles along each axis
//! (`X + 1 − x0 ≥ 3p`, `Y + 1 − y0 ≥ 3q`); a repeat seen only near the edge of
//! the box is never reported. Every pair of points of the box that differ by
//! a basis vector and lie beyond the corner is compared (two basis vectors
//! with non-negative coordinates suffice: any two congruent points of the
//! quadrant are joined by steps that stay in it). *Proven* needs an argument
//! from outside the data: [`proven_for_sum`] gives one for disjoint sums of
//! two one-heap games, and [`prove`] extends it to the finest lattice the data
//! show.
//!
//! **Cost.** Rows are bitsets; testing a vector is one shifted XOR per row
//! word, so a box of 1001 × 1001 points is analysed in milliseconds.

use std::fmt;

/// A box `[0, w) × [0, h)` of points, each in the set or not (row-major bits).
#[derive(Clone, PartialEq, Eq)]
pub struct Grid {
    w: usize,
    h: usize,
    words: usize,
    bits: Vec<u64>,
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({}×{}, {} points)", self.w, self.h, self.count())
    }
}

impl Grid {
    /// An empty box of `w × h` points (`X = w − 1`, `Y = h − 1`).
    pub fn new(w: usize, h: usize) -> Grid {
        let words = w.div_ceil(64);
        Grid {
            w,
            h,
            words,
            bits: vec![0; words * h],
        }
    }

    /// The box with `f(x, y)` for each point.
    pub fn from_fn(w: usize, h: usize, mut f: impl FnMut(usize, usize) -> bool) -> Grid {
        let mut g = Grid::new(w, h);
        for y in 0..h {
            for x in 0..w {
                if f(x, y) {
                    g.set(x, y, true);
                }
            }
        }
        g
    }

    /// Width (points per row, `X + 1`).
    pub fn width(&self) -> usize {
        self.w
    }

    /// Height (rows, `Y + 1`).
    pub fn height(&self) -> usize {
        self.h
    }

    /// Is `(x, y)` in the set? (Points outside the box are not.)
    #[inline]
    pub fn get(&self, x: usize, y: usize) -> bool {
        x < self.w && y < self.h && self.bits[y * self.words + x / 64] >> (x % 64) & 1 == 1
    }

    /// Puts `(x, y)` in the set or takes it out.
    #[inline]
    pub fn set(&mut self, x: usize, y: usize, v: bool) {
        assert!(x < self.w && y < self.h, "({x}, {y}) is outside the box");
        let w = &mut self.bits[y * self.words + x / 64];
        if v {
            *w |= 1 << (x % 64);
        } else {
            *w &= !(1 << (x % 64));
        }
    }

    /// Number of points in the set.
    pub fn count(&self) -> usize {
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Is the set symmetric under `(x, y) → (y, x)` (in a square box)?
    pub fn is_symmetric(&self) -> bool {
        self.w == self.h && (0..self.h).all(|y| (0..y).all(|x| self.get(x, y) == self.get(y, x)))
    }

    /// The mirror image `(x, y) → (y, x)`.
    pub fn transpose(&self) -> Grid {
        Grid::from_fn(self.h, self.w, |x, y| self.get(y, x))
    }

    /// The sector `x ≥ y` as a quadrant: the point `(u, v)` of the result is
    /// `(u + v, v)`, for `u, v < k` with `k = ⌈min(w, h) / 2⌉` (so that
    /// every such point is in the box).
    pub fn sheared(&self) -> Grid {
        let k = self.w.min(self.h).div_ceil(2);
        Grid::from_fn(k, k, |u, v| self.get(u + v, v))
    }

    fn row(&self, y: usize) -> &[u64] {
        &self.bits[y * self.words..(y + 1) * self.words]
    }

    /// For each row `y ≤ h − 1 − dy`, the largest `x ≤ w − 1 − dx` with
    /// `(x, y) ∈ L ≠ (x + dx, y + dy) ∈ L`, or −1: the violations of the
    /// translation by `(dx, dy)`, row by row.
    fn last_violations(&self, dx: usize, dy: usize) -> Vec<i64> {
        if dx >= self.w || dy >= self.h {
            return Vec::new();
        }
        let n = self.w - dx; // compared x: 0..n
        let (ws, bs) = (dx / 64, dx % 64);
        let full = n / 64;
        let tail = n % 64;
        let mut out = Vec::with_capacity(self.h - dy);
        for y in 0..self.h - dy {
            let a = self.row(y);
            let b = self.row(y + dy);
            let shifted = |i: usize| -> u64 {
                let lo = b.get(i + ws).copied().unwrap_or(0);
                if bs == 0 {
                    lo
                } else {
                    let hi = b.get(i + ws + 1).copied().unwrap_or(0);
                    (lo >> bs) | (hi << (64 - bs))
                }
            };
            let mut last = -1i64;
            let end = full + (tail > 0) as usize;
            for i in (0..end).rev() {
                let mut d = a[i] ^ shifted(i);
                if i == full {
                    d &= (1u64 << tail) - 1;
                }
                if d != 0 {
                    last = (i * 64 + 63 - d.leading_zeros() as usize) as i64;
                    break;
                }
            }
            out.push(last);
        }
        out
    }
}

/// A lattice of ℤ² in Hermite normal form: generated by `(p, 0)` and `(a, q)`,
/// `0 ≤ a < p`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lattice {
    /// Smallest horizontal period.
    pub p: usize,
    /// Horizontal offset of the second generator (`0 ≤ a < p`).
    pub a: usize,
    /// Smallest positive vertical component.
    pub q: usize,
}

impl Lattice {
    /// The lattice generated by `(p, 0)` and `(a mod p, q)`.
    pub fn new(p: usize, a: usize, q: usize) -> Lattice {
        assert!(p >= 1 && q >= 1, "a lattice of full rank needs p, q ≥ 1");
        Lattice { p, a: a % p, q }
    }

    /// Points per tile (the index of Λ in ℤ²): `p · q`.
    pub fn det(&self) -> usize {
        self.p * self.q
    }

    /// Smallest vertical period `m` (`(0, m) ∈ Λ`): `q · p / gcd(a, p)`.
    pub fn vertical(&self) -> usize {
        self.q * (self.p / gcd(self.a, self.p))
    }

    /// Is `(dx, dy)` a vector of the lattice?
    pub fn contains(&self, dx: i64, dy: i64) -> bool {
        let (p, a, q) = (self.p as i64, self.a as i64, self.q as i64);
        dy.rem_euclid(q) == 0 && (dx - (dy / q) * a).rem_euclid(p) == 0
    }

    /// Is `self` a sublattice of `other` (every vector of `self` in `other`)?
    pub fn is_sublattice_of(&self, other: &Lattice) -> bool {
        other.contains(self.p as i64, 0) && other.contains(self.a as i64, self.q as i64)
    }

    /// The lattice generated by two independent integer vectors, in Hermite
    /// normal form.
    pub fn from_basis(v1: (i64, i64), v2: (i64, i64)) -> Lattice {
        let det = (v1.0 * v2.1 - v2.0 * v1.1).unsigned_abs() as usize;
        assert!(det > 0, "the vectors {v1:?} and {v2:?} are dependent");
        // q = gcd(y1, y2) = s·y1 + t·y2; the vector s·v1 + t·v2 has height q.
        let (g, s, t) = ext_gcd(v1.1, v2.1);
        let (q, sign) = (g.unsigned_abs() as usize, g.signum());
        let x = sign * (s * v1.0 + t * v2.0);
        let p = det / q;
        Lattice::new(p, x.rem_euclid(p as i64) as usize, q)
    }

    /// `⟨(p,0), (a,q)⟩` as text.
    pub fn text(&self) -> String {
        format!("⟨({},0), ({},{})⟩", self.p, self.a, self.q)
    }
}

impl fmt::Display for Lattice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

/// `(g, s, t)` with `g = gcd(a, b) = s·a + t·b` (up to sign).
fn ext_gcd(a: i64, b: i64) -> (i64, i64, i64) {
    if b == 0 {
        (a, 1, 0)
    } else {
        let (g, s, t) = ext_gcd(b, a.rem_euclid(b));
        (g, t, s - a.div_euclid(b) * t)
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// How sure a structure is: `Proven` (an argument covers every point of
/// the quadrant, not only the box) or `Observed` (seen in the box, with the
/// evidence of [`Evidence`]); the same type as a one-dimensional period's.
pub use crate::period::Status;

/// Where and how much the periodicity was checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evidence {
    /// The box: `X`, `Y` (points `0..=X`, `0..=Y`).
    pub bounds: (usize, usize),
    /// Whole tiles (`p × q` rectangles) of the periodic quadrant inside the
    /// box along each axis: `⌊(X + 1 − x0)/p⌋`, `⌊(Y + 1 − y0)/q⌋`.
    pub copies: (usize, usize),
    /// Extent of the periodic quadrant inside the box, i.e. how far past the
    /// preperiod it was checked: `X + 1 − x0`, `Y + 1 − y0`.
    pub margin: (usize, usize),
}

impl Evidence {
    fn new(bounds: (usize, usize), corner: (usize, usize), l: &Lattice) -> Evidence {
        let margin = (bounds.0 + 1 - corner.0, bounds.1 + 1 - corner.1);
        Evidence {
            bounds,
            copies: (margin.0 / l.p, margin.1 / l.q),
            margin,
        }
    }
    /// Total whole tiles in the box's periodic quadrant.
    pub fn tiles(&self) -> usize {
        self.copies.0 * self.copies.1
    }
}

/// The coordinates a structure is written in, and the part of the quadrant
/// it describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frame {
    /// `(x, y)` themselves: the quadrant beyond the corner.
    Plain,
    /// The sector below the diagonal in `(u, v) = (x − y, y)`: the corner
    /// `(u0, v0)` means `x − y ≥ u0` and `y ≥ v0`; the strips `u < u0` are the
    /// band along the diagonal.
    Below,
    /// The sector above the diagonal in `(u, v) = (y − x, x)`.
    Above,
}

impl Frame {
    /// The lattice in `(x, y)` of a lattice written in this frame.
    pub fn to_xy(self, l: &Lattice) -> Lattice {
        let (p, a, q) = (l.p as i64, l.a as i64, l.q as i64);
        match self {
            Frame::Plain => *l,
            // (u, v) → (u + v, v)
            Frame::Below => Lattice::from_basis((p, 0), (a + q, q)),
            // (u, v) → (v, u + v)
            Frame::Above => Lattice::from_basis((0, p), (q, a + q)),
        }
    }
    /// The region beyond a corner, in words.
    pub fn region(self, (c0, c1): (usize, usize)) -> String {
        match self {
            Frame::Plain => format!("x ≥ {c0} and y ≥ {c1}"),
            Frame::Below => format!("x − y ≥ {c0} and y ≥ {c1}"),
            Frame::Above => format!("y − x ≥ {c0} and x ≥ {c1}"),
        }
    }
    /// `plain`, `below` or `above`.
    pub fn as_str(self) -> &'static str {
        match self {
            Frame::Plain => "plain",
            Frame::Below => "below",
            Frame::Above => "above",
        }
    }
}

/// The strips of the preperiod region, periodic along their length: the
/// columns `x < x0` (rows `y ≥ y0`) with the vertical period from `y ≥ from.1`,
/// and the rows `y < y0` with the horizontal period `p` from `x ≥ from.0`.
/// With them the whole set is given by the box `[0, max) × [0, max)` and
/// the tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strips {
    /// `(x1, y1)`: rows below the corner repeat with period `p` from `x1`,
    /// columns left of it with the vertical period from `y1`.
    pub from: (usize, usize),
}

/// The periodic structure of a set.
#[derive(Clone, Debug, PartialEq)]
pub struct Structure {
    /// The finest lattice.
    pub lattice: Lattice,
    /// `(x0, y0)`: the set is Λ-periodic on `x ≥ x0, y ≥ y0`; of the
    /// staircase corners with enough evidence, the one with the smallest
    /// `max(x0, y0)`, then `x0 + y0`.
    pub corner: (usize, usize),
    /// Every corner of the exact preperiod region (the staircase), from the
    /// lowest `y0` up: the set is periodic beyond each.
    pub staircase: Vec<(usize, usize)>,
    /// The tile: row `j` (`0 ≤ j < q`) lists the `i < p` with
    /// `(x0 + i, y0 + j)` in the set.
    pub tile: Vec<Vec<usize>>,
    /// Members per point of the tile.
    pub density: f64,
    /// The strips along the axes, when they are periodic too.
    pub strips: Option<Strips>,
    /// Proven or observed.
    pub status: Status,
    /// The box and how much of it the periodic quadrant covers.
    pub evidence: Evidence,
    /// For a proven structure, the argument.
    pub argument: String,
    /// The set (in the box) is symmetric under `(x, y) → (y, x)`.
    pub symmetric: bool,
    /// The coordinates of everything above but [`Structure::lattice_xy`].
    pub frame: Frame,
}

impl Structure {
    /// The lattice in `(x, y)` coordinates.
    pub fn lattice_xy(&self) -> Lattice {
        self.frame.to_xy(&self.lattice)
    }
    /// Points of the tile in the set.
    pub fn members(&self) -> usize {
        self.tile.iter().map(Vec::len).sum()
    }
    /// Is the point in the set, according to the structure (for points of
    /// the periodic quadrant; `None` elsewhere)?
    pub fn predicts(&self, x: usize, y: usize) -> Option<bool> {
        let (x0, y0) = self.corner;
        if x < x0 || y < y0 {
            return None;
        }
        let Lattice { p, a, q } = self.lattice;
        let (dx, dy) = (x - x0, y - y0);
        let j = dy % q;
        let i = (dx + p - (dy / q * a) % p) % p;
        Some(self.tile[j].binary_search(&i).is_ok())
    }
    /// One line: lattice, region, tile, density, status and evidence.
    pub fn summary(&self) -> String {
        let (x0, y0) = self.corner;
        let ev = &self.evidence;
        let base = format!(
            "lattice {}, periodic for x ≥ {x0} and y ≥ {y0}, tile {}×{} with {} of {} points (density {:.4})",
            self.lattice,
            self.lattice.p,
            self.lattice.q,
            self.members(),
            self.lattice.det(),
            self.density
        );
        match self.status {
            Status::Proven => format!("{base}; proven: {}", self.argument),
            Status::Observed => format!(
                "{base}; observed in [0,{}]×[0,{}]: {}×{} tiles, periodic stretch {}×{}",
                ev.bounds.0, ev.bounds.1, ev.copies.0, ev.copies.1, ev.margin.0, ev.margin.1
            ),
        }
    }
}

/// For each `y0 ∈ 0..=h`, the smallest `x0` such that no violation lies at
/// `x ≥ x0, y ≥ y0` (suffix maximum of the last violations, plus one).
fn staircase_of(last: &[i64], h: usize) -> Vec<usize> {
    let mut out = vec![0usize; h + 1];
    let mut m = -1i64;
    for y0 in (0..h).rev() {
        if let Some(&l) = last.get(y0) {
            m = m.max(l);
        }
        out[y0] = (m + 1) as usize;
    }
    out
}

/// Pointwise maximum of two staircases.
fn max_stair(a: &[usize], b: &[usize]) -> Vec<usize> {
    a.iter().zip(b).map(|(x, y)| *x.max(y)).collect()
}

/// The corners `(x0, y0)` of a staircase with enough evidence for a tile of
/// `p × q` in a `w × h` box, and the best one (see [`Structure::corner`]).
fn evidenced(stair: &[usize], w: usize, h: usize, p: usize, q: usize) -> Option<(usize, usize)> {
    let (xm, ym) = ((w - 1) / 2, (h - 1) / 2);
    let mut best: Option<(usize, usize)> = None;
    for (y0, &x0) in stair.iter().enumerate().take(ym + 1) {
        if x0 <= xm && w - x0 >= 3 * p && h - y0 >= 3 * q {
            let key = |c: (usize, usize)| (c.0.max(c.1), c.0 + c.1);
            if best.is_none_or(|b| key((x0, y0)) < key(b)) {
                best = Some((x0, y0));
            }
        }
    }
    best
}

/// The corners of a staircase (where `x0` drops as `y0` grows).
fn corners(stair: &[usize]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (y0, &x0) in stair.iter().enumerate() {
        if y0 == 0 || x0 < stair[y0 - 1] {
            out.push((x0, y0));
        }
    }
    out
}

/// The staircase of a lattice: no violation of either basis vector beyond it
/// (for each `y0`, the smallest such `x0`).
fn lattice_stair(g: &Grid, l: &Lattice) -> Vec<usize> {
    let sp = staircase_of(&g.last_violations(l.p, 0), g.h);
    let sq = staircase_of(&g.last_violations(l.a, l.q), g.h);
    max_stair(&sp, &sq)
}

/// The smallest `d ≤ n/3` for which the staircase of the translation
/// `vector(d)` has a corner with enough evidence for a tile `tile(d)`.
fn smallest_period(
    g: &Grid,
    n: usize,
    vector: impl Fn(usize) -> (usize, usize),
    tile: impl Fn(usize) -> (usize, usize),
) -> Option<usize> {
    (1..=n / 3).find(|&d| {
        let (dx, dy) = vector(d);
        let (tp, tq) = tile(d);
        let stair = staircase_of(&g.last_violations(dx, dy), g.h);
        evidenced(&stair, g.w, g.h, tp, tq).is_some()
    })
}

/// The finest lattice under which the set in the box is eventually
/// periodic, with observed evidence (see the module documentation), or
/// `None` when the box shows no such lattice.
pub fn detect(g: &Grid) -> Option<Structure> {
    if g.w < 3 || g.h < 3 {
        return None;
    }
    let p = smallest_period(g, g.w, |d| (d, 0), |d| (d, 1))?;
    let m = smallest_period(g, g.h, |d| (0, d), |d| (1, d))?;
    let sp = staircase_of(&g.last_violations(p, 0), g.h);
    for q in (1..=m).filter(|q| m % q == 0) {
        for a in 0..p {
            let l = Lattice::new(p, a, q);
            if l.vertical() != m {
                continue;
            }
            let sq = staircase_of(&g.last_violations(a, q), g.h);
            let stair = max_stair(&sp, &sq);
            if let Some(corner) = evidenced(&stair, g.w, g.h, p, q) {
                return Some(structure(
                    g,
                    l,
                    &stair,
                    corner,
                    Status::Observed,
                    String::new(),
                ));
            }
        }
    }
    None
}

/// How a set is periodic.
#[derive(Clone, Debug, PartialEq)]
pub enum Model {
    /// One lattice on the quadrant beyond a corner (the preperiod region is
    /// the L-shaped pair of strips along the axes).
    Quadrant(Structure),
    /// No lattice fits a quadrant, but the two sectors on either side of the
    /// diagonal are each periodic (beyond a band along the diagonal and a
    /// strip along the axis): the structures are in the frames
    /// [`Frame::Below`] and [`Frame::Above`]. Two-heap loss sets can do this:
    /// with the heaps of about equal size the game is another one than with
    /// one heap much larger, and the two regimes meet along the diagonal.
    Sectors {
        /// The sector `x > y`.
        below: Structure,
        /// The sector `y > x`.
        above: Structure,
    },
}

impl Model {
    /// The structures of the model.
    pub fn parts(&self) -> Vec<&Structure> {
        match self {
            Model::Quadrant(s) => vec![s],
            Model::Sectors { below, above } => vec![below, above],
        }
    }
}

/// The quadrant structure of the set if there is one ([`detect`]), else the
/// two sector structures if both sectors are periodic, else `None`.
pub fn analyse(g: &Grid) -> Option<Model> {
    if let Some(s) = detect(g) {
        return Some(Model::Quadrant(s));
    }
    let mut below = detect(&g.sheared())?;
    below.frame = Frame::Below;
    below.symmetric = g.is_symmetric();
    let mut above = detect(&g.transpose().sheared())?;
    above.frame = Frame::Above;
    above.symmetric = below.symmetric;
    Some(Model::Sectors { below, above })
}

/// Assembles the structure of `g` for a lattice and its staircase.
fn structure(
    g: &Grid,
    l: Lattice,
    stair: &[usize],
    corner: (usize, usize),
    status: Status,
    argument: String,
) -> Structure {
    let (x0, y0) = corner;
    let tile: Vec<Vec<usize>> = (0..l.q)
        .map(|j| (0..l.p).filter(|&i| g.get(x0 + i, y0 + j)).collect())
        .collect();
    let members: usize = tile.iter().map(Vec::len).sum();
    let strips = strips_of(g, &l, corner);
    Structure {
        lattice: l,
        corner,
        staircase: corners(stair),
        tile,
        density: members as f64 / l.det() as f64,
        strips,
        status,
        evidence: Evidence::new((g.w - 1, g.h - 1), corner, &l),
        argument,
        symmetric: g.is_symmetric(),
        frame: Frame::Plain,
    }
}

/// Where the strips of the preperiod region become periodic along their
/// length (rows below the corner with `p`, columns left of it with the
/// vertical period), when that happens well inside the box.
fn strips_of(g: &Grid, l: &Lattice, (x0, y0): (usize, usize)) -> Option<Strips> {
    let (p, m) = (l.p, l.vertical());
    // Rows y < y0: last violation of (p, 0).
    let rows = g.last_violations(p, 0);
    let x1 = rows.iter().take(y0).map(|&v| v + 1).max().unwrap_or(0) as usize;
    // Columns x < x0: violations of (0, m) with x < x0, by row.
    let mut y1 = 0usize;
    if x0 > 0 && m < g.h {
        for y in 0..g.h - m {
            let hit = (0..x0.min(g.w)).any(|x| g.get(x, y) != g.get(x, y + m));
            if hit {
                y1 = y + 1;
            }
        }
    }
    let ok = x1 <= (g.w - 1) / 2 && y1 <= (g.h - 1) / 2 && g.w - x1 >= 3 * p && g.h - y1 >= 3 * m;
    ok.then_some(Strips { from: (x1, y1) })
}

/// A lattice proven from outside the data: the set is Λ-periodic beyond
/// `corner`, for every point, by `argument`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// The lattice the argument gives (maybe coarser than the finest one).
    pub lattice: Lattice,
    /// Periodic for `x ≥ corner.0, y ≥ corner.1`.
    pub corner: (usize, usize),
    /// Rows below the corner are periodic in `x` from `corner.0` and columns
    /// left of it in `y` from `corner.1` too (true for sums).
    pub strips: bool,
    /// The argument, in one paragraph.
    pub argument: String,
}

/// The proof for a disjoint sum of two one-heap games whose Grundy sequences
/// are periodic (proven) with `(preperiod, period)` = `h1` and `h2`: the
/// two-heap loss set `L = {(x, y) : G1(x) = G2(y)}` is invariant under
/// `(p1, 0)` wherever `x ≥ t1` and under `(0, p2)` wherever `y ≥ t2`, so it is
/// periodic with the lattice `⟨(p1, 0), (0, p2)⟩` beyond `(t1, t2)`, and its
/// strips are periodic along their length from the same corner.
pub fn proven_for_sum(h1: (usize, usize), h2: (usize, usize)) -> Proof {
    let ((t1, p1), (t2, p2)) = (h1, h2);
    Proof {
        lattice: Lattice::new(p1, 0, p2),
        corner: (t1, t2),
        strips: true,
        argument: format!(
            "a sum of two one-heap games is lost exactly when G1(x) = G2(y) (Sprague–Grundy); \
             G1(x + {p1}) = G1(x) for x ≥ {t1} and G2(y + {p2}) = G2(y) for y ≥ {t2} (proven one-heap periods), \
             so (x, y) and (x + {p1}, y) are both lost or both won when x ≥ {t1}, and (x, y) and (x, y + {p2}) when y ≥ {t2}"
        ),
    }
}

/// The finest lattice the data show, proven with the help of `proof`. The
/// proof makes the set Λ_proof-periodic beyond its corner. If a lattice
/// Λ ⊇ Λ_proof has no violation in the box beyond a corner `c ≥ proof.corner`,
/// and the box holds the rectangle `[c, c + (p, q))` of Λ_proof's basis (a
/// fundamental domain) moved by each basis vector of Λ, then Λ holds on the
/// whole quadrant beyond `c`: every point P there with P + g (g a basis
/// vector) is congruent modulo Λ_proof to a point P0 of that rectangle, with
/// P + g congruent to P0 + g, and both pairs lie beyond the proof's corner.
/// Falls back to Λ_proof itself at the proof's corner; `None` when the box
/// does not even hold one tile beyond it.
pub fn prove(g: &Grid, proof: &Proof) -> Option<Structure> {
    let lp = proof.lattice;
    let (cx, cy) = proof.corner;
    let key = |c: (usize, usize)| (c.0.max(c.1), c.0 + c.1);
    if let Some(l) = detect(g)
        .map(|s| s.lattice)
        .filter(|l| *l != lp && lp.is_sublattice_of(l))
    {
        let stair = lattice_stair(g, &l);
        let need = (lp.p + l.p.max(l.a), lp.q + l.q);
        let mut best: Option<(usize, usize)> = None;
        for (y0, &x0) in stair.iter().enumerate().skip(cy) {
            let c = (x0.max(cx), y0);
            if c.0 + need.0 <= g.w && c.1 + need.1 <= g.h && best.is_none_or(|b| key(c) < key(b)) {
                best = Some(c);
            }
        }
        if let Some(c) = best {
            let argument = format!(
                "{}; so the set is {lp}-periodic beyond ({cx}, {cy}); the finer lattice {l} has no violation beyond ({}, {}) in the box, which holds a fundamental domain of {lp} there moved by each basis vector of {l}, and every pair of points beyond ({}, {}) that differ by a basis vector is congruent modulo {lp} to a checked pair",
                proof.argument, c.0, c.1, c.0, c.1
            );
            let mut s = structure(g, l, &[], c, Status::Proven, argument);
            s.staircase = vec![c];
            // The strips' periods along their length are not part of this argument.
            s.strips = None;
            return Some(s);
        }
    }
    if cx + lp.p > g.w || cy + lp.q > g.h {
        return None;
    }
    let mut s = structure(g, lp, &[], (cx, cy), Status::Proven, proof.argument.clone());
    s.staircase = vec![(cx, cy)];
    s.strips = proof.strips.then_some(Strips { from: (cx, cy) });
    Some(s)
}

#[cfg(test)]
mod tests;
