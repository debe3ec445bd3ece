//! Equality saturation: the iteration loop, its limits, its scheduler and its report.
//!
//! The loop is egg's `Runner` loop (search every rule, apply every match, rebuild), run here
//! rather than through `Runner` for three reasons:
//!
//! - **The deadline is checked inside an iteration**, every few e-classes while a rule
//!   searches and after every e-class's matches are applied, not only between rules: one
//!   rule's search can take seconds on an exploding e-graph. The deadline is an instant, so
//!   the callers can give every function of a program the same one ([`saturate_until`]).
//! - **Stop reasons are exact.** [`StopReason::Saturated`] means an iteration in which every
//!   rule was searched, no rewrite changed the e-graph (our applier returns only the classes
//!   its union changed, so egg's count of applications is exact, multi-root rules included)
//!   and the e-graph did not grow. An iteration in which only banned rules could still fire is
//!   not saturation: as egg's own runner does, the bans are fast-forwarded and the run goes
//!   on, until a real fixpoint or a limit.
//! - **The node and rewrite limits are checked while applying**, so a single iteration cannot
//!   overshoot them by more than one match.
//! - **A match that changed the e-graph is not applied again.** egg applies every match in
//!   every iteration, many of them applied already. Once a rule's applier has built its
//!   result from a match's classes and unioned it, applying it again to the same canonical
//!   classes builds the same nodes and unions what is already one class: the loop remembers
//!   the matches that changed something, keyed by their canonical classes (a merge changes
//!   the key, and the match is applied again). A match that changed nothing is retried: its
//!   failure can be transient (a lookup in an e-graph not yet rebuilt, a splat value a later
//!   merge makes known). The builtin rewrites, which read the classes' nodes, always apply;
//!   a rule whose result is compiled to e-nodes to look up (see `rules.rs`) is not
//!   remembered either: its applier finds that result first and stops, for less than the
//!   memo's key costs.
//!
//! - **Each rule is compiled only once it may match.** Before each iteration the rule set's
//!   pattern index ([`RuleSet::index`]) is asked, for every e-class, which of the rules not
//!   compiled yet can match there (the query skips the parts of the index that lead only to
//!   compiled rules, so once the rules that match are found it costs little more than a look
//!   at each class's heads, by kind in large classes); only the rules found somewhere are
//!   compiled and searched: a 10,000-rule library that matches nowhere costs one query per
//!   e-class, not 10,000 compilations and searches. A compiled rule is searched as egg
//!   searches it (the classes of its root kind), so the matches, the backoff counts and the
//!   application order are those of the unindexed run. A rule the index finds only later (its
//!   root's shape built by another rule) is compiled then and joins the run in rule order,
//!   unbanned, with nothing else reset: the run is the unindexed one (tested).
//!   [`SaturationOptions::pattern_index`] turns it off.
//!
//! - **One rule family cannot use up the others' room.** The rules sharing their first label
//!   are a family (the bundled library's `algebra`, `canonicalize`, `tensor`, `fusion`; a
//!   rule without labels is its own, `NAME (unlabelled)`), and each family may add
//!   1/[`FAMILY_BUDGET_PARTS`] of the e-nodes the node limit leaves room for; an e-node counts
//!   to the family whose application added it (so a family that only grows what another
//!   family's rule keeps regrouping is held as well). A family past its budget, or on its way
//!   past it at its rate, is **paused**: its rules wait until the other families reach their
//!   fixpoint, and then run again with no budget but the node limit; a family alone in
//!   growing is not paused. The rate: a family whose growth has doubled twice running (over
//!   the iterations that grew it: the backoff scheduler's bans leave gaps) is expected to
//!   grow by the same factor (at most [`FAMILY_MAX_RATE`]) once more. A family whose next
//!   iteration at that rate would pass the node limit is **stopped** for good, before it
//!   fills the e-graph in one long iteration: the rest run on with the room it left, and the
//!   run's stop reason is [`StopReason::RunawayFamily`], naming it, unless a limit stops the
//!   rest. Each iteration reports the e-nodes each family added, and its pauses and stops.
//!
//! Reaching a limit is normal: the e-graph at that point holds everything learnt so far and
//! extraction proceeds from it.

use crate::analysis::{PtirAnalysis, PtirEGraph};
use crate::language::PtirNode;
use crate::lower::Lowered;
use crate::matcher::TreeMatcher;
use crate::rules::{
    compile, compile_where, CallWatch, CompiledRules, EGraphSubject, Existing, PlannedApplier,
    SkippedRule,
};
use egg::{Language, Rewrite, SearchMatches};
use indexmap::IndexMap;
use ptir_pass::Limits;
use ptir_pass::{Deadline, RunSummary, StopReason};
use ptir_rules::index::{PatternIndex, Pruning, INDEX_DEPTH};
use ptir_rules::RuleSet;
use rayon::prelude::*;
use rustc_hash::FxHashSet;
use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Default iteration limit of a saturation run ([`SaturationOptions::iteration_limit`]) for a
/// function at most this deep; a deeper one gets its depth.
pub const EGRAPH_ITER_LIMIT: usize = 30;
/// Default e-node limit of a saturation run ([`SaturationOptions::node_limit`]), for functions lowered to fewer than
/// `EGRAPH_NODE_LIMIT / EGRAPH_NODE_GROWTH` e-nodes: past it the e-graph stops growing
/// (checked after each e-class's matches are applied, so it is overshot by at most one
/// e-class's results).
pub const EGRAPH_NODE_LIMIT: usize = 50_000;
/// For larger functions the default e-node limit is this many times the e-nodes the function
/// was lowered to: a fixed limit would stop a 34,000-instruction model in its first iteration,
/// with most rules never run.
pub const EGRAPH_NODE_GROWTH: usize = 4;
/// A rule family (the rules sharing their first label; see [`StopReason::RunawayFamily`]) may
/// add at most one of this many parts of the e-nodes the node limit leaves room for, so that
/// one family running away leaves the rest of the room to the others.
pub const FAMILY_BUDGET_PARTS: usize = 2;
/// A family whose growth in an iteration has at least doubled twice running is expected to
/// grow by the same factor, at most this, in its next iteration: paused if that would take it
/// past its budget, stopped if past the room left under the node limit.
pub const FAMILY_MAX_RATE: usize = 8;
/// Default wall-clock limit of a saturation run, for the whole program (the pipeline's
/// [`ptir_pass::DEFAULT_TIME_LIMIT`]).
pub const EGRAPH_TIME_LIMIT: Duration = ptir_pass::DEFAULT_TIME_LIMIT;
/// The backoff scheduler's initial match limit per rule and iteration (egg's default).
pub const BACKOFF_MATCH_LIMIT: usize = 1_000;
/// The backoff scheduler's initial ban length, in iterations (egg's default).
pub const BACKOFF_BAN_LENGTH: usize = 5;

/// Which rules run in an iteration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Scheduler {
    /// Every rule is searched and applied in every iteration (egg's `SimpleScheduler`): the
    /// closure of explosive rule sets in the fewest iterations, but one search can enumerate
    /// millions of matches in one e-class (the clock is read between e-classes, so such a
    /// search can overshoot the deadline).
    Simple,
    /// egg's `BackoffScheduler`, the default: a rule matching more than its limit
    /// ([`BACKOFF_MATCH_LIMIT`], or the number of e-classes the run starts with if larger,
    /// doubled at each ban) in one iteration is banned for
    /// [`BACKOFF_BAN_LENGTH`] iterations (doubled at each ban), which also bounds every
    /// search. When only banned rules could still fire, the bans are fast-forwarded, so a run
    /// ends at a fixpoint or a limit, never because rules were banned.
    #[default]
    Backoff,
}

impl Scheduler {
    /// Its name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Scheduler::Simple => "simple",
            Scheduler::Backoff => "backoff",
        }
    }
}

/// How a saturation run searches and when it stops: its [`Limits`] (the type both engines
/// share; [`EGRAPH_ITER_LIMIT`] and the node limit of [`SaturationOptions::node_limit`] where
/// they say `None`), and beside them the options that are not limits.
///
/// ```
/// use ptir_egraph::{Limits, SaturationOptions, Scheduler};
/// let options = SaturationOptions {
///     limits: Limits { iterations: Some(4), ..Limits::default() },
///     scheduler: Scheduler::Simple,
///     ..SaturationOptions::default()
/// };
/// assert_eq!(options.iteration_limit(1_000), 4);
/// assert!(options.pattern_index);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SaturationOptions {
    /// When the run stops.
    pub limits: Limits,
    /// The scheduler (default [`Scheduler::Backoff`]).
    pub scheduler: Scheduler,
    /// Compile and search a single-root rule only once the pattern index finds its first
    /// root's shape somewhere in the e-graph (default true; off, every rule is compiled and
    /// searched from the start: the same matches, slower with large rule libraries).
    pub pattern_index: bool,
}

impl Default for SaturationOptions {
    fn default() -> Self {
        SaturationOptions {
            limits: Limits::default(),
            scheduler: Scheduler::default(),
            pattern_index: true,
        }
    }
}

impl SaturationOptions {
    /// The iteration limit of a function whose lowered e-graph is `depth` e-nodes deep (the
    /// longest path from a leaf to a root): [`Limits::iterations`], by default
    /// [`EGRAPH_ITER_LIMIT`] or the depth, whichever is larger. A rewrite that moves an op
    /// along a chain (a slice of a model's output sunk through its residual stream, a
    /// transpose pushed through elementwise ops) moves it one step per iteration, so a fixed
    /// limit stops a deep program half-way however small its e-graph; the node and time
    /// limits bound the run as they do any other.
    ///
    /// ```
    /// use ptir_egraph::{SaturationOptions, EGRAPH_ITER_LIMIT};
    /// let options = SaturationOptions::default();
    /// assert_eq!(options.iteration_limit(5), EGRAPH_ITER_LIMIT);
    /// assert_eq!(options.iteration_limit(1_000), 1_000);
    /// ```
    pub fn iteration_limit(&self, depth: usize) -> usize {
        (self.limits.iterations).unwrap_or(EGRAPH_ITER_LIMIT.max(depth))
    }

