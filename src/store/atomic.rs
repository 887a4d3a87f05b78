//! Atomic writes: every file nimlab writes goes to a temporary name in the
//! same directory, is synced, then renamed into place, so a reader never sees
//! half a file. A temporary is removed on every error path (its guard's
//! `Drop`; [`remove_own_temporaries`] for an exit that skips destructors),
//! and one left by a killed process is recognised by its name
//! (`.<stem>.tmp-<host>~<pid>-<n>.<ext>`) and pruned by the next run
//! ([`is_orphan`] decides).

use std::collections::HashSet;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use anyhow::{Context, Result};

/// A temporary not modified for this long is an orphan even when its
/// writer's liveness cannot be checked (another host's, or an old name):
/// a live writer writes its temporary in one go, in seconds.
pub const STALE_AFTER: Duration = Duration::from_secs(3600);

/// This process's temporaries not yet committed or removed.
static LIVE: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);

fn live() -> std::sync::MutexGuard<'static, Option<HashSet<PathBuf>>> {
    LIVE.lock().unwrap_or_else(|p| p.into_inner())
}

/// Syncs a directory, so that the renames into it (an atomic write's last
/// step) survive a crash of the machine: a file's own sync does not make
/// its new name durable. Where a directory cannot be opened for syncing
/// (not Unix), nothing is done.
pub fn sync_dir(dir: &Path) -> Result<()> {
    #[cfg(unix)]
    {
        let d = fs::File::open(dir).with_context(|| format!("cannot open {}", dir.display()))?;
        d.sync_all()
            .with_context(|| format!("cannot sync the directory {}", dir.display()))?;
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// Writes `bytes` to `path` atomically ([`write_atomic`]), then syncs its
/// directory ([`sync_dir`]): the file is on disk under its name when this
/// returns.
pub fn write_durable(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic(path, bytes)?;
    sync_dir(
        path.parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new(".")),
    )
}

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
        live().get_or_insert_with(HashSet::new).insert(tmp.clone());
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
        if let Some(set) = live().as_mut() {
            set.remove(&self.tmp);
        }
    }
}

/// Removes every temporary this process has not committed yet: for an exit
/// that skips destructors (a second Ctrl-C); an error return needs no call,
/// as each temporary's guard removes it. Returns how many were removed.
pub fn remove_own_temporaries() -> usize {
    let paths: Vec<PathBuf> = live()
        .as_mut()
        .map(|s| s.drain().collect())
        .unwrap_or_default();
    paths.iter().filter(|p| fs::remove_file(p).is_ok()).count()
}

/// Is this one of this process's temporaries in use?
fn is_own_live(path: &Path) -> bool {
    live().as_ref().is_some_and(|s| s.contains(path))
}

/// Where a temporary's bytes go: the file, and under `cfg(test)` an
/// injected failure ([`faults`]).
pub struct Sink {
    file: fs::File,
    #[cfg(test)]
    budget: Option<std::sync::Arc<std::sync::atomic::AtomicI64>>,
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        #[cfg(test)]
        if let Some(b) = &self.budget {
            let left = b.fetch_sub(buf.len() as i64, std::sync::atomic::Ordering::SeqCst);
            if left < buf.len() as i64 {
                // A full disk: part of the bytes land, then ENOSPC.
                let _ = self.file.write_all(&buf[..left.max(0) as usize]);
                return Err(std::io::Error::from_raw_os_error(libc::ENOSPC));
            }
        }
        self.file.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
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
pub fn write_atomic_with(path: &Path, fill: impl FnOnce(&mut Sink) -> Result<()>) -> Result<()> {
    let tmp = TempFile::new(path)?;
    let file = fs::File::create(tmp.path())
        .with_context(|| format!("cannot create {}", tmp.path().display()))?;
    let mut f = Sink {
        file,
        #[cfg(test)]
        budget: faults::budget_for(path),
    };
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
    format!("{}~{}", host(), std::process::id())
}

fn host() -> String {
    fs::read_to_string("/proc/sys/kernel/hostname")
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
        .collect()
}

/// Who wrote a temporary, read from its name.
#[derive(Debug, PartialEq)]
enum Writer {
    /// A process of this host.
    Here(u32),
    /// Another host's process, or a name without a host: liveness unknown.
    Unknown,
}

/// The writer named by a temporary's file name; `None`: not a temporary.
fn writer_of(fname: &str) -> Option<Writer> {
    if !fname.starts_with('.') {
        return None;
    }
    let rest = fname.split(".tmp-").nth(1)?;
    let (owner, _) = rest.rsplit_once('-')?;
    Some(match owner.split_once('~') {
        Some((h, pid)) if h == host() => match pid.parse() {
            Ok(pid) => Writer::Here(pid),
            Err(_) => Writer::Unknown,
        },
        _ => Writer::Unknown,
    })
}

/// Is `path` a temporary whose writer is gone? Never one of this process's
/// own live temporaries. A temporary of this host is an orphan when its
/// process no longer runs, or when it names this process (an earlier process
/// had the same pid: pids are reused, and every run in a fresh container may
/// be pid 1); a temporary of another host (a cluster's shared filesystem),
/// whose writer cannot be checked from here, when it has not been modified
/// for [`STALE_AFTER`]. A temporary of a concurrent run (another live
/// process here, or another host's fresh file) is left alone.
pub fn is_orphan(path: &Path) -> bool {
    let fname = path.file_name().unwrap_or_default().to_string_lossy();
    let Some(writer) = writer_of(&fname) else {
        return false;
    };
    if is_own_live(path) {
        return false;
    }
    let dead = match writer {
        Writer::Here(pid) => {
            pid == std::process::id() || !Path::new(&format!("/proc/{pid}")).exists()
        }
        Writer::Unknown => false,
    };
    dead || is_stale(path)
}

fn is_stale(path: &Path) -> bool {
    fs::symlink_metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| SystemTime::now().duration_since(t).ok())
        .is_some_and(|age| age > STALE_AFTER)
}

