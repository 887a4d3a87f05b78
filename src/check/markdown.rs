//! The verdicts as a Markdown table.

use std::fmt::Write as _;

use super::{ConjectureResult, Verdict, marked_count, verdict_counts};
use crate::spec::Conjecture;

fn md_cell(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace('\n', "<br>")
}

fn md_code(s: &str) -> String {
    // A code span that survives inside a table cell.
    let s = s.replace('|', "\\|").replace('\n', " ");
    if s.contains('`') {
        format!("`` {s} ``")
    } else {
        format!("`{s}`")
    }
}

/// A Markdown rendering: a summary line and a table with one row per
/// conjecture (name, claim in words and as written, source, verdict,
/// evidence: rows checked and ranges, first counterexample).
pub fn render_markdown(results: &[ConjectureResult]) -> String {
    let mut s = summary_line(results);
    if results.is_empty() {
        return s;
    }
    s.push_str("| name | claim | source | verdict | evidence |\n|---|---|---|---|---|\n");
    for r in results {
        let c = &r.conjecture;
        let mut verdict = match r.verdict() {
            Verdict::Holds => md_cell(&r.verdict_text()),
            Verdict::Fails => "**FAILS**".to_string(),
            Verdict::Partly => "**partly**".to_string(),
            v => format!("*{v}*"),
        };
        if let Some(label) = r.mark_label() {
            let _ = write!(verdict, "<br>{label}");
        }
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} |",
            md_cell(&c.name),
            claim_cell(c),
            md_cell(&c.source),
            verdict,
            evidence_cell(r)
        );
    }
    s
}

/// The summary line: how many conjectures, and how many of each verdict.
fn summary_line(results: &[ConjectureResult]) -> String {
    let mut s = String::new();
    let counts: Vec<String> = verdict_counts(results)
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .map(|(v, n)| format!("{n} {v}"))
        .collect();
    // A claim that holds only under an assumption says so in the count as
    // in its verdict (`holds, assuming …`), as docs/claims.md does.
    let assumed = results
        .iter()
        .filter(|r| r.verdict() == Verdict::Holds && !r.conjecture.assumes.is_empty())
        .count();
    let marked = match marked_count(results) {
        0 => String::new(),
        n => format!(
            "; {n} marked (a claim or part that could not have come out otherwise, said beside its verdict)"
        ),
    };
    let _ = writeln!(
        s,
        "{} conjecture{}: {}{}{marked}.\n",
        results.len(),
        if results.len() == 1 { "" } else { "s" },
        if counts.is_empty() {
            "none".to_string()
        } else {
            counts.join(", ")
        },
        if assumed > 0 {
            format!(" ({assumed} of the holds only under an assumption, named in the verdict)")
        } else {
            String::new()
        }
    );
    s
}

/// The claim cell: in words, as written, its filter and its reading.
fn claim_cell(c: &Conjecture) -> String {
    let mut claim = String::new();
    if !c.says.is_empty() {
        claim.push_str(&md_cell(&c.says));
        claim.push_str("<br>");
    }
    claim.push_str(&md_code(&c.claim));
    if let Some(f) = &c.filter {
        let _ = write!(claim, " where {}", md_code(f));
    }
    if !c.reading.is_empty() {
        let _ = write!(claim, "<br>Reading: {}", md_cell(&c.reading));
    }
    if let Some(m) = &c.marked {
        let _ = write!(
            claim,
            "<br>**{}**: {}",
            md_cell(&m.heading()),
            md_cell(&m.why)
        );
    }
    claim
}

/// The evidence cell: the tally, further counterexamples, the dataset.
fn evidence_cell(r: &ConjectureResult) -> String {
    let c = &r.conjecture;
    let where_ = format!("{} / {}", c.sweep, c.dataset);
    match &r.result {
        Ok(res) => {
            let mut e = md_cell(&res.summary());
            if res.counterexamples.len() > 1 {
                let more: Vec<String> = res.counterexamples[1..]
                    .iter()
                    .map(|x| {
                        x.key
                            .iter()
                            .map(|(k, v)| format!("{k}={v}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    })
                    .collect();
                let _ = write!(e, "; next: {}", md_cell(&more.join("; ")));
            }
            format!("{e} ({})", md_cell(&where_))
        }
        Err(msg) => md_cell(msg.lines().next().unwrap_or("")),
    }
}
