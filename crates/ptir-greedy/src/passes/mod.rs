//! The greedy engine's passes: [`Canonicalize`] (rules and folds, greedy, top-down), [`Cse`]
//! and [`Dce`], registered in a [`PassRegistry`] by [`register_passes`] and run by the
//! engine-neutral [`PassManager`] of `ptir-pass`.
//!
//! The default pipeline is MLIR's `-canonicalize -cse` flow followed by DCE
//! ([`DEFAULT_PIPELINE`]). Each pass runs on every function, through a [`ProgramRewriter`],
//! and recurses into regions. The three are function passes: consecutive ones run function by
//! function, each function in one rewriter from the first to the last (MLIR's nested function
//! pipelines; the IR is not moved out of the rewriter's arena and back between them), through
//! the pipeline's hook [`Pass::run_nested`]. A canonicalization whose rules raise to externs
//! declares the rule set's externs while its unit runs, and afterwards only those called,
//! in the order the program calls them.

/// Implements [`Pass`] for a [`FunctionPass`] named `$name`: it runs on every function
/// through [`run_unit`], keeping provenance through the rewriter (which drops the chains of
/// the ops it erases), and runs the function passes after it in the same rewriters.
macro_rules! function_pass {
    ($ty:ty, $name:literal) => {
        impl ptir_pass::Pass for $ty {
            fn name(&self) -> &str {
                $name
            }

            fn run(
                &self,
                program: &mut ptir_ir::Program,
            ) -> Result<ptir_pass::PassReport, ptir_pass::PassError> {
                let mut reports = $crate::passes::run_unit(&[self], program, None)?;
                Ok(reports.remove(0))
            }

            fn run_explained(
                &self,
                program: &mut ptir_ir::Program,
                provenance: &mut ptir_pass::explain::Provenance,
            ) -> Result<ptir_pass::PassReport, ptir_pass::PassError> {
                let mut reports = $crate::passes::run_unit(&[self], program, Some(provenance))?;
                Ok(reports.remove(0))
            }

            fn run_nested(
                &self,
                next: &[Box<dyn ptir_pass::Pass>],
                program: &mut ptir_ir::Program,
                provenance: Option<&mut ptir_pass::explain::Provenance>,
            ) -> Option<Result<Vec<ptir_pass::PassReport>, ptir_pass::PassError>> {
                $crate::passes::run_nested(self, next, program, provenance)
            }
        }
    };
}

mod canonicalize;
pub(crate) mod cse;
pub(crate) mod dce;

pub use canonicalize::{
    directed_rule_filter, greedy_rule_filter, Canonicalize, CanonicalizeStats, NotConverged,
    ALGEBRA, PRICED,
};
pub use cse::Cse;
pub use dce::Dce;

use crate::facts::ProgramContext;
use crate::ir::InvalidFunction;
use crate::rewriter::ProgramRewriter;
use crate::rules::CompileError;
use indexmap::IndexMap;
use ptir_ir::Program;
use ptir_pass::explain::Provenance;
use ptir_pass::{Pass, PassError, PassManager, PassOptions, PassRegistry, PassReport};
use ptir_rules::{ExternSpec, RuleSet};
use std::any::Any;
use std::time::Instant;

/// A pass that rewrites each function on its own, through its [`ProgramRewriter`], and reads
/// nothing else of the program than the rewriter's `ProgramContext` (callee signatures and
/// purity, which no function pass changes: it never erases an impure op nor adds one).
pub(crate) trait FunctionPass: Pass {
    /// The pass's report over no function, which the reports of the functions are merged
    /// into ([`PassReport::merge`]): by default, changed nothing and erased nothing.
    fn empty_report(&self) -> PassReport {
        PassReport::new(self.name(), false, 0)
    }

    /// Runs on function `k` of `functions` (in program order); what it did to that function.
    fn run_function(
        &self,
        k: usize,
        functions: usize,
        rw: &mut ProgramRewriter<'_>,
    ) -> Result<PassReport, PassError>;

    /// The externs the pass's rules may introduce calls to (declared while it runs).
    fn rule_externs(&self) -> Option<&IndexMap<String, ExternSpec>> {
        None
    }
}

/// `pass` as one of this crate's function passes, if it is one.
fn as_function_pass(pass: &dyn Pass) -> Option<&dyn FunctionPass> {
    let any: &dyn Any = pass;
    if let Some(p) = any.downcast_ref::<Canonicalize>() {
        return Some(p);
    }
    if let Some(p) = any.downcast_ref::<Cse>() {
        return Some(p);
    }
    any.downcast_ref::<Dce>().map(|p| p as &dyn FunctionPass)
}

