//! The datasets `lines` writes, declared once (the data docs are generated
//! from these declarations).

use std::fmt::Write as _;

use crate::data::{Cell, Column, Dataset, DictVec, Dtype, EnumVec, Role, Table, Values};
use crate::game::{GRUNDY_COLUMN, OUTCOME_COLUMN, PLAY_COLUMN};
use crate::period::{PERIOD_COLUMNS, PERIOD_VALUES_COLUMNS};

/// Board shapes.
pub const SHAPES: &[&str] = &[
    "triangle",
    "hexagon",
    "trapezoid",
    "parallelogram",
    "pentagon",
    "mask",
];
/// Report 000's classes of a Grundy value (N2 = 0, N1 = 1, N3 = 2, N4 = 3,
/// N5 = 4, beyond N5 ≥ 5), and P/N for class counts without Grundy values.
pub const CLASSES: &[&str] = &["N2", "N1", "N3", "N4", "N5", "beyond N5", "P", "N"];
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

/// The solvers.
pub const METHODS: &[&str] = &["chords", "components", "exhaustive"];
/// What a picture's cell is.
pub const CELL_KINDS: &[&str] = &["piece", "winning move"];
/// The fields of a run of pieces: its first and last piece (axial coordinates).
pub const RUN_FIELDS: &[&str] = &["q0", "r0", "q1", "r1"];
/// Which sequence a period row is about.
pub const SEQUENCES: &[&str] = &["grundy", "outcome"];

const TAKE: Column = Column::new(
    "take",
    Dtype::Cat,
    Role::Param,
    "the take rule as written (accepted back by `nimlab solve lines --take`): `maximal`, `max:3`, `any`",
);
const RULE: Column = Column::new(
    "rule",
    Dtype::Cat,
    Role::Label,
    "take rule and play, `max:3 misere` (accepted back by `nimlab solve lines --rule`)",
);
const BOARD: Column = Column::new(
    "board",
    Dtype::Cat,
    Role::Param,
    "the board as written in a spec (accepted back by `nimlab solve lines --board`), `trapezoid: [2, 7]`",
);
const NAME: Column = Column::new(
    "name",
    Dtype::Cat,
    Role::Label,
    "the board's name, `A(2,7)`, `T(5)` (accepted back by `nimlab solve lines --board`)",
);

/// The outcome, read from the Grundy value where the solver found one (an
/// exhaustive solve without Grundy values finds the outcome alone).
const OUTCOME_FROM_GRUNDY: Column = OUTCOME_COLUMN.derived(
    &["grundy"],
    "read from the Grundy value (P exactly when it is 0)",
);

static POSITION: &[Column] = &[
    BOARD,
    NAME,
    Column::new("shape", Dtype::Enum(SHAPES), Role::Param, "the board's shape"),
    Column::new(
        "sequence",
        Dtype::Cat,
        Role::Param,
        "the sequence the board belongs to, `A(2,y)`; null outside a sequence",
    )
    .nullable(),
    Column::new(
        "along_value",
        Dtype::Int,
        Role::Position,
        "the value of the parameter the sequence runs along; null outside a sequence",
    )
    .nullable(),
    Column::new("x", Dtype::Int, Role::Param, "first shape parameter of A(x,y), B(x,y), C(x,y,z); null otherwise").nullable(),
    Column::new("y", Dtype::Int, Role::Param, "second shape parameter; null otherwise").nullable(),
    Column::new("z", Dtype::Int, Role::Param, "third shape parameter (pentagons); null otherwise").nullable(),
    Column::new(
        "hexagon_sides",
        Dtype::IntList,
        Role::Param,
        "the six sides of the equiangular hexagon the board is (a zero side for the degenerate shapes); null for masks",
    )
    .nullable(),
    Column::new("pieces", Dtype::Int, Role::Param, "number of pieces on the board"),
    TAKE,
    PLAY_COLUMN,
    RULE,
    Column::new(
        "shape_rule",
        Dtype::Cat,
        Role::Param,
        "shape and rule, `trapezoid maximal normal` (one heat map each)",
    ),
    OUTCOME_FROM_GRUNDY,
    GRUNDY_COLUMN,
    Column::new(
        "class",
        Dtype::Enum(CLASSES),
        Role::Result,
        "report 000's class of the Grundy value: N2 = 0, N1 = 1, N3 = 2, N4 = 3, N5 = 4, `beyond N5` ≥ 5; null without a Grundy value",
    )
    .nullable()
    .derived(&["grundy"], "the Grundy value renamed (N2 = 0, N1 = 1, N3 = 2, N4 = 3, N5 = 4)"),
    Column::new(
        "winning_runs",
        Dtype::StructList(RUN_FIELDS),
        Role::Result,
        "every winning first move, each the run it removes from its first piece (q0, r0) to its last (q1, r1), axial coordinates; each removed set once (tables print `(q,r)` or `(dq,dr):(q0,r0)..(q1,r1)`)",
    )
    .display(runs_text),
    Column::new(
        "winning_move_count",
        Dtype::Int,
        Role::Result,
        "number of winning first moves (distinct removed sets)",
    ),
    Column::new("method", Dtype::Enum(METHODS), Role::Result, "the solver that answered"),
    Column::new("seconds", Dtype::Float, Role::Timing, "solve time of the board"),
];

