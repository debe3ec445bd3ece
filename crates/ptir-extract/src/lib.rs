//! E-graph extraction, on its own: choosing one node per needed e-class so that the chosen term
//! is cheapest. The crate knows neither egg nor PTIR (`ptir-egraph` prices its e-graphs into a
//! [`Graph`]) and does no I/O: [`serialize`] converts text, readers and writers.
//!
//! An [`Extraction`] maps each class reachable from the roots (through the chosen nodes) to its
//! chosen node. Two costs measure it:
//!
//! - **tree cost**: the cost of the term as a tree, where a class used twice is paid twice
//!   (what egg's `Extractor` minimizes);
//! - **DAG cost**: the sum of the chosen nodes' costs, each paid once however often it is used
//!   (what a program with shared values pays).
//!
//! Three extractors implement [`Extractor`]:
//!
//! | extractor | minimizes | how |
//! | --- | --- | --- |
//! | [`TreeExtractor`] | tree cost, optimally | bottom-up fixpoint, egg's semantics |
//! | [`GreedyDagExtractor`] | DAG cost, heuristically | cost sets bottom-up, then local search |
//! | [`ExactDagExtractor`] | DAG cost, optimally within a time limit | reduction, bounds, cutting planes, 0-1 ILP |
//!
//! Every extractor returns an acyclic extraction that covers all roots ([`Graph`] refuses
//! e-graphs where that is impossible). Negative costs are allowed: the DAG cost still counts
//! each chosen node once, but a bigger term can then be cheaper, so tree extraction is only a
//! heuristic there.
//!
//! [`serialize`] reads and writes the egraph-serialize JSON format of extraction-gym, so that
//! e-graphs made by other tools can be extracted and ours can be inspected by theirs.
//!
//! On the 125 extraction-gym e-graphs (see `BENCHMARKS.md`), the greedy extractor's DAG cost is
//! never worse than extraction-gym's `faster-greedy-dag` (better on 22) in about a third of its
//! time, and the exact extractor proves optimality on 62 of the 64 under 2,000 nodes within
//! [`EXACT_TIME_LIMIT`].
//!
//! ```
//! use ptir_extract::{Extractor, Graph, GreedyDagExtractor, TreeExtractor};
//!
//! // (+ (* x x) (* x x)) where both products are the same e-class:
//! // the tree cost pays the product twice, the DAG cost once.
//! let mut b = Graph::builder();
//! let (x, mul, add) = (b.class("x"), b.class("mul"), b.class("add"));
//! b.add_node(x, "x", 1.0, &[]);
//! b.add_node(mul, "*", 1.0, &[x, x]);
//! b.add_node(add, "+", 1.0, &[mul, mul]);
//! b.add_root(add);
//! let graph = b.build().unwrap();
//!
//! let tree = TreeExtractor.extract(&graph);
//! assert_eq!(tree.tree_cost(&graph), 7.0);
//! let dag = GreedyDagExtractor::default().extract(&graph);
//! assert_eq!(dag.dag_cost(&graph), 3.0);
//! ```

mod cuts;
mod exact;
mod graph;
mod greedy;
mod ilp;
mod improve;
mod reduce;
pub mod serialize;
mod tree;

pub use exact::{ExactDagExtractor, ExactOutcome, EXACT_TIME_LIMIT};
pub use graph::{ClassId, Graph, GraphBuilder, GraphError, NodeId};
pub use greedy::{GreedyDagExtractor, COST_SET_LIMIT, GREEDY_IMPROVE_TIME_LIMIT, GREEDY_STARTS};
pub use tree::TreeExtractor;

/// Something that picks a node per needed class.
///
/// The duty of an implementation: the result is acyclic ([`Extraction::is_acyclic`]), covers
/// every root ([`Extraction::is_complete`]) and is deterministic for a given graph (up to time
/// limits, which only ever stop an improvement early).
pub trait Extractor {
    /// Extracts a term for every root of `graph`.
    fn extract(&self, graph: &Graph) -> Extraction;
}

/// A chosen node for each class reachable from the roots.
///
/// ```
/// use ptir_extract::{Extraction, Graph};
/// let mut b = Graph::builder();
/// let x = b.class("x");
/// b.add_node(x, "x", 2.0, &[]);
/// let f = b.class("f");
/// b.add_node(f, "f", 1.0, &[x, x]);
/// b.add_root(f);
/// let g = b.build().unwrap();
/// let choice = |c| g.nodes(c).start;
/// let e = Extraction::from_choices(&g, |c| Some(choice(c)));
/// assert!(e.is_acyclic(&g) && e.is_complete(&g));
/// assert_eq!((e.tree_cost(&g), e.dag_cost(&g)), (5.0, 3.0));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Extraction {
    choices: Vec<Option<NodeId>>,
}

