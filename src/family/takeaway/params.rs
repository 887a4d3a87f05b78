//! A takeaway sweep's parameters, validated, and its expansion into cases.

use std::sync::Arc;

use super::cases::TakeCase;
use super::one_heap::PROOF_CAP;
use super::{Rule, TakeForm, views};
use crate::family::{Case, Plan};
use crate::game::{PLAY_WORDS, Play};
use crate::params::{Node, SWEEP_KEYS, SpecError};

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

/// Parses one `take:` item.
pub(crate) fn parse_take(
    n: &Node<'_>,
    out: &mut Vec<TakeForm>,
    skipped: &mut usize,
) -> Result<(), SpecError> {
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
    proof_cap: usize,
    skipped: usize,
    lattices: bool,
    points_window: Option<usize>,
}

/// Does the sweep ask for the `lattices` dataset (`datasets:`)? Only two
/// and three heaps have one.
fn wants_lattices(sweep: &Node<'_>, heaps: usize) -> Result<bool, SpecError> {
    let Some(d) = sweep.get("datasets") else {
        return Ok(false);
    };
    let asked = d
        .items()
        .iter()
        .any(|i| i.value().as_str() == Some(super::datasets::LATTICES.name));
    if asked && !(2..=3).contains(&heaps) {
        return Err(d.err(format!(
            "the `lattices` dataset describes two-heap loss sets and the planes N3 = c of three-heap ones; this sweep has `heaps: {heaps}` (use 2 or 3)"
        )));
    }
    Ok(asked)
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
    let proof_cap = sweep
        .get("proof_cap")
        .map(|h| h.int(1, 1 << 28))
        .transpose()?
        .map_or(PROOF_CAP, |h| h as usize);
    let lattices = wants_lattices(sweep, heaps)?;
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
        heaps,
        sizes,
        plays,
        no_repeat,
        horizon,
        proof_cap,
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
            && states * (*p.sizes.iter().flatten().max().unwrap() as f64) > 1e11
        {
            return Err(sweep.err("take: any with misère/no_repeat on several heaps is solved by brute joint DP; these heaps are too large (more than 1e11 move checks)"));
        }
    } else if *p.sizes[0].last().unwrap() > (1 << 32) && p.takes.contains(&TakeForm::Any) {
        return Err(sweep.err("take: any on one heap is computed as a table; use N ≤ 2^32"));
    }
    Ok(p)
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

/// Validates a sweep and expands it into cases (one per rule) and views.
pub fn plan(sweep: &Node<'_>) -> Result<Plan, SpecError> {
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
                let rule = Rule {
                    take: take.clone(),
                    play,
                    no_repeat,
                };
                cases.push(Box::new(
                    TakeCase::new(rule, sizes.clone(), skey.clone(), horizon, p.proof_cap)
                        .with_lattices(p.lattices)
                        .with_points_window(
                            p.points_window
                                .unwrap_or_else(|| super::lattices::default_points_window(p.heaps)),
                        ),
                ));
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
    Ok(Plan {
        cases,
        views: views::for_heaps(p.heaps, p.lattices),
        notes,
    })
}
