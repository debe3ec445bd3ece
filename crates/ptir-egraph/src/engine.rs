//! The whole engine in one call: every function of a program through lower → saturate →
//! extract → lift, with a report.
//!
//! The output program declares every extern that rule results introduced (from the rule set's
//! extern declarations) and is verified before it is returned.

use crate::cost::CostModel;
use crate::extraction::{extract, ExtractorKind};
use crate::lift::lift;
use crate::lower::lower;
use crate::saturate::{saturate, Limits, SaturationReport};
use ptir_ir::{ExternDecl, Program};
use ptir_rules::RuleSet;
use std::time::{Duration, Instant};

/// How to run the engine.
#[derive(Clone)]
pub struct EngineOptions {
    /// Runner limits.
    pub limits: Limits,
    /// The cost model extraction minimizes.
    pub cost: std::sync::Arc<dyn CostModel>,
    /// The extractor.
    pub extractor: ExtractorKind,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            limits: Limits::default(),
            cost: std::sync::Arc::new(crate::cost::TensorCost::default()),
            extractor: ExtractorKind::Tree,
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
    Verify(String),
}

/// Optimizes every function of `program` with `rules`.
pub fn optimize(
    program: &Program,
    rules: &RuleSet,
    options: &EngineOptions,
) -> Result<(Program, Vec<FunctionReport>), EngineError> {
    let mut out = program.clone();
    let mut reports = Vec::new();
    for (i, f) in program.functions.iter().enumerate() {
        let (func, report) = optimize_function(program, &f.name, rules, options)?;
        out.functions[i] = func;
        reports.push(report);
    }
    declare_rule_externs(&mut out, rules);
    ptir_ir::verify(&out).map_err(|e| EngineError::Verify(e.to_string()))?;
    Ok((out, reports))
}

fn optimize_function(
    program: &Program,
    name: &str,
    rules: &RuleSet,
    options: &EngineOptions,
) -> Result<(ptir_ir::Function, FunctionReport), EngineError> {
    let err_lower = |message| EngineError::Lower {
        function: name.to_string(),
        message,
    };
    let t = Instant::now();
    let mut lowered = lower(program, name).map_err(err_lower)?;
    let lower_time = t.elapsed();
    let saturation = saturate(&mut lowered, rules, &options.limits);
    if !saturation.rule_errors.is_empty() {
        return Err(EngineError::Rule {
            function: name.to_string(),
            message: saturation.rule_errors.join("; "),
        });
    }
    let t = Instant::now();
    let choice =
        extract(&lowered, options.cost.as_ref(), options.extractor).map_err(|message| {
            EngineError::Extract {
                function: name.to_string(),
                message,
            }
        })?;
    let extract_time = t.elapsed();
    let t = Instant::now();
    let func = lift(&lowered, &|c| choice.node(c))?;
    let report = FunctionReport {
        name: name.to_string(),
        saturation,
        lower_time,
        extract_time,
        optimal: choice.optimal,
        lift_time: t.elapsed(),
    };
    Ok((func, report))
}

/// Adds a declaration for every extern the program calls but does not declare, from the rule
/// set's extern declarations (shape-polymorphic, with the declared purity).
pub fn declare_rule_externs(program: &mut Program, rules: &RuleSet) {
    let mut called = Vec::new();
    for f in &program.functions {
        f.body.walk(&mut |i, _| {
            if let ptir_ir::Op::Call { callee } = &i.op {
                called.push(callee.clone());
            }
        });
    }
    for callee in called {
        let known = program.function(&callee).is_some() || program.extern_decl(&callee).is_some();
        if let (false, Some(spec)) = (known, rules.externs().get(&callee)) {
            program.externs.push(ExternDecl {
                name: callee,
                signature: None,
                pure: spec.pure,
            });
        }
    }
}
