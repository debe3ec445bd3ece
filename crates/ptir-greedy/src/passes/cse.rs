//! Common-subexpression elimination (MLIR's `-cse`): a pure op equal to an earlier one that
//! dominates it is replaced by it.
//!
//! The walk keeps a scoped table of the ops seen so far, keyed by op (with attributes),
//! operands and result type. A block's entries are visible to the regions nested in it below
//! their definition and dropped when the block ends, so a duplicate in a `cond` branch or a
//! loop body reuses the value computed outside, and two branches never share. Only pure ops
//! without regions are merged: `rng`, calls of impure callees and region ops never are.
//! Purity and dominance are the rewriter's live answers (`crate::queries::Live`, which tests
//! hold equal to the Datalog analyses of `ptir_ir::analysis`, as they are for CSE itself;
//! computing those costs more than the pass); the scoped walk only proposes candidates, and
//! a merge also requires that the earlier op dominate the later one.

use super::FunctionPass;
use crate::ir::BlockId;
use crate::queries::{Facts, Live};
use crate::rewriter::ProgramRewriter;
use hashbrown::HashTable;
use ptir_ir::InstId;
use ptir_pass::{Pass, PassError, PassReport};
use std::hash::{Hash, Hasher};

/// The ops seen so far that later ones may reuse. The table holds op ids alone (4 bytes a
/// slot), hashed by [`hash_of`]: on a large function the table outgrows the caches, and its
/// slots, not the ops, are what every insertion touches.
#[derive(Default)]
struct ScopedTable {
    by_hash: HashTable<InstId>,
    /// Entries inserted, in order, with their hashes, so a block can drop its own.
    inserted: Vec<(u64, InstId)>,
}

/// Merges duplicates in the whole function, with purity and dominance from `facts`; returns
/// how many ops were erased.
pub(crate) fn eliminate(rw: &mut ProgramRewriter<'_>, facts: &dyn Facts) -> usize {
    let mut table = ScopedTable::default();
    let body = rw.body();
    // Room for every op of the body: growing rehashes every entry (hashing its op again).
    table
        .by_hash
        .reserve(rw.arena().block(body).len as usize, |&i| hash_of(rw, i));
    cse_block(rw, body, &mut table, facts)
}

fn cse_block(
    rw: &mut ProgramRewriter<'_>,
    b: BlockId,
    table: &mut ScopedTable,
    facts: &dyn Facts,
) -> usize {
    let mark = table.inserted.len();
    let insts: Vec<InstId> = rw.arena().block_insts(b).collect();
    let mut erased = 0;
    for i in insts {
        let regions = rw.regions(i).to_vec();
        for r in regions {
            erased += cse_block(rw, r, table, facts);
        }
        if !rw.regions(i).is_empty() || !facts.is_pure(rw, i) {
            continue;
        }
        let h = hash_of(rw, i);
        let existing = (table.by_hash)
            .find(h, |&e| same(rw, e, i) && facts.dominates(rw, e.value(), i))
            .copied();
        match existing {
            Some(e) => {
                rw.record_step(e, ptir_pass::explain::CSE_STEP);
                rw.replace_all_uses(i.value(), e.value());
                rw.erase_inst(i);
                erased += 1;
            }
            None => {
                table.by_hash.insert_unique(h, i, |&e| hash_of(rw, e));
                table.inserted.push((h, i));
            }
        }
    }
    for (h, i) in table.inserted.drain(mark..) {
        if let Ok(entry) = table.by_hash.find_entry(h, |&e| e == i) {
            entry.remove();
        }
    }
    erased
}

fn hash_of(rw: &ProgramRewriter<'_>, i: InstId) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    if let Some(x) = rw.inst(i) {
        x.op.hash(&mut h);
        x.operands.hash(&mut h);
        x.ty.hash(&mut h);
    }
    h.finish()
}

fn same(rw: &ProgramRewriter<'_>, a: InstId, b: InstId) -> bool {
    match (rw.inst(a), rw.inst(b)) {
        (Some(x), Some(y)) => x.op == y.op && x.operands == y.operands && x.ty == y.ty,
        _ => false,
    }
}

/// The CSE pass on every function, with the rewriter's purity and dominance.
///
/// ```
/// use ptir_greedy::Cse;
/// use ptir_pass::Pass;
/// let mut p = ptir_ir::parse("func @f(%0: f32[2]) -> (f32[2]) {
///   %1 = exp %0 : f32[2]
///   %2 = exp %0 : f32[2]
///   %3 = add %1, %2 : f32[2]
///   return %3
/// }").unwrap();
/// assert_eq!(Cse.run(&mut p).unwrap().erased, 1);
/// assert!(ptir_ir::print(&p).contains("add %1, %1"));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Cse;

function_pass!(Cse, "cse");

impl FunctionPass for Cse {
    fn run_function(
        &self,
        _: usize,
        _: usize,
        rw: &mut ProgramRewriter<'_>,
    ) -> Result<PassReport, PassError> {
        let erased = eliminate(rw, &Live);
        Ok(PassReport::new(self.name(), erased > 0, erased))
    }
}
