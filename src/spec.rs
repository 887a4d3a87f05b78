//! Experiment specs: YAML files under `experiments/`.
//!
//! Loading is layered (as ripgrep's low/high args): the YAML text is parsed by
//! `serde-saphyr` into a plain value tree, which is then validated field by
//! field through [`Node`], a cursor that knows its file and its path inside the
//! file (`sweeps[2].take.min`), so every error names the file, the field and
//! what is allowed. Families read their own parameters through the same cursor.
//!
//! ```yaml
//! experiment: report-004          # optional: defaults to the file name
//! title: Report 004 ...
//! sweeps:
//!   - name: cond1-one-heap        # a dataset directory under output/<experiment>/
//!     family: takeaway            # see `nimlab families`
//!     take: {max: 2..12}          # family parameters: scalars, lists, ranges a..b
//!     N: 0..45
//!     outputs: [winning_table]    # optional: which views to render
//! ```

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde_json::Value;

use crate::family::{self, Family, Plan};
use crate::store::SweepDir;
use crate::params::{Node, SpecError, describe, parse_yaml};

/// One sweep of an experiment, validated: the family that runs it and its raw
/// parameters (the family validates those when planning).
#[derive(Clone)]
pub struct Sweep {
    /// Dataset directory name, unique within the experiment.
    pub name: String,
    /// Human title for figures and reports.
    pub title: String,
    /// The family.
    pub family: &'static dyn Family,
    /// The sweep's map (family parameters plus the generic keys).
    pub params: Value,
    /// Index in the spec's `sweeps` list (for error paths).
    pub index: usize,
    /// The spec file (for error messages when planning again).
    pub file: String,
    /// Views to render (empty: the family's defaults).
    pub outputs: Vec<String>,
    /// Datasets to store (None: all). For huge sweeps: e.g. `[periods, loss_sets]`
    /// without the one-row-per-position `positions`.
    pub datasets: Option<Vec<String>>,
}

impl Sweep {
    /// Expands the sweep into cases and views (validated when the spec was
    /// loaded, so an error here means the family changed its mind).
    pub fn plan(&self) -> Result<Plan, SpecError> {
        self.family.plan(&Node::root(&self.params, &self.file))
    }
    /// Where this sweep's results live under `out`, in experiment `experiment`.
    pub fn dir(&self, out: &Path, experiment: &str) -> SweepDir {
        SweepDir::new(
            out,
            experiment,
            &self.name,
            self.family.name(),
            self.family.datasets(),
        )
    }
}

/// A named claim to check against a sweep's results (see [`crate::check`]).
#[derive(Clone, Debug)]
pub struct Conjecture {
    /// Short name.
    pub name: String,
    /// The sweep and dataset whose rows it speaks about.
    pub sweep: String,
    /// Dataset inside the sweep (default `positions`).
    pub dataset: String,
    /// Optional filter: which rows the claim is about.
    pub filter: Option<String>,
    /// The predicate.
    pub claim: String,
    /// Where it comes from (report and section), free text.
    pub source: String,
    /// The claim in words.
    pub says: String,
    /// Field path, for error messages.
    pub field: String,
}

/// A validated experiment spec.
#[derive(Clone)]
pub struct Experiment {
    /// The file it came from.
    pub file: PathBuf,
    /// Output directory name.
    pub name: String,
    /// Title.
    pub title: String,
    /// Free text shown in the report.
    pub description: String,
    /// The sweeps.
    pub sweeps: Vec<Sweep>,
    /// Conjectures to check.
    pub conjectures: Vec<Conjecture>,
    /// The spec text, verbatim (for the provenance manifest).
    pub text: String,
}

/// Loads and validates one spec file.
pub fn load(path: &Path) -> Result<Experiment, SpecError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| SpecError {
        file: file.clone(),
        field: String::new(),
        message: format!("cannot read the file: {e}"),
    })?;
    from_text(&text, path)
}

