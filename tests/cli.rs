//! The real binary, end to end: runs, resumes, bad specs, `solve`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn nimlab(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nimlab"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("nimlab runs")
}

fn fixture(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(p)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).to_string()
}

#[test]
fn run_writes_parquet_tables_and_figures_then_resumes() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = fixture("valid/small.yaml");
    let out = tmp.path().join("out");
    let o = nimlab(
        &[
            "run",
            spec.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let sweep = nimlab::store::SweepDir::new(&out.join("small"), "one-heap");
    let pos = sweep.read("positions").unwrap().unwrap();
    // 3 take sets (max:2, max:3, set:1,3,4) × 2 plays × 2 no_repeat × 21 positions.
    assert_eq!(pos.rows(), 3 * 2 * 2 * 21);
    // Row order follows the sweep: first rule max:2 normal, N = 0..20. L = {0, 3, 6, …}.
    let first: Vec<String> = (0..21)
        .map(|i| pos.cell("outcome", i).unwrap().to_string())
        .collect();
    let want: Vec<&str> = (0..21)
        .map(|n| if n % 3 == 0 { "P" } else { "N" })
        .collect();
    assert_eq!(first, want);
    assert!(out.join("small/one-heap/tables/winning_table.png").exists());
    assert!(out.join("small/one-heap/tables/period_table.md").exists());
    assert!(
        out.join("small/two-heaps/figures/loss_scatter-min_2_max_3.svg")
            .exists()
    );
    assert!(out.join("small/manifest.json").exists());
    // A second run reuses every chunk and gives identical data.
    let o = nimlab(
        &[
            "run",
            spec.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        tmp.path(),
    );
    assert!(o.status.success());
    assert!(
        text(&o.stderr).contains("0 chunks computed"),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(sweep.read("positions").unwrap().unwrap(), pos);
    // --force recomputes, same data.
    let o = nimlab(
        &[
            "run",
            spec.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--force",
        ],
        tmp.path(),
    );
    assert!(o.status.success());
    assert!(
        !text(&o.stderr).contains(" 0 chunks computed"),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(sweep.read("positions").unwrap().unwrap(), pos);
}

/// Each bad spec: exit code 2, a message naming the file, the field and what is
/// allowed, no panic, and no output directory created.
#[test]
fn bad_specs_fail_cleanly() {
    let cases: &[(&str, &[&str])] = &[
        (
            "unknown-key.yaml",
            &["sweeps[0].colour", "unknown field", "allowed here"],
        ),
        (
            "min-gt-max.yaml",
            &["sweeps[0].take", "min (5) is larger than max (3)"],
        ),
        ("empty-range.yaml", &["sweeps[0].N", "empty range 10..2"]),
        (
            "negative-heap.yaml",
            &["sweeps[0].N[2]", "-2 is out of range", "allowed 0"],
        ),
        (
            "misere-misspelled.yaml",
            &["sweeps[0].play", "`normal`, `misere`", "\"misery\""],
        ),
        ("yaml-syntax.yaml", &["not valid YAML"]),
        (
            "unknown-family.yaml",
            &["sweeps[0].family", "unknown family \"chess\"", "takeaway"],
        ),
        (
            "view-not-applicable.yaml",
            &["sweeps[0].outputs[0]", "loss_scatter", "views offered here"],
        ),
        (
            "zero-take.yaml",
            &["sweeps[0].take.max", "0 is out of range"],
        ),
        (
            "missing-take.yaml",
            &["sweeps[0].take", "missing field `take`"],
        ),
        (
            "duplicate-sweep.yaml",
            &["sweeps[1].name", "duplicate sweep name"],
        ),
        ("not-a-map.yaml", &["a spec is a map"]),
    ];
    for (file, needles) in cases {
        let tmp = tempfile::tempdir().unwrap();
        let spec = fixture(&format!("invalid/{file}"));
        let out = tmp.path().join("out");
        let o = nimlab(
            &[
                "run",
                spec.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ],
            tmp.path(),
        );
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{file}: {err}");
        assert!(
            err.contains(file),
            "{file}: the message names the file: {err}"
        );
        for n in *needles {
            assert!(err.contains(n), "{file}: expected {n:?} in: {err}");
        }
        assert!(!err.contains("panicked"), "{file}: {err}");
        assert!(!out.exists(), "{file}: no output is written for a bad spec");
    }
}

#[test]
fn solve_answers_positions() {
    let tmp = tempfile::tempdir().unwrap();
    let o = nimlab(
        &[
            "solve", "takeaway", "--heaps", "3,5,7", "--take", "any", "--play", "misere",
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("outcome: N"), "{out}");
    assert!(out.contains("winning moves: A1, B1, C1"), "{out}");
    let o = nimlab(
        &[
            "solve", "takeaway", "--json", "--heaps", "12", "--take", "max:5",
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["outcome"], "P");
    assert_eq!(v["grundy"], 0);
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 0);
    // Cond(1,3), n = 5, N = 22 (report 004's worked example): winning takes 1, 2, 3.
    let o = nimlab(
        &[
            "solve",
            "takeaway",
            "--json",
            "--heaps",
            "22",
            "--take",
            "max:5",
            "--no-repeat",
            "true",
        ],
        tmp.path(),
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let takes: Vec<u64> = v["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["take"].as_u64().unwrap())
        .collect();
    assert_eq!(takes, vec![1, 2, 3]);
    // Bad input: a clear error, exit 2.
    let o = nimlab(
        &["solve", "takeaway", "--heaps", "3", "--take", "max:0"],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("take.max"), "{}", text(&o.stderr));
    let o = nimlab(&["solve", "chess"], tmp.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("unknown family"));
}

#[test]
fn families_lists_takeaway() {
    let tmp = tempfile::tempdir().unwrap();
    let o = nimlab(&["families"], tmp.path());
    assert!(o.status.success());
    assert!(text(&o.stdout).contains("takeaway"));
}
