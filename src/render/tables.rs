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

/// Rows and columns a pivot's PNG picture draws at most: a larger table is
/// drawn up to there, its title saying so (the Markdown and CSV have it
/// all), so that no picture costs more memory than the data it shows.
const MAX_PNG_ROWS: usize = 100;
const MAX_PNG_COLS: usize = 40;
/// Longest cell drawn whole in a pivot's PNG picture (characters); a longer
/// one is cut with `…` there (Markdown and CSV have it whole). A cell of
/// every winning move of a splitting rule runs to thousands of characters,
/// and the picture's pixels with it (1.2 GB for Kayles to N = 1000).
const MAX_PNG_CELL_CHARS: usize = 64;
/// Largest table written as Markdown (rows); the CSV has more.
const MAX_MD_ROWS: usize = 5_000;
/// Largest table written as CSV (rows: what a spreadsheet opens); the
/// Parquet dataset has every row.
const MAX_CSV_ROWS: usize = 1 << 20;
/// Longest cell of a table's Markdown and CSV (characters): a longer list
/// is cut at an item, saying how many it has
/// ([`super::text::Data::text_within`]). The longest cell of the default
/// run's tables is 2,348 characters (Kayles' winning moves to 100); a
/// heap of 20,000 in Kayles lists some 19,000.
const MAX_CELL_CHARS: usize = 2_500;
/// Text a table holds at most (bytes): its rows stop there, the cut note
/// saying so, so that no table costs much more memory than its data. A
/// table of short cells keeps its [`MAX_CSV_ROWS`].
const MAX_TABLE_BYTES: usize = 48 << 20;
/// Rows whose text gives a table's size per row before it is built.
const SIZING_ROWS: usize = 256;

/// A pivot table: row labels, column labels, cells (`None`: no row there).
pub struct Pivot {
    corner: String,
    rows: Vec<String>,
    cols: Vec<String>,
    cells: Vec<Vec<String>>,
    filled: Vec<Vec<bool>>,
    /// Rows of the whole table (`rows` may hold fewer: [`MAX_TABLE_BYTES`]).
    total: usize,
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
        let sub = data.subset(&rows, &view.kind.columns());
        let d = data.on(&sub);
        let p = pivot(&d, (row, column, cell), empty, MAX_TABLE_BYTES);
        let stem = suffix(view.name, fname.as_deref());
        let title = titled(view.title, to.context, fname.as_deref());
        files.extend(write_pivot(&p, &to.tables, &stem, &title, empty)?);
    }
    Ok(files)
}

/// The pivot of `d`: rows `row`, columns `column`, cells `cell` (`empty`
/// where the text is), with the rows that fit in `budget` bytes of text.
fn pivot(
    d: &Data<'_>,
    (row, column, cell): (&str, &str, &str),
    empty: &str,
    budget: usize,
) -> Pivot {
    let mut rows = d.distinct(row);
    let cols = d.distinct(column);
    let total = rows.len();
    rows.truncate(rows_within(d, cell, cols.len(), budget));
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
        let Some(&r) = ri.get(d.text(row, i).as_str()) else {
            continue;
        };
        let c = ci[d.text(column, i).as_str()];
        let v = d.text_within(cell, i, MAX_CELL_CHARS);
        cells[r][c] = if v.is_empty() { empty.to_string() } else { v };
        filled[r][c] = true;
    }
    Pivot {
        corner: format!("{row} \\ {column}"),
        rows,
        cols,
        cells,
        filled,
        total,
    }
}

