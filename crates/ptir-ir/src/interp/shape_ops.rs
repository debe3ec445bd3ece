//! Data movement: `reshape`, `transpose`, `broadcast`, `slice`, `concat`, `reverse`,
//! and the row extraction and stacking that `scan` needs.
//!
//! Buffers are row-major. `transpose`, `broadcast` and `slice` are all one strided gather
//! ([`gather`]): each result dim walks the operand buffer with its own step (0 for a broadcast
//! dim), starting from a base offset.
//!
//! - `transpose perm`: result dim `i` is operand dim `perm[i]`, so its step is the operand's
//!   stride of dim `perm[i]`.
//! - `broadcast dims`: operand dim `i` becomes result dim `dims[i]`; a size-1 operand dim that
//!   meets a larger result dim is stretched (step 0), as are the new dims.
//! - `slice start limit stride`: result index `j` of dim `d` reads operand index
//!   `start[d] + j * stride[d]`.

use super::error::{InterpError, InterpResult};
use super::kernels::cast_scalar;
use crate::tensor::{int_value, Data, Scalar, Tensor};
use crate::types::{num_elements, strides, DType, TensorType};

/// Reads `num_elements(shape)` elements of `src` in row-major order of `shape`, where moving
/// one step along result dim `d` moves `steps[d]` elements in `src`, from offset `base`.
pub(crate) fn gather(src: &Data, shape: &[usize], steps: &[usize], base: usize) -> Data {
    match src {
        Data::Float(v) => Data::Float(gather_vec(v, shape, steps, base)),
        Data::Int(v) => Data::Int(gather_vec(v, shape, steps, base)),
        Data::Bool(v) => Data::Bool(gather_vec(v, shape, steps, base)),
    }
}

fn gather_vec<T: Copy>(src: &[T], shape: &[usize], steps: &[usize], base: usize) -> Vec<T> {
    let n = num_elements(shape);
    let mut out = Vec::with_capacity(n);
    if n == 0 {
        return out;
    }
    let mut index = vec![0usize; shape.len()];
    let mut offset = base;
    for _ in 0..n {
        out.push(src[offset]);
        // Odometer: bump the last dim, carrying into earlier dims.
        for d in (0..shape.len()).rev() {
            index[d] += 1;
            offset += steps[d];
            if index[d] < shape[d] {
                break;
            }
            offset -= steps[d] * shape[d];
            index[d] = 0;
        }
    }
    out
}

/// The operand's buffer reordered so that result dim `i` is operand dim `perm[i]`.
pub(crate) fn permute_data(x: &Tensor, perm: &[usize]) -> Data {
    let st = strides(&x.ty.shape);
    let shape: Vec<usize> = perm.iter().map(|&p| x.ty.shape[p]).collect();
    let steps: Vec<usize> = perm.iter().map(|&p| st[p]).collect();
    gather(&x.data, &shape, &steps, 0)
}

/// `transpose`: result dim `i` is operand dim `perm[i]`.
pub(crate) fn transpose(x: &Tensor, perm: &[usize]) -> Tensor {
    let shape = perm.iter().map(|&p| x.ty.shape[p]).collect::<Vec<_>>();
    Tensor {
        ty: TensorType::new(x.ty.dtype, shape),
        data: permute_data(x, perm),
    }
}

/// `broadcast`: operand dim `i` becomes result dim `dims[i]`, size-1 dims stretch.
pub(crate) fn broadcast(x: &Tensor, dims: &[usize], ty: &TensorType) -> Tensor {
    let st = strides(&x.ty.shape);
    let mut steps = vec![0usize; ty.rank()];
    for (i, &d) in dims.iter().enumerate() {
        if x.ty.shape[i] == ty.shape[d] && x.ty.shape[i] != 1 {
            steps[d] = st[i];
        }
    }
    Tensor {
        ty: ty.clone(),
        data: gather(&x.data, &ty.shape, &steps, 0),
    }
}

/// Strided `slice` into a result of type `ty`.
pub(crate) fn slice(x: &Tensor, start: &[usize], stride: &[usize], ty: &TensorType) -> Tensor {
    let st = strides(&x.ty.shape);
    let base = start.iter().zip(&st).map(|(s, t)| s * t).sum();
    let steps: Vec<usize> = stride.iter().zip(&st).map(|(s, t)| s * t).collect();
    Tensor {
        ty: ty.clone(),
        data: gather(&x.data, &ty.shape, &steps, base),
    }
}

/// `reshape`: the same buffer under another shape.
pub(crate) fn reshape(x: &Tensor, ty: &TensorType) -> Tensor {
    Tensor {
        ty: ty.clone(),
        data: x.data.clone(),
    }
}

/// `concat` along `axis` into a result of type `ty`.
pub(crate) fn concat(xs: &[&Tensor], axis: usize, ty: &TensorType) -> InterpResult<Tensor> {
    let outer = num_elements(&ty.shape[..axis]);
    let chunks: Vec<usize> = xs
        .iter()
        .map(|x| num_elements(&x.ty.shape[axis..]))
        .collect();
    let mut data = empty_data(ty.dtype);
    for o in 0..outer {
        for (x, &chunk) in xs.iter().zip(&chunks) {
            append_range(&mut data, &x.data, o * chunk..(o + 1) * chunk)?;
        }
    }
    Ok(Tensor {
        ty: ty.clone(),
        data,
    })
}

