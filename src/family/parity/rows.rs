//! The typed rows of parity's datasets, filled from a [`Solution`].

use anyhow::Context;

use super::cases::ParityCase;
use super::datasets::{KINDS, PLAYERS, SIDES, STATE_CLASSES, VARIANTS, VERDICTS, YES_NO};
use super::solver::{self, Class, Exception, Mover, SafeState, Solution, Variant};
use crate::data::{DictVec, EnumVec, IntListVec, StrListVec, StrVec, Table, Values};
use crate::game::{OUTCOMES, outcome_code};
use crate::period::PeriodRows;

/// The name of a player in data: `odd`/`even`, `a`/`b` (odd_wins positions).
pub(crate) fn player_name(variant: Variant, m: Mover) -> &'static str {
    match (variant, m) {
        (Variant::Sides, Mover::A) => "odd",
        (Variant::Sides, Mover::B) => "even",
        (Variant::OddWins, Mover::A) => "a",
        (Variant::OddWins, Mover::B) => "b",
    }
}

/// The class of an `odd_wins` outcome row, where A is the mover.
fn mover_class(c: Class) -> &'static str {
    match c {
        Class::AbsoluteA => "absolute_mover",
        Class::AbsoluteB => "absolute_other",
        Class::Common => "common",
        Class::Neither => "neither",
    }
}

/// The safe sides of a variant: `sides` has Odd and Even, `odd_wins` one
/// player (the one who just moved, holding `a`).
fn safe_sides(v: Variant) -> &'static [(Mover, &'static str)] {
    match v {
        Variant::Sides => &[(Mover::A, "odd"), (Mover::B, "even")],
        Variant::OddWins => &[(Mover::A, "player")],
    }
}

fn exception_text(e: &Exception) -> String {
    format!(
        "{}({},{},{})",
        if e.safe { "+" } else { "−" },
        e.a,
        e.b,
        e.r
    )
}

fn states(list: &[SafeState], m: usize) -> impl Iterator<Item = String> + '_ {
    list.iter().map(move |s| solver::state_text(s, m))
}

fn push_states(col: &mut StrListVec, list: &[SafeState], m: usize) {
    let v: Vec<String> = states(list, m).collect();
    col.push(v.iter().map(String::as_str));
}

/// The state class of `(a, b, r)`: who wins for each mover.
fn class_of(wa: bool, wb: bool) -> Class {
    match (wa, wb) {
        (true, false) => Class::AbsoluteA,
        (false, true) => Class::AbsoluteB,
        (false, false) => Class::Common,
        (true, true) => Class::Neither,
    }
}

impl ParityCase {
    /// The rule's columns (`variant`, `take`, `k`; with `take_set` for the
    /// per-rule tables) added to `t`.
    fn with_rule(&self, t: Table, with_set: bool) -> Table {
        let n = t.rows();
        let mut out = Table::new()
            .with("variant", enum_repeat(VARIANTS, self.variant.as_str(), n))
            .with("take", Values::Dict(DictVec::repeat(&self.take.text(), n)))
            .with("k", Values::Int(vec![self.take.max() as i64; n]));
        if with_set {
            let set: Vec<i64> = self.take.takes().iter().map(|&x| x as i64).collect();
            let mut l = IntListVec::default();
            (0..n).for_each(|_| l.push(&set));
            out.push("take_set", Values::IntList(l));
        }
        for (name, v) in t.into_columns() {
            out.push(&name, v);
        }
        out
    }

