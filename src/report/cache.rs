//! The report stage's cache: per sweep (and per experiment, for its
//! conjectures) the blocks built, stored under `OUT/<experiment>/_report/`
//! with the key they were built from, so that an unchanged sweep is not read,
//! fitted or checked again.
//!
//! A key is a hash of everything the blocks depend on: this program (its
//! size and modification time), the experiment's spec text, the sweep's
//! datasets (the part count and the xxh3 of the parts, as the sweep's
//! manifest records them after every run), and the names and sizes of the
//! sweep's rendered files. Without a manifest there is no key and nothing is
//! cached. Each cache file is written atomically (temp + rename).

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use anyhow::Result;
use serde_json::{Value, json};

use crate::spec::Experiment;
use crate::store::write_atomic;

/// The keys of an experiment: per sweep (in spec order), and for its
/// conjectures (all sweeps' data).
pub struct Keys {
    /// Per sweep, in spec order (None: nothing recorded, not cached).
    pub sweeps: Vec<Option<String>>,
    /// The conjectures' key (None unless every sweep has one).
    pub claims: Option<String>,
}

fn hash(parts: &[&str]) -> String {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    for p in parts {
        h.update(p.as_bytes());
        h.update(&[0]);
    }
    format!("{:016x}", h.digest())
}

/// This program: a rebuilt binary may build different blocks.
fn exe_identity() -> &'static str {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| {
        let meta = std::env::current_exe().and_then(fs::metadata);
        match meta {
            Ok(m) => {
                let t = m
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map(|d| d.as_nanos())
                    .unwrap_or(0);
                format!("{} {} {t}", env!("CARGO_PKG_VERSION"), m.len())
            }
            Err(_) => format!("{} unknown", env!("CARGO_PKG_VERSION")),
        }
    })
}

/// Names and sizes of the files directly in `dir` (the report's own
/// `forms*` files and grids left out), sorted.
fn listing(dir: &Path) -> String {
    let mut v: Vec<String> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| {
            let n = e.file_name().to_string_lossy().to_string();
            !n.starts_with("forms") && !n.starts_with("grid-")
        })
        .map(|e| {
            let len = e.metadata().map(|m| m.len()).unwrap_or(0);
            format!("{}:{len}", e.file_name().to_string_lossy())
        })
        .collect();
    v.sort();
    v.join(",")
}

/// The data of each sweep of `e` as its manifest records them (None
/// without a manifest or a record), and the spec text.
fn recorded(e: &Experiment, out: &Path) -> (String, Vec<Option<String>>) {
    let m: Option<Value> = fs::read_to_string(out.join(&e.name).join("manifest.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok());
    let Some(m) = m else {
        return (String::new(), vec![None; e.sweeps.len()]);
    };
    let spec = m
        .get("spec")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let sweeps = m.get("sweeps").and_then(Value::as_array);
    let data = e
        .sweeps
        .iter()
        .map(|s| {
            let r = sweeps?
                .iter()
                .find(|r| r.get("name").and_then(Value::as_str) == Some(&s.name))?;
            Some(r.get("datasets")?.to_string())
        })
        .collect();
    (spec, data)
}

/// Whether the render stage's files of every sweep of `e` are those of the
/// current data and program: per sweep, true when its stamp matches.
pub fn render_fresh(e: &Experiment, out: &Path) -> Vec<bool> {
    let (spec, data) = recorded(e, out);
    e.sweeps
        .iter()
        .zip(&data)
        .map(|(s, d)| {
            let Some(d) = d else { return false };
            let dir = s.dir(out, &e.name);
            let now = format!(
                "{}|{}",
                listing(&dir.tables_dir()),
                listing(&dir.figures_dir())
            );
            let key = hash(&[exe_identity(), &spec, &s.name, d]);
            load(
                &path(out, &e.name, &format!("_render-{}", s.name)),
                Some(&key),
            )
            .is_some_and(|v| v.as_str() == Some(&now))
        })
        .collect()
}

/// Records that the sweeps of `e` flagged in `done` were rendered from
/// their current data.
pub fn render_stamp(e: &Experiment, out: &Path, done: &[bool]) -> Result<()> {
    let (spec, data) = recorded(e, out);
    for ((s, d), ok) in e.sweeps.iter().zip(&data).zip(done) {
        let (Some(d), true) = (d, ok) else { continue };
        let dir = s.dir(out, &e.name);
        let now = format!(
            "{}|{}",
            listing(&dir.tables_dir()),
            listing(&dir.figures_dir())
        );
        let key = hash(&[exe_identity(), &spec, &s.name, d]);
        save(
            &path(out, &e.name, &format!("_render-{}", s.name)),
            Some(&key),
            Value::String(now),
        )?;
    }
    Ok(())
}

/// The keys of `e`'s sweeps and conjectures, from its manifest.
pub fn keys(e: &Experiment, out: &Path) -> Keys {
    let none = Keys {
        sweeps: vec![None; e.sweeps.len()],
        claims: None,
    };
    let Ok(text) = fs::read_to_string(out.join(&e.name).join("manifest.json")) else {
        return none;
    };
    let Ok(m) = serde_json::from_str::<Value>(&text) else {
        return none;
    };
    let spec = m.get("spec").and_then(Value::as_str).unwrap_or("");
    let recorded = m.get("sweeps").and_then(Value::as_array);
    let data_of = |name: &str| -> Option<String> {
        let s = recorded?
            .iter()
            .find(|s| s.get("name").and_then(Value::as_str) == Some(name))?;
        Some(s.get("datasets")?.to_string())
    };
    let mut all = vec![exe_identity().to_string(), spec.to_string()];
    let mut sweeps = Vec::new();
    for s in &e.sweeps {
        let Some(data) = data_of(&s.name) else {
            sweeps.push(None);
            all.push(String::new());
            continue;
        };
        let dir = s.dir(out, &e.name);
        let files = [listing(&dir.tables_dir()), listing(&dir.figures_dir())];
        let key = hash(&[exe_identity(), spec, &s.name, &data, &files[0], &files[1]]);
        all.push(key.clone());
        sweeps.push(Some(key));
    }
    let parts: Vec<&str> = all.iter().map(String::as_str).collect();
    let claims = sweeps.iter().all(Option::is_some).then(|| hash(&parts));
    Keys { sweeps, claims }
}

/// The cache file of a sweep (or `_claims` for the conjectures).
pub fn path(out: &Path, exp: &str, name: &str) -> PathBuf {
    out.join(exp).join("_report").join(format!("{name}.json"))
}

/// The cached data at `path` if it was built under `key`.
pub fn load(path: &Path, key: Option<&str>) -> Option<Value> {
    let key = key?;
    let v: Value = serde_json::from_slice(&fs::read(path).ok()?).ok()?;
    (v.get("key")?.as_str()? == key).then(|| v.get("data").cloned())?
}

/// Stores `data` under `key` (nothing without a key).
pub fn save(path: &Path, key: Option<&str>, data: Value) -> Result<()> {
    let Some(key) = key else { return Ok(()) };
    if let Some(d) = path.parent() {
        fs::create_dir_all(d)?;
    }
    let v = json!({ "key": key, "data": data });
    write_atomic(path, v.to_string().as_bytes())
}
