//! `nimlab report`: REPORT.md and REPORT.html rebuilt from stored results.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Result, bail};

use crate::{report, spec};

/// Rebuilds the report over the given specs' experiments and every other
/// experiment in `out`.
pub fn report(specs: &[PathBuf], out: &Path, rebuild: bool) -> Result<ExitCode> {
    let given = if specs.is_empty() {
        Vec::new()
    } else {
        spec::load_specs(specs)?
    };
    let exps = report::experiments(&given, out);
    if exps.is_empty() {
        bail!("no results in {}: run `nimlab run` first", out.display());
    }
    for e in &exps {
        crate::store::prune_orphans_of(out, &e.name)?;
    }
    let opts = report::ReportOptions {
        rebuild,
        quiet: false,
    };
    let summary = report::write_report_with(&exps, out, opts)?;
    eprintln!("{}", summary_line(&summary));
    Ok(ExitCode::SUCCESS)
}

/// `report: output/REPORT.md, … (5 experiments; claims: 58 holds, …)`; an
/// experiment is counted in the singular, and a run without claims says so.
pub fn summary_line(s: &report::ReportSummary) -> String {
    let files = s
        .files
        .iter()
        .map(|f| f.display().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let exps = match s.experiments {
        1 => "1 experiment".to_string(),
        n => format!("{n} experiments"),
    };
    let claims = if s.counts.is_empty() {
        "no claims".to_string()
    } else {
        let counts: Vec<String> = s.counts.iter().map(|(v, n)| format!("{n} {v}")).collect();
        format!("claims: {}", counts.join(", "))
    };
    format!("report: {files} ({exps}; {claims})")
}