    /// The node limit of a function lowered to `lowered` e-nodes.
    ///
    /// ```
    /// use ptir_egraph::{Limits, SaturationOptions, EGRAPH_NODE_LIMIT};
    /// let options = SaturationOptions::default();
    /// assert_eq!(options.node_limit(1_000), EGRAPH_NODE_LIMIT);
    /// assert_eq!(options.node_limit(30_000), 120_000);
    /// let explicit = SaturationOptions {
    ///     limits: Limits { nodes: Some(10), ..Limits::default() },
    ///     ..SaturationOptions::default()
    /// };
    /// assert_eq!(explicit.node_limit(30_000), 10);
    /// ```
    pub fn node_limit(&self, lowered: usize) -> usize {
        self.limits
            .nodes
            .unwrap_or_else(|| EGRAPH_NODE_LIMIT.max(lowered.saturating_mul(EGRAPH_NODE_GROWTH)))
    }
}

/// One iteration of the loop.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IterationReport {
    /// E-nodes after it (after rebuilding).
    pub nodes: usize,
    /// E-classes after it.
    pub classes: usize,
    /// Applications per rule (rewrites that changed the e-graph), in rule order; rules that
    /// changed nothing are left out.
    pub applied: IndexMap<String, usize>,
    /// Rules not applied in this iteration because the backoff scheduler bans them (banned
    /// before, or banned now for matching too often).
    pub banned: Vec<String>,
    /// The rules banned in this iteration, with the number of matches that banned them.
    pub bans: IndexMap<String, usize>,
    /// E-nodes each rule family's applications added in this iteration, in the order the
    /// families were first met; families that added none are left out.
    pub growth: IndexMap<String, usize>,
    /// The rule families paused in this iteration, past their budget or on their way there at
    /// their rate: their rules are not searched until the others reach their fixpoint.
    pub paused: Vec<Pause>,
    /// The paused families run again after this iteration, in which the others reached
    /// their fixpoint.
    pub resumed: Vec<String>,
    /// The rule families stopped in this iteration for running away
    /// ([`StopReason::RunawayFamily`]): their rules are not searched again.
    pub stopped: Vec<StopReason>,
    /// Constants the analysis folded in this iteration (a leaf added to a class whose value
    /// became known): growth that is no rule's application.
    pub folds: usize,
    /// Unions of two different classes in this iteration (rule applications, folds and
    /// congruence closure).
    pub unions: usize,
    /// Whether applying this iteration's matches was cut short because the estimated size
    /// crossed the node limit, while the size after rebuilding was under it (the run went
    /// on): which matches were applied then depends on how many were found.
    pub cut: bool,
    /// Time searching.
    pub search: Duration,
    /// Time applying.
    pub apply: Duration,
    /// Time rebuilding.
    pub rebuild: Duration,
}

impl IterationReport {
    /// Applications in this iteration, over all rules.
    pub fn applications(&self) -> usize {
        self.applied.values().sum()
    }
}

impl fmt::Display for IterationReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} nodes, {} classes, {} applications, {} folds, {} unions, search {:.2?} apply {:.2?} \
             rebuild {:.2?}",
            self.nodes,
            self.classes,
            self.applications(),
            self.folds,
            self.unions,
            self.search,
            self.apply,
            self.rebuild
        )?;
        if !self.growth.is_empty() {
            let growth: Vec<String> = (self.growth.iter())
                .map(|(family, n)| format!("{family} {n}"))
                .collect();
            write!(f, ", e-nodes added by family: {}", growth.join(", "))?;
        }
        if !self.banned.is_empty() {
            write!(f, ", banned: {}", self.banned.join(", "))?;
        }
        for (rule, matches) in &self.bans {
            write!(f, "; {rule} banned for {matches} matches")?;
        }
        for pause in &self.paused {
            write!(f, "; {pause}")?;
        }
        if !self.resumed.is_empty() {
            write!(f, "; resumed: {}", self.resumed.join(", "))?;
        }
        for stop in &self.stopped {
            write!(f, "; stopped: {stop}")?;
        }
        if self.cut {
            write!(f, "; applications cut short at the node limit")?;
        }
        Ok(())
    }
}

/// What saturation did.
#[derive(Clone, Debug, PartialEq)]
pub struct SaturationReport {
    /// Per iteration.
    pub iterations: Vec<IterationReport>,
    /// Why it stopped.
    pub stop: StopReason,
    /// Rewrites (applications that changed the e-graph) over the run.
    pub rewrites: usize,
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
    /// Constants folded by the analysis over the run (see [`IterationReport::folds`]).
    pub folds: usize,
    /// Unions over the run (see [`IterationReport::unions`]).
    pub unions: usize,
}

impl SaturationReport {
    /// The rules the backoff scheduler banned, each with the most matches that banned it, in
    /// the order they were first banned.
    pub fn bans(&self) -> IndexMap<String, usize> {
        let mut bans: IndexMap<String, usize> = IndexMap::new();
        for it in &self.iterations {
            for (rule, &n) in &it.bans {
                let most = bans.entry(rule.clone()).or_default();
                *most = (*most).max(n);
            }
        }
        bans
    }

    /// The rule families stopped for running away ([`StopReason::RunawayFamily`]), in the
    /// order they were stopped: the stop reason names the first when the other rules reached
    /// their fixpoint, a limit otherwise.
    pub fn runaways(&self) -> Vec<StopReason> {
        (self.iterations.iter())
            .flat_map(|it| it.stopped.iter().cloned())
            .collect()
    }

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

    /// Why it stopped, with the counts.
    pub fn summary(&self) -> RunSummary {
        RunSummary {
            stop: self.stop.clone(),
            iterations: self.iterations.len(),
            rewrites: self.rewrites,
            egraph: Some((self.nodes, self.classes)),
        }
    }

    /// The step log: per iteration, the e-graph's size after it and the applications of each
    /// rule (`ptir-opt --step-log` with saturation).
    pub fn step_log(&self) -> String {
        let mut out = String::new();
        for (i, it) in self.iterations.iter().enumerate() {
            out.push_str(&format!("iteration {i}: {it}\n"));
            for (rule, n) in &it.applied {
                out.push_str(&format!("  {n:8}  {rule}\n"));
            }
        }
        out.push_str(&format!("{}\n", self.summary()));
        out
    }
}

