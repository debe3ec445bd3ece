//! Passes over a whole [`Program`] and the [`PassManager`] that runs them in order.
//!
//! The default pipeline is MLIR's `-canonicalize -cse` flow followed by DCE:
//! [`Canonicalize`] (rules and folds, greedy, top-down) → [`Cse`] → [`Dce`]. Each pass runs
//! on every function, through a [`ProgramRewriter`], and recurses into regions. The three are
//! [`FunctionPass`]es: consecutive function passes run function by function, each function in
//! one rewriter from the first to the last (MLIR's nested function pipelines; the IR is not
//! moved out of the rewriter's arena and back between them). The pass manager verifies the
//! program after each pass, or each run of function passes (on by default), so a broken pass
//! is caught where it happens (within its run: build the pass manager with
//! [`PassManager::with_ir_after_each`] to run every pass on its own and see each one's output).
//! A pipeline can be written as text, as `mlir-opt --pass-pipeline` takes it
//! ([`PassManager::parse_pipeline`], [`DEFAULT_PIPELINE`]), with passes the caller adds beside
//! the built-in ones (the `ptir` facade adds `eqsat`).

/// Implements [`Pass`] for a [`FunctionPass`] named `$name`: it runs on every function
/// through [`run_function_pass`], keeping provenance through the rewriter (which drops the
/// chains of the ops it erases), and says it is a function pass.
macro_rules! function_pass {
    ($ty:ty, $name:literal) => {
        impl $crate::passes::Pass for $ty {
            fn name(&self) -> &str {
                $name
            }

            fn run(
                &self,
                program: &mut ptir_ir::Program,
            ) -> Result<$crate::passes::PassReport, $crate::passes::PassError> {
                $crate::passes::run_function_pass(self, program, None)
            }

            fn run_explained(
                &self,
                program: &mut ptir_ir::Program,
                provenance: &mut ptir_rules::explain::Provenance,
            ) -> Result<$crate::passes::PassReport, $crate::passes::PassError> {
                $crate::passes::run_function_pass(self, program, Some(provenance))
            }

            fn as_function_pass(&self) -> Option<&dyn $crate::passes::FunctionPass> {
                Some(self)
            }
        }
    };
}

mod canonicalize;
pub(crate) mod cse;
pub(crate) mod dce;

pub use canonicalize::{directed_rule_filter, greedy_rule_filter, Canonicalize, ALGEBRA, PRICED};
pub use cse::Cse;
pub use dce::Dce;

use crate::driver::{GreedyError, GreedyStats};
use crate::facts::ProgramContext;
use crate::ir::InvalidFunction;
use crate::rewriter::ProgramRewriter;
use crate::rules::CompileError;
use ptir_ir::{Program, VerifyError};
use ptir_rules::explain::Provenance;
use ptir_rules::RuleSet;
use std::fmt;
use std::time::{Duration, Instant};

/// A transformation of a whole program.
pub trait Pass {
    /// Its name, for reports and errors.
    fn name(&self) -> &str;

    /// The pass as a [`FunctionPass`], if it is one: a [`PassManager`] runs consecutive
    /// function passes on one [`ProgramRewriter`] per function, so that the IR stays in the
    /// rewriter's arena from one to the next (as MLIR's IR stays in one form between passes)
    /// instead of being moved out and back in by each. Default: not one.
    fn as_function_pass(&self) -> Option<&dyn FunctionPass> {
        None
    }
    /// Runs it. On error the program may be partly transformed.
    fn run(&self, program: &mut Program) -> Result<PassReport, PassError>;

    /// Runs it, keeping `provenance` current (`--explain`): the chain of rules behind every
    /// derived value ([`ptir_rules::explain`]). The default runs [`run`](Self::run) and
    /// drops the chains of the values it erased, which is right for a pass that only erases
    /// ops (DCE) and wrong for one that creates or changes ops: such a pass overrides it
    /// (canonicalize, CSE, the facade's `eqsat`).
    fn run_explained(
        &self,
        program: &mut Program,
        provenance: &mut Provenance,
    ) -> Result<PassReport, PassError> {
        let report = self.run(program)?;
        provenance.retain_defined(program);
        Ok(report)
    }
}

