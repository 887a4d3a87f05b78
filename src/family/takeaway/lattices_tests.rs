//! The `lattices` dataset on cases known independently: sums of one-heap
//! games (lattice in closed form, proven), no-repeat rules against the
//! brute-force game tree, planes of three heaps. (The spec's refusals and
//! the whole pipeline with a snapshot of a small table: tests/lattices.rs.)

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::brute::Position;
use super::cases::TakeCase;
use super::datasets::LATTICES;
use super::one_heap::PROOF_CAP;
use super::params::sizes_key;
use super::*;
use crate::data::{Cell, Table, cell_text};
use crate::family::{Case, CaseCtx};
use crate::game::BruteOutcome;

/// The `lattices` table of one rule on heaps `0..=n` (`heaps` heaps).
fn lattice_table(rule: &Rule, heaps: usize, n: u64) -> Table {
    let sizes: Vec<Vec<u64>> = vec![(0..=n).collect(); heaps];
    let skey = sizes_key(&sizes);
    let case = TakeCase::new(rule.clone(), Arc::new(sizes), skey, 0, PROOF_CAP)
        .with_lattices(true)
        .with_points_window(1000);
    let keep = vec!["lattices".to_string()];
    let out = case
        .solve(&CaseCtx {
            progress: &|_| {},
            cancel: &AtomicBool::new(false),
            keep: Some(&keep),
        })
        .unwrap();
    assert_eq!(out.len(), 1, "only the datasets asked for are built");
    let (ds, t) = &out[0];
    assert_eq!(ds.name, "lattices");
    ds.validate(t).unwrap();
    t.clone()
}

fn int(t: &Table, c: &str, i: usize) -> Option<i64> {
    match t.cell(c, i) {
        Some(Cell::Int(v)) => Some(v),
        Some(Cell::Null) => None,
        other => panic!("{c}: {other:?}"),
    }
}

fn text(t: &Table, c: &str, i: usize) -> String {
    let mut s = String::new();
    cell_text(t, c, i, LATTICES.column(c), &mut s);
    s
}

/// The `(a, b)` items of a column of two-field structs.
fn pairs(t: &Table, c: &str, i: usize) -> Vec<(i64, i64)> {
    let Some(Cell::StructList(l, r)) = t.cell(c, i) else {
        panic!("{c}")
    };
    (0..l.row_len(r))
        .map(|k| {
            let v = l.item(r, k);
            (v[0], v[1])
        })
        .collect()
}

fn rule(m: u32, n: u32, no_repeat: bool) -> Rule {
    Rule {
        take: TakeForm::Range(m, n),
        play: Play::Normal,
        no_repeat,
    }
}

/// The P-positions of the box `[0, n]^heaps` from the game tree.
fn brute_losses(rule: &Rule, heaps: usize, n: u32) -> HashSet<Vec<u32>> {
    let takes: Arc<[u32]> = rule.take.takes(n as usize).into();
    let mut bo = BruteOutcome::new(rule.play);
    let mut out = HashSet::new();
    let mut h = vec![0u32; heaps];
    loop {
        let p = Position {
            heaps: h.clone(),
            last: None,
            takes: takes.clone(),
            no_repeat: rule.no_repeat,
        };
        if bo.is_p(&p) {
            out.insert(h.clone());
        }
        let Some(i) = (0..heaps).rev().find(|&i| h[i] < n) else {
            break;
        };
        h[i] += 1;
        h[i + 1..].iter_mut().for_each(|x| *x = 0);
    }
    out
}

/// Is `(x, y)` in the row's periodic pattern? From the row's own columns
/// only: the tile at (tile_x, tile_y) and the lattice ⟨(p,0), (a,q)⟩.
fn pattern(t: &Table, i: usize, x: i64, y: i64) -> bool {
    let (p, a, q) = (
        int(t, "p", i).unwrap(),
        int(t, "a", i).unwrap(),
        int(t, "q", i).unwrap(),
    );
    let (ox, oy) = (int(t, "tile_x", i).unwrap(), int(t, "tile_y", i).unwrap());
    let (dx, dy) = (x - ox, y - oy);
    let j = dy.rem_euclid(q);
    let k = (dy - j) / q;
    let r = (dx - k * a).rem_euclid(p);
    pairs(t, "tile", i).contains(&(r, j))
}

/// Is `(x, y)` in the row's periodic region (beyond its corner, in its frame)?
fn in_region(t: &Table, i: usize, x: i64, y: i64) -> bool {
    let (x0, y0) = (int(t, "x0", i).unwrap(), int(t, "y0", i).unwrap());
    match text(t, "frame", i).as_str() {
        "plain" => x >= x0 && y >= y0,
        "below" => x - y >= x0 && y >= y0,
        "above" => y - x >= x0 && x >= y0,
        f => panic!("frame {f}"),
    }
}