/// Rows of a table whose rows have `cols` cells of column `cell` that fit
/// in `budget` bytes (at most [`MAX_CSV_ROWS`]): the text of
/// [`SIZING_ROWS`] data rows spread over the table gives a cell's size (a
/// list of winning moves grows with the heap).
fn rows_within(d: &Data<'_>, cell: &str, cols: usize, budget: usize) -> usize {
    let all = d.t.rows();
    let n = all.min(SIZING_ROWS);
    let bytes: usize = (0..n)
        .map(|j| d.text_within(cell, j * all / n, MAX_CELL_CHARS).len() + 24)
        .sum();
    let per_row = bytes.div_ceil(n.max(1)).max(1) * cols.max(1);
    (budget / per_row).clamp(1, MAX_CSV_ROWS)
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
    for (r, name) in p.rows.iter().enumerate() {
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
    md.push_str(&cut_note(p.total, p.rows.len(), stem));
    let mut files = vec![
        dir.join(format!("{stem}.md")),
        dir.join(format!("{stem}.csv")),
    ];
    write_atomic(&files[0], md.as_bytes())?;
    write_atomic(&files[1], &csv.into_inner().context("cannot write CSV")?)?;
    let png = dir.join(format!("{stem}.png"));
    let (shown, title) = bounded(p, title);
    table_png(&png, &title, shown.as_ref().unwrap_or(p), highlight)?;
    files.push(png);
    Ok(files)
}

/// The part of a pivot its picture draws (`None`: all of it) and the
/// picture's title, which says where the table is cut.
fn bounded(p: &Pivot, title: &str) -> (Option<Pivot>, String) {
    let (nr, nc) = (p.total, p.cols.len());
    if nr <= MAX_PNG_ROWS && nc <= MAX_PNG_COLS {
        return (None, title.to_string());
    }
    let (r, c) = (p.rows.len().min(MAX_PNG_ROWS), nc.min(MAX_PNG_COLS));
    let part = Pivot {
        corner: p.corner.clone(),
        rows: p.rows[..r].to_vec(),
        cols: p.cols[..c].to_vec(),
        cells: p.cells[..r].iter().map(|row| row[..c].to_vec()).collect(),
        filled: p.filled[..r].iter().map(|row| row[..c].to_vec()).collect(),
        total: r,
    };
    let rest = if p.rows.len() < nr {
        "the first ones in the .csv, all in the dataset"
    } else {
        "all in the .md and .csv"
    };
    let title = format!("{title} (drawn: {r} of {nr} rows, {c} of {nc} columns; {rest})");
    (Some(part), title)
}

/// A `Listing` view: the selected rows and columns (columns null on every
/// row are left out).
pub fn listing_view(view: &View, data: &Data<'_>, to: &Target<'_>) -> Result<Vec<PathBuf>> {
    let ViewKind::Listing { columns, filter } = view.kind else {
        unreachable!("listing_view takes listings")
    };
    let sub = data.subset(&data.filter(filter), &view.kind.columns());
    let d = data.on(&sub);
    let cols: Vec<&str> = columns
        .iter()
        .copied()
        .filter(|c| d.t.rows() == 0 || !d.all_null(c))
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
    let mut bytes = 0;
    let mut written = 0;
    for i in 0..d.t.rows() {
        if bytes > MAX_TABLE_BYTES || i >= MAX_CSV_ROWS {
            break;
        }
        let rec: Vec<String> = columns
            .iter()
            .map(|c| d.text_within(c, i, MAX_CELL_CHARS))
            .collect();
        bytes += rec.iter().map(|v| v.len() + 1).sum::<usize>();
        written += 1;
        if i < MAX_MD_ROWS {
            md.push('|');
            for v in &rec {
                let _ = write!(md, " {} |", md_field(v));
            }
            md.push('\n');
        }
        csv.write_record(&rec)?;
    }
    md.push_str(&cut_note(d.t.rows(), written, stem));
    let files = vec![
        dir.join(format!("{stem}.md")),
        dir.join(format!("{stem}.csv")),
    ];
    write_atomic(&files[0], md.as_bytes())?;
    write_atomic(&files[1], &csv.into_inner().context("cannot write CSV")?)?;
    Ok(files)
}

/// What a table of `total` rows, `in_csv` of them in its CSV, says where
/// its other rows are (empty when nothing is cut).
fn cut_note(total: usize, in_csv: usize, stem: &str) -> String {
    let in_md = in_csv.min(MAX_MD_ROWS);
    if total > in_csv {
        format!(
            "\n({} more rows: the first {in_csv} are in {stem}.csv, every row in the sweep's Parquet dataset)\n",
            total - in_md
        )
    } else if total > in_md {
        format!("\n({} more rows in {stem}.csv)\n", total - in_md)
    } else {
        String::new()
    }
}

/// `v` as a PNG cell draws it: cut to [`MAX_PNG_CELL_CHARS`] with `…`.
fn clipped(v: &str) -> std::borrow::Cow<'_, str> {
    match v.char_indices().nth(MAX_PNG_CELL_CHARS - 1) {
        Some((i, _)) if v.chars().count() > MAX_PNG_CELL_CHARS => format!("{}…", &v[..i]).into(),
        _ => v.into(),
    }
}

