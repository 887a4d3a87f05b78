//! `nimlab board`: one `lines` board's exhaustive analysis cut into slices,
//! out of core on one machine or as Slurm job arrays (one per wave).
//!
//! ```text
//! nimlab board plan   --triangle 9 --take max:3 --play misere --memory 4GiB --dir D
//! nimlab board solve  --triangle 8 --take max:3 --play misere --memory 2GiB --dir D
//! nimlab board solve  --triangle 8 --take max:3 --play misere --in-memory
//! nimlab board slice  --dir D --wave K --task I [--group G]     (one array task)
//! nimlab board finish --dir D
//! nimlab board status --dir D
//! ```

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

use crate::cli::board::{BoardAction, BoardSpec, CutArgs, OnOff};
use crate::family::lines::board::{Shape, closes, parse_mask};
use crate::family::lines::datasets::{COUNTS, DATASETS, POSITIONS};
use crate::family::lines::slices::engine::SliceRun;
use crate::family::lines::slices::plan::{self, Choice, Plan, Request};
use crate::family::lines::slices::store::{self, Store};
use crate::family::lines::slices::{Answer, Engine, Problem, parse_take, solve_in_memory};
use crate::game::Play;
use crate::mem::fmt_bytes;
use crate::store::{ChunkId, SweepDir, write_atomic};

/// The board a command line names.
fn shape(b: &BoardSpec) -> Result<Shape> {
    let mut given = Vec::new();
    let want = |name: &str, v: &[u32], k: usize| -> Result<()> {
        if v.len() != k || v.contains(&0) {
            bail!("--{name} needs {k} positive numbers separated by commas, got {v:?}");
        }
        Ok(())
    };
    if let Some(n) = b.triangle {
        if n == 0 {
            bail!("--triangle needs at least 1 row");
        }
        given.push(Shape::Triangle(n));
    }
    if let Some(v) = &b.hexagon {
        want("hexagon", v, 6)?;
        let p = [v[0], v[1], v[2], v[3], v[4], v[5]];
        if !closes(p) {
            bail!(
                "--hexagon {v:?}: the sides do not close (need p0 + p1 = p3 + p4 and p1 + p2 = p4 + p5)"
            );
        }
        given.push(Shape::Hexagon(p));
    }
    if let Some(v) = &b.trapezoid {
        want("trapezoid", v, 2)?;
        given.push(Shape::Trapezoid(v[0], v[1]));
    }
    if let Some(v) = &b.parallelogram {
        want("parallelogram", v, 2)?;
        given.push(Shape::Parallelogram(v[0], v[1]));
    }
    if let Some(v) = &b.pentagon {
        want("pentagon", v, 3)?;
        given.push(Shape::Pentagon(v[0], v[1], v[2]));
    }
    if let Some(m) = &b.mask {
        let rows: Vec<&str> = m.split('/').collect();
        given.push(Shape::Mask(
            parse_mask(&rows).map_err(|e| anyhow::anyhow!("--mask: {e}"))?,
        ));
    }
    match given.len() {
        1 => Ok(given.pop().unwrap()),
        0 => bail!(
            "give a board: --triangle N, --hexagon P0,..,P5, --trapezoid X,Y, --parallelogram X,Y, --pentagon X,Y,Z or --mask ROWS"
        ),
        _ => bail!("give one board only"),
    }
}

/// Does the command line name a board?
fn given(b: &BoardSpec) -> bool {
    b.triangle.is_some()
        || b.hexagon.is_some()
        || b.trapezoid.is_some()
        || b.parallelogram.is_some()
        || b.pentagon.is_some()
        || b.mask.is_some()
}

/// The board and rule a command line names.
fn problem(b: &BoardSpec) -> Result<Problem> {
    let take = parse_take(&b.take).map_err(|e| anyhow::anyhow!("--take: {e}"))?;
    let play = Play::parse(&b.play)
        .with_context(|| format!("--play {:?}: use normal or misere", b.play))?;
    Problem::new(shape(b)?, take, play)
}

