//! `convolution`, `reduce_window_*`, `select_and_scatter_*`, `pad` and `reverse` on small
//! hand-computed cases: padding (interior and negative too), strides, both dilations,
//! reversal, feature and batch groups, layouts, max, average and cumulative pooling, and the
//! max pooling gradient with overlapping windows, ties and padding.

use super::*;
use crate::{ConvDims, PadDims, ReduceKind, ReduceWindowDims, SelectKind, Window};
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

/// The typing rule's error for `op` on operands of types `args`.
fn type_error(op: Op, args: &[Type]) -> String {
    let args: Vec<&Type> = args.iter().collect();
    crate::infer_type(&op, &args, &crate::InferContext::default()).expect_err("a type error")
}

fn pad(
    x: Value,
    value: Value,
    low: &[i64],
    high: &[i64],
    interior: &[usize],
    out: &[usize],
) -> Value {
    let d = x.as_tensor().expect("tensor").ty.dtype;
    let p = PadDims {
        low: low.to_vec(),
        high: high.to_vec(),
        interior: interior.to_vec(),
    };
    apply_ok(Op::Pad(Box::new(p)), &[x, value], ty(d, out))
}

#[test]
fn pad_edges_interior_and_negative_padding() {
    let x = || f32s(&[3], &[1.0, 2.0, 3.0]);
    let zero = || f32s(&[], &[0.0]);
    let r = pad(x(), zero(), &[1], &[2], &[1], &[8]);
    assert_eq!(nums(&r), [0.0, 1.0, 0.0, 2.0, 0.0, 3.0, 0.0, 0.0]);
    // 1 _ 2 _ 3 cropped by one at each end.
    let r = pad(x(), zero(), &[-1], &[-1], &[1], &[3]);
    assert_eq!(nums(&r), [0.0, 2.0, 0.0]);
    let r = pad(x(), zero(), &[-2], &[1], &[0], &[2]);
    assert_eq!(nums(&r), [3.0, 0.0]);
    // Rows: x0, a hole, x1, one after; columns: one before.
    let m = i32s(&[2, 2], &[1, 2, 3, 4]);
    let r = pad(m, i32s(&[], &[9]), &[0, 1], &[1, 0], &[1, 0], &[4, 3]);
    assert_eq!(
        nums(&r),
        [9.0, 1.0, 2.0, 9.0, 9.0, 9.0, 9.0, 3.0, 4.0, 9.0, 9.0, 9.0]
    );
    // Cropping more than the operand holds is a type error.
    let p = PadDims {
        low: vec![-4],
        high: vec![0],
        interior: vec![0],
    };
    let e = type_error(Op::Pad(Box::new(p)), &[ty(F32, &[3]), ty(F32, &[])]);
    assert!(e.contains("crops more than its 3 positions"), "{e}");
}

