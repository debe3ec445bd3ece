//! Back from the arena to `Region`s: moving a block out (at the end of a rewrite) and copying
//! it (for the verifier and for printing).

use super::{placeholder, Arena, BlockId, NONE};
use ptir_ir::{InstId, Instruction, Op, Region};

fn put_regions(op: &mut Op, regions: Vec<Region>) {
    for (slot, r) in op.regions_mut().into_iter().zip(regions) {
        *slot = r;
    }
}

impl Arena {
    /// Moves block `b` (and everything below it) out of the arena as a `Region`: a block that
    /// only lost instructions is compacted in its own store (no new allocation); others are
    /// gathered into a new vector.
    pub fn take_region(&mut self, b: BlockId) -> Region {
        let (first, len, store, in_order) = {
            let block = self.block(b);
            (
                block.first,
                block.len as usize,
                block.store as usize,
                block.in_order,
            )
        };
        let mut insts = if in_order {
            std::mem::take(&mut self.stores[store])
        } else {
            Vec::with_capacity(len)
        };
        let mut written = 0;
        let mut next = first;
        while next != NONE {
            let m = &self.nodes[next as usize];
            let (s, idx, regions) = (m.store as usize, m.idx as usize, m.regions);
            let id = next;
            next = m.next;
            let mut inst = if in_order {
                std::mem::replace(&mut insts[idx], placeholder())
            } else {
                std::mem::replace(&mut self.stores[s][idx], placeholder())
            };
            if regions != NONE {
                let blocks = self.region_lists[regions as usize].clone();
                let rs = blocks.iter().map(|&r| self.take_region(r)).collect();
                put_regions(&mut inst.op, rs);
            }
            self.nodes[id as usize].store = NONE;
            if in_order {
                // Every slot before `idx` was moved out or erased: overwriting drops a
                // placeholder.
                insts[written] = inst;
            } else {
                insts.push(inst);
            }
            written += 1;
        }
        insts.truncate(written);
        let block = self.block_mut(b);
        Region {
            params: std::mem::take(&mut block.params),
            insts,
            results: std::mem::take(&mut block.results),
        }
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
        let mut inst = self.inst(id)?.clone();
        let regions = self.regions(id);
        if !regions.is_empty() {
            let rs = regions.iter().map(|&r| self.clone_region(r)).collect();
            put_regions(&mut inst.op, rs);
        }
        Some(inst)
    }
}
