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
use std::sync::{Arc, Mutex};

use anyhow::{Context, bail};
use serde_json::Value;

use crate::data::Dataset;
use crate::family::{self, Family, Plan, Planning};
use crate::params::{Node, SpecError, describe, parse_yaml};
use crate::store::SweepDir;
use crate::view::View;

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
    /// Views to render: `None`, every view that applies; `Some([])`, none.
    pub outputs: Option<Vec<String>>,
    /// Datasets to store (None: all). For huge sweeps: e.g. `[periods, loss_sets]`
    /// without the one-row-per-position `positions`.
    pub datasets: Option<Vec<String>>,
    /// The family's datasets written only on request
    /// ([`crate::family::Capabilities::on_request`]) that the spec asks for: listed in
    /// `datasets:` or read by one of its conjectures.
    pub asked: Vec<String>,
    /// The grid parameters of the experiment's sweeps of this family (their
    /// union, in the order met): columns of every dataset they store
    /// ([`crate::data::with_grid`]), so that one dataset's files share a schema.
    pub grid: Vec<String>,
    /// The views that apply to the sweep ([`Plan::views`]), from the plan
    /// made when the spec was loaded: the render stage needs no plan.
    pub views: Vec<&'static View>,
    /// The sweep's plan once made, kept for the next stage that needs it.
    planned: PlanMemo,
}

/// A sweep's plan kept once made, with the datasets asked for that it was
/// made with (`None`: an estimating plan, [`Planning::Estimate`]), so that a
/// process plans each sweep once: loading the spec plans it (to validate
/// it), and the guard, the dry run and the run use that plan. Planned again
/// only where that plan cannot serve: an estimating plan whose cases stand
/// for others ([`crate::family::Case::stands_in`], a lines enumeration
/// counted) before solving, or datasets asked for since (a conjecture reads
/// one written on request).
#[derive(Clone, Default)]
struct PlanMemo(Arc<Mutex<Kept>>);

/// The kept plan and the datasets asked for it was made with, if any.
type Kept = Option<(Plan, Option<Vec<String>>)>;

impl PlanMemo {
    fn keep(plan: Plan, asked: Option<Vec<String>>) -> PlanMemo {
        PlanMemo(Arc::new(Mutex::new(Some((plan, asked)))))
    }
}

impl Sweep {
    /// The datasets the sweep's family declares, with the experiment's grid
    /// parameters of that family as columns.
    pub fn declared(&self) -> &'static [&'static Dataset] {
        crate::data::with_grid(self.family.datasets(), &self.grid)
    }
    /// Expands the sweep into cases and views, to solve them: the plan kept
    /// since the spec was loaded where it serves ([`PlanMemo`]), taken (the
    /// driver consumes it), else a new one. Validated when the spec was
    /// loaded, so an error here means the family changed its mind.
    pub fn plan(&self) -> Result<Plan, SpecError> {
        let mut memo = self.memo();
        if let Some((plan, asked)) = memo.take() {
            let fits = match &asked {
                Some(a) => *a == self.asked,
                None => self.asked.is_empty() && !plan.cases.iter().any(|c| c.stands_in()),
            };
            if fits {
                return Ok(plan);
            }
        }
        self.family.plan(
            &Node::root(&self.params, &self.file),
            Planning::Solve { asked: &self.asked },
        )
    }
    /// The plan for estimates only ([`Planning::Estimate`]): quick
    /// whatever the sweep's size, its cases never solved. Taken from the
    /// kept plan where it serves, else made.
    pub fn plan_estimate(&self) -> Result<Plan, SpecError> {
        let mut memo = self.memo();
        self.fill_estimate(&mut memo)?;
        Ok(memo.take().expect("filled").0)
    }
    /// `f` of the plan for estimates ([`Sweep::plan_estimate`]), which is
    /// kept for the next stage (the guard's, before the run's).
    pub fn with_plan_estimate<R>(&self, f: impl FnOnce(&Plan) -> R) -> Result<R, SpecError> {
        let mut memo = self.memo();
        self.fill_estimate(&mut memo)?;
        Ok(f(&memo.as_ref().expect("filled").0))
    }
    fn memo(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.planned.0.lock().unwrap_or_else(|p| p.into_inner())
    }
    /// Makes the kept plan one for estimates, planning if it is none.
    fn fill_estimate(&self, memo: &mut Kept) -> Result<(), SpecError> {
        let fits = match memo.as_ref() {
            Some((_, Some(a))) => *a == self.asked,
            Some((_, None)) => self.asked.is_empty(),
            None => false,
        };
        if fits {
            return Ok(());
        }
        let node = Node::root(&self.params, &self.file);
        *memo = Some(if self.asked.is_empty() {
            (self.family.plan(&node, Planning::Estimate)?, None)
        } else {
            let how = Planning::Solve { asked: &self.asked };
            (self.family.plan(&node, how)?, Some(self.asked.clone()))
        });
        Ok(())
    }
    /// Where this sweep's results live under `out`, in experiment `experiment`.
    pub fn dir(&self, out: &Path, experiment: &str) -> SweepDir {
        SweepDir::new(
            out,
            experiment,
            &self.name,
            self.family.name(),
            self.declared(),
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
    /// Dataset inside the sweep (default: the family's first dataset).
    pub dataset: String,
    /// Optional filter: which rows the claim is about.
    pub filter: Option<String>,
    /// The predicate.
    pub claim: String,
    /// Where it comes from (report and section), free text.
    pub source: String,
    /// The claim in words.
    pub says: String,
    /// How the report's words were read where they needed interpretation
    /// (empty: read literally).
    pub reading: String,
    /// The claim's parts: where it holds and where it fails are reported
    /// part by part, and the verdict is `partly` when it holds on some.
    pub parts: Parts,
    /// `other:`: key columns recomputed to find a second row for each row
    /// (column, expression); the claim reads that row as `other_<column>`.
    pub other: Vec<(String, String)>,
    /// `strategy:`: a strategy played out against every reply: the
    /// position columns the strategy's move changes (column, expression
    /// giving the new value; null where the strategy names no move). The
    /// claim then reads `strategy_wins` (and `strategy_line`), see
    /// [`crate::check`].
    pub strategy: Vec<(String, String)>,
    /// `terms:`: the report's terms this claim reads otherwise than the
    /// experiment's `terms:` declare (term, this claim's reading).
    pub terms: Vec<(String, String)>,
    /// `assumes:`: what the verdict takes for granted that the source does
    /// not say (empty: nothing); the verdict reads "holds, assuming …".
    pub assumes: String,
    /// `marked:`: a part of the claim that could not have come out
    /// otherwise, and why; shown beside the verdict and counted.
    pub marked: Option<Mark>,
    /// Field path, for error messages.
    pub field: String,
}

/// Why a mark says that a (part of a) claim could not have come out
/// otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkReason {
    /// The data cannot contradict it: the columns it compares are computed
    /// from one another (`cannot fail`).
    CannotFail,
    /// It states what the solver's own table is built from
    /// (`restates the solver`).
    RestatesSolver,
}

