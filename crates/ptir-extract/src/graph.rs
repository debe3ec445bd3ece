//! The extraction-side e-graph: classes of nodes, each node with a cost and child classes.
//!
//! The invariants are on [`Graph`].

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::Range;

use indexmap::IndexMap;
use thiserror::Error;

/// Dense id of an e-class in a [`Graph`] (an index into its classes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ClassId(pub(crate) u32);

/// Dense id of an e-node in a [`Graph`] (an index into its nodes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub(crate) u32);

impl ClassId {
    /// The index of this class, in `0..graph.num_classes()`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl NodeId {
    /// The index of this node, in `0..graph.num_nodes()`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Why a graph could not be built.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum GraphError {
    /// Two nodes have the same name.
    #[error("duplicate node id `{0}`")]
    DuplicateNode(String),
    /// A node names a child node that is not in the graph.
    #[error("node `{node}` has child `{child}`, which is not a node of the e-graph")]
    MissingChild {
        /// The parent node's name.
        node: String,
        /// The missing child's name.
        child: String,
    },
    /// A root class has no node.
    #[error("root e-class `{0}` has no node")]
    MissingRoot(String),
    /// A node's cost is NaN or negative infinity.
    #[error("node `{node}` has cost {cost}, which is not a number or is -inf")]
    BadCost {
        /// The node's name.
        node: String,
        /// The offending cost.
        cost: f64,
    },
    /// A root class has no acyclic extraction of finite cost.
    #[error("root e-class `{0}` has no acyclic term of finite cost")]
    Unextractable(String),
    /// The graph has more classes or nodes than `u32` ids can name.
    #[error("the e-graph is too large: {0} ids do not fit in u32")]
    TooLarge(usize),
    /// The JSON text is not an egraph-serialize e-graph.
    #[error("invalid egraph-serialize JSON: {0}")]
    Json(String),
}

/// An immutable e-graph for extraction.
///
/// [`Graph`] knows nothing of `egg` or of PTIR: it is what every extractor reads, whether the
/// e-graph came from our saturation or from another tool's JSON (see
/// [`Graph::from_serialized`]). Ids are dense `u32` indices ([`ClassId`], [`NodeId`]); the
/// string ids of the interchange format are kept only as names for writing back.
///
/// # Invariants
///
/// A `Graph` is built once by [`GraphBuilder::build`] and never changes. The nodes of a class
/// are contiguous ([`Graph::nodes`] is a range), in the order they were added. No cost is NaN
/// or `-inf`; a cost of `+inf` marks a node that can never be chosen (sums of finite costs
/// that overflow saturate at `f64::MAX` in the extractors, so deep DAGs stay extractable). Every root class has an acyclic extraction of finite cost, so extractors
/// cannot fail: a graph without one is refused with [`GraphError::Unextractable`].
///
/// A node is *usable* ([`Graph::is_usable`]) unless it is subsumed (egglog's "do not
/// extract" mark), has an infinite cost, or has its own class as a child (a self-loop, which
/// no acyclic extraction can choose).
///
/// ```
/// use ptir_extract::Graph;
/// let mut b = Graph::builder();
/// let x = b.class("x");
/// b.add_node(x, "x", 1.0, &[]);
/// let f = b.class("f");
/// b.add_node(f, "f", 2.0, &[x]);
/// b.add_node(f, "g", 5.0, &[x, x]);
/// b.add_root(f);
/// let g = b.build().unwrap();
/// assert_eq!((g.num_classes(), g.num_nodes()), (2, 3));
/// let fnode = g.nodes(g.roots()[0]).start;
/// assert_eq!(g.op(fnode), "f");
/// assert_eq!(g.children(fnode), &[x]);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Graph {
    /// `class_start[c]..class_start[c + 1]` are class `c`'s nodes.
    class_start: Vec<u32>,
    class_names: Strings,
    node_class: Vec<ClassId>,
    costs: Vec<f64>,
    ops: Strings,
    node_names: Strings,
    subsumed: Vec<bool>,
    /// `child_start[n]..child_start[n + 1]` index `child_pool`.
    child_start: Vec<u32>,
    child_pool: Vec<ClassId>,
    roots: Vec<ClassId>,
    has_negative_cost: bool,
    /// `parent_start[c]..parent_start[c + 1]` index `parent_pool`: class `c`'s parents
    /// (see [`Graph::parents`]), worked out once when the graph is built.
    parent_start: Vec<u32>,
    parent_pool: Vec<NodeId>,
}

