//! The period of one heap's values, proven where a theorem allows:
//!
//! * a take set with a largest take `s` (no split): each value is a function
//!   of the `s` before it, so a window of `s` values seen twice proves the
//!   period (the subtraction-game argument);
//! * with `split`: the octal periodicity theorem (Guy and Smith): if
//!   `G(n + p) = G(n)` for `n0 ≤ n < 2·n0 + p + s`, it holds for every
//!   `n ≥ n0`;
//! * a history with a largest take `s`: the joint state (the outcome after
//!   every possible history) at `n` is a function of the `s` states before
//!   it, so a repeated window of `s` states proves the period;
//! * a condition reading `n`, or one with no largest take: `observed` at
//!   best, and the row says why no proof applies.

use super::game::{History, Rule};
use super::solver::{Joint, grundy_sequence};
use crate::family::takeaway::solver::Joint as TakeJoint;
use crate::game::Play;
use crate::period::{self, Period, closed_form, observed_period, period_of, preperiod_for};

/// One heap's values to the horizon and their period.
pub struct Sequence {
    /// Grundy values (else outcomes: 0 for P, 1 for N).
    pub grundy: bool,
    /// The last heap size computed.
    pub horizon: usize,
    /// The period found.
    pub period: Option<Period>,
    /// What establishes it, or why it is not proven.
    pub evidence: String,
    /// The P-positions' closed form the period implies.
    pub closed_form: Option<String>,
}

/// The octal periodicity theorem on `g`, with largest take `s`: the
/// smallest `(p, n0)` whose repetition the computed values establish.
fn octal_period(g: &[u32], s: usize) -> Option<(usize, usize)> {
    let end = g.len().checked_sub(1)?;
    for p in 1..=end {
        let n0 = preperiod_for(g, p);
        if 2 * n0 + 2 * p + s - 1 <= end {
            return Some((p, n0));
        }
        if p > end / 2 {
            break;
        }
    }
    None
}

/// The histories the rule keys on, with takes up to `s`.
fn histories(rule: &Rule, s: u32) -> Vec<History> {
    let mut out = Vec::new();
    for last in 0..=s {
        for mine in 0..=s {
            let h = rule.key_history(History { last, mine });
            if !out.contains(&h) {
                out.push(h);
            }
        }
    }
    out
}

/// The values to `horizon` and their period, for a take set `takes` with
/// `no_repeat` (`<take set> and t != last`), read from `takeaway`'s solver's
/// table `j` of one heap to at least `horizon`.
pub fn no_repeat_sequence(rule: &Rule, takes: &[u32], horizon: usize, j: &TakeJoint) -> Sequence {
    let values: Vec<u32> = (0..=horizon)
        .map(|n| u32::from(!j.start_is_p(&[n])))
        .collect();
    let s = *takes.last().unwrap_or(&1) as usize;
    let bounded = rule
        .mv
        .no_repeat_part()
        .and_then(|p| p.take_bound(&rule.env()))
        .is_some();
    let (witness, why) = if bounded {
        (
            no_repeat_witness(rule, takes, horizon, j),
            format!(
                "a history with largest take {s}: the joint state (the outcome after each last take) repeats over a full window of {s}"
            ),
        )
    } else {
        (
            None,
            "the condition states no largest take, so no window argument applies".to_string(),
        )
    };
    finish(values, false, horizon, witness, &why)
}

/// The proven period of the joint state of `takeaway`'s no-repeat table
/// `j` (one heap, to `horizon`): the outcome after each last take (none, or
/// each take), with window the largest take. In normal play that state is
/// a one-to-one function of the table's code (0: P after any take; a take
/// `c`: P after `c` only; several: after none), so the codes themselves
/// are compared; in misère play the states are laid out flat.
fn no_repeat_witness(
    rule: &Rule,
    takes: &[u32],
    horizon: usize,
    j: &TakeJoint,
) -> Option<(usize, usize)> {
    let s = *takes.last().unwrap_or(&1) as usize;
    if rule.play == Play::Normal {
        return period::proven_state_period(&j.code[..=horizon], s, s);
    }
    let width = takes.len() + 1;
    let mut flat = Vec::with_capacity((horizon + 1) * width);
    for n in 0..=horizon {
        flat.push(j.child_is_p(n, None));
        flat.extend(takes.iter().map(|&l| j.child_is_p(n, Some(l))));
    }
    let states: Vec<&[bool]> = flat.chunks(width).collect();
    period::proven_state_period(&states, s, s)
}

