//! The arguments of `nimlab board FAMILY ACTION …` (run by
//! [`crate::cmd::board`]): the actions and their options, the same for every
//! family. The position itself (`--triangle 9 --take max:3`) is the
//! family's, read by its own parsers as for `nimlab solve`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::mem::parse_bytes;

/// What follows `nimlab board FAMILY`, less the family's own parameters.
#[derive(Parser, Debug)]
#[command(
    name = "nimlab board FAMILY",
    about = "One big position of FAMILY solved out of core (plan, solve, slice, finish, status); \
             the position is given with the family's own parameters, as for `nimlab solve`; \
             `nimlab board FAMILY ACTION --help` lists an action's options"
)]
pub struct BoardCli {
    /// What to do.
    #[command(subcommand)]
    pub action: BoardAction,
    /// Worker threads (default: all cores), also accepted after the family.
    #[arg(long, global = true)]
    pub threads: Option<usize>,
}

/// The board subcommands.
#[derive(Subcommand, Debug)]
pub enum BoardAction {
    /// Choose how to cut the board's table into slices and write DIR/plan.json:
    /// slice pieces, symmetries, waves, memory, disk and I/O.
    Plan {
        /// How to cut.
        #[command(flatten)]
        cut: CutArgs,
        /// Directory of the slice files (shared by every node on a cluster).
        #[arg(long)]
        dir: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Solve the whole board on this machine: plan (or reuse DIR/plan.json),
    /// every wave (complete slices are kept), then the answer. Rerunning resumes.
    Solve {
        /// How to cut.
        #[command(flatten)]
        cut: CutArgs,
        /// Directory of the slice files (not needed with --in-memory).
        #[arg(long, required_unless_present = "in_memory")]
        dir: Option<PathBuf>,
        /// The whole table in memory instead (the reference; 2^n bits).
        #[arg(long, conflicts_with_all = ["dir", "until_wave", "prune", "disk", "drop_cache"])]
        in_memory: bool,
        /// Stop after this wave (the first waves of a board too big for the disk).
        #[arg(long)]
        until_wave: Option<usize>,
        /// Delete a slice table once no later slice reads it (records stay).
        #[arg(long)]
        prune: bool,
        /// Stop before the slice tables on disk would exceed this size (e.g. 40GB).
        #[arg(long, value_parser = parse_bytes)]
        disk: Option<u64>,
        /// Drop slice files from the page cache after use, so that reads reach the disk.
        #[arg(long)]
        drop_cache: bool,
        /// Print the answer as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Solve representative slices of one wave: the array task of a cluster
    /// run (`scripts/slurm/board-submit.sh`). Complete slices are skipped.
    Slice {
        /// Directory holding plan.json.
        #[arg(long)]
        dir: PathBuf,
        /// The wave (number of slice pieces present).
        #[arg(long)]
        wave: usize,
        /// Task index: solves the wave's representatives I·G .. I·G + G − 1.
        #[arg(long, default_value_t = 0)]
        task: usize,
        /// Representatives per task.
        #[arg(long, default_value_t = 1)]
        group: usize,
        /// Memory budget (default: the Slurm allocation, else half the free memory).
        #[arg(long, value_parser = parse_bytes)]
        memory: Option<u64>,
        /// Drop slice files from the page cache after use.
        #[arg(long)]
        drop_cache: bool,
    },
    /// Sum the slices' counts and find the winning first moves: DIR/result.txt,
    /// DIR/result.json and the `counts` and `positions` datasets under DIR/data/.
    Finish {
        /// Directory holding plan.json and the slices.
        #[arg(long)]
        dir: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Waves, slices complete, disk used.
    Status {
        /// Directory holding plan.json.
        #[arg(long)]
        dir: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// Print one line per wave, `WAVE STORED COMPLETE` (for scripts).
        #[arg(long, conflicts_with = "json")]
        waves: bool,
    },
}

/// How to cut.
#[derive(Args, Debug, Clone)]
pub struct CutArgs {
    /// Memory budget of one slice solve (e.g. 2GiB, 512M; default: half the free memory).
    #[arg(long, value_parser = parse_bytes)]
    pub memory: Option<u64>,
    /// Slice pieces t (2^t slices; default: the smallest t that fits the budget).
    #[arg(long)]
    pub slice_pieces: Option<usize>,
    /// Use the board's symmetries (images of a slice are solved once).
    #[arg(long, value_enum, default_value_t = OnOff::On)]
    pub symmetry: OnOff,
}

/// on / off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OnOff {
    /// Yes.
    On,
    /// No.
    Off,
}
