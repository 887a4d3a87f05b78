//! A takeaway case (one rule on one heap layout): solving it, and filling the
//! typed rows of its datasets.

use std::sync::Arc;

use super::datasets::{LATTICES, LOSS_SETS, MOVE_FIELDS, PERIODS, POSITIONS, SEQUENCES};
use super::lattices::{self, LatticeRows};
use super::one_heap::{OneHeap, Proof, Wins};
use super::solver::{self, Joint};
use super::{Rule, TakeForm};
use crate::cost::Kernel;
use crate::data::{
    DictVec, EnumVec, IntListVec, StrVec, StructField, StructListVec, Table, Values, counting_items,
};
use crate::family::{Case, CaseCtx, Cost, Output, TableBytes};
use crate::game::{OUTCOMES, PLAYS, Play, outcome_code};
use crate::lattice::Grid;
use crate::period::{self, Period, PeriodRows};

/// One rule on one heap layout: the unit of work.
#[derive(Clone)]
pub struct TakeCase {
    rule: Rule,
    sizes: Arc<Vec<Vec<u64>>>,
    sizes_key: String,
    horizon: usize,
    proof_cap: usize,
    /// With the `lattices` dataset: the largest drawing window of its points.
    lattices: Option<usize>,
}

/// Bytes a heap size of one heap's joint-state pass holds (misère or
/// `no_repeat`): its code, the outcome and the zeros or the single winning
/// take's pair (185 MB for a `no_repeat` case extended to 10^7).
pub(crate) const JOINT_BYTES_PER_HEAP_SIZE: u64 = 21;

