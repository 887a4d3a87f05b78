//! `lines`: removing runs of pieces on a triangular-lattice board (GAMES.md §3;
//! reports 000 and 002).
//!
//! Sweep parameters:
//!
//! ```yaml
//! family: lines
//! board: {trapezoid: [1..6, 1..200]}   # hexagon: [p0..p5] | regular: s | triangle: n | trapezoid: [x, y]
//!                                      # | parallelogram: [x, y] | pentagon: [x, y, z]
//!                                      # | mask: "O O ./O O O" | hexagons: {max_side: L, max_pieces: K}
//!                                      # (ranges allowed in every parameter; a list of boards)
//! take: maximal                        # maximal | {max: P} | any, or a list
//! play: normal                         # normal | misere, or a list
//! along: y                             # the parameter sequences run along (periods, class tables)
//! counts: false                        # report 002's table (P-positions per piece count, exhaustive)
//! pictures: false                      # board pictures with a winning run (default: ≤ 8 boards)
//! ```
//!
//! Solvers: normal play with `take: maximal` on hexagon-family boards uses the
//! chord recursion of [`hexsum`] (any size); other normal-play cases the
//! component decomposition of [`components`] (≤ 64 pieces); misère play and
//! count tables the exhaustive bitmap analysis of [`retro`].
//!
//! Datasets: `positions` (one row per board and rule), `counts` (report 002's
//! table), `periods` (one row per sequence and rule), `class_counts`, `cells`
//! (board pictures). Columns are documented in `docs/families/lines.md`.

pub mod board;
pub mod brute;
pub mod components;
pub mod hexsum;
mod memo;
pub mod retro;
pub mod rules;
pub mod slices;

use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use anyhow::bail;
use rayon::prelude::*;
use serde_json::json;

use crate::family::{Answer, Case, CaseCtx, Family, Output, Plan};
use crate::game::{PLAY_WORDS, Play};
use crate::period;
use crate::spec::{Node, SWEEP_KEYS, SpecError};
use crate::table::{StrVec, Table, Values};
use crate::view::{View, ViewKind};

use board::{Board, Hex, Pt, Shape, closes, parse_mask};
use components::Components;
use hexsum::HexSolver;
use rules::{Take, legal_distinct, run_cells, run_text};

/// The family (registered in [`crate::family::FAMILIES`]).
pub struct Lines;

/// Exhaustive tables are refused above this estimate (the machine has 24 GiB).
pub const MEMORY_LIMIT: u64 = 20 << 30;

/// Default memo budget of the component solver.
const DEFAULT_MEMO_GIB: i64 = 12;

/// Boards drawn as pictures at most this large.
const PICTURE_MAX_PIECES: usize = 5000;

const KEYS: &[&str] = &[
    "grundy", "board", "take", "play", "along", "counts", "pictures", "memo_gib",
];
const SHAPE_KEYS: &[&str] = &[
    "hexagon",
    "regular",
    "triangle",
    "trapezoid",
    "parallelogram",
    "pentagon",
    "mask",
    "hexagons",
];

/// Report 000's class of a Grundy value.
pub fn class_of(g: u32) -> &'static str {
    match g {
        0 => "N2",
        1 => "N1",
        2 => "N3",
        3 => "N4",
        4 => "N5",
        _ => "beyond N5",
    }
}

/// Boards solved together (a sequence along one parameter, a block of an
/// enumeration, or one board).
#[derive(Clone, Debug)]
pub struct Group {
    /// The boards.
    pub shapes: Vec<Shape>,
    /// Label (sequence name such as `A(2,y)`, `largest side 7`, or the board name).
    pub label: String,
    /// The parameter the sequence runs along (`y`, `n`, `p3`…) and each board's value of it.
    pub along: Option<(String, Vec<i64>)>,
}

/// Names of a shape's parameters, in order.
fn param_names(kind: &str) -> &'static [&'static str] {
    match kind {
        "triangle" => &["n"],
        "regular" => &["s"],
        "trapezoid" | "parallelogram" => &["x", "y"],
        "pentagon" => &["x", "y", "z"],
        "hexagon" => &["p0", "p1", "p2", "p3", "p4", "p5"],
        _ => &[],
    }
}

fn make_shape(kind: &str, v: &[u32]) -> Shape {
    match kind {
        "triangle" => Shape::Triangle(v[0]),
        "regular" => Shape::Hexagon([v[0]; 6]),
        "trapezoid" => Shape::Trapezoid(v[0], v[1]),
        "parallelogram" => Shape::Parallelogram(v[0], v[1]),
        "pentagon" => Shape::Pentagon(v[0], v[1], v[2]),
        _ => Shape::Hexagon([v[0], v[1], v[2], v[3], v[4], v[5]]),
    }
}

fn sequence_name(kind: &str, v: &[u32], along: usize) -> String {
    let names = param_names(kind);
    let args: Vec<String> = v
        .iter()
        .enumerate()
        .map(|(i, x)| {
            if i == along {
                names[i].to_string()
            } else {
                x.to_string()
            }
        })
        .collect();
    if kind == "regular" {
        return if along == 0 {
            "H(s,s,s,s,s,s)".into()
        } else {
            format!("H({})", vec![v[0].to_string(); 6].join(","))
        };
    }
    let letter = match kind {
        "triangle" => "T",
        "trapezoid" => "A",
        "parallelogram" => "B",
        "pentagon" => "C",
        _ => "H",
    };
    format!("{letter}({})", args.join(","))
}

/// Reads the mask rows of a node: a string (rows separated by new lines or `/`) or a list of strings.
fn mask_rows(n: &Node<'_>) -> Result<Vec<String>, SpecError> {
    let rows: Vec<String> = if let Some(s) = n.value().as_str() {
        s.split(['\n', '/']).map(str::to_string).collect()
    } else if n.value().is_array() {
        n.items()
            .iter()
            .map(|i| i.str().map(str::to_string))
            .collect::<Result<_, _>>()?
    } else {
        return Err(n.err("expected the board picture: a string with one line per row (top first) or a list of row strings"));
    };
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    parse_mask(&refs).map_err(|m| n.err(m))
}

