//! Boards on the triangular lattice (GAMES.md §3): axial coordinates `(q, r)`,
//! line directions `(1,0)`, `(0,1)`, `(1,-1)`; equiangular hexagons given by
//! the pieces along each side, the named shapes that are special cases of
//! them, and explicit masks.

use std::fmt::Write as _;

use rustc_hash::FxHashMap;

/// A lattice point `(q, r)`.
pub type Pt = (i32, i32);

/// The three line directions.
pub const DIRS: [Pt; 3] = [(1, 0), (0, 1), (1, -1)];

/// The six neighbour offsets.
pub const NEIGHBOURS: [Pt; 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];

/// The six permutations of the cube coordinates `(q, r, s = -q-r)`.
const PERMS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [1, 2, 0],
    [2, 0, 1],
    [1, 0, 2],
    [0, 2, 1],
    [2, 1, 0],
];

/// Symmetry `t` (0..12) of the lattice applied to a point: a permutation of
/// the cube coordinates, negated for `t >= 6`. Every line direction maps to a
/// line direction, so runs map to runs.
pub fn transform(t: usize, p: Pt) -> Pt {
    let c = [p.0, p.1, -p.0 - p.1];
    let perm = PERMS[t % 6];
    let sign = if t >= 6 { -1 } else { 1 };
    (sign * c[perm[0]], sign * c[perm[1]])
}

/// The twelve images of a side tuple under the dihedral group (rotations shift
/// the sides cyclically, reflections reverse them).
pub fn side_images(p: [u32; 6]) -> [[u32; 6]; 12] {
    let mut out = [[0; 6]; 12];
    for rot in 0..6 {
        for i in 0..6 {
            out[rot][i] = p[(i + rot) % 6];
            out[6 + rot][i] = p[(6 + rot - i) % 6];
        }
    }
    out
}

/// The lexicographically smallest image of a side tuple: one representative
/// per symmetry class of equiangular hexagons.
pub fn canonical_sides(p: [u32; 6]) -> [u32; 6] {
    side_images(p).into_iter().min().unwrap()
}

/// Does the side walk close (report 000's Lemma 8)?
pub fn closes(p: [u32; 6]) -> bool {
    p.iter().all(|&x| x >= 1) && p[0] + p[1] == p[3] + p[4] && p[1] + p[2] == p[4] + p[5]
}

/// An equiangular hexagon (possibly degenerate) as the intersection of three
/// strips: `r0 ≤ r ≤ r1`, `q0 ≤ q ≤ q1`, `s0 ≤ q + r ≤ s1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hex {
    /// Lowest row.
    pub r0: i32,
    /// Highest row.
    pub r1: i32,
    /// Smallest q.
    pub q0: i32,
    /// Largest q.
    pub q1: i32,
    /// Smallest q + r.
    pub s0: i32,
    /// Largest q + r.
    pub s1: i32,
}

impl Hex {
    /// The hexagon of the given side piece counts, walked from (0,0) along
    /// (1,0), (0,1), (-1,1), (-1,0), (0,-1), (1,-1). The sides must close.
    pub fn from_sides(p: [u32; 6]) -> Hex {
        debug_assert!(closes(p), "{p:?}");
        let p: [i32; 6] = p.map(|x| x as i32);
        Hex {
            r0: 0,
            r1: p[1] + p[2] - 2,
            q0: 1 - p[5],
            q1: p[0] - 1,
            s0: 0,
            s1: p[0] + p[1] - 2,
        }
    }

    /// Tightens every bound to a point of the region; `None` when it is empty.
    pub fn tighten(mut self) -> Option<Hex> {
        loop {
            let before = self;
            self.r1 = self.r1.min(self.s1 - self.q0);
            self.r0 = self.r0.max(self.s0 - self.q1);
            self.q1 = self.q1.min(self.s1 - self.r0);
            self.q0 = self.q0.max(self.s0 - self.r1);
            self.s1 = self.s1.min(self.q1 + self.r1);
            self.s0 = self.s0.max(self.q0 + self.r0);
            if self.r0 > self.r1 || self.q0 > self.q1 || self.s0 > self.s1 {
                return None;
            }
            if self == before {
                return Some(self);
            }
        }
    }

