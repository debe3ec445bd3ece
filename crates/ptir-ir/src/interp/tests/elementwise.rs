//! Elementwise ops: unary, binary, comparisons, `select`, `cast`, and rounding per dtype.

use super::*;
use crate::{value_type, BinaryOp, CmpOp, InterpError, UnaryOp};
use DType::*;

const NAN: f64 = f64::NAN;
const INF: f64 = f64::INFINITY;
const MIN32: i64 = i32::MIN as i64;
const MAX32: i64 = i32::MAX as i64;

fn un(op: UnaryOp, x: Value) -> Vec<f64> {
    let t = value_type(&x);
    nums(&apply_ok(Op::Unary(op), &[x], t))
}

fn bin(op: BinaryOp, a: Value, b: Value) -> InterpResult<Value> {
    let t = value_type(&a);
    apply(Op::Binary(op), &[a, b], t)
}

fn bin_ok(op: BinaryOp, a: Value, b: Value) -> Vec<f64> {
    nums(&bin(op, a, b).expect("binary op"))
}

fn cmp(op: CmpOp, a: Value, b: Value) -> Vec<f64> {
    let t = value_type(&a).as_tensor().expect("tensor").with_dtype(Bool);
    nums(&apply_ok(Op::Compare(op), &[a, b], t.into()))
}

fn cast(x: Value, to: DType) -> Vec<f64> {
    let t = value_type(&x).as_tensor().expect("tensor").with_dtype(to);
    nums(&apply_ok(Op::Cast, &[x], t.into()))
}

/// Element-by-element equality that treats NaN as equal to NaN and tells zeros apart.
fn same(found: &[f64], expected: &[f64]) {
    assert_eq!(found.len(), expected.len(), "{found:?} vs {expected:?}");
    for (f, e) in found.iter().zip(expected) {
        let ok = (f.is_nan() && e.is_nan()) || f.to_bits() == e.to_bits();
        assert!(ok, "{found:?} vs {expected:?}");
    }
}

#[test]
fn float_unary_ops_special_values() {
    let x = || val(F64, &[4], &[0.0, -0.0, -INF, INF]);
    same(&un(UnaryOp::Neg, x()), &[-0.0, 0.0, INF, -INF]);
    same(&un(UnaryOp::Exp, x()), &[1.0, 1.0, 0.0, INF]);
    same(&un(UnaryOp::Log, x()), &[-INF, -INF, NAN, INF]);
    same(&un(UnaryOp::Sqrt, x()), &[0.0, -0.0, NAN, INF]);
    same(&un(UnaryOp::Rsqrt, x()), &[INF, -INF, NAN, 0.0]);
    same(&un(UnaryOp::Tanh, x()), &[0.0, -0.0, -1.0, 1.0]);
    same(&un(UnaryOp::Erf, x()), &[0.0, -0.0, -1.0, 1.0]);
    same(&un(UnaryOp::Abs, x()), &[0.0, 0.0, INF, INF]);
    same(&un(UnaryOp::Logistic, x()), &[0.5, 0.5, 0.0, 1.0]);
    same(
        &un(UnaryOp::Sqrt, val(F64, &[2], &[4.0, -1.0])),
        &[2.0, NAN],
    );
    same(&un(UnaryOp::Rsqrt, val(F64, &[1], &[16.0])), &[0.25]);
}

#[test]
fn float_unary_ops_on_ordinary_values() {
    let at = |op: UnaryOp, x: f64| un(op, val(F64, &[1], &[x]))[0];
    let close = |a: f64, b: f64| assert!((a - b).abs() <= 2e-16 * b.abs(), "{a} vs {b}");
    close(at(UnaryOp::Exp, 4.0), 54.598_150_033_144_236);
    close(at(UnaryOp::Log, 4.0), 1.386_294_361_119_890_6);
    close(at(UnaryOp::Tanh, 0.5), 0.462_117_157_260_009_74);
    close(at(UnaryOp::Erf, 1.0), 0.842_700_792_949_714_9);
    close(at(UnaryOp::Logistic, 4.0), 0.982_013_790_037_908_5);
    close(at(UnaryOp::Abs, -2.5), 2.5);
}

