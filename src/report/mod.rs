//! One report over everything in an output directory: `OUT/REPORT.md` and
//! `OUT/REPORT.html` (the same content, pictures inline).
//!
//! Built from stored results only (no solving): per experiment its title and
//! description, per sweep links to its datasets, its rendered tables (small
//! ones inline, long ones cut with a link), its figures, the closed forms its
//! data propose (every column declared with the closed-form role), the simple
//! forms fitted to loss sets over two coordinates ([`crate::fit`], written to
//! the sweep's `forms.md`), and the experiment's conjecture verdicts
//! with their evidence. At the top: verdict counts over all claims and the
//! list of failing claims with their first counterexamples.
//!
//! Which experiments: those whose specs are given, plus every other
//! experiment found in the output directory (a folder with a
//! `manifest.json`), whose spec is read back from the manifest (`spec`, the
//! text verbatim). See `docs/report.md`.

mod blocks;
mod forms;

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::check::{self, ConjectureResult, Verdict};
use crate::spec::{self, Experiment, Sweep};
use crate::store;

use blocks::{
    Block, MAX_FIGURES, cell, code, files_in, href, inline_md, rel, slug, to_html, to_markdown,
};

/// What the report says, in numbers.
#[derive(Clone, Debug, Default)]
pub struct ReportSummary {
    /// Experiments in the report.
    pub experiments: usize,
    /// Verdict counts over all claims (holds, fails, vacuous, undetermined, error).
    pub counts: Vec<(Verdict, usize)>,
    /// `experiment/name: summary` of each failing claim.
    pub failing: Vec<String>,
    /// The files written.
    pub files: Vec<PathBuf>,
}

/// The experiments to report on: `given` (those with results in `out`), then
/// every other experiment in `out`, its spec read from its manifest, sorted
/// by name. Experiments whose manifest cannot be read are skipped with a
/// message on stderr.
pub fn experiments(given: &[Experiment], out: &Path) -> Vec<Experiment> {
    let mut v: Vec<Experiment> = given
        .iter()
        .filter(|e| out.join(&e.name).is_dir())
        .cloned()
        .collect();
    let mut dirs: Vec<PathBuf> = fs::read_dir(out)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("manifest.json").is_file())
        .collect();
    dirs.sort();
    for d in dirs {
        let name = d
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        if v.iter().any(|e| e.name == name) {
            continue;
        }
        match from_manifest(&d) {
            Ok(e) if e.name == name => v.push(e),
            Ok(e) => eprintln!(
                "nimlab report: {} holds experiment {:?}; skipped",
                d.display(),
                e.name
            ),
            Err(err) => eprintln!("nimlab report: skipping {}: {err:#}", d.display()),
        }
    }
    v.sort_by(|a, b| a.name.cmp(&b.name));
    v
}

fn from_manifest(dir: &Path) -> Result<Experiment> {
    let text = fs::read_to_string(dir.join("manifest.json"))?;
    let m: serde_json::Value = serde_json::from_str(&text)?;
    let spec_text = m
        .get("spec")
        .and_then(|s| s.as_str())
        .ok_or_else(|| anyhow::anyhow!("manifest.json has no spec"))?;
    let file = m
        .get("spec_file")
        .and_then(|s| s.as_str())
        .unwrap_or("manifest.json");
    spec::from_text(spec_text, Path::new(file)).map_err(|e| anyhow::anyhow!("{e}"))
}

fn verdict_md(v: Verdict) -> String {
    match v {
        Verdict::Holds => "holds".into(),
        Verdict::Fails => "**FAILS**".into(),
        Verdict::Partly => "**partly**".into(),
        v => format!("*{v}*"),
    }
}

fn claim_anchor(exp: &str, name: &str) -> String {
    format!("claim-{}-{}", slug(exp), slug(name))
}

fn evidence(r: &ConjectureResult) -> String {
    match &r.result {
        Ok(res) => res.summary(),
        Err(e) => format!("error: {}", e.lines().next().unwrap_or("")),
    }
}