impl fmt::Display for SaturationReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "saturation: {}, {:.2?}", self.summary(), self.time)?;
        for (i, it) in self.iterations.iter().enumerate() {
            writeln!(f, "  iteration {i}: {it}")?;
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

/// Runs the rules on a lowered function until saturation or a limit, the time limit counted
/// from now.
///
/// Rules are compiled against the e-graph (a call pattern `@foo` becomes one egg pattern per
/// callee and type it matches, `@foo`, `@foo_0`, ...). A call that a rule result introduces
/// (`call @linear` raised from its idiom) is not in the e-graph when the rules are first
/// compiled, so a rule matching it (`(neg (call @linear ...))`) could never fire: the greedy
/// driver composes such rules, saturation must too. So the runner runs in rounds: before each
/// iteration, the loop checks for calls the rules' call patterns match that the current
/// compilation does not cover, and if there are, the round ends, the rules are compiled again
/// and the next round continues with what is left of the limits. The backoff scheduler's bans
/// start afresh in each round. Rule sets without call patterns (the bundled library) run in
/// one round.
pub fn saturate(
    lowered: &mut Lowered,
    rules: &RuleSet,
    options: &SaturationOptions,
) -> SaturationReport {
    saturate_until(
        lowered,
        rules,
        options,
        Deadline::after(options.limits.time),
    )
}

/// Runs the rules on a lowered function until saturation or a limit, stopping at `deadline`
/// (the time limit of a whole program, shared by its functions; `options.limits.time` is not
/// used).
pub fn saturate_until(
    lowered: &mut Lowered,
    rules: &RuleSet,
    options: &SaturationOptions,
    deadline: Deadline,
) -> SaturationReport {
    saturate_with(lowered, rules, options, deadline, true)
}

/// [`saturate`] searching everything in every iteration: the full search semi-naive search
/// is tested against.
#[cfg(test)]
pub(crate) fn saturate_fully(
    lowered: &mut Lowered,
    rules: &RuleSet,
    options: &SaturationOptions,
) -> SaturationReport {
    let deadline = Deadline::after(options.limits.time);
    saturate_with(lowered, rules, options, deadline, false)
}

/// The longest path, in e-nodes, through the first `lowered` e-nodes of `egraph` (those
/// lowering added, by their uncanonical ids), in one pass: lowering adds an e-node after its
/// children, so a child's id is smaller than its parent's (an edge that is not, a region's
/// parameter, is left out).
fn lowered_depth(egraph: &PtirEGraph, lowered: usize) -> usize {
    let mut depth = vec![0usize; lowered];
    for i in 0..lowered {
        let below = (egraph.id_to_node(egg::Id::from(i)).children().iter())
            .map(|&c| usize::from(c))
            .filter(|&c| c < i)
            .map(|c| depth[c])
            .max()
            .unwrap_or(0);
        depth[i] = below + 1;
    }
    depth.into_iter().max().unwrap_or(0)
}

/// [`saturate_until`]; with `semi_naive`, after its first search a rule searches only the
/// e-classes near what changed since it last saw every match (new, merged or re-analysed
/// classes and their ancestors up to its pattern's depth), as egglog does by the relation,
/// and the index is queried the same way; without, every iteration searches everything (the
/// same matches that change the e-graph, more of those that do not: tests compare the two).
fn saturate_with(
    lowered: &mut Lowered,
    rules: &RuleSet,
    options: &SaturationOptions,
    deadline: Deadline,
    semi_naive: bool,
) -> SaturationReport {
    let start = Instant::now();
    let mut egraph = std::mem::take(&mut lowered.egraph);
    let (folds, unions) = (egraph.analysis.folds, egraph.analysis.unions);
    let mut iterations = Vec::new();
    let mut total = 0;
    let node_limit = options.node_limit(egraph.total_number_of_nodes());
    let depth = lowered_depth(&egraph, lowered.lowered_nodes);
    let index = options.pattern_index.then(|| rules.index());
    let mut families = Families::new(egraph.total_number_of_nodes(), node_limit);
    let (compiled, stop) = loop {
        // With the index, the single-root rules are compiled as it finds places for them,
        // before each iteration (`Run::run`).
        let mut compiled = match index {
            Some(_) => compile_where(rules, &mut egraph, |_| false),
            None => compile(rules, &mut egraph),
        };
        crate::rebuild::rebuild(&mut egraph);
        let outcome = {
            let watch = compiled.call_watch();
            let schedule = Schedule::new(
                options.scheduler,
                compiled.rewrites.len(),
                backoff_match_limit(&egraph),
            );
            // What lowering and compiling touched: every rule searches everything first.
            egraph.analysis.touched.clear();
            let mut run = Run {
                index,
                rules,
                vars: Vec::new(),
                matchers: Vec::new(),
                depths: Vec::new(),
                family: Vec::new(),
                families: std::mem::take(&mut families),
                seen: Vec::new(),
                changes: Vec::new(),
                steps_before: egraph.analysis.now,
                indexed: None,
                pruning: None,
                compiled: &mut compiled,
                done: FxHashSet::default(),
                found: Vec::new(),
                key: Vec::new(),
                watch,
                limits: &options.limits,
                iteration_limit: options.iteration_limit(depth),
                semi_naive,
                node_limit,
                deadline,
                schedule,
                iterations: std::mem::take(&mut iterations),
                total,
                counted: (egraph.total_number_of_nodes(), egraph.total_size()),
            };
            run.refresh_vars();
            let outcome = run.run(&mut egraph);
            iterations = run.iterations;
            families = run.families;
            total = run.total;
            outcome
        };
        // `None`: a rule introduced a call that a call pattern matches; compile again.
        if let Some(stop) = outcome {
            break (compiled, stop);
        }
    };
    let rewrites = total;
    // The same faulty rule can fail on several matches (or on one match searched again):
    // report each distinct error once.
    let mut rule_errors = std::mem::take(&mut egraph.analysis.type_errors);
    let mut seen = FxHashSet::default();
    rule_errors.retain(|e| seen.insert(e.clone()));
    let report = SaturationReport {
        iterations,
        stop,
        rewrites,
        skipped: compiled.skipped,
        rule_errors,
        time: start.elapsed(),
        nodes: egraph.total_number_of_nodes(),
        classes: egraph.number_of_classes(),
        folds: egraph.analysis.folds - folds,
        unions: egraph.analysis.unions - unions,
    };
    lowered.root = egraph.find(lowered.root);
    lowered.egraph = egraph;
    report
}

/// Test support: each function of `programs` that lowers, with its program, saturated by
/// `rules` under `limits`.
#[cfg(test)]
pub(crate) fn saturated<'p>(
    programs: &'p [ptir_ir::Program],
    rules: &'p RuleSet,
    options: &'p SaturationOptions,
) -> impl Iterator<Item = (&'p ptir_ir::Program, Lowered)> + 'p {
    programs.iter().flat_map(move |program| {
        program.functions.iter().filter_map(move |f| {
            let mut lowered = crate::lower(program, &f.name).ok()?;
            saturate(&mut lowered, rules, options);
            Some((program, lowered))
        })
    })
}

/// Test support: the bundled rules, `count` fuzzed ones from `seed` that the proof accepts
/// (repeated variables, named roots and subterms, splats: what the rule language can say),
/// and the unbounded associativity of [`UNBOUNDED_RULES`].
#[cfg(test)]
pub(crate) fn bundled_and_fuzzed(seed: u64, count: usize) -> RuleSet {
    let mut rules = RuleSet::bundled().unwrap();
    let fuzzed = ptir_rules::fuzz::fuzz_rules(seed, count, 2);
    rules
        .add_source("fuzz.rules", &fuzzed.rules_text())
        .unwrap();
    rules
        .add_source("unbounded.rules", UNBOUNDED_RULES)
        .unwrap();
    rules
}

/// Test support: integer associativity and distributivity without the bounds of the bundled
/// rules (which regroup only where constants fold): what makes large e-graphs, whose every
/// grouping of a sum is a class, for the tests of search and matching.
#[cfg(test)]
pub(crate) const UNBOUNDED_RULES: &str = "\
; (a + b) + c = a + (b + c) in Z/2^w.
(rule add-assoc-int-unbounded :bounded-recursion (add (add ?a ?b) ?c) => (add ?a (add ?b ?c)) :when ((int ?a)))
; (a * b) * c = a * (b * c) in Z/2^w.
(rule mul-assoc-int-unbounded :bounded-recursion (mul (mul ?a ?b) ?c) => (mul ?a (mul ?b ?c)) :when ((int ?a)))
; a * (b + c) = a*b + a*c in Z/2^w.
(rule mul-add-distribute-int-unbounded :bounded-recursion (mul ?a (add ?b ?c)) => (add (mul ?a ?b) (mul ?a ?c)) :when ((int ?a)))
";

type PtirRewrite = Rewrite<PtirNode, PtirAnalysis>;
type Matches<'a> = Vec<SearchMatches<'a, PtirNode>>;

/// E-classes searched between two looks at the clock.
const CLASSES_PER_CLOCK_CHECK: usize = 32;

/// Matches applied between two looks at the clock (a few microseconds each: reading the
/// clock cost 3% of a large run when it was read after every one).
const APPLICATIONS_PER_CLOCK_CHECK: usize = 64;

/// The rules of a set that the pattern index finds a place for in an e-graph, among those
/// not compiled yet (`attempted`): the query skips the parts of the index that lead only to
/// rules already compiled, so once the rules that match are found it is nearly free.
///
/// `only`: the classes whose neighbourhood (what the index reads of a class, down to
/// [`INDEX_DEPTH`] op levels) changed since the last query, when there was one: the others
/// can have no new rule. Past `deadline` it stops asking (the iteration after it stops the
/// run on its time limit).
fn newly_found(
    index: &PatternIndex,
    egraph: &PtirEGraph,
    pruning: &Pruning,
    only: Option<&FxHashSet<egg::Id>>,
    deadline: Deadline,
) -> Vec<bool> {
    let mut found = vec![false; index.len()];
    let subject = EGraphSubject(egraph);
    let mut at = Vec::new();
    // The e-graph does not change during these queries: they share what its attributes match.
    let mut memo = ptir_rules::index::QueryMemo::default();
    let classes = egraph.classes().map(|c| c.id);
    let classes = classes.filter(|id| only.is_none_or(|only| only.contains(id)));
    for (k, class) in classes.enumerate() {
        if k % CLASSES_PER_CLOCK_CHECK == 0 && deadline.passed() {
            break;
        }
        at.clear();
        index.candidates_pruned_with(&subject, class, pruning, &mut memo, &mut at);
        for &r in &at {
            found[r as usize] = true;
        }
    }
    found
}

/// The rule families of a saturation run (see the module docs): what each has grown the
/// e-graph by, and which are paused or stopped. Kept across the rounds of a run.
#[derive(Default)]
struct Families {
    /// By name, in the order first met.
    growth: IndexMap<String, FamilyGrowth>,
    /// The e-nodes one family may add before it is paused ([`FAMILY_BUDGET_PARTS`]).
    budget: usize,
    /// The families paused in this iteration, in order.
    paused_now: Vec<Pause>,
    /// How many families are [growing](FamilyGrowth::growing).
    growing: usize,
}

/// One rule family's growth.
#[derive(Clone, Debug, Default)]
struct FamilyGrowth {
    /// E-nodes its applications added over the run.
    nodes: usize,
    /// E-nodes added in this iteration (last), and in the last two before it that added
    /// any: the iterations in which the backoff scheduler bans a family's rules do not hide
    /// its rate.
    recent: [usize; 3],
    /// E-nodes added in the iteration before this one (none if it grew nothing).
    previous: usize,
    state: FamilyState,
}

/// Where a rule family stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum FamilyState {
    /// Running within its budget.
    #[default]
    Running,
    /// Past its budget: not searched until the other families reach their fixpoint.
    Paused,
    /// Running again after a pause, with no budget but the node limit.
    Resumed,
    /// Stopped for good: at its rate, its next iteration would pass the node limit.
    Stopped,
}

/// A rule family paused past its budget, or on its way there at its rate (see the module
/// docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pause {
    /// The family.
    pub family: String,
    /// E-nodes it had added.
    pub nodes: usize,
    /// Its budget.
    pub budget: usize,
    /// When it was paused for its rate before reaching its budget: the e-nodes it would
    /// have added by the end of its next iteration at that rate.
    pub projected: Option<usize>,
}

impl fmt::Display for Pause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "rule family `{}` paused ({} e-nodes added",
            self.family, self.nodes
        )?;
        if let Some(projected) = self.projected {
            write!(f, ", {projected} after its next iteration at its rate")?;
        }
        write!(f, "; its budget {})", self.budget)
    }
}

impl Families {
    /// The families of a run whose e-graph starts at `nodes` e-nodes under `node_limit`.
    fn new(nodes: usize, node_limit: usize) -> Self {
        Families {
            growth: IndexMap::new(),
            budget: node_limit.saturating_sub(nodes) / FAMILY_BUDGET_PARTS,
            paused_now: Vec::new(),
            growing: 0,
        }
    }

    /// The index of the family named `name`, added if new.
    fn intern(&mut self, name: &str) -> usize {
        match self.growth.get_index_of(name) {
            Some(f) => f,
            None => {
                self.growth
                    .insert_full(name.to_string(), FamilyGrowth::default())
                    .0
            }
        }
    }

    /// Are family `family`'s rules held out of this iteration (paused or stopped)?
    fn held(&self, family: usize) -> bool {
        self.growth[family].held()
    }

    /// Does another family than `family`, not held, grow (this iteration or the last)? A
    /// family alone in growing is not paused: there is no one to leave room to.
    fn others_growing(&self, family: usize) -> bool {
        let own = self
            .growth
            .get_index(family)
            .is_some_and(|(_, g)| g.growing());
        self.growing > usize::from(own)
    }

