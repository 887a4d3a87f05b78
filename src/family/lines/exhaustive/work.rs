//! The solver's work counted from its plan without solving, for the cost
//! model ([`work`]; a test checks it against the word operations a solve
//! does).

use super::moves::{MAX_PIECES, Move, check_moves};
use super::numbering::{permute_moves, piece_order};
use super::plan::{Group, Plan, SIZES, top_bits};
use crate::game::Play;

/// The work of [`solve`](super::solve) on an `n`-piece board under `moves` and `play`, for
/// the cost model, counted from its plan without solving: word operations,
/// and whether its in-word moves have blockers (`take: maximal`: solved by
/// rounds to a fixpoint, as on boards under 20 pieces, where the other rules
/// look up a table). One
/// operation is a move applied to one word of 64 positions (a low part of a
/// pulled group over its sub-cube, a move the leaf loop examines), plus per
/// word one for the word itself and one pass of its in-word moves (the
/// chunk table's four lookups and the moves crossing chunks twice, or each
/// in-word move once; further rounds of the fixpoint are not counted).
/// `None` beyond [`MAX_PIECES`].
pub fn work(n: usize, moves: &[Move], play: Play) -> Option<(u64, bool)> {
    if n > MAX_PIECES || check_moves(n, moves, MAX_PIECES).is_err() {
        return None;
    }
    let full = (1u64 << n) - 1;
    let order = piece_order(n, moves, top_bits(n, SIZES) as usize);
    let moves = permute_moves(moves, &order, full);
    let plan = Plan::build(n, &moves, play, SIZES, false);
    let nh = n.saturating_sub(6) as u32;
    let rounds = plan.chunks.is_none() && plan.word_own_ops() > 1;
    Some((plan.word_ops(nh), rounds))
}

impl Plan {
    /// One word's own operations ([`work`]): one for the word, and one pass
    /// of its in-word moves (the chunk table's four lookups and the moves
    /// crossing chunks twice, or each in-word move once).
    pub(super) fn word_own_ops(&self) -> u64 {
        let pass = match &self.chunks {
            _ if self.inword.is_empty() && self.inword_blocked.is_empty() => 0,
            Some(c) => 4 + 2 * c.cross.len(),
            None => self.inword.len() + self.inword_blocked.len(),
        };
        1 + pass as u64
    }

    /// The word operations of the whole table ([`work`]), from the plan.
    pub(super) fn word_ops(&self, nh: u32) -> u64 {
        let words = 1u64 << nh;
        let routes = |g: &Group| u64::from(g.ident) + g.lows.len() as u64;
        let pulled: u64 = self
            .far
            .iter()
            .chain(self.by_top.iter().flatten())
            .map(|g| (words >> (g.mh | g.bh).count_ones()) * routes(g))
            .sum();
        let per_leaf = words >> self.leaf_bits;
        let leaf: u64 = self
            .leaf_range
            .iter()
            .map(|&(s, e)| u64::from(e - s) * per_leaf)
            .sum();
        pulled + leaf + words * self.word_own_ops()
    }
}
