//! A takeaway sweep's parameters, validated, and its expansion into cases.

use std::sync::Arc;

use super::cases::TakeCase;
use super::one_heap::PROOF_CAP;
use super::{Rule, TakeForm, views};
use crate::family::{Case, Plan};
use crate::game::{PLAY_WORDS, Play};
use crate::params::{self, Node, SWEEP_KEYS, SpecError};

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
    "proof_cap",
    "points_window",
];
const MAX_HEAP: i64 = 1 << 40;

/// What a take rule may be, for error messages.
const TAKE_ALLOWED: &str = "allowed: `any`, `max:n`, `min:m,max:n` (1 ≤ m ≤ n), `set:1,3,4`, a set `{1,3,4}` \
     or `1,3,4`, an interval `m..n`, or the maps `{max: n}`, `{min: m, max: n}`, `{set: [1, 3, 4]}`";

/// Parses one `take:` item: a map, or one of the text forms (the same on
/// the command line and in a spec).
pub(crate) fn parse_take(
    n: &Node<'_>,
    out: &mut Vec<TakeForm>,
    skipped: &mut usize,
) -> Result<(), SpecError> {
    let allowed = TAKE_ALLOWED;
    if let Some(s) = n.value().as_str() {
        return parse_take_text(n, s, out, skipped);
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
            out.push(take_set(&s)?);
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

/// A take rule written as text: `any`, `max:5`, `min:2,max:7`, `set:1,3,4`
/// (the `take` column), `{max: 5}`, a set `{1,3,4}` / `1,3,4`, or `2..7`.
fn parse_take_text(
    n: &Node<'_>,
    s: &str,
    out: &mut Vec<TakeForm>,
    skipped: &mut usize,
) -> Result<(), SpecError> {
    let t = s.trim();
    if t == "any" {
        out.push(TakeForm::Any);
        return Ok(());
    }
    if let Some(map) = params::rule_map(t) {
        let v = map.map_err(|e| n.err(format!("{e}; {TAKE_ALLOWED}")))?;
        return parse_take(&n.with_value(&v), out, skipped);
    }
    let unknown = || n.err(format!("unknown take rule {s:?}; {TAKE_ALLOWED}"));
    if let Some((a, b, 1)) = params::parse_range(t) {
        if a < 1 || a > b || b > u32::MAX as i64 {
            return Err(n.err(format!(
                "{t}: an interval of takes m..n needs 1 ≤ m ≤ n ≤ {}",
                u32::MAX
            )));
        }
        out.push(TakeForm::Range(a as u32, b as u32));
        return Ok(());
    }
    let inner = match t.strip_prefix('{') {
        Some(x) => x.strip_suffix('}').ok_or_else(unknown)?,
        None => t,
    };
    if !inner
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, ',' | '.' | ' '))
    {
        return Err(unknown());
    }
    let items = params::text_list(inner).ok_or_else(unknown)?;
    out.push(take_set(&n.with_value(&items))?);
    Ok(())
}

/// A `set:` of takes (numbers, lists or ranges of positive integers),
/// sorted and without repeats.
fn take_set(n: &Node<'_>) -> Result<TakeForm, SpecError> {
    let mut v: Vec<u32> = n
        .ints(1, u32::MAX as i64)?
        .into_iter()
        .map(|x| x as u32)
        .collect();
    v.sort_unstable();
    v.dedup();
    Ok(TakeForm::Set(v))
}

/// A whole rule written as text, as in the `rule` column: the take rule,
/// then `no_repeat` and `misere` (or `normal`) when they apply, e.g.
/// `min:2,max:7 no_repeat misere`.
pub(crate) fn parse_rule_text(n: &Node<'_>) -> Result<super::Rule, SpecError> {
    let s = n.str()?;
    let mut words = s.split_whitespace();
    let take_text = words
        .next()
        .ok_or_else(|| n.err("an empty rule; e.g. `min:2,max:7 no_repeat misere`"))?;
    let take_value = serde_json::Value::String(take_text.to_string());
    let mut forms = Vec::new();
    parse_take_text(&n.with_value(&take_value), take_text, &mut forms, &mut 0)?;
    let mut play = None;
    let mut no_repeat = false;
    for w in words {
        match (w, Play::parse(w)) {
            ("no_repeat", _) if !no_repeat => no_repeat = true,
            (_, Some(p)) if play.is_none() => play = Some(p),
            _ => {
                return Err(n.err(format!(
                    "cannot read {w:?} in the rule {s:?}: after the take rule come `no_repeat` and `misere` \
                     (or `normal`), each at most once, e.g. `min:2,max:7 no_repeat misere`"
                )));
            }
        }
    }
    Ok(super::Rule {
        take: forms.pop().unwrap(),
        play: play.unwrap_or(Play::Normal),
        no_repeat,
    })
}

