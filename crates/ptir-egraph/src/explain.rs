//! `--explain` under saturation: for each instruction of the lifted output, the chain of rules
//! that derived its e-node from the input, read from egg's explanations.
//!
//! With explanations on ([`crate::lower`] with `explain`), egg gives every e-node its own id and
//! records every union with its justification: each rule application unions the match's root
//! with its result under the rule's name (`rules.rs`, `union_trusted`), the analysis's
//! constant folding under `fold`. Beside them this module records which rule application
//! added which e-nodes ([`Creation`]: a result's inner ops are new classes that no union
//! touches).
//!
//! egg's own `explain_equivalence` builds a proof term by recursion over the terms' depth and
//! the nesting of congruences, which follow the input's size (a chain of 100k ops is a term
//! 100k deep), and computes a proof of every congruence below the node asked about. Here the
//! proof forest is read back as plain edges instead (`EGraph::get_union_equalities`: the
//! rule-justified unions) and searched iteratively, one node at a time: e-nodes equal up to
//! their children's classes are one vertex (egg's congruence edges join nothing else), a
//! rule union or a creation is an edge, and one breadth-first search from every input e-node
//! gives each vertex its shortest derivation. An output op's chain is its own e-node's
//! derivation: how the children's classes came to hold what was chosen for them is their own
//! instructions' explanation. The work is linear in the e-graph; each chain walks at most
//! [`CHAIN_LIMIT`] steps.

use crate::analysis::PtirEGraph;
use crate::language::PtirNode;
use crate::lower::Lowered;
use egg::{Id, Language, Symbol};
use ptir_ir::ValueId;
use ptir_rules::explain::{Chain, Derivation, CHAIN_LIMIT};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::sync::Arc;

/// E-nodes one rule application added: uncanonical ids `start..end`, made applying `rule` at
/// the class `root`.
#[derive(Clone, Debug)]
pub struct Creation {
    start: u32,
    end: u32,
    root: Id,
    rule: Symbol,
}

/// Records the e-nodes added since there were `before` (by applying `rule` at `root`), if
/// explanations are on.
pub(crate) fn record_creation(egraph: &mut PtirEGraph, before: usize, root: Id, rule: Symbol) {
    let end = egraph.nodes().len();
    if end > before {
        if let Some(log) = egraph.analysis.created.as_mut() {
            log.push(Creation {
                start: before as u32,
                end: end as u32,
                root,
                rule,
            });
        }
    }
}

/// The step name of a vertex no input e-node reaches (not expected: every e-node is an input
/// e-node, added by a rule application, or joined to one by a union).
const UNEXPLAINED: &str = "(no derivation found)";

/// An edge of the derivation graph: to vertex `to` by `rule` (`backward`: the rule's result
/// side to its source side).
#[derive(Clone, Copy, Debug)]
struct Edge {
    to: u32,
    rule: Symbol,
    backward: bool,
}

/// How the search reached a vertex.
#[derive(Clone, Copy, Debug)]
struct Reached {
    /// Steps from an input vertex.
    dist: u32,
    /// The vertex before and the edge taken (`None` for an input vertex).
    from: Option<(u32, Symbol, bool)>,
    /// The input instruction the derivation starts from.
    base: Option<ValueId>,
}

