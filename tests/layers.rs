//! The top-level modules of `src/` form a directed acyclic graph: a module
//! may use the ones below it, never one that (directly or not) uses it back.
//! The graph is read from the code itself: every `crate::<module>` path
//! outside comments, including `use crate::{a, b::c}` groups. Every edge
//! also goes down (or stays within a layer) in the layer order that
//! `src/lib.rs` documents (`//! 0. [`data`] …`, `//! 1. …`), and every
//! module is in that order.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The top-level module a source file belongs to (`src/family/lines/mod.rs` → `family`).
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?;
    let first = rel
        .components()
        .next()?
        .as_os_str()
        .to_string_lossy()
        .to_string();
    let name = first.trim_end_matches(".rs").to_string();
    (name != "lib" && name != "main").then_some(name)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Source text without `//` comments (doc links name modules too) or string literals.
fn code_only(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut in_str = false;
        let mut prev = ' ';
        let mut kept = String::new();
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if !in_str && c == '/' && chars.get(i + 1) == Some(&'/') {
                break;
            }
            if c == '"' && prev != '\\' {
                in_str = !in_str;
            } else if !in_str {
                kept.push(c);
            }
            prev = c;
            i += 1;
        }
        out.push_str(&kept);
        out.push('\n');
    }
    out
}

/// Module names referenced as `crate::name` or inside `crate::{name, …}`.
fn references(code: &str) -> BTreeSet<String> {
    let mut refs = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    refs.insert(name);
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            refs.insert(name);
        }
    }
    refs
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mods: BTreeSet<String> = files.iter().filter_map(|f| module_of(&src, f)).collect();
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        let Some(m) = module_of(&src, f) else {
            continue;
        };
        let code = code_only(&fs::read_to_string(f).unwrap());
        let deps = g.entry(m.clone()).or_default();
        for r in references(&code) {
            if r != m && mods.contains(&r) {
                deps.insert(r);
            }
        }
    }
    g
}

/// A cycle through `start`, if any (depth-first search).
fn find_cycle(g: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        g: &BTreeMap<String, BTreeSet<String>>,
        n: &str,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = stack.iter().position(|s| s == n) {
            let mut c = stack[i..].to_vec();
            c.push(n.to_string());
            return Some(c);
        }
        if done.contains(n) {
            return None;
        }
        stack.push(n.to_string());
        for d in g.get(n).into_iter().flatten() {
            if let Some(c) = visit(g, d, stack, done) {
                return Some(c);
            }
        }
        stack.pop();
        done.insert(n.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for n in g.keys() {
        if let Some(c) = visit(g, n, &mut Vec::new(), &mut done) {
            return Some(c);
        }
    }
    None
}

/// The layer of each top-level module, as `src/lib.rs`'s documentation
/// numbers them: a module belongs to the first numbered item whose links
/// (`[`name`]`, `[`name::Item`]`) name it.
fn documented_layers(text: &str) -> BTreeMap<String, usize> {
    let mut layers = BTreeMap::new();
    let mut current: Option<usize> = None;
    for line in text.lines() {
        let Some(doc) = line.strip_prefix("//!") else {
            continue;
        };
        let doc = doc.trim();
        if let Some((num, _)) = doc.split_once(". ")
            && let Ok(k) = num.parse::<usize>()
        {
            current = Some(k);
        } else if doc.is_empty() {
            current = None;
        }
        let Some(k) = current else { continue };
        let mut rest = doc;
        while let Some(i) = rest.find("[`") {
            rest = &rest[i + 2..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            layers.entry(name).or_insert(k);
        }
    }
    layers
}

/// Modules declared for tests only in `src/lib.rs` (`#[cfg(test)] mod x;`).
fn test_only_modules(text: &str) -> BTreeSet<String> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    lines
        .windows(2)
        .filter(|w| w[0] == "#[cfg(test)]")
        .filter_map(|w| w[1].strip_prefix("mod ")?.strip_suffix(';'))
        .map(str::to_string)
        .collect()
}

/// Edges against the documented order (`a → b` with b in a higher layer),
/// and modules the order leaves out.
fn layer_violations(
    g: &BTreeMap<String, BTreeSet<String>>,
    layers: &BTreeMap<String, usize>,
    exempt: &BTreeSet<String>,
) -> Vec<String> {
    let mut bad = Vec::new();
    for (m, deps) in g {
        if exempt.contains(m) {
            continue;
        }
        let Some(&lm) = layers.get(m) else {
            bad.push(format!(
                "`{m}` is in no layer of src/lib.rs's documentation"
            ));
            continue;
        };
        for d in deps {
            if let Some(&ld) = layers.get(d)
                && ld > lm
            {
                bad.push(format!(
                    "`{m}` (layer {lm}) uses `{d}` (layer {ld}, above it)"
                ));
            }
        }
    }
    bad
}

fn lib_rs() -> String {
    fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap()
}

#[test]
fn edges_go_down_the_layers_lib_rs_documents() {
    let lib = lib_rs();
    let layers = documented_layers(&lib);
    assert!(
        layers.get("data") == Some(&0) && layers.get("cmd").is_some_and(|&k| k >= 5),
        "cannot read the layers from src/lib.rs: {layers:?}"
    );
    let bad = layer_violations(&graph(), &layers, &test_only_modules(&lib));
    assert!(
        bad.is_empty(),
        "against the documented layers:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_layer_check_finds_an_upward_edge_and_an_undocumented_module() {
    let lib = lib_rs();
    let layers = documented_layers(&lib);
    let exempt = test_only_modules(&lib);
    assert!(exempt.contains("pipeline_tests"), "{exempt:?}");
    let mut g = graph();
    g.entry("data".into()).or_default().insert("family".into());
    let bad = layer_violations(&g, &layers, &exempt);
    assert!(
        bad.iter()
            .any(|b| b.starts_with("`data` (layer 0) uses `family`")),
        "{bad:?}"
    );
    g.entry("newcomer".into()).or_default();
    let bad = layer_violations(&g, &layers, &exempt);
    assert!(
        bad.iter().any(|b| b.contains("`newcomer` is in no layer")),
        "{bad:?}"
    );
}

#[test]
fn top_level_modules_form_a_dag() {
    let g = graph();
    assert!(g.len() > 10, "expected the crate's modules, found {g:?}");
    if let Some(c) = find_cycle(&g) {
        panic!(
            "the top-level modules have a cycle: {}\nfull graph: {g:#?}",
            c.join(" → ")
        );
    }
}

#[test]
fn the_checker_finds_a_planted_cycle() {
    let mut g = graph();
    g.entry("params".into()).or_default().insert("cmd".into());
    assert!(
        find_cycle(&g).is_some(),
        "params → cmd → … → params must be a cycle"
    );
}

#[test]
fn references_are_read_from_code_not_comments() {
    let code = code_only(
        "use crate::{data, expr::Ty};\n// crate::cmd\nlet s = \"crate::x\"; crate::spec::load();\n",
    );
    let r = references(&code);
    assert_eq!(
        r.into_iter().collect::<Vec<_>>(),
        vec!["data", "expr", "spec"]
    );
}
