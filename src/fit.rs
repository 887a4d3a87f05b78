//! Simple closed forms for two-dimensional loss sets, fitted to data.
//!
//! Given a [`Table`] with two integer position columns (say `N1`, `N2`), an
//! outcome column and optionally a grouping column (one loss set per rule),
//! [`fit_forms`] tests the simple forms a number theorist tries first on the
//! loss set L = {(x, y) : outcome = P}:
//!
//! * `x ≡ y (mod q)` — the smallest q that fits;
//! * `⌊(x mod q)/m⌋ = ⌊(y mod q)/m⌋` with 2 ≤ m < q — the blocks of m (e.g.
//!   take m..n: q = m + n), smallest q, then largest m;
//! * `x ≡ y ≡ 0 (mod q)` — the product lattice;
//! * lattice shifts: L is invariant under (x, y) → (x + a, y + b) for small
//!   (a, b) (both ≥ 0, not both 0), compared wherever both points are in the
//!   table; the primitive shifts that fit are listed.
//!
//! A modulus must wrap around inside the data (q < extent, the larger side of
//! the box spanned by the positions), and every parameter is printed with the
//! number of periods the range holds, so weak evidence shows; a shift is
//! tested when it compares at least a third of the rows. A form that does
//! not fit for any admissible parameter is reported with the parameter that
//! came closest (fewest mismatches) and its first counterexample in row order.
//! Nothing here knows about games: any table of that shape will do.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use anyhow::{Context, Result, bail};
use rayon::prelude::*;

use crate::data::{Cell, Table, Values};

/// What to fit: the column names.
#[derive(Clone, Debug)]
pub struct FitSpec<'a> {
    /// First position column (`N1`).
    pub x: &'a str,
    /// Second position column (`N2`).
    pub y: &'a str,
    /// The outcome column (`outcome`).
    pub outcome: &'a str,
    /// The value of the outcome column that marks the set (`P`).
    pub member: &'a str,
    /// One loss set per value of this column (`rule`), if given.
    pub group: Option<&'a str>,
    /// And per value of these (the parameters, `play`): a label that
    /// leaves one out (a rule's in both plays) is two sets, each named
    /// with the values that tell them apart.
    pub split: &'a [&'a str],
    /// Position columns beyond `x` and `y`: a row with one of them filled
    /// (three heaps' rows beside two heaps') is no point of the plane.
    pub others: &'a [&'a str],
}

/// A candidate parameter of forms 1–3.
#[derive(Clone, Copy, Debug)]
enum Params {
    /// `x ≡ y (mod q)`
    Congruent(i64),
    /// `⌊(x mod q)/m⌋ = ⌊(y mod q)/m⌋`
    Blocks(i64, i64),
    /// `x ≡ y ≡ 0 (mod q)`
    Zero(i64),
}

impl Params {
    fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Params::Congruent(q) => modulo(a, q) == modulo(b, q),
            Params::Blocks(q, m) => modulo(a, q) / m == modulo(b, q) / m,
            Params::Zero(q) => modulo(a, q) == 0 && modulo(b, q) == 0,
        }
    }
    fn label(self, per: &dyn Fn(i64) -> String) -> String {
        match self {
            Params::Congruent(q) | Params::Zero(q) => format!("q = {q}; {}", per(q)),
            Params::Blocks(q, m) => format!("q = {q}, m = {m}; {}", per(q)),
        }
    }
}

/// The points of a set counted by residue pair mod q: `d[rx][ry]` is the
/// number of non-members minus the number of members, with 2-D prefix sums,
/// so that the mismatches of a form that holds on a union of residue cells
/// are `members + Σ d` over those cells (a non-member inside, or a member
/// outside, is a mismatch).
struct Residues {
    q: usize,
    members: usize,
    /// (q+1)² prefix sums of d.
    pre: Vec<i64>,
}

