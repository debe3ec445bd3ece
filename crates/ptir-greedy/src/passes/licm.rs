//! Loop-invariant code motion as a pass (MLIR's `-loop-invariant-code-motion`): the
//! instructions of `while` and `scan` regions that the Datalog loop-invariance analysis proves
//! invariant move before their loop where that cannot run them where the program did not
//! ([`ptir_ir::loop_hoist`]). Not in the default pipeline, which is MLIR's canonicalizer's:
//! `--pass-pipeline canonicalize,licm,cse,dce` adds it. The e-graph engine gets the same
//! placement from lifting.

use ptir_pass::{Pass, PassError, PassReport};

/// The `licm` pass; see the module docs.
///
/// ```
/// use ptir_pass::Pass;
/// let mut p = ptir_ir::parse("func @f(%x: f32[4], %w: f32[4]) -> (f32[4]) {
///   %r = scan %x, %x num_carry=1 length=4 : (f32[4], f32[4,4]) {
///   ^(%h: f32[4], %row: f32[]):
///     %e = exp %w : f32[4]
///     %n = mul %h, %e : f32[4]
///     yield %n, %n
///   }
///   %y = tuple_get %r index=0 : f32[4]
///   return %y
/// }").unwrap();
/// let report = ptir_greedy::Licm.run(&mut p).unwrap();
/// assert!(report.changed);
/// let text = ptir_ir::print(&p);
/// assert!(text.find("exp").unwrap() < text.find("scan").unwrap());
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Licm;

impl Pass for Licm {
    fn name(&self) -> &str {
        "licm"
    }

    fn run(&self, program: &mut ptir_ir::Program) -> Result<PassReport, PassError> {
        let moved = ptir_ir::hoist_loop_invariants(program);
        Ok(PassReport::new(self.name(), moved > 0, 0))
    }
}
