//! The rewriter's storage: one function as an arena, so that every edit is O(1) (erasing an
//! instruction is O(operands)) and every lookup is an index.
//!
//! **Why an arena.** A [`Function`] keeps each block as a `Vec<Instruction>`; inserting or
//! erasing in the middle of a million-instruction block would be O(n) per edit. On entry the
//! function is *moved* (not cloned) into three dense tables indexed by id, and moved back on
//! exit:
//!
//! - `insts[n]`: the instruction defining `ValueId(n)` (so `InstId(n)` is an index), with its
//!   block, its neighbours (an intrusive doubly linked list per block), an order key for
//!   "is before" queries (renumbered lazily, as MLIR does), and for each operand the position
//!   of this use in the operand's use list;
//! - `values[n]`: how `ValueId(n)` is defined (parameter or instruction), its use list and two
//!   version counters (definition, uses) that the failure cache keys on;
//! - `blocks[b]`: a block's parameters, results (which are uses too), first and last
//!   instruction, and the region op that owns it.
//!
//! Region ops keep their `Op` with the region bodies moved out (empty `Region`s); the bodies
//! are blocks of the arena, listed in the slot's `regions`. Use lists are unordered vectors
//! with back-pointers (`use_pos`), so removing a use is a swap-remove: a parameter used by a
//! million instructions costs nothing extra to edit around.

use ptir_ir::{InstId, Instruction, Op, OpKey, Param, Region, ValueId};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use std::cell::{Cell, RefCell};

/// "No instruction": the end of a list, an absent back-pointer.
pub(crate) const NONE: u32 = u32::MAX;
/// Gap between the order keys of neighbours after a renumbering, so that most insertions
/// find a free key between their neighbours without renumbering the block.
const ORDER_STRIDE: u32 = 16;
/// Marks a use whose owner is a block (a block result) rather than an instruction.
const RESULT_FLAG: u32 = 1 << 31;

/// A block of the function being rewritten: the function body or the body of one region of a
/// region op.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

/// One use of a value: operand `slot` of instruction `owner`, or (with [`RESULT_FLAG`]) result
/// `slot` of block `owner`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Use {
    pub owner: u32,
    pub slot: u32,
}

impl Use {
    pub fn is_result(self) -> bool {
        self.slot & RESULT_FLAG != 0
    }
}

/// How a value is defined.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Def {
    /// Not (or no longer) defined: an erased instruction's value, or an id never used.
    #[default]
    Undefined,
    /// Parameter `index` of `block`.
    Param { block: BlockId, index: u32 },
    /// The result of `insts[id]`.
    Inst,
}

#[derive(Debug, Default)]
pub(crate) struct ValueSlot {
    pub def: Def,
    pub uses: Vec<Use>,
    /// Bumped when the defining instruction changes (modified, operands replaced, erased).
    pub def_version: u32,
    /// Bumped when the use list changes.
    pub use_version: u32,
}

#[derive(Debug)]
pub(crate) struct InstSlot {
    /// The instruction; a region op's regions are moved out into `regions`.
    pub inst: Instruction,
    pub block: BlockId,
    pub prev: u32,
    pub next: u32,
    pub order: Cell<u32>,
    /// For each operand, the position of this use in the operand's use list.
    pub use_pos: SmallVec<[u32; 3]>,
    pub regions: SmallVec<[BlockId; 2]>,
}

#[derive(Debug, Default)]
pub(crate) struct BlockData {
    pub params: Vec<Param>,
    pub results: Vec<ValueId>,
    /// For each result, the position of this use in the value's use list.
    pub result_pos: Vec<u32>,
    pub first: u32,
    pub last: u32,
    pub len: u32,
    /// The region op owning this block and the region's index; `None` for the function body.
    pub parent: Option<(InstId, u32)>,
    pub alive: bool,
    pub order_valid: Cell<bool>,
    /// Lazily built index of the block's instructions by op kind (multi-root rule search);
    /// dropped on every insertion, move or erasure in the block.
    pub index: RefCell<Option<FxHashMap<OpKey, Vec<InstId>>>>,
}

/// The whole function body, see the module docs.
#[derive(Debug, Default)]
pub(crate) struct Arena {
    pub values: Vec<ValueSlot>,
    pub insts: Vec<Option<InstSlot>>,
    pub blocks: Vec<BlockData>,
    pub body: BlockId,
    /// One past the largest value id ever used: the next fresh id.
    pub next_value: u32,
    /// Number of edits so far (any change to the IR bumps it).
    pub edits: u64,
}