/// A pass that rewrites each function on its own, through its [`ProgramRewriter`], and reads
/// nothing else of the program than the rewriter's `ProgramContext` (callee signatures and
/// purity, which no function pass changes: it never erases an impure op nor adds one).
pub trait FunctionPass: Pass {
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
}

/// Runs the function pass `pass` on every function of `program`: its report over all of them.
pub(crate) fn run_function_pass(
    pass: &dyn FunctionPass,
    program: &mut Program,
    provenance: Option<&mut Provenance>,
) -> Result<PassReport, PassError> {
    let functions = program.functions.len();
    let mut report = pass.empty_report();
    rewrite_functions_tracked(program, provenance, |k, rw| {
        report.merge(pass.run_function(k, functions, rw)?);
        Ok(())
    })?;
    Ok(report)
}

/// What a pass did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PassReport {
    /// The pass.
    pub pass: String,
    /// Did it change the program?
    pub changed: bool,
    /// Ops it erased (CSE, DCE; for canonicalize see `greedy`).
    pub erased: usize,
    /// The greedy driver's counters, merged over functions (canonicalize).
    pub greedy: Option<GreedyStats>,
    /// The greedy driver's step log, per function, when [`GreedyConfig::log`] is on
    /// (canonicalize).
    ///
    /// [`GreedyConfig::log`]: crate::GreedyConfig::log
    pub step_log: Vec<(String, crate::StepLog)>,
    /// How the greedy driver's run on each function ended (canonicalize).
    pub runs: Vec<(String, ptir_rules::RunSummary)>,
    /// Wall time (filled in by the pass manager).
    pub time: Duration,
    /// The program after the pass, when [`PassManager::with_ir_after_each`] asks for it
    /// (filled in by the pass manager; MLIR's `--mlir-print-ir-after-all`).
    pub ir_after: Option<Program>,
}

impl PassReport {
    pub(crate) fn new(pass: &str, changed: bool, erased: usize) -> Self {
        PassReport {
            pass: pass.to_string(),
            changed,
            erased,
            ..PassReport::default()
        }
    }

    /// Adds what the same pass did elsewhere (another function): changes, erasures, the
    /// greedy counters, step logs, runs and time.
    pub fn merge(&mut self, other: PassReport) {
        self.changed |= other.changed;
        self.erased += other.erased;
        match (&mut self.greedy, other.greedy) {
            (Some(mine), Some(theirs)) => mine.merge(&theirs),
            (mine @ None, theirs) => *mine = theirs,
            (Some(_), None) => {}
        }
        self.step_log.extend(other.step_log);
        self.runs.extend(other.runs);
        self.time += other.time;
    }
}

impl fmt::Display for PassReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let changed = if self.changed { "changed" } else { "unchanged" };
        write!(
            f,
            "{:<14} {changed:<9} {:>10.3} ms",
            self.pass,
            self.time.as_secs_f64() * 1e3
        )?;
        match &self.greedy {
            Some(g) => write!(f, "\n{g}"),
            None => writeln!(f, "  erased {}", self.erased),
        }
    }
}