/// An empty buffer of the class of `d`.
pub(crate) fn empty_data(d: DType) -> Data {
    if d.is_float() {
        Data::Float(Vec::new())
    } else if d.is_int() {
        Data::Int(Vec::new())
    } else {
        Data::Bool(Vec::new())
    }
}

/// Appends `src[range]` to `dst` (buffers of the same class).
pub(crate) fn append_range(
    dst: &mut Data,
    src: &Data,
    range: std::ops::Range<usize>,
) -> InterpResult<()> {
    let bad = || InterpError::malformed("buffer range or class mismatch");
    match (dst, src) {
        (Data::Float(d), Data::Float(s)) => d.extend_from_slice(s.get(range).ok_or_else(bad)?),
        (Data::Int(d), Data::Int(s)) => d.extend_from_slice(s.get(range).ok_or_else(bad)?),
        (Data::Bool(d), Data::Bool(s)) => d.extend_from_slice(s.get(range).ok_or_else(bad)?),
        _ => return Err(bad()),
    }
    Ok(())
}

/// Row `i` of `x` along its leading dim (what `scan` passes to step `i`).
pub(crate) fn leading_row(x: &Tensor, i: usize) -> InterpResult<Tensor> {
    let Some((_, rest)) = x.ty.shape.split_first() else {
        return Err(InterpError::malformed("scanned operand of rank 0"));
    };
    let ty = TensorType::new(x.ty.dtype, rest.to_vec());
    let n = ty.num_elements();
    let mut data = empty_data(ty.dtype);
    append_range(&mut data, &x.data, i * n..(i + 1) * n)?;
    Ok(Tensor { ty, data })
}

/// `iota`: each element is its index along `dim`, converted to the dtype as `cast` converts
/// an integer (wrapping, as a `u8` iota of 300 elements does, or rounding to the float
/// format).
pub(crate) fn iota(dim: usize, ty: &TensorType) -> Tensor {
    let st = strides(&ty.shape);
    let size = ty.shape.get(dim).copied().unwrap_or(1).max(1);
    let step = st.get(dim).copied().unwrap_or(1).max(1);
    let elements = (0..ty.num_elements()).map(|i| {
        let index = (i / step) % size;
        cast_scalar(Scalar::Int(index as i64), DType::I64, ty.dtype)
    });
    Tensor {
        ty: ty.clone(),
        data: Data::from_scalars(ty.dtype, elements),
    }
}

/// The start of a dynamic slice or update of a block of shape `sizes` in `x` at the scalar
/// `indices`, each clamped to `[0, dim - size]` as StableHLO clamps them.
pub(crate) fn clamped_starts(x: &Tensor, indices: &[&Tensor], sizes: &[usize]) -> Vec<usize> {
    (x.ty.shape.iter().zip(sizes).zip(indices))
        .map(|((&dim, &size), i)| {
            let i = match i.data.iter().next() {
                Some(Scalar::Int(x)) => int_value(i.ty.dtype, x),
                _ => 0,
            };
            let top = dim.saturating_sub(size) as i128;
            i.clamp(0, top) as usize
        })
        .collect()
}

/// `dynamic_update_slice`: `x` with `u` written at the clamped start `indices`.
pub(crate) fn update_slice(x: &Tensor, u: &Tensor, indices: &[&Tensor]) -> Tensor {
    let start = clamped_starts(x, indices, &u.ty.shape);
    let xs = strides(&x.ty.shape);
    let us = strides(&u.ty.shape);
    let mut elements: Vec<Scalar> = x.data.iter().collect();
    for k in 0..u.ty.num_elements() {
        let at: usize = (us.iter().zip(&u.ty.shape).zip(&start).zip(&xs))
            .map(|(((&s, &n), &o), &t)| ((k / s.max(1)) % n.max(1) + o) * t)
            .sum();
        if let Some(e) = elements.get_mut(at) {
            *e = u.data.get(k);
        }
    }
    Tensor {
        ty: x.ty.clone(),
        data: Data::from_scalars(x.ty.dtype, elements),
    }
}

/// `reverse(x)` along `dims`.
pub(crate) fn reverse(dims: &[usize], x: &Tensor) -> InterpResult<Tensor> {
    let shape = &x.ty.shape;
    let xs = strides(shape);
    let mut out = vec![0; shape.len()];
    let data = super::kernels::build_data(x.ty.dtype, x.ty.num_elements(), |o| {
        super::window::unravel(o, shape, &mut out);
        for &d in dims {
            out[d] = shape[d] - 1 - out[d];
        }
        Ok(x.get(out.iter().zip(&xs).map(|(i, s)| i * s).sum()))
    })?;
    Ok(Tensor {
        ty: x.ty.clone(),
        data,
    })
}
