//! A parity sweep's parameters, validated, and its expansion into cases.

use std::sync::Arc;

use super::cases::ParityCase;
use super::solver::{VARIANT_WORDS, Variant};
use super::{TakeSet, datasets, join, views};
use crate::family::ints_key;
use crate::family::{Case, Plan};
use crate::params::{self, Node, SWEEP_KEYS, SpecError};
use crate::view::View;

const KEYS: &[&str] = &[
    "variant", "k", "take", "r", "at", "strip_k", "strip_to", "outcome", "horizon",
];
/// Largest pile size in a sweep (the table holds one byte per pile size).
const MAX_R: i64 = 100_000_000;
/// Largest take.
pub(crate) const MAX_TAKE: i64 = 100_000;
/// Largest outcome table per case (rows).
const MAX_OUTCOME_ROWS: usize = 50_000_000;
/// Largest outcome dataset rendered as a Markdown/CSV listing (rows, whole sweep).
const MAX_LISTED_ROWS: usize = 20_000;

pub(crate) fn check_has_one(node: &Node<'_>, set: &[u32]) -> Result<(), SpecError> {
    if set.first() != Some(&1) {
        return Err(node.err(format!(
            "a take set must contain 1 (otherwise a pile smaller than the smallest take can never be emptied and the \
             game has no winner); got {{{}}}",
            join(set, ", ")
        )));
    }
    Ok(())
}

/// What a take rule may be, for error messages.
const TAKE_ALLOWED: &str = "allowed: `max:n` or `{max: n}` (takes 1..n), `set:1,3,4`, `{1,3,4}`, `1,3,4` or \
     `{set: [1, 3, 4]}` (must contain 1), `1..n`, `{subsets_of: n}` (every subset of 1..n that contains 1), or a \
     list of these";

/// A take rule written as text: `max:3`, `set:1,3,4` (the `take` column),
/// `1..3`, `{1,3,4}` or `1,3,4` (as the `rule` column and the text output
/// write it), or a map `{max: 3}`.
fn parse_take_text(n: &Node<'_>, s: &str, out: &mut Vec<TakeSet>) -> Result<(), SpecError> {
    let t = s.trim();
    if let Some(map) = params::rule_map(t) {
        let v = map.map_err(|e| n.err(format!("{e}; {TAKE_ALLOWED}")))?;
        return parse_take(&n.with_value(&v), out);
    }
    let inner = t
        .strip_prefix('{')
        .map(|x| x.strip_suffix('}'))
        .unwrap_or(Some(t));
    let items = inner
        .filter(|i| {
            i.chars()
                .all(|c| c.is_ascii_digit() || matches!(c, ',' | '.' | ' '))
        })
        .and_then(params::text_list)
        .ok_or_else(|| n.err(format!("unknown take rule {s:?}; {TAKE_ALLOWED}")))?;
    let mut v: Vec<u32> = n
        .with_value(&items)
        .ints(1, MAX_TAKE)?
        .into_iter()
        .map(|x| x as u32)
        .collect();
    v.sort_unstable();
    v.dedup();
    check_has_one(n, &v)?;
    out.push(TakeSet(v));
    Ok(())
}

/// A rule written as the `rule` column writes it: the variant, `take`, and
/// the take set, `sides take 1..3`, `odd_wins take {1,3,4}`.
pub(crate) fn parse_rule_text(n: &Node<'_>) -> Result<(Variant, TakeSet), SpecError> {
    let s = n.str()?;
    let words: Vec<&str> = s.split_whitespace().collect();
    let form = "`<variant> take <take set>`, e.g. `sides take 1..3` or `odd_wins take {1,3,4}`";
    let (variant, take) = match words.as_slice() {
        [v, "take", t] => (*v, *t),
        _ => return Err(n.err(format!("cannot read the rule {s:?}: expected {form}"))),
    };
    let variant = Variant::parse(variant).ok_or_else(|| {
        n.err(format!(
            "unknown variant {variant:?} in the rule {s:?}; allowed: {}",
            VARIANT_WORDS.join(", ")
        ))
    })?;
    let tv = serde_json::Value::String(take.to_string());
    let mut sets = Vec::new();
    parse_take_text(&n.with_value(&tv), take, &mut sets)?;
    Ok((variant, sets.pop().unwrap()))
}

