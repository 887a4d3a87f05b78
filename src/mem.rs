//! Memory helpers shared by the solvers, byte sizes as people write them
//! (`--memory 2GiB`), and the process probes: what this process holds and
//! has used (resident and peak memory, CPU clocks, storage I/O), read by
//! the sweep's manifests and estimates, calibration and `nimlab board`.

pub mod heap;

/// A zeroed vector whose pages the kernel may back with 2 MiB huge pages
/// (Linux transparent huge pages, on request): a 10^8-value Grundy sequence
/// otherwise spends a third of its time in page faults, and a 2^28-position
/// bit table on two threads more than half of it (page faults and TLB
/// shootdowns serialise the threads).
pub fn zeroed_huge<T: Copy + Default>(len: usize) -> Vec<T> {
    let v = vec![T::default(); len];
    #[cfg(target_os = "linux")]
    {
        let bytes = len * std::mem::size_of::<T>();
        if bytes >= 8 << 20 {
            let start = v.as_ptr() as usize;
            let page = 4096;
            let aligned = start.div_ceil(page) * page;
            let end = start + bytes;
            if end > aligned {
                // SAFETY: the range lies inside the vector's allocation, which is
                // page-aligned here; MADV_HUGEPAGE is only advice (it never changes
                // the contents) and a failure is harmless, so the result is ignored.
                unsafe {
                    libc::madvise(
                        aligned as *mut libc::c_void,
                        end - aligned,
                        libc::MADV_HUGEPAGE,
                    );
                }
            }
        }
    }
    v
}

/// The memory this process may use, in bytes: the machine's physical memory
/// (`MemTotal` in `/proc/meminfo`) or the control group's limit if that is
/// lower (cgroup v2 `memory.max`, v1 `memory.limit_in_bytes`). `None` where
/// neither can be read (not Linux).
pub fn machine_memory() -> Option<u64> {
    let total = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| parse_meminfo_total(&t));
    let cgroup = cgroup_limit();
    match (total, cgroup) {
        (Some(t), Some(c)) => Some(t.min(c)),
        (t, c) => t.or(c),
    }
}

/// The budget a single case may plan for: 85 % of [`machine_memory`] (the
/// rest for the system, the writer and the other threads' small cases), or
/// 16 GiB where the machine's memory cannot be read.
pub fn case_budget() -> u64 {
    machine_memory().map_or(16 << 30, |m| m / 20 * 17)
}

/// "the limit is X (85 % of this machine's Y)", for refusals.
pub fn budget_text(budget: u64) -> String {
    match machine_memory() {
        Some(m) => format!(
            "the limit is {} (85 % of this machine's {}, read from the system)",
            human_bytes(budget),
            human_bytes(m)
        ),
        None => format!(
            "the limit is {} (this machine's memory could not be read)",
            human_bytes(budget)
        ),
    }
}

/// A byte count for people, also absurd ones: [`fmt_bytes`] up to 1024 TiB,
/// then `2.0e6 TiB`.
pub fn human_bytes(b: u64) -> String {
    if b >= 1 << 50 {
        format!("{:.1e} TiB", b as f64 / (1u64 << 40) as f64)
    } else {
        fmt_bytes(b)
    }
}

/// `MemTotal` of a `/proc/meminfo` text, in bytes.
pub fn parse_meminfo_total(text: &str) -> Option<u64> {
    kib_bytes(&field(text, "MemTotal")?)
}

/// The value of the first `key: value` line of a `/proc` text
/// (`/proc/meminfo`, `/proc/cpuinfo`, `/proc/self/status`), trimmed.
pub fn field(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        (k.trim() == key).then(|| v.trim().to_string())
    })
}

/// The field `key` of the `/proc` file `file` ([`field`]); `None` where the
/// file or the field is missing (not Linux).
pub fn proc_field(file: &str, key: &str) -> Option<String> {
    field(&std::fs::read_to_string(file).ok()?, key)
}

/// A `/proc` size (`21179472 kB`, or a bare number of kB), in bytes.
pub fn kib_bytes(value: &str) -> Option<u64> {
    let mut it = value.split_whitespace();
    let n: u64 = it.next()?.parse().ok()?;
    match it.next() {
        Some("kB") | None => n.checked_mul(1024),
        _ => None,
    }
}

/// A cgroup limit file's value in bytes; `max` (v2) and the v1 "unlimited"
/// value (a number near 2^63) mean no limit.
pub fn parse_cgroup_limit(text: &str) -> Option<u64> {
    let n: u64 = text.trim().parse().ok()?;
    (n < 1 << 60).then_some(n)
}

