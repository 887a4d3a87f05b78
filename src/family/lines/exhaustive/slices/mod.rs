//! One board's exhaustive table cut into *slices*, solved slice by slice out
//! of core (slice files on disk, under a memory budget) and across a Slurm
//! cluster (one job array per wave).
//!
//! # Slices and waves
//!
//! t chosen *slice pieces* cut the 2^n positions into 2^t slices: slice `σ`
//! holds the positions whose slice pieces present are `σ`. A move removing
//! the slice pieces `m` leads from slice `σ` to slice `σ ∖ m`, so slice `σ`
//! reads only slices with fewer slice pieces: **wave k** (the slices with k
//! slice pieces) needs only waves below it, and its slices are independent
//! of each other. When no move removes two slice pieces (they are pairwise
//! *independent*: on the triangular lattice with runs of at most 3, no two
//! on a common line within distance 2), slice `σ` reads exactly the
//! `|σ|` slices one piece down; [`plan`] chooses such pieces when they exist.
//!
//! A slice is solved by the exhaustive kernel itself ([`SliceKernel`]): the
//! slice pieces are the solver's highest pieces, so a slice is a range of
//! the whole table's blocks; before a block is solved, the moves from other
//! slices are pulled into it from their files, one source block at a time.
//! The answers are bit for bit the whole table's (tests compare every
//! position).
//!
//! # Symmetry
//!
//! A symmetry `g` of the board that maps the slice pieces onto themselves
//! maps slice `σ` onto slice `g(σ)` with the other pieces renamed. With a
//! group of such symmetries only one *representative* per orbit of slices
//! is solved and stored; a slice that reads a non-representative renames
//! its representative's table on the fly ([`symmetry::Image`], block by
//! block from the representative held in memory). The counts of a
//! representative count for its whole orbit.
//!
//! # Files
//!
//! See [`store`]: `plan.json`, one `.bits` file and one `.json` completion
//! record per representative slice, `result.json` / `result.txt` at the end.

pub mod engine;
pub mod plan;
pub mod store;
pub mod symmetry;
#[cfg(test)]
mod tests;

use anyhow::{Result, bail};
use serde_json::{Value, json};

use crate::family::lines::board::{self, Board, Pt, Shape};
use crate::family::lines::exhaustive::{self, Move};
use crate::family::lines::rules::{self, BoardMove, Take, legal_distinct, run_cells};
use crate::game::Play;

/// A board under a rule: what a sliced solve solves.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The shape.
    pub shape: Shape,
    /// The rule.
    pub take: Take,
    /// Normal or misère.
    pub play: Play,
    /// The board (pieces numbered as the family numbers them).
    pub board: Board,
    /// Its moves.
    pub moves: Vec<BoardMove>,
    /// The same, as the kernel takes them.
    pub kmoves: Vec<Move>,
}

/// Largest board a sliced solve accepts (positions are 64-bit sets).
pub const MAX_PIECES: usize = 63;

impl Problem {
    /// The problem of a shape under a rule.
    pub fn new(shape: Shape, take: Take, play: Play) -> Result<Problem> {
        let pieces = shape.pieces();
        if pieces as usize > MAX_PIECES {
            bail!(
                "{} has {pieces} pieces; a sliced exhaustive solve handles at most {MAX_PIECES}",
                shape.name()
            );
        }
        let board = shape.board();
        let moves = rules::moves(&board, take);
        let kmoves = moves.iter().map(Move::from).collect();
        Ok(Problem {
            shape,
            take,
            play,
            board,
            moves,
            kmoves,
        })
    }

    /// Number of pieces.
    pub fn n(&self) -> usize {
        self.board.len()
    }

    /// A hash of everything the tables depend on: pieces, moves, play.
    pub fn fingerprint(&self) -> u64 {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(&(self.n() as u64).to_le_bytes());
        bytes.push(self.play as u8);
        for m in &self.kmoves {
            bytes.extend_from_slice(&m.mask.to_le_bytes());
            bytes.extend_from_slice(&m.blockers.to_le_bytes());
        }
        xxhash_rust::xxh3::xxh3_64(&bytes)
    }

    /// The board as the plan file records it.
    pub fn board_json(&self) -> Value {
        match &self.shape {
            Shape::Mask(rows) => json!({"kind": "mask", "rows": rows}),
            s => {
                let params: Vec<u32> = match *s {
                    Shape::Triangle(n) => vec![n],
                    Shape::Trapezoid(x, y) | Shape::Parallelogram(x, y) => vec![x, y],
                    Shape::Pentagon(x, y, z) => vec![x, y, z],
                    Shape::Hexagon(p) => p.to_vec(),
                    Shape::Mask(_) => unreachable!(),
                };
                json!({"kind": s.kind(), "params": params})
            }
        }
    }

