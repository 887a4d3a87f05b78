//! `board solve` and `board slice`: waves of slices solved on this machine,
//! or one array task of a cluster run.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::{Result, bail};

use super::finish::{finish, print_answer};
use super::plan::{given, load_plan, plan_dir, plan_text, problem};
use crate::family::lines::exhaustive::slices::engine::{Engine, SliceRun};
use crate::family::lines::exhaustive::slices::plan::Choice;
use crate::family::lines::exhaustive::slices::solve_in_memory;
use crate::family::lines::exhaustive::slices::store::Store;
use crate::family::outofcore::Cut;
use crate::family::outofcore::{SliceTask, SolveOpts};
use crate::mem::{default_memory, fmt_bytes, slurm_memory};
use crate::params::Node;

/// `solve --in-memory`: the whole table at once.
pub(super) fn solve_whole(board: &Node<'_>, json: bool, cancel: &AtomicBool) -> Result<()> {
    let p = problem(board)?;
    let t0 = Instant::now();
    let a = solve_in_memory(&p, &|_| {}, cancel)?;
    let secs = t0.elapsed().as_secs_f64();
    print_answer(&p, &a, json)?;
    eprintln!(
        "in memory: {secs:.2} s on {} threads, peak memory {}",
        rayon::current_num_threads(),
        crate::mem::peak_memory().map_or("?".into(), fmt_bytes)
    );
    Ok(())
}

/// `board solve --dir`: plans (or reuses the plan), solves the waves up to
/// `--until-wave` or the disk limit, then finishes.
pub(super) fn solve_dir(
    board: &Node<'_>,
    cut: &Cut,
    dir: &Path,
    o: &SolveOpts,
    cancel: &AtomicBool,
) -> Result<()> {
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
    let io0 = crate::mem::process_io();
    let t0 = Instant::now();
    let until = o.until_wave.unwrap_or(plan.t).min(plan.t);
    let last = run_waves(&engine, until, o, cancel)?;
    let secs = t0.elapsed().as_secs_f64();
    let (r, w) = engine.io();
    let dev = match (io0, crate::mem::process_io()) {
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
        crate::mem::peak_memory().map_or("?".into(), fmt_bytes),
        fmt_bytes(memory)
    );
    if last < plan.t || !complete(&engine, last) {
        eprintln!("{}", partial_text(&engine, &choice, last));
        return Ok(());
    }
    let a = finish(&engine, dir)?;
    print_answer(&p, &a, o.json)?;
    Ok(())
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
    let bar = crate::progress::progress_bar(stored << (n - t), false);
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

/// `board slice`: one array task's representatives of one wave.
pub(super) fn slice_task(dir: &Path, t: &SliceTask, cancel: &AtomicBool) -> Result<()> {
    let (wave, task, group) = (t.wave, t.task, t.group);
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
    let memory = t
        .memory
        .or_else(slurm_memory)
        .unwrap_or_else(default_memory);
    let store = Store::new(dir, plan.t, plan.slice_bytes())?;
    store.remove_temporaries()?;
    let mut engine = Engine::new(&p, &plan, store, memory)?;
    engine.drop_cache = t.drop_cache;
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
                crate::mem::peak_memory().map_or("?".into(), fmt_bytes),
                fmt_bytes(memory)
            ),
        }
    }
    engine.flush()?;
    Ok(())
}
