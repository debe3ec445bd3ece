//! Exact DAG extraction: a 0-1 integer program solved by `microlp` (pure Rust), with cycles
//! forbidden lazily, under a time limit that falls back to the greedy answer.
//!
//! The formulation and its story are on [`ExactDagExtractor`].

use std::time::{Duration, Instant};

use super::cuts::separate;
use super::graph::Graph;
use super::greedy::GreedyDagExtractor;
use super::ilp::{Cut, Model, Relaxation};
use super::reduce::Reduced;
use super::{Extraction, Extractor};

/// Default time limit of the exact extractor: 10 s of wall-clock time for the whole solve
/// (greedy start, model building and every ILP round). Past it the best answer found so far
/// is returned with [`ExactOutcome::optimal`] false.
pub const EXACT_TIME_LIMIT: Duration = Duration::from_secs(10);

/// At most this many rounds of root cutting planes (LP solve, separation) are run.
const ROOT_CUT_ROUNDS_LIMIT: usize = 50;

/// Optimal DAG extraction within a time limit: a 0-1 integer program solved by `microlp` (pure
/// Rust), with cycles forbidden lazily; on the time limit it falls back to the greedy answer.
///
/// The story of [`ExactDagExtractor::solve`]:
///
/// 1. The greedy extractor gives an incumbent (and the answer, if the ILP does not finish).
/// 2. The graph is reduced: only nodes an optimal extraction can use are
///    kept, dominated nodes are dropped, and single-parent classes are merged into their
///    parent; an answer for the reduced graph is expanded back at the end. With non-negative
///    costs, nodes that cannot beat the incumbent are dropped too: a node's cost plus the
///    cheapest cost of every class that any term using it must contain (the roots' and its
///    children's must-sets) is a lower bound on any answer that uses it, and so is its cost
///    plus the DAG lower bounds of children that cannot share a class (which proves, say, the
///    complete associativity closure of a sum optimal without any LP).
/// 3. A binary `x[n]` per node, minimizing `sum cost[n] * x[n]`, subject to: a root class
///    chooses exactly one node, any other class at most one; a chosen node's child classes
///    choose a node (`x[n] <= sum x[m]`, `m` in the child class). With negative costs a
///    class may also be chosen only if some chosen node uses it (otherwise the solver would
///    pick every negative node), which with acyclicity makes every chosen class reachable.
///    A cutoff row asks for a cost below the incumbent's (by 1 if costs are integers, else
///    by a relative 1e-6), so that the solver prunes with it from the start; "infeasible"
///    then proves the incumbent optimal. With integer costs a bound within less than 1 of
///    the solver's best answer also proves it optimal.
/// 4. Root cutting planes tighten the linear relaxation, for up to a quarter of the time
///    left: solve it, add the rows it violates among the *implications* `y[r] >= y[c]` (every
///    term of class `c` contains class `r`; `y` is a class's sum of `x`) and the
///    cycle inequalities, and solve again. On babble's e-graphs this is what
///    makes proofs take tenths of a second instead of timing out.
/// 5. Acyclicity of the integer answer is lazy: solve the ILP; if the chosen nodes form cycles
///    of classes, add their cycle inequalities and solve again. Every cut holds for every
///    acyclic extraction, so an acyclic optimum of the cut model is optimal.
/// 6. On the time limit (or a solver failure) the best acyclic answer found, at worst the
///    greedy one, is returned with `optimal == false` and the solver's lower bound.
///
/// The linear relaxation is what limits the proofs: where it stays far from the optimum even
/// with the cuts (choices that look cheap fractionally, as in a MaxSAT encoding of max-cut),
/// branch and bound cannot close the gap in seconds.
///
/// ```
/// use ptir_extract::{ExactDagExtractor, Extractor, Graph};
/// let mut b = Graph::builder();
/// let (x, y, r) = (b.class("x"), b.class("y"), b.class("r"));
/// b.add_node(x, "x", 3.0, &[]);
/// b.add_node(y, "y", 2.0, &[]);
/// b.add_node(y, "fx", 0.5, &[x]);
/// b.add_node(r, "g", 1.0, &[x, y]);
/// b.add_root(r);
/// let g = b.build().unwrap();
/// let out = ExactDagExtractor::default().solve(&g);
/// assert!(out.optimal);
/// assert_eq!(out.extraction.dag_cost(&g), 4.5); // g, x once, fx
/// ```
#[derive(Debug, Clone, Copy)]
pub struct ExactDagExtractor {
    time_limit: Duration,
}

impl Default for ExactDagExtractor {
    fn default() -> Self {
        ExactDagExtractor {
            time_limit: EXACT_TIME_LIMIT,
        }
    }
}