impl MarkReason {
    /// The words a spec writes, and a reader sees.
    pub const WORDS: [&'static str; 2] = ["cannot fail", "restates the solver"];

    /// The reason in words.
    pub fn as_str(self) -> &'static str {
        match self {
            MarkReason::CannotFail => Self::WORDS[0],
            MarkReason::RestatesSolver => Self::WORDS[1],
        }
    }
}

/// `marked: {reason:, part:, why:}`: a claim, or one of its parts, that
/// could not have come out otherwise.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    /// Why it could not fail, from a closed list.
    pub reason: MarkReason,
    /// The part of the claim marked (one of its `parts:` names, or a value
    /// of its `by:`); `None`: the claim, or what `why` names in it.
    pub part: Option<String>,
    /// The reason in sentences.
    pub why: String,
}

impl Mark {
    /// `marked (cannot fail)`: the label shown beside a verdict.
    pub fn label(&self) -> String {
        format!("marked ({})", self.reason.as_str())
    }
    /// The heading of the mark's sentence: `Marked (cannot fail)`, with
    /// `, the part “…”` when it marks one part.
    pub fn heading(&self) -> String {
        match &self.part {
            Some(p) => format!("Marked ({}), the part “{p}”", self.reason.as_str()),
            None => format!("Marked ({})", self.reason.as_str()),
        }
    }
    /// The mark in full: `Marked (cannot fail): why`.
    pub fn sentence(&self) -> String {
        format!("{}: {}", self.heading(), self.why)
    }
}

/// How a conjecture's scope is split into parts.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Parts {
    /// One scope (the `where:` filter).
    #[default]
    Whole,
    /// `by: <expression>`: one part per distinct value of the expression
    /// over the matching rows, in order of first appearance.
    By(String),
    /// `parts: [{name:, where:}, ...]`: named sub-scopes (they may overlap,
    /// and rows outside every part are only counted in the whole).
    Named(Vec<(String, String)>),
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
    /// Statements of the source that no data can decide, and why (listed
    /// beside the verdicts, so every statement is accounted for).
    pub not_judged: Vec<NotJudged>,
    /// `terms:`: the report's words with one reading each (term, reading),
    /// declared once; a claim that reads a term otherwise names it.
    pub terms: Vec<(String, String)>,
    /// The spec text, verbatim (for the provenance manifest).
    pub text: String,
}

