//! Lowering: a PTIR function into an e-graph.
//!
//! Every block (the function body, each region) becomes a [`PtirNode::Region`] node whose
//! children are the block's results followed by its side effects in program order — the
//! side-effect skeleton, as in Cranelift's aegraphs: impure ops are kept alive and ordered by
//! it, and each carries a unique token so it is never merged. Pure ops (purity from the
//! Datalog analysis, `ptir_ir::analysis`) are hash-consed, so structurally equal pure ops are
//! one e-class from the start. Block parameters are [`PtirNode::Param`] leaves numbered across
//! the whole function, and an op in a region that depends only on outer values is the same
//! e-class as the same op outside: sharing across blocks is what lets lifting hoist it.
//!
//! Every block has a [`Scope`]: its parent, its depth and its parameters; the
//! region node of a block carries the scope's number so that two blocks are never merged.

use crate::analysis::PtirEGraph;
use crate::language::{Children, OpKind, PtirNode};
use egg::{Id, Symbol};
use ptir_ir::analysis::{Analysis, FunctionAnalysis};
use ptir_ir::{Instruction, Op, OpKey, Program, Region, RngAlgorithm, RngDist, Type, ValueId};
use ptir_rules::{op_attrs, AttrValue};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// One block of the lowered function.
#[derive(Clone, Debug)]
pub struct Scope {
    /// The enclosing block (`None` for the function body).
    pub parent: Option<usize>,
    /// Nesting depth (0 for the function body).
    pub depth: usize,
    /// The block's parameters, as `Param` indices, in order.
    pub params: Vec<u32>,
}

/// A function in an e-graph, with what lifting needs to rebuild it.
///
/// Opaque: [`saturate`](crate::saturate()) grows it, [`choose`](crate::choose) picks an e-node per
/// e-class, [`lift`](crate::lift()) rebuilds a function from that choice. Nothing of egg shows.
#[derive(Debug)]
pub struct Lowered {
    /// The e-graph.
    pub(crate) egraph: PtirEGraph,
    /// The class of the function body's region node: the root of extraction.
    pub(crate) root: Id,
    /// The function's name.
    pub(crate) name: String,
    /// Its result types.
    pub(crate) result_types: Vec<Type>,
    /// Every block; scope 0 is the function body.
    pub(crate) scopes: Vec<Scope>,
    /// The scope of each `Param` index.
    pub(crate) param_scope: Vec<usize>,
    /// The class of each `Param` index.
    pub(crate) param_class: Vec<Id>,
    /// Where the input computed each value: the class of every instruction's result (at
    /// lowering; canonicalize with `find`) and the scope of its block. Lifting may place a
    /// value that is not speculatable only where the input computed it, or where it is needed.
    pub(crate) origins: Vec<(Id, usize)>,
    /// The functions of the program whose calls are speculatable
    /// ([`ptir_ir::analysis::speculation`]); calls of anything else never move into more
    /// executions.
    pub(crate) speculatable_callees: Arc<FxHashSet<Symbol>>,
    /// With explanations on (`--explain`): what the input was in the e-graph.
    pub(crate) input: Option<InputNodes>,
    /// How many e-nodes lowering added: egg's uncanonical ids `0..lowered_nodes`, the input's
    /// own e-nodes (each instruction's first, then what folding its constants added).
    pub(crate) lowered_nodes: usize,
}

/// The input in an e-graph with explanations on: the e-nodes lowering added (egg's
/// uncanonical ids below `count`) and the e-node of each instruction.
#[derive(Debug, Default)]
pub(crate) struct InputNodes {
    /// E-nodes added by lowering: ids `0..count`.
    pub count: usize,
    /// The uncanonical e-node of each instruction's result, in program order.
    pub values: Vec<(Id, ValueId)>,
}

impl Lowered {
    /// The function's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its number of e-classes.
    pub fn num_classes(&self) -> usize {
        self.egraph.number_of_classes()
    }

    /// Its number of e-nodes.
    pub fn num_nodes(&self) -> usize {
        self.egraph.total_number_of_nodes()
    }
}

/// Lowers function `name` of `program` into a fresh e-graph.
pub fn lower(program: &Program, name: &str) -> Result<Lowered, String> {
    ProgramFacts::of(program).lower(program, name, false)
}

