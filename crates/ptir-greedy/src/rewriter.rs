//! [`ProgramRewriter`]: the only way to change the IR, and [`Listener`]: how to hear about it.
//!
//! Like MLIR's `PatternRewriter`, every mutation a pattern makes goes through the rewriter,
//! because the driver keeps state that direct edits would break: its worklist, the failure
//! cache (keyed by versions the rewriter bumps) and the step log. The rewriter dereferences to
//! [`Ir`] for inspection.
//!
//! # Events and their timing (MLIR's `RewriterBase::Listener`)
//!
//! | event | when |
//! | --- | --- |
//! | [`Listener::notify_inserted`] | after an instruction is inserted (or moved), in place with its operands |
//! | [`Listener::notify_modified`] | after an instruction changed in place: op, attributes, type, or an operand (each operand a `replace_all_uses` rewires is one event) |
//! | [`Listener::notify_replaced`] | before the uses of an instruction's value are replaced by [`ProgramRewriter::replace_op`]: the uses are still in place |
//! | [`Listener::notify_erased`] | before an instruction is erased: it has zero uses and still has its operands; the ops of its regions are erased (and reported) first, last op first |
//! | [`Listener::notify_match_failure`] | when a pattern gives up with a reason |
//!
//! ```
//! use ptir_greedy::{Listener, Ir, ProgramContext, ProgramRewriter};
//! use ptir_ir::{InstId, ValueId};
//!
//! #[derive(Default)]
//! struct Log(Vec<String>);
//! impl Listener for Log {
//!     fn notify_replaced(&mut self, ir: &Ir, inst: InstId, by: ValueId) {
//!         self.0.push(format!("replace {inst} by {by} ({} uses)", ir.num_uses(inst.value())));
//!     }
//!     fn notify_erased(&mut self, ir: &Ir, inst: InstId) {
//!         self.0.push(format!("erase {inst} ({} uses)", ir.num_uses(inst.value())));
//!     }
//! }
//!
//! let p = ptir_ir::parse("func @f(%0: f32[2]) -> (f32[2]) {\n  %1 = neg %0 : f32[2]\n  %2 = neg %1 : f32[2]\n  return %2\n}\n").unwrap();
//! let cx = ProgramContext::new(&p);
//! let mut log = Log::default();
//! let mut rw = ProgramRewriter::new(p.functions[0].clone(), &cx).unwrap();
//! rw.set_listener(&mut log);
//! rw.replace_op(InstId(2), ValueId(0));
//! let f = rw.finish();
//! assert_eq!(log.0, ["replace #2 by %0 (1 uses)", "erase #2 (0 uses)"]);
//! assert_eq!(f.body.results, [ValueId(0)]);
//! ```

use crate::driver::Hooks;
use crate::facts::ProgramContext;
use crate::ir::{Arena, BlockId, InvalidFunction, Ir, Use, NONE};
use ptir_ir::{Function, InstId, Instruction, Literal, Op, Type, ValueId};
use ptir_pass::explain::Chain;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use std::ops::Deref;
use std::sync::Arc;

/// Hears about every change a [`ProgramRewriter`] makes; see the module docs for the exact
/// timing of each event. Every method defaults to doing nothing.
pub trait Listener {
    /// `inst` was inserted (or moved); it is in place with its operands.
    fn notify_inserted(&mut self, _ir: &Ir, _inst: InstId) {}
    /// `inst` was modified in place.
    fn notify_modified(&mut self, _ir: &Ir, _inst: InstId) {}
    /// The uses of `inst`'s value are about to be replaced by `by` (they are still in place).
    fn notify_replaced(&mut self, _ir: &Ir, _inst: InstId, _by: ValueId) {}
    /// `inst` is about to be erased; it has zero uses and still has its operands.
    fn notify_erased(&mut self, _ir: &Ir, _inst: InstId) {}
    /// A pattern gave up on `root` because of `reason`.
    fn notify_match_failure(&mut self, _ir: &Ir, _root: InstId, _reason: &str) {}
}

