//! `nimlab families`: the game families, their parameters and views.

use std::process::ExitCode;

use anyhow::Result;

use crate::family::FAMILIES;

/// Prints every family with its parameters and views.
pub fn families() -> Result<ExitCode> {
    use std::fmt::Write as _;
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
