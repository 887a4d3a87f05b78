//! Every hexagon of an enumeration (`board: {hexagons: {max_side: L}}`) under
//! `take: maximal`, normal play, summed up by one case that reads each
//! board's Grundy value from the sweep's chord solver (the chord table of a
//! big sweep): the distribution of Grundy values, per side bound the largest
//! value and its smallest board, the P-positions among the hexagons that are
//! not point-symmetric, and the boards per class for each largest side.
//!
//! The per-board `positions` rows come from the enumeration's chunk cases
//! (winning moves included); a spec may leave them out with `datasets:`
//! (the census needs only the values).

use std::sync::{Arc, OnceLock};

use rayon::prelude::*;

use super::board::{Hex, hexagon_pieces, hexagons};
use super::chords::hexsum::HexSolver;
use super::datasets::class_of;
use super::datasets::dict;
use super::datasets::{CLASS_COUNTS, CLASSES, HEXAGON_BOUNDS, HEXAGON_P_POSITIONS, HEXAGON_VALUES};
use crate::data::{DictVec, EnumVec, IntListVec, Table, Values};
use crate::family::{Case, CaseCtx, Cost, Output};
use crate::game::{PLAYS, Play};

/// The hexagons of a `hexagons:` board item: one per symmetry class, sides
/// in `min_side..=max_side`, at most `max_pieces` pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Enumeration {
    /// Smallest side.
    pub min_side: u32,
    /// Largest side.
    pub max_side: u32,
    /// Most pieces (`u64::MAX`: no bound).
    pub max_pieces: u64,
}

impl Enumeration {
    /// `sides ≤ 128`, `sides 2..16, ≤ 100 pieces`.
    pub fn label(&self) -> String {
        let sides = if self.min_side <= 1 {
            format!("sides ≤ {}", self.max_side)
        } else {
            format!("sides {}..{}", self.min_side, self.max_side)
        };
        match self.max_pieces {
            u64::MAX => sides,
            k => format!("{sides}, ≤ {k} pieces"),
        }
    }
    /// Its boards, sorted by largest side, then pieces, then sides.
    pub fn boards(&self) -> Vec<[u32; 6]> {
        hexagons(self.min_side, self.max_side, self.max_pieces)
    }
    /// Without listing the boards (and only without `max_pieces`): per
    /// largest side `m`, the classes whose largest side is `m` and their
    /// mean pieces (over the side tuples). Counted by Burnside's lemma over
    /// the 12 symmetries of [`super::board::side_images`]; `None` with a
    /// bound on the pieces.
    pub fn per_side(&self) -> Option<Vec<SideCount>> {
        if self.max_pieces != u64::MAX {
            return None;
        }
        let mut prev = BoxTotals::default();
        let mut exact = (1.0, 1.0);
        let out = (self.min_side..=self.max_side)
            .map(|m| {
                let cur = box_totals(self.min_side, m);
                let tuples = cur.tuples - prev.tuples;
                let mean_pieces = if i64::from(m - self.min_side) < EXACT_PIECES_SIDES {
                    let mean = (cur.pieces - prev.pieces) / tuples.max(1) as f64;
                    exact = (f64::from(m), mean);
                    mean
                } else {
                    // Beyond, a board's pieces grow as the square of its size.
                    exact.1 * (f64::from(m) / exact.0).powi(2)
                };
                let boards = cur.classes - prev.classes;
                // A hexagon's chords: its sides' sum less 3 (a line each way).
                let mean_chords = (cur.sides - prev.sides) as f64 / tuples.max(1) as f64 - 3.0;
                prev = cur;
                SideCount {
                    largest: m,
                    boards,
                    mean_pieces,
                    mean_chords,
                }
            })
            .collect();
        Some(out)
    }
}

/// The boards of an enumeration with one largest side, counted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SideCount {
    /// The largest side.
    pub largest: u32,
    /// Boards (symmetry classes).
    pub boards: u64,
    /// Their mean number of pieces (over side tuples).
    pub mean_pieces: f64,
    /// Their mean number of chords (over side tuples): the chord solver's
    /// lookups of a board ([`super::chords::memofill::chords`]).
    pub mean_chords: f64,
}

/// Every closed side tuple with sides in `lo..=hi`: classes, tuples, and
/// pieces and sides summed over the tuples.
#[derive(Clone, Copy, Debug, Default)]
struct BoxTotals {
    classes: u64,
    tuples: u64,
    pieces: f64,
    /// The six sides summed over the tuples.
    sides: u64,
}