impl Conjecture {
    /// The names its expressions read ([`names_in`]: with the columns
    /// `other:` and `strategy:` name); `None` when one does not parse.
    pub fn names_read(&self) -> Option<std::collections::HashSet<String>> {
        let mut names = std::collections::HashSet::new();
        for t in self.expressions() {
            names_in(&t, &mut names)?;
        }
        Some(names)
    }
    /// Its expressions' texts (filter, claim, parts, `other:` and
    /// `strategy:`), with the columns `other:` and `strategy:` name.
    fn expressions(&self) -> Vec<String> {
        let parts: Vec<String> = match &self.parts {
            Parts::Whole => Vec::new(),
            Parts::By(e) => vec![e.clone()],
            Parts::Named(v) => v.iter().map(|(_, w)| w.clone()).collect(),
        };
        let pairs = self.other.iter().chain(&self.strategy);
        self.filter
            .iter()
            .cloned()
            .chain([self.claim.clone()])
            .chain(parts)
            .chain(pairs.flat_map(|(k, e)| [k.clone(), e.clone()]))
            .collect()
    }
}

/// The names an expression text reads (its syntax tree's free names), and
/// `x` for `other_x`; `None` when it does not parse.
pub(crate) fn names_in(text: &str, names: &mut std::collections::HashSet<String>) -> Option<()> {
    let ast = crate::expr::parse::parse(text).ok()?;
    for w in ast.free_names() {
        names.insert(w.to_string());
        if let Some(base) = w.strip_prefix("other_") {
            names.insert(base.to_string());
        }
    }
    Some(())
}

/// A statement of the source that is not judged, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotJudged {
    /// Where it is stated.
    pub source: String,
    /// What it says.
    pub says: String,
    /// Why no data decides it (or where its content is judged instead).
    pub why: String,
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
            "a spec is a map with `sweeps:` (and optionally `experiment:`, `title:`, `description:`, `conjectures:`, `not_judged:`), got {}",
            describe(&value)
        )));
    }
    root.expect_keys(&[
        "experiment",
        "title",
        "description",
        "sweeps",
        "conjectures",
        "not_judged",
        "terms",
    ])?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let name = opt_str(&root, "experiment")?.unwrap_or(&stem).to_string();
    check_name(&root, &name, "experiment")?;
    let mut sweeps = parse_sweeps(&root, &file)?;
    let terms = match root.get("terms") {
        Some(t) => parse_terms(&t, "its reading")?,
        None => Vec::new(),
    };
    let mut conjectures = Vec::new();
    if let Some(cs) = root.get("conjectures") {
        for c in cs.items() {
            conjectures.push(parse_conjecture(&c, &sweeps, &terms)?);
        }
    }
    ask_for_read_datasets(&mut sweeps, &conjectures);
    let not_judged = root
        .get("not_judged")
        .map(|n| n.items().iter().map(parse_not_judged).collect())
        .transpose()?
        .unwrap_or_default();
    Ok(Experiment {
        file: path.to_path_buf(),
        title: opt_str(&root, "title")?.unwrap_or(&name).to_string(),
        description: opt_str(&root, "description")?.unwrap_or("").to_string(),
        name,
        sweeps,
        conjectures,
        not_judged,
        terms,
        text: text.to_string(),
    })
}

/// Adds to each sweep's `asked` the datasets written only on request that a
/// conjecture reads.
fn ask_for_read_datasets(sweeps: &mut [Sweep], conjectures: &[Conjecture]) {
    for c in conjectures {
        let Some(s) = sweeps.iter_mut().find(|s| s.name == c.sweep) else {
            continue;
        };
        if s.family
            .capabilities()
            .on_request
            .contains(&c.dataset.as_str())
            && !s.asked.contains(&c.dataset)
        {
            s.asked.push(c.dataset.clone());
        }
    }
}

/// `terms: {term: reading, ...}`: a map of the report's words to readings.
fn parse_terms(t: &Node<'_>, what: &str) -> Result<Vec<(String, String)>, SpecError> {
    let map = t.expect_map()?;
    if map.is_empty() {
        return Err(t.err(format!(
            "expected a map of terms to readings, e.g. `terms: {{可控: \"Grundy value ≥ 2\"}}`; remove it to declare none ({what})"
        )));
    }
    map.keys()
        .map(|k| Ok((k.clone(), t.req(k, what)?.str()?.to_string())))
        .collect()
}

/// A claim's `terms:`: each a term the experiment declares, read otherwise.
fn claim_terms(
    c: &Node<'_>,
    declared: &[(String, String)],
) -> Result<Vec<(String, String)>, SpecError> {
    let Some(t) = c.get("terms") else {
        return Ok(Vec::new());
    };
    let terms = parse_terms(
        &t,
        "the reading this claim uses instead of the experiment's",
    )?;
    for (term, reading) in &terms {
        match declared.iter().find(|(d, _)| d == term) {
            None => {
                let known: Vec<&str> = declared.iter().map(|(d, _)| d.as_str()).collect();
                return Err(t.req(term, "")?.err(format!(
                    "the experiment's `terms:` do not declare {term:?}; declared: {}",
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                )));
            }
            Some((_, r)) if r == reading => {
                return Err(t.req(term, "")?.err(format!(
                    "this is the experiment's own reading of {term:?}: a claim names only another reading"
                )));
            }
            Some(_) => {}
        }
    }
    Ok(terms)
}

