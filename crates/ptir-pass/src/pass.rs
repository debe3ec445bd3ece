//! [`Pass`] and what a pass reports: [`PassReport`] with an engine's own [`PassStats`].

use crate::error::PassError;
use crate::explain::{Provenance, Snapshot};
use crate::RunSummary;
use ptir_ir::Program;
use std::any::Any;
use std::fmt;
use std::time::Duration;

/// A transformation of a whole program.
///
/// ```
/// use ptir_pass::{Pass, PassError, PassReport};
/// struct Nothing;
/// impl Pass for Nothing {
///     fn name(&self) -> &str {
///         "nothing"
///     }
///     fn run(&self, _: &mut ptir_ir::Program) -> Result<PassReport, PassError> {
///         Ok(PassReport::new(self.name(), false, 0))
///     }
/// }
/// let mut p = ptir_ir::Program::default();
/// assert!(!Nothing.run(&mut p).unwrap().changed);
/// ```
pub trait Pass: Any {
    /// Its name, for reports and errors.
    fn name(&self) -> &str;

    /// Runs it. On error the program may be partly transformed.
    fn run(&self, program: &mut Program) -> Result<PassReport, PassError>;

    /// Runs it, keeping `provenance` current (`--explain`): the chain of rules behind every
    /// derived value ([`crate::explain`]). The default runs [`run`](Self::run), drops the
    /// chains of the values it erased and appends the pass's name to the chain of every op it
    /// made or changed ([`Snapshot`]): right for a pass that erases ops (DCE) or makes them
    /// as one step (unrolling, loop idioms). A pass that knows which rule made each op (the
    /// engines) overrides it.
    fn run_explained(
        &self,
        program: &mut Program,
        provenance: &mut Provenance,
    ) -> Result<PassReport, PassError> {
        let before = Snapshot::of(program);
        let report = self.run(program)?;
        provenance.retain_defined(program);
        if report.changed {
            before.mark_changes(program, self.name(), provenance);
        }
        Ok(report)
    }

    /// Runs this pass together with the first passes of `next` that it can run as one unit
    /// (MLIR's nested pass pipelines: the greedy engine's function passes run function by
    /// function, in one rewriter per function), and returns one report per pass run, this
    /// one's first; or `None` (the default) to run alone. `provenance` is kept current as by
    /// [`run_explained`](Self::run_explained) when given. The pass manager does not ask when
    /// it keeps the program after each pass ([`crate::PassManager::with_ir_after_each`]).
    fn run_nested(
        &self,
        next: &[Box<dyn Pass>],
        program: &mut Program,
        provenance: Option<&mut Provenance>,
    ) -> Option<Result<Vec<PassReport>, PassError>> {
        let _ = (next, program, provenance);
        None
    }
}

/// What only one engine's passes report (the greedy driver's counters, the e-graph engine's
/// per-function reports): the typed payload of a [`PassReport`], read back by its type with
/// [`PassReport::stats`].
pub trait PassStats: Any + fmt::Debug + fmt::Display + Send + Sync {
    /// A copy, boxed (a [`PassReport`] is `Clone`).
    fn clone_box(&self) -> Box<dyn PassStats>;

    /// Adds what the same pass did elsewhere (another function; `other` is of the same
    /// type when the same pass made it). The default keeps `self` as it is.
    fn merge(&mut self, other: &dyn PassStats) {
        let _ = other;
    }
}

impl Clone for Box<dyn PassStats> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

impl dyn PassStats {
    /// The stats as `T`, if they are one.
    pub fn downcast_ref<T: PassStats>(&self) -> Option<&T> {
        let any: &dyn Any = self;
        any.downcast_ref()
    }
}