/// Parses one `take:` item into one or more take sets.
pub(crate) fn parse_take(n: &Node<'_>, out: &mut Vec<TakeSet>) -> Result<(), SpecError> {
    let allowed = TAKE_ALLOWED;
    if let Some(s) = n.value().as_str() {
        return parse_take_text(n, s, out);
    }
    if !n.value().is_object() {
        return Err(n.err(format!("expected a take rule; {allowed}")));
    }
    n.expect_keys(&["min", "max", "set", "subsets_of"])?;
    let given = ["max", "set", "subsets_of"]
        .iter()
        .filter(|k| n.get(k).is_some())
        .count();
    if given != 1 {
        return Err(n.err(format!(
            "give exactly one of `max:`, `set:` or `subsets_of:`; {allowed}"
        )));
    }
    if let Some(m) = n.get("min") {
        let v = m.ints(1, MAX_TAKE)?;
        if v != [1] || n.get("max").is_none() {
            return Err(m.err(
                "in the parity game every take set must contain 1 (so that every pile can be emptied): only `min: 1` \
                 with `max:` is allowed here",
            ));
        }
    }
    if let Some(set) = n.get("set") {
        let items = set.items();
        let nested = items.iter().any(|i| i.value().is_array());
        let sets: Vec<Node<'_>> = if nested { items } else { vec![set.clone()] };
        for s in sets {
            let mut v: Vec<u32> = s.ints(1, MAX_TAKE)?.into_iter().map(|x| x as u32).collect();
            v.sort_unstable();
            v.dedup();
            check_has_one(&s, &v)?;
            out.push(TakeSet(v));
        }
    } else if let Some(m) = n.get("max") {
        for k in m.ints(1, MAX_TAKE)? {
            out.push(TakeSet::upto(k as u32));
        }
    } else if let Some(s) = n.get("subsets_of") {
        for top in s.ints(1, 16)? {
            let top = top as u32;
            for mask in 0u32..(1 << (top - 1)) {
                let mut v = vec![1];
                v.extend((2..=top).filter(|t| mask >> (t - 2) & 1 == 1));
                out.push(TakeSet(v));
            }
        }
    }
    Ok(())
}

/// Which rules get a strip chart.
#[derive(Clone, Debug, PartialEq)]
enum StripSel {
    All,
    None,
    Max(Vec<u32>),
}

/// The validated sweep.
struct Params {
    variants: Vec<Variant>,
    takes: Vec<TakeSet>,
    rs: Vec<u64>,
    at: Vec<[u64; 3]>,
    strip: StripSel,
    strip_to: Option<usize>,
    outcome: bool,
    horizon: Option<usize>,
}

fn parse_params(sweep: &Node<'_>) -> Result<Params, SpecError> {
    let mut allowed: Vec<&str> = SWEEP_KEYS.to_vec();
    allowed.extend_from_slice(KEYS);
    sweep.expect_keys(&allowed)?;
    let mut variants: Vec<Variant> = match sweep.get("variant") {
        Some(v) => v
            .words(VARIANT_WORDS)?
            .into_iter()
            .map(|w| Variant::parse(w).unwrap())
            .collect(),
        None => vec![Variant::Sides],
    };
    variants.dedup();
    let takes = parse_take_sets(sweep)?;
    let rs: Vec<u64> = match sweep.get("r") {
        Some(r) => r.ints(0, MAX_R)?.into_iter().map(|x| x as u64).collect(),
        None => (0..=64).collect(),
    };
    let at = parse_positions(sweep, &variants)?;
    let strip = parse_strip(sweep, variants.len() * takes.len())?;
    let strip_to = sweep
        .get("strip_to")
        .map(|n| n.int(1, 100_000))
        .transpose()?
        .map(|x| x as usize);
    let outcome = match sweep.get("outcome") {
        Some(b) => {
            let v = b.bools()?;
            if v.len() != 1 {
                return Err(b.err("expected true or false"));
            }
            v[0]
        }
        None => true,
    };
    let horizon = sweep
        .get("horizon")
        .map(|h| h.int(1, MAX_R))
        .transpose()?
        .map(|h| h as usize);
    if outcome && rs.len() * 4 > MAX_OUTCOME_ROWS {
        return Err(sweep.get("r").unwrap().err(format!(
            "{} pile sizes make {} outcome rows per rule, more than {MAX_OUTCOME_ROWS}; use fewer values or \
             `outcome: false` (safe states and moduli are still computed)",
            rs.len(),
            rs.len() * 4
        )));
    }
    Ok(Params {
        variants,
        takes,
        rs,
        at,
        strip,
        strip_to,
        outcome,
        horizon,
    })
}

