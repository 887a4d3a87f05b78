//! The cost model: each case states its work as units of named kernels
//! ([`Kernel`], [`crate::family::Cost::work`]); `nimlab calibrate` measures
//! each kernel's rate on this machine on fixed small inputs (never a spec's
//! cases) and caches it under the user's cache directory, keyed by the
//! binary's version and the CPU model; the dry run, the guard and the
//! progress bar multiply.

use std::path::PathBuf;

use serde_json::{Value, json};

/// A kernel whose rate is measured once per machine. Each family declares
/// its own (a `const` beside its solver) and the probe measuring it
/// ([`crate::family::Family::probes`]); the core knows only the writer's
/// ([`WRITER`]). Names are unique: each names one kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Kernel {
    name: &'static str,
    unit: &'static str,
}

impl Kernel {
    /// A kernel named `name` (its name in the cache and in `nimlab
    /// calibrate`'s table), whose unit of work is `unit`.
    pub const fn new(name: &'static str, unit: &'static str) -> Kernel {
        Kernel { name, unit }
    }
    /// Its name in the cache and in `nimlab calibrate`'s table.
    pub fn name(self) -> &'static str {
        self.name
    }
    /// What one unit is.
    pub fn unit(self) -> &'static str {
        self.unit
    }
}

/// The Parquet writer: bytes of rows (the declared columns' sizes), every
/// sweep.
pub const WRITER: Kernel = Kernel::new("writer", "row bytes");

/// Work: units per kernel.
pub type Work = Vec<(Kernel, u64)>;

/// Adds `b` to `a`, kernel by kernel.
pub fn add(a: &mut Work, b: &[(Kernel, u64)]) {
    for &(k, n) in b {
        match a.iter_mut().find(|(x, _)| *x == k) {
            Some((_, t)) => *t = t.saturating_add(n),
            None => a.push((k, n)),
        }
    }
}

/// Each kernel's rate on this machine (units per second on one thread).
#[derive(Clone, Debug, PartialEq)]
pub struct Rates {
    /// Units per second, per kernel.
    pub per_sec: Vec<(Kernel, f64)>,
    /// Fixed costs beside the kernels.
    pub overhead: Overhead,
    /// The binary that measured them (version and commit).
    pub binary: String,
    /// The CPU model.
    pub cpu: String,
}

impl Rates {
    /// Seconds on one thread for `work`.
    pub fn secs(&self, work: &[(Kernel, u64)]) -> f64 {
        work.iter().map(|&(k, n)| n as f64 / self.rate(k)).sum()
    }
    /// A kernel's rate (units per second; a kernel not measured counts as
    /// the slowest measured one, so an estimate errs long).
    pub fn rate(&self, k: Kernel) -> f64 {
        self.per_sec
            .iter()
            .find(|(x, _)| *x == k)
            .map(|(_, r)| *r)
            .or_else(|| self.per_sec.iter().map(|(_, r)| *r).reduce(f64::min))
            .unwrap_or(1e6)
            .max(1.0)
    }
    /// The cache file's JSON.
    pub fn to_json(&self) -> Value {
        let rates: serde_json::Map<String, Value> = self
            .per_sec
            .iter()
            .map(|(k, r)| (k.name().to_string(), json!(r)))
            .collect();
        json!({
            "binary": self.binary,
            "cpu": self.cpu,
            "units_per_second": rates,
            "overhead": {
                "seconds_per_case": self.overhead.case_secs,
                "seconds_per_file": self.overhead.file_secs,
                "writer_bytes_per_thread": self.overhead.writer_bytes,
            },
        })
    }
    /// Reads the cache file's JSON, with a rate for each of `kernels`
    /// (`None` when it is of another binary or CPU, lacks one of them, or is
    /// malformed: then the machine is measured again).
    pub fn from_json(v: &Value, kernels: &[Kernel]) -> Option<Rates> {
        let binary = v.get("binary")?.as_str()?.to_string();
        let cpu = v.get("cpu")?.as_str()?.to_string();
        if binary != binary_id() || cpu != cpu_model() {
            return None;
        }
        let map = v.get("units_per_second")?.as_object()?;
        let per_sec = kernels
            .iter()
            .map(|&k| Some((k, map.get(k.name())?.as_f64().filter(|r| *r > 0.0)?)))
            .collect::<Option<Vec<_>>>()?;
        let o = v.get("overhead")?;
        let num = |k: &str| o.get(k)?.as_f64().filter(|x| *x >= 0.0);
        let overhead = Overhead {
            case_secs: num("seconds_per_case")?,
            file_secs: num("seconds_per_file")?,
            writer_bytes: num("writer_bytes_per_thread")? as u64,
        };
        Some(Rates {
            per_sec,
            overhead,
            binary,
            cpu,
        })
    }
}

