//! Tables: a pivot (Markdown, CSV, and a PNG picture laid out like the
//! reports' printed tables) and a listing (Markdown and CSV).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use plotters::prelude::*;

use super::Target;
use super::draw::{ensure_font, family, perr, png_bytes};
use super::text::{Data, md_field, suffix, titled};
use crate::store::write_atomic;
use crate::view::{View, ViewKind};

/// Largest pivot rendered as a PNG picture (cells); larger ones get Markdown/CSV only.
const MAX_PNG_CELLS: usize = 40_000;
/// Largest PNG picture of a table (pixels, 48 MB of RGB while drawn): a
/// table of thousands of rows of long cells is no picture anyone reads,
/// and drawing it took more memory than solving it (a winning-move table
/// of 10,000 heap sizes was 4 GB).
const MAX_PNG_PIXELS: u64 = 16 << 20;
/// Largest table written as Markdown (rows); the CSV has more.
const MAX_MD_ROWS: usize = 5_000;
/// Largest table written as CSV (rows: what a spreadsheet opens); the
/// Parquet dataset has every row.
const MAX_CSV_ROWS: usize = 1 << 20;

/// A pivot table: row labels, column labels, cells (`None`: no row there).
pub struct Pivot {
    corner: String,
    rows: Vec<String>,
    cols: Vec<String>,
    cells: Vec<Vec<String>>,
    filled: Vec<Vec<bool>>,
}

/// A `Grid` view: one pivot per facet.
pub fn grid_view(view: &View, data: &Data<'_>, to: &Target<'_>) -> Result<Vec<PathBuf>> {
    let ViewKind::Grid {
        row,
        column,
        cell,
        empty,
        facet,
    } = view.kind
    else {
        unreachable!("grid_view takes grids")
    };
    let mut files = Vec::new();
    for (fname, rows) in data.facets(facet) {
        let sub = data.rows(&rows);
        let d = Data {
            t: &sub,
            ds: data.ds,
        };
        let p = pivot(&d, (row, column, cell), empty);
        let stem = suffix(view.name, fname.as_deref());
        let title = titled(view.title, to.context, fname.as_deref());
        files.extend(write_pivot(&p, &to.tables, &stem, &title, empty)?);
    }
    Ok(files)
}

fn pivot(d: &Data<'_>, (row, column, cell): (&str, &str, &str), empty: &str) -> Pivot {
    let rows = d.distinct(row);
    let cols = d.distinct(column);
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
    let mut cells = vec![vec![String::new(); cols.len()]; rows.len()];
    let mut filled = vec![vec![false; cols.len()]; rows.len()];
    for i in 0..d.t.rows() {
        let (r, c) = (ri[d.text(row, i).as_str()], ci[d.text(column, i).as_str()]);
        let v = d.text(cell, i);
        cells[r][c] = if v.is_empty() { empty.to_string() } else { v };
        filled[r][c] = true;
    }
    Pivot {
        corner: format!("{row} \\ {column}"),
        rows,
        cols,
        cells,
        filled,
    }
}

fn write_pivot(
    p: &Pivot,
    dir: &Path,
    stem: &str,
    title: &str,
    highlight: &str,
) -> Result<Vec<PathBuf>> {
    let mut md = format!("# {title}\n\n| {} |", md_field(&p.corner));
    let mut csv = csv::Writer::from_writer(Vec::new());
    let mut head = vec![p.corner.as_str()];
    head.extend(p.cols.iter().map(String::as_str));
    csv.write_record(&head)?;
    for c in &p.cols {
        let _ = write!(md, " {} |", md_field(c));
    }
    md.push_str("\n|---|");
    md.push_str(&"---|".repeat(p.cols.len()));
    md.push('\n');
    for (r, name) in p.rows.iter().enumerate().take(MAX_CSV_ROWS) {
        let mut rec = vec![name.as_str()];
        for c in 0..p.cols.len() {
            rec.push(if p.filled[r][c] {
                p.cells[r][c].as_str()
            } else {
                ""
            });
        }
        if r < MAX_MD_ROWS {
            md.push('|');
            for v in &rec {
                let _ = write!(md, " {} |", md_field(v));
            }
            md.push('\n');
        }
        csv.write_record(&rec)?;
    }
    md.push_str(&cut_note(p.rows.len(), stem));
    let mut files = vec![
        dir.join(format!("{stem}.md")),
        dir.join(format!("{stem}.csv")),
    ];
    write_atomic(&files[0], md.as_bytes())?;
    write_atomic(&files[1], &csv.into_inner().context("cannot write CSV")?)?;
    let (width, height) = png_size(title, p);
    if p.rows.len() * p.cols.len() <= MAX_PNG_CELLS
        && u64::from(width) * u64::from(height) <= MAX_PNG_PIXELS
    {
        let png = dir.join(format!("{stem}.png"));
        table_png(&png, title, p, highlight)?;
        files.push(png);
    }
    Ok(files)
}

