//! Tree extraction: the bottom-up fixpoint of egg's `Extractor`.
//!
//! How and why: see [`TreeExtractor`].

use std::cmp::Reverse;
use std::collections::VecDeque;

use super::graph::{leaves_first, ClassId, Graph, NodeId, Ordered};
use super::{Extraction, Extractor};

/// Minimizes tree cost bottom-up, like egg's `Extractor`.
///
/// A class's cost is the least, over its usable nodes, of the node's cost plus its children's
/// class costs (a child used twice is paid twice). Costs start at `+inf` and only ever go down;
/// a node with a child of infinite cost is never chosen, which is how cycles are avoided. With
/// non-negative costs the fixpoint is the optimal tree cost and its choices are acyclic: a
/// choice only replaces a costlier one, so a class can never come to depend on itself.
///
/// With negative costs tree cost is not monotone (a cycle would be ever cheaper), so an update
/// is also refused when it would close a cycle, and the result is a heuristic.
///
/// ```
/// use ptir_extract::{Extractor, Graph, TreeExtractor};
/// let mut b = Graph::builder();
/// let (x, y) = (b.class("x"), b.class("y"));
/// b.add_node(x, "x", 1.0, &[]);
/// b.add_node(y, "big", 10.0, &[]);
/// b.add_node(y, "f", 1.0, &[x, x]);
/// b.add_root(y);
/// let g = b.build().unwrap();
/// let e = TreeExtractor.extract(&g);
/// assert_eq!(g.op(e.choice(y).unwrap()), "f");
/// assert_eq!(e.tree_cost(&g), 3.0);
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct TreeExtractor;

impl Extractor for TreeExtractor {
    fn extract(&self, graph: &Graph) -> Extraction {
        let best = tree_choices(graph);
        Extraction::from_choices(graph, |c| best.choice[c.index()])
    }
}

/// The tree-optimal choice and cost of every class (`None` and `+inf` if unextractable).
pub(crate) struct TreeChoices {
    pub(crate) choice: Vec<Option<NodeId>>,
    pub(crate) cost: Vec<f64>,
}

/// The tree-optimal choices: the FIFO fixpoint, whose work is bounded; if the bound stops it
/// early (a deep DAG can make it re-price nodes many times), the classes it left without a
/// choice take [`settled_tree_choices`]'. The FIFO fixpoint's choices only have children with
/// a choice, so filling in cannot close a cycle.
pub(crate) fn tree_choices(graph: &Graph) -> TreeChoices {
    let (mut best, complete) = fifo_tree_choices(graph);
    if !complete {
        let settled = settled_tree_choices(graph);
        for (c, s) in best.choice.iter_mut().zip(settled.choice) {
            if c.is_none() {
                *c = s;
            }
        }
        for (c, s) in best.cost.iter_mut().zip(settled.cost) {
            if *c == f64::INFINITY {
                *c = s;
            }
        }
    }
    best
}

/// Knuth's generalization of Dijkstra's algorithm: with non-negative costs a node costs at
/// least each of its children, so the cheapest priced node settles its class for good. A node
/// is priced once, when the last of its child classes settles; children settle before their
/// parents, so the choice is acyclic and covers every productive class. O(E log E), whatever
/// the e-graph's shape (the FIFO fixpoint re-prices a node each time a descendant gets
/// cheaper). Its ties are broken by node id, which extracts worse DAGs than the FIFO order on
/// some extraction-gym e-graphs, so it only completes what the FIFO fixpoint leaves. With
/// negative costs it is a heuristic, still complete and acyclic.
fn settled_tree_choices(graph: &Graph) -> TreeChoices {
    let mut best = TreeChoices {
        choice: vec![None; graph.num_classes()],
        cost: vec![f64::INFINITY; graph.num_classes()],
    };
    let (mut missing, mut heap) = leaves_first(graph);
    while let Some(Reverse((Ordered(cost), n))) = heap.pop() {
        let class = graph.class_of(n);
        if best.choice[class.index()].is_some() {
            continue;
        }
        best.cost[class.index()] = cost;
        best.choice[class.index()] = Some(n);
        for &p in graph.parents(class) {
            missing[p.index()] -= 1;
            if missing[p.index()] == 0 && best.choice[graph.class_of(p).index()].is_none() {
                let cost = node_cost(graph, p, &best.cost);
                // A finite cost whose sum overflows is never chosen, as documented on `Graph`.
                if cost < f64::INFINITY {
                    heap.push(Reverse((Ordered(cost), p)));
                }
            }
        }
    }
    best
}

