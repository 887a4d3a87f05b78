//! Misère play of splitting codes against an independent brute force, to
//! the largest size the solver accepts ([`SPLIT_CAP`]) and one past it.

use std::collections::HashMap;

use super::code::Code;
use super::misere::{self, SPLIT_CAP};

/// Misère outcomes by the rules alone: a position is the sorted list of its
/// heaps (a `u8` each), heaps of 0 dropped, and heaps on which the rules
/// allow no move dropped too (found by this search's own move list: they
/// change no outcome); memoised. The moves come from the digits only (no
/// [`Code::moves`], no [`Code::live`]).
struct Brute {
    digits: Vec<u8>,
    memo: HashMap<Vec<u8>, bool>,
    dead: Vec<bool>,
}

impl Brute {
    fn new(c: &Code, n_max: usize) -> Brute {
        let mut b = Brute {
            digits: c.digits().to_vec(),
            memo: HashMap::new(),
            dead: Vec::new(),
        };
        b.dead = (0..=n_max)
            .map(|n| b.heap_moves(n as u8).is_empty())
            .collect();
        b
    }
    /// What a heap of `n` may become: the heaps left by each move.
    fn heap_moves(&self, n: u8) -> Vec<(u8, u8)> {
        let mut out = Vec::new();
        for (i, &d) in self.digits.iter().enumerate() {
            let i = i as u8;
            if i > n {
                break;
            }
            let r = n - i;
            if i > 0 && r == 0 && d & 1 != 0 {
                out.push((0, 0));
            }
            if i > 0 && r > 0 && d & 2 != 0 {
                out.push((0, r));
            }
            if d & 4 != 0 {
                out.extend((1..r).filter(|&a| 2 * a <= r).map(|a| (a, r - a)));
            }
        }
        out
    }
    /// Is the position P (the player to move loses; no move: the mover wins)?
    fn is_p(&mut self, heaps: &[u8]) -> bool {
        let mut key: Vec<u8> = heaps
            .iter()
            .copied()
            .filter(|&h| !self.dead[h as usize])
            .collect();
        key.sort_unstable();
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        // With no live heap the mover cannot move, and wins: N.
        let mut p = !key.is_empty();
        'all: for j in 0..key.len() {
            if j > 0 && key[j] == key[j - 1] {
                continue;
            }
            for (a, b) in self.heap_moves(key[j]) {
                let mut next = key.clone();
                next[j] = a;
                next.push(b);
                if self.is_p(&next) {
                    p = false;
                    break 'all;
                }
            }
        }
        self.memo.insert(key, p);
        p
    }
}

/// A small deterministic generator (xorshift): splitting codes 0.d1…dk
/// (4.d1…dk one time in six), k ≤ 3.
fn splitting_codes(count: usize, seed: u64) -> Vec<Code> {
    let mut s = seed;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut out = Vec::new();
    while out.len() < count {
        let k = 1 + (next() % 3) as usize;
        let d0 = if next().is_multiple_of(6) { 4 } else { 0 };
        let mut d = vec![d0];
        d.extend((0..k).map(|_| (next() % 8) as u8));
        if let Ok(c) = Code::from_digits(&d)
            && c.splits()
        {
            out.push(c);
        }
    }
    out
}

#[test]
fn misere_one_heap_of_splitting_codes_equals_the_brute_force_to_the_cap() {
    let n_max = SPLIT_CAP as usize;
    let mut codes = splitting_codes(8, 0x2545_f491_4f6c_dd1d);
    // Kayles and Dawson's Kayles among them.
    codes.extend([Code::parse("0.77").unwrap(), Code::parse("0.07").unwrap()]);
    for c in &codes {
        let p = misere::one_heap(c, n_max as u64).unwrap();
        let mut b = Brute::new(c, n_max);
        for (n, &p) in p.iter().enumerate() {
            assert_eq!(p, b.is_p(&[n as u8]), "{} misère n = {n}", c.text());
        }
        assert_eq!(p.len(), n_max + 1);
        // Past the cap the solver says so rather than answer.
        let e = misere::one_heap(c, n_max as u64 + 1).unwrap_err();
        assert!(e.contains("heap sizes up to 40"), "{e}");
    }
    // Misère Kayles by hand (1 and 4 P; 0, 2, 3 N), through the brute force
    // too, so that its rules are checked and not only its agreement.
    let mut b = Brute::new(&Code::parse("0.77").unwrap(), 4);
    let hand: Vec<bool> = (0..=4).map(|n| b.is_p(&[n])).collect();
    assert_eq!(hand, [false, true, false, false, true]);
}