    /// The q range of row `r` (may be empty: lo > hi).
    pub fn row(&self, r: i32) -> (i32, i32) {
        (self.q0.max(self.s0 - r), self.q1.min(self.s1 - r))
    }

    /// Side piece counts of a tight hexagon, in walk order starting with the bottom row.
    pub fn sides(&self) -> [u32; 6] {
        let c = |lo: i32, hi: i32| (hi - lo + 1) as u32;
        [
            c(
                self.q0.max(self.s0 - self.r0),
                self.q1.min(self.s1 - self.r0),
            ),
            c(
                self.r0.max(self.s0 - self.q1),
                self.r1.min(self.s1 - self.q1),
            ),
            c(
                self.q0.max(self.s1 - self.r1),
                self.q1.min(self.s1 - self.r0),
            ),
            c(
                self.q0.max(self.s0 - self.r1),
                self.q1.min(self.s1 - self.r1),
            ),
            c(
                self.r0.max(self.s0 - self.q0),
                self.r1.min(self.s1 - self.q0),
            ),
            c(
                self.q0.max(self.s0 - self.r1),
                self.q1.min(self.s0 - self.r0),
            ),
        ]
    }

    /// Number of points.
    pub fn count(&self) -> u64 {
        (self.r0..=self.r1)
            .map(|r| {
                let (lo, hi) = self.row(r);
                (hi - lo + 1).max(0) as u64
            })
            .sum()
    }

    /// The points, row by row from the bottom, q ascending.
    pub fn points(&self) -> Vec<Pt> {
        let mut v = Vec::new();
        for r in self.r0..=self.r1 {
            let (lo, hi) = self.row(r);
            for q in lo..=hi {
                v.push((q, r));
            }
        }
        v
    }

    /// The longest chord (line segment) in any direction: an upper bound on
    /// every side of every sub-hexagon.
    pub fn longest_chord(&self) -> u32 {
        let (a, b, c) = (self.q1 - self.q0, self.r1 - self.r0, self.s1 - self.s0);
        (a.min(c).max(b.min(c)).max(a.min(b)) + 1) as u32
    }
}

/// A board shape, as a spec or the command line gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `hexagon: [p0..p5]`.
    Hexagon([u32; 6]),
    /// `triangle: n`.
    Triangle(u32),
    /// `trapezoid: [x, y]` = A(x,y).
    Trapezoid(u32, u32),
    /// `parallelogram: [x, y]` = B(x,y).
    Parallelogram(u32, u32),
    /// `pentagon: [x, y, z]` = C(x,y,z).
    Pentagon(u32, u32, u32),
    /// `mask:` rows, top first (normalised: `O` and `.` only).
    Mask(Vec<String>),
}

