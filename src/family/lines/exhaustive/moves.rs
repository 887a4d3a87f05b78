//! The kernel's moves: a run and its blockers as bit masks, and the check
//! every entry point makes of a board's moves.

use anyhow::{Result, bail};

use crate::family::lines::rules::BoardMove;

/// The largest board the whole-table `solve` accepts (2^40 bits = 128 GiB,
/// refused by callers that check `memory_bytes` well before that).
pub const MAX_PIECES: usize = 40;

/// One move: legal in `x` iff `x & mask == mask && x & blockers == 0`; it leads
/// to `x ^ mask`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The pieces removed (non-empty).
    pub mask: u64,
    /// Cells that must be empty (`take: maximal`: the cells just beyond the
    /// run's ends); 0 for `take: {max: P}` and `take: any`.
    pub blockers: u64,
}

/// The exhaustive kernel's view of a move: the run and its blockers.
impl From<&BoardMove> for Move {
    fn from(m: &BoardMove) -> Self {
        Move {
            mask: m.mask,
            blockers: m.blockers,
        }
    }
}

/// Refuses boards above `max` pieces, empty masks and pieces ≥ n.
pub(super) fn check_moves(n: usize, moves: &[Move], max: usize) -> Result<()> {
    if n > max {
        bail!("a board of {n} pieces is too big for exhaustive analysis (at most {max})");
    }
    let full = (1u64 << n) - 1;
    for m in moves {
        if m.mask == 0 {
            bail!("a move removes no piece");
        }
        if m.mask & !full != 0 {
            bail!(
                "a move names piece {} on a board of {n} pieces",
                63 - (m.mask & !full).leading_zeros()
            );
        }
    }
    Ok(())
}
