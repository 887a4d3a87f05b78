//! `nimlab solve takeaway`: one position, any heap size (up to 2^63 when a
//! period is proven).

use std::fmt::Write as _;

use std::time::Instant;

use anyhow::bail;
use serde_json::json;

use super::one_heap::OneHeap;
use super::params::one_rule;
use super::solver::Joint;
use super::{Rule, TakeForm};
use crate::family::Answer;
use crate::family::solved::{self, Solved, WinningMove};
use crate::params::{CliArg, CliForm, Node};
use crate::period::{self, Period};

/// The arguments of `nimlab solve takeaway` and `nimlab play takeaway`.
pub const CLI_ARGS: &[CliArg] = &[
    CliArg::new("heaps", CliForm::List),
    CliArg::new("take", CliForm::Text),
    CliArg::new("rule", CliForm::Text),
    CliArg::new("play", CliForm::Yaml),
    CliArg::new("no_repeat", CliForm::Switch),
    CliArg::new("last_take", CliForm::Yaml),
    // `nimlab play` with a spec: a sweep's heap sizes, narrowed.
    CliArg::new("N", CliForm::Yaml),
    CliArg::new("N1", CliForm::Yaml),
    CliArg::new("N2", CliForm::Yaml),
    CliArg::new("N3", CliForm::Yaml),
    CliArg::new("N4", CliForm::Yaml),
    CliArg::new("N5", CliForm::Yaml),
    CliArg::new("N6", CliForm::Yaml),
    CliArg::new("horizon", CliForm::Yaml),
];

/// `nimlab solve takeaway`: one position's outcome, Grundy value and winning moves.
pub fn solve(pos: &Node<'_>) -> anyhow::Result<Answer> {
    pos.expect_keys(&["heaps", "take", "rule", "play", "no_repeat", "last_take"])?;
    let heaps: Vec<u64> = pos
        .req("heaps", "the heap sizes, e.g. --heaps 3,5,7")?
        .ints(0, i64::MAX)?
        .into_iter()
        .map(|x| x as u64)
        .collect();
    let rule = one_rule(pos)?;
    let no_repeat = rule.no_repeat;
    let last_node = pos.get("last_take");
    let last = last_node
        .as_ref()
        .map(|n| n.int(1, u32::MAX as i64))
        .transpose()?
        .map(|x| x as u32);
    if let (Some(n), false) = (&last_node, no_repeat) {
        return Err(n
            .err("only matters with no_repeat (--no-repeat, or `no_repeat` in --rule)")
            .into());
    }
    let t0 = Instant::now();
    let a = answer(&rule, &heaps, last)?;
    let seconds = t0.elapsed().as_secs_f64();
    let text = answer_text(&rule, &heaps, last, &a);
    let position = |heaps: &[u64], last: Option<u32>| {
        let mut m = solved::map(json!({ "heaps": heaps }));
        if let Some(l) = last {
            m.insert("last_take".into(), json!(l));
        }
        m
    };
    let winning_moves = a
        .moves
        .iter()
        .map(|&(i, s)| {
            let mut after = heaps.clone();
            after[i] -= s as u64;
            WinningMove {
                text: move_text(heaps.len(), i, s),
                to: position(&after, no_repeat.then_some(s)),
                extra: solved::map(json!({"heap": i + 1, "take": s})),
            }
        })
        .collect();
    let solved = Solved {
        family: "takeaway",
        rule: rule.label(),
        game: solved::map(json!({
            "take": rule.take.text(),
            "play": rule.play.as_str(),
            "no_repeat": no_repeat,
        })),
        position: position(&heaps, last),
        is_p: a.is_p,
        grundy: a.grundy,
        winning_moves,
        method: a.method,
        seconds,
        details: solved::map(json!({ "note": a.note })),
    };
    Ok(Answer {
        text,
        json: solved.json(),
    })
}

