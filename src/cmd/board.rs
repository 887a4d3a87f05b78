//! `nimlab board`: one board's exhaustive analysis cut into slices, out of
//! core on one machine or as Slurm job arrays (one per wave), by the family
//! that offers out-of-core solving ([`crate::family::outofcore::OutOfCore`]).
//!
//! ```text
//! nimlab board plan   --triangle 9 --take max:3 --play misere --memory 4GiB --dir D
//! nimlab board solve  --triangle 8 --take max:3 --play misere --memory 2GiB --dir D
//! nimlab board solve  --triangle 8 --take max:3 --play misere --in-memory
//! nimlab board slice  --dir D --wave K --task I [--group G]     (one array task)
//! nimlab board finish --dir D
//! nimlab board status --dir D
//! ```

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result};

use crate::cli::board::BoardAction;
use crate::family::FAMILIES;
use crate::family::outofcore::{SliceTask, SolveOpts};

/// Runs `nimlab board …`.
pub fn board(action: BoardAction) -> Result<ExitCode> {
    let solver = FAMILIES
        .iter()
        .find_map(|f| f.out_of_core())
        .context("no family offers out-of-core board solving")?;
    let cancel = Arc::new(AtomicBool::new(false));
    let c2 = cancel.clone();
    let _ = ctrlc::set_handler(move || {
        if c2.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("\nnimlab: stopping: complete slices are kept (Ctrl-C again to quit now)…");
    });
    match action {
        BoardAction::Plan {
            board,
            cut,
            dir,
            json,
        } => solver.plan(&board, &cut, &dir, json)?,
        BoardAction::Solve {
            board,
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
                solver.solve_in_memory(&board, json, &cancel)?;
            } else {
                let dir = dir.expect("clap requires --dir without --in-memory");
                let opts = SolveOpts {
                    until_wave,
                    prune,
                    disk,
                    drop_cache,
                    json,
                };
                solver.solve_dir(&board, &cut, &dir, &opts, &cancel)?;
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
