//! The report's building blocks, written once as Markdown and as HTML
//! (the same content, pictures inline).

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

/// Rows of a Markdown table shown inline before it is cut.
pub const MAX_TABLE_ROWS: usize = 25;
/// Lines longer than this are not inlined (a wide grid): linked instead.
const MAX_LINE_CHARS: usize = 2000;
/// Figures shown inline per sweep; the others are linked.
pub const MAX_FIGURES: usize = 12;

#[derive(Clone, Debug, PartialEq)]
pub enum Block {
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
    /// Preformatted text (a position's picture), shown as it is.
    Pre(String),
    /// A collapsed block: its summary (inline Markdown) and content.
    Details(String, Vec<Block>),
    /// A claim: its verdict class (`fails`, `holds`, … coloured and
    /// filtered on the HTML page) and its blocks.
    Claim(String, Vec<Block>),
    /// HTML only (a form): nothing in Markdown.
    Html(String),
}

pub fn slug(s: &str) -> String {
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
pub fn href(p: &str) -> String {
    p.replace(' ', "%20")
        .replace('(', "%28")
        .replace(')', "%29")
}

pub fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

pub fn code(s: &str) -> String {
    let s = s.replace('\n', " ");
    if s.contains('`') {
        format!("`` {s} ``")
    } else {
        format!("`{s}`")
    }
}

pub fn rel(path: &Path, out: &Path) -> String {
    path.strip_prefix(out)
        .unwrap_or(path)
        .components()
        .map(|c| c.as_os_str().to_string_lossy().to_string())
        .collect::<Vec<_>>()
        .join("/")
}

/// The files of `dir` with extension `ext`, in natural order (`max_5`
/// before `max_12`).
pub fn files_in(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    v.sort_by_cached_key(|p| natural_key(&p.to_string_lossy()));
    v
}

/// A sort key that orders runs of digits by their value: `a2 < a10`.
pub fn natural_key(s: &str) -> Vec<(String, u128)> {
    let mut key = Vec::new();
    let mut text = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            let mut n = String::from(c);
            while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                n.push(*d);
                chars.next();
            }
            key.push((std::mem::take(&mut text), n.parse().unwrap_or(u128::MAX)));
        } else {
            text.push(c);
        }
    }
    key.push((text, 0));
    key
}