    /// Holds family `family` (paused or stopped), which no longer counts as growing.
    fn hold(&mut self, family: usize, state: FamilyState) {
        if let Some((_, g)) = self.growth.get_index_mut(family) {
            if g.growing() {
                self.growing -= 1;
            }
            g.state = state;
        }
    }

    /// Family `family` added `nodes` e-nodes; pauses it if that takes it past its budget
    /// while others grow.
    fn grew(&mut self, family: usize, nodes: usize) {
        let budget = self.budget;
        let Some((_, g)) = self.growth.get_index_mut(family) else {
            return;
        };
        let was_growing = g.growing();
        g.nodes = g.nodes.saturating_add(nodes);
        g.recent[2] = g.recent[2].saturating_add(nodes);
        if !was_growing && g.growing() {
            self.growing += 1;
        }
        let (over, total) = (g.state == FamilyState::Running && g.nodes > budget, g.nodes);
        if over && self.others_growing(family) {
            self.hold(family, FamilyState::Paused);
            let name = self.growth.get_index(family).map(|(name, _)| name.clone());
            self.paused_now.push(Pause {
                family: name.unwrap_or_default(),
                nodes: total,
                budget,
                projected: None,
            });
        }
    }

    /// The end of an iteration that left the e-graph `room` e-nodes under the node limit:
    /// records each family's growth in `report`; stops the families that would pass the node
    /// limit in their next iteration at their rate, and pauses those that would pass their
    /// budget while others grow (in family order: a family paused no longer counts as
    /// growing for the next).
    fn end_iteration(&mut self, room: usize, report: &mut IterationReport) {
        let budget = self.budget;
        report.paused.append(&mut self.paused_now);
        for f in 0..self.growth.len() {
            let Some((name, g)) = self.growth.get_index(f) else {
                continue;
            };
            if g.recent[2] == 0 {
                continue;
            }
            // Owned: holding the family below changes the map.
            let (name, g) = (name.clone(), g.clone());
            report.growth.insert(name.clone(), g.recent[2]);
            let Some(next) = next_growth(g.recent) else {
                continue;
            };
            if next > room && g.state != FamilyState::Stopped {
                self.hold(f, FamilyState::Stopped);
                report.stopped.push(StopReason::RunawayFamily {
                    family: name,
                    nodes: g.nodes,
                    next,
                    room,
                });
            } else if g.nodes.saturating_add(next) > budget
                && g.state == FamilyState::Running
                && self.others_growing(f)
            {
                self.hold(f, FamilyState::Paused);
                report.paused.push(Pause {
                    family: name,
                    nodes: g.nodes,
                    budget,
                    projected: Some(g.nodes.saturating_add(next)),
                });
            }
        }
        // The next iteration: this one's growth becomes the last, and the rate's history
        // moves on where the family grew.
        for g in self.growth.values_mut() {
            g.previous = g.recent[2];
            if g.recent[2] > 0 {
                g.recent = [g.recent[1], g.recent[2], 0];
            }
        }
        self.growing = self.growth.values().filter(|g| g.growing()).count();
    }

    /// The rest reached their fixpoint: the paused families run again, with no budget but
    /// the node limit. Returns their names (none: nothing was paused).
    fn resume(&mut self) -> Vec<String> {
        let paused = (self.growth.iter_mut()).filter(|(_, g)| g.state == FamilyState::Paused);
        let resumed: Vec<String> = (paused.map(|(name, g)| {
            g.state = FamilyState::Resumed;
            name.clone()
        }))
        .collect();
        self.growing = self.growth.values().filter(|g| g.growing()).count();
        resumed
    }
}

impl FamilyGrowth {
    fn held(&self) -> bool {
        matches!(self.state, FamilyState::Paused | FamilyState::Stopped)
    }

    /// Not held, and it added e-nodes in this iteration or the last.
    fn growing(&self) -> bool {
        !self.held() && (self.recent[2] > 0 || self.previous > 0)
    }
}

/// The e-nodes a family will add in its next iteration, by `recent`, its growth in its last
/// three iterations that grew it (the last one last), if its growth has at least doubled twice
/// running: the last growth times the last factor (at most [`FAMILY_MAX_RATE`]).
fn next_growth(recent: [usize; 3]) -> Option<usize> {
    let [before, last, now] = recent;
    let doubling = before > 0 && last >= before.saturating_mul(2) && now >= last.saturating_mul(2);
    doubling.then(|| now.saturating_mul((now / last).min(FAMILY_MAX_RATE)))
}

/// The family of the builtin rewrites ([`crate::rules`]' structural identities).
const BUILTIN_FAMILY: &str = "(builtin)";

/// A rule's family: its first label, or for a rule without labels, its name marked as such
/// (a label cannot hold a space, so an unlabelled rule named `algebra` is not in the
/// `algebra` family).
fn family_of(rule: &ptir_rules::Rule) -> Cow<'_, str> {
    match rule.labels.first() {
        Some(label) => Cow::Borrowed(label),
        None => Cow::Owned(format!("{} (unlabelled)", rule.name)),
    }
}

/// The state of one saturation loop.
struct Run<'r> {
    /// The pattern index of the rule set, unless it is off.
    index: Option<&'r PatternIndex>,
    rules: &'r RuleSet,
    /// The rewrites, compiled as the pattern index finds places for their rules.
    compiled: &'r mut CompiledRules,
    /// Each rewrite's pattern variables.
    vars: Vec<Vec<egg::Var>>,
    /// Each rewrite's pattern compiled for the search by match, for a single-root pattern.
    matchers: Vec<Option<TreeMatcher>>,
    /// Each rewrite's pattern depth (edges from its root to its deepest variable), `None`
    /// for a pattern searched as a whole (a multi-root join).
    depths: Vec<Option<usize>>,
    /// Each rewrite's rule family, in `families`.
    family: Vec<usize>,
    families: Families,
    /// Semi-naive search: per rewrite, `Some(t)` if every match present when `changes[t]`
    /// was started was found and applied, so only classes near `changes[t..]` can hold a
    /// new one, and only matches through a class stamped `t` or later are new; `None`:
    /// search everything.
    seen: Vec<Option<usize>>,
    /// Per iteration `t` of this run: the classes touched since the start of iteration
    /// `t - 1` (new, merged, or with new analysis data), as egg reported them to the
    /// analysis, which stamps them `steps_before + t` (`PtirAnalysis::now`).
    changes: Vec<Vec<egg::Id>>,
    /// The analysis's step when this run started: steps go on from there, so that stamps
    /// from an earlier run are older than any of this one's.
    steps_before: u32,
    /// The pattern index was last queried with `changes[..t]` known (`Some(t)`), and what
    /// has been touched since then is in `changes[t..]` and the analysis's list.
    indexed: Option<usize>,
    /// The index pruned of the rules attempted, with how many were attempted then.
    pruning: Option<(usize, Pruning)>,
    /// The matches that changed the e-graph: rule, e-class and the variables' classes, all
    /// canonical when applied.
    done: FxHashSet<Vec<usize>>,
    /// Scratch for [`Run::apply_run`]'s lookups, kept from one run to the next: a run's
    /// worth is a large allocation, and a fresh one faults its pages in again every time.
    found: Vec<Existing>,
    /// Scratch for a match's key.
    key: Vec<usize>,
    /// Calls that would need the rules compiled again (see [`saturate_until`]).
    watch: CallWatch,
    limits: &'r Limits,
    /// The iteration limit, resolved.
    iteration_limit: usize,
    /// Search semi-naively (see [`saturate_with`]).
    semi_naive: bool,
    /// The node limit, resolved for the lowered function.
    node_limit: usize,
    deadline: Deadline,
    schedule: Schedule,
    iterations: Vec<IterationReport>,
    /// Applications so far.
    total: usize,
    /// E-nodes and the size of egg's hash-cons table after the last rebuild: the table also
    /// keeps stale entries, so e-nodes are counted after a rebuild and estimated in between
    /// as that count plus the entries added since (an upper bound).
    counted: (usize, usize),
}

impl<'r> Run<'r> {
    /// E-nodes now, or an upper bound since the last rebuild.
    fn nodes(&self, egraph: &PtirEGraph) -> usize {
        self.counted.0 + egraph.total_size().saturating_sub(self.counted.1)
    }

    /// The node limit, if the e-graph is past it.
    fn node_limit(&self, egraph: &PtirEGraph) -> Option<StopReason> {
        let nodes = self.nodes(egraph);
        (nodes > self.node_limit).then_some(StopReason::NodeLimit {
            limit: self.node_limit,
            nodes,
        })
    }

    /// The limit the run has reached before an iteration, if any.
    fn check(&self, egraph: &PtirEGraph) -> Option<StopReason> {
        let limit = self.iteration_limit;
        if self.iterations.len() >= limit {
            return Some(StopReason::IterationLimit { limit });
        }
        self.limit_reached(egraph)
    }

    /// Iterates until a limit or a fixpoint (`Some`), or until a rule introduced a call that
    /// the rules must be compiled again to match (`None`).
    fn run(&mut self, egraph: &mut PtirEGraph) -> Option<StopReason> {
        loop {
            if let Some(stop) = self.check(egraph) {
                return Some(stop);
            }
            if self.watch.has_new(egraph) {
                return None;
            }
            if let Some(index) = self.index {
                // The changes since the last query are those of this iteration's entry in
                // `changes`, pushed by `iteration` below, and of what has been touched since.
                let since = (self.indexed.replace(self.changes.len())).filter(|_| self.semi_naive);
                let only = since.map(|t| {
                    let touched = self.changes[t..].iter().flatten();
                    frontier(egraph, touched.chain(&egraph.analysis.touched), INDEX_DEPTH)
                });
                // The trie pruned of the rules compiled already: made once per run, then
                // updated along the paths of the rules compiled since (a walk of the whole
                // trie is linear in the index, 10,000 rules' worth).
                let attempted = &self.compiled.attempted;
                let count = attempted.iter().filter(|&&a| a).count();
                let known = |r: u32| attempted[r as usize];
                let (pruned, pruning) =
                    (self.pruning).get_or_insert_with(|| (count, index.pruning(known)));
                if *pruned != count {
                    index.prune(pruning, known);
                    *pruned = count;
                }
                let found = newly_found(index, egraph, pruning, only.as_ref(), self.deadline);
                if self.compiled.compile_more(self.rules, egraph, |n| found[n]) {
                    // Rules that found no place before have one now: compiled, they join
                    // the run in rule order, with fresh schedules.
                    crate::rebuild::rebuild(egraph);
                    self.refresh_vars();
                    self.schedule.grow(self.compiled.rewrites.len());
                }
            }
            if let Some(stop) = self.iteration(egraph) {
                return Some(stop);
            }
        }
    }

