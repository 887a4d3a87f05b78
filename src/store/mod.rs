//! Results on disk: Parquet datasets, written atomically.
//!
//! Layout (documented for users in `docs/data.md`):
//!
//! ```text
//! <out>/<experiment>/manifest.json                    provenance of the last run
//! <out>/<experiment>/data/<family>/<dataset>/<sweep>/part-SSSSS-HHHHHHHHHHHHHHHH.parquet
//! <out>/<experiment>/_chunks/<sweep>/SSSSS-HHHHHHHHHHHHHHHH.json   one per finished chunk
//! <out>/<experiment>/tables/<sweep>/…, figures/<sweep>/…          rendered by later stages
//! ```
//!
//! A dataset is one schema (its family's declaration) wherever it is, so
//! `data/<family>/<dataset>/*/*.parquet` reads a whole experiment with one
//! glob, and every row carries its `experiment` and `sweep`. Rendered files
//! live outside `data/`; the chunk records start with `_`, which Arrow and
//! DuckDB dataset readers skip.
//!
//! A chunk is a run of consecutive cases; `SSSSS` is its position in the sweep
//! and `H…` a hash of its case keys, so a part file's name says exactly which
//! cases it holds.

pub mod atomic;
mod chunk;
mod encode;
mod leaves;
pub mod parquet;

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

pub use atomic::{
    TempFile, is_orphan, sync_dir, tmp_owner, write_atomic, write_atomic_with, write_durable,
};

/// Removes the orphaned temporaries ([`atomic::is_orphan`]) of experiment
/// `experiment` in `out`: everywhere under `out/<experiment>/` (data, chunk
/// records, tables, figures, the report's cache) and the report's pages
/// directly in `out`. Returns how many.
pub fn prune_orphans_of(out: &Path, experiment: &str) -> Result<usize> {
    Ok(atomic::prune_orphans(out)? + atomic::prune_orphans_tree(&out.join(experiment))?)
}

use crate::data::{Dataset, Table};

/// Changes whenever a nimlab change alters any result or the layout for the
/// same case keys; it is part of every chunk id, so stored results of another
/// version are recomputed rather than mixed in.
pub const RESULTS_VERSION: &str = "nimlab-results-2";

/// Identifies a chunk of cases: position in the sweep and hash of its case keys.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ChunkId {
    /// Position in the sweep.
    pub seq: usize,
    /// Hash of the chunk's case keys.
    pub hash: u64,
}

impl ChunkId {
    /// The chunk of these case keys at position `seq`.
    pub fn new(seq: usize, keys: &[String]) -> ChunkId {
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        h.update(RESULTS_VERSION.as_bytes());
        for k in keys {
            h.update(k.as_bytes());
            h.update(b"\n");
        }
        ChunkId {
            seq,
            hash: h.digest(),
        }
    }
    /// `SSSSS-HHHHHHHHHHHHHHHH`.
    pub fn stem(&self) -> String {
        format!("{:05}-{:016x}", self.seq, self.hash)
    }
}

/// Where one sweep's results live.
#[derive(Clone, Debug)]
pub struct SweepDir {
    /// `<out>/<experiment>`.
    pub exp_dir: PathBuf,
    /// The experiment's name.
    pub experiment: String,
    /// The sweep's name.
    pub sweep: String,
    /// The family's name.
    pub family: String,
    /// The datasets the family declares.
    pub datasets: &'static [&'static Dataset],
}

