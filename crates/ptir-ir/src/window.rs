//! Windowed ops: `convolution`, `reduce_window`, `select_and_scatter` and `pad`, their
//! attributes and typing rules.
//!
//! Both slide a window over a padded, dilated operand (StableHLO's definition). Along each
//! windowed dimension of size `n`, the operand is dilated by `base_dilation` (`b - 1` holes
//! between elements: `(n - 1) * b + 1` positions), padded by `pad_low` before and `pad_high`
//! after (negative padding crops), and a window of `k` positions, `window_dilation` apart
//! (`(k - 1) * w + 1` wide), is placed every `stride` positions: `(padded - wide) / stride + 1`
//! windows, none if the window is wider than the padded operand. Positions in padding or in a
//! dilation hole read the padding value: zero for a convolution, the init for `reduce_window`.
//! `select_and_scatter` places its windows the same way (no dilation) and never selects a
//! position in padding. `pad` is the geometry alone: a window of one position, stride 1, the
//! interior padding a base dilation.

use crate::ops::{ReduceKind, SelectKind};
use crate::types::{DType, TensorType};

type Result<T> = std::result::Result<T, String>;

/// The window of a `convolution` (over its spatial dims) or a `reduce_window` (over every
/// dim): one entry per windowed dimension in each list.
#[derive(
    Clone,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct Window {
    /// Distance between the starts of consecutive windows (at least 1).
    pub strides: Vec<usize>,
    /// Padding before the operand (negative: elements cropped).
    pub pad_low: Vec<i64>,
    /// Padding after the operand (negative: elements cropped).
    pub pad_high: Vec<i64>,
    /// Dilation of the operand (`lhs_dilation` of a convolution, `base_dilations` of
    /// `reduce_window`; at least 1).
    pub base_dilation: Vec<usize>,
    /// Dilation of the window (`rhs_dilation`, `window_dilations`; at least 1).
    pub window_dilation: Vec<usize>,
}

impl Window {
    /// The plain window over `n` dims: stride 1, no padding, no dilation.
    pub fn unit(n: usize) -> Self {
        Window {
            strides: vec![1; n],
            pad_low: vec![0; n],
            pad_high: vec![0; n],
            base_dilation: vec![1; n],
            window_dilation: vec![1; n],
        }
    }

    /// Is it the plain window (what the text format leaves unwritten)?
    pub fn is_unit(&self) -> bool {
        *self == Window::unit(self.strides.len())
    }

    /// Checks that every list has `n` entries and that strides and dilations are positive.
    pub fn check(&self, n: usize) -> Result<()> {
        let lens = [
            ("strides", self.strides.len()),
            ("pad_low", self.pad_low.len()),
            ("pad_high", self.pad_high.len()),
            ("base dilations", self.base_dilation.len()),
            ("window dilations", self.window_dilation.len()),
        ];
        if let Some((what, len)) = lens.iter().find(|(_, len)| *len != n) {
            return Err(format!(
                "the window has {len} {what} for {n} windowed dimensions"
            ));
        }
        let positive = [
            ("stride", &self.strides),
            ("base dilation", &self.base_dilation),
            ("window dilation", &self.window_dilation),
        ];
        for (what, xs) in positive {
            if let Some(d) = xs.iter().position(|&x| x == 0) {
                return Err(format!("the window's {what} of dimension {d} is 0"));
            }
        }
        Ok(())
    }

    /// The number of windows along windowed dim `d` of an operand of size `n` with a window of
    /// `k` positions (an error when the padding crops more than the operand holds).
    pub fn output_size(&self, d: usize, n: usize, k: usize) -> Result<usize> {
        let dilated = |size: usize, dil: usize| -> Option<i128> {
            if size == 0 {
                Some(0)
            } else {
                (size as i128 - 1).checked_mul(dil as i128).map(|x| x + 1)
            }
        };
        let too_big = || format!("the window of dimension {d} overflows");
        let base = dilated(n, self.base_dilation[d]).ok_or_else(too_big)?;
        let padded = base + i128::from(self.pad_low[d]) + i128::from(self.pad_high[d]);
        if padded < 0 {
            return Err(format!(
                "the padding of dimension {d} ({}, {}) crops more than its {base} positions",
                self.pad_low[d], self.pad_high[d]
            ));
        }
        let wide = dilated(k, self.window_dilation[d]).ok_or_else(too_big)?;
        if k == 0 || wide > padded {
            return Ok(0);
        }
        usize::try_from((padded - wide) / self.strides[d] as i128 + 1).map_err(|_| too_big())
    }

