//! `nimlab play rules`: any rule of the family against the computer, e.g.
//! `nimlab play rules --move "t <= k and t != last" --k 3 --heaps 12`.
//!
//! The replies come from the family's own solvers, built once per session:
//! Grundy values of one heap ([`grundy_values`], nim-sums) where positions
//! are sums without history, else the joint-state solver ([`Joint`]) on the
//! heaps and the history the condition reads. The classroom page embeds
//! every position reachable from the start with its legal moves, each
//! marked winning or not by the same solver (no condition is evaluated in
//! the page).

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Write as _;

use anyhow::{Result, bail};
use serde_json::json;

use super::cond::{FIRST, LAST, MINE};
use super::game::{History, Move, Rule};
use super::solve::{self, move_text};
use super::solver::{Grundy, Joint, SPLIT_MISERE_TOKENS, grundy_values};
use crate::game::Play;
use crate::params::Node;
use crate::play::rng::mix;
use crate::play::{HtmlGame, Move as PlayMove, PlayGame, Player, capitalise};

/// Largest heap of a Grundy table built for a session.
const MAX_GRUNDY_HEAP: u32 = 1 << 22;
/// Most work (positions below the start, times the histories read, times
/// the takes tried) of a joint-state search for a session.
const MAX_JOINT_WORK: f64 = 2e8;
/// Most positions the classroom page embeds.
const MAX_PAGE_STATES: usize = 20_000;
/// Largest heap drawn token by token in the terminal.
const MAX_DRAWN: u32 = 40;

/// How the session's positions are solved.
enum Engine {
    /// Normal play, no history, no two-heap moves: `G(0..=largest heap)`.
    Grundy(Grundy),
    /// Everything else: the joint state, memoised.
    Joint(Box<Joint>),
}

/// A game of a rule in progress.
pub struct RulesGame {
    rule: Rule,
    start: Vec<u32>,
    heaps: Vec<u32>,
    hist: History,
    /// The moves played, each with the heaps and the history before it.
    played: Vec<(Move, Vec<u32>, History)>,
    first: Player,
    engine: RefCell<Engine>,
}

/// Builds the game from `solve`'s arguments (`--move`, `--heaps`, ...) or
/// a sweep's fields (`heaps: D` with `N` or `N1`..`ND`, one value each).
pub fn game(p: &Node<'_>) -> Result<Box<dyn PlayGame>> {
    solve::refuse(
        p,
        &["last", "mine"],
        "a game starts with no take remembered",
    )?;
    if let Some(n) = p.get("play")
        && n.value().is_array()
    {
        return Err(n
            .err("a game is played under one convention: give --play normal or --play misere")
            .into());
    }
    let rule = solve::rule(p)?;
    let heaps = parse_heaps(p)?;
    Ok(Box::new(RulesGame::new(rule, heaps)?))
}

/// The heaps: `--heaps 3,5` (their sizes), or a sweep's `heaps: D` (one
/// to three) with `N` or `N1`..`ND`.
fn parse_heaps(p: &Node<'_>) -> Result<Vec<u32>> {
    const MAX: i64 = (1 << 24) - 1;
    let ns = ["N", "N1", "N2", "N3"].iter().any(|k| p.get(k).is_some());
    let heaps = match p.get("heaps") {
        Some(h) if !ns => h
            .ints(0, MAX)?
            .into_iter()
            .map(|x| x as u32)
            .collect::<Vec<_>>(),
        _ => p
            .sweep_heap_sizes(3, MAX)?
            .into_iter()
            .map(|x| x as u32)
            .collect(),
    };
    if heaps.is_empty() || heaps.len() > 26 {
        bail!("heaps: give 1 to 26 heaps (named A to Z)");
    }
    Ok(heaps)
}