impl Residues {
    /// Each row of the set's box added into the row of `d` of its y's
    /// residue, a run of x's residues at a time (x ≡ 0 starts a run): one
    /// add per point in long runs the compiler vectorizes, where a point at
    /// a time took a division-free lookup and a scattered add each (79 % of
    /// a report on a 834 × 834 plane). `d` is kept as `d[ry][rx]`: every
    /// sum taken of it is over squares, the same either way round.
    fn new(set: &Set, q: i64) -> Residues {
        let qu = q as usize;
        let mut d = vec![0i32; qu * qu];
        if !set.unique {
            // A position listed twice counts twice, as in the definition.
            for &(_, x, y, m) in &set.points {
                let (rx, ry) = (modulo(x, q) as usize, modulo(y, q) as usize);
                d[ry * qu + rx] += if m { -1 } else { 1 };
            }
        }
        let rows = set.sign.chunks_exact(set.w).filter(|_| set.unique);
        let r0 = modulo(set.x0, q) as usize;
        for (j, row) in rows.enumerate() {
            let ry = modulo(set.y0 + j as i64, q) as usize;
            let dr = &mut d[ry * qu..(ry + 1) * qu];
            let (mut i, mut rx) = (0, r0);
            while i < row.len() {
                let len = (qu - rx).min(row.len() - i);
                for (a, &b) in dr[rx..rx + len].iter_mut().zip(&row[i..i + len]) {
                    *a += i32::from(b);
                }
                i += len;
                rx = 0;
            }
        }
        let w = qu + 1;
        let mut pre = vec![0i64; w * w];
        // Row by row: the row's running sum on the sums of the rows above.
        for i in 0..qu {
            let (above, here) = pre.split_at_mut((i + 1) * w);
            let above = &above[i * w..];
            let mut run = 0i64;
            for j in 0..qu {
                run += i64::from(d[i * qu + j]);
                here[j + 1] = above[j + 1] + run;
            }
        }
        Residues {
            q: qu,
            members: set.members,
            pre,
        }
    }
    /// Σ d over the square [lo, hi)².
    fn square(&self, lo: usize, hi: usize) -> i64 {
        let w = self.q + 1;
        self.pre[hi * w + hi] - self.pre[lo * w + hi] - self.pre[hi * w + lo]
            + self.pre[lo * w + lo]
    }
    /// Mismatches of `⌊rx/m⌋ = ⌊ry/m⌋` (m = 1: `rx = ry`).
    fn bad_same(&self, m: i64) -> usize {
        let m = m as usize;
        let mut s = self.members as i64;
        let mut lo = 0;
        while lo < self.q {
            let hi = (lo + m).min(self.q);
            s += self.square(lo, hi);
            lo = hi;
        }
        s as usize
    }
    /// Mismatches of `rx = ry = 0`.
    fn bad_zero(&self) -> usize {
        (self.members as i64 + self.square(0, 1)) as usize
    }
}

/// One loss set: its points in row order.
struct Set {
    /// (row, x, y, member)
    points: Vec<(usize, i64, i64, bool)>,
    x0: i64,
    y0: i64,
    w: usize,
    h: usize,
    /// Dense grid of `member` (None: not in the table).
    grid: Vec<Option<bool>>,
    /// The same grid as signs: -1 a member, +1 a non-member, 0 none.
    sign: Vec<i8>,
    /// Whether every point is at a position of its own.
    unique: bool,
    /// The number of points in the set (members).
    members: usize,
}

impl Set {
    fn new(points: Vec<(usize, i64, i64, bool)>) -> Set {
        let x0 = points.iter().map(|p| p.1).min().unwrap_or(0);
        let y0 = points.iter().map(|p| p.2).min().unwrap_or(0);
        let x1 = points.iter().map(|p| p.1).max().unwrap_or(0);
        let y1 = points.iter().map(|p| p.2).max().unwrap_or(0);
        let (w, h) = ((x1 - x0 + 1) as usize, (y1 - y0 + 1) as usize);
        let mut grid = vec![None; w * h];
        for &(_, x, y, m) in &points {
            grid[(y - y0) as usize * w + (x - x0) as usize] = Some(m);
        }
        let sign = grid
            .iter()
            .map(|g| match g {
                Some(true) => -1,
                Some(false) => 1,
                None => 0,
            })
            .collect();
        let unique = grid.iter().filter(|g| g.is_some()).count() == points.len();
        let members = points.iter().filter(|p| p.3).count();
        Set {
            points,
            x0,
            y0,
            w,
            h,
            grid,
            sign,
            unique,
            members,
        }
    }
    fn at(&self, x: i64, y: i64) -> Option<bool> {
        let (i, j) = (x - self.x0, y - self.y0);
        if i < 0 || j < 0 || i as usize >= self.w || j as usize >= self.h {
            return None;
        }
        self.grid[j as usize * self.w + i as usize]
    }
    /// Side of the box spanned by the positions.
    fn extent(&self) -> i64 {
        self.w.max(self.h) as i64
    }
    /// Mismatches of a predicate, and the first mismatching point.
    fn test(&self, f: impl Fn(i64, i64) -> bool) -> (usize, Option<(i64, i64, bool)>) {
        let mut bad = 0;
        let mut first = None;
        for &(_, x, y, m) in &self.points {
            if f(x, y) != m {
                bad += 1;
                if first.is_none() {
                    first = Some((x, y, m));
                }
            }
        }
        (bad, first)
    }
}

