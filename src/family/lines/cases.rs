//! A lines case: a group of boards under one rule, solved board by board.

use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use anyhow::bail;
use rayon::prelude::*;

use super::board::{Hex, Shape};
use super::chords::hexsum::HexSolver;
use super::datasets::{CELLS, CLASS_COUNTS, COUNTS, CUTS, PERIODS, POSITIONS, REGIONS};
use super::dispatch::{Method, Solved, method_for, solve_board};
use super::exhaustive;
use super::group::Group;
use super::rules::Take;
use crate::cost::Kernel;
use crate::family::{Case, CaseCtx, Cost, Interrupted, Output, TableBytes};
use crate::game::Play;

/// Bytes of the component memo per class of sub-boards it holds: the
/// canonical map's slot (33 bytes) and the raw map's slots of the about three
/// sub-boards that found it (17 bytes each), the hash tables half again as
/// large as their entries on average.
const MEMO_BYTES_PER_CLASS: u64 = 128;

/// One group of boards under one rule: the unit of work.
#[derive(Clone)]
pub struct LinesCase {
    pub(crate) group: Arc<Group>,
    pub(crate) take: Take,
    pub(crate) play: Play,
    pub(crate) counts: bool,
    pub(crate) grundy: bool,
    pub(crate) pictures: bool,
    /// Write the `regions` dataset (each board's separate regions).
    pub(crate) regions: bool,
    /// Write the `cuts` dataset (each first move and the regions it leaves).
    pub(crate) cuts: bool,
    pub(crate) hex: Option<Arc<OnceLock<HexSolver>>>,
    pub(crate) hex_side: u32,
    /// Boards in the sweep (big sweeps get a bigger dense chord memo).
    pub(crate) hex_boards: usize,
    pub(crate) memo_budget: u64,
    /// The sweep's chord solver is one thin table `(rows, length)`
    /// ([`HexSolver::thin`]): sequences with lines beyond the memo's sides.
    pub(crate) thin: Option<(u32, u32)>,
    /// The sweep's chord memo filled on demand, counted
    /// ([`super::chords::memofill::fill_chords`]).
    pub(crate) memo_fill: Option<MemoFill>,
}

/// The work of a sweep's chord memo filled on demand: its kernel (dense or
/// hashed), the chords its filling evaluates, and whether they are this
/// case's own (listed boards: each case fills the memo as it solves its
/// boards, its largest board's regions one after another on one thread)
/// or the sweep's shared work (an enumeration's census and blocks fill it
/// on every thread).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct MemoFill {
    pub(crate) kernel: Kernel,
    pub(crate) chords: u64,
    pub(crate) own: bool,
}

impl MemoFill {
    pub(crate) fn own(kernel: Kernel, chords: u64) -> MemoFill {
        MemoFill {
            kernel,
            chords,
            own: true,
        }
    }
    pub(crate) fn shared(kernel: Kernel, chords: u64) -> MemoFill {
        MemoFill {
            kernel,
            chords,
            own: false,
        }
    }
    fn work(self) -> (Kernel, u64) {
        (self.kernel, self.chords)
    }
}

