//! Loop idioms through `ptir::optimize`: a reduction `scan` (an integer dot product, a float
//! sum from `+0.0`, a max) comes out loop-free under the default pipeline of both engines and
//! computes what the loop computes, bit for bit, on the interpreter.

use ptir::ir::{parse, print, run, DType, Tensor, TensorType, Value};
use ptir::{Engine, Options};

const DOT: &str = include_str!("../data/dot_scan.ptir");

const SUM: &str = "func @sum(%a: f32[4,3]) -> (f32[3]) {
  %z = constant splat(0.0) : f32[3]
  %r = scan %z, %a num_carry=1 length=4 : f32[3] {
  ^(%acc: f32[3], %x: f32[3]):
    %s = add %acc, %x : f32[3]
    yield %s
  }
  return %r
}";

const MAX: &str = "func @max(%a: i32[6], %c: i32[]) -> (i32[]) {
  %r = scan %c, %a num_carry=1 length=6 : i32[] {
  ^(%acc: i32[], %x: i32[]):
    %n = neg %x : i32[]
    %s = max %acc, %n : i32[]
    yield %s
  }
  return %r
}";

fn tensor(dtype: DType, shape: &[usize], xs: &[f64]) -> Value {
    Value::Tensor(Tensor::from_f64(TensorType::new(dtype, shape.to_vec()), xs))
}

fn check(text: &str, name: &str, args: &[Value]) {
    let input = parse(text).unwrap();
    let expected = run(&input, name, args).unwrap();
    for engine in [Engine::Greedy, Engine::Saturation] {
        let options = Options {
            engine,
            ..Options::default()
        };
        let out = ptir::optimize(&input, &options).unwrap().program;
        let printed = print(&out);
        assert!(
            !printed.contains("scan"),
            "{engine:?} left a loop:\n{printed}"
        );
        let got = run(&out, name, args).unwrap();
        assert_eq!(
            format!("{expected:?}"),
            format!("{got:?}"),
            "{engine:?}:\n{printed}"
        );
    }
}

#[test]
fn integer_dot_product_scan_is_raised_by_both_engines() {
    let big = i32::MAX as f64;
    let args = [
        tensor(DType::I32, &[5], &[1.0, -2.0, 3.0, big, 7.0]),
        tensor(DType::I32, &[5], &[4.0, 5.0, -6.0, 3.0, 0.0]),
        tensor(DType::I32, &[], &[10.0]),
    ];
    check(DOT, "dot", &args);
}

#[test]
fn float_sum_from_zero_is_raised_exactly_by_both_engines() {
    let xs = [
        0.1, -0.0, 1e30, 3.5, -1e30, 0.2, 1e-8, 2.0, -0.0, 0.3, 7.0, -0.0,
    ];
    check(SUM, "sum", &[tensor(DType::F32, &[4, 3], &xs)]);
}

#[test]
fn integer_max_scan_is_raised_by_both_engines() {
    let args = [
        tensor(DType::I32, &[6], &[3.0, -9.0, 2.0, 5.0, -1.0, 0.0]),
        tensor(DType::I32, &[], &[-4.0]),
    ];
    check(MAX, "max", &args);
}
