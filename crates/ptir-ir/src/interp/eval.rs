//! [`eval_op`]: one op on concrete operand values, for every op that needs neither the program
//! (calls), the random stream (`rng`) nor regions. The interpreter uses it for those ops, and
//! constant folders use it to compute exactly what the interpreter would.
//!
//! Before computing, it checks what the kernels rely on: the result fits
//! [`TENSOR_ELEMENT_LIMIT`], every operand's buffer matches its type, and the op's typing rule
//! ([`infer_type`]) holds for the operand types and `result_ty`. So no input makes it panic.

use super::error::{InterpError, InterpResult};
use super::{gather, kernels, reduce, shape_ops, window, TENSOR_ELEMENT_LIMIT};
use crate::infer::{infer_type, InferContext};
use crate::ops::Op;
use crate::tensor::{Data, Tensor, Value};
use crate::types::{DType, TensorType, Type};

/// The type of a value.
///
/// ```
/// use ptir_ir::{value_type, DType, Tensor, TensorType, Type, Value};
/// let t = TensorType::new(DType::I32, vec![2]);
/// let v = Value::Tuple(vec![Tensor::from_f64(t.clone(), &[1.0, 2.0]).into()]);
/// assert_eq!(value_type(&v), Type::Tuple(vec![t.into()]));
/// ```
pub fn value_type(v: &Value) -> Type {
    match v {
        Value::Tensor(t) => t.ty.clone().into(),
        Value::Tuple(vs) => Type::Tuple(vs.iter().map(value_type).collect()),
    }
}

/// Number of elements of all tensors in a type.
fn type_elements(ty: &Type) -> usize {
    match ty {
        Type::Tensor(t) => t.num_elements(),
        Type::Tuple(ts) => ts
            .iter()
            .fold(0usize, |n, t| n.saturating_add(type_elements(t))),
    }
}

/// Refuses a type with more than [`TENSOR_ELEMENT_LIMIT`] elements in all
/// ([`InterpError::TensorTooLarge`]); call it before building a value of a type that came
/// from a user, as the interpreter does before every result and argument.
///
/// ```
/// use ptir_ir::{check_size, DType, TensorType, Type};
/// assert!(check_size(&Type::from(TensorType::new(DType::F32, vec![4096, 4096]))).is_ok());
/// assert!(check_size(&Type::from(TensorType::new(DType::F32, vec![100_000, 100_000]))).is_err());
/// ```
pub fn check_size(ty: &Type) -> InterpResult<()> {
    let elements = type_elements(ty);
    if elements > TENSOR_ELEMENT_LIMIT {
        return Err(InterpError::TensorTooLarge {
            ty: ty.clone(),
            elements,
            limit: TENSOR_ELEMENT_LIMIT,
        });
    }
    Ok(())
}

fn buffer_fits(t: &Tensor) -> bool {
    let class_ok = match &t.data {
        Data::Float(_) => t.ty.dtype.is_float(),
        Data::Int(_) => t.ty.dtype.is_int(),
        Data::Bool(_) => t.ty.dtype == DType::Bool,
    };
    class_ok && t.data.len() == t.ty.num_elements()
}

/// Checks that every tensor of `v` has a buffer of the right length and element class
/// (cheap: does not look at the elements).
pub(crate) fn check_buffers(v: &Value) -> InterpResult<()> {
    match v {
        Value::Tensor(t) if buffer_fits(t) => Ok(()),
        Value::Tensor(t) => Err(InterpError::InvalidValue(format!(
            "a {} tensor holds {} elements of the wrong length or class",
            t.ty,
            t.data.len()
        ))),
        Value::Tuple(vs) => vs.iter().try_for_each(check_buffers),
    }
}

/// Checks that a value is well formed: every buffer has the length and element class of its
/// type, and every element is exactly representable in its dtype (floats rounded, integers
/// wrapped). The interpreter applies it to the arguments of a run and to extern results.
///
/// ```
/// use ptir_ir::{check_value, Data, DType, FloatBits, Tensor, TensorType, Value};
/// let ty = TensorType::new(DType::F32, vec![1]);
/// let ok = Value::Tensor(Tensor::from_f64(ty.clone(), &[0.1]));
/// assert!(check_value(&ok).is_ok());
/// let unrounded = Value::Tensor(Tensor { ty, data: Data::Float(vec![FloatBits(0.1)]) });
/// assert!(check_value(&unrounded).is_err());
/// ```
pub fn check_value(v: &Value) -> InterpResult<()> {
    check_buffers(v)?;
    match v {
        Value::Tensor(t) => match t.data.iter().find(|s| !s.fits(t.ty.dtype)) {
            Some(s) => Err(InterpError::InvalidValue(format!(
                "element {s} of a {} tensor is not a {}",
                t.ty, t.ty.dtype
            ))),
            None => Ok(()),
        },
        Value::Tuple(vs) => vs.iter().try_for_each(check_value),
    }
}

