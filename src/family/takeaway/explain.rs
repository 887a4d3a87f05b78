//! Why a stored position has its value, for a counterexample. One heap
//! without `no_repeat`: its options (read from the other rows of the same
//! rule) and their values. Several heaps, or `no_repeat`: every move solved
//! again (Grundy values as the XOR of one-heap values in normal play without
//! `no_repeat`; otherwise the joint-state solver, the move's take barred for
//! the opponent under `no_repeat`), with a winning move or the fact that every
//! move reaches an N-position.

use std::fmt::Write as _;

use super::solver::{Grundy, Joint, grundy_sequence};
use crate::data::{Cell, Table};
use crate::family::explain_moves::{MoveAccount, group};
use crate::game::Play;

/// Joint states solved at most to explain one position.
const MAX_STATES: usize = 1 << 22;

/// Options shown at most.
const SHOWN: usize = 12;

/// Stones drawn per heap at most (a larger heap is written as a number).
const DRAWN_STONES: i64 = 40;

/// A `positions` row's heaps, one line each (`A  7  ●●●●●●●`), every heap of
/// at most [`DRAWN_STONES`] stones.
pub fn draw(dataset: &str, t: &Table, row: usize) -> Option<String> {
    if dataset != "positions" {
        return None;
    }
    let heaps: Vec<(String, i64)> = match t.int("N", row) {
        Some(n) => vec![(String::new(), n)],
        None => ["N1", "N2", "N3", "N4", "N5", "N6"]
            .iter()
            .zip('A'..)
            .filter_map(|(c, name)| Some((format!("{name} "), t.int(c, row)?)))
            .collect(),
    };
    if heaps.is_empty() || heaps.iter().any(|(_, n)| !(0..=DRAWN_STONES).contains(n)) {
        return None;
    }
    let mut s = String::new();
    for (name, n) in heaps {
        let _ = writeln!(s, "  {name}{n:>2}  {}", "●".repeat(n as usize));
    }
    Some(s)
}

/// Several heaps: the position as the reports write it, `(1,4,5)`, from
/// a row's key (`N1 = 1`, `N2 = 4`, `N3 = 5`); none with one heap (`N = 5`
/// reads as it is).
pub fn position_name(dataset: &str, key: &[(String, String)]) -> Option<String> {
    if dataset != "positions" {
        return None;
    }
    let heaps: Vec<&str> = ["N1", "N2", "N3", "N4", "N5", "N6"]
        .iter()
        .map_while(|n| key.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str()))
        .collect();
    (heaps.len() > 1).then(|| format!("({})", heaps.join(",")))
}

/// The row of the same rule with heap `n` (rows of a rule are usually
/// consecutive in N, so `row - (N - n)` is tried first).
fn row_of(t: &Table, row: usize, rule: &str, n: i64) -> Option<usize> {
    let here = t.int("N", row)?;
    let same = |r: usize| t.text("rule", r) == Some(rule) && t.int("N", r) == Some(n);
    let guess = (row as i64 - (here - n)) as usize;
    if guess < t.rows() && same(guess) {
        return Some(guess);
    }
    (0..t.rows()).find(|&r| same(r))
}

/// The takes allowed from heap `n`.
pub(super) fn takes(t: &Table, row: usize, n: i64) -> Option<Vec<i64>> {
    if let Some(Cell::IntList(s)) = t.cell("take_set", row) {
        return Some(s.iter().copied().filter(|&x| x <= n).collect());
    }
    let lo = t.int("take_min", row)?;
    let hi = t.int("take_max", row).unwrap_or(n).min(n);
    Some((lo..=hi).collect())
}

