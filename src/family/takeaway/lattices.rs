//! The rows of the `lattices` dataset: the periodic structure of a two-heap
//! loss set (or of a plane `N3 = c` of a three-heap one), from the detector
//! of [`crate::lattice`]: one row per loss set and part of its model (one
//! `plain` row, or `below` and `above` rows for the two sectors, or one row
//! with status `none`). The columns are declared in
//! [`super::datasets::LATTICES`]; docs/lattice.md explains the model, the
//! evidence and the proofs.

use crate::data::{DictVec, EnumVec, StrVec, StructListVec, Table, Values};
use crate::lattice::{self, Frame, Grid, Lattice, Model, Proof, Structure};
use crate::period::{STATUSES, Status};

/// The parts of a model a row can describe (the `frame` column).
pub const FRAMES: &[&str] = &["plain", "below", "above"];
/// The fields of a point.
pub const POINT_FIELDS: &[&str] = &["x", "y"];
/// The fields of a member of the tile (offsets from its origin).
pub const TILE_FIELDS: &[&str] = &["dx", "dy"];
/// The fields of a polygon vertex (polygons numbered from 0).
pub const POLYGON_FIELDS: &[&str] = &["polygon", "x", "y"];

/// The smallest drawing window (points `0..=W` on each axis), when the box
/// holds it.
const MIN_WINDOW: usize = 60;

/// The model of a loss set in its box: the proven structure when `proof`
/// applies (sums of one-heap games), else the observed quadrant or sector
/// structure ([`lattice::analyse`]); `None` when the box shows neither.
pub fn model(g: &Grid, proof: Option<&Proof>) -> Option<Model> {
    if let Some(s) = proof.and_then(|p| lattice::prove(g, p)) {
        return Some(Model::Quadrant(s));
    }
    lattice::analyse(g)
}

/// The proof for the plane `N3 = c` of a three-heap sum: its loss set is
/// `{(x, y) : G(x) ⊕ G(y) = G(c)}`, and the argument of the two-heap sum
/// (which only uses `G(x + p) = G(x)` for `x ≥ t`) applies word for word.
pub fn plane_proof(two_heaps: &Proof, c: usize) -> Proof {
    let mut p = two_heaps.clone();
    p.argument = format!(
        "the plane N3 = {c} of a sum of three one-heap games is lost exactly when G(x) ⊕ G(y) = G({c}) (Sprague–Grundy), \
         and y ↦ G(y) ⊕ G({c}) has the period of G: {}",
        two_heaps.argument
    );
    p
}

/// The default largest drawing window (`points_window`): two heaps 1000,
/// three heaps 0 (no points: a plane sweep has thousands of rows).
pub fn default_points_window(heaps: usize) -> usize {
    if heaps == 2 { 1000 } else { 0 }
}

/// Columns of the `lattices` dataset, filled one loss set at a time.
pub struct LatticeRows {
    /// The largest drawing window whose points are stored.
    cap: usize,
    set: DictVec,
    plane: Vec<Option<i64>>,
    frame: EnumVec,
    status: EnumVec,
    p: Vec<Option<i64>>,
    a: Vec<Option<i64>>,
    q: Vec<Option<i64>>,
    lattice: StrVec,
    x0: Vec<Option<i64>>,
    y0: Vec<Option<i64>>,
    region: StrVec,
    staircase: StructListVec,
    strips_x: Vec<Option<i64>>,
    strips_y: Vec<Option<i64>>,
    tile_x: Vec<Option<i64>>,
    tile_y: Vec<Option<i64>>,
    tile_points: Vec<Option<i64>>,
    tile_members: Vec<Option<i64>>,
    tile: StructListVec,
    density: Vec<Option<f64>>,
    box_x: Vec<i64>,
    box_y: Vec<i64>,
    tiles_x: Vec<Option<i64>>,
    tiles_y: Vec<Option<i64>>,
    tiles: Vec<Option<i64>>,
    margin_x: Vec<Option<i64>>,
    margin_y: Vec<Option<i64>>,
    symmetric: Vec<bool>,
    evidence: StrVec,
    argument: StrVec,
    window: Vec<i64>,
    points: StructListVec,
    periodic_region: StructListVec,
}

