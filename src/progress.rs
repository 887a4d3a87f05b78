//! The one progress-bar factory (as hyperfine's): on standard error, hidden
//! when it is not a terminal or when asked to be quiet.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// A bar over `len` units of estimated work: the percentage of the work,
/// a message (e.g. cases done), elapsed time and an estimate of the rest.
pub fn progress_bar(len: u64, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(
        "{prefix:.bold} [{bar:30}] {percent:>3}% of the estimated work · {msg} · {elapsed} elapsed, about {left} left",
    )
    .map(|s| {
        s.progress_chars("=> ")
            .with_key("left", |st: &ProgressState, w: &mut dyn std::fmt::Write| {
                let left = eta_secs(st.pos(), st.len().unwrap_or(0), st.elapsed().as_secs_f64());
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
/// unequal): the estimated work left at the pace measured so far, `elapsed`
/// seconds for the `done` units. `None` before any unit is done.
pub fn eta_secs(done: u64, total: u64, elapsed: f64) -> Option<f64> {
    (done > 0).then(|| elapsed * total.saturating_sub(done) as f64 / done as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_left_is_the_work_left_at_the_pace_so_far() {
        // 3 units of 10 done in 6 s: 2 s a unit, 7 left: 14 s.
        assert_eq!(eta_secs(3, 10, 6.0), Some(14.0));
        assert_eq!(eta_secs(10, 10, 6.0), Some(0.0));
        assert_eq!(eta_secs(0, 10, 6.0), None);
    }
}