    /// One iteration; returns why the run stops after it, if it does.
    fn iteration(&mut self, egraph: &mut PtirEGraph) -> Option<StopReason> {
        let i = self.iterations.len();
        let size_before = (self.counted.0, egraph.number_of_classes());
        let mut report = IterationReport::default();
        // The rewrites of this iteration, shared: matches borrow their patterns while the
        // loop's state changes.
        let rewrites = self.compiled.rewrites.clone();
        self.changes
            .push(std::mem::take(&mut egraph.analysis.touched));
        // What is touched from now on goes to the next entry of `changes`.
        egraph.analysis.now = self.step(self.changes.len());
        let seen_before = self.seen.clone();
        let (folds, unions) = (egraph.analysis.folds, egraph.analysis.unions);
        let t = Instant::now();
        let (matches, mut stop) = self.search(&rewrites, egraph, i, &mut report);
        report.search = t.elapsed();
        let t = Instant::now();
        let mut applied = vec![0; rewrites.len()];
        if stop.is_none() {
            if let Err((cut, reason)) = self.apply(&rewrites, egraph, &matches, &mut applied) {
                // The matches of these rules were not all applied: they are not seen.
                for (r, _) in &matches[cut..] {
                    self.seen[*r] = seen_before[*r];
                }
                stop = Some(reason);
            }
        }
        // A family paused (or stopped) while applying left its rules' matches unapplied:
        // they are not seen, and are found again when it runs again.
        for (r, _) in &matches {
            if self.families.held(self.family[*r]) {
                self.seen[*r] = seen_before[*r];
            }
        }
        report.applied = (self.compiled.order.iter())
            .filter(|&&r| applied[r] > 0)
            .map(|&r| (rewrites[r].name.to_string(), applied[r]))
            .collect();
        report.apply = t.elapsed();
        let t = Instant::now();
        crate::rebuild::rebuild(egraph);
        report.rebuild = t.elapsed();
        report.nodes = egraph.total_number_of_nodes();
        report.classes = egraph.number_of_classes();
        report.folds = egraph.analysis.folds - folds;
        report.unions = egraph.analysis.unions - unions;
        self.counted = (report.nodes, egraph.total_size());
        (self.families).end_iteration(self.node_limit.saturating_sub(report.nodes), &mut report);
        if let Some(StopReason::NodeLimit { nodes, .. }) = &mut stop {
            // The estimate crossed the limit; the count after rebuilding decides. Under it,
            // an iteration that applied something goes on (the next one searches again).
            *nodes = report.nodes;
            if report.nodes <= self.node_limit && !report.applied.is_empty() {
                stop = None;
                report.cut = true;
            }
        }
        let quiet = report.applied.is_empty() && (report.nodes, report.classes) == size_before;
        let banned = !report.banned.is_empty();
        // The others reached their fixpoint (no ban left to wait out): paused families
        // run again.
        if quiet && !banned && stop.is_none() {
            report.resumed = self.families.resume();
        }
        let resumed = !report.resumed.is_empty();
        self.iterations.push(report);
        match stop {
            Some(stop) => Some(stop),
            None if resumed => None,
            // The rules still running reached their fixpoint (none is paused): the run
            // saturated, unless a family was stopped.
            None if quiet && !banned => Some(
                (self.iterations.iter())
                    .find_map(|it| it.stopped.first().cloned())
                    .unwrap_or(StopReason::Saturated),
            ),
            None => {
                if quiet {
                    // Only the bans of rules that still run are waited out.
                    let (family, families) = (&self.family, &self.families);
                    let runs = |r: usize| family.get(r).is_none_or(|&f| !families.held(f));
                    self.schedule.fast_forward(i, runs);
                }
                None
            }
        }
    }

    /// The analysis's step for `changes[t]`.
    fn step(&self, t: usize) -> u32 {
        let t = u32::try_from(t).unwrap_or(u32::MAX);
        self.steps_before.saturating_add(t)
    }

    /// The pattern variables and depths of every rewrite, after rewrites were added.
    fn refresh_vars(&mut self) {
        let known = self.vars.len();
        for rw in &self.compiled.rewrites[known..] {
            self.vars.push(rw.searcher.vars());
            let ast = rw.searcher.get_pattern_ast();
            self.depths.push(ast.map(pattern_depth));
            let rule = (self.compiled.rule_position(self.matchers.len()))
                .and_then(|at| self.rules.rules().get(at));
            let root_named = rule.is_none_or(|rule| {
                (rule.source.roots.iter()).any(|&t| rule.source.term(t).name().is_some())
            });
            let family = match rule {
                None => Cow::Borrowed(BUILTIN_FAMILY),
                Some(rule) => family_of(rule),
            };
            self.family.push(self.families.intern(&family));
            self.matchers
                .push(ast.and_then(|ast| TreeMatcher::new(ast, root_named)));
            self.seen.push(None);
        }
    }

