//! The whole engine in one call: every function of a program through lower → saturate →
//! extract → lift, with a report.
//!
//! Rule externs whose names the program owns (its own `@linear`) are renamed first
//! ([`RuleSet::renaming_externs_for`]), so rule results never call a user's function. The
//! output program declares every extern that rule results introduced (from the rule set's
//! extern declarations) and is verified before it is returned.

use crate::extraction::{choose, choose_within, ExtractorKind};
use crate::lift::{lift, lift_traced};
use crate::lower::ProgramFacts;
use crate::saturate::{saturate_until, SaturationOptions, SaturationReport};
use ptir_cost::{function_run_cost_with_entry, CostModel};
use ptir_ir::Program;
use ptir_pass::Deadline;
use ptir_rules::RuleSet;
use std::time::{Duration, Instant};

/// How to run the engine.
#[derive(Clone)]
pub struct EngineOptions {
    /// How saturation searches and when it stops.
    pub saturation: SaturationOptions,
    /// The cost model extraction minimizes.
    pub cost: std::sync::Arc<dyn CostModel>,
    /// The extractor (default [`ExtractorKind::DagGreedy`]: DAG-aware, because a lifted program
    /// computes each chosen value once).
    pub extractor: ExtractorKind,
    /// Keep each saturated e-graph, priced by the cost model, as egraph-serialize JSON in the
    /// report (default false).
    pub dump_egraph: bool,
    /// Explain every output op ([`FunctionReport::derivations`]; default false): egg's
    /// explanations are on while saturating, which costs memory and time.
    pub explain: bool,
    /// Keep each function's step log (per iteration, the applications of each rule) in the
    /// pass report (default false; `--step-log`).
    pub step_log: bool,
    /// The deadline of a run that began before this engine did (the optimizer's: the time
    /// limit covers setup and every pass); `None`: the time limit from when the engine starts.
    pub deadline: Option<Deadline>,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            saturation: SaturationOptions::default(),
            cost: std::sync::Arc::new(ptir_cost::TensorCost::default()),
            extractor: ExtractorKind::DagGreedy,
            dump_egraph: false,
            explain: false,
            step_log: false,
            deadline: None,
        }
    }
}

/// What the engine did to one function.
#[derive(Clone, Debug)]
pub struct FunctionReport {
    /// The function.
    pub name: String,
    /// Saturation.
    pub saturation: SaturationReport,
    /// Time to lower.
    pub lower_time: Duration,
    /// Time to extract.
    pub extract_time: Duration,
    /// Whether the extractor proved its choice optimal (under its own cost notion).
    pub optimal: bool,
    /// Time to lift.
    pub lift_time: Duration,
    /// `Some((extracted, input))` when the extracted function cost more than the input under
    /// the cost model (the extractor is a heuristic, and so are prices of shared values), so
    /// the engine kept the input function: a run never returns a function its own cost model
    /// prices higher than what it was given.
    pub kept_input: Option<(f64, f64)>,
    /// The saturated e-graph as egraph-serialize JSON, if asked for.
    pub egraph_json: Option<String>,
    /// With [`EngineOptions::explain`]: how each instruction of the output function was
    /// derived from the input function's values, in the output's order (plain data:
    /// [`ptir_pass::explain`]).
    pub derivations: Option<Vec<ptir_pass::explain::Derivation>>,
}

/// Why the engine failed (never because a limit was reached).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// Lowering failed (the input does not verify).
    #[error("lowering @{function}: {message}")]
    Lower {
        /// The function.
        function: String,
        /// Why.
        message: String,
    },
    /// A rule produced a wrong result (a bug in the rule, named in the message).
    #[error("@{function}: {message}")]
    Rule {
        /// The function.
        function: String,
        /// The rule errors.
        message: String,
    },
    /// Extraction failed.
    #[error("extracting @{function}: {message}")]
    Extract {
        /// The function.
        function: String,
        /// Why.
        message: String,
    },
    /// Lifting failed.
    #[error(transparent)]
    Lift(#[from] crate::lift::LiftError),
    /// The output does not verify (an engine bug; the input is returned untouched by callers).
    #[error("the optimized program does not verify: {0}")]
    Verify(ptir_ir::VerifyError),
}

