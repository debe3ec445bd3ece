//! The exact extractor's 0-1 program over a (reduced) graph, built and solved with `microlp`.
//!
//! See the [exact module](super::exact) for the formulation. [`Model`] holds the variables
//! (one per usable node of a class reachable from the roots) and the implications between
//! classes; each solve builds a fresh `microlp` problem with the cuts found so far.

use std::time::Instant;

use microlp::{
    ComparisonOp, LinearExpr, OptimizationDirection, Problem, SolutionStatus, SolveOptions,
    SolveOutcome, TerminationReason, Variable,
};

use super::cuts::{dag_lower_bounds, must_sets, node_lower_bound, reach_sets, ClassSets};
use super::graph::{ClassId, Graph, NodeId};
use super::improve::{find_cycle, Choice};

/// Implication rows are only computed for models of at most this many classes (the
/// fixpoint takes a bit set per class).
const IMPLIED_CLASSES_LIMIT: usize = 20_000;

/// At most this many implication rows are added.
const IMPLIED_ROWS_LIMIT: usize = 20_000;

/// At most this many violated implication rows are added per round of root cutting planes.
const IMPLIED_CUTS_LIMIT: usize = 2_000;

/// The disjoint-children bound of [`fix_by_cost`] needs a bit set per class: it runs on
/// graphs of at most this many classes.
const DISJOINT_BOUND_CLASSES_LIMIT: usize = 5_000;

/// At most this many rounds of the disjoint-children bound's fixpoint.
const DISJOINT_BOUND_ROUNDS_LIMIT: usize = 64;

/// Cost fixing ([`fix_by_cost`]) runs on graphs of at most this many nodes.
const COST_FIXING_NODES_LIMIT: usize = 50_000;

/// At most this many cycle cuts are added per ILP round: enough to cut every cycle of a
/// solution in practice, few enough to keep a round's model small.
const CUTS_PER_ROUND_LIMIT: usize = 256;

