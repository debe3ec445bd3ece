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
use crate::rules::{compile, CompiledRules, SkippedRule};
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

/// Why a round of the runner stops so that the rules are compiled again: a call the rules'
/// call patterns match appeared (see [`saturate`]).
const NEW_CALLEES: &str = "new callees";

/// Runs the rules on a lowered function until saturation or a limit.
///
/// Rules are compiled against the e-graph (a call pattern `@foo` becomes one egg pattern per
/// callee and type it matches, `@foo`, `@foo_0`, ...). A call that a rule result introduces
/// (`call @linear` raised from its idiom) is not in the e-graph when the rules are first
/// compiled, so a rule matching it (`(neg (call @linear ...))`) could never fire: the greedy
/// driver composes such rules, saturation must too. So the runner runs in rounds: before each
/// iteration, a hook checks for calls the rules' call patterns match that the current
/// compilation does not cover, and if there are, the round stops, the rules are compiled again
/// and the next round continues with what is left of the limits. The backoff scheduler's bans
/// start afresh in each round. Rule sets without call patterns (the bundled library) run in
/// one round.
pub fn saturate(lowered: &mut Lowered, rules: &RuleSet, limits: &Limits) -> SaturationReport {
    let start = Instant::now();
    let mut egraph = std::mem::take(&mut lowered.egraph);
    let mut iterations: Vec<IterationReport> = Vec::new();
    let (compiled, stop, mut egraph) = loop {
        let compiled = compile(rules, &mut egraph);
        let runner = runner_for(egraph, limits, iterations.len(), start, &compiled);
        let mut runner = runner.run(&compiled.rewrites);
        runner.egraph.rebuild();
        let recompile =
            matches!(&runner.stop_reason, Some(StopReason::Other(s)) if s == NEW_CALLEES);
        if recompile {
            // The round's last iteration stopped in the hook, before searching: not one.
            runner.iterations.pop();
        }
        iterations.extend(runner.iterations.iter().map(iteration_report));
        if !recompile {
            let stop = match runner.stop_reason.clone() {
                Some(StopReason::Saturated) => Stop::Saturated,
                Some(StopReason::IterationLimit(_)) => Stop::IterationLimit(iterations.len()),
                Some(StopReason::NodeLimit(n)) => Stop::NodeLimit(n),
                Some(StopReason::TimeLimit(_)) => Stop::TimeLimit(start.elapsed()),
                Some(StopReason::Other(s)) => Stop::Other(s),
                None => Stop::Other("no stop reason".into()),
            };
            break (compiled, stop, runner.egraph);
        }
        egraph = runner.egraph;
    };
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

/// A runner for one round: what is left of the limits after `done` iterations since `start`.
fn runner_for(
    egraph: PtirEGraph,
    limits: &Limits,
    done: usize,
    start: Instant,
    compiled: &CompiledRules,
) -> Runner<crate::language::PtirNode, crate::analysis::PtirAnalysis> {
    let watch = compiled.call_watch();
    // Stop after an iteration in which no rewrite changed the e-graph (every applier returns
    // only the classes its union changed). That is saturation, or, with the backoff
    // scheduler, a point where only banned rules could still fire: their matches are the
    // explosive ones (associativity and commutativity chains), and waiting out their bans
    // costs seconds for little, so that counts as saturated too. Not a test on the e-graph's
    // sizes: a union and a new e-node in one iteration can leave both counts unchanged while
    // the union enables new matches (x != max(x, x) becomes x != x, which ne-self folds).
    let runner = Runner::default()
        .with_egraph(egraph)
        .with_iter_limit(limits.iterations.saturating_sub(done))
        .with_node_limit(limits.nodes)
        .with_time_limit(limits.time.saturating_sub(start.elapsed()))
        .with_hook(move |r| {
            if watch.has_new(&r.egraph) {
                return Err(NEW_CALLEES.to_string());
            }
            match r.iterations.last() {
                Some(it) if it.applied.is_empty() => Err("saturated".to_string()),
                _ => Ok(()),
            }
        });
    if limits.backoff {
        runner.with_scheduler(BackoffScheduler::default())
    } else {
        runner.with_scheduler(SimpleScheduler)
    }
}

fn iteration_report(it: &egg::Iteration<()>) -> IterationReport {
    IterationReport {
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
    }
}
