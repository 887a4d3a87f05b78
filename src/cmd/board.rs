//! `nimlab board FAMILY ACTION …`: one big position's exhaustive analysis
//! cut into slices, out of core on one machine or as Slurm job arrays (one
//! per wave), by a family that offers it
//! ([`crate::family::outofcore::OutOfCore`]).
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
//! The family's position parameters are told apart from the action's
//! options by the names the family declares
//! ([`crate::family::outofcore::OutOfCore::position_args`]); the action and
//! its options are read by clap ([`crate::cli::board::BoardCli`]), the
//! position by the family's own parsers, as for `nimlab solve`.

use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Parser as _;

use crate::cli::board::{BoardAction, BoardCli, CutArgs, OnOff};
use crate::family::outofcore::{Cut, OutOfCore, SliceTask, SolveOpts};
use crate::family::{self, FAMILIES};
use crate::params::{self, Node};

/// Runs `nimlab board FAMILY …`.
pub fn board(family: &str, args: &[String]) -> Result<ExitCode> {
    let solver = solver(family)?;
    let (position, rest) = params::split_cli(args, solver.position_args());
    let words = std::iter::once(format!("nimlab board {family}")).chain(rest);
    let cli = match BoardCli::try_parse_from(words) {
        Ok(cli) => cli,
        // Help and version are printed and exit 0; usage errors exit 2.
        Err(e) => e.exit(),
    };
    if let Some(t) = cli.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t.max(1))
            .build_global()
            .context("cannot start the thread pool (give --threads once)")?;
    }
    let action = cli.action;
    let value = params::cli_to_map(&position, solver.position_args())?;
    let node = Node::root(&value, params::COMMAND_LINE);
    let cancel = super::ctrl_c_flag("complete slices are kept");
    if !position.is_empty() && !names_position(&action) {
        bail!(
            "`{}` reads the position from --dir's plan.json: leave out {}",
            action_name(&action),
            position.join(" ")
        );
    }
    match action {
        BoardAction::Plan { cut, dir, json } => solver.plan(&node, &cut_of(&cut), &dir, json)?,
        BoardAction::Solve {
            cut,
            dir,
            in_memory,
            until_wave,
            prune,
            disk,
            drop_cache,
            json,
        } => {
            if in_memory {
                solver.solve_in_memory(&node, json, &cancel)?;
            } else {
                let dir = dir.context("give --dir (or --in-memory)")?;
                let opts = SolveOpts {
                    until_wave,
                    prune,
                    disk,
                    drop_cache,
                    json,
                };
                solver.solve_dir(&node, &cut_of(&cut), &dir, &opts, &cancel)?;
            }
        }
        BoardAction::Slice {
            dir,
            wave,
            task,
            group,
            memory,
            drop_cache,
        } => {
            let t = SliceTask {
                wave,
                task,
                group,
                memory,
                drop_cache,
            };
            solver.slice(&dir, &t, &cancel)?;
        }
        BoardAction::Finish { dir, json } => solver.finish(&dir, json)?,
        BoardAction::Status { dir, json, waves } => solver.status(&dir, json, waves)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The out-of-core solver of the family named `name`, or why there is none.
fn solver(name: &str) -> Result<&'static dyn OutOfCore> {
    let offering = || {
        FAMILIES
            .iter()
            .filter(|f| f.capabilities().out_of_core.is_some())
            .map(|f| f.name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if ACTIONS.contains(&name) {
        // The form before families named their boards (`nimlab board solve
        // --triangle 8 …`): refused rather than read as lines', since the
        // position's parameters are the family's own words.
        bail!(
            "give the family before the action: `nimlab board FAMILY {name} …`, \
             FAMILY one of: {} (e.g. `nimlab board lines {name} …`)",
            offering()
        );
    }
    let fam = family::by_name(name).with_context(|| {
        format!(
            "unknown family {name:?}; families that solve a position out of core: {}",
            offering()
        )
    })?;
    fam.capabilities().out_of_core.with_context(|| {
        format!(
            "the family `{name}` offers no out-of-core solving; families that do: {}",
            offering()
        )
    })
}

/// The actions of `nimlab board FAMILY` (as [`action_name`] writes them).
const ACTIONS: &[&str] = &["plan", "solve", "slice", "finish", "status"];

/// The family-neutral cut of the command line's options.
fn cut_of(c: &CutArgs) -> Cut {
    Cut {
        memory: c.memory,
        slice_pieces: c.slice_pieces,
        symmetry: c.symmetry == OnOff::On,
    }
}

/// Does the action read the position from the command line?
fn names_position(a: &BoardAction) -> bool {
    matches!(a, BoardAction::Plan { .. } | BoardAction::Solve { .. })
}

/// The action's word, for messages.
fn action_name(a: &BoardAction) -> &'static str {
    match a {
        BoardAction::Plan { .. } => "plan",
        BoardAction::Solve { .. } => "solve",
        BoardAction::Slice { .. } => "slice",
        BoardAction::Finish { .. } => "finish",
        BoardAction::Status { .. } => "status",
    }
}
