//! Data movement and structure: `constant`, `reshape`, `transpose`, `broadcast`, `slice`,
//! `concat`, `tuple`, `tuple_get`, and what `eval_op` refuses.

use super::*;
use crate::{Data, InterpError, Literal, RngDist, Scalar, TENSOR_ELEMENT_LIMIT};
use DType::*;

fn iota(d: DType, shape: &[usize]) -> Value {
    let xs: Vec<f64> = (0..crate::num_elements(shape)).map(|i| i as f64).collect();
    val(d, shape, &xs)
}

#[test]
fn constants_splat_and_dense() {
    let splat = Op::Constant(Literal::Splat(Scalar::Float(1.5)));
    assert_eq!(nums(&apply_ok(splat, &[], ty(F32, &[2, 2]))), [1.5; 4]);
    let dense = Op::Constant(Literal::Dense(Data::Int(vec![1, -2, 3])));
    assert_eq!(nums(&apply_ok(dense, &[], ty(I32, &[3]))), [1.0, -2.0, 3.0]);
}

#[test]
fn reshape_keeps_row_major_order() {
    let r = apply_ok(Op::Reshape, &[iota(F32, &[2, 3])], ty(F32, &[3, 2]));
    assert_eq!(r, iota(F32, &[3, 2]));
    let r = apply_ok(Op::Reshape, &[iota(I32, &[1])], ty(I32, &[]));
    assert_eq!(nums(&r), [0.0]);
}

#[test]
fn transpose_rank_3() {
    // x[a,b,c] = 12a + 4b + c. perm [2,0,1]: r[i,j,k] = x[j,k,i].
    let r = apply_ok(
        Op::Transpose {
            perm: vec![2, 0, 1],
        },
        &[iota(I32, &[2, 3, 4])],
        ty(I32, &[4, 2, 3]),
    );
    let expected = [
        0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21, 2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23,
    ];
    assert_eq!(r, i32s(&[4, 2, 3], &expected));
    // perm [1,2,0]: r[a,b,c] = x[c,a,b].
    let r = apply_ok(
        Op::Transpose {
            perm: vec![1, 2, 0],
        },
        &[iota(I32, &[2, 3, 4])],
        ty(I32, &[3, 4, 2]),
    );
    let expected = [
        0, 12, 1, 13, 2, 14, 3, 15, 4, 16, 5, 17, 6, 18, 7, 19, 8, 20, 9, 21, 10, 22, 11, 23,
    ];
    assert_eq!(r, i32s(&[3, 4, 2], &expected));
}

#[test]
fn broadcast_stretches_size_1_dims_and_adds_new_ones() {
    let x = i32s(&[3, 1], &[1, 2, 3]);
    let r = apply_ok(
        Op::Broadcast { dims: vec![1, 2] },
        &[x],
        ty(I32, &[2, 3, 4]),
    );
    let half = [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3];
    assert_eq!(r, i32s(&[2, 3, 4], &[half, half].concat()));
    let s = apply_ok(
        Op::Broadcast { dims: vec![] },
        &[i32s(&[], &[9])],
        ty(I32, &[2, 2]),
    );
    assert_eq!(nums(&s), [9.0; 4]);
}

