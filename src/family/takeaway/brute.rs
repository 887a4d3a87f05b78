//! The reference: take-away positions as a plain game tree, solved by the
//! generic memoised recursion of [`crate::game`]. No windows, no XOR, no codes.

use std::sync::Arc;

use crate::game::Game;

/// A position of the take-away game with its full joint state.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    /// Heap sizes.
    pub heaps: Vec<u32>,
    /// The opponent's last take (only with `no_repeat`).
    pub last: Option<u32>,
    /// The take set (sorted).
    pub takes: Arc<[u32]>,
    /// The no-repeat rule.
    pub no_repeat: bool,
}

impl Game for Position {
    type Move = (usize, u32);
    fn moves(&self) -> Vec<((usize, u32), Position)> {
        let mut out = Vec::new();
        for (i, &h) in self.heaps.iter().enumerate() {
            for &t in self.takes.iter() {
                if t > h || (self.no_repeat && self.last == Some(t)) {
                    continue;
                }
                let mut heaps = self.heaps.clone();
                heaps[i] -= t;
                let last = if self.no_repeat { Some(t) } else { None };
                out.push((
                    (i, t),
                    Position {
                        heaps,
                        last,
                        takes: self.takes.clone(),
                        no_repeat: self.no_repeat,
                    },
                ));
            }
        }
        out
    }
}
