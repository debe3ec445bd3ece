//! Shape and dtype inference: the typing rule of every op, shared by the verifier, the builder
//! and the rule language.
//!
//! [`infer_type`] takes an op, its operand types, the result types of its regions (for region
//! ops) and, for ops whose result is not determined by their operands, the annotated result
//! type. It returns the result type or a message naming the rule that is broken.
//! [`region_param_types`] gives the parameter types that each region of a region op must have.

use crate::ops::{DotDims, Op, ReduceKind, RngDist};
use crate::program::Signature;
use crate::types::{DType, Shape, TensorType, Type};

/// What the inference needs from outside the op itself.
#[derive(Clone, Copy, Debug, Default)]
pub struct InferContext<'a> {
    /// The annotated result type, required by `constant`, `cast`, `reshape`, `broadcast`, `rng`
    /// and calls of shape-polymorphic externs; checked against the inferred type otherwise.
    pub annotated: Option<&'a Type>,
    /// The callee's signature, for `call` (`None`: a polymorphic extern).
    pub callee: Option<&'a Signature>,
    /// The result types of each region, for region ops.
    pub region_results: &'a [Vec<Type>],
}

type Result<T> = std::result::Result<T, String>;

fn tensor<'t>(t: &'t Type, what: &str) -> Result<&'t TensorType> {
    t.as_tensor()
        .ok_or_else(|| format!("{what} must be a tensor, found {t}"))
}

fn arity(op: &Op, operands: &[&Type], n: usize) -> Result<()> {
    if operands.len() == n {
        Ok(())
    } else {
        Err(format!(
            "`{}` takes {n} operand(s), found {}",
            op.name(),
            operands.len()
        ))
    }
}

fn annotated<'a>(op: &Op, cx: &InferContext<'a>) -> Result<&'a Type> {
    cx.annotated
        .ok_or_else(|| format!("`{}` needs an annotated result type", op.name()))
}

pub use crate::axes::check_axes;

/// Is `perm` a permutation of `0..perm.len()`?
pub fn is_permutation(perm: &[usize]) -> bool {
    check_axes(perm, perm.len(), "axis").is_ok()
}

/// Infers the result type of `op` applied to operands of types `operands`.
///
/// ```
/// use ptir_ir::{infer_type, BinaryOp, DType, InferContext, Op, TensorType, Type};
/// let t: Type = TensorType::new(DType::F32, vec![2, 3]).into();
/// let r = infer_type(&Op::Binary(BinaryOp::Add), &[&t, &t], &InferContext::default());
/// assert_eq!(r, Ok(t.clone()));
/// let bad = infer_type(&Op::Binary(BinaryOp::Add), &[&t], &InferContext::default());
/// assert!(bad.unwrap_err().contains("takes 2 operand(s)"));
/// ```
pub fn infer_type(op: &Op, operands: &[&Type], cx: &InferContext<'_>) -> Result<Type> {
    let inferred = infer_unchecked(op, operands, cx)?;
    match cx.annotated {
        Some(a) if !inferred.equals(a) => Err(mismatch(a, inferred)),
        _ => Ok(inferred.into_owned()),
    }
}

/// What [`infer_type`] checks, without building the inferred type when it is equal to (a
/// part of) an operand type, the annotated type or a signature's: `Ok` exactly when
/// `infer_type` is `Ok`, and the same message otherwise. This is the verifier's path.
pub(crate) fn check_inferred_type(
    op: &Op,
    operands: &[&Type],
    cx: &InferContext<'_>,
) -> Result<()> {
    let inferred = infer_unchecked(op, operands, cx)?;
    match cx.annotated {
        Some(a) if !inferred.equals(a) => Err(mismatch(a, inferred)),
        _ => Ok(()),
    }
}

fn mismatch(annotated: &Type, inferred: Inferred<'_>) -> String {
    format!(
        "result type {annotated} does not match the inferred type {}",
        inferred.into_owned()
    )
}

