//! One report over everything in an output directory: `OUT/REPORT.md` and
//! `OUT/REPORT.html` (the same content, pictures inline).
//!
//! Built from stored results only (no solving): per experiment its title and
//! description, per sweep links to its datasets, its rendered tables (small
//! ones inline, long ones cut with a link), its figures, the closed forms its
//! period tables imply (`closed_form` of `periods`, the moduli of `moduli`),
//! the simple forms fitted to two-heap loss sets ([`crate::fit`], written to
//! the sweep's `tables/forms.md`), and the experiment's conjecture verdicts
//! with their evidence. At the top: verdict counts over all claims and the
//! list of failing claims with their first counterexamples.
//!
//! Which experiments: those whose specs are given, plus every other
//! experiment found in the output directory (a folder with a
//! `manifest.json`), whose spec is read back from the manifest (`spec`, the
//! text verbatim). See `docs/report.md`.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::check::{self, ConjectureResult, Verdict};
use crate::fit;
use crate::spec::{self, Experiment};
use crate::store::{self, SweepDir};
use crate::table::Table;

/// Rows of a Markdown table shown inline before it is cut.
const MAX_TABLE_ROWS: usize = 25;
/// Lines longer than this are not inlined (a wide grid): linked instead.
const MAX_LINE_CHARS: usize = 2000;
/// Figures shown inline per sweep; the others are linked.
const MAX_FIGURES: usize = 12;

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

// ---------------------------------------------------------------------------
// Blocks: the report is built once as blocks, then written as Markdown and HTML.

enum Block {
    /// Level, inline Markdown text, anchor id.
    Heading(u8, String, String),
    /// A paragraph of inline Markdown.
    Para(String),
    /// A list of inline Markdown items.
    List(Vec<String>),
    /// Header and rows, cells in inline Markdown.
    Table(Vec<String>, Vec<Vec<String>>),
    /// Alt text and relative path.
    Image(String, String),
    /// Markdown from a rendered file (headings demoted by `u8` levels).
    Md(String, u8),
}

fn slug(s: &str) -> String {
    let mut o = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            o.push(c.to_ascii_lowercase());
        } else if !o.ends_with('-') {
            o.push('-');
        }
    }
    o.trim_matches('-').to_string()
}

