//! The command line and the library facade as users drive them: optimizing, translating, checking,
//! explaining, limits, conversion targets, the README's tour, extension points.
//!
//! One test binary per area (as egg and rust-analyzer group theirs): each links the crate
//! graph once. Run one module with `cargo test --release --test cli -- <module>::`.

#[path = "../support/mod.rs"]
mod support;

mod cli;
mod cli_checks;
mod cli_habits;
mod cli_mlir;
mod docs;
mod explain;
mod library_extensions;
mod limits;
mod match_query;
mod readme_tour;
mod target;
mod verification;