/// One tested form for one group.
#[derive(Clone, Debug, PartialEq)]
pub struct FormFit {
    /// The group's value (the rule), empty without a group column.
    pub group: String,
    /// The form, with the parameter names (`N1 ≡ N2 (mod q)`).
    pub form: String,
    /// The parameters that fit (or came closest).
    pub parameters: String,
    /// Whether the form fits every row.
    pub fits: bool,
    /// Rows (positions) checked.
    pub rows: usize,
    /// For a form that does not fit: rows that disagree, and the first one.
    pub counterexample: String,
}

fn modulo(a: i64, q: i64) -> i64 {
    a.rem_euclid(q)
}

fn describe(sp: &FitSpec<'_>, p: Option<(i64, i64, bool)>, bad: usize, total: usize) -> String {
    match p {
        None => String::new(),
        Some((x, y, m)) => format!(
            "{bad} of {total} rows disagree; first: {}={x}, {}={y} is {}in the set",
            sp.x,
            sp.y,
            if m { "" } else { "not " }
        ),
    }
}

fn fit_one(sp: &FitSpec<'_>, group: &str, set: &Set) -> Vec<FormFit> {
    let n = set.points.len();
    // A modulus must wrap around inside the data at least once (q < extent:
    // some pair with x ≢ y is compared); the number of periods the range
    // holds is printed with the parameters so that weak evidence shows.
    let ext = set.extent();
    let qmax = (ext - 1).max(1);
    let (x, y) = (sp.x, sp.y);
    let (mut congruent, mut blocks, mut zero) = (Vec::new(), Vec::new(), Vec::new());
    for q in 1..=qmax {
        let r = Residues::new(set, q);
        // 1. x ≡ y (mod q)
        congruent.push((Params::Congruent(q), r.bad_same(1)));
        // 2. ⌊(x mod q)/m⌋ = ⌊(y mod q)/m⌋, 2 ≤ m < q: smallest q, then largest m.
        for m in (2..q).rev() {
            blocks.push((Params::Blocks(q, m), r.bad_same(m)));
        }
        // 3. x ≡ y ≡ 0 (mod q)
        zero.push((Params::Zero(q), r.bad_zero()));
    }
    let scan = |form: String, params: Vec<(Params, usize)>| FormFit {
        group: group.to_string(),
        rows: n,
        ..scan_params(sp, set, form, &params, qmax)
    };
    let mut out = vec![
        scan(format!("{x} ≡ {y} (mod q)"), congruent),
        scan(format!("⌊({x} mod q)/m⌋ = ⌊({y} mod q)/m⌋"), blocks),
        scan(format!("{x} ≡ {y} ≡ 0 (mod q)"), zero),
    ];
    // 4. lattice shifts, up to two thirds of the range (a third of the rows compared).
    let smax = (2 * ext / 3).max(1);
    let shifts = lattice_shifts(set, smax);
    out.push(FormFit {
        group: group.to_string(),
        form: format!("invariant under ({x}, {y}) → ({x} + a, {y} + b)"),
        parameters: if shifts.is_empty() {
            format!("no shift with 0 ≤ a, b ≤ {smax}")
        } else {
            shifts
                .iter()
                .take(8)
                .map(|(a, b)| format!("({a}, {b})"))
                .collect::<Vec<_>>()
                .join(", ")
                + if shifts.len() > 8 { ", …" } else { "" }
        },
        fits: !shifts.is_empty(),
        rows: n,
        counterexample: String::new(),
    });
    out
}

