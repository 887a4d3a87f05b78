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
pub mod cache;
mod forms;
mod grid;
mod student;

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use rayon::prelude::*;

use crate::check::{self, ConjectureResult};
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
    /// Verdict counts over all claims (holds, fails, then the others seen).
    pub counts: Vec<(String, usize)>,
    /// `experiment/name: summary` of each claim that does not hold.
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

fn verdict_md(v: &str) -> String {
    match v {
        v if v.starts_with("holds") => v.into(),
        "fails" => "**FAILS**".into(),
        "partly" => "**partly**".into(),
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

/// One claim of the report, as the first page lists it.
#[derive(Clone, Debug)]
struct Claim {
    name: String,
    says: String,
    verdict: String,
    evidence: String,
    /// The mark beside the verdict, `marked (cannot fail)` (empty: none).
    marked: String,
}

impl Claim {
    fn to_json(&self) -> serde_json::Value {
        serde_json::json!([
            self.name,
            self.says,
            self.verdict,
            self.evidence,
            self.marked
        ])
    }
    fn from_json(v: &serde_json::Value) -> Option<Claim> {
        let a = v.as_array()?;
        let s = |i: usize| a.get(i)?.as_str().map(str::to_string);
        Some(Claim {
            name: s(0)?,
            says: s(1)?,
            verdict: s(2)?,
            evidence: s(3)?,
            marked: s(4)?,
        })
    }
    /// The verdict as a line shows it, with the mark beside it.
    fn verdict_shown(&self) -> String {
        match self.marked.is_empty() {
            true => verdict_md(&self.verdict),
            false => format!("{}, {}", verdict_md(&self.verdict), self.marked),
        }
    }
}

/// One sweep's section (heading text, anchor, blocks).
struct SweepPart {
    title: String,
    anchor: String,
    blocks: Vec<Block>,
}

/// One experiment: its introduction, sweeps and claims.
struct ExpPart {
    name: String,
    title: String,
    intro: Vec<Block>,
    sweeps: Vec<SweepPart>,
    claims: Vec<Claim>,
    claim_blocks: Vec<Block>,
    /// The summary in sentences at the top of its section.
    summary: Vec<Block>,
}

/// How the report stage goes.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReportOptions {
    /// Ignore the cache: rebuild every sweep.
    pub rebuild: bool,
    /// No progress bar.
    pub quiet: bool,
}

/// What the report stage would rebuild: sweeps (stale, all) and the seconds
/// the stale ones took when last built (those never built are not counted).
pub fn plan(exps: &[Experiment], out: &Path) -> (usize, usize, f64) {
    let (mut stale, mut all, mut secs) = (0, 0, 0.0);
    for e in exps {
        let keys = cache::keys(e, out);
        for (s, key) in e.sweeps.iter().zip(&keys.sweeps) {
            all += 1;
            let path = cache::path(out, &e.name, &s.name);
            if cache::load(&path, key.as_deref()).is_none() {
                stale += 1;
                secs += last_seconds(&path);
            }
        }
    }
    (stale, all, secs)
}

/// The seconds a sweep's section took when it was last built.
fn last_seconds(path: &Path) -> f64 {
    fs::read(path)
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .and_then(|v| v.get("data")?.get("seconds")?.as_f64())
        .unwrap_or(0.0)
}

/// The section of one sweep, from the cache or built (and cached).
fn sweep_part(
    e: &Experiment,
    s: &Sweep,
    key: Option<&str>,
    out: &Path,
    rebuild: bool,
) -> Result<SweepPart> {
    let path = cache::path(out, &e.name, &s.name);
    let cached = (!rebuild)
        .then(|| cache::load(&path, key))
        .flatten()
        .and_then(|d| {
            d.get("blocks")?
                .as_array()?
                .iter()
                .map(Block::from_json)
                .collect::<Option<Vec<_>>>()
        });
    let blocks = match cached {
        Some(b) => b,
        None => {
            let t0 = std::time::Instant::now();
            let mut b = Vec::new();
            sweep_section(e, s, out, &mut b)?;
            let data = serde_json::json!({
                "seconds": t0.elapsed().as_secs_f64(),
                "blocks": b.iter().map(Block::to_json).collect::<Vec<_>>(),
            });
            cache::save(&path, key, data)?;
            b
        }
    };
    Ok(SweepPart {
        title: format!("{} / {}", e.name, s.name),
        anchor: format!("sweep-{}-{}", slug(&e.name), slug(&s.name)),
        blocks,
    })
}

/// The claims of an experiment, from the cache or checked (and cached).
fn claims_part(
    e: &Experiment,
    key: Option<&str>,
    out: &Path,
    rebuild: bool,
) -> Result<(Vec<Claim>, Vec<Block>)> {
    if e.conjectures.is_empty() {
        return Ok((vec![], vec![]));
    }
    let path = cache::path(out, &e.name, "_claims");
    let cached = (!rebuild).then(|| cache::load(&path, key)).flatten();
    if let Some(d) = cached {
        let claims = d.get("claims").and_then(|c| {
            c.as_array()?
                .iter()
                .map(Claim::from_json)
                .collect::<Option<Vec<_>>>()
        });
        let blocks = d.get("blocks").and_then(|c| {
            c.as_array()?
                .iter()
                .map(Block::from_json)
                .collect::<Option<Vec<_>>>()
        });
        if let (Some(c), Some(b)) = (claims, blocks) {
            return Ok((c, b));
        }
    }
    let mut results = check::check_conjectures(e, out, &check::CheckOptions::default());
    // Failures first within a report (a stable sort: spec order otherwise).
    results.sort_by_key(|r| student::verdict_rank(&r.verdict_text()));
    let mut blocks = Vec::new();
    conjecture_section(e, &results, out, &mut blocks);
    let claims: Vec<Claim> = results
        .iter()
        .map(|r| Claim {
            name: r.conjecture.name.clone(),
            says: r.conjecture.says.clone(),
            verdict: r.verdict_text(),
            evidence: r.evidence_sentence(),
            marked: r.mark_label().unwrap_or_default(),
        })
        .collect();
    let data = serde_json::json!({
        "claims": claims.iter().map(Claim::to_json).collect::<Vec<_>>(),
        "blocks": blocks.iter().map(Block::to_json).collect::<Vec<_>>(),
    });
    cache::save(&path, key, data)?;
    Ok((claims, blocks))
}

/// An experiment's introduction: title, description, links.
fn intro(e: &Experiment, out: &Path) -> Vec<Block> {
    let edir = out.join(&e.name);
    let heading = match student::source(&e.name) {
        Some(_) => format!(
            "{} — {}",
            student::short_name(&e.name, &e.title),
            cell(e.title.split_once(": ").map_or(e.title.as_str(), |t| t.1))
        ),
        None => format!("{} — {}", e.name, cell(&e.title)),
    };
    let mut body = vec![Block::Heading(2, heading, format!("exp-{}", slug(&e.name)))];
    if let Some(src) = student::source(&e.name) {
        body.push(Block::Para(format!(
            "「{}」, {}. *The game:* {}",
            src.zh, src.venue, src.game
        )));
    }
    if !e.description.is_empty() {
        body.push(Block::Para(cell(&e.description)));
    }
    let mut links = vec![format!(
        "regenerate: `nimlab run {} --out DIR`",
        e.file.display()
    )];
    for f in ["manifest.json", "conjectures.md"] {
        if edir.join(f).is_file() {
            links.push(format!("[{f}]({})", href(&rel(&edir.join(f), out))));
        }
    }
    body.push(Block::Para(links.join(" · ")));
    body
}

/// The section of one sweep: data links, formulas, tables and figures.
fn sweep_section(e: &Experiment, s: &Sweep, out: &Path, body: &mut Vec<Block>) -> Result<()> {
    let dir = s.dir(out, &e.name);
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
    grid::write_grids(&dir.figures_dir())?;
    figures(&dir.figures_dir(), out, s.family.views(), body);
    Ok(())
}

/// A sweep's figures: a small-multiples grid first when there is one, then
/// the single figures in natural order, the first few inline and the rest
/// linked on one line.
fn figures(dir: &Path, out: &Path, views: &[&crate::view::View], body: &mut Vec<Block>) {
    let (grids, singles): (Vec<PathBuf>, Vec<PathBuf>) =
        files_in(dir, "png").into_iter().partition(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("grid-"))
        });
    for g in &grids {
        let link = rel(g, out);
        let caption = grid::caption(g, dir);
        body.push(Block::Para(format!("Small multiples: {}.", cell(&caption))));
        let stem = stem_of(g);
        let what = alt_text(stem.trim_start_matches("grid-"), views);
        body.push(Block::Image(
            format!("Small multiples of {what}, {caption}"),
            link,
        ));
    }
    let inline = if grids.is_empty() { MAX_FIGURES } else { 0 };
    let mut more = Vec::new();
    for (i, f) in singles.iter().enumerate() {
        let link = rel(f, out);
        if i < inline {
            body.push(Block::Image(alt_text(&stem_of(f), views), link));
        } else {
            let name = f
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .to_string();
            more.push(format!("[{name}]({})", href(&link)));
        }
    }
    if !more.is_empty() {
        body.push(Block::Para(format!(
            "{} figures{}: {}",
            more.len(),
            if inline > 0 { " more" } else { " one by one" },
            more.join(" · ")
        )));
    }
}

