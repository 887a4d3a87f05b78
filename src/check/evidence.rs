//! One sentence of evidence per claim, in the reports' terms: the boards or
//! positions it was judged on, named by their keys ("holds for every board
//! A(1,5) … A(6,9) (27 boards)", "fails for A(1,5), A(1,10) … (17 of 27
//! boards): nimlab finds N1 where the report says N4"), and the picture of
//! the first counterexample where the family can draw one.

use std::fmt::Write as _;

use super::{CheckResult, ConjectureResult, Counterexample, PartResult, Verdict};
use crate::data::Table;
use crate::family::Family;

type Key = [(String, String)];

/// The result with its unit named by the family and its first
/// counterexamples (overall and per part) drawn where the family can.
pub(super) fn with_drawings(
    mut r: CheckResult,
    t: &Table,
    dataset: &str,
    f: &dyn Family,
) -> CheckResult {
    let (one, many) = f.unit(dataset);
    r.unit = (one.to_string(), many.to_string());
    r.label_names_row = f
        .capabilities()
        .names_rows_by_label
        .is_some_and(|named| named(dataset));
    let draw = |c: &mut Counterexample| c.drawing = f.draw(dataset, t, c.row);
    if let Some(c) = r.counterexamples.first_mut() {
        draw(c);
    }
    for p in &mut r.parts {
        if let Some(c) = p.first_counterexample.as_mut() {
            draw(c);
        }
    }
    // The family's names of the positions the evidence names.
    let mut names = Vec::new();
    let shown = r
        .counterexamples
        .iter()
        .map(|c| &c.key)
        .chain(
            r.parts
                .iter()
                .filter_map(|p| p.first_counterexample.as_ref())
                .map(|c| &c.key),
        )
        .chain(r.span.iter().flat_map(|(a, b)| [a, b]));
    for key in shown {
        if let Some(n) = f.position_name(dataset, key) {
            names.push((key.clone(), n));
        }
    }
    r.names = names;
    r
}