impl Graph {
    /// A builder for a new graph.
    pub fn builder() -> GraphBuilder {
        GraphBuilder::default()
    }

    /// Number of classes.
    pub fn num_classes(&self) -> usize {
        self.class_names.len()
    }

    /// Number of nodes.
    pub fn num_nodes(&self) -> usize {
        self.node_class.len()
    }

    /// All class ids, in order.
    pub fn classes(&self) -> impl DoubleEndedIterator<Item = ClassId> + ExactSizeIterator + Clone {
        (0..self.num_classes() as u32).map(ClassId)
    }

    /// The nodes of `class`, a contiguous range of ids.
    pub fn nodes(&self, class: ClassId) -> Range<NodeId> {
        let c = class.index();
        NodeId(self.class_start[c])..NodeId(self.class_start[c + 1])
    }

    /// The node ids of `class` as an iterator.
    pub fn node_ids(&self, class: ClassId) -> impl ExactSizeIterator<Item = NodeId> {
        let c = class.index();
        (self.class_start[c]..self.class_start[c + 1]).map(NodeId)
    }

    /// The class a node belongs to.
    pub fn class_of(&self, node: NodeId) -> ClassId {
        self.node_class[node.index()]
    }

    /// The node's cost.
    pub fn cost(&self, node: NodeId) -> f64 {
        self.costs[node.index()]
    }

    /// The node's operator name.
    pub fn op(&self, node: NodeId) -> &str {
        self.ops.get(node.index())
    }

    /// The node's child classes, in order (a class may repeat).
    pub fn children(&self, node: NodeId) -> &[ClassId] {
        let n = node.index();
        &self.child_pool[self.child_start[n] as usize..self.child_start[n + 1] as usize]
    }

    /// Whether the node is subsumed (never extracted).
    pub fn is_subsumed(&self, node: NodeId) -> bool {
        self.subsumed[node.index()]
    }

    /// Whether an extractor may choose the node (see [`Graph`]).
    pub fn is_usable(&self, node: NodeId) -> bool {
        let class = self.class_of(node);
        !self.is_subsumed(node)
            && self.cost(node) < f64::INFINITY
            && !self.children(node).contains(&class)
    }

    /// The root classes, which every extraction must cover, in order (possibly repeated).
    pub fn roots(&self) -> &[ClassId] {
        &self.roots
    }

    /// The class's name (its id in the interchange format).
    pub fn class_name(&self, class: ClassId) -> &str {
        self.class_names.get(class.index())
    }

    /// The node's name (its id in the interchange format).
    pub fn node_name(&self, node: NodeId) -> &str {
        self.node_names.get(node.index())
    }

    /// Whether some node has a negative cost (then DAG cost is not monotone in the chosen set).
    pub fn has_negative_cost(&self) -> bool {
        self.has_negative_cost
    }

    /// The usable nodes that have `class` as a child, in node order, each once.
    ///
    /// ```
    /// let mut b = ptir_extract::Graph::builder();
    /// let (x, f) = (b.class("x"), b.class("f"));
    /// b.add_node(x, "x", 1.0, &[]);
    /// b.add_node(f, "g", 5.0, &[x, x]);
    /// b.add_root(f);
    /// let g = b.build().unwrap();
    /// assert_eq!(g.parents(x), &[g.nodes(f).start]);
    /// assert!(g.parents(f).is_empty());
    /// ```
    pub fn parents(&self, class: ClassId) -> &[NodeId] {
        let c = class.index();
        &self.parent_pool[self.parent_start[c] as usize..self.parent_start[c + 1] as usize]
    }