fn stem_of(f: &Path) -> String {
    f.file_stem()
        .unwrap_or_default()
        .to_string_lossy()
        .to_string()
}

/// What a figure shows, from its file name: the title of the view that drew
/// it (`loss_scatter-min_2_max_5` → "Loss set … — min 2 max 5"), else its
/// name in words.
fn alt_text(stem: &str, views: &[&crate::view::View]) -> String {
    let words = |s: &str| s.replace(['_', '-'], " ").trim().to_string();
    let view = views
        .iter()
        .filter(|v| stem == v.name || stem.starts_with(&format!("{}-", v.name)))
        .max_by_key(|v| v.name.len());
    match view {
        Some(v) if stem.len() > v.name.len() => {
            format!("{} — {}", v.title, words(&stem[v.name.len() + 1..]))
        }
        Some(v) => v.title.to_string(),
        None => format!("Figure: {}", words(stem)),
    }
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

/// The verdicts of an experiment's conjectures: per claim its statement,
/// verdict, one sentence of evidence and the first counterexample's picture;
/// the full table (expressions, complete evidence, data) collapsed below.
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
    let marked = match check::marked_count(results) {
        0 => String::new(),
        n => format!("; {n} marked (could not have come out otherwise: the mark says why)"),
    };
    body.push(Block::Para(format!(
        "{} claims: {}{marked}.",
        results.len(),
        counts.join(", ")
    )));
    let related = student::related(e);
    for r in results {
        let mut b = Vec::new();
        claim_blocks(e, r, &mut b);
        let i = e
            .conjectures
            .iter()
            .position(|c| c.name == r.conjecture.name);
        if let Some(line) = i.and_then(|i| student::related_line(e, &related[i])) {
            b.push(line);
        }
        let class = student::verdict_class(&r.verdict_text());
        body.push(Block::Claim(class.to_string(), b));
    }
    let rows = results.iter().map(|r| conjecture_row(e, r, out)).collect();
    body.push(Block::Details(
        format!(
            "The full table: each claim as checked (its expression), the complete evidence and the data ({} claims)",
            results.len()
        ),
        vec![Block::Table(
            ["name", "claim", "source", "verdict", "evidence", "data"]
                .iter()
                .map(|s| s.to_string())
                .collect(),
            rows,
        )],
    ));
}

