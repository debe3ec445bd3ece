//! The rewriter's storage: one function as an arena, so that every edit is O(1) (erasing an
//! instruction is O(operands)) and every lookup is an index.
//!
//! **Why an arena.** A [`Region`] keeps its block as a `Vec<Instruction>`; inserting or
//! erasing in the middle of a million-instruction block would be O(n) per edit. The arena
//! keeps the instructions where they are and adds small tables beside them:
//!
//! - `stores`: the instruction vectors themselves, *moved* in from the function's blocks (a
//!   `Vec` move, not a copy of its elements) plus one store for inserted instructions. An
//!   instruction never moves inside its store; erasing one leaves a cheap placeholder.
//! - `nodes[n]`: for the instruction defining `ValueId(n)` (so `InstId(n)` is an index): where
//!   it is stored, its block, its neighbours (an intrusive doubly linked list per block), an
//!   order key for "is before" queries (renumbered lazily, as MLIR does), the first entry of
//!   its operands in the use pool, and its region bodies; and for the value `ValueId(n)`: how
//!   it is defined (parameter or instruction), its use list and two version counters
//!   (definition, uses) that the failure cache keys on. One table, one cache line per id.
//! - `uses`: one entry per operand and per block result, linked into the use list of the value
//!   it uses (MLIR's intrusive use lists): adding or removing a use is O(1) and no value owns
//!   an allocation, so a parameter used a million times costs nothing extra to edit around.
//! - `blocks[b]`: a block's parameters, results, first and last instruction, and the region
//!   op that owns it.
//!
//! Region ops keep their `Op` with the region bodies moved out (empty `Region`s); the bodies
//! are blocks of the arena. [`Arena::take_region`] rebuilds `Region`s in list order, moving each
//! surviving instruction once.

mod convert;

use ptir_ir::{InstId, Instruction, Op, OpKey, Param, Region, Type, ValueId};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use std::cell::{Cell, RefCell};

/// "None": the end of a list, an absent entry.
pub(crate) const NONE: u32 = u32::MAX;
/// Gap between the order keys of neighbours after a renumbering, so that most insertions
/// find a free key between their neighbours without renumbering the block.
const ORDER_STRIDE: u32 = 16;
/// Marks a use whose owner is a block (a block result) rather than an instruction.
const RESULT_FLAG: u32 = 1 << 31;
/// The store that inserted instructions go to.
const NEW_STORE: u32 = 0;

/// A block of the function being rewritten: the function body or the body of one region of a
/// region op.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

/// One use of a value: operand `slot` of instruction `owner`, or (with [`RESULT_FLAG`]) result
/// `slot` of block `owner`; linked into its value's use list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Use {
    pub owner: u32,
    pub slot: u32,
    next: u32,
    prev: u32,
}

impl Use {
    pub fn is_result(self) -> bool {
        self.slot & RESULT_FLAG != 0
    }

    pub fn index(self) -> usize {
        (self.slot & !RESULT_FLAG) as usize
    }
}

/// How a value is defined.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Def {
    /// Not (or no longer) defined: an erased instruction's value, or an id never used.
    #[default]
    Undefined,
    /// A block parameter (its block and index are in the node).
    Param,
    /// The result of instruction `InstId(n)`.
    Inst,
}

/// Everything the arena knows about id `n`: the value `ValueId(n)` (definition, use list,
/// versions) and, if an instruction defines it, where that instruction is. One table, so
/// that looking at an instruction and at its value touches one cache line.
#[derive(Debug)]
pub(crate) struct Node {
    /// The store holding the instruction (`NONE`: no instruction with this id).
    store: u32,
    /// Its index in the store; for a parameter, its index among the block's parameters.
    idx: u32,
    /// The block of the instruction, or of the parameter.
    pub block: BlockId,
    pub prev: u32,
    pub next: u32,
    order: Cell<u32>,
    /// Index in `uses` of the entry of operand 0 (the others follow).
    ops_base: u32,
    /// Index in `region_lists`, or `NONE`.
    regions: u32,
    first_use: u32,
    num_uses: u32,
    /// Bumped when the definition changes (modified, operands replaced, erased).
    def_version: u32,
    /// Bumped when the use list changes.
    use_version: u32,
    def: Def,
    /// The op kind of the instruction (valid while it lives): dispatch and the cheap checks
    /// (is it a constant? a pure kind?) need not touch the instruction itself.
    pub key: OpKey,
}

