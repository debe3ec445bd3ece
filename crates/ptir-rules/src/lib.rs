//! The PTIR rule language: one rule source for both engines.
//!
//! Rules are written in s-expressions in the spirit of MLIR's DRR (a source DAG, result DAGs,
//! constraints, native calls, benefit = source ops + `:add-benefit`), parsed with
//! `symbolic_expressions`, checked against a [`Registry`] of native predicates and functions,
//! and collected in a [`RuleSet`]. Rules are plain data: the greedy driver and the e-graph
//! engine each compile them to their own matcher, and share [`Rule::constraints_hold`] and
//! [`Rule::instantiate`] for everything after the match.
//!
//! ```
//! use ptir_rules::{Registry, RuleSet};
//! let mut set = RuleSet::new(Registry::standard());
//! set.add_source("my.rules", "
//!     ; transposing twice by inverse permutations moves no element
//!     (rule transpose-of-transpose
//!       :labels (canonicalize)
//!       (transpose (transpose ?x ?p) ?q)
//!       => ?x
//!       :when ((inverse-perm ?p ?q)))
//! ").unwrap();
//! assert_eq!(set.rules()[0].benefit(), 2);
//!
//! let err = set.add_source("bad.rules", "(rule r (frobnicate ?x) => ?x)").unwrap_err();
//! assert_eq!(err.to_string(), "bad.rules:1: in rule `r`: unknown op `frobnicate`");
//! ```
//!
//! What both engines share beyond rules (deadlines, stop reasons, `--explain` provenance)
//! is the `ptir-pass` crate's; the cost models that price a program whichever engine made
//! it are the `ptir-cost` crate's.
//!
//! The language reference (grammar, ops, every predicate and native function, `.pat`
//! conventions, a worked example) is [`mod@reference`], also `docs/rules.md` in the repository.
//!
//! # Rules for rules
//!
//! 1. **Say why it is true.** The `;` comment above a rule is its doc; every bundled rule has
//!    one, and a test holds them to it.
//! 2. **Exact unless labelled.** A rule that is only true for real numbers (reassociation,
//!    `x + 0.0 → x`, which is wrong for `-0.0`, `x - x → 0`, wrong for NaN and infinities)
//!    carries `:labels (fast-math)` and is off by default. Bad: `(rule add-zero (add ?x (splat 0)) => ?x)`;
//!    good: the same with `:labels (fast-math)`, or `(add ?x (splat -0.0)) => ?x`, which is exact.
//! 3. **Point rules downhill.** A canonicalization must make the program simpler or more
//!    canonical, never both ways: `(mul ?x (splat 1)) => ?x`, not its inverse. Orientation-free
//!    facts (commutativity) belong in `algebra.rules`, which only the e-graph runs to saturation.
//! 4. **Names are kebab-case and unique.** A duplicate name is an error.
//! 5. **Let the interpreter prove it.** Every rule runs through the interpreter on random shapes
//!    and values ([`example`], `crates/ptir-rules/tests/proof.rs`); a rule that fails is wrong.
//!    Fused library calls that rules raise idioms to have reference implementations in
//!    [`externs`], defined by those idioms.

mod apply;
mod ast;
mod bounds;
mod build;
pub mod builders;
mod callee;
pub mod compiled;
pub mod contraction;
mod error;
pub mod example;
pub mod externs;
#[cfg(feature = "testing")]
pub mod fuzz;
pub mod index;
pub mod lint;
mod loop_pat;
mod ops;
mod parse;
mod pat;
mod reader;
pub mod reference;
mod registry;
mod ruleset;
mod values;

pub use apply::{ApplyError, Bindings, ResultBuilder};
pub use ast::{
    Attr, AttrKind, AttrValue, Constraint, Location, Pattern, Rule, Term, TermId, Var, FAST_MATH,
    SINGLE_USE,
};
pub use bounds::{RULE_DEPTH_LIMIT, RULE_SIZE_LIMIT};
pub use build::FnBuilder;
pub use callee::callee_matches;
pub use compiled::LibraryError;
pub use error::RuleError;
pub use loop_pat::{
    apply_loop_patterns, find_loop_matches, outline_loop_calls, LoopMatch, LoopPattern,
};
pub use ops::{attr_slots, make_op, make_untyped_op, op_attr, op_attrs};
pub use parse::{
    parse_rules, split_expansion_name, ExternSpec, FileContents, VariadicRule, VARIADIC_ARITY,
};
pub use pat::{parse_pat, pat_dims, specialize_pat};
pub use registry::{
    absorb_lhs_transpose, absorb_rhs_transpose, compose_perm, dims_after_reduce, dot_swap_perm,
    exact_reciprocal, invert_perm, moves_only_unit_dims, perm_after_reduce, restore_dims,
    swap_dot_dims, Bound, Native, NativeFn, Predicate, PredicateFn, Registry,
};
pub use ruleset::{
    applicable, declare_all_externs, declare_called_externs, ExternRename, Reach, RuleFilter,
    RuleSet, UnknownRuleName, BUNDLED, BUNDLED_PATS, ENGINE_MADE,
};