/// A pass failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PassError {
    /// A function defines a value twice (the input does not verify).
    #[error(transparent)]
    Invalid(#[from] InvalidFunction),
    /// The greedy driver caught a broken pattern.
    #[error(transparent)]
    Greedy(#[from] GreedyError),
    /// Canonicalization did not converge and convergence was required.
    #[error("@{function}: canonicalize did not converge in {iterations} iteration(s)")]
    NotConverged {
        /// The function.
        function: String,
        /// Iterations run.
        iterations: usize,
    },
    /// A pass added by the caller failed (its own error is the caller's to keep).
    #[error("pass `{pass}` failed: {message}")]
    Failed {
        /// The pass.
        pass: String,
        /// Its error.
        message: String,
    },
    /// The program does not verify after a pass.
    #[error("the program does not verify after pass `{pass}`:\n{error}")]
    Verify {
        /// The pass.
        pass: String,
        /// The diagnostics.
        error: VerifyError,
    },
}

/// The built-in passes of a pipeline text, in the order `--help` lists them.
pub const BUILTIN_PASSES: [&str; 3] = ["canonicalize", "cse", "dce"];

/// The default pipeline as pipeline text: MLIR's `-canonicalize -cse` flow followed by DCE.
pub const DEFAULT_PIPELINE: &str = "canonicalize,cse,dce";

/// A pipeline text that names no pipeline.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PipelineError {
    /// No pass at all, or an empty name between commas.
    #[error("pass pipeline `{pipeline}`: empty pass name at column {col}")]
    EmptyPass {
        /// The pipeline text.
        pipeline: String,
        /// 1-based column of the empty name.
        col: usize,
    },
    /// A name that is no pass.
    #[error("pass pipeline `{pipeline}`: unknown pass `{name}` at column {col} (passes: {known})")]
    UnknownPass {
        /// The pipeline text.
        pipeline: String,
        /// The name.
        name: String,
        /// 1-based column of the name.
        col: usize,
        /// The passes there are, comma-separated.
        known: String,
    },
}

/// A pass the caller of [`PassManager::parse_pipeline`] adds to the built-in ones: its name
/// and how to make one.
pub type PassFactory<'a> = (&'a str, &'a dyn Fn() -> Box<dyn Pass>);

/// Runs `f` on a rewriter of each function in turn (with the function's index); functions
/// are put back even on error.
#[cfg(test)]
pub(crate) fn rewrite_functions<T>(
    program: &mut Program,
    f: impl FnMut(usize, &mut ProgramRewriter<'_>) -> Result<T, PassError>,
) -> Result<Vec<T>, PassError> {
    rewrite_functions_tracked(program, None, f)
}

/// [`rewrite_functions`], tracking each function's provenance in `provenance` when given
/// ([`ProgramRewriter::track_provenance`]).
pub(crate) fn rewrite_functions_tracked<T>(
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
        return Err(PassError::Invalid(InvalidFunction { function, value }));
    }
    let functions = std::mem::take(&mut program.functions);
    let mut results = Vec::with_capacity(functions.len());
    let mut error = None;
    for (k, func) in functions.into_iter().enumerate() {
        if error.is_some() {
            program.functions.push(func);
            continue;
        }
        let mut rw = ProgramRewriter::new(func, &cx)?;
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

/// What a pipeline did, pass by pass.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PipelineReport {
    /// One report per pass, in order.
    pub passes: Vec<PassReport>,
}

impl fmt::Display for PipelineReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.passes.iter().try_for_each(|p| write!(f, "{p}"))
    }
}

/// Runs passes in order (MLIR's `PassManager`).
///
/// ```
/// use ptir_greedy::PassManager;
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
/// let report = PassManager::default_pipeline(&rules).unwrap().run(&mut p).unwrap();
/// assert_eq!(report.passes.len(), 3);
/// assert_eq!(p.num_insts(), 2); // one exp, one add
/// ```
pub struct PassManager {
    passes: Vec<Box<dyn Pass>>,
    verify_each: bool,
    ir_after_each: bool,
}

impl fmt::Debug for PassManager {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.passes.iter().map(|p| p.name()).collect();
        f.debug_struct("PassManager")
            .field("passes", &names)
            .field("verify_each", &self.verify_each)
            .field("ir_after_each", &self.ir_after_each)
            .finish()
    }
}

impl Default for PassManager {
    fn default() -> Self {
        PassManager::new()
    }
}

impl PassManager {
    /// An empty pipeline that verifies after each pass.
    pub fn new() -> Self {
        PassManager {
            passes: Vec::new(),
            verify_each: true,
            ir_after_each: false,
        }
    }

