//! Draws [`View`]s from stored datasets: Markdown and CSV tables, PNG pictures
//! of tables, scatter plots (PNG and SVG). Knows column names, not games.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use plotters::prelude::*;

use crate::family::Plan;
use crate::spec::{Experiment, Sweep};
use crate::store::{SweepDir, write_atomic};
use crate::table::{Cell, Table};
use crate::view::{View, ViewKind};

/// Largest pivot rendered as a PNG picture (cells); larger ones get Markdown/CSV only.
const MAX_PNG_CELLS: usize = 40_000;
/// Largest listing written as Markdown (rows); CSV always has everything.
const MAX_MD_ROWS: usize = 5_000;

static FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");

fn ensure_font() {
    use std::sync::Once;
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bundled font is valid; failing to register it would only lose text.
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, FONT);
    });
}

/// Renders the sweep's selected views from the stored datasets.
pub fn render_sweep(sweep: &Sweep, plan: &Plan, dir: &SweepDir) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut cache: Vec<(String, Option<Table>)> = Vec::new();
    for view in &plan.views {
        if !sweep.outputs.is_empty() && !sweep.outputs.contains(&view.name) {
            continue;
        }
        if !cache.iter().any(|(n, _)| *n == view.dataset) {
            cache.push((view.dataset.clone(), dir.read(&view.dataset)?));
        }
        let data = cache
            .iter()
            .find(|(n, _)| *n == view.dataset)
            .unwrap()
            .1
            .as_ref();
        let Some(data) = data else { continue };
        let written = render(view, data, &dir.root, &sweep.title)
            .with_context(|| format!("rendering view {}", view.name))?;
        files.extend(written);
    }
    Ok(files)
}

/// Renders every sweep of an experiment from its stored results; returns,
/// per sweep, the files written.
pub fn render_experiment(exp: &Experiment, out: &Path) -> Result<Vec<(String, Vec<PathBuf>)>> {
    let mut v = Vec::new();
    for s in &exp.sweeps {
        let plan = s.plan()?;
        let dir = SweepDir::new(&out.join(&exp.name), &s.name);
        let files = render_sweep(s, &plan, &dir)
            .with_context(|| format!("experiment {}, sweep {}", exp.name, s.name))?;
        v.push((s.name.clone(), files));
    }
    Ok(v)
}