/// One heap, without no_repeat: the options N − t and their Grundy values
/// (normal play) or outcomes, read from the table.
pub fn explain(dataset: &str, t: &Table, row: usize) -> Option<String> {
    if dataset != "positions" {
        return None;
    }
    let no_repeat = matches!(t.cell("no_repeat", row), Some(Cell::Bool(true)));
    if no_repeat || t.int("N", row).is_none() {
        return explain_solved(t, row, no_repeat);
    }
    let n = t.int("N", row)?;
    let rule = t.text("rule", row)?;
    let grundy = t.int("grundy", row).is_some();
    let mut opts: Vec<(i64, i64, String)> = Vec::new();
    for take in takes(t, row, n)? {
        let r = row_of(t, row, rule, n - take)?;
        let v = if grundy {
            t.int("grundy", r)?.to_string()
        } else {
            t.text("outcome", r)?.to_string()
        };
        opts.push((take, n - take, v));
    }
    if opts.is_empty() {
        let play = t.text("play", row).unwrap_or("normal");
        let who = if Play::parse(play) == Some(Play::Misere) {
            "wins"
        } else {
            "loses"
        };
        return Some(format!(
            "no move from N={n}: the player to move {who} ({play} play)"
        ));
    }
    let list = |v: &[&(i64, i64, String)]| {
        let mut s: Vec<String> = v
            .iter()
            .take(SHOWN)
            .map(|(k, m, x)| format!("−{k}→{m} ({x})"))
            .collect();
        if v.len() > SHOWN {
            s.push(format!("… {} more", v.len() - SHOWN));
        }
        s.join(", ")
    };
    let all: Vec<&(i64, i64, String)> = opts.iter().collect();
    let mut s = String::new();
    if grundy {
        let own = t.int("grundy", row)?;
        let _ = write!(
            s,
            "the options of N={n} and their Grundy values: {}; the smallest value not among them is {own}",
            list(&all)
        );
    } else if t.text("outcome", row)? == "N" {
        let wins: Vec<&(i64, i64, String)> = opts.iter().filter(|o| o.2 == "P").collect();
        let _ = write!(
            s,
            "winning moves from N={n} (to a P-position): {}",
            list(&wins)
        );
    } else {
        let _ = write!(
            s,
            "every move from N={n} reaches an N-position: {}",
            list(&all)
        );
    }
    Some(s)
}

/// The heaps of a row: `N` with one heap, else `N1`, `N2`, … up to the first null.
pub(super) fn heaps_of(t: &Table, row: usize) -> Option<Vec<usize>> {
    if let Some(n) = t.int("N", row) {
        return usize::try_from(n).ok().map(|n| vec![n]);
    }
    let mut v = Vec::new();
    for i in 1..=6 {
        match t.int(&format!("N{i}"), row) {
            Some(h) => v.push(usize::try_from(h).ok()?),
            None => break,
        }
    }
    (!v.is_empty()).then_some(v)
}

/// A move as the tables print it: `A3` (3 from heap A), or `−3` with one heap.
fn move_text(heaps: usize, i: usize, take: u32) -> String {
    if heaps == 1 {
        format!("−{take}")
    } else {
        format!("{}{take}", (b'A' + i as u8) as char)
    }
}

pub(super) fn tuple(h: &[usize]) -> String {
    let v: Vec<String> = h.iter().map(usize::to_string).collect();
    format!("({})", v.join(","))
}

/// Every move of a row's position solved again (several heaps or
/// `no_repeat`): the heaps, the moves, the heaps' Grundy values in normal
/// play without `no_repeat` (else `None`) and the play.
type Solved = (Vec<usize>, Vec<Opt>, Option<Grundy>, Play);