/// A change to an instruction made by [`ProgramRewriter::modify_in_place`]. Regions cannot
/// be changed this way (a region op must stay a region op with the same number of regions).
#[derive(Debug)]
pub struct InstEdit<'a> {
    /// The op and its attributes.
    pub op: &'a mut Op,
    /// The operands.
    pub operands: &'a mut Vec<ValueId>,
    /// The result type.
    pub ty: &'a mut Type,
}

/// Edits one function; see the module docs. Build it with [`ProgramRewriter::new`], edit,
/// and get the function back with [`ProgramRewriter::finish`].
pub struct ProgramRewriter<'c> {
    ir: Ir<'c>,
    pub(crate) hooks: Option<Box<Hooks>>,
    listener: Option<&'c mut dyn Listener>,
    /// A bug a pattern found in itself (a rule building a result of the wrong type); the
    /// driver turns it into an error after the pattern returns.
    rule_error: Option<String>,
    /// The rule chain of every derived value, when asked for
    /// ([`ProgramRewriter::track_provenance`]).
    provenance: Option<Box<Tracker>>,
}

/// What the rewriter keeps for `--explain`: the chain of every derived value, and the step
/// (rule, fold, merge) running now, which ops inserted or changed are attributed to.
#[derive(Debug, Default)]
struct Tracker {
    chains: FxHashMap<ValueId, Chain>,
    step: Option<CurrentStep>,
    /// Step names, interned so that a chain step costs a reference count.
    names: FxHashMap<Box<str>, Arc<str>>,
}

/// The step running now: its name and root, and the chain an op it inserts gets (made on
/// first use: most attempts insert nothing).
#[derive(Debug)]
struct CurrentStep {
    root: InstId,
    name: Arc<str>,
    inserted: Option<Chain>,
}

impl Tracker {
    /// The chain of an op the current step inserts: its root's, then the step.
    fn inserted_chain(&mut self) -> Option<Chain> {
        let step = self.step.as_mut()?;
        if step.inserted.is_none() {
            let root = self.chains.get(&step.root.value()).cloned();
            step.inserted = Some(root.unwrap_or_default().then(step.name.clone()));
        }
        step.inserted.clone()
    }

    /// Appends `name` to `inst`'s chain.
    fn append(&mut self, inst: InstId, name: Arc<str>) {
        let c = self.chains.entry(inst.value()).or_default();
        c.push(name);
    }

    fn intern(&mut self, name: &str) -> Arc<str> {
        if let Some(n) = self.names.get(name) {
            return n.clone();
        }
        let n: Arc<str> = Arc::from(name);
        self.names.insert(name.into(), n.clone());
        n
    }
}

impl std::fmt::Debug for ProgramRewriter<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProgramRewriter")
            .field("function", &self.ir.function_name())
            .field("insts", &self.ir.num_insts())
            .field("listener", &self.listener.is_some())
            .finish()
    }
}

impl<'c> Deref for ProgramRewriter<'c> {
    type Target = Ir<'c>;
    fn deref(&self) -> &Ir<'c> {
        &self.ir
    }
}

/// Sends one event to the driver's hooks and the user's listener.
macro_rules! notify {
    ($self:ident, $hook:ident, $event:ident ( $($arg:expr),* )) => {{
        if let Some(h) = $self.hooks.as_mut() {
            h.$hook(&$self.ir, $($arg),*);
        }
        if let Some(l) = $self.listener.as_mut() {
            l.$event(&$self.ir, $($arg),*);
        }
    }};
}

impl<'c> ProgramRewriter<'c> {
    /// Takes `f` (moved into the rewriter's arena, not copied) for editing. Fails if `f`
    /// defines a value twice; the input should verify.
    pub fn new(f: Function, cx: &'c ProgramContext) -> Result<Self, InvalidFunction> {
        Ok(ProgramRewriter {
            ir: Ir::new(f, cx)?,
            hooks: None,
            listener: None,
            rule_error: None,
            provenance: None,
        })
    }