/// Runs `nimlab board …`.
pub fn board(action: BoardAction) -> Result<ExitCode> {
    let cancel = Arc::new(AtomicBool::new(false));
    let c2 = cancel.clone();
    let _ = ctrlc::set_handler(move || {
        if c2.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("\nnimlab: stopping: complete slices are kept (Ctrl-C again to quit now)…");
    });
    match action {
        BoardAction::Plan {
            board,
            cut,
            dir,
            json,
        } => {
            let (p, choice, fresh) = plan_dir(&board, &cut, &dir)?;
            if json {
                let mut v = choice.plan.to_json(&p);
                v["estimate"] = choice.est.to_json();
                println!("{}", serde_json::to_string_pretty(&v)?);
            } else {
                print!("{}", plan_text(&p, &choice, &dir, fresh));
            }
            Ok(ExitCode::SUCCESS)
        }
        BoardAction::Solve {
            board,
            cut,
            dir,
            in_memory,
            until_wave,
            prune,
            disk,
            drop_cache,
            json,
        } => {
            if in_memory {
                return solve_whole(&board, json, &cancel);
            }
            let dir = dir.expect("clap requires --dir without --in-memory");
            let opts = SolveOpts {
                until_wave,
                prune,
                disk,
                drop_cache,
                json,
            };
            solve_dir(&board, &cut, &dir, &opts, &cancel)
        }
        BoardAction::Slice {
            dir,
            wave,
            task,
            group,
            memory,
            drop_cache,
        } => slice_task(&dir, wave, task, group, memory, drop_cache, &cancel),
        BoardAction::Finish { dir, json } => {
            let (p, plan) = load_plan(&dir)?;
            let store = Store::new(&dir, plan.t, plan.slice_bytes())?;
            // Finishing reads single words: no memory budget to keep.
            let e = Engine::new(&p, &plan, store, u64::MAX)?;
            let a = finish(&e, &dir)?;
            print_answer(&p, &a, json)?;
            Ok(ExitCode::SUCCESS)
        }
        BoardAction::Status { dir, json, waves } => status(&dir, json, waves),
    }
}

/// The memory to plan with when none is given: half the available memory.
fn default_memory() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("MemAvailable:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or(4 << 30, |kb| kb * 1024 / 2)
}

/// The Slurm allocation of this task, if any (`SLURM_MEM_PER_NODE` or
/// `SLURM_MEM_PER_CPU` × CPUs, in MiB).
fn slurm_memory() -> Option<u64> {
    let var = |k: &str| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
    };
    if let Some(mb) = var("SLURM_MEM_PER_NODE") {
        return Some(mb << 20);
    }
    let per_cpu = var("SLURM_MEM_PER_CPU")?;
    Some((per_cpu * var("SLURM_CPUS_PER_TASK").unwrap_or(1)) << 20)
}

fn request(cut: &CutArgs) -> Request {
    Request {
        memory: cut.memory.unwrap_or_else(default_memory),
        threads: rayon::current_num_threads(),
        slice_pieces: cut.slice_pieces,
        symmetry: cut.symmetry == OnOff::On,
    }
}

/// Plans into `dir` (or reuses its plan, which must be for the same board
/// and rule); returns the problem, the plan with its estimate, and whether
/// the plan is new.
fn plan_dir(board: &BoardSpec, cut: &CutArgs, dir: &Path) -> Result<(Problem, Choice, bool)> {
    let p = problem(board)?;
    let req = request(cut);
    let path = dir.join("plan.json");
    if path.exists() {
        let (q, plan) = load_plan(dir)?;
        if q.fingerprint() != p.fingerprint() {
            bail!(
                "{} holds the plan of {} take {} {} play, not of this board and rule: use another --dir",
                path.display(),
                q.shape.text(),
                q.take.text(),
                q.play.as_str()
            );
        }
        if let Some(t) = cut.slice_pieces
            && t != plan.t
        {
            bail!(
                "{} was planned with --slice-pieces {}: use that, or another --dir",
                path.display(),
                plan.t
            );
        }
        let kernel = plan.kernel(&p)?;
        let est = plan::estimate(&plan, &kernel, &req);
        return Ok((p, Choice { plan, est }, false));
    }
    let choice = plan::choose(&p, &req)?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut v = choice.plan.to_json(&p);
    v["planned_with"] = json!({
        "memory_bytes": req.memory,
        "threads": req.threads,
        "symmetry": req.symmetry,
    });
    v["estimate"] = choice.est.to_json();
    let mut text = serde_json::to_string_pretty(&v)?;
    text.push('\n');
    write_atomic(&path, text.as_bytes())?;
    Ok((p, choice, true))
}

