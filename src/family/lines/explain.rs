//! Why a stored board has its value, for a counterexample, solved again
//! from the `board` and `take` columns: in normal play the board's first
//! moves and the Grundy values they reach (by chords for `maximal` on a
//! hexagon-family board, else boards of at most [`MAX_PIECES`]; also for a
//! `cuts` row's board); without a Grundy value (misère play) a winning first move,
//! or that every first move reaches an N-position (exhaustive table, boards
//! of at most [`MAX_EXHAUSTIVE`]); for a `regions` row the Nim-sum of its
//! regions' values.

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

use super::board::{Hex, Pt, Shape, canonical_sides, side_images};
use super::chords::hexsum::HexSolver;
use super::components::Components;
use super::dispatch::distinct_sets;
use super::exhaustive;
use super::params::{parse_shape_map, parse_takes};
use super::rules::{self, Take, legal_distinct, run_cells};
use crate::data::{Cell, Table};
use crate::family::explain_moves::{MoveAccount, group};
use crate::game::Play;
use crate::params::{Node, parse_yaml};

/// Larger boards get no exhaustive re-solve just to explain a counterexample.
pub const MAX_EXHAUSTIVE: usize = 24;

/// First moves shown at most.
const SHOWN: usize = 8;

/// Larger boards are not solved again just to explain a counterexample
/// (by components; hexagon-family boards under `maximal` go by chords).
pub const MAX_PIECES: usize = 48;

/// Longest line of a board explained by chords.
pub const MAX_CHORD: u32 = 512;

/// Memo budget of the re-solve.
const BUDGET: u64 = 512 << 20;

/// The board and take rule of a row.
fn board_and_take(t: &Table, row: usize) -> Option<(Shape, Take)> {
    let file = "the `board` column";
    let board_v = parse_yaml(t.text("board", row)?, file).ok()?;
    let mut groups = Vec::new();
    parse_shape_map(
        &Node::root(&board_v, file),
        None,
        &mut groups,
        &mut Vec::new(),
    )
    .ok()?;
    let shape = groups.first()?.shapes.first()?.clone();
    let take_v = serde_json::Value::String(t.text("take", row)?.to_string());
    let take = *parse_takes(&Node::root(&take_v, file)).ok()?.first()?;
    Some((shape, take))
}

/// Pieces of the largest board drawn for a reader.
const DRAWN_PIECES: usize = 64;

/// A `positions` or `cuts` row's board as a text picture (`O` a piece), for
/// a board of at most [`DRAWN_PIECES`] pieces.
pub fn draw(dataset: &str, t: &Table, row: usize) -> Option<String> {
    if !matches!(dataset, "positions" | "cuts") {
        return None;
    }
    let (shape, _) = board_and_take(t, row)?;
    let board = shape.board();
    if board.is_empty() || board.len() > DRAWN_PIECES {
        return None;
    }
    Some(board.picture(&|_| true, &|_| false))
}

/// `positions` rows: "its N moves reach Grundy values 0 (×2), 2 (×1); the
/// smallest value not reached is 1" in normal play; a winning first move, or
/// that every first move reaches an N-position, without a Grundy value.
/// `regions` rows: the regions' values and their Nim-sum.
pub fn explain(dataset: &str, t: &Table, row: usize) -> Option<String> {
    match dataset {
        "regions" => regions(t, row),
        "positions" => match t.cell("grundy", row)? {
            Cell::Int(g) => grundy_options(t, row, g),
            _ => outcome(t, row),
        },
        // A cut's board: why the board has its value.
        "cuts" => match t.cell("board_grundy", row)? {
            Cell::Int(g) => grundy_options(t, row, g),
            _ => None,
        },
        _ => None,
    }
}

