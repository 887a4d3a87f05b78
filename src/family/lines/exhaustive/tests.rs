//! The kernel against a plain per-position reference, on boards and sizes
//! that go through every path.

use std::sync::atomic::Ordering;

use crate::family::lines::board::Shape;
use crate::family::lines::rules::{self, Take};

use super::numbering::FREE_BOTTOM;
use super::*;

/// Obviously correct: one position at a time, children first.
fn reference(n: usize, moves: &[Move], play: Play) -> Vec<bool> {
    let mut p = vec![false; 1 << n];
    for x in 0..(1u64 << n) {
        let mut any = false;
        let mut reaches_p = false;
        for m in moves {
            if x & m.mask == m.mask && x & m.blockers == 0 {
                any = true;
                if p[(x ^ m.mask) as usize] {
                    reaches_p = true;
                }
            }
        }
        p[x as usize] = if any {
            !reaches_p
        } else {
            play == Play::Normal
        };
    }
    p
}

fn run(n: usize, moves: &[Move], play: Play) -> Exhaustive {
    run_sized(n, moves, play, SIZES)
}

fn run_sized(n: usize, moves: &[Move], play: Play, sizes: Sizes) -> Exhaustive {
    let done = std::sync::atomic::AtomicU64::new(0);
    let progress = |d| {
        done.fetch_add(d, Ordering::Relaxed);
    };
    let e = solve_sized(n, moves, play, &progress, &AtomicBool::new(false), sizes).unwrap();
    assert_eq!(
        done.load(Ordering::Relaxed),
        1u64 << n,
        "progress adds up to 2^n"
    );
    e
}

fn check(n: usize, moves: &[Move], play: Play) {
    let want = reference(n, moves, play);
    for sizes in TEST_SIZES {
        check_against(n, moves, play, &want, sizes);
    }
}

fn check_against(n: usize, moves: &[Move], play: Play, want: &[bool], sizes: Sizes) {
    let got = run_sized(n, moves, play, sizes);
    assert_eq!(got.n, n);
    assert_eq!(got.p_bits.len(), (1usize << n.saturating_sub(6)).max(1));
    for (x, &w) in want.iter().enumerate() {
        assert_eq!(
            got.is_p(x as u64),
            w,
            "n={n} play={play:?} {sizes:?} position {x:#b}"
        );
    }
    if n < 6 {
        assert_eq!(got.p_bits[0] >> (1u32 << n), 0, "bits beyond 2^n are clear");
    }
    let mut counts = vec![(0u64, 0u64); n + 1];
    for (x, &w) in want.iter().enumerate() {
        let k = (x as u64).count_ones() as usize;
        counts[k].0 += 1;
        counts[k].1 += w as u64;
    }
    assert_eq!(got.counts, counts, "n={n} play={play:?} {sizes:?} counts");
}

/// Small xorshift, so the tests need no extra crate.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, k: u64) -> u64 {
        self.next() % k
    }
}

fn random_moves(rng: &mut Rng, n: usize, count: usize, blockers: bool) -> Vec<Move> {
    (0..count)
        .map(|_| {
            let mut mask = 0u64;
            for _ in 0..1 + rng.below(3) {
                mask |= 1 << rng.below(n as u64);
            }
            let mut b = 0u64;
            if blockers && rng.below(2) == 0 {
                for _ in 0..1 + rng.below(2) {
                    b |= 1 << rng.below(n as u64);
                }
                b &= !mask;
            }
            Move { mask, blockers: b }
        })
        .collect()
}

/// The family's triangle of `rows` rows (numbered bottom row first) and
/// its moves under `take`.
fn triangle(rows: u32, take: Take) -> (usize, Vec<Move>) {
    let board = Shape::Triangle(rows).board();
    let moves = rules::moves(&board, take).iter().map(Move::from).collect();
    (board.len(), moves)
}

#[test]
fn retro_piece_order_puts_independent_pieces_at_the_bottom() {
    for rows in [7, 8] {
        let (n, moves) = triangle(rows, Take::Max(3));
        let order = piece_order(n, &moves, 8);
        let mut seen = order.clone();
        seen.sort_unstable();
        assert_eq!(seen, (0..n as u8).collect::<Vec<_>>(), "a permutation");
        // No move holds two of the solver's pieces 0..FREE_BOTTOM: the
        // triangle's colour classes have 10 (7 rows) and 12 (8 rows) pieces.
        for m in &moves {
            let bottom = (permute(m.mask, &order) & ((1 << FREE_BOTTOM) - 1)).count_ones();
            assert!(
                bottom <= 1,
                "{rows} rows: move {:#x} holds {bottom}",
                m.mask
            );
        }
    }
    // Row of three, runs of 2: pieces 0 and 2 are independent, 1 is not.
    let m = |mask| Move { mask, blockers: 0 };
    let moves = [m(0b001), m(0b010), m(0b100), m(0b011), m(0b110)];
    assert_eq!(piece_order(3, &moves, 0), vec![0, 2, 1]);
}