impl TakeCase {
    /// The case of `rule` on heaps of the given sizes (`sizes_key` names
    /// them in the case key), one-heap sequences computed to `horizon` and
    /// further, up to `proof_cap`, until their period is proven.
    pub fn new(
        rule: Rule,
        sizes: Arc<Vec<Vec<u64>>>,
        sizes_key: String,
        horizon: usize,
        proof_cap: usize,
    ) -> Self {
        TakeCase {
            rule,
            sizes,
            sizes_key,
            horizon,
            proof_cap,
            lattices: None,
        }
    }
    /// The same case, also writing the `lattices` dataset (two or three
    /// heaps: the structure of the loss set, or of each plane `N3 = c`).
    pub fn with_lattices(mut self, lattices: bool) -> Self {
        let d = self.sizes.len();
        self.lattices = (lattices && d > 1).then(|| lattices::default_points_window(d));
        self
    }
    /// The largest drawing window whose P-positions the `lattices` rows
    /// store (`points`; 0: none).
    pub fn with_points_window(mut self, cap: usize) -> Self {
        if let Some(c) = &mut self.lattices {
            *c = cap;
        }
        self
    }
    /// Joint states up to the largest sizes (saturating).
    fn states(&self) -> u64 {
        self.max_sizes()
            .iter()
            .fold(1u64, |a, &m| a.saturating_mul(m as u64 + 1))
    }
    /// Positions (rows) asked for (saturating).
    fn positions(&self) -> u64 {
        self.sizes
            .iter()
            .fold(1u64, |a, v| a.saturating_mul(v.len() as u64))
    }
    /// The most heap sizes one heap's sequence may be computed to: the
    /// horizon, extended (×4 at a time) up to `proof_cap` for a finite take
    /// set until its period is proven ([`OneHeap::solve_proving`]).
    fn longest(&self) -> usize {
        match self.rule.take.max_take() {
            Some(_) => self.horizon.max(self.proof_cap),
            None => self.horizon,
        }
    }
    /// The lengths one heap's sequence is solved to when its period is
    /// proven only at the cap: the horizon, then ×4 at a time up to
    /// `proof_cap` ([`OneHeap::solve_proving`]); the horizon alone for an
    /// infinite take set.
    fn lengths_solved(&self) -> Vec<usize> {
        let mut lens = vec![self.horizon];
        let mut len = self.horizon;
        while len < self.longest() {
            len = len.saturating_mul(4).max(1).min(self.longest());
            lens.push(len);
        }
        lens
    }
    /// Work (roughly positions visited) with one heap's sequence computed
    /// to `len` heap sizes; other cases' work does not depend on `len`.
    fn cost_to(&self, len: usize) -> u64 {
        let k = self.rule.take.takes(self.horizon.min(64)).len() as u64;
        if self.sizes.len() == 1 {
            let per = match self.one_heap_kernel() {
                super::kernels::SUBTRACTION if !self.rule.has_grundy_values() => k,
                _ => 1,
            };
            (len as u64)
                .saturating_mul(per)
                .saturating_add(self.sizes[0].len() as u64 * 4)
        } else {
            let states = self.states();
            states
                .saturating_mul(k * self.sizes.len() as u64 / 2)
                .saturating_add(states)
        }
    }
    /// The kernel that solves a one-heap sequence: the no-repeat pass for
    /// normal play with the no-repeat rule, otherwise the subtraction kernel
    /// (a Grundy value per heap size, or a scan of the takes of each heap
    /// size in misère play).
    fn one_heap_kernel(&self) -> Kernel {
        if self.rule.no_repeat && self.rule.play == Play::Normal {
            super::kernels::NO_REPEAT
        } else {
            super::kernels::SUBTRACTION
        }
    }
    /// Memory with one heap's sequences computed to `len` heap sizes, and
    /// each position's row made where `rows` (the sweep keeps `positions`:
    /// a two-heap case to 3,000 keeping `lattices` alone peaked at 51 MB,
    /// where its 9 million rows count 720 MB).
    fn memory_to(&self, len: usize, rows: bool) -> u64 {
        let per_row = if rows { 80 } else { 0 };
        if self.sizes.len() == 1 {
            // Per heap size computed (to the horizon's furthest extension):
            // normal play a Grundy value (at most 2 bytes), the outcome and
            // the zeros' index (4 bytes at most); misère or no_repeat the
            // joint code (4), the outcome, and the zeros or, for a single
            // winning take, its (y + a, y) pair (16): measured 185 MB for a
            // no_repeat case extended to 10^7 (cond13-long-proofs, one thread).
            let per = if self.rule.has_grundy_values() {
                8
            } else {
                JOINT_BYTES_PER_HEAP_SIZE
            };
            (len as u64)
                .saturating_mul(per)
                .saturating_add(self.sizes[0].len() as u64 * per_row)
        } else {
            // A sum of one-heap games reads one heap's Grundy values (8
            // bytes a heap size), a joint state table its code (4 bytes a
            // state); a lattice is drawn on a grid of a bit a position of
            // its plane (two heaps of `{2, 5, 7}` to 6,000 peaked at 16 MB,
            // counted 137 MiB as 4 bytes a state).
            // The lattice's proof extends one heap's values until their
            // period is proven (to `len` at most).
            let maxs = self.max_sizes();
            let top = maxs.iter().max().copied().unwrap_or(0) + 1;
            let solve = match (self.rule.has_grundy_values(), self.lattices) {
                (true, Some(_)) => (top.max(len) as u64).saturating_mul(8),
                (true, None) => (top as u64).saturating_mul(8),
                (false, _) => self.states().saturating_mul(4),
            };
            let grid = match self.lattices {
                Some(_) => (maxs[0] as u64 + 1)
                    .saturating_mul(maxs[1] as u64 + 1)
                    .div_ceil(8),
                None => 0,
            };
            solve
                .saturating_add(grid)
                .saturating_add(self.positions().saturating_mul(per_row))
        }
    }
    fn max_sizes(&self) -> Vec<usize> {
        self.sizes
            .iter()
            .map(|v| *v.iter().max().unwrap() as usize)
            .collect()
    }
    /// A `positions` row as the typed vectors hold it: the heap sizes (8
    /// bytes each; the unused heap columns are nulls, stored as none), the
    /// outcome (1), the Grundy value (8, where defined), the winning moves'
    /// offset (8) and one move (its take, 8; its heap, 8 with several heaps,
    /// always 1 with one). The rule's columns and the labels are held once
    /// per case ([`Values::Repeat`]).
    pub(crate) fn position_row_bytes(&self) -> u64 {
        let heaps = self.sizes.len() as u64;
        let grundy = if self.rule.has_grundy_values() { 8 } else { 0 };
        let one_move = if heaps == 1 { 8 } else { 16 };
        8 * heaps + 1 + grundy + 8 + one_move
    }
    /// The rule's columns ([`super::datasets::RULE`]) added to `t`, each
    /// one value held once ([`Values::Repeat`]).
    fn with_rule(&self, t: Table) -> Table {
        let r = &self.rule;
        let n = t.rows();
        let take_max = match r.take.max_take() {
            Some(m) => Values::repeat(Values::Int(vec![m as i64]), n),
            None => Values::Null(n),
        };
        let take_set = match &r.take {
            TakeForm::Set(s) => {
                let mut l = IntListVec::with_capacity(1, s.len());
                l.push_iter(s.iter().map(|&x| x as i64));
                Values::repeat(Values::IntList(l), n)
            }
            _ => Values::Null(n),
        };
        let label = |s: &str| Values::repeat(Values::Dict(DictVec::repeat(s, 1)), n);
        let int = |x: i64| Values::repeat(Values::Int(vec![x]), n);
        let mut out = Table::new()
            .with("rule", label(&r.label()))
            .with("take", label(&r.take.text()))
            .with("take_min", int(r.take.min_take() as i64))
            .with("take_max", take_max)
            .with("take_set", take_set)
            .with("play", enum_repeat(PLAYS, r.play.code(), n))
            .with(
                "no_repeat",
                Values::repeat(Values::Bool(vec![r.no_repeat]), n),
            )
            .with("heaps", int(self.sizes.len() as i64));
        for (name, v) in t.into_columns() {
            out.push(&name, v);
        }
        out
    }
}