fn tensor_operand(v: &Value) -> InterpResult<&Tensor> {
    v.as_tensor()
        .ok_or_else(|| InterpError::malformed("tuple operand where a tensor is expected"))
}

/// Largest number of elements of an operand or a non-splat result that constant folding
/// expands, in both engines (the greedy driver's folds and the e-graph's analysis): 2^16.
/// Folding a constant of a million elements would copy megabytes into the program for little
/// gain; past this size the op stays and runs at run time (splats fold at any size).
pub const FOLD_ELEMENT_LIMIT: usize = 1 << 16;

/// May constant folding store a dense (non-splat) result of `result_elements` elements,
/// computed from dense operands of `dense_operand_elements` elements in all? Only when it
/// is no larger than they are (and within [`FOLD_ELEMENT_LIMIT`]): folding never turns
/// something cheap to compute (a broadcast, an outer product, elementwise work on an iota or
/// a splat) into a larger stored constant, which the kernel would read from memory where it
/// computed the value for free (XLA's constant folder keeps iota and broadcasts for the same
/// reason). A splat result is always fine: it is stored as one element. Both engines fold
/// under this rule.
///
/// ```
/// use ptir_ir::dense_fold_fits;
/// assert!(dense_fold_fits(16, 16));     // elementwise op of a dense constant
/// assert!(dense_fold_fits(4, 16));      // a slice or a reduction of one
/// assert!(!dense_fold_fits(256, 16));   // a broadcast of one
/// assert!(!dense_fold_fits(16, 0));     // computed from splats only
/// ```
pub fn dense_fold_fits(result_elements: usize, dense_operand_elements: usize) -> bool {
    result_elements <= FOLD_ELEMENT_LIMIT && result_elements <= dense_operand_elements
}

/// Evaluates `op` on `operands`, giving a value of type `result_ty` (the instruction's
/// annotated type).
///
/// Every op but `call`, `rng`, `cond`, `while` and `scan` is supported; those return
/// [`InterpError::NotEvaluable`]. Integer division by zero is [`InterpError::DivisionByZero`];
/// operands or types that break the op's typing rule are [`InterpError::Malformed`].
///
/// ```
/// use ptir_ir::{eval_op, BinaryOp, DType, Op, Tensor, TensorType, Value};
/// let ty = TensorType::new(DType::F32, vec![2]);
/// let a = Value::Tensor(Tensor::from_f64(ty.clone(), &[1.0, 2.5]));
/// let b = Value::Tensor(Tensor::from_f64(ty.clone(), &[0.5, 0.5]));
/// let sum = eval_op(&Op::Binary(BinaryOp::Add), &[&a, &b], &ty.clone().into()).unwrap();
/// assert_eq!(sum, Value::Tensor(Tensor::from_f64(ty, &[1.5, 3.0])));
/// ```
pub fn eval_op(op: &Op, operands: &[&Value], result_ty: &Type) -> InterpResult<Value> {
    if matches!(
        op,
        Op::Call { .. } | Op::Rng { .. } | Op::Cond { .. } | Op::While { .. } | Op::Scan { .. }
    ) {
        return Err(InterpError::NotEvaluable(op.name()));
    }
    check_size(result_ty)?;
    operands.iter().try_for_each(|v| check_buffers(v))?;
    let types: Vec<Type> = operands.iter().map(|v| value_type(v)).collect();
    let refs: Vec<&Type> = types.iter().collect();
    let cx = InferContext {
        annotated: Some(result_ty),
        ..InferContext::default()
    };
    infer_type(op, &refs, &cx).map_err(InterpError::Malformed)?;
    let tensors = || {
        operands
            .iter()
            .map(|v| tensor_operand(v))
            .collect::<InterpResult<Vec<_>>>()
    };
    match op {
        Op::Tuple => Ok(Value::Tuple(
            operands.iter().map(|v| (*v).clone()).collect(),
        )),
        Op::OptimizationBarrier => Ok(match operands {
            [v] => (*v).clone(),
            vs => Value::Tuple(vs.iter().map(|v| (*v).clone()).collect()),
        }),
        Op::TupleGet { index } => match operands.first() {
            Some(Value::Tuple(vs)) => vs
                .get(*index)
                .cloned()
                .ok_or_else(|| InterpError::malformed("tuple index out of range")),
            _ => Err(InterpError::malformed("`tuple_get` of a tensor")),
        },
        Op::RngBitGenerator { algorithm } => {
            let ts = tensors()?;
            let results = match (ts.as_slice(), result_ty) {
                ([state], Type::Tuple(parts)) => match parts.as_slice() {
                    [_, Type::Tensor(bits)] => super::rng_bits::eval(*algorithm, state, bits)?,
                    _ => return Err(InterpError::malformed("`rng_bit_generator` result")),
                },
                _ => return Err(InterpError::malformed("`rng_bit_generator` operands")),
            };
            Ok(Value::pack(
                results.into_iter().map(Value::Tensor).collect(),
            ))
        }
        Op::MultiReduce { kind, axes, .. } => {
            let parts: Vec<&Type> = match result_ty {
                Type::Tuple(parts) => parts.iter().collect(),
                one => vec![one],
            };
            let results = tensors()?
                .into_iter()
                .zip(parts)
                .map(|(x, t)| match t {
                    Type::Tensor(t) => reduce::reduce(*kind, axes, x, t),
                    _ => Err(InterpError::malformed(
                        "a `multi_reduce` result is a tensor",
                    )),
                })
                .collect::<InterpResult<Vec<_>>>()?;
            Ok(Value::pack(
                results.into_iter().map(Value::Tensor).collect(),
            ))
        }
        Op::ArgReduce { .. } | Op::Sort { .. } | Op::TopK { .. } => {
            let results = super::sort::eval(op, &tensors()?)?;
            Ok(Value::pack(
                results.into_iter().map(Value::Tensor).collect(),
            ))
        }
        _ => {
            let ts = tensors()?;
            let ty = result_ty
                .as_tensor()
                .ok_or_else(|| InterpError::malformed("tensor op with a tuple result type"))?;
            eval_tensor_op(op, &ts, ty).map(Value::Tensor)
        }
    }
}