/// "its N moves reach Grundy values 0 (×2), 2 (×1); the smallest value not
/// reached is 1": a normal-play board's first moves, solved again.
fn grundy_options(t: &Table, row: usize, own: i64) -> Option<String> {
    if t.text("play", row)? != "normal" {
        return None;
    }
    let (shape, take) = board_and_take(t, row)?;
    let (g, values) = first_move_values(&shape, take)?;
    if i64::from(g) != own {
        return None;
    }
    let mut reached: BTreeMap<u32, usize> = BTreeMap::new();
    for v in &values {
        *reached.entry(*v).or_default() += 1;
    }
    let shown: Vec<String> = reached.iter().map(|(v, n)| format!("{v} (×{n})")).collect();
    Some(format!(
        "its {} distinct first moves reach Grundy values {}; the smallest value not reached is {own}",
        values.len(),
        shown.join(", ")
    ))
}

/// A board's Grundy value and the value each distinct first move reaches:
/// by chords for `maximal` on a hexagon-family board (any size up to lines of
/// [`MAX_CHORD`] pieces), else by components (at most [`MAX_PIECES`] pieces).
pub(super) fn first_move_values(shape: &Shape, take: Take) -> Option<(u32, Vec<u32>)> {
    if take == Take::Maximal
        && let Some(sides) = shape.sides()
    {
        let h = Hex::from_sides(sides);
        if h.longest_chord() > MAX_CHORD {
            return None;
        }
        let (g, options) = HexSolver::new(h.longest_chord()).options(h, &|_| {});
        let chords = options
            .into_iter()
            .map(|(c, v)| (v, HexSolver::chord_cells(&h, c)))
            .collect();
        let values = distinct_sets(chords).into_iter().map(|(v, _)| v).collect();
        return Some((g, values));
    }
    let board = shape.board();
    if board.is_empty() || board.len() > MAX_PIECES {
        return None;
    }
    let solver = Components::new(&board, take, BUDGET);
    let (g, options) = solver.options(board.full(), &|_| {});
    if solver.stopped.load(std::sync::atomic::Ordering::Relaxed) {
        return None;
    }
    Some((g, options.into_iter().map(|(_, v)| v).collect()))
}

/// A run as the tables print it: `(q,r)` or `(q0,r0)..(q1,r1)`.
fn run_text(cells: &[(i32, i32)]) -> String {
    match (cells.first(), cells.last()) {
        (Some(a), Some(b)) if a != b => format!("({},{})..({},{})", a.0, a.1, b.0, b.1),
        (Some(a), _) => format!("({},{})", a.0, a.1),
        _ => String::new(),
    }
}

/// A position without a Grundy value: its first moves by the exhaustive table.
fn outcome(t: &Table, row: usize) -> Option<String> {
    let play = Play::parse(t.text("play", row)?).unwrap_or(Play::Normal);
    let (shape, take) = board_and_take(t, row)?;
    let board = shape.board();
    if board.is_empty() || board.len() > MAX_EXHAUSTIVE {
        return None;
    }
    let moves = rules::moves(&board, take);
    let rm: Vec<exhaustive::Move> = moves.iter().map(exhaustive::Move::from).collect();
    let ex = exhaustive::solve(board.len(), &rm, play, &|_| {}, &AtomicBool::new(false)).ok()?;
    let full = board.full();
    let opts: Vec<(String, bool)> = legal_distinct(&moves, full)
        .into_iter()
        .map(|m| (run_text(&run_cells(&board, m)), ex.is_p(full & !m.mask)))
        .collect();
    let wins: Vec<&String> = opts.iter().filter(|o| o.1).map(|o| &o.0).collect();
    let shown = |v: &[&String]| {
        let mut s: Vec<String> = v.iter().take(SHOWN).map(|x| x.to_string()).collect();
        if v.len() > SHOWN {
            s.push(format!("… {} more", v.len() - SHOWN));
        }
        s.join(", ")
    };
    Some(if wins.is_empty() {
        let all: Vec<&String> = opts.iter().map(|o| &o.0).collect();
        format!(
            "each of its {} distinct first moves reaches an N-position ({} play): {}",
            opts.len(),
            play.as_str(),
            shown(&all)
        )
    } else {
        format!(
            "{} of its {} distinct first moves reach a P-position ({} play): {}",
            wins.len(),
            opts.len(),
            play.as_str(),
            shown(&wins)
        )
    })
}

