//! A lines sweep's parameters, validated, and its expansion into cases.

use std::sync::{Arc, OnceLock};

use super::board::{self, Hex, Shape, closes, parse_mask};
use super::cases::{LinesCase, MemoFill, enumeration_work};
use super::census::{CensusCase, Enumeration, SideCount};
use super::chords::hexsum::{self, HexSolver};
use super::datasets::{CELLS, POSITIONS};
use super::dispatch::{Method, feasibility, method_for};
use super::group::Group;
use super::rules::Take;
use super::views;
use crate::cost::Work;
use crate::family::estimate::Estimated;
use crate::family::note::Note;
use crate::family::{Case, Cost, Plan, TableBytes};
use crate::game::{PLAY_WORDS, Play};
use crate::params::{self, Node, SWEEP_KEYS, SpecError};
use crate::view::View;

/// Largest value of a shape parameter (a side or row length): boards with
/// lines beyond the chord memo's sides are solved from a thin chord table
/// when it fits (see `thin_table`), and refused by name otherwise.
const MAX_PARAM: i64 = 1 << 20;

/// The datasets for which an enumeration's block solves its boards' moves
/// (otherwise the census has every value kept).
const BLOCK_WORK_NEEDS: &[&str] = &[POSITIONS.name, CELLS.name];

/// Most boards of an enumeration in one case (of one largest side).
const ENUMERATION_BLOCK: usize = 20_000;

/// Default memo budget of the component solver.
pub(crate) const DEFAULT_MEMO_GIB: i64 = 12;

const KEYS: &[&str] = &[
    "grundy", "board", "take", "play", "along", "counts", "pictures", "memo_gib", "regions", "cuts",
];
pub(crate) const SHAPE_KEYS: &[&str] = &[
    "hexagon",
    "regular",
    "triangle",
    "trapezoid",
    "parallelogram",
    "pentagon",
    "mask",
    "hexagons",
    "sum",
];

/// Names of a shape's parameters, in order.
fn param_names(kind: &str) -> &'static [&'static str] {
    match kind {
        "triangle" => &["n"],
        "regular" => &["s"],
        "trapezoid" | "parallelogram" => &["x", "y"],
        "pentagon" => &["x", "y", "z"],
        "hexagon" => &["p0", "p1", "p2", "p3", "p4", "p5"],
        _ => &[],
    }
}

fn make_shape(kind: &str, v: &[u32]) -> Shape {
    match kind {
        "triangle" => Shape::Triangle(v[0]),
        "regular" => Shape::Hexagon([v[0]; 6]),
        "trapezoid" => Shape::Trapezoid(v[0], v[1]),
        "parallelogram" => Shape::Parallelogram(v[0], v[1]),
        "pentagon" => Shape::Pentagon(v[0], v[1], v[2]),
        _ => Shape::Hexagon([v[0], v[1], v[2], v[3], v[4], v[5]]),
    }
}

fn sequence_name(kind: &str, v: &[u32], along: usize) -> String {
    let names = param_names(kind);
    let args: Vec<String> = v
        .iter()
        .enumerate()
        .map(|(i, x)| {
            if i == along {
                names[i].to_string()
            } else {
                x.to_string()
            }
        })
        .collect();
    if kind == "regular" {
        return if along == 0 {
            "H(s,s,s,s,s,s)".into()
        } else {
            format!("H({})", vec![v[0].to_string(); 6].join(","))
        };
    }
    let letter = match kind {
        "triangle" => "T",
        "trapezoid" => "A",
        "parallelogram" => "B",
        "pentagon" => "C",
        _ => "H",
    };
    format!("{letter}({})", args.join(","))
}

/// Reads the mask rows of a node: a string (rows separated by new lines or `/`) or a list of strings.
fn mask_rows(n: &Node<'_>) -> Result<Vec<String>, SpecError> {
    let rows: Vec<String> = if let Some(s) = n.value().as_str() {
        s.split(['\n', '/']).map(str::to_string).collect()
    } else if n.value().is_array() {
        n.items()
            .iter()
            .map(|i| i.str().map(str::to_string))
            .collect::<Result<_, _>>()?
    } else {
        return Err(n.err("expected the board picture: a string with one line per row (top first) or a list of row strings"));
    };
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    parse_mask(&refs).map_err(|m| n.err(m))
}

/// `sum: [board, board, ...]`: separate regions side by side on one board (a
/// mask), one board per combination of the parts' boards (a part may hold
/// ranges, or be a list of boards: any one of them); combinations that differ only in the order of their
/// parts are kept once. Each board is a group of its own, labelled by its
/// parts (`A(1,5) + B(2,3)`).
fn parse_sum(
    node: &Node<'_>,
    groups: &mut Vec<Group>,
    notes: &mut Vec<Note>,
) -> Result<(), SpecError> {
    let items = node.items();
    if !node.value().is_array() || items.len() < 2 {
        return Err(node.err(
            "`sum` takes a list of at least two parts, each a board or a list of boards (any one of them), e.g. [{trapezoid: [1, 5]}, {parallelogram: [2, 3]}]",
        ));
    }
    let mut parts: Vec<Vec<Shape>> = Vec::new();
    for it in &items {
        let mut g = Vec::new();
        // A part given as a list of boards: any one of them.
        let alts = if it.value().is_array() {
            it.items()
        } else {
            vec![it.clone()]
        };
        for a in &alts {
            parse_shape_map(a, None, &mut g, notes)?;
        }
        parts.push(g.into_iter().flat_map(|g| g.shapes).collect());
    }
    let mut combos: Vec<Vec<Shape>> = vec![Vec::new()];
    for alts in &parts {
        combos = combos
            .into_iter()
            .flat_map(|c| {
                alts.iter().map(move |s| {
                    let mut c = c.clone();
                    c.push(s.clone());
                    c
                })
            })
            .collect();
    }
    let mut seen = std::collections::HashSet::new();
    for c in combos {
        let mut key: Vec<String> = c.iter().map(Shape::text).collect();
        key.sort();
        if !seen.insert(key) {
            continue;
        }
        let label = c.iter().map(Shape::name).collect::<Vec<_>>().join(" + ");
        groups.push(Group {
            label,
            shapes: vec![Shape::Mask(board::sum_mask(&c))],
            along: None,
            census: None,
        });
    }
    Ok(())
}

