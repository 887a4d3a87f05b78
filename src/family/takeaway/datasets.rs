//! The datasets `takeaway` writes, declared once (the data docs are
//! generated from these declarations).

use std::fmt::Write as _;

use crate::data::{Cell, Column, Dataset, Dtype, Role, Table};
use crate::game::{GRUNDY_COLUMN, OUTCOME_COLUMN, PLAY_COLUMN, heap_size_columns};
use crate::period::{PERIOD_COLUMNS, PERIOD_VALUES_COLUMNS, STATUS, STATUSES};

use crate::family::heaps::{winning_column, write_moves};

use super::lattices::{FRAMES, POINT_FIELDS, POLYGON_FIELDS, TILE_FIELDS};

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
    OUTCOME_COLUMN,
    GRUNDY_COLUMN,
    winning_column(
        "winning_moves",
        MOVE_FIELDS,
        "every winning move, at the start of a game: take `take` stones from heap `heap` (1 = A = N1; 1 with one heap); empty for a P-position (tables show `E`, and the moves as `1,2` for one heap, `A3,B4` for several)",
        move_text,
    ),
];

/// `positions`: one row per position and rule.
pub static POSITIONS: Dataset = Dataset {
    name: "positions",
    doc: "One row per position and rule: its outcome, Grundy value and winning moves.",
    groups: &[RULE, heap_size_columns(6), POSITION],
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
        "last heap size computed: the `horizon`, or further when the proof of a finite take set's period (a repeated window of the state, or with `no_repeat` the losses' induction) needed an extension (×4 at a time, up to `proof_cap`)",
    ),
    Column::new(
        "extended",
        Dtype::Bool,
        Role::Result,
        "whether the horizon was extended to look for a proof (then `computed_to` says how far; `status` says whether it was found)",
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

static LATTICE_KEY: &[Column] = &[
    Column::new(
        "set",
        Dtype::Cat,
        Role::Label,
        "the loss set the row describes: the rule, then `| N3 = c` for a plane of a three-heap loss set",
    ),
    Column::new(
        "plane",
        Dtype::Int,
        Role::Position,
        "three heaps: the plane N3 = c whose loss set {(N1, N2)} the row describes; null with two heaps",
    )
    .nullable(),
    Column::new(
        "frame",
        Dtype::Enum(FRAMES),
        Role::Position,
        "the part of the loss set the row describes: `plain`, the quadrant beyond the corner (x0, y0); `below` / `above`, the sector x ≥ y / y ≥ x, when no lattice fits a quadrant but each sector has its own (coordinates (u, v) = (x − y, y) / (y − x, x), docs/lattice.md, Sectors); null when `status` is `none`",
    )
    .nullable(),
];

static LATTICE: &[Column] = &[
    Column::new(
        STATUS,
        Dtype::Enum(STATUSES),
        Role::Result,
        "`proven` (an argument covers every point: sums of one-heap games, see `argument`), `observed` (checked in the box, see the `box_*`, `tiles*` and `margin_*` columns), or `none` (no lattice with enough evidence in the box)",
    ),
    Column::new(
        "p",
        Dtype::Int,
        Role::Result,
        "the finest lattice in Hermite normal form ⟨(p, 0), (a, q)⟩, in (N1, N2) = (x, y): p, the smallest horizontal period; null when `status` is `none`",
    )
    .nullable(),
    Column::new("a", Dtype::Int, Role::Result, "the shear of the second basis vector (a, q), 0 ≤ a < p").nullable(),
    Column::new("q", Dtype::Int, Role::Result, "the smallest positive vertical component of a lattice vector").nullable(),
    Column::new("lattice", Dtype::Str, Role::Result, "the lattice as text, `⟨(p,0), (a,q)⟩`").nullable(),
    Column::new(
        "x0",
        Dtype::Int,
        Role::Result,
        "the corner of the periodic region (in the frame's coordinates): the set is periodic on x ≥ x0 and y ≥ y0 (`plain`), on x − y ≥ x0 and y ≥ y0 (`below`), on y − x ≥ x0 and x ≥ y0 (`above`); of the staircase's corners the one with the smallest max(x0, y0), then x0 + y0",
    )
    .nullable(),
    Column::new("y0", Dtype::Int, Role::Result, "the corner's second coordinate (see `x0`)").nullable(),
    Column::new("region", Dtype::Str, Role::Result, "the periodic region beyond the corner, in words (`x ≥ 0 and y ≥ 0`)").nullable(),
    Column::new(
        "staircase",
        Dtype::StructList(POINT_FIELDS),
        Role::Result,
        "the preperiod region exactly: every corner (x, y) of the staircase (in the frame's coordinates, lowest y first); the set is periodic beyond each, and the preperiod region is what lies beyond none; one corner (the proof's) for a proven structure; empty when `status` is `none`",
    ),
    Column::new(
        "strips_x",
        Dtype::Int,
        Role::Result,
        "the strips of the preperiod region are periodic along their length too: the rows y < y0 with period p from x ≥ strips_x, the columns x < x0 with the vertical period from y ≥ strips_y; null when they are not (within the evidence rules)",
    )
    .nullable(),
    Column::new("strips_y", Dtype::Int, Role::Result, "see `strips_x`").nullable(),
    Column::new(
        "tile_x",
        Dtype::Int,
        Role::Result,
        "the tile, a fundamental domain of the lattice inside the periodic region: the rectangle [tile_x, tile_x + p) × [tile_y, tile_y + q) in (x, y)",
    )
    .nullable(),
    Column::new("tile_y", Dtype::Int, Role::Result, "see `tile_x`").nullable(),
    Column::new("tile_points", Dtype::Int, Role::Result, "points per tile, p·q (the lattice's index in ℤ²)").nullable(),
    Column::new("tile_members", Dtype::Int, Role::Result, "P-positions per tile").nullable(),
    Column::new(
        "tile",
        Dtype::StructList(TILE_FIELDS),
        Role::Result,
        "the tile's P-positions, as offsets (dx, dy) from (tile_x, tile_y); with the lattice they give every P-position of the periodic region; empty when `status` is `none`",
    ),
    Column::new("density", Dtype::Float, Role::Result, "loss density of the periodic region: tile_members / tile_points (tables show 5 decimals)")
        .nullable()
        .display(density_text),
    Column::new("box_x", Dtype::Int, Role::Result, "the box the loss set was computed and checked in: [0, box_x] × [0, box_y] (the largest N1, N2 asked for)"),
    Column::new("box_y", Dtype::Int, Role::Result, "see `box_x`"),
    Column::new(
        "tiles_x",
        Dtype::Int,
        Role::Result,
        "whole tiles of the periodic region inside the box along each axis (in the frame's coordinates): ⌊margin_x / p⌋, ⌊margin_y / q⌋ (at least 3 for `observed`)",
    )
    .nullable(),
    Column::new("tiles_y", Dtype::Int, Role::Result, "see `tiles_x`").nullable(),
    Column::new("tiles", Dtype::Int, Role::Result, "tiles_x · tiles_y: the copies of the tile the box holds beyond the corner").nullable(),
    Column::new(
        "margin_x",
        Dtype::Int,
        Role::Result,
        "how far past the corner the pattern was checked, to the box edge (in the frame's coordinates): box_x + 1 − x0, box_y + 1 − y0 (for `observed`, the corner is at most half-way)",
    )
    .nullable(),
    Column::new("margin_y", Dtype::Int, Role::Result, "see `margin_x`").nullable(),
    Column::new("symmetric", Dtype::Bool, Role::Result, "the loss set in the box is symmetric under (x, y) → (y, x)"),
    Column::new(
        "evidence",
        Dtype::Str,
        Role::Result,
        "what establishes the structure, in one line: the box, the whole tiles and the periodic stretch checked (or why there is none)",
    ),
    Column::new(
        "argument",
        Dtype::Str,
        Role::Result,
        "for `proven`: the proof (docs/lattice.md, Proofs: the two-heap game is a sum of one-heap games whose Grundy period is proven); null otherwise",
    )
    .nullable(),
    Column::new("window", Dtype::Int, Role::Result, "the drawing window [0, window]² of `points`: the preperiod region's extent and four periods beyond (at least 60), at most the box and the sweep's `points_window` (default 1000 for two heaps, 0 for three)"),
    Column::new("points", Dtype::StructList(POINT_FIELDS), Role::Result, "the P-positions (x, y) in the drawing window, for the figures; empty when `points_window` is 0"),
    Column::new(
        "periodic_region",
        Dtype::StructList(POLYGON_FIELDS),
        Role::Result,
        "the periodic region inside the drawing window, one convex polygon per staircase corner (vertices are points; the region's points are on or inside a polygon), for the figures",
    ),
];

/// `lattices`: two heaps (or planes of three); one row per loss set and part of its model.
pub static LATTICES: Dataset = Dataset {
    name: "lattices",
    doc: "Two heaps (or the planes N3 = c of three): one row per rule (and plane) and part of its model: the finest lattice of the loss set, its preperiod region, tile and density, proven or observed with its evidence box. Written only when the sweep lists it in `datasets:`.",
    groups: &[RULE, LATTICE_KEY, LATTICE],
};

/// Every takeaway dataset.
pub static DATASETS: &[&Dataset] = &[&POSITIONS, &PERIODS, &LOSS_SETS, &LATTICES];

/// A density with 5 decimals (empty for null).
fn density_text(t: &Table, row: usize, out: &mut String) {
    if let Some(Cell::Float(v)) = t.cell("density", row) {
        let _ = write!(out, "{v:.5}");
    }
}

/// A move list as the reports print it: takes (`1,2`) with one heap, heap
/// letter and take (`A3,B4`) with several.
fn move_text(t: &Table, row: usize, out: &mut String) {
    let one_heap = matches!(t.cell("heaps", row), Some(Cell::Int(1)));
    write_moves(t, row, "winning_moves", !one_heap, out, |m, out| {
        let _ = write!(out, "{}", m[1]);
    });
}
