//! The views `octal` draws, declared once.

use crate::view::{View, ViewKind};

/// The nim-sequence strip: one strip per rule, a cell per heap size
/// coloured by its nim-value.
pub static NIM_STRIP: View = View {
    name: "nim_strip",
    title: "Nim-values G(N), one strip per code",
    dataset: "nim_values",
    kind: ViewKind::Strip {
        row: "rule",
        x: "N",
        value: "grundy",
        facet: None,
    },
    only: &[("play", "normal")],
};

/// The nim-values as a table: rows N, columns the rule.
pub static VALUE_TABLE: View = View {
    name: "value_table",
    title: "Nim-values G(N) (misère: P/N of one heap in `outcome`)",
    dataset: "nim_values",
    kind: ViewKind::Grid {
        row: "N",
        column: "rule",
        cell: "grundy",
        empty: "",
        facet: None,
    },
    only: &[("play", "normal")],
};

/// Winning moves of one heap: rows N, columns the rule.
pub static WINNING_TABLE: View = View {
    name: "winning_table",
    title: "Winning moves (2:1+3: take 2 leaving 1 and 3; E: P-position)",
    dataset: "nim_values",
    kind: ViewKind::Grid {
        row: "N",
        column: "rule",
        cell: "winning_splits",
        empty: "E",
        facet: None,
    },
    only: &[],
};

/// The period table.
pub static PERIOD_TABLE: View = View {
    name: "period_table",
    title: "Periods (normal play: proven by the octal periodicity theorem; misère: observed)",
    dataset: "periods",
    kind: ViewKind::Listing {
        columns: &[
            "rule",
            "kernel",
            "mask",
            "computed_to",
            "preperiod",
            "period",
            "status",
            "largest_value",
            "rare_count",
            "rare_values",
            "period_values",
            "period_pattern",
            "evidence",
        ],
        filter: &[],
    },
    only: &[],
};

/// Two heaps: the P-positions (N1, N2).
pub static LOSS_SCATTER: View =
    View::loss_scatter("P-positions (N1, N2): G(N1) = G(N2)", "positions");

/// The P-positions of several heaps.
pub static P_POSITIONS: View = View {
    name: "p_positions",
    title: "P-positions",
    dataset: "positions",
    kind: ViewKind::Listing {
        columns: &["rule", "N1", "N2", "N3"],
        filter: &[("outcome", "P")],
    },
    only: &[],
};

/// Every octal view.
pub static VIEWS: &[&View] = &[
    &NIM_STRIP,
    &VALUE_TABLE,
    &WINNING_TABLE,
    &PERIOD_TABLE,
    &LOSS_SCATTER,
    &P_POSITIONS,
];

/// The views of a sweep with `heaps` heaps, with or without normal play
/// (the nim-values' strip and table need it).
pub fn for_heaps(heaps: usize, normal: bool) -> Vec<&'static View> {
    match heaps {
        1 if normal => vec![&NIM_STRIP, &VALUE_TABLE, &WINNING_TABLE, &PERIOD_TABLE],
        1 => vec![&WINNING_TABLE, &PERIOD_TABLE],
        2 => vec![&LOSS_SCATTER, &P_POSITIONS],
        _ => vec![&P_POSITIONS],
    }
}