/// `hexagons: {max_side: L, min_side: l, max_pieces: K}`.
fn parse_enumeration(node: &Node<'_>) -> Result<Enumeration, SpecError> {
    node.expect_keys(&["max_side", "min_side", "max_pieces"])?;
    let max_pieces = node
        .get("max_pieces")
        .map(|n| n.int(1, i64::MAX))
        .transpose()?;
    let max_side = match node.get("max_side") {
        Some(n) => n.int(1, 1023)? as u32,
        None => match max_pieces {
            // A hexagon with a side of s pieces has at least s pieces.
            Some(k) => k.min(1023) as u32,
            None => return Err(node.err("give `max_side: L` and/or `max_pieces: K`")),
        },
    };
    let min_side = node
        .get("min_side")
        .map(|n| n.int(1, max_side as i64))
        .transpose()?
        .unwrap_or(1) as u32;
    Ok(Enumeration {
        min_side,
        max_side,
        max_pieces: max_pieces.map_or(u64::MAX, |k| k as u64),
    })
}

/// A board item that is a `hexagons:` enumeration counted without listing
/// its boards ([`Enumeration::per_side`]), for an estimating plan.
fn counted_enumeration(item: &Node<'_>) -> Result<Option<Enumeration>, SpecError> {
    let Some(map) = item.value().as_object() else {
        return Ok(None);
    };
    if map.len() != 1 {
        return Ok(None);
    }
    let Some(node) = item.get("hexagons") else {
        return Ok(None);
    };
    let e = parse_enumeration(&node)?;
    Ok((e.max_pieces == u64::MAX).then_some(e))
}

/// Parses the shape keys of a map (a sweep's `board:` item, or `nimlab solve`'s parameters).
pub(crate) fn parse_shape_map(
    item: &Node<'_>,
    along: Option<&str>,
    groups: &mut Vec<Group>,
    notes: &mut Vec<Note>,
) -> Result<(), SpecError> {
    if let Some(text) = item.value().as_str() {
        let v = board_text(text).map_err(|m| item.err(m))?;
        return parse_shape_map(&item.with_value(&v), along, groups, notes);
    }
    let map = item.value().as_object().ok_or_else(|| {
        item.err(format!(
            "expected a board such as `{{triangle: 5}}`; shapes: {}",
            SHAPE_KEYS.join(", ")
        ))
    })?;
    let present: Vec<&str> = SHAPE_KEYS
        .iter()
        .copied()
        .filter(|k| map.contains_key(*k))
        .collect();
    if present.len() != 1 {
        return Err(item.err(format!(
            "give exactly one shape ({}); found {}",
            SHAPE_KEYS.join(", "),
            present.len()
        )));
    }
    let kind = present[0];
    let node = item
        .get(kind)
        .ok_or_else(|| item.err(format!("`{kind}` is empty")))?;
    match kind {
        "mask" => {
            let rows = mask_rows(&node)?;
            let s = Shape::Mask(rows);
            groups.push(Group {
                label: s.name(),
                shapes: vec![s],
                along: None,
                census: None,
            });
        }
        "sum" => parse_sum(&node, groups, notes)?,
        "hexagons" => parse_hexagons(&node, groups)?,
        _ => parse_sides(item, &node, kind, along, groups, notes)?,
    }
    Ok(())
}

/// `hexagons: {max_side: L, min_side: M, max_pieces: K}`: every equiangular
/// hexagon within the bounds, one group per largest side (blocks of
/// [`ENUMERATION_BLOCK`]).
fn parse_hexagons(node: &Node<'_>, groups: &mut Vec<Group>) -> Result<(), SpecError> {
    let e = parse_enumeration(node)?;
    let all = e.boards();
    if all.is_empty() {
        return Err(node.err("no equiangular hexagon satisfies these bounds"));
    }
    // One group per largest side.
    let mut i = 0;
    while i < all.len() {
        let m = *all[i].iter().max().unwrap();
        let mut j = i;
        while j < all.len() && *all[j].iter().max().unwrap() == m {
            j += 1;
        }
        // Split big blocks so the driver can balance and resume.
        for chunk in all[i..j].chunks(ENUMERATION_BLOCK) {
            groups.push(Group {
                label: format!("largest side {m}"),
                shapes: chunk.iter().map(|&p| Shape::Hexagon(p)).collect(),
                along: None,
                census: Some(e),
            });
        }
        i = j;
    }
    Ok(())
}

/// A shape given by its parameters (`triangle: n`, `trapezoid: [x, y]`,
/// `hexagon: [p0..p5]`…), each a number, a range or a list: one board per
/// combination, grouped into sequences along `along`.
fn parse_sides(
    item: &Node<'_>,
    node: &Node<'_>,
    kind: &str,
    along: Option<&str>,
    groups: &mut Vec<Group>,
    notes: &mut Vec<Note>,
) -> Result<(), SpecError> {
    let names = param_names(kind);
    let items = node.items();
    check_arity(node, kind, names, items.len())?;
    let mut vals: Vec<Vec<u32>> = Vec::new();
    for it in &items {
        vals.push(
            it.ints(1, MAX_PARAM)?
                .into_iter()
                .map(|x| x as u32)
                .collect(),
        );
    }
    let along_idx = along_index(item, kind, names, along, &vals)?;
    let mut combos = combinations(node, &vals)?;
    if kind == "hexagon" {
        keep_closing(item, node, &vals, &mut combos, notes)?;
    }
    push_sequences(kind, names, along_idx, combos, groups);
    Ok(())
}

