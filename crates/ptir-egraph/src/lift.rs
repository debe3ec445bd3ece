//! Lifting: the chosen e-nodes back into a PTIR function.
//!
//! The story: an extractor has chosen one e-node per reachable e-class. Lifting gives each
//! chosen class an SSA value and decides, for each, which block (or blocks) it lives in:
//!
//! 1. **Required scope.** A value must live at or below the deepest block whose parameters or
//!    side effects (which never move) it (transitively) uses; a region op also needs the free
//!    variables of its regions. That is the highest placement dominance allows.
//! 2. **Speculation.** A value is *movable* when its op is speculatable
//!    ([`ptir_ir::analysis::speculation`]: it cannot trap, terminates, and its result is small;
//!    a call only if its callee is such a function) and so are all its operands and regions.
//! 3. **Placement.** Movable values go to their required scope: this hoists loop-invariant
//!    values out of `while`/`scan` bodies and shared values out of branches, which is safe
//!    because they cannot fail and cost little. Side effects stay in the block they came from
//!    (they are the skeleton). Every other value is *sunk*: it goes to the blocks its users
//!    live in, raised only to a block where the input itself computed it (its *origin*).
//!    Users are placed before their operands, and a non-movable value's users are never
//!    movable, so by induction a non-movable value runs only where the output needs it or the
//!    input ran it: never in more executions than in the input. When its users live in
//!    sibling blocks (two guarded `cond`s that divide by the same value, hash-consed into one
//!    class), it is placed in each of them: duplicated, not hoisted.
//! 4. **Order.** In each block, values are emitted in dependency order, in the input's order
//!    where the input computed them (new values just before their first user): side effects
//!    keep their original order and their place among the pure values around them, which
//!    matters to a runtime that cannot fuse across an impure op (IREE: a custom call moved
//!    ahead of the reductions that preceded it split their fusion, 0.83x). A region op is
//!    preceded by everything its regions use from the block. Emission walks with explicit
//!    stacks: a 100k-long chain of values does not deepen the call stack.
//!
//! **Architecture Invariant**: a value that is not speculatable never runs in more executions
//! than in the input (a division guarded by a `cond` stays guarded, a call that may loop
//! forever is not hoisted out of a loop that may run zero times). Only placement decides
//! this, so it holds for every extractor's choice.
//!
//! Entry: a [`Lowered`] function and a choice per class (acyclic). Exit: a `Function`, which
//! the caller verifies; anything that cannot be placed is a [`LiftError`], never a wrong program.

use crate::analysis::{layout, node_op, PtirEGraph};
use crate::extraction::Choice;
use crate::language::{OpKind, PtirNode};
use crate::lower::Lowered;
use egg::{Id, Language};
use ptir_ir::analysis::speculation::hazard;
use ptir_ir::{Function, Instruction, Op, OpKey, Param, Region, Type, ValueId};
use rustc_hash::{FxHashMap, FxHashSet};
use smallvec::{smallvec, SmallVec};

/// The blocks a class is placed in: one, except for non-movable values needed in sibling
/// blocks (see the module docs). Never two blocks of which one encloses the other.
type Blocks = SmallVec<[usize; 1]>;

/// Why lifting failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("lifting @{function}: {message}")]
pub struct LiftError {
    /// The function.
    pub function: String,
    /// What went wrong.
    pub message: String,
}

/// Lifts `l` with the e-nodes of `choice` (from [`choose`](crate::choose)): the function again,
/// verified by construction or an error.
pub fn lift(l: &Lowered, choice: &Choice) -> Result<Function, LiftError> {
    lift_with(l, &|c| choice.node(c))
}

/// [`lift`] with any choice `choose` (the chosen e-node of a canonical class).
pub(crate) fn lift_with(
    l: &Lowered,
    choose: &dyn Fn(Id) -> PtirNode,
) -> Result<Function, LiftError> {
    lift_traced(l, choose, false).map(|(f, _)| f)
}

/// [`lift_with`], and with `trace` the e-node each instruction of the output was lifted
/// from (children canonical), in emission order (`--explain`).
pub(crate) fn lift_traced(
    l: &Lowered,
    choose: &dyn Fn(Id) -> PtirNode,
    trace: bool,
) -> Result<(Function, Vec<(ValueId, PtirNode)>), LiftError> {
    let mut lifter = Lifter::new(l, choose);
    lifter.emitted = trace.then(Vec::new);
    let f = lifter.run().map_err(|message| LiftError {
        function: l.name.clone(),
        message,
    })?;
    Ok((f, lifter.emitted.unwrap_or_default()))
}