#[test]
fn retro_row_of_three_by_hand() {
    // Pieces 0-1-2 in a row, take 1 or 2 adjacent pieces.
    let m = |mask| Move { mask, blockers: 0 };
    let moves = [m(0b001), m(0b010), m(0b100), m(0b011), m(0b110)];
    // Normal: {} P; singles N; {0,1}, {1,2} N (take both); {0,2} P (either
    // single leaves a single); {0,1,2} N (take 1 → {0,2}).
    let e = run(3, &moves, Play::Normal);
    let p: Vec<u64> = (0..8).filter(|&x| e.is_p(x)).collect();
    assert_eq!(p, vec![0b000, 0b101]);
    assert_eq!(e.counts, vec![(1, 1), (3, 0), (3, 1), (1, 0)]);
    // Misère: {} N; singles P (forced to leave {}); every pair can leave a
    // single: N; {0,1,2} takes {0,1} → {2}: N.
    let e = run(3, &moves, Play::Misere);
    let p: Vec<u64> = (0..8).filter(|&x| e.is_p(x)).collect();
    assert_eq!(p, vec![0b001, 0b010, 0b100]);
    assert_eq!(e.counts, vec![(1, 0), (3, 3), (3, 0), (1, 0)]);
    check(3, &moves, Play::Normal);
    check(3, &moves, Play::Misere);
}

#[test]
fn retro_trivial_boards() {
    for play in [Play::Normal, Play::Misere] {
        let e = run(0, &[], play);
        assert_eq!(e.is_p(0), play == Play::Normal);
        assert_eq!(e.counts, vec![(1, (play == Play::Normal) as u64)]);
        // No moves at all: every position is terminal.
        check(9, &[], play);
        let e = run(
            1,
            &[Move {
                mask: 1,
                blockers: 0,
            }],
            play,
        );
        assert_eq!(
            e.counts,
            vec![
                (1, (play == Play::Normal) as u64),
                (1, (play == Play::Misere) as u64)
            ]
        );
    }
}

#[test]
fn retro_single_row_take_any_is_nim_like() {
    // Maximal runs in a single row: every block of consecutive pieces is a
    // heap removed whole; compare with the reference anyway on 14 pieces.
    let n = 14;
    let mut moves = Vec::new();
    for a in 0..n {
        for b in a..n {
            let mask = ((1u64 << (b + 1)) - 1) & !((1u64 << a) - 1);
            let mut bl = 0;
            if a > 0 {
                bl |= 1 << (a - 1);
            }
            if b + 1 < n {
                bl |= 1 << (b + 1);
            }
            moves.push(Move { mask, blockers: bl });
        }
    }
    for play in [Play::Normal, Play::Misere] {
        check(n, &moves, play);
    }
    // Normal play, maximal runs: every position's value is its number of
    // runs mod 2 (each heap has Grundy value 1).
    let e = run(n, &moves, Play::Normal);
    for x in 0..(1u64 << n) {
        let runs = (x & !(x << 1)).count_ones();
        assert_eq!(e.is_p(x), runs % 2 == 0, "{x:#b}");
    }
}

#[test]
fn retro_random_moves_against_reference() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for round in 0..60 {
        let n = 1 + rng.below(20) as usize;
        let count = 1 + rng.below(3 * n as u64 + 4) as usize;
        let blockers = round % 2 == 1;
        let moves = random_moves(&mut rng, n, count, blockers);
        for play in [Play::Normal, Play::Misere] {
            check(n, &moves, play);
        }
    }
}

#[test]
fn retro_random_high_bits_and_blocks() {
    // n large enough for the parallel block layers (n ≥ 6 + 6 + 4 + 1).
    let mut rng = Rng(12345);
    for &n in &[17usize, 18, 19, 20] {
        for blockers in [false, true] {
            let moves = random_moves(&mut rng, n, 3 * n, blockers);
            for play in [Play::Normal, Play::Misere] {
                check(n, &moves, play);
            }
        }
    }
}

#[test]
fn retro_triangles_against_reference() {
    for rows in 1..=5 {
        for take in rules::SAMPLE_RULES {
            let (n, moves) = triangle(rows, take);
            assert_eq!(n, (rows * (rows + 1) / 2) as usize);
            for play in [Play::Normal, Play::Misere] {
                check(n, &moves, play);
            }
        }
    }
}

