//! `nimlab play takeaway`: heaps, any take rule, normal or misère, with or
//! without `no_repeat`, against the computer.
//!
//! The replies come from the family's own solvers, built once per session:
//!
//! * `take: any`, normal play: Nim, the XOR of the heaps;
//! * other take sets, normal play: the Grundy sequence of one heap
//!   ([`solver::grundy_sequence`]) up to the largest heap, XORed;
//! * misère play or `no_repeat`: the joint-state table ([`Joint`]) of every
//!   position below the start (with the last take under `no_repeat`);
//! * heaps too large for a table (normal play with a finite take set, or one
//!   heap): [`super::answer`], which reduces them by the proven period.

use std::fmt::Write as _;

use anyhow::{Result, bail};
use serde_json::json;

use super::params::one_rule;
use super::solver::{self, Grundy, Joint, MULTI};
use super::{OneHeap, Rule, TakeForm, answer};
use crate::game::Play;
use crate::params::Node;
use crate::play::rng::mix;
use crate::play::term::{Paint, paint};
use crate::play::{HtmlGame, Move, PlayGame, Player, capitalise};

/// Largest joint-state table built for a session (4 bytes a state: 128 MiB).
const MAX_JOINT_STATES: u64 = 1 << 25;
/// Largest heap under `take: any` (every take is a legal move to list).
const MAX_ANY_HEAP: i64 = 100_000;
/// Largest heap drawn stone by stone (terminal) and on the page.
const MAX_DRAWN: u64 = 40;
/// Largest heap on the classroom page.
const MAX_PAGE_HEAP: u64 = 60;
/// Most move checks for the joint table under `take: any` (about a second).
const MAX_ANY_CHECKS: f64 = 2e9;
/// Largest Grundy table built for a session.
const MAX_GRUNDY_TABLE: u64 = 1 << 24;

/// How the session's positions are solved.
enum Engine {
    /// `take: any`, normal play: G(n) = n.
    Nim,
    /// Normal play, finite take set: G(0..=largest heap).
    Grundy(Grundy),
    /// Misère or `no_repeat`: every position below the start.
    Joint(Joint),
    /// Heaps too large for a table: [`answer`] (periodic).
    Answer,
}

/// A take-away game in progress.
pub struct TakeawayGame {
    rule: Rule,
    start: Vec<u64>,
    heaps: Vec<u64>,
    /// The last take (it matters under `no_repeat`).
    last: Option<u32>,
    /// Moves played: (heap, take).
    history: Vec<(usize, u32)>,
    first: Player,
    engine: Engine,
}

fn heap_letter(i: usize) -> char {
    (b'A' + i as u8) as char
}