/// Validates spec text (the path names it in errors and gives the default name).
pub fn from_text(text: &str, path: &Path) -> Result<Experiment, SpecError> {
    let file = path.display().to_string();
    let value = parse_yaml(text, &file)?;
    let root = Node::root(&value, &file);
    if !value.is_object() {
        return Err(root.err(format!(
            "a spec is a map with `sweeps:` (and optionally `experiment:`, `title:`, `description:`, `conjectures:`), got {}",
            describe(&value)
        )));
    }
    root.expect_keys(&[
        "experiment",
        "title",
        "description",
        "sweeps",
        "conjectures",
    ])?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let name = match root.get("experiment") {
        Some(n) => n.str()?.to_string(),
        None => stem,
    };
    check_name(&root, &name, "experiment")?;
    let title = root
        .get("title")
        .map(|n| n.str())
        .transpose()?
        .unwrap_or(&name)
        .to_string();
    let description = root
        .get("description")
        .map(|n| n.str())
        .transpose()?
        .unwrap_or("")
        .to_string();
    let sweeps_node = root.req(
        "sweeps",
        "a list of sweeps, each with `name:` and `family:`",
    )?;
    if !sweeps_node.value().is_array() || sweeps_node.items().is_empty() {
        return Err(sweeps_node.err("expected a non-empty list of sweeps"));
    }
    let mut sweeps: Vec<Sweep> = Vec::new();
    for (index, s) in sweeps_node.items().into_iter().enumerate() {
        s.expect_map()?;
        let fam_node = s.req("family", "the game family")?;
        let fam_name = fam_node.str()?;
        let family = family::by_name(fam_name).ok_or_else(|| {
            fam_node.err(format!(
                "unknown family {fam_name:?}; known families: {}",
                family::FAMILIES
                    .iter()
                    .map(|f| f.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
        let sname = s.req(
            "name",
            "a short name (letters, digits, - and _), used as a directory",
        )?;
        let sweep_name = sname.str()?.to_string();
        check_name(&sname, &sweep_name, "name")?;
        if sweeps.iter().any(|o| o.name == sweep_name) {
            return Err(sname.err(format!("duplicate sweep name {sweep_name:?}")));
        }
        let title = s
            .get("title")
            .map(|n| n.str())
            .transpose()?
            .unwrap_or(&sweep_name)
            .to_string();
        let outputs = match s.get("outputs") {
            Some(o) => {
                let views = family.view_names();
                o.words(&views)?.into_iter().map(str::to_string).collect()
            }
            None => vec![],
        };
        // Validate the family parameters now, so a bad spec fails before anything runs.
        let plan = family.plan(&s)?;
        if let Some(o) = s.get("outputs") {
            for (item, want) in o.items().iter().zip(&outputs) {
                if !plan.views.iter().any(|v| &v.name == want) {
                    let offered: Vec<&str> = plan.views.iter().map(|v| v.name).collect();
                    return Err(item.err(format!(
                        "view {want:?} does not apply to this sweep; views offered here: {}",
                        offered.join(", ")
                    )));
                }
            }
        }
        let datasets = match s.get("datasets") {
            Some(d) => {
                let items = d.items();
                if items.is_empty() {
                    return Err(d.err("give at least one dataset name, e.g. [periods, loss_sets]"));
                }
                let mut v = Vec::new();
                for it in items {
                    let name = it.str()?;
                    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                        || name.is_empty()
                    {
                        return Err(it.err(format!("{name:?} is not a dataset name")));
                    }
                    v.push(name.to_string());
                }
                Some(v)
            }
            None => None,
        };
        sweeps.push(Sweep {
            name: sweep_name,
            title,
            family,
            params: s.value().clone(),
            index,
            file: file.clone(),
            outputs,
            datasets,
        });
    }
    let mut conjectures = Vec::new();
    if let Some(cs) = root.get("conjectures") {
        for c in cs.items() {
            c.expect_keys(&[
                "name", "sweep", "dataset", "where", "claim", "source", "says",
            ])?;
            let name = c.req("name", "a short name")?.str()?.to_string();
            let sweep_node = c.req("sweep", "the sweep whose results the claim is about")?;
            let sweep = sweep_node.str()?.to_string();
            if !sweeps.iter().any(|s| s.name == sweep) {
                return Err(sweep_node.err(format!(
                    "no sweep named {sweep:?} in this spec; sweeps: {}",
                    sweeps
                        .iter()
                        .map(|s| s.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
            let dataset = c
                .get("dataset")
                .map(|n| n.str())
                .transpose()?
                .unwrap_or("positions")
                .to_string();
            let filter = c
                .get("where")
                .map(|n| n.str())
                .transpose()?
                .map(str::to_string);
            let claim_node = c.req("claim", "a predicate over the dataset's columns")?;
            let claim = claim_node.str()?.to_string();
            crate::expr::syntax_check(&claim).map_err(|e| claim_node.err(format!("{e}")))?;
            if let Some(w) = c.get("where") {
                crate::expr::syntax_check(w.str()?).map_err(|e| w.err(format!("{e}")))?;
            }
            let source = c
                .get("source")
                .map(|n| n.str())
                .transpose()?
                .unwrap_or("")
                .to_string();
            let says = c
                .get("says")
                .map(|n| n.str())
                .transpose()?
                .unwrap_or("")
                .to_string();
            conjectures.push(Conjecture {
                name,
                sweep,
                dataset,
                filter,
                claim,
                source,
                says,
                field: c.path().to_string(),
            });
        }
    }
    Ok(Experiment {
        file: path.to_path_buf(),
        name,
        title,
        description,
        sweeps,
        conjectures,
        text: text.to_string(),
    })
}

/// The default specs: every `*.yaml` directly under `experiments/`.
pub fn default_specs() -> anyhow::Result<Vec<PathBuf>> {
    spec_files(Path::new("experiments"))
}

fn spec_files(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read directory {}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
        .collect();
    v.sort();
    Ok(v)
}

/// Loads specs from files and directories (default: `experiments/*.yaml`).
pub fn load_specs(paths: &[PathBuf]) -> anyhow::Result<Vec<Experiment>> {
    let mut files = Vec::new();
    if paths.is_empty() {
        files = default_specs()?;
    }
    for p in paths {
        if p.is_dir() {
            files.extend(spec_files(p)?);
        } else {
            files.push(p.clone());
        }
    }
    if files.is_empty() {
        bail!("no spec files found");
    }
    let mut exps: Vec<Experiment> = Vec::new();
    for f in files {
        let e = load(&f)?;
        if let Some(other) = exps.iter().find(|o| o.name == e.name) {
            bail!(
                "{} and {} both name experiment {:?}",
                other.file.display(),
                f.display(),
                e.name
            );
        }
        exps.push(e);
    }
    Ok(exps)
}

fn check_name(node: &Node<'_>, name: &str, what: &str) -> Result<(), SpecError> {
    let ok = !name.is_empty()
        && name.len() <= 100
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
        && !name.starts_with('.');
    if ok {
        Ok(())
    } else {
        Err(node.err(format!(
            "{what} {name:?} is not allowed: use 1 to 100 letters, digits, '-', '_' or '.', not starting with '.'"
        )))
    }
}

#[cfg(test)]
mod fuzz {
    use proptest::prelude::*;
    use std::path::Path;

    const VALID: &str = "experiment: t\nsweeps:\n  - name: a\n    family: takeaway\n    take: [{max: 2..3}, {min: 2, max: 5}, {set: [1, 3, 4]}, any]\n    play: [normal, misere]\n    no_repeat: [false, true]\n    heaps: 2\n    N: 0..9\n    outputs: [loss_scatter]\n";

    /// Large numbers would only make the test slow (real sweeps may be big), so
    /// inputs whose numbers have more than four digits are skipped.
    fn small_numbers(s: &str) -> bool {
        let mut run = 0;
        for c in s.chars() {
            run = if c.is_ascii_digit() { run + 1 } else { 0 };
            if run > 4 {
                return false;
            }
        }
        true
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

        /// Arbitrary YAML-ish text never panics the loader.
        #[test]
        fn random_text_never_panics(s in "[-a-z0-9_:{}\\[\\], .\n\"'#|>&*!%@`]{0,200}") {
            if small_numbers(&s) {
                let _ = super::from_text(&s, Path::new("fuzz.yaml"));
            }
        }

        /// Mutations of a valid spec (deleted, inserted and replaced characters)
        /// give a spec or an error, never a panic.
        #[test]
        fn mutated_specs_never_panic(edits in proptest::collection::vec((0usize..400, 0u8..3, "[-a-z0-9_:{}\\[\\], .\n]"), 1..6)) {
            let mut s: Vec<char> = VALID.chars().collect();
            for (pos, kind, ch) in edits {
                let p = pos % (s.len() + 1);
                let c = ch.chars().next().unwrap();
                match kind {
                    0 if p < s.len() => { s.remove(p); }
                    1 => s.insert(p, c),
                    _ if p < s.len() => s[p] = c,
                    _ => {}
                }
            }
            let s: String = s.into_iter().collect();
            if small_numbers(&s) {
                let _ = super::from_text(&s, Path::new("fuzz.yaml"));
            }
        }
    }
}
