//! A sweep's fields → rules → cases, every mistake found when the spec is
//! read: an unknown field or name (with a suggestion), a type error in a
//! condition, a rule allowing no move at all.

use super::cases::RulesCase;
use super::cond::{Cond, NAMES};
use super::datasets::{DATASETS, for_heaps};
use super::game::Rule;
use super::solver::{SPLIT_MISERE_TOKENS, allows_some_move};
use crate::family::note::Note;
use crate::family::{Case, Plan};
use crate::game::{PLAY_WORDS, Play};
use crate::params::{Node, SWEEP_KEYS, SpecError};

/// The family's own fields.
pub const KEYS: &[&str] = &["move", "both", "split", "play", "heaps", "N", "horizon"];

/// Heap sizes at most.
const MAX_HEAP: i64 = (1 << 24) - 1;

/// The parameters of the grid: each name and its values.
type Grid = Vec<(String, Vec<i64>)>;

fn grid(sweep: &Node<'_>) -> Result<Grid, SpecError> {
    let map = sweep.expect_map()?;
    let mut out = Vec::new();
    for key in map.keys() {
        if SWEEP_KEYS.contains(&key.as_str()) || KEYS.contains(&key.as_str()) {
            continue;
        }
        let node = sweep
            .get(key)
            .ok_or_else(|| sweep.err(format!("`{key}` is empty")))?;
        param_name(key).map_err(|m| node.err(m))?;
        out.push((
            key.clone(),
            node.ints(-MAX_HEAP, MAX_HEAP)?.into_iter().collect(),
        ));
    }
    Ok(out)
}

/// Checks that a field that is not the family's own can name a parameter of
/// the grid: a name the condition reads, clashing with no other name (a
/// misspelt field is said so, with the field meant).
pub(crate) fn param_name(key: &str) -> Result<(), String> {
    let near = || {
        crate::data::nearest_name(key, KEYS)
            .map(|n| format!(" (did you mean `{n}`?)"))
            .unwrap_or_default()
    };
    let read = crate::expr::parse::parse(key)
        .ok()
        .is_some_and(|a| matches!(a, crate::expr::Ast::Name(..)));
    let function = crate::expr::compile::FUNCTIONS.iter().any(|f| f.0 == key);
    if !read || function {
        return Err(format!(
            "`{key}` is not a field of the family{}, nor a name a condition can read as a parameter (letters, digits and _, starting with a letter; not a word or function of the expression language); the family's fields are {}",
            near(),
            quoted(KEYS)
        ));
    }
    let taken = NAMES.contains(&key)
        || DATASETS.iter().any(|d| d.column(key).is_some())
        || key.starts_with("other_");
    if taken {
        return Err(format!(
            "a parameter of the grid cannot be named `{key}`: the name is the condition's own or a column of the family's datasets{}; choose another (e.g. `k`, `limit`)",
            near()
        ));
    }
    if let Some(n) = crate::data::nearest_name(key, KEYS) {
        return Err(format!(
            "unknown field `{key}` (did you mean `{n}`?); a field the family does not know is a parameter of the grid, and `{key}` is too near `{n}` to be one; the family's fields are {}",
            quoted(KEYS)
        ));
    }
    Ok(())
}