impl LatticeRows {
    /// No rows yet; the `points` of a row are those of its drawing window,
    /// cut to `[0, cap]²` (none when `cap` is 0).
    pub fn new(cap: usize) -> Self {
        LatticeRows {
            cap,
            set: DictVec::default(),
            plane: Vec::new(),
            frame: EnumVec::new(FRAMES, 0),
            status: EnumVec::new(STATUSES, 0),
            p: Vec::new(),
            a: Vec::new(),
            q: Vec::new(),
            lattice: StrVec::default(),
            x0: Vec::new(),
            y0: Vec::new(),
            region: StrVec::default(),
            staircase: StructListVec::new(POINT_FIELDS, 0),
            strips_x: Vec::new(),
            strips_y: Vec::new(),
            tile_x: Vec::new(),
            tile_y: Vec::new(),
            tile_points: Vec::new(),
            tile_members: Vec::new(),
            tile: StructListVec::new(TILE_FIELDS, 0),
            density: Vec::new(),
            box_x: Vec::new(),
            box_y: Vec::new(),
            tiles_x: Vec::new(),
            tiles_y: Vec::new(),
            tiles: Vec::new(),
            margin_x: Vec::new(),
            margin_y: Vec::new(),
            symmetric: Vec::new(),
            evidence: StrVec::default(),
            argument: StrVec::default(),
            window: Vec::new(),
            points: StructListVec::new(POINT_FIELDS, 0),
            periodic_region: StructListVec::new(POLYGON_FIELDS, 0),
        }
    }
}

/// Is `(x, y)` in the set according to the structure (`None` outside its
/// periodic region)? In `(x, y)` whatever the structure's frame.
pub fn predicts_xy(s: &Structure, x: usize, y: usize) -> Option<bool> {
    match s.frame {
        Frame::Plain => s.predicts(x, y),
        Frame::Below if x >= y => s.predicts(x - y, y),
        Frame::Above if y >= x => s.predicts(y - x, x),
        _ => None,
    }
}

/// The origin of the tile in `(x, y)`: the rectangle `[ox, ox + p) × [oy,
/// oy + q)` of the lattice in `(x, y)` placed inside the periodic region
/// of the structure's corner.
pub fn tile_origin(s: &Structure) -> (usize, usize) {
    let l = s.lattice_xy();
    let (c0, c1) = s.corner;
    match s.frame {
        Frame::Plain => (c0, c1),
        // x − y ≥ c0 and y ≥ c1 on the whole rectangle.
        Frame::Below => (c0 + c1 + l.q - 1, c1),
        // y − x ≥ c0 and x ≥ c1.
        Frame::Above => (c1, c1 + l.p - 1 + c0),
    }
}

/// The periodic region beyond one staircase corner, clipped to the window
/// `[0, w]²`, as a convex polygon whose vertices are points (the region's
/// points are those on or inside it); `None` when it misses the window.
fn region_polygon(frame: Frame, (c0, c1): (usize, usize), w: usize) -> Option<Vec<(usize, usize)>> {
    match frame {
        Frame::Plain => (c0 <= w && c1 <= w).then(|| vec![(c0, c1), (w, c1), (w, w), (c0, w)]),
        Frame::Below => (c0 + c1 <= w).then(|| vec![(c0 + c1, c1), (w, c1), (w, w - c0)]),
        Frame::Above => (c0 + c1 <= w).then(|| vec![(c1, c0 + c1), (c1, w), (w - c0, w)]),
    }
}

/// The drawing window (points `0..=W` on each axis) of a structure: the
/// preperiod region's extent and four periods beyond, at least
/// [`MIN_WINDOW`], at most the box.
fn window_of(s: &Structure, g: &Grid) -> usize {
    let l = s.lattice_xy();
    let (c0, c1) = s.corner;
    let extent = match s.frame {
        Frame::Plain => {
            let st = s.strips.map_or((0, 0), |t| t.from);
            c0.max(c1).max(st.0).max(st.1)
        }
        Frame::Below | Frame::Above => c0 + c1,
    };
    let w = extent + 4 * l.p.max(l.vertical());
    w.max(MIN_WINDOW).min(g.width().min(g.height()) - 1)
}

