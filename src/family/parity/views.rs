//! The views `parity` draws, declared once.

use crate::view::{View, ViewKind};

/// Report 001 §6's table of safe states per side.
pub static SAFE_STATES_GRID: View = View {
    name: "safe_states_grid",
    title: "Safe states (a, b, r mod M) of each side (report 001 §6)",
    dataset: "safe_lists",
    kind: ViewKind::Grid {
        row: "heading",
        column: "side",
        cell: "states",
        empty: "—",
        facet: Some("variant"),
    },
    only: &[],
};

/// Safe states per side against the article's lists.
pub static SAFE_LISTS: View = View {
    name: "safe_lists",
    title: "Safe states per side: all, absolute, common; the article's list",
    dataset: "safe_lists",
    kind: ViewKind::Listing {
        columns: &[
            "variant",
            "take",
            "M",
            "preperiod",
            "side",
            "states",
            "absolute",
            "common",
            "exceptions",
            "article",
            "matches_article",
        ],
        filter: &[],
    },
    only: &[],
};

/// One row per safe state.
pub static SAFE_STATES: View = View {
    name: "safe_states",
    title: "Safe states, one row each",
    dataset: "safe_states",
    kind: ViewKind::Listing {
        columns: &[
            "variant",
            "take",
            "side",
            "a_parity",
            "b_parity",
            "r_mod",
            "M",
            "preperiod",
            "state",
            "kind",
        ],
        filter: &[],
    },
    only: &[],
};

/// The modulus against report 001's claim.
pub static MODULI: View = View {
    name: "moduli",
    title: "Modulus M (minimal period in r) against report 001's claim",
    dataset: "moduli",
    kind: ViewKind::Listing {
        columns: &[
            "variant",
            "take",
            "k",
            "period",
            "preperiod",
            "status",
            "claimed_M",
            "claim",
            "states_claim",
            "start",
        ],
        filter: &[],
    },
    only: &[],
};

/// The modulus by take set and variant.
pub static MODULUS_GRID: View = View {
    name: "modulus_grid",
    title: "Modulus M by take set and variant",
    dataset: "moduli",
    kind: ViewKind::Grid {
        row: "take",
        column: "variant",
        cell: "closed_form",
        empty: "",
        facet: None,
    },
    only: &[],
};

/// The modulus over k.
pub static MODULUS_BARS: View = View {
    name: "modulus_bars",
    title: "Modulus M over k (takes 1..k)",
    dataset: "moduli",
    kind: ViewKind::Bars {
        x: "k",
        y: "period",
        series: Some("variant"),
        facet: None,
    },
    only: &[],
};

/// Who wins along the pile, one strip per hand parities and mover.
pub static PATTERN: View = View {
    name: "pattern",
    title: "Who wins, over the pile size r (one strip per hand parities and mover)",
    dataset: "pattern",
    kind: ViewKind::Strip {
        row: "strip",
        x: "r",
        value: "winner",
        facet: Some("rule"),
    },
    only: &[],
};

/// Positions with real hand sizes.
pub static POSITIONS: View = View {
    name: "positions",
    title: "Positions: winner for each first mover, winning moves, class",
    dataset: "positions",
    kind: ViewKind::Listing {
        columns: &[
            "variant",
            "take",
            "a",
            "b",
            "r",
            "mover",
            "winner",
            "winning_takes",
            "leads_to",
            "state_class",
        ],
        filter: &[],
    },
    only: &[],
};

/// The outcome table (small sweeps only).
pub static OUTCOME_TABLE: View = View {
    name: "outcome_table",
    title: "Outcome table",
    dataset: "outcome",
    kind: ViewKind::Listing {
        columns: &[
            "variant",
            "take",
            "r",
            "a_parity",
            "b_parity",
            "mover",
            "winner",
            "winning_takes",
            "state_class",
        ],
        filter: &[],
    },
    only: &[],
};

/// Every parity view.
pub static VIEWS: &[&View] = &[
    &SAFE_STATES_GRID,
    &SAFE_LISTS,
    &SAFE_STATES,
    &MODULI,
    &MODULUS_GRID,
    &MODULUS_BARS,
    &PATTERN,
    &POSITIONS,
    &OUTCOME_TABLE,
];