    fn movers(&self) -> &'static [Mover] {
        if self.variant == Variant::Sides {
            &[Mover::A, Mover::B]
        } else {
            &[Mover::A]
        }
    }

    /// `outcome`: one row per pile size, hand parities and mover.
    pub fn outcome_table(&self, s: &Solution) -> Table {
        let rows = self.rs.len() * 4;
        let mut keys = Keys::new(rows);
        let mut winner = EnumVec::new(PLAYERS, rows);
        let mut outcome = EnumVec::new(OUTCOMES, rows);
        let mut moves = IntListVec::with_capacity(rows, rows);
        let mut class = EnumVec::new(STATE_CLASSES, rows);
        for &r in self.rs.iter() {
            for (a, b) in s.hands(r as usize) {
                let (a, b) = (a as u64, b as u64);
                // The class needs who wins for both movers (odd_wins rows show one).
                let wa = s.wins(a, b, r, Mover::A).expect("r is inside the table");
                let wb = s.wins(a, b, r, Mover::B).expect("r is inside the table");
                let c = class_of(wa, wb);
                for &m in self.movers() {
                    keys.push(r, a, b, self.variant, m);
                    let wins = if m == Mover::A { wa } else { wb };
                    outcome.push(outcome_code(!wins));
                    match self.variant {
                        Variant::Sides => {
                            let w = if wins { m } else { m.other() };
                            winner.push_str(player_name(self.variant, w));
                            class.push_str(c.name(self.variant));
                        }
                        Variant::OddWins => {
                            winner.push_str(if wins { "mover" } else { "other" });
                            class.push_str(mover_class(c));
                        }
                    }
                    match wins {
                        true => moves.push_iter(
                            s.winning_takes(a, b, r, m)
                                .unwrap_or_default()
                                .into_iter()
                                .map(i64::from),
                        ),
                        false => moves.push(&[]),
                    }
                }
            }
        }
        self.with_rule(
            keys.table()
                .with("winner", Values::Enum(winner))
                .with("outcome", Values::Enum(outcome))
                .with("winning_takes", Values::IntList(moves))
                .with("state_class", Values::Enum(class)),
            false,
        )
    }

    /// `remoteness`: the rows of `outcome` (same keys, same order) with
    /// who wins and how many moves the game lasts.
    pub fn remoteness_table(&self, s: &Solution) -> Table {
        let rows = self.rs.len() * 4;
        let mut keys = Keys::new(rows);
        let mut outcome = EnumVec::new(OUTCOMES, rows);
        let mut remote = Vec::with_capacity(rows);
        let last = self.rs.iter().copied().max().map_or(0, |r| r as usize + 1);
        let rem = s
            .remoteness(last)
            .expect("the table covers the listed pile sizes");
        for &r in self.rs.iter() {
            for (a, b) in s.hands(r as usize) {
                for &m in self.movers() {
                    keys.push(r, u64::from(a), u64::from(b), self.variant, m);
                    let wins = s
                        .wins(a as u64, b as u64, r, m)
                        .expect("r is inside the table");
                    outcome.push(outcome_code(!wins));
                    remote.push(i64::from(rem[r as usize][solver::slot(a, b, m)]));
                }
            }
        }
        self.with_rule(
            keys.table()
                .with("outcome", Values::Enum(outcome))
                .with("remoteness", Values::Int(remote)),
            false,
        )
    }

    /// `safe_states` (one row per state) and `safe_lists` (one row per side).
    pub fn safe_tables(&self, s: &Solution) -> (Table, Table) {
        let mut long = SafeRows::default();
        let mut lists = ListRows::new();
        let claim = match (self.variant, self.take.interval()) {
            (Variant::Sides, Some(k)) => Some(solver::article_claim(k as usize)),
            _ => None,
        };
        for &(who, name) in safe_sides(self.variant) {
            let Some(p) = s.period else {
                let head = format!(
                    "{} (no period proven up to r = {})",
                    self.take.text(),
                    s.end()
                );
                lists.push_none(name, &head);
                continue;
            };
            let m = p.period;
            let (list, exc) = s.safe_states(who).unwrap_or_default();
            let (mut abs, mut common) = (Vec::new(), Vec::new());
            for st in &list {
                // A representative pile size of the residue class, past the preperiod.
                let r = p.preperiod + (st.residue + m - p.preperiod % m) % m;
                let c = s.class(st.a as u64, st.b as u64, r as u64);
                let absolute = matches!(
                    (c, who),
                    (Some(Class::AbsoluteA), Mover::A) | (Some(Class::AbsoluteB), Mover::B)
                );
                long.push(name, st, m, p.preperiod, absolute);
                if absolute {
                    abs.push(*st)
                } else {
                    common.push(*st)
                }
            }
            let from = if p.preperiod > 0 {
                format!(", from r = {}", p.preperiod)
            } else {
                String::new()
            };
            let head = format!("{}: M = {m}{from}", self.take.human());
            let article = claim.as_ref().map(|(cm, odd, even)| {
                let want = if who == Mover::A { odd } else { even };
                let same = *cm == m && p.preperiod == 0 && want == &list;
                (states(want, *cm).collect::<Vec<_>>(), same)
            });
            lists.push(
                name,
                &head,
                (m, p.preperiod),
                [&list, &abs, &common],
                &exc,
                article,
            );
        }
        (
            self.with_rule(long.into_table(), false),
            self.with_rule(lists.into_table(), true),
        )
    }

    /// `moduli`: the modulus against report 001's claim.
    pub fn moduli_table(&self, s: &Solution) -> Table {
        let p = s.period;
        let (claimed, claim_states) = match (self.variant, self.take.interval()) {
            (Variant::Sides, Some(k)) => {
                let (cm, odd, even) = solver::article_claim(k as usize);
                let states = p.map(|p| {
                    p.period == cm
                        && p.preperiod == 0
                        && s.safe_states(Mover::A).is_some_and(|x| x.0 == odd)
                        && s.safe_states(Mover::B).is_some_and(|x| x.0 == even)
                });
                (Some(cm), states)
            }
            // The opening example: take 1..3, odd hand wins, "mod 8".
            (Variant::OddWins, Some(3)) => (Some(8), None),
            _ => (None, None),
        };
        let verdict = |b: Option<bool>| match b {
            Some(true) => "holds",
            Some(false) => "fails",
            None => "no claim",
        };
        let m_holds = claimed.map(|c| p.is_some_and(|p| p.period == c && p.preperiod == 0));
        let form = p.map(|p| match p.preperiod {
            0 => format!("M = {}", p.period),
            n => format!("M = {} from r = {n}", p.period),
        });
        let evidence = match p {
            Some(p) => format!(
                "the state (outcome bits and r mod 2) repeats over a full window of max(S) = {} from r = {}; table computed to r = {}",
                s.max_take(),
                p.preperiod,
                s.end()
            ),
            None => format!(
                "no repeat of a full window of max(S) = {} up to r = {}",
                s.max_take(),
                s.end()
            ),
        };
        let mut rows = PeriodRows::default();
        rows.push(p.as_ref(), &evidence, form.as_deref());
        let t = rows
            .into_table(Table::new())
            .with("claimed_M", Values::OptInt(vec![claimed.map(|c| c as i64)]))
            .with("claim", enum_repeat(VERDICTS, verdict(m_holds), 1))
            .with(
                "states_claim",
                enum_repeat(VERDICTS, verdict(claim_states), 1),
            )
            .with(
                "start",
                Values::Str([start_text(s).as_str()].into_iter().collect()),
            )
            .with("computed_to", Values::Int(vec![s.end() as i64]));
        self.with_rule(t, true)
    }

    /// `pattern`: who wins along the pile, per hand parities and mover.
    pub fn pattern_table(&self, s: &Solution) -> Table {
        let to = self.strip_to.unwrap_or_else(|| match s.period {
            Some(p) => (p.preperiod + 4 * p.period).clamp(16, 400) - 1,
            None => 64,
        });
        let (mut r_col, mut strip) = (vec![], DictVec::default());
        let mut winner = EnumVec::new(PLAYERS, 0);
        for (a, b) in [(0u64, 0u64), (0, 1), (1, 0), (1, 1)] {
            for &m in self.movers() {
                let label = match self.variant {
                    Variant::Sides => {
                        format!("a={a} b={b}, {} moves", player_name(self.variant, m))
                    }
                    Variant::OddWins => format!("mover {a}, other {b}"),
                };
                for r in 0..=to as u64 {
                    if (a + b + r) % 2 != self.variant.total_parity() {
                        continue;
                    }
                    let Some(w) = s.wins(a, b, r, m) else {
                        continue;
                    };
                    r_col.push(r as i64);
                    strip.push(&label);
                    winner.push_str(match self.variant {
                        Variant::Sides => player_name(self.variant, if w { m } else { m.other() }),
                        Variant::OddWins if w => "mover",
                        Variant::OddWins => "other",
                    });
                }
            }
        }
        let label = format!("{} take {}", self.variant.as_str(), self.take.human());
        let t = Table::new()
            .with("rule", Values::Dict(DictVec::repeat(&label, r_col.len())))
            .with("r", Values::Int(r_col))
            .with("strip", Values::Dict(strip))
            .with("winner", Values::Enum(winner));
        self.with_rule(t, false)
    }

    /// `positions`: the positions asked for, with real hand sizes.
    pub fn positions_table(&self, s: &Solution) -> anyhow::Result<Table> {
        let (mut a_col, mut b_col, mut r_col) = (vec![], vec![], vec![]);
        let n = self.at.len() * 2;
        let (mut mover, mut winner) = (EnumVec::new(PLAYERS, n), EnumVec::new(PLAYERS, n));
        let (mut moves, mut to) = (IntListVec::default(), StrListVec::default());
        let mut class = EnumVec::new(STATE_CLASSES, n);
        for &[a, b, r] in self.at.iter() {
            let c = s
                .class(a, b, r)
                .context("no proven period: cannot answer this pile size")?;
            for m in [Mover::A, Mover::B] {
                a_col.push(a as i64);
                b_col.push(b as i64);
                r_col.push(r as i64);
                let wins = s.wins(a, b, r, m).unwrap_or(false);
                mover.push_str(player_name(self.variant, m));
                winner.push_str(player_name(self.variant, if wins { m } else { m.other() }));
                let w = match wins {
                    true => s.winning_takes(a, b, r, m).unwrap_or_default(),
                    false => vec![],
                };
                moves.push_iter(w.iter().map(|&t| t as i64));
                let after: Vec<String> = w
                    .iter()
                    .map(|&t| format!("{t}→{}", after_text(a, b, r, m, t)))
                    .collect();
                to.push(after.iter().map(String::as_str));
                class.push_str(c.name(self.variant));
            }
        }
        let t = Table::new()
            .with("a", Values::Int(a_col))
            .with("b", Values::Int(b_col))
            .with("r", Values::Int(r_col))
            .with("mover", Values::Enum(mover))
            .with("winner", Values::Enum(winner))
            .with("winning_takes", Values::IntList(moves))
            .with("leads_to", Values::StrList(to))
            .with("state_class", Values::Enum(class));
        Ok(self.with_rule(t, false))
    }
}