/// The pieces of the hexagon with sides `p0..p3` (then `p4 = p0 + p1 - p3`,
/// `p5 = p2 - p0 + p3`) as `c0 + c1·p3 - p3²/2`: the coefficients.
fn pieces_in_p3(p0: f64, p1: f64, p2: f64) -> (f64, f64) {
    let c0 = 1.0 - p1 - p2 - p0 / 2.0 - p0 * p0 / 2.0 + p0 * p2 + p1 * p2;
    (c0, p0 + p1 - 0.5)
}

/// [`BoxTotals`] of the box `lo..=hi`. The classes by Burnside's lemma: the
/// identity fixes every tuple; the rotations by one and five sides fix
/// `n` (all sides equal), by two and four `n²`, by three `n³`; the three
/// reflections through opposite corners fix `n²` each (`a, a, b, a, a, b`),
/// the three through opposite sides each fix `refl` tuples (`p1 = p5`,
/// `p2 = p4`, `p3 = p0 + p1 - p2` in the box). The tuples: for each `p0,
/// p1`, the pairs `(p2, p3)` of a rectangle (`p4 = p0 + p1 - p3` in the
/// box) within a band of `p2 + p3` (`p5 = p2 + p3 - p0` in the box). The
/// pieces are summed over every tuple when `n ≤ EXACT_PIECES_SIDES`, else
/// left at zero ([`Enumeration::per_side`] scales the last exact mean).
fn box_totals(lo: u32, hi: u32) -> BoxTotals {
    let (lo, hi) = (i64::from(lo), i64::from(hi));
    let n = hi - lo + 1;
    let (mut tuples, mut refl, mut pieces, mut first_sides) = (0i64, 0i64, 0f64, 0i64);
    for p0 in lo..=hi {
        for p1 in lo..=hi {
            refl += ((p0 + p1 - lo).min(hi) - (p0 + p1 - hi).max(lo) + 1).max(0);
            let (a, b) = ((p0 + p1 - hi).max(lo), (p0 + p1 - lo).min(hi));
            if a > b {
                continue;
            }
            let rect = (lo, hi, a, b);
            let here = pairs_up_to(rect, hi + p0) - pairs_up_to(rect, lo + p0 - 1);
            tuples += here;
            first_sides += p0 * here;
            if n <= EXACT_PIECES_SIDES {
                pieces += pieces_over_p2_p3(lo, hi, p0, p1);
            }
        }
    }
    let fixed = tuples + 2 * n + 5 * n * n + n * n * n + 3 * refl;
    debug_assert_eq!(fixed % 12, 0);
    BoxTotals {
        classes: (fixed / 12) as u64,
        tuples: tuples as u64,
        pieces,
        // A tuple turned is a tuple of the box: each side sums alike.
        sides: 6 * first_sides as u64,
    }
}

/// Boxes up to this many side values have their pieces summed exactly.
const EXACT_PIECES_SIDES: i64 = 40;

/// The pieces of every tuple with these `p0, p1`, sides in `lo..=hi`.
fn pieces_over_p2_p3(lo: i64, hi: i64, p0: i64, p1: i64) -> f64 {
    let squares = |x: i64| (x * (x + 1) * (2 * x + 1)) as f64 / 6.0;
    let mut pieces = 0.0;
    for p2 in lo..=hi {
        let a = lo.max(p0 + p1 - hi).max(lo + p0 - p2);
        let b = hi.min(p0 + p1 - lo).min(hi + p0 - p2);
        if a > b {
            continue;
        }
        let k = (b - a + 1) as f64;
        let (c0, c1) = pieces_in_p3(p0 as f64, p1 as f64, p2 as f64);
        pieces += c0 * k + c1 * (a + b) as f64 * k / 2.0 - (squares(b) - squares(a - 1)) / 2.0;
    }
    pieces
}

/// The integer points `(x, y)` of the rectangle `x0..=x1 × y0..=y1` with
/// `x + y ≤ t` (inclusion and exclusion of triangles).
fn pairs_up_to((x0, x1, y0, y1): (i64, i64, i64, i64), t: i64) -> i64 {
    let tri = |s: i64| if s < 0 { 0 } else { (s + 1) * (s + 2) / 2 };
    let s = t - x0 - y0;
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    tri(s) - tri(s - w) - tri(s - h) + tri(s - w - h)
}