/// The derivation of every lifted instruction (`emitted`: its value and its e-node, children
/// canonical), relative to the input function's values. Empty if `l` was lowered without
/// explanations.
pub(crate) fn derivations(l: &Lowered, emitted: &[(ValueId, PtirNode)]) -> Vec<Derivation> {
    let Some(input) = &l.input else {
        return Vec::new();
    };
    let eg = &l.egraph;
    // Vertices: e-nodes equal up to their children's classes.
    let mut vertex_of_node: FxHashMap<PtirNode, u32> = FxHashMap::default();
    let mut vertex: Vec<u32> = Vec::with_capacity(eg.nodes().len());
    for n in eg.nodes() {
        let key = n.clone().map_children(|c| eg.find(c));
        let next = vertex_of_node.len() as u32;
        vertex.push(*vertex_of_node.entry(key).or_insert(next));
    }
    let mut edges: Vec<Vec<Edge>> = vec![Vec::new(); vertex_of_node.len()];
    let mut add_edge = |a: Id, b: Id, rule: Symbol, both: bool| {
        let (va, vb) = (vertex[usize::from(a)], vertex[usize::from(b)]);
        if va != vb {
            edges[va as usize].push(Edge {
                to: vb,
                rule,
                backward: false,
            });
            if both {
                edges[vb as usize].push(Edge {
                    to: va,
                    rule,
                    backward: true,
                });
            }
        }
    };
    for (a, b, rule) in eg.get_union_equalities() {
        add_edge(a, b, rule, true);
    }
    for c in eg.analysis.created.iter().flatten() {
        for id in c.start..c.end {
            add_edge(c.root, Id::from(id as usize), c.rule, false);
        }
    }
    // One breadth-first search from every input e-node, in id order (deterministic).
    let mut base_of: FxHashMap<u32, ValueId> = FxHashMap::default();
    for &(node, value) in &input.values {
        base_of.entry(vertex[usize::from(node)]).or_insert(value);
    }
    let mut reached: Vec<Option<Reached>> = vec![None; edges.len()];
    let mut queue = VecDeque::new();
    for &v in &vertex[..input.count.min(vertex.len())] {
        if reached[v as usize].is_none() {
            reached[v as usize] = Some(Reached {
                dist: 0,
                from: None,
                base: base_of.get(&v).copied(),
            });
            queue.push_back(v);
        }
    }
    while let Some(v) = queue.pop_front() {
        let Some(at) = reached[v as usize] else {
            continue;
        };
        for e in &edges[v as usize] {
            if reached[e.to as usize].is_none() {
                reached[e.to as usize] = Some(Reached {
                    dist: at.dist + 1,
                    from: Some((v, e.rule, e.backward)),
                    base: at.base,
                });
                queue.push_back(e.to);
            }
        }
    }
    let mut names = StepNames::default();
    emitted
        .iter()
        .map(|(value, node)| {
            let found = vertex_of_node.get(node).and_then(|&v| reached[v as usize]);
            let Some(r) = found else {
                return Derivation {
                    value: *value,
                    base: None,
                    chain: Chain::from_steps(0, [Arc::from(UNEXPLAINED)]),
                };
            };
            // The last CHAIN_LIMIT steps, walked back from the vertex.
            let mut steps = Vec::new();
            let mut at = r;
            while let (Some((prev, rule, backward)), true) = (at.from, steps.len() < CHAIN_LIMIT) {
                steps.push(names.get(rule, backward));
                match reached[prev as usize] {
                    Some(p) => at = p,
                    None => break,
                }
            }
            steps.reverse();
            let elided = (r.dist as usize).saturating_sub(steps.len());
            Derivation {
                value: *value,
                base: r.base,
                chain: Chain::from_steps(elided, steps),
            }
        })
        .collect()
}

/// Step names, made once per rule and direction.
#[derive(Default)]
struct StepNames(FxHashMap<(Symbol, bool), Arc<str>>);

impl StepNames {
    /// `rule`, or `rule (backward)` for a union read from its result to its source.
    fn get(&mut self, rule: Symbol, backward: bool) -> Arc<str> {
        self.0
            .entry((rule, backward))
            .or_insert_with(|| match backward {
                false => Arc::from(rule.as_str()),
                true => Arc::from(format!("{rule} (backward)")),
            })
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{optimize, EngineOptions};
    use ptir_ir::ValueId;

    /// The chain of each output instruction of `src` optimized with the bundled rules, as
    /// `(op, chain, base)`.
    fn explain(src: &str) -> Vec<(String, String, Option<ValueId>)> {
        let p = ptir_ir::parse(src).unwrap();
        let rules = ptir_rules::RuleSet::bundled().unwrap();
        let options = EngineOptions {
            explain: true,
            ..EngineOptions::default()
        };
        let (out, reports) = optimize(&p, &rules, &options).unwrap();
        let derivations = reports[0].derivations.clone().unwrap();
        let f = &out.functions[0];
        assert_eq!(derivations.len(), f.body.insts.len());
        f.body
            .insts
            .iter()
            .zip(derivations)
            .map(|(i, d)| {
                assert_eq!(i.result, d.value);
                (i.op.name().to_string(), d.chain.to_string(), d.base)
            })
            .collect()
    }

    #[test]
    fn a_rewritten_op_names_its_rule_and_an_input_op_is_unchanged() {
        let got = explain(
            "func @f(%x: f32[4]) -> (f32[4], f32[4]) {
               %n = neg %x : f32[4]
               %a = abs %n : f32[4]
               %e = exp %x : f32[4]
               return %a, %e
             }",
        );
        let abs = got.iter().find(|(op, ..)| op == "abs").unwrap();
        assert_eq!((abs.1.as_str(), abs.2), ("abs-neg", Some(ValueId(2))));
        let exp = got.iter().find(|(op, ..)| op == "exp").unwrap();
        assert_eq!((exp.1.as_str(), exp.2), ("unchanged", Some(ValueId(3))));
    }

    #[test]
    fn explanations_off_leave_no_derivations() {
        let p = ptir_ir::parse("func @f(%x: f32[4]) -> (f32[4]) {\n  %n = neg %x : f32[4]\n  %a = abs %n : f32[4]\n  return %a\n}").unwrap();
        let rules = ptir_rules::RuleSet::bundled().unwrap();
        let (_, reports) = optimize(&p, &rules, &EngineOptions::default()).unwrap();
        assert!(reports[0].derivations.is_none());
    }
}