/// The fixed costs of a run beside its kernels' work, measured by `nimlab
/// calibrate` like the kernels: what small sweeps spend most of their time
/// and memory on.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overhead {
    /// Seconds per case beyond its kernels' work (dispatching it, checking
    /// its tables against their declarations, building its rows).
    pub case_secs: f64,
    /// Seconds per file a chunk writes (a small Parquet part or the chunk's
    /// record: creating it, the encoder's setup, syncing it to disk).
    pub file_secs: f64,
    /// Bytes the process holds once it has written a part, beyond the
    /// part's tables (the encoder's buffers and what it sets up once).
    pub writer_bytes: u64,
}

static CURRENT: std::sync::OnceLock<Rates> = std::sync::OnceLock::new();

/// Sets the rates this process estimates with (`nimlab run` does, before
/// running; the first call wins).
pub fn set_current(rates: Rates) {
    let _ = CURRENT.set(rates);
}

/// The rates this process estimates with, if set.
pub fn current() -> Option<&'static Rates> {
    CURRENT.get()
}

/// The binary's version and commit, and the executable's size and
/// modification time: a rebuilt binary measures again, also one rebuilt
/// from a changed working tree without a git operation (same commit).
pub fn binary_id() -> String {
    let exe = std::env::current_exe()
        .and_then(std::fs::metadata)
        .map(|m| {
            let t = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok());
            format!("{} {}", m.len(), t.map_or(0, |d| d.as_nanos()))
        })
        .unwrap_or_default();
    format!(
        "{} {} {exe}",
        env!("CARGO_PKG_VERSION"),
        env!("NIMLAB_GIT_COMMIT")
    )
}

/// Calibration files kept in the cache directory: older ones (binaries
/// rebuilt since) are removed when a new one is saved.
const CACHE_KEEP: usize = 8;

/// The CPU model (`model name` of `/proc/cpuinfo`; "unknown" elsewhere).
pub fn cpu_model() -> String {
    crate::mem::proc_field("/proc/cpuinfo", "model name").unwrap_or_else(|| "unknown".to_string())
}

/// `$XDG_CACHE_HOME/nimlab/calibration-<key>.json`, else under
/// `~/.cache/nimlab/`, one file per binary and CPU ([`cache_name`]).
pub fn cache_file() -> Option<PathBuf> {
    let base = match std::env::var_os("XDG_CACHE_HOME").filter(|v| !v.is_empty()) {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(std::env::var_os("HOME")?).join(".cache"),
    };
    Some(
        base.join("nimlab")
            .join(cache_name(&binary_id(), &cpu_model())),
    )
}

/// The cache file's name for a binary and a CPU: `calibration-<16 hex>.json`.
/// One file per binary: with a single file, any other binary run in
/// between (main's, beside one built from a working tree) replaced the
/// rates, and each binary measured again on every run.
pub fn cache_name(binary: &str, cpu: &str) -> String {
    let key = xxhash_rust::xxh3::xxh3_64(format!("{binary}\n{cpu}").as_bytes());
    format!("calibration-{key:016x}.json")
}

/// The cached rates of this binary on this CPU, if any, with a rate for
/// each of `kernels` (a dry run's quick calibration's too: `"quick": true`
/// in the file).
pub fn cached(kernels: &[Kernel]) -> Option<Rates> {
    let text = std::fs::read_to_string(cache_file()?).ok()?;
    Rates::from_json(&serde_json::from_str(&text).ok()?, kernels)
}

/// Saves the rates (a cache: failing to write it only costs a measurement
/// next time), `quick` where the dry run's quick calibration measured them.
pub fn save(rates: &Rates, quick: bool) {
    let Some(path) = cache_file() else { return };
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let tmp = path.with_extension(format!("json.{}.tmp", std::process::id()));
    let mut v = rates.to_json();
    v["quick"] = json!(quick);
    if std::fs::write(&tmp, v.to_string()).is_ok() {
        let _ = std::fs::rename(&tmp, &path);
    }
    if let Some(dir) = path.parent() {
        prune_cache(dir, CACHE_KEEP);
    }
}

/// Removes all but the `keep` newest `calibration-*.json` files of `dir`.
fn prune_cache(dir: &std::path::Path, keep: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .filter(|e| {
            let n = e.file_name();
            let n = n.to_string_lossy();
            n.starts_with("calibration-") && n.ends_with(".json")
        })
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    files.sort_by_key(|f| std::cmp::Reverse(f.0));
    for (_, p) in files.into_iter().skip(keep) {
        let _ = std::fs::remove_file(p);
    }
}

