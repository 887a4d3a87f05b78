//! `board finish`: the answer from complete slices, DIR/result.{txt,json},
//! and the family's `positions` and `counts` datasets under DIR/data/.

use std::path::Path;

use anyhow::{Context, Result};
use serde_json::json;

use super::answer;
use crate::family::lines::datasets::{COUNTS, DATASETS, POSITIONS};
use crate::family::lines::exhaustive::slices::engine::Engine;
use crate::family::lines::exhaustive::slices::{Answer, Problem};
use crate::store::{ChunkId, SweepDir, write_atomic};

pub(super) fn print_answer(p: &Problem, a: &Answer, json: bool) -> Result<()> {
    if json {
        println!("{}", serde_json::to_string_pretty(&answer::to_json(a, p))?);
    } else {
        print!("{}", answer::text(a, p)?);
    }
    Ok(())
}

/// Writes DIR/result.txt, DIR/result.json and the `counts` and `positions`
/// datasets (Parquet, the layout of `nimlab run`'s output:
/// DIR/data/lines/<dataset>/board/part-….parquet).
pub(super) fn finish(e: &Engine<'_>, dir: &Path) -> Result<Answer> {
    let a = e.finish()?;
    let p = e.problem;
    let mut secs = 0.0;
    let mut read = 0u64;
    for k in 0..=e.plan.t {
        for s in e.plan.wave(k) {
            let r = e.store.record(s)?;
            secs += r["seconds"].as_f64().unwrap_or(0.0);
            read += r["read_bytes"].as_u64().unwrap_or(0);
        }
    }
    let stored: u64 = (0..=e.plan.t).map(|k| e.plan.wave(k).len() as u64).sum();
    let parts = write_datasets(p, &a, secs, dir)?;
    let mut v = answer::to_json(&a, p);
    v["slices"] = json!({
        "slice_pieces": e.plan.t,
        "symmetries": e.plan.group.len(),
        "stored": stored,
        "all": e.plan.slices(),
        "slice_seconds": (secs * 10.0).round() / 10.0,
        "read_bytes": read,
        "written_bytes": stored * e.plan.slice_bytes(),
    });
    v["datasets"] = json!(parts);
    let mut text = serde_json::to_string_pretty(&v)?;
    text.push('\n');
    write_atomic(&dir.join("result.json"), text.as_bytes())?;
    write_atomic(&dir.join("result.txt"), answer::text(&a, p)?.as_bytes())?;
    Ok(a)
}

/// Writes the answer as lines' `positions` and `counts` datasets under
/// DIR/data/ (experiment: DIR's name, sweep `board`); returns their paths
/// relative to DIR.
fn write_datasets(p: &Problem, a: &Answer, seconds: f64, dir: &Path) -> Result<Vec<String>> {
    let abs = dir
        .canonicalize()
        .with_context(|| format!("cannot read {}", dir.display()))?;
    let experiment = abs
        .file_name()
        .map_or("board".into(), |n| n.to_string_lossy().to_string());
    let out = SweepDir {
        exp_dir: dir.to_path_buf(),
        experiment,
        sweep: "board".into(),
        family: "lines".into(),
        datasets: DATASETS,
    };
    let chunk = ChunkId::new(0, &[format!("board/{:016x}", p.fingerprint())]);
    let (positions, counts) = answer::tables(a, p, (seconds * 1000.0).round() / 1000.0)?;
    let mut paths = Vec::new();
    for (ds, table) in [(&POSITIONS, positions), (&COUNTS, counts)] {
        out.write_part(ds, &chunk, vec![table])?;
        let path = out.part_path(ds.name, &chunk);
        paths.push(
            path.strip_prefix(dir)
                .unwrap_or(&path)
                .display()
                .to_string(),
        );
    }
    // Parts of an earlier nimlab (another results version) go.
    out.prune(&[chunk])?;
    Ok(paths)
}
