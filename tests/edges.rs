//! Rough edges (issue 15): inputs that must never abort, closed pipes.

use std::io::Read as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn nimlab(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nimlab"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("nimlab runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).to_string()
}

const NIM6: &str = "experiment: nim6\nsweeps:\n  - name: six\n    family: takeaway\n    take: any\n    heaps: 6\n    N: 0..200\n";

#[test]
fn a_sweep_beyond_memory_is_refused_up_front() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("nim6.yaml"), NIM6).unwrap();
    let o = nimlab(&["run", "nim6.yaml", "--out", "out"], dir.path());
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("too big to run"), "{err}");
    assert!(err.contains("of memory; the limit is"), "{err}");
    assert!(err.contains("read from the system"), "{err}");
    assert!(
        err.contains("dataset `positions` would have about 6.594e13 rows"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert!(!dir.path().join("out/nim6").exists(), "nothing written");

    let o = nimlab(&["run", "nim6.yaml", "--dry-run"], dir.path());
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(out.contains("six: REFUSED"), "{out}");
    assert!(!out.contains("21130788766"), "{out}");
}

/// The guard counts the component memo's budget (`memo_gib`) and a period's
/// horizon extended up to `proof_cap` on every thread: a sweep beyond this
/// machine's memory is refused before anything runs, and the dry run prints
/// the same finding.
#[test]
fn the_memo_budget_and_horizon_extensions_are_counted_up_front() {
    let dir = tempfile::tempdir().unwrap();
    let memo = "sweeps:\n  - name: t10\n    family: lines\n    board: {triangle: 10}\n    take: {max: 3}\n    play: normal\n    memo_gib: 4096\n";
    // No_repeat joint tables: 21 bytes per heap size, to 2^28 heap sizes.
    let per_case = 21u64 << 28;
    let threads = (nimlab::mem::case_budget() / per_case + 1).to_string();
    // Heaps to 10^6, so that each case is a chunk of its own: a chunk's
    // cases are solved in turn, one at a time.
    let proof = "sweeps:\n  - name: long\n    family: takeaway\n    take: {max: 2..80}\n    no_repeat: true\n    N: 0..1000000\n    datasets: [periods]\n    proof_cap: 268435456\n";
    for (name, spec, needle, args) in [
        ("memo", memo, "Lower `memo_gib`", &[][..]),
        (
            "proof",
            proof,
            "lower `proof_cap`",
            &["--threads", threads.as_str()][..],
        ),
    ] {
        let file = format!("{name}.yaml");
        std::fs::write(dir.path().join(&file), spec).unwrap();
        let run = |extra: &[&str]| {
            let mut a: Vec<&str> = args.to_vec();
            a.extend(["run", file.as_str(), "--out", "out"]);
            a.extend(extra);
            nimlab(&a, dir.path())
        };
        let o = run(&[]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(
            err.contains("too big to run") && err.contains(needle),
            "{name}: {err}"
        );
        assert!(!dir.path().join("out").exists(), "{name}: nothing written");
        let finding = err
            .lines()
            .find(|l| l.contains(needle))
            .unwrap()
            .trim_start_matches("  - ");
        let o = run(&["--dry-run"]);
        let out = text(&o.stdout);
        assert_eq!(o.status.code(), Some(2), "{name}: {out}");
        assert!(
            out.contains(finding),
            "{name}: the dry run says the same: {out}\n{finding}"
        );
    }
}

#[test]
fn a_sweep_with_too_many_rows_is_refused() {
    // 2 heaps of 0..40000: 1.6e9 positions rows (more than 1e9) but the
    // one-heap XOR table is tiny.
    let dir = tempfile::tempdir().unwrap();
    let spec = "experiment: big\nsweeps:\n  - name: two\n    family: takeaway\n    take: {max: 3}\n    heaps: 2\n    N: 0..40000\n";
    std::fs::write(dir.path().join("big.yaml"), spec).unwrap();
    let o = nimlab(&["run", "big.yaml", "--dry-run"], dir.path());
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(out.contains("1.600e9 rows"), "{out}");
}

/// Runs nimlab with its standard output a pipe that is closed before nimlab
/// writes (the reader exits at once, as `| head -0` would).
fn closed_pipe(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nimlab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nimlab runs");
    drop(child.stdout.take());
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    Output {
        status,
        stdout: Vec::new(),
        stderr: err.into_bytes(),
    }
}

#[test]
fn a_closed_pipe_ends_quietly_with_exit_0() {
    let cases: &[&[&str]] = &[
        &["families"],
        &["datasets"],
        &["solve", "takeaway", "--heaps", "3,5,7", "--take", "any"],
        &[
            "solve", "takeaway", "--heaps", "3,5,7", "--take", "any", "--json",
        ],
        &[
            "solve",
            "parity",
            "--k",
            "3",
            "--r",
            "17",
            "--variant",
            "odd_wins",
        ],
        &["run", "tests/fixtures/valid/small.yaml", "--dry-run"],
        &[
            "check",
            "tests/fixtures/valid/small.yaml",
            "--out",
            "/nonexistent-nimlab-out",
        ],
    ];
    for args in cases {
        for _ in 0..3 {
            let o = closed_pipe(args);
            let err = text(&o.stderr);
            assert!(!err.contains("panicked"), "{args:?}: {err}");
            assert!(!err.contains("Broken pipe"), "{args:?}: {err}");
            if args[0] != "check" {
                assert_eq!(o.status.code(), Some(0), "{args:?}: {err}");
            }
        }
    }
}

fn run_spec(dir: &Path, name: &str, spec: &str) -> Output {
    std::fs::write(dir.join(format!("{name}.yaml")), spec).unwrap();
    let o = nimlab(
        &[
            "run",
            &format!("{name}.yaml"),
            "--out",
            "out",
            "--no-report",
        ],
        dir,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    o
}

fn sweep_spec(name: &str, heaps: &str, extra: &str) -> String {
    format!(
        "experiment: {name}\nsweeps:\n  - name: s\n    family: takeaway\n    take: [{{max: 3}}, {{set: [1, 4]}}]\n    heaps: {heaps}\n    N: 0..7\n{extra}"
    )
}

#[test]
fn a_list_of_heap_counts_is_one_case_per_count() {
    // `heaps: [1, 2]` gives the tables and figures of `heaps: 1` and of
    // `heaps: 2`, file for file, from one sweep.
    let dir = tempfile::tempdir().unwrap();
    let o = run_spec(dir.path(), "both", &sweep_spec("both", "[1, 2]", ""));
    assert!(
        text(&o.stderr).contains("both/s: 4 cases"),
        "{}",
        text(&o.stderr)
    );
    run_spec(dir.path(), "one", &sweep_spec("one", "1", ""));
    run_spec(dir.path(), "two", &sweep_spec("two", "2", ""));
    let file = |exp: &str, f: &str| {
        std::fs::read_to_string(dir.path().join(format!("out/{exp}/{f}")))
            .unwrap_or_else(|e| panic!("{exp}/{f}: {e}"))
    };
    for f in [
        "tables/s/winning_table.md",
        "tables/s/loss_sets.md",
        "tables/s/period_table.md",
    ] {
        assert_eq!(file("both", f), file("one", f), "{f}");
    }
    for f in [
        "tables/s/move_table-max_3.md",
        "tables/s/move_table-set_1_4.md",
        "figures/s/loss_scatter-max_3.svg",
    ] {
        assert_eq!(file("both", f), file("two", f), "{f}");
    }
    // The P-positions of both counts: one heap's under N, two heaps' under N1, N2.
    let p = file("both", "tables/s/p_positions.csv");
    assert!(p.starts_with("rule,N,N1,N2\n"), "{p}");
    assert!(p.contains("max:3,4,,\n"), "{p}");
    assert!(p.contains("max:3,,1,5\n"), "{p}");
    // The two-heap listing is unchanged: no empty `N` column.
    assert!(file("two", "tables/s/p_positions.csv").starts_with("rule,N1,N2\n"));

    for (heaps, why) in [
        ("[1, 1]", "listed twice"),
        ("[1, 7]", "out of range"),
        ("[]", "empty list"),
    ] {
        std::fs::write(dir.path().join("bad.yaml"), sweep_spec("bad", heaps, "")).unwrap();
        let o = nimlab(&["run", "bad.yaml", "--dry-run"], dir.path());
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{heaps}: {err}");
        assert!(
            err.contains("sweeps[0].heaps") && err.contains(why),
            "{heaps}: {err}"
        );
    }
    // N3 with at most two heaps is refused.
    std::fs::write(
        dir.path().join("bad.yaml"),
        sweep_spec("bad", "[1, 2]", "    N3: 0..2\n"),
    )
    .unwrap();
    let err = text(&nimlab(&["run", "bad.yaml", "--dry-run"], dir.path()).stderr);
    assert!(
        err.contains("sweeps[0].N3") && err.contains("only 2 heap"),
        "{err}"
    );
}

#[test]
fn outputs_empty_means_data_only() {
    let dir = tempfile::tempdir().unwrap();
    run_spec(
        dir.path(),
        "data",
        &sweep_spec("data", "[1, 2]", "    outputs: []\n"),
    );
    let root = dir.path().join("out/data");
    for d in ["positions", "periods", "loss_sets"] {
        let parts = std::fs::read_dir(root.join(format!("data/takeaway/{d}/s")))
            .unwrap_or_else(|e| panic!("{d}: {e}"))
            .count();
        assert!(parts > 0, "{d}");
    }
    assert!(!root.join("tables").exists(), "no tables");
    assert!(!root.join("figures").exists(), "no figures");
}

#[test]
fn run_and_render_without_a_spec_outside_the_repository_say_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    for cmd in ["run", "render", "check"] {
        let o = nimlab(&[cmd], dir.path());
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{cmd}: {err}");
        assert!(err.contains("no spec given"), "{cmd}: {err}");
        assert!(
            err.contains("nimlab run my-sweep.yaml") || err.contains("nimlab render my-sweep.yaml"),
            "{cmd}: {err}"
        );
        assert!(!err.contains("panicked"), "{cmd}: {err}");
    }
    // An empty experiments/ folder is no better.
    std::fs::create_dir(dir.path().join("experiments")).unwrap();
    let o = nimlab(&["run"], dir.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("no spec given"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn render_without_a_spec_redraws_what_the_output_folder_holds() {
    let dir = tempfile::tempdir().unwrap();
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/valid/small.yaml");
    let o = nimlab(
        &[
            "run",
            spec.to_str().unwrap(),
            "--out",
            "res",
            "-q",
            "--no-report",
        ],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let fig = dir
        .path()
        .join("res/small/figures/two-heaps/loss_scatter-min_2_max_3.png");
    let table = dir
        .path()
        .join("res/small/tables/one-heap/winning_table.md");
    let before = std::fs::read(&table).unwrap();
    std::fs::remove_file(&fig).unwrap();
    std::fs::remove_file(&table).unwrap();
    let o = nimlab(&["render", "--out", "res"], dir.path());
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("small/one-heap:") && err.contains("files rendered"),
        "{err}"
    );
    assert!(fig.is_file(), "{err}");
    assert_eq!(std::fs::read(&table).unwrap(), before);
}
