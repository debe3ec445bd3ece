//! `sort`, `top_k` and the `argmax`/`argmin` reductions: the ops whose results are positions
//! chosen by comparing elements.
//!
//! - `sort` orders each line along its dim by its keys (the first operands, lexicographically),
//!   stably: equal keys keep their order whether or not the op says `stable` (a valid unstable
//!   sort too). Float keys compare in IEEE totalOrder (`total_order`) or in JAX's order, where
//!   `-0 == +0` and every NaN is one value after `+inf` (JAX canonicalizes both before a
//!   `TOTALORDER` compare).
//! - `top_k` is a stable descending totalOrder sort of each row, cut to `k`.
//! - `reduce_arg*` folds each reduced block in row-major order from the initial pair with JAX's
//!   reducer, the accumulator on the left (see [`crate::Op::ArgReduce`]).

use super::error::{InterpError, InterpResult};
use super::kernels::{build_data, compare_scalar};
use crate::ops::{ArgKind, CmpOp, Op};
use crate::tensor::{int_value, Scalar, Tensor};
use crate::types::{DType, TensorType};
use std::cmp::Ordering;

/// Evaluates `sort`, `top_k` or `reduce_arg*` on its operands: one tensor per result.
pub(crate) fn eval(op: &Op, xs: &[&Tensor]) -> InterpResult<Vec<Tensor>> {
    match (op, xs) {
        (
            Op::Sort {
                dim,
                keys,
                descending,
                total_order,
                ..
            },
            _,
        ) => sort(*dim, *keys, *descending, *total_order, xs),
        (Op::TopK { k }, [x]) => top_k(*k, x),
        (Op::ArgReduce { kind, axes }, [x, i, x0, i0]) => arg_reduce(*kind, axes, x, i, x0, i0),
        _ => Err(InterpError::malformed(format!(
            "`{}` with {} operand(s)",
            op.name(),
            xs.len()
        ))),
    }
}

/// The order of sort keys of dtype `d`: IEEE totalOrder on floats when `total`, JAX's order
/// (`-0 == +0`, NaNs equal and greatest) otherwise; the dtype's order on integers.
pub(crate) fn sort_key_order(d: DType, total: bool, a: Scalar, b: Scalar) -> Ordering {
    let canonical = |x: f64| {
        if x == 0.0 {
            0.0
        } else if x.is_nan() {
            f64::NAN
        } else {
            x
        }
    };
    match (a, b) {
        (Scalar::Float(x), Scalar::Float(y)) if total => x.total_cmp(&y),
        (Scalar::Float(x), Scalar::Float(y)) => canonical(x).total_cmp(&canonical(y)),
        (Scalar::Int(x), Scalar::Int(y)) => int_value(d, x).cmp(&int_value(d, y)),
        (Scalar::Bool(x), Scalar::Bool(y)) => x.cmp(&y),
        _ => Ordering::Equal,
    }
}

/// The lines of a shape along `dim`: `(count, length, stride)` and the first element of line
/// `l` at `base(l)`.
struct Lines {
    len: usize,
    stride: usize,
}

impl Lines {
    fn new(shape: &[usize], dim: usize) -> Lines {
        Lines {
            len: shape.get(dim).copied().unwrap_or(1),
            stride: shape.get(dim + 1..).map_or(1, |s| s.iter().product()),
        }
    }

    /// The flat index of element `j` of the line through flat index `o` (any element of it).
    fn at(&self, o: usize, j: usize) -> usize {
        let pos = (o / self.stride) % self.len.max(1);
        o - pos * self.stride + j * self.stride
    }

    /// The position of flat index `o` along its line.
    fn pos(&self, o: usize) -> usize {
        (o / self.stride) % self.len.max(1)
    }
}

/// The stable order of the elements of the line through `o`, by `cmp` on their flat indices.
fn line_order(lines: &Lines, o: usize, cmp: impl Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..lines.len).collect();
    order.sort_by(|&a, &b| cmp(lines.at(o, a), lines.at(o, b)));
    order
}

/// The order of a line: ascending or descending by [`sort_key_order`].
fn directed(d: DType, total: bool, descending: bool) -> impl Fn(Scalar, Scalar) -> Ordering {
    move |a, b| {
        let o = sort_key_order(d, total, a, b);
        if descending {
            o.reverse()
        } else {
            o
        }
    }
}

