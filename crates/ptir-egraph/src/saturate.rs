//! Equality saturation: egg's runner with our limits, scheduler and report.
//!
//! Reaching a limit is normal: the e-graph at that point holds everything learnt so far and
//! extraction proceeds from it. egg counts as applications whatever ids an applier returns;
//! egg's default applier returns every match of a multi-pattern, so a runner with multi-root
//! rules would never report `Saturated`. Our applier ([`crate::rules`]) returns only the
//! classes a union actually changed, so egg's own test — no application, no banned rule, no
//! new node or class — is exact, for multi-root rules too.

use crate::analysis::PtirEGraph;
use crate::lower::Lowered;
use crate::rules::{compile, SkippedRule};
use egg::{BackoffScheduler, Runner, SimpleScheduler, StopReason};
use indexmap::IndexMap;
use ptir_rules::RuleSet;
use std::fmt;
use std::time::{Duration, Instant};

/// Default iteration limit of [`Limits`].
pub const EGRAPH_ITER_LIMIT: usize = 30;
/// Default e-node limit of [`Limits`]: past it the e-graph stops growing (egg checks after
/// each iteration, so it can be overshot by one iteration's additions).
pub const EGRAPH_NODE_LIMIT: usize = 50_000;
/// Default wall-clock limit of [`Limits`].
pub const EGRAPH_TIME_LIMIT: Duration = Duration::from_secs(5);

/// Runner limits and scheduler.
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// Maximum iterations (default [`EGRAPH_ITER_LIMIT`]).
    pub iterations: usize,
    /// Maximum e-nodes (default [`EGRAPH_NODE_LIMIT`]).
    pub nodes: usize,
    /// Maximum time (default [`EGRAPH_TIME_LIMIT`]).
    pub time: Duration,
    /// Use egg's backoff scheduler (default), which bans rules that match too often for a while;
    /// otherwise every rule runs every iteration.
    pub backoff: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            iterations: EGRAPH_ITER_LIMIT,
            nodes: EGRAPH_NODE_LIMIT,
            time: EGRAPH_TIME_LIMIT,
            backoff: true,
        }
    }
}

/// Why saturation stopped.
#[derive(Clone, Debug, PartialEq)]
pub enum Stop {
    /// Nothing new was learnt in an iteration.
    Saturated,
    /// The iteration limit.
    IterationLimit(usize),
    /// The e-node limit.
    NodeLimit(usize),
    /// The time limit.
    TimeLimit(Duration),
    /// Something else (egg's message).
    Other(String),
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::Saturated => f.write_str("saturated"),
            Stop::IterationLimit(n) => write!(f, "iteration limit ({n})"),
            Stop::NodeLimit(n) => write!(f, "node limit ({n})"),
            Stop::TimeLimit(d) => write!(f, "time limit ({d:.1?})"),
            Stop::Other(s) => f.write_str(s),
        }
    }
}

/// One iteration of the runner.
#[derive(Clone, Debug, PartialEq)]
pub struct IterationReport {
    /// E-nodes after it.
    pub nodes: usize,
    /// E-classes after it.
    pub classes: usize,
    /// Applications per rule.
    pub applied: IndexMap<String, usize>,
    /// Time searching.
    pub search: Duration,
    /// Time applying.
    pub apply: Duration,
    /// Time rebuilding.
    pub rebuild: Duration,
}

/// What saturation did.
#[derive(Clone, Debug, PartialEq)]
pub struct SaturationReport {
    /// Per iteration.
    pub iterations: Vec<IterationReport>,
    /// Why it stopped.
    pub stop: Stop,
    /// Rules the engine left out, and why.
    pub skipped: Vec<SkippedRule>,
    /// Rule bugs caught (a result of the wrong type, a merge of different types).
    pub rule_errors: Vec<String>,
    /// Total time.
    pub time: Duration,
    /// Final e-nodes.
    pub nodes: usize,
    /// Final e-classes.
    pub classes: usize,
}

