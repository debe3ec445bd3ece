//! `convolution` and `reduce_window_*` on small hand-computed cases: padding, strides, both
//! dilations, reversal, feature and batch groups, layouts, and max, average and cumulative
//! pooling.

use super::*;
use crate::{ConvDims, ReduceKind, ReduceWindowDims, Window};
use DType::*;

/// A 1-D convolution (`[batch, feature, width]` layouts) of `x` by `k` with `dims` changed
/// by `edit`.
fn conv1(x: &[f64], k: &[f64], edit: impl FnOnce(&mut ConvDims), out: usize) -> Vec<f64> {
    let mut c = ConvDims::plain(1);
    edit(&mut c);
    let (x, k) = (f32s(&[1, 1, x.len()], x), f32s(&[1, 1, k.len()], k));
    nums(&apply_ok(
        Op::Convolution(Box::new(c)),
        &[x, k],
        ty(F32, &[1, 1, out]),
    ))
}

#[test]
fn convolution_1d_padding_stride_dilations_and_reversal() {
    let x = [1.0, 2.0, 3.0, 4.0, 5.0];
    let k = [1.0, 0.0, -1.0];
    assert_eq!(conv1(&x, &k, |_| {}, 3), [-2.0, -2.0, -2.0]);
    let pad = |c: &mut ConvDims| {
        c.window.pad_low = vec![1];
        c.window.pad_high = vec![1];
    };
    assert_eq!(conv1(&x, &k, pad, 5), [-2.0, -2.0, -2.0, -2.0, 4.0]);
    let strided = |c: &mut ConvDims| {
        pad(c);
        c.window.strides = vec![2];
    };
    assert_eq!(conv1(&x, &k, strided, 3), [-2.0, -2.0, 4.0]);
    // The window x0, x2, x4.
    let rhs = |c: &mut ConvDims| c.window.window_dilation = vec![2];
    assert_eq!(conv1(&x, &k, rhs, 1), [-4.0]);
    // The input 1 _ 2 _ 3 _ 4 _ 5, holes reading zero.
    let lhs = |c: &mut ConvDims| c.window.base_dilation = vec![2];
    assert_eq!(
        conv1(&x, &k, lhs, 7),
        [-1.0, 0.0, -1.0, 0.0, -1.0, 0.0, -1.0]
    );
    let reversed = |c: &mut ConvDims| c.reverse = vec![true];
    assert_eq!(conv1(&x, &k, reversed, 3), [2.0, 2.0, 2.0]);
    // Negative padding crops.
    let cropped = |c: &mut ConvDims| c.window.pad_low = vec![-2];
    assert_eq!(conv1(&x, &k, cropped, 1), [-2.0]);
}

#[test]
fn convolution_padding_is_a_zero_times_the_kernel() {
    let pad = |c: &mut ConvDims| c.window.pad_low = vec![1];
    let r = conv1(&[2.0], &[f64::INFINITY], pad, 2);
    assert!(r[0].is_nan(), "0 * inf in the padding: {r:?}");
    assert_eq!(r[1], f64::INFINITY);
}

#[test]
fn convolution_feature_and_batch_groups() {
    // Two feature groups: each output feature sees its own input feature.
    let mut c = ConvDims::plain(1);
    c.feature_groups = 2;
    let x = f32s(&[1, 2, 3], &[1.0, 2.0, 3.0, 10.0, 20.0, 30.0]);
    let k = f32s(&[2, 1, 1], &[2.0, 3.0]);
    let r = apply_ok(Op::Convolution(Box::new(c)), &[x, k], ty(F32, &[1, 2, 3]));
    assert_eq!(nums(&r), [2.0, 4.0, 6.0, 30.0, 60.0, 90.0]);
    // Two batch groups: each output feature sees its own half of the batch.
    let mut c = ConvDims::plain(1);
    c.batch_groups = 2;
    let x = f32s(&[2, 1, 2], &[1.0, 2.0, 3.0, 4.0]);
    let k = f32s(&[2, 1, 1], &[10.0, 100.0]);
    let r = apply_ok(Op::Convolution(Box::new(c)), &[x, k], ty(F32, &[1, 2, 2]));
    assert_eq!(nums(&r), [10.0, 20.0, 300.0, 400.0]);
    // No groups: every output feature sums over every input feature.
    let x = f32s(&[1, 2, 1], &[1.0, 10.0]);
    let k = f32s(&[2, 2, 1], &[1.0, 2.0, 3.0, 4.0]);
    let plain = Op::Convolution(Box::new(ConvDims::plain(1)));
    let r = apply_ok(plain, &[x, k], ty(F32, &[1, 2, 1]));
    assert_eq!(nums(&r), [21.0, 43.0]);
}