/// The one rule of a position or a game: `rule` (the `rule` column's text),
/// or `take` with `play` and `no_repeat` (a sweep may list several values;
/// a position needs one of each).
pub(crate) fn one_rule(p: &Node<'_>) -> Result<super::Rule, SpecError> {
    if let Some(r) = p.get("rule") {
        if let Some(k) = ["take", "play", "no_repeat"]
            .iter()
            .find(|k| p.get(k).is_some())
        {
            return Err(r.err(format!(
                "give either the whole rule or `{k}` (with the rest of the rule's parts), not both"
            )));
        }
        return parse_rule_text(&r);
    }
    let take_node = p.req(
        "take",
        "the take set: any, max:n, min:m,max:n or set:1,3,4 (or the whole rule: --rule \"set:1,3,4 misere\")",
    )?;
    let mut forms = Vec::new();
    for item in take_node.items() {
        parse_take(&item, &mut forms, &mut 0)?;
    }
    if forms.len() != 1 {
        return Err(take_node.err(format!(
            "{} take rules; one position needs exactly one, e.g. set:1,3,4",
            forms.len()
        )));
    }
    let play = match p.get("play") {
        Some(n) => {
            let w = n.words(PLAY_WORDS)?;
            if w.len() != 1 {
                return Err(n.err("one position needs one: normal or misere"));
            }
            Play::parse(w[0]).unwrap()
        }
        None => Play::Normal,
    };
    let no_repeat = match p.get("no_repeat") {
        Some(n) => {
            let v = n.bools()?;
            if v.len() != 1 {
                return Err(n.err("one position needs one value: true or false"));
            }
            v[0]
        }
        None => false,
    };
    Ok(super::Rule {
        take: forms.pop().unwrap(),
        play,
        no_repeat,
    })
}

/// The validated sweep.
struct Params {
    takes: Vec<TakeForm>,
    /// Per heap count asked for (`heaps: [1, 2]`), in the given order: the
    /// count and the sizes of each heap.
    layouts: Vec<(usize, Vec<Vec<u64>>)>,
    plays: Vec<Play>,
    no_repeat: Vec<bool>,
    horizon: Option<usize>,
    proof_cap: usize,
    skipped: usize,
    lattices: bool,
    points_window: Option<usize>,
}

/// Does the sweep ask for the `lattices` dataset (`datasets:`)? Only two
/// and three heaps have one.
fn wants_lattices(sweep: &Node<'_>, counts: &[usize]) -> Result<bool, SpecError> {
    let Some(d) = sweep.get("datasets") else {
        return Ok(false);
    };
    let asked = d
        .items()
        .iter()
        .any(|i| i.value().as_str() == Some(super::datasets::LATTICES.name));
    if let Some(heaps) = counts.iter().find(|d| !(2..=3).contains(*d))
        && asked
    {
        return Err(d.err(format!(
            "the `lattices` dataset describes two-heap loss sets and the planes N3 = c of three-heap ones; this sweep has `heaps: {heaps}` (use 2 or 3)"
        )));
    }
    Ok(asked)
}

/// `heaps:` — one heap count or several (a list or a range; one case per
/// count and rule); 1 when absent.
fn parse_heap_counts(sweep: &Node<'_>) -> Result<Vec<usize>, SpecError> {
    let Some(h) = sweep.get("heaps") else {
        return Ok(vec![1]);
    };
    let mut counts: Vec<usize> = Vec::new();
    for d in h.ints(1, 6)? {
        if counts.contains(&(d as usize)) {
            return Err(h.err(format!(
                "{d} heaps is listed twice; give each number of heaps once"
            )));
        }
        counts.push(d as usize);
    }
    Ok(counts)
}

/// The sizes of each of `heaps` heaps: `N{i}`, else `N` (sorted and without
/// repeats when there are several heaps).
fn parse_sizes(sweep: &Node<'_>, heaps: usize) -> Result<Vec<Vec<u64>>, SpecError> {
    let mut sizes = Vec::new();
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
    Ok(sizes)
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
    let counts = parse_heap_counts(sweep)?;
    let most = *counts.iter().max().unwrap();
    for i in most + 1..=6 {
        if let Some(nk) = sweep.get(&format!("N{i}")) {
            return Err(nk.err(format!("there are only {most} heap(s) (`heaps: {most}`)")));
        }
    }
    let layouts = counts
        .iter()
        .map(|&d| parse_sizes(sweep, d).map(|s| (d, s)))
        .collect::<Result<Vec<_>, _>>()?;
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
    let proof_cap = sweep
        .get("proof_cap")
        .map(|h| h.int(1, 1 << 28))
        .transpose()?
        .map_or(PROOF_CAP, |h| h as usize);
    let lattices = wants_lattices(sweep, &counts)?;
    let points_window = match sweep.get("points_window") {
        Some(w) if !lattices => {
            return Err(w.err(
                "`points_window` only matters with the `lattices` dataset (`datasets: [lattices]`)",
            ));
        }
        Some(w) => Some(w.int(0, 1 << 20)? as usize),
        None => None,
    };
    let p = Params {
        lattices,
        points_window,
        takes,
        layouts,
        plays,
        no_repeat,
        horizon,
        proof_cap,
        skipped,
    };
    for (heaps, sizes) in &p.layouts {
        check_layout(sweep, &p, *heaps, sizes)?;
    }
    Ok(p)
}