    /// Fills [`Graph::parents`]' tables: a count per class, then the nodes in place.
    fn index_parents(&mut self) {
        let mut start = vec![0u32; self.num_classes() + 1];
        let usable = (0..self.num_nodes() as u32).map(NodeId);
        let usable: Vec<NodeId> = usable.filter(|&n| self.is_usable(n)).collect();
        for &n in &usable {
            for_each_distinct(self.children(n), |c| start[c.index() + 1] += 1);
        }
        for c in 0..self.num_classes() {
            start[c + 1] += start[c];
        }
        let mut next = start.clone();
        let mut pool = vec![NodeId(0); start[self.num_classes()] as usize];
        for &n in &usable {
            for_each_distinct(self.children(n), |c| {
                pool[next[c.index()] as usize] = n;
                next[c.index()] += 1;
            });
        }
        (self.parent_start, self.parent_pool) = (start, pool);
    }

    /// Which classes have an acyclic term of finite cost (the least fixpoint of "has a usable
    /// node whose children all have one").
    pub fn productive_classes(&self) -> Vec<bool> {
        let mut productive = vec![false; self.num_classes()];
        let mut missing: Vec<u32> = (0..self.num_nodes() as u32)
            .map(|n| distinct_count(self.children(NodeId(n))) as u32)
            .collect();
        let mut stack: Vec<NodeId> = (0..self.num_nodes() as u32)
            .map(NodeId)
            .filter(|&n| self.is_usable(n) && missing[n.index()] == 0)
            .collect();
        while let Some(n) = stack.pop() {
            let c = self.class_of(n);
            if std::mem::replace(&mut productive[c.index()], true) {
                continue;
            }
            for &p in self.parents(c) {
                missing[p.index()] -= 1;
                if missing[p.index()] == 0 {
                    stack.push(p);
                }
            }
        }
        productive
    }
}

/// The number of distinct classes in `classes`.
pub(crate) fn distinct_count(classes: &[ClassId]) -> usize {
    let mut n = 0;
    for_each_distinct(classes, |_| n += 1);
    n
}

/// Calls `f` once for each distinct class of `classes`, in order of first occurrence. Linear
/// scans for the short child lists of most nodes, a sort for long ones (a region node lists
/// every result and side effect of its block), so no node costs quadratic time.
pub(crate) fn for_each_distinct(classes: &[ClassId], mut f: impl FnMut(ClassId)) {
    if classes.len() <= 16 {
        for (i, &c) in classes.iter().enumerate() {
            if !classes[..i].contains(&c) {
                f(c);
            }
        }
        return;
    }
    let mut sorted: Vec<(ClassId, usize)> = classes.iter().copied().zip(0..).collect();
    sorted.sort_unstable();
    sorted.dedup_by_key(|(c, _)| *c);
    sorted.sort_unstable_by_key(|&(_, i)| i);
    for (c, _) in sorted {
        f(c);
    }
}

/// A min-heap of nodes by their own cost, ties by node id.
pub(crate) type NodeHeap = BinaryHeap<Reverse<(Ordered, NodeId)>>;

/// Where the bottom-up sweeps of the tree and DAG-greedy extractors start: for every node, the
/// number of its distinct child classes not yet settled (all of them), and the heap of the
/// usable nodes with none (the leaves), by cost.
pub(crate) fn leaves_first(graph: &Graph) -> (Vec<usize>, NodeHeap) {
    let missing: Vec<usize> = (0..graph.num_nodes() as u32)
        .map(|n| distinct_count(graph.children(NodeId(n))))
        .collect();
    let mut heap = BinaryHeap::new();
    for n in (0..graph.num_nodes() as u32).map(NodeId) {
        if graph.is_usable(n) && missing[n.index()] == 0 {
            heap.push(Reverse((Ordered(graph.cost(n)), n)));
        }
    }
    (missing, heap)
}

