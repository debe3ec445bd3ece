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
//! 3. Extraction picks one e-node per e-class under a cost model.
//! 4. [`lift`]: the chosen e-nodes become a PTIR function again, values placed where
//!    dominance allows (loop-invariant values hoisted), side effects in their original order.
//!
//! Entry and exit guarantees: the input verifies, the output verifies (lifting reports an
//! error rather than produce a wrong program), and no egg type or e-class id escapes the
//! crate's high-level API.

pub mod analysis;
pub mod cost;
pub mod engine;
pub mod extraction;
pub mod language;
pub mod lift;
pub mod lower;
pub mod rules;
pub mod saturate;

pub use analysis::{ClassData, PtirAnalysis, PtirEGraph};
pub use engine::{compare, optimize, Comparison, EngineError, EngineOptions, FunctionReport};
pub use extraction::{extract, Choice, ExtractorKind};
pub use language::{OpKind, PtirNode};
pub use lift::{lift, LiftError};
pub use lower::{lower, Lowered};
pub use saturate::{saturate, Limits, SaturationReport, Stop};
