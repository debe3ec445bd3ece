//! Extraction from a saturated PTIR e-graph: e-node costs from a [`CostModel`], and the choice
//! of one e-node per e-class by one of the extractors.
//!
//! Every e-node is priced on its own ([`node_cost`]): an op e-node costs what the model says
//! for that op at the types of its classes; parameters, attributes and region nodes cost
//! nothing. The priced e-graph becomes an extraction [`Graph`] ([`to_graph`]), on which the
//! extractors of [`ptir_extract`] run; their choice maps back to e-nodes ([`Choice`]).

use crate::analysis::{layout, operand_types, typed_node_op, PtirEGraph};
use crate::language::{Children, PtirNode};
use crate::lower::Lowered;
use egg::{Id, Language};
use ptir_cost::CostModel;
use ptir_extract::{
    ClassId, ExactDagExtractor, Extractor, Graph, GreedyDagExtractor, NodeId, TreeExtractor,
    GREEDY_IMPROVE_TIME_LIMIT, GREEDY_STARTS,
};
use std::time::Duration;

use crate::single_use::{self, Ban};
#[doc(no_inline)]
pub use ptir_extract::EXACT_TIME_LIMIT;
use ptir_ir::{Op, Type};
use rustc_hash::{FxHashMap, FxHashSet};
use smallvec::SmallVec;

/// Which extractor to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExtractorKind {
    /// Bottom-up tree cost (egg's semantics): a shared class is paid once per use.
    Tree,
    /// DAG-aware greedy (`dag-greedy`; not the greedy *engine*): a shared class is paid once.
    DagGreedy,
    /// Exact DAG extraction (0-1 ILP) within [`EXACT_TIME_LIMIT`]; falls back to the best
    /// answer found and says whether it proved optimality.
    Exact,
    /// Chaos: the tree extractor under random costs (seeded). Correctness must never depend
    /// on extraction choosing well; tests use this to prove it.
    Chaos(u64),
}

impl ExtractorKind {
    /// The extractors users choose from.
    pub const ALL: &'static [ExtractorKind] = &[
        ExtractorKind::Tree,
        ExtractorKind::DagGreedy,
        ExtractorKind::Exact,
    ];

    /// The user-facing extractor named `name` (one of [`ExtractorKind::ALL`]; `greedy` is
    /// `dag-greedy`).
    ///
    /// ```
    /// use ptir_egraph::ExtractorKind;
    /// assert_eq!(ExtractorKind::from_name("greedy"), Some(ExtractorKind::DagGreedy));
    /// assert_eq!(ExtractorKind::from_name("chaos"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<ExtractorKind> {
        let name = if name == "greedy" { "dag-greedy" } else { name };
        ExtractorKind::ALL
            .iter()
            .copied()
            .find(|k| k.name() == name)
    }

    /// Its name in reports and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ExtractorKind::Tree => "tree",
            ExtractorKind::DagGreedy => "dag-greedy",
            ExtractorKind::Exact => "exact",
            ExtractorKind::Chaos(_) => "chaos",
        }
    }
}

/// The chosen e-node of every class reachable from the root.
#[derive(Clone, Debug, Default)]
pub struct Choice {
    nodes: FxHashMap<Id, PtirNode>,
    /// Did the extractor prove its choice optimal?
    pub optimal: bool,
}

impl Choice {
    /// The chosen node of class `c` (a class outside the choice gets its first node, which
    /// lifting never asks for: it only follows chosen nodes).
    pub(crate) fn node(&self, c: Id) -> PtirNode {
        self.nodes
            .get(&c)
            .cloned()
            .unwrap_or(PtirNode::Region(0, 0, Children::new()))
    }
}

/// The cost of one e-node under `model` (children not included).
pub(crate) fn node_cost(egraph: &PtirEGraph, node: &PtirNode, model: &dyn CostModel) -> f64 {
    match node {
        PtirNode::Param(..) | PtirNode::Attr(_) | PtirNode::Region(..) => 0.0,
        PtirNode::Const(c) => match egraph.analysis.tables.const_of(*c) {
            Some((t, lit)) => {
                model.op_cost(&Op::Constant(lit.clone()), &[], &Type::Tensor(t.clone()))
            }
            None => 0.0,
        },
        PtirNode::Op(kind, children) => {
            let priced = typed_node_op(egraph, kind, children).and_then(|(op, ty)| {
                let l = layout(kind.key, children.len());
                let refs = operand_types(egraph, &children[..l.operands])?;
                Ok(model.op_cost(&op, &refs, &ty).max(0.0))
            });
            priced.unwrap_or(f64::INFINITY)
        }
    }
}

