//! What a long solve reports as it goes: `nimlab solve` shows it on standard
//! error; a sweep's driver counts only the work units.

/// Receives a solver's progress. Any `Fn(u64)` closure is a watch that
/// counts work units only (a sweep's cost unit).
pub trait Watch: Sync {
    /// The solver starts: what it counts (e.g. "positions") and how many
    /// there are, when that is known in advance.
    fn begin(&self, unit: &'static str, total: Option<u64>) {
        let _ = (unit, total);
    }
    /// `n` more units done.
    fn step(&self, n: u64);
    /// The solver's memo takes about `bytes`, of a budget of `budget` bytes.
    fn memo(&self, bytes: u64, budget: u64) {
        let _ = (bytes, budget);
    }
}

impl<F: Fn(u64) + Sync> Watch for F {
    fn step(&self, n: u64) {
        self(n)
    }
}

/// Watches nothing (a solve whose progress nobody shows).
pub struct Unwatched;

impl Watch for Unwatched {
    fn step(&self, _: u64) {}
}

/// A watch that shows nothing.
pub const UNWATCHED: &dyn Watch = &Unwatched;

/// `nimlab solve`'s bar shows what the solver reports.
impl Watch for crate::progress::SolveProgress {
    fn begin(&self, unit: &'static str, total: Option<u64>) {
        crate::progress::SolveProgress::begin(self, unit, total)
    }
    fn step(&self, n: u64) {
        crate::progress::SolveProgress::step(self, n)
    }
    fn memo(&self, bytes: u64, budget: u64) {
        crate::progress::SolveProgress::memo(self, bytes, budget)
    }
}
