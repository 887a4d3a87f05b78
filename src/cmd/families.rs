//! `nimlab families`: the game families, their parameters and views.

use std::process::ExitCode;

use anyhow::Result;

use crate::family::FAMILIES;

/// Prints every family with its parameters and views.
pub fn families() -> Result<ExitCode> {
    for f in FAMILIES {
        println!("{}\n  {}\n  parameters:", f.name(), f.about());
        for line in f.params_help().lines() {
            println!("    {line}");
        }
        println!("  views: {}\n", f.view_names().join(", "));
    }
    Ok(ExitCode::SUCCESS)
}
