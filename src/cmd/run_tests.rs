//! `nimlab run` against a full disk (an injected write failure,
//! [`crate::store::atomic::faults`]) and orphaned temporaries.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::{RunArgs, run};
use crate::store::atomic::{STALE_AFTER, faults};
use crate::store::tmp_owner;
use crate::sweep::RunOptions;

/// Two sweeps, tables and figures (PNG and SVG), a report.
fn spec() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/valid/small.yaml")
}

fn args(out: &Path) -> RunArgs {
    RunArgs {
        specs: vec![spec()],
        opts: RunOptions {
            out: out.to_path_buf(),
            force: false,
            quiet: true,
            shard: None,
        },
        no_render: false,
        no_report: false,
        dry_run: false,
        list: false,
    }
}

/// Every file under `dir`: (path, size).
fn files(dir: &Path) -> Vec<(PathBuf, u64)> {
    let mut v = Vec::new();
    for e in fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            v.extend(files(&p));
        } else {
            v.push((p.clone(), e.metadata().map(|m| m.len()).unwrap_or(0)));
        }
    }
    v
}

fn temporaries(dir: &Path) -> Vec<PathBuf> {
    files(dir)
        .into_iter()
        .map(|f| f.0)
        .filter(|p| p.file_name().unwrap().to_string_lossy().contains(".tmp-"))
        .collect()
}

#[test]
fn a_run_that_fails_to_write_leaves_no_temporary() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    run(args(&out)).unwrap();
    let all = files(&out);
    let total: u64 = all.iter().map(|f| f.1).sum();
    assert!(
        all.iter()
            .any(|f| f.0.extension().is_some_and(|e| e == "png"))
    );
    // The disk fills at points across the run: in the data, the tables, the
    // figures, the report.
    let figures = out.join("small/figures");
    let in_figures: u64 = all
        .iter()
        .filter(|f| f.0.starts_with(&figures))
        .map(|f| f.1)
        .sum();
    let mut failed_at = Vec::new();
    let points = [0, 20, 100, 300, 500, 700, 850, 950, 990].map(|m| (&out, total * m / 1000));
    for (under, bytes) in points
        .into_iter()
        .chain([(&figures, 0), (&figures, in_figures / 2)])
    {
        fs::remove_dir_all(&out).unwrap();
        let err = {
            let _full = faults::disk_full_under(under, bytes as i64);
            run(args(&out)).expect_err("the disk is full")
        };
        let msg = format!("{err:#}");
        assert!(msg.contains("No space left on device"), "{msg}");
        assert_eq!(temporaries(&out), Vec::<PathBuf>::new(), "after: {msg}");
        failed_at.push(msg);
    }
    let written = |what: &str| failed_at.iter().any(|m| m.contains(what));
    assert!(
        written(".parquet") && written("/tables/") && written("/figures/"),
        "{failed_at:#?}"
    );
    // The next run completes what is missing.
    fs::remove_dir_all(&out).unwrap();
    run(args(&out)).unwrap();
    assert_eq!(files(&out).len(), all.len());
}

#[test]
fn the_next_run_prunes_orphaned_temporaries_everywhere_it_writes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    run(args(&out)).unwrap();
    let me = tmp_owner();
    let host = me.split('~').next().unwrap();
    let mut sleeper = std::process::Command::new("sleep")
        .arg("60")
        .spawn()
        .unwrap();
    let plant = |rel: &str, name: String| {
        let p = out.join(rel).join(name);
        fs::write(&p, b"half a file").unwrap();
        p
    };
    let dead = format!("{host}~4000000000");
    let orphans = [
        plant(
            "small/figures/two-heaps",
            format!(".loss_scatter.tmp-{dead}-0.png"),
        ),
        plant(
            "small/tables/one-heap",
            format!(".winning_table.tmp-{dead}-1.md"),
        ),
        plant("", format!(".REPORT.tmp-{dead}-2.html")),
        plant("small/_report", format!(".one-heap.tmp-{dead}-3.json")),
        // This process's pid, not one of its temporaries: an earlier process
        // had the same pid (a container's pid 1).
        plant("small/figures/two-heaps", format!(".x.tmp-{me}-9999.png")),
        plant(
            "small/tables/two-heaps",
            ".old.tmp-elsewhere~7-0.csv".into(),
        ),
    ];
    let old = SystemTime::now() - STALE_AFTER - Duration::from_secs(60);
    fs::File::options()
        .write(true)
        .open(&orphans[5])
        .unwrap()
        .set_modified(old)
        .unwrap();
    let concurrent = [
        plant(
            "small/figures/two-heaps",
            format!(".y.tmp-{host}~{}-0.png", sleeper.id()),
        ),
        plant("small/tables/one-heap", ".z.tmp-elsewhere~7-1.md".into()),
    ];
    run(args(&out)).unwrap();
    sleeper.kill().unwrap();
    sleeper.wait().unwrap();
    for p in &orphans {
        assert!(!p.exists(), "orphan left: {}", p.display());
    }
    for p in &concurrent {
        assert!(
            p.exists(),
            "a concurrent run's temporary removed: {}",
            p.display()
        );
    }
}

/// The manifest of a run records the six phases, each with non-negative wall
/// and CPU seconds; the phases' CPU time is at most the process's over the
/// run (which also counts other tests running at the same time), and the
/// stages that ran took some time.
#[test]
fn the_manifest_records_every_phase() {
    use crate::mem::process_cpu;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let cpu0 = process_cpu();
    run(args(&out)).unwrap();
    let cpu = process_cpu() - cpu0;
    let text = fs::read_to_string(out.join("small/manifest.json")).unwrap();
    let m: serde_json::Value = serde_json::from_str(&text).unwrap();
    let phases = m["phases"].as_object().expect("a `phases` object");
    let names: Vec<&str> = phases.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        ["plan", "solve", "write", "render", "check", "report"]
    );
    let get = |p: &str, k: &str| m["phases"][p][k].as_f64().unwrap();
    let mut total = 0.0;
    for p in &names {
        for k in ["wall_seconds", "cpu_seconds"] {
            assert!(get(p, k) >= 0.0, "{p} {k}: {}", get(p, k));
        }
        total += get(p, "cpu_seconds");
    }
    assert!(total <= cpu + 0.01, "phases {total} s, process {cpu} s");
    assert!(get("solve", "cpu_seconds") + get("write", "cpu_seconds") <= total);
    // Planned, solved, wrote, rendered (figures) and reported: each took time.
    for p in ["plan", "solve", "write", "render", "report"] {
        assert!(get(p, "wall_seconds") > 0.0, "{p}");
    }
    // No conjectures: nothing checked.
    assert_eq!(get("check", "wall_seconds"), 0.0);
}
