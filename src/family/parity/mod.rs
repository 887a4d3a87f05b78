//! `parity`: one pile, stones kept in hand (GAMES.md §2; report 001).
//!
//! A move takes `t ∈ S` stones (`S = {1..k}` or an explicit set containing 1)
//! from the pile into the mover's own hand. When the pile is empty the hands'
//! parities decide: in `sides` an Odd player meets an Even player (initial pile
//! even, so the hands end with equal parity; both odd: Odd wins, both even:
//! Even wins); in `odd_wins` (initial pile odd) whoever holds an odd number wins.
//!
//! Sweep parameters:
//!
//! ```yaml
//! family: parity
//! variant: [sides, odd_wins]    # default sides
//! k: 1..100                     # takes 1..k; or
//! take: {set: [1, 3, 4]}        # {max: n}, {set: [...]} (must contain 1), {subsets_of: n}, or a list
//! r: 0..10000                   # pile sizes in the outcome table (default 0..64)
//! at: [[0, 0, 4], [1, 1, 8]]    # optional positions (a, b, r) with real hand sizes
//! strip_k: [3]                  # rules drawn as a strip chart: max takes, `all` or `none`
//! strip_to: 48                  # last pile size drawn (default preperiod + 4·M)
//! outcome: true                 # write the outcome dataset (default true)
//! horizon: 20000                # pile sizes computed for the period (default max(r, 64·max(S)+64))
//! ```
//!
//! Datasets: `outcome`, `safe_states`, `safe_lists`, `moduli`, `pattern`,
//! `positions` (documented in `docs/families/parity.md`).

pub mod brute;
pub mod play;
pub mod solver;

use std::fmt::Write as _;
use std::sync::Arc;

use anyhow::{Context, bail};
use serde_json::json;

use crate::family::{Answer, Case, CaseCtx, Family, Output, Plan};
use crate::spec::{Node, SWEEP_KEYS, SpecError};
use crate::table::{StrVec, Table, Values};
use crate::view::{View, ViewKind};

use solver::{Class, Mover, SafeState, Solution, VARIANT_WORDS, Variant};

/// The family (registered in [`crate::family::FAMILIES`]).
pub struct Parity;

/// A take set: sorted, no duplicates, contains 1.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TakeSet(Vec<u32>);

impl TakeSet {
    /// `{1..k}`.
    pub fn upto(k: u32) -> TakeSet {
        TakeSet((1..=k).collect())
    }
    /// The takes.
    pub fn takes(&self) -> &[u32] {
        &self.0
    }
    /// The largest take (the article's k for `1..k`).
    pub fn max(&self) -> u32 {
        *self.0.last().unwrap()
    }
    /// `Some(k)` when the set is `{1..k}`.
    pub fn interval(&self) -> Option<u32> {
        (self.0.len() as u32 == self.max()).then_some(self.max())
    }
    /// The `take` column: `max:3` for `{1..3}`, `set:1,3,4` otherwise.
    pub fn text(&self) -> String {
        match self.interval() {
            Some(k) => format!("max:{k}"),
            None => format!("set:{}", join(&self.0, ",")),
        }
    }
    /// For people: `1..3` or `{1,3,4}`.
    pub fn human(&self) -> String {
        match self.interval() {
            Some(1) => "1".into(),
            Some(k) => format!("1..{k}"),
            None => format!("{{{}}}", join(&self.0, ",")),
        }
    }
}

fn join<T: ToString>(v: &[T], sep: &str) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

const KEYS: &[&str] = &[
    "variant", "k", "take", "r", "at", "strip_k", "strip_to", "outcome", "horizon",
];
/// Largest pile size in a sweep (the table holds one byte per pile size).
const MAX_R: i64 = 100_000_000;
/// Largest take.
const MAX_TAKE: i64 = 100_000;
/// Largest outcome table per case (rows).
const MAX_OUTCOME_ROWS: usize = 50_000_000;
/// Largest outcome dataset rendered as a Markdown/CSV listing (rows, whole sweep).
const MAX_LISTED_ROWS: usize = 20_000;

fn check_has_one(node: &Node<'_>, set: &[u32]) -> Result<(), SpecError> {
    if set.first() != Some(&1) {
        return Err(node.err(format!(
            "a take set must contain 1 (otherwise a pile smaller than the smallest take can never be emptied and the \
             game has no winner); got {{{}}}",
            join(set, ", ")
        )));
    }
    Ok(())
}