/// An inferred type, borrowed where it equals a type that already exists.
enum Inferred<'a> {
    /// This type.
    Is(&'a Type),
    /// This tensor type.
    Tensor(&'a TensorType),
    /// This tensor type's shape with another dtype.
    WithDtype(&'a TensorType, DType),
    /// `Type::pack` of these types.
    Pack(&'a [Type]),
    /// Built.
    Owned(Type),
}

impl Inferred<'_> {
    fn equals(&self, t: &Type) -> bool {
        match self {
            Inferred::Is(x) => *x == t,
            Inferred::Tensor(x) => t.as_tensor() == Some(*x),
            Inferred::WithDtype(x, d) => t
                .as_tensor()
                .is_some_and(|t| t.dtype == *d && t.shape == x.shape),
            Inferred::Pack([one]) => one == t,
            Inferred::Pack(ts) => t.as_tuple() == Some(*ts),
            Inferred::Owned(x) => x == t,
        }
    }

    fn into_owned(self) -> Type {
        match self {
            Inferred::Is(x) => x.clone(),
            Inferred::Tensor(x) => x.clone().into(),
            Inferred::WithDtype(x, d) => x.with_dtype(d).into(),
            Inferred::Pack(ts) => Type::pack(ts.to_vec()),
            Inferred::Owned(x) => x,
        }
    }
}

impl From<Type> for Inferred<'_> {
    fn from(t: Type) -> Self {
        Inferred::Owned(t)
    }
}

fn infer_unchecked<'a>(
    op: &Op,
    operands: &[&'a Type],
    cx: &InferContext<'a>,
) -> Result<Inferred<'a>> {
    match op {
        Op::Constant(lit) => {
            arity(op, operands, 0)?;
            let ty = tensor(annotated(op, cx)?, "constant type")?;
            check_literal(lit, ty)?;
            Ok(Inferred::Tensor(ty))
        }
        Op::Iota { dim } => {
            arity(op, operands, 0)?;
            let ty = tensor(annotated(op, cx)?, "iota type")?;
            if *dim >= ty.shape.len() {
                return Err(format!("iota dimension {dim} is out of range for {ty}"));
            }
            if ty.dtype == DType::Bool {
                return Err("`iota` is not defined on bool".into());
            }
            Ok(Inferred::Tensor(ty))
        }
        Op::Unary(u) => {
            arity(op, operands, 1)?;
            let t = tensor(operands[0], "operand")?;
            if !u.dtype_class().admits(t.dtype) {
                return Err(format!("`{u}` is not defined on {}", t.dtype));
            }
            Ok(Inferred::Tensor(t))
        }
        Op::Binary(b) => {
            arity(op, operands, 2)?;
            let t = same_types(operands[0], operands[1])?;
            if !b.dtype_class().admits(t.dtype) {
                return Err(format!("`{b}` is not defined on {}", t.dtype));
            }
            Ok(Inferred::Tensor(t))
        }
        Op::Compare(_) => {
            arity(op, operands, 2)?;
            let t = same_types(operands[0], operands[1])?;
            Ok(Inferred::WithDtype(t, DType::Bool))
        }
        Op::Select => {
            arity(op, operands, 3)?;
            let p = tensor(operands[0], "predicate")?;
            let t = same_types(operands[1], operands[2])?;
            if p.dtype != DType::Bool || p.shape != t.shape {
                return Err(format!("predicate must be bool{:?}, found {p}", t.shape));
            }
            Ok(Inferred::Tensor(t))
        }
        Op::Cast => {
            arity(op, operands, 1)?;
            let x = tensor(operands[0], "operand")?;
            let r = tensor(annotated(op, cx)?, "cast result")?;
            if x.shape != r.shape {
                return Err(format!("cast cannot change the shape ({x} to {r})"));
            }
            Ok(Inferred::Tensor(r))
        }
        Op::Bitcast => {
            arity(op, operands, 1)?;
            let x = tensor(operands[0], "operand")?;
            let r = tensor(annotated(op, cx)?, "bitcast result")?;
            if x.shape != r.shape {
                return Err(format!("bitcast cannot change the shape ({x} to {r})"));
            }
            if x.dtype == DType::Bool || r.dtype == DType::Bool {
                return Err(format!("bitcast takes no bool ({x} to {r})"));
            }
            if x.dtype.bits() != r.dtype.bits() {
                return Err(format!(
                    "bitcast cannot change the width ({x} to {r}: {} to {} bits)",
                    x.dtype.bits(),
                    r.dtype.bits()
                ));
            }
            Ok(Inferred::Tensor(r))
        }
        Op::BitcastResize => {
            arity(op, operands, 1)?;
            let x = tensor(operands[0], "operand")?;
            let r = tensor(annotated(op, cx)?, "bitcast_resize result")?;
            if x.dtype == DType::Bool || r.dtype == DType::Bool {
                return Err(format!("bitcast_resize takes no bool ({x} to {r})"));
            }
            let (from, to) = (x.dtype.bits(), r.dtype.bits());
            let (narrow, wide, k) = match from.cmp(&to) {
                std::cmp::Ordering::Less => (x, r, to / from),
                std::cmp::Ordering::Greater => (r, x, from / to),
                std::cmp::Ordering::Equal => {
                    return Err(format!(
                        "bitcast_resize changes the width ({x} to {r}): use bitcast"
                    ))
                }
            };
            if narrow.shape.split_last() != Some((&(k as usize), wide.shape.as_slice())) {
                return Err(format!(
                    "bitcast_resize from {x} to {r}: the narrower side has the wider's shape and one more dim of {k}"
                ));
            }
            Ok(Inferred::Tensor(r))
        }
        Op::Reshape => {
            arity(op, operands, 1)?;
            let x = tensor(operands[0], "operand")?;
            let r = tensor(annotated(op, cx)?, "reshape result")?;
            let count = |t: &TensorType| {
                t.checked_num_elements()
                    .ok_or_else(|| format!("the element count of {t} overflows"))
            };
            if x.dtype != r.dtype || count(x)? != count(r)? {
                return Err(format!(
                    "reshape must keep dtype and element count ({x} to {r})"
                ));
            }
            Ok(Inferred::Tensor(r))
        }
        Op::Transpose { perm } => {
            arity(op, operands, 1)?;
            let x = tensor(operands[0], "operand")?;
            if perm.len() != x.rank() || !is_permutation(perm) {
                return Err(format!(
                    "{perm:?} is not a permutation of rank {}",
                    x.rank()
                ));
            }
            let shape = perm.iter().map(|&p| x.shape[p]).collect::<Shape>();
            Ok(Type::from(TensorType::new(x.dtype, shape)).into())
        }
        Op::Broadcast { dims } => {
            arity(op, operands, 1)?;
            let x = tensor(operands[0], "operand")?;
            let r = tensor(annotated(op, cx)?, "broadcast result")?;
            check_broadcast(x, dims, r)?;
            Ok(Inferred::Tensor(r))
        }
        Op::Slice(slice) => {
            arity(op, operands, 1)?;
            let x = tensor(operands[0], "operand")?;
            slice_type(x, &slice.start, &slice.limit, &slice.stride).map(|t| Type::from(t).into())
        }
        Op::Concat { axis } => {
            if operands.is_empty() {
                return Err("`concat` takes at least one operand".into());
            }
            let first = tensor(operands[0], "operand")?;
            if *axis >= first.rank() {
                return Err(format!(
                    "axis {axis} is out of range for rank {}",
                    first.rank()
                ));
            }
            let mut shape = first.shape.clone();
            shape[*axis] = 0;
            for t in operands {
                let t = tensor(t, "operand")?;
                let same_other_dims = t.rank() == first.rank()
                    && (0..t.rank()).all(|d| d == *axis || t.shape[d] == first.shape[d]);
                if t.dtype != first.dtype || !same_other_dims {
                    return Err(format!(
                        "operands {first} and {t} cannot be concatenated on axis {axis}"
                    ));
                }
                shape[*axis] = shape[*axis]
                    .checked_add(t.shape[*axis])
                    .ok_or_else(|| format!("the concatenated dim {axis} overflows"))?;
            }
            Ok(Type::from(TensorType::new(first.dtype, shape)).into())
        }
        Op::Gather(g) => {
            arity(op, operands, 2)?;
            let x = tensor(operands[0], "operand")?;
            let indices = tensor(operands[1], "indices")?;
            crate::gather::gather_type(x, indices, g).map(|t| Type::from(t).into())
        }
        Op::Scatter { kind, dims } => {
            arity(op, operands, 3)?;
            let x = tensor(operands[0], "operand")?;
            let indices = tensor(operands[1], "indices")?;
            let updates = tensor(operands[2], "updates")?;
            crate::gather::scatter_type(*kind, x, indices, updates, dims)
                .map(|t| Type::from(t).into())
        }
        Op::DynamicSlice { sizes } => {
            let x = tensor(
                operands.first().ok_or("`dynamic_slice` needs an operand")?,
                "operand",
            )?;
            check_start_indices(op, x, &operands[1..])?;
            if sizes.len() != x.rank() || sizes.iter().zip(&x.shape).any(|(s, d)| s > d) {
                return Err(format!("slice sizes {sizes:?} do not fit in {x}"));
            }
            Ok(Type::from(TensorType::new(x.dtype, sizes.clone())).into())
        }
        Op::DynamicUpdateSlice => {
            let [x, u, indices @ ..] = operands else {
                return Err("`dynamic_update_slice` needs an operand and an update".into());
            };
            let (x, u) = (tensor(x, "operand")?, tensor(u, "update")?);
            check_start_indices(op, x, indices)?;
            if u.dtype != x.dtype
                || u.rank() != x.rank()
                || u.shape.iter().zip(&x.shape).any(|(s, d)| s > d)
            {
                return Err(format!("the update {u} does not fit in {x}"));
            }
            Ok(Inferred::Tensor(x))
        }
        Op::DotGeneral(dims) => {
            arity(op, operands, 2)?;
            let l = tensor(operands[0], "lhs")?;
            let r = tensor(operands[1], "rhs")?;
            dot_general_type(l, r, dims).map(|t| Type::from(t).into())
        }
        Op::Convolution(c) => {
            arity(op, operands, 2)?;
            let l = tensor(operands[0], "input")?;
            let r = tensor(operands[1], "kernel")?;
            crate::window::convolution_type(l, r, c).map(|t| Type::from(t).into())
        }
        Op::ReduceWindow { kind, dims } => {
            arity(op, operands, 2)?;
            let x = tensor(operands[0], "operand")?;
            let init = tensor(operands[1], "init")?;
            crate::window::reduce_window_type(*kind, x, init, dims).map(|t| Type::from(t).into())
        }
        Op::SelectAndScatter { select, dims } => {
            arity(op, operands, 3)?;
            let x = tensor(operands[0], "operand")?;
            let source = tensor(operands[1], "source")?;
            let init = tensor(operands[2], "init")?;
            crate::window::select_and_scatter_type(*select, x, source, init, dims)?;
            Ok(Inferred::Tensor(x))
        }
        Op::Pad(p) => {
            arity(op, operands, 2)?;
            let x = tensor(operands[0], "operand")?;
            let value = tensor(operands[1], "padding value")?;
            crate::window::pad_type(x, value, p).map(|t| Type::from(t).into())
        }
        Op::Reverse { dims } => {
            arity(op, operands, 1)?;
            let x = tensor(operands[0], "operand")?;
            check_axes(dims, x.rank(), "reversed dim")?;
            Ok(Inferred::Tensor(x))
        }
        Op::ArgReduce { axes, .. } => {
            arity(op, operands, 4)?;
            let x = tensor(operands[0], "values")?;
            let i = tensor(operands[1], "indices")?;
            let x0 = tensor(operands[2], "initial value")?;
            let i0 = tensor(operands[3], "initial index")?;
            check_axes(axes, x.rank(), "axis")?;
            if x.dtype == DType::Bool {
                return Err(format!("`{}` is not defined on bool values", op.name()));
            }
            if !i.dtype.is_int() || i.shape != x.shape {
                return Err(format!(
                    "the indices must be integers of the values' shape {:?}, found {i}",
                    x.shape
                ));
            }
            if *x0 != TensorType::scalar(x.dtype) || *i0 != TensorType::scalar(i.dtype) {
                return Err(format!(
                    "the initial value and index must be scalars {} and {}, found {x0} and {i0}",
                    TensorType::scalar(x.dtype),
                    TensorType::scalar(i.dtype)
                ));
            }
            let shape = reduced_shape(&x.shape, axes, false);
            Ok(Type::Tuple(vec![
                TensorType::new(x.dtype, shape.clone()).into(),
                TensorType::new(i.dtype, shape).into(),
            ])
            .into())
        }
        Op::Sort { dim, keys, .. } => {
            let key = tensor(
                operands
                    .first()
                    .ok_or("`sort` needs at least one operand")?,
                "key",
            )?;
            if *keys == 0 || *keys > operands.len() {
                return Err(format!(
                    "`sort` of {} operand(s) with keys={keys}: the keys are 1 to all of its operands",
                    operands.len()
                ));
            }
            check_axes(&[*dim], key.rank(), "sorted dim")?;
            for (n, t) in operands.iter().enumerate() {
                let t = tensor(t, "sorted operand")?;
                if t.shape != key.shape {
                    return Err(format!(
                        "operand {n} of `sort` has shape {:?}, the key {:?}",
                        t.shape, key.shape
                    ));
                }
                if n < *keys && t.dtype == DType::Bool {
                    return Err(format!("`sort` needs numeric keys, key {n} is bool"));
                }
            }
            Ok(Type::pack(operands.iter().map(|t| (*t).clone()).collect()).into())
        }
        Op::ReducePrecision {
            exponent_bits,
            mantissa_bits,
        } => {
            arity(op, operands, 1)?;
            let x = tensor(operands[0], "operand")?;
            if !x.dtype.is_float() {
                return Err(format!(
                    "`reduce_precision` needs a float operand, found {x}"
                ));
            }
            if *exponent_bits == 0 || *exponent_bits > 32 || *mantissa_bits > 64 {
                return Err(format!(
                    "`reduce_precision` to {exponent_bits} exponent and {mantissa_bits} mantissa bits: \
                     the exponent needs 1 to 32 bits, the mantissa at most 64"
                ));
            }
            Ok(Inferred::Tensor(x))
        }
        Op::TopK { k } => {
            arity(op, operands, 1)?;
            let x = tensor(operands[0], "operand")?;
            let Some(&last) = x.shape.last() else {
                return Err("`top_k` needs an operand of rank 1 or more".into());
            };
            if x.dtype == DType::Bool {
                return Err("`top_k` needs a numeric operand, found bool".into());
            }
            if *k > last {
                return Err(format!("k={k} exceeds the last dim {last} of {x}"));
            }
            let mut shape = x.shape.clone();
            if let Some(l) = shape.last_mut() {
                *l = *k;
            }
            Ok(Type::Tuple(vec![
                TensorType::new(x.dtype, shape.clone()).into(),
                TensorType::new(DType::I32, shape).into(),
            ])
            .into())
        }
        Op::Reduce {
            kind,
            axes,
            keep_dims,
        } => {
            arity(op, operands, 1)?;
            let x = tensor(operands[0], "operand")?;
            check_axes(axes, x.rank(), "axis")?;
            if *kind != ReduceKind::Max && x.dtype == DType::Bool {
                return Err(format!("`{}` is not defined on bool", kind.name()));
            }
            let shape = reduced_shape(&x.shape, axes, *keep_dims);
            Ok(Type::from(TensorType::new(x.dtype, shape)).into())
        }
        Op::MultiReduce {
            kind,
            axes,
            keep_dims,
        } => {
            let first = tensor(
                operands
                    .first()
                    .ok_or_else(|| format!("`{}` needs at least one operand", kind.multi_name()))?,
                "operand",
            )?;
            check_axes(axes, first.rank(), "axis")?;
            let shape = reduced_shape(&first.shape, axes, *keep_dims);
            let mut results = Vec::with_capacity(operands.len());
            for (n, t) in operands.iter().enumerate() {
                let t = tensor(t, "operand")?;
                if t.shape != first.shape {
                    return Err(format!(
                        "operand {n} of `{}` has shape {:?}, operand 0 {:?}",
                        kind.multi_name(),
                        t.shape,
                        first.shape
                    ));
                }
                if *kind != ReduceKind::Max && t.dtype == DType::Bool {
                    return Err(format!("`{}` is not defined on bool", kind.multi_name()));
                }
                results.push(TensorType::new(t.dtype, shape.clone()).into());
            }
            Ok(Type::pack(results).into())
        }
        Op::Call { callee } => match cx.callee {
            Some(sig) => {
                let same = operands.len() == sig.params.len()
                    && operands.iter().zip(&sig.params).all(|(a, b)| *a == b);
                if !same {
                    let found: Vec<Type> = operands.iter().map(|t| (*t).clone()).collect();
                    return Err(format!(
                        "call of @{callee} passes {} but it takes {}",
                        list(&found),
                        list(&sig.params)
                    ));
                }
                Ok(Inferred::Pack(&sig.results))
            }
            None => Ok(Inferred::Is(annotated(op, cx)?)),
        },
        Op::Rng { dist } => {
            arity(op, operands, 0)?;
            let r = tensor(annotated(op, cx)?, "rng result")?;
            if *dist == RngDist::Normal && !r.dtype.is_float() {
                return Err("`rng normal` needs a float dtype".into());
            }
            Ok(Inferred::Tensor(r))
        }
        Op::RngBitGenerator { .. } => {
            arity(op, operands, 1)?;
            let state = tensor(operands[0], "state")?;
            if !matches!(state.dtype, DType::U64 | DType::I64)
                || !matches!(state.shape.as_slice(), [2] | [3])
            {
                return Err(format!(
                    "the state of `rng_bit_generator` is u64[2] or u64[3] (or i64), found {state}"
                ));
            }
            let r = annotated(op, cx)?;
            let bits = match r {
                Type::Tuple(parts) => match parts.as_slice() {
                    [Type::Tensor(s), Type::Tensor(b)] if s == state => Some(b),
                    _ => None,
                },
                _ => None,
            }
            .ok_or_else(|| {
                format!("`rng_bit_generator` gives a tuple ({state}, bits), annotated {r}")
            })?;
            if !(bits.dtype.is_int() || bits.dtype == DType::F32) {
                return Err(format!(
                    "`rng_bit_generator` gives integers (or f32 bit patterns), found {bits}"
                ));
            }
            Ok(Inferred::Is(r))
        }
        Op::Cond { .. } => {
            arity(op, operands, 1)?;
            let p = tensor(operands[0], "predicate")?;
            if *p != TensorType::scalar(DType::Bool) {
                return Err(format!("predicate must be bool[], found {p}"));
            }
            let [then_r, else_r] = region_results::<2>(cx)?;
            if then_r != else_r {
                return Err(format!(
                    "branches yield different types: {} and {}",
                    list(then_r),
                    list(else_r)
                ));
            }
            Ok(Inferred::Pack(then_r))
        }
        Op::While { .. } => {
            if operands.is_empty() {
                return Err("`while` takes at least one carried value".into());
            }
            let carried: Vec<Type> = operands.iter().map(|t| (*t).clone()).collect();
            let [cond_r, body_r] = region_results::<2>(cx)?;
            if *cond_r != [Type::from(TensorType::scalar(DType::Bool))] {
                return Err(format!(
                    "cond region must yield bool[], yields {}",
                    list(cond_r)
                ));
            }
            if *body_r != carried {
                return Err(format!(
                    "body yields {} but the loop carries {}",
                    list(body_r),
                    list(&carried)
                ));
            }
            Ok(Type::pack(carried).into())
        }
        Op::Scan {
            num_carry, length, ..
        } => {
            scan_xs(operands, *num_carry, *length)?;
            let carried: Vec<Type> = operands[..*num_carry]
                .iter()
                .map(|t| (*t).clone())
                .collect();
            let [body_r] = region_results::<1>(cx)?;
            if body_r.len() < *num_carry || body_r[..*num_carry] != carried[..] {
                return Err(format!(
                    "body yields {} but the scan carries {}",
                    list(body_r),
                    list(&carried)
                ));
            }
            let mut results = carried;
            for y in &body_r[*num_carry..] {
                let y = tensor(y, "scan output")?;
                let mut shape = vec![*length];
                shape.extend(&y.shape);
                results.push(TensorType::new(y.dtype, shape).into());
            }
            Ok(Type::pack(results).into())
        }
        Op::Tuple => Ok(Type::Tuple(operands.iter().map(|t| (*t).clone()).collect()).into()),
        Op::OptimizationBarrier => {
            if operands.is_empty() {
                return Err("`optimization_barrier` needs an operand".into());
            }
            for (i, t) in operands.iter().enumerate() {
                tensor(t, &format!("operand {i}"))?;
            }
            Ok(Type::pack(operands.iter().map(|t| (*t).clone()).collect()).into())
        }
        Op::TupleGet { index } => {
            arity(op, operands, 1)?;
            let elems = operands[0]
                .as_tuple()
                .ok_or_else(|| format!("operand must be a tuple, found {}", operands[0]))?;
            elems
                .get(*index)
                .map(Inferred::Is)
                .ok_or_else(|| format!("index {index} is out of range for {}", operands[0]))
        }
    }
}

