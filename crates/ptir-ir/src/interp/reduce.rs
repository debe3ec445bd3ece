//! Reductions and contractions: `reduce_sum`, `reduce_max`, `reduce_prod` and `dot_general`, with their
//! accumulation order fixed, since float addition is not associative.
//!
//! **Reductions.** For each output element (in row-major order of the kept dims), the reduced
//! elements are visited in row-major order of the reduced dims taken in increasing axis order
//! (the order of the `axes` attribute does not matter). `reduce_sum` starts from `+0` and rounds
//! to the dtype after every addition (integers wrap); so the sum of `[-0.0]` is `+0.0`.
//! `reduce_max` starts from `-inf` (floats), the dtype's minimum (integers: 0 for unsigned ones)
//! or `false`, and
//! applies `max` (NaN propagates, `-0 < +0`; `or` for bool). `reduce_prod` starts from one and
//! rounds after every multiplication, in the same order as `reduce_sum`.
//!
//! **`dot_general`.** For each output element `(batch..., lhs_free..., rhs_free...)` the
//! contracting index tuples are visited in row-major order of the contracting dims listed in
//! `lhs_contract` order (the first listed dim is the outermost loop). Each product `l * r` is
//! rounded to the dtype, then added to an accumulator that starts from `+0` and is rounded after
//! every addition. Hence `dot_general` equals, bit for bit, the `reduce_sum` of the elementwise
//! product of the operands moved into `[batch, free, contract]` order.

use super::error::InterpResult;
use super::kernels::{binary_scalar, build_data};
use super::shape_ops::permute_data;
use crate::infer::free_dims;
use crate::ops::{BinaryOp, DotDims, ReduceKind};
use crate::tensor::{Scalar, Tensor};
use crate::types::{num_elements, DType, TensorType};

/// One accumulation step of a reduction.
pub(crate) fn reduce_step(
    kind: ReduceKind,
    d: DType,
    acc: Scalar,
    x: Scalar,
) -> InterpResult<Scalar> {
    binary_scalar(kind.step(d), d, acc, x)
}

/// `reduce_sum` / `reduce_max` over `axes`, into a result of type `ty`.
pub(crate) fn reduce(
    kind: ReduceKind,
    axes: &[usize],
    x: &Tensor,
    ty: &TensorType,
) -> InterpResult<Tensor> {
    let rank = x.ty.rank();
    let (reduced, kept): (Vec<usize>, Vec<usize>) = (0..rank).partition(|d| axes.contains(d));
    let perm: Vec<usize> = kept.iter().chain(&reduced).copied().collect();
    // Each output element's inputs are now one contiguous run, in the visiting order.
    let moved = permute_data(x, &perm);
    let run = num_elements(&reduced.iter().map(|&a| x.ty.shape[a]).collect::<Vec<_>>());
    let d = x.ty.dtype;
    let data = build_data(d, ty.num_elements(), |o| {
        let mut acc = kind.identity(d);
        for k in 0..run {
            acc = reduce_step(kind, d, acc, moved.get(o * run + k))?;
        }
        Ok(acc)
    })?;
    Ok(Tensor {
        ty: ty.clone(),
        data,
    })
}

/// `dot_general` into a result of type `ty`.
pub(crate) fn dot_general(
    dims: &DotDims,
    l: &Tensor,
    r: &Tensor,
    ty: &TensorType,
) -> InterpResult<Tensor> {
    let sizes = |t: &Tensor, ds: &[usize]| {
        num_elements(&ds.iter().map(|&d| t.ty.shape[d]).collect::<Vec<_>>())
    };
    let l_free = free_dims(l.ty.rank(), &dims.lhs_batch, &dims.lhs_contract);
    let r_free = free_dims(r.ty.rank(), &dims.rhs_batch, &dims.rhs_contract);
    let (m, n, k) = (
        sizes(l, &l_free),
        sizes(r, &r_free),
        sizes(l, &dims.lhs_contract),
    );
    // lhs as [batch, m, k] and rhs as [batch, n, k], both row-major.
    let l_perm: Vec<usize> = [&dims.lhs_batch[..], &l_free, &dims.lhs_contract].concat();
    let r_perm: Vec<usize> = [&dims.rhs_batch[..], &r_free, &dims.rhs_contract].concat();
    let (lm, rm) = (permute_data(l, &l_perm), permute_data(r, &r_perm));
    let d = ty.dtype;
    let data = build_data(d, ty.num_elements(), |o| {
        let (b, i, j) = (o / (m * n), o / n % m, o % n);
        let (l_row, r_row) = ((b * m + i) * k, (b * n + j) * k);
        let mut acc = Scalar::zero(d);
        for c in 0..k {
            let p = binary_scalar(BinaryOp::Mul, d, lm.get(l_row + c), rm.get(r_row + c))?;
            acc = binary_scalar(BinaryOp::Add, d, acc, p)?;
        }
        Ok(acc)
    })?;
    Ok(Tensor {
        ty: ty.clone(),
        data,
    })
}