fn take_regions(op: &mut Op) -> Vec<Region> {
    op.regions_mut().into_iter().map(std::mem::take).collect()
}

fn put_regions(op: &mut Op, regions: Vec<Region>) {
    for (slot, r) in op.regions_mut().into_iter().zip(regions) {
        *slot = r;
    }
}

impl Arena {
    /// Moves a function body into a fresh arena. Fails with the id of a value defined twice.
    pub fn build(body: Region) -> Result<Arena, ValueId> {
        let mut a = Arena::default();
        let n = body.max_value_id().map_or(0, |m| m as usize + 1);
        a.values.reserve(n);
        a.insts.reserve(n);
        a.body = a.add_block(body, None)?;
        Ok(a)
    }

    /// Makes `values[id]` and `insts[id]` exist.
    pub fn ensure_value(&mut self, id: ValueId) {
        let n = id.0 as usize + 1;
        if self.values.len() < n {
            self.values.resize_with(n, ValueSlot::default);
            self.insts.resize_with(n, || None);
        }
        self.next_value = self.next_value.max(id.0 + 1);
    }

    /// A value id never used in the function.
    pub fn fresh_value(&mut self) -> ValueId {
        let v = ValueId(self.next_value);
        self.ensure_value(v);
        v
    }

    pub fn slot(&self, id: InstId) -> Option<&InstSlot> {
        self.insts.get(id.0 as usize)?.as_ref()
    }

    pub fn slot_mut(&mut self, id: InstId) -> Option<&mut InstSlot> {
        self.insts.get_mut(id.0 as usize)?.as_mut()
    }

    pub fn value(&self, v: ValueId) -> Option<&ValueSlot> {
        self.values.get(v.0 as usize)
    }

    pub fn block(&self, b: BlockId) -> &BlockData {
        &self.blocks[b.0 as usize]
    }

    fn block_mut(&mut self, b: BlockId) -> &mut BlockData {
        &mut self.blocks[b.0 as usize]
    }

    /// Moves `region` in as a new block owned by `parent`, instructions and nested regions
    /// included.
    pub fn add_block(
        &mut self,
        region: Region,
        parent: Option<(InstId, u32)>,
    ) -> Result<BlockId, ValueId> {
        let b = BlockId(self.blocks.len() as u32);
        self.blocks.push(BlockData {
            first: NONE,
            last: NONE,
            parent,
            alive: true,
            ..BlockData::default()
        });
        for (i, p) in region.params.iter().enumerate() {
            self.define(
                p.id,
                Def::Param {
                    block: b,
                    index: i as u32,
                },
            )?;
        }
        self.block_mut(b).params = region.params;
        for inst in region.insts {
            self.place(b, inst, NONE)?;
        }
        self.set_results(b, region.results);
        Ok(b)
    }

    fn define(&mut self, v: ValueId, def: Def) -> Result<(), ValueId> {
        self.ensure_value(v);
        let slot = &mut self.values[v.0 as usize];
        if slot.def != Def::Undefined || self.insts[v.0 as usize].is_some() {
            return Err(v);
        }
        slot.def = def;
        slot.def_version = slot.def_version.wrapping_add(1);
        Ok(())
    }

    /// Places `inst` in block `b` before instruction `before` (`NONE`: at the end), moving its
    /// regions in as blocks. Registers its uses.
    pub fn place(
        &mut self,
        b: BlockId,
        mut inst: Instruction,
        before: u32,
    ) -> Result<InstId, ValueId> {
        let id = inst.id();
        self.define(inst.result, Def::Inst)?;
        let regions = take_regions(&mut inst.op);
        let use_pos = inst
            .operands
            .iter()
            .enumerate()
            .map(|(k, &v)| {
                self.add_use(
                    v,
                    Use {
                        owner: id.0,
                        slot: k as u32,
                    },
                )
            })
            .collect();
        self.insts[id.0 as usize] = Some(InstSlot {
            inst,
            block: b,
            prev: NONE,
            next: NONE,
            order: Cell::new(0),
            use_pos,
            regions: SmallVec::new(),
        });
        self.link(id, b, before);
        for (k, r) in regions.into_iter().enumerate() {
            let child = self.add_block(r, Some((id, k as u32)))?;
            if let Some(s) = self.slot_mut(id) {
                s.regions.push(child);
            }
        }
        self.edits += 1;
        Ok(id)
    }