/// Pixel layout of a table picture: the row-header column's width, each
/// column's width, a row's height and the header row's top.
struct Layout {
    head_px: u32,
    col_px: Vec<u32>,
    row_h: u32,
    top: u32,
}

type Area<'a> = DrawingArea<BitMapBackend<'a>, plotters::coord::Shift>;

/// A picture of a table, laid out like the reports' printed tables.
fn table_png(path: &Path, title: &str, g: &Pivot, highlight: &str) -> Result<()> {
    ensure_font();
    let m: Vec<Vec<std::borrow::Cow<'_, str>>> = g
        .cells
        .iter()
        .map(|r| r.iter().map(|v| clipped(v)).collect())
        .collect();
    let l = layout(g, &m);
    let width = (l.head_px + l.col_px.iter().sum::<u32>() + 2)
        .max(title.chars().count() as u32 * 8 + 20)
        .min(30_000);
    let height = (l.top + l.row_h * (g.rows.len() as u32 + 1) + 2).min(30_000);
    let mut rgb = vec![0u8; width as usize * height as usize * 3];
    let area = BitMapBackend::with_buffer(&mut rgb, (width, height)).into_drawing_area();
    area.fill(&WHITE).map_err(perr)?;
    area.draw_text(
        title,
        &(family(title), 15).into_font().color(&BLACK),
        (6, 8),
    )?;
    let header: Vec<std::borrow::Cow<'_, str>> = g.cols.iter().map(|c| c.into()).collect();
    draw_row(&area, &l, 0, &g.corner, &header, None)?;
    for (r, name) in g.rows.iter().enumerate() {
        draw_row(&area, &l, r + 1, name, &m[r], Some(highlight))?;
    }
    area.present().map_err(perr)?;
    drop(area);
    write_atomic(path, &png_bytes(&rgb, (width, height))?)
}

/// Column widths from the longest text in each (8 pixels a character).
fn layout(g: &Pivot, m: &[Vec<std::borrow::Cow<'_, str>>]) -> Layout {
    let char_w = 8u32;
    let mut widths: Vec<u32> = g.cols.iter().map(|c| c.chars().count() as u32).collect();
    for r in m {
        for (c, v) in r.iter().enumerate() {
            widths[c] = widths[c].max(v.chars().count() as u32);
        }
    }
    let head_w = g
        .rows
        .iter()
        .map(|r| r.chars().count())
        .max()
        .unwrap_or(1)
        .max(g.corner.chars().count()) as u32;
    Layout {
        head_px: head_w * char_w + 12,
        col_px: widths.iter().map(|w| w.max(&2) * char_w + 12).collect(),
        row_h: 18,
        top: 34,
    }
}

/// The font for `s`: sans-serif, or the CJK font where `s` needs it.
fn cell_font(s: &str) -> FontDesc<'static> {
    if family(s) == "sans-serif" {
        ("sans-serif", 13).into_font()
    } else {
        (super::draw::CJK, 13).into_font()
    }
}

