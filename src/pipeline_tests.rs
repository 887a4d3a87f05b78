//! The whole pipeline in-process on the test-only `toy` family
//! ([`crate::family::toy`]): plan → solve → store →
//! render → check → report, with snapshots of what is written. Every value
//! in the snapshots is known by hand: G(N) = N mod (k+1), the winning take
//! from N is N mod (k+1), P-positions are the multiples of k+1.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use crate::{check, render, report, spec, sweep};

const SPEC: &str = r#"experiment: toy
title: Take 1..k
sweeps:
  - name: small
    family: toy
    reach: 1..2
    pebbles: 0..6
conjectures:
  - name: multiples
    sweep: small
    claim: 'outcome == "P" <=> pebbles % (reach + 1) == 0'
    source: "by hand"
  - name: wrong
    sweep: small
    claim: 'outcome == "P" <=> pebbles % 2 == 0'
    says: "the even heaps lose (true only for k = 1)"
  - name: wrong-by-k
    sweep: small
    claim: 'outcome == "P" <=> pebbles % 2 == 0'
    by: reach
    reading: "judged for each k"
  - name: takes
    sweep: small
    where: 'outcome == "N"'
    claim: 'good_grabs == [pebbles % (reach + 1)]'
"#;

fn run(out: &Path) -> spec::Experiment {
    let e = spec::from_text(SPEC, Path::new("toy.yaml")).unwrap();
    let opts = sweep::RunOptions::quiet(out);
    sweep::run_experiment(&e, &opts, &AtomicBool::new(false), &mut false).unwrap();
    render::render_experiment(&e, out).unwrap();
    e
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn the_pipeline_writes_typed_data_tables_verdicts_and_a_report() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path();
    let e = run(out);
    // Typed data, in the documented layout, every row traced to its sweep.
    let d = e.sweeps[0].dir(out, "toy");
    let pos = d.read("toy_piles").unwrap().unwrap();
    assert_eq!(pos.rows(), 2 * 7);
    assert_eq!(
        pos.cell("experiment", 0),
        Some(crate::data::Cell::Str("toy"))
    );
    assert_eq!(pos.cell("sweep", 13), Some(crate::data::Cell::Str("small")));
    assert!(out.join("toy/data/toy/toy_piles/small").is_dir());
    // Rendered tables, as the reports print them.
    insta::assert_snapshot!(
        "winning_table",
        read(&out.join("toy/tables/small/winning_table.md"))
    );
    insta::assert_snapshot!(
        "winning_table_csv",
        read(&out.join("toy/tables/small/winning_table.csv"))
    );
    insta::assert_snapshot!(
        "period_table",
        read(&out.join("toy/tables/small/period_table.md"))
    );
    assert!(out.join("toy/tables/small/winning_table.png").is_file());
    // Verdicts: keys and counterexamples come from the declared roles.
    let results = check::write_conjectures(&e, out).unwrap();
    let verdicts: Vec<_> = results.iter().map(|r| r.verdict()).collect();
    assert_eq!(
        verdicts,
        [
            check::Verdict::Holds,
            check::Verdict::Fails,
            check::Verdict::Partly,
            check::Verdict::Holds
        ]
    );
    insta::assert_snapshot!("conjectures", read(&out.join("toy/conjectures.md")));
    // The report names the closed form the period table declares.
    let summary = report::write_report(std::slice::from_ref(&e), out).unwrap();
    assert_eq!(summary.experiments, 1);
    assert_eq!(
        summary.counts,
        [
            ("holds".into(), 2),
            ("fails".into(), 1),
            ("partly".into(), 1)
        ]
    );
    let md = read(&out.join("REPORT-toy.md"));
    assert!(md.contains("pebbles ≥ 0 and pebbles mod 3 ∈ {0}"), "{md}");
    assert!(
        md.contains("[toy_piles](toy/data/toy/toy_piles/small/)"),
        "{md}"
    );
    // The first page: one line per claim, its verdict, one sentence of
    // evidence in the rows' own terms (take 1..2: the P-positions are the
    // multiples of 3, so "even heaps lose" fails first at 2, 3 and 4) and a
    // link to the evidence.
    let first = read(&out.join("REPORT.md"));
    assert!(
        first.contains("**FAILS** [wrong](REPORT-toy.md#claim-toy-wrong) — the even heaps lose (true only for k = 1) — Fails for take 1..2, pebbles = 2, 3, 4 (3 of 14 cases)"),
        "{first}"
    );
    assert!(read(&out.join("REPORT.html")).contains("<details id=\"sweep-toy-small\">"));
}