    /// The classes where rule `r` can have a match it has not seen, if it has seen all
    /// matches up to some iteration: the classes touched since then and their ancestors up
    /// to the pattern's depth (a match reads only the classes its pattern reaches from its
    /// root, and their analysis data). `frontiers` caches them by (iteration, depth).
    fn unseen<'f>(
        &self,
        egraph: &PtirEGraph,
        r: usize,
        frontiers: &'f mut Vec<((usize, usize), FxHashSet<egg::Id>)>,
    ) -> Option<&'f FxHashSet<egg::Id>> {
        if !self.semi_naive {
            return None;
        }
        let (since, depth) = (self.seen[r]?, self.depths[r]?);
        let at = match frontiers.iter().position(|(k, _)| *k == (since, depth)) {
            Some(at) => at,
            None => {
                let touched = self.changes[since..].iter().flatten();
                frontiers.push(((since, depth), frontier(egraph, touched, depth)));
                frontiers.len() - 1
            }
        };
        Some(&frontiers[at].1)
    }

    /// Searches every rule the scheduler lets run, in rule order; stops early at the deadline.
    fn search<'a>(
        &mut self,
        rewrites: &'a [Arc<PtirRewrite>],
        egraph: &PtirEGraph,
        i: usize,
        report: &mut IterationReport,
    ) -> (Vec<(usize, Matches<'a>)>, Option<StopReason>) {
        let mut out = Vec::new();
        let mut frontiers = Vec::new();
        for k in 0..self.compiled.order.len() {
            let r = self.compiled.order[k];
            let rw = &rewrites[r];
            if self.families.held(self.family[r]) {
                continue;
            }
            let Some(threshold) = self.schedule.threshold(r, i) else {
                report.banned.push(rw.name.to_string());
                continue;
            };
            let limit = threshold.saturating_add(1);
            let only = self.unseen(egraph, r, &mut frontiers);
            // The builtin rewrites' appliers read more than their matches (see
            // `crate::matcher`): all their matches are searched.
            let since = (self.seen[r])
                .filter(|_| self.semi_naive && r >= self.compiled.builtin)
                .map(|t| (self.step(t), &egraph.analysis.class_stamps[..]));
            let search = Search {
                only,
                since,
                limit,
                deadline: self.deadline,
            };
            let Some(ms) = search_until(rw, self.matchers[r].as_ref(), egraph, search) else {
                return (out, Some(self.deadline.stop_reason()));
            };
            let found: usize = ms.iter().map(|m| m.substs.len()).sum();
            if found > threshold {
                self.schedule.ban(r, i);
                report.banned.push(rw.name.to_string());
                report.bans.insert(rw.name.to_string(), found);
                continue;
            }
            // Applied in this iteration (unless a limit cuts the application short: see
            // `iteration`), every match present now has been seen.
            self.seen[r] = Some(self.changes.len());
            if !ms.is_empty() {
                out.push((r, ms));
            }
        }
        (out, None)
    }

    /// Applies the matches one at a time, skipping those that changed the e-graph before,
    /// and checking the limits in between; a limit gives the position in `matches` of the
    /// first rule whose matches it cut short, and the reason.
    ///
    /// Two passes: first the matches of planned rules whose results are in the e-graph
    /// already (unions only), in rule order, then every other match, in rule order (see
    /// [`crate::rules::PlannedApplier`] for why). Planned rules' matches are looked up
    /// [`RUN`] at a time (in parallel in a large e-graph) and applied in order (see
    /// [`Run::apply_run`]).
    fn apply(
        &mut self,
        rewrites: &[Arc<PtirRewrite>],
        egraph: &mut PtirEGraph,
        matches: &[(usize, Matches<'_>)],
        applied: &mut [usize],
    ) -> Result<(), (usize, StopReason)> {
        let mut applications = 0usize;
        // The matches the first pass left for the second, in order.
        // Reserved for every match: the pages of the part left unused are never touched.
        let total: usize = (matches.iter().flat_map(|(_, ms)| ms))
            .map(|m| m.substs.len())
            .sum();
        let mut later: Vec<Place> = Vec::with_capacity(total);
        let mut run = Vec::with_capacity(RUN);
        for (at, (r, ms)) in matches.iter().enumerate() {
            let places = ms.iter().enumerate();
            let mut places = places.flat_map(|(k, m)| (0..m.substs.len()).map(move |s| (at, k, s)));
            let Some(planned) = self.compiled.planned[*r].clone() else {
                later.extend(places);
                continue;
            };
            loop {
                run.clear();
                run.extend(places.by_ref().take(RUN));
                if run.is_empty() || self.families.held(self.family[*r]) {
                    break;
                }
                let apply = Applying {
                    r: *r,
                    rw: &rewrites[*r],
                    planned: &planned,
                    matches: ms,
                    run: &run,
                };
                let done =
                    self.apply_run(egraph, apply, applied, &mut applications, Some(&mut later));
                if let Err(stop) = done {
                    // The rules before `at` may have matches left for the second pass.
                    let cut = later.first().map_or(at, |&(first, _, _)| first);
                    return Err((cut, stop));
                }
            }
        }
        for places in later.chunk_by(|a, b| a.0 == b.0) {
            let (at, r) = (places[0].0, matches[places[0].0].0);
            let (rw, ms) = (&rewrites[r], &matches[at].1);
            if self.families.held(self.family[r]) {
                continue;
            }
            if let Some(planned) = self.compiled.planned[r].clone() {
                for run in places.chunks(RUN) {
                    let apply = Applying {
                        r,
                        rw,
                        planned: &planned,
                        matches: ms,
                        run,
                    };
                    (self.apply_run(egraph, apply, applied, &mut applications, None))
                        .map_err(|stop| (at, stop))?;
                }
                continue;
            }
            for &(_, k, s) in places {
                let (m, subst) = (&ms[k], &ms[k].substs[s]);
                // A rule without a plan is remembered: its applier would build its result
                // again.
                let remember = r >= self.compiled.builtin;
                if remember {
                    self.key_of(egraph, r, m.eclass, subst);
                    if self.done.contains(self.key.as_slice()) {
                        continue;
                    }
                }
                let family = self.family[r];
                if self.families.held(family) {
                    break;
                }
                let size = egraph.total_size();
                let ast = m.ast.as_deref();
                let n = (rw.applier)
                    .apply_one(egraph, m.eclass, subst, ast, rw.name)
                    .len();
                self.grew(family, egraph.total_size().saturating_sub(size));
                applied[r] += n;
                self.total += n;
                if remember && n > 0 {
                    self.done.insert(self.key.clone());
                }
                applications += 1;
                if let Some(stop) = self.stop_between(egraph, applications) {
                    return Err((at, stop));
                }
            }
        }
        Ok(())
    }

    /// Applies a run of a planned rule's matches: looks their results up (in parallel in a
    /// large e-graph), then applies them in order. A match whose result is missing is pushed
    /// to `defer` if given, else applied by building its result (its lookup is repeated then:
    /// an earlier match of the run may have built it). In a small e-graph, with no `defer`,
    /// nothing is looked up ahead: each application makes its own lookup.
    fn apply_run(
        &mut self,
        egraph: &mut PtirEGraph,
        apply: Applying<'_, '_>,
        applied: &mut [usize],
        applications: &mut usize,
        defer: Option<&mut Vec<Place>>,
    ) -> Result<(), StopReason> {
        let Applying {
            planned,
            matches,
            run,
            ..
        } = apply;
        let find = |&(_, k, s): &Place| {
            let m = &matches[k];
            planned.find_existing(egraph, m.eclass, &m.substs[s])
        };
        // Handing a short run to rayon costs more than it saves.
        let small = egraph.number_of_classes() < PARALLEL_MIN_CLASSES || run.len() < 2 * RUN_TASK;
        let mut found = std::mem::take(&mut self.found);
        match (small, defer.is_some()) {
            // In order, with nothing to set aside, a lookup ahead of each application only
            // repeats the lookup the application makes (these matches were missing their
            // results a pass ago, so they mostly still are): every match is left missing.
            (true, false) => found.clear(),
            (true, true) => {
                found.clear();
                found.extend(run.iter().map(find));
            }
            (false, _) => {
                (run.par_iter().with_min_len(RUN_TASK).map(find)).collect_into_vec(&mut found)
            }
        }
        let result = self.apply_found(egraph, apply, &mut found, applied, applications, defer);
        self.found = found;
        result
    }

    /// [`Run::apply_run`]'s second half: applies the run's matches in order, given what the
    /// lookups `found` (a match past its end is missing).
    fn apply_found(
        &mut self,
        egraph: &mut PtirEGraph,
        apply: Applying<'_, '_>,
        found: &mut Vec<Existing>,
        applied: &mut [usize],
        applications: &mut usize,
        mut defer: Option<&mut Vec<Place>>,
    ) -> Result<(), StopReason> {
        let Applying {
            r,
            rw,
            matches,
            run,
            ..
        } = apply;
        let found = (found.drain(..)).chain(std::iter::repeat_with(|| Existing::Missing));
        let family = self.family[r];
        for (&place, found) in run.iter().zip(found) {
            if self.families.held(family) {
                break;
            }
            let size = egraph.total_size();
            let changed = match (found, defer.as_deref_mut()) {
                (Existing::Missing, Some(defer)) => {
                    defer.push(place);
                    continue;
                }
                (Existing::Missing, None) => {
                    let (_, k, s) = place;
                    let m = &matches[k];
                    let ast = m.ast.as_deref();
                    (rw.applier)
                        .apply_one(egraph, m.eclass, &m.substs[s], ast, rw.name)
                        .len()
                }
                (found, _) => found.apply(egraph, rw.name),
            };
            self.grew(family, egraph.total_size().saturating_sub(size));
            applied[r] += changed;
            self.total += changed;
            *applications += 1;
            if let Some(stop) = self.stop_between(egraph, *applications) {
                return Err(stop);
            }
        }
        Ok(())
    }

    /// An application of a rule of `family` added `nodes` e-nodes (most add none: a union of
    /// classes that exist, and nothing to count).
    fn grew(&mut self, family: usize, nodes: usize) {
        if nodes > 0 {
            self.families.grew(family, nodes);
        }
    }

    /// The limit reached after `applications` applications in this iteration, if any: the
    /// clock is read only every [`APPLICATIONS_PER_CLOCK_CHECK`].
    fn stop_between(&self, egraph: &PtirEGraph, applications: usize) -> Option<StopReason> {
        match applications % APPLICATIONS_PER_CLOCK_CHECK {
            0 => self.limit_reached(egraph),
            _ => self.size_limit_reached(egraph),
        }
    }

    /// The time, node or rewrite limit, if reached (checked between matches, too).
    fn limit_reached(&self, egraph: &PtirEGraph) -> Option<StopReason> {
        if self.deadline.passed() {
            return Some(self.deadline.stop_reason());
        }
        self.size_limit_reached(egraph)
    }

    /// The node or rewrite limit, if reached: [`Self::limit_reached`] without the clock.
    fn size_limit_reached(&self, egraph: &PtirEGraph) -> Option<StopReason> {
        if let Some(stop) = self.node_limit(egraph) {
            return Some(stop);
        }
        self.limits
            .rewrites
            .filter(|&limit| self.total >= limit)
            .map(|limit| StopReason::RewriteLimit { limit })
    }

    /// Sets `self.key` to the key of a match of rule `r`: the rule, the e-class and the
    /// class of each pattern variable, canonical.
    fn key_of(&mut self, egraph: &PtirEGraph, r: usize, eclass: egg::Id, subst: &egg::Subst) {
        self.key.clear();
        self.key.push(r);
        self.key.push(usize::from(egraph.find(eclass)));
        for v in &self.vars[r] {
            let id = subst
                .get(*v)
                .map_or(usize::MAX, |id| usize::from(egraph.find(*id)));
            self.key.push(id);
        }
    }
}

/// The canonical classes within `depth` parent steps of a class of `touched`.
fn frontier<'t>(
    egraph: &PtirEGraph,
    touched: impl Iterator<Item = &'t egg::Id>,
    depth: usize,
) -> FxHashSet<egg::Id> {
    let mut seen: FxHashSet<egg::Id> = FxHashSet::default();
    let mut layer: Vec<egg::Id> = touched
        .map(|&id| egraph.find(id))
        .filter(|&id| seen.insert(id))
        .collect();
    for _ in 0..depth {
        let mut next = Vec::new();
        for &id in &layer {
            for parent in egraph[id].parents() {
                let parent = egraph.find(parent);
                if seen.insert(parent) {
                    next.push(parent);
                }
            }
        }
        if next.is_empty() {
            break;
        }
        layer = next;
    }
    seen
}

/// The number of e-node edges from a pattern's root (its last node) to its deepest node.
fn pattern_depth(ast: &egg::PatternAst<PtirNode>) -> usize {
    let mut depth = vec![0usize; ast.len()];
    for (i, node) in ast.as_ref().iter().enumerate() {
        if let egg::ENodeOrVar::ENode(n) = node {
            depth[i] = 1 + n
                .children()
                .iter()
                .map(|&c| depth[usize::from(c)])
                .max()
                .unwrap_or(0);
        }
    }
    depth.last().copied().unwrap_or(0)
}

/// How one rule is searched in an iteration.
struct Search<'s> {
    /// Only these root classes, if given (semi-naive search: see [`Run::unseen`]).
    only: Option<&'s FxHashSet<egg::Id>>,
    /// Only matches through a class stamped at least this, with the stamps, if given (see
    /// `crate::matcher`).
    since: Option<(u32, &'s [u32])>,
    /// At most this many matches.
    limit: usize,
    deadline: Deadline,
}

/// At most `search.limit` matches of `rw`, or `None` if the deadline passed while searching.
/// A single-root pattern searches only the e-classes holding its root's kind, as egg does,
/// with `matcher`, its pattern compiled (see [`Search`] for what it skips); a multi-root one
/// is searched by egg.
///
/// Many classes are searched in parallel, in runs of [`CLASSES_PER_TASK`] (rayon), and the
/// matches are joined in class order: the answer is the one a search in order gives, and the
/// search stops within a wave of [`TASKS_PER_WAVE`] runs of where that one would.
fn search_until<'a>(
    rw: &'a PtirRewrite,
    matcher: Option<&TreeMatcher>,
    egraph: &PtirEGraph,
    search: Search<'_>,
) -> Option<Matches<'a>> {
    // A multi-root pattern is a `JoinPattern`, which searches each root once through the
    // class index: searching it per class would search every root again per class.
    let Some(matcher) = matcher else {
        return Some(rw.searcher.search_with_limit(egraph, search.limit));
    };
    let (Some(classes), Some(ground)) = (
        egraph.classes_for_op(&matcher.root_head()),
        matcher.ground_classes(egraph),
    ) else {
        return Some(Vec::new());
    };
    let ast = rw.searcher.get_pattern_ast().map(Cow::Borrowed);
    let only = search.only;
    let classes: Vec<egg::Id> = classes
        .filter(|id| only.is_none_or(|only| only.contains(id)))
        .collect();
    // The matches rooted at a run of classes, at most `limit`.
    let search_run = |classes: &[egg::Id], limit: usize| -> Option<Matches<'a>> {
        let mut out = Vec::new();
        // A class's matches are found in one buffer, reused, and copied out at their size: a
        // vector grown per class reallocated (and touched fresh pages) at every doubling.
        let mut found = Vec::new();
        let mut left = limit;
        for (k, &id) in classes.iter().enumerate() {
            if left == 0 {
                break;
            }
            if k % CLASSES_PER_CLOCK_CHECK == 0 && search.deadline.passed() {
                return None;
            }
            let mut stop = || search.deadline.passed();
            let since = search.since;
            if !matcher.search_class(egraph, id, &ground, since, left, &mut found, &mut stop) {
                return None;
            }
            if !found.is_empty() {
                left = left.saturating_sub(found.len());
                let mut substs = Vec::with_capacity(found.len());
                substs.append(&mut found);
                out.push(SearchMatches {
                    eclass: id,
                    substs,
                    ast: ast.clone(),
                });
            }
        }
        Some(out)
    };
    // In waves, so that a rule whose matches pass the limit (and is banned) is not searched
    // much further than a search in order would have: every task of a wave may find up to
    // what is left of the limit.
    let mut out = Vec::new();
    let mut left = search.limit;
    for wave in classes.chunks(CLASSES_PER_TASK * TASKS_PER_WAVE) {
        if left == 0 {
            break;
        }
        let small = classes.len() < PARALLEL_MIN_CLASSES || wave.len() < 2 * CLASSES_PER_TASK;
        let runs: Vec<Option<Matches<'a>>> = if small {
            vec![search_run(wave, left)]
        } else {
            let runs = wave.par_chunks(CLASSES_PER_TASK);
            runs.map(|run| search_run(run, left)).collect()
        };
        for run in runs {
            for mut m in run? {
                if left == 0 {
                    return Some(out);
                }
                m.substs.truncate(left);
                left -= m.substs.len();
                out.push(m);
            }
        }
    }
    Some(out)
}

