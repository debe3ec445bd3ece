//! The step log: what the driver did, as MLIR's `-debug-only=greedy-rewriter` shows it.
//!
//! Library users get the structured [`Step`]s; `Display` prints the tree:
//!
//! ```text
//! //===-------------------------------------------===//
//! Processing operation : 'neg'(#4) {
//!   %4 = neg %3 : f32[8]
//!
//!   * Pattern neg-neg : 'neg -> ()' {
//!     ** Replace : 'neg'(#4)
//!     ** Modified: 'add'(#5)
//!     ** Erase   : 'neg'(#4)
//!   } -> success : pattern applied successfully
//! } -> success : pattern matched
//! //===-------------------------------------------===//
//! ```

use ptir_ir::InstId;
use std::fmt;

/// A change the rewriter reported while an op was processed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// An instruction was inserted (or moved).
    Insert,
    /// An instruction's value is about to be replaced.
    Replace,
    /// An instruction was modified in place.
    Modified,
    /// An instruction is about to be erased.
    Erase,
}

/// One line of the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A new iteration of the driver starts (1-based).
    Iteration(usize),
    /// The driver pops an op from the worklist.
    Processing {
        /// The op.
        inst: InstId,
        /// Its kind.
        op: &'static str,
        /// The instruction as text.
        text: String,
    },
    /// A pattern is tried on the op being processed.
    PatternBegin {
        /// Its debug name.
        pattern: String,
        /// The root kind.
        root: &'static str,
    },
    /// The pattern finished.
    PatternEnd {
        /// Did it apply?
        success: bool,
        /// Why, in MLIR's words.
        reason: &'static str,
    },
    /// A pattern was not tried.
    Skipped {
        /// Its debug name.
        pattern: String,
        /// Why not.
        reason: &'static str,
    },
    /// The rewriter changed something.
    Event {
        /// What.
        kind: EventKind,
        /// Which instruction.
        inst: InstId,
        /// Its kind.
        op: &'static str,
    },
    /// A pattern gave up with a reason ([`notify_match_failure`](crate::ProgramRewriter::notify_match_failure)).
    MatchFailure(String),
    /// The op being processed is done.
    Done {
        /// Did anything apply (erase, fold, pattern)?
        success: bool,
        /// What: "operation is trivially dead", "operation was folded", "pattern matched",
        /// "pattern failed to match".
        reason: &'static str,
    },
}

/// The log of one driver run; `Display` prints MLIR's tree.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepLog {
    /// The steps, in order.
    pub steps: Vec<Step>,
}

const RULE: &str = "//===-------------------------------------------===//";

impl StepLog {
    pub(crate) fn push(&mut self, s: Step) {
        self.steps.push(s);
    }

    /// The debug names of the patterns that applied, in order.
    pub fn applied(&self) -> Vec<&str> {
        let mut current = None;
        let mut out = Vec::new();
        for s in &self.steps {
            match s {
                Step::PatternBegin { pattern, .. } => current = Some(pattern.as_str()),
                Step::PatternEnd { success: true, .. } => out.extend(current),
                _ => {}
            }
        }
        out
    }

    /// The instructions processed, in order.
    pub fn processed(&self) -> Vec<InstId> {
        self.steps
            .iter()
            .filter_map(|s| match s {
                Step::Processing { inst, .. } => Some(*inst),
                _ => None,
            })
            .collect()
    }
}

fn indent(f: &mut fmt::Formatter<'_>, depth: usize) -> fmt::Result {
    write!(f, "{:width$}", "", width = 2 * depth)
}

impl fmt::Display for StepLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut depth = 0;
        for s in &self.steps {
            match s {
                Step::Iteration(n) => writeln!(f, "// iteration {n}")?,
                Step::Processing { inst, op, text } => {
                    writeln!(f, "{RULE}\nProcessing operation : '{op}'({inst}) {{")?;
                    writeln!(f, "  {text}\n")?;
                    depth = 1;
                }
                Step::PatternBegin { pattern, root } => {
                    indent(f, depth)?;
                    writeln!(f, "* Pattern {pattern} : '{root} -> ()' {{")?;
                    depth += 1;
                }
                Step::PatternEnd { success, reason } => {
                    depth = depth.saturating_sub(1);
                    indent(f, depth)?;
                    let r = if *success { "success" } else { "failure" };
                    writeln!(f, "}} -> {r} : {reason}\n")?;
                }
                Step::Skipped { pattern, reason } => {
                    indent(f, depth)?;
                    writeln!(f, "* Pattern {pattern} : skipped : {reason}")?;
                }
                Step::Event { kind, inst, op } => {
                    indent(f, depth)?;
                    let k = match kind {
                        EventKind::Insert => "Insert  ",
                        EventKind::Replace => "Replace ",
                        EventKind::Modified => "Modified",
                        EventKind::Erase => "Erase   ",
                    };
                    writeln!(f, "** {k}: '{op}'({inst})")?;
                }
                Step::MatchFailure(reason) => {
                    indent(f, depth)?;
                    writeln!(f, "** Match Failure : {reason}")?;
                }
                Step::Done { success, reason } => {
                    let r = if *success { "success" } else { "failure" };
                    writeln!(f, "}} -> {r} : {reason}\n{RULE}")?;
                    depth = 0;
                }
            }
        }
        Ok(())
    }
}
