//! The canonicalize pass (MLIR's `-canonicalize`): the greedy driver with top-down seeding,
//! folding and the canonicalization patterns, on every function.

use super::FunctionPass;
use crate::driver::{apply_patterns_greedily, GreedyConfig, GreedyStats, StepLog};
use crate::pattern::{FrozenPatternSet, PatternSet};
use crate::rewriter::ProgramRewriter;
use crate::rules::CompileError;
use crate::OpRegistry;
use indexmap::IndexMap;
use ptir_pass::{Pass, PassError, PassReport, PassStats};
use ptir_rules::{ExternSpec, RuleFilter, RuleSet};
use std::fmt;
use std::rc::Rc;

/// The label of orientation-free rules (commutativity, associativity, distributivity), which
/// only equality saturation can use: a greedy driver applies `add-comm` to its own result
/// forever (those rules have bounded recursion, so the recursion guard lets them).
pub const ALGEBRA: &str = "algebra";

/// The label of rules whose profit depends on what else uses the matched values, which only
/// extraction under a cost model can judge: `slice-of-dot` splits a product read by several
/// slices (a GRU's gates) into one product per slice, each cheaper, together dearer (0.87x
/// in IREE when a greedy driver applied it). Saturation only.
pub const PRICED: &str = "priced";

/// The rules a greedy driver can run at all: everything but [`ALGEBRA`] (no direction to go
/// in) and [`PRICED`] (no way to tell a win from a loss). Whether `fast-math` rules run is the caller's choice, made once: the facade filters
/// its rule set by its options and then uses this filter alone.
///
/// ```
/// let f = ptir_greedy::directed_rule_filter();
/// assert_eq!(f.disabled, ["algebra", "priced"]);
/// ```
pub fn directed_rule_filter() -> RuleFilter {
    RuleFilter {
        enabled: Vec::new(),
        disabled: vec![ALGEBRA.to_string(), PRICED.to_string()],
    }
}

/// The rules a greedy canonicalization runs by default: [`directed_rule_filter`] without
/// `fast-math` (not IEEE-exact).
///
/// ```
/// let f = ptir_greedy::greedy_rule_filter();
/// assert_eq!(f.disabled, ["fast-math", "algebra", "priced"]);
/// ```
pub fn greedy_rule_filter() -> RuleFilter {
    let mut f = RuleFilter::exact();
    f.disabled.extend(directed_rule_filter().disabled);
    f
}

/// Canonicalizes every function: folds and `patterns`, greedily, until a fixpoint or a limit
/// (a [`GreedyConfig::deadline`] limits the whole pass: each function gets an equal share of
/// the time left). Like MLIR's canonicalizer, not converging is not an error unless
/// [`with_test_convergence`](Self::with_test_convergence) asks for it (MLIR's
/// `test-convergence` option); the report says whether it converged either way.
///
/// ```
/// use ptir_greedy::Canonicalize;
/// use ptir_pass::Pass;
/// use ptir_rules::{Registry, RuleSet};
/// let mut rules = RuleSet::new(Registry::standard());
/// rules.add_source("r.rules", "(rule mul-one (mul ?x (splat 1)) => ?x)").unwrap();
/// let mut p = ptir_ir::parse("func @f(%0: f32[2]) -> (f32[2]) {
///   %1 = constant splat(1.0) : f32[2]
///   %2 = mul %1, %0 : f32[2]
///   %3 = mul %2, %1 : f32[2]
///   return %3
/// }").unwrap();
/// let report = Canonicalize::with_rules(&rules).unwrap().run(&mut p).unwrap();
/// assert!(report.stats::<ptir_greedy::CanonicalizeStats>().unwrap().driver.converged);
/// assert_eq!(p.num_insts(), 0);
/// ```
#[derive(Clone, Debug)]
pub struct Canonicalize {
    /// Shared, so that a pipeline may canonicalize several times with one compiled set.
    patterns: Rc<FrozenPatternSet>,
    /// The externs of the rule set the patterns came from, which their results may call.
    externs: Rc<IndexMap<String, ExternSpec>>,
    config: GreedyConfig,
    test_convergence: bool,
}

impl Canonicalize {
    /// Canonicalizes with `patterns` and [`GreedyConfig::canonicalize`].
    pub fn new(patterns: FrozenPatternSet) -> Self {
        Canonicalize {
            patterns: Rc::new(patterns),
            externs: Rc::default(),
            config: GreedyConfig::canonicalize(),
            test_convergence: false,
        }
    }

    /// Canonicalizes with the rules of `rules` that [`greedy_rule_filter`] keeps.
    pub fn with_rules(rules: &RuleSet) -> Result<Self, CompileError> {
        Self::with_filtered_rules(rules, &greedy_rule_filter())
    }

    /// Canonicalizes with the rules of `rules` that `filter` keeps.
    pub fn with_filtered_rules(rules: &RuleSet, filter: &RuleFilter) -> Result<Self, CompileError> {
        Self::with_filtered_rules_and_ops(rules, filter, &OpRegistry::default())
    }

