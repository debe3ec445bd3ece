//! Cycle inequalities for the exact extractor, and their separation from an LP solution.
//!
//! For a cycle of classes `c0 -> c1 -> ... -> c(k-1) -> c0`, call a node of `ci` *on* the
//! cycle if it has `c(i+1)` as a child. In an acyclic extraction, if `c0` chooses a node on
//! the cycle then `c1` is needed, and so on round the cycle; the chain must stop, so some
//! other class of the cycle chooses a node off it:
//!
//! ```text
//! sum x[n], n of c0 on the cycle  <=  sum x[n], n of ci (i != 0) off the cycle
//! ```
//!
//! (`c0` is the cycle's *anchor*.) Unlike "at most `k - 1` edges", this also cuts fractional
//! cycles: two classes each choosing half of a node of the other violate it by a half.
//!
//! **Separation.** With `y[c]` the class's LP weight (sum of its nodes' `x`) and `w[a -> b]`
//! the weight of its nodes with child `b`, the inequality for anchor `j` is violated iff the
//! cycle's length is below `y[j]`, where an edge `a -> b` has length `y[a] - w[a -> b] >= 0`.
//! So a shortest cycle through each anchor (Dijkstra) finds the most violated cut there.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::graph::{ClassId, Graph, NodeId, Ordered};

/// At most this many cuts are separated from one LP solution.
const SEPARATED_CUTS_LIMIT: usize = 200;

/// Minimum violation for a cut to be added (LP round-off is around 1e-9).
const VIOLATION_EPS: f64 = 1e-4;

/// Violated cycle inequalities of the LP solution `x` (over `nodes`), each as the cycle's
/// classes, anchor first.
pub(crate) fn separate(graph: &Graph, nodes: &[NodeId], x: &[f64]) -> Vec<Vec<ClassId>> {
    let (y, edges) = weights(graph, nodes, x);
    let mut cuts: Vec<Vec<ClassId>> = Vec::new();
    let mut anchors: Vec<usize> = (0..y.len()).filter(|&c| y[c] > VIOLATION_EPS).collect();
    anchors.sort_by(|&a, &b| y[b].total_cmp(&y[a]).then(a.cmp(&b)));
    let mut dijkstra = Dijkstra::new(y.len());
    for j in anchors {
        if cuts.len() >= SEPARATED_CUTS_LIMIT {
            break;
        }
        if let Some(cycle) = dijkstra.shortest_cycle(j, &edges, y[j] - VIOLATION_EPS) {
            let mut sorted = cycle.clone();
            sorted.sort();
            if !cuts
                .iter()
                .any(|c| c[0] == cycle[0] && same_set(c, &sorted))
            {
                cuts.push(cycle);
            }
        }
    }
    cuts
}

fn same_set(cycle: &[ClassId], sorted: &[ClassId]) -> bool {
    let mut c = cycle.to_vec();
    c.sort();
    c == sorted
}

/// Class weights `y` and, per class, its out-edges `(child, length)` with positive weight.
fn weights(graph: &Graph, nodes: &[NodeId], x: &[f64]) -> (Vec<f64>, Vec<Vec<(u32, f64)>>) {
    let mut y = vec![0.0; graph.num_classes()];
    let mut w: Vec<Vec<(u32, f64)>> = vec![Vec::new(); graph.num_classes()];
    for (&n, &v) in nodes.iter().zip(x) {
        if v <= 1e-9 {
            continue;
        }
        let a = graph.class_of(n).index();
        y[a] += v;
        let children = graph.children(n);
        for (k, d) in children.iter().enumerate() {
            if children[..k].contains(d) {
                continue;
            }
            match w[a].iter_mut().find(|(b, _)| *b as usize == d.index()) {
                Some((_, weight)) => *weight += v,
                None => w[a].push((d.index() as u32, v)),
            }
        }
    }
    for (a, out) in w.iter_mut().enumerate() {
        for (_, weight) in out.iter_mut() {
            *weight = (y[a] - *weight).max(0.0);
        }
    }
    (y, w)
}