fn enum_repeat(levels: &'static [&'static str], code: u8, n: usize) -> Values {
    let one = Values::Enum(EnumVec {
        levels,
        codes: vec![code],
    });
    Values::repeat(one, n)
}

impl TakeCase {
    /// The case's size ([`Cost::size`]).
    fn size(&self) -> u64 {
        self.cost_to(self.horizon)
    }
    fn work(&self) -> crate::cost::Work {
        let kernel = match self.sizes.len() {
            1 => self.one_heap_kernel(),
            _ => super::kernels::RETROGRADE,
        };
        vec![(kernel, self.size())]
    }
    /// The work at most: a one-heap sequence extended up to `proof_cap`
    /// (`None`: as expected).
    fn work_at_most(&self) -> Option<crate::cost::Work> {
        if self.sizes.len() != 1 {
            return None;
        }
        // Each extension solves the sequence again from the start
        // ([`OneHeap::solve_proving`]); the rows are read once, at the end.
        let rows = self.sizes[0].len() as u64 * 4;
        let lens = self.lengths_solved();
        let work = lens
            .iter()
            .map(|&len| self.cost_to(len) - rows)
            .fold(rows, u64::saturating_add);
        Some(vec![(self.one_heap_kernel(), work)])
    }
    fn unbounded(&self) -> Option<String> {
        (self.sizes.len() == 1 && self.longest() > self.horizon).then(|| {
            format!(
                "a one-heap sequence whose period is not proven by its horizon is extended (×4 at a time) up to proof_cap = {}, and only solving tells how far: the time expected and the memory expected count the horizons asked, the time at most counts every extension up to the cap and the memory at most the cap; a smaller proof_cap lowers both bounds",
                self.proof_cap
            )
        })
    }
    fn memory(&self, rows: bool) -> u64 {
        self.memory_to(self.longest(), rows)
    }
    fn expected_memory(&self, rows: bool) -> u64 {
        // The horizon asked for: whether a period's proof extends it, and
        // how far, is known only by solving.
        self.memory_to(self.horizon, rows)
    }
    fn rows(&self) -> Vec<(&'static str, u64)> {
        if self.sizes.len() == 1 {
            vec![
                (POSITIONS.name, self.positions()),
                (PERIODS.name, 1),
                (LOSS_SETS.name, 1),
            ]
        } else {
            let mut v = vec![(POSITIONS.name, self.positions())];
            if self.lattices.is_some() {
                // One row per loss set (two for the sector model).
                let sets = match self.sizes.len() {
                    2 => 1,
                    _ => self.sizes[2].len() as u64,
                };
                v.push((LATTICES.name, sets));
            }
            v
        }
    }
}

