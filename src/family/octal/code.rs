//! An octal code `d0.d1d2…dk` (Winning Ways, ch. 4): digit `d_i` says, in
//! binary, what may be left after taking `i` tokens from one heap: bit 1
//! nothing (the whole heap is taken), bit 2 one non-empty heap, bit 4 two
//! non-empty heaps. `d0` (taking nothing) may only be 0 or 4 (split a heap
//! in two).
//!
//! Two extensions: *hexadecimal* digits 8..F (Winning Ways, ch. 4,
//! "hexadecimal games"), whose bit 8 leaves three non-empty heaps, and a `!`
//! after a digit (CGSuite's notation): the heaps that digit leaves (two or
//! three) must all be different. Grundy's game, "split a heap into two
//! unequal heaps", is `4!.0` (also accepted by name, `grundy`).

/// A validated code.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Code {
    /// `d_0 … d_k` (0..15), trailing zeros removed (`d_k` ≠ 0).
    digits: Vec<u8>,
    /// Per digit: must the heaps it leaves be different (`!`)?
    unequal: Vec<bool>,
}

/// One move on a heap: take `take`, leave the heaps `left ≤ mid ≤ right`
/// (`mid` is 0 unless three heaps are left; `left` 0 when at most one is).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Split {
    /// Tokens taken.
    pub take: u64,
    /// The smallest heap left (0 when at most one heap is left).
    pub left: u64,
    /// The middle heap when three are left (0 otherwise).
    pub mid: u64,
    /// The largest heap left (0 when none is left).
    pub right: u64,
}

impl Split {
    /// The heaps left (none, one, two or three), non-empty, ascending.
    pub fn parts(&self) -> impl Iterator<Item = u64> {
        [self.left, self.mid, self.right]
            .into_iter()
            .filter(|&x| x > 0)
    }
}

/// What a code may be, for error messages.
pub const CODE_ALLOWED: &str = "an octal code d0.d1d2…, e.g. \"0.77\" (Kayles), \"0.07\" (Dawson's Kayles), \
     \"0.137\", \"4.07\": digits 0..7, d0 (before the point) 0 or 4, at least one non-zero digit; \
     hexadecimal digits 8..F leave three heaps (bit 8, e.g. \"0.F\"; d0 then 0, 4, 8 or C); \
     `!` after a digit makes the heaps it leaves differ (\"4!.0\" or \"grundy\": Grundy's game); \
     `?` for every digit 0..7 in a sweep (\"0.???\": the 512 codes of three digits)";

/// Grundy's game by name.
const GRUNDY: &str = "4!.0";

/// Reads `d` or `d!` digits from `text`, appending to `digits`/`unequal`.
fn read_digits(
    t: &str,
    text: &str,
    digits: &mut Vec<u8>,
    unequal: &mut Vec<bool>,
) -> Result<(), String> {
    for c in text.chars() {
        if c == '!' {
            let Some(&d) = digits.last() else {
                return Err(format!(
                    "{t:?}: `!` comes after a digit; expected {CODE_ALLOWED}"
                ));
            };
            let at = digits.len() - 1;
            if d & 12 == 0 || unequal[at] {
                return Err(format!(
                    "{t:?}: `!` after d{at} = {d:X}: `!` (the heaps left must differ) needs a digit that leaves two or three heaps (bit 4 or 8) and comes once; expected {CODE_ALLOWED}"
                ));
            }
            unequal[at] = true;
            continue;
        }
        let d = c.to_digit(16).ok_or_else(|| {
            format!(
                "{t:?}: {c:?} (d{}) is not a digit 0..7 (octal) or 8..F (hexadecimal); expected {CODE_ALLOWED}",
                digits.len()
            )
        })?;
        digits.push(d as u8);
        unequal.push(false);
    }
    Ok(())
}

