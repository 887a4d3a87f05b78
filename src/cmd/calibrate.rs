//! `nimlab calibrate`: measures each kernel of the cost model on this
//! machine ([`crate::cost`]) on fixed small inputs, each probe on one
//! thread, and caches the rates; the dry run and the run's estimates read
//! the cache (measuring first when there is none for this binary and CPU:
//! quickly, the probes shared among the threads, for a dry run).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};

use crate::cost::{self, Kernel, Overhead, Rates};
use crate::data::{Dataset, Table};
use crate::family::{self, FAMILIES};
use crate::mem::peak_memory;
use crate::mem::thread_cpu;

/// Measures every kernel (one thread; about two and a half seconds in all).
pub fn measure() -> Result<Rates> {
    measure_in(Rounds::Full)
}

/// How many times each kernel's probe is run.
#[derive(Clone, Copy, PartialEq)]
enum Rounds {
    /// Once untimed, then [`ROUNDS`] rounds: `nimlab calibrate`, and a run
    /// with none cached.
    Full,
    /// Once untimed, then one round, the probes shared among `threads`
    /// threads (each probe on one thread, its time that thread's CPU
    /// time): a dry run, which must answer in under 2 s (0.8 s on 2
    /// threads). Unwarmed, the rates were 0.4–0.7× the full calibration's,
    /// and 0.02× where a probe fills a table on first use.
    Quick {
        /// Threads measuring at once.
        threads: usize,
    },
}

/// [`measure`] with each probe run as `rounds` says.
fn measure_in(rounds: Rounds) -> Result<Rates> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build()?;
    // First, while the process holds little: the writer's own memory.
    let writer_bytes = pool.install(writer_memory_probe)?;
    let mut per_sec = pool.install(|| kernel_rates(rounds))?;
    let (units, secs) = pool.install(writer_probe)?;
    per_sec.push((cost::WRITER, rate(units, secs)));
    let mut rates = Rates {
        per_sec,
        overhead: Overhead {
            writer_bytes,
            ..Overhead::default()
        },
        binary: cost::binary_id(),
        cpu: cost::cpu_model(),
    };
    rates.overhead.file_secs = pool.install(file_probe)?;
    rates.overhead.case_secs = pool.install(|| case_probe(&rates))?;
    Ok(rates)
}

/// Rounds of the kernels' probes: each kernel's rate is the median of its
/// rounds' rates. The rounds are interleaved (every probe once a round), so
/// that a stretch when the machine runs slower weighs on a round of every
/// kernel rather than on all the rounds of one; the median also drops a
/// first round that pays for fresh memory. (On the shared 2-core machine
/// every kernel runs at about 0.55–0.6× its speed, in this thread's CPU
/// time, for stretches of a second to several seconds, while a chain of
/// dependent floating-point operations keeps its speed: the processor's
/// core is shared beneath the machine, its clock is not slowed. A stretch
/// covering a whole calibration moves every rate together; the rounds do
/// not remove that.)
const ROUNDS: usize = 3;
/// The least CPU time one probe is repeated for within a round: the shortest
/// probes take well under a millisecond, where a clock tick or an
/// interruption would decide their rate.
const ROUND_SECS: f64 = 0.01;

/// Every family's kernels measured as `how` says: [`ROUNDS`] rounds after
/// one untimed, the median rate of each, on the current thread; or one
/// round after one untimed, shared among threads ([`shared_round`]).
fn kernel_rates(how: Rounds) -> Result<Vec<(Kernel, f64)>> {
    let probes: Vec<family::calibration::Probe> =
        FAMILIES.iter().flat_map(|f| f.probes()).collect();
    let mut kernels: Vec<Kernel> = Vec::new();
    for p in &probes {
        if !kernels.contains(&p.kernel) {
            kernels.push(p.kernel);
        }
    }
    let kernel_of: Vec<usize> = probes
        .iter()
        .map(|p| kernels.iter().position(|k| *k == p.kernel).unwrap_or(0))
        .collect();
    let rounds_done: Vec<Vec<(usize, u64, f64)>> = match how {
        Rounds::Quick { threads } => vec![shared_round(&probes, threads)?],
        Rounds::Full => {
            // Each probe once, untimed: what a probe fills on first use (a
            // memo it keeps, fresh memory) is not what its kernel's unit
            // costs.
            for p in &probes {
                untimed(p)?;
            }
            let round = || -> Result<Vec<_>> {
                let timed = probes.iter().map(measured);
                timed
                    .enumerate()
                    .map(|(i, r)| r.map(|(u, s)| (i, u, s)))
                    .collect()
            };
            (0..ROUNDS).map(|_| round()).collect::<Result<_>>()?
        }
    };
    let mut rounds: Vec<Vec<f64>> = vec![Vec::new(); kernels.len()];
    for done in rounds_done {
        // A kernel measured by several probes: their units over their time.
        let mut sum = vec![(0u64, 0f64); kernels.len()];
        for (i, units, secs) in done {
            sum[kernel_of[i]].0 += units;
            sum[kernel_of[i]].1 += secs;
        }
        for (r, (units, secs)) in rounds.iter_mut().zip(sum) {
            r.push(rate(units, secs));
        }
    }
    Ok(kernels
        .into_iter()
        .zip(rounds)
        .map(|(k, r)| (k, median(r)))
        .collect())
}