/// Where a match is in an iteration's matches: the rule's position, the match (a root class),
/// the substitution.
type Place = (usize, usize, usize);

/// A run of a planned rule's matches to apply ([`Run::apply_run`]).
struct Applying<'a, 'm> {
    /// The rewrite's index.
    r: usize,
    rw: &'a PtirRewrite,
    planned: &'a PlannedApplier,
    matches: &'a [SearchMatches<'m, PtirNode>],
    run: &'a [Place],
}

/// Matches whose results [`Run::apply_run`] looks up before applying them: what a run's
/// unions and new e-nodes change helps the lookups of later runs only, so a run is short
/// next to a rule's matches.
const RUN: usize = 1 << 14;

/// Classes a rule's search must cover, and an e-graph must hold for a run's lookups, before
/// the work is handed to rayon: below, starting its threads and waking them costs more than
/// the second core saves. A matrix chain of 20 (212 classes, runs of 1,600 matches) took
/// 14.0 ms as a process in order against 15.8-18.5 ms in parallel; one of 40 (about 800
/// classes) 0.18-0.20 s in order against 0.15 s.
const PARALLEL_MIN_CLASSES: usize = 512;

/// Matches one parallel task of a run looks up, at least.
const RUN_TASK: usize = 256;

/// Classes one parallel task of a rule's search takes (see [`search_until`]): enough that a
/// task costs well over what rayon spends handing it out.
const CLASSES_PER_TASK: usize = 64;

/// Parallel tasks of a rule's search between two looks at its match limit (see
/// [`search_until`]).
const TASKS_PER_WAVE: usize = 8;

/// Per-rule scheduling state.
struct Schedule {
    kind: Scheduler,
    /// The backoff scheduler's match limit before any ban.
    match_limit: usize,
    /// Per rule: (times banned, banned until this iteration).
    bans: Vec<(u32, usize)>,
}

impl Schedule {
    fn new(kind: Scheduler, rules: usize, match_limit: usize) -> Self {
        Schedule {
            kind,
            match_limit,
            bans: vec![(0, 0); rules],
        }
    }

    /// How many matches rule `r` may have in iteration `i` before it is banned; `None` if
    /// it is banned.
    fn threshold(&self, r: usize, i: usize) -> Option<usize> {
        match self.kind {
            Scheduler::Simple => Some(usize::MAX - 1),
            Scheduler::Backoff => {
                let (times, until) = self.bans[r];
                (i >= until).then(|| shifted(self.match_limit, times))
            }
        }
    }

    /// Rewrites were added: they start unbanned.
    fn grow(&mut self, rules: usize) {
        self.bans.resize(rules, (0, 0));
    }

    fn ban(&mut self, r: usize, i: usize) {
        let (times, until) = &mut self.bans[r];
        *until = i + shifted(BACKOFF_BAN_LENGTH, *times);
        *times += 1;
    }

    /// Nothing but banned rules could fire in iteration `i`: move every ban forward so that
    /// the earliest ban of a rule that `runs` ends now (egg's `BackoffScheduler::can_stop`).
    fn fast_forward(&mut self, i: usize, runs: impl Fn(usize) -> bool) {
        let bans = (self.bans.iter().enumerate()).filter(|&(r, _)| runs(r));
        let Some(first) = bans.map(|(_, b)| b.1).filter(|&u| u > i).min() else {
            return;
        };
        let delta = first.saturating_sub(i + 1);
        for (_, until) in &mut self.bans {
            if *until > i {
                *until -= delta;
            }
        }
    }
}

/// The backoff scheduler's match limit for a run starting on `egraph`: egg's
/// [`BACKOFF_MATCH_LIMIT`], or one match per e-class if the e-graph has more classes. A rule
/// that matches once per operation of a large program is not exploding, it is applying to
/// the whole program; banning it at a fixed 1,000 matches made the iterations (and the time
/// per instruction) grow with the program (3 iterations at 12 GPT-2 layers, 6 at 96).
fn backoff_match_limit(egraph: &PtirEGraph) -> usize {
    BACKOFF_MATCH_LIMIT.max(egraph.number_of_classes())
}