/// What a pass did.
///
/// ```
/// use ptir_pass::{PassReport, PassStats};
/// #[derive(Clone, Debug, PartialEq)]
/// struct Folds(usize);
/// impl std::fmt::Display for Folds {
///     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
///         writeln!(f, "  folds {}", self.0)
///     }
/// }
/// impl PassStats for Folds {
///     fn clone_box(&self) -> Box<dyn PassStats> {
///         Box::new(self.clone())
///     }
///     fn merge(&mut self, other: &dyn PassStats) {
///         self.0 += other.downcast_ref::<Folds>().map_or(0, |o| o.0);
///     }
/// }
/// let mut report = PassReport::new("fold", true, 0).with_stats(Folds(2));
/// report.merge(PassReport::new("fold", false, 1).with_stats(Folds(3)));
/// assert_eq!(report.stats::<Folds>(), Some(&Folds(5)));
/// assert_eq!(report.erased, 1);
/// ```
#[derive(Clone, Debug, Default)]
pub struct PassReport {
    /// The pass.
    pub pass: String,
    /// Did it change the program?
    pub changed: bool,
    /// Ops it erased (CSE, DCE).
    pub erased: usize,
    /// How the run on each function ended, for a pass that rewrites until a fixpoint or a
    /// limit (canonicalize, eqsat).
    pub runs: Vec<(String, RunSummary)>,
    /// Wall time (filled in by the pass manager).
    pub time: Duration,
    /// The program after the pass, when [`crate::PassManager::with_ir_after_each`] asks for
    /// it (filled in by the pass manager; MLIR's `--mlir-print-ir-after-all`).
    pub ir_after: Option<Program>,
    /// What the pass has to say beyond its counts, one sentence each (`raised 2 reduction
    /// loop(s) to reduce`): the run's report notes.
    pub notes: Vec<String>,
    /// How many times each rule or named rewrite fired, for a pass that is not an engine's
    /// (the loop patterns): the run's report adds them to the engines' counts.
    pub rules_fired: Vec<(String, usize)>,
    /// The time of each phase of a pass that has phases (the e-graph engine's `lower`,
    /// `saturate`, `extract`, `lift`), summed over functions; empty for a pass timed whole.
    pub phases: Vec<(String, Duration)>,
    /// Each function's step log (`--step-log`: the greedy driver's rewrites, saturation's
    /// applications per iteration), by function.
    pub step_logs: Vec<(String, String)>,
    /// Rules a scheduler banned for matching too often, each with the most matches it had.
    pub rules_banned: Vec<(String, usize)>,
    /// Rules left out of the run, each with the reason.
    pub rules_skipped: Vec<(String, String)>,
    /// For a pass that builds e-graphs: their e-nodes and e-classes at the end, summed over
    /// functions.
    pub egraph: Option<EGraphSize>,
    /// Dumps of what the pass built (the e-graphs as JSON, `--dump-egraph`), by function.
    pub dumps: Vec<(String, String)>,
    /// For a pass that chooses among equivalent programs: whether every choice is proven
    /// the cheapest (only an exact extractor proves anything).
    pub optimal: Option<bool>,
    /// What only the pass's engine reports ([`PassReport::stats`]).
    pub stats: Option<Box<dyn PassStats>>,
}

/// The size of e-graphs: e-nodes and e-classes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct EGraphSize {
    /// E-nodes.
    pub nodes: usize,
    /// E-classes.
    pub classes: usize,
}

impl std::ops::AddAssign for EGraphSize {
    fn add_assign(&mut self, other: EGraphSize) {
        self.nodes += other.nodes;
        self.classes += other.classes;
    }
}

impl PassReport {
    /// A report of `pass`, which changed the program or not and erased `erased` ops.
    pub fn new(pass: &str, changed: bool, erased: usize) -> Self {
        PassReport {
            pass: pass.to_string(),
            changed,
            erased,
            ..PassReport::default()
        }
    }

    /// The report with `note` added to its [`notes`](Self::notes).
    pub fn with_note(mut self, note: String) -> Self {
        self.notes.push(note);
        self
    }

    /// The report with `stats` as its engine's payload.
    pub fn with_stats(mut self, stats: impl PassStats) -> Self {
        self.stats = Some(Box::new(stats));
        self
    }

    /// The engine's payload, if it is a `T`.
    pub fn stats<T: PassStats>(&self) -> Option<&T> {
        self.stats.as_deref()?.downcast_ref()
    }

    /// Adds what the same pass did elsewhere (another function): changes, erasures, runs,
    /// time, every list, the e-graph sizes, optimality, and the payloads
    /// ([`PassStats::merge`]).
    pub fn merge(&mut self, other: PassReport) {
        self.changed |= other.changed;
        self.erased += other.erased;
        self.runs.extend(other.runs);
        self.time += other.time;
        self.notes.extend(other.notes);
        self.rules_fired.extend(other.rules_fired);
        self.phases.extend(other.phases);
        self.step_logs.extend(other.step_logs);
        self.rules_banned.extend(other.rules_banned);
        self.rules_skipped.extend(other.rules_skipped);
        self.dumps.extend(other.dumps);
        self.egraph = match (self.egraph, other.egraph) {
            (Some(mut a), Some(b)) => {
                a += b;
                Some(a)
            }
            (a, b) => a.or(b),
        };
        self.optimal = match (self.optimal, other.optimal) {
            (Some(a), Some(b)) => Some(a && b),
            (a, b) => a.or(b),
        };
        match (&mut self.stats, other.stats) {
            (Some(mine), Some(theirs)) => mine.merge(theirs.as_ref()),
            (mine @ None, theirs) => *mine = theirs,
            (Some(_), None) => {}
        }
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
        match &self.stats {
            Some(s) => write!(f, "\n{s}"),
            None => writeln!(f, "  erased {}", self.erased),
        }
    }
}