/// Impure ops are kept whatever they cost; their cost does not steer the choice.
fn effect(n: &PtirNode) -> bool {
    matches!(n, PtirNode::Op(k, _) if k.token != 0)
}

/// The e-graph of `lowered` as an extraction graph priced by `model`, with the e-node behind
/// each graph node (graph nodes are named by their index in that list). A class holding a side
/// effect offers only the effect: lifting emits side effects as themselves.
pub(crate) fn to_graph(
    lowered: &Lowered,
    model: &dyn CostModel,
) -> Result<(Graph, Vec<PtirNode>), String> {
    to_graph_without(lowered, model, &FxHashSet::default())
}

/// [`to_graph`] without the `banned` e-nodes (a class they would leave empty keeps them):
/// the fused e-nodes whose `single-use` guards an earlier extraction broke
/// (`crate::single_use`).
fn to_graph_without(
    lowered: &Lowered,
    model: &dyn CostModel,
    banned: &FxHashSet<Ban>,
) -> Result<(Graph, Vec<PtirNode>), String> {
    let eg = &lowered.egraph;
    let mut b = Graph::builder();
    let total = eg.total_number_of_nodes();
    b.reserve(total, 2 * total);
    let mut nodes = Vec::with_capacity(total);
    // The graph's class of each e-class, named by its id when first mentioned.
    let mut graph_class: FxHashMap<Id, ClassId> = FxHashMap::default();
    // Names are written to reused buffers: an e-graph has tens of thousands of nodes.
    let (mut class_name, mut name, mut op) = (String::new(), String::new(), String::new());
    let mut class_of = |b: &mut ptir_extract::GraphBuilder, id: Id| {
        *graph_class
            .entry(id)
            .or_insert_with(|| b.class(rewrite(&mut class_name, id)))
    };
    for class in eg.classes() {
        let id = class_of(&mut b, class.id);
        let effect_only: Vec<&PtirNode> = class.nodes.iter().filter(|n| effect(n)).collect();
        let mut offered: Vec<&PtirNode> = if effect_only.is_empty() {
            class.nodes.iter().collect()
        } else {
            effect_only
        };
        if !banned.is_empty() {
            let kept: Vec<&PtirNode> = (offered.iter().copied())
                .filter(|n| !banned.contains(&(class.id, (*n).clone())))
                .collect();
            if !kept.is_empty() {
                offered = kept;
            }
        }
        for n in offered {
            let mut children: SmallVec<[ClassId; 4]> = SmallVec::new();
            for c in n.children() {
                children.push(class_of(&mut b, eg.find(*c)));
            }
            let cost = node_cost(eg, n, model);
            let (name, op) = (rewrite(&mut name, nodes.len()), rewrite(&mut op, n));
            b.add_named_node(name, id, op, cost, &children, false);
            nodes.push(n.clone());
        }
    }
    let root = class_of(&mut b, eg.find(lowered.root));
    b.add_root(root);
    let graph = b.build().map_err(|e| e.to_string())?;
    Ok((graph, nodes))
}

/// `buffer`, cleared, with `x` written to it.
fn rewrite(buffer: &mut String, x: impl std::fmt::Display) -> &str {
    use std::fmt::Write;
    buffer.clear();
    // Writing to a `String` cannot fail.
    let _ = write!(buffer, "{x}");
    buffer
}

impl Lowered {
    /// The e-graph as an extraction graph priced by `model` (what the extractors of
    /// `ptir_extract` run on; write it with `ptir_extract::serialize`). A class holding a side
    /// effect offers only the effect.
    pub fn extraction_graph(&self, model: &dyn CostModel) -> Result<Graph, String> {
        to_graph(self, model).map(|(graph, _)| graph)
    }
}

/// Chooses one e-node per class reachable from the root of `lowered`, with each extractor's
/// own time limits ([`choose_within`] with no budget).
pub fn choose(
    lowered: &Lowered,
    model: &dyn CostModel,
    kind: ExtractorKind,
) -> Result<Choice, String> {
    choose_within(lowered, model, kind, None)
}

