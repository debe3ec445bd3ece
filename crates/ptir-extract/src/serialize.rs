//! egraph-serialize interchange: the JSON format of extraction-gym and the e-graph visualizers.
//!
//! ```text
//! {"nodes": {NODE_ID: {"op": STRING, "children": [NODE_ID, ...], "eclass": CLASS_ID,
//!                      "cost": NUMBER, "subsumed": BOOL}},
//!  "root_eclasses": [CLASS_ID, ...], "class_data": {...}}
//! ```
//!
//! A child is named by a node id but stands for that node's class. Reading keeps the classes in
//! the order they are first mentioned and the nodes of a class in file order; writing names
//! each child by the first node of its class. `class_data` is not kept. A round trip through
//! [`to_json`] and [`from_json`] gives back an equal [`Graph`].
//!
//! ```
//! use ptir_extract::serialize::{from_json, to_json};
//! let text = r#"{"nodes": {
//!     "x":  {"op": "x", "children": [], "eclass": "c0", "cost": 1.0},
//!     "f":  {"op": "f", "children": ["x", "x"], "eclass": "c1", "cost": 2.5}},
//!   "root_eclasses": ["c1"]}"#;
//! let graph = from_json(text).unwrap();
//! assert_eq!((graph.num_classes(), graph.num_nodes()), (2, 2));
//! assert_eq!(from_json(&to_json(&graph)).unwrap(), graph);
//!
//! let err = from_json(r#"{"nodes": {"f": {"op": "f", "children": ["y"], "eclass": "c"}}}"#);
//! assert_eq!(
//!     err.unwrap_err().to_string(),
//!     "node `f` has child `y`, which is not a node of the e-graph"
//! );
//! ```

use std::io::{Read, Write};

use egraph_serialize as es;

use super::graph::{Graph, GraphError};

/// Converts an egraph-serialize e-graph (checking what [`Graph`] requires).
pub fn from_serialized(egraph: &es::EGraph) -> Result<Graph, GraphError> {
    let mut b = Graph::builder();
    // Classes first, in the order nodes name them, so that a round trip keeps class ids.
    for node in egraph.nodes.values() {
        b.class(node.eclass.as_ref());
    }
    for (id, node) in &egraph.nodes {
        let class = b.class(node.eclass.as_ref());
        let mut children = Vec::with_capacity(node.children.len());
        for child in &node.children {
            let Some(child_node) = egraph.nodes.get(child) else {
                return Err(GraphError::MissingChild {
                    node: id.to_string(),
                    child: child.to_string(),
                });
            };
            children.push(b.class(child_node.eclass.as_ref()));
        }
        let cost = node.cost.into_inner();
        b.add_named_node(id.as_ref(), class, &node.op, cost, &children, node.subsumed);
    }
    for root in &egraph.root_eclasses {
        let class = b.class(root.as_ref());
        b.add_root(class);
    }
    b.build()
}

/// Converts to an egraph-serialize e-graph, with each node's cost from the graph.
///
/// A cost that is `+inf` is written as `f64::MAX` (JSON has no infinity).
pub fn to_serialized(graph: &Graph) -> es::EGraph {
    let mut egraph = es::EGraph::default();
    for class in graph.classes() {
        for n in graph.node_ids(class) {
            let children = graph.children(n).iter().map(|&d| {
                let rep = graph.nodes(d).start;
                es::NodeId::from(graph.node_name(rep))
            });
            let cost = graph.cost(n).min(f64::MAX);
            let node = es::Node {
                op: graph.op(n).to_string(),
                children: children.collect(),
                eclass: es::ClassId::from(graph.class_name(class)),
                cost: es::Cost::new(cost).unwrap_or(es::Cost::new(f64::MAX).unwrap_or_default()),
                subsumed: graph.is_subsumed(n),
            };
            egraph.add_node(graph.node_name(n), node);
        }
    }
    let roots = graph
        .roots()
        .iter()
        .map(|&r| es::ClassId::from(graph.class_name(r)));
    egraph.root_eclasses = roots.collect();
    egraph
}

/// Parses egraph-serialize JSON text.
pub fn from_json(text: &str) -> Result<Graph, GraphError> {
    let egraph: es::EGraph =
        serde_json::from_str(text).map_err(|e| GraphError::Json(e.to_string()))?;
    from_serialized(&egraph)
}

/// Reads egraph-serialize JSON from a reader.
pub fn read_json(reader: impl Read) -> Result<Graph, GraphError> {
    let reader = std::io::BufReader::new(reader);
    let egraph: es::EGraph =
        serde_json::from_reader(reader).map_err(|e| GraphError::Json(e.to_string()))?;
    from_serialized(&egraph)
}

/// The graph as pretty-printed egraph-serialize JSON.
pub fn to_json(graph: &Graph) -> String {
    // Serializing maps with string keys and finite numbers cannot fail.
    serde_json::to_string_pretty(&to_serialized(graph)).unwrap_or_default()
}

/// Writes the graph as egraph-serialize JSON.
pub fn write_json(graph: &Graph, writer: impl Write) -> Result<(), GraphError> {
    let writer = std::io::BufWriter::new(writer);
    serde_json::to_writer_pretty(writer, &to_serialized(graph))
        .map_err(|e| GraphError::Json(e.to_string()))
}

impl Graph {
    /// Same as [`from_serialized`].
    pub fn from_serialized(egraph: &es::EGraph) -> Result<Graph, GraphError> {
        from_serialized(egraph)
    }

    /// Same as [`to_serialized`].
    pub fn to_serialized(&self) -> es::EGraph {
        to_serialized(self)
    }

    /// Same as [`from_json`].
    pub fn from_json(text: &str) -> Result<Graph, GraphError> {
        from_json(text)
    }

    /// Same as [`to_json`].
    pub fn to_json(&self) -> String {
        to_json(self)
    }
}
