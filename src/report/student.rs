//! The page a student opens: the five source reports first under their own
//! titles, a short glossary, verdict classes (colour, order, filter), a
//! summary per report in sentences and the links between related claims.
//!
//! Everything said about the results is generated from the claims' verdicts
//! and evidence; the only fixed text is what does not change with the data:
//! the reports' own titles and games (`/work/shared/SEEDS.md`, the specs)
//! and the glossary's definitions.

use std::collections::BTreeSet;

use super::blocks::{Block, cell, slug};
use super::{Claim, claim_anchor, counts_line};
use crate::spec::Experiment;

/// One of the five source reports: its experiment, its own title (Chinese),
/// where it appeared, and its game: in one line, and in full.
pub struct Source {
    pub exp: &'static str,
    pub zh: &'static str,
    pub venue: &'static str,
    pub line: &'static str,
    pub game: &'static str,
}

/// The five reports the project exists for (SEEDS.md), in their order.
pub const SOURCES: &[Source] = &[
    Source {
        exp: "report-000",
        zh: "切割方程",
        venue: "63rd national science fair, senior-high mathematics",
        line: "remove one whole run of touching pieces along a line of a triangular-lattice board; taking the last piece wins.",
        game: "Players take turns removing one whole run of touching pieces along a line of a triangular-lattice board (trapezoids, parallelograms, hexagons); whoever takes the last piece wins.",
    },
    Source {
        exp: "report-001",
        zh: "有關單堆奇偶的拈",
        venue: "the journal 數學傳播 47(3), 2023",
        line: "one pile; take 1..k stones into your own hand; the parities of the hands decide.",
        game: "One pile; each turn a player takes 1 to k stones into their own hand; when the pile is empty, the parity of the hands decides who wins.",
    },
    Source {
        exp: "report-002",
        zh: "電腦擬智化的實例探討及其數學分析",
        venue: "senior-high science fair, first prize, 1980s",
        line: "remove 1..P pieces in a row along a line of a board on a grid; taking the last piece loses.",
        game: "Pieces on a board drawn on a grid up to 6×6; a move removes 1 to P pieces in a row along a line; whoever takes the last piece loses.",
    },
    Source {
        exp: "report-003",
        zh: "Nim 死不屈",
        venue: "junior-high independent study",
        line: "misère Nim from heaps 3, 5, 7 (taking the last stone loses); then normal Nim.",
        game: "Misère Nim from heaps 3, 5, 7: take any number of stones from one heap; whoever takes the last stone loses. Then normal Nim on any three heaps.",
    },
    Source {
        exp: "report-004",
        zh: "致勝密碼",
        venue: "science fair 040408",
        line: "take 1..n or m..n stones from one or two heaps, in Cond(3) never the opponent's last take; taking the last wins.",
        game: "Take-away from one or two heaps: take 1..n stones (Cond 1) or m..n (Cond 2), in Cond 3 never the number the opponent just took; whoever takes the last stone wins.",
    },
];

/// The source report an experiment checks, if it is one of the five.
pub fn source(exp: &str) -> Option<&'static Source> {
    SOURCES.iter().find(|s| s.exp == exp)
}

/// Where an experiment goes on the page: the five reports first, in their
/// order, then the other experiments by name.
pub fn order_key(exp: &str) -> (usize, String) {
    let i = SOURCES
        .iter()
        .position(|s| s.exp == exp)
        .unwrap_or(SOURCES.len());
    (i, exp.to_string())
}

/// An experiment's short name for the table of contents: `Report 000
/// 「切割方程」`, else its title up to the first ` — ` or `:`.
pub fn short_name(exp: &str, title: &str) -> String {
    match source(exp) {
        Some(s) => format!("{} 「{}」", report_label(exp), s.zh),
        None => title
            .split([':', '—'])
            .next()
            .unwrap_or(title)
            .trim()
            .to_string(),
    }
}

/// A report's English title without its label and its parenthesis:
/// `Report 000: maximal runs (classes …)` → `maximal runs`.
fn english(title: &str) -> &str {
    let t = title.split_once(": ").map_or(title, |t| t.1);
    t.split(" (").next().unwrap_or(t).trim()
}

/// `report-000` → `Report 000`.
fn report_label(exp: &str) -> String {
    match exp.strip_prefix("report-") {
        Some(n) => format!("Report {n}"),
        None => exp.to_string(),
    }
}

/// A verdict's class: `fails`, `partly`, `holds`, `construction` or
/// `other` (vacuous, undetermined, error). `holds, assuming …` is `holds`.
pub fn verdict_class(verdict: &str) -> &'static str {
    match verdict {
        v if v.starts_with("holds") => "holds",
        "fails" => "fails",
        "partly" => "partly",
        "true by construction" => "construction",
        _ => "other",
    }
}

