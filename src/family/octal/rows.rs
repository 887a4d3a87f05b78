//! The columns every octal row shares, and the period rows.

use super::adaptive::AdaptiveWork;
use super::code::Code;
use super::kernel::{self, KERNELS, rare};
use super::periods;
use super::sequence::Sequence;
use crate::data::{DictVec, EnumVec, IntListVec, Table, Values};
use crate::game::Play;
use crate::period::{self, Period, PeriodRows, Status};

/// The first rare positions listed.
const RARE_LISTED: usize = 1000;

/// The `rule` text: the code, then ` misere`.
pub fn rule_text(code: &Code, play: Play) -> String {
    match play {
        Play::Normal => code.text(),
        Play::Misere => format!("{} misere", code.text()),
    }
}

/// The [`super::datasets::GAME`] columns for `rows` rows.
pub fn game_columns(code: &Code, play: Play, rows: usize) -> Table {
    let mut plays = EnumVec::new(crate::game::PLAYS, rows);
    for _ in 0..rows {
        plays.push(play.code());
    }
    Table::new()
        .with(
            "rule",
            Values::Dict(DictVec::repeat(&rule_text(code, play), rows)),
        )
        .with("code", Values::Dict(DictVec::repeat(&code.text(), rows)))
        .with("take_max", Values::Int(vec![code.max_take() as i64; rows]))
        .with("splits", Values::Bool(vec![code.splits(); rows]))
        .with("play", Values::Enum(plays))
}

/// The rare/common split of the computed values for `mask`.
struct Split {
    mask: u32,
    values: Vec<i64>,
    positions: Vec<i64>,
    count: usize,
    common: usize,
}

fn split_of(seq: &Sequence, mask: u32) -> Split {
    let len = seq.values.len();
    let top = (0..len).map(|n| seq.values.get(n)).max().unwrap_or(0) as usize;
    let mut seen = vec![false; top + 1];
    let (mut positions, mut count) = (Vec::new(), 0);
    for n in 1..len {
        let v = seq.values.get(n);
        seen[v as usize] = true;
        if rare(v, mask) {
            count += 1;
            if positions.len() < RARE_LISTED {
                positions.push(n as i64);
            }
        }
    }
    let seen = &seen;
    let of = |want_rare: bool| {
        (0..=top as u32).filter(move |&v| seen[v as usize] && rare(v, mask) == want_rare)
    };
    Split {
        mask,
        values: of(true).map(i64::from).collect(),
        positions,
        count,
        common: of(false).count(),
    }
}

/// The mask of a splitting code: the kernel's, or the best on the first values.
fn mask_of(code: &Code, seq: &Sequence) -> Option<u32> {
    if !code.splits() {
        return None;
    }
    if let Some((m, _)) = seq.probe {
        return Some(m);
    }
    let first: Vec<u32> = (0..seq.values.len().min(2049))
        .map(|n| seq.values.get(n))
        .collect();
    Some(kernel::best_mask(&first).0)
}