/// One form's fit from its parameters in order, each with its count of
/// rows that disagree (precomputed from the residue counts): the first that
/// fits, else the first closest (`group` and `rows` left for the caller).
fn scan_params(
    sp: &FitSpec<'_>,
    set: &Set,
    form: String,
    params: &[(Params, usize)],
    qmax: i64,
) -> FormFit {
    let n = set.points.len();
    let per = |q: i64| format!("{:.1} periods in range", set.extent() as f64 / q as f64);
    let fit = params.iter().find(|(_, bad)| *bad == 0);
    let best = params
        .iter()
        .fold(None::<&(Params, usize)>, |b, c| match b {
            Some(b) if b.1 <= c.1 => Some(b),
            _ => Some(c),
        });
    let (parameters, fits, counterexample) = match (fit, best) {
        (Some((p, _)), _) => (p.label(&per), true, String::new()),
        (None, Some((p, bad))) => {
            let (_, first) = set.test(|a, b| p.holds(a, b));
            (
                format!("closest: {}", p.label(&per)),
                false,
                describe(sp, first, *bad, n),
            )
        }
        (None, None) => (
            format!("none admissible (q ≤ {qmax})"),
            false,
            String::new(),
        ),
    };
    FormFit {
        group: String::new(),
        form,
        parameters,
        fits,
        rows: n,
        counterexample,
    }
}

/// A basis of the shifts `(a, b)`, `0 ≤ a, b ≤ smax`, under which the set is
/// invariant where it overlaps itself (on at least a third of its rows),
/// each outside the lattice of those found before it.
fn lattice_shifts(set: &Set, smax: i64) -> Vec<(i64, i64)> {
    let n = set.points.len();
    let mut shifts: Vec<(i64, i64)> = Vec::new();
    for s in 1..=2 * smax {
        for a in 0..=s.min(smax) {
            let b = s - a;
            if b > smax || in_lattice(&shifts, (a, b)) {
                continue;
            }
            let mut compared = 0usize;
            let mut ok = true;
            for &(_, px, py, m) in &set.points {
                if let Some(m2) = set.at(px + a, py + b) {
                    compared += 1;
                    if m2 != m {
                        ok = false;
                        break;
                    }
                }
            }
            // Enough overlap: at least a third of the rows compared.
            if ok && compared * 3 >= n && compared > 0 {
                shifts.push((a, b));
            }
        }
    }
    shifts
}

/// Is `v` an integer combination of one or two of `basis`?
fn in_lattice(basis: &[(i64, i64)], v: (i64, i64)) -> bool {
    let (a, b) = v;
    for (i, &(c, d)) in basis.iter().enumerate() {
        // A multiple of one vector.
        if c * b == d * a {
            let k = if c != 0 { a / c } else { b / d };
            if (k * c, k * d) == (a, b) {
                return true;
            }
        }
        for &(e, f) in &basis[i + 1..] {
            let det = c * f - d * e;
            if det == 0 {
                continue;
            }
            let k1 = a * f - b * e;
            let k2 = c * b - d * a;
            if k1 % det == 0 && k2 % det == 0 {
                return true;
            }
        }
    }
    false
}

