//! Memory helpers shared by the solvers.

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

/// A byte count for people: `1.5 GiB`, `320.0 MiB`, `2.0e6 TiB`.
pub fn human_bytes(b: u64) -> String {
    let b = b as f64;
    let gib = (1u64 << 30) as f64;
    if b >= 1024.0 * 1024.0 * gib {
        format!("{:.1e} TiB", b / (1024.0 * gib))
    } else if b >= 1024.0 * gib {
        format!("{:.1} TiB", b / (1024.0 * gib))
    } else if b >= gib {
        format!("{:.1} GiB", b / gib)
    } else {
        format!("{:.1} MiB", b / (1u64 << 20) as f64)
    }
}

/// `MemTotal` of a `/proc/meminfo` text, in bytes.
pub fn parse_meminfo_total(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let mut it = line["MemTotal:".len()..].split_whitespace();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meminfo_and_cgroup_texts_are_read() {
        let t = "MemTotal:       24684092 kB\nMemFree:  100 kB\nMemAvailable:   21179472 kB\n";
        assert_eq!(parse_meminfo_total(t), Some(24684092 * 1024));
        assert_eq!(parse_meminfo_total("MemFree: 3 kB\n"), None);
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
}