impl LinesCase {
    pub(crate) fn method(&self) -> Method {
        method_for(&self.group.shapes[0], self.take, self.play, self.grundy)
    }
    /// The chords of each board the chord solver can value: what it looks
    /// up to keep the board's moves ([`super::kernels::CHORD_LOOKUPS`]).
    fn board_chords(&self) -> impl Iterator<Item = u64> + '_ {
        let sides = self.group.shapes.iter().filter_map(Shape::sides);
        sides.map(|p| super::chords::memofill::chords(super::chords::chordtab::Hx::from_sides(p)))
    }
    /// The component memo of a board of `n` pieces: it grows up to its
    /// budget (`memo_gib`), but never past one entry (about 48 bytes with the
    /// hash table's slack) per subset of the pieces. A budget beyond this
    /// machine's memory counts whole, so the guard refuses it.
    /// Pieces of the largest board.
    fn largest_pieces(&self) -> u64 {
        self.group
            .shapes
            .iter()
            .map(Shape::pieces)
            .max()
            .unwrap_or(0)
    }
    /// The case's memory with a component memo of `memo` bytes: the
    /// exhaustive table, the chord table or the memo, the largest.
    fn memory_with(&self, memo: u64) -> u64 {
        let n = self.largest_pieces();
        let ex = if self.counts || self.method() == Method::Exhaustive {
            exhaustive::memory_bytes(n.min(63) as usize)
        } else {
            0
        };
        ex.max(self.shared_memory()).max(memo)
    }
    fn memo_memory(&self, n: u64) -> u64 {
        if self.method() != Method::Components {
            return 0;
        }
        if self.memo_budget > crate::mem::case_budget() {
            return self.memo_budget;
        }
        (48u64 << n.min(58)).min(self.memo_budget)
    }
    /// The case's one board shrunk ([`Shape::shrunk`]) until its cost is at
    /// most `factor` of its own, on the same solver.
    fn shrunk_board(&self, factor: f64) -> Option<Shape> {
        let first = &self.group.shapes[0];
        let method = self.method();
        let target = self.size() as f64 * factor;
        let mut s = first.shrunk()?;
        loop {
            if method_for(&s, self.take, self.play, self.grundy) != method {
                return None;
            }
            if self.on_one(&s).size() as f64 <= target {
                return Some(s);
            }
            s = s.shrunk()?;
        }
    }
    /// The first boards of a chord case (its one board shrunk), their memo
    /// about `factor` of the case's: the longest prefix whose largest
    /// board weighs at most `factor` of the case's largest
    /// ([`super::chords::memofill::fill_weight`]). None where the case's
    /// memo is not filled on demand and counted (a chord table).
    fn chord_prefix(&self, factor: f64) -> Option<Vec<Shape>> {
        let m = self.memo_fill?;
        if self.thin.is_some() || !m.own {
            return None;
        }
        let shapes = &self.group.shapes;
        if shapes.len() == 1 {
            return Some(vec![self.shrunk_board(factor)?]);
        }
        let weight = |s: &Shape| s.sides().map_or(0.0, super::chords::memofill::fill_weight);
        let top = shapes.iter().map(weight).fold(0.0, f64::max);
        let mut most = 0.0f64;
        let keep = shapes
            .iter()
            .take_while(|s| {
                most = most.max(weight(s));
                most <= factor * top
            })
            .count();
        (keep > 0 && keep < shapes.len()).then(|| shapes[..keep].to_vec())
    }
    /// A copy's own chord solver and memo, counted for its boards alone
    /// (the sweep's solver kept for the sweep's cases); a dense memo sized
    /// for them too (a hashed one stays hashed: a dense table for a copy
    /// of a sweep with long lines would cost the copy more to allocate
    /// than its boards' work).
    fn own_memo(&mut self) -> Option<()> {
        let sides: Vec<[u32; 6]> = self.group.shapes.iter().filter_map(Shape::sides).collect();
        let (_, chords) = super::chords::memofill::fill_chords_quick(&sides)?;
        if HexSolver::upfront_bytes(self.hex_side, self.hex_boards) > 0 {
            let longest = sides.iter().map(|&p| Hex::from_sides(p).longest_chord());
            self.hex_side = longest.fold(1, u32::max);
            self.hex_boards = self.group.shapes.len();
        }
        self.hex = Some(Arc::new(OnceLock::new()));
        let kernel = memo_kernel(self.hex_side, self.hex_boards);
        self.memo_fill = Some(MemoFill::own(kernel, chords));
        Some(())
    }
    /// This case on the one board `s` alone: what a board costs.
    fn on_one(&self, s: &Shape) -> LinesCase {
        let mut probe = self.clone();
        probe.group = Arc::new(Group {
            shapes: vec![s.clone()],
            label: String::new(),
            along: None,
            census: None,
        });
        probe
    }
    /// The first boards of a case of several, their work (units of the
    /// case's kernels) about `factor` of the case's: the longest prefix
    /// within it, at least the first board.
    fn work_prefix(&self, factor: f64) -> Vec<Shape> {
        let units = |s: &Shape| {
            let probe = self.on_one(s);
            probe.work(None).iter().map(|&(_, n)| n as f64).sum::<f64>()
        };
        let each: Vec<f64> = self.group.shapes.iter().map(units).collect();
        let all: f64 = each.iter().sum();
        let mut sum = 0.0;
        let keep = each
            .iter()
            .take_while(|&&w| {
                sum += w;
                sum <= factor * all
            })
            .count();
        self.group.shapes[..keep.clamp(1, self.group.shapes.len())].to_vec()
    }
    /// A block of a hexagon enumeration solved by chords: its enumeration's
    /// census ([`super::census`]) counts the classes, per largest side.
    pub(crate) fn census_by_enumeration(&self) -> bool {
        self.group.census.is_some() && self.method() == Method::Chords
    }
    /// The case's size ([`Cost::size`]).
    fn size(&self) -> u64 {
        self.group
            .shapes
            .iter()
            .map(|s| {
                let n = s.pieces();
                match method_for(s, self.take, self.play, self.grundy) {
                    Method::Chords => n * 4,
                    Method::Components => n.pow(3),
                    Method::Exhaustive => 1u64 << n.min(62),
                }
                .max(if self.counts { 1u64 << n.min(62) } else { 0 })
            })
            .sum()
    }
    fn work(&self, keep: Option<&[String]>) -> crate::cost::Work {
        let wants = |d: &str| keep.is_none_or(|k| k.iter().any(|x| x == d));
        let census = self.census_by_enumeration();
        if census && !wants(POSITIONS.name) && !wants(CELLS.name) {
            return Vec::new();
        }
        if self.method() == Method::Chords && !self.counts {
            // A memo filled on demand holds every value (the case's own
            // work or the sweep's shared work); else the values come from
            // a table.
            let own: Vec<_> = self
                .memo_fill
                .filter(|m| m.own)
                .map(MemoFill::work)
                .into_iter()
                .collect();
            let mut w = match (wants(POSITIONS.name) || self.pictures, self.memo_fill) {
                (true, _) => vec![(super::kernels::CHORD_LOOKUPS, self.board_chords().sum())],
                (false, Some(_)) => Vec::new(),
                (false, None) => vec![(super::kernels::CHORD_VALUES, self.size())],
            };
            crate::cost::add(&mut w, &own);
            return w;
        }
        if self.counts || self.method() == Method::Exhaustive {
            let mut w = self.exhaustive_work();
            if self.method() == Method::Components {
                // Normal play with counts: the Grundy values too.
                crate::cost::add(
                    &mut w,
                    &[(super::kernels::COMPONENT_MOVES, self.component_work())],
                );
            }
            return w;
        }
        vec![(super::kernels::COMPONENT_MOVES, self.component_work())]
    }
    fn shared_work(&self) -> crate::cost::Work {
        match (&self.hex, self.thin) {
            (None, _) => Vec::new(),
            (Some(_), None) if self.memo_fill.is_some() => self
                .memo_fill
                .filter(|m| !m.own)
                .map(MemoFill::work)
                .into_iter()
                .collect(),
            (Some(_), Some((_, length))) => chord_table_work(self.shared_memory(), length),
            (Some(_), None) => table_work(self.hex_side, self.hex_boards),
        }
    }
    fn splits(&self) -> bool {
        // The exhaustive kernel fills a layer's blocks in parallel. The
        // component solver values the root's moves in parallel on its
        // shared memo, but the first of them reaches nearly every
        // component, so the rest find them valued: measured on 2 threads,
        // 99 % of a core on B(4, 3..6) under `max: 1` and on the
        // triangles 6..7 under `max: 3`. The chord solver values a board on
        // one thread, and the boards of a case in parallel on its shared
        // memo (regular hexagons 1..42 on 2 threads: 8.2 s of CPU in 4.4 s).
        let boards = self.method() == Method::Chords && self.group.shapes.len() > 1;
        self.counts || boards || self.method() == Method::Exhaustive
    }
    fn unbounded(&self) -> Option<String> {
        if self.method() != Method::Components || self.counts {
            return None;
        }
        let memo = crate::mem::human_bytes(self.memo_budget);
        if self.take == Take::Maximal {
            return Some(format!(
                "under take: maximal the component solver reaches far fewer sub-boards than the connected ones the estimate counts (a piece goes only with its whole run): the time is at most the estimate, the memo at most memo_gib = {memo}"
            ));
        }
        // Boards past the listing's cap are estimated by random descents
        // ([`super::components::subboards`]), not bounded below.
        None
    }
    fn memory(&self) -> u64 {
        let n = self.largest_pieces();
        self.memory_with(self.memo_memory(n))
    }
    fn expected_memory(&self) -> u64 {
        // The memo holds one entry per class of connected sub-boards the
        // solver evaluates (and the raw masks that found it).
        let n = self.largest_pieces();
        let memo = self.memo_memory(n);
        if memo == 0 {
            return self.memory_with(0);
        }
        let classes = self
            .group
            .shapes
            .iter()
            .map(|s| self.sub_boards(s).classes)
            .max()
            .unwrap_or(0);
        self.memory_with(memo.min(classes.saturating_mul(MEMO_BYTES_PER_CLASS)))
    }
    fn shared_memory(&self) -> u64 {
        // The sweep's chord table, built once and shared by its cases.
        let chords = match self.thin {
            Some((rows, length)) => HexSolver::thin_bytes(rows, length),
            None => HexSolver::upfront_bytes(self.hex_side, self.hex_boards),
        };
        chords * u64::from(self.hex.is_some())
    }
    fn rows(&self) -> Vec<(&'static str, u64)> {
        let boards = self.group.shapes.len() as u64;
        let pieces: u64 = self.group.shapes.iter().map(Shape::pieces).sum();
        let mut r = vec![(POSITIONS.name, boards)];
        if self.counts {
            r.push((COUNTS.name, pieces + boards));
        }
        if self.pictures {
            r.push((CELLS.name, pieces));
        }
        if self.regions {
            r.push((REGIONS.name, boards));
        }
        if self.cuts {
            // About one row per line through each piece.
            r.push((CUTS.name, pieces));
        }
        r
    }
    /// Its `positions` table's list column under the chord solver (each
    /// board's winning moves), beyond the declared row sizes.
    fn table_bytes(&self) -> Vec<(&'static str, TableBytes)> {
        if self.method() != Method::Chords {
            return Vec::new();
        }
        let beyond: u64 = self
            .board_chords()
            .map(|c| row_bytes_beyond_declared(c as f64))
            .sum();
        vec![(POSITIONS.name, TableBytes::Beyond(beyond))]
    }
}

