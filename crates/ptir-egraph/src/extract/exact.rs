//! Exact DAG extraction: a 0-1 integer program solved by `microlp` (pure Rust), with cycles
//! forbidden lazily, under a time limit that falls back to the greedy answer.
//!
//! The story of [`ExactDagExtractor::solve`]:
//!
//! 1. The greedy extractor gives an incumbent (and the answer, if the ILP does not finish).
//! 2. The graph is [reduced](super::reduce): only nodes an optimal extraction can use are
//!    kept, dominated nodes are dropped, and single-parent classes are merged into their
//!    parent; an answer for the reduced graph is expanded back at the end.
//! 3. A binary `x[n]` per node, minimizing `sum cost[n] * x[n]`, subject to: a root class
//!    chooses exactly one node, any other class at most one; a chosen node's child classes
//!    choose a node (`x[n] <= sum x[m]`, `m` in the child class). With negative costs a
//!    class may also be chosen only if some chosen node uses it (otherwise the solver would
//!    pick every negative node), which with acyclicity makes every chosen class reachable.
//!    A cutoff row asks for a cost below the incumbent's (by 1 if costs are integers, else
//!    by a relative 1e-6), so that the solver prunes with it from the start; "infeasible"
//!    then proves the incumbent optimal. With integer costs a bound within less than 1 of
//!    the solver's best answer also proves it optimal.
//! 4. Acyclicity is lazy: solve; if the chosen nodes form a cycle of classes `c1 .. ck`, add
//!    the cut "at most `k - 1` of the edges `ci -> ci+1` are chosen" (each edge being any node
//!    of `ci` with child `ci+1`) for every cycle found, and solve again. The cuts hold for
//!    every acyclic extraction, so an acyclic optimum of the cut model is optimal.
//! 5. On the time limit (or a solver failure) the best acyclic answer found, at worst the
//!    greedy one, is returned with `optimal == false` and the solver's lower bound.
//!
//! The linear relaxation is what limits the proofs: where it is far from the optimum (sharing
//! that looks cheap fractionally, as in babble's library-learning e-graphs or a MaxSAT
//! encoding), branch and bound cannot close the gap in seconds.

use std::time::{Duration, Instant};

use microlp::{
    ComparisonOp, LinearExpr, OptimizationDirection, Problem, SolutionStatus, SolveOptions,
    TerminationReason, Variable,
};

use super::cuts::{must_sets, separate};
use super::graph::{ClassId, Graph, NodeId};
use super::greedy::GreedyDagExtractor;
use super::improve::{find_cycle, Choice};
use super::reduce::Reduced;
use super::{Extraction, Extractor};

/// Default time limit of the exact extractor: 10 s of wall-clock time for the whole solve
/// (greedy start, model building and every ILP round). Past it the best answer found so far
/// is returned with [`ExactOutcome::optimal`] false.
pub const EXACT_TIME_LIMIT: Duration = Duration::from_secs(10);

/// Implication rows are only computed for models of at most this many classes (the
/// fixpoint takes a bit set per class).
const IMPLIED_CLASSES_LIMIT: usize = 20_000;

/// At most this many implication rows are added.
const IMPLIED_ROWS_LIMIT: usize = 20_000;

/// At most this many violated implication rows are added per round of root cutting planes.
const IMPLIED_CUTS_LIMIT: usize = 2_000;

/// At most this many rounds of root cutting planes (LP solve, separation) are run.
const ROOT_CUT_ROUNDS_LIMIT: usize = 50;

/// At most this many cycle cuts are added per ILP round: enough to cut every cycle of a
/// solution in practice, few enough to keep a round's model small.
const CUTS_PER_ROUND_LIMIT: usize = 256;

/// Optimal DAG extraction within a time limit (see the [module docs](self)).
///
/// ```
/// use ptir_egraph::extract::{ExactDagExtractor, Extractor, Graph};
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

