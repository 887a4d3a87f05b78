//! A case: one rule (its parameters' values, its play) and one heap count
//! over the sweep's heap sizes; solving it and filling its rows.

use super::cond;
use super::datasets::{PERIODS, POSITIONS, SEQUENCES};
use super::game::{Move, Rule};
use super::periods::{self, Sequence};
use super::solver::{Grundy, Joint, SPLIT_MISERE_TOKENS, grundy_values, grundy_winning_moves};
use crate::cost::Work;
use crate::data::{DictVec, EnumVec, StructField, StructListVec, Table, Values};
use crate::family::takeaway::solver::{Joint as TakeJoint, MULTI};
use crate::family::{Case, CaseCtx, Cost, Output, TableBytes};
use crate::game::{OUTCOMES, PLAYS, Play, outcome_code};
use crate::period::PeriodRows;

use super::datasets::MOVE_FIELDS;

/// One rule and one heap count.
#[derive(Clone)]
pub struct RulesCase {
    /// The rule.
    pub rule: Rule,
    /// The number of heaps.
    pub heaps: usize,
    /// The heap sizes of every heap.
    pub sizes: Vec<u32>,
    /// One heap: its sequence is computed to here for the period.
    pub horizon: usize,
    /// The joint states reached to each heap size measured
    /// ([`RulesCase::reached`]; shared with its copies scaled down: the
    /// same rule).
    pub probe: std::sync::Arc<std::sync::Mutex<Vec<(u64, f64)>>>,
}

impl RulesCase {
    fn max_n(&self) -> u32 {
        self.sizes.iter().copied().max().unwrap_or(0)
    }
    fn positions_count(&self) -> u64 {
        (self.sizes.len() as u64).saturating_pow(self.heaps as u32)
    }
    /// How the case is solved: by Grundy values of one heap, else jointly.
    fn by_grundy(&self) -> bool {
        self.rule.has_grundy()
    }
    /// Refuses misère play of a splitting rule beyond its search's reach.
    pub fn check(&self) -> Result<(), String> {
        // One heap's sequence runs to the horizon.
        let top = match self.heaps {
            1 => self.max_n().max(self.horizon as u32),
            _ => self.max_n(),
        };
        let tokens = top as u64 * self.heaps as u64;
        if self.rule.split && !self.by_grundy() && tokens > SPLIT_MISERE_TOKENS {
            return Err(format!(
                "a splitting rule in misère play (or with a history) is not a sum of heaps: it is solved on the whole position, which this search does to {SPLIT_MISERE_TOKENS} tokens in all; this sweep reaches {tokens} (use smaller N, a smaller horizon or fewer heaps)"
            ));
        }
        Ok(())
    }
    fn with_rule(&self, t: Table) -> Table {
        let r = &self.rule;
        let n = t.rows();
        let label = |s: &str| Values::repeat(Values::Dict(DictVec::repeat(s, 1)), n);
        let mut out = Table::new()
            .with("rule", label(&r.label()))
            .with("move_condition", label(&r.mv.source))
            .with(
                "both",
                match &r.both {
                    Some(b) => label(&b.source),
                    None => Values::Null(n),
                },
            )
            .with("split", Values::repeat(Values::Bool(vec![r.split]), n))
            .with(
                "play",
                Values::repeat(
                    Values::Enum(EnumVec {
                        levels: PLAYS,
                        codes: vec![r.play.code()],
                    }),
                    n,
                ),
            )
            .with(
                "heaps",
                Values::repeat(Values::Int(vec![self.heaps as i64]), n),
            );
        for (p, x) in &r.params {
            out.push(p, Values::repeat(Values::Int(vec![*x]), n));
        }
        for (name, v) in t.into_columns() {
            out.push(&name, v);
        }
        out
    }
    /// Calls `f` on every starting position, in the order of the rows (the
    /// last heap counting fastest), with no allocation per position.
    fn each_start(&self, mut f: impl FnMut(&[u32])) {
        if self.sizes.is_empty() {
            return;
        }
        let mut at = vec![0usize; self.heaps];
        let mut s: Vec<u32> = vec![self.sizes[0]; self.heaps];
        loop {
            f(&s);
            let Some(i) = (0..self.heaps)
                .rev()
                .find(|&i| at[i] + 1 < self.sizes.len())
            else {
                return;
            };
            at[i] += 1;
            s[i] = self.sizes[at[i]];
            for j in i + 1..self.heaps {
                at[j] = 0;
                s[j] = self.sizes[0];
            }
        }
    }
    fn positions(&self, how: &mut How) -> Table {
        let rows = self.positions_count() as usize;
        let d = self.heaps;
        let mut outcome = EnumVec::new(OUTCOMES, rows);
        let mut grundy = Vec::with_capacity(rows);
        let mut moves = MoveRows::new(rows, d == 1, &self.rule);
        // N with one heap, N1..Nd with several.
        let mut cols: Vec<Vec<Option<i64>>> = (0..d).map(|_| Vec::with_capacity(rows)).collect();
        let mut wins: Vec<Move> = Vec::new();
        self.each_start(|s| {
            wins.clear();
            let (is_p, value) = match how {
                How::Grundy(g) => {
                    let v = s.iter().fold(0, |x, &n| x ^ g.get(n as usize));
                    wins.extend(grundy_winning_moves(&self.rule, g, s));
                    (v == 0, Some(v as i64))
                }
                How::Joint(joint) => {
                    let p = joint.loses(s, Default::default());
                    if !p {
                        wins.extend(joint.winning_moves(s));
                    }
                    (p, None)
                }
                How::NoRepeat(j) => no_repeat_start(j, s, &mut wins),
            };
            outcome.push(outcome_code(is_p));
            grundy.push(value);
            moves.push(&wins);
            for (c, &x) in cols.iter_mut().zip(s) {
                c.push(Some(x as i64));
            }
        });
        let mut cols = cols.into_iter();
        let mut t = Table::new();
        let mut col = |t: &mut Table, name: &str, here: bool| match cols.next().filter(|_| here) {
            Some(c) => t.push(name, Values::OptInt(c)),
            None => t.push(name, Values::Null(rows)),
        };
        if d == 1 {
            col(&mut t, "N", true);
            for name in ["N1", "N2", "N3"] {
                t.push(name, Values::Null(rows));
            }
        } else {
            t.push("N", Values::Null(rows));
            for (i, name) in ["N1", "N2", "N3"].iter().enumerate() {
                col(&mut t, name, i < d);
            }
        }
        let t = t
            .with("outcome", Values::Enum(outcome))
            .with("grundy", Values::OptInt(grundy))
            .with("winning_rule_moves", Values::StructList(moves.finish()));
        self.with_rule(t)
    }
    fn periods(&self, seq: &Sequence) -> Table {
        let mut rows = PeriodRows::default();
        rows.push(
            seq.period.as_ref(),
            &seq.evidence,
            seq.closed_form.as_deref(),
        );
        let head = Table::new()
            .with(
                "values",
                Values::Enum(EnumVec {
                    levels: SEQUENCES,
                    codes: vec![if seq.grundy { 0 } else { 1 }],
                }),
            )
            .with("horizon", Values::Int(vec![seq.horizon as i64]));
        self.with_rule(rows.into_table(head))
    }
}

