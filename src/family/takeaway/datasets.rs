//! The datasets `takeaway` writes, declared once (the data docs are
//! generated from these declarations).

use std::fmt::Write as _;

use crate::data::{Cell, Column, Dataset, Dtype, Role, Table};
use crate::game::{GRUNDY_COLUMN, OUTCOME_COLUMN, PLAY_COLUMN};
use crate::period::{PERIOD_COLUMNS, PERIOD_VALUES_COLUMNS};

/// The fields of one winning move.
pub const MOVE_FIELDS: &[&str] = &["heap", "take"];

/// Which sequence a period row is about.
pub const SEQUENCES: &[&str] = &["grundy", "outcome"];

/// The rule, on every row of every takeaway dataset.
pub static RULE: &[Column] = &[
    Column::new(
        "rule",
        Dtype::Cat,
        Role::Label,
        "the rule: the take set, then ` no_repeat` and ` misere` when they apply, e.g. `min:2,max:7 no_repeat` (accepted back by `nimlab solve takeaway --rule`)",
    ),
    Column::new(
        "take",
        Dtype::Cat,
        Role::Param,
        "the take set as written (and accepted back by `nimlab solve takeaway --take`): `max:5`, `min:2,max:7`, `set:1,3,4`, `any`",
    ),
    Column::new(
        "take_min",
        Dtype::Int,
        Role::Param,
        "smallest take (1 for `any`)",
    ),
    Column::new(
        "take_max",
        Dtype::Int,
        Role::Param,
        "largest take; null for `any`",
    )
    .nullable(),
    Column::new(
        "take_set",
        Dtype::IntList,
        Role::Param,
        "the takes of a `set:` rule; null for the other forms",
    )
    .nullable(),
    PLAY_COLUMN,
    Column::new(
        "no_repeat",
        Dtype::Bool,
        Role::Param,
        "Cond(3): a player may not take the number the opponent just took",
    ),
    Column::new("heaps", Dtype::Int, Role::Param, "number of heaps D"),
];

/// The position and what is known of it.
static POSITION: &[Column] = &[
    Column::new(
        "N",
        Dtype::Int,
        Role::Position,
        "the heap size, with one heap; null with several",
    )
    .nullable(),
    Column::new("N1", Dtype::Int, Role::Position, "heap A's size, with several heaps; null with one").nullable(),
    Column::new("N2", Dtype::Int, Role::Position, "heap B's size; null with fewer heaps").nullable(),
    Column::new("N3", Dtype::Int, Role::Position, "heap C's size; null with fewer heaps").nullable(),
    Column::new("N4", Dtype::Int, Role::Position, "heap D's size; null with fewer heaps").nullable(),
    Column::new("N5", Dtype::Int, Role::Position, "heap E's size; null with fewer heaps").nullable(),
    Column::new("N6", Dtype::Int, Role::Position, "heap F's size; null with fewer heaps").nullable(),
    OUTCOME_COLUMN,
    GRUNDY_COLUMN,
    Column::new(
        "winning_moves",
        Dtype::StructList(MOVE_FIELDS),
        Role::Result,
        "every winning move, at the start of a game: take `take` stones from heap `heap` (1 = A = N1; 1 with one heap); empty for a P-position (tables show `E`, and the moves as `1,2` for one heap, `A3,B4` for several)",
    )
    .display(move_text),
];

/// `positions`: one row per position and rule.
pub static POSITIONS: Dataset = Dataset {
    name: "positions",
    doc: "One row per position and rule: its outcome, Grundy value and winning moves.",
    groups: &[RULE, POSITION],
};

static PERIOD_HEAD: &[Column] = &[
    Column::new(
        "values",
        Dtype::Enum(SEQUENCES),
        Role::Param,
        "the sequence: `grundy` (normal play without no_repeat) or `outcome` (P/N at the start of a game)",
    ),
    Column::new(
        "horizon",
        Dtype::Int,
        Role::Result,
        "heap sizes asked for before any extension: the sweep's `horizon` (default max(N, 64·max(S)+64)), at least the largest N asked for",
    ),
    Column::new(
        "computed_to",
        Dtype::Int,
        Role::Result,
        "last heap size computed: the `horizon`, or further when the proof window of a finite take set's period needed an extension (×4 at a time, up to `proof_cap`)",
    ),
    Column::new(
        "extended",
        Dtype::Bool,
        Role::Result,
        "whether the horizon was extended to look for the proof window (then `computed_to` says how far; `status` says whether it was found)",
    ),
];

static PERIOD_TAIL: &[Column] = &[Column::new(
    "loss_residues",
    Dtype::IntList,
    Role::Result,
    "residues r (mod the period) of the P-positions past the preperiod; null without a period",
)
.nullable()];

/// `periods`: one heap; one row per rule and sequence.
pub static PERIODS: Dataset = Dataset {
    name: "periods",
    doc: "One heap: one row per rule and sequence (Grundy values, outcomes): its minimal period and preperiod, proven or observed.",
    groups: &[
        RULE,
        PERIOD_HEAD,
        PERIOD_COLUMNS,
        PERIOD_VALUES_COLUMNS,
        PERIOD_TAIL,
    ],
};

static LOSS: &[Column] = &[
    Column::new(
        "N_min",
        Dtype::Int,
        Role::Param,
        "smallest heap size asked for",
    ),
    Column::new(
        "N_max",
        Dtype::Int,
        Role::Param,
        "largest heap size asked for",
    ),
    Column::new(
        "count",
        Dtype::Int,
        Role::Result,
        "number of P-positions in the range",
    ),
    Column::new(
        "loss_set",
        Dtype::IntList,
        Role::Result,
        "the P-positions in the range, ascending",
    ),
];

/// `loss_sets`: one heap; one row per rule.
pub static LOSS_SETS: Dataset = Dataset {
    name: "loss_sets",
    doc: "One heap: one row per rule: the loss set L (the P-positions) in the range asked for.",
    groups: &[RULE, LOSS],
};

/// Every takeaway dataset.
pub static DATASETS: &[&Dataset] = &[&POSITIONS, &PERIODS, &LOSS_SETS];

/// A move list as the reports print it: takes (`1,2`) with one heap, heap
/// letter and take (`A3,B4`) with several.
fn move_text(t: &Table, row: usize, out: &mut String) {
    let one_heap = matches!(t.cell("heaps", row), Some(Cell::Int(1)));
    if let Some(Cell::StructList(l, i)) = t.cell("winning_moves", row) {
        let (heaps, takes) = (l.field(i, 0), l.field(i, 1));
        for (k, (h, s)) in heaps.iter().zip(takes).enumerate() {
            if k > 0 {
                out.push(',');
            }
            if !one_heap {
                out.push((b'A' + (*h as u8).saturating_sub(1)) as char);
            }
            let _ = write!(out, "{s}");
        }
    }
}
