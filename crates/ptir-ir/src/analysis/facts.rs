//! Facts of one function: its block tree, a pre-order numbering, and per-instruction data.
//!
//! Every analysis starts here. [`FunctionFacts::of`] walks a function once and records:
//!
//! - the **block tree**: block 0 is the function body; every region of a region op is a block
//!   whose [`BlockFacts::owner`] is that op, numbered in pre-order ([`BlockId`]);
//! - for every instruction its block, [`OpKey`], callee name, operands and regions
//!   ([`InstFacts`]);
//! - a **pre-order numbering** of program points ([`Pos`]). Walking a block allots a position to
//!   each parameter, then to the block's entry, then to each instruction (followed by everything
//!   nested in its regions), and last to the block's results (its terminator). So every value
//!   has a span `(pre, end, block_end)`: its own position, the last position nested below it
//!   (`end == pre` unless it is a region op), and the last position of the block it is defined
//!   in.
//!
//! The numbering turns SSA visibility into interval tests: a value `a` is visible at a point
//! `p` iff `end(a) < p <= block_end(a)`, that is, `p` comes after `a` and everything nested in
//! `a`, and is still inside `a`'s block or a region nested in it. This is what makes
//! [`crate::analysis::dominance`] O(1) per query instead of O(n²) materialized pairs.
//!
//! Example (positions on the right):
//!
//! ```text
//! func @f(%0: bool[], %1: f32[]) -> (f32[]) {   %0 @0, %1 @1, body entry @2
//!   %2 = exp %1 : f32[]                         @3
//!   %3 = cond %0 : f32[] {                      @4 (end @9)
//!     %4 = neg %2 : f32[]                       then entry @5, %4 @6
//!     yield %4                                  then results @7
//!   } {
//!     yield %2                                  else entry @8, results @9
//!   }
//!   return %3                                   body results @10
//! }
//! ```
//!
//! `%2` has span `(3, 3, 10)`: it is visible at `%4` (6), in the else branch (8, 9) and at the
//! return (10). `%4` has span `(6, 6, 7)`: it is not visible in the else branch. `%3` has span
//! `(4, 9, 10)`: visible at the return only, not inside its own regions.

use crate::ops::{Op, OpKey};
use crate::program::{Function, InstId, Instruction, Region, ValueId};
use rustc_hash::FxHashMap;
use std::fmt;

/// A block of a function: 0 is the body, region blocks follow in pre-order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

impl BlockId {
    /// The function body.
    pub const BODY: BlockId = BlockId(0);
}

impl fmt::Display for BlockId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "^{}", self.0)
    }
}

/// A program point in the pre-order numbering of a function (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos(pub u32);

/// One block: where it sits in the tree and in the numbering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockFacts {
    /// The region op owning this block (`None` for the function body).
    pub owner: Option<InstId>,
    /// The block enclosing the owner (`None` for the function body).
    pub parent: Option<BlockId>,
    /// Which region of the owner this is (0 for the body).
    pub region_index: usize,
    /// Nesting depth (0 for the body).
    pub depth: usize,
    /// The block's entry point: after its parameters, before its instructions.
    pub entry: Pos,
    /// The block's results (terminator): its last position, regions included.
    pub end: Pos,
    /// Its parameters.
    pub params: Vec<ValueId>,
    /// Its results (`return` / `yield` operands).
    pub results: Vec<ValueId>,
}

/// One instruction, without attributes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstFacts {
    /// Its identity.
    pub id: InstId,
    /// The block it is in.
    pub block: BlockId,
    /// Its op kind.
    pub key: OpKey,
    /// The callee of a `call`.
    pub callee: Option<String>,
    /// Its operands, in order.
    pub operands: Vec<ValueId>,
    /// Its regions, in order (empty unless a region op).
    pub regions: Vec<BlockId>,
}

/// Where a value is defined: its block and its span in the numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueFacts {
    /// The defining block.
    pub block: BlockId,
    /// The definition's position.
    pub pre: Pos,
    /// The last position nested below the definition (`pre` unless a region op).
    pub end: Pos,
    /// Is it a block parameter (rather than an instruction result)?
    pub is_param: bool,
}

/// The facts of one function (see the module docs).
///
/// ```
/// use ptir_ir::analysis::{BlockId, FunctionFacts};
/// use ptir_ir::{InstId, ValueId};
/// let p = ptir_ir::parse(
///     "func @f(%0: f32[]) -> (f32[]) {\n  %1 = exp %0 : f32[]\n  return %1\n}",
/// ).unwrap();
/// let facts = FunctionFacts::of(&p.functions[0]);
/// assert_eq!(facts.blocks().len(), 1);
/// assert_eq!(facts.inst(InstId(1)).unwrap().operands, vec![ValueId(0)]);
/// assert_eq!(facts.value(ValueId(1)).unwrap().block, BlockId::BODY);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FunctionFacts {
    blocks: Vec<BlockFacts>,
    insts: Vec<InstFacts>,
    /// Instruction id -> index in `insts`.
    inst_index: FxHashMap<InstId, usize>,
    /// Value id -> its definition (parameters and instruction results).
    values: FxHashMap<ValueId, ValueFacts>,
}

