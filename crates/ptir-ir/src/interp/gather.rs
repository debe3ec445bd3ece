//! `gather` and `scatter_*` with general dimension numbers (StableHLO's semantics; see
//! [`crate::gather`] for how an index of the walked space maps to an operand index).
//!
//! - `gather`: each start index is clamped to `[0, dim - slice_size]`, so every read is in
//!   bounds, as StableHLO specifies (and XLA and IREE implement).
//! - `scatter_*`: start indices are not clamped; an update whose operand index falls outside
//!   the operand (in any dim, negative included) is skipped. Updates are applied in row-major
//!   order of the updates tensor (StableHLO leaves the order of colliding updates to the
//!   implementation; for `add`, `mul`, `max` and `min` on integers it does not matter, for
//!   floats it fixes the rounding, for `set` the last update wins).

use super::error::{InterpError, InterpResult};
use super::kernels::{binary_scalar, build_data};
use super::window::unravel;
use crate::gather::{GatherDims, IndexDims, IndexShape, ScatterKind};
use crate::tensor::{int_value, Scalar, Tensor};
use crate::types::{strides, TensorType};

/// The map from indices of a walked space (a gather's result, a scatter's updates) to
/// operand offsets.
struct Walk<'a> {
    d: &'a IndexDims,
    s: IndexShape,
    /// The batch dims of the walked space.
    batch_pos: Vec<usize>,
    x: &'a TensorType,
    indices: &'a Tensor,
    /// For a gather, the slice sizes start indices are clamped for.
    clamp: Option<&'a [usize]>,
}

impl<'a> Walk<'a> {
    fn new(
        op: &str,
        d: &'a IndexDims,
        x: &'a TensorType,
        indices: &'a Tensor,
        walked_rank: usize,
        clamp: Option<&'a [usize]>,
    ) -> InterpResult<Self> {
        let s = d
            .check(op, x, &indices.ty)
            .map_err(InterpError::malformed)?;
        Ok(Walk {
            batch_pos: d.batch_positions(walked_rank),
            d,
            s,
            x,
            indices,
            clamp,
        })
    }

    /// The operand offset of index `idx` of the walked space; `None` out of bounds.
    fn offset(&self, idx: &[usize]) -> InterpResult<Option<usize>> {
        let d = self.d;
        let ivd = d.index_vector_dim;
        let batch: Vec<usize> = self.batch_pos.iter().map(|&p| idx[p]).collect();
        let mut full = vec![0i128; self.x.rank()];
        let mut at = batch.clone();
        if ivd < self.indices.ty.rank() {
            at.insert(ivd, 0);
        }
        let ist = strides(&self.indices.ty.shape);
        for (k, &dim) in d.start_index_map.iter().enumerate() {
            if ivd < self.indices.ty.rank() {
                at[ivd] = k;
            }
            let flat: usize = at.iter().zip(&ist).map(|(i, s)| i * s).sum();
            let start = match self.indices.data.get(flat) {
                Scalar::Int(v) => int_value(self.indices.ty.dtype, v),
                _ => return Err(InterpError::malformed("indices must be integers")),
            };
            full[dim] += match self.clamp {
                Some(sizes) => {
                    let top = self.x.shape[dim].saturating_sub(sizes[dim]) as i128;
                    start.clamp(0, top)
                }
                None => start,
            };
        }
        for (&o, &i) in d.operand_batching_dims.iter().zip(&d.indices_batching_dims) {
            full[o] += batch[if i > ivd { i - 1 } else { i }] as i128;
        }
        for (&w, &o) in d.window_dims.iter().zip(&self.s.window_operand_dims) {
            full[o] += idx[w] as i128;
        }
        let xst = strides(&self.x.shape);
        let mut off = 0usize;
        for ((&i, &n), &st) in full.iter().zip(&self.x.shape).zip(&xst) {
            if i < 0 || i >= n as i128 {
                return Ok(None);
            }
            off += i as usize * st;
        }
        Ok(Some(off))
    }
}

/// `gather(x, indices)` with attributes `g` into a result of type `ty`.
pub(crate) fn gather(
    g: &GatherDims,
    x: &Tensor,
    indices: &Tensor,
    ty: &TensorType,
) -> InterpResult<Tensor> {
    if crate::gather::gather_type(&x.ty, &indices.ty, g).map_err(InterpError::malformed)? != *ty {
        return Err(InterpError::malformed("`gather` of another result type"));
    }
    let walk = Walk::new(
        "gather",
        &g.dims,
        &x.ty,
        indices,
        ty.rank(),
        Some(&g.slice_sizes),
    )?;
    let mut idx = vec![0; ty.rank()];
    let data = build_data(ty.dtype, ty.num_elements(), |r| {
        unravel(r, &ty.shape, &mut idx);
        match walk.offset(&idx)? {
            Some(off) => Ok(x.get(off)),
            None => Err(InterpError::malformed("`gather` read out of bounds")),
        }
    })?;
    Ok(Tensor {
        ty: ty.clone(),
        data,
    })
}

/// `scatter_<kind>(x, indices, updates)` with dimension numbers `d`; the result has `x`'s
/// type.
pub(crate) fn scatter(
    kind: ScatterKind,
    d: &IndexDims,
    x: &Tensor,
    indices: &Tensor,
    updates: &Tensor,
) -> InterpResult<Tensor> {
    crate::gather::scatter_type(kind, &x.ty, &indices.ty, &updates.ty, d)
        .map_err(InterpError::malformed)?;
    let walk = Walk::new(kind.name(), d, &x.ty, indices, updates.ty.rank(), None)?;
    let dtype = x.ty.dtype;
    let mut acc: Vec<Scalar> = x.data.iter().collect();
    let mut idx = vec![0; updates.ty.rank()];
    for u in 0..updates.ty.num_elements() {
        unravel(u, &updates.ty.shape, &mut idx);
        let Some(off) = walk.offset(&idx)? else {
            continue;
        };
        let update = updates.get(u);
        acc[off] = match kind.combine() {
            Some(op) => binary_scalar(op, dtype, acc[off], update)?,
            None => update,
        };
    }
    let data = build_data(dtype, acc.len(), |i| Ok(acc[i]))?;
    Ok(Tensor {
        ty: x.ty.clone(),
        data,
    })
}
