//! DAG-aware greedy extraction: cost sets bottom-up, then local search.
//!
//! The two phases are described on [`GreedyDagExtractor`].

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Duration;

use super::graph::{ClassId, Graph, NodeId};
use super::improve::{self, Choice};
use super::tree::tree_choices;
use super::{Extraction, Extractor};

/// Default wall-clock budget of the local search, per starting point: 1 s. The search stops
/// earlier at a local optimum, which on every extraction-gym e-graph (up to 41k nodes) comes
/// within tens of milliseconds; the budget only bounds pathological inputs.
pub const GREEDY_IMPROVE_TIME_LIMIT: Duration = Duration::from_secs(1);

/// DAG-aware greedy extraction.
///
/// **Phase 1, cost sets** (as extraction-gym's `faster-greedy-dag`): each class keeps the set
/// of classes its current best sub-DAG uses, and that sub-DAG's cost, each class paid once.
/// Nodes are evaluated cheapest first from the leaves; a node's candidate set is the union of
/// its children's sets plus its own class, and it replaces the class's choice when its sum is
/// lower. Sets are plain vectors of class ids, unioned with an epoch-stamped mark array, so a
/// union costs the sizes of the children's sets and nothing more.
///
/// **Phase 2, local search** (`improve`): the phase-1 choice, and the
/// tree-optimal one, are improved by moves that re-choose one class at a time while the exact
/// DAG cost drops, and the cheaper result is returned. Phase 1 alone can be fooled (its sets go
/// stale when a child's choice changes later); phase 2 never makes a solution worse and fixes
/// most of that.
///
/// ```
/// use ptir_egraph::extract::{Extractor, Graph, GreedyDagExtractor, TreeExtractor};
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
}

impl Default for GreedyDagExtractor {
    fn default() -> Self {
        GreedyDagExtractor {
            improve_time_limit: GREEDY_IMPROVE_TIME_LIMIT,
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

    /// The full choice function (a node for every productive class), acyclic.
    pub(crate) fn choose(&self, graph: &Graph) -> Choice {
        let tree = tree_choices(graph);
        let sets = cost_set_choices(graph);
        let from_sets = improve::repair(graph, &sets, &tree.choice);
        let from_tree: Choice = tree.choice;
        let a = improve::improve(graph, from_sets, self.improve_time_limit);
        let b = improve::improve(graph, from_tree, self.improve_time_limit);
        let cost = |c: &Choice| Extraction::from_choices(graph, |k| c[k.index()]).dag_cost(graph);
        if cost(&b) < cost(&a) {
            b
        } else {
            a
        }
    }
}

impl Extractor for GreedyDagExtractor {
    fn extract(&self, graph: &Graph) -> Extraction {
        let choice = self.choose(graph);
        Extraction::from_choices(graph, |c| choice[c.index()])
    }
}

/// A class's best sub-DAG found so far: the classes it uses (its own included) and its cost.
struct CostSet {
    classes: Vec<ClassId>,
    total: f64,
}

/// Phase 1: the cost-set fixpoint. Returns a choice per class (possibly cyclic, see
/// [`improve::repair`]).
fn cost_set_choices(graph: &Graph) -> Vec<Option<NodeId>> {
    let parents = graph.parents();
    let mut sets: Vec<Option<CostSet>> = (0..graph.num_classes()).map(|_| None).collect();
    let mut choice = vec![None; graph.num_classes()];
    let mut heap = BinaryHeap::new();
    let mut queued = vec![false; graph.num_nodes()];
    for n in (0..graph.num_nodes() as u32).map(NodeId) {
        if graph.is_usable(n) && graph.children(n).is_empty() {
            queued[n.index()] = true;
            heap.push(Reverse((Ordered(graph.cost(n)), n)));
        }
    }
    let mut union = Union::new(graph);
    while let Some(Reverse((_, n))) = heap.pop() {
        queued[n.index()] = false;
        let class = graph.class_of(n);
        let Some(set) = union.candidate(graph, n, &sets) else {
            continue;
        };
        sets[class.index()] = Some(set);
        choice[class.index()] = Some(n);
        for &p in &parents[class.index()] {
            let ready = graph.children(p).iter().all(|d| sets[d.index()].is_some());
            if ready && !std::mem::replace(&mut queued[p.index()], true) {
                heap.push(Reverse((Ordered(graph.cost(p)), p)));
            }
        }
    }
    choice
}

/// Scratch space for unions of cost sets: `mark[c] == epoch` iff class `c` is in the union.
struct Union {
    mark: Vec<u32>,
    epoch: u32,
    /// The cost of each class's current choice.
    own: Vec<f64>,
}

impl Union {
    fn new(graph: &Graph) -> Self {
        let n = graph.num_classes();
        Union {
            mark: vec![0; n],
            epoch: 0,
            own: vec![0.0; n],
        }
    }

    /// The cost set of choosing `n`, if it is acyclic and cheaper than its class's current one.
    fn candidate(&mut self, graph: &Graph, n: NodeId, sets: &[Option<CostSet>]) -> Option<CostSet> {
        let class = graph.class_of(n);
        let current = sets[class.index()]
            .as_ref()
            .map_or(f64::INFINITY, |s| s.total);
        let mut biggest = 0;
        for d in graph.children(n) {
            let s = sets[d.index()].as_ref()?;
            // With non-negative costs a union costs at least each part: a cheap test first.
            if !graph.has_negative_cost() && graph.cost(n) + s.total >= current {
                return None;
            }
            biggest = biggest.max(s.classes.len());
        }
        self.next_epoch();
        let mut classes = Vec::with_capacity(biggest + 1);
        let mut total = graph.cost(n);
        for d in graph.children(n) {
            let s = sets[d.index()].as_ref()?;
            for &c in &s.classes {
                if self.mark[c.index()] != self.epoch {
                    self.mark[c.index()] = self.epoch;
                    classes.push(c);
                    total += self.own[c.index()];
                }
            }
        }
        if self.mark[class.index()] == self.epoch || total >= current {
            return None;
        }
        classes.push(class);
        self.own[class.index()] = graph.cost(n);
        Some(CostSet { classes, total })
    }

    fn next_epoch(&mut self) {
        if self.epoch == u32::MAX {
            self.mark.fill(0);
            self.epoch = 0;
        }
        self.epoch += 1;
    }
}

/// `f64` ordered by `total_cmp`, for the heap (costs are never NaN).
#[derive(Clone, Copy, PartialEq)]
struct Ordered(f64);

impl Eq for Ordered {}

impl PartialOrd for Ordered {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ordered {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}
