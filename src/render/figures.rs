//! Figures (PNG and SVG through plotters): scatter plots, heat maps, strip
//! charts, hexagon cells and bars, one per facet.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::Result;
use plotters::prelude::*;

use super::Target;
use super::draw::{
    Figure, chart_with_title, ensure_font, int_label, label_font, legend_width, perr, png_bytes,
    side_legend,
};
use super::text::{Data, suffix, titled};
use crate::store::write_atomic;
use crate::view::{View, ViewKind};

/// A figure view: one figure per facet.
pub fn figure_view(view: &View, data: &Data<'_>, to: &Target<'_>) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for (fname, rows) in data.facets(view.kind.facet()) {
        let sub = data.subset(&rows, &view.kind.columns());
        let d = data.on(&sub);
        let title = titled(view.title, to.context, fname.as_deref());
        let stem = suffix(view.name, fname.as_deref());
        let (fig, size): (Box<dyn FigureAny>, (u32, u32)) = match view.kind {
            ViewKind::Scatter { x, y, filter, .. } => (
                Box::new(scatter(data, &d, (x, y), filter, title)),
                (900, 900),
            ),
            ViewKind::Heatmap { x, y, value, .. } => (
                Box::new(heatmap(data, &d, (x, y), value, title)),
                (1000, 900),
            ),
            ViewKind::Strip { row, x, value, .. } => {
                let f = strip(data, &d, (row, x), value, title);
                let h = (120 + 40 * f.yr.1.max(0.0) as u32).clamp(300, 4000);
                (Box::new(f), (1400, h))
            }
            ViewKind::Cells { x, y, value, .. } => {
                (Box::new(cells(data, &d, (x, y), value, title)), (900, 960))
            }
            ViewKind::Bars { x, y, series, .. } => {
                (Box::new(bars(data, &d, (x, y), series, title)), (1100, 700))
            }
            ViewKind::Pattern {
                points,
                region,
                tile,
                ..
            } => (
                Box::new(super::pattern::pattern(&d, points, region, tile, title)),
                (900, 900),
            ),
            ViewKind::Grid { .. } | ViewKind::Listing { .. } => {
                unreachable!("tables are not figures")
            }
        };
        files.extend(save_any(fig.as_ref(), &to.figures, &stem, size)?);
    }
    Ok(files)
}

/// Points of two numeric columns on the given rows.
fn points(
    d: &Data<'_>,
    (x, y): (&str, &str),
    rows: impl Iterator<Item = usize>,
) -> Vec<(f64, f64)> {
    rows.filter_map(|i| Some((d.num(x, i)?, d.num(y, i)?)))
        .collect()
}

fn scatter(
    all: &Data<'_>,
    d: &Data<'_>,
    (x, y): (&str, &str),
    filter: Option<(&str, &str)>,
    title: String,
) -> ScatterFig {
    let keep = d.filter(&filter.into_iter().collect::<Vec<_>>());
    // Axis ranges come from the whole dataset, so empty facets still show their range.
    ScatterFig {
        pts: points(d, (x, y), keep.into_iter()),
        xr: all.int_range(x),
        yr: all.int_range(y),
        xl: x.to_string(),
        yl: y.to_string(),
        title,
    }
}

/// Cells of `value` at two numeric coordinates.
fn coloured(d: &Data<'_>, (x, y): (&str, &str), value: &str) -> Vec<(f64, f64, String)> {
    (0..d.t.rows())
        .filter_map(|i| Some((d.num(x, i)?, d.num(y, i)?, d.text(value, i))))
        .collect()
}

fn heatmap(
    all: &Data<'_>,
    d: &Data<'_>,
    (x, y): (&str, &str),
    value: &str,
    title: String,
) -> CellFig {
    let (xr, yr) = (all.int_range(x), all.int_range(y));
    CellFig {
        cells: coloured(d, (x, y), value),
        cats: all.categories(value),
        names: all.class_names(value),
        xr: (xr.0 as f64 - 0.5, xr.1 as f64 + 0.5),
        yr: (yr.0 as f64 - 0.5, yr.1 as f64 + 0.5),
        xl: x.to_string(),
        yl: y.to_string(),
        legend: value.to_string(),
        title,
        hex: false,
        row_names: None,
    }
}

fn strip(
    all: &Data<'_>,
    d: &Data<'_>,
    (row, x): (&str, &str),
    value: &str,
    title: String,
) -> CellFig {
    let names = d.distinct(row);
    let idx: HashMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, s)| (s.as_str(), i))
        .collect();
    let cells = (0..d.t.rows())
        .filter_map(|i| {
            Some((
                d.num(x, i)?,
                idx[d.text(row, i).as_str()] as f64,
                d.text(value, i),
            ))
        })
        .collect();
    let xr = d.int_range(x);
    CellFig {
        cells,
        cats: all.categories(value),
        names: all.class_names(value),
        xr: (xr.0 as f64 - 0.5, xr.1 as f64 + 0.5),
        yr: (-0.5, names.len() as f64 - 0.5),
        xl: x.to_string(),
        yl: row.to_string(),
        legend: value.to_string(),
        title,
        hex: false,
        row_names: Some(names),
    }
}

