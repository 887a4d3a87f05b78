//! The progress bars, on standard error and hidden when it is not a
//! terminal or when asked to be quiet: the one factory of a sweep's bar (as
//! hyperfine's) and [`SolveProgress`], `nimlab solve`'s bar (a family's
//! solver reports to it through `family::watch::Watch`).

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// A bar over `len` units of estimated work: the percentage of the work,
/// a message (e.g. cases done), elapsed time and an estimate of the rest.
pub fn progress_bar(len: u64, quiet: bool) -> ProgressBar {
    progress_bar_estimated(len, quiet, None)
}

/// [`progress_bar`] of work estimated to take `estimated` seconds: the time
/// left starts from that estimate and blends into the measured pace as the
/// work is done ([`eta_secs`]).
pub fn progress_bar_estimated(len: u64, quiet: bool, estimated: Option<f64>) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(
        "{prefix:.bold} [{bar:30}] {percent:>3}% of the estimated work · {msg} · {elapsed} elapsed, about {left} left",
    )
    .map(|s| {
        s.progress_chars("=> ")
            .with_key("left", move |st: &ProgressState, w: &mut dyn std::fmt::Write| {
                let left = eta_secs(
                    (st.pos(), st.len().unwrap_or(0)),
                    st.elapsed().as_secs_f64(),
                    estimated,
                );
                let _ = match left {
                    Some(s) => write!(w, "{}", crate::cost::human_secs(s)),
                    None => write!(w, "?"),
                };
            })
    })
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    pb.set_style(style);
    pb
}

/// The time left of a bar whose units are the cost model's estimated work
/// (the sweep's bar counts each case's estimated microseconds, however
/// unequal), `done` of `total` units done in `elapsed` seconds. Two
/// figures, blended by the share of the work done `f`:
/// - the estimate's (`estimated` seconds for the whole bar): its share of
///   the work left, `estimated × (1 − f)`, what it says before anything is
///   measured (a shared table built first, the first slow cases);
/// - the measured pace's: the work left at the pace so far,
///   `elapsed × (total − done) / done`, which the estimate gives way to as
///   the work is done.
///
/// The time left is `(1 − f) × estimate's + f × pace's`. Without an
/// estimate, the pace's alone (`None` before any unit is done).
pub fn eta_secs((done, total): (u64, u64), elapsed: f64, estimated: Option<f64>) -> Option<f64> {
    let left = total.saturating_sub(done) as f64;
    let pace = (done > 0).then(|| elapsed * left / done as f64);
    let Some(est) = estimated.filter(|e| e.is_finite() && *e >= 0.0 && total > 0) else {
        return pace;
    };
    let f = (done as f64 / total as f64).min(1.0);
    let by_estimate = est * (1.0 - f);
    Some(match pace {
        Some(p) => (1.0 - f) * by_estimate + f * p,
        None => by_estimate,
    })
}

/// `n` and the noun `what`, plural unless `n` is 1: `1 case`, `3 cases`.
pub fn counted(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// The progress of one long solve (`nimlab solve`), on standard error and
/// hidden when it is not a terminal: what the solver counts, against the
/// total and with an estimate of the rest where the total is known, the
/// memo against its budget, and the elapsed time.
pub struct SolveProgress {
    bar: ProgressBar,
}

impl SolveProgress {
    /// A display that shows nothing until the solver begins.
    pub fn new() -> Self {
        let bar = if !std::io::stderr().is_terminal() {
            ProgressBar::hidden()
        } else {
            ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
        };
        SolveProgress { bar }
    }

    /// Clears the line (the answer follows on standard output).
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    /// The solver starts: what it counts and how many, when known.
    pub fn begin(&self, unit: &'static str, total: Option<u64>) {
        self.bar.set_style(Self::style(unit, total));
        match total {
            Some(n) => self.bar.set_length(n),
            None => self.bar.unset_length(),
        }
        self.bar.set_position(0);
        self.bar.set_message("");
        self.bar
            .enable_steady_tick(std::time::Duration::from_millis(250));
    }
    /// `n` more units done.
    pub fn step(&self, n: u64) {
        self.bar.inc(n);
    }
    /// The memo takes about `bytes` of a budget of `budget`.
    pub fn memo(&self, bytes: u64, budget: u64) {
        self.bar.set_message(format!(
            " · memo {} of {}",
            crate::mem::human_bytes(bytes),
            crate::mem::human_bytes(budget)
        ));
    }

    fn style(unit: &str, total: Option<u64>) -> ProgressStyle {
        let template = match total {
            Some(_) => format!(
                "solving [{{bar:30}}] {{percent:>3}}% · {{human_pos}} of {{human_len}} {unit}{{msg}} · {{elapsed}} elapsed, about {{eta}} left"
            ),
            None => {
                format!("solving {{spinner}} {{human_pos}} {unit}{{msg}} · {{elapsed}} elapsed")
            }
        };
        ProgressStyle::with_template(&template)
            .map(|s| s.progress_chars("=> "))
            .unwrap_or_else(|_| ProgressStyle::default_spinner())
    }
}

impl Default for SolveProgress {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_of_one_is_singular() {
        assert_eq!(counted(1, "chunk"), "1 chunk");
        assert_eq!(counted(0, "chunk"), "0 chunks");
        assert_eq!(counted(2, "case"), "2 cases");
    }

    #[test]
    fn time_left_is_the_work_left_at_the_pace_so_far() {
        // 3 units of 10 done in 6 s: 2 s a unit, 7 left: 14 s.
        assert_eq!(eta_secs((3, 10), 6.0, None), Some(14.0));
        assert_eq!(eta_secs((10, 10), 6.0, None), Some(0.0));
        assert_eq!(eta_secs((0, 10), 6.0, None), None);
    }

    /// Worked by hand: a sweep estimated at 100 s.
    #[test]
    fn time_left_starts_from_the_estimate_and_blends_into_the_pace() {
        let close = |a: Option<f64>, b: f64| assert!((a.unwrap() - b).abs() < 1e-9, "{a:?} vs {b}");
        // Nothing done yet, 30 s into a shared table's build: the
        // estimate's 100 s, not "?".
        close(eta_secs((0, 10), 30.0, Some(100.0)), 100.0);
        // 2 of 10 units in 30 s: f = 0.2; the estimate's share of the work
        // left 100 × 0.8 = 80 s, the pace's 30 × 8 / 2 = 120 s; blended
        // 0.8 × 80 + 0.2 × 120 = 64 + 24 = 88 s.
        close(eta_secs((2, 10), 30.0, Some(100.0)), 88.0);
        // 8 of 10 in 40 s: estimate's 100 × 0.2 = 20 s, pace's 40 × 2 / 8
        // = 10 s; 0.2 × 20 + 0.8 × 10 = 4 + 8 = 12 s.
        close(eta_secs((8, 10), 40.0, Some(100.0)), 12.0);
        // All done: nothing left, whatever the estimate.
        close(eta_secs((10, 10), 50.0, Some(100.0)), 0.0);
    }
}
