//! A sliced solve's [`Answer`] as the family shows it: the `positions` and
//! `counts` rows by the family's own row builders, the text of
//! `result.txt` and the JSON of `result.json`.

use std::fmt::Write as _;
use std::sync::Arc;

use anyhow::Result;
use serde_json::{Value, json};

use crate::data::{Table, cell_text};
use crate::family::lines::cases::LinesCase;
use crate::family::lines::datasets::{COUNTS, POSITIONS};
use crate::family::lines::dispatch::Solved;
use crate::family::lines::exhaustive::slices::{Answer, Problem};
use crate::family::lines::group::Group;

/// The answer as lines' datasets hold it, by the family's own row
/// builders: one `positions` row (outcome, `winning_runs`, solved by the
/// exhaustive method in `seconds`) and the `counts` rows (one per number
/// of pieces left), as `nimlab run` writes them for this board with
/// `counts: true`.
pub(super) fn tables(a: &Answer, p: &Problem, seconds: f64) -> Result<(Table, Table)> {
    let case = LinesCase {
        group: Arc::new(Group {
            shapes: vec![p.shape.clone()],
            label: p.shape.name(),
            along: None,
            census: None,
        }),
        take: p.take,
        play: p.play,
        counts: true,
        grundy: false,
        pictures: false,
        regions: false,
        cuts: false,
        hex: None,
        hex_side: 0,
        hex_boards: 1,
        memo_budget: 0,
        thin: None,
        memo_fill: None,
    };
    let solved = [(
        Solved {
            is_p: a.full_is_p,
            grundy: None,
            wins: a.wins.clone(),
            method: "exhaustive",
            counts: Some(a.counts.clone()),
            memo: None,
        },
        seconds,
    )];
    Ok((case.positions(&solved), case.count_table(&solved)?))
}

/// The answer as text (`result.txt`, `board solve`'s output): the
/// `counts` rows under their column names, the outcome and the
/// `winning_runs` as the tables print them.
pub(super) fn text(a: &Answer, p: &Problem) -> Result<String> {
    let (positions, counts) = tables(a, p, 0.0)?;
    let mut s = format!(
        "board {} ({}), {} pieces, take {}, {} play\n",
        p.shape.text(),
        p.shape.name(),
        p.n(),
        p.take.text(),
        p.play.as_str()
    );
    let cols = ["pieces_left", "positions", "p_positions"];
    let _ = writeln!(s, "{:>11} {:>20} {:>20}", cols[0], cols[1], cols[2]);
    for row in 0..counts.rows() {
        let cells: Vec<String> = cols
            .iter()
            .map(|c| {
                let mut t = String::new();
                cell_text(&counts, c, row, COUNTS.column(c), &mut t);
                t
            })
            .collect();
        let _ = writeln!(s, "{:>11} {:>20} {:>20}", cells[0], cells[1], cells[2]);
    }
    let total: u64 = a.counts.iter().map(|c| c.1).sum();
    let _ = writeln!(s, "total p_positions: {total}");
    let _ = writeln!(
        s,
        "outcome: {}",
        if a.full_is_p {
            "P (the player to move loses with perfect play)"
        } else {
            "N (the player to move wins)"
        }
    );
    let mut runs = String::new();
    cell_text(
        &positions,
        "winning_runs",
        0,
        POSITIONS.column("winning_runs"),
        &mut runs,
    );
    let _ = writeln!(
        s,
        "winning_runs ({} of {} first moves): {}",
        a.wins.len(),
        a.first_moves,
        if runs.is_empty() { "none" } else { &runs }
    );
    Ok(s)
}

/// The answer as JSON, under the datasets' column names.
pub(super) fn to_json(a: &Answer, p: &Problem) -> Value {
    json!({
        "board": p.shape.text(),
        "name": p.shape.name(),
        "shape": p.shape.kind(),
        "pieces": p.n(),
        "take": p.take.text(),
        "play": p.play.as_str(),
        "counts": a.counts.iter().enumerate().map(|(k, c)| json!({"pieces_left": k, "positions": c.0, "p_positions": c.1})).collect::<Vec<_>>(),
        "p_positions": a.counts.iter().map(|c| c.1).sum::<u64>(),
        "outcome": if a.full_is_p { "P" } else { "N" },
        "first_moves": a.first_moves,
        "winning_move_count": a.wins.len(),
        "winning_runs": a.wins.iter().map(|(_, cells)| {
            let (a, b) = (cells[0], cells[cells.len() - 1]);
            json!({"q0": a.0, "r0": a.1, "q1": b.0, "r1": b.1})
        }).collect::<Vec<_>>(),
    })
}
