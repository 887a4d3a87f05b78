//! A lines case: a group of boards under one rule, solved board by board.

use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use anyhow::bail;
use rayon::prelude::*;

use super::board::{Hex, Shape};
use super::datasets::{CELLS, CLASS_COUNTS, COUNTS, CUTS, PERIODS, POSITIONS, REGIONS};
use super::hexsum::HexSolver;
use super::rules::Take;
use super::solving::{Method, Solved, method_for, solve_board};
use super::{Group, retro};
use crate::family::{Case, CaseCtx, Interrupted, Output};
use crate::game::Play;

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
}

impl LinesCase {
    pub(crate) fn method(&self) -> Method {
        method_for(&self.group.shapes[0], self.take, self.play, self.grundy)
    }
    /// The component memo of a board of `n` pieces: it grows up to its
    /// budget (`memo_gib`), but never past one entry (about 48 bytes with the
    /// hash table's slack) per subset of the pieces. A budget beyond this
    /// machine's memory counts whole, so the guard refuses it.
    fn memo_memory(&self, n: u64) -> u64 {
        if self.method() != Method::Components {
            return 0;
        }
        if self.memo_budget > crate::mem::case_budget() {
            return self.memo_budget;
        }
        (48u64 << n.min(58)).min(self.memo_budget)
    }
    /// A block of a hexagon enumeration solved by chords: its enumeration's
    /// census ([`super::census`]) counts the classes, per largest side.
    pub(crate) fn census_by_enumeration(&self) -> bool {
        self.group.census.is_some() && self.method() == Method::Chords
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
    fn cost(&self) -> u64 {
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
    fn memory(&self) -> u64 {
        let n = self
            .group
            .shapes
            .iter()
            .map(Shape::pieces)
            .max()
            .unwrap_or(0);
        let ex = if self.counts || self.method() == Method::Exhaustive {
            retro::memory_bytes(n.min(63) as usize)
        } else {
            0
        };
        ex.max(self.shared_memory()).max(self.memo_memory(n))
    }
    fn shared_memory(&self) -> u64 {
        // The sweep's chord table, built once and shared by its cases.
        let chords = match self.thin {
            Some((rows, length)) => HexSolver::thin_bytes(rows, length),
            None => HexSolver::upfront_bytes(self.hex_side, self.hex_boards),
        };
        chords * u64::from(self.hex.is_some())
    }
    fn memory_hint(&self) -> &'static str {
        if self.method() == Method::Components {
            "lower `memo_gib` (the component memo's budget), or use smaller boards"
        } else {
            "use smaller boards"
        }
    }
    fn sample(&self) -> Option<Box<dyn Case>> {
        // Boards of at most 20 pieces (2^20 positions for the exhaustive
        // table) and a shared chord memo for sides up to 16 solve in
        // milliseconds; the estimates of bigger ones are too rough to risk.
        let small = self.group.shapes.iter().all(|s| s.pieces() <= 20)
            && (self.hex.is_none() || self.hex_side <= 16)
            && self.memory() <= crate::family::SAMPLE_MEMORY;
        small.then(|| Box::new(self.clone()) as Box<dyn Case>)
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
