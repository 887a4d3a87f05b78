//! The command line (clap derive).

pub mod board;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// nimlab: solve, sweep, tabulate and plot Nim-like games.
#[derive(Parser, Debug)]
#[command(name = "nimlab", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// Worker threads (default: all cores).
    #[arg(long, global = true)]
    pub threads: Option<usize>,
}

/// Subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run experiment specs: solve every case, write Parquet, render tables and figures.
    Run {
        /// Spec files or directories (default: every *.yaml directly under experiments/;
        /// subfolders such as experiments/overnight/ only when named).
        specs: Vec<PathBuf>,
        /// Output directory.
        #[arg(long, default_value = "output")]
        out: PathBuf,
        /// Recompute chunks that are already finished.
        #[arg(long)]
        force: bool,
        /// No progress bars or summaries.
        #[arg(long, short)]
        quiet: bool,
        /// Do not render tables and figures.
        #[arg(long)]
        no_render: bool,
        /// Print the cases, the estimated work, time and memory, and exit.
        #[arg(long)]
        dry_run: bool,
        /// Run only shard I of N (e.g. `--shard 0/4`): a deterministic share of the
        /// work balanced by estimated cost. Shards do not render; `nimlab merge`
        /// (or a plain `run` once all shards are in the same --out) completes the job.
        #[arg(long, value_parser = parse_shard)]
        shard: Option<(usize, usize)>,
    },
    /// Combine shard outputs into one output directory, check that every chunk is
    /// present, and render.
    Merge {
        /// Spec files or directories (as for `run`).
        specs: Vec<PathBuf>,
        /// Shard output directories to take parts from.
        #[arg(long = "from", required = true, num_args = 1..)]
        from: Vec<PathBuf>,
        /// Merged output directory.
        #[arg(long, default_value = "output")]
        out: PathBuf,
    },
    /// Answer one position: outcome, Grundy value, winning moves.
    ///
    /// Parameters are given as `--key value` or `key=value`, values in the spec
    /// syntax, e.g. `nimlab solve takeaway --heaps 3,5,7 --take any --play misere`.
    Solve {
        /// Family name (see `nimlab families`).
        family: String,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Position parameters.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        params: Vec<String>,
    },
    /// List the game families and their parameters.
    Families,
    /// Print the data reference: every dataset's columns, types, roles and
    /// meanings (Markdown; `docs/datasets.md` is this output).
    Datasets,
    /// Check the specs' conjectures against stored results, without solving.
    /// Exit code 1 when a conjecture fails or cannot be evaluated.
    Check {
        /// Spec files or directories (as for `run`).
        specs: Vec<PathBuf>,
        /// Output directory holding the results.
        #[arg(long, default_value = "output")]
        out: PathBuf,
    },
    /// Rebuild OUT/REPORT.md and OUT/REPORT.html from stored results, without
    /// solving: the given specs' experiments plus every other experiment found
    /// in the output directory (its spec read back from its manifest).
    Report {
        /// Spec files or directories (as for `run`); none: every experiment in --out.
        specs: Vec<PathBuf>,
        /// Output directory holding the results.
        #[arg(long, default_value = "output")]
        out: PathBuf,
    },
    /// One `lines` board's exhaustive analysis cut into slices: out of core on
    /// one machine, or one Slurm job array per wave (plan, solve, slice, finish, status).
    Board {
        /// What to do.
        #[command(subcommand)]
        action: Box<board::BoardAction>,
    },
    /// Re-render tables and figures from stored results, without solving.
    Render {
        /// Spec files or directories (as for `run`).
        specs: Vec<PathBuf>,
        /// Output directory.
        #[arg(long, default_value = "output")]
        out: PathBuf,
    },
}

/// Parses `I/N` with 0 ≤ I < N.
pub fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let (i, n) = s
        .split_once('/')
        .ok_or_else(|| format!("expected I/N (e.g. 0/4), got {s:?}"))?;
    let i: usize = i
        .trim()
        .parse()
        .map_err(|_| format!("shard index {i:?} is not a number"))?;
    let n: usize = n
        .trim()
        .parse()
        .map_err(|_| format!("shard count {n:?} is not a number"))?;
    if n == 0 || i >= n {
        return Err(format!("need 0 ≤ I < N, got {i}/{n}"));
    }
    Ok((i, n))
}