/// Removes the orphaned temporaries directly in `dir`; returns how many.
pub fn prune_orphans(dir: &Path) -> Result<usize> {
    let mut n = 0;
    for f in fs::read_dir(dir).into_iter().flatten().flatten() {
        if is_orphan(&f.path()) {
            remove_orphan(&f.path())?;
            n += 1;
        }
    }
    Ok(n)
}

/// Removes the orphaned temporaries in `dir` and every folder below it.
pub fn prune_orphans_tree(dir: &Path) -> Result<usize> {
    let mut n = 0;
    for f in fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = f.path();
        if f.file_type().is_ok_and(|t| t.is_dir()) {
            n += prune_orphans_tree(&path)?;
        } else if is_orphan(&path) {
            remove_orphan(&path)?;
            n += 1;
        }
    }
    Ok(n)
}

fn remove_orphan(path: &Path) -> Result<()> {
    match fs::remove_file(path) {
        // A concurrent run pruned it first.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        r => r.with_context(|| format!("cannot remove {}", path.display())),
    }
}

fn nonce() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

/// Injected write failures, for tests: a full disk under one folder.
#[cfg(test)]
pub mod faults {
    use std::path::{Path, PathBuf};
    use std::sync::atomic::AtomicI64;
    use std::sync::{Arc, Mutex};

    static RULES: Mutex<Vec<(PathBuf, Arc<AtomicI64>)>> = Mutex::new(Vec::new());

    /// While the guard lives, writes of files under `dir` fail with "No
    /// space left on device" once `bytes` bytes have been written under it.
    pub fn disk_full_under(dir: &Path, bytes: i64) -> Guard {
        let mut r = RULES.lock().unwrap_or_else(|p| p.into_inner());
        r.push((dir.to_path_buf(), Arc::new(AtomicI64::new(bytes))));
        Guard(dir.to_path_buf())
    }

    /// Ends an injected failure.
    pub struct Guard(PathBuf);

    impl Drop for Guard {
        fn drop(&mut self) {
            let mut r = RULES.lock().unwrap_or_else(|p| p.into_inner());
            r.retain(|(d, _)| *d != self.0);
        }
    }

    pub(super) fn budget_for(path: &Path) -> Option<Arc<AtomicI64>> {
        let r = RULES.lock().unwrap_or_else(|p| p.into_inner());
        r.iter()
            .find(|(d, _)| path.starts_with(d))
            .map(|(_, b)| b.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_orphaned_temporaries_are_stale() {
        let me = tmp_owner();
        let host = me.split('~').next().unwrap().to_string();
        let dir = tempfile::tempdir().unwrap();
        let at = |name: &str| {
            let p = dir.path().join(name);
            fs::write(&p, b"x").unwrap();
            p
        };
        let live = TempFile::new(&dir.path().join("part-1.parquet")).unwrap();
        fs::write(live.path(), b"x").unwrap();
        assert!(!is_orphan(live.path()), "our own live file");
        assert!(
            is_orphan(&at(&format!(".part-2.tmp-{me}-3.parquet"))),
            "our pid, not ours: an earlier process with the same pid"
        );
        assert!(
            is_orphan(&at(&format!(".part-1.tmp-{host}~4000000000-3.parquet"))),
            "a dead process here"
        );
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let concurrent = at(&format!(".part-3.tmp-{host}~{}-0.parquet", child.id()));
        assert!(!is_orphan(&concurrent), "a concurrent run here");
        let other = at(".part-1.parquet.tmp-otherhost~12-3");
        assert!(!is_orphan(&other), "another host's writer may be alive");
        let old = SystemTime::now() - STALE_AFTER - Duration::from_secs(60);
        for p in [&other, &concurrent] {
            fs::File::options()
                .write(true)
                .open(p)
                .unwrap()
                .set_modified(old)
                .unwrap();
            assert!(is_orphan(p), "untouched for over an hour: {}", p.display());
        }
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(!is_orphan(&at("part-1.parquet")));
        drop(live);
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
