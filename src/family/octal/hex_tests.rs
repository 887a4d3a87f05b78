//! Hexadecimal codes (bit 8: three heaps left), codes with `!` (the heaps
//! left must differ) and Grundy's game (`4!.0`) against independent
//! evidence: the game tree (`brute.rs`, no nim-sum), the values by their
//! definition, OEIS A002188, and the kernels against each other.

use std::sync::atomic::AtomicBool;

use super::adaptive::{self, AdaptiveWork};
use super::brute::Heaps;
use super::code::Code;
use super::kernel;
use super::misere;
use super::periods::{self, Theorem};
use super::sequence::{self, Horizon};
use super::tests::Rng;
use crate::game::{BruteGrundy, BruteOutcome, Play};

static NO: AtomicBool = AtomicBool::new(false);

fn code(s: &str) -> Code {
    Code::parse(s).unwrap()
}

/// OEIS A002188 (Grundy's game), n = 0..104, as listed there.
const A002188: &[u32] = &[
    0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2, 3, 1,
    2, 4, 1, 2, 4, 1, 2, 4, 1, 5, 4, 1, 5, 4, 1, 5, 4, 1, 0, 2, 1, 0, 2, 1, 5, 2, 1, 3, 2, 1, 3, 2,
    4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 5, 2, 4, 5, 2, 4, 3, 7, 4, 3, 7, 4, 3, 7, 4, 3,
    5, 2, 3, 5, 2, 3, 5, 2, 3,
];

impl Rng {
    /// A random code of up to `max_digits` digits after the point: digits
    /// 0..F (`hex`) or 0..7, a `!` on some splitting digits.
    pub(super) fn hex_code(&mut self, max_digits: usize, hex: bool) -> Code {
        loop {
            let k = 1 + (self.next() % max_digits as u64) as usize;
            let d0 = [0u64, 0, 0, 4, 8, 12][(self.next() % 6) as usize];
            let d0 = if hex { d0 } else { d0 & 4 };
            let mut text = String::new();
            for i in 0..=k {
                let d = if i == 0 {
                    d0
                } else {
                    self.next() % if hex { 16 } else { 8 }
                };
                text.push_str(&format!("{d:X}"));
                if d & 12 != 0 && self.next().is_multiple_of(3) {
                    text.push('!');
                }
                if i == 0 {
                    text.push('.');
                }
            }
            if let Ok(c) = Code::parse(&text) {
                return c;
            }
        }
    }
}

/// Normal play by the definition, one heap at a time: G(n) is the mex of
/// the values of every move the digits allow (nothing; one heap; two heaps
/// a ≤ b, a < b under `!`; three heaps a ≤ b ≤ c, a < b < c under `!`,
/// each worth the XOR of its heaps' values). No kernel code.
fn by_definition(c: &Code, n_max: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(n_max + 1);
    for n in 0..=n_max {
        let mut seen = std::collections::HashSet::new();
        for i in 0..=n {
            let (d, u, r) = (c.digit(i), c.unequal(i), n - i);
            if i > 0 && d & 1 != 0 && r == 0 {
                seen.insert(0);
            }
            if i > 0 && d & 2 != 0 && r > 0 {
                seen.insert(g[r]);
            }
            for a in 1..r {
                let b = r - a;
                if d & 4 != 0 && (a < b || (a == b && !u)) {
                    seen.insert(g[a] ^ g[b]);
                }
                for b in a..r {
                    let Some(x) = r.checked_sub(a + b).filter(|&x| x >= b) else {
                        break;
                    };
                    if d & 8 != 0 && (!u || (a < b && b < x)) {
                        seen.insert(g[a] ^ g[b] ^ g[x]);
                    }
                }
            }
        }
        g.push((0..).find(|v| !seen.contains(v)).unwrap());
    }
    g
}

#[test]
fn codes_with_hexadecimal_digits_and_bangs_are_read_and_written() {
    assert_eq!(code("0.F").triple_takes(), vec![1]);
    assert_eq!(code("0.f").text(), "0.F");
    assert_eq!(code("4!.0").text(), "4!.0");
    assert_eq!(code("grundy"), code("4!.0"));
    assert_eq!(code("Grundy").text(), "4!.0");
    assert_eq!(code("0.7!6").text(), "0.7!6");
    assert!(code("0.8").splits() && code("0.8").triples() && !code("0.8").octal());
    assert!(code("0.77").octal());
    for (bad, says) in [
        ("0.7G", "not a digit 0..7 (octal) or 8..F"),
        ("1.8", "d0 = 1 is not allowed"),
        ("2.7", "d0 = 2 is not allowed"),
        ("0.3!", "needs a digit that leaves two or three heaps"),
        ("0.4!!", "comes once"),
        ("!.4", "comes after a digit"),
        ("44.7", "one digit d0"),
        ("grundys", "no point"),
    ] {
        let e = Code::parse(bad).unwrap_err();
        assert!(e.contains(says), "{bad}: {e}");
    }
    // Winning Ways by hand: 0.8 (take 1, leave three heaps) on 4 leaves
    // 1+1+1 only, on 7 the heaps 1+1+4, 1+2+3, 2+2+2.
    let parts = |n| {
        code("0.8")
            .moves(n)
            .iter()
            .map(|s| s.parts().collect::<Vec<_>>())
            .collect::<Vec<_>>()
    };
    assert_eq!(parts(4), [vec![1, 1, 1]]);
    assert_eq!(parts(7), [vec![1, 1, 4], vec![1, 2, 3], vec![2, 2, 2]]);
    // Grundy's game on 7: 1+6, 2+5, 3+4 (not the equal split of 8 into 4+4).
    assert_eq!(code("4!.0").moves(7).len(), 3);
    assert_eq!(code("4!.0").moves(8).len(), 3);
}

