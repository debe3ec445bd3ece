//! `reduce_sum`, `reduce_max` and `dot_general`, including their accumulation order.

use super::*;
use crate::{DotDims, ReduceKind};
use DType::*;

const BIG: f64 = 16_777_216.0; // 2^24: adding 1 to it in f32 is a tie that rounds back down.

fn iota(d: DType, shape: &[usize]) -> Value {
    let xs: Vec<f64> = (0..crate::num_elements(shape)).map(|i| i as f64).collect();
    val(d, shape, &xs)
}

fn reduce(kind: ReduceKind, axes: &[usize], keep_dims: bool, x: Value, out: &[usize]) -> Value {
    let d = x.as_tensor().expect("tensor").ty.dtype;
    let op = Op::Reduce {
        kind,
        axes: axes.to_vec(),
        keep_dims,
    };
    apply_ok(op, &[x], ty(d, out))
}

fn dot(dims: DotDims, l: Value, r: Value, out: &[usize]) -> Value {
    let d = l.as_tensor().expect("tensor").ty.dtype;
    apply_ok(Op::DotGeneral(Box::new(dims)), &[l, r], ty(d, out))
}

#[test]
fn reduce_sum_over_one_axis_and_several() {
    // x[a,b,c] = 12a + 4b + c.
    let x = || iota(I32, &[2, 3, 4]);
    let r = reduce(ReduceKind::Sum, &[1], false, x(), &[2, 4]);
    assert_eq!(r, i32s(&[2, 4], &[12, 15, 18, 21, 48, 51, 54, 57]));
    let r = reduce(ReduceKind::Sum, &[0, 2], true, x(), &[1, 3, 1]);
    assert_eq!(r, i32s(&[1, 3, 1], &[60, 92, 124]));
    let r = reduce(ReduceKind::Sum, &[2, 0], false, x(), &[3]);
    assert_eq!(r, i32s(&[3], &[60, 92, 124]));
    let r = reduce(ReduceKind::Sum, &[0, 1, 2], false, x(), &[]);
    assert_eq!(r, i32s(&[], &[276]));
    let r = reduce(ReduceKind::Sum, &[], false, x(), &[2, 3, 4]);
    assert_eq!(r, x());
}

#[test]
fn reduce_sum_visits_elements_in_row_major_order() {
    // Row-major: 1 + 2^24 rounds to 2^24, and each later + 1 rounds back down.
    // (Column-major would give 1 + 1 + 2^24 + 1 = 2^24 + 4.)
    let x = || f32s(&[2, 2], &[1.0, BIG, 1.0, 1.0]);
    for axes in [[0, 1], [1, 0]] {
        let r = reduce(ReduceKind::Sum, &axes, true, x(), &[1, 1]);
        assert_eq!(nums(&r), [BIG]);
    }
    let r = reduce(ReduceKind::Sum, &[0], false, x(), &[2]);
    assert_eq!(nums(&r), [2.0, BIG]);
}

#[test]
fn reduce_sum_starts_from_positive_zero_and_wraps() {
    let r = reduce(ReduceKind::Sum, &[0], false, f32s(&[1], &[-0.0]), &[]);
    assert_eq!(bits(&r), [0.0f64.to_bits()]);
    let r = reduce(ReduceKind::Sum, &[0], false, f32s(&[0], &[]), &[]);
    assert_eq!(bits(&r), [0.0f64.to_bits()]);
    let r = reduce(
        ReduceKind::Sum,
        &[0],
        false,
        i32s(&[2], &[i32::MAX as i64, 1]),
        &[],
    );
    assert_eq!(nums(&r), [i32::MIN as f64]);
}

#[test]
fn reduce_max_over_axes() {
    let r = reduce(ReduceKind::Max, &[1], false, iota(I32, &[2, 3, 4]), &[2, 4]);
    assert_eq!(r, i32s(&[2, 4], &[8, 9, 10, 11, 20, 21, 22, 23]));
    let r = reduce(
        ReduceKind::Max,
        &[0, 2],
        true,
        iota(I32, &[2, 3, 4]),
        &[1, 3, 1],
    );
    assert_eq!(r, i32s(&[1, 3, 1], &[15, 19, 23]));
    let r = reduce(ReduceKind::Max, &[0], false, i32s(&[2], &[-5, -7]), &[]);
    assert_eq!(nums(&r), [-5.0]);
}

#[test]
fn reduce_max_propagates_nan_and_orders_zeros() {
    let x = f32s(&[3, 2], &[-0.0, 0.0, f64::NAN, 1.0, -0.0, -0.0]);
    let r = nums(&reduce(ReduceKind::Max, &[1], false, x, &[3]));
    assert_eq!(r[0].to_bits(), 0.0f64.to_bits());
    assert!(r[1].is_nan());
    assert_eq!(r[2].to_bits(), (-0.0f64).to_bits());
}

