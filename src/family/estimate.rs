//! A case known only by its estimates: what a family's estimating plan
//! ([`super::Planning::Estimate`]) puts where listing the real cases would
//! take long (a block of a big enumeration), so `--dry-run`, `--list` and the
//! up-front guard never list millions of boards. It is never solved: the run
//! plans the sweep exactly ([`super::Family::plan`]) before solving it.

use super::{Case, CaseCtx, Cost, Output};
use crate::cost::Work;

/// A case's estimates, without the case.
#[derive(Clone, Debug, Default)]
pub struct Estimated {
    /// A key naming what it stands for (not the real case's key).
    pub key: String,
    /// [`Case::cost`] when the sweep keeps one of `work_needs` (or every
    /// dataset)…
    pub cost: Cost,
    /// … and its [`Cost::work`] when it keeps none of them.
    pub work_else: Work,
    /// The datasets whose keeping makes [`Cost::work`] the work.
    pub work_needs: &'static [&'static str],
    /// [`Case::memory_hint`].
    pub hint: &'static str,
}

impl Case for Estimated {
    fn key(&self) -> String {
        self.key.clone()
    }
    fn cost(&self, keep: Option<&[String]>) -> Cost {
        let kept = keep.is_none_or(|k| k.iter().any(|d| self.work_needs.contains(&d.as_str())));
        let mut c = self.cost.clone();
        if !kept {
            c.work = self.work_else.clone();
        }
        c
    }
    fn memory_hint(&self) -> &'static str {
        self.hint
    }
    fn stands_in(&self) -> bool {
        true
    }
    fn solve(&self, _ctx: &CaseCtx<'_>) -> anyhow::Result<Output> {
        anyhow::bail!(
            "{} stands for cases of an estimating plan; plan the sweep exactly to solve it",
            self.key
        )
    }
}