/// The fixpoint with a FIFO worklist of nodes whose children just got cheaper, and whether it
/// reached the fixpoint within its bounded work.
fn fifo_tree_choices(graph: &Graph) -> (TreeChoices, bool) {
    let mut best = TreeChoices {
        choice: vec![None; graph.num_classes()],
        cost: vec![f64::INFINITY; graph.num_classes()],
    };
    let mut queued = vec![false; graph.num_nodes()];
    let mut work: VecDeque<NodeId> = VecDeque::new();
    for n in (0..graph.num_nodes() as u32).map(NodeId) {
        if graph.is_usable(n) && graph.children(n).is_empty() {
            queued[n.index()] = true;
            work.push_back(n);
        }
    }
    // Negative costs can make updates go round a cycle of stale costs, and deep DAGs re-price
    // nodes many times: bound the work (the caller completes what is left).
    let mut fuel = 64 * graph.num_nodes() + 1024;
    while let Some(n) = work.pop_front() {
        queued[n.index()] = false;
        let class = graph.class_of(n);
        let cost = node_cost(graph, n, &best.cost);
        if cost >= best.cost[class.index()] || !acyclic_update(graph, &best.choice, n) {
            continue;
        }
        best.cost[class.index()] = cost;
        best.choice[class.index()] = Some(n);
        fuel = fuel.saturating_sub(1);
        if fuel == 0 {
            return (best, false);
        }
        for &p in graph.parents(class) {
            if !std::mem::replace(&mut queued[p.index()], true) {
                work.push_back(p);
            }
        }
    }
    (best, true)
}

/// The node's cost plus its children's (a repeated child counted each time): `+inf` if the
/// node or a child has no finite cost, else saturated at `f64::MAX`. Tree costs double with
/// each level of sharing, so a deep DAG (a 384-layer GPT-2 stack) overflows `f64`; without
/// saturation its root would get no choice at all.
fn node_cost(graph: &Graph, n: NodeId, class_cost: &[f64]) -> f64 {
    let children = graph.children(n).iter().map(|d| class_cost[d.index()]);
    if graph.cost(n) == f64::INFINITY || children.clone().any(|c| c == f64::INFINITY) {
        return f64::INFINITY;
    }
    (graph.cost(n) + children.sum::<f64>()).min(f64::MAX)
}

/// Whether choosing `n` for its class keeps the choices acyclic. Only checked when costs can
/// be negative: otherwise it always holds (see [`TreeExtractor`]).
fn acyclic_update(graph: &Graph, choice: &[Option<NodeId>], n: NodeId) -> bool {
    if !graph.has_negative_cost() {
        return true;
    }
    let target = graph.class_of(n);
    let mut seen = vec![false; graph.num_classes()];
    let mut stack: Vec<ClassId> = graph.children(n).to_vec();
    while let Some(c) = stack.pop() {
        if c == target {
            return false;
        }
        if std::mem::replace(&mut seen[c.index()], true) {
            continue;
        }
        if let Some(m) = choice[c.index()] {
            stack.extend_from_slice(graph.children(m));
        }
    }
    true
}

/// How many sweeps [`sweep_choices`] makes at most. extraction-gym's `bottom-up` converges in
/// a few sweeps on its e-graphs, whose classes come children first; on an e-graph whose
/// classes come in hash order a sweep can advance a long chain by a few classes only, so
/// sweeps are bounded to keep the work linear (what is left is filled in by the caller).
pub(crate) const SWEEP_LIMIT: usize = 16;

/// extraction-gym's `bottom-up` extractor: sweeps over the classes in order and over each
/// class's nodes in order, a node replacing its class's choice when it is strictly cheaper as a
/// tree, until a sweep changes nothing or after `max_sweeps` sweeps.
///
/// Its fixpoint is tree-optimal like [`tree_choices`]', but ties between equally cheap terms
/// are broken by class and node order instead of by the order of discovery, and the DAG costs
/// of tied terms can differ a lot (on one herbie e-graph, 4,608 against 5,696). The greedy DAG
/// extractor starts from both. A class may be left without a choice when the sweeps stop
/// early; the choices made are acyclic (each one strictly lowered its class's cost).
pub(crate) fn sweep_choices(graph: &Graph, max_sweeps: usize) -> Vec<Option<NodeId>> {
    let mut choice = vec![None; graph.num_classes()];
    let mut cost = vec![f64::INFINITY; graph.num_classes()];
    for _ in 0..max_sweeps {
        let mut changed = false;
        for class in graph.classes() {
            for n in graph.node_ids(class) {
                if !graph.is_usable(n) {
                    continue;
                }
                let c = node_cost(graph, n, &cost);
                if c < cost[class.index()] && acyclic_update(graph, &choice, n) {
                    cost[class.index()] = c;
                    choice[class.index()] = Some(n);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    choice
}