/// The order of claims within a report: failures first, then partly, then
/// the undecided, true by construction, and what holds last.
pub fn verdict_rank(verdict: &str) -> u8 {
    match verdict_class(verdict) {
        "fails" => 0,
        "partly" => 1,
        "other" => 2,
        "construction" => 3,
        _ => 4,
    }
}

/// The verdict filter (in the table of contents): one box per class.
pub const FILTER_HTML: &str = "<form id=\"filter\" class=\"filter\"><b>Show claims:</b> \
<label class=\"v-fails\"><input type=\"checkbox\" value=\"fails\" checked> fails</label> \
<label class=\"v-partly\"><input type=\"checkbox\" value=\"partly\" checked> partly</label> \
<label class=\"v-holds\"><input type=\"checkbox\" value=\"holds\" checked> holds</label> \
<label class=\"v-construction\"><input type=\"checkbox\" value=\"construction\" checked> true by construction</label> \
<label class=\"v-other\"><input type=\"checkbox\" value=\"other\" checked> other</label></form>\n";

/// The glossary: the words the verdicts and the reports use.
pub fn glossary() -> Vec<Block> {
    let items = [
        "**P-position / N-position**: a position is P (the *previous* player wins) when the player to move loses against best play, and N (the *next* player wins) when the player to move can win. A position is P exactly when no move reaches a P-position. Misère play: whoever makes the last move loses; normal play: whoever makes it wins.",
        "**mex** (minimum excluded value): the smallest whole number ≥ 0 not in a set; mex{0, 1, 3} = 2, mex{1, 2} = 0.",
        "**Grundy value** (nimber): the mex of the Grundy values of the positions one move away; 0 exactly for P-positions. A game made of independent parts (separate regions or heaps) has the XOR of their values, so two equal parts cancel. Report 000's classes are Grundy values: N2 = 0, N1 = 1, N3 = 2, N4 = 3, N5 = 4.",
        "**holds**: the statement is true on every row of the data checked (its evidence says how far). **fails**: at least one row contradicts it; the first counterexample is shown, move by move where the family can say so. **partly**: some of its parts hold and others fail. **marked** (beside a verdict): the claim, or one of its parts, could not have come out otherwise (it cannot fail on these data, or it restates how the solver builds its table); the mark says why. **true by construction**: it holds, but the data are computed by the very rule it states, so the check confirms the computation rather than a finding.",
    ];
    vec![
        Block::Heading(2, "Glossary".into(), "glossary".into()),
        Block::List(items.iter().map(|s| s.to_string()).collect()),
    ]
}

/// The front of the page: the five reports (titles, venue, game, verdict
/// counts) linked to their sections, then the other experiments.
/// `page_of` names the page of an experiment's section (empty: this page).
pub fn front(parts: &[(&str, &str, &[Claim])], page_of: &dyn Fn(&str) -> String) -> Vec<Block> {
    let line = |claims: &[Claim]| -> String {
        let c: Vec<&Claim> = claims.iter().collect();
        if c.is_empty() {
            String::new()
        } else {
            format!(" — {}.", counts_line(&c))
        }
    };
    let mut reports = Vec::new();
    let mut others = Vec::new();
    for (exp, title, claims) in parts {
        match source(exp) {
            Some(s) => reports.push(format!(
                "**[{} 「{}」]({}#exp-{})** {}. *Game:* {}{}",
                report_label(exp),
                s.zh,
                page_of(exp),
                slug(exp),
                cell(english(title)),
                s.line,
                line(claims)
            )),
            None => others.push(format!(
                "[{}]({}#exp-{}){}",
                cell(title),
                page_of(exp),
                slug(exp),
                line(claims)
            )),
        }
    }
    let mut b = Vec::new();
    if !reports.is_empty() {
        b.push(Block::Heading(
            2,
            "The five reports".into(),
            "the-reports".into(),
        ));
        b.push(Block::Html("<div class=\"front\">\n".into()));
        b.push(Block::List(reports));
        b.push(Block::Html("</div>\n".into()));
    }
    if !others.is_empty() {
        b.push(Block::Heading(
            2,
            "Other experiments".into(),
            "other-experiments".into(),
        ));
        b.push(Block::List(others));
    }
    b
}

