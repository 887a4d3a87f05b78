//! The real binary, end to end: runs, resumes, bad specs, `solve`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::tmux::Tmux;

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

/// Where a sweep's results live.
fn sweep_dir(out: &Path, exp: &str, sweep: &str, family: &str) -> nimlab::store::SweepDir {
    let f = nimlab::family::by_name(family).unwrap();
    nimlab::store::SweepDir::new(out, exp, sweep, family, f.datasets())
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
    let sweep = sweep_dir(&out, "small", "one-heap", "takeaway");
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
    assert!(out.join("small/tables/one-heap/winning_table.png").exists());
    assert!(out.join("small/tables/one-heap/period_table.md").exists());
    assert!(
        out.join("small/figures/two-heaps/loss_scatter-min_2_max_3.svg")
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
        text(&o.stderr).contains("small: 2 sweeps, 13 cases (0 chunks computed, 2 reused)"),
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
    // --force recomputes each sweep's single chunk instead of reusing it.
    assert!(
        text(&o.stderr).contains("small: 2 sweeps, 13 cases (2 chunks computed, 0 reused)"),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(sweep.read("positions").unwrap().unwrap(), pos);
}

/// (fixture under `invalid/`, what its message must name): the cases of
/// [`bad_specs_fail_cleanly`].
const BAD_SPECS: &[(&str, &[&str])] = &[
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
    (
        "not-judged-without-why.yaml",
        &["not_judged[0].why", "missing field `why`"],
    ),
    // Claims are type-checked against the sweep's declared datasets
    // before anything is solved (the sweeps here are valid).
    (
        "claim-misspelt-column.yaml",
        &[
            "field `conjectures[0].claim` (conjecture `bouton-one-heap`)",
            "unknown column `takemax` (did you mean `take_max`?)",
            "nothing was solved or written",
        ],
    ),
    (
        "claim-list-vs-integer.yaml",
        &[
            "field `conjectures[1].claim` (conjecture `single-winning-take`)",
            "cannot compare a list of integers (`winning_moves.take`) with an integer (`N % (take_max + 1)`)",
        ],
    ),
    (
        "claim-unknown-dataset.yaml",
        &[
            "conjectures[0].dataset",
            "conjecture `moves-claim`",
            "no dataset `move`",
            "positions, periods",
        ],
    ),
    (
        "claim-by-unknown-column.yaml",
        &[
            "field `conjectures[0].by` (conjecture `by-k`)",
            "unknown column `k`",
        ],
    ),
    (
        "claim-unknown-sweep.yaml",
        &[
            "conjectures[0].sweep",
            "no sweep named \"one-heaps\"",
            "one-heap",
        ],
    ),
];

/// Each bad spec: exit code 2, a message naming the file, the field and what is
/// allowed, no panic, and no output directory created.
#[test]
fn bad_specs_fail_cleanly() {
    let cases = BAD_SPECS;
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

/// A claim that does not type-check stops the dry run and `check` as it
/// stops `run` (exit 2); a claim that type-checks but cannot be judged
/// (its sweep's data is missing) makes `check` exit 3, and one that holds 0.
#[test]
fn claims_are_checked_before_anything_and_unjudged_ones_exit_3() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let out = out.to_str().unwrap();
    let bad = fixture("invalid/claim-misspelt-column.yaml");
    let bad = bad.to_str().unwrap();
    for args in [
        &["run", bad, "--dry-run", "--out", out][..],
        &["check", bad, "--out", out],
    ] {
        let o = nimlab(args, tmp.path());
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("did you mean `take_max`"), "{args:?}: {err}");
        assert!(!Path::new(out).exists(), "{args:?}: nothing written");
    }
    // Bouton's rule for one heap, take 1..k: P exactly when (k + 1) | N.
    let spec = tmp.path().join("bouton.yaml");
    std::fs::write(
        &spec,
        "sweeps:\n  - name: one-heap\n    family: takeaway\n    take: {max: 2..4}\n    N: 0..40\n    outputs: []\nconjectures:\n  - name: bouton\n    sweep: one-heap\n    claim: 'outcome == \"P\" <=> N % (take_max + 1) == 0'\n",
    )
    .unwrap();
    let spec = spec.to_str().unwrap();
    let o = nimlab(&["check", spec, "--out", out], tmp.path());
    assert_eq!(o.status.code(), Some(3), "{}", text(&o.stdout));
    assert!(text(&o.stdout).contains("no stored results"));
    let o = nimlab(
        &["run", spec, "--out", out, "--quiet", "--no-report"],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = nimlab(&["check", spec, "--out", out], tmp.path());
    assert!(o.status.success(), "{}", text(&o.stdout));
    assert!(
        text(&o.stdout).contains("holds on all 123 rows"),
        "{}",
        text(&o.stdout)
    );
}

/// `nimlab solve ARGS` in `dir`, which must succeed: its JSON answer.
fn solve_json(args: &[&str], dir: &Path) -> serde_json::Value {
    let o = nimlab(args, dir);
    assert!(o.status.success(), "{}", text(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// The takes of a JSON answer's winning moves.
fn winning_takes(v: &serde_json::Value) -> Vec<u64> {
    v["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["take"].as_u64().unwrap())
        .collect()
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
    let v = solve_json(
        &[
            "solve", "takeaway", "--json", "--heaps", "12", "--take", "max:5",
        ],
        tmp.path(),
    );
    assert_eq!(v["outcome"], "P");
    assert_eq!(v["grundy"], 0);
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 0);
    // Cond(1,3), n = 5, N = 22 (report 004's worked example): winning takes 1, 2, 3.
    let v = solve_json(
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
    assert_eq!(winning_takes(&v), vec![1, 2, 3]);
    // `set:1,3,4` on the command line is the take set {1, 3, 4}: by hand,
    // G(0..=10) = 0 1 0 1 2 3 2 0 1 0 1, so from 10 the winning takes are 1 and 3.
    let v = solve_json(
        &[
            "solve",
            "takeaway",
            "--json",
            "--heaps",
            "10",
            "--take",
            "set:1,3,4",
        ],
        tmp.path(),
    );
    assert_eq!(v["grundy"], 1);
    assert_eq!(winning_takes(&v), vec![1, 3]);
    // `--json` may also come after the parameters.
    let v = solve_json(
        &["solve", "parity", "--k", "3", "--r", "10", "--json"],
        tmp.path(),
    );
    assert_eq!(v["family"], "parity");
}

/// Bad input to `solve`: a clear error, exit 2.
#[test]
fn solve_refuses_bad_input() {
    let tmp = tempfile::tempdir().unwrap();
    let o = nimlab(
        &["solve", "takeaway", "--heaps", "3", "--take", "max:0"],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("--take (`max`): 0 is out of range"),
        "{}",
        text(&o.stderr)
    );
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

/// Every dataset of every sweep of an output directory, read back:
/// (`family/dataset`, sweep, rows, part file names).
fn all_data(out: &Path, exp: &str) -> Vec<(String, String, nimlab::data::Table, Vec<String>)> {
    let sorted = |p: &Path| -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(p)
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        v.sort();
        v
    };
    let mut v = Vec::new();
    for fam in sorted(&out.join(exp).join("data")) {
        let family = fam.file_name().unwrap().to_string_lossy().to_string();
        for ds in sorted(&fam) {
            let dataset = ds.file_name().unwrap().to_string_lossy().to_string();
            for sw in sorted(&ds) {
                let name = sw.file_name().unwrap().to_string_lossy().to_string();
                let dir = sweep_dir(out, exp, &name, &family);
                let parts: Vec<String> = dir
                    .parts(&dataset)
                    .iter()
                    .map(|p| p.file_name().unwrap().to_string_lossy().to_string())
                    .collect();
                let t = dir.read(&dataset).unwrap().unwrap();
                v.push((format!("{family}/{dataset}"), name, t, parts));
            }
        }
    }
    v
}

/// Kill a real sweep with SIGKILL at several moments; rerunning completes it and
/// the data equal an uninterrupted run's, row for row, part file for part file.
#[test]
fn killed_sweeps_resume_to_identical_results() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = fixture("valid/resume.yaml");
    let spec = spec.to_str().unwrap();
    let reference = tmp.path().join("ref");
    // Twice: the second run, timed, has this binary's rates cached (the
    // first may measure them), as the killed runs do.
    let mut full_ms = 0;
    for _ in 0..2 {
        let t = std::time::Instant::now();
        let o = nimlab(
            &[
                "run",
                spec,
                "--out",
                reference.to_str().unwrap(),
                "-q",
                "--force",
            ],
            tmp.path(),
        );
        assert!(o.status.success(), "{}", text(&o.stderr));
        full_ms = t.elapsed().as_millis() as u64;
    }
    let want = all_data(&reference, "resume");
    assert!(want.len() >= 4);

    let out = tmp.path().join("killed");
    // Delays spread over the first 5–65 % of a whole run, whatever the
    // machine's speed (a fixed pseudo-random sequence, so failures
    // reproduce); a run after a kill resumes, so it is shorter.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let (mut kills, mut mid_sweep) = (0, 0);
    for _ in 0..5 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let ms = full_ms * (5 + seed % 61) / 100;
        let mut child = Command::new(env!("CARGO_BIN_EXE_nimlab"))
            .args(["run", spec, "--out", out.to_str().unwrap(), "-q"])
            .current_dir(tmp.path())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(ms));
        let killed = child.try_wait().unwrap().is_none();
        if killed {
            child.kill().unwrap(); // SIGKILL
        }
        let _ = child.wait();
        if killed {
            kills += 1;
            // The manifest is written once the sweeps are done: without it,
            // the kill came while they were solved and written.
            mid_sweep += usize::from(!out.join("resume").join("manifest.json").exists());
        }
    }
    assert!(
        kills >= 1 && mid_sweep >= 1,
        "no kill came while the sweeps ran ({kills} kills); make the sweep bigger"
    );
    let o = nimlab(&["run", spec, "--out", out.to_str().unwrap()], tmp.path());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let got = all_data(&out, "resume");
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(&want) {
        assert_eq!((&g.0, &g.1), (&w.0, &w.1));
        assert_eq!(g.3, w.3, "part files of {}/{}", g.0, g.1);
        assert!(g.2 == w.2, "data of {}/{} differ after resuming", g.0, g.1);
    }
    // No temporary file survives the resumed run.
    let stray = walk(&out)
        .into_iter()
        .filter(|p| p.file_name().unwrap().to_string_lossy().contains(".tmp-"))
        .count();
    assert_eq!(stray, 0);
}

fn walk(p: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(p).unwrap().flatten() {
        if e.path().is_dir() {
            v.extend(walk(&e.path()));
        } else {
            v.push(e.path());
        }
    }
    v
}

/// Three shards into three directories, merged, equal one run; a shard run
/// twice changes nothing; merging with a shard missing fails, naming it.
/// Runs `spec` as three shards into `tmp`/shard0..2; returns the directories.
fn run_three_shards(spec: &str, tmp: &Path) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for i in 0..3 {
        let d = tmp.join(format!("shard{i}"));
        let shard = format!("{i}/3");
        let o = nimlab(
            &[
                "run",
                spec,
                "--out",
                d.to_str().unwrap(),
                "--shard",
                &shard,
                "-q",
            ],
            tmp,
        );
        assert!(o.status.success(), "{}", text(&o.stderr));
        assert!(
            d.join(format!("resume/manifest-shard-{i}-of-3.json"))
                .exists()
        );
        dirs.push(d);
    }
    dirs
}

/// `nimlab merge spec --from DIRS --out out` in `tmp`.
fn merge(spec: &str, from: &[PathBuf], out: &Path, tmp: &Path) -> Output {
    let mut args = vec!["merge", spec, "--from"];
    args.extend(from.iter().map(|d| d.to_str().unwrap()));
    args.extend(["--out", out.to_str().unwrap()]);
    nimlab(&args, tmp)
}

/// Three shards into three directories, merged, equal one run; a shard run
/// twice changes nothing; merging with a shard missing fails, naming it.
#[test]
fn shards_merge_to_the_single_run() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = fixture("valid/resume.yaml");
    let spec = spec.to_str().unwrap();
    let single = tmp.path().join("single");
    assert!(
        nimlab(
            &["run", spec, "--out", single.to_str().unwrap(), "-q"],
            tmp.path()
        )
        .status
        .success()
    );
    let dirs = run_three_shards(spec, tmp.path());
    // Requeue safety: running shard 1 again recomputes nothing and changes nothing.
    let before = all_data(&dirs[1], "resume");
    let o = nimlab(
        &[
            "run",
            spec,
            "--out",
            dirs[1].to_str().unwrap(),
            "--shard",
            "1/3",
        ],
        tmp.path(),
    );
    assert!(
        text(&o.stderr).contains("(0 chunks computed"),
        "{}",
        text(&o.stderr)
    );
    assert!(all_data(&dirs[1], "resume") == before);
    // Missing shard: a clear error.
    let o = merge(spec, &dirs[..2], &tmp.path().join("partial"), tmp.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("in none of the shard directories"),
        "{}",
        text(&o.stderr)
    );
    // All three: equal to the single run.
    let merged = tmp.path().join("merged");
    let o = merge(spec, &dirs, &merged, tmp.path());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let (a, b) = (all_data(&single, "resume"), all_data(&merged, "resume"));
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!((&x.0, &x.1, &x.3), (&y.0, &y.1, &y.3));
        assert!(x.2 == y.2, "{}/{} differ", x.0, x.1);
    }
    assert!(
        merged
            .join("resume/tables/intervals/period_table.md")
            .exists()
    );
}