/// A probe's round ([`repeated`]), its error naming its kernel.
fn measured(p: &family::calibration::Probe) -> Result<(u64, f64)> {
    repeated(p.run).with_context(|| format!("measuring the {} kernel", p.kernel.name()))
}

/// A probe run once, untimed, its error naming its kernel.
fn untimed(p: &family::calibration::Probe) -> Result<()> {
    (p.run)()
        .map(drop)
        .with_context(|| format!("measuring the {} kernel", p.kernel.name()))
}

/// Every probe once untimed then one round ([`measured`]), the probes
/// taken in turn by `threads` threads, each on a pool of one thread: each
/// probe's index, units and seconds.
fn shared_round(
    probes: &[family::calibration::Probe],
    threads: usize,
) -> Result<Vec<(usize, u64, f64)>> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || -> Result<Vec<(usize, u64, f64)>> {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build()?;
        let mut out = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(p) = probes.get(i) else {
                return Ok(out);
            };
            pool.install(|| untimed(p))?;
            let (units, secs) = pool.install(|| measured(p))?;
            out.push((i, units, secs));
        }
    };
    let done: Vec<Result<Vec<_>>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.max(1)).map(|_| s.spawn(work)).collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("a probe panicked")))
            })
            .collect()
    });
    let mut all = Vec::new();
    for d in done {
        all.extend(d?);
    }
    Ok(all)
}

/// A probe run again until it has spent [`ROUND_SECS`]: its units and
/// seconds, summed.
fn repeated(run: fn() -> Result<u64>) -> Result<(u64, f64)> {
    let (mut units, mut secs) = (0u64, 0f64);
    while secs < ROUND_SECS {
        let (u, s) = timed(run)?;
        units += u;
        secs += s;
    }
    Ok((units, secs))
}

/// Units per second (at least one unit over at least a microsecond).
fn rate(units: u64, secs: f64) -> f64 {
    units.max(1) as f64 / secs.max(1e-6)
}

/// The median of some numbers (the mean of the middle two when even; 0
/// when none).
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// A small part's rows: one row of the probes' dataset.
fn one_row() -> Result<(Table, &'static Dataset)> {
    let (f, p) = overhead_probes()?;
    probe_rows(f, &p, p.one_row)
}

/// The first family offering the sweeps that measure a run's fixed costs.
fn overhead_probes() -> Result<(
    &'static dyn family::Family,
    family::calibration::OverheadProbes,
)> {
    FAMILIES
        .iter()
        .find_map(|f| f.capabilities().overhead_probes.map(|p| (*f, p)))
        .context("no family offers the probes of a run's fixed costs")
}

/// The rows of the probes' dataset a small sweep (given as YAML) makes, and
/// that dataset: what the writer's probes write.
fn probe_rows(
    f: &'static dyn family::Family,
    p: &family::calibration::OverheadProbes,
    yaml: &str,
) -> Result<(Table, &'static Dataset)> {
    let table =
        family::sweep_rows(f, yaml, p.dataset)?.with_context(|| format!("{} rows", p.dataset))?;
    let ds = f
        .datasets()
        .iter()
        .find(|d| d.name == p.dataset)
        .with_context(|| format!("the {} dataset", p.dataset))?;
    Ok((table, ds))
}

/// Where the file probes write: beside the cache (the user's disk, as an
/// output folder usually is), else the temporary folder.
fn probe_dir() -> Result<PathBuf> {
    let base = cost::cache_file()
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .unwrap_or_else(std::env::temp_dir);
    fresh_dir(&base, "calibrate")
}

