//! Pattern figures ([`ViewKind::Pattern`](crate::view::ViewKind::Pattern)):
//! points, the shaded region where they are periodic, and the tile of the
//! lattice with its two basis vectors.

use anyhow::Result;
use plotters::prelude::*;

use super::draw::{Figure, chart_with_title, int_label, label_font, perr};
use super::text::Data;
use crate::data::Cell;
use crate::view::TileColumns;

/// Points with integer coordinates.
type Points = Vec<(i64, i64)>;

/// A tile: corner `(x, y)` and the lattice `(p, a, q)`.
type Tile = (f64, f64, f64, f64, f64);

pub(super) struct PatternFig {
    inside: Vec<(f64, f64)>,
    outside: Vec<(f64, f64)>,
    polygons: Vec<Vec<(f64, f64)>>,
    tiles: Vec<Tile>,
    span: f64,
    title: String,
}

/// The first `fields` fields of the structs of a cell, in the order the
/// column's declaration lists them (whatever their names), struct by struct;
/// nothing when the structs have fewer fields.
fn structs(d: &Data<'_>, col: &str, row: usize, fields: usize) -> Vec<Vec<i64>> {
    let Some(Cell::StructList(l, i)) = d.t.cell(col, row) else {
        return Vec::new();
    };
    if l.fields.len() < fields {
        return Vec::new();
    }
    let cols: Vec<&[i64]> = (0..fields).map(|f| l.field(i, f)).collect();
    (0..l.row_len(i))
        .map(|k| cols.iter().map(|c| c[k]).collect())
        .collect()
}

/// Is `pt` on or inside the convex polygon `poly` (vertices in order)?
fn in_convex(poly: &[(i64, i64)], pt: (i64, i64)) -> bool {
    let n = poly.len();
    if n < 3 {
        return false;
    }
    let (mut pos, mut neg) = (false, false);
    for k in 0..n {
        let (a, b) = (poly[k], poly[(k + 1) % n]);
        let cross = (b.0 - a.0) * (pt.1 - a.1) - (b.1 - a.1) * (pt.0 - a.0);
        pos |= cross > 0;
        neg |= cross < 0;
    }
    !(pos && neg)
}

/// The polygons of a cell: structs whose declared fields are (polygon, x, y),
/// grouped by polygon.
fn polygons(d: &Data<'_>, col: &str, row: usize) -> Vec<Vec<(i64, i64)>> {
    let mut out: Vec<Vec<(i64, i64)>> = Vec::new();
    let mut current = None;
    for v in structs(d, col, row, 3) {
        if current != Some(v[0]) {
            out.push(Vec::new());
            current = Some(v[0]);
        }
        if let Some(p) = out.last_mut() {
            p.push((v[1], v[2]));
        }
    }
    out
}

