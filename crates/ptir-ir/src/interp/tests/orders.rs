//! `reduce_argmax`/`reduce_argmin` over several axes and on unsigned integers, `sort` of one
//! and of several operands along any dim, by one or two keys (JAX's order and totalOrder, descending), `top_k`,
//! and the typing rule's reasons.

use super::*;
use crate::{infer_type, ArgKind, InferContext};
use DType::*;

fn parts(v: &Value) -> Vec<Vec<f64>> {
    match v {
        Value::Tuple(vs) => vs.iter().map(nums).collect(),
        v => vec![nums(v)],
    }
}

fn pair(a: Type, b: Type) -> Type {
    Type::Tuple(vec![a, b])
}

#[test]
fn argmax_over_two_axes_folds_row_major_and_orders_unsigned() {
    // u8 [2, 2, 2]: 200 is above 7 unsigned; the block of result i is x[i, .., ..].
    let x = val(
        U8,
        &[2, 2, 2],
        &[7.0, 200.0, 200.0, 1.0, 3.0, 3.0, 0.0, 3.0],
    );
    let i = i32s(&[2, 2, 2], &[0, 1, 2, 3, 0, 1, 2, 3]);
    let (x0, i0) = (val(U8, &[], &[0.0]), i32s(&[], &[-1]));
    let op = |kind| Op::ArgReduce {
        kind,
        axes: vec![2, 1],
    };
    let t = pair(ty(U8, &[2]), ty(I32, &[2]));
    let max = apply_ok(
        op(ArgKind::Max),
        &[x.clone(), i.clone(), x0.clone(), i0.clone()],
        t.clone(),
    );
    assert_eq!(parts(&max), [vec![200.0, 3.0], vec![1.0, 0.0]]);
    // The init 0 is the least u8: an element equal to it takes the init's index only when
    // that index is smaller (-1 < 2).
    let min = apply_ok(op(ArgKind::Min), &[x, i, x0, i0], t);
    assert_eq!(parts(&min), [vec![0.0, 0.0], vec![-1.0, -1.0]]);
}

#[test]
fn sort_along_dim_0_carries_every_operand() {
    let nan = f64::NAN;
    // Columns sorted separately: [-0, nan, 0] and [2, -1, 2].
    let k = f32s(&[3, 2], &[-0.0, 2.0, nan, -1.0, 0.0, 2.0]);
    let v = i32s(&[3, 2], &[0, 1, 2, 3, 4, 5]);
    let op = |descending, total_order| Op::Sort {
        dim: 0,
        keys: 1,
        descending,
        stable: true,
        total_order,
    };
    let t = pair(ty(F32, &[3, 2]), ty(I32, &[3, 2]));
    let jax = apply_ok(op(true, false), &[k.clone(), v.clone()], t.clone());
    // Descending in JAX's order: NaN first, -0 and 0 equal (kept in order).
    assert_eq!(parts(&jax)[1], [2.0, 1.0, 0.0, 5.0, 4.0, 3.0]);
    let total = apply_ok(op(true, true), &[k.clone(), v], t);
    // Descending totalOrder: NaN, +0, -0.
    assert_eq!(parts(&total)[1], [2.0, 1.0, 4.0, 5.0, 0.0, 3.0]);
    let alone = apply_ok(op(false, true), &[k], ty(F32, &[3, 2]));
    assert_eq!(
        bits(&alone)[..2],
        [(-0.0f64).to_bits(), (-1.0f64).to_bits()]
    );
}

#[test]
fn sort_by_two_keys_orders_ties_of_the_first_by_the_second() {
    // jnp.lexsort's order: by `a` (JAX's order, -0 == 0), equal `a`s by `b` (u8: 200 > 7).
    let a = f32s(&[5], &[1.0, -0.0, 1.0, 0.0, 1.0]);
    let b = val(U8, &[5], &[200.0, 3.0, 7.0, 2.0, 7.0]);
    let i = i32s(&[5], &[0, 1, 2, 3, 4]);
    let op = |keys, descending| Op::Sort {
        dim: 0,
        keys,
        descending,
        stable: true,
        total_order: false,
    };
    let t = Type::Tuple(vec![ty(F32, &[5]), ty(U8, &[5]), ty(I32, &[5])]);
    let two = apply_ok(op(2, false), &[a.clone(), b.clone(), i.clone()], t.clone());
    assert_eq!(parts(&two)[2], [3.0, 1.0, 2.0, 4.0, 0.0]);
    let down = apply_ok(op(2, true), &[a.clone(), b.clone(), i.clone()], t.clone());
    assert_eq!(parts(&down)[2], [0.0, 2.0, 4.0, 1.0, 3.0]);
    // One key: ties keep their order.
    let one = apply_ok(op(1, false), &[a.clone(), b.clone(), i.clone()], t);
    assert_eq!(parts(&one)[2], [1.0, 3.0, 0.0, 2.0, 4.0]);
    let none = InferContext::default();
    let (fa, fb) = (ty(F32, &[5]), ty(Bool, &[5]));
    for (keys, operands, reason) in [
        (0, vec![&fa], "keys=0"),
        (2, vec![&fa], "keys=2"),
        (2, vec![&fa, &fb], "key 1 is bool"),
    ] {
        let e = infer_type(&op(keys, false), &operands, &none).unwrap_err();
        assert!(e.contains(reason), "{e}");
    }
}

#[test]
fn top_k_of_each_row_and_typing_reasons() {
    let x = i32s(&[2, 3], &[1, 9, 9, -4, -5, -4]);
    let t = pair(ty(I32, &[2, 2]), ty(I32, &[2, 2]));
    let r = apply_ok(Op::TopK { k: 2 }, &[x], t);
    assert_eq!(
        parts(&r),
        [vec![9.0, 9.0, -4.0, -4.0], vec![1.0, 2.0, 0.0, 2.0]]
    );
    let f = ty(F32, &[2, 3]);
    let none = InferContext::default();
    let e = infer_type(&Op::TopK { k: 4 }, &[&f], &none).unwrap_err();
    assert!(e.contains("k=4 exceeds the last dim 3"), "{e}");
    let sort = Op::Sort {
        dim: 0,
        keys: 1,
        descending: false,
        stable: false,
        total_order: false,
    };
    let e = infer_type(&sort, &[&f, &ty(I32, &[3, 2])], &none).unwrap_err();
    assert!(e.contains("operand 1 of `sort` has shape [3, 2]"), "{e}");
    let arg = Op::ArgReduce {
        kind: ArgKind::Max,
        axes: vec![1],
    };
    let s = ty(F32, &[]);
    let e = infer_type(&arg, &[&f, &f, &s, &s], &none).unwrap_err();
    assert!(e.contains("the indices must be integers"), "{e}");
}
