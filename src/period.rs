//! Periods of sequences, as defined in `GAMES.md` ("Periods: what 'period'
//! means in every output").
//!
//! For a sequence `a(0..=L)` the **period** is the smallest `p ≥ 1`, and then the
//! **preperiod** the smallest `n0`, with `a(n) = a(n + p)` for all `n0 ≤ n`,
//! `n + p ≤ L`. A period is **proven** when a recurrence argument covers it (a
//! state sequence whose every term past some index is a function of the `w`
//! previous terms repeats over a full window of `w` terms), and **observed**
//! otherwise, which requires the periodic stretch to cover at least half of the
//! computed range and at least three periods.

use std::fmt;

use crate::data::{Column, Dtype, EnumVec, Role, StrVec, Table, Values};

/// How sure a period is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// A theorem covers it: it holds for every index, not just the computed ones.
    Proven,
    /// Only seen on the computed range (with enough evidence).
    Observed,
}

impl Status {
    /// `proven` or `observed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Proven => "proven",
            Status::Observed => "observed",
        }
    }
}

/// A detected period of `a(0..=end)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Period {
    /// Smallest index from which the sequence repeats.
    pub preperiod: usize,
    /// Smallest period.
    pub period: usize,
    /// Proven or observed.
    pub status: Status,
    /// Last index of the computed range (`L`).
    pub end: usize,
}

impl Period {
    /// Number of whole periods seen in the periodic stretch `[preperiod, end]`.
    pub fn periods_seen(&self) -> usize {
        (self.end + 1 - self.preperiod) / self.period
    }
    /// Maps any index to the computed index with the same value: the identity
    /// below `end`, and reduction into the first period past the preperiod above.
    /// Only meaningful for proven periods (any index up to `u64::MAX`).
    pub fn reduce(&self, n: u64) -> usize {
        if n <= self.end as u64 {
            return n as usize;
        }
        let (n0, p) = (self.preperiod as u64, self.period as u64);
        (n0 + (n - n0) % p) as usize
    }
}

impl fmt::Display for Period {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.status {
            Status::Proven => {
                write!(f, "period {} from {} (proven)", self.period, self.preperiod)
            }
            Status::Observed => write!(
                f,
                "period {} from {} (observed on [{}, {}], {} periods)",
                self.period,
                self.preperiod,
                self.preperiod,
                self.end,
                self.periods_seen()
            ),
        }
    }
}

/// Smallest `n0` with `a(n) = a(n + p)` for every `n0 ≤ n ≤ L - p` (scans from
/// the end, so a wrong `p` usually costs only a few comparisons).
pub fn preperiod_for<T: PartialEq>(a: &[T], p: usize) -> usize {
    let len = a.len();
    if p >= len {
        return len;
    }
    let mut n = len - p;
    while n > 0 && a[n - 1] == a[n - 1 + p] {
        n -= 1;
    }
    n
}

/// A proven period of a *state* sequence: every term from index `valid_from`
/// on is a function of the `window` terms before it. Returns `(p, n0)` for the
/// smallest `p` whose repetition is established over one full window.
pub fn proven_state_period<T: PartialEq>(
    state: &[T],
    window: usize,
    valid_from: usize,
) -> Option<(usize, usize)> {
    let len = state.len();
    if len == 0 {
        return None;
    }
    let end = len - 1;
    let start_min = valid_from.saturating_sub(window);
    for p in 1..=end {
        if p + window > end + 1 {
            break;
        }
        let n0 = preperiod_for(state, p);
        let t = n0.max(start_min);
        if t + window - 1 + p <= end {
            return Some((p, n0));
        }
    }
    None
}

/// The period of `a`, given (optionally) a proven period `(p, t0)` of a state
/// sequence of which `a` is a function term by term. With a witness the answer
/// is proven: the smallest divisor `d` of `p` for which the data establish
/// `d`-periodicity over a full period `p`. Without one, the smallest observed
/// period with enough evidence, or `None`.
pub fn period_of<T: PartialEq>(a: &[T], witness: Option<(usize, usize)>) -> Option<Period> {
    let len = a.len();
    if len == 0 {
        return None;
    }
    let end = len - 1;
    if let Some((p, t0)) = witness {
        for d in (1..=p).filter(|d| p % d == 0) {
            let n0 = preperiod_for(a, d);
            let ok = d == p || n0.max(t0) + p - 1 + d <= end;
            if ok {
                return Some(Period {
                    preperiod: n0,
                    period: d,
                    status: Status::Proven,
                    end,
                });
            }
        }
        unreachable!("d = p always qualifies");
    }
    observed_period(a)
}

