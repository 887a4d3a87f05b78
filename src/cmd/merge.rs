//! `nimlab merge`: shard outputs combined into one output directory, then
//! the stages a single `nimlab run` runs after the store (render, check,
//! report), so the merged directory is what that run would have written.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;

use super::run::{after_store, report_stage};
use crate::{spec, sweep};

/// Merges the shard directories `from` into `out`, then renders, checks and reports.
pub fn merge(specs: &[PathBuf], from: &[PathBuf], out: &Path) -> Result<ExitCode> {
    let exps = spec::load_specs(specs)?;
    let opts = sweep::RunOptions {
        out: out.to_path_buf(),
        force: false,
        quiet: true,
        shard: None,
    };
    crate::check::check_plan(&exps)?;
    let mut errors = 0;
    for e in &exps {
        let n = sweep::merge_experiment(e, from, out)?;
        errors += after_store(e, &opts, true, &mut sweep::phases::Phases::default())?;
        eprintln!(
            "{}: merged {n} chunks into {}",
            e.name,
            out.join(&e.name).display()
        );
    }
    report_stage(&exps, &opts)?;
    Ok(super::run::conjecture_exit(errors))
}