fn cgroup_limit() -> Option<u64> {
    // The process's own group (v2: the `0::` line; v1: the `memory` line),
    // then the root of the mount (inside a container the group is the root).
    let own = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    let mut files = Vec::new();
    for line in own.lines() {
        let mut parts = line.splitn(3, ':');
        let (_, ctrl, path) = (parts.next(), parts.next(), parts.next());
        match (ctrl, path) {
            (Some(""), Some(p)) => files.push(format!("/sys/fs/cgroup{p}/memory.max")),
            (Some(c), Some(p)) if c.split(',').any(|c| c == "memory") => {
                files.push(format!("/sys/fs/cgroup/memory{p}/memory.limit_in_bytes"))
            }
            _ => {}
        }
    }
    files.push("/sys/fs/cgroup/memory.max".into());
    files.push("/sys/fs/cgroup/memory/memory.limit_in_bytes".into());
    files
        .iter()
        .filter_map(|f| std::fs::read_to_string(f).ok())
        .filter_map(|t| parse_cgroup_limit(&t))
        .min()
}

/// Parses a byte size: a number with an optional unit, binary multiples
/// (`512M`, `2G`, `2GiB`, `1.5GiB`, `4096`; K/M/G/T and KiB/MiB/GiB/TiB, also
/// KB/MB/GB/TB, all as powers of 1024 as Slurm's `--mem` reads them).
///
/// Written here rather than taken from a crate: the size crates read `G`
/// and `GB` as 10^9, while Slurm (whose `--mem` values the scripts pass
/// through) reads them as 2^30.
pub fn parse_bytes(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let x: f64 = num
        .parse()
        .map_err(|_| format!("{s:?} is not a size (e.g. 2GiB, 512M, 1.5G)"))?;
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        u => {
            return Err(format!(
                "{s:?}: unknown unit {u:?} (use K, M, G, T or KiB, MiB, GiB, TiB)"
            ));
        }
    };
    let v = x * (1u64 << shift) as f64;
    if !(1.0..1.8e19).contains(&v) {
        return Err(format!("{s:?} is not a positive size"));
    }
    Ok(v as u64)
}

/// A byte count for people: `512 MiB`, `2.00 GiB`.
pub fn fmt_bytes(b: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 || v.fract() == 0.0 {
        format!("{v:.0} {}", UNITS[u])
    } else {
        format!("{v:.2} {}", UNITS[u])
    }
}

/// The memory to plan with when none is given: half the available memory.
pub fn default_memory() -> u64 {
    proc_field("/proc/meminfo", "MemAvailable")
        .and_then(|v| kib_bytes(&v))
        .map_or(4 << 30, |b| b / 2)
}

/// The Slurm allocation of this task, if any (`SLURM_MEM_PER_NODE` or
/// `SLURM_MEM_PER_CPU` × CPUs, in MiB).
pub fn slurm_memory() -> Option<u64> {
    let var = |k: &str| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
    };
    if let Some(mb) = var("SLURM_MEM_PER_NODE") {
        return Some(mb << 20);
    }
    let per_cpu = var("SLURM_MEM_PER_CPU")?;
    Some((per_cpu * var("SLURM_CPUS_PER_TASK").unwrap_or(1)) << 20)
}

// Process probes: what this process holds and has used, read by the sweep
// (manifests, estimates), calibration and the out-of-core driver.

/// Resident memory of this process now, in bytes (Linux), if known: what it
/// holds, where [`peak_memory`] keeps the high-water mark of sweeps done.
pub fn resident_memory() -> Option<u64> {
    kib_bytes(&proc_field("/proc/self/status", "VmRSS")?)
}