/// Seconds as people read them: `0.4 s`, `38 s`, `2 min 10 s`, `3 h 05 min`,
/// `2.5 days`.
pub fn human_secs(s: f64) -> String {
    if s < 10.0 {
        format!("{s:.1} s")
    } else if s < 60.0 {
        format!("{s:.0} s")
    } else if s < 3600.0 - 0.5 {
        // Whole seconds first, so that 119.6 s reads 2 min 0 s, never 1 min 60 s.
        let t = s.round();
        let m = (t / 60.0).floor();
        format!("{m:.0} min {:.0} s", t - 60.0 * m)
    } else if s < 3.0 * 86_400.0 {
        let t = (s / 60.0).round();
        let h = (t / 60.0).floor();
        format!("{h:.0} h {:02.0} min", t - 60.0 * h)
    } else {
        format!("{:.1} days", s / 86_400.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOME: Kernel = Kernel::new("some-kernel", "moves");

    #[test]
    fn rates_round_trip_through_the_cache_json_and_price_work() {
        let kernels = [SOME, WRITER];
        let r = Rates {
            per_sec: kernels.iter().map(|&k| (k, 1000.0)).collect(),
            overhead: Overhead {
                case_secs: 1e-5,
                file_secs: 2e-3,
                writer_bytes: 1 << 20,
            },
            binary: binary_id(),
            cpu: cpu_model(),
        };
        assert_eq!(Rates::from_json(&r.to_json(), &kernels), Some(r.clone()));
        // 2000 units at 1000/s, then 500 at 1000/s: 2.5 s.
        let w = [(SOME, 2000), (WRITER, 500)];
        assert!((r.secs(&w) - 2.5).abs() < 1e-9);
        let mut other = r.to_json();
        other["cpu"] = json!("another CPU");
        assert_eq!(Rates::from_json(&other, &kernels), None);
        // A kernel added since the cache was written: measured again.
        let other = Kernel::new("other-kernel", "positions");
        assert_eq!(Rates::from_json(&r.to_json(), &[SOME, other]), None);
    }

    /// Two binaries (or CPUs) keep their rates in files of their own, so
    /// running one does not make the other measure again; the same binary
    /// on the same CPU finds its file.
    #[test]
    fn each_binary_and_cpu_has_its_own_cache_file() {
        let a = cache_name("0.1.0 2947055", "AMD EPYC");
        assert_eq!(a, cache_name("0.1.0 2947055", "AMD EPYC"));
        assert_ne!(a, cache_name("0.1.0 2947055-dirty", "AMD EPYC"));
        assert_ne!(a, cache_name("0.1.0 2947055", "Intel Xeon"));
        assert!(a.starts_with("calibration-") && a.ends_with(".json") && a.len() == 33);
    }

    /// Saving keeps the newest calibration files only; other files stay.
    #[test]
    fn the_cache_keeps_the_newest_calibrations() {
        let dir = tempfile::tempdir().unwrap();
        let t0 = std::time::SystemTime::now() - std::time::Duration::from_secs(1000);
        for i in 0..5u64 {
            let p = dir.path().join(format!("calibration-{i:016x}.json"));
            std::fs::write(&p, "{}").unwrap();
            let f = std::fs::File::options().write(true).open(&p).unwrap();
            f.set_modified(t0 + std::time::Duration::from_secs(i))
                .unwrap();
        }
        std::fs::write(dir.path().join("other.json"), "{}").unwrap();
        prune_cache(dir.path(), 2);
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [
                "calibration-0000000000000003.json",
                "calibration-0000000000000004.json",
                "other.json"
            ]
        );
    }

    #[test]
    fn work_adds_kernel_by_kernel() {
        let mut a = vec![(SOME, 2)];
        add(&mut a, &[(WRITER, 3), (SOME, 5)]);
        assert_eq!(a, [(SOME, 7), (WRITER, 3)]);
    }

    #[test]
    fn seconds_read_as_people_read_them() {
        assert_eq!(human_secs(0.42), "0.4 s");
        assert_eq!(human_secs(130.0), "2 min 10 s");
        // Rounding carries into the minutes and hours.
        assert_eq!(human_secs(599.6), "10 min 0 s");
        assert_eq!(human_secs(3599.8), "1 h 00 min");
        assert_eq!(human_secs(7199.0), "2 h 00 min");
        assert_eq!(human_secs(3600.0 * 3.0 + 300.0), "3 h 05 min");
        assert_eq!(human_secs(86_400.0 * 4.0), "4.0 days");
    }
}