impl Extraction {
    /// Keeps, of `choose`'s choices, those of the classes reachable from the roots.
    ///
    /// Reachability follows the chosen nodes' children; a class without a choice is not
    /// followed (the result is then not [complete](Extraction::is_complete)). A choice must be
    /// a node of its class: this panics otherwise.
    pub fn from_choices(graph: &Graph, choose: impl Fn(ClassId) -> Option<NodeId>) -> Self {
        let mut choices = vec![None; graph.num_classes()];
        let mut seen = vec![false; graph.num_classes()];
        let mut stack: Vec<ClassId> = graph.roots().to_vec();
        while let Some(c) = stack.pop() {
            if std::mem::replace(&mut seen[c.index()], true) {
                continue;
            }
            let Some(n) = choose(c) else { continue };
            assert_eq!(
                graph.class_of(n),
                c,
                "chosen node {n:?} is not in class {c:?}"
            );
            choices[c.index()] = Some(n);
            stack.extend(graph.children(n).iter().filter(|d| !seen[d.index()]));
        }
        Extraction { choices }
    }

    /// The node chosen for `class`, if the class is reachable.
    pub fn choice(&self, class: ClassId) -> Option<NodeId> {
        self.choices.get(class.index()).copied().flatten()
    }

    /// The chosen `(class, node)` pairs, by class id.
    pub fn chosen(&self) -> impl Iterator<Item = (ClassId, NodeId)> + '_ {
        let classes = (0..self.choices.len() as u32).map(ClassId);
        classes
            .zip(&self.choices)
            .filter_map(|(c, n)| n.map(|n| (c, n)))
    }

    /// Number of chosen nodes.
    pub fn len(&self) -> usize {
        self.choices.iter().flatten().count()
    }

    /// Whether nothing is chosen (a graph without roots).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether every root and every child of a chosen node has a choice.
    pub fn is_complete(&self, graph: &Graph) -> bool {
        graph.roots().iter().all(|&r| self.choice(r).is_some())
            && self
                .chosen()
                .all(|(_, n)| graph.children(n).iter().all(|&d| self.choice(d).is_some()))
    }

    /// Whether the chosen nodes form no cycle.
    pub fn is_acyclic(&self, graph: &Graph) -> bool {
        self.post_order(graph).is_some()
    }

    /// The sum of the chosen nodes' costs, each counted once.
    pub fn dag_cost(&self, graph: &Graph) -> f64 {
        self.chosen().map(|(_, n)| graph.cost(n)).sum()
    }

    /// The cost of the chosen term as a tree (a class is paid once per use); `+inf` if the
    /// extraction is cyclic or incomplete.
    pub fn tree_cost(&self, graph: &Graph) -> f64 {
        if !self.is_complete(graph) {
            return f64::INFINITY;
        }
        let Some(order) = self.post_order(graph) else {
            return f64::INFINITY;
        };
        let mut cost = vec![0.0; graph.num_classes()];
        for c in order {
            let Some(n) = self.choice(c) else { continue };
            let children: f64 = graph.children(n).iter().map(|d| cost[d.index()]).sum();
            cost[c.index()] = graph.cost(n) + children;
        }
        graph.roots().iter().map(|r| cost[r.index()]).sum()
    }

    /// The chosen classes, children before parents, or `None` if they form a cycle.
    pub fn post_order(&self, graph: &Graph) -> Option<Vec<ClassId>> {
        // 0 = unseen, 1 = on the stack, 2 = done.
        let mut state = vec![0u8; graph.num_classes()];
        let mut order = Vec::with_capacity(self.len());
        for &root in graph.roots() {
            if state[root.index()] != 0 {
                continue;
            }
            let mut stack = vec![(root, 0usize)];
            state[root.index()] = 1;
            while let Some(&mut (c, ref mut i)) = stack.last_mut() {
                let children = self.choice(c).map_or(&[][..], |n| graph.children(n));
                if let Some(&d) = children.get(*i) {
                    *i += 1;
                    match state[d.index()] {
                        0 => {
                            state[d.index()] = 1;
                            stack.push((d, 0));
                        }
                        1 => return None,
                        _ => {}
                    }
                } else {
                    state[c.index()] = 2;
                    order.push(c);
                    stack.pop();
                }
            }
        }
        Some(order)
    }
}