/// Smallest period whose periodic stretch covers at least half of the range and
/// at least three periods.
pub fn observed_period<T: PartialEq>(a: &[T]) -> Option<Period> {
    let len = a.len();
    if len == 0 {
        return None;
    }
    let end = len - 1;
    for p in 1..=len / 3 {
        let n0 = preperiod_for(a, p);
        let stretch = len - n0;
        if 2 * stretch >= len && stretch >= 3 * p {
            return Some(Period {
                preperiod: n0,
                period: p,
                status: Status::Observed,
                end,
            });
        }
    }
    None
}

/// An arithmetic period of integer values: `a(n + p) = a(n) + saltus` for
/// every `n` from the preperiod on (the period of octal games that grow,
/// such as a board family whose Grundy values rise by 8 every 6 boards).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arithmetic {
    /// Period and preperiod, with the same evidence rule as [`observed_period`].
    pub period: Period,
    /// What one period adds (never 0: that is an ordinary period).
    pub saltus: i64,
}

/// The smallest arithmetic period with a non-zero saltus whose stretch covers
/// at least half of the range and at least three periods (the evidence rule of
/// [`observed_period`]); `None` when there is none, or when the sequence has an
/// ordinary period (saltus 0), which [`observed_period`] reports.
pub fn observed_arithmetic_period(a: &[i64]) -> Option<Arithmetic> {
    let len = a.len();
    if len == 0 || observed_period(a).is_some() {
        return None;
    }
    for p in 1..=len / 3 {
        let saltus = a[len - 1] - a[len - 1 - p];
        let mut n = len - p;
        while n > 0 && a[n - 1 + p] - a[n - 1] == saltus {
            n -= 1;
        }
        let stretch = len - n;
        if saltus != 0 && 2 * stretch >= len && stretch >= 3 * p {
            return Some(Arithmetic {
                period: Period {
                    preperiod: n,
                    period: p,
                    status: Status::Observed,
                    end: len - 1,
                },
                saltus,
            });
        }
    }
    None
}

/// The closed form a periodic boolean sequence implies: the indices below the
/// preperiod where it holds, and the residues `r` (mod `period`) such that for
/// `n ≥ preperiod` it holds exactly when `n mod period = r`.
pub fn residues(a: &[bool], per: &Period) -> (Vec<usize>, Vec<usize>) {
    let exceptions = (0..per.preperiod).filter(|&n| a[n]).collect();
    let mut res: Vec<usize> = (per.preperiod..(per.preperiod + per.period).min(a.len()))
        .filter(|&n| a[n])
        .map(|n| n % per.period)
        .collect();
    res.sort_unstable();
    (exceptions, res)
}

/// Formats `residues` output as the closed form
/// "N ∈ {…} or N ≥ n0 and N mod p ∈ {…}".
pub fn closed_form(var: &str, a: &[bool], per: &Period) -> String {
    let (exc, res) = residues(a, per);
    let list = |v: &[usize]| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let periodic = if res.is_empty() {
        format!("never for {var} ≥ {}", per.preperiod)
    } else {
        format!(
            "{var} ≥ {} and {var} mod {} ∈ {{{}}}",
            per.preperiod,
            per.period,
            list(&res)
        )
    };
    if exc.is_empty() {
        periodic
    } else {
        format!("{var} ∈ {{{}}} or {periodic}", list(&exc))
    }
}

/// The name of the period status column (in [`PERIOD_COLUMNS`]).
pub const STATUS: &str = "status";

/// The vocabulary of every `status` column.
pub const STATUSES: &[&str] = &["proven", "observed", "none"];

/// The columns of a period table row, shared by every family's period dataset.
pub static PERIOD_COLUMNS: &[Column] = &[
    Column::new(
        "period",
        Dtype::Int,
        Role::Result,
        "smallest period; null when none was found",
    )
    .nullable(),
    Column::new(
        "preperiod",
        Dtype::Int,
        Role::Result,
        "smallest preperiod for that period; null when none was found",
    )
    .nullable(),
    Column::new(
        STATUS,
        Dtype::Enum(STATUSES),
        Role::Result,
        "`proven` (a recurrence argument covers every index), `observed` (seen on the computed range with enough evidence), or `none`",
    ),
    Column::new(
        "evidence",
        Dtype::Str,
        Role::Result,
        "what establishes the period (the repeated window, or the range and number of periods seen)",
    ),
    Column::new(
        "closed_form",
        Dtype::Str,
        Role::ClosedForm,
        "the closed form the period implies; null when no period was found",
    )
    .nullable(),
];

/// One period's values, shared by the period datasets of every family.
pub static PERIOD_VALUES_COLUMNS: &[Column] = &[
    Column::new(
        "period_values",
        Dtype::IntList,
        Role::Result,
        "the Grundy values over one period from the preperiod; null for an outcome sequence or without a period",
    )
    .nullable(),
    Column::new(
        "period_pattern",
        Dtype::Str,
        Role::Result,
        "the outcomes over one period from the preperiod, as letters (`PNN`); null without a period",
    )
    .nullable(),
];