/// One claim as a reader meets it: name and verdict, the statement in full,
/// its source, one sentence of evidence, the counterexample drawn.
fn claim_blocks(e: &Experiment, r: &ConjectureResult, body: &mut Vec<Block>) {
    let c = &r.conjecture;
    let mut verdict = verdict_md(&r.verdict_text());
    if let Some(label) = r.mark_label() {
        let _ = write!(verdict, ", {label}");
    }
    body.push(Block::Heading(
        4,
        format!("{} — {verdict}", cell(&c.name)),
        claim_anchor(&e.name, &c.name),
    ));
    if !c.says.is_empty() {
        body.push(Block::Para(cell(&c.says)));
    }
    let mut from = format!("Source: {}.", cell(&c.source).trim_end_matches('.'));
    let readings = r.other_readings();
    if !readings.is_empty() {
        let _ = write!(from, " {}.", cell(&readings));
    }
    body.push(Block::Para(from));
    // A claim or part the spec marks (`marked:`) as unable to fail: why,
    // under its verdict.
    if let Some(m) = &c.marked {
        body.push(Block::Para(format!(
            "**{}**: {}",
            cell(&m.heading()),
            cell(&m.why)
        )));
    }
    body.push(Block::Para(format!(
        "**Evidence.** {}",
        cell(&r.evidence_sentence())
    )));
    if let Some((at, picture)) = r.drawing() {
        body.push(Block::Para(format!(
            "The first counterexample, {}:",
            cell(&at)
        )));
        body.push(Block::Pre(picture.to_string()));
    }
    if let Some(why) = r.first_reason() {
        body.push(Block::Para(format!("**Move by move.** {}", cell(why))));
    }
}