/// `datasets:` keeps only the named datasets (a huge sweep without its
/// one-row-per-position table); the periods are the same as with it.
#[test]
fn datasets_key_skips_the_positions_table() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let o = nimlab(
        &[
            "run",
            fixture("valid/datasets.yaml").to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "-q",
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let dir = sweep_dir(&out, "kept", "only-periods", "takeaway");
    let present: Vec<&str> = dir.present().iter().map(|d| d.name).collect();
    assert_eq!(present, vec!["periods", "loss_sets"]);
    let per = dir.read("periods").unwrap().unwrap();
    // Take 1..n: outcome period n+1 from 0 (L = {k(n+1)}), for n = 2..6, proven.
    let outcome_rows: Vec<usize> = (0..per.rows())
        .filter(|&i| per.cell("values", i).unwrap().to_string() == "outcome")
        .collect();
    let periods: Vec<String> = outcome_rows
        .iter()
        .map(|&i| per.cell("period", i).unwrap().to_string())
        .collect();
    assert_eq!(periods, vec!["3", "4", "5", "6", "7"]);
    assert!(
        outcome_rows
            .iter()
            .all(|&i| per.cell("status", i).unwrap().to_string() == "proven")
    );
}

/// `--version` names the commit the binary was built from (as `git rev-parse
/// HEAD` gives it here, or `unknown` outside a checkout) and a build date;
/// `--help` lists the exit codes.
#[test]
fn version_names_the_commit_and_help_the_exit_codes() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let v = text(&nimlab(&["--version"], here).stdout);
    let head = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(here)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| text(&o.stdout).trim().to_string());
    let commit = v
        .split("commit ")
        .nth(1)
        .unwrap_or("")
        .split([',', '-'])
        .next()
        .unwrap_or("");
    match head {
        Some(h) => assert_eq!(commit, h, "{v}"),
        None => assert_eq!(commit, "unknown", "{v}"),
    }
    let date = v
        .split("built ")
        .nth(1)
        .unwrap_or("")
        .trim()
        .trim_end_matches(')');
    assert!(
        date.len() == 10
            && date.as_bytes()[4] == b'-'
            && date[..4].parse::<u32>().is_ok_and(|y| y >= 2024),
        "{v}"
    );
    let help = text(&nimlab(&["--help"], here).stdout);
    for line in [
        "0    success",
        "1    a conjecture fails",
        "2    usage",
        "130  interrupted",
    ] {
        assert!(help.contains(line), "--help lacks `{line}`:\n{help}");
    }
}