/// The tensor ops, on operands already checked against the typing rule.
fn eval_tensor_op(op: &Op, xs: &[&Tensor], ty: &TensorType) -> InterpResult<Tensor> {
    let x = || {
        xs.first()
            .copied()
            .ok_or_else(|| InterpError::malformed("missing operand"))
    };
    let pair = || match xs {
        [a, b, ..] => Ok((*a, *b)),
        _ => Err(InterpError::malformed("missing operand")),
    };
    match op {
        Op::Constant(lit) => Ok(lit.to_tensor(ty)),
        Op::Iota { dim } => Ok(shape_ops::iota(*dim, ty)),
        Op::Unary(u) => kernels::unary(*u, x()?),
        Op::Binary(b) => pair().and_then(|(l, r)| kernels::binary(*b, l, r)),
        Op::Compare(c) => pair().and_then(|(l, r)| kernels::compare(*c, l, r)),
        Op::Select => match xs {
            [p, t, f] => kernels::select(p, t, f),
            _ => Err(InterpError::malformed("`select` takes 3 operands")),
        },
        Op::Cast => kernels::cast(x()?, ty),
        Op::Bitcast => kernels::bitcast(x()?, ty),
        Op::BitcastResize => kernels::bitcast_resize(x()?, ty),
        Op::ReducePrecision {
            exponent_bits,
            mantissa_bits,
        } => kernels::reduce_precision(x()?, *exponent_bits, *mantissa_bits),
        Op::Reshape => Ok(shape_ops::reshape(x()?, ty)),
        Op::Transpose { perm } => Ok(shape_ops::transpose(x()?, perm)),
        Op::Broadcast { dims } => Ok(shape_ops::broadcast(x()?, dims, ty)),
        Op::Slice(s) => Ok(shape_ops::slice(x()?, &s.start, &s.stride, ty)),
        Op::Concat { axis } => shape_ops::concat(xs, *axis, ty),
        Op::DotGeneral(dims) => pair().and_then(|(l, r)| reduce::dot_general(dims, l, r, ty)),
        Op::Gather(g) => pair().and_then(|(x, i)| gather::gather(g, x, i, ty)),
        Op::Scatter { kind, dims } => match xs {
            [x, indices, updates] => gather::scatter(*kind, dims, x, indices, updates),
            _ => Err(InterpError::malformed("`scatter` takes 3 operands")),
        },
        Op::DynamicSlice { .. } => {
            let start = shape_ops::clamped_starts(x()?, &xs[1..], &ty.shape);
            let st = vec![1; ty.rank()];
            Ok(shape_ops::slice(x()?, &start, &st, ty))
        }
        Op::DynamicUpdateSlice => match xs {
            [x, u, indices @ ..] => Ok(shape_ops::update_slice(x, u, indices)),
            _ => Err(InterpError::malformed(
                "`dynamic_update_slice` takes an update",
            )),
        },
        Op::Reduce { kind, axes, .. } => reduce::reduce(*kind, axes, x()?, ty),
        Op::Convolution(c) => pair().and_then(|(l, r)| window::convolution(c, l, r, ty)),
        Op::ReduceWindow { kind, dims } => {
            pair().and_then(|(x, init)| window::reduce_window(*kind, dims, x, init, ty))
        }
        Op::SelectAndScatter { select, dims } => match xs {
            [x, source, init] => window::select_and_scatter(*select, dims, x, source, init),
            _ => Err(InterpError::malformed(
                "`select_and_scatter` takes 3 operands",
            )),
        },
        Op::Pad(p) => pair().and_then(|(x, value)| window::pad(p, x, value, ty)),
        Op::Reverse { dims } => shape_ops::reverse(dims, x()?),
        _ => Err(InterpError::NotEvaluable(op.name())),
    }
}
