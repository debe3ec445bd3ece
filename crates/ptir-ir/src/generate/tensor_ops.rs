//! Generators of the tensor ops: each picks an op, finds or makes operands that fit it, and
//! emits it. None of them adds its result to the pool; [`Gen::step`](super::state::Gen) does.

use super::state::{ty_of, Gen, Result};
use crate::builder::{FunctionBuilder, Val};
use crate::infer::dot_general_type;
use crate::ops::{BinaryOp, CmpOp, DotDims, Op, Precision, ReduceKind, RngDist, UnaryOp};
use crate::tensor::{Data, Literal, Scalar};
use crate::types::{num_elements, DType, Shape, TensorType};
use rand::seq::SliceRandom;
use rand::Rng;

/// How often `gen_dot` makes a product with a long ragged free dim instead (see
/// `ragged_dot`).
const RAGGED_DOT_CHANCE: f64 = 0.1;

/// How many random dimension plans `dot_general` tries before contracting every dim.
const DOT_PLAN_TRIES: usize = 8;

/// Is the unary op defined on this dtype?
pub(super) fn unary_ok(u: UnaryOp, d: DType) -> bool {
    u.dtype_class().admits(d)
}

/// Is the binary op defined on this dtype?
pub(super) fn binary_ok(b: BinaryOp, d: DType) -> bool {
    b.dtype_class().admits(d)
}

fn numeric(d: DType) -> bool {
    d != DType::Bool
}

fn any(_: DType) -> bool {
    true
}

/// A dimension of the rhs of a planned `dot_general`.
#[derive(Clone, Copy)]
enum RhsDim {
    /// Paired with this lhs dim (batch or contracting).
    Paired(usize),
    /// A free dim of this size.
    Free(usize),
}

