//! A rule and its moves: the compiled conditions, and the positions a move
//! leads to (one heap smaller, left whole or split in two, or two heaps
//! smaller by the same take).

use super::cond::{self, Cond, Env, V};
use crate::game::Play;

/// A complete rule: the conditions, the options and the parameters' values.
#[derive(Clone, Debug)]
pub struct Rule {
    /// `move:`.
    pub mv: Cond,
    /// `both:`.
    pub both: Option<Cond>,
    /// `split: true`.
    pub split: bool,
    /// The play convention.
    pub play: Play,
    /// The sweep's parameters and their values for this rule.
    pub params: Vec<(String, i64)>,
}

/// One move from a position (heaps numbered from 0 in the position's order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The heap taken from.
    pub heap: usize,
    /// The second heap of a `both:` move.
    pub heap2: Option<usize>,
    /// The take.
    pub take: u32,
    /// With `split`: the smaller of the two heaps left (0: left whole).
    pub split: u32,
}

/// The history a move may read: the opponent's previous take and the
/// mover's own (0: none yet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct History {
    /// The opponent's previous take.
    pub last: u32,
    /// The mover's previous take.
    pub mine: u32,
}

impl History {
    /// After the mover takes `t`: the next mover's history.
    pub fn after(self, t: u32) -> History {
        History {
            last: t,
            mine: self.last,
        }
    }
}

fn opt(x: u32) -> V {
    if x == 0 { V::Null } else { V::Int(x as i64) }
}