fn cells(
    all: &Data<'_>,
    d: &Data<'_>,
    (x, y): (&str, &str),
    value: &str,
    title: String,
) -> CellFig {
    let cells = coloured(d, (x, y), value);
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for c in &cells {
        (x0, x1, y0, y1) = (x0.min(c.0), x1.max(c.0), y0.min(c.1), y1.max(c.1));
    }
    if cells.is_empty() {
        (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
    }
    let span = (x1 - x0).max(y1 - y0) + 2.0;
    let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    CellFig {
        cells,
        cats: all.categories(value),
        names: all.class_names(value),
        xr: (cx - span / 2.0, cx + span / 2.0),
        yr: (cy - span / 2.0, cy + span / 2.0),
        xl: String::new(),
        yl: String::new(),
        legend: value.to_string(),
        title,
        hex: true,
        row_names: None,
    }
}

fn bars(
    all: &Data<'_>,
    d: &Data<'_>,
    (x, y): (&str, &str),
    series: Option<&str>,
    title: String,
) -> BarsFig {
    let bars = (0..d.t.rows())
        .filter_map(|i| {
            let cat = series.map_or_else(|| y.to_string(), |s| d.text(s, i));
            Some((d.num(x, i)?, d.num(y, i)?, cat))
        })
        .collect();
    BarsFig {
        bars,
        cats: series.map_or_else(|| vec![y.to_string()], |s| all.categories(s)),
        xl: x.to_string(),
        yl: y.to_string(),
        title,
    }
}

/// A figure of any kind, drawable on both backends (object-safe).
trait FigureAny {
    fn draw_png(&self, root: &DrawingArea<BitMapBackend<'_>, plotters::coord::Shift>)
    -> Result<()>;
    fn draw_svg(&self, root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>) -> Result<()>;
}

impl<F: Figure> FigureAny for F {
    fn draw_png(
        &self,
        root: &DrawingArea<BitMapBackend<'_>, plotters::coord::Shift>,
    ) -> Result<()> {
        self.draw(root)
    }
    fn draw_svg(&self, root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>) -> Result<()> {
        self.draw(root)
    }
}

/// Saves a figure as PNG and SVG: drawn in memory, then each written
/// atomically ([`write_atomic`]: a failed write leaves no temporary).
fn save_any(fig: &dyn FigureAny, dir: &Path, stem: &str, size: (u32, u32)) -> Result<Vec<PathBuf>> {
    ensure_font();
    let png = dir.join(format!("{stem}.png"));
    let svg = dir.join(format!("{stem}.svg"));
    let mut rgb = vec![0u8; size.0 as usize * size.1 as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, size).into_drawing_area();
        fig.draw_png(&root)?;
        root.present().map_err(perr)?;
    }
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        fig.draw_svg(&root)?;
        root.present().map_err(perr)?;
    }
    write_atomic(&png, &png_bytes(&rgb, size)?)?;
    write_atomic(&svg, text.as_bytes())?;
    Ok(vec![png, svg])
}

/// A colour per category: a fixed, colour-blind-friendly cycle; the first
/// five (Grundy 0..4, report 000's five classes) far apart: blue, orange,
/// green, pink, black.
fn palette(i: usize) -> RGBColor {
    const P: [RGBColor; 12] = [
        RGBColor(0, 114, 178),
        RGBColor(230, 159, 0),
        RGBColor(0, 158, 115),
        RGBColor(204, 121, 167),
        RGBColor(0, 0, 0),
        RGBColor(213, 94, 0),
        RGBColor(240, 228, 66),
        RGBColor(86, 180, 233),
        RGBColor(150, 150, 150),
        RGBColor(120, 60, 160),
        RGBColor(140, 90, 40),
        RGBColor(60, 120, 60),
    ];
    P[i % P.len()]
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
        let mut chart = chart_with_title(root, &self.title)
            .x_label_area_size(60)
            .y_label_area_size(80)
            .build_cartesian_2d(
                (xr.0 as f64 - 0.5)..(xr.1 as f64 + 0.5),
                (yr.0 as f64 - 0.5)..(yr.1 as f64 + 0.5),
            )
            .map_err(perr)?;
        chart
            .configure_mesh()
            .x_desc(&self.xl)
            .y_desc(&self.yl)
            .label_style(label_font())
            .axis_desc_style(label_font())
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
    /// A category's name in the source's notation (`N2` for Grundy 0).
    names: HashMap<String, String>,
    xr: (f64, f64),
    yr: (f64, f64),
    xl: String,
    yl: String,
    legend: String,
    title: String,
    hex: bool,
    row_names: Option<Vec<String>>,
}

