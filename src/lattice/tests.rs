//! Tests: the bit-row kernel against a plain loop, constructed sets whose
//! lattice, corner and tile are known by construction (the finest lattice
//! computed independently from the tile's own symmetries), the traps of a
//! naive detector, and sums of periodic sequences with their proof.

use super::*;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn bit(&mut self) -> bool {
        self.next() >> 63 == 1
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Representative of `(x, y)` modulo `l` in the rectangle `[0, p) × [0, q)`.
fn reduce(l: &Lattice, x: i64, y: i64) -> (usize, usize) {
    let (p, a, q) = (l.p as i64, l.a as i64, l.q as i64);
    let j = y.rem_euclid(q);
    let k = (y - j) / q;
    let i = (x - k * a).rem_euclid(p);
    (i as usize, j as usize)
}

/// The finest lattice of the Λ-periodic set given by `tile` (`tile[j][i]`,
/// `p × q`), by trying every vector of the tile: the invariance group is Λ
/// plus the vectors `v` with `f(P + v) = f(P)` for every `P`.
fn finest(l: &Lattice, tile: &[Vec<bool>]) -> Lattice {
    let f = |x: i64, y: i64| {
        let (i, j) = reduce(l, x, y);
        tile[j][i]
    };
    let inv = |dx: i64, dy: i64| {
        (0..l.q as i64).all(|y| (0..l.p as i64).all(|x| f(x + dx, y + dy) == f(x, y)))
    };
    let p = (1..=l.p as i64).find(|&i| inv(i, 0)).unwrap() as usize;
    for q in 1..=l.q as i64 {
        if let Some(a) = (0..p as i64).find(|&a| inv(a, q)) {
            return Lattice::new(p, a as usize, q as usize);
        }
    }
    unreachable!("(a, q) is in the group")
}

/// A set that is `l`-periodic with `tile` beyond `corner` and random in the
/// strips, with a violation forced far along each strip (so the exact
/// preperiod region is the L-shape of `corner`).
fn constructed(
    rng: &mut Rng,
    w: usize,
    h: usize,
    l: &Lattice,
    tile: &[Vec<bool>],
    corner: (usize, usize),
) -> Grid {
    let (x0, y0) = corner;
    let periodic = |x: usize, y: usize| {
        let (i, j) = reduce(l, x as i64 - x0 as i64, y as i64 - y0 as i64);
        tile[j][i]
    };
    let mut g = Grid::from_fn(w, h, |x, y| {
        if x >= x0 && y >= y0 {
            periodic(x, y)
        } else {
            false
        }
    });
    for y in 0..h {
        for x in 0..w {
            if (x < x0 || y < y0) && rng.bit() {
                g.set(x, y, true);
            }
        }
    }
    // (x0 − 1, h − 10) differs from its continuation (x0 − 1 + p, h − 10).
    if x0 > 0 {
        let v = g.get(x0 - 1 + l.p, h - 10);
        g.set(x0 - 1, h - 10, !v);
    }
    if y0 > 0 {
        let v = periodic(w - 10, y0 - 1 + l.vertical());
        g.set(w - 10, y0 - 1, !v);
    }
    g
}

fn random_tile(rng: &mut Rng, l: &Lattice) -> Vec<Vec<bool>> {
    (0..l.q)
        .map(|_| (0..l.p).map(|_| rng.below(3) == 0).collect())
        .collect()
}

#[test]
fn violations_match_a_plain_loop() {
    let mut rng = Rng(7);
    for (w, h) in [(1, 1), (5, 9), (64, 3), (65, 7), (130, 20), (200, 5)] {
        let g = Grid::from_fn(w, h, |_, _| rng.bit());
        for dx in [0, 1, 2, 31, 63, 64, 65, 100, 129, 199] {
            for dy in [0, 1, 2, 4] {
                let got = g.last_violations(dx, dy);
                if dx >= w || dy >= h {
                    assert!(got.is_empty());
                    continue;
                }
                let want: Vec<i64> = (0..h - dy)
                    .map(|y| {
                        (0..w - dx)
                            .rev()
                            .find(|&x| g.get(x, y) != g.get(x + dx, y + dy))
                            .map_or(-1, |x| x as i64)
                    })
                    .collect();
                assert_eq!(got, want, "{w}×{h} by ({dx}, {dy})");
            }
        }
    }
}

#[test]
fn hermite_normal_form_basics() {
    let l = Lattice::new(6, 8, 3);
    assert_eq!((l.p, l.a, l.q), (6, 2, 3));
    assert!(l.contains(6, 0) && l.contains(2, 3) && l.contains(4, 6) && l.contains(-2, -3));
    assert!(!l.contains(1, 0) && !l.contains(2, 1));
    // (0, m) ∈ Λ: 3 · (2, 3) − (6, 0) = (0, 9).
    assert_eq!(l.vertical(), 9);
    assert!(Lattice::new(6, 0, 9).is_sublattice_of(&l));
    assert!(!l.is_sublattice_of(&Lattice::new(6, 0, 9)));
}

/// Sheared and axis-aligned lattices, L-shaped preperiods, random tiles: the
/// detector finds the finest lattice, the exact corner and the tile.
#[test]
fn constructed_lattices_and_corners() {
    let mut rng = Rng(2024);
    let cases = [
        (Lattice::new(6, 2, 3), (7, 11)),
        (Lattice::new(5, 0, 4), (0, 0)),
        (Lattice::new(7, 3, 2), (20, 3)),
        (Lattice::new(12, 5, 1), (0, 9)),
        (Lattice::new(4, 1, 6), (13, 13)),
        (Lattice::new(1, 0, 1), (4, 5)),
    ];
    for (l, corner) in cases {
        for round in 0..3 {
            let tile = random_tile(&mut rng, &l);
            let want = finest(&l, &tile);
            let g = constructed(&mut rng, 160, 140, &l, &tile, corner);
            let s = detect(&g).unwrap_or_else(|| panic!("{l} {corner:?} round {round}: none"));
            assert_eq!(s.lattice, want, "{l} {corner:?} round {round}");
            assert_eq!(s.corner, corner, "{l} {corner:?} round {round}");
            assert_eq!(s.status, Status::Observed);
            // The tile predicts every point of the quadrant in the box.
            for y in corner.1..140 {
                for x in corner.0..160 {
                    assert_eq!(s.predicts(x, y), Some(g.get(x, y)), "({x}, {y})");
                }
            }
            let ev = s.evidence;
            assert_eq!(ev.bounds, (159, 139));
            assert_eq!(ev.margin, (160 - corner.0, 140 - corner.1));
            assert_eq!(
                ev.copies,
                ((160 - corner.0) / want.p, (140 - corner.1) / want.q)
            );
        }
    }
}

/// Strips that repeat along their length are reported, with where.
#[test]
fn periodic_strips() {
    // L = {(x, y) : f(x) = f(y)} with f eventually periodic: f = 9 9 5 then 0 1 2 0 1 2 …
    let f = |n: usize| {
        if n < 2 {
            9
        } else if n == 2 {
            5
        } else {
            n % 3
        }
    };
    let g = Grid::from_fn(200, 200, |x, y| f(x) == f(y));
    let s = detect(&g).unwrap();
    assert_eq!(s.lattice, Lattice::new(3, 1, 1));
    assert!(s.symmetric);
    assert_eq!(s.corner, (3, 3));
    assert_eq!(s.strips, Some(Strips { from: (3, 3) }));
}

/// A symmetric set with a diagonal lattice and the diagonal corner.
#[test]
fn symmetric_sets() {
    let mut rng = Rng(99);
    let mut g = Grid::from_fn(150, 150, |x, y| {
        x >= 6 && y >= 6 && (x + 2 * y) % 7 == (y + 2 * x) % 7
    });
    for y in 0..150 {
        for x in 0..=y {
            if (x < 6 || y < 6) && rng.bit() {
                g.set(x, y, true);
                g.set(y, x, true);
            }
        }
    }
    g.set(5, 140, !g.get(12, 140));
    g.set(140, 5, g.get(5, 140));
    assert!(g.is_symmetric());
    let s = detect(&g).unwrap();
    // x + 2y ≡ y + 2x ⇔ x ≡ y (mod 7).
    assert_eq!(s.lattice, Lattice::new(7, 1, 1));
    assert_eq!(s.corner, (6, 6));
    assert!(s.symmetric);
    assert_eq!(s.members(), 1);
}

/// The pattern changes just past what a naive window would look at: the
/// detector never reports the first pattern, says none while the change is
/// too near the edge of the box, and finds the second one once the box is
/// big enough to show it.
#[test]
fn pattern_changing_past_a_naive_window() {
    let first = |x: usize, y: usize| (x + 3 * y).is_multiple_of(8);
    let second = |x: usize, y: usize| (2 * x + y) % 5 < 2;
    let set = |x: usize, y: usize| {
        if x < 300 && y < 300 {
            first(x, y)
        } else {
            second(x, y)
        }
    };
    // A window of 0..250: the first pattern, fully periodic there.
    let small = detect(&Grid::from_fn(250, 250, set)).unwrap();
    assert_eq!(small.lattice, Lattice::new(8, 5, 1));
    // 0..500: the change at 300 is past the middle of the box: none.
    assert_eq!(detect(&Grid::from_fn(500, 500, set)), None);
    // 0..1000: the second pattern, beyond the change.
    // Beyond x = 300 (any y) and beyond y = 300 (any x) the set follows the
    // second pattern: the preperiod region is the square [0, 300)² (less
    // the points near its edge where the two patterns happen to agree).
    let grid = Grid::from_fn(1000, 1000, set);
    let big = detect(&grid).unwrap();
    assert_eq!(big.lattice, Lattice::new(5, 2, 1));
    let (x0, y0) = big.corner;
    assert!((290..=300).contains(&x0.max(y0)), "{:?}", big.corner);
    assert!(big.staircase.contains(&big.corner));
    assert!(
        big.staircase.iter().all(|&(x, y)| x.min(y) <= 300),
        "{:?}",
        big.staircase
    );
    for y in y0..1000 {
        for x in x0..1000 {
            assert_eq!(big.predicts(x, y), Some(grid.get(x, y)));
        }
    }
}

/// A repeat seen only at the end of the box is not a period.
#[test]
fn repeat_only_at_the_end() {
    let mut rng = Rng(5);
    let mut g = Grid::from_fn(400, 400, |_, _| rng.bit());
    for y in 0..400 {
        for x in 0..400 {
            if x >= 330 || y >= 330 {
                g.set(x, y, (x + y) % 2 == 0);
            }
        }
    }
    assert_eq!(detect(&g), None);
    // Random everywhere: none either.
    assert_eq!(detect(&Grid::from_fn(300, 300, |_, _| rng.bit())), None);
}

/// An eventually empty set has the whole ℤ² as lattice.
#[test]
fn eventually_empty() {
    let g = Grid::from_fn(100, 80, |x, y| x < 3 && y % 4 == 1 || y == 0 && x % 3 == 0);
    let s = detect(&g).unwrap();
    assert_eq!(s.lattice, Lattice::new(1, 0, 1));
    assert_eq!(s.corner, (3, 1));
    assert_eq!(s.density, 0.0);
    // The row y = 0 keeps every third point to the end: not periodic with
    // period 1 along its length, so the strips are not reported.
    assert_eq!(s.strips, None);
}

/// The finest lattice of `L = {(x, y) : G(x) = G(y)}` for `G` periodic from
/// `t` with period `p`, from the values of one period: the vectors `(i, j)`
/// with `G(x + i) = G(y + j) ⇔ G(x) = G(y)` for all `x, y ≥ t`.
fn sum_lattice(g: &[u32], t: usize, p: usize) -> Lattice {
    let val = |x: usize| g[t + (x - t) % p];
    let inv = |i: usize, j: usize| {
        (t..t + p).all(|x| (t..t + p).all(|y| (val(x + i) == val(y + j)) == (val(x) == val(y))))
    };
    let pp = (1..=p).find(|&i| inv(i, 0)).unwrap();
    for q in 1..=p {
        if let Some(a) = (0..pp).find(|&a| inv(a, q)) {
            return Lattice::new(pp, a, q);
        }
    }
    unreachable!()
}

/// Sums of two copies of an eventually periodic sequence: the proof gives
/// `⟨(p,0),(0,p)⟩` beyond `(t, t)`, and `prove` refines it to the finest
/// lattice, proven.
#[test]
fn sums_are_proven() {
    // (values, preperiod, period)
    let seqs: Vec<(Vec<u32>, usize, usize)> = vec![
        ((0..400).map(|n| n % 4).collect(), 0, 4),
        (
            (0..400).map(|n| [0, 1, 0, 1, 2, 3, 2][n % 7]).collect(),
            0,
            7,
        ),
        (
            (0..400)
                .map(|n| {
                    if n < 5 {
                        [3, 3, 1, 0, 2][n]
                    } else {
                        [0, 0, 1, 1, 2][n % 5]
                    }
                })
                .collect(),
            5,
            5,
        ),
    ];
    for (g, t, p) in seqs {
        let grid = Grid::from_fn(300, 300, |x, y| g[x] == g[y]);
        let proof = proven_for_sum((t, p), (t, p));
        assert_eq!(proof.lattice, Lattice::new(p, 0, p));
        let s = prove(&grid, &proof).unwrap();
        assert_eq!(s.status, Status::Proven);
        assert_eq!(s.lattice, sum_lattice(&g, t, p), "{:?}", &g[..20]);
        assert!(s.corner.0 >= t && s.corner.1 >= t);
        assert!(!s.argument.is_empty());
        // The observed detection agrees on the lattice.
        assert_eq!(detect(&grid).unwrap().lattice, s.lattice);
    }
    // G(n) = n mod 4: L = {x ≡ y mod 4}, the finest lattice ⟨(4,0),(1,1)⟩.
    let grid = Grid::from_fn(100, 100, |x, y| x % 4 == y % 4);
    let s = prove(&grid, &proven_for_sum((0, 4), (0, 4))).unwrap();
    assert_eq!(s.lattice, Lattice::new(4, 1, 1));
    assert_eq!(s.corner, (0, 0));
    // Too small a box for the proof's tile: nothing proven.
    let tiny = Grid::from_fn(6, 6, |x, y| x % 4 == y % 4);
    assert_eq!(prove(&tiny, &proven_for_sum((3, 4), (3, 4))), None);
}

/// Heaps to 1,000 (10^6 points): well under a second.
#[test]
fn a_million_points_quickly() {
    let f = |n: usize| [0, 1, 0, 1, 2, 3, 2][n % 7] + (n < 40) as u32 * 7;
    let g = Grid::from_fn(1001, 1001, |x, y| f(x) == f(y));
    let t = std::time::Instant::now();
    let s = detect(&g).unwrap();
    let secs = t.elapsed().as_secs_f64();
    let g7: Vec<u32> = (0..60).map(|n| [0, 1, 0, 1, 2, 3, 2][n % 7]).collect();
    assert_eq!(s.lattice, sum_lattice(&g7, 0, 7));
    assert_eq!(s.corner, (40, 40));
    assert!(secs < 1.0, "{secs} s");
}

/// Two different patterns on the two sides of the diagonal, random in a band
/// between them: no quadrant lattice, but each sector is periodic.
#[test]
fn sectors_either_side_of_the_diagonal() {
    let mut rng = Rng(17);
    let g = Grid::from_fn(400, 400, |x, y| {
        if x >= y + 4 {
            (x + 2 * y) % 5 == 0
        } else if y >= x + 4 {
            (y + 2 * x) % 5 == 0
        } else {
            rng.bit()
        }
    });
    assert_eq!(detect(&g), None);
    let Some(Model::Sectors { below, above }) = analyse(&g) else {
        panic!("no sectors")
    };
    // x + 2y ≡ 0 (mod 5): (5, 0) and (3, 1); y + 2x ≡ 0: (5, 0) and (2, 1).
    assert_eq!(below.lattice_xy(), Lattice::new(5, 3, 1));
    assert_eq!(above.lattice_xy(), Lattice::new(5, 2, 1));
    assert_eq!((below.frame, above.frame), (Frame::Below, Frame::Above));
    assert_eq!(below.corner.0, 4);
    assert_eq!(above.corner.0, 4);
    assert_eq!(
        Frame::Below.region(below.corner),
        format!("x − y ≥ 4 and y ≥ {}", below.corner.1)
    );
}

#[test]
fn lattices_from_any_basis() {
    assert_eq!(Lattice::from_basis((5, 0), (3, 1)), Lattice::new(5, 3, 1));
    assert_eq!(Lattice::from_basis((0, 5), (1, 3)), Lattice::new(5, 2, 1));
    assert_eq!(Lattice::from_basis((4, 2), (2, 4)), Lattice::new(6, 4, 2));
    assert_eq!(Lattice::from_basis((-3, 0), (0, -7)), Lattice::new(3, 0, 7));
    let l = Lattice::from_basis((4, 2), (2, 4));
    assert!(l.contains(4, 2) && l.contains(2, 4) && l.det() == 12);
}
