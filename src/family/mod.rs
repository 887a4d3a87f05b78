//! Game families: the plug-in boundary.
//!
//! A family declares its datasets (column types, meanings and roles) and its
//! views once, turns a sweep's parameters into [`Case`]s (the unit of work the
//! driver schedules, stores and resumes) whose tables fill those declared
//! columns, answers single positions for `nimlab solve` and, optionally, plays
//! against a person ([`Family::play`], `nimlab play`). What only some
//! families offer (out-of-core solving, moves explained or played out,
//! datasets written on request…) is a [`Capabilities`] the core asks for,
//! never a trait method that does nothing for the others. The driver, the
//! store, the renderer, the checker and the report only see these traits and
//! the declarations.
//!
//! Adding a family: see the README's "Adding a game family" (a folder
//! `src/family/<name>/` and one line in [`FAMILIES`]).

use std::sync::atomic::AtomicBool;

use crate::data::{Dataset, Table};
use crate::params::{CliArg, Node, SpecError};
use crate::view::View;
pub use cost::{Cost, TableBytes};
use watch::Watch;

pub mod calibration;
pub mod cost;
pub mod estimate;
pub mod explain_moves;
pub(crate) mod heaps;
pub mod lines;
pub mod note;
pub mod octal;
pub mod outofcore;
pub mod parity;
pub mod rules;
pub mod schema;
pub mod solved;
pub mod takeaway;
#[cfg(test)]
pub mod toy;
pub mod watch;

/// Every family nimlab knows, by the name used in specs and on the command
/// line (and, in the crate's own tests, the test-only `toy` family).
pub static FAMILIES: &[&dyn Family] = &[
    &takeaway::Takeaway,
    &parity::Parity,
    &lines::Lines,
    &octal::Octal,
    &rules::Rules,
    #[cfg(test)]
    &toy::Toy,
];

/// Solves every case of a sweep given as YAML text (a sweep's parameters,
/// without `name:` or `family:`), in memory with nothing written, and returns
/// the rows of one of the family's datasets (`None` when no case made any):
/// the family's own sweep code, for tests that compare it with another solver.
pub fn sweep_rows(family: &dyn Family, yaml: &str, dataset: &str) -> anyhow::Result<Option<Table>> {
    let mut all: Option<Table> = None;
    solve_sweep_yaml(family, yaml, "sweep.yaml", None, |_, out| {
        for (ds, t) in out {
            if ds.name != dataset {
                continue;
            }
            match &mut all {
                Some(a) => a.append(&t)?,
                None => all = Some(t),
            }
        }
        Ok(())
    })?;
    Ok(all)
}

/// Plans a sweep given as YAML text (named `file` in errors) and solves each
/// case in memory, nothing written, handing the case and its output to `f`.
pub(crate) fn solve_sweep_yaml(
    family: &dyn Family,
    yaml: &str,
    file: &str,
    keep: Option<&[String]>,
    f: impl FnMut(&dyn Case, Output) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let plan = plan_yaml(family, yaml, file)?;
    solve_cases(plan.cases.iter().map(|c| c.as_ref()), keep, f)
}

/// The plan of a sweep given as YAML in memory.
pub(crate) fn plan_yaml(family: &dyn Family, yaml: &str, file: &str) -> anyhow::Result<Plan> {
    let v = crate::params::parse_yaml(yaml, file)?;
    Ok(family.plan(&Node::root(&v, file), Planning::SOLVE)?)
}

/// Solves each of `cases` (nothing written), keeping `keep`, and hands each
/// case's tables to `f`.
pub(crate) fn solve_cases<'a>(
    cases: impl Iterator<Item = &'a dyn Case>,
    keep: Option<&[String]>,
    mut f: impl FnMut(&dyn Case, Output) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let cancel = AtomicBool::new(false);
    let ctx = CaseCtx {
        progress: &|_| {},
        cancel: &cancel,
        keep,
    };
    for case in cases {
        let out = case.solve(&ctx)?;
        f(case, out)?;
    }
    Ok(())
}

/// Looks a family up by name.
pub fn by_name(name: &str) -> Option<&'static dyn Family> {
    FAMILIES.iter().copied().find(|f| f.name() == name)
}

/// What a case returns when it notices the cancel flag (Ctrl-C).
#[derive(Debug)]
pub struct Interrupted;

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "interrupted")
    }
}
impl std::error::Error for Interrupted {}