/// Renders one view of a dataset into `dir` (`tables/` and `figures/`); returns the files written.
pub fn render(view: &View, data: &Table, dir: &Path, context: &str) -> Result<Vec<PathBuf>> {
    for col in view_columns(view) {
        if data.column(&col).is_none() {
            anyhow::bail!(
                "view {} needs column {col}, which dataset {} does not have",
                view.name,
                view.dataset
            );
        }
    }
    match &view.kind {
        ViewKind::Grid {
            row,
            column,
            cell,
            empty,
            facet,
        } => {
            let mut files = Vec::new();
            for (fname, rows) in facets(data, facet.as_deref()) {
                let sub = data.take_rows(&rows);
                let stem = suffix(&view.name, fname.as_deref());
                let title = titled(&view.title, context, fname.as_deref());
                files.extend(grid(
                    &sub,
                    row,
                    column,
                    cell,
                    empty,
                    &dir.join("tables"),
                    &stem,
                    &title,
                )?);
            }
            Ok(files)
        }
        ViewKind::Listing { columns, filter } => {
            let rows = filter_rows(data, filter);
            let sub = data.take_rows(&rows);
            listing(
                &sub,
                columns,
                &dir.join("tables"),
                &view.name,
                &titled(&view.title, context, None),
            )
        }
        ViewKind::Scatter {
            x,
            y,
            filter,
            facet,
        } => {
            let mut files = Vec::new();
            let filt: Vec<(String, String)> = filter.iter().cloned().collect();
            // Axis ranges come from the whole dataset, so empty facets still show their range.
            let xr = int_range(data, x);
            let yr = int_range(data, y);
            for (fname, rows) in facets(data, facet.as_deref()) {
                let sub = data.take_rows(&rows);
                let keep = filter_rows(&sub, &filt);
                let pts: Vec<(f64, f64)> = keep
                    .iter()
                    .filter_map(|&i| Some((num(sub.cell(x, i)?)?, num(sub.cell(y, i)?)?)))
                    .collect();
                let fig = ScatterFig {
                    pts,
                    xr,
                    yr,
                    xl: x.clone(),
                    yl: y.clone(),
                    title: titled(&view.title, context, fname.as_deref()),
                };
                files.extend(save_figure(
                    &fig,
                    &dir.join("figures"),
                    &suffix(&view.name, fname.as_deref()),
                    (900, 900),
                )?);
            }
            Ok(files)
        }
        ViewKind::Heatmap { x, y, value, facet } => {
            let mut files = Vec::new();
            let xr = int_range(data, x);
            let yr = int_range(data, y);
            let cats = categories(data, value);
            for (fname, rows) in facets(data, facet.as_deref()) {
                let sub = data.take_rows(&rows);
                let cells: Vec<(f64, f64, String)> = (0..sub.rows())
                    .filter_map(|i| {
                        Some((
                            num(sub.cell(x, i)?)?,
                            num(sub.cell(y, i)?)?,
                            sub.cell(value, i)?.to_string(),
                        ))
                    })
                    .collect();
                let fig = CellFig {
                    cells,
                    cats: cats.clone(),
                    xr: (xr.0 as f64 - 0.5, xr.1 as f64 + 0.5),
                    yr: (yr.0 as f64 - 0.5, yr.1 as f64 + 0.5),
                    xl: x.clone(),
                    yl: y.clone(),
                    legend: value.clone(),
                    title: titled(&view.title, context, fname.as_deref()),
                    hex: false,
                    row_names: None,
                };
                files.extend(save_figure(
                    &fig,
                    &dir.join("figures"),
                    &suffix(&view.name, fname.as_deref()),
                    (1000, 900),
                )?);
            }
            Ok(files)
        }
        ViewKind::Strip {
            row,
            x,
            value,
            facet,
        } => {
            let mut files = Vec::new();
            let cats = categories(data, value);
            for (fname, rows) in facets(data, facet.as_deref()) {
                let sub = data.take_rows(&rows);
                let names = distinct_in_order(&sub, row);
                let idx: HashMap<&str, usize> = names
                    .iter()
                    .enumerate()
                    .map(|(i, s)| (s.as_str(), i))
                    .collect();
                let xr = int_range(&sub, x);
                let cells: Vec<(f64, f64, String)> = (0..sub.rows())
                    .filter_map(|i| {
                        let r = idx[sub.cell(row, i)?.to_string().as_str()];
                        Some((
                            num(sub.cell(x, i)?)?,
                            r as f64,
                            sub.cell(value, i)?.to_string(),
                        ))
                    })
                    .collect();
                let fig = CellFig {
                    cells,
                    cats: cats.clone(),
                    xr: (xr.0 as f64 - 0.5, xr.1 as f64 + 0.5),
                    yr: (-0.5, names.len() as f64 - 0.5),
                    xl: x.clone(),
                    yl: row.clone(),
                    legend: value.clone(),
                    title: titled(&view.title, context, fname.as_deref()),
                    hex: false,
                    row_names: Some(names.clone()),
                };
                let h = (120 + 40 * names.len() as u32).min(4000);
                files.extend(save_figure(
                    &fig,
                    &dir.join("figures"),
                    &suffix(&view.name, fname.as_deref()),
                    (1400, h.max(300)),
                )?);
            }
            Ok(files)
        }
        ViewKind::Cells { x, y, value, facet } => {
            let mut files = Vec::new();
            let cats = categories(data, value);
            for (fname, rows) in facets(data, facet.as_deref()) {
                let sub = data.take_rows(&rows);
                let cells: Vec<(f64, f64, String)> = (0..sub.rows())
                    .filter_map(|i| {
                        Some((
                            num(sub.cell(x, i)?)?,
                            num(sub.cell(y, i)?)?,
                            sub.cell(value, i)?.to_string(),
                        ))
                    })
                    .collect();
                let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
                for c in &cells {
                    x0 = x0.min(c.0);
                    x1 = x1.max(c.0);
                    y0 = y0.min(c.1);
                    y1 = y1.max(c.1);
                }
                if cells.is_empty() {
                    (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
                }
                let span = (x1 - x0).max(y1 - y0) + 2.0;
                let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
                let fig = CellFig {
                    cells,
                    cats: cats.clone(),
                    xr: (cx - span / 2.0, cx + span / 2.0),
                    yr: (cy - span / 2.0, cy + span / 2.0),
                    xl: String::new(),
                    yl: String::new(),
                    legend: value.clone(),
                    title: titled(&view.title, context, fname.as_deref()),
                    hex: true,
                    row_names: None,
                };
                files.extend(save_figure(
                    &fig,
                    &dir.join("figures"),
                    &suffix(&view.name, fname.as_deref()),
                    (900, 960),
                )?);
            }
            Ok(files)
        }
        ViewKind::Bars {
            x,
            y,
            series,
            facet,
        } => {
            let mut files = Vec::new();
            let cats = match series {
                Some(s) => categories(data, s),
                None => vec![y.clone()],
            };
            for (fname, rows) in facets(data, facet.as_deref()) {
                let sub = data.take_rows(&rows);
                let bars: Vec<(f64, f64, String)> = (0..sub.rows())
                    .filter_map(|i| {
                        let cat = match series {
                            Some(s) => sub.cell(s, i)?.to_string(),
                            None => y.clone(),
                        };
                        Some((num(sub.cell(x, i)?)?, num(sub.cell(y, i)?)?, cat))
                    })
                    .collect();
                let fig = BarsFig {
                    bars,
                    cats: cats.clone(),
                    xl: x.clone(),
                    yl: y.clone(),
                    title: titled(&view.title, context, fname.as_deref()),
                };
                files.extend(save_figure(
                    &fig,
                    &dir.join("figures"),
                    &suffix(&view.name, fname.as_deref()),
                    (1100, 700),
                )?);
            }
            Ok(files)
        }
    }
}

fn view_columns(view: &View) -> Vec<String> {
    match &view.kind {
        ViewKind::Grid {
            row,
            column,
            cell,
            facet,
            ..
        } => {
            let mut v = vec![row.clone(), column.clone(), cell.clone()];
            v.extend(facet.iter().cloned());
            v
        }
        ViewKind::Listing { columns, filter } => columns
            .iter()
            .cloned()
            .chain(filter.iter().map(|f| f.0.clone()))
            .collect(),
        ViewKind::Scatter {
            x,
            y,
            filter,
            facet,
        } => {
            let mut v = vec![x.clone(), y.clone()];
            v.extend(filter.iter().map(|f| f.0.clone()));
            v.extend(facet.iter().cloned());
            v
        }
        ViewKind::Heatmap { x, y, value, facet } | ViewKind::Cells { x, y, value, facet } => {
            let mut v = vec![x.clone(), y.clone(), value.clone()];
            v.extend(facet.iter().cloned());
            v
        }
        ViewKind::Strip {
            row,
            x,
            value,
            facet,
        } => {
            let mut v = vec![row.clone(), x.clone(), value.clone()];
            v.extend(facet.iter().cloned());
            v
        }
        ViewKind::Bars {
            x,
            y,
            series,
            facet,
        } => {
            let mut v = vec![x.clone(), y.clone()];
            v.extend(series.iter().cloned());
            v.extend(facet.iter().cloned());
            v
        }
    }
}

fn titled(title: &str, context: &str, facet: Option<&str>) -> String {
    match facet {
        Some(f) => format!("{title} — {context} — {f}"),
        None => format!("{title} — {context}"),
    }
}

/// A file-name-safe suffix for a facet value.
pub fn suffix(name: &str, facet: Option<&str>) -> String {
    match facet {
        None => name.to_string(),
        Some(f) => {
            let clean: String = f
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            format!("{name}-{}", clean.trim_matches('_'))
        }
    }
}

fn as_int(c: Cell<'_>) -> Option<i64> {
    match c {
        Cell::Int(v) => Some(v),
        _ => None,
    }
}

fn num(c: Cell<'_>) -> Option<f64> {
    match c {
        Cell::Int(v) => Some(v as f64),
        Cell::Float(v) => Some(v),
        _ => None,
    }
}

/// Distinct values of a column, sorted (numerically when all are integers).
fn categories(t: &Table, col: &str) -> Vec<String> {
    let mut v = distinct_in_order(t, col);
    if !v.iter().all(|s| s.parse::<i64>().is_ok()) {
        v.sort();
    }
    v
}

fn int_range(t: &Table, col: &str) -> (i64, i64) {
    let mut lo = i64::MAX;
    let mut hi = i64::MIN;
    for i in 0..t.rows() {
        if let Some(v) = t.cell(col, i).and_then(as_int) {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    }
    if lo > hi { (0, 1) } else { (lo, hi) }
}

/// Row indices whose columns equal the given values (compared as text).
pub fn filter_rows(t: &Table, filter: &[(String, String)]) -> Vec<usize> {
    (0..t.rows())
        .filter(|&i| {
            filter
                .iter()
                .all(|(c, v)| t.cell(c, i).map(|x| x.to_string()) == Some(v.clone()))
        })
        .collect()
}

/// Groups rows by a facet column, in order of first appearance.
fn facets(t: &Table, facet: Option<&str>) -> Vec<(Option<String>, Vec<usize>)> {
    let Some(f) = facet else {
        return vec![(None, (0..t.rows()).collect())];
    };
    let mut order: Vec<String> = Vec::new();
    let mut groups: HashMap<String, Vec<usize>> = HashMap::new();
    for i in 0..t.rows() {
        let k = t.cell(f, i).unwrap().to_string();
        if !groups.contains_key(&k) {
            order.push(k.clone());
        }
        groups.entry(k).or_default().push(i);
    }
    order
        .into_iter()
        .map(|k| {
            let rows = groups.remove(&k).unwrap();
            (Some(k), rows)
        })
        .collect()
}

fn distinct_in_order(t: &Table, col: &str) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut ints = true;
    for i in 0..t.rows() {
        let c = t.cell(col, i).unwrap();
        ints &= matches!(c, Cell::Int(_));
        let s = c.to_string();
        if seen.insert(s.clone()) {
            out.push(s);
        }
    }
    if ints {
        out.sort_by_key(|s| s.parse::<i64>().unwrap_or(0));
    }
    out
}

fn csv_field(s: &str) -> String {
    if s.contains(',') || s.contains('"') || s.contains('\n') {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn md_field(s: &str) -> String {
    s.replace('|', "\\|")
}

/// A pivot table as Markdown, CSV and (when small enough) PNG.
#[allow(clippy::too_many_arguments)]
fn grid(
    t: &Table,
    row: &str,
    column: &str,
    cell: &str,
    empty: &str,
    dir: &Path,
    stem: &str,
    title: &str,
) -> Result<Vec<PathBuf>> {
    let rows = distinct_in_order(t, row);
    let cols = distinct_in_order(t, column);
    let ri: HashMap<&str, usize> = rows
        .iter()
        .enumerate()
        .map(|(i, s)| (s.as_str(), i))
        .collect();
    let ci: HashMap<&str, usize> = cols
        .iter()
        .enumerate()
        .map(|(i, s)| (s.as_str(), i))
        .collect();
    let mut m = vec![vec![String::new(); cols.len()]; rows.len()];
    let mut filled = vec![vec![false; cols.len()]; rows.len()];
    for i in 0..t.rows() {
        let r = ri[t.cell(row, i).unwrap().to_string().as_str()];
        let c = ci[t.cell(column, i).unwrap().to_string().as_str()];
        let v = t.cell(cell, i).unwrap().to_string();
        m[r][c] = if v.is_empty() { empty.to_string() } else { v };
        filled[r][c] = true;
    }
    let corner = format!("{row} \\ {column}");
    let mut md = format!("# {title}\n\n| {} |", md_field(&corner));
    for c in &cols {
        let _ = write!(md, " {} |", md_field(c));
    }
    md.push_str("\n|---|");
    for _ in &cols {
        md.push_str("---|");
    }
    md.push('\n');
    let mut csv = csv_field(&corner);
    for c in &cols {
        csv.push(',');
        csv.push_str(&csv_field(c));
    }
    csv.push('\n');
    for (r, name) in rows.iter().enumerate() {
        let _ = write!(md, "| {} |", md_field(name));
        csv.push_str(&csv_field(name));
        for c in 0..cols.len() {
            let v = if filled[r][c] { m[r][c].as_str() } else { "" };
            let _ = write!(md, " {} |", md_field(v));
            csv.push(',');
            csv.push_str(&csv_field(v));
        }
        md.push('\n');
        csv.push('\n');
    }
    let mut files = vec![
        dir.join(format!("{stem}.md")),
        dir.join(format!("{stem}.csv")),
    ];
    write_atomic(&files[0], md.as_bytes())?;
    write_atomic(&files[1], csv.as_bytes())?;
    if rows.len() * cols.len() <= MAX_PNG_CELLS {
        let png = dir.join(format!("{stem}.png"));
        table_png(&png, title, &corner, &rows, &cols, &m)?;
        files.push(png);
    }
    Ok(files)
}

/// A listing as Markdown and CSV.
fn listing(
    t: &Table,
    columns: &[String],
    dir: &Path,
    stem: &str,
    title: &str,
) -> Result<Vec<PathBuf>> {
    let mut md = format!("# {title}\n\n|");
    let mut csv = String::new();
    for (i, c) in columns.iter().enumerate() {
        let _ = write!(md, " {} |", md_field(c));
        if i > 0 {
            csv.push(',');
        }
        csv.push_str(&csv_field(c));
    }
    md.push_str("\n|");
    for _ in columns {
        md.push_str("---|");
    }
    md.push('\n');
    csv.push('\n');
    for i in 0..t.rows() {
        if i < MAX_MD_ROWS {
            md.push('|');
        }
        for (k, c) in columns.iter().enumerate() {
            let v = t.cell(c, i).unwrap().to_string();
            if i < MAX_MD_ROWS {
                let _ = write!(md, " {} |", md_field(&v));
            }
            if k > 0 {
                csv.push(',');
            }
            csv.push_str(&csv_field(&v));
        }
        if i < MAX_MD_ROWS {
            md.push('\n');
        }
        csv.push('\n');
    }
    if t.rows() > MAX_MD_ROWS {
        let _ = writeln!(md, "\n({} more rows in {stem}.csv)", t.rows() - MAX_MD_ROWS);
    }
    let files = vec![
        dir.join(format!("{stem}.md")),
        dir.join(format!("{stem}.csv")),
    ];
    write_atomic(&files[0], md.as_bytes())?;
    write_atomic(&files[1], csv.as_bytes())?;
    Ok(files)
}

/// A temporary name next to `path` that keeps its extension (the image
/// encoder picks the format from it); renamed into place when complete.
fn tmp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let (stem, ext) = name.rsplit_once('.').unwrap_or((&name, "tmp"));
    path.with_file_name(format!(".{stem}.tmp-{}-0.{ext}", crate::store::tmp_owner()))
}

/// A picture of a table, laid out like the reports' printed tables.
fn table_png(
    path: &Path,
    title: &str,
    corner: &str,
    rows: &[String],
    cols: &[String],
    m: &[Vec<String>],
) -> Result<()> {
    ensure_font();
    let char_w = 8u32;
    let mut widths: Vec<u32> = cols.iter().map(|c| c.chars().count() as u32).collect();
    for r in m {
        for (c, v) in r.iter().enumerate() {
            widths[c] = widths[c].max(v.chars().count() as u32);
        }
    }
    let head_w = rows
        .iter()
        .map(|r| r.chars().count())
        .max()
        .unwrap_or(1)
        .max(corner.chars().count()) as u32;
    let col_px: Vec<u32> = widths.iter().map(|w| w.max(&2) * char_w + 12).collect();
    let head_px = head_w * char_w + 12;
    let row_h = 18u32;
    let top = 34u32;
    let width = (head_px + col_px.iter().sum::<u32>() + 2)
        .max(title.chars().count() as u32 * 8 + 20)
        .min(30_000);
    let height = (top + row_h * (rows.len() as u32 + 1) + 2).min(30_000);
    let tmp = tmp_path(path);
    let area = BitMapBackend::new(&tmp, (width, height)).into_drawing_area();
    area.fill(&WHITE)?;
    let font = ("sans-serif", 13).into_font();
    area.draw_text(title, &("sans-serif", 15).into_font().color(&BLACK), (6, 8))?;
    let header_bg = RGBColor(225, 230, 240);
    let p_bg = RGBColor(255, 236, 200);
    // Header row.
    let mut x = 1i32;
    area.draw(&Rectangle::new(
        [(x, top as i32), (x + head_px as i32, (top + row_h) as i32)],
        header_bg.filled(),
    ))?;
    area.draw_text(corner, &font.color(&BLACK), (x + 4, top as i32 + 2))?;
    x += head_px as i32;
    for (c, name) in cols.iter().enumerate() {
        let w = col_px[c] as i32;
        area.draw(&Rectangle::new(
            [(x, top as i32), (x + w, (top + row_h) as i32)],
            header_bg.filled(),
        ))?;
        area.draw_text(name, &font.color(&BLACK), (x + 4, top as i32 + 2))?;
        x += w;
    }
    for (r, name) in rows.iter().enumerate() {
        let y = (top + row_h * (r as u32 + 1)) as i32;
        let mut x = 1i32;
        area.draw(&Rectangle::new(
            [(x, y), (x + head_px as i32, y + row_h as i32)],
            header_bg.filled(),
        ))?;
        area.draw_text(name, &font.color(&BLACK), (x + 4, y + 2))?;
        x += head_px as i32;
        for (c, v) in m[r].iter().enumerate() {
            let w = col_px[c] as i32;
            if v == "E" {
                area.draw(&Rectangle::new(
                    [(x, y), (x + w, y + row_h as i32)],
                    p_bg.filled(),
                ))?;
            }
            area.draw(&Rectangle::new(
                [(x, y), (x + w, y + row_h as i32)],
                RGBColor(200, 200, 200).stroke_width(1),
            ))?;
            area.draw_text(v, &font.color(&BLACK), (x + 4, y + 2))?;
            x += w;
        }
    }
    area.present()
        .with_context(|| format!("cannot write {}", path.display()))?;
    drop(area);
    std::fs::rename(&tmp, path)?;
    Ok(())
}

/// A figure drawable on any plotters backend.
trait Figure {
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, plotters::coord::Shift>,
    ) -> Result<()>
    where
        DB::ErrorType: 'static;
}

/// Saves a figure as PNG and SVG (each written to a temporary name, then renamed).
fn save_figure<F: Figure>(
    fig: &F,
    dir: &Path,
    stem: &str,
    size: (u32, u32),
) -> Result<Vec<PathBuf>> {
    ensure_font();
    std::fs::create_dir_all(dir)?;
    let png = dir.join(format!("{stem}.png"));
    let svg = dir.join(format!("{stem}.svg"));
    let (tmp_png, tmp_svg) = (tmp_path(&png), tmp_path(&svg));
    {
        let root = BitMapBackend::new(&tmp_png, size).into_drawing_area();
        fig.draw(&root)?;
        root.present()
            .with_context(|| format!("cannot write {}", png.display()))?;
    }
    {
        let root = SVGBackend::new(&tmp_svg, size).into_drawing_area();
        fig.draw(&root)?;
        root.present()
            .with_context(|| format!("cannot write {}", svg.display()))?;
    }
    std::fs::rename(&tmp_png, &png)?;
    std::fs::rename(&tmp_svg, &svg)?;
    Ok(vec![png, svg])
}

/// A caption size that fits the title on one line of the figure's width.
fn caption_size(title: &str, width: u32) -> u32 {
    let chars = title.chars().count().max(1) as u32;
    (width * 17 / 10 / chars).clamp(9, 17)
}

fn perr<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow::anyhow!("drawing failed: {e}")
}