/// The parameter types each region of a region op must declare, given the operand types.
pub fn region_param_types(op: &Op, operands: &[&Type]) -> Result<Vec<Vec<Type>>> {
    let owned = || operands.iter().map(|t| (*t).clone()).collect::<Vec<_>>();
    match op {
        Op::Cond { .. } => Ok(vec![vec![], vec![]]),
        Op::While { .. } => Ok(vec![owned(), owned()]),
        Op::Scan {
            num_carry, length, ..
        } => {
            scan_xs(operands, *num_carry, *length)?;
            let mut params = owned()[..*num_carry].to_vec();
            for x in &operands[*num_carry..] {
                let x = tensor(x, "scanned operand")?;
                params.push(TensorType::new(x.dtype, x.shape[1..].to_vec()).into());
            }
            Ok(vec![params])
        }
        _ => Ok(vec![]),
    }
}

fn scan_xs(operands: &[&Type], num_carry: usize, length: usize) -> Result<()> {
    if num_carry > operands.len() {
        return Err(format!(
            "num_carry={num_carry} but only {} operands",
            operands.len()
        ));
    }
    for x in &operands[num_carry..] {
        let x = tensor(x, "scanned operand")?;
        if x.shape.first() != Some(&length) {
            return Err(format!(
                "scanned operand {x} must have leading dim {length}"
            ));
        }
    }
    Ok(())
}