/// A `regions` row: the regions' Grundy values and their Nim-sum.
fn regions(t: &Table, row: usize) -> Option<String> {
    let values = match t.cell("region_grundy", row)? {
        Cell::IntList(v) => v.to_vec(),
        _ => return None,
    };
    let sum = values.iter().fold(0, |a, &v| a ^ v);
    let list: Vec<String> = values.iter().map(i64::to_string).collect();
    let verdict = if sum == 0 {
        "0: a P-position by the Sprague–Grundy theorem (every move changes one region's value and makes the Nim-sum non-zero)".to_string()
    } else {
        format!(
            "{sum} ≠ 0: an N-position by the Sprague–Grundy theorem (a move in one region brings the Nim-sum to 0)"
        )
    };
    Some(format!(
        "its {} regions have Grundy values {}; their Nim-sum is {verdict}",
        values.len(),
        list.join(", ")
    ))
}

/// Report 000's name of an equiangular hexagon's region from its six sides:
/// `A(x,y)` for a trapezoid (a line of y pieces is `A(1,y)`), `B(x,y)` for a
/// parallelogram, `C(x,y,z)` for a pentagon, else `H(a,b,c,d,e,f)`; of the
/// twelve symmetric readings, the first kind that fits with the smallest
/// parameters.
pub fn region_name(p: [u32; 6]) -> String {
    let imgs = side_images(p);
    let fit = |f: &dyn Fn(&[u32; 6]) -> Option<Shape>| {
        imgs.iter().filter_map(f).min_by_key(|s| s.params())
    };
    let trapezoid = |s: &[u32; 6]| {
        let (x, y) = (s[2], s[3]);
        (s[1] == 1 && s[5] == 1 && s[4] == x && s[0] + 1 == x + y).then_some(Shape::Trapezoid(x, y))
    };
    let parallelogram = |s: &[u32; 6]| {
        (s[2] == 1 && s[5] == 1 && s[0] == s[3] && s[1] == s[4])
            .then_some(Shape::Parallelogram(s[1], s[0]))
    };
    let pentagon = |s: &[u32; 6]| {
        let (x, y, z) = (s[2], s[3], s[1]);
        (s[5] == 1 && s[0] + 1 == x + y && s[4] + 1 == x + z).then_some(Shape::Pentagon(x, y, z))
    };
    fit(&trapezoid)
        .or_else(|| fit(&parallelogram))
        .or_else(|| fit(&pentagon))
        .unwrap_or(Shape::Hexagon(canonical_sides(p)))
        .name()
}

/// A Grundy value as report 000 names it: `N1 (Grundy 1)`, `beyond N5
/// (Grundy 7)`.
fn class_text(g: u32) -> String {
    format!("{} (Grundy {g})", super::datasets::class_of(g))
}

/// What one chord leaves, regions in order of their names: `A(1,2) +
/// A(1,2), Grundy 2 ⊕ 2 = 0`, `A(1,4), Grundy 2`, or `nothing`; and the
/// value it reaches.
fn leaves(solver: &HexSolver, h: &Hex, c: super::chords::hexsum::Chord) -> (String, u32) {
    let (a, b) = HexSolver::split(h, c);
    let mut parts: Vec<(String, u32)> = [a, b]
        .into_iter()
        .flatten()
        .map(|x| (region_name(x.sides()), solver.grundy(x, &|_| {})))
        .collect();
    parts.sort();
    let v = parts.iter().fold(0, |acc, p| acc ^ p.1);
    let text = match parts.as_slice() {
        [] => "nothing (the last piece taken)".to_string(),
        [(n, g)] => format!("{n}, Grundy {g}"),
        _ => {
            let names: Vec<&str> = parts.iter().map(|p| p.0.as_str()).collect();
            let vals: Vec<String> = parts.iter().map(|p| p.1.to_string()).collect();
            format!("{}, Grundy {} = {v}", names.join(" + "), vals.join(" ⊕ "))
        }
    };
    (text, v)
}

/// `(2,0)` for one piece, `the line (0,0)..(4,0)` for more.
fn taken(cells: &[Pt]) -> String {
    if cells.len() == 1 {
        run_text(cells)
    } else {
        format!("the line {}", run_text(cells))
    }
}