/// Tests the simple forms on every group of `table`; one [`FormFit`] per
/// group and form, groups in order of first appearance.
pub fn fit_forms(table: &Table, sp: &FitSpec<'_>) -> Result<Vec<FormFit>> {
    let int = |name: &str| -> Result<&Values> {
        let v = table
            .column(name)
            .with_context(|| format!("no column {name}"))?;
        match v {
            Values::Int(_) | Values::OptInt(_) => Ok(v),
            _ => bail!("column {name} is not an integer column"),
        }
    };
    let xs = int(sp.x)?;
    let ys = int(sp.y)?;
    let oc = table
        .column(sp.outcome)
        .with_context(|| format!("no column {}", sp.outcome))?;
    let gc = match sp.group {
        Some(g) => Some(table.column(g).with_context(|| format!("no column {g}"))?),
        None => None,
    };
    let (names, split): (Vec<&str>, Vec<&Values>) = sp
        .split
        .iter()
        .filter_map(|&c| Some((c, table.column(c)?)))
        .unzip();
    let others: Vec<&Values> = sp.others.iter().filter_map(|c| table.column(c)).collect();
    let mut order: Vec<GroupKey> = Vec::new();
    let mut groups: BTreeMap<GroupKey, Vec<(usize, i64, i64, bool)>> = BTreeMap::new();
    for i in 0..table.rows() {
        let (Cell::Int(x), Cell::Int(y)) = (xs.cell(i), ys.cell(i)) else {
            continue;
        };
        if others.iter().any(|c| matches!(c.cell(i), Cell::Int(_))) {
            continue;
        }
        let m = oc.cell(i).to_string() == sp.member;
        let g = gc.map(|c| c.cell(i).to_string()).unwrap_or_default();
        let key = (g, split.iter().map(|c| c.cell(i).to_string()).collect());
        if !groups.contains_key(&key) {
            order.push(key.clone());
        }
        groups.entry(key).or_default().push((i, x, y, m));
    }
    let sets: Vec<(String, Set)> = order
        .iter()
        .map(|key| {
            let pts = groups.remove(key).unwrap_or_default();
            (group_name(key, &order, &names), Set::new(pts))
        })
        .collect();
    // Groups are independent: fitted in parallel, kept in order.
    let fits: Vec<Vec<FormFit>> = sets
        .par_iter()
        .map(|(g, set)| fit_one(sp, g, set))
        .collect();
    Ok(fits.into_iter().flatten().collect())
}

/// A loss set's group: its label, and its values of [`FitSpec::split`].
type GroupKey = (String, Vec<String>);

/// The name of the group `key` among `all`: its label, and where another
/// group has the same label, the split columns' values that differ
/// (`t != last (play=misere)`).
fn group_name((label, values): &GroupKey, all: &[GroupKey], split: &[&str]) -> String {
    let twins: Vec<&Vec<String>> = all
        .iter()
        .filter(|(l, v)| l == label && v != values)
        .map(|(_, v)| v)
        .collect();
    if twins.is_empty() {
        return label.clone();
    }
    let differ: Vec<String> = split
        .iter()
        .zip(values)
        .enumerate()
        .filter(|(j, _)| twins.iter().any(|t| t[*j] != values[*j]))
        .map(|(_, (c, v))| format!("{c}={v}"))
        .collect();
    match label.is_empty() {
        true => differ.join(", "),
        false => format!("{label} ({})", differ.join(", ")),
    }
}

/// The fits as a table: `group`, `form`, `parameters`, `fits`,
/// `rows`, `first_counterexample`.
#[cfg(test)]
pub fn forms_table(fits: &[FormFit]) -> Table {
    let s = |f: &dyn Fn(&FormFit) -> &str| -> Values {
        let mut v = crate::data::StrVec::default();
        for x in fits {
            v.push(f(x));
        }
        Values::Str(v)
    };
    Table::new()
        .with("group", s(&|f| &f.group))
        .with("form", s(&|f| &f.form))
        .with("parameters", s(&|f| &f.parameters))
        .with("fits", Values::Bool(fits.iter().map(|f| f.fits).collect()))
        .with(
            "rows",
            Values::Int(fits.iter().map(|f| f.rows as i64).collect()),
        )
        .with("first_counterexample", s(&|f| &f.counterexample))
}

