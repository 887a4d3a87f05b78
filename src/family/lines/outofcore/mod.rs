//! `nimlab board` for `lines`: one board's exhaustive analysis cut into
//! slices ([`super::slices`]), out of core on one machine or as Slurm job
//! arrays (one per wave) — the family's [`OutOfCore`] capability.
//!
//! ```text
//! nimlab board plan   --triangle 9 --take max:3 --play misere --memory 4GiB --dir D
//! nimlab board solve  --triangle 8 --take max:3 --play misere --memory 2GiB --dir D
//! nimlab board solve  --triangle 8 --take max:3 --play misere --in-memory
//! nimlab board slice  --dir D --wave K --task I [--group G]     (one array task)
//! nimlab board finish --dir D
//! nimlab board status --dir D
//! ```
//!
//! The board and rule are read by the family's own parsers (those of a
//! spec and of `nimlab solve lines`); the answer is written as the family's
//! declared `positions` and `counts` datasets.

mod finish;
mod plan;
mod run;
mod status;

use std::path::Path;
use std::sync::atomic::AtomicBool;

use anyhow::{Result, bail};
use serde_json::{Value, json};

use super::params::{one_board, one_rule};
use super::slices::store::Store;
use super::slices::{Engine, Problem};
use crate::cli::board::{BoardSpec, CutArgs};
use crate::family::outofcore::{OutOfCore, SliceTask, SolveOpts};
use crate::params::{COMMAND_LINE, Node};

/// The `lines` family's out-of-core board solver.
pub struct LinesBoards;

impl OutOfCore for LinesBoards {
    fn plan(&self, board: &BoardSpec, cut: &CutArgs, dir: &Path, json: bool) -> Result<()> {
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
    fn solve_in_memory(&self, board: &BoardSpec, json: bool, cancel: &AtomicBool) -> Result<()> {
        run::solve_whole(board, json, cancel)
    }
    fn solve_dir(
        &self,
        board: &BoardSpec,
        cut: &CutArgs,
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

/// Does the command line name a board?
fn given(b: &BoardSpec) -> bool {
    b.triangle.is_some()
        || b.hexagon.is_some()
        || b.trapezoid.is_some()
        || b.parallelogram.is_some()
        || b.pentagon.is_some()
        || b.mask.is_some()
}

/// The command line's board and rule as the parameter map of `nimlab solve
/// lines` (`{triangle: 5, take: "max:3", play: misere}`), checking the
/// number of values each shape option needs.
fn board_params(b: &BoardSpec) -> Result<Value> {
    let want = |name: &str, v: &[u32], k: usize| -> Result<Value> {
        if v.len() != k || v.contains(&0) {
            bail!("--{name} needs {k} positive numbers separated by commas, got {v:?}");
        }
        Ok(json!(v))
    };
    let mut map = serde_json::Map::new();
    if let Some(n) = b.triangle {
        if n == 0 {
            bail!("--triangle needs at least 1 row");
        }
        map.insert("triangle".into(), json!(n));
    }
    for (name, v, k) in [
        ("hexagon", &b.hexagon, 6),
        ("trapezoid", &b.trapezoid, 2),
        ("parallelogram", &b.parallelogram, 2),
        ("pentagon", &b.pentagon, 3),
    ] {
        if let Some(v) = v {
            map.insert(name.into(), want(name, v, k)?);
        }
    }
    if let Some(m) = &b.mask {
        map.insert("mask".into(), json!(m));
    }
    match map.len() {
        1 => {}
        0 => bail!(
            "give a board: --triangle N, --hexagon P0,..,P5, --trapezoid X,Y, --parallelogram X,Y, --pentagon X,Y,Z or --mask ROWS"
        ),
        _ => bail!("give one board only"),
    }
    map.insert("take".into(), json!(b.take));
    map.insert("play".into(), json!(b.play));
    Ok(Value::Object(map))
}

/// The board and rule a command line names, read by the family's parsers.
fn problem(b: &BoardSpec) -> Result<Problem> {
    let v = board_params(b)?;
    let node = Node::root(&v, COMMAND_LINE);
    let shape = one_board(&node)?;
    let (take, play) = one_rule(&node)?;
    Problem::new(shape, take, play)
}