/// Is the hexagon point-symmetric, `(a, b, c, a, b, c)`? Report 000 shows
/// the first player wins there (cut along the centre line, then mirror).
pub fn point_symmetric(p: [u32; 6]) -> bool {
    p[0] == p[3] && p[1] == p[4] && p[2] == p[5]
}

/// A board with its value, ordered for "smallest": fewest pieces, then sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Valued {
    pieces: u64,
    sides: [u32; 6],
    g: u32,
}

impl Valued {
    fn key(&self) -> (u64, [u32; 6]) {
        (self.pieces, self.sides)
    }
    /// Keeps the smaller of `slot` and `self`.
    fn keep_smallest(self, slot: &mut Option<Valued>) {
        if slot.is_none_or(|s| self.key() < s.key()) {
            *slot = Some(self);
        }
    }
    /// Keeps the one with the larger value, then the smaller board.
    fn keep_largest_value(self, slot: &mut Option<Valued>) {
        if slot.is_none_or(|s| {
            (self.g, std::cmp::Reverse(self.key())) > (s.g, std::cmp::Reverse(s.key()))
        }) {
            *slot = Some(self);
        }
    }
}

/// The boards whose largest side is one `L`.
#[derive(Clone, Debug, Default)]
struct Side {
    boards: u64,
    classes: [u64; 6],
    p: u64,
    nonsymmetric: u64,
    nonsymmetric_p: u64,
    symmetric_p: u64,
    best: Option<Valued>,
}

/// What the census counts.
#[derive(Debug, Default)]
struct Tally {
    /// Per Grundy value: boards, and the smallest one.
    by_value: Vec<(u64, Option<Valued>)>,
    /// Per largest side (index `L`).
    by_side: Vec<Side>,
    /// The P-positions that are not point-symmetric.
    p_nonsymmetric: Vec<Valued>,
}

impl Tally {
    /// Adds the counts of `o` (of other boards).
    fn merge(&mut self, o: Tally) {
        if self.by_value.len() < o.by_value.len() {
            self.by_value.resize(o.by_value.len(), (0, None));
        }
        for ((n, v), (m, w)) in self.by_value.iter_mut().zip(o.by_value) {
            *n += m;
            if let Some(w) = w {
                w.keep_smallest(v);
            }
        }
        if self.by_side.len() < o.by_side.len() {
            self.by_side.resize(o.by_side.len(), Side::default());
        }
        for (s, t) in self.by_side.iter_mut().zip(o.by_side) {
            s.boards += t.boards;
            for (c, d) in s.classes.iter_mut().zip(t.classes) {
                *c += d;
            }
            s.p += t.p;
            s.nonsymmetric += t.nonsymmetric;
            s.nonsymmetric_p += t.nonsymmetric_p;
            s.symmetric_p += t.symmetric_p;
            if let Some(b) = t.best {
                b.keep_largest_value(&mut s.best);
            }
        }
        self.p_nonsymmetric.extend(o.p_nonsymmetric);
    }
    fn add(&mut self, v: Valued) {
        let g = v.g as usize;
        if self.by_value.len() <= g {
            self.by_value.resize(g + 1, (0, None));
        }
        self.by_value[g].0 += 1;
        v.keep_smallest(&mut self.by_value[g].1);
        let l = *v.sides.iter().max().unwrap() as usize;
        if self.by_side.len() <= l {
            self.by_side.resize(l + 1, Side::default());
        }
        let s = &mut self.by_side[l];
        let (sym, p) = (point_symmetric(v.sides), v.g == 0);
        s.boards += 1;
        s.classes[v.g.min(5) as usize] += 1;
        s.p += p as u64;
        s.nonsymmetric += !sym as u64;
        s.nonsymmetric_p += (p && !sym) as u64;
        s.symmetric_p += (p && sym) as u64;
        v.keep_largest_value(&mut s.best);
        if p && !sym {
            self.p_nonsymmetric.push(v);
        }
    }
}

