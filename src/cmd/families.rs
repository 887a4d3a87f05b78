//! `nimlab families`: the game families, their parameters and views.

use std::process::ExitCode;

use anyhow::Result;

use crate::family::{FAMILIES, schema};

/// Prints every family with its parameters and views, or the schema of
/// their `solve --json` answers.
pub fn families(solve_schema: bool) -> Result<ExitCode> {
    use std::fmt::Write as _;
    if solve_schema {
        let v = schema::solve_schema(FAMILIES)?;
        super::print(&(serde_json::to_string_pretty(&v)? + "\n"))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut s = String::new();
    for f in FAMILIES {
        let _ = writeln!(s, "{}\n  {}\n  parameters:", f.name(), f.about());
        for line in f.params_help().lines() {
            let _ = writeln!(s, "    {line}");
        }
        let _ = writeln!(s, "  views: {}\n", f.view_names().join(", "));
    }
    super::print(&s)?;
    Ok(ExitCode::SUCCESS)
}
