//! The passes only the facade can make, registered beside the engines' and the IR
//! transformations' (`ptir_pass::transform`): `loop-patterns`, the rule files' loop patterns
//! (`.pat` idioms over loops, [`ptir_rules::apply_loop_patterns`]) raised to their calls,
//! which needs the loaded rule set; `sibling-reductions`, sibling reductions merged into one
//! (or one split) where the run's cost model says the runtime gains
//! ([`ptir_pass::transform::balance_sibling_reductions`]), which needs the cost model.

use ptir_cost::CostModel;
use ptir_pass::{Pass, PassError, PassReport};
use ptir_rules::RuleSet;
use std::sync::Arc;

/// The name of [`LoopPatterns`] in pipeline text.
pub const LOOP_PATTERNS_PASS: &str = "loop-patterns";

/// The `loop-patterns` pass: raises every match of the rule set's loop patterns; reports how
/// many times each fired (as rules fire).
pub struct LoopPatterns(pub Arc<RuleSet>);

impl Pass for LoopPatterns {
    fn name(&self) -> &str {
        LOOP_PATTERNS_PASS
    }

    fn run(&self, program: &mut ptir_ir::Program) -> Result<PassReport, PassError> {
        let fired = ptir_rules::apply_loop_patterns(program, self.0.loop_patterns());
        let mut report = PassReport::new(self.name(), !fired.is_empty(), 0);
        report.rules_fired = fired.into_iter().collect();
        Ok(report)
    }
}

/// The name of [`SiblingReductions`] in pipeline text.
pub const SIBLING_REDUCTIONS_PASS: &str = "sibling-reductions";

/// The `sibling-reductions` pass: merges sibling reductions into a `multi_reduce` where the
/// cost model prices it below them apart (IREE), and splits a `multi_reduce` it prices above
/// them (XLA).
pub struct SiblingReductions(pub Arc<dyn CostModel>);

impl Pass for SiblingReductions {
    fn name(&self) -> &str {
        SIBLING_REDUCTIONS_PASS
    }

    fn run(&self, program: &mut ptir_ir::Program) -> Result<PassReport, PassError> {
        let price = |op: &ptir_ir::Op, operands: &[&ptir_ir::Type], ty: &ptir_ir::Type| {
            self.0.op_cost(op, operands, ty)
        };
        let stats = ptir_pass::transform::balance_sibling_reductions(program, &price);
        let mut report = PassReport::new(self.name(), stats.merged + stats.split > 0, 0);
        if stats.merged > 0 {
            report = report.with_note(format!(
                "merged {} sibling reductions into {} multi_reduce(s), each reading its input once",
                stats.reductions, stats.merged
            ));
        }
        if stats.split > 0 {
            report = report.with_note(format!(
                "split {} multi_reduce(s) into their reductions, cheaper apart on this runtime",
                stats.split
            ));
        }
        Ok(report)
    }
}