/// The census of one enumeration under `take: maximal`, normal play.
pub struct CensusCase {
    /// Which hexagons.
    pub(crate) e: Enumeration,
    /// How many (known from the plan).
    pub(crate) boards: usize,
    /// The sweep's chord solver, built on first use (as the chunk cases do).
    pub(crate) hex: Arc<OnceLock<HexSolver>>,
    pub(crate) hex_side: u32,
    pub(crate) hex_boards: usize,
    /// The work of the sweep's chord solver before a board's value can be
    /// read (its table or memo), shared with the sweep's chord cases.
    pub(crate) shared: crate::cost::Work,
}

impl Case for CensusCase {
    fn key(&self) -> String {
        let e = &self.e;
        format!(
            "lines/census/v1/sides={}..{}/pieces={}/take=maximal/play=normal",
            e.min_side,
            e.max_side,
            match e.max_pieces {
                u64::MAX => "any".to_string(),
                k => k.to_string(),
            }
        )
    }
    fn cost(&self, _keep: Option<&[String]>) -> Cost {
        // The sweep's chord table or dense memo, held once for its cases.
        let shared = HexSolver::upfront_bytes(self.hex_side, self.hex_boards);
        let sides = (self.e.max_side - self.e.min_side + 1) as u64;
        Cost {
            size: self.boards as u64,
            work: vec![(super::kernels::CHORD_CENSUS, self.boards as u64)],
            shared_work: self.shared.clone(),
            memory_bound: shared.saturating_add(self.boards as u64 * 40),
            shared_memory: shared,
            rows: vec![
                (HEXAGON_VALUES.name, 64),
                (HEXAGON_BOUNDS.name, sides),
                (HEXAGON_P_POSITIONS.name, self.boards as u64 / 4),
                (CLASS_COUNTS.name, sides * 6),
            ],
            ..Cost::default()
        }
    }
    fn solve(&self, ctx: &CaseCtx<'_>) -> anyhow::Result<Output> {
        let solver = self
            .hex
            .get_or_init(|| HexSolver::for_sweep(self.hex_side, self.hex_boards));
        // Blocks of boards counted on every thread, then merged: no count
        // or choice depends on the order (each board's key is its own).
        let boards = self.e.boards();
        let tallies: Vec<Tally> = boards
            .par_chunks(census_block(boards.len(), rayon::current_num_threads()))
            .map(|block| {
                if ctx.cancel.load(std::sync::atomic::Ordering::Relaxed) {
                    anyhow::bail!(crate::family::Interrupted);
                }
                let mut t = Tally::default();
                for &p in block {
                    let g = solver.grundy(Hex::from_sides(p), &|_| {});
                    t.add(Valued {
                        pieces: hexagon_pieces(p),
                        sides: p,
                        g,
                    });
                }
                (ctx.progress)(block.len() as u64);
                Ok(t)
            })
            .collect::<anyhow::Result<_>>()?;
        let mut tally = Tally::default();
        for t in tallies {
            tally.merge(t);
        }
        tally.p_nonsymmetric.par_sort_unstable_by_key(Valued::key);
        let label = self.e.label();
        Ok(vec![
            (&HEXAGON_VALUES, values_table(&label, &tally)),
            (&HEXAGON_BOUNDS, bounds_table(&label, self.e, &tally)),
            (&HEXAGON_P_POSITIONS, p_table(&label, &tally)),
            (&CLASS_COUNTS, class_table(&tally)),
        ])
    }
}

/// Boards a census counts in one block: blocks of up to 2^16 boards, at
/// least 16 a thread (a small enumeration's memo, filled on demand as its
/// boards are valued, is then filled on every thread), and at least 1024.
fn census_block(boards: usize, threads: usize) -> usize {
    (boards / (16 * threads.max(1))).clamp(1 << 10, 1 << 16)
}

fn board_text(p: [u32; 6]) -> String {
    super::board::Shape::Hexagon(p).text()
}

/// The columns every census table starts with.
fn head(label: &str, n: usize) -> Table {
    Table::new()
        .with("enumeration", dict(label, n))
        .with("take", dict("maximal", n))
        .with(
            "play",
            Values::Enum(EnumVec {
                levels: PLAYS,
                codes: vec![Play::Normal.code(); n],
            }),
        )
}