/// The period of `values` from a witness (else observed), with its evidence.
fn finish(
    values: Vec<u32>,
    grundy: bool,
    horizon: usize,
    witness: Option<(usize, usize)>,
    why: &str,
) -> Sequence {
    let per = match witness {
        Some(w) => period_of(&values, Some(w)),
        None => observed_period(&values),
    };
    let evidence = match (&per, witness) {
        (Some(p), Some(_)) => format!(
            "{why}; period {} from {} on 0..={horizon}",
            p.period, p.preperiod
        ),
        (Some(p), None) => format!(
            "observed on 0..={horizon} ({} periods seen); not proven: {why}",
            p.periods_seen()
        ),
        (None, _) => format!("no period on 0..={horizon}; {why}"),
    };
    let closed_form = per.as_ref().map(|p| {
        let is_p: Vec<bool> = values.iter().map(|&v| v == 0).collect();
        closed_form("N", &is_p, p)
    });
    Sequence {
        grundy,
        horizon,
        period: per,
        evidence,
        closed_form,
    }
}

/// The values to `horizon` and their period.
pub fn sequence(rule: &Rule, horizon: usize, joint: &mut Joint) -> Sequence {
    let bound = rule.mv.take_bound(&rule.env()).filter(|&s| s >= 1);
    let grundy = rule.has_grundy();
    let values: Vec<u32> = if grundy {
        grundy_sequence(rule, horizon + 1)
    } else {
        (0..=horizon as u32)
            .map(|n| u32::from(!joint.loses(&[n], History::default())))
            .collect()
    };
    let (witness, why) = witness(rule, bound, &values, joint);
    finish(values, grundy, horizon, witness, &why)
}

/// A proven `(period, preperiod)` of a state sequence the values are a
/// function of, and the theorem used (or why none applies).
fn witness(
    rule: &Rule,
    bound: Option<u32>,
    values: &[u32],
    joint: &mut Joint,
) -> (Option<(usize, usize)>, String) {
    if rule.reads_n() {
        return (
            None,
            "the condition reads n, so no periodicity theorem applies".into(),
        );
    }
    if rule.both.is_some() && rule.history() {
        return (
            None,
            "a history with two-heap moves: no theorem applies".into(),
        );
    }
    let Some(s) = bound else {
        return (
            None,
            "the condition states no largest take, so no window argument applies".into(),
        );
    };
    let s = s as usize;
    if rule.split {
        if !rule.has_grundy() {
            return (
                None,
                "misère play (or a history) of a splitting rule: no theorem applies".into(),
            );
        }
        let w = octal_period(values, s);
        return (
            w,
            format!("the octal periodicity theorem (largest take {s})"),
        );
    }
    if !rule.history() {
        let w = period::proven_state_period(values, s, s);
        let what = if rule.has_grundy() {
            "values"
        } else {
            "outcomes"
        };
        return (
            w,
            format!(
                "a take set with largest take {s}: the {what} repeat over a full window of {s}"
            ),
        );
    }
    let hs = histories(rule, s as u32);
    let states: Vec<Vec<bool>> = (0..values.len() as u32)
        .map(|n| hs.iter().map(|&h| joint.loses(&[n], h)).collect())
        .collect();
    let w = period::proven_state_period(&states, s, s);
    (
        w,
        format!(
            "a history with largest take {s}: the joint state ({} histories) repeats over a full window of {s}",
            hs.len()
        ),
    )
}