/// Parses one `take:` item into one or more take sets.
fn parse_take(n: &Node<'_>, out: &mut Vec<TakeSet>) -> Result<(), SpecError> {
    let allowed = "allowed: `{max: n}` (takes 1..n), `{set: [1, 3, 4]}` (must contain 1), `{subsets_of: n}` \
                   (every subset of 1..n that contains 1), or a list of these";
    if !n.value().is_object() {
        return Err(n.err(format!("expected a take rule; {allowed}")));
    }
    n.expect_keys(&["min", "max", "set", "subsets_of"])?;
    let given = ["max", "set", "subsets_of"]
        .iter()
        .filter(|k| n.get(k).is_some())
        .count();
    if given != 1 {
        return Err(n.err(format!(
            "give exactly one of `max:`, `set:` or `subsets_of:`; {allowed}"
        )));
    }
    if let Some(m) = n.get("min") {
        let v = m.ints(1, MAX_TAKE)?;
        if v != [1] || n.get("max").is_none() {
            return Err(m.err(
                "in the parity game every take set must contain 1 (so that every pile can be emptied): only `min: 1` \
                 with `max:` is allowed here",
            ));
        }
    }
    if let Some(set) = n.get("set") {
        let items = set.items();
        let nested = items.iter().any(|i| i.value().is_array());
        let sets: Vec<Node<'_>> = if nested { items } else { vec![set.clone()] };
        for s in sets {
            let mut v: Vec<u32> = s.ints(1, MAX_TAKE)?.into_iter().map(|x| x as u32).collect();
            v.sort_unstable();
            v.dedup();
            check_has_one(&s, &v)?;
            out.push(TakeSet(v));
        }
    } else if let Some(m) = n.get("max") {
        for k in m.ints(1, MAX_TAKE)? {
            out.push(TakeSet::upto(k as u32));
        }
    } else if let Some(s) = n.get("subsets_of") {
        for top in s.ints(1, 16)? {
            let top = top as u32;
            for mask in 0u32..(1 << (top - 1)) {
                let mut v = vec![1];
                v.extend((2..=top).filter(|t| mask >> (t - 2) & 1 == 1));
                out.push(TakeSet(v));
            }
        }
    }
    Ok(())
}

/// Which rules get a strip chart.
#[derive(Clone, Debug, PartialEq)]
enum StripSel {
    All,
    None,
    Max(Vec<u32>),
}

/// The validated sweep.
struct Params {
    variants: Vec<Variant>,
    takes: Vec<TakeSet>,
    rs: Vec<u64>,
    at: Vec<[u64; 3]>,
    strip: StripSel,
    strip_to: Option<usize>,
    outcome: bool,
    horizon: Option<usize>,
}

fn parse_params(sweep: &Node<'_>) -> Result<Params, SpecError> {
    let mut allowed: Vec<&str> = SWEEP_KEYS.to_vec();
    allowed.extend_from_slice(KEYS);
    sweep.expect_keys(&allowed)?;
    let mut variants: Vec<Variant> = match sweep.get("variant") {
        Some(v) => v
            .words(VARIANT_WORDS)?
            .into_iter()
            .map(|w| Variant::parse(w).unwrap())
            .collect(),
        None => vec![Variant::Sides],
    };
    variants.dedup();
    let mut takes = Vec::new();
    match (sweep.get("k"), sweep.get("take")) {
        (Some(_), Some(t)) => {
            return Err(t.err("give either `k:` (takes 1..k) or `take:`, not both"));
        }
        (Some(k), None) => takes.extend(
            k.ints(1, MAX_TAKE)?
                .into_iter()
                .map(|k| TakeSet::upto(k as u32)),
        ),
        (None, Some(t)) => {
            for item in t.items() {
                parse_take(&item, &mut takes)?;
            }
        }
        (None, None) => {
            return Err(sweep.err(
                "missing field `k` (takes 1..k, e.g. `k: 1..6`) or `take` (e.g. `take: {set: [1, 3, 4]}`)",
            ));
        }
    }
    let mut seen = std::collections::HashSet::new();
    takes.retain(|t| seen.insert(t.clone()));
    let rs: Vec<u64> = match sweep.get("r") {
        Some(r) => r.ints(0, MAX_R)?.into_iter().map(|x| x as u64).collect(),
        None => (0..=64).collect(),
    };
    let mut at = Vec::new();
    if let Some(node) = sweep.get("at") {
        for item in node.items() {
            let v = item.ints(0, MAX_R)?;
            if !item.value().is_array() || v.len() != 3 {
                return Err(item.err("expected a position [a, b, r]: the two hands (a: Odd's or A's, b: Even's or B's) and the pile"));
            }
            let p = [v[0] as u64, v[1] as u64, v[2] as u64];
            for &var in &variants {
                if (p[0] + p[1] + p[2]) % 2 != var.total_parity() {
                    return Err(item.err(format!(
                        "position ({}, {}, {}) cannot occur in variant {}: a + b + r must be {} ({})",
                        p[0],
                        p[1],
                        p[2],
                        var.as_str(),
                        if var.total_parity() == 0 { "even" } else { "odd" },
                        if var == Variant::Sides { "the initial pile is even" } else { "the initial pile is odd" }
                    )));
                }
            }
            at.push(p);
        }
    }
    let strip = match sweep.get("strip_k") {
        None => {
            if variants.len() * takes.len() <= 12 {
                StripSel::All
            } else {
                StripSel::None
            }
        }
        Some(n) => match n.value().as_str() {
            Some("all") => StripSel::All,
            Some("none") => StripSel::None,
            _ => StripSel::Max(
                n.ints(1, MAX_TAKE)
                    .map_err(|e| SpecError {
                        message: format!("{} (or `all`, `none`)", e.message),
                        ..e
                    })?
                    .into_iter()
                    .map(|x| x as u32)
                    .collect(),
            ),
        },
    };
    let strip_to = sweep
        .get("strip_to")
        .map(|n| n.int(1, 100_000))
        .transpose()?
        .map(|x| x as usize);
    let outcome = match sweep.get("outcome") {
        Some(b) => {
            let v = b.bools()?;
            if v.len() != 1 {
                return Err(b.err("expected true or false"));
            }
            v[0]
        }
        None => true,
    };
    let horizon = sweep
        .get("horizon")
        .map(|h| h.int(1, MAX_R))
        .transpose()?
        .map(|h| h as usize);
    if outcome && rs.len() * 4 > MAX_OUTCOME_ROWS {
        return Err(sweep.get("r").unwrap().err(format!(
            "{} pile sizes make {} outcome rows per rule, more than {MAX_OUTCOME_ROWS}; use fewer values or \
             `outcome: false` (safe states and moduli are still computed)",
            rs.len(),
            rs.len() * 4
        )));
    }
    Ok(Params {
        variants,
        takes,
        rs,
        at,
        strip,
        strip_to,
        outcome,
        horizon,
    })
}

