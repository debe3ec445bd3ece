//! The rule language end to end: compiled libraries, golden cases of every bundled rule, the
//! generated reference, soundness, source-written patterns, DRR results, loop idioms.
//!
//! One test binary per area (as egg and rust-analyzer group theirs): each links the crate
//! graph once. Run one module with `cargo test --release --test rules -- <module>::`.

#[path = "../support/mod.rs"]
mod support;

mod compiled_rules;
mod drr_results;
mod golden;
mod lint;
mod loop_idioms;
mod loop_patterns;
mod pat_attrs;
mod pat_generic;
mod rules_doc;
mod rules_soundness;
mod single_use;
mod variadic;
