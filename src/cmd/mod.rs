//! One function per command, each in its own file (as ripgrep's `main.rs`
//! dispatches `search`, `files`, `types`). [`crate::run`] only dispatches.

pub mod board;
pub mod calibrate;
pub mod check;
pub mod datasets;
pub mod families;
pub mod merge;
pub mod play;
pub mod render;
pub mod report;
pub mod run;
pub mod solve;
mod stages;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A flag set by Ctrl-C, saying `what` is kept on the first; a second Ctrl-C
/// while stopping ends the process (exit 130), removing the temporaries this
/// process made.
pub fn ctrl_c_flag(what: &'static str) -> Arc<AtomicBool> {
    let cancel = Arc::new(AtomicBool::new(false));
    let c2 = cancel.clone();
    let _ = ctrlc::set_handler(move || {
        if c2.swap(true, Ordering::SeqCst) {
            // Exiting now skips the temporaries' guards: remove them here.
            crate::store::atomic::remove_own_temporaries();
            std::process::exit(130);
        }
        eprintln!("\nnimlab: stopping: {what} (Ctrl-C again to quit now)…");
    });
    cancel
}

/// Writes command output to standard output. A closed pipe (`nimlab families
/// | head -1`) comes back as an `io::Error` of kind `BrokenPipe`, which `main`
/// turns into a quiet exit 0 (as ripgrep does) instead of `println!`'s panic.
pub fn print(text: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// Does an error come from writing to a closed pipe?
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