/// How a case's positions are answered.
enum How {
    /// Grundy values and nim-sums.
    Grundy(Grundy),
    /// The joint-state solver.
    Joint(Joint),
    /// `takeaway`'s solver of a take set with `no_repeat`.
    NoRepeat(TakeJoint),
}

/// A start `s` by `takeaway`'s no-repeat table `j`: whether it is a
/// P-position, and its winning moves (into `wins`). The table's code of a
/// position already says them (none, the single winning take, or several)
/// except with several heaps or several winning takes, where they are
/// scanned.
fn no_repeat_start(j: &TakeJoint, s: &[u32], wins: &mut Vec<Move>) -> (bool, Option<i64>) {
    let mut at = [0usize; 3];
    for (a, &x) in at.iter_mut().zip(s) {
        *a = x as usize;
    }
    let h = &at[..s.len()];
    let code = j.code[j.index(h)];
    let take = |(heap, take)| Move {
        heap,
        heap2: None,
        take,
        split: 0,
    };
    match code {
        0 => {}
        c if s.len() == 1 && c != MULTI => wins.push(take((0, c))),
        _ if s.len() == 1 && j.play == Play::Normal => {
            // Several: the takes whose child is P after them (no winning
            // take there, or that very take), as `TakeJoint::winning_moves`
            // finds them in normal play, read off the codes.
            let n = h[0];
            for &t in j.takes.iter().take_while(|&&t| t as usize <= n) {
                let c = j.code[n - t as usize];
                if c == 0 || c == t {
                    wins.push(take((0, t)));
                }
            }
        }
        _ => wins.extend(j.winning_moves(h, None).into_iter().map(take)),
    }
    (j.start_is_p(h), None)
}

/// The winning moves of the rows, field by field: the heap with one heap,
/// the second heap without `both:` and the split without `split` are the
/// same on every move.
struct MoveRows {
    offsets: Vec<usize>,
    fields: [Vec<i64>; 4],
    same: [Option<i64>; 4],
}

