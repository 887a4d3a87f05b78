//! What every family shares: the play convention, and the *reference* solvers —
//! plain memoised recursion over a game tree given by [`Game::moves`]. They are
//! slow and obviously correct; every fast path in a family is tested against
//! them on small cases.

use std::collections::HashMap;
use std::hash::Hash;

use crate::data::{Column, Dtype, Role};

/// Who wins when the player to move has no move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Play {
    /// A player who cannot move loses.
    Normal,
    /// A player who cannot move wins.
    Misere,
}

impl Play {
    /// `normal` or `misere` (the spelling used in specs and data).
    pub fn as_str(self) -> &'static str {
        match self {
            Play::Normal => "normal",
            Play::Misere => "misere",
        }
    }
    /// Parses `normal` / `misere` (also accepts `misère`).
    pub fn parse(s: &str) -> Option<Play> {
        match s {
            "normal" => Some(Play::Normal),
            "misere" | "misère" => Some(Play::Misere),
            _ => None,
        }
    }
}

/// The words a spec may use for [`Play`].
pub const PLAY_WORDS: &[&str] = &["normal", "misere", "misère"];

/// The vocabulary of the `play` column.
pub const PLAYS: &[&str] = &["normal", "misere"];

impl Play {
    /// Its code in [`PLAYS`].
    pub fn code(self) -> u8 {
        match self {
            Play::Normal => 0,
            Play::Misere => 1,
        }
    }
}

/// The vocabulary of every `outcome` column.
pub const OUTCOMES: &[&str] = &["P", "N"];

/// Code of `P` in [`OUTCOMES`].
pub const P: u8 = 0;
/// Code of `N` in [`OUTCOMES`].
pub const N: u8 = 1;

/// The outcome code of a position: `P` when the player to move loses.
pub fn outcome_code(is_p: bool) -> u8 {
    if is_p { P } else { N }
}

/// The `play` column, shared by every family.
pub const PLAY_COLUMN: Column = Column::new(
    "play",
    Dtype::Enum(PLAYS),
    Role::Param,
    "`normal` (who cannot move loses) or `misere` (who cannot move wins)",
);

/// The `outcome` column, shared by every family.
pub const OUTCOME_COLUMN: Column = Column::new(
    "outcome",
    Dtype::Enum(OUTCOMES),
    Role::Outcome,
    "`P`: the player to move loses with perfect play; `N`: the player to move wins",
);

/// The `grundy` column, shared by every family.
pub const GRUNDY_COLUMN: Column = Column::new(
    "grundy",
    Dtype::Int,
    Role::Result,
    "Grundy value (normal play; null where none is defined, e.g. misère)",
)
.nullable();

/// The heap-size columns of heap games' position datasets, shared by
/// `takeaway` and `rules`: `N` (one heap) and `N1`..`N6` (several).
static HEAP_SIZES: [Column; 7] = [
    Column::new(
        "N",
        Dtype::Int,
        Role::Position,
        "the heap size, with one heap; null with several",
    )
    .nullable(),
    Column::new(
        "N1",
        Dtype::Int,
        Role::Position,
        "heap A's size, with several heaps; null with one",
    )
    .nullable(),
    Column::new(
        "N2",
        Dtype::Int,
        Role::Position,
        "heap B's size; null with fewer heaps",
    )
    .nullable(),
    Column::new(
        "N3",
        Dtype::Int,
        Role::Position,
        "heap C's size; null with fewer heaps",
    )
    .nullable(),
    Column::new(
        "N4",
        Dtype::Int,
        Role::Position,
        "heap D's size; null with fewer heaps",
    )
    .nullable(),
    Column::new(
        "N5",
        Dtype::Int,
        Role::Position,
        "heap E's size; null with fewer heaps",
    )
    .nullable(),
    Column::new(
        "N6",
        Dtype::Int,
        Role::Position,
        "heap F's size; null with fewer heaps",
    )
    .nullable(),
];

