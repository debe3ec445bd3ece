//! Windowed ops: `convolution`, `reduce_window_*`, `select_and_scatter_*` and `pad`, as
//! StableHLO defines them (see `crate::window` for the window's geometry), with their
//! accumulation order fixed.
//!
//! **`convolution`.** For each output element, the kernel's input features `c` are the outer
//! loop and the window positions (row-major over the spatial dims) the inner one. Positions in
//! padding or a dilation hole read `0` (so `0 * inf` is NaN, as a zero-padded input gives).
//! Each product is rounded to the result dtype, then added to an accumulator that starts from
//! `+0` and is rounded after every addition, as `dot_general`'s.
//!
//! **`reduce_window_*`.** For each output element, the accumulator starts from the init and
//! takes the window positions in row-major order, through `reduce_*`'s step (`add`, `max`, `or`
//! for a bool max); positions in padding or a dilation hole read the init.
//!
//! **`select_and_scatter_*`.** Every result element starts as the init. Windows are visited
//! in row-major order of the source; in each, the positions outside the padding are visited in
//! row-major order, the first selected, and a later candidate replaces the selection unless
//! `compare(selection, candidate)` holds (StableHLO's select region; `GE` keeps the first of equal
//! maxima, a NaN candidate replaces a number and any candidate replaces a NaN selection). The
//! window's source element is then added to the selected result element, rounded after every
//! addition. A window wholly in padding scatters nothing (StableHLO leaves it unspecified).
//!
//! **`pad`.** Each result element reads the operand element its position holds in the padded
//! operand (`PadDims::window`), else the padding value.
//! (StableHLO's definition. IREE 3.x departs from it when the init is not the reduction's
//! identity and the window is padded: it ignores the init there. JAX always passes the
//! identity.)

use super::error::InterpResult;
use super::kernels::{binary_scalar, build_data, compare_scalar};
use super::reduce::reduce_step;
use crate::ops::{BinaryOp, ReduceKind, SelectKind};
use crate::tensor::{Scalar, Tensor};
use crate::types::{num_elements, strides, TensorType};
use crate::window::{ConvDims, PadDims, ReduceWindowDims};

/// Splits the row-major index `i` of a grid of shape `shape` into `coords`.
pub(crate) fn unravel(mut i: usize, shape: &[usize], coords: &mut [usize]) {
    for (c, &n) in coords.iter_mut().zip(shape).rev() {
        *c = i % n.max(1);
        i /= n.max(1);
    }
}

/// `convolution(l, r)` into a result of type `ty`.
pub(crate) fn convolution(
    c: &ConvDims,
    l: &Tensor,
    r: &Tensor,
    ty: &TensorType,
) -> InterpResult<Tensor> {
    let n = c.spatial_rank();
    let (ls, rs, os) = (
        strides(&l.ty.shape),
        strides(&r.ty.shape),
        strides(&ty.shape),
    );
    let in_spatial: Vec<usize> = (0..n).map(|s| l.ty.shape[c.input[2 + s]]).collect();
    let kernel: Vec<usize> = (0..n).map(|s| r.ty.shape[c.kernel[2 + s]]).collect();
    let out_features = r.ty.shape[c.kernel[0]];
    let kernel_in = r.ty.shape[c.kernel[1]];
    let out_batch = ty.shape[c.output[0]];
    let per_feature_group = (out_features / c.feature_groups.max(1)).max(1);
    let per_batch_group = (out_features / c.batch_groups.max(1)).max(1);
    let positions = num_elements(&kernel);
    let d = ty.dtype;
    let zero = Scalar::zero(l.ty.dtype);
    let (mut out, mut k) = (vec![0; n], vec![0; n]);
    let data = build_data(d, ty.num_elements(), |o| {
        let coord = |dim: usize| o / os[dim] % ty.shape[dim];
        let (b, f) = (coord(c.output[0]), coord(c.output[1]));
        for (s, x) in out.iter_mut().enumerate() {
            *x = coord(c.output[2 + s]);
        }
        let batch = (f / per_batch_group) * out_batch + b;
        let group = f / per_feature_group;
        let mut acc = Scalar::zero(d);
        for ci in 0..kernel_in {
            let l_base = batch * ls[c.input[0]] + (group * kernel_in + ci) * ls[c.input[1]];
            let r_base = f * rs[c.kernel[0]] + ci * rs[c.kernel[1]];
            for p in 0..positions {
                unravel(p, &kernel, &mut k);
                let (mut l_off, mut r_off) = (Some(l_base), r_base);
                for s in 0..n {
                    let kr = if c.reverse[s] {
                        kernel[s] - 1 - k[s]
                    } else {
                        k[s]
                    };
                    r_off += kr * rs[c.kernel[2 + s]];
                    l_off = l_off.and_then(|off| {
                        let i = c.window.source_index(s, in_spatial[s], out[s], k[s])?;
                        Some(off + i * ls[c.input[2 + s]])
                    });
                }
                let x = l_off.map_or(zero, |off| l.get(off));
                let prod = binary_scalar(BinaryOp::Mul, d, x, r.get(r_off))?;
                acc = binary_scalar(BinaryOp::Add, d, acc, prod)?;
            }
        }
        Ok(acc)
    })?;
    Ok(Tensor {
        ty: ty.clone(),
        data,
    })
}

