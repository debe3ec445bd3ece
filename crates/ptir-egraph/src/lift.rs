//! Lifting: the chosen e-nodes back into a PTIR function.
//!
//! The story: an extractor has chosen one e-node per reachable e-class. Lifting gives each
//! chosen class one SSA value and decides, for each, which block it lives in:
//!
//! 1. **Required scope.** A value must live at or below the deepest block whose parameters or
//!    side effects (which never move) it (transitively) uses; a region op also needs the free
//!    variables of its regions. That is
//!    the highest placement dominance allows, and placing pure values there hoists
//!    loop-invariant values out of `while`/`scan` bodies.
//! 2. **Placement.** Pure values go to their required scope. Impure ops stay in the block they
//!    came from (they are the side-effect skeleton). Ops that can trap (integer `div`/`rem`)
//!    are not hoisted: they go to the innermost block enclosing all their uses, so a division
//!    guarded by a `cond` stays guarded.
//! 3. **Order.** In each block, values are emitted in dependency order, with the block's side
//!    effects kept in their original order; a region op is preceded by everything its regions
//!    use from the block.
//!
//! Entry: a [`Lowered`] function and a choice per class (acyclic). Exit: a `Function`, which
//! the caller verifies; anything that cannot be placed is a [`LiftError`], never a wrong program.

use crate::analysis::{layout, node_op, PtirEGraph};
use crate::language::PtirNode;
use crate::lower::Lowered;
use egg::{Id, Language};
use ptir_ir::{BinaryOp, Function, Instruction, Op, OpKey, Param, Region, Type, ValueId};
use rustc_hash::{FxHashMap, FxHashSet};

/// Why lifting failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("lifting @{function}: {message}")]
pub struct LiftError {
    /// The function.
    pub function: String,
    /// What went wrong.
    pub message: String,
}

/// Lifts `l` with the choice `choose` (the chosen e-node of a canonical class).
pub fn lift(l: &Lowered, choose: &dyn Fn(Id) -> PtirNode) -> Result<Function, LiftError> {
    let mut lifter = Lifter::new(l, choose);
    lifter.run().map_err(|message| LiftError {
        function: l.name.clone(),
        message,
    })
}

struct Lifter<'a> {
    l: &'a Lowered,
    eg: &'a PtirEGraph,
    /// The chosen node of each reachable class.
    chosen: FxHashMap<Id, PtirNode>,
    /// Reachable classes, children before parents.
    topo: Vec<Id>,
    /// The block each value class lives in (region nodes: their own scope).
    placed: FxHashMap<Id, usize>,
    /// The block each side effect came from.
    effect_scope: FxHashMap<Id, usize>,
    /// The SSA value of each emitted class.
    values: FxHashMap<Id, ValueId>,
    next_value: u32,
}

impl<'a> Lifter<'a> {
    fn new(l: &'a Lowered, choose: &'a dyn Fn(Id) -> PtirNode) -> Self {
        let eg = &l.egraph;
        let mut chosen = FxHashMap::default();
        let mut topo = Vec::new();
        let mut stack = vec![(eg.find(l.root), false)];
        while let Some((c, done)) = stack.pop() {
            if done {
                topo.push(c);
                continue;
            }
            if chosen.contains_key(&c) {
                continue;
            }
            let node = effect_node(eg, c).unwrap_or_else(|| choose(c));
            stack.push((c, true));
            for ch in node.children() {
                stack.push((eg.find(*ch), false));
            }
            chosen.insert(c, node);
        }
        // The DFS pushes a class once per parent; keep its first completion only.
        let mut seen = FxHashSet::default();
        topo.retain(|c| seen.insert(*c));
        Lifter {
            l,
            eg,
            chosen,
            topo,
            placed: FxHashMap::default(),
            effect_scope: FxHashMap::default(),
            values: FxHashMap::default(),
            next_value: 0,
        }
    }

    fn node(&self, c: Id) -> Result<&PtirNode, String> {
        self.chosen
            .get(&self.eg.find(c))
            .ok_or_else(|| format!("class {c} was not chosen"))
    }

    fn run(&mut self) -> Result<Function, String> {
        self.check_acyclic()?;
        for c in self.topo.clone() {
            if let PtirNode::Region(s, n, ch) = self.node(c)?.clone() {
                for e in &ch[n as usize..] {
                    self.effect_scope.insert(self.eg.find(*e), s as usize);
                }
            }
        }
        let required = self.required_scopes()?;
        self.place(&required)?;
        let root = self.eg.find(self.l.root);
        let body = self.emit_block(root)?;
        Ok(Function {
            name: self.l.name.clone(),
            result_types: self.l.result_types.clone(),
            body,
        })
    }

    fn check_acyclic(&self) -> Result<(), String> {
        let pos: FxHashMap<Id, usize> =
            self.topo.iter().enumerate().map(|(i, c)| (*c, i)).collect();
        for (i, c) in self.topo.iter().enumerate() {
            for ch in self.chosen[c].children() {
                if pos.get(&self.eg.find(*ch)).is_none_or(|p| *p >= i) {
                    return Err("the chosen e-nodes form a cycle".into());
                }
            }
        }
        Ok(())
    }

