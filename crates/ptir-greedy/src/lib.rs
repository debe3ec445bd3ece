//! The greedy rewrite driver of PTIR-opt, with MLIR's `applyPatternsGreedily` semantics: the
//! parity baseline of the e-graph engine, and a fast canonicalizer of its own.
//!
//! ```
//! use ptir_rules::{Registry, RuleSet};
//!
//! let mut rules = RuleSet::new(Registry::standard());
//! rules.add_source("my.rules", "
//!     ; transposing twice by inverse permutations moves no element
//!     (rule transpose-of-transpose
//!       (transpose (transpose ?x ?p) ?q) => ?x
//!       :when ((inverse-perm ?p ?q)))").unwrap();
//! let mut program = ptir_ir::parse("func @f(%0: f32[2,3]) -> (f32[2,3]) {
//!   %1 = transpose %0 perm=[1,0] : f32[3,2]
//!   %2 = transpose %1 perm=[1,0] : f32[2,3]
//!   %3 = exp %2 : f32[2,3]
//!   %4 = exp %0 : f32[2,3]
//!   %5 = add %3, %4 : f32[2,3]
//!   return %5
//! }").unwrap();
//! ptir_greedy::default_pipeline(&rules).unwrap().run(&mut program).unwrap();
//! assert_eq!(ptir_ir::print(&program), "func @f(%0: f32[2,3]) -> (f32[2,3]) {
//!   %3 = exp %0 : f32[2,3]
//!   %5 = add %3, %3 : f32[2,3]
//!   return %5
//! }
//! ");
//! ```
//!
//! # The pieces
//!
//! - [`ProgramRewriter`] (and its read-only half [`Ir`]): one function in an arena where every
//!   instruction, nested ones included, is an O(1) lookup; **all** mutation goes through it,
//!   and a [`Listener`] hears every change with MLIR's timing.
//! - [`Pattern`], the typed [`OpRewritePattern`] with its [`views`], [`PatternSet`] →
//!   [`FrozenPatternSet`] (indexed by root, sorted by benefit, filtered by name and label).
//! - [`fold()`](fold()): constant folding by the interpreter's own kernels, and the exact
//!   identities MLIR puts in fold hooks.
//! - [`apply_patterns_greedily`] / [`apply_op_patterns`] with [`GreedyConfig`]: the driver
//!   (worklist, seeding, folding, failure cache, recursion guard, expensive checks, step log).
//! - [`RulePattern`]: rules of the rule language compiled to patterns (a DAG matcher with
//!   SSA binding, backtracking, multi-root search and call-prefix matching), and
//!   [`find_matches`], the match query: where rules match, with their bindings, rewriting
//!   nothing.
//! - Passes: [`Canonicalize`], [`Cse`], [`Dce`], run by `ptir-pass`'s `PassManager`
//!   ([`default_pipeline`]) and registered by name with [`register_passes`].
//!
//! **Architecture invariant:** nothing in this crate mutates a function except through
//! [`ProgramRewriter`]; the driver's worklist, the failure cache and the step log depend on it.

mod dead;
mod driver;
mod facts;
mod fold;
mod ir;
mod op_registry;
mod passes;
mod pattern;
mod queries;
mod rewriter;
mod rules;
pub mod views;

pub use driver::{
    apply_op_patterns, apply_patterns_greedily, EventKind, GreedyConfig, GreedyError, GreedyReport,
    GreedyStats, Step, StepLog, Strictness, Traversal, Violation, GREEDY_ITER_LIMIT,
    GREEDY_REWRITE_LIMIT,
};
pub use facts::ProgramContext;
pub use fold::{fold, literal_tensor, Fold, FOLD_ELEMENT_LIMIT};
pub use ir::{BlockId, InvalidFunction, Ir, User, WalkOrder};
pub use op_registry::{Folder, OpRegistry, PatternMaker};
pub use passes::{
    default_pipeline, directed_rule_filter, greedy_rule_filter, register_passes,
    register_passes_with, Canonicalize, CanonicalizeStats, Cse, Dce, NotConverged, ALGEBRA,
    DEFAULT_PIPELINE, PRICED,
};
pub use pattern::{
    Candidates, FrozenPatternSet, MatchAnyOpTypeTag, MatchRewritePattern, MatchThenRewrite,
    OpRewritePattern, Pattern, PatternFilter, PatternId, PatternSet, Roots, Typed,
    IMPOSSIBLE_TO_MATCH,
};
pub use rewriter::{InstEdit, Listener, ProgramRewriter};
pub use rules::{
    callee_matches, compile_rules, find_matches, CompileError, MatchError, RuleMatch, RulePattern,
};
