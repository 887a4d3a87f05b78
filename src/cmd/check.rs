//! `nimlab check`: the specs' conjectures judged on stored results.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;

use crate::{check, spec, store};

/// Checks every conjecture of the given specs (each first type-checked
/// against its sweep's declared datasets: a mistake is an error, exit code
/// 2); exit code 3 when one cannot be judged on the stored results, else 1
/// when one fails (wholly or partly) or, with `mutate`, when some claim has
/// no one-cell change that would make it fail. With `claims_doc`,
/// also writes every claim and its verdict to that file.
pub fn check(
    specs: &[PathBuf],
    out: &Path,
    claims_doc: Option<&Path>,
    mutate: bool,
) -> Result<ExitCode> {
    let exps = spec::load_specs(specs)?;
    check::check_plan(&exps)?;
    let (mut bad, mut errors) = (0, 0);
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
            .filter(|r| matches!(r.verdict(), check::Verdict::Fails | check::Verdict::Partly))
            .count();
        errors += results
            .iter()
            .filter(|r| r.verdict() == check::Verdict::Error)
            .count();
        if mutate {
            bad += print_mutations(e, out, &results);
        }
        all.push((e, results));
    }
    if let Some(path) = claims_doc {
        store::write_atomic(path, check::claims_doc(&all).as_bytes())?;
    }
    Ok(if errors > 0 {
        ExitCode::from(crate::cli::EXIT_CONJECTURE_ERROR)
    } else if bad > 0 {
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