#[test]
fn retro_triangle_6_rows_against_reference() {
    // 21 pieces: the block layers, the recursion and the leaves all active.
    for take in [Take::Max(2), Take::Max(3), Take::Maximal] {
        let (n, moves) = triangle(6, take);
        assert_eq!(n, 21);
        for play in [Play::Normal, Play::Misere] {
            check(n, &moves, play);
        }
    }
}

#[test]
fn retro_reversed_numbering_and_one_thread() {
    // Same board numbered from the other end (many in-word moves), on a
    // one-thread pool: same answer as the reference.
    let (n, moves) = triangle(5, Take::Max(3));
    let rev = |m: u64| {
        (0..n)
            .filter(|&i| m >> i & 1 == 1)
            .fold(0u64, |a, i| a | 1 << (n - 1 - i))
    };
    let moves: Vec<Move> = moves
        .iter()
        .map(|m| Move {
            mask: rev(m.mask),
            blockers: rev(m.blockers),
        })
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    pool.install(|| {
        for play in [Play::Normal, Play::Misere] {
            check(n, &moves, play);
        }
    });
}

#[test]
fn retro_cancel_and_bad_input() {
    let (n, moves) = triangle(6, Take::Max(3));
    let cancel = AtomicBool::new(true);
    assert!(solve(n, &moves, Play::Misere, &|_| {}, &cancel).is_err());
    let no = AtomicBool::new(false);
    assert!(solve(41, &[], Play::Misere, &|_| {}, &no).is_err());
    assert!(
        solve(
            3,
            &[Move {
                mask: 0,
                blockers: 0
            }],
            Play::Misere,
            &|_| {},
            &no
        )
        .is_err()
    );
    assert!(
        solve(
            3,
            &[Move {
                mask: 8,
                blockers: 0
            }],
            Play::Misere,
            &|_| {},
            &no
        )
        .is_err()
    );
    assert_eq!(memory_bytes(36), (1 << 33) + (1 << 20));
}

/// The cost model's count of word operations ([`work`], from the plan
/// alone) is what the solver does, on every path (each of the test
/// sizes) and rule; and by hand on the smallest boards.
#[test]
fn the_counted_work_is_the_solvers() {
    let shapes = [
        Shape::Triangle(2),
        Shape::Triangle(4),
        Shape::Triangle(5),
        Shape::Parallelogram(3, 4),
        Shape::Trapezoid(2, 9),
    ];
    for shape in shapes {
        let b = shape.board();
        let n = b.len();
        for take in [Take::Max(1), Take::Max(2), Take::Any, Take::Maximal] {
            let moves: Vec<Move> = rules::moves(&b, take).iter().map(Move::from).collect();
            for play in [Play::Normal, Play::Misere] {
                let (ops, rounds) = work(n, &moves, play).unwrap();
                let got = run(n, &moves, play).ops;
                assert_eq!(ops, got, "{} {} {play:?}", shape.name(), take.text());
                // Maximal runs have blockers: never the chunk table.
                if take == Take::Maximal {
                    assert!(rounds, "{}", shape.name());
                }
                for sizes in TEST_SIZES.into_iter().skip(1) {
                    let order = piece_order(n, &moves, top_bits(n, sizes) as usize);
                    let pm = permute_moves(&moves, &order, (1u64 << n) - 1);
                    let plan = Plan::build(n, &pm, play, sizes, false);
                    let want = plan.word_ops(n.saturating_sub(6) as u32);
                    let got = run_sized(n, &moves, play, sizes).ops;
                    assert_eq!(
                        want,
                        got,
                        "{} {} {play:?} {sizes:?}",
                        shape.name(),
                        take.text()
                    );
                }
            }
        }
    }
    // By hand: the triangle of 2 rows (3 pieces, one word), `max:1`:
    // three single-piece moves inside the word, one pass (no chunk
    // table under 20 pieces): 1 + 3 operations.
    let b = Shape::Triangle(2).board();
    let moves: Vec<Move> = rules::moves(&b, Take::Max(1))
        .iter()
        .map(Move::from)
        .collect();
    assert_eq!(work(3, &moves, Play::Normal), Some((4, true)));
    // 7 pieces in a row, `max:1`: 2 words; piece 6 is the word bit, its
    // move a group of one low part applied to the one word holding it
    // (1), six in-word moves per word (2 × (1 + 6)): 15.
    let b = Shape::Trapezoid(1, 7).board();
    let moves: Vec<Move> = rules::moves(&b, Take::Max(1))
        .iter()
        .map(Move::from)
        .collect();
    assert_eq!(work(7, &moves, Play::Normal), Some((15, true)));
}