/// Optimizes every function of `program` with `rules` (their externs renamed where the
/// program owns the name; see the module docs). The time limit is for the whole
/// program: each function saturates for an equal share of the time left, so that the ones
/// that saturate early leave their time to the others.
pub fn optimize(
    program: &Program,
    rules: &RuleSet,
    options: &EngineOptions,
) -> Result<(Program, Vec<FunctionReport>), EngineError> {
    let (out, reports) = optimize_unverified(program, rules, options)?;
    ptir_ir::verify(&out).map_err(EngineError::Verify)?;
    Ok((out, reports))
}

/// [`optimize`] without verifying the output: the `eqsat` pass's, whose pipeline verifies
/// where the program leaves the optimizer (and after each pass only when asked).
pub(crate) fn optimize_unverified(
    program: &Program,
    rules: &RuleSet,
    options: &EngineOptions,
) -> Result<(Program, Vec<FunctionReport>), EngineError> {
    let (rules, _) = rules.renaming_externs_for(program);
    let rules = &rules;
    let deadline =
        (options.deadline).unwrap_or_else(|| Deadline::after(options.saturation.limits.time));
    // Extraction searches (local search, the exact solver) end by twice the limit, so that a
    // run stops near its limit however large its e-graphs grew.
    let extraction = Deadline::after(options.saturation.limits.time.saturating_mul(2));
    let mut out = program.clone();
    let mut reports = Vec::new();
    let facts = ProgramFacts::of(program);
    for (i, f) in program.functions.iter().enumerate() {
        let left = program.functions.len() - i;
        let shares = (deadline.share(left), extraction.share(left));
        let (func, report) = optimize_function(program, &facts, f, rules, options, shares)?;
        out.functions[i] = func;
        reports.push(report);
    }
    declare_rule_externs(&mut out, rules);
    Ok((out, reports))
}

fn optimize_function(
    program: &Program,
    facts: &ProgramFacts,
    input: &ptir_ir::Function,
    rules: &RuleSet,
    options: &EngineOptions,
    (deadline, extraction): (Deadline, Deadline),
) -> Result<(ptir_ir::Function, FunctionReport), EngineError> {
    let name = input.name.as_str();
    let err_lower = |message| EngineError::Lower {
        function: name.to_string(),
        message,
    };
    let t = Instant::now();
    let mut lowered = facts
        .lower(program, name, options.explain)
        .map_err(err_lower)?;
    let lower_time = t.elapsed();
    let saturation = saturate_until(&mut lowered, rules, &options.saturation, deadline);
    if !saturation.rule_errors.is_empty() {
        return Err(EngineError::Rule {
            function: name.to_string(),
            message: saturation.rule_errors.join("; "),
        });
    }
    let t = Instant::now();
    let budget = extraction.left();
    let choice = choose_within(&lowered, options.cost.as_ref(), options.extractor, budget)
        .map_err(|message| EngineError::Extract {
            function: name.to_string(),
            message,
        })?;
    let extract_time = t.elapsed();
    let t = Instant::now();
    let (func, emitted) = lift_traced(&lowered, &|c| choice.node(c), options.explain)?;
    let (func, kept_input) = keep_the_cheaper(input, func, options.cost.as_ref());
    // A kept input has no new derivations: its values are the input's.
    let derivations = (options.explain && kept_input.is_none())
        .then(|| crate::explain::derivations(&lowered, &emitted));
    let egraph_json = match options.dump_egraph {
        true => Some(
            lowered
                .extraction_graph(options.cost.as_ref())
                .map(|g| ptir_extract::serialize::to_json(&g))
                .map_err(|message| EngineError::Extract {
                    function: name.to_string(),
                    message,
                })?,
        ),
        false => None,
    };
    let report = FunctionReport {
        name: name.to_string(),
        saturation,
        lower_time,
        extract_time,
        optimal: choice.optimal,
        lift_time: t.elapsed(),
        kept_input,
        egraph_json,
        derivations,
    };
    Ok((func, report))
}

