//! `nimlab solve rules`: one position's outcome, Grundy value (where the
//! game is a sum without history) and winning moves, e.g.
//! `nimlab solve rules --move "t <= k and t != last" --k 3 --heaps 10,7 --last 2`.

use std::time::Instant;

use serde_json::json;

use super::cond::{Cond, NAMES};
use super::game::{History, Move, Rule};
use super::params::{KEYS, param_name};
use super::solver::{Joint, SPLIT_MISERE_TOKENS, grundy_values, grundy_winning_moves};
use crate::family::Answer;
use crate::family::solved::{self, Solved, WinningMove};
use crate::game::{PLAY_WORDS, Play};
use crate::params::{CliArg, CliForm, Node, SWEEP_KEYS};

/// The command-line arguments.
pub const CLI_ARGS: &[CliArg] = &[
    CliArg::new("move", CliForm::Text),
    CliArg::new("both", CliForm::Text),
    CliArg::new("split", CliForm::Switch),
    CliArg::new("play", CliForm::Yaml),
    CliArg::new("heaps", CliForm::List),
    CliArg::new("last", CliForm::Yaml),
    CliArg::new("mine", CliForm::Yaml),
    // Any other name: a parameter the conditions read (`--k 3`).
    CliArg::new(crate::params::ANY_ARG, CliForm::Yaml),
    // `nimlab play` from a sweep: `heaps: D` with N or N1..N3.
    CliArg::new("N", CliForm::Yaml),
    CliArg::new("N1", CliForm::Yaml),
    CliArg::new("N2", CliForm::Yaml),
    CliArg::new("N3", CliForm::Yaml),
];

fn one_int(pos: &Node<'_>, key: &str) -> anyhow::Result<Option<i64>> {
    let Some(n) = pos.get(key) else {
        return Ok(None);
    };
    let v = n.ints(-(1 << 24), 1 << 24)?;
    if v.len() != 1 {
        return Err(n
            .err(format!(
                "{} values; one position needs one: give --{key} <value>",
                v.len()
            ))
            .into());
    }
    Ok(Some(v[0]))
}

/// The rule of one position's arguments.
pub(crate) fn rule(pos: &Node<'_>) -> anyhow::Result<Rule> {
    let mut params = Vec::new();
    let own = |k: &str| {
        CLI_ARGS.iter().any(|a| a.name == k) || SWEEP_KEYS.contains(&k) || KEYS.contains(&k)
    };
    for key in pos.expect_map()?.keys().filter(|k| !own(k)) {
        if let Some(n) = pos.get(key) {
            param_name(key).map_err(|m| n.err(m))?;
        }
        if let Some(v) = one_int(pos, key)? {
            params.push((key.clone(), v));
        }
    }
    let names: Vec<String> = params.iter().map(|(k, _)| k.clone()).collect();
    let cond = |key: &str, allowed: &[&str]| -> anyhow::Result<Option<Cond>> {
        match pos.get(key) {
            Some(n) => Ok(Some(
                Cond::compile(n.str()?, allowed, &names).map_err(|m| n.err(m))?,
            )),
            None => Ok(None),
        }
    };
    let mv = cond("move", &NAMES[..5])?.ok_or_else(|| {
        pos.err("missing `move`: the condition of a move, e.g. --move \"is_square(t)\"")
    })?;
    let play = match pos.get("play") {
        Some(n) => Play::parse(n.word(PLAY_WORDS)?).unwrap_or(Play::Normal),
        None => Play::Normal,
    };
    let split = match pos.get("split") {
        Some(n) => n.bools()?.first().copied().unwrap_or(false),
        None => false,
    };
    Ok(Rule {
        mv,
        both: cond("both", &["t", "n1", "n2"])?,
        split,
        play,
        params,
    })
}

pub(crate) fn move_text(m: &Move, several: bool) -> String {
    let letter = |i: usize| ((b'A' + i as u8) as char).to_string();
    let mut s = String::new();
    if several || m.heap2.is_some() {
        s.push_str(&letter(m.heap));
    }
    if let Some(j) = m.heap2 {
        s.push_str(&letter(j));
    }
    s.push_str(&m.take.to_string());
    if m.split > 0 {
        s.push_str(&format!("/{}", m.split));
    }
    s
}

/// The rule as arguments of `solve` (`move`, `play`, `split`, `both` where
/// given, and the parameters' values), so that the answer gives it back.
fn game_map(rule: &Rule) -> serde_json::Map<String, serde_json::Value> {
    let mut g = json!({
        "move": rule.mv.source,
        "split": rule.split,
        "play": rule.play.as_str(),
    });
    if let Some(b) = &rule.both {
        g["both"] = json!(b.source);
    }
    for (k, v) in &rule.params {
        g[k] = json!(v);
    }
    solved::map(g)
}

/// The heaps and the takes remembered (none: left out), as arguments of
/// `solve`.
fn position_map(heaps: &[u32], hist: History) -> serde_json::Map<String, serde_json::Value> {
    let mut p = json!({ "heaps": heaps });
    if hist.last > 0 {
        p["last"] = json!(hist.last);
    }
    if hist.mine > 0 {
        p["mine"] = json!(hist.mine);
    }
    solved::map(p)
}

