//! Why a stored board has its Grundy value, for a counterexample: the
//! board's first moves and the Grundy values they reach (solved again from
//! the `board` and `take` columns, for boards of at most [`MAX_PIECES`]).

use std::collections::BTreeMap;

use super::components::Components;
use super::params::{parse_shape_map, parse_takes};
use crate::data::{Cell, Table};
use crate::params::{Node, parse_yaml};

/// Larger boards are not solved again just to explain a counterexample.
pub const MAX_PIECES: usize = 48;

/// Memo budget of the re-solve.
const BUDGET: u64 = 512 << 20;

fn text<'a>(t: &'a Table, col: &str, row: usize) -> Option<&'a str> {
    match t.cell(col, row)? {
        Cell::Str(s) => Some(s),
        _ => None,
    }
}

/// `positions` rows in normal play: "its N moves reach Grundy values 0 (×2),
/// 2 (×1); the smallest value not reached is 1".
pub fn explain(dataset: &str, t: &Table, row: usize) -> Option<String> {
    if dataset != "positions" || text(t, "play", row)? != "normal" {
        return None;
    }
    let own = match t.cell("grundy", row)? {
        Cell::Int(g) => g,
        _ => return None,
    };
    let file = "the `board` column";
    let board_v = parse_yaml(text(t, "board", row)?, file).ok()?;
    let mut groups = Vec::new();
    parse_shape_map(
        &Node::root(&board_v, file),
        None,
        &mut groups,
        &mut Vec::new(),
    )
    .ok()?;
    let shape = groups.first()?.shapes.first()?.clone();
    let take_v = serde_json::Value::String(text(t, "take", row)?.to_string());
    let take = *parse_takes(&Node::root(&take_v, file)).ok()?.first()?;
    let board = shape.board();
    if board.is_empty() || board.len() > MAX_PIECES {
        return None;
    }
    let solver = Components::new(&board, take, BUDGET);
    let (g, options) = solver.options(board.full(), &|_| {});
    if solver.stopped.load(std::sync::atomic::Ordering::Relaxed) || i64::from(g) != own {
        return None;
    }
    let mut reached: BTreeMap<u32, usize> = BTreeMap::new();
    for (_, v) in &options {
        *reached.entry(*v).or_default() += 1;
    }
    let values: Vec<String> = reached.iter().map(|(v, n)| format!("{v} (×{n})")).collect();
    Some(format!(
        "its {} distinct first moves reach Grundy values {}; the smallest value not reached is {own}",
        options.len(),
        values.join(", ")
    ))
}
