//! The error type of the library calls.

/// Why a library call failed. Reaching a limit is not an error.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A rule file is wrong.
    #[error(transparent)]
    Rules(#[from] ptir_rules::RuleError),
    /// A user-supplied rule failed its proof by the interpreter.
    #[error("{location}: rule `{rule}` is unsound (refused): {counterexample}")]
    UnsoundRule {
        /// `file:line` of the rule.
        location: String,
        /// The rule's name.
        rule: String,
        /// The proof's counterexample (seed, inputs, both values, the program).
        counterexample: String,
    },
    /// The input program does not verify.
    #[error("the program does not verify:\n{0}")]
    Verify(#[from] ptir_ir::VerifyError),
    /// The output of an engine does not verify (an engine bug).
    #[error("the optimized program does not verify:\n{0}")]
    Output(ptir_ir::VerifyError),
    /// The greedy driver could not compile the rules.
    #[error(transparent)]
    GreedyRules(#[from] ptir_greedy::CompileError),
    /// A greedy pass failed.
    #[error(transparent)]
    Pass(#[from] ptir_greedy::PassError),
    /// The e-graph engine failed.
    #[error(transparent)]
    Engine(#[from] ptir_egraph::EngineError),
}