/// Take 1..n, normal play: a sum of one-heap games with G(x) = x mod (n+1),
/// so L = {x ≡ y (mod n+1)}: the lattice ⟨(n+1, 0), (1, 1)⟩ from the
/// origin, one P-position per tile, proven, with the argument.
#[test]
fn cond1_rows_are_proven_diagonal_lattices() {
    for n in 1..=6u32 {
        let t = lattice_table(&rule(1, n, false), 2, 80);
        assert_eq!(t.rows(), 1);
        let k = n as i64 + 1;
        assert_eq!(text(&t, "status", 0), "proven");
        assert_eq!(text(&t, "frame", 0), "plain");
        assert_eq!(
            (int(&t, "p", 0), int(&t, "a", 0), int(&t, "q", 0)),
            (Some(k), Some(1), Some(1)),
            "n = {n}"
        );
        assert_eq!(text(&t, "lattice", 0), format!("⟨({k},0), (1,1)⟩"));
        assert_eq!((int(&t, "x0", 0), int(&t, "y0", 0)), (Some(0), Some(0)));
        assert_eq!(pairs(&t, "staircase", 0), vec![(0, 0)]);
        assert_eq!(int(&t, "tile_points", 0), Some(k));
        assert_eq!(int(&t, "tile_members", 0), Some(1));
        assert_eq!(pairs(&t, "tile", 0), vec![(0, 0)]);
        assert_eq!(t.cell("density", 0), Some(Cell::Float(1.0 / k as f64)));
        assert_eq!(
            (int(&t, "box_x", 0), int(&t, "box_y", 0)),
            (Some(80), Some(80))
        );
        assert_eq!(int(&t, "tiles", 0), Some((81 / k) * 81));
        assert!(text(&t, "argument", 0).starts_with("docs/lattice.md, Proofs: "));
        assert!(text(&t, "argument", 0).contains("Sprague–Grundy"));
        // The points are exactly the diagonal classes.
        let w = int(&t, "window", 0).unwrap();
        let want: Vec<(i64, i64)> = (0..=w)
            .flat_map(|y| (0..=w).map(move |x| (x, y)))
            .filter(|&(x, y)| (x - y) % k == 0)
            .collect();
        assert_eq!(pairs(&t, "points", 0), want);
    }
}

/// No-repeat rules (not sums: observed) against the game tree on the whole
/// box: the points, the periodic region predicted by the row's tile and
/// lattice, and the evidence. Take 2..3 from the origin (5ℤ², blocks
/// AA.B.), take 1..5 eventually empty beyond (8, 1), take 2..8 with
/// different lattices below and above the diagonal.
#[test]
fn no_repeat_rows_match_the_game_tree() {
    for (r, n, rows) in [
        (rule(2, 3, true), 60u32, 1),
        (rule(1, 5, true), 60, 1),
        (rule(2, 8, true), 160, 2),
    ] {
        let t = lattice_table(&r, 2, n as u64);
        let brute = brute_losses(&r, 2, n);
        assert_eq!(t.rows(), rows, "{}", r.label());
        for i in 0..t.rows() {
            assert_eq!(text(&t, "status", i), "observed");
            assert_eq!(text(&t, "argument", i), "");
            assert!(text(&t, "evidence", i).starts_with(&format!("observed in [0,{n}]×[0,{n}]")));
            let w = int(&t, "window", i).unwrap();
            let want: Vec<(i64, i64)> = (0..=w)
                .flat_map(|y| (0..=w).map(move |x| (x, y)))
                .filter(|&(x, y)| brute.contains(&vec![x as u32, y as u32]))
                .collect();
            assert_eq!(pairs(&t, "points", i), want, "{}", r.label());
            let mut checked = 0;
            for y in 0..=n as i64 {
                for x in 0..=n as i64 {
                    if in_region(&t, i, x, y) {
                        let b = brute.contains(&vec![x as u32, y as u32]);
                        assert_eq!(pattern(&t, i, x, y), b, "{} ({x}, {y})", r.label());
                        checked += 1;
                    }
                }
            }
            assert!(checked > 1000);
            assert!(int(&t, "tiles_x", i).unwrap() >= 3 && int(&t, "tiles_y", i).unwrap() >= 3);
        }
    }
    let t = lattice_table(&rule(2, 3, true), 2, 60);
    assert_eq!(text(&t, "lattice", 0), "⟨(5,0), (0,5)⟩");
    assert_eq!((int(&t, "x0", 0), int(&t, "y0", 0)), (Some(0), Some(0)));
    let mut tile = pairs(&t, "tile", 0);
    tile.sort_unstable();
    assert_eq!(tile, vec![(0, 0), (0, 1), (1, 0), (1, 1), (3, 3)]);
    let t = lattice_table(&rule(1, 5, true), 2, 60);
    assert_eq!(text(&t, "lattice", 0), "⟨(1,0), (0,1)⟩");
    assert_eq!((int(&t, "x0", 0), int(&t, "y0", 0)), (Some(8), Some(1)));
    assert_eq!(int(&t, "tile_members", 0), Some(0));
    let t = lattice_table(&rule(2, 8, true), 2, 160);
    assert_eq!(
        (text(&t, "frame", 0), text(&t, "frame", 1)),
        ("below".to_string(), "above".to_string())
    );
    assert_eq!(text(&t, "lattice", 0), "⟨(10,0), (6,2)⟩");
    assert_eq!(text(&t, "lattice", 1), "⟨(10,0), (4,2)⟩");
}

