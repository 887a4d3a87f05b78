//! A group of boards solved together under one rule: what a case holds
//! and what the sweep's parameters expand into.

use super::board::Shape;
use super::census;

/// Boards solved together (a sequence along one parameter, a block of an
/// enumeration, or one board).
#[derive(Clone, Debug)]
pub struct Group {
    /// The boards.
    pub shapes: Vec<Shape>,
    /// Label (sequence name such as `A(2,y)`, `largest side 7`, or the board name).
    pub label: String,
    /// The parameter the sequence runs along (`y`, `n`, `p3`…) and each board's value of it.
    pub along: Option<(String, Vec<i64>)>,
    /// A block of a `hexagons:` enumeration: the whole enumeration (its
    /// census is one more case).
    pub census: Option<census::Enumeration>,
}
