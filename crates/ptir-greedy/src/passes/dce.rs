//! Dead-code elimination: erase pure ops whose value nobody uses.
//!
//! One backward sweep per block suffices: erasing an op can only make ops *before* it dead
//! (its operands are defined earlier in the block, or in an enclosing block, which the sweep
//! reaches after the region op), and a region op is swept inside before its own fate is
//! decided. Impure ops (`rng`, calls of impure callees, region ops containing them) are never
//! erased, used or not. The sweep is `crate::dead`'s, which the greedy driver runs as its
//! region simplification too.

use super::FunctionPass;
use crate::dead::sweep;
use crate::rewriter::ProgramRewriter;
use ptir_pass::{Pass, PassError, PassReport};

/// The DCE pass: erases dead ops of every function, with the rewriter's purity (which tests
/// hold equal to the Datalog analysis of `ptir_ir::analysis`).
///
/// ```
/// use ptir_greedy::Dce;
/// use ptir_pass::Pass;
/// let mut p = ptir_ir::parse("func @f(%0: f32[2]) -> (f32[2]) {
///   %1 = exp %0 : f32[2]
///   %2 = rng uniform : f32[2]
///   return %0
/// }").unwrap();
/// let report = Dce.run(&mut p).unwrap();
/// assert_eq!(report.erased, 1); // the exp; rng has a side effect
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Dce;

function_pass!(Dce, "dce");

impl FunctionPass for Dce {
    fn run_function(
        &self,
        _: usize,
        _: usize,
        rw: &mut ProgramRewriter<'_>,
    ) -> Result<PassReport, PassError> {
        let erased = sweep(rw);
        Ok(PassReport::new(self.name(), erased > 0, erased))
    }
}
