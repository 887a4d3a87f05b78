//! Why a stored one-heap position has its value, for a counterexample: its
//! options (read from the other rows of the same rule) and their values.

use std::fmt::Write as _;

use crate::data::{Cell, Table};

/// Options shown at most.
const SHOWN: usize = 12;

fn int(t: &Table, col: &str, row: usize) -> Option<i64> {
    match t.cell(col, row)? {
        Cell::Int(v) => Some(v),
        _ => None,
    }
}

fn text<'a>(t: &'a Table, col: &str, row: usize) -> Option<&'a str> {
    match t.cell(col, row)? {
        Cell::Str(s) => Some(s),
        _ => None,
    }
}

/// The row of the same rule with heap `n` (rows of a rule are usually
/// consecutive in N, so `row - (N - n)` is tried first).
fn row_of(t: &Table, row: usize, rule: &str, n: i64) -> Option<usize> {
    let here = int(t, "N", row)?;
    let same = |r: usize| text(t, "rule", r) == Some(rule) && int(t, "N", r) == Some(n);
    let guess = (row as i64 - (here - n)) as usize;
    if guess < t.rows() && same(guess) {
        return Some(guess);
    }
    (0..t.rows()).find(|&r| same(r))
}

/// The takes allowed from heap `n`.
fn takes(t: &Table, row: usize, n: i64) -> Option<Vec<i64>> {
    if let Some(Cell::IntList(s)) = t.cell("take_set", row) {
        return Some(s.iter().copied().filter(|&x| x <= n).collect());
    }
    let lo = int(t, "take_min", row)?;
    let hi = int(t, "take_max", row).unwrap_or(n).min(n);
    Some((lo..=hi).collect())
}

/// One heap, without no_repeat: the options N − t and their Grundy values
/// (normal play) or outcomes, read from the table.
pub fn explain(dataset: &str, t: &Table, row: usize) -> Option<String> {
    if dataset != "positions" || matches!(t.cell("no_repeat", row)?, Cell::Bool(true)) {
        return None;
    }
    let n = int(t, "N", row)?;
    let rule = text(t, "rule", row)?;
    let grundy = int(t, "grundy", row).is_some();
    let mut opts: Vec<(i64, i64, String)> = Vec::new();
    for take in takes(t, row, n)? {
        let r = row_of(t, row, rule, n - take)?;
        let v = if grundy {
            int(t, "grundy", r)?.to_string()
        } else {
            text(t, "outcome", r)?.to_string()
        };
        opts.push((take, n - take, v));
    }
    if opts.is_empty() {
        let play = text(t, "play", row).unwrap_or("normal");
        let who = if play == "misere" { "wins" } else { "loses" };
        return Some(format!(
            "no move from N={n}: the player to move {who} ({play} play)"
        ));
    }
    let list = |v: &[&(i64, i64, String)]| {
        let mut s: Vec<String> = v
            .iter()
            .take(SHOWN)
            .map(|(k, m, x)| format!("−{k}→{m} ({x})"))
            .collect();
        if v.len() > SHOWN {
            s.push(format!("… {} more", v.len() - SHOWN));
        }
        s.join(", ")
    };
    let all: Vec<&(i64, i64, String)> = opts.iter().collect();
    let mut s = String::new();
    if grundy {
        let own = int(t, "grundy", row)?;
        let _ = write!(
            s,
            "the options of N={n} and their Grundy values: {}; the smallest value not among them is {own}",
            list(&all)
        );
    } else if text(t, "outcome", row)? == "N" {
        let wins: Vec<&(i64, i64, String)> = opts.iter().filter(|o| o.2 == "P").collect();
        let _ = write!(
            s,
            "winning moves from N={n} (to a P-position): {}",
            list(&wins)
        );
    } else {
        let _ = write!(
            s,
            "every move from N={n} reaches an N-position: {}",
            list(&all)
        );
    }
    Some(s)
}
