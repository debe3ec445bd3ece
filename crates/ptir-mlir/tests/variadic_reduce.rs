//! `stablehlo.reduce` of several operands whose body combines each accumulator with its own
//! element only: read as one reduction per operand (the body's ops in any order, swapped
//! operands, mixed kinds, non-identity and `minimum` inits as single reductions read them);
//! PTIR's `multi_reduce_*` written as such a `reduce` and read back to the same results;
//! refusals of bodies that mix operands, located.

use ptir_ir::{DType, Interpreter};

mod common;
use common::{err, t};

/// A two-operand reduce over dim 1 of `f32[2,3]` and `i32[2,3]` with `body` (ops on the
/// accumulators `%a0`, `%a1` and elements `%x0`, `%x1`, returning two values) and inits.
fn two(body: &str, f_init: &str, i_init: &str) -> String {
    format!(
        "func.func @main(%x: tensor<2x3xf32>, %y: tensor<2x3xi32>) -> (tensor<2xf32>, tensor<2xi32>) {{
  %cf = stablehlo.constant dense<{f_init}> : tensor<f32>
  %ci = stablehlo.constant dense<{i_init}> : tensor<i32>
  %r:2 = stablehlo.reduce(%x init: %cf), (%y init: %ci) across dimensions = [1] : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
   reducer(%a0: tensor<f32>, %x0: tensor<f32>) (%a1: tensor<i32>, %x1: tensor<i32>)  {{
{body}
    }}
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xi32>
}}"
    )
}

fn inputs() -> Vec<ptir_ir::Value> {
    vec![
        t(DType::F32, &[2, 3], &[1.0, -2.5, 4.0, 0.5, 8.0, -1.0]),
        t(DType::I32, &[2, 3], &[3, -7, 2, 10, 0, -4].map(f64::from)),
    ]
}

#[test]
fn independent_bodies_are_one_reduction_per_operand() {
    let sum_max = "      %s = stablehlo.add %a0, %x0 : tensor<f32>
      %m = stablehlo.maximum %x1, %a1 : tensor<i32>
      stablehlo.return %s, %m : tensor<f32>, tensor<i32>";
    let (p, out) = common::run(&two(sum_max, "0.0", "-2147483648"), &inputs());
    assert_eq!(
        out,
        "f32[2] [2.5, 7.5]; i32[2] [3, 10]",
        "{}",
        ptir_ir::print(&p)
    );
    let text = ptir_ir::print(&p);
    assert!(
        text.contains("reduce_sum") && text.contains("reduce_max"),
        "{text}"
    );
    // The ops in the other order, and inits that are not the identities: a minimum from 1
    // and a sum from 10.
    let min_sum = "      %m = stablehlo.minimum %a1, %x1 : tensor<i32>
      %s = stablehlo.add %a0, %x0 : tensor<f32>
      stablehlo.return %s, %m : tensor<f32>, tensor<i32>";
    let (_, out) = common::run(&two(min_sum, "10.0", "1"), &inputs());
    assert_eq!(out, "f32[2] [12.5, 17.5]; i32[2] [-7, -4]");
}

#[test]
fn bodies_that_mix_operands_are_refused_where_they_are() {
    for body in [
        // the first result reads the second operand's element
        "      %s = stablehlo.add %a0, %a0 : tensor<f32>
      %m = stablehlo.maximum %a1, %x1 : tensor<i32>
      stablehlo.return %s, %m : tensor<f32>, tensor<i32>",
        // results returned in the other order
        "      %s = stablehlo.add %a0, %x0 : tensor<f32>
      %m = stablehlo.maximum %a1, %x1 : tensor<i32>
      stablehlo.return %m, %s : tensor<i32>, tensor<f32>",
        // an op the results do not need
        "      %s = stablehlo.add %a0, %x0 : tensor<f32>
      %m = stablehlo.maximum %a1, %x1 : tensor<i32>
      %u = stablehlo.add %a1, %x1 : tensor<i32>
      stablehlo.return %s, %m : tensor<f32>, tensor<i32>",
        // a declared type that contradicts the accumulator's
        "      %s = stablehlo.add %a0, %x0 : tensor<f32>
      %m = stablehlo.maximum %a1, %x1 : tensor<i32>
      stablehlo.return %s, %m : tensor<f32>, tensor<f32>",
    ] {
        let e = err(&two(body, "0.0", "0"));
        assert!(e.starts_with("4:"), "{e}\n{body}");
        assert!(e.contains("several operands"), "{e}");
    }
}

/// A `multi_reduce` of every kind, with and without kept dims, one operand or three, is
/// exported as one `reduce`, which imports as the reductions apart with the same results.
#[test]
fn multi_reduce_exports_as_one_reduce_with_its_results() {
    for (kind, keep, n) in [
        ("sum", false, 2),
        ("max", true, 3),
        ("prod", false, 1),
        ("sum", true, 1),
    ] {
        let xs = ["%x", "%y", "%x"][..n].join(", ");
        let tys = ["f32", "i32", "f32"];
        let shape = if keep { "[2,1]" } else { "[2]" };
        let results: Vec<String> = tys[..n].iter().map(|d| format!("{d}{shape}")).collect();
        let ty = match n {
            1 => results[0].clone(),
            _ => format!("({})", results.join(", ")),
        };
        let gets: String = (0..n)
            .map(|i| match n {
                1 => format!("  %g{i} = add %t, %t : {}\n", results[i]),
                _ => format!("  %g{i} = tuple_get %t index={i} : {}\n", results[i]),
            })
            .collect();
        let returned: Vec<String> = (0..n).map(|i| format!("%g{i}")).collect();
        let text = format!(
            "func @main(%x: f32[2,3], %y: i32[2,3]) -> ({}) {{
  %t = multi_reduce_{kind} {xs} axes=[1] keep_dims={keep} : {ty}
{gets}  return {}
}}",
            results.join(", "),
            returned.join(", ")
        );
        let p = ptir_ir::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        ptir_ir::verify(&p).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let mlir = ptir_mlir::export(&p, &ptir_mlir::ExportOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(mlir.matches("\"stablehlo.reduce\"").count(), 1, "{mlir}");
        let back = ptir_mlir::import(&mlir).unwrap_or_else(|e| panic!("{e}\n{mlir}"));
        let run = |p| Interpreter::new(p).run("main", &inputs()).unwrap();
        assert_eq!(run(&back), run(&p), "{text}\n{mlir}");
    }
}
