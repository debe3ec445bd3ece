//! The attributes of StableHLO's windowed ops read into PTIR's: a `convolution`'s dimension
//! numbers (compact `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` or `raw` fields), groups and
//! window, and the window of a `reduce_window` or a `select_and_scatter` (which has no
//! dilations). Each attribute may be left out at StableHLO's
//! default (stride 1, no padding, no dilation, no reversal, one group).

use crate::ast::{find_attr, Attr, Dense, Elem, OpSyntax};
use crate::error::{Pos, Result};
use ptir_ir::{ConvDims, ReduceWindowDims, Window};

/// The window of `op` over `n` dims, the dilations under the op's own names (`lhs_dilation`
/// and `rhs_dilation`, or `base_dilations` and `window_dilations`).
fn window_of(op: &OpSyntax, n: usize, dilations: [&str; 2]) -> Result<Window> {
    let pos = op.pos;
    let sizes = |name: &str| -> Result<Vec<usize>> {
        let xs = match op.attr(name) {
            None => return Ok(vec![1; n]),
            Some(Attr::Ints(xs)) => xs,
            Some(_) => return Err(pos.syntax(format!("`{name}` must be a list of integers"))),
        };
        let xs = (xs.iter())
            .map(|&x| usize::try_from(x).ok().filter(|&x| x > 0))
            .collect::<Option<Vec<usize>>>()
            .ok_or_else(|| pos.invalid(format!("`{name}` must be positive, found {xs:?}")))?;
        expect_len(&xs, n, name, pos)?;
        Ok(xs)
    };
    let (pad_low, pad_high) = padding(op, n)?;
    Ok(Window {
        strides: sizes("window_strides")?,
        pad_low,
        pad_high,
        base_dilation: sizes(dilations[0])?,
        window_dilation: sizes(dilations[1])?,
    })
}

fn expect_len<T>(xs: &[T], n: usize, name: &str, pos: Pos) -> Result<()> {
    if xs.len() == n {
        Ok(())
    } else {
        Err(pos.invalid(format!(
            "`{name}` has {} entries for {n} windowed dimensions",
            xs.len()
        )))
    }
}

/// `padding`: `dense<[[lo, hi], ...]> : tensor<Nx2xi64>` (a splat for all alike), or the
/// flattened pairs of a pretty convolution's `pad = [[lo, hi], ...]`.
fn padding(op: &OpSyntax, n: usize) -> Result<(Vec<i64>, Vec<i64>)> {
    let pos = op.pos;
    let flat: Vec<i64> = match op.attr("padding") {
        None => vec![0; 2 * n],
        Some(Attr::Ints(xs)) => xs.clone(),
        Some(Attr::Dense(Dense::Elems(elems), _)) => {
            let xs = (elems.iter())
                .map(|e| match e {
                    Elem::Num(s) => s.parse::<i64>().ok(),
                    _ => None,
                })
                .collect::<Option<Vec<i64>>>()
                .ok_or_else(|| pos.syntax("`padding` must hold integers"))?;
            match xs.as_slice() {
                [x] => vec![*x; 2 * n],
                _ => xs,
            }
        }
        Some(_) => return Err(pos.syntax("`padding` must be `dense<...>` of integer pairs")),
    };
    expect_len(&flat, 2 * n, "padding", pos)?;
    Ok(flat.chunks(2).map(|p| (p[0], p[1])).unzip())
}

/// The window of a `stablehlo.reduce_window` or `stablehlo.select_and_scatter`.
pub(crate) fn reduce_window_dims(op: &OpSyntax) -> Result<ReduceWindowDims> {
    let size = super::ints_attr(op, &["window_dimensions"])?;
    let window = window_of(op, size.len(), ["base_dilations", "window_dilations"])?;
    Ok(ReduceWindowDims { size, window })
}