fn region_results<'a, const N: usize>(cx: &InferContext<'a>) -> Result<[&'a Vec<Type>; N]> {
    let rs: Vec<&Vec<Type>> = cx.region_results.iter().collect();
    rs.try_into()
        .map_err(|_| format!("expected {N} region(s), found {}", cx.region_results.len()))
}

fn list(ts: &[Type]) -> String {
    let items: Vec<String> = ts.iter().map(Type::to_string).collect();
    format!("({})", items.join(", "))
}

fn same_types<'t>(a: &'t Type, b: &'t Type) -> Result<&'t TensorType> {
    let ta = tensor(a, "operand")?;
    let tb = tensor(b, "operand")?;
    if ta != tb {
        return Err(format!(
            "operands must have the same type, found {ta} and {tb}"
        ));
    }
    Ok(ta)
}

/// Checks a `broadcast` from `x` with `dims` to `r`.
pub fn check_broadcast(x: &TensorType, dims: &[usize], r: &TensorType) -> Result<()> {
    if x.dtype != r.dtype {
        return Err(format!("broadcast cannot change the dtype ({x} to {r})"));
    }
    if dims.len() != x.rank() {
        return Err(format!(
            "dims {dims:?} must map each of the {} operand dims",
            x.rank()
        ));
    }
    check_axes(dims, r.rank(), "result dim")?;
    for (i, &d) in dims.iter().enumerate() {
        if x.shape[i] != 1 && x.shape[i] != r.shape[d] {
            return Err(format!(
                "operand dim {i} (size {}) cannot broadcast to result dim {d} (size {})",
                x.shape[i], r.shape[d]
            ));
        }
    }
    Ok(())
}