fn heaps_text(h: &[u64]) -> String {
    h.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The heaps: `heaps: [3, 5, 7]` (as for `solve`), `heaps: 7` (one heap), or a
/// sweep's `heaps: D` with `N` or `N1..ND`.
fn parse_heaps(p: &Node<'_>, any: bool) -> Result<Vec<u64>> {
    let hi = if any { MAX_ANY_HEAP } else { i64::MAX / 2 };
    let ns: Vec<Node<'_>> = std::iter::once("N".to_string())
        .chain((1..=6).map(|i| format!("N{i}")))
        .filter_map(|k| p.get(&k))
        .collect();
    let heaps = p.get("heaps");
    match heaps {
        Some(h) if h.value().is_array() => {
            if !ns.is_empty() {
                bail!(
                    "{}: with N or N1 … N6 (a sweep's form) `heaps` is the number of heaps, and a game needs one number, not a list; or give the heap sizes alone (--heaps 3,5,7)",
                    h.path()
                );
            }
            let v = h.ints(0, hi)?;
            if v.is_empty() || v.len() > 26 {
                return Err(h.err("give 1 to 26 heaps (named A to Z)").into());
            }
            Ok(v.into_iter().map(|x| x as u64).collect())
        }
        Some(h) if ns.is_empty() => Ok(vec![h.one_int(0, hi)? as u64]),
        _ => Ok(p
            .sweep_heap_sizes(6, hi)?
            .into_iter()
            .map(|x| x as u64)
            .collect()),
    }
}

/// Builds the game from `solve`'s parameters (or a sweep's).
pub fn game(p: &Node<'_>) -> Result<Box<dyn PlayGame>> {
    p.expect_keys(&[
        "heaps",
        "take",
        "rule",
        "play",
        "no_repeat",
        "N",
        "N1",
        "N2",
        "N3",
        "N4",
        "N5",
        "N6",
        "horizon",
    ])?;
    let rule = one_rule(p)?;
    let heaps = parse_heaps(p, rule.take == TakeForm::Any)?;
    Ok(Box::new(TakeawayGame::new(rule, heaps)?))
}

impl TakeawayGame {
    /// A game of `rule` from `heaps`.
    pub fn new(rule: Rule, heaps: Vec<u64>) -> Result<TakeawayGame> {
        let top = *heaps.iter().max().unwrap();
        let states: f64 = heaps.iter().map(|&h| h as f64 + 1.0).product();
        let engine = if rule.has_grundy_values() {
            if rule.take == TakeForm::Any {
                Engine::Nim
            } else if top < MAX_GRUNDY_TABLE {
                let takes = rule.take.takes(top as usize);
                Engine::Grundy(solver::grundy_sequence(&takes, top as usize + 1))
            } else {
                Engine::Answer
            }
        } else if rule.take == TakeForm::Any && states * top as f64 > MAX_ANY_CHECKS {
            bail!(
                "take any with misère or no_repeat is solved on the joint state table, trying every take at every position: {:.2e} move checks here, more than the {MAX_ANY_CHECKS:.0e} a game may use; use smaller heaps",
                states * top as f64
            );
        } else if states <= MAX_JOINT_STATES as f64 {
            let dims: Vec<usize> = heaps.iter().map(|&h| h as usize + 1).collect();
            let takes = rule.take.takes(top as usize);
            Engine::Joint(Joint::solve(
                &dims,
                &takes,
                rule.play,
                rule.no_repeat,
                &|_| {},
            ))
        } else if heaps.len() == 1 && rule.take.max_take().is_some() {
            Engine::Answer
        } else {
            bail!(
                "misère or no_repeat on these heaps needs the joint state table of every position below the start: {states:.3e} states, more than the {MAX_JOINT_STATES} a game may use; use smaller heaps"
            );
        };
        Ok(TakeawayGame {
            rule,
            start: heaps.clone(),
            heaps,
            last: None,
            history: Vec::new(),
            first: Player::Person,
            engine,
        })
    }

    /// The takes allowed from a heap of `h` (ignoring `no_repeat`), ascending.
    fn takes_for(&self, h: u64) -> Vec<u32> {
        match &self.rule.take {
            TakeForm::Any => (1..=h as u32).collect(),
            f => f.takes(0).into_iter().filter(|&s| s as u64 <= h).collect(),
        }
    }

    fn legal(&self, heaps: &[u64], last: Option<u32>) -> Vec<(usize, u32)> {
        let mut out = Vec::new();
        for (i, &h) in heaps.iter().enumerate() {
            for s in self.takes_for(h) {
                if !(self.rule.no_repeat && last == Some(s)) {
                    out.push((i, s));
                }
            }
        }
        out
    }

    /// The Grundy value of one heap (normal play without `no_repeat`).
    fn grundy(&self, n: u64) -> u64 {
        match &self.engine {
            Engine::Nim => n,
            Engine::Grundy(g) => g.get(n as usize) as u64,
            _ => answer(&self.rule, &[n], None)
                .ok()
                .and_then(|a| a.grundy)
                .unwrap_or(0),
        }
    }

    fn nim_sum(&self, heaps: &[u64]) -> u64 {
        heaps.iter().fold(0, |x, &h| x ^ self.grundy(h))
    }

    /// Is `(heaps, last)` a P-position (the player to move loses)?
    fn is_p(&self, heaps: &[u64], last: Option<u32>) -> bool {
        match &self.engine {
            Engine::Nim | Engine::Grundy(_) => self.nim_sum(heaps) == 0,
            Engine::Joint(j) => {
                let hs: Vec<usize> = heaps.iter().map(|&h| h as usize).collect();
                j.child_is_p(j.index(&hs), last)
            }
            Engine::Answer => answer(&self.rule, heaps, last).is_ok_and(|a| a.is_p),
        }
    }

    fn wins_at(&self, heaps: &[u64], last: Option<u32>) -> Vec<(usize, u32)> {
        match &self.engine {
            Engine::Nim => {
                let x = self.nim_sum(heaps);
                heaps
                    .iter()
                    .enumerate()
                    .filter(|&(_, &h)| x != 0 && (h ^ x) < h)
                    .map(|(i, &h)| (i, (h - (h ^ x)) as u32))
                    .collect()
            }
            Engine::Grundy(_) => {
                let x = self.nim_sum(heaps);
                if x == 0 {
                    return Vec::new();
                }
                let mut out = Vec::new();
                for (i, &h) in heaps.iter().enumerate() {
                    let target = self.grundy(h) ^ x;
                    for s in self.takes_for(h) {
                        if self.grundy(h - s as u64) == target {
                            out.push((i, s));
                        }
                    }
                }
                out
            }
            Engine::Joint(j) => {
                let hs: Vec<usize> = heaps.iter().map(|&h| h as usize).collect();
                j.winning_moves(&hs, last)
            }
            Engine::Answer => answer(&self.rule, heaps, last)
                .map(|a| a.moves)
                .unwrap_or_default(),
        }
    }

    fn decode(m: Move) -> (usize, u32) {
        ((m.0 >> 32) as usize, m.0 as u32)
    }

    fn encode(i: usize, s: u32) -> Move {
        Move(((i as u64) << 32) | s as u64)
    }

    fn after(&self, heaps: &[u64], m: (usize, u32)) -> Vec<u64> {
        let mut h = heaps.to_vec();
        h[m.0] -= m.1 as u64;
        h
    }

    fn to_move(&self) -> Player {
        self.first.after(self.history.len())
    }

    fn name(&self, (i, s): (usize, u32)) -> String {
        if self.start.len() == 1 {
            s.to_string()
        } else {
            format!("{}{s}", heap_letter(i))
        }
    }

    fn rule_text(&self) -> String {
        let take = match &self.rule.take {
            TakeForm::Any => "any number of stones".to_string(),
            TakeForm::Range(1, n) => format!("1 to {n} stones"),
            TakeForm::Range(m, n) => format!("{m} to {n} stones"),
            TakeForm::Set(s) => format!(
                "{} stones",
                s.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let heap = if self.start.len() == 1 {
            "the heap"
        } else {
            "one heap"
        };
        let mut t = format!("take {take} from {heap}");
        if self.rule.no_repeat {
            t.push_str(", but not the number the opponent just took");
        }
        t
    }
}

/// Report 003's eight families of replies for misère Nim on three heaps
/// (二(四)): the case the position falls in and the position to make.
pub fn report003_case(h: &[u64]) -> Option<(usize, &'static str, [u64; 3])> {
    if h.len() != 3 {
        return None;
    }
    let mut s = [h[0], h[1], h[2]];
    s.sort_unstable();
    let [a, b, c] = s;
    let lower_one = |t: [u64; 3]| -> bool {
        // Exactly one heap above its part of `t`, the others equal to theirs.
        (0..3).any(|i| {
            let mut rest: Vec<u64> = s.to_vec();
            let big = rest.remove(i);
            (0..3).any(|j| {
                let mut tr: Vec<u64> = t.to_vec();
                let tj = tr.remove(j);
                let mut r2 = rest.clone();
                r2.sort_unstable();
                tr.sort_unstable();
                big > tj && r2 == tr
            })
        })
    };
    let zeros = s.iter().filter(|&&x| x == 0).count();
    if zeros == 2 && c > 1 {
        return Some((1, "(n, 0, 0), n > 1: make (1, 0, 0)", [1, 0, 0]));
    }
    if zeros == 1 && b == 1 {
        return Some((2, "(1, n, 0), n > 0: make (1, 0, 0)", [1, 0, 0]));
    }
    if a == 1 && b == 1 && c > 1 {
        return Some((3, "(1, 1, n), n > 1: make (1, 1, 1)", [1, 1, 1]));
    }
    if zeros == 1 && b != c {
        return Some((4, "(n₁, n₂, 0), n₁ ≠ n₂: make (n, n, 0)", [0, b, b]));
    }
    for (x, y, z) in [(a, b, c), (b, c, a), (a, c, b)] {
        if x == y && x > 1 && z > 0 {
            return Some((5, "(n₁, n₁, n₂), n₁ > 1, n₂ > 0: make (n, n, 0)", [0, x, x]));
        }
    }
    for (k, t, text) in [
        (
            6,
            [1, 2, 3],
            "(1, 2, n) n > 3, (1, n, 3) n > 2, (n, 2, 3) n > 1: make (1, 2, 3)",
        ),
        (
            7,
            [1, 4, 5],
            "(1, 4, n) n > 5, (1, n, 5) n > 4, (n, 4, 5) n > 1: make (1, 4, 5)",
        ),
        (
            8,
            [2, 4, 6],
            "(2, 4, n) n > 6, (2, n, 6) n > 4, (n, 4, 6) n > 2: make (2, 4, 6)",
        ),
    ] {
        if lower_one(t) {
            return Some((k, text, t));
        }
    }
    None
}

fn sorted3(h: &[u64]) -> [u64; 3] {
    let mut s = [h[0], h[1], h[2]];
    s.sort_unstable();
    s
}

fn binary_sum(values: &[u64]) -> String {
    let x = values.iter().fold(0, |a, &v| a ^ v);
    let width = values
        .iter()
        .chain(std::iter::once(&x))
        .map(|&v| 64 - v.leading_zeros() as usize)
        .max()
        .unwrap_or(1)
        .max(1);
    let parts: Vec<String> = values.iter().map(|v| format!("{v:0width$b}")).collect();
    format!("{} = {:0width$b}", parts.join(" ⊕ "), x)
}

impl TakeawayGame {
    /// One heap, normal play: the Grundy value is 0 exactly at the P-positions.
    fn why_one_heap(&self, before: u64, after: u64, m: (usize, u32)) -> String {
        let (gb, ga) = (self.grundy(before), self.grundy(after));
        let mut t = format!(
            "{before} → {after}. The Grundy values of take {}: G({before}) = {gb}, G({after}) = {ga}",
            self.rule.take.text()
        );
        if ga == 0 {
            t.push_str(": G = 0 is a safe position (P), every reply leaves a non-zero value.");
        } else {
            let _ = write!(
                t,
                ": not 0, so the opponent can win with {}.",
                self.replies_text(&[after], Some(m.1))
            );
        }
        t
    }

    fn why_nim_sum(&self, before: &[u64], after: &[u64], m: (usize, u32)) -> String {
        let g = |h: &[u64]| -> Vec<u64> { h.iter().map(|&x| self.grundy(x)).collect() };
        let (gb, ga) = (g(before), g(after));
        let mut t = String::new();
        let values = if self.rule.take == TakeForm::Any {
            "the heaps".to_string()
        } else {
            format!(
                "the Grundy values of the heaps (take {}: {})",
                self.rule.take.text(),
                before
                    .iter()
                    .zip(&gb)
                    .map(|(h, v)| format!("G({h}) = {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        let _ = write!(
            t,
            "{} → {}. Nim sum of {values} before: {} ({}); after: {}",
            heaps_text(before),
            heaps_text(after),
            gb.iter().fold(0, |a, &v| a ^ v),
            binary_sum(&gb),
            binary_sum(&ga)
        );
        let xa = ga.iter().fold(0, |a, &v| a ^ v);
        if xa == 0 {
            t.push_str(". Nim sum 0 is a safe position (P): every reply makes it non-zero, and whoever keeps leaving 0 takes the last stone.");
        } else {
            let _ = write!(
                t,
                ". The Nim sum {xa} ≠ 0 leaves the opponent a winning reply: {}.",
                self.replies_text(after, Some(m.1))
            );
        }
        t
    }

    fn replies_text(&self, after: &[u64], last: Option<u32>) -> String {
        let w = self.wins_at(after, last);
        let shown: Vec<String> = w
            .iter()
            .take(6)
            .map(|&mv| format!("{} → {}", self.name(mv), heaps_text(&self.after(after, mv))))
            .collect();
        shown.join(", ")
    }

    fn why_misere_nim(&self, before: &[u64], after: &[u64], m: (usize, u32)) -> String {
        let x = after.iter().fold(0, |a, &v| a ^ v);
        let big = after.iter().any(|&h| h >= 2);
        let ones = after.iter().filter(|&&h| h == 1).count();
        let mut t = format!(
            "{} → {}. Misère Nim: ",
            heaps_text(before),
            heaps_text(after)
        );
        if big {
            let _ = write!(
                t,
                "while some heap has 2 or more stones, play as in normal Nim; the Nim sum after is {}",
                binary_sum(after)
            );
            if x == 0 {
                t.push_str(": a safe position (P).");
            } else {
                let _ = write!(
                    t,
                    ", not 0: the opponent can win with {}.",
                    self.replies_text(after, Some(m.1))
                );
            }
        } else {
            let _ = write!(
                t,
                "every heap has at most one stone, so leave an odd number of one-stone heaps (whoever takes the last stone loses); {ones} left"
            );
            if ones % 2 == 1 {
                t.push_str(": a safe position (P).");
            } else if ones == 0 {
                t.push_str(": the last stone was just taken.");
            } else {
                t.push_str(": even, so the opponent wins by taking one.");
            }
        }
        if let Some((k, text, target)) = report003_case(before) {
            let reached = sorted3(after) == {
                let mut t = target;
                t.sort_unstable();
                t
            };
            let _ = write!(
                t,
                " Report 003's table, case ({k}): {text}{}",
                if reached {
                    " — this move does exactly that."
                } else {
                    " — this move does not."
                }
            );
        }
        t
    }

    fn why_table(&self, before: &[u64], after: &[u64], m: (usize, u32)) -> String {
        let last = Some(m.1);
        let mut t = format!("{} → {}", heaps_text(before), heaps_text(after));
        if self.rule.no_repeat {
            let _ = write!(t, " (the next player may not take {})", m.1);
        }
        let source = match &self.engine {
            Engine::Joint(j) => format!(
                "the joint state table of this game ({} positions{})",
                j.code.len(),
                if self.rule.no_repeat {
                    ", each with the last take"
                } else {
                    ""
                }
            ),
            _ => "the proven period of the one-heap sequence".to_string(),
        };
        if self.is_p(after, last) {
            let _ = write!(
                t,
                ". By {source} this is a P-position (a safe position): every move from it leaves a position with a winning reply."
            );
        } else {
            let _ = write!(
                t,
                ". By {source} this is an N-position: the opponent can win with {}.",
                self.replies_text(after, last)
            );
        }
        t
    }
}

impl PlayGame for TakeawayGame {
    fn title(&self) -> String {
        format!(
            "takeaway: heap{} {}, take {}{}, {}",
            if self.start.len() == 1 { "" } else { "s" },
            heaps_text(&self.start),
            self.rule.take.text(),
            if self.rule.no_repeat {
                ", no repeat"
            } else {
                ""
            },
            match self.rule.play {
                Play::Normal => "normal play (whoever takes the last stone wins)",
                Play::Misere => "misère play (whoever takes the last stone loses)",
            }
        )
    }

    fn rules(&self) -> String {
        let example = if self.start.len() == 1 {
            let s = self.takes_for(self.start[0]).first().copied().unwrap_or(1);
            format!("type how many stones to take, e.g. {s}")
        } else {
            let (i, h) = self
                .start
                .iter()
                .enumerate()
                .max_by_key(|(_, h)| **h)
                .unwrap();
            let s = self.takes_for(*h).first().copied().unwrap_or(1);
            format!(
                "type the heap's letter and how many stones, e.g. {}{s} takes {s} from heap {}",
                heap_letter(i),
                heap_letter(i)
            )
        };
        format!(
            "On your turn {}; {}. {}.",
            self.rule_text(),
            match self.rule.play {
                Play::Normal => "whoever cannot move loses, so taking the last stone wins",
                Play::Misere => "whoever takes the last stone loses",
            },
            capitalise(&example)
        )
    }

    fn start(&mut self, first: Player) {
        self.first = first;
        self.heaps = self.start.clone();
        self.last = None;
        self.history.clear();
    }

    fn draw(&self, color: bool) -> String {
        let last = self.history.last().copied();
        let mut lines = Vec::new();
        for (i, &h) in self.heaps.iter().enumerate() {
            let taken = match last {
                Some((j, s)) if j == i => s as u64,
                _ => 0,
            };
            let label = if self.heaps.len() == 1 {
                "   ".to_string()
            } else {
                format!("  {}", heap_letter(i))
            };
            let stones = if h + taken <= MAX_DRAWN {
                let mut s = " ●".repeat(h as usize);
                let gone = " ○".repeat(taken as usize);
                s.push_str(&paint(&gone, Paint::Red, color));
                crate::play::term::pad(&s, 2 * MAX_DRAWN.min(self.max_start()) as usize + 2)
            } else {
                format!(" ({h} stones)")
            };
            lines.push(format!(
                "{} {stones}  {h}",
                paint(&label, Paint::Cyan, color)
            ));
        }
        if self.rule.no_repeat
            && let Some(l) = self.last
        {
            lines.push(format!(
                "  (last take {l}: the next player may not take {l})"
            ));
        }
        lines.join("\n")
    }

    fn parse_move(&self, input: &str) -> Result<Move, String> {
        let t: String = input.chars().filter(|c| !c.is_whitespace()).collect();
        let d = self.heaps.len();
        let example = if d == 1 { "3" } else { "C2" };
        if !t.is_ascii() || t.chars().filter(|c| c.is_ascii_alphabetic()).count() > 1 {
            return Err(format!(
                "type {}how many stones to take, e.g. {example}",
                if d == 1 { "" } else { "a heap letter and " }
            ));
        }
        let (letter, digits) = match t.chars().next() {
            Some(c) if c.is_ascii_alphabetic() => (Some(c.to_ascii_uppercase()), &t[1..]),
            _ => (None, &t[..]),
        };
        let i = match (letter, d) {
            (None, 1) => 0,
            (None, _) => {
                return Err(format!(
                    "type a heap letter (A to {}) and how many stones, e.g. {example}",
                    heap_letter(d - 1)
                ));
            }
            (Some(c), _) => {
                let i = (c as u8 - b'A') as usize;
                if i >= d {
                    return Err(format!(
                        "there is no heap {c}: the heaps are {}",
                        if d == 1 {
                            "just one (type only the number)".to_string()
                        } else {
                            format!("A to {}", heap_letter(d - 1))
                        }
                    ));
                }
                i
            }
        };
        let s: u64 = digits.parse().map_err(|_| {
            format!("type the heap's letter and a number of stones, e.g. {example}")
        })?;
        let h = self.heaps[i];
        let heap = if d == 1 {
            "the heap".to_string()
        } else {
            format!("heap {}", heap_letter(i))
        };
        if s == 0 {
            return Err("take at least one stone".into());
        }
        if s > h {
            return Err(format!(
                "{heap} has only {h} stone{}",
                if h == 1 { "" } else { "s" }
            ));
        }
        let s = s as u32;
        if !self.takes_for(h).contains(&s) {
            return Err(format!("the rule is: {}", self.rule_text()));
        }
        if self.rule.no_repeat && self.last == Some(s) {
            return Err(format!(
                "no repeat: your opponent just took {s}, so you may not take {s} now"
            ));
        }
        Ok(Self::encode(i, s))
    }

    fn legal_moves(&self) -> Vec<Move> {
        self.legal(&self.heaps, self.last)
            .into_iter()
            .map(|(i, s)| Self::encode(i, s))
            .collect()
    }

    fn move_name(&self, m: Move) -> String {
        self.name(Self::decode(m))
    }

    fn effect(&self, m: Move) -> String {
        format!(
            "{} → {}",
            heaps_text(&self.heaps),
            heaps_text(&self.after(&self.heaps, Self::decode(m)))
        )
    }

    fn play(&mut self, m: Move) {
        let (i, s) = Self::decode(m);
        self.heaps[i] -= s as u64;
        self.history.push((i, s));
        self.last = Some(s);
    }

    fn undo(&mut self) {
        if let Some((i, s)) = self.history.pop() {
            self.heaps[i] += s as u64;
            self.last = self.history.last().map(|&(_, s)| s);
        }
    }

    fn result(&self) -> Option<bool> {
        if !self.legal(&self.heaps, self.last).is_empty() {
            return None;
        }
        Some(self.rule.play == Play::Misere)
    }

    fn end_reason(&self) -> String {
        let mover = self.to_move();
        let last = mover.other();
        if self.heaps.iter().all(|&h| h == 0) {
            format!(
                "{} took the last stone",
                if last == Player::Person {
                    "you"
                } else {
                    "the computer"
                }
            )
        } else {
            format!(
                "{} cannot move",
                if mover == Player::Person {
                    "you"
                } else {
                    "the computer"
                }
            )
        }
    }

    fn winning_moves(&self) -> Vec<Move> {
        if self.result().is_some() {
            return Vec::new();
        }
        self.wins_at(&self.heaps, self.last)
            .into_iter()
            .map(|(i, s)| Self::encode(i, s))
            .collect()
    }

    fn left_after(&self, m: Move) -> u64 {
        self.heaps.iter().sum::<u64>() - Self::decode(m).1 as u64
    }

    fn key(&self) -> u64 {
        let mut k = mix(self.last.map_or(0, |l| l as u64 + 1));
        for &h in &self.heaps {
            k = mix(k ^ h);
        }
        k
    }

    fn why(&self) -> Option<String> {
        let &(i, s) = self.history.last()?;
        let after = self.heaps.clone();
        let mut before = after.clone();
        before[i] += s as u64;
        let m = (i, s);
        let grundy_game = self.rule.has_grundy_values();
        let misere_nim = self.rule.play == Play::Misere
            && self.rule.take == TakeForm::Any
            && !self.rule.no_repeat;
        Some(if grundy_game && before.len() == 1 {
            self.why_one_heap(before[0], after[0], m)
        } else if grundy_game {
            self.why_nim_sum(&before, &after, m)
        } else if misere_nim {
            self.why_misere_nim(&before, &after, m)
        } else {
            self.why_table(&before, &after, m)
        })
    }

    fn html(&self) -> Result<HtmlGame> {
        let top = self.max_start();
        if top > MAX_PAGE_HEAP {
            bail!(
                "the page draws every stone: heaps of at most {MAX_PAGE_HEAP} stones (the largest here has {top})"
            );
        }
        let takes = self.rule.take.takes(top as usize);
        let engine = match &self.engine {
            Engine::Nim => json!({"kind": "nim"}),
            Engine::Grundy(_) => self.html_grundy(),
            Engine::Joint(j) => json!({
                "kind": "table",
                "strides": j.strides,
                "codes": j.code.iter().map(|&c| if c == MULTI { -1 } else { c as i64 }).collect::<Vec<_>>(),
            }),
            Engine::Answer => bail!("these heaps are too large for the page"),
        };
        Ok(HtmlGame {
            script: concat!(include_str!("../heaps/heaps.js"), include_str!("play.js")),
            data: json!({
                "heaps": self.start,
                "takes": takes,
                "any": self.rule.take == TakeForm::Any,
                "rule": self.rule_text(),
                "misere": self.rule.play == Play::Misere,
                "no_repeat": self.rule.no_repeat,
                "engine": engine,
            }),
        })
    }
}

impl TakeawayGame {
    fn max_start(&self) -> u64 {
        *self.start.iter().max().unwrap()
    }

    /// The Grundy sequence for the page: up to the largest heap, or one
    /// preperiod and one period when the proven period is shorter.
    fn html_grundy(&self) -> serde_json::Value {
        let top = self.max_start() as usize;
        let maxs = self.rule.take.max_take().unwrap_or(1) as usize;
        let one = OneHeap::solve(&self.rule, (64 * maxs + 64).max(top), &|_| {});
        let g = one.grundy.as_ref().expect("normal play has Grundy values");
        let (len, pre, per) = match one.witness() {
            Some((per, pre)) if pre + per < top + 1 => (pre + per, pre, per),
            _ => (top + 1, top + 1, 0),
        };
        json!({
            "kind": "grundy",
            "values": (0..len).map(|n| g.get(n)).collect::<Vec<_>>(),
            "pre": pre,
            "per": per,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{BruteOutcome, Game};

    fn game357() -> TakeawayGame {
        let rule = Rule {
            take: TakeForm::Any,
            play: Play::Misere,
            no_repeat: false,
        };
        TakeawayGame::new(rule, vec![3, 5, 7]).unwrap()
    }

    /// Misère Nim by hand (report 003, 文獻探討 (二)): P iff the Nim sum is 0
    /// while some heap has two stones or more, else iff the one-stone heaps are odd.
    fn misere_nim_p(h: &[u64]) -> bool {
        let x = h.iter().fold(0, |a, &v| a ^ v);
        if h.iter().any(|&v| v >= 2) {
            x == 0
        } else {
            x == 1
        }
    }

    #[test]
    fn the_357_table_is_misere_nim() {
        let g = game357();
        for a in 0..=3u64 {
            for b in 0..=5u64 {
                for c in 0..=7u64 {
                    let h = [a, b, c];
                    assert_eq!(g.is_p(&h, None), misere_nim_p(&h), "{h:?}");
                }
            }
        }
    }

    /// Every position of the 3-5-7 game that falls in one of report 003's
    /// eight cases: the report's target is one of the winning moves.
    #[test]
    fn report003_targets_are_winning_moves() {
        let g = game357();
        let mut cases = [0usize; 9];
        for a in 0..=3u64 {
            for b in 0..=5u64 {
                for c in 0..=7u64 {
                    let h = [a, b, c];
                    let Some((k, _, target)) = report003_case(&h) else {
                        continue;
                    };
                    cases[k] += 1;
                    let mut t = target;
                    t.sort_unstable();
                    let wins: Vec<[u64; 3]> = g
                        .wins_at(&h, None)
                        .into_iter()
                        .map(|m| sorted3(&g.after(&h, m)))
                        .collect();
                    assert!(wins.contains(&t), "{h:?} case {k}: {t:?} not in {wins:?}");
                }
            }
        }
        // Every case occurs.
        assert!(cases[1..].iter().all(|&n| n > 0), "{cases:?}");
        // The report's own examples.
        assert_eq!(report003_case(&[3, 4, 5]).unwrap().0, 7);
        assert_eq!(report003_case(&[1, 4, 6]).unwrap().0, 7);
        assert_eq!(report003_case(&[2, 4, 7]).unwrap().0, 8);
        assert_eq!(report003_case(&[1, 1, 5]).unwrap().0, 3);
        assert_eq!(report003_case(&[5, 0, 0]).unwrap().0, 1);
    }

    /// A plain game tree for the reference outcome (any rule, with no_repeat).
    #[derive(Clone, PartialEq, Eq, Hash)]
    struct Pos {
        h: Vec<u64>,
        last: Option<u32>,
        takes: Vec<u32>,
        no_repeat: bool,
    }

    impl Game for Pos {
        type Move = ();
        fn moves(&self) -> Vec<((), Pos)> {
            let mut out = Vec::new();
            for i in 0..self.h.len() {
                for &s in &self.takes {
                    if s as u64 <= self.h[i] && !(self.no_repeat && self.last == Some(s)) {
                        let mut p = self.clone();
                        p.h[i] -= s as u64;
                        p.last = Some(s);
                        out.push(((), p));
                    }
                }
            }
            out
        }
    }

    #[test]
    fn winning_moves_agree_with_the_game_tree() {
        let rules = [
            (TakeForm::Any, Play::Normal, false),
            (TakeForm::Range(1, 3), Play::Normal, false),
            (TakeForm::Set(vec![1, 3, 4]), Play::Misere, false),
            (TakeForm::Range(1, 3), Play::Normal, true),
            (TakeForm::Range(2, 4), Play::Misere, true),
        ];
        for (take, play, no_repeat) in rules {
            let rule = Rule {
                take: take.clone(),
                play,
                no_repeat,
            };
            let start = vec![4, 6, 5];
            let g = TakeawayGame::new(rule.clone(), start.clone()).unwrap();
            let takes = take.takes(6);
            let mut brute = BruteOutcome::new(play);
            for a in 0..=4 {
                for b in 0..=6 {
                    for c in 0..=5 {
                        for last in std::iter::once(None).chain(takes.iter().map(|&s| Some(s))) {
                            let h = vec![a, b, c];
                            let p = Pos {
                                h: h.clone(),
                                last,
                                takes: takes.clone(),
                                no_repeat,
                            };
                            let want: Vec<(usize, u32)> = g
                                .legal(&h, last)
                                .into_iter()
                                .filter(|&(i, s)| {
                                    let mut q = p.clone();
                                    q.h[i] -= s as u64;
                                    q.last = Some(s);
                                    brute.is_p(&q)
                                })
                                .collect();
                            let mut got = g.wins_at(&h, last);
                            got.sort_unstable();
                            assert_eq!(got, want, "{} at {h:?} last {last:?}", rule.label());
                            if !no_repeat && last.is_some() {
                                break;
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn typed_moves_are_checked() {
        let mut g = game357();
        g.start(Player::Person);
        assert_eq!(g.parse_move("C2"), Ok(TakeawayGame::encode(2, 2)));
        assert_eq!(g.parse_move(" c 2 "), Ok(TakeawayGame::encode(2, 2)));
        assert!(g.parse_move("D1").unwrap_err().contains("no heap D"));
        assert!(g.parse_move("A4").unwrap_err().contains("only 3 stones"));
        assert!(g.parse_move("A0").unwrap_err().contains("at least one"));
        assert!(g.parse_move("2").unwrap_err().contains("heap letter"));
        assert!(g.parse_move("Cx").is_err());
        let rule = Rule {
            take: TakeForm::Range(1, 3),
            play: Play::Normal,
            no_repeat: true,
        };
        let mut g = TakeawayGame::new(rule, vec![10]).unwrap();
        g.start(Player::Person);
        assert!(g.parse_move("4").unwrap_err().contains("1 to 3"));
        g.play(g.parse_move("2").unwrap());
        assert!(g.parse_move("2").unwrap_err().contains("may not take 2"));
        assert_eq!(g.parse_move("3"), Ok(TakeawayGame::encode(0, 3)));
    }

    #[test]
    fn explanations_follow_the_rule() {
        // Take 1..3, normal play: G(n) = n mod 4 (by hand).
        let rule = |no_repeat| Rule {
            take: TakeForm::Range(1, 3),
            play: Play::Normal,
            no_repeat,
        };
        let mut g = TakeawayGame::new(rule(false), vec![10]).unwrap();
        g.start(Player::Computer);
        g.play(TakeawayGame::encode(0, 2));
        let w = g.why().unwrap();
        assert!(
            w.contains("G(10) = 2, G(8) = 0") && w.contains("safe position"),
            "{w}"
        );
        // With no repeat the game is not a Nim sum: the joint table explains it.
        let mut g = TakeawayGame::new(rule(true), vec![10]).unwrap();
        g.start(Player::Computer);
        g.play(TakeawayGame::encode(0, 2));
        let w = g.why().unwrap();
        assert!(
            w.contains("joint state table") && !w.contains("Grundy"),
            "{w}"
        );
        assert!(w.contains("may not take 2"), "{w}");
    }

    #[test]
    fn nim_sum_explanation() {
        let rule = Rule {
            take: TakeForm::Any,
            play: Play::Normal,
            no_repeat: false,
        };
        let mut g = TakeawayGame::new(rule, vec![3, 5, 7]).unwrap();
        g.start(Player::Computer);
        g.play(TakeawayGame::encode(0, 2));
        let w = g.why().unwrap();
        assert!(w.contains("3 5 7 → 1 5 7"), "{w}");
        assert!(w.contains("011 ⊕ 101 ⊕ 111 = 001"), "{w}");
        assert!(w.contains("001 ⊕ 101 ⊕ 111 = 011"), "{w}");
    }
}