fn sort(
    dim: usize,
    keys: usize,
    descending: bool,
    total: bool,
    xs: &[&Tensor],
) -> InterpResult<Vec<Tensor>> {
    let key = xs
        .first()
        .ok_or_else(|| InterpError::malformed("`sort` without operands"))?;
    let keys = xs
        .get(..keys.max(1))
        .ok_or_else(|| InterpError::malformed("`sort` with more keys than operands"))?;
    let shape = &key.ty.shape;
    let lines = Lines::new(shape, dim);
    let n = key.ty.num_elements();
    let orders: Vec<_> = (keys.iter())
        .map(|k| directed(k.ty.dtype, total, descending))
        .collect();
    // Lexicographic: the first key that tells two elements apart orders them.
    let cmp = |a: usize, b: usize| {
        (keys.iter().zip(&orders))
            .map(|(k, order)| order(k.get(a), k.get(b)))
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    };
    // The source of every result element: each line's order computed once, at its first element.
    let mut source = vec![0; n];
    for o in 0..n {
        if lines.pos(o) == 0 {
            for (j, &s) in line_order(&lines, o, cmp).iter().enumerate() {
                source[lines.at(o, j)] = lines.at(o, s);
            }
        }
    }
    xs.iter()
        .map(|x| {
            let data = build_data(x.ty.dtype, n, |o| Ok(x.get(source[o])))?;
            Ok(Tensor {
                ty: x.ty.clone(),
                data,
            })
        })
        .collect()
}

fn top_k(k: usize, x: &Tensor) -> InterpResult<Vec<Tensor>> {
    let shape = &x.ty.shape;
    let dim = shape
        .len()
        .checked_sub(1)
        .ok_or_else(|| InterpError::malformed("`top_k` of a scalar"))?;
    let lines = Lines::new(shape, dim);
    let rows = x.ty.num_elements() / lines.len.max(1);
    let cmp = directed(x.ty.dtype, true, true);
    let mut picks = Vec::with_capacity(rows * k);
    for r in 0..rows {
        let o = r * lines.len;
        picks.extend(
            line_order(&lines, o, |a, b| cmp(x.get(a), x.get(b)))
                .into_iter()
                .take(k)
                .map(|j| (lines.at(o, j), j)),
        );
    }
    let mut out_shape = shape.clone();
    out_shape[dim] = k;
    let values = build_data(x.ty.dtype, picks.len(), |i| Ok(x.get(picks[i].0)))?;
    let indices = build_data(DType::I32, picks.len(), |i| {
        Ok(Scalar::Int(picks[i].1 as i64))
    })?;
    Ok(vec![
        Tensor {
            ty: TensorType::new(x.ty.dtype, out_shape.clone()),
            data: values,
        },
        Tensor {
            ty: TensorType::new(DType::I32, out_shape),
            data: indices,
        },
    ])
}

/// JAX's `argmax`/`argmin` reducer: `acc` on the left, `e` on the right.
fn arg_step(
    kind: ArgKind,
    (vd, id): (DType, DType),
    acc: (Scalar, Scalar),
    e: (Scalar, Scalar),
) -> InterpResult<(Scalar, Scalar)> {
    let pick = compare_scalar(kind.compare(), vd, acc.0, e.0)?
        || compare_scalar(CmpOp::Ne, vd, acc.0, acc.0)?;
    let tie =
        compare_scalar(CmpOp::Eq, vd, acc.0, e.0)? && compare_scalar(CmpOp::Lt, id, acc.1, e.1)?;
    Ok((
        if pick { acc.0 } else { e.0 },
        if pick || tie { acc.1 } else { e.1 },
    ))
}

fn arg_reduce(
    kind: ArgKind,
    axes: &[usize],
    x: &Tensor,
    i: &Tensor,
    x0: &Tensor,
    i0: &Tensor,
) -> InterpResult<Vec<Tensor>> {
    let shape = &x.ty.shape;
    let kept: Vec<usize> = (0..shape.len()).filter(|d| !axes.contains(d)).collect();
    let out_shape: Vec<usize> = kept.iter().map(|&d| shape[d]).collect();
    let out_n: usize = out_shape.iter().product();
    let mut acc = vec![(x0.get(0), i0.get(0)); out_n];
    let dtypes = (x.ty.dtype, i.ty.dtype);
    let mut index = vec![0; shape.len()];
    for o in 0..x.ty.num_elements() {
        super::window::unravel(o, shape, &mut index);
        let r = kept.iter().fold(0, |r, &d| r * shape[d] + index[d]);
        acc[r] = arg_step(kind, dtypes, acc[r], (x.get(o), i.get(o)))?;
    }
    let values = build_data(x.ty.dtype, out_n, |r| Ok(acc[r].0))?;
    let indices = build_data(i.ty.dtype, out_n, |r| Ok(acc[r].1))?;
    Ok(vec![
        Tensor {
            ty: TensorType::new(x.ty.dtype, out_shape.clone()),
            data: values,
        },
        Tensor {
            ty: TensorType::new(i.ty.dtype, out_shape),
            data: indices,
        },
    ])
}
