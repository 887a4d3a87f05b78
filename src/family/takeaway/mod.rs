//! `takeaway`: heaps and a set of allowed takes (GAMES.md §1; reports 003, 004).
//!
//! Sweep parameters:
//!
//! ```yaml
//! family: takeaway
//! take: {max: 2..12}            # or {min: m, max: n}, {set: [1, 3, 4]}, any, or a list of these
//! heaps: 1                      # number of heaps D (1..6), or a list: one case per count
//! N: 0..45                      # heap sizes, for every heap (or N1:, N2:, … per heap)
//! play: normal                  # normal | misere, or a list
//! no_repeat: false              # true | false, or [false, true]
//! horizon: 5000                 # optional: one-heap sequences are computed to here for periods
//! proof_cap: 10000000           # optional: how far the horizon may be extended to prove a period
//! datasets: [lattices]          # optional: two or three heaps: the loss sets' lattices
//! points_window: 1000           # optional, with lattices: P-positions stored for the figures, [0, W]²
//! ```
//!
//! The family by job: [`params`] (a sweep's parameters → cases), [`cases`]
//! (a case: solving it and filling its rows), [`one_heap`] and [`solver`]
//! (the solvers; [`brute`] the reference), [`datasets`] and [`views`] (declared
//! once), [`solve`] (`nimlab solve takeaway`), [`play`] (`nimlab play
//! takeaway`: the game against the computer, with `play.js` for its page).

#[cfg(test)]
pub(crate) mod brute;
pub(crate) mod cases;
pub(crate) mod datasets;
pub(crate) mod explain;
pub(crate) mod induction;
pub(crate) mod kernels;
pub(crate) mod lattices;
pub(crate) mod moves;
pub(crate) mod one_heap;
pub(crate) mod params;
pub mod planes;
pub(crate) mod play;
pub(crate) mod solve;
pub mod solver;
pub(crate) mod views;

#[cfg(test)]
mod lattices_tests;

pub use one_heap::OneHeap;
pub use solve::{PositionAnswer, answer};

use crate::data::Dataset;
use crate::family::watch::Watch;
use crate::family::{Answer, Capabilities, Family, Plan, Planning};
use crate::game::Play;
use crate::params::{Node, SpecError};
use crate::view::View;

/// The family (registered in [`crate::family::FAMILIES`]).
pub struct Takeaway;

/// The take set as the spec wrote it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TakeForm {
    /// Any positive number (ordinary Nim).
    Any,
    /// `{min: m, max: n}` (`{max: n}` is `m = 1`).
    Range(u32, u32),
    /// An explicit set (sorted, no duplicates).
    Set(Vec<u32>),
}

impl TakeForm {
    /// The take set up to `horizon` (for `any`, `1..=horizon`).
    pub fn takes(&self, horizon: usize) -> Vec<u32> {
        match self {
            TakeForm::Any => (1..=horizon.max(1) as u32).collect(),
            TakeForm::Range(m, n) => (*m..=*n).collect(),
            TakeForm::Set(s) => s.clone(),
        }
    }
    /// Largest take, `None` for `any`.
    pub fn max_take(&self) -> Option<u32> {
        match self {
            TakeForm::Any => None,
            TakeForm::Range(_, n) => Some(*n),
            TakeForm::Set(s) => s.last().copied(),
        }
    }
    /// Smallest take.
    pub fn min_take(&self) -> u32 {
        match self {
            TakeForm::Any => 1,
            TakeForm::Range(m, _) => *m,
            TakeForm::Set(s) => s[0],
        }
    }
    /// The `take` column: `max:5`, `min:2,max:7`, `set:1,3,4`, `any`.
    pub fn text(&self) -> String {
        match self {
            TakeForm::Any => "any".into(),
            TakeForm::Range(1, n) => format!("max:{n}"),
            TakeForm::Range(m, n) => format!("min:{m},max:{n}"),
            TakeForm::Set(s) => format!("set:{}", join(s, ",")),
        }
    }
}

pub(crate) fn join<T: ToString>(v: &[T], sep: &str) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

/// A complete rule: take set, play convention, no-repeat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    /// Take set.
    pub take: TakeForm,
    /// Play convention.
    pub play: Play,
    /// Cond(3): no repeat of the opponent's last take.
    pub no_repeat: bool,
}

impl Rule {
    /// Whether positions have Grundy values that add by XOR (normal play
    /// without no_repeat), so a heap's sequence and nim-sums answer them;
    /// otherwise the joint (retrograde) solver does.
    pub fn has_grundy_values(&self) -> bool {
        self.play == Play::Normal && !self.no_repeat
    }
    /// The `rule` column: the take set, then `no_repeat` and `misere` when they apply.
    pub fn label(&self) -> String {
        let mut s = self.take.text();
        if self.no_repeat {
            s.push_str(" no_repeat");
        }
        if self.play == Play::Misere {
            s.push_str(" misere");
        }
        s
    }
}

