//! The engines against each other and against references: differential testing on generated
//! programs, MLIR parity, matrix chains, the parser under fuzzing, the corpus, round trips,
//! and speculation (pure is not speculatable).
//!
//! One test binary per area (as egg and rust-analyzer group theirs): each links the crate
//! graph once. Run one module with `cargo test --release --test engines -- <module>::`.

#[path = "../support/mod.rs"]
mod support;

mod call_chains;
mod corpus;
mod diff_extended;
mod diff_random;
mod matrix_chain;
mod mlir_parity;
mod parser_fuzz;
mod roundtrip;
mod rule_pruning;
mod speculation;