impl Default for Node {
    fn default() -> Self {
        Node {
            store: NONE,
            idx: 0,
            block: BlockId(NONE),
            prev: NONE,
            next: NONE,
            order: Cell::new(0),
            ops_base: NONE,
            regions: NONE,
            first_use: NONE,
            num_uses: 0,
            def_version: 0,
            use_version: 0,
            def: Def::Undefined,
            key: OpKey::Tuple,
        }
    }
}

#[derive(Debug, Default)]
pub(crate) struct BlockData {
    pub params: Vec<Param>,
    pub results: Vec<ValueId>,
    /// Index in `uses` of the entry of result 0.
    results_base: u32,
    pub first: u32,
    pub last: u32,
    pub len: u32,
    /// The region op owning this block and the region's index; `None` for the function body.
    pub parent: Option<(InstId, u32)>,
    /// The store holding the block's original instructions.
    store: u32,
    /// Is the list still a subsequence of the store, in store order (only erasures since the
    /// block was built)? Then [`Arena::take_region`] compacts the store in place.
    in_order: bool,
    order_valid: Cell<bool>,
    /// Lazily built index of the block's instructions by op kind (multi-root rule search);
    /// dropped on every insertion, move or erasure in the block.
    pub index: RefCell<Option<FxHashMap<OpKey, Vec<InstId>>>>,
}

/// The whole function body, see the module docs.
#[derive(Debug, Default)]
pub(crate) struct Arena {
    stores: Vec<Vec<Instruction>>,
    nodes: Vec<Node>,
    uses: Vec<Use>,
    region_lists: Vec<SmallVec<[BlockId; 2]>>,
    pub blocks: Vec<BlockData>,
    pub body: BlockId,
    /// One past the largest value id ever used: the next fresh id.
    pub next_value: u32,
    /// Number of edits so far (any change to the IR bumps it).
    pub edits: u64,
}

/// An instruction that owns no heap memory, left where an instruction was taken or erased.
fn placeholder() -> Instruction {
    Instruction {
        result: ValueId(NONE),
        ty: Type::Tuple(Vec::new()),
        op: Op::Tuple,
        operands: Vec::new(),
    }
}

impl Arena {
    /// Moves a function body into a fresh arena. Fails with the id of a value defined twice.
    pub fn build(body: Region) -> Result<Arena, ValueId> {
        let mut a = Arena {
            stores: vec![Vec::new()],
            ..Arena::default()
        };
        // The node table is indexed by value id, and ids are sparse after a pass that erased
        // most ops (a million-instruction chain canonicalized keeps ids up to a million for
        // 200k instructions): size it once by the largest id, which costs a read per
        // instruction, instead of regrowing it (copies and fresh pages) as ids come.
        let ids = body.max_value_id().map_or(0, |m| m as usize + 1);
        a.nodes.resize_with(ids, Node::default);
        a.uses
            .reserve(2 * (body.insts.len() + body.params.len() + 1));
        a.body = a.add_block(body, None)?;
        Ok(a)
    }

    /// Makes `nodes[id]` exist.
    pub fn ensure_value(&mut self, id: ValueId) {
        let n = id.0 as usize + 1;
        if self.nodes.len() < n {
            self.nodes.resize_with(n, Node::default);
        }
        self.next_value = self.next_value.max(id.0 + 1);
    }

    /// A value id never used in the function.
    pub fn fresh_value(&mut self) -> ValueId {
        let v = ValueId(self.next_value);
        self.ensure_value(v);
        v
    }

    /// The node of a live instruction.
    pub fn meta(&self, id: InstId) -> Option<&Node> {
        self.nodes.get(id.0 as usize).filter(|m| m.store != NONE)
    }