impl Case for TakeCase {
    fn key(&self) -> String {
        format!(
            "takeaway/v2/take={}/play={}/no_repeat={}/heaps={}/{}/horizon={}/proof_cap={}{}",
            self.rule.take.text(),
            self.rule.play.as_str(),
            self.rule.no_repeat,
            self.sizes.len(),
            self.sizes_key,
            self.horizon,
            self.proof_cap,
            match self.lattices {
                Some(w) => format!("/lattices/points_window={w}"),
                None => String::new(),
            }
        )
    }
    fn cost(&self, keep: Option<&[String]>) -> Cost {
        let rows = keep.is_none_or(|k| k.iter().any(|d| d == POSITIONS.name));
        Cost {
            size: self.size(),
            work: self.work(),
            work_bound: self.work_at_most(),
            memory_bound: self.memory(rows),
            memory_expected: Some(self.expected_memory(rows)),
            rows: self.rows(),
            // A row per position; the other datasets are a few rows a case.
            table_bytes: vec![(
                POSITIONS.name,
                TableBytes::PerRow(self.position_row_bytes()),
            )],
            unbounded: self.unbounded(),
            ..Cost::default()
        }
    }
    fn scaled(&self, factor: f64) -> Option<Box<dyn Case>> {
        // Each heap's sizes cut to their first part, the horizon with
        // them: the same rule on the same kernel. (A case whose period is
        // proven only past its horizon costs its extensions beyond what the
        // copies say: the estimate expected counts the horizons asked, its
        // bound the extensions up to the cap.)
        let cut = |n| crate::family::scaled_count(n, factor);
        let sizes: Vec<Vec<u64>> = self
            .sizes
            .iter()
            .map(|h| h[..cut(h.len()).min(h.len())].to_vec())
            .collect();
        let mut c = self.clone();
        c.sizes = Arc::new(sizes);
        c.sizes_key = format!("{}/scaled={factor}", self.sizes_key);
        if self.sizes.len() == 1 {
            // Not extended past its horizon: a period proven only by
            // extending a short copy (×4 at a time, to a cap cut 256×) costs
            // what the case does not (`max: 160` in misère play to 60,000:
            // a copy to 234 extended to 39,062 and said 98× the model, where
            // the case itself took 6.5×).
            c.horizon = cut(self.horizon);
            c.proof_cap = c.horizon;
        }
        Some(Box::new(c))
    }
    fn memory_hint(&self) -> &'static str {
        if self.sizes.len() == 1 && self.longest() > self.horizon {
            "lower `proof_cap` (how far the horizon may be extended to prove a period), or use a smaller range"
        } else {
            "use fewer heaps or smaller sizes (a smaller range)"
        }
    }
    fn solve(&self, ctx: &CaseCtx<'_>) -> anyhow::Result<Output> {
        if self.sizes.len() == 1 {
            Ok(self.solve_one(ctx))
        } else {
            Ok(self.solve_many(ctx))
        }
    }
}

/// The winning moves and outcomes of positions, filled row by row.
struct MoveRows {
    outcome: EnumVec,
    moves: StructListVec,
}

impl MoveRows {
    fn new(rows: usize) -> MoveRows {
        MoveRows {
            outcome: EnumVec::new(OUTCOMES, rows),
            moves: StructListVec::new(MOVE_FIELDS, rows),
        }
    }
    fn push(&mut self, is_p: bool, moves: impl Iterator<Item = (usize, u32)>) {
        self.outcome.push(outcome_code(is_p));
        for (heap, take) in moves {
            self.moves.push_item(&[heap as i64 + 1, take as i64]);
        }
        self.moves.end_row();
    }
}

/// The winning takes of one heap's positions, row by row: each row's first
/// take while every row counts up by one (as interval rules' do), else
/// every take.
struct TakeRows {
    offsets: Vec<usize>,
    firsts: Vec<i64>,
    takes: Option<Vec<i64>>,
}

