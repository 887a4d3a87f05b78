//! The progress of one long solve (`nimlab solve`); the bar factory is
//! [`crate::progress::progress_bar`].

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

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

impl crate::family::watch::Watch for SolveProgress {
    fn begin(&self, unit: &'static str, total: Option<u64>) {
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
    fn step(&self, n: u64) {
        self.bar.inc(n);
    }
    fn memo(&self, bytes: u64, budget: u64) {
        self.bar.set_message(format!(
            " · memo {} of {}",
            crate::mem::human_bytes(bytes),
            crate::mem::human_bytes(budget)
        ));
    }
}