/// The type of a strided slice.
pub fn slice_type(
    x: &TensorType,
    start: &[usize],
    limit: &[usize],
    stride: &[usize],
) -> Result<TensorType> {
    if start.len() != x.rank() || limit.len() != x.rank() || stride.len() != x.rank() {
        return Err(format!(
            "start, limit and stride need {} entries each",
            x.rank()
        ));
    }
    let mut shape = Vec::with_capacity(x.rank());
    for d in 0..x.rank() {
        if start[d] > limit[d] || limit[d] > x.shape[d] || stride[d] == 0 {
            return Err(format!(
                "dim {d}: need start <= limit <= {} and stride >= 1, found {}..{} step {}",
                x.shape[d], start[d], limit[d], stride[d]
            ));
        }
        shape.push((limit[d] - start[d]).div_ceil(stride[d]));
    }
    Ok(TensorType::new(x.dtype, shape))
}

/// The shape after reducing `axes`.
pub fn reduced_shape(shape: &[usize], axes: &[usize], keep_dims: bool) -> Shape {
    (0..shape.len())
        .filter_map(|d| match (axes.contains(&d), keep_dims) {
            (false, _) => Some(shape[d]),
            (true, true) => Some(1),
            (true, false) => None,
        })
        .collect()
}

/// The free (neither batch nor contracting) dims of an operand of rank `rank`.
pub fn free_dims(rank: usize, batch: &[usize], contract: &[usize]) -> Vec<usize> {
    free_axes(rank, batch, contract).collect()
}

