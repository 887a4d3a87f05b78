//! Tests: board construction against the piece-count formulas, every fast path
//! against the plain references of [`super::brute`] on all positions of small
//! boards (every rule, both plays), known values worked out by hand, and spec
//! errors.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::board::{Board, Hex, Shape, canonical_sides, closes, hexagons, side_images, transform};
use super::board::{Pt, parse_mask};
use super::brute::{Geo, Pos, exhaustive_bytes};
use super::chords::hexsum::HexSolver;
use super::components::Components;
use super::datasets::class_of;
use super::rules::run_text;
use super::rules::{Take, moves};
use super::*;
use crate::data::Table;
use crate::family::watch::UNWATCHED;
use crate::family::{CaseCtx, Family, Output};
use crate::game::{BruteGrundy, BruteOutcome, Game, Play};
use crate::params::Node;

use super::rules::SAMPLE_RULES as RULES;

fn no_progress(_: u64) {}

/// Small boards of every kind, including masks with holes and several components.
fn small_boards() -> Vec<Shape> {
    let mask = |rows: &[&str]| Shape::Mask(parse_mask(rows).unwrap());
    vec![
        Shape::Triangle(4),
        Shape::Hexagon([2, 2, 2, 2, 2, 2]),
        Shape::Trapezoid(2, 3),
        Shape::Parallelogram(2, 3),
        Shape::Parallelogram(3, 3),
        Shape::Pentagon(2, 2, 2),
        Shape::Hexagon([3, 2, 2, 2, 3, 1]),
        Shape::Trapezoid(1, 6),
        mask(&["O O . O", "O . O O", "O O O ."]),
        mask(&["O . O", ". . .", "O O O"]),
        mask(&["O O O O", "O . . O", "O O O O"]),
    ]
}

#[test]
fn piece_counts_match_the_formulas() {
    for s in 1..=12u32 {
        let b = Shape::Hexagon([s; 6]);
        assert_eq!(
            b.board().len() as u32,
            3 * s * (s - 1) + 1,
            "regular hexagon {s}"
        );
        assert_eq!(b.pieces() as u32, 3 * s * (s - 1) + 1);
    }
    for n in 1..=12u32 {
        assert_eq!(
            Shape::Triangle(n).board().len() as u32,
            n * (n + 1) / 2,
            "triangle {n}"
        );
    }
    assert_eq!(Shape::Hexagon([3; 6]).pieces(), 19);
    assert_eq!(Shape::Trapezoid(2, 3).board().len(), 7);
    assert_eq!(Shape::Parallelogram(2, 3).board().len(), 6);
    assert_eq!(Shape::Pentagon(2, 2, 2).board().len(), 8);
    // A(x,y): x rows from y up to x+y-1; B(x,y): x rows of y; C = A(x,y) on B(z,x+y-1) sharing a row.
    for x in 1..6u32 {
        for y in 1..6u32 {
            assert_eq!(
                Shape::Trapezoid(x, y).pieces() as u32,
                x * y + x * (x - 1) / 2
            );
            assert_eq!(Shape::Parallelogram(x, y).pieces() as u32, x * y);
            for z in 1..5u32 {
                let c = Shape::Pentagon(x, y, z).pieces() as u32;
                assert_eq!(
                    c,
                    x * y + x * (x - 1) / 2 + z * (x + y - 1) - (x + y - 1),
                    "C({x},{y},{z})"
                );
            }
        }
    }
    // The rows of a trapezoid, bottom first: x+y-1, ..., y.
    let b = Shape::Trapezoid(3, 2).board();
    let rows: Vec<usize> = (0..3)
        .map(|r| b.points.iter().filter(|p| p.1 == r).count())
        .collect();
    assert_eq!(rows, vec![4, 3, 2]);
}

/// Every named shape is a closing hexagon whose computed sides are the given ones.
#[test]
fn sides_roundtrip_and_closure() {
    for p in hexagons(1, 6, u64::MAX) {
        assert!(closes(p));
        let h = Hex::from_sides(p);
        assert_eq!(h.tighten(), Some(h), "{p:?} is tight");
        assert_eq!(h.sides(), p);
        // Walking the sides visits only board points, and the point count matches.
        assert_eq!(h.points().len() as u64, h.count());
        assert_eq!(canonical_sides(p), p);
        for img in side_images(p) {
            assert!(closes(img));
            // The image is the same shape up to a lattice symmetry: equal point counts.
            assert_eq!(Hex::from_sides(img).count(), h.count());
        }
    }
    assert!(!closes([3, 3, 3, 3, 3, 2]));
    assert!(!closes([1, 1, 1, 1, 0, 2]));
}

