//! `nimlab check`: the specs' conjectures judged on stored results.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;

use crate::{check, spec};

/// Checks every conjecture of the given specs; exit code 1 when one fails
/// or cannot be evaluated.
pub fn check(specs: &[PathBuf], out: &Path) -> Result<ExitCode> {
    let exps = spec::load_specs(specs)?;
    let mut bad = 0;
    for e in &exps {
        if e.conjectures.is_empty() {
            continue;
        }
        let results = check::write_conjectures(e, out)?;
        super::print(&format!(
            "## {}\n\n{}\n",
            e.name,
            check::render_markdown(&results)
        ))?;
        bad += results
            .iter()
            .filter(|r| matches!(r.verdict(), check::Verdict::Fails | check::Verdict::Error))
            .count();
    }
    Ok(if bad > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
