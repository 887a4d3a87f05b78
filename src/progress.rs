//! The one progress-bar factory (as hyperfine's): on standard error, hidden
//! when it is not a terminal or when asked to be quiet.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar over `len` units of estimated work: the percentage of the work,
/// a message (e.g. cases done), elapsed time and an estimate of the rest.
pub fn progress_bar(len: u64, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(
        "{prefix:.bold} [{bar:30}] {percent:>3}% of the estimated work · {msg} · {elapsed} elapsed, about {eta} left",
    )
    .map(|s| s.progress_chars("=> "))
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    pb.set_style(style);
    pb
}