/// `kind` takes one value per parameter (a list where there are several).
fn check_arity(node: &Node<'_>, kind: &str, names: &[&str], given: usize) -> Result<(), SpecError> {
    if given == names.len() && (names.len() <= 1 || node.value().is_array()) {
        return Ok(());
    }
    Err(node.err(format!(
        "`{kind}` takes {} ({}), each a number, a range \"a..b\" or a list",
        if names.len() == 1 {
            "one value".to_string()
        } else {
            format!("a list of {} values", names.len())
        },
        names.join(", ")
    )))
}

/// The parameter the sequences run along: `along` if given, else the last
/// one with several values.
fn along_index(
    item: &Node<'_>,
    kind: &str,
    names: &[&str],
    along: Option<&str>,
    vals: &[Vec<u32>],
) -> Result<Option<usize>, SpecError> {
    match along {
        Some(a) => match names.iter().position(|n| *n == a) {
            Some(i) => Ok(Some(i)),
            None => Err(item.err(format!(
                "`along: {a}` is not a parameter of `{kind}`; its parameters are {}",
                names.join(", ")
            ))),
        },
        None => Ok((0..names.len()).rev().find(|&i| vals[i].len() > 1)),
    }
}

/// Every combination of the parameters' values, refused past 5,000,000.
fn combinations(node: &Node<'_>, vals: &[Vec<u32>]) -> Result<Vec<Vec<u32>>, SpecError> {
    let product: f64 = vals.iter().map(|v| v.len() as f64).product();
    if product > 5e6 {
        return Err(node.err(format!(
            "these ranges make {product:.0} boards; at most 5000000 per shape (for every hexagon up to a size use `hexagons: {{max_side: L}}`)"
        )));
    }
    let mut combos: Vec<Vec<u32>> = vec![vec![]];
    for v in vals {
        combos = combos
            .into_iter()
            .flat_map(|c| v.iter().map(move |&x| [c.clone(), vec![x]].concat()))
            .collect();
    }
    Ok(combos)
}

/// Keeps the hexagons whose sides close; none is an error, some skipped a note.
fn keep_closing(
    item: &Node<'_>,
    node: &Node<'_>,
    vals: &[Vec<u32>],
    combos: &mut Vec<Vec<u32>>,
    notes: &mut Vec<Note>,
) -> Result<(), SpecError> {
    let total = combos.len();
    combos.retain(|c| closes([c[0], c[1], c[2], c[3], c[4], c[5]]));
    if combos.is_empty() {
        let msg = "the sides do not close: an equiangular hexagon needs p0 + p1 = p3 + p4 and p1 + p2 = p4 + p5 (report 000's Lemma 8)";
        return Err(node.err(if total == 1 {
            format!("{msg}; got {}", node_text(vals))
        } else {
            format!("{msg}; no combination of these ranges does")
        }));
    }
    if combos.len() < total {
        notes.push(
            Note::about(
                item.path(),
                "boards",
                "skipped side combinations that do not close",
            )
            .counting((total - combos.len()) as u64),
        );
    }
    Ok(())
}

/// The boards of every combination, grouped by every parameter except the
/// one at `along_idx` (a sequence along it); a group of one board each
/// where there is no sequence.
fn push_sequences(
    kind: &str,
    names: &[&str],
    along_idx: Option<usize>,
    combos: Vec<Vec<u32>>,
    groups: &mut Vec<Group>,
) {
    let mut order: Vec<Vec<u32>> = Vec::new();
    let mut by_key: Vec<Vec<Vec<u32>>> = Vec::new();
    for c in combos {
        let key: Vec<u32> = c
            .iter()
            .enumerate()
            .map(|(i, &x)| if Some(i) == along_idx { 0 } else { x })
            .collect();
        match order.iter().position(|k| *k == key) {
            Some(p) => by_key[p].push(c),
            None => {
                order.push(key);
                by_key.push(vec![c]);
            }
        }
    }
    for members in by_key {
        let shapes: Vec<Shape> = members.iter().map(|c| make_shape(kind, c)).collect();
        let (label, along) = match along_idx {
            Some(a) if members.len() > 1 => (
                sequence_name(kind, &members[0], a),
                Some((
                    names[a].to_string(),
                    members.iter().map(|c| c[a] as i64).collect(),
                )),
            ),
            _ => (shapes[0].name(), None),
        };
        if along.is_none() && shapes.len() > 1 {
            for s in shapes {
                groups.push(Group {
                    label: s.name(),
                    shapes: vec![s],
                    along: None,
                    census: None,
                });
            }
        } else {
            groups.push(Group {
                label,
                shapes,
                along,
                census: None,
            });
        }
    }
}

/// A board written as text: its name (the `name` column: `T(5)`, `A(2,7)`,
/// `B(3,4)`, `C(2,2,2)`, `H(3,3,3,3,3,3)`, `mask OO/OOO`) or the spec's form
/// in quotes (the `board` column: `trapezoid: [2, 7]`), as a map.
fn board_text(text: &str) -> Result<serde_json::Value, String> {
    use serde_json::{Value, json};
    let t = text.trim();
    let allowed = "a board is a name such as `T(5)`, `A(2,7)`, `B(3,4)`, `C(2,2,2)`, `H(3,3,3,3,3,3)`, \
                   `mask OO/OOO`, or a map such as `triangle: 5`, `trapezoid: [2, 7]`";
    if let Some(rows) = t.strip_prefix("mask ") {
        return Ok(json!({ "mask": rows.trim() }));
    }
    if let Some(map) = params::rule_map(t) {
        // `triangle: 5`, `triangle:5`, `trapezoid: [2, 7]`, `trapezoid:2,7`.
        return map.map_err(|e| format!("cannot read the board {t:?} ({e}); {allowed}"));
    }
    let kind = match t.chars().next() {
        Some('T') => "triangle",
        Some('A') => "trapezoid",
        Some('B') => "parallelogram",
        Some('C') => "pentagon",
        Some('H') => "hexagon",
        _ => return Err(format!("cannot read the board {t:?}; {allowed}")),
    };
    let args = t[1..]
        .trim()
        .strip_prefix('(')
        .and_then(|x| x.strip_suffix(')'))
        .and_then(params::text_list)
        .ok_or_else(|| format!("cannot read the board {t:?}; {allowed}"))?;
    Ok(match (kind, args) {
        ("triangle", Value::Array(mut a)) if a.len() == 1 => json!({ "triangle": a.pop() }),
        (kind, args) => json!({ kind: args }),
    })
}

