//! The pass pipeline of PTIR-opt, below both engines (MLIR's pass infrastructure, small).
//!
//! - [`Pass`]: a transformation of a whole [`Program`](ptir_ir::Program), with its
//!   [`PassReport`]: what every pass reports (changed, erased ops, how each function's run
//!   stopped, time) and what only its engine knows as a typed payload ([`PassStats`], read
//!   back with [`PassReport::stats`]).
//! - [`PassManager`]: runs passes in order. A pass may run the passes after it together with
//!   itself ([`Pass::run_nested`]): the greedy engine runs consecutive function passes
//!   function by function in one rewriter, as MLIR's nested function pipelines keep one IR.
//!   The program is verified after each pass only when asked ([`PassManager::with_verify_each`],
//!   `--verify-each`): a program is verified where it enters and where it leaves the
//!   optimizer, not between passes.
//! - [`PassRegistry`]: named pass constructors (MLIR's `PassRegistry`), each taking the
//!   pass's options; [`PassRegistry::parse`] reads pipeline text (`canonicalize,cse,dce`,
//!   `eqsat`, `canonicalize{test-convergence=true}`). Each engine registers its own passes.
//! - [`Limits`]: when a rewriting pass stops, one type for both engines; [`Deadline`] (the
//!   time limit of a whole run), [`StopReason`] and [`RunSummary`] (why and after what a run
//!   stopped), the vocabulary both engines report in.
//! - [`transform`]: the IR transformations no rule writes (loop idioms, unrolling, inlining,
//!   loop-invariant code motion), each a registered pass.
//! - [`explain`]: the `--explain` provenance every pass keeps current (the chain of rules
//!   behind each derived value).
//! - [`PassError`] (a pass's failure, its engine's error boxed as the source, or a program
//!   that does not verify after a pass) and [`PipelineError`] (pipeline text naming no
//!   pipeline).
//!
//! ```
//! use ptir_pass::{Pass, PassError, PassManager, PassOptions, PassRegistry, PassReport};
//! use ptir_ir::Program;
//!
//! /// Removes every function but the first.
//! struct KeepFirst;
//! impl Pass for KeepFirst {
//!     fn name(&self) -> &str {
//!         "keep-first"
//!     }
//!     fn run(&self, program: &mut Program) -> Result<PassReport, PassError> {
//!         let changed = program.functions.len() > 1;
//!         program.functions.truncate(1);
//!         Ok(PassReport::new(self.name(), changed, 0))
//!     }
//! }
//!
//! let mut registry = PassRegistry::new();
//! registry.register("keep-first", "keeps the first function", |options: &PassOptions| {
//!     options.expect_none("keep-first")?;
//!     Ok(Box::new(KeepFirst))
//! });
//! let pm = registry.parse("keep-first").unwrap().with_verify_each(true);
//! let mut p = ptir_ir::parse("func @f() -> () {\n  return\n}\nfunc @g() -> () {\n  return\n}").unwrap();
//! let report = pm.run(&mut p).unwrap();
//! assert!(report.passes[0].changed);
//! assert_eq!(report.verifications, 1);
//! assert_eq!(p.functions.len(), 1);
//! ```

mod error;
pub mod explain;
mod limits;
mod manager;
mod pass;
mod registry;
mod stop;
#[cfg(test)]
mod tests;
pub mod transform;

pub use error::{PassError, PipelineError};
pub use limits::{Limits, DEFAULT_TIME_LIMIT};
pub use manager::{charge_overhead, PassManager, PipelineReport};
pub use pass::{EGraphSize, Pass, PassReport, PassStats};
pub use registry::{PassConstructor, PassOptions, PassRegistry};
pub use stop::{Deadline, RunSummary, StopReason};
