//! Equality saturation as a pass of a `ptir-pass` pipeline (`eqsat`, or
//! `canonicalize,eqsat,dce`): every function lowered, saturated, extracted and lifted, as
//! [`crate::optimize`] does; the output declares the rule externs its calls need.

use crate::engine::{optimize_unverified, EngineOptions, FunctionReport};
use ptir_ir::Program;
use ptir_pass::explain::Provenance;
use ptir_pass::{EGraphSize, Pass, PassError, PassOptions, PassRegistry, PassReport, PassStats};
use ptir_rules::RuleSet;
use std::fmt;
use std::sync::Arc;

/// The name of the equality-saturation pass in pipeline text.
pub const EQSAT_PASS: &str = "eqsat";

/// The `eqsat` pass: [`crate::optimize`] with its rules and options, its per-function
/// reports kept as the pass report's [`EqsatStats`].
///
/// ```
/// use ptir_egraph::{Eqsat, EqsatStats, EngineOptions};
/// use ptir_pass::Pass;
/// let rules = ptir_rules::RuleSet::bundled().unwrap();
/// let mut p = ptir_ir::parse("func @f(%x: f32[4]) -> (f32[4]) {\n  %a = neg %x : f32[4]\n  %b = neg %a : f32[4]\n  return %b\n}").unwrap();
/// let report = Eqsat::new(rules, EngineOptions::default()).run(&mut p).unwrap();
/// assert!(report.changed);
/// assert_eq!(report.stats::<EqsatStats>().unwrap().functions[0].name, "f");
/// assert_eq!(p.num_insts(), 0);
/// ```
#[derive(Clone)]
pub struct Eqsat {
    /// Shared by every copy the registry makes: a rule library may be large.
    rules: Arc<RuleSet>,
    options: EngineOptions,
}

impl fmt::Debug for Eqsat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Eqsat")
            .field("rules", &self.rules.rules().len())
            .finish_non_exhaustive()
    }
}

impl Eqsat {
    /// Saturates with `rules` under `options`.
    pub fn new(rules: impl Into<Arc<RuleSet>>, options: EngineOptions) -> Self {
        Eqsat {
            rules: rules.into(),
            options,
        }
    }
}

/// What the `eqsat` pass reports beyond every pass's report ([`PassReport::stats`]): the
/// engine's report of each function.
#[derive(Clone, Debug, Default)]
pub struct EqsatStats {
    /// One report per function, in program order.
    pub functions: Vec<FunctionReport>,
}

impl fmt::Display for EqsatStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in &self.functions {
            writeln!(f, "  @{}: {}", r.name, r.saturation.summary())?;
        }
        Ok(())
    }
}

impl PassStats for EqsatStats {
    fn clone_box(&self) -> Box<dyn PassStats> {
        Box::new(self.clone())
    }

    fn merge(&mut self, other: &dyn PassStats) {
        if let Some(other) = other.downcast_ref::<EqsatStats>() {
            self.functions.extend(other.functions.iter().cloned());
        }
    }
}

impl Pass for Eqsat {
    fn name(&self) -> &str {
        EQSAT_PASS
    }

    fn run(&self, program: &mut Program) -> Result<PassReport, PassError> {
        let (out, functions) = optimize_unverified(program, &self.rules, &self.options)
            .map_err(|e| PassError::failed(EQSAT_PASS, e))?;
        let changed = out != *program;
        *program = out;
        let mut report = PassReport::new(EQSAT_PASS, changed, 0);
        for r in &functions {
            let context = (self.options.cost.name(), self.options.step_log);
            record_function(&mut report, r, context);
        }
        Ok(report.with_stats(EqsatStats { functions }))
    }

    /// Lifting numbers values afresh: each function's chains become its derivations'
    /// ([`Provenance::derive`]).
    fn run_explained(
        &self,
        program: &mut Program,
        provenance: &mut Provenance,
    ) -> Result<PassReport, PassError> {
        let report = self.run(program)?;
        for r in report
            .stats::<EqsatStats>()
            .map_or(&[][..], |s| &s.functions)
        {
            if let Some(d) = &r.derivations {
                provenance.derive(&r.name, d.iter().cloned());
            }
        }
        Ok(report)
    }
}

/// Adds what the engine's report `r` of one function says to `report`, in the terms every
/// pass reports in: phase times, rules fired and banned, the stop, the e-graph's size, the
/// step log and dump, rules skipped, optimality, and notes on what the run chose not to do
/// (priced under the cost model `model`); the step log when `step_log` asks for it.
fn record_function(report: &mut PassReport, r: &FunctionReport, (model, step_log): (&str, bool)) {
    let phases = [
        ("lower", r.lower_time),
        ("saturate", r.saturation.time),
        ("extract", r.extract_time),
        ("lift", r.lift_time),
    ];
    report
        .phases
        .extend(phases.into_iter().map(|(p, t)| (p.to_string(), t)));
    report.rules_fired.extend(r.saturation.rules_applied());
    if r.saturation.folds > 0 {
        let folds = ("(constant folding)".to_string(), r.saturation.folds);
        report.rules_fired.push(folds);
    }
    report.rules_banned.extend(r.saturation.bans());
    let size = EGraphSize {
        nodes: r.saturation.nodes,
        classes: r.saturation.classes,
    };
    *report.egraph.get_or_insert_default() += size;
    // A family stopped for running away is named by the stop reason when the other rules
    // then reached their fixpoint; when a limit stopped the run, by a note.
    for runaway in r.saturation.runaways() {
        if runaway != r.saturation.stop {
            (report.notes).push(format!("@{}: saturation stopped a {runaway}", r.name));
        }
    }
    report.runs.push((r.name.clone(), r.saturation.summary()));
    if step_log {
        report
            .step_logs
            .push((r.name.clone(), r.saturation.step_log()));
    }
    if let Some(json) = &r.egraph_json {
        report.dumps.push((r.name.clone(), json.clone()));
    }
    if let Some((extracted, input)) = r.kept_input {
        report.notes.push(format!(
            "kept @{} as it came: the function extracted from its e-graph would cost {} \
             against its {} under the {model} cost model (`--extractor exact` searches further)",
            r.name,
            ptir_cost::format_cost(extracted),
            ptir_cost::format_cost(input),
        ));
    }
    for skipped in &r.saturation.skipped {
        let reason = (skipped.name.clone(), skipped.reason.clone());
        report.rules_skipped.push(reason);
    }
    // A function kept as it came (priced cheaper as the runtime runs it) is not the
    // extractor's choice: its optimality says nothing about the output.
    let proved = r.optimal && r.kept_input.is_none();
    report.optimal = Some(report.optimal.unwrap_or(true) && proved);
}

/// Registers the e-graph engine's pass in `registry`: `eqsat` (no options), saturating with
/// `rules` under `options`.
///
/// ```
/// let mut registry = ptir_pass::PassRegistry::new();
/// let rules = ptir_rules::RuleSet::bundled().unwrap();
/// ptir_egraph::register_passes(&mut registry, rules, ptir_egraph::EngineOptions::default());
/// assert_eq!(registry.parse("eqsat").unwrap().names(), ["eqsat"]);
/// ```
pub fn register_passes(
    registry: &mut PassRegistry,
    rules: impl Into<Arc<RuleSet>>,
    options: EngineOptions,
) {
    let eqsat = Eqsat::new(rules, options);
    registry.register(
        EQSAT_PASS,
        "equality saturation, extraction under the cost model, lifting",
        move |o: &PassOptions| {
            o.expect_none(EQSAT_PASS)?;
            Ok(Box::new(eqsat.clone()))
        },
    );
}