    /// Sets the results of block `b` (which must have none registered).
    pub fn set_results(&mut self, b: BlockId, results: Vec<ValueId>) {
        let pos = results
            .iter()
            .enumerate()
            .map(|(k, &v)| {
                self.add_use(
                    v,
                    Use {
                        owner: b.0,
                        slot: k as u32 | RESULT_FLAG,
                    },
                )
            })
            .collect();
        let block = self.block_mut(b);
        block.results = results;
        block.result_pos = pos;
    }

    /// Drops the result uses of block `b`.
    pub fn clear_results(&mut self, b: BlockId) {
        let results = std::mem::take(&mut self.block_mut(b).results);
        let pos = std::mem::take(&mut self.block_mut(b).result_pos);
        for (v, p) in results.into_iter().zip(pos) {
            self.remove_use(v, p);
        }
    }

    /// Adds a use of `v`; returns its position in `v`'s use list.
    pub fn add_use(&mut self, v: ValueId, u: Use) -> u32 {
        self.ensure_value(v);
        let slot = &mut self.values[v.0 as usize];
        slot.uses.push(u);
        slot.use_version = slot.use_version.wrapping_add(1);
        (slot.uses.len() - 1) as u32
    }

    /// Removes the use at position `pos` of `v`'s use list (swap-remove, fixing the
    /// back-pointer of the use that moves).
    pub fn remove_use(&mut self, v: ValueId, pos: u32) {
        let slot = &mut self.values[v.0 as usize];
        slot.uses.swap_remove(pos as usize);
        slot.use_version = slot.use_version.wrapping_add(1);
        let Some(&moved) = slot.uses.get(pos as usize) else {
            return;
        };
        let k = (moved.slot & !RESULT_FLAG) as usize;
        if moved.is_result() {
            self.blocks[moved.owner as usize].result_pos[k] = pos;
        } else if let Some(s) = self.insts[moved.owner as usize].as_mut() {
            s.use_pos[k] = pos;
        }
    }

    /// Makes operand `k` of `id` be `v`.
    pub fn set_operand(&mut self, id: InstId, k: usize, v: ValueId) {
        let Some(s) = self.slot(id) else { return };
        let (old, pos) = (s.inst.operands[k], s.use_pos[k]);
        self.remove_use(old, pos);
        let p = self.add_use(
            v,
            Use {
                owner: id.0,
                slot: k as u32,
            },
        );
        if let Some(s) = self.slot_mut(id) {
            s.inst.operands[k] = v;
            s.use_pos[k] = p;
        }
        self.bump_def(id.value());
        self.edits += 1;
    }

    /// Makes result `k` of block `b` be `v`.
    pub fn set_result(&mut self, b: BlockId, k: usize, v: ValueId) {
        let (old, pos) = {
            let block = self.block(b);
            (block.results[k], block.result_pos[k])
        };
        self.remove_use(old, pos);
        let p = self.add_use(
            v,
            Use {
                owner: b.0,
                slot: k as u32 | RESULT_FLAG,
            },
        );
        let block = self.block_mut(b);
        block.results[k] = v;
        block.result_pos[k] = p;
        self.edits += 1;
    }

    pub fn bump_def(&mut self, v: ValueId) {
        if let Some(s) = self.values.get_mut(v.0 as usize) {
            s.def_version = s.def_version.wrapping_add(1);
        }
    }