impl MoveRows {
    fn new(rows: usize, one_heap: bool, rule: &Rule) -> MoveRows {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(0);
        MoveRows {
            offsets,
            fields: Default::default(),
            same: [
                one_heap.then_some(1),
                None,
                rule.both.is_none().then_some(0),
                (!rule.split).then_some(0),
            ],
        }
    }
    fn push(&mut self, wins: &[Move]) {
        for m in wins {
            for (f, x) in move_fields(m).into_iter().enumerate() {
                if self.same[f].is_none() {
                    self.fields[f].push(x);
                }
            }
        }
        let end = self.offsets.last().unwrap() + wins.len();
        self.offsets.push(end);
    }
    fn finish(self) -> StructListVec {
        let fields = self
            .fields
            .into_iter()
            .zip(self.same)
            .map(|(mut v, same)| match same {
                Some(x) => StructField::Same(x),
                None => {
                    // Held at its length while the chunk waits for the
                    // writer, not at the last doubling's capacity.
                    v.shrink_to_fit();
                    StructField::Items(v)
                }
            })
            .collect();
        StructListVec::from_fields(MOVE_FIELDS, self.offsets, fields)
    }
}

fn move_fields(m: &Move) -> [i64; 4] {
    [
        m.heap as i64 + 1,
        m.take as i64,
        m.heap2.map_or(0, |j| j as i64 + 1),
        m.split as i64,
    ]
}

/// The joint states a probe of a case's memo may find at most
/// ([`RulesCase::probed_states`]): a few milliseconds of solving.
const PROBE_STATES: u64 = 20_000;

