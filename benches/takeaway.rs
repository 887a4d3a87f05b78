//! Take-away kernels: the Grundy sequence of S = {1,3,4} and S = {1..6} to
//! N = 10^8 on one thread (the targets: within 2× of 0.6 and 0.85
//! ns/value), and the interval kernel for a wide S = {1..140}.
//!
//! `cargo bench --bench takeaway`; criterion reports time per sequence, i.e.
//! ns/value × 10^8 (so 100 ms = 1 ns/value).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use nimlab::family::takeaway::solver::{grundy_sequence, interval_sequence};

const N: usize = 100_000_000;

fn kernels(c: &mut Criterion) {
    let mut g = c.benchmark_group("grundy_1e8");
    g.sample_size(10);
    g.bench_function("S={1,3,4}", |b| {
        b.iter(|| black_box(grundy_sequence(black_box(&[1, 3, 4]), N)))
    });
    g.bench_function("S={1..6}", |b| {
        b.iter(|| black_box(grundy_sequence(black_box(&[1, 2, 3, 4, 5, 6]), N)))
    });
    g.bench_function("S={1..140} (interval kernel)", |b| {
        b.iter(|| black_box(interval_sequence(1, 140, N)))
    });
    g.finish();
}

criterion_group!(benches, kernels);
criterion_main!(benches);