/// A colour per category: a fixed, colour-blind-friendly cycle.
fn palette(i: usize) -> RGBColor {
    const P: [RGBColor; 12] = [
        RGBColor(0, 114, 178),
        RGBColor(230, 159, 0),
        RGBColor(0, 158, 115),
        RGBColor(204, 121, 167),
        RGBColor(86, 180, 233),
        RGBColor(213, 94, 0),
        RGBColor(240, 228, 66),
        RGBColor(0, 0, 0),
        RGBColor(150, 150, 150),
        RGBColor(120, 60, 160),
        RGBColor(140, 90, 40),
        RGBColor(60, 120, 60),
    ];
    P[i % P.len()]
}

fn int_label(v: &f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        String::new()
    }
}

struct ScatterFig {
    pts: Vec<(f64, f64)>,
    xr: (i64, i64),
    yr: (i64, i64),
    xl: String,
    yl: String,
    title: String,
}

impl Figure for ScatterFig {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, plotters::coord::Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE).map_err(perr)?;
        let (xr, yr) = (self.xr, self.yr);
        let mut chart = ChartBuilder::on(root)
            .caption(
                &self.title,
                (
                    "sans-serif",
                    caption_size(&self.title, root.dim_in_pixel().0),
                ),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(
                (xr.0 as f64 - 0.5)..(xr.1 as f64 + 0.5),
                (yr.0 as f64 - 0.5)..(yr.1 as f64 + 0.5),
            )
            .map_err(perr)?;
        chart
            .configure_mesh()
            .x_desc(&self.xl)
            .y_desc(&self.yl)
            .x_label_formatter(&int_label)
            .y_label_formatter(&int_label)
            .light_line_style(WHITE)
            .draw()
            .map_err(perr)?;
        let span = ((xr.1 - xr.0).max(yr.1 - yr.0) + 1) as f64;
        let size = (800.0 / span / 2.0).clamp(1.0, 6.0) as i32;
        chart
            .draw_series(self.pts.iter().map(|&c| {
                EmptyElement::at(c) + Rectangle::new([(-size, -size), (size, size)], BLUE.filled())
            }))
            .map_err(perr)?;
        Ok(())
    }
}