/// A move as the core carries it: heap, second heap + 1, take, split.
fn encode(m: &Move) -> PlayMove {
    PlayMove(
        m.heap as u64
            | (m.heap2.map_or(0, |j| j as u64 + 1) << 8)
            | ((m.take as u64) << 16)
            | ((m.split as u64) << 40),
    )
}

fn decode(m: PlayMove) -> Move {
    let x = m.0;
    Move {
        heap: (x & 0xff) as usize,
        heap2: match (x >> 8) & 0xff {
            0 => None,
            j => Some(j as usize - 1),
        },
        take: ((x >> 16) & 0xff_ffff) as u32,
        split: (x >> 40) as u32,
    }
}

fn heaps_text(h: &[u32]) -> String {
    if h.is_empty() {
        return "(nothing)".into();
    }
    h.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

impl RulesGame {
    /// A game of `rule` from `heaps`, refused when its search is too large.
    pub fn new(rule: Rule, heaps: Vec<u32>) -> Result<RulesGame> {
        let top = heaps.iter().copied().max().unwrap_or(0);
        let tokens: u64 = heaps.iter().map(|&h| h as u64).sum();
        let engine = if rule.has_grundy() {
            if top > MAX_GRUNDY_HEAP {
                bail!(
                    "heaps: at most {MAX_GRUNDY_HEAP} tokens a heap (the largest here has {top})"
                );
            }
            Engine::Grundy(grundy_values(&rule, top as usize + 1))
        } else {
            if rule.split && tokens > SPLIT_MISERE_TOKENS {
                bail!(
                    "heaps: a splitting rule in misère play (or with a history) is searched on the whole position, to {SPLIT_MISERE_TOKENS} tokens in all; these heaps have {tokens}"
                );
            }
            let work = joint_work(&rule, &heaps);
            if work > MAX_JOINT_WORK {
                bail!(
                    "heaps: this rule is solved on the joint state (heaps and history), about {work:.1e} move checks from this start, more than the {MAX_JOINT_WORK:.0e} a game may use; use smaller heaps"
                );
            }
            Engine::Joint(Box::new(Joint::new(&rule)))
        };
        Ok(RulesGame {
            rule,
            start: heaps.clone(),
            heaps,
            hist: History::default(),
            played: Vec::new(),
            first: Player::Person,
            engine: RefCell::new(engine),
        })
    }

    /// Every legal move from `heaps` after `h`, with the heaps it leaves.
    fn moves_at(&self, heaps: &[u32], h: History) -> Vec<(Move, Vec<u32>)> {
        let mut env = self.rule.env();
        let mut out = Vec::new();
        self.rule
            .moves(&mut env, heaps, h, |m, next| out.push((m, next.to_vec())));
        out
    }

    /// Is the player to move at `heaps` after `h` lost (a P-position)?
    fn is_p(&self, heaps: &[u32], h: History) -> bool {
        match &mut *self.engine.borrow_mut() {
            Engine::Grundy(g) => heaps.iter().fold(0, |x, &n| x ^ g.get(n as usize)) == 0,
            Engine::Joint(j) => j.loses(heaps, h),
        }
    }

    /// The winning moves from `heaps` after `h`: those leaving a P-position.
    fn wins_at(&self, heaps: &[u32], h: History) -> Vec<Move> {
        self.moves_at(heaps, h)
            .into_iter()
            .filter(|(m, next)| self.is_p(next, h.after(m.take)))
            .map(|(m, _)| m)
            .collect()
    }

    fn name(&self, m: &Move) -> String {
        move_text(m, self.heaps.len() > 1 || self.rule.both.is_some())
    }

    fn to_move(&self) -> Player {
        self.first.after(self.played.len())
    }

    /// The rule in words, with the history it reads.
    fn rule_text(&self) -> String {
        let mut s = format!(
            "take t tokens from a heap of n when `{}` holds",
            self.rule.mv.source
        );
        if let Some(b) = &self.rule.both {
            let _ = write!(s, ", or t from two heaps n1 ≤ n2 when `{}` holds", b.source);
        }
        if self.rule.split {
            s.push_str(" (what is left may be left as two heaps)");
        }
        if !self.rule.params.is_empty() {
            let p: Vec<String> = self
                .rule
                .params
                .iter()
                .map(|(k, v)| format!("{k} = {v}"))
                .collect();
            let _ = write!(s, ", with {}", p.join(", "));
        }
        s
    }

    fn history_text(&self) -> Option<String> {
        if !self.rule.history() || self.played.is_empty() {
            return None;
        }
        let o = |x: u32| {
            if x == 0 {
                "none".to_string()
            } else {
                x.to_string()
            }
        };
        Some(format!(
            "  (last = {}: the opponent's take; mine = {}: the mover's own previous take)",
            o(self.hist.last),
            o(self.hist.mine)
        ))
    }
}

/// Move checks of a joint-state search from `heaps`: the positions below
/// them, times the histories the condition reads, times the takes tried.
fn joint_work(rule: &Rule, heaps: &[u32]) -> f64 {
    let top = heaps.iter().copied().max().unwrap_or(0) as f64;
    let below: f64 = heaps.iter().map(|&h| h as f64 + 1.0).product();
    let takes = rule
        .mv
        .take_bound(&rule.env())
        .map_or(top, |b| (b as f64).min(top))
        .max(1.0);
    let hist = |read: bool| if read { takes + 1.0 } else { 1.0 };
    let reads = |s| rule.mv.reads(s);
    below
        * hist(reads(LAST) || reads(MINE))
        * hist(reads(MINE))
        * (1.0 + f64::from(u8::from(reads(FIRST))))
        * if rule.both.is_some() {
            top.max(1.0) * heaps.len() as f64
        } else {
            takes * heaps.len() as f64
        }
}

impl PlayGame for RulesGame {
    fn title(&self) -> String {
        format!(
            "rules: heap{} {}, {}, {}",
            if self.start.len() == 1 { "" } else { "s" },
            heaps_text(&self.start),
            self.rule.label(),
            match self.rule.play {
                Play::Normal => "normal play (whoever cannot move loses)",
                Play::Misere => "misère play (whoever cannot move wins)",
            }
        )
    }

    fn rules(&self) -> String {
        let example = self
            .moves_at(&self.start, History::default())
            .first()
            .map(|(m, _)| self.name(m))
            .unwrap_or_else(|| "3".into());
        format!(
            "On your turn {}; {}. Type a move as {}{}: e.g. {example}.",
            self.rule_text(),
            match self.rule.play {
                Play::Normal => "whoever cannot move loses",
                Play::Misere => "whoever cannot move wins",
            },
            if self.start.len() > 1 || self.rule.both.is_some() {
                "the heap's letter (two letters to take from two heaps) and the take"
            } else {
                "the take"
            },
            if self.rule.split {
                ", then /s to leave the rest as two heaps, the smaller s"
            } else {
                ""
            }
        )
    }

    fn start(&mut self, first: Player) {
        self.first = first;
        self.heaps = self.start.clone();
        self.hist = History::default();
        self.played.clear();
    }

    fn draw(&self, color: bool) -> String {
        use crate::play::term::{Paint, paint};
        let several = self.heaps.len() > 1;
        let widest = self.heaps.iter().copied().max().unwrap_or(0).min(MAX_DRAWN);
        let mut lines: Vec<String> = self
            .heaps
            .iter()
            .enumerate()
            .map(|(i, &h)| {
                let label = if several {
                    format!("  {}", (b'A' + i as u8) as char)
                } else {
                    "   ".into()
                };
                let tokens = if h <= MAX_DRAWN {
                    crate::play::term::pad(&" ●".repeat(h as usize), 2 * widest as usize + 2)
                } else {
                    format!(" ({h} tokens)")
                };
                format!("{} {tokens}  {h}", paint(&label, Paint::Cyan, color))
            })
            .collect();
        if lines.is_empty() {
            lines.push("   (no heap left)".into());
        }
        if let Some(h) = self.history_text() {
            lines.push(h);
        }
        lines.join("\n")
    }

    fn parse_move(&self, input: &str) -> Result<PlayMove, String> {
        let t: String = input.chars().filter(|c| !c.is_whitespace()).collect();
        let t = t.to_ascii_uppercase();
        let letters: Vec<usize> = t
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .map(|c| (c as u8 - b'A') as usize)
            .collect();
        let rest = &t[letters.len()..];
        let (take, split) = match rest.split_once('/') {
            Some((a, b)) => (a, Some(b)),
            None => (rest, None),
        };
        let form = "the heap's letter (one heap: none) and the take, e.g. A3; AB2 takes 2 from heaps A and B; 3/1 leaves the rest as two heaps, the smaller 1";
        let take: u32 = take.parse().map_err(|_| format!("type {form}"))?;
        let split: u32 = match split {
            Some(s) => s.parse().map_err(|_| format!("type {form}"))?,
            None => 0,
        };
        let d = self.heaps.len();
        if let Some(&i) = letters.iter().find(|&&i| i >= d) {
            return Err(format!(
                "there is no heap {}: the heaps are A to {}",
                (b'A' + i as u8) as char,
                (b'A' + d.saturating_sub(1) as u8) as char
            ));
        }
        let (heap, heap2) = match letters[..] {
            [] if d == 1 => (0, None),
            [] => return Err(format!("type {form}")),
            [i] => (i, None),
            [i, j] if i != j => (i.min(j), Some(i.max(j))),
            _ => return Err(format!("type {form}")),
        };
        let want = Move {
            heap,
            heap2,
            take,
            split,
        };
        let legal = self.moves_at(&self.heaps, self.hist);
        if legal.iter().any(|(m, _)| *m == want) {
            return Ok(encode(&want));
        }
        if take == 0 {
            return Err("take at least one token".into());
        }
        let mut why = format!("not a legal move: the rule is to {}", self.rule_text());
        if self.rule.history() && !self.played.is_empty() {
            let o = |x: u32| {
                if x == 0 {
                    "none".to_string()
                } else {
                    x.to_string()
                }
            };
            let _ = write!(
                why,
                " (here last = {}, mine = {})",
                o(self.hist.last),
                o(self.hist.mine)
            );
        }
        Err(why)
    }

    fn legal_moves(&self) -> Vec<PlayMove> {
        self.moves_at(&self.heaps, self.hist)
            .iter()
            .map(|(m, _)| encode(m))
            .collect()
    }

    fn move_name(&self, m: PlayMove) -> String {
        self.name(&decode(m))
    }

    fn effect(&self, m: PlayMove) -> String {
        let mut next = Vec::new();
        Rule::apply(&self.heaps, &decode(m), &mut next);
        format!("{} → {}", heaps_text(&self.heaps), heaps_text(&next))
    }

    fn play(&mut self, m: PlayMove) {
        let m = decode(m);
        let mut next = Vec::new();
        Rule::apply(&self.heaps, &m, &mut next);
        let before = std::mem::replace(&mut self.heaps, next);
        self.played.push((m, before, self.hist));
        self.hist = self.hist.after(m.take);
    }

    fn undo(&mut self) {
        if let Some((_, before, h)) = self.played.pop() {
            self.heaps = before;
            self.hist = h;
        }
    }

    fn result(&self) -> Option<bool> {
        if !self.moves_at(&self.heaps, self.hist).is_empty() {
            return None;
        }
        Some(self.rule.play == Play::Misere)
    }

    fn end_reason(&self) -> String {
        let mover = self.to_move();
        let who = |p: Player| {
            if p == Player::Person {
                "you"
            } else {
                "the computer"
            }
        };
        if self.heaps.iter().all(|&h| h == 0) {
            format!("{} took the last token", who(mover.other()))
        } else {
            format!("{} cannot move (the rule allows no take here)", who(mover))
        }
    }

    fn winning_moves(&self) -> Vec<PlayMove> {
        self.wins_at(&self.heaps, self.hist)
            .iter()
            .map(encode)
            .collect()
    }

    fn left_after(&self, m: PlayMove) -> u64 {
        let m = decode(m);
        let gone = m.take as u64 * if m.heap2.is_some() { 2 } else { 1 };
        self.heaps.iter().map(|&h| h as u64).sum::<u64>() - gone
    }

    fn key(&self) -> u64 {
        let h = self.rule.key_history(self.hist);
        let mut k = mix(((h.last as u64) << 32) | h.mine as u64);
        for &x in &self.heaps {
            k = mix(k ^ x as u64);
        }
        k
    }

    fn why(&self) -> Option<String> {
        let (m, before, _) = self.played.last()?;
        let mut t = format!("{} → {}. ", heaps_text(before), heaps_text(&self.heaps));
        if let Engine::Grundy(g) = &*self.engine.borrow() {
            let vals: Vec<String> = self
                .heaps
                .iter()
                .map(|&n| g.get(n as usize).to_string())
                .collect();
            let x = self.heaps.iter().fold(0, |x, &n| x ^ g.get(n as usize));
            let _ = write!(
                t,
                "Grundy values after the move: {} (nim-sum {x}). ",
                if vals.is_empty() {
                    "none".into()
                } else {
                    vals.join(" ⊕ ")
                }
            );
        } else if self.rule.history() {
            let _ = write!(t, "The next player moves after a take of {}. ", m.take);
        }
        let replies = self.moves_at(&self.heaps, self.hist);
        if replies.is_empty() {
            t.push_str("No move is left.");
        } else if self.is_p(&self.heaps, self.hist) {
            t.push_str("A safe position (P): every reply leaves a winning answer.");
        } else {
            let w: Vec<String> = self
                .wins_at(&self.heaps, self.hist)
                .iter()
                .map(|m| self.name(m))
                .collect();
            let _ = write!(t, "Not safe: the opponent can win with {}.", w.join(", "));
        }
        Some(t)
    }

    fn html(&self) -> Result<HtmlGame> {
        if self.rule.split {
            bail!(
                "the page draws a fixed row of heaps: a splitting rule is played in the terminal only"
            );
        }
        let states = self.page_states()?;
        Ok(HtmlGame {
            script: concat!(include_str!("../heaps/heaps.js"), include_str!("play.js")),
            data: json!({
                "heaps": self.start,
                "rule": capitalise(&self.rule_text()),
                "misere": self.rule.play == Play::Misere,
                "history": self.rule.history(),
                "both": self.rule.both.is_some(),
                "key": {
                    "last": if self.rule.mv.reads(LAST) || self.rule.mv.reads(MINE) {
                        2
                    } else {
                        u8::from(self.rule.mv.reads(FIRST))
                    },
                    "mine": self.rule.mv.reads(MINE),
                },
                "states": states,
            }),
        })
    }
}

impl RulesGame {
    /// The page's table: every position reachable from the start (heaps and
    /// the history the condition reads, keyed `h1,h2|last|mine`), each with
    /// its legal moves `[heap, heap2 (-1: none), take, winning (0/1)]`.
    fn page_states(&self) -> Result<serde_json::Map<String, serde_json::Value>> {
        let key = |heaps: &[u32], h: History| {
            let h = self.rule.key_history(h);
            format!(
                "{}|{}|{}",
                heaps
                    .iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(","),
                h.last,
                h.mine
            )
        };
        let mut seen: HashMap<String, ()> = HashMap::new();
        let mut out = serde_json::Map::new();
        let mut todo = vec![(self.start.clone(), History::default())];
        seen.insert(key(&self.start, History::default()), ());
        while let Some((heaps, h)) = todo.pop() {
            let mut row = Vec::new();
            for (m, next) in self.moves_at(&heaps, h) {
                let after = h.after(m.take);
                let win = self.is_p(&next, after);
                row.push(json!([
                    m.heap,
                    m.heap2.map_or(-1, |j| j as i64),
                    m.take,
                    u8::from(win)
                ]));
                let k = key(&next, after);
                if seen.insert(k, ()).is_none() {
                    if seen.len() > MAX_PAGE_STATES {
                        bail!(
                            "the page embeds every position reachable from the start: more than {MAX_PAGE_STATES} here; use smaller heaps"
                        );
                    }
                    todo.push((next, after));
                }
            }
            out.insert(key(&heaps, h), serde_json::Value::Array(row));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::super::cond::{Cond, NAMES};
    use super::*;
    use crate::game::{BruteOutcome, Game};
    use std::hash::{Hash, Hasher};

    fn rule(mv: &str, both: Option<&str>, split: bool, play: Play, k: Option<i64>) -> Rule {
        let params: Vec<(String, i64)> = k.map(|k| ("k".to_string(), k)).into_iter().collect();
        let names: Vec<String> = params.iter().map(|(n, _)| n.clone()).collect();
        Rule {
            mv: Cond::compile(mv, &NAMES[..5], &names).unwrap(),
            both: both.map(|b| Cond::compile(b, &["t", "n1", "n2"], &names).unwrap()),
            split,
            play,
            params,
        }
    }

    /// A plain game tree over the session's own moves (its legal moves as
    /// the family lists them), searched without the family's solvers.
    #[derive(Clone)]
    struct Pos<'g> {
        g: &'g RulesGame,
        heaps: Vec<u32>,
        h: History,
    }
    impl PartialEq for Pos<'_> {
        fn eq(&self, o: &Self) -> bool {
            let (mut a, mut b) = (self.heaps.clone(), o.heaps.clone());
            a.retain(|&x| x > 0);
            b.retain(|&x| x > 0);
            a.sort();
            b.sort();
            a == b && self.h == o.h
        }
    }
    impl Eq for Pos<'_> {}
    impl Hash for Pos<'_> {
        fn hash<H: Hasher>(&self, s: &mut H) {
            let mut a = self.heaps.clone();
            a.retain(|&x| x > 0);
            a.sort();
            a.hash(s);
            self.h.hash(s);
        }
    }
    impl Game for Pos<'_> {
        type Move = Move;
        fn moves(&self) -> Vec<(Move, Self)> {
            self.g
                .moves_at(&self.heaps, self.h)
                .into_iter()
                .map(|(m, next)| {
                    let p = Pos {
                        g: self.g,
                        heaps: next,
                        h: self.h.after(m.take),
                    };
                    (m, p)
                })
                .collect()
        }
    }

    /// Every position of a game played out from the start, whoever moves:
    /// the perfect opponent's moves are exactly the moves to a position the
    /// brute force finds lost for the next player, and a position has one
    /// exactly when the brute force finds it won.
    fn check(r: Rule, heaps: Vec<u32>) {
        let play = r.play;
        // The brute force's moves from a second session (nothing shared).
        let moves = RulesGame::new(r.clone(), heaps.clone()).unwrap();
        let mut g = RulesGame::new(r, heaps).unwrap();
        g.start(Player::Person);
        let mut brute = BruteOutcome::new(play);
        let mut walked = 0;
        let mut todo: Vec<Vec<PlayMove>> = vec![vec![]];
        let mut seen = std::collections::HashSet::new();
        while let Some(line) = todo.pop() {
            g.start(Player::Person);
            for &m in &line {
                g.play(m);
            }
            if !seen.insert((g.heaps.clone(), g.rule.key_history(g.hist))) {
                continue;
            }
            walked += 1;
            let here = Pos {
                g: &moves,
                heaps: g.heaps.clone(),
                h: g.hist,
            };
            let p = brute.is_p(&here);
            let wins = g.winning_moves();
            assert_eq!(
                wins.is_empty(),
                p || g.result().is_some(),
                "{:?} {:?}",
                g.heaps,
                g.hist
            );
            for (m, next) in here.moves() {
                let w = wins.contains(&encode(&m));
                assert_eq!(w, brute.is_p(&next), "{:?} {:?} {m:?}", g.heaps, g.hist);
                let mut l = line.clone();
                l.push(encode(&m));
                todo.push(l);
            }
        }
        assert!(walked > 10, "{walked}");
    }

    #[test]
    fn the_perfect_opponent_agrees_with_the_brute_force() {
        check(
            rule("t <= k and t != last", None, false, Play::Normal, Some(3)),
            vec![9],
        );
        check(
            rule("t <= k and t != last", None, false, Play::Misere, Some(4)),
            vec![5, 4],
        );
        check(
            rule(
                "first ? t < n : t <= 2 * last",
                None,
                false,
                Play::Normal,
                None,
            ),
            vec![13],
        );
        check(
            rule("t <= 5 and t != mine", None, false, Play::Misere, None),
            vec![11],
        );
        check(
            rule("is_square(t)", None, false, Play::Normal, None),
            vec![6, 7],
        );
        check(rule("t <= 2", None, true, Play::Normal, None), vec![9]);
        check(rule("t <= 2", None, true, Play::Misere, None), vec![8]);
        check(
            rule("true", Some("true"), false, Play::Normal, None),
            vec![4, 6],
        );
    }

    /// A sweep's fields make a game when each has one value.
    #[test]
    fn a_sweep_makes_a_game() {
        let make = |yaml: &str| {
            let v = crate::params::parse_yaml(yaml, "s.yaml").unwrap();
            game(&Node::root(&v, "s.yaml")).map(|g| g.title())
        };
        let t = make("move: \"t <= k and t != last\"\nk: 3\nheaps: 2\nN1: 5\nN2: 7\n").unwrap();
        assert!(t.contains("heaps 5 7"), "{t}");
        let e = make("move: \"t <= k\"\nk: 2..15\nN: 9\n")
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("14 values") && e.contains("--k"), "{e}");
        let e = make("move: \"t <= 3\"\nN: 0..1000\n")
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("1001 values") && e.contains("--N"), "{e}");
        let e = make("move: \"t <= 3\"\nN: 9\nplay: [normal, misere]\n")
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("--play normal"), "{e}");
    }

    /// Typed moves: the dataset's notation, checked against the rule.
    #[test]
    fn moves_are_typed_as_the_tables_write_them() {
        let mut g = RulesGame::new(
            rule("t <= k and t != last", None, false, Play::Normal, Some(3)),
            vec![7, 5],
        )
        .unwrap();
        g.start(Player::Person);
        let m = g.parse_move("a2").unwrap();
        assert_eq!(g.effect(m), "7 5 → 5 5");
        g.play(m);
        let e = g.parse_move("B2").unwrap_err();
        assert!(e.contains("last = 2"), "{e}");
        assert!(g.parse_move("C1").unwrap_err().contains("no heap C"));
        let mut k =
            RulesGame::new(rule("t <= 2", None, true, Play::Misere, None), vec![7]).unwrap();
        k.start(Player::Person);
        let m = k.parse_move("1/2").unwrap();
        assert_eq!(k.effect(m), "7 → 4 2");
        assert!(
            RulesGame::new(rule("t <= 2", None, true, Play::Misere, None), vec![41])
                .err()
                .unwrap()
                .to_string()
                .contains("40 tokens")
        );
        let w = RulesGame::new(
            rule("true", Some("true"), false, Play::Normal, None),
            vec![3, 5],
        )
        .unwrap();
        assert!(w.parse_move("AB2").is_ok());
        let page = w.html().unwrap();
        assert!(page.data["states"].as_object().unwrap().len() > 10);
    }
}