fn opt(v: usize) -> Option<i64> {
    Some(v as i64)
}

impl LatticeRows {
    /// The rows of one loss set: its model's parts, or one `none` row.
    pub fn push(&mut self, set: &str, plane: Option<usize>, g: &Grid, model: Option<&Model>) {
        match model {
            None => self.push_none(set, plane, g),
            Some(m) => {
                for s in m.parts() {
                    self.push_structure(set, plane, g, s);
                }
            }
        }
    }

    fn push_common(&mut self, set: &str, plane: Option<usize>, g: &Grid, w: usize) {
        let w = w.min(self.cap);
        self.set.push(set);
        self.plane.push(plane.map(|c| c as i64));
        self.box_x.push(g.width() as i64 - 1);
        self.box_y.push(g.height() as i64 - 1);
        self.symmetric.push(g.is_symmetric());
        self.window.push(w as i64);
        for y in (0..=w).take_while(|_| self.cap > 0) {
            for x in 0..=w {
                if g.get(x, y) {
                    self.points.push_item(&[x as i64, y as i64]);
                }
            }
        }
        self.points.end_row();
    }

    fn push_none(&mut self, set: &str, plane: Option<usize>, g: &Grid) {
        let w = MIN_WINDOW.min(g.width().min(g.height()) - 1);
        self.push_common(set, plane, g, w);
        self.frame.push_null();
        self.status.push_str("none");
        for c in [
            &mut self.p,
            &mut self.a,
            &mut self.q,
            &mut self.x0,
            &mut self.y0,
            &mut self.strips_x,
            &mut self.strips_y,
            &mut self.tile_x,
            &mut self.tile_y,
            &mut self.tile_points,
            &mut self.tile_members,
            &mut self.tiles_x,
            &mut self.tiles_y,
            &mut self.tiles,
            &mut self.margin_x,
            &mut self.margin_y,
        ] {
            c.push(None);
        }
        self.lattice.push_null();
        self.region.push_null();
        self.staircase.end_row();
        self.tile.end_row();
        self.density.push(None);
        self.evidence.push(&format!(
            "no lattice with enough evidence in [0,{}]×[0,{}], neither on a quadrant nor on the two sectors beside the diagonal",
            g.width() - 1,
            g.height() - 1
        ));
        self.argument.push_null();
        self.periodic_region.end_row();
    }

    fn push_structure(&mut self, set: &str, plane: Option<usize>, g: &Grid, s: &Structure) {
        let w = window_of(s, g).min(self.cap);
        self.push_common(set, plane, g, w);
        let l = s.lattice_xy();
        self.frame.push_str(s.frame.as_str());
        self.status.push_str(s.status.as_str());
        self.p.push(opt(l.p));
        self.a.push(opt(l.a));
        self.q.push(opt(l.q));
        self.lattice.push(&l.text());
        self.x0.push(opt(s.corner.0));
        self.y0.push(opt(s.corner.1));
        self.region.push(&s.frame.region(s.corner));
        for &(x, y) in &s.staircase {
            self.staircase.push_item(&[x as i64, y as i64]);
        }
        self.staircase.end_row();
        self.strips_x.push(s.strips.map(|t| t.from.0 as i64));
        self.strips_y.push(s.strips.map(|t| t.from.1 as i64));
        self.push_tile(s, &l);
        let ev = s.evidence;
        self.tiles_x.push(opt(ev.copies.0));
        self.tiles_y.push(opt(ev.copies.1));
        self.tiles.push(opt(ev.tiles()));
        self.margin_x.push(opt(ev.margin.0));
        self.margin_y.push(opt(ev.margin.1));
        self.evidence.push(&evidence_text(s, g));
        match s.status {
            Status::Proven => self
                .argument
                .push(&format!("docs/lattice.md, Proofs: {}", s.argument)),
            Status::Observed => self.argument.push_null(),
        }
        let mut k = 0;
        for &c in &s.staircase {
            if let Some(poly) = region_polygon(s.frame, c, w).filter(|_| self.cap > 0) {
                for (x, y) in poly {
                    self.periodic_region.push_item(&[k, x as i64, y as i64]);
                }
                k += 1;
            }
        }
        self.periodic_region.end_row();
    }