/// The figure of one facet's rows: the points of the first row that has
/// any, every row's region and tile.
pub(super) fn pattern(
    d: &Data<'_>,
    points: &str,
    region: &str,
    tile: Option<TileColumns>,
    title: String,
) -> PatternFig {
    let rows = d.t.rows();
    let polys: Vec<Vec<(i64, i64)>> = (0..rows).flat_map(|r| polygons(d, region, r)).collect();
    let pts: Vec<(i64, i64)> = (0..rows)
        .map(|r| structs(d, points, r, 2))
        .find(|p| !p.is_empty())
        .unwrap_or_default()
        .into_iter()
        .map(|v| (v[0], v[1]))
        .collect();
    let (inside, outside): (Points, Points) = pts
        .iter()
        .partition(|&&p| polys.iter().any(|poly| in_convex(poly, p)));
    let tiles: Vec<Tile> = tile
        .map(|t| {
            (0..rows)
                .filter_map(|r| {
                    Some((
                        d.num(t.x, r)?,
                        d.num(t.y, r)?,
                        d.num(t.p, r)?,
                        d.num(t.a, r)?,
                        d.num(t.q, r)?,
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    let span = polys
        .iter()
        .flatten()
        .chain(&pts)
        .map(|&(x, y)| x.max(y))
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let f = |v: Vec<(i64, i64)>| v.into_iter().map(|(x, y)| (x as f64, y as f64)).collect();
    PatternFig {
        inside: f(inside),
        outside: f(outside),
        polygons: polys.into_iter().map(f).collect(),
        tiles,
        span,
        title,
    }
}

/// A polygon whose vertices are points, grown by half a cell on each side
/// (each vertex moved away from the centroid on each axis), so that the
/// cells of the points on its edges are covered.
fn grown(poly: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let n = poly.len() as f64;
    let cx = poly.iter().map(|p| p.0).sum::<f64>() / n;
    let cy = poly.iter().map(|p| p.1).sum::<f64>() / n;
    let away = |v: f64, c: f64| if v >= c { v + 0.5 } else { v - 0.5 };
    poly.iter()
        .map(|&(x, y)| (away(x, cx), away(y, cy)))
        .collect()
}

impl Figure for PatternFig {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, plotters::coord::Shift>) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE).map_err(perr)?;
        let hi = self.span + 0.5;
        let mut chart = chart_with_title(root, &self.title)
            .x_label_area_size(60)
            .y_label_area_size(80)
            .build_cartesian_2d(-0.5..hi, -0.5..hi)
            .map_err(perr)?;
        chart
            .configure_mesh()
            .x_desc("x")
            .y_desc("y")
            .label_style(label_font())
            .axis_desc_style(label_font())
            .x_label_formatter(&int_label)
            .y_label_formatter(&int_label)
            .disable_mesh()
            .draw()
            .map_err(perr)?;
        let shade = RGBColor(214, 234, 214);
        chart
            .draw_series(
                self.polygons
                    .iter()
                    .filter(|p| p.len() >= 3)
                    .map(|p| Polygon::new(grown(p), shade.filled())),
            )
            .map_err(perr)?;
        let size = (800.0 / (self.span + 1.0) / 2.0).clamp(1.0, 6.0) as i32;
        let dot = |c: RGBColor| {
            move |&p: &(f64, f64)| {
                EmptyElement::at(p) + Rectangle::new([(-size, -size), (size, size)], c.filled())
            }
        };
        chart
            .draw_series(self.inside.iter().map(dot(BLUE)))
            .map_err(perr)?;
        chart
            .draw_series(self.outside.iter().map(dot(RGBColor(230, 120, 0))))
            .map_err(perr)?;
        let red = RGBColor(200, 0, 0);
        for &(x, y, p, a, q) in &self.tiles {
            let (x0, y0) = (x - 0.5, y - 0.5);
            let outline = vec![
                (x0, y0),
                (x0 + p, y0),
                (x0 + p, y0 + q),
                (x0, y0 + q),
                (x0, y0),
            ];
            chart
                .draw_series(std::iter::once(PathElement::new(
                    outline,
                    red.stroke_width(2),
                )))
                .map_err(perr)?;
            for (dx, dy) in [(p, 0.0), (a, q)] {
                let (shaft, head) = arrow((x, y), (x + dx, y + dy), self.span);
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        shaft,
                        BLACK.stroke_width(2),
                    )))
                    .map_err(perr)?;
                chart
                    .draw_series(std::iter::once(Polygon::new(head, BLACK.filled())))
                    .map_err(perr)?;
            }
        }
        Ok(())
    }
}

/// An arrow from `a` to `b`: its shaft (a line) and its head (a triangle at `b`).
type Arrow = (Vec<(f64, f64)>, Vec<(f64, f64)>);

fn arrow(a: (f64, f64), b: (f64, f64), span: f64) -> Arrow {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (ux, uy) = (dx / len, dy / len);
    let head = (span / 50.0).max(0.4).min(len / 2.0);
    let base = (b.0 - ux * head, b.1 - uy * head);
    let (nx, ny) = (-uy * head / 2.0, ux * head / 2.0);
    (
        vec![a, base],
        vec![b, (base.0 + nx, base.1 + ny), (base.0 - nx, base.1 - ny)],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_on_or_inside_convex_polygons() {
        let tri = [(3, 0), (10, 0), (10, 7)]; // x − y ≥ 3, y ≥ 0, x ≤ 10
        assert!(in_convex(&tri, (3, 0)) && in_convex(&tri, (10, 7)) && in_convex(&tri, (8, 4)));
        assert!(!in_convex(&tri, (2, 0)) && !in_convex(&tri, (8, 6)));
        let sq = [(0, 0), (4, 0), (4, 4), (0, 4)];
        assert!(in_convex(&sq, (0, 4)) && !in_convex(&sq, (5, 1)));
        assert_eq!(
            grown(&[(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)]),
            vec![(-0.5, -0.5), (4.5, -0.5), (4.5, 4.5), (-0.5, 4.5)]
        );
    }
}
