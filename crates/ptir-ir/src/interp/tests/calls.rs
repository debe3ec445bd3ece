//! Calls (multi-result, recursive, too deep), externs, `rng`, and the checks on `run`'s
//! arguments.

use super::control::{bin, cmp, konst};
use super::*;
use crate::{
    check_value, BinaryOp, CmpOp, ExternDecl, InterpError, RngDist, Signature, CALL_DEPTH_LIMIT,
};
use DType::*;

fn call(fb: &mut Fb, callee: &str, args: &[ValueId], result: Type) -> ValueId {
    let op = Op::Call {
        callee: callee.to_string(),
    };
    fb.op(op, args, result)
}

#[test]
fn calls_with_several_results_return_a_tuple() {
    let s = ty(I32, &[]);
    let g = func("g", &[s.clone(), s.clone()], |fb, ps| {
        vec![
            bin(fb, BinaryOp::Add, ps[0], ps[1]),
            bin(fb, BinaryOp::Mul, ps[0], ps[1]),
        ]
    });
    let main = func("main", &[s.clone()], |fb, ps| {
        let three = konst(fb, I32, 3.0);
        let pair = call(
            fb,
            "g",
            &[ps[0], three],
            Type::Tuple(vec![s.clone(), s.clone()]),
        );
        let sum = fb.op(Op::TupleGet { index: 0 }, &[pair], s.clone());
        let product = fb.op(Op::TupleGet { index: 1 }, &[pair], s.clone());
        vec![bin(fb, BinaryOp::Sub, product, sum)]
    });
    let p = program(vec![g, main]);
    assert_eq!(
        run_ok(&p, "main", &[i32s(&[], &[5])]),
        vec![i32s(&[], &[7])]
    );
}

/// `@fact(n: i64[])`: `cond n <= 1 { yield 1 } else { yield n * fact(n - 1) }`.
fn factorial() -> Program {
    let s = ty(I64, &[]);
    let f = func("fact", &[s.clone()], |fb, ps| {
        let n = ps[0];
        let one = konst(fb, I64, 1.0);
        let small = cmp(fb, CmpOp::Le, n, one);
        let then_region = fb.region(&[], |_, _| vec![one]);
        let else_region = fb.region(&[], |fb, _| {
            let m = bin(fb, BinaryOp::Sub, n, one);
            let rest = call(fb, "fact", &[m], s.clone());
            vec![bin(fb, BinaryOp::Mul, n, rest)]
        });
        let op = Op::Cond {
            then_region: Box::new(then_region),
            else_region: Box::new(else_region),
        };
        vec![fb.op(op, &[small], s.clone())]
    });
    program(vec![f])
}

fn i64_scalar(x: i64) -> Value {
    Value::Tensor(Tensor {
        ty: tt(I64, &[]),
        data: crate::Data::Int(vec![x]),
    })
}

#[test]
fn recursive_factorial() {
    let p = factorial();
    let fact = |n| run_ok(&p, "fact", &[i64_scalar(n)]);
    assert_eq!(fact(0), vec![i64_scalar(1)]);
    assert_eq!(fact(10), vec![i64_scalar(3_628_800)]);
    assert_eq!(fact(20), vec![i64_scalar(2_432_902_008_176_640_000)]);
    // 21! wraps modulo 2^64.
    assert_eq!(fact(21), vec![i64_scalar(-4_249_290_049_419_214_848)]);
}

#[test]
fn deep_recursion_hits_the_depth_limit_not_the_stack() {
    let p = factorial();
    let err = Interpreter::new(&p)
        .run("fact", &[i64_scalar(100_000)])
        .unwrap_err();
    assert_eq!(err.root(), &InterpError::DepthLimit(CALL_DEPTH_LIMIT));
    assert!(
        err.to_string().starts_with("in @fact, instruction %"),
        "{err}"
    );
    // fact(4) nests 4 calls, each with its cond region: 8 levels; fact(5) needs 10.
    let shallow = Interpreter::new(&p).with_call_depth_limit(8);
    assert!(shallow.run("fact", &[i64_scalar(4)]).is_ok());
    assert!(shallow.run("fact", &[i64_scalar(5)]).is_err());
}

#[test]
fn errors_in_callees_read_like_a_backtrace() {
    let s = ty(I32, &[]);
    let g = func("g", &[s.clone()], |fb, ps| {
        let zero = konst(fb, I32, 0.0);
        vec![bin(fb, BinaryOp::Div, ps[0], zero)]
    });
    let main = func("main", &[s.clone()], |fb, ps| {
        vec![call(fb, "g", ps, s.clone())]
    });
    let p = program(vec![g, main]);
    let err = Interpreter::new(&p)
        .run("main", &[i32s(&[], &[1])])
        .unwrap_err();
    let expected = "in @main, instruction %1 = call: in @g, instruction %2 = div: integer \
                    division by zero";
    assert_eq!(err.to_string(), expected);
}

/// `@main(x: f32[2])` calling the extern `@twice` (signature given or polymorphic).
fn with_extern(signature: bool) -> Program {
    let v = ty(F32, &[2]);
    let main = func("main", &[v.clone()], |fb, ps| {
        vec![call(fb, "twice", ps, v.clone())]
    });
    let signature = signature.then(|| Signature {
        params: vec![v.clone()],
        results: vec![v.clone()],
    });
    let p = Program {
        externs: vec![ExternDecl {
            name: "twice".into(),
            signature,
            pure: true,
        }],
        functions: vec![main],
    };
    assert!(verify(&p).is_ok());
    p
}

