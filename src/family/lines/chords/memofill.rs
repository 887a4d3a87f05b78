//! The work of the chord solver's memo filled on demand ([`HexSolver`]
//! without a table): counted, not solved, for the cost model.
//!
//! Every region the solver reaches from a hexagon board is the board cut by
//! three strips (`r`, `q` and `q + r` in an interval), itself a tight hexagon
//! lying inside the board; conversely every tight hexagon that can be moved
//! inside the board is reached (each bound is one chord removed). The memo
//! holds one value per symmetry class of side tuples, and filling one costs
//! one evaluation per chord (its two parts looked up, their Nim-sum added to
//! the mex). So a sweep's memo work is the number of chords of every class
//! of hexagons that fits inside one of its boards: [`fill_chords`].

use std::collections::HashSet;

use super::chordtab::Hx;
use super::hexsum::HexSolver;
use crate::family::lines::board::canonical_sides;

/// Most hexagons [`fill_chords`] looks at one by one (a few tenths of a
/// second): boards holding more are counted scaled down ([`scaled_fill`]).
const MAX_SHAPES: u64 = 30_000_000;

/// Chords of a tight hexagon: one per line along each of its three directions.
pub fn chords(h: Hx) -> u64 {
    u64::from(h.r + h.q + h.s() + 3)
}

/// Does the tight hexagon `s` fit inside `h` (moved, not turned)?
fn fits(s: Hx, h: Hx) -> bool {
    if s.r > h.r || s.q > h.q {
        return false;
    }
    // Moved by (x, y), x ≤ h.r − s.r, y ≤ h.q − s.q: its `q + r` lies in
    // [x + y + s.a, x + y + s.r + s.q − s.b], which must lie in h's.
    let lo = i64::from(h.a) - i64::from(s.a);
    let hi = (i64::from(h.r + h.q) - i64::from(h.b)) - i64::from(s.r + s.q - s.b);
    let most = i64::from(h.r - s.r + h.q - s.q);
    lo.max(0) <= hi.min(most)
}

/// Does any image of `s` (the 12 symmetries) fit inside `h`?
fn fits_turned(s: [u32; 6], h: Hx) -> bool {
    crate::family::lines::board::side_images(s)
        .into_iter()
        .any(|img| fits(Hx::from_sides(img), h))
}

/// Most comparisons of two boards [`maximal`] makes before it gives up.
const MAX_COMPARED: u64 = 1_000_000;

/// The boards no other board holds (one per symmetry class; `None` when
/// finding them would take long).
fn maximal(boards: &[[u32; 6]]) -> Option<Vec<[u32; 6]>> {
    let mut classes: Vec<[u32; 6]> = boards.iter().map(|&p| canonical_sides(p)).collect();
    classes.sort_unstable();
    classes.dedup();
    // Largest first, so a board is only compared with the kept ones.
    classes.sort_by_key(|&p| std::cmp::Reverse(chords(Hx::from_sides(p))));
    let mut kept: Vec<[u32; 6]> = Vec::new();
    let mut compared = 0u64;
    for p in classes {
        compared += kept.len() as u64;
        if compared > MAX_COMPARED {
            return None;
        }
        if !kept.iter().any(|&k| fits_turned(p, Hx::from_sides(k))) {
            kept.push(p);
        }
    }
    Some(kept)
}

/// Hexagons [`fill_chords`] goes through for a board lying as `h`.
fn enumerated(h: Hx) -> u64 {
    let m = u64::from(h.r.min(h.q)) + 1;
    (u64::from(h.r) + 1) * (u64::from(h.q) + 1) * m * m
}

/// A board's weight in its memo's work: the hexagons fitting inside it as
/// [`fill_chords`] goes through them, times its chords (the work of its
/// memo alone grows as this does, the fifth power of its extents): what
/// shares a sweep's memo among its cases and scales a case down.
pub fn fill_weight(p: [u32; 6]) -> f64 {
    let images = crate::family::lines::board::side_images(p).map(Hx::from_sides);
    let h = images.into_iter().min_by_key(|&h| enumerated(h)).unwrap();
    enumerated(h) as f64 * chords(h) as f64
}