/// [`free_dims`] without a vector.
fn free_axes<'a>(
    rank: usize,
    batch: &'a [usize],
    contract: &'a [usize],
) -> impl Iterator<Item = usize> + 'a {
    (0..rank).filter(move |d| !batch.contains(d) && !contract.contains(d))
}

/// The type of `dot_general(l, r)`.
pub fn dot_general_type(l: &TensorType, r: &TensorType, dims: &DotDims) -> Result<TensorType> {
    if l.dtype == DType::Bool || r.dtype == DType::Bool {
        return Err(format!(
            "dot_general of bool operands ({l} and {r}) is not supported: convert them to an \
             integer dtype first (in JAX, `jnp.dot(a.astype(jnp.int32), b.astype(jnp.int32)) > 0`)"
        ));
    }
    if l.dtype != r.dtype {
        return Err(format!(
            "dot_general needs equal numeric dtypes, found {l} and {r}"
        ));
    }
    if dims.lhs_batch.len() != dims.rhs_batch.len()
        || dims.lhs_contract.len() != dims.rhs_contract.len()
    {
        return Err("batch and contracting dims must pair up".into());
    }
    // On the stack: the analysis of saturation types every product it builds.
    type Axes = smallvec::SmallVec<[usize; 8]>;
    let lhs_all: Axes = (dims.lhs_batch.iter().chain(&dims.lhs_contract))
        .copied()
        .collect();
    let rhs_all: Axes = (dims.rhs_batch.iter().chain(&dims.rhs_contract))
        .copied()
        .collect();
    check_axes(&lhs_all, l.rank(), "lhs dim")?;
    check_axes(&rhs_all, r.rank(), "rhs dim")?;
    for (&a, &b) in lhs_all.iter().zip(&rhs_all) {
        if l.shape[a] != r.shape[b] {
            return Err(format!(
                "lhs dim {a} (size {}) and rhs dim {b} (size {}) must be equal",
                l.shape[a], r.shape[b]
            ));
        }
    }
    let mut shape: Shape =
        Vec::with_capacity(l.rank() + r.rank() - lhs_all.len() - dims.rhs_contract.len());
    shape.extend(dims.lhs_batch.iter().map(|&d| l.shape[d]));
    shape.extend(free_axes(l.rank(), &dims.lhs_batch, &dims.lhs_contract).map(|d| l.shape[d]));
    shape.extend(free_axes(r.rank(), &dims.rhs_batch, &dims.rhs_contract).map(|d| r.shape[d]));
    if dims.precision == Some([crate::ops::Precision::Default; 2]) {
        return Err(
            "dot_general precision (default, default) is written as no precision".to_string(),
        );
    }
    let dtype = match dims.result_dtype {
        None => l.dtype,
        Some(d) if widens(l.dtype, d) => d,
        Some(d) => {
            return Err(format!(
                "dot_general of {} operands cannot accumulate in {d} (a wider type of the same kind is needed)",
                l.dtype
            ))
        }
    };
    Ok(TensorType::new(dtype, shape))
}