/// What lowering any function of a program needs to know of the whole program (its
/// analyses, the functions whose calls may run speculatively): computed once per program,
/// so that lowering its functions one by one costs their size, not their number times the
/// program's (a chain of 20,000 functions each calling the next).
pub(crate) struct ProgramFacts {
    analysis: Analysis,
    speculatable_callees: Arc<FxHashSet<Symbol>>,
    /// The index of each function in the program (and in its analysis).
    index: FxHashMap<String, usize>,
}

impl ProgramFacts {
    pub(crate) fn of(program: &Program) -> ProgramFacts {
        let analysis = Analysis::of(program);
        let speculatable_callees = (program.functions.iter())
            .filter(|g| analysis.is_speculatable_function(&g.name))
            .map(|g| Symbol::from(g.name.as_str()))
            .collect();
        let index = (program.functions.iter().enumerate())
            .map(|(i, f)| (f.name.clone(), i))
            .collect();
        ProgramFacts {
            analysis,
            speculatable_callees: Arc::new(speculatable_callees),
            index,
        }
    }

    /// Lowers function `name` of `program` (the program these facts are of), with egg's
    /// explanations on when `explain` is set: every e-node keeps its own id and every union
    /// its justification, which `crate::explain` reads back (more memory and time; only for
    /// `--explain`).
    pub(crate) fn lower(
        &self,
        program: &Program,
        name: &str,
        explain: bool,
    ) -> Result<Lowered, String> {
        let i = *self
            .index
            .get(name)
            .ok_or_else(|| format!("no function @{name}"))?;
        let f = (program.functions.get(i)).ok_or_else(|| format!("no function @{name}"))?;
        let fa =
            (self.analysis.functions().get(i)).ok_or_else(|| format!("no analysis of @{name}"))?;
        lower_with(f, fa, &self.speculatable_callees, explain)
    }
}

fn lower_with(
    f: &ptir_ir::Function,
    fa: &FunctionAnalysis,
    speculatable_callees: &Arc<FxHashSet<Symbol>>,
    explain: bool,
) -> Result<Lowered, String> {
    let mut egraph = PtirEGraph::default();
    if explain {
        egraph = egraph.with_explanations_enabled();
        egraph.analysis.created = Some(Vec::new());
    }
    let mut l = Lowerer {
        egraph,
        input: explain.then(InputNodes::default),
        last_node: None,
        analysis: fa,
        values: FxHashMap::default(),
        scopes: Vec::new(),
        param_scope: Vec::new(),
        param_class: Vec::new(),
        origins: Vec::new(),
        next_token: 1,
    };
    let root = l.block(&f.body, None)?;
    crate::rebuild::rebuild(&mut l.egraph);
    let input = l.input.take().map(|mut i| {
        i.count = l.egraph.nodes().len();
        i
    });
    Ok(Lowered {
        input,
        lowered_nodes: l.egraph.nodes().len(),
        root: l.egraph.find(root),
        egraph: l.egraph,
        name: f.name.clone(),
        result_types: f.result_types.clone(),
        scopes: l.scopes,
        param_scope: l.param_scope,
        param_class: l.param_class,
        origins: l.origins,
        speculatable_callees: Arc::clone(speculatable_callees),
    })
}

struct Lowerer<'a> {
    egraph: PtirEGraph,
    analysis: &'a FunctionAnalysis,
    /// The class of each SSA value lowered so far.
    values: FxHashMap<ValueId, Id>,
    scopes: Vec<Scope>,
    param_scope: Vec<usize>,
    param_class: Vec<Id>,
    origins: Vec<(Id, usize)>,
    next_token: u32,
    /// With explanations on: the instructions' e-nodes so far.
    input: Option<InputNodes>,
    /// The uncanonical id of the last instruction e-node added (explanations on).
    last_node: Option<Id>,
}