/// Reusable Dijkstra state over class indices.
struct Dijkstra {
    dist: Vec<f64>,
    prev: Vec<u32>,
    touched: Vec<usize>,
}

impl Dijkstra {
    fn new(n: usize) -> Self {
        Dijkstra {
            dist: vec![f64::INFINITY; n],
            prev: vec![u32::MAX; n],
            touched: Vec::new(),
        }
    }

    /// The shortest cycle through `j` if shorter than `limit`, as classes starting at `j`.
    fn shortest_cycle(
        &mut self,
        j: usize,
        edges: &[Vec<(u32, f64)>],
        limit: f64,
    ) -> Option<Vec<ClassId>> {
        for &t in &self.touched {
            self.dist[t] = f64::INFINITY;
            self.prev[t] = u32::MAX;
        }
        self.touched.clear();
        let mut heap = BinaryHeap::new();
        let (mut best, mut last) = (limit, None);
        self.set(j, 0.0, u32::MAX);
        heap.push(Reverse((Ordered(0.0), j as u32)));
        while let Some(Reverse((Ordered(d), u))) = heap.pop() {
            let u = u as usize;
            if d > self.dist[u] || d >= best {
                continue;
            }
            for &(v, len) in &edges[u] {
                let (v, nd) = (v as usize, d + len);
                if v == j {
                    if nd < best {
                        (best, last) = (nd, Some(u));
                    }
                } else if nd < self.dist[v] && nd < best {
                    self.set(v, nd, u as u32);
                    heap.push(Reverse((Ordered(nd), v as u32)));
                }
            }
        }
        let mut cycle = vec![ClassId(last? as u32)];
        while let Some(&c) = cycle.last() {
            let p = self.prev[c.index()];
            if p == u32::MAX {
                break;
            }
            cycle.push(ClassId(p));
        }
        cycle.reverse();
        Some(cycle)
    }

    fn set(&mut self, v: usize, d: f64, p: u32) {
        self.dist[v] = d;
        self.prev[v] = p;
        self.touched.push(v);
    }
}

/// For each class, the classes that every acyclic term of it contains (itself included), as
/// sorted lists: the least fixpoint of `must(c) = {c} ∪ ⋂ over nodes n of c (⋃ over children
/// d of n of must(d))`, over the model's `nodes` (grouped by class in `classes`). Starting
/// from `{c}` and growing, every step stays inside the true sets, so the rows
/// `y[r] >= y[c]` for `r` in `must(c)` hold for every extraction.
pub(crate) fn must_sets(graph: &Graph, classes: &[(ClassId, Vec<NodeId>)]) -> Vec<Vec<u32>> {
    let words = graph.num_classes().div_ceil(64);
    let mut must = vec![0u64; graph.num_classes() * words];
    for (c, _) in classes {
        must[c.index() * words + c.index() / 64] |= 1 << (c.index() % 64);
    }
    let (mut node_set, mut class_set) = (vec![0u64; words], vec![0u64; words]);
    let mut changed = true;
    while changed {
        changed = false;
        for (c, nodes) in classes {
            class_set.fill(u64::MAX);
            for &n in nodes {
                node_set.fill(0);
                for d in graph.children(n) {
                    let row = &must[d.index() * words..(d.index() + 1) * words];
                    node_set.iter_mut().zip(row).for_each(|(a, b)| *a |= b);
                }
                class_set
                    .iter_mut()
                    .zip(&node_set)
                    .for_each(|(a, b)| *a &= b);
            }
            if nodes.is_empty() {
                class_set.fill(0);
            }
            let row = &mut must[c.index() * words..(c.index() + 1) * words];
            for (a, b) in row.iter_mut().zip(&class_set) {
                if *a | b != *a {
                    *a |= b;
                    changed = true;
                }
            }
        }
    }
    (0..graph.num_classes())
        .map(|c| {
            let row = &must[c * words..(c + 1) * words];
            (0..graph.num_classes() as u32)
                .filter(|&r| row[r as usize / 64] >> (r % 64) & 1 == 1)
                .collect()
        })
        .collect()
}