impl Family for Takeaway {
    fn name(&self) -> &'static str {
        "takeaway"
    }
    fn about(&self) -> &'static str {
        "Heaps of stones; a move takes t stones from one heap, t in a set S ({max: n}, {min: m, max: n}, \
         {set: [...]}, or any). Normal or misère play, optional no_repeat (a player may not take the number \
         the opponent just took). Reports 003 (misère Nim 3-5-7) and 004 (Cond(1), Cond(2), Cond(3))."
    }
    fn params_help(&self) -> &'static str {
        "take: any | {max: n} | {min: m, max: n} | {set: [1, 3, 4]} (values, lists or ranges a..b; a list of rules);\n\
         \x20     one rule also as text: max:5, min:2,max:7, set:1,3,4, {1,3,4}, 2..7\n\
         heaps: D (1..6), or a list or range of counts (one case per count and rule)\n\
         N: heap sizes for every heap (or N1:, N2:, … per heap), e.g. 0..50\n\
         play: normal | misere (or a list)\n\
         no_repeat: true | false (or [false, true])\n\
         horizon: one-heap sequences are computed to this N for period detection (default max(N, 64·max(S)+64))\n\
         proof_cap: for a finite S, the horizon is extended (×4 at a time) until the period is proven, to at most this N (default 10^7)\n\
         points_window: with `datasets: [lattices]`, the P-positions of each loss set stored for its figures, in [0, W]² at most (default 1000 for two heaps, 0 for three)\n\
         solve: --heaps 3,5,7, --take set:1,3,4, --play misere, --no-repeat (or --rule \"set:1,3,4 no_repeat misere\"), --last-take T"
    }
    fn datasets(&self) -> &'static [&'static Dataset] {
        datasets::DATASETS
    }
    fn views(&self) -> &'static [&'static View] {
        views::VIEWS
    }
    fn plan(&self, sweep: &Node<'_>, _: Planning<'_>) -> Result<Plan, SpecError> {
        params::plan(sweep)
    }
    fn play(&self, params: &Node<'_>) -> anyhow::Result<Box<dyn crate::play::PlayGame>> {
        play::game(params)
    }
    fn cli_args(&self) -> &'static [crate::params::CliArg] {
        solve::CLI_ARGS
    }
    fn probes(&self) -> Vec<crate::family::calibration::Probe> {
        use crate::family::calibration::{Probe, probe_sweep};
        vec![
            Probe {
                kernel: kernels::SUBTRACTION,
                run: || {
                    probe_sweep(
                        &Takeaway,
                        "take: {max: 2..30}\nplay: [normal, misere]\nN: 0..3000\n",
                        kernels::SUBTRACTION,
                    )
                },
            },
            Probe {
                kernel: kernels::NO_REPEAT,
                run: || {
                    probe_sweep(
                        &Takeaway,
                        "take: {max: 2..33}\nno_repeat: true\nN: 0..20000\n",
                        kernels::NO_REPEAT,
                    )
                },
            },
            Probe {
                kernel: kernels::RETROGRADE,
                run: || {
                    probe_sweep(
                        &Takeaway,
                        "take: {max: 2..4}\nheaps: 2\nplay: misere\nN: 0..120\n",
                        kernels::RETROGRADE,
                    )
                },
            },
        ]
    }
    fn solve_schema(&self) -> &'static str {
        include_str!("solve.schema.json")
    }
    fn solve(&self, pos: &Node<'_>, _watch: &dyn Watch) -> anyhow::Result<Answer> {
        solve::solve(pos)
    }
    fn explain(&self, dataset: &str, table: &crate::data::Table, row: usize) -> Option<String> {
        explain::explain(dataset, table, row)
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            explains_moves: Some(explain::first_moves),
            plays_out: Some(moves::moves),
            explained_columns: Some(|_| &["grundy", "outcome"]),
            overhead_probes: Some(crate::family::calibration::OverheadProbes {
                dataset: "positions",
                one_row: "take: {max: 2}\nheaps: 2\nN: 0..0\n",
                rows: "take: {max: 2..6}\nheaps: 2\nN: 0..200\n",
                cases: "take: {max: 2..201}\nheaps: 2\nN: 0..3\n",
            }),
            ..Capabilities::NONE
        }
    }
    fn draw(&self, dataset: &str, table: &crate::data::Table, row: usize) -> Option<String> {
        explain::draw(dataset, table, row)
    }
    fn position_name(&self, dataset: &str, key: &[(String, String)]) -> Option<String> {
        explain::position_name(dataset, key)
    }
    fn unit(&self, dataset: &str) -> (&'static str, &'static str) {
        match dataset {
            "positions" => ("position", "positions"),
            "periods" => ("sequence", "sequences"),
            "loss_sets" => ("rule", "rules"),
            "lattices" => ("lattice", "lattices"),
            _ => ("case", "cases"),
        }
    }
}

#[cfg(test)]
mod tests;
