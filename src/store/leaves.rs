//! A part file's columns as Parquet leaf column chunks encoded by nimlab
//! ([`super::chunk`]): which columns, and their levels and values over one
//! row group's segments (rows of consecutive tables).
//!
//! A value constant over a segment (a case's rule, its labels, a column
//! that does not apply) is one dictionary run; labels and vocabularies are
//! dictionary keys run by run; other integers are delta-encoded slice by
//! slice. Every field of the part's Arrow schema is nullable, so a list's
//! levels are: 0 null, 1 empty, the leaf's maximum for a value.

use std::borrow::Cow;
use std::ops::Range;

use parquet::schema::types::ColumnDescPtr;

use super::chunk::{Encoded, Keys, Levels, ValueEnc};
use super::encode::Delta;
use crate::data::{Cell, Dtype, EnumVec, FieldItems, Values};

/// Rows `.1` of a table's column `.0`.
pub(super) type Segment<'a> = (&'a Values, Range<usize>);

/// A segment's integers: a slice of them, one value `.1` times, or rows
/// (item offsets `.1`, rows + 1 of them) each counting up by one from its
/// first value (`.0`, one per row).
enum Piece<'a> {
    Slice(Cow<'a, [i64]>),
    Same(i64, usize),
    Counting(&'a [i64], &'a [usize]),
}

impl Piece<'_> {
    fn len(&self) -> usize {
        match self {
            Piece::Slice(x) => x.len(),
            Piece::Same(_, n) => *n,
            Piece::Counting(_, o) => o[o.len() - 1] - o[0],
        }
    }
    /// Is every value the same? (A slice: whole blocks compared without
    /// early exit, vectorized, then the rest.)
    fn constant(&self) -> bool {
        let x = match self {
            Piece::Slice(x) => x,
            Piece::Same(..) => return true,
            // Counting rows: constant when no row holds two values (told
            // by their lengths) and the rows with one agree.
            Piece::Counting(firsts, o) => {
                let mut ones = o.windows(2).zip(*firsts).filter(|(w, _)| w[1] > w[0]);
                let Some((w, &a)) = ones.next() else {
                    return true;
                };
                return w[1] - w[0] == 1 && ones.all(|(w, &b)| w[1] - w[0] == 1 && b == a);
            }
        };
        let blocks = x.chunks_exact(64);
        let rest = blocks.remainder();
        blocks
            .clone()
            .all(|b| b.iter().fold(true, |a, y| a & (*y == x[0])))
            && rest.iter().all(|y| *y == x[0])
    }
    fn first(&self) -> Option<i64> {
        match self {
            Piece::Slice(x) => x.first().copied(),
            Piece::Same(v, n) => (*n > 0).then_some(*v),
            Piece::Counting(firsts, o) => o
                .windows(2)
                .zip(*firsts)
                .find(|(w, _)| w[1] > w[0])
                .map(|(_, &a)| a),
        }
    }
}

/// Whether nimlab encodes this column itself (every table's values of a
/// kind it knows); the crate's Arrow writer encodes the others (floats,
/// strings, lists of strings).
pub(super) fn encodes(d: Dtype, tables: &[Values]) -> bool {
    tables.iter().all(|v| match (v, d) {
        (_, Dtype::Float) => false,
        (Values::Repeat(one, _), _) => runs(one) && encodes(d, std::slice::from_ref(one)),
        (Values::Null(_), _) => true,
        (Values::Int(_) | Values::OptInt(_), Dtype::Int) => true,
        (Values::Bool(_), Dtype::Bool) => true,
        (Values::Dict(_), Dtype::Cat) | (Values::Enum(_), Dtype::Enum(_)) => true,
        (Values::IntList(_), Dtype::IntList) => true,
        (Values::StructList(_), Dtype::StructList(_)) => true,
        _ => false,
    })
}

/// Whether a value repeated ([`Values::Repeat`]) of this kind is written
/// here as runs (the others are written expanded).
pub(super) fn runs(one: &Values) -> bool {
    matches!(
        one,
        Values::Int(_)
            | Values::OptInt(_)
            | Values::Bool(_)
            | Values::Dict(_)
            | Values::Enum(_)
            | Values::IntList(_)
            | Values::Null(_)
    )
}