/// A new directory `PREFIX-<pid>-<n>` under `base`: one per probe, not per
/// process, so two calibrations in one process (tests running side by side)
/// do not remove each other's files.
pub(super) fn fresh_dir(base: &Path, prefix: &str) -> Result<PathBuf> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = base.join(format!("{prefix}-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// The memory writing costs a process beyond its tables: its peak resident
/// size before and after writing its first part (a one-row one).
fn writer_memory_probe() -> Result<u64> {
    let (table, ds) = one_row()?;
    let dir = probe_dir()?;
    let before = peak_memory().unwrap_or(0);
    let r =
        crate::store::parquet::write_part(&dir.join("part.parquet"), ds, ("c", "p"), vec![table]);
    let after = peak_memory().unwrap_or(0);
    let _ = std::fs::remove_dir_all(&dir);
    r?;
    Ok(after.saturating_sub(before))
}

/// Wall seconds per small file a chunk writes: one-row parts written (and
/// synced, as a run does) one after another, the median of their times (a
/// disk's occasional slow sync is not what a chunk's files usually cost).
fn file_probe() -> Result<f64> {
    const FILES: u32 = 8;
    let (table, ds) = one_row()?;
    let dir = probe_dir()?;
    let mut secs = Vec::new();
    let r = (0..FILES).try_for_each(|i| {
        let path = dir.join(format!("part-{i}.parquet"));
        let t = Instant::now();
        crate::store::parquet::write_part(&path, ds, ("c", "p"), vec![table.clone()])?;
        secs.push(t.elapsed().as_secs_f64());
        Ok::<(), anyhow::Error>(())
    });
    let _ = std::fs::remove_dir_all(&dir);
    r?;
    Ok(median(secs))
}

/// CPU seconds per case beyond its kernels' work: the probes' couple of
/// hundred tiny cases solved and checked as a run does, less their work at
/// `rates`.
fn case_probe(rates: &Rates) -> Result<f64> {
    let (f, p) = overhead_probes()?;
    let mut stated = (0, Vec::new());
    let (_, secs) = timed(|| {
        stated = family::calibration::probe_cases(f, p.cases)?;
        Ok(0)
    })?;
    let (cases, work) = stated;
    Ok(((secs - rates.secs(&work)) / cases.max(1) as f64).max(0.0))
}

/// Runs `f` and returns its units and the seconds this thread spent on the
/// CPU meanwhile ([`thread_cpu`]: other programs running on a loaded machine
/// do not slow the rates down), else wall seconds.
fn timed(f: impl FnOnce() -> Result<u64>) -> Result<(u64, f64)> {
    let (c0, t0) = (thread_cpu(), Instant::now());
    let units = f()?;
    let c1 = thread_cpu();
    let secs = if c1 > c0 {
        c1 - c0
    } else {
        t0.elapsed().as_secs_f64()
    };
    Ok((units, secs))
}

/// The writer's probe: the rows of the probes' `rows` sweep written as one
/// Parquet part to a temporary file, timed; its row bytes.
fn writer_probe() -> Result<(u64, f64)> {
    let (f, p) = overhead_probes()?;
    let (table, ds) = probe_rows(f, &p, p.rows)?;
    let units = table.rows() as u64 * ds.row_bytes();
    let dir = fresh_dir(&std::env::temp_dir(), "nimlab-calibrate")?;
    let path = dir.join("part.parquet");
    let r = timed(|| {
        crate::store::parquet::write_part(&path, ds, ("calibrate", "probe"), vec![table])?;
        Ok(units)
    });
    let _ = std::fs::remove_dir_all(&dir);
    r
}

/// The cached rates of this binary on this CPU, or measured now (and
/// cached), saying so on standard error unless `quiet`; and whether they
/// were measured now (the writer's probes then wrote Parquet parts in this
/// process, which an estimate's memory needs: [`crate::sweep::estimate`]).
/// A dry run measures them quickly ([`Rounds::Quick`]) when none are
/// cached; a run reads those too (measuring them again would cost the run
/// the 2 s its estimate does not count: `nimlab calibrate` does).
pub fn rates(quiet: bool, dry_run: bool) -> Result<(Rates, bool)> {
    if let Some(r) = cost::cached(&family::calibration::kernels()) {
        return Ok((r, false));
    }
    if !quiet {
        eprintln!(
            "nimlab: measuring this machine's kernels for the estimates (once per binary and CPU{}; `nimlab calibrate` measures again)…",
            if dry_run {
                ", quickly for a dry run"
            } else {
                ""
            }
        );
    }
    let r = measure_in(if dry_run {
        Rounds::Quick {
            threads: rayon::current_num_threads(),
        }
    } else {
        Rounds::Full
    })?;
    cost::save(&r, dry_run);
    Ok((r, true))
}

/// `nimlab calibrate`: measures, caches and prints the rates.
pub fn calibrate() -> Result<ExitCode> {
    let t = Instant::now();
    let r = measure()?;
    cost::save(&r, false);
    let mut s = format!(
        "kernel rates on one thread ({}, {}), measured in {:.1} s:\n",
        r.cpu,
        r.binary,
        t.elapsed().as_secs_f64()
    );
    for (k, rate) in &r.per_sec {
        s += &format!("  {:<14} {rate:>12.4e} {} per second\n", k.name(), k.unit());
    }
    let o = &r.overhead;
    s += &format!(
        "fixed costs: {:.2} ms per case, {:.2} ms per file written, writing ~{} beyond the tables\n",
        o.case_secs * 1e3,
        o.file_secs * 1e3,
        crate::mem::human_bytes(o.writer_bytes)
    );
    match cost::cache_file() {
        Some(p) => s += &format!("cached in {}\n", p.display()),
        None => s += "not cached (no cache directory: set XDG_CACHE_HOME or HOME)\n",
    }
    super::print(&s)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The median of a kernel's rounds: the middle one, the mean of the
    /// middle two when even, whatever the order.
    #[test]
    fn median_of_rounds() {
        assert_eq!(median(vec![5.0, 1.0, 4.0, 2.0, 3.0]), 3.0);
        assert_eq!(median(vec![9.0, 1.0, 1.5, 2.5]), 2.0);
        assert_eq!(median(vec![7.0]), 7.0);
        assert_eq!(median(Vec::new()), 0.0);
        // One slow round (a first one paying for fresh memory) does not move it.
        assert_eq!(median(vec![0.2, 3.0, 3.1, 2.9, 3.05]), 3.0);
    }
}
