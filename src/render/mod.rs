//! The render stage: draws a sweep's [`View`]s from its stored datasets —
//! Markdown and CSV tables, PNG pictures of tables, and PNG/SVG figures.
//! It reads the store and the dataset declarations (a column's own cell
//! text), never a family's code or column names.

mod draw;
mod figures;
mod pattern;
mod tables;
mod text;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::data::{Dataset, Table};
use crate::spec::{Experiment, Sweep};
use crate::store::SweepDir;
use crate::view::{View, ViewKind};

pub use text::Data;

/// The bundled CJK font (a subset of Noto Sans CJK TC, SIL Open Font License)
/// and its licence text: the HTML report ships them beside the page so that
/// Chinese text shows on a machine without a CJK font.
pub fn cjk_font() -> (&'static [u8], &'static str) {
    (draw::CJK_FONT, draw::CJK_FONT_LICENSE)
}

/// Renders every sweep of an experiment from its stored results; returns,
/// per sweep, the files written.
pub fn render_experiment(exp: &Experiment, out: &Path) -> Result<Vec<(String, Vec<PathBuf>)>> {
    let mut v = Vec::new();
    for s in &exp.sweeps {
        let files = render_sweep(s, &s.dir(out, &exp.name))
            .with_context(|| format!("experiment {}, sweep {}", exp.name, s.name))?;
        v.push((s.name.clone(), files));
    }
    Ok(v)
}

/// Renders the sweep's selected views from the stored datasets.
pub fn render_sweep(sweep: &Sweep, dir: &SweepDir) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut cache: Vec<(&str, Option<Table>)> = Vec::new();
    let selected: Vec<&View> = sweep
        .views
        .iter()
        .filter(|v| {
            sweep
                .outputs
                .as_ref()
                .is_none_or(|o| o.iter().any(|x| x == v.name))
        })
        .copied()
        .collect();
    for &view in &selected {
        if !cache.iter().any(|(n, _)| *n == view.dataset) {
            // Its columns of lists that no view drawn names stay unread.
            let named = |c: &str| {
                selected
                    .iter()
                    .any(|v| v.dataset == view.dataset && v.kind.columns().contains(&c))
            };
            cache.push((view.dataset, dir.read_lists_named(view.dataset, &named)?));
        }
        let Some((_, Some(table))) = cache.iter().find(|(n, _)| *n == view.dataset) else {
            continue;
        };
        let Some(ds) = dir.dataset(view.dataset) else {
            bail!(
                "view {} reads dataset {}, which is not declared",
                view.name,
                view.dataset
            );
        };
        let data = Data { t: table, ds };
        let written = render(view, &data, dir, &sweep.title)
            .with_context(|| format!("rendering view {}", view.name))?;
        files.extend(written);
    }
    Ok(files)
}

/// Where a view's files go, and the text added to its titles.
pub struct Target<'a> {
    /// Rendered tables.
    pub tables: PathBuf,
    /// Rendered figures.
    pub figures: PathBuf,
    /// The sweep's title.
    pub context: &'a str,
}

/// Renders one view of a dataset; returns the files written.
pub fn render(view: &View, data: &Data<'_>, dir: &SweepDir, context: &str) -> Result<Vec<PathBuf>> {
    check_columns(view, data.ds)?;
    let picked = if view.only.is_empty() {
        None
    } else {
        Some(data.filter(view.only)).filter(|p| p.len() < data.t.rows())
    };
    let (table, sub);
    let data = if let Some(picked) = picked {
        table = data.rows(&picked, &view.kind.columns());
        sub = Data {
            t: &table,
            ds: data.ds,
        };
        &sub
    } else {
        data
    };
    let target = Target {
        tables: dir.tables_dir(),
        figures: dir.figures_dir(),
        context,
    };
    match &view.kind {
        ViewKind::Grid { .. } => tables::grid_view(view, data, &target),
        ViewKind::Listing { .. } => tables::listing_view(view, data, &target),
        _ => figures::figure_view(view, data, &target),
    }
}

/// Every column a view reads must be declared in its dataset.
fn check_columns(view: &View, ds: &Dataset) -> Result<()> {
    for col in view
        .kind
        .columns()
        .into_iter()
        .chain(view.only.iter().map(|o| o.0))
    {
        if ds.column(col).is_none() {
            bail!(
                "view {} needs column {col}, which dataset {} does not declare",
                view.name,
                view.dataset
            );
        }
    }
    Ok(())
}
