//! An octal code `d0.d1d2…dk` (Winning Ways, ch. 4): digit `d_i` says, in
//! binary, what may be left after taking `i` tokens from one heap: bit 1
//! nothing (the whole heap is taken), bit 2 one non-empty heap, bit 4 two
//! non-empty heaps. `d0` (taking nothing) may only be 0 or 4 (split a heap
//! in two).

/// A validated code.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Code {
    /// `d_0 … d_k`, trailing zeros removed (`d_k` ≠ 0).
    digits: Vec<u8>,
}

/// One move on a heap: take `take`, leave the heaps `left ≤ right` (0: none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Split {
    /// Tokens taken.
    pub take: u64,
    /// The smaller heap left (0 when at most one heap is left).
    pub left: u64,
    /// The larger heap left (0 when none is left).
    pub right: u64,
}

/// What a code may be, for error messages.
pub const CODE_ALLOWED: &str = "an octal code d0.d1d2…, e.g. \"0.77\" (Kayles), \"0.07\" (Dawson's Kayles), \
     \"0.137\", \"4.07\": digits 0..7, d0 (before the point) 0 or 4, at least one non-zero digit; \
     `?` for every digit 0..7 in a sweep (\"0.???\": the 512 codes of three digits)";

impl Code {
    /// Parses `d0.d1d2…` (also `.d1d2…`, meaning `d0 = 0`).
    pub fn parse(text: &str) -> Result<Code, String> {
        let t = text.trim();
        let Some((head, tail)) = t.split_once('.') else {
            return Err(format!("{t:?} has no point; expected {CODE_ALLOWED}"));
        };
        let head = if head.is_empty() { "0" } else { head };
        let mut digits = Vec::with_capacity(tail.len() + 1);
        for (pos, c) in head.chars().chain(tail.chars()).enumerate() {
            let d = c.to_digit(10).filter(|&d| d < 8).ok_or_else(|| {
                format!("{t:?}: {c:?} (d{pos}) is not an octal digit 0..7; expected {CODE_ALLOWED}")
            })?;
            digits.push(d as u8);
        }
        if head.len() != 1 {
            return Err(format!(
                "{t:?}: one digit d0 before the point; expected {CODE_ALLOWED}"
            ));
        }
        if digits[0] != 0 && digits[0] != 4 {
            return Err(format!(
                "{t:?}: d0 = {} is not allowed: taking nothing may only split a heap in two (d0 = 4) or be no move (d0 = 0); \
                 {} would let a move leave the heap as it was or vanish without taking",
                digits[0], digits[0]
            ));
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        if digits == [0] {
            return Err(format!(
                "{t:?} is an empty code: it allows no move; expected {CODE_ALLOWED}"
            ));
        }
        Ok(Code { digits })
    }
    /// The code from its digits `d_0 … d_k` (for tests and sweeps: the
    /// caller has checked them).
    pub fn from_digits(digits: &[u8]) -> Result<Code, String> {
        let mut t: String = digits[..1].iter().map(|d| d.to_string()).collect();
        t.push('.');
        t.extend(digits[1..].iter().map(|d| d.to_string()));
        Code::parse(&t)
    }
    /// `d_i` (0 past the last digit).
    pub fn digit(&self, i: usize) -> u8 {
        self.digits.get(i).copied().unwrap_or(0)
    }
    /// `d_0 … d_k`.
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }
    /// The largest take `k` (0 for `4.` alone).
    pub fn max_take(&self) -> usize {
        self.digits.len() - 1
    }
    /// The takes `i` whose digit allows two heaps to be left.
    pub fn split_takes(&self) -> Vec<usize> {
        (0..self.digits.len())
            .filter(|&i| self.digits[i] & 4 != 0)
            .collect()
    }
    /// Does any move split a heap?
    pub fn splits(&self) -> bool {
        self.digits.iter().any(|d| d & 4 != 0)
    }
    /// `0.77`, `4.07` (trailing zeros removed).
    pub fn text(&self) -> String {
        let mut s = self.digits[0].to_string();
        s.push('.');
        s.extend(self.digits[1..].iter().map(|d| char::from(b'0' + d)));
        s
    }
    /// Every move from a heap of `n` (each split once, `left ≤ right`).
    pub fn moves(&self, n: u64) -> Vec<Split> {
        let mut out = Vec::new();
        for (i, &d) in self.digits.iter().enumerate() {
            let i = i as u64;
            if i > n {
                break;
            }
            let r = n - i;
            if d & 1 != 0 && r == 0 && i > 0 {
                out.push(Split {
                    take: i,
                    left: 0,
                    right: 0,
                });
            }
            if d & 2 != 0 && r >= 1 && i > 0 {
                out.push(Split {
                    take: i,
                    left: 0,
                    right: r,
                });
            }
            if d & 4 != 0 && r >= 2 {
                out.extend((1..=r / 2).map(|a| Split {
                    take: i,
                    left: a,
                    right: r - a,
                }));
            }
        }
        out
    }
    /// Can a heap of `n` be moved on at all?
    pub fn live(&self, n: u64) -> bool {
        self.digits.iter().enumerate().any(|(i, &d)| {
            let i = i as u64;
            i <= n
                && ((d & 1 != 0 && n == i && i > 0)
                    || (d & 2 != 0 && n > i && i > 0)
                    || (d & 4 != 0 && n >= i + 2))
        })
    }
}

/// Expands a code with `?` wildcards into every code it stands for (each `?`
/// one of 0..7), in increasing order; the codes that allow no move are
/// counted in the second value and left out.
pub fn expand(text: &str) -> Result<(Vec<Code>, usize), String> {
    let t = text.trim();
    let wild = t.chars().filter(|&c| c == '?').count();
    if wild == 0 {
        return Ok((vec![Code::parse(t)?], 0));
    }
    if wild > 4 {
        return Err(format!("{t:?}: at most 4 `?` (4096 codes) in one code"));
    }
    let (mut out, mut empty) = (Vec::new(), 0);
    for k in 0..8usize.pow(wild as u32) {
        let mut rest = k;
        let mut digits = vec![0usize; wild];
        for d in digits.iter_mut().rev() {
            *d = rest % 8;
            rest /= 8;
        }
        let mut it = digits.into_iter();
        let s: String = t
            .chars()
            .map(|c| match c {
                '?' => char::from(b'0' + it.next().unwrap_or(0) as u8),
                c => c,
            })
            .collect();
        match Code::parse(&s) {
            Ok(c) => out.push(c),
            Err(e) if e.contains("empty code") => empty += 1,
            Err(e) => return Err(e),
        }
    }
    Ok((out, empty))
}