/// A box too small for any evidence: one `none` row, with its box and no
/// lattice, never `observed`.
#[test]
fn too_small_a_box_says_none() {
    let t = lattice_table(&rule(2, 11, true), 2, 20);
    assert_eq!(t.rows(), 1);
    assert_eq!(text(&t, "status", 0), "none");
    assert_eq!(int(&t, "p", 0), None);
    assert_eq!(t.cell("density", 0), Some(Cell::Null));
    assert_eq!(
        (int(&t, "box_x", 0), int(&t, "box_y", 0)),
        (Some(20), Some(20))
    );
    assert!(
        text(&t, "evidence", 0).starts_with("no lattice with enough evidence in [0,20]×[0,20]")
    );
}

/// Three heaps: one row per plane N3 = c, its points from the game tree;
/// plane 0 is the two-heap loss set.
#[test]
fn planes_of_three_heaps_match_the_game_tree() {
    let r = rule(2, 3, true);
    let n = 30u32;
    let t = lattice_table(&r, 3, n as u64);
    assert_eq!(t.rows(), n as usize + 1);
    let brute = brute_losses(&r, 3, n);
    for i in 0..t.rows() {
        let c = int(&t, "plane", i).unwrap();
        assert_eq!(c, i as i64);
        assert_eq!(text(&t, "set", i), format!("{} | N3 = {c}", r.label()));
        let w = int(&t, "window", i).unwrap();
        let want: Vec<(i64, i64)> = (0..=w)
            .flat_map(|y| (0..=w).map(move |x| (x, y)))
            .filter(|&(x, y)| brute.contains(&vec![x as u32, y as u32, c as u32]))
            .collect();
        assert_eq!(pairs(&t, "points", i), want, "plane {c}");
    }
    let two = lattice_table(&r, 2, n as u64);
    for c in ["status", "lattice", "x0", "y0", "density"] {
        assert_eq!(t.cell(c, 0), two.cell(c, 0), "{c}");
    }
    for c in ["tile", "points", "staircase"] {
        assert_eq!(pairs(&t, c, 0), pairs(&two, c, 0), "{c}");
    }
}

/// The finest lattice of a set periodic modulo (k, k) given on one period:
/// the vectors (i, j) under which `f` is invariant, in Hermite normal form.
fn finest_mod(k: i64, f: impl Fn(i64, i64) -> bool) -> (i64, i64, i64) {
    let inv = |i: i64, j: i64| (0..k).all(|y| (0..k).all(|x| f(x + i, y + j) == f(x, y)));
    let p = (1..=k).find(|&i| inv(i, 0)).unwrap();
    for q in 1..=k {
        if let Some(a) = (0..p).find(|&a| inv(a, q)) {
            return (p, a, q);
        }
    }
    unreachable!()
}

/// Planes of a three-heap sum (take 1..3, normal play: G(x) = x mod 4): the
/// plane N3 = c is {(x mod 4) ⊕ (y mod 4) = c mod 4}, proven, with the
/// finest lattice of that relation.
#[test]
fn planes_of_sums_are_proven() {
    let t = lattice_table(&rule(1, 3, false), 3, 40);
    for i in 0..t.rows() {
        let c = int(&t, "plane", i).unwrap();
        let want = finest_mod(4, |x, y| (x.rem_euclid(4) ^ y.rem_euclid(4)) == c % 4);
        assert_eq!(text(&t, "status", i), "proven", "plane {c}");
        assert_eq!(
            (
                int(&t, "p", i).unwrap(),
                int(&t, "a", i).unwrap(),
                int(&t, "q", i).unwrap()
            ),
            want,
            "plane {c}"
        );
        assert!(text(&t, "argument", i).contains(&format!("the plane N3 = {c}")));
        assert_eq!(
            int(&t, "tile_members", i),
            Some(int(&t, "tile_points", i).unwrap() / 4)
        );
    }
}