#[test]
fn float_unary_ops_round_to_the_dtype() {
    let e = un(UnaryOp::Exp, val(F32, &[1], &[1.0]));
    assert_eq!(e, [std::f32::consts::E as f64]);
    // sqrt(2) = 1.0110101|0000010... in binary: bf16 keeps 8 significant bits.
    assert_eq!(un(UnaryOp::Sqrt, val(BF16, &[1], &[2.0])), [1.4140625]);
    assert_eq!(un(UnaryOp::Logistic, val(F16, &[1], &[0.0])), [0.5]);
}

#[test]
fn integer_and_bool_unary_ops() {
    let x = || i32s(&[4], &[5, -3, MIN32, 0]);
    assert_eq!(un(UnaryOp::Neg, x()), [-5.0, 3.0, MIN32 as f64, 0.0]);
    assert_eq!(un(UnaryOp::Abs, x()), [5.0, 3.0, MIN32 as f64, 0.0]);
    assert_eq!(un(UnaryOp::Not, x()), [-6.0, 2.0, MAX32 as f64, -1.0]);
    let m = Value::Tensor(Tensor {
        ty: tt(I64, &[1]),
        data: crate::Data::Int(vec![i64::MIN]),
    });
    let neg = apply_ok(Op::Unary(UnaryOp::Neg), &[m.clone()], ty(I64, &[1]));
    assert_eq!(neg, m);
    assert_eq!(un(UnaryOp::Not, bools(&[2], &[true, false])), [0.0, 1.0]);
}

#[test]
fn float_binary_ops() {
    let a = || f32s(&[4], &[0.1, -7.0, 1.0, 0.0]);
    let b = || f32s(&[4], &[0.2, 3.0, 0.0, 0.0]);
    let r32 = |x: f32| x as f64;
    same(
        &bin_ok(BinaryOp::Add, a(), b()),
        &[r32(0.1f32 + 0.2f32), -4.0, 1.0, 0.0],
    );
    same(
        &bin_ok(BinaryOp::Sub, a(), b()),
        &[r32(0.1f32 - 0.2f32), -10.0, 1.0, 0.0],
    );
    same(
        &bin_ok(BinaryOp::Mul, a(), b()),
        &[r32(0.1f32 * 0.2f32), -21.0, 0.0, 0.0],
    );
    same(
        &bin_ok(BinaryOp::Div, a(), b()),
        &[0.5, r32(-7f32 / 3f32), INF, NAN],
    );
    let x = f32s(&[4], &[-7.0, 7.0, 5.5, 1.0]);
    let y = f32s(&[4], &[3.0, -3.0, 2.0, 0.0]);
    same(&bin_ok(BinaryOp::Rem, x, y), &[-1.0, 1.0, 1.5, NAN]);
    let x = f32s(&[4], &[2.0, 4.0, 0.0, -8.0]);
    let y = f32s(&[4], &[10.0, 0.5, 0.0, 0.5]);
    same(&bin_ok(BinaryOp::Pow, x, y), &[1024.0, 2.0, 1.0, NAN]);
    let one_over = bin_ok(BinaryOp::Div, f32s(&[1], &[1.0]), f32s(&[1], &[-0.0]));
    same(&one_over, &[-INF]);
}

#[test]
fn max_and_min_propagate_nan_and_order_signed_zeros() {
    let a = || f32s(&[5], &[NAN, 1.0, -0.0, 0.0, -INF]);
    let b = || f32s(&[5], &[1.0, NAN, 0.0, -0.0, 3.0]);
    same(&bin_ok(BinaryOp::Max, a(), b()), &[NAN, NAN, 0.0, 0.0, 3.0]);
    same(
        &bin_ok(BinaryOp::Min, a(), b()),
        &[NAN, NAN, -0.0, -0.0, -INF],
    );
    let ints = bin_ok(BinaryOp::Max, i32s(&[2], &[-1, 5]), i32s(&[2], &[3, MIN32]));
    assert_eq!(ints, [3.0, 5.0]);
}