/// [`Pass::run_nested`] of a function pass: `first` and the function passes that follow it
/// in `next`, run as one unit.
pub(crate) fn run_nested(
    first: &dyn FunctionPass,
    next: &[Box<dyn Pass>],
    program: &mut Program,
    provenance: Option<&mut Provenance>,
) -> Option<Result<Vec<PassReport>, PassError>> {
    let unit: Vec<&dyn FunctionPass> = std::iter::once(first)
        .chain(next.iter().map_while(|p| as_function_pass(p.as_ref())))
        .collect();
    Some(run_unit(&unit, program, provenance))
}

/// Runs consecutive function passes function by function, each function in one rewriter
/// from the first pass to the last; one report per pass. The externs the passes' rules may
/// call are declared while they run; afterwards only those called stay, declared in the
/// order the program calls them.
pub(crate) fn run_unit(
    unit: &[&dyn FunctionPass],
    program: &mut Program,
    provenance: Option<&mut Provenance>,
) -> Result<Vec<PassReport>, PassError> {
    let externs: Vec<&IndexMap<String, ExternSpec>> =
        unit.iter().filter_map(|p| p.rule_externs()).collect();
    let mut added = Vec::new();
    for e in &externs {
        added.extend(ptir_rules::declare_all_externs(program, e));
    }
    let functions = program.functions.len();
    let mut reports: Vec<PassReport> = unit.iter().map(|p| p.empty_report()).collect();
    let start = Instant::now();
    let name = unit.first().map_or("", |p| p.name());
    let done = rewrite_functions_tracked(name, program, provenance, |k, rw| {
        for (pass, report) in unit.iter().zip(&mut reports) {
            let start = Instant::now();
            let mut r = pass.run_function(k, functions, rw)?;
            r.time = start.elapsed();
            report.merge(r);
        }
        Ok(())
    });
    if !added.is_empty() {
        program.externs.retain(|e| !added.contains(&e.name));
        ptir_rules::declare_called_externs(program, &externs);
    }
    done?;
    ptir_pass::charge_overhead(&mut reports, start.elapsed());
    Ok(reports)
}

/// The default pipeline as pipeline text: MLIR's `-canonicalize -cse` flow followed by DCE.
pub const DEFAULT_PIPELINE: &str = "canonicalize,cse,dce";

/// Registers the greedy engine's passes in `registry`: `canonicalize` (a copy of
/// `canonicalize`, sharing its compiled patterns; option `test-convergence=true|false`,
/// MLIR's), `cse` and `dce` (no options).
///
/// ```
/// use ptir_greedy::{register_passes, Canonicalize};
/// let rules = ptir_rules::RuleSet::new(ptir_rules::Registry::standard());
/// let mut registry = ptir_pass::PassRegistry::new();
/// register_passes(&mut registry, Canonicalize::with_rules(&rules).unwrap());
/// let pm = registry.parse("cse, canonicalize{test-convergence=true},dce").unwrap();
/// assert_eq!(pm.names(), ["cse", "canonicalize", "dce"]);
/// assert!(registry.parse("cse{x=1}").is_err());
/// ```
pub fn register_passes(registry: &mut PassRegistry, canonicalize: Canonicalize) {
    register_passes_with(registry, move || Ok(canonicalize));
}

