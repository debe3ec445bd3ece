//! PTIR-opt's e-graph engine.
//!
//! The engine runs in four steps: **lower** a verified PTIR program into an e-graph,
//! **saturate** it with the rules, **extract** the cheapest program, and **lift** it back into
//! verified PTIR. This crate so far holds the extraction step, which works on its own
//! representation ([`extract::Graph`]) so that it runs on e-graphs made by other tools too
//! (egraph-serialize JSON, as used by extraction-gym).
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

pub mod extract;

pub use extract::{
    ExactDagExtractor, Extraction, Extractor, Graph, GraphError, GreedyDagExtractor, TreeExtractor,
};