#[test]
fn i32_arithmetic_wraps() {
    let a = || i32s(&[3], &[MAX32, 65536, 46341]);
    let b = || i32s(&[3], &[1, 65536, 46341]);
    assert_eq!(
        bin_ok(BinaryOp::Add, a(), b()),
        [MIN32 as f64, 131072.0, 92682.0]
    );
    assert_eq!(
        bin_ok(BinaryOp::Mul, a(), b()),
        [MAX32 as f64, 0.0, -2147479015.0]
    );
    let sub = bin_ok(BinaryOp::Sub, i32s(&[1], &[MIN32]), i32s(&[1], &[1]));
    assert_eq!(sub, [MAX32 as f64]);
    let big = Value::Tensor(Tensor {
        ty: tt(I64, &[1]),
        data: crate::Data::Int(vec![i64::MAX]),
    });
    let one = val(I64, &[1], &[1.0]);
    let wrapped = bin(BinaryOp::Add, big, one).expect("i64 add");
    assert_eq!(
        wrapped.as_tensor().map(|t| t.get(0)),
        Some(crate::Scalar::Int(i64::MIN))
    );
}

#[test]
fn integer_division_truncates_and_wraps() {
    let a = || i32s(&[5], &[-7, 7, MIN32, 9, -9]);
    let b = || i32s(&[5], &[2, -2, -1, 3, 4]);
    assert_eq!(
        bin_ok(BinaryOp::Div, a(), b()),
        [-3.0, -3.0, MIN32 as f64, 3.0, -2.0]
    );
    assert_eq!(bin_ok(BinaryOp::Rem, a(), b()), [-1.0, 1.0, 0.0, 0.0, -1.0]);
    let a = i32s(&[2], &[12, -1]);
    let b = i32s(&[2], &[10, 7]);
    assert_eq!(bin_ok(BinaryOp::And, a.clone(), b.clone()), [8.0, 7.0]);
    assert_eq!(bin_ok(BinaryOp::Or, a, b), [14.0, -1.0]);
}

#[test]
fn integer_division_by_zero_is_an_error_with_context() {
    for op in [BinaryOp::Div, BinaryOp::Rem] {
        let err = bin(op, i32s(&[2], &[1, 2]), i32s(&[2], &[1, 0])).unwrap_err();
        assert_eq!(err.root(), &InterpError::DivisionByZero);
        let expected = format!("in @f, instruction %2 = {op}: integer division by zero");
        assert_eq!(err.to_string(), expected);
    }
}