impl Shape {
    /// The six piece counts for every shape of the hexagon family.
    pub fn sides(&self) -> Option<[u32; 6]> {
        Some(match *self {
            Shape::Hexagon(p) => p,
            Shape::Triangle(n) => [n, 1, n, 1, n, 1],
            Shape::Trapezoid(x, y) => [x + y - 1, 1, x, y, x, 1],
            Shape::Parallelogram(x, y) => [y, x, 1, y, x, 1],
            Shape::Pentagon(x, y, z) => [x + y - 1, z, x, y, x + z - 1, 1],
            Shape::Mask(_) => return None,
        })
    }
    /// The kind: `hexagon`, `triangle`, `trapezoid`, `parallelogram`, `pentagon`, `mask`.
    pub fn kind(&self) -> &'static str {
        match self {
            Shape::Hexagon(_) => "hexagon",
            Shape::Triangle(_) => "triangle",
            Shape::Trapezoid(..) => "trapezoid",
            Shape::Parallelogram(..) => "parallelogram",
            Shape::Pentagon(..) => "pentagon",
            Shape::Mask(_) => "mask",
        }
    }
    /// The shape as the spec wrote it (`trapezoid: [2, 3]`).
    pub fn text(&self) -> String {
        match self {
            Shape::Hexagon(p) => format!("hexagon: {}", list(p)),
            Shape::Triangle(n) => format!("triangle: {n}"),
            Shape::Trapezoid(x, y) => format!("trapezoid: [{x}, {y}]"),
            Shape::Parallelogram(x, y) => format!("parallelogram: [{x}, {y}]"),
            Shape::Pentagon(x, y, z) => format!("pentagon: [{x}, {y}, {z}]"),
            Shape::Mask(rows) => format!("mask: {}", rows.join("/")),
        }
    }
    /// Report 000's name: `A(2,3)`, `B(2,3)`, `C(2,2,2)`, `T(7)`, `H(3,3,3,3,3,3)`, `mask`.
    pub fn name(&self) -> String {
        match self {
            Shape::Hexagon(p) => format!(
                "H({})",
                p.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            Shape::Triangle(n) => format!("T({n})"),
            Shape::Trapezoid(x, y) => format!("A({x},{y})"),
            Shape::Parallelogram(x, y) => format!("B({x},{y})"),
            Shape::Pentagon(x, y, z) => format!("C({x},{y},{z})"),
            Shape::Mask(rows) => format!("mask {}", rows.join("/")),
        }
    }
    /// The same shape a step smaller (a row or a column less; a mask
    /// without its last row), for an estimate's scaled-down cases; `None`
    /// for a hexagon (its sides are tied together) or a single row.
    pub fn shrunk(&self) -> Option<Shape> {
        let less = |v: u32| (v > 1).then(|| v - 1);
        Some(match self {
            Shape::Triangle(n) => Shape::Triangle(less(*n)?),
            Shape::Trapezoid(x, y) if y >= x => Shape::Trapezoid(*x, less(*y)?),
            Shape::Trapezoid(x, y) => Shape::Trapezoid(less(*x)?, *y),
            Shape::Parallelogram(x, y) if y >= x => Shape::Parallelogram(*x, less(*y)?),
            Shape::Parallelogram(x, y) => Shape::Parallelogram(less(*x)?, *y),
            Shape::Pentagon(x, y, z) if y >= x && y >= z => Shape::Pentagon(*x, less(*y)?, *z),
            Shape::Pentagon(x, y, z) if x >= z => Shape::Pentagon(less(*x)?, *y, *z),
            Shape::Pentagon(x, y, z) => Shape::Pentagon(*x, *y, less(*z)?),
            Shape::Mask(rows) if rows.len() > 1 => Shape::Mask(rows[..rows.len() - 1].to_vec()),
            Shape::Mask(_) | Shape::Hexagon(_) => return None,
        })
    }
    /// The named parameters `(x, y, z)` (triangle: `x = n`).
    pub fn params(&self) -> [Option<u32>; 3] {
        match *self {
            Shape::Triangle(n) => [Some(n), None, None],
            Shape::Trapezoid(x, y) | Shape::Parallelogram(x, y) => [Some(x), Some(y), None],
            Shape::Pentagon(x, y, z) => [Some(x), Some(y), Some(z)],
            _ => [None, None, None],
        }
    }
    /// Appends [`Shape::text`] to `out` (a hexagon without allocating: a
    /// sweep's case keys list up to 20,000 boards each).
    pub fn push_text(&self, out: &mut String) {
        match self {
            Shape::Hexagon(p) => {
                out.push_str("hexagon: [");
                for (i, &x) in p.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    push_decimal(out, x);
                }
                out.push(']');
            }
            _ => out.push_str(&self.text()),
        }
    }
    /// Number of pieces (without building the board).
    pub fn pieces(&self) -> u64 {
        match self.sides() {
            Some(p) => hexagon_pieces(p),
            None => match self {
                Shape::Mask(rows) => rows
                    .iter()
                    .map(|r| r.chars().filter(|&c| c == 'O').count() as u64)
                    .sum(),
                _ => unreachable!(),
            },
        }
    }
    /// The board.
    pub fn board(&self) -> Board {
        match self.sides() {
            Some(p) => Board::from_points(Hex::from_sides(p).points(), Some(p)),
            None => {
                let Shape::Mask(rows) = self else {
                    unreachable!()
                };
                let n = rows.len() as i32;
                let mut pts = Vec::new();
                for (i, row) in rows.iter().enumerate() {
                    let r = n - 1 - i as i32;
                    for (k, c) in row.chars().enumerate() {
                        if c == 'O' {
                            pts.push((k as i32, r));
                        }
                    }
                }
                pts.sort_by_key(|&(q, r)| (r, q));
                Board::from_points(pts, None)
            }
        }
    }
}