/// The memo's work for `boards` (side tuples) on one solver: the symmetry
/// classes of hexagons fitting inside a board, and their chords summed
/// (`None` when finding the boards no other holds would take long). Boards
/// holding more than [`MAX_SHAPES`] hexagons are counted scaled down
/// ([`scaled_fill`]).
pub fn fill_chords(boards: &[[u32; 6]]) -> Option<(u64, u64)> {
    fill_chords_within(boards, MAX_SHAPES)
}

/// [`fill_chords`] within a few hundredths of a second (at most
/// [`QUICK_SHAPES`] hexagons one by one, else scaled down): a case scaled
/// down for the dry run's samples, counted for each of its sizes.
pub fn fill_chords_quick(boards: &[[u32; 6]]) -> Option<(u64, u64)> {
    fill_chords_within(boards, QUICK_SHAPES)
}

/// Hexagons [`fill_chords_quick`] looks at one by one at most.
const QUICK_SHAPES: u64 = 2_000_000;

/// [`fill_chords`], counting at most `most` hexagons one by one.
fn fill_chords_within(boards: &[[u32; 6]], most: u64) -> Option<(u64, u64)> {
    // Each board turned to where its hexagons are quickest to go through
    // (a class fits a board when one of its images fits the board as it
    // lies, so any image of the board will do).
    let kept: Vec<Hx> = maximal(boards)?
        .into_iter()
        .map(|p| {
            let images = crate::family::lines::board::side_images(p).map(Hx::from_sides);
            images.into_iter().min_by_key(|&h| enumerated(h)).unwrap()
        })
        .collect();
    let shapes: u64 = kept.iter().map(|&h| enumerated(h)).sum();
    if shapes > most {
        return Some(scaled_fill(&kept, most));
    }
    Some(count_classes(&kept))
}

/// The classes of hexagons fitting inside one of `kept` (as they lie) and
/// their chords, one by one.
fn count_classes(kept: &[Hx]) -> (u64, u64) {
    let mut seen: HashSet<[u32; 6]> = HashSet::new();
    let mut total = 0u64;
    for &h in kept {
        each_shape_in(h, |s| {
            if seen.insert(canonical_sides(s.sides())) {
                total += chords(s);
            }
        });
    }
    (seen.len() as u64, total)
}

/// [`count_classes`] of boards too big to go through (more than `most`
/// hexagons): counted on the boards scaled down in every extent to hold at
/// most a quarter of `most`, then scaled back up as the hexagons fitting
/// (the fourth power of the extents) and their chords (the fifth) grow,
/// measured on the boards themselves ([`enumerated`] and [`chords`]): on
/// the regular hexagons of sides 38 to 80, within 15 % of Burnside's count
/// ([`enumeration_chords`]: 5 % over at 38, 12 % over at 80, the lower
/// powers of the extents weighing more on the smaller boards).
fn scaled_fill(kept: &[Hx], most: u64) -> (u64, u64) {
    let shapes = |hs: &[Hx]| hs.iter().map(|&h| enumerated(h)).sum::<u64>();
    let weight = |hs: &[Hx]| {
        hs.iter()
            .map(|&h| (enumerated(h) * chords(h)) as f64)
            .sum::<f64>()
    };
    let mut f = (most as f64 / 4.0 / shapes(kept) as f64).powf(0.25);
    let small = loop {
        let small: Vec<Hx> = kept.iter().map(|&h| scale_hx(h, f)).collect();
        if shapes(&small) <= most || f < 1e-3 {
            break small;
        }
        f *= 0.9;
    };
    let (classes, total) = count_classes(&small);
    let by_shapes = shapes(kept) as f64 / shapes(&small) as f64;
    let by_chords = weight(kept) / weight(&small);
    (
        (classes as f64 * by_shapes) as u64,
        (total as f64 * by_chords) as u64,
    )
}