/// Report 000's boards (a hexagon-family board, `maximal`, normal play) by
/// their moves: each distinct first move (a line of pieces taken whole) and
/// the regions it leaves with their Grundy values and Nim-sum, grouped by
/// the class reached (moves leaving the same regions on one line), and the
/// smallest value no move reaches.
pub fn first_moves(dataset: &str, t: &Table, row: usize) -> Option<MoveAccount> {
    if dataset == "counts" {
        return counts_witness(t, row);
    }
    if !matches!(dataset, "positions" | "cuts" | "regions") {
        return None;
    }
    let (shape, take) = board_and_take(t, row)?;
    // A sum of regions' value is their Nim-sum, the whole board's value.
    let column = match dataset {
        "cuts" => "board_grundy",
        "regions" => "grundy_xor",
        _ => "grundy",
    };
    let stored = match t.cell(column, row) {
        Some(Cell::Int(g)) => Some(g),
        _ => None,
    };
    // The row's own name where it has one (a sum of regions: `B(2,6) + A(2,1)`).
    let name = t
        .text("name", row)
        .map_or_else(|| shape.name(), str::to_string);
    if t.text("play", row)? != "normal" || stored.is_none() {
        return board_outcome_moves(t, row, &shape, take, name);
    }
    let hexagon = shape
        .sides()
        .filter(|_| take == Take::Maximal && dataset != "regions");
    let Some(sides) = hexagon else {
        return board_grundy_moves(&shape, take, stored?, name);
    };
    let h = Hex::from_sides(sides);
    if h.longest_chord() > MAX_CHORD {
        return None;
    }
    let solver = HexSolver::new(h.longest_chord());
    let (g, options) = solver.options(h, &|_| {});
    let chords: Vec<_> = options
        .into_iter()
        .map(|(c, _)| (c, HexSolver::chord_cells(&h, c)))
        .collect();
    // Moves leaving the same regions: one line, `taking (1,0) or (3,0)`.
    let mut by_leaves: Vec<(String, u32, Vec<String>)> = Vec::new();
    for (c, cells) in distinct_sets(chords) {
        let (to, v) = leaves(&solver, &h, c);
        match by_leaves.iter_mut().find(|x| x.0 == to) {
            Some(x) => x.2.push(taken(&cells)),
            None => by_leaves.push((to, v, vec![taken(&cells)])),
        }
    }
    let mut moves = Vec::new();
    for (to, v, how) in by_leaves {
        let line = format!("taking {} leaves {to}", how.join(" or "));
        for _ in 0..how.len() {
            moves.push((line.clone(), class_text(v), v));
        }
    }
    let reached: std::collections::BTreeSet<u32> = moves.iter().map(|m| m.2).collect();
    let got: Vec<String> = reached.iter().map(u32::to_string).collect();
    let name = shape.name();
    let conclusion = format!(
        "the moves reach Grundy {} but not {g}: {name} has Grundy value {g} (the smallest value no move reaches), class {}",
        got.join(", "),
        super::datasets::class_of(g)
    );
    Some(MoveAccount {
        position: name,
        groups: group(moves),
        conclusion,
    })
}

/// The pieces a move leaves, in words: `nothing (the last piece taken)`,
/// `1 piece`, `12 pieces`.
fn pieces_left(n: u32) -> String {
    match n {
        0 => "nothing (the last piece taken)".to_string(),
        1 => "1 piece".to_string(),
        _ => format!("{n} pieces"),
    }
}

