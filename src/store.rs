//! Results on disk: Parquet through polars, written atomically.
//!
//! Layout (documented for users in `docs/data.md`):
//!
//! ```text
//! <out>/<experiment>/manifest.json                 provenance of the last run
//! <out>/<experiment>/<sweep>/<dataset>/part-SSSSS-HHHHHHHHHHHHHHHH.parquet
//! <out>/<experiment>/<sweep>/_chunks/SSSSS-HHHHHHHHHHHHHHHH.json   one per finished chunk
//! <out>/<experiment>/<sweep>/tables/*.md|csv|png, figures/*.png|svg
//! ```
//!
//! A chunk is a run of consecutive cases; `SSSSS` is its position in the sweep
//! and `H…` a hash of its case keys, so a part file's name says exactly which
//! cases it holds. Every file is written to a temporary name in the same
//! directory, synced, then renamed: a reader never sees half a file.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use polars::prelude::{
    AnyValue, Column, DataFrame, DataType, IntoColumn, ParquetCompression, ParquetReader,
    ParquetWriter, PlSmallStr, Scalar, SerReader, StringChunked,
};

use crate::table::{StrVec, Table, Values};

/// Changes whenever a nimlab change alters any result for the same case keys;
/// it is part of every chunk id, so stored results of another version are
/// recomputed rather than mixed in.
pub const RESULTS_VERSION: &str = "nimlab-results-1";

/// Writes `bytes` to `path` atomically (temporary file, fsync, rename).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_with(path, |f| f.write_all(bytes).map_err(Into::into))
}

