//! The kernels this family's cases state their work in ([`Kernel`]): each
//! one's rate is measured by `nimlab calibrate` with the probes the family
//! declares ([`crate::family::Family::probes`]).

use crate::cost::Kernel;

/// The chord solver keeping a board's moves: the board's chords (each looked up, its two parts' values from the memo or the table), with the board's row and winning runs made.
pub(crate) const CHORD_LOOKUPS: Kernel =
    Kernel::new("chord-lookups", "chords of boards with their moves kept");
/// The census of a hexagon enumeration: boards, each one value read from the chord table or the memo and counted.
pub(crate) const CHORD_CENSUS: Kernel = Kernel::new("chord-census", "boards counted by the census");
/// The chord solver asked for values only (sequences keeping periods or class counts) from a thin chord table (lines beyond the memo's sides): pieces of each board × 4.
pub(crate) const CHORD_VALUES: Kernel = Kernel::new("chord-values", "pieces × 4 of boards valued");
/// The chord solver's memo filled on demand (a dense table): chords evaluated, every chord of each class of hexagons inside a board (`memofill`) and of each board whose moves are kept.
pub(crate) const CHORD_MEMO: Kernel = Kernel::new("chord-memo", "chords evaluated");
/// [`CHORD_MEMO`] with the hashed memo (boards with lines too long for the dense table).
pub(crate) const CHORD_MEMO_HASHED: Kernel = Kernel::new("chord-memo-hashed", "chords evaluated");
/// The chord table built bottom-up for a big sweep: its cells.
pub(crate) const CHORD_TABLE: Kernel = Kernel::new("chord-table", "table cells × extent");
/// The component solver: the moves inside each class of connected sub-boards it memoises, and 12 per class for its canonical form (`subboards`, counted without solving).
pub(crate) const COMPONENT_MOVES: Kernel =
    Kernel::new("component-moves", "moves in memoised components");
/// The exhaustive analysis: word operations (a move applied to a word of 64 positions, and each word's own; `exhaustive::work`), its in-word moves by the chunk table (`take: {max: P}`, `any`).
pub(crate) const EXHAUSTIVE: Kernel = Kernel::new("exhaustive", "word operations");
/// [`EXHAUSTIVE`] with its in-word moves solved by rounds to a fixpoint (`take: maximal`, boards under 20 pieces): the same unit, each costing more.
pub(crate) const EXHAUSTIVE_ROUNDS: Kernel = Kernel::new("exhaustive-rounds", "word operations");
