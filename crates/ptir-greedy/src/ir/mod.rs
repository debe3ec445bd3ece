//! [`Ir`]: the read-only half of the rewriter — everything a pattern may inspect.
//!
//! A [`ProgramRewriter`](crate::ProgramRewriter) dereferences to an `Ir`, so patterns call
//! `rw.op(i)`, `rw.operands(i)`, `rw.users(v)` directly. Every instruction of the function, in
//! the body or in any nested region, is addressed by its [`InstId`] in O(1) (the storage is
//! an arena, see `arena.rs`); blocks are addressed by [`BlockId`].
//!
//! **Region bodies.** A region op's `Op` is stored with its regions moved out (empty
//! `Region`s): its bodies are blocks of the arena, listed by [`Ir::regions`]. [`Ir::to_function`]
//! and [`Ir::clone_inst`] put them back.
//!
//! **Read tracking.** While the driver runs a pattern, the inspection methods record what was
//! read (a definition or a use list), so that a failure can be cached until one of those
//! changes (see the driver's failure cache). Reads cost a branch when nobody records.

mod arena;
mod reads;

pub use arena::BlockId;
pub(crate) use arena::{Arena, Def, Use, NONE};
pub(crate) use reads::{stamp_holds, ReadLog, StampEntry};

use crate::facts::{op_is_pure, ProgramContext};
use ptir_ir::{
    Function, InstId, Instruction, Literal, Op, OpKey, Param, Type, ValueId, VerifyError,
};
use std::hash::{Hash, Hasher};

/// A user of a value: an instruction operand, or a block result (`return` / `yield`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum User {
    /// An operand of this instruction.
    Inst(InstId),
    /// A result of this block.
    BlockResult(BlockId),
}

/// Which instructions a walk visits first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WalkOrder {
    /// An op before the ops of its regions.
    PreOrder,
    /// The ops of an op's regions before the op (MLIR's default walk).
    PostOrder,
}

/// The function being rewritten, read-only. See the module docs.
#[derive(Debug)]
pub struct Ir<'c> {
    pub(crate) arena: Arena,
    name: String,
    result_types: Vec<Type>,
    cx: &'c ProgramContext,
    pub(crate) reads: ReadLog,
}

/// The function given to a rewriter defines some value twice (it does not verify).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("@{function}: value {value} is defined twice; verify the program first")]
pub struct InvalidFunction {
    /// The function.
    pub function: String,
    /// The value defined twice.
    pub value: ValueId,
}

impl<'c> Ir<'c> {
    pub(crate) fn new(f: Function, cx: &'c ProgramContext) -> Result<Self, InvalidFunction> {
        let arena = Arena::build(f.body).map_err(|value| InvalidFunction {
            function: f.name.clone(),
            value,
        })?;
        Ok(Ir {
            arena,
            name: f.name,
            result_types: f.result_types,
            cx,
            reads: ReadLog::default(),
        })
    }

    pub(crate) fn into_function(mut self) -> Function {
        let body = self.arena.take_region(self.arena.body);
        Function {
            name: self.name,
            result_types: self.result_types,
            body,
        }
    }

    /// The function's name.
    pub fn function_name(&self) -> &str {
        &self.name
    }