/// A long solve shows its progress in a terminal (what it counts, the memo
/// against its budget, the elapsed time) and nothing when standard error is
/// not a terminal.
#[test]
fn long_solves_show_progress_in_a_terminal_only() {
    // A 55-piece triangle by components takes minutes; it is stopped once seen.
    let cmd = format!(
        "{} solve lines --triangle 10 --take max:3 --play normal --memo_gib 2",
        env!("CARGO_BIN_EXE_nimlab")
    );
    if let Some(term) = Tmux::start("solve-progress", &cmd, 160, 5) {
        let s = term.wait("memo", 20);
        let line = s.lines().find(|l| l.contains("memo")).unwrap();
        assert!(line.starts_with("solving"), "{s}");
        assert!(line.contains(" components · memo "), "{s}");
        assert!(line.contains(" of 2 GiB · "), "{s}");
        assert!(line.contains("s elapsed"), "{s}");
    }
    // Not a terminal (a pipe): the answer only.
    let o = nimlab(
        &[
            "solve",
            "lines",
            "--trapezoid",
            "2,4",
            "--take",
            "max:2",
            "--play",
            "misere",
        ],
        Path::new("."),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stderr), "");
    assert!(text(&o.stdout).contains("outcome:"));
}

/// `run --list` prints the experiments' names, one a line, and runs nothing
/// (the Slurm submit script reads it).
#[test]
fn run_list_prints_the_experiment_names() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let o = nimlab(
        &[
            "run",
            fixture("valid/small.yaml").to_str().unwrap(),
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("experiments/report-003.yaml")
                .to_str()
                .unwrap(),
            "--list",
            "--out",
            out.to_str().unwrap(),
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), "small\nreport-003\n");
    assert!(!out.exists(), "nothing is run");
}
