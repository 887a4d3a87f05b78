//! `octal`: take-and-break games on heaps given by an octal code (Winning
//! Ways, ch. 4): Kayles `0.77`, Dawson's Kayles `0.07`, `0.137`, `4.07`, …
//! A take-away game with take set S is the code with digit 3 at each s in S;
//! removing runs of at most 2 (3) pieces from one row is `0.77` (`0.777`).
//!
//! ```yaml
//! family: octal
//! code: ["0.77", "0.07"]     # or "0.???" (every digit 0..7 at each `?`), a list
//! play: normal               # normal | misere (misère: one heap)
//! heaps: 1                   # 1, 2 or 3 (several heaps: normal play, nim-sums)
//! N: 0..100                  # heap sizes (rows; every heap with several)
//! horizon: 10000             # optional: sequences computed to here at most (default max(N, 4096))
//! sparse_horizon: 100000     # optional: further where a sparse space applies
//! ```
//!
//! The family by job: [`code`] (codes and their moves), [`kernel`] (the
//! naive and sparse-space kernels), [`sequence`] (stages until a period is
//! proven), [`periods`] (the octal periodicity theorem), [`misere`] (misère
//! play by search), [`brute`] (the reference game tree), [`params`] (a sweep →
//! cases), [`cases`] and [`rows`] (solving a case, filling its rows),
//! [`datasets`] and [`views`] (declared once), [`solve`] (`nimlab solve
//! octal`), [`play`] (`nimlab play octal`, with `play.js` for its page).

pub mod adaptive;
pub mod blocks;
#[cfg(test)]
pub(crate) mod brute;
pub(crate) mod cases;
pub mod code;
pub(crate) mod datasets;
pub(crate) mod explain;
pub mod kernel;
pub(crate) mod kernels;
pub(crate) mod misere;
pub(crate) mod params;
pub(crate) mod periods;
pub(crate) mod play;
pub(crate) mod rows;
mod scan;
pub mod sequence;
pub(crate) mod solve;
pub(crate) mod views;

#[cfg(test)]
mod blocks_tests;
#[cfg(test)]
mod hex_tests;
#[cfg(test)]
mod misere_tests;
#[cfg(test)]
mod tests;

use crate::data::Dataset;
use crate::family::watch::Watch;
use crate::family::{Answer, Capabilities, Family, Plan, Planning};
use crate::params::{Node, SpecError};
use crate::view::View;

/// Which sequence a period row is about.
pub const SEQUENCES: &[&str] = &["grundy", "outcome"];

/// The family (registered in [`crate::family::FAMILIES`]).
pub struct Octal;

impl Family for Octal {
    fn name(&self) -> &'static str {
        "octal"
    }
    fn about(&self) -> &'static str {
        "Take-and-break games on heaps given by an octal code d0.d1d2… (Winning Ways, ch. 4): digit d_i says, \
         in binary, what may be left after taking i tokens from a heap (1: nothing, 2: one heap, 4: two heaps). \
         Kayles 0.77, Dawson's Kayles 0.07, 0.137, 4.07, … Normal play (nim-values, periods proven by the octal \
         periodicity theorem, the sparse-space kernel where it applies) and misère play (one heap, by search)."
    }
    fn params_help(&self) -> &'static str {
        "code: an octal code \"0.77\", \"0.07\", \"4.07\" (digits 0..7, d0 0 or 4), `?` for every digit (\"0.???\"), or a list\n\
         play: normal | misere (or a list; misère: one heap, N ≤ 40 for a code that splits)\n\
         heaps: 1, 2 or 3 (or a list; several heaps in normal play)\n\
         N: heap sizes, e.g. 0..100 (every heap with several)\n\
         horizon: sequences are computed by stages (×4) until a period is proven, to at most this n (default max(N, 4096))\n\
         sparse_horizon: where a sparse space applies, to at most this n (default the horizon)\n\
         solve: --code 0.77 --heaps 5,7 [--play misere] (or --rule \"0.77 misere\") [--moves all|first|none] [--prove false]"
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
        use crate::family::calibration::Probe;
        vec![Probe {
            kernel: kernels::OCTAL,
            run: kernel_probe,
        }]
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            explains_moves: Some(explain::first_moves),
            // What the moves' account reads besides the keys.
            explained_columns: Some(|_| &["grundy", "outcome"]),
            ..Capabilities::NONE
        }
    }
    fn solve_schema(&self) -> &'static str {
        include_str!("solve.schema.json")
    }
    fn solve(&self, pos: &Node<'_>, _watch: &dyn Watch) -> anyhow::Result<Answer> {
        solve::solve(pos)
    }
}

/// The octal kernel's rate: the naive kernel on fixed codes (splitting and
/// not) to a fixed length, its moves examined counted as
/// [`kernel::naive_work`] does (a sweep's proof may stop sooner: the probe
/// counts what it computed).
fn kernel_probe() -> anyhow::Result<u64> {
    use anyhow::Context as _;
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let mut units = 0u64;
    for text in ["0.77", "0.137", "4.07", "0.16", "0.33"] {
        let c = code::Code::parse(text).map_err(anyhow::Error::msg)?;
        let g = kernel::naive(&c, 3000, &cancel).context("cancelled")?;
        std::hint::black_box(&g);
        units += kernel::naive_work(&c, 3000);
    }
    Ok(units)
}