/// The mask of a sum of regions: the parts' boards side by side, each shifted
/// right so that two columns of empty points separate it from the previous one
/// (points whose q differ by 2 or more are not neighbours, so no run and no
/// maximal run joins two parts), all resting on the bottom row.
pub fn sum_mask(parts: &[Shape]) -> Vec<String> {
    let mut pts: Vec<Pt> = Vec::new();
    let mut next_q = 0;
    for part in parts {
        let b = part.board();
        let (q0, r0) = b
            .points
            .iter()
            .fold((i32::MAX, i32::MAX), |(q, r), p| (q.min(p.0), r.min(p.1)));
        let shifted: Vec<Pt> = b
            .points
            .iter()
            .map(|&(q, r)| (q - q0 + next_q, r - r0))
            .collect();
        next_q = shifted.iter().map(|p| p.0).max().unwrap_or(next_q) + 2;
        pts.extend(shifted);
    }
    let height = pts.iter().map(|p| p.1).max().unwrap_or(0) + 1;
    let width = pts.iter().map(|p| p.0).max().unwrap_or(0) + 1;
    let mut rows = vec![vec!['.'; width as usize]; height as usize];
    for (q, r) in pts {
        rows[(height - 1 - r) as usize][q as usize] = 'O';
    }
    rows.into_iter().map(|r| r.into_iter().collect()).collect()
}

/// Appends `x` in decimal (as `{x}` formats it, without the formatter).
fn push_decimal(out: &mut String, mut x: u32) {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (x % 10) as u8;
        x /= 10;
        if x == 0 {
            break;
        }
    }
    out.extend(digits[i..].iter().map(|&d| d as char));
}

fn list(p: &[u32]) -> String {
    format!(
        "[{}]",
        p.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// Reads mask rows: `O` is a piece, `.` an empty point, spaces are ignored.
/// Errors say which row and character is wrong.
pub fn parse_mask(rows: &[&str]) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let mut s = String::new();
        for (j, c) in row.chars().enumerate() {
            match c {
                'O' | '.' => s.push(c),
                ' ' | '\t' => {}
                _ => {
                    return Err(format!(
                        "row {} (from the top), character {}: {c:?} is not allowed; use `O` for a piece, `.` for an empty point, spaces between",
                        i + 1,
                        j + 1
                    ));
                }
            }
        }
        out.push(s);
    }
    // Leading and trailing blank rows carry no information.
    while out.first().is_some_and(|s| s.is_empty()) {
        out.remove(0);
    }
    while out.last().is_some_and(|s| s.is_empty()) {
        out.pop();
    }
    if !out.iter().any(|r| r.contains('O')) {
        return Err("the mask has no piece (`O`): a board needs at least one".into());
    }
    Ok(out)
}

/// A board: its points, indexed `0..n` (bottom row first, q ascending).
#[derive(Clone, Debug)]
pub struct Board {
    /// The points.
    pub points: Vec<Pt>,
    index: FxHashMap<Pt, usize>,
    /// Side piece counts when the board is a convex equiangular hexagon of the named family.
    pub sides: Option<[u32; 6]>,
}

