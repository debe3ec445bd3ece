//! What a caller chooses: engine, rules, limits, cost model, extractor.

use ptir_egraph::cost::{CostModel, OpCount, TensorCost};
use ptir_egraph::{ExtractorKind, Limits};
use ptir_rules::{RuleFilter, RuleSet, FAST_MATH};
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// Which engine optimizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Engine {
    /// The greedy driver with MLIR's semantics (canonicalize → CSE → DCE).
    Greedy,
    /// Equality saturation (the e-graph engine).
    Saturation,
}

impl Engine {
    /// Its name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Greedy => "greedy",
            Engine::Saturation => "eqsat",
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A cost model by name, or a user's.
#[derive(Clone)]
pub enum Cost {
    /// One per instruction ([`OpCount`]).
    Ops,
    /// FLOPs and bytes from the shapes ([`TensorCost`]), with the rule set's fused extern
    /// costs.
    Tensor,
    /// A user-supplied model.
    Custom(Arc<dyn CostModel>),
}

impl fmt::Debug for Cost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cost::Ops => f.write_str("Ops"),
            Cost::Tensor => f.write_str("Tensor"),
            Cost::Custom(m) => write!(f, "Custom({})", m.name()),
        }
    }
}

impl Cost {
    /// The model, with the extern costs declared by `rules` for the tensor model.
    pub fn model(&self, rules: &RuleSet) -> Arc<dyn CostModel> {
        match self {
            Cost::Ops => Arc::new(OpCount),
            Cost::Tensor => Arc::new(TensorCost {
                extern_costs: rules
                    .externs()
                    .iter()
                    .map(|(k, e)| (k.clone(), e.cost))
                    .collect(),
                ..TensorCost::default()
            }),
            Cost::Custom(m) => m.clone(),
        }
    }
}

/// Everything [`crate::optimize`] needs to know.
///
/// `Options::default()` is: equality saturation, the bundled rules without `fast-math`,
/// default limits, the tensor cost model, the DAG-aware greedy extractor (the output program
/// computes each value once, so its cost is the DAG cost of the choice; the tree extractor
/// pays a shared value once per use and cannot see that sharing a value is cheaper).
#[derive(Clone, Debug)]
pub struct Options {
    /// The engine.
    pub engine: Engine,
    /// Use the bundled `rules/` library (default true).
    pub bundled_rules: bool,
    /// Extra rule files (`.rules` or `.pat`), read from disk.
    pub rule_files: Vec<PathBuf>,
    /// Extra rules given as text: (file name for locations, `.rules` source).
    pub rule_texts: Vec<(String, String)>,
    /// Prove every user-supplied rule (of `rule_files` and `rule_texts`, not the bundled
    /// library) by the interpreter when loading it, and refuse one with a counterexample
    /// (default true; see [`crate::load_rules`]).
    pub prove_rules: bool,
    /// Rule names or labels to keep (empty: all).
    pub enable: Vec<String>,
    /// Rule names or labels to drop (wins over `enable`).
    pub disable: Vec<String>,
    /// Allow rules labelled `fast-math` (default false).
    pub fast_math: bool,
    /// Runner limits.
    pub limits: Limits,
    /// The cost model.
    pub cost: Cost,
    /// The extractor.
    pub extractor: ExtractorKind,
    /// Keep the saturated e-graphs as egraph-serialize JSON in the report (default false).
    pub dump_egraph: bool,
    /// Keep the greedy driver's step log in the report (default false).
    pub step_log: bool,
    /// Legalize the optimized program for this target, after optimization (default none;
    /// [`crate::load_target`] reads a bundled one or a file). A full conversion: if some op
    /// cannot be legalized, [`crate::optimize`] fails and names every such op.
    pub target: Option<ptir_convert::ConversionTarget>,
    /// Translation validation (default `None`): after optimizing, run the input and the output
    /// on this many seeded random input sets and refuse an output that computes something
    /// else ([`crate::Error::Validation`]); see [`crate::validate`].
    pub validate: Option<usize>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            engine: Engine::Saturation,
            bundled_rules: true,
            rule_files: Vec::new(),
            rule_texts: Vec::new(),
            prove_rules: true,
            enable: Vec::new(),
            disable: Vec::new(),
            fast_math: false,
            limits: Limits::default(),
            cost: Cost::Tensor,
            extractor: ExtractorKind::Greedy,
            dump_egraph: false,
            step_log: false,
            target: None,
            validate: None,
        }
    }
}

impl Options {
    /// The rule filter these options describe.
    pub fn filter(&self) -> RuleFilter {
        let mut disabled = self.disable.clone();
        if !self.fast_math {
            disabled.push(FAST_MATH.to_string());
        }
        RuleFilter {
            enabled: self.enable.clone(),
            disabled,
        }
    }
}