impl TakeRows {
    fn new(rows: usize) -> TakeRows {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(0);
        TakeRows {
            offsets,
            firsts: Vec::with_capacity(rows),
            takes: None,
        }
    }
    fn push(&mut self, wins: Wins) {
        let end = *self.offsets.last().unwrap();
        let counting = match wins {
            Wins::Counting(a, k) => Some((a, k)),
            Wins::Takes(t) => match (t.first(), t.last()) {
                (Some(&a), Some(&b)) if (b - a) as usize + 1 == t.len() => Some((a, t.len())),
                (None, _) => Some((0, 0)),
                _ => None,
            },
        };
        if let (None, Some((a, k))) = (&self.takes, counting) {
            self.firsts.push(a as i64);
            self.offsets.push(end + k);
            return;
        }
        let takes = self
            .takes
            .get_or_insert_with(|| counting_items(&self.offsets, &self.firsts));
        match wins {
            Wins::Counting(a, k) => takes.extend((0..k as i64).map(|j| a as i64 + j)),
            Wins::Takes(t) => takes.extend(t.iter().map(|&s| s as i64)),
        }
        self.offsets.push(takes.len());
    }
    fn finish(self) -> (Vec<usize>, StructField) {
        let field = match self.takes {
            Some(t) => StructField::Items(t),
            None => StructField::Counting(self.firsts),
        };
        (self.offsets, field)
    }
}

impl TakeCase {
    fn solve_one(&self, ctx: &CaseCtx<'_>) -> Output {
        let one = OneHeap::solve_proving(&self.rule, self.horizon, self.proof_cap, ctx.progress);
        let mut out = Vec::new();
        if ctx.wants(POSITIONS.name) {
            out.push((&POSITIONS, self.with_rule(self.one_heap_positions(&one))));
        }
        out.push((&PERIODS, self.with_rule(self.periods(&one))));
        out.push((&LOSS_SETS, self.with_rule(self.loss_set(&one))));
        out
    }

    fn one_heap_positions(&self, one: &OneHeap) -> Table {
        let ns = &self.sizes[0];
        let rows = ns.len();
        let mut outcome = EnumVec::new(OUTCOMES, rows);
        let mut takes = TakeRows::new(rows);
        one.winning_takes_each(ns.iter().map(|&n| n as usize), |n, wins| {
            outcome.push(outcome_code(one.is_p[n]));
            takes.push(wins);
        });
        // One heap: every move is on heap 1.
        let (offsets, takes) = takes.finish();
        let fields = vec![StructField::Same(1), takes];
        let moves = StructListVec::from_fields(MOVE_FIELDS, offsets, fields);
        let grundy = match &one.grundy {
            Some(g) => Values::Int(ns.iter().map(|&n| g.get(n as usize) as i64).collect()),
            None => Values::Null(rows),
        };
        let mut t = Table::new().with("N", Values::Int(ns.iter().map(|&n| n as i64).collect()));
        for k in 1..=6 {
            t.push(&format!("N{k}"), Values::Null(rows));
        }
        t.with("outcome", Values::Enum(outcome))
            .with("grundy", grundy)
            .with("winning_moves", Values::StructList(moves))
    }

    fn periods(&self, one: &OneHeap) -> Table {
        let per = one.periods();
        let n = per.len();
        let mut rows = PeriodRows::default();
        let mut which = EnumVec::new(SEQUENCES, n);
        let mut values = IntListVec::default();
        let mut pattern = StrVec::default();
        let mut residues = IntListVec::default();
        for (name, p) in &per {
            which.push_str(name);
            let Some(p) = p else {
                let ev = format!(
                    "{}no period with enough evidence on [0, {}]",
                    self.cap_note(one),
                    one.end()
                );
                rows.push(None, &ev, None);
                values.push_null();
                pattern.push_null();
                residues.push_null();
                continue;
            };
            rows.push(
                Some(p),
                &self.evidence(one, p),
                Some(&period::closed_form("N", &one.is_p, p)),
            );
            let range = p.preperiod..p.preperiod + p.period;
            match (&one.grundy, *name) {
                (Some(g), "grundy") => values.push_iter(range.clone().map(|i| g.get(i) as i64)),
                _ => values.push_null(),
            }
            pattern.push_with(|b| range.for_each(|i| b.push(if one.is_p[i] { 'P' } else { 'N' })));
            let (_, res) = period::residues(&one.is_p, p);
            residues.push_iter(res.iter().map(|&r| r as i64));
        }
        let t = Table::new()
            .with("values", Values::Enum(which))
            .with("horizon", Values::Int(vec![one.horizon as i64; n]))
            .with("computed_to", Values::Int(vec![one.end() as i64; n]))
            .with("extended", Values::Bool(vec![one.extension() > 0; n]));
        rows.into_table(t)
            .with("period_values", Values::IntList(values))
            .with("period_pattern", Values::Str(pattern))
            .with("loss_residues", Values::IntList(residues))
    }

