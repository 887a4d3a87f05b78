//! Take-away kernels: the Grundy sequence of S = {1,3,4} and S = {1..6} to
//! N = 10^8 on one thread (the targets: within 2× of 0.6 and 0.85
//! ns/value), and the interval kernel for a wide S = {1..140}.
//!
//! `cargo bench --bench takeaway`; criterion reports time per sequence, i.e.
//! ns/value × 10^8 (so 100 ms = 1 ns/value). And the joint codes of the
//! no-repeat rule, S = {1..134}, to 10^7 heap sizes.
//!
//! Also the per-position rows of 16 interval rules on N = 0..10,000 (~160,000
//! rows, ~2 million winning moves, as the 10k sweep's rules average): built
//! by the cases, and written to one Parquet part file.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use nimlab::data::{Dataset, Table};
use nimlab::family::takeaway::solver::{Joint, grundy_sequence, interval_sequence};
use nimlab::family::{CaseCtx, Planning, by_name};
use nimlab::game::Play;
use nimlab::params::{Node, parse_yaml};
use nimlab::store::parquet::write_part;

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
    // The no-repeat rule, one heap, normal play: the joint codes of
    // S = {1..134} to 10^7 (report 004's longest proof search).
    let mut g = c.benchmark_group("no_repeat_1e7");
    g.sample_size(10);
    let takes: Vec<u32> = (1..=134).collect();
    g.bench_function("S={1..134}", |b| {
        b.iter(|| {
            black_box(Joint::solve(
                &[10_000_000],
                black_box(&takes),
                Play::Normal,
                true,
                &|_| {},
            ))
        })
    });
    g.finish();
}

/// The positions rows of each case of the 16 rules {m..n}, m = 30..33, n = 100..103.
fn positions_tables() -> (&'static Dataset, Vec<Table>) {
    let yaml = "take: {min: 30..33, max: 100..103}\nN: 0..10000\ndatasets: [positions]\n";
    let v = parse_yaml(yaml, "bench.yaml").expect("yaml");
    let family = by_name("takeaway").expect("takeaway");
    let plan = family
        .plan(&Node::root(&v, "bench.yaml"), Planning::SOLVE)
        .expect("plan");
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let ctx = CaseCtx {
        progress: &|_| {},
        cancel: &cancel,
        keep: None,
    };
    let mut out: Option<&'static Dataset> = None;
    let mut tables = Vec::new();
    for case in &plan.cases {
        for (ds, t) in case.solve(&ctx).expect("solve") {
            if ds.name == "positions" {
                out = Some(ds);
                tables.push(t);
            }
        }
    }
    (out.expect("a positions table"), tables)
}

fn positions(c: &mut Criterion) {
    let mut g = c.benchmark_group("positions_16_rules_1e4");
    g.sample_size(10);
    g.bench_function("cases (rows built)", |b| {
        b.iter(|| black_box(positions_tables()))
    });
    let (ds, tables) = positions_tables();
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("part.parquet");
    g.bench_function("write_part (Parquet)", |b| {
        b.iter_batched(
            || tables.clone(),
            |t| write_part(&path, ds, ("bench", "positions"), t).expect("write"),
            BatchSize::LargeInput,
        )
    });
    g.finish();
}

criterion_group!(benches, kernels, positions);
criterion_main!(benches);
