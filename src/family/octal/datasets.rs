//! The datasets `octal` writes, declared once (the data docs are generated
//! from these declarations).

use std::fmt::Write as _;

use super::kernel::KERNELS;
use crate::data::{Column, Dataset, Dtype, Role, Table};
use crate::family::heaps::{winning_column, write_moves};
use crate::game::{GRUNDY_COLUMN, OUTCOME_COLUMN, PLAY_COLUMN};
use crate::period::{PERIOD_COLUMNS, PERIOD_VALUES_COLUMNS};

/// The fields of one winning move: from heap `heap` (1 = N1; 1 with one
/// heap) take `take` tokens, leaving heaps `left` and `right` (0: none),
/// and `middle` between them when a hexadecimal digit leaves three (else 0).
pub const SPLIT_FIELDS: &[&str] = &["heap", "take", "left", "right", "middle"];

/// The game, on every row of every octal dataset.
pub static GAME: &[Column] = &[
    Column::new(
        "rule",
        Dtype::Cat,
        Role::Label,
        "the rule: the code, then ` misere` in misère play, e.g. `0.77 misere` (accepted back by `nimlab solve octal --rule`)",
    ),
    Column::new(
        "code",
        Dtype::Cat,
        Role::Param,
        "the octal code d0.d1d2… (trailing zeros removed): digit d_i says what may be left after taking i tokens from a heap, in binary: 1 nothing, 2 one heap, 4 two heaps",
    ),
    Column::new(
        "take_max",
        Dtype::Int,
        Role::Param,
        "the largest take k (the code's last digit), the t of the periodicity theorem",
    ),
    Column::new(
        "splits",
        Dtype::Bool,
        Role::Param,
        "whether a move may split a heap in two (a digit with the bit 4)",
    ),
    PLAY_COLUMN,
];

static HEAPS: &[Column] = &[Column::new(
    "heaps",
    Dtype::Int,
    Role::Param,
    "number of heaps",
)];

static ONE_HEAP: &[Column] = &[
    Column::new("N", Dtype::Int, Role::Position, "the heap size"),
    OUTCOME_COLUMN,
    GRUNDY_COLUMN,
    splits_column(
        "every winning move: take `take` from heap `heap` (1 with one heap), leaving the heaps `left` ≤ `right` (0: none) and `middle` between them when three are left (hexadecimal codes; else 0); empty for a P-position (tables show `E`, and a move as `2:1+3`, take 2 leaving 1 and 3)",
    ),
];

/// `nim_values`: one row per code, play and heap size.
pub static NIM_VALUES: Dataset = Dataset {
    name: "nim_values",
    doc: "One row per code, play and heap size: the outcome, the nim-value (normal play) and the winning moves.",
    groups: &[GAME, ONE_HEAP],
};

static SEQUENCE: &[Column] = &[
    Column::new(
        "values",
        Dtype::Enum(super::SEQUENCES),
        Role::Param,
        "the sequence: `grundy` (normal play, the nim-values) or `outcome` (misère play, P/N of one heap)",
    ),
    Column::new(
        "kernel",
        Dtype::Enum(KERNELS),
        Role::Result,
        "the kernel that computed the sequence: `naive` (every move of every heap), `sparse` (the sparse-space method with `mask`) or `adaptive` (a rare/common split rebuilt as the sequence grows, for a code without a fixed sparse space; `naive` when the naive kernel took over, with the adaptive kernel's work columns filled); null in misère play",
    )
    .nullable(),
    Column::new(
        "mask",
        Dtype::Int,
        Role::Result,
        "the mask of the rare/common split: a value v is rare when popcount(v & mask) is even; the mask with the fewest rare positions in the first 2049 values; null when no split was tried (misère, or a code that never splits)",
    )
    .nullable(),
    Column::new(
        "computed_to",
        Dtype::Int,
        Role::Result,
        "last heap size computed: stages of ×4 stop when the theorem proves a period, else at the sweep's `horizon` (`sparse_horizon` with the sparse kernel)",
    ),
    Column::new(
        "largest_value",
        Dtype::Int,
        Role::Result,
        "the largest nim-value computed (for a proven period: the largest there is); null in misère play",
    )
    .nullable(),
    Column::new(
        "rare_values",
        Dtype::IntList,
        Role::Result,
        "the distinct rare values computed (with `mask`), ascending; null without a mask",
    )
    .nullable(),
    Column::new(
        "rare_positions",
        Dtype::IntList,
        Role::Result,
        "the heap sizes n ≥ 1 with a rare value, ascending (at most the first 1000); null without a mask",
    )
    .nullable(),
    Column::new(
        "rare_count",
        Dtype::Int,
        Role::Result,
        "how many heap sizes n ≥ 1 up to `computed_to` have a rare value; null without a mask",
    )
    .nullable(),
    Column::new(
        "common_values",
        Dtype::Int,
        Role::Result,
        "how many distinct common values were computed; null without a mask",
    )
    .nullable(),
    Column::new(
        "rebuilds",
        Dtype::Int,
        Role::Result,
        "times the adaptive kernel rebuilt its rare/common split; null for another kernel",
    )
    .nullable(),
    Column::new(
        "rare_split_work",
        Dtype::Int,
        Role::Result,
        "splits with a rare part the adaptive kernel examined; null for another kernel",
    )
    .nullable(),
    Column::new(
        "check_split_work",
        Dtype::Int,
        Role::Result,
        "other splits the adaptive kernel examined to settle a value that could not be common; null for another kernel",
    )
    .nullable(),
    Column::new(
        "rebuild_work",
        Dtype::Int,
        Role::Result,
        "heap sizes the adaptive kernel's builds and rebuilds of its split looked at; null for another kernel",
    )
    .nullable(),
];

