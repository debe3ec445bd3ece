//! PTIR: a small tensor IR with single-block functions, tensor ops and regions for
//! `cond`/`while`/`scan`.
//!
//! This crate is the bottom of the workspace: it knows nothing of rules, drivers or e-graphs.
//! It holds the IR ([`Program`]), its text format ([`parse`], [`print()`]), the verifier that
//! alone defines well-formedness ([`verify`]), shape inference ([`infer_type`]), the reference
//! interpreter ([`Interpreter`], [`eval_op`]) and the Datalog analyses both engines rely on.

pub mod analysis;
mod axes;
pub mod builder;
pub mod gather;
#[cfg(any(test, feature = "testing"))]
pub mod generate;
mod infer;
pub mod inputs;
mod interp;
mod keyword;
mod ops;
pub mod preorder;
mod program;
mod tensor;
pub mod text;
mod types;
mod value_ids;
mod verify;
mod window;

pub use analysis::trips::{static_trip_counts, trip_count};
pub use analysis::{Analysis, FunctionAnalysis};
pub use builder::{BuildError, FunctionBuilder, ProgramBuilder, Val};
pub use gather::{gather_type, scatter_type, GatherDims, IndexDims, ScatterKind};
pub use infer::{
    check_axes, check_broadcast, dot_general_type, free_dims, infer_type, is_permutation,
    reduced_shape, region_param_types, slice_type, InferContext,
};
pub use interp::{
    binary_scalar, bitcast_scalar, cast_scalar, check_size, check_value, compare_scalar,
    dense_fold_fits, eval_op, float_max, float_min, int_to_float, reduce_precision_scalar, run,
    unary_scalar, value_type, ExternFn, InterpError, InterpResult, Interpreter, CALL_DEPTH_LIMIT,
    FOLD_ELEMENT_LIMIT, TENSOR_ELEMENT_LIMIT, WHILE_FUEL,
};
pub use ops::{
    ArgKind, BinaryOp, CmpOp, DTypeClass, DotDims, Op, OpKey, Precision, ReduceKind, RngAlgorithm,
    RngDist, SelectKind, SliceDims, UnaryOp,
};
pub use program::{
    ExternDecl, Function, InstId, Instruction, Param, Program, Region, Signature, ValueId,
};
pub use tensor::{
    float_to_int, int_from_i128, int_value, parse_float, round_float, wrap_int, Data, FloatBits,
    Literal, Scalar, ScalarIn, Tensor, Value,
};
pub use text::{
    is_bare_symbol, op_signature, parse, parse_with_source_map, print, print_inst, write_symbol,
    LocatedDiagnostic, ParseError, SourceLoc, SourceMap,
};
pub use types::{
    num_elements, strides, DType, DTypeFacts, DTypeKind, Shape, TensorType, Type, TYPE_BYTES_LIMIT,
};
pub use value_ids::{keep_value_ids, ValueNumbers};
pub use verify::{check_literal, verify, Diagnostic, VerifyError};
pub use window::{
    convolution_type, pad_type, reduce_window_type, select_and_scatter_type, ConvDims, PadDims,
    ReduceWindowDims, Window,
};
