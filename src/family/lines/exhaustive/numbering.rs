//! The solver's piece numbering: which caller's piece becomes which bit of
//! a position (only speed depends on it, see the module docs), and moves and
//! positions carried into that numbering.

use super::moves::Move;
use super::plan::LEAF_BITS;

/// `x` with bit i moved to bit `order[i]`.
pub(super) fn permute(x: u64, order: &[u8]) -> u64 {
    let mut y = 0;
    let mut rest = x;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        y |= 1 << order[i];
        rest &= rest - 1;
    }
    y
}

/// Pieces wanted pairwise move-free at the bottom of the numbering: 6 in-word
/// bits and the leaf's word bits.
pub(super) const FREE_BOTTOM: usize = 6 + LEAF_BITS as usize;

/// The solver's piece numbering (`order[i]` for the caller's piece i).
///
/// Only speed depends on it. Moves among pieces 0..5 are solved inside a
/// word and moves touching pieces 6..9 word by word, so the bottom pieces are
/// pairwise *independent* (no move's mask or blockers holds two of them; on
/// the triangular lattice with runs of at most 3 that is one class of its
/// 3-colouring): their only in-word moves are single-piece ones, and every
/// multi-piece move is a whole-word loop. The `top` highest pieces pick the
/// block a position lies in; independent ones there mean that every move
/// crossing blocks flips a single block bit, so a block reads few other
/// blocks (from main memory, for big boards). The other pieces keep their
/// relative order in between.
pub(super) fn piece_order(n: usize, moves: &[Move], top: usize) -> Vec<u8> {
    let full = if n == 64 { !0 } else { (1u64 << n) - 1 };
    let adj = adjacency(n, moves);
    let bottom = independent(&adj, full, FREE_BOTTOM);
    let top = independent(&adj, full & !bottom, top);
    let mut order = vec![0u8; n];
    let mut next = 0u8;
    for part in [bottom, full & !bottom & !top, top] {
        for (i, o) in order.iter_mut().enumerate() {
            if part >> i & 1 == 1 {
                *o = next;
                next += 1;
            }
        }
    }
    order
}

/// `adj[i]`: the pieces sharing a move's mask or blockers with piece i.
pub(crate) fn adjacency(n: usize, moves: &[Move]) -> Vec<u64> {
    let full = if n == 64 { !0 } else { (1u64 << n) - 1 };
    let mut adj = vec![0u64; n];
    for m in moves {
        let s = (m.mask | m.blockers) & full;
        let mut rest = s;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            adj[i] |= s & !(1 << i);
            rest &= rest - 1;
        }
    }
    adj
}

/// Up to `want` pieces of `among`, pairwise not adjacent in `adj`: greedily,
/// the least connected next, from every start; the largest set found.
pub(super) fn independent(adj: &[u64], among: u64, want: usize) -> u64 {
    let mut best = 0u64;
    let mut starts = among;
    while starts != 0 && (best.count_ones() as usize) < want {
        let start = starts.trailing_zeros() as usize;
        starts &= starts - 1;
        let mut set = 1u64 << start;
        let mut avail = among & !adj[start] & !set;
        while (set.count_ones() as usize) < want && avail != 0 {
            let mut pick = (u32::MAX, 0);
            let mut rest = avail;
            while rest != 0 {
                let v = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let deg = (adj[v] & avail).count_ones();
                if deg < pick.0 {
                    pick = (deg, v);
                }
            }
            set |= 1 << pick.1;
            avail &= !adj[pick.1] & !(1 << pick.1);
        }
        if set.count_ones() > best.count_ones() {
            best = set;
        }
    }
    best
}

/// The moves in the solver's numbering `order` (blockers outside the board dropped).
pub(super) fn permute_moves(moves: &[Move], order: &[u8], full: u64) -> Vec<Move> {
    moves
        .iter()
        .map(|m| Move {
            mask: permute(m.mask, order),
            blockers: permute(m.blockers & full, order),
        })
        .collect()
}

/// The solver's numbering for a sliced solve ([`SliceKernel`](super::SliceKernel)): the pieces
/// `top` (the slice pieces) get the highest numbers, in the given order; the
/// pieces `bottom` the lowest (the six in-word pieces; may be empty), then
/// pairwise independent pieces up to ten as in [`piece_order`]; the
/// `local_top` pieces just below the slice pieces (a slice's block index)
/// are pairwise independent and independent of the slice pieces where
/// possible, so that a move from another slice reads one block.
pub(crate) fn slice_order(
    n: usize,
    moves: &[Move],
    top: &[usize],
    bottom: &[usize],
    local_top: usize,
) -> Vec<u8> {
    let full = if n == 64 { !0 } else { (1u64 << n) - 1 };
    let adj = adjacency(n, moves);
    let near = |set: u64| {
        let mut a = set;
        let mut rest = set;
        while rest != 0 {
            a |= adj[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        a
    };
    let s_set = top.iter().fold(0u64, |a, &i| a | 1 << i);
    let b_set = bottom.iter().fold(0u64, |a, &i| a | 1 << i);
    let more = independent(
        &adj,
        full & !s_set & !near(b_set),
        FREE_BOTTOM.saturating_sub(bottom.len()),
    );
    let block = independent(
        &adj,
        full & !s_set & !b_set & !more & !near(s_set),
        local_top,
    );
    let mut order = vec![0u8; n];
    let mut next = 0u8;
    for &i in bottom {
        order[i] = next;
        next += 1;
    }
    for part in [more, full & !s_set & !b_set & !more & !block, block] {
        for (i, o) in order.iter_mut().enumerate() {
            if part >> i & 1 == 1 {
                *o = next;
                next += 1;
            }
        }
    }
    for &i in top {
        order[i] = next;
        next += 1;
    }
    order
}

/// `x` in the solver's numbering `order` (bit i moved to bit `order[i]`).
pub(crate) fn to_solver(x: u64, order: &[u8]) -> u64 {
    permute(x, order)
}