/// The start position (0, 0, r), per residue of r: `0: absolute_even; 2: …`.
fn start_text(s: &Solution) -> String {
    let Some(p) = s.period else {
        return String::new();
    };
    let m = p.period;
    let mut parts = Vec::new();
    for c in 0..m {
        let r = p.preperiod + (c + m - p.preperiod % m) % m;
        if (r as u64) % 2 != s.variant.total_parity() {
            continue;
        }
        let Some(cl) = s.class(0, 0, r as u64) else {
            continue;
        };
        let text = match (s.variant, cl) {
            (Variant::OddWins, Class::Common) => "first loses",
            (Variant::OddWins, Class::Neither) => "first wins",
            (_, cl) => cl.name(s.variant),
        };
        parts.push(format!("{c}: {text}"));
    }
    parts.join("; ")
}

/// `(a', b', r')` after the mover takes `t`.
pub(crate) fn after_text(a: u64, b: u64, r: u64, m: Mover, t: u32) -> String {
    let t = t as u64;
    match m {
        Mover::A => format!("({},{},{})", a + t, b, r - t),
        Mover::B => format!("({},{},{})", a, b + t, r - t),
    }
}

fn enum_repeat(levels: &'static [&'static str], level: &str, n: usize) -> Values {
    let mut e = EnumVec::new(levels, n);
    (0..n).for_each(|_| e.push_str(level));
    Values::Enum(e)
}