/// The leaves of a column of type `d` (one per field of a list of structs,
/// else one), over one row group's segments. The fields of a list of structs
/// share its levels: they are built once.
pub(super) fn encode_leaves(descrs: &[&ColumnDescPtr], d: Dtype, segs: &[Segment]) -> Vec<Encoded> {
    let Some(first) = descrs.first() else {
        return Vec::new();
    };
    if !matches!(d, Dtype::StructList(_)) {
        return descrs.iter().map(|x| encode_leaf(x, d, segs)).collect();
    }
    let mut levels = Levels::new(first);
    list_levels(&mut levels, segs);
    (0..descrs.len())
        .map(|leaf| {
            let values = keys_or_delta(&list_items(segs, leaf), levels.present());
            Encoded::new(levels.clone(), values)
        })
        .collect()
}

/// The one leaf of a column of type `d` other than a list of structs.
fn encode_leaf(descr: &ColumnDescPtr, d: Dtype, segs: &[Segment]) -> Encoded {
    let mut levels = Levels::new(descr);
    let values = match d {
        Dtype::Int => ints(&mut levels, segs),
        Dtype::Bool => bools(&mut levels, segs),
        Dtype::IntList | Dtype::StructList(_) => {
            list_levels(&mut levels, segs);
            keys_or_delta(&list_items(segs, 0), levels.present())
        }
        // Labels, vocabularies, and strings or floats that are all null.
        _ => labels(&mut levels, segs),
    };
    Encoded::new(levels, values)
}

/// Dictionary keys when each segment's values are one value and segments
/// hold 16 values or more on average (a case's constants), else deltas.
fn keys_or_delta<'a>(pieces: &[Piece], values: usize) -> ValueEnc<'a> {
    if pieces.len() * 16 <= values && pieces.iter().all(Piece::constant) {
        let mut k = Keys::new(false);
        for p in pieces {
            if let Some(v) = p.first() {
                let key = k.int_key(v);
                k.push(key, p.len());
            }
        }
        ValueEnc::Keys(k)
    } else {
        let mut d = Delta::new();
        for p in pieces {
            match p {
                Piece::Slice(x) => d.extend(x),
                Piece::Same(v, n) => d.extend_same(*v, *n),
                Piece::Counting(firsts, o) => d.extend_counting_rows(firsts, o),
            }
        }
        ValueEnc::Delta(d)
    }
}

/// Integers, nullable: each segment's present values, in row order.
fn ints<'a>(levels: &mut Levels, segs: &[Segment]) -> ValueEnc<'a> {
    let mut slices: Vec<Piece> = Vec::new();
    for (v, r) in segs {
        match v {
            Values::Int(x) => {
                levels.rows(true, r.len());
                slices.push(Piece::Slice(Cow::Borrowed(&x[r.clone()])));
            }
            Values::OptInt(x) => {
                let x = &x[r.clone()];
                let mut at = 0;
                while at < x.len() {
                    let present = x[at].is_some();
                    let n = x[at..]
                        .iter()
                        .take_while(|y| y.is_some() == present)
                        .count();
                    levels.rows(present, n);
                    at += n;
                }
                slices.push(Piece::Slice(Cow::Owned(
                    x.iter().flatten().copied().collect(),
                )));
            }
            Values::Repeat(one, _) => match one.cell(0) {
                Cell::Int(x) => {
                    levels.rows(true, r.len());
                    slices.push(Piece::Same(x, r.len()));
                }
                _ => levels.rows(false, r.len()),
            },
            _ => levels.rows(false, r.len()),
        }
    }
    keys_or_delta(&slices, levels.present())
}

/// Booleans, as runs.
fn bools<'a>(levels: &mut Levels, segs: &[Segment]) -> ValueEnc<'a> {
    let mut runs: Vec<(bool, usize)> = Vec::new();
    let mut push = |b: bool, k: usize| match runs.last_mut() {
        Some((c, n)) if *c == b => *n += k,
        _ => runs.push((b, k)),
    };
    for (v, r) in segs {
        let x = match v {
            Values::Bool(x) => &x[r.clone()],
            Values::Repeat(one, _) => match one.cell(0) {
                Cell::Bool(b) if !r.is_empty() => {
                    levels.rows(true, r.len());
                    push(b, r.len());
                    continue;
                }
                _ => {
                    levels.rows(false, r.len());
                    continue;
                }
            },
            _ => {
                levels.rows(false, r.len());
                continue;
            }
        };
        levels.rows(true, r.len());
        for &b in x {
            push(b, 1);
        }
    }
    ValueEnc::Bools(runs)
}