fn node_text(vals: &[Vec<u32>]) -> String {
    format!(
        "[{}]",
        vals.iter()
            .map(|v| v[0].to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// Parses one `take:` item.
fn parse_take(n: &Node<'_>) -> Result<Vec<Take>, SpecError> {
    let allowed = "allowed: `maximal`, `max:P` or `{max: P}` (P ≥ 1), or `any`";
    if let Some(s) = n.value().as_str() {
        if let Some(map) = params::rule_map(s) {
            let v = map.map_err(|e| n.err(format!("{e}; {allowed}")))?;
            return parse_take(&n.with_value(&v));
        }
        return match s.trim() {
            "maximal" => Ok(vec![Take::Maximal]),
            "any" => Ok(vec![Take::Any]),
            _ => Err(n.err(format!("unknown take rule {s:?}; {allowed}"))),
        };
    }
    if !n.value().is_object() {
        return Err(n.err(format!("expected a take rule; {allowed}")));
    }
    n.expect_keys(&["max"])?;
    let m = n.req("max", "the largest run P a move may take (P ≥ 1)")?;
    let ps = m.ints(0, 1 << 20)?;
    if ps.contains(&0) {
        return Err(m.err(format!(
            "P = 0 would remove nothing: a move takes a run of 1 to P pieces, so P must be at least 1; {allowed}"
        )));
    }
    Ok(ps.into_iter().map(|p| Take::Max(p as u32)).collect())
}

/// The one rule of a board's game: `rule` (the `rule` column's text, `max:3
/// misere`), or `take` and `play` (defaults: maximal, normal).
pub(crate) fn one_rule(p: &Node<'_>) -> Result<(Take, Play), SpecError> {
    if let Some(r) = p.get("rule") {
        if let Some(k) = ["take", "play"].iter().find(|k| p.get(k).is_some()) {
            return Err(r.err(format!("give either the whole rule or `{k}`, not both")));
        }
        let s = r.str()?;
        let words: Vec<&str> = s.split_whitespace().collect();
        let (take, play) = match words.as_slice() {
            [t] => (*t, None),
            [t, p] => (*t, Some(*p)),
            _ => {
                return Err(r.err(format!(
                    "cannot read the rule {s:?}: expected the take rule and the play, e.g. `max:3 misere`"
                )));
            }
        };
        let tv = serde_json::Value::String(take.to_string());
        let t = parse_take(&r.with_value(&tv))?;
        let play = match play {
            None => Play::Normal,
            Some(w) => Play::parse(w).ok_or_else(|| {
                r.err(format!(
                    "unknown play {w:?} in the rule {s:?}; allowed: {}",
                    PLAY_WORDS.join(", ")
                ))
            })?,
        };
        return Ok((t[0], play));
    }
    let take = match p.get("take") {
        Some(t) => {
            let v = parse_takes(&t)?;
            if v.len() != 1 {
                return Err(t.err("one game needs one take rule"));
            }
            v[0]
        }
        None => Take::Maximal,
    };
    let play = match p.get("play") {
        Some(n) => {
            let w = n.words(PLAY_WORDS)?;
            if w.len() != 1 {
                return Err(n.err("one game needs one: normal or misere"));
            }
            Play::parse(w[0]).unwrap()
        }
        None => Play::Normal,
    };
    Ok((take, play))
}

/// The one board of a position or game: `board` (a name, `T(5)`, or the
/// spec's map, `{trapezoid: [2, 7]}`) or the shape's own key (`triangle: 5`),
/// which wins over a sweep's `board:` (the command line narrows a sweep).
pub(crate) fn one_board(p: &Node<'_>) -> anyhow::Result<Shape> {
    let mut groups = Vec::new();
    let mut notes = Vec::new();
    let top_level = SHAPE_KEYS.iter().any(|k| p.get(k).is_some());
    match p.get("board") {
        Some(b) if !top_level => {
            let items = b.items();
            if items.len() != 1 {
                return Err(b.err("a game needs one board").into());
            }
            parse_shape_map(&items[0], None, &mut groups, &mut notes)?;
        }
        _ => parse_shape_map(p, None, &mut groups, &mut notes)?,
    }
    let shapes: Vec<Shape> = groups.into_iter().flat_map(|g| g.shapes).collect();
    if shapes.len() != 1 {
        let names: Vec<String> = shapes.iter().take(4).map(|s| s.name()).collect();
        anyhow::bail!(
            "one game needs one board; these parameters give {} ({}{}): give single values, e.g. --{} or --board {:?}",
            shapes.len(),
            names.join(", "),
            if shapes.len() > 4 { ", …" } else { "" },
            shapes[0].text().replacen(": ", " ", 1),
            shapes[0].name()
        );
    }
    Ok(shapes.into_iter().next().unwrap())
}

pub(crate) fn parse_takes(n: &Node<'_>) -> Result<Vec<Take>, SpecError> {
    let mut out = Vec::new();
    for it in n.items() {
        for t in parse_take(&it)? {
            if !out.contains(&t) {
                out.push(t);
            }
        }
    }
    if out.is_empty() {
        return Err(n.err("empty list of take rules"));
    }
    Ok(out)
}

/// How [`plan`] expands a sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every case, to be solved.
    Exact,
    /// For the estimates only: a big `hexagons:` enumeration under the
    /// chord solver counted without listing its boards (one
    /// [`Estimated`] case per block of the exact plan).
    Estimate,
}

struct Params {
    grundy: bool,
    groups: Vec<Group>,
    /// `hexagons:` enumerations counted, not listed ([`Mode::Estimate`]).
    counted: Vec<Enumeration>,
    takes: Vec<Take>,
    plays: Vec<Play>,
    counts: bool,
    regions: bool,
    cuts: bool,
    pictures: Option<bool>,
    memo_budget: u64,
    notes: Vec<Note>,
}

fn parse_params(sweep: &Node<'_>, mode: Mode) -> Result<Params, SpecError> {
    let mut allowed: Vec<&str> = SWEEP_KEYS.to_vec();
    allowed.extend_from_slice(KEYS);
    sweep.expect_keys(&allowed)?;
    let bnode = sweep.req("board", "the board: {triangle: 5}, {trapezoid: [x, y]}, {hexagon: [p0..p5]}, {mask: ...}, {hexagons: {max_side: L}} or a list")?;
    let boards = parse_boards(sweep, &bnode, mode)?;
    let takes = match sweep.get("take") {
        Some(t) => parse_takes(&t)?,
        None => vec![Take::Maximal],
    };
    let plays = match sweep.get("play") {
        Some(p) => p
            .words(PLAY_WORDS)?
            .into_iter()
            .map(|w| Play::parse(w).unwrap())
            .collect(),
        None => vec![Play::Normal],
    };
    let counts = switch(sweep, "counts", false)?;
    let grundy = switch(sweep, "grundy", true)?;
    let regions = region_option(sweep, "regions", &boards.groups, &plays)?;
    let cuts = region_option(sweep, "cuts", &boards.groups, &plays)?;
    let pictures = sweep
        .get("pictures")
        .map(|b| b.bools().map(|v| v[0]))
        .transpose()?;
    // An explicit budget beyond this machine is refused by the memory guard
    // (the case's estimate counts it whole); the default fits the machine.
    let memo_budget = match sweep.get("memo_gib") {
        Some(m) => m.int(1, 1 << 20)? as u64 * (1 << 30),
        None => (DEFAULT_MEMO_GIB as u64 * (1 << 30)).min(crate::mem::case_budget()),
    };
    refuse_infeasible(&bnode, &boards.groups, (&takes, &plays), grundy, counts)?;
    Ok(Params {
        grundy,
        groups: boards.groups,
        counted: boards.counted,
        takes,
        plays,
        counts,
        regions,
        cuts,
        pictures,
        memo_budget,
        notes: boards.notes,
    })
}

/// A sweep's boards: the listed groups (with their notes) and, in
/// [`Mode::Estimate`], the enumerations counted rather than listed.
struct Boards {
    groups: Vec<Group>,
    notes: Vec<Note>,
    counted: Vec<Enumeration>,
}

/// Reads the sweep's `board` (one board, a list, or enumerations) along its
/// `along` letter.
fn parse_boards(sweep: &Node<'_>, bnode: &Node<'_>, mode: Mode) -> Result<Boards, SpecError> {
    // YAML 1.1 reads a bare `y` / `n` as a boolean: take them back as the letters.
    let along = match sweep.get("along") {
        Some(n) => Some(match n.value().as_bool() {
            Some(true) => "y",
            Some(false) => "n",
            None => n.str()?,
        }),
        None => None,
    };
    let items = bnode.items();
    if items.is_empty() {
        return Err(bnode.err("empty list of boards"));
    }
    let mut b = Boards {
        groups: Vec::new(),
        notes: Vec::new(),
        counted: Vec::new(),
    };
    for it in &items {
        match counted_enumeration(it)? {
            Some(e) if mode == Mode::Estimate => b.counted.push(e),
            _ => parse_shape_map(it, along, &mut b.groups, &mut b.notes)?,
        }
    }
    Ok(b)
}

/// A yes/no key of the sweep, `default` when absent.
fn switch(sweep: &Node<'_>, key: &str, default: bool) -> Result<bool, SpecError> {
    match sweep.get(key) {
        Some(b) => Ok(*b.bools()?.first().unwrap()),
        None => Ok(default),
    }
}

/// Refuses up front a board that cannot be solved under one of the rules.
fn refuse_infeasible(
    bnode: &Node<'_>,
    groups: &[Group],
    (takes, plays): (&[Take], &[Play]),
    grundy: bool,
    counts: bool,
) -> Result<(), SpecError> {
    for s in groups.iter().flat_map(|g| &g.shapes) {
        for &take in takes {
            for &play in plays {
                let m = method_for(s, take, play, grundy);
                if let Err(e) = feasibility(s.pieces(), m, counts) {
                    return Err(bnode.err(format!(
                        "{} with take {} and {} play: {e}",
                        s.name(),
                        take.text(),
                        play.as_str()
                    )));
                }
            }
        }
    }
    Ok(())
}

/// A switch for a dataset that solves regions with the component solver
/// (`regions`, `cuts`): it needs normal play and boards of at most 64 pieces.
fn region_option(
    sweep: &Node<'_>,
    key: &str,
    groups: &[Group],
    plays: &[Play],
) -> Result<bool, SpecError> {
    let Some(node) = sweep.get(key) else {
        return Ok(false);
    };
    if !*node.bools()?.first().unwrap() {
        return Ok(false);
    }
    if !plays.iter().all(|&p| p == Play::Normal) {
        return Err(node.err(format!(
            "`{key}: true` needs normal play (the regions' Grundy values): set `play: normal`"
        )));
    }
    if let Some(s) = groups
        .iter()
        .flat_map(|g| &g.shapes)
        .find(|s| s.pieces() > 64)
    {
        return Err(node.err(format!(
            "`{key}: true` solves each region with the component solver, on boards of at most 64 pieces; {} has {}",
            s.name(),
            s.pieces()
        )));
    }
    Ok(true)
}

/// Validates a sweep and expands it into cases (one per group of boards and
/// rule); in [`Mode::Estimate`] a big enumeration is counted, not listed.
pub fn plan(sweep: &Node<'_>, mode: Mode) -> Result<Plan, SpecError> {
    let mut p = parse_params(sweep, mode)?;
    if !p.counted.is_empty() && !countable(&p) {
        return plan(sweep, Mode::Exact);
    }
    let counted: Vec<(Enumeration, Vec<SideCount>)> = p
        .counted
        .iter()
        .map(|e| {
            (
                *e,
                e.per_side()
                    .expect("an enumeration without a bound on the pieces"),
            )
        })
        .collect();
    let n_counted: u64 = counted.iter().flat_map(|(_, s)| s).map(|s| s.boards).sum();
    let n_boards = p.groups.iter().map(|g| g.shapes.len()).sum::<usize>() + n_counted as usize;
    let pictures = p.pictures.unwrap_or(n_boards <= 8);
    let hex_side = longest_chord(&p.groups, &counted);
    if !counted.is_empty() && hex_side > hexsum::MAX_SIDE {
        // A thin chord table is sized from every board: list them.
        return plan(sweep, Mode::Exact);
    }
    let thin = thin_table(&p, hex_side).map_err(|m| sweep.err(m))?;
    let hex = Arc::new(OnceLock::new());
    let has_seq = p.groups.iter().any(|g| g.along.is_some());
    let groups = std::mem::take(&mut p.groups);
    let mut cases = board_cases(groups, &p, pictures, (&hex, hex_side, n_boards, thin));
    if thin.is_none() {
        count_memo_fill(&mut cases, hex_side, n_boards);
    }
    let combos = (p.takes.len() * p.plays.len()) as u64;
    // (Only with counted enumerations: a thin table's sweep has lines too
    // long for the square table's size to be worth computing.)
    let (chords, shared_work) = match counted.is_empty() {
        true => (0, Vec::new()),
        false => (
            HexSolver::upfront_bytes(hex_side, n_boards),
            enumeration_work(
                counted.iter().map(|(e, _)| e.max_side).fold(0, u32::max),
                hex_side,
                n_boards,
            ),
        ),
    };
    let solver = (&hex, hex_side, n_boards);
    let censuses = census_cases(&cases, &counted, combos, solver, &shared_work);
    let has_census = !censuses.is_empty();
    let written = Written {
        census: has_census,
        periods: has_seq,
        counts: p.counts,
        cells: pictures,
        regions: p.regions,
        cuts: p.cuts,
    };
    check_datasets(sweep, written)?;
    let mut boxed: Vec<Box<dyn Case>> = cases
        .into_iter()
        .map(|c| Box::new(c) as Box<dyn Case>)
        .collect();
    for (e, sides) in &counted {
        boxed.extend(counted_blocks(
            e,
            sides,
            (&p.takes, &p.plays),
            pictures,
            (chords, &shared_work),
        ));
    }
    boxed.extend(censuses);
    let views = sweep_views(has_census, has_seq, pictures, p.counts);
    let mut notes = p.notes;
    notes.extend(chord_note(thin, hex_side, n_boards));
    Ok(Plan {
        cases: boxed,
        views,
        notes,
        grid: Vec::new(),
    })
}

/// Which of the family's datasets a sweep writes beside `positions` and
/// `class_counts` (always): the census's, with `board: {hexagons: …}`
/// chord-solved; `periods` along a coordinate; the others when switched on.
#[derive(Clone, Copy)]
struct Written {
    census: bool,
    periods: bool,
    counts: bool,
    cells: bool,
    regions: bool,
    cuts: bool,
}

/// The datasets asked for are among those the sweep writes ([`Written`]).
fn check_datasets(sweep: &Node<'_>, w: Written) -> Result<(), SpecError> {
    use super::datasets::{
        CELLS, COUNTS, CUTS, DATASETS, HEXAGON_BOUNDS, HEXAGON_P_POSITIONS, HEXAGON_VALUES,
        PERIODS, REGIONS,
    };
    let census = [
        HEXAGON_VALUES.name,
        HEXAGON_BOUNDS.name,
        HEXAGON_P_POSITIONS.name,
    ];
    let switched = [
        (PERIODS.name, w.periods),
        (COUNTS.name, w.counts),
        (CELLS.name, w.cells),
        (REGIONS.name, w.regions),
        (CUTS.name, w.cuts),
    ];
    let written: Vec<&str> = DATASETS
        .iter()
        .map(|d| d.name)
        .filter(|n| {
            if census.contains(n) {
                return w.census;
            }
            switched
                .iter()
                .find(|(s, _)| s == n)
                .is_none_or(|(_, on)| *on)
        })
        .collect();
    crate::family::check_datasets_written(sweep, (DATASETS, &written), |name| {
        match name {
            n if n == PERIODS.name => "it is written for boards `along:` a coordinate".to_string(),
            n if n == CELLS.name => "it is written with `pictures: true`".to_string(),
            n if census.contains(&n) => "the hexagon census's datasets are written for `board: {hexagons: …}` in normal play with maximal runs".to_string(),
            n => format!("it is written with `{n}: true`"),
        }
    })
}

/// One case per group of listed boards and rule, all sharing the sweep's
/// chord solver `(solver, longest line, boards, thin table)`.
fn board_cases(
    groups: Vec<Group>,
    p: &Params,
    pictures: bool,
    (hex, hex_side, n_boards, thin): ChordSolver<'_>,
) -> Vec<LinesCase> {
    let mut cases: Vec<LinesCase> = Vec::new();
    for g in groups {
        let g = Arc::new(g);
        for &take in &p.takes {
            for &play in &p.plays {
                let uses_hex = method_for(&g.shapes[0], take, play, p.grundy) == Method::Chords;
                cases.push(LinesCase {
                    group: g.clone(),
                    take,
                    play,
                    counts: p.counts,
                    grundy: p.grundy,
                    pictures,
                    regions: p.regions,
                    cuts: p.cuts,
                    hex: uses_hex.then(|| hex.clone()),
                    hex_side,
                    hex_boards: n_boards,
                    memo_budget: p.memo_budget,
                    thin,
                    memo_fill: None,
                });
            }
        }
    }
    cases
}

/// Counts the work of the sweep's chord memo filled on demand (no table up
/// front) into its chord cases ([`LinesCase::memo_fill`]): when every chord
/// board comes from enumerations without a bound on the pieces, the classes
/// inside their largest regular hexagon, which holds them all; else the
/// classes inside its boards, when they can be counted quickly.
fn count_memo_fill(cases: &mut [LinesCase], hex_side: u32, n_boards: usize) {
    let chord = |c: &LinesCase| c.hex.is_some() && c.method() == Method::Chords;
    if hexsum::table_extent(hex_side, n_boards).is_some() {
        return;
    }
    let mut boards: Vec<[u32; 6]> = Vec::new();
    for c in cases.iter().filter(|c| chord(c)) {
        boards.extend(c.group.shapes.iter().filter_map(Shape::sides));
    }
    if boards.is_empty() {
        return;
    }
    // `None` when a chord board is listed or its enumeration bounds the
    // pieces (the regular hexagon is then not a board).
    let enumerated: Option<Vec<Enumeration>> = cases
        .iter()
        .filter(|c| chord(c))
        .map(|c| c.group.census.filter(|e| e.max_pieces == u64::MAX))
        .collect();
    let regular = enumerated.and_then(|es| es.iter().map(|e| e.max_side).max());
    let chords = match regular {
        Some(side) => super::chords::memofill::enumeration_chords(side),
        None => match super::chords::memofill::fill_chords(&boards) {
            Some((_, chords)) => chords,
            None => return,
        },
    };
    let kernel = super::cases::memo_kernel(hex_side, n_boards);
    // Listed boards fill the memo as each case solves its own (a case's
    // boards on the threads, its largest board's regions one after
    // another): each case's share by its largest board's weight.
    let listed = cases
        .iter()
        .filter(|c| chord(c))
        .all(|c| c.group.census.is_none());
    let weight = |c: &LinesCase| {
        let w = c.group.shapes.iter().filter_map(Shape::sides);
        w.map(super::chords::memofill::fill_weight)
            .fold(0.0, f64::max)
    };
    let all: f64 = cases.iter().filter(|c| chord(c)).map(weight).sum();
    for c in cases.iter_mut().filter(|c| chord(c)) {
        c.memo_fill = Some(match listed && all > 0.0 {
            true => MemoFill::own(kernel, (chords as f64 * weight(c) / all) as u64),
            false => MemoFill::shared(kernel, chords),
        });
    }
}

/// The sweep's one chord solver: the solver, the longest line it answers,
/// the number of boards and the thin table's `(rows, length)` if any.
type ChordSolver<'a> = (&'a Arc<OnceLock<HexSolver>>, u32, usize, Option<(u32, u32)>);

/// The longest line of the sweep's hexagon boards, listed or enumerated:
/// one chord solver serves the whole sweep, sized for it.
fn longest_chord(groups: &[Group], counted: &[(Enumeration, Vec<SideCount>)]) -> u32 {
    let listed = groups
        .iter()
        .flat_map(|g| &g.shapes)
        .filter_map(|s| s.sides())
        .map(|sides| Hex::from_sides(sides).longest_chord());
    // The regular hexagon has the longest lines of an enumeration.
    let enumerated = counted
        .iter()
        .map(|(e, _)| Hex::from_sides([e.max_side; 6]).longest_chord());
    listed.chain(enumerated).fold(0, u32::max)
}

/// The views a sweep offers, by what it computes.
fn sweep_views(
    has_census: bool,
    has_seq: bool,
    pictures: bool,
    counts: bool,
) -> Vec<&'static View> {
    let mut views: Vec<&'static View> = vec![&views::WINNING_MOVES, &views::CLASS_COUNTS];
    if has_census {
        views.extend([
            &views::HEXAGON_VALUES,
            &views::HEXAGON_BOUNDS,
            &views::MAX_GRUNDY,
            &views::HEXAGON_P_POSITIONS,
        ]);
    }
    if has_seq {
        views.extend([
            &views::CLASS_TABLE,
            &views::PERIOD_TABLE,
            &views::GRUNDY_HEATMAP,
        ]);
    }
    if pictures {
        views.push(&views::BOARD_PICTURE);
    }
    if counts {
        views.extend([&views::P_COUNTS, &views::COUNT_TABLE]);
    }
    views
}