/// The claims of the experiment named in `text`: a word equal to a claim's
/// name, or a prefix of it that ends where the name has a `-` (`lemma-5`
/// names `lemma-5-two-equal-controllable-regions`).
fn mentioned(text: &str, names: &[&str]) -> BTreeSet<usize> {
    let mut found = BTreeSet::new();
    let words = text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'));
    for w in words.map(|w| w.trim_matches('-')) {
        if !w.contains('-') || w.len() < 4 {
            continue;
        }
        for (i, n) in names.iter().enumerate() {
            if *n == w || (n.starts_with(w) && n.as_bytes().get(w.len()) == Some(&b'-')) {
                found.insert(i);
            }
        }
    }
    found
}

/// Per claim (in spec order), the indices of its related claims: those it
/// names in its statement or reading, those that name it, those with the
/// same source, and those named together in a statement the data do not
/// decide (`not_judged`, which says where its content is judged).
pub fn related(e: &Experiment) -> Vec<BTreeSet<usize>> {
    let names: Vec<&str> = e.conjectures.iter().map(|c| c.name.as_str()).collect();
    let n = names.len();
    let mut rel = vec![BTreeSet::new(); n];
    let link = |a: usize, b: usize, rel: &mut Vec<BTreeSet<usize>>| {
        if a != b {
            rel[a].insert(b);
            rel[b].insert(a);
        }
    };
    for (i, c) in e.conjectures.iter().enumerate() {
        for j in mentioned(&format!("{} {}", c.says, c.reading), &names) {
            link(i, j, &mut rel);
        }
        for (j, d) in e.conjectures.iter().enumerate().skip(i + 1) {
            if !c.source.is_empty() && c.source == d.source {
                link(i, j, &mut rel);
            }
        }
    }
    for nj in &e.not_judged {
        let group: Vec<usize> = mentioned(&format!("{} {}", nj.says, nj.why), &names)
            .into_iter()
            .collect();
        for &a in &group {
            for &b in &group {
                link(a, b, &mut rel);
            }
        }
    }
    rel
}

/// `[name](#claim-…)`: a link to a claim's verdict on the same page.
fn claim_link(exp: &str, name: &str) -> String {
    format!("[{}](#{})", cell(name), claim_anchor(exp, name))
}

/// `text` with every claim name it mentions made a link to that claim.
fn link_names(exp: &str, text: &str, names: &[&str]) -> String {
    let found = mentioned(text, names);
    if found.is_empty() {
        return cell(text);
    }
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let w = std::mem::take(word);
        let core = w.trim_matches('-');
        let hit = names
            .iter()
            .find(|n| **n == core)
            .or_else(|| {
                names
                    .iter()
                    .find(|n| n.starts_with(core) && n.as_bytes().get(core.len()) == Some(&b'-'))
            })
            .filter(|_| core.contains('-') && core.len() >= 4);
        match hit {
            Some(n) => out.push_str(&format!("[{}](#{})", cell(&w), claim_anchor(exp, n))),
            None => out.push_str(&cell(&w)),
        }
    };
    for ch in text.chars() {
        if ch.is_ascii_alphanumeric() || ch == '-' || ch == '_' {
            word.push(ch);
        } else {
            flush(&mut word, &mut out);
            out.push_str(&cell(&ch.to_string()));
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The summary at the top of an experiment's section, in sentences: how
/// many statements were checked, which hold (by construction or in part),
/// which fail and why (each with its evidence), and the statements the
/// data do not decide, with what answers them. Built from the verdicts.
pub fn summary(e: &Experiment, claims: &[Claim]) -> Vec<Block> {
    let mut b = Vec::new();
    if claims.is_empty() && e.not_judged.is_empty() {
        return b;
    }
    b.push(Block::Heading(
        3,
        format!("{}: in short", short_name(&e.name, &e.title)),
        format!("summary-{}", slug(&e.name)),
    ));
    if !claims.is_empty() {
        b.push(what_holds(e, claims));
        b.extend(what_fails(e, claims));
    }
    b.extend(open_questions(e));
    b
}

/// The claims of verdict class `class`.
fn of_class<'c>(claims: &'c [Claim], class: &str) -> Vec<&'c Claim> {
    claims
        .iter()
        .filter(|c| verdict_class(&c.verdict) == class)
        .collect()
}