/// `positions`: one row per board and rule.
pub static POSITIONS: Dataset = Dataset {
    name: "positions",
    doc: "One row per board and rule: outcome, Grundy value, class and winning first moves.",
    groups: &[POSITION],
};

static COUNTS_ROW: &[Column] = &[
    BOARD,
    NAME,
    Column::new(
        "label",
        Dtype::Cat,
        Role::Label,
        "board and rule, `T(5) take max:3`",
    ),
    Column::new(
        "pieces",
        Dtype::Int,
        Role::Param,
        "number of pieces on the full board",
    ),
    TAKE,
    PLAY_COLUMN,
    Column::new(
        "pieces_left",
        Dtype::Int,
        Role::Position,
        "pieces left on the board (report 002's k)",
    ),
    Column::new(
        "positions",
        Dtype::Int,
        Role::Result,
        "positions with that many pieces",
    ),
    Column::new(
        "p_positions",
        Dtype::Int,
        Role::Result,
        "P-positions among them (report 002's champions)",
    ),
    Column::new(
        "program_p_positions",
        Dtype::Int,
        Role::Result,
        "the positions report 002's program marks, replayed (by increasing piece count: one piece marked, two skipped, marked when no move reaches a marked one); misère boards of at most 21 pieces (the program's limit), null otherwise",
    )
    .nullable(),
];

/// `counts`: report 002's table.
pub static COUNTS: Dataset = Dataset {
    name: "counts",
    doc: "One row per board, rule and number of pieces left: how many positions and P-positions (report 002's table).",
    groups: &[COUNTS_ROW],
};

static PERIOD_HEAD: &[Column] = &[
    Column::new(
        "sequence",
        Dtype::Cat,
        Role::Label,
        "the board sequence, `A(2,y)`",
    ),
    Column::new(
        "values",
        Dtype::Enum(SEQUENCES),
        Role::Param,
        "the sequence of values: `grundy` or `outcome`",
    ),
    TAKE,
    PLAY_COLUMN,
    Column::new(
        "along",
        Dtype::Cat,
        Role::Param,
        "the parameter the sequence runs along, `y`",
    ),
    Column::new(
        "from",
        Dtype::Int,
        Role::Param,
        "first value of that parameter",
    ),
    Column::new(
        "to",
        Dtype::Int,
        Role::Param,
        "last value of that parameter",
    ),
];

static PERIOD_TAIL: &[Column] = &[
    Column::new(
        "periodic_from",
        Dtype::Int,
        Role::Result,
        "the parameter's value where the periodic stretch starts; null without a period",
    )
    .nullable(),
    Column::new(
        "periods_seen",
        Dtype::Int,
        Role::Result,
        "whole periods in the evidence window `periodic_from..to` (at least 3, and the window at least half the range); null without a period",
    )
    .nullable(),
];

/// `periods`: one row per board sequence, rule and values.
pub static PERIODS: Dataset = Dataset {
    name: "periods",
    doc: "One row per board sequence, rule and values (Grundy values, outcomes): its period along the sequence, observed.",
    groups: &[
        PERIOD_HEAD,
        PERIOD_COLUMNS,
        PERIOD_TAIL,
        PERIOD_VALUES_COLUMNS,
    ],
};

static CLASS_COUNT: &[Column] = &[
    Column::new(
        "group",
        Dtype::Cat,
        Role::Label,
        "the boards counted: a sequence, a block of an enumeration, or one board",
    ),
    TAKE,
    PLAY_COLUMN,
    RULE,
    Column::new(
        "class",
        Dtype::Enum(CLASSES),
        Role::Param,
        "the class counted (P and N without Grundy values)",
    ),
    Column::new("boards", Dtype::Int, Role::Result, "boards of that class"),
];