/// Labels and vocabularies: dictionary keys, looked up once per run of a
/// table's codes.
fn labels<'a>(levels: &mut Levels, segs: &[Segment<'a>]) -> ValueEnc<'a> {
    let mut k = Keys::new(true);
    for (v, r) in segs {
        match v {
            Values::Dict(d) if d.levels().len() == 1 => {
                let key = k.text_key(&d.levels()[0]);
                k.push(key, r.len());
                levels.rows(true, r.len());
            }
            Values::Dict(d) => {
                let names = d.levels();
                code_runs(&d.codes()[r.clone()], |c, n| {
                    let key = k.text_key(&names[c as usize]);
                    k.push(key, n);
                    levels.rows(true, n);
                });
            }
            Values::Enum(e) => code_runs(&e.codes[r.clone()], |c, n| {
                if c == EnumVec::NULL {
                    levels.rows(false, n);
                } else {
                    let key = k.text_key(e.levels[c as usize]);
                    k.push(key, n);
                    levels.rows(true, n);
                }
            }),
            Values::Repeat(one, _) => match one.cell(0) {
                Cell::Str(s) => {
                    let key = k.text_key(s);
                    k.push(key, r.len());
                    levels.rows(true, r.len());
                }
                _ => levels.rows(false, r.len()),
            },
            _ => levels.rows(false, r.len()),
        }
    }
    ValueEnc::Keys(k)
}

/// Calls `f(code, length)` for each run of equal codes.
fn code_runs<C: Copy + Eq>(codes: &[C], mut f: impl FnMut(C, usize)) {
    let mut at = 0;
    while at < codes.len() {
        let c = codes[at];
        let n = codes[at..]
            .iter()
            .position(|&d| d != c)
            .unwrap_or(codes.len() - at);
        f(c, n);
        at += n;
    }
}

/// The levels of lists of integers or of structs, row by row.
fn list_levels(levels: &mut Levels, segs: &[Segment]) {
    for (v, r) in segs {
        match v {
            Values::IntList(l) => {
                for i in r.clone() {
                    if l.is_valid(i) {
                        levels.list(l.row_len(i));
                    } else {
                        levels.rows(false, 1);
                    }
                }
            }
            Values::StructList(s) => levels.lists(&s.offsets()[r.start..=r.end]),
            Values::Repeat(one, _) => match one.cell(0) {
                Cell::IntList(x) => levels.same_lists(x.len(), r.len()),
                _ => levels.rows(false, r.len()),
            },
            _ => levels.rows(false, r.len()),
        }
    }
}

/// The items of lists of integers, or field `leaf` of lists of structs: one
/// piece per segment of lists.
fn list_items<'a>(segs: &[Segment<'a>], leaf: usize) -> Vec<Piece<'a>> {
    let mut pieces = Vec::new();
    for (v, r) in segs {
        match v {
            Values::IntList(l) => {
                let (o, items) = l.parts();
                pieces.push(Piece::Slice(Cow::Borrowed(&items[o[r.start]..o[r.end]])));
            }
            Values::StructList(s) => {
                let o = s.offsets();
                pieces.push(match s.stored(leaf) {
                    FieldItems::Items(x) => Piece::Slice(Cow::Borrowed(&x[o[r.start]..o[r.end]])),
                    FieldItems::Same(x) => Piece::Same(x, o[r.end] - o[r.start]),
                    FieldItems::Counting(firsts) => {
                        Piece::Counting(&firsts[r.clone()], &o[r.start..=r.end])
                    }
                });
            }
            Values::Repeat(one, _) => {
                let n = r.len();
                pieces.push(match one.cell(0) {
                    Cell::IntList([]) | Cell::Null => Piece::Same(0, 0),
                    Cell::IntList([x]) => Piece::Same(*x, n),
                    Cell::IntList(x) => Piece::Slice(Cow::Owned(x.repeat(n))),
                    _ => continue,
                });
            }
            _ => {}
        }
    }
    pieces
}