    /// Tracks where every op comes from from now on (`--explain`), starting from `chains`,
    /// the chains of the function's values derived by earlier passes (a value with no entry
    /// is an input op). An op a step inserts gets its root's chain followed by the step's
    /// name; an op a step changes in place, its own chain followed by the step's name; an
    /// erased op loses its chain. Off by default: it costs a hash map entry per derived op.
    ///
    /// ```
    /// use ptir_greedy::{apply_patterns_greedily, GreedyConfig, PatternSet, ProgramContext, ProgramRewriter};
    /// let p = ptir_ir::parse("func @f(%0: f32[2]) -> (f32[2]) {
    ///   %1 = constant splat(2.0) : f32[2]
    ///   %2 = add %1, %1 : f32[2]
    ///   %3 = mul %0, %2 : f32[2]
    ///   return %3
    /// }").unwrap();
    /// let cx = ProgramContext::new(&p);
    /// let mut rw = ProgramRewriter::new(p.functions[0].clone(), &cx).unwrap();
    /// rw.track_provenance(Default::default());
    /// let patterns = PatternSet::new().freeze();
    /// apply_patterns_greedily(&mut rw, &patterns, &GreedyConfig::default()).unwrap();
    /// let chains = rw.take_provenance().unwrap();
    /// let f = rw.finish();
    /// let folded = f.body.insts.iter().find(|i| i.operands.is_empty()).unwrap();
    /// assert_eq!(chains[&folded.result].to_string(), "fold"); // 2 + 2, folded to 4
    /// ```
    pub fn track_provenance(&mut self, chains: FxHashMap<ValueId, Chain>) {
        self.provenance = Some(Box::new(Tracker {
            chains,
            ..Tracker::default()
        }));
    }

    /// Stops tracking and returns the chain of every derived value
    /// ([`track_provenance`](Self::track_provenance)), `None` if nothing was tracked.
    pub fn take_provenance(&mut self) -> Option<FxHashMap<ValueId, Chain>> {
        self.provenance.take().map(|t| t.chains)
    }

    /// Is provenance tracked?
    pub fn tracks_provenance(&self) -> bool {
        self.provenance.is_some()
    }

    /// Starts step `name` (a rule, `fold`) at `root`: until [`end_step`](Self::end_step),
    /// inserted and changed ops are attributed to it. Nothing unless provenance is tracked.
    pub(crate) fn begin_step(&mut self, root: InstId, name: &str) {
        if let Some(t) = self.provenance.as_mut() {
            let name = t.intern(name);
            t.step = Some(CurrentStep {
                root,
                name,
                inserted: None,
            });
        }
    }

    /// Ends the step [`begin_step`](Self::begin_step) started.
    pub(crate) fn end_step(&mut self) {
        if let Some(t) = self.provenance.as_mut() {
            t.step = None;
        }
    }

    /// Records that step `name` changed `inst` (CSE merged a duplicate into it).
    pub(crate) fn record_step(&mut self, inst: InstId, name: &str) {
        if let Some(t) = self.provenance.as_mut() {
            let name = t.intern(name);
            t.append(inst, name);
        }
    }

    /// Ends the edit and gives the function back.
    pub fn finish(self) -> Function {
        self.ir.into_function()
    }

    /// Sends every event from now on to `listener` as well (replacing an earlier one).
    pub fn set_listener(&mut self, listener: &'c mut dyn Listener) {
        self.listener = Some(listener);
    }

