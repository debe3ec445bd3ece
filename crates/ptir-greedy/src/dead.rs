//! The dead-code sweep shared by the DCE pass and the greedy driver's region simplification:
//! one backward sweep per block erases the pure ops whose value nobody uses (erasing an op
//! can only make ops before it dead; a region op is swept inside before its own fate is
//! decided).

use crate::ir::BlockId;
use crate::queries::{Facts, Live};
use crate::rewriter::ProgramRewriter;
use ptir_ir::InstId;

/// Erases every dead pure op of the function; returns how many ops were erased (counting a
/// region op as one).
pub(crate) fn sweep(rw: &mut ProgramRewriter<'_>) -> usize {
    sweep_with(rw, &Live)
}

/// [`sweep`] with purity from `facts`.
pub(crate) fn sweep_with(rw: &mut ProgramRewriter<'_>, facts: &dyn Facts) -> usize {
    let body = rw.body();
    sweep_block(rw, body, facts)
}

fn sweep_block(rw: &mut ProgramRewriter<'_>, b: BlockId, facts: &dyn Facts) -> usize {
    let insts: Vec<InstId> = rw.arena().block_insts(b).collect();
    let mut erased = 0;
    for &i in insts.iter().rev() {
        if !rw.contains(i) {
            continue;
        }
        let regions = rw.regions(i).to_vec();
        for r in regions {
            erased += sweep_block(rw, r, facts);
        }
        if rw.num_uses(i.value()) == 0 && facts.is_pure(rw, i) {
            rw.erase_inst(i);
            erased += 1;
        }
    }
    erased
}
