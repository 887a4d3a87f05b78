//! One function per command, each in its own file (as ripgrep's `main.rs`
//! dispatches `search`, `files`, `types`). [`crate::run`] only dispatches.

pub mod board;
pub mod check;
pub mod datasets;
pub mod families;
pub mod merge;
pub mod render;
pub mod report;
pub mod run;
pub mod solve;