impl Board {
    /// The board's separate regions (connected groups of pieces; no run
    /// joins two of them), each a board of its own, ordered by their first
    /// point in the board's order.
    pub fn regions(&self) -> Vec<Board> {
        let mut seen = vec![false; self.points.len()];
        let mut out = Vec::new();
        for start in 0..self.points.len() {
            if seen[start] {
                continue;
            }
            seen[start] = true;
            let mut stack = vec![start];
            let mut pts = Vec::new();
            while let Some(i) = stack.pop() {
                let (q, r) = self.points[i];
                pts.push((q, r));
                for (dq, dr) in NEIGHBOURS {
                    if let Some(j) = self.index((q + dq, r + dr))
                        && !seen[j]
                    {
                        seen[j] = true;
                        stack.push(j);
                    }
                }
            }
            pts.sort_by_key(|&(q, r)| (r, q));
            out.push(Board::from_points(pts, None));
        }
        out
    }
    /// A board from its points.
    pub fn from_points(points: Vec<Pt>, sides: Option<[u32; 6]>) -> Board {
        let index = points.iter().enumerate().map(|(i, &p)| (p, i)).collect();
        Board {
            points,
            index,
            sides,
        }
    }
    /// Number of pieces.
    pub fn len(&self) -> usize {
        self.points.len()
    }
    /// True when the board has no point.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }
    /// The index of a point, if it is on the board.
    pub fn index(&self, p: Pt) -> Option<usize> {
        self.index.get(&p).copied()
    }
    /// All pieces as a bit mask (boards of at most 64 pieces).
    pub fn full(&self) -> u64 {
        assert!(self.len() <= 64);
        if self.len() == 64 {
            u64::MAX
        } else {
            (1u64 << self.len()) - 1
        }
    }
    /// A text picture of a position (bit i = piece i present), top row first,
    /// each row shifted half a place per row as on the lattice: `O` piece,
    /// `X` piece taken by `mark`, `.` empty board point.
    pub fn picture(&self, present: &dyn Fn(usize) -> bool, mark: &dyn Fn(usize) -> bool) -> String {
        let (mut q0, mut q1, mut r0, mut r1) = (i32::MAX, i32::MIN, i32::MAX, i32::MIN);
        for &(q, r) in &self.points {
            q0 = q0.min(q);
            q1 = q1.max(q);
            r0 = r0.min(r);
            r1 = r1.max(r);
        }
        let mut s = String::new();
        for r in (r0..=r1).rev() {
            // Column of (q, r) on screen: 2(q - q0) + (r - r0); shift so the leftmost is 0.
            let mut line = String::new();
            let min_col = self
                .points
                .iter()
                .map(|p| 2 * (p.0 - q0) + (p.1 - r0))
                .min()
                .unwrap_or(0);
            for q in q0..=q1 {
                let col = (2 * (q - q0) + (r - r0) - min_col) as usize;
                let ch = match self.index((q, r)) {
                    Some(i) if mark(i) => 'X',
                    Some(i) if present(i) => 'O',
                    Some(_) => '.',
                    None => continue,
                };
                while line.chars().count() < col {
                    line.push(' ');
                }
                line.push(ch);
            }
            let _ = writeln!(s, "  {}", line.trim_end());
        }
        s
    }
}

/// Every equiangular hexagon, one per symmetry class (its canonical side
/// tuple), with every side at most `max_side` and at least `min_side`, and at
/// most `max_pieces` pieces; sorted by largest side, then pieces, then sides.
/// The pieces of the hexagon with these sides (closing, each at least 1) in
/// closed form: in the coordinates of [`super::chords::chordtab::Hx`], the
/// parallelogram of `(R + 1)(Q + 1)` points less its two cut corners,
/// triangles of `a(a + 1)/2` and `b(b + 1)/2` points.
pub fn hexagon_pieces(p: [u32; 6]) -> u64 {
    let [p0, p1, p2, _, _, p5] = p.map(u64::from);
    let (a, b) = (p5 - 1, p2 - 1);
    (p1 + p2 - 1) * (p0 + p5 - 1) - a * (a + 1) / 2 - b * (b + 1) / 2
}