/// `x << times`, saturating.
fn shifted(x: usize, times: u32) -> usize {
    x.checked_shl(times)
        .filter(|v| v >> times == x)
        .unwrap_or(usize::MAX - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bans_double_and_fast_forward_to_the_next_iteration() {
        let mut s = Schedule::new(Scheduler::Backoff, 2, BACKOFF_MATCH_LIMIT);
        assert_eq!(s.threshold(0, 0), Some(BACKOFF_MATCH_LIMIT));
        s.ban(0, 0);
        assert_eq!(s.threshold(0, 1), None);
        assert_eq!(
            s.threshold(0, BACKOFF_BAN_LENGTH),
            Some(2 * BACKOFF_MATCH_LIMIT)
        );
        s.ban(0, 5);
        assert_eq!(s.bans[0], (2, 5 + 2 * BACKOFF_BAN_LENGTH));
        // Iteration 6 applied nothing: the ban ends at iteration 7.
        s.fast_forward(6, |_| true);
        assert_eq!(s.threshold(0, 6), None);
        assert_eq!(s.threshold(0, 7), Some(4 * BACKOFF_MATCH_LIMIT));
        assert_eq!(s.threshold(1, 7), Some(BACKOFF_MATCH_LIMIT));
        assert_eq!(shifted(usize::MAX / 2, 3), usize::MAX - 1);
    }

    /// Semi-naive search skips only matches that would change nothing: with the simple
    /// scheduler (whose decisions do not depend on how many matches are found), every
    /// iteration ends with an e-graph of the same size as a full search's, and the run stops
    /// for the same reason. On generated programs and matrix chains, with the bundled rules
    /// (fast-math included, for more merges) and with the index on and off.
    #[test]
    fn semi_naive_search_reaches_the_same_egraphs_as_a_full_search() {
        use ptir_ir::generate::{generate, matrix_chain, GenConfig};
        // The bundled rules and fuzzed ones: the shapes whose matches a union or new analysis
        // data can make.
        let fuzzed = bundled_and_fuzzed(9_000, 60);
        let mut programs: Vec<ptir_ir::Program> = (0..20)
            .map(|seed| generate(&GenConfig::new(seed, 30)))
            .collect();
        programs.extend((0..10).map(|seed| generate(&GenConfig::extended(seed, 30, vec![]))));
        programs.extend((0..2).map(|seed| matrix_chain(6, seed).unwrap().0));
        let (mut iterations, mut runs, mut contradictions) = (0, 0, 0);
        let bundled = RuleSet::bundled().unwrap();
        for (rules, pattern_index) in [(&bundled, true), (&bundled, false), (&fuzzed, true)] {
            for program in &programs {
                for f in &program.functions {
                    let run = |semi_naive| {
                        let options = SaturationOptions {
                            limits: Limits {
                                time: Duration::from_secs(600),
                                // Fast-math blow-ups of generated programs reach a limit
                                // either way; a smaller one keeps the test short.
                                nodes: Some(20_000),
                                ..Limits::default()
                            },
                            scheduler: Scheduler::Simple,
                            pattern_index,
                        };
                        let mut lowered = crate::lower(program, &f.name).ok()?;
                        let report = match semi_naive {
                            true => saturate(&mut lowered, rules, &options),
                            false => saturate_fully(&mut lowered, rules, &options),
                        };
                        let sizes: Vec<(usize, usize)> = report
                            .iterations
                            .iter()
                            .map(|i| (i.nodes, i.classes))
                            .collect();
                        // A run whose applications the node limit cut short applied the
                        // matches found first, and a semi-naive search finds fewer: such runs
                        // are compared no further than that. So are runs that paused or
                        // stopped a rule family: a full search applies matches again, and
                        // their lookups before a rebuild can add e-nodes, which count to the
                        // family's growth.
                        let cut = (report.iterations.iter())
                            .any(|i| i.cut || !i.paused.is_empty() || !i.stopped.is_empty())
                            || matches!(report.stop, StopReason::NodeLimit { .. });
                        let contradiction = holds_two_constants(&lowered.egraph) || cut;
                        Some((sizes, report.stop, report.rewrites, contradiction))
                    };
                    let (Some(semi), Some(full)) = (run(true), run(false)) else {
                        continue;
                    };
                    runs += 1;
                    if semi.3 || full.3 {
                        // Fast-math rules can merge classes of different constants (bf16
                        // reassociated). Which constant such a class keeps, and folds into its
                        // parents, depends on the order of unions and on when constraints
                        // read the data, which the two searches need not share: their
                        // e-graphs may differ in the constants and the classes made of them.
                        contradictions += 1;
                        continue;
                    }
                    assert_eq!(
                        (&semi.0, &semi.1),
                        (&full.0, &full.1),
                        "@{}:\n{program}",
                        f.name
                    );
                    // A match found again can union classes that the rebuild would have
                    // merged anyway (congruence): counted by a full search only.
                    assert!(semi.2 <= full.2, "@{}:\n{program}", f.name);
                    iterations += full.0.len();
                }
            }
        }
        assert!(iterations > 150, "only {iterations} iterations compared");
        // Most runs compare e-nodes too.
        assert!(
            contradictions * 4 <= runs,
            "{contradictions} of {runs} runs held contradictory constants"
        );
    }

    /// Whether `egraph` equates different values: a merge saw two different constants, or a
    /// class holds two constant leaves (different constants, since constants are interned).
    fn holds_two_constants(egraph: &PtirEGraph) -> bool {
        egraph.analysis.contradictions > 0
            || egraph.classes().any(|c| {
                let constants = c.nodes.iter().filter(|n| matches!(n, PtirNode::Const(_)));
                constants.count() > 1
            })
    }

    /// A search of many classes, run in parallel, gives the matches a search in class order
    /// gives, and under a limit its first ones.
    #[test]
    fn a_parallel_search_answers_as_one_in_order() {
        let rules = RuleSet::bundled().unwrap();
        let (program, _) = ptir_ir::generate::matrix_chain(40, 5).unwrap();
        let options = SaturationOptions {
            limits: Limits {
                iterations: Some(4),
                ..Limits::default()
            },
            scheduler: Scheduler::Simple,
            ..SaturationOptions::default()
        };
        let mut lowered = crate::lower(&program, &program.functions[0].name).unwrap();
        saturate(&mut lowered, &rules, &options);
        let egraph = &mut lowered.egraph;
        let (compiled, r) = crate::rules::compiled_rewrite(egraph, &rules, "dot-assoc-int");
        let rw = &compiled.rewrites[r];
        let ast = rw.searcher.get_pattern_ast().unwrap();
        let matcher = TreeMatcher::new(ast, false).unwrap();
        let ground = matcher.ground_classes(egraph).unwrap();
        let mut in_order = Vec::new();
        let classes: Vec<egg::Id> = egraph
            .classes_for_op(&matcher.root_head())
            .unwrap()
            .collect();
        assert!(
            classes.len() >= PARALLEL_MIN_CLASSES.max(2 * CLASSES_PER_TASK),
            "{} classes",
            classes.len()
        );
        for &class in &classes {
            let mut substs = Vec::new();
            let limit = usize::MAX;
            matcher.search_class(
                egraph,
                class,
                &ground,
                None,
                limit,
                &mut substs,
                &mut || false,
            );
            in_order.extend(substs.into_iter().map(|s| (class, s)));
        }
        let search = |limit| {
            let search = Search {
                only: None,
                since: None,
                limit,
                deadline: Deadline::after(Duration::from_secs(600)),
            };
            let found = search_until(rw, Some(&matcher), egraph, search).unwrap();
            let found = found.into_iter().flat_map(|m| {
                let class = m.eclass;
                m.substs.into_iter().map(move |s| (class, s))
            });
            found.collect::<Vec<_>>()
        };
        assert_eq!(search(usize::MAX), in_order);
        for limit in [1, 7, in_order.len() / 2, in_order.len() - 1] {
            assert_eq!(search(limit), in_order[..limit], "limit {limit}");
        }
    }

    #[test]
    fn a_class_turned_constant_by_a_union_is_searched_again() {
        // `x - x` becomes a new `splat 0`, a class with no parents: the union changes only
        // the analysis data of `%d`'s class, and `y + %d` is a match from then on.
        let program = ptir_ir::parse(
            "func @f(%x: i32[4], %y: i32[4]) -> (i32[4]) {\n  %d = sub %x, %x : i32[4]\n  \
             %r = add %y, %d : i32[4]\n  return %r\n}",
        )
        .unwrap();
        let mut rules = RuleSet::new(ptir_rules::Registry::standard());
        // `drop-zero` first: in the first iteration it is applied before `%d` is constant.
        let text = "(rule drop-zero :labels (t) (add ?x (splat 0)) => ?x :when ((int ?x)))\n\
                    (rule zero-self :labels (t) (sub ?x ?x) => (splat 0) :when ((int ?x)))";
        rules.add_source("t.rules", text).unwrap();
        for semi_naive in [true, false] {
            let options = SaturationOptions {
                scheduler: Scheduler::Simple,
                ..SaturationOptions::default()
            };
            let mut lowered = crate::lower(&program, "f").unwrap();
            let report = match semi_naive {
                true => saturate(&mut lowered, &rules, &options),
                false => saturate_fully(&mut lowered, &rules, &options),
            };
            let fired: Vec<_> = (report.iterations.iter())
                .map(|i| i.applied.keys().cloned().collect::<Vec<_>>())
                .collect();
            assert_eq!(
                fired[..2],
                [["zero-self"], ["drop-zero"]],
                "semi-naive {semi_naive}"
            );
        }
    }

    #[test]
    fn the_index_query_stops_at_the_deadline() {
        let rules = RuleSet::bundled().unwrap();
        let program = ptir_ir::generate::generate(&ptir_ir::generate::GenConfig::new(3, 40));
        let lowered = crate::lower(&program, &program.functions[0].name).unwrap();
        let index = rules.index();
        let pruning = index.pruning(|_| false);
        let ask = |deadline| newly_found(index, &lowered.egraph, &pruning, None, deadline);
        let in_time = ask(Deadline::after(Duration::from_secs(600)));
        assert!(in_time.iter().any(|&f| f), "the index finds some rule");
        let late = ask(Deadline::after(Duration::ZERO));
        assert!(
            late.iter().all(|&f| !f),
            "a query past the deadline asks nothing"
        );
    }

    #[test]
    fn a_family_doubling_twice_running_grows_at_its_last_rate_next() {
        // 40 now, twice the last iteration's 20: 2 * 40 next.
        assert_eq!(next_growth([10, 20, 40]), Some(80));
        // Not doubled twice running, or nothing to compare with.
        assert_eq!(next_growth([10, 15, 40]), None);
        assert_eq!(next_growth([0, 20, 40]), None);
        // The factor is capped, and nothing overflows.
        assert_eq!(next_growth([1, 10, 1_000]), Some(8_000));
        assert_eq!(
            next_growth([1, usize::MAX / 2, usize::MAX]),
            Some(usize::MAX)
        );
    }

    #[test]
    fn a_family_past_its_budget_is_paused_once_and_resumed_without_one() {
        let mut families = Families::new(10, 110);
        assert_eq!(families.budget, 100 / FAMILY_BUDGET_PARTS);
        let (a, b) = (families.intern("a"), families.intern("b"));
        assert_eq!(families.intern("a"), a);
        families.grew(a, 30);
        families.grew(b, 51);
        families.grew(b, 5);
        assert!(!families.held(a) && families.held(b));
        let mut report = IterationReport::default();
        families.end_iteration(1_000, &mut report);
        let pause = Pause {
            family: "b".into(),
            nodes: 51,
            budget: 50,
            projected: None,
        };
        assert_eq!(report.paused, [pause]);
        assert_eq!(
            report.growth,
            IndexMap::from([("a".into(), 30), ("b".into(), 56)])
        );
        // An iteration that grew nothing leaves the rate's history as it was.
        let mut report = IterationReport::default();
        families.end_iteration(1_000, &mut report);
        assert!(report.paused.is_empty() && report.growth.is_empty());
        assert_eq!(families.growth[a].recent, [0, 30, 0]);
        assert_eq!(families.resume(), ["b"]);
        assert!(families.resume().is_empty());
        // Resumed, it has no budget.
        families.grew(b, 1_000);
        assert!(!families.held(b));
    }

    #[test]
    fn a_family_alone_in_growing_is_not_paused_at_its_budget() {
        let mut families = Families::new(0, 100);
        let (a, b) = (families.intern("a"), families.intern("b"));
        families.grew(a, 80);
        let mut report = IterationReport::default();
        families.end_iteration(1_000, &mut report);
        assert!(!families.held(a) && report.paused.is_empty());
        // Once another family grows, the one past its budget gives way.
        families.grew(b, 1);
        families.grew(a, 1);
        assert!(families.held(a) && !families.held(b));
    }

    #[test]
    fn a_family_whose_rate_would_pass_the_node_limit_is_stopped_for_good() {
        let mut families = Families::new(0, 1_000);
        let a = families.intern("a");
        for (grown, room) in [(10, 990), (20, 970), (40, 930)] {
            let mut report = IterationReport::default();
            families.grew(a, grown);
            families.end_iteration(room, &mut report);
            assert!(report.stopped.is_empty() && report.paused.is_empty());
        }
        // 70 added, then 120: 3x its last, 360 next, past the 300 left.
        let mut report = IterationReport::default();
        families.grew(a, 120);
        families.end_iteration(300, &mut report);
        let stop = StopReason::RunawayFamily {
            family: "a".into(),
            nodes: 190,
            next: 360,
            room: 300,
        };
        assert_eq!(report.stopped, [stop]);
        assert!(families.held(a) && families.resume().is_empty());
    }

    #[test]
    fn the_simple_scheduler_bans_nothing() {
        let s = Schedule::new(Scheduler::Simple, 1, BACKOFF_MATCH_LIMIT);
        assert!(s.threshold(0, 100).is_some());
    }
}