impl FunctionFacts {
    /// Walks `function` and records its facts.
    pub fn of(function: &Function) -> FunctionFacts {
        let mut walker = Walker::default();
        walker.block(&function.body, None, None, 0);
        walker.facts
    }

    /// All blocks, indexed by [`BlockId`]: the body first, then regions in pre-order.
    pub fn blocks(&self) -> &[BlockFacts] {
        &self.blocks
    }

    /// One block.
    pub fn block(&self, b: BlockId) -> Option<&BlockFacts> {
        self.blocks.get(b.0 as usize)
    }

    /// All instructions, in pre-order (an op before the instructions of its regions).
    pub fn insts(&self) -> &[InstFacts] {
        &self.insts
    }

    /// One instruction.
    pub fn inst(&self, i: InstId) -> Option<&InstFacts> {
        self.inst_index.get(&i).map(|&k| &self.insts[k])
    }

    /// The definition of a value (parameter or instruction result).
    pub fn value(&self, v: ValueId) -> Option<&ValueFacts> {
        self.values.get(&v)
    }

    /// Every defined value with its definition, in no particular order.
    pub fn values(&self) -> impl Iterator<Item = (ValueId, &ValueFacts)> {
        self.values.iter().map(|(v, f)| (*v, f))
    }

    /// The span `(pre, end, block_end)` of a value: `v` is visible at exactly the points `p`
    /// with `end < p <= block_end`.
    pub fn span(&self, v: ValueId) -> Option<(Pos, Pos, Pos)> {
        let d = self.values.get(&v)?;
        let block_end = self.block(d.block)?.end;
        Some((d.pre, d.end, block_end))
    }

    /// The position of an instruction.
    pub fn inst_pos(&self, i: InstId) -> Option<Pos> {
        self.inst(i)?;
        self.values.get(&i.value()).map(|d| d.pre)
    }

    /// Is `inner` the block `outer` or nested (at any depth) in it?
    pub fn block_within(&self, inner: BlockId, outer: BlockId) -> bool {
        match (self.block(inner), self.block(outer)) {
            (Some(i), Some(o)) => o.entry <= i.entry && i.end <= o.end,
            _ => false,
        }
    }
}

/// Builds [`FunctionFacts`] in one pre-order walk, allotting positions as it goes.
#[derive(Default)]
struct Walker {
    facts: FunctionFacts,
    next: u32,
}

impl Walker {
    fn alloc(&mut self) -> Pos {
        let p = Pos(self.next);
        self.next = self.next.saturating_add(1);
        p
    }

    fn block(
        &mut self,
        region: &Region,
        owner: Option<(InstId, BlockId)>,
        region_index: Option<usize>,
        depth: usize,
    ) -> BlockId {
        let id = BlockId(self.facts.blocks.len() as u32);
        self.facts.blocks.push(BlockFacts {
            owner: owner.map(|o| o.0),
            parent: owner.map(|o| o.1),
            region_index: region_index.unwrap_or(0),
            depth,
            entry: Pos(0),
            end: Pos(0),
            params: region.params.iter().map(|p| p.id).collect(),
            results: region.results.clone(),
        });
        for p in &region.params {
            let pre = self.alloc();
            let def = ValueFacts {
                block: id,
                pre,
                end: pre,
                is_param: true,
            };
            self.facts.values.insert(p.id, def);
        }
        let entry = self.alloc();
        for inst in &region.insts {
            self.inst(inst, id, depth);
        }
        let end = self.alloc();
        let b = &mut self.facts.blocks[id.0 as usize];
        b.entry = entry;
        b.end = end;
        id
    }

    fn inst(&mut self, inst: &Instruction, block: BlockId, depth: usize) {
        let pre = self.alloc();
        let index = self.facts.insts.len();
        self.facts.insts.push(InstFacts {
            id: inst.id(),
            block,
            key: inst.op.key(),
            callee: match &inst.op {
                Op::Call { callee } => Some(callee.clone()),
                _ => None,
            },
            operands: inst.operands.clone(),
            regions: Vec::new(),
        });
        self.facts.inst_index.insert(inst.id(), index);
        let mut regions = Vec::new();
        for (k, r) in inst.op.regions().into_iter().enumerate() {
            regions.push(self.block(r, Some((inst.id(), block)), Some(k), depth + 1));
        }
        let end = Pos(self.next.saturating_sub(1));
        self.facts.insts[index].regions = regions;
        let def = ValueFacts {
            block,
            pre,
            end,
            is_param: false,
        };
        self.facts.values.insert(inst.result, def);
    }
}