/// A tight hexagon's extents and corner cuts times `f`, rounded (the cuts
/// within the extents, so it stays a hexagon).
fn scale_hx(h: Hx, f: f64) -> Hx {
    let at = |x: u32| (f64::from(x) * f).round() as u32;
    let (r, q) = (at(h.r), at(h.q));
    let m = r.min(q);
    Hx {
        r,
        q,
        a: at(h.a).min(m),
        b: at(h.b).min(m),
    }
}

/// `f` on every tight hexagon that fits inside `h` as it lies (one per
/// shape), in plain loops (an iterator chain made plans a quarter slower).
fn each_shape_in(h: Hx, mut f: impl FnMut(Hx)) {
    for r in 0..=h.r {
        for q in 0..=h.q {
            let m = r.min(q);
            for a in 0..=m {
                for b in 0..=m {
                    let s = Hx { r, q, a, b };
                    if fits(s, h) {
                        f(s);
                    }
                }
            }
        }
    }
}

/// The memo's work for every hexagon with sides `≤ max_side` (an
/// enumeration's census and boards, without a table): every such hexagon
/// fits inside the regular hexagon of side `max_side` as it lies, and so do
/// its images (the regular hexagon has all 12 symmetries), so the memo fills
/// the classes of hexagons inside that one. Counted by Burnside's lemma
/// rather than by class (what [`fill_chords`] counts, without its set of
/// classes): each shape as it lies, its chords times the symmetries that
/// fix it, over 12; up to [`COUNTED_SIDE`], beyond which it is scaled from
/// there as the fifth power of the side.
pub fn enumeration_chords(max_side: u32) -> u64 {
    let side = max_side.max(1);
    if side <= COUNTED_SIDE {
        return burnside_chords(side);
    }
    let scale = (f64::from(side) / f64::from(COUNTED_SIDE)).powi(5);
    (burnside_chords(COUNTED_SIDE) as f64 * scale) as u64
}

/// Sides up to which [`enumeration_chords`] counts (`(2·side)³` steps:
/// about 0.3 s at 128; a chord table holds enumerations up to about 150).
const COUNTED_SIDE: u32 = 128;

/// The classes' chords inside the regular hexagon of side `side`, by
/// Burnside's lemma: every shape once, and again for each other symmetry
/// fixing it. A shape `(r, q, a, b)` has sides `(q − a + 1, r − b + 1,
/// b + 1, q − b + 1, r − a + 1, a + 1)`: the reflection swapping its first
/// and fifth sides fixes it exactly when `q = r` (counted in closed form
/// with the shapes), and every other symmetry only when `a = b`,
/// `a + b = r` or `a + b = q`: only those shapes are looked at one by one.
fn burnside_chords(side: u32) -> u64 {
    let h = Hx::from_sides([side; 6]);
    let others = |s: Hx| {
        let p = s.sides();
        let fixing = crate::family::lines::board::side_images(p)
            .iter()
            .filter(|&&x| x == p)
            .count();
        fixing as u64 - 1 - u64::from(s.q == s.r)
    };
    let mut total = 0u64;
    for r in 0..=h.r {
        for q in 0..=h.q {
            let m = r.min(q);
            for a in 0..=m {
                total += fitting_chords(h, (r, q, a)) * (1 + u64::from(q == r));
                // b = a, r − a, q − a (wrapping below 0 to beyond m), once each.
                let mut bs = [a, r.wrapping_sub(a), q.wrapping_sub(a)];
                bs.sort_unstable();
                total += (0..3)
                    .filter(|&i| bs[i] <= m && (i == 0 || bs[i] != bs[i - 1]))
                    .map(|i| Hx { r, q, a, b: bs[i] })
                    .filter(|&s| fits(s, h))
                    .map(|s| chords(s) * others(s))
                    .sum::<u64>();
            }
        }
    }
    total / 12
}