    fn evidence(&self, one: &OneHeap, p: &Period) -> String {
        let extended = match one.extension() {
            0 => String::new(),
            _ => format!(
                " (horizon extended from {} to {} to find {})",
                one.horizon,
                one.end(),
                match one.proof() {
                    Some(Proof::Losses(..)) => "it",
                    _ => "the window",
                }
            ),
        };
        match (p.status, one.proof()) {
            (period::Status::Proven, Some(Proof::Losses(..))) => format!(
                "by induction on the losses: from each loss every take t leaves a heap with a take other than t to a loss, from every other heap a take reaches a loss; the step repeats with the period and holds over one period beyond N = {}{}",
                one.end(),
                extended
            ),
            (period::Status::Proven, _) => format!(
                "joint state repeats over a full window of max(S) = {} after {}{}",
                self.rule.take.max_take().unwrap_or(0),
                p.preperiod,
                extended
            ),
            (period::Status::Observed, _) => format!(
                "{}observed on [{}, {}], {} periods",
                self.cap_note(one),
                p.preperiod,
                p.end,
                p.periods_seen()
            ),
        }
    }

    /// Why a finite take set's period is not proven: the cap was reached.
    fn cap_note(&self, one: &OneHeap) -> String {
        match self.rule.take.max_take() {
            Some(_) => format!("no proof window by N = {} (the cap); ", one.end()),
            None => String::new(),
        }
    }

    fn loss_set(&self, one: &OneHeap) -> Table {
        let ns = &self.sizes[0];
        let losses: Vec<i64> = ns
            .iter()
            .filter(|&&n| one.is_p[n as usize])
            .map(|&n| n as i64)
            .collect();
        let mut l = IntListVec::default();
        l.push(&losses);
        Table::new()
            .with("N_min", Values::Int(vec![*ns.iter().min().unwrap() as i64]))
            .with("N_max", Values::Int(vec![*ns.iter().max().unwrap() as i64]))
            .with("count", Values::Int(vec![losses.len() as i64]))
            .with("loss_set", Values::IntList(l))
    }

    fn solve_many(&self, ctx: &CaseCtx<'_>) -> Output {
        let maxs = self.max_sizes();
        let top = *maxs.iter().max().unwrap();
        let takes = self.rule.take.takes(top);
        let xor_path = self.rule.has_grundy_values();
        let solved = if xor_path {
            let g = solver::grundy_sequence(&takes, top + 1);
            (ctx.progress)(g.len() as u64);
            Solved::Xor(g)
        } else {
            let dims: Vec<usize> = maxs.iter().map(|m| m + 1).collect();
            let j = Joint::solve(
                &dims,
                &takes,
                self.rule.play,
                self.rule.no_repeat,
                ctx.progress,
            );
            Solved::Joint(j)
        };
        let mut out = Vec::new();
        if ctx.wants(POSITIONS.name) {
            let t = self.many_heap_positions(&solved, &takes);
            out.push((&POSITIONS, self.with_rule(t)));
        }
        if let Some(cap) = self.lattices {
            out.push((&LATTICES, self.with_rule(self.lattice_rows(&solved, cap))));
        }
        out
    }

    /// The `lattices` rows: the two-heap loss set, or each plane `N3 = c`
    /// asked for, on the box `[0, max N1] × [0, max N2]`; proven for sums of
    /// one-heap games, observed otherwise.
    fn lattice_rows(&self, solved: &Solved, cap: usize) -> Table {
        let maxs = self.max_sizes();
        let (w, h) = (maxs[0] + 1, maxs[1] + 1);
        let top = *maxs.iter().max().unwrap();
        let proof = super::planes::sum_proof(&self.rule, top.max(64));
        let label = self.rule.label();
        let mut rows = LatticeRows::new(cap);
        if self.sizes.len() == 2 {
            let g = Grid::from_fn(w, h, |x, y| solved.is_p(&[x, y]));
            let m = lattices::model(&g, proof.as_ref());
            rows.push(&label, None, &g, m.as_ref());
        } else {
            for &c in &self.sizes[2] {
                let c = c as usize;
                let g = Grid::from_fn(w, h, |x, y| solved.is_p(&[x, y, c]));
                let pp = proof.as_ref().map(|p| lattices::plane_proof(p, c));
                let m = lattices::model(&g, pp.as_ref());
                rows.push(&format!("{label} | N3 = {c}"), Some(c), &g, m.as_ref());
            }
        }
        rows.into_table()
    }