    /// The program facts the rewrite runs with.
    pub fn context(&self) -> &'c ProgramContext {
        self.cx
    }

    /// The function body.
    pub fn body(&self) -> BlockId {
        self.arena.body
    }

    /// Does instruction `i` exist (not erased)?
    pub fn contains(&self, i: InstId) -> bool {
        self.arena.is_alive(i)
    }

    /// The instruction `i` (a region op without its region bodies), if it exists.
    pub fn inst(&self, i: InstId) -> Option<&Instruction> {
        self.reads.def(i.value());
        self.arena.inst(i)
    }

    fn expect(&self, i: InstId) -> &Instruction {
        match self.inst(i) {
            Some(inst) => inst,
            None => panic!(
                "instruction {i} does not exist in @{} (erased?): check `contains` first",
                self.name
            ),
        }
    }

    /// The op kind of instruction `i`, if it exists (cheaper than `op(i).key()`: it does not
    /// touch the instruction).
    pub fn op_key(&self, i: InstId) -> Option<OpKey> {
        self.reads.def(i.value());
        self.arena.key(i)
    }

    /// The op of instruction `i`. Panics if `i` does not exist.
    pub fn op(&self, i: InstId) -> &Op {
        &self.expect(i).op
    }

    /// The operands of instruction `i`. Panics if `i` does not exist.
    pub fn operands(&self, i: InstId) -> &[ValueId] {
        &self.expect(i).operands
    }

    /// The result type of instruction `i`. Panics if `i` does not exist.
    pub fn ty(&self, i: InstId) -> &Type {
        &self.expect(i).ty
    }

    /// The value instruction `i` defines (the same number).
    pub fn value_of(&self, i: InstId) -> ValueId {
        i.value()
    }

    /// The instruction defining `v`; `None` for block parameters and undefined values.
    pub fn inst_of(&self, v: ValueId) -> Option<InstId> {
        match self.arena.def(v) {
            Def::Inst => Some(v.inst()),
            _ => None,
        }
    }

    /// The type of `v`, if it is defined.
    pub fn type_of(&self, v: ValueId) -> Option<&Type> {
        self.reads.def(v);
        match self.arena.def(v) {
            Def::Inst => self.arena.inst(v.inst()).map(|s| &s.ty),
            Def::Param => {
                let (block, index) = self.arena.param(v)?;
                self.arena.block(block).params.get(index).map(|p| &p.ty)
            }
            Def::Undefined => None,
        }
    }

    /// The literal of `v` if a `constant` defines it.
    pub fn constant(&self, v: ValueId) -> Option<&Literal> {
        let def = self.inst_of(v)?;
        self.reads.def(v);
        if self.arena.key(def)? != OpKey::Constant {
            return None;
        }
        match &self.inst(def)?.op {
            Op::Constant(lit) => Some(lit),
            _ => None,
        }
    }

    /// Every use of `v`, one per operand slot or block result (an instruction using `v` twice
    /// appears twice), in no particular order.
    pub fn users(&self, v: ValueId) -> impl Iterator<Item = User> + '_ {
        self.reads.uses(v);
        self.arena.uses(v).map(|u| {
            if u.is_result() {
                User::BlockResult(BlockId(u.owner))
            } else {
                User::Inst(InstId(u.owner))
            }
        })
    }

    /// The distinct instructions using `v`, in first-use order of the use list.
    pub fn users_of(&self, v: ValueId) -> Vec<InstId> {
        let mut out: Vec<InstId> = Vec::new();
        for u in self.users(v) {
            if let User::Inst(i) = u {
                if !out.contains(&i) {
                    out.push(i);
                }
            }
        }
        out
    }

    /// Number of uses of `v` (operand slots and block results).
    pub fn num_uses(&self, v: ValueId) -> usize {
        self.reads.uses(v);
        self.arena.num_uses(v)
    }

    /// Number of distinct users of `v` (instructions and blocks returning it).
    pub fn num_users(&self, v: ValueId) -> usize {
        let mut seen: smallvec::SmallVec<[User; 4]> = smallvec::SmallVec::new();
        for u in self.users(v) {
            if !seen.contains(&u) {
                seen.push(u);
            }
        }
        seen.len()
    }

    /// The block instruction `i` is in. Panics if `i` does not exist.
    pub fn block_of(&self, i: InstId) -> BlockId {
        match self.arena.block_of(i) {
            Some(b) => b,
            None => panic!("instruction {i} does not exist in @{}", self.name),
        }
    }

    /// The region op owning block `b` (`None` for the function body).
    pub fn parent_op(&self, b: BlockId) -> Option<InstId> {
        self.arena.block(b).parent.map(|(i, _)| i)
    }

    /// The region bodies of instruction `i` (empty for ops without regions).
    pub fn regions(&self, i: InstId) -> &[BlockId] {
        self.reads.def(i.value());
        self.arena.regions(i)
    }

    /// The instructions of block `b`, in order. (A pattern that lists a block cannot have its
    /// failures cached: the driver retries it every time.)
    pub fn block_insts(&self, b: BlockId) -> Vec<InstId> {
        self.reads.uncacheable();
        self.arena.block_insts(b).collect()
    }

    /// The parameters of block `b`.
    pub fn block_params(&self, b: BlockId) -> &[Param] {
        &self.arena.block(b).params
    }

    /// The results of block `b` (`return` / `yield`).
    pub fn block_results(&self, b: BlockId) -> &[ValueId] {
        self.reads.uncacheable();
        &self.arena.block(b).results
    }

    /// The instructions of kind `key` in block `b`, from an index built once per block and
    /// dropped when the block changes.
    pub(crate) fn insts_of_kind(&self, b: BlockId, key: ptir_ir::OpKey) -> Vec<InstId> {
        let block = self.arena.block(b);
        let mut index = block.index.borrow_mut();
        let index = index.get_or_insert_with(|| {
            let mut m: rustc_hash::FxHashMap<ptir_ir::OpKey, Vec<InstId>> = Default::default();
            for i in self.arena.block_insts(b) {
                if let Some(s) = self.arena.inst(i) {
                    m.entry(s.op.key()).or_default().push(i);
                }
            }
            m
        });
        index.get(&key).cloned().unwrap_or_default()
    }

    /// Is `a` before `b` in their common block? `false` if they are in different blocks.
    pub fn is_before_in_block(&self, a: InstId, b: InstId) -> bool {
        self.reads.uncacheable();
        match (self.arena.block_of(a), self.arena.block_of(b)) {
            (Some(x), Some(y)) if x == y => self.arena.is_before(a, b),
            _ => false,
        }
    }

    /// The instruction of block `b` that is `i` or encloses `i` (through region ops), if any.
    pub fn ancestor_in(&self, b: BlockId, mut i: InstId) -> Option<InstId> {
        loop {
            let block = self.arena.block_of(i)?;
            if block == b {
                return Some(i);
            }
            i = self.arena.block(block).parent?.0;
        }
    }

    /// Is `v` available at instruction `at` (defined before it in its block or in an enclosing
    /// block, or a parameter of such a block)? A region op does not dominate its own regions.
    pub fn dominates(&self, v: ValueId, at: InstId) -> bool {
        self.reads.uncacheable();
        let def_block = match self.arena.def(v) {
            Def::Param => match self.arena.param(v) {
                Some((b, _)) => b,
                None => return false,
            },
            Def::Inst => match self.arena.block_of(v.inst()) {
                Some(b) => b,
                None => return false,
            },
            Def::Undefined => return false,
        };
        match self.ancestor_in(def_block, at) {
            Some(a) if self.inst_of(v).is_some() => self.arena.is_before(v.inst(), a),
            Some(_) => true,
            None => false,
        }
    }

    /// Every instruction, nested ones included, in the given order.
    pub fn walk(&self, order: WalkOrder) -> Vec<InstId> {
        let mut out = Vec::with_capacity(self.arena.id_bound());
        self.walk_block(self.arena.body, order, &mut out);
        out
    }

    fn walk_block(&self, b: BlockId, order: WalkOrder, out: &mut Vec<InstId>) {
        for i in self.arena.block_insts(b) {
            if order == WalkOrder::PreOrder {
                out.push(i);
            }
            for &r in self.arena.regions(i) {
                self.walk_block(r, order, out);
            }
            if order == WalkOrder::PostOrder {
                out.push(i);
            }
        }
    }

    /// Number of instructions, nested ones included.
    pub fn num_insts(&self) -> usize {
        self.arena.count()
    }

    /// Is instruction `i` free of side effects: a pure op kind, a call of a pure callee, and
    /// (for region ops) every op of its regions pure?
    pub fn is_pure(&self, i: InstId) -> bool {
        match self.arena.key(i) {
            None => return false,
            Some(OpKey::Call | OpKey::Cond | OpKey::While | OpKey::Scan) => {}
            Some(k) => return k.is_pure_kind(),
        }
        let Some(s) = self.arena.inst(i) else {
            return false;
        };
        op_is_pure(&s.op, self.cx)
            && self.arena.regions(i).iter().all(|&r| {
                let mut insts = self.arena.block_insts(r);
                insts.all(|n| self.is_pure(n))
            })
    }

    /// Would erasing `i` change nothing: it has no uses and is pure (MLIR's
    /// `isOpTriviallyDead`)?
    pub fn is_trivially_dead(&self, i: InstId) -> bool {
        self.contains(i) && self.num_uses(i.value()) == 0 && self.is_pure(i)
    }

    /// A copy of instruction `i` with its regions put back.
    pub fn clone_inst(&self, i: InstId) -> Option<Instruction> {
        self.arena.clone_inst(i)
    }

    /// The instruction as text (regions included), for logs and messages.
    pub fn print_inst(&self, i: InstId) -> String {
        self.clone_inst(i)
            .map_or_else(|| format!("<erased {i}>"), |x| ptir_ir::print_inst(&x))
    }

    /// A copy of the function as it is now.
    pub fn to_function(&self) -> Function {
        Function {
            name: self.name.clone(),
            result_types: self.result_types.clone(),
            body: self.arena.clone_region(self.arena.body),
        }
    }

    /// Runs the verifier on the function as it is now (the other functions of the program
    /// stand in as declarations).
    pub fn verify(&self) -> Result<(), VerifyError> {
        ptir_ir::verify(&self.cx.program_with(self.to_function()))
    }

    /// A hash of the whole function (ops, operands, types, block structure): equal before and
    /// after an edit iff (up to collisions) the edit changed nothing. The expensive checks
    /// compare it around pattern applications.
    pub fn fingerprint(&self) -> u64 {
        let mut h = rustc_hash::FxHasher::default();
        self.hash_block(self.arena.body, &mut h);
        h.finish()
    }

    fn hash_block(&self, b: BlockId, h: &mut impl Hasher) {
        let block = self.arena.block(b);
        block.params.hash(h);
        for i in self.arena.block_insts(b) {
            if let Some(s) = self.arena.inst(i) {
                s.hash(h);
                let regions = self.arena.regions(i);
                regions.len().hash(h);
                for &r in regions {
                    self.hash_block(r, h);
                }
            }
        }
        block.results.hash(h);
    }

    /// How many edits the IR has had (any change bumps it).
    pub fn edit_count(&self) -> u64 {
        self.arena.edits
    }
}
