//! The greedy driver: MLIR's `applyPatternsGreedily` on one function.
//!
//! # What a run does
//!
//! Each **iteration** empties the worklist and refills it from a walk of the whole function
//! (nested regions included): bottom-up seeding is a post-order walk (the last op is
//! processed first), top-down seeding a pre-order walk, reversed so that the first op is
//! processed first. While seeding, constants are deduplicated (with [`GreedyConfig::cse_constants`]):
//! the first constant of each value and type is kept and hoisted to the front of the function
//! body, every later one is replaced by it. Then ops are popped (LIFO, set semantics) and for
//! each:
//!
//! 1. if it is trivially dead (no uses, pure), it is erased;
//! 2. else, unless it is a constant, it is folded ([`fold`](crate::fold())): an in-place fold
//!    counts as a change, a folded value is materialized as a constant at the op;
//! 3. else the patterns rooted at its kind are tried, highest benefit first, ties in insertion
//!    order, any-op patterns interleaved only where their benefit is strictly higher; the first
//!    success stops. Only these successes count against [`GreedyConfig::max_rewrites`].
//!
//! Changes re-queue ops through the rewriter's events (see `hooks.rs`): inserted and modified
//! ops, the users of replaced values (rewired, hence modified), and, when an op is erased, the
//! defining op of each operand left with at most one other user. After the worklist, region
//! simplification erases dead ops. The run stops after an iteration that changed nothing
//! (**converged**) or at a limit (**did not converge**; MLIR's canonicalizer then fails only
//! under `test-convergence`, see [`Canonicalize`](crate::Canonicalize)): the iteration limit
//! ([`GreedyConfig::max_iterations`]), the rewrite limit ([`GreedyConfig::max_rewrites`],
//! checked after each success) or the deadline ([`GreedyConfig::deadline`], checked between
//! ops). [`GreedyReport::stop`] says which.
//!
//! # Beyond MLIR
//!
//! - **Failure cache.** A pattern that failed on an op is not retried while nothing it read
//!   has changed: the key is (instruction, pattern) and the stamp the versions of every
//!   definition and use list the attempt inspected. It changes no result, only skips work
//!   (a pattern must therefore be deterministic: the same IR, the same answer).
//! - **Recursion guard.** A pattern without [`has_bounded_recursion`](crate::Pattern::has_bounded_recursion)
//!   is not applied to ops it created itself (MLIR enforces this in its conversion driver only).
//! - **Errors instead of aborts.** With [`GreedyConfig::expensive_checks`], a pattern that
//!   breaks the contract, or IR that stops verifying, ends the run with a [`GreedyError`]
//!   naming the pattern; the function is then left as it was at that point.

mod hooks;
pub mod log;
mod process;
mod worklist;

pub(crate) use hooks::Hooks;
pub use log::{EventKind, Step, StepLog};

#[cfg(test)]
mod tests;

use crate::pattern::FrozenPatternSet;
use crate::rewriter::ProgramRewriter;
use indexmap::IndexMap;
use ptir_ir::{InstId, VerifyError};
use ptir_pass::{Deadline, RunSummary, StopReason};
use std::fmt;

/// Default iteration limit of a greedy run: 10, as MLIR's `GreedyRewriteConfig`. Each
/// iteration walks the whole function once; a run that still changes something after 10
/// reports that it did not converge (usually two patterns undoing each other).
pub const GREEDY_ITER_LIMIT: usize = 10;

/// Default rewrite limit of a greedy run: 100,000 successful pattern applications over the
/// whole run. MLIR's `maxNumRewrites` has no limit by default and counts per iteration; a
/// per-iteration count bounds nothing when two patterns undo each other inside one worklist
/// (`add → sub-of-neg → add …` never empties it), so ours counts the run. Canonicalizing
/// needs a few rewrites per op: the limit is reached only by programs of tens of thousands of
/// ops that rewrite heavily, or by rules that cycle; either way the run stops with a correct
/// program and says it did not converge.
pub const GREEDY_REWRITE_LIMIT: usize = 100_000;

/// How the worklist is seeded at each iteration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Traversal {
    /// Post-order walk; the last op is processed first (MLIR's default).
    #[default]
    BottomUp,
    /// Pre-order walk, reversed: the first op is processed first (the canonicalize pass).
    TopDown,
}