/// Links to the claims `cs` of experiment `e`, comma separated.
fn claim_links(e: &Experiment, cs: &[&Claim]) -> String {
    cs.iter()
        .map(|c| claim_link(&e.name, &c.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// "What it claimed": the counts, what holds, what holds by construction.
fn what_holds(e: &Experiment, claims: &[Claim]) -> Block {
    let all: Vec<&Claim> = claims.iter().collect();
    let mut p = format!(
        "**What it claimed.** {} statements of the source are checked against the data: {}.",
        claims.len(),
        counts_line(&all)
    );
    let holds = of_class(claims, "holds");
    if !holds.is_empty() {
        p.push_str(&format!(
            " **What holds:** {} (on every row checked).",
            claim_links(e, &holds)
        ));
    }
    let cons = of_class(claims, "construction");
    if !cons.is_empty() {
        p.push_str(&format!(
            " True by construction (the data are computed by the rule they state, so they confirm the computation, not a finding): {}.",
            claim_links(e, &cons)
        ));
    }
    let marked: Vec<&Claim> = claims.iter().filter(|c| !c.marked.is_empty()).collect();
    if !marked.is_empty() {
        p.push_str(&format!(
            " Marked (a claim or part that could not have come out otherwise; each says why beside its verdict): {}.",
            claim_links(e, &marked)
        ));
    }
    Block::Para(p)
}

/// "What fails, and why": each claim that fails or holds in part, with
/// its evidence (nothing when all hold).
fn what_fails(e: &Experiment, claims: &[Claim]) -> Vec<Block> {
    let bad: Vec<&Claim> = claims
        .iter()
        .filter(|c| matches!(verdict_class(&c.verdict), "fails" | "partly" | "other"))
        .collect();
    if bad.is_empty() {
        return Vec::new();
    }
    let mut items = Vec::new();
    for c in &bad {
        items.push(format!(
            "{} {} — {}",
            claim_link(&e.name, &c.name),
            match verdict_class(&c.verdict) {
                "fails" => "fails".to_string(),
                "partly" => "holds only in part".to_string(),
                _ => format!("is {}", c.verdict),
            },
            cell(&c.evidence)
        ));
    }
    vec![
        Block::Para(format!(
            "**What fails, and why.** {} of the {} statements do not hold as stated; each with its first counterexample (follow the name for the position move by move):",
            bad.len(),
            claims.len()
        )),
        Block::List(items),
    ]
}

/// The statements the data do not decide, and what answers them.
fn open_questions(e: &Experiment) -> Vec<Block> {
    if e.not_judged.is_empty() {
        return Vec::new();
    }
    let names: Vec<&str> = e.conjectures.iter().map(|c| c.name.as_str()).collect();
    vec![
        Block::Para(
            "**Open questions and statements the data do not decide**, and where they are answered:"
                .into(),
        ),
        Block::List(
            e.not_judged
                .iter()
                .map(|nj| {
                    format!(
                        "{} ({}) — {}",
                        cell(&nj.says),
                        cell(&nj.source),
                        link_names(&e.name, &nj.why, &names)
                    )
                })
                .collect(),
        ),
    ]
}

/// The line under a claim naming its related claims (none: no line).
pub fn related_line(e: &Experiment, related: &BTreeSet<usize>) -> Option<Block> {
    if related.is_empty() {
        return None;
    }
    let links: Vec<String> = related
        .iter()
        .filter_map(|&j| e.conjectures.get(j))
        .map(|c| claim_link(&e.name, &c.name))
        .collect();
    Some(Block::Para(format!("Related: {}.", links.join(", "))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prefix_names_a_claim_and_a_plain_word_does_not() {
        let names = ["lemma-5-two-equal", "a1-class-table", "lemma-4"];
        let m = mentioned("judged as a1-class-table, lemma-5 and lemma-4; a-b", &names);
        assert_eq!(m.into_iter().collect::<Vec<_>>(), vec![0, 1, 2]);
        assert!(mentioned("lemma-50 and table", &names).is_empty());
    }

    #[test]
    fn linked_names_keep_the_text() {
        let names = ["lemma-5-two", "a1-class-table"];
        let t = link_names("report-000", "see a1-class-table, lemma-5.", &names);
        assert_eq!(
            t,
            "see [a1-class-table](#claim-report-000-a1-class-table), [lemma-5](#claim-report-000-lemma-5-two)."
        );
    }

    #[test]
    fn failures_come_first_and_holds_last() {
        let mut v = vec!["holds", "true by construction", "partly", "fails", "error"];
        v.sort_by_key(|s| verdict_rank(s));
        assert_eq!(
            v,
            vec!["fails", "partly", "error", "true by construction", "holds"]
        );
        assert_eq!(verdict_class("holds, assuming x"), "holds");
    }

    #[test]
    fn reports_come_before_other_experiments() {
        let mut v = vec!["rules", "report-004", "octal", "report-000"];
        v.sort_by_key(|s| order_key(s));
        assert_eq!(v, vec!["report-000", "report-004", "octal", "rules"]);
    }
}