/// A Markdown link target: spaces and parentheses escaped.
fn href(p: &str) -> String {
    p.replace(' ', "%20")
        .replace('(', "%28")
        .replace(')', "%29")
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn code(s: &str) -> String {
    let s = s.replace('\n', " ");
    if s.contains('`') {
        format!("`` {s} ``")
    } else {
        format!("`{s}`")
    }
}

fn rel(path: &Path, out: &Path) -> String {
    path.strip_prefix(out)
        .unwrap_or(path)
        .components()
        .map(|c| c.as_os_str().to_string_lossy().to_string())
        .collect::<Vec<_>>()
        .join("/")
}

fn files_in(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    v.sort();
    v
}

/// A rendered Markdown table file, cut to `MAX_TABLE_ROWS` rows with a link
/// to the whole file; `None` when it is too wide to inline.
fn inline_md(path: &Path, link: &str) -> Option<String> {
    let text = fs::read_to_string(path).ok()?;
    if text.lines().any(|l| l.chars().count() > MAX_LINE_CHARS) {
        return None;
    }
    let mut out = String::new();
    let mut rows = 0usize;
    let mut cut = 0usize;
    for line in text.lines() {
        let is_row = line.starts_with('|') && !line.starts_with("|---");
        if is_row {
            rows += 1;
            // The header is row 1.
            if rows > MAX_TABLE_ROWS + 1 {
                cut += 1;
                continue;
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    if cut > 0 {
        let _ = writeln!(
            out,
            "\n… {cut} more rows: [the whole table]({})",
            href(link)
        );
    }
    Some(out)
}

/// Values of a string-ish column as text ("" for a missing column).
fn text(t: &Table, col: &str, row: usize) -> String {
    match t.cell(col, row) {
        Some(check_cell) => match check_cell {
            crate::table::Cell::Null => String::new(),
            c => c.to_string(),
        },
        None => String::new(),
    }
}

fn dataset_links(dir: &SweepDir, out: &Path) -> String {
    let ds = dir.datasets();
    if ds.is_empty() {
        return "no datasets stored yet".to_string();
    }
    ds.iter()
        .map(|d| format!("[{d}]({}/)", href(&rel(&dir.dataset_dir(d), out))))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// Proposed closed forms of a sweep: the `periods` dataset's `closed_form`
/// and the `moduli` dataset's modulus.
fn formulas(dir: &SweepDir, out: &Path, blocks: &mut Vec<Block>) -> Result<()> {
    if let Some(t) = dir.read("periods")?
        && t.column("closed_form").is_some()
    {
        let label_cols: Vec<&str> = ["rule", "sequence", "values"]
            .into_iter()
            .filter(|c| t.column(c).is_some())
            .collect();
        let extra: Vec<&str> = if t.column("rule").is_none() {
            ["take", "play"]
                .into_iter()
                .filter(|c| t.column(c).is_some())
                .collect()
        } else {
            vec![]
        };
        let mut rows = Vec::new();
        let n = t.rows();
        for i in 0..n.min(MAX_TABLE_ROWS) {
            let mut label: Vec<String> = label_cols.iter().map(|c| text(&t, c, i)).collect();
            label.extend(extra.iter().map(|c| text(&t, c, i)));
            let form = text(&t, "closed_form", i);
            rows.push(vec![
                cell(&label.join(" · ")),
                cell(&text(&t, "status", i)),
                cell(if form.is_empty() {
                    "no period found"
                } else {
                    &form
                }),
            ]);
        }
        blocks.push(Block::Para(format!(
            "**Proposed formulas** (from the period table; proven = a theorem covers the repeat, observed = seen on the range given). Data: [periods]({}/)",
            href(&rel(&dir.dataset_dir("periods"), out))
        )));
        blocks.push(Block::Table(
            vec!["sequence".into(), "status".into(), "closed form".into()],
            rows,
        ));
        if n > MAX_TABLE_ROWS {
            blocks.push(Block::Para(format!(
                "… {} more rows in [periods]({}/).",
                n - MAX_TABLE_ROWS,
                href(&rel(&dir.dataset_dir("periods"), out))
            )));
        }
    }
    if let Some(t) = dir.read("moduli")?
        && t.column("M_text").is_some()
    {
        let n = t.rows();
        let mut rows = Vec::new();
        for i in 0..n.min(MAX_TABLE_ROWS) {
            let label = ["variant", "take"]
                .iter()
                .map(|c| text(&t, c, i))
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(" · ");
            rows.push(vec![
                cell(&label),
                cell(&text(&t, "status", i)),
                cell(&format!("M = {}", text(&t, "M_text", i))),
            ]);
        }
        blocks.push(Block::Para(format!(
            "**Proposed formulas**: the safe states repeat in r with modulus M (proven). Data: [moduli]({}/)",
            href(&rel(&dir.dataset_dir("moduli"), out))
        )));
        blocks.push(Block::Table(
            vec!["rule".into(), "status".into(), "modulus".into()],
            rows,
        ));
        if n > MAX_TABLE_ROWS {
            blocks.push(Block::Para(format!(
                "… {} more rows in [moduli]({}/).",
                n - MAX_TABLE_ROWS,
                href(&rel(&dir.dataset_dir("moduli"), out))
            )));
        }
    }
    Ok(())
}

/// Two-heap loss sets: the simple forms, written to `tables/forms.md` and
/// inlined.
fn two_heap_forms(dir: &SweepDir, title: &str, out: &Path, blocks: &mut Vec<Block>) -> Result<()> {
    let parts = dir.parts("positions");
    let Some(first) = parts.first() else {
        return Ok(());
    };
    let head = store::read_parquet(first)?;
    let two = head.column("N1").is_some()
        && head.column("N2").is_some()
        && head.column("N3").is_none()
        && head.column("outcome").is_some();
    if !two {
        return Ok(());
    }
    let Some(t) = dir.read("positions")? else {
        return Ok(());
    };
    let sp = fit::FitSpec {
        x: "N1",
        y: "N2",
        outcome: "outcome",
        member: "P",
        group: t.column("rule").map(|_| "rule"),
    };
    let fits = fit::fit_forms(&t, &sp)?;
    let md = fit::render_markdown(
        &format!("Simple forms of the two-heap loss sets — {title}"),
        &fits,
    );
    let path = dir.root.join("tables").join("forms.md");
    store::write_atomic(&path, md.as_bytes())?;
    let link = rel(&path, out);
    let fitting: Vec<String> = {
        let mut rules: Vec<&str> = Vec::new();
        for f in &fits {
            if !rules.contains(&f.group.as_str()) {
                rules.push(&f.group);
            }
        }
        rules
            .iter()
            .map(|r| {
                let ok: Vec<String> = fits
                    .iter()
                    .filter(|f| f.group == *r && f.fits)
                    .map(|f| format!("{} ({})", f.form, f.parameters))
                    .collect();
                format!(
                    "{}: {}",
                    code(r),
                    if ok.is_empty() {
                        "none of the simple forms fits".to_string()
                    } else {
                        ok.join("; ")
                    }
                )
            })
            .collect()
    };
    blocks.push(Block::Para(format!(
        "**Proposed formulas for the two-heap loss sets** (fitted to the data by `nimlab::fit`: N1 ≡ N2 (mod q); ⌊(N1 mod q)/m⌋ = ⌊(N2 mod q)/m⌋; N1 ≡ N2 ≡ 0 (mod q); lattice shifts — [all forms with counterexamples]({})):",
        href(&link)
    )));
    let n = fitting.len();
    let mut items: Vec<String> = fitting.into_iter().take(MAX_TABLE_ROWS).collect();
    if n > MAX_TABLE_ROWS {
        items.push(format!(
            "… {} more rules in [forms.md]({})",
            n - MAX_TABLE_ROWS,
            href(&link)
        ));
    }
    blocks.push(Block::List(items));
    Ok(())
}

fn verdict_md(v: Verdict) -> String {
    match v {
        Verdict::Holds => "holds".into(),
        Verdict::Fails => "**FAILS**".into(),
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

/// Builds the report's blocks and returns them with the summary.
fn build(exps: &[Experiment], out: &Path) -> Result<(Vec<Block>, ReportSummary)> {
    let mut body: Vec<Block> = Vec::new();
    let mut all: Vec<(String, ConjectureResult)> = Vec::new();
    for e in exps {
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
        if edir.join("manifest.json").is_file() {
            links.push(format!(
                "[manifest.json]({})",
                href(&rel(&edir.join("manifest.json"), out))
            ));
        }
        if edir.join("conjectures.md").is_file() {
            links.push(format!(
                "[conjectures.md]({})",
                href(&rel(&edir.join("conjectures.md"), out))
            ));
        }
        body.push(Block::Para(links.join(" · ")));
        for s in &e.sweeps {
            let dir = SweepDir::new(&edir, &s.name);
            body.push(Block::Heading(
                3,
                format!("{} / {}", e.name, s.name),
                format!("sweep-{}-{}", slug(&e.name), slug(&s.name)),
            ));
            body.push(Block::Para(format!(
                "{} (family `{}`). Data: {}",
                cell(&s.title),
                s.family.name(),
                dataset_links(&dir, out)
            )));
            if !dir.root.is_dir() {
                continue;
            }
            formulas(&dir, out, &mut body)?;
            two_heap_forms(&dir, &s.title, out, &mut body)?;
            let tables_dir = dir.root.join("tables");
            for md in files_in(&tables_dir, "md") {
                if md.file_name().is_some_and(|n| n == "forms.md") {
                    continue;
                }
                let link = rel(&md, out);
                let csv = md.with_extension("csv");
                let mut l = format!("Table [{}]({})", link, href(&link));
                if csv.is_file() {
                    let c = rel(&csv, out);
                    let _ = write!(l, " · [CSV]({})", href(&c));
                }
                body.push(Block::Para(l));
                match inline_md(&md, &link) {
                    Some(text) => body.push(Block::Md(text, 3)),
                    None => body.push(Block::Para(
                        "(too wide to show here: follow the link)".into(),
                    )),
                }
            }
            let figs = files_in(&dir.root.join("figures"), "png");
            for (i, f) in figs.iter().enumerate() {
                let link = rel(f, out);
                if i < MAX_FIGURES {
                    body.push(Block::Image(link.clone(), link));
                } else {
                    body.push(Block::Para(format!("Figure [{}]({})", link, href(&link))));
                }
            }
        }
        if !e.conjectures.is_empty() {
            let results =
                check::check_conjectures(&edir, &e.conjectures, &check::CheckOptions::default());
            body.push(Block::Heading(
                3,
                format!("{}: conjectures", e.name),
                format!("conj-{}", slug(&e.name)),
            ));
            let counts: Vec<String> = check::verdict_counts(&results)
                .into_iter()
                .filter(|(_, n)| *n > 0)
                .map(|(v, n)| format!("{n} {v}"))
                .collect();
            body.push(Block::Para(format!(
                "{} claims: {}.",
                results.len(),
                counts.join(", ")
            )));
            let mut rows = Vec::new();
            for r in &results {
                let c = &r.conjecture;
                let mut claim = String::new();
                if !c.says.is_empty() {
                    let _ = write!(claim, "{}<br>", cell(&c.says));
                }
                claim.push_str(&cell(&code(&c.claim)));
                if let Some(f) = &c.filter {
                    let _ = write!(claim, " where {}", cell(&code(f)));
                }
                let data = dir_link(&edir.join(&c.sweep).join(&c.dataset), out);
                rows.push(vec![
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
                ]);
            }
            body.push(Block::Table(
                ["name", "claim", "source", "verdict", "evidence", "data"]
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
                rows,
            ));
            all.extend(results.into_iter().map(|r| (e.name.clone(), r)));
        }
    }
    // Summary at the top.
    let results: Vec<ConjectureResult> = all.iter().map(|(_, r)| r.clone()).collect();
    let counts = check::verdict_counts(&results);
    let mut head: Vec<Block> = vec![Block::Heading(1, "nimlab report".into(), "top".into())];
    head.push(Block::Para(format!(
        "{} experiments, {} claims: {}.",
        exps.len(),
        results.len(),
        counts
            .iter()
            .map(|(v, n)| format!("{n} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    )));
    head.push(Block::Table(
        vec!["verdict".into(), "claims".into()],
        counts
            .iter()
            .map(|(v, n)| vec![v.to_string(), n.to_string()])
            .collect(),
    ));
    let failing: Vec<&(String, ConjectureResult)> = all
        .iter()
        .filter(|(_, r)| matches!(r.verdict(), Verdict::Fails | Verdict::Error))
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
    head.extend(body);
    let summary = ReportSummary {
        experiments: exps.len(),
        counts,
        failing: failing
            .iter()
            .map(|(e, r)| format!("{e}/{}: {}", r.conjecture.name, evidence(r)))
            .collect(),
        files: vec![],
    };
    Ok((head, summary))
}

fn dir_link(p: &Path, out: &Path) -> String {
    format!("{}/", href(&rel(p, out)))
}

// ---------------------------------------------------------------------------
// Output

fn to_markdown(blocks: &[Block]) -> String {
    let mut s = String::new();
    for b in blocks {
        match b {
            Block::Heading(l, t, id) => {
                let _ = writeln!(
                    s,
                    "<a id=\"{id}\"></a>\n\n{} {t}\n",
                    "#".repeat(*l as usize)
                );
            }
            Block::Para(t) => {
                let _ = writeln!(s, "{t}\n");
            }
            Block::List(items) => {
                for i in items {
                    let _ = writeln!(s, "- {i}");
                }
                s.push('\n');
            }
            Block::Table(h, rows) => {
                let _ = writeln!(s, "| {} |", h.join(" | "));
                let _ = writeln!(s, "|{}|", vec!["---"; h.len()].join("|"));
                for r in rows {
                    let _ = writeln!(s, "| {} |", r.join(" | "));
                }
                s.push('\n');
            }
            Block::Image(alt, src) => {
                let _ = writeln!(s, "![{alt}]({})\n", href(src));
            }
            Block::Md(text, demote) => {
                for line in text.lines() {
                    if line.starts_with('#') {
                        let _ = writeln!(s, "{}{line}", "#".repeat(*demote as usize));
                    } else {
                        let _ = writeln!(s, "{line}");
                    }
                }
                s.push('\n');
            }
        }
    }
    s
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Inline Markdown (as this module writes it) to HTML: `code`, **bold**,
/// *emphasis*, [text](href), `<br>` and `<a id=…></a>` kept, `\|` unescaped.
fn inline_html(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut o = String::new();
    let mut i = 0;
    let rest = |i: usize| chars[i..].iter().collect::<String>();
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' && i + 1 < chars.len() && "|\\*`[]".contains(chars[i + 1]) {
            o.push_str(&esc(&chars[i + 1].to_string()));
            i += 2;
            continue;
        }
        if c == '<' {
            let r = rest(i);
            if r.starts_with("<br>") {
                o.push_str("<br>");
                i += 4;
                continue;
            }
            if r.starts_with("<a id=\"")
                && let Some(end) = r.find("></a>")
            {
                o.push_str(&r[..end + 5]);
                i += r[..end + 5].chars().count();
                continue;
            }
        }
        if c == '`' {
            // `` x `` or `x`
            let double = i + 1 < chars.len() && chars[i + 1] == '`';
            let (open, close) = if double { (3, " ``") } else { (1, "`") };
            let start = i + open;
            let r: String = chars[start.min(chars.len())..].iter().collect();
            if let Some(end) = r.find(close) {
                let inner = &r[..end];
                o.push_str("<code>");
                o.push_str(&esc(&inner.replace("\\|", "|")));
                o.push_str("</code>");
                i = start + inner.chars().count() + close.chars().count();
                continue;
            }
        }
        if c == '*' && i + 1 < chars.len() && chars[i + 1] == '*' {
            let r: String = chars[i + 2..].iter().collect();
            if let Some(end) = r.find("**") {
                o.push_str("<strong>");
                o.push_str(&inline_html(&r[..end]));
                o.push_str("</strong>");
                i += 2 + r[..end].chars().count() + 2;
                continue;
            }
        }
        if c == '*' {
            let r: String = chars[i + 1..].iter().collect();
            if let Some(end) = r.find('*')
                && end > 0
            {
                o.push_str("<em>");
                o.push_str(&inline_html(&r[..end]));
                o.push_str("</em>");
                i += 1 + r[..end].chars().count() + 1;
                continue;
            }
        }
        if c == '[' {
            let r: String = chars[i + 1..].iter().collect();
            if let Some(close) = r.find("](")
                && let Some(end) = r[close + 2..].find(')')
            {
                let text = &r[..close];
                let target = &r[close + 2..close + 2 + end];
                let _ = write!(o, "<a href=\"{}\">{}</a>", esc(target), inline_html(text));
                i += 1 + r[..close + 2 + end + 1].chars().count();
                continue;
            }
        }
        o.push_str(&esc(&c.to_string()));
        i += 1;
    }
    o
}

/// Splits a Markdown table row into cells (`\|` does not split).
fn split_row(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut cells = vec![String::new()];
    let mut prev = ' ';
    for c in inner.chars() {
        if c == '|' && prev != '\\' {
            cells.push(String::new());
        } else {
            cells.last_mut().unwrap().push(c);
        }
        prev = c;
    }
    cells.into_iter().map(|c| c.trim().to_string()).collect()
}

fn html_table(h: &[String], rows: &[Vec<String>], o: &mut String) {
    o.push_str("<table>\n<thead><tr>");
    for c in h {
        let _ = write!(o, "<th>{}</th>", inline_html(c));
    }
    o.push_str("</tr></thead>\n<tbody>\n");
    for r in rows {
        o.push_str("<tr>");
        for c in r {
            let _ = write!(o, "<td>{}</td>", inline_html(c));
        }
        o.push_str("</tr>\n");
    }
    o.push_str("</tbody>\n</table>\n");
}

fn md_file_html(text: &str, demote: u8, o: &mut String) {
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if l.starts_with('#') {
            let level = l.chars().take_while(|&c| c == '#').count() + demote as usize;
            let _ = writeln!(
                o,
                "<h{0}>{1}</h{0}>",
                level.min(6),
                inline_html(l.trim_start_matches('#').trim())
            );
            i += 1;
        } else if l.starts_with('|') {
            let header = split_row(l);
            let mut rows = Vec::new();
            i += 1;
            while i < lines.len() && lines[i].starts_with('|') {
                if !lines[i].starts_with("|---") && !lines[i].starts_with("| ---") {
                    rows.push(split_row(lines[i]));
                }
                i += 1;
            }
            html_table(&header, &rows, o);
        } else if l.trim().is_empty() {
            i += 1;
        } else {
            let _ = writeln!(o, "<p>{}</p>", inline_html(l));
            i += 1;
        }
    }
}

const CSS: &str = "body{font-family:sans-serif;max-width:1200px;margin:1em auto;padding:0 1em;line-height:1.4}\
table{border-collapse:collapse;margin:.5em 0;font-size:90%}\
td,th{border:1px solid #bbb;padding:2px 6px;vertical-align:top;text-align:left}\
th{background:#eee}code{background:#f4f4f4;padding:0 2px}\
img{max-width:100%;border:1px solid #ddd;margin:.5em 0}h2{border-bottom:2px solid #444}\
h3{border-bottom:1px solid #aaa}";

fn to_html(blocks: &[Block]) -> String {
    let mut o = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>nimlab report</title>\n<style>",
    );
    o.push_str(CSS);
    o.push_str("</style>\n</head>\n<body>\n");
    for b in blocks {
        match b {
            Block::Heading(l, t, id) => {
                let _ = writeln!(o, "<h{l} id=\"{}\">{}</h{l}>", esc(id), inline_html(t));
            }
            Block::Para(t) => {
                let _ = writeln!(o, "<p>{}</p>", inline_html(t));
            }
            Block::List(items) => {
                o.push_str("<ul>\n");
                for i in items {
                    let _ = writeln!(o, "<li>{}</li>", inline_html(i));
                }
                o.push_str("</ul>\n");
            }
            Block::Table(h, rows) => html_table(h, rows, &mut o),
            Block::Image(alt, src) => {
                let _ = writeln!(
                    o,
                    "<p><img src=\"{}\" alt=\"{}\"></p>",
                    esc(&href(src)),
                    esc(alt)
                );
            }
            Block::Md(text, demote) => md_file_html(text, *demote, &mut o),
        }
    }
    o.push_str("</body>\n</html>\n");
    o
}

/// Writes `out/REPORT.md` and `out/REPORT.html` for `exps` (see
/// [`experiments`] for which to pass) from the stored results.
pub fn write_report(exps: &[Experiment], out: &Path) -> Result<ReportSummary> {
    let (blocks, mut summary) = build(exps, out)?;
    let md = out.join("REPORT.md");
    let html = out.join("REPORT.html");
    store::write_atomic(&md, to_markdown(&blocks).as_bytes())?;
    store::write_atomic(&html, to_html(&blocks).as_bytes())?;
    summary.files = vec![md, html];
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_markup() {
        assert_eq!(
            inline_html("a **b** `x | y` [l](p/q.md) <br> 1 < 2 \\| z"),
            "a <strong>b</strong> <code>x | y</code> <a href=\"p/q.md\">l</a> <br> 1 &lt; 2 | z"
        );
        assert_eq!(inline_html("*fails*"), "<em>fails</em>");
        assert_eq!(split_row("| a | b \\| c | d |"), vec!["a", "b \\| c", "d"]);
    }

    #[test]
    fn long_tables_are_cut() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("t.md");
        let mut s = "# T\n\n| a |\n|---|\n".to_string();
        for i in 0..100 {
            s.push_str(&format!("| {i} |\n"));
        }
        fs::write(&p, s).unwrap();
        let t = inline_md(&p, "x/t.md").unwrap();
        assert!(t.contains("| 24 |") && !t.contains("| 25 |"), "{t}");
        assert!(t.contains("75 more rows: [the whole table](x/t.md)"));
    }
}