/// Which ops a run may process (MLIR's `GreedyRewriteStrictness`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Strictness {
    /// Any op (default).
    #[default]
    AnyOp,
    /// The ops that existed at the start and those created during the run.
    ExistingAndNewOps,
    /// Only the ops that existed at the start.
    ExistingOps,
}

/// The knobs of a greedy run. `Default` is MLIR's `GreedyRewriteConfig`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GreedyConfig {
    /// Worklist seeding (default [`Traversal::BottomUp`]).
    pub traversal: Traversal,
    /// Iteration limit, `None` for none (default `Some(`[`GREEDY_ITER_LIMIT`]`)`).
    pub max_iterations: Option<usize>,
    /// Limit on pattern applications over the whole run (folds and erasures do not count),
    /// `None` for none (default `Some(`[`GREEDY_REWRITE_LIMIT`]`)`).
    pub max_rewrites: Option<usize>,
    /// Stop rewriting when it passes (default `None`). Checked between ops, so a run
    /// overshoots it by at most one op's processing; share one deadline among the functions
    /// of a program to limit the whole run.
    pub deadline: Option<Deadline>,
    /// Fold ops (default true).
    pub fold: bool,
    /// Deduplicate and hoist constants when seeding (default true).
    pub cse_constants: bool,
    /// Erase dead ops after each iteration's worklist (default true).
    pub region_simplification: bool,
    /// Which ops may be processed (default [`Strictness::AnyOp`]).
    pub strictness: Strictness,
    /// Fingerprint the IR around every pattern attempt and verify after every change
    /// (default false; slow: O(function) per attempt).
    pub expensive_checks: bool,
    /// Skip patterns that failed on the same IR before (always on outside this module's
    /// tests, which compare the driver with it off).
    failure_cache: bool,
    /// Keep a [`StepLog`] (default false).
    pub log: bool,
    /// Try at each op only the rule patterns the pattern index finds for its shape (default
    /// true; off, every pattern rooted at the op's kind is tried: the same rewrites, slower
    /// with large rule libraries).
    pub pattern_index: bool,
    /// The user's folders, tried before the built-in folds (default none).
    pub ops: crate::OpRegistry,
}

impl Default for GreedyConfig {
    fn default() -> Self {
        GreedyConfig {
            traversal: Traversal::BottomUp,
            max_iterations: Some(GREEDY_ITER_LIMIT),
            max_rewrites: Some(GREEDY_REWRITE_LIMIT),
            deadline: None,
            fold: true,
            cse_constants: true,
            region_simplification: true,
            strictness: Strictness::AnyOp,
            expensive_checks: false,
            failure_cache: true,
            log: false,
            pattern_index: true,
            ops: crate::OpRegistry::default(),
        }
    }
}

impl GreedyConfig {
    /// The config of the canonicalize pass: the default with top-down seeding.
    pub fn canonicalize() -> Self {
        GreedyConfig {
            traversal: Traversal::TopDown,
            ..GreedyConfig::default()
        }
    }

    /// Sets the user's folders ([`crate::OpRegistry`], default none).
    pub fn with_ops(mut self, ops: crate::OpRegistry) -> Self {
        self.ops = ops;
        self
    }

    /// Sets the seeding order (default bottom-up).
    pub fn with_traversal(mut self, t: Traversal) -> Self {
        self.traversal = t;
        self
    }

    /// Sets the iteration limit (default 10; `None`: no limit).
    pub fn with_max_iterations(mut self, n: Option<usize>) -> Self {
        self.max_iterations = n;
        self
    }

    /// Sets the limit on pattern applications over the run (default 100,000; `None`: no
    /// limit).
    pub fn with_max_rewrites(mut self, n: Option<usize>) -> Self {
        self.max_rewrites = n;
        self
    }

    /// Sets the deadline (default none).
    pub fn with_deadline(mut self, deadline: Option<Deadline>) -> Self {
        self.deadline = deadline;
        self
    }

    /// Turns folding on or off (default on).
    pub fn with_fold(mut self, on: bool) -> Self {
        self.fold = on;
        self
    }

    /// Turns constant deduplication on or off (default on).
    pub fn with_cse_constants(mut self, on: bool) -> Self {
        self.cse_constants = on;
        self
    }

    /// Turns region simplification on or off (default on).
    pub fn with_region_simplification(mut self, on: bool) -> Self {
        self.region_simplification = on;
        self
    }

    /// Sets the strictness (default any op).
    pub fn with_strictness(mut self, s: Strictness) -> Self {
        self.strictness = s;
        self
    }