/// One period row, normal play.
pub fn period_row(code: &Code, play: Play, seq: &Sequence) -> Table {
    let len = seq.values.len();
    let computed_to = len - 1;
    let is_p: Vec<bool> = (0..len).map(|n| seq.values.get(n) == 0).collect();
    let (per, evidence) = match seq.period {
        Some(p) => (Some(p), periods::evidence(&p, code, computed_to)),
        None => {
            let obs = seq.values.observed();
            let e = match &obs {
                Some(p) => format!("{}; {p}", periods::Theorem::of(code).unproven(computed_to)),
                None if periods::Theorem::of(code) == periods::Theorem::None => format!(
                    "no period observed up to n = {computed_to} (none can be proven: {})",
                    "no periodicity theorem holds when the heaps left must differ"
                ),
                None => format!("no period proven or observed up to n = {computed_to}"),
            };
            (obs, e)
        }
    };
    let mut rows = PeriodRows::default();
    let form = per.map(|p| period::closed_form("N", &is_p, &p));
    rows.push(per.as_ref(), &evidence, form.as_deref());
    let split = mask_of(code, seq).map(|m| split_of(seq, m));
    let largest = (0..len).map(|n| seq.values.get(n)).max().unwrap_or(0);
    let mut kernel_col = EnumVec::new(KERNELS, 1);
    kernel_col.push(seq.kernel.code());
    let mut rare_values = IntListVec::default();
    rare_values.push_opt(split.as_ref().map(|s| s.values.as_slice()));
    let mut rare_positions = IntListVec::default();
    rare_positions.push_opt(split.as_ref().map(|s| s.positions.as_slice()));
    let head = game_columns(code, play, 1)
        .with(
            "values",
            Values::Enum(EnumVec {
                levels: super::SEQUENCES,
                codes: vec![0],
            }),
        )
        .with("kernel", Values::Enum(kernel_col))
        .with(
            "mask",
            Values::OptInt(vec![split.as_ref().map(|s| s.mask as i64)]),
        )
        .with("computed_to", Values::Int(vec![computed_to as i64]))
        .with("largest_value", Values::OptInt(vec![Some(largest as i64)]))
        .with("rare_values", Values::IntList(rare_values))
        .with("rare_positions", Values::IntList(rare_positions))
        .with(
            "rare_count",
            Values::OptInt(vec![split.as_ref().map(|s| s.count as i64)]),
        )
        .with(
            "common_values",
            Values::OptInt(vec![split.as_ref().map(|s| s.common as i64)]),
        );
    let work = seq.adaptive;
    let of = |f: fn(&AdaptiveWork) -> u64| Values::OptInt(vec![work.as_ref().map(|w| f(w) as i64)]);
    let head = head
        .with("rebuilds", of(|w| w.rebuilds))
        .with("rare_split_work", of(|w| w.rare_splits))
        .with("check_split_work", of(|w| w.check_splits))
        .with("rebuild_work", of(|w| w.rebuild_work));
    let values = per.map(|p| {
        (p.preperiod..p.preperiod + p.period)
            .map(|n| seq.values.get(n) as i64)
            .collect::<Vec<_>>()
    });
    finish(
        rows.into_table(head),
        per.as_ref(),
        values,
        &is_p,
        seq.seconds,
    )
}

/// The period columns' values and pattern, and the timing.
fn finish(
    t: Table,
    per: Option<&Period>,
    values: Option<Vec<i64>>,
    is_p: &[bool],
    seconds: f64,
) -> Table {
    let mut pv = IntListVec::default();
    pv.push_opt(values.as_deref());
    let pattern = per.map(|p| {
        (p.preperiod..p.preperiod + p.period)
            .map(|n| if is_p[n] { 'P' } else { 'N' })
            .collect::<String>()
    });
    let mut pat = crate::data::StrVec::default();
    pat.push_opt(pattern.as_deref());
    t.with("period_values", Values::IntList(pv))
        .with("period_pattern", Values::Str(pat))
        .with("seconds", Values::Float(vec![seconds]))
}

/// One period row, misère play: outcomes of one heap, period observed only.
pub fn misere_period_row(code: &Code, is_p: &[bool], seconds: f64) -> Table {
    let computed_to = is_p.len() - 1;
    let per = periods::observed(is_p);
    let evidence = match &per {
        Some(p) => format!("{p}; misère play has no periodicity theorem here: observed only"),
        None => format!("no period observed up to n = {computed_to} (misère: no theorem applies)"),
    };
    debug_assert!(per.is_none_or(|p| p.status == Status::Observed));
    let mut rows = PeriodRows::default();
    let form = per.map(|p| period::closed_form("N", is_p, &p));
    rows.push(per.as_ref(), &evidence, form.as_deref());
    let mut kernel_col = EnumVec::new(KERNELS, 1);
    kernel_col.push_null();
    let mut none = IntListVec::default();
    none.push_null();
    let head = game_columns(code, Play::Misere, 1)
        .with(
            "values",
            Values::Enum(EnumVec {
                levels: super::SEQUENCES,
                codes: vec![1],
            }),
        )
        .with("kernel", Values::Enum(kernel_col))
        .with("mask", Values::OptInt(vec![None]))
        .with("computed_to", Values::Int(vec![computed_to as i64]))
        .with("largest_value", Values::OptInt(vec![None]))
        .with("rare_values", Values::IntList(none.clone()))
        .with("rare_positions", Values::IntList(none))
        .with("rare_count", Values::OptInt(vec![None]))
        .with("common_values", Values::OptInt(vec![None]))
        .with("rebuilds", Values::OptInt(vec![None]))
        .with("rare_split_work", Values::OptInt(vec![None]))
        .with("check_split_work", Values::OptInt(vec![None]))
        .with("rebuild_work", Values::OptInt(vec![None]));
    finish(rows.into_table(head), per.as_ref(), None, is_p, seconds)
}