/// The start indices of a dynamic slice or update of `x`: one scalar integer per dim, all of
/// one dtype.
fn check_start_indices(op: &Op, x: &TensorType, indices: &[&Type]) -> Result<()> {
    if indices.len() != x.rank() {
        return Err(format!(
            "`{}` of {x} needs {} start indices, found {}",
            op.name(),
            x.rank(),
            indices.len()
        ));
    }
    let first = indices.first().and_then(|t| t.as_tensor()).map(|t| t.dtype);
    for t in indices {
        let t = tensor(t, "start index")?;
        if t.rank() != 0 || !t.dtype.is_int() || Some(t.dtype) != first {
            return Err(format!(
                "the start indices of `{}` must be integer scalars of one dtype, found {t}",
                op.name()
            ));
        }
    }
    Ok(())
}

/// Is every value of dtype `from` exactly a value of `to`, both floats or both integers?
/// The result types a `dot_general` or `convolution` may accumulate in: JAX's
/// `preferred_element_type`, f16/bf16 into f32, and the int8 matmul's `i8 x i8 -> i32`
/// (every integer into a wider one that holds all its values, signed or not). Products and
/// sums are computed in `to`, so an int8 product never wraps at 8 bits.
pub(crate) fn widens(from: DType, to: DType) -> bool {
    from == to
        || ((from.is_float() && to.is_float()) || (from.is_int() && to.is_int()))
            && from.embeds_exactly_in(to)
}

