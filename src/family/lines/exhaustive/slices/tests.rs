//! The sliced solver against the in-memory one, position by position.

use std::sync::atomic::AtomicBool;

use super::engine::{Engine, SliceRun};
use super::plan::{self, Plan, Request};
use super::store::Store;
use super::*;
use crate::family::lines::board::Shape;
use crate::family::lines::exhaustive::{self, SliceKernel};

static NO: AtomicBool = AtomicBool::new(false);

fn request(t: usize, symmetry: bool) -> Request {
    Request {
        memory: 1 << 40,
        threads: 2,
        slice_pieces: Some(t),
        symmetry,
    }
}

/// Solves every wave of `plan` in `dir` with the kernel sizes `sizes` and
/// at most `reps` representatives in memory; returns the engine's answer and
/// the whole table (solver numbering) assembled from the slice files.
fn solve_sliced(
    p: &Problem,
    plan: &Plan,
    dir: &std::path::Path,
    sizes: exhaustive::Sizes,
    reps: usize,
) -> (Answer, Vec<u64>) {
    let kernel =
        SliceKernel::with_sizes(p.n(), &p.kmoves, p.play, &plan.order, plan.t, sizes).unwrap();
    let store = Store::new(dir, plan.t, plan.slice_bytes()).unwrap();
    let mut e = Engine::with_kernel(p, plan, kernel, store, 1 << 40).unwrap();
    e.reps_in_memory = reps;
    let mut solved = 0;
    e.solve_waves(
        0,
        plan.t,
        false,
        &mut |_, r| solved += matches!(r, SliceRun::Solved(_)) as usize,
        &|_| {},
        &NO,
    )
    .unwrap();
    let reps_total: usize = (0..=plan.t).map(|k| plan.wave(k).len()).sum();
    assert_eq!(solved, reps_total, "every representative solved once");
    let answer = e.finish().unwrap();
    // The whole table: every slice, renamed from its representative.
    let lw = p.n() - 6 - plan.t;
    let words = 1usize << lw;
    let mut full = vec![0u64; words << plan.t];
    for s in 0..plan.slices() {
        let (rep, g) = plan.canon(s);
        let table = e.store.read_slice(rep, words).unwrap();
        let dst = &mut full[(s as usize) * words..(s as usize + 1) * words];
        match e.image(g) {
            None => dst.copy_from_slice(&table),
            Some(img) => img.gather(&table, 0, dst),
        }
    }
    (answer, full)
}

/// The sliced table equals the in-memory one at every position, and so do
/// the counts, the outcome and the winning first moves.
fn check(p: &Problem, plan: &Plan, sizes: exhaustive::Sizes, reps: usize) {
    let dir = tempfile::tempdir().unwrap();
    let (answer, full) = solve_sliced(p, plan, dir.path(), sizes, reps);
    let ex = exhaustive::solve(p.n(), &p.kmoves, p.play, &|_| {}, &NO).unwrap();
    let want = solve_in_memory(p, &|_| {}, &NO).unwrap();
    let what = format!(
        "{} take {} {} t={} pieces={:?} group={} sizes={sizes:?} reps={reps}",
        p.shape.name(),
        p.take.text(),
        p.play.as_str(),
        plan.t,
        plan.pieces,
        plan.group.len()
    );
    for x in 0..1u64 << p.n() {
        let y = exhaustive::to_solver(x, &plan.order);
        let got = full[(y >> 6) as usize] >> (y & 63) & 1 == 1;
        assert_eq!(got, ex.is_p(x), "{what}: position {x:#x}");
    }
    assert_eq!(answer, want, "{what}");
}

fn problem(shape: Shape, take: Take, play: Play) -> Problem {
    Problem::new(shape, take, play).unwrap()
}

#[test]
fn slices_triangles_all_rules_against_in_memory() {
    let mut groups = std::collections::BTreeSet::new();
    for rows in [4, 5, 6] {
        for take in crate::family::lines::rules::SAMPLE_RULES {
            for play in [Play::Misere, Play::Normal] {
                let p = problem(Shape::Triangle(rows), take, play);
                let ts: &[usize] = match rows {
                    4 => &[0, 1, 4],
                    5 => &[2, 5],
                    _ => &[3, 6],
                };
                for &t in ts {
                    for symmetry in [false, true] {
                        let c = plan::choose(&p, &request(t, symmetry)).unwrap();
                        groups.insert(c.plan.group.len());
                        check(&p, &c.plan, exhaustive::SIZES, 1);
                    }
                }
            }
        }
    }
    assert_eq!(
        groups.into_iter().collect::<Vec<_>>(),
        vec![1, 2, 3, 6],
        "symmetry groups exercised"
    );
}