/// The chords of the shapes `(r, q, a, b)` that fit inside `h`, over `b`:
/// the `b` that fit are an interval up to `min(r, q)` ([`fits`]: its upper
/// bound on the offset grows with `b`), and a shape's chords fall by one as
/// `b` grows, so the sum is in closed form.
fn fitting_chords(h: Hx, (r, q, a): (u32, u32, u32)) -> u64 {
    let [hr, hq, ha, hb] = [h.r, h.q, h.a, h.b].map(i64::from);
    let [r, q, a] = [r, q, a].map(i64::from);
    let (m, most) = (r.min(q), hr - r + hq - q);
    let lo = (ha - a).max(0);
    // lo ≤ (hr + hq − hb) − (r + q − b)
    let b0 = (lo - (hr + hq - hb - r - q)).max(0);
    if lo > most || b0 > m {
        return 0;
    }
    let n = m - b0 + 1;
    let top = 2 * r + 2 * q - a + 3;
    (n * top - (b0 + m) * n / 2) as u64
}

/// `nimlab calibrate`'s probe of the memo filled on demand: regular hexagons
/// of sides 1..12 on a fresh solver with a dense memo (`hashed` false), or
/// parallelograms of 3 rows and lines up to 200 pieces on one with a hashed
/// memo; their memo's chords.
pub fn probe(hashed: bool) -> anyhow::Result<u64> {
    let boards: Vec<[u32; 6]> = if hashed {
        (1..=200).map(|y| [y, 3, 1, y, 3, 1]).collect()
    } else {
        (1..=12).map(|n| [n; 6]).collect()
    };
    let side = boards.iter().flat_map(|p| p.iter()).max().copied();
    let side = if hashed { 200 } else { 2 * side.unwrap_or(1) };
    let solver = HexSolver::new(side);
    for &p in &boards {
        std::hint::black_box(
            solver.grundy(crate::family::lines::board::Hex::from_sides(p), &|_| {}),
        );
    }
    Ok(fill_chords(&boards).map_or(0, |w| w.1))
}