/// The plan's note on the chord solver's table, if it builds one.
fn chord_note(thin: Option<(u32, u32)>, hex_side: u32, n_boards: usize) -> Option<Note> {
    if let Some((rows, length)) = thin {
        Some(Note::new(format!(
            "chord table: every hexagon with at most {rows} rows and lines of at most {length} pieces ({})",
            crate::mem::human_bytes(HexSolver::thin_bytes(rows, length))
        )))
    } else if hex_side > 0 && HexSolver::upfront_bytes(hex_side, n_boards) > 0 {
        Some(Note::new(format!(
            "chord memo: dense table for sides ≤ {hex_side} ({:.0} MiB)",
            HexSolver::upfront_bytes(hex_side, n_boards) as f64 / (1u64 << 20) as f64
        )))
    } else {
        None
    }
}

/// One census per hexagon enumeration whose boards the chord solver answers
/// (`take: maximal`, normal play), sharing the sweep's solver.
fn census_cases(
    cases: &[LinesCase],
    counted: &[(Enumeration, Vec<SideCount>)],
    combos: u64,
    (hex, hex_side, hex_boards): (&Arc<OnceLock<HexSolver>>, u32, usize),
    counted_work: &Work,
) -> Vec<Box<dyn Case>> {
    let mut seen: Vec<(Enumeration, usize)> = Vec::new();
    for c in cases.iter().filter(|c| c.census_by_enumeration()) {
        let e = c.group.census.expect("an enumeration block");
        match seen.iter_mut().find(|(x, _)| *x == e) {
            Some((_, n)) => *n += c.group.shapes.len(),
            None => seen.push((e, c.group.shapes.len())),
        }
    }
    for (e, sides) in counted {
        let boards: u64 = sides.iter().map(|s| s.boards).sum();
        seen.push((*e, (boards * combos) as usize));
    }
    seen.into_iter()
        .map(|(e, boards)| {
            // The chord cases' shared work (their memo as counted, or the
            // table), or the counted enumerations'.
            let listed = cases
                .iter()
                .find(|c| c.group.census == Some(e) && c.census_by_enumeration());
            let shared = match listed {
                Some(c) => c.cost(None).shared_work,
                None => counted_work.clone(),
            };
            Box::new(CensusCase {
                e,
                boards,
                hex: hex.clone(),
                hex_side,
                hex_boards,
                shared,
            }) as Box<dyn Case>
        })
        .collect()
}