#[test]
fn broadcast_can_permute_dims() {
    // Operand dim 0 (size 2) goes to result dim 1, operand dim 1 (size 3) to result dim 0.
    let x = i32s(&[2, 3], &[1, 2, 3, 4, 5, 6]);
    let r = apply_ok(Op::Broadcast { dims: vec![1, 0] }, &[x], ty(I32, &[3, 2]));
    assert_eq!(nums(&r), [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
    // A size-1 dim stretched while the other is moved: r[a,b,c] = x[0,a].
    let x = i32s(&[1, 3], &[7, 8, 9]);
    let r = apply_ok(
        Op::Broadcast { dims: vec![2, 0] },
        &[x],
        ty(I32, &[3, 2, 5]),
    );
    let expected: Vec<i64> = [7, 8, 9].iter().flat_map(|&v| [v; 10]).collect();
    assert_eq!(r, i32s(&[3, 2, 5], &expected));
}

#[test]
fn strided_slices() {
    let slice = |start: &[usize], limit: &[usize], stride: &[usize]| {
        crate::SliceDims::op(start.to_vec(), limit.to_vec(), stride.to_vec())
    };
    let r = apply_ok(slice(&[1], &[8], &[3]), &[iota(I32, &[10])], ty(I32, &[3]));
    assert_eq!(nums(&r), [1.0, 4.0, 7.0]);
    let r = apply_ok(
        slice(&[1, 0], &[4, 5], &[2, 2]),
        &[iota(I32, &[4, 5])],
        ty(I32, &[2, 3]),
    );
    assert_eq!(nums(&r), [5.0, 7.0, 9.0, 15.0, 17.0, 19.0]);
    let r = apply_ok(
        slice(&[0, 1, 2], &[2, 3, 4], &[1, 1, 1]),
        &[iota(I32, &[2, 3, 4])],
        ty(I32, &[2, 2, 2]),
    );
    assert_eq!(nums(&r), [6.0, 7.0, 10.0, 11.0, 18.0, 19.0, 22.0, 23.0]);
    let empty = apply_ok(slice(&[2], &[2], &[1]), &[iota(I32, &[4])], ty(I32, &[0]));
    assert_eq!(nums(&empty), Vec::<f64>::new());
}

#[test]
fn concat_along_each_axis() {
    let a = i32s(&[1, 2], &[1, 2]);
    let b = i32s(&[2, 2], &[3, 4, 5, 6]);
    let r = apply_ok(Op::Concat { axis: 0 }, &[a, b], ty(I32, &[3, 2]));
    assert_eq!(r, i32s(&[3, 2], &[1, 2, 3, 4, 5, 6]));
    let a = i32s(&[2, 1], &[1, 2]);
    let b = i32s(&[2, 2], &[3, 4, 5, 6]);
    let c = i32s(&[2, 1], &[7, 8]);
    let r = apply_ok(Op::Concat { axis: 1 }, &[a, b, c], ty(I32, &[2, 4]));
    assert_eq!(r, i32s(&[2, 4], &[1, 3, 4, 7, 2, 5, 6, 8]));
    let single = apply_ok(
        Op::Concat { axis: 0 },
        &[bools(&[1], &[true])],
        ty(Bool, &[1]),
    );
    assert_eq!(single, bools(&[1], &[true]));
}

#[test]
fn tuples_pack_and_unpack() {
    let (ta, tb) = (ty(F32, &[2]), ty(I32, &[]));
    let pair = Type::Tuple(vec![ta.clone(), tb.clone()]);
    let f = func("f", &[ta.clone(), tb.clone()], |fb, ps| {
        let t = fb.op(Op::Tuple, ps, pair.clone());
        let second = fb.op(Op::TupleGet { index: 1 }, &[t], tb.clone());
        vec![t, second]
    });
    let p = program(vec![f]);
    let (a, b) = (f32s(&[2], &[1.0, 2.0]), i32s(&[], &[5]));
    let out = run_ok(&p, "f", &[a.clone(), b.clone()]);
    assert_eq!(out, vec![Value::Tuple(vec![a, b.clone()]), b]);
}

#[test]
fn eval_op_refuses_what_the_verifier_refuses() {
    let x = f32s(&[2], &[1.0, 2.0]);
    let add = Op::Binary(crate::BinaryOp::Add);
    let bad = eval_op(&add, &[&x, &x], &ty(F32, &[3]));
    assert!(matches!(bad, Err(InterpError::Malformed(_))), "{bad:?}");
    let short = Value::Tensor(Tensor {
        ty: tt(F32, &[3]),
        data: Data::Float(vec![]),
    });
    let bad = eval_op(&add, &[&short, &short], &ty(F32, &[3]));
    assert!(matches!(bad, Err(InterpError::InvalidValue(_))), "{bad:?}");
    let rng = Op::Rng {
        dist: RngDist::Uniform,
    };
    assert_eq!(
        eval_op(&rng, &[], &ty(F32, &[2])),
        Err(InterpError::NotEvaluable("rng"))
    );
}

#[test]
fn results_above_the_element_limit_are_refused() {
    let huge = ty(F32, &[1 << 13, 1 << 12]);
    let op = Op::Broadcast { dims: vec![] };
    let err = apply(op, &[f32s(&[], &[1.0])], huge.clone()).unwrap_err();
    let expected = InterpError::TensorTooLarge {
        ty: huge,
        elements: 1 << 25,
        limit: TENSOR_ELEMENT_LIMIT,
    };
    assert_eq!(err.root(), &expected);
}

#[test]
fn arguments_above_the_element_limit_are_refused_before_use() {
    let src = "func @f(%0: f32[100000,100000]) -> (f32[100000,100000]) {\n  return %0\n}";
    let p = crate::parse(src).unwrap();
    let too_large = InterpError::TensorTooLarge {
        ty: ty(F32, &[100_000, 100_000]),
        elements: 10_000_000_000,
        limit: TENSOR_ELEMENT_LIMIT,
    };
    // Generated inputs: refused before anything is allocated.
    let err = crate::inputs::try_random_inputs(&p.functions[0], 0).unwrap_err();
    assert_eq!(err.root(), &too_large);
    assert!(err.to_string().starts_with("argument 0 of @f: "), "{err}");
    // Given arguments: the parameter type is refused whatever the value.
    let err = crate::run(&p, "f", &[f32s(&[], &[1.0])]).unwrap_err();
    assert_eq!(err.root(), &too_large);
    // Just above the limit is refused too, not only absurd sizes.
    let src = "func @f(%0: i32[16777217]) -> (i32[16777217]) {\n  return %0\n}";
    let p = crate::parse(src).unwrap();
    assert!(crate::inputs::try_random_inputs(&p.functions[0], 0).is_err());
}
