//! Which solver a board gets, and solving one board under one rule.

use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::bail;

use super::board::{Board, Hex, Pt, Shape};
use super::chords::hexsum::HexSolver;
use super::components::Components;
use super::exhaustive;
use super::rules::{self, Take, legal_distinct, run_cells};
use crate::family::watch::Watch;
use crate::game::Play;

/// Which solver a board gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The chord recursion (normal play, `maximal`, hexagon-family boards).
    Chords,
    /// Components with a canonical-form memo (normal play, ≤ 64 pieces).
    Components,
    /// The exhaustive bitmap table (misère play, count tables).
    Exhaustive,
}

/// The solver a board gets under a rule.
pub fn method_for(shape: &Shape, take: Take, play: Play, grundy: bool) -> Method {
    match play {
        Play::Misere => Method::Exhaustive,
        Play::Normal if !grundy => Method::Exhaustive,
        Play::Normal if take == Take::Maximal && shape.sides().is_some() => Method::Chords,
        Play::Normal => Method::Components,
    }
}

/// Why a board cannot be solved by a method, if it cannot.
pub fn feasibility(pieces: u64, method: Method, counts: bool) -> Result<(), String> {
    if method == Method::Exhaustive || counts {
        exhaustive::fits(pieces)?;
    }
    if method == Method::Components && pieces > 64 {
        return Err(format!(
            "this board has {pieces} pieces; normal play by components handles at most 64 (for larger boards use `take: maximal` on a hexagon-family shape)"
        ));
    }
    Ok(())
}

/// The result for one board (or position).
pub struct Solved {
    /// P-position?
    pub is_p: bool,
    /// Grundy value (normal play).
    pub grundy: Option<u32>,
    /// Winning moves: direction index and the run's cells.
    pub wins: Vec<(usize, Vec<Pt>)>,
    /// Which solver.
    pub method: &'static str,
    /// Per piece count k: (positions, P-positions), when asked.
    pub counts: Option<Vec<(u64, u64)>>,
    /// The component solver's memo: (canonical components, estimated bytes).
    pub memo: Option<(u64, u64)>,
}

/// Solves one board (any point set) under a rule.
#[allow(clippy::too_many_arguments)]
pub fn solve_board(
    shape: Option<&Shape>,
    board: Option<&Board>,
    take: Take,
    play: Play,
    counts: bool,
    grundy: bool,
    hex: Option<&HexSolver>,
    memo_budget: u64,
    watch: &dyn Watch,
    cancel: &AtomicBool,
) -> anyhow::Result<Solved> {
    let sides = shape
        .and_then(Shape::sides)
        .filter(|_| board.is_none_or(|b| b.sides.is_some()));
    let chords = grundy && play == Play::Normal && take == Take::Maximal && sides.is_some();
    let mut out = Solved {
        is_p: false,
        grundy: None,
        wins: vec![],
        method: "",
        counts: None,
        memo: None,
    };
    let needs_board = !chords || play == Play::Misere || counts;
    let owned: Option<Board> = needs_board.then(|| {
        board
            .cloned()
            .unwrap_or_else(|| shape.expect("a shape or a board").board())
    });
    if chords {
        by_chords(sides.unwrap(), hex, watch, &mut out);
    } else if play == Play::Normal && grundy {
        by_components(
            owned.as_ref().unwrap(),
            take,
            memo_budget,
            (watch, cancel),
            &mut out,
        )?;
    }
    // Misère play, count tables, and normal play without Grundy values
    // (`grundy: false`) take the exhaustive table.
    if play == Play::Misere || counts || !grundy {
        let b = owned.as_ref().unwrap();
        let name = || shape.map_or("the board".into(), |s| s.name());
        by_exhaustive(
            b,
            (take, play),
            (counts, grundy),
            (watch, cancel),
            &mut out,
            name,
        )?;
    }
    out.wins = distinct_sets(out.wins);
    Ok(out)
}

/// The chord solver's answer for a hexagon `sides`: the Grundy value and the
/// winning moves (the sweep's solver when its lines are long enough).
fn by_chords(sides: [u32; 6], hex: Option<&HexSolver>, watch: &dyn Watch, out: &mut Solved) {
    let progress = &|n: u64| watch.step(n);
    let h = Hex::from_sides(sides);
    let local;
    let solver = match hex {
        Some(s) if s.max_side() >= h.longest_chord() => s,
        _ => {
            local = HexSolver::new(h.longest_chord());
            &local
        }
    };
    watch.begin("chord tables", None);
    let (g, opts) = solver.options(h, progress);
    out.grundy = Some(g);
    out.is_p = g == 0;
    out.wins = opts
        .iter()
        .filter(|o| o.1 == 0)
        .map(|&(c, _)| (c.dir as usize, HexSolver::chord_cells(&h, c)))
        .collect();
    out.method = "chords";
}