/// The tables produced by one case, each of a declared dataset.
pub type Output = Vec<(&'static Dataset, Table)>;

/// What a running case may use: a progress callback (positions done since the
/// last call), a cancellation flag it should poll in long loops, and the
/// datasets the sweep keeps (a case may skip building the others).
pub struct CaseCtx<'a> {
    /// Report progress, in the unit of the case's [`Cost::size`].
    pub progress: &'a (dyn Fn(u64) + Sync),
    /// Set when the user pressed Ctrl-C.
    pub cancel: &'a AtomicBool,
    /// The sweep's `datasets:` (None: all).
    pub keep: Option<&'a [String]>,
}

impl CaseCtx<'_> {
    /// Does the sweep keep this dataset? (A case may skip building it if not.)
    pub fn wants(&self, dataset: &str) -> bool {
        self.keep.is_none_or(|k| k.iter().any(|d| d == dataset))
    }
}

/// One unit of work: solved as a whole, stored as a whole.
pub trait Case: Send + Sync {
    /// A stable, human-readable key made of the family and all parameters that
    /// affect the result. Equal keys mean equal results.
    fn key(&self) -> String;
    /// What the case costs, as one answer ([`Cost`]): its size, its work
    /// expected and at most, its memory expected and at most, what it
    /// shares with its sweep's other cases, the rows it writes, whether its
    /// work is bounded and whether it spreads over threads. `keep` is the
    /// sweep's `datasets:` (a case may skip work for datasets not kept).
    fn cost(&self, keep: Option<&[String]>) -> Cost;
    /// What to change when its memory ([`Cost::memory_bound`]) is beyond
    /// the machine's, for the refusal (default: fewer heaps or pieces,
    /// smaller sizes). Advice, not a figure: not part of [`Cost`].
    fn memory_hint(&self) -> &'static str {
        "use fewer heaps or pieces, or smaller sizes (a smaller range)"
    }
    /// Whether the case stands for others in an estimating plan
    /// ([`estimate::Estimated`], never solved): such a plan is made again,
    /// exactly, to solve the sweep. Default: it is a case to solve.
    fn stands_in(&self) -> bool {
        false
    }
    /// The same case scaled down, on the same solver path (the same rule,
    /// kernel and play), its sizes about `factor` (< 1) of its own: what
    /// the dry run's estimate solves to measure how the case's time grows
    /// ([`crate::sweep::sample`]) when solving the case itself would take
    /// too long. Default: none (only the sweep's own cases are sampled).
    fn scaled(&self, factor: f64) -> Option<Box<dyn Case>> {
        let _ = factor;
        None
    }
    /// Solves the case.
    fn solve(&self, ctx: &CaseCtx<'_>) -> anyhow::Result<Output>;
}

/// A short, stable text for a list of integers in a case key: a range
/// (`0..400`), or its length and a hash (`list3:…`), never the whole list.
pub fn ints_key(v: &[u64]) -> String {
    if v.is_empty() {
        return "none".into();
    }
    let contiguous = v.windows(2).all(|w| w[1] == w[0] + 1);
    if contiguous {
        format!("{}..{}", v[0], v[v.len() - 1])
    } else {
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        format!(
            "list{}:{:016x}",
            v.len(),
            xxhash_rust::xxh3::xxh3_64(&bytes)
        )
    }
}

/// A count (a horizon, a number of sizes) scaled by `factor` for
/// [`Case::scaled`]: rounded up, at least one.
pub fn scaled_count(n: usize, factor: f64) -> usize {
    ((n as f64 * factor).ceil() as usize).max(1)
}

/// The first part of `items` (about `factor` of them, at least one): a
/// case's heap sizes or boards cut down for [`Case::scaled`].
pub fn scaled_prefix<T: Clone>(items: &[T], factor: f64) -> Vec<T> {
    let keep = scaled_count(items.len(), factor).min(items.len().max(1));
    items[..keep.min(items.len())].to_vec()
}

/// Checks that each dataset a sweep names in `datasets:` is among those
/// its parameters make it write (`written`), else an error at that name
/// saying `why` it is not (which parameters write it): a sweep asking
/// only for a dataset it does not write would solve every case and store
/// nothing. A sweep without `datasets:` passes, and a name the family
/// does not declare (`declared`) is left to `datasets:`'s own check.
pub fn check_datasets_written(
    sweep: &Node<'_>,
    (declared, written): (&[&Dataset], &[&str]),
    why: impl Fn(&str) -> String,
) -> Result<(), SpecError> {
    let Some(d) = sweep.get("datasets") else {
        return Ok(());
    };
    for item in d.items() {
        if let Some(name) = item.value().as_str()
            && declared.iter().any(|d| d.name == name)
            && !written.contains(&name)
        {
            return Err(item.err(format!(
                "this sweep does not write the `{name}` dataset ({}); its datasets: {}",
                why(name),
                written.join(", ")
            )));
        }
    }
    Ok(())
}