/// Parses the shape keys of a map (a sweep's `board:` item, or `nimlab solve`'s parameters).
fn parse_shape_map(
    item: &Node<'_>,
    along: Option<&str>,
    groups: &mut Vec<Group>,
    notes: &mut Vec<String>,
) -> Result<(), SpecError> {
    let map = item.value().as_object().ok_or_else(|| {
        item.err(format!(
            "expected a board such as `{{triangle: 5}}`; shapes: {}",
            SHAPE_KEYS.join(", ")
        ))
    })?;
    let present: Vec<&str> = SHAPE_KEYS
        .iter()
        .copied()
        .filter(|k| map.contains_key(*k))
        .collect();
    if present.len() != 1 {
        return Err(item.err(format!(
            "give exactly one shape ({}); found {}",
            SHAPE_KEYS.join(", "),
            present.len()
        )));
    }
    let kind = present[0];
    let node = item
        .get(kind)
        .ok_or_else(|| item.err(format!("`{kind}` is empty")))?;
    match kind {
        "mask" => {
            let rows = mask_rows(&node)?;
            let s = Shape::Mask(rows);
            groups.push(Group {
                label: s.name(),
                shapes: vec![s],
                along: None,
            });
        }
        "hexagons" => {
            node.expect_keys(&["max_side", "min_side", "max_pieces"])?;
            let max_pieces = node
                .get("max_pieces")
                .map(|n| n.int(1, i64::MAX))
                .transpose()?;
            let max_side = match node.get("max_side") {
                Some(n) => n.int(1, 1023)? as u32,
                None => match max_pieces {
                    // A hexagon with a side of s pieces has at least s pieces.
                    Some(k) => k.min(1023) as u32,
                    None => return Err(node.err("give `max_side: L` and/or `max_pieces: K`")),
                },
            };
            let min_side = node
                .get("min_side")
                .map(|n| n.int(1, max_side as i64))
                .transpose()?
                .unwrap_or(1) as u32;
            let all = board::hexagons(
                min_side,
                max_side,
                max_pieces.map_or(u64::MAX, |k| k as u64),
            );
            if all.is_empty() {
                return Err(node.err("no equiangular hexagon satisfies these bounds"));
            }
            // One group per largest side.
            let mut i = 0;
            while i < all.len() {
                let m = *all[i].iter().max().unwrap();
                let mut j = i;
                while j < all.len() && *all[j].iter().max().unwrap() == m {
                    j += 1;
                }
                // Split big blocks so the driver can balance and resume.
                for chunk in all[i..j].chunks(20_000) {
                    groups.push(Group {
                        label: format!("largest side {m}"),
                        shapes: chunk.iter().map(|&p| Shape::Hexagon(p)).collect(),
                        along: None,
                    });
                }
                i = j;
            }
        }
        _ => {
            let names = param_names(kind);
            let items = node.items();
            if items.len() != names.len() || (names.len() > 1 && !node.value().is_array()) {
                return Err(node.err(format!(
                    "`{kind}` takes {} ({}), each a number, a range \"a..b\" or a list",
                    if names.len() == 1 {
                        "one value".to_string()
                    } else {
                        format!("a list of {} values", names.len())
                    },
                    names.join(", ")
                )));
            }
            let mut vals: Vec<Vec<u32>> = Vec::new();
            for it in &items {
                vals.push(
                    it.ints(1, hexsum::MAX_SIDE as i64)?
                        .into_iter()
                        .map(|x| x as u32)
                        .collect(),
                );
            }
            let along_idx = match along {
                Some(a) => match names.iter().position(|n| *n == a) {
                    Some(i) => Some(i),
                    None => {
                        return Err(item.err(format!(
                            "`along: {a}` is not a parameter of `{kind}`; its parameters are {}",
                            names.join(", ")
                        )));
                    }
                },
                None => (0..names.len()).rev().find(|&i| vals[i].len() > 1),
            };
            // The product of the values, grouped by every parameter except `along`.
            let product: f64 = vals.iter().map(|v| v.len() as f64).product();
            if product > 5e6 {
                return Err(node.err(format!(
                    "these ranges make {product:.0} boards; at most 5000000 per shape (for every hexagon up to a size use `hexagons: {{max_side: L}}`)"
                )));
            }
            let mut combos: Vec<Vec<u32>> = vec![vec![]];
            for v in &vals {
                combos = combos
                    .into_iter()
                    .flat_map(|c| v.iter().map(move |&x| [c.clone(), vec![x]].concat()))
                    .collect();
            }
            let total = combos.len();
            if kind == "hexagon" {
                let single = total == 1;
                combos.retain(|c| closes([c[0], c[1], c[2], c[3], c[4], c[5]]));
                if combos.is_empty() {
                    let msg = "the sides do not close: an equiangular hexagon needs p0 + p1 = p3 + p4 and p1 + p2 = p4 + p5 (report 000's Lemma 8)";
                    return Err(node.err(if single {
                        format!("{msg}; got {}", node_text(&vals))
                    } else {
                        format!("{msg}; no combination of these ranges does")
                    }));
                }
                if combos.len() < total {
                    notes.push(format!(
                        "{}: skipped {} side combinations that do not close",
                        item.path(),
                        total - combos.len()
                    ));
                }
            }
            let mut order: Vec<Vec<u32>> = Vec::new();
            let mut by_key: Vec<Vec<Vec<u32>>> = Vec::new();
            for c in combos {
                let key: Vec<u32> = c
                    .iter()
                    .enumerate()
                    .map(|(i, &x)| if Some(i) == along_idx { 0 } else { x })
                    .collect();
                match order.iter().position(|k| *k == key) {
                    Some(p) => by_key[p].push(c),
                    None => {
                        order.push(key);
                        by_key.push(vec![c]);
                    }
                }
            }
            for members in by_key {
                let shapes: Vec<Shape> = members.iter().map(|c| make_shape(kind, c)).collect();
                let (label, along) = match along_idx {
                    Some(a) if members.len() > 1 => (
                        sequence_name(kind, &members[0], a),
                        Some((
                            names[a].to_string(),
                            members.iter().map(|c| c[a] as i64).collect(),
                        )),
                    ),
                    _ => (shapes[0].name(), None),
                };
                if along.is_none() && shapes.len() > 1 {
                    for s in shapes {
                        groups.push(Group {
                            label: s.name(),
                            shapes: vec![s],
                            along: None,
                        });
                    }
                } else {
                    groups.push(Group {
                        label,
                        shapes,
                        along,
                    });
                }
            }
        }
    }
    Ok(())
}

