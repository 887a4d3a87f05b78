//! The moves between the rows of a stored `positions` table, for playing a
//! strategy out ([`crate::family::Capabilities::plays_out`]): every take of the row's
//! rule from every heap, each leading to the row of the same rule with that
//! heap smaller.

use std::collections::HashMap;

use super::explain::{heaps_of, takes, tuple};
use crate::data::{Cell, Table};
use crate::family::Moves;

/// The moves of a `positions` table; an error for another dataset, for
/// `no_repeat` (a position alone does not say which take is barred) and
/// for an option that is not a row of the table.
pub fn moves(dataset: &str, t: &Table) -> Result<Moves, String> {
    if dataset != "positions" {
        return Err(format!(
            "only the positions of a takeaway sweep can be played out, not its `{dataset}`"
        ));
    }
    let rules: Vec<&str> = (0..t.rows())
        .map(|r| t.text("rule", r).unwrap_or(""))
        .collect();
    let rule = |r: usize| rules[r];
    let mut heaps = Vec::with_capacity(t.rows());
    for r in 0..t.rows() {
        if matches!(t.cell("no_repeat", r), Some(Cell::Bool(true))) {
            return Err(format!(
                "rule `{}`: with no_repeat a position alone does not say which take is barred, so it cannot be played out",
                rule(r)
            ));
        }
        heaps.push(heaps_of(t, r).ok_or_else(|| format!("row {r} has no heap sizes"))?);
    }
    let index: HashMap<(&str, &[usize]), usize> = heaps
        .iter()
        .enumerate()
        .map(|(r, h)| ((rule(r), h.as_slice()), r))
        .collect();
    let mut out = Moves::default();
    for (r, h) in heaps.iter().enumerate() {
        let top = h.iter().copied().max().unwrap_or(0);
        let all = takes(t, r, top as i64).ok_or_else(|| format!("row {r} has no take set"))?;
        let mut options = Vec::new();
        for (i, &n) in h.iter().enumerate() {
            for &take in all.iter().filter(|&&x| x >= 1 && x as usize <= n) {
                let mut next = h.clone();
                next[i] -= take as usize;
                let Some(&o) = index.get(&(rule(r), next.as_slice())) else {
                    return Err(format!(
                        "the move from {} to {} (rule {}) leads outside the table",
                        tuple(h),
                        tuple(&next),
                        rule(r)
                    ));
                };
                options.push(o);
            }
        }
        out.options.push(options);
        out.no_move_wins.push(t.text("play", r) == Some("misere"));
        out.name.push(tuple(h));
    }
    Ok(out)
}