#[test]
fn bool_logic() {
    let a = || bools(&[4], &[false, false, true, true]);
    let b = || bools(&[4], &[false, true, false, true]);
    assert_eq!(bin_ok(BinaryOp::And, a(), b()), [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(bin_ok(BinaryOp::Or, a(), b()), [0.0, 1.0, 1.0, 1.0]);
}

#[test]
fn comparisons_are_ieee_on_floats() {
    let a = || f32s(&[4], &[1.0, NAN, -0.0, 2.0]);
    let b = || f32s(&[4], &[2.0, NAN, 0.0, 1.0]);
    assert_eq!(cmp(CmpOp::Eq, a(), b()), [0.0, 0.0, 1.0, 0.0]);
    assert_eq!(cmp(CmpOp::Ne, a(), b()), [1.0, 1.0, 0.0, 1.0]);
    assert_eq!(cmp(CmpOp::Lt, a(), b()), [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(cmp(CmpOp::Le, a(), b()), [1.0, 0.0, 1.0, 0.0]);
    assert_eq!(cmp(CmpOp::Gt, a(), b()), [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(cmp(CmpOp::Ge, a(), b()), [0.0, 0.0, 1.0, 1.0]);
    assert_eq!(
        cmp(CmpOp::Lt, i32s(&[2], &[1, -5]), i32s(&[2], &[1, 3])),
        [0.0, 1.0]
    );
    let (f, t) = (false, true);
    assert_eq!(
        cmp(CmpOp::Lt, bools(&[2], &[f, t]), bools(&[2], &[t, t])),
        [1.0, 0.0]
    );
}

#[test]
fn select_picks_per_element() {
    let p = bools(&[3], &[true, false, true]);
    let r = apply_ok(
        Op::Select,
        &[p, i32s(&[3], &[1, 2, 3]), i32s(&[3], &[10, 20, 30])],
        ty(I32, &[3]),
    );
    assert_eq!(nums(&r), [1.0, 20.0, 3.0]);
}

#[test]
fn casts_from_floats_truncate_and_saturate() {
    let x = f32s(&[6], &[-2.7, 2.7, 3e9, -3e9, NAN, INF]);
    let big = MAX32 as f64;
    assert_eq!(cast(x, I32), [-2.0, 2.0, big, MIN32 as f64, 0.0, big]);
    assert_eq!(cast(val(F64, &[1], &[1e19]), I64), [i64::MAX as f64]);
    let b = cast(f32s(&[4], &[0.0, -0.0, NAN, 0.5]), Bool);
    assert_eq!(b, [0.0, 0.0, 1.0, 1.0]);
    // f64 -> bf16: ties to even (1 + 2^-8 is halfway between 1 and 1 + 2^-7).
    let halfway = val(F64, &[2], &[1.0 + 2f64.powi(-8), 1.0 + 3.0 * 2f64.powi(-8)]);
    assert_eq!(cast(halfway, BF16), [1.0, 1.0 + 2f64.powi(-6)]);
    assert_eq!(cast(val(F64, &[1], &[0.1]), F32), [0.1f32 as f64]);
}

#[test]
fn casts_from_integers_round_once() {
    let x = i32s(&[4], &[2049, 2051, 70000, 65519]);
    assert_eq!(cast(x, F16), [2048.0, 2052.0, INF, 65504.0]);
    // 2^60 + 2^36 + 1 is just above halfway between two f32 values; rounding through f64
    // first would drop the +1 and then round the tie down.
    let n: i64 = (1 << 60) + (1 << 36) + 1;
    let x = Value::Tensor(Tensor {
        ty: tt(I64, &[2]),
        data: crate::Data::Int(vec![n, -n]),
    });
    let up = ((1i64 << 60) + (1i64 << 37)) as f64;
    assert_eq!(cast(x.clone(), F32), [up, -up]);
    assert_eq!(n as f32 as f64, up);
    assert_eq!(cast(x, BF16), [2f64.powi(60), -(2f64.powi(60))]);
    let wide = Value::Tensor(Tensor {
        ty: tt(I64, &[2]),
        data: crate::Data::Int(vec![(1 << 32) + 5, 1 << 31]),
    });
    assert_eq!(cast(wide, I32), [5.0, MIN32 as f64]);
}

#[test]
fn casts_between_bool_and_numbers() {
    assert_eq!(cast(bools(&[2], &[true, false]), F32), [1.0, 0.0]);
    assert_eq!(cast(bools(&[2], &[true, false]), I64), [1.0, 0.0]);
    assert_eq!(cast(i32s(&[3], &[0, 7, -1]), Bool), [0.0, 1.0, 1.0]);
}

#[test]
fn f16_and_bf16_arithmetic_rounds_every_result() {
    let a = val(F16, &[3], &[2048.0, 2048.0, 65504.0]);
    let b = val(F16, &[3], &[1.0, 3.0, 16.0]);
    // f16 has 11 significant bits: 2049 ties to 2048, 2051 ties to 2052, 65520 overflows.
    assert_eq!(bin_ok(BinaryOp::Add, a, b), [2048.0, 2052.0, INF]);
    let a = val(BF16, &[2], &[1.0, 3.0]);
    let b = val(BF16, &[2], &[2f64.powi(-9), 3.0]);
    assert_eq!(bin_ok(BinaryOp::Add, a.clone(), b.clone()), [1.0, 6.0]);
    assert_eq!(bin_ok(BinaryOp::Div, a, b), [512.0, 1.0]);
    let third = bin_ok(
        BinaryOp::Div,
        val(BF16, &[1], &[1.0]),
        val(BF16, &[1], &[3.0]),
    );
    assert_eq!(third, [0.333984375]);
}