/// `f64` ordered by `total_cmp`, for the extractors' heaps (costs are never NaN).
#[derive(Clone, Copy, PartialEq)]
pub(crate) struct Ordered(pub(crate) f64);

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

/// Strings stored end to end, one allocation for all the names (or ops) of a graph: an
/// e-graph of our own saturation names its tens of thousands of nodes.
#[derive(Debug, Clone, Default, PartialEq)]
struct Strings {
    text: String,
    ends: Vec<usize>,
}

impl Strings {
    fn push(&mut self, s: &str) {
        self.text.push_str(s);
        self.ends.push(self.text.len());
    }

    fn push_fmt(&mut self, args: std::fmt::Arguments<'_>) {
        // Writing to a `String` cannot fail.
        let _ = std::fmt::Write::write_fmt(&mut self.text, args);
        self.ends.push(self.text.len());
    }

    fn get(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.text[start..self.ends[i]]
    }

    fn len(&self) -> usize {
        self.ends.len()
    }
}

/// A node as added: its name (if given), op and children are ranges of the builder's pools.
struct PendingNode {
    name: Option<Range<usize>>,
    class: ClassId,
    op: Range<usize>,
    cost: f64,
    children: Range<usize>,
    subsumed: bool,
}

/// Builds a [`Graph`]: classes are named and created on first mention, nodes are added to a
/// class with their child classes, then [`build`](GraphBuilder::build) checks the invariants.
#[derive(Default)]
pub struct GraphBuilder {
    classes: IndexMap<String, ()>,
    nodes: Vec<PendingNode>,
    /// The nodes' names and ops, end to end.
    text: String,
    /// The nodes' children, end to end.
    child_pool: Vec<ClassId>,
    /// Whether some node has an explicit name (only then can two nodes share one).
    named: bool,
    roots: Vec<ClassId>,
}

impl GraphBuilder {
    /// Makes room for `nodes` more nodes with `children` child classes in all, so that adding
    /// them does not grow the builder's buffers step by step.
    pub fn reserve(&mut self, nodes: usize, children: usize) {
        self.nodes.reserve(nodes);
        self.child_pool.reserve(children);
    }

    /// The class named `name`, created if new.
    pub fn class(&mut self, name: &str) -> ClassId {
        if let Some(i) = self.classes.get_index_of(name) {
            return ClassId(i as u32);
        }
        self.classes.insert(name.to_string(), ());
        ClassId(self.classes.len() as u32 - 1)
    }

    /// Adds a node to `class`; it is named `"{class}.{k}"` for its `k`-th node.
    pub fn add_node(&mut self, class: ClassId, op: &str, cost: f64, children: &[ClassId]) {
        self.push(None, class, op, cost, children, false);
    }

    /// Adds a node with an explicit name, possibly subsumed (never extracted).
    pub fn add_named_node(
        &mut self,
        name: &str,
        class: ClassId,
        op: &str,
        cost: f64,
        children: &[ClassId],
        subsumed: bool,
    ) {
        self.push(Some(name), class, op, cost, children, subsumed);
    }

    fn push(
        &mut self,
        name: Option<&str>,
        class: ClassId,
        op: &str,
        cost: f64,
        children: &[ClassId],
        subsumed: bool,
    ) {
        let mut text = |s: &str| {
            let start = self.text.len();
            self.text.push_str(s);
            start..self.text.len()
        };
        let (name, op) = (name.map(&mut text), text(op));
        self.named |= name.is_some();
        let start = self.child_pool.len();
        self.child_pool.extend_from_slice(children);
        self.nodes.push(PendingNode {
            name,
            class,
            op,
            cost,
            children: start..self.child_pool.len(),
            subsumed,
        });
    }

    /// Adds `class` to the roots. A class may be a root twice (extraction-gym's herbie
    /// e-graphs do that): tree cost then counts its term twice, DAG cost once.
    pub fn add_root(&mut self, class: ClassId) {
        self.roots.push(class);
    }