#[test]
fn convolution_nhwc_hwio_with_same_padding() {
    // JAX's `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`, a 2x2 kernel of ones padded by 1.
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
    let x = f32s(&[1, 2, 2, 1], &[1.0, 2.0, 3.0, 4.0]);
    let k = f32s(&[2, 2, 1, 1], &[1.0; 4]);
    let r = apply_ok(
        Op::Convolution(Box::new(c)),
        &[x, k],
        ty(F32, &[1, 3, 3, 1]),
    );
    assert_eq!(nums(&r), [1.0, 3.0, 2.0, 4.0, 10.0, 6.0, 3.0, 7.0, 4.0]);
}

#[test]
fn convolution_accumulates_in_a_wider_result_dtype() {
    // 2048 + 1 + 1 is 2048 in f16 step by step, 2050 in f32.
    let c = ConvDims {
        result_dtype: Some(F32),
        ..ConvDims::plain(1)
    };
    let x = val(F16, &[1, 1, 3], &[2048.0, 1.0, 1.0]);
    let k = val(F16, &[1, 1, 3], &[1.0; 3]);
    let r = apply_ok(Op::Convolution(Box::new(c)), &[x, k], ty(F32, &[1, 1, 1]));
    assert_eq!(nums(&r), [2050.0]);
}

fn pool(kind: ReduceKind, x: Value, init: Value, w: ReduceWindowDims, out: &[usize]) -> Value {
    let d = x.as_tensor().expect("tensor").ty.dtype;
    let op = Op::ReduceWindow {
        kind,
        dims: Box::new(w),
    };
    apply_ok(op, &[x, init], ty(d, out))
}

/// A window of `size` with `edit` applied to the plain placement.
fn window(size: &[usize], edit: impl FnOnce(&mut Window)) -> ReduceWindowDims {
    let mut window = Window::unit(size.len());
    edit(&mut window);
    ReduceWindowDims {
        size: size.to_vec(),
        window,
    }
}

#[test]
fn max_and_average_pooling_2x2() {
    let x = || f32s(&[4, 4], &(0..16).map(f64::from).collect::<Vec<_>>());
    let w = || window(&[2, 2], |w| w.strides = vec![2, 2]);
    let neg_inf = f32s(&[], &[f64::NEG_INFINITY]);
    let r = pool(ReduceKind::Max, x(), neg_inf, w(), &[2, 2]);
    assert_eq!(nums(&r), [5.0, 7.0, 13.0, 15.0]);
    let r = pool(ReduceKind::Sum, x(), f32s(&[], &[0.0]), w(), &[2, 2]);
    assert_eq!(nums(&r), [10.0, 18.0, 42.0, 50.0]);
    let nan = f32s(&[2], &[f64::NAN, 1.0]);
    let r = pool(
        ReduceKind::Max,
        nan,
        f32s(&[], &[0.0]),
        window(&[2], |_| {}),
        &[1],
    );
    assert!(nums(&r)[0].is_nan());
}

#[test]
fn cumulative_sum_by_a_padded_window() {
    // How `jnp.cumsum` lowers: a window as wide as the row, padded before by one less.
    let x = val(I64, &[4], &[1.0, 2.0, 3.0, 4.0]);
    let w = window(&[4], |w| w.pad_low = vec![3]);
    let r = pool(ReduceKind::Sum, x, val(I64, &[], &[0.0]), w, &[4]);
    assert_eq!(nums(&r), [1.0, 3.0, 6.0, 10.0]);
}

#[test]
fn reduce_window_padding_and_holes_read_the_init() {
    // Each padding position adds the init once more, as does the start.
    let x = || i32s(&[3], &[1, 2, 3]);
    let ten = || i32s(&[], &[10]);
    let padded = window(&[2], |w| {
        w.pad_low = vec![1];
        w.pad_high = vec![1];
    });
    let r = pool(ReduceKind::Sum, x(), ten(), padded, &[4]);
    assert_eq!(nums(&r), [21.0, 13.0, 15.0, 23.0]);
    let dilated = window(&[2], |w| w.base_dilation = vec![2]);
    let r = pool(ReduceKind::Sum, x(), i32s(&[], &[0]), dilated, &[4]);
    assert_eq!(nums(&r), [1.0, 2.0, 2.0, 3.0]);
    let spread = window(&[2], |w| w.window_dilation = vec![2]);
    let five = i32s(&[5], &[1, 2, 3, 4, 5]);
    let r = pool(ReduceKind::Sum, five, i32s(&[], &[0]), spread, &[3]);
    assert_eq!(nums(&r), [4.0, 6.0, 8.0]);
    let b = bools(&[3], &[false, true, false]);
    let r = pool(
        ReduceKind::Max,
        b,
        bools(&[], &[false]),
        window(&[2], |_| {}),
        &[2],
    );
    assert_eq!(r, bools(&[2], &[true, true]));
}