/// Refuses, up front, joint-state problems that cannot fit in memory and
/// one-heap tables of `take: any` beyond 2^32.
fn check_layout(
    sweep: &Node<'_>,
    p: &Params,
    heaps: usize,
    sizes: &[Vec<u64>],
) -> Result<(), SpecError> {
    if heaps > 1 {
        let states: f64 = sizes
            .iter()
            .map(|v| (*v.last().unwrap() + 1) as f64)
            .product();
        let joint = p.plays.contains(&Play::Misere) || p.no_repeat.contains(&true);
        let budget = crate::mem::case_budget();
        if joint && states * 4.0 > budget as f64 {
            return Err(sweep.err(format!(
                "misère or no_repeat on {heaps} heaps needs the joint state table: {states:.3e} states ≈ {}; {}; use fewer heaps or smaller heaps",
                crate::mem::human_bytes((states * 4.0).min(u64::MAX as f64) as u64),
                crate::mem::budget_text(budget)
            )));
        }
        if p.takes.contains(&TakeForm::Any)
            && joint
            && states * (*sizes.iter().flatten().max().unwrap() as f64) > 1e11
        {
            return Err(sweep.err("take: any with misère/no_repeat on several heaps is solved by brute joint DP; these heaps are too large (more than 1e11 move checks)"));
        }
    } else if *sizes[0].last().unwrap() > (1 << 32) && p.takes.contains(&TakeForm::Any) {
        return Err(sweep.err("take: any on one heap is computed as a table; use N ≤ 2^32"));
    }
    Ok(())
}

/// The default horizon for one-heap sequences: far enough to prove most periods.
pub(crate) fn default_horizon(take: &TakeForm, max_n: usize) -> usize {
    match take.max_take() {
        Some(m) => max_n.max(64 * m as usize + 64),
        None => max_n,
    }
}

pub(crate) fn sizes_key(sizes: &[Vec<u64>]) -> String {
    sizes
        .iter()
        .enumerate()
        .map(|(i, v)| format!("N{}={}", i + 1, crate::family::ints_key(v)))
        .collect::<Vec<_>>()
        .join("/")
}

/// Validates a sweep and expands it into cases (one per heap count and
/// rule) and views (those of every heap count asked for).
pub fn plan(sweep: &Node<'_>) -> Result<Plan, SpecError> {
    let p = parse_params(sweep)?;
    let mut cases: Vec<Box<dyn Case>> = Vec::new();
    let mut views = Vec::new();
    for (heaps, sizes) in &p.layouts {
        let skey = sizes_key(sizes);
        let max_n = *sizes[0].iter().max().unwrap() as usize;
        let sizes = Arc::new(sizes.clone());
        for take in &p.takes {
            for &play in &p.plays {
                for &no_repeat in &p.no_repeat {
                    let horizon = if *heaps == 1 {
                        p.horizon
                            .unwrap_or_else(|| default_horizon(take, max_n))
                            .max(max_n)
                    } else {
                        0
                    };
                    let rule = Rule {
                        take: take.clone(),
                        play,
                        no_repeat,
                    };
                    let window = p
                        .points_window
                        .unwrap_or_else(|| super::lattices::default_points_window(*heaps));
                    cases.push(Box::new(
                        TakeCase::new(rule, sizes.clone(), skey.clone(), horizon, p.proof_cap)
                            .with_lattices(p.lattices)
                            .with_points_window(window),
                    ));
                }
            }
        }
        for v in views::for_heaps(*heaps, p.lattices) {
            if !views.contains(&v) {
                views.push(v);
            }
        }
    }
    let mut notes = Vec::new();
    if p.skipped > 0 {
        notes.push(
            crate::family::note::Note::new("skipped min/max combinations with min > max")
                .counting(p.skipped as u64),
        );
    }
    Ok(Plan {
        cases,
        views,
        notes,
        grid: Vec::new(),
    })
}
