//! The views `lines` draws, declared once.

use crate::view::{View, ViewKind};

/// Every board: outcome, Grundy value, class and winning first moves.
pub static WINNING_MOVES: View = View {
    name: "winning_moves",
    title: "Boards: outcome, Grundy value, class and winning first moves",
    dataset: "positions",
    kind: ViewKind::Listing {
        columns: &[
            "board",
            "pieces",
            "take",
            "play",
            "outcome",
            "grundy",
            "class",
            "winning_runs",
        ],
        filter: &[],
    },
    only: &[],
};

/// Boards per class.
pub static CLASS_COUNTS: View = View {
    name: "class_counts",
    title: "Boards per class (report 000: N2 = 0, N1 = 1, N3 = 2, N4 = 3, N5 = 4, beyond N5 ≥ 5)",
    dataset: "class_counts",
    kind: ViewKind::Grid {
        row: "group",
        column: "class",
        cell: "boards",
        empty: "0",
        facet: Some("rule"),
    },
    only: &[],
};

/// Classes along each sequence (report 000's tables).
pub static CLASS_TABLE: View = View {
    name: "class_table",
    title: "Classes along each sequence (N2 = 0, N1 = 1, N3 = 2, N4 = 3, N5 = 4)",
    dataset: "positions",
    kind: ViewKind::Grid {
        row: "along_value",
        column: "sequence",
        cell: "class",
        empty: "",
        facet: Some("rule"),
    },
    only: &[],
};

/// Periods along each sequence.
pub static PERIOD_TABLE: View = View {
    name: "period_table",
    title: "Periods along each sequence (smallest period, then smallest preperiod; observed)",
    dataset: "periods",
    kind: ViewKind::Listing {
        columns: &[
            "sequence",
            "values",
            "take",
            "play",
            "from",
            "to",
            "period",
            "periodic_from",
            "periods_seen",
            "status",
            "evidence",
            "period_values",
            "period_pattern",
        ],
        filter: &[],
    },
    only: &[],
};

/// Grundy values over the two shape parameters.
pub static GRUNDY_HEATMAP: View = View {
    name: "grundy_heatmap",
    title: "Grundy values over the two shape parameters",
    dataset: "positions",
    kind: ViewKind::Heatmap {
        x: "y",
        y: "x",
        value: "grundy",
        facet: Some("shape_rule"),
    },
    only: &[],
};

/// A board with its winning first move highlighted; a P-position has none.
pub static BOARD_PICTURE: View = View {
    name: "board_picture",
    title: "Board and its winning first move (none when P: every move loses)",
    dataset: "cells",
    kind: ViewKind::Cells {
        x: "px",
        y: "py",
        value: "cell",
        facet: Some("picture"),
    },
    only: &[],
};

/// P-positions per number of pieces (bars).
pub static P_COUNTS: View = View {
    name: "p_counts",
    title: "P-positions per number of pieces k",
    dataset: "counts",
    kind: ViewKind::Bars {
        x: "pieces_left",
        y: "p_positions",
        series: Some("play"),
        facet: Some("label"),
    },
    only: &[],
};

/// Report 002's table: P-positions per number of pieces.
pub static COUNT_TABLE: View = View {
    name: "count_table",
    title: "P-positions per number of pieces k (\"THERE ARE T CHAMPIONS WITH k CHESSMEN\")",
    dataset: "counts",
    kind: ViewKind::Grid {
        row: "pieces_left",
        column: "play",
        cell: "p_positions",
        empty: "",
        facet: Some("label"),
    },
    only: &[],
};

/// The distribution of Grundy values over a hexagon enumeration.
pub static HEXAGON_VALUES: View = View {
    name: "hexagon_values",
    title: "Grundy values of every hexagon (one per symmetry class): how many, and the smallest",
    dataset: "hexagon_values",
    kind: ViewKind::Listing {
        columns: &[
            "enumeration",
            "grundy",
            "class",
            "boards",
            "share",
            "smallest_board",
            "smallest_pieces",
        ],
        filter: &[],
    },
    only: &[],
};

/// Per side bound: the largest value, its smallest board, the P-positions.
pub static HEXAGON_BOUNDS: View = View {
    name: "hexagon_bounds",
    title: "Hexagons with every side ≤ L: largest Grundy value, its smallest board, P-positions",
    dataset: "hexagon_bounds",
    kind: ViewKind::Listing {
        columns: &[
            "enumeration",
            "max_side",
            "hexagons",
            "max_grundy",
            "max_board",
            "max_board_pieces",
            "p_positions",
            "nonsymmetric",
            "nonsymmetric_p",
            "nonsymmetric_p_share",
            "symmetric_p",
        ],
        filter: &[],
    },
    only: &[],
};

/// The largest Grundy value against the side bound.
pub static MAX_GRUNDY: View = View {
    name: "max_grundy",
    title: "Largest Grundy value among the hexagons with every side ≤ L",
    dataset: "hexagon_bounds",
    kind: ViewKind::Scatter {
        x: "max_side",
        y: "max_grundy",
        filter: None,
        facet: Some("enumeration"),
    },
    only: &[],
};

/// The P-positions among the hexagons that are not point-symmetric.
pub static HEXAGON_P_POSITIONS: View = View {
    name: "hexagon_p_positions",
    title: "P-positions among the hexagons that are not point-symmetric, fewest pieces first",
    dataset: "hexagon_p_positions",
    kind: ViewKind::Listing {
        columns: &["enumeration", "board", "largest_side", "pieces"],
        filter: &[],
    },
    only: &[],
};

/// Every lines view.
pub static VIEWS: &[&View] = &[
    &WINNING_MOVES,
    &CLASS_COUNTS,
    &CLASS_TABLE,
    &PERIOD_TABLE,
    &GRUNDY_HEATMAP,
    &BOARD_PICTURE,
    &P_COUNTS,
    &COUNT_TABLE,
    &HEXAGON_VALUES,
    &HEXAGON_BOUNDS,
    &MAX_GRUNDY,
    &HEXAGON_P_POSITIONS,
];