/// Reads DIR/plan.json.
fn load_plan(dir: &Path) -> Result<(Problem, Plan)> {
    let path = dir.join("plan.json");
    let text = std::fs::read_to_string(&path).with_context(|| {
        format!(
            "cannot read {} (plan first: nimlab board plan … --dir {})",
            path.display(),
            dir.display()
        )
    })?;
    let v: Value = serde_json::from_str(&text)
        .with_context(|| format!("{} is not valid JSON", path.display()))?;
    if v["format"].as_str() != Some(plan::FORMAT) {
        bail!(
            "{}: not a plan of this nimlab (format {:?}, expected {:?})",
            path.display(),
            v["format"],
            plan::FORMAT
        );
    }
    let p = Problem::from_json(&v).with_context(|| path.display().to_string())?;
    let plan = Plan::from_json(&p, &v).with_context(|| path.display().to_string())?;
    Ok((p, plan))
}

fn plan_text(p: &Problem, c: &Choice, dir: &Path, fresh: bool) -> String {
    let plan = &c.plan;
    let e = &c.est;
    let n = p.n();
    let mut s = format!(
        "board {} ({}), {n} pieces, take {}, {} play: 2^{n} positions, {} of bits\n",
        p.shape.text(),
        p.shape.name(),
        p.take.text(),
        p.play.as_str(),
        fmt_bytes(1u64 << (n - 3).min(63))
    );
    let pts: Vec<String> = plan
        .pieces
        .iter()
        .map(|&i| format!("({},{})", p.board.points[i].0, p.board.points[i].1))
        .collect();
    s += &format!(
        "slice pieces: t = {} {}{}\n",
        plan.t,
        pts.join(" "),
        if plan.independent {
            " (no move removes two of them: a slice reads only slices one piece down)"
        } else {
            " (some moves remove two or more of them)"
        }
    );
    let stored: u64 = e.reps.iter().sum();
    s += &format!(
        "symmetry: {}; {stored} of {} slices stored and solved\n",
        match plan.group.len() {
            1 => "none used".to_string(),
            k => format!("{k} symmetries of the board keep the slice pieces"),
        },
        plan.slices()
    );
    s += &format!(
        "slices: {} of {} (2^{} positions), blocks of {}\n",
        plan.slices(),
        fmt_bytes(plan.slice_bytes()),
        n - plan.t,
        fmt_bytes(plan.block_bytes())
    );
    let waves: Vec<String> = e
        .reps
        .iter()
        .zip(&e.slices)
        .enumerate()
        .map(|(k, (r, a))| {
            if r == a {
                format!("{k}:{r}")
            } else {
                format!("{k}:{r}/{a}")
            }
        })
        .collect();
    s += &format!("waves (stored/all slices): {}\n", waves.join(" "));
    s += &format!(
        "sources per slice: at most {}, {:.2} on average\n",
        e.sources_max, e.sources_mean
    );
    s += &format!(
        "memory per slice solve: {} on {} threads{}\n",
        fmt_bytes(e.memory),
        rayon::current_num_threads(),
        if e.reps_in_memory > 0 {
            format!(
                " ({} representatives in memory for renaming)",
                e.reps_in_memory
            )
        } else {
            String::new()
        }
    );
    s += &format!(
        "disk: {} of slice tables; I/O: {} read, {} written\n",
        fmt_bytes(e.written),
        fmt_bytes(e.read),
        fmt_bytes(e.written)
    );
    s += &format!(
        "plan {} {}\n",
        if fresh { "written to" } else { "reused from" },
        dir.join("plan.json").display()
    );
    s
}

