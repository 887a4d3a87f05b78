//! The slice files of a sliced solve, in one directory (on a filesystem
//! every node sees, for a cluster):
//!
//! ```text
//! DIR/plan.json                    the cut: board, rule, slice pieces, numbering, symmetries
//! DIR/slices/wKK/SSSS.bits         representative slice SSSS (hex) of wave KK: its table,
//!                                  2^(n−t) bits as little-endian 64-bit words
//! DIR/slices/wKK/SSSS.json         its completion record: P-positions per piece count,
//!                                  xxh3 of the table, time, I/O, host
//! DIR/result.json, DIR/result.txt  the answer (`nimlab board lines finish`)
//! ```
//!
//! Every file is written as every nimlab file is ([`crate::store::write_atomic`]:
//! a temporary name beside it, synced, renamed into place), and its
//! directory is synced after the rename ([`crate::store::write_durable`]), so
//! a slice's table is on disk under its name before its record is written,
//! and the record before the next slice starts. A slice is complete when its record exists
//! and its table has the right size. The kernel is deterministic, so a slice
//! solved twice (a requeued task, two tasks at once) writes the same table:
//! the rename is harmless. Temporaries left by killed processes of this host
//! are removed by [`Store::remove_temporaries`]; those of other hosts (whose
//! writers may be alive) are left alone.

use std::fs::{self, File};
use std::os::unix::fs::FileExt as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::store::atomic::prune_orphans;
use crate::store::write_durable;

/// A sliced solve's directory.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
    /// Hex digits of a slice number.
    width: usize,
    /// Bytes of a slice's table.
    slice_bytes: u64,
}

impl Store {
    /// The store in `dir` for slices of `t` bits and `slice_bytes` bytes.
    pub fn new(dir: &Path, t: usize, slice_bytes: u64) -> Result<Store> {
        if cfg!(target_endian = "big") {
            bail!("slice files are little-endian words; this machine is big-endian");
        }
        Ok(Store {
            dir: dir.to_path_buf(),
            width: t.div_ceil(4).max(1),
            slice_bytes,
        })
    }

    fn stem(&self, s: u64) -> PathBuf {
        self.dir
            .join("slices")
            .join(format!("w{:02}", s.count_ones()))
            .join(format!("{s:0w$x}", w = self.width))
    }

    /// Slice σ's table.
    pub fn data_path(&self, s: u64) -> PathBuf {
        self.stem(s).with_extension("bits")
    }

    /// Slice σ's completion record.
    pub fn record_path(&self, s: u64) -> PathBuf {
        self.stem(s).with_extension("json")
    }

    /// Is slice σ complete (record present, table of the right size)?
    pub fn is_done(&self, s: u64) -> bool {
        self.record_path(s).is_file()
            && fs::metadata(self.data_path(s)).is_ok_and(|m| m.len() == self.slice_bytes)
    }

    /// Slice σ's completion record.
    pub fn record(&self, s: u64) -> Result<Value> {
        let path = self.record_path(s);
        let text =
            fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
        serde_json::from_str(&text).with_context(|| format!("{} is not valid JSON", path.display()))
    }

    /// Slice σ's P-positions per piece count, from its record.
    pub fn counts(&self, s: u64, n: usize) -> Result<Vec<u64>> {
        let path = self.record_path(s);
        let v = self.record(s)?;
        let c: Vec<u64> = v["counts"]
            .as_array()
            .with_context(|| format!("{}: no `counts` list", path.display()))?
            .iter()
            .map(|x| {
                x.as_u64()
                    .with_context(|| format!("{}: `counts` holds a non-number", path.display()))
            })
            .collect::<Result<_>>()?;
        if c.len() != n + 1 {
            bail!(
                "{}: `counts` has {} entries for {n} pieces",
                path.display(),
                c.len()
            );
        }
        Ok(c)
    }

    /// Opens slice σ's table for reading.
    pub fn open(&self, s: u64) -> Result<File> {
        let path = self.data_path(s);
        let f = File::open(&path)
            .with_context(|| format!("cannot open slice table {}", path.display()))?;
        let len = f.metadata()?.len();
        if len != self.slice_bytes {
            bail!(
                "{} has {len} bytes, a slice table has {}: delete it and its .json to recompute it",
                path.display(),
                self.slice_bytes
            );
        }
        Ok(f)
    }

