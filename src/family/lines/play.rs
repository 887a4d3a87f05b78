//! `nimlab play lines`: remove runs of pieces from a board of the triangular
//! lattice, against the computer.
//!
//! Cells are named like a hex-game board: a letter for the column `q` (from
//! the board's leftmost, `a`, `b`, … `z`, `aa`, …) and a number for the row
//! `r` (1 at the bottom). A row is a `(1,0)` line, a letter read upward a
//! `(0,1)` line, and one letter right on the row below a `(1,-1)` line, so a
//! run is typed as its two ends (`a1-c1`, `b1 b3`) or one cell (`c2`).
//!
//! The replies come from the family's solvers: normal play by components
//! ([`Components`]: the Grundy value of each connected group of pieces,
//! XORed), misère play from the exhaustive table of every subset
//! ([`exhaustive::solve`]). The classroom page embeds the P-position bitmap of
//! every subset, so it is written for boards of at most 25 pieces.

use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

use anyhow::{Result, bail};
use serde_json::json;

use super::board::{Board, DIRS, Pt, Shape};
use super::components::Components;
use super::datasets::class_of;
use super::dispatch::{Method, feasibility};
use super::exhaustive::{self, Exhaustive};
use super::params::{DEFAULT_MEMO_GIB, SHAPE_KEYS, one_board, one_rule};
use super::rules::{BoardMove, Take, legal_distinct, moves, run_cells};
use crate::game::Play;
use crate::params::Node;
use crate::play::rng::mix;
use crate::play::term::{Paint, paint};
use crate::play::{HtmlGame, Move, PlayGame, Player};

/// Largest board on the classroom page (its bitmap has 2^n bits: 4 MiB at 25).
pub const MAX_PAGE_PIECES: usize = 25;

/// How positions are solved.
enum Engine {
    /// Normal play: Grundy values by components.
    Components(Box<Components>),
    /// Misère play: every subset.
    Exhaustive(Exhaustive),
}

impl Engine {
    /// The solver for a game: components (normal play) or every subset (misère).
    fn build(
        shape: &Shape,
        board: &Board,
        take: Take,
        play: Play,
        all: &[BoardMove],
        start: u64,
        memo_budget: u64,
    ) -> Result<Engine> {
        let n = board.len();
        Ok(match play {
            Play::Normal => {
                if n >= 30 {
                    eprintln!(
                        "nimlab: solving {} ({n} pieces) by components before the first move…",
                        shape.name()
                    );
                }
                let c = Components::new(board, take, memo_budget);
                c.grundy(start, &|_| {});
                if c.stopped.load(std::sync::atomic::Ordering::Relaxed) {
                    bail!(
                        "the component memo reached its budget of {} GiB before the board was solved; raise --memo-gib",
                        memo_budget >> 30
                    );
                }
                Engine::Components(Box::new(c))
            }
            Play::Misere => {
                if n >= 28 {
                    eprintln!(
                        "nimlab: solving every one of the 2^{n} positions of {} (misère play needs the whole table)…",
                        shape.name()
                    );
                }
                let rm: Vec<exhaustive::Move> = all.iter().map(exhaustive::Move::from).collect();
                Engine::Exhaustive(exhaustive::solve(
                    n,
                    &rm,
                    play,
                    &|_| {},
                    &AtomicBool::new(false),
                )?)
            }
        })
    }
}

/// A `lines` game in progress.
pub struct LinesGame {
    shape: Shape,
    board: Board,
    take: Take,
    play: Play,
    moves: Vec<BoardMove>,
    engine: Engine,
    /// Pieces at the start (bit i = piece i).
    start: u64,
    /// The position now.
    x: u64,
    /// The runs removed, in order.
    history: Vec<u64>,
    first: Player,
    /// Column of each piece's `q` in the names, and the smallest `q`, `r`.
    q0: i32,
    r0: i32,
}

/// The two ends of cells given in any order: the two farthest apart (for
/// cells on one line, steps along it).
fn ends(pts: &[Pt]) -> (Pt, Pt) {
    let mut best = (pts[0], pts[pts.len() - 1], -1);
    if pts.len() > 2 {
        for &p in pts {
            for &q in pts {
                let d = (p.0 - q.0).abs() + (p.1 - q.1).abs();
                if d > best.2 {
                    best = (p, q, d);
                }
            }
        }
    }
    (best.0, best.1)
}