impl Code {
    /// Parses `d0.d1d2…` (also `.d1d2…`, meaning `d0 = 0`), or `grundy`.
    pub fn parse(text: &str) -> Result<Code, String> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("grundy") {
            return Code::parse(GRUNDY);
        }
        let Some((head, tail)) = t.split_once('.') else {
            return Err(format!("{t:?} has no point; expected {CODE_ALLOWED}"));
        };
        let head = if head.is_empty() { "0" } else { head };
        let (mut digits, mut unequal) = (Vec::with_capacity(tail.len() + 1), Vec::new());
        read_digits(t, head, &mut digits, &mut unequal)?;
        if digits.len() != 1 {
            return Err(format!(
                "{t:?}: one digit d0 before the point; expected {CODE_ALLOWED}"
            ));
        }
        read_digits(t, tail, &mut digits, &mut unequal)?;
        if digits[0] & 3 != 0 {
            return Err(format!(
                "{t:?}: d0 = {:X} is not allowed: taking nothing may only split a heap in two or three (d0 = 4, 8 or C) or be no move (d0 = 0); \
                 {:X} would let a move leave the heap as it was or vanish without taking",
                digits[0], digits[0]
            ));
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
            unequal.pop();
        }
        if digits == [0] {
            return Err(format!(
                "{t:?} is an empty code: it allows no move; expected {CODE_ALLOWED}"
            ));
        }
        Ok(Code { digits, unequal })
    }
    /// The code from its digits `d_0 … d_k` (for tests and sweeps: the
    /// caller has checked them).
    #[cfg(test)]
    pub fn from_digits(digits: &[u8]) -> Result<Code, String> {
        let mut t: String = digits[..1].iter().map(|d| format!("{d:X}")).collect();
        t.push('.');
        t.extend(digits[1..].iter().map(|d| format!("{d:X}")));
        Code::parse(&t)
    }
    /// `d_i` (0 past the last digit).
    pub fn digit(&self, i: usize) -> u8 {
        self.digits.get(i).copied().unwrap_or(0)
    }
    /// Must the heaps left by take `i` differ (`!`)?
    pub fn unequal(&self, i: usize) -> bool {
        self.unequal.get(i).copied().unwrap_or(false)
    }
    /// Does any digit carry `!`?
    pub fn any_unequal(&self) -> bool {
        self.unequal.iter().any(|&u| u)
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
    /// The takes `i` whose digit allows three heaps to be left (hexadecimal).
    pub fn triple_takes(&self) -> Vec<usize> {
        (0..self.digits.len())
            .filter(|&i| self.digits[i] & 8 != 0)
            .collect()
    }
    /// Does any move leave three heaps (a hexadecimal digit 8..F)?
    pub fn triples(&self) -> bool {
        self.digits.iter().any(|d| d & 8 != 0)
    }
    /// Does any move split a heap (leave two or three)?
    pub fn splits(&self) -> bool {
        self.digits.iter().any(|d| d & 12 != 0)
    }
    /// Is it a plain octal code (no hexadecimal digit, no `!`), for which
    /// the octal periodicity theorem and every kernel hold?
    pub fn octal(&self) -> bool {
        !self.triples() && !self.any_unequal()
    }
    /// `0.77`, `4.07`, `0.F`, `4!.0` (trailing zeros removed; a lone `d0`
    /// keeps one 0 after the point).
    pub fn text(&self) -> String {
        let digit = |i: usize| {
            let mut s = format!("{:X}", self.digits[i]);
            if self.unequal[i] {
                s.push('!');
            }
            s
        };
        let mut s = digit(0);
        s.push('.');
        s.extend((1..self.digits.len()).map(digit));
        if self.digits.len() == 1 && self.any_unequal() {
            s.push('0');
        }
        s
    }
    /// Every move from a heap of `n` (each split once, `left ≤ mid ≤ right`).
    pub fn moves(&self, n: u64) -> Vec<Split> {
        let mut out = Vec::new();
        for (i, &d) in self.digits.iter().enumerate() {
            let u = self.unequal[i];
            let i = i as u64;
            if i > n {
                break;
            }
            let r = n - i;
            let one = |left, mid, right| Split {
                take: i,
                left,
                mid,
                right,
            };
            if d & 1 != 0 && r == 0 && i > 0 {
                out.push(one(0, 0, 0));
            }
            if d & 2 != 0 && r >= 1 && i > 0 {
                out.push(one(0, 0, r));
            }
            if d & 4 != 0 && r >= 2 {
                out.extend(
                    (1..=r / 2)
                        .filter(|&a| !u || 2 * a != r)
                        .map(|a| one(a, 0, r - a)),
                );
            }
            if d & 8 != 0 && r >= 3 {
                for a in 1..=r / 3 {
                    for b in a..=(r - a) / 2 {
                        let c = r - a - b;
                        if !u || (a < b && b < c) {
                            out.push(one(a, b, c));
                        }
                    }
                }
            }
        }
        out
    }
    /// Can a heap of `n` be moved on at all?
    pub fn live(&self, n: u64) -> bool {
        let min_two = |u: bool| if u { 3 } else { 2 };
        let min_three = |u: bool| if u { 6 } else { 3 };
        self.digits.iter().enumerate().any(|(i, &d)| {
            let u = self.unequal[i];
            let i = i as u64;
            i <= n
                && ((d & 1 != 0 && n == i && i > 0)
                    || (d & 2 != 0 && n > i && i > 0)
                    || (d & 4 != 0 && n >= i + min_two(u))
                    || (d & 8 != 0 && n >= i + min_three(u)))
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