impl RulesCase {
    /// The case's size ([`Cost::size`]): the positions and moves tried.
    fn size(&self) -> u64 {
        let n = self.max_n().max(self.horizon as u32) as u64 + 1;
        // Moves tried per position: the largest take the condition states,
        // else every take.
        let bound = self.rule.mv.take_bound(&self.rule.env());
        let per = bound.map_or(n, |b| (b as u64).min(n)).max(1);
        if self.by_grundy() {
            // A split tries each way to cut what a take leaves in two: the
            // work grows as the heap squared (`t <= 5`, split, to 8,000:
            // copies to 500 and 2,000 took 3.8 and 51 ms, the case 0.78 s;
            // counted without the cuts, the dry run said 0.2 s).
            let cuts = if self.rule.split { n.div_ceil(2) } else { 1 };
            (n.saturating_mul(per) / 2)
                .saturating_mul(cuts)
                .saturating_add(self.positions_count())
        } else {
            // The joint states reached ([`RulesCase::joint_states`]: the
            // heaps and the history the rule reads), each trying its takes
            // on each heap (`first ? t <= 3 : t <= last + 1` to 3,000
            // reaches 12,000 of the 18 million states its history allows;
            // counted as those, the dry run said 16 s for 0.8 s).
            self.joint_states()
                .saturating_mul(per)
                .saturating_mul(self.heaps as u64)
        }
    }
    /// The takes of a rule `takeaway`'s no-repeat solver answers, to the
    /// horizon (at least the largest heap): the one question the solve,
    /// its work and its memory ask.
    fn no_repeat_takes(&self) -> Option<Vec<u32>> {
        let top = self.max_n().max(self.horizon as u32) as usize;
        self.rule.no_repeat_takes(top + 1)
    }
    fn work(&self) -> Work {
        let n = self.max_n().max(self.horizon as u32) as u64 + 1;
        if let Some(takes) = self.no_repeat_takes() {
            // `takeaway`'s solver, in its own units.
            return if self.heaps == 1 && self.rule.play == Play::Normal {
                vec![(crate::family::takeaway::kernels::NO_REPEAT, n)]
            } else {
                let states = n.saturating_pow(self.heaps as u32);
                let k = takes.len() as u64 * self.heaps as u64 / 2;
                vec![(
                    crate::family::takeaway::kernels::RETROGRADE,
                    states.saturating_mul(k).saturating_add(states),
                )]
            };
        }
        let kernel = if self.by_grundy() && self.rule.take_set_only() && !self.rule.split {
            crate::family::takeaway::kernels::SUBTRACTION
        } else {
            crate::family::octal::kernels::OCTAL
        };
        vec![(kernel, self.size())]
    }
    /// The solver's table in bytes, expected and at most: the no-repeat
    /// solver's codes; the joint-state solver's memo, an entry per state
    /// reached ([`RulesCase::joint_states`]), 33 bytes a bucket of a table
    /// at most 7/8 full that doubles as it grows, both tables held while it
    /// does. Expected: 75 bytes a state (`first ? t < n : t <= 2 * last` to
    /// 2,000: 2.0 million states, 212 MB peak; `t <= 6 and t != mine` to
    /// 20,000: 754,054 states, 61 MB); at most 113 (a full table doubling).
    /// None by Grundy values (a value a heap size).
    fn memo_bytes(&self) -> (u64, u64) {
        if self.no_repeat_takes().is_some() {
            // `takeaway`'s table: a code of 4 bytes per position (three
            // heaps to 300: 109 MB); one heap's to the period's horizon
            // with the pass's ring and the values, 21 bytes a heap size as
            // `takeaway` counts the same solver.
            let len = u64::from(self.max_n()) + 1;
            let bytes = if self.heaps == 1 {
                len.max(self.horizon as u64 + 1)
                    .saturating_mul(crate::family::takeaway::cases::JOINT_BYTES_PER_HEAP_SIZE)
            } else {
                len.saturating_pow(self.heaps as u32).saturating_mul(4)
            };
            return (bytes, bytes);
        }
        if self.by_grundy() {
            return (0, 0);
        }
        let states = self.joint_states();
        (states.saturating_mul(75), states.saturating_mul(113))
    }
    /// The joint states (heaps sorted, the history the rule reads) a solve
    /// reaches, counted: several heaps (or a splitting rule's), their
    /// multisets times the histories; one heap whose takes have a bound,
    /// the pairs (heap `m`, last take `l ≤ bound`) with `m + l ≤ N`, times
    /// the takes `mine` may be. One heap reading a last take without a
    /// bound (`first ? t <= 3 : t <= last + 1` reaches a few thousand of
    /// the million pairs to 1,500, `t <= 2 * last` half of them): measured,
    /// solving the heap sizes to 64 and 128 as the case would, grown as they
    /// grew (at least linearly, at most as the pairs, or the triples with
    /// `mine`), at most the count.
    pub(super) fn joint_states(&self) -> u64 {
        let n = self.max_n().max(self.horizon as u32) as u64 + 1;
        let r = &self.rule.mv;
        let bound = r.take_bound(&self.rule.env());
        let per = bound.map_or(n, |b| (b as u64).min(n)).max(1);
        let last = r.reads(cond::LAST) || r.reads(cond::MINE);
        let mine = if r.reads(cond::MINE) { per + 1 } else { 1 };
        let first = u64::from(r.reads(cond::FIRST)) + 1;
        if self.heaps > 1 || !last || self.rule.split {
            let heaps: u64 =
                (1..=self.heaps as u64).fold(1u64, |a, k| a.saturating_mul(n + k - 1) / k);
            let hist = if last { per + 1 } else { first };
            return heaps.saturating_mul(hist).saturating_mul(mine);
        }
        let l = per.min(n - 1);
        let counted = ((l + 1) * n - l * (l + 1) / 2).saturating_mul(mine);
        if bound.is_some() {
            return counted;
        }
        let most = if r.reads(cond::MINE) { 3.0 } else { 2.0 };
        self.probed_states(n, most).min(counted)
    }
    /// The states one heap's solve reaches to `n − 1`: measured to there
    /// where `n` is within the probe's reach, else to half of it and to
    /// it, and grown as the count grew between them (an exponent from 1 to
    /// `most`). The probe reaches 128 heap sizes, or fewer where the
    /// history makes more than [`PROBE_STATES`] states possible there
    /// (`mine` read: 32), so that a plan of many such cases stays quick.
    fn probed_states(&self, n: u64, most: f64) -> u64 {
        let possible = |t: u64| {
            let pairs = (t + 1) * (t + 2) / 2;
            pairs * if most > 2.0 { t + 2 } else { 1 }
        };
        let top = [128u64, 64, 32, 16]
            .into_iter()
            .find(|&t| possible(t) <= PROBE_STATES)
            .unwrap_or(16);
        if n <= top + 1 {
            return self.reached(n - 1) as u64;
        }
        let (a, b) = (self.reached(top / 2), self.reached(top));
        let span = (top + 1) as f64 / (top / 2 + 1) as f64;
        let grows = ((b / a.max(1.0)).ln() / span.ln()).clamp(1.0, most);
        (b * (n as f64 / (top + 1) as f64).powf(grows)) as u64
    }
    /// The states a solve of the heap sizes to `top` reaches (each one's
    /// outcome, then its winning moves), measured once per `top`
    /// ([`RulesCase::probe`]: the plan asks a case's cost many times).
    fn reached(&self, top: u64) -> f64 {
        let mut done = self.probe.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&(_, s)) = done.iter().find(|(t, _)| *t == top) {
            return s;
        }
        let mut j = Joint::new(&self.rule);
        for h in 0..=top as u32 {
            if !j.loses(&[h], Default::default()) {
                j.winning_moves(&[h]);
            }
        }
        let s = j.states() as f64;
        done.push((top, s));
        s
    }
    /// A `rule_positions` row as the typed vectors hold it, where the
    /// family counts it ([`Cost::table_bytes`]): the heap sizes and the
    /// Grundy value (16 bytes each, nullable), the outcome (1), the winning
    /// moves' offset (8) and one move, 8 bytes a field that varies
    /// ([`MoveRows`]: the take; the heap with several heaps; the split with
    /// `split`); the rule's columns are held once per case. Declared, a row
    /// counts four moves of four fields and every heap column (39 rules to
    /// 20,000 counted 76 MiB of tables where the run peaked at 53 MB; three
    /// heaps to 300, 5.5 GiB for 3.3 GB). With `both:` the declared sizes
    /// stay: a position has more winning moves (four rules of two heaps to
    /// 500 counted so: 201 MiB where the run peaked at 337 MB).
    fn position_row_bytes(&self) -> Option<u64> {
        let varying = 1 + u64::from(self.heaps > 1) + u64::from(self.rule.split);
        let heaps = 16 * self.heaps as u64;
        self.rule
            .both
            .is_none()
            .then_some(heaps + 16 + 1 + 8 + 8 * varying)
    }
    fn rows(&self) -> Vec<(&'static str, u64)> {
        let mut v = vec![(super::datasets::POSITIONS.name, self.positions_count())];
        if self.heaps == 1 {
            v.push((super::datasets::PERIODS.name, 1));
        }
        v
    }
}