/// A `Listing` view: the selected rows and columns (columns null on every
/// row are left out).
pub fn listing_view(view: &View, data: &Data<'_>, to: &Target<'_>) -> Result<Vec<PathBuf>> {
    let ViewKind::Listing { columns, filter } = view.kind else {
        unreachable!("listing_view takes listings")
    };
    let sub = data.rows(&data.filter(filter));
    let d = Data {
        t: &sub,
        ds: data.ds,
    };
    let cols: Vec<&str> = columns
        .iter()
        .copied()
        .filter(|c| sub.rows() == 0 || !d.all_null(c))
        .collect();
    let title = titled(view.title, to.context, None);
    listing(&d, &cols, &to.tables, view.name, &title)
}

fn listing(
    d: &Data<'_>,
    columns: &[&str],
    dir: &Path,
    stem: &str,
    title: &str,
) -> Result<Vec<PathBuf>> {
    let mut md = format!("# {title}\n\n|");
    let mut csv = csv::Writer::from_writer(Vec::new());
    csv.write_record(columns)?;
    for c in columns {
        let _ = write!(md, " {} |", md_field(c));
    }
    md.push_str("\n|");
    md.push_str(&"---|".repeat(columns.len()));
    md.push('\n');
    for i in 0..d.t.rows().min(MAX_CSV_ROWS) {
        let rec: Vec<String> = columns.iter().map(|c| d.text(c, i)).collect();
        if i < MAX_MD_ROWS {
            md.push('|');
            for v in &rec {
                let _ = write!(md, " {} |", md_field(v));
            }
            md.push('\n');
        }
        csv.write_record(&rec)?;
    }
    md.push_str(&cut_note(d.t.rows(), stem));
    let files = vec![
        dir.join(format!("{stem}.md")),
        dir.join(format!("{stem}.csv")),
    ];
    write_atomic(&files[0], md.as_bytes())?;
    write_atomic(&files[1], &csv.into_inner().context("cannot write CSV")?)?;
    Ok(files)
}

/// What a table of `rows` rows cut short says: where its other rows are
/// (empty when nothing is cut).
fn cut_note(rows: usize, stem: &str) -> String {
    if rows > MAX_CSV_ROWS {
        format!(
            "\n({} more rows: the first {MAX_CSV_ROWS} are in {stem}.csv, every row in the sweep's Parquet dataset)\n",
            rows - MAX_MD_ROWS
        )
    } else if rows > MAX_MD_ROWS {
        format!("\n({} more rows in {stem}.csv)\n", rows - MAX_MD_ROWS)
    } else {
        String::new()
    }
}

/// The pixels of [`table_png`]'s picture of `g`: its width and height.
fn png_size(title: &str, g: &Pivot) -> (u32, u32) {
    let (width, height, ..) = png_layout(title, g);
    (width, height)
}

/// The layout of [`table_png`]'s picture: width, height, the row
/// labels' and each column's width in pixels.
fn png_layout(title: &str, g: &Pivot) -> (u32, u32, u32, Vec<u32>) {
    let (corner, rows, cols, m) = (&g.corner, &g.rows, &g.cols, &g.cells);
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
    let width = (head_px + col_px.iter().sum::<u32>() + 2)
        .max(title.chars().count() as u32 * 8 + 20)
        .min(30_000);
    let height = (PNG_TOP + PNG_ROW_H * (rows.len() as u32 + 1) + 2).min(30_000);
    (width, height, head_px, col_px)
}

/// A table picture's title band and row height (pixels).
const PNG_TOP: u32 = 34;
const PNG_ROW_H: u32 = 18;