#[cfg(test)]
/// Every class of region the solver reaches from `boards`, found by
/// cutting chords one after another (breadth first), and their chords.
pub(crate) fn reached(boards: &[[u32; 6]]) -> (u64, u64) {
    let mut seen: HashSet<[u32; 6]> = HashSet::new();
    let start = boards
        .iter()
        .map(|&p| crate::family::lines::board::Hex::from_sides(p));
    let mut todo: Vec<crate::family::lines::board::Hex> = start.collect();
    let mut total = 0;
    while let Some(h) = todo.pop() {
        if !seen.insert(canonical_sides(h.sides())) {
            continue;
        }
        total += HexSolver::chords(&h).count() as u64;
        for c in HexSolver::chords(&h) {
            let (a, b) = HexSolver::split(&h, c);
            todo.extend(a.into_iter().chain(b));
        }
    }
    (seen.len() as u64, total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::lines::board::Hex;
    use std::collections::HashMap;

    #[test]
    fn the_counted_memo_is_what_the_solver_fills() {
        let sets: Vec<Vec<[u32; 6]>> = vec![
            vec![[1; 6]],
            vec![[2, 1, 2, 1, 2, 1]],
            vec![[5, 2, 4, 4, 3, 3]],
            (1..=6).map(|n| [n; 6]).collect(),
            (1..=20).map(|y| [y, 2, 1, y, 2, 1]).collect(),
            vec![[6, 3, 5, 5, 4, 4], [4, 1, 4, 1, 4, 1], [7, 1, 1, 7, 1, 1]],
            (1..=30).map(|y| [y, 1, 1, y, 1, 1]).collect(),
        ];
        for boards in sets {
            let counted = fill_chords(&boards).unwrap();
            assert_eq!(counted, reached(&boards), "{boards:?}");
            // The solver's own counter: one per class it filled (every board
            // asked by its value, so each is filled too).
            let solver = HexSolver::new(48);
            for &p in &boards {
                solver.grundy(Hex::from_sides(p), &|_| {});
            }
            assert_eq!(solver.computed(), counted.0, "{boards:?}");
        }
    }

    /// Every hexagon with sides up to `n` lies inside the regular one (so
    /// an enumeration's memo is the regular hexagon's, by the solver's own
    /// breadth-first search), and Burnside's count is the classes' one.
    #[test]
    fn an_enumeration_fills_the_regular_hexagons_memo() {
        for n in 2..=7u32 {
            let boards: Vec<[u32; 6]> = crate::family::lines::census::Enumeration {
                min_side: 1,
                max_side: n,
                max_pieces: u64::MAX,
            }
            .boards();
            let regular = Hx::from_sides([n; 6]);
            assert!(boards.iter().all(|&p| fits(Hx::from_sides(p), regular)));
            assert_eq!(reached(&boards), reached(&[[n; 6]]), "sides ≤ {n}");
        }
        for n in 1..=12u32 {
            let exact = fill_chords(&[[n; 6]]).unwrap().1;
            assert_eq!(enumeration_chords(n), exact, "sides ≤ {n}");
        }
    }

    /// The shapes' chords in closed form are every fitting shape's chords,
    /// summed one by one; so is Burnside's count.
    #[test]
    fn the_shapes_chords_in_closed_form_are_their_sum() {
        for n in [1u32, 2, 3, 5, 8, 13] {
            let h = Hx::from_sides([n; 6]);
            let mut each: HashMap<(u32, u32, u32), u64> = HashMap::new();
            each_shape_in(h, |s| {
                *each.entry((s.r, s.q, s.a)).or_default() += chords(s)
            });
            for r in 0..=h.r {
                for q in 0..=h.q {
                    for a in 0..=r.min(q) {
                        let want = each.get(&(r, q, a)).copied().unwrap_or(0);
                        assert_eq!(fitting_chords(h, (r, q, a)), want, "{n}: {r} {q} {a}");
                    }
                }
            }
        }
        // Burnside's count looking at every shape, against the one looking
        // only at the shapes a symmetry can fix.
        for n in [13u32, 20, 31] {
            let fixing = |s: Hx| {
                let p = s.sides();
                let images = crate::family::lines::board::side_images(p);
                images.iter().filter(|&&x| x == p).count() as u64
            };
            let mut all = 0u64;
            each_shape_in(Hx::from_sides([n; 6]), |s| all += chords(s) * fixing(s));
            assert_eq!(enumeration_chords(n), all / 12, "side {n}");
        }
    }

    /// Boards beyond what is counted one by one are counted scaled down:
    /// the regular hexagons against Burnside's count, within 15 %.
    #[test]
    fn boards_too_big_to_go_through_are_counted_scaled_down() {
        let near = |a: u64, b: u64| (a as f64 / b as f64 - 1.0).abs() < 0.15;
        for side in [38u32, 50, 80] {
            let (_, scaled) = fill_chords(&[[side; 6]]).unwrap();
            let exact = enumeration_chords(side);
            assert!(near(scaled, exact), "side {side}: {scaled} against {exact}");
        }
    }

    #[test]
    fn a_hand_count() {
        // The triangle of 2 rows (3 pieces): itself, the 2-piece segment
        // (three of them, one class) and the single piece; 6 + 5 + 3 chords.
        assert_eq!(fill_chords(&[[2, 1, 2, 1, 2, 1]]), Some((3, 14)));
        // A row of 3: the rows of 3, 2 and 1 (7 + 5 + 3 chords).
        assert_eq!(fill_chords(&[[3, 1, 1, 3, 1, 1]]), Some((3, 15)));
        // Rows of 1..1000 pieces: the rows of each length, 2y + 1 chords
        // each (counted quickly although the row's canonical image is long
        // in two directions).
        let rows: Vec<[u32; 6]> = (1..=1000).map(|y| [y, 1, 1, y, 1, 1]).collect();
        let chords: u64 = (1..=1000u64).map(|y| 2 * y + 1).sum();
        assert_eq!(fill_chords(&rows), Some((1000, chords)));
    }
}