/// The section of one experiment: its description, sweeps and conjectures.
fn experiment_section(
    e: &Experiment,
    out: &Path,
    body: &mut Vec<Block>,
) -> Result<Vec<ConjectureResult>> {
    let edir = out.join(&e.name);
    body.push(Block::Heading(
        2,
        format!("{} — {}", e.name, cell(&e.title)),
        format!("exp-{}", slug(&e.name)),
    ));
    if !e.description.is_empty() {
        body.push(Block::Para(cell(&e.description)));
    }
    let mut links = vec![format!("spec `{}`", e.file.display())];
    for f in ["manifest.json", "conjectures.md"] {
        if edir.join(f).is_file() {
            links.push(format!("[{f}]({})", href(&rel(&edir.join(f), out))));
        }
    }
    body.push(Block::Para(links.join(" · ")));
    for s in &e.sweeps {
        sweep_section(e, s, out, body)?;
    }
    if e.conjectures.is_empty() {
        return Ok(vec![]);
    }
    let results = check::check_conjectures(e, out, &check::CheckOptions::default());
    conjecture_section(e, &results, out, body);
    Ok(results)
}

/// The section of one sweep: data links, formulas, tables and figures.
fn sweep_section(e: &Experiment, s: &Sweep, out: &Path, body: &mut Vec<Block>) -> Result<()> {
    let dir = s.dir(out, &e.name);
    body.push(Block::Heading(
        3,
        format!("{} / {}", e.name, s.name),
        format!("sweep-{}-{}", slug(&e.name), slug(&s.name)),
    ));
    let present = dir.present();
    let links = if present.is_empty() {
        "no datasets stored yet".to_string()
    } else {
        present
            .iter()
            .map(|d| {
                format!(
                    "[{}]({}/)",
                    d.name,
                    href(&rel(&dir.dataset_dir(d.name), out))
                )
            })
            .collect::<Vec<_>>()
            .join(" · ")
    };
    body.push(Block::Para(format!(
        "{} (family `{}`). Data: {links}",
        cell(&s.title),
        s.family.name()
    )));
    if present.is_empty() {
        return Ok(());
    }
    forms::closed_forms(&dir, out, body)?;
    forms::plane_forms(&dir, &s.title, out, body)?;
    tables(&dir.tables_dir(), out, body);
    let figs = files_in(&dir.figures_dir(), "png");
    for (i, f) in figs.iter().enumerate() {
        let link = rel(f, out);
        if i < MAX_FIGURES {
            body.push(Block::Image(link.clone(), link));
        } else {
            body.push(Block::Para(format!("Figure [{}]({})", link, href(&link))));
        }
    }
    Ok(())
}

/// The rendered Markdown tables of a sweep, inlined (cut) with links.
fn tables(dir: &Path, out: &Path, body: &mut Vec<Block>) {
    for md in files_in(dir, "md") {
        if md.file_name().is_some_and(|n| n == "forms.md") {
            continue;
        }
        let link = rel(&md, out);
        let csv = md.with_extension("csv");
        let mut l = format!("Table [{}]({})", link, href(&link));
        if csv.is_file() {
            let _ = write!(l, " · [CSV]({})", href(&rel(&csv, out)));
        }
        body.push(Block::Para(l));
        match inline_md(&md, &link) {
            Some(text) => body.push(Block::Md(text, 3)),
            None => body.push(Block::Para(
                "(too wide to show here: follow the link)".into(),
            )),
        }
    }
}