fn twice(args: &[Value], result: &Type) -> Result<Value, String> {
    let x = args
        .first()
        .and_then(Value::as_tensor)
        .ok_or("one tensor")?;
    let t = result.as_tensor().ok_or("a tensor result")?;
    let doubled: Vec<f64> = x.to_f64_vec().iter().map(|v| 2.0 * v).collect();
    Ok(Tensor::from_f64(t.clone(), &doubled).into())
}

#[test]
fn externs_run_their_registered_implementation() {
    let x = f32s(&[2], &[1.5, -4.0]);
    for signature in [true, false] {
        let p = with_extern(signature);
        let out = Interpreter::new(&p)
            .with_extern("twice", twice)
            .run("main", &[x.clone()]);
        assert_eq!(out, Ok(vec![f32s(&[2], &[3.0, -8.0])]));
    }
}

#[test]
fn extern_failures_are_errors() {
    let p = with_extern(true);
    let x = [f32s(&[2], &[1.0, 2.0])];
    let missing = Interpreter::new(&p).run("main", &x).unwrap_err();
    assert_eq!(missing.root(), &InterpError::MissingExtern("twice".into()));
    let failing =
        Interpreter::new(&p).with_extern("twice", |_: &[Value], _: &Type| Err("no".into()));
    let expected = InterpError::Extern {
        name: "twice".into(),
        message: "no".into(),
    };
    assert_eq!(failing.run("main", &x).unwrap_err().root(), &expected);
    let wrong =
        Interpreter::new(&p).with_extern("twice", |_: &[Value], _: &Type| Ok(i32s(&[], &[0])));
    let err = wrong.run("main", &x).unwrap_err();
    assert!(
        matches!(err.root(), InterpError::ExternResult { .. }),
        "{err}"
    );
}

/// `@draw()`: two `rng dist` tensors of type `d[n]`.
fn draws(dist: RngDist, d: DType, n: usize) -> Program {
    let f = func("draw", &[], |fb, _| {
        let a = fb.op(Op::Rng { dist }, &[], ty(d, &[n]));
        let b = fb.op(Op::Rng { dist }, &[], ty(d, &[n]));
        vec![a, b]
    });
    program(vec![f])
}

#[test]
fn rng_is_deterministic_per_seed() {
    let p = draws(RngDist::Uniform, F32, 64);
    let run = |seed| {
        Interpreter::new(&p)
            .with_seed(seed)
            .run("draw", &[])
            .unwrap()
    };
    let first = run(1);
    assert_eq!(first, run(1));
    assert_ne!(first, run(2));
    assert_ne!(
        first[0], first[1],
        "the stream continues across instructions"
    );
    // The default seed is 0.
    assert_eq!(run_ok(&p, "draw", &[]), run(0));
}

#[test]
fn uniform_floats_are_exact_and_in_the_unit_interval() {
    for d in [F16, BF16, F32, F64] {
        let p = draws(RngDist::Uniform, d, 4000);
        let out = run_ok(&p, "draw", &[]);
        assert!(out.iter().all(|v| check_value(v).is_ok()));
        let xs = nums(&out[0]);
        assert!(xs.iter().all(|&x| (0.0..1.0).contains(&x)), "{d}");
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        assert!((mean - 0.5).abs() < 0.05, "{d}: mean {mean}");
    }
}

#[test]
fn normal_draws_look_standard() {
    let out = run_ok(&draws(RngDist::Normal, F64, 4000), "draw", &[]);
    let xs = nums(&out[0]);
    let mean = xs.iter().sum::<f64>() / xs.len() as f64;
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / xs.len() as f64;
    assert!(
        mean.abs() < 0.1 && (var - 1.0).abs() < 0.1,
        "mean {mean}, var {var}"
    );
    let half = run_ok(&draws(RngDist::Normal, BF16, 16), "draw", &[]);
    assert!(half.iter().all(|v| check_value(v).is_ok()));
}

#[test]
fn uniform_integers_and_bools_cover_their_range() {
    let ints = nums(&run_ok(&draws(RngDist::Uniform, I32, 200), "draw", &[])[0]);
    assert!(ints.iter().any(|&x| x < -1e9) && ints.iter().any(|&x| x > 1e9));
    let wide = nums(&run_ok(&draws(RngDist::Uniform, I64, 200), "draw", &[])[0]);
    assert!(wide.iter().any(|&x| x.abs() > 1e18));
    let flips = nums(&run_ok(&draws(RngDist::Uniform, Bool, 200), "draw", &[])[0]);
    let heads = flips.iter().filter(|&&x| x == 1.0).count();
    assert!((60..140).contains(&heads), "{heads} of 200");
}

#[test]
fn run_checks_its_arguments() {
    let p = factorial();
    let interp = Interpreter::new(&p);
    let err = interp.run("nope", &[]).unwrap_err();
    assert_eq!(err, InterpError::UnknownFunction("nope".into()));
    let err = interp.run("fact", &[]).unwrap_err();
    assert_eq!(err.to_string(), "@fact takes 1 argument(s), 0 given");
    let err = interp.run("fact", &[i32s(&[], &[3])]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "argument 0 of @fact has type i32[], the parameter is i64[]"
    );
    let unwrapped = Value::Tensor(Tensor {
        ty: tt(I32, &[]),
        data: crate::Data::Int(vec![1 << 40]),
    });
    let q = program(vec![func("id", &[ty(I32, &[])], |_, ps| ps.to_vec())]);
    let err = Interpreter::new(&q).run("id", &[unwrapped]).unwrap_err();
    assert!(matches!(err, InterpError::InvalidValue(_)), "{err}");
}