#[test]
fn the_report_is_rebuilt_only_where_the_data_changed() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path();
    let e = run(out);
    let exps = std::slice::from_ref(&e);
    report::write_report(exps, out).unwrap();
    let cached = out.join("toy/_report/small.json");
    let first = read(&cached);
    // A cached section is used as it is: a marker planted in it shows up.
    let planted = first.replace("family `toy`", "family `toy` (from the cache)");
    assert_ne!(planted, first);
    std::fs::write(&cached, &planted).unwrap();
    report::write_report(exps, out).unwrap();
    assert!(read(&out.join("REPORT-toy.md")).contains("(from the cache)"));
    // Other data (a different checksum in the manifest): rebuilt.
    let manifest = out.join("toy/manifest.json");
    let m = read(&manifest);
    let re = m.replacen("\"xxh3_of_parts\": \"", "\"xxh3_of_parts\": \"0", 1);
    assert_ne!(re, m);
    std::fs::write(&manifest, re).unwrap();
    report::write_report(exps, out).unwrap();
    assert!(!read(&out.join("REPORT-toy.md")).contains("(from the cache)"));
    // Asked to rebuild: rebuilt even when the cache is fresh.
    std::fs::write(
        &cached,
        read(&cached).replace("family `toy`", "family `toy` (from the cache)"),
    )
    .unwrap();
    let opts = report::ReportOptions {
        rebuild: true,
        quiet: true,
    };
    report::write_report_with(exps, out, opts).unwrap();
    assert!(!read(&out.join("REPORT-toy.md")).contains("(from the cache)"));
}

#[test]
fn a_rerun_reuses_every_chunk_and_writes_the_same_files() {
    let dir = tempfile::tempdir().unwrap();
    run(dir.path());
    let first = read(&dir.path().join("toy/tables/small/winning_table.md"));
    let part = |p: &Path| {
        let d = p.join("toy/data/toy/toy_piles/small");
        let mut v: Vec<_> = std::fs::read_dir(d)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        v.sort();
        std::fs::read(&v[0]).unwrap()
    };
    let bytes = part(dir.path());
    run(dir.path());
    assert_eq!(
        read(&dir.path().join("toy/tables/small/winning_table.md")),
        first
    );
    assert_eq!(part(dir.path()), bytes);
}

#[test]
fn a_case_emitting_an_undeclared_column_fails_the_run_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let text =
        "sweeps:\n  - name: s\n    family: toy\n    reach: 1\n    pebbles: 0..3\n    bad: true\n";
    let e = spec::from_text(text, Path::new("bad.yaml")).unwrap();
    let opts = sweep::RunOptions::quiet(dir.path());
    let err = sweep::run_experiment(&e, &opts, &AtomicBool::new(false), &mut false).unwrap_err();
    let msg = format!("{err:#}");
    assert!(msg.contains("column surprise is not declared"), "{msg}");
    assert!(!dir.path().join("bad/data/toy/toy_piles/s").exists());
}

/// The run tells each sweep's estimate whether the process has written a
/// part: a sweep that solves and writes its chunks sets it, one whose chunks
/// are all reused writes nothing and leaves it as it was.
#[test]
fn a_run_says_whether_it_has_written_a_part() {
    let dir = tempfile::tempdir().unwrap();
    let e = spec::from_text(SPEC, Path::new("toy.yaml")).unwrap();
    let opts = sweep::RunOptions::quiet(dir.path());
    let mut wrote = false;
    let first = sweep::run_experiment(&e, &opts, &AtomicBool::new(false), &mut wrote).unwrap();
    assert!(first[0].computed > 0 && first[0].wrote_parts);
    assert!(wrote, "the run's first sweep wrote parts");
    // Again: every chunk is found finished, nothing is written.
    let mut wrote = false;
    let again = sweep::run_experiment(&e, &opts, &AtomicBool::new(false), &mut wrote).unwrap();
    assert_eq!((again[0].computed, again[0].wrote_parts), (0, false));
    assert!(!wrote, "a run reusing every chunk wrote nothing");
    // A process that had written before (an earlier experiment) stays so.
    let mut wrote = true;
    sweep::run_experiment(&e, &opts, &AtomicBool::new(false), &mut wrote).unwrap();
    assert!(wrote);
}