/// Tightening and side counting against brute-force point sets: every region
/// cut from a hexagon by the three strips is (a translate of) the hexagon of its sides.
#[test]
fn tightened_regions_are_hexagons_of_their_sides() {
    let big = Hex::from_sides([4, 3, 5, 2, 5, 2]);
    let pts: Vec<(i32, i32)> = big.points();
    let mut checked = 0;
    for r0 in -1..4 {
        for dr in [0, 2, 5] {
            for q0 in -3..2 {
                for dq in [1, 3, 6] {
                    for s0 in 0..3 {
                        for ds in [0, 4, 8] {
                            let cut = Hex {
                                r0,
                                r1: r0 + dr,
                                q0,
                                q1: q0 + dq,
                                s0,
                                s1: s0 + ds,
                            };
                            let inside: Vec<(i32, i32)> = pts
                                .iter()
                                .copied()
                                .filter(|&(q, r)| {
                                    r >= cut.r0
                                        && r <= cut.r1
                                        && q >= cut.q0
                                        && q <= cut.q1
                                        && q + r >= cut.s0
                                        && q + r <= cut.s1
                                })
                                .collect();
                            let region = Hex {
                                r0: cut.r0.max(big.r0),
                                r1: cut.r1.min(big.r1),
                                q0: cut.q0.max(big.q0),
                                q1: cut.q1.min(big.q1),
                                s0: cut.s0.max(big.s0),
                                s1: cut.s1.min(big.s1),
                            };
                            match region.tighten() {
                                None => assert!(inside.is_empty(), "{cut:?}"),
                                Some(t) => {
                                    let mut got = t.points();
                                    got.sort();
                                    let mut want = inside.clone();
                                    want.sort();
                                    assert_eq!(got, want, "{cut:?}");
                                    let sides = t.sides();
                                    assert!(closes(sides), "{sides:?}");
                                    // Translate the hexagon of these sides onto the region.
                                    let mut h: Vec<(i32, i32)> = Hex::from_sides(sides).points();
                                    let (dq, dr) = (t.row(t.r0).0, t.r0);
                                    for p in &mut h {
                                        *p = (p.0 + dq, p.1 + dr);
                                    }
                                    h.sort();
                                    assert_eq!(h, want, "{cut:?} {sides:?}");
                                    checked += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 100);
}

#[test]
fn symmetries_permute_the_line_directions() {
    let mut images = HashSet::new();
    for t in 0..12 {
        let d: Vec<(i32, i32)> = board::DIRS.iter().map(|&p| transform(t, p)).collect();
        for v in &d {
            assert!(
                board::DIRS
                    .iter()
                    .any(|&u| u == *v || (u.0 == -v.0 && u.1 == -v.1)),
                "{t}: {v:?}"
            );
        }
        images.insert(d);
    }
    assert_eq!(images.len(), 12, "twelve distinct symmetries");
}

/// The precomputed (mask, blockers) moves give exactly the geometric moves, on every position.
#[test]
fn move_lists_match_the_lattice_walk() {
    for shape in small_boards() {
        let board = shape.board();
        for take in RULES {
            let all = moves(&board, take);
            let geo = Arc::new(Geo {
                board: board.clone(),
                take,
            });
            for x in 0..=board.full() {
                let mut fast: Vec<u64> =
                    all.iter().filter(|m| m.legal(x)).map(|m| m.mask).collect();
                fast.sort_unstable();
                fast.dedup();
                let slow: Vec<u64> = Pos {
                    x,
                    geo: geo.clone(),
                }
                .moves()
                .into_iter()
                .map(|(m, _)| m)
                .collect();
                assert_eq!(fast, slow, "{} {} x={x:b}", shape.name(), take.text());
            }
        }
    }
}

/// The component memo stops at its budget, measured as the hash tables' real
/// size, and goes on when the budget is large enough (the values themselves
/// are checked against the brute force below).
#[test]
fn components_stop_at_the_memo_budget() {
    use std::sync::atomic::Ordering::Relaxed;
    let board = Shape::Triangle(6).board();
    let take = Take::Max(3);
    let tight = Components::new(&board, take, 64 << 10);
    tight.grundy(board.full(), &no_progress);
    assert!(tight.stopped.load(Relaxed) && tight.over_budget.load(Relaxed));
    // It stopped within a few shards' growth of 64 KiB.
    assert!(tight.memo_bytes() < 1 << 20, "{} bytes", tight.memo_bytes());
    let roomy = Components::new(&board, take, 1 << 30);
    roomy.grundy(board.full(), &no_progress);
    assert!(!roomy.stopped.load(Relaxed));
    assert!(roomy.memo_len() > 4096, "enough entries to be measured");
    assert!(roomy.memo_bytes() > 1 << 20);
}

/// What a solve reports as it goes (`nimlab solve` shows it): the exhaustive
/// table counts its 2^n positions against that total; components count
/// without a total and report the memo against the budget given.
#[test]
fn solves_report_progress_to_their_watch() {
    use crate::family::watch::Watch;
    use std::sync::Mutex;
    #[derive(Default)]
    struct Log {
        begun: Mutex<Vec<(&'static str, Option<u64>)>>,
        steps: std::sync::atomic::AtomicU64,
        memo: Mutex<Vec<(u64, u64)>>,
    }
    impl Watch for Log {
        fn begin(&self, unit: &'static str, total: Option<u64>) {
            self.begun.lock().unwrap().push((unit, total));
        }
        fn step(&self, n: u64) {
            self.steps
                .fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        }
        fn memo(&self, bytes: u64, budget: u64) {
            self.memo.lock().unwrap().push((bytes, budget));
        }
    }
    let solve =
        |shape: &Shape, take, play, log: &Log| solve_watched(shape, take, play, false, true, log);
    // Misère: the exhaustive table of a 15-piece triangle, 2^15 positions.
    let log = Log::default();
    solve(&Shape::Triangle(5), Take::Max(2), Play::Misere, &log);
    assert_eq!(*log.begun.lock().unwrap(), [("positions", Some(1 << 15))]);
    assert_eq!(
        log.steps.load(std::sync::atomic::Ordering::Relaxed),
        1 << 15
    );
    // Normal play on a 21-piece triangle: components, with the memo measured
    // every 4096 entries against the 1 GiB budget.
    let log = Log::default();
    solve(&Shape::Triangle(6), Take::Max(3), Play::Normal, &log);
    assert_eq!(*log.begun.lock().unwrap(), [("components", None)]);
    let memo = log.memo.lock().unwrap();
    assert!(!memo.is_empty(), "the memo was reported");
    assert!(memo.iter().all(|&(_, budget)| budget == 1 << 30));
    // Measured every 4096 entries: never zero, and the memo only grows.
    let bytes: Vec<u64> = memo.iter().map(|&(b, _)| b).collect();
    assert!(
        bytes[0] > 0 && bytes.windows(2).all(|w| w[0] <= w[1]),
        "{bytes:?}"
    );
    // Hexagons under `maximal`: the chord tables.
    let log = Log::default();
    solve(
        &Shape::Hexagon([3, 3, 3, 3, 3, 3]),
        Take::Maximal,
        Play::Normal,
        &log,
    );
    assert_eq!(*log.begun.lock().unwrap(), [("chord tables", None)]);
}

/// Components + canonical forms against the plain Grundy recursion, on all positions.
#[test]
fn components_match_brute_grundy_on_all_positions() {
    for shape in small_boards() {
        let board = shape.board();
        for take in RULES {
            let geo = Arc::new(Geo {
                board: board.clone(),
                take,
            });
            let mut bg = BruteGrundy::default();
            let c = Components::new(&board, take, 1 << 30);
            for x in 0..=board.full() {
                let want = bg.grundy(&Pos {
                    x,
                    geo: geo.clone(),
                });
                assert_eq!(
                    c.grundy(x, &no_progress),
                    want,
                    "{} {} x={x:b}",
                    shape.name(),
                    take.text()
                );
            }
        }
    }
}

/// The chord recursion against the plain Grundy recursion, on every hexagon with at most 16 pieces.
#[test]
fn chords_match_brute_grundy() {
    let solver = HexSolver::new(16);
    let hashed = HexSolver::new(super::chords::hexsum::MAX_SIDE);
    let mut n = 0;
    for p in hexagons(1, 16, 16) {
        let shape = Shape::Hexagon(p);
        let board = shape.board();
        let geo = Arc::new(Geo {
            board: board.clone(),
            take: Take::Maximal,
        });
        let mut bg = BruteGrundy::default();
        let want = bg.grundy(&Pos {
            x: board.full(),
            geo: geo.clone(),
        });
        let h = Hex::from_sides(p);
        assert_eq!(solver.grundy(h, &no_progress), want, "{p:?}");
        assert_eq!(hashed.grundy(h, &no_progress), want, "{p:?} (hashed memo)");
        // Every image of the shape has the same value.
        for img in side_images(p) {
            assert_eq!(solver.grundy(Hex::from_sides(img), &no_progress), want);
        }
        // Winning chords are exactly the brute force's winning moves.
        let (g, opts) = solver.options(h, &no_progress);
        assert_eq!(g, want);
        let mut fast: Vec<u64> = opts
            .iter()
            .filter(|o| o.1 == 0)
            .map(|&(c, _)| {
                HexSolver::chord_cells(&h, c)
                    .iter()
                    .fold(0u64, |a, &pt| a | 1 << board.index(pt).unwrap())
            })
            .collect();
        fast.sort_unstable();
        fast.dedup();
        let mut bo = BruteOutcome::new(Play::Normal);
        let slow = bo.winning_moves(&Pos {
            x: board.full(),
            geo,
        });
        assert_eq!(fast, slow, "{p:?}");
        n += 1;
    }
    assert!(n > 20, "{n} hexagons");
}

/// Chords against components on larger hexagon-family boards (up to 40 pieces).
#[test]
fn chords_match_components_on_larger_boards() {
    let solver = HexSolver::new(40);
    for shape in [
        Shape::Triangle(6),
        Shape::Triangle(8),
        Shape::Hexagon([3; 6]),
        Shape::Hexagon([4, 3, 3, 4, 3, 3]),
        Shape::Trapezoid(3, 8),
        Shape::Parallelogram(4, 7),
        Shape::Pentagon(3, 3, 3),
        Shape::Trapezoid(1, 30),
    ] {
        let board = shape.board();
        let c = Components::new(&board, Take::Maximal, 1 << 30);
        let want = c.grundy(board.full(), &no_progress);
        assert_eq!(
            solver.grundy(Hex::from_sides(shape.sides().unwrap()), &no_progress),
            want,
            "{}",
            shape.name()
        );
    }
}

/// The exhaustive analysis (retro) against the plain game tree, on all
/// positions, every rule, both plays; and its counts against counting.
#[test]
fn exhaustive_matches_brute_outcome_on_all_positions() {
    let cancel = AtomicBool::new(false);
    for shape in small_boards() {
        let board = shape.board();
        for take in RULES {
            let all = moves(&board, take);
            let rm: Vec<exhaustive::Move> = all.iter().map(exhaustive::Move::from).collect();
            let pairs: Vec<(u64, u64)> = all.iter().map(|m| (m.mask, m.blockers)).collect();
            let geo = Arc::new(Geo {
                board: board.clone(),
                take,
            });
            for play in [Play::Normal, Play::Misere] {
                let ex = exhaustive::solve(board.len(), &rm, play, &no_progress, &cancel).unwrap();
                let plain = exhaustive_bytes(board.len(), &pairs, play);
                let mut bo = BruteOutcome::new(play);
                let mut counts = vec![(0u64, 0u64); board.len() + 1];
                for x in 0..=board.full() {
                    let want = bo.is_p(&Pos {
                        x,
                        geo: geo.clone(),
                    });
                    assert_eq!(
                        ex.is_p(x),
                        want,
                        "{} {} {} x={x:b}",
                        shape.name(),
                        take.text(),
                        play.as_str()
                    );
                    assert_eq!(plain[x as usize] == 1, want);
                    let k = x.count_ones() as usize;
                    counts[k].0 += 1;
                    counts[k].1 += u64::from(want);
                }
                assert_eq!(
                    ex.counts,
                    counts,
                    "{} {} {}",
                    shape.name(),
                    take.text(),
                    play.as_str()
                );
            }
        }
    }
}

/// [`solve_board`] on a shape with a 1 GiB memo, no shared chord solver, no
/// progress and no cancel.
fn solve_shape(shape: &Shape, take: Take, play: Play, counts: bool, grundy: bool) -> Solved {
    solve_watched(shape, take, play, counts, grundy, &no_progress)
}

/// [`solve_shape`] reporting to `watch`.
fn solve_watched(
    shape: &Shape,
    take: Take,
    play: Play,
    counts: bool,
    grundy: bool,
    watch: &dyn crate::family::watch::Watch,
) -> Solved {
    let cancel = AtomicBool::new(false);
    solve_board(
        Some(shape),
        None,
        take,
        play,
        counts,
        grundy,
        None,
        1 << 30,
        watch,
        &cancel,
    )
    .unwrap()
}

/// The board-level entry point: winning moves and cross-checks on every path.
#[test]
fn solve_board_matches_brute_winning_moves() {
    for shape in small_boards() {
        let board = shape.board();
        for take in RULES {
            for play in [Play::Normal, Play::Misere] {
                let r = solve_shape(&shape, take, play, true, true);
                let geo = Arc::new(Geo {
                    board: board.clone(),
                    take,
                });
                let mut bo = BruteOutcome::new(play);
                let pos = Pos {
                    x: board.full(),
                    geo,
                };
                assert_eq!(
                    r.is_p,
                    bo.is_p(&pos),
                    "{} {} {}",
                    shape.name(),
                    take.text(),
                    play.as_str()
                );
                let mut fast: Vec<u64> = r
                    .wins
                    .iter()
                    .map(|(_, cells)| {
                        cells
                            .iter()
                            .fold(0u64, |a, &p| a | 1 << board.index(p).unwrap())
                    })
                    .collect();
                fast.sort_unstable();
                let slow = bo.winning_moves(&pos);
                assert_eq!(
                    fast,
                    slow,
                    "{} {} {}",
                    shape.name(),
                    take.text(),
                    play.as_str()
                );
                if play == Play::Normal {
                    let mut bg = BruteGrundy::default();
                    assert_eq!(r.grundy, Some(bg.grundy(&pos)));
                }
            }
        }
    }
}

/// Values worked out by hand.
#[test]
fn known_values_by_hand() {
    let g = |s: Shape| HexSolver::new(64).grundy(Hex::from_sides(s.sides().unwrap()), &no_progress);
    // A(1,y), one row: take all (→ 0) or one piece (→ two rows). G = 1 for odd y, 2 for even y:
    // odd y splits into two rows of equal parity (XOR 0) or leaves y-1 (G 2); even y leaves
    // one odd and one even row (1 xor 2 = 3) or y-1 (G 1).
    let a1: Vec<u32> = (1..=12).map(|y| g(Shape::Trapezoid(1, y))).collect();
    assert_eq!(a1, vec![1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2]);
    // T(2) = A(2,1): every move leaves a lone piece (1) or an adjacent pair (2): G = 0 (report 000: N2).
    assert_eq!(g(Shape::Triangle(2)), 0);
    assert_eq!(g(Shape::Trapezoid(2, 1)), 0);
    // B(2,1) is a pair: 2 (N3). B(2,2): rows and columns leave a pair (2), the long diagonal two
    // lone pieces (0), a corner piece a T(2) (0): mex {0, 2} = 1 (report 000: N1).
    assert_eq!(g(Shape::Parallelogram(2, 1)), 2);
    assert_eq!(g(Shape::Parallelogram(2, 2)), 1);
    // A single piece: 1; regular hexagons are first-player wins (the central chord leaves two
    // congruent halves).
    assert_eq!(g(Shape::Hexagon([1; 6])), 1);
    for s in 2..8 {
        assert_ne!(g(Shape::Hexagon([s; 6])), 0);
    }
    // Misère: a lone piece is P (its mover must take the last piece); a pair under max:1 is N.
    let one = Shape::Mask(vec!["O".into()]);
    let r = solve_shape(&one, Take::Max(1), Play::Misere, true, true);
    assert!(r.is_p);
    assert_eq!(r.counts, Some(vec![(1, 0), (1, 1)]));
    let pair = Shape::Mask(vec!["OO".into()]);
    let r = solve_shape(&pair, Take::Max(1), Play::Misere, false, true);
    assert!(!r.is_p);
    assert_eq!(r.wins.len(), 2);
    // Misère, take max:2, a row of three: taking two leaves one piece (P for the opponent).
    let three = Shape::Mask(vec!["OOO".into()]);
    let r = solve_shape(&three, Take::Max(2), Play::Misere, false, true);
    assert!(!r.is_p);
    let wins: Vec<String> = r.wins.iter().map(|(d, c)| run_text(c, *d)).collect();
    assert_eq!(wins, vec!["(1,0):(0,0)..(1,0)", "(1,0):(1,0)..(2,0)"]);
    assert_eq!(class_of(0), "N2");
    assert_eq!(class_of(1), "N1");
    assert_eq!(class_of(4), "N5");
    assert_eq!(class_of(7), "beyond N5");
}

/// Mask coordinates: the k-th symbol of the line of row r is (k, r), the last line is r = 0.
#[test]
fn mask_frame() {
    let s = Shape::Mask(parse_mask(&["O . O", "O O ."]).unwrap());
    let b = s.board();
    assert_eq!(b.points, vec![(0, 0), (1, 0), (0, 1), (2, 1)]);
    // (0,0)-(0,1) is a (0,1) line; (1,0)-(0,1) a (1,-1) line (one right, one down).
    let m = moves(&b, Take::Max(2));
    assert!(m.iter().any(|m| m.mask == 0b101 && m.dir == 1));
    assert!(m.iter().any(|m| m.mask == 0b110 && m.dir == 2));
    assert!(
        !m.iter().any(|m| m.mask == 0b1100),
        "(0,1) and (2,1) are not adjacent"
    );
    let _ = Board::from_points(vec![], None);
}

fn plan_err(yaml: &str) -> SpecError {
    let v = crate::params::parse_yaml(yaml, "t.yaml").unwrap();
    let n = Node::root(&v, "t.yaml");
    match Lines.plan(&n, crate::family::Planning::SOLVE) {
        Ok(_) => panic!("expected an error for {yaml}"),
        Err(e) => e,
    }
}

/// The census's datasets asked of boards without a census (or a dataset
/// its switch is off for) would store nothing: the dataset is named
/// instead.
#[test]
fn census_datasets_are_asked_of_a_census_only() {
    let e = plan_err("board: {triangle: 4}\ndatasets: [positions, hexagon_values]");
    assert_eq!(e.field, "datasets[1]");
    assert!(e.message.contains("`hexagon_values`"), "{e}");
    // A dataset written only when switched on, or along a coordinate.
    let e = plan_err("board: {triangle: 4}\ndatasets: [regions]");
    assert!(e.message.contains("`regions: true`"), "{e}");
    let e = plan_err("board: {triangle: 4}\ndatasets: [positions, periods]");
    assert!(
        e.field == "datasets[1]" && e.message.contains("`along:`"),
        "{e}"
    );
    let v = crate::params::parse_yaml(
        "board: {hexagons: {max_side: 4}}\ntake: maximal\ndatasets: [hexagon_values]",
        "t.yaml",
    )
    .unwrap();
    let plan = Lines.plan(&Node::root(&v, "t.yaml"), crate::family::Planning::SOLVE);
    assert!(plan.is_ok(), "{:?}", plan.err());
}

#[test]
fn bad_boards_get_clear_errors() {
    let e = plan_err("board: {hexagon: [3, 3, 3, 3, 3, 2]}");
    assert_eq!(e.field, "board.hexagon");
    assert!(
        e.message.contains("do not close") && e.message.contains("p0 + p1 = p3 + p4"),
        "{e}"
    );
    let e = plan_err("board: {mask: \"...\\n. .\"}");
    assert_eq!(e.field, "board.mask");
    assert!(e.message.contains("no piece"), "{e}");
    let e = plan_err("board: {mask: [\"O O\", \"O X\"]}");
    assert_eq!(e.field, "board.mask");
    assert!(
        e.message.contains("'X'") && e.message.contains("row 2"),
        "{e}"
    );
    let e = plan_err("board: {triangle: 4}\ntake: {max: 0}");
    assert_eq!(e.field, "take.max");
    assert!(e.message.contains("P = 0"), "{e}");
    let e = plan_err("board: {triangle: 4}\ntake: biggest");
    assert_eq!(e.field, "take");
    let e = plan_err("board: {triangle: 9}\nplay: misere");
    assert!(e.message.contains("GiB"), "{e}");
    let e = plan_err("board: {trapezoid: [2]}");
    assert_eq!(e.field, "board.trapezoid");
    let e = plan_err("board: {triangle: 4, trapezoid: [1, 2]}");
    assert!(e.message.contains("exactly one shape"), "{e}");
    let e = plan_err("board: {trapezoid: [1..3, 2]}\nalong: z");
    assert!(e.message.contains("along"), "{e}");
    let e = plan_err("board: {regular: 6}\nregions: true");
    assert_eq!(e.field, "regions");
    assert!(
        e.message.contains("at most 64 pieces") && e.message.contains("91"),
        "{e}"
    );
    let e = plan_err("board: {triangle: 3}\nplay: misere\nregions: true");
    assert!(e.message.contains("normal play"), "{e}");
    let e = plan_err("board: {sum: [{triangle: 3}]}");
    assert_eq!(e.field, "board.sum");
    assert!(e.message.contains("at least two parts"), "{e}");
}

fn run_plan(yaml: &str) -> Vec<Output> {
    let v = crate::params::parse_yaml(yaml, "t.yaml").unwrap();
    let plan = Lines
        .plan(&Node::root(&v, "t.yaml"), crate::family::Planning::SOLVE)
        .unwrap();
    let cancel = AtomicBool::new(false);
    plan.cases
        .iter()
        .map(|c| {
            c.solve(&CaseCtx {
                progress: &no_progress,
                cancel: &cancel,
                keep: None,
            })
            .unwrap()
        })
        .collect()
}

/// Report 000's sequences past the chord memo's sides (lines of more than
/// 1023 pieces) come from one thin chord table; keeping only `periods`, the
/// cases compute values only. A(5, y) has period 30 from y = 5 (the
/// recursion's values to y = 200, docs/families/lines.md); C(2, y, 2) has no
/// period and grows by 8 every 6 (an arithmetic period); a board whose thin
/// table would not fit is refused by name.
#[test]
fn sequences_past_the_memo_use_a_thin_table() {
    let yaml = "board: [{trapezoid: [5, 1..1100]}, {pentagon: [2, 1..1100, 2]}]\nalong: y";
    let v = crate::params::parse_yaml(yaml, "t.yaml").unwrap();
    let plan = Lines
        .plan(&Node::root(&v, "t.yaml"), crate::family::Planning::SOLVE)
        .unwrap();
    assert!(
        plan.notes.iter().any(|n| n
            .text
            .contains("at most 5 rows and lines of at most 1104 pieces")),
        "{:?}",
        plan.notes
    );
    let cancel = AtomicBool::new(false);
    let keep = vec!["periods".to_string()];
    let outs: Vec<Output> = plan
        .cases
        .iter()
        .map(|c| {
            c.solve(&CaseCtx {
                progress: &no_progress,
                cancel: &cancel,
                keep: Some(&keep),
            })
            .unwrap()
        })
        .collect();
    let a5 = table(&outs[0], "periods");
    assert_eq!(a5.cell("sequence", 0).unwrap().to_string(), "A(5,y)");
    assert_eq!(a5.cell("period", 0).unwrap().to_string(), "30");
    assert_eq!(a5.cell("periodic_from", 0).unwrap().to_string(), "5");
    assert_eq!(a5.cell("periods_seen", 0).unwrap().to_string(), "36");
    let c22 = table(&outs[1], "periods");
    assert_eq!(c22.cell("sequence", 0).unwrap().to_string(), "C(2,y,2)");
    assert_eq!(c22.cell("status", 0).unwrap().to_string(), "none");
    assert_eq!(
        c22.cell("closed_form", 0).unwrap().to_string(),
        "G(y + 6) = G(y) + 8 for y ≥ 1 (observed on y = 1..1100)"
    );
    let e = plan_err("board: {parallelogram: [3000, 3000]}");
    assert!(
        e.message.contains("GiB") && e.message.contains("3000 rows"),
        "{e}"
    );
}

fn table<'a>(out: &'a Output, name: &str) -> &'a Table {
    let (ds, t) = out.iter().find(|(d, _)| d.name == name).unwrap();
    ds.validate(t).unwrap();
    t
}

#[test]
fn sweeps_produce_sequences_and_periods() {
    let outs = run_plan("board: {trapezoid: [1, 1..40]}\ntake: maximal");
    assert_eq!(outs.len(), 1);
    let pos = table(&outs[0], "positions");
    assert_eq!(pos.rows(), 40);
    assert_eq!(pos.cell("sequence", 0).unwrap().to_string(), "A(1,y)");
    assert_eq!(
        pos.cell("hexagon_sides", 2).unwrap().to_string(),
        "3, 1, 1, 3, 1, 1"
    );
    assert_eq!(pos.cell("class", 1).unwrap().to_string(), "N3");
    let per = table(&outs[0], "periods");
    assert_eq!(per.cell("values", 0).unwrap().to_string(), "grundy");
    assert_eq!(per.cell("period", 0).unwrap().to_string(), "2");
    assert_eq!(per.cell("periodic_from", 0).unwrap().to_string(), "1");
    // Groups: one sequence per x.
    let outs = run_plan("board: {parallelogram: [1..3, 1..12]}\nalong: y");
    assert_eq!(outs.len(), 3);
    // Hexagon ranges keep only closing side tuples.
    let outs = run_plan("board: {hexagon: [2, 2, 1..3, 2, 2, 1..3]}");
    let n: usize = outs.iter().map(|o| table(o, "positions").rows()).sum();
    assert_eq!(n, 3);
}

#[test]
fn count_tables_and_pictures() {
    let outs =
        run_plan("board: {triangle: 4}\ntake: {max: 3}\nplay: [normal, misere]\ncounts: true");
    assert_eq!(outs.len(), 2);
    for o in &outs {
        let c = table(o, "counts");
        assert_eq!(c.rows(), 11);
        let total: i64 = (0..11)
            .map(|i| {
                c.cell("positions", i)
                    .unwrap()
                    .to_string()
                    .parse::<i64>()
                    .unwrap()
            })
            .sum();
        assert_eq!(total, 1 << 10);
        let cells = table(o, "cells");
        assert_eq!(cells.rows(), 10);
    }
    // Misère, one piece left: always P.
    let c = table(&outs[1], "counts");
    assert_eq!(c.cell("p_positions", 1).unwrap().to_string(), "10");
}

#[test]
fn every_hexagon_once_per_symmetry_class() {
    // Brute force: all closing tuples with sides ≤ 5, grouped by their 12 images.
    let mut classes = HashSet::new();
    for p0 in 1..=5u32 {
        for p1 in 1..=5 {
            for p2 in 1..=5 {
                for p3 in 1..=5 {
                    for p4 in 1..=5 {
                        for p5 in 1..=5 {
                            let p = [p0, p1, p2, p3, p4, p5];
                            if closes(p) {
                                classes.insert(side_images(p).into_iter().min().unwrap());
                            }
                        }
                    }
                }
            }
        }
    }
    let listed = hexagons(1, 5, u64::MAX);
    assert_eq!(listed.len(), classes.len());
    assert!(listed.iter().all(|p| classes.contains(p)));
    // With a piece limit.
    assert!(
        hexagons(1, 5, 19)
            .iter()
            .all(|&p| Hex::from_sides(p).count() <= 19)
    );
    assert!(hexagons(1, 5, 19).contains(&[3; 6]));
}

/// With a bound on the pieces the listing skips the side tuples that cannot
/// hold (`hexagons_from`): it lists exactly the classes with sides in the
/// range and at most that many pieces, counted here cell by cell from every
/// class with sides in the range, for small and large bounds and a smallest
/// side above 1.
#[test]
fn a_piece_bound_lists_exactly_the_classes_within_it() {
    for (lo, hi) in [(1, 9), (2, 11)] {
        let all = hexagons(lo, hi, u64::MAX);
        for k in [1, 7, 19, 40, 75, 150, 400] {
            let want: Vec<[u32; 6]> = all
                .iter()
                .copied()
                .filter(|&p| Hex::from_sides(p).count() <= k)
                .collect();
            assert_eq!(hexagons(lo, hi, k), want, "sides {lo}..{hi}, ≤ {k} pieces");
        }
    }
}

/// The closed form of a hexagon's pieces equals its count row by row, for
/// every closing side tuple with sides ≤ 9 (each image of each class), and
/// the list is in the order of (largest side, pieces, sides).
#[test]
fn hexagon_pieces_in_closed_form_count_row_by_row() {
    let listed = hexagons(1, 9, u64::MAX);
    for &p in &listed {
        for img in side_images(p) {
            let rows = Hex::from_sides(img).count();
            assert_eq!(super::board::hexagon_pieces(img), rows, "{img:?}");
        }
    }
    let key = |p: &[u32; 6]| (*p.iter().max().unwrap(), Hex::from_sides(*p).count(), *p);
    assert!(listed.windows(2).all(|w| key(&w[0]) < key(&w[1])));
    // Its text, written without the formatter, as `text` formats it.
    for p in [[1, 2, 3, 4, 5, 6], [10, 99, 100, 1000, 1023, 7], listed[0]] {
        let mut t = String::from("x");
        Shape::Hexagon(p).push_text(&mut t);
        assert_eq!(t, format!("x{}", Shape::Hexagon(p).text()));
    }
}

#[test]
fn solve_answers_positions() {
    let v =
        crate::params::parse_yaml("{triangle: 3, take: maximal, remove: [[0, 0]]}", "<t>").unwrap();
    let a = Lines.solve(&Node::root(&v, "<t>"), UNWATCHED).unwrap();
    assert_eq!(a.json["details"]["pieces"], 5);
    let v = crate::params::parse_yaml("{triangle: 3, remove: [[9, 9]]}", "<t>").unwrap();
    assert!(Lines.solve(&Node::root(&v, "<t>"), UNWATCHED).is_err());
    let v = crate::params::parse_yaml("{hexagon: [3,3,3,3,3,3], take: maximal}", "<t>").unwrap();
    let a = Lines.solve(&Node::root(&v, "<t>"), UNWATCHED).unwrap();
    assert_eq!(a.json["grundy"], 1);
    assert_eq!(a.json["details"]["class"], "N1");
}

/// Classes beyond N5 exist: the smallest boards found by the sweeps, confirmed
/// by the plain game tree (no chords, no components, no symmetry).
#[test]
fn grundy_values_beyond_n5_by_brute_force() {
    for (shape, want) in [
        (Shape::Pentagon(2, 2, 3), 6),
        (Shape::Parallelogram(2, 6), 5),
        (Shape::Hexagon([1, 2, 6, 1, 2, 6]), 5),
    ] {
        let board = shape.board();
        let geo = Arc::new(Geo {
            board: board.clone(),
            take: Take::Maximal,
        });
        let mut bg = BruteGrundy::default();
        assert_eq!(
            bg.grundy(&Pos {
                x: board.full(),
                geo
            }),
            want,
            "{}",
            shape.name()
        );
        assert_eq!(class_of(want), "beyond N5");
    }
}

#[test]
fn closed_forms_of_periods() {
    use crate::period::{Period, Status};
    let vals: Vec<i64> = (1..=20).collect();
    let per = |preperiod, period| Period {
        preperiod,
        period,
        status: Status::Observed,
        end: 19,
    };
    // A(2,y): Grundy 0 for even y, 3 for odd y from y = 8 (index 7).
    let g: Vec<String> = vals
        .iter()
        .map(|&y| {
            if y < 8 {
                "4:N5".to_string()
            } else if y % 2 == 0 {
                "0:N2".to_string()
            } else {
                "3:N4".to_string()
            }
        })
        .collect();
    assert_eq!(
        closed_form("grundy", "y", &vals, &g, &per(7, 2)),
        "G(y) = 0 for even y, 3 for odd y, y ≥ 8 (observed on y = 8..20)"
    );
    // Outcomes P for even y from y = 8.
    let o: Vec<String> = g
        .iter()
        .map(|l| if l.starts_with("0:") { "P" } else { "N" }.to_string())
        .collect();
    assert_eq!(
        closed_form("outcome", "y", &vals, &o, &per(7, 2)),
        "P ⇔ y even, y ≥ 8 (observed on y = 8..20)"
    );
    // Period 3 starting at y = 2: terms listed by residue 0, 1, 2.
    let t: Vec<String> = vals.iter().map(|y| format!("{}:x", y % 3 * 5)).collect();
    assert_eq!(
        closed_form("grundy", "y", &vals, &t, &per(1, 3)),
        "G(y) = (0, 5, 10)[y mod 3] for y ≥ 2 (observed on y = 2..20)"
    );
    let n: Vec<String> = vals.iter().map(|_| "N".to_string()).collect();
    assert_eq!(
        closed_form("outcome", "y", &vals, &n, &per(0, 1)),
        "never P for y ≥ 1 (observed on y = 1..20)"
    );
}

/// Report 002's claim about its program (四(三) and the BASIC listing): going
/// through the subsets in order of piece count, marking one piece as P,
/// skipping two pieces (line 3020) and marking a position P when no move
/// reaches a marked one, finds exactly the misère P-positions. The program's
/// order is replayed here and compared with the exhaustive loop, on the
/// triangles of 3..5 rows with takes of 1..2, 1..3 and any run.
#[test]
fn report_002_program_method_finds_exactly_the_p_positions() {
    for rows in 3..=5 {
        let board = Shape::Triangle(rows).board();
        let n = board.len();
        for take in [Take::Max(2), Take::Max(3), Take::Any] {
            let pairs: Vec<(u64, u64)> = moves(&board, take)
                .iter()
                .map(|m| (m.mask, m.blockers))
                .collect();
            let mut by_count: Vec<u64> = (1..1u64 << n).collect();
            by_count.sort_by_key(|x| x.count_ones());
            let mut marked = vec![false; 1 << n];
            for x in by_count {
                marked[x as usize] = match x.count_ones() {
                    1 => true,
                    2 => false,
                    _ => !pairs.iter().any(|&(mask, blockers)| {
                        x & mask == mask && x & blockers == 0 && marked[(x & !mask) as usize]
                    }),
                };
            }
            let truth = exhaustive_bytes(n, &pairs, Play::Misere);
            // The library's replay (the `program_p_positions` column) counts the same marks.
            let mut by_k = vec![0u64; n + 1];
            for x in 1..1usize << n {
                by_k[x.count_ones() as usize] += u64::from(marked[x]);
            }
            assert_eq!(super::brute::program_002_counts(n, &pairs), by_k);
            let p: usize = (1..1usize << n).filter(|&x| truth[x] == 1).count();
            for x in 1..1usize << n {
                assert_eq!(
                    marked[x],
                    truth[x] == 1,
                    "T({rows}) {} x={x:b}",
                    take.text()
                );
            }
            assert!(p > 0, "T({rows}) {}: some P-positions", take.text());
        }
    }
}

/// The reason given for a counterexample on the triangle of 2 rows (pieces
/// a on top, b c below), by hand: removing a two-piece run leaves one piece
/// (Grundy 1, three ways); removing one piece leaves a two-piece run, whose
/// options are 0 (both) and 1 (one), so Grundy 2 (three ways); the board is
/// therefore Grundy 0.
#[test]
fn explain_lists_the_values_the_first_moves_reach() {
    use crate::data::{StrVec, Values};
    let s = |v: &str| Values::Str([v].into_iter().collect::<StrVec>());
    let t = Table::new()
        .with("board", s("triangle: 2"))
        .with("take", s("maximal"))
        .with("play", s("normal"))
        .with("grundy", Values::OptInt(vec![Some(0)]));
    assert_eq!(
        Lines.explain("positions", &t, 0).as_deref(),
        Some(
            "its 6 distinct first moves reach Grundy values 1 (×3), 2 (×3); the smallest value not reached is 0"
        )
    );
    // Not for other datasets, nor for a value the board does not have.
    assert_eq!(Lines.explain("counts", &t, 0), None);
    let wrong = Table::new()
        .with("board", s("triangle: 2"))
        .with("take", s("maximal"))
        .with("play", s("normal"))
        .with("grundy", Values::OptInt(vec![Some(1)]));
    assert_eq!(Lines.explain("positions", &wrong, 0), None);
    // A `cuts` row: why its board has its value.
    let cut = Table::new()
        .with("board", s("triangle: 2"))
        .with("take", s("maximal"))
        .with("play", s("normal"))
        .with("board_grundy", Values::Int(vec![0]));
    assert_eq!(
        Lines.explain("cuts", &cut, 0),
        Lines.explain("positions", &t, 0)
    );
    // Beyond the component solver's size: hexagon-family boards under
    // `maximal` by chords (A(6,200), 1215 pieces), the value as stored.
    let outs = run_plan("board: {trapezoid: [6, 200]}");
    let pos = table(&outs[0], "positions");
    let g = pos.int("grundy", 0).unwrap();
    let why = Lines
        .explain("positions", pos, 0)
        .expect("a reason for a large board");
    assert!(
        why.ends_with(&format!("the smallest value not reached is {g}")),
        "{why}"
    );
    let moves: usize = why
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(moves > 200, "{why}");
}

/// The hexagon list equals a brute search over all six sides (closing, canonical,
/// within the bounds), for several lower bounds.
#[test]
fn hexagons_equal_a_brute_search_of_six_sides() {
    for (lo, hi) in [(1, 7), (2, 7), (3, 9)] {
        let mut brute = HashSet::new();
        let r = lo..=hi;
        for a in r.clone() {
            for b in r.clone() {
                for c in r.clone() {
                    for d in r.clone() {
                        for e in r.clone() {
                            for f in r.clone() {
                                let p = [a, b, c, d, e, f];
                                if closes(p) && canonical_sides(p) == p {
                                    brute.insert(p);
                                }
                            }
                        }
                    }
                }
            }
        }
        let listed = hexagons(lo, hi, u64::MAX);
        assert_eq!(listed.len(), brute.len(), "{lo}..{hi}");
        assert!(listed.iter().all(|p| brute.contains(p)), "{lo}..{hi}");
    }
}

/// Misère reasons by hand: on two adjacent pieces, taking one leaves the other to
/// the opponent, who must take it and then wins nothing (who cannot move wins), so
/// both single takes reach a P-position and taking both does not. Three separate
/// pieces: every take leaves two, from which the mover takes one and wins.
/// A `regions` row: the Nim-sum of its regions' values.
#[test]
fn explain_gives_a_winning_move_or_that_every_move_reaches_n() {
    use crate::data::{IntListVec, StrVec, Values};
    let s = |v: &str| Values::Str([v].into_iter().collect::<StrVec>());
    let row = |board: &str| {
        Table::new()
            .with("board", s(board))
            .with("take", s("any"))
            .with("play", s("misere"))
            .with("grundy", Values::OptInt(vec![None]))
    };
    let two = Lines.explain("positions", &row("mask: OO"), 0).unwrap();
    assert!(
        two.starts_with("2 of its 3 distinct first moves reach a P-position (misere play): "),
        "{two}"
    );
    assert!(
        two.contains("(0,0)") && two.contains("(1,0)") && !two.contains(".."),
        "{two}"
    );
    assert_eq!(
        Lines
            .explain("positions", &row("mask: O.O.O"), 0)
            .as_deref(),
        Some(
            "each of its 3 distinct first moves reaches an N-position (misere play): (0,0), (2,0), (4,0)"
        )
    );
    let mut g = IntListVec::default();
    g.push_iter([5, 0]);
    let r = Table::new().with("region_grundy", Values::IntList(g));
    assert_eq!(
        Lines.explain("regions", &r, 0).as_deref(),
        Some(
            "its 2 regions have Grundy values 5, 0; their Nim-sum is 5 ≠ 0: an N-position by the \
             Sprague–Grundy theorem (a move in one region brings the Nim-sum to 0)"
        )
    );
}

/// A `sum:` lays its parts out as separate regions: the board splits back into
/// them, and the plain exhaustive loop on the whole board (which knows nothing of
/// regions) agrees with the Sprague–Grundy theorem: P exactly when the XOR of the
/// parts' Grundy values (each by the reference recursion on the part alone) is 0.
/// Includes report 000's parity rule on its classes (N1 + N1 = 2N1 ∈ N2: a loss).
#[test]
fn sums_of_regions_split_back_and_follow_the_nim_sum() {
    use super::board::sum_mask;
    let grundy_of = |b: &Board| {
        let geo = Arc::new(Geo {
            board: b.clone(),
            take: Take::Maximal,
        });
        BruteGrundy::default().grundy(&Pos { x: b.full(), geo })
    };
    let parts = [
        Shape::Trapezoid(1, 1),
        Shape::Trapezoid(1, 2),
        Shape::Trapezoid(2, 1),
        Shape::Trapezoid(2, 2),
        Shape::Trapezoid(2, 3),
        Shape::Parallelogram(2, 3),
    ];
    let mut sums = Vec::new();
    for (i, a) in parts.iter().enumerate() {
        for b in &parts[i..] {
            sums.push(vec![a.clone(), b.clone()]);
            sums.push(vec![a.clone(), b.clone(), Shape::Trapezoid(1, 2)]);
        }
    }
    for sum in sums {
        let board = Shape::Mask(sum_mask(&sum)).board();
        let regions = board.regions();
        assert_eq!(regions.len(), sum.len(), "{sum:?}");
        let mut xor = 0;
        for (part, region) in sum.iter().zip(&regions) {
            let g = grundy_of(&part.board());
            assert_eq!(g, grundy_of(region), "{sum:?}: a region is its part");
            xor ^= g;
        }
        let pairs: Vec<(u64, u64)> = moves(&board, Take::Maximal)
            .iter()
            .map(|m| (m.mask, m.blockers))
            .collect();
        let p = exhaustive_bytes(board.len(), &pairs, Play::Normal)[board.full() as usize] == 1;
        assert_eq!(p, xor == 0, "{sum:?}");
    }
    // Two single pieces (N1 + N1): a loss for the mover, as 圖 2 says.
    let two = Shape::Mask(sum_mask(&[Shape::Trapezoid(1, 1), Shape::Trapezoid(1, 1)])).board();
    assert_eq!(two.regions().len(), 2);
    assert_eq!(grundy_of(&two), 0);
}

/// `sum:` in a spec: one board per combination, orders kept once, labelled by the parts.
#[test]
fn sum_boards_are_read_from_a_spec() {
    let spec = serde_json::json!({"sum": [[{"trapezoid": [1, 1]}, {"trapezoid": [1, 2]}], [{"trapezoid": [1, 1]}, {"trapezoid": [1, 2]}]]});
    let mut groups = Vec::new();
    super::params::parse_shape_map(
        &Node::root(&spec, "spec"),
        None,
        &mut groups,
        &mut Vec::new(),
    )
    .unwrap();
    let labels: Vec<&str> = groups.iter().map(|g| g.label.as_str()).collect();
    assert_eq!(
        labels,
        ["A(1,1) + A(1,1)", "A(1,1) + A(1,2)", "A(1,2) + A(1,2)"]
    );
    assert_eq!(groups[1].shapes, vec![Shape::Mask(vec!["O.OO".into()])]);
    let bad = serde_json::json!({"sum": [{"trapezoid": [1, 1]}]});
    let err = super::params::parse_shape_map(
        &Node::root(&bad, "spec"),
        None,
        &mut Vec::new(),
        &mut Vec::new(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("at least two parts"), "{err}");
}

/// A board's value by the plain recursion, and its full position.
fn brute_value(b: &Board, take: Take) -> (u32, Pos) {
    let geo = Arc::new(Geo {
        board: b.clone(),
        take,
    });
    let pos = Pos { x: b.full(), geo };
    let g = BruteGrundy::default().grundy(&pos);
    (g, pos)
}

/// For each distinct first move of `b`, by brute force: (pieces removed,
/// values of the regions left ascending), the regions split by
/// `Board::regions`, not by the component solver.
fn brute_cuts(b: &Board, take: Take) -> Vec<(i64, Vec<i64>)> {
    let mut out: Vec<(i64, Vec<i64>)> = brute_value(b, take)
        .1
        .moves()
        .into_iter()
        .map(|(mask, _)| {
            let rest: Vec<Pt> = b
                .points
                .iter()
                .enumerate()
                .filter(|(j, _)| mask >> j & 1 == 0)
                .map(|(_, &p)| p)
                .collect();
            let mut values: Vec<i64> = if rest.is_empty() {
                vec![]
            } else {
                Board::from_points(rest, None)
                    .regions()
                    .iter()
                    .map(|r| i64::from(brute_value(r, take).0))
                    .collect()
            };
            values.sort_unstable();
            (i64::from(mask.count_ones()), values)
        })
        .collect();
    out.sort();
    out
}

/// Checks the `cuts` rows `row..` of board `name` (value `g`) against
/// `want` ([`brute_cuts`]); returns the number of rows it checked.
fn check_cuts_rows(
    cuts: &Table,
    row: usize,
    name: &str,
    g: i64,
    want: &[(i64, Vec<i64>)],
) -> usize {
    let mut got = Vec::new();
    for k in 0..want.len() {
        let r = row + k;
        assert_eq!(cuts.text("name", r), Some(name));
        assert_eq!(cuts.int("move", r), Some(k as i64), "{name}");
        assert_eq!(cuts.int("board_grundy", r), Some(g), "{name}");
        let values: Vec<i64> = match cuts.cell("left_grundy", r).unwrap().to_string() {
            t if t.is_empty() => vec![],
            t => t.split(", ").map(|x| x.parse().unwrap()).collect(),
        };
        assert_eq!(cuts.int("regions_left", r), Some(values.len() as i64));
        let nim = values.iter().fold(0, |a, v| a ^ v);
        assert_eq!(cuts.int("option_grundy", r), Some(nim), "{name}");
        got.push((cuts.int("run_pieces", r).unwrap(), values));
    }
    got.sort();
    assert_eq!(got, want, "{name}: the moves and the regions they leave");
    let pair = want.iter().any(|(_, v)| v.len() == 2 && v[0] == v[1]);
    assert_eq!(
        cuts.cell("equal_pair_cut", row).unwrap().to_string(),
        pair.to_string(),
        "{name}"
    );
    want.len()
}

/// The `cuts` dataset against brute force: per board, one row per distinct
/// first move; the regions each move leaves and their values by the plain
/// recursion ([`brute_cuts`]); the Nim-sum is the option's value; the
/// board's value is the `positions` one.
#[test]
fn cuts_match_brute_force_move_by_move() {
    for (yaml, take) in [
        (
            "board: [{triangle: 4}, {trapezoid: [2, 1..5]}, {parallelogram: [3, 3]}, {pentagon: [2, 2, 2]}, {hexagon: [2, 2, 2, 2, 2, 2]}]\ncuts: true",
            Take::Maximal,
        ),
        (
            "board: [{triangle: 4}, {trapezoid: [2, 4]}]\ntake: {max: 2}\ncuts: true",
            Take::Max(2),
        ),
    ] {
        let mut checked = 0;
        for out in run_plan(yaml) {
            let pos = table(&out, "positions");
            let cuts = table(&out, "cuts");
            let mut row = 0;
            for i in 0..pos.rows() {
                let name = pos.text("name", i).unwrap();
                let v = crate::params::parse_yaml(pos.text("board", i).unwrap(), "t").unwrap();
                let b = super::params::one_board(&Node::root(&v, "t"))
                    .unwrap()
                    .board();
                let g = i64::from(brute_value(&b, take).0);
                assert_eq!(pos.int("grundy", i), Some(g), "{name}");
                row += check_cuts_rows(cuts, row, name, g, &brute_cuts(&b, take));
            }
            assert_eq!(row, cuts.rows(), "one row per distinct first move");
            checked += row;
        }
        assert!(checked > 40, "{checked} moves checked");
    }
}

/// Counterexample reasons for hexagon-family boards under `maximal` come
/// from the chord recursion (any size); where the component solver also
/// reaches (≤ 48 pieces) both give the same value and the same values of
/// the distinct first moves (a lone piece's three chords counted once).
#[test]
fn explained_first_moves_by_chords_equal_components() {
    use super::explain::first_move_values;
    for shape in [
        Shape::Triangle(6),
        Shape::Trapezoid(2, 9),
        Shape::Parallelogram(3, 5),
        Shape::Pentagon(2, 3, 3),
        Shape::Hexagon([3, 2, 4, 3, 2, 4]),
    ] {
        let (g, mut chords) = first_move_values(&shape, Take::Maximal).unwrap();
        let board = shape.board();
        let solver = Components::new(&board, Take::Maximal, 1 << 30);
        let (h, options) = solver.options(board.full(), &no_progress);
        let mut components: Vec<u32> = options.into_iter().map(|(_, v)| v).collect();
        chords.sort_unstable();
        components.sort_unstable();
        assert_eq!((g, chords), (h, components), "{}", shape.name());
    }
}

/// A sweep of listed chord boards shares its memo among its cases by
/// their largest board's weight: the shares are each case's own work and
/// sum to the memo's count, and nothing is shared. A chord case scaled
/// down keeps its first boards, with a solver of its own and its memo
/// counted for them alone, and solves them to the sweep's own values.
#[test]
fn listed_chord_cases_own_their_memo_and_scale_down() {
    let v = crate::params::parse_yaml(
        "board: {trapezoid: [1..3, 1..40]}\ntake: maximal\nalong: y",
        "t.yaml",
    )
    .unwrap();
    let p = Lines
        .plan(&Node::root(&v, "t.yaml"), crate::family::Planning::SOLVE)
        .unwrap();
    let memo = |c: &dyn crate::family::Case| -> u64 {
        let w = c.cost(None).work;
        w.iter()
            .filter(|(k, _)| *k == super::kernels::CHORD_MEMO)
            .map(|(_, n)| n)
            .sum()
    };
    let trapezoid = |x: u32, y: u32| [x + y - 1, 1, x, y, x, 1];
    let boards: Vec<[u32; 6]> = (1..=3)
        .flat_map(|x| (1..=40).map(move |y| trapezoid(x, y)))
        .collect();
    let whole = super::chords::memofill::fill_chords(&boards).unwrap().1;
    let shares: u64 = p.cases.iter().map(|c| memo(c.as_ref())).sum();
    assert!(shares <= whole && shares + 3 >= whole, "{shares} {whole}");
    assert!(p.cases.iter().all(|c| c.cost(None).shared_work.is_empty()));
    // A(3, y) scaled down: its first boards, their memo alone.
    let top = &p.cases[2];
    let small = top.scaled(1.0 / 16.0).unwrap();
    let ctx = CaseCtx {
        progress: &no_progress,
        cancel: &AtomicBool::new(false),
        keep: None,
    };
    let (out, full) = (small.solve(&ctx).unwrap(), top.solve(&ctx).unwrap());
    let (pos, all) = (table(&out, "positions"), table(&full, "positions"));
    let k = pos.rows();
    assert!((2..40).contains(&k), "{k} boards");
    let first: Vec<[u32; 6]> = (1..=k as u32).map(|y| trapezoid(3, y)).collect();
    let alone = super::chords::memofill::fill_chords_quick(&first)
        .unwrap()
        .1;
    assert_eq!(memo(small.as_ref()), alone);
    assert!(alone * 8 <= memo(top.as_ref()), "{alone}");
    for i in 0..k {
        assert_eq!(
            pos.cell("grundy", i).unwrap().to_string(),
            all.cell("grundy", i).unwrap().to_string()
        );
    }
}

/// The chord solver's work, by hand: the regular hexagon of side 2 (7
/// pieces) has 3 lines each way, so keeping its moves looks up 9 chords; its
/// memo, filled on demand, holds the classes the solver reaches by cutting
/// chords (counted here by that search, one chord after another); keeping
/// only the values of a listed board needs nothing beyond the memo.
#[test]
fn the_chord_solvers_work_is_its_boards_chords_and_its_memo() {
    let plan = |yaml: &str| {
        let v = crate::params::parse_yaml(yaml, "t.yaml").unwrap();
        Lines
            .plan(&Node::root(&v, "t.yaml"), crate::family::Planning::SOLVE)
            .unwrap()
    };
    let p = plan("board: {hexagon: [2, 2, 2, 2, 2, 2]}\ntake: maximal\npictures: false");
    // A listed board's case fills the memo as it solves: its own work.
    let memo = super::chords::memofill::reached(&[[2; 6]]).1;
    assert_eq!(
        p.cases[0].cost(None).work,
        [
            (super::kernels::CHORD_LOOKUPS, 9),
            (super::kernels::CHORD_MEMO, memo)
        ]
    );
    assert_eq!(p.cases[0].cost(None).shared_work, []);
    let keep = ["periods".to_string()];
    assert_eq!(
        p.cases[0].cost(Some(&keep)).work,
        [(super::kernels::CHORD_MEMO, memo)]
    );
    // Every hexagon with sides ≤ 5: the census counts its boards, and the
    // memo is the regular hexagon's (which holds every one of them).
    let p = plan("board: {hexagons: {max_side: 5}}\ntake: maximal");
    let boards = hexagons(1, 5, u64::MAX).len() as u64;
    let census = p.cases.iter().find(|c| c.key().contains("census")).unwrap();
    assert_eq!(
        census.cost(None).work,
        [(super::kernels::CHORD_CENSUS, boards)]
    );
    let memo = super::chords::memofill::reached(&[[5; 6]]).1;
    for c in &p.cases {
        assert_eq!(
            c.cost(None).shared_work,
            [(super::kernels::CHORD_MEMO, memo)],
            "{}",
            c.key()
        );
    }
    let chords: u64 = hexagons(1, 5, u64::MAX)
        .iter()
        .map(|p| u64::from(p.iter().sum::<u32>() - 3))
        .sum();
    let lookups: u64 = p
        .cases
        .iter()
        .flat_map(|c| c.cost(None).work)
        .filter(|(k, _)| *k == super::kernels::CHORD_LOOKUPS)
        .map(|(_, n)| n)
        .sum();
    assert_eq!(lookups, chords);
    // With a bound on the pieces, the memo is its boards' (the regular
    // hexagon of side 5, 61 pieces, is not one of them).
    let p = plan("board: {hexagons: {max_side: 5, max_pieces: 12}}\ntake: maximal");
    let memo = super::chords::memofill::reached(&hexagons(1, 5, 12)).1;
    assert!(memo < super::chords::memofill::reached(&[[5; 6]]).1);
    for c in &p.cases {
        assert_eq!(
            c.cost(None).shared_work,
            [(super::kernels::CHORD_MEMO, memo)],
            "{}",
            c.key()
        );
    }
}

/// A(1,5), a line of five pieces under `maximal`, by hand: A(1,1) = 1,
/// A(1,2) = mex{0, 1} = 2, A(1,3) = mex{0, 2, 1 ⊕ 1} = 1, A(1,4) = mex{0, 1,
/// 1 ⊕ 2} = 2. Its moves: the whole line leaves nothing (0); an end piece
/// leaves A(1,4) (2); the second piece A(1,1) + A(1,3) (1 ⊕ 1 = 0); the
/// middle one A(1,2) + A(1,2) (2 ⊕ 2 = 0). So 0 and 2 are reached, not 1:
/// A(1,5) is N1, as the student reads from the listed moves.
#[test]
fn a_counterexample_is_explained_by_its_moves_in_the_reports_notation() {
    use crate::data::{StrVec, Values};
    use crate::family::Family as _;
    let s = |v: &str| Values::Str([v].into_iter().collect::<StrVec>());
    let t = Table::new()
        .with("board", s("trapezoid: [1, 5]"))
        .with("take", s("maximal"))
        .with("play", s("normal"))
        .with("grundy", Values::OptInt(vec![Some(1)]));
    let a = Lines.capabilities().explains_moves.expect("explains moves")("positions", &t, 0)
        .expect("an account");
    assert_eq!(a.position, "A(1,5)");
    assert_eq!(a.moves(), 6);
    let groups: Vec<(&str, usize)> = a
        .groups
        .iter()
        .map(|g| (g.leads_to.as_str(), g.count()))
        .collect();
    assert_eq!(groups, [("N2 (Grundy 0)", 4), ("N3 (Grundy 2)", 2)]);
    let text = a.text();
    for part in [
        "taking (2,0) leaves A(1,2) + A(1,2), Grundy 2 ⊕ 2 = 0",
        "taking (1,0) or (3,0) leaves A(1,1) + A(1,3), Grundy 1 ⊕ 1 = 0",
        "taking (0,0) or (4,0) leaves A(1,4), Grundy 2",
        "not 1: A(1,5) has Grundy value 1",
        "class N1",
    ] {
        assert!(text.contains(part), "{part:?} in {text}");
    }
    // The regions are named as report 000 names them.
    use super::explain::region_name;
    assert_eq!(region_name([5, 1, 1, 5, 1, 1]), "A(1,5)");
    assert_eq!(
        region_name(Shape::Trapezoid(2, 7).sides().unwrap()),
        "A(2,7)"
    );
    assert_eq!(
        region_name(Shape::Parallelogram(2, 6).sides().unwrap()),
        "B(2,6)"
    );
    assert_eq!(
        region_name(Shape::Pentagon(2, 3, 4).sides().unwrap()),
        "C(2,3,4)"
    );
    // Misère play has no Grundy value: the moves reach P- or N-positions,
    // by the exhaustive table; the account agrees with the stored outcome
    // or is not given.
    let m = Table::new()
        .with("board", s("trapezoid: [1, 3]"))
        .with("take", s("maximal"))
        .with("play", s("misere"))
        .with("outcome", s("N"));
    // A(1,3) under `maximal` misère (the last piece loses), by hand: its 4
    // moves are the whole line and each single piece. The whole line
    // leaves nothing (the mover took the last piece: N for the opponent);
    // an end piece leaves A(1,2), N (take one, leave the last one); the
    // middle piece leaves two single pieces, N (take one, leave one). No
    // move reaches P, so A(1,3) is P, and a stored N gets no account.
    assert_eq!(
        Lines.capabilities().explains_moves.expect("explains moves")("positions", &m, 0),
        None
    );
    let p = Table::new()
        .with("board", s("trapezoid: [1, 3]"))
        .with("take", s("maximal"))
        .with("play", s("misere"))
        .with("outcome", s("P"));
    let a = Lines.capabilities().explains_moves.expect("explains moves")("positions", &p, 0)
        .expect("an account");
    assert_eq!(a.moves(), 4);
    assert!(
        a.text()
            .contains("Every move leaves the opponent an N-position, so A(1,3) is a P-position"),
        "{}",
        a.text()
    );
}