/// The exact extractor's answer and whether it is proved optimal.
#[derive(Debug, Clone)]
pub struct ExactOutcome {
    /// The extraction: optimal if `optimal`, else the best found (at worst the greedy one).
    pub extraction: Extraction,
    /// Whether the ILP proved `extraction` optimal (within the solver's 1e-7 tolerances).
    pub optimal: bool,
    /// ILP rounds solved (one plus the rounds that added cycle cuts).
    pub rounds: usize,
    /// Cycle cuts added in all.
    pub cuts: usize,
    /// Variables of the model after pruning.
    pub variables: usize,
    /// The best lower bound on the optimal DAG cost that the solver proved (`-inf` if none):
    /// how far a non-optimal answer may be from the optimum.
    pub lower_bound: f64,
}

impl ExactDagExtractor {
    /// Sets the time limit (default [`EXACT_TIME_LIMIT`]).
    pub fn with_time_limit(mut self, limit: Duration) -> Self {
        self.time_limit = limit;
        self
    }

    /// Extracts with a proof of optimality, or the best answer when the time limit hits.
    pub fn solve(&self, graph: &Graph) -> ExactOutcome {
        let deadline = Instant::now() + self.time_limit;
        let greedy_limit = (self.time_limit / 10).min(super::GREEDY_IMPROVE_TIME_LIMIT);
        let greedy = GreedyDagExtractor::default()
            .with_improve_time_limit(greedy_limit)
            .extract(graph);
        let reduced = Reduced::new(graph);
        let target = reduced.as_ref().map_or(graph, |r| &r.graph);
        let model = Model::new(target, greedy.dag_cost(graph));
        let mut out = ExactOutcome {
            extraction: greedy,
            optimal: false,
            rounds: 0,
            cuts: 0,
            variables: model.nodes.len(),
            lower_bound: f64::NEG_INFINITY,
        };
        let mut cuts: Vec<Cut> = Vec::new();
        let incumbent = out.extraction.dag_cost(graph);
        if !root_cuts(&model, target, incumbent, &mut cuts, &mut out, deadline) {
            ilp_rounds(&model, graph, reduced.as_ref(), cuts, &mut out, deadline);
        }
        out
    }
}

/// Solves the ILP, adding the cycle inequalities of cyclic answers, until an acyclic answer,
/// a proof that the incumbent is optimal, or the deadline.
fn ilp_rounds(
    model: &Model,
    graph: &Graph,
    reduced: Option<&Reduced>,
    mut cuts: Vec<Cut>,
    out: &mut ExactOutcome,
    deadline: Instant,
) {
    let target = reduced.map_or(graph, |r| &r.graph);
    let incumbent = out.extraction.dag_cost(graph);
    while Instant::now() < deadline {
        out.rounds += 1;
        let Some(round) = model.solve(target, &cuts, incumbent, deadline) else {
            return;
        };
        let bound = round.bound.unwrap_or(f64::NEG_INFINITY);
        out.lower_bound = out.lower_bound.max(bound);
        let Some(choice) = round.choice else {
            out.optimal = round.proved;
            return;
        };
        let cycles = model.cycles(target, &choice);
        if cycles.is_empty() {
            // The cutoff row makes the answer cheaper than the incumbent, up to round-off.
            let found = Extraction::from_choices(target, |c| choice[c.index()]);
            let found = reduced.map_or(found.clone(), |r| r.expand(graph, &found));
            if found.dag_cost(graph) <= incumbent + 1e-9 * incumbent.abs().max(1.0) {
                out.extraction = found;
            }
            out.optimal = round.proved;
            return;
        }
        out.cuts += cycles.len();
        cuts.extend(cycles.into_iter().map(Cut::Cycle));
    }
}

impl Extractor for ExactDagExtractor {
    fn extract(&self, graph: &Graph) -> Extraction {
        self.solve(graph).extraction
    }
}

/// Root cutting planes: solves the relaxation and adds the violated implications and cycle
/// inequalities
/// until none is left, for at most [`ROOT_CUT_ROUNDS_LIMIT`] rounds and a quarter of the
/// remaining time. Returns true if that already proved the incumbent optimal.
fn root_cuts(
    model: &Model,
    graph: &Graph,
    incumbent: f64,
    cuts: &mut Vec<Cut>,
    out: &mut ExactOutcome,
    deadline: Instant,
) -> bool {
    let now = Instant::now();
    let stop = now + deadline.saturating_duration_since(now) / 4;
    for _ in 0..ROOT_CUT_ROUNDS_LIMIT {
        if Instant::now() >= stop {
            break;
        }
        match model.relaxation(graph, cuts, incumbent, stop) {
            Relaxation::Infeasible => {
                (out.optimal, out.lower_bound) = (true, incumbent);
                return true;
            }
            Relaxation::Failed => break,
            Relaxation::Solved(x, objective) => {
                out.lower_bound = out.lower_bound.max(objective);
                let mut new = model.violated_implications(&x);
                let cycles = separate(graph, &model.nodes, &x);
                new.extend(cycles.into_iter().map(Cut::Cycle));
                if new.is_empty() {
                    break;
                }
                out.cuts += new.len();
                cuts.extend(new);
            }
        }
    }
    false
}
