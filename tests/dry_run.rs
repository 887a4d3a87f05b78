//! `nimlab run --dry-run` on every shipped spec: every sweep gets an
//! estimate (never "time unknown"), nothing is solved or written (no output
//! directory), and the kernel rates are measured once and cached under the
//! user's cache directory (`XDG_CACHE_HOME`): quickly by a dry run, in full
//! by `nimlab calibrate`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn nimlab() -> Command {
    Command::new(env!("CARGO_BIN_EXE_nimlab"))
}

/// Every shipped spec: `experiments/*.yaml`, `experiments/overnight/*.yaml`
/// and a new user's, `experiments/trial/*.yaml`.
fn shipped_specs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut specs = Vec::new();
    for dir in ["experiments", "experiments/overnight", "experiments/trial"] {
        for f in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = f.unwrap().path();
            if p.extension().is_some_and(|e| e == "yaml") {
                specs.push(p);
            }
        }
    }
    specs.sort();
    specs
}

/// Report 004's one-heap periods may be proven only at proof_cap: its
/// estimate shows the expected time, and the time at most beside it.
fn assert_expected_and_bound_differ(text: &str) {
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("cond13-beyond:"))
        .unwrap_or_else(|| panic!("{text}"));
    let (expected, rest) = line
        .split_once(" in ")
        .unwrap()
        .1
        .split_once(": ~")
        .unwrap()
        .1
        .split_once(" (at most ")
        .unwrap_or_else(|| panic!("{line}"));
    let bound = rest
        .split_once(") on ")
        .unwrap_or_else(|| panic!("{line}"))
        .0;
    assert_ne!(expected, bound, "{line}");
}

/// The kernel rates were measured once, then read from the cache: one
/// cache file, with a rate for every kernel.
fn assert_one_cache_file(cache: &Path) -> serde_json::Value {
    let files: Vec<_> = std::fs::read_dir(cache.join("nimlab"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".json"))
        .collect();
    assert_eq!(files.len(), 1, "one cache file for this binary: {files:?}");
    let cached = &files[0];
    let name = cached.file_name().unwrap().to_string_lossy();
    assert!(name.starts_with("calibration-"), "{name}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(cached).unwrap()).unwrap();
    for k in [
        "subtraction",
        "retrograde",
        "parity",
        "octal",
        "chord-memo",
        "chord-memo-hashed",
        "chord-table",
        "writer",
    ] {
        assert!(v["units_per_second"][k].as_f64().unwrap() > 0.0, "{k}: {v}");
    }
    v
}

#[test]
fn dry_runs_estimate_every_sweep_and_write_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let out = tmp.path().join("out");
    let specs = shipped_specs();
    assert!(specs.len() >= 15, "{specs:?}");
    for spec in &specs {
        let o = nimlab()
            .args(["run", "--dry-run", "--no-report", "--out"])
            .arg(&out)
            .arg(spec)
            .env("XDG_CACHE_HOME", &cache)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&o.stdout);
        let err = String::from_utf8_lossy(&o.stderr);
        // 0, or 2 when a sweep would be refused (its estimate is printed too).
        assert!(
            matches!(o.status.code(), Some(0 | 2)),
            "{}: {:?}\n{text}\n{err}",
            spec.display(),
            o.status
        );
        assert!(!text.contains("unknown"), "{}:\n{text}", spec.display());
        assert!(text.contains("CPU-hours"), "{}:\n{text}", spec.display());
        assert!(text.contains("\ntotal: "), "{}:\n{text}", spec.display());
        if spec.ends_with("report-004.yaml") {
            assert_expected_and_bound_differ(&text);
        }
        assert!(
            !out.exists(),
            "{}: the dry run wrote {}",
            spec.display(),
            out.display()
        );
    }
    // Measured quickly by the first dry run; a run reads them (it does
    // not spend the 2 s of a full calibration its estimate does not count),
    // `nimlab calibrate` measures them in full, in the same file.
    assert_eq!(assert_one_cache_file(&cache)["quick"], true);
    let spec = tmp.path().join("small.yaml");
    std::fs::write(
        &spec,
        "experiment: small\nsweeps:\n  - name: a\n    family: takeaway\n    take: {max: 3}\n    N: 0..20\n",
    )
    .unwrap();
    let o = nimlab()
        .args(["run", "-q", "--no-report", "--no-render", "--out"])
        .arg(&out)
        .arg(&spec)
        .env("XDG_CACHE_HOME", &cache)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(assert_one_cache_file(&cache)["quick"], true);
    let o = nimlab()
        .arg("calibrate")
        .env("XDG_CACHE_HOME", &cache)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(assert_one_cache_file(&cache)["quick"], false);
}

#[test]
fn list_reads_only_the_names() {
    // A spec whose sweep would take hours to plan exactly is listed by name.
    let tmp = tempfile::tempdir().unwrap();
    let spec = tmp.path().join("big.yaml");
    std::fs::write(
        &spec,
        "experiment: big-one\nsweeps:\n  - name: all\n    family: lines\n    board: {hexagons: {max_side: 1023}}\n",
    )
    .unwrap();
    let o = nimlab()
        .args(["run", "--list"])
        .arg(&spec)
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    assert_eq!(String::from_utf8_lossy(&o.stdout), "big-one\n");
}