    /// The operand index that window position `k` of output position `o` reads along windowed
    /// dim `d` of an operand of size `n`; `None` in padding or in a dilation hole.
    pub fn source_index(&self, d: usize, n: usize, o: usize, k: usize) -> Option<usize> {
        let p = (o * self.strides[d] + k * self.window_dilation[d]) as i64 - self.pad_low[d];
        let b = self.base_dilation[d] as i64;
        if p < 0 || p % b != 0 {
            return None;
        }
        let i = (p / b) as usize;
        (i < n).then_some(i)
    }
}

/// The attributes of a `convolution` (StableHLO's): which operand dims play which part, the
/// window over the spatial dims, and the groups.
///
/// Output element `(b, f, spatial o)` is the sum over the kernel's input features `c` and
/// window positions `k` (row-major) of `input[b', g*C + c, src(o, k)] * kernel[f, c, k']`,
/// where `g = f / (O / feature_groups)` is the feature group of `f` (`C` the kernel's input
/// features), `b' = (f / (O / batch_groups)) * B + b` picks the batch group (`B` the result's
/// batch size), `k'` is `k` with the reversed dims reversed, and positions in padding or a
/// dilation hole read zero.
#[derive(
    Clone,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct ConvDims {
    /// The input's dims: `[batch, feature, spatial...]`.
    pub input: Vec<usize>,
    /// The kernel's dims: `[output feature, input feature, spatial...]`.
    pub kernel: Vec<usize>,
    /// The result's dims: `[batch, feature, spatial...]`.
    pub output: Vec<usize>,
    /// The window over the spatial dims (`lhs_dilation` is the base dilation, `rhs_dilation`
    /// the window dilation).
    pub window: Window,
    /// Per spatial dim: is the kernel read reversed (`window_reversal`)?
    pub reverse: Vec<bool>,
    /// The input features split in this many groups, each convolved with its share of the
    /// kernel's output features (1: no grouping; depthwise convolutions use the feature count).
    pub feature_groups: usize,
    /// The input batch split in this many groups, each convolved with its share of the
    /// kernel's output features (1: no grouping; JAX emits it for weight gradients).
    pub batch_groups: usize,
    /// The result's element type when it is wider than the operands' (`preferred_element_type`):
    /// products and sums are computed in it. `None`: the operands' own.
    pub result_dtype: Option<DType>,
}

impl ConvDims {
    /// A convolution over `n` spatial dims with every tensor laid out `[batch or output
    /// feature, feature, spatial...]` (NCHW, OIHW), the plain window and no groups.
    pub fn plain(n: usize) -> Self {
        let layout: Vec<usize> = (0..n + 2).collect();
        ConvDims {
            input: layout.clone(),
            kernel: layout.clone(),
            output: layout,
            window: Window::unit(n),
            reverse: vec![false; n],
            feature_groups: 1,
            batch_groups: 1,
            result_dtype: None,
        }
    }

    /// The number of spatial dims.
    pub fn spatial_rank(&self) -> usize {
        self.input.len().saturating_sub(2)
    }
}

/// The attributes of a `reduce_window_sum` / `reduce_window_max`: the window's shape and
/// placement over every dim of the operand.
///
/// Output element `o` is the reduction, starting from the init operand, of the window at `o`
/// in row-major order of its positions; positions in padding or a dilation hole read the init.
#[derive(
    Clone,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct ReduceWindowDims {
    /// The window's size along each dim of the operand.
    pub size: Vec<usize>,
    /// Its placement.
    pub window: Window,
}