impl Case for LinesCase {
    fn key(&self) -> String {
        let mut text = String::with_capacity(self.group.shapes.len() * 32);
        for s in &self.group.shapes {
            s.push_text(&mut text);
            text.push(';');
        }
        format!(
            "lines/v2/boards={}:{:016x}/take={}/play={}/counts={}/grundy={}/pictures={}{}{}",
            self.group.shapes.len(),
            xxhash_rust::xxh3::xxh3_64(text.as_bytes()),
            self.take.text(),
            self.play.as_str(),
            self.counts,
            self.grundy,
            self.pictures,
            if self.regions { "/regions" } else { "" },
            if self.cuts { "/cuts" } else { "" }
        )
    }
    fn cost(&self, keep: Option<&[String]>) -> Cost {
        Cost {
            size: self.size(),
            work: self.work(keep),
            work_bound: None,
            shared_work: self.shared_work(),
            memory_bound: self.memory(),
            memory_expected: Some(self.expected_memory()),
            shared_memory: self.shared_memory(),
            rows: self.rows(),
            table_bytes: self.table_bytes(),
            unbounded: self.unbounded(),
            splits: self.splits(),
            splits_alone: false,
        }
    }
    fn scaled(&self, factor: f64) -> Option<Box<dyn Case>> {
        // An enumeration's block, or a sweep's chord table, is the sweep's
        // own; a memo filled on demand is filled again for the copy alone.
        if self.group.census.is_some() {
            return None;
        }
        let shapes = match (self.hex.is_some(), self.group.shapes.len() > 1) {
            (true, _) => self.chord_prefix(factor)?,
            (false, true) => self.work_prefix(factor),
            (false, false) => vec![self.shrunk_board(factor)?],
        };
        let along = self
            .group
            .along
            .as_ref()
            .map(|(name, v)| (name.clone(), v[..shapes.len().min(v.len())].to_vec()));
        let mut c = self.clone();
        c.group = Arc::new(Group {
            shapes,
            label: format!("{} (scaled)", self.group.label),
            along,
            census: None,
        });
        if self.hex.is_some() {
            c.own_memo()?;
        }
        Some(Box::new(c))
    }
    fn memory_hint(&self) -> &'static str {
        if self.method() == Method::Components {
            "lower `memo_gib` (the component memo's budget), or use smaller boards"
        } else {
            "use smaller boards"
        }
    }
    fn solve(&self, ctx: &CaseCtx<'_>) -> anyhow::Result<Output> {
        if self.census_by_enumeration() && !ctx.wants(POSITIONS.name) && !ctx.wants(CELLS.name) {
            // The census has every value; nothing of this block is kept.
            return Ok(Vec::new());
        }
        let solved = self.solve_boards(ctx)?;
        let mut out: Output = vec![(&POSITIONS, self.positions(&solved))];
        if !self.census_by_enumeration() {
            out.push((&CLASS_COUNTS, self.class_counts(&solved)));
        }
        if let Some(t) = self.periods(&solved) {
            out.push((&PERIODS, t));
        }
        if self.counts {
            out.push((&COUNTS, self.count_table(&solved)?));
        }
        if self.regions {
            out.push((&REGIONS, self.regions(&solved)));
        }
        if self.cuts {
            out.push((&CUTS, self.cuts(&solved)));
        }
        if self.pictures
            && let Some(t) = self.cells(&solved)?
        {
            out.push((&CELLS, t));
        }
        Ok(out)
    }
}