/// Coloured cells: squares on an integer grid (heat maps, strips) or hexagons.
struct CellFig {
    cells: Vec<(f64, f64, String)>,
    cats: Vec<String>,
    xr: (f64, f64),
    yr: (f64, f64),
    xl: String,
    yl: String,
    legend: String,
    title: String,
    hex: bool,
    row_names: Option<Vec<String>>,
}

impl Figure for CellFig {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, plotters::coord::Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE).map_err(perr)?;
        let cat_index: HashMap<&str, usize> = self
            .cats
            .iter()
            .enumerate()
            .map(|(i, c)| (c.as_str(), i))
            .collect();
        let ylabel = match &self.row_names {
            Some(names) => 8 * names.iter().map(|s| s.len()).max().unwrap_or(4) as u32 + 20,
            None => 50,
        };
        let mut chart = ChartBuilder::on(root)
            .caption(
                &self.title,
                (
                    "sans-serif",
                    caption_size(&self.title, root.dim_in_pixel().0),
                ),
            )
            .margin(12)
            .x_label_area_size(if self.hex { 0 } else { 40 })
            .y_label_area_size(if self.hex { 0 } else { ylabel })
            .build_cartesian_2d(self.xr.0..self.xr.1, self.yr.0..self.yr.1)
            .map_err(perr)?;
        if !self.hex {
            let names = self.row_names.clone();
            let ylab = move |v: &f64| -> String {
                match &names {
                    Some(n) => {
                        let i = v.round();
                        if (v - i).abs() < 1e-9 && i >= 0.0 && (i as usize) < n.len() {
                            n[i as usize].clone()
                        } else {
                            String::new()
                        }
                    }
                    None => int_label(v),
                }
            };
            let rows = self.row_names.as_ref().map_or(10, |n| n.len().min(60));
            chart
                .configure_mesh()
                .x_desc(&self.xl)
                .y_desc(&self.yl)
                .x_label_formatter(&int_label)
                .y_label_formatter(&ylab)
                .y_labels(rows.max(2))
                .disable_mesh()
                .draw()
                .map_err(perr)?;
        }
        for (ci, cat) in self.cats.iter().enumerate() {
            let color = palette(ci);
            let pts: Vec<&(f64, f64, String)> = self
                .cells
                .iter()
                .filter(|c| cat_index.get(c.2.as_str()) == Some(&ci))
                .collect();
            let hex = self.hex;
            let strip = self.row_names.is_some();
            let series = chart
                .draw_series(pts.into_iter().map(move |&(x, y, _)| {
                    let shape: Vec<(f64, f64)> = if hex {
                        (0..6)
                            .map(|k| {
                                let a = std::f64::consts::PI / 3.0 * k as f64
                                    + std::f64::consts::PI / 6.0;
                                (x + 0.55 * a.cos(), y + 0.55 * a.sin())
                            })
                            .collect()
                    } else {
                        let h = if strip { 0.4 } else { 0.5 };
                        vec![
                            (x - 0.5, y - h),
                            (x + 0.5, y - h),
                            (x + 0.5, y + h),
                            (x - 0.5, y + h),
                        ]
                    };
                    Polygon::new(shape, color.filled())
                }))
                .map_err(perr)?;
            series
                .label(format!("{} = {cat}", self.legend))
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled())
                });
        }
        if self.hex {
            // Cell outlines, so empty cells and neighbours are visible.
            chart
                .draw_series(self.cells.iter().map(|&(x, y, _)| {
                    let mut shape: Vec<(f64, f64)> = (0..=6)
                        .map(|k| {
                            let a =
                                std::f64::consts::PI / 3.0 * k as f64 + std::f64::consts::PI / 6.0;
                            (x + 0.55 * a.cos(), y + 0.55 * a.sin())
                        })
                        .collect();
                    shape.push(shape[0]);
                    PathElement::new(shape, RGBColor(80, 80, 80).stroke_width(1))
                }))
                .map_err(perr)?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(perr)?;
        Ok(())
    }
}