/// [`register_passes`] with the `canonicalize` pass built by `make` the first time a pipeline
/// names it (and shared from then on), so that a pipeline without it never compiles the rules
/// for the greedy driver. A rule that does not compile fails the parse of such a pipeline.
///
/// ```
/// use ptir_greedy::{register_passes_with, Canonicalize};
/// let rules = ptir_rules::RuleSet::new(ptir_rules::Registry::standard());
/// let mut registry = ptir_pass::PassRegistry::new();
/// register_passes_with(&mut registry, move || Canonicalize::with_rules(&rules));
/// assert_eq!(registry.parse("cse,dce").unwrap().names(), ["cse", "dce"]);
/// assert_eq!(registry.parse("canonicalize").unwrap().names(), ["canonicalize"]);
/// ```
pub fn register_passes_with(
    registry: &mut PassRegistry,
    make: impl FnOnce() -> Result<Canonicalize, CompileError> + 'static,
) {
    let built = std::cell::LazyCell::new(move || make().map_err(|e| e.to_string()));
    registry.register(
        "canonicalize",
        "rules and folds, greedily, until a fixpoint or a limit",
        move |options: &PassOptions| {
            options.expect_only("canonicalize", &["test-convergence"])?;
            let test = options.bool("test-convergence")?.unwrap_or(false);
            let pass = std::cell::LazyCell::force(&built).clone()?;
            Ok(Box::new(if test {
                pass.with_test_convergence(true)
            } else {
                pass
            }))
        },
    );
    registry.register(
        "cse",
        "common subexpression elimination",
        |options: &PassOptions| {
            options.expect_none("cse")?;
            Ok(Box::new(Cse))
        },
    );
    registry.register("dce", "dead code elimination", |options: &PassOptions| {
        options.expect_none("dce")?;
        Ok(Box::new(Dce))
    });
}

/// [`DEFAULT_PIPELINE`] (`canonicalize → cse → dce`), canonicalizing with the rules of
/// `rules` that [`greedy_rule_filter`] keeps, and folds.
///
/// ```
/// use ptir_rules::{Registry, RuleSet};
/// let mut rules = RuleSet::new(Registry::standard());
/// rules.add_source("r.rules", "(rule neg-neg (neg (neg ?x)) => ?x)").unwrap();
/// let mut p = ptir_ir::parse("func @f(%0: f32[2]) -> (f32[2]) {
///   %1 = exp %0 : f32[2]
///   %2 = exp %0 : f32[2]
///   %3 = neg %2 : f32[2]
///   %4 = neg %3 : f32[2]
///   %5 = add %1, %4 : f32[2]
///   return %5
/// }").unwrap();
/// let report = ptir_greedy::default_pipeline(&rules).unwrap().run(&mut p).unwrap();
/// assert_eq!(report.passes.len(), 3);
/// assert_eq!(p.num_insts(), 2); // one exp, one add
/// ```
pub fn default_pipeline(rules: &RuleSet) -> Result<PassManager, CompileError> {
    let mut pm = PassManager::new();
    pm.add(Canonicalize::with_rules(rules)?).add(Cse).add(Dce);
    Ok(pm)
}

/// Runs `f` on a rewriter of each function in turn (with the function's index); functions
/// are put back even on error.
#[cfg(test)]
pub(crate) fn rewrite_functions<T>(
    program: &mut Program,
    f: impl FnMut(usize, &mut ProgramRewriter<'_>) -> Result<T, PassError>,
) -> Result<Vec<T>, PassError> {
    rewrite_functions_tracked("test", program, None, f)
}

/// Runs `f` on a rewriter of each function in turn (with the function's index), tracking
/// each function's provenance in `provenance` when given
/// ([`ProgramRewriter::track_provenance`]); functions are put back even on error, which
/// names `pass`.
pub(crate) fn rewrite_functions_tracked<T>(
    pass: &str,
    program: &mut Program,
    mut provenance: Option<&mut Provenance>,
    mut f: impl FnMut(usize, &mut ProgramRewriter<'_>) -> Result<T, PassError>,
) -> Result<Vec<T>, PassError> {
    let cx = ProgramContext::new(program);
    if let Some((function, value)) = program
        .functions
        .iter()
        .find_map(|f| Some((f.name.clone(), cx.duplicate_definition(&f.name)?)))
    {
        return Err(PassError::failed(pass, InvalidFunction { function, value }));
    }
    let functions = std::mem::take(&mut program.functions);
    let mut results = Vec::with_capacity(functions.len());
    let mut error = None;
    for (k, func) in functions.into_iter().enumerate() {
        if error.is_some() {
            program.functions.push(func);
            continue;
        }
        let mut rw = ProgramRewriter::new(func, &cx).map_err(|e| PassError::failed(pass, e))?;
        if let Some(p) = provenance.as_deref_mut() {
            rw.track_provenance(p.take_function(rw.function_name()));
        }
        match f(k, &mut rw) {
            Ok(r) => results.push(r),
            Err(e) => error = Some(e),
        }
        if let (Some(p), Some(chains)) = (provenance.as_deref_mut(), rw.take_provenance()) {
            p.set_function(rw.function_name(), chains);
        }
        program.functions.push(rw.finish());
    }
    match error {
        Some(e) => Err(e),
        None => Ok(results),
    }
}
