//! `nimlab solve lines`: one board (or a position on it) answered.

use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use serde_json::json;

use super::board::{self, Board, Pt, Shape};
use super::datasets::class_of;
use super::dispatch::{Method, Solved, feasibility, method_for, solve_board};
use super::params::{DEFAULT_MEMO_GIB, SHAPE_KEYS, one_board, one_rule};
use super::rules::{Take, run_text};
use crate::family::Answer;
use crate::family::solved::{self, WinningMove};
use crate::family::watch::Watch;
use crate::game::Play;
use crate::params::{CliArg, CliForm, Node};

/// The arguments of `nimlab solve lines` and `nimlab play lines`: the
/// game ([`POSITION_ARGS`]), then the solve's own.
pub const CLI_ARGS: &[CliArg] = &[
    CliArg::new("board", CliForm::Yaml),
    CliArg::new("triangle", CliForm::Yaml),
    CliArg::new("regular", CliForm::Yaml),
    CliArg::new("hexagon", CliForm::List),
    CliArg::new("trapezoid", CliForm::List),
    CliArg::new("parallelogram", CliForm::List),
    CliArg::new("pentagon", CliForm::List),
    CliArg::new("mask", CliForm::Text),
    CliArg::new("take", CliForm::Text),
    CliArg::new("rule", CliForm::Text),
    CliArg::new("play", CliForm::Yaml),
    CliArg::new("remove", CliForm::Yaml),
    CliArg::new("counts", CliForm::Switch),
    CliArg::new("memo_gib", CliForm::Yaml),
];

/// The arguments naming the game alone, a board and its rule (those of
/// `nimlab board lines`): the first eleven of [`CLI_ARGS`].
pub const POSITION_ARGS: &[CliArg] = CLI_ARGS.split_at(11).0;

/// What `nimlab solve lines` was asked: the board, its rule, the pieces
/// removed from it and the options.
struct Request {
    shape: Shape,
    take: Take,
    play: Play,
    counts: bool,
    memo_budget: u64,
    /// Pieces removed from the full board (a position on it).
    removed: Vec<Pt>,
}

/// `nimlab solve lines`: one board's outcome, Grundy value and winning first moves.
pub fn solve(pos: &Node<'_>, watch: &dyn Watch) -> anyhow::Result<Answer> {
    let q = request(pos)?;
    let full_board = q.shape.board();
    let board = position_board(&full_board, &q.removed);
    let empty = board.is_none() && !q.removed.is_empty();
    let t0 = Instant::now();
    let r = run(&q, &full_board, board.as_ref(), empty, watch)?;
    let secs = t0.elapsed().as_secs_f64();
    let pieces = if empty {
        0
    } else {
        board.as_ref().unwrap_or(&full_board).len()
    };
    let text = answer_text(&q, &full_board, &r, pieces, secs);
    let json = answer_solved(&q, &r, pieces, secs).json();
    Ok(Answer { text, json })
}

/// Reads and checks the parameters.
fn request(pos: &Node<'_>) -> anyhow::Result<Request> {
    let mut keys: Vec<&str> = SHAPE_KEYS
        .iter()
        .copied()
        .filter(|k| *k != "hexagons")
        .collect();
    keys.extend([
        "board", "take", "rule", "play", "remove", "counts", "memo_gib",
    ]);
    pos.expect_keys(&keys)?;
    if let (Some(b), Some(k)) = (
        pos.get("board"),
        SHAPE_KEYS.iter().find(|k| pos.get(k).is_some()),
    ) {
        return Err(b
            .err(format!("give the board once: either --board or --{k}"))
            .into());
    }
    let shape = one_board(pos)?;
    let (take, play) = one_rule(pos)?;
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
    let removed = removed_points(pos, &shape.board())?;
    Ok(Request {
        shape,
        take,
        play,
        counts,
        memo_budget,
        removed,
    })
}

/// `remove:`: points of the board, each `[q, r]`.
fn removed_points(pos: &Node<'_>, full_board: &Board) -> anyhow::Result<Vec<Pt>> {
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
    Ok(removed)
}

/// The board left after `removed` (None: nothing removed, or every piece
/// removed).
fn position_board(full_board: &Board, removed: &[Pt]) -> Option<Board> {
    if removed.is_empty() {
        return None;
    }
    let pts: Vec<Pt> = full_board
        .points
        .iter()
        .copied()
        .filter(|p| !removed.contains(p))
        .collect();
    // Every piece removed (where a winning move may lead): the game is
    // over; the player to move has lost (normal) or won (misère).
    (!pts.is_empty()).then(|| Board::from_points(pts, None))
}