/// Can the estimating plan count the enumerations of `p` rather than list
/// them? When every board is solved by the chord solver alone (`take:
/// maximal`, normal play, no count tables, regions or cuts); otherwise their
/// boards are checked one by one, as the exact plan does.
fn countable(p: &Params) -> bool {
    let hexagon = Shape::Hexagon([1; 6]);
    !p.counts
        && !p.regions
        && !p.cuts
        && p.takes.iter().all(|&t| {
            p.plays
                .iter()
                .all(|&pl| method_for(&hexagon, t, pl, p.grundy) == Method::Chords)
        })
}

/// The blocks of a counted enumeration as the exact plan makes them (per
/// largest side, blocks of [`ENUMERATION_BLOCK`] boards, each under every
/// rule), by their estimates: [`LinesCase`]'s under the chord solver, with
/// the mean pieces of the side's boards.
fn counted_blocks(
    e: &Enumeration,
    sides: &[SideCount],
    (takes, plays): (&[Take], &[Play]),
    pictures: bool,
    (chords, shared_work): (u64, &Work),
) -> Vec<Box<dyn Case>> {
    let mut out: Vec<Box<dyn Case>> = Vec::new();
    for s in sides {
        let blocks = s.boards.div_ceil(ENUMERATION_BLOCK as u64);
        for k in 0..blocks {
            let boards = (s.boards - k * ENUMERATION_BLOCK as u64).min(ENUMERATION_BLOCK as u64);
            let pieces = (boards as f64 * s.mean_pieces).round() as u64;
            let lookups = (boards as f64 * s.mean_chords).round() as u64;
            let beyond = boards * super::cases::row_bytes_beyond_declared(s.mean_chords);
            let mut rows = vec![(POSITIONS.name, boards)];
            if pictures {
                rows.push((CELLS.name, pieces));
            }
            for &take in takes {
                for &play in plays {
                    out.push(Box::new(Estimated {
                        key: format!(
                            "lines/estimate/{}/largest side {}/block {k}/take={}/play={}",
                            e.label(),
                            s.largest,
                            take.text(),
                            play.as_str()
                        ),
                        cost: Cost {
                            size: pieces * 4,
                            // As the exact block: nothing when the census
                            // has every value kept, else the chord solver's
                            // moves.
                            work: vec![(super::kernels::CHORD_LOOKUPS, lookups)],
                            shared_work: shared_work.clone(),
                            memory_bound: chords,
                            shared_memory: chords,
                            rows: rows.clone(),
                            table_bytes: vec![(POSITIONS.name, TableBytes::Beyond(beyond))],
                            ..Cost::default()
                        },
                        work_else: Vec::new(),
                        work_needs: BLOCK_WORK_NEEDS,
                        hint: "use smaller boards",
                    }));
                }
            }
        }
    }
    out
}

