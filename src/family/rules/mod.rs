//! `rules`: heap games whose moves are a condition written in the claims'
//! expression language (issue 38; the student's own game in one line).
//!
//! ```yaml
//! family: rules
//! move: "t <= k and t != last"   # a move takes t from a heap of n when this holds
//! k: 2..15                       # any other field: a parameter of the grid (a column too)
//! split: false                   # optional: the rest may be left as two heaps
//! both: "t <= 3"                 # optional: take t from two heaps at once (reads t, n1 <= n2)
//! heaps: 1                       # 1..3, or a list
//! N: 0..1000                     # heap sizes
//! play: [normal, misere]
//! horizon: 5000                  # optional: one heap's values computed to here for the period
//! ```
//!
//! The condition reads `n`, `t`, `last` (the opponent's previous take,
//! null before the game's first move), `mine` (the mover's previous take,
//! null before their first), `first` and the parameters; a condition that
//! comes out null allows the move. The family by job: [`cond`] (checking
//! and compiling a condition), [`game`] (a rule's moves), [`solver`] (Grundy
//! sequences and the joint-state solver), [`periods`], [`params`] (a sweep →
//! cases), [`cases`], [`datasets`] (datasets and views, declared once).

pub(crate) mod cases;
pub mod cond;
pub(crate) mod datasets;
pub mod explain;
pub mod game;
pub(crate) mod params;
pub(crate) mod periods;
pub mod play;
pub(crate) mod solve;
pub mod solver;

#[cfg(test)]
mod tests;

use crate::data::Dataset;
use crate::family::watch::Watch;
use crate::family::{Answer, Family, Plan, Planning};
use crate::params::{Node, SpecError};
use crate::view::View;

/// The family (registered in [`crate::family::FAMILIES`]).
pub struct Rules;

impl Family for Rules {
    fn name(&self) -> &'static str {
        "rules"
    }
    fn about(&self) -> &'static str {
        "Heaps of tokens; a move takes t from one heap of n when the spec's `move:` condition holds, written \
         in the claims' expression language: it reads n, t, last (the opponent's previous take), mine (the \
         mover's own), first, and the sweep's parameters (is_square, is_prime, is_null, gcd, ...). Options: \
         split (leave the rest as two heaps), both (take t from two heaps, as Wythoff), normal or misère play, \
         1 to 3 heaps."
    }
    fn params_help(&self) -> &'static str {
        "move: the condition of a move, e.g. \"is_square(t)\", \"n % t == 0 and t < n\", \"first ? t < n : t <= 2 * last\"\n\
         any other name (k, limit, ...): a parameter of the grid read by the condition (values, lists or ranges)\n\
         split: true | false (the rest of the heap may be left as two heaps)\n\
         both: a condition on t, n1, n2 (n1 <= n2): take t from two heaps at once\n\
         heaps: 1..3 (or a list)\n\
         N: heap sizes, e.g. 0..1000\n\
         play: normal | misere (or a list)\n\
         horizon: one heap's values are computed to here for the period"
    }
    fn datasets(&self) -> &'static [&'static Dataset] {
        datasets::DATASETS
    }
    fn views(&self) -> &'static [&'static View] {
        datasets::VIEWS
    }
    fn plan(&self, sweep: &Node<'_>, _: Planning<'_>) -> Result<Plan, SpecError> {
        params::plan(sweep)
    }
    fn cli_args(&self) -> &'static [crate::params::CliArg] {
        solve::CLI_ARGS
    }
    fn solve_schema(&self) -> &'static str {
        include_str!("solve.schema.json")
    }
    fn solve(&self, pos: &Node<'_>, _watch: &dyn Watch) -> anyhow::Result<Answer> {
        solve::solve(pos)
    }
    fn play(&self, params: &Node<'_>) -> anyhow::Result<Box<dyn crate::play::PlayGame>> {
        play::game(params)
    }
    fn capabilities(&self) -> crate::family::Capabilities {
        crate::family::Capabilities {
            explains_moves: Some(explain::first_moves),
            // What the moves' account reads besides the keys (it solves
            // the position again for its moves).
            explained_columns: Some(|_| &["outcome"]),
            ..crate::family::Capabilities::NONE
        }
    }
    fn unit(&self, dataset: &str) -> (&'static str, &'static str) {
        match dataset {
            "rule_positions" => ("position", "positions"),
            "rule_periods" => ("sequence", "sequences"),
            _ => ("case", "cases"),
        }
    }
}