impl LinesCase {
    /// Every board of the group solved, with its solve time.
    fn solve_boards(&self, ctx: &CaseCtx<'_>) -> anyhow::Result<Vec<(Solved, f64)>> {
        let hex = self.hex.as_ref().map(|h| {
            h.get_or_init(|| match self.thin {
                Some((rows, length)) => HexSolver::thin(rows, length),
                None => HexSolver::for_sweep(self.hex_side, self.hex_boards),
            })
        });
        if let Some(hex) = hex
            && !ctx.wants(POSITIONS.name)
            && !self.pictures
            && !self.counts
        {
            // Only the values are kept (periods, class counts): no winning runs.
            return Ok(self.values_only(hex));
        }
        let one = |s: &Shape| -> anyhow::Result<(Solved, f64)> {
            let t = Instant::now();
            let mut r = solve_board(
                Some(s),
                None,
                self.take,
                self.play,
                self.counts,
                self.grundy,
                hex,
                self.memo_budget,
                &ctx.progress,
                ctx.cancel,
            )?;
            if !self.pictures {
                keep_run_ends(&mut r);
            }
            Ok((r, t.elapsed().as_secs_f64()))
        };
        let shapes = &self.group.shapes;
        // Many small chord boards: solve them in parallel on the shared memo;
        // other boards parallelise inside, one at a time.
        if self.method() == Method::Chords && !self.counts {
            return shapes.par_iter().map(one).collect();
        }
        shapes
            .iter()
            .map(|s| {
                if ctx.cancel.load(Ordering::Relaxed) {
                    bail!(Interrupted);
                }
                one(s)
            })
            .collect()
    }
}