#[test]
fn slices_small_blocks_and_passes() {
    // Shrunken blocks, tiles and leaves: slices of several blocks in several
    // layers; one representative in memory at a time (several passes).
    for (shape, take) in [
        (Shape::Triangle(6), Take::Max(3)),
        (Shape::Triangle(6), Take::Maximal),
        (Shape::Hexagon([2, 2, 3, 2, 2, 3]), Take::Max(2)),
        (Shape::Parallelogram(3, 5), Take::Max(3)),
    ] {
        for play in [Play::Misere, Play::Normal] {
            let p = problem(shape.clone(), take, play);
            for symmetry in [false, true] {
                for t in [2, 3] {
                    let c = plan::choose(&p, &request(t, symmetry)).unwrap();
                    for sizes in exhaustive::TEST_SIZES {
                        check(&p, &c.plan, sizes, 1);
                    }
                    check(&p, &c.plan, exhaustive::SIZES, 8);
                }
            }
        }
    }
}

#[test]
fn slices_symmetric_plans_store_one_slice_per_orbit() {
    let p = problem(Shape::Triangle(6), Take::Max(3), Play::Misere);
    let c = plan::choose(&p, &request(3, true)).unwrap();
    assert_eq!(
        c.plan.group.len(),
        6,
        "the triangle's six symmetries: {:?}",
        c.plan.pieces
    );
    assert!(c.plan.independent);
    let mut covered = 0;
    for k in 0..=c.plan.t {
        for r in c.plan.wave(k) {
            covered += c.plan.orbit_size(r);
            assert_eq!(c.plan.canon(r), (r, 0));
        }
    }
    assert_eq!(covered, 1 << 3, "orbits partition the slices");
    // Three corners: ∅, one corner, two corners, all three.
    assert_eq!(c.est.reps, vec![1, 1, 1, 1]);
    check(&p, &c.plan, exhaustive::SIZES, 1);
}

#[test]
fn slices_triangle8_cut_reads_one_piece_down() {
    // Runs ≤ 3: pairwise independent slice pieces, so slice σ reads exactly
    // the |σ| slices with one slice piece fewer.
    let p = problem(Shape::Triangle(8), Take::Max(3), Play::Misere);
    for (t, symmetry) in [(4, false), (6, true)] {
        let c = plan::choose(&p, &request(t, symmetry)).unwrap();
        assert!(c.plan.independent, "t={t}");
        let k = c.plan.kernel(&p).unwrap();
        for s in 0..c.plan.slices() {
            let src: Vec<u64> = c.plan.sources(&k, s).iter().map(|x| x.slice).collect();
            let want: Vec<u64> = (0..t)
                .filter(|j| s >> j & 1 == 1)
                .map(|j| s & !(1 << j))
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            assert_eq!(src, want, "t={t} slice {s:#b}");
        }
        assert_eq!(c.est.sources_max, t);
    }
}

#[test]
fn slices_resume_after_a_kill_gives_identical_files() {
    let p = problem(Shape::Triangle(6), Take::Max(3), Play::Misere);
    let c = plan::choose(&p, &request(4, false)).unwrap();
    let plan = &c.plan;
    let fresh = tempfile::tempdir().unwrap();
    let (want, _) = solve_sliced(&p, plan, fresh.path(), exhaustive::SIZES, 1);

    let dir = tempfile::tempdir().unwrap();
    let store = Store::new(dir.path(), plan.t, plan.slice_bytes()).unwrap();
    let e = Engine::new(&p, plan, store.clone(), 1 << 40).unwrap();
    // Waves 0 and 1 only; then a slice of wave 2 "killed" half way: a
    // temporary file and a table without its record.
    e.solve_waves(0, 1, false, &mut |_, _| {}, &|_| {}, &NO)
        .unwrap();
    let w2 = plan.wave(2);
    let killed = w2[0];
    std::fs::create_dir_all(store.data_path(killed).parent().unwrap()).unwrap();
    // A temporary of a dead writer of this host (as crate::store names them).
    let host = crate::store::tmp_owner();
    let host = host.split('~').next().unwrap();
    let stem = store.data_path(killed);
    let stem = stem.file_stem().unwrap().to_string_lossy();
    let tmp = store
        .data_path(killed)
        .with_file_name(format!(".{stem}.tmp-{host}~4000000000-0.bits"));
    std::fs::write(&tmp, b"partial").unwrap();
    // Another host's temporary: its writer may be alive, so it stays.
    let other = tmp.with_file_name(format!(".{stem}.tmp-otherhost~12-0.bits"));
    std::fs::write(&other, b"partial").unwrap();
    std::fs::write(store.data_path(killed), b"truncated").unwrap();
    assert!(!store.is_done(killed));
    // A wave-3 slice before wave 2 is refused, naming what is missing.
    let err = e
        .solve_slice(plan.wave(3)[0], &|_| {}, &NO)
        .unwrap_err()
        .to_string();
    assert!(err.contains("not complete"), "{err}");
    // Rerun everything: complete slices are skipped, the rest solved.
    let mut skipped = 0;
    e.solve_waves(
        0,
        plan.t,
        false,
        &mut |_, r| skipped += matches!(r, SliceRun::Skipped) as usize,
        &|_| {},
        &NO,
    )
    .unwrap();
    assert_eq!(skipped, 1 + plan.t, "waves 0 and 1 were complete");
    assert!(matches!(
        e.solve_slice(killed, &|_| {}, &NO).unwrap(),
        SliceRun::Skipped
    ));
    assert_eq!(e.finish().unwrap(), want);
    assert_eq!(store.remove_temporaries().unwrap(), 1);
    assert!(!tmp.exists() && other.exists());
    let fresh_store = Store::new(fresh.path(), plan.t, plan.slice_bytes()).unwrap();
    for k in 0..=plan.t {
        for s in plan.wave(k) {
            let a = std::fs::read(store.data_path(s)).unwrap();
            let b = std::fs::read(fresh_store.data_path(s)).unwrap();
            assert!(
                a == b,
                "slice {s:x}: the resumed table differs from a fresh run's"
            );
            assert_eq!(
                store.record(s).unwrap()["xxh3"],
                fresh_store.record(s).unwrap()["xxh3"]
            );
            assert_eq!(
                store.record(s).unwrap()["counts"],
                fresh_store.record(s).unwrap()["counts"]
            );
        }
    }
}

