//! Move rules (GAMES.md §3): which runs a player may remove, as bit-mask moves
//! on a board's pieces.

use super::board::{Board, DIRS, Pt};

/// Which runs may be removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Take {
    /// One maximal run (report 000): a run that cannot be extended at either end.
    Maximal,
    /// Any run of 1 to P pieces (report 002).
    Max(u32),
    /// Any run of any length.
    Any,
}

impl Take {
    /// The `take` column: `maximal`, `max:3`, `any`.
    pub fn text(self) -> String {
        match self {
            Take::Maximal => "maximal".into(),
            Take::Max(p) => format!("max:{p}"),
            Take::Any => "any".into(),
        }
    }
}

/// Every kind of rule, with the small run limits the tests try.
#[cfg(test)]
pub(crate) const SAMPLE_RULES: [Take; 5] = [
    Take::Maximal,
    Take::Max(1),
    Take::Max(2),
    Take::Max(3),
    Take::Any,
];

/// A move on a board: remove the run `mask`; legal in position `x` (bit i =
/// piece i present) iff `x & mask == mask && x & blockers == 0` (the blockers
/// are the board points just beyond a maximal run's two ends).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardMove {
    /// The run's pieces.
    pub mask: u64,
    /// Points that must be empty (maximal runs only).
    pub blockers: u64,
    /// Direction index into [`DIRS`].
    pub dir: u8,
    /// First piece of the run (lowest along the direction).
    pub start: u16,
    /// Number of pieces.
    pub len: u16,
}

impl BoardMove {
    /// Is the move legal in `x`?
    #[inline]
    pub fn legal(&self, x: u64) -> bool {
        x & self.mask == self.mask && x & self.blockers == 0
    }
}

fn add(p: Pt, d: Pt, k: i32) -> Pt {
    (p.0 + k * d.0, p.1 + k * d.1)
}

/// Every move of a board of at most 64 pieces under a rule. Runs of one piece
/// are listed once (direction 0) for `max`/`any`; for `maximal` once per
/// distinct blocker set (a single piece is maximal in a direction exactly when
/// both neighbours along it are absent).
pub fn moves(board: &Board, take: Take) -> Vec<BoardMove> {
    assert!(board.len() <= 64, "bit-mask moves need at most 64 pieces");
    let mut out: Vec<BoardMove> = Vec::new();
    let bit = |p: Pt| board.index(p).map_or(0u64, |i| 1u64 << i);
    for (d, &dir) in DIRS.iter().enumerate() {
        for (i, &p) in board.points.iter().enumerate() {
            let before = bit(add(p, dir, -1));
            let mut mask = 0u64;
            let mut len = 0u32;
            loop {
                let c = add(p, dir, len as i32);
                let Some(ci) = board.index(c) else { break };
                mask |= 1u64 << ci;
                len += 1;
                let emit = match take {
                    Take::Max(lim) => len <= lim && (len > 1 || d == 0),
                    Take::Any => len > 1 || d == 0,
                    Take::Maximal => true,
                };
                if let Take::Max(lim) = take
                    && len > lim
                {
                    break;
                }
                if emit {
                    let blockers = if take == Take::Maximal {
                        before | bit(add(p, dir, len as i32))
                    } else {
                        0
                    };
                    let m = BoardMove {
                        mask,
                        blockers,
                        dir: d as u8,
                        start: i as u16,
                        len: len as u16,
                    };
                    if len > 1
                        || !out
                            .iter()
                            .any(|o| o.mask == m.mask && o.blockers == m.blockers)
                    {
                        out.push(m);
                    }
                }
            }
        }
    }
    out
}

/// The cells of a run, in order along its direction.
pub fn run_cells(board: &Board, m: &BoardMove) -> Vec<Pt> {
    let p = board.points[m.start as usize];
    (0..m.len as i32)
        .map(|k| add(p, DIRS[m.dir as usize], k))
        .collect()
}

/// A run as text: `(q,r)` for one piece, `(dq,dr):(q0,r0)..(q1,r1)` otherwise.
pub fn run_text(cells: &[Pt], dir: usize) -> String {
    match cells {
        [c] => format!("({},{})", c.0, c.1),
        _ => {
            let (a, b) = (cells[0], cells[cells.len() - 1]);
            let d = DIRS[dir];
            format!("({},{}):({},{})..({},{})", d.0, d.1, a.0, a.1, b.0, b.1)
        }
    }
}

/// The distinct legal moves of `x` (one per removed set), in list order.
pub fn legal_distinct(all: &[BoardMove], x: u64) -> Vec<&BoardMove> {
    let mut out: Vec<&BoardMove> = Vec::new();
    for m in all {
        if m.legal(x) && !out.iter().any(|o| o.mask == m.mask) {
            out.push(m);
        }
    }
    out
}