/// `A(1,5)` for a row with a label, `max:3, N = 5` with a label and a
/// position within it, else every key: `N = 5, take_max = 3`.
fn key_text(key: &Key, label: Option<&str>) -> String {
    if let Some((_, v)) = key.iter().find(|(k, _)| Some(k.as_str()) == label) {
        return v.clone();
    }
    key.iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The rows `keys` as a reader names them: the label's values when it
/// varies (`A(1,5), A(1,10)`), else the one varying key's values with the
/// constant keys after them (`N = 5, 9, 13 (rule max:3)`), else each row's
/// keys.
fn rows_text(keys: &[&Key], res: &CheckResult) -> String {
    let label = res.label.as_deref();
    let Some(first) = keys.first() else {
        return String::new();
    };
    let varies = |col: &str| {
        let val = |k: &Key| k.iter().find(|(c, _)| c == col).map(|(_, v)| v.clone());
        keys.iter().any(|k| val(k) != val(first))
    };
    let varying: Vec<&String> = first.iter().map(|(c, _)| c).filter(|c| varies(c)).collect();
    let value = |k: &Key, col: &str| {
        k.iter()
            .find(|(c, _)| c == col)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let named = label.filter(|l| res.label_names_row && varying.iter().any(|c| c == l));
    if let Some(l) = named {
        return keys
            .iter()
            .map(|k| value(k, l))
            .collect::<Vec<_>>()
            .join(", ");
    }
    if varying.len() == 1 {
        let col = varying[0];
        let vals: Vec<String> = keys.iter().map(|k| value(k, col)).collect();
        let context: Vec<(String, String)> =
            first.iter().filter(|(c, _)| c != col).cloned().collect();
        let vals = format!("{col} = {}", vals.join(", "));
        return if context.is_empty() {
            vals
        } else {
            format!("{}, {vals}", key_text(&context, label))
        };
    }
    keys.iter()
        .map(|k| row_text(k, res))
        .collect::<Vec<_>>()
        .join("; ")
}

/// One row: the family's name for its position (`(1,4,5)`), its label when
/// the label alone names it (`A(1,5)`), its label and its positions (`max:3,
/// N = 5`), or its keys.
fn row_text(key: &Key, res: &CheckResult) -> String {
    let label = res.label.as_deref();
    if let Some((_, name)) = res.names.iter().find(|(k, _)| k.as_slice() == key) {
        return name.clone();
    }
    let mut parts = vec![key_text(key, label)];
    if res.label_names_row {
        return parts.remove(0);
    }
    if key.iter().any(|(k, _)| Some(k.as_str()) == label) {
        parts.extend(
            key.iter()
                .filter(|(k, _)| res.positions.contains(k))
                .map(|(k, v)| format!("{k} = {v}")),
        );
    }
    parts.join(", ")
}

fn unquote(v: &str) -> &str {
    v.strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or(v)
}

fn is_column(t: &str) -> bool {
    t.starts_with(|c: char| c.is_alphabetic())
        && t.chars().all(|c| c.is_alphanumeric() || c == '_')
        && !matches!(t, "true" | "false" | "null")
}

/// Does an expression read a computed value: a result of the compared row
/// (`other:`'s `other_<column>`), or, for the claim's own side, any column
/// that is not one of the row's keys?
fn reads_result(t: &str, key: &Key) -> bool {
    let own = is_column(t) && !key.iter().any(|(k, _)| k == t);
    own || columns_of(t).iter().any(|w| w.starts_with("other_"))
}

/// The columns an expression reads (none when it does not parse).
fn columns_of(t: &str) -> Vec<String> {
    crate::expr::parse::parse(t)
        .map(|a| a.free_names().into_iter().map(str::to_string).collect())
        .unwrap_or_default()
}

/// Does an expression read a column (a name outside quotes that is not a
/// keyword)? `other_remoteness + 1` does, `[1, 2]` and `"P"` do not.
#[cfg(test)]
fn mentions_column(t: &str) -> bool {
    !columns_of(t).is_empty()
}

/// `≥ 2` for `>=` and a claimed value `2` (`2` for `==`).
fn claimed(op: &str, v: &str) -> String {
    let sym = match op {
        "==" => return v.to_string(),
        "!=" => "≠",
        "<" => "<",
        "<=" => "≤",
        ">" => ">",
        ">=" => "≥",
        o => o,
    };
    format!("{sym} {v}")
}

fn flipped(op: &'static str) -> &'static str {
    match op {
        "<" => ">",
        "<=" => ">=",
        ">" => "<",
        ">=" => "<=",
        o => o,
    }
}

/// `nimlab finds N1 where the report says N4`, from a counterexample's two
/// sides when one of them is a column (the computed value); else the two
/// sides' values.
fn contrast(c: &Counterexample) -> Option<String> {
    let [(lt, lv), (rt, rv)] = c.sides.as_slice() else {
        return None;
    };
    let cmp = matches!(c.relation, "==" | "!=" | "<" | "<=" | ">" | ">=");
    let computed = |t: &str| reads_result(t, &c.key);
    if cmp && (is_column(lt) || is_column(rt)) && computed(lt) && computed(rt) {
        // Both sides computed from results (`remoteness ==
        // other_remoteness + 1`; not a value given for each key, as `y in
        // [5, 10] ? "N4" : "N3"`): the report states no value; the
        // family's account of the row says what the position shows.
        if let Some(r) = &c.reason {
            return Some(r.clone());
        }
    }
    if cmp && is_column(lt) && !is_column(rt) {
        return Some(format!(
            "nimlab finds {lt} {} where the report says {}",
            unquote(lv),
            claimed(c.relation, unquote(rv))
        ));
    }
    if cmp && is_column(rt) && !is_column(lt) {
        return Some(format!(
            "nimlab finds {rt} {} where the report says {}",
            unquote(rv),
            claimed(flipped(c.relation), unquote(lv))
        ));
    }
    let said = |t: &str, v: &str| words(t, v == "true").unwrap_or_else(|| format!("{t} is {v}"));
    let sides = if c.relation == "and" && lv != rv {
        // Of two conditions that must both hold, the one that does not.
        if lv == "false" {
            said(lt, lv)
        } else {
            said(rt, rv)
        }
    } else {
        format!("{} but {}", said(lt, lv), said(rt, rv))
    };
    let with: Vec<String> = c
        .values
        .iter()
        .take(3)
        .map(|(k, v)| format!("{k} {}", unquote(v)))
        .collect();
    Some(if with.is_empty() {
        sides
    } else {
        format!("nimlab finds {}: {sides}", with.join(", "))
    })
}

/// A condition in words, as it came out (`holds`): `7 % period == 0`
/// false is `7 is not a multiple of period`, `board_grundy >= 2` false is
/// `board_grundy is less than 2`; `None` for any other form.
fn words(cond: &str, holds: bool) -> Option<String> {
    let split = |op: &str| cond.split_once(op).map(|(a, b)| (a.trim(), b.trim()));
    if let Some((a, b)) = cond.strip_suffix(" == 0").and_then(|x| x.split_once(" % ")) {
        let not = if holds { "" } else { "not " };
        return Some(format!("{} is {not}a multiple of {}", a.trim(), b.trim()));
    }
    if let Some((a, b)) = split(" not in ") {
        let is = if holds { "is not" } else { "is" };
        return Some(format!("{a} {is} among {b}"));
    }
    if let Some((a, b)) = split(" in ") {
        let is = if holds { "is" } else { "is not" };
        return Some(format!("{a} {is} among {b}"));
    }
    // Two-character operators first (`>=` before `>`).
    let ops: [(&str, &str, &str); 6] = [
        (" >= ", "is at least", "is less than"),
        (" <= ", "is at most", "is more than"),
        (" == ", "equals", "differs from"),
        (" != ", "differs from", "equals"),
        (" > ", "is more than", "is at most"),
        (" < ", "is less than", "is at least"),
    ];
    let (a, b, yes, no) = ops
        .iter()
        .find_map(|(op, yes, no)| split(op).map(|(a, b)| (a, b, *yes, *no)))?;
    let simple = |x: &str| !x.contains(|ch: char| "()?:<>=!&|".contains(ch));
    (simple(a) && simple(b)).then(|| format!("{a} {} {b}", if holds { yes } else { no }))
}

fn count(n: usize, unit: &(String, String)) -> String {
    format!("{n} {}", if n == 1 { &unit.0 } else { &unit.1 })
}

/// Where a claim holds: `every board A(1,5) … A(6,9) (27 boards)`, or
/// `all 1220 positions with take_max 2 … 12, N 0 … 60`.
fn scope(res: &CheckResult) -> String {
    let n = res.decided();
    let unit = &res.unit;
    let label = res.label.as_deref();
    let mut context = String::new();
    if let Some((a, b)) = &res.span {
        if n == 1 || a == b {
            return format!("the {} {}", unit.0, row_text(a, res));
        }
        let (ta, tb) = (key_text(a, label), key_text(b, label));
        if ta != tb && ((label.is_some() && res.label_names_row) || res.ranges.is_empty()) {
            return format!("every {} {ta} … {tb} ({})", unit.0, count(n, unit));
        }
        if let Some(l) = label {
            context = if ta == tb {
                format!(" of {ta}")
            } else {
                format!(" ({l} {ta} … {tb})")
            };
        }
    }
    let ranges: Vec<String> = res
        .ranges
        .iter()
        .map(|(c, lo, hi)| {
            if lo == hi {
                format!("{c} = {lo}")
            } else {
                format!("{c} = {lo} … {hi}")
            }
        })
        .collect();
    if ranges.is_empty() {
        format!("all {}{context}", count(n, unit))
    } else {
        if context.starts_with(" of") {
            format!("all {}{context} with {}", count(n, unit), ranges.join(", "))
        } else {
            format!("all {} with {}{context}", count(n, unit), ranges.join(", "))
        }
    }
}

/// `fails for A(1,5), A(1,10) … (17 of 27 boards): nimlab finds …`.
fn failing(res: &CheckResult) -> String {
    let keys: Vec<&Key> = res
        .counterexamples
        .iter()
        .map(|c| c.key.as_slice())
        .collect();
    let more = if res.failed > keys.len() { " …" } else { "" };
    let mut s = format!(
        "fails for {}{more} ({} of {})",
        rows_text(&keys, res),
        res.failed,
        count(res.decided(), &res.unit)
    );
    let first = res.counterexamples.first();
    if let Some(c) = first
        .and_then(|c| c.line.clone())
        .or_else(|| first.and_then(contrast))
    {
        let _ = write!(s, ": at the first, {c}");
    }
    s
}

fn part_names(parts: &[PartResult], v: Verdict) -> String {
    parts
        .iter()
        .filter(|p| p.verdict == v)
        .map(|p| p.name.clone())
        .collect::<Vec<_>>()
        .join("; ")
}

impl ConjectureResult {
    /// One sentence of evidence in the report's terms.
    pub fn evidence_sentence(&self) -> String {
        match &self.result {
            Ok(r) => r.evidence_sentence(),
            Err(e) => format!("Could not be checked: {}", e.lines().next().unwrap_or("")),
        }
    }

    /// The picture of the first counterexample, if the family drew one.
    pub fn drawing(&self) -> Option<(String, &str)> {
        self.result.as_ref().ok()?.drawing()
    }

    /// Why the first counterexample has its value (its moves and where
    /// they lead, where the family explains moves), if the family said.
    pub fn first_reason(&self) -> Option<&str> {
        self.result.as_ref().ok()?.first_reason()
    }
}

impl CheckResult {
    /// One sentence of evidence in the report's terms.
    pub fn evidence_sentence(&self) -> String {
        let res = self;
        let unit = &res.unit;
        let mut s = match res.verdict {
            Verdict::Holds => format!("Holds for {}.", scope(res)),
            Verdict::ByConstruction => format!(
                "True by construction on {}: only a change that contradicts nimlab's own definitions would refute it ({}).",
                scope(res),
                res.by_construction.as_deref().unwrap_or_default()
            ),
            Verdict::Fails => format!("{}.", capital(&failing(res))),
            Verdict::Partly => {
                let first = res
                    .parts
                    .iter()
                    .find_map(|p| p.first_counterexample.as_ref())
                    .map(|c| match &c.line {
                        Some(l) => format!("{}, {l}", row_text(&c.key, res)),
                        None => row_text(&c.key, res),
                    })
                    .unwrap_or_default();
                format!(
                    "Holds for {}; fails for {} ({} of {}; the first: {first}).",
                    part_names(&res.parts, Verdict::Holds),
                    part_names(&res.parts, Verdict::Fails),
                    res.failed,
                    count(res.decided(), unit)
                )
            }
            Verdict::Vacuous => format!(
                "Vacuous: none of the {} is in the claim's scope.",
                count(res.rows, unit)
            ),
            Verdict::Undetermined => format!(
                "Undetermined: the data leave the claim open on all {}.",
                count(res.matched, unit)
            ),
            Verdict::Error => "Could not be checked.".into(),
        };
        if res.undetermined > 0 && res.verdict != Verdict::Undetermined {
            let _ = write!(s, " Open (no value) on {}.", count(res.undetermined, unit));
        }
        s
    }

    /// The picture of the first counterexample, if the family drew one.
    pub fn drawing(&self) -> Option<(String, &str)> {
        let res = self;
        let c = res.counterexamples.first().or_else(|| {
            res.parts
                .iter()
                .find_map(|p| p.first_counterexample.as_ref())
        })?;
        Some((row_text(&c.key, res), c.drawing.as_deref()?))
    }

    /// Why the first counterexample (overall, else of the first failing
    /// part) has its value, if the family said.
    pub fn first_reason(&self) -> Option<&str> {
        self.counterexamples
            .first()
            .or_else(|| {
                self.parts
                    .iter()
                    .find_map(|p| p.first_counterexample.as_ref())
            })?
            .reason
            .as_deref()
    }
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::{contrast, mentions_column, words};
    use crate::check::Counterexample;

    #[test]
    fn expressions_that_read_columns() {
        assert!(mentions_column("other_remoteness + 1"));
        assert!(mentions_column("len(winning_takes)"));
        assert!(!mentions_column("2"));
        assert!(!mentions_column("[1, 2]"));
        assert!(!mentions_column("\"P\""));
        assert!(!mentions_column("\"absolute odd\" and true"));
        assert!(!mentions_column("let k = 3; k + 1"));
        assert!(mentions_column("`my col` > 1"));
        assert!(!mentions_column("N =="));
    }

    /// A claimed side computed from other columns is not "what the report
    /// says": the family's account of the row is the evidence; a literal is.
    #[test]
    fn computed_sides_defer_to_the_familys_account() {
        let ce = |rt: &str, rv: &str, reason: Option<&str>| Counterexample {
            row: 0,
            key: vec![],
            values: vec![],
            sides: vec![("remoteness".into(), "3".into()), (rt.into(), rv.into())],
            reason: reason.map(String::from),
            drawing: None,
            relation: "==",
            line: None,
        };
        let c = ce(
            "other_remoteness + 1",
            "2",
            Some("taking 2 ends it in 3 moves"),
        );
        assert_eq!(contrast(&c).as_deref(), Some("taking 2 ends it in 3 moves"));
        // A value per key (the report's table as a function of y) is what
        // the report says.
        let mut c = ce("class_of(y) == 5 ? 4 : 2", "2", Some("why"));
        c.key = vec![("y".into(), "5".into())];
        assert_eq!(
            contrast(&c).as_deref(),
            Some("nimlab finds remoteness 3 where the report says 2")
        );
        let c = ce("2", "2", Some("taking 2 ends it in 3 moves"));
        assert_eq!(
            contrast(&c).as_deref(),
            Some("nimlab finds remoteness 3 where the report says 2")
        );
    }

    #[test]
    fn conditions_in_words() {
        assert_eq!(
            words("7 % period == 0", false).as_deref(),
            Some("7 is not a multiple of period")
        );
        assert_eq!(
            words("12 % k == 0", true).as_deref(),
            Some("12 is a multiple of k")
        );
        assert_eq!(
            words("board_grundy >= 2", false).as_deref(),
            Some("board_grundy is less than 2")
        );
        assert_eq!(
            words("board_grundy <= 4", true).as_deref(),
            Some("board_grundy is at most 4")
        );
        assert_eq!(
            words("x1 not in listed", false).as_deref(),
            Some("x1 is among listed")
        );
        assert_eq!(words("N > 3", false).as_deref(), Some("N is at most 3"));
        // A form it does not know is left to the caller.
        assert_eq!(words("a ? b : c", true), None);
        assert_eq!(words("(a == 1) == (b == 2)", true), None);
    }
}
