//! The errors of the interpreter and of its kernels.
//!
//! A kernel ([`crate::eval_op`], [`crate::binary_scalar`], ...) reports the bare cause. The
//! interpreter wraps the cause in [`InterpError::At`] with the function and the instruction that
//! failed, so a failing run reads like a short backtrace:
//!
//! ```text
//! in @main, instruction %3 = call: in @f, instruction %2 = div: integer division by zero
//! ```

use crate::program::ValueId;
use crate::types::Type;

/// Why a run (or a kernel) failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InterpError {
    /// The program has no function of this name.
    #[error("no function @{0}")]
    UnknownFunction(String),
    /// A call names neither a function nor a declared extern.
    #[error("@{0} is neither a function nor a declared extern")]
    UnknownCallee(String),
    /// `run` was given the wrong number of arguments.
    #[error("@{function} takes {expected} argument(s), {found} given")]
    ArgumentCount {
        /// The function.
        function: String,
        /// Its number of parameters.
        expected: usize,
        /// The number of arguments.
        found: usize,
    },
    /// An argument of `run` does not have the type of its parameter.
    #[error("argument {index} of @{function} has type {found}, the parameter is {expected}")]
    ArgumentType {
        /// The function.
        function: String,
        /// Position of the argument.
        index: usize,
        /// The parameter type.
        expected: Type,
        /// The argument's type.
        found: Type,
    },
    /// A value's buffer does not match its type (wrong length, class or unrounded elements).
    #[error("invalid value: {0}")]
    InvalidValue(String),
    /// Integer `div` or `rem` by zero (undefined behaviour in PTIR, so always an error).
    #[error("integer division by zero")]
    DivisionByZero,
    /// A declared extern was called but no implementation was registered.
    #[error("extern @{0} has no registered implementation")]
    MissingExtern(String),
    /// A registered extern implementation failed.
    #[error("extern @{name} failed: {message}")]
    Extern {
        /// The extern.
        name: String,
        /// Its message.
        message: String,
    },
    /// A registered extern returned a value of the wrong type.
    #[error("extern @{name} returned {found}, the call expects {expected}")]
    ExternResult {
        /// The extern.
        name: String,
        /// The call's result type.
        expected: Type,
        /// What the implementation returned.
        found: Type,
    },
    /// A value would have more elements than [`crate::TENSOR_ELEMENT_LIMIT`].
    #[error("a value of type {ty} has {elements} elements, above the limit of {limit}")]
    TensorTooLarge {
        /// The type.
        ty: Type,
        /// Its element count.
        elements: usize,
        /// The limit.
        limit: usize,
    },
    /// The run used up its loop fuel ([`crate::WHILE_FUEL`] by default).
    #[error("loop fuel of {0} iterations used up")]
    OutOfFuel(u64),
    /// Calls and regions nest deeper than the limit ([`crate::CALL_DEPTH_LIMIT`] by default).
    #[error("calls and regions nest deeper than {0}")]
    DepthLimit(usize),
    /// The op cannot be computed by [`crate::eval_op`] (calls, `rng` and region ops need the
    /// interpreter).
    #[error("`{0}` cannot be evaluated on its own")]
    NotEvaluable(&'static str),
    /// The program or the operands break a rule the verifier checks; verified programs never
    /// produce this.
    #[error("malformed: {0}")]
    Malformed(String),
    /// Context: the argument of a run (given or generated) that is refused.
    #[error("argument {index} of @{function}: {cause}")]
    Argument {
        /// The function.
        function: String,
        /// Position of the argument.
        index: usize,
        /// What is wrong with it.
        cause: Box<InterpError>,
    },
    /// Context: the instruction that failed.
    #[error("in @{function}, instruction {inst} = {op}: {cause}")]
    At {
        /// The function being run.
        function: String,
        /// The instruction's result.
        inst: ValueId,
        /// The instruction's op name.
        op: &'static str,
        /// What went wrong.
        cause: Box<InterpError>,
    },
}

impl InterpError {
    /// The innermost cause, with every [`InterpError::At`] context removed.
    ///
    /// ```
    /// use ptir_ir::{InterpError, ValueId};
    /// let e = InterpError::At {
    ///     function: "f".into(),
    ///     inst: ValueId(2),
    ///     op: "div",
    ///     cause: Box::new(InterpError::DivisionByZero),
    /// };
    /// assert_eq!(e.to_string(), "in @f, instruction %2 = div: integer division by zero");
    /// assert_eq!(e.root(), &InterpError::DivisionByZero);
    /// ```
    pub fn root(&self) -> &InterpError {
        match self {
            InterpError::At { cause, .. } | InterpError::Argument { cause, .. } => cause.root(),
            e => e,
        }
    }

    pub(crate) fn malformed(msg: impl Into<String>) -> InterpError {
        InterpError::Malformed(msg.into())
    }
}

/// Result of the interpreter and its kernels.
pub type InterpResult<T> = Result<T, InterpError>;