/// Row `r` of the picture (0: the header row): its row-header cell, then
/// its cells. The header row's cells are shaded; a body row's cells are
/// outlined, those equal to a non-empty `highlight` shaded.
fn draw_row(
    area: &Area<'_>,
    l: &Layout,
    r: usize,
    name: &str,
    cells: &[std::borrow::Cow<'_, str>],
    highlight: Option<&str>,
) -> Result<()> {
    let header_bg = RGBColor(225, 230, 240);
    let p_bg = RGBColor(255, 236, 200);
    let y = (l.top + l.row_h * r as u32) as i32;
    let h = l.row_h as i32;
    let mut x = 1i32;
    area.draw(&Rectangle::new(
        [(x, y), (x + l.head_px as i32, y + h)],
        header_bg.filled(),
    ))?;
    area.draw_text(name, &cell_font(name).color(&BLACK), (x + 4, y + 2))?;
    x += l.head_px as i32;
    for (c, v) in cells.iter().enumerate() {
        let w = l.col_px[c] as i32;
        let v: &str = v;
        match highlight {
            None => area.draw(&Rectangle::new(
                [(x, y), (x + w, y + h)],
                header_bg.filled(),
            ))?,
            Some(hl) => {
                if !hl.is_empty() && v == hl {
                    area.draw(&Rectangle::new([(x, y), (x + w, y + h)], p_bg.filled()))?;
                }
                area.draw(&Rectangle::new(
                    [(x, y), (x + w, y + h)],
                    RGBColor(200, 200, 200).stroke_width(1),
                ))?;
            }
        }
        area.draw_text(v, &cell_font(v).color(&BLACK), (x + 4, y + 2))?;
        x += w;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pivot of `r` rows and `c` columns, cell (i, j) = "i,j".
    fn pivot(r: usize, c: usize) -> Pivot {
        Pivot {
            corner: "N \\ rule".into(),
            rows: (0..r).map(|i| i.to_string()).collect(),
            cols: (0..c).map(|j| format!("max:{j}")).collect(),
            cells: (0..r)
                .map(|i| (0..c).map(|j| format!("{i},{j}")).collect())
                .collect(),
            filled: vec![vec![true; c]; r],
            total: r,
        }
    }

    #[test]
    fn a_large_table_is_drawn_up_to_a_size_and_says_so() {
        let (part, title) = bounded(&pivot(30_000, 3), "Winning moves");
        let part = part.expect("cut");
        assert_eq!((part.rows.len(), part.cols.len()), (MAX_PNG_ROWS, 3));
        assert_eq!(
            part.cells[MAX_PNG_ROWS - 1][2],
            format!("{},2", MAX_PNG_ROWS - 1)
        );
        assert!(
            title.contains("drawn: 100 of 30000 rows, 3 of 3 columns"),
            "{title}"
        );
        let (part, title) = bounded(&pivot(10, 500), "T");
        assert_eq!(part.expect("cut").cols.len(), MAX_PNG_COLS);
        assert!(title.contains("40 of 500 columns"));
        let (part, title) = bounded(&pivot(100, 40), "T");
        assert!(part.is_none() && title == "T");
        // The picture of a cut table stays small.
        let dir = tempfile::tempdir().unwrap();
        let files = write_pivot(&pivot(3_000, 60), dir.path(), "t", "T", "E").unwrap();
        let png = std::fs::read(&files[2]).unwrap();
        let (w, h) = (
            u32::from_be_bytes(png[16..20].try_into().unwrap()),
            u32::from_be_bytes(png[20..24].try_into().unwrap()),
        );
        assert!(h < 2_000 && w < 6_000, "{w} × {h}");
        let csv = std::fs::read_to_string(&files[1]).unwrap();
        assert_eq!(csv.lines().count(), 3_001);
    }

    /// A table whose cells list thousands of moves: each cell is cut at an
    /// item and says how many the list has, and the table keeps the rows
    /// that fit in its byte budget, its note saying where the others are.
    #[test]
    fn long_list_cells_are_cut_and_the_table_stays_within_its_budget() {
        use crate::data::{Column, Dataset, Dtype, IntListVec, Role, Table, Values};
        static COLS: &[Column] = &[
            Column::new("N", Dtype::Int, Role::Position, "heap"),
            Column::new("rule", Dtype::Str, Role::Param, "rule"),
            Column::new("moves", Dtype::IntList, Role::Result, "moves"),
        ];
        static DS: Dataset = Dataset {
            name: "t",
            doc: "t",
            groups: &[COLS],
        };
        let rows = 8_000_usize;
        let mut moves = IntListVec::default();
        for n in 0..rows {
            moves.push_iter(0..(n % 1000) as i64);
        }
        let mut rule = crate::data::StrVec::default();
        (0..rows).for_each(|_| rule.push("0.77"));
        let t = Table::new()
            .with("N", Values::Int((0..rows as i64).collect()))
            .with("rule", Values::Str(rule))
            .with("moves", Values::IntList(moves));
        let d = Data { t: &t, ds: &DS };
        // 2999 moves: cut at an item, the count said; a short list whole.
        let cut = d.text_within("moves", 999, 200);
        assert!(cut.len() < 220, "{cut}");
        assert!(
            cut.starts_with("0, 1, 2, ") && cut.ends_with(", … (999 in all)"),
            "{cut}"
        );
        assert_eq!(d.text_within("moves", 3, 200), "0, 1, 2");
        let budget = 1 << 20;
        let p = super::pivot(&d, ("N", "rule", "moves"), "E", budget);
        assert_eq!(p.total, rows);
        let kept = p.rows.len();
        assert!(kept < rows && kept > 100, "{kept}");
        assert!(
            p.cells[999 % kept]
                .iter()
                .all(|c| c.len() < MAX_CELL_CHARS + 20)
        );
        let held: usize = p.cells.iter().flatten().map(String::len).sum();
        assert!(held <= budget, "{held}");
        let dir = tempfile::tempdir().unwrap();
        let files = write_pivot(&p, dir.path(), "w", "W", "E").unwrap();
        let md = std::fs::read_to_string(&files[0]).unwrap();
        let note = format!(
            "({} more rows: the first {kept} are in w.csv, every row in the sweep's Parquet dataset)",
            rows - kept.min(MAX_MD_ROWS)
        );
        assert!(md.contains(&note), "{}", &md[md.len() - 200..]);
        let csv = std::fs::read_to_string(&files[1]).unwrap();
        assert_eq!(csv.lines().count(), kept + 1);
    }

    /// A pivot's Markdown stops at 5,000 rows and says where the rest is;
    /// its CSV has them all.
    #[test]
    fn a_tall_tables_markdown_is_cut_and_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let files = write_pivot(&pivot(6_000, 2), dir.path(), "t", "T", "E").unwrap();
        let md = std::fs::read_to_string(&files[0]).unwrap();
        assert_eq!(
            md.lines().filter(|l| l.starts_with("| ")).count(),
            1 + MAX_MD_ROWS
        );
        assert!(
            md.contains("(1000 more rows in t.csv)"),
            "{}",
            &md[md.len() - 60..]
        );
        let csv = std::fs::read_to_string(&files[1]).unwrap();
        assert_eq!(csv.lines().count(), 6_001);
    }

    /// The rows a view takes of its data keep every plain column and, of
    /// the columns of lists, only those the view reads: a figure of the
    /// outcomes copies no winning moves.
    #[test]
    fn a_views_rows_copy_only_the_lists_it_reads() {
        use crate::data::{Column, Dataset, Dtype, IntListVec, Role, Table, Values};
        static COLS: &[Column] = &[
            Column::new("N", Dtype::Int, Role::Position, "heap"),
            Column::new("moves", Dtype::IntList, Role::Result, "moves"),
        ];
        static DS: Dataset = Dataset {
            name: "t",
            doc: "t",
            groups: &[COLS],
        };
        let mut moves = IntListVec::default();
        (0..4).for_each(|n| moves.push_iter(0..n));
        let t = Table::new()
            .with("N", Values::Int(vec![0, 1, 2, 3]))
            .with("moves", Values::IntList(moves));
        let d = Data { t: &t, ds: &DS };
        let plain = d.subset(&[1, 3], &["N"]).unwrap();
        assert_eq!(plain.names(), ["N"]);
        assert_eq!(plain.rows(), 2);
        let listed = d.subset(&[3], &["N", "moves"]).unwrap();
        assert_eq!(listed.names(), ["N", "moves"]);
        assert_eq!(
            Data {
                t: &listed,
                ds: &DS
            }
            .text("moves", 0),
            "0, 1, 2"
        );
        assert!(d.subset(&[0, 1, 2, 3], &["N"]).is_none());
    }
}
