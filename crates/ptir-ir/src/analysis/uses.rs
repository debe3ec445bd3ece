//! Uses and dead code: how often each value is used, and which instructions may be deleted.
//!
//! A use is an operand slot of an instruction (nested ones included) or a slot of a block's
//! results (`return` / `yield`); `add %1, %1` uses `%1` twice. An instruction is **dead** when
//! deleting it changes nothing: it is pure and its result is not live. [`UsesProgram`]
//! computes liveness as a least fixpoint:
//!
//! - an impure instruction is live (it may never be deleted);
//! - a value returned by the function is live;
//! - a value yielded by a region of a live region op is live;
//! - an operand of a live instruction is live (captured values used inside regions included,
//!   since those uses are operands of nested instructions).
//!
//! Everything else is dead, so an instruction used only by dead instructions is dead too
//! (transitively), and so is everything inside a dead region op. A pure instruction nested
//! in a live loop whose result feeds nothing is dead as well.

use super::facts::{BlockId, FunctionFacts};
use crate::program::{InstId, ValueId};
use rustc_hash::{FxHashMap, FxHashSet};

#[allow(missing_docs)]
mod program {
    use super::super::facts::BlockId;
    use crate::program::{InstId, ValueId};

    ascent::ascent! {
        /// Use counts and dead instructions of one function (see the module docs).
        pub struct UsesProgram;

        // Facts:

        /// Every defined value (parameters and instruction results).
        relation value(ValueId);
        /// Every instruction, nested ones included.
        relation inst(InstId);
        /// Pure instructions (from [`super::super::purity::PurityProgram`]).
        relation pure(InstId);
        /// `operand(i, k, v)`: operand number `k` of `i` is `v`.
        relation operand(InstId, u32, ValueId);
        /// `block_result(b, k, v)`: result number `k` of block `b` is `v`.
        relation block_result(BlockId, u32, ValueId);
        /// `block_owner(b, op)`: block `b` is a region of the region op `op`.
        relation block_owner(BlockId, InstId);

        // Rules:

        /// `use_count(v, n)`: `v` fills `n` operand and result slots.
        relation use_count(ValueId, usize);

        use_count(v, ops + results) <--
            value(v),
            agg ops = ascent::aggregators::count() in operand(_, _, v),
            agg results = ascent::aggregators::count() in block_result(_, _, v);

        /// `feeds(u, v)`: computing `u` needs `v`, an operand of `u`'s instruction or a
        /// result of one of its regions.
        relation feeds(ValueId, ValueId);

        feeds(i.value(), v) <-- operand(i, _, v);
        feeds(op.value(), v) <-- block_owner(b, op), block_result(b, _, v);

        /// Values whose computation matters: see the module docs.
        relation live(ValueId);

        live(i.value()) <-- inst(i), !pure(i);
        live(v) <-- block_result(b, _, v), if *b == BlockId::BODY;
        live(v) <-- live(u), feeds(u, v);

        /// Instructions that may be deleted.
        relation dead(InstId);

        dead(i) <-- inst(i), !live(i.value());
    }
}

pub use program::UsesProgram;

impl UsesProgram {
    /// A program loaded with the facts of one function and its pure instructions.
    pub fn from_facts(facts: &FunctionFacts, pure: &FxHashSet<InstId>) -> UsesProgram {
        let mut dl = UsesProgram::default();
        dl.value = facts.values().map(|(v, _)| (v,)).collect();
        dl.pure = pure.iter().map(|&i| (i,)).collect();
        for i in facts.insts() {
            dl.inst.push((i.id,));
            for (k, &v) in i.operands.iter().enumerate() {
                dl.operand.push((i.id, k as u32, v));
            }
        }
        for (b, block) in facts.blocks().iter().enumerate() {
            let b = BlockId(b as u32);
            for (k, &v) in block.results.iter().enumerate() {
                dl.block_result.push((b, k as u32, v));
            }
            if let Some(op) = block.owner {
                dl.block_owner.push((b, op));
            }
        }
        dl
    }
}

/// Use counts and dead instructions of one function, as maps.
///
/// ```
/// use ptir_ir::analysis::{FunctionFacts, Uses};
/// use ptir_ir::{InstId, ValueId};
/// let p = ptir_ir::parse(
///     "func @f(%0: f32[]) -> (f32[]) {\n  %1 = exp %0 : f32[]\n  %2 = neg %1 : f32[]\n  \
///      return %0\n}",
/// ).unwrap();
/// let facts = FunctionFacts::of(&p.functions[0]);
/// let pure = [InstId(1), InstId(2)].into_iter().collect();
/// let uses = Uses::of(&facts, &pure);
/// assert_eq!(uses.use_count(ValueId(0)), 2);
/// assert_eq!(uses.dead(), vec![InstId(1), InstId(2)]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Uses {
    counts: FxHashMap<ValueId, usize>,
    dead: FxHashSet<InstId>,
}

impl Uses {
    /// Runs [`UsesProgram`] on one function's facts, given its pure instructions.
    pub fn of(facts: &FunctionFacts, pure: &FxHashSet<InstId>) -> Uses {
        let mut dl = UsesProgram::from_facts(facts, pure);
        dl.run();
        Uses {
            counts: dl.use_count.into_iter().collect(),
            dead: dl.dead.into_iter().map(|(i,)| i).collect(),
        }
    }

    /// How many operand and result slots name `v` (0 for an unknown value).
    pub fn use_count(&self, v: ValueId) -> usize {
        self.counts.get(&v).copied().unwrap_or(0)
    }

    /// Is `i` dead (pure, and its result not live)?
    pub fn is_dead(&self, i: InstId) -> bool {
        self.dead.contains(&i)
    }

    /// The dead instructions, sorted.
    pub fn dead(&self) -> Vec<InstId> {
        let mut dead: Vec<InstId> = self.dead.iter().copied().collect();
        dead.sort();
        dead
    }
}
