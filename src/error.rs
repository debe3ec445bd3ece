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
    /// A compiled rule library cannot be loaded (stale, truncated, corrupt, or its rules do
    /// not fit the set).
    #[error("{path}: {source}")]
    Library {
        /// The file.
        path: String,
        /// Why.
        source: Box<ptir_rules::LibraryError>,
    },
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
    /// A name to enable or disable matches no rule and no label.
    #[error(transparent)]
    UnknownRule(#[from] ptir_rules::UnknownRuleName),
    /// The options ask for something the chosen engine cannot do.
    #[error("{0}")]
    Options(String),
    /// The input program does not verify.
    #[error("the program does not verify:\n{0}")]
    Verify(#[from] ptir_ir::VerifyError),
    /// The output of an engine does not verify (an engine bug).
    #[error("the optimized program does not verify:\n{0}")]
    Output(ptir_ir::VerifyError),
    /// The greedy driver could not compile the rules.
    #[error(transparent)]
    GreedyRules(#[from] ptir_greedy::CompileError),
    /// The match query could not run ([`crate::find_matches`]).
    #[error(transparent)]
    Match(#[from] ptir_greedy::MatchError),
    /// A pass pipeline text names no pipeline.
    #[error(transparent)]
    Pipeline(#[from] ptir_pass::PipelineError),
    /// A pass of the pipeline failed (its engine's error is the source), or the program does
    /// not verify after a pass (with [`crate::Options::verify_each`]).
    #[error(transparent)]
    Pass(#[from] ptir_pass::PassError),
    /// Translation validation ([`crate::Options::validate`]) refused the output, or could not
    /// compare it with the input.
    #[error(transparent)]
    Validation(Box<crate::equivalence::ValidationError>),
    /// Two programs could not be compared (`diff`): no inputs, or a program calls an extern
    /// that has no implementation.
    #[error(transparent)]
    Check(Box<crate::equivalence::CheckError>),
    /// The e-graph engine failed (outside a pipeline: [`crate::compare_cost_models`]).
    #[error(transparent)]
    Engine(#[from] ptir_egraph::EngineError),
    /// Outlining a fused call failed (its idiom does not apply to the call's types).
    #[error("outlining: {0}")]
    Outline(String),
    /// A conversion target file is wrong.
    #[error(transparent)]
    Target(#[from] ptir_convert::TargetError),
    /// Legalizing for the target failed (the program was left as the engine produced it).
    #[error(transparent)]
    Conversion(#[from] ptir_convert::ConversionError),
}

impl From<crate::equivalence::ValidationError> for Error {
    fn from(e: crate::equivalence::ValidationError) -> Self {
        Error::Validation(Box::new(e))
    }
}

impl From<crate::equivalence::CheckError> for Error {
    fn from(e: crate::equivalence::CheckError) -> Self {
        Error::Check(Box::new(e))
    }
}
