//! DAG-aware greedy extraction: cost sets bottom-up, then local search.
//!
//! The two phases are described on [`GreedyDagExtractor`].

use std::cmp::Reverse;
use std::time::Duration;

use super::graph::{for_each_distinct, leaves_first, ClassId, Graph, NodeId, Ordered};
use super::improve::{self, Choice};
use super::tree::{sweep_choices, tree_choices, SWEEP_LIMIT};
use super::{Extraction, Extractor};

/// Default wall-clock budget of the local search, per starting point: 1 s. The search stops
/// earlier at a local optimum, which on every extraction-gym e-graph (up to 41k nodes) comes
/// within tens of milliseconds; the budget only bounds pathological inputs.
pub const GREEDY_IMPROVE_TIME_LIMIT: Duration = Duration::from_secs(1);

/// The most starting points the local search improves (each with its own time limit): three
/// of its own and one the caller may give ([`GreedyDagExtractor::extract_from`]).
pub const GREEDY_STARTS: u32 = 4;

/// DAG-aware greedy extraction.
///
/// **Phase 1, cost sets** (after extraction-gym's `faster-greedy-dag`): each class gets the set
/// of classes its chosen sub-DAG uses, and that sub-DAG's cost, each class paid once. A node's
/// candidate set is the union of its children's sets plus its own class; classes settle once,
/// in order of their cheapest candidate (Dijkstra-like, so each node is priced once when its
/// last child settles, and children settle before parents: the choice is acyclic). Sets are
/// plain vectors of class ids, unioned with an epoch-stamped mark array, so a union costs the
/// sizes of the children's sets and nothing more. A set larger than [`COST_SET_LIMIT`] is not
/// kept (its class keeps a cost estimate, see `CostSet`): on a chain, exact sets would take
/// quadratic time and memory.
///
/// **Phase 2, local search** (`improve`): three starting points are improved by moves that
/// re-choose one class at a time while the exact DAG cost drops, and the cheapest result is
/// returned: the phase-1 choice, the tree-optimal choice of [`TreeExtractor`](super::TreeExtractor),
/// and the tree-optimal choice of extraction-gym's `bottom-up` (which breaks ties differently,
/// see `sweep_choices`). Phase 1 alone can be fooled (a class settles on the cheapest sub-DAG
/// of its own, not on what its parents will share); phase 2 never makes a solution worse and
/// fixes most of that. So the result is never worse by DAG cost than either bottom-up tree
/// extraction.
///
/// ```
/// use ptir_extract::{Extractor, Graph, GreedyDagExtractor, TreeExtractor};
/// // r = g(a, b): b must use s; a has a cheaper private leaf, or can use s too.
/// let mut b = Graph::builder();
/// let (s, a, bb, r) = (b.class("s"), b.class("a"), b.class("b"), b.class("r"));
/// b.add_node(s, "s", 4.0, &[]);
/// b.add_node(a, "a", 3.0, &[]);
/// b.add_node(a, "fa", 0.0, &[s]);
/// b.add_node(bb, "fb", 0.0, &[s]);
/// b.add_node(r, "g", 0.0, &[a, bb]);
/// b.add_root(r);
/// let g = b.build().unwrap();
/// assert_eq!(TreeExtractor.extract(&g).dag_cost(&g), 7.0);
/// assert_eq!(GreedyDagExtractor::default().extract(&g).dag_cost(&g), 4.0);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct GreedyDagExtractor {
    improve_time_limit: Duration,
    cost_set_limit: usize,
}

impl Default for GreedyDagExtractor {
    fn default() -> Self {
        GreedyDagExtractor {
            improve_time_limit: GREEDY_IMPROVE_TIME_LIMIT,
            cost_set_limit: COST_SET_LIMIT,
        }
    }
}

impl GreedyDagExtractor {
    /// Sets the local search's budget per starting point (default
    /// [`GREEDY_IMPROVE_TIME_LIMIT`]); zero skips the local search.
    pub fn with_improve_time_limit(mut self, limit: Duration) -> Self {
        self.improve_time_limit = limit;
        self
    }

    /// Sets the largest cost set phase 1 keeps explicitly (default [`COST_SET_LIMIT`]); tests
    /// lower it to exercise the overflow path on small graphs.
    #[cfg(test)]
    pub(crate) fn with_cost_set_limit(mut self, limit: usize) -> Self {
        self.cost_set_limit = limit;
        self
    }