    /// [`DEFAULT_PIPELINE`] (`canonicalize → cse → dce`), canonicalizing with the rules of
    /// `rules` that [`greedy_rule_filter`] keeps, and folds.
    pub fn default_pipeline(rules: &RuleSet) -> Result<Self, CompileError> {
        let canonicalize = Canonicalize::with_rules(rules)?;
        let mut pm = PassManager::new();
        for name in DEFAULT_PIPELINE.split(',') {
            pm.passes.extend(builtin_pass(name, &canonicalize));
        }
        Ok(pm)
    }

    /// The pipeline `text`: pass names separated by commas (`canonicalize,cse,dce`, spaces
    /// allowed), each a built-in pass ([`BUILTIN_PASSES`]; every `canonicalize` runs
    /// `canonicalize`, sharing its compiled patterns) or one of `custom`.
    ///
    /// ```
    /// use ptir_greedy::{Canonicalize, PassManager, PipelineError};
    /// let rules = ptir_rules::RuleSet::new(ptir_rules::Registry::standard());
    /// let canonicalize = Canonicalize::with_rules(&rules).unwrap();
    /// let pm = PassManager::parse_pipeline("cse, canonicalize,dce", &canonicalize, &[]).unwrap();
    /// assert_eq!(pm.names(), ["cse", "canonicalize", "dce"]);
    /// let err = PassManager::parse_pipeline("cse,licm", &canonicalize, &[]).unwrap_err();
    /// assert!(matches!(err, PipelineError::UnknownPass { col: 5, .. }), "{err}");
    /// ```
    pub fn parse_pipeline(
        text: &str,
        canonicalize: &Canonicalize,
        custom: &[PassFactory<'_>],
    ) -> Result<Self, PipelineError> {
        let mut pm = PassManager::new();
        let mut col = 1;
        for piece in text.split(',') {
            let name = piece.trim();
            let at = col + piece.chars().take_while(|c| c.is_whitespace()).count();
            col += piece.chars().count() + 1;
            if name.is_empty() {
                return Err(PipelineError::EmptyPass {
                    pipeline: text.to_string(),
                    col: at,
                });
            }
            let pass = builtin_pass(name, canonicalize).or_else(|| {
                custom
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, make)| make())
            });
            match pass {
                Some(pass) => pm.passes.push(pass),
                None => {
                    let known: Vec<&str> = BUILTIN_PASSES
                        .iter()
                        .copied()
                        .chain(custom.iter().map(|(n, _)| *n))
                        .collect();
                    return Err(PipelineError::UnknownPass {
                        pipeline: text.to_string(),
                        name: name.to_string(),
                        col: at,
                        known: known.join(", "),
                    });
                }
            }
        }
        Ok(pm)
    }

    /// Appends a pass.
    pub fn add(&mut self, pass: impl Pass + 'static) -> &mut Self {
        self.passes.push(Box::new(pass));
        self
    }

    /// Verifies the program after each pass, or after each run of consecutive
    /// [`FunctionPass`]es, which share one rewriter per function (default on).
    pub fn with_verify_each(mut self, on: bool) -> Self {
        self.verify_each = on;
        self
    }

    /// Keeps a copy of the program after each pass in its report ([`PassReport::ir_after`];
    /// default off).
    pub fn with_ir_after_each(mut self, on: bool) -> Self {
        self.ir_after_each = on;
        self
    }

    /// The passes' names, in order.
    pub fn names(&self) -> Vec<&str> {
        self.passes.iter().map(|p| p.name()).collect()
    }

    /// Runs every pass in order; stops at the first error.
    pub fn run(&self, program: &mut Program) -> Result<PipelineReport, PassError> {
        self.run_tracked(program, None)
    }

    /// [`run`](Self::run), keeping `provenance` current through every pass
    /// ([`Pass::run_explained`]): afterwards it has the chain of rules behind every value of
    /// the program that is not an input op carried through (`--explain`).
    ///
    /// ```
    /// use ptir_greedy::PassManager;
    /// use ptir_rules::explain::Provenance;
    /// let rules = ptir_rules::RuleSet::bundled().unwrap();
    /// let mut p = ptir_ir::parse("func @f(%0: f32[2]) -> (f32[2]) {
    ///   %1 = neg %0 : f32[2]
    ///   %2 = abs %1 : f32[2]
    ///   return %2
    /// }").unwrap();
    /// let mut provenance = Provenance::default();
    /// PassManager::default_pipeline(&rules).unwrap().run_explained(&mut p, &mut provenance).unwrap();
    /// let abs = &p.functions[0].body.insts[0];
    /// assert_eq!(provenance.chain("f", abs.result).unwrap().to_string(), "abs-neg");
    /// ```
    pub fn run_explained(
        &self,
        program: &mut Program,
        provenance: &mut Provenance,
    ) -> Result<PipelineReport, PassError> {
        self.run_tracked(program, Some(provenance))
    }

    fn run_tracked(
        &self,
        program: &mut Program,
        mut provenance: Option<&mut Provenance>,
    ) -> Result<PipelineReport, PassError> {
        let mut report = PipelineReport::default();
        let mut next = 0;
        while next < self.passes.len() {
            let group = self.function_pass_group(next);
            if group.len() > 1 {
                report
                    .passes
                    .extend(self.run_group(&group, program, provenance.as_deref_mut())?);
                next += group.len();
                continue;
            }
            let pass = &self.passes[next];
            next += 1;
            let start = Instant::now();
            let mut r = match provenance.as_deref_mut() {
                Some(p) => pass.run_explained(program, p)?,
                None => pass.run(program)?,
            };
            r.time = start.elapsed();
            self.verify(program, pass.name())?;
            if self.ir_after_each {
                r.ir_after = Some(program.clone());
            }
            report.passes.push(r);
        }
        Ok(report)
    }

    /// The function passes from `first` on, up to the first pass that is not one (none when
    /// the program is kept after each pass: that needs it whole between passes).
    fn function_pass_group(&self, first: usize) -> Vec<&dyn FunctionPass> {
        if self.ir_after_each {
            return Vec::new();
        }
        self.passes[first..]
            .iter()
            .map_while(|p| p.as_function_pass())
            .collect()
    }

    /// Runs consecutive function passes function by function, each function in one rewriter
    /// from the first pass to the last. The program is verified after the last one (the
    /// passes' own outputs in between are never a program: the error names the group).
    fn run_group(
        &self,
        group: &[&dyn FunctionPass],
        program: &mut Program,
        provenance: Option<&mut Provenance>,
    ) -> Result<Vec<PassReport>, PassError> {
        let functions = program.functions.len();
        let mut reports: Vec<PassReport> = group.iter().map(|p| p.empty_report()).collect();
        let start = Instant::now();
        rewrite_functions_tracked(program, provenance, |k, rw| {
            for (pass, report) in group.iter().zip(&mut reports) {
                let start = Instant::now();
                let mut r = pass.run_function(k, functions, rw)?;
                r.time = start.elapsed();
                report.merge(r);
            }
            Ok(())
        })?;
        // Moving the functions into their rewriters and back out is the group's: the first
        // pass's time has it, as a pass run alone has its own.
        let passes: Duration = reports.iter().map(|r| r.time).sum();
        reports[0].time += start.elapsed().saturating_sub(passes);
        let names: Vec<&str> = group.iter().map(|p| p.name()).collect();
        self.verify(program, &names.join(","))?;
        Ok(reports)
    }

    /// Verifies `program` after `pass` if asked to.
    fn verify(&self, program: &Program, pass: &str) -> Result<(), PassError> {
        if !self.verify_each {
            return Ok(());
        }
        ptir_ir::verify(program).map_err(|error| PassError::Verify {
            pass: pass.to_string(),
            error,
        })
    }
}

/// The built-in pass `name`, if there is one.
fn builtin_pass(name: &str, canonicalize: &Canonicalize) -> Option<Box<dyn Pass>> {
    match name {
        "canonicalize" => Some(Box::new(canonicalize.clone())),
        "cse" => Some(Box::new(Cse)),
        "dce" => Some(Box::new(Dce)),
        _ => None,
    }
}
