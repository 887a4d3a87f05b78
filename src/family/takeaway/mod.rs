//! `takeaway`: heaps and a set of allowed takes (GAMES.md §1; reports 003, 004).
//!
//! Sweep parameters:
//!
//! ```yaml
//! family: takeaway
//! take: {max: 2..12}            # or {min: m, max: n}, {set: [1, 3, 4]}, any, or a list of these
//! heaps: 1                      # number of heaps D (one value per sweep)
//! N: 0..45                      # heap sizes, for every heap (or N1:, N2:, … per heap)
//! play: normal                  # normal | misere, or a list
//! no_repeat: false              # true | false, or [false, true]
//! horizon: 5000                 # optional: one-heap sequences are computed to here for periods
//! ```
//!
//! Datasets: `positions` (one row per position and rule), `periods` and
//! `loss_sets` (one heap: one row per rule and sequence).

pub mod brute;
pub mod play;
pub mod solver;

use std::fmt::Write as _;
use std::sync::Arc;

use anyhow::bail;
use serde_json::json;

use crate::family::{Answer, Case, CaseCtx, Family, Output, Plan};
use crate::game::{PLAY_WORDS, Play};
use crate::period::{self, Period};
use crate::spec::{Node, SWEEP_KEYS, SpecError};
use crate::table::{StrVec, Table, Values};
use crate::view::{View, ViewKind};

use solver::{Grundy, Joint};

/// The family (registered in [`crate::family::FAMILIES`]).
pub struct Takeaway;

/// The take set as the spec wrote it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TakeForm {
    /// Any positive number (ordinary Nim).
    Any,
    /// `{min: m, max: n}` (`{max: n}` is `m = 1`).
    Range(u32, u32),
    /// An explicit set (sorted, no duplicates).
    Set(Vec<u32>),
}

impl TakeForm {
    /// The take set up to `horizon` (for `any`, `1..=horizon`).
    pub fn takes(&self, horizon: usize) -> Vec<u32> {
        match self {
            TakeForm::Any => (1..=horizon.max(1) as u32).collect(),
            TakeForm::Range(m, n) => (*m..=*n).collect(),
            TakeForm::Set(s) => s.clone(),
        }
    }
    /// Largest take, `None` for `any`.
    pub fn max_take(&self) -> Option<u32> {
        match self {
            TakeForm::Any => None,
            TakeForm::Range(_, n) => Some(*n),
            TakeForm::Set(s) => s.last().copied(),
        }
    }
    /// Smallest take.
    pub fn min_take(&self) -> u32 {
        match self {
            TakeForm::Any => 1,
            TakeForm::Range(m, _) => *m,
            TakeForm::Set(s) => s[0],
        }
    }
    /// The `take` column: `max:5`, `min:2,max:7`, `set:1,3,4`, `any`.
    pub fn text(&self) -> String {
        match self {
            TakeForm::Any => "any".into(),
            TakeForm::Range(1, n) => format!("max:{n}"),
            TakeForm::Range(m, n) => format!("min:{m},max:{n}"),
            TakeForm::Set(s) => format!("set:{}", join(s, ",")),
        }
    }
}

fn join<T: ToString>(v: &[T], sep: &str) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

/// A complete rule: take set, play convention, no-repeat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    /// Take set.
    pub take: TakeForm,
    /// Play convention.
    pub play: Play,
    /// Cond(3): no repeat of the opponent's last take.
    pub no_repeat: bool,
}

impl Rule {
    /// The `rule` column: the take set, then `no_repeat` and `misere` when they apply.
    pub fn label(&self) -> String {
        let mut s = self.take.text();
        if self.no_repeat {
            s.push_str(" no_repeat");
        }
        if self.play == Play::Misere {
            s.push_str(" misere");
        }
        s
    }
}

const KEYS: &[&str] = &[
    "take",
    "heaps",
    "N",
    "N1",
    "N2",
    "N3",
    "N4",
    "N5",
    "N6",
    "play",
    "no_repeat",
    "horizon",
];
const MAX_HEAP: i64 = 1 << 40;

