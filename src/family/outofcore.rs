//! Out-of-core solving of one big position (`nimlab board`): a capability a
//! family may offer ([`crate::family::Capabilities::out_of_core`]). The command
//! layer parses the command line and calls these methods; the family reads
//! the board with its own parsers, cuts its table into slices, and writes its
//! own declared datasets at the end.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use anyhow::Result;

use crate::params::{CliArg, Node};

/// How to cut a position's table into slices (`--memory`, `--slice-pieces`,
/// `--symmetry`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Cut {
    /// Memory budget of one slice solve (None: half the free memory).
    pub memory: Option<u64>,
    /// Slice pieces t (2^t slices; None: the smallest t that fits the budget).
    pub slice_pieces: Option<usize>,
    /// Whether images of a slice under the position's symmetries are solved once.
    pub symmetry: bool,
}

/// Options of `board solve` with a directory.
#[derive(Clone, Debug, Default)]
pub struct SolveOpts {
    /// Stop after this wave.
    pub until_wave: Option<usize>,
    /// Delete a slice table once no later slice reads it.
    pub prune: bool,
    /// Stop before the slice files would exceed this many bytes.
    pub disk: Option<u64>,
    /// Drop slice files from the page cache after use.
    pub drop_cache: bool,
    /// Print the answer as JSON.
    pub json: bool,
}

/// One array task of `board slice`.
#[derive(Clone, Copy, Debug)]
pub struct SliceTask {
    /// The wave.
    pub wave: usize,
    /// The task index.
    pub task: usize,
    /// Representatives per task.
    pub group: usize,
    /// Memory budget (None: the Slurm allocation, else half the free memory).
    pub memory: Option<u64>,
    /// Drop slice files from the page cache after use.
    pub drop_cache: bool,
}

/// A family's out-of-core solver of one position: each method is one
/// action of `nimlab board FAMILY`, printing its own output. The position
/// is a map of the family's own parameters ([`OutOfCore::position_args`]),
/// read from the command line as for `nimlab solve`.
pub trait OutOfCore: Sync {
    /// The command-line parameters that name a position (`--triangle 9
    /// --take max:3`), read into the map the other methods get.
    fn position_args(&self) -> &'static [CliArg];
    /// `board plan`: cut the position's table into slices, write DIR/plan.json.
    fn plan(&self, position: &Node<'_>, cut: &Cut, dir: &Path, json: bool) -> Result<()>;
    /// `board solve --in-memory`: the whole table at once.
    fn solve_in_memory(&self, position: &Node<'_>, json: bool, cancel: &AtomicBool) -> Result<()>;
    /// `board solve --dir`: plan or reuse, solve the waves, finish.
    fn solve_dir(
        &self,
        position: &Node<'_>,
        cut: &Cut,
        dir: &Path,
        opts: &SolveOpts,
        cancel: &AtomicBool,
    ) -> Result<()>;
    /// `board slice`: one array task of one wave.
    fn slice(&self, dir: &Path, task: &SliceTask, cancel: &AtomicBool) -> Result<()>;
    /// `board finish`: the answer and the datasets from complete slices.
    fn finish(&self, dir: &Path, json: bool) -> Result<()>;
    /// `board status`: waves, slices complete, disk used.
    fn status(&self, dir: &Path, json: bool, waves: bool) -> Result<()>;
}
