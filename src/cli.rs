//! The command line (clap derive).

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
        /// Print the cases, the estimated work and memory, and exit.
        #[arg(long)]
        dry_run: bool,
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
    /// Re-render tables and figures from stored results, without solving.
    Render {
        /// Spec files or directories (as for `run`).
        specs: Vec<PathBuf>,
        /// Output directory.
        #[arg(long, default_value = "output")]
        out: PathBuf,
    },
}
