//! One heap solved once up to a horizon: every `N` of a rule is read from it,
//! its periods detected, its winning takes listed without trying every take.

use std::borrow::Cow;
use std::sync::OnceLock;

use super::solver::{self, Grundy, Joint};
use super::{Rule, induction};
use crate::game::Play;
use crate::period::{self, Period};

/// One heap, solved: outcome at the start of a game for every `n ≤ horizon`,
/// Grundy values where defined, and the joint-state solution for the rest.
pub struct OneHeap {
    /// The rule.
    pub rule: Rule,
    /// The take set used (for `any`, `1..=horizon`).
    pub takes: Vec<u32>,
    /// Grundy values (normal play without no_repeat).
    pub grundy: Option<Grundy>,
    /// Joint-state solution (misère or no_repeat).
    pub joint: Option<Joint>,
    /// P-positions at the start of a game.
    pub is_p: Vec<bool>,
    /// Positions with no winning take (Grundy 0, or joint code 0), ascending: the
    /// only children that can be P-positions, apart from `single` below.
    zeros: Vec<u32>,
    /// With no_repeat: `(y + a, y)` for each y whose single winning take is `a`
    /// (then `(y, last = a)` is a P-position), sorted.
    single: Vec<(u64, u32)>,
    /// Membership of each take (index = take), up to the largest take.
    in_s: Vec<bool>,
    /// The horizon asked for (the table may reach further: see [`OneHeap::solve_proving`]).
    pub horizon: usize,
    /// What proves the period, once looked for.
    proof: OnceLock<Option<Proof>>,
}

/// What proves a one-heap sequence's period for every heap size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Proof {
    /// The state (the Grundy values, or the joint state with the last take)
    /// repeats over a full window of max(S): its `(period, preperiod)`.
    Window(usize, usize),
    /// The losses' induction step holds over one period
    /// ([`induction::loss_period`]): the losses' `(period, preperiod)`.
    Losses(usize, usize),
}

impl Proof {
    /// `(period, preperiod)`.
    pub fn pair(self) -> (usize, usize) {
        match self {
            Proof::Window(p, a) | Proof::Losses(p, a) => (p, a),
        }
    }
}

/// The winning takes from one heap size: `.1` takes counting up by one
/// from `.0` (in ascending order, as every list of takes), or a list.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Wins<'a> {
    /// `first, first + 1, …`, `len` of them.
    Counting(u32, usize),
    /// The takes, ascending.
    Takes(&'a [u32]),
}

/// The default cap of [`OneHeap::solve_proving`]: heap sizes computed at most
/// while looking for the proof window of a period.
pub const PROOF_CAP: usize = 10_000_000;

impl OneHeap {
    /// Solves `0..=horizon`.
    pub fn solve(rule: &Rule, horizon: usize, progress: &dyn Fn(u64)) -> OneHeap {
        let takes = rule.take.takes(horizon);
        let values = Values::solve(rule, &takes, horizon + 1, progress);
        OneHeap::from_values(rule, takes, values, horizon)
    }

    /// The outcomes, zeros and single winning takes read off the kernel's values.
    fn from_values(rule: &Rule, takes: Vec<u32>, values: Values, horizon: usize) -> OneHeap {
        let in_s = solver::membership(&takes);
        match values {
            Values::Grundy(g) => {
                let len = g.len();
                let is_p: Vec<bool> = (0..len).map(|n| g.get(n) == 0).collect();
                let zeros = (0..len).filter(|&n| is_p[n]).map(|n| n as u32).collect();
                OneHeap {
                    rule: rule.clone(),
                    takes,
                    grundy: Some(g),
                    joint: None,
                    is_p,
                    zeros,
                    single: vec![],
                    in_s,
                    horizon,
                    proof: OnceLock::new(),
                }
            }
            Values::Joint(j) => {
                let len = j.code.len();
                let is_p = (0..len).map(|n| j.child_is_p(n, None)).collect();
                let zeros = (0..len)
                    .filter(|&n| j.code[n] == 0)
                    .map(|n| n as u32)
                    .collect();
                let smax = takes.last().map_or(0, |&s| s as usize);
                let single = solver::singles_by_arrival(&j.code, smax);
                OneHeap {
                    rule: rule.clone(),
                    takes,
                    grundy: None,
                    joint: Some(j),
                    is_p,
                    zeros,
                    single,
                    in_s,
                    horizon,
                    proof: OnceLock::new(),
                }
            }
        }
    }