    /// Links `id` into block `b` before `before` (`NONE`: at the end).
    fn link(&mut self, id: InstId, b: BlockId, before: u32) {
        let prev = if before == NONE {
            self.block(b).last
        } else {
            self.insts[before as usize]
                .as_ref()
                .map_or(NONE, |s| s.prev)
        };
        let order = self.order_between(b, prev, before);
        if let Some(s) = self.slot_mut(id) {
            s.block = b;
            s.prev = prev;
            s.next = before;
            s.order.set(order);
        }
        match prev {
            NONE => self.block_mut(b).first = id.0,
            p => self.insts[p as usize]
                .as_mut()
                .map_or((), |s| s.next = id.0),
        }
        match before {
            NONE => self.block_mut(b).last = id.0,
            n => self.insts[n as usize]
                .as_mut()
                .map_or((), |s| s.prev = id.0),
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
        let key = |i: u32| self.insts[i as usize].as_ref().map_or(0, |s| s.order.get());
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

    /// Unlinks `id` from its block (the slot stays).
    pub fn unlink(&mut self, id: InstId) {
        let Some(s) = self.slot(id) else { return };
        let (b, prev, next) = (s.block, s.prev, s.next);
        match prev {
            NONE => self.block_mut(b).first = next,
            p => self.insts[p as usize]
                .as_mut()
                .map_or((), |s| s.next = next),
        }
        match next {
            NONE => self.block_mut(b).last = prev,
            n => self.insts[n as usize]
                .as_mut()
                .map_or((), |s| s.prev = prev),
        }
        let block = self.block_mut(b);
        block.len -= 1;
        block.index.get_mut().take();
    }

    /// Moves `id` to block `b`, before `before` (`NONE`: at the end).
    pub fn relink(&mut self, id: InstId, b: BlockId, before: u32) {
        self.unlink(id);
        self.link(id, b, before);
        self.edits += 1;
    }

    /// Removes instruction `id` (which has no regions left): unregisters its operand uses,
    /// unlinks it and frees its slot. Its value becomes undefined.
    pub fn remove(&mut self, id: InstId) -> Option<InstSlot> {
        self.unlink(id);
        let slot = self.insts.get_mut(id.0 as usize)?.take()?;
        for (&v, &p) in slot.inst.operands.iter().zip(&slot.use_pos) {
            self.remove_use(v, p);
        }
        let value = &mut self.values[id.0 as usize];
        value.def = Def::Undefined;
        value.def_version = value.def_version.wrapping_add(1);
        self.edits += 1;
        Some(slot)
    }

    /// Marks a block (already emptied) as gone, dropping its parameters' definitions.
    pub fn free_block(&mut self, b: BlockId) {
        let params = std::mem::take(&mut self.block_mut(b).params);
        for p in params {
            if let Some(v) = self.values.get_mut(p.id.0 as usize) {
                v.def = Def::Undefined;
                v.def_version = v.def_version.wrapping_add(1);
            }
        }
        self.block_mut(b).alive = false;
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
        let (Some(sa), Some(sb)) = (self.slot(a), self.slot(b)) else {
            return false;
        };
        let block = self.block(sa.block);
        if !block.order_valid.get() {
            let mut key = 0u32;
            for id in self.block_insts(sa.block) {
                key = key.saturating_add(ORDER_STRIDE);
                if let Some(s) = self.slot(id) {
                    s.order.set(key);
                }
            }
            block.order_valid.set(true);
        }
        sa.order.get() < sb.order.get()
    }

    /// Moves block `b` (and everything below it) out of the arena as a `Region`.
    pub fn take_region(&mut self, b: BlockId) -> Region {
        let mut insts = Vec::with_capacity(self.block(b).len as usize);
        let mut next = self.block(b).first;
        while next != NONE {
            let Some(slot) = self.insts[next as usize].take() else {
                break;
            };
            next = slot.next;
            insts.push(self.take_inst(slot));
        }
        let block = self.block_mut(b);
        Region {
            params: std::mem::take(&mut block.params),
            insts,
            results: std::mem::take(&mut block.results),
        }
    }

    fn take_inst(&mut self, slot: InstSlot) -> Instruction {
        let mut inst = slot.inst;
        if !slot.regions.is_empty() {
            let regions = slot.regions.iter().map(|&r| self.take_region(r)).collect();
            put_regions(&mut inst.op, regions);
        }
        inst
    }

    /// A copy of block `b` (and everything below it) as a `Region`.
    pub fn clone_region(&self, b: BlockId) -> Region {
        let block = self.block(b);
        Region {
            params: block.params.clone(),
            insts: self
                .block_insts(b)
                .filter_map(|id| self.clone_inst(id))
                .collect(),
            results: block.results.clone(),
        }
    }

    /// A copy of instruction `id` with its regions put back.
    pub fn clone_inst(&self, id: InstId) -> Option<Instruction> {
        let slot = self.slot(id)?;
        let mut inst = slot.inst.clone();
        if !slot.regions.is_empty() {
            let regions = slot.regions.iter().map(|&r| self.clone_region(r)).collect();
            put_regions(&mut inst.op, regions);
        }
        Some(inst)
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
        self.next = self.arena.slot(id).map_or(NONE, |s| s.next);
        Some(id)
    }
}
