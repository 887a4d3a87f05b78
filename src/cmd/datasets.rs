//! `nimlab datasets`: the data reference — every dataset of every family,
//! its columns, types, roles and meanings — generated from the declarations
//! (`docs/datasets.md` is this output; a test holds them equal).

use std::fmt::Write as _;
use std::process::ExitCode;

use anyhow::Result;

use crate::data::PROVENANCE;
use crate::family::{FAMILIES, Family};

/// The data reference as Markdown.
pub fn reference(families: &[&dyn Family]) -> String {
    let mut s = String::from(
        "# nimlab's datasets\n\n\
         Generated from the families' declarations by `nimlab datasets`; do not edit.\n\
         The layout and how to read the files are in `docs/data.md`.\n\n\
         Every file starts with the provenance columns:\n\n\
         | column | type | meaning |\n|---|---|---|\n",
    );
    for c in PROVENANCE {
        let _ = writeln!(s, "| `{}` | {} | {} |", c.name, c.dtype.doc(), c.doc);
    }
    for f in families {
        let _ = write!(s, "\n## `{}`\n\n{}\n\n", f.name(), f.about());
        for d in f.datasets() {
            let _ = write!(
                s,
                "### `{}` / `{}`\n\n{}\nFiles: `<out>/<experiment>/data/{}/{}/<sweep>/part-*.parquet`\n\n{}\n",
                f.name(),
                d.name,
                d.doc,
                f.name(),
                d.name,
                d.markdown()
            );
        }
    }
    s
}

/// Prints the data reference.
pub fn datasets() -> Result<ExitCode> {
    super::print(&reference(FAMILIES))?;
    Ok(ExitCode::SUCCESS)
}