/// `solve --in-memory`: the whole table at once.
fn solve_whole(board: &BoardSpec, json: bool, cancel: &AtomicBool) -> Result<ExitCode> {
    let p = problem(board)?;
    let t0 = Instant::now();
    let a = solve_in_memory(&p, &|_| {}, cancel)?;
    let secs = t0.elapsed().as_secs_f64();
    print_answer(&p, &a, json)?;
    eprintln!(
        "in memory: {secs:.2} s on {} threads, peak memory {}",
        rayon::current_num_threads(),
        store::peak_rss().map_or("?".into(), fmt_bytes)
    );
    Ok(ExitCode::SUCCESS)
}

fn print_answer(p: &Problem, a: &Answer, json: bool) -> Result<()> {
    if json {
        println!("{}", serde_json::to_string_pretty(&a.to_json(p))?);
    } else {
        print!("{}", a.text(p)?);
    }
    Ok(())
}

/// Options of `board solve` with a directory.
struct SolveOpts {
    until_wave: Option<usize>,
    prune: bool,
    disk: Option<u64>,
    drop_cache: bool,
    json: bool,
}

/// `board solve --dir`: plans (or reuses the plan), solves the waves up to
/// `--until-wave` or the disk limit, then finishes.
fn solve_dir(
    board: &BoardSpec,
    cut: &CutArgs,
    dir: &Path,
    o: &SolveOpts,
    cancel: &AtomicBool,
) -> Result<ExitCode> {
    if !given(board) {
        bail!(
            "give the board (e.g. --triangle 8 --take max:3 --play misere); the plan in --dir must match it"
        );
    }
    let (p, choice, fresh) = plan_dir(board, cut, dir)?;
    eprint!("{}", plan_text(&p, &choice, dir, fresh));
    let plan = &choice.plan;
    let memory = cut.memory.unwrap_or_else(default_memory);
    let store = Store::new(dir, plan.t, plan.slice_bytes())?;
    store.remove_temporaries()?;
    let mut engine = Engine::new(&p, plan, store, memory)?;
    engine.drop_cache = o.drop_cache;
    engine.disk_limit = o.disk;
    let io0 = store::process_io();
    let t0 = Instant::now();
    let until = o.until_wave.unwrap_or(plan.t).min(plan.t);
    let last = run_waves(&engine, until, o, cancel)?;
    let secs = t0.elapsed().as_secs_f64();
    let (r, w) = engine.io();
    let dev = match (io0, store::process_io()) {
        (Some(a), Some(b)) => format!(
            "; at the block device: {} read, {} written",
            fmt_bytes(b.0 - a.0),
            fmt_bytes(b.1 - a.1)
        ),
        _ => String::new(),
    };
    eprintln!(
        "solved waves 0..={last} in {secs:.1} s on {} threads: slice files {} read, {} written{dev}; peak memory {} (budget {})",
        rayon::current_num_threads(),
        fmt_bytes(r),
        fmt_bytes(w),
        store::peak_rss().map_or("?".into(), fmt_bytes),
        fmt_bytes(memory)
    );
    if last < plan.t || !complete(&engine, last) {
        eprintln!("{}", partial_text(&engine, &choice, last));
        return Ok(ExitCode::SUCCESS);
    }
    let a = finish(&engine, dir)?;
    print_answer(&p, &a, o.json)?;
    Ok(ExitCode::SUCCESS)
}

/// Solves waves `0..=until` (one line per wave); returns the last wave
/// worked on (earlier when the disk limit stopped it).
fn run_waves(
    engine: &Engine<'_>,
    until: usize,
    o: &SolveOpts,
    cancel: &AtomicBool,
) -> Result<usize> {
    let (n, t) = (engine.problem.n(), engine.plan.t);
    let stored: u64 = (0..=until).map(|k| engine.plan.wave(k).len() as u64).sum();
    let bar = crate::sweep::progress_bar(stored << (n - t), false);
    bar.set_prefix("board");
    let progress = |d: u64| bar.inc(d);
    for k in 0..=until {
        let tw = Instant::now();
        let (r0, w0) = engine.io();
        let (mut solved, mut skipped) = (0, 0);
        let mut report = |_: u64, r: &SliceRun| match r {
            SliceRun::Solved(_) => solved += 1,
            SliceRun::Skipped => {
                skipped += 1;
                bar.inc(1u64 << (n - t));
            }
        };
        let within = engine.solve_waves(k, k, o.prune, &mut report, &progress, cancel)?;
        bar.set_message(format!("wave {k} of {t}"));
        let (r1, w1) = engine.io();
        bar.suspend(|| {
            eprintln!(
                "wave {k:2}: {solved} slices solved, {skipped} complete already, {:.1} s, read {}, written {}, disk {}",
                tw.elapsed().as_secs_f64(),
                fmt_bytes(r1 - r0),
                fmt_bytes(w1 - w0),
                fmt_bytes(engine.store.disk_bytes())
            )
        });
        if !within {
            bar.finish_and_clear();
            eprintln!(
                "stopped in wave {k}: the next slice would take the slice files above --disk {}",
                fmt_bytes(o.disk.unwrap_or(0))
            );
            return Ok(k);
        }
    }
    bar.finish_and_clear();
    Ok(until)
}