/// `class_counts`: boards per class.
pub static CLASS_COUNTS: Dataset = Dataset {
    name: "class_counts",
    doc: "One row per group of boards, rule and class: how many boards (every class listed, zeros included).",
    groups: &[CLASS_COUNT],
};

static CELL: &[Column] = &[
    Column::new(
        "picture",
        Dtype::Cat,
        Role::Label,
        "the picture: board and rule, `T(5) max:3 misere`",
    ),
    BOARD,
    TAKE,
    PLAY_COLUMN,
    Column::new(
        "cell_q",
        Dtype::Int,
        Role::Position,
        "the piece's axial coordinate q",
    ),
    Column::new(
        "cell_r",
        Dtype::Int,
        Role::Position,
        "the piece's axial coordinate r",
    ),
    Column::new(
        "px",
        Dtype::Float,
        Role::Result,
        "horizontal drawing position (q + r/2)",
    ),
    Column::new(
        "py",
        Dtype::Float,
        Role::Result,
        "vertical drawing position (r·√3/2)",
    ),
    Column::new(
        "cell",
        Dtype::Enum(CELL_KINDS),
        Role::Result,
        "`winning move` for the pieces of the first winning move, `piece` otherwise",
    ),
];

/// `cells`: board pictures.
pub static CELLS: Dataset = Dataset {
    name: "cells",
    doc: "One row per piece of a pictured board: where to draw it and whether the first winning move takes it.",
    groups: &[CELL],
};

const PIECES: Column = Column::new(
    "pieces",
    Dtype::Int,
    Role::Param,
    "number of pieces on the board",
);

static REGION_ROW: &[Column] = &[
    BOARD,
    NAME,
    PIECES,
    TAKE,
    PLAY_COLUMN,
    RULE,
    Column::new(
        "regions",
        Dtype::Int,
        Role::Result,
        "number of separate regions (connected groups of pieces): report 000's Area Number",
    ),
    Column::new(
        "region_pieces",
        Dtype::IntList,
        Role::Result,
        "each region's number of pieces, regions ordered by their lowest piece",
    ),
    Column::new(
        "region_grundy",
        Dtype::IntList,
        Role::Result,
        "each region's Grundy value, each region solved alone (component solver), same order",
    ),
    Column::new("n1", Dtype::Int, Role::Result, "regions of class N1 (Grundy 1): report 000's |N1|")
    .derived(&["region_grundy"], "counted from region_grundy"),
    Column::new("n2", Dtype::Int, Role::Result, "regions of class N2 (Grundy 0): |N2|")
    .derived(&["region_grundy"], "counted from region_grundy"),
    Column::new("n3", Dtype::Int, Role::Result, "regions of class N3 (Grundy 2): |N3|")
    .derived(&["region_grundy"], "counted from region_grundy"),
    Column::new("n4", Dtype::Int, Role::Result, "regions of class N4 (Grundy 3): |N4|")
    .derived(&["region_grundy"], "counted from region_grundy"),
    Column::new("n5", Dtype::Int, Role::Result, "regions of class N5 (Grundy 4): |N5|")
    .derived(&["region_grundy"], "counted from region_grundy"),
    Column::new(
        "beyond",
        Dtype::Int,
        Role::Result,
        "regions beyond N5 (Grundy ≥ 5), in none of report 000's classes",
    )
    .derived(&["region_grundy"], "counted from region_grundy"),
    Column::new(
        "region_number",
        Dtype::Int,
        Role::Result,
        "report 000's Region Number 1|N1| + 2|N2| + 3|N3| + 4|N4| + 5|N5| (regions beyond N5 not counted)",
    )
    .derived(&["region_grundy"], "counted from region_grundy"),
    Column::new(
        "grundy_xor",
        Dtype::Int,
        Role::Result,
        "the Nim-sum of the regions' Grundy values (the whole board's value by the Sprague–Grundy theorem)",
    )
    .derived(&["region_grundy"], "the Nim-sum (xor) of region_grundy"),
    OUTCOME_FROM_GRUNDY,
    Column::new(
        "grundy",
        Dtype::Int,
        Role::Result,
        "the whole board's Grundy value as the sweep's solver found it; null without one (`grundy: false`: exhaustive outcome only)",
    )
    .nullable(),
    Column::new(
        "method",
        Dtype::Enum(METHODS),
        Role::Result,
        "the solver of the whole board (`exhaustive` does not split it into regions)",
    ),
];

/// `regions`: a board's separate regions and their classes (report 000's sums of regions).
pub static REGIONS: Dataset = Dataset {
    name: "regions",
    doc: "One row per board and rule (sweeps with `regions: true`, normal play): its separate regions, their Grundy values and report 000's class counts, beside the whole board's outcome.",
    groups: &[REGION_ROW],
};

