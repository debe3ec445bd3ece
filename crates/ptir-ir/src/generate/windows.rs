//! Windowed steps of the extended generator ([`GenConfig::window_weight`]): convolutions
//! with random layouts, padding (negative too), strides, dilations, reversal and groups,
//! `reduce_window`s (pooling, cumulative sums) and `select_and_scatter`s (their gradients)
//! with the same placements, and the layout ops of a conv net's gradient: `pad` (edge,
//! interior, negative) and `reverse`.
//!
//! [`GenConfig::window_weight`]: super::GenConfig::window_weight

use super::state::{ty_of, Gen, Result};
use crate::builder::{FunctionBuilder, Val};
use crate::ops::{Op, ReduceKind, SelectKind};
use crate::tensor::{Literal, Scalar};
use crate::types::{DType, TensorType};
use crate::window::{
    convolution_type, pad_type, reduce_window_type, ConvDims, PadDims, ReduceWindowDims, Window,
};
use rand::seq::SliceRandom;
use rand::Rng;

impl Gen<'_> {
    /// A `convolution`, `reduce_window`, `select_and_scatter`, `pad` or `reverse` of an
    /// operand from the pool, or one time in five an order op (`generate/orders.rs`).
    pub(super) fn gen_window(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        if self.cfg.max_rank >= 3 && self.coin(0.3) {
            return self.gen_convolution(f);
        }
        if self.coin(0.2) {
            return self.gen_order(f);
        }
        match self.rng.gen_range(0..4) {
            0 => self.gen_reduce_window(f),
            1 => self.gen_select_and_scatter(f),
            2 => self.gen_pad(f),
            _ => self.gen_reverse(f),
        }
    }

    /// A scalar constant of dtype `d`: mostly 0, sometimes -1 or 1 (an init or a padding
    /// value).
    pub(super) fn small_scalar(&mut self, f: &mut FunctionBuilder<'_>, d: DType) -> Result<Val> {
        let value = *[0, 0, -1, 1].choose(&mut self.rng).unwrap_or(&0);
        let s = match d {
            DType::Bool => Scalar::Bool(value != 0),
            d if d.is_int() => Scalar::Int(crate::tensor::wrap_int(d, value)),
            d => Scalar::from_f64(d, value as f64),
        };
        f.constant(Literal::Splat(s), TensorType::scalar(d))
    }

    /// A random window over the dims of `xt` (dilated or not), or the plain one of size 1 when
    /// the `result` type it gives is an error or does not fit the config.
    fn rand_window_dims(
        &mut self,
        xt: &TensorType,
        dilate: bool,
        result: impl Fn(&ReduceWindowDims) -> std::result::Result<TensorType, String>,
    ) -> ReduceWindowDims {
        let size: Vec<usize> = (xt.shape.iter())
            .map(|&d| self.rng.gen_range(1..=d.clamp(1, 3)))
            .collect();
        let mut window = self.rand_window(size.len());
        if !dilate {
            window.base_dilation.fill(1);
            window.window_dilation.fill(1);
        }
        let dims = ReduceWindowDims { window, size };
        if matches!(result(&dims), Ok(t) if self.window_fits(&t)) {
            dims
        } else {
            ReduceWindowDims {
                size: vec![1; xt.rank()],
                window: Window::unit(xt.rank()),
            }
        }
    }

    /// A random placement of windows of `size` over `n` dims: mostly plain, sometimes
    /// strided, padded (by up to the window, or cropped by one), or dilated.
    fn rand_window(&mut self, n: usize) -> Window {
        let mut w = Window::unit(n);
        for d in 0..n {
            if self.coin(0.3) {
                w.strides[d] = 2;
            }
            if self.coin(0.4) {
                w.pad_low[d] = self.rng.gen_range(-1..=2);
                w.pad_high[d] = self.rng.gen_range(-1..=2);
            }
            if self.coin(0.15) {
                w.base_dilation[d] = 2;
            }
            if self.coin(0.15) {
                w.window_dilation[d] = 2;
            }
        }
        w
    }

    /// Does a generated result fit the config (and hold at least one element)?
    fn window_fits(&self, t: &TensorType) -> bool {
        t.num_elements() > 0 && t.num_elements() <= self.cfg.max_elements
    }

    fn gen_reduce_window(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let kind = *ReduceKind::ALL
            .choose(&mut self.rng)
            .unwrap_or(&ReduceKind::Max);
        let ok = move |d: DType| kind == ReduceKind::Max || d != DType::Bool;
        let x = self.operand(f, ok)?;
        let xt = ty_of(f, x)?;
        let init = self.small_scalar(f, xt.dtype)?;
        let init_ty = TensorType::scalar(xt.dtype);
        let dims = self.rand_window_dims(&xt, true, |w| reduce_window_type(kind, &xt, &init_ty, w));
        let op = Op::ReduceWindow {
            kind,
            dims: Box::new(dims),
        };
        f.emit(op, &[x, init], None)
    }

    fn gen_select_and_scatter(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let select = *SelectKind::ALL
            .choose(&mut self.rng)
            .unwrap_or(&SelectKind::Ge);
        let x = self.operand(f, |d| d != DType::Bool)?;
        let xt = ty_of(f, x)?;
        let init_ty = TensorType::scalar(xt.dtype);
        let dims = self.rand_window_dims(&xt, false, |w| {
            reduce_window_type(ReduceKind::Sum, &xt, &init_ty, w)
        });
        // One source element per window (the plain window's: one per operand element).
        let source_ty = reduce_window_type(ReduceKind::Sum, &xt, &init_ty, &dims)
            .unwrap_or_else(|_| xt.clone());
        let source = self.operand_where(f, |t| *t == source_ty, |_| source_ty.clone())?;
        let init = self.small_scalar(f, xt.dtype)?;
        let op = Op::SelectAndScatter {
            select,
            dims: Box::new(dims),
        };
        f.emit(op, &[x, source, init], None)
    }

    fn gen_pad(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let x = self.operand(f, |_| true)?;
        let xt = ty_of(f, x)?;
        let value = self.small_scalar(f, xt.dtype)?;
        let mut p = PadDims::none(xt.rank());
        for d in 0..xt.rank() {
            p.low[d] = self.rng.gen_range(-1..=2);
            p.high[d] = self.rng.gen_range(-1..=2);
            p.interior[d] = usize::from(self.coin(0.3));
        }
        let value_ty = TensorType::scalar(xt.dtype);
        if !matches!(pad_type(&xt, &value_ty, &p), Ok(t) if self.window_fits(&t)) {
            p = PadDims::none(xt.rank());
        }
        f.emit(Op::Pad(Box::new(p)), &[x, value], None)
    }

    pub(super) fn gen_reverse(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let x = self.operand(f, |_| true)?;
        let rank = ty_of(f, x)?.rank();
        let mut dims: Vec<usize> = (0..rank).filter(|_| self.coin(0.5)).collect();
        dims.shuffle(&mut self.rng);
        f.emit(Op::Reverse { dims }, &[x], None)
    }

    fn gen_convolution(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let x = self.operand_where(
            f,
            |t| t.rank() >= 3 && t.dtype != DType::Bool,
            |g| {
                let d = g.rand_dtype(|d| d != DType::Bool);
                let dims = [1, 2, 3, 4].map(|_| g.rng.gen_range(1..=3usize));
                TensorType::new(d, dims[..g.cfg.max_rank.clamp(3, 4)].to_vec())
            },
        )?;
        let xt = ty_of(f, x)?;
        let rank = xt.rank();
        let n = rank - 2;
        let mut c = ConvDims::plain(n);
        for layout in [&mut c.input, &mut c.kernel, &mut c.output] {
            layout.shuffle(&mut self.rng);
        }
        let features = xt.shape[c.input[1]];
        if features > 1 && self.coin(0.3) {
            c.feature_groups = features;
        } else if xt.shape[c.input[0]] > 1 && self.coin(0.15) {
            c.batch_groups = xt.shape[c.input[0]];
        }
        let groups = c.feature_groups.max(c.batch_groups);
        let mut kshape = vec![0; rank];
        kshape[c.kernel[0]] = groups * self.rng.gen_range(1..=2usize);
        kshape[c.kernel[1]] = features / c.feature_groups;
        for s in 0..n {
            kshape[c.kernel[2 + s]] = self.rng.gen_range(1..=3usize);
        }
        c.window = self.rand_window(n);
        c.reverse = (0..n).map(|_| self.coin(0.2)).collect();
        let fits = |c: &ConvDims, shape: &[usize]| {
            let kt = TensorType::new(xt.dtype, shape.to_vec());
            matches!(convolution_type(&xt, &kt, c), Ok(t) if self.window_fits(&t))
        };
        if !fits(&c, &kshape) {
            // The plain window of a 1-wide kernel always fits the operand.
            c.window = Window::unit(n);
            for s in 0..n {
                kshape[c.kernel[2 + s]] = 1;
            }
        }
        let kt = TensorType::new(xt.dtype, kshape);
        let k = self.operand_where(f, |t| *t == kt, |_| kt.clone())?;
        f.emit(Op::Convolution(Box::new(c)), &[x, k], None)
    }
}