/// Parses one `take:` item.
fn parse_take(n: &Node<'_>, out: &mut Vec<TakeForm>, skipped: &mut usize) -> Result<(), SpecError> {
    let allowed =
        "allowed: `any`, `{max: n}`, `{min: m, max: n}` (1 ≤ m ≤ n) or `{set: [1, 3, 4]}`";
    if let Some(s) = n.value().as_str() {
        if s == "any" {
            out.push(TakeForm::Any);
            return Ok(());
        }
        return Err(n.err(format!("unknown take rule {s:?}; {allowed}")));
    }
    if !n.value().is_object() {
        return Err(n.err(format!("expected a take rule; {allowed}")));
    }
    n.expect_keys(&["min", "max", "set"])?;
    if let Some(set) = n.get("set") {
        if n.get("min").is_some() || n.get("max").is_some() {
            return Err(n.err("give either `set:` or `min:`/`max:`, not both"));
        }
        // A list of sets, or one set.
        let items = set.items();
        let nested = items.iter().any(|i| i.value().is_array());
        let sets: Vec<Node<'_>> = if nested { items } else { vec![set.clone()] };
        for s in sets {
            let mut v: Vec<u32> = s
                .ints(1, u32::MAX as i64)?
                .into_iter()
                .map(|x| x as u32)
                .collect();
            v.sort_unstable();
            v.dedup();
            out.push(TakeForm::Set(v));
        }
        return Ok(());
    }
    let maxs = n
        .req("max", "the largest take n (a number, list or range)")?
        .ints(1, u32::MAX as i64)?;
    let mins = match n.get("min") {
        Some(m) => m.ints(1, u32::MAX as i64)?,
        None => vec![1],
    };
    let single = mins.len() == 1 && maxs.len() == 1;
    for &m in &mins {
        for &x in &maxs {
            if m > x {
                if single {
                    return Err(n.err(format!(
                        "min ({m}) is larger than max ({x}); need 1 ≤ min ≤ max"
                    )));
                }
                *skipped += 1;
                continue;
            }
            out.push(TakeForm::Range(m as u32, x as u32));
        }
    }
    Ok(())
}

/// The validated sweep.
struct Params {
    takes: Vec<TakeForm>,
    heaps: usize,
    sizes: Vec<Vec<u64>>,
    plays: Vec<Play>,
    no_repeat: Vec<bool>,
    horizon: Option<usize>,
    skipped: usize,
}

fn parse_params(sweep: &Node<'_>) -> Result<Params, SpecError> {
    let mut allowed: Vec<&str> = SWEEP_KEYS.to_vec();
    allowed.extend_from_slice(KEYS);
    sweep.expect_keys(&allowed)?;
    let take_node = sweep.req(
        "take",
        "the take set: any, {max: n}, {min: m, max: n} or {set: [...]}",
    )?;
    let mut takes = Vec::new();
    let mut skipped = 0;
    for item in take_node.items() {
        parse_take(&item, &mut takes, &mut skipped)?;
    }
    if takes.is_empty() {
        return Err(take_node.err("no valid take rule: every min/max combination has min > max"));
    }
    let heaps = match sweep.get("heaps") {
        Some(h) => h.int(1, 6)? as usize,
        None => 1,
    };
    let mut sizes = Vec::new();
    for i in 1..=6 {
        let key = format!("N{i}");
        if let Some(nk) = sweep.get(&key)
            && i > heaps
        {
            return Err(nk.err(format!("there are only {heaps} heap(s) (`heaps: {heaps}`)")));
        }
    }
    for i in 1..=heaps {
        let key = format!("N{i}");
        let node = match sweep.get(&key) {
            Some(n) => n,
            None => sweep.req("N", "heap sizes, e.g. `N: 0..50` (or N1:, N2:, … per heap)")?,
        };
        let mut v: Vec<u64> = node
            .ints(0, MAX_HEAP)?
            .into_iter()
            .map(|x| x as u64)
            .collect();
        if heaps > 1 {
            v.sort_unstable();
            v.dedup();
        }
        sizes.push(v);
    }
    let plays = match sweep.get("play") {
        Some(p) => p
            .words(PLAY_WORDS)?
            .into_iter()
            .map(|w| Play::parse(w).unwrap())
            .collect(),
        None => vec![Play::Normal],
    };
    let no_repeat = match sweep.get("no_repeat") {
        Some(b) => b.bools()?,
        None => vec![false],
    };
    let horizon = sweep
        .get("horizon")
        .map(|h| h.int(1, 1 << 32))
        .transpose()?
        .map(|h| h as usize);
    let p = Params {
        takes,
        heaps,
        sizes,
        plays,
        no_repeat,
        horizon,
        skipped,
    };
    // Refuse joint-state problems that cannot fit in memory, up front.
    if heaps > 1 {
        let states: f64 = p
            .sizes
            .iter()
            .map(|v| (*v.last().unwrap() + 1) as f64)
            .product();
        let joint = p.plays.contains(&Play::Misere) || p.no_repeat.contains(&true);
        if joint && states * 4.0 > 8e9 {
            return Err(sweep.err(format!(
                "misère or no_repeat on {heaps} heaps needs the joint state table: {states:.3e} states ≈ {:.1} GiB, more than the 8 GiB allowed; use smaller heaps",
                states * 4.0 / (1u64 << 30) as f64
            )));
        }
        if p.takes.contains(&TakeForm::Any)
            && joint
            && states * (*p.sizes.iter().flatten().max().unwrap() as f64) > 1e11
        {
            return Err(sweep.err("take: any with misère/no_repeat on several heaps is solved by brute joint DP; these heaps are too large (more than 1e11 move checks)"));
        }
    } else if *p.sizes[0].last().unwrap() > (1 << 32) && p.takes.contains(&TakeForm::Any) {
        return Err(sweep.err("take: any on one heap is computed as a table; use N ≤ 2^32"));
    }
    Ok(p)
}

/// One rule on one heap layout: the unit of work.
pub struct TakeCase {
    rule: Rule,
    sizes: Arc<Vec<Vec<u64>>>,
    sizes_key: String,
    horizon: usize,
}

