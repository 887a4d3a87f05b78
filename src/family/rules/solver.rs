//! The solvers: a heap's Grundy sequence where positions are disjoint sums
//! (the take-away kernel for a take set, a per-size loop for a condition
//! reading `n` or splitting), and the joint-state solver for the rest
//! (history, misère play of several heaps or of splits, two-heap moves).

use rustc_hash::FxHashMap;

use super::cond::V;
use super::game::{History, Move, Rule};
use crate::family::takeaway::solver::{Grundy as TakeGrundy, grundy_sequence as takeaway_sequence};
use crate::game::Play;

/// Tokens in all beyond which misère play of a splitting rule is refused
/// (its positions are whole sets of heaps, not sums).
pub const SPLIT_MISERE_TOKENS: u64 = 40;

/// The takes a take-set rule allows, `1..len` (parameters filled), or up
/// to the largest take the condition states.
pub fn take_set(rule: &Rule, len: usize) -> Vec<u32> {
    let mut env = rule.env();
    let top = rule
        .mv
        .take_bound(&env)
        .map_or(len, |b| (b as usize + 1).min(len));
    (1..top.max(1) as u32)
        .filter(|&t| rule.allows(&mut env, t, t, History::default()))
        .collect()
}

/// One heap's Grundy values: the take-away kernel's (kept as it made
/// them), or plain.
pub enum Grundy {
    /// From the take-away kernel.
    Take(TakeGrundy),
    /// Plain values.
    Plain(Vec<u32>),
}

impl Grundy {
    /// `G(n)`.
    #[inline]
    pub fn get(&self, n: usize) -> u32 {
        match self {
            Grundy::Take(g) => g.get(n),
            Grundy::Plain(v) => v[n],
        }
    }
    /// The values as a plain vector.
    pub fn to_vec(&self) -> Vec<u32> {
        match self {
            Grundy::Take(g) => g.to_vec(),
            Grundy::Plain(v) => v.clone(),
        }
    }
}

/// `G(0..len)` of one heap (normal play, no history, no two-heap moves): a
/// take set by the take-away kernel, else a loop over the sizes.
pub fn grundy_values(rule: &Rule, len: usize) -> Grundy {
    if rule.take_set_only() && !rule.split {
        let takes = take_set(rule, len);
        if !takes.is_empty() {
            return Grundy::Take(takeaway_sequence(&takes, len));
        }
    }
    Grundy::Plain(grundy_sequence(rule, len))
}

/// `G(0..len)` of one heap (normal play, no history, no two-heap moves),
/// as plain values.
pub fn grundy_sequence(rule: &Rule, len: usize) -> Vec<u32> {
    if rule.take_set_only() && !rule.split {
        let takes = take_set(rule, len);
        if takes.is_empty() {
            return vec![0; len];
        }
        return takeaway_sequence(&takes, len).to_vec();
    }
    let mut env = rule.env();
    let mut g: Vec<u32> = Vec::with_capacity(len);
    let mut seen: Vec<u32> = Vec::new();
    let mark = |seen: &mut Vec<u32>, v: u32, n: u32| {
        let v = v as usize;
        if v >= seen.len() {
            seen.resize(v + 1, u32::MAX);
        }
        seen[v] = n;
    };
    let mut takes = Vec::new();
    for n in 0..len as u32 {
        rule.candidates(n, &mut takes);
        for &t in &takes {
            if !rule.allows(&mut env, n, t, History::default()) {
                continue;
            }
            let r = n - t;
            mark(&mut seen, g[r as usize], n);
            if rule.split {
                for a in 1..=r / 2 {
                    mark(&mut seen, g[a as usize] ^ g[(r - a) as usize], n);
                }
            }
        }
        let mex = (0..)
            .find(|&v| seen.get(v).is_none_or(|&s| s != n))
            .unwrap_or(0);
        g.push(mex as u32);
    }
    g
}

/// The joint-state solver: whether the player to move loses, memoised on
/// the heaps (sorted, empty ones dropped) and the history the rule reads,
/// packed into one `u128` ([`key`]).
pub struct Joint {
    rule: Rule,
    env: Vec<V>,
    memo: FxHashMap<u128, bool>,
    /// The buffers of the positions being searched, reused: a position's
    /// heaps, moves and next heaps took three allocations a call (17
    /// million for `t <= k and t != mine`, k ≤ 12 to 800, whose two
    /// threads' arenas then held 80 MB for 22 MB live).
    spare: Vec<Buffers>,
}