/// A picture of a table, laid out like the reports' printed tables.
fn table_png(path: &Path, title: &str, g: &Pivot, highlight: &str) -> Result<()> {
    ensure_font();
    let (corner, rows, cols, m) = (&g.corner, &g.rows, &g.cols, &g.cells);
    let (width, height, head_px, col_px) = png_layout(title, g);
    let (row_h, top) = (PNG_ROW_H, PNG_TOP);
    let mut rgb = vec![0u8; width as usize * height as usize * 3];
    let area = BitMapBackend::with_buffer(&mut rgb, (width, height)).into_drawing_area();
    area.fill(&WHITE).map_err(perr)?;
    let font = ("sans-serif", 13).into_font();
    let cjk = (super::draw::CJK, 13).into_font();
    let font_for = |s: &str| {
        if family(s) == "sans-serif" {
            font.clone()
        } else {
            cjk.clone()
        }
    };
    area.draw_text(
        title,
        &(family(title), 15).into_font().color(&BLACK),
        (6, 8),
    )?;
    let header_bg = RGBColor(225, 230, 240);
    let p_bg = RGBColor(255, 236, 200);
    // Header row.
    let mut x = 1i32;
    area.draw(&Rectangle::new(
        [(x, top as i32), (x + head_px as i32, (top + row_h) as i32)],
        header_bg.filled(),
    ))?;
    area.draw_text(
        corner,
        &font_for(corner).color(&BLACK),
        (x + 4, top as i32 + 2),
    )?;
    x += head_px as i32;
    for (c, name) in cols.iter().enumerate() {
        let w = col_px[c] as i32;
        area.draw(&Rectangle::new(
            [(x, top as i32), (x + w, (top + row_h) as i32)],
            header_bg.filled(),
        ))?;
        area.draw_text(name, &font_for(name).color(&BLACK), (x + 4, top as i32 + 2))?;
        x += w;
    }
    for (r, name) in rows.iter().enumerate() {
        let y = (top + row_h * (r as u32 + 1)) as i32;
        let mut x = 1i32;
        area.draw(&Rectangle::new(
            [(x, y), (x + head_px as i32, y + row_h as i32)],
            header_bg.filled(),
        ))?;
        area.draw_text(name, &font_for(name).color(&BLACK), (x + 4, y + 2))?;
        x += head_px as i32;
        for (c, v) in m[r].iter().enumerate() {
            let w = col_px[c] as i32;
            if !highlight.is_empty() && v == highlight {
                area.draw(&Rectangle::new(
                    [(x, y), (x + w, y + row_h as i32)],
                    p_bg.filled(),
                ))?;
            }
            area.draw(&Rectangle::new(
                [(x, y), (x + w, y + row_h as i32)],
                RGBColor(200, 200, 200).stroke_width(1),
            ))?;
            area.draw_text(v, &font_for(v).color(&BLACK), (x + 4, y + 2))?;
            x += w;
        }
    }
    area.present().map_err(perr)?;
    drop(area);
    write_atomic(path, &png_bytes(&rgb, (width, height))?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pivot of `rows` rows, each cell `width` characters.
    fn pivot(rows: usize, cols: usize, width: usize) -> Pivot {
        Pivot {
            corner: "N".into(),
            rows: (0..rows).map(|r| r.to_string()).collect(),
            cols: (0..cols).map(|c| format!("c{c}")).collect(),
            cells: vec![vec!["x".repeat(width); cols]; rows],
            filled: vec![vec![true; cols]; rows],
        }
    }

    /// A winning-move table of 10,000 rows of long cells under the cell
    /// limit is written as Markdown (cut at 5,000 rows, saying where the
    /// rest is) and CSV (whole), but drawn as no picture: 10,000 rows of
    /// 18 pixels are beyond the pixel limit whatever the width. A small
    /// table is drawn.
    #[test]
    fn a_tall_table_is_not_drawn_and_its_markdown_is_cut() {
        let big = pivot(10_000, 3, 200);
        assert!(big.rows.len() * big.cols.len() <= MAX_PNG_CELLS);
        let (w, h) = png_size("t", &big);
        assert!(u64::from(w) * u64::from(h) > MAX_PNG_PIXELS, "{w}×{h}");
        let dir = tempfile::tempdir().unwrap();
        let files = write_pivot(&big, dir.path(), "big", "t", "").unwrap();
        assert!(files.iter().all(|f| f.extension().unwrap() != "png"));
        let md = std::fs::read_to_string(dir.path().join("big.md")).unwrap();
        assert_eq!(
            md.lines().filter(|l| l.starts_with("| ")).count(),
            1 + MAX_MD_ROWS
        );
        assert!(
            md.contains("5000 more rows in big.csv"),
            "{}",
            &md[md.len() - 80..]
        );
        let csv = std::fs::read_to_string(dir.path().join("big.csv")).unwrap();
        assert_eq!(csv.lines().count(), 1 + 10_000);
        let small = pivot(20, 3, 5);
        let files = write_pivot(&small, dir.path(), "small", "t", "").unwrap();
        assert!(files.iter().any(|f| f.extension().unwrap() == "png"));
    }
}