#[test]
fn slices_prune_keeps_what_finish_reads() {
    let p = problem(Shape::Triangle(6), Take::Max(3), Play::Normal);
    let c = plan::choose(&p, &request(5, true)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = Store::new(dir.path(), c.plan.t, c.plan.slice_bytes()).unwrap();
    let e = Engine::new(&p, &c.plan, store.clone(), 1 << 40).unwrap();
    e.solve_waves(0, c.plan.t, true, &mut |_, _| {}, &|_| {}, &NO)
        .unwrap();
    let kept: usize = (0..=c.plan.t)
        .flat_map(|k| c.plan.wave(k))
        .filter(|&s| store.has_table(s))
        .count();
    let all: usize = (0..=c.plan.t).map(|k| c.plan.wave(k).len()).sum();
    assert!(kept < all, "pruning deleted tables ({kept} of {all} kept)");
    assert_eq!(
        e.finish().unwrap(),
        solve_in_memory(&p, &|_| {}, &NO).unwrap()
    );
}

#[test]
fn slices_plan_round_trips_and_budget_errors() {
    let p = problem(Shape::Triangle(6), Take::Max(3), Play::Misere);
    let c = plan::choose(&p, &request(3, true)).unwrap();
    let v = c.plan.to_json(&p);
    let q = Problem::from_json(&v).unwrap();
    assert_eq!(q.fingerprint(), p.fingerprint());
    let back = Plan::from_json(&q, &v).unwrap();
    assert_eq!(back.order, c.plan.order);
    assert_eq!(back.pieces, c.plan.pieces);
    assert_eq!(back.group, c.plan.group);
    // Another rule does not accept this plan.
    let other = problem(Shape::Triangle(6), Take::Max(2), Play::Misere);
    assert!(Plan::from_json(&other, &v).is_err());
    // A budget below the overhead is refused with the size needed.
    let err = plan::choose(
        &p,
        &Request {
            memory: 1 << 20,
            threads: 1,
            slice_pieces: None,
            symmetry: true,
        },
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("too small") && err.contains("MiB"), "{err}");
    // The smallest t that fits: T8 (2^36 bits = 8 GiB) under 2 GiB on 2
    // threads without symmetry takes t = 3 (1 GiB slices).
    let t8 = problem(Shape::Triangle(8), Take::Max(3), Play::Misere);
    let c = plan::choose(
        &t8,
        &Request {
            memory: 2 << 30,
            threads: 2,
            slice_pieces: None,
            symmetry: false,
        },
    )
    .unwrap();
    assert_eq!(c.plan.t, 3);
    assert!(c.est.memory <= 2 << 30);
}

#[test]
fn slices_parse_rules() {
    assert_eq!(parse_take("max:3").unwrap(), Take::Max(3));
    assert_eq!(parse_take(" any ").unwrap(), Take::Any);
    assert_eq!(parse_take("maximal").unwrap(), Take::Maximal);
    assert!(parse_take("max:0").unwrap_err().contains("max:P"));
    assert!(parse_take("all").is_err());
}

#[test]
fn slices_symmetric_cuts_of_the_big_triangles() {
    // Runs ≤ 3: the six symmetries keep a pairwise independent set of 6
    // slice pieces on T(8) and of 9 on T(9) (unions of orbits), with six
    // in-word pieces beside them.
    for (rows, t) in [(8u32, 6usize), (9, 9)] {
        let p = problem(Shape::Triangle(rows), Take::Max(3), Play::Misere);
        let g = symmetry::automorphisms(&p.board, &p.kmoves);
        assert_eq!(g.len(), 6);
        let (s, b) = plan::choose_sets(&p, &g, t).expect("a symmetric cut");
        assert_eq!(s.len(), t);
        assert!(
            b.len() == 9 || b.len() == 12,
            "in-word pieces and low word bits: {b:?}"
        );
        let plan = Plan::with_cut(&p, s, b, g).unwrap();
        assert!(plan.independent);
        // Burnside: T(8), slice pieces two orbits of 3 (each reflection fixes
        // one piece of each): (2^6 + 3·2^4 + 2·2^2) / 6 = 20 representatives.
        if rows == 8 {
            let reps: usize = (0..=t).map(|k| plan.wave(k).len()).sum();
            assert_eq!(reps, 20);
        }
    }
}