    /// [`OneHeap::solve`] to `horizon`, then, for a finite take set whose
    /// period no [`Proof`] covers yet, to 4, 16, … times as far (at most
    /// `cap` heap sizes; a cap below the horizon is the horizon) until one
    /// does, as the parity family extends its table. Only the kernel runs at
    /// the lengths that fall short. The result remembers the horizon asked
    /// for; [`OneHeap::end`] is how far it got.
    pub fn solve_proving(
        rule: &Rule,
        horizon: usize,
        cap: usize,
        progress: &dyn Fn(u64),
    ) -> OneHeap {
        let mut len = horizon;
        loop {
            let takes = rule.take.takes(len);
            let values = Values::solve(rule, &takes, len + 1, progress);
            let done = rule.take.max_take().is_none() || len >= cap;
            let proof = values.proof(rule, &takes);
            if done || proof.is_some() {
                let one = OneHeap::from_values(rule, takes, values, horizon);
                let _ = one.proof.set(proof);
                return one;
            }
            len = len.saturating_mul(4).min(cap);
        }
    }

    /// The last heap size computed.
    pub fn end(&self) -> usize {
        self.is_p.len() - 1
    }

    /// Heap sizes computed past the horizon asked for (0 when it sufficed).
    pub fn extension(&self) -> usize {
        self.end() - self.horizon.min(self.end())
    }

    /// Is `(n, last)` a P-position? (`last` only matters with no_repeat.)
    pub fn is_p_after(&self, n: usize, last: Option<u32>) -> bool {
        match &self.joint {
            Some(j) => j.child_is_p(n, last),
            None => self.grundy.as_ref().unwrap().get(n) == 0,
        }
    }

    /// Winning takes from `n` (the opponent's last take `last`).
    pub fn winning_takes(&self, n: usize, last: Option<u32>) -> Vec<u32> {
        let mut out = Vec::new();
        self.winning_takes_into(n, last, &mut out);
        out
    }

    /// [`Self::winning_takes`] into a reused buffer (no allocation per position).
    pub fn winning_takes_into(&self, n: usize, last: Option<u32>, out: &mut Vec<u32>) {
        let smax = *self.takes.last().unwrap() as usize;
        let lo = n.saturating_sub(smax) as u32;
        let z = self.zeros.partition_point(|&y| y < lo);
        let smin = self.takes[0] as usize;
        let e = match n.checked_sub(smin) {
            Some(hi) => self.zeros.partition_point(|&y| y as usize <= hi),
            None => z,
        };
        let s = self.single.partition_point(|&(t, _)| t < n as u64);
        self.winning_takes_from(n, last, (z, e.max(z), s), out);
    }

    /// The winning takes from each heap size of `ns` with no last take, in
    /// ascending order, as `f(n, takes)`: [`Self::winning_takes`] with the
    /// look-ups of one size started where the previous size's ended, so a
    /// run of ascending sizes costs no search (any order is answered). Takes
    /// that count up by one are told as such when that is known without
    /// listing them (an interval of takes, whose P-positions in reach are
    /// consecutive).
    pub fn winning_takes_each(
        &self,
        ns: impl Iterator<Item = usize>,
        mut f: impl FnMut(usize, Wins),
    ) {
        let (smin, smax) = (self.takes[0] as usize, *self.takes.last().unwrap() as usize);
        let (mut z, mut e, mut s, mut prev) = (0, 0, 0, 0);
        let mut out = Vec::new();
        for n in ns {
            if n < prev {
                (z, e, s) = (0, 0, 0);
            }
            prev = n;
            let lo = n.saturating_sub(smax) as u32;
            z += self.zeros[z..].iter().take_while(|&&y| y < lo).count();
            e = e.max(z);
            if let Some(hi) = n.checked_sub(smin) {
                let hi = hi as u32;
                e += self.zeros[e..].iter().take_while(|&&y| y <= hi).count();
            }
            s += self.single[s..]
                .iter()
                .take_while(|&&(t, _)| t < n as u64)
                .count();
            match self.counting_takes(n, (z, e, s)) {
                Some((first, len)) => f(n, Wins::Counting(first, len)),
                None => {
                    self.winning_takes_from(n, None, (z, e, s), &mut out);
                    f(n, Wins::Takes(&out));
                }
            }
        }
    }