/// The sweep's take sets: `k: 1..6` (takes 1..k) or `take:` (sets, ranges),
/// each once.
fn parse_take_sets(sweep: &Node<'_>) -> Result<Vec<TakeSet>, SpecError> {
    let mut takes = Vec::new();
    match (sweep.get("k"), sweep.get("take")) {
        (Some(_), Some(t)) => {
            return Err(t.err("give either `k:` (takes 1..k) or `take:`, not both"));
        }
        (Some(k), None) => takes.extend(
            k.ints(1, MAX_TAKE)?
                .into_iter()
                .map(|k| TakeSet::upto(k as u32)),
        ),
        (None, Some(t)) => {
            for item in t.items() {
                parse_take(&item, &mut takes)?;
            }
        }
        (None, None) => {
            return Err(sweep.err(
                "missing field `k` (takes 1..k, e.g. `k: 1..6`) or `take` (e.g. `take: {set: [1, 3, 4]}`)",
            ));
        }
    }
    let mut seen = std::collections::HashSet::new();
    takes.retain(|t| seen.insert(t.clone()));
    Ok(takes)
}

/// The positions of `at:`, each [a, b, r], checked against every variant's
/// parity of a + b + r.
fn parse_positions(sweep: &Node<'_>, variants: &[Variant]) -> Result<Vec<[u64; 3]>, SpecError> {
    let mut at = Vec::new();
    if let Some(node) = sweep.get("at") {
        for item in node.items() {
            let v = item.ints(0, MAX_R)?;
            if !item.value().is_array() || v.len() != 3 {
                return Err(item.err("expected a position [a, b, r]: the two hands (a: Odd's or A's, b: Even's or B's) and the pile"));
            }
            let p = [v[0] as u64, v[1] as u64, v[2] as u64];
            for &var in variants {
                if (p[0] + p[1] + p[2]) % 2 != var.total_parity() {
                    return Err(item.err(format!(
                        "position ({}, {}, {}) cannot occur in variant {}: a + b + r must be {} ({})",
                        p[0],
                        p[1],
                        p[2],
                        var.as_str(),
                        if var.total_parity() == 0 { "even" } else { "odd" },
                        if var == Variant::Sides { "the initial pile is even" } else { "the initial pile is odd" }
                    )));
                }
            }
            at.push(p);
        }
    }
    Ok(at)
}

/// Which take sets get a strip figure (`strip_k`): by default all when the
/// sweep has at most 12 rules.
fn parse_strip(sweep: &Node<'_>, rules: usize) -> Result<StripSel, SpecError> {
    Ok(match sweep.get("strip_k") {
        None => {
            if rules <= 12 {
                StripSel::All
            } else {
                StripSel::None
            }
        }
        Some(n) => match n.value().as_str() {
            Some("all") => StripSel::All,
            Some("none") => StripSel::None,
            _ => StripSel::Max(
                n.ints(1, MAX_TAKE)
                    .map_err(|e| SpecError {
                        message: format!("{} (or `all`, `none`)", e.message),
                        ..e
                    })?
                    .into_iter()
                    .map(|x| x as u32)
                    .collect(),
            ),
        },
    })
}

