//! `board lines plan`: the plan of a board's slices, written to or reused from
//! DIR/plan.json, and its description for people.

use std::path::Path;

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

use crate::family::lines::exhaustive::slices::Problem;
use crate::family::lines::exhaustive::slices::plan::{self, Choice, Plan, Request};
use crate::family::lines::params::{SHAPE_KEYS, one_board, one_rule};
use crate::family::outofcore::Cut;
use crate::mem::{default_memory, fmt_bytes};
use crate::params::Node;
use crate::store::write_atomic;

/// Does the command line name a board?
pub(super) fn given(p: &Node<'_>) -> bool {
    p.get("board").is_some() || SHAPE_KEYS.iter().any(|k| p.get(k).is_some())
}

/// The board and rule a command line names, read by the family's parsers.
pub(super) fn problem(p: &Node<'_>) -> Result<Problem> {
    if !given(p) {
        bail!(
            "give a board: --triangle N, --hexagon P0,..,P5, --trapezoid X,Y, --parallelogram X,Y, --pentagon X,Y,Z or --mask ROWS"
        );
    }
    let shape = one_board(p)?;
    let (take, play) = one_rule(p)?;
    Problem::new(shape, take, play)
}

pub(super) fn request(cut: &Cut) -> Request {
    Request {
        memory: cut.memory.unwrap_or_else(default_memory),
        threads: rayon::current_num_threads(),
        slice_pieces: cut.slice_pieces,
        symmetry: cut.symmetry,
    }
}

/// Plans into `dir` (or reuses its plan, which must be for the same board
/// and rule); returns the problem, the plan with its estimate, and whether
/// the plan is new.
pub(super) fn plan_dir(board: &Node<'_>, cut: &Cut, dir: &Path) -> Result<(Problem, Choice, bool)> {
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
pub(super) fn load_plan(dir: &Path) -> Result<(Problem, Plan)> {
    let path = dir.join("plan.json");
    let text = std::fs::read_to_string(&path).with_context(|| {
        format!(
            "cannot read {} (plan first: nimlab board lines plan … --dir {})",
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

/// The plan as `nimlab board lines plan` and `run` print it: the board and its slicing
/// ([`slicing_text`]), then the work and what it costs ([`cost_text`]).
pub(super) fn plan_text(p: &Problem, c: &Choice, dir: &Path, fresh: bool) -> String {
    slicing_text(p, c) + &cost_text(c, dir, fresh)
}

/// The board, the slice pieces, the symmetry used and the slices.
fn slicing_text(p: &Problem, c: &Choice) -> String {
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
    s
}

/// The waves, the sources per slice, memory, disk and where the plan is.
fn cost_text(c: &Choice, dir: &Path, fresh: bool) -> String {
    let e = &c.est;
    let mut s = String::new();
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