impl Rule {
    /// The slots with the parameters filled in.
    pub fn env(&self) -> Vec<V> {
        let mut e = vec![V::Null; cond::PARAMS];
        e.extend(self.params.iter().map(|(_, v)| V::Int(*v)));
        e
    }
    /// Does a move's legality depend on the history?
    pub fn history(&self) -> bool {
        [cond::LAST, cond::MINE, cond::FIRST]
            .iter()
            .any(|&s| self.mv.reads(s))
    }
    /// Does a move's legality depend on the heap's size?
    pub fn reads_n(&self) -> bool {
        self.mv.reads(cond::N)
    }
    /// The moves read `t` and parameters only: a take set.
    pub fn take_set_only(&self) -> bool {
        !self.history() && !self.reads_n()
    }
    /// Are positions disjoint sums with Grundy values (normal play, no
    /// history, no two-heap moves)?
    pub fn has_grundy(&self) -> bool {
        self.play == Play::Normal && !self.history() && self.both.is_none()
    }
    /// The take set when the rule is a `takeaway` rule with `no_repeat`
    /// (`<take set> and t != last`, no split, no two-heap moves), up to
    /// `len` (or its stated largest take); `None` otherwise or when empty.
    pub fn no_repeat_takes(&self, len: usize) -> Option<Vec<u32>> {
        if self.split || self.both.is_some() {
            return None;
        }
        let part = self.mv.no_repeat_part()?;
        let mut env = self.env();
        let top = part
            .take_bound(&env)
            .map_or(len, |b| (b as usize + 1).min(len));
        let takes: Vec<u32> = (1..top as u32)
            .filter(|&t| {
                env[cond::T] = V::Int(t as i64);
                part.allows(&env)
            })
            .collect();
        (!takes.is_empty()).then_some(takes)
    }
    /// The history as the solver keys it: the parts the condition reads.
    pub fn key_history(&self, h: History) -> History {
        // The mover's take becomes the next mover's `mine`: kept when read.
        let last = if self.mv.reads(cond::LAST) || self.mv.reads(cond::MINE) {
            h.last
        } else if self.mv.reads(cond::FIRST) {
            h.last.min(1)
        } else {
            0
        };
        let mine = if self.mv.reads(cond::MINE) { h.mine } else { 0 };
        History { last, mine }
    }
    /// Is taking `t` from a heap of `n` allowed after `h`? (`env` holds the
    /// parameters.)
    #[inline]
    pub fn allows(&self, env: &mut Env, n: u32, t: u32, h: History) -> bool {
        env[cond::N] = V::Int(n as i64);
        env[cond::T] = V::Int(t as i64);
        env[cond::LAST] = opt(h.last);
        env[cond::MINE] = opt(h.mine);
        env[cond::FIRST] = V::Bool(h.last == 0);
        self.mv.allows(env)
    }
    /// Is taking `t` from both heaps of sizes `a ≤ b` allowed?
    pub fn allows_both(&self, env: &mut Env, a: u32, b: u32, t: u32) -> bool {
        let Some(c) = &self.both else {
            return false;
        };
        env[cond::T] = V::Int(t as i64);
        env[cond::N1] = V::Int(a.min(b) as i64);
        env[cond::N2] = V::Int(a.max(b) as i64);
        c.allows(env)
    }
    /// The takes worth trying from a heap of `n` (into `out`, ascending):
    /// the divisors of `n` when the condition demands `n % t == 0`, else
    /// `1..=n`, or up to the bound the condition states.
    pub fn candidates(&self, n: u32, out: &mut Vec<u32>) {
        out.clear();
        if !self.mv.divisors_only() {
            // No take past the bound the condition states ([`Cond::take_bound`]:
            // `t <= k` is false beyond `k`): `t <= 5` with splits to
            // 8,000 tried 32 million takes a case where 40,000 can move.
            let top = self.mv.take_bound(&self.env()).map_or(n, |b| b.min(n));
            out.extend(1..=top);
            return;
        }
        let mut high = Vec::new();
        let mut d = 1u32;
        while d as u64 * d as u64 <= n as u64 {
            if n.is_multiple_of(d) {
                out.push(d);
                if d != n / d {
                    high.push(n / d);
                }
            }
            d += 1;
        }
        out.extend(high.into_iter().rev());
    }
    /// Every move from `heaps` after `h`, with the heaps it leaves (in the
    /// position's order; a split adds the second part at the end).
    pub fn moves(&self, env: &mut Env, heaps: &[u32], h: History, mut f: impl FnMut(Move, &[u32])) {
        let mut next = Vec::with_capacity(heaps.len() + 1);
        let mut give = |m: Move| {
            Rule::apply(heaps, &m, &mut next);
            f(m, &next);
        };
        let mut takes = Vec::new();
        for (i, &n) in heaps.iter().enumerate() {
            self.candidates(n, &mut takes);
            for &t in &takes {
                if !self.allows(env, n, t, h) {
                    continue;
                }
                let splits = if self.split { (n - t) / 2 } else { 0 };
                for split in 0..=splits {
                    give(Move {
                        heap: i,
                        heap2: None,
                        take: t,
                        split,
                    });
                }
            }
        }
        if self.both.is_some() {
            for i in 0..heaps.len() {
                for j in i + 1..heaps.len() {
                    for t in 1..=heaps[i].min(heaps[j]) {
                        if self.allows_both(env, heaps[i], heaps[j], t) {
                            give(Move {
                                heap: i,
                                heap2: Some(j),
                                take: t,
                                split: 0,
                            });
                        }
                    }
                }
            }
        }
    }
    /// The heaps `m` leaves from `heaps` (into `out`; a split's second
    /// part at the end), as [`Rule::moves`] gives them.
    pub fn apply(heaps: &[u32], m: &Move, out: &mut Vec<u32>) {
        out.clear();
        out.extend_from_slice(heaps);
        out[m.heap] -= m.take + m.split;
        if let Some(j) = m.heap2 {
            out[j] -= m.take;
        }
        if m.split > 0 {
            out.push(m.split);
        }
    }
    /// The rule as the `rule` column writes it: the condition, the options,
    /// the parameters' values.
    pub fn label(&self) -> String {
        let mut s = self.mv.source.clone();
        if self.split {
            s.push_str("; split");
        }
        if let Some(b) = &self.both {
            s.push_str(&format!("; both: {}", b.source));
        }
        if !self.params.is_empty() {
            let p: Vec<String> = self
                .params
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            s.push_str(&format!(" [{}]", p.join(", ")));
        }
        s
    }
}