/// The attributes of a `pad`: per dim, the padding before (`low`) and after (`high`) the
/// operand, negative to crop, and `interior` padding between consecutive elements.
///
/// Result dim `d` has `low + n + (n - 1) * interior + high` elements (`low + high` when the
/// operand dim `n` is 0): the operand's elements `interior + 1` apart, starting at `low`,
/// every other position the padding value.
#[derive(
    Clone,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct PadDims {
    /// Padding before each dim (negative: elements cropped).
    pub low: Vec<i64>,
    /// Padding after each dim (negative: elements cropped).
    pub high: Vec<i64>,
    /// Padding between consecutive elements of each dim.
    pub interior: Vec<usize>,
}

impl PadDims {
    /// No padding over `n` dims (the identity).
    pub fn none(n: usize) -> Self {
        PadDims {
            low: vec![0; n],
            high: vec![0; n],
            interior: vec![0; n],
        }
    }

    /// Does it pad nothing (the identity)?
    pub fn is_none(&self) -> bool {
        self.low.iter().chain(&self.high).all(|&x| x == 0) && self.interior.iter().all(|&x| x == 0)
    }

    /// The padding as a window of one position: stride 1, the same low and high padding, the
    /// interior padding as a base dilation of `interior + 1`. Result position `o` of dim `d`
    /// reads `Window::source_index(d, n, o, 0)`.
    pub fn window(&self) -> Window {
        let n = self.low.len();
        Window {
            strides: vec![1; n],
            pad_low: self.low.clone(),
            pad_high: self.high.clone(),
            base_dilation: self.interior.iter().map(|&i| i.saturating_add(1)).collect(),
            window_dilation: vec![1; n],
        }
    }
}

/// The result type of `pad(x, value)` with attributes `p`.
pub fn pad_type(x: &TensorType, value: &TensorType, p: &PadDims) -> Result<TensorType> {
    let r = x.rank();
    for (what, len) in [
        ("low", p.low.len()),
        ("high", p.high.len()),
        ("interior", p.interior.len()),
    ] {
        if len != r {
            return Err(format!(
                "the {what} padding has {len} entries for the operand {x}"
            ));
        }
    }
    if *value != TensorType::scalar(x.dtype) {
        return Err(format!(
            "the padding value must be a {} scalar, found {value}",
            x.dtype
        ));
    }
    let w = p.window();
    let shape = (0..r)
        .map(|d| w.output_size(d, x.shape[d], 1))
        .collect::<Result<Vec<_>>>()?;
    Ok(TensorType::new(x.dtype, shape))
}

/// The result type of `select_and_scatter_<select>(operand, source, init)` with window `w`:
/// the operand's. The source holds one element per window (as `reduce_window` would give),
/// the init is a scalar, all of the operand's dtype; the window has no dilation.
pub fn select_and_scatter_type(
    select: SelectKind,
    x: &TensorType,
    source: &TensorType,
    init: &TensorType,
    w: &ReduceWindowDims,
) -> Result<TensorType> {
    if x.dtype == DType::Bool {
        return Err(format!("`{}` is not defined on bool", select.name()));
    }
    let n = x.rank();
    if w.window.base_dilation != vec![1; n] || w.window.window_dilation != vec![1; n] {
        return Err(format!(
            "`{}` has no base or window dilation",
            select.name()
        ));
    }
    let windows = reduce_window_type(ReduceKind::Sum, x, init, w)?;
    if *source != windows {
        return Err(format!(
            "the source must have one element per window, {windows}, found {source}"
        ));
    }
    Ok(x.clone())
}

/// Checks that `dims` is a permutation of the `rank` dims of `what`.
fn check_layout(dims: &[usize], rank: usize, what: &str) -> Result<()> {
    if dims.len() != rank || !crate::infer::is_permutation(dims) {
        return Err(format!(
            "the {what} dims {dims:?} are not a permutation of its {rank} dims"
        ));
    }
    Ok(())
}