struct BarsFig {
    bars: Vec<(f64, f64, String)>,
    cats: Vec<String>,
    xl: String,
    yl: String,
    title: String,
}

impl Figure for BarsFig {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, plotters::coord::Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE).map_err(perr)?;
        let x0 = self
            .bars
            .iter()
            .map(|b| b.0)
            .fold(f64::MAX, f64::min)
            .min(0.0);
        let x1 = self
            .bars
            .iter()
            .map(|b| b.0)
            .fold(f64::MIN, f64::max)
            .max(1.0);
        let y1 = self.bars.iter().map(|b| b.1).fold(0.0, f64::max).max(1.0) * 1.08;
        let mut chart = ChartBuilder::on(root)
            .caption(
                &self.title,
                (
                    "sans-serif",
                    caption_size(&self.title, root.dim_in_pixel().0),
                ),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d((x0 - 0.6)..(x1 + 0.6), 0.0..y1)
            .map_err(perr)?;
        chart
            .configure_mesh()
            .x_desc(&self.xl)
            .y_desc(&self.yl)
            .x_label_formatter(&int_label)
            .draw()
            .map_err(perr)?;
        let k = self.cats.len().max(1) as f64;
        let w = 0.8 / k;
        for (ci, cat) in self.cats.iter().enumerate() {
            let color = palette(ci);
            let off = -0.4 + w * ci as f64;
            let series = chart
                .draw_series(
                    self.bars
                        .iter()
                        .filter(|b| &b.2 == cat)
                        .map(move |&(x, y, _)| {
                            Rectangle::new([(x + off, 0.0), (x + off + w, y)], color.filled())
                        }),
                )
                .map_err(perr)?;
            series.label(cat.clone()).legend(move |(x, y)| {
                Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled())
            });
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(perr)?;
        Ok(())
    }
}