/// Are all the representatives of waves `0..=last` complete (their records
/// written; `--prune` may have deleted their tables since)?
fn complete(engine: &Engine<'_>, last: usize) -> bool {
    (0..=last)
        .flat_map(|k| engine.plan.wave(k))
        .all(|s| engine.store.record_path(s).is_file())
}

/// How much of the board a partial solve covers.
fn partial_text(engine: &Engine<'_>, choice: &Choice, last: usize) -> String {
    let (n, plan) = (engine.problem.n(), engine.plan);
    let done: Vec<u64> = (0..=last)
        .flat_map(|k| plan.wave(k))
        .filter(|&s| engine.store.record_path(s).is_file())
        .collect();
    let all: u64 = choice.est.reps.iter().sum();
    let positions: u64 = done.iter().map(|&s| plan.orbit_size(s)).sum::<u64>() << (n - plan.t);
    format!(
        "stopped in wave {last}: {} of {all} stored slices complete, covering {positions} of 2^{n} positions ({:.3} %)",
        done.len(),
        positions as f64 / (n as f64).exp2() * 100.0
    )
}

/// Writes DIR/result.txt, DIR/result.json and the `counts` and `positions`
/// datasets (Parquet, the layout of `nimlab run`'s output:
/// DIR/data/lines/<dataset>/board/part-….parquet).
fn finish(e: &Engine<'_>, dir: &Path) -> Result<Answer> {
    let a = e.finish()?;
    let p = e.problem;
    let mut secs = 0.0;
    let mut read = 0u64;
    for k in 0..=e.plan.t {
        for s in e.plan.wave(k) {
            let r = e.store.record(s)?;
            secs += r["seconds"].as_f64().unwrap_or(0.0);
            read += r["read_bytes"].as_u64().unwrap_or(0);
        }
    }
    let stored: u64 = (0..=e.plan.t).map(|k| e.plan.wave(k).len() as u64).sum();
    let parts = write_datasets(p, &a, secs, dir)?;
    let mut v = a.to_json(p);
    v["slices"] = json!({
        "slice_pieces": e.plan.t,
        "symmetries": e.plan.group.len(),
        "stored": stored,
        "all": e.plan.slices(),
        "slice_seconds": (secs * 10.0).round() / 10.0,
        "read_bytes": read,
        "written_bytes": stored * e.plan.slice_bytes(),
    });
    v["datasets"] = json!(parts);
    let mut text = serde_json::to_string_pretty(&v)?;
    text.push('\n');
    write_atomic(&dir.join("result.json"), text.as_bytes())?;
    write_atomic(&dir.join("result.txt"), a.text(p)?.as_bytes())?;
    Ok(a)
}

