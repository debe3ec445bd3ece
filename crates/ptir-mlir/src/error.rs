//! The error type of import and export: every import error carries the line and column of the
//! MLIR text it is about.

/// Why an MLIR module could not be imported, or a program could not be exported.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MlirError {
    /// The text is not MLIR as we read it.
    #[error("{line}:{col}: {message}")]
    Syntax {
        /// 1-based line.
        line: u32,
        /// 1-based column.
        col: u32,
        /// What was expected or found.
        message: String,
    },
    /// An op, type or attribute form PTIR has no meaning for.
    #[error("{line}:{col}: unsupported {what}")]
    Unsupported {
        /// 1-based line.
        line: u32,
        /// 1-based column.
        col: u32,
        /// What it is, e.g. `op 'stablehlo.fft'`.
        what: String,
    },
    /// Well-formed text that does not make a valid program (undefined value, wrong type).
    #[error("{line}:{col}: {message}")]
    Invalid {
        /// 1-based line.
        line: u32,
        /// 1-based column.
        col: u32,
        /// What is wrong.
        message: String,
    },
    /// A PTIR program that StableHLO cannot express as we export it.
    #[error("cannot export @{function}: {message}")]
    Export {
        /// The function being exported.
        function: String,
        /// What could not be expressed.
        message: String,
    },
}

impl MlirError {
    /// The line and column of an import error (`None` for export errors).
    pub fn location(&self) -> Option<(u32, u32)> {
        match self {
            MlirError::Syntax { line, col, .. }
            | MlirError::Unsupported { line, col, .. }
            | MlirError::Invalid { line, col, .. } => Some((*line, *col)),
            MlirError::Export { .. } => None,
        }
    }
}

/// A position in the source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    /// 1-based line.
    pub line: u32,
    /// 1-based column (in characters).
    pub col: u32,
}

impl Pos {
    pub(crate) fn syntax(self, message: impl Into<String>) -> MlirError {
        MlirError::Syntax {
            line: self.line,
            col: self.col,
            message: message.into(),
        }
    }

    pub(crate) fn unsupported(self, what: impl Into<String>) -> MlirError {
        MlirError::Unsupported {
            line: self.line,
            col: self.col,
            what: what.into(),
        }
    }

    pub(crate) fn invalid(self, message: impl Into<String>) -> MlirError {
        MlirError::Invalid {
            line: self.line,
            col: self.col,
            message: message.into(),
        }
    }
}

/// Result of import and export.
pub type Result<T> = std::result::Result<T, MlirError>;
