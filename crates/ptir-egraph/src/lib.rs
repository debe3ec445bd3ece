//! The e-graph engine: PTIR in, equality saturation with the shared rule library, extraction
//! under a cost model, PTIR out.
//!
//! [`optimize`] runs the whole engine on a program. Its phases are public too, for tools that
//! measure or combine them; each is a module of the crate (private, re-exported here in one
//! block, as egg does):
//!
//! 1. [`lower()`] (`lower.rs`): a verified function becomes an e-graph ([`Lowered`]). Pure ops
//!    are hash-consed; impure ops get unique tokens and form the side-effect skeleton; blocks
//!    become region nodes.
//! 2. [`saturate()`] (`saturate.rs`): the rules of a `ptir_rules::RuleSet`, compiled by
//!    `rules.rs` to egg rewrites, run under iteration, node and time limits ([`Limits`], the
//!    type both engines share) with a scheduler ([`SaturationOptions`]); the
//!    [`SaturationReport`] says what fired and why it stopped. Hitting a limit is not an error.
//! 3. [`choose`] (`extraction.rs`) prices every e-node with a `ptir_cost::CostModel` and
//!    picks one e-node per e-class with one of the `ptir_extract` extractors (tree, DAG-aware
//!    greedy, exact; [`ExtractorKind`]), which work on their own graph representation
//!    ([`Lowered::extraction_graph`]) so that they also run on e-graphs made by other tools
//!    (egraph-serialize JSON, as used by extraction-gym).
//! 4. [`lift()`] (`lift.rs`): the chosen e-nodes ([`Choice`]) become a PTIR function again,
//!    values placed where dominance allows (loop-invariant values hoisted), side effects in
//!    their original order.
//!
//! ```
//! use ptir_egraph::{choose, lift, lower, saturate, ExtractorKind, SaturationOptions};
//! let program = ptir_ir::parse(
//!     "func @f(%x: f32[4]) -> (f32[4]) {\n  %a = neg %x : f32[4]\n  %b = neg %a : f32[4]\n  return %b\n}",
//! ).unwrap();
//! let rules = ptir_rules::RuleSet::bundled().unwrap();
//! let mut lowered = lower(&program, "f").unwrap();
//! let report = saturate(&mut lowered, &rules, &SaturationOptions::default());
//! assert!(report.rules_applied().iter().any(|(rule, _)| rule == "neg-neg"));
//! let choice = choose(&lowered, &ptir_cost::OpCount, ExtractorKind::DagGreedy).unwrap();
//! let f = lift(&lowered, &choice).unwrap();
//! assert!(f.body.insts.is_empty());
//! ```
//!
//! As a pass of a `ptir-pass` pipeline the engine is [`Eqsat`] (`eqsat`, registered by
//! [`register_passes`]), its reports the pass report's [`EqsatStats`].
//!
//! With [`EngineOptions::explain`] (`--explain`), the e-graph keeps egg's explanations and
//! [`FunctionReport::derivations`] says, for each output instruction, which rule applications
//! made its e-node from the input's (`explain.rs`), as plain data.
//!
//! Architecture Invariant: no egg type or e-class id is in the crate's public API (the
//! e-graph, its ids and nodes stay inside [`Lowered`] and [`Choice`]); the input verifies, and
//! the output verifies (lifting reports an error rather than produce a wrong program).

mod analysis;
mod engine;
mod explain;
mod extraction;
mod join;
mod language;
mod lift;
mod lower;
mod matcher;
mod pass;
mod rebuild;
mod rules;
mod saturate;
mod single_use;

pub use engine::{
    compare, declare_rule_externs, optimize, Comparison, EngineError, EngineOptions, FunctionReport,
};
pub use extraction::{choose, choose_within, Choice, ExtractorKind, EXACT_TIME_LIMIT};
pub use lift::{lift, LiftError};
pub use lower::{lower, Lowered};
pub use pass::{register_passes, Eqsat, EqsatStats, EQSAT_PASS};
pub use ptir_pass::Limits;
pub use ptir_pass::StopReason;
pub use rules::SkippedRule;
pub use saturate::{
    saturate, saturate_until, IterationReport, Pause, SaturationOptions, SaturationReport,
    Scheduler, BACKOFF_BAN_LENGTH, BACKOFF_MATCH_LIMIT, EGRAPH_ITER_LIMIT, EGRAPH_NODE_GROWTH,
    EGRAPH_NODE_LIMIT, EGRAPH_TIME_LIMIT, FAMILY_BUDGET_PARTS, FAMILY_MAX_RATE,
};