#[test]
fn reverse_of_one_several_and_no_dims() {
    let x = || i32s(&[2, 3], &[0, 1, 2, 3, 4, 5]);
    let rev = |x: Value, dims: &[usize], shape: &[usize]| {
        let op = Op::Reverse {
            dims: dims.to_vec(),
        };
        nums(&apply_ok(op, &[x], ty(I32, shape)))
    };
    assert_eq!(rev(x(), &[0, 1], &[2, 3]), [5.0, 4.0, 3.0, 2.0, 1.0, 0.0]);
    assert_eq!(rev(x(), &[1], &[2, 3]), [2.0, 1.0, 0.0, 5.0, 4.0, 3.0]);
    assert_eq!(rev(x(), &[], &[2, 3]), [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    let cube = i32s(&[2, 2, 2], &[0, 1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(
        rev(cube, &[2, 0], &[2, 2, 2]),
        [5.0, 4.0, 7.0, 6.0, 1.0, 0.0, 3.0, 2.0]
    );
    let bad = Op::Reverse { dims: vec![1, 1] };
    let e = type_error(bad, &[ty(I32, &[2, 3])]);
    assert!(e.contains("reversed dim 1 is repeated"), "{e}");
}

/// `select_and_scatter_<select>(x, source, init)` with window `w`.
fn scatter(select: SelectKind, x: Value, source: Value, init: Value, w: ReduceWindowDims) -> Value {
    let t = x.as_tensor().expect("tensor").ty.clone();
    let op = Op::SelectAndScatter {
        select,
        dims: Box::new(w),
    };
    apply_ok(op, &[x, source, init], t.into())
}

#[test]
fn select_and_scatter_overlapping_windows_add_up() {
    let x = || f32s(&[5], &[1.0, 3.0, 2.0, 3.0, 0.0]);
    let source = || f32s(&[4], &[10.0, 20.0, 30.0, 40.0]);
    let zero = || f32s(&[], &[0.0]);
    // Windows [1,3] [3,2] [2,3] [3,0]: the maxima are x1, x1, x3, x3.
    let r = scatter(SelectKind::Ge, x(), source(), zero(), window(&[2], |_| {}));
    assert_eq!(nums(&r), [0.0, 30.0, 0.0, 70.0, 0.0]);
    // The minima are x0, x2, x2, x4; the init starts every element.
    let r = scatter(
        SelectKind::Le,
        x(),
        source(),
        f32s(&[], &[1.0]),
        window(&[2], |_| {}),
    );
    assert_eq!(nums(&r), [11.0, 1.0, 51.0, 1.0, 41.0]);
    // Max pooling's gradient: 2x2 windows, stride 2.
    let m = i32s(&[4, 4], &(0..16).collect::<Vec<_>>());
    let w = window(&[2, 2], |w| w.strides = vec![2, 2]);
    let r = scatter(
        SelectKind::Ge,
        m,
        i32s(&[2, 2], &[1, 2, 3, 4]),
        i32s(&[], &[0]),
        w,
    );
    let mut want = [0.0; 16];
    (want[5], want[7], want[13], want[15]) = (1.0, 2.0, 3.0, 4.0);
    assert_eq!(nums(&r), want);
}

#[test]
fn select_and_scatter_ties_pick_by_the_comparison() {
    let x = || f32s(&[4], &[5.0, 5.0, 5.0, 5.0]);
    let source = || f32s(&[2], &[1.0, 2.0]);
    let w = || window(&[2], |w| w.strides = vec![2]);
    let run = |k| nums(&scatter(k, x(), source(), f32s(&[], &[0.0]), w()));
    assert_eq!(run(SelectKind::Ge), [1.0, 0.0, 2.0, 0.0], "GE: the first");
    assert_eq!(run(SelectKind::Le), [1.0, 0.0, 2.0, 0.0], "LE: the first");
    assert_eq!(run(SelectKind::Gt), [0.0, 1.0, 0.0, 2.0], "GT: the last");
    assert_eq!(run(SelectKind::Lt), [0.0, 1.0, 0.0, 2.0], "LT: the last");
    // -0 and +0 are equal: GE keeps the first.
    let zeros = f32s(&[2], &[-0.0, 0.0]);
    let r = scatter(
        SelectKind::Ge,
        zeros,
        f32s(&[1], &[3.0]),
        f32s(&[], &[0.0]),
        window(&[2], |_| {}),
    );
    assert_eq!(nums(&r), [3.0, 0.0]);
    // A NaN candidate replaces a number (GE is false), a number replaces a NaN selection.
    let nan = f32s(&[3], &[1.0, f64::NAN, 2.0]);
    let r = scatter(
        SelectKind::Ge,
        nan,
        f32s(&[1], &[3.0]),
        f32s(&[], &[0.0]),
        window(&[3], |_| {}),
    );
    assert_eq!(nums(&r), [0.0, 0.0, 3.0]);
}

#[test]
fn select_and_scatter_never_selects_padding() {
    // Padded [P, -1, -2, -3]: the first window holds one element, which it selects although
    // every element is below the init.
    let x = i32s(&[3], &[-1, -2, -3]);
    let w = window(&[2], |w| {
        w.strides = vec![2];
        w.pad_low = vec![1];
    });
    let r = scatter(
        SelectKind::Ge,
        x,
        i32s(&[2], &[10, 20]),
        i32s(&[], &[100]),
        w,
    );
    assert_eq!(nums(&r), [110.0, 120.0, 100.0]);
    // A window wholly in padding scatters nothing.
    let w = window(&[1], |w| w.pad_low = vec![1]);
    let r = scatter(
        SelectKind::Ge,
        i32s(&[1], &[4]),
        i32s(&[2], &[7, 8]),
        i32s(&[], &[0]),
        w,
    );
    assert_eq!(nums(&r), [8.0]);
    // A source of the wrong shape, or a dilated window, is a type error.
    let op = |w: ReduceWindowDims| Op::SelectAndScatter {
        select: SelectKind::Ge,
        dims: Box::new(w),
    };
    let args = [ty(I32, &[3]), ty(I32, &[3]), ty(I32, &[])];
    let e = type_error(op(window(&[2], |_| {})), &args);
    assert!(
        e.contains("one element per window, i32[2], found i32[3]"),
        "{e}"
    );
    let dilated = window(&[1], |w| w.window_dilation = vec![2]);
    let e = type_error(op(dilated), &args);
    assert!(e.contains("no base or window dilation"), "{e}");
}