/// A valid inequality added to the model.
enum Cut {
    /// The cycle inequality of [`cuts`](super::cuts), anchored at the first class.
    Cycle(Vec<ClassId>),
    /// `y[needs] >= y[class]`: every term of `class` contains `needs`.
    Implies {
        /// The class whose terms all contain `needs`.
        class: ClassId,
        /// The class they contain.
        needs: ClassId,
    },
}

/// The linear relaxation's answer.
enum Relaxation {
    /// The values of `x` and the objective.
    Solved(Vec<f64>, f64),
    /// Nothing beats the incumbent.
    Infeasible,
    /// Time limit or solver failure.
    Failed,
}

/// One ILP round's answer: the chosen node per class, whether it is proved optimal for the
/// model, and the solver's lower bound.
struct Round {
    /// `None` when the solver found nothing better than the incumbent.
    choice: Option<Choice>,
    proved: bool,
    bound: Option<f64>,
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
        let model = Model::new(target);
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
        if model.root_cuts(target, incumbent, &mut cuts, &mut out, deadline) {
            return out;
        }
        while Instant::now() < deadline {
            out.rounds += 1;
            let incumbent = out.extraction.dag_cost(graph);
            let Some(round) = model.solve(target, &cuts, incumbent, deadline) else {
                break;
            };
            out.lower_bound = out
                .lower_bound
                .max(round.bound.unwrap_or(f64::NEG_INFINITY));
            let Some(choice) = round.choice else {
                out.optimal = round.proved;
                break;
            };
            let cycles = model.cycles(target, &choice);
            if cycles.is_empty() {
                let found = Extraction::from_choices(target, |c| choice[c.index()]);
                let found = reduced
                    .as_ref()
                    .map_or(found.clone(), |r| r.expand(graph, &found));
                if found.dag_cost(graph) <= incumbent || round.proved {
                    out.extraction = found;
                }
                out.optimal = round.proved;
                break;
            }
            out.cuts += cycles.len();
            cuts.extend(cycles.into_iter().map(Cut::Cycle));
        }
        out
    }
}