    /// Canonicalizes with the rules of `rules` that `filter` keeps, and the user's hooks:
    /// `ops`'s canonicalization patterns run beside the rules and its folders before the
    /// built-in folds (MLIR's canonicalizer collects each registered op's patterns and folder).
    ///
    /// ```
    /// use ptir_greedy::{Canonicalize, Fold, Ir, OpRegistry};
    /// use ptir_ir::{InstId, Op, OpKey};
    /// use ptir_pass::Pass;
    /// let mut ops = OpRegistry::new();
    /// ops.add_folder(OpKey::Call, |ir: &Ir, i: InstId| match ir.op(i) {
    ///     Op::Call { callee } if callee == "my_id" => Fold::Value(ir.operands(i)[0]),
    ///     _ => Fold::None,
    /// });
    /// let rules = ptir_rules::RuleSet::new(ptir_rules::Registry::standard());
    /// let pass = Canonicalize::with_filtered_rules_and_ops(&rules, &Default::default(), &ops).unwrap();
    /// let mut p = ptir_ir::parse("extern @my_id pure
    /// func @f(%0: f32[2]) -> (f32[2]) {
    ///   %1 = call @my_id(%0) : f32[2]
    ///   return %1
    /// }").unwrap();
    /// pass.run(&mut p).unwrap();
    /// assert_eq!(p.num_insts(), 0);
    /// ```
    pub fn with_filtered_rules_and_ops(
        rules: &RuleSet,
        filter: &RuleFilter,
        ops: &OpRegistry,
    ) -> Result<Self, CompileError> {
        let mut set = PatternSet::new();
        set.add_rules(rules, filter)?;
        for p in ops.patterns() {
            set.add_boxed(p);
        }
        let mut pass = Canonicalize {
            externs: Rc::new(rules.externs().clone()),
            ..Canonicalize::new(set.freeze())
        };
        pass.config.ops = ops.clone();
        Ok(pass)
    }

    /// Replaces the driver config (default [`GreedyConfig::canonicalize`], with the folders
    /// of the pass's [`OpRegistry`]).
    pub fn with_config(mut self, config: GreedyConfig) -> Self {
        self.config = config;
        self
    }

    /// Makes non-convergence an error (default off, as MLIR).
    pub fn with_test_convergence(mut self, on: bool) -> Self {
        self.test_convergence = on;
        self
    }

    /// The patterns.
    pub fn patterns(&self) -> &FrozenPatternSet {
        &self.patterns
    }
}

function_pass!(Canonicalize, "canonicalize");

impl FunctionPass for Canonicalize {
    fn empty_report(&self) -> PassReport {
        PassReport::new(self.name(), false, 0).with_stats(CanonicalizeStats {
            driver: GreedyStats {
                converged: true,
                ..GreedyStats::default()
            },
            step_log: Vec::new(),
        })
    }

    fn run_function(
        &self,
        k: usize,
        functions: usize,
        rw: &mut ProgramRewriter<'_>,
    ) -> Result<PassReport, PassError> {
        // Each function gets an equal share of the time left.
        let deadline = self.config.deadline.map(|d| d.share(functions - k));
        let config = self.config.clone().with_deadline(deadline);
        let mut r = apply_patterns_greedily(rw, &self.patterns, &config)
            .map_err(|e| PassError::failed(self.name(), e))?;
        let function = rw.function_name().to_string();
        if self.test_convergence && !r.converged {
            let error = NotConverged {
                function,
                iterations: r.stats.iterations,
            };
            return Err(PassError::failed(self.name(), error));
        }
        let step_log = r.log.take().map(|log| (function.clone(), log));
        let mut rules_fired: Vec<(String, usize)> = (r.stats.rewrites.iter())
            .map(|(rule, n)| (rule.clone(), *n))
            .collect();
        if r.stats.folds > 0 {
            rules_fired.push(("(constant folding)".into(), r.stats.folds));
        }
        Ok(PassReport {
            erased: r.stats.erased,
            runs: vec![(function, r.summary())],
            rules_fired,
            step_logs: (step_log.iter())
                .map(|(f, log)| (f.clone(), log.to_string()))
                .collect(),
            ..PassReport::new(self.name(), r.changed, 0)
        }
        .with_stats(CanonicalizeStats {
            driver: r.stats,
            step_log: step_log.into_iter().collect(),
        }))
    }

    fn rule_externs(&self) -> Option<&IndexMap<String, ExternSpec>> {
        Some(&self.externs)
    }
}

/// What canonicalization reports beyond every pass's report ([`PassReport::stats`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CanonicalizeStats {
    /// The greedy driver's counters, merged over functions.
    pub driver: GreedyStats,
    /// The greedy driver's step log, per function, when [`GreedyConfig::log`] is on.
    pub step_log: Vec<(String, StepLog)>,
}

impl fmt::Display for CanonicalizeStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.driver)
    }
}

impl PassStats for CanonicalizeStats {
    fn clone_box(&self) -> Box<dyn PassStats> {
        Box::new(self.clone())
    }

    fn merge(&mut self, other: &dyn PassStats) {
        if let Some(other) = other.downcast_ref::<CanonicalizeStats>() {
            self.driver.merge(&other.driver);
            self.step_log.extend(other.step_log.iter().cloned());
        }
    }
}

/// Canonicalization did not converge and convergence was required
/// ([`Canonicalize::with_test_convergence`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("@{function}: canonicalize did not converge in {iterations} iteration(s)")]
pub struct NotConverged {
    /// The function.
    pub function: String,
    /// Iterations run.
    pub iterations: usize,
}
