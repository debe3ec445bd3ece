//! PTIR-opt: an equality-saturation optimizer for tensor programs.
//!
//! This root crate is the facade users depend on: the IR as [`ir`], the rule language as
//! [`rules`], the e-graph engine as [`egraph`], its extractors as [`extract`], and the calls users
//! come for (the pass pipeline both engines run in is [`pass`]):
//!
//! - [`optimize`]: one program through an engine, with a [`Report`] ([`optimize_owned`] takes
//!   the program, for large ones).
//! - [`compare_cost_models`]: several (cost model, extractor) pairs on one saturated e-graph.
//! - [`diff`]: greedy against saturation, checked by the interpreter and the cost model
//!   ([`diff_batch`] and [`optimize_batch`] run many programs in parallel).
//! - [`find_matches`]: where the rules match in a program, with their bindings, rewriting
//!   nothing.
//! - [`validate`]: translation validation, input and output run on seeded inputs
//!   ([`Options::validate`] does it after optimizing).
//! - [`interpreter`]: run programs, fused library externs included.
//! - [`format`](mod@format): programs in and out as PTIR or StableHLO MLIR text ([`mlir`]);
//!   [`text::optimize_text`] optimizes a text into a text.
//!
//! ```
//! let program = ptir::ir::parse(
//!     "func @f(%x: f32[4]) -> (f32[4]) {\n  %a = mul %x, %x : f32[4]\n  %b = mul %x, %x : f32[4]\n  \
//!      %c = max %a, %b : f32[4]\n  return %c\n}",
//! )?;
//! let out = ptir::optimize(&program, &ptir::Options::default())?;
//! // The two products are one value (hash-consing), and max(a, a) is a.
//! assert_eq!(out.program.num_insts(), 1);
//! println!("{}", out.report);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod compare;
mod diff;
mod equivalence;
mod error;
mod explain;
pub mod format;
mod optimize;
mod options;
mod passes;
mod query;
mod report;
mod run;
pub mod text;

pub use compare::{compare_cost_models, CostComparison, ModelCost};
pub use diff::{
    diff, diff_batch, optimize_batch, time_limit_bound, DiffCosts, DiffReport, DiffRules, Mismatch,
    Overshoot, DIFF_TRIALS, DIFF_WHILE_FUEL,
};
pub use equivalence::{
    fast_math_tolerance, same_value, validate, CheckError, Divergence, Trial, Validation,
    ValidationError, FAST_MATH_TOLERANCE,
};
pub use error::Error;
pub use optimize::{
    compile_rules, fast_math_hint, load_rules, load_target, optimize, optimize_owned,
    optimize_verified, rule_files_in, Optimized, FAST_MATH_HINT_RATIO, USER_RULE_PROOF_SEEDS,
};
pub use options::{
    Cost, CostSpec, Engine, Limits, Options, RuleText, Runtime, FINAL_STEPS, LOOP_STEPS,
};
pub use ptir_convert as convert;
pub use ptir_cost as cost;
pub use ptir_egraph as egraph;
pub use ptir_egraph::EQSAT_PASS;
pub use ptir_extract as extract;
pub use ptir_greedy as greedy;
pub use ptir_ir as ir;
pub use ptir_mlir as mlir;
pub use ptir_pass as pass;
pub use ptir_rules as rules;
pub use query::{find_matches, RuleMatch};
pub use report::{
    Conversion, EGraphSize, FunctionExplanation, FunctionRun, FunctionText, InstCounts,
    IrAfterPass, OpExplanation, Phase, Report, RuleCount, SkippedRule, StepLog,
};
pub use run::{interpreter, parse_inputs, ExternImpls, InputsError};
