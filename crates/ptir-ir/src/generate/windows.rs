//! Windowed steps of the extended generator ([`GenConfig::window_weight`]): convolutions
//! with random layouts, padding (negative too), strides, dilations, reversal and groups, and
//! `reduce_window`s (pooling, cumulative sums) with the same placements.
//!
//! [`GenConfig::window_weight`]: super::GenConfig::window_weight

use super::state::{ty_of, Gen, Result};
use crate::builder::{FunctionBuilder, Val};
use crate::ops::{Op, ReduceKind};
use crate::tensor::{Literal, Scalar};
use crate::types::{DType, TensorType};
use crate::window::{convolution_type, reduce_window_type, ConvDims, ReduceWindowDims, Window};
use rand::seq::SliceRandom;
use rand::Rng;

impl Gen<'_> {
    /// A `convolution` or a `reduce_window` of an operand from the pool.
    pub(super) fn gen_window(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        if self.cfg.max_rank >= 3 && self.coin(0.5) {
            self.gen_convolution(f)
        } else {
            self.gen_reduce_window(f)
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
        let init_ty = TensorType::scalar(xt.dtype);
        let value = *[0, 0, -1, 1].choose(&mut self.rng).unwrap_or(&0);
        let init_value = match xt.dtype {
            DType::Bool => Scalar::Bool(value != 0),
            d if d.is_int() => Scalar::Int(crate::tensor::wrap_int(d, value)),
            d => Scalar::from_f64(d, value as f64),
        };
        let init = f.constant(Literal::Splat(init_value), init_ty.clone())?;
        let size: Vec<usize> = (xt.shape.iter())
            .map(|&d| self.rng.gen_range(1..=d.clamp(1, 3)))
            .collect();
        let dims = ReduceWindowDims {
            window: self.rand_window(size.len()),
            size,
        };
        let plain = ReduceWindowDims {
            size: vec![1; xt.rank()],
            window: Window::unit(xt.rank()),
        };
        let dims = match reduce_window_type(kind, &xt, &init_ty, &dims) {
            Ok(t) if self.window_fits(&t) => dims,
            _ => plain,
        };
        let op = Op::ReduceWindow {
            kind,
            dims: Box::new(dims),
        };
        f.emit(op, &[x, init], None)
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