fn conjecture_row(e: &Experiment, r: &ConjectureResult, out: &Path) -> Vec<String> {
    let c = &r.conjecture;
    let mut claim = String::new();
    if !c.says.is_empty() {
        let _ = write!(claim, "{}<br>", cell(&c.says));
    }
    // The expression is one click away: the statement and verdict first.
    claim.push_str("<details><summary>as checked</summary>");
    claim.push_str(&cell(&code(&c.claim)));
    if let Some(f) = &c.filter {
        let _ = write!(claim, " where {}", cell(&code(f)));
    }
    // The compared row (`other:`) and the strategy played out (`strategy:`),
    // collapsed with the claim: expressions, not the statement.
    for (field, exprs) in [("other", &c.other), ("strategy", &c.strategy)] {
        if !exprs.is_empty() {
            let _ = write!(claim, "<br>{field}: {}", cell(&assignments(exprs)));
        }
    }
    claim.push_str("</details>");
    let readings = r.other_readings();
    if !readings.is_empty() {
        let _ = write!(claim, "<br>{}", cell(&readings));
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
        cell(&c.name),
        claim,
        cell(&c.source),
        verdict_md(&r.verdict_text()),
        cell(&evidence(r)),
        format!("[{} / {}]({})", cell(&c.sweep), cell(&c.dataset), data),
    ]
}