/// Spreadsheet-style column letters: a..z, aa..az, ba…
fn column_name(mut i: usize) -> String {
    let mut s = Vec::new();
    loop {
        s.push(b'a' + (i % 26) as u8);
        if i < 26 {
            break;
        }
        i = i / 26 - 1;
    }
    s.reverse();
    String::from_utf8(s).unwrap()
}

fn column_index(s: &str) -> Option<usize> {
    let mut i = 0usize;
    for c in s.chars() {
        if !c.is_ascii_lowercase() {
            return None;
        }
        i = i
            .checked_mul(26)?
            .checked_add((c as u8 - b'a') as usize + 1)?;
    }
    i.checked_sub(1)
}

/// Builds the game from `solve`'s parameters (or a sweep's `board:`).
pub fn game(p: &Node<'_>) -> Result<Box<dyn PlayGame>> {
    let mut keys: Vec<&str> = SHAPE_KEYS
        .iter()
        .copied()
        .filter(|k| *k != "hexagons")
        .collect();
    keys.extend([
        "board", "take", "rule", "play", "remove",
        "memo_gib", // a sweep's keys that do not change the game:
        "grundy", "along", "counts", "pictures",
    ]);
    p.expect_keys(&keys)?;
    let shape = one_board(p)?;
    let (take, play) = one_rule(p)?;
    let memo = p
        .get("memo_gib")
        .map(|m| m.int(1, 20))
        .transpose()?
        .unwrap_or(DEFAULT_MEMO_GIB) as u64
        * (1 << 30);
    let board = shape.board();
    let mut removed = Vec::new();
    if let Some(r) = p.get("remove") {
        for it in r.items() {
            let v = it.ints(-100_000, 100_000)?;
            if v.len() != 2 {
                return Err(it.err("a point is [q, r]").into());
            }
            let pt = (v[0] as i32, v[1] as i32);
            match board.index(pt) {
                Some(i) => removed.push(i),
                None => {
                    return Err(it
                        .err(format!("({}, {}) is not a point of the board", pt.0, pt.1))
                        .into());
                }
            }
        }
    }
    Ok(Box::new(LinesGame::new(
        shape, board, take, play, &removed, memo,
    )?))
}

impl LinesGame {
    /// A game on `board` (of `shape`) with the pieces `removed` gone at the start.
    pub fn new(
        shape: Shape,
        board: Board,
        take: Take,
        play: Play,
        removed: &[usize],
        memo_budget: u64,
    ) -> Result<LinesGame> {
        let n = board.len();
        let method = if play == Play::Misere {
            Method::Exhaustive
        } else {
            Method::Components
        };
        feasibility(n as u64, method, false).map_err(|e| {
            anyhow::anyhow!(
                "{e}; a game needs {} (board {}, {n} pieces)",
                if play == Play::Misere {
                    "the exhaustive table for misère play"
                } else {
                    "the component solver for normal play"
                },
                shape.name()
            )
        })?;
        let all = moves(&board, take);
        let mut start = board.full();
        for &i in removed {
            start &= !(1u64 << i);
        }
        if start == 0 {
            bail!("every piece is removed: there is nothing to play");
        }
        let engine = Engine::build(&shape, &board, take, play, &all, start, memo_budget)?;
        let q0 = board.points.iter().map(|p| p.0).min().unwrap();
        let r0 = board.points.iter().map(|p| p.1).min().unwrap();
        Ok(LinesGame {
            shape,
            board,
            take,
            play,
            moves: all,
            engine,
            start,
            x: start,
            history: Vec::new(),
            first: Player::Person,
            q0,
            r0,
        })
    }

    fn cell_name(&self, p: Pt) -> String {
        format!(
            "{}{}",
            column_name((p.0 - self.q0) as usize),
            p.1 - self.r0 + 1
        )
    }

