//! The chord solver: `take: maximal`, normal play, on hexagon-family boards
//! of any size. Removing a maximal run of a convex hexagon cuts it along a
//! chord into two smaller hexagons, so a board's Grundy value follows from
//! its sub-hexagons'.
//!
//! By job: [`hexsum`] (the recursion, memoised by side tuples: the solver
//! the family's cases call), [`chordtab`] (the same values bottom-up into one
//! dense table), [`memofill`] (the memo's work counted without solving, for
//! the cost model and its probes), [`sequences`] (report 000's board
//! sequences far along, from one thin table).

pub mod chordtab;
pub(crate) mod hexsum;
pub(crate) mod memofill;
pub mod sequences;