/// The expansion of one sweep.
pub struct Plan {
    /// The cases, in the sweep's natural order.
    pub cases: Vec<Box<dyn Case>>,
    /// The views that apply to this sweep (from [`Family::views`]).
    pub views: Vec<&'static View>,
    /// Things the user should know about the expansion (skipped combinations…);
    /// printed grouped by kind ([`note::lines`]).
    pub notes: Vec<note::Note>,
    /// The sweep's own grid parameters, in the spec's order: each a column
    /// of every dataset ([`crate::data::with_grid`]); empty for a family
    /// whose parameters are all its own fields.
    pub grid: Vec<String>,
}

/// The moves between the rows of one stored table ([`Capabilities::plays_out`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Moves {
    /// Each row's options: the rows its moves lead to, in the family's
    /// order of moves.
    pub options: Vec<Vec<usize>>,
    /// Per row: whether the player to move wins when they have no move
    /// (misère play) rather than loses (normal play).
    pub no_move_wins: Vec<bool>,
    /// Each row's position as the reports write it (`(1,4,5)`).
    pub name: Vec<String>,
}

/// The answer to `nimlab solve`.
pub struct Answer {
    /// For people.
    pub text: String,
    /// For scripts (`--json`).
    pub json: serde_json::Value,
}

/// What a plan is for ([`Family::plan`]).
#[derive(Clone, Copy, Debug)]
pub enum Planning<'a> {
    /// The cases to solve, writing also the datasets of
    /// [`Capabilities::on_request`] named in `asked`.
    Solve {
        /// The datasets written on request that the spec asks for.
        asked: &'a [String],
    },
    /// The cases for the estimates only (`--dry-run`, `--list`, the guard
    /// before a run, the views): a family may stand for many cases with a
    /// few [`estimate::Estimated`] ones, never solved.
    Estimate,
}

impl Planning<'_> {
    /// The cases to solve, no dataset asked for beyond the usual ones.
    pub const SOLVE: Planning<'static> = Planning::Solve { asked: &[] };

    /// The datasets written on request that the plan writes (none for the
    /// estimates).
    pub fn asked(&self) -> &[String] {
        match self {
            Planning::Solve { asked } => asked,
            Planning::Estimate => &[],
        }
    }
}

/// Moves between the rows of a stored `dataset` table ([`Moves`]), or why
/// the family cannot give them for that dataset.
pub type PlaysOut = fn(dataset: &str, table: &Table) -> Result<Moves, String>;

/// The capabilities a family may offer beyond the methods every family
/// has, each `None` (or empty) where it offers none: the core asks for one
/// and says what is missing, rather than calling a default that does
/// nothing. A family fills in what it offers:
/// `Capabilities { out_of_core: Some(&MyBoards), ..Capabilities::NONE }`.
#[derive(Clone, Copy)]
pub struct Capabilities {
    /// The datasets of [`Family::datasets`] written only when a spec asks
    /// for them (its sweep's `datasets:` lists them or a conjecture reads
    /// them): extra work no other dataset needs ([`Planning::Solve`]).
    pub on_request: &'static [&'static str],
    /// Explaining a stored position by its first moves and where each
    /// leads ([`explain_moves::FirstMoves`]); a counterexample then shows
    /// its moves rather than [`Family::explain`]'s one line.
    pub explains_moves: Option<explain_moves::FirstMoves>,
    /// Out-of-core solving of one big position (`nimlab board FAMILY`).
    pub out_of_core: Option<&'static dyn outofcore::OutOfCore>,
    /// The moves between the positions of a stored table, for playing a
    /// strategy out against every reply (a claim's `strategy:`).
    pub plays_out: Option<PlaysOut>,
    /// The result columns of a dataset that [`Family::explain`] and
    /// [`Family::draw`] read, so that a check may leave the others unread
    /// when no claim names them (without it: all of them).
    pub explained_columns: Option<fn(dataset: &str) -> &'static [&'static str]>,
    /// Whether a row of a dataset is named by its label alone (a board's
    /// name, `A(1,5)`) rather than by its label and its position within it
    /// (a rule and a heap size; without it: never).
    pub names_rows_by_label: Option<fn(dataset: &str) -> bool>,
    /// The sweeps `nimlab calibrate` measures a run's fixed costs on (the
    /// first family in [`FAMILIES`] offering them serves).
    pub overhead_probes: Option<calibration::OverheadProbes>,
}

