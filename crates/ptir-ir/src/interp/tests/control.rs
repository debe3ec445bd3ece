//! Region ops: `while` (with fuel), `scan`, `cond`, values captured from enclosing blocks, and
//! how errors inside regions are reported.

use super::*;
use crate::{BinaryOp, CmpOp, InterpError, Literal, Scalar};
use DType::*;

/// A scalar constant of dtype `d`.
pub(super) fn konst(fb: &mut Fb, d: DType, x: f64) -> ValueId {
    let s = Scalar::from_f64(d, x);
    fb.op(Op::Constant(Literal::Splat(s)), &[], ty(d, &[]))
}

/// `op a, b` with the type of `a`.
pub(super) fn bin(fb: &mut Fb, op: BinaryOp, a: ValueId, b: ValueId) -> ValueId {
    let t = fb.ty_of(a);
    fb.op(Op::Binary(op), &[a, b], t)
}

/// `cmp a, b` on scalars.
pub(super) fn cmp(fb: &mut Fb, op: CmpOp, a: ValueId, b: ValueId) -> ValueId {
    fb.op(Op::Compare(op), &[a, b], ty(Bool, &[]))
}

/// `@sum()`: `(i, acc) = (1, 0); while i <= 10 { (i, acc) = (i + 1, acc + i) }; acc`. The
/// bound 10 is captured by the cond region from the function body.
/// A `while` op of these regions.
fn while_op(cond: Region, body: Region) -> Op {
    Op::While {
        cond: Box::new(cond),
        body: Box::new(body),
    }
}

fn sum_to_ten() -> Program {
    let s = ty(I32, &[]);
    let f = func("sum", &[], |fb, _| {
        let i0 = konst(fb, I32, 1.0);
        let acc0 = konst(fb, I32, 0.0);
        let ten = konst(fb, I32, 10.0);
        let cond = fb.region(&[s.clone(), s.clone()], |fb, ps| {
            vec![cmp(fb, CmpOp::Le, ps[0], ten)]
        });
        let body = fb.region(&[s.clone(), s.clone()], |fb, ps| {
            let one = konst(fb, I32, 1.0);
            vec![
                bin(fb, BinaryOp::Add, ps[0], one),
                bin(fb, BinaryOp::Add, ps[1], ps[0]),
            ]
        });
        let pair = Type::Tuple(vec![s.clone(), s.clone()]);
        let w = fb.op(while_op(cond, body), &[i0, acc0], pair);
        vec![fb.op(Op::TupleGet { index: 1 }, &[w], s.clone())]
    });
    program(vec![f])
}

#[test]
fn while_sums_one_to_ten() {
    assert_eq!(run_ok(&sum_to_ten(), "sum", &[]), vec![i32s(&[], &[55])]);
}

#[test]
fn while_stops_when_the_fuel_is_used_up() {
    let p = sum_to_ten();
    let enough = Interpreter::new(&p).with_while_fuel(10).run("sum", &[]);
    assert_eq!(enough, Ok(vec![i32s(&[], &[55])]));
    let err = Interpreter::new(&p)
        .with_while_fuel(9)
        .run("sum", &[])
        .unwrap_err();
    assert_eq!(err.root(), &InterpError::OutOfFuel(9));
    assert!(
        err.to_string().starts_with("in @sum, instruction %"),
        "{err}"
    );
    assert!(
        err.to_string().contains(" = while: loop fuel of 9"),
        "{err}"
    );
}

#[test]
fn an_endless_while_runs_out_of_fuel() {
    let s = ty(F32, &[]);
    let f = func("spin", &[s.clone()], |fb, ps| {
        let cond = fb.region(&[s.clone()], |fb, _| vec![konst(fb, Bool, 1.0)]);
        let body = fb.region(&[s.clone()], |_, ps| vec![ps[0]]);
        vec![fb.op(while_op(cond, body), ps, s.clone())]
    });
    let p = program(vec![f]);
    let r = Interpreter::new(&p)
        .with_while_fuel(1000)
        .run("spin", &[f32s(&[], &[1.0])]);
    assert_eq!(
        r.map_err(|e| e.root().clone()),
        Err(InterpError::OutOfFuel(1000))
    );
}

/// `@prefix(acc0: f32[2], xs: f32[n,2], ks: i32[n])`: scan with carries `(acc, count)`,
/// step `acc += x; count += k`, outputs `acc` and `count == 2` per step.
fn prefix_sums(n: usize) -> Program {
    let (v2, s) = (ty(F32, &[2]), ty(I32, &[]));
    let params = [v2.clone(), s.clone(), ty(F32, &[n, 2]), ty(I32, &[n])];
    let f = func("prefix", &params, |fb, ps| {
        let body = fb.region(&[v2.clone(), s.clone(), v2.clone(), s.clone()], |fb, qs| {
            let acc = bin(fb, BinaryOp::Add, qs[0], qs[2]);
            let count = bin(fb, BinaryOp::Add, qs[1], qs[3]);
            let two = konst(fb, I32, 2.0);
            let is_two = cmp(fb, CmpOp::Eq, count, two);
            vec![acc, count, acc, is_two]
        });
        let out = Type::Tuple(vec![
            v2.clone(),
            s.clone(),
            ty(F32, &[n, 2]),
            ty(Bool, &[n]),
        ]);
        let scan = Op::Scan {
            num_carry: 2,
            length: n,
            body: Box::new(body),
        };
        vec![fb.op(scan, ps, out)]
    });
    program(vec![f])
}