    /// Extracts as [`Extractor::extract`] does, with `start` (a node per class, indexed by
    /// [`ClassId::index`]; `None` where it has none) as one more starting point of the local
    /// search: what the caller already has, typically the input program. The result is then
    /// never worse by DAG cost than `start` (completed and made acyclic from phase 1's choice
    /// where it is not).
    ///
    /// ```
    /// use ptir_extract::{Extractor, Graph, GreedyDagExtractor};
    /// // one big product shared by three slices, or three small products of one slice each:
    /// // phase 1 settles each slice on its own small product (4 < 8 + 1 locally), and no
    /// // single move leaves that (one slice of the big product alone costs 8 + 1 - 4 more)
    /// let mut b = Graph::builder();
    /// let big = b.class("big");
    /// b.add_node(big, "dot", 8.0, &[]);
    /// let mut roots = Vec::new();
    /// for i in 0..3 {
    ///     let s = b.class(&format!("s{i}"));
    ///     b.add_node(s, "slice", 1.0, &[big]);
    ///     b.add_node(s, "small-dot", 4.0, &[]);
    ///     roots.push(s);
    /// }
    /// let r = b.class("r");
    /// b.add_node(r, "tuple", 0.0, &roots);
    /// b.add_root(r);
    /// let g = b.build().unwrap();
    /// assert_eq!(GreedyDagExtractor::default().extract(&g).dag_cost(&g), 12.0);
    /// let input: Vec<_> = g.classes().map(|c| g.node_ids(c).next()).collect();
    /// let e = GreedyDagExtractor::default().extract_from(&g, &input);
    /// assert_eq!(e.dag_cost(&g), 11.0);
    /// ```
    pub fn extract_from(&self, graph: &Graph, start: &[Option<NodeId>]) -> Extraction {
        let choice = self.choose_from(graph, Some(start));
        Extraction::from_choices(graph, |c| choice[c.index()])
    }

    /// The full choice function (a node for every productive class), acyclic.
    pub(crate) fn choose(&self, graph: &Graph) -> Choice {
        self.choose_from(graph, None)
    }

    fn choose_from(&self, graph: &Graph, given: Option<&[Option<NodeId>]>) -> Choice {
        // Phase 1 settles every productive class, acyclically: the other starting points are
        // completed from it (the tree fixpoint with negative costs and the bounded sweeps may
        // leave classes without a choice).
        let sets = cost_set_choices(graph, self.cost_set_limit);
        let tree = improve::repair(graph, &tree_choices(graph).choice, &sets);
        let sweep = improve::repair(graph, &sweep_choices(graph, SWEEP_LIMIT), &sets);
        let mut starts = vec![sets, tree];
        if !starts.contains(&sweep) {
            starts.push(sweep);
        }
        // The caller's start comes last and must win by more than round-off: on ties the
        // extractor's own choice stands, as it would without one.
        if let Some(given) = given.filter(|g| g.len() == graph.num_classes()) {
            let given = improve::repair(graph, given, &starts[0]);
            if !starts.contains(&given) {
                starts.push(given);
            }
        }
        debug_assert!(starts.len() <= GREEDY_STARTS as usize);
        let mut best: Option<(f64, Choice)> = None;
        for start in starts {
            let choice = improve::improve(graph, start, self.improve_time_limit);
            let e = Extraction::from_choices(graph, |k| choice[k.index()]);
            // Only complete extractions compete: an incomplete one's DAG cost means nothing.
            if !e.is_complete(graph) {
                continue;
            }
            let c = e.dag_cost(graph);
            if !matches!(&best, Some((b, _)) if *b <= c + 1e-9 * c.abs()) {
                best = Some((c, choice));
            }
        }
        best.map(|(_, c)| c).unwrap_or_default()
    }
}

impl Extractor for GreedyDagExtractor {
    fn extract(&self, graph: &Graph) -> Extraction {
        let choice = self.choose(graph);
        Extraction::from_choices(graph, |c| choice[c.index()])
    }
}

/// The largest cost set kept explicitly. Beyond it a class keeps only its cost (see
/// `CostSet`), so that phase 1 stays linear in time and memory on deep e-graphs: on a chain of
/// `n` classes, exact sets hold `n²/2` class ids (100k classes: 20 GB). 2,048 covers every set
/// of every extraction-gym e-graph (the largest is 1,926, on a MaxSAT encoding); on a chain,
/// only the first 2,048 classes keep a set (8 MB of ids in all).
pub const COST_SET_LIMIT: usize = 256;