/// One `not_judged:` item: `source`, `says` and `why`, all required.
fn parse_not_judged(n: &Node<'_>) -> Result<NotJudged, SpecError> {
    n.expect_keys(&["source", "says", "why"])?;
    let field = |key: &str, what: &str| -> Result<String, SpecError> {
        Ok(n.req(key, what)?.str()?.to_string())
    };
    Ok(NotJudged {
        source: field("source", "where the statement is made")?,
        says: field("says", "the statement")?,
        why: field("why", "why no data decides it")?,
    })
}

/// An optional string field.
fn opt_str<'a>(n: &Node<'a>, key: &str) -> Result<Option<&'a str>, SpecError> {
    n.get(key).map(|v| v.str()).transpose()
}

fn parse_sweeps(root: &Node<'_>, file: &str) -> Result<Vec<Sweep>, SpecError> {
    let node = root.req(
        "sweeps",
        "a list of sweeps, each with `name:` and `family:`",
    )?;
    if !node.value().is_array() || node.items().is_empty() {
        return Err(node.err("expected a non-empty list of sweeps"));
    }
    let mut sweeps: Vec<Sweep> = Vec::new();
    for (index, s) in node.items().into_iter().enumerate() {
        let sweep = parse_sweep(&s, index, file)?;
        if sweeps.iter().any(|o| o.name == sweep.name) {
            let n = s.req("name", "")?;
            return Err(n.err(format!("duplicate sweep name {:?}", sweep.name)));
        }
        sweeps.push(sweep);
    }
    share_grids(&mut sweeps);
    Ok(sweeps)
}

/// Gives each sweep the grid parameters of every sweep of its family in the
/// experiment (each sweep starts with its own).
fn share_grids(sweeps: &mut [Sweep]) {
    for i in 0..sweeps.len() {
        let mut names: Vec<String> = Vec::new();
        for o in sweeps
            .iter()
            .filter(|o| o.family.name() == sweeps[i].family.name())
        {
            for n in &o.grid {
                if !names.contains(n) {
                    names.push(n.clone());
                }
            }
        }
        sweeps[i].grid = names;
    }
}