/// A Markdown page: a title and one table row per group and form.
pub fn render_markdown(title: &str, fits: &[FormFit]) -> String {
    let cell = |s: &str| s.replace('|', "\\|");
    let mut s = format!(
        "# {title}\n\n| set | form | parameters | fits | rows | first counterexample |\n|---|---|---|---|---|---|\n"
    );
    for f in fits {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} |",
            cell(&f.group),
            cell(&f.form),
            cell(&f.parameters),
            if f.fits { "yes" } else { "no" },
            f.rows,
            cell(&f.counterexample)
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::StrVec;

    fn table(n: i64, rule: &str, member: impl Fn(i64, i64) -> bool) -> Table {
        let (mut xs, mut ys, mut o, mut r) = (vec![], vec![], StrVec::default(), StrVec::default());
        for x in 0..=n {
            for y in 0..=n {
                xs.push(x);
                ys.push(y);
                o.push(if member(x, y) { "P" } else { "N" });
                r.push(rule);
            }
        }
        Table::new()
            .with("group", Values::Str(r))
            .with("x", Values::Int(xs))
            .with("y", Values::Int(ys))
            .with("member", Values::Str(o))
    }

    const SP: FitSpec<'static> = FitSpec {
        x: "x",
        y: "y",
        outcome: "member",
        member: "P",
        group: Some("group"),
        split: &[],
        others: &[],
    };

    fn get<'a>(f: &'a [FormFit], prefix: &str) -> &'a FormFit {
        f.iter().find(|x| x.form.starts_with(prefix)).unwrap()
    }

    /// One label in two plays (a rule whose label leaves the play out):
    /// with the play among the split columns, two sets, each named with
    /// its play and fitting its own form (x ≡ y mod 3 in one, mod 5 in
    /// the other); without, one set of both, which no congruence fits.
    #[test]
    fn a_label_in_two_plays_is_two_sets() {
        let normal = table(20, "t != last", |x, y| x % 3 == y % 3);
        let misere = table(20, "t != last", |x, y| x % 5 == y % 5);
        let mut both = Table::new();
        for (name, a) in normal.columns() {
            let b = misere.column(name).unwrap();
            let v = match (a, b) {
                (Values::Int(a), Values::Int(b)) => Values::Int([a.clone(), b.clone()].concat()),
                (Values::Str(a), Values::Str(b)) => {
                    let mut v = StrVec::default();
                    for i in 0..a.len() + b.len() {
                        let c = if i < a.len() {
                            a.get(i)
                        } else {
                            b.get(i - a.len())
                        };
                        v.push(c);
                    }
                    Values::Str(v)
                }
                _ => unreachable!("the test's columns"),
            };
            both.push(name, v);
        }
        let mut play = StrVec::default();
        for i in 0..both.rows() {
            play.push(if i < normal.rows() {
                "normal"
            } else {
                "misere"
            });
        }
        both.push("play", Values::Str(play));
        let sp = FitSpec {
            split: &["play"],
            ..SP
        };
        let f = fit_forms(&both, &sp).unwrap();
        let congruent = |group: &str| {
            f.iter()
                .find(|x| x.group == group && x.form.starts_with("x ≡ y (mod q)"))
                .unwrap()
                .clone()
        };
        let n = congruent("t != last (play=normal)");
        assert!(n.fits && n.parameters.starts_with("q = 3"), "{n:?}");
        let m = congruent("t != last (play=misere)");
        assert!(m.fits && m.parameters.starts_with("q = 5"), "{m:?}");
        let mixed = fit_forms(&both, &SP).unwrap();
        assert!(mixed.iter().all(|x| x.group == "t != last"));
        assert!(!get(&mixed, "x ≡ y (mod q)").fits);
        // A parameter the table lacks names nothing (it named the next
        // one's values: `no_repeat=3` for `heaps=3`).
        let sp = FitSpec {
            split: &["heaps", "play"],
            ..SP
        };
        let g: Vec<String> = fit_forms(&both, &sp)
            .unwrap()
            .into_iter()
            .map(|x| x.group)
            .collect();
        assert!(g.contains(&"t != last (play=misere)".to_string()), "{g:?}");
        // Rows with a third position filled (three heaps' beside two
        // heaps') are no points of the plane: the normal rows alone.
        let z: Vec<Option<i64>> = (0..both.rows())
            .map(|i| (i >= normal.rows()).then_some(1))
            .collect();
        both.push("z", Values::OptInt(z));
        let sp = FitSpec {
            others: &["z"],
            ..SP
        };
        let only = fit_forms(&both, &sp).unwrap();
        let c = get(&only, "x ≡ y (mod q)");
        assert!(c.fits && c.parameters.starts_with("q = 3"), "{c:?}");
        assert_eq!(c.rows, normal.rows());
    }

    #[test]
    fn congruence_found_with_smallest_modulus() {
        let t = table(30, "a", |x, y| x % 6 == y % 6);
        let f = fit_forms(&t, &SP).unwrap();
        let c = get(&f, "x ≡ y (mod q)");
        assert!(c.fits);
        assert_eq!(c.parameters, "q = 6; 5.2 periods in range");
        assert_eq!(c.rows, 31 * 31);
        // Blocks with m ≥ 2 do not fit a plain congruence.
        assert!(!get(&f, "⌊").fits);
        // The loss set is invariant under (1, 1) and (0, 6), which generate (6, 0).
        let l = get(&f, "invariant");
        assert!(l.fits);
        assert_eq!(l.parameters, "(1, 1), (0, 6)");
    }

    #[test]
    fn blocks_found() {
        // take 3..7: q = 10, m = 3
        let t = table(40, "m3n7", |x, y| (x % 10) / 3 == (y % 10) / 3);
        let f = fit_forms(&t, &SP).unwrap();
        assert!(!get(&f, "x ≡ y (mod q)").fits);
        let b = get(&f, "⌊");
        assert!(b.fits, "{b:?}");
        assert_eq!(b.parameters, "q = 10, m = 3; 4.1 periods in range");
    }

    #[test]
    fn product_lattice_found() {
        let t = table(40, "x", |x, y| x % 5 == 0 && y % 5 == 0);
        let f = fit_forms(&t, &SP).unwrap();
        let p = get(&f, "x ≡ y ≡ 0");
        assert!(p.fits);
        assert_eq!(p.parameters, "q = 5; 8.2 periods in range");
        assert_eq!(get(&f, "invariant").parameters, "(0, 5), (5, 0)");
    }

    #[test]
    fn no_form_on_an_irregular_set() {
        // A set with no structure: a hash of the position decides.
        let t = table(30, "r", |x, y| {
            // splitmix64's finaliser
            let mut z = ((x as u64) << 32 | y as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            z.is_multiple_of(3)
        });
        let f = fit_forms(&t, &SP).unwrap();
        assert_eq!(f.len(), 4);
        for x in &f {
            assert!(!x.fits, "{x:?}");
        }
        let c = get(&f, "x ≡ y (mod q)");
        assert!(c.parameters.starts_with("closest: q = "), "{c:?}");
        assert!(c.counterexample.contains("first: x="), "{c:?}");
        assert_eq!(
            get(&f, "invariant").parameters,
            "no shift with 0 ≤ a, b ≤ 20"
        );
        // Rendered as a table with one row per form.
        let md = render_markdown("forms", &f);
        assert_eq!(md.lines().filter(|l| l.starts_with("| r |")).count(), 4);
        let tab = forms_table(&f);
        assert_eq!(tab.rows(), 4);
        assert_eq!(tab.column("fits"), Some(&Values::Bool(vec![false; 4])));
    }

    /// Forms 1–3 by brute force, every candidate tested on every point (the
    /// definition), as the fitter did before it counted residues.
    /// Per form: the first parameter that fits, else the closest (mismatches, label).
    type Chosen = (Option<String>, Option<(usize, String)>);

    fn brute(set: &Set) -> Vec<Chosen> {
        let qmax = (set.extent() - 1).max(1);
        let mut lists: Vec<Vec<Params>> = vec![vec![], vec![], vec![]];
        for q in 1..=qmax {
            lists[0].push(Params::Congruent(q));
            lists[2].push(Params::Zero(q));
        }
        for q in 3..=qmax {
            for m in (2..q).rev() {
                lists[1].push(Params::Blocks(q, m));
            }
        }
        let per = |q: i64| format!("{q}");
        lists
            .into_iter()
            .map(|l| {
                let mut best: Option<(usize, String)> = None;
                for p in l {
                    let (bad, _) = set.test(|a, b| p.holds(a, b));
                    if bad == 0 {
                        return (Some(p.label(&per)), None);
                    }
                    if best.as_ref().is_none_or(|b| bad < b.0) {
                        best = Some((bad, p.label(&per)));
                    }
                }
                (None, best)
            })
            .collect()
    }

    /// A position listed twice counts twice, as the definition counts it
    /// (the grid of signs holds one per position; such a set is counted a
    /// point at a time).
    #[test]
    fn a_position_listed_twice_counts_twice() {
        let pts = vec![
            (0, 0, 0, true),
            (1, 1, 0, false),
            (2, 1, 0, false),
            (3, 2, 1, true),
            (4, -1, 3, false),
        ];
        let set = Set::new(pts);
        assert!(!set.unique);
        for q in 1..=4 {
            let r = Residues::new(&set, q);
            for m in 1..q.max(2) {
                let p = Params::Blocks(q, m);
                assert_eq!(set.test(|a, b| p.holds(a, b)).0, r.bad_same(m), "{p:?}");
            }
            let z = Params::Zero(q);
            assert_eq!(set.test(|a, b| z.holds(a, b)).0, r.bad_zero(), "{z:?}");
        }
    }

    #[test]
    fn residue_counts_agree_with_brute_force() {
        // Random sets (and near-periodic ones with noise) over boxes that do
        // not start at 0: the counted mismatches pick the same parameters.
        let mut seed = 7u64;
        let mut rnd = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        };
        for trial in 0..40 {
            let (x0, y0) = ((rnd() % 5) as i64 - 2, (rnd() % 5) as i64);
            let (w, h) = (1 + (rnd() % 25) as i64, 1 + (rnd() % 25) as i64);
            let q = 2 + (rnd() % 7) as i64;
            let mut pts = Vec::new();
            for y in y0..y0 + h {
                for x in x0..x0 + w {
                    let noisy = rnd() % 50 == 0;
                    let m = match trial % 3 {
                        0 => rnd() % 3 == 0,
                        1 => (x.rem_euclid(q) == y.rem_euclid(q)) ^ noisy,
                        _ => (x.rem_euclid(q) / 2 == y.rem_euclid(q) / 2) ^ noisy,
                    };
                    if rnd() % 10 != 0 {
                        pts.push((pts.len(), x, y, m));
                    }
                }
            }
            if pts.is_empty() {
                continue;
            }
            let set = Set::new(pts);
            let qmax = (set.extent() - 1).max(1);
            let per = |q: i64| format!("{q}");
            let mut counted = Vec::new();
            for (i, params) in [0usize, 1, 2]
                .iter()
                .map(|&k| {
                    let mut v = Vec::new();
                    for q in 1..=qmax {
                        let r = Residues::new(&set, q);
                        match k {
                            0 => v.push((Params::Congruent(q), r.bad_same(1))),
                            2 => v.push((Params::Zero(q), r.bad_zero())),
                            _ => {
                                for m in (2..q).rev() {
                                    v.push((Params::Blocks(q, m), r.bad_same(m)));
                                }
                            }
                        }
                    }
                    v
                })
                .enumerate()
            {
                let _ = i;
                // Every count equals the direct count.
                for (p, bad) in &params {
                    assert_eq!(set.test(|a, b| p.holds(a, b)).0, *bad, "{p:?}");
                }
                let fit = params.iter().find(|c| c.1 == 0).map(|c| c.0.label(&per));
                let best = if fit.is_some() {
                    None
                } else {
                    params
                        .iter()
                        .fold(None::<&(Params, usize)>, |b, c| match b {
                            Some(b) if b.1 <= c.1 => Some(b),
                            _ => Some(c),
                        })
                        .map(|(p, b)| (*b, p.label(&per)))
                };
                counted.push((fit, best));
            }
            assert_eq!(counted, brute(&set), "trial {trial}");
        }
    }

    #[test]
    fn groups_are_separate_and_errors_name_columns() {
        let mut t = table(12, "a", |x, y| x % 2 == y % 2);
        t.append(&table(12, "b", |x, y| x % 3 == y % 3)).unwrap();
        let f = fit_forms(&t, &SP).unwrap();
        let a: Vec<_> = f.iter().filter(|x| x.group == "a").collect();
        let b: Vec<_> = f.iter().filter(|x| x.group == "b").collect();
        assert!(a[0].parameters.starts_with("q = 2;"));
        assert!(b[0].parameters.starts_with("q = 3;"));
        let bad = FitSpec { x: "N3", ..SP };
        assert!(fit_forms(&t, &bad).unwrap_err().to_string().contains("N3"));
    }
}