/// A settled class's sub-DAG: the classes it uses (its own included) and its cost.
///
/// `classes` is `None` once the set would hold [`COST_SET_LIMIT`] classes or more. Its `total`
/// is then exact if the set overflowed by a union of exact sets, and otherwise the node's cost
/// plus the sum of its distinct children's totals: an upper bound on the DAG cost (a class
/// shared by two children is counted twice), which is tree cost once every set below has
/// overflowed. Phase 2 prices every move exactly, so estimates only steer the starting point.
struct CostSet {
    classes: Option<Vec<ClassId>>,
    total: f64,
}

/// Phase 1: settles classes in order of their cheapest candidate, as Knuth's generalization of
/// Dijkstra's algorithm does for superior functions. A node is priced once, when the last of its
/// child classes settles; the cheapest priced node settles its class for good. With
/// non-negative costs a candidate costs at least each of its children, so no candidate priced
/// later could have been cheaper. Each node is priced once (twice counting the union that
/// builds the set), children settle before their parents, so the choice is acyclic, and a class
/// that never settles has no acyclic term.
fn cost_set_choices(graph: &Graph, limit: usize) -> Vec<Option<NodeId>> {
    cost_sets(graph, limit).0
}

/// The choices of phase 1 and the cost set of each settled class.
fn cost_sets(graph: &Graph, limit: usize) -> (Vec<Option<NodeId>>, Vec<Option<CostSet>>) {
    let mut sets: Vec<Option<CostSet>> = (0..graph.num_classes()).map(|_| None).collect();
    let mut choice = vec![None; graph.num_classes()];
    let (mut missing, mut heap) = leaves_first(graph);
    let mut union = Union::new(graph, limit);
    while let Some(Reverse((_, n))) = heap.pop() {
        let class = graph.class_of(n);
        if sets[class.index()].is_some() {
            continue;
        }
        sets[class.index()] = Some(union.set(graph, n, &sets));
        choice[class.index()] = Some(n);
        for &p in graph.parents(class) {
            missing[p.index()] -= 1;
            if missing[p.index()] == 0 && sets[graph.class_of(p).index()].is_none() {
                let total = union.merge(graph, p, &sets, None);
                heap.push(Reverse((Ordered(total), p)));
            }
        }
    }
    (choice, sets)
}

/// Scratch space for unions of cost sets: `mark[c] == epoch` iff class `c` is in the union.
struct Union {
    mark: Vec<u32>,
    epoch: u32,
    /// The cost of each settled class's choice.
    own: Vec<f64>,
    /// The largest set kept explicitly ([`COST_SET_LIMIT`] unless a test lowers it).
    limit: usize,
}

impl Union {
    fn new(graph: &Graph, limit: usize) -> Self {
        let n = graph.num_classes();
        Union {
            mark: vec![0; n],
            epoch: 0,
            own: vec![0.0; n],
            limit,
        }
    }

    /// The cost set of choosing `n`, whose children have all settled; records `n`'s cost as
    /// its class's own.
    fn set(&mut self, graph: &Graph, n: NodeId, sets: &[Option<CostSet>]) -> CostSet {
        let mut classes = Vec::new();
        let total = self.merge(graph, n, sets, Some(&mut classes));
        self.own[graph.class_of(n).index()] = graph.cost(n);
        if classes.len() >= self.limit || self.overflowed(graph, n, sets) {
            return CostSet {
                classes: None,
                total,
            };
        }
        classes.push(graph.class_of(n));
        CostSet {
            classes: Some(classes),
            total,
        }
    }

    /// Whether some child of `n` has an overflowed set.
    fn overflowed(&self, graph: &Graph, n: NodeId, sets: &[Option<CostSet>]) -> bool {
        let set = |d: &ClassId| sets[d.index()].as_ref();
        graph
            .children(n)
            .iter()
            .any(|d| !matches!(set(d), Some(s) if s.classes.is_some()))
    }

    /// The cost of choosing `n` (children settled): exact while the children's sets are, an
    /// estimate otherwise (see [`CostSet`]). Collects the union of the children's sets into
    /// `out` if asked, up to [`COST_SET_LIMIT`] classes.
    fn merge(
        &mut self,
        graph: &Graph,
        n: NodeId,
        sets: &[Option<CostSet>],
        mut out: Option<&mut Vec<ClassId>>,
    ) -> f64 {
        let children = graph.children(n);
        let mut total = graph.cost(n);
        if self.overflowed(graph, n, sets) {
            for_each_distinct(children, |d| {
                total += sets[d.index()].as_ref().map_or(f64::INFINITY, |s| s.total);
            });
            // Sums of estimates may overflow on deep DAGs: stay finite and ordered.
            return total.min(f64::MAX);
        }
        self.next_epoch();
        for d in children {
            for &c in sets[d.index()]
                .iter()
                .flat_map(|s| s.classes.iter().flatten())
            {
                if self.mark[c.index()] != self.epoch {
                    self.mark[c.index()] = self.epoch;
                    total += self.own[c.index()];
                    if let Some(out) = out.as_deref_mut() {
                        if out.len() < self.limit {
                            out.push(c);
                        }
                    }
                }
            }
        }
        total
    }