#[test]
fn reduce_max_of_nothing_is_the_lowest_value() {
    let r = reduce(ReduceKind::Max, &[1], false, f32s(&[2, 0], &[]), &[2]);
    assert_eq!(nums(&r), [f64::NEG_INFINITY; 2]);
    let r = reduce(ReduceKind::Max, &[1], true, i32s(&[1, 0], &[]), &[1, 1]);
    assert_eq!(nums(&r), [i32::MIN as f64]);
    let x = bools(&[2, 2], &[false, false, false, true]);
    let r = reduce(ReduceKind::Max, &[1], false, x, &[2]);
    assert_eq!(r, bools(&[2], &[false, true]));
    let r = reduce(ReduceKind::Max, &[0], false, bools(&[0], &[]), &[]);
    assert_eq!(r, bools(&[], &[false]));
}

#[test]
fn dot_general_matmul() {
    let l = i32s(&[2, 3], &[1, 2, 3, 4, 5, 6]);
    let r = i32s(&[3, 2], &[7, 8, 9, 10, 11, 12]);
    let m = dot(DotDims::matmul(), l, r, &[2, 2]);
    assert_eq!(m, i32s(&[2, 2], &[58, 64, 139, 154]));
}

#[test]
fn dot_general_with_batch_dims() {
    let l = i32s(&[2, 2, 2], &[1, 2, 3, 4, 5, 6, 7, 8]);
    let r = i32s(&[2, 2, 2], &[1, 0, 0, 1, 0, 1, 1, 0]);
    let m = dot(DotDims::batch_matmul(), l, r, &[2, 2, 2]);
    assert_eq!(m, i32s(&[2, 2, 2], &[1, 2, 3, 4, 6, 5, 8, 7]));
}

#[test]
fn dot_general_with_a_non_leading_batch_dim() {
    // lhs[k,b,m], rhs[n,b,k] -> out[b,m,n] = sum_k lhs[k,b,m] * rhs[n,b,k].
    let dims = DotDims {
        lhs_batch: vec![1],
        rhs_batch: vec![1],
        lhs_contract: vec![0],
        rhs_contract: vec![2],
        ..DotDims::default()
    };
    let (lhs, rhs) = (iota(I64, &[2, 2, 3]), iota(I64, &[4, 2, 2]));
    let out = dot(dims, lhs, rhs, &[2, 3, 4]);
    let l_at = |k: usize, b: usize, m: usize| (6 * k + 3 * b + m) as f64;
    let r_at = |n: usize, b: usize, k: usize| (4 * n + 2 * b + k) as f64;
    let mut expected = Vec::new();
    for b in 0..2 {
        for m in 0..3 {
            for n in 0..4 {
                expected.push((0..2).map(|k| l_at(k, b, m) * r_at(n, b, k)).sum::<f64>());
            }
        }
    }
    assert_eq!(nums(&out), expected);
    // Spot check: out[1,2,3] = lhs[0,1,2]*rhs[3,1,0] + lhs[1,1,2]*rhs[3,1,1] = 5*14 + 11*15.
    assert_eq!(nums(&out)[23], 235.0);
}

#[test]
fn dot_general_contracts_in_lhs_contract_order() {
    // Contracting both dims of lhs [[1, 2^24], [1, 1]] with ones. Dims [0,1]: row-major,
    // every + 1 after 2^24 rounds away. Dims [1,0]: column-major, 1 + 1 + 2^24 + 1 = 2^24 + 4.
    let l = || f32s(&[2, 2], &[1.0, BIG, 1.0, 1.0]);
    let ones = || f32s(&[2, 2], &[1.0; 4]);
    let contract = |order: Vec<usize>| DotDims {
        lhs_contract: order.clone(),
        rhs_contract: order,
        ..DotDims::default()
    };
    assert_eq!(nums(&dot(contract(vec![0, 1]), l(), ones(), &[])), [BIG]);
    assert_eq!(
        nums(&dot(contract(vec![1, 0]), l(), ones(), &[])),
        [BIG + 4.0]
    );
}

#[test]
fn dot_general_rounds_each_product_and_each_sum() {
    let a = [0.1f32, 0.2, 0.3, 1e-3];
    let b = [0.7f32, 0.11, 0.13, 3.0];
    let mut acc = 0f32;
    for (x, y) in a.iter().zip(&b) {
        acc += x * y;
    }
    let as64 = |v: &[f32]| v.iter().map(|&x| x as f64).collect::<Vec<_>>();
    let l = f32s(&[1, 4], &as64(&a));
    let r = f32s(&[4, 1], &as64(&b));
    assert_eq!(nums(&dot(DotDims::matmul(), l, r, &[1, 1])), [acc as f64]);
    let wrap = dot(
        DotDims::matmul(),
        i32s(&[1, 2], &[65536, 1]),
        i32s(&[2, 1], &[65536, 1]),
        &[1, 1],
    );
    assert_eq!(nums(&wrap), [1.0]);
}