    /// Detaches the listener.
    pub fn take_listener(&mut self) -> Option<&'c mut dyn Listener> {
        self.listener.take()
    }

    pub(crate) fn hooks_and_ir(&mut self) -> (Option<&mut Hooks>, &Ir<'c>) {
        (self.hooks.as_deref_mut(), &self.ir)
    }

    pub(crate) fn arena(&self) -> &Arena {
        &self.ir.arena
    }

    fn check(&self, i: InstId, what: &str) {
        assert!(
            self.ir.contains(i),
            "{what}: instruction {i} does not exist in @{} (erased?)",
            self.ir.function_name()
        );
    }

    /// A value id not used anywhere in the function, for the values of region bodies given
    /// to [`insert_before`](Self::insert_before).
    pub fn fresh_value_id(&mut self) -> ValueId {
        self.ir.arena.fresh_value()
    }

    /// Inserts `op(operands) : ty` before `at`, with a fresh value id; returns it (the value
    /// is `id.value()`). A region op's regions are moved in as blocks; their values must be
    /// fresh ([`fresh_value_id`](Self::fresh_value_id)). Panics if `at` does not exist.
    pub fn insert_before(
        &mut self,
        at: InstId,
        op: Op,
        operands: Vec<ValueId>,
        ty: Type,
    ) -> InstId {
        self.check(at, "insert_before");
        let b = self.ir.block_of(at);
        self.insert(b, at.0, op, operands, ty)
    }

    /// Inserts `op(operands) : ty` at the end of block `b`; see [`insert_before`](Self::insert_before).
    pub fn insert_at_end(
        &mut self,
        b: BlockId,
        op: Op,
        operands: Vec<ValueId>,
        ty: Type,
    ) -> InstId {
        self.insert(b, NONE, op, operands, ty)
    }

    fn insert(
        &mut self,
        b: BlockId,
        before: u32,
        op: Op,
        operands: Vec<ValueId>,
        ty: Type,
    ) -> InstId {
        let result = self.ir.arena.fresh_value();
        let inst = Instruction {
            result,
            ty,
            op,
            operands,
        };
        let id = match self.ir.arena.place(b, inst, before) {
            Ok(id) => id,
            Err(v) => {
                panic!("insert: value {v} of a region body is already defined; use fresh_value_id")
            }
        };
        if let Some(t) = self.provenance.as_mut() {
            // Outside a step, a new op is as good as an input op (a freed value number may
            // come back: it starts afresh).
            match t.inserted_chain() {
                Some(chain) => t.chains.insert(id.value(), chain),
                None => t.chains.remove(&id.value()),
            };
        }
        notify!(self, on_inserted, notify_inserted(id));
        id
    }

    /// Inserts `constant lit : ty` before `at` (how folded values become SSA values).
    pub fn materialize_constant(&mut self, at: InstId, lit: Literal, ty: Type) -> InstId {
        self.insert_before(at, Op::Constant(lit), Vec::new(), ty)
    }

    /// Makes every use of `from` (operands and block results) a use of `to`. Each operand
    /// rewired is a "modified" event of its instruction.
    pub fn replace_all_uses(&mut self, from: ValueId, to: ValueId) {
        if from == to {
            return;
        }
        let uses: SmallVec<[Use; 4]> = self.ir.arena.uses(from).collect();
        for u in uses {
            if u.is_result() {
                let b = BlockId(u.owner);
                self.ir.arena.set_result(b, u.index(), to);
                if let Some(h) = self.hooks.as_mut() {
                    h.on_block_results_changed(&self.ir, b);
                }
            } else {
                let user = InstId(u.owner);
                self.ir.arena.set_operand(user, u.index(), to);
                notify!(self, on_modified, notify_modified(user));
            }
        }
    }

    /// Replaces `inst`'s value by `by` everywhere and erases `inst` (MLIR's `replaceOp`).
    /// Panics if `inst` does not exist or `by` is its own value.
    pub fn replace_op(&mut self, inst: InstId, by: ValueId) {
        self.check(inst, "replace_op");
        assert!(
            by != inst.value(),
            "replace_op: {inst} cannot replace itself"
        );
        notify!(self, on_replaced, notify_replaced(inst, by));
        self.replace_all_uses(inst.value(), by);
        self.erase_inst(inst);
    }

    /// Builds `op(operands) : ty` before `inst` and replaces `inst` by it (MLIR's
    /// `replaceOpWithNewOp`); returns the new instruction. Panics if `inst` does not exist or
    /// is one of `operands` (the new op would read itself once `inst`'s uses are redirected).
    ///
    /// ```
    /// use ptir_greedy::{ProgramContext, ProgramRewriter};
    /// use ptir_ir::{BinaryOp, InstId, Literal, Op, Scalar};
    /// let p = ptir_ir::parse("func @f(%0: f32[2]) -> (f32[2]) {
    ///   %1 = add %0, %0 : f32[2]
    ///   return %1
    /// }").unwrap();
    /// let cx = ProgramContext::new(&p);
    /// let mut rw = ProgramRewriter::new(p.functions[0].clone(), &cx).unwrap();
    /// let x = p.functions[0].body.params[0].id;
    /// let ty = rw.ty(InstId(1)).clone();
    /// let two = rw.materialize_constant(InstId(1), Literal::Splat(Scalar::Float(2.0)), ty.clone());
    /// rw.replace_op_with_new_op(InstId(1), Op::Binary(BinaryOp::Mul), vec![x, two.value()], ty);
    /// assert!(rw.finish().to_string().contains("mul %0, %2"));
    /// ```
    pub fn replace_op_with_new_op(
        &mut self,
        inst: InstId,
        op: Op,
        operands: Vec<ValueId>,
        ty: Type,
    ) -> InstId {
        assert!(
            !operands.contains(&inst.value()),
            "replace_op_with_new_op: the new op cannot read the {inst} it replaces"
        );
        let new = self.insert_before(inst, op, operands, ty);
        self.replace_op(inst, new.value());
        new
    }

    /// Erases `inst`, which must have no uses, with the ops of its regions (MLIR's `eraseOp`).
    /// Panics if it has uses: replace them first ([`replace_op`](Self::replace_op)).
    pub fn erase_inst(&mut self, inst: InstId) {
        self.check(inst, "erase_inst");
        let uses = self.ir.num_uses(inst.value());
        assert!(
            uses == 0,
            "erase_inst: {inst} still has {uses} use(s); replace them first (replace_op)"
        );
        self.erase_tree(inst);
    }

    fn erase_tree(&mut self, inst: InstId) {
        let regions: Vec<BlockId> = self.ir.regions(inst).to_vec();
        for &b in regions.iter().rev() {
            self.ir.arena.clear_results(b);
            let insts: Vec<InstId> = self.ir.arena.block_insts(b).collect();
            for &i in insts.iter().rev() {
                self.erase_tree(i);
            }
            self.ir.arena.free_block(b);
        }
        notify!(self, on_erased, notify_erased(inst));
        if let Some(t) = self.provenance.as_mut() {
            // The root's chain is what the ops its step inserts next start from.
            if t.step.as_ref().is_some_and(|s| s.root == inst) {
                t.inserted_chain();
            }
            t.chains.remove(&inst.value());
        }
        self.ir.arena.remove(inst);
    }

    /// Changes `inst` in place (op, attributes, operands, type), then reports it modified
    /// (MLIR's `modifyOpInPlace`). Panics if `inst` does not exist or the edit changes its
    /// number of regions.
    pub fn modify_in_place<R>(
        &mut self,
        inst: InstId,
        edit: impl FnOnce(&mut InstEdit<'_>) -> R,
    ) -> R {
        self.check(inst, "modify_in_place");
        let regions = self.ir.arena.regions(inst).len();
        let Some(slot) = self.ir.arena.inst_mut(inst) else {
            unreachable!("checked above")
        };
        let old_ops = slot.operands.clone();
        let mut ops = old_ops.clone();
        let mut e = InstEdit {
            op: &mut slot.op,
            operands: &mut ops,
            ty: &mut slot.ty,
        };
        let result = edit(&mut e);
        assert_eq!(
            e.op.regions().len(),
            regions,
            "modify_in_place cannot change regions"
        );
        let arena = &mut self.ir.arena;
        if old_ops.len() == ops.len() {
            for (k, (&a, &b)) in old_ops.iter().zip(&ops).enumerate() {
                if a != b {
                    arena.set_operand(inst, k, b);
                }
            }
        } else {
            arena.set_operands(inst, ops);
        }
        arena.refresh_key(inst);
        arena.bump_def(inst.value());
        arena.edits += 1;
        if let Some(t) = self.provenance.as_mut() {
            if let Some(name) = t.step.as_ref().map(|s| s.name.clone()) {
                t.append(inst, name);
            }
        }
        notify!(self, on_modified, notify_modified(inst));
        result
    }

    /// A root update that can be cancelled (MLIR's `startOpModification` followed by
    /// `finalizeOpModification` or `cancelOpModification`): `edit` works on a copy of
    /// `inst`'s op, operands and type; if it returns `Some`, the copy replaces them as
    /// [`modify_in_place`](Self::modify_in_place) would (one "modified" event); if it returns
    /// `None`, the update is cancelled: nothing changed, nobody is notified. Panics as
    /// `modify_in_place` does.
    ///
    /// ```
    /// use ptir_greedy::{ProgramContext, ProgramRewriter};
    /// use ptir_ir::InstId;
    /// let p = ptir_ir::parse("func @f(%0: f32[2], %1: f32[2]) -> (f32[2]) {
    ///   %2 = sub %0, %1 : f32[2]
    ///   return %2
    /// }").unwrap();
    /// let cx = ProgramContext::new(&p);
    /// let mut rw = ProgramRewriter::new(p.functions[0].clone(), &cx).unwrap();
    /// // Swap the operands, then find that the op is not commutative: cancel.
    /// let kept: Option<()> = rw.try_modify_in_place(InstId(2), |e| {
    ///     e.operands.swap(0, 1);
    ///     matches!(e.op, ptir_ir::Op::Binary(b) if b.is_commutative()).then_some(())
    /// });
    /// assert_eq!(kept, None);
    /// assert!(rw.finish().to_string().contains("sub %0, %1"));
    /// ```
    pub fn try_modify_in_place<R>(
        &mut self,
        inst: InstId,
        edit: impl FnOnce(&mut InstEdit<'_>) -> Option<R>,
    ) -> Option<R> {
        self.check(inst, "try_modify_in_place");
        let (mut op, mut ty) = match self.ir.inst(inst) {
            Some(i) => (i.op.clone(), i.ty.clone()),
            None => unreachable!("checked above"),
        };
        let mut operands = self.ir.operands(inst).to_vec();
        let result = edit(&mut InstEdit {
            op: &mut op,
            operands: &mut operands,
            ty: &mut ty,
        })?;
        self.modify_in_place(inst, |e| {
            *e.op = op;
            *e.operands = operands;
            *e.ty = ty;
        });
        Some(result)
    }

    /// Moves `inst` right before `at` (possibly into another block). Reported as an insertion,
    /// as MLIR's `moveOpBefore` does. The caller keeps dominance intact.
    pub fn move_before(&mut self, inst: InstId, at: InstId) {
        self.check(inst, "move_before");
        self.check(at, "move_before");
        if inst == at {
            return;
        }
        let b = self.ir.block_of(at);
        self.ir.arena.relink(inst, b, at.0);
        notify!(self, on_inserted, notify_inserted(inst));
    }

    /// Moves `inst` to the front of block `b` without any event (the constant folder's
    /// hoisting while seeding, which MLIR does not report either).
    pub(crate) fn hoist_to_front(&mut self, inst: InstId, b: BlockId) {
        let first = self.ir.arena.block(b).first;
        if first != inst.0 {
            self.ir.arena.relink(inst, b, first);
        }
    }

    /// Says why a pattern does not apply to `root` and returns `false`, so giving up is one
    /// statement: `return rw.notify_match_failure(root, || "not a splat".into())`. The reason
    /// is only built when someone listens (the step log or a listener).
    pub fn notify_match_failure(&mut self, root: InstId, reason: impl FnOnce() -> String) -> bool {
        let logging = self.hooks.as_ref().is_some_and(|h| h.logging());
        if logging || self.listener.is_some() {
            let reason = reason();
            if let Some(h) = self.hooks.as_mut() {
                h.on_match_failure(&reason);
            }
            if let Some(l) = self.listener.as_mut() {
                l.notify_match_failure(&self.ir, root, &reason);
            }
        }
        false
    }

    /// Reports that the pattern at `root` is wrong (not merely inapplicable): a rule whose
    /// result has another type than the value it replaces. The pattern must not have changed
    /// the IR; the driver stops with [`crate::GreedyError::Rule`] when the pattern returns.
    /// Returns `false`, for `return rw.notify_rule_error(..)`.
    pub fn notify_rule_error(&mut self, root: InstId, message: String) -> bool {
        self.notify_match_failure(root, || message.clone());
        self.rule_error.get_or_insert(message);
        false
    }

    /// Takes the error [`notify_rule_error`](Self::notify_rule_error) recorded, if any.
    pub fn take_rule_error(&mut self) -> Option<String> {
        self.rule_error.take()
    }

    /// Alias of [`notify_match_failure`](Self::notify_match_failure).
    pub fn no_match(&mut self, root: InstId, reason: impl FnOnce() -> String) -> bool {
        self.notify_match_failure(root, reason)
    }
}