fn family_of(s: &Node<'_>) -> Result<&'static dyn Family, SpecError> {
    let node = s.req("family", "the game family")?;
    let name = node.str()?;
    family::by_name(name).ok_or_else(|| {
        let known: Vec<&str> = family::FAMILIES.iter().map(|f| f.name()).collect();
        node.err(format!(
            "unknown family {name:?}; known families: {}",
            known.join(", ")
        ))
    })
}

/// One sweep: its name, family and parameters, validated by planning it.
fn parse_sweep(s: &Node<'_>, index: usize, file: &str) -> Result<Sweep, SpecError> {
    s.expect_map()?;
    let family = family_of(s)?;
    let sname = s.req(
        "name",
        "a short name (letters, digits, - and _), used as a directory",
    )?;
    let name = sname.str()?.to_string();
    check_name(&sname, &name, "name")?;
    // Validate the family parameters now, so a bad spec fails before anything
    // runs. The plan is kept for the stages that follow ([`PlanMemo`]),
    // made as they would make it (its notes name the sweep's own fields); a
    // mistake is named by its place in the spec.
    let plan = match family.plan(&Node::root(s.value(), file), Planning::Estimate) {
        Ok(plan) => plan,
        Err(e) => return Err(family.plan(s, Planning::Estimate).err().unwrap_or(e)),
    };
    let datasets = sweep_datasets(s, family)?;
    Ok(Sweep {
        title: opt_str(s, "title")?.unwrap_or(&name).to_string(),
        name,
        family,
        params: s.value().clone(),
        index,
        file: file.to_string(),
        outputs: sweep_outputs(s, family, &plan)?,
        grid: plan.grid.clone(),
        views: plan.views.clone(),
        asked: datasets
            .iter()
            .flatten()
            .filter(|d| family.capabilities().on_request.contains(&d.as_str()))
            .cloned()
            .collect(),
        datasets,
        planned: PlanMemo::keep(plan, None),
    })
}

/// `outputs:`: absent means every view that applies; `[]` means none (data only).
fn sweep_outputs(
    s: &Node<'_>,
    family: &dyn Family,
    plan: &Plan,
) -> Result<Option<Vec<String>>, SpecError> {
    let Some(o) = s.get("outputs") else {
        return Ok(None);
    };
    if o.value().as_array().is_some_and(|a| a.is_empty()) {
        return Ok(Some(vec![]));
    }
    let names = family.view_names();
    let mut v = Vec::new();
    for item in o.items() {
        let want = item.word(&names)?;
        if !plan.views.iter().any(|x| x.name == want) {
            let offered: Vec<&str> = plan.views.iter().map(|x| x.name).collect();
            return Err(item.err(format!(
                "view {want:?} does not apply to this sweep; views offered here: {}",
                offered.join(", ")
            )));
        }
        v.push(want.to_string());
    }
    Ok(Some(v))
}

/// `datasets:`: which of the family's datasets to store (absent: all).
fn sweep_datasets(s: &Node<'_>, family: &dyn Family) -> Result<Option<Vec<String>>, SpecError> {
    let Some(d) = s.get("datasets") else {
        return Ok(None);
    };
    let names: Vec<&str> = family.datasets().iter().map(|d| d.name).collect();
    let items = d.items();
    if items.is_empty() {
        return Err(d.err(format!(
            "give at least one dataset name; this family's datasets: {}",
            names.join(", ")
        )));
    }
    items
        .iter()
        .map(|it| it.word(&names).map(str::to_string))
        .collect::<Result<_, _>>()
        .map(Some)
}

/// One conjecture: the sweep and dataset it is about, its filter and claim
/// (syntax-checked now), its source and its words.
fn parse_conjecture(
    c: &Node<'_>,
    sweeps: &[Sweep],
    terms: &[(String, String)],
) -> Result<Conjecture, SpecError> {
    c.expect_keys(&[
        "name", "sweep", "dataset", "where", "claim", "source", "says", "reading", "by", "parts",
        "other", "terms", "assumes", "strategy", "marked",
    ])?;
    let sweep_node = c.req("sweep", "the sweep whose results the claim is about")?;
    let sweep = sweep_node.str()?.to_string();
    let Some(s) = sweeps.iter().find(|s| s.name == sweep) else {
        let names: Vec<&str> = sweeps.iter().map(|s| s.name.as_str()).collect();
        return Err(sweep_node.err(format!(
            "no sweep named {sweep:?} in this spec; sweeps: {}",
            names.join(", ")
        )));
    };
    // By default a claim is about the family's first dataset (its positions).
    let first = s.family.datasets().first().map_or("", |d| d.name);
    let strategy = parse_columns(c, "strategy")?;
    let claim = match c.get("claim") {
        None if !strategy.is_empty() => STRATEGY_WINS.to_string(),
        _ => {
            let claim_node = c.req("claim", "a predicate over the dataset's columns")?;
            let claim = claim_node.str()?.to_string();
            crate::expr::syntax_check(&claim).map_err(|e| claim_node.err(format!("{e}")))?;
            claim
        }
    };
    if let Some(w) = c.get("where") {
        crate::expr::syntax_check(w.str()?).map_err(|e| w.err(format!("{e}")))?;
    }
    let parts = parse_parts(c)?;
    Ok(Conjecture {
        name: c.req("name", "a short name")?.str()?.to_string(),
        dataset: conjecture_dataset(c, s)?.unwrap_or(first).to_string(),
        sweep,
        filter: opt_str(c, "where")?.map(str::to_string),
        claim,
        source: opt_str(c, "source")?.unwrap_or("").to_string(),
        says: opt_str(c, "says")?.unwrap_or("").to_string(),
        reading: opt_str(c, "reading")?.unwrap_or("").to_string(),
        marked: parse_mark(c, &parts)?,
        parts,
        other: parse_columns(c, "other")?,
        strategy,
        terms: claim_terms(c, terms)?,
        assumes: opt_str(c, "assumes")?.unwrap_or("").to_string(),
        field: c.path().to_string(),
    })
}

/// `marked: {reason:, part:, why:}`, if given. A `part:` must name one of
/// the claim's `parts:` (a part of `by:` is named by a value, known only
/// when checked: [`crate::check`] refuses one that names none).
fn parse_mark(c: &Node<'_>, parts: &Parts) -> Result<Option<Mark>, SpecError> {
    let Some(m) = c.get("marked") else {
        return Ok(None);
    };
    if !m.value().is_object() {
        return Err(m.err(format!(
            "expected a map `{{reason: {}, why: ..., part: ...}}` (part optional), got {}",
            MarkReason::WORDS.join(" | "),
            describe(m.value())
        )));
    }
    m.expect_keys(&["reason", "part", "why"])?;
    let r = m.req("reason", "why the claim could not fail")?;
    let reason = match r.word(&MarkReason::WORDS)? {
        w if w == MarkReason::WORDS[0] => MarkReason::CannotFail,
        _ => MarkReason::RestatesSolver,
    };
    let why = m.req("why", "the reason in sentences")?.str()?.trim();
    if why.is_empty() {
        return Err(m.req("why", "")?.err("the reason in sentences, not empty"));
    }
    let part = match m.get("part") {
        None => None,
        Some(p) => Some(mark_part(&p, parts)?.to_string()),
    };
    Ok(Some(Mark {
        reason,
        part,
        why: why.to_string(),
    }))
}

/// `marked.part`: a name of the claim's `parts:` (any text for `by:`).
fn mark_part<'a>(p: &Node<'a>, parts: &Parts) -> Result<&'a str, SpecError> {
    let name = p.str()?;
    match parts {
        Parts::Whole => Err(p.err(
            "this claim has no parts (`by:` or `parts:`) to mark one of; leave `part:` out to mark the claim",
        )),
        Parts::By(_) => Ok(name),
        Parts::Named(list) => {
            let names: Vec<&str> = list.iter().map(|(n, _)| n.as_str()).collect();
            if names.contains(&name) {
                return Ok(name);
            }
            let near = crate::data::nearest_name(name, &names)
                .map(|n| format!(" (did you mean `{n}`?)"))
                .unwrap_or_default();
            Err(p.err(format!(
                "no part named {name:?}{near}; the claim's parts: {}",
                names.join(", ")
            )))
        }
    }
}

