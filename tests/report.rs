//! `nimlab run` ends with OUT/REPORT.md and OUT/REPORT.html; `nimlab report`
//! rebuilds them from stored results.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn nimlab(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nimlab"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("cannot start nimlab")
}

fn fixture(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(p)
}

fn ok(o: &Output) {
    assert!(
        o.status.success(),
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn run_writes_the_report_and_report_rebuilds_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = out.to_str().unwrap();
    let small = fixture("valid/small.yaml");
    let claims = fixture("report/claims.yaml");
    ok(&nimlab(
        &[
            "run",
            small.to_str().unwrap(),
            claims.to_str().unwrap(),
            "--out",
            o,
            "-q",
        ],
        dir.path(),
    ));
    let md = std::fs::read_to_string(out.join("REPORT.md")).unwrap();
    let html = std::fs::read_to_string(out.join("REPORT.html")).unwrap();

    // Summary at the top: verdict counts over all claims, the failing claim
    // with its first counterexample (take 1..2, N = 3 is a loss but 3 % 4 ≠ 0).
    let top = &md[..md.find("## Experiments").expect("experiments index")];
    assert!(
        top.contains(
            "2 experiments, 3 claims: 1 holds, 1 fails, 0 partly, 1 vacuous, 0 undetermined, 0 error."
        ),
        "{top}"
    );
    assert!(top.contains("## Failing claims"), "{top}");
    assert!(top.contains("claims / wrong-modulus-fails"), "{top}");
    assert!(top.contains("rule=max:2, N=3"), "{top}");
    assert!(!top.contains("cond1-holds"), "{top}");

    // Per experiment and sweep: sections, data links, tables, formulas, verdicts.
    for s in [
        "## claims — Report fixture: three conjectures",
        "A holding, a failing and a vacuous claim.",
        "## small — ",
        "### small / one-heap",
        "### small / two-heaps",
        "[positions](small/data/takeaway/positions/one-heap/)",
        "**Proposed formulas**",
        "N ≥ 0 and N mod 3 ∈ {0}",
        "**Proposed formulas for the loss sets over (N1, N2)**",
        "`min:2,max:3`: ⌊(N1 mod q)/m⌋ = ⌊(N2 mod q)/m⌋ (q = 5, m = 2",
        "### claims: conjectures",
        "3 claims: 1 holds, 1 fails, 1 vacuous.",
        "| holds |",
        "| **FAILS** |",
        "| *vacuous* |",
        "vacuous: no row of 169 matched the filter",
        "[one-heap / positions](claims/data/takeaway/positions/one-heap/)",
    ] {
        assert!(md.contains(s), "REPORT.md lacks {s:?}");
    }
    assert!(out.join("small/tables/two-heaps/forms.md").is_file());
    // Every inlined picture exists, relative to the report.
    let imgs: Vec<&str> = html
        .split("<img src=\"")
        .skip(1)
        .map(|s| &s[..s.find('"').unwrap()])
        .collect();
    assert!(!imgs.is_empty());
    for i in &imgs {
        assert!(out.join(i).is_file(), "missing picture {i}");
        assert!(md.contains(&format!("]({i})")), "{i} not in REPORT.md");
    }
    // Plain HTML: no script, no external asset.
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(!html.contains("<script") && !html.contains("http://") && !html.contains("https://"));
    assert!(html.contains("<strong>FAILS</strong>"));

    // `nimlab report` without specs finds both experiments through their
    // manifests and writes the same report, without solving.
    std::fs::remove_file(out.join("REPORT.md")).unwrap();
    let r = nimlab(&["report", "--out", o], dir.path());
    ok(&r);
    assert!(String::from_utf8_lossy(&r.stderr).contains("1 holds, 1 fails, 0 partly, 1 vacuous"));
    assert_eq!(std::fs::read_to_string(out.join("REPORT.md")).unwrap(), md);

    // An empty output directory is an error that says what to do.
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let e = nimlab(&["report", "--out", empty.to_str().unwrap()], dir.path());
    assert!(!e.status.success());
    assert!(String::from_utf8_lossy(&e.stderr).contains("nimlab run"));
}