/// Writes the answer as lines' `positions` and `counts` datasets under
/// DIR/data/ (experiment: DIR's name, sweep `board`); returns their paths
/// relative to DIR.
fn write_datasets(p: &Problem, a: &Answer, seconds: f64, dir: &Path) -> Result<Vec<String>> {
    let abs = dir
        .canonicalize()
        .with_context(|| format!("cannot read {}", dir.display()))?;
    let experiment = abs
        .file_name()
        .map_or("board".into(), |n| n.to_string_lossy().to_string());
    let out = SweepDir {
        exp_dir: dir.to_path_buf(),
        experiment,
        sweep: "board".into(),
        family: "lines".into(),
        datasets: DATASETS,
    };
    let chunk = ChunkId::new(0, &[format!("board/{:016x}", p.fingerprint())]);
    let (positions, counts) = a.tables(p, (seconds * 1000.0).round() / 1000.0)?;
    let mut paths = Vec::new();
    for (ds, table) in [(&POSITIONS, positions), (&COUNTS, counts)] {
        out.write_part(ds, &chunk, vec![table])?;
        let path = out.part_path(ds.name, &chunk);
        paths.push(
            path.strip_prefix(dir)
                .unwrap_or(&path)
                .display()
                .to_string(),
        );
    }
    // Parts of an earlier nimlab (another results version) go.
    out.prune(&[chunk])?;
    Ok(paths)
}

fn slice_task(
    dir: &Path,
    wave: usize,
    task: usize,
    group: usize,
    memory: Option<u64>,
    drop_cache: bool,
    cancel: &AtomicBool,
) -> Result<ExitCode> {
    let (p, plan) = load_plan(dir)?;
    if wave > plan.t {
        bail!("--wave {wave}: this plan has waves 0..={}", plan.t);
    }
    if group == 0 {
        bail!("--group must be at least 1");
    }
    let reps = plan.wave(wave);
    let first = task * group;
    if first >= reps.len() {
        bail!(
            "--task {task} --group {group}: wave {wave} has {} representative slices (tasks 0..{})",
            reps.len(),
            reps.len().div_ceil(group)
        );
    }
    let memory = memory.or_else(slurm_memory).unwrap_or_else(default_memory);
    let store = Store::new(dir, plan.t, plan.slice_bytes())?;
    store.remove_temporaries()?;
    let mut engine = Engine::new(&p, &plan, store, memory)?;
    engine.drop_cache = drop_cache;
    for &s in &reps[first..(first + group).min(reps.len())] {
        match engine.solve_slice(s, &|_| {}, cancel)? {
            SliceRun::Skipped => eprintln!("slice {s:x} (wave {wave}): complete already"),
            SliceRun::Solved(st) => eprintln!(
                "slice {s:x} (wave {wave}): solved in {:.2} s, {} sources ({} renamed, {} passes), read {}, written {}, peak memory {} (budget {})",
                st.seconds,
                st.sources,
                st.images,
                st.passes,
                fmt_bytes(st.read),
                fmt_bytes(st.written),
                store::peak_rss().map_or("?".into(), fmt_bytes),
                fmt_bytes(memory)
            ),
        }
    }
    engine.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn status(dir: &Path, json: bool, lines: bool) -> Result<ExitCode> {
    let (p, plan) = load_plan(dir)?;
    let store = Store::new(dir, plan.t, plan.slice_bytes())?;
    let mut waves = Vec::new();
    let mut complete = true;
    for k in 0..=plan.t {
        let reps = plan.wave(k);
        let done = reps
            .iter()
            .filter(|&&s| store.record_path(s).is_file())
            .count();
        complete &= done == reps.len();
        waves.push(json!({"wave": k, "stored": reps.len(), "complete": done}));
    }
    let result = dir.join("result.txt").is_file();
    if lines {
        for w in &waves {
            println!("{} {} {}", w["wave"], w["stored"], w["complete"]);
        }
    } else if json {
        let v = json!({
            "shape": p.shape.text(), "take": p.take.text(), "play": p.play.as_str(),
            "waves": waves, "disk_bytes": store.disk_bytes(), "complete": complete, "result": result,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!(
            "board {} take {} {} play: {} slice pieces, {} slices of {}",
            p.shape.text(),
            p.take.text(),
            p.play.as_str(),
            plan.t,
            plan.slices(),
            fmt_bytes(plan.slice_bytes())
        );
        for w in &waves {
            println!(
                "wave {:2}: {:6} of {:6} complete",
                w["wave"], w["complete"], w["stored"]
            );
        }
        println!(
            "disk: {}; {}",
            fmt_bytes(store.disk_bytes()),
            if result {
                "result in result.txt"
            } else if complete {
                "all slices complete: run `nimlab board finish`"
            } else {
                "not complete"
            }
        );
    }
    Ok(ExitCode::SUCCESS)
}
