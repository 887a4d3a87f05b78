//! A parity case: one variant and take set, solved once up to its horizon.

use std::sync::Arc;

use super::solver::{self, Solution, Variant};
use super::{TakeSet, datasets};
use crate::family::{Case, CaseCtx, Cost, Output, TableBytes};

/// One variant and take set, over the sweep's pile sizes: the unit of work.
#[derive(Clone)]
pub struct ParityCase {
    pub(crate) variant: Variant,
    pub(crate) take: TakeSet,
    pub(crate) rs: Arc<Vec<u64>>,
    pub(crate) rs_key: String,
    pub(crate) at: Arc<Vec<[u64; 3]>>,
    pub(crate) strip: bool,
    pub(crate) strip_to: Option<usize>,
    pub(crate) outcome: bool,
    /// Write the `remoteness` dataset (asked for by the spec).
    pub(crate) remoteness: bool,
    pub(crate) horizon: usize,
}

impl ParityCase {
    /// The horizon asked for (at least the take set's default).
    fn asked(&self) -> usize {
        self.horizon.max(solver::default_horizon(self.take.takes()))
    }
    /// Memory with the table computed to `len` pile sizes: three bytes a
    /// size (its rows are the chunk's tables, which the guard counts from
    /// [`Cost::rows`]).
    fn memory_to(&self, len: usize) -> u64 {
        (len as u64 + 1).saturating_mul(3)
    }
    /// Rows of `outcome`: per pile size, the two hand parities its total
    /// parity allows ([`Solution::hands`]), once per mover (both sides of
    /// `sides`, the mover alone of `odd_wins`).
    fn outcome_rows(&self) -> u64 {
        let movers = match self.variant {
            Variant::Sides => 2,
            Variant::OddWins => 1,
        };
        (self.rs.len() as u64).saturating_mul(2 * movers)
    }
    /// The case's size ([`Cost::size`]).
    fn size(&self) -> u64 {
        let len = self.horizon.max(solver::default_horizon(self.take.takes())) as u64;
        let tables = u64::from(self.outcome) + u64::from(self.remoteness);
        let rows = tables * self.rs.len() as u64 * 8;
        len * self.take.takes().len() as u64 / 4 + len + rows
    }
    fn memory(&self) -> u64 {
        // The table may be extended (×4 at a time) up to MAX_HORIZON until
        // the period is proven.
        self.memory_to(self.asked().max(solver::MAX_HORIZON))
    }
    fn expected_memory(&self) -> u64 {
        // The horizon asked for (an extension is known only by solving).
        self.memory_to(self.asked())
    }
    fn rows(&self) -> Vec<(&'static str, u64)> {
        let mut r = vec![(datasets::POSITIONS.name, self.at.len() as u64 * 2)];
        if self.outcome {
            r.push((datasets::OUTCOME.name, self.outcome_rows()));
        }
        if self.remoteness {
            r.push((datasets::REMOTENESS.name, self.outcome_rows()));
        }
        r
    }
}

/// Bytes of one row of `outcome` as its table holds it before writing (the
/// typed vectors of [`ParityCase::outcome_table`], `crate::data::columns`):
/// the rule, the keys, three vocabulary codes and the winning takes' offset
/// and one take (the builder reserves one a row: a loss has none, a win at
/// least one). The two labels the writer adds (`experiment`, `sweep`) are
/// held once a table (`Values::Repeat`), not a row.
pub(crate) const OUTCOME_ROW_BYTES: u64 = RULE_BYTES + KEY_BYTES + 3 * ENUM + OFFSET + INT;
/// Bytes of one row of `remoteness` (as [`OUTCOME_ROW_BYTES`]): the rule,
/// the keys, the outcome's code and the remoteness.
pub(crate) const REMOTENESS_ROW_BYTES: u64 = RULE_BYTES + KEY_BYTES + ENUM + INT;
/// A vocabulary's code (`EnumVec`), a label's code (`DictVec`), an integer,
/// a list's offset.
const ENUM: u64 = std::mem::size_of::<u8>() as u64;
const LABEL: u64 = std::mem::size_of::<u32>() as u64;
const INT: u64 = std::mem::size_of::<i64>() as u64;
const OFFSET: u64 = std::mem::size_of::<usize>() as u64;
/// `variant`, `take`, `k`.
const RULE_BYTES: u64 = ENUM + LABEL + INT;
/// `r`, `a_parity`, `b_parity`, `mover`.
const KEY_BYTES: u64 = 3 * INT + ENUM;

impl Case for ParityCase {
    fn key(&self) -> String {
        let at: Vec<u64> = self.at.iter().flatten().copied().collect();
        let remoteness = if self.remoteness { "/remoteness" } else { "" };
        format!(
            "parity/v1/variant={}/take={}/r={}/horizon={}/outcome={}/at={}/strip={}{remoteness}",
            self.variant.as_str(),
            self.take.text(),
            self.rs_key,
            self.horizon,
            self.outcome,
            crate::family::ints_key(&at),
            if self.strip {
                self.strip_to.map_or("auto".to_string(), |t| t.to_string())
            } else {
                "no".into()
            }
        )
    }
    fn cost(&self, _keep: Option<&[String]>) -> Cost {
        let size = self.size();
        Cost {
            size,
            work: vec![(super::kernels::PARITY, size)],
            memory_bound: self.memory(),
            memory_expected: Some(self.expected_memory()),
            rows: self.rows(),
            // The two tables of a row per position; the others are a few
            // rows.
            table_bytes: vec![
                (
                    datasets::OUTCOME.name,
                    TableBytes::PerRow(OUTCOME_ROW_BYTES),
                ),
                (
                    datasets::REMOTENESS.name,
                    TableBytes::PerRow(REMOTENESS_ROW_BYTES),
                ),
            ],
            ..Cost::default()
        }
    }
    fn scaled(&self, factor: f64) -> Option<Box<dyn Case>> {
        // The pile sizes and the horizon cut: the same variant and takes.
        let mut c = self.clone();
        let rs = crate::family::scaled_prefix(&self.rs, factor);
        c.rs_key = format!("{}/scaled={factor}", self.rs_key);
        c.rs = Arc::new(rs);
        c.horizon = crate::family::scaled_count(self.horizon, factor);
        Some(Box::new(c))
    }
    fn solve(&self, ctx: &CaseCtx<'_>) -> anyhow::Result<Output> {
        let s = Solution::solve(self.variant, self.take.takes(), self.horizon, ctx.progress);
        let mut out: Output = Vec::new();
        if self.outcome {
            out.push((&datasets::OUTCOME, self.outcome_table(&s)));
        }
        if self.remoteness {
            out.push((&datasets::REMOTENESS, self.remoteness_table(&s)));
        }
        let (long, lists) = self.safe_tables(&s);
        out.push((&datasets::SAFE_STATES, long));
        out.push((&datasets::SAFE_LISTS, lists));
        out.push((&datasets::MODULI, self.moduli_table(&s)));
        if self.strip {
            out.push((&datasets::PATTERN, self.pattern_table(&s)));
        }
        if !self.at.is_empty() {
            out.push((&datasets::POSITIONS, self.positions_table(&s)?));
        }
        Ok(out)
    }
}
