//! The exhaustive retrograde kernel of the `lines` family
//! (`src/family/lines/exhaustive/`): misère, runs of at most 3 pieces, the
//! triangle of 7 rows (28 pieces, 2^28 positions), the whole table, on a
//! rayon pool of 1 and of 2 threads (issue 3's targets: within 2× of 0.09 s
//! and 0.046 s, aiming at 1.2×).
//!
//! `cargo bench --bench lines_retro`.
//!
//! `lines_retro --triangle ROWS` (the executable cargo builds, see
//! `scripts/bench-triangle8.sh`) instead solves one triangle once on the
//! global pool and prints the time, the P-positions per piece count, the
//! outcome of the full board and its winning first moves.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use criterion::Criterion;
use nimlab::family::lines::board::{Board, Shape};
use nimlab::family::lines::exhaustive::{Exhaustive, Move, memory_bytes, solve};
use nimlab::family::lines::rules::{self, BoardMove, Take};
use nimlab::game::Play;

/// The family's triangle of `rows` rows (numbered bottom row first) and
/// every run of 1..=3 pieces along (1,0), (0,1), (1,-1).
fn triangle(rows: u32) -> (Board, Vec<BoardMove>) {
    let board = Shape::Triangle(rows).board();
    let moves = rules::moves(&board, Take::Max(3));
    (board, moves)
}

fn kernel_moves(moves: &[BoardMove]) -> Vec<Move> {
    moves.iter().map(Move::from).collect()
}

fn run(n: usize, moves: &[Move]) -> Exhaustive {
    solve(n, moves, Play::Misere, &|_| {}, &AtomicBool::new(false)).expect("solve")
}

fn kernels(c: &mut Criterion) {
    let (board, moves) = triangle(7);
    let (n, moves) = (board.len(), kernel_moves(&moves));
    let mut g = c.benchmark_group("lines_retro_triangle7_misere_max3");
    g.sample_size(10).measurement_time(Duration::from_secs(6));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool");
        g.bench_function(format!("threads={threads}"), |b| {
            b.iter(|| pool.install(|| black_box(run(n, black_box(&moves)))))
        });
    }
    g.finish();
}

/// One big triangle, once: time, counts, outcome, winning first moves.
fn one_triangle(rows: u32) {
    let (board, board_moves) = triangle(rows);
    let (n, moves) = (board.len(), kernel_moves(&board_moves));
    println!(
        "triangle of {rows} rows: {n} pieces, {} moves (runs ≤ 3), misère, {} threads, {:.2} GiB of bits",
        moves.len(),
        rayon::current_num_threads(),
        memory_bytes(n) as f64 / (1u64 << 30) as f64
    );
    let t = Instant::now();
    let e = run(n, &moves);
    let secs = t.elapsed().as_secs_f64();
    println!("solve: {secs:.2} s");
    println!("k  positions  P-positions");
    for (k, (pos, p)) in e.counts.iter().enumerate() {
        println!("{k:2} {pos:10} {p:12}");
    }
    let total: u64 = e.counts.iter().map(|c| c.1).sum();
    println!("total P-positions: {total}");
    let full = (1u64 << n) - 1;
    let outcome = if e.is_p(full) {
        "P (the first player loses)"
    } else {
        "N (the first player wins)"
    };
    println!("full board: {outcome}");
    for m in &board_moves {
        if e.is_p(full ^ m.mask) {
            let cells = rules::run_cells(&board, m);
            println!(
                "winning first move: take {}",
                rules::run_text(&cells, m.dir as usize)
            );
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--triangle") {
        let rows = args
            .get(i + 1)
            .and_then(|s| s.parse().ok())
            .expect("--triangle ROWS");
        one_triangle(rows);
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    kernels(&mut c);
    c.final_summary();
}
