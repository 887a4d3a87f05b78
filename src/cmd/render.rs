//! `nimlab render`: tables and figures redrawn from stored results.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Result, bail};

use crate::spec::{self, DEFAULT_SPECS, Experiment};
use crate::{render, report, store};

/// Re-renders every sweep of the given specs; with none, of the default
/// specs (`experiments/*.yaml`) or, where there are none, of every
/// experiment stored in `out` (its spec read back from its manifest, as
/// `nimlab report` does).
pub fn render(specs: &[PathBuf], out: &Path) -> Result<ExitCode> {
    let exps = experiments(specs, out)?;
    for e in &exps {
        store::prune_orphans_of(out, &e.name)?;
        for (sweep, files) in render::render_experiment(e, out)? {
            eprintln!(
                "{}/{sweep}: {} rendered",
                e.name,
                crate::progress::counted(files.len() as u64, "file")
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn experiments(specs: &[PathBuf], out: &Path) -> Result<Vec<Experiment>> {
    if !specs.is_empty() || Path::new(DEFAULT_SPECS).is_dir() {
        return spec::load_specs(specs);
    }
    let exps = report::experiments(&[], out);
    if exps.is_empty() {
        bail!(
            "no spec given, no {DEFAULT_SPECS}/ folder here and no results in {}: name the spec files (`nimlab render my-sweep.yaml`), or give --out the folder a run wrote",
            out.display()
        );
    }
    Ok(exps)
}