/// Validates a sweep and expands it into cases (one per variant and take set);
/// `asked` are the datasets written only on request that the spec asks for.
pub fn plan(sweep: &Node<'_>, asked: &[String]) -> Result<Plan, SpecError> {
    let p = parse_params(sweep)?;
    let remoteness = asked.iter().any(|d| d == datasets::REMOTENESS.name);
    let rs = Arc::new(p.rs);
    let rs_key = ints_key(&rs);
    let at = Arc::new(p.at);
    let r_max = *rs.iter().max().unwrap() as usize;
    let at_max = at.iter().map(|x| x[2] as usize).max().unwrap_or(0);
    let mut cases: Vec<Box<dyn Case>> = Vec::new();
    for &variant in &p.variants {
        for take in &p.takes {
            let strip = match &p.strip {
                StripSel::All => true,
                StripSel::None => false,
                StripSel::Max(v) => v.contains(&take.max()),
            };
            let horizon = p
                .horizon
                .unwrap_or(0)
                .max(if p.outcome || remoteness { r_max } else { 0 })
                .max(at_max.min(1 << 20));
            cases.push(Box::new(ParityCase {
                variant,
                take: take.clone(),
                rs: rs.clone(),
                rs_key: rs_key.clone(),
                at: at.clone(),
                strip,
                strip_to: p.strip_to,
                outcome: p.outcome,
                remoteness,
                horizon,
            }));
        }
    }
    let mut notes = Vec::new();
    let any_strip = match &p.strip {
        StripSel::All => true,
        StripSel::None => false,
        StripSel::Max(v) => {
            let hit = p.takes.iter().any(|t| v.contains(&t.max()));
            if !hit {
                notes.push(crate::family::note::Note::new(
                    "strip_k matches no rule of this sweep: no strip chart",
                ));
            }
            hit
        }
    };
    let mut views: Vec<&'static View> = vec![
        &views::SAFE_STATES_GRID,
        &views::SAFE_LISTS,
        &views::SAFE_STATES,
        &views::MODULI,
        &views::MODULUS_GRID,
    ];
    if p.takes.iter().all(|t| t.interval().is_some()) && p.takes.len() > 1 {
        views.push(&views::MODULUS_BARS);
    }
    if any_strip {
        views.push(&views::PATTERN);
    }
    if !at.is_empty() {
        views.push(&views::POSITIONS);
    }
    let outcome_rows = rs.len() * 4 * cases.len();
    if p.outcome && outcome_rows <= MAX_LISTED_ROWS {
        views.push(&views::OUTCOME_TABLE);
    }
    Ok(Plan {
        cases,
        views,
        notes,
        grid: Vec::new(),
    })
}

/// The variant and the take set of a position or a game: `--rule` (the
/// `rule` column's text), or `--variant` with `--k` or `--take`.
pub(crate) fn one_rule(p: &Node<'_>) -> anyhow::Result<(Variant, TakeSet)> {
    if let Some(r) = p.get("rule") {
        if let Some(k) = ["variant", "k", "take"].iter().find(|k| p.get(k).is_some()) {
            return Err(r
                .err(format!("give either the whole rule or --{k}, not both"))
                .into());
        }
        return Ok(parse_rule_text(&r)?);
    }
    let variant = match p.get("variant") {
        Some(v) => {
            let w = v.words(VARIANT_WORDS)?;
            if w.len() != 1 {
                return Err(v
                    .err("one game needs one variant: sides or odd_wins")
                    .into());
            }
            Variant::parse(w[0]).unwrap()
        }
        None => Variant::Sides,
    };
    Ok((variant, one_take_set(p)?))
}

/// The one take set of a position: `--k` (takes 1..k) or `--take` (a list,
/// or the sweep's map forms), for `solve` and `play`.
pub(crate) fn one_take_set(p: &Node<'_>) -> anyhow::Result<TakeSet> {
    Ok(match (p.get("k"), p.get("take")) {
        (Some(_), Some(t)) => return Err(t.err("give either --k or --take, not both").into()),
        (Some(k), None) => TakeSet::upto(k.int(1, MAX_TAKE)? as u32),
        (None, Some(t)) => {
            let mut sets = Vec::new();
            if t.value().is_object() || t.value().is_string() {
                parse_take(&t, &mut sets)?;
            } else {
                let mut v: Vec<u32> = t.ints(1, MAX_TAKE)?.into_iter().map(|x| x as u32).collect();
                v.sort_unstable();
                v.dedup();
                check_has_one(&t, &v)?;
                sets.push(TakeSet(v));
            }
            if sets.len() != 1 {
                return Err(t.err("a game needs exactly one take set").into());
            }
            sets.pop().unwrap()
        }
        (None, None) => {
            return Err(p
                .err("missing --k (takes 1..k) or --take (e.g. --take 1,3,4)")
                .into());
        }
    })
}