impl TakeCase {
    fn max_sizes(&self) -> Vec<usize> {
        self.sizes
            .iter()
            .map(|v| *v.iter().max().unwrap() as usize)
            .collect()
    }
    fn rule_columns(&self, t: Table) -> Table {
        let r = &self.rule;
        let (min, max) = (
            r.take.min_take() as i64,
            r.take.max_take().map(|x| x as i64),
        );
        let set = match &r.take {
            TakeForm::Set(s) => join(s, ","),
            _ => String::new(),
        };
        let n = t.rows();
        let mut out = Table::new()
            .with("rule", Values::Str(repeat_str(&r.label(), n)))
            .with("take", Values::Str(repeat_str(&r.take.text(), n)))
            .with("take_min", Values::Int(vec![min; n]))
            .with("take_max", Values::OptInt(vec![max; n]))
            .with("take_set", Values::Str(repeat_str(&set, n)))
            .with("play", Values::Str(repeat_str(r.play.as_str(), n)))
            .with("no_repeat", Values::Bool(vec![r.no_repeat; n]))
            .with("heaps", Values::Int(vec![self.sizes.len() as i64; n]));
        for (name, v) in t.into_columns() {
            out.push(&name, v);
        }
        out
    }
}

/// Appends the decimal digits of `v` (no allocation, no formatter).
pub fn push_uint(buf: &mut String, mut v: u64) {
    let mut tmp = [0u8; 20];
    let mut i = tmp.len();
    loop {
        i -= 1;
        tmp[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    // Digits are ASCII.
    buf.push_str(std::str::from_utf8(&tmp[i..]).unwrap_or_default());
}

fn repeat_str(s: &str, n: usize) -> StrVec {
    let mut v = StrVec::with_capacity(n, n * s.len());
    for _ in 0..n {
        v.push(s);
    }
    v
}

fn membership(takes: &[u32]) -> Vec<bool> {
    let mut v = vec![false; *takes.last().unwrap() as usize + 1];
    for &t in takes {
        v[t as usize] = true;
    }
    v
}

/// The default horizon for one-heap sequences: far enough to prove most periods.
fn default_horizon(take: &TakeForm, max_n: usize) -> usize {
    match take.max_take() {
        Some(m) => max_n.max(64 * m as usize + 64),
        None => max_n,
    }
}

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
}

impl OneHeap {
    /// Solves `0..=horizon`.
    pub fn solve(rule: &Rule, horizon: usize, progress: &dyn Fn(u64)) -> OneHeap {
        let takes = rule.take.takes(horizon);
        let len = horizon + 1;
        if rule.play == Play::Normal && !rule.no_repeat {
            let g = solver::grundy_sequence(&takes, len);
            progress(len as u64);
            let is_p: Vec<bool> = (0..len).map(|n| g.get(n) == 0).collect();
            let zeros = (0..len).filter(|&n| is_p[n]).map(|n| n as u32).collect();
            let in_s = membership(&takes);
            OneHeap {
                rule: rule.clone(),
                takes,
                grundy: Some(g),
                joint: None,
                is_p,
                zeros,
                single: vec![],
                in_s,
            }
        } else {
            let j = Joint::solve(&[len], &takes, rule.play, rule.no_repeat, progress);
            let is_p = (0..len).map(|n| j.child_is_p(n, None)).collect();
            let zeros = (0..len)
                .filter(|&n| j.code[n] == 0)
                .map(|n| n as u32)
                .collect();
            let mut single: Vec<(u64, u32)> = (0..len)
                .filter(|&n| j.code[n] != 0 && j.code[n] != solver::MULTI)
                .map(|n| (n as u64 + j.code[n] as u64, n as u32))
                .collect();
            single.sort_unstable();
            let in_s = membership(&takes);
            OneHeap {
                rule: rule.clone(),
                takes,
                grundy: None,
                joint: Some(j),
                is_p,
                zeros,
                single,
                in_s,
            }
        }
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
        out.clear();
        // Only positions with no winning take (or, with no_repeat, whose single
        // winning take is the move itself) can be P after a move: look those up
        // in the window [n - max S, n - min S] instead of trying every take.
        let (smin, smax) = (self.takes[0] as usize, *self.takes.last().unwrap() as usize);
        if n < smin {
            return;
        }
        let (lo, hi) = (n.saturating_sub(smax) as u32, (n - smin) as u32);
        let start = self.zeros.partition_point(|&y| y < lo);
        let cands = self.zeros[start..]
            .iter()
            .take_while(|&&y| y <= hi)
            .copied();
        let key = n as u64;
        let s0 = self.single.partition_point(|&(t, _)| t < key);
        let more = self.single[s0..]
            .iter()
            .take_while(|&&(t, _)| t == key)
            .map(|&(_, y)| y);
        for y in cands.chain(more) {
            let s = n - y as usize;
            if s > smax || !self.in_s[s] || (self.rule.no_repeat && last == Some(s as u32)) {
                continue;
            }
            if self.is_p_after(y as usize, Some(s as u32)) {
                out.push(s as u32);
            }
        }
        out.sort_unstable();
        out.dedup();
    }

    /// The proven period of the joint state, if the take set is finite.
    pub fn witness(&self) -> Option<(usize, usize)> {
        self.witness_from(self.grundy.as_ref().map(Grundy::to_vec).as_deref())
    }

    /// The witness, given the Grundy values when they are already at hand.
    fn witness_from(&self, grundy: Option<&[u32]>) -> Option<(usize, usize)> {
        let w = self.rule.take.max_take()? as usize;
        match (grundy, &self.joint) {
            (Some(g), _) => period::proven_state_period(g, w, w),
            (None, Some(j)) => period::proven_state_period(&solver::joint_state_sequence(j), w, w),
            _ => None,
        }
    }

    /// Periods of the Grundy sequence (when defined) and of the outcome sequence.
    pub fn periods(&self) -> Vec<(&'static str, Option<Period>)> {
        // The Grundy values are unpacked once and serve both the proof and the period.
        let g = self.grundy.as_ref().map(Grundy::to_vec);
        let witness = self.witness_from(g.as_deref());
        let mut out = Vec::new();
        if let Some(g) = &g {
            out.push(("grundy", period::period_of(g, witness)));
        }
        out.push(("outcome", period::period_of(&self.is_p, witness)));
        out
    }
}

impl Case for TakeCase {
    fn key(&self) -> String {
        format!(
            "takeaway/v1/take={}/play={}/no_repeat={}/heaps={}/{}/horizon={}",
            self.rule.take.text(),
            self.rule.play.as_str(),
            self.rule.no_repeat,
            self.sizes.len(),
            self.sizes_key,
            self.horizon
        )
    }
    fn cost(&self) -> u64 {
        let k = self.rule.take.takes(self.horizon.min(64)).len() as u64;
        if self.sizes.len() == 1 {
            let per = if self.rule.play == Play::Normal && !self.rule.no_repeat {
                1
            } else {
                k
            };
            self.horizon as u64 * per + self.sizes[0].len() as u64 * 4
        } else {
            let states: u64 = self.max_sizes().iter().map(|&m| m as u64 + 1).product();
            states * k * self.sizes.len() as u64 / 2 + states
        }
    }
    fn memory(&self) -> u64 {
        if self.sizes.len() == 1 {
            self.horizon as u64 * 8 + self.sizes[0].len() as u64 * 80
        } else {
            let states: u64 = self.max_sizes().iter().map(|&m| m as u64 + 1).product();
            states * 4 + self.sizes.iter().map(|v| v.len() as u64).product::<u64>() * 80
        }
    }
    fn solve(&self, ctx: &CaseCtx<'_>) -> anyhow::Result<Output> {
        if self.sizes.len() == 1 {
            self.solve_one(ctx)
        } else {
            self.solve_many(ctx)
        }
    }
}

impl TakeCase {
    fn solve_one(&self, ctx: &CaseCtx<'_>) -> anyhow::Result<Output> {
        let one = OneHeap::solve(&self.rule, self.horizon, ctx.progress);
        let ns = &self.sizes[0];
        // The per-position rows are the bulk of a big sweep; skip them if not kept.
        let rows = if ctx.wants("positions") { ns.len() } else { 0 };
        let mut nn = Vec::with_capacity(rows);
        let mut outcome = StrVec::with_capacity(rows, rows);
        let mut grundy = Vec::with_capacity(rows);
        let mut moves = StrVec::with_capacity(rows, rows * 2);
        let mut losses = Vec::new();
        let mut wins_buf: Vec<u32> = Vec::new();
        for &n in ns.iter() {
            let n = n as usize;
            let p = one.is_p[n];
            if p {
                losses.push(n);
            }
            if rows == 0 {
                continue;
            }
            nn.push(n as i64);
            outcome.push(if p { "P" } else { "N" });
            grundy.push(one.grundy.as_ref().map(|g| g.get(n) as i64));
            one.winning_takes_into(n, None, &mut wins_buf);
            moves.push_with(|buf| {
                for (k, &s) in wins_buf.iter().enumerate() {
                    if k > 0 {
                        buf.push(',');
                    }
                    push_uint(buf, s as u64);
                }
            });
        }
        let positions = self.rule_columns(
            Table::new()
                .with("N", Values::Int(nn))
                .with("outcome", Values::Str(outcome))
                .with("grundy", Values::OptInt(grundy))
                .with("winning_moves", Values::Str(moves)),
        );
        // Periods.
        let mut seq = StrVec::default();
        let (mut per, mut pre, mut status, mut evidence, mut values, mut residues, mut form) = (
            vec![],
            vec![],
            StrVec::default(),
            StrVec::default(),
            StrVec::default(),
            StrVec::default(),
            StrVec::default(),
        );
        let mut computed = Vec::new();
        for (name, p) in one.periods() {
            seq.push(name);
            computed.push(self.horizon as i64);
            match p {
                Some(p) => {
                    per.push(Some(p.period as i64));
                    pre.push(Some(p.preperiod as i64));
                    status.push(p.status.as_str());
                    evidence.push(&match p.status {
                        period::Status::Proven => format!(
                            "joint state repeats over a full window of max(S) = {} after {}",
                            self.rule.take.max_take().unwrap_or(0),
                            p.preperiod
                        ),
                        period::Status::Observed => {
                            format!(
                                "observed on [{}, {}], {} periods",
                                p.preperiod,
                                p.end,
                                p.periods_seen()
                            )
                        }
                    });
                    let range = p.preperiod..p.preperiod + p.period;
                    values.push(&match name {
                        "grundy" => {
                            let g = one.grundy.as_ref().unwrap();
                            range
                                .map(|n| g.get(n).to_string())
                                .collect::<Vec<_>>()
                                .join(" ")
                        }
                        _ => range
                            .map(|n| if one.is_p[n] { "P" } else { "N" })
                            .collect::<Vec<_>>()
                            .join(""),
                    });
                    let (_, res) = period::residues(&one.is_p, &p);
                    residues.push(&join(&res, ","));
                    form.push(&period::closed_form("N", &one.is_p, &p));
                }
                None => {
                    per.push(None);
                    pre.push(None);
                    status.push("none");
                    evidence.push(&format!(
                        "no period with enough evidence on [0, {}]",
                        self.horizon
                    ));
                    values.push("");
                    residues.push("");
                    form.push("");
                }
            }
        }
        let periods = self.rule_columns(
            Table::new()
                .with("sequence", Values::Str(seq))
                .with("computed_to", Values::Int(computed))
                .with("period", Values::OptInt(per))
                .with("preperiod", Values::OptInt(pre))
                .with("status", Values::Str(status))
                .with("evidence", Values::Str(evidence))
                .with("period_values", Values::Str(values))
                .with("loss_residues", Values::Str(residues))
                .with("closed_form", Values::Str(form)),
        );
        let loss = self.rule_columns(
            Table::new()
                .with("N_min", Values::Int(vec![*ns.iter().min().unwrap() as i64]))
                .with("N_max", Values::Int(vec![*ns.iter().max().unwrap() as i64]))
                .with("count", Values::Int(vec![losses.len() as i64]))
                .with(
                    "loss_set",
                    Values::Str([join(&losses, ", ").as_str()].into_iter().collect()),
                ),
        );
        Ok(vec![
            ("positions", positions),
            ("periods", periods),
            ("loss_sets", loss),
        ])
    }

    fn solve_many(&self, ctx: &CaseCtx<'_>) -> anyhow::Result<Output> {
        let d = self.sizes.len();
        let maxs = self.max_sizes();
        let top = *maxs.iter().max().unwrap();
        let takes = self.rule.take.takes(top);
        let xor_path = self.rule.play == Play::Normal && !self.rule.no_repeat;
        let g = xor_path.then(|| solver::grundy_sequence(&takes, top + 1));
        let joint = (!xor_path).then(|| {
            let dims: Vec<usize> = maxs.iter().map(|m| m + 1).collect();
            Joint::solve(
                &dims,
                &takes,
                self.rule.play,
                self.rule.no_repeat,
                ctx.progress,
            )
        });
        if let Some(g) = &g {
            (ctx.progress)(g.len() as u64);
        }
        let rows: usize = self.sizes.iter().map(Vec::len).product();
        let mut cols: Vec<Vec<i64>> = vec![Vec::with_capacity(rows); d];
        let mut outcome = StrVec::with_capacity(rows, rows);
        let mut grundy = Vec::with_capacity(rows);
        let mut moves = StrVec::with_capacity(rows, rows * 3);
        let mut idx = vec![0usize; d];
        let mut heaps = vec![0usize; d];
        let mut wins: Vec<(usize, u32)> = Vec::new();
        'rows: loop {
            for i in 0..d {
                heaps[i] = self.sizes[i][idx[i]] as usize;
                cols[i].push(heaps[i] as i64);
            }
            wins.clear();
            match (&g, &joint) {
                (Some(g), _) => {
                    let x = heaps.iter().fold(0, |a, &h| a ^ g.get(h));
                    grundy.push(Some(x as i64));
                    outcome.push(if x == 0 { "P" } else { "N" });
                    if x != 0 {
                        for (i, &h) in heaps.iter().enumerate() {
                            let target = g.get(h) ^ x;
                            for &s in &takes {
                                if s as usize > h {
                                    break;
                                }
                                if g.get(h - s as usize) == target {
                                    wins.push((i, s));
                                }
                            }
                        }
                    }
                }
                (None, Some(j)) => {
                    grundy.push(None);
                    outcome.push(if j.start_is_p(&heaps) { "P" } else { "N" });
                    wins = j.winning_moves(&heaps, None);
                }
                _ => unreachable!(),
            }
            moves.push_with(|buf| {
                for (k, (i, s)) in wins.iter().enumerate() {
                    if k > 0 {
                        buf.push(',');
                    }
                    buf.push((b'A' + *i as u8) as char);
                    push_uint(buf, *s as u64);
                }
            });
            for i in (0..d).rev() {
                idx[i] += 1;
                if idx[i] < self.sizes[i].len() {
                    continue 'rows;
                }
                idx[i] = 0;
            }
            break;
        }
        let mut t = Table::new();
        for (i, c) in cols.into_iter().enumerate() {
            t.push(&format!("N{}", i + 1), Values::Int(c));
        }
        let t = t
            .with("outcome", Values::Str(outcome))
            .with("grundy", Values::OptInt(grundy))
            .with("winning_moves", Values::Str(moves));
        Ok(vec![("positions", self.rule_columns(t))])
    }
}

