//! Shard outputs combined: every chunk of the plan copied (atomically) from
//! the shard directory that holds it.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use anyhow::{Context, Result, bail};

use super::chunks::chunks;
use super::{RunOptions, run_experiment};
use crate::spec::Experiment;
use crate::store::write_atomic;

/// Copies every chunk of an experiment's plan from the shard directories into
/// `out` (parts and records, atomically), fails naming the missing chunks if
/// any shard is incomplete, then writes the manifest (rendering is the
/// caller's next stage). Returns the number of chunks copied.
pub fn merge_experiment(exp: &Experiment, from: &[PathBuf], out: &Path) -> Result<usize> {
    let mut copied = 0;
    let mut reports = Vec::new();
    for sweep in &exp.sweeps {
        let plan = sweep.plan()?;
        let chunks = chunks(&plan.cases);
        let dest = sweep.dir(out, &exp.name);
        let mut missing = Vec::new();
        for c in &chunks {
            if dest.is_done(&c.id) {
                continue;
            }
            let src = from
                .iter()
                .map(|f| sweep.dir(f, &exp.name))
                .find(|d| d.is_done(&c.id));
            let Some(src) = src else {
                missing.push(c.id.stem());
                continue;
            };
            for d in src.present() {
                let p = src.part_path(d.name, &c.id);
                if p.exists() {
                    let bytes = std::fs::read(&p)
                        .with_context(|| format!("cannot read {}", p.display()))?;
                    write_atomic(&dest.part_path(d.name, &c.id), &bytes)?;
                }
            }
            let info = src.chunk_info(&c.id).unwrap_or_default();
            dest.mark_done(&c.id, &info)?;
            copied += 1;
        }
        if !missing.is_empty() {
            bail!(
                "sweep {}: {} of {} chunks are in none of the shard directories (first: {}); run the missing shards first",
                sweep.name,
                missing.len(),
                chunks.len(),
                missing[0]
            );
        }
        reports.push(sweep.name.clone());
    }
    // Everything is present: a plain run reuses every chunk and writes the manifest.
    let opts = RunOptions {
        out: out.to_path_buf(),
        force: false,
        quiet: true,
        shard: None,
    };
    run_experiment(exp, &opts, &AtomicBool::new(false), &mut false)?;
    Ok(copied)
}