/// The verdicts of an experiment's conjectures.
fn conjecture_section(
    e: &Experiment,
    results: &[ConjectureResult],
    out: &Path,
    body: &mut Vec<Block>,
) {
    body.push(Block::Heading(
        3,
        format!("{}: conjectures", e.name),
        format!("conj-{}", slug(&e.name)),
    ));
    let counts: Vec<String> = check::verdict_counts(results)
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .map(|(v, n)| format!("{n} {v}"))
        .collect();
    body.push(Block::Para(format!(
        "{} claims: {}.",
        results.len(),
        counts.join(", ")
    )));
    let rows = results.iter().map(|r| conjecture_row(e, r, out)).collect();
    body.push(Block::Table(
        ["name", "claim", "source", "verdict", "evidence", "data"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        rows,
    ));
}

fn conjecture_row(e: &Experiment, r: &ConjectureResult, out: &Path) -> Vec<String> {
    let c = &r.conjecture;
    let mut claim = String::new();
    if !c.says.is_empty() {
        let _ = write!(claim, "{}<br>", cell(&c.says));
    }
    claim.push_str(&cell(&code(&c.claim)));
    if let Some(f) = &c.filter {
        let _ = write!(claim, " where {}", cell(&code(f)));
    }
    let data = e
        .sweeps
        .iter()
        .find(|s| s.name == c.sweep)
        .map(|s| {
            format!(
                "{}/",
                href(&rel(&s.dir(out, &e.name).dataset_dir(&c.dataset), out))
            )
        })
        .unwrap_or_default();
    vec![
        format!(
            "<a id=\"{}\"></a>{}",
            claim_anchor(&e.name, &c.name),
            cell(&c.name)
        ),
        claim,
        cell(&c.source),
        verdict_md(r.verdict()),
        cell(&evidence(r)),
        format!("[{} / {}]({})", cell(&c.sweep), cell(&c.dataset), data),
    ]
}

/// The top of the report: verdict counts, failing claims, the experiments.
fn head(exps: &[Experiment], all: &[(String, ConjectureResult)]) -> (Vec<Block>, ReportSummary) {
    let results: Vec<ConjectureResult> = all.iter().map(|(_, r)| r.clone()).collect();
    let counts = check::verdict_counts(&results);
    let mut head: Vec<Block> = vec![Block::Heading(1, "nimlab report".into(), "top".into())];
    let line = counts
        .iter()
        .map(|(v, n)| format!("{n} {v}"))
        .collect::<Vec<_>>()
        .join(", ");
    head.push(Block::Para(format!(
        "{} experiments, {} claims: {line}.",
        exps.len(),
        results.len()
    )));
    let failing: Vec<&(String, ConjectureResult)> = all
        .iter()
        .filter(|(_, r)| {
            matches!(
                r.verdict(),
                Verdict::Fails | Verdict::Partly | Verdict::Error
            )
        })
        .collect();
    if !failing.is_empty() {
        head.push(Block::Heading(2, "Failing claims".into(), "failing".into()));
        head.push(Block::List(
            failing
                .iter()
                .map(|(e, r)| {
                    format!(
                        "[{e} / {}](#{}) — {}: {}",
                        cell(&r.conjecture.name),
                        claim_anchor(e, &r.conjecture.name),
                        cell(&r.conjecture.says),
                        cell(&evidence(r))
                    )
                })
                .collect(),
        ));
    }
    head.push(Block::Heading(
        2,
        "Experiments".into(),
        "experiments".into(),
    ));
    head.push(Block::List(
        exps.iter()
            .map(|e| format!("[{}](#exp-{}) — {}", e.name, slug(&e.name), cell(&e.title)))
            .collect(),
    ));
    let summary = ReportSummary {
        experiments: exps.len(),
        counts,
        failing: failing
            .iter()
            .map(|(e, r)| format!("{e}/{}: {}", r.conjecture.name, evidence(r)))
            .collect(),
        files: vec![],
    };
    (head, summary)
}

/// Builds the report's blocks and returns them with the summary.
fn build(exps: &[Experiment], out: &Path) -> Result<(Vec<Block>, ReportSummary)> {
    let mut body: Vec<Block> = Vec::new();
    let mut all: Vec<(String, ConjectureResult)> = Vec::new();
    for e in exps {
        let results = experiment_section(e, out, &mut body)?;
        all.extend(results.into_iter().map(|r| (e.name.clone(), r)));
    }
    let (mut blocks, summary) = head(exps, &all);
    blocks.extend(body);
    Ok((blocks, summary))
}

/// Writes `OUT/REPORT.md` and `OUT/REPORT.html` over the experiments.
pub fn write_report(exps: &[Experiment], out: &Path) -> Result<ReportSummary> {
    let (blocks, mut summary) = build(exps, out)?;
    let md = out.join("REPORT.md");
    let html = out.join("REPORT.html");
    store::write_atomic(&md, to_markdown(&blocks).as_bytes())?;
    store::write_atomic(&html, to_html(&blocks).as_bytes())?;
    summary.files = vec![md, html];
    Ok(summary)
}