/// `` `r` = `r - 1`; `a_parity` = `b_parity` ``: a spec's column
/// expressions (`other:`, `strategy:`), each as code.
fn assignments(exprs: &[(String, String)]) -> String {
    exprs
        .iter()
        .map(|(col, e)| format!("{} = {}", code(col), code(e)))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Verdict counts over claims, in order of first appearance of
/// holds, fails, then any other verdict.
fn counts(claims: &[&Claim]) -> Vec<(String, usize)> {
    let mut v: Vec<(String, usize)> = ["holds", "fails"]
        .iter()
        .map(|s| (s.to_string(), 0))
        .collect();
    for c in claims {
        // `holds, assuming …` counts as holds.
        let verdict = c.verdict.split(", assuming").next().unwrap_or("");
        match v.iter_mut().find(|(k, _)| *k == verdict) {
            Some((_, n)) => *n += 1,
            None => v.push((verdict.to_string(), 1)),
        }
    }
    v.retain(|(_, n)| *n > 0);
    v
}

fn counts_text(c: &[(String, usize)]) -> String {
    c.iter()
        .map(|(v, n)| format!("{n} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The verdict counts of `claims`, then how many are marked:
/// `40 holds, 2 fails; 1 marked`.
fn counts_line(claims: &[&Claim]) -> String {
    let mut s = counts_text(&counts(claims));
    let marked = claims.iter().filter(|c| !c.marked.is_empty()).count();
    if marked > 0 {
        let _ = write!(s, "; {marked} marked");
    }
    s
}

/// The claims of an experiment, one line each: verdict, name and what it
/// says (in full: a statement is never cut), one sentence of evidence; the name
/// links to the evidence.
fn claim_lines(p: &ExpPart, page: &str) -> Vec<String> {
    p.claims
        .iter()
        .map(|c| {
            let says = &c.says;
            format!(
                "{} [{}]({page}#{}) — {} — {}",
                c.verdict_shown(),
                cell(&c.name),
                claim_anchor(&p.name, &c.name),
                cell(says),
                cell(&c.evidence)
            )
        })
        .collect()
}

/// The page of one experiment (`REPORT-<experiment>.md`).
fn exp_page_name(name: &str) -> String {
    format!("REPORT-{name}.md")
}

/// The first page: per experiment its claims and a table of contents of its
/// sweeps, every line one link away from the evidence.
fn first_page(parts: &[ExpPart], page_of: &dyn Fn(&str) -> String) -> Vec<Block> {
    let all: Vec<&Claim> = parts.iter().flat_map(|p| &p.claims).collect();
    let mut b = vec![Block::Heading(1, "nimlab report".into(), "top".into())];
    let mut line = crate::progress::counted(parts.len() as u64, "experiment");
    if !all.is_empty() {
        let _ = write!(line, ", {} claims: {}", all.len(), counts_line(&all));
    }
    b.push(Block::Para(line + "."));
    let fronts: Vec<(&str, &str, &[Claim])> = parts
        .iter()
        .map(|p| (p.name.as_str(), p.title.as_str(), p.claims.as_slice()))
        .collect();
    b.extend(student::front(&fronts, page_of));
    b.extend(student::glossary());
    if page_of("x").is_empty() {
        // The one HTML page: the sections follow.
        return b;
    }
    for p in parts {
        let page = page_of(&p.name);
        b.push(Block::Heading(
            2,
            format!("{} — {}", p.name, cell(&p.title)),
            format!("first-{}", slug(&p.name)),
        ));
        if !p.claims.is_empty() {
            let c: Vec<&Claim> = p.claims.iter().collect();
            b.push(Block::Para(format!(
                "{} claims: {}. [Verdicts with evidence]({page}#conj-{})",
                c.len(),
                counts_line(&c),
                slug(&p.name)
            )));
            b.push(Block::List(claim_lines(p, &page)));
        }
        b.push(Block::Para(format!(
            "Sweeps: {}",
            p.sweeps
                .iter()
                .map(|s| format!(
                    "[{}]({page}#{})",
                    s.title.rsplit(" / ").next().unwrap_or(""),
                    s.anchor
                ))
                .collect::<Vec<_>>()
                .join(" · ")
        )));
    }
    b
}

/// An experiment's page (Markdown): introduction, sweeps, claims.
fn exp_blocks(p: &ExpPart) -> Vec<Block> {
    let mut b = vec![Block::Para("[← the report](REPORT.md)".into())];
    b.extend(p.intro.iter().cloned());
    b.extend(p.summary.iter().cloned());
    b.extend(p.claim_blocks.iter().cloned());
    for s in &p.sweeps {
        b.push(Block::Heading(3, s.title.clone(), s.anchor.clone()));
        b.extend(s.blocks.iter().cloned());
    }
    b
}

/// The whole report as one HTML page: the first page, then every
/// experiment with its sweeps collapsed; a sticky table of contents.
fn html(parts: &[ExpPart]) -> String {
    let mut nav = String::from(
        "<details id=\"toc-fold\" open><summary>Contents</summary>\n<p><a href=\"#top\"><b>nimlab report</b></a> · <a href=\"#glossary\">Glossary</a></p>\n",
    );
    nav.push_str(student::FILTER_HTML);
    nav.push_str("<ul>\n");
    for p in parts {
        let _ = writeln!(
            nav,
            "<li><a href=\"#exp-{}\">{}</a><ul>",
            slug(&p.name),
            blocks::inline(&student::short_name(&p.name, &p.title))
        );
        if !p.claims.is_empty() {
            let _ = writeln!(
                nav,
                "<li><a href=\"#conj-{}\">claims</a></li>",
                slug(&p.name)
            );
        }
        for s in &p.sweeps {
            let _ = writeln!(
                nav,
                "<li><a href=\"#{}\">{}</a></li>",
                s.anchor,
                blocks::inline(s.title.rsplit(" / ").next().unwrap_or(""))
            );
        }
        nav.push_str("</ul></li>\n");
    }
    nav.push_str("</ul>\n</details>\n");
    // On the one page, links to an experiment's page are anchors.
    let mut body = to_html(&first_page(parts, &|_| String::new()));
    for p in parts {
        body.push_str(&to_html(&p.intro));
        body.push_str(&to_html(&p.summary));
        body.push_str(&to_html(&p.claim_blocks));
        if !p.sweeps.is_empty() {
            let _ = writeln!(
                body,
                "<h3 id=\"data-{}\">{}: data and figures</h3>",
                slug(&p.name),
                blocks::inline(&student::short_name(&p.name, &p.title))
            );
        }
        for s in &p.sweeps {
            let _ = writeln!(
                body,
                "<details id=\"{}\"><summary>{}</summary>",
                s.anchor,
                blocks::inline(&s.title)
            );
            body.push_str(&to_html(&s.blocks));
            body.push_str("</details>\n");
        }
    }
    blocks::html_page("nimlab report", &nav, &body)
}

/// Builds every experiment's part, in parallel, from the cache where it is
/// fresh; a progress bar counts the sweeps.
fn build(exps: &[Experiment], out: &Path, opts: ReportOptions) -> Result<Vec<ExpPart>> {
    let keys: Vec<cache::Keys> = exps.par_iter().map(|e| cache::keys(e, out)).collect();
    let total: usize = exps.iter().map(|e| e.sweeps.len() + 1).sum();
    let pb = crate::sweep::progress_bar(total as u64, opts.quiet);
    pb.set_prefix("report");
    let parts = exps
        .par_iter()
        .zip(&keys)
        .map(|(e, k)| -> Result<ExpPart> {
            let sweeps = e
                .sweeps
                .par_iter()
                .zip(&k.sweeps)
                .map(|(s, key)| {
                    let r = sweep_part(e, s, key.as_deref(), out, opts.rebuild)
                        .with_context(|| format!("report on {}/{}", e.name, s.name));
                    pb.inc(1);
                    pb.set_message(format!("{}/{}", e.name, s.name));
                    r
                })
                .collect::<Result<Vec<_>>>()?;
            let (claims, claim_blocks) = claims_part(e, k.claims.as_deref(), out, opts.rebuild)?;
            pb.inc(1);
            Ok(ExpPart {
                name: e.name.clone(),
                title: e.title.clone(),
                intro: intro(e, out),
                summary: student::summary(e, &claims),
                sweeps,
                claims,
                claim_blocks,
            })
        })
        .collect::<Result<Vec<_>>>();
    pb.finish_and_clear();
    parts
}

/// Writes the CJK font `REPORT.html` names, and its licence, under `OUT/fonts/`.
fn write_font(out: &Path) -> Result<Vec<PathBuf>> {
    let (font, license) = crate::render::cjk_font();
    let path = out.join(blocks::CJK_FONT_FILE);
    let dir = out.join("fonts");
    let lic = dir.join("NotoSansCJKtc-LICENSE.txt");
    fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    store::write_atomic(&path, font)?;
    store::write_atomic(&lic, license.as_bytes())?;
    Ok(vec![path, lic])
}

/// Writes `OUT/REPORT.md` (the first page), `OUT/REPORT-<experiment>.md`
/// (one page per experiment) and `OUT/REPORT.html` (everything, one page).
#[cfg(test)]
pub fn write_report(exps: &[Experiment], out: &Path) -> Result<ReportSummary> {
    write_report_with(exps, out, ReportOptions::default())
}

/// [`write_report`] with options.
pub fn write_report_with(
    exps: &[Experiment],
    out: &Path,
    opts: ReportOptions,
) -> Result<ReportSummary> {
    let mut parts = build(exps, out, opts)?;
    parts.sort_by_key(|p| student::order_key(&p.name));
    let md = out.join("REPORT.md");
    let html_path = out.join("REPORT.html");
    let first = first_page(&parts, &|n| exp_page_name(n));
    store::write_atomic(&md, to_markdown(&first).as_bytes())?;
    let mut files = vec![md];
    for p in &parts {
        let path = out.join(exp_page_name(&p.name));
        store::write_atomic(&path, to_markdown(&exp_blocks(p)).as_bytes())?;
        files.push(path);
    }
    files.extend(write_font(out)?);
    store::write_atomic(&html_path, html(&parts).as_bytes())?;
    files.push(html_path);
    let all: Vec<&Claim> = parts.iter().flat_map(|p| &p.claims).collect();
    let failing = parts
        .iter()
        .flat_map(|p| p.claims.iter().map(move |c| (p, c)))
        .filter(|(_, c)| !c.verdict.starts_with("holds") && c.verdict != "true by construction")
        .map(|(p, c)| format!("{}/{}: {}", p.name, c.name, c.evidence))
        .collect();
    Ok(ReportSummary {
        experiments: parts.len(),
        counts: counts(&all),
        failing,
        files,
    })
}