/// One variant and one take set: the unit of work.
pub struct ParityCase {
    variant: Variant,
    take: TakeSet,
    rs: Arc<Vec<u64>>,
    rs_key: String,
    at: Arc<Vec<[u64; 3]>>,
    strip: bool,
    strip_to: Option<usize>,
    outcome: bool,
    horizon: usize,
}

fn repeat_str(s: &str, n: usize) -> StrVec {
    let mut v = StrVec::with_capacity(n, n * s.len());
    for _ in 0..n {
        v.push(s);
    }
    v
}

fn ints_key(v: &[u64]) -> String {
    if v.is_empty() {
        return "none".into();
    }
    let contiguous = v.windows(2).all(|w| w[1] == w[0] + 1);
    if contiguous {
        format!("{}..{}", v[0], v[v.len() - 1])
    } else {
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        format!(
            "list{}:{:016x}",
            v.len(),
            xxhash_rust::xxh3::xxh3_64(&bytes)
        )
    }
}

/// The name of a player in data: `odd`/`even`, `a`/`b` (odd_wins positions).
fn player_name(variant: Variant, m: Mover) -> &'static str {
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

/// A list of safe states in the article's form.
fn states_text(list: &[SafeState], m: usize) -> String {
    list.iter()
        .map(|s| solver::state_text(s, m))
        .collect::<Vec<_>>()
        .join(", ")
}