/// Rows of `safe_states`.
#[derive(Default)]
struct SafeRows {
    side: Vec<&'static str>,
    a: Vec<i64>,
    b: Vec<i64>,
    res: Vec<i64>,
    m: Vec<i64>,
    pre: Vec<i64>,
    state: StrVec,
    kind: Vec<&'static str>,
}

impl SafeRows {
    fn push(&mut self, side: &'static str, st: &SafeState, m: usize, pre: usize, absolute: bool) {
        self.side.push(side);
        self.a.push(st.a as i64);
        self.b.push(st.b as i64);
        self.res.push(st.residue as i64);
        self.m.push(m as i64);
        self.pre.push(pre as i64);
        self.state.push(&solver::state_text(st, m));
        self.kind.push(if absolute { "absolute" } else { "common" });
    }
    fn into_table(self) -> Table {
        Table::new()
            .with("side", enum_of(SIDES, &self.side))
            .with("a_parity", Values::Int(self.a))
            .with("b_parity", Values::Int(self.b))
            .with("r_mod", Values::Int(self.res))
            .with("M", Values::Int(self.m))
            .with("preperiod", Values::Int(self.pre))
            .with("state", Values::Str(self.state))
            .with("kind", enum_of(KINDS, &self.kind))
    }
}

fn enum_of(levels: &'static [&'static str], words: &[&str]) -> Values {
    let mut e = EnumVec::new(levels, words.len());
    words.iter().for_each(|w| e.push_str(w));
    Values::Enum(e)
}

