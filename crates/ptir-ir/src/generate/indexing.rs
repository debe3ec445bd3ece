//! Indexed steps of the extended generator ([`GenConfig::indexing_weight`]): `gather`s and
//! `scatter_*`s with random dimension numbers — the row gather of `jnp.take`, slices wider
//! than one element, several start dims, the batching dims of `jnp.take_along_axis` — and
//! constant start indices that include out-of-range values (clamped by a gather, skipped by a
//! scatter).
//!
//! [`GenConfig::indexing_weight`]: super::GenConfig::indexing_weight

use super::state::{ty_of, Gen, Result};
use crate::builder::{FunctionBuilder, Val};
use crate::gather::{gather_type, GatherDims, IndexDims, ScatterKind};
use crate::ops::Op;
use crate::tensor::{Data, Literal};
use crate::types::{DType, TensorType};
use rand::seq::SliceRandom;
use rand::Rng;

impl Gen<'_> {
    /// A `gather` or a `scatter_*` (one time in two each).
    pub(super) fn gen_indexing(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        if self.coin(0.5) {
            self.gen_gather(f)
        } else {
            self.gen_scatter(f)
        }
    }

    /// A `gather` of an operand from the pool.
    fn gen_gather(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let x = self.operand(f, |_| true)?;
        let xt = ty_of(f, x)?;
        let Some((g, indices)) = self.rand_gather(f, &xt)? else {
            return self.gen_reverse(f);
        };
        f.emit(Op::Gather(Box::new(g)), &[x, indices], None)
    }

    /// A `scatter_*` into an operand from the pool, with updates of the shape a gather of the
    /// same dimension numbers reads.
    fn gen_scatter(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let kind = *ScatterKind::ALL
            .choose(&mut self.rng)
            .unwrap_or(&ScatterKind::Add);
        let x = self.operand(f, move |d| kind == ScatterKind::Set || d != DType::Bool)?;
        let xt = ty_of(f, x)?;
        let Some((g, indices)) = self.rand_gather(f, &xt)? else {
            return self.gen_reverse(f);
        };
        let updates_ty = gather_type(&xt, &ty_of(f, indices)?, &g).map_err(|message| {
            crate::builder::BuildError::Op {
                op: "scatter",
                message,
            }
        })?;
        let updates = self.operand_where(f, |t| *t == updates_ty, |_| updates_ty.clone())?;
        let op = Op::Scatter {
            kind,
            dims: Box::new(g.dims),
        };
        f.emit(op, &[x, indices, updates], None)
    }

    /// Random gather attributes for an operand of type `xt` and a constant of start indices
    /// for them; `None` when the operand has rank 0 or the result would not fit the config.
    fn rand_gather(
        &mut self,
        f: &mut FunctionBuilder<'_>,
        xt: &TensorType,
    ) -> Result<Option<(GatherDims, Val)>> {
        let n = xt.rank();
        if n == 0 {
            return Ok(None);
        }
        let m = self.rng.gen_range(1..=3usize);
        let (g, indices_shape) = if n >= 2 && self.coin(0.3) {
            self.along_axis_dims(xt, m)
        } else {
            self.general_dims(xt, m)
        };
        let ranges: Vec<usize> = g
            .dims
            .start_index_map
            .iter()
            .map(|&d| xt.shape[d])
            .collect();
        let count: usize = indices_shape.iter().product();
        let k = ranges.len().max(1);
        // Each start index in [-1, dim]: the ends are out of range.
        let values: Vec<i64> = (0..count)
            .map(|i| {
                let top = ranges.get(i % k).copied().unwrap_or(1) as i64;
                self.rng.gen_range(-1..=top)
            })
            .collect();
        let it = TensorType::new(DType::I32, indices_shape);
        if !matches!(gather_type(xt, &it, &g), Ok(t) if t.num_elements() > 0
            && t.num_elements() <= self.cfg.max_elements)
        {
            return Ok(None);
        }
        let indices = f.constant(Literal::Dense(Data::Int(values)), it)?;
        Ok(Some((g, indices)))
    }

    /// `jnp.take_along_axis`'s form: operand dim `b` is a batch dim of the indices
    /// `[x.shape[b], m, 1]`, dim `a` is indexed (collapsed), the other dims are taken whole.
    fn along_axis_dims(&mut self, xt: &TensorType, m: usize) -> (GatherDims, Vec<usize>) {
        let n = xt.rank();
        let mut two: Vec<usize> = (0..n).collect();
        two.shuffle(&mut self.rng);
        let (a, b) = (two[0], two[1]);
        let mut removed = [a, b];
        removed.sort_unstable();
        let slice_sizes = (0..n)
            .map(|d| if removed.contains(&d) { 1 } else { xt.shape[d] })
            .collect();
        let dims = IndexDims {
            window_dims: (2..n).collect(),
            collapsed_dims: vec![a],
            operand_batching_dims: vec![b],
            indices_batching_dims: vec![0],
            start_index_map: vec![a],
            index_vector_dim: 2,
        };
        (GatherDims { dims, slice_sizes }, vec![xt.shape[b], m, 1])
    }

    /// One or two indexed dims (in any order), each collapsed or sliced wider, `m` start
    /// vectors along a batch dim placed anywhere in the result; index vectors of one element
    /// are sometimes implicit (`index_vector_dim` the rank of the indices).
    fn general_dims(&mut self, xt: &TensorType, m: usize) -> (GatherDims, Vec<usize>) {
        let n = xt.rank();
        let mut start: Vec<usize> = (0..n).collect();
        start.shuffle(&mut self.rng);
        start.truncate(self.rng.gen_range(1..=n.min(2)));
        let mut collapsed: Vec<usize> = start.iter().copied().filter(|_| self.coin(0.6)).collect();
        collapsed.sort_unstable();
        let slice_sizes: Vec<usize> = (0..n)
            .map(|d| match (collapsed.contains(&d), start.contains(&d)) {
                (true, _) => 1,
                (false, true) => self.rng.gen_range(1..=xt.shape[d].max(1)),
                (false, false) if self.coin(0.8) => xt.shape[d],
                _ => self.rng.gen_range(0..=xt.shape[d]),
            })
            .collect();
        let window = n - collapsed.len();
        let batch_at = self.rng.gen_range(0..=window);
        let implicit = start.len() == 1 && self.coin(0.3);
        let k = start.len();
        let dims = IndexDims {
            window_dims: (0..=window).filter(|&d| d != batch_at).collect(),
            collapsed_dims: collapsed,
            operand_batching_dims: vec![],
            indices_batching_dims: vec![],
            // The last dim of `[m, k]`, or the rank of `[m]` (an implicit vector).
            index_vector_dim: 1,
            start_index_map: start,
        };
        let shape = if implicit { vec![m] } else { vec![m, k] };
        (GatherDims { dims, slice_sizes }, shape)
    }
}
