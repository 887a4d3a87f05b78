//! An octal sweep's parameters, validated, and its expansion into cases.

use super::cases::OctalCase;
use super::code::{self, CODE_ALLOWED, Code};
use super::misere::SPLIT_CAP;
use super::sequence::Horizon;
use super::views;
use crate::family::note::Note;
use crate::family::{Case, Plan};
use crate::game::{PLAY_WORDS, Play};
use crate::params::{Node, SWEEP_KEYS, SpecError};

const KEYS: &[&str] = &["code", "play", "heaps", "N", "horizon", "sparse_horizon"];

/// The largest heap size a sweep may ask for rows of.
const MAX_N: i64 = 1 << 24;
/// The largest horizon.
const MAX_HORIZON: i64 = 1 << 30;
/// The horizon when none is given (at least the largest N).
pub const DEFAULT_HORIZON: usize = 4096;

/// The codes of `code:` (a code, `?` wildcards, or a list of these), and
/// how many codes of the wildcards allow no move (skipped).
pub fn codes(n: &Node<'_>) -> Result<(Vec<Code>, usize), SpecError> {
    let (mut out, mut empty) = (Vec::new(), 0);
    for item in n.items() {
        let text = match item.value() {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Number(x) => x.to_string(),
            v => {
                return Err(item.err(format!(
                    "expected a code, got {}; {CODE_ALLOWED}",
                    crate::params::describe(v)
                )));
            }
        };
        let (codes, e) = code::expand(&text).map_err(|m| item.err(m))?;
        out.extend(codes);
        empty += e;
    }
    if out.is_empty() {
        return Err(n.err(format!("no code given; {CODE_ALLOWED}")));
    }
    Ok((out, empty))
}

/// The plays of `play:` (default normal).
pub fn plays(sweep: &Node<'_>) -> Result<Vec<Play>, SpecError> {
    match sweep.get("play") {
        None => Ok(vec![Play::Normal]),
        Some(n) => Ok(n
            .words(PLAY_WORDS)?
            .into_iter()
            .filter_map(Play::parse)
            .collect()),
    }
}

/// Validates a sweep and expands it: one case per code, play and heap count.
pub fn plan(sweep: &Node<'_>) -> Result<Plan, SpecError> {
    let mut allowed = SWEEP_KEYS.to_vec();
    allowed.extend(KEYS);
    sweep.expect_keys(&allowed)?;
    let code_node = sweep.req("code", CODE_ALLOWED)?;
    let (codes, empty) = codes(&code_node)?;
    let plays = plays(sweep)?;
    let heaps = match sweep.get("heaps") {
        Some(n) => n.ints(1, 3)?,
        None => vec![1],
    };
    let ns_node = sweep.req("N", "heap sizes, e.g. 0..100")?;
    let ns: Vec<u64> = ns_node
        .ints(0, MAX_N)?
        .into_iter()
        .map(|x| x as u64)
        .collect();
    let n_max = ns.iter().copied().max().unwrap_or(0) as usize;
    let horizon = match sweep.get("horizon") {
        Some(n) => n.int(0, MAX_HORIZON)? as usize,
        None => DEFAULT_HORIZON,
    }
    .max(n_max);
    let sparse = match sweep.get("sparse_horizon") {
        Some(n) => n.int(0, MAX_HORIZON)? as usize,
        None => horizon,
    }
    .max(horizon);
    let h = Horizon {
        naive: horizon,
        sparse,
    };
    check_datasets(sweep, &heaps)?;
    for &play in &plays {
        if play == Play::Misere {
            check_misere(sweep, &codes, &heaps, n_max)?;
        }
    }
    let mut cases: Vec<Box<dyn Case>> = Vec::new();
    for c in &codes {
        for &play in &plays {
            for &d in &heaps {
                cases.push(Box::new(OctalCase {
                    code: c.clone(),
                    play,
                    heaps: d as usize,
                    ns: ns.clone(),
                    horizon: h,
                    items: std::sync::OnceLock::new(),
                }));
            }
        }
    }
    let mut views_: Vec<&'static crate::view::View> = Vec::new();
    for &d in &heaps {
        for v in views::for_heaps(d as usize, plays.contains(&Play::Normal)) {
            if !views_.contains(&v) {
                views_.push(v);
            }
        }
    }
    let mut notes = Vec::new();
    if empty > 0 {
        notes.push(
            Note::new("skipped codes that allow no move (all digits 0)").counting(empty as u64),
        );
    }
    Ok(Plan {
        cases,
        views: views_,
        notes,
        grid: Vec::new(),
    })
}

/// The datasets asked for are written by some heap count of the sweep:
/// one heap's values and periods, several heaps' positions.
fn check_datasets(sweep: &Node<'_>, heaps: &[i64]) -> Result<(), SpecError> {
    use super::datasets::{NIM_VALUES, PERIODS, POSITIONS};
    let mut written = Vec::new();
    if heaps.contains(&1) {
        written.extend([NIM_VALUES.name, PERIODS.name]);
    }
    if heaps.iter().any(|&d| d > 1) {
        written.push(POSITIONS.name);
    }
    crate::family::check_datasets_written(sweep, (super::datasets::DATASETS, &written), |_| {
        "`nim_values` and `periods` are written for `heaps: 1`, `positions` for `heaps: 2` or `3`"
            .to_string()
    })
}

/// Misère play: one heap only; a splitting code to heap sizes up to
/// [`SPLIT_CAP`] (its positions are multisets of heaps).
fn check_misere(
    sweep: &Node<'_>,
    codes: &[Code],
    heaps: &[i64],
    n_max: usize,
) -> Result<(), SpecError> {
    if heaps.iter().any(|&d| d > 1) {
        let n = sweep.get("heaps").unwrap_or_else(|| sweep.clone());
        return Err(n.err(
            "misère play is computed for one heap (nim-values do not add up in misère play); use `heaps: 1`, or `play: normal` for several heaps",
        ));
    }
    if let Some(c) = codes.iter().find(|c| c.splits())
        && n_max as u64 > SPLIT_CAP
    {
        let n = sweep.get("N").unwrap_or_else(|| sweep.clone());
        return Err(n.err(format!(
            "misère play of a code that splits heaps ({}) is searched over multisets of heaps: N up to {SPLIT_CAP}, got {n_max}",
            c.text()
        )));
    }
    Ok(())
}
