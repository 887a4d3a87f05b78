//! Octal kernels: Kayles and Dawson's Kayles proven (the stages until the
//! octal periodicity theorem's window is covered); the naive kernel of 0.16
//! to n = 2·10^4 (O(n²)); the sparse-space kernel of 0.16 until its period
//! is proven at n = 524288 (the mask chosen on the first 2049 values).
//!
//! `cargo bench --bench octal`.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, criterion_group, criterion_main};
use nimlab::family::octal::code::Code;
use nimlab::family::octal::kernel::naive;
use nimlab::family::octal::sequence::{Horizon, compute};

fn kernels(c: &mut Criterion) {
    let no = AtomicBool::new(false);
    let code = |s: &str| Code::parse(s).unwrap();
    let h = Horizon {
        naive: 4096,
        sparse: 4096,
    };
    let mut g = c.benchmark_group("octal");
    g.sample_size(10);
    for s in ["0.77", "0.07"] {
        let k = code(s);
        g.bench_function(format!("{s} proven"), |b| {
            b.iter(|| black_box(compute(&k, h, &no).and_then(|q| q.period)))
        });
    }
    let k = code("0.16");
    g.bench_function("0.16 naive to 2·10^4", |b| {
        b.iter(|| black_box(naive(&k, 20_000, &no)))
    });
    let far = Horizon {
        naive: 2048,
        sparse: 1_000_000,
    };
    g.bench_function(
        "0.16 sparse to 10^6 (mask chosen on the first 2049 values)",
        |b| b.iter(|| black_box(compute(&k, far, &no).map(|q| q.values.len()))),
    );
    g.finish();
}

criterion_group!(benches, kernels);
criterion_main!(benches);