/// Rows of [`PERIOD_COLUMNS`], filled one sequence at a time.
#[derive(Default)]
pub struct PeriodRows {
    period: Vec<Option<i64>>,
    preperiod: Vec<Option<i64>>,
    status: Vec<u8>,
    evidence: StrVec,
    closed_form: StrVec,
}

impl PeriodRows {
    /// One row: the period found (if any), its evidence and its closed form.
    pub fn push(&mut self, p: Option<&Period>, evidence: &str, closed_form: Option<&str>) {
        self.period.push(p.map(|p| p.period as i64));
        self.preperiod.push(p.map(|p| p.preperiod as i64));
        self.status.push(match p.map(|p| p.status) {
            Some(Status::Proven) => 0,
            Some(Status::Observed) => 1,
            None => 2,
        });
        self.evidence.push(evidence);
        self.closed_form.push_opt(closed_form);
    }
    /// Appends the columns to `t` (which has as many rows).
    pub fn into_table(self, t: Table) -> Table {
        t.with("period", Values::OptInt(self.period))
            .with("preperiod", Values::OptInt(self.preperiod))
            .with(
                STATUS,
                Values::Enum(EnumVec {
                    levels: STATUSES,
                    codes: self.status,
                }),
            )
            .with("evidence", Values::Str(self.evidence))
            .with("closed_form", Values::Str(self.closed_form))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preperiod_examples() {
        // 5 7 | 1 2 3 1 2 3 1 2
        let a = [5, 7, 1, 2, 3, 1, 2, 3, 1, 2];
        assert_eq!(preperiod_for(&a, 3), 2);
        assert_eq!(preperiod_for(&a, 1), 9);
        assert_eq!(preperiod_for(&a, 6), 2);
    }

    #[test]
    fn observed_needs_evidence() {
        // Period 2 only in the last 16 of 200 terms: not a period.
        let mut a: Vec<u32> = (0..184).map(|i| (i * 7919 % 31) as u32).collect();
        a.extend((0..16).map(|i| i % 2));
        let p = observed_period(&a);
        assert!(p.is_none_or(|p| p.period != 2), "{p:?}");
        // A clean period 3 from index 1.
        let b: Vec<u32> = std::iter::once(9).chain((0..99).map(|i| i % 3)).collect();
        let p = observed_period(&b).unwrap();
        assert_eq!((p.preperiod, p.period, p.status), (1, 3, Status::Observed));
        assert_eq!(p.periods_seen(), 33);
    }

    #[test]
    fn proven_refines_to_divisor() {
        // State period 6 (from a window-2 recurrence), but the projected sequence has period 3.
        let state: Vec<u32> = (0..40).map(|i| i % 6).collect();
        let (p, t0) = proven_state_period(&state, 2, 2).unwrap();
        assert_eq!((p, t0), (6, 0));
        let proj: Vec<u32> = state.iter().map(|x| x % 3).collect();
        let per = period_of(&proj, Some((p, t0))).unwrap();
        assert_eq!(
            (per.period, per.preperiod, per.status),
            (3, 0, Status::Proven)
        );
        assert_eq!(
            per.reduce(1_000_000_000_000_000_000),
            (1_000_000_000_000_000_000u64 % 3) as usize
        );
    }

    #[test]
    fn arithmetic_periods() {
        // 4 0 6 4 8 10, then +8 every 6 terms, after two stray terms.
        let base = [4i64, 0, 6, 4, 8, 10];
        let mut a: Vec<i64> = vec![99, 98];
        a.extend((0..300).map(|n| base[n % 6] + 8 * (n / 6) as i64));
        let ar = observed_arithmetic_period(&a).unwrap();
        assert_eq!(
            (ar.period.period, ar.period.preperiod, ar.saltus),
            (6, 2, 8)
        );
        // An ordinary period is not an arithmetic one.
        let b: Vec<i64> = (0..100).map(|n| n % 3).collect();
        assert_eq!(observed_arithmetic_period(&b), None);
        // Growth that shows only near the end is not reported.
        let mut c: Vec<i64> = (0..200).map(|n| (n * 7919 % 31) as i64).collect();
        c.extend((0..20).map(|n| n as i64 * 2));
        assert_eq!(observed_arithmetic_period(&c), None);
    }

    #[test]
    fn closed_form_text() {
        let a = [true, false, false, true, false, false, true, false, false];
        let per = Period {
            preperiod: 0,
            period: 3,
            status: Status::Proven,
            end: 8,
        };
        assert_eq!(closed_form("N", &a, &per), "N ≥ 0 and N mod 3 ∈ {0}");
    }
}