    fn parse_cell(&self, s: &str) -> Result<usize, String> {
        let s = s.to_ascii_lowercase();
        let split = s.find(|c: char| c.is_ascii_digit()).unwrap_or(s.len());
        let (col, row) = s.split_at(split);
        let bad = || {
            format!(
                "{s:?} is not a cell name: a letter for the column and a number for the row (1 at the bottom), e.g. {}",
                self.cell_name(self.board.points[0])
            )
        };
        let c = column_index(col).ok_or_else(bad)?;
        let r: i32 = row.parse().map_err(|_| bad())?;
        let pt = (self.q0 + c as i32, self.r0 + r - 1);
        self.board
            .index(pt)
            .ok_or_else(|| format!("{s} is not a cell of this board"))
    }

    /// The run from cell `a` to cell `b` (present pieces, on one line, no gap).
    fn run_between(&self, a: Pt, b: Pt) -> Result<(u64, Vec<Pt>), String> {
        let (dq, dr) = (b.0 - a.0, b.1 - a.1);
        let k = dq.abs().max(dr.abs());
        let step = if k == 0 { (0, 0) } else { (dq / k, dr / k) };
        let on_line = k == 0
            || ((step.0 * k, step.1 * k) == (dq, dr)
                && DIRS.iter().any(|&d| d == step || (-d.0, -d.1) == step));
        if !on_line {
            return Err(format!(
                "{} and {} are not on one line (a line is a row, a letter read upward, or one letter right and one row down)",
                self.cell_name(a),
                self.cell_name(b)
            ));
        }
        let mut mask = 0u64;
        let mut cells = Vec::new();
        for j in 0..=k {
            let p = (a.0 + j * step.0, a.1 + j * step.1);
            match self.board.index(p) {
                Some(i) if self.x >> i & 1 == 1 => {
                    mask |= 1 << i;
                    cells.push(p);
                }
                _ => {
                    return Err(format!(
                        "the cells from {} to {} are not all there ({} is missing): a run has no gap",
                        self.cell_name(a),
                        self.cell_name(b),
                        if self.board.index(p).is_some() {
                            self.cell_name(p)
                        } else {
                            format!("({}, {})", p.0, p.1)
                        }
                    ));
                }
            }
        }
        Ok((mask, cells))
    }

    fn is_p(&self, x: u64) -> bool {
        match &self.engine {
            Engine::Components(c) => c.grundy(x, &|_| {}) == 0,
            Engine::Exhaustive(e) => e.is_p(x),
        }
    }

    fn legal(&self, x: u64) -> Vec<&BoardMove> {
        legal_distinct(&self.moves, x)
    }

    fn cells_of(&self, mask: u64) -> Vec<Pt> {
        match self.moves.iter().find(|m| m.mask == mask) {
            Some(m) => run_cells(&self.board, m),
            None => Vec::new(),
        }
    }

    fn run_name(&self, mask: u64) -> String {
        let cells = self.cells_of(mask);
        match cells.as_slice() {
            [] => "?".into(),
            [c] => self.cell_name(*c),
            [a, .., b] => format!("{}-{}", self.cell_name(*a), self.cell_name(*b)),
        }
    }

