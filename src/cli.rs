//! The command line (clap derive).

pub mod board;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// `nimlab --version`: the package version, the commit it was built from and the build date.
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("NIMLAB_GIT_COMMIT"),
    ", built ",
    env!("NIMLAB_BUILD_DATE"),
    ")"
);

/// Exit code of `run`, `check` and `merge` when a conjecture could not be
/// judged on the stored results (its verdict is `error`).
pub const EXIT_CONJECTURE_ERROR: u8 = 3;

/// The exit codes, shown at the end of `--help`.
pub const EXIT_CODES: &str = "Exit codes:
  0    success
  1    a conjecture fails (`check`; `run` reports verdicts and exits 0)
  2    usage, spec or input error, including a claim that does not type-check
       against its sweep's datasets (found before anything is solved); a sweep
       refused before it starts; any other error
  3    a conjecture could not be judged on the stored results (`run`, `check`,
       `merge`: its verdict is `error`, e.g. its data is missing or unreadable)
  130  interrupted (Ctrl-C); finished chunks are kept and a rerun resumes";

/// nimlab: solve, sweep, tabulate and plot Nim-like games.
#[derive(Parser, Debug)]
#[command(name = "nimlab", version = VERSION, about, long_about = None, after_help = EXIT_CODES)]
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
        /// Do not write the report (REPORT.md, REPORT.html); `nimlab report` writes it later.
        #[arg(long)]
        no_report: bool,
        /// Print the cases, the estimated work, time and memory, and exit.
        #[arg(long)]
        dry_run: bool,
        /// Print the names of the experiments the specs define, one a line (for
        /// scripts, e.g. the Slurm submit script), and exit.
        #[arg(long, conflicts_with = "dry_run")]
        list: bool,
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
    /// Parameters are given as `--key value` or `key=value`; each family reads its
    /// own (`nimlab families`) in the forms a spec and nimlab's data use, e.g.
    /// `nimlab solve takeaway --heaps 3,5,7 --take any --play misere`.
    Solve {
        /// Family name (see `nimlab families`).
        family: String,
        /// Print JSON instead of text (one shape for every family: docs/solve.schema.json).
        #[arg(long)]
        json: bool,
        /// Position parameters.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        params: Vec<String>,
    },
    /// Play against the computer: in a terminal, from a script (moves on standard
    /// input, one a line), or as a classroom page (`--html FILE`).
    ///
    /// The game is given as for `solve` (`nimlab play takeaway --heaps 3,5,7 --take any
    /// --play misere`) or as a spec file and one of its sweeps. In the game: a move, or
    /// hint, why, undo, new, help, quit.
    Play(PlayArgs),
    /// List the game families and their parameters.
    Families {
        /// Print instead the JSON schema of `nimlab solve FAMILY --json`, assembled
        /// from every family's part (`docs/solve.schema.json` is this output).
        #[arg(long)]
        solve_schema: bool,
    },
    /// Measure this machine's kernel rates for the estimates of `run
    /// --dry-run` (a few seconds; cached under $XDG_CACHE_HOME/nimlab or
    /// ~/.cache/nimlab, per binary and CPU model).
    Calibrate,
    /// Print the data reference: every dataset's columns, types, roles and
    /// meanings (Markdown; `docs/datasets.md` is this output).
    Datasets,
    /// Check the specs' conjectures against stored results, without solving.
    /// Exit code 1 when a conjecture fails, 3 when one cannot be judged.
    Check {
        /// Spec files or directories (as for `run`).
        specs: Vec<PathBuf>,
        /// Output directory holding the results.
        #[arg(long, default_value = "output")]
        out: PathBuf,
        /// Also write every claim with its verdict to this Markdown file
        /// (`docs/claims.md` is this file for the default experiments).
        #[arg(long, value_name = "FILE")]
        claims_doc: Option<PathBuf>,
        /// Also show, for each claim, a one-cell change of a row in its scope
        /// that would make it fail (exit code 1 if some claim cannot fail).
        #[arg(long)]
        mutate: bool,
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
        /// Rebuild every sweep's section (fits, verdicts), not only those whose
        /// data changed since they were last built.
        #[arg(long)]
        rebuild: bool,
    },
    /// One big position's exhaustive analysis cut into slices, by a family that
    /// offers it (`nimlab families`): out of core on one machine, or one Slurm job
    /// array per wave.
    ///
    /// `nimlab board FAMILY ACTION [OPTIONS] [POSITION]`, ACTION one of plan, solve,
    /// slice, finish, status (`nimlab board FAMILY help` lists them, `nimlab board
    /// FAMILY ACTION --help` an action's options);
    /// POSITION is the family's own parameters, as for `nimlab solve`, e.g.
    /// `nimlab board lines solve --triangle 8 --take max:3 --play misere --in-memory`.
    Board {
        /// Family name.
        family: String,
        /// The action, its options and the position's parameters.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
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

/// The arguments of `nimlab play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// A family (see `nimlab families`) or a spec file (`experiments/report-003.yaml`).
    pub game: String,
    /// With a spec file: the sweep whose parameters define the game (needed when
    /// the spec has several sweeps).
    #[arg(long)]
    pub sweep: Option<String>,
    /// Who moves first: me, computer or random (drawn for each game from the seed).
    #[arg(long, default_value = "me")]
    pub first: String,
    /// perfect (a winning move whenever one exists) or easy (slips now and then).
    #[arg(long, default_value = "perfect")]
    pub level: String,
    /// At level easy, the probability of a slip when a winning move exists.
    #[arg(long, default_value_t = 0.33)]
    pub mistakes: f64,
    /// In a lost position: long (leave the most stones or pieces) or random.
    #[arg(long, default_value = "long")]
    pub when_losing: String,
    /// Seed of every random choice (default: from the clock; printed, so a game can be replayed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Write a self-contained HTML page that plays the game in a browser, and exit.
    #[arg(long)]
    pub html: Option<PathBuf>,
    /// The game's parameters, as for `nimlab solve` (`--heaps 3,5,7 --take any --play misere`).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub params: Vec<String>,
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