fn sizes_key(sizes: &[Vec<u64>]) -> String {
    sizes
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let contiguous = v.windows(2).all(|w| w[1] == w[0] + 1);
            if contiguous {
                format!("N{}={}..{}", i + 1, v[0], v[v.len() - 1])
            } else {
                let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
                format!(
                    "N{}=list{}:{:016x}",
                    i + 1,
                    v.len(),
                    xxhash_rust::xxh3::xxh3_64(&bytes)
                )
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

impl Family for Takeaway {
    fn name(&self) -> &'static str {
        "takeaway"
    }
    fn about(&self) -> &'static str {
        "Heaps of stones; a move takes t stones from one heap, t in a set S ({max: n}, {min: m, max: n}, \
         {set: [...]}, or any). Normal or misère play, optional no_repeat (a player may not take the number \
         the opponent just took). Reports 003 (misère Nim 3-5-7) and 004 (Cond(1), Cond(2), Cond(3))."
    }
    fn params_help(&self) -> &'static str {
        "take: any | {max: n} | {min: m, max: n} | {set: [1, 3, 4]} (values, lists or ranges a..b; a list of rules)\n\
         heaps: D (1..6)\n\
         N: heap sizes for every heap (or N1:, N2:, … per heap), e.g. 0..50\n\
         play: normal | misere (or a list)\n\
         no_repeat: true | false (or [false, true])\n\
         horizon: one-heap sequences are computed to this N for period detection (default max(N, 64·max(S)+64))"
    }
    fn view_names(&self) -> Vec<&'static str> {
        vec![
            "winning_table",
            "loss_sets",
            "period_table",
            "move_table",
            "loss_scatter",
            "p_positions",
            "positions_table",
        ]
    }
    fn plan(&self, sweep: &Node<'_>) -> Result<Plan, SpecError> {
        let p = parse_params(sweep)?;
        let sizes = Arc::new(p.sizes);
        let skey = sizes_key(&sizes);
        let max_n = *sizes[0].iter().max().unwrap() as usize;
        let mut cases: Vec<Box<dyn Case>> = Vec::new();
        for take in &p.takes {
            for &play in &p.plays {
                for &no_repeat in &p.no_repeat {
                    let horizon = if p.heaps == 1 {
                        p.horizon
                            .unwrap_or_else(|| default_horizon(take, max_n))
                            .max(max_n)
                    } else {
                        0
                    };
                    cases.push(Box::new(TakeCase {
                        rule: Rule {
                            take: take.clone(),
                            play,
                            no_repeat,
                        },
                        sizes: sizes.clone(),
                        sizes_key: skey.clone(),
                        horizon,
                    }));
                }
            }
        }
        let mut notes = Vec::new();
        if p.skipped > 0 {
            notes.push(format!(
                "skipped {} min/max combinations with min > max",
                p.skipped
            ));
        }
        let rule_cols = |extra: &[&str]| -> Vec<String> {
            let mut v: Vec<String> = ["rule"].iter().map(|s| s.to_string()).collect();
            v.extend(extra.iter().map(|s| s.to_string()));
            v
        };
        let mut views = Vec::new();
        if p.heaps == 1 {
            views.push(View::new(
                "winning_table",
                "Winning first moves (E: P-position, no winning move)",
                "positions",
                ViewKind::Grid {
                    row: "N".into(),
                    column: "rule".into(),
                    cell: "winning_moves".into(),
                    empty: "E".into(),
                    facet: None,
                },
            ));
            views.push(View::new(
                "loss_sets",
                "Loss sets L (P-positions)",
                "loss_sets",
                ViewKind::Listing {
                    columns: rule_cols(&["N_min", "N_max", "count", "loss_set"]),
                    filter: vec![],
                },
            ));
            views.push(View::new(
                "period_table",
                "Periods (minimal period, then minimal preperiod)",
                "periods",
                ViewKind::Listing {
                    columns: rule_cols(&[
                        "sequence",
                        "preperiod",
                        "period",
                        "status",
                        "loss_residues",
                        "period_values",
                        "closed_form",
                        "evidence",
                    ]),
                    filter: vec![],
                },
            ));
        } else {
            if p.heaps == 2 {
                views.push(View::new(
                    "move_table",
                    "Winning moves (A3: take 3 from heap A; E: P-position)",
                    "positions",
                    ViewKind::Grid {
                        row: "N2".into(),
                        column: "N1".into(),
                        cell: "winning_moves".into(),
                        empty: "E".into(),
                        facet: Some("rule".into()),
                    },
                ));
                views.push(View::new(
                    "loss_scatter",
                    "P-positions (N1, N2)",
                    "positions",
                    ViewKind::Scatter {
                        x: "N1".into(),
                        y: "N2".into(),
                        filter: Some(("outcome".into(), "P".into())),
                        facet: Some("rule".into()),
                    },
                ));
            }
            let mut cols = vec!["rule".to_string()];
            cols.extend((1..=p.heaps).map(|i| format!("N{i}")));
            let mut all = cols.clone();
            all.extend(
                ["outcome", "grundy", "winning_moves"]
                    .iter()
                    .map(|s| s.to_string()),
            );
            views.push(View::new(
                "p_positions",
                "P-positions",
                "positions",
                ViewKind::Listing {
                    columns: cols,
                    filter: vec![("outcome".into(), "P".into())],
                },
            ));
            views.push(View::new(
                "positions_table",
                "Positions",
                "positions",
                ViewKind::Listing {
                    columns: all,
                    filter: vec![],
                },
            ));
        }
        Ok(Plan {
            cases,
            views,
            notes,
        })
    }

    fn play(&self, params: &Node<'_>) -> anyhow::Result<Box<dyn crate::play::PlayGame>> {
        play::game(params)
    }

    fn solve(&self, pos: &Node<'_>) -> anyhow::Result<Answer> {
        pos.expect_keys(&["heaps", "take", "play", "no_repeat", "last_take"])?;
        let heaps: Vec<u64> = pos
            .req("heaps", "the heap sizes, e.g. --heaps 3,5,7")?
            .ints(0, i64::MAX)?
            .into_iter()
            .map(|x| x as u64)
            .collect();
        let take_node = pos.req("take", "the take set: any, max:n, min:m,max:n or set:1,3,4")?;
        let mut forms = Vec::new();
        let mut skipped = 0;
        parse_take(&take_node, &mut forms, &mut skipped)?;
        if forms.len() != 1 {
            bail!("give exactly one take rule to solve a position");
        }
        let take = forms.pop().unwrap();
        let play = match pos.get("play") {
            Some(p) => Play::parse(p.word(PLAY_WORDS)?).unwrap(),
            None => Play::Normal,
        };
        let no_repeat = match pos.get("no_repeat") {
            Some(b) => *b.bools()?.first().unwrap(),
            None => false,
        };
        let last = pos
            .get("last_take")
            .map(|n| n.int(1, u32::MAX as i64))
            .transpose()?
            .map(|x| x as u32);
        if last.is_some() && !no_repeat {
            bail!("--last-take only matters with --no-repeat true");
        }
        let rule = Rule {
            take,
            play,
            no_repeat,
        };
        let a = answer(&rule, &heaps, last)?;
        let moves: Vec<String> = a
            .moves
            .iter()
            .map(|(i, s)| move_text(heaps.len(), *i, *s))
            .collect();
        let mut text = format!(
            "position {:?}, take {}, {} play{}{}\n",
            heaps,
            rule.take.text(),
            rule.play.as_str(),
            if no_repeat { ", no repeat" } else { "" },
            last.map(|l| format!(", opponent just took {l}"))
                .unwrap_or_default()
        );
        let _ = writeln!(
            text,
            "outcome: {} ({})",
            if a.is_p { "P" } else { "N" },
            if a.is_p {
                "the player to move loses with perfect play"
            } else {
                "the player to move wins"
            }
        );
        if let Some(g) = a.grundy {
            let _ = writeln!(text, "Grundy value: {g}");
        }
        if moves.is_empty() {
            let _ = writeln!(text, "winning moves: none");
        } else {
            let _ = writeln!(text, "winning moves: {}", moves.join(", "));
            for (i, s) in &a.moves {
                let mut after = heaps.clone();
                after[*i] -= *s as u64;
                let _ = writeln!(text, "  {} → {:?}", move_text(heaps.len(), *i, *s), after);
            }
        }
        if let Some(note) = &a.note {
            let _ = writeln!(text, "{note}");
        }
        let json = json!({
            "family": "takeaway",
            "heaps": heaps,
            "take": rule.take.text(),
            "play": rule.play.as_str(),
            "no_repeat": no_repeat,
            "last_take": last,
            "outcome": if a.is_p { "P" } else { "N" },
            "grundy": a.grundy,
            "winning_moves": a.moves.iter().map(|(i, s)| json!({"heap": i, "take": s, "label": move_text(heaps.len(), *i, *s)})).collect::<Vec<_>>(),
            "method": a.note,
        });
        Ok(Answer { text, json })
    }
}