static TIMING: &[Column] = &[Column::new(
    "seconds",
    Dtype::Float,
    Role::Timing,
    "wall-clock seconds the sequence took (this machine, this run)",
)];

/// `periods`: one row per code and play.
pub static PERIODS: Dataset = Dataset {
    name: "periods",
    doc: "One row per code and play: the kernel, how far the sequence was computed, its period (normal play: proven by the octal periodicity theorem; misère: observed only), the largest value and the rare/common split.",
    groups: &[
        GAME,
        SEQUENCE,
        PERIOD_COLUMNS,
        PERIOD_VALUES_COLUMNS,
        TIMING,
    ],
};

static SEVERAL: &[Column] = &[
    Column::new("N1", Dtype::Int, Role::Position, "heap A's size"),
    Column::new("N2", Dtype::Int, Role::Position, "heap B's size"),
    Column::new(
        "N3",
        Dtype::Int,
        Role::Position,
        "heap C's size; null with two heaps",
    )
    .nullable(),
    OUTCOME_COLUMN,
    GRUNDY_COLUMN,
    splits_column(
        "every winning move: take `take` from heap `heap` (1 = N1), leaving the heaps `left` ≤ `right` (0: none) and `middle` between them when three are left (hexadecimal codes; else 0); empty for a P-position",
    ),
];

/// `positions`: several heaps in normal play; one row per position.
pub static POSITIONS: Dataset = Dataset {
    name: "positions",
    doc: "Two or three heaps, normal play: one row per code and position; its nim-value is the nim-sum of the heaps' values.",
    groups: &[GAME, HEAPS, SEVERAL],
};

/// Every octal dataset.
pub static DATASETS: &[&Dataset] = &[&NIM_VALUES, &PERIODS, &POSITIONS];

/// The `winning_splits` column (its doc says which heap `heap` counts).
const fn splits_column(doc: &'static str) -> Column {
    winning_column("winning_splits", SPLIT_FIELDS, doc, split_text)
}

/// Moves as `2:1+3` (take 2 leaving 1 and 3), `1:4` (leaving one heap of 4),
/// `3:` (leaving nothing), `1:1+2+4` (three heaps); `B2:1+3` with several
/// heaps.
fn split_text(t: &Table, row: usize, out: &mut String) {
    let several = t.cell("N1", row).is_some();
    write_moves(t, row, "winning_splits", several, out, |m, out| {
        let _ = write!(out, "{}:", m[1]);
        match (m[2], m[3], m[4]) {
            (0, 0, _) => {}
            (0, b, _) => {
                let _ = write!(out, "{b}");
            }
            (a, b, 0) => {
                let _ = write!(out, "{a}+{b}");
            }
            (a, b, c) => {
                let _ = write!(out, "{a}+{c}+{b}");
            }
        }
    });
}