    fn many_heap_positions(&self, solved: &Solved, takes: &[u32]) -> Table {
        let d = self.sizes.len();
        let rows: usize = self.sizes.iter().map(Vec::len).product();
        let mut cols: Vec<Vec<i64>> = vec![Vec::with_capacity(rows); d];
        let mut grundy = Vec::with_capacity(rows);
        let mut m = MoveRows::new(rows);
        let mut heaps = vec![0usize; d];
        let mut wins: Vec<(usize, u32)> = Vec::new();
        for_each_position(&self.sizes, &mut heaps, |heaps| {
            for (c, &h) in cols.iter_mut().zip(heaps) {
                c.push(h as i64);
            }
            let (is_p, g) = solved.position(heaps, takes, &mut wins);
            grundy.push(g);
            m.push(is_p, wins.iter().copied());
        });
        let grundy = match solved {
            Solved::Xor(_) => Values::Int(grundy.into_iter().map(|g| g.unwrap_or(0)).collect()),
            Solved::Joint(_) => Values::Null(rows),
        };
        let mut t = Table::new().with("N", Values::Null(rows));
        let mut cols = cols.into_iter();
        for k in 1..=6 {
            t.push(
                &format!("N{k}"),
                cols.next().map_or(Values::Null(rows), Values::Int),
            );
        }
        t.with("outcome", Values::Enum(m.outcome))
            .with("grundy", grundy)
            .with("winning_moves", Values::StructList(m.moves))
    }
}

/// Several heaps solved: by the XOR of one-heap Grundy values (normal play
/// without no_repeat), or on the joint state.
enum Solved {
    Xor(solver::Grundy),
    Joint(Joint),
}

impl Solved {
    /// Is the position (at the start of a game) a P-position?
    fn is_p(&self, heaps: &[usize]) -> bool {
        match self {
            Solved::Xor(g) => heaps.iter().fold(0, |a, &h| a ^ g.get(h)) == 0,
            Solved::Joint(j) => j.start_is_p(heaps),
        }
    }

    /// Outcome and Grundy value of `heaps`; its winning moves (heap, take) into `wins`.
    fn position(
        &self,
        heaps: &[usize],
        takes: &[u32],
        wins: &mut Vec<(usize, u32)>,
    ) -> (bool, Option<i64>) {
        wins.clear();
        match self {
            Solved::Xor(g) => {
                let x = heaps.iter().fold(0, |a, &h| a ^ g.get(h));
                if x != 0 {
                    for (i, &h) in heaps.iter().enumerate() {
                        let target = g.get(h) ^ x;
                        for &s in takes.iter().take_while(|&&s| s as usize <= h) {
                            if g.get(h - s as usize) == target {
                                wins.push((i, s));
                            }
                        }
                    }
                }
                (x == 0, Some(x as i64))
            }
            Solved::Joint(j) => {
                *wins = j.winning_moves(heaps, None);
                (j.start_is_p(heaps), None)
            }
        }
    }
}

/// Calls `f` on every combination of the heap sizes, the last heap fastest.
fn for_each_position(sizes: &[Vec<u64>], heaps: &mut [usize], mut f: impl FnMut(&[usize])) {
    let d = sizes.len();
    let mut idx = vec![0usize; d];
    'rows: loop {
        for i in 0..d {
            heaps[i] = sizes[i][idx[i]] as usize;
        }
        f(heaps);
        for i in (0..d).rev() {
            idx[i] += 1;
            if idx[i] < sizes[i].len() {
                continue 'rows;
            }
            idx[i] = 0;
        }
        break;
    }
}