impl SaturationReport {
    /// Applications per rule over all iterations, most applied first.
    pub fn rules_applied(&self) -> Vec<(String, usize)> {
        let mut total: IndexMap<String, usize> = IndexMap::new();
        for it in &self.iterations {
            for (r, n) in &it.applied {
                *total.entry(r.clone()).or_default() += n;
            }
        }
        let mut v: Vec<(String, usize)> = total.into_iter().filter(|(_, n)| *n > 0).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        v
    }
}

impl fmt::Display for SaturationReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "saturation: {} iterations, {} e-nodes, {} e-classes, stopped: {}, {:.2?}",
            self.iterations.len(),
            self.nodes,
            self.classes,
            self.stop,
            self.time
        )?;
        for (i, it) in self.iterations.iter().enumerate() {
            let applied: usize = it.applied.values().sum();
            writeln!(f, "  iteration {i}: {} nodes, {} classes, {applied} applications, search {:.2?} apply {:.2?} rebuild {:.2?}", it.nodes, it.classes, it.search, it.apply, it.rebuild)?;
        }
        for (r, n) in self.rules_applied() {
            writeln!(f, "  {n:6} {r}")?;
        }
        for s in &self.skipped {
            writeln!(f, "  skipped {}: {}", s.name, s.reason)?;
        }
        for e in &self.rule_errors {
            writeln!(f, "  rule error: {e}")?;
        }
        Ok(())
    }
}

/// Runs the rules on a lowered function until saturation or a limit.
pub fn saturate(lowered: &mut Lowered, rules: &RuleSet, limits: &Limits) -> SaturationReport {
    let start = Instant::now();
    let egraph = std::mem::take(&mut lowered.egraph);
    let mut egraph = egraph;
    let compiled = compile(rules, &mut egraph);
    // Stop after an iteration in which no rewrite changed the e-graph (every applier returns
    // only the classes its union changed). That is saturation, or, with the backoff
    // scheduler, a point where only banned rules could still fire: their matches are the
    // explosive ones (associativity and commutativity chains), and waiting out their bans
    // costs seconds for little, so that counts as saturated too. Not a test on the e-graph's
    // sizes: a union and a new e-node in one iteration can leave both counts unchanged while
    // the union enables new matches (x != max(x, x) becomes x != x, which ne-self folds).
    let runner = Runner::default()
        .with_egraph(egraph)
        .with_iter_limit(limits.iterations)
        .with_node_limit(limits.nodes)
        .with_time_limit(limits.time)
        .with_hook(|r| match r.iterations.last() {
            Some(it) if it.applied.is_empty() => Err("saturated".to_string()),
            _ => Ok(()),
        });
    let runner = if limits.backoff {
        runner.with_scheduler(BackoffScheduler::default())
    } else {
        runner.with_scheduler(SimpleScheduler)
    };
    let mut runner = runner.run(&compiled.rewrites);
    runner.egraph.rebuild();
    let stop = match runner.stop_reason.clone() {
        Some(StopReason::Saturated) => Stop::Saturated,
        Some(StopReason::IterationLimit(n)) => Stop::IterationLimit(n),
        Some(StopReason::NodeLimit(n)) => Stop::NodeLimit(n),
        Some(StopReason::TimeLimit(s)) => Stop::TimeLimit(Duration::from_secs_f64(s)),
        Some(StopReason::Other(s)) => Stop::Other(s),
        None => Stop::Other("no stop reason".into()),
    };
    let iterations = runner
        .iterations
        .iter()
        .map(|it| IterationReport {
            nodes: it.egraph_nodes,
            classes: it.egraph_classes,
            applied: it
                .applied
                .iter()
                .map(|(k, v)| (k.to_string(), *v))
                .collect(),
            search: Duration::from_secs_f64(it.search_time),
            apply: Duration::from_secs_f64(it.apply_time),
            rebuild: Duration::from_secs_f64(it.rebuild_time),
        })
        .collect();
    let mut egraph: PtirEGraph = runner.egraph;
    let rule_errors = std::mem::take(&mut egraph.analysis.type_errors);
    let report = SaturationReport {
        iterations,
        stop,
        skipped: compiled.skipped,
        rule_errors,
        time: start.elapsed(),
        nodes: egraph.total_number_of_nodes(),
        classes: egraph.number_of_classes(),
    };
    lowered.root = egraph.find(lowered.root);
    lowered.egraph = egraph;
    report
}