/// A valid inequality added to the model.
pub(crate) enum Cut {
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
pub(crate) enum Relaxation {
    /// The values of `x` and the objective.
    Solved(Vec<f64>, f64),
    /// Nothing beats the incumbent.
    Infeasible,
    /// Time limit or solver failure.
    Failed,
}

/// One ILP round's answer: the chosen node per class, whether it is proved optimal for the
/// model, and the solver's lower bound.
pub(crate) struct Round {
    /// `None` when the solver found nothing better than the incumbent.
    pub(crate) choice: Option<Choice>,
    pub(crate) proved: bool,
    pub(crate) bound: Option<f64>,
}

/// The pruned node set of the ILP and its variables' order.
pub(crate) struct Model {
    /// The model's nodes; `x[i]` is `nodes[i]`'s variable.
    pub(crate) nodes: Vec<NodeId>,
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
    pub(crate) fn new(graph: &Graph, incumbent: f64) -> Self {
        let productive = graph.productive_classes();
        let keep = |n: NodeId| {
            graph.is_usable(n) && graph.children(n).iter().all(|d| productive[d.index()])
        };
        let mut candidates: Vec<Vec<NodeId>> = graph
            .classes()
            .map(|c| graph.node_ids(c).filter(|&n| keep(n)).collect())
            .collect();
        if !graph.has_negative_cost() && graph.num_nodes() <= COST_FIXING_NODES_LIMIT {
            fix_by_cost(graph, &mut candidates, incumbent);
        }
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
    pub(crate) fn relaxation(
        &self,
        graph: &Graph,
        cuts: &[Cut],
        incumbent: f64,
        deadline: Instant,
    ) -> Relaxation {
        let (problem, x) = self.build(graph, cuts, incumbent, true);
        let mut options = SolveOptions::default();
        options.time_limit = Some(deadline.saturating_duration_since(Instant::now()));
        match guarded_solve(&problem, options).map(|o| o.into_solution()) {
            Ok(Ok(s)) => {
                Relaxation::Solved(x.iter().map(|&v| s.var_value(v)).collect(), s.objective())
            }
            Err(microlp::Error::Infeasible) => Relaxation::Infeasible,
            _ => Relaxation::Failed,
        }
    }

    /// Solves the ILP with `cuts` until `deadline`. Returns the chosen node per class and
    /// whether the solver proved it optimal, or `None` if the solver failed.
    pub(crate) fn solve(
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
        let outcome = match guarded_solve(&problem, options) {
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
        let step = cutoff_step(integral, incumbent);
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
    pub(crate) fn violated_implications(&self, x: &[f64]) -> Vec<Cut> {
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
    pub(crate) fn cycles(&self, graph: &Graph, choice: &Choice) -> Vec<Vec<ClassId>> {
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

/// Drops the nodes that no answer better than `incumbent` can use (non-negative costs only).
///
/// Every answer contains the roots' must-sets; one that uses node `n` of class `c` also
/// contains the must-sets of `n`'s children. Each of those classes costs at least its
/// cheapest node, so if `n`'s cost plus theirs (once each) already reaches the incumbent, `n`
/// is useless. A node whose children must contain its own class is dropped too (every term
/// through it is cyclic).
fn fix_by_cost(graph: &Graph, candidates: &mut [Vec<NodeId>], incumbent: f64) {
    let groups: Vec<(ClassId, Vec<NodeId>)> = graph
        .classes()
        .map(|c| (c, candidates[c.index()].clone()))
        .collect();
    let must = must_sets(graph, &groups);
    let min_cost = |c: usize| {
        candidates[c]
            .iter()
            .map(|&n| graph.cost(n))
            .fold(f64::INFINITY, f64::min)
    };
    let min_cost: Vec<f64> = (0..graph.num_classes()).map(min_cost).collect();
    let (in_base, base) = root_must_base(graph, &must, &min_cost);
    let integral = graph
        .classes()
        .flat_map(|c| graph.node_ids(c))
        .all(|n| graph.cost(n).fract() == 0.0);
    let limit = incumbent - cutoff_step(integral, incumbent);
    let mut mark = vec![0u32; graph.num_classes()];
    let mut epoch = 0;
    let disjoint = DisjointBound::new(graph, candidates, &in_base, &min_cost);
    let too_dear = |bound: f64| bound > limit + 1e-9 * limit.abs().max(1.0);
    for c in graph.classes() {
        let own = if in_base[c.index()] {
            min_cost[c.index()]
        } else {
            0.0
        };
        candidates[c.index()].retain(|&n| {
            if disjoint.as_ref().is_some_and(|b| too_dear(b.of(graph, n))) {
                return false;
            }
            epoch += 1;
            let mut sum = base - own + graph.cost(n);
            for d in graph.children(n) {
                for &r in &must[d.index()] {
                    if r as usize == c.index() {
                        return false;
                    }
                    if !in_base[r as usize] && mark[r as usize] != epoch {
                        mark[r as usize] = epoch;
                        sum += min_cost[r as usize];
                    }
                }
            }
            !too_dear(sum)
        });
    }
}

/// Runs `microlp`, turning a panic inside it into an internal error: a solver bug must cost
/// the proof, not the extraction (the caller falls back to the greedy answer).
fn guarded_solve(problem: &Problem, options: SolveOptions) -> Result<SolveOutcome, microlp::Error> {
    let solve = std::panic::AssertUnwindSafe(|| problem.solve_with(options));
    std::panic::catch_unwind(solve).unwrap_or_else(|_| {
        Err(microlp::Error::InternalError(
            "microlp panicked".to_string(),
        ))
    })
}

/// How much better than the incumbent an answer must be to count: 1 with integral costs, else
/// a relative 1e-6 (so "optimal" means within that of the optimum).
fn cutoff_step(integral: bool, incumbent: f64) -> f64 {
    if integral {
        1.0
    } else {
        1e-6 * incumbent.abs().max(1.0)
    }
}

/// The classes every answer contains (the union of the roots' must-sets), as flags, and the
/// sum of their cheapest costs.
fn root_must_base(graph: &Graph, must: &[Vec<u32>], min_cost: &[f64]) -> (Vec<bool>, f64) {
    let mut in_base = vec![false; graph.num_classes()];
    let mut base = 0.0;
    for r in graph.roots() {
        for &m in &must[r.index()] {
            if !std::mem::replace(&mut in_base[m as usize], true) {
                base += min_cost[m as usize];
            }
        }
    }
    (in_base, base)
}

/// The second bound of [`fix_by_cost`]: a node's [`dag_lower_bounds`] value, plus the
/// cheapest cost of each root must-class its sub-DAG cannot reach.
struct DisjointBound {
    reach: ClassSets,
    bound: Vec<f64>,
    base: Vec<(usize, f64)>,
    scratch: std::cell::RefCell<Vec<u64>>,
}

impl DisjointBound {
    fn new(
        graph: &Graph,
        candidates: &[Vec<NodeId>],
        in_base: &[bool],
        min_cost: &[f64],
    ) -> Option<Self> {
        if graph.num_classes() > DISJOINT_BOUND_CLASSES_LIMIT {
            return None;
        }
        let reach = reach_sets(graph, candidates);
        let bound = dag_lower_bounds(graph, candidates, &reach, DISJOINT_BOUND_ROUNDS_LIMIT);
        let base = (0..graph.num_classes())
            .filter(|&r| in_base[r])
            .map(|r| (r, min_cost[r]))
            .collect();
        let scratch = std::cell::RefCell::new(vec![0; reach.row(0).len()]);
        Some(DisjointBound {
            reach,
            bound,
            base,
            scratch,
        })
    }

    /// A lower bound on the cost of any answer that uses `n`.
    fn of(&self, graph: &Graph, n: NodeId) -> f64 {
        let mut acc = self.scratch.borrow_mut();
        let own = node_lower_bound(graph, n, &self.bound, &self.reach, &mut acc);
        let c = graph.class_of(n).index();
        let outside = |&&(r, _): &&(usize, f64)| {
            r != c
                && !self.reach.contains(c, r)
                && graph
                    .children(n)
                    .iter()
                    .all(|d| !self.reach.contains(d.index(), r))
        };
        own + self
            .base
            .iter()
            .filter(outside)
            .map(|&(_, cost)| cost)
            .sum::<f64>()
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
