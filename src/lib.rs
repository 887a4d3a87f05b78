//! # nimlab
//!
//! Solve, sweep, tabulate and plot Nim-like games.
//!
//! Architecture (each module knows only the ones above it):
//!
//! * [`game`] — the play convention and the reference brute-force solvers.
//! * [`family`] — the plug-in boundary: a [`family::Family`] turns a sweep's
//!   parameters into [`family::Case`]s and lists its [`view::View`]s; one
//!   folder per family (`takeaway`, …), one registration line in
//!   [`family::FAMILIES`].
//! * [`spec`] — YAML specs → validated [`spec::Experiment`]s, errors naming
//!   file and field.
//! * [`sweep`] — the driver: chunks, rayon, progress, resume.
//! * [`store`] — Parquet (polars) datasets, atomic writes.
//! * [`render`] — Markdown/CSV/PNG tables and PNG/SVG figures from stored data.
//! * [`period`] — minimal period and preperiod, proven or observed.
//! * [`table`] — the small columnar table everything exchanges.
//! * [`check`] — conjectures judged on stored results; [`fit`] — simple
//!   closed forms fitted to two-heap loss sets; [`report`] — `REPORT.md` and
//!   `REPORT.html` over an output directory.

#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod check;
pub mod cli;
pub mod cmd;
pub mod data;
pub mod expr;
pub mod family;
pub mod fit;
pub mod game;
pub mod mem;
pub mod params;
pub mod period;
#[cfg(test)]
mod pipeline_tests;
pub mod render;
pub mod report;
pub mod spec;
pub mod store;
pub mod sweep;
pub mod view;

use std::process::ExitCode;

use anyhow::{Context, Result};

use cli::{Cli, Command};

/// Runs a parsed command line: one function per command, in [`cmd`].
pub fn run(cli: Cli) -> Result<ExitCode> {
    if let Some(t) = cli.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t.max(1))
            .build_global()
            .context("cannot start the thread pool")?;
    }
    match cli.command {
        Command::Run {
            specs,
            out,
            force,
            quiet,
            no_render,
            dry_run,
            shard,
        } => cmd::run::run(cmd::run::RunArgs {
            specs,
            opts: sweep::RunOptions {
                out,
                force,
                quiet,
                shard,
            },
            no_render,
            dry_run,
        }),
        Command::Check { specs, out } => cmd::check::check(&specs, &out),
        Command::Merge { specs, from, out } => cmd::merge::merge(&specs, &from, &out),
        Command::Report { specs, out } => cmd::report::report(&specs, &out),
        Command::Render { specs, out } => cmd::render::render(&specs, &out),
        Command::Solve {
            family,
            json,
            params,
        } => cmd::solve::solve(&family, json, params),
        Command::Families => cmd::families::families(),
        Command::Datasets => cmd::datasets::datasets(),
    }
}