/// Largest thin chord table a sweep may use (bytes).
const THIN_MAX_BYTES: u64 = 2 << 30;

/// The thin chord table `(rows, length)` of a sweep whose chord boards have
/// lines beyond the memo's [`hexsum::MAX_SIDE`] pieces (report 000's
/// sequences far along), if it fits; `None` when the memo holds every board;
/// an error naming a board that neither holds.
fn thin_table(p: &Params, hex_side: u32) -> Result<Option<(u32, u32)>, String> {
    if hex_side <= hexsum::MAX_SIDE {
        return Ok(None);
    }
    let chord_sides: Vec<[u32; 6]> = p
        .groups
        .iter()
        .flat_map(|g| &g.shapes)
        .filter(|s| {
            p.takes.iter().any(|&t| {
                p.plays
                    .iter()
                    .any(|&pl| method_for(s, t, pl, p.grundy) == Method::Chords)
            })
        })
        .filter_map(Shape::sides)
        .collect();
    let (rows, length) = HexSolver::thin_bounds(chord_sides.iter().copied());
    let bytes = HexSolver::thin_bytes(rows, length);
    if bytes > THIN_MAX_BYTES {
        let widest = chord_sides
            .iter()
            .max_by_key(|s| Hex::from_sides(**s).longest_chord())
            .expect("a board with a long line");
        return Err(format!(
            "{}: its longest line has {} pieces, beyond the {} the chord memo keys; a table of every hexagon with at most {rows} rows and lines of {length} pieces would take {:.1} GiB (at most {:.0} GiB): use fewer rows or shorter lines",
            Shape::Hexagon(*widest).name(),
            Hex::from_sides(*widest).longest_chord(),
            hexsum::MAX_SIDE,
            bytes as f64 / (1u64 << 30) as f64,
            THIN_MAX_BYTES as f64 / (1u64 << 30) as f64
        ));
    }
    Ok(Some((rows, length)))
}
