//! The provenance of a run: `<out>/<experiment>/manifest.json` (or one per
//! shard), with the spec verbatim, the build, the host, the times and the
//! checksums of the part files.

use std::path::Path;

use anyhow::Result;
use serde_json::{Value, json};

use super::SweepReport;
use super::phases::Phases;
use crate::spec::Experiment;
use crate::store::write_atomic;

fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|_| std::env::var("HOSTNAME").unwrap_or_else(|_| "unknown".into()))
}

/// Seconds since the Unix epoch, as text (no date crate needed for provenance).
pub fn now() -> String {
    let d = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    format!("{}", d.as_secs())
}

fn sweep_json(r: &SweepReport) -> Value {
    json!({
        "name": r.name, "cases": r.cases, "chunks_computed": r.computed, "chunks_reused": r.skipped,
        "solve_seconds": r.solve_secs, "write_seconds": r.write_secs,
        "wall_seconds": r.wall_secs, "notes": r.notes,
        "datasets": r.checksums.iter().map(|(d, parts, h)| json!({"dataset": d, "parts": parts, "xxh3_of_parts": h})).collect::<Vec<_>>(),
        "cases_timing": r.case_timing,
        "estimate": r.estimate.as_ref().map(|e| e.json(r.wall_secs)),
    })
}

/// Writes the manifest of a run of `exp` (shard `shard`, if any).
pub fn write(
    exp: &Experiment,
    exp_dir: &Path,
    shard: Option<(usize, usize)>,
    (started, wall): (&str, f64),
    reports: &[SweepReport],
) -> Result<()> {
    let manifest = json!({
        "experiment": exp.name,
        "shard": shard.map(|(i, n)| json!({"index": i, "count": n})),
        "git_commit": env!("NIMLAB_GIT_COMMIT"),
        "host": host_name(),
        "peak_memory_bytes": crate::mem::peak_memory(),
        "title": exp.title,
        "spec_file": exp.file.display().to_string(),
        "spec_xxh3": format!("{:016x}", xxhash_rust::xxh3::xxh3_64(exp.text.as_bytes())),
        "spec": exp.text,
        "nimlab_version": env!("CARGO_PKG_VERSION"),
        "results_version": crate::store::RESULTS_VERSION,
        "started": started,
        "finished": now(),
        "wall_seconds": wall,
        "threads": rayon::current_num_threads(),
        "sweeps": reports.iter().map(sweep_json).collect::<Vec<_>>(),
    });
    let mut manifest = manifest;
    let mut phases = Phases::default();
    reports.iter().for_each(|r| phases += r.phases);
    manifest["phases"] = phases.json();
    write_atomic(
        &exp_dir.join(file_name(shard)),
        serde_json::to_string_pretty(&manifest)?.as_bytes(),
    )
}

fn file_name(shard: Option<(usize, usize)>) -> String {
    match shard {
        Some((i, n)) => format!("manifest-shard-{i}-of-{n}.json"),
        None => "manifest.json".to_string(),
    }
}

/// Sets the `phases` of the manifest [`write`] wrote, once the stages after
/// the store (render, check, report) have run.
pub fn record_phases(exp_dir: &Path, shard: Option<(usize, usize)>, phases: &Phases) -> Result<()> {
    let path = exp_dir.join(file_name(shard));
    let text = std::fs::read_to_string(&path)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
    let mut manifest: Value = serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{}: not a manifest: {e}", path.display()))?;
    manifest["phases"] = phases.json();
    write_atomic(&path, serde_json::to_string_pretty(&manifest)?.as_bytes())
}