    /// The cells of a run, in order along it.
    fn run_cells_text(&self, mask: u64) -> String {
        self.cells_of(mask)
            .iter()
            .map(|&p| self.cell_name(p))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn names(&self, mask: u64) -> String {
        let mut v = Vec::new();
        let mut b = mask;
        while b != 0 {
            let i = b.trailing_zeros() as usize;
            b &= b - 1;
            v.push(self.cell_name(self.board.points[i]));
        }
        v.join(" ")
    }

    fn to_move(&self) -> Player {
        self.first.after(self.history.len())
    }

    fn take_text(&self) -> String {
        match self.take {
            Take::Maximal => {
                "a whole run of pieces in a line (one that cannot be extended at either end)".into()
            }
            Take::Max(1) => "one piece".into(),
            Take::Max(p) => format!("1 to {p} pieces in a row along a line"),
            Take::Any => "any number of pieces in a row along a line".into(),
        }
    }

    /// Why a set of cells is not a legal move (the cells are present).
    fn illegal_reason(&self, mask: u64, cells: &[Pt]) -> String {
        let n = mask.count_ones();
        match self.take {
            Take::Max(p) if n > p => format!("that is {n} pieces; the rule allows at most {p}"),
            Take::Maximal => {
                if n == 1 {
                    "a lone piece can be taken only when, along some line, both its neighbours are gone"
                        .into()
                } else {
                    let d = (cells[1].0 - cells[0].0, cells[1].1 - cells[0].1);
                    let first = cells[0];
                    let last = cells[cells.len() - 1];
                    let ext: Vec<String> =
                        [(first.0 - d.0, first.1 - d.1), (last.0 + d.0, last.1 + d.1)]
                            .iter()
                            .filter(|&&p| self.board.index(p).is_some_and(|i| self.x >> i & 1 == 1))
                            .map(|&p| self.cell_name(p))
                            .collect();
                    format!(
                        "this run can be extended by {}: take: maximal removes a whole run",
                        ext.join(" and ")
                    )
                }
            }
            _ => "that is not a run the rule allows".into(),
        }
    }

    fn component_values(&self, x: u64) -> Vec<(u64, u32)> {
        let Engine::Components(c) = &self.engine else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut rest = x;
        while rest != 0 {
            let comp = c.component(rest);
            rest &= !comp;
            out.push((comp, c.grundy(comp, &|_| {})));
        }
        out
    }

    fn group_text(&self, comp: u64) -> String {
        let n = comp.count_ones();
        if n <= 4 {
            format!("{{{}}}", self.names(comp))
        } else {
            let first = self.board.points[comp.trailing_zeros() as usize];
            format!("{n} pieces from {}", self.cell_name(first))
        }
    }

    fn replies(&self, x: u64) -> String {
        let w: Vec<String> = self
            .legal(x)
            .into_iter()
            .filter(|m| self.is_p(x & !m.mask))
            .take(6)
            .map(|m| self.run_name(m.mask))
            .collect();
        w.join(", ")
    }
}

impl PlayGame for LinesGame {
    fn title(&self) -> String {
        format!(
            "lines: {} ({}, {} pieces), take {}, {}",
            self.shape.name(),
            self.shape.text(),
            self.start.count_ones(),
            self.take.text(),
            match self.play {
                Play::Normal => "normal play (whoever takes the last piece wins)",
                Play::Misere => "misère play (whoever takes the last piece loses)",
            }
        )
    }

    fn rules(&self) -> String {
        let example = self
            .moves
            .iter()
            .filter(|m| m.legal(self.start))
            .max_by_key(|m| m.len)
            .map(|m| self.run_name(m.mask))
            .unwrap_or_default();
        format!(
            "On your turn remove {}; {}. Cells are named by column letter and row number (1 at the bottom); type a run by its two ends, e.g. {example}, or one cell.",
            self.take_text(),
            match self.play {
                Play::Normal => "whoever cannot move loses, so taking the last piece wins",
                Play::Misere => "whoever takes the last piece loses",
            }
        )
    }

    fn start(&mut self, first: Player) {
        self.first = first;
        self.x = self.start;
        self.history.clear();
    }

    fn draw(&self, color: bool) -> String {
        let last = self.history.last().copied().unwrap_or(0);
        let col = |p: Pt| 2 * (p.0 - self.q0) + (p.1 - self.r0);
        let min_col = self.board.points.iter().map(|&p| col(p)).min().unwrap();
        let r1 = self.board.points.iter().map(|p| p.1).max().unwrap();
        let mut lines = Vec::new();
        for r in (self.r0..=r1).rev() {
            let mut row: Vec<(usize, String)> = Vec::new();
            for (i, &p) in self.board.points.iter().enumerate() {
                if p.1 != r {
                    continue;
                }
                let pos = 2 * (col(p) - min_col) as usize;
                let text = if self.x >> i & 1 == 1 {
                    self.cell_name(p)
                } else if last >> i & 1 == 1 {
                    paint("×", Paint::Red, color)
                } else if self.start >> i & 1 == 1 {
                    paint("·", Paint::Dim, color)
                } else {
                    " ".into()
                };
                row.push((pos, text));
            }
            row.sort_by_key(|e| e.0);
            let mut line = String::from("  ");
            let mut at = 0;
            for (pos, text) in row {
                if pos > at {
                    line.push_str(&" ".repeat(pos - at));
                    at = pos;
                }
                at += crate::play::term::width(&text);
                line.push_str(&text);
            }
            lines.push(line.trim_end().to_string());
        }
        lines.push(format!(
            "  ({} piece{} left)",
            self.x.count_ones(),
            if self.x.count_ones() == 1 { "" } else { "s" }
        ));
        lines.join("\n")
    }

