//! `nimlab board` end to end: sliced solves against the in-memory solve and
//! against `nimlab solve lines`, the Slurm task sequence run by hand, the
//! datasets it writes, and bad arguments.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

fn nimlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nimlab"))
        .args(args)
        .output()
        .expect("nimlab runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).to_string()
}

/// Runs nimlab, expects success, returns stdout.
fn ok(args: &[&str]) -> String {
    let o = nimlab(args);
    assert!(
        o.status.success(),
        "nimlab {args:?} failed: {}",
        text(&o.stderr)
    );
    text(&o.stdout)
}

/// Runs nimlab, expects a clean failure (no panic), returns stderr.
fn fails(args: &[&str]) -> String {
    let o = nimlab(args);
    let err = text(&o.stderr);
    assert!(!o.status.success(), "nimlab {args:?} succeeded");
    assert!(!err.contains("panicked"), "nimlab {args:?} panicked: {err}");
    err
}

fn json(s: &str) -> Value {
    serde_json::from_str(s).unwrap_or_else(|e| panic!("not JSON ({e}): {s}"))
}

/// `[(positions, p_positions)]` by pieces left, from a board answer's JSON.
fn board_counts(v: &Value) -> Vec<(u64, u64)> {
    v["counts"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(k, c)| {
            assert_eq!(c["pieces_left"], k as u64);
            (
                c["positions"].as_u64().unwrap(),
                c["p_positions"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// A board's answer through slice files equals the in-memory one (text, byte
/// for byte) and `nimlab solve lines --counts true` (counts, outcome, the
/// winning runs as sets of end points).
fn check_against_in_memory(board: &[&str], cut: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("b");
    let d = d.to_str().unwrap();
    let mut sliced = vec!["board", "lines", "solve", "--dir", d];
    sliced.extend(board);
    sliced.extend(cut);
    let got = ok(&sliced);
    let mut whole = vec!["board", "lines", "solve", "--in-memory"];
    whole.extend(board);
    let want = ok(&whole);
    assert_eq!(got, want, "{board:?} {cut:?}");
    assert_eq!(
        std::fs::read_to_string(Path::new(d).join("result.txt")).unwrap(),
        want
    );
    whole.push("--json");
    let b = json(&ok(&whole));
    let mut solve = vec!["solve", "lines", "--counts", "true", "--json"];
    solve.extend(board);
    let s = json(&ok(&solve));
    let solve_counts: Vec<(u64, u64)> = s["details"]["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["positions"].as_u64().unwrap(),
                c["p_positions"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(board_counts(&b), solve_counts, "{board:?}");
    assert_eq!(b["outcome"], s["outcome"], "{board:?}");
    let mut runs: Vec<[i64; 4]> = b["winning_runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let f = |k: &str| r[k].as_i64().unwrap();
            [f("q0"), f("r0"), f("q1"), f("r1")]
        })
        .collect();
    let mut solve_runs: Vec<[i64; 4]> = s["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let c = m["cells"].as_array().unwrap();
            let p = |i: usize, j: usize| c[i][j].as_i64().unwrap();
            [p(0, 0), p(0, 1), p(c.len() - 1, 0), p(c.len() - 1, 1)]
        })
        .collect();
    let norm = |v: &mut Vec<[i64; 4]>| {
        for r in v.iter_mut() {
            if (r[2], r[3]) < (r[0], r[1]) {
                *r = [r[2], r[3], r[0], r[1]];
            }
        }
        v.sort();
    };
    norm(&mut runs);
    norm(&mut solve_runs);
    assert_eq!(runs, solve_runs, "{board:?}");
    assert_eq!(b["winning_move_count"], runs.len() as u64);
}

#[test]
fn board_solve_in_slices_equals_in_memory_and_solve_lines() {
    let t5 = ["--triangle", "5", "--take", "max:3"];
    for (play, cut) in [
        ("misere", ["--slice-pieces", "3", "--symmetry", "on"]),
        ("misere", ["--slice-pieces", "9", "--symmetry", "off"]),
        ("normal", ["--slice-pieces", "4", "--symmetry", "on"]),
        ("normal", ["--slice-pieces", "2", "--symmetry", "off"]),
    ] {
        let mut board = t5.to_vec();
        board.extend(["--play", play]);
        check_against_in_memory(&board, &cut);
    }
    check_against_in_memory(
        &["--triangle", "6", "--take", "any", "--play", "misere"],
        &["--slice-pieces", "4"],
    );
    check_against_in_memory(
        &[
            "--hexagon",
            "3,3,3,3,3,3",
            "--take",
            "max:2",
            "--play",
            "misere",
        ],
        &["--slice-pieces", "6"],
    );
    check_against_in_memory(
        &[
            "--mask",
            "OOO./OOOO/.OOO",
            "--take",
            "maximal",
            "--play",
            "normal",
        ],
        &["--slice-pieces", "4", "--symmetry", "off"],
    );
}

#[test]
fn board_counts_of_t5_by_hand() {
    // Misère: no piece left is N (the last mover lost), one piece P (it must
    // be taken), two pieces N (take one). Normal play: no piece P, one N, two
    // P exactly when they are not adjacent (no run takes both): C(15, 2) = 105
    // pairs, 30 of them adjacent (3 directions × 10 edges in T(5)).
    let dir = tempfile::tempdir().unwrap();
    for (play, want) in [("misere", [0, 15, 0]), ("normal", [1, 0, 75])] {
        let d = dir.path().join(play);
        let v = json(&ok(&[
            "board",
            "lines",
            "solve",
            "--triangle",
            "5",
            "--take",
            "max:3",
            "--play",
            play,
            "--slice-pieces",
            "3",
            "--dir",
            d.to_str().unwrap(),
            "--json",
        ]));
        let c = board_counts(&v);
        assert_eq!(c.len(), 16);
        assert_eq!(c[2].0, 105);
        assert_eq!([c[0].1, c[1].1, c[2].1], want, "{play}");
        assert_eq!(v["pieces"], 15);
        assert_eq!(v["board"], "triangle: 5");
        assert_eq!(v["name"], "T(5)");
    }
}

#[test]
fn board_accepts_misere_with_its_accent_as_the_family_does() {
    // `--play misère` is read by the family's parser (as `nimlab solve lines`
    // and a spec read it): the same game as `misere`. By hand, as above: in
    // misère play no piece left is N, one piece P, two pieces N.
    let dir = tempfile::tempdir().unwrap();
    let mut answers = Vec::new();
    for play in ["misère", "misere"] {
        let d = dir.path().join(play);
        let v = json(&ok(&[
            "board",
            "lines",
            "solve",
            "--triangle",
            "4",
            "--take",
            "max:2",
            "--play",
            play,
            "--slice-pieces",
            "2",
            "--dir",
            d.to_str().unwrap(),
            "--json",
        ]));
        let c = board_counts(&v);
        assert_eq!(c.len(), 11);
        assert_eq!([c[0].1, c[1].1, c[2].1], [0, 10, 0], "{play}");
        assert_eq!(v["play"], "misere", "{play}");
        answers.push(v);
    }
    assert_eq!(answers[0], answers[1]);
    let v = json(&ok(&[
        "board",
        "lines",
        "solve",
        "--in-memory",
        "--triangle",
        "4",
        "--take",
        "max:2",
        "--play",
        "misère",
        "--json",
    ]));
    assert_eq!(board_counts(&v), board_counts(&answers[0]));
}

/// `status --waves`: (wave, stored, complete).
fn waves(d: &str) -> Vec<(usize, usize, usize)> {
    ok(&["board", "lines", "status", "--dir", d, "--waves"])
        .lines()
        .map(|l| {
            let v: Vec<usize> = l.split(' ').map(|x| x.parse().unwrap()).collect();
            (v[0], v[1], v[2])
        })
        .collect()
}

/// Runs every slice task of every wave `w` of plan `d`, two representatives
/// a task (as `board-submit.sh --group 2`).
fn run_every_wave(d: &str, w: &[(usize, usize, usize)]) {
    for &(k, stored, _) in w {
        let k = k.to_string();
        for task in 0..stored.div_ceil(2) {
            let task = task.to_string();
            ok(&[
                "board", "lines", "slice", "--dir", d, "--wave", &k, "--task", &task, "--group",
                "2",
            ]);
        }
    }
}

/// Checks that `d`'s result.json and its Parquet datasets (counts and
/// positions) hold the same answer; returns the datasets' sweep.
fn datasets_hold_the_answer(d: &str) -> nimlab::store::SweepDir {
    let r = json(&std::fs::read_to_string(Path::new(d).join("result.json")).unwrap());
    let counts = board_counts(&r);
    let sweep = nimlab::store::SweepDir {
        exp_dir: Path::new(d).to_path_buf(),
        experiment: "t6".into(),
        sweep: "board".into(),
        family: "lines".into(),
        datasets: nimlab::family::lines::datasets::DATASETS,
    };
    let t = sweep.read("counts").unwrap().expect("a counts dataset");
    assert_eq!(t.rows(), 22);
    for (k, (all, pp)) in counts.iter().enumerate() {
        let cell = |c: &str| t.cell(c, k).unwrap().to_string();
        assert_eq!(cell("pieces_left"), k.to_string());
        assert_eq!(cell("positions"), all.to_string());
        assert_eq!(cell("p_positions"), pp.to_string());
        assert_eq!(cell("experiment"), "t6");
        assert_eq!(cell("name"), "T(6)");
    }
    let pos = sweep
        .read("positions")
        .unwrap()
        .expect("a positions dataset");
    assert_eq!(pos.rows(), 1);
    assert_eq!(
        pos.cell("outcome", 0).unwrap().to_string(),
        r["outcome"].as_str().unwrap()
    );
    assert_eq!(
        pos.cell("winning_move_count", 0).unwrap().to_string(),
        r["winning_move_count"].to_string()
    );
    assert_eq!(pos.cell("method", 0).unwrap().to_string(), "exhaustive");
    let parts = r["datasets"].as_array().unwrap();
    assert_eq!(parts.len(), 2);
    for part in parts {
        assert!(
            Path::new(d).join(part.as_str().unwrap()).is_file(),
            "{part}"
        );
    }
    sweep
}

#[test]
fn board_plan_slice_tasks_and_finish_as_slurm_runs_them() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("t6");
    let d = d.to_str().unwrap();
    let board = ["--triangle", "6", "--take", "max:3", "--play", "misere"];
    let mut plan = vec!["board", "lines", "plan", "--dir", d, "--slice-pieces", "4"];
    plan.extend(board);
    let out = ok(&plan);
    assert!(out.contains("slice pieces: t = 4"), "{out}");
    let p = json(&std::fs::read_to_string(Path::new(d).join("plan.json")).unwrap());
    assert_eq!(p["take"], "max:3");
    let w = waves(d);
    assert_eq!(w.len(), 5, "waves 0..=4: {w:?}");
    assert!(w.iter().all(|&(_, stored, done)| stored > 0 && done == 0));
    // A wave before its sources is refused, naming the missing wave.
    let err = fails(&[
        "board", "lines", "slice", "--dir", d, "--wave", "1", "--task", "0",
    ]);
    assert!(
        err.contains("not complete") && err.contains("wave 0"),
        "{err}"
    );
    run_every_wave(d, &w);
    assert!(waves(d).iter().all(|&(_, stored, done)| done == stored));
    // A requeued task finds its slice complete.
    let o = nimlab(&[
        "board", "lines", "slice", "--dir", d, "--wave", "2", "--task", "0",
    ]);
    assert!(o.status.success());
    assert!(
        text(&o.stderr).contains("complete already"),
        "{}",
        text(&o.stderr)
    );
    let err = fails(&["board", "lines", "slice", "--dir", d, "--wave", "9"]);
    assert!(err.contains("waves 0..=4"), "{err}");
    let got = ok(&["board", "lines", "finish", "--dir", d]);
    let mut whole = vec!["board", "lines", "solve", "--in-memory"];
    whole.extend(board);
    assert_eq!(got, ok(&whole));
    assert_eq!(
        std::fs::read_to_string(Path::new(d).join("result.txt")).unwrap(),
        got
    );
    let status = ok(&["board", "lines", "status", "--dir", d]);
    assert!(status.contains("result in result.txt"), "{status}");

    // result.json and the Parquet datasets hold the same answer.
    let sweep = datasets_hold_the_answer(d);
    // Finishing again rewrites the same files.
    assert_eq!(ok(&["board", "lines", "finish", "--dir", d]), got);
    assert_eq!(sweep.parts("counts").len(), 1);
}

/// `board lines solve --in-memory`'s bad arguments, each named.
fn refuses_bad_solve_arguments() {
    let solve = |extra: &[&str]| {
        let mut a = vec!["board", "lines", "solve", "--in-memory"];
        a.extend(extra);
        fails(&a)
    };
    let err = solve(&["--triangle", "5", "--take", "max:0"]);
    assert!(err.contains("--take") && err.contains("max:P"), "{err}");
    let err = solve(&["--triangle", "5", "--play", "draw"]);
    assert!(err.contains("--play") && err.contains("misere"), "{err}");
    let err = solve(&["--hexagon", "1,2,3,4,5,6"]);
    assert!(err.contains("do not close"), "{err}");
    let err = solve(&["--hexagon", "1,2,3"]);
    assert!(
        err.contains("--hexagon") && err.contains("6 values"),
        "{err}"
    );
    let err = solve(&["--triangle", "5", "--trapezoid", "2,3"]);
    assert!(err.contains("exactly one shape"), "{err}");
    let err = solve(&["--take", "any"]);
    assert!(err.contains("give a board"), "{err}");
    let err = solve(&["--mask", "OXO"]);
    assert!(err.contains("--mask"), "{err}");
    let err = solve(&["--triangle", "11"]);
    assert!(err.contains("at most 63"), "{err}");
    let err = solve(&["--triangle", "9"]);
    assert!(err.contains("solve it in slices"), "{err}");
    // 40 pieces: 128 GiB of bits, refused before any allocation.
    let err = solve(&["--parallelogram", "4,10"]);
    assert!(
        err.contains("needs about") && err.contains("solve it in slices"),
        "{err}"
    );
}

/// A plan directory belongs to one board and rule, and its slice actions
/// check their arguments against it.
fn refuses_another_board_in_a_plan_dir(d: &str) {
    // A plan directory belongs to one board and rule.
    ok(&[
        "board",
        "lines",
        "plan",
        "--triangle",
        "5",
        "--take",
        "max:3",
        "--slice-pieces",
        "3",
        "--dir",
        d,
    ]);
    let err = fails(&[
        "board",
        "lines",
        "solve",
        "--triangle",
        "5",
        "--take",
        "max:2",
        "--dir",
        d,
    ]);
    assert!(
        err.contains("holds the plan of") && err.contains("max:3"),
        "{err}"
    );
    let err = fails(&[
        "board",
        "lines",
        "solve",
        "--triangle",
        "5",
        "--take",
        "max:3",
        "--slice-pieces",
        "4",
        "--dir",
        d,
    ]);
    assert!(err.contains("--slice-pieces 3"), "{err}");
    let err = fails(&["board", "lines", "finish", "--dir", d]);
    assert!(err.contains("not complete"), "{err}");
    let err = fails(&[
        "board", "lines", "slice", "--dir", d, "--wave", "0", "--group", "0",
    ]);
    assert!(err.contains("--group"), "{err}");
    let err = fails(&[
        "board", "lines", "slice", "--dir", d, "--wave", "0", "--task", "5",
    ]);
    assert!(err.contains("--task 5"), "{err}");
}

#[test]
fn board_refuses_bad_arguments_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("d");
    let d = d.to_str().unwrap();
    refuses_bad_solve_arguments();
    let err = fails(&[
        "board",
        "lines",
        "plan",
        "--triangle",
        "5",
        "--memory",
        "2 parsecs",
        "--dir",
        d,
    ]);
    assert!(
        err.contains("--memory") && err.contains("unknown unit"),
        "{err}"
    );
    let err = fails(&[
        "board",
        "lines",
        "solve",
        "--triangle",
        "5",
        "--dir",
        d,
        "--in-memory",
    ]);
    assert!(
        err.contains("--in-memory") && err.contains("--dir"),
        "{err}"
    );
    let err = fails(&["board", "lines", "status", "--dir", d]);
    assert!(err.contains("plan.json"), "{err}");
    refuses_another_board_in_a_plan_dir(d);
}

/// `nimlab board FAMILY`: the family is named, and only one offering
/// out-of-core solving is taken; the actions reading plan.json take no
/// position.
#[test]
fn board_names_its_family() {
    let err = fails(&["board", "octal", "solve", "--in-memory", "--code", "0.77"]);
    assert!(
        err.contains("`octal` offers no out-of-core") && err.contains("lines"),
        "{err}"
    );
    // The form before families named their boards: the fix named, exit 2.
    let o = nimlab(&["board", "solve", "--triangle", "4", "--in-memory"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(
        err.contains("give the family before the action")
            && err.contains("nimlab board lines solve"),
        "{err}"
    );
    let err = fails(&["board", "hexagons", "status", "--dir", "x"]);
    assert!(err.contains("unknown family \"hexagons\""), "{err}");
    let err = fails(&[
        "board",
        "lines",
        "slice",
        "--dir",
        "x",
        "--wave",
        "1",
        "--triangle",
        "5",
    ]);
    assert!(err.contains("leave out --triangle 5"), "{err}");
    let err = fails(&["board", "lines", "solve", "--in-memory", "--counts"]);
    assert!(err.contains("--counts") || err.contains("counts"), "{err}");
    // The position's parameters and the action's options in any order.
    let a = ok(&[
        "board",
        "lines",
        "solve",
        "--triangle",
        "4",
        "--in-memory",
        "--take",
        "max:2",
    ]);
    let b = ok(&[
        "board",
        "lines",
        "solve",
        "--in-memory",
        "--take=max:2",
        "triangle=4",
    ]);
    assert_eq!(a, b);
    // `--threads` after the family too (the Slurm scripts put it there).
    let o = nimlab(&[
        "board",
        "lines",
        "solve",
        "--triangle",
        "4",
        "--in-memory",
        "--threads",
        "1",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("on 1 threads"),
        "{}",
        text(&o.stderr)
    );
}
