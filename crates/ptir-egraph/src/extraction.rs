//! Extraction from a saturated PTIR e-graph: e-node costs from a [`CostModel`], and the choice
//! of one e-node per e-class by one of the extractors.
//!
//! Every e-node is priced on its own ([`node_cost`]): an op e-node costs what the model says
//! for that op at the types of its classes; parameters, attributes and region nodes cost
//! nothing. The tree extractor is egg's `Extractor` over these costs.

use crate::analysis::{layout, node_op, PtirEGraph};
use crate::cost::CostModel;
use crate::language::PtirNode;
use crate::lower::Lowered;
use egg::{Id, Language};
use ptir_ir::{Op, Type};
use rustc_hash::FxHashMap;

/// Which extractor to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExtractorKind {
    /// Bottom-up tree cost (egg's `Extractor`): a shared class is paid once per use.
    Tree,
}

impl ExtractorKind {
    /// Every extractor.
    pub const ALL: &'static [ExtractorKind] = &[ExtractorKind::Tree];

    /// Its name in reports and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ExtractorKind::Tree => "tree",
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
    pub fn node(&self, c: Id) -> PtirNode {
        self.nodes
            .get(&c)
            .cloned()
            .unwrap_or(PtirNode::Region(0, 0, vec![]))
    }
}

/// The cost of one e-node under `model` (children not included).
pub fn node_cost(egraph: &PtirEGraph, node: &PtirNode, model: &dyn CostModel) -> f64 {
    match node {
        PtirNode::Param(..) | PtirNode::Attr(_) | PtirNode::Region(..) => 0.0,
        PtirNode::Const(c) => match egraph.analysis.tables.const_of(*c) {
            Some((t, lit)) => {
                model.op_cost(&Op::Constant(lit.clone()), &[], &Type::Tensor(t.clone()))
            }
            None => 0.0,
        },
        PtirNode::Op(kind, children) => match node_op(egraph, kind, children) {
            Ok((op, ty)) => {
                let l = layout(kind.key, children.len());
                let types: Vec<Type> = children[..l.operands]
                    .iter()
                    .map(|c| egraph[*c].data.ty.clone().unwrap_or(Type::Tuple(vec![])))
                    .collect();
                let refs: Vec<&Type> = types.iter().collect();
                model.op_cost(&op, &refs, &ty).max(0.0)
            }
            Err(_) => f64::INFINITY,
        },
    }
}

struct ModelCost<'a> {
    egraph: &'a PtirEGraph,
    model: &'a dyn CostModel,
}

impl egg::CostFunction<PtirNode> for ModelCost<'_> {
    type Cost = f64;

    fn cost<C: FnMut(Id) -> f64>(&mut self, enode: &PtirNode, mut costs: C) -> f64 {
        let own = if effect(enode) {
            0.0
        } else {
            node_cost(self.egraph, enode, self.model)
        };
        enode.fold(own, |sum, id| sum + costs(id))
    }
}

/// Impure ops are kept whatever they cost; their cost does not steer the choice.
fn effect(n: &PtirNode) -> bool {
    matches!(n, PtirNode::Op(k, _) if k.token != 0)
}

/// Chooses one e-node per class reachable from the root of `lowered`.
pub fn extract(
    lowered: &Lowered,
    model: &dyn CostModel,
    kind: ExtractorKind,
) -> Result<Choice, String> {
    let eg = &lowered.egraph;
    match kind {
        ExtractorKind::Tree => {
            let ex = egg::Extractor::new(eg, ModelCost { egraph: eg, model });
            let mut nodes = FxHashMap::default();
            let mut stack = vec![eg.find(lowered.root)];
            while let Some(c) = stack.pop() {
                if nodes.contains_key(&c) {
                    continue;
                }
                let n = ex.find_best_node(c).clone();
                stack.extend(n.children().iter().map(|x| eg.find(*x)));
                nodes.insert(c, n);
            }
            Ok(Choice {
                nodes,
                optimal: false,
            })
        }
    }
}