impl Capabilities {
    /// No capability.
    pub const NONE: Capabilities = Capabilities {
        on_request: &[],
        explains_moves: None,
        out_of_core: None,
        plays_out: None,
        explained_columns: None,
        names_rows_by_label: None,
        overhead_probes: None,
    };
}

/// A game family.
pub trait Family: Sync {
    /// Name used as `family:` in specs and on the command line.
    fn name(&self) -> &'static str;
    /// One paragraph for `nimlab families`.
    fn about(&self) -> &'static str;
    /// The parameters a sweep takes, for help and error hints.
    fn params_help(&self) -> &'static str;
    /// The datasets this family writes, declared once.
    fn datasets(&self) -> &'static [&'static Dataset];
    /// Every view this family can draw, declared once (a plan picks those
    /// that apply to a sweep).
    fn views(&self) -> &'static [&'static View];
    /// The view names (allowed in a sweep's `outputs:`).
    fn view_names(&self) -> Vec<&'static str> {
        self.views().iter().map(|v| v.name).collect()
    }
    /// Validates a sweep (a map that also holds the generic keys of
    /// [`crate::params::SWEEP_KEYS`]) and expands it into cases, for
    /// solving or for the estimates only ([`Planning`]).
    fn plan(&self, sweep: &Node<'_>, how: Planning<'_>) -> Result<Plan, SpecError>;
    /// The command-line arguments of `nimlab solve` and `nimlab play`, and how
    /// each one's text is read (the values then go through the same parsers
    /// as a spec's).
    fn cli_args(&self) -> &'static [CliArg] {
        &[]
    }
    /// The probes measuring this family's kernels (`nimlab calibrate`),
    /// each a fraction of a second. Default: none.
    fn probes(&self) -> Vec<calibration::Probe> {
        Vec::new()
    }
    /// Answers one position given as a map of parameters (`nimlab solve`).
    /// A long solve reports its progress to `watch`.
    fn solve(&self, position: &Node<'_>, watch: &dyn Watch) -> anyhow::Result<Answer>;
    /// This family's part of the JSON schema of `nimlab solve --json`, as
    /// JSON text: its `$defs` and the `then` that applies where `family` is
    /// this one (its `game`, `position`, winning moves, methods and details).
    /// [`schema::solve_schema`] assembles the whole; by convention the text
    /// is the family folder's `solve.schema.json`.
    fn solve_schema(&self) -> &'static str;
    /// A game against the computer from the same parameters as
    /// [`Family::solve`] (`nimlab play`).
    fn play(&self, params: &Node<'_>) -> anyhow::Result<Box<dyn crate::play::PlayGame>> {
        let _ = params;
        anyhow::bail!("the family `{}` cannot be played", self.name())
    }

    /// What this family offers beyond the methods every family has: the
    /// core asks for a capability ([`Capabilities`]) rather than calling a
    /// method that does nothing for most families. Default: none.
    fn capabilities(&self) -> Capabilities {
        Capabilities::NONE
    }

    /// Why row `row` of a stored `dataset` table has its computed value, in
    /// a few words, for a counterexample: e.g. a position's options and
    /// their Grundy values, or a winning move. Default: no reason.
    fn explain(&self, dataset: &str, table: &Table, row: usize) -> Option<String> {
        let _ = (dataset, table, row);
        None
    }

    /// A small text picture of row `row`'s position (a board, heaps), for a
    /// counterexample shown to a reader. Default: none.
    fn draw(&self, dataset: &str, table: &Table, row: usize) -> Option<String> {
        let _ = (dataset, table, row);
        None
    }

    /// The name of a row's position, given its key columns and values, as
    /// the reports write it (`(1,4,5)` for three heaps), where the keys do
    /// not read so. Default: none.
    fn position_name(&self, dataset: &str, key: &[(String, String)]) -> Option<String> {
        let _ = (dataset, key);
        None
    }

    /// What a row of `dataset` is, in the reports' words, singular and
    /// plural (`board`, `boards`). Default: `case`, `cases`.
    fn unit(&self, dataset: &str) -> (&'static str, &'static str) {
        let _ = dataset;
        ("case", "cases")
    }
}
