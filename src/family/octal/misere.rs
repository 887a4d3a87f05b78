//! Misère play. Nim-values do not add up in misère play, so a position is
//! the multiset of its heaps: outcomes are searched over multisets (heaps
//! on which no move is possible are dropped: they change nothing). A code
//! that never splits keeps one heap, and its outcomes are a plain recursion
//! over heap sizes, to any size.

use std::collections::HashMap;

use super::code::Code;

/// The largest total of tokens a misère position of a splitting code may
/// have (the multisets grow like the partitions of the total).
pub const SPLIT_CAP: u64 = 40;

/// Outcomes of multisets of heaps in misère play.
pub struct Misere {
    code: Code,
    memo: HashMap<Vec<u64>, bool>,
}

impl Misere {
    /// A solver for `code`.
    pub fn new(code: &Code) -> Misere {
        Misere {
            code: code.clone(),
            memo: HashMap::new(),
        }
    }
    /// The position as the solver keys it: live heaps, sorted.
    pub fn canonical(&self, heaps: &[u64]) -> Vec<u64> {
        let mut v: Vec<u64> = heaps
            .iter()
            .copied()
            .filter(|&h| self.code.live(h))
            .collect();
        v.sort_unstable();
        v
    }
    /// The positions one move leads to, with the heap moved (index in
    /// `heaps`) and the move; `heaps` as given (any order).
    pub fn options(&self, heaps: &[u64]) -> Vec<(usize, super::code::Split, Vec<u64>)> {
        let mut out = Vec::new();
        for (j, &h) in heaps.iter().enumerate() {
            for s in self.code.moves(h) {
                let mut next: Vec<u64> = heaps.to_vec();
                next.remove(j);
                next.extend(s.parts());
                out.push((j, s, next));
            }
        }
        out
    }
    /// Is `heaps` a P-position (the player to move loses)?
    pub fn is_p(&mut self, heaps: &[u64]) -> bool {
        let key = self.canonical(heaps);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let mut v = true;
        let mut any = false;
        for (j, &h) in key.iter().enumerate() {
            if j > 0 && key[j - 1] == h {
                continue;
            }
            for s in self.code.moves(h) {
                any = true;
                let mut next = key.clone();
                next.remove(j);
                next.extend(s.parts());
                if self.is_p(&next) {
                    v = false;
                    break;
                }
            }
            if !v {
                break;
            }
        }
        // No move at all: the player to move wins in misère play.
        let v = v && any;
        self.memo.insert(key, v);
        v
    }
}

/// The misère outcomes of one heap, `P` as `true`, for `0..=n_max`: by a
/// recursion over heap sizes when the code never splits, by the multiset
/// search otherwise (then `n_max` must be at most [`SPLIT_CAP`]).
pub fn one_heap(code: &Code, n_max: u64) -> Result<Vec<bool>, String> {
    if !code.splits() {
        let mut p: Vec<bool> = Vec::with_capacity(n_max as usize + 1);
        for n in 0..=n_max {
            let moves = code.moves(n);
            let any = !moves.is_empty();
            let to_p = moves.iter().any(|s| {
                if s.right > 0 {
                    p[s.right as usize]
                } else {
                    p_empty()
                }
            });
            p.push(any && !to_p);
        }
        return Ok(p);
    }
    if n_max > SPLIT_CAP {
        return Err(format!(
            "misère play of {} (it splits heaps) is searched over multisets of heaps: heap sizes up to {SPLIT_CAP}, asked for {n_max}",
            code.text()
        ));
    }
    let mut m = Misere::new(code);
    Ok((0..=n_max).map(|n| m.is_p(&[n])).collect())
}

/// The empty position in misère play: no move, the player to move wins.
fn p_empty() -> bool {
    false
}