/// The attributes of a `stablehlo.convolution` (`precision_config` is not read: PTIR
/// computes at the dtype's precision).
pub(crate) fn conv_dims(op: &OpSyntax) -> Result<ConvDims> {
    let pos = op.pos;
    let [input, kernel, output] = match op.attr("dimension_numbers") {
        Some(Attr::ConvLabels(labels)) => [
            layout(&labels[0], ["b", "f"], pos)?,
            layout(&labels[1], ["o", "i"], pos)?,
            layout(&labels[2], ["b", "f"], pos)?,
        ],
        Some(Attr::Struct(fields)) => {
            let one = |k: &str| match find_attr(fields, k) {
                Some(Attr::Int(x)) => usize::try_from(*x)
                    .map(|x| vec![x])
                    .map_err(|_| pos.invalid(format!("`{k}` must be a dimension"))),
                _ => Err(pos.syntax(format!("the dimension numbers need `{k}`"))),
            };
            let many = |k: &str| -> Result<Vec<usize>> {
                Ok(super::dims_in(fields, k, pos)?.unwrap_or_default())
            };
            let roles = |a: &str, b: &str, s: &str| -> Result<Vec<usize>> {
                Ok([one(a)?, one(b)?, many(s)?].concat())
            };
            [
                roles(
                    "input_batch_dimension",
                    "input_feature_dimension",
                    "input_spatial_dimensions",
                )?,
                roles(
                    "kernel_output_feature_dimension",
                    "kernel_input_feature_dimension",
                    "kernel_spatial_dimensions",
                )?,
                roles(
                    "output_batch_dimension",
                    "output_feature_dimension",
                    "output_spatial_dimensions",
                )?,
            ]
        }
        _ => {
            return Err(
                pos.syntax("`stablehlo.convolution` needs `dim_numbers` (`dimension_numbers`)")
            )
        }
    };
    let n = input.len().saturating_sub(2);
    let group = |name: &str| match op.attr(name) {
        None => Ok(1),
        Some(Attr::Int(x)) => usize::try_from(*x)
            .ok()
            .filter(|&x| x > 0)
            .ok_or_else(|| pos.invalid(format!("`{name}` must be positive, found {x}"))),
        Some(_) => Err(pos.syntax(format!("`{name}` must be an integer"))),
    };
    let reverse = match op.attr("window_reversal") {
        None => vec![false; n],
        Some(Attr::Bools(flags)) => flags.clone(),
        Some(Attr::Dense(Dense::Elems(elems), _)) => (elems.iter())
            .map(|e| matches!(e, Elem::Bool(true)))
            .collect(),
        Some(_) => return Err(pos.syntax("`window_reversal` must be a list of flags")),
    };
    let reverse = match reverse.as_slice() {
        [r] if n > 1 => vec![*r; n],
        _ => reverse,
    };
    expect_len(&reverse, n, "window_reversal", pos)?;
    Ok(ConvDims {
        window: window_of(op, n, ["lhs_dilation", "rhs_dilation"])?,
        input,
        kernel,
        output,
        reverse,
        feature_groups: group("feature_group_count")?,
        batch_groups: group("batch_group_count")?,
        result_dtype: None,
    })
}

/// The dims of a tensor by role, `[first, second, spatial...]`, from one label per dim
/// (`[b, 0, 1, f]`: the batch is dim 0, the features dim 3, spatial dim 0 is dim 1).
fn layout(labels: &[String], roles: [&str; 2], pos: Pos) -> Result<Vec<usize>> {
    let mut dims: Vec<Option<usize>> = vec![None; labels.len()];
    for (d, label) in labels.iter().enumerate() {
        let role = match label.as_str() {
            l if l == roles[0] => Some(0),
            l if l == roles[1] => Some(1),
            l => l.parse::<usize>().ok().map(|s| s + 2),
        };
        match role.and_then(|r| dims.get_mut(r)) {
            Some(slot @ None) => *slot = Some(d),
            _ => {
                return Err(pos.invalid(format!(
                    "convolution dimension labels [{}]: `{label}` is not one of {}, {} and the spatial dims 0..{} once each",
                    labels.join(", "),
                    roles[0],
                    roles[1],
                    labels.len().saturating_sub(2)
                )))
            }
        }
    }
    Ok(dims.into_iter().flatten().collect())
}
