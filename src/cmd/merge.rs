//! `nimlab merge`: shard outputs combined into one output directory.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;

use crate::{render, spec, sweep};

/// Merges the shard directories `from` into `out`, then renders.
pub fn merge(specs: &[PathBuf], from: &[PathBuf], out: &Path) -> Result<ExitCode> {
    let exps = spec::load_specs(specs)?;
    for e in &exps {
        let n = sweep::merge_experiment(e, from, out)?;
        render::render_experiment(e, out)?;
        eprintln!(
            "{}: merged {n} chunks into {}",
            e.name,
            out.join(&e.name).display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
