//! `--explain` under saturation: for each instruction of the lifted output, the chain of rule
//! applications that made its e-node, from the input's e-nodes.
//!
//! With explanations on ([`crate::lower`] with `explain`), egg gives every e-node it is handed
//! its own id (congruent copies included) and records every union with its justification: a
//! rule application unions the match's root with its result under the rule's name (`rules.rs`,
//! `union_trusted`), the analysis's constant folding under `fold`. So the ids an application
//! allocates are exactly the e-nodes it added, which this module records ([`Creation`]: the
//! rule and the root e-node it was applied at, `record_creation`).
//!
//! An output op is explained by why its e-node exists (egg's "explain existence"), not by a
//! proof that it equals the input op of its class: the shortest such proof may run through
//! unions that created nothing (`x = neg(neg(x))` proves nothing about how an op of `x`'s
//! class came about). An e-node of the input has an empty chain (unchanged); an e-node a rule
//! application added has the chain of the root e-node it was applied at, followed by the rule.
//! E-nodes equal up to their children's classes are one vertex, whose chain is the shortest of
//! its members': how the children's classes came to hold what was chosen for them is their own
//! instructions' explanation.
//!
//! egg's own `explain_equivalence` and `explain_existance` build proof terms by recursion over
//! the terms' depth and the nesting of congruences, both of which follow the input's size (a
//! chain of 100k ops is a term 100k deep). Here the record is read in one iterative pass in id
//! order (a root always existed before the e-nodes its application added, so its chain is
//! known by then); the work is linear in the e-graph, and each chain walks at most
//! [`CHAIN_LIMIT`] steps.

use crate::analysis::Root;
use crate::language::PtirNode;
use crate::lower::Lowered;
use egg::{Language, Symbol};
use ptir_ir::ValueId;
use ptir_pass::explain::{Chain, Derivation, CHAIN_LIMIT};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// The step name of an e-node nothing explains (not expected: every e-node the extractor can
/// choose is an input e-node or was added by a recorded application).
const UNEXPLAINED: &str = "(no derivation found)";

/// How an e-node came about.
#[derive(Clone, Copy, Debug)]
struct Made {
    /// Steps from an input e-node.
    dist: u32,
    /// The e-node it was made from and the step (`None` for an input e-node).
    from: Option<(u32, Symbol)>,
    /// The input instruction its derivation starts from.
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
    let canonical = |n: &PtirNode| n.clone().map_children(|c| eg.find(c));
    // Vertices: e-nodes equal up to their children's classes.
    let mut vertex_of_node: FxHashMap<PtirNode, u32> = FxHashMap::default();
    let mut vertex: Vec<u32> = Vec::with_capacity(eg.nodes().len());
    for n in eg.nodes() {
        let next = vertex_of_node.len() as u32;
        vertex.push(*vertex_of_node.entry(canonical(n)).or_insert(next));
    }
    // What made each e-node: the first record that names it (a constant the analysis folded
    // while a rule's result was added is the fold's, made from the rule's e-node).
    let mut maker: Vec<Option<(u32, Symbol)>> = vec![None; vertex.len()];
    for c in eg.analysis.created.iter().flatten() {
        let root = match &c.root {
            Root::Node(n) => vertex_of_node.get(&canonical(n)).copied(),
            Root::Class(id) => vertex.get(usize::from(*id)).copied(),
        };
        let Some(root) = root else { continue };
        for id in c.start..c.end {
            if let Some(m @ None) = maker.get_mut(id as usize) {
                *m = Some((root, c.rule));
            }
        }
    }
    let mut base_of: FxHashMap<u32, ValueId> = FxHashMap::default();
    for &(node, value) in &input.values {
        base_of.entry(usize::from(node) as u32).or_insert(value);
    }
    // In id order: each e-node's derivation, and each vertex's best member so far.
    let mut made: Vec<Option<Made>> = vec![None; vertex.len()];
    let mut best: Vec<Option<u32>> = vec![None; vertex_of_node.len()];
    for id in 0..vertex.len() {
        // Lowering's own e-nodes, except the constants the analysis folded while lowering.
        let m = if id < input.count && maker[id].is_none() {
            Some(Made {
                dist: 0,
                from: None,
                base: base_of.get(&(id as u32)).copied(),
            })
        } else {
            maker[id].and_then(|(root, rule)| {
                let from = best[root as usize]?;
                let f = made[from as usize]?;
                Some(Made {
                    dist: f.dist + 1,
                    from: Some((from, rule)),
                    base: f.base,
                })
            })
        };
        let Some(m) = m else { continue };
        made[id] = Some(m);
        let v = vertex[id] as usize;
        let better = match best[v].and_then(|b| made[b as usize]) {
            Some(b) => {
                m.dist < b.dist || (m.dist == b.dist && b.base.is_none() && m.base.is_some())
            }
            None => true,
        };
        if better {
            best[v] = Some(id as u32);
        }
    }
    let mut names = StepNames::default();
    emitted
        .iter()
        .map(|(value, node)| {
            let found = vertex_of_node
                .get(node)
                .and_then(|&v| best[v as usize])
                .and_then(|b| made[b as usize]);
            let Some(m) = found else {
                return Derivation {
                    value: *value,
                    base: None,
                    chain: Chain::from_steps(0, [Arc::from(UNEXPLAINED)]),
                };
            };
            // The last CHAIN_LIMIT steps, walked back from the e-node.
            let mut steps = Vec::new();
            let mut at = m;
            while let (Some((from, rule)), true) = (at.from, steps.len() < CHAIN_LIMIT) {
                steps.push(names.get(rule));
                match made[from as usize] {
                    Some(f) => at = f,
                    None => break,
                }
            }
            steps.reverse();
            let elided = (m.dist as usize).saturating_sub(steps.len());
            Derivation {
                value: *value,
                base: m.base,
                chain: Chain::from_steps(elided, steps),
            }
        })
        .collect()
}

/// Step names, made once per rule.
#[derive(Default)]
struct StepNames(FxHashMap<Symbol, Arc<str>>);

impl StepNames {
    fn get(&mut self, rule: Symbol) -> Arc<str> {
        self.0
            .entry(rule)
            .or_insert_with(|| Arc::from(rule.as_str()))
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
