//! Calibration's side of the families (`nimlab calibrate`): the probes a
//! family declares ([`Probe`], [`OverheadProbes`]), the kernels whose rates
//! the cost model needs, and the helpers a probe uses to solve a small sweep
//! in memory and count the work its cases state. The rates measured and
//! their cache are [`crate::cost`]'s; the command is `cmd::calibrate`.

use std::sync::OnceLock;

use anyhow::Context;

use super::{FAMILIES, Family, Plan, plan_yaml, solve_cases};
use crate::cost::{Kernel, Work};

/// A measurement of one kernel's rate on fixed small inputs (`nimlab
/// calibrate`): `run` does the work and returns the units done.
pub struct Probe {
    /// The kernel measured.
    pub kernel: Kernel,
    /// Does fixed work; returns its units.
    pub run: fn() -> anyhow::Result<u64>,
}

/// Every kernel whose rate the cost model needs: each family's (those its
/// probes measure, [`Family::probes`]) and the writer's.
pub fn kernels() -> Vec<Kernel> {
    let mut all = vec![crate::cost::WRITER];
    for p in FAMILIES.iter().flat_map(|f| f.probes()) {
        if !all.contains(&p.kernel) {
            all.push(p.kernel);
        }
    }
    all
}

/// The small sweeps (YAML) a family offers for measuring the fixed costs of a
/// run (`nimlab calibrate`): the first family in [`FAMILIES`] offering them
/// serves. `dataset` is the dataset the writer's probes write.
#[derive(Clone, Copy, Debug)]
pub struct OverheadProbes {
    /// The dataset written.
    pub dataset: &'static str,
    /// A sweep of one row of `dataset`: the cost of a file written.
    pub one_row: &'static str,
    /// A sweep of some thousands of rows of `dataset`: the writer's rate.
    pub rows: &'static str,
    /// A sweep of a couple of hundred tiny cases: the cost of a case.
    pub cases: &'static str,
}

/// Solves every case of a sweep given as YAML in memory (nothing written)
/// as a run does, each table checked against its declaration, and returns
/// the cases and their stated work: `nimlab calibrate`'s measure of the
/// fixed cost of a case.
pub fn probe_cases(family: &dyn Family, yaml: &str) -> anyhow::Result<(u64, Work)> {
    let (mut cases, mut work) = (0u64, Work::new());
    let plan = plan_yaml(family, yaml, "probe.yaml")?;
    let declared = crate::data::with_grid(family.datasets(), &plan.grid);
    solve_cases(plan.cases.iter().map(|c| c.as_ref()), None, |case, out| {
        for (ds, t) in &out {
            let ds = crate::data::as_declared(declared, ds);
            ds.validate(t).map_err(anyhow::Error::msg)?;
        }
        std::hint::black_box(out);
        cases += 1;
        crate::cost::add(&mut work, &case.cost(None).work);
        Ok(())
    })?;
    Ok((cases, work))
}

/// A probe's work: solves every case of a sweep given as YAML in memory
/// (nothing written) and returns the units of `kernel` they stated.
pub fn probe_sweep(family: &dyn Family, yaml: &str, kernel: Kernel) -> anyhow::Result<u64> {
    probe_sweep_keeping(family, yaml, kernel, None)
}

/// [`probe_sweep`] of a sweep keeping only the datasets `keep` (its
/// `datasets:`; a case may then do other work).
pub fn probe_sweep_keeping(
    family: &dyn Family,
    yaml: &str,
    kernel: Kernel,
    keep: Option<&[String]>,
) -> anyhow::Result<u64> {
    probe_plan(&plan_yaml(family, yaml, "probe.yaml")?, kernel, keep)
}

/// [`probe_sweep_keeping`] on a plan made once per process and kept in
/// `plan`: its cases keep what they fill on first use (the chord solver's
/// memo), so the runs after the first (`nimlab calibrate` runs each probe
/// once before timing it) time the work of each case alone.
pub fn probe_planned(
    plan: &'static OnceLock<Plan>,
    (family, yaml): (&dyn Family, &str),
    kernel: Kernel,
    keep: Option<&[String]>,
) -> anyhow::Result<u64> {
    if plan.get().is_none() {
        let _ = plan.set(plan_yaml(family, yaml, "probe.yaml")?);
    }
    let plan = plan.get().context("a probe's plan")?;
    probe_plan(plan, kernel, keep)
}

/// Solves `plan`'s cases stating work of `kernel`, keeping `keep`; the
/// units they stated.
fn probe_plan(plan: &Plan, kernel: Kernel, keep: Option<&[String]>) -> anyhow::Result<u64> {
    // Only the cases doing the kernel's work are solved (their time is its).
    let mut units = 0u64;
    let mut doing = Vec::new();
    for case in &plan.cases {
        let work = case.cost(keep).work;
        let n: u64 = work
            .iter()
            .filter(|(k, _)| *k == kernel)
            .map(|(_, n)| n)
            .sum();
        if n > 0 {
            units += n;
            doing.push(case.as_ref());
        }
    }
    solve_cases(doing.into_iter(), keep, |_, out| {
        std::hint::black_box(out);
        Ok(())
    })?;
    Ok(units)
}