/// `dataset:`, if given: one the sweep's family declares and the sweep stores.
fn conjecture_dataset<'a>(c: &Node<'a>, s: &Sweep) -> Result<Option<&'a str>, SpecError> {
    let Some(node) = c.get("dataset") else {
        return Ok(None);
    };
    let name = node.str()?;
    let stored: Vec<&str> = s
        .family
        .datasets()
        .iter()
        .map(|d| d.name)
        .filter(|d| s.datasets.as_ref().is_none_or(|w| w.iter().any(|x| x == d)))
        .collect();
    if stored.contains(&name) {
        return Ok(Some(name));
    }
    let declared = s.family.datasets().iter().any(|d| d.name == name);
    let why = if declared {
        format!(
            "sweep `{}` does not store dataset `{name}` (its `datasets:` leaves it out)",
            s.name
        )
    } else {
        let near = crate::data::nearest_name(name, &stored)
            .map(|n| format!(" (did you mean `{n}`?)"))
            .unwrap_or_default();
        format!("family {} has no dataset `{name}`{near}", s.family.name())
    };
    let conjecture = c.get("name").and_then(|n| n.str().ok()).unwrap_or("?");
    Err(node.err(format!(
        "conjecture `{conjecture}`: {why}; the datasets of sweep `{}`: {}",
        s.name,
        stored.join(", ")
    )))
}

/// `by:` (an expression) or `parts:` (a list of `{name:, where:}`), not both.
/// The claim of a conjecture with `strategy:` and no `claim:`: the
/// strategy's player wins from every position in scope.
pub const STRATEGY_WINS: &str = "strategy_wins";

/// `other: {column: expression, ...}`: how the second row's key columns
/// differ from the row's own; `strategy: {column: expression, ...}`: the
/// position the strategy's move leaves.
fn parse_columns(c: &Node<'_>, field: &str) -> Result<Vec<(String, String)>, SpecError> {
    let Some(o) = c.get(field) else {
        return Ok(Vec::new());
    };
    let map = o.expect_map()?;
    if map.is_empty() {
        return Err(o.err(if field == "other" {
            "expected a map of key columns to expressions, e.g. `other: {mover: 'mover == \"odd\" ? \"even\" : \"odd\"'}`"
        } else {
            "expected a map of position columns to expressions giving the position the strategy's move leaves, e.g. `strategy: {N: 'N - N % 4'}`"
        }));
    }
    let mut out = Vec::new();
    for key in map.keys() {
        let e = o.req(key, "an expression giving the column's new value")?;
        crate::expr::syntax_check(e.str()?).map_err(|err| e.err(format!("{err}")))?;
        out.push((key.clone(), e.str()?.to_string()));
    }
    Ok(out)
}

fn parse_parts(c: &Node<'_>) -> Result<Parts, SpecError> {
    match (c.get("by"), c.get("parts")) {
        (Some(b), Some(_)) => Err(b.err(
            "give either `by:` (an expression whose values name the parts) or `parts:` (a list of {name:, where:}), not both",
        )),
        (Some(b), None) => {
            let e = b.str()?;
            crate::expr::syntax_check(e).map_err(|err| b.err(format!("{err}")))?;
            Ok(Parts::By(e.to_string()))
        }
        (None, Some(p)) => {
            let items = p.items();
            if !p.value().is_array() || items.is_empty() {
                return Err(p.err(
                    "expected a non-empty list of parts, each `{name: ..., where: ...}`",
                ));
            }
            let mut out: Vec<(String, String)> = Vec::new();
            for it in items {
                it.expect_keys(&["name", "where"])?;
                let n = it.req("name", "a short name for the part")?;
                let name = n.str()?.to_string();
                if out.iter().any(|(o, _)| *o == name) {
                    return Err(n.err(format!("duplicate part name {name:?}")));
                }
                let w = it.req("where", "a predicate choosing the part's rows")?;
                crate::expr::syntax_check(w.str()?).map_err(|e| w.err(format!("{e}")))?;
                out.push((name, w.str()?.to_string()));
            }
            Ok(Parts::Named(out))
        }
        (None, None) => Ok(Parts::Whole),
    }
}