impl Case for RulesCase {
    fn key(&self) -> String {
        let play = match self.rule.play {
            Play::Normal => "normal",
            Play::Misere => "misere",
        };
        format!(
            "rules/{}/{play}/heaps={}/N={}/horizon={}",
            self.rule.label(),
            self.heaps,
            crate::family::ints_key(&self.sizes.iter().map(|&n| u64::from(n)).collect::<Vec<_>>()),
            self.horizon
        )
    }
    fn cost(&self, _keep: Option<&[String]>) -> Cost {
        let memo = self.memo_bytes();
        Cost {
            size: self.size(),
            work: self.work(),
            memory_bound: memo.1,
            memory_expected: Some(memo.0),
            rows: self.rows(),
            table_bytes: self
                .position_row_bytes()
                .map(|b| (super::datasets::POSITIONS.name, TableBytes::PerRow(b)))
                .into_iter()
                .collect(),
            ..Cost::default()
        }
    }
    fn scaled(&self, factor: f64) -> Option<Box<dyn Case>> {
        // The heap sizes and the horizon cut: the same rule on the same
        // solver.
        let mut c = self.clone();
        c.sizes = crate::family::scaled_prefix(&self.sizes, factor);
        c.horizon = crate::family::scaled_count(self.horizon, factor).max(c.max_n() as usize);
        Some(Box::new(c))
    }
    fn solve(&self, ctx: &CaseCtx<'_>) -> anyhow::Result<Output> {
        self.check().map_err(anyhow::Error::msg)?;
        let len = self.max_n() as usize + 1;
        let periods = self.heaps == 1 && ctx.wants("rule_periods");
        let horizon = self.horizon.max(len - 1);
        let mut joint = Joint::new(&self.rule);
        let (mut how, seq) = if let Some(takes) = self.no_repeat_takes() {
            // One heap whose period is asked: one table to the period's
            // horizon (at least the largest heap) serves the positions too.
            let dims = if periods {
                vec![horizon + 1]
            } else {
                vec![len; self.heaps]
            };
            let j = TakeJoint::solve(&dims, &takes, self.rule.play, true, &|_| {});
            let seq = periods.then(|| periods::no_repeat_sequence(&self.rule, &takes, horizon, &j));
            (How::NoRepeat(j), seq)
        } else {
            let seq = periods.then(|| periods::sequence(&self.rule, horizon, &mut joint));
            let how = if self.by_grundy() {
                How::Grundy(grundy_values(&self.rule, len))
            } else {
                How::Joint(joint)
            };
            (how, seq)
        };
        let mut out = vec![(&POSITIONS, self.positions(&mut how))];
        if let Some(s) = &seq {
            out.push((&PERIODS, self.periods(s)));
        }
        (ctx.progress)(self.size());
        Ok(out)
    }
}
