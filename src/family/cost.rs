//! What a case costs, as one answer ([`super::Case::cost`]): its size (the
//! driver's balancing weight and progress unit), its work in the cost
//! model's kernel units expected and at most ([`crate::cost`]), its memory
//! expected and at most, what it shares with the other cases of its sweep,
//! the rows and table bytes it writes, whether the work is bounded and
//! whether it spreads over threads. The driver, the guard, the estimate and
//! the sampler read only this.

use crate::cost::Work;
use crate::data::Dataset;

/// A case's cost. A simple family fills in what it knows and leaves the rest
/// to the default: `Cost { size, work, memory_at_most, rows, ..Cost::default() }`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cost {
    /// Its size, roughly positions visited: the driver's balancing weight
    /// ([`Cost::weight`]), the unit of its progress reports
    /// ([`super::CaseCtx::progress`]) and the size the estimate's sample
    /// fits a case stating no kernel work on.
    pub size: u64,
    /// Its work expected, in units of the kernels of the cost model
    /// ([`crate::cost`]), for the estimates of time (a case may do less
    /// for datasets the sweep does not keep).
    pub work: Work,
    /// Its work at most, where the case may grow (a horizon extended up to
    /// `proof_cap`): the bound beside the expected time (`None`: its
    /// [`Cost::work`]).
    pub work_bound: Option<Work>,
    /// Work shared by the sweep's cases and done once (the lines chord
    /// table); the sweep counts the largest.
    pub shared_work: Work,
    /// Peak memory at most, in bytes (saturating: never wraps): the driver
    /// refuses a sweep with a case beyond the machine's memory, up front. A
    /// bound where the case may grow (a horizon extended up to `proof_cap`,
    /// a memo up to its budget).
    pub memory_bound: u64,
    /// The memory the case will likely use, for the estimate's expected
    /// peak: the bound without the growth only some cases reach (the
    /// horizon asked for, the memo its expected lookups fill). `None`: the
    /// bound.
    pub memory_expected: Option<u64>,
    /// The part of the memory shared by every case of its sweep (a table
    /// built once per sweep), which threads solving cases at once hold once.
    pub shared_memory: u64,
    /// Estimated rows of each dataset the case writes (dataset name, rows;
    /// saturating), for the output-size guard and `--dry-run`.
    pub rows: Vec<(&'static str, u64)>,
    /// How the bytes its table of a dataset holds before it is written are
    /// counted where the family counts the typed vectors its tables are
    /// built of (else: the rows times the declared columns' sizes,
    /// [`Dataset::row_bytes`]); see [`Cost::table_bytes_of`].
    pub table_bytes: Vec<(&'static str, TableBytes)>,
    /// When its work cannot be bounded in advance: the bound the estimate
    /// uses and what changes it (`None`: it can).
    pub unbounded: Option<String>,
    /// Whether the case spreads its own work over the pool's threads (a
    /// board solved by a parallel kernel), so that on `T` threads it takes
    /// about its time over `T` rather than holding one thread.
    pub splits: bool,
    /// Whether it spreads its own work over the pool's threads when it is
    /// its sweep's only chunk: the driver solves a lone chunk on the
    /// calling thread, where a kernel may share each heap size's work
    /// among the pool's threads (the octal kernels), while cases solved
    /// beside others hold one thread each (0.6 to 200,000: 1.27 s on one
    /// thread, 0.63 s on two, alone; two such cases 2.18 and 1.06 s).
    pub splits_alone: bool,
}

/// How a case counts the bytes of one of its tables ([`Cost::table_bytes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableBytes {
    /// Bytes per row, in place of the declared columns' sizes.
    PerRow(u64),
    /// Bytes beyond the rows' declared sizes, in all (a list column's items).
    Beyond(u64),
}

impl Cost {
    /// The driver's balancing weight: the size, at least one.
    pub fn weight(&self) -> u64 {
        self.size.max(1)
    }
    /// The work at most ([`Cost::work_bound`], else the work).
    pub fn work_at_most(&self) -> &Work {
        self.work_bound.as_ref().unwrap_or(&self.work)
    }
    /// The memory expected ([`Cost::memory_expected`], else the bound).
    pub fn expected_memory(&self) -> u64 {
        self.memory_expected.unwrap_or(self.memory_bound)
    }
    /// Rows of the dataset named `name` (0: none written).
    pub fn rows_of(&self, name: &str) -> u64 {
        self.rows
            .iter()
            .find(|(d, _)| *d == name)
            .map_or(0, |(_, n)| *n)
    }
    /// Bytes its table of `ds` (as the sweep declares it, grid columns
    /// included) holds before it is written, with `rows` rows: the declared
    /// columns' sizes unless the family counts them ([`TableBytes`]).
    pub fn table_bytes_of(&self, ds: &Dataset, rows: u64) -> u64 {
        let declared = rows.saturating_mul(ds.row_bytes());
        match self.table_bytes.iter().find(|(d, _)| *d == ds.name) {
            None => declared,
            Some((_, TableBytes::PerRow(b))) => rows.saturating_mul(*b),
            Some((_, TableBytes::Beyond(b))) => declared.saturating_add(*b),
        }
    }
}