    fn parse_move(&self, input: &str) -> Result<Move, String> {
        let tokens: Vec<&str> = input
            .split(|c: char| c.is_whitespace() || c == ',' || c == '-' || c == '.')
            .filter(|t| !t.is_empty())
            .collect();
        if tokens.is_empty() {
            return Err("type a run by its two ends (e.g. a1-c1) or one cell".into());
        }
        let idx: Vec<usize> = tokens
            .iter()
            .map(|t| self.parse_cell(t))
            .collect::<Result<_, _>>()?;
        for &i in &idx {
            if self.x >> i & 1 == 0 {
                return Err(format!(
                    "{} is already gone",
                    self.cell_name(self.board.points[i])
                ));
            }
        }
        let pts: Vec<Pt> = idx.iter().map(|&i| self.board.points[i]).collect();
        let (a, b) = ends(&pts);
        let (mask, cells) = self.run_between(a, b)?;
        if pts.len() > 2 && idx.iter().fold(0u64, |m, &i| m | 1 << i) != mask {
            return Err("list every cell of the run, or just its two ends".into());
        }
        if self.legal(self.x).iter().any(|m| m.mask == mask) {
            Ok(Move(mask))
        } else {
            Err(self.illegal_reason(mask, &cells))
        }
    }

    fn legal_moves(&self) -> Vec<Move> {
        self.legal(self.x).iter().map(|m| Move(m.mask)).collect()
    }

    fn move_name(&self, m: Move) -> String {
        self.run_name(m.0)
    }

    fn effect(&self, m: Move) -> String {
        let left = (self.x & !m.0).count_ones();
        format!(
            "removes {} ({} piece{} left)",
            self.run_cells_text(m.0),
            left,
            if left == 1 { "" } else { "s" }
        )
    }

    fn play(&mut self, m: Move) {
        self.x &= !m.0;
        self.history.push(m.0);
    }

    fn undo(&mut self) {
        if let Some(m) = self.history.pop() {
            self.x |= m;
        }
    }

    fn result(&self) -> Option<bool> {
        self.legal(self.x)
            .is_empty()
            .then_some(self.play == Play::Misere)
    }

    fn end_reason(&self) -> String {
        let last = self.to_move().other();
        if self.x == 0 {
            format!(
                "{} took the last piece",
                if last == Player::Person {
                    "you"
                } else {
                    "the computer"
                }
            )
        } else {
            "no move is left".into()
        }
    }

    fn winning_moves(&self) -> Vec<Move> {
        if let Engine::Components(c) = &self.engine {
            let (g, vals) = c.options(self.x, &|_| {});
            if g == 0 {
                return Vec::new();
            }
            return vals
                .iter()
                .filter(|v| v.1 == 0)
                .map(|v| Move(v.0.mask))
                .collect();
        }
        self.legal(self.x)
            .into_iter()
            .filter(|m| self.is_p(self.x & !m.mask))
            .map(|m| Move(m.mask))
            .collect()
    }

    fn left_after(&self, m: Move) -> u64 {
        (self.x & !m.0).count_ones() as u64
    }

    fn key(&self) -> u64 {
        mix(self.x)
    }

    fn why(&self) -> Option<String> {
        let &m = self.history.last()?;
        let before = self.x | m;
        let mut t = format!("{} removed {}. ", self.run_name(m), self.run_cells_text(m));
        if self.x == 0 {
            t.push_str("No piece is left.");
            return Some(t);
        }
        match &self.engine {
            Engine::Components(_) => self.why_components(before, &mut t),
            Engine::Exhaustive(_) => self.why_exhaustive(&mut t),
        }
        Some(t)
    }

