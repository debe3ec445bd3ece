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
    /// The input program does not verify.
    #[error("the program does not verify:\n{0}")]
    Verify(#[from] ptir_ir::VerifyError),
    /// The e-graph engine failed.
    #[error(transparent)]
    Engine(#[from] ptir_egraph::EngineError),
}