    /// The tile in `(x, y)`: its origin, size, members (offsets) and density.
    fn push_tile(&mut self, s: &Structure, l: &Lattice) {
        let (ox, oy) = tile_origin(s);
        let mut members = 0usize;
        for dy in 0..l.q {
            for dx in 0..l.p {
                if predicts_xy(s, ox + dx, oy + dy) == Some(true) {
                    self.tile.push_item(&[dx as i64, dy as i64]);
                    members += 1;
                }
            }
        }
        self.tile.end_row();
        self.tile_x.push(opt(ox));
        self.tile_y.push(opt(oy));
        self.tile_points.push(opt(l.det()));
        self.tile_members.push(opt(members));
        self.density.push(Some(members as f64 / l.det() as f64));
    }

    /// The columns (the rule's columns are added by the case).
    pub fn into_table(self) -> Table {
        Table::new()
            .with("set", Values::Dict(self.set))
            .with("plane", Values::OptInt(self.plane))
            .with("frame", Values::Enum(self.frame))
            .with("status", Values::Enum(self.status))
            .with("p", Values::OptInt(self.p))
            .with("a", Values::OptInt(self.a))
            .with("q", Values::OptInt(self.q))
            .with("lattice", Values::Str(self.lattice))
            .with("x0", Values::OptInt(self.x0))
            .with("y0", Values::OptInt(self.y0))
            .with("region", Values::Str(self.region))
            .with("staircase", Values::StructList(self.staircase))
            .with("strips_x", Values::OptInt(self.strips_x))
            .with("strips_y", Values::OptInt(self.strips_y))
            .with("tile_x", Values::OptInt(self.tile_x))
            .with("tile_y", Values::OptInt(self.tile_y))
            .with("tile_points", Values::OptInt(self.tile_points))
            .with("tile_members", Values::OptInt(self.tile_members))
            .with("tile", Values::StructList(self.tile))
            .with("density", Values::OptFloat(self.density))
            .with("box_x", Values::Int(self.box_x))
            .with("box_y", Values::Int(self.box_y))
            .with("tiles_x", Values::OptInt(self.tiles_x))
            .with("tiles_y", Values::OptInt(self.tiles_y))
            .with("tiles", Values::OptInt(self.tiles))
            .with("margin_x", Values::OptInt(self.margin_x))
            .with("margin_y", Values::OptInt(self.margin_y))
            .with("symmetric", Values::Bool(self.symmetric))
            .with("evidence", Values::Str(self.evidence))
            .with("argument", Values::Str(self.argument))
            .with("window", Values::Int(self.window))
            .with("points", Values::StructList(self.points))
            .with("periodic_region", Values::StructList(self.periodic_region))
    }
}

/// What establishes the structure, in one line.
fn evidence_text(s: &Structure, g: &Grid) -> String {
    let ev = s.evidence;
    let (bx, by) = (g.width() - 1, g.height() - 1);
    let frame = match s.frame {
        Frame::Plain => String::new(),
        Frame::Below => format!(
            " (the sector x ≥ y in (u, v) = (x − y, y): the box [0,{}]×[0,{}] in (u, v))",
            ev.bounds.0, ev.bounds.1
        ),
        Frame::Above => format!(
            " (the sector y ≥ x in (u, v) = (y − x, x): the box [0,{}]×[0,{}] in (u, v))",
            ev.bounds.0, ev.bounds.1
        ),
    };
    match s.status {
        Status::Proven => format!(
            "proven (argument); the finest lattice checked in [0,{bx}]×[0,{by}], {}×{} whole tiles beyond the corner",
            ev.copies.0, ev.copies.1
        ),
        Status::Observed => format!(
            "observed in [0,{bx}]×[0,{by}]{frame}: {}×{} whole tiles beyond ({}, {}), periodic stretch {}×{}",
            ev.copies.0, ev.copies.1, s.corner.0, s.corner.1, ev.margin.0, ev.margin.1
        ),
    }
}