impl CellFig {
    /// The legend: each category with its colour, in the source's notation
    /// where it has one.
    fn legend_items(&self) -> Vec<(String, RGBColor)> {
        self.cats
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let text = match self.names.get(c) {
                    Some(name) => format!("{name} ({} {c})", self.legend),
                    None => format!("{} = {c}", self.legend),
                };
                (text, palette(i))
            })
            .collect()
    }

    /// The y axis's labels: the row's name (a strip), else the integer.
    fn row_label(&self) -> impl Fn(&f64) -> String + use<> {
        let names = self.row_names.clone();
        move |v: &f64| -> String {
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
        }
    }
}

/// The first `k` corners of the hexagon of radius 0.55 around (x, y).
fn hexagon(x: f64, y: f64, k: usize) -> Vec<(f64, f64)> {
    (0..k)
        .map(|k| {
            let a = std::f64::consts::PI / 3.0 * k as f64 + std::f64::consts::PI / 6.0;
            (x + 0.55 * a.cos(), y + 0.55 * a.sin())
        })
        .collect()
}

/// A cell's polygon: a hexagon, or a unit square (flatter in a strip).
fn cell_shape(x: f64, y: f64, hex: bool, strip: bool) -> Vec<(f64, f64)> {
    if hex {
        hexagon(x, y, 6)
    } else {
        let h = if strip { 0.4 } else { 0.5 };
        vec![
            (x - 0.5, y - h),
            (x + 0.5, y - h),
            (x + 0.5, y + h),
            (x - 0.5, y + h),
        ]
    }
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
        let items = self.legend_items();
        let texts: Vec<String> = items.iter().map(|i| i.0.clone()).collect();
        let width = root.dim_in_pixel().0;
        let (plot, side) = root.split_horizontally(width - legend_width(&texts).min(width / 2));
        let ylabel = match &self.row_names {
            Some(names) => 11 * names.iter().map(|s| s.len()).max().unwrap_or(4) as u32 + 40,
            None => 80,
        };
        let mut chart = chart_with_title(&plot, &self.title)
            .x_label_area_size(if self.hex { 0 } else { 60 })
            .y_label_area_size(if self.hex { 0 } else { ylabel })
            .build_cartesian_2d(self.xr.0..self.xr.1, self.yr.0..self.yr.1)
            .map_err(perr)?;
        if !self.hex {
            let ylab = self.row_label();
            let rows = self.row_names.as_ref().map_or(10, |n| n.len().min(60));
            chart
                .configure_mesh()
                .x_desc(&self.xl)
                .y_desc(&self.yl)
                .label_style(label_font())
                .axis_desc_style(label_font())
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
            chart
                .draw_series(pts.into_iter().map(move |&(x, y, _)| {
                    Polygon::new(cell_shape(x, y, hex, strip), color.filled())
                }))
                .map_err(perr)?;
            let _ = cat;
        }
        if self.hex {
            // Cell outlines, so empty cells and neighbours are visible.
            chart
                .draw_series(self.cells.iter().map(|&(x, y, _)| {
                    let mut shape = hexagon(x, y, 7);
                    shape.push(shape[0]);
                    PathElement::new(shape, RGBColor(80, 80, 80).stroke_width(1))
                }))
                .map_err(perr)?;
        }
        side_legend(&side, &items)?;
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
        let items: Vec<(String, RGBColor)> = self
            .cats
            .iter()
            .enumerate()
            .map(|(i, c)| (c.clone(), palette(i)))
            .collect();
        let texts: Vec<String> = self.cats.clone();
        let width = root.dim_in_pixel().0;
        let (plot, side) = root.split_horizontally(width - legend_width(&texts).min(width / 2));
        let mut chart = chart_with_title(&plot, &self.title)
            .x_label_area_size(60)
            .y_label_area_size(110)
            .build_cartesian_2d((x0 - 0.6)..(x1 + 0.6), 0.0..y1)
            .map_err(perr)?;
        chart
            .configure_mesh()
            .x_desc(&self.xl)
            .y_desc(&self.yl)
            .label_style(label_font())
            .axis_desc_style(label_font())
            .x_label_formatter(&int_label)
            .y_label_formatter(&int_label)
            .draw()
            .map_err(perr)?;
        let k = self.cats.len().max(1) as f64;
        let w = 0.8 / k;
        for (ci, cat) in self.cats.iter().enumerate() {
            let color = palette(ci);
            let off = -0.4 + w * ci as f64;
            chart
                .draw_series(
                    self.bars
                        .iter()
                        .filter(|b| &b.2 == cat)
                        .map(move |&(x, y, _)| {
                            Rectangle::new([(x + off, 0.0), (x + off + w, y)], color.filled())
                        }),
                )
                .map_err(perr)?;
        }
        side_legend(&side, &items)?;
        Ok(())
    }
}