/// Any board of at most [`MAX_PIECES`] pieces in normal play, by its moves:
/// each distinct first move (the run taken, as the tables print it) and
/// the Grundy value of what it leaves, solved again by components, grouped
/// by that value; the smallest value no move reaches is the board's.
fn board_grundy_moves(shape: &Shape, take: Take, stored: i64, name: String) -> Option<MoveAccount> {
    let board = shape.board();
    if board.is_empty() || board.len() > MAX_PIECES {
        return None;
    }
    let solver = Components::new(&board, take, BUDGET);
    let full = board.full();
    let (g, options) = solver.options(full, &|_| {});
    if solver.stopped.load(std::sync::atomic::Ordering::Relaxed) || i64::from(g) != stored {
        return None;
    }
    let moves: Vec<(String, String, u32)> = options
        .iter()
        .map(|(m, v)| {
            let left = (full & !m.mask).count_ones();
            let line = format!(
                "taking {} leaves {}",
                taken(&run_cells(&board, m)),
                pieces_left(left)
            );
            let to = if *v == 0 {
                "Grundy 0 (a P-position, a loss for the opponent)".to_string()
            } else {
                format!("Grundy {v}")
            };
            (line, to, *v)
        })
        .collect();
    let reached: std::collections::BTreeSet<u32> = moves.iter().map(|m| m.2).collect();
    let got: Vec<String> = reached.iter().map(u32::to_string).collect();
    let conclusion = if moves.is_empty() {
        format!("{name} has Grundy value 0: the player to move loses (normal play)")
    } else {
        format!(
            "the moves reach Grundy {} but not {g}: {name} has Grundy value {g} (the smallest value no move reaches), {}",
            got.join(", "),
            if g == 0 {
                "a loss for the player to move (P)"
            } else {
                "a win for the player to move (N): a move to Grundy 0 wins"
            }
        )
    };
    Some(MoveAccount {
        position: name,
        groups: group(moves),
        conclusion,
    })
}

/// A board without a Grundy value (misère play, or a sweep that stores
/// outcomes only) of at most [`MAX_EXHAUSTIVE`] pieces, by its moves: each
/// distinct first move and whether what it leaves is a P-position (a loss
/// for the opponent) by the exhaustive table, and the conclusion.
fn board_outcome_moves(
    t: &Table,
    row: usize,
    shape: &Shape,
    take: Take,
    name: String,
) -> Option<MoveAccount> {
    let play = Play::parse(t.text("play", row)?)?;
    let board = shape.board();
    if board.is_empty() || board.len() > MAX_EXHAUSTIVE {
        return None;
    }
    let all = rules::moves(&board, take);
    let rm: Vec<exhaustive::Move> = all.iter().map(exhaustive::Move::from).collect();
    let ex = exhaustive::solve(board.len(), &rm, play, &|_| {}, &AtomicBool::new(false)).ok()?;
    let full = board.full();
    if let Some(o) = t.text("outcome", row)
        && o != if ex.is_p(full) { "P" } else { "N" }
    {
        return None;
    }
    outcome_account(&board, &all, &mut |y| Some(ex.is_p(y)), full, play, name)
}

/// A `counts` row (positions of k pieces left on a board, and how many are
/// P), for a claim about the count: one position of k pieces of the rarer
/// kind (a P-position where at most half are P, else an N-position; the
/// kind there is when all are of one: the witness a claim "all are P" or
/// "none is P" fails on), by its moves. Boards of at most
/// [`MAX_EXHAUSTIVE`] pieces by the exhaustive table (the first such
/// position); larger ones, up to [`MAX_PIECES`], by a bounded search from
/// sampled positions ([`sampled_witness`]).
fn counts_witness(t: &Table, row: usize) -> Option<MoveAccount> {
    let (shape, take) = board_and_take(t, row)?;
    let play = Play::parse(t.text("play", row)?)?;
    let k = u32::try_from(t.int("pieces_left", row)?).ok()?;
    let (positions, p) = (t.int("positions", row)?, t.int("p_positions", row)?);
    let want_p = p == positions || (2 * p <= positions && p > 0);
    let board = shape.board();
    if board.is_empty() || board.len() > MAX_PIECES || positions == 0 || k as usize > board.len() {
        return None;
    }
    let all = rules::moves(&board, take);
    let (x, mut is_p): (u64, Box<dyn FnMut(u64) -> Option<bool>>) = if board.len() <= MAX_EXHAUSTIVE
    {
        let rm: Vec<exhaustive::Move> = all.iter().map(exhaustive::Move::from).collect();
        let ex =
            exhaustive::solve(board.len(), &rm, play, &|_| {}, &AtomicBool::new(false)).ok()?;
        let x = (0..=board.full())
            .find(|&x| x & !board.full() == 0 && x.count_ones() == k && ex.is_p(x) == want_p)?;
        (x, Box::new(move |y| Some(ex.is_p(y))))
    } else {
        let (x, mut search) = sampled_witness(board.len(), &all, play, k, want_p)?;
        (x, Box::new(move |y| search.is_p(y)))
    };
    let cells: Vec<String> = (0..board.len())
        .filter(|&i| x >> i & 1 == 1)
        .map(|i| run_text(&[board.points[i]]))
        .collect();
    let name = format!(
        "the position of {} with {k} pieces left at {}",
        shape.name(),
        cells.join(" ")
    );
    outcome_account(&board, &all, &mut *is_p, x, play, name)
}

