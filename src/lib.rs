//! # nimlab
//!
//! Solve, sweep, tabulate and plot Nim-like games.
//!
//! Architecture: layers, each module using only the layers below it (the
//! test `tests/layers.rs` reads the `crate::` paths and fails on a cycle or
//! on an edge up this order).
//!
//! 0. [`data`] — typed columns, [`data::Table`] and the [`data::Dataset`]
//!    declarations with their column roles; [`params`] — the parameter tree
//!    and ranges shared by specs and `nimlab solve`; [`view`] — declared
//!    tables and figures; [`mem`] — memory sizes, budgets and the process
//!    probes (resident and peak memory, CPU clocks, I/O); [`cli`];
//!    [`progress`] — the progress bars (a sweep's, `nimlab solve`'s);
//!    [`cost`] — the cost model's kernels, their measured rates and the cache
//!    of them.
//! 1. [`game`] — play convention, shared columns, brute-force solvers;
//!    [`period`] — minimal period/preperiod; [`lattice`] — 2-D periodic
//!    structure of a set in a box (docs/lattice.md); [`expr`] — the conjecture
//!    language; [`fit`] — closed forms; [`store`] — Parquet datasets (Apache
//!    Arrow's `parquet` crate), atomic writes; [`play`] — the engine of
//!    `nimlab play` (session, levels, seeded choices, terminal, the page
//!    skeleton) over the [`play::PlayGame`] a family provides.
//! 2. [`family`] — the plug-in boundary: a [`family::Family`] declares its
//!    datasets and views and turns a sweep's parameters into
//!    [`family::Case`]s; one folder per family, one line in
//!    [`family::FAMILIES`]. Nothing below reads a family's column names.
//! 3. [`spec`] — YAML specs → validated [`spec::Experiment`]s, errors naming
//!    file and field.
//! 4. [`sweep`] — the driver (chunks, rayon, progress, resume, shards);
//!    [`render`] — Markdown/CSV/PNG tables and PNG/SVG figures from stored data.
//! 5. [`check`] — conjectures judged on stored results.
//! 6. [`report`] — `REPORT.md` and `REPORT.html` over an output directory.
//! 7. [`cmd`] — one file per command; [`run`] dispatches a parsed
//!    command line to them.

#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub(crate) mod check;
pub mod cli;
pub mod cmd;
pub(crate) mod cost;
pub mod data;
pub(crate) mod expr;
pub mod family;
pub(crate) mod fit;
pub mod game;
pub mod lattice;
pub mod mem;
pub mod params;
pub(crate) mod period;
#[cfg(test)]
mod pipeline_tests;
pub(crate) mod play;
pub(crate) mod progress;
pub mod render;
pub(crate) mod report;
pub mod spec;
pub mod store;
pub mod sweep;
pub(crate) mod view;

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
            no_report,
            dry_run,
            list,
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
            no_report,
            dry_run,
            list,
        }),
        Command::Check {
            specs,
            out,
            claims_doc,
            mutate,
        } => cmd::check::check(&specs, &out, claims_doc.as_deref(), mutate),
        Command::Board { family, args } => cmd::board::board(&family, &args),
        Command::Merge { specs, from, out } => cmd::merge::merge(&specs, &from, &out),
        Command::Report {
            specs,
            out,
            rebuild,
        } => cmd::report::report(&specs, &out, rebuild),
        Command::Render { specs, out } => cmd::render::render(&specs, &out),
        Command::Solve {
            family,
            json,
            params,
        } => cmd::solve::solve(&family, json, params),
        Command::Play(args) => cmd::play::play(args),
        Command::Families { solve_schema } => cmd::families::families(solve_schema),
        Command::Calibrate => cmd::calibrate::calibrate(),
        Command::Datasets => cmd::datasets::datasets(),
    }
}
