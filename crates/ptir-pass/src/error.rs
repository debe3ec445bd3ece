//! Why a pass or a pipeline text failed: [`PassError`], [`PipelineError`].

use ptir_ir::VerifyError;

/// A pass failed.
///
/// ```
/// use ptir_pass::PassError;
/// let e = PassError::failed("cse", std::io::Error::other("out of luck"));
/// assert_eq!(e.to_string(), "out of luck");
/// assert_eq!(e.pass(), "cse");
/// ```
#[derive(Debug, thiserror::Error)]
pub enum PassError {
    /// The pass's engine failed; its own error is the source, and says what happened.
    #[error("{source}")]
    Failed {
        /// The pass.
        pass: String,
        /// The engine's error.
        source: Box<dyn std::error::Error + Send + Sync + 'static>,
    },
    /// The program does not verify after a pass (checked only under
    /// [`crate::PassManager::with_verify_each`]).
    #[error("the program does not verify after pass `{pass}`:\n{error}")]
    Verify {
        /// The pass (or the passes, comma-separated, that ran as one unit).
        pass: String,
        /// The diagnostics.
        error: VerifyError,
    },
}

impl PassError {
    /// `pass` failed with its engine's error `source`.
    pub fn failed(
        pass: impl Into<String>,
        source: impl Into<Box<dyn std::error::Error + Send + Sync + 'static>>,
    ) -> Self {
        PassError::Failed {
            pass: pass.into(),
            source: source.into(),
        }
    }

    /// The pass that failed.
    pub fn pass(&self) -> &str {
        match self {
            PassError::Failed { pass, .. } | PassError::Verify { pass, .. } => pass,
        }
    }

    /// The engine's error, if it is an `E`.
    pub fn downcast_ref<E: std::error::Error + 'static>(&self) -> Option<&E> {
        match self {
            PassError::Failed { source, .. } => source.downcast_ref(),
            PassError::Verify { .. } => None,
        }
    }
}

/// A pipeline text that names no pipeline.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PipelineError {
    /// No pass at all, or an empty name between commas.
    #[error("pass pipeline `{pipeline}`: empty pass name at column {col}")]
    EmptyPass {
        /// The pipeline text.
        pipeline: String,
        /// 1-based column of the empty name.
        col: usize,
    },
    /// A name that is no pass.
    #[error("pass pipeline `{pipeline}`: unknown pass `{name}` at column {col} (passes: {known})")]
    UnknownPass {
        /// The pipeline text.
        pipeline: String,
        /// The name.
        name: String,
        /// 1-based column of the name.
        col: usize,
        /// The passes there are, comma-separated.
        known: String,
    },
    /// A pass's options (`name{key=value ...}`) that do not parse or that the pass refuses.
    #[error("pass pipeline `{pipeline}`: pass `{name}` at column {col}: {message}")]
    Options {
        /// The pipeline text.
        pipeline: String,
        /// The pass.
        name: String,
        /// 1-based column of the pass's name.
        col: usize,
        /// What is wrong.
        message: String,
    },
}
