//! Periods of nim-value sequences, proven by the octal periodicity theorem
//! (Guy and Smith; Winning Ways, ch. 4): for a code whose largest take is
//! `t`, if `G(n + p) = G(n)` for every `n` with `e ≤ n < 2e + p + t`, then
//! `G(n + p) = G(n)` for every `n ≥ e`. (For `n ≥ 2e + p + t` a move from
//! `n + p` leaves heaps of total at least `2e + 2p`, so one of them is at
//! least `e + p` and shrinks by `p` to a move of `n` with the same value;
//! a move from `n` leaves a total of at least `2e + p`, whose larger heap is
//! at least `e` and grows by `p`.) Misère sequences have no such theorem:
//! their periods are only observed.

//!
//! Hexadecimal codes (a move may leave three heaps) have the same theorem
//! with a wider window (Winning Ways, ch. 4, for hexadecimal games; the
//! same proof): if `G(n + p) = G(n)` for `e ≤ n < 3·max(e, 1) + 2p + t`,
//! then for every `n ≥ e`. (From
//! `n ≥ 3e' + 2p + t`, `e' = max(e, 1)`, a move of `n + p` leaves a total
//! of at least `3e' + 3p`, so its largest heap is at least `e' + p` and
//! shrinks by `p` to a non-empty heap, a move of `n` with the same value;
//! a move of `n` leaves a largest heap of at least `e'`, which grows by
//! `p`.) Codes with `!` (the heaps left must differ; Grundy's game) have
//! no such theorem: shrinking one heap by `p` can make it equal to another,
//! which is no move, so their periods are only observed.

use super::code::Code;
use crate::period::{self, Period, Status};

/// Which form of the theorem holds for a code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theorem {
    /// Octal: window `e ≤ n < 2e + p + t`.
    Octal,
    /// Hexadecimal (three heaps left): window `e ≤ n < 3·max(e, 1) + 2p + t`.
    Hexadecimal,
    /// `!` (unequal heaps): none; periods are observed only.
    None,
}

impl Theorem {
    /// The form for `code`.
    pub fn of(code: &Code) -> Theorem {
        if code.any_unequal() {
            Theorem::None
        } else if code.triples() {
            Theorem::Hexadecimal
        } else {
            Theorem::Octal
        }
    }
    /// The end (exclusive) of the window for period `p`, preperiod `e`,
    /// largest take `t`.
    pub fn window_end(self, p: usize, e: usize, t: usize) -> usize {
        match self {
            Theorem::Octal | Theorem::None => 2 * e + p + t,
            Theorem::Hexadecimal => 3 * e.max(1) + 2 * p + t,
        }
    }
    /// Why no period is proven when none is, for a sequence computed to `n`.
    pub fn unproven(self, computed_to: usize) -> String {
        match self {
            Theorem::Octal => {
                format!("not proven: the theorem's window 2e + 2p + t exceeds n = {computed_to}")
            }
            Theorem::Hexadecimal => format!(
                "not proven: the hexadecimal theorem's window 3·max(e, 1) + 3p + t exceeds n = {computed_to}"
            ),
            Theorem::None => format!(
                "observed only, to n = {computed_to}: no periodicity theorem holds when the heaps left must differ (`!`; shrinking one heap by p can make two equal)"
            ),
        }
    }
}

/// A period of `code`'s values `g` proven by its form of the theorem
/// (none for codes with `!`).
pub fn proven_code<T: PartialEq>(code: &Code, g: &[T]) -> Option<Period> {
    match Theorem::of(code) {
        Theorem::Octal => proven(g, code.max_take()),
        Theorem::Hexadecimal => proven_hex(g, code.max_take()),
        Theorem::None => None,
    }
}

/// [`proven`] with the hexadecimal window.
fn proven_hex<T: PartialEq>(g: &[T], t: usize) -> Option<Period> {
    let len = g.len();
    let th = Theorem::Hexadecimal;
    for p in 1..len {
        let e = period::preperiod_for(g, p);
        // Needs G(n + p) for n < window end: indices below end + p.
        if th.window_end(p, e, t) + p <= len {
            return period::period_of(g, Some((p, e)));
        }
        if th.window_end(p, 0, t) + p > len {
            break;
        }
    }
    None
}

/// A period of `g(0..len)` proven by the theorem with largest take `t`:
/// the smallest `p` whose data window `e ≤ n < 2e + p + t` (`e` the
/// smallest preperiod the data allow for `p`) lies inside the computed
/// range, refined to the smallest divisor the data establish.
pub fn proven<T: PartialEq>(g: &[T], t: usize) -> Option<Period> {
    let len = g.len();
    for p in 1..len {
        let e = period::preperiod_for(g, p);
        // Needs G(n) and G(n + p) for n < 2e + p + t: indices up to 2e + 2p + t − 1.
        if 2 * e + 2 * p + t <= len {
            return period::period_of(g, Some((p, e)));
        }
        if 2 * p + t > len {
            break;
        }
    }
    None
}

/// The theorem's check for a given period and preperiod (for the evidence
/// text and the tests): does the data window cover `e ≤ n < 2e + p + t`
/// and agree on it?
#[cfg(test)]
pub fn window_holds<T: PartialEq>(g: &[T], t: usize, p: usize, e: usize) -> bool {
    let end = 2 * e + p + t;
    end + p <= g.len() && (e..end).all(|n| g[n] == g[n + p])
}

/// The evidence text of a proven period.
pub fn evidence(per: &Period, code: &Code, computed_to: usize) -> String {
    let (p, e, t) = (per.period, per.preperiod, code.max_take());
    if Theorem::of(code) == Theorem::Hexadecimal {
        return format!(
            "hexadecimal periodicity theorem (largest take t = {t}): G(n + {p}) = G(n) checked for {e} ≤ n < 3·{} + 2·{p} + {t} = {}; computed to n = {computed_to}",
            e.max(1),
            Theorem::Hexadecimal.window_end(p, e, t)
        );
    }
    format!(
        "octal periodicity theorem (largest take t = {t}): G(n + {p}) = G(n) checked for {e} ≤ n < 2·{e} + {p} + {t} = {}; computed to n = {computed_to}",
        2 * e + p + t
    )
}

/// The period of a sequence no theorem covers (misère outcomes): observed
/// only, with the evidence rule of [`period::observed_period`].
pub fn observed<T: PartialEq>(g: &[T]) -> Option<Period> {
    period::observed_period(g).filter(|p| p.status == Status::Observed)
}