    // ---- scopes ---------------------------------------------------------------------

    fn parent(&self, s: usize) -> Option<usize> {
        self.l.scopes.get(s).and_then(|x| x.parent)
    }

    fn depth(&self, s: usize) -> usize {
        self.l.scopes.get(s).map_or(0, |x| x.depth)
    }

    /// Is `inner` the block `outer` or nested in it?
    fn within(&self, mut inner: usize, outer: usize) -> bool {
        loop {
            if inner == outer {
                return true;
            }
            match self.parent(inner) {
                Some(p) => inner = p,
                None => return false,
            }
        }
    }

    /// The deeper of two scopes on one chain of blocks (an error if they are not nested).
    fn deeper(&self, a: usize, b: usize) -> Result<usize, String> {
        let (lo, hi) = if self.depth(a) >= self.depth(b) {
            (a, b)
        } else {
            (b, a)
        };
        if self.within(lo, hi) {
            Ok(lo)
        } else {
            Err(format!(
                "a value needs blocks {a} and {b}, which are not nested"
            ))
        }
    }

    fn lca(&self, mut a: usize, mut b: usize) -> usize {
        while self.depth(a) > self.depth(b) {
            a = self.parent(a).unwrap_or(0);
        }
        while self.depth(b) > self.depth(a) {
            b = self.parent(b).unwrap_or(0);
        }
        while a != b {
            a = self.parent(a).unwrap_or(0);
            b = self.parent(b).unwrap_or(0);
        }
        a
    }

    /// The deepest block each class needs (for region nodes: the block their free variables
    /// need, outside the region).
    fn required_scopes(&self) -> Result<FxHashMap<Id, usize>, String> {
        let mut req: FxHashMap<Id, usize> = FxHashMap::default();
        for &c in &self.topo {
            let r = match self.node(c)? {
                PtirNode::Param(i, _) => *self
                    .l
                    .param_scope
                    .get(*i as usize)
                    .ok_or("unknown parameter")?,
                PtirNode::Attr(_) | PtirNode::Const(_) => 0,
                PtirNode::Region(s, _, ch) => {
                    let s = *s as usize;
                    let mut r = self.parent(s).unwrap_or(0);
                    for x in ch {
                        let rx = req[&self.eg.find(*x)];
                        if !self.within(rx, s) {
                            r = self.deeper(r, rx)?;
                        }
                    }
                    r
                }
                PtirNode::Op(_, ch) => {
                    // A side effect stays in the block it came from, so its result exists
                    // only there: whatever uses it must live there or deeper too (a pure op
                    // of a call's result in a branch must not be hoisted out of the branch).
                    let mut r = self.effect_scope.get(&c).copied().unwrap_or(0);
                    for x in ch {
                        r = self.deeper(r, req[&self.eg.find(*x)])?;
                    }
                    r
                }
            };
            req.insert(c, r);
        }
        Ok(req)
    }

    fn traps(&self, c: Id) -> bool {
        let Ok(PtirNode::Op(kind, _)) = self.node(c) else {
            return false;
        };
        let int = self.eg[c]
            .data
            .ty
            .as_ref()
            .and_then(Type::as_tensor)
            .is_some_and(|t| !t.dtype.is_float());
        matches!(kind.key, OpKey::Binary(BinaryOp::Div | BinaryOp::Rem)) && int
    }

    /// Decides the block of every class, users before their operands.
    fn place(&mut self, req: &FxHashMap<Id, usize>) -> Result<(), String> {
        let mut users: FxHashMap<Id, Vec<Id>> = FxHashMap::default();
        for &c in &self.topo {
            for ch in self.node(c)?.children() {
                users.entry(self.eg.find(*ch)).or_default().push(c);
            }
        }
        for &c in self.topo.clone().iter().rev() {
            let r = req[&c];
            let at = match self.node(c)? {
                PtirNode::Region(s, ..) => *s as usize,
                _ if self.effect_scope.contains_key(&c) => {
                    let s = self.effect_scope[&c];
                    self.deeper(s, r)
                        .ok()
                        .filter(|d| *d == s)
                        .ok_or("a side effect needs values of an inner block")?
                }
                _ if self.traps(c) => {
                    let uses = users.get(&c).map(Vec::as_slice).unwrap_or(&[]);
                    let mut at: Option<usize> = None;
                    for u in uses {
                        let pu = self.placed[u];
                        at = Some(at.map_or(pu, |a| self.lca(a, pu)));
                    }
                    at.map_or(Ok(r), |a| self.deeper(a, r))?
                }
                _ => r,
            };
            self.placed.insert(c, at);
        }
        Ok(())
    }

    // ---- emission -------------------------------------------------------------------

    fn fresh(&mut self) -> ValueId {
        self.next_value += 1;
        ValueId(self.next_value - 1)
    }