/// Gives the memory the allocator keeps but no longer uses back to the
/// system (glibc's `malloc_trim`; elsewhere nothing), so that what the
/// process then holds is what it uses.
pub fn release_unused() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` only returns free pages to the system.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Peak resident memory of this process so far, in bytes (Linux), if known.
pub fn peak_memory() -> Option<u64> {
    kib_bytes(&proc_field("/proc/self/status", "VmHWM")?)
}

/// Starts the high-water mark of [`peak_memory`] again from what the process
/// holds now (Linux: `5` written to `/proc/self/clear_refs`), so that an
/// experiment's measured peak is its own, not an earlier experiment's
/// checking or rendering in the same run. Whether it could.
pub fn restart_peak_memory() -> bool {
    let _held = PEAK.lock().unwrap_or_else(|e| e.into_inner());
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// Held while the high-water mark starts again, and by tests reading it
/// across an allocation (tests run side by side in one process).
static PEAK: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// CPU seconds this process has used so far (every thread, user + system).
pub fn process_cpu() -> f64 {
    // SAFETY: `getrusage` writes only into the struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } != 0 {
        return 0.0;
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    secs(u.ru_utime) + secs(u.ru_stime)
}

/// CPU seconds the calling thread has used so far.
pub fn thread_cpu() -> f64 {
    // SAFETY: `clock_gettime` writes only into the struct it is given.
    let mut t: libc::timespec = unsafe { std::mem::zeroed() };
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } != 0 {
        return 0.0;
    }
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// This process's storage I/O so far (`read_bytes`, `write_bytes` of
/// /proc/self/io: what reached the block device, page cache hits excluded),
/// if the kernel reports it.
pub fn process_io() -> Option<(u64, u64)> {
    let text = std::fs::read_to_string("/proc/self/io").ok()?;
    let field = |k: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(k))
            .and_then(|v| v.trim().parse::<u64>().ok())
    };
    Some((field("read_bytes:")?, field("write_bytes:")?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meminfo_and_cgroup_texts_are_read() {
        let t = "MemTotal:       24684092 kB\nMemFree:  100 kB\nMemAvailable:   21179472 kB\n";
        assert_eq!(parse_meminfo_total(t), Some(24684092 * 1024));
        assert_eq!(parse_meminfo_total("MemFree: 3 kB\n"), None);
        assert_eq!(field(t, "MemAvailable").as_deref(), Some("21179472 kB"));
        assert_eq!(kib_bytes("21179472 kB"), Some(21179472 * 1024));
        assert_eq!(kib_bytes("3 MB"), None);
        let cpu = "processor\t: 0\nmodel name\t: AMD EPYC 7B13\nflags\t\t: fpu\n";
        assert_eq!(field(cpu, "model name").as_deref(), Some("AMD EPYC 7B13"));
        assert_eq!(field(cpu, "model"), None);
        assert_eq!(parse_cgroup_limit("max\n"), None);
        assert_eq!(parse_cgroup_limit("9223372036854771712\n"), None);
        assert_eq!(parse_cgroup_limit("4294967296\n"), Some(4 << 30));
    }

    #[test]
    fn this_machine_has_a_readable_memory_size() {
        if cfg!(target_os = "linux") {
            let m = machine_memory().expect("Linux has /proc/meminfo");
            assert!((256 << 20..1 << 50).contains(&m), "{m}");
            assert!(case_budget() < m);
        }
    }

    #[test]
    fn sizes_parse_as_slurm_reads_them_and_print_back() {
        assert_eq!(parse_bytes("2GiB").unwrap(), 2 << 30);
        assert_eq!(parse_bytes("2G").unwrap(), 2 << 30);
        assert_eq!(parse_bytes("2GB").unwrap(), 2 << 30);
        assert_eq!(parse_bytes("512M").unwrap(), 512 << 20);
        assert_eq!(parse_bytes("1.5GiB").unwrap(), 3 << 29);
        assert_eq!(parse_bytes("4096").unwrap(), 4096);
        assert_eq!(parse_bytes(" 1t ").unwrap(), 1 << 40);
        assert!(
            parse_bytes("2 parsecs")
                .unwrap_err()
                .contains("unknown unit")
        );
        assert!(parse_bytes("-1G").is_err());
        assert!(parse_bytes("0").is_err());
        assert!(parse_bytes("").is_err());
        assert_eq!(fmt_bytes(0), "0 B");
        assert_eq!(fmt_bytes(1000), "1000 B");
        assert_eq!(fmt_bytes(2 << 30), "2 GiB");
        assert_eq!(fmt_bytes(1536 << 20), "1.50 GiB");
        assert_eq!(fmt_bytes(5 << 40), "5 TiB");
    }

    /// What the process holds now counts a buffer it holds (in bytes, not
    /// KiB), and, once a large buffer is given back, falls below the
    /// high-water mark, which keeps it (Linux: VmRSS and VmHWM). The bounds
    /// are the buffers' own sizes, not a growth between two readings, so
    /// other tests freeing memory in the same process do not move them.
    #[test]
    fn resident_memory_is_what_is_held_now() {
        let _held = PEAK.lock().unwrap_or_else(|e| e.into_inner());
        let held = std::hint::black_box(vec![1u8; 64 << 20]);
        assert!(resident_memory().expect("VmRSS") >= held.len() as u64);
        drop(held);
        // A buffer this large is mapped on its own and unmapped when freed.
        let big = std::hint::black_box(vec![1u8; 256 << 20]);
        drop(big);
        let (now, peak) = (resident_memory(), peak_memory());
        assert!(
            now.expect("VmRSS") < peak.expect("VmHWM"),
            "{now:?} {peak:?}"
        );
    }

    /// The high-water mark starts again from what is held when an
    /// experiment starts: a 768 MiB buffer given back before is not in it
    /// (other tests running beside hold far less). Where the kernel does not
    /// let a process restart it (Linux before 4.0, some sandboxes), there is
    /// nothing to check.
    #[test]
    fn the_peak_starts_again_from_what_is_held() {
        let before = {
            let _held = PEAK.lock().unwrap_or_else(|e| e.into_inner());
            drop(std::hint::black_box(vec![1u8; 768 << 20]));
            peak_memory()
        };
        if !restart_peak_memory() {
            eprintln!("the high-water mark cannot be restarted here");
            return;
        }
        let (before, after) = (before.expect("VmHWM"), peak_memory().expect("VmHWM"));
        assert!(before >= 768 << 20, "{before}");
        assert!(after + (512 << 20) < before, "{after} after {before}");
    }
}