/// Rows of `safe_lists`.
struct ListRows {
    side: Vec<&'static str>,
    head: StrVec,
    m: Vec<Option<i64>>,
    pre: Vec<Option<i64>>,
    count: Vec<Option<i64>>,
    lists: [StrListVec; 3],
    exceptions: StrListVec,
    article: StrListVec,
    matches: EnumVec,
}

impl ListRows {
    fn new() -> ListRows {
        ListRows {
            side: vec![],
            head: StrVec::default(),
            m: vec![],
            pre: vec![],
            count: vec![],
            lists: Default::default(),
            exceptions: StrListVec::default(),
            article: StrListVec::default(),
            matches: EnumVec::new(YES_NO, 0),
        }
    }
    fn push_none(&mut self, side: &'static str, head: &str) {
        self.side.push(side);
        self.head.push(head);
        self.m.push(None);
        self.pre.push(None);
        self.count.push(None);
        self.lists.iter_mut().for_each(StrListVec::push_null);
        self.exceptions.push_null();
        self.article.push_null();
        self.matches.push_null();
    }
    fn push(
        &mut self,
        side: &'static str,
        head: &str,
        (m, pre): (usize, usize),
        lists: [&[SafeState]; 3],
        exc: &[Exception],
        article: Option<(Vec<String>, bool)>,
    ) {
        self.side.push(side);
        self.head.push(head);
        self.m.push(Some(m as i64));
        self.pre.push(Some(pre as i64));
        self.count.push(Some(lists[0].len() as i64));
        for (col, list) in self.lists.iter_mut().zip(lists) {
            push_states(col, list, m);
        }
        let exc: Vec<String> = exc.iter().map(exception_text).collect();
        self.exceptions.push(exc.iter().map(String::as_str));
        match article {
            Some((states, same)) => {
                self.article.push(states.iter().map(String::as_str));
                self.matches.push_str(if same { "yes" } else { "no" });
            }
            None => {
                self.article.push_null();
                self.matches.push_null();
            }
        }
    }
    fn into_table(self) -> Table {
        let [states, absolute, common] = self.lists;
        Table::new()
            .with("heading", Values::Str(self.head))
            .with("side", enum_of(SIDES, &self.side))
            .with("M", Values::OptInt(self.m))
            .with("preperiod", Values::OptInt(self.pre))
            .with("count", Values::OptInt(self.count))
            .with("states", Values::StrList(states))
            .with("absolute", Values::StrList(absolute))
            .with("common", Values::StrList(common))
            .with("exceptions", Values::StrList(self.exceptions))
            .with("article", Values::StrList(self.article))
            .with("matches_article", Values::Enum(self.matches))
    }
}

/// The key columns shared by `outcome` and `remoteness`, in their order:
/// pile size, hand parities and the player to move.
struct Keys {
    r: Vec<i64>,
    a: Vec<i64>,
    b: Vec<i64>,
    mover: EnumVec,
}

impl Keys {
    fn new(rows: usize) -> Keys {
        Keys {
            r: Vec::with_capacity(rows),
            a: Vec::with_capacity(rows),
            b: Vec::with_capacity(rows),
            mover: EnumVec::new(PLAYERS, rows),
        }
    }
    /// One row's keys (`odd_wins` names the player to move "mover").
    fn push(&mut self, r: u64, a: u64, b: u64, variant: Variant, m: Mover) {
        self.r.push(r as i64);
        self.a.push(a as i64);
        self.b.push(b as i64);
        self.mover.push_str(match variant {
            Variant::Sides => player_name(variant, m),
            Variant::OddWins => "mover",
        });
    }
    /// A table of the key columns, to which the rest is added.
    fn table(self) -> Table {
        Table::new()
            .with("r", Values::Int(self.r))
            .with("a_parity", Values::Int(self.a))
            .with("b_parity", Values::Int(self.b))
            .with("mover", Values::Enum(self.mover))
    }
}
