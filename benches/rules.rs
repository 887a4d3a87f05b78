//! The `rules` family's three speed goals (issue 38), each beside the
//! `takeaway` kernel it is compared with, in one `cargo bench --bench rules`:
//!
//! * `move: "t in [1, 3, 4]"` to N = 10^8 against `takeaway`'s
//!   `set: [1, 3, 4]` Grundy kernel (goal: within 1.5×);
//! * Cond(1,3)'s twin `move: "t <= k and t != last"`, k = 2..60, N = 0..10^4
//!   (the family's sweep) against `takeaway`'s `take: {max: 2..60}`,
//!   `no_repeat: true` sweep (goal: within 2×);
//! * proper divisors `move: "n % t == 0 and t < n"` to N = 10^5, normal
//!   play (goal: under 60 s on 2 cores).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use nimlab::family::rules::Rules;
use nimlab::family::rules::cond::Cond;
use nimlab::family::rules::game::Rule;
use nimlab::family::rules::solver::grundy_values;
use nimlab::family::takeaway::solver::grundy_sequence;
use nimlab::family::{Family, by_name, sweep_rows};
use nimlab::game::Play;

fn rule(mv: &str) -> Rule {
    Rule {
        mv: Cond::compile(mv, &["n", "t", "last", "mine", "first"], &[]).expect("condition"),
        both: None,
        split: false,
        play: Play::Normal,
        params: vec![],
    }
}

fn take_set(c: &mut Criterion) {
    const N: usize = 100_000_000;
    let r = rule("t in [1, 3, 4]");
    let mut g = c.benchmark_group("take_set_1e8");
    g.sample_size(10);
    g.bench_function("takeaway set:[1,3,4]", |b| {
        b.iter(|| black_box(grundy_sequence(black_box(&[1, 3, 4]), N)))
    });
    g.bench_function("rules t in [1, 3, 4]", |b| {
        b.iter(|| black_box(grundy_values(black_box(&r), N)))
    });
    g.finish();
}

fn sweep(family: &dyn Family, yaml: &str, dataset: &str) -> usize {
    sweep_rows(family, yaml, dataset)
        .expect("sweep")
        .map_or(0, |t| t.rows())
}

fn no_repeat(c: &mut Criterion) {
    let takeaway = by_name("takeaway").expect("takeaway");
    let mut g = c.benchmark_group("cond13_k2-60_N1e4");
    g.sample_size(10);
    g.bench_function("takeaway no_repeat", |b| {
        b.iter(|| {
            sweep(
                takeaway,
                "take: {max: 2..60}\nno_repeat: true\nN: 0..10000\n",
                "positions",
            )
        })
    });
    g.bench_function("rules t <= k and t != last", |b| {
        b.iter(|| {
            sweep(
                &Rules,
                "move: \"t <= k and t != last\"\nk: 2..60\nN: 0..10000\n",
                "rule_positions",
            )
        })
    });
    g.finish();
}

fn divisors(c: &mut Criterion) {
    let r = rule("n % t == 0 and t < n");
    let mut g = c.benchmark_group("proper_divisors_1e5");
    g.sample_size(10);
    g.bench_function("rules n % t == 0 and t < n", |b| {
        b.iter(|| black_box(grundy_values(black_box(&r), 100_001)))
    });
    g.finish();
}

criterion_group!(benches, take_set, no_repeat, divisors);
criterion_main!(benches);
