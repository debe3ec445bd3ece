//! How the driver reacts to the rewriter's events (MLIR's `GreedyPatternRewriteDriver`
//! listener methods), at the moment they happen:
//!
//! - inserted: log; an `ExistingAndNewOps` run admits it; it remembers the pattern that made
//!   it (for the recursion guard); it is queued;
//! - modified (an operand rewired, an in-place change): log; queued;
//! - replaced: log only (the users are queued as they are rewired);
//! - erased: log; each operand's defining op is queued if the operand has at most one other
//!   user (it may now be dead, or open a single-use rewrite); it leaves the worklist.
//!
//! Queuing an op queues the region ops enclosing it too, up to the driver's scope, so a change
//! deep in a loop body revisits the loop (MLIR's `addToWorklist`).

use super::log::{EventKind, Step, StepLog};
use super::worklist::Worklist;
use super::Strictness;
use crate::ir::{BlockId, Ir, User};
use crate::pattern::PatternId;
use ptir_ir::{InstId, ValueId};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// The driver's state that events update. Lives in the rewriter while a driver runs.
#[derive(Debug)]
pub(crate) struct Hooks {
    pub worklist: Worklist,
    pub strictness: Strictness,
    /// The ops a strict run may touch, by instruction id.
    allowed: Vec<bool>,
    /// Ops outside this block (and not nested in it) are never queued.
    pub scope: BlockId,
    pub log: Option<StepLog>,
    /// The pattern running now, which new ops are attributed to.
    pub current: Option<PatternId>,
    /// Which pattern created an op (the recursion guard).
    pub origin: FxHashMap<u32, PatternId>,
    pub inserted: usize,
    pub erased: usize,
}

impl Hooks {
    pub fn new(scope: BlockId, strictness: Strictness, log: bool) -> Self {
        Hooks {
            worklist: Worklist::default(),
            strictness,
            allowed: Vec::new(),
            scope,
            log: log.then(StepLog::default),
            current: None,
            origin: FxHashMap::default(),
            inserted: 0,
            erased: 0,
        }
    }

    pub fn logging(&self) -> bool {
        self.log.is_some()
    }

    pub fn step(&mut self, s: impl FnOnce() -> Step) {
        if let Some(log) = self.log.as_mut() {
            log.push(s());
        }
    }

    fn event(&mut self, ir: &Ir<'_>, kind: EventKind, inst: InstId) {
        self.step(|| Step::Event {
            kind,
            inst,
            op: ir.inst(inst).map_or("?", |i| i.op.name()),
        });
    }

    /// Lets a strict run touch `id`.
    pub fn allow(&mut self, id: InstId) {
        let i = id.0 as usize;
        if self.allowed.len() <= i {
            self.allowed.resize(i + 1, false);
        }
        self.allowed[i] = true;
    }

    fn disallow(&mut self, id: InstId) {
        if let Some(a) = self.allowed.get_mut(id.0 as usize) {
            *a = false;
        }
    }

    /// Queues one op, if a strict run allows it.
    pub fn add_single(&mut self, id: InstId) {
        let ok = self.strictness == Strictness::AnyOp
            || self.allowed.get(id.0 as usize).copied().unwrap_or(false);
        if ok {
            self.worklist.push(id);
        }
    }

    /// Queues `id` and the region ops enclosing it, up to the scope; nothing if `id` is
    /// outside the scope.
    pub fn add_to_worklist(&mut self, ir: &Ir<'_>, id: InstId) {
        let mut chain: SmallVec<[InstId; 4]> = SmallVec::new();
        let mut op = id;
        loop {
            chain.push(op);
            let Some(block) = ir.arena.block_of(op) else {
                return;
            };
            if block == self.scope {
                for &o in &chain {
                    self.add_single(o);
                }
                return;
            }
            match ir.parent_op(block) {
                Some(p) => op = p,
                None => return,
            }
        }
    }

    pub fn on_inserted(&mut self, ir: &Ir<'_>, id: InstId) {
        self.event(ir, EventKind::Insert, id);
        self.inserted += 1;
        if self.strictness == Strictness::ExistingAndNewOps {
            self.allow(id);
        }
        if let Some(p) = self.current {
            self.origin.insert(id.0, p);
        }
        self.add_to_worklist(ir, id);
    }

    pub fn on_modified(&mut self, ir: &Ir<'_>, id: InstId) {
        self.event(ir, EventKind::Modified, id);
        self.add_to_worklist(ir, id);
    }

    pub fn on_replaced(&mut self, ir: &Ir<'_>, id: InstId, _by: ValueId) {
        self.event(ir, EventKind::Replace, id);
    }

    pub fn on_erased(&mut self, ir: &Ir<'_>, id: InstId) {
        self.event(ir, EventKind::Erase, id);
        self.erased += 1;
        self.add_operands_to_worklist(ir, id);
        self.worklist.remove(id);
        if self.strictness != Strictness::AnyOp {
            self.disallow(id);
        }
        if !self.origin.is_empty() {
            self.origin.remove(&id.0);
        }
    }

    /// A block's results were rewired: its region op (the owner of the `yield`) is queued.
    pub fn on_block_results_changed(&mut self, ir: &Ir<'_>, b: BlockId) {
        if let Some(p) = ir.parent_op(b) {
            self.add_to_worklist(ir, p);
        }
    }

    pub fn on_match_failure(&mut self, reason: &str) {
        self.step(|| Step::MatchFailure(reason.to_string()));
    }

    /// Queues the defining op of each operand of `op` that has at most one user besides `op`.
    fn add_operands_to_worklist(&mut self, ir: &Ir<'_>, op: InstId) {
        let Some(inst) = ir.arena.inst(op) else {
            return;
        };
        for &v in &inst.operands {
            let Some(def) = ir.inst_of(v) else { continue };
            let mut other: Option<User> = None;
            let mut more = false;
            for u in ir.users(v) {
                if u == User::Inst(op) || Some(u) == other {
                    continue;
                }
                if other.is_none() {
                    other = Some(u);
                } else {
                    more = true;
                    break;
                }
            }
            if !more {
                self.add_to_worklist(ir, def);
            }
        }
    }
}