static CUT_ROW: &[Column] = &[
    BOARD,
    NAME,
    PIECES,
    TAKE,
    PLAY_COLUMN,
    RULE,
    Column::new(
        "move",
        Dtype::Int,
        Role::Position,
        "the first move's index among the board's distinct first moves (0, 1, …; a move is the set of pieces it removes)",
    ),
    Column::new(
        "run",
        Dtype::Cat,
        Role::Label,
        "the run the move removes, as `nimlab solve` prints it: `(q,r)` or `(dq,dr):(q0,r0)..(q1,r1)`",
    ),
    Column::new(
        "run_pieces",
        Dtype::Int,
        Role::Result,
        "pieces the move removes",
    ),
    Column::new(
        "regions_left",
        Dtype::Int,
        Role::Result,
        "separate regions (connected groups of pieces) the move leaves: report 000's `1 + X + Y + …` has this many terms after the 1",
    ),
    Column::new(
        "left_grundy",
        Dtype::IntList,
        Role::Result,
        "the Grundy value of each region left, each region solved alone (component solver), ascending",
    ),
    Column::new(
        "option_grundy",
        Dtype::Int,
        Role::Result,
        "their Nim-sum: the value of the position the move leads to (0: a winning move)",
    )
    .derived(
        &["left_grundy"],
        "the Nim-sum (xor) of left_grundy in the same row: of two regions, a xor b = 0 exactly when a = b",
    ),
    Column::new(
        "board_grundy",
        Dtype::Int,
        Role::Result,
        "the board's Grundy value: the mex of `option_grundy` over its moves",
    )
    .derived_over_rows(&["option_grundy"], "the mex of option_grundy over the board's rows"),
    Column::new(
        "equal_pair_cut",
        Dtype::Bool,
        Role::Result,
        "the board has a move that leaves exactly two regions of one Grundy value (report 000: a cut into 「兩個同樣類型之圖形」)",
    )
    .derived_over_rows(
        &["regions_left", "left_grundy"],
        "read from regions_left and left_grundy over the board's rows",
    ),
];

/// `cuts`: each first move of a board and the regions it leaves (report 000's lemmas).
pub static CUTS: Dataset = Dataset {
    name: "cuts",
    doc: "One row per board, rule and distinct first move (sweeps with `cuts: true`, normal play): the regions the move leaves, their Grundy values and Nim-sum, beside the board's value.",
    groups: &[CUT_ROW],
};

const ENUMERATION: Column = Column::new(
    "enumeration",
    Dtype::Cat,
    Role::Label,
    "the hexagons counted (a `hexagons:` board item), `sides ≤ 128`: one per symmetry class",
);

static HEXAGON_VALUE: &[Column] = &[
    ENUMERATION,
    TAKE,
    PLAY_COLUMN,
    Column::new(
        "grundy",
        Dtype::Int,
        Role::Param,
        "a Grundy value that occurs",
    ),
    Column::new(
        "class",
        Dtype::Enum(CLASSES),
        Role::Result,
        "report 000's class of the value (`beyond N5` ≥ 5)",
    ),
    Column::new(
        "boards",
        Dtype::Int,
        Role::Result,
        "hexagons with that value",
    ),
    Column::new(
        "share",
        Dtype::Float,
        Role::Result,
        "their share of the enumeration (0..1)",
    ),
    Column::new(
        "smallest_board",
        Dtype::Cat,
        Role::Result,
        "the smallest such hexagon (fewest pieces, then smallest side tuple), as a spec writes it",
    ),
    Column::new("smallest_pieces", Dtype::Int, Role::Result, "its pieces"),
];

/// `hexagon_values`: the distribution of Grundy values over an enumeration.
pub static HEXAGON_VALUES: Dataset = Dataset {
    name: "hexagon_values",
    doc: "One row per hexagon enumeration, rule and Grundy value that occurs: how many hexagons have it and the smallest one.",
    groups: &[HEXAGON_VALUE],
};

