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
//! 3. [`extraction`] prices every e-node with a [`cost::CostModel`] and picks one e-node per
//!    e-class with one of the [`extract`] extractors (tree, DAG-aware greedy, exact), which work
//!    on their own graph representation ([`extract::Graph`]) so that they also run on e-graphs
//!    made by other tools (egraph-serialize JSON, as used by extraction-gym).
//! 4. [`lift`]: the chosen e-nodes become a PTIR function again, values placed where
//!    dominance allows (loop-invariant values hoisted), side effects in their original order.
//!
//! Entry and exit guarantees: the input verifies, the output verifies (lifting reports an
//! error rather than produce a wrong program), and no egg type or e-class id escapes the
//! crate's high-level API.

//!
//! ```
//! use ptir_egraph::extract::{Extractor, Graph, GreedyDagExtractor, TreeExtractor};
//!
//! // (+ (* x x) (* x x)) where both products are the same e-class:
//! // the tree cost pays the product twice, the DAG cost once.
//! let mut b = Graph::builder();
//! let (x, mul, add) = (b.class("x"), b.class("mul"), b.class("add"));
//! b.add_node(x, "x", 1.0, &[]);
//! b.add_node(mul, "*", 1.0, &[x, x]);
//! b.add_node(add, "+", 1.0, &[mul, mul]);
//! b.add_root(add);
//! let graph = b.build().unwrap();
//!
//! let tree = TreeExtractor.extract(&graph);
//! assert_eq!(tree.tree_cost(&graph), 7.0);
//! let dag = GreedyDagExtractor::default().extract(&graph);
//! assert_eq!(dag.dag_cost(&graph), 3.0);
//! ```

pub mod analysis;
pub mod cost;
pub mod engine;
pub mod extract;
pub mod extraction;
mod join;
pub mod language;
pub mod lift;
pub mod lower;
pub mod rules;
pub mod saturate;

pub use analysis::{ClassData, PtirAnalysis, PtirEGraph};
pub use engine::{compare, optimize, Comparison, EngineError, EngineOptions, FunctionReport};
pub use extract::{
    ExactDagExtractor, Extraction, Extractor, Graph, GraphError, GreedyDagExtractor, TreeExtractor,
};
pub use extraction::{choose, choose_within, Choice, ExtractorKind};
pub use join::JoinPattern;
pub use language::{OpKind, PtirNode};
pub use lift::{lift, LiftError};
pub use lower::{lower, Lowered};
pub use ptir_rules::StopReason;
pub use saturate::{saturate, saturate_until, Limits, SaturationReport, Scheduler};