impl Model {
    /// Root cutting planes: solves the relaxation and adds the violated cycle inequalities
    /// until none is left, for at most [`ROOT_CUT_ROUNDS_LIMIT`] rounds and a quarter of the
    /// remaining time. Returns true if that already proved the incumbent optimal.
    fn root_cuts(
        &self,
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
            match self.relaxation(graph, cuts, incumbent, stop) {
                Relaxation::Infeasible => {
                    (out.optimal, out.lower_bound) = (true, incumbent);
                    return true;
                }
                Relaxation::Failed => break,
                Relaxation::Solved(x, objective) => {
                    out.lower_bound = out.lower_bound.max(objective);
                    let mut new = self.violated_implications(&x);
                    new.extend(separate(graph, &self.nodes, &x).into_iter().map(Cut::Cycle));
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
}

impl Extractor for ExactDagExtractor {
    fn extract(&self, graph: &Graph) -> Extraction {
        self.solve(graph).extraction
    }
}

/// The pruned node set of the ILP and its variables' order.
struct Model {
    /// The model's nodes; `x[i]` is `nodes[i]`'s variable.
    nodes: Vec<NodeId>,
    /// The model's classes, each with its model nodes.
    classes: Vec<(ClassId, Vec<u32>)>,
    /// `slot[c]`: index of class `c` in `classes`, or `u32::MAX` if not in the model.
    slot: Vec<u32>,
    integral: bool,
    /// Pairs `(c, r)`: every term of class `c` contains class `r` (see
    /// [`must_sets`]), so the row `y[r] >= y[c]` holds.
    implied: Vec<(ClassId, ClassId)>,
}

impl Model {
    fn new(graph: &Graph) -> Self {
        let productive = graph.productive_classes();
        let keep = |n: NodeId| {
            graph.is_usable(n) && graph.children(n).iter().all(|d| productive[d.index()])
        };
        let candidates: Vec<Vec<NodeId>> = graph
            .classes()
            .map(|c| graph.node_ids(c).filter(|&n| keep(n)).collect())
            .collect();
        let mut model = Model {
            nodes: Vec::new(),
            classes: Vec::new(),
            slot: vec![u32::MAX; graph.num_classes()],
            integral: false,
            implied: Vec::new(),
        };
        let mut seen = vec![false; graph.num_classes()];
        let mut stack: Vec<ClassId> = graph.roots().to_vec();
        while let Some(c) = stack.pop() {
            if std::mem::replace(&mut seen[c.index()], true) {
                continue;
            }
            let mut vars = Vec::with_capacity(candidates[c.index()].len());
            for &n in &candidates[c.index()] {
                vars.push(model.nodes.len() as u32);
                model.nodes.push(n);
                stack.extend(graph.children(n).iter().filter(|d| !seen[d.index()]));
            }
            model.slot[c.index()] = model.classes.len() as u32;
            model.classes.push((c, vars));
        }
        model.integral = !graph.has_negative_cost()
            && model.nodes.iter().all(|&n| graph.cost(n).fract() == 0.0)
            && model.nodes.iter().map(|&n| graph.cost(n)).sum::<f64>() < 1e15;
        model.implied = model.implications(graph);
        model
    }

    /// The pairs of [`Model::implied`], roots' first, at most [`IMPLIED_ROWS_LIMIT`].
    fn implications(&self, graph: &Graph) -> Vec<(ClassId, ClassId)> {
        if self.classes.len() > IMPLIED_CLASSES_LIMIT {
            return Vec::new();
        }
        let groups: Vec<(ClassId, Vec<NodeId>)> = self
            .classes
            .iter()
            .map(|(c, vars)| (*c, vars.iter().map(|&v| self.nodes[v as usize]).collect()))
            .collect();
        let must = must_sets(graph, &groups);
        let mut order: Vec<ClassId> = self.classes.iter().map(|(c, _)| *c).collect();
        order.sort_by_key(|c| !graph.roots().contains(c));
        let mut implied = Vec::new();
        for c in order {
            let m = &must[c.index()];
            for &r in m {
                // Skip rows implied by two others: r in must(s), s in must(c).
                let via = |&s: &u32| {
                    s != r && s as usize != c.index() && must[s as usize].binary_search(&r).is_ok()
                };
                let r = ClassId(r);
                let useful = r != c && self.slot[r.index()] != u32::MAX;
                if useful
                    && !(m.len() <= 256 && m.iter().any(via))
                    && implied.len() < IMPLIED_ROWS_LIMIT
                {
                    implied.push((c, r));
                }
            }
        }
        implied
    }

    /// The model with `cuts` and the cutoff below `incumbent`; binary or, if `relax`, in
    /// `[0, 1]`.
    fn build(
        &self,
        graph: &Graph,
        cuts: &[Cut],
        incumbent: f64,
        relax: bool,
    ) -> (Problem, Vec<Variable>) {
        let mut problem = Problem::new(OptimizationDirection::Minimize);
        let x: Vec<Variable> = self
            .nodes
            .iter()
            .map(|&n| match relax {
                true => problem.add_var(graph.cost(n), (0.0, 1.0)),
                false => problem.add_binary_var(graph.cost(n)),
            })
            .collect();
        self.add_class_rows(graph, &mut problem, &x);
        for cut in cuts {
            match cut {
                Cut::Cycle(cycle) => self.add_cut(graph, &mut problem, &x, cycle),
                Cut::Implies { class, needs } => self.add_implied(&mut problem, &x, *class, *needs),
            }
        }
        self.add_cutoff(graph, &mut problem, &x, incumbent);
        (problem, x)
    }

    /// Solves the linear relaxation until `deadline`.
    fn relaxation(
        &self,
        graph: &Graph,
        cuts: &[Cut],
        incumbent: f64,
        deadline: Instant,
    ) -> Relaxation {
        let (mut problem, x) = self.build(graph, cuts, incumbent, true);
        problem.set_time_limit(deadline.saturating_duration_since(Instant::now()));
        match problem.solve().map(|o| o.into_solution()) {
            Ok(Ok(s)) => {
                Relaxation::Solved(x.iter().map(|&v| s.var_value(v)).collect(), s.objective())
            }
            Err(microlp::Error::Infeasible) => Relaxation::Infeasible,
            _ => Relaxation::Failed,
        }
    }

    /// Solves the ILP with `cuts` until `deadline`. Returns the chosen node per class and
    /// whether the solver proved it optimal, or `None` if the solver failed.
    fn solve(
        &self,
        graph: &Graph,
        cuts: &[Cut],
        incumbent: f64,
        deadline: Instant,
    ) -> Option<Round> {
        let (problem, x) = self.build(graph, cuts, incumbent, false);
        // No warm start from the greedy answer: a hint turns off microlp's dual fixing, which
        // measured slower on extraction-gym than the cutoff row above.
        let mut options = SolveOptions::default();
        if self.integral && incumbent > 0.0 {
            // Integral costs: a bound within less than 1 of the incumbent proves it optimal.
            options.mip_gap = 0.999 / incumbent;
        }
        options.time_limit = Some(deadline.saturating_duration_since(Instant::now()));
        let outcome = match problem.solve_with(options) {
            Ok(outcome) => outcome,
            // Nothing beats the incumbent: it is optimal.
            Err(microlp::Error::Infeasible) => {
                return Some(Round {
                    choice: None,
                    proved: true,
                    bound: Some(incumbent),
                })
            }
            Err(_) => return None,
        };
        let bound = outcome.stats().best_bound;
        let Some(solution) = outcome.solution() else {
            return Some(Round {
                choice: None,
                proved: false,
                bound,
            });
        };
        let mut choice = vec![None; graph.num_classes()];
        for (&n, &v) in self.nodes.iter().zip(&x) {
            let c = graph.class_of(n).index();
            if solution.var_value(v) > 0.5 && choice[c].is_none() {
                choice[c] = Some(n);
            }
        }
        let gap_proof = self.integral && solution.termination_reason() == TerminationReason::MipGap;
        let proved = solution.status() == SolutionStatus::Optimal || gap_proof;
        Some(Round {
            choice: Some(choice),
            proved,
            bound,
        })
    }

    /// The cutoff row: only answers better than the incumbent are sought, by at least 1 with
    /// integral costs, else by a relative 1e-6 (so "optimal" means within that of the optimum).
    fn add_cutoff(&self, graph: &Graph, problem: &mut Problem, x: &[Variable], incumbent: f64) {
        let integral = self.nodes.iter().all(|&n| graph.cost(n).fract() == 0.0);
        let step = if integral {
            1.0
        } else {
            1e-6 * incumbent.abs().max(1.0)
        };
        let mut row = LinearExpr::empty();
        for (&n, &v) in self.nodes.iter().zip(x) {
            if graph.cost(n) != 0.0 {
                row.add(v, graph.cost(n));
            }
        }
        problem.add_constraint(row, ComparisonOp::Le, incumbent - step);
    }

    /// The implication row `y[needs] >= y[class]`.
    fn add_implied(&self, problem: &mut Problem, x: &[Variable], class: ClassId, needs: ClassId) {
        let mut row = self.class_expr(needs, x, 1.0);
        for v in self.model_nodes(class) {
            row.add(x[v], -1.0);
        }
        problem.add_constraint(row, ComparisonOp::Ge, 0.0);
    }

    /// The implications of [`Model::implied`] that the LP solution `x` violates.
    fn violated_implications(&self, x: &[f64]) -> Vec<Cut> {
        let y = |c: ClassId| self.model_nodes(c).map(|v| x[v]).sum::<f64>();
        let violated = |&&(c, r): &&(ClassId, ClassId)| y(r) < y(c) - 1e-4;
        let cut = |&(class, needs): &(ClassId, ClassId)| Cut::Implies { class, needs };
        self.implied
            .iter()
            .filter(violated)
            .take(IMPLIED_CUTS_LIMIT)
            .map(cut)
            .collect()
    }

    /// The class rows: one node per root, at most one elsewhere, children chosen, and (with
    /// negative costs) no class chosen without a chosen parent.
    fn add_class_rows(&self, graph: &Graph, problem: &mut Problem, x: &[Variable]) {
        let mut parents: Vec<Vec<u32>> = vec![Vec::new(); graph.num_classes()];
        for (i, &n) in self.nodes.iter().enumerate() {
            let children = graph.children(n);
            for (k, &d) in children.iter().enumerate() {
                if children[..k].contains(&d) {
                    continue;
                }
                parents[d.index()].push(i as u32);
                let mut row = self.class_expr(d, x, -1.0);
                row.add(x[i], 1.0);
                problem.add_constraint(row, ComparisonOp::Le, 0.0);
            }
        }
        for (c, _) in &self.classes {
            let row = self.class_expr(*c, x, 1.0);
            if graph.roots().contains(c) {
                problem.add_constraint(row, ComparisonOp::Eq, 1.0);
                continue;
            }
            problem.add_constraint(row, ComparisonOp::Le, 1.0);
            if graph.has_negative_cost() {
                let mut row = self.class_expr(*c, x, 1.0);
                for &p in &parents[c.index()] {
                    row.add(x[p as usize], -1.0);
                }
                problem.add_constraint(row, ComparisonOp::Le, 0.0);
            }
        }
    }

    /// `sign * sum x[n]` over the model nodes of `class`.
    fn class_expr(&self, class: ClassId, x: &[Variable], sign: f64) -> LinearExpr {
        let mut expr = LinearExpr::empty();
        for n in self.model_nodes(class) {
            expr.add(x[n], sign);
        }
        expr
    }

    fn model_nodes(&self, class: ClassId) -> impl Iterator<Item = usize> + '_ {
        let i = self.slot.get(class.index()).filter(|&&i| i != u32::MAX);
        i.into_iter()
            .flat_map(move |i| self.classes[*i as usize].1.iter().map(|&v| v as usize))
    }

    /// The cycle inequality of [`cuts`](super::cuts) for `cycle`, anchored at `cycle[0]`:
    /// `sum x` on the cycle at the anchor `<= sum x` off the cycle at the other classes.
    fn add_cut(&self, graph: &Graph, problem: &mut Problem, x: &[Variable], cycle: &[ClassId]) {
        let mut expr = LinearExpr::empty();
        for (i, &c) in cycle.iter().enumerate() {
            let next = cycle[(i + 1) % cycle.len()];
            for v in self.model_nodes(c) {
                let on = graph.children(self.nodes[v]).contains(&next);
                match (i == 0, on) {
                    (true, true) => expr.add(x[v], 1.0),
                    (false, false) => expr.add(x[v], -1.0),
                    _ => {}
                }
            }
        }
        problem.add_constraint(expr, ComparisonOp::Le, 0.0);
    }

    /// Cycles of the chosen nodes that matter: all of them with negative costs, else those
    /// reachable from the roots. Up to [`CUTS_PER_ROUND_LIMIT`], each broken before the next
    /// is sought.
    fn cycles(&self, graph: &Graph, choice: &Choice) -> Vec<Vec<ClassId>> {
        let mut choice = choice.clone();
        if !graph.has_negative_cost() {
            let reachable = reachable(graph, &choice);
            for c in graph.classes() {
                if !reachable[c.index()] {
                    choice[c.index()] = None;
                }
            }
        }
        let mut cycles = Vec::new();
        while cycles.len() < CUTS_PER_ROUND_LIMIT {
            let Some(cycle) = find_cycle(graph, &choice) else {
                break;
            };
            choice[cycle[0].index()] = None;
            cycles.push(cycle);
        }
        cycles
    }
}

/// Classes reachable from the roots through the chosen nodes (cycles allowed).
fn reachable(graph: &Graph, choice: &Choice) -> Vec<bool> {
    let mut seen = vec![false; graph.num_classes()];
    let mut stack: Vec<ClassId> = graph.roots().to_vec();
    while let Some(c) = stack.pop() {
        if std::mem::replace(&mut seen[c.index()], true) {
            continue;
        }
        if let Some(n) = choice[c.index()] {
            stack.extend_from_slice(graph.children(n));
        }
    }
    seen
}
