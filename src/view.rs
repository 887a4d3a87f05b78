//! Views: family-neutral descriptions of the tables and pictures a sweep
//! produces. A family lists the views that make sense for its datasets (by
//! column name); [`crate::render`] draws them from the stored data, knowing
//! nothing about games.

/// What to draw.
#[derive(Clone, Debug, PartialEq)]
pub enum ViewKind {
    /// A pivot table (Markdown, CSV and PNG): one row per distinct `row` value,
    /// one column per distinct `column` value (in order of appearance), each cell
    /// the `cell` value (an empty string shown as `empty`).
    Grid {
        /// Column whose values label the rows.
        row: String,
        /// Column whose values label the columns.
        column: String,
        /// Column holding the cell text.
        cell: String,
        /// What to show for an empty cell (report 004 shows `E`).
        empty: String,
        /// One table per value of this column.
        facet: Option<String>,
    },
    /// The dataset itself, selected columns (Markdown and CSV).
    Listing {
        /// Columns to show, in order.
        columns: Vec<String>,
        /// Keep rows whose column equals the value (all pairs must hold).
        filter: Vec<(String, String)>,
    },
    /// A scatter plot of the rows where `filter` holds (PNG and SVG), one figure
    /// per distinct value of `facet`.
    Scatter {
        /// Horizontal axis column.
        x: String,
        /// Vertical axis column.
        y: String,
        /// Keep rows whose column equals the value.
        filter: Option<(String, String)>,
        /// One figure per value of this column.
        facet: Option<String>,
    },
    /// A heat map of an integer column over two integer axes (PNG and SVG), one
    /// figure per value of `facet`, with a legend of the values.
    Heatmap {
        /// Horizontal axis column (integers).
        x: String,
        /// Vertical axis column (integers).
        y: String,
        /// Integer value shown as a colour.
        value: String,
        /// One figure per value of this column.
        facet: Option<String>,
    },
    /// Bars of `y` over `x` (PNG and SVG), one figure per value of `facet`, one
    /// coloured series per value of `series` (bars side by side).
    Bars {
        /// Horizontal axis column (integers).
        x: String,
        /// Bar height column (integers).
        y: String,
        /// One coloured series per value of this column.
        series: Option<String>,
        /// One figure per value of this column.
        facet: Option<String>,
    },
    /// A strip chart (PNG and SVG): one horizontal strip per distinct value of
    /// `row`, a coloured cell at each integer `x`, the colour chosen by the
    /// value of `value` (with a legend); one figure per value of `facet`.
    Strip {
        /// Column naming each strip.
        row: String,
        /// Position along the strip (integers).
        x: String,
        /// Category that picks the colour.
        value: String,
        /// One figure per value of this column.
        facet: Option<String>,
    },
    /// Cells drawn as hexagons at float coordinates `(x, y)` (PNG and SVG), coloured
    /// by the category in `value` (with a legend); one figure per value of `facet`.
    /// For boards on the triangular lattice (hexagonal cells).
    Cells {
        /// Horizontal position (floats or integers).
        x: String,
        /// Vertical position (floats or integers).
        y: String,
        /// Category that picks the colour.
        value: String,
        /// One figure per value of this column.
        facet: Option<String>,
    },
}

/// One view of a sweep's data.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    /// Name used in specs (`outputs: [...]`) and in file names.
    pub name: String,
    /// Title (the rule or sweep is added by the renderer).
    pub title: String,
    /// Dataset it reads.
    pub dataset: String,
    /// What to draw.
    pub kind: ViewKind,
}

impl View {
    /// A view.
    pub fn new(name: &str, title: &str, dataset: &str, kind: ViewKind) -> View {
        View {
            name: name.into(),
            title: title.into(),
            dataset: dataset.into(),
            kind,
        }
    }
}
