//! The views `takeaway` draws, declared once.

use crate::view::{TileColumns, View, ViewKind};

/// Report 004's one-heap tables: rows N, columns the rule, cells the winning takes.
pub static WINNING_TABLE: View = View {
    name: "winning_table",
    title: "Winning first moves (E: P-position, no winning move)",
    dataset: "positions",
    kind: ViewKind::Grid {
        row: "N",
        column: "rule",
        cell: "winning_moves",
        empty: "E",
        facet: None,
    },
    only: &[("heaps", "1")],
};

/// The loss sets, one row per rule.
pub static LOSS_SETS: View = View {
    name: "loss_sets",
    title: "Loss sets L (P-positions)",
    dataset: "loss_sets",
    kind: ViewKind::Listing {
        columns: &["rule", "N_min", "N_max", "count", "loss_set"],
        filter: &[],
    },
    only: &[],
};

/// The period table of one-heap sequences.
pub static PERIOD_TABLE: View = View {
    name: "period_table",
    title: "Periods (minimal period, then minimal preperiod)",
    dataset: "periods",
    kind: ViewKind::Listing {
        columns: &[
            "rule",
            "values",
            "preperiod",
            "period",
            "status",
            "loss_residues",
            "period_values",
            "period_pattern",
            "closed_form",
            "evidence",
        ],
        filter: &[],
    },
    only: &[],
};

/// Report 004's two-heap tables: which heap, how many (`A3`, `B4`).
pub static MOVE_TABLE: View = View::move_table(
    "Winning moves (A3: take 3 from heap A; E: P-position)",
    "positions",
    "winning_moves",
);

/// Report 004's scatter plots of two-heap loss sets.
pub static LOSS_SCATTER: View = View::loss_scatter("P-positions (N1, N2)", "positions");

/// The P-positions of several heaps.
pub static P_POSITIONS: View = View {
    name: "p_positions",
    title: "P-positions",
    dataset: "positions",
    kind: ViewKind::Listing {
        columns: &["rule", "N", "N1", "N2", "N3", "N4", "N5", "N6"],
        filter: &[("outcome", "P")],
    },
    only: &[],
};

/// Every position of several heaps.
pub static POSITIONS_TABLE: View = View {
    name: "positions_table",
    title: "Positions",
    dataset: "positions",
    kind: ViewKind::Listing {
        columns: &[
            "rule",
            "N",
            "N1",
            "N2",
            "N3",
            "N4",
            "N5",
            "N6",
            "outcome",
            "grundy",
            "winning_moves",
        ],
        filter: &[],
    },
    only: &[],
};

/// The lattice of each loss set: the table per rule family.
pub static LATTICE_TABLE: View = View {
    name: "lattice_table",
    title: "Lattices of the loss sets (Hermite normal form ⟨(p,0), (a,q)⟩)",
    dataset: "lattices",
    kind: ViewKind::Listing {
        columns: &[
            "rule",
            "take_min",
            "take_max",
            "plane",
            "frame",
            "status",
            "lattice",
            "region",
            "staircase",
            "tile_points",
            "tile_members",
            "density",
            "box_x",
            "box_y",
            "tiles",
            "margin_x",
            "margin_y",
        ],
        filter: &[],
    },
    only: &[],
};

const TILE: TileColumns = TileColumns {
    x: "tile_x",
    y: "tile_y",
    p: "p",
    a: "a",
    q: "q",
};

/// The loss set with its tile and lattice vectors.
pub static LATTICE_TILES: View = View {
    name: "lattice_tiles",
    title: "P-positions, the tile (red) and the lattice vectors (p,0), (a,q); shaded: periodic region",
    dataset: "lattices",
    kind: ViewKind::Pattern {
        points: "points",
        region: "periodic_region",
        tile: Some(TILE),
        facet: Some("set"),
    },
    only: &[],
};

/// The preperiod region of each loss set.
pub static PREPERIOD_REGION: View = View {
    name: "preperiod_region",
    title: "Preperiod region (white; its P-positions orange) and periodic region (shaded)",
    dataset: "lattices",
    kind: ViewKind::Pattern {
        points: "points",
        region: "periodic_region",
        tile: None,
        facet: Some("set"),
    },
    only: &[],
};

/// Every takeaway view.
pub static VIEWS: &[&View] = &[
    &WINNING_TABLE,
    &LOSS_SETS,
    &PERIOD_TABLE,
    &MOVE_TABLE,
    &LOSS_SCATTER,
    &P_POSITIONS,
    &POSITIONS_TABLE,
    &LATTICE_TABLE,
    &LATTICE_TILES,
    &PREPERIOD_REGION,
];

/// The views of a sweep with `heaps` heaps (and the `lattices` dataset
/// when asked for).
pub fn for_heaps(heaps: usize, lattices: bool) -> Vec<&'static View> {
    let mut v: Vec<&'static View> = match heaps {
        1 => vec![&WINNING_TABLE, &LOSS_SETS, &PERIOD_TABLE],
        2 => vec![&MOVE_TABLE, &LOSS_SCATTER, &P_POSITIONS, &POSITIONS_TABLE],
        _ => vec![&P_POSITIONS, &POSITIONS_TABLE],
    };
    if lattices {
        v.extend([&LATTICE_TABLE, &LATTICE_TILES, &PREPERIOD_REGION]);
    }
    v
}
