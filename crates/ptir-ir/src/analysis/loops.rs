//! Loop invariance: which instructions of a loop compute the same value on every iteration.
//!
//! The loops are `while` (both its `cond` and its `body` region run once per iteration) and
//! `scan` (its `body`). An instruction directly in a loop region is **loop invariant** when it
//! is pure and every value it reads is either available outside the loop op (it dominates the
//! loop op) or the result of a loop-invariant instruction of the same loop. So invariance
//! flows along chains: in `%a = exp %outer; %b = neg %a` inside a body, both are invariant.
//!
//! "Reads" includes the values that a region op's regions capture from outside it: a `cond`
//! in a loop body that uses a loop parameter only inside its branches is not invariant.
//!
//! Only instructions directly in a loop region are candidates: code inside a `cond` branch
//! of a loop body runs conditionally, and hoisting it would run it more often (an integer
//! division by zero that the branch guards must stay guarded). Nested loops are handled one
//! level at a time: an inner loop op can itself be invariant in its outer loop.
//!
//! Invariance is not yet permission to hoist: a `while` body may run zero times (and a
//! `scan` of length 0 never runs its body), so hoisting an op that can fail, such as an
//! integer `div` or `rem`, out of such a region would run it where the program did not. The
//! `while` test region always runs at least once.
//!
//! Ascent cannot negate inside a recursive stratum, so [`LoopProgram`] computes the least
//! fixpoint of `variant` and gets `loop_invariant` by negation afterwards.

use super::facts::FunctionFacts;
use crate::ops::OpKey;
use crate::program::InstId;
use rustc_hash::{FxHashMap, FxHashSet};

#[allow(missing_docs)]
mod program {
    use super::super::facts::Pos;
    use crate::program::{InstId, ValueId};

    ascent::ascent! {
        /// Loop invariance in one function (see the module docs).
        pub struct LoopProgram;

        // Facts:

        /// `in_loop(i, l)`: `i` is directly in a region of the loop op `l`.
        relation in_loop(InstId, InstId);
        /// Pure instructions (from [`super::super::purity::PurityProgram`]).
        relation pure(InstId);
        /// `operand(i, v)`: `i` has operand `v`.
        relation operand(InstId, ValueId);
        /// `nested(c, op)`: `c` is directly in a region of the region op `op`.
        relation nested(InstId, InstId);
        /// `region_result(op, v)`: a region of `op` yields `v`.
        relation region_result(InstId, ValueId);
        /// `span(v, pre, end, block_end)`: the definition of `v` in the pre-order numbering.
        relation span(ValueId, Pos, Pos, Pos);
        /// `inst_span(i, pre, end)`: `i` and everything in its regions are at `pre..=end`.
        relation inst_span(InstId, Pos, Pos);

        // Rules:

        /// `reads(i, v)`: `i` or something in its regions uses `v`, defined outside `i`.
        relation reads(InstId, ValueId);

        reads(i, v) <-- operand(i, v);
        reads(op, v) <--
            reads(c, v),
            nested(c, op),
            span(v, p, _, _),
            inst_span(op, op_pre, op_end),
            if !(op_pre < p && p <= op_end);
        reads(op, v) <--
            region_result(op, v),
            span(v, p, _, _),
            inst_span(op, op_pre, op_end),
            if !(op_pre < p && p <= op_end);

        /// `outside(v, l)`: `v`, read in loop `l`, dominates `l`.
        relation outside(ValueId, InstId);

        outside(v, l) <--
            in_loop(i, l),
            reads(i, v),
            span(v, _, end, block_end),
            inst_span(l, p, _),
            if end < p && p <= block_end;

        /// `reads_in_loop(j, i)`: `i` reads the result of `j`, both directly in one loop.
        relation reads_in_loop(InstId, InstId);

        reads_in_loop(v.inst(), i) <--
            in_loop(i, l),
            reads(i, v),
            in_loop(v.inst(), l);

        /// Loop instructions that may differ between iterations.
        relation variant(InstId);

        variant(i) <-- in_loop(i, _), !pure(i);
        variant(i) <--
            in_loop(i, l),
            reads(i, v),
            !outside(v, l),
            !in_loop(v.inst(), l);
        variant(i) <-- variant(j), reads_in_loop(j, i);

        /// Loop instructions that compute the same value on every iteration.
        relation loop_invariant(InstId);

        loop_invariant(i) <-- in_loop(i, _), !variant(i);
    }
}

pub use program::LoopProgram;

/// Is region number `region_index` of an op of kind `key` a loop region (run once per
/// iteration)?
pub fn is_loop_region(key: OpKey, region_index: usize) -> bool {
    match key {
        OpKey::While => region_index < 2,
        OpKey::Scan => region_index == 0,
        _ => false,
    }
}