    pub fn is_alive(&self, id: InstId) -> bool {
        self.meta(id).is_some()
    }

    pub fn inst(&self, id: InstId) -> Option<&Instruction> {
        let m = self.meta(id)?;
        self.stores[m.store as usize].get(m.idx as usize)
    }

    pub fn inst_mut(&mut self, id: InstId) -> Option<&mut Instruction> {
        let m = self.nodes.get(id.0 as usize).filter(|m| m.store != NONE)?;
        self.stores[m.store as usize].get_mut(m.idx as usize)
    }

    pub fn block_of(&self, id: InstId) -> Option<BlockId> {
        self.meta(id).map(|m| m.block)
    }

    /// The region bodies of `id`.
    pub fn regions(&self, id: InstId) -> &[BlockId] {
        match self.meta(id) {
            Some(m) if m.regions != NONE => &self.region_lists[m.regions as usize],
            _ => &[],
        }
    }

    /// How `v` is defined.
    pub fn def(&self, v: ValueId) -> Def {
        self.nodes
            .get(v.0 as usize)
            .map_or(Def::Undefined, |n| n.def)
    }

    /// The block and index of parameter `v`.
    pub fn param(&self, v: ValueId) -> Option<(BlockId, usize)> {
        let n = self.nodes.get(v.0 as usize)?;
        (n.def == Def::Param).then_some((n.block, n.idx as usize))
    }

    pub fn num_uses(&self, v: ValueId) -> usize {
        self.nodes
            .get(v.0 as usize)
            .map_or(0, |n| n.num_uses as usize)
    }

    /// (definition version, use-list version) of `v`.
    pub fn versions(&self, v: ValueId) -> (u32, u32) {
        self.nodes
            .get(v.0 as usize)
            .map_or((0, 0), |n| (n.def_version, n.use_version))
    }

    /// One past the largest id.
    pub fn id_bound(&self) -> usize {
        self.nodes.len()
    }

    pub fn block(&self, b: BlockId) -> &BlockData {
        &self.blocks[b.0 as usize]
    }

    fn block_mut(&mut self, b: BlockId) -> &mut BlockData {
        &mut self.blocks[b.0 as usize]
    }

