//! `nimlab check`: the specs' conjectures judged on stored results.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;

use crate::{check, spec, store};

/// Checks every conjecture of the given specs; exit code 1 when one fails
/// (wholly or partly) or cannot be evaluated, or, with `mutate`, when some
/// claim has no one-cell change that would make it fail. With `claims_doc`,
/// also writes every claim and its verdict to that file.
pub fn check(
    specs: &[PathBuf],
    out: &Path,
    claims_doc: Option<&Path>,
    mutate: bool,
) -> Result<ExitCode> {
    let exps = spec::load_specs(specs)?;
    let mut bad = 0;
    let mut all = Vec::new();
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
            .filter(|r| {
                matches!(
                    r.verdict(),
                    check::Verdict::Fails | check::Verdict::Partly | check::Verdict::Error
                )
            })
            .count();
        if mutate {
            bad += print_mutations(e, out, &results);
        }
        all.push((e, results));
    }
    if let Some(path) = claims_doc {
        store::write_atomic(path, check::claims_doc(&all).as_bytes())?;
    }
    Ok(if bad > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Prints, per claim, the change that would make it fail; returns how many
/// claims have none.
fn print_mutations(e: &spec::Experiment, out: &Path, results: &[check::ConjectureResult]) -> usize {
    let mut none = 0;
    println!(
        "### {}: a one-cell change that would make each claim fail\n",
        e.name
    );
    for (name, m) in check::mutations(e, out, results) {
        match m {
            Ok(Some(m)) => println!("- {name}: {m}"),
            Ok(None) => {
                none += 1;
                println!(
                    "- {name}: NO change tried makes it fail: the encoding may be unable to fail"
                );
            }
            Err(err) => println!("- {name}: cannot be tried: {err}"),
        }
    }
    println!();
    none
}