impl Lowerer<'_> {
    fn block(&mut self, region: &Region, parent: Option<usize>) -> Result<Id, String> {
        let scope = self.scopes.len();
        let depth = parent.map_or(0, |p| self.scopes[p].depth + 1);
        self.scopes.push(Scope {
            parent,
            depth,
            params: Vec::new(),
        });
        for p in &region.params {
            let index = self.param_scope.len() as u32;
            self.param_scope.push(scope);
            self.scopes[scope].params.push(index);
            let ty = self.egraph.analysis.tables.ty(&p.ty);
            let id = self.egraph.add(PtirNode::Param(index, ty));
            self.param_class.push(id);
            self.values.insert(p.id, id);
        }
        let mut effects = Vec::new();
        for inst in &region.insts {
            let id = self.instruction(inst, scope)?;
            if let (Some(input), Some(node)) = (self.input.as_mut(), self.last_node.take()) {
                input.values.push((node, inst.result));
            }
            if self.is_effect(inst) {
                effects.push(id);
            }
            self.values.insert(inst.result, id);
            self.origins.push((id, scope));
        }
        let mut children = region
            .results
            .iter()
            .map(|v| self.value(*v))
            .collect::<Result<Children, _>>()?;
        let n = children.len() as u32;
        children.extend(effects);
        Ok(self.egraph.add(PtirNode::Region(scope as u32, n, children)))
    }

    fn value(&self, v: ValueId) -> Result<Id, String> {
        self.values
            .get(&v)
            .copied()
            .ok_or_else(|| format!("{v} is used before it is defined"))
    }

    fn is_effect(&self, inst: &Instruction) -> bool {
        !self.analysis.is_pure(inst.id())
    }

    fn attr(&mut self, a: &AttrValue) -> Id {
        let id = self.egraph.analysis.tables.attr(a);
        self.egraph.add(PtirNode::Attr(id))
    }

    fn instruction(&mut self, inst: &Instruction, scope: usize) -> Result<Id, String> {
        if let (Op::Constant(lit), Type::Tensor(t)) = (&inst.op, &inst.ty) {
            let c = self.egraph.analysis.tables.constant(t, lit);
            return Ok(self.add_instruction(PtirNode::Const(c)));
        }
        let mut children = inst
            .operands
            .iter()
            .map(|v| self.value(*v))
            .collect::<Result<Children, _>>()?;
        let attrs = match &inst.op {
            Op::Rng { dist } => vec![AttrValue::Int((*dist == RngDist::Normal) as usize)],
            Op::RngBitGenerator { algorithm } => {
                let index = RngAlgorithm::ALL.iter().position(|a| a == algorithm);
                vec![AttrValue::Int(index.unwrap_or(0))]
            }
            Op::Iota { dim } => vec![AttrValue::Int(*dim)],
            Op::Scan {
                num_carry, length, ..
            } => vec![AttrValue::Int(*num_carry), AttrValue::Int(*length)],
            op => op_attrs(op, &inst.ty),
        };
        for a in &attrs {
            children.push(self.attr(a));
        }
        for r in inst.op.regions() {
            children.push(self.block(r, Some(scope))?);
        }
        let key = inst.op.key();
        let needs_type = matches!(
            key,
            OpKey::Call
                | OpKey::Rng
                | OpKey::RngBitGenerator
                | OpKey::BitcastResize
                | OpKey::Iota
                | OpKey::Cond
                | OpKey::While
                | OpKey::Scan
        );
        let kind = OpKind {
            key,
            callee: match &inst.op {
                Op::Call { callee } => Some(Symbol::from(callee.as_str())),
                _ => None,
            },
            token: if self.is_effect(inst) {
                self.fresh_token()
            } else {
                0
            },
            ty: needs_type.then(|| self.egraph.analysis.tables.ty(&inst.ty)),
            ..OpKind::pure(key)
        };
        Ok(self.add_instruction(PtirNode::Op(kind, children)))
    }

    /// Adds an instruction's e-node; returns its class. With explanations on, remembers the
    /// e-node's own (uncanonical) id, which explanations start from.
    fn add_instruction(&mut self, node: PtirNode) -> Id {
        if self.input.is_none() {
            return self.egraph.add(node);
        }
        let id = self.egraph.add_uncanonical(node);
        self.last_node = Some(id);
        self.egraph.find(id)
    }

    fn fresh_token(&mut self) -> u32 {
        self.next_token += 1;
        self.next_token - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lowering decides with purity alone: the relations it does not read (uses, dead code,
    /// loop invariance) are not computed for it, loops or not.
    #[test]
    fn lowering_computes_only_the_relations_it_reads() {
        let p = ptir_ir::parse(
            "func @f(%x: f32[4]) -> (f32[4]) {
  %r = scan %x, %x num_carry=1 length=4 : (f32[4], f32[4,4]) {
  ^(%h: f32[4], %row: f32[]):
    %e = exp %h : f32[4]
    yield %e, %e
  }
  %y = tuple_get %r index=0 : f32[4]
  %dead = neg %x : f32[4]
  return %y
}",
        )
        .unwrap();
        let facts = ProgramFacts::of(&p);
        facts.lower(&p, "f", false).unwrap();
        for f in facts.analysis.functions() {
            assert_eq!(f.computed(), ["facts", "purity"], "@{}", f.name());
        }
    }
}