    /// Turns the expensive checks on or off (default off).
    pub fn with_expensive_checks(mut self, on: bool) -> Self {
        self.expensive_checks = on;
        self
    }

    /// Turns the failure cache on or off (default on; this module's tests only).
    #[cfg(test)]
    pub(crate) fn with_failure_cache(mut self, on: bool) -> Self {
        self.failure_cache = on;
        self
    }

    /// Turns the step log on or off (default off).
    pub fn with_log(mut self, on: bool) -> Self {
        self.log = on;
        self
    }

    /// Sets [`pattern_index`](Self::pattern_index).
    pub fn with_pattern_index(mut self, on: bool) -> Self {
        self.pattern_index = on;
        self
    }

    /// The config with `limits`, the limits both engines share: their iterations and
    /// rewrites where they give them, and a deadline `limits.time` from now.
    ///
    /// ```
    /// use ptir_greedy::GreedyConfig;
    /// let limits = ptir_pass::Limits { rewrites: Some(5), ..ptir_pass::Limits::default() };
    /// let config = GreedyConfig::canonicalize().with_limits(&limits);
    /// assert_eq!(config.max_iterations, Some(10));
    /// assert_eq!(config.max_rewrites, Some(5));
    /// assert!(config.deadline.is_some());
    /// ```
    pub fn with_limits(self, limits: &ptir_pass::Limits) -> Self {
        GreedyConfig {
            max_iterations: limits.iterations.or(self.max_iterations),
            max_rewrites: limits.rewrites.or(self.max_rewrites),
            deadline: Some(Deadline::after(limits.time)),
            ..self
        }
    }
}

/// Counters of a greedy run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GreedyStats {
    /// Successful pattern applications by debug name, in the order patterns were frozen.
    pub rewrites: IndexMap<String, usize>,
    /// Ops folded (to a value, a constant, or in place).
    pub folds: usize,
    /// Ops erased (by anything: dead ops, folds, patterns, constant deduplication).
    pub erased: usize,
    /// Ops inserted.
    pub inserted: usize,
    /// Constants replaced by an equal earlier one while seeding.
    pub constants_deduplicated: usize,
    /// Pattern attempts (calls of `match_and_rewrite`).
    pub attempts: usize,
    /// Attempts skipped by the failure cache.
    pub cache_hits: usize,
    /// Attempts skipped by the recursion guard.
    pub recursion_skips: usize,
    /// Iterations run.
    pub iterations: usize,
    /// Did the last iteration change nothing?
    pub converged: bool,
}

impl GreedyStats {
    /// Total successful pattern applications.
    pub fn total_rewrites(&self) -> usize {
        self.rewrites.values().sum()
    }

    /// Adds another run's counters (several functions of one program).
    pub fn merge(&mut self, other: &GreedyStats) {
        for (name, n) in &other.rewrites {
            *self.rewrites.entry(name.clone()).or_insert(0) += n;
        }
        self.folds += other.folds;
        self.erased += other.erased;
        self.inserted += other.inserted;
        self.constants_deduplicated += other.constants_deduplicated;
        self.attempts += other.attempts;
        self.cache_hits += other.cache_hits;
        self.recursion_skips += other.recursion_skips;
        self.iterations = self.iterations.max(other.iterations);
        self.converged &= other.converged;
    }
}

impl fmt::Display for GreedyStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let status = if self.converged {
            "converged"
        } else {
            "did not converge"
        };
        writeln!(f, "{status} after {} iteration(s)", self.iterations)?;
        writeln!(
            f,
            "rewrites {}, folds {}, erased {}, inserted {}, constants deduplicated {}",
            self.total_rewrites(),
            self.folds,
            self.erased,
            self.inserted,
            self.constants_deduplicated
        )?;
        writeln!(
            f,
            "attempts {}, failure-cache hits {}, recursion skips {}",
            self.attempts, self.cache_hits, self.recursion_skips
        )?;
        for (name, n) in &self.rewrites {
            writeln!(f, "  {n:>8}  {name}")?;
        }
        Ok(())
    }
}

/// What a greedy run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GreedyReport {
    /// Did the run reach a fixpoint? (Also `stats.converged`, and `stop` is
    /// [`StopReason::Converged`].)
    pub converged: bool,
    /// Why the run stopped.
    pub stop: StopReason,
    /// Did the IR change at all?
    pub changed: bool,
    /// Counters.
    pub stats: GreedyStats,
    /// The step log, if [`GreedyConfig::log`] was on.
    pub log: Option<StepLog>,
}