/// Writes a file atomically through a callback that fills it.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut fs::File) -> Result<()>,
) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)
        .with_context(|| format!("cannot create directory {}", dir.display()))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp-{}-{:x}", tmp_owner(), tmp_nonce()));
    let result = (|| {
        let mut f =
            fs::File::create(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
        fill(&mut f)?;
        f.sync_all()
            .with_context(|| format!("cannot sync {}", tmp.display()))?;
        drop(f);
        fs::rename(&tmp, path)
            .with_context(|| format!("cannot move {} into place", path.display()))?;
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// `<host>~<pid>`: who writes a temporary file. Shards may share an output
/// directory (on one machine or across a cluster's shared filesystem), so a
/// run only removes temporaries whose writer is gone.
pub fn tmp_owner() -> String {
    let host: String = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .unwrap_or_default()
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{host}~{}", std::process::id())
}

/// A temporary file left by a process of this host that no longer runs.
/// Temporaries of other hosts are left alone (their writers may be alive).
fn tmp_is_orphan(fname: &str) -> bool {
    let Some(rest) = fname.split(".tmp-").nth(1) else {
        return false;
    };
    let Some((owner, _)) = rest.rsplit_once('-') else {
        return false;
    };
    let Some((host, pid)) = owner.split_once('~') else {
        // An old-style name (pid only): treat as orphaned unless that pid runs here.
        return !Path::new(&format!("/proc/{owner}")).exists();
    };
    let me = tmp_owner();
    let my_host = me.split('~').next().unwrap_or("");
    host == my_host && !Path::new(&format!("/proc/{pid}")).exists()
}

fn tmp_nonce() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

/// Converts a table to a polars `DataFrame` (moves the vectors).
pub fn to_dataframe(t: Table) -> Result<DataFrame> {
    let mut cols: Vec<Column> = Vec::new();
    for (name, v) in t.into_columns() {
        let name: PlSmallStr = name.as_str().into();
        let n = v.len();
        // Columns constant over a chunk (a case's parameters) become scalar
        // columns: polars keeps one value instead of one per row.
        let c = match v {
            Values::Int(v) if n > 1 && v.iter().all(|&x| x == v[0]) => {
                Column::new_scalar(name, Scalar::new(DataType::Int64, AnyValue::Int64(v[0])), n)
            }
            Values::Bool(v) if n > 1 && v.iter().all(|&x| x == v[0]) => Column::new_scalar(
                name,
                Scalar::new(DataType::Boolean, AnyValue::Boolean(v[0])),
                n,
            ),
            Values::Str(v) if n > 1 && v.iter().all(|x| x == v.get(0)) => Column::new_scalar(
                name,
                Scalar::new(DataType::String, AnyValue::StringOwned(v.get(0).into())),
                n,
            ),
            Values::Int(v) => Column::new(name, v),
            Values::OptInt(v) => Column::new(name, v),
            Values::Bool(v) => Column::new(name, v),
            Values::Float(v) => Column::new(name, v),
            Values::Str(v) => {
                let ca: StringChunked = v.iter().map(Some).collect();
                ca.with_name(name).into_column()
            }
        };
        cols.push(c);
    }
    Ok(DataFrame::new_infer_height(cols)?)
}

/// Converts a polars `DataFrame` back into a table.
pub fn from_dataframe(df: &DataFrame) -> Result<Table> {
    let mut t = Table::new();
    for c in df.columns() {
        let name = c.name().to_string();
        let s = c.as_materialized_series();
        let v = match s.dtype() {
            DataType::Int64
            | DataType::Int32
            | DataType::UInt32
            | DataType::UInt64
            | DataType::Int16
            | DataType::UInt16
            | DataType::Int8
            | DataType::UInt8 => {
                let s = s.cast(&DataType::Int64)?;
                let ca = s.i64()?;
                if ca.null_count() > 0 {
                    Values::OptInt(ca.iter().collect())
                } else {
                    Values::Int(ca.into_no_null_iter().collect())
                }
            }
            DataType::Boolean => {
                Values::Bool(s.bool()?.iter().map(|b| b.unwrap_or(false)).collect())
            }
            DataType::Float64 | DataType::Float32 => {
                let s = s.cast(&DataType::Float64)?;
                Values::Float(s.f64()?.iter().map(|b| b.unwrap_or(f64::NAN)).collect())
            }
            DataType::String => {
                let ca = s.str()?;
                let mut v = StrVec::with_capacity(ca.len(), 0);
                for x in ca.iter() {
                    v.push(x.unwrap_or(""));
                }
                Values::Str(v)
            }
            other => anyhow::bail!("column {name} has type {other}, which nimlab does not read"),
        };
        t.push(&name, v);
    }
    Ok(t)
}

/// Writes a table as a Parquet file, atomically.
pub fn write_parquet(path: &Path, t: Table) -> Result<()> {
    let mut df = to_dataframe(t)?;
    write_atomic_with(path, |f| {
        let mut buf = std::io::BufWriter::with_capacity(1 << 20, f);
        ParquetWriter::new(&mut buf)
            .with_compression(ParquetCompression::Zstd(None))
            .finish(&mut df)
            .with_context(|| format!("cannot write Parquet {}", path.display()))?;
        buf.flush()
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(())
    })
}

/// Writes several tables with the same columns as one Parquet file,
/// atomically. Small tables are concatenated into row groups of at least
/// 2^17 rows (polars' per-row-group cost dominates below that).
pub fn write_parquet_parts(path: &Path, tables: Vec<Table>) -> Result<()> {
    let mut groups: Vec<Table> = Vec::new();
    for t in tables {
        match groups.last_mut() {
            Some(g) if g.rows() < 1 << 17 => g.append(&t)?,
            _ => groups.push(t),
        }
    }
    let mut frames = Vec::with_capacity(groups.len());
    for t in groups {
        frames.push(to_dataframe(t)?);
    }
    let Some(first) = frames.first() else {
        anyhow::bail!("no table to write to {}", path.display());
    };
    let schema = first.schema().clone();
    write_atomic_with(path, |f| {
        let mut buf = std::io::BufWriter::with_capacity(1 << 20, f);
        let mut w = ParquetWriter::new(&mut buf)
            .with_compression(ParquetCompression::Zstd(None))
            .batched(&schema)
            .with_context(|| format!("cannot write Parquet {}", path.display()))?;
        for df in &frames {
            w.write_batch(df)
                .with_context(|| format!("cannot write Parquet {}", path.display()))?;
        }
        w.finish()
            .with_context(|| format!("cannot finish Parquet {}", path.display()))?;
        drop(w);
        buf.flush()
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(())
    })
}

/// Reads one Parquet file.
pub fn read_parquet(path: &Path) -> Result<Table> {
    let f = fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let df = ParquetReader::new(f)
        .finish()
        .with_context(|| format!("cannot read Parquet {}", path.display()))?;
    from_dataframe(&df)
}

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

/// The directory of one sweep's results.
#[derive(Clone, Debug)]
pub struct SweepDir {
    /// `<out>/<experiment>/<sweep>`.
    pub root: PathBuf,
}

impl SweepDir {
    /// The sweep directory under an experiment directory.
    pub fn new(experiment_dir: &Path, sweep: &str) -> SweepDir {
        SweepDir {
            root: experiment_dir.join(sweep),
        }
    }
    /// Where a dataset's parts live.
    pub fn dataset_dir(&self, dataset: &str) -> PathBuf {
        self.root.join(dataset)
    }
    fn chunks_dir(&self) -> PathBuf {
        self.root.join("_chunks")
    }
    /// The part file of a chunk in a dataset.
    pub fn part_path(&self, dataset: &str, chunk: &ChunkId) -> PathBuf {
        self.dataset_dir(dataset)
            .join(format!("part-{}.parquet", chunk.stem()))
    }
    /// Is this chunk complete on disk?
    pub fn is_done(&self, chunk: &ChunkId) -> bool {
        self.chunks_dir()
            .join(format!("{}.json", chunk.stem()))
            .exists()
    }
    /// Records a finished chunk (after all its parts are in place).
    pub fn mark_done(&self, chunk: &ChunkId, info: &serde_json::Value) -> Result<()> {
        let p = self.chunks_dir().join(format!("{}.json", chunk.stem()));
        write_atomic(&p, serde_json::to_string_pretty(info)?.as_bytes())
    }
    /// Reads the record of a finished chunk.
    pub fn chunk_info(&self, chunk: &ChunkId) -> Option<serde_json::Value> {
        let p = self.chunks_dir().join(format!("{}.json", chunk.stem()));
        serde_json::from_str(&fs::read_to_string(p).ok()?).ok()
    }
    /// Removes part files and chunk records that do not belong to `keep`
    /// (left over from an earlier version of the spec), and stray temporaries.
    pub fn prune(&self, keep: &[ChunkId]) -> Result<usize> {
        let stems: std::collections::HashSet<String> = keep.iter().map(ChunkId::stem).collect();
        let mut removed = 0;
        let Ok(entries) = fs::read_dir(&self.root) else {
            return Ok(0);
        };
        for e in entries.flatten() {
            let dir = e.path();
            if !dir.is_dir() {
                continue;
            }
            let dname = e.file_name().to_string_lossy().to_string();
            // Rendered folders hold no chunk files: only orphaned temporaries go.
            let rendered = dname == "tables" || dname == "figures";
            for f in fs::read_dir(&dir)?.flatten() {
                let fname = f.file_name().to_string_lossy().to_string();
                let stem = fname
                    .trim_start_matches("part-")
                    .trim_end_matches(".parquet")
                    .trim_end_matches(".json");
                let orphan =
                    fname.starts_with('.') && fname.contains(".tmp-") && tmp_is_orphan(&fname);
                let stale = orphan
                    || (!rendered
                        && (fname.starts_with("part-") || dname == "_chunks")
                        && !stems.contains(stem));
                if stale {
                    fs::remove_file(f.path())?;
                    removed += 1;
                }
            }
        }
        Ok(removed)
    }
    /// Names of the datasets present.
    pub fn datasets(&self) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(&self.root)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.path().is_dir())
            .map(|e| e.file_name().to_string_lossy().to_string())
            .filter(|n| !n.starts_with('_') && n != "tables" && n != "figures")
            .collect();
        v.sort();
        v
    }
    /// The part files of a dataset, in sweep order.
    pub fn parts(&self, dataset: &str) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = fs::read_dir(self.dataset_dir(dataset))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                let n = p.file_name().unwrap().to_string_lossy();
                n.starts_with("part-") && n.ends_with(".parquet")
            })
            .collect();
        v.sort();
        v
    }
    /// Reads a whole dataset (all parts, in sweep order); `None` if absent.
    pub fn read(&self, dataset: &str) -> Result<Option<Table>> {
        let parts = self.parts(dataset);
        if parts.is_empty() {
            return Ok(None);
        }
        let mut t = Table::new();
        for p in parts {
            let part = read_parquet(&p)?;
            t.append(&part)
                .with_context(|| format!("while reading {}", p.display()))?;
        }
        Ok(Some(t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_orphaned_temporaries_are_stale() {
        let me = tmp_owner();
        let host = me.split('~').next().unwrap().to_string();
        assert!(
            !tmp_is_orphan(&format!(".part-1.parquet.tmp-{me}-3")),
            "our own file"
        );
        assert!(
            tmp_is_orphan(&format!(".part-1.parquet.tmp-{host}~4000000000-3")),
            "a dead process here"
        );
        assert!(
            !tmp_is_orphan(".part-1.parquet.tmp-otherhost~12-3"),
            "another host's writer may be alive"
        );
        assert!(!tmp_is_orphan("part-1.parquet"));
    }

    #[test]
    fn parquet_roundtrip() {
        let dir = tempfile::tempdir().unwrap();
        let t = Table::new()
            .with("N", Values::Int(vec![0, 1, 2]))
            .with("grundy", Values::OptInt(vec![Some(0), None, Some(2)]))
            .with("outcome", Values::Str(["P", "N", ""].into_iter().collect()))
            .with("flag", Values::Bool(vec![true, false, true]));
        let p = dir.path().join("a/b.parquet");
        write_parquet(&p, t.clone()).unwrap();
        assert_eq!(read_parquet(&p).unwrap(), t);
        // No temporary file is left behind.
        let names: Vec<_> = fs::read_dir(dir.path().join("a"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1);
    }
}