/// The text answer (unchanged for people: position, outcome, Grundy value, moves).
fn answer_text(rule: &Rule, heaps: &[u64], last: Option<u32>, a: &PositionAnswer) -> String {
    let moves: Vec<String> = a
        .moves
        .iter()
        .map(|(i, s)| move_text(heaps.len(), *i, *s))
        .collect();
    let mut text = format!(
        "position {:?}, take {}, {} play{}{}\n",
        heaps,
        rule.take.text(),
        rule.play.as_str(),
        if rule.no_repeat { ", no repeat" } else { "" },
        last.map(|l| format!(", opponent just took {l}"))
            .unwrap_or_default()
    );
    let _ = writeln!(
        text,
        "outcome: {} ({})",
        if a.is_p { "P" } else { "N" },
        if a.is_p {
            "the player to move loses with perfect play"
        } else {
            "the player to move wins"
        }
    );
    if let Some(g) = a.grundy {
        let _ = writeln!(text, "Grundy value: {g}");
    }
    if moves.is_empty() {
        let _ = writeln!(text, "winning moves: none");
    } else {
        let _ = writeln!(text, "winning moves: {}", moves.join(", "));
        for (i, s) in &a.moves {
            let mut after = heaps.to_vec();
            after[*i] -= *s as u64;
            let _ = writeln!(text, "  {} → {:?}", move_text(heaps.len(), *i, *s), after);
        }
    }
    if let Some(note) = &a.note {
        let _ = writeln!(text, "{note}");
    }
    text
}

/// `A3` for several heaps, `3` for one.
fn move_text(d: usize, heap: usize, take: u32) -> String {
    if d == 1 {
        take.to_string()
    } else {
        format!("{}{take}", (b'A' + heap as u8) as char)
    }
}

/// The answer for one position.
pub struct PositionAnswer {
    /// P-position?
    pub is_p: bool,
    /// Grundy value (normal play without no_repeat).
    pub grundy: Option<u64>,
    /// Winning moves (heap, take).
    pub moves: Vec<(usize, u32)>,
    /// How it was computed: `nim`, `sequence` (the one-heap sequence up to
    /// the heap), `period` (reduced by a proven period), `joint_table`.
    pub method: &'static str,
    /// How it was computed, for people (e.g. the proven period).
    pub note: Option<String>,
}

/// Solves one position. One-heap sequences with a finite take set are computed
/// until their period is proven, so any heap size (up to 2^63) is answered.
pub fn answer(rule: &Rule, heaps: &[u64], last: Option<u32>) -> anyhow::Result<PositionAnswer> {
    let xor_path = rule.has_grundy_values();
    if rule.take == TakeForm::Any && xor_path {
        // Nim: G(n) = n.
        let x = heaps.iter().fold(0u64, |a, &h| a ^ h);
        let moves = heaps
            .iter()
            .enumerate()
            .filter(|&(_, &h)| (h ^ x) < h)
            .map(|(i, &h)| (i, (h - (h ^ x)) as u32))
            .collect();
        return Ok(PositionAnswer {
            is_p: x == 0,
            grundy: Some(x),
            moves,
            method: "nim",
            note: Some("Nim: G(n) = n, XOR of heaps".into()),
        });
    }
    if let (true, Some(maxs)) = (heaps.len() == 1 || xor_path, rule.take.max_take()) {
        return answer_periodic(rule, heaps, last, maxs as usize);
    }
    // Joint state table (take any with misère/no_repeat, or several heaps under misère/no_repeat).
    let states: f64 = heaps.iter().map(|&h| h as f64 + 1.0).product();
    if states > 5e8 {
        bail!(
            "this position needs a joint state table of {states:.2e} states (misère or no_repeat on several heaps, or take any); the limit here is 5e8"
        );
    }
    let dims: Vec<usize> = heaps.iter().map(|&h| h as usize + 1).collect();
    let top = *heaps.iter().max().unwrap() as usize;
    let takes = rule.take.takes(top);
    let j = Joint::solve(&dims, &takes, rule.play, rule.no_repeat, &|_| {});
    let hs: Vec<usize> = heaps.iter().map(|&h| h as usize).collect();
    let idx = j.index(&hs);
    Ok(PositionAnswer {
        is_p: j.child_is_p(idx, last),
        grundy: None,
        moves: j.winning_moves(&hs, last),
        method: "joint_table",
        note: Some(format!("joint state table of {} states", j.code.len())),
    })
}