    /// The problem a plan file describes.
    pub fn from_json(v: &Value) -> Result<Problem> {
        let b = &v["board"];
        let kind = b["kind"].as_str().unwrap_or("");
        let params: Vec<u32> = b["params"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_u64())
                    .map(|x| x as u32)
                    .collect()
            })
            .unwrap_or_default();
        let shape = shape_from(kind, &params, &b["rows"])?;
        let take = parse_take(v["take"].as_str().unwrap_or(""))
            .map_err(|e| anyhow::anyhow!("plan field `take`: {e}"))?;
        let play = match v["play"].as_str() {
            Some("normal") => Play::Normal,
            Some("misere") => Play::Misere,
            other => bail!("plan field `play`: {other:?} is neither normal nor misere"),
        };
        Problem::new(shape, take, play)
    }
}

fn shape_from(kind: &str, p: &[u32], rows: &Value) -> Result<Shape> {
    let want = |k: usize| -> Result<()> {
        if p.len() != k || p.contains(&0) {
            bail!("plan field `board`: {kind} needs {k} positive parameters, got {p:?}");
        }
        Ok(())
    };
    Ok(match kind {
        "triangle" => {
            want(1)?;
            Shape::Triangle(p[0])
        }
        "trapezoid" => {
            want(2)?;
            Shape::Trapezoid(p[0], p[1])
        }
        "parallelogram" => {
            want(2)?;
            Shape::Parallelogram(p[0], p[1])
        }
        "pentagon" => {
            want(3)?;
            Shape::Pentagon(p[0], p[1], p[2])
        }
        "hexagon" => {
            want(6)?;
            let s = [p[0], p[1], p[2], p[3], p[4], p[5]];
            if !board::closes(s) {
                bail!("plan field `board`: hexagon sides {s:?} do not close");
            }
            Shape::Hexagon(s)
        }
        "mask" => {
            let rows: Vec<&str> = rows
                .as_array()
                .map(|a| a.iter().filter_map(|r| r.as_str()).collect())
                .unwrap_or_default();
            Shape::Mask(board::parse_mask(&rows).map_err(anyhow::Error::msg)?)
        }
        other => bail!("plan field `board`: unknown board kind {other:?}"),
    })
}

/// Parses a take rule: `maximal`, `any`, `max:P` (P ≥ 1).
pub fn parse_take(s: &str) -> Result<Take, String> {
    match s.trim() {
        "maximal" => Ok(Take::Maximal),
        "any" => Ok(Take::Any),
        t => {
            let p = t
                .strip_prefix("max:")
                .and_then(|p| p.trim().parse::<u32>().ok())
                .filter(|&p| p >= 1);
            p.map(Take::Max).ok_or_else(|| {
                format!("{s:?} is not a take rule: use maximal, any or max:P (P ≥ 1)")
            })
        }
    }
}

/// The answer for a whole board: P-positions per piece count, outcome,
/// winning first moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// Pieces left 0..=n: (positions, P-positions).
    pub counts: Vec<(u64, u64)>,
    /// Is the full board a P-position?
    pub full_is_p: bool,
    /// The winning first moves (those leading to a P-position): direction
    /// index and the run's cells, as the solvers' `Solved::wins`.
    pub wins: Vec<(usize, Vec<Pt>)>,
    /// Distinct first moves.
    pub first_moves: usize,
}

impl Answer {
    /// From the counts and a P-position test.
    pub fn new(
        p: &Problem,
        counts: Vec<(u64, u64)>,
        is_p: &dyn Fn(u64) -> Result<bool>,
    ) -> Result<Answer> {
        let full = p.board.full();
        let legal = legal_distinct(&p.moves, full);
        let mut wins = Vec::new();
        for m in &legal {
            if is_p(full & !m.mask)? {
                wins.push((m.dir as usize, run_cells(&p.board, m)));
            }
        }
        Ok(Answer {
            counts,
            full_is_p: is_p(full)?,
            wins,
            first_moves: legal.len(),
        })
    }
}

/// The whole table in memory ([`exhaustive::solve`]): the reference the sliced
/// solves are compared with.
pub fn solve_in_memory(
    p: &Problem,
    progress: &(dyn Fn(u64) + Sync),
    cancel: &std::sync::atomic::AtomicBool,
) -> Result<Answer> {
    if p.n() > exhaustive::MAX_PIECES {
        bail!(
            "{} pieces: the in-memory table holds at most {} pieces (2^{} bits); solve it in slices",
            p.n(),
            exhaustive::MAX_PIECES,
            exhaustive::MAX_PIECES
        );
    }
    exhaustive::fits(p.n() as u64)
        .map_err(|e| anyhow::anyhow!("{e}; solve it in slices (--dir)"))?;
    let e = exhaustive::solve(p.n(), &p.kmoves, p.play, progress, cancel)?;
    Answer::new(p, e.counts.clone(), &|x| Ok(e.is_p(x)))
}