impl LinesCase {
    /// The exhaustive table's work for each board ([`exhaustive::work`]: word
    /// operations counted from the board's moves under the rule), by the
    /// way its in-word moves are solved.
    fn exhaustive_work(&self) -> crate::cost::Work {
        let mut w = Vec::new();
        for s in &self.group.shapes {
            let b = s.board();
            let moves: Vec<exhaustive::Move> = super::rules::moves(&b, self.take)
                .iter()
                .map(exhaustive::Move::from)
                .collect();
            let (ops, rounds) = exhaustive::work(b.len(), &moves, self.play)
                .unwrap_or((1u64 << b.len().min(62), true));
            let kernel = match rounds {
                true => super::kernels::EXHAUSTIVE_ROUNDS,
                false => super::kernels::EXHAUSTIVE,
            };
            crate::cost::add(&mut w, &[(kernel, ops)]);
        }
        w
    }
    /// The component solver's work on each board ([`super::subboards`]:
    /// its connected sub-boards counted without solving).
    fn component_work(&self) -> u64 {
        self.group
            .shapes
            .iter()
            .map(|s| super::components::subboards::work(&self.sub_boards(s)))
            .fold(0, u64::saturating_add)
    }
    /// A board's connected sub-boards under the case's rule (none beyond
    /// 64 pieces, which the component solver refuses).
    fn sub_boards(&self, s: &Shape) -> super::components::subboards::SubBoards {
        if s.pieces() > 64 {
            return super::components::subboards::SubBoards {
                complete: true,
                ..Default::default()
            };
        }
        super::components::subboards::of_shape(s, self.take)
    }
    /// Every board's Grundy value from the chord solver, without its moves.
    fn values_only(&self, hex: &HexSolver) -> Vec<(Solved, f64)> {
        let one = |s: &Shape| {
            let t = Instant::now();
            let sides = s.sides().expect("a chord board has sides");
            let g = hex.grundy(Hex::from_sides(sides), &|_| {});
            let r = Solved {
                is_p: g == 0,
                grundy: Some(g),
                wins: Vec::new(),
                method: "chords",
                counts: None,
                memo: None,
            };
            (r, t.elapsed().as_secs_f64())
        };
        self.group.shapes.iter().map(one).collect()
    }
}