    /// [`Self::winning_takes_from`] with no last take, as `(first, len)`,
    /// when the takes are an interval and the Grundy zeros in reach
    /// (`z..e`) are consecutive: then every one is reached by a take, and
    /// the takes count up from `n` minus the last of them.
    fn counting_takes(&self, n: usize, (z, e, s): (usize, usize, usize)) -> Option<(u32, usize)> {
        let (smin, smax) = (self.takes[0] as usize, *self.takes.last().unwrap() as usize);
        if self.joint.is_some() || self.single.get(s).is_some_and(|&(t, _)| t == n as u64) {
            return None;
        }
        if n < smin || e <= z {
            return Some((0, 0));
        }
        let zs = &self.zeros[z..e];
        let (lo, hi) = (zs[0] as usize, zs[zs.len() - 1] as usize);
        let interval = smax - smin + 1 == self.takes.len();
        (interval && hi - lo + 1 == zs.len()).then(|| ((n - hi) as u32, zs.len()))
    }

    /// The winning takes from `n`, given where the candidates are: `z..e`,
    /// the `zeros` in `[n - max S, n - min S]`, and from `s`, the first of
    /// `single` at or above `n`.
    fn winning_takes_from(
        &self,
        n: usize,
        last: Option<u32>,
        (z, e, s): (usize, usize, usize),
        out: &mut Vec<u32>,
    ) {
        out.clear();
        // Only positions with no winning take (or, with no_repeat, whose single
        // winning take is the move itself) can be P after a move: look those up
        // in the window [n - max S, n - min S] instead of trying every take.
        let (smin, smax) = (self.takes[0] as usize, *self.takes.last().unwrap() as usize);
        if n < smin {
            return;
        }
        let key = n as u64;
        let m = self.single[s..]
            .iter()
            .take_while(|&&(t, _)| t == key)
            .count();
        let zs = &self.zeros[z..e];
        if self.joint.is_none() && m == 0 {
            // Grundy zeros only: each is P after any move; descending
            // candidates give the takes in ascending order, all of them
            // takes when the take set is an interval.
            let takes = zs.iter().rev().map(|&y| (n - y as usize) as u32);
            if smax - smin + 1 == self.takes.len() {
                out.extend(takes);
            } else {
                out.extend(takes.filter(|&t| self.in_s[t as usize]));
            }
            return;
        }
        let cands = zs.iter().copied();
        let more = self.single[s..s + m].iter().map(|&(_, y)| y);
        // Without a joint table the candidates are the Grundy zeros: each is
        // P after any move.
        let checked = self.joint.is_some();
        for y in cands.chain(more) {
            let s = n - y as usize;
            if s > smax || !self.in_s[s] || (self.rule.no_repeat && last == Some(s as u32)) {
                continue;
            }
            if !checked || self.is_p_after(y as usize, Some(s as u32)) {
                out.push(s as u32);
            }
        }
        if m == 0 {
            // Distinct ascending candidates: the takes are distinct and descending.
            out.reverse();
        } else {
            out.sort_unstable();
            out.dedup();
        }
    }

    /// The proven period of the joint state, if the take set is finite.
    pub fn witness(&self) -> Option<(usize, usize)> {
        self.witness_from(self.grundy.as_ref().map(Grundy::to_vec).as_deref())
    }

    /// The witness, given the Grundy values when they are already at hand.
    fn witness_from(&self, grundy: Option<&[u32]>) -> Option<(usize, usize)> {
        proof_witness(&self.rule, grundy, self.joint.as_ref())
    }

