//! The e-graph engine: PTIR in, equality saturation with the shared rule library, extraction
//! under a cost model, PTIR out.
//!
//! The phases, each in its own module:
//!
//! 1. [`lower`]: a verified function becomes an e-graph. Pure ops are hash-consed; impure ops
//!    get unique tokens and form the side-effect skeleton; blocks become region nodes.
//! 2. [`saturate`]: the rules of a `ptir_rules::RuleSet`, compiled by [`rules`] to egg
//!    rewrites, run under iteration, node and time limits; the [`SaturationReport`] says what
//!    fired and why it stopped. Hitting a limit is not an error.
//! 3. [`extraction`] prices every e-node with a `ptir_rules::cost::CostModel` and picks one e-node per
//!    e-class with one of the `ptir_extract` extractors (tree, DAG-aware greedy, exact), which work
//!    on their own graph representation (`ptir_extract::Graph`) so that they also run on e-graphs
//!    made by other tools (egraph-serialize JSON, as used by extraction-gym).
//! 4. [`lift`]: the chosen e-nodes become a PTIR function again, values placed where
//!    dominance allows (loop-invariant values hoisted), side effects in their original order.
//!
//! Entry and exit guarantees: the input verifies, the output verifies (lifting reports an
//! error rather than produce a wrong program), and no egg type or e-class id escapes the
//! crate's high-level API.


pub mod analysis;
pub mod engine;
pub mod extraction;
mod join;
pub mod language;
pub mod lift;
pub mod lower;
pub mod rules;
pub mod saturate;

pub use analysis::{ClassData, PtirAnalysis, PtirEGraph};
pub use engine::{compare, optimize, Comparison, EngineError, EngineOptions, FunctionReport};
pub use extraction::{choose, choose_within, Choice, ExtractorKind};
pub use join::JoinPattern;
pub use language::{OpKind, PtirNode};
pub use lift::{lift, LiftError};
pub use lower::{lower, Lowered};
pub use ptir_rules::StopReason;
pub use saturate::{saturate, saturate_until, Limits, SaturationReport, Scheduler};