/// `nimlab calibrate`'s probe of the chord table: the table a big sweep of
/// hexagons with lines up to 32 pieces builds up front (extents ≤ 31),
/// filled by asking the largest hexagon inside it (sides 16: extents 30).
pub(crate) fn probe_chord_table() -> anyhow::Result<u64> {
    let boards = super::chords::hexsum::MANY_BOARDS;
    let lines = 32;
    let solver = HexSolver::for_sweep(lines, boards);
    std::hint::black_box(solver.grundy(Hex::from_sides([lines / 2; 6]), &|_| {}));
    Ok(table_work(lines, boards).first().map_or(0, |w| w.1))
}

/// The work of the chord table a sweep of `boards` boards with lines up to
/// `hex_side` pieces builds up front (none when a memo is filled on demand).
pub(crate) fn table_work(hex_side: u32, boards: usize) -> crate::cost::Work {
    match super::chords::hexsum::table_extent(hex_side, boards) {
        Some(e) => chord_table_work(HexSolver::upfront_bytes(hex_side, boards), e),
        None => Vec::new(),
    }
}

/// Bytes a chord board's `positions` row costs beyond its declared size
/// ([`crate::data::Dataset::row_bytes`], four winning runs) while its case
/// makes its rows, for a board of `chords` chords: its winning runs beyond
/// four (32 bytes each in the row), and the board's answer the row is made
/// from ([`SOLVED_BYTES`], and [`WIN_BYTES`] a winning run). An eighth of a
/// board's chords are expected to win (measured: 12–15 % of the chords of
/// every hexagon with sides up to 16, 24, 32, 48 and 64).
pub(crate) fn row_bytes_beyond_declared(chords: f64) -> u64 {
    let wins = chords / 8.0;
    ((wins - 4.0).max(0.0) * 32.0 + SOLVED_BYTES + wins * WIN_BYTES) as u64
}

/// A board's answer held until its case's rows are made
/// (`size_of::<(Solved, f64)>()`, rounded up).
const SOLVED_BYTES: f64 = 112.0;

/// A winning run in a board's answer: its direction, its vector and the two
/// cells the vector keeps (an allocation of at least 32 bytes).
const WIN_BYTES: f64 = 64.0;

/// The kernel of a sweep's chord memo filled on demand: dense when the
/// solver holds one up front, else hashed.
pub(crate) fn memo_kernel(hex_side: u32, boards: usize) -> Kernel {
    match HexSolver::upfront_bytes(hex_side, boards) {
        0 => super::kernels::CHORD_MEMO_HASHED,
        _ => super::kernels::CHORD_MEMO,
    }
}

/// The shared work of a sweep enumerating the hexagons with sides up to
/// `max_side` (`boards` boards in all, lines up to `hex_side`): its chord
/// table built up front when it is big, else its memo filled on demand
/// ([`super::chords::memofill::enumeration_chords`]).
pub(crate) fn enumeration_work(max_side: u32, hex_side: u32, boards: usize) -> crate::cost::Work {
    match super::chords::hexsum::table_extent(hex_side, boards) {
        Some(_) => table_work(hex_side, boards),
        None => vec![(
            memo_kernel(hex_side, boards),
            super::chords::memofill::enumeration_chords(max_side),
        )],
    }
}

/// The work of building a chord table of `bytes` bytes (two per cell) and
/// extents up to `extent`, shared by a sweep's cases: each cell's chords
/// (about its extent of them).
pub(crate) fn chord_table_work(bytes: u64, extent: u32) -> crate::cost::Work {
    match bytes / 2 {
        0 => Vec::new(),
        cells => vec![(
            super::kernels::CHORD_TABLE,
            cells.saturating_mul(u64::from(extent) + 1),
        )],
    }
}

/// Only pictures draw every cell of a winning run; the rows need its two ends
/// (a hexagon with sides ≤ 128 can have dozens of winning runs of 255 cells,
/// and a chunk holds 10^5 boards).
fn keep_run_ends(r: &mut Solved) {
    for (_, cells) in &mut r.wins {
        if cells.len() > 2 {
            let last = cells[cells.len() - 1];
            cells.truncate(1);
            cells.push(last);
            cells.shrink_to_fit();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board's answer, as the memory estimate counts it while its case
    /// makes its rows: the type's size, rounded up to a multiple of 16.
    #[test]
    fn a_boards_answer_is_counted_at_its_size() {
        let n = std::mem::size_of::<(Solved, f64)>() as f64;
        assert!(n <= SOLVED_BYTES && n > SOLVED_BYTES - 16.0, "{n}");
    }
}