impl Gen<'_> {
    pub fn gen_constant(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let ty = self.rand_type(any);
        self.constant(f, ty)
    }

    pub fn gen_rng(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let ty = self.rand_type(any);
        let dist = if ty.dtype.is_float() && self.coin(0.5) {
            RngDist::Normal
        } else {
            RngDist::Uniform
        };
        f.rng(dist, ty)
    }

    /// A unary op, or a twentieth of the time a `reduce_precision` of a float to a random
    /// narrower (or not narrower) format.
    pub fn gen_unary(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        if self.coin(0.05) {
            let x = self.operand(f, DType::is_float)?;
            let op = Op::ReducePrecision {
                exponent_bits: self.rng.gen_range(1..=11),
                mantissa_bits: self.rng.gen_range(0..=24),
            };
            return f.emit(op, &[x], None);
        }
        let u = *UnaryOp::ALL.choose(&mut self.rng).unwrap_or(&UnaryOp::Neg);
        let x = self.operand(f, move |d| unary_ok(u, d))?;
        f.unary(u, x)
    }

    pub fn gen_binary(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let b = *BinaryOp::ALL
            .choose(&mut self.rng)
            .unwrap_or(&BinaryOp::Add);
        let a = self.operand(f, move |d| binary_ok(b, d))?;
        let ty = ty_of(f, a)?;
        if matches!(b, BinaryOp::Div | BinaryOp::Rem) && ty.dtype.is_int() {
            let divisor = self.positive_constant(f, ty)?;
            return f.binary(b, a, divisor);
        }
        let c = self.want(f, &ty)?;
        if self.coin(0.5) {
            f.binary(b, a, c)
        } else {
            f.binary(b, c, a)
        }
    }

    /// A constant of an integer type with elements in 1..=4 (a safe divisor).
    fn positive_constant(&mut self, f: &mut FunctionBuilder<'_>, ty: TensorType) -> Result<Val> {
        let lit = if self.coin(0.5) {
            Literal::Splat(Scalar::Int(self.rng.gen_range(1..=4)))
        } else {
            let xs: Vec<Scalar> = (0..ty.num_elements())
                .map(|_| Scalar::Int(self.rng.gen_range(1..=4)))
                .collect();
            Literal::Dense(Data::from_scalars(ty.dtype, xs))
        };
        f.constant(lit, ty)
    }

    pub fn gen_compare(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let x = self.operand(f, any)?;
        self.compare_with(f, x)
    }

    pub fn gen_select(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let a = self.operand(f, any)?;
        let ty = ty_of(f, a)?;
        let p = self.want(f, &ty.with_dtype(DType::Bool))?;
        let b = self.want(f, &ty)?;
        f.select(p, a, b)
    }

    /// A `cast` to a random dtype, or a quarter of the time a `bitcast` to another dtype of
    /// the same width when there is one, or a tenth a `bitcast_resize`: to a narrower dtype
    /// (one more dim), or to a wider one when the last dim is the ratio of the widths.
    pub fn gen_cast(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let x = self.operand(f, any)?;
        let xt = ty_of(f, x)?;
        let from = xt.dtype;
        if from != DType::Bool && self.coin(0.1) {
            let last = xt.shape.last().copied();
            let (max_rank, max_elements) = (self.cfg.max_rank, self.cfg.max_elements);
            let resizes = |d: DType| {
                let (a, b) = (from.bits(), d.bits());
                let narrows = a > b
                    && xt.rank() < max_rank
                    && xt.num_elements() * (a / b) as usize <= max_elements;
                let widens = a < b && last == Some((b / a) as usize);
                d != DType::Bool && (narrows || widens)
            };
            if DType::ALL.into_iter().any(resizes) {
                let d = self.rand_dtype(resizes);
                let (a, b) = (from.bits(), d.bits());
                let mut shape = xt.shape.clone();
                if a > b {
                    shape.push((a / b) as usize);
                } else {
                    shape.pop();
                }
                let ty = TensorType::new(d, shape);
                return f.emit(Op::BitcastResize, &[x], Some(ty.into()));
            }
        }
        if from != DType::Bool && self.coin(0.25) {
            let same_width = |d: DType| d != DType::Bool && d != from && d.bits() == from.bits();
            if DType::ALL.into_iter().any(same_width) {
                let d = self.rand_dtype(same_width);
                return f.bitcast(x, d);
            }
        }
        let d = self.rand_dtype(any);
        f.cast(x, d)
    }

    pub fn gen_reshape(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let x = self.operand(f, any)?;
        let shape = self.shape_with_elements(ty_of(f, x)?.num_elements());
        f.reshape(x, &shape)
    }

    /// A tensor of rank at least `min_rank` (a new leaf if the pool has none).
    fn ranked_operand(
        &mut self,
        f: &mut FunctionBuilder<'_>,
        min_rank: usize,
        ok: fn(DType) -> bool,
    ) -> Result<Val> {
        let min_rank = min_rank.min(self.cfg.max_rank);
        self.operand_where(
            f,
            |t| t.rank() >= min_rank && ok(t.dtype),
            |g| {
                let mut ty = g.rand_type(ok);
                while ty.rank() < min_rank {
                    ty.shape.push(1);
                }
                ty
            },
        )
    }

    pub fn gen_transpose(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let x = self.ranked_operand(f, 2, any)?;
        let mut perm: Vec<usize> = (0..ty_of(f, x)?.rank()).collect();
        perm.shuffle(&mut self.rng);
        f.transpose(x, &perm)
    }

    /// `broadcast_in_dim` to a random larger shape: new dims, dims stretched from size 1, and
    /// sometimes a permuted dim map.
    pub fn gen_broadcast(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let x = self.operand(f, any)?;
        let xs = ty_of(f, x)?.shape;
        let rank = xs.len()
            + self
                .rng
                .gen_range(0..=self.cfg.max_rank.saturating_sub(xs.len()));
        let mut dims: Vec<usize> = (0..rank).collect();
        dims.shuffle(&mut self.rng);
        dims.truncate(xs.len());
        if self.coin(0.7) {
            dims.sort_unstable();
        }
        let mut shape: Shape = (0..rank)
            .map(|_| self.rng.gen_range(1..=self.cfg.max_dim))
            .collect();
        for (i, &d) in dims.iter().enumerate() {
            if xs[i] != 1 {
                shape[d] = xs[i];
            }
        }
        let stretchable: Vec<usize> = (0..rank)
            .filter(|r| !dims.iter().zip(&xs).any(|(d, &s)| d == r && s != 1))
            .collect();
        for &d in stretchable.iter().cycle().take(stretchable.len() * 8) {
            if num_elements(&shape) <= self.cfg.max_elements {
                break;
            }
            shape[d] = (shape[d] / 2).max(1);
        }
        f.broadcast(x, &dims, &shape)
    }

    pub fn gen_slice(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let x = self.ranked_operand(f, 1, any)?;
        let xs = ty_of(f, x)?.shape;
        let (mut start, mut limit, mut stride) = (vec![], vec![], vec![]);
        for &n in &xs {
            let s = self.rng.gen_range(0..n);
            start.push(s);
            limit.push(self.rng.gen_range(s + 1..=n));
            stride.push(self.rng.gen_range(1..=2));
        }
        f.slice(x, &start, &limit, &stride)
    }

    /// Concatenates an operand with one or two values along a random axis, within the
    /// element bound (alone if nothing fits).
    pub fn gen_concat(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let x = self.ranked_operand(f, 1, any)?;
        let xt = ty_of(f, x)?;
        let axis = self.rng.gen_range(0..xt.rank());
        let rest = (xt.num_elements() / xt.shape[axis]).max(1);
        let room = (self.cfg.max_elements / rest).saturating_sub(xt.shape[axis]);
        if room == 0 {
            return f.concat(&[x], axis);
        }
        let mut yt = xt.clone();
        yt.shape[axis] = self.rng.gen_range(1..=room.min(self.cfg.max_dim));
        let y = self.want(f, &yt)?;
        if xt.shape[axis] <= room - yt.shape[axis] && self.coin(0.3) {
            return f.concat(&[x, y, x], axis);
        }
        f.concat(&[x, y], axis)
    }

    /// `dot_general` of an existing lhs with an rhs made to fit a random plan of batch,
    /// contracting and free dims; contracting everything if no plan fits the bounds.
    pub fn gen_dot(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        if self.coin(RAGGED_DOT_CHANCE) {
            if let Some(v) = self.ragged_dot(f)? {
                return Ok(v);
            }
        }
        let lhs = self.ranked_operand(f, 1, numeric)?;
        let lt = ty_of(f, lhs)?;
        let plan = (0..DOT_PLAN_TRIES).find_map(|_| self.dot_plan(&lt));
        let (dims, rt) = plan.unwrap_or_else(|| {
            let all: Vec<usize> = (0..lt.rank()).collect();
            let dims = DotDims {
                lhs_contract: all.clone(),
                rhs_contract: all,
                ..DotDims::default()
            };
            (dims, lt.clone())
        });
        let rhs = self.want(f, &rt)?;
        let dims = self.dot_precision(lt.dtype, dims);
        f.dot_general(lhs, rhs, &dims)
    }

    /// A product of a long ragged column (33, 41 or 57 rows: past the 32 from which the
    /// optimizer pads a product's rows to whole tiles of 8, as a ViT's 197 tokens) by a row,
    /// within the element bound; `None` where the bound or the dtypes leave no room.
    fn ragged_dot(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Option<Val>> {
        let rows = *[33, 41, 57].choose(&mut self.rng).unwrap_or(&33);
        let floats: Vec<DType> = (self.cfg.dtypes.iter().copied())
            .filter(|d| d.is_float())
            .collect();
        let Some(&dtype) = floats.choose(&mut self.rng) else {
            return Ok(None);
        };
        let cols = self.cfg.max_elements / rows;
        if cols == 0 {
            return Ok(None);
        }
        let cols = self.rng.gen_range(1..=cols.min(self.cfg.max_dim));
        let lhs = self.want(f, &TensorType::new(dtype, vec![rows, 1]))?;
        let rhs = self.want(f, &TensorType::new(dtype, vec![1, cols]))?;
        f.dot_general(lhs, rhs, &DotDims::matmul()).map(Some)
    }

    /// `dims` sometimes with what mixed-precision models write: a wider result dtype that
    /// products and sums are computed in (f16 and bf16 operands with an f32 result, JAX's
    /// `preferred_element_type`), one time in three where the program's dtypes have one; and
    /// one time in six a `precision_config`, which no CPU computation reads but every rule and
    /// export must keep.
    fn dot_precision(&mut self, operands: DType, mut dims: DotDims) -> DotDims {
        let wider: Vec<DType> = (self.cfg.dtypes.iter().copied())
            .filter(|&d| d != operands && crate::infer::widens(operands, d))
            .collect();
        if !wider.is_empty() && self.rng.gen_range(0..3) == 0 {
            dims.result_dtype = wider.choose(&mut self.rng).copied();
        }
        if self.rng.gen_range(0..6) == 0 {
            let mut pick = || {
                *Precision::ALL
                    .choose(&mut self.rng)
                    .unwrap_or(&Precision::Default)
            };
            dims.precision = DotDims::precision_of([pick(), pick()]);
        }
        dims
    }

    /// A random plan for an lhs of type `lt`: the dim numbers and the rhs type, if the rhs
    /// and the result stay within the bounds.
    fn dot_plan(&mut self, lt: &TensorType) -> Option<(DotDims, TensorType)> {
        // Each lhs dim is batch (0), contracting (1) or free (2); the first two get an rhs dim.
        let roles: Vec<u8> = (0..lt.rank())
            .map(|_| [0, 1, 1, 2, 2][self.rng.gen_range(0..5)])
            .collect();
        let mut rhs: Vec<RhsDim> = (0..lt.rank())
            .filter(|&i| roles[i] < 2)
            .map(RhsDim::Paired)
            .collect();
        for _ in 0..self.rng.gen_range(0..=2) {
            rhs.push(RhsDim::Free(self.rng.gen_range(1..=self.cfg.max_dim)));
        }
        rhs.shuffle(&mut self.rng);
        let mut dims = DotDims::default();
        let mut rhs_shape = Shape::with_capacity(rhs.len());
        for (j, d) in rhs.into_iter().enumerate() {
            let size = match d {
                RhsDim::Paired(i) => {
                    let (l, r) = if roles[i] == 0 {
                        (&mut dims.lhs_batch, &mut dims.rhs_batch)
                    } else {
                        (&mut dims.lhs_contract, &mut dims.rhs_contract)
                    };
                    l.push(i);
                    r.push(j);
                    lt.shape[i]
                }
                RhsDim::Free(n) => n,
            };
            rhs_shape.push(size);
        }
        let rt = TensorType::new(lt.dtype, rhs_shape);
        let out = dot_general_type(lt, &rt, &dims).ok()?;
        let fits = |t: &TensorType| {
            t.rank() <= self.cfg.max_rank && t.num_elements() <= self.cfg.max_elements
        };
        (fits(&rt) && fits(&out)).then_some((dims, rt))
    }

    pub fn gen_reduce(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let kind = *ReduceKind::ALL
            .choose(&mut self.rng)
            .unwrap_or(&ReduceKind::Sum);
        let ok = if kind == ReduceKind::Max {
            any
        } else {
            numeric
        };
        let x = self.operand(f, ok)?;
        let rank = ty_of(f, x)?.rank();
        let mut axes: Vec<usize> = (0..rank).filter(|_| self.coin(0.5)).collect();
        if axes.is_empty() && rank > 0 && self.coin(0.9) {
            axes.push(self.rng.gen_range(0..rank));
        }
        axes.shuffle(&mut self.rng);
        let keep_dims = self.coin(0.5);
        if self.coin(0.15) {
            // Sibling reductions already merged: a `multi_reduce` of `x` and another operand
            // of its shape (of any dtype the kind takes).
            let xt = ty_of(f, x)?;
            let shape = xt.shape.clone();
            let y = self.operand_where(f, |t| t.shape == shape && ok(t.dtype), |_| xt.clone())?;
            let op = Op::MultiReduce {
                kind,
                axes,
                keep_dims,
            };
            let t = f.emit(op, &[x, y], None)?;
            return self.unpack_some(f, t);
        }
        f.reduce(kind, x, &axes, keep_dims)
    }

    /// A `bool[]` predicate: an existing one, or a comparison of a reduction of some tensor
    /// with another scalar.
    pub fn predicate(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let scalar_bool = TensorType::scalar(DType::Bool);
        if let Some(p) = self.pick_tensor(f, |t| *t == scalar_bool) {
            if self.coin(0.5) {
                return Ok(p);
            }
        }
        let x = self.operand(f, numeric)?;
        let rank = ty_of(f, x)?.rank();
        let s = if rank == 0 {
            x
        } else {
            let kind = *ReduceKind::ALL
                .choose(&mut self.rng)
                .unwrap_or(&ReduceKind::Max);
            let axes: Vec<usize> = (0..rank).collect();
            self.add(f.reduce(kind, x, &axes, false)?)
        };
        let c = *CmpOp::ALL.choose(&mut self.rng).unwrap_or(&CmpOp::Gt);
        let st = ty_of(f, s)?;
        let y = self.want(f, &st)?;
        f.compare(c, s, y)
    }
}