static HEXAGON_BOUND: &[Column] = &[
    ENUMERATION,
    TAKE,
    PLAY_COLUMN,
    Column::new(
        "max_side",
        Dtype::Int,
        Role::Position,
        "the side bound L: the row counts the enumeration's hexagons with every side ≤ L",
    ),
    Column::new(
        "hexagons",
        Dtype::Int,
        Role::Result,
        "hexagons with every side ≤ L",
    ),
    Column::new(
        "max_grundy",
        Dtype::Int,
        Role::Result,
        "the largest Grundy value among them",
    ),
    Column::new(
        "max_board",
        Dtype::Cat,
        Role::Result,
        "the smallest hexagon with that value (fewest pieces, then smallest side tuple)",
    ),
    Column::new(
        "max_board_sides",
        Dtype::IntList,
        Role::Result,
        "its six sides (the smallest tuple of its symmetry class)",
    ),
    Column::new("max_board_pieces", Dtype::Int, Role::Result, "its pieces"),
    Column::new(
        "p_positions",
        Dtype::Int,
        Role::Result,
        "P-positions (Grundy value 0) among them",
    ),
    Column::new(
        "nonsymmetric",
        Dtype::Int,
        Role::Result,
        "hexagons among them that are not point-symmetric (sides other than a, b, c, a, b, c)",
    ),
    Column::new(
        "nonsymmetric_p",
        Dtype::Int,
        Role::Result,
        "P-positions among the hexagons that are not point-symmetric",
    ),
    Column::new(
        "nonsymmetric_p_share",
        Dtype::Float,
        Role::Result,
        "their share of the hexagons that are not point-symmetric (0..1)",
    ),
    Column::new(
        "symmetric_p",
        Dtype::Int,
        Role::Result,
        "P-positions among the point-symmetric hexagons (report 000: none, the first player cuts the centre line and mirrors)",
    ),
];

/// `hexagon_bounds`: per side bound, the largest value and the P-positions.
pub static HEXAGON_BOUNDS: Dataset = Dataset {
    name: "hexagon_bounds",
    doc: "One row per hexagon enumeration, rule and side bound L: the hexagons with every side ≤ L, their largest Grundy value and its smallest board, and their P-positions.",
    groups: &[HEXAGON_BOUND],
};

static HEXAGON_P: &[Column] = &[
    ENUMERATION,
    TAKE,
    PLAY_COLUMN,
    Column::new(
        "board",
        Dtype::Cat,
        Role::Position,
        "the hexagon as a spec writes it (accepted back by `nimlab solve lines`)",
    ),
    Column::new(
        "hexagon_sides",
        Dtype::IntList,
        Role::Param,
        "its six sides (the smallest tuple of its symmetry class)",
    ),
    Column::new("largest_side", Dtype::Int, Role::Param, "its largest side"),
    Column::new("pieces", Dtype::Int, Role::Param, "its pieces"),
];

/// `hexagon_p_positions`: the P-positions that are not point-symmetric.
pub static HEXAGON_P_POSITIONS: Dataset = Dataset {
    name: "hexagon_p_positions",
    doc: "One row per hexagon of an enumeration that is a P-position (Grundy value 0) and not point-symmetric, fewest pieces first.",
    groups: &[HEXAGON_P],
};

/// Every lines dataset.
pub static DATASETS: &[&Dataset] = &[
    &POSITIONS,
    &COUNTS,
    &PERIODS,
    &CLASS_COUNTS,
    &CELLS,
    &REGIONS,
    &CUTS,
    &HEXAGON_VALUES,
    &HEXAGON_BOUNDS,
    &HEXAGON_P_POSITIONS,
];

/// Runs as the tables print them: `(q,r)` for one piece, else the direction
/// and the ends, `(dq,dr):(q0,r0)..(q1,r1)`, joined by `; `.
fn runs_text(t: &Table, row: usize, out: &mut String) {
    let Some(Cell::StructList(l, i)) = t.cell("winning_runs", row) else {
        return;
    };
    for k in 0..l.row_len(i) {
        if k > 0 {
            out.push_str("; ");
        }
        let v = l.item(i, k);
        let (q0, r0, q1, r1) = (v[0], v[1], v[2], v[3]);
        if (q0, r0) == (q1, r1) {
            let _ = write!(out, "({q0},{r0})");
        } else {
            let (dq, dr) = (q1 - q0, r1 - r0);
            let n = gcd(dq.abs(), dr.abs()).max(1);
            let _ = write!(out, "({},{}):({q0},{r0})..({q1},{r1})", dq / n, dr / n);
        }
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// A dictionary column of `n` equal labels.
pub(super) fn dict(s: &str, n: usize) -> Values {
    Values::Dict(DictVec::repeat(s, n))
}

/// A categorical column of `n` equal codes.
pub(super) fn enum_repeat(levels: &'static [&'static str], code: u8, n: usize) -> Values {
    Values::Enum(EnumVec {
        levels,
        codes: vec![code; n],
    })
}
