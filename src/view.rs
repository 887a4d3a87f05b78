//! Views: family-neutral descriptions of the tables and pictures a sweep
//! produces. A family declares its views once (a static list); a plan picks
//! those that apply to a sweep; [`crate::render`] draws them from the stored
//! data, knowing nothing about games.

/// What to draw.
#[derive(Clone, Debug, PartialEq)]
pub enum ViewKind {
    /// A pivot table (Markdown, CSV and PNG): one row per distinct `row` value,
    /// one column per distinct `column` value (in order of appearance), each cell
    /// the `cell` value; an empty cell shows `empty`, which the PNG highlights.
    Grid {
        /// Column whose values label the rows.
        row: &'static str,
        /// Column whose values label the columns.
        column: &'static str,
        /// Column holding the cell text.
        cell: &'static str,
        /// What to show for an empty cell (report 004 shows `E`).
        empty: &'static str,
        /// One table per value of this column.
        facet: Option<&'static str>,
    },
    /// The dataset itself, selected columns (Markdown and CSV); columns that
    /// are null on every row are left out.
    Listing {
        /// Columns to show, in order.
        columns: &'static [&'static str],
        /// Keep rows whose column has this text (all pairs must hold).
        filter: &'static [(&'static str, &'static str)],
    },
    /// A scatter plot of the rows where `filter` holds (PNG and SVG), one figure
    /// per distinct value of `facet`.
    Scatter {
        /// Horizontal axis column.
        x: &'static str,
        /// Vertical axis column.
        y: &'static str,
        /// Keep rows whose column has this text.
        filter: Option<(&'static str, &'static str)>,
        /// One figure per value of this column.
        facet: Option<&'static str>,
    },
    /// A heat map of an integer column over two integer axes (PNG and SVG), one
    /// figure per value of `facet`, with a legend of the values.
    Heatmap {
        /// Horizontal axis column (integers).
        x: &'static str,
        /// Vertical axis column (integers).
        y: &'static str,
        /// Integer value shown as a colour.
        value: &'static str,
        /// One figure per value of this column.
        facet: Option<&'static str>,
    },
    /// Bars of `y` over `x` (PNG and SVG), one figure per value of `facet`, one
    /// coloured series per value of `series` (bars side by side).
    Bars {
        /// Horizontal axis column (integers).
        x: &'static str,
        /// Bar height column (integers).
        y: &'static str,
        /// One coloured series per value of this column.
        series: Option<&'static str>,
        /// One figure per value of this column.
        facet: Option<&'static str>,
    },
    /// A strip chart (PNG and SVG): one horizontal strip per distinct value of
    /// `row`, a coloured cell at each integer `x`, the colour chosen by the
    /// value of `value` (with a legend); one figure per value of `facet`.
    Strip {
        /// Column naming each strip.
        row: &'static str,
        /// Position along the strip (integers).
        x: &'static str,
        /// Category that picks the colour.
        value: &'static str,
        /// One figure per value of this column.
        facet: Option<&'static str>,
    },
    /// Cells drawn as hexagons at float coordinates `(x, y)` (PNG and SVG), coloured
    /// by the category in `value` (with a legend); one figure per value of `facet`.
    /// For boards on the triangular lattice (hexagonal cells).
    Cells {
        /// Horizontal position (floats or integers).
        x: &'static str,
        /// Vertical position (floats or integers).
        y: &'static str,
        /// Category that picks the colour.
        value: &'static str,
        /// One figure per value of this column.
        facet: Option<&'static str>,
    },
    /// A set of points and the geometry of its periodic structure (PNG and
    /// SVG), one figure per value of `facet` (its rows drawn together): the
    /// points of a column of structs whose first two declared fields are the
    /// coordinates (x, y), a shaded region (convex polygons: a column of
    /// structs whose first three declared fields are (polygon, x, y), whatever
    /// their names; the vertices are points; a point on or inside a polygon
    /// is in the region), the points
    /// outside the region in another colour, and, when `tile` is given, each
    /// row's tile outlined with the two basis vectors of its lattice.
    Pattern {
        /// Column of structs, fields (x, y) in declared order: the points.
        points: &'static str,
        /// Column of structs, fields (polygon, x, y) in declared order: the
        /// region to shade.
        region: &'static str,
        /// The tile and lattice columns, if drawn.
        tile: Option<TileColumns>,
        /// One figure per value of this column.
        facet: Option<&'static str>,
    },
}

