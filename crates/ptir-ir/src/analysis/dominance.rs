//! Dominance and availability: where a value may be used.
//!
//! A value is usable in its own block after its definition, and in every region nested below
//! that point; a function's parameters are usable everywhere in it and a region's parameters
//! everywhere in that region. A region op does not dominate the ops nested in its own regions
//! (as in MLIR). With the pre-order numbering of [`FunctionFacts`], "`a` dominates `b`" is the
//! O(1) test `end(a) < pre(b) <= block_end(a)`, so nothing quadratic is ever materialized: an
//! 8k-op block would already give 32M dominance pairs.
//!
//! Two interfaces compute the same thing:
//!
//! - plain-Rust queries on [`FunctionFacts`]: [`FunctionFacts::dominates`],
//!   [`FunctionFacts::available_at`], [`FunctionFacts::available_at_results`];
//! - [`DominanceProgram`], a Datalog program that answers only the pairs put into its
//!   `dominance_query` and `availability_query` relations, for callers that join dominance
//!   with their own rules.

use super::facts::{BlockId, FunctionFacts, Pos};
use crate::program::{InstId, ValueId};

/// Is the point `p` inside the visibility interval `(end, block_end]` of a value?
fn visible((_, end, block_end): (Pos, Pos, Pos), p: Pos) -> bool {
    end < p && p <= block_end
}

impl FunctionFacts {
    /// Does `def` dominate the instruction `user`, that is, may `user` (or anything in its
    /// regions) use `def`? False if either is unknown, and for `def == user.value()`.
    ///
    /// ```
    /// use ptir_ir::analysis::FunctionFacts;
    /// use ptir_ir::{InstId, ValueId};
    /// let p = ptir_ir::parse(
    ///     "func @f(%0: f32[]) -> (f32[]) {\n  %1 = exp %0 : f32[]\n  %2 = neg %1 : f32[]\n  return %2\n}",
    /// ).unwrap();
    /// let facts = FunctionFacts::of(&p.functions[0]);
    /// assert!(facts.dominates(ValueId(0), InstId(2)));
    /// assert!(facts.dominates(ValueId(1), InstId(2)));
    /// assert!(!facts.dominates(ValueId(2), InstId(1)));
    /// ```
    pub fn dominates(&self, def: ValueId, user: InstId) -> bool {
        match (self.span(def), self.inst_pos(user)) {
            (Some(span), Some(p)) => visible(span, p),
            _ => false,
        }
    }

    /// Is `v` usable everywhere in `block` (from its entry on, nested regions and results
    /// included)? True for the block's own parameters and for values of enclosing blocks
    /// defined before the region op that (transitively) owns `block`; false for values defined
    /// inside `block`, which are usable only after their definition.
    ///
    /// ```
    /// use ptir_ir::analysis::{BlockId, FunctionFacts};
    /// use ptir_ir::ValueId;
    /// let p = ptir_ir::parse(
    ///     "func @f(%0: bool[], %1: f32[]) -> (f32[]) {\n  %2 = exp %1 : f32[]\n  \
    ///      %3 = cond %0 : f32[] {\n    %4 = neg %2 : f32[]\n    yield %4\n  } {\n    yield %2\n  }\n  \
    ///      return %3\n}",
    /// ).unwrap();
    /// let facts = FunctionFacts::of(&p.functions[0]);
    /// let then_block = BlockId(1);
    /// assert!(facts.available_at(ValueId(2), then_block));
    /// assert!(!facts.available_at(ValueId(3), then_block));
    /// assert!(!facts.available_at(ValueId(2), BlockId::BODY));
    /// ```
    pub fn available_at(&self, v: ValueId, block: BlockId) -> bool {
        match (self.span(v), self.block(block)) {
            (Some(span), Some(b)) => visible(span, b.entry),
            _ => false,
        }
    }

    /// May `block`'s results (its `return` or `yield`) name `v`?
    pub fn available_at_results(&self, v: ValueId, block: BlockId) -> bool {
        match (self.span(v), self.block(block)) {
            (Some(span), Some(b)) => visible(span, b.end),
            _ => false,
        }
    }
}

#[allow(missing_docs)]
mod program {
    use super::super::facts::{BlockId, Pos};
    use crate::program::{InstId, ValueId};

    ascent::ascent! {
        /// Dominance in Datalog, evaluated on asked pairs only: load the spans with
        /// [`DominanceProgram::from_facts`], push pairs into `dominance_query` /
        /// `availability_query`, `run()`, read `dominates` / `available`.
        pub struct DominanceProgram;

        // Facts:

        /// `span(v, end, block_end)`: `v` is visible at the points `p` with
        /// `end < p <= block_end`.
        relation span(ValueId, Pos, Pos);
        /// `inst_pos(i, p)`: instruction `i` is at position `p`.
        relation inst_pos(InstId, Pos);
        /// `block_entry(b, p)`: block `b` starts at position `p`.
        relation block_entry(BlockId, Pos);
        /// Asked: does the value dominate the instruction?
        relation dominance_query(ValueId, InstId);
        /// Asked: is the value usable everywhere in the block?
        relation availability_query(ValueId, BlockId);

        // Rules:

        /// The asked pairs where the value dominates the instruction.
        relation dominates(ValueId, InstId);

        dominates(v, i) <--
            dominance_query(v, i),
            span(v, end, block_end),
            inst_pos(i, p),
            if end < p && p <= block_end;

        /// The asked pairs where the value is usable everywhere in the block.
        relation available(ValueId, BlockId);

        available(v, b) <--
            availability_query(v, b),
            span(v, end, block_end),
            block_entry(b, p),
            if end < p && p <= block_end;
    }
}

pub use program::DominanceProgram;

impl DominanceProgram {
    /// A program loaded with the spans and positions of `facts` and no queries yet.
    ///
    /// ```
    /// use ptir_ir::analysis::{DominanceProgram, FunctionFacts};
    /// use ptir_ir::{InstId, ValueId};
    /// let p = ptir_ir::parse(
    ///     "func @f(%0: f32[]) -> (f32[]) {\n  %1 = exp %0 : f32[]\n  %2 = neg %1 : f32[]\n  return %2\n}",
    /// ).unwrap();
    /// let mut dl = DominanceProgram::from_facts(&FunctionFacts::of(&p.functions[0]));
    /// dl.dominance_query = vec![(ValueId(1), InstId(2)), (ValueId(2), InstId(1))];
    /// dl.run();
    /// assert_eq!(dl.dominates, vec![(ValueId(1), InstId(2))]);
    /// ```
    pub fn from_facts(facts: &FunctionFacts) -> DominanceProgram {
        let mut dl = DominanceProgram::default();
        dl.span = facts
            .values()
            .filter_map(|(v, _)| facts.span(v).map(|(_, end, block_end)| (v, end, block_end)))
            .collect();
        dl.inst_pos = facts
            .insts()
            .iter()
            .filter_map(|i| facts.inst_pos(i.id).map(|p| (i.id, p)))
            .collect();
        dl.block_entry = (0..facts.blocks().len())
            .map(|b| (BlockId(b as u32), facts.blocks()[b].entry))
            .collect();
        dl
    }
}
