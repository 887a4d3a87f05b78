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