/// The component solver's answer (normal play, at most 64 pieces), within
/// the memo's budget; stops when `cancel` is set.
fn by_components(
    b: &Board,
    take: Take,
    memo_budget: u64,
    (watch, cancel): (&dyn Watch, &AtomicBool),
    out: &mut Solved,
) -> anyhow::Result<()> {
    if b.len() > 64 {
        bail!(
            "{}",
            feasibility(b.len() as u64, Method::Components, false).unwrap_err()
        );
    }
    let solver = Components::new(b, take, memo_budget);
    watch.begin("components", None);
    let prog = |n: u64| {
        watch.step(n);
        watch.memo(solver.measured_bytes(), memo_budget);
        if cancel.load(Ordering::Relaxed) {
            solver.stopped.store(true, Ordering::Relaxed);
        }
    };
    let (g, vals) = solver.options(b.full(), &prog);
    if solver.stopped.load(Ordering::Relaxed) {
        if solver.over_budget.load(Ordering::Relaxed) {
            bail!(
                "the component memo reached its budget of {:.1} GiB ({} components) before the board was solved; raise `memo_gib`",
                memo_budget as f64 / (1u64 << 30) as f64,
                solver.memo_len()
            );
        }
        bail!(crate::family::Interrupted);
    }
    out.grundy = Some(g);
    out.is_p = g == 0;
    out.wins = vals
        .iter()
        .filter(|v| v.1 == 0)
        .map(|(m, _)| (m.dir as usize, run_cells(b, m)))
        .collect();
    out.method = "components";
    out.memo = Some((solver.memo_len(), solver.memo_bytes()));
    Ok(())
}

/// The exhaustive table's answer: the outcome and winning moves (misère, or
/// no Grundy values), a check of the Grundy solver's outcome otherwise, and
/// the P-counts when asked.
fn by_exhaustive(
    b: &Board,
    (take, play): (Take, Play),
    (counts, grundy): (bool, bool),
    (watch, cancel): (&dyn Watch, &AtomicBool),
    out: &mut Solved,
    name: impl Fn() -> String,
) -> anyhow::Result<()> {
    let progress = &|n: u64| watch.step(n);
    feasibility(b.len() as u64, Method::Exhaustive, true).map_err(anyhow::Error::msg)?;
    let moves = rules::moves(b, take);
    let rm: Vec<exhaustive::Move> = moves.iter().map(exhaustive::Move::from).collect();
    watch.begin("positions", Some(1u64 << b.len()));
    let ex = exhaustive::solve(b.len(), &rm, play, progress, cancel)?;
    if cancel.load(Ordering::Relaxed) {
        bail!(crate::family::Interrupted);
    }
    let full = b.full();
    let is_p = ex.is_p(full);
    if play == Play::Normal && grundy {
        if out.is_p != is_p {
            bail!(
                "internal check failed: the exhaustive table and the Grundy value disagree on {}",
                name()
            );
        }
    } else {
        out.is_p = is_p;
        out.wins = legal_distinct(&moves, full)
            .into_iter()
            .filter(|m| ex.is_p(full & !m.mask))
            .map(|m| (m.dir as usize, run_cells(b, m)))
            .collect();
        out.method = "exhaustive";
    }
    if counts {
        out.counts = Some(ex.counts.clone());
    }
    Ok(())
}

/// A move is the set of pieces it removes: a run listed along several lines
/// (a single piece lies on three) is kept once, first listing first.
pub fn distinct_sets<T>(moves: Vec<(T, Vec<Pt>)>) -> Vec<(T, Vec<Pt>)> {
    // Hashed: a long board's winning moves number in the thousands, and a
    // list searched once per move made the solve quadratic in them
    // (parallelograms 5 × 1..2000 under `take: maximal`: 56 % of it).
    let mut seen: rustc_hash::FxHashSet<Vec<Pt>> = rustc_hash::FxHashSet::default();
    let mut out = Vec::with_capacity(moves.len());
    for (tag, cells) in moves {
        let mut key = cells.clone();
        key.sort_unstable();
        if seen.insert(key) {
            out.push((tag, cells));
        }
    }
    out
}
