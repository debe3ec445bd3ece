//! Reduction for the exact extractor: a smaller graph with the same optimal DAG extractions.
//!
//! Two rules, applied to the nodes an optimal extraction can use (usable, productive,
//! reachable from the roots):
//!
//! - **dominance** (non-negative costs only): a node is dropped when another node of its class
//!   costs no more and needs a subset of its child classes; swapping it in never hurts and
//!   adds no edge, so it cannot make a cycle.
//! - **contraction**: a class `d` that is not a root, has one node `m` and one parent node `p`
//!   is in the DAG exactly when `p` is, so `m` is merged into `p` (costs add up, `p` takes
//!   `m`'s children in place of `d`). Repeated, this folds the tree-shaped parts of an e-graph
//!   (most of babble's) into their parents. Cycles are kept: a cycle through `d` passes
//!   through `p`, and becomes one through the merged node.
//!
//! [`Reduced::expand`] maps an extraction of the reduced graph back to the original.

use super::graph::{ClassId, Graph, NodeId};
use super::Extraction;

/// A class with more nodes than this skips the quadratic dominance test.
const DOMINANCE_CLASS_LIMIT: usize = 256;

/// The reduced graph and, for each of its nodes, the original nodes it stands for.
pub(crate) struct Reduced {
    pub(crate) graph: Graph,
    members: Vec<Vec<NodeId>>,
}

/// A node of the graph being reduced.
struct Work {
    class: ClassId,
    cost: f64,
    children: Vec<ClassId>,
    members: Vec<NodeId>,
    alive: bool,
}

impl Reduced {
    /// Reduces `graph`; `None` if nothing is left to reduce (the graph is returned as is).
    pub(crate) fn new(graph: &Graph) -> Option<Reduced> {
        let productive = graph.productive_classes();
        let mut work = Vec::new();
        let mut class_nodes = vec![Vec::new(); graph.num_classes()];
        for c in reachable_classes(graph, &productive) {
            let mut nodes: Vec<NodeId> = graph
                .node_ids(c)
                .filter(|&n| graph.is_usable(n))
                .filter(|&n| graph.children(n).iter().all(|d| productive[d.index()]))
                .collect();
            if !graph.has_negative_cost() {
                prune_dominated(graph, &mut nodes);
            }
            for n in nodes {
                let mut children = graph.children(n).to_vec();
                children.sort();
                children.dedup();
                class_nodes[c.index()].push(work.len());
                work.push(Work {
                    class: c,
                    cost: graph.cost(n),
                    children,
                    members: vec![n],
                    alive: true,
                });
            }
        }
        contract(graph, &mut work, &mut class_nodes);
        build(graph, &work, &class_nodes)
    }

    /// The original extraction that `reduced` (an extraction of the reduced graph) stands for.
    pub(crate) fn expand(&self, original: &Graph, reduced: &Extraction) -> Extraction {
        let mut choice = vec![None; original.num_classes()];
        for (_, n) in reduced.chosen() {
            for &m in &self.members[n.index()] {
                choice[original.class_of(m).index()] = Some(m);
            }
        }
        Extraction::from_choices(original, |c| choice[c.index()])
    }
}

/// Classes reachable from the roots through usable nodes with productive children.
fn reachable_classes(graph: &Graph, productive: &[bool]) -> Vec<ClassId> {
    let mut seen = vec![false; graph.num_classes()];
    let mut order = Vec::new();
    let mut stack: Vec<ClassId> = graph.roots().to_vec();
    while let Some(c) = stack.pop() {
        if std::mem::replace(&mut seen[c.index()], true) {
            continue;
        }
        order.push(c);
        for n in graph.node_ids(c).filter(|&n| graph.is_usable(n)) {
            if graph.children(n).iter().all(|d| productive[d.index()]) {
                stack.extend(graph.children(n).iter().filter(|d| !seen[d.index()]));
            }
        }
    }
    order.sort();
    order
}

/// Merges single-node, single-parent, non-root classes into their parent, to a fixpoint.
fn contract(graph: &Graph, work: &mut [Work], class_nodes: &mut [Vec<usize>]) {
    let mut parents: Vec<Vec<usize>> = vec![Vec::new(); graph.num_classes()];
    for (i, w) in work.iter().enumerate() {
        for d in &w.children {
            parents[d.index()].push(i);
        }
    }
    let mut todo: Vec<ClassId> = graph.classes().rev().collect();
    while let Some(d) = todo.pop() {
        let (&[m], &[p]) = (&class_nodes[d.index()][..], &parents[d.index()][..]) else {
            continue;
        };
        if graph.roots().contains(&d) || p == m || work[p].class == d {
            continue;
        }
        let merged = std::mem::take(&mut work[m].children);
        let members = std::mem::take(&mut work[m].members);
        work[m].alive = false;
        class_nodes[d.index()].clear();
        parents[d.index()].clear();
        work[p].cost += work[m].cost;
        work[p].members.extend(members);
        work[p].children.retain(|&c| c != d);
        for e in merged {
            parents[e.index()].retain(|&x| x != m);
            if !work[p].children.contains(&e) {
                work[p].children.push(e);
                parents[e.index()].push(p);
            }
            todo.push(e);
        }
    }
}

/// The reduced [`Graph`] of the live work nodes, or `None` if no node was merged or dropped.
fn build(graph: &Graph, work: &[Work], class_nodes: &[Vec<usize>]) -> Option<Reduced> {
    let live = work.iter().filter(|w| w.alive).count();
    if live == graph.num_nodes() {
        return None;
    }
    let mut b = Graph::builder();
    let classes: Vec<Option<ClassId>> = graph
        .classes()
        .map(|c| (!class_nodes[c.index()].is_empty()).then(|| b.class(&c.index().to_string())))
        .collect();
    let mut members = Vec::with_capacity(live);
    for nodes in class_nodes {
        for &i in nodes {
            let w = &work[i];
            let children: Option<Vec<ClassId>> =
                w.children.iter().map(|d| classes[d.index()]).collect();
            let class = classes[w.class.index()]?;
            b.add_node(class, "", w.cost, &children?);
            members.push(w.members.clone());
        }
    }
    for r in graph.roots() {
        b.add_root(classes[r.index()]?);
    }
    let graph = b.build().ok()?;
    Some(Reduced { graph, members })
}

/// Drops the nodes that another node of their class dominates (see the module docs); ties keep
/// the first.
fn prune_dominated(graph: &Graph, nodes: &mut Vec<NodeId>) {
    if nodes.len() < 2 || nodes.len() > DOMINANCE_CLASS_LIMIT {
        return;
    }
    let subset = |a: NodeId, b: NodeId| {
        graph
            .children(a)
            .iter()
            .all(|d| graph.children(b).contains(d))
    };
    let dominates = |m: NodeId, n: NodeId| {
        m != n
            && graph.cost(m) <= graph.cost(n)
            && subset(m, n)
            && (graph.cost(m) < graph.cost(n) || !subset(n, m) || m < n)
    };
    let all = nodes.clone();
    nodes.retain(|&n| !all.iter().any(|&m| dominates(m, n)));
}
