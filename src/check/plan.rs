//! Claims checked before anything is solved: every conjecture's `where`,
//! `claim`, `by`, `parts`, `other` and `strategy` compiled, by the same code that judges
//! it later, against a table with no rows and the declared columns of its
//! sweep's dataset. An unknown dataset or column (with the nearest name), a
//! type mismatch (a list compared with an integer) or a claim that is not
//! true/false is found in milliseconds, not after an overnight sweep.

use super::{CheckOptions, check_scoped, other, strategy};
use crate::data::Dataset;
use crate::spec::{Conjecture, Experiment};

/// A conjecture that cannot be judged on any data its sweep can write.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanError {
    /// The spec file.
    pub file: String,
    /// The conjecture's name.
    pub conjecture: String,
    /// The field at fault (`conjectures[2].claim`).
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for PlanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: field `{}` (conjecture `{}`): {}",
            self.file, self.field, self.conjecture, self.message
        )
    }
}

/// Every conjecture of `exps` that could not be judged, in spec order.
pub fn plan_errors(exps: &[Experiment]) -> Vec<PlanError> {
    exps.iter()
        .flat_map(|e| {
            e.conjectures.iter().filter_map(move |c| {
                let (field, message) = conjecture_error(e, c)?;
                Some(PlanError {
                    file: e.file.display().to_string(),
                    conjecture: c.name.clone(),
                    field: format!("{}{field}", c.field),
                    message,
                })
            })
        })
        .collect()
}

/// Fails, listing every conjecture of `exps` that could not be judged (see
/// [`plan_errors`]); nothing has been solved or written yet.
pub fn check_plan(exps: &[Experiment]) -> anyhow::Result<()> {
    let errors = plan_errors(exps);
    if errors.is_empty() {
        return Ok(());
    }
    let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
    anyhow::bail!(
        "{}\n(nothing was solved or written: the claims are checked against the datasets their sweeps declare before a run starts)",
        lines.join("\nerror: ")
    )
}

/// The field (after the conjecture's own path) and the message of the first
/// mistake of `c`, if any.
fn conjecture_error(e: &Experiment, c: &Conjecture) -> Option<(String, String)> {
    let Some(sweep) = e.sweeps.iter().find(|s| s.name == c.sweep) else {
        return Some((".sweep".into(), format!("no sweep named `{}`", c.sweep)));
    };
    let stored: Vec<&'static Dataset> = sweep
        .declared()
        .iter()
        .copied()
        .filter(|d| {
            let wanted = sweep.datasets.as_ref();
            wanted.is_none_or(|w| w.iter().any(|x| x == d.name))
        })
        .collect();
    let Some(ds) = stored.iter().find(|d| d.name == c.dataset) else {
        let names: Vec<&str> = stored.iter().map(|d| d.name).collect();
        return Some((
            ".dataset".into(),
            format!(
                "sweep `{}` stores no dataset `{}`; its datasets: {}",
                sweep.name,
                c.dataset,
                names.join(", ")
            ),
        ));
    };
    let empty = ds.empty_table();
    let table = if c.other.is_empty() {
        empty
    } else {
        match other::with_other_rows(&empty, Some(ds), &c.other) {
            Ok(t) => t,
            Err(m) => return Some((".other".into(), m)),
        }
    };
    let table = if c.strategy.is_empty() {
        table
    } else {
        let f = Some(sweep.family);
        match strategy::with_strategy(&table, Some(ds), f, &c.dataset, &c.strategy) {
            Ok(t) => t,
            Err(m) => return Some((".strategy".into(), m)),
        }
    };
    let opts = CheckOptions::default();
    check_scoped(
        &table,
        Some(ds),
        c.filter.as_deref(),
        &c.claim,
        &c.parts,
        None,
        &opts,
    )
    .err()
    .map(|err| (format!(".{}", err.part), err.error.to_string()))
}
