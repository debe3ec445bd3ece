//! The passes only the facade can make, registered beside the engines' and the IR
//! transformations' (`ptir_pass::transform`): `loop-patterns`, the rule files' loop patterns
//! (`.pat` idioms over loops, [`ptir_rules::apply_loop_patterns`]) raised to their calls,
//! which needs the loaded rule set.

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