/// Positions a witness search of a board over [`MAX_EXHAUSTIVE`] pieces
/// solves at most (all candidates together, memoized). Measured on the
/// shared 2-core machine (T(7) and T(9), misère, takes of 1 to 3 or any
/// run): a search stopped at this cap takes 0.3–0.45 s and about 8 MB, so
/// the explanation of a counterexample stays well under a second. Within
/// it a witness is found for k ≤ 10 pieces left on every board tried and
/// for k = 16 where the wanted kind is common (0.02–0.25 s); a position
/// that needs more (e.g. a P-position of 16 or 22 pieces on T(7)) is not
/// explained, and the count's counterexample is shown without moves.
const WITNESS_STATES: usize = 1 << 18;

/// Sampled positions of k pieces tried at most for a witness of the
/// wanted kind (one in 64 positions of that kind is found with
/// probability 1 − (63/64)^256 ≈ 98 %).
const WITNESS_TRIES: usize = 256;

/// A position of `k` pieces of a board of `n` pieces whose outcome is P
/// (`want_p`) or N, from positions drawn at random (a fixed seed, so a
/// report is the same from run to run), each solved by [`Search`]; with
/// the search, to solve the positions its moves leave.
fn sampled_witness<'a>(
    n: usize,
    all: &'a [rules::BoardMove],
    play: Play,
    k: u32,
    want_p: bool,
) -> Option<(u64, Search<'a>)> {
    let mut search = Search::new(all, play, WITNESS_STATES);
    let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..WITNESS_TRIES {
        // k distinct pieces: a partial Fisher–Yates shuffle.
        let mut idx: Vec<usize> = (0..n).collect();
        let mut x = 0u64;
        for i in 0..k as usize {
            let j = i + (next() % (n - i) as u64) as usize;
            idx.swap(i, j);
            x |= 1 << idx[i];
        }
        if search.is_p(x)? == want_p {
            return Some((x, search));
        }
    }
    None
}

/// Outcomes of positions on a board too large for the exhaustive table:
/// a depth-first search over the positions a position's moves lead to,
/// memoized, stopped after a number of positions.
struct Search<'a> {
    all: &'a [rules::BoardMove],
    play: Play,
    memo: std::collections::HashMap<u64, bool>,
    cap: usize,
}

impl<'a> Search<'a> {
    fn new(all: &'a [rules::BoardMove], play: Play, cap: usize) -> Self {
        Search {
            all,
            play,
            memo: std::collections::HashMap::new(),
            cap,
        }
    }
    /// Is `x` a P-position (None: the search stopped at its cap)? A
    /// position is P when no move reaches a P-position; without a move
    /// (nothing left) it is P in normal play, N in misère.
    fn is_p(&mut self, x: u64) -> Option<bool> {
        if let Some(&p) = self.memo.get(&x) {
            return Some(p);
        }
        if self.memo.len() >= self.cap {
            return None;
        }
        let mut moved = false;
        let mut to_p = false;
        for m in self.all.iter().filter(|m| m.legal(x)) {
            moved = true;
            if self.is_p(x & !m.mask)? {
                to_p = true;
                break;
            }
        }
        let p = match moved {
            true => !to_p,
            false => self.play == Play::Normal,
        };
        self.memo.insert(x, p);
        Some(p)
    }
}