/// Relative slack under which an extracted function counts as no costlier than the input:
/// prices summed in another order differ in their last bits.
const COST_SLACK: f64 = 1e-9;

/// `extracted`, unless the input function is cheaper under `model` as a program runs it
/// ([`function_run_cost_with_entry`]: extraction prices each e-node on its own, and a choice
/// that shares a value between users can cost more once that value is written to memory):
/// then the input, with both costs.
fn keep_the_cheaper(
    input: &ptir_ir::Function,
    extracted: ptir_ir::Function,
    model: &dyn CostModel,
) -> (ptir_ir::Function, Option<(f64, f64)>) {
    let (after, before) = (
        function_run_cost_with_entry(&extracted, model),
        function_run_cost_with_entry(input, model),
    );
    if after > before + COST_SLACK * before.abs() {
        (input.clone(), Some((after, before)))
    } else {
        (extracted, None)
    }
}

/// Adds a declaration for every extern the program calls but does not declare, from the rule
/// set's extern declarations (shape-polymorphic, with the declared purity).
pub fn declare_rule_externs(program: &mut Program, rules: &RuleSet) {
    rules.declare_called_externs(program);
}

/// One (cost model, extractor) pair's result in [`compare`].
#[derive(Clone, Debug)]
pub struct Comparison {
    /// The model extraction minimized.
    pub model: String,
    /// The extractor.
    pub extractor: ExtractorKind,
    /// The extracted program's cost under every model given, in order.
    pub costs: Vec<(String, f64)>,
    /// Total extraction time over the functions.
    pub extract_time: Duration,
    /// Whether every function's choice was proved optimal.
    pub optimal: bool,
    /// The lifted program.
    pub program: Program,
}

/// Saturates every function once (the time limit shared by the whole program, as in
/// [`optimize`]), then extracts
/// and lifts with each (model, extractor) pair on the same e-graphs, and prices each result
/// under every model of `pairs`.
pub fn compare(
    program: &Program,
    rules: &RuleSet,
    saturation: &SaturationOptions,
    pairs: &[(std::sync::Arc<dyn CostModel>, ExtractorKind)],
) -> Result<Vec<Comparison>, EngineError> {
    let (rules, _) = rules.renaming_externs_for(program);
    let rules = &rules;
    let deadline = Deadline::after(saturation.limits.time);
    let mut saturated = Vec::new();
    let facts = ProgramFacts::of(program);
    for (i, f) in program.functions.iter().enumerate() {
        let mut lowered =
            facts
                .lower(program, &f.name, false)
                .map_err(|message| EngineError::Lower {
                    function: f.name.clone(),
                    message,
                })?;
        let share = deadline.share(program.functions.len() - i);
        let report = saturate_until(&mut lowered, rules, saturation, share);
        if !report.rule_errors.is_empty() {
            return Err(EngineError::Rule {
                function: f.name.clone(),
                message: report.rule_errors.join("; "),
            });
        }
        saturated.push(lowered);
    }
    let mut out = Vec::new();
    for (model, kind) in pairs {
        let mut result = program.clone();
        let (mut time, mut optimal) = (Duration::ZERO, true);
        for (i, lowered) in saturated.iter().enumerate() {
            let t = Instant::now();
            let choice =
                choose(lowered, model.as_ref(), *kind).map_err(|message| EngineError::Extract {
                    function: lowered.name.clone(),
                    message,
                })?;
            time += t.elapsed();
            optimal &= choice.optimal;
            result.functions[i] = lift(lowered, &choice)?;
        }
        declare_rule_externs(&mut result, rules);
        ptir_ir::verify(&result).map_err(EngineError::Verify)?;
        let mut costs: Vec<(String, f64)> = Vec::new();
        for (m, _) in pairs {
            if !costs.iter().any(|(n, _)| n == m.name()) {
                costs.push((
                    m.name().to_string(),
                    ptir_cost::program_cost(&result, m.as_ref()),
                ));
            }
        }
        out.push(Comparison {
            model: model.name().to_string(),
            extractor: *kind,
            costs,
            extract_time: time,
            optimal,
            program: result,
        });
    }
    Ok(out)
}