/// A position of heaps under a rule without repetition limits: a heap's
/// answer from one heap's sequence, computed directly up to the largest
/// heap or, beyond a horizon, reduced by the joint state's proven period.
fn answer_periodic(
    rule: &Rule,
    heaps: &[u64],
    last: Option<u32>,
    maxs: usize,
) -> anyhow::Result<PositionAnswer> {
    let (one, per) = one_heap_with_period(rule, heaps, maxs)?;
    // Map a heap size to a computed index with the same joint state (at least maxs,
    // so that every take is legal, as it is for the real heap).
    let red = |n: u64| -> usize {
        match &per {
            None => n as usize,
            Some(p) => {
                if n <= p.end as u64 {
                    return n as usize;
                }
                let base = p.preperiod.max(maxs) as u64;
                (base + (n - base) % p.period as u64) as usize
            }
        }
    };
    let note = per.map(|p| {
        format!(
            "from the proven period {} (preperiod {}) of the joint state",
            p.period, p.preperiod
        )
    });
    let method = if per.is_some() { "period" } else { "sequence" };
    let (is_p, grundy, moves) = if heaps.len() == 1 {
        one_heap_answer(rule, &one, heaps[0], last, &red)
    } else {
        nim_sum_answer(&one, heaps, &red)
    };
    Ok(PositionAnswer {
        is_p,
        grundy,
        moves,
        method,
        note,
    })
}

/// One heap's sequence up to the largest heap (no period needed) or up to a
/// horizon where its joint state's period is proven (the horizon grows
/// fourfold until one is, up to 2^26).
fn one_heap_with_period(
    rule: &Rule,
    heaps: &[u64],
    maxs: usize,
) -> anyhow::Result<(OneHeap, Option<Period>)> {
    let top = *heaps.iter().max().unwrap();
    let mut horizon = (64 * maxs + 64).max(4096);
    loop {
        let direct = top as usize <= horizon;
        let one = OneHeap::solve(
            rule,
            if direct {
                (top as usize).max(maxs)
            } else {
                horizon
            },
            &|_| {},
        );
        if direct {
            return Ok((one, None));
        }
        match one.witness() {
            Some(w) => {
                let per = Period {
                    preperiod: w.1,
                    period: w.0,
                    status: period::Status::Proven,
                    end: one.is_p.len() - 1,
                };
                return Ok((one, Some(per)));
            }
            None if horizon < (1 << 26) => horizon *= 4,
            None => bail!("no period proven up to {horizon}; cannot answer heaps this large"),
        }
    }
}

/// Moves of one heap of n (the last take `last` barred under `no_repeat`).
fn one_heap_answer(
    rule: &Rule,
    one: &OneHeap,
    n: u64,
    last: Option<u32>,
    red: &dyn Fn(u64) -> usize,
) -> (bool, Option<u64>, Vec<(usize, u32)>) {
    let mut moves = Vec::new();
    for &s in &one.takes {
        if s as u64 > n || (rule.no_repeat && last == Some(s)) {
            continue;
        }
        if one.is_p_after(red(n - s as u64), Some(s)) {
            moves.push((0, s));
        }
    }
    let r = red(n);
    let is_p = match &one.joint {
        Some(j) => j.child_is_p(r, last),
        None => one.is_p[r],
    };
    let grundy = one.grundy.as_ref().map(|g| g.get(r) as u64);
    (is_p, grundy, moves)
}

/// Several heaps: the nim-sum of their Grundy values, and every take that
/// makes it 0.
fn nim_sum_answer(
    one: &OneHeap,
    heaps: &[u64],
    red: &dyn Fn(u64) -> usize,
) -> (bool, Option<u64>, Vec<(usize, u32)>) {
    let g = one.grundy.as_ref().unwrap();
    let x = heaps.iter().fold(0, |a, &h| a ^ g.get(red(h)));
    let mut moves = Vec::new();
    if x != 0 {
        for (i, &h) in heaps.iter().enumerate() {
            let target = g.get(red(h)) ^ x;
            for &s in &one.takes {
                if s as u64 <= h && g.get(red(h - s as u64)) == target {
                    moves.push((i, s));
                }
            }
        }
    }
    (x == 0, Some(x as u64), moves)
}