    fn html(&self) -> Result<HtmlGame> {
        let n = self.board.len();
        if n > MAX_PAGE_PIECES {
            bail!(
                "the page embeds the P-position bitmap of every subset of the board (2^n bits): at most {MAX_PAGE_PIECES} pieces, and {} has {n} (2^{n} bits = {:.0} MiB)",
                self.shape.name(),
                (1u64 << n) as f64 / 8.0 / (1u64 << 20) as f64
            );
        }
        let p_bits = self.p_bitmap()?;
        let cells: Vec<serde_json::Value> = self
            .board
            .points
            .iter()
            .map(|&p| json!({"q": p.0, "r": p.1, "name": self.cell_name(p)}))
            .collect();
        let moves: Vec<serde_json::Value> = self
            .moves
            .iter()
            .map(|m| {
                let cells = run_cells(&self.board, m);
                json!({
                    "mask": m.mask,
                    "blockers": m.blockers,
                    "name": self.run_name(m.mask),
                    "cells": cells.iter().map(|&p| self.board.index(p).unwrap()).collect::<Vec<_>>(),
                })
            })
            .collect();
        Ok(HtmlGame {
            script: include_str!("play.js"),
            data: json!({
                "n": n,
                "start": self.start,
                "cells": cells,
                "moves": moves,
                "misere": self.play == Play::Misere,
                "take": self.take_text(),
                "p_bits": base64(&p_bits),
            }),
        })
    }
}

impl LinesGame {
    /// Normal play: the groups of pieces and their Grundy values.
    fn why_components(&self, before: u64, t: &mut String) {
        let parts = self.component_values(self.x);
        let g = parts.iter().fold(0, |a, p| a ^ p.1);
        let k = self.x.count_ones();
        let plural = if k == 1 { "" } else { "s" };
        if let [(_, v)] = parts.as_slice() {
            let _ = write!(
                t,
                "The {k} piece{plural} left are one connected group with Grundy value {v} (report 000's class {}): ",
                class_of(*v)
            );
        } else {
            let _ = write!(
                t,
                "The {k} pieces left form {} groups that no move can join, so their Grundy values add as Nim heaps: {}; {} = {g}: ",
                parts.len(),
                parts
                    .iter()
                    .map(|(c, v)| format!("{} G = {v} ({})", self.group_text(*c), class_of(*v)))
                    .collect::<Vec<_>>()
                    .join(", "),
                parts
                    .iter()
                    .map(|p| p.1.to_string())
                    .collect::<Vec<_>>()
                    .join(" ⊕ ")
            );
        }
        if g == 0 {
            t.push_str("a P-position (safe: whoever moves next loses).");
        } else {
            let _ = write!(
                t,
                "not 0, so the next player wins, e.g. with {}.",
                self.replies(self.x)
            );
        }
        let gb = self.component_values(before).iter().fold(0, |a, p| a ^ p.1);
        let _ = write!(t, " (Before the move the Grundy value was {gb}.)");
    }

    /// Misère play: P or N in the exhaustive table.
    fn why_exhaustive(&self, t: &mut String) {
        let k = self.x.count_ones();
        let _ = write!(
            t,
            "By the exhaustive table of all 2^{} subsets of the board (report 002's method), the {k} piece{} left ",
            self.board.len(),
            if k == 1 { "" } else { "s" }
        );
        if self.is_p(self.x) {
            t.push_str("are a P-position (report 002's 必勝棋局, a \"champion\"): whoever moves next loses.");
        } else {
            let _ = write!(
                t,
                "are an N-position: the next player wins, e.g. with {}.",
                self.replies(self.x)
            );
        }
    }