/// The columns giving a tile and its lattice: the rectangle `[x, x + p) ×
/// [y, y + q)` and the basis vectors `(p, 0)` and `(a, q)` (integers).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TileColumns {
    /// The tile's corner, horizontal.
    pub x: &'static str,
    /// The tile's corner, vertical.
    pub y: &'static str,
    /// The first basis vector `(p, 0)`.
    pub p: &'static str,
    /// The shear of the second basis vector `(a, q)`.
    pub a: &'static str,
    /// The height of the second basis vector.
    pub q: &'static str,
}

impl ViewKind {
    /// Every column the view reads.
    pub fn columns(&self) -> Vec<&'static str> {
        let mut v: Vec<&'static str> = match self {
            ViewKind::Grid {
                row, column, cell, ..
            } => vec![row, column, cell],
            ViewKind::Listing { columns, filter } => columns
                .iter()
                .copied()
                .chain(filter.iter().map(|f| f.0))
                .collect(),
            ViewKind::Scatter { x, y, filter, .. } => {
                let mut v = vec![*x, *y];
                v.extend(filter.iter().map(|f| f.0));
                v
            }
            ViewKind::Heatmap { x, y, value, .. } | ViewKind::Cells { x, y, value, .. } => {
                vec![x, y, value]
            }
            ViewKind::Strip { row, x, value, .. } => vec![row, x, value],
            ViewKind::Bars { x, y, series, .. } => {
                let mut v = vec![*x, *y];
                v.extend(series.iter().copied());
                v
            }
            ViewKind::Pattern {
                points,
                region,
                tile,
                ..
            } => {
                let mut v = vec![*points, *region];
                if let Some(t) = tile {
                    v.extend([t.x, t.y, t.p, t.a, t.q]);
                }
                v
            }
        };
        v.extend(self.facet());
        v
    }
    /// The facet column, if any.
    pub fn facet(&self) -> Option<&'static str> {
        match self {
            ViewKind::Grid { facet, .. }
            | ViewKind::Scatter { facet, .. }
            | ViewKind::Heatmap { facet, .. }
            | ViewKind::Bars { facet, .. }
            | ViewKind::Strip { facet, .. }
            | ViewKind::Cells { facet, .. }
            | ViewKind::Pattern { facet, .. } => *facet,
            ViewKind::Listing { .. } => None,
        }
    }
}

/// One view of a sweep's data, declared once by its family.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    /// Name used in specs (`outputs: [...]`) and in file names.
    pub name: &'static str,
    /// Title (the sweep's title is added by the renderer).
    pub title: &'static str,
    /// Dataset it reads.
    pub dataset: &'static str,
    /// What to draw.
    pub kind: ViewKind,
    /// Only the rows whose columns have these texts (all pairs must hold);
    /// empty: every row. For a view that is about part of a sweep, e.g. the
    /// one-heap tables of a sweep with `heaps: [1, 2]`.
    pub only: &'static [(&'static str, &'static str)],
}

impl View {
    /// Two heaps: the P-positions (N1, N2) of `dataset`'s rows with
    /// `heaps` 2, one scatter per `rule` (the heap families share it).
    pub const fn loss_scatter(title: &'static str, dataset: &'static str) -> View {
        View {
            name: "loss_scatter",
            title,
            dataset,
            kind: ViewKind::Scatter {
                x: "N1",
                y: "N2",
                filter: Some(("outcome", "P")),
                facet: Some("rule"),
            },
            only: &[("heaps", "2")],
        }
    }
    /// Two heaps: the winning moves of column `cell` (rows N2, columns N1,
    /// `E` for a P-position), one table per `rule`.
    pub const fn move_table(
        title: &'static str,
        dataset: &'static str,
        cell: &'static str,
    ) -> View {
        View {
            name: "move_table",
            title,
            dataset,
            kind: ViewKind::Grid {
                row: "N2",
                column: "N1",
                cell,
                empty: "E",
                facet: Some("rule"),
            },
            only: &[("heaps", "2")],
        }
    }
}