/// The moves from position `x` of `board`, P-positions told by `is_p`
/// (the exhaustive table, or a bounded search: None when it stopped): each
/// distinct move, the pieces it leaves and whether that is a P-position,
/// and the conclusion.
fn outcome_account(
    board: &super::board::Board,
    all: &[rules::BoardMove],
    is_p: &mut dyn FnMut(u64) -> Option<bool>,
    x: u64,
    play: Play,
    name: String,
) -> Option<MoveAccount> {
    let full = x;
    let own_p = is_p(full)?;
    let mut moves: Vec<(String, String, u8)> = Vec::new();
    for m in legal_distinct(all, full) {
        let left = (full & !m.mask).count_ones();
        let line = format!(
            "taking {} leaves {}",
            taken(&run_cells(board, m)),
            pieces_left(left)
        );
        moves.push(if is_p(full & !m.mask)? {
            (
                line,
                "a P-position (a loss for the opponent)".to_string(),
                0,
            )
        } else {
            (
                line,
                "an N-position (a win for the opponent)".to_string(),
                1,
            )
        });
    }
    let mode = play.as_str();
    let conclusion = match moves.iter().find(|m| m.2 == 0) {
        _ if moves.is_empty() => format!(
            "no move: {name} is {} ({mode} play)",
            if own_p {
                "a P-position"
            } else {
                "an N-position"
            }
        ),
        Some(m) => format!(
            "{}, a P-position, so {name} is an N-position: a win for the player to move ({mode} play)",
            m.0
        ),
        None => format!(
            "every move leaves the opponent an N-position, so {name} is a P-position: a loss for the player to move ({mode} play)"
        ),
    };
    Some(MoveAccount {
        position: name,
        groups: group(moves),
        conclusion,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{StrVec, Values};

    fn row(board: &str, take: &str, play: &str) -> Table {
        let s = |v: &str| Values::Str([v].into_iter().collect::<StrVec>());
        Table::new()
            .with("board", s(board))
            .with("take", s(take))
            .with("play", s(play))
    }

    fn groups(a: &MoveAccount) -> Vec<(&str, usize)> {
        a.groups
            .iter()
            .map(|g| (g.leads_to.as_str(), g.count()))
            .collect()
    }

    /// A line of three pieces drawn as a mask, takes of 1 to 3 in a row,
    /// by hand. Misère (the last piece loses): one piece left is a P-position
    /// (its mover must take it); two in a row, two apart and nothing left
    /// (the mover's opponent took the last piece) are N-positions. So the
    /// two moves taking two pieces win and the other four (each single
    /// piece, the whole line) do not: the line is an N-position.
    #[test]
    fn a_misere_mask_board_is_explained_by_its_moves() {
        let t = row("mask: 'O O O'", "max:3", "misere").with(
            "outcome",
            Values::Str(["N"].into_iter().collect::<StrVec>()),
        );
        let a = first_moves("positions", &t, 0).expect("an account");
        assert_eq!(a.moves(), 6);
        assert_eq!(
            groups(&a),
            [
                ("a P-position (a loss for the opponent)", 2),
                ("an N-position (a win for the opponent)", 4)
            ]
        );
        let text = a.text();
        for part in [
            "taking the line (0,0)..(1,0) leaves 1 piece",
            "taking the line (0,0)..(2,0) leaves nothing",
            "so mask OOO is an N-position",
            "misere play",
        ] {
            assert!(text.contains(part), "{part:?} in {text}");
        }
        // A stored outcome the moves contradict gets no account.
        let wrong = row("mask: 'O O O'", "max:3", "misere").with(
            "outcome",
            Values::Str(["P"].into_iter().collect::<StrVec>()),
        );
        assert_eq!(first_moves("positions", &wrong, 0), None);
    }

    /// A count of positions explained by one position of the rarer kind,
    /// by hand: T(3) misère, takes of 1 to 3 in a row, 3 pieces left; the
    /// three corners are three separate pieces: each move takes one and
    /// leaves two separate pieces, an N-position (take one, leave the last),
    /// so the corners are a P-position, the witness that not none is P.
    #[test]
    fn a_count_is_explained_by_one_position() {
        let t = row("triangle: 3", "max:3", "misere")
            .with("pieces_left", Values::Int(vec![3]))
            .with("positions", Values::Int(vec![20]))
            .with("p_positions", Values::Int(vec![1]));
        let a = first_moves("counts", &t, 0).expect("an account");
        assert_eq!(
            a.position,
            "the position of T(3) with 3 pieces left at (0,0) (2,0) (0,2)"
        );
        assert_eq!(groups(&a), [("an N-position (a win for the opponent)", 3)]);
        assert!(
            a.text().contains("taking (0,0) leaves 2 pieces"),
            "{}",
            a.text()
        );
        assert!(a.text().contains("is a P-position"), "{}", a.text());
    }

    /// Counts on a board over [`MAX_EXHAUSTIVE`] pieces, by hand: T(7)
    /// (28 pieces) misère, takes of 1 to 3 in a row. One piece left is a
    /// P-position (its mover must take the last piece): all 28 of them, so
    /// a claim "none is P" fails on one, whose only move leaves nothing,
    /// an N-position (the mover's opponent took the last piece). Two pieces
    /// left are never P (take one, leave the last): the witness is an
    /// N-position with a move that leaves one piece.
    #[test]
    fn a_count_on_a_board_over_24_pieces_is_explained_by_one_position() {
        let count = |k: i64, positions: i64, p: i64| {
            row("triangle: 7", "max:3", "misere")
                .with("pieces_left", Values::Int(vec![k]))
                .with("positions", Values::Int(vec![positions]))
                .with("p_positions", Values::Int(vec![p]))
        };
        let one = first_moves("counts", &count(1, 28, 28), 0).expect("an account");
        assert!(
            one.position
                .starts_with("the position of T(7) with 1 pieces left at ("),
            "{}",
            one.position
        );
        assert_eq!(
            groups(&one),
            [("an N-position (a win for the opponent)", 1)]
        );
        assert!(one.text().contains("leaves nothing"), "{}", one.text());
        assert!(one.text().contains("is a P-position"), "{}", one.text());
        let two = first_moves("counts", &count(2, 378, 0), 0).expect("an account");
        let text = two.text();
        assert!(
            text.contains("leaves 1 piece") && text.contains("is an N-position"),
            "{text}"
        );
        assert!(
            groups(&two).contains(&("a P-position (a loss for the opponent)", 2)),
            "{text}"
        );
    }

    /// The bounded search agrees with the exhaustive table on a board both
    /// can solve: every position of T(5) (15 pieces), both plays.
    #[test]
    fn the_bounded_search_agrees_with_the_exhaustive_table() {
        let board = Shape::Triangle(5).board();
        for play in [Play::Misere, Play::Normal] {
            let all = rules::moves(&board, Take::Max(3));
            let rm: Vec<exhaustive::Move> = all.iter().map(exhaustive::Move::from).collect();
            let ex = exhaustive::solve(board.len(), &rm, play, &|_| {}, &AtomicBool::new(false))
                .unwrap();
            let mut search = Search::new(&all, play, 1 << 20);
            for x in 0..=board.full() {
                assert_eq!(search.is_p(x), Some(ex.is_p(x)), "{x:#x} {play:?}");
            }
        }
    }

    /// The same line in normal play, by hand: two pieces in a row have
    /// Grundy mex{1, 0} = 2, one piece 1. Taking an end piece leaves 2,
    /// the middle one two single pieces (1 ⊕ 1 = 0), two pieces leave 1,
    /// all three nothing (0): the values reached are 0, 1, 2, so the line
    /// has Grundy value 3.
    #[test]
    fn a_normal_play_mask_board_is_explained_by_its_moves() {
        let t =
            row("mask: 'O O O'", "max:3", "normal").with("grundy", Values::OptInt(vec![Some(3)]));
        let a = first_moves("positions", &t, 0).expect("an account");
        assert_eq!(
            groups(&a),
            [
                ("Grundy 0 (a P-position, a loss for the opponent)", 2),
                ("Grundy 1", 2),
                ("Grundy 2", 2)
            ]
        );
        let text = a.text();
        for part in [
            "taking (1,0) leaves 2 pieces",
            "taking (0,0) leaves 2 pieces",
            "not 3: mask OOO has Grundy value 3",
        ] {
            assert!(text.contains(part), "{part:?} in {text}");
        }
    }
}