impl GreedyReport {
    /// Why the run stopped, with the counts.
    pub fn summary(&self) -> RunSummary {
        RunSummary {
            stop: self.stop.clone(),
            iterations: self.stats.iterations,
            rewrites: self.stats.total_rewrites(),
            egraph: None,
        }
    }
}

/// How a pattern broke the rewrite contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Violation {
    /// It returned `true` but the IR is unchanged.
    SuccessWithoutChange,
    /// It returned `false` but changed the IR.
    FailureWithChange,
    /// It returned `true` and changed the IR, but not its root: MLIR's contract asks the root
    /// to be updated in place, replaced (its uses moved) or erased.
    RootUnchanged,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Violation::SuccessWithoutChange => "pattern returned success but the IR did not change",
            Violation::FailureWithChange => "pattern returned failure but the IR did change",
            Violation::RootUnchanged => {
                "pattern returned success but neither updated, replaced nor erased its root"
            }
        })
    }
}

/// A greedy run found a broken pattern (a contract or verification failure only with
/// [`GreedyConfig::expensive_checks`]; a rule's own bug always).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GreedyError {
    /// A pattern broke the rewrite contract.
    #[error("@{function}: pattern `{pattern}` on {inst}: {violation}")]
    Contract {
        /// The function.
        function: String,
        /// The pattern's debug name.
        pattern: String,
        /// The root it was applied to.
        inst: InstId,
        /// What it did.
        violation: Violation,
    },
    /// A pattern found itself wrong ([`ProgramRewriter::notify_rule_error`]): a rule whose
    /// result has another type than the value it replaces. Always checked.
    #[error("@{function}: {message}")]
    Rule {
        /// The function.
        function: String,
        /// The pattern's debug name.
        pattern: String,
        /// The root it was applied to.
        inst: InstId,
        /// What is wrong, naming the rule.
        message: String,
    },
    /// The IR stopped verifying.
    #[error("@{function} does not verify after {after}:\n{error}")]
    Verify {
        /// The function.
        function: String,
        /// What ran last ("pattern `x` on #3", "folding #3").
        after: String,
        /// The verifier's diagnostics.
        error: VerifyError,
    },
}

/// Applies `patterns` to the whole function of `rw` until a fixpoint (MLIR's
/// `applyPatternsGreedily` on the function's body); see the module docs.
///
/// ```
/// use ptir_greedy::{apply_patterns_greedily, GreedyConfig, PatternSet, ProgramContext, ProgramRewriter};
/// let p = ptir_ir::parse("func @f(%0: f32[2]) -> (f32[2]) {
///   %1 = constant splat(1.0) : f32[2]
///   %2 = mul %0, %1 : f32[2]
///   %3 = neg %2 : f32[2]
///   %4 = neg %3 : f32[2]
///   return %4
/// }").unwrap();
/// let cx = ProgramContext::new(&p);
/// let mut rw = ProgramRewriter::new(p.functions[0].clone(), &cx).unwrap();
/// let patterns = PatternSet::new().freeze();
/// let report = apply_patterns_greedily(&mut rw, &patterns, &GreedyConfig::default()).unwrap();
/// assert!(report.converged && report.changed);
/// assert_eq!(rw.finish().body.insts.len(), 0); // x * 1 and neg(neg x) fold away
/// ```
pub fn apply_patterns_greedily(
    rw: &mut ProgramRewriter<'_>,
    patterns: &FrozenPatternSet,
    config: &GreedyConfig,
) -> Result<GreedyReport, GreedyError> {
    process::Driver::new(patterns, config).run_region(rw)
}

/// Applies `patterns` to the given ops only (MLIR's `applyOpPatternsGreedily`): one worklist
/// run, no seeding walk, no constant deduplication, no region simplification. Ops the
/// rewrites create or touch are processed too unless [`GreedyConfig::strictness`] excludes
/// them. Converged means the worklist emptied (it was not cut by the rewrite limit).
pub fn apply_op_patterns(
    rw: &mut ProgramRewriter<'_>,
    ops: &[InstId],
    patterns: &FrozenPatternSet,
    config: &GreedyConfig,
) -> Result<GreedyReport, GreedyError> {
    process::Driver::new(patterns, config).run_ops(rw, ops)
}
