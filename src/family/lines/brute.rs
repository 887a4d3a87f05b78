//! The references: positions of a board as a plain game tree whose moves are
//! found by walking the lattice (no precomputed move lists, no components, no
//! symmetry), solved by [`crate::game`]'s memoised recursion; and a plain
//! per-position exhaustive loop (one byte per position). Every fast path is
//! tested against these.

#[cfg(test)]
use std::hash::{Hash, Hasher};
#[cfg(test)]
use std::sync::Arc;

#[cfg(test)]
use super::board::{Board, DIRS, Pt};
#[cfg(test)]
use super::rules::Take;
#[cfg(test)]
use crate::game::{Game, Play};

/// A board and a rule, shared by all positions of a reference search.
#[cfg(test)]
#[derive(Debug)]
pub struct Geo {
    /// The board.
    pub board: Board,
    /// The rule.
    pub take: Take,
}

/// A position: which pieces of the board are present.
#[cfg(test)]
#[derive(Clone, Debug)]
pub struct Pos {
    /// Bit i set: piece i present.
    pub x: u64,
    /// Board and rule.
    pub geo: Arc<Geo>,
}

#[cfg(test)]
impl PartialEq for Pos {
    fn eq(&self, o: &Pos) -> bool {
        self.x == o.x
    }
}
#[cfg(test)]
impl Eq for Pos {}
#[cfg(test)]
impl Hash for Pos {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.x.hash(h);
    }
}

#[cfg(test)]
impl Pos {
    fn present(&self, p: Pt) -> bool {
        self.geo
            .board
            .index(p)
            .is_some_and(|i| self.x >> i & 1 == 1)
    }
}

#[cfg(test)]
impl Game for Pos {
    /// The removed pieces.
    type Move = u64;
    fn moves(&self) -> Vec<(u64, Pos)> {
        let b = &self.geo.board;
        let mut seen: Vec<u64> = Vec::new();
        for (i, &p) in b.points.iter().enumerate() {
            if self.x >> i & 1 == 0 {
                continue;
            }
            for d in DIRS {
                let step = |k: i32| (p.0 + k * d.0, p.1 + k * d.1);
                match self.geo.take {
                    Take::Maximal => {
                        // Only from the first piece of the run through p in this direction.
                        if self.present(step(-1)) {
                            continue;
                        }
                        let mut m = 0u64;
                        let mut k = 0;
                        while self.present(step(k)) {
                            m |= 1 << b.index(step(k)).unwrap();
                            k += 1;
                        }
                        seen.push(m);
                    }
                    Take::Max(_) | Take::Any => {
                        let lim = if let Take::Max(p) = self.geo.take {
                            p as i32
                        } else {
                            i32::MAX
                        };
                        let mut m = 0u64;
                        let mut k = 0;
                        while k < lim && self.present(step(k)) {
                            m |= 1 << b.index(step(k)).unwrap();
                            seen.push(m);
                            k += 1;
                        }
                    }
                }
            }
        }
        seen.sort_unstable();
        seen.dedup();
        seen.into_iter()
            .map(|m| {
                (
                    m,
                    Pos {
                        x: self.x & !m,
                        geo: self.geo.clone(),
                    },
                )
            })
            .collect()
    }
}

/// The plain exhaustive loop: for every position x (successors have smaller
/// numbers, so increasing order is safe), P iff no legal move reaches a
/// P-position; with no move at all the mover loses (normal) or wins (misère).
/// One byte per position.
#[cfg(test)]
pub fn exhaustive_bytes(n: usize, moves: &[(u64, u64)], play: Play) -> Vec<u8> {
    assert!(n <= 30, "the reference loop is for small boards");
    let size = 1usize << n;
    let mut p = vec![0u8; size];
    for x in 0..size as u64 {
        let mut any = false;
        let mut win = false;
        for &(mask, blockers) in moves {
            if x & mask == mask && x & blockers == 0 {
                any = true;
                if p[(x & !mask) as usize] == 1 {
                    win = true;
                    break;
                }
            }
        }
        p[x as usize] = if any {
            u8::from(!win)
        } else {
            u8::from(play == Play::Normal)
        };
    }
    p
}

/// Report 002's program (四(三) and its BASIC listing), replayed: the subsets
/// of an `n`-piece board in order of piece count; every one-piece position is
/// marked (a P-position in misère play), two-piece positions are skipped
/// (line 3020: none is marked), and a larger position is marked when no move
/// reaches a marked one. Returns the marked positions per piece count
/// `0..=n` (the empty board is never marked).
pub fn program_002_counts(n: usize, moves: &[(u64, u64)]) -> Vec<u64> {
    assert!(n <= 30, "the replay is for small boards");
    let mut marked = vec![false; 1usize << n];
    let mut counts = vec![0u64; n + 1];
    for (k, count) in counts.iter_mut().enumerate().skip(1) {
        // Every k-subset in increasing order (Gosper's hack).
        let mut x: u64 = (1u64 << k) - 1;
        while x < 1u64 << n {
            let m = match k {
                1 => true,
                2 => false,
                _ => !moves.iter().any(|&(mask, blockers)| {
                    x & mask == mask && x & blockers == 0 && marked[(x & !mask) as usize]
                }),
            };
            marked[x as usize] = m;
            *count += u64::from(m);
            let c = x & x.wrapping_neg();
            let r = x + c;
            x = (((r ^ x) >> 2) / c) | r;
        }
    }
    counts
}