fn node_text(vals: &[Vec<u32>]) -> String {
    format!(
        "[{}]",
        vals.iter()
            .map(|v| v[0].to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// Parses one `take:` item.
fn parse_take(n: &Node<'_>) -> Result<Vec<Take>, SpecError> {
    let allowed = "allowed: `maximal`, `{max: P}` (P ≥ 1) or `any`";
    if let Some(s) = n.value().as_str() {
        return match s {
            "maximal" => Ok(vec![Take::Maximal]),
            "any" => Ok(vec![Take::Any]),
            _ => Err(n.err(format!("unknown take rule {s:?}; {allowed}"))),
        };
    }
    if !n.value().is_object() {
        return Err(n.err(format!("expected a take rule; {allowed}")));
    }
    n.expect_keys(&["max"])?;
    let m = n.req("max", "the largest run P a move may take (P ≥ 1)")?;
    let ps = m.ints(0, 1 << 20)?;
    if ps.contains(&0) {
        return Err(m.err("P = 0 would remove nothing: a move takes a run of 1 to P pieces, so P must be at least 1"));
    }
    Ok(ps.into_iter().map(|p| Take::Max(p as u32)).collect())
}

fn parse_takes(n: &Node<'_>) -> Result<Vec<Take>, SpecError> {
    let mut out = Vec::new();
    for it in n.items() {
        for t in parse_take(&it)? {
            if !out.contains(&t) {
                out.push(t);
            }
        }
    }
    if out.is_empty() {
        return Err(n.err("empty list of take rules"));
    }
    Ok(out)
}

/// Which solver a board gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Method {
    Chords,
    Components,
    Exhaustive,
}

fn method_for(shape: &Shape, take: Take, play: Play, grundy: bool) -> Method {
    match play {
        Play::Misere => Method::Exhaustive,
        Play::Normal if !grundy => Method::Exhaustive,
        Play::Normal if take == Take::Maximal && shape.sides().is_some() => Method::Chords,
        Play::Normal => Method::Components,
    }
}

/// Why a board cannot be solved by a method, if it cannot.
fn feasibility(pieces: u64, method: Method, counts: bool) -> Result<(), String> {
    if method == Method::Exhaustive || counts {
        if pieces > 63 {
            return Err(format!(
                "the exhaustive analysis needs one bit for each of the 2^{pieces} positions, far beyond this machine's 24 GiB"
            ));
        }
        let bytes = retro::memory_bytes(pieces as usize);
        if bytes > MEMORY_LIMIT {
            return Err(format!(
                "the exhaustive analysis of {pieces} pieces needs about {:.1} GiB (2^{pieces} positions, one bit each); the limit is {:.0} GiB of this machine's 24 GiB",
                bytes as f64 / (1u64 << 30) as f64,
                MEMORY_LIMIT as f64 / (1u64 << 30) as f64
            ));
        }
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
    progress: &(dyn Fn(u64) + Sync),
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
    if play == Play::Normal && !grundy && !counts {
        bail!("normal play without Grundy values needs `counts: true` (the exhaustive table)");
    }
    let owned: Option<Board> = needs_board.then(|| {
        board
            .cloned()
            .unwrap_or_else(|| shape.expect("a shape or a board").board())
    });
    if chords {
        let p = sides.unwrap();
        let h = Hex::from_sides(p);
        let local;
        let solver = match hex {
            Some(s) if s.max_side() >= h.longest_chord() => s,
            _ => {
                local = HexSolver::new(h.longest_chord());
                &local
            }
        };
        let (g, opts) = solver.options(h, progress);
        out.grundy = Some(g);
        out.is_p = g == 0;
        out.wins = opts
            .iter()
            .filter(|o| o.1 == 0)
            .map(|&(c, _)| (c.dir as usize, HexSolver::chord_cells(&h, c)))
            .collect();
        out.method = "chords";
    } else if play == Play::Normal && grundy {
        let b = owned.as_ref().unwrap();
        if b.len() > 64 {
            bail!(
                "{}",
                feasibility(b.len() as u64, Method::Components, false).unwrap_err()
            );
        }
        let solver = Components::new(b, take, memo_budget);
        let prog = |n: u64| {
            progress(n);
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
            bail!(crate::sweep::Interrupted);
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
    }
    if play == Play::Misere || counts {
        let b = owned.as_ref().unwrap();
        feasibility(b.len() as u64, Method::Exhaustive, true).map_err(anyhow::Error::msg)?;
        let moves = rules::moves(b, take);
        let rm: Vec<retro::Move> = moves.iter().map(retro::Move::from).collect();
        let ex = retro::solve(b.len(), &rm, play, progress, cancel)?;
        if cancel.load(Ordering::Relaxed) {
            bail!(crate::sweep::Interrupted);
        }
        let full = b.full();
        let is_p = ex.is_p(full);
        if play == Play::Normal && grundy {
            if out.is_p != is_p {
                bail!(
                    "internal check failed: the exhaustive table and the Grundy value disagree on {}",
                    shape.map_or("the board".into(), |s| s.name())
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
    }
    Ok(out)
}

/// One group of boards under one rule: the unit of work.
pub struct LinesCase {
    group: Arc<Group>,
    take: Take,
    play: Play,
    counts: bool,
    grundy: bool,
    pictures: bool,
    hex: Option<Arc<OnceLock<HexSolver>>>,
    hex_side: u32,
    /// Boards in the sweep (big sweeps get a bigger dense chord memo).
    hex_boards: usize,
    memo_budget: u64,
}

impl LinesCase {
    fn method(&self) -> Method {
        method_for(&self.group.shapes[0], self.take, self.play, self.grundy)
    }
}

fn repeat_str(s: &str, n: usize) -> StrVec {
    let mut v = StrVec::with_capacity(n, n * s.len());
    for _ in 0..n {
        v.push(s);
    }
    v
}

impl Case for LinesCase {
    fn key(&self) -> String {
        let text: String = self.group.shapes.iter().map(|s| s.text() + ";").collect();
        format!(
            "lines/v2/boards={}:{:016x}/take={}/play={}/counts={}/grundy={}/pictures={}",
            self.group.shapes.len(),
            xxhash_rust::xxh3::xxh3_64(text.as_bytes()),
            self.take.text(),
            self.play.as_str(),
            self.counts,
            self.grundy,
            self.pictures
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
        ex.max(
            HexSolver::upfront_bytes(self.hex_side, self.hex_boards)
                * u64::from(self.hex.is_some()),
        )
    }
    fn solve(&self, ctx: &CaseCtx<'_>) -> anyhow::Result<Output> {
        let hex = self
            .hex
            .as_ref()
            .map(|h| h.get_or_init(|| HexSolver::for_sweep(self.hex_side, self.hex_boards)));
        let shapes = &self.group.shapes;
        let one = |s: &Shape| -> anyhow::Result<(Solved, f64)> {
            let t = Instant::now();
            let r = solve_board(
                Some(s),
                None,
                self.take,
                self.play,
                self.counts,
                self.grundy,
                hex,
                self.memo_budget,
                ctx.progress,
                ctx.cancel,
            )?;
            Ok((r, t.elapsed().as_secs_f64()))
        };
        // Many small chord boards: solve them in parallel on the shared memo;
        // other boards parallelise inside, one at a time.
        let results: Vec<anyhow::Result<(Solved, f64)>> =
            if self.method() == Method::Chords && !self.counts {
                shapes.par_iter().map(one).collect()
            } else {
                shapes
                    .iter()
                    .map(|s| {
                        if ctx.cancel.load(Ordering::Relaxed) {
                            bail!(crate::sweep::Interrupted);
                        }
                        one(s)
                    })
                    .collect()
            };
        let mut solved = Vec::with_capacity(results.len());
        for r in results {
            solved.push(r?);
        }
        let take = self.take.text();
        let play = self.play.as_str();
        let rule = format!("{take} {play}");
        let n = shapes.len();
        // positions
        let mut board_col = StrVec::default();
        let mut name = StrVec::default();
        let mut kind = StrVec::default();
        let mut sides = StrVec::default();
        let (mut xs, mut ys, mut zs) = (Vec::new(), Vec::new(), Vec::new());
        let mut along_value = Vec::new();
        let mut pieces = Vec::new();
        let mut outcome = StrVec::default();
        let mut grundy = Vec::new();
        let mut class = StrVec::default();
        let mut wins = StrVec::default();
        let mut nwins = Vec::new();
        let mut method = StrVec::default();
        let mut secs = Vec::new();
        let mut shape_rule = StrVec::default();
        for (i, (s, (r, t))) in shapes.iter().zip(&solved).enumerate() {
            board_col.push(&s.text());
            name.push(&s.name());
            kind.push(s.kind());
            shape_rule.push(&format!("{} {rule}", s.kind()));
            sides.push(
                &s.sides()
                    .map(|p| {
                        p.iter()
                            .map(|x| x.to_string())
                            .collect::<Vec<_>>()
                            .join(",")
                    })
                    .unwrap_or_default(),
            );
            let [x, y, z] = s.params();
            xs.push(x.map(i64::from));
            ys.push(y.map(i64::from));
            zs.push(z.map(i64::from));
            along_value.push(self.group.along.as_ref().map(|a| a.1[i]));
            pieces.push(s.pieces() as i64);
            outcome.push(if r.is_p { "P" } else { "N" });
            grundy.push(r.grundy.map(i64::from));
            class.push(r.grundy.map_or("", class_of));
            wins.push(
                &r.wins
                    .iter()
                    .map(|(d, c)| run_text(c, *d))
                    .collect::<Vec<_>>()
                    .join("; "),
            );
            nwins.push(r.wins.len() as i64);
            method.push(r.method);
            secs.push(*t);
        }
        let positions = Table::new()
            .with("board", Values::Str(board_col))
            .with("name", Values::Str(name))
            .with("shape", Values::Str(kind))
            .with(
                "sequence",
                Values::Str(repeat_str(
                    if self.group.along.is_some() {
                        &self.group.label
                    } else {
                        ""
                    },
                    n,
                )),
            )
            .with("along_value", Values::OptInt(along_value))
            .with("x", Values::OptInt(xs))
            .with("y", Values::OptInt(ys))
            .with("z", Values::OptInt(zs))
            .with("hexagon_sides", Values::Str(sides))
            .with("pieces", Values::Int(pieces))
            .with("take", Values::Str(repeat_str(&take, n)))
            .with("play", Values::Str(repeat_str(play, n)))
            .with("rule", Values::Str(repeat_str(&rule, n)))
            .with("shape_rule", Values::Str(shape_rule))
            .with("outcome", Values::Str(outcome))
            .with("grundy", Values::OptInt(grundy))
            .with("class", Values::Str(class))
            .with("winning_moves", Values::Str(wins))
            .with("winning_move_count", Values::Int(nwins))
            .with("method", Values::Str(method))
            .with("seconds", Values::Float(secs));
        let mut out: Output = vec![("positions", positions)];
        // class counts
        {
            let mut classes: Vec<(&str, i64)> = Vec::new();
            for (r, _) in &solved {
                let c = match r.grundy {
                    Some(g) => class_of(g),
                    None => {
                        if r.is_p {
                            "P"
                        } else {
                            "N"
                        }
                    }
                };
                match classes.iter_mut().find(|e| e.0 == c) {
                    Some(e) => e.1 += 1,
                    None => classes.push((c, 1)),
                }
            }
            // Every class in Grundy order (N2 = 0 first), zero counts included, so tables line up.
            let order: &[&str] = if self.play == Play::Normal && self.grundy {
                &["N2", "N1", "N3", "N4", "N5", "beyond N5"]
            } else {
                &["P", "N"]
            };
            for c in order {
                if !classes.iter().any(|e| e.0 == *c) {
                    classes.push((c, 0));
                }
            }
            classes.sort_by_key(|c| order.iter().position(|o| *o == c.0));
            let k = classes.len();
            let mut cname = StrVec::default();
            for c in &classes {
                cname.push(c.0);
            }
            out.push((
                "class_counts",
                Table::new()
                    .with("group", Values::Str(repeat_str(&self.group.label, k)))
                    .with("take", Values::Str(repeat_str(&take, k)))
                    .with("play", Values::Str(repeat_str(play, k)))
                    .with("rule", Values::Str(repeat_str(&rule, k)))
                    .with("class", Values::Str(cname))
                    .with("boards", Values::Int(classes.iter().map(|c| c.1).collect())),
            ));
        }
        // periods
        if let Some((letter, vals)) = &self.group.along
            && vals.len() >= 2
            && vals.windows(2).all(|w| w[1] == w[0] + 1)
        {
            {
                let mut rows: Vec<(&str, Option<period::Period>, Vec<String>)> = Vec::new();
                if self.play == Play::Normal && self.grundy {
                    let g: Vec<u32> = solved.iter().map(|(r, _)| r.grundy.unwrap()).collect();
                    rows.push((
                        "grundy",
                        period::observed_period(&g),
                        g.iter().map(|&v| format!("{v}:{}", class_of(v))).collect(),
                    ));
                }
                let o: Vec<bool> = solved.iter().map(|(r, _)| r.is_p).collect();
                rows.push((
                    "outcome",
                    period::observed_period(&o),
                    o.iter()
                        .map(|&p| if p { "P" } else { "N" }.to_string())
                        .collect(),
                ));
                let k = rows.len();
                let mut seq = StrVec::default();
                let mut status = StrVec::default();
                let mut evidence = StrVec::default();
                let mut values = StrVec::default();
                let (mut per, mut pre, mut from) = (vec![], vec![], vec![]);
                let mut forms = StrVec::default();
                for (name, p, labels) in &rows {
                    seq.push(name);
                    match p {
                        Some(p) => {
                            forms.push(&closed_form(name, letter, vals, labels, p));
                            per.push(Some(p.period as i64));
                            pre.push(Some(p.preperiod as i64));
                            from.push(Some(vals[p.preperiod]));
                            status.push(p.status.as_str());
                            evidence.push(&format!(
                                "observed on {letter} = {}..{}, {} periods",
                                vals[p.preperiod],
                                vals[vals.len() - 1],
                                p.periods_seen()
                            ));
                            values.push(&labels[p.preperiod..p.preperiod + p.period].join(" "));
                        }
                        None => {
                            forms.push("");
                            per.push(None);
                            pre.push(None);
                            from.push(None);
                            status.push("none");
                            evidence.push(&format!(
                                "no period covering half of {letter} = {}..{} and three periods",
                                vals[0],
                                vals[vals.len() - 1]
                            ));
                            values.push("");
                        }
                    }
                }
                out.push((
                    "periods",
                    Table::new()
                        .with("sequence", Values::Str(repeat_str(&self.group.label, k)))
                        .with("values", Values::Str(seq))
                        .with("take", Values::Str(repeat_str(&take, k)))
                        .with("play", Values::Str(repeat_str(play, k)))
                        .with("along", Values::Str(repeat_str(letter, k)))
                        .with("from", Values::Int(vec![vals[0]; k]))
                        .with("to", Values::Int(vec![vals[vals.len() - 1]; k]))
                        .with("period", Values::OptInt(per))
                        .with("preperiod", Values::OptInt(pre))
                        .with("periodic_from", Values::OptInt(from))
                        .with("status", Values::Str(status))
                        .with("evidence", Values::Str(evidence))
                        .with("period_values", Values::Str(values))
                        .with("closed_form", Values::Str(forms)),
                ));
            }
        }
        // report 002's count table
        if self.counts {
            let mut t = Table::new();
            for (s, (r, _)) in shapes.iter().zip(&solved) {
                let c = r.counts.as_ref().unwrap();
                let k = c.len();
                let label = format!("{} take {take}", s.name());
                t.append(
                    &Table::new()
                        .with("board", Values::Str(repeat_str(&s.text(), k)))
                        .with("name", Values::Str(repeat_str(&s.name(), k)))
                        .with("label", Values::Str(repeat_str(&label, k)))
                        .with("pieces", Values::Int(vec![s.pieces() as i64; k]))
                        .with("take", Values::Str(repeat_str(&take, k)))
                        .with("play", Values::Str(repeat_str(play, k)))
                        .with("k", Values::Int((0..k as i64).collect()))
                        .with(
                            "positions",
                            Values::Int(c.iter().map(|x| x.0 as i64).collect()),
                        )
                        .with(
                            "p_positions",
                            Values::Int(c.iter().map(|x| x.1 as i64).collect()),
                        ),
                )?;
            }
            out.push(("counts", t));
        }
        // pictures
        if self.pictures {
            let mut t = Table::new();
            for (s, (r, _)) in shapes.iter().zip(&solved) {
                if s.pieces() as usize > PICTURE_MAX_PIECES {
                    continue;
                }
                let b = s.board();
                let win: Vec<Pt> = r.wins.first().map(|w| w.1.clone()).unwrap_or_default();
                let label = format!(
                    "{} {rule}{}",
                    s.name(),
                    if r.is_p { " (P: no winning move)" } else { "" }
                );
                let k = b.len();
                let mut cell = StrVec::default();
                for p in &b.points {
                    cell.push(if win.contains(p) {
                        "winning move"
                    } else {
                        "piece"
                    });
                }
                t.append(
                    &Table::new()
                        .with("picture", Values::Str(repeat_str(&label, k)))
                        .with("board", Values::Str(repeat_str(&s.text(), k)))
                        .with("take", Values::Str(repeat_str(&take, k)))
                        .with("play", Values::Str(repeat_str(play, k)))
                        .with(
                            "q",
                            Values::Int(b.points.iter().map(|p| p.0 as i64).collect()),
                        )
                        .with(
                            "r",
                            Values::Int(b.points.iter().map(|p| p.1 as i64).collect()),
                        )
                        .with(
                            "px",
                            Values::Float(
                                b.points
                                    .iter()
                                    .map(|p| p.0 as f64 + p.1 as f64 / 2.0)
                                    .collect(),
                            ),
                        )
                        .with(
                            "py",
                            Values::Float(
                                b.points
                                    .iter()
                                    .map(|p| p.1 as f64 * 3f64.sqrt() / 2.0)
                                    .collect(),
                            ),
                        )
                        .with("cell", Values::Str(cell)),
                )?;
            }
            if t.rows() > 0 {
                out.push(("cells", t));
            }
        }
        Ok(out)
    }
}

struct Params {
    grundy: bool,
    groups: Vec<Group>,
    takes: Vec<Take>,
    plays: Vec<Play>,
    counts: bool,
    pictures: Option<bool>,
    memo_budget: u64,
    notes: Vec<String>,
}

fn parse_params(sweep: &Node<'_>) -> Result<Params, SpecError> {
    let mut allowed: Vec<&str> = SWEEP_KEYS.to_vec();
    allowed.extend_from_slice(KEYS);
    sweep.expect_keys(&allowed)?;
    // YAML 1.1 reads a bare `y` / `n` as a boolean: take them back as the letters.
    let along = match sweep.get("along") {
        Some(n) => Some(match n.value().as_bool() {
            Some(true) => "y",
            Some(false) => "n",
            None => n.str()?,
        }),
        None => None,
    };
    let bnode = sweep.req("board", "the board: {triangle: 5}, {trapezoid: [x, y]}, {hexagon: [p0..p5]}, {mask: ...}, {hexagons: {max_side: L}} or a list")?;
    let mut groups = Vec::new();
    let mut notes = Vec::new();
    let items = bnode.items();
    if items.is_empty() {
        return Err(bnode.err("empty list of boards"));
    }
    for it in &items {
        parse_shape_map(it, along, &mut groups, &mut notes)?;
    }
    let takes = match sweep.get("take") {
        Some(t) => parse_takes(&t)?,
        None => vec![Take::Maximal],
    };
    let plays = match sweep.get("play") {
        Some(p) => p
            .words(PLAY_WORDS)?
            .into_iter()
            .map(|w| Play::parse(w).unwrap())
            .collect(),
        None => vec![Play::Normal],
    };
    let counts = match sweep.get("counts") {
        Some(b) => *b.bools()?.first().unwrap(),
        None => false,
    };
    let grundy = match sweep.get("grundy") {
        Some(b) => *b.bools()?.first().unwrap(),
        None => true,
    };
    if !grundy && !counts && plays.contains(&Play::Normal) {
        return Err(sweep.get("grundy").unwrap().err(
            "without Grundy values, normal play is solved by the exhaustive table: add `counts: true`",
        ));
    }
    let pictures = sweep
        .get("pictures")
        .map(|b| b.bools().map(|v| v[0]))
        .transpose()?;
    let memo_budget = match sweep.get("memo_gib") {
        Some(m) => m.int(1, 20)?,
        None => DEFAULT_MEMO_GIB,
    } as u64
        * (1 << 30);
    // Refuse up front what cannot be solved.
    for g in &groups {
        for s in &g.shapes {
            for &take in &takes {
                for &play in &plays {
                    let m = method_for(s, take, play, grundy);
                    if let Err(e) = feasibility(s.pieces(), m, counts) {
                        return Err(bnode.err(format!(
                            "{} with take {} and {} play: {e}",
                            s.name(),
                            take.text(),
                            play.as_str()
                        )));
                    }
                    if m == Method::Chords {
                        let lc = Hex::from_sides(s.sides().unwrap()).longest_chord();
                        if lc > hexsum::MAX_SIDE {
                            return Err(bnode.err(format!(
                                "{}: its longest line has {lc} pieces; at most {} are supported",
                                s.name(),
                                hexsum::MAX_SIDE
                            )));
                        }
                    }
                }
            }
        }
    }
    Ok(Params {
        grundy,
        groups,
        takes,
        plays,
        counts,
        pictures,
        memo_budget,
        notes,
    })
}

impl Family for Lines {
    fn name(&self) -> &'static str {
        "lines"
    }
    fn about(&self) -> &'static str {
        "Pieces on a triangular-lattice board; a move removes a run of pieces along one of the three lines: \
         a maximal run (report 000), a run of 1..P pieces, or any run (report 002). Boards: equiangular hexagons \
         by side piece counts, triangles, trapezoids A(x,y), parallelograms B(x,y), pentagons C(x,y,z), masks, \
         and every hexagon up to a size. Normal play (Grundy values, report 000's classes N1..N5) and misère \
         play (exhaustive analysis, report 002's count table)."
    }
    fn params_help(&self) -> &'static str {
        "board: {hexagon: [p0..p5]} | {regular: s} | {triangle: n} | {trapezoid: [x, y]} | {parallelogram: [x, y]} | {pentagon: [x, y, z]}\n\
         \x20      | {mask: \"O O ./O O O\"} | {hexagons: {max_side: L, max_pieces: K}} (ranges a..b in any parameter; a list)\n\
         take: maximal | {max: P} | any (or a list)\n\
         play: normal | misere (or a list)\n\
         along: the parameter sequences run along (default: the last one given as a range)\n\
         counts: true | false — P-positions per piece count (exhaustive)\n\
         pictures: true | false — board pictures with a winning run (default: when at most 8 boards)\n\
         memo_gib: memo budget of the component solver (default 12)\n\
         solve: --triangle 5 | --hexagon 3,3,3,3,3,3 | --trapezoid 2,3 | --mask \"OO./OOO\" …, --take, --play,\n\
         \x20      --remove [[q,r],…] (a position of the board), --counts true"
    }
    fn view_names(&self) -> Vec<&'static str> {
        vec![
            "winning_moves",
            "class_table",
            "class_counts",
            "grundy_heatmap",
            "period_table",
            "board_picture",
            "p_counts",
            "count_table",
        ]
    }
    fn plan(&self, sweep: &Node<'_>) -> Result<Plan, SpecError> {
        let p = parse_params(sweep)?;
        let n_boards: usize = p.groups.iter().map(|g| g.shapes.len()).sum();
        let pictures = p.pictures.unwrap_or(n_boards <= 8);
        // One chord solver for the whole sweep, sized for its largest line.
        let mut hex_side = 0;
        for g in &p.groups {
            for s in &g.shapes {
                if let Some(sides) = s.sides() {
                    hex_side = hex_side.max(Hex::from_sides(sides).longest_chord());
                }
            }
        }
        let hex = Arc::new(OnceLock::new());
        let has_seq = p.groups.iter().any(|g| g.along.is_some());
        let mut cases: Vec<Box<dyn Case>> = Vec::new();
        for g in p.groups {
            let g = Arc::new(g);
            for &take in &p.takes {
                for &play in &p.plays {
                    let uses_hex = method_for(&g.shapes[0], take, play, p.grundy) == Method::Chords;
                    cases.push(Box::new(LinesCase {
                        group: g.clone(),
                        take,
                        play,
                        counts: p.counts,
                        grundy: p.grundy,
                        pictures,
                        hex: uses_hex.then(|| hex.clone()),
                        hex_side,
                        hex_boards: n_boards,
                        memo_budget: p.memo_budget,
                    }));
                }
            }
        }
        let mut views = vec![View::new(
            "winning_moves",
            "Boards: outcome, Grundy value, class and winning first moves",
            "positions",
            ViewKind::Listing {
                columns: [
                    "board",
                    "pieces",
                    "take",
                    "play",
                    "outcome",
                    "grundy",
                    "class",
                    "winning_moves",
                ]
                .iter()
                .map(|s| s.to_string())
                .collect(),
                filter: vec![],
            },
        )];
        views.push(View::new(
            "class_counts",
            "Boards per class (report 000: N2 = 0, N1 = 1, N3 = 2, N4 = 3, N5 = 4, beyond N5 ≥ 5)",
            "class_counts",
            ViewKind::Grid {
                row: "group".into(),
                column: "class".into(),
                cell: "boards".into(),
                empty: "0".into(),
                facet: Some("rule".into()),
            },
        ));
        if has_seq {
            views.push(View::new(
                "class_table",
                "Classes along each sequence (N2 = 0, N1 = 1, N3 = 2, N4 = 3, N5 = 4)",
                "positions",
                ViewKind::Grid {
                    row: "along_value".into(),
                    column: "sequence".into(),
                    cell: "class".into(),
                    empty: "".into(),
                    facet: Some("rule".into()),
                },
            ));
            views.push(View::new(
                "period_table",
                "Periods along each sequence (smallest period, then smallest preperiod; observed)",
                "periods",
                ViewKind::Listing {
                    columns: [
                        "sequence",
                        "values",
                        "take",
                        "play",
                        "from",
                        "to",
                        "period",
                        "periodic_from",
                        "status",
                        "evidence",
                        "period_values",
                    ]
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
                    filter: vec![],
                },
            ));
            views.push(View::new(
                "grundy_heatmap",
                "Grundy values over the two shape parameters",
                "positions",
                ViewKind::Heatmap {
                    x: "y".into(),
                    y: "x".into(),
                    value: "grundy".into(),
                    facet: Some("shape_rule".into()),
                },
            ));
        }
        if pictures {
            views.push(View::new(
                "board_picture",
                "Board with a winning first move highlighted",
                "cells",
                ViewKind::Cells {
                    x: "px".into(),
                    y: "py".into(),
                    value: "cell".into(),
                    facet: Some("picture".into()),
                },
            ));
        }
        if p.counts {
            views.push(View::new(
                "p_counts",
                "P-positions per number of pieces k",
                "counts",
                ViewKind::Bars {
                    x: "k".into(),
                    y: "p_positions".into(),
                    series: Some("play".into()),
                    facet: Some("label".into()),
                },
            ));
            views.push(View::new(
                "count_table",
                "P-positions per number of pieces k (\"THERE ARE T CHAMPIONS WITH k CHESSMEN\")",
                "counts",
                ViewKind::Grid {
                    row: "k".into(),
                    column: "play".into(),
                    cell: "p_positions".into(),
                    empty: "".into(),
                    facet: Some("label".into()),
                },
            ));
        }
        let mut notes = p.notes;
        if hex_side > 0 && HexSolver::upfront_bytes(hex_side, n_boards) > 0 {
            notes.push(format!(
                "chord memo: dense table for sides ≤ {hex_side} ({:.0} MiB)",
                HexSolver::upfront_bytes(hex_side, n_boards) as f64 / (1u64 << 20) as f64
            ));
        }
        Ok(Plan {
            cases,
            views,
            notes,
        })
    }

    fn solve(&self, pos: &Node<'_>) -> anyhow::Result<Answer> {
        let mut keys: Vec<&str> = SHAPE_KEYS
            .iter()
            .copied()
            .filter(|k| *k != "hexagons")
            .collect();
        keys.extend(["take", "play", "remove", "counts", "memo_gib"]);
        pos.expect_keys(&keys)?;
        let mut groups = Vec::new();
        let mut notes = Vec::new();
        parse_shape_map(pos, None, &mut groups, &mut notes)?;
        let shapes: Vec<Shape> = groups.into_iter().flat_map(|g| g.shapes).collect();
        if shapes.len() != 1 {
            bail!("give exactly one board (no ranges) to solve");
        }
        let shape = &shapes[0];
        let take = match pos.get("take") {
            Some(t) => {
                let v = parse_takes(&t)?;
                if v.len() != 1 {
                    bail!("give exactly one take rule");
                }
                v[0]
            }
            None => Take::Maximal,
        };
        let play = match pos.get("play") {
            Some(p) => Play::parse(p.word(PLAY_WORDS)?).unwrap(),
            None => Play::Normal,
        };
        let counts = pos
            .get("counts")
            .map(|b| b.bools().map(|v| v[0]))
            .transpose()?
            .unwrap_or(false);
        let memo_budget = pos
            .get("memo_gib")
            .map(|m| m.int(1, 20))
            .transpose()?
            .unwrap_or(DEFAULT_MEMO_GIB) as u64
            * (1 << 30);
        let full_board = shape.board();
        // A position of the board: pieces removed.
        let mut removed: Vec<Pt> = Vec::new();
        if let Some(r) = pos.get("remove") {
            for it in r.items() {
                let v = it.ints(-100_000, 100_000)?;
                if v.len() != 2 {
                    return Err(it.err("a point is [q, r]").into());
                }
                let p = (v[0] as i32, v[1] as i32);
                if full_board.index(p).is_none() {
                    return Err(it
                        .err(format!("({}, {}) is not a point of the board", p.0, p.1))
                        .into());
                }
                removed.push(p);
            }
        }
        let board = if removed.is_empty() {
            None
        } else {
            let pts: Vec<Pt> = full_board
                .points
                .iter()
                .copied()
                .filter(|p| !removed.contains(p))
                .collect();
            if pts.is_empty() {
                bail!(
                    "every piece is removed: the position is empty (the player to move {} )",
                    if play == Play::Normal {
                        "loses"
                    } else {
                        "wins"
                    }
                );
            }
            Some(Board::from_points(pts, None))
        };
        let b = board.clone().unwrap_or_else(|| full_board.clone());
        // A position with pieces removed is no longer a full hexagon: components.
        let m = if board.is_some() && play == Play::Normal {
            Method::Components
        } else {
            method_for(shape, take, play, true)
        };
        feasibility(b.len() as u64, m, counts).map_err(anyhow::Error::msg)?;
        let cancel = AtomicBool::new(false);
        let t0 = Instant::now();
        let r = solve_board(
            Some(shape),
            board.as_ref(),
            take,
            play,
            counts,
            true,
            None,
            memo_budget,
            &|_| {},
            &cancel,
        )?;
        let secs = t0.elapsed().as_secs_f64();
        let win_cells: Vec<Pt> = r.wins.first().map(|w| w.1.clone()).unwrap_or_default();
        let mut text = format!(
            "board {} ({}), {} pieces{}, take {}, {} play\n",
            shape.text(),
            shape.name(),
            b.len(),
            if removed.is_empty() {
                String::new()
            } else {
                format!(
                    " after removing {}",
                    removed
                        .iter()
                        .map(|p| format!("({},{})", p.0, p.1))
                        .collect::<Vec<_>>()
                        .join(" ")
                )
            },
            take.text(),
            play.as_str()
        );
        if let Some(p) = shape.sides().filter(|_| removed.is_empty()) {
            let _ = writeln!(
                text,
                "hexagon sides: {}",
                p.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        let _ = writeln!(
            text,
            "outcome: {} ({})",
            if r.is_p { "P" } else { "N" },
            if r.is_p {
                "the player to move loses with perfect play"
            } else {
                "the player to move wins"
            }
        );
        if let Some(g) = r.grundy {
            let _ = writeln!(
                text,
                "Grundy value: {g} (report 000's class {})",
                class_of(g)
            );
        }
        if r.wins.is_empty() {
            let _ = writeln!(text, "winning moves: none");
        } else {
            let _ = writeln!(
                text,
                "winning moves ({}): {}",
                r.wins.len(),
                r.wins
                    .iter()
                    .map(|(d, c)| run_text(c, *d))
                    .collect::<Vec<_>>()
                    .join("; ")
            );
        }
        if full_board.len() <= 400 {
            let present = |i: usize| !removed.contains(&full_board.points[i]);
            let mark = |i: usize| win_cells.contains(&full_board.points[i]);
            let _ = writeln!(
                text,
                "board (O piece, . removed, X the first winning move):\n{}",
                full_board.picture(&present, &mark).trim_end()
            );
        }
        if let Some(c) = &r.counts {
            let _ = writeln!(
                text,
                "P-positions per number of pieces k ({} play):",
                play.as_str()
            );
            for (k, (all, p)) in c.iter().enumerate() {
                let _ = writeln!(text, "  k = {k:>2}: {p} of {all}");
            }
        }
        match r.memo {
            Some((len, bytes)) => {
                let _ = writeln!(
                    text,
                    "solver: {} ({secs:.3} s; memo: {len} canonical components, ~{:.2} GiB)",
                    r.method,
                    bytes as f64 / (1u64 << 30) as f64
                );
            }
            None => {
                let _ = writeln!(text, "solver: {} ({secs:.3} s)", r.method);
            }
        }
        let json = json!({
            "family": "lines",
            "board": shape.text(),
            "name": shape.name(),
            "hexagon_sides": shape.sides().filter(|_| removed.is_empty()),
            "removed": removed.iter().map(|p| [p.0, p.1]).collect::<Vec<_>>(),
            "pieces": b.len(),
            "take": take.text(),
            "play": play.as_str(),
            "outcome": if r.is_p { "P" } else { "N" },
            "grundy": r.grundy,
            "class": r.grundy.map(class_of),
            "winning_moves": r.wins.iter().map(|(d, c)| json!({
                "direction": [board::DIRS[*d].0, board::DIRS[*d].1],
                "cells": c.iter().map(|p| [p.0, p.1]).collect::<Vec<_>>(),
                "text": run_text(c, *d),
            })).collect::<Vec<_>>(),
            "counts": r.counts.as_ref().map(|c| c.iter().enumerate().map(|(k, (a, p))| json!({"k": k, "positions": a, "p_positions": p})).collect::<Vec<_>>()),
            "method": r.method,
            "memo_components": r.memo.map(|m| m.0),
            "memo_bytes": r.memo.map(|m| m.1),
            "seconds": secs,
        });
        Ok(Answer { text, json })
    }
}

/// The closed form a detected period implies for a sequence along `letter`
/// (`vals` the parameter values, consecutive; `labels` the terms, `g:class`
/// for Grundy values, `P`/`N` for outcomes): "G(y) = 0 for even y, 3 for odd
/// y, y ≥ 8 (observed on y = 8..200)", "P ⇔ y mod 2 = 1, y ≥ 3 (observed …)".
pub fn closed_form(
    values: &str,
    letter: &str,
    vals: &[i64],
    labels: &[String],
    p: &period::Period,
) -> String {
    let y0 = vals[p.preperiod];
    let pe = p.period as i64;
    let term = |i: usize| labels[i].split(':').next().unwrap_or("").to_string();
    // The term for each residue of the parameter mod the period.
    let mut by_res: Vec<(i64, String)> = (p.preperiod..p.preperiod + p.period)
        .map(|i| (vals[i].rem_euclid(pe), term(i)))
        .collect();
    by_res.sort();
    let range = format!(
        "{} on {letter} = {y0}..{}",
        p.status.as_str(),
        vals[vals.len() - 1]
    );
    let body = if values == "outcome" {
        let res: Vec<String> = by_res
            .iter()
            .filter(|(_, t)| t == "P")
            .map(|(r, _)| r.to_string())
            .collect();
        if res.is_empty() {
            format!("never P for {letter} ≥ {y0}")
        } else if res.len() == by_res.len() {
            format!("always P for {letter} ≥ {y0}")
        } else if pe == 2 {
            format!(
                "P ⇔ {letter} {}, {letter} ≥ {y0}",
                if res[0] == "0" { "even" } else { "odd" }
            )
        } else {
            format!(
                "P ⇔ {letter} mod {pe} ∈ {{{}}}, {letter} ≥ {y0}",
                res.join(", ")
            )
        }
    } else if pe == 1 {
        format!("G({letter}) = {} for {letter} ≥ {y0}", by_res[0].1)
    } else if pe == 2 {
        format!(
            "G({letter}) = {} for even {letter}, {} for odd {letter}, {letter} ≥ {y0}",
            by_res[0].1, by_res[1].1
        )
    } else {
        format!(
            "G({letter}) = ({})[{letter} mod {pe}] for {letter} ≥ {y0}",
            by_res
                .iter()
                .map(|(_, t)| t.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    format!("{body} ({range})")
}

#[cfg(test)]
mod tests;