/// A rendered Markdown table file, cut to `MAX_TABLE_ROWS` rows with a link
/// to the whole file; `None` when it is too wide to inline.
pub fn inline_md(path: &Path, link: &str) -> Option<String> {
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

pub fn to_markdown(blocks: &[Block]) -> String {
    let mut s = String::new();
    for b in blocks {
        match b {
            Block::Pre(t) => {
                let _ = writeln!(s, "```text\n{}\n```\n", t.trim_end());
            }
            Block::Details(summary, inner) => {
                let _ = writeln!(
                    s,
                    "<details><summary>{summary}</summary>\n\n{}</details>\n",
                    to_markdown(inner)
                );
            }
            Block::Claim(_, inner) => s.push_str(&to_markdown(inner)),
            Block::Html(_) => {}
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
/// *emphasis*, [text](href), `<br>`, `<a id=…></a>` and a collapsed block
/// (`<details><summary>…</summary>…</details>`) kept, `\|` unescaped.
fn inline_html(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut o = String::new();
    let mut i = 0;
    while i < chars.len() {
        if let Some((html, used)) = inline_token(&chars, i) {
            o.push_str(&html);
            i += used;
        } else {
            o.push_str(&esc(&chars[i].to_string()));
            i += 1;
        }
    }
    o
}

/// The HTML for the inline construct starting at `chars[i]` and how many
/// characters it takes, or `None` where a plain character starts there.
fn inline_token(chars: &[char], i: usize) -> Option<(String, usize)> {
    let c = chars[i];
    if c == '\\' && i + 1 < chars.len() && "|\\*`[]".contains(chars[i + 1]) {
        return Some((esc(&chars[i + 1].to_string()), 2));
    }
    match c {
        '<' => kept_tag(&chars[i..].iter().collect::<String>()),
        '`' => code_span(chars, i),
        '*' => emphasis(chars, i),
        '[' => link(chars, i),
        _ => None,
    }
}

/// `<br>`, a collapsed block's tags and `<a id=…></a>`, kept as they are.
fn kept_tag(r: &str) -> Option<(String, usize)> {
    if r.starts_with("<br>") {
        return Some(("<br>".into(), 4));
    }
    // A collapsed block: `<details><summary>`, `</summary>`, `</details>`.
    if let Some(tag) = ["<details><summary>", "</summary>", "</details>"]
        .into_iter()
        .find(|t| r.starts_with(t))
    {
        return Some((tag.into(), tag.chars().count()));
    }
    if r.starts_with("<a id=\"")
        && let Some(end) = r.find("></a>")
    {
        return Some((r[..end + 5].to_string(), r[..end + 5].chars().count()));
    }
    None
}

/// A code span, `` x `` or `x`.
fn code_span(chars: &[char], i: usize) -> Option<(String, usize)> {
    let double = i + 1 < chars.len() && chars[i + 1] == '`';
    let (open, close) = if double { (3, " ``") } else { (1, "`") };
    let start = i + open;
    let r: String = chars[start.min(chars.len())..].iter().collect();
    let end = r.find(close)?;
    let inner = &r[..end];
    let html = format!("<code>{}</code>", esc(&inner.replace("\\|", "|")));
    Some((html, open + inner.chars().count() + close.chars().count()))
}

/// **bold**, else *emphasis*.
fn emphasis(chars: &[char], i: usize) -> Option<(String, usize)> {
    if i + 1 < chars.len() && chars[i + 1] == '*' {
        let r: String = chars[i + 2..].iter().collect();
        if let Some(end) = r.find("**") {
            let html = format!("<strong>{}</strong>", inline_html(&r[..end]));
            return Some((html, 2 + r[..end].chars().count() + 2));
        }
    }
    let r: String = chars[i + 1..].iter().collect();
    let end = r.find('*').filter(|&end| end > 0)?;
    let html = format!("<em>{}</em>", inline_html(&r[..end]));
    Some((html, 1 + r[..end].chars().count() + 1))
}

/// [text](href).
fn link(chars: &[char], i: usize) -> Option<(String, usize)> {
    let r: String = chars[i + 1..].iter().collect();
    let close = r.find("](")?;
    let end = r[close + 2..].find(')')?;
    let text = &r[..close];
    let target = &r[close + 2..close + 2 + end];
    let html = format!("<a href=\"{}\">{}</a>", esc(target), inline_html(text));
    Some((html, 1 + r[..close + 2 + end + 1].chars().count()))
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
    o.push_str("<div class=\"scroll\"><table>\n<thead><tr>");
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
    o.push_str("</tbody>\n</table></div>\n");
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

/// Is `src` a small-multiples grid (`figures/grid-….png`)?
fn is_grid(src: &str) -> bool {
    src.rsplit('/')
        .next()
        .is_some_and(|f| f.starts_with("grid-"))
}

/// Where the page finds the bundled CJK font, relative to `REPORT.html`.
pub const CJK_FONT_FILE: &str = "fonts/NotoSansCJKtc-subset.otf";

/// The page's style: a sticky table of contents on the left; CJK text is
/// drawn in the font shipped beside the page (`fonts/`), else in the fonts
/// the reader's machine has. The shipped font comes first, limited by its
/// `unicode-range` to CJK: as a later fallback, Chromium shaped the first
/// CJK words before the font had loaded and kept them as boxes (report
/// 000's 「切割方程」 in the table of contents and its summary heading).
const CSS: &str = "@font-face{font-family:'nimlab CJK';src:url('fonts/NotoSansCJKtc-subset.otf') format('opentype');\
unicode-range:U+2E80-9FFF,U+F900-FAFF,U+FE30-FE4F,U+FF00-FFEF}\
body{font-family:'nimlab CJK','DejaVu Sans',Arial,'Noto Sans CJK TC','Noto Sans CJK SC','Source Han Sans TC','Microsoft JhengHei','PingFang TC',sans-serif;\
margin:0;line-height:1.4;display:flex;align-items:flex-start}\
#toc{position:sticky;top:0;max-height:100vh;overflow:auto;width:18em;flex:none;padding:.5em 1em;\
border-right:1px solid #ccc;font-size:85%;background:#fafafa;box-sizing:border-box}\
#toc ul{padding-left:1em;margin:.2em 0}main{flex:1;min-width:0;max-width:1200px;padding:0 1em}\
details{border:1px solid #ddd;margin:.5em 0;padding:0 .5em}summary{cursor:pointer;font-weight:bold;padding:.3em 0}\
.claim{border-left:5px solid #999;padding:0 .6em;margin:.8em 0}\
.claim.v-fails{border-left-color:#c00;background:#fff6f6}.claim.v-partly{border-left-color:#d80;background:#fffaf0}\
.claim.v-holds{border-left-color:#080}.claim.v-construction{border-left-color:#57a}\
.v-fails h4,label.v-fails{color:#b00}.v-partly h4,label.v-partly{color:#a50}\
.v-holds h4,label.v-holds{color:#070}.v-construction h4,label.v-construction{color:#369}\
.hide-fails .claim.v-fails,.hide-partly .claim.v-partly,.hide-holds .claim.v-holds,\
.hide-construction .claim.v-construction,.hide-other .claim.v-other{display:none}\
.filter{margin:.3em 0}.filter label{white-space:nowrap;margin-right:.5em}#toc-fold>summary{font-size:110%}\
p,li,h1,h2,h3,h4,summary{overflow-wrap:break-word}.front li{margin:.3em 0}\
@media print{#toc{display:none}details{border:none}}\
table{border-collapse:collapse;margin:.5em 0;font-size:90%}\
td,th{border:1px solid #bbb;padding:2px 6px;vertical-align:top;text-align:left}\
th{background:#eee}code{background:#f4f4f4;padding:0 2px}\
img{max-width:100%;border:1px solid #ddd;margin:.5em 0}img.grid{max-width:none}h2{border-bottom:2px solid #444}\
h3{border-bottom:1px solid #aaa}\
.scroll{overflow-x:auto;max-width:100%}pre{overflow-x:auto;max-width:100%}\
@media (max-width:800px){body{display:block}#toc{position:static;width:auto;max-height:70vh;\
border-right:none;border-bottom:1px solid #ccc}main{padding:0 .5em}h1{font-size:150%;margin:.4em 0}\
.front{font-size:90%}.front ul{padding-left:1.2em}}";

/// A whole page: the navigation (a sticky table of contents) and the body.
pub fn html_page(title: &str, nav: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<nav id=\"toc\">\n{nav}</nav>\n<main>\n{body}</main>\n<script>{SCRIPT}</script>\n</body>\n</html>\n",
        esc(title)
    )
}

/// Opens the collapsed sweep a link points into; folds the table of
/// contents on a narrow screen (and after a link in it is followed there);
/// hides the claims of a verdict unticked in the filter.
const SCRIPT: &str = "function openTarget(){var id=decodeURIComponent(location.hash.slice(1));\
if(!id)return;var e=document.getElementById(id);while(e){if(e.tagName==='DETAILS')e.open=true;e=e.parentElement;}}\
window.addEventListener('hashchange',openTarget);openTarget();\
(function(){var t=document.getElementById('toc-fold'),narrow=window.matchMedia('(max-width:800px)');\
if(t&&narrow.matches)t.open=false;\
if(t)t.addEventListener('click',function(e){if(e.target.tagName==='A'&&narrow.matches)t.open=false;});\
var f=document.getElementById('filter');\
if(f)f.addEventListener('change',function(e){var c=e.target;if(c.value)document.body.classList.toggle('hide-'+c.value,!c.checked);});})();";

/// Inline Markdown as HTML (for the table of contents).
pub fn inline(s: &str) -> String {
    inline_html(s)
}

/// The blocks as an HTML fragment.
pub fn to_html(blocks: &[Block]) -> String {
    let mut o = String::new();
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
            // A small-multiples grid at its own size in a box that scrolls
            // sideways (its labels keep their size), any other figure at
            // most the column's width.
            Block::Image(alt, src) if is_grid(src) => {
                let _ = writeln!(
                    o,
                    "<div class=\"scroll\"><img class=\"grid\" src=\"{}\" alt=\"{}\"></div>",
                    esc(&href(src)),
                    esc(alt)
                );
            }
            Block::Image(alt, src) => {
                let _ = writeln!(
                    o,
                    "<p><img src=\"{}\" alt=\"{}\"></p>",
                    esc(&href(src)),
                    esc(alt)
                );
            }
            Block::Md(text, demote) => md_file_html(text, *demote, &mut o),
            Block::Pre(t) => {
                let _ = writeln!(o, "<pre class=\"drawing\">{}</pre>", esc(t.trim_end()));
            }
            Block::Details(summary, inner) => {
                let _ = writeln!(
                    o,
                    "<details><summary>{}</summary>\n{}</details>",
                    inline_html(summary),
                    to_html(inner)
                );
            }
            Block::Claim(class, inner) => {
                let _ = writeln!(
                    o,
                    "<div class=\"claim v-{0}\" data-verdict=\"{0}\">\n{1}</div>",
                    esc(class),
                    to_html(inner)
                );
            }
            Block::Html(h) => o.push_str(h),
        }
    }
    o
}

impl Block {
    /// The block as JSON (the report's cache).
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        match self {
            Block::Heading(l, t, id) => json!(["h", l, t, id]),
            Block::Para(t) => json!(["p", t]),
            Block::List(items) => json!(["l", items]),
            Block::Table(h, rows) => json!(["t", h, rows]),
            Block::Image(alt, src) => json!(["i", alt, src]),
            Block::Md(t, d) => json!(["m", t, d]),
            Block::Pre(t) => json!(["pre", t]),
            Block::Details(summary, inner) => json!([
                "d",
                summary,
                inner.iter().map(Block::to_json).collect::<Vec<_>>()
            ]),
            Block::Claim(class, inner) => json!([
                "c",
                class,
                inner.iter().map(Block::to_json).collect::<Vec<_>>()
            ]),
            Block::Html(h) => json!(["html", h]),
        }
    }

    /// A block from [`Block::to_json`]'s JSON (`None` if it is not one).
    pub fn from_json(v: &serde_json::Value) -> Option<Block> {
        let a = v.as_array()?;
        let s = |i: usize| a.get(i)?.as_str().map(str::to_string);
        let strs = |v: &serde_json::Value| -> Option<Vec<String>> {
            v.as_array()?
                .iter()
                .map(|x| x.as_str().map(str::to_string))
                .collect()
        };
        Some(match a.first()?.as_str()? {
            "h" => Block::Heading(a.get(1)?.as_u64()? as u8, s(2)?, s(3)?),
            "p" => Block::Para(s(1)?),
            "l" => Block::List(strs(a.get(1)?)?),
            "t" => Block::Table(
                strs(a.get(1)?)?,
                a.get(2)?
                    .as_array()?
                    .iter()
                    .map(strs)
                    .collect::<Option<_>>()?,
            ),
            "i" => Block::Image(s(1)?, s(2)?),
            "m" => Block::Md(s(1)?, a.get(2)?.as_u64()? as u8),
            "pre" => Block::Pre(s(1)?),
            "d" => Block::Details(s(1)?, children(a.get(2)?)?),
            "c" => Block::Claim(s(1)?, children(a.get(2)?)?),
            "html" => Block::Html(s(1)?),
            _ => return None,
        })
    }
}

/// The blocks of a JSON list ([`Block::from_json`] each).
fn children(v: &serde_json::Value) -> Option<Vec<Block>> {
    v.as_array()?.iter().map(Block::from_json).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn inline_markup() {
        assert_eq!(
            inline_html("a **b** `x | y` [l](p/q.md) <br> 1 < 2 \\| z"),
            "a <strong>b</strong> <code>x | y</code> <a href=\"p/q.md\">l</a> <br> 1 &lt; 2 | z"
        );
        assert_eq!(inline_html("*fails*"), "<em>fails</em>");
        assert_eq!(
            inline_html("says<details><summary>as checked</summary>`a < b`</details> <b>"),
            "says<details><summary>as checked</summary><code>a &lt; b</code></details> &lt;b&gt;"
        );
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

    #[test]
    fn natural_order() {
        let mut v = vec![
            "max_12.png",
            "max_5.png",
            "a.png",
            "max_5_no.png",
            "max_100.png",
        ];
        v.sort_by_key(|s| natural_key(s));
        assert_eq!(
            v,
            [
                "a.png",
                "max_5.png",
                "max_5_no.png",
                "max_12.png",
                "max_100.png"
            ]
        );
    }

    #[test]
    fn blocks_survive_the_cache() {
        let blocks = vec![
            Block::Heading(2, "a".into(), "b".into()),
            Block::Para("p".into()),
            Block::List(vec!["x".into(), "y".into()]),
            Block::Table(vec!["h".into()], vec![vec!["c".into()]]),
            Block::Image("alt".into(), "f.png".into()),
            Block::Md("# t".into(), 3),
            Block::Claim("fails".into(), vec![Block::Para("q".into())]),
            Block::Html("<form></form>".into()),
        ];
        for b in blocks {
            assert_eq!(Block::from_json(&b.to_json()), Some(b));
        }
        assert_eq!(Block::from_json(&serde_json::json!(["z"])), None);
    }
}
