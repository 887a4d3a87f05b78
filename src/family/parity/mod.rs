//! `parity`: one pile, stones kept in hand (GAMES.md §2; report 001).
//!
//! A move takes `t ∈ S` stones (`S = {1..k}` or an explicit set containing 1)
//! from the pile into the mover's own hand. When the pile is empty the hands'
//! parities decide: in `sides` an Odd player meets an Even player (initial pile
//! even, so the hands end with equal parity; both odd: Odd wins, both even:
//! Even wins); in `odd_wins` (initial pile odd) whoever holds an odd number wins.
//!
//! Sweep parameters:
//!
//! ```yaml
//! family: parity
//! variant: [sides, odd_wins]    # default sides
//! k: 1..100                     # takes 1..k; or
//! take: {set: [1, 3, 4]}        # {max: n}, {set: [...]} (must contain 1), {subsets_of: n}, or a list
//! r: 0..10000                   # pile sizes in the outcome table (default 0..64)
//! at: [[0, 0, 4], [1, 1, 8]]    # optional positions (a, b, r) with real hand sizes
//! strip_k: [3]                  # rules drawn as a strip chart: max takes, `all` or `none`
//! strip_to: 48                  # last pile size drawn (default preperiod + 4·M)
//! outcome: true                 # write the outcome dataset (default true)
//! datasets: [remoteness, ...]   # `remoteness` is written only when listed here or read by a conjecture
//! horizon: 20000                # pile sizes computed for the period (default max(r, 64·max(S)+64))
//! ```
//!
//! The family by job: [`params`] (a sweep's parameters → cases), [`cases`]
//! and [`rows`] (solving a case, filling its typed rows), [`solver`] (the
//! solver; [`brute`] the reference), [`datasets`] and [`views`] (declared
//! once), [`solve`] (`nimlab solve parity`), [`play`] (`nimlab play parity`,
//! with `play.js` for its page).

#[cfg(test)]
pub(crate) mod brute;
pub(crate) mod cases;
pub(crate) mod datasets;
pub(crate) mod explain;
pub(crate) mod kernels;
pub(crate) mod params;
pub(crate) mod play;
pub(crate) mod rows;
pub(crate) mod solve;
pub(crate) mod solver;
pub(crate) mod views;

use crate::data::Dataset;
use crate::family::watch::Watch;
use crate::family::{Answer, Capabilities, Family, Plan, Planning};
use crate::params::{Node, SpecError};
use crate::view::View;

/// The family (registered in [`crate::family::FAMILIES`]).
pub struct Parity;

/// A take set: sorted, no duplicates, contains 1.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TakeSet(Vec<u32>);

impl TakeSet {
    /// `{1..k}`.
    pub fn upto(k: u32) -> TakeSet {
        TakeSet((1..=k).collect())
    }
    /// The takes.
    pub fn takes(&self) -> &[u32] {
        &self.0
    }
    /// The largest take (the article's k for `1..k`).
    pub fn max(&self) -> u32 {
        *self.0.last().unwrap()
    }
    /// `Some(k)` when the set is `{1..k}`.
    pub fn interval(&self) -> Option<u32> {
        (self.0.len() as u32 == self.max()).then_some(self.max())
    }
    /// The `take` column: `max:3` for `{1..3}`, `set:1,3,4` otherwise.
    pub fn text(&self) -> String {
        match self.interval() {
            Some(k) => format!("max:{k}"),
            None => format!("set:{}", join(&self.0, ",")),
        }
    }
    /// For people: `1..3` or `{1,3,4}`.
    pub fn human(&self) -> String {
        match self.interval() {
            Some(1) => "1".into(),
            Some(k) => format!("1..{k}"),
            None => format!("{{{}}}", join(&self.0, ",")),
        }
    }
}

pub(crate) fn join<T: ToString>(v: &[T], sep: &str) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

impl Family for Parity {
    fn name(&self) -> &'static str {
        "parity"
    }
    fn about(&self) -> &'static str {
        "One pile; a move takes t stones (t in 1..k, or an explicit set containing 1) into the mover's own hand; \
         at the end the hands' parities decide. `sides`: Odd player against Even player (initial pile even; both \
         hands odd: Odd wins, both even: Even wins); `odd_wins`: whoever holds an odd number wins (initial pile \
         odd). Outcome table over (hand parities, r, mover), safe states (absolute, common), the proven modulus M \
         against report 001's claim M = 2(k+1) (k odd) / k+2 (k even)."
    }
    fn params_help(&self) -> &'static str {
        "variant: sides | odd_wins (or a list; default sides)\n\
         k: takes 1..k (values, lists or ranges a..b), or\n\
         take: {max: n} | {set: [1, 3, 4]} (must contain 1) | {subsets_of: n} (every subset of 1..n holding 1), or a list\n\
         r: pile sizes listed in the outcome table (default 0..64)\n\
         at: positions [a, b, r] with real hand sizes (a: Odd's or A's hand, b: Even's or B's), e.g. [[0, 0, 4], [1, 0, 9]]\n\
         strip_k: max takes drawn as a strip chart, or all | none (default all when ≤ 12 rules)\n\
         strip_to: last pile size drawn (default preperiod + 4·M)\n\
         outcome: true | false (write the outcome dataset; default true)\n\
         (the remoteness dataset is written only when the sweep's datasets: lists it or a conjecture reads it)\n\
         horizon: pile sizes computed for period detection (default max(r, 64·max(S)+64); extended until proven)\n\
         solve: --variant odd_wins, --k 3 or --take max:3 | set:1,3,4 | {1,3,4} | 1..3 (or --rule \"odd_wins take 1..3\"),\n\
         \x20      --r 17, --a A --b B (the hands), --mover odd|even|a|b"
    }
    fn datasets(&self) -> &'static [&'static Dataset] {
        datasets::DATASETS
    }
    fn views(&self) -> &'static [&'static View] {
        views::VIEWS
    }
    fn plan(&self, sweep: &Node<'_>, how: Planning<'_>) -> Result<Plan, SpecError> {
        params::plan(sweep, how.asked())
    }
    fn play(&self, params: &Node<'_>) -> anyhow::Result<Box<dyn crate::play::PlayGame>> {
        play::game(params)
    }
    fn cli_args(&self) -> &'static [crate::params::CliArg] {
        solve::CLI_ARGS
    }
    fn probes(&self) -> Vec<crate::family::calibration::Probe> {
        use crate::family::calibration::{Probe, probe_sweep};
        vec![Probe {
            kernel: kernels::PARITY,
            run: || {
                probe_sweep(
                    &Parity,
                    "variant: sides\nk: 1..12\nr: 0..3000\n",
                    kernels::PARITY,
                )
            },
        }]
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
            on_request: datasets::ON_REQUEST,
            explains_moves: Some(explain::first_moves),
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
            "positions" | "outcome" | "remoteness" => ("position", "positions"),
            "safe_states" => ("safe state", "safe states"),
            "moduli" => ("rule", "rules"),
            _ => ("case", "cases"),
        }
    }
}

#[cfg(test)]
mod tests;
