//! `nimlab board` for `lines`: one board's exhaustive analysis cut into
//! slices ([`super::exhaustive::slices`]), out of core on one machine or as Slurm job
//! arrays (one per wave) — the family's [`OutOfCore`] capability.
//!
//! ```text
//! nimlab board lines plan   --triangle 9 --take max:3 --play misere --memory 4GiB --dir D
//! nimlab board lines solve  --triangle 8 --take max:3 --play misere --memory 2GiB --dir D
//! nimlab board lines solve  --triangle 8 --take max:3 --play misere --in-memory
//! nimlab board lines slice  --dir D --wave K --task I [--group G]     (one array task)
//! nimlab board lines finish --dir D
//! nimlab board lines status --dir D
//! ```
//!
//! The board and rule are read by the family's own parsers (those of a
//! spec and of `nimlab solve lines`); the answer is written as the family's
//! declared `positions` and `counts` datasets.

mod answer;
mod finish;
mod plan;
mod run;
mod status;

use std::path::Path;
use std::sync::atomic::AtomicBool;

use anyhow::Result;

use super::exhaustive::slices::engine::Engine;
use super::exhaustive::slices::store::Store;
use crate::family::outofcore::{Cut, OutOfCore, SliceTask, SolveOpts};
use crate::params::{CliArg, Node};

/// The `lines` family's out-of-core board solver.
pub struct LinesBoards;

impl OutOfCore for LinesBoards {
    fn position_args(&self) -> &'static [CliArg] {
        super::solve::POSITION_ARGS
    }
    fn plan(&self, board: &Node<'_>, cut: &Cut, dir: &Path, json: bool) -> Result<()> {
        let (p, choice, fresh) = plan::plan_dir(board, cut, dir)?;
        if json {
            let mut v = choice.plan.to_json(&p);
            v["estimate"] = choice.est.to_json();
            println!("{}", serde_json::to_string_pretty(&v)?);
        } else {
            print!("{}", plan::plan_text(&p, &choice, dir, fresh));
        }
        Ok(())
    }
    fn solve_in_memory(&self, board: &Node<'_>, json: bool, cancel: &AtomicBool) -> Result<()> {
        run::solve_whole(board, json, cancel)
    }
    fn solve_dir(
        &self,
        board: &Node<'_>,
        cut: &Cut,
        dir: &Path,
        opts: &SolveOpts,
        cancel: &AtomicBool,
    ) -> Result<()> {
        run::solve_dir(board, cut, dir, opts, cancel)
    }
    fn slice(&self, dir: &Path, task: &SliceTask, cancel: &AtomicBool) -> Result<()> {
        run::slice_task(dir, task, cancel)
    }
    fn finish(&self, dir: &Path, json: bool) -> Result<()> {
        let (p, plan) = plan::load_plan(dir)?;
        let store = Store::new(dir, plan.t, plan.slice_bytes())?;
        // Finishing reads single words: no memory budget to keep.
        let e = Engine::new(&p, &plan, store, u64::MAX)?;
        let a = finish::finish(&e, dir)?;
        finish::print_answer(&p, &a, json)
    }
    fn status(&self, dir: &Path, json: bool, waves: bool) -> Result<()> {
        status::status(dir, json, waves)
    }
}