/// The result type of `convolution(lhs, rhs)` with attributes `c`.
pub fn convolution_type(l: &TensorType, r: &TensorType, c: &ConvDims) -> Result<TensorType> {
    let n = c.spatial_rank();
    if l.rank() < 2 {
        return Err(format!(
            "the convolution input {l} needs a batch and a feature dim"
        ));
    }
    if r.rank() != l.rank() {
        return Err(format!(
            "the convolution input {l} and kernel {r} have different ranks"
        ));
    }
    check_layout(&c.input, l.rank(), "input")?;
    check_layout(&c.kernel, r.rank(), "kernel")?;
    check_layout(&c.output, l.rank(), "output")?;
    c.window.check(n)?;
    if c.reverse.len() != n {
        return Err(format!(
            "`reverse` has {} entries for {n} spatial dims",
            c.reverse.len()
        ));
    }
    if l.dtype != r.dtype {
        return Err(format!(
            "the convolution input {l} and kernel {r} differ in dtype"
        ));
    }
    if l.dtype == DType::Bool {
        return Err("`convolution` is not defined on bool".into());
    }
    let (fg, bg) = (c.feature_groups, c.batch_groups);
    if fg == 0 || bg == 0 {
        return Err("the feature and batch group counts must be positive".into());
    }
    if fg > 1 && bg > 1 {
        return Err(format!(
            "feature_groups ({fg}) and batch_groups ({bg}) cannot both be above 1"
        ));
    }
    let (batch, in_features) = (l.shape[c.input[0]], l.shape[c.input[1]]);
    let (out_features, kernel_in) = (r.shape[c.kernel[0]], r.shape[c.kernel[1]]);
    if kernel_in * fg != in_features {
        return Err(format!(
            "the kernel takes {kernel_in} input features x {fg} group(s), the input has {in_features}"
        ));
    }
    if batch % bg != 0 {
        return Err(format!(
            "the input batch {batch} does not split in {bg} batch groups"
        ));
    }
    if out_features % fg != 0 || out_features % bg != 0 {
        return Err(format!(
            "the kernel's {out_features} output features do not split in {} groups",
            fg.max(bg)
        ));
    }
    let mut shape = vec![0; l.rank()];
    shape[c.output[0]] = batch / bg;
    shape[c.output[1]] = out_features;
    for d in 0..n {
        let (i, k) = (l.shape[c.input[2 + d]], r.shape[c.kernel[2 + d]]);
        shape[c.output[2 + d]] = c.window.output_size(d, i, k)?;
    }
    let dtype = match c.result_dtype {
        None => l.dtype,
        Some(d) if crate::infer::widens(l.dtype, d) => d,
        Some(d) => {
            return Err(format!(
                "a convolution of {} operands cannot accumulate in {d} (a wider type of the same kind is needed)",
                l.dtype
            ))
        }
    };
    Ok(TensorType::new(dtype, shape))
}

