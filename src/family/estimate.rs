//! A case known only by its estimates: what a family's estimating plan
//! ([`super::Planning::Estimate`]) puts where listing the real cases would
//! take long (a block of a big enumeration), so `--dry-run`, `--list` and the
//! up-front guard never list millions of boards. It is never solved: the run
//! plans the sweep exactly ([`super::Family::plan`]) before solving it.

use super::{Case, CaseCtx, Output};
use crate::cost::Work;

/// A case's estimates, without the case.
#[derive(Clone, Debug, Default)]
pub struct Estimated {
    /// A key naming what it stands for (not the real case's key).
    pub key: String,
    /// [`Case::cost`].
    pub cost: u64,
    /// [`Case::memory`].
    pub memory: u64,
    /// [`Case::expected_memory`] (`None`: [`Estimated::memory`]).
    pub expected: Option<u64>,
    /// [`Case::shared_memory`].
    pub shared: u64,
    /// [`Case::rows`].
    pub rows: Vec<(&'static str, u64)>,
    /// [`Case::memory_hint`].
    pub hint: &'static str,
    /// [`Case::work`] when the sweep keeps one of `work_needs` (or every
    /// dataset)…
    pub work: Work,
    /// … and when it keeps none of them.
    pub work_else: Work,
    /// The datasets whose keeping makes [`Estimated::work`] the work.
    pub work_needs: &'static [&'static str],
    /// [`Case::shared_work`].
    pub shared_work: Work,
    /// Bytes its tables hold beyond their declared row sizes, per dataset
    /// ([`Case::table_bytes`]).
    pub beyond_rows: Vec<(&'static str, u64)>,
}

impl Case for Estimated {
    fn key(&self) -> String {
        self.key.clone()
    }
    fn cost(&self) -> u64 {
        self.cost
    }
    fn memory(&self) -> u64 {
        self.memory
    }
    fn expected_memory(&self) -> u64 {
        self.expected.unwrap_or(self.memory)
    }
    fn table_bytes(&self, ds: &crate::data::Dataset, rows: u64) -> u64 {
        let beyond = self.beyond_rows.iter().find(|(d, _)| *d == ds.name);
        rows.saturating_mul(ds.row_bytes())
            .saturating_add(beyond.map_or(0, |(_, b)| *b))
    }
    fn shared_memory(&self) -> u64 {
        self.shared
    }
    fn rows(&self) -> Vec<(&'static str, u64)> {
        self.rows.clone()
    }
    fn memory_hint(&self) -> &'static str {
        self.hint
    }
    fn work(&self, keep: Option<&[String]>) -> Work {
        let kept = keep.is_none_or(|k| k.iter().any(|d| self.work_needs.contains(&d.as_str())));
        if kept {
            self.work.clone()
        } else {
            self.work_else.clone()
        }
    }
    fn shared_work(&self) -> Work {
        self.shared_work.clone()
    }
    fn solve(&self, _ctx: &CaseCtx<'_>) -> anyhow::Result<Output> {
        anyhow::bail!(
            "{} stands for cases of an estimating plan; plan the sweep exactly to solve it",
            self.key
        )
    }
}