/// Checks that `lit` is a valid payload for a constant of type `ty`.
pub fn check_literal(lit: &crate::tensor::Literal, ty: &TensorType) -> Result<()> {
    let fits_all = |d: &crate::tensor::Data| d.iter().all(|s| s.fits(ty.dtype));
    match lit {
        crate::tensor::Literal::Splat(s) if !s.fits(ty.dtype) => {
            Err(format!("splat value {s} is not a {}", ty.dtype))
        }
        crate::tensor::Literal::Dense(d) if d.len() != ty.num_elements() => Err(format!(
            "dense literal has {} elements, {ty} needs {}",
            d.len(),
            ty.num_elements()
        )),
        crate::tensor::Literal::Dense(d) if !fits_all(d) => {
            Err(format!("dense literal elements are not all {}", ty.dtype))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(shape: &[usize]) -> Type {
        TensorType::new(DType::F32, shape.to_vec()).into()
    }

    #[test]
    fn dot_general_with_batch_dims() {
        let dims = DotDims::batch_matmul();
        let r = infer_type(
            &Op::DotGeneral(Box::new(dims)),
            &[&t(&[2, 3, 4]), &t(&[2, 4, 5])],
            &InferContext::default(),
        );
        assert_eq!(r, Ok(t(&[2, 3, 5])));
    }

    /// Two `DEFAULT` precisions are written as none: the other spelling does not verify
    /// (equal dots must compare equal and print back as they were).
    #[test]
    fn dot_general_precision_has_one_spelling_for_default() {
        use crate::ops::Precision;
        let typed = |precision| {
            let dims = DotDims {
                precision,
                ..DotDims::matmul()
            };
            let operands = [&t(&[2, 3]), &t(&[3, 4])];
            infer_type(
                &Op::DotGeneral(Box::new(dims)),
                &operands,
                &InferContext::default(),
            )
        };
        assert_eq!(typed(None), Ok(t(&[2, 4])));
        assert_eq!(
            typed(Some([Precision::High, Precision::Default])),
            Ok(t(&[2, 4]))
        );
        let err = typed(Some([Precision::Default; 2])).unwrap_err();
        assert!(err.contains("written as no precision"), "{err}");
    }

    #[test]
    fn reduce_keeps_or_drops_dims() {
        assert_eq!(reduced_shape(&[2, 3, 4], &[1], true), vec![2, 1, 4]);
        assert_eq!(reduced_shape(&[2, 3, 4], &[0, 2], false), vec![3]);
    }

    #[test]
    fn broadcast_rules() {
        let x = TensorType::new(DType::F32, vec![3, 1]);
        let r = TensorType::new(DType::F32, vec![2, 3, 4]);
        assert!(check_broadcast(&x, &[1, 2], &r).is_ok());
        assert!(check_broadcast(&x, &[0, 2], &r).is_err());
    }

    #[test]
    fn slice_shape_rounds_up() {
        let x = TensorType::new(DType::F32, vec![10]);
        assert_eq!(
            slice_type(&x, &[1], &[8], &[3]).map(|t| t.shape),
            Ok(vec![3])
        );
        assert!(slice_type(&x, &[0], &[11], &[1]).is_err());
    }

    #[test]
    fn annotation_must_agree() {
        let cx = InferContext {
            annotated: Some(&t(&[3])),
            ..Default::default()
        };
        let r = infer_type(&Op::Unary(crate::ops::UnaryOp::Exp), &[&t(&[2])], &cx);
        assert!(r.unwrap_err().contains("does not match"));
    }

    #[test]
    fn huge_shapes_are_errors_not_wraparounds() {
        let huge = t(&[1 << 32, 1 << 32, 1 << 32]);
        // Saturating counts made these two "equal".
        let other = t(&[1 << 33, 1 << 32, 1 << 32]);
        let cx = InferContext {
            annotated: Some(&other),
            ..InferContext::default()
        };
        let r = infer_type(&Op::Reshape, &[&huge], &cx);
        assert!(r.unwrap_err().contains("overflows"));
        let half = t(&[usize::MAX / 2 + 1]);
        let r = infer_type(
            &Op::Concat { axis: 0 },
            &[&half, &half],
            &InferContext::default(),
        );
        assert_eq!(r, Err("the concatenated dim 0 overflows".to_string()));
    }

    #[test]
    fn barriers_precision_and_products_check_their_operands() {
        let cx = InferContext::default();
        let f = t(&[2]);
        let i: Type = TensorType::new(DType::I32, vec![2]).into();
        let b: Type = TensorType::new(DType::Bool, vec![2]).into();
        let pair = Type::Tuple(vec![f.clone(), i.clone()]);
        let barrier = Op::OptimizationBarrier;
        assert_eq!(infer_type(&barrier, &[&f], &cx), Ok(f.clone()));
        assert_eq!(infer_type(&barrier, &[&f, &i], &cx), Ok(pair.clone()));
        assert!(infer_type(&barrier, &[], &cx).is_err());
        let e = infer_type(&barrier, &[&f, &pair], &cx).unwrap_err();
        assert!(e.contains("operand 1 must be a tensor"), "{e}");
        let rp = |e: usize, m: usize| Op::ReducePrecision {
            exponent_bits: e,
            mantissa_bits: m,
        };
        assert_eq!(infer_type(&rp(5, 10), &[&f], &cx), Ok(f.clone()));
        assert_eq!(infer_type(&rp(1, 0), &[&f], &cx), Ok(f.clone()));
        for bad in [rp(0, 10), rp(33, 10), rp(8, 65)] {
            assert!(infer_type(&bad, &[&f], &cx).is_err(), "{bad:?}");
        }
        assert!(infer_type(&rp(5, 10), &[&i], &cx).is_err());
        let prod = Op::Reduce {
            kind: ReduceKind::Prod,
            axes: vec![0],
            keep_dims: false,
        };
        assert_eq!(
            infer_type(&prod, &[&i], &cx),
            Ok(TensorType::new(DType::I32, vec![]).into())
        );
        let e = infer_type(&prod, &[&b], &cx).unwrap_err();
        assert!(e.contains("`reduce_prod` is not defined on bool"), "{e}");
    }
}