fn exceptions_text(exc: &[solver::Exception]) -> String {
    exc.iter()
        .map(|e| {
            format!(
                "{}({},{},{})",
                if e.safe { "+" } else { "−" },
                e.a,
                e.b,
                e.r
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

impl ParityCase {
    /// Prepends `variant`, `take` and `k` (and `take_set`, for the small
    /// per-rule tables; the long tables carry the set in `take` already).
    fn rule_columns(&self, t: Table) -> Table {
        self.rule_columns_with(t, false)
    }

    fn rule_columns_with(&self, t: Table, with_set: bool) -> Table {
        let n = t.rows();
        let mut out = Table::new()
            .with("variant", Values::Str(repeat_str(self.variant.as_str(), n)))
            .with("take", Values::Str(repeat_str(&self.take.text(), n)))
            .with("k", Values::Int(vec![self.take.max() as i64; n]));
        if with_set {
            out.push(
                "take_set",
                Values::Str(repeat_str(&join(self.take.takes(), ","), n)),
            );
        }
        for (name, v) in t.into_columns() {
            out.push(&name, v);
        }
        out
    }

    fn rule_label(&self) -> String {
        format!("{} take {}", self.variant.as_str(), self.take.human())
    }

    fn outcome_table(&self, s: &Solution) -> Table {
        let rows = self.rs.len() * if self.variant == Variant::Sides { 4 } else { 2 };
        let mut r_col = Vec::with_capacity(rows);
        let (mut oh, mut eh) = (Vec::with_capacity(rows), Vec::with_capacity(rows));
        let mut mover = StrVec::with_capacity(rows, rows * 5);
        let mut winner = StrVec::with_capacity(rows, rows * 5);
        let mut outcome = StrVec::with_capacity(rows, rows);
        let mut moves = StrVec::with_capacity(rows, rows * 2);
        let mut class = StrVec::with_capacity(rows, rows * 8);
        let movers: &[Mover] = if self.variant == Variant::Sides {
            &[Mover::A, Mover::B]
        } else {
            &[Mover::A]
        };
        for &r in self.rs.iter() {
            for (a, b) in s.hands(r as usize) {
                let (a, b) = (a as u64, b as u64);
                // The class needs who wins for both movers (odd_wins rows show one).
                let wa = s.wins(a, b, r, Mover::A).expect("r is inside the table");
                let wb = s.wins(a, b, r, Mover::B).expect("r is inside the table");
                let c = match (wa, wb) {
                    (true, false) => Class::AbsoluteA,
                    (false, true) => Class::AbsoluteB,
                    (false, false) => Class::Common,
                    (true, true) => Class::Neither,
                };
                for &m in movers {
                    r_col.push(r as i64);
                    oh.push(a as i64);
                    eh.push(b as i64);
                    let wins = if m == Mover::A { wa } else { wb };
                    outcome.push(if wins { "N" } else { "P" });
                    match self.variant {
                        Variant::Sides => {
                            mover.push(player_name(self.variant, m));
                            let w = if wins { m } else { m.other() };
                            winner.push(player_name(self.variant, w));
                            class.push(c.name(self.variant));
                        }
                        Variant::OddWins => {
                            mover.push("mover");
                            winner.push(if wins { "mover" } else { "other" });
                            class.push(mover_class(c));
                        }
                    }
                    let w = if wins {
                        s.winning_takes(a, b, r, m).unwrap()
                    } else {
                        vec![]
                    };
                    moves.push_with(|buf| {
                        for (i, t) in w.iter().enumerate() {
                            if i > 0 {
                                buf.push(',');
                            }
                            let _ = write!(buf, "{t}");
                        }
                    });
                }
            }
        }
        self.rule_columns(
            Table::new()
                .with("r", Values::Int(r_col))
                .with("odd_hand", Values::Int(oh))
                .with("even_hand", Values::Int(eh))
                .with("mover", Values::Str(mover))
                .with("winner", Values::Str(winner))
                .with("outcome", Values::Str(outcome))
                .with("winning_moves", Values::Str(moves))
                .with("class", Values::Str(class)),
        )
    }

    fn safe_tables(&self, s: &Solution) -> (Table, Table) {
        // Long form.
        let (mut side, mut a, mut b, mut res, mut state, mut kind) = (
            StrVec::default(),
            vec![],
            vec![],
            vec![],
            StrVec::default(),
            StrVec::default(),
        );
        let (mut m_col, mut pre_col) = (vec![], vec![]);
        // One row per side.
        let (mut l_side, mut l_states, mut l_abs, mut l_common, mut l_exc, mut l_count) = (
            StrVec::default(),
            StrVec::default(),
            StrVec::default(),
            StrVec::default(),
            StrVec::default(),
            vec![],
        );
        let (mut l_m, mut l_pre, mut l_head, mut l_article, mut l_match) = (
            vec![],
            vec![],
            StrVec::default(),
            StrVec::default(),
            StrVec::default(),
        );
        let claim = match (self.variant, self.take.interval()) {
            (Variant::Sides, Some(k)) => Some(solver::article_claim(k as usize)),
            _ => None,
        };
        for &(who, name) in safe_sides(self.variant) {
            let Some(p) = s.period else {
                l_side.push(name);
                l_states.push("");
                l_abs.push("");
                l_common.push("");
                l_exc.push("");
                l_count.push(None);
                l_m.push(None);
                l_pre.push(None);
                l_head.push(&format!(
                    "{} (no period proven up to r = {})",
                    self.take.text(),
                    s.end()
                ));
                l_article.push("");
                l_match.push("");
                continue;
            };
            let m = p.period;
            let (list, exc) = s.safe_states(who).unwrap();
            let mut abs = Vec::new();
            let mut common = Vec::new();
            for st in &list {
                // A representative pile size of the residue class, past the preperiod.
                let r = p.preperiod + (st.residue + m - p.preperiod % m) % m;
                let c = s.class(st.a as u64, st.b as u64, r as u64).unwrap();
                let absolute = matches!(
                    (c, who),
                    (Class::AbsoluteA, Mover::A) | (Class::AbsoluteB, Mover::B)
                );
                side.push(name);
                a.push(st.a as i64);
                b.push(st.b as i64);
                res.push(st.residue as i64);
                m_col.push(m as i64);
                pre_col.push(p.preperiod as i64);
                state.push(&solver::state_text(st, m));
                kind.push(if absolute { "absolute" } else { "common" });
                if absolute {
                    abs.push(*st)
                } else {
                    common.push(*st)
                }
            }
            l_side.push(name);
            l_states.push(&states_text(&list, m));
            l_abs.push(&states_text(&abs, m));
            l_common.push(&states_text(&common, m));
            l_exc.push(&exceptions_text(&exc));
            l_count.push(Some(list.len() as i64));
            l_m.push(Some(m as i64));
            l_pre.push(Some(p.preperiod as i64));
            let from = if p.preperiod > 0 {
                format!(", from r = {}", p.preperiod)
            } else {
                String::new()
            };
            l_head.push(&format!("{}: M = {m}{from}", self.take.human()));
            match &claim {
                Some((cm, odd, even)) => {
                    let want = if who == Mover::A { odd } else { even };
                    l_article.push(&states_text(want, *cm));
                    let same = *cm == m && p.preperiod == 0 && want == &list;
                    l_match.push(if same { "yes" } else { "no" });
                }
                None => {
                    l_article.push("");
                    l_match.push("");
                }
            }
        }
        let long = self.rule_columns(
            Table::new()
                .with("side", Values::Str(side))
                .with("a", Values::Int(a))
                .with("b", Values::Int(b))
                .with("r_mod", Values::Int(res))
                .with("M", Values::Int(m_col))
                .with("preperiod", Values::Int(pre_col))
                .with("state", Values::Str(state))
                .with("kind", Values::Str(kind)),
        );
        let lists = self.rule_columns_with(
            Table::new()
                .with("heading", Values::Str(l_head))
                .with("side", Values::Str(l_side))
                .with("M", Values::OptInt(l_m))
                .with("preperiod", Values::OptInt(l_pre))
                .with("count", Values::OptInt(l_count))
                .with("states", Values::Str(l_states))
                .with("absolute", Values::Str(l_abs))
                .with("common", Values::Str(l_common))
                .with("exceptions", Values::Str(l_exc))
                .with("article", Values::Str(l_article))
                .with("matches_article", Values::Str(l_match)),
            true,
        );
        (long, lists)
    }

    fn moduli_table(&self, s: &Solution) -> Table {
        let p = s.period;
        let (claimed, claim_states) = match (self.variant, self.take.interval()) {
            (Variant::Sides, Some(k)) => {
                let (cm, odd, even) = solver::article_claim(k as usize);
                let states = p.map(|p| {
                    p.period == cm
                        && p.preperiod == 0
                        && s.safe_states(Mover::A).unwrap().0 == odd
                        && s.safe_states(Mover::B).unwrap().0 == even
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
        let mut m_text = match p {
            Some(p) if p.preperiod > 0 => format!("{} from r = {}", p.period, p.preperiod),
            Some(p) => p.period.to_string(),
            None => "none".into(),
        };
        if m_holds == Some(false) {
            let _ = write!(m_text, " (claimed {})", claimed.unwrap());
        }
        // The start position (0, 0, r), per residue of r.
        let start = match p {
            Some(p) => {
                let m = p.period;
                let mut parts = Vec::new();
                for c in 0..m {
                    let r = p.preperiod + (c + m - p.preperiod % m) % m;
                    if (r as u64) % 2 != s.variant.total_parity() {
                        continue;
                    }
                    let cl = s.class(0, 0, r as u64).unwrap();
                    let text = match (s.variant, cl) {
                        (Variant::OddWins, Class::Common) => "first loses",
                        (Variant::OddWins, Class::Neither) => "first wins",
                        (_, cl) => cl.name(s.variant),
                    };
                    parts.push(format!("{c}: {text}"));
                }
                parts.join("; ")
            }
            None => String::new(),
        };
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
        self.rule_columns_with(
            Table::new()
                .with("M", Values::OptInt(vec![p.map(|p| p.period as i64)]))
                .with(
                    "preperiod",
                    Values::OptInt(vec![p.map(|p| p.preperiod as i64)]),
                )
                .with(
                    "status",
                    Values::Str(
                        [p.map_or("none", |p| p.status.as_str())]
                            .into_iter()
                            .collect(),
                    ),
                )
                .with(
                    "M_text",
                    Values::Str([m_text.as_str()].into_iter().collect()),
                )
                .with("claimed_M", Values::OptInt(vec![claimed.map(|c| c as i64)]))
                .with(
                    "claim",
                    Values::Str([verdict(m_holds)].into_iter().collect()),
                )
                .with(
                    "states_claim",
                    Values::Str([verdict(claim_states)].into_iter().collect()),
                )
                .with("start", Values::Str([start.as_str()].into_iter().collect()))
                .with("computed_to", Values::Int(vec![s.end() as i64]))
                .with(
                    "evidence",
                    Values::Str([evidence.as_str()].into_iter().collect()),
                ),
            true,
        )
    }

    fn pattern_table(&self, s: &Solution) -> Table {
        let to = self.strip_to.unwrap_or_else(|| match s.period {
            Some(p) => (p.preperiod + 4 * p.period).clamp(16, 400) - 1,
            None => 64,
        });
        let (mut r_col, mut state, mut winner) = (vec![], StrVec::default(), StrVec::default());
        let movers: &[Mover] = if self.variant == Variant::Sides {
            &[Mover::A, Mover::B]
        } else {
            &[Mover::A]
        };
        for (a, b) in [(0u64, 0u64), (0, 1), (1, 0), (1, 1)] {
            for &m in movers {
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
                    state.push(&label);
                    winner.push(match self.variant {
                        Variant::Sides => player_name(self.variant, if w { m } else { m.other() }),
                        Variant::OddWins => {
                            if w {
                                "mover"
                            } else {
                                "other"
                            }
                        }
                    });
                }
            }
        }
        let n = r_col.len();
        self.rule_columns(
            Table::new()
                .with("rule", Values::Str(repeat_str(&self.rule_label(), n)))
                .with("r", Values::Int(r_col))
                .with("state", Values::Str(state))
                .with("winner", Values::Str(winner)),
        )
    }

    fn positions_table(&self, s: &Solution) -> anyhow::Result<Table> {
        let (mut a_col, mut b_col, mut r_col) = (vec![], vec![], vec![]);
        let (mut mover, mut winner, mut moves, mut to, mut class) = (
            StrVec::default(),
            StrVec::default(),
            StrVec::default(),
            StrVec::default(),
            StrVec::default(),
        );
        for &[a, b, r] in self.at.iter() {
            let c = s
                .class(a, b, r)
                .context("no proven period: cannot answer this pile size")?;
            for m in [Mover::A, Mover::B] {
                a_col.push(a as i64);
                b_col.push(b as i64);
                r_col.push(r as i64);
                let wins = s.wins(a, b, r, m).unwrap();
                mover.push(player_name(self.variant, m));
                winner.push(player_name(self.variant, if wins { m } else { m.other() }));
                let w = if wins {
                    s.winning_takes(a, b, r, m).unwrap()
                } else {
                    vec![]
                };
                moves.push(&join(&w, ","));
                to.push(
                    &w.iter()
                        .map(|&t| format!("{t}→{}", after_text(a, b, r, m, t)))
                        .collect::<Vec<_>>()
                        .join(" "),
                );
                class.push(c.name(self.variant));
            }
        }
        Ok(self.rule_columns(
            Table::new()
                .with("a", Values::Int(a_col))
                .with("b", Values::Int(b_col))
                .with("r", Values::Int(r_col))
                .with("mover", Values::Str(mover))
                .with("winner", Values::Str(winner))
                .with("winning_moves", Values::Str(moves))
                .with("leads_to", Values::Str(to))
                .with("class", Values::Str(class)),
        ))
    }
}

/// `(a', b', r')` after the mover takes `t`.
fn after_text(a: u64, b: u64, r: u64, m: Mover, t: u32) -> String {
    let t = t as u64;
    match m {
        Mover::A => format!("({},{},{})", a + t, b, r - t),
        Mover::B => format!("({},{},{})", a, b + t, r - t),
    }
}

impl Case for ParityCase {
    fn key(&self) -> String {
        let at: Vec<u64> = self.at.iter().flatten().copied().collect();
        format!(
            "parity/v1/variant={}/take={}/r={}/horizon={}/outcome={}/at={}/strip={}",
            self.variant.as_str(),
            self.take.text(),
            self.rs_key,
            self.horizon,
            self.outcome,
            ints_key(&at),
            if self.strip {
                self.strip_to.map_or("auto".to_string(), |t| t.to_string())
            } else {
                "no".into()
            }
        )
    }
    fn cost(&self) -> u64 {
        let len = self.horizon.max(solver::default_horizon(self.take.takes())) as u64;
        let rows = if self.outcome {
            self.rs.len() as u64 * 8
        } else {
            0
        };
        len * self.take.takes().len() as u64 / 4 + len + rows
    }
    fn memory(&self) -> u64 {
        let len = self.horizon.max(solver::default_horizon(self.take.takes())) as u64;
        len * 3
            + if self.outcome {
                self.rs.len() as u64 * 4 * 60
            } else {
                0
            }
    }
    fn solve(&self, ctx: &CaseCtx<'_>) -> anyhow::Result<Output> {
        let s = Solution::solve(self.variant, self.take.takes(), self.horizon, ctx.progress);
        let mut out: Output = Vec::new();
        if self.outcome {
            out.push(("outcome", self.outcome_table(&s)));
        }
        let (long, lists) = self.safe_tables(&s);
        out.push(("safe_states", long));
        out.push(("safe_lists", lists));
        out.push(("moduli", self.moduli_table(&s)));
        if self.strip {
            out.push(("pattern", self.pattern_table(&s)));
        }
        if !self.at.is_empty() {
            out.push(("positions", self.positions_table(&s)?));
        }
        Ok(out)
    }
}

fn cols(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

impl Family for Parity {
    fn name(&self) -> &'static str {
        "parity"
    }
    fn about(&self) -> &'static str {
        "One pile; a move takes t stones (t in 1..k, or an explicit set containing 1) into the mover's own hand; \
         at the end the hands' parities decide. `sides`: Odd player against Even player (initial pile even; both \
         hands odd: Odd wins, both even: Even wins); `odd_wins`: whoever holds an odd number wins (initial pile \
         odd). Outcome table over (hand parities, r, mover), safe states (absolute, common), the proven modulus M \
         against report 001's claim M = 2(k+1) (k odd) / k+2 (k even)."
    }
    fn params_help(&self) -> &'static str {
        "variant: sides | odd_wins (or a list; default sides)\n\
         k: takes 1..k (values, lists or ranges a..b), or\n\
         take: {max: n} | {set: [1, 3, 4]} (must contain 1) | {subsets_of: n} (every subset of 1..n holding 1), or a list\n\
         r: pile sizes listed in the outcome table (default 0..64)\n\
         at: positions [a, b, r] with real hand sizes (a: Odd's or A's hand, b: Even's or B's), e.g. [[0, 0, 4], [1, 0, 9]]\n\
         strip_k: max takes drawn as a strip chart, or all | none (default all when ≤ 12 rules)\n\
         strip_to: last pile size drawn (default preperiod + 4·M)\n\
         outcome: true | false (write the outcome dataset; default true)\n\
         horizon: pile sizes computed for period detection (default max(r, 64·max(S)+64); extended until proven)"
    }
    fn view_names(&self) -> Vec<&'static str> {
        vec![
            "safe_states_grid",
            "safe_lists",
            "safe_states",
            "moduli",
            "modulus_grid",
            "modulus_bars",
            "pattern",
            "positions",
            "outcome_table",
        ]
    }
    fn plan(&self, sweep: &Node<'_>) -> Result<Plan, SpecError> {
        let p = parse_params(sweep)?;
        let rs = Arc::new(p.rs);
        let rs_key = ints_key(&rs);
        let at = Arc::new(p.at);
        let r_max = *rs.iter().max().unwrap() as usize;
        let at_max = at.iter().map(|x| x[2] as usize).max().unwrap_or(0);
        let mut cases: Vec<Box<dyn Case>> = Vec::new();
        for &variant in &p.variants {
            for take in &p.takes {
                let strip = match &p.strip {
                    StripSel::All => true,
                    StripSel::None => false,
                    StripSel::Max(v) => v.contains(&take.max()),
                };
                let horizon = p
                    .horizon
                    .unwrap_or(0)
                    .max(if p.outcome { r_max } else { 0 })
                    .max(at_max.min(1 << 20));
                cases.push(Box::new(ParityCase {
                    variant,
                    take: take.clone(),
                    rs: rs.clone(),
                    rs_key: rs_key.clone(),
                    at: at.clone(),
                    strip,
                    strip_to: p.strip_to,
                    outcome: p.outcome,
                    horizon,
                }));
            }
        }
        let mut notes = Vec::new();
        let any_strip = match &p.strip {
            StripSel::All => true,
            StripSel::None => false,
            StripSel::Max(v) => {
                let hit = p.takes.iter().any(|t| v.contains(&t.max()));
                if !hit {
                    notes.push("strip_k matches no rule of this sweep: no strip chart".to_string());
                }
                hit
            }
        };
        let mut views = vec![
            View::new(
                "safe_states_grid",
                "Safe states (a, b, r mod M) of each side (report 001 §6)",
                "safe_lists",
                ViewKind::Grid {
                    row: "heading".into(),
                    column: "side".into(),
                    cell: "states".into(),
                    empty: "—".into(),
                    facet: Some("variant".into()),
                },
            ),
            View::new(
                "safe_lists",
                "Safe states per side: all, absolute, common; the article's list",
                "safe_lists",
                ViewKind::Listing {
                    columns: cols(&[
                        "variant",
                        "take",
                        "M",
                        "preperiod",
                        "side",
                        "states",
                        "absolute",
                        "common",
                        "exceptions",
                        "article",
                        "matches_article",
                    ]),
                    filter: vec![],
                },
            ),
            View::new(
                "safe_states",
                "Safe states, one row each",
                "safe_states",
                ViewKind::Listing {
                    columns: cols(&[
                        "variant",
                        "take",
                        "side",
                        "a",
                        "b",
                        "r_mod",
                        "M",
                        "preperiod",
                        "state",
                        "kind",
                    ]),
                    filter: vec![],
                },
            ),
            View::new(
                "moduli",
                "Modulus M (minimal period in r) against report 001's claim",
                "moduli",
                ViewKind::Listing {
                    columns: cols(&[
                        "variant",
                        "take",
                        "k",
                        "M",
                        "preperiod",
                        "status",
                        "claimed_M",
                        "claim",
                        "states_claim",
                        "start",
                    ]),
                    filter: vec![],
                },
            ),
            View::new(
                "modulus_grid",
                "Modulus M by take set and variant",
                "moduli",
                ViewKind::Grid {
                    row: "take".into(),
                    column: "variant".into(),
                    cell: "M_text".into(),
                    empty: "".into(),
                    facet: None,
                },
            ),
        ];
        if p.takes.iter().all(|t| t.interval().is_some()) && p.takes.len() > 1 {
            views.push(View::new(
                "modulus_bars",
                "Modulus M over k (takes 1..k)",
                "moduli",
                ViewKind::Bars {
                    x: "k".into(),
                    y: "M".into(),
                    series: Some("variant".into()),
                    facet: None,
                },
            ));
        }
        if any_strip {
            views.push(View::new(
                "pattern",
                "Who wins, over the pile size r (one strip per hand parities and mover)",
                "pattern",
                ViewKind::Strip {
                    row: "state".into(),
                    x: "r".into(),
                    value: "winner".into(),
                    facet: Some("rule".into()),
                },
            ));
        }
        if !at.is_empty() {
            views.push(View::new(
                "positions",
                "Positions: winner for each first mover, winning moves, class",
                "positions",
                ViewKind::Listing {
                    columns: cols(&[
                        "variant",
                        "take",
                        "a",
                        "b",
                        "r",
                        "mover",
                        "winner",
                        "winning_moves",
                        "leads_to",
                        "class",
                    ]),
                    filter: vec![],
                },
            ));
        }
        let outcome_rows = rs.len() * 4 * cases.len();
        if p.outcome && outcome_rows <= MAX_LISTED_ROWS {
            views.push(View::new(
                "outcome_table",
                "Outcome table",
                "outcome",
                ViewKind::Listing {
                    columns: cols(&[
                        "variant",
                        "take",
                        "r",
                        "odd_hand",
                        "even_hand",
                        "mover",
                        "winner",
                        "winning_moves",
                        "class",
                    ]),
                    filter: vec![],
                },
            ));
        }
        Ok(Plan {
            cases,
            views,
            notes,
        })
    }

    fn play(&self, params: &Node<'_>) -> anyhow::Result<Box<dyn crate::play::PlayGame>> {
        play::game(params)
    }

    fn solve(&self, pos: &Node<'_>) -> anyhow::Result<Answer> {
        pos.expect_keys(&[
            "variant",
            "k",
            "take",
            "r",
            "a",
            "b",
            "odd_hand",
            "even_hand",
            "mover",
        ])?;
        let variant = match pos.get("variant") {
            Some(v) => Variant::parse(v.word(VARIANT_WORDS)?).unwrap(),
            None => Variant::Sides,
        };
        let take = match (pos.get("k"), pos.get("take")) {
            (Some(_), Some(t)) => return Err(t.err("give either --k or --take, not both").into()),
            (Some(k), None) => TakeSet::upto(k.int(1, MAX_TAKE)? as u32),
            (None, Some(t)) => {
                let mut sets = Vec::new();
                if t.value().is_object() {
                    parse_take(&t, &mut sets)?;
                } else {
                    // `--take 1,3,4`: a plain list is the set.
                    let mut v: Vec<u32> =
                        t.ints(1, MAX_TAKE)?.into_iter().map(|x| x as u32).collect();
                    v.sort_unstable();
                    v.dedup();
                    check_has_one(&t, &v)?;
                    sets.push(TakeSet(v));
                }
                if sets.len() != 1 {
                    bail!("give exactly one take set to solve a position");
                }
                sets.pop().unwrap()
            }
            (None, None) => {
                return Err(pos
                    .err("missing --k (takes 1..k) or --take (e.g. --take 1,3,4)")
                    .into());
            }
        };
        let r = pos
            .req("r", "the pile size, e.g. --r 10")?
            .int(0, i64::MAX)? as u64;
        let hand = |names: &[&str]| -> anyhow::Result<u64> {
            let given: Vec<Node<'_>> = names.iter().filter_map(|n| pos.get(n)).collect();
            if given.len() > 1 {
                bail!("give the hand once (--{})", names.join(" or --"));
            }
            Ok(match given.first() {
                Some(n) => n.int(0, i64::MAX / 4)? as u64,
                None => 0,
            })
        };
        let (a, b) = match variant {
            Variant::Sides => (hand(&["a", "odd_hand"])?, hand(&["b", "even_hand"])?),
            Variant::OddWins => {
                if pos.get("odd_hand").is_some() || pos.get("even_hand").is_some() {
                    bail!("in odd_wins the hands are --a (player A's) and --b (player B's)");
                }
                (hand(&["a"])?, hand(&["b"])?)
            }
        };
        if (a + b + r) % 2 != variant.total_parity() {
            let field = if a + b > 0 { "a + b + r" } else { "r" };
            bail!(
                "{field} = {} is {}: in variant {} a + b + r must be {} ({})",
                a + b + r,
                if (a + b + r).is_multiple_of(2) {
                    "even"
                } else {
                    "odd"
                },
                variant.as_str(),
                if variant.total_parity() == 0 {
                    "even"
                } else {
                    "odd"
                },
                if variant == Variant::Sides {
                    "the initial pile is even, so both hands end with the same parity"
                } else {
                    "the initial pile is odd, so exactly one hand ends odd"
                }
            );
        }
        let movers: Vec<Mover> = match pos.get("mover") {
            None => vec![Mover::A, Mover::B],
            Some(m) => {
                let words: &[&str] = if variant == Variant::Sides {
                    &["odd", "even"]
                } else {
                    &["a", "b"]
                };
                let w = m.word(words)?;
                vec![if w == words[0] { Mover::A } else { Mover::B }]
            }
        };
        // Small piles are computed directly; larger ones are reduced by the proven period.
        let direct = r <= (1 << 22);
        let s = Solution::solve(
            variant,
            take.takes(),
            if direct { r as usize } else { 0 },
            &|_| {},
        );
        let class = s.class(a, b, r).with_context(|| {
            format!(
                "no period proven up to r = {}; cannot answer r = {r}",
                s.end()
            )
        })?;
        let (na, nb) = match variant {
            Variant::Sides => ("Odd", "Even"),
            Variant::OddWins => ("A", "B"),
        };
        let mut text = format!(
            "parity, variant {}, take {} : a = {a} ({na}'s hand), b = {b} ({nb}'s hand), r = {r}\n",
            variant.as_str(),
            take.human()
        );
        let mut jm = Vec::new();
        for &m in &movers {
            let wins = s.wins(a, b, r, m).unwrap();
            let winner = if wins { m } else { m.other() };
            let name = |x: Mover| if x == Mover::A { na } else { nb };
            let w = s.winning_takes(a, b, r, m).unwrap();
            let _ = write!(text, "{} moves first: {} wins", name(m), name(winner));
            if w.is_empty() {
                let _ = writeln!(
                    text,
                    " (no winning move: every take loses against perfect play)"
                );
            } else {
                let list: Vec<String> = w
                    .iter()
                    .map(|&t| format!("take {t} → {}", after_text(a, b, r, m, t)))
                    .collect();
                let _ = writeln!(text, "; winning moves: {}", list.join(", "));
            }
            jm.push(json!({
                "mover": player_name(variant, m),
                "winner": player_name(variant, winner),
                "mover_wins": wins,
                "winning_moves": w.iter().map(|&t| {
                    let (x, y, z) = match m {
                        Mover::A => (a + t as u64, b, r - t as u64),
                        Mover::B => (a, b + t as u64, r - t as u64),
                    };
                    json!({"take": t, "to": [x, y, z]})
                }).collect::<Vec<_>>(),
            }));
        }
        let class_text = match class {
            Class::AbsoluteA => {
                format!("absolute safe state of {na}: {na} wins whoever moves next")
            }
            Class::AbsoluteB => {
                format!("absolute safe state of {nb}: {nb} wins whoever moves next")
            }
            Class::Common => "common safe state: whoever moves next loses".to_string(),
            Class::Neither => "safe for neither: whoever moves next wins".to_string(),
        };
        let _ = writeln!(text, "class: {class_text}");
        let period_text = match s.period {
            Some(p) => format!(
                "modulus M = {} (preperiod {}, {})",
                p.period,
                p.preperiod,
                p.status.as_str()
            ),
            None => "no period proven".into(),
        };
        let _ = writeln!(text, "{period_text}");
        let json = json!({
            "family": "parity",
            "variant": variant.as_str(),
            "take": take.text(),
            "take_set": take.takes(),
            "a": a,
            "b": b,
            "r": r,
            "class": class.name(variant),
            "movers": jm,
            "modulus": s.period.map(|p| json!({"M": p.period, "preperiod": p.preperiod, "status": p.status.as_str()})),
        });
        Ok(Answer { text, json })
    }
}

#[cfg(test)]
mod tests;