struct Lifter<'a> {
    l: &'a Lowered,
    eg: &'a PtirEGraph,
    /// The chosen node of each reachable class.
    chosen: FxHashMap<Id, PtirNode>,
    /// Reachable classes, children before parents.
    topo: Vec<Id>,
    /// May the class run where the input did not run it (see the module docs)?
    movable: FxHashMap<Id, bool>,
    /// The blocks each value class lives in (region nodes: their own scope).
    placed: FxHashMap<Id, Blocks>,
    /// The block each side effect came from.
    effect_scope: FxHashMap<Id, usize>,
    /// Per block (scope), the classes of its input instructions in the input's order.
    input_order: Vec<Vec<Id>>,
    /// The SSA value of each class emitted in the blocks being emitted (the current block and
    /// the blocks enclosing it): a scoped table, cleared as each block is finished.
    values: FxHashMap<Id, ValueId>,
    next_value: u32,
    /// With tracing: each instruction's value and the e-node it was lifted from.
    emitted: Option<Vec<(ValueId, PtirNode)>>,
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
        let mut input_order = vec![Vec::new(); l.scopes.len()];
        for &(id, s) in &l.origins {
            if let Some(order) = input_order.get_mut(s) {
                order.push(eg.find(id));
            }
        }
        Lifter {
            l,
            eg,
            chosen,
            topo,
            movable: FxHashMap::default(),
            placed: FxHashMap::default(),
            effect_scope: FxHashMap::default(),
            input_order,
            values: FxHashMap::default(),
            next_value: 0,
            emitted: None,
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
        self.classify_movable()?;
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

    /// Decides [`Self::movable`] for every class, operands first.
    fn classify_movable(&mut self) -> Result<(), String> {
        for &c in &self.topo {
            let node = self.node(c)?;
            let own = match node {
                PtirNode::Param(..) | PtirNode::Attr(_) => true,
                PtirNode::Const(_) => !self.class_hazard(c, OpKey::Constant),
                PtirNode::Region(..) => true,
                PtirNode::Op(kind, _) => kind.token == 0 && !self.op_hazard(c, kind),
            };
            let movable = own
                && node
                    .children()
                    .iter()
                    .all(|ch| self.movable.get(&self.eg.find(*ch)) == Some(&true));
            self.movable.insert(c, movable);
        }
        Ok(())
    }

    /// Is class `c`, computed by the chosen op `kind`, hazardous by itself?
    fn op_hazard(&self, c: Id, kind: &OpKind) -> bool {
        let unknown_callee = kind.key == OpKey::Call
            && kind
                .callee
                .is_none_or(|f| !self.l.speculatable_callees.contains(&f));
        unknown_callee || self.class_hazard(c, kind.key)
    }

    fn class_hazard(&self, c: Id, key: OpKey) -> bool {
        hazard(key, self.eg[c].data.ty.as_ref())
    }

    /// Decides the blocks of every class, users before their operands.
    fn place(&mut self, req: &FxHashMap<Id, usize>) -> Result<(), String> {
        let mut users: FxHashMap<Id, Vec<Id>> = FxHashMap::default();
        for &c in &self.topo {
            for ch in self.node(c)?.children() {
                users.entry(self.eg.find(*ch)).or_default().push(c);
            }
        }
        let mut origins: FxHashMap<Id, Blocks> = FxHashMap::default();
        for &(c, scope) in &self.l.origins {
            let blocks = origins.entry(self.eg.find(c)).or_default();
            if !blocks.contains(&scope) {
                blocks.push(scope);
            }
        }
        let no_users = Vec::new();
        for &c in self.topo.clone().iter().rev() {
            let r = req[&c];
            let at: Blocks = match self.node(c)? {
                PtirNode::Region(s, ..) => smallvec![*s as usize],
                _ if self.effect_scope.contains_key(&c) => {
                    let s = self.effect_scope[&c];
                    let ok = self.deeper(s, r).ok().filter(|d| *d == s);
                    smallvec![ok.ok_or("a side effect needs values of an inner block")?]
                }
                _ if self.movable[&c] => smallvec![r],
                _ => {
                    let uses = users.get(&c).unwrap_or(&no_users);
                    let home = origins.get(&c).map_or(&[][..], |o| o.as_slice());
                    self.sink(uses, home, r)?
                }
            };
            self.placed.insert(c, at);
        }
        Ok(())
    }

    /// The blocks of a non-movable value: the blocks of its users, each raised to the highest
    /// enclosing block (up to the required scope `r`) in which the input computed the value,
    /// keeping only the outermost of nested candidates.
    fn sink(&self, users: &[Id], home: &[usize], r: usize) -> Result<Blocks, String> {
        let mut candidates: Blocks = SmallVec::new();
        for u in users {
            for &b in &self.placed[u] {
                let mut target = b;
                let mut at = b;
                loop {
                    if home.contains(&at) {
                        target = at;
                    }
                    if at == r {
                        break;
                    }
                    at = self.parent(at).ok_or_else(|| {
                        format!("a value is used in block {b}, outside its scope {r}")
                    })?;
                }
                if !candidates.contains(&target) {
                    candidates.push(target);
                }
            }
        }
        if candidates.is_empty() {
            return Ok(smallvec![r]);
        }
        let set: FxHashSet<usize> = candidates.iter().copied().collect();
        candidates.retain(|b| {
            let mut at = self.parent(*b);
            while let Some(p) = at {
                if set.contains(&p) {
                    return false;
                }
                at = self.parent(p);
            }
            true
        });
        candidates.sort_unstable();
        Ok(candidates)
    }

    fn placed_in(&self, c: Id, s: usize) -> bool {
        self.placed.get(&c).is_some_and(|b| b.contains(&s))
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
    /// dependency order (side effects in their original order), then its results. The values
    /// defined here go out of scope when it is finished.
    fn emit_block(&mut self, r: Id) -> Result<Region, String> {
        let PtirNode::Region(s, n, ch) = self.node(r)?.clone() else {
            return Err("a region child is not a region".into());
        };
        let s = s as usize;
        let mut params = Vec::new();
        let mut local = Vec::new();
        for &i in &self.l.scopes[s].params {
            let class = self.eg.find(self.l.param_class[i as usize]);
            let id = self.fresh();
            let ty = self.eg[class]
                .data
                .ty
                .clone()
                .ok_or("a parameter has no type")?;
            if let std::collections::hash_map::Entry::Vacant(v) = self.values.entry(class) {
                v.insert(id);
                local.push(class);
            }
            params.push(Param { id, ty });
        }
        let mut insts = Vec::new();
        let mut done = FxHashSet::default();
        let (results, effects) = ch.split_at(n as usize);
        let roots: Vec<Id> = effects
            .iter()
            .chain(results)
            .map(|&e| self.eg.find(e))
            .collect();
        let needed = self.needed_in(&roots, s)?;
        let anchors: Vec<Id> = (self.input_order.get(s).into_iter().flatten())
            .filter(|c| needed.contains(c))
            .copied()
            .collect();
        for c in anchors.into_iter().chain(roots) {
            self.emit_needed(c, s, &mut done, &mut insts, &mut local)?;
        }
        let results = results
            .iter()
            .map(|c| self.value(*c))
            .collect::<Result<_, _>>()?;
        for c in local {
            self.values.remove(&c);
        }
        Ok(Region {
            params,
            insts,
            results,
        })
    }

    /// Emits `c` (if it lives in block `s`) after everything it needs from `s`: a post-order
    /// walk with an explicit stack.
    fn emit_needed(
        &mut self,
        c: Id,
        s: usize,
        done: &mut FxHashSet<Id>,
        out: &mut Vec<Instruction>,
        local: &mut Vec<Id>,
    ) -> Result<(), String> {
        let mut stack = vec![(c, false)];
        while let Some((c, expanded)) = stack.pop() {
            if expanded {
                if self.placed_in(c, s) && !self.values.contains_key(&c) {
                    if let Some(inst) = self.instruction(c)? {
                        out.push(inst);
                        local.push(c);
                    }
                }
                continue;
            }
            if !done.insert(c) {
                continue;
            }
            stack.push((c, true));
            let needs = self.needs_from(c, s)?;
            stack.extend(needs.into_iter().rev().map(|d| (d, false)));
        }
        Ok(())
    }

    /// `roots` and every class placed in `s` they read, transitively (see [`Self::needs_from`]).
    fn needed_in(&self, roots: &[Id], s: usize) -> Result<FxHashSet<Id>, String> {
        let mut seen = FxHashSet::default();
        let mut stack = roots.to_vec();
        while let Some(c) = stack.pop() {
            if seen.insert(c) {
                stack.extend(self.needs_from(c, s)?);
            }
        }
        Ok(seen)
    }

    /// The classes placed in `s` that `c` reads, looking through values placed in blocks
    /// nested in `s` (which the region ops of `s` will emit), in the order they are read.
    fn needs_from(&self, c: Id, s: usize) -> Result<Vec<Id>, String> {
        let mut out = Vec::new();
        let mut seen = FxHashSet::default();
        let mut stack: Vec<Id> = self.node(c)?.children().iter().rev().copied().collect();
        while let Some(ch) = stack.pop() {
            let ch = self.eg.find(ch);
            if !seen.insert(ch) {
                continue;
            }
            let Some(blocks) = self.placed.get(&ch) else {
                continue;
            };
            if blocks.contains(&s) && !matches!(self.node(ch)?, PtirNode::Region(..)) {
                out.push(ch);
            } else if blocks.iter().any(|&p| p != s && self.within(p, s)) {
                stack.extend(self.node(ch)?.children().iter().rev());
            }
        }
        Ok(out)
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
        if self.emitted.is_some() {
            let eg = self.eg;
            let node = self.node(c)?.clone().map_children(|x| eg.find(x));
            if let Some(e) = self.emitted.as_mut() {
                e.push((result, node));
            }
        }
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