/// A searched position's heaps (sorted, non-empty), its moves and the
/// heaps after one.
#[derive(Default)]
struct Buffers {
    heaps: Vec<u32>,
    moves: Vec<Move>,
    next: Vec<u32>,
}

/// The memo's key of sorted non-empty `heaps` and history `h`: without
/// splits at most three heaps of 24 bits each, with them (at most
/// [`SPLIT_MISERE_TOKENS`] tokens) the heaps in unary, each `1…10`; then
/// the history's two takes, 24 bits each.
fn key(heaps: &[u32], h: History, split: bool) -> u128 {
    let mut k: u128 = 0;
    if split {
        for &x in heaps {
            k = (k << (x + 1)) | (((1u128 << x) - 1) << 1);
        }
    } else {
        for &x in heaps {
            k = (k << 24) | x as u128;
        }
        k |= (heaps.len() as u128) << 72;
    }
    (k << 48) | ((h.last as u128) << 24) | h.mine as u128
}

impl Joint {
    /// A solver for `rule`.
    pub fn new(rule: &Rule) -> Joint {
        Joint {
            rule: rule.clone(),
            env: rule.env(),
            memo: FxHashMap::default(),
            spare: Vec::new(),
        }
    }
    /// Positions solved so far.
    pub fn states(&self) -> usize {
        self.memo.len()
    }
    /// Does the player to move from `heaps` after `h` lose?
    pub fn loses(&mut self, heaps: &[u32], h: History) -> bool {
        let mut b = self.spare.pop().unwrap_or_default();
        b.heaps.clear();
        b.heaps.extend(heaps.iter().copied().filter(|&x| x > 0));
        b.heaps.sort_unstable();
        let hk = self.rule.key_history(h);
        let k = key(&b.heaps, hk, self.rule.split);
        let v = match self.memo.get(&k) {
            Some(&v) => v,
            None => {
                let v = self.search(&mut b, hk);
                self.memo.insert(k, v);
                v
            }
        };
        self.spare.push(b);
        v
    }
    /// Whether the player to move from `b.heaps` after `hk` loses, from
    /// its moves (not memoised).
    fn search(&mut self, b: &mut Buffers, hk: History) -> bool {
        let Buffers { heaps, moves, next } = b;
        moves.clear();
        self.rule
            .moves(&mut self.env, heaps, hk, |m, _| moves.push(m));
        if moves.is_empty() {
            return self.rule.play == Play::Normal;
        }
        !moves.iter().any(|m| {
            Rule::apply(heaps, m, next);
            self.loses(next, hk.after(m.take))
        })
    }
    /// The winning moves from `heaps` at the start of a game.
    pub fn winning_moves(&mut self, heaps: &[u32]) -> Vec<Move> {
        let mut all = Vec::new();
        let h = History::default();
        self.rule.moves(&mut self.env, heaps, h, |m, next| {
            all.push((m, next.to_vec()))
        });
        all.into_iter()
            .filter(|(m, next)| self.loses(next, h.after(m.take)))
            .map(|(m, _)| m)
            .collect()
    }
}

/// The winning moves from `heaps` by Grundy values `g` (normal play, a sum).
pub fn grundy_winning_moves(rule: &Rule, g: &Grundy, heaps: &[u32]) -> Vec<Move> {
    let total = heaps.iter().fold(0, |x, &n| x ^ g.get(n as usize));
    let mut env = rule.env();
    let mut out = Vec::new();
    if total == 0 {
        return out;
    }
    rule.moves(&mut env, heaps, History::default(), |m, next| {
        if next.iter().fold(0, |x, &n| x ^ g.get(n as usize)) == 0 {
            out.push(m);
        }
    });
    out
}

/// Does `rule` allow any move at all from a heap of at most `max_n` (or,
/// with two heaps, a two-heap move)? Tried on every size up to `max_n` at
/// the start of a game and after every take up to it.
pub fn allows_some_move(rule: &Rule, max_n: u32) -> bool {
    let mut env = rule.env();
    let starts = [History::default()];
    for n in 1..=max_n {
        for t in 1..=n {
            if starts.iter().any(|&h| rule.allows(&mut env, n, t, h)) {
                return true;
            }
            for l in (1..=max_n.min(64)).filter(|_| rule.history()) {
                let h = History { last: l, mine: 0 };
                if rule.allows(&mut env, n, t, h)
                    || rule.allows(&mut env, n, t, History { last: l, mine: l })
                {
                    return true;
                }
            }
        }
        if rule.both.is_some() && (1..=n).any(|t| rule.allows_both(&mut env, n, n, t)) {
            return true;
        }
    }
    false
}