#[test]
fn scan_carries_and_stacks_outputs() {
    let p = prefix_sums(4);
    let xs = f32s(&[4, 2], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]);
    let args = [
        f32s(&[2], &[0.5, 0.0]),
        i32s(&[], &[0]),
        xs,
        i32s(&[4], &[1, 1, 0, 5]),
    ];
    let out = run_ok(&p, "prefix", &args);
    let expected = Value::Tuple(vec![
        f32s(&[2], &[16.5, 20.0]),
        i32s(&[], &[7]),
        f32s(&[4, 2], &[1.5, 2.0, 4.5, 6.0, 9.5, 12.0, 16.5, 20.0]),
        bools(&[4], &[false, true, true, false]),
    ]);
    assert_eq!(out, vec![expected]);
}

#[test]
fn scan_of_length_zero_returns_the_carries_and_empty_outputs() {
    let p = prefix_sums(0);
    let args = [
        f32s(&[2], &[1.0, 2.0]),
        i32s(&[], &[3]),
        f32s(&[0, 2], &[]),
        i32s(&[0], &[]),
    ];
    let out = run_ok(&p, "prefix", &args);
    let expected = Value::Tuple(vec![
        f32s(&[2], &[1.0, 2.0]),
        i32s(&[], &[3]),
        f32s(&[0, 2], &[]),
        bools(&[0], &[]),
    ]);
    assert_eq!(out, vec![expected]);
}

#[test]
fn scan_steps_use_fuel() {
    let p = prefix_sums(4);
    let xs = f32s(&[4, 2], &[0.0; 8]);
    let args = [
        f32s(&[2], &[0.0, 0.0]),
        i32s(&[], &[0]),
        xs,
        i32s(&[4], &[0; 4]),
    ];
    let r = Interpreter::new(&p).with_while_fuel(3).run("prefix", &args);
    assert_eq!(
        r.map_err(|e| e.root().clone()),
        Err(InterpError::OutOfFuel(3))
    );
}

/// `@abs(x: i32[])`: `cond x > 0 { yield x } else { yield -x }`, with a second result that
/// tells which branch ran.
fn abs_by_cond() -> Program {
    let s = ty(I32, &[]);
    let f = func("abs", &[s.clone()], |fb, ps| {
        let x = ps[0];
        let zero = konst(fb, I32, 0.0);
        let positive = cmp(fb, CmpOp::Gt, x, zero);
        let then_region = fb.region(&[], |fb, _| vec![x, konst(fb, I32, 1.0)]);
        let else_region = fb.region(&[], |fb, _| {
            let neg = fb.op(Op::Unary(crate::UnaryOp::Neg), &[x], ty(I32, &[]));
            vec![neg, konst(fb, I32, 2.0)]
        });
        let op = Op::Cond {
            then_region: Box::new(then_region),
            else_region: Box::new(else_region),
        };
        let pair = Type::Tuple(vec![s.clone(), s.clone()]);
        vec![fb.op(op, &[positive], pair)]
    });
    program(vec![f])
}

#[test]
fn cond_takes_either_branch() {
    let p = abs_by_cond();
    let pair = |a, b| vec![Value::Tuple(vec![i32s(&[], &[a]), i32s(&[], &[b])])];
    assert_eq!(run_ok(&p, "abs", &[i32s(&[], &[5])]), pair(5, 1));
    assert_eq!(run_ok(&p, "abs", &[i32s(&[], &[-3])]), pair(3, 2));
    assert_eq!(run_ok(&p, "abs", &[i32s(&[], &[0])]), pair(0, 2));
}

#[test]
fn errors_inside_regions_name_the_inner_instruction() {
    // while i < 3 { i = i + 1; 1 / (i - 2) }: fails on the second step (i - 2 == 0).
    let s = ty(I32, &[]);
    let f = func("g", &[s.clone()], |fb, ps| {
        let three = konst(fb, I32, 3.0);
        let cond = fb.region(&[s.clone()], |fb, qs| {
            vec![cmp(fb, CmpOp::Lt, qs[0], three)]
        });
        let body = fb.region(&[s.clone()], |fb, qs| {
            let one = konst(fb, I32, 1.0);
            let two = konst(fb, I32, 2.0);
            let next = bin(fb, BinaryOp::Add, qs[0], one);
            let d = bin(fb, BinaryOp::Sub, next, two);
            bin(fb, BinaryOp::Div, one, d);
            vec![next]
        });
        vec![fb.op(while_op(cond, body), ps, s.clone())]
    });
    let p = program(vec![f]);
    let err = Interpreter::new(&p)
        .run("g", &[i32s(&[], &[0])])
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "in @g, instruction %9 = div: integer division by zero"
    );
}
