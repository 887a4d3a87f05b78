//! Draws [`View`]s from stored datasets: Markdown and CSV tables, PNG pictures
//! of tables, scatter plots (PNG and SVG). Knows column names, not games.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use plotters::prelude::*;

use crate::store::write_atomic;
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

/// Renders one view of a dataset into `dir` (`tables/` and `figures/`); returns the files written.
pub fn render(view: &View, data: &Table, dir: &Path, context: &str) -> Result<Vec<PathBuf>> {
    for col in view_columns(view) {
        if data.column(&col).is_none() {
            anyhow::bail!("view {} needs column {col}, which dataset {} does not have", view.name, view.dataset);
        }
    }
    match &view.kind {
        ViewKind::Grid { row, column, cell, empty, facet } => {
            let mut files = Vec::new();
            for (fname, rows) in facets(data, facet.as_deref()) {
                let sub = data.take_rows(&rows);
                let stem = suffix(&view.name, fname.as_deref());
                let title = titled(&view.title, context, fname.as_deref());
                files.extend(grid(&sub, row, column, cell, empty, &dir.join("tables"), &stem, &title)?);
            }
            Ok(files)
        }
        ViewKind::Listing { columns, filter } => {
            let rows = filter_rows(data, filter);
            let sub = data.take_rows(&rows);
            listing(&sub, columns, &dir.join("tables"), &view.name, &titled(&view.title, context, None))
        }
        ViewKind::Scatter { x, y, filter, facet } => {
            let mut files = Vec::new();
            let filt: Vec<(String, String)> = filter.iter().cloned().collect();
            let keep = filter_rows(data, &filt);
            let sub = data.take_rows(&keep);
            // Axis ranges come from the whole dataset, so empty facets still show their range.
            let xr = int_range(data, x);
            let yr = int_range(data, y);
            for (fname, rows) in facets(data, facet.as_deref()) {
                let pts: Vec<(i64, i64)> = if let Some(f) = facet {
                    (0..sub.rows())
                        .filter(|&i| Some(sub.cell(f, i).unwrap().to_string()) == fname)
                        .filter_map(|i| Some((as_int(sub.cell(x, i)?)?, as_int(sub.cell(y, i)?)?)))
                        .collect()
                } else {
                    let _ = rows;
                    (0..sub.rows()).filter_map(|i| Some((as_int(sub.cell(x, i)?)?, as_int(sub.cell(y, i)?)?))).collect()
                };
                let stem = suffix(&view.name, fname.as_deref());
                let title = titled(&view.title, context, fname.as_deref());
                files.extend(scatter(&pts, xr, yr, x, y, &title, &dir.join("figures"), &stem)?);
            }
            Ok(files)
        }
    }
}

