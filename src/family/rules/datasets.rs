//! The datasets and views of `rules`, declared once: shaped like
//! `takeaway`'s (one heap keyed by `N`, several by `N1`..`N3`).

use std::fmt::Write as _;

use crate::data::{Cell, Column, Dataset, Dtype, Role, Table};
use crate::family::heaps::{winning_column, write_moves};
use crate::game::{GRUNDY_COLUMN, OUTCOME_COLUMN, PLAY_COLUMN, heap_size_columns};
use crate::period::PERIOD_COLUMNS;
use crate::view::{View, ViewKind};

/// The fields of one winning move.
pub const MOVE_FIELDS: &[&str] = &["heap", "take", "heap2", "split"];

/// Which sequence a period row is about.
pub const SEQUENCES: &[&str] = &["grundy", "outcome"];

/// The rule, on every row of every dataset.
pub static RULE: &[Column] = &[
    Column::new(
        "rule",
        Dtype::Cat,
        Role::Label,
        "the rule: the `move:` condition, `; split` and `; both: ...` when they apply, and the parameters' values in brackets",
    ),
    Column::new(
        "move_condition",
        Dtype::Cat,
        Role::Param,
        "the `move:` condition as written (`move` is a move elsewhere)",
    ),
    Column::new(
        "both",
        Dtype::Cat,
        Role::Param,
        "the `both:` condition as written; null without one",
    )
    .nullable(),
    Column::new(
        "split",
        Dtype::Bool,
        Role::Param,
        "whether what is left of a heap may be left as two heaps",
    ),
    PLAY_COLUMN,
    Column::new("heaps", Dtype::Int, Role::Param, "number of heaps D"),
];

static POSITION: &[Column] = &[
    OUTCOME_COLUMN,
    GRUNDY_COLUMN,
    winning_column(
        "winning_rule_moves",
        MOVE_FIELDS,
        "every winning move at the start of a game: take `take` from heap `heap` (1 = A), and from heap `heap2` too for a `both:` move (0: none), leaving the rest as two heaps, the smaller `split` (0: left whole); empty for a P-position (tables show `E`; a move as `3`, `A3`, `3/1` for a split, `AB2` for both)",
        move_text,
    ),
];

/// `rule_positions`: one row per position and rule.
pub static POSITIONS: Dataset = Dataset {
    name: "rule_positions",
    doc: "One row per rule and starting position: its outcome, Grundy value (normal play of a sum of heaps, no history) and winning moves; after these columns, one per parameter of the sweep's grid (`k: 2..15` gives `k`), null on the rows of a sweep without it.",
    groups: &[RULE, heap_size_columns(3), POSITION],
};

static PERIOD_HEAD: &[Column] = &[
    Column::new(
        "values",
        Dtype::Enum(SEQUENCES),
        Role::Param,
        "the sequence: `grundy` (where positions have Grundy values) or `outcome` (P/N at the start of a game)",
    ),
    Column::new(
        "horizon",
        Dtype::Int,
        Role::Param,
        "the heap sizes computed, 0..horizon",
    ),
];

/// `rule_periods`: one row per one-heap rule.
pub static PERIODS: Dataset = Dataset {
    name: "rule_periods",
    doc: "One row per rule with one heap: the period of its values, proven where a theorem applies (take set: the subtraction-game window; split: the octal periodicity theorem; history with a largest take: the joint state's window), else observed with the reason; after these columns, one per parameter of the sweep's grid, as in `rule_positions`.",
    groups: &[RULE, PERIOD_HEAD, PERIOD_COLUMNS],
};

/// Every dataset.
pub static DATASETS: &[&Dataset] = &[&POSITIONS, &PERIODS];

fn move_text(t: &Table, row: usize, out: &mut String) {
    let one_heap = matches!(t.cell("heaps", row), Some(Cell::Int(1)));
    write_moves(t, row, "winning_rule_moves", !one_heap, out, |m, out| {
        if m[2] > 0 {
            out.push((b'A' + (m[2] as u8).saturating_sub(1)) as char);
        }
        let _ = write!(out, "{}", m[1]);
        if m[3] > 0 {
            let _ = write!(out, "/{}", m[3]);
        }
    });
}

/// One heap: rows N, columns the rule, cells the winning takes.
pub static WINNING_TABLE: View = View {
    name: "winning_table",
    title: "Winning first moves (E: P-position; 3/1: take 3 and split the rest, the smaller part 1)",
    dataset: "rule_positions",
    kind: ViewKind::Grid {
        row: "N",
        column: "rule",
        cell: "winning_rule_moves",
        empty: "E",
        facet: None,
    },
    only: &[("heaps", "1")],
};

/// One heap: the value strip (rows N, columns the rule, cells the outcome).
pub static VALUE_STRIP: View = View {
    name: "value_strip",
    title: "Outcomes (P/N) by heap size",
    dataset: "rule_positions",
    kind: ViewKind::Grid {
        row: "N",
        column: "rule",
        cell: "outcome",
        empty: "",
        facet: None,
    },
    only: &[("heaps", "1")],
};

/// Two heaps: the loss set.
pub static LOSS_SCATTER: View = View::loss_scatter("P-positions (N1, N2)", "rule_positions");

/// Two heaps: winning moves.
pub static MOVE_TABLE: View = View::move_table(
    "Winning moves (A3: take 3 from heap A; AB2: 2 from both; E: P-position)",
    "rule_positions",
    "winning_rule_moves",
);

/// The periods.
pub static PERIOD_TABLE: View = View {
    name: "period_table",
    title: "Periods (minimal period, then minimal preperiod)",
    dataset: "rule_periods",
    kind: ViewKind::Listing {
        columns: &[
            "rule",
            "play",
            "values",
            "period",
            "preperiod",
            "status",
            "evidence",
        ],
        filter: &[],
    },
    only: &[],
};

/// Every view.
pub static VIEWS: &[&View] = &[
    &WINNING_TABLE,
    &VALUE_STRIP,
    &PERIOD_TABLE,
    &MOVE_TABLE,
    &LOSS_SCATTER,
];

/// The views of a sweep with these heap counts.
pub fn for_heaps(counts: &[usize]) -> Vec<&'static View> {
    let mut v: Vec<&'static View> = Vec::new();
    if counts.contains(&1) {
        v.extend([&WINNING_TABLE, &VALUE_STRIP, &PERIOD_TABLE]);
    }
    if counts.contains(&2) {
        v.extend([&MOVE_TABLE, &LOSS_SCATTER]);
    }
    v
}