/// `A3` for several heaps, `3` for one.
fn move_text(d: usize, heap: usize, take: u32) -> String {
    if d == 1 {
        take.to_string()
    } else {
        format!("{}{take}", (b'A' + heap as u8) as char)
    }
}

/// The answer for one position.
pub struct PositionAnswer {
    /// P-position?
    pub is_p: bool,
    /// Grundy value (normal play without no_repeat).
    pub grundy: Option<u64>,
    /// Winning moves (heap, take).
    pub moves: Vec<(usize, u32)>,
    /// How it was computed (e.g. from a proven period).
    pub note: Option<String>,
}

/// Solves one position. One-heap sequences with a finite take set are computed
/// until their period is proven, so any heap size (up to 2^63) is answered.
pub fn answer(rule: &Rule, heaps: &[u64], last: Option<u32>) -> anyhow::Result<PositionAnswer> {
    let xor_path = rule.play == Play::Normal && !rule.no_repeat;
    if rule.take == TakeForm::Any && xor_path {
        // Nim: G(n) = n.
        let x = heaps.iter().fold(0u64, |a, &h| a ^ h);
        let moves = heaps
            .iter()
            .enumerate()
            .filter(|&(_, &h)| (h ^ x) < h)
            .map(|(i, &h)| (i, (h - (h ^ x)) as u32))
            .collect();
        return Ok(PositionAnswer {
            is_p: x == 0,
            grundy: Some(x),
            moves,
            note: Some("Nim: G(n) = n, XOR of heaps".into()),
        });
    }
    if let (true, Some(maxs)) = (heaps.len() == 1 || xor_path, rule.take.max_take()) {
        return answer_periodic(rule, heaps, last, maxs as usize);
    }
    // Joint state table (take any with misère/no_repeat, or several heaps under misère/no_repeat).
    let states: f64 = heaps.iter().map(|&h| h as f64 + 1.0).product();
    if states > 5e8 {
        bail!(
            "this position needs a joint state table of {states:.2e} states (misère or no_repeat on several heaps, or take any); the limit here is 5e8"
        );
    }
    let dims: Vec<usize> = heaps.iter().map(|&h| h as usize + 1).collect();
    let top = *heaps.iter().max().unwrap() as usize;
    let takes = rule.take.takes(top);
    let j = Joint::solve(&dims, &takes, rule.play, rule.no_repeat, &|_| {});
    let hs: Vec<usize> = heaps.iter().map(|&h| h as usize).collect();
    let idx = j.index(&hs);
    Ok(PositionAnswer {
        is_p: j.child_is_p(idx, last),
        grundy: None,
        moves: j.winning_moves(&hs, last),
        note: Some(format!("joint state table of {} states", j.code.len())),
    })
}