fn view_columns(view: &View) -> Vec<String> {
    match &view.kind {
        ViewKind::Grid { row, column, cell, facet, .. } => {
            let mut v = vec![row.clone(), column.clone(), cell.clone()];
            v.extend(facet.iter().cloned());
            v
        }
        ViewKind::Listing { columns, filter } => columns.iter().cloned().chain(filter.iter().map(|f| f.0.clone())).collect(),
        ViewKind::Scatter { x, y, filter, facet } => {
            let mut v = vec![x.clone(), y.clone()];
            v.extend(filter.iter().map(|f| f.0.clone()));
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
                .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '.' { c } else { '_' })
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
        .filter(|&i| filter.iter().all(|(c, v)| t.cell(c, i).map(|x| x.to_string()) == Some(v.clone())))
        .collect()
}

/// Groups rows by a facet column, in order of first appearance.
fn facets(t: &Table, facet: Option<&str>) -> Vec<(Option<String>, Vec<usize>)> {
    let Some(f) = facet else { return vec![(None, (0..t.rows()).collect())] };
    let mut order: Vec<String> = Vec::new();
    let mut groups: HashMap<String, Vec<usize>> = HashMap::new();
    for i in 0..t.rows() {
        let k = t.cell(f, i).unwrap().to_string();
        if !groups.contains_key(&k) {
            order.push(k.clone());
        }
        groups.entry(k).or_default().push(i);
    }
    order.into_iter().map(|k| {
        let rows = groups.remove(&k).unwrap();
        (Some(k), rows)
    }).collect()
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
fn grid(t: &Table, row: &str, column: &str, cell: &str, empty: &str, dir: &Path, stem: &str, title: &str) -> Result<Vec<PathBuf>> {
    let rows = distinct_in_order(t, row);
    let cols = distinct_in_order(t, column);
    let ri: HashMap<&str, usize> = rows.iter().enumerate().map(|(i, s)| (s.as_str(), i)).collect();
    let ci: HashMap<&str, usize> = cols.iter().enumerate().map(|(i, s)| (s.as_str(), i)).collect();
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
    let mut files = vec![dir.join(format!("{stem}.md")), dir.join(format!("{stem}.csv"))];
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
fn listing(t: &Table, columns: &[String], dir: &Path, stem: &str, title: &str) -> Result<Vec<PathBuf>> {
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
    let files = vec![dir.join(format!("{stem}.md")), dir.join(format!("{stem}.csv"))];
    write_atomic(&files[0], md.as_bytes())?;
    write_atomic(&files[1], csv.as_bytes())?;
    Ok(files)
}

/// A temporary name next to `path` that keeps its extension (the image
/// encoder picks the format from it); renamed into place when complete.
fn tmp_path(path: &Path) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    let (stem, ext) = name.rsplit_once('.').unwrap_or((&name, "tmp"));
    path.with_file_name(format!(".{stem}.tmp-{}.{ext}", std::process::id()))
}

/// A picture of a table, laid out like the reports' printed tables.
fn table_png(path: &Path, title: &str, corner: &str, rows: &[String], cols: &[String], m: &[Vec<String>]) -> Result<()> {
    ensure_font();
    let char_w = 8u32;
    let mut widths: Vec<u32> = cols.iter().map(|c| c.chars().count() as u32).collect();
    for r in m {
        for (c, v) in r.iter().enumerate() {
            widths[c] = widths[c].max(v.chars().count() as u32);
        }
    }
    let head_w = rows.iter().map(|r| r.chars().count()).max().unwrap_or(1).max(corner.chars().count()) as u32;
    let col_px: Vec<u32> = widths.iter().map(|w| w.max(&2) * char_w + 12).collect();
    let head_px = head_w * char_w + 12;
    let row_h = 18u32;
    let top = 34u32;
    let width = (head_px + col_px.iter().sum::<u32>() + 2).max(title.chars().count() as u32 * 8 + 20).min(30_000);
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
    area.draw(&Rectangle::new([(x, top as i32), (x + head_px as i32, (top + row_h) as i32)], header_bg.filled()))?;
    area.draw_text(corner, &font.color(&BLACK), (x + 4, top as i32 + 2))?;
    x += head_px as i32;
    for (c, name) in cols.iter().enumerate() {
        let w = col_px[c] as i32;
        area.draw(&Rectangle::new([(x, top as i32), (x + w, (top + row_h) as i32)], header_bg.filled()))?;
        area.draw_text(name, &font.color(&BLACK), (x + 4, top as i32 + 2))?;
        x += w;
    }
    for (r, name) in rows.iter().enumerate() {
        let y = (top + row_h * (r as u32 + 1)) as i32;
        let mut x = 1i32;
        area.draw(&Rectangle::new([(x, y), (x + head_px as i32, y + row_h as i32)], header_bg.filled()))?;
        area.draw_text(name, &font.color(&BLACK), (x + 4, y + 2))?;
        x += head_px as i32;
        for (c, v) in m[r].iter().enumerate() {
            let w = col_px[c] as i32;
            if v == "E" {
                area.draw(&Rectangle::new([(x, y), (x + w, y + row_h as i32)], p_bg.filled()))?;
            }
            area.draw(&Rectangle::new([(x, y), (x + w, y + row_h as i32)], RGBColor(200, 200, 200).stroke_width(1)))?;
            area.draw_text(v, &font.color(&BLACK), (x + 4, y + 2))?;
            x += w;
        }
    }
    area.present().with_context(|| format!("cannot write {}", path.display()))?;
    drop(area);
    std::fs::rename(&tmp, path)?;
    Ok(())
}

/// A scatter plot of integer points, as PNG and SVG.
#[allow(clippy::too_many_arguments)]
fn scatter(pts: &[(i64, i64)], xr: (i64, i64), yr: (i64, i64), xl: &str, yl: &str, title: &str, dir: &Path, stem: &str) -> Result<Vec<PathBuf>> {
    ensure_font();
    std::fs::create_dir_all(dir)?;
    let png = dir.join(format!("{stem}.png"));
    let svg = dir.join(format!("{stem}.svg"));
    let tmp_png = tmp_path(&png);
    let tmp_svg = tmp_path(&svg);
    {
        let root = BitMapBackend::new(&tmp_png, (900, 900)).into_drawing_area();
        draw_scatter(&root, pts, xr, yr, xl, yl, title)?;
        root.present().with_context(|| format!("cannot write {}", png.display()))?;
    }
    {
        let root = SVGBackend::new(&tmp_svg, (900, 900)).into_drawing_area();
        draw_scatter(&root, pts, xr, yr, xl, yl, title)?;
        root.present().with_context(|| format!("cannot write {}", svg.display()))?;
    }
    std::fs::rename(&tmp_png, &png)?;
    std::fs::rename(&tmp_svg, &svg)?;
    Ok(vec![png, svg])
}

fn draw_scatter<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    pts: &[(i64, i64)],
    xr: (i64, i64),
    yr: (i64, i64),
    xl: &str,
    yl: &str,
    title: &str,
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d((xr.0 as f64 - 0.5)..(xr.1 as f64 + 0.5), (yr.0 as f64 - 0.5)..(yr.1 as f64 + 0.5))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    chart
        .configure_mesh()
        .x_desc(xl)
        .y_desc(yl)
        .light_line_style(WHITE)
        .draw()
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let span = ((xr.1 - xr.0).max(yr.1 - yr.0) + 1) as f64;
    let size = (800.0 / span / 2.0).clamp(1.0, 6.0) as i32;
    chart
        .draw_series(pts.iter().map(|&(x, y)| {
            let c = (x as f64, y as f64);
            EmptyElement::at(c) + Rectangle::new([(-size, -size), (size, size)], BLUE.filled())
        }))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(())
}