/// The result type of `reduce_window_<kind>(x, init)` with attributes `w`.
pub fn reduce_window_type(
    kind: ReduceKind,
    x: &TensorType,
    init: &TensorType,
    w: &ReduceWindowDims,
) -> Result<TensorType> {
    if w.size.len() != x.rank() {
        return Err(format!(
            "the window has {} dims for the operand {x}",
            w.size.len()
        ));
    }
    w.window.check(x.rank())?;
    if *init != TensorType::scalar(x.dtype) {
        return Err(format!(
            "the init must be a {} scalar, found {init}",
            x.dtype
        ));
    }
    if kind != ReduceKind::Max && x.dtype == DType::Bool {
        return Err(format!("`{}` is not defined on bool", kind.window_name()));
    }
    let shape = (0..x.rank())
        .map(|d| w.window.output_size(d, x.shape[d], w.size[d]))
        .collect::<Result<Vec<_>>>()?;
    Ok(TensorType::new(x.dtype, shape))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32t(shape: &[usize]) -> TensorType {
        TensorType::new(DType::F32, shape.to_vec())
    }

    #[test]
    fn output_sizes_follow_padding_stride_and_dilation() {
        let mut w = Window::unit(1);
        assert_eq!(w.output_size(0, 5, 3), Ok(3));
        w.pad_low[0] = 1;
        w.pad_high[0] = 1;
        assert_eq!(w.output_size(0, 5, 3), Ok(5));
        w.strides[0] = 2;
        assert_eq!(w.output_size(0, 5, 3), Ok(3));
        w.window_dilation[0] = 2; // a window 5 wide in 7 positions
        assert_eq!(w.output_size(0, 5, 3), Ok(2));
        w.base_dilation[0] = 2; // 9 positions + 2 padding
        assert_eq!(w.output_size(0, 5, 3), Ok(4));
        assert_eq!(w.output_size(0, 1, 9), Ok(0), "wider than the operand");
        w.pad_low[0] = -20;
        assert!(w.output_size(0, 5, 3).unwrap_err().contains("crops"));
    }

    #[test]
    fn source_indices_skip_padding_and_holes() {
        let w = Window {
            pad_low: vec![1],
            pad_high: vec![0],
            base_dilation: vec![2],
            ..Window::unit(1)
        };
        // Padded and dilated [pad, x0, hole, x1, hole, x2].
        let row: Vec<Option<usize>> = (0..6).map(|k| w.source_index(0, 3, 0, k)).collect();
        assert_eq!(row, [None, Some(0), None, Some(1), None, Some(2)]);
    }

    #[test]
    fn convolution_types_nhwc_with_padding_and_groups() {
        let c = ConvDims {
            input: vec![0, 3, 1, 2],
            kernel: vec![3, 2, 0, 1],
            output: vec![0, 3, 1, 2],
            window: Window {
                pad_low: vec![1, 1],
                pad_high: vec![1, 1],
                ..Window::unit(2)
            },
            ..ConvDims::plain(2)
        };
        let r = convolution_type(&f32t(&[8, 32, 32, 3]), &f32t(&[3, 3, 3, 16]), &c);
        assert_eq!(r.map(|t| t.shape), Ok(vec![8, 32, 32, 16]));
        let grouped = ConvDims {
            feature_groups: 3,
            ..c.clone()
        };
        let r = convolution_type(&f32t(&[8, 32, 32, 3]), &f32t(&[3, 3, 1, 6]), &grouped);
        assert_eq!(r.map(|t| t.shape), Ok(vec![8, 32, 32, 6]));
    }

    #[test]
    fn convolution_errors_say_what_is_wrong() {
        let c = ConvDims::plain(1);
        let err = |l: &[usize], r: &[usize], c: &ConvDims| {
            convolution_type(&f32t(l), &f32t(r), c).unwrap_err()
        };
        assert!(err(&[1, 2, 5], &[4, 3, 3], &c).contains("input features"));
        let bad_layout = ConvDims {
            input: vec![0, 0, 2],
            ..c.clone()
        };
        assert!(err(&[1, 2, 5], &[4, 2, 3], &bad_layout).contains("permutation"));
        let both = ConvDims {
            feature_groups: 2,
            batch_groups: 2,
            ..c.clone()
        };
        assert!(err(&[2, 2, 5], &[4, 1, 3], &both).contains("cannot both"));
        let zero = ConvDims {
            window: Window {
                strides: vec![0],
                ..Window::unit(1)
            },
            ..c.clone()
        };
        assert!(err(&[1, 2, 5], &[4, 2, 3], &zero).contains("stride"));
        let narrow = ConvDims {
            result_dtype: Some(DType::F16),
            ..c
        };
        assert!(err(&[1, 2, 5], &[4, 2, 3], &narrow).contains("accumulate"));
    }

    #[test]
    fn reduce_window_types_and_errors() {
        let w = ReduceWindowDims {
            size: vec![1, 2, 2, 1],
            window: Window {
                strides: vec![1, 2, 2, 1],
                ..Window::unit(4)
            },
        };
        let x = f32t(&[8, 32, 32, 16]);
        let init = TensorType::scalar(DType::F32);
        let r = reduce_window_type(ReduceKind::Max, &x, &init, &w);
        assert_eq!(r.map(|t| t.shape), Ok(vec![8, 16, 16, 16]));
        let bad = reduce_window_type(ReduceKind::Max, &x, &f32t(&[1]), &w);
        assert!(bad.unwrap_err().contains("init"));
        let short = ReduceWindowDims { size: vec![2], ..w };
        let bad = reduce_window_type(ReduceKind::Sum, &x, &init, &short);
        assert!(bad.unwrap_err().contains("window has 1 dims"));
    }
}
