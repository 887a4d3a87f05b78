//! The reference: an octal (or hexadecimal, or `!`) game as a plain
//! [`Game`], a position the sorted list of its heaps, every move of every
//! heap read from the digits here; the shared brute-force
//! solvers ([`crate::game::BruteGrundy`], [`crate::game::BruteOutcome`])
//! search it with no nim-sum and no shortcut.

use super::code::Code;
use crate::game::Game;

/// A position: the code and the heaps (sorted, zeros dropped).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Heaps {
    /// The rule.
    pub code: Code,
    /// Heap sizes, ascending, none zero.
    pub heaps: Vec<u64>,
}

impl Heaps {
    /// One heap of `n`.
    pub fn one(code: &Code, n: u64) -> Heaps {
        Heaps {
            code: code.clone(),
            heaps: if n > 0 { vec![n] } else { vec![] },
        }
    }
}

impl Game for Heaps {
    type Move = (usize, u64, u64, u64);
    fn moves(&self) -> Vec<(Self::Move, Self)> {
        let mut out = Vec::new();
        for (j, &h) in self.heaps.iter().enumerate() {
            for i in 0..=h {
                let d = self.code.digit(i as usize);
                let r = h - i;
                let mut leave = |parts: Vec<u64>, a: u64, b: u64| {
                    let mut next = self.heaps.clone();
                    next.remove(j);
                    next.extend(parts);
                    next.sort_unstable();
                    out.push((
                        (j, i, a, b),
                        Heaps {
                            code: self.code.clone(),
                            heaps: next,
                        },
                    ));
                };
                if i > 0 && d & 1 != 0 && r == 0 {
                    leave(vec![], 0, 0);
                }
                if i > 0 && d & 2 != 0 && r > 0 {
                    leave(vec![r], 0, r);
                }
                // `!`: the heaps left must all differ.
                let u = self.code.unequal(i as usize);
                if d & 4 != 0 {
                    for a in 1..r {
                        if a < r - a || (a == r - a && !u) {
                            leave(vec![a, r - a], a, r - a);
                        }
                    }
                }
                // Hexadecimal bit 8: three non-empty heaps a ≤ b ≤ c.
                if d & 8 != 0 {
                    for a in 1..r {
                        for b in 1..r - a {
                            let c = r - a - b;
                            let sorted = a <= b && b <= c;
                            if sorted && (!u || (a < b && b < c)) {
                                leave(vec![a, b, c], a, c);
                            }
                        }
                    }
                }
            }
        }
        out
    }
}