/// `hexagon_values`: one row per Grundy value that occurs.
fn values_table(label: &str, t: &Tally) -> Table {
    let rows: Vec<(usize, u64, Valued)> = t
        .by_value
        .iter()
        .enumerate()
        .filter_map(|(g, (n, v))| v.map(|v| (g, *n, v)))
        .collect();
    let total: u64 = rows.iter().map(|r| r.1).sum();
    let mut class = EnumVec::new(CLASSES, rows.len());
    let mut smallest = DictVec::default();
    for (g, _, v) in &rows {
        class.push_str(class_of(*g as u32));
        smallest.push(&board_text(v.sides));
    }
    head(label, rows.len())
        .with(
            "grundy",
            Values::Int(rows.iter().map(|r| r.0 as i64).collect()),
        )
        .with("class", Values::Enum(class))
        .with(
            "boards",
            Values::Int(rows.iter().map(|r| r.1 as i64).collect()),
        )
        .with(
            "share",
            Values::Float(rows.iter().map(|r| r.1 as f64 / total as f64).collect()),
        )
        .with("smallest_board", Values::Dict(smallest))
        .with(
            "smallest_pieces",
            Values::Int(rows.iter().map(|r| r.2.pieces as i64).collect()),
        )
}

/// `hexagon_bounds`: one row per side bound `L`, counting every board with
/// all sides at most `L`.
fn bounds_table(label: &str, e: Enumeration, t: &Tally) -> Table {
    let ls: Vec<u32> = (e.min_side..=e.max_side).collect();
    let mut acc = Side::default();
    let mut cols: [Vec<i64>; 8] = Default::default();
    let mut share = Vec::new();
    let mut best_board = DictVec::default();
    let mut best_sides = IntListVec::default();
    for &l in &ls {
        if let Some(s) = t.by_side.get(l as usize) {
            acc.boards += s.boards;
            acc.p += s.p;
            acc.nonsymmetric += s.nonsymmetric;
            acc.nonsymmetric_p += s.nonsymmetric_p;
            acc.symmetric_p += s.symmetric_p;
            if let Some(b) = s.best {
                b.keep_largest_value(&mut acc.best);
            }
        }
        let best = acc.best.unwrap_or(Valued {
            pieces: 0,
            sides: [0; 6],
            g: 0,
        });
        let row = [
            l as u64,
            acc.boards,
            best.g as u64,
            best.pieces,
            acc.p,
            acc.nonsymmetric,
            acc.nonsymmetric_p,
            acc.symmetric_p,
        ];
        for (c, v) in cols.iter_mut().zip(row) {
            c.push(v as i64);
        }
        share.push(acc.nonsymmetric_p as f64 / acc.nonsymmetric.max(1) as f64);
        best_board.push(&acc.best.map_or(String::new(), |b| board_text(b.sides)));
        best_sides.push_iter(acc.best.iter().flat_map(|b| b.sides.map(i64::from)));
    }
    let [side, boards, gmax, pieces, p, nonsym, nonsym_p, sym_p] = cols;
    head(label, ls.len())
        .with("max_side", Values::Int(side))
        .with("hexagons", Values::Int(boards))
        .with("max_grundy", Values::Int(gmax))
        .with("max_board", Values::Dict(best_board))
        .with("max_board_sides", Values::IntList(best_sides))
        .with("max_board_pieces", Values::Int(pieces))
        .with("p_positions", Values::Int(p))
        .with("nonsymmetric", Values::Int(nonsym))
        .with("nonsymmetric_p", Values::Int(nonsym_p))
        .with("nonsymmetric_p_share", Values::Float(share))
        .with("symmetric_p", Values::Int(sym_p))
}

/// `hexagon_p_positions`: the P-positions that are not point-symmetric,
/// fewest pieces first.
fn p_table(label: &str, t: &Tally) -> Table {
    let v = &t.p_nonsymmetric;
    let mut board = DictVec::default();
    let mut sides = IntListVec::default();
    let mut text = String::new();
    for b in v {
        text.clear();
        super::board::Shape::Hexagon(b.sides).push_text(&mut text);
        board.push(&text);
        sides.push_iter(b.sides.iter().map(|&x| x as i64));
    }
    head(label, v.len())
        .with("board", Values::Dict(board))
        .with("hexagon_sides", Values::IntList(sides))
        .with(
            "largest_side",
            Values::Int(
                v.iter()
                    .map(|b| *b.sides.iter().max().unwrap() as i64)
                    .collect(),
            ),
        )
        .with(
            "pieces",
            Values::Int(v.iter().map(|b| b.pieces as i64).collect()),
        )
}