impl SweepDir {
    /// The directories of sweep `sweep` (of `family`, which declares
    /// `datasets`) of experiment `experiment` under `out`.
    pub fn new(
        out: &Path,
        experiment: &str,
        sweep: &str,
        family: &str,
        datasets: &'static [&'static Dataset],
    ) -> SweepDir {
        SweepDir {
            exp_dir: out.join(experiment),
            experiment: experiment.to_string(),
            sweep: sweep.to_string(),
            family: family.to_string(),
            datasets,
        }
    }
    /// Where a dataset's parts for this sweep live.
    pub fn dataset_dir(&self, dataset: &str) -> PathBuf {
        self.exp_dir
            .join("data")
            .join(&self.family)
            .join(dataset)
            .join(&self.sweep)
    }
    /// Rendered tables.
    pub fn tables_dir(&self) -> PathBuf {
        self.exp_dir.join("tables").join(&self.sweep)
    }
    /// Rendered figures.
    pub fn figures_dir(&self) -> PathBuf {
        self.exp_dir.join("figures").join(&self.sweep)
    }
    fn chunks_dir(&self) -> PathBuf {
        self.exp_dir.join("_chunks").join(&self.sweep)
    }
    fn record(&self, chunk: &ChunkId) -> PathBuf {
        self.chunks_dir().join(format!("{}.json", chunk.stem()))
    }
    /// A declared dataset by name.
    pub fn dataset(&self, name: &str) -> Option<&'static Dataset> {
        self.datasets.iter().copied().find(|d| d.name == name)
    }
    /// The part file of a chunk in a dataset.
    pub fn part_path(&self, dataset: &str, chunk: &ChunkId) -> PathBuf {
        self.dataset_dir(dataset)
            .join(format!("part-{}.parquet", chunk.stem()))
    }
    /// Writes a chunk's tables of one dataset as one part file.
    pub fn write_part(&self, ds: &Dataset, chunk: &ChunkId, tables: Vec<Table>) -> Result<()> {
        parquet::write_part(
            &self.part_path(ds.name, chunk),
            ds,
            (&self.experiment, &self.sweep),
            tables,
        )
    }
    /// Is this chunk complete on disk?
    pub fn is_done(&self, chunk: &ChunkId) -> bool {
        self.record(chunk).exists()
    }
    /// Records a finished chunk (after all its parts are in place).
    pub fn mark_done(&self, chunk: &ChunkId, info: &serde_json::Value) -> Result<()> {
        write_atomic(
            &self.record(chunk),
            serde_json::to_string_pretty(info)?.as_bytes(),
        )
    }
    /// Reads the record of a finished chunk.
    pub fn chunk_info(&self, chunk: &ChunkId) -> Option<serde_json::Value> {
        serde_json::from_str(&fs::read_to_string(self.record(chunk)).ok()?).ok()
    }
    /// Removes part files and chunk records that do not belong to `keep`
    /// (left over from an earlier version of the spec), and orphaned
    /// temporaries in every folder of this sweep, rendered ones included
    /// (a run also prunes the whole experiment: [`prune_orphans_of`]).
    pub fn prune(&self, keep: &[ChunkId]) -> Result<usize> {
        let stems: std::collections::HashSet<String> = keep.iter().map(ChunkId::stem).collect();
        let mut removed = 0;
        let mut dirs: Vec<PathBuf> = self
            .datasets
            .iter()
            .map(|d| self.dataset_dir(d.name))
            .collect();
        dirs.push(self.chunks_dir());
        for dir in &dirs {
            for f in fs::read_dir(dir).into_iter().flatten().flatten() {
                let fname = f.file_name().to_string_lossy().to_string();
                let stem = fname
                    .trim_start_matches("part-")
                    .trim_end_matches(".parquet")
                    .trim_end_matches(".json");
                if !fname.starts_with('.') && !stems.contains(stem) {
                    fs::remove_file(f.path())
                        .with_context(|| format!("cannot remove {}", f.path().display()))?;
                    removed += 1;
                }
            }
        }
        dirs.push(self.tables_dir());
        dirs.push(self.figures_dir());
        for dir in &dirs {
            removed += atomic::prune_orphans(dir)?;
        }
        Ok(removed)
    }
    /// The declared datasets that have parts on disk.
    pub fn present(&self) -> Vec<&'static Dataset> {
        self.datasets
            .iter()
            .copied()
            .filter(|d| !self.parts(d.name).is_empty())
            .collect()
    }
    /// The part files of a dataset, in sweep order.
    pub fn parts(&self, dataset: &str) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = fs::read_dir(self.dataset_dir(dataset))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                let n = p.file_name().unwrap_or_default().to_string_lossy();
                n.starts_with("part-") && n.ends_with(".parquet")
            })
            .collect();
        v.sort();
        v
    }
    /// Reads the columns that `keep` accepts of the first `rows` rows of a
    /// dataset's first part (a sample of its rows: the rest of the part is
    /// not decoded, nor are the other columns); `None` if absent.
    pub fn read_first(
        &self,
        dataset: &str,
        keep: &dyn Fn(&str) -> bool,
        rows: usize,
    ) -> Result<Option<Table>> {
        let (Some(ds), Some(p)) = (
            self.dataset(dataset),
            self.parts(dataset).into_iter().next(),
        ) else {
            return Ok(None);
        };
        parquet::read_part_head(&p, ds, keep, rows).map(Some)
    }
    /// Reads a whole dataset (all parts, in sweep order); `None` if absent.
    pub fn read(&self, dataset: &str) -> Result<Option<Table>> {
        self.read_columns(dataset, &|_| true, &|_| false)
    }
    /// Reads a whole dataset but its columns of lists that `lists` does not
    /// accept (a scatter of a two-heap sweep's P-positions reads no list
    /// of winning moves, often most of the bytes); `None` if absent.
    pub fn read_lists_named(
        &self,
        dataset: &str,
        lists: &dyn Fn(&str) -> bool,
    ) -> Result<Option<Table>> {
        let Some(ds) = self.dataset(dataset) else {
            return Ok(None);
        };
        let keep = |n: &str| ds.column(n).is_none_or(|c| !c.dtype.is_list() || lists(n));
        self.read_columns(dataset, &keep, &|_| false)
    }
    /// Reads the columns of a dataset that `keep` accepts (all parts, in
    /// sweep order; the others are not decoded), a column that `nulls`
    /// accepts held as [`crate::data::Values::Null`] in a part where it is
    /// null on every row; `None` if absent.
    pub fn read_columns(
        &self,
        dataset: &str,
        keep: &dyn Fn(&str) -> bool,
        nulls: &dyn Fn(&str) -> bool,
    ) -> Result<Option<Table>> {
        let Some(ds) = self.dataset(dataset) else {
            return Ok(None);
        };
        let parts = self.parts(dataset);
        if parts.is_empty() {
            return Ok(None);
        }
        let rows = parts
            .iter()
            .map(|p| parquet::part_rows(p))
            .sum::<Result<usize>>()?;
        let mut t = Table::new();
        for p in parts {
            let mut part = parquet::read_part_columns(&p, ds, keep)?;
            part.compact_nulls(nulls);
            t.append_owned(part)
                .with_context(|| format!("while reading {}", p.display()))?;
            t.reserve_rows(rows);
        }
        Ok(Some(t))
    }
}