fn solved_options(t: &Table, row: usize, no_repeat: bool) -> Option<Solved> {
    let heaps = heaps_of(t, row)?;
    let top = *heaps.iter().max()?;
    let all = takes(t, row, top as i64)?;
    let all: Vec<u32> = all
        .into_iter()
        .filter_map(|x| u32::try_from(x).ok())
        .collect();
    let play = Play::parse(t.text("play", row)?).unwrap_or(Play::Normal);
    let states = heaps
        .iter()
        .try_fold(1usize, |acc, &h| acc.checked_mul(h + 1))?;
    if states > MAX_STATES {
        return None;
    }
    let grundy = play == Play::Normal && !no_repeat;
    let values = grundy.then(|| grundy_sequence(&all, top + 1));
    let joint = (!grundy).then(|| {
        let dims: Vec<usize> = heaps.iter().map(|h| h + 1).collect();
        Joint::solve(&dims, &all, play, no_repeat, &|_| {})
    });
    let opts = options(&heaps, &all, values.as_ref(), joint.as_ref())?;
    Some((heaps, opts, values, play))
}

/// Several heaps or `no_repeat`: every move from the position solved again.
fn explain_solved(t: &Table, row: usize, no_repeat: bool) -> Option<String> {
    let (heaps, opts, values, play) = solved_options(t, row, no_repeat)?;
    let here = tuple(&heaps);
    if opts.is_empty() {
        let who = if play == Play::Misere {
            "wins"
        } else {
            "loses"
        };
        return Some(format!(
            "no move from {here}: the player to move {who} ({} play)",
            play.as_str()
        ));
    }
    let list = |v: &[&Opt]| list_options(v, no_repeat);
    let every: Vec<&Opt> = opts.iter().collect();
    if let Some(g) = &values {
        let own = heaps.iter().fold(0, |a, &x| a ^ g.get(x));
        return Some(format!(
            "the options of {here} and their Grundy values: {}; the smallest value not among them is {own}",
            list(&every)
        ));
    }
    let wins: Vec<&Opt> = opts.iter().filter(|o| o.value == "P").collect();
    let start = if no_repeat {
        " at the start of a game"
    } else {
        ""
    };
    Some(if wins.is_empty() {
        format!(
            "every move from {here}{start} reaches an N-position: {}",
            list(&every)
        )
    } else {
        format!(
            "winning moves from {here}{start} (to a P-position): {}",
            list(&wins)
        )
    })
}

/// Every move from `heaps`: its text, take, the position after it and that
/// position's Grundy value (`values`) or outcome (`joint`).
fn options(
    heaps: &[usize],
    all: &[u32],
    values: Option<&Grundy>,
    joint: Option<&Joint>,
) -> Option<Vec<Opt>> {
    let mut opts: Vec<Opt> = Vec::new();
    for (i, &h) in heaps.iter().enumerate() {
        for &s in all.iter().filter(|&&s| s as usize <= h) {
            let mut next = heaps.to_vec();
            next[i] -= s as usize;
            let v = match (values, joint) {
                (Some(g), _) => next.iter().fold(0, |a, &x| a ^ g.get(x)).to_string(),
                (_, Some(j)) => {
                    let p = j.child_is_p(j.index(&next), Some(s));
                    (if p { "P" } else { "N" }).to_string()
                }
                _ => return None,
            };
            opts.push(Opt {
                text: move_text(heaps.len(), i, s),
                take: s,
                next,
                value: v,
            });
        }
    }
    Some(opts)
}

/// The first [`SHOWN`] moves as text ("… n more" after them).
fn list_options(v: &[&Opt], no_repeat: bool) -> String {
    let mut s: Vec<String> = v
        .iter()
        .take(SHOWN)
        .map(|o| {
            let barred = if no_repeat {
                format!("; the reply may not take {}", o.take)
            } else {
                String::new()
            };
            format!("{}→{} ({}{barred})", o.text, tuple(&o.next), o.value)
        })
        .collect();
    if v.len() > SHOWN {
        s.push(format!("… {} more", v.len() - SHOWN));
    }
    s.join(", ")
}

/// One move of a position being explained.
struct Opt {
    text: String,
    take: u32,
    next: Vec<usize>,
    value: String,
}