/// Bit sets over class indices, one row per class.
pub(crate) struct ClassSets {
    words: usize,
    bits: Vec<u64>,
}

impl ClassSets {
    fn new(num_classes: usize) -> Self {
        let words = num_classes.div_ceil(64);
        ClassSets {
            words,
            bits: vec![0; words * num_classes],
        }
    }

    pub(crate) fn row(&self, c: usize) -> &[u64] {
        &self.bits[c * self.words..(c + 1) * self.words]
    }

    pub(crate) fn contains(&self, c: usize, r: usize) -> bool {
        self.bits[c * self.words + r / 64] >> (r % 64) & 1 == 1
    }
}

fn disjoint(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).all(|(x, y)| x & y == 0)
}

/// For each class, the classes reachable from it through `candidates` (itself included).
pub(crate) fn reach_sets(graph: &Graph, candidates: &[Vec<NodeId>]) -> ClassSets {
    let mut sets = ClassSets::new(graph.num_classes());
    let w = sets.words;
    for c in 0..graph.num_classes() {
        sets.bits[c * w + c / 64] |= 1 << (c % 64);
    }
    let mut changed = true;
    while changed {
        changed = false;
        for (c, nodes) in candidates.iter().enumerate() {
            for &n in nodes {
                for d in graph.children(n) {
                    for k in 0..w {
                        let add = sets.bits[d.index() * w + k] & !sets.bits[c * w + k];
                        if add != 0 {
                            sets.bits[c * w + k] |= add;
                            changed = true;
                        }
                    }
                }
            }
        }
    }
    sets
}

/// A lower bound on the DAG cost of every acyclic term of each class (non-negative costs).
///
/// A node costs at least its own cost plus, for children whose reachable classes are pairwise
/// disjoint, the sum of their bounds (their sub-DAGs cannot share a node). Iterated upward from
/// zero, every round stays a valid bound; the rounds stop at a fixpoint or after
/// `rounds_limit`. On an associativity closure (every class a set of summands, children
/// disjoint subsets) this is the exact `2k - 1`, where the LP relaxation is far below.
pub(crate) fn dag_lower_bounds(
    graph: &Graph,
    candidates: &[Vec<NodeId>],
    reach: &ClassSets,
    rounds_limit: usize,
) -> Vec<f64> {
    let mut bound = vec![0.0; graph.num_classes()];
    let mut acc = vec![0u64; reach.words];
    for _ in 0..rounds_limit {
        let mut changed = false;
        for c in 0..graph.num_classes() {
            let best = candidates[c]
                .iter()
                .map(|&n| node_lower_bound(graph, n, &bound, reach, &mut acc))
                .fold(f64::INFINITY, f64::min);
            if best.is_finite() && best > bound[c] + 1e-9 {
                bound[c] = best;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    bound
}

/// `n`'s cost plus the bounds of a greedy set of children with disjoint reachable classes.
pub(crate) fn node_lower_bound(
    graph: &Graph,
    n: NodeId,
    bound: &[f64],
    reach: &ClassSets,
    acc: &mut [u64],
) -> f64 {
    let mut children = graph.children(n).to_vec();
    children.sort_by(|a, b| bound[b.index()].total_cmp(&bound[a.index()]).then(a.cmp(b)));
    children.dedup();
    acc.fill(0);
    let mut sum = graph.cost(n);
    for d in children {
        let row = reach.row(d.index());
        if disjoint(acc, row) {
            sum += bound[d.index()];
            acc.iter_mut().zip(row).for_each(|(a, r)| *a |= r);
        }
    }
    sum
}