/// [`choose`], with the extractor's search bounded by `budget` as well as by its own limit:
/// the DAG-greedy extractor's local search gets a third of it per starting point, the exact
/// extractor all of it (after which it returns the best answer found). Pricing the e-graph and
/// the greedy extractor's first phase are linear and not bounded. A run's time limit passes
/// its budget here ([`crate::optimize`]), so that a run stops near its limit.
pub fn choose_within(
    lowered: &Lowered,
    model: &dyn CostModel,
    kind: ExtractorKind,
    budget: Option<Duration>,
) -> Result<Choice, String> {
    let mut banned: FxHashSet<Ban> = FxHashSet::default();
    for _ in 0..SINGLE_USE_ROUNDS {
        let choice = choose_once(lowered, model, kind, budget, &banned)?;
        let broken = single_use::violations(lowered, &|c| choice.nodes.get(&c).cloned());
        if broken.is_empty() {
            // Optimal only if nothing was banned: the bans are a heuristic answer to the
            // constrained problem.
            let optimal = choice.optimal && banned.is_empty();
            return Ok(Choice { optimal, ..choice });
        }
        banned.extend(broken);
    }
    // Settle: no fused e-node of a `single-use` rule at all (the unfused forms break no
    // guard).
    banned.extend(single_use::all_fused(lowered));
    let choice = choose_once(lowered, model, kind, budget, &banned)?;
    Ok(Choice {
        optimal: false,
        ..choice
    })
}

/// Rounds of extraction that ban the fused e-nodes breaking `single-use` guards, before every
/// such e-node is banned at once.
const SINGLE_USE_ROUNDS: usize = 8;

/// One extraction, without the `banned` e-nodes.
fn choose_once(
    lowered: &Lowered,
    model: &dyn CostModel,
    kind: ExtractorKind,
    budget: Option<Duration>,
    banned: &FxHashSet<Ban>,
) -> Result<Choice, String> {
    let (graph, nodes) = match kind {
        ExtractorKind::Chaos(seed) => to_graph_without(lowered, &chaos_model(seed), banned)?,
        _ => to_graph_without(lowered, model, banned)?,
    };
    let (extraction, optimal) = match kind {
        ExtractorKind::Tree | ExtractorKind::Chaos(_) => (TreeExtractor.extract(&graph), false),
        ExtractorKind::DagGreedy => {
            let limit = budget.map_or(GREEDY_IMPROVE_TIME_LIMIT, |b| {
                GREEDY_IMPROVE_TIME_LIMIT.min(b / GREEDY_STARTS)
            });
            let extractor = GreedyDagExtractor::default().with_improve_time_limit(limit);
            let input = input_choice(lowered, &graph, &nodes);
            (extractor.extract_from(&graph, &input), false)
        }
        ExtractorKind::Exact => {
            let limit = budget.map_or(EXACT_TIME_LIMIT, |b| EXACT_TIME_LIMIT.min(b));
            let out = ExactDagExtractor::default()
                .with_time_limit(limit)
                .solve(&graph);
            (out.extraction, out.optimal)
        }
    };
    let mut chosen = FxHashMap::default();
    for (class, node) in extraction.chosen() {
        let c: usize = graph
            .class_name(class)
            .parse()
            .map_err(|_| "a class name is not an e-class id")?;
        let n: usize = graph
            .node_name(node)
            .parse()
            .map_err(|_| "a node name is not an index")?;
        let node = nodes
            .get(n)
            .cloned()
            .ok_or("a node index is out of range")?;
        chosen.insert(Id::from(c), node);
    }
    Ok(Choice {
        nodes: chosen,
        optimal,
    })
}

/// The input function as a choice of `graph` (per class, the e-node lowering added first, if
/// the graph offers it): the greedy extractor's local search starts from it too, so that what
/// it returns is never costlier than the input by the e-graph's prices. Phase 1 alone can
/// split one product shared by several slices into one small product per slice, each cheaper
/// on its own and dearer together (a GRU cell's gates: 1.5x the input's cost).
fn input_choice(lowered: &Lowered, graph: &Graph, nodes: &[PtirNode]) -> Vec<Option<NodeId>> {
    let eg = &lowered.egraph;
    let mut first: FxHashMap<Id, PtirNode> = FxHashMap::default();
    for id in (0..lowered.lowered_nodes.min(eg.nodes().len())).map(Id::from) {
        let node = eg.id_to_node(id).clone().map_children(|c| eg.find(c));
        first.entry(eg.find(id)).or_insert(node);
    }
    graph
        .classes()
        .map(|c| {
            let class = Id::from(graph.class_name(c).parse::<usize>().ok()?);
            let want = first.get(&class)?;
            graph.node_ids(c).find(|&n| {
                let index = graph.node_name(n).parse::<usize>().ok();
                index.and_then(|i| nodes.get(i)) == Some(want)
            })
        })
        .collect()
}

/// Random costs: each op costs a seeded pseudo-random amount in [0, 100).
fn chaos_model(seed: u64) -> ptir_cost::FnCost {
    ptir_cost::FnCost::new("chaos", move |op, _, ty| {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (seed, op.name(), ty.to_string()).hash(&mut h);
        (h.finish() % 100) as f64
    })
}
