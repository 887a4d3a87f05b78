//! Periods of nim-value sequences, proven by the octal periodicity theorem
//! (Guy and Smith; Winning Ways, ch. 4): for a code whose largest take is
//! `t`, if `G(n + p) = G(n)` for every `n` with `e ≤ n < 2e + p + t`, then
//! `G(n + p) = G(n)` for every `n ≥ e`. (For `n ≥ 2e + p + t` a move from
//! `n + p` leaves heaps of total at least `2e + 2p`, so one of them is at
//! least `e + p` and shrinks by `p` to a move of `n` with the same value;
//! a move from `n` leaves a total of at least `2e + p`, whose larger heap is
//! at least `e` and grows by `p`.) Misère sequences have no such theorem:
//! their periods are only observed.

use crate::period::{self, Period, Status};

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
pub fn evidence(per: &Period, t: usize, computed_to: usize) -> String {
    let (p, e) = (per.period, per.preperiod);
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