/// Refuses the arguments `keys` where they mean nothing, saying `why`
/// (the others are the family's, or parameters checked by [`rule`]).
pub(crate) fn refuse(pos: &Node<'_>, keys: &[&str], why: &str) -> anyhow::Result<()> {
    match keys.iter().find_map(|k| pos.get(k)) {
        Some(n) => Err(n.err(format!("not an argument here: {why}")).into()),
        None => Ok(()),
    }
}

/// `nimlab solve rules`.
pub fn solve(pos: &Node<'_>) -> anyhow::Result<Answer> {
    refuse(
        pos,
        &["N", "N1", "N2", "N3"],
        "a position's heaps are given by --heaps",
    )?;
    let rule = rule(pos)?;
    let heaps: Vec<u32> = pos
        .req("heaps", "the heap sizes, e.g. --heaps 3,5")?
        .ints(0, (1 << 24) - 1)?
        .into_iter()
        .map(|x| x as u32)
        .collect();
    let hist = History {
        last: one_int(pos, "last")?.unwrap_or(0).max(0) as u32,
        mine: one_int(pos, "mine")?.unwrap_or(0).max(0) as u32,
    };
    let t0 = Instant::now();
    let (is_p, grundy, moves, method) = search(&rule, &heaps, hist)?;
    let seconds = t0.elapsed().as_secs_f64();
    let several = heaps.len() > 1;
    let winning_moves: Vec<WinningMove> = moves
        .iter()
        .map(|m| winning_move(m, &heaps, hist, several))
        .collect();
    let text = answer_text(&rule, &heaps, is_p, grundy, &winning_moves);
    let solved = Solved {
        family: "rules",
        rule: rule.label(),
        game: game_map(&rule),
        position: position_map(&heaps, hist),
        is_p,
        grundy,
        winning_moves,
        method,
        seconds,
        details: solved::map(json!({})),
    };
    Ok(Answer {
        text,
        json: solved.json(),
    })
}

/// The position's outcome, Grundy value (where it has one), winning moves
/// and the method that found them: Grundy values for a sum without
/// history, else a search of the joint state.
fn search(
    rule: &Rule,
    heaps: &[u32],
    hist: History,
) -> anyhow::Result<(bool, Option<u64>, Vec<Move>, &'static str)> {
    let tokens: u64 = heaps.iter().map(|&x| x as u64).sum();
    let fresh = hist == History::default();
    Ok(if rule.has_grundy() && fresh {
        let top = heaps.iter().copied().max().unwrap_or(0) as usize;
        let g = grundy_values(rule, top + 1);
        let v = heaps.iter().fold(0, |x, &n| x ^ g.get(n as usize));
        (
            v == 0,
            Some(v as u64),
            grundy_winning_moves(rule, &g, heaps),
            "grundy",
        )
    } else {
        if rule.split && tokens > SPLIT_MISERE_TOKENS {
            anyhow::bail!(
                "a splitting rule in misère play (or with a history) is searched on the whole position, to {SPLIT_MISERE_TOKENS} tokens in all; this one has {tokens}"
            );
        }
        let mut j = Joint::new(rule);
        let p = j.loses(heaps, hist);
        let mut all = Vec::new();
        let mut env = rule.env();
        rule.moves(&mut env, heaps, rule.key_history(hist), |m, next| {
            all.push((m, next.to_vec()))
        });
        let wins = all
            .into_iter()
            .filter(|(m, next)| j.loses(next, hist.after(m.take)))
            .map(|(m, _)| m)
            .collect();
        (p, None, wins, "joint state")
    })
}

/// A winning move: in words, the position it leads to, its fields.
fn winning_move(m: &Move, heaps: &[u32], hist: History, several: bool) -> WinningMove {
    let mut after = heaps.to_vec();
    after[m.heap] -= m.take + m.split;
    if let Some(j) = m.heap2 {
        after[j] -= m.take;
    }
    if m.split > 0 {
        after.push(m.split);
    }
    WinningMove {
        text: move_text(m, several),
        to: position_map(
            &after,
            History {
                last: m.take,
                mine: hist.last,
            },
        ),
        extra: solved::map(json!({
            "heap": m.heap + 1,
            "heap2": m.heap2.map(|j| j + 1),
            "take": m.take,
            "split": m.split,
        })),
    }
}

/// The answer in words: position, rule, outcome, Grundy value, moves.
fn answer_text(
    rule: &Rule,
    heaps: &[u32],
    is_p: bool,
    grundy: Option<u64>,
    winning_moves: &[WinningMove],
) -> String {
    let texts: Vec<&str> = winning_moves.iter().map(|w| w.text.as_str()).collect();
    format!(
        "position {heaps:?}, rule {}, {} play\noutcome: {}{}\nwinning moves: {}\n",
        rule.label(),
        rule.play.as_str(),
        if is_p {
            "P (the player to move loses)"
        } else {
            "N (the player to move wins)"
        },
        grundy
            .map(|g| format!(", Grundy value {g}"))
            .unwrap_or_default(),
        if texts.is_empty() {
            "none".to_string()
        } else {
            texts.join(", ")
        }
    )
}