/// Every equiangular hexagon with sides in `min_side..=max_side` (one per
/// symmetry class, its smallest side tuple) and at most `max_pieces` pieces,
/// sorted by largest side, then pieces, then sides; listed and sorted on
/// every thread of the pool (sides ≤ 128 are 11.7 million boards).
pub fn hexagons(min_side: u32, max_side: u32, max_pieces: u64) -> Vec<[u32; 6]> {
    use rayon::prelude::*;
    // Each board as its sort key in one number: largest side (10 bits),
    // pieces (24 bits: at most 2045² with sides ≤ 1023), the six sides (10
    // bits each). The keys are distinct: an unstable sort gives the one order.
    let pack = |p: [u32; 6]| {
        let head = (u128::from(*p.iter().max().unwrap()) << 24) | u128::from(hexagon_pieces(p));
        p.iter().fold(head, |k, &x| (k << 10) | u128::from(x))
    };
    let unpack = |k: u128| std::array::from_fn(|i| ((k >> (10 * (5 - i))) & 1023) as u32);
    assert!(max_side <= 1023, "sides of at most 1023 pieces");
    let mut keys: Vec<u128> = (min_side..=max_side)
        .into_par_iter()
        .flat_map_iter(|p0| {
            hexagons_from(p0, min_side, max_side, max_pieces)
                .into_iter()
                .map(pack)
        })
        .collect();
    keys.par_sort_unstable();
    keys.into_par_iter().map(unpack).collect()
}

/// The boards of [`hexagons`] whose first side is `p0`, unsorted. With a
/// bound on the pieces, only the side tuples that can hold: every side of a
/// class's smallest tuple is at least `p0`, and a hexagon whose sides are
/// all at least `p0` holds the regular one of side `p0`; its `p1 + p2 − 1`
/// lines across hold a piece each; and for given `p0, p1, p2` its pieces
/// grow then fall with `p3` (a concave quadratic), so the `p3` that hold are
/// the two ends of their range.
fn hexagons_from(p0: u32, min_side: u32, max_side: u32, max_pieces: u64) -> Vec<[u32; 6]> {
    let mut out = Vec::new();
    let l = max_side;
    if hexagon_pieces([p0; 6]) > max_pieces {
        return out;
    }
    // A class's smallest tuple starts with its smallest side: every side is
    // at least p0 (the test below then keeps exactly the canonical tuples).
    let lo = p0.max(min_side);
    for p1 in lo..=l {
        for p2 in lo..=l {
            if u64::from(p1 + p2 - 1) > max_pieces {
                break;
            }
            // p4 = p0 + p1 - p3 and p5 = p1 + p2 - p4 = p2 - p0 + p3 must
            // lie in lo..=l: only the p3 for which both do.
            let (lo, hi, a, b) = (lo as i64, l as i64, p0 as i64, p2 as i64);
            let p3_lo = lo.max(a + p1 as i64 - hi).max(lo + a - b);
            let p3_hi = hi.min(a + p1 as i64 - lo).min(hi + a - b);
            let sides = |p3: i64| {
                let p4 = a + p1 as i64 - p3;
                let p5 = (p1 + p2) as i64 - p4;
                [p0, p1, p2, p3 as u32, p4 as u32, p5 as u32]
            };
            // The p3 that hold: p3_lo..first and last + 1..=p3_hi.
            let (mut first, mut last) = (p3_hi + 1, p3_hi);
            if max_pieces < u64::MAX {
                let holds = |p3: i64| hexagon_pieces(sides(p3)) <= max_pieces;
                first = p3_lo;
                while first <= p3_hi && holds(first) {
                    first += 1;
                }
                last = p3_hi;
                while last >= first && holds(last) {
                    last -= 1;
                }
            }
            for p3 in (p3_lo..first).chain(last + 1..=p3_hi) {
                let p = sides(p3);
                if canonical_sides(p) == p {
                    out.push(p);
                }
            }
        }
    }
    out
}
