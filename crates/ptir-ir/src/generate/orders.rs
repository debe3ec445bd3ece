//! Order steps of the extended generator (drawn with the windowed steps,
//! [`GenConfig::window_weight`]): JAX's `argmax`/`argmin` (`reduce_arg*` of an operand and an
//! iota of its indices along the reduced dims), `sort`s of one operand, of an operand and
//! its indices, or by two keys (any dim, each flag), and `top_k`s, one of whose results is taken.
//!
//! [`GenConfig::window_weight`]: super::GenConfig::window_weight

use super::state::{ty_of, Gen, Result};
use crate::builder::{FunctionBuilder, Val};
use crate::ops::{ArgKind, Op, UnaryOp};
use crate::types::{DType, TensorType};
use rand::seq::SliceRandom;
use rand::Rng;

impl Gen<'_> {
    /// A `reduce_arg*`, `sort` or `top_k` of a numeric operand from the pool; a result of a
    /// tuple is taken by `tuple_get`.
    pub(super) fn gen_order(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let x = self.operand(f, |d| d != DType::Bool)?;
        let xt = ty_of(f, x)?;
        let rank = xt.rank();
        let indices = |f: &mut FunctionBuilder<'_>, dim: usize| {
            f.iota(dim, TensorType::new(DType::I32, xt.shape.clone()))
        };
        let (v, results) = match self.rng.gen_range(0..3) {
            0 if rank > 0 && xt.shape[rank - 1] > 0 => {
                let k = self.rng.gen_range(1..=xt.shape[rank - 1]);
                (f.emit(Op::TopK { k }, &[x], None)?, 2)
            }
            1 if rank > 0 => {
                let dim = self.rng.gen_range(0..rank);
                // One operand, an operand and its indices, or two keys: equal elements of
                // `x` by decreasing index (a sort on `x` alone keeps them increasing).
                let form = self.rng.gen_range(0..3);
                let op = Op::Sort {
                    dim,
                    keys: if form == 2 { 2 } else { 1 },
                    descending: self.coin(0.5),
                    stable: self.coin(0.5),
                    total_order: self.coin(0.5),
                };
                let operands = match form {
                    0 => vec![x],
                    1 => vec![x, indices(f, dim)?],
                    _ => {
                        let i = indices(f, dim)?;
                        vec![x, f.unary(UnaryOp::Neg, i)?, i]
                    }
                };
                (f.emit(op, &operands, None)?, operands.len())
            }
            _ => {
                let kind = *ArgKind::ALL.choose(&mut self.rng).unwrap_or(&ArgKind::Max);
                let axes: Vec<usize> = (0..rank).filter(|_| self.coin(0.5)).collect();
                // The indices along the first reduced dim (a scalar's: a constant).
                let i = match rank {
                    0 => self.small_scalar(f, DType::I32)?,
                    _ => indices(f, axes.first().copied().unwrap_or(0))?,
                };
                let x0 = self.small_scalar(f, xt.dtype)?;
                let i0 = self.small_scalar(f, DType::I32)?;
                (
                    f.emit(Op::ArgReduce { kind, axes }, &[x, i, x0, i0], None)?,
                    2,
                )
            }
        };
        if results == 1 {
            return Ok(v);
        }
        let index = self.rng.gen_range(0..results);
        f.tuple_get(v, index)
    }
}