    /// Reads words `first ..` of an open table into `buf`.
    pub fn read_words(f: &File, first: u64, buf: &mut [u64]) -> Result<()> {
        f.read_exact_at(as_bytes_mut(buf), first * 8)
            .context("cannot read a slice table")
    }

    /// Reads a whole slice table.
    #[cfg(test)]
    pub fn read_slice(&self, s: u64, words: usize) -> Result<Vec<u64>> {
        let f = self.open(s)?;
        let mut v: Vec<u64> = crate::mem::zeroed_huge(words);
        Self::read_words(&f, 0, &mut v)
            .with_context(|| format!("reading {}", self.data_path(s).display()))?;
        Ok(v)
    }

    /// Writes slice σ's table atomically (its record comes after, by
    /// [`Store::write_record`]).
    pub fn write_table(&self, s: u64, words: &[u64]) -> Result<()> {
        let data = self.data_path(s);
        let dir = data.parent().expect("a slice file has a directory");
        fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        // Durable (directory synced) before the record that declares it complete.
        write_durable(&data, as_bytes(words))
    }

    /// Writes slice σ's completion record atomically.
    pub fn write_record(&self, s: u64, record: &Value) -> Result<()> {
        let mut text = serde_json::to_string_pretty(record)?;
        text.push('\n');
        write_durable(&self.record_path(s), text.as_bytes())
    }

    /// Reads a whole slice table into `v` (its length).
    pub fn read_slice_into(&self, s: u64, v: &mut [u64]) -> Result<()> {
        let f = self.open(s)?;
        Self::read_words(&f, 0, v)
            .with_context(|| format!("reading {}", self.data_path(s).display()))
    }

    /// Deletes slice σ's table, keeping its record (`--prune`).
    pub fn remove_table(&self, s: u64) -> Result<()> {
        let p = self.data_path(s);
        match fs::remove_file(&p) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(e).with_context(|| format!("cannot delete {}", p.display())),
        }
    }

    /// Is slice σ's table still on disk?
    pub fn has_table(&self, s: u64) -> bool {
        self.data_path(s).is_file()
    }

    /// Bytes of the slice tables on disk now.
    pub fn disk_bytes(&self) -> u64 {
        let mut total = 0;
        let Ok(waves) = fs::read_dir(self.dir.join("slices")) else {
            return 0;
        };
        for w in waves.flatten() {
            if let Ok(files) = fs::read_dir(w.path()) {
                for f in files.flatten() {
                    let temporary = f.file_name().to_string_lossy().starts_with('.');
                    if !temporary && f.path().extension().is_some_and(|e| e == "bits") {
                        total += f.metadata().map_or(0, |m| m.len());
                    }
                }
            }
        }
        total
    }

    /// Removes the temporary files left by killed processes of this host
    /// (safe while other processes write: see [`crate::store::atomic::is_orphan`]).
    pub fn remove_temporaries(&self) -> Result<usize> {
        let mut removed = prune_orphans(&self.dir)?;
        if let Ok(waves) = fs::read_dir(self.dir.join("slices")) {
            for w in waves.flatten() {
                removed += prune_orphans(&w.path())?;
            }
        }
        Ok(removed)
    }
}

/// This machine's host name (for the completion records).
pub fn hostname() -> String {
    fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_string())
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "host".into())
}

fn as_bytes(words: &[u64]) -> &[u8] {
    // SAFETY: any u64 is 8 initialised bytes; u8 has alignment 1; the length
    // is the slice's size in bytes.
    unsafe { std::slice::from_raw_parts(words.as_ptr().cast::<u8>(), words.len() * 8) }
}

fn as_bytes_mut(words: &mut [u64]) -> &mut [u8] {
    // SAFETY: as in `as_bytes`; every byte pattern is a valid u64.
    unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr().cast::<u8>(), words.len() * 8) }
}

/// An xxh3 checksum of a table, as the records hold it.
pub fn checksum(words: &[u64]) -> String {
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(as_bytes(words)))
}