/// The loop op `i` is directly in, if any.
fn enclosing_loop(facts: &FunctionFacts, i: InstId) -> Option<InstId> {
    let block = facts.block(facts.inst(i)?.block)?;
    let owner = block.owner?;
    is_loop_region(facts.inst(owner)?.key, block.region_index).then_some(owner)
}

/// Per block: is it inside a loop region, at any depth? (Blocks are in pre-order, so a
/// block's parent is decided before it.)
fn blocks_in_loops(facts: &FunctionFacts) -> Vec<bool> {
    let mut in_loop = Vec::with_capacity(facts.blocks().len());
    for b in facts.blocks() {
        let owner = b.owner.and_then(|op| facts.inst(op));
        let direct = owner.is_some_and(|op| is_loop_region(op.key, b.region_index));
        let parent = b
            .parent
            .is_some_and(|p| in_loop.get(p.0 as usize) == Some(&true));
        in_loop.push(direct || parent);
    }
    in_loop
}

impl LoopProgram {
    /// A program loaded with the facts of one function and its pure instructions. Only the
    /// instructions inside loops (at any depth) and the spans they refer to are loaded:
    /// nothing outside a loop can be loop invariant.
    pub fn from_facts(facts: &FunctionFacts, pure: &FxHashSet<InstId>) -> LoopProgram {
        let mut dl = LoopProgram::default();
        let in_loops = blocks_in_loops(facts);
        let mut spanned = FxHashSet::default();
        for i in facts.insts() {
            if in_loops.get(i.block.0 as usize) != Some(&true) {
                continue;
            }
            if pure.contains(&i.id) {
                dl.pure.push((i.id,));
            }
            dl.operand.extend(i.operands.iter().map(|&v| (i.id, v)));
            spanned.extend(i.operands.iter().copied());
            let block = facts.block(i.block);
            if let Some(op) = block.and_then(|b| b.owner) {
                dl.nested.push((i.id, op));
                spanned.insert(op.value());
            }
            if let Some(l) = enclosing_loop(facts, i.id) {
                dl.in_loop.push((i.id, l));
            }
            for b in i.regions.iter().filter_map(|&b| facts.block(b)) {
                dl.region_result
                    .extend(b.results.iter().map(|&v| (i.id, v)));
                spanned.extend(b.results.iter().copied());
            }
            spanned.insert(i.id.value());
        }
        for v in spanned {
            if let (Some(d), Some((_, end, block_end))) = (facts.value(v), facts.span(v)) {
                dl.span.push((v, d.pre, end, block_end));
                if !d.is_param {
                    dl.inst_span.push((v.inst(), d.pre, d.end));
                }
            }
        }
        dl
    }
}

/// The loop-invariant instructions of one function, with their loops.
///
/// ```
/// use ptir_ir::analysis::{FunctionFacts, LoopInvariance};
/// use ptir_ir::InstId;
/// let p = ptir_ir::parse(
///     "func @f(%0: f32[], %1: f32[]) -> (f32[]) {\n  \
///      %2 = while %0 : f32[] {\n  ^(%3: f32[]):\n    %4 = lt %3, %1 : bool[]\n    yield %4\n  } {\n  \
///      ^(%5: f32[]):\n    %6 = exp %1 : f32[]\n    %7 = add %5, %6 : f32[]\n    yield %7\n  }\n  \
///      return %2\n}",
/// ).unwrap();
/// let facts = FunctionFacts::of(&p.functions[0]);
/// let pure = facts.insts().iter().map(|i| i.id).collect();
/// let inv = LoopInvariance::of(&facts, &pure);
/// assert_eq!(inv.invariant(), vec![InstId(6)]);
/// assert_eq!(inv.loop_of(InstId(6)), Some(InstId(2)));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoopInvariance {
    /// Loop-invariant instruction -> its loop op.
    invariant: FxHashMap<InstId, InstId>,
}

impl LoopInvariance {
    /// Runs [`LoopProgram`] on one function's facts, given its pure instructions.
    pub fn of(facts: &FunctionFacts, pure: &FxHashSet<InstId>) -> LoopInvariance {
        let mut dl = LoopProgram::from_facts(facts, pure);
        dl.run();
        let loops: FxHashMap<InstId, InstId> = dl.in_loop.iter().copied().collect();
        LoopInvariance {
            invariant: dl
                .loop_invariant
                .into_iter()
                .filter_map(|(i,)| loops.get(&i).map(|&l| (i, l)))
                .collect(),
        }
    }

    /// Is `i` loop invariant?
    pub fn is_invariant(&self, i: InstId) -> bool {
        self.invariant.contains_key(&i)
    }

    /// The loop op a loop-invariant `i` may be hoisted out of (`None` if not invariant).
    pub fn loop_of(&self, i: InstId) -> Option<InstId> {
        self.invariant.get(&i).copied()
    }

    /// The loop-invariant instructions, sorted.
    pub fn invariant(&self) -> Vec<InstId> {
        let mut v: Vec<InstId> = self.invariant.keys().copied().collect();
        v.sort();
        v
    }
}