fn answer_periodic(
    rule: &Rule,
    heaps: &[u64],
    last: Option<u32>,
    maxs: usize,
) -> anyhow::Result<PositionAnswer> {
    let top = *heaps.iter().max().unwrap();
    let mut horizon = (64 * maxs + 64).max(4096);
    loop {
        let direct = top as usize <= horizon;
        let one = OneHeap::solve(
            rule,
            if direct {
                (top as usize).max(maxs)
            } else {
                horizon
            },
            &|_| {},
        );
        let per = if direct {
            None
        } else {
            match one.witness() {
                Some(w) => Some(Period {
                    preperiod: w.1,
                    period: w.0,
                    status: period::Status::Proven,
                    end: one.is_p.len() - 1,
                }),
                None if horizon < (1 << 26) => {
                    horizon *= 4;
                    continue;
                }
                None => bail!("no period proven up to {horizon}; cannot answer heaps this large"),
            }
        };
        // Map a heap size to a computed index with the same joint state (at least maxs,
        // so that every take is legal, as it is for the real heap).
        let red = |n: u64| -> usize {
            match &per {
                None => n as usize,
                Some(p) => {
                    if n <= p.end as u64 {
                        return n as usize;
                    }
                    let base = p.preperiod.max(maxs) as u64;
                    (base + (n - base) % p.period as u64) as usize
                }
            }
        };
        let note = per.map(|p| {
            format!(
                "from the proven period {} (preperiod {}) of the joint state",
                p.period, p.preperiod
            )
        });
        let takes = &one.takes;
        if heaps.len() == 1 {
            let n = heaps[0];
            let mut moves = Vec::new();
            for &s in takes {
                if s as u64 > n || (rule.no_repeat && last == Some(s)) {
                    continue;
                }
                if one.is_p_after(red(n - s as u64), Some(s)) {
                    moves.push((0, s));
                }
            }
            let r = red(n);
            let is_p = match &one.joint {
                Some(j) => j.child_is_p(r, last),
                None => one.is_p[r],
            };
            let grundy = one.grundy.as_ref().map(|g| g.get(r) as u64);
            return Ok(PositionAnswer {
                is_p,
                grundy,
                moves,
                note,
            });
        }
        let g = one.grundy.as_ref().unwrap();
        let x = heaps.iter().fold(0, |a, &h| a ^ g.get(red(h)));
        let mut moves = Vec::new();
        if x != 0 {
            for (i, &h) in heaps.iter().enumerate() {
                let target = g.get(red(h)) ^ x;
                for &s in takes {
                    if s as u64 <= h && g.get(red(h - s as u64)) == target {
                        moves.push((i, s));
                    }
                }
            }
        }
        return Ok(PositionAnswer {
            is_p: x == 0,
            grundy: Some(x as u64),
            moves,
            note,
        });
    }
}

#[cfg(test)]
mod tests;