/// One heap without `no_repeat`: each take, the heap it leaves and that
/// heap's Grundy value or outcome, read from the rows of the same rule.
fn table_options(t: &Table, row: usize) -> Option<Vec<Opt>> {
    let n = t.int("N", row)?;
    let rule = t.text("rule", row)?;
    let grundy = t.int("grundy", row).is_some();
    let mut opts = Vec::new();
    for take in takes(t, row, n)? {
        let r = row_of(t, row, rule, n - take)?;
        let value = if grundy {
            t.int("grundy", r)?.to_string()
        } else {
            t.text("outcome", r)?.to_string()
        };
        opts.push(Opt {
            text: move_text(1, 0, u32::try_from(take).ok()?),
            take: u32::try_from(take).ok()?,
            next: vec![usize::try_from(n - take).ok()?],
            value,
        });
    }
    Some(opts)
}

/// `taking 3 leaves 26`, `taking 1 from heap B leaves (0,0,1)`.
fn move_words(o: &Opt, heaps: usize, no_repeat: bool) -> String {
    let from = match o.text.chars().next() {
        Some(c) if heaps > 1 => format!(" from heap {c}"),
        _ => String::new(),
    };
    let next = if heaps == 1 {
        o.next[0].to_string()
    } else {
        tuple(&o.next)
    };
    let barred = if no_repeat {
        format!(" (the reply may not take {})", o.take)
    } else {
        String::new()
    };
    format!("taking {}{from} leaves {next}{barred}", o.take)
}

/// The reports' take-away positions by their moves: each take and the
/// position it leaves, grouped into moves that leave a loss for the
/// opponent (P) and moves that leave them a win (N), with the Grundy value
/// of each in normal play; the conclusion says who wins and by which move.
pub fn first_moves(dataset: &str, t: &Table, row: usize) -> Option<MoveAccount> {
    if dataset != "positions" {
        return None;
    }
    let no_repeat = matches!(t.cell("no_repeat", row), Some(Cell::Bool(true)));
    let (heaps, opts, grundy, play) = if no_repeat || t.int("N", row).is_none() {
        let (h, o, g, play) = solved_options(t, row, no_repeat)?;
        (h, o, g.is_some(), play)
    } else {
        let n = usize::try_from(t.int("N", row)?).ok()?;
        let play = Play::parse(t.text("play", row)?).unwrap_or(Play::Normal);
        (
            vec![n],
            table_options(t, row)?,
            t.int("grundy", row).is_some(),
            play,
        )
    };
    let here = if heaps.len() == 1 {
        format!("a heap of {}", heaps[0])
    } else {
        tuple(&heaps)
    };
    let is_p = |o: &Opt| {
        if grundy {
            o.value == "0"
        } else {
            o.value == "P"
        }
    };
    let start = if no_repeat {
        " at the start of a game"
    } else {
        ""
    };
    let moves: Vec<(String, String, u8)> = opts
        .iter()
        .map(|o| {
            let mut m = move_words(o, heaps.len(), no_repeat);
            if grundy {
                m = format!("{m} (Grundy {})", o.value);
            }
            let (to, k) = if is_p(o) {
                ("a loss for the opponent (P)", 0)
            } else {
                ("a win for the opponent (N)", 1)
            };
            (m, to.to_string(), k)
        })
        .collect();
    let position = format!("{here}{start}");
    let win = opts.iter().find(|o| is_p(o));
    let conclusion = match (win, opts.is_empty()) {
        (_, true) => {
            let who = if play == Play::Misere {
                "wins"
            } else {
                "loses"
            };
            format!("no move: the player to move {who} ({} play)", play.as_str())
        }
        (Some(o), _) => format!(
            "{here} is a win for the player to move (N): {}, a loss for the opponent",
            move_words(o, heaps.len(), false)
        ),
        (None, _) => format!(
            "every move leaves the opponent a win: {here} is a loss for the player to move (P)"
        ),
    };
    Some(MoveAccount {
        position,
        groups: group(moves),
        conclusion,
    })
}