    fn value(&self, c: Id) -> Result<ValueId, String> {
        self.values
            .get(&self.eg.find(c))
            .copied()
            .ok_or_else(|| format!("class {c} is used before it is defined"))
    }

    /// Emits the block of region node `r`: parameters, then every class placed in it in
    /// dependency order (side effects in their original order), then its results.
    fn emit_block(&mut self, r: Id) -> Result<Region, String> {
        let PtirNode::Region(s, n, ch) = self.node(r)?.clone() else {
            return Err("a region child is not a region".into());
        };
        let s = s as usize;
        let mut params = Vec::new();
        for &i in &self.l.scopes[s].params {
            let class = self.eg.find(self.l.param_class[i as usize]);
            let id = self.fresh();
            let ty = self.eg[class]
                .data
                .ty
                .clone()
                .ok_or("a parameter has no type")?;
            self.values.entry(class).or_insert(id);
            params.push(Param { id, ty });
        }
        let mut insts = Vec::new();
        let mut done = FxHashSet::default();
        let (results, effects) = ch.split_at(n as usize);
        for &e in effects.iter().chain(results) {
            self.emit_needed(self.eg.find(e), s, &mut done, &mut insts)?;
        }
        let results = results
            .iter()
            .map(|c| self.value(*c))
            .collect::<Result<_, _>>()?;
        Ok(Region {
            params,
            insts,
            results,
        })
    }

    /// Emits `c` (if it lives in block `s`) after everything it needs from `s`.
    fn emit_needed(
        &mut self,
        c: Id,
        s: usize,
        done: &mut FxHashSet<Id>,
        out: &mut Vec<Instruction>,
    ) -> Result<(), String> {
        if !done.insert(c) {
            return Ok(());
        }
        let mut needs = Vec::new();
        self.needs_from(c, s, &mut FxHashSet::default(), &mut needs)?;
        for d in needs {
            self.emit_needed(d, s, done, out)?;
        }
        if self.placed.get(&c) == Some(&s) && !self.values.contains_key(&c) {
            if let Some(inst) = self.instruction(c)? {
                out.push(inst);
            }
        }
        Ok(())
    }

    /// The classes placed in `s` that `c` reads, looking through values placed in blocks
    /// nested in `s` (which the region ops of `s` will emit).
    fn needs_from(
        &self,
        c: Id,
        s: usize,
        seen: &mut FxHashSet<Id>,
        out: &mut Vec<Id>,
    ) -> Result<(), String> {
        for ch in self.node(c)?.children() {
            let ch = self.eg.find(*ch);
            if !seen.insert(ch) {
                continue;
            }
            match self.placed.get(&ch) {
                Some(&p) if p == s && !matches!(self.node(ch)?, PtirNode::Region(..)) => {
                    out.push(ch)
                }
                Some(&p) if p != s && self.within(p, s) => self.needs_from(ch, s, seen, out)?,
                _ => {}
            }
        }
        Ok(())
    }

    /// The instruction of class `c` (`None` for parameters and attributes).
    fn instruction(&mut self, c: Id) -> Result<Option<Instruction>, String> {
        let ty = self.eg[c].data.ty.clone();
        let inst = match self.node(c)?.clone() {
            PtirNode::Param(..) | PtirNode::Attr(_) | PtirNode::Region(..) => return Ok(None),
            PtirNode::Const(k) => {
                let (tt, lit) = self
                    .eg
                    .analysis
                    .tables
                    .const_of(k)
                    .ok_or("unknown constant")?
                    .clone();
                (Op::Constant(lit), Vec::new(), Type::Tensor(tt))
            }
            PtirNode::Op(kind, ch) => {
                let (mut op, ty) = node_op(self.eg, &kind, &ch)?;
                let l = layout(kind.key, ch.len());
                let operands = ch[..l.operands]
                    .iter()
                    .map(|x| self.value(*x))
                    .collect::<Result<Vec<_>, _>>()?;
                let regions = ch[l.operands + l.attrs..].to_vec();
                let mut built = Vec::new();
                for r in regions {
                    built.push(self.emit_block(self.eg.find(r))?);
                }
                for (slot, r) in op.regions_mut().into_iter().zip(built) {
                    *slot = r;
                }
                (op, operands, ty)
            }
        };
        if ty.as_ref().is_some_and(|t| *t != inst.2) {
            return Err(format!(
                "class {c}: chosen node has type {} but the class has {}",
                inst.2,
                ty.map_or("?".into(), |t| t.to_string())
            ));
        }
        let result = self.fresh();
        self.values.insert(c, result);
        Ok(Some(Instruction {
            result,
            ty: inst.2,
            op: inst.0,
            operands: inst.1,
        }))
    }
}

/// The impure op node of a class, if it has one: side effects are always lifted as
/// themselves, whatever else their class came to contain.
fn effect_node(eg: &PtirEGraph, c: Id) -> Option<PtirNode> {
    eg[c]
        .nodes
        .iter()
        .find(|n| matches!(n, PtirNode::Op(k, _) if k.token != 0))
        .cloned()
}