    /// What proves the period: the state's window, else (no repeat, normal
    /// play) the losses' induction; `None` when neither holds on the values
    /// computed.
    pub fn proof(&self) -> Option<Proof> {
        if let Some(p) = self.proof.get() {
            return *p;
        }
        self.proof_given(self.grundy.as_ref().map(Grundy::to_vec).as_deref())
    }

    /// [`OneHeap::proof`], given the Grundy values when they are already at hand.
    fn proof_given(&self, grundy: Option<&[u32]>) -> Option<Proof> {
        *self.proof.get_or_init(|| {
            find_proof(&self.rule, &self.takes, grundy, self.joint.as_ref(), || {
                Cow::Borrowed(&self.is_p[..])
            })
        })
    }

    /// Periods of the Grundy sequence (when defined) and of the outcome sequence.
    pub fn periods(&self) -> Vec<(&'static str, Option<Period>)> {
        // The Grundy values are unpacked once and serve both the proof and the period.
        let g = self.grundy.as_ref().map(Grundy::to_vec);
        let witness = self.proof_given(g.as_deref()).map(Proof::pair);
        let mut out = Vec::new();
        if let Some(g) = &g {
            out.push(("grundy", period::period_of(g, witness)));
        }
        out.push(("outcome", period::period_of(&self.is_p, witness)));
        out
    }
}

/// What the kernel computes for one heap: Grundy values (normal play without
/// no_repeat) or the joint state's codes.
enum Values {
    Grundy(Grundy),
    Joint(Joint),
}

impl Values {
    /// The kernel's values for heap sizes `0..len`.
    fn solve(rule: &Rule, takes: &[u32], len: usize, progress: &dyn Fn(u64)) -> Values {
        if rule.has_grundy_values() {
            let g = solver::grundy_sequence(takes, len);
            progress(len as u64);
            Values::Grundy(g)
        } else {
            Values::Joint(Joint::solve(
                &[len],
                takes,
                rule.play,
                rule.no_repeat,
                progress,
            ))
        }
    }

    /// What proves the period ([`OneHeap::proof`]), if the take set is finite.
    fn proof(&self, rule: &Rule, takes: &[u32]) -> Option<Proof> {
        match self {
            Values::Grundy(g) => find_proof(rule, takes, Some(&g.to_vec()), None, || {
                Cow::Owned((0..g.len()).map(|n| g.get(n) == 0).collect())
            }),
            Values::Joint(j) => find_proof(rule, takes, None, Some(j), || {
                Cow::Owned((0..j.code.len()).map(|n| j.child_is_p(n, None)).collect())
            }),
        }
    }
}

/// What proves the period: the state's window, else, for a finite take set
/// under no repeat and normal play, the losses' induction on the outcomes at
/// the start (`is_p`, asked for only then). The one place that decides.
fn find_proof<'a>(
    rule: &Rule,
    takes: &[u32],
    grundy: Option<&[u32]>,
    joint: Option<&Joint>,
    is_p: impl FnOnce() -> Cow<'a, [bool]>,
) -> Option<Proof> {
    if let Some((p, a)) = proof_witness(rule, grundy, joint) {
        return Some(Proof::Window(p, a));
    }
    if !(rule.no_repeat && rule.play == Play::Normal && rule.take.max_take().is_some()) {
        return None;
    }
    let (p, a) = induction::loss_period(takes, &is_p())?;
    Some(Proof::Losses(p, a))
}

/// The proven period of the state sequence (the Grundy values when given,
/// else the joint codes), if the take set is finite.
fn proof_witness(
    rule: &Rule,
    grundy: Option<&[u32]>,
    joint: Option<&Joint>,
) -> Option<(usize, usize)> {
    let w = rule.take.max_take()? as usize;
    match (grundy, joint) {
        (Some(g), _) => period::proven_state_period(g, w, w),
        (None, Some(j)) => period::proven_state_period(&solver::joint_state_sequence(j), w, w),
        _ => None,
    }
}
