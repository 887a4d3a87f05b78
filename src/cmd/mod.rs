//! One module per command that has its own file (the others are still in
//! `lib.rs`).

pub mod play;