/// The folder of the default specs, relative to the working directory.
pub const DEFAULT_SPECS: &str = "experiments";

/// The default specs: every `*.yaml` directly under `experiments/`. Outside
/// the repository (no such folder, or no spec in it) the error says what to do.
pub fn default_specs() -> anyhow::Result<Vec<PathBuf>> {
    let dir = Path::new(DEFAULT_SPECS);
    let files = if dir.is_dir() {
        spec_files(dir)?
    } else {
        Vec::new()
    };
    if files.is_empty() {
        let here = std::env::current_dir().unwrap_or_default();
        bail!(
            "no spec given, and no {DEFAULT_SPECS}/*.yaml in {} to run by default: name spec files or folders, e.g. `nimlab run my-sweep.yaml` (the README's \"A spec\" shows the format, `nimlab families` the games and their parameters)",
            here.display()
        );
    }
    Ok(files)
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
    let mut exps: Vec<Experiment> = Vec::new();
    for f in spec_paths(paths)? {
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

/// The experiments' names only (`nimlab run --list`): each spec's
/// `experiment:` or its file name, without validating or planning it.
pub fn experiment_names(paths: &[PathBuf]) -> anyhow::Result<Vec<String>> {
    let mut names: Vec<(String, PathBuf)> = Vec::new();
    for f in spec_paths(paths)? {
        let file = f.display().to_string();
        let text = std::fs::read_to_string(&f).with_context(|| format!("cannot read {file}"))?;
        let value = parse_yaml(&text, &file)?;
        let root = Node::root(&value, &file);
        let stem = f
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        let name = match value.is_object() {
            true => opt_str(&root, "experiment")?.unwrap_or(&stem).to_string(),
            false => stem,
        };
        if let Some((_, other)) = names.iter().find(|(n, _)| *n == name) {
            bail!(
                "{} and {} both name experiment {name:?}",
                other.display(),
                f.display()
            );
        }
        names.push((name, f));
    }
    Ok(names.into_iter().map(|(n, _)| n).collect())
}

/// The spec files named by `paths` (a directory: its specs), or the default
/// ones when none is given.
fn spec_paths(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
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
    Ok(files)
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

#[cfg(test)]
mod asked_tests {
    use super::from_text;
    use std::path::Path;

    fn asked(spec: &str) -> Vec<Vec<String>> {
        let e = from_text(spec, Path::new("t.yaml")).unwrap();
        e.sweeps.into_iter().map(|s| s.asked).collect()
    }

    /// A dataset written only on request is asked for by the sweep's
    /// `datasets:` or by a conjecture reading it, for that sweep only;
    /// other datasets are never "asked".
    #[test]
    fn on_request_datasets_asked_by_list_or_conjecture() {
        let sweeps = "sweeps:\n  - {name: a, family: parity, k: 3, r: 0..9}\n  - {name: b, family: parity, k: 2, r: 0..9}\n";
        assert_eq!(asked(sweeps), vec![Vec::<String>::new(), vec![]]);
        let read = format!(
            "{sweeps}conjectures:\n  - {{name: c, sweep: b, dataset: remoteness, claim: 'remoteness >= 0'}}\n  - {{name: d, sweep: a, dataset: outcome, claim: 'r >= 0'}}\n"
        );
        assert_eq!(asked(&read), vec![vec![], vec!["remoteness".to_string()]]);
        let listed = "sweeps:\n  - {name: a, family: parity, k: 3, datasets: [outcome, remoteness]}\n  - {name: b, family: parity, k: 3, datasets: [outcome]}\n";
        assert_eq!(asked(listed), vec![vec!["remoteness".to_string()], vec![]]);
    }
}

#[cfg(test)]
mod parts_tests {
    use super::{Parts, from_text};
    use std::path::Path;

    const HEAD: &str = "sweeps:\n  - name: a\n    family: takeaway\n    take: {max: 2..3}\n    N: 0..9\nconjectures:\n  - name: c\n    sweep: a\n    claim: 'N >= 0'\n";

    fn load(extra: &str) -> Result<super::Experiment, super::SpecError> {
        from_text(&format!("{HEAD}{extra}"), Path::new("t.yaml"))
    }

    #[test]
    fn by_parts_and_reading_are_read() {
        let e = load("    by: 'take_max % 2'\n    reading: read so\n").unwrap();
        assert_eq!(e.conjectures[0].parts, Parts::By("take_max % 2".into()));
        assert_eq!(e.conjectures[0].reading, "read so");
        let e = load("    parts:\n      - {name: small, where: 'N < 5'}\n      - {name: big, where: 'N >= 5'}\n").unwrap();
        assert_eq!(
            e.conjectures[0].parts,
            Parts::Named(vec![
                ("small".into(), "N < 5".into()),
                ("big".into(), "N >= 5".into())
            ])
        );
        assert_eq!(load("").unwrap().conjectures[0].parts, Parts::Whole);
    }

    #[test]
    fn bad_parts_name_file_and_field() {
        let msg = |extra: &str| load(extra).err().expect("an error").to_string();
        let both = msg("    by: N\n    parts: [{name: a, where: 'N < 1'}]\n");
        assert!(
            both.contains("t.yaml")
                && both.contains("conjectures[0].by")
                && both.contains("not both"),
            "{both}"
        );
        let syntax = msg("    by: 'N +'\n");
        assert!(syntax.contains("conjectures[0].by"), "{syntax}");
        let dup = msg("    parts: [{name: a, where: 'N < 1'}, {name: a, where: 'N > 1'}]\n");
        assert!(
            dup.contains("conjectures[0].parts[1].name") && dup.contains("duplicate part"),
            "{dup}"
        );
        let nowhere = msg("    parts: [{name: a}]\n");
        assert!(
            nowhere.contains("conjectures[0].parts[0]") && nowhere.contains("where"),
            "{nowhere}"
        );
        let empty = msg("    parts: []\n");
        assert!(empty.contains("non-empty list of parts"), "{empty}");
        let unknown = msg("    parts: [{name: a, where: 'N < 1', when: x}]\n");
        assert!(unknown.contains("unknown field `when`"), "{unknown}");
        // A misspelt field names the one meant.
        let Err(typo) = crate::spec::from_text(
            "sweeps:\n  - name: a\n    family: takeaway\n    take: {max: 3}\n    heap: 2\n",
            std::path::Path::new("t.yaml"),
        ) else {
            panic!("a misspelt field is refused");
        };
        let typo = typo.to_string();
        assert!(
            typo.contains("unknown field `heap` (did you mean `heaps`?)"),
            "{typo}"
        );
    }

    /// A spec with the experiment's `terms:` before its `HEAD`.
    fn with_terms(terms: &str, extra: &str) -> Result<super::Experiment, super::SpecError> {
        from_text(&format!("{terms}{HEAD}{extra}"), Path::new("t.yaml"))
    }

    #[test]
    fn terms_and_assumptions_are_read() {
        let e = with_terms(
            "terms: {可控: 'Grundy value >= 2'}\n",
            "    terms: {可控: 'N3, N4 or N5'}\n    assumes: the board is T(5)\n",
        )
        .unwrap();
        assert_eq!(
            e.terms,
            vec![("可控".to_string(), "Grundy value >= 2".to_string())]
        );
        let c = &e.conjectures[0];
        assert_eq!(
            c.terms,
            vec![("可控".to_string(), "N3, N4 or N5".to_string())]
        );
        assert_eq!(c.assumes, "the board is T(5)");
        let plain = load("").unwrap();
        assert!(plain.terms.is_empty() && plain.conjectures[0].assumes.is_empty());
    }

    #[test]
    fn a_mark_is_read_with_its_part() {
        use super::{Mark, MarkReason};
        let e = load(
            "    parts: [{name: small, where: 'N < 5'}]\n    marked: {reason: restates the solver, part: small, why: ' the table. '}\n",
        )
        .unwrap();
        let mark = Mark {
            reason: MarkReason::RestatesSolver,
            part: Some("small".into()),
            why: "the table.".into(),
        };
        assert_eq!(e.conjectures[0].marked, Some(mark.clone()));
        assert_eq!(
            mark.sentence(),
            "Marked (restates the solver), the part “small”: the table."
        );
        let whole = load("    marked: {reason: cannot fail, why: x}\n").unwrap();
        let m = whole.conjectures[0].marked.as_ref().unwrap();
        assert_eq!(
            (m.reason, m.part.as_deref()),
            (MarkReason::CannotFail, None)
        );
        assert_eq!(m.label(), "marked (cannot fail)");
        assert!(load("").unwrap().conjectures[0].marked.is_none());
    }

    #[test]
    fn bad_terms_name_file_and_field() {
        let msg = |terms: &str, extra: &str| {
            with_terms(terms, extra)
                .err()
                .expect("an error")
                .to_string()
        };
        let undeclared = msg("", "    terms: {可控: 'N3 to N5'}\n");
        assert!(
            undeclared.contains("t.yaml")
                && undeclared.contains("conjectures[0].terms.可控")
                && undeclared.contains("do not declare"),
            "{undeclared}"
        );
        let same = msg("terms: {可控: 'G >= 2'}\n", "    terms: {可控: 'G >= 2'}\n");
        assert!(same.contains("the experiment's own reading"), "{same}");
        let empty = msg("terms: {}\n", "");
        assert!(
            empty.contains("terms") && empty.contains("map of terms"),
            "{empty}"
        );
        let list = msg("terms: [a]\n", "");
        assert!(
            list.contains("terms") && list.contains("expected a map"),
            "{list}"
        );
        let number = msg("terms: {a: 3}\n", "");
        assert!(number.contains("terms.a"), "{number}");
    }
}