/// A dry run estimates what a run would do: everything on a fresh output,
/// nothing once it is done, the one chunk whose record is gone, and a
/// shard's share (the shares adding up to the whole).
#[test]
fn what_is_left_to_do_is_counted_by_chunks() {
    let dir = tempfile::tempdir().unwrap();
    // Three cases of 2^20 + 1 positions: a chunk each.
    let text = "experiment: toy\nsweeps:\n  - name: small\n    family: toy\n    reach: 1..3\n    pebbles: 0..1048576\n";
    let e = spec::from_text(text, Path::new("toy.yaml")).unwrap();
    let sw = &e.sweeps[0];
    let cases = sw.plan().unwrap().cases.len();
    let left = |opts: &sweep::RunOptions| {
        let (plan, counts) = sweep::left_to_do(&e, sw, sw.plan().unwrap(), opts);
        (plan.cases.len(), counts)
    };
    let opts = sweep::RunOptions::quiet(dir.path());
    let (n, [todo, mine, all]) = left(&opts);
    assert!(all >= 2, "{all} chunks");
    assert_eq!((n, todo, mine), (cases, all, all));
    sweep::run_experiment(&e, &opts, &AtomicBool::new(false), &mut false).unwrap();
    assert_eq!(left(&opts), (0, [0, all, all]));
    let records = dir.path().join("toy/_chunks/small");
    let first = std::fs::read_dir(&records)
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    std::fs::remove_file(first.path()).unwrap();
    let (n, [todo, _, _]) = left(&opts);
    assert_eq!(todo, 1);
    assert!(n >= 1 && n < cases, "{n} of {cases} cases");
    let mut shares = 0;
    for i in 0..2 {
        let o = sweep::RunOptions {
            force: true,
            shard: Some((i, 2)),
            ..sweep::RunOptions::quiet(dir.path())
        };
        let (_, [todo, mine, all2]) = left(&o);
        assert_eq!((todo, all2), (mine, all));
        shares += mine;
    }
    assert_eq!(shares, all);
}

/// The rules family through the whole pipeline, its grid parameters: two
/// sweeps of one experiment with different parameters, every file of a
/// dataset has both columns (null where a sweep lacks one), claims read
/// them, and the values are the subtraction game's.
#[test]
fn an_experiment_s_parameters_are_columns_of_every_file() {
    let text = r#"experiment: grid
sweeps:
  - name: by-j
    family: rules
    move: "t <= j"
    j: 1..3
    N: 0..20
  - name: by-limit
    family: rules
    move: "t <= limit and t != last"
    limit: [3]
    N: 0..9
conjectures:
  - name: multiples
    sweep: by-j
    claim: 'outcome == "P" <=> N % (j + 1) == 0'
  - name: limit-only
    sweep: by-limit
    claim: 'is_null(j) and limit == 3'
"#;
    let e = spec::from_text(text, std::path::Path::new("grid.yaml")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    sweep::run_quietly(&e, dir.path());
    let mut schemas = Vec::new();
    for s in &e.sweeps {
        let d = s.dir(dir.path(), &e.name);
        let ds = d.dataset("rule_positions").unwrap();
        for p in d.parts("rule_positions") {
            let t = crate::store::parquet::read_part(&p, ds).unwrap();
            let names: Vec<String> = t.columns().iter().map(|(n, _)| n.clone()).collect();
            assert!(
                names.ends_with(&["j".to_string(), "limit".to_string()]),
                "{names:?}"
            );
            schemas.push(names);
        }
    }
    assert!(schemas.len() >= 2 && schemas.windows(2).all(|w| w[0] == w[1]));
    for r in check::write_conjectures(&e, dir.path()).unwrap() {
        let v = r.verdict();
        assert_eq!(
            v,
            check::Verdict::Holds,
            "{}: {}",
            r.conjecture.name,
            r.verdict_text()
        );
    }
}

/// The stages read a column of lists only where they name it
/// ([`crate::store::SweepDir::read_lists_named`]): without it the same
/// rows and every other column, cell for cell; named, it is there too.
#[test]
fn a_list_not_named_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let e = run(dir.path());
    let d = e.sweeps[0].dir(dir.path(), "toy");
    let all = d.read("toy_piles").unwrap().unwrap();
    let some = d
        .read_lists_named("toy_piles", &|_| false)
        .unwrap()
        .unwrap();
    assert!(all.column("good_grabs").is_some());
    assert!(some.column("good_grabs").is_none());
    assert_eq!(some.columns().len() + 1, all.columns().len());
    assert_eq!(some.rows(), all.rows());
    for (name, _) in some.columns() {
        for row in 0..all.rows() {
            assert_eq!(some.cell(name, row), all.cell(name, row), "{name} {row}");
        }
    }
    let named = d
        .read_lists_named("toy_piles", &|n| n == "good_grabs")
        .unwrap()
        .unwrap();
    assert_eq!(named.columns().len(), all.columns().len());
    assert_eq!(named.cell("good_grabs", 3), all.cell("good_grabs", 3));
}
