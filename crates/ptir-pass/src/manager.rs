//! [`PassManager`]: passes in order, verified between them only when asked.

use crate::error::PassError;
use crate::explain::Provenance;
use crate::pass::{Pass, PassReport};
use ptir_ir::Program;
use std::fmt;
use std::time::{Duration, Instant};

/// What a pipeline did, pass by pass.
#[derive(Clone, Debug, Default)]
pub struct PipelineReport {
    /// One report per pass, in order.
    pub passes: Vec<PassReport>,
    /// How many times the pass manager verified the program (after each pass, or each unit
    /// of passes run as one, under [`PassManager::with_verify_each`]; zero otherwise).
    pub verifications: usize,
}

impl fmt::Display for PipelineReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.passes.iter().try_for_each(|p| write!(f, "{p}"))
    }
}

/// Runs passes in order (MLIR's `PassManager`). A pass may run the passes after it with
/// itself, as one unit ([`Pass::run_nested`]), unless the program is kept after each pass.
///
/// ```
/// use ptir_pass::{Pass, PassError, PassManager, PassReport};
/// struct Rename;
/// impl Pass for Rename {
///     fn name(&self) -> &str {
///         "rename"
///     }
///     fn run(&self, p: &mut ptir_ir::Program) -> Result<PassReport, PassError> {
///         p.functions[0].name = "g".into();
///         Ok(PassReport::new(self.name(), true, 0))
///     }
/// }
/// let mut pm = PassManager::new().with_ir_after_each(true);
/// pm.add(Rename);
/// let mut p = ptir_ir::parse("func @f() -> () {\n  return\n}").unwrap();
/// let report = pm.run(&mut p).unwrap();
/// assert_eq!(report.verifications, 0); // not asked to
/// assert_eq!(report.passes[0].ir_after.as_ref().unwrap().functions[0].name, "g");
/// ```
pub struct PassManager {
    passes: Vec<Box<dyn Pass>>,
    verify_each: bool,
    ir_after_each: bool,
}

impl fmt::Debug for PassManager {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PassManager")
            .field("passes", &self.names())
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
    /// An empty pipeline, which does not verify between passes.
    pub fn new() -> Self {
        PassManager {
            passes: Vec::new(),
            verify_each: false,
            ir_after_each: false,
        }
    }

    /// Appends a pass.
    pub fn add(&mut self, pass: impl Pass) -> &mut Self {
        self.passes.push(Box::new(pass));
        self
    }

    /// Appends a boxed pass.
    pub fn push(&mut self, pass: Box<dyn Pass>) -> &mut Self {
        self.passes.push(pass);
        self
    }

    /// Verifies the program after each pass, or after each unit of passes run as one
    /// (default off: an expensive check, MLIR's `--verify-each`; the caller verifies what
    /// goes in and what comes out).
    pub fn with_verify_each(mut self, on: bool) -> Self {
        self.verify_each = on;
        self
    }

    /// Keeps a copy of the program after each pass in its report ([`PassReport::ir_after`];
    /// default off). Every pass then runs on its own.
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
            let pass = &self.passes[next];
            let rest = &self.passes[next + 1..];
            let nested = match self.ir_after_each {
                true => None,
                false => pass.run_nested(rest, program, provenance.as_deref_mut()),
            };
            if let Some(reports) = nested {
                let reports = reports?;
                let names: Vec<&str> = reports.iter().map(|r| r.pass.as_str()).collect();
                self.verify(program, &names.join(","), &mut report)?;
                next += reports.len().max(1);
                report.passes.extend(reports);
                continue;
            }
            next += 1;
            let start = Instant::now();
            let mut r = match provenance.as_deref_mut() {
                Some(p) => pass.run_explained(program, p)?,
                None => pass.run(program)?,
            };
            r.time = start.elapsed();
            self.verify(program, pass.name(), &mut report)?;
            if self.ir_after_each {
                r.ir_after = Some(program.clone());
            }
            report.passes.push(r);
        }
        Ok(report)
    }

    /// Verifies `program` after `pass` if asked to, counting it in `report`.
    fn verify(
        &self,
        program: &Program,
        pass: &str,
        report: &mut PipelineReport,
    ) -> Result<(), PassError> {
        if !self.verify_each {
            return Ok(());
        }
        report.verifications += 1;
        ptir_ir::verify(program).map_err(|error| PassError::Verify {
            pass: pass.to_string(),
            error,
        })
    }
}

/// Time of a unit of passes run as one that none of them measured (moving functions in and
/// out of an engine's form): given to the first, as a pass run alone has its own. A helper
/// for [`Pass::run_nested`] implementations.
///
/// ```
/// use std::time::Duration;
/// let mut reports = vec![ptir_pass::PassReport::new("a", false, 0), ptir_pass::PassReport::new("b", false, 0)];
/// reports[1].time = Duration::from_millis(2);
/// ptir_pass::charge_overhead(&mut reports, Duration::from_millis(5));
/// assert_eq!(reports[0].time, Duration::from_millis(3));
/// ```
pub fn charge_overhead(reports: &mut [PassReport], total: Duration) {
    let passes: Duration = reports.iter().map(|r| r.time).sum();
    if let Some(first) = reports.first_mut() {
        first.time += total.saturating_sub(passes);
    }
}