/// The operand offset that window position `k` of output position `out` reads, `None` in
/// padding or a dilation hole.
fn window_offset(
    w: &ReduceWindowDims,
    shape: &[usize],
    xs: &[usize],
    out: &[usize],
    k: &[usize],
) -> Option<usize> {
    (0..shape.len()).try_fold(0, |off, dim| {
        let i = w.window.source_index(dim, shape[dim], out[dim], k[dim])?;
        Some(off + i * xs[dim])
    })
}

/// `reduce_window_<kind>(x, init)` into a result of type `ty`.
pub(crate) fn reduce_window(
    kind: ReduceKind,
    w: &ReduceWindowDims,
    x: &Tensor,
    init: &Tensor,
    ty: &TensorType,
) -> InterpResult<Tensor> {
    let rank = x.ty.rank();
    let xs = strides(&x.ty.shape);
    let d = x.ty.dtype;
    let init = init.get(0);
    let positions = num_elements(&w.size);
    let (mut out, mut k) = (vec![0; rank], vec![0; rank]);
    let data = build_data(d, ty.num_elements(), |o| {
        unravel(o, &ty.shape, &mut out);
        let mut acc = init;
        for p in 0..positions {
            unravel(p, &w.size, &mut k);
            let off = window_offset(w, &x.ty.shape, &xs, &out, &k);
            acc = reduce_step(kind, d, acc, off.map_or(init, |off| x.get(off)))?;
        }
        Ok(acc)
    })?;
    Ok(Tensor {
        ty: ty.clone(),
        data,
    })
}

/// `select_and_scatter_<select>(x, source, init)`; the result has `x`'s type.
pub(crate) fn select_and_scatter(
    select: SelectKind,
    w: &ReduceWindowDims,
    x: &Tensor,
    source: &Tensor,
    init: &Tensor,
) -> InterpResult<Tensor> {
    let rank = x.ty.rank();
    let xs = strides(&x.ty.shape);
    let d = x.ty.dtype;
    let mut acc = vec![init.get(0); x.ty.num_elements()];
    let positions = num_elements(&w.size);
    let (mut out, mut k) = (vec![0; rank], vec![0; rank]);
    for o in 0..source.ty.num_elements() {
        unravel(o, &source.ty.shape, &mut out);
        let mut selected: Option<usize> = None;
        for p in 0..positions {
            unravel(p, &w.size, &mut k);
            let Some(off) = window_offset(w, &x.ty.shape, &xs, &out, &k) else {
                continue;
            };
            selected = match selected {
                Some(s) if compare_scalar(select.compare(), d, x.get(s), x.get(off))? => Some(s),
                _ => Some(off),
            };
        }
        if let Some(s) = selected {
            acc[s] = binary_scalar(BinaryOp::Add, d, acc[s], source.get(o))?;
        }
    }
    let data = build_data(d, acc.len(), |i| Ok(acc[i]))?;
    Ok(Tensor {
        ty: x.ty.clone(),
        data,
    })
}

/// `pad(x, value)` with attributes `p` into a result of type `ty`.
pub(crate) fn pad(
    p: &PadDims,
    x: &Tensor,
    value: &Tensor,
    ty: &TensorType,
) -> InterpResult<Tensor> {
    let rank = x.ty.rank();
    let xs = strides(&x.ty.shape);
    let w = p.window();
    let value = value.get(0);
    let mut out = vec![0; rank];
    let data = build_data(ty.dtype, ty.num_elements(), |o| {
        unravel(o, &ty.shape, &mut out);
        let off = (0..rank).try_fold(0, |off, dim| {
            Some(off + w.source_index(dim, x.ty.shape[dim], out[dim], 0)? * xs[dim])
        });
        Ok(off.map_or(value, |off| x.get(off)))
    })?;
    Ok(Tensor {
        ty: ty.clone(),
        data,
    })
}