    /// Checks the invariants of [`Graph`] and builds it. Nodes are ordered by class and,
    /// within a class, as they were added.
    pub fn build(self) -> Result<Graph, GraphError> {
        let num_classes = self.classes.len();
        if num_classes >= u32::MAX as usize || self.nodes.len() >= u32::MAX as usize {
            return Err(GraphError::TooLarge(num_classes.max(self.nodes.len())));
        }
        let mut order: Vec<usize> = (0..self.nodes.len()).collect();
        order.sort_by_key(|&i| self.nodes[i].class);
        let mut class_names = Strings::default();
        for name in self.classes.keys() {
            class_names.push(name);
        }
        let mut graph = Graph {
            class_start: vec![0; num_classes + 1],
            class_names,
            node_class: Vec::with_capacity(order.len()),
            costs: Vec::with_capacity(order.len()),
            ops: Strings::default(),
            node_names: Strings::default(),
            subsumed: Vec::with_capacity(order.len()),
            child_start: Vec::with_capacity(order.len() + 1),
            child_pool: Vec::with_capacity(self.child_pool.len()),
            roots: self.roots,
            has_negative_cost: false,
            parent_start: Vec::new(),
            parent_pool: Vec::new(),
        };
        graph.child_start.push(0);
        let mut k = 0;
        for (j, &i) in order.iter().enumerate() {
            let node = &self.nodes[i];
            let same_class = j > 0 && graph.node_class[j - 1] == node.class;
            k = if same_class { k + 1 } else { 0 };
            graph.push_node(node, k, &self.text, &self.child_pool)?;
        }
        if self.named {
            let mut seen = std::collections::HashSet::with_capacity(graph.num_nodes());
            for n in 0..graph.num_nodes() {
                if !seen.insert(graph.node_names.get(n)) {
                    return Err(GraphError::DuplicateNode(graph.node_names.get(n).into()));
                }
            }
        }
        graph.finish()
    }
}

impl Graph {
    fn push_node(
        &mut self,
        node: &PendingNode,
        k: usize,
        text: &str,
        child_pool: &[ClassId],
    ) -> Result<(), GraphError> {
        let n = self.num_classes();
        let children = &child_pool[node.children.clone()];
        assert!(
            node.class.index() < n && children.iter().all(|c| c.index() < n),
            "GraphBuilder: a ClassId from another builder was used; use this builder's `class`"
        );
        match &node.name {
            Some(name) => self.node_names.push(&text[name.clone()]),
            None => {
                let class_name = self.class_names.get(node.class.index());
                self.node_names.push_fmt(format_args!("{class_name}.{k}"));
            }
        }
        if node.cost.is_nan() || node.cost == f64::NEG_INFINITY {
            return Err(GraphError::BadCost {
                node: self.node_names.get(self.node_names.len() - 1).into(),
                cost: node.cost,
            });
        }
        self.has_negative_cost |= node.cost < 0.0;
        self.node_class.push(node.class);
        self.costs.push(node.cost);
        self.ops.push(&text[node.op.clone()]);
        self.subsumed.push(node.subsumed);
        self.child_pool.extend_from_slice(children);
        self.child_start.push(self.child_pool.len() as u32);
        Ok(())
    }

    /// Fills `class_start` from the (class-sorted) nodes and checks the roots.
    fn finish(mut self) -> Result<Graph, GraphError> {
        let mut counts = vec![0u32; self.num_classes()];
        for c in &self.node_class {
            counts[c.index()] += 1;
        }
        for (c, &count) in counts.iter().enumerate() {
            self.class_start[c + 1] = self.class_start[c] + count;
        }
        for &r in &self.roots {
            if self.nodes(r).is_empty() {
                return Err(GraphError::MissingRoot(self.class_name(r).to_string()));
            }
        }
        self.index_parents();
        let productive = self.productive_classes();
        if let Some(&r) = self.roots.iter().find(|r| !productive[r.index()]) {
            return Err(GraphError::Unextractable(self.class_name(r).to_string()));
        }
        Ok(self)
    }
}
