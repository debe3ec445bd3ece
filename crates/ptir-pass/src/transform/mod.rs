//! The transformations of the IR that no rule writes, each a registered pass: loop idioms
//! raised to loop-free ops (`loop-idioms`), loops with a static trip count written out
//! (`unroll`), calls of the program's own functions inlined (`inline`) and loop-invariant
//! instructions hoisted (`licm`). Each is also a function on a [`Program`] for callers
//! outside a pipeline (the cost models inline and price as the runtime will run).
//!
//! ```
//! use ptir_pass::{transform, PassRegistry};
//! let mut registry = PassRegistry::new();
//! transform::register_passes(&mut registry, transform::UnrollLimits::DEFAULT);
//! let pm = registry.parse("loop-idioms,unroll{max-trips=8},inline,licm").unwrap();
//! assert_eq!(pm.names(), ["loop-idioms", "unroll", "inline", "licm"]);
//! assert!(registry.parse("unroll{max-trips=many}").is_err());
//! ```

mod inline;
mod licm;
mod loop_idioms;
mod siblings;
mod unroll;

pub use inline::{inline_calls, InlineStats, INLINE_NESTING_LIMIT};
pub use licm::{hoist_loop_invariants, HOIST_ROUNDS};
pub use loop_idioms::raise_loop_idioms;
pub use siblings::{
    balance_sibling_reductions, OpPrice, SiblingStats, MAX_SIBLINGS, SOURCE_WALK_LIMIT,
};
pub use unroll::{unroll_loops, UnrollLimits, UnrollStats};

use crate::{Pass, PassError, PassOptions, PassRegistry, PassReport};
use ptir_ir::Program;

/// Names of the passes of this module, as pipeline text spells them.
pub const LOOP_IDIOMS_PASS: &str = "loop-idioms";
/// See [`LOOP_IDIOMS_PASS`].
pub const UNROLL_PASS: &str = "unroll";
/// See [`LOOP_IDIOMS_PASS`].
pub const INLINE_PASS: &str = "inline";
/// See [`LOOP_IDIOMS_PASS`].
pub const LICM_PASS: &str = "licm";

/// Registers `loop-idioms`, `unroll` (options `max-trips=N`, `max-insts=N`, defaulting to
/// `unroll`'s), `inline` and `licm` (no options) in `registry`.
pub fn register_passes(registry: &mut PassRegistry, unroll: UnrollLimits) {
    registry.register(
        LOOP_IDIOMS_PASS,
        "reduction scans raised to loop-free reduce ops (exact)",
        |options: &PassOptions| {
            options.expect_none(LOOP_IDIOMS_PASS)?;
            Ok(Box::new(LoopIdioms))
        },
    );
    registry.register(
        UNROLL_PASS,
        "while loops with a small static trip count written out",
        move |options: &PassOptions| {
            options.expect_only(UNROLL_PASS, &["max-trips", "max-insts"])?;
            Ok(Box::new(Unroll(UnrollLimits {
                max_trips: options.usize("max-trips")?.unwrap_or(unroll.max_trips),
                max_insts: options.usize("max-insts")?.unwrap_or(unroll.max_insts),
            })))
        },
    );
    registry.register(
        INLINE_PASS,
        "calls of the program's own non-recursive functions inlined",
        |options: &PassOptions| {
            options.expect_none(INLINE_PASS)?;
            Ok(Box::new(Inline))
        },
    );
    registry.register(
        LICM_PASS,
        "loop-invariant code motion out of while and scan regions",
        |options: &PassOptions| {
            options.expect_none(LICM_PASS)?;
            Ok(Box::new(Licm))
        },
    );
}

/// The `loop-idioms` pass: [`raise_loop_idioms`].
#[derive(Clone, Copy, Debug, Default)]
pub struct LoopIdioms;

impl Pass for LoopIdioms {
    fn name(&self) -> &str {
        LOOP_IDIOMS_PASS
    }

    fn run(&self, program: &mut Program) -> Result<PassReport, PassError> {
        let loops = raise_loop_idioms(program);
        let report = PassReport::new(self.name(), loops > 0, 0);
        Ok(match loops {
            0 => report,
            n => report.with_note(format!("raised {n} reduction loop(s) to reduce")),
        })
    }
}

/// The `unroll` pass: [`unroll_loops`] within its limits.
#[derive(Clone, Copy, Debug, Default)]
pub struct Unroll(pub UnrollLimits);

impl Pass for Unroll {
    fn name(&self) -> &str {
        UNROLL_PASS
    }

    fn run(&self, program: &mut Program) -> Result<PassReport, PassError> {
        let stats = unroll_loops(program, &self.0);
        let report = PassReport::new(self.name(), stats.loops > 0, 0);
        Ok(match stats.loops {
            0 => report,
            n => report.with_note(format!(
                "unrolled {n} loop(s) with a static trip count ({} iterations written out)",
                stats.iterations
            )),
        })
    }
}

/// The `inline` pass: [`inline_calls`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Inline;

impl Pass for Inline {
    fn name(&self) -> &str {
        INLINE_PASS
    }

    fn run(&self, program: &mut Program) -> Result<PassReport, PassError> {
        let (inlined, stats) = inline_calls(program);
        if stats.inlined == 0 {
            return Ok(PassReport::new(self.name(), false, 0));
        }
        *program = inlined;
        Ok(PassReport::new(self.name(), true, 0).with_note(format!(
            "inlined {} call(s) of the program's own functions",
            stats.inlined
        )))
    }
}

/// The `licm` pass (MLIR's `-loop-invariant-code-motion`): [`hoist_loop_invariants`].
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
/// let report = ptir_pass::transform::Licm.run(&mut p).unwrap();
/// assert!(report.changed);
/// let text = ptir_ir::print(&p);
/// assert!(text.find("exp").unwrap() < text.find("scan").unwrap());
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Licm;

impl Pass for Licm {
    fn name(&self) -> &str {
        LICM_PASS
    }

    fn run(&self, program: &mut Program) -> Result<PassReport, PassError> {
        let moved = hoist_loop_invariants(program);
        Ok(PassReport::new(self.name(), moved > 0, 0))
    }
}

#[cfg(test)]
mod tests;