    /// Bit x set when subset x is a P-position (both plays, from the exhaustive table).
    fn p_bitmap(&self) -> Result<Vec<u8>> {
        let n = self.board.len();
        let table;
        let ex = match &self.engine {
            Engine::Exhaustive(e) => e,
            Engine::Components(_) => {
                let rm: Vec<exhaustive::Move> =
                    self.moves.iter().map(exhaustive::Move::from).collect();
                table = exhaustive::solve(n, &rm, self.play, &|_| {}, &AtomicBool::new(false))?;
                &table
            }
        };
        let mut bits = vec![0u8; ((1usize << n) / 8).max(1)];
        for x in 0..(1u64 << n) {
            if ex.is_p(x) {
                bits[(x >> 3) as usize] |= 1 << (x & 7);
            }
        }
        Ok(bits)
    }
}

/// Standard base64 (RFC 4648), for the page's bitmap; a dozen lines, not worth a dependency.
fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let v = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        for k in 0..4 {
            if k <= c.len() {
                out.push(A[(v >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::lines::brute;

    fn triangle(n: u32, take: Take, play: Play) -> LinesGame {
        let shape = Shape::Triangle(n);
        let board = shape.board();
        let mut g = LinesGame::new(shape, board, take, play, &[], 1 << 30).unwrap();
        g.start(Player::Person);
        g
    }

    #[test]
    fn names_and_columns() {
        assert_eq!(column_name(0), "a");
        assert_eq!(column_name(25), "z");
        assert_eq!(column_name(26), "aa");
        assert_eq!(column_name(27), "ab");
        for i in 0..800 {
            assert_eq!(column_index(&column_name(i)), Some(i));
        }
        assert_eq!(column_index("A"), None);
        assert_eq!(base64(b"Man"), "TWFu");
        assert_eq!(base64(b"Ma"), "TWE=");
        assert_eq!(base64(b"M"), "TQ==");
    }

    #[test]
    fn triangle_of_four_is_drawn_with_names() {
        let g = triangle(4, Take::Max(3), Play::Misere);
        let d = g.draw(false);
        assert_eq!(
            d,
            "        a4\n      a3  b3\n    a2  b2  c2\n  a1  b1  c1  d1\n  (10 pieces left)"
        );
    }

    #[test]
    fn typed_runs_are_checked() {
        let mut g = triangle(4, Take::Max(3), Play::Misere);
        let m = g.parse_move("a1-c1").unwrap();
        assert_eq!(g.names(m.0), "a1 b1 c1");
        assert_eq!(g.parse_move("c1 a1"), Ok(m));
        assert_eq!(g.parse_move("a1,b1,c1"), Ok(m));
        // (0,1): a letter upward; (1,-1): one letter right, one row down.
        assert!(g.parse_move("a1-a3").is_ok());
        assert!(g.parse_move("a3-c1").is_ok());
        assert!(g.parse_move("a1-d1").unwrap_err().contains("at most 3"));
        assert!(
            g.parse_move("a1-b2")
                .unwrap_err()
                .contains("not on one line")
        );
        assert!(g.parse_move("e1").unwrap_err().contains("not a cell"));
        assert!(g.parse_move("zz").unwrap_err().contains("not a cell name"));
        g.play(g.parse_move("b1").unwrap());
        assert!(g.parse_move("b1").unwrap_err().contains("already gone"));
        assert!(g.parse_move("a1-c1").unwrap_err().contains("b1 is missing"));
        let g = triangle(3, Take::Maximal, Play::Normal);
        assert!(
            g.parse_move("a1-b1")
                .unwrap_err()
                .contains("extended by c1")
        );
        assert!(g.parse_move("b2").unwrap_err().contains("lone piece"));
        assert!(g.parse_move("a1-c1").is_ok());
    }

    /// Winning moves agree with the plain game tree of the family's brute solver.
    #[test]
    fn winning_moves_agree_with_brute_force() {
        for (n, take, play) in [
            (4, Take::Max(3), Play::Misere),
            (4, Take::Max(2), Play::Normal),
            (3, Take::Maximal, Play::Normal),
            (4, Take::Any, Play::Misere),
        ] {
            let mut g = triangle(n, take, play);
            let geo = std::sync::Arc::new(brute::Geo {
                board: g.board.clone(),
                take,
            });
            let mut solver = crate::game::BruteOutcome::new(play);
            let mut line = 1u64;
            while g.result().is_none() {
                let mut want: Vec<u64> = g
                    .legal(g.x)
                    .iter()
                    .filter(|m| {
                        solver.is_p(&brute::Pos {
                            x: g.x & !m.mask,
                            geo: geo.clone(),
                        })
                    })
                    .map(|m| m.mask)
                    .collect();
                want.sort_unstable();
                let mut got: Vec<u64> = g.winning_moves().iter().map(|m| m.0).collect();
                got.sort_unstable();
                assert_eq!(got, want, "T({n}) {take:?} {play:?} at {:#x}", g.x);
                let legal = g.legal_moves();
                line = mix(line ^ g.x);
                g.play(legal[(line % legal.len() as u64) as usize]);
            }
        }
    }
}