#[test]
fn hexadecimal_and_bang_codes_equal_the_game_tree() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let (mut triples, mut bangs) = (0, 0);
    for k in 0..80 {
        let c = rng.hex_code(3, k % 4 != 0);
        triples += usize::from(c.triples());
        bangs += usize::from(c.any_unequal());
        // Positions are multisets of heaps (partitions of at most n_max).
        let n_max = if c.splits() { 20 } else { 100 };
        let g = kernel::naive(&c, n_max, &NO).unwrap();
        let mut brute = BruteGrundy::default();
        for n in 0..=n_max as u64 {
            let want = brute.grundy(&Heaps::one(&c, n));
            assert_eq!(g[n as usize], want, "{} n = {n}", c.text());
        }
        let m_max = if c.splits() { 14 } else { 100 };
        let p = misere::one_heap(&c, m_max).unwrap();
        let mut bm = BruteOutcome::new(Play::Misere);
        for n in 0..=m_max {
            let want = bm.is_p(&Heaps::one(&c, n));
            assert_eq!(p[n as usize], want, "{} misère n = {n}", c.text());
        }
    }
    assert!(triples >= 30 && bangs >= 20, "{triples} {bangs}");
}

#[test]
fn hexadecimal_and_bang_codes_equal_the_definition_to_60() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..100 {
        let c = rng.hex_code(4, true);
        let g = kernel::naive(&c, 60, &NO).unwrap();
        assert_eq!(g, by_definition(&c, 60), "{}", c.text());
    }
}

#[test]
fn grundys_game_is_oeis_a002188_and_its_definition_to_2000() {
    let c = code("grundy");
    let g = kernel::naive(&c, 2000, &NO).unwrap();
    assert_eq!(&g[..A002188.len()], A002188);
    assert_eq!(by_definition(&c, 2000), g);
    // The stages (the sparse kernel past the first values, if a sparse
    // space shows) give the same values, and no period is claimed proven.
    let h = Horizon {
        naive: 2000,
        sparse: 20_000,
    };
    let seq = sequence::compute(&c, h, &NO).unwrap();
    assert!(seq.period.is_none());
    let long = kernel::naive(&c, 20_000, &NO).unwrap();
    assert_eq!(seq.values.len(), long.len());
    for (n, &v) in long.iter().enumerate() {
        assert_eq!(seq.values.get(n), v, "n = {n}");
    }
}

#[test]
fn kernels_skip_the_equal_split_under_a_bang() {
    // The sparse kernel (any mask) and the adaptive kernel on random codes
    // with `!` and no three-heap move, against the naive kernel, n ≤ 2000.
    let mut rng = Rng(0x51ed_2701_aa55);
    let mut tested = 0;
    while tested < 40 {
        let c = rng.hex_code(4, false);
        if !c.any_unequal() {
            continue;
        }
        tested += 1;
        let g = kernel::naive(&c, 2000, &NO).unwrap();
        if g.iter().any(|&v| v > u16::MAX as u32) {
            continue;
        }
        let mask = 1 + (rng.next() % 31) as u32;
        let s = kernel::sparse(&c, 2000, mask, &NO).unwrap();
        let s: Vec<u32> = s.into_iter().map(u32::from).collect();
        assert_eq!(s, g, "{} sparse mask {mask}", c.text());
        let start = [1, 40, 300][tested % 3];
        let mut a: Vec<u16> = g[..start].iter().map(|&v| v as u16).collect();
        let mut work = AdaptiveWork::default();
        adaptive::extend(&c, &mut a, 2000, &mut work, &NO).unwrap();
        let a: Vec<u32> = a.into_iter().map(u32::from).collect();
        assert_eq!(a, g, "{} adaptive from {start}", c.text());
    }
}

#[test]
fn the_hexadecimal_theorem_holds_past_its_window() {
    // Every hexadecimal code of one digit after the point (and d0 0 or 4)
    // whose period the theorem proves within 4096: the period holds on the
    // naive values computed well past it.
    let mut proven = 0;
    for d0 in [0u8, 4, 8] {
        for d1 in 8..16u8 {
            let c = Code::from_digits(&[d0, d1]).unwrap();
            assert_eq!(Theorem::of(&c), Theorem::Hexadecimal);
            let h = Horizon {
                naive: 1024,
                sparse: 1024,
            };
            let seq = sequence::compute(&c, h, &NO).unwrap();
            let Some(p) = seq.period else { continue };
            proven += 1;
            let len = seq.values.len();
            let g = kernel::naive(&c, 3 * len, &NO).unwrap();
            for n in p.preperiod..g.len() - p.period {
                assert_eq!(g[n], g[n + p.period], "{} n = {n}: {p:?}", c.text());
            }
            let e = p.preperiod;
            let end = Theorem::Hexadecimal.window_end(p.period, e, c.max_take());
            assert!(end + p.period <= len, "{}: window {end}", c.text());
        }
    }
    assert!(proven >= 4, "only {proven} proven");
    // The octal window would accept too little data for a three-heap code;
    // `!` codes get no theorem at all.
    assert!(Theorem::Hexadecimal.window_end(5, 10, 1) > Theorem::Octal.window_end(5, 10, 1));
    assert_eq!(Theorem::of(&code("4!.0")), Theorem::None);
    assert!(periods::proven_code(&code("4!.0"), &[0u32; 500]).is_none());
}
