//! `nimlab solve`: one position answered from the command line.

use std::process::ExitCode;

use anyhow::{Context, Result};

use crate::family::{self, FAMILIES};
use crate::params::{self, Node};
use crate::progress::SolveProgress;

/// Answers one position of `family` given as `--key value` parameters.
pub fn solve(family: &str, mut json: bool, mut params: Vec<String>) -> Result<ExitCode> {
    // `--json` after the family's parameters lands in `params` (they are
    // free-form); take it out wherever it stands.
    if let Some(i) = params.iter().position(|p| p == "--json") {
        params.remove(i);
        json = true;
    }
    let fam = family::by_name(family).with_context(|| {
        format!(
            "unknown family {family:?}; known families: {}",
            FAMILIES
                .iter()
                .map(|f| f.name())
                .collect::<Vec<_>>()
                .join(", ")
        )
    })?;
    // Each argument is read as the family declares it, then by the family's
    // own parsers (the spec's), so the command line and a spec accept the same forms.
    let value = params::cli_to_map(&params, fam.cli_args())?;
    let node = Node::root(&value, params::COMMAND_LINE);
    // Progress on standard error while a long solve runs (hidden when it is
    // not a terminal), cleared before the answer is printed.
    let progress = SolveProgress::new();
    let answer = fam.solve(&node, &progress);
    progress.finish();
    let answer = answer?;
    if json {
        super::print(&(serde_json::to_string_pretty(&answer.json)? + "\n"))?;
    } else {
        super::print(&answer.text)?;
    }
    Ok(ExitCode::SUCCESS)
}
