//! `nimlab render`: tables and figures redrawn from stored results.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;

use crate::{render, spec};

/// Re-renders every sweep of the given specs.
pub fn render(specs: &[PathBuf], out: &Path) -> Result<ExitCode> {
    let exps = spec::load_specs(specs)?;
    for e in &exps {
        for (sweep, files) in render::render_experiment(e, out)? {
            eprintln!("{}/{sweep}: {} files rendered", e.name, files.len());
        }
    }
    Ok(ExitCode::SUCCESS)
}