fn quoted(v: &[&str]) -> String {
    v.iter()
        .map(|a| format!("`{a}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every combination of the grid's values.
fn combinations(g: &Grid) -> Vec<Vec<(String, i64)>> {
    let mut out = vec![vec![]];
    for (name, vals) in g {
        out = out
            .into_iter()
            .flat_map(|c| {
                vals.iter().map(move |&v| {
                    let mut c = c.clone();
                    c.push((name.clone(), v));
                    c
                })
            })
            .collect();
    }
    out
}

/// A condition field, checked against the names it may read.
fn condition(node: &Node<'_>, allowed: &[&str], params: &[String]) -> Result<Cond, SpecError> {
    let text = node.str()?;
    Cond::compile(text, allowed, params).map_err(|m| {
        node.err(format!(
            "{m}\n(a condition may read {} and the parameters {})",
            quoted(allowed),
            if params.is_empty() {
                "(none)".to_string()
            } else {
                params.join(", ")
            }
        ))
    })
}

/// The rule's conditions and options as the spec writes them (parameters
/// not yet given values), the play conventions, and the heap counts.
pub struct Fields {
    /// `move:`.
    pub mv: Cond,
    /// `both:`.
    pub both: Option<Cond>,
    /// `split:`.
    pub split: bool,
    /// `play:`.
    pub plays: Vec<Play>,
    /// `heaps:`.
    pub heaps: Vec<usize>,
    /// The grid of parameters.
    pub grid: Grid,
}

/// Reads the rule's fields (shared with `nimlab solve` and `play`).
pub fn fields(sweep: &Node<'_>) -> Result<Fields, SpecError> {
    let grid = grid(sweep)?;
    let names: Vec<String> = grid.iter().map(|(n, _)| n.clone()).collect();
    let mv = condition(
        &sweep.req(
            "move",
            "the condition of a move, e.g. \"t <= 3\" or \"is_square(t)\"",
        )?,
        &NAMES[..5],
        &names,
    )?;
    let both = match sweep.get("both") {
        Some(b) => Some(condition(&b, &["t", "n1", "n2"], &names)?),
        None => None,
    };
    let split = match sweep.get("split") {
        Some(s) => {
            let v = s.bools()?;
            if v.len() != 1 {
                return Err(s.err("one value: true or false"));
            }
            v[0]
        }
        None => false,
    };
    let plays = match sweep.get("play") {
        Some(n) => n
            .words(PLAY_WORDS)?
            .into_iter()
            .filter_map(Play::parse)
            .collect(),
        None => vec![Play::Normal],
    };
    let heaps = match sweep.get("heaps") {
        Some(h) => h.ints(1, 3)?.into_iter().map(|d| d as usize).collect(),
        None => vec![1],
    };
    if both.is_some() && !heaps.iter().all(|&h| h >= 2) {
        return Err(sweep
            .get("both")
            .unwrap()
            .err("a `both:` move takes from two heaps: give `heaps: 2` or 3"));
    }
    Ok(Fields {
        mv,
        both,
        split,
        plays,
        heaps,
        grid,
    })
}

/// The rules of the grid, each checked to allow some move.
pub fn rules(f: &Fields, sweep: &Node<'_>, max_n: u32) -> Result<Vec<Rule>, SpecError> {
    let mut out = Vec::new();
    for params in combinations(&f.grid) {
        for &play in &f.plays {
            let rule = Rule {
                mv: f.mv.clone(),
                both: f.both.clone(),
                split: f.split,
                play,
                params: params.clone(),
            };
            if play == f.plays[0] && !allows_some_move(&rule, max_n.clamp(1, 200)) {
                let node = sweep.get("move").unwrap_or_else(|| sweep.clone());
                return Err(node.err(format!(
                    "the rule `{}` allows no move at all from any heap of 1..{} tokens (at the start or after any take): every position would be lost at once",
                    rule.label(),
                    max_n.clamp(1, 200)
                )));
            }
            out.push(rule);
        }
    }
    Ok(out)
}

/// The default horizon of one heap's sequence: far enough for the window
/// proof where the condition states a largest take.
fn horizon(rule: &Rule, max_n: usize, asked: Option<usize>) -> usize {
    if let Some(h) = asked {
        return h.max(max_n);
    }
    let bound = rule.mv.take_bound(&rule.env());
    match bound {
        Some(s) if !rule.reads_n() && (!rule.split || rule.has_grundy()) => {
            max_n.max(64 * s as usize + 64).min(max_n.max(1 << 16))
        }
        _ => max_n,
    }
}

/// Validates a sweep and expands it into cases: one per rule (parameters'
/// values and play) and heap count.
pub fn plan(sweep: &Node<'_>) -> Result<Plan, SpecError> {
    let f = fields(sweep)?;
    let nnode = sweep.req("N", "heap sizes, e.g. `N: 0..1000`")?;
    let mut sizes: Vec<u32> = nnode
        .ints(0, MAX_HEAP)?
        .into_iter()
        .map(|x| x as u32)
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    let max_n = *sizes.last().unwrap_or(&0);
    let asked = match sweep.get("horizon") {
        Some(h) => Some(h.int(0, MAX_HEAP)? as usize),
        None => None,
    };
    let mut cases: Vec<Box<dyn Case>> = Vec::new();
    let mut notes = Vec::new();
    for rule in rules(&f, sweep, max_n)? {
        for &heaps in &f.heaps {
            let mut sizes = sizes.clone();
            if rule.split && !rule.has_grundy() {
                // Not a sum: solved on the whole position, within reach.
                let reach = (SPLIT_MISERE_TOKENS / heaps as u64) as u32;
                let before = sizes.len();
                sizes.retain(|&n| n <= reach);
                if sizes.len() < before {
                    notes.push(
                        Note::new(format!(
                            "N: heap sizes above {reach} refused for `{}` ({} play, {heaps} heap(s)): misère play of a splitting rule is not a sum of heaps; it is solved on the whole position, to {SPLIT_MISERE_TOKENS} tokens in all",
                            rule.label(),
                            rule.play.as_str()
                        ))
                        .counting((before - sizes.len()) as u64),
                    );
                }
                if sizes.is_empty() {
                    continue;
                }
            }
            let max_n = *sizes.last().unwrap_or(&0);
            let case = RulesCase {
                horizon: if heaps == 1 {
                    horizon(&rule, max_n as usize, asked)
                } else {
                    0
                },
                rule: rule.clone(),
                heaps,
                sizes,
                probe: Default::default(),
            };
            case.check().map_err(|m| nnode.err(m))?;
            cases.push(Box::new(case));
        }
    }
    Ok(Plan {
        cases,
        views: for_heaps(&f.heaps),
        notes,
        grid: f.grid.iter().map(|(n, _)| n.clone()).collect(),
    })
}
