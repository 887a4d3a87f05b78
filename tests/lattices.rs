//! The `lattices` dataset through the whole pipeline (spec → solve → store →
//! render), with a snapshot of a small lattice table, and the spec's refusals.
//! Every value in the snapshots is known by hand: take 1..n in normal play is
//! a sum with G(x) = x mod (n+1), so L = {x ≡ y (mod n+1)}, the lattice
//! ⟨(n+1,0), (1,1)⟩ from the origin, proven, one P-position per tile, and
//! ⌊41/(n+1)⌋ × 41 whole tiles in [0, 40]²; take 2..3 with no repeat has the
//! tile AA.B. of 5 points per 25 (checked against the game tree in
//! src/family/takeaway/lattices_tests.rs).

use std::path::Path;
use std::sync::atomic::AtomicBool;

use nimlab::data::Cell;

/// `datasets: [lattices]` needs two or three heaps; the error names the field.
#[test]
fn lattices_need_two_or_three_heaps() {
    let spec = "sweeps:\n  - name: s\n    family: takeaway\n    take: {max: 3}\n    N: 0..10\n    datasets: [lattices]\n";
    let e = nimlab::spec::from_text(spec, Path::new("x.yaml"))
        .err()
        .unwrap();
    assert_eq!(e.field, "sweeps[0].datasets");
    assert!(e.message.contains("heaps: 1"), "{}", e.message);
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The pipeline: the dataset stored and read back (nullable floats
/// included), the lattice table rendered (snapshot), both figures drawn.
#[test]
fn the_lattice_table_and_figures() {
    const SPEC: &str = r#"experiment: lat
title: Lattices
sweeps:
  - name: sums
    family: takeaway
    take: {max: 1..3}
    heaps: 2
    N: 0..40
    datasets: [lattices]
  - name: no-repeat
    family: takeaway
    take: [{min: 2, max: 3}, {min: 2, max: 11}]
    no_repeat: true
    heaps: 2
    N: 0..40
    datasets: [lattices]
"#;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path();
    let e = nimlab::spec::from_text(SPEC, Path::new("lat.yaml")).unwrap();
    let opts = nimlab::sweep::RunOptions {
        out: out.to_path_buf(),
        force: false,
        quiet: true,
        shard: None,
    };
    nimlab::sweep::run_experiment(&e, &opts, &AtomicBool::new(false), &mut false).unwrap();
    nimlab::render::render_experiment(&e, out).unwrap();
    let stored = e.sweeps[1]
        .dir(out, "lat")
        .read("lattices")
        .unwrap()
        .unwrap();
    assert_eq!(stored.rows(), 2);
    assert_eq!(stored.cell("density", 0), Some(Cell::Float(0.2)));
    assert_eq!(stored.cell("density", 1), Some(Cell::Null));
    assert!(!out.join("lat/data/takeaway/positions").exists());
    insta::assert_snapshot!(
        "lattice_table_sums",
        read(&out.join("lat/tables/sums/lattice_table.md"))
    );
    insta::assert_snapshot!(
        "lattice_table_no_repeat",
        read(&out.join("lat/tables/no-repeat/lattice_table.md"))
    );
    for f in ["lattice_tiles", "preperiod_region"] {
        for ext in ["png", "svg"] {
            let p = out.join(format!(
                "lat/figures/no-repeat/{f}-min_2_max_3_no_repeat.{ext}"
            ));
            assert!(p.is_file(), "{}", p.display());
        }
    }
    let svg = read(&out.join("lat/figures/sums/lattice_tiles-max_2.svg"));
    assert!(
        svg.contains("polygon") || svg.contains("path"),
        "the tile and vectors are drawn"
    );
}

/// `points_window` only with the `lattices` dataset; the error names the field.
#[test]
fn points_window_needs_the_lattices_dataset() {
    let spec = "sweeps:\n  - name: s\n    family: takeaway\n    take: {max: 3}\n    heaps: 2\n    N: 0..10\n    points_window: 20\n";
    let e = nimlab::spec::from_text(spec, Path::new("x.yaml"))
        .err()
        .unwrap();
    assert_eq!(e.field, "sweeps[0].points_window");
    assert!(e.message.contains("datasets: [lattices]"), "{}", e.message);
}