    /// The uses of `v`, most recent first.
    pub fn uses(&self, v: ValueId) -> UseIter<'_> {
        UseIter {
            arena: self,
            next: self.nodes.get(v.0 as usize).map_or(NONE, |n| n.first_use),
        }
    }

    /// Moves `region` in as a new block owned by `parent`, instructions and nested regions
    /// included.
    pub fn add_block(
        &mut self,
        region: Region,
        parent: Option<(InstId, u32)>,
    ) -> Result<BlockId, ValueId> {
        let b = BlockId(self.blocks.len() as u32);
        let store = self.stores.len() as u32;
        self.blocks.push(BlockData {
            first: NONE,
            last: NONE,
            results_base: NONE,
            parent,
            store,
            in_order: true,
            ..BlockData::default()
        });
        for (i, p) in region.params.iter().enumerate() {
            self.define(p.id, Def::Param)?;
            let n = &mut self.nodes[p.id.0 as usize];
            n.block = b;
            n.idx = i as u32;
        }
        self.block_mut(b).params = region.params;
        let n = region.insts.len();
        self.stores.push(region.insts);
        for idx in 0..n {
            self.adopt(b, store, idx as u32, NONE)?;
        }
        self.set_results(b, region.results);
        Ok(b)
    }

    fn define(&mut self, v: ValueId, def: Def) -> Result<(), ValueId> {
        self.ensure_value(v);
        let i = v.0 as usize;
        if self.nodes[i].def != Def::Undefined || self.nodes[i].store != NONE {
            return Err(v);
        }
        let slot = &mut self.nodes[i];
        slot.def = def;
        slot.def_version = slot.def_version.wrapping_add(1);
        Ok(())
    }

    /// Places a new instruction in block `b` before instruction `before` (`NONE`: at the end).
    pub fn place(&mut self, b: BlockId, inst: Instruction, before: u32) -> Result<InstId, ValueId> {
        let store = &mut self.stores[NEW_STORE as usize];
        store.push(inst);
        let idx = (store.len() - 1) as u32;
        let id = self.adopt(b, NEW_STORE, idx, before)?;
        self.block_mut(b).in_order = false;
        self.edits += 1;
        Ok(id)
    }

    /// Takes the instruction at `stores[store][idx]` into block `b` before `before`: defines
    /// its value, registers its uses, links it, and moves its regions in as blocks.
    fn adopt(&mut self, b: BlockId, store: u32, idx: u32, before: u32) -> Result<InstId, ValueId> {
        let (result, nops, regions, key) = {
            let inst = &mut self.stores[store as usize][idx as usize];
            let key = inst.op.key();
            let regions: Vec<Region> = match inst.op {
                Op::Cond { .. } | Op::While { .. } | Op::Scan { .. } => inst
                    .op
                    .regions_mut()
                    .into_iter()
                    .map(std::mem::take)
                    .collect(),
                _ => Vec::new(),
            };
            (inst.result, inst.operands.len(), regions, key)
        };
        let id = result.inst();
        self.define(result, Def::Inst)?;
        let ops_base = self.uses.len() as u32;
        for k in 0..nops {
            let v = self.stores[store as usize][idx as usize].operands[k];
            self.push_use(v, id.0, k as u32);
        }
        let m = &mut self.nodes[id.0 as usize];
        m.store = store;
        m.idx = idx;
        m.ops_base = ops_base;
        m.regions = NONE;
        m.key = key;
        self.link(id, b, before);
        if !regions.is_empty() {
            let list = self.region_lists.len() as u32;
            self.region_lists.push(SmallVec::new());
            self.nodes[id.0 as usize].regions = list;
            for (k, r) in regions.into_iter().enumerate() {
                let child = self.add_block(r, Some((id, k as u32)))?;
                self.region_lists[list as usize].push(child);
            }
        }
        Ok(id)
    }

    /// Sets the results of block `b` (which must have none registered).
    pub fn set_results(&mut self, b: BlockId, results: Vec<ValueId>) {
        let base = self.uses.len() as u32;
        for (k, &v) in results.iter().enumerate() {
            self.push_use(v, b.0, k as u32 | RESULT_FLAG);
        }
        let block = self.block_mut(b);
        block.results = results;
        block.results_base = base;
    }

    /// Drops the result uses of block `b`.
    pub fn clear_results(&mut self, b: BlockId) {
        let results = std::mem::take(&mut self.block_mut(b).results);
        let base = self.block(b).results_base;
        for (k, v) in results.into_iter().enumerate() {
            self.unlink_use(v, base + k as u32);
        }
    }

    /// Appends a use entry to the pool and links it into `v`'s use list.
    fn push_use(&mut self, v: ValueId, owner: u32, slot: u32) {
        let g = self.uses.len() as u32;
        self.uses.push(Use {
            owner,
            slot,
            next: NONE,
            prev: NONE,
        });
        self.link_use(v, g);
    }

    fn link_use(&mut self, v: ValueId, g: u32) {
        self.ensure_value(v);
        let slot = &mut self.nodes[v.0 as usize];
        let first = slot.first_use;
        slot.first_use = g;
        slot.num_uses += 1;
        slot.use_version = slot.use_version.wrapping_add(1);
        let u = &mut self.uses[g as usize];
        u.prev = NONE;
        u.next = first;
        if first != NONE {
            self.uses[first as usize].prev = g;
        }
    }

    fn unlink_use(&mut self, v: ValueId, g: u32) {
        let Use { prev, next, .. } = self.uses[g as usize];
        if prev != NONE {
            self.uses[prev as usize].next = next;
        } else if let Some(s) = self.nodes.get_mut(v.0 as usize) {
            s.first_use = next;
        }
        if next != NONE {
            self.uses[next as usize].prev = prev;
        }
        if let Some(s) = self.nodes.get_mut(v.0 as usize) {
            s.num_uses -= 1;
            s.use_version = s.use_version.wrapping_add(1);
        }
    }

    /// Makes operand `k` of `id` be `v`.
    pub fn set_operand(&mut self, id: InstId, k: usize, v: ValueId) {
        let Some(base) = self.meta(id).map(|m| m.ops_base) else {
            return;
        };
        let Some(inst) = self.inst_mut(id) else {
            return;
        };
        let old = std::mem::replace(&mut inst.operands[k], v);
        let g = base + k as u32;
        self.unlink_use(old, g);
        self.link_use(v, g);
        self.bump_def(id.value());
        self.edits += 1;
    }

    /// Replaces all operands of `id` (possibly changing their number).
    pub fn set_operands(&mut self, id: InstId, new: Vec<ValueId>) {
        let Some(base) = self.meta(id).map(|m| m.ops_base) else {
            return;
        };
        let old = match self.inst_mut(id) {
            Some(inst) => std::mem::replace(&mut inst.operands, new.clone()),
            None => return,
        };
        for (k, v) in old.into_iter().enumerate() {
            self.unlink_use(v, base + k as u32);
        }
        let new_base = self.uses.len() as u32;
        for (k, v) in new.into_iter().enumerate() {
            self.push_use(v, id.0, k as u32);
        }
        self.nodes[id.0 as usize].ops_base = new_base;
        self.bump_def(id.value());
        self.edits += 1;
    }

    /// Makes result `k` of block `b` be `v`.
    pub fn set_result(&mut self, b: BlockId, k: usize, v: ValueId) {
        let block = self.block_mut(b);
        let old = std::mem::replace(&mut block.results[k], v);
        let g = block.results_base + k as u32;
        self.unlink_use(old, g);
        self.link_use(v, g);
        self.edits += 1;
    }

    /// Re-reads the op kind of `id` after an in-place change.
    pub fn refresh_key(&mut self, id: InstId) {
        if let Some(k) = self.inst(id).map(|i| i.op.key()) {
            self.nodes[id.0 as usize].key = k;
        }
    }

    /// The op kind of live instruction `id`.
    pub fn key(&self, id: InstId) -> Option<OpKey> {
        self.meta(id).map(|n| n.key)
    }

    pub fn bump_def(&mut self, v: ValueId) {
        if let Some(s) = self.nodes.get_mut(v.0 as usize) {
            s.def_version = s.def_version.wrapping_add(1);
        }
    }

    /// Links `id` into block `b` before `before` (`NONE`: at the end).
    fn link(&mut self, id: InstId, b: BlockId, before: u32) {
        let prev = if before == NONE {
            self.block(b).last
        } else {
            self.nodes[before as usize].prev
        };
        let order = self.order_between(b, prev, before);
        let m = &mut self.nodes[id.0 as usize];
        m.block = b;
        m.prev = prev;
        m.next = before;
        m.order.set(order);
        match prev {
            NONE => self.block_mut(b).first = id.0,
            p => self.nodes[p as usize].next = id.0,
        }
        match before {
            NONE => self.block_mut(b).last = id.0,
            n => self.nodes[n as usize].prev = id.0,
        }
        let block = self.block_mut(b);
        block.len += 1;
        block.index.get_mut().take();
    }

    /// An order key between `prev` and `next`, or any key after invalidating the block's
    /// order when there is no room.
    fn order_between(&self, b: BlockId, prev: u32, next: u32) -> u32 {
        let block = self.block(b);
        if !block.order_valid.get() && block.len > 0 {
            return 0;
        }
        let key = |i: u32| self.nodes[i as usize].order.get();
        let lo = if prev == NONE { 0 } else { key(prev) };
        let hi = if next == NONE {
            lo.saturating_add(2 * ORDER_STRIDE)
        } else {
            key(next)
        };
        if hi > lo + 1 {
            block.order_valid.set(true);
            lo + (hi - lo) / 2
        } else {
            block.order_valid.set(false);
            0
        }
    }

    /// Unlinks `id` from its block.
    fn unlink(&mut self, id: InstId) {
        let Some(m) = self.meta(id) else { return };
        let (b, prev, next) = (m.block, m.prev, m.next);
        match prev {
            NONE => self.block_mut(b).first = next,
            p => self.nodes[p as usize].next = next,
        }
        match next {
            NONE => self.block_mut(b).last = prev,
            n => self.nodes[n as usize].prev = prev,
        }
        let block = self.block_mut(b);
        block.len -= 1;
        block.index.get_mut().take();
    }

    /// Moves `id` to block `b`, before `before` (`NONE`: at the end).
    pub fn relink(&mut self, id: InstId, b: BlockId, before: u32) {
        if let Some(from) = self.block_of(id) {
            self.block_mut(from).in_order = false;
        }
        self.block_mut(b).in_order = false;
        self.unlink(id);
        self.link(id, b, before);
        self.edits += 1;
    }

    /// Removes instruction `id` (whose regions are already gone): unregisters its operand
    /// uses, unlinks it and drops it. Its value becomes undefined.
    pub fn remove(&mut self, id: InstId) {
        let Some(m) = self.meta(id) else { return };
        let (store, idx, base) = (m.store, m.idx, m.ops_base);
        self.unlink(id);
        let inst = std::mem::replace(
            &mut self.stores[store as usize][idx as usize],
            placeholder(),
        );
        for (k, &v) in inst.operands.iter().enumerate() {
            self.unlink_use(v, base + k as u32);
        }
        let m = &mut self.nodes[id.0 as usize];
        m.store = NONE;
        m.regions = NONE;
        m.def = Def::Undefined;
        m.def_version = m.def_version.wrapping_add(1);
        self.edits += 1;
    }

    /// Marks a block (already emptied) as gone, dropping its parameters' definitions.
    pub fn free_block(&mut self, b: BlockId) {
        let params = std::mem::take(&mut self.block_mut(b).params);
        for p in params {
            if let Some(v) = self.nodes.get_mut(p.id.0 as usize) {
                v.def = Def::Undefined;
                v.def_version = v.def_version.wrapping_add(1);
            }
        }
    }

    /// The instructions of block `b`, in order.
    pub fn block_insts(&self, b: BlockId) -> BlockIter<'_> {
        BlockIter {
            arena: self,
            next: self.block(b).first,
        }
    }

    /// Is `a` before `b`? Both must be in the same block.
    pub fn is_before(&self, a: InstId, b: InstId) -> bool {
        let (Some(ma), Some(mb)) = (self.meta(a), self.meta(b)) else {
            return false;
        };
        let block = self.block(ma.block);
        if !block.order_valid.get() {
            let mut key = 0u32;
            for id in self.block_insts(ma.block) {
                key = key.saturating_add(ORDER_STRIDE);
                self.nodes[id.0 as usize].order.set(key);
            }
            block.order_valid.set(true);
        }
        ma.order.get() < mb.order.get()
    }

    /// Number of live instructions.
    pub fn count(&self) -> usize {
        self.nodes.iter().filter(|m| m.store != NONE).count()
    }
}

/// Iterates the instructions of a block in order.
pub(crate) struct BlockIter<'a> {
    arena: &'a Arena,
    next: u32,
}

impl Iterator for BlockIter<'_> {
    type Item = InstId;
    fn next(&mut self) -> Option<InstId> {
        if self.next == NONE {
            return None;
        }
        let id = InstId(self.next);
        self.next = self.arena.nodes[self.next as usize].next;
        Some(id)
    }
}

/// Iterates the uses of a value.
pub(crate) struct UseIter<'a> {
    arena: &'a Arena,
    next: u32,
}

impl Iterator for UseIter<'_> {
    type Item = Use;
    fn next(&mut self) -> Option<Use> {
        if self.next == NONE {
            return None;
        }
        let u = self.arena.uses[self.next as usize];
        self.next = u.next;
        Some(u)
    }
}