/// `class_counts`: boards per class for each largest side (every class
/// listed, zeros included), as the chunk cases would give one group each.
fn class_table(t: &Tally) -> Table {
    let sides: Vec<(usize, &Side)> = t
        .by_side
        .iter()
        .enumerate()
        .filter(|(_, s)| s.boards > 0)
        .collect();
    let k = sides.len() * 6;
    let mut group = DictVec::default();
    let mut boards = Vec::with_capacity(k);
    for (l, s) in &sides {
        for c in s.classes {
            group.push(&format!("largest side {l}"));
            boards.push(c as i64);
        }
    }
    let codes: Vec<u8> = (0..sides.len()).flat_map(|_| 0..6u8).collect();
    Table::new()
        .with("group", Values::Dict(group))
        .with("take", dict("maximal", k))
        .with(
            "play",
            Values::Enum(EnumVec {
                levels: PLAYS,
                codes: vec![Play::Normal.code(); k],
            }),
        )
        .with("rule", dict("maximal normal", k))
        .with(
            "class",
            Values::Enum(EnumVec {
                levels: CLASSES,
                codes,
            }),
        )
        .with("boards", Values::Int(boards))
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::super::chords::hexsum::MANY_BOARDS;
    use super::*;

    fn census(max_side: u32, big: bool) -> Output {
        let e = Enumeration {
            min_side: 1,
            max_side,
            max_pieces: u64::MAX,
        };
        let boards = e.boards().len();
        let case = CensusCase {
            e,
            boards,
            hex: Arc::new(OnceLock::new()),
            hex_side: 2 * max_side - 1,
            // A big sweep reads the bottom-up chord table, a small one the memo.
            hex_boards: if big { MANY_BOARDS } else { boards },
            shared: Vec::new(),
        };
        let cancel = AtomicBool::new(false);
        let ctx = CaseCtx {
            progress: &|_| {},
            cancel: &cancel,
            keep: None,
        };
        case.solve(&ctx).unwrap()
    }

    fn ints(t: &Table, col: &str) -> Vec<i64> {
        (0..t.rows())
            .map(|i| match t.cell(col, i) {
                Some(Cell::Int(v)) => v,
                c => panic!("{col}: {c:?}"),
            })
            .collect()
    }

    fn texts(t: &Table, col: &str) -> Vec<String> {
        (0..t.rows())
            .map(|i| t.cell(col, i).unwrap().to_string())
            .collect()
    }

    use crate::data::Cell;

    /// Every hexagon with sides ≤ 12, its value from the chord table (as a
    /// big sweep reads it), against the chord recursion board by board
    /// (the path `positions` used before): the distribution, the smallest
    /// board of each value, the per-bound maxima and the P-positions are
    /// recounted here from the recursion's values.
    /// The counts without listing (Burnside) against the listed boards,
    /// side by side, and the mean pieces against the boards' own counts.
    #[test]
    fn per_side_counts_match_the_listing() {
        for (lo, hi) in [(1, 1), (1, 6), (2, 9), (3, 14), (1, 17), (1, 48)] {
            let e = Enumeration {
                min_side: lo,
                max_side: hi,
                max_pieces: u64::MAX,
            };
            let boards = e.boards();
            let sides = e.per_side().unwrap();
            assert_eq!(sides.len() as u32, hi - lo + 1);
            for s in &sides {
                let of_m: Vec<&[u32; 6]> = boards
                    .iter()
                    .filter(|p| *p.iter().max().unwrap() == s.largest)
                    .collect();
                assert_eq!(
                    s.boards,
                    of_m.len() as u64,
                    "{lo}..{hi}, side {}",
                    s.largest
                );
                // Mean over tuples vs over classes: most classes have 12
                // tuples (measured: within 14 % from side 2, 8 % from side 8).
                let mean = of_m
                    .iter()
                    .map(|p| Hex::from_sides(**p).count() as f64)
                    .sum::<f64>()
                    / of_m.len() as f64;
                let tol = 0.15;
                assert!(
                    (s.mean_pieces - mean).abs() <= tol * mean,
                    "side {}: {} vs {mean}",
                    s.largest,
                    s.mean_pieces
                );
                // The chords' mean over every tuple (each class's distinct
                // images), exactly.
                let tuples: std::collections::HashSet<[u32; 6]> = of_m
                    .iter()
                    .flat_map(|p| crate::family::lines::board::side_images(**p))
                    .collect();
                let chords: u32 = tuples.iter().map(|p| p.iter().sum::<u32>() - 3).sum();
                let mean = f64::from(chords) / tuples.len() as f64;
                assert!(
                    (s.mean_chords - mean).abs() < 1e-9,
                    "side {}: {} chords vs {mean}",
                    s.largest,
                    s.mean_chords
                );
            }
        }
        let bounded = Enumeration {
            min_side: 1,
            max_side: 5,
            max_pieces: 40,
        };
        assert_eq!(bounded.per_side(), None);
    }

    /// The pieces' closed form against counting the rows.
    #[test]
    fn pieces_in_p3_counts_the_rows() {
        for p in hexagons(1, 9, u64::MAX) {
            let (c0, c1) = pieces_in_p3(p[0] as f64, p[1] as f64, p[2] as f64);
            let p3 = p[3] as f64;
            assert_eq!(
                c0 + c1 * p3 - p3 * p3 / 2.0,
                Hex::from_sides(p).count() as f64,
                "{p:?}"
            );
        }
    }

    #[test]
    fn census_matches_the_recursion() {
        let out = census(12, true);
        let rec = HexSolver::new(23);
        let all: Vec<Valued> = hexagons(1, 12, u64::MAX)
            .into_iter()
            .map(|p| {
                let h = Hex::from_sides(p);
                Valued {
                    pieces: h.count(),
                    sides: p,
                    g: rec.grundy(h, &|_| {}),
                }
            })
            .collect();
        assert_eq!(all.len(), 1365, "C(15, 4) classes with sides ≤ 12");
        let find = |name: &str| &out.iter().find(|(d, _)| d.name == name).unwrap().1;
        // Distribution.
        let values = find("hexagon_values");
        let gs = ints(values, "grundy");
        let counts = ints(values, "boards");
        let smallest = texts(values, "smallest_board");
        for (i, &g) in gs.iter().enumerate() {
            let with: Vec<&Valued> = all.iter().filter(|v| v.g as i64 == g).collect();
            assert_eq!(counts[i], with.len() as i64, "G = {g}");
            let min = with.iter().min_by_key(|v| v.key()).unwrap();
            assert_eq!(smallest[i], board_text(min.sides));
        }
        assert_eq!(counts.iter().sum::<i64>(), 1365);
        // Per bound.
        let bounds = find("hexagon_bounds");
        let gmax = ints(bounds, "max_grundy");
        let nonsym_p = ints(bounds, "nonsymmetric_p");
        for l in 1..=12u32 {
            let within: Vec<&Valued> = all
                .iter()
                .filter(|v| v.sides.iter().all(|&s| s <= l))
                .collect();
            let m = within.iter().map(|v| v.g).max().unwrap();
            assert_eq!(gmax[l as usize - 1], m as i64, "L = {l}");
            let np = within
                .iter()
                .filter(|v| v.g == 0 && !point_symmetric(v.sides))
                .count();
            assert_eq!(nonsym_p[l as usize - 1], np as i64, "L = {l}");
        }
        // Report 000: a point-symmetric hexagon is never a P-position.
        assert!(ints(bounds, "symmetric_p").iter().all(|&x| x == 0));
        // The P-positions, fewest pieces first: the smallest is the
        // triangle of three pieces (any move takes two, leaving one: G = mex{1} = 0).
        let ps = find("hexagon_p_positions");
        let want = all
            .iter()
            .filter(|v| v.g == 0 && !point_symmetric(v.sides))
            .count();
        assert_eq!(ps.rows(), want);
        assert_eq!(texts(ps, "board")[0], "hexagon: [1, 2, 1, 2, 1, 2]");
        assert!(ints(ps, "pieces").windows(2).all(|w| w[0] <= w[1]));
        // Classes per largest side add up to the boards.
        let classes = find("class_counts");
        assert_eq!(ints(classes, "boards").iter().sum::<i64>(), 1365);
        assert_eq!(classes.rows(), 12 * 6);
    }

    /// The memo path (a small sweep) gives the same tables as the table path.
    #[test]
    fn census_is_the_same_from_the_memo() {
        let a = census(9, true);
        let b = census(9, false);
        for ((da, ta), (db, tb)) in a.iter().zip(&b) {
            assert_eq!(da.name, db.name);
            assert_eq!(ta, tb, "{}", da.name);
        }
    }
}