    fn next_epoch(&mut self) {
        if self.epoch == u32::MAX {
            self.mark.fill(0);
            self.epoch = 0;
        }
        self.epoch += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ExactDagExtractor, GraphBuilder};

    /// A chain `x0 <- x1 <- ... <- x{n-1}`: each class is `f(previous, x0)` (cost 1) or, from
    /// the second on, `g(previous)` (cost 2); the last class is the root.
    fn chain(n: usize) -> Graph {
        let mut b = GraphBuilder::default();
        let ids: Vec<ClassId> = (0..n).map(|i| b.class(&format!("x{i}"))).collect();
        b.add_node(ids[0], "x", 1.0, &[]);
        for i in 1..n {
            b.add_node(ids[i], "f", 1.0, &[ids[i - 1], ids[0]]);
            b.add_node(ids[i], "g", 2.0, &[ids[i - 1]]);
        }
        b.add_root(ids[n - 1]);
        b.build().expect("a valid chain")
    }

    /// Exact cost sets on a chain hold n²/2 class ids (100k: 20 GB, then a crash).
    /// Sets beyond [`COST_SET_LIMIT`] are not kept, so the ids stored stay under
    /// `limit²/2 + n`; the old sets would hold 200 million ids here.
    #[test]
    fn cost_sets_stay_bounded_on_a_long_chain() {
        let n = 20_000;
        let g = chain(n);
        let (choice, sets) = cost_sets(&g, COST_SET_LIMIT);
        let stored: usize = sets
            .iter()
            .flatten()
            .map(|s| s.classes.as_ref().map_or(0, Vec::len))
            .sum();
        assert!(
            stored <= COST_SET_LIMIT * COST_SET_LIMIT / 2 + n,
            "{stored} ids"
        );
        assert!(choice.iter().all(Option::is_some));
        let e = GreedyDagExtractor::default().extract(&g);
        assert!(e.is_complete(&g) && e.is_acyclic(&g));
        assert_eq!(e.dag_cost(&g), n as f64);
    }

    /// Overflowed sets are estimated, not wrong: with a limit of 2 every set above the leaves
    /// overflows, and the extraction is still complete, acyclic and optimal on a graph where
    /// the tree-optimal choice is also DAG-optimal.
    #[test]
    fn overflowed_sets_still_extract() {
        let g = chain(50);
        let greedy = GreedyDagExtractor::default().with_cost_set_limit(2);
        let (choice, sets) = cost_sets(&g, 2);
        assert!(choice.iter().all(Option::is_some));
        assert!(
            sets.iter()
                .flatten()
                .filter(|s| s.classes.is_none())
                .count()
                > 40
        );
        let e = greedy.extract(&g);
        assert!(e.is_complete(&g) && e.is_acyclic(&g));
        let exact = ExactDagExtractor::default().solve(&g);
        assert_eq!(e.dag_cost(&g), exact.extraction.dag_cost(&g));
    }

    /// Phase 1 settles children before parents: its choice is acyclic without repair, even on
    /// e-graphs full of cycles.
    #[test]
    fn phase_one_is_acyclic() {
        let mut b = GraphBuilder::default();
        let (x, y, z) = (b.class("x"), b.class("y"), b.class("z"));
        b.add_node(x, "x", 5.0, &[]);
        b.add_node(x, "fy", 0.0, &[y]);
        b.add_node(y, "fz", 0.0, &[z]);
        b.add_node(y, "y", 1.0, &[]);
        b.add_node(z, "fx", 0.0, &[x]);
        b.add_node(z, "gy", 3.0, &[y]);
        b.add_root(z);
        let g = b.build().expect("valid");
        let choice = cost_set_choices(&g, COST_SET_LIMIT);
        assert!(improve::find_cycle(&g, &choice).is_none());
        let e = Extraction::from_choices(&g, |c| choice[c.index()]);
        assert!(e.is_complete(&g) && e.is_acyclic(&g));
    }
}