/// The heap-size columns for up to `d` heaps (1 to 6): `N`, `N1`..`Nd`, a
/// group of a dataset ([`crate::data::Dataset::groups`]).
pub const fn heap_size_columns(d: usize) -> &'static [Column] {
    HEAP_SIZES.split_at(d + 1).0
}

/// A game given by its moves: the reference for every fast solver.
pub trait Game: Clone + Eq + Hash {
    /// A move, as shown to the user.
    type Move: Clone;
    /// Every legal move and the position it leads to.
    fn moves(&self) -> Vec<(Self::Move, Self)>;
}

/// Reference outcome solver: `true` when the player to move loses (a P-position).
pub struct BruteOutcome<G: Game> {
    play: Play,
    memo: HashMap<G, bool>,
}

impl<G: Game> BruteOutcome<G> {
    /// A solver for the given convention.
    pub fn new(play: Play) -> Self {
        BruteOutcome {
            play,
            memo: HashMap::new(),
        }
    }
    /// Is `g` a P-position?
    pub fn is_p(&mut self, g: &G) -> bool {
        if let Some(&v) = self.memo.get(g) {
            return v;
        }
        let moves = g.moves();
        let v = if moves.is_empty() {
            // No move: the mover loses in normal play (P) and wins in misère (N).
            self.play == Play::Normal
        } else {
            !moves.iter().any(|(_, c)| self.is_p(c))
        };
        self.memo.insert(g.clone(), v);
        v
    }
    /// The moves of `g` that lead to P-positions.
    pub fn winning_moves(&mut self, g: &G) -> Vec<G::Move> {
        g.moves()
            .into_iter()
            .filter(|(_, c)| self.is_p(c))
            .map(|(m, _)| m)
            .collect()
    }
}

/// Reference Grundy solver (normal play): `G(x) = mex { G(y) }`.
pub struct BruteGrundy<G: Game> {
    memo: HashMap<G, u32>,
}

impl<G: Game> Default for BruteGrundy<G> {
    fn default() -> Self {
        BruteGrundy {
            memo: HashMap::new(),
        }
    }
}

impl<G: Game> BruteGrundy<G> {
    /// The Grundy value of `g`.
    pub fn grundy(&mut self, g: &G) -> u32 {
        if let Some(&v) = self.memo.get(g) {
            return v;
        }
        let mut seen: Vec<u32> = g.moves().iter().map(|(_, c)| self.grundy(c)).collect();
        seen.sort_unstable();
        seen.dedup();
        let v = mex_sorted(&seen);
        self.memo.insert(g.clone(), v);
        v
    }
}

/// The minimum excluded value of a sorted, deduplicated list.
pub fn mex_sorted(v: &[u32]) -> u32 {
    let mut m = 0;
    for &x in v {
        if x == m {
            m += 1;
        } else if x > m {
            break;
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Subtraction game {1,2} on one heap, as a tiny `Game`.
    #[derive(Clone, PartialEq, Eq, Hash)]
    struct Sub(u32);
    impl Game for Sub {
        type Move = u32;
        fn moves(&self) -> Vec<(u32, Sub)> {
            [1, 2]
                .iter()
                .filter(|&&t| t <= self.0)
                .map(|&t| (t, Sub(self.0 - t)))
                .collect()
        }
    }

    #[test]
    fn hand_checked_values() {
        // By hand: G = 0,1,2,0,1,2,...; P-positions (normal) are multiples of 3.
        let mut g = BruteGrundy::default();
        let vals: Vec<u32> = (0..7).map(|n| g.grundy(&Sub(n))).collect();
        assert_eq!(vals, vec![0, 1, 2, 0, 1, 2, 0]);
        // Misère: 0 is N (no move, mover wins); 1 is P (must take the last); 2 → take 1 → 1: N.
        let mut m = BruteOutcome::new(Play::Misere);
        let ps: Vec<bool> = (0..8).map(|n| m.is_p(&Sub(n))).collect();
        assert_eq!(
            ps,
            vec![false, true, false, false, true, false, false, true]
        );
        assert_eq!(m.winning_moves(&Sub(3)), vec![2]);
        assert_eq!(mex_sorted(&[0, 1, 3]), 2);
    }
}
