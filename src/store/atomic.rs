//! Atomic writes: every file nimlab writes goes to a temporary name in the
//! same directory, is synced, then renamed into place, so a reader never sees
//! half a file. A temporary is removed on every error path (its guard's
//! `Drop`), and one left by a killed process is recognised by its name
//! (`.<stem>.tmp-<host>~<pid>-<n>.<ext>`) and pruned by the next run.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// A temporary file that becomes `dest` on [`TempFile::commit`] and is
/// deleted if dropped before.
pub struct TempFile {
    tmp: PathBuf,
    dest: PathBuf,
    committed: bool,
}

impl TempFile {
    /// A fresh temporary name next to `dest` (its directory is created). The
    /// name keeps `dest`'s extension: image encoders choose the format by it.
    pub fn new(dest: &Path) -> Result<TempFile> {
        let dir = dest.parent().unwrap_or(Path::new("."));
        fs::create_dir_all(dir)
            .with_context(|| format!("cannot create directory {}", dir.display()))?;
        let name = dest
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let (stem, ext) = match name.rsplit_once('.') {
            Some((s, e)) => (s.to_string(), format!(".{e}")),
            None => (name.clone(), String::new()),
        };
        let tmp = dir.join(format!(".{stem}.tmp-{}-{}{ext}", tmp_owner(), nonce()));
        Ok(TempFile {
            tmp,
            dest: dest.to_path_buf(),
            committed: false,
        })
    }
    /// Where to write.
    pub fn path(&self) -> &Path {
        &self.tmp
    }
    /// Syncs the temporary and renames it into place.
    pub fn commit(mut self) -> Result<()> {
        let f = fs::File::open(&self.tmp)
            .with_context(|| format!("cannot reopen {}", self.tmp.display()))?;
        f.sync_all()
            .with_context(|| format!("cannot sync {}", self.tmp.display()))?;
        fs::rename(&self.tmp, &self.dest)
            .with_context(|| format!("cannot move {} into place", self.dest.display()))?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

/// Writes `bytes` to `path` atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_with(path, |f| {
        f.write_all(bytes)
            .with_context(|| format!("cannot write {}", path.display()))
    })
}

/// Writes a file atomically through a callback that fills it.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut fs::File) -> Result<()>,
) -> Result<()> {
    let tmp = TempFile::new(path)?;
    let mut f = fs::File::create(tmp.path())
        .with_context(|| format!("cannot create {}", tmp.path().display()))?;
    fill(&mut f)?;
    f.flush()
        .with_context(|| format!("cannot write {}", path.display()))?;
    drop(f);
    tmp.commit()
}

/// `<host>~<pid>`: who writes a temporary file. Shards may share an output
/// directory (on one machine or across a cluster's shared filesystem), so a
/// run only removes temporaries whose writer is gone.
pub fn tmp_owner() -> String {
    let host: String = fs::read_to_string("/proc/sys/kernel/hostname")
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
pub fn is_orphan(fname: &str) -> bool {
    if !fname.starts_with('.') {
        return false;
    }
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

/// Removes the orphaned temporaries directly in `dir`; returns how many.
pub fn prune_orphans(dir: &Path) -> Result<usize> {
    let mut n = 0;
    for f in fs::read_dir(dir).into_iter().flatten().flatten() {
        if is_orphan(&f.file_name().to_string_lossy()) {
            fs::remove_file(f.path())
                .with_context(|| format!("cannot remove {}", f.path().display()))?;
            n += 1;
        }
    }
    Ok(n)
}

fn nonce() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_orphaned_temporaries_are_stale() {
        let me = tmp_owner();
        let host = me.split('~').next().unwrap().to_string();
        assert!(
            !is_orphan(&format!(".part-1.parquet.tmp-{me}-3")),
            "our own file"
        );
        assert!(
            is_orphan(&format!(".part-1.tmp-{host}~4000000000-3.parquet")),
            "a dead process here"
        );
        assert!(
            !is_orphan(".part-1.parquet.tmp-otherhost~12-3"),
            "another host's writer may be alive"
        );
        assert!(!is_orphan("part-1.parquet"));
    }

    #[test]
    fn a_failed_write_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a/b.png");
        let r = write_atomic_with(&p, |f| {
            f.write_all(b"half")?;
            anyhow::bail!("disk full")
        });
        assert!(r.is_err());
        let names: Vec<_> = fs::read_dir(dir.path().join("a")).unwrap().collect();
        assert!(names.is_empty(), "{names:?}");
        write_atomic(&p, b"whole").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"whole");
        assert_eq!(fs::read_dir(dir.path().join("a")).unwrap().count(), 1);
    }

    #[test]
    fn the_temporary_keeps_the_extension() {
        let dir = tempfile::tempdir().unwrap();
        let t = TempFile::new(&dir.path().join("fig.png")).unwrap();
        let name = t.path().file_name().unwrap().to_string_lossy().to_string();
        assert!(
            name.starts_with(".fig.tmp-") && name.ends_with(".png"),
            "{name}"
        );
    }
}