/// Solves the board (or the position on it) by the method it gets.
fn run(
    q: &Request,
    full_board: &Board,
    board: Option<&Board>,
    empty: bool,
    watch: &dyn Watch,
) -> anyhow::Result<Solved> {
    if empty {
        return Ok(Solved {
            is_p: q.play == Play::Normal,
            grundy: (q.play == Play::Normal).then_some(0),
            wins: Vec::new(),
            method: "empty",
            counts: None,
            memo: None,
        });
    }
    let b = board.unwrap_or(full_board);
    // A position with pieces removed is no longer a full hexagon: components.
    let m = if board.is_some() && q.play == Play::Normal {
        Method::Components
    } else {
        method_for(&q.shape, q.take, q.play, true)
    };
    let cancel = AtomicBool::new(false);
    feasibility(b.len() as u64, m, q.counts).map_err(anyhow::Error::msg)?;
    solve_board(
        Some(&q.shape),
        board,
        q.take,
        q.play,
        q.counts,
        true,
        None,
        q.memo_budget,
        watch,
        &cancel,
    )
}

/// The answer for people: the board, outcome, Grundy value, winning moves,
/// picture, counts and the solver used.
fn answer_text(q: &Request, full_board: &Board, r: &Solved, pieces: usize, secs: f64) -> String {
    let (shape, removed) = (&q.shape, &q.removed);
    let mut text = format!(
        "board {} ({}), {} pieces{}, take {}, {} play\n",
        shape.text(),
        shape.name(),
        pieces,
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
        q.take.text(),
        q.play.as_str()
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
    outcome_text(&mut text, r);
    if full_board.len() <= 400 {
        let win_cells: Vec<Pt> = r.wins.first().map(|w| w.1.clone()).unwrap_or_default();
        let present = |i: usize| !removed.contains(&full_board.points[i]);
        let mark = |i: usize| win_cells.contains(&full_board.points[i]);
        let _ = writeln!(
            text,
            "board (O piece, . removed, X the first winning move):\n{}",
            full_board.picture(&present, &mark).trim_end()
        );
    }
    solver_text(&mut text, q.play, r, secs);
    text
}

/// Outcome, Grundy value and winning moves.
fn outcome_text(text: &mut String, r: &Solved) {
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
}

/// The counts table, if asked, and the solver with its time and memo.
fn solver_text(text: &mut String, play: Play, r: &Solved, secs: f64) {
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
}

/// The answer for scripts, in the shape every family's `solve` shares.
fn answer_solved(q: &Request, r: &Solved, pieces: usize, secs: f64) -> solved::Solved {
    let (shape, take, play, removed) = (&q.shape, q.take, q.play, &q.removed);
    let position = |removed: &[Pt]| {
        let mut m = solved::map(json!({ "board": shape.text() }));
        if !removed.is_empty() {
            m.insert(
                "remove".into(),
                json!(removed.iter().map(|p| [p.0, p.1]).collect::<Vec<_>>()),
            );
        }
        m
    };
    let winning_moves = r
        .wins
        .iter()
        .map(|(d, c)| {
            let after: Vec<Pt> = removed.iter().chain(c).copied().collect();
            WinningMove {
                text: run_text(c, *d),
                to: position(&after),
                extra: solved::map(json!({
                    "direction": [board::DIRS[*d].0, board::DIRS[*d].1],
                    "cells": c.iter().map(|p| [p.0, p.1]).collect::<Vec<_>>(),
                })),
            }
        })
        .collect();
    solved::Solved {
        family: "lines",
        rule: format!("{} {}", take.text(), play.as_str()),
        game: solved::map(json!({"take": take.text(), "play": play.as_str()})),
        position: position(removed),
        is_p: r.is_p,
        grundy: r.grundy.map(u64::from),
        winning_moves,
        method: r.method,
        seconds: secs,
        details: solved::map(json!({
            "name": shape.name(),
            "pieces": pieces,
            "hexagon_sides": shape.sides().filter(|_| removed.is_empty()),
            "class": r.grundy.map(class_of),
            "counts": r.counts.as_ref().map(|c| c.iter().enumerate().map(|(k, (a, p))| json!({"k": k, "positions": a, "p_positions": p})).collect::<Vec<_>>()),
            "memo_components": r.memo.map(|m| m.0),
            "memo_bytes": r.memo.map(|m| m.1),
        })),
    }
}
