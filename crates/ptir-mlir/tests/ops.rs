//! Each StableHLO op mapping: import a small module, run it in the PTIR interpreter on known
//! inputs, and compare with the values StableHLO defines. Also the located errors.

use ptir_ir::{DType, Interpreter, Tensor, TensorType, Value};

fn t(d: DType, shape: &[usize], xs: &[f64]) -> Value {
    Value::Tensor(Tensor::from_f64(TensorType::new(d, shape.to_vec()), xs))
}

fn f32s(shape: &[usize], xs: &[f64]) -> Value {
    t(DType::F32, shape, xs)
}

/// Imports `body` as the function `@main(params) -> result` and runs it on `inputs`; the
/// results as printed by the interpreter.
fn run(src: &str, inputs: &[Value]) -> String {
    let p = ptir_mlir::import(src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    ptir_ir::verify(&p).unwrap_or_else(|e| panic!("{e}"));
    // Export and import again: the same program.
    let back = ptir_mlir::export(&p, &ptir_mlir::ExportOptions::default()).unwrap();
    assert_eq!(
        ptir_mlir::import(&back).as_ref(),
        Ok(&p),
        "round trip of\n{back}"
    );
    let out = Interpreter::new(&p).run("main", inputs).unwrap();
    out.iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join("; ")
}

fn err(src: &str) -> String {
    ptir_mlir::import(src)
        .map(|_| String::new())
        .unwrap_or_else(|e| e.to_string())
}

#[test]
fn elementwise_ops() {
    let src = r#"func.func @main(%a: tensor<3xf32>, %b: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xi1>, tensor<3xf32>, tensor<3xi32>) {
  %0 = stablehlo.subtract %a, %b : tensor<3xf32>
  %1 = stablehlo.maximum %0, %b : tensor<3xf32>
  %2 = stablehlo.negate %1 : tensor<3xf32>
  %3 = stablehlo.divide %2, %b : tensor<3xf32>
  %4 = stablehlo.compare  GT, %a, %b,  FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %5 = stablehlo.select %4, %a, %b : tensor<3xi1>, tensor<3xf32>
  %6 = stablehlo.abs %0 : tensor<3xf32>
  %7 = stablehlo.convert %a : (tensor<3xf32>) -> tensor<3xi32>
  return %3, %6, %4, %5, %7 : tensor<3xf32>, tensor<3xf32>, tensor<3xi1>, tensor<3xf32>, tensor<3xi32>
}"#;
    let out = run(
        src,
        &[f32s(&[3], &[5.0, 1.0, -2.5]), f32s(&[3], &[1.0, 2.0, 0.5])],
    );
    assert_eq!(
        out,
        "f32[3] [-4.0, -1.0, -1.0]; f32[3] [4.0, 1.0, 3.0]; bool[3] [true, false, false]; \
         f32[3] [5.0, 2.0, 0.5]; i32[3] [5, 1, -2]"
    );
}

#[test]
fn constants_iota_and_hex_floats() {
    let src = r#"func.func @main() -> (tensor<2x2xf32>, tensor<f32>, tensor<2x3xi32>, tensor<2xf32>, tensor<2xi1>) {
  %0 = stablehlo.constant dense<[[1.000000e+00, 2.5], [-3.0, 4.0]]> : tensor<2x2xf32>
  %1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %2 = stablehlo.iota dim = 1 : tensor<2x3xi32>
  %3 = stablehlo.constant dense<"0x0000803F00000040"> : tensor<2xf32>
  %4 = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  return %0, %1, %2, %3, %4 : tensor<2x2xf32>, tensor<f32>, tensor<2x3xi32>, tensor<2xf32>, tensor<2xi1>
}"#;
    assert_eq!(
        run(src, &[]),
        "f32[2,2] [1.0, 2.5, -3.0, 4.0]; f32[] [-inf]; i32[2,3] [0, 1, 2, 0, 1, 2]; \
         f32[2] [1.0, 2.0]; bool[2] [true, false]"
    );
}

#[test]
fn shape_ops() {
    let src = r#"func.func @main(%a: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<2x2xf32>, tensor<4x3xf32>, tensor<3x2xf32>, tensor<2x2x3xf32>) {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = stablehlo.slice %a [0:2, 0:3:2] : (tensor<2x3xf32>) -> tensor<2x2xf32>
  %2 = stablehlo.concatenate %a, %a, dim = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %3 = stablehlo.reshape %a : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %4 = stablehlo.broadcast_in_dim %a, dims = [1, 2] : (tensor<2x3xf32>) -> tensor<2x2x3xf32>
  return %0, %1, %2, %3, %4 : tensor<3x2xf32>, tensor<2x2xf32>, tensor<4x3xf32>, tensor<3x2xf32>, tensor<2x2x3xf32>
}"#;
    let a = f32s(&[2, 3], &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    assert_eq!(
        run(src, &[a]),
        "f32[3,2] [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]; f32[2,2] [0.0, 2.0, 3.0, 5.0]; \
         f32[4,3] [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0]; \
         f32[3,2] [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]; \
         f32[2,2,3] [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0]"
    );
}

#[test]
fn dot_general_with_batching_dims() {
    let src = r#"func.func @main(%a: tensor<2x1x2xf32>, %b: tensor<2x2x1xf32>) -> tensor<2x1x1xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x1x2xf32>, tensor<2x2x1xf32>) -> tensor<2x1x1xf32>
  return %0 : tensor<2x1x1xf32>
}"#;
    let a = f32s(&[2, 1, 2], &[1.0, 2.0, 3.0, 4.0]);
    let b = f32s(&[2, 2, 1], &[5.0, 6.0, 7.0, 8.0]);
    assert_eq!(run(src, &[a, b]), "f32[2,1,1] [17.0, 53.0]");
}

#[test]
fn reductions_with_every_body_and_init() {
    let src = r#"func.func @main(%a: tensor<2x3xf32>, %i: tensor<2x2xi32>, %p: tensor<2x2xi1>) -> (tensor<2xf32>, tensor<2xf32>, tensor<3xf32>, tensor<2xi32>, tensor<2xi1>, tensor<2xi1>) {
  %ten = stablehlo.constant dense<1.000000e+01> : tensor<f32>
  %inf = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %big = stablehlo.constant dense<2147483647> : tensor<i32>
  %t = stablehlo.constant dense<true> : tensor<i1>
  %f = stablehlo.constant dense<false> : tensor<i1>
  %0 = stablehlo.reduce(%a init: %ten) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  %1 = stablehlo.reduce(%a init: %inf) applies stablehlo.minimum across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  %2 = stablehlo.reduce(%a init: %ninf) applies stablehlo.maximum across dimensions = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
  %3 = stablehlo.reduce(%i init: %big) applies stablehlo.minimum across dimensions = [1] : (tensor<2x2xi32>, tensor<i32>) -> tensor<2xi32>
  %4 = stablehlo.reduce(%p init: %t) applies stablehlo.and across dimensions = [1] : (tensor<2x2xi1>, tensor<i1>) -> tensor<2xi1>
  %5 = "stablehlo.reduce"(%p, %f) <{dimensions = array<i64: 1>}> ({
  ^bb0(%x: tensor<i1>, %y: tensor<i1>):
    %r = "stablehlo.or"(%x, %y) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    "stablehlo.return"(%r) : (tensor<i1>) -> ()
  }) : (tensor<2x2xi1>, tensor<i1>) -> tensor<2xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<2xf32>, tensor<2xf32>, tensor<3xf32>, tensor<2xi32>, tensor<2xi1>, tensor<2xi1>
}"#;
    let a = f32s(&[2, 3], &[1.0, -2.0, 3.0, 4.0, 5.0, -6.0]);
    let i = t(DType::I32, &[2, 2], &[-2147483648.0, 7.0, 3.0, -1.0]);
    let p = t(DType::Bool, &[2, 2], &[1.0, 1.0, 1.0, 0.0]);
    assert_eq!(
        run(src, &[a, i, p]),
        "f32[2] [12.0, 13.0]; f32[2] [-2.0, -6.0]; f32[3] [4.0, 5.0, 3.0]; \
         i32[2] [-2147483648, -1]; bool[2] [true, false]; bool[2] [true, true]"
    );
}

#[test]
fn gather_of_jnp_take_form_clamps() {
    let src = r#"func.func @main(%table: tensor<3x2xf32>, %ids: tensor<4xi32>) -> tensor<4x2xf32> {
  %0 = stablehlo.broadcast_in_dim %ids, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
  %1 = "stablehlo.gather"(%table, %0) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2>}> : (tensor<3x2xf32>, tensor<4x1xi32>) -> tensor<4x2xf32>
  return %1 : tensor<4x2xf32>
}"#;
    let table = f32s(&[3, 2], &[0.0, 1.0, 10.0, 11.0, 20.0, 21.0]);
    let ids = t(DType::I32, &[4], &[2.0, 0.0, 9.0, -1.0]);
    assert_eq!(
        run(src, &[table, ids]),
        "f32[4,2] [20.0, 21.0, 0.0, 1.0, 20.0, 21.0, 0.0, 1.0]"
    );
    // Starting dim 1 instead (a general gather): its start is clamped to 2 - 2 = 0, and the
    // collapsed dim 0 starts at 0, so every id reads row 0.
    let other = src.replace("start_index_map = [0]", "start_index_map = [1]");
    let table = f32s(&[3, 2], &[0.0, 1.0, 10.0, 11.0, 20.0, 21.0]);
    let ids = t(DType::I32, &[4], &[2.0, 0.0, 9.0, -1.0]);
    assert_eq!(
        run(&other, &[table, ids]),
        format!("f32[4,2] {:?}", [0.0, 1.0].repeat(4))
    );
    // A start index map of two dims for index vectors of one is a located type error.
    let bad = src.replace("start_index_map = [0]", "start_index_map = [0, 1]");
    assert!(
        err(&bad).starts_with("3:8: ") && err(&bad).contains("start index map"),
        "{}",
        err(&bad)
    );
}

#[test]
fn calls_with_several_results_and_private_functions() {
    let src = r#"module @m {
  func.func public @main(%a: tensor<2xf32>) -> (tensor<2xf32>) {
    %0:2 = call @pair(%a) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
    %1 = stablehlo.multiply %0#0, %0#1 : tensor<2xf32>
    return %1 : tensor<2xf32>
  }
  func.func private @pair(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
    %0 = stablehlo.add %x, %x : tensor<2xf32>
    return %x, %0 : tensor<2xf32>, tensor<2xf32>
  }
}"#;
    assert_eq!(run(src, &[f32s(&[2], &[1.0, 3.0])]), "f32[2] [2.0, 18.0]");
}

#[test]
fn while_loops_in_pretty_form() {
    let src = r#"func.func @main(%x: tensor<f32>) -> tensor<f32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%i = %c0, %acc = %x) : tensor<i32>, tensor<f32>
   cond {
    %c3 = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare  LT, %i, %c3,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.add %i, %c1 : tensor<i32>
    %2 = stablehlo.multiply %acc, %acc : tensor<f32>
    stablehlo.return %1, %2 : tensor<i32>, tensor<f32>
  }
  return %0#1 : tensor<f32>
}"#;
    assert_eq!(run(src, &[f32s(&[], &[2.0])]), "f32[] [256.0]");
}

#[test]
fn errors_name_the_op_and_its_location() {
    let head = "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n";
    assert_eq!(
        err(&format!("{head}  %0 = stablehlo.fft %a, type = FFT, length = [4] : (tensor<4xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n}}")),
        "2:8: unsupported op 'stablehlo.fft' (--allow-opaque keeps it as an opaque call)"
    );
    assert_eq!(
        err(&format!(
            "{head}  %0 = stablehlo.add %a, %b : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}}"
        )),
        "2:26: use of undefined value %b"
    );
    assert_eq!(
        err(&format!(
            "{head}  %0 = stablehlo.add %a, %a : tensor<5xf32>\n  return %0 : tensor<4xf32>\n}}"
        )),
        "2:8: `add`: result type f32[5] does not match the inferred type f32[4]"
    );
    assert_eq!(
        err(&format!(
            "{head}  %0 = stablehlo.add %a, %a : tensor<4xf8E5M2>\n"
        )),
        "2:40: unsupported element type `f8E5M2`"
    );
    assert!(err(&format!("{head}  %0 = ")).starts_with("2:8: "));
    assert_eq!(
        err(&format!("{head}  %0 = stablehlo.add %a, %a : tensor<4xf32>\n  %0 = stablehlo.add %a, %a : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}}")),
        "3:8: %0 is defined more than once"
    );
    assert_eq!(
        err(&format!("{head}  return %a : tensor<4xf32>\n}}")
            .replace("-> tensor<4xf32>", "-> tensor<5xf32>")),
        "1:1: @main returns (f32[4]) but declares (f32[5])"
    );
}

#[test]
fn custom_calls_become_impure_extern_calls_and_export_back() {
    let src = r#"func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.custom_call @my_kernel(%a) {has_side_effect = true} : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "stablehlo.custom_call"(%0) <{call_target_name = "my_kernel", has_side_effect = true}> : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}"#;
    let p = ptir_mlir::import(src).unwrap();
    assert_eq!(p.externs.len(), 1);
    assert!(!p.externs[0].pure);
    assert!(ptir_ir::print(&p).contains("%1 = call @my_kernel(%0) : f32[2]"));
    let out = ptir_mlir::export(&p, &ptir_mlir::ExportOptions::default()).unwrap();
    assert!(
        out.contains("stablehlo.custom_call @my_kernel(%0) {has_side_effect = true}"),
        "{out}"
    );
    assert_eq!(ptir_mlir::import(&out), Ok(p));
}

#[test]
fn case_picks_the_branch_of_the_index_and_the_last_one_out_of_range() {
    let src = r#"func.func @main(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.case"(%i) ({
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }, {
    %1 = stablehlo.add %x, %x : tensor<f32>
    "stablehlo.return"(%1) : (tensor<f32>) -> ()
  }, {
    %1 = stablehlo.multiply %x, %x : tensor<f32>
    "stablehlo.return"(%1) : (tensor<f32>) -> ()
  }) : (tensor<i32>) -> tensor<f32>
  return %0 : tensor<f32>
}"#;
    // Exported as nested `stablehlo.if`s, which import with another numbering: compare values.
    let p = ptir_mlir::import(src).unwrap();
    let back = ptir_mlir::export(&p, &ptir_mlir::ExportOptions::default()).unwrap();
    let q = ptir_mlir::import(&back).unwrap();
    let x = f32s(&[], &[3.0]);
    let at = |i: f64| {
        let args = [t(DType::I32, &[], &[i]), x.clone()];
        let a = Interpreter::new(&p).run("main", &args).unwrap();
        assert_eq!(Interpreter::new(&q).run("main", &args).unwrap(), a);
        a[0].to_string()
    };
    assert_eq!(at(0.0), "f32[] [3.0]");
    assert_eq!(at(1.0), "f32[] [6.0]");
    assert_eq!(at(2.0), "f32[] [9.0]");
    assert_eq!(at(7.0), "f32[] [9.0]");
    assert_eq!(at(-1.0), "f32[] [9.0]");
    // One branch (as `jnp.corrcoef` writes one): taken whatever the index.
    let one = src
        .replace("\n  }, {\n    %1 = stablehlo.add %x, %x : tensor<f32>\n    \"stablehlo.return\"(%1) : (tensor<f32>) -> ()", "")
        .replace("\n  }, {\n    %1 = stablehlo.multiply %x, %x : tensor<f32>\n    \"stablehlo.return\"(%1) : (tensor<f32>) -> ()", "");
    assert_eq!(one.matches("stablehlo.return").count(), 1, "{one}");
    let p = ptir_mlir::import(&one).unwrap();
    for i in [0.0, 5.0, -3.0] {
        let args = [t(DType::I32, &[], &[i]), x.clone()];
        let r = Interpreter::new(&p).run("main", &args).unwrap();
        assert_eq!(r[0].to_string(), "f32[] [3.0]");
    }
    let none = "func.func @main(%i: tensor<i32>) -> () {\n  \"stablehlo.case\"(%i) : (tensor<i32>) -> ()\n  return\n}";
    assert!(ptir_mlir::import(none).is_err());
}

#[test]
fn no_input_makes_import_panic() {
    // Every prefix of a fixture, and the fixture with each of a sample of bytes deleted.
    let text = include_str!("../../../corpus/mlir/attention.mlir");
    for end in (0..text.len()).step_by(3) {
        let _ = ptir_mlir::import(&text[..end]);
    }
    for i in (0..text.len()).step_by(5) {
        let mut s = text.to_string();
        s.remove(i);
        if let Ok(p) = ptir_mlir::import(&s) {
            ptir_ir::verify(&p).unwrap_or_else(|e| panic!("deleting byte {i}: {e}"));
        }
    }
}

/// An iota is kept as an op, whatever its size: a 4000x4000 index tensor is a line of text in
/// and out, never 16 million stored elements.
#[test]
fn a_huge_iota_stays_an_op() {
    let huge = "func.func @main() -> tensor<4000x4000xi32> {\n  %0 = stablehlo.iota dim = 1 : tensor<4000x4000xi32>\n  return %0 : tensor<4000x4000xi32>\n}";
    let p = ptir_mlir::import(huge).unwrap();
    assert_eq!(
        p.functions[0].body.insts[0].op,
        ptir_ir::Op::Iota { dim: 1 }
    );
    let back = ptir_mlir::export(&p, &ptir_mlir::ExportOptions::default()).unwrap();
    assert!(back.len() < 400, "{back}");
    assert!(
        back.contains("stablehlo.iota dim = 1 : tensor<4000x4000xi32>"),
        "{back}"
    );
    let bad = "func.func @main() -> tensor<4xi32> {\n  %0 = stablehlo.iota dim = 1 : tensor<4xi32>\n  return %0 : tensor<4xi32>\n}";
    assert!(err(bad).starts_with("2:8:"), "{}", err(bad));
    assert!(
        err(bad).contains("iota dimension 1 is out of range"),
        "{}",
        err(bad)
    );
}

#[test]
fn arith_and_tosa_ops_on_static_tensors() {
    // What `mlir-opt --canonicalize` leaves of the MLIR parity cases.
    let src = r#"func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xi32>) -> (tensor<3x2xf32>, tensor<2x3xi32>, tensor<6xf16>) {
  %cst = arith.constant dense<2.000000e+00> : tensor<2x3xf32>
  %c = arith.constant dense<3> : tensor<2x3xi32>
  %0 = arith.mulf %arg0, %cst : tensor<2x3xf32>
  %1 = arith.negf %0 : tensor<2x3xf32>
  %2 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  %3 = tosa.negate %1, %2, %2 : (tensor<2x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3xf32>
  %4 = tosa.transpose %3 {perms = array<i32: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %5 = arith.divsi %arg1, %c : tensor<2x3xi32>
  %6 = tosa.sub %5, %arg1 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %7 = tosa.const_shape {values = dense<6> : tensor<1xindex>} : () -> !tosa.shape<1>
  %8 = tosa.reshape %arg0, %7 : (tensor<2x3xf32>, !tosa.shape<1>) -> tensor<6xf32>
  %9 = tosa.cast %8 : (tensor<6xf32>) -> tensor<6xf16>
  return %4, %6, %9 : tensor<3x2xf32>, tensor<2x3xi32>, tensor<6xf16>
}"#;
    let x = f32s(&[2, 3], &[1.0, -2.0, 3.0, 0.5, 0.0, -1.0]);
    let n = t(DType::I32, &[2, 3], &[7.0, -7.0, 3.0, 2.0, 0.0, 9.0]);
    assert_eq!(
        run(src, &[x, n]),
        "f32[3,2] [2.0, 1.0, -4.0, 0.0, 6.0, -2.0]; i32[2,3] [-5, 5, -2, -2, 0, -6]; \
         f16[6] [1.0, -2.0, 3.0, 0.5, 0.0, -1.0]"
    );
    let nonzero = src.replace(
        "dense<0.000000e+00> : tensor<1xf32>",
        "dense<1.0> : tensor<1xf32>",
    );
    assert_eq!(
        err(&nonzero),
        "7:8: unsupported `tosa.negate` with a nonzero zero point"
    );
}

#[test]
fn opaque_ops_with_several_results_and_in_regions_round_trip() {
    let src = r#"func.func @main(%x: tensor<4xf32>, %n: tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>, tensor<i32>) {
  %values, %indices = "chlo.top_k"(%x) {k = 2 : i64, largest = false} : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xi32>)
  %0 = stablehlo.while(%iterArg = %n) : tensor<i32>
    cond {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare  GT, %iterArg, %c,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %2 = stablehlo.cholesky %iterArg, lower = true : tensor<i32>
    stablehlo.return %2 : tensor<i32>
  }
  return %values, %indices, %0 : tensor<2xf32>, tensor<2xi32>, tensor<i32>
}"#;
    assert_eq!(
        err(src),
        "2:23: unsupported `chlo.top_k` of the smallest elements (--allow-opaque keeps it as an opaque call)"
    );
    let options = ptir_mlir::ImportOptions { allow_opaque: true };
    let (p, source) = ptir_mlir::import_with(src, &options).unwrap();
    ptir_ir::verify(&p).unwrap();
    let text = ptir_mlir::export(
        &p,
        &ptir_mlir::ExportOptions {
            source: Some(&source),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(
        text.contains(r#" = "chlo.top_k"(%x) {k = 2 : i64, largest = false} : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xi32>)"#),
        "{text}"
    );
    // The body's `%iterArg` was printed in the cond region already: a name of its own.
    assert!(text.contains("^bb0(%iterArg: tensor<i32>):"), "{text}");
    assert!(
        text.contains("= stablehlo.cholesky %8, lower = true : tensor<i32>"),
        "{text}"
    );
    let (again, _) = ptir_mlir::import_with(&text, &options).unwrap();
    assert_eq!(again, p, "{text}");
}

/// A float sum's init is where StableHLO starts: from -0.0 (IEEE's additive identity) a sum of
/// -0.0s is -0.0, from +0.0 it is +0.0, and from an argument it is whatever that argument
/// makes of it.
#[test]
fn a_float_sum_starts_from_its_init_signed_zeros_included() {
    let module = |init: &str| {
        format!(
            r#"func.func @main(%x: tensor<3xf32>, %i: tensor<f32>) -> tensor<f32> {{
  {init}
  %0 = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}}"#
        )
    };
    let neg_zeros = f32s(&[3], &[-0.0, -0.0, -0.0]);
    let mixed = f32s(&[3], &[1.5, -0.0, 2.0]);
    let scalar = |x: f64| f32s(&[], &[x]);
    for (init, x, i, want) in [
        (
            "%c = stablehlo.constant dense<-0.0> : tensor<f32>",
            &neg_zeros,
            0.0,
            "f32[] [-0.0]",
        ),
        (
            "%c = stablehlo.constant dense<0.0> : tensor<f32>",
            &neg_zeros,
            0.0,
            "f32[] [0.0]",
        ),
        (
            "%c = stablehlo.constant dense<-0.0> : tensor<f32>",
            &mixed,
            0.0,
            "f32[] [3.5]",
        ),
        (
            "%c = stablehlo.constant dense<1.0> : tensor<f32>",
            &neg_zeros,
            0.0,
            "f32[] [1.0]",
        ),
        (
            "%c = stablehlo.add %i, %i : tensor<f32>",
            &neg_zeros,
            -0.0,
            "f32[] [-0.0]",
        ),
        (
            "%c = stablehlo.add %i, %i : tensor<f32>",
            &neg_zeros,
            0.0,
            "f32[] [0.0]",
        ),
    ] {
        let got = run(&module(init), &[x.clone(), scalar(i)]);
        assert_eq!(got, want, "{init} on {x}, init argument {i}");
    }
}

/// JAX names every nested `jit(lambda ...)` `@"<lambda>"`: the name is quoted again on the
/// way out, in MLIR and in PTIR text, and both read back to the same program.
#[test]
fn quoted_symbol_names_round_trip() {
    let src = r#"module @jit_f {
  func.func public @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>) {
    %0 = call @"<lambda>"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @"<lambda>"(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.sine %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}"#;
    let p = ptir_mlir::import(src).unwrap();
    let back = ptir_mlir::export(&p, &ptir_mlir::ExportOptions::default()).unwrap();
    assert!(back.contains(r#"func.func private @"<lambda>"("#), "{back}");
    assert!(back.contains(r#"func.call @"<lambda>"("#), "{back}");
    assert_eq!(ptir_mlir::import(&back).unwrap(), p);
    let text = ptir_ir::print(&p);
    assert!(text.contains(r#"call @"<lambda>"(%0)"#), "{text}");
    assert_eq!(ptir_ir::parse(&text).unwrap(), p);
    let out = run(src, &[f32s(&[4], &[0.0, 1.0, -0.0, 3.0])]);
    assert_eq!(out, "f32[4] [0.0, 0.84147096, -0.0, 0.14112]");
}

/// The ops JAX emits for indexing loops and integer code, at their edge values: start
/// indices out of range (StableHLO clamps them), shifts by the bit width or more, NaN and
/// infinities, scalar clamp bounds.
#[test]
fn dynamic_slices_shifts_and_numerics_at_their_edges() {
    let i32s = |shape: &[usize], xs: &[f64]| t(DType::I32, shape, xs);
    let slices = r#"func.func @main(%x: tensor<5xf32>, %i: tensor<i32>, %u: tensor<2xf32>) -> (tensor<2xf32>, tensor<5xf32>) {
  %0 = stablehlo.dynamic_slice %x, %i, sizes = [2] : (tensor<5xf32>, tensor<i32>) -> tensor<2xf32>
  %1 = stablehlo.dynamic_update_slice %x, %u, %i : (tensor<5xf32>, tensor<2xf32>, tensor<i32>) -> tensor<5xf32>
  return %0, %1 : tensor<2xf32>, tensor<5xf32>
}"#;
    let x = f32s(&[5], &[0.0, 1.0, 2.0, 3.0, 4.0]);
    let u = f32s(&[2], &[-1.0, -2.0]);
    for (i, want) in [
        (1.0, "f32[2] [1.0, 2.0]; f32[5] [0.0, -1.0, -2.0, 3.0, 4.0]"),
        (
            -7.0,
            "f32[2] [0.0, 1.0]; f32[5] [-1.0, -2.0, 2.0, 3.0, 4.0]",
        ),
        (9.0, "f32[2] [3.0, 4.0]; f32[5] [0.0, 1.0, 2.0, -1.0, -2.0]"),
    ] {
        let got = run(slices, &[x.clone(), i32s(&[], &[i]), u.clone()]);
        assert_eq!(got, want, "start {i}");
    }
    let ints = r#"func.func @main(%a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %0 = stablehlo.shift_left %a, %b : tensor<4xi32>
  %1 = stablehlo.shift_right_arithmetic %a, %b : tensor<4xi32>
  %2 = stablehlo.shift_right_logical %a, %b : tensor<4xi32>
  %3 = stablehlo.xor %a, %b : tensor<4xi32>
  return %0, %1, %2, %3 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}"#;
    let got = run(
        ints,
        &[
            i32s(&[4], &[-8.0, 1.0, -1.0, 3.0]),
            i32s(&[4], &[1.0, 31.0, 32.0, -1.0]),
        ],
    );
    assert_eq!(
        got,
        "i32[4] [-16, -2147483648, 0, 0]; i32[4] [-4, 0, -1, 0]; \
         i32[4] [2147483644, 0, 0, 0]; i32[4] [-7, 30, -33, -4]"
    );
    let floats = r#"func.func @main(%a: tensor<5xf32>, %lo: tensor<f32>, %hi: tensor<f32>) -> (tensor<5xi1>, tensor<5xf32>, tensor<5xf32>) {
  %0 = stablehlo.is_finite %a : (tensor<5xf32>) -> tensor<5xi1>
  %1 = stablehlo.clamp %lo, %a, %hi : (tensor<f32>, tensor<5xf32>, tensor<f32>) -> tensor<5xf32>
  %2 = stablehlo.atan2 %a, %1 : tensor<5xf32>
  return %0, %1, %2 : tensor<5xi1>, tensor<5xf32>, tensor<5xf32>
}"#;
    let a = f32s(
        &[5],
        &[f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 7.0],
    );
    let got = run(floats, &[a, f32s(&[], &[-1.0]), f32s(&[], &[1.0])]);
    assert_eq!(
        got,
        "bool[5] [false, false, false, true, true]; f32[5] [nan, 1.0, -1.0, -0.0, 1.0]; \
         f32[5] [nan, 1.5707964, -1.5707964, -3.1415927, 1.4288993]"
    );
}

/// Zero-size constants of every rank export as MLIR writes them (`dense<>`; `dense<[]>` is
/// read as rank 1 only) and read back to the same program.
#[test]
fn zero_size_constants_round_trip() {
    for ty in ["f32[0]", "f32[0,4]", "i32[2,0,3]"] {
        let text = format!(
            "func @main() -> ({ty}) {{\n  %0 = constant dense([]) : {ty}\n  return %0\n}}\n"
        );
        let p = ptir_ir::parse(&text).unwrap_or_else(|e| panic!("{ty}: {e}"));
        let back = ptir_mlir::export(&p, &ptir_mlir::ExportOptions::default()).unwrap();
        assert!(back.contains("dense<>"), "{back}");
        assert_eq!(ptir_mlir::import(&back).unwrap(), p, "{back}");
    }
}

/// Literals a type cannot hold are located errors in the text's own words, not silent
/// infinities or zeros, and not Rust's debug text.
#[test]
fn literals_out_of_their_type_are_refused() {
    let module = |lit: &str, ty: &str| {
        format!("func.func @main() -> tensor<{ty}> {{\n  %0 = stablehlo.constant dense<{lit}> : tensor<{ty}>\n  return %0 : tensor<{ty}>\n}}")
    };
    for (lit, ty, want) in [
        (
            "1e39",
            "f32",
            "2:8: `1e39` is not a valid f32 value (out of range)",
        ),
        (
            "0x7FC000000",
            "f32",
            "2:8: `0x7FC000000` is not a valid f32 value (a bit pattern wider than 32 bits)",
        ),
        ("1.5", "i32", "2:8: `1.5` is not a valid i32 value"),
    ] {
        assert_eq!(err(&module(lit, ty)), want);
    }
    assert_eq!(run(&module("1e38", "f32"), &[]), "f32[] [1e38]");
}

/// An op after `return` is an error at that op, not dropped.
#[test]
fn an_op_after_the_terminator_is_refused() {
    let src = "func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n  return %x : tensor<2xf32>\n  %0 = stablehlo.negate %x : tensor<2xf32>\n}";
    assert_eq!(
        err(src),
        "3:8: `stablehlo.negate` after the block's terminator"
    );
}

/// Valid MLIR whose custom syntax the reader does not know (a dialect's `? 2` here) is
/// refused naming the op, at the op, never as a syntax error.
#[test]
fn an_unknown_custom_syntax_names_its_op() {
    let src = "func.func @main(%a: tensor<8xf32>) -> tensor<2xf32> {\n  %v, %i = chlo.top_q(%a ? 2) : tensor<8xf32> -> (tensor<2xf32>, tensor<2xi32>)\n  return %v : tensor<2xf32>\n}";
    let e = err(src);
    assert!(
        e.starts_with(
            "2:12: unsupported custom syntax of op 'chlo.top_q' (2:26: expected `)`, found `?`)"
        ),
        "{e}"
    );
}

/// A module cut in the middle of an op's line is reported as cut short, at the op, not as an
/// op whose syntax the reader does not know.
#[test]
fn a_text_cut_short_says_so() {
    let whole = "func.func @main(%a: tensor<4xf32>) -> tensor<f32> {\n  %c = stablehlo.constant dense<0.0> : tensor<f32>\n  %0 = stablehlo.reduce(%a init: %c) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>\n  return %0 : tensor<f32>\n}\n";
    assert!(ptir_mlir::import(whole).is_ok());
    let cut = &whole[..whole.find("across").unwrap() + 3];
    assert_eq!(
        err(cut),
        "3:8: the text ends inside `stablehlo.reduce`: is the file cut short?"
    );
}

/// Two operands with no comma between them (`stablehlo.add %a %a`) are refused, located, not
/// read as if the comma were there (mlir-opt refuses them too).
#[test]
fn operands_need_their_commas() {
    let src = "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.add %a %a : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}";
    let e = err(src);
    assert!(e.starts_with("2:8: "), "{e}");
    assert!(
        e.contains("2:25: expected `,` between the operands of `stablehlo.add`, found `%a`"),
        "{e}"
    );
    let fine = "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.add %a,%a : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}";
    assert!(ptir_mlir::import(fine).is_ok());
}

/// Unsigned and narrow integers: element types in tensor types and dense constants (decimal
/// above `i32::MAX` and `i64::MAX`, hex), unsigned comparison, division and shifts, `popcnt`,
/// `count_leading_zeros`, `bitcast_convert`, an unsigned iota that wraps; exported and imported
/// back to the same program (`run` checks it).
#[test]
fn unsigned_and_narrow_integers() {
    let src = r#"func.func @main(%x: tensor<3xui32>) -> (tensor<3xi1>, tensor<3xui32>, tensor<3xui32>, tensor<3xf32>, tensor<2xui64>, tensor<3xi8>, tensor<300xui8>, tensor<3xui32>) {
  %big = stablehlo.constant dense<[2147483648, 4294967295, 0x00000001]> : tensor<3xui32>
  %0 = stablehlo.compare  GT, %x, %big,  UNSIGNED : (tensor<3xui32>, tensor<3xui32>) -> tensor<3xi1>
  %1 = stablehlo.divide %big, %x : tensor<3xui32>
  %c = stablehlo.constant dense<31> : tensor<3xui32>
  %2 = stablehlo.shift_right_logical %big, %c : tensor<3xui32>
  %3 = stablehlo.bitcast_convert %x : (tensor<3xui32>) -> tensor<3xf32>
  %4 = stablehlo.constant dense<[18446744073709551615, 0xFFFFFFFFFFFFFFFE]> : tensor<2xui64>
  %5 = stablehlo.popcnt %big : tensor<3xui32>
  %6 = stablehlo.convert %5 : (tensor<3xui32>) -> tensor<3xi8>
  %7 = stablehlo.iota dim = 0 : tensor<300xui8>
  %8 = stablehlo.count_leading_zeros %x : tensor<3xui32>
  return %0, %1, %2, %3, %4, %6, %7, %8 : tensor<3xi1>, tensor<3xui32>, tensor<3xui32>, tensor<3xf32>, tensor<2xui64>, tensor<3xi8>, tensor<300xui8>, tensor<3xui32>
}"#;
    let x = Value::Tensor(Tensor {
        ty: TensorType::new(DType::U32, vec![3]),
        data: ptir_ir::Data::Int(vec![0xC000_0000, 3, 0x3F80_0000]),
    });
    let out = run(src, &[x]);
    let parts: Vec<&str> = out.split("; ").collect();
    assert_eq!(parts[0], "bool[3] [true, false, true]");
    assert_eq!(parts[1], "u32[3] [0, 1431655765, 0]");
    assert_eq!(parts[2], "u32[3] [1, 1, 0]");
    assert_eq!(parts[3], "f32[3] [-2.0, 4e-45, 1.0]");
    assert_eq!(
        parts[4],
        "u64[2] [18446744073709551615, 18446744073709551614]"
    );
    assert_eq!(parts[5], "i8[3] [1, 32, 1]");
    assert!(parts[6].contains(", 254, 255, 0, 1, "), "{}", parts[6]);
    assert_eq!(parts[7], "u32[3] [0, 30, 2]");
    // The export spells the types as MLIR does and the constants as unsigned numbers.
    let p = ptir_mlir::import(src).unwrap();
    let text = ptir_mlir::export(&p, &ptir_mlir::ExportOptions::default()).unwrap();
    assert!(
        text.contains("dense<[2147483648, 4294967295, 1]> : tensor<3xui32>"),
        "{text}"
    );
    assert!(text.contains("18446744073709551615"), "{text}");
    assert!(text.contains("UNSIGNED"), "{text}");
    assert!(text.contains("stablehlo.bitcast_convert"), "{text}");
}

/// A comparison type that does not fit the operands' class (StableHLO requires SIGNED for
/// signed integers, UNSIGNED for unsigned ones and bool, FLOAT for floats; IREE ignores any
/// other), an unsigned constant out of range and a `bitcast_convert` that changes the width
/// are located errors.
#[test]
fn comparison_types_and_unsigned_constants_are_checked() {
    let signed = r#"func.func @main(%x: tensor<2xui8>) -> tensor<2xi1> {
  %0 = stablehlo.compare  LT, %x, %x,  SIGNED : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}"#;
    assert_eq!(
        err(signed),
        "2:8: comparison type SIGNED does not fit ui8 operands (StableHLO requires UNSIGNED)"
    );
    let float_kind = r#"func.func @main(%x: tensor<2xui32>) -> tensor<2xi1> {
  %0 = stablehlo.compare  LT, %x, %x,  FLOAT : (tensor<2xui32>, tensor<2xui32>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}"#;
    assert_eq!(
        err(float_kind),
        "2:8: comparison type FLOAT does not fit ui32 operands (StableHLO requires UNSIGNED)"
    );
    for (constant, why) in [
        (
            "dense<-1> : tensor<ui32>",
            "`-1` is not a valid u32 value (out of range)",
        ),
        (
            "dense<256> : tensor<ui8>",
            "`256` is not a valid u8 value (out of range)",
        ),
        (
            "dense<0x1FF> : tensor<ui8>",
            "`0x1FF` is not a valid u8 value (a bit pattern wider than 8 bits)",
        ),
    ] {
        let ty = constant.rsplit(": ").next().unwrap();
        let src = format!(
            "func.func @main() -> {ty} {{\n  %0 = stablehlo.constant {constant}\n  return %0 : {ty}\n}}"
        );
        let e = err(&src);
        assert!(e.contains(why), "{e}");
    }
    // Between widths: one op, exported as it came (written as shifts and slices, a bitcast
    // of a large tensor ran 6x slower in IREE).
    let f32_to_bytes = r#"func.func @main(%x: tensor<3x2xf32>) -> tensor<3x2x4xui8> {
  %0 = stablehlo.bitcast_convert %x : (tensor<3x2xf32>) -> tensor<3x2x4xui8>
  return %0 : tensor<3x2x4xui8>
}"#;
    let p = ptir_mlir::import(f32_to_bytes).unwrap();
    assert!(ptir_ir::print(&p).contains("bitcast_resize %0 : u8[3,2,4]"));
    let back = ptir_mlir::export(&p, &ptir_mlir::ExportOptions::default()).unwrap();
    assert_eq!(back.matches("stablehlo.").count(), 1, "{back}");
    assert!(back.contains("stablehlo.bitcast_convert"), "{back}");
    // The narrower side has one more dim, of the widths' ratio.
    let widths = r#"func.func @main(%x: tensor<2xui32>) -> tensor<2x3xui16> {
  %0 = stablehlo.bitcast_convert %x : (tensor<2xui32>) -> tensor<2x3xui16>
  return %0 : tensor<2x3xui16>
}"#;
    assert!(
        err(widths).contains("the narrower side has the wider's shape and one more dim of 2"),
        "{}",
        err(widths)
    );
    let bools = widths.replace("2x3xui16", "2xi1");
    assert!(
        err(&bools).contains("`bitcast_convert` from ui32 to i1 (only between numbers)"),
        "{}",
        err(&bools)
    );
}

#[test]
fn shardy_constraints_on_one_device_are_the_identity() {
    // As JAX 0.10 writes a typed PRNG key's data (`jax.random.key`): a mesh at the top of the
    // module and a constraint on the key. IREE 3.13 cannot read the `sdy` dialect; the import
    // can, and the program it makes is the one without them.
    let with = r#"module @jit_f attributes {mhlo.num_partitions = 1 : i32} {
  sdy.mesh @empty_mesh = <[]> {stablehlo.mesh = {axes = []}}
  sdy.mesh @mesh = <["x"=1]>
  func.func public @main(%arg0: tensor<2xui32>) -> (tensor<2xui32> {jax.result_info = "result"}) {
    %0 = sdy.sharding_constraint %arg0 <@empty_mesh, [{}]> : tensor<2xui32>
    %1 = stablehlo.add %0, %0 : tensor<2xui32>
    return %1 : tensor<2xui32>
  }
}"#;
    let without = r#"func.func public @main(%arg0: tensor<2xui32>) -> tensor<2xui32> {
    %1 = stablehlo.add %arg0, %arg0 : tensor<2xui32>
    return %1 : tensor<2xui32>
}"#;
    let p = ptir_mlir::import(with).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(Ok(p), ptir_mlir::import(without));
    let x = t(DType::U32, &[2], &[7.0, 4294967295.0]);
    assert_eq!(run(with, &[x]), "u32[2] [14, 4294967294]");
    // A constraint that changes the type is not one.
    let bad = r#"func.func @main(%arg0: tensor<2xui32>) -> tensor<2xi32> {
    %0 = sdy.sharding_constraint %arg0 <@m, [{}]> : tensor<2xi32>
    return %0 : tensor<2xi32>
}"#;
    let e = err(bad);
    assert!(
        e.contains("2:10") && e.contains("sharding_constraint"),
        "{e}"
    );
}

#[test]
fn products_and_cumulative_products() {
    // `jnp.prod` (a `reduce` with a `multiply` body, from the init 1 or from another value) and
    // `jnp.cumprod` (a `reduce_window` with one, as JAX 0.10 writes it), integers wrapping.
    let src = r#"func.func @main(%a: tensor<2x3xf32>, %i: tensor<3xi32>) -> (tensor<2xf32>, tensor<3xf32>, tensor<i32>, tensor<3xf32>, tensor<3xi32>) {
  %one = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  %two = stablehlo.constant dense<2.000000e+00> : tensor<f32>
  %ione = stablehlo.constant dense<1> : tensor<i32>
  %0 = stablehlo.reduce(%a init: %one) applies stablehlo.multiply across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  %1 = stablehlo.reduce(%a init: %two) applies stablehlo.multiply across dimensions = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
  %2 = stablehlo.reduce(%i init: %ione) applies stablehlo.multiply across dimensions = [0] : (tensor<3xi32>, tensor<i32>) -> tensor<i32>
  %row = stablehlo.slice %a [0:1, 0:3] : (tensor<2x3xf32>) -> tensor<1x3xf32>
  %r = stablehlo.reshape %row : (tensor<1x3xf32>) -> tensor<3xf32>
  %3 = "stablehlo.reduce_window"(%r, %one) <{base_dilations = array<i64: 1>, padding = dense<[[2, 0]]> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 3>, window_strides = array<i64: 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %m = stablehlo.multiply %x, %y : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %4 = "stablehlo.reduce_window"(%i, %ione) <{padding = dense<[[2, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 3>}> ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %m = stablehlo.multiply %x, %y : tensor<i32>
    stablehlo.return %m : tensor<i32>
  }) : (tensor<3xi32>, tensor<i32>) -> tensor<3xi32>
  return %0, %1, %2, %3, %4 : tensor<2xf32>, tensor<3xf32>, tensor<i32>, tensor<3xf32>, tensor<3xi32>
}"#;
    let a = f32s(&[2, 3], &[1.0, -2.0, 3.0, 4.0, 0.5, -0.0]);
    let i = t(DType::I32, &[3], &[65536.0, 65536.0, 3.0]);
    assert_eq!(
        run(src, &[a, i]),
        "f32[2] [-6.0, -0.0]; f32[3] [8.0, -2.0, -0.0]; i32[] [0]; f32[3] [1.0, -2.0, -6.0]; \
         i32[3] [65536, 0, 0]"
    );
    // A product of bools is no reduction PTIR has: `and` is.
    let e = err(r#"func.func @main(%p: tensor<2xi1>) -> tensor<i1> {
  %t = stablehlo.constant dense<true> : tensor<i1>
  %0 = stablehlo.reduce(%p init: %t) applies stablehlo.multiply across dimensions = [0] : (tensor<2xi1>, tensor<i1>) -> tensor<i1>
  return %0 : tensor<i1>
}"#);
    assert!(e.contains("3:8") && e.contains("multiply"), "{e}");
}

#[test]
fn optimization_barriers_are_kept_and_give_their_operands_back() {
    // As `jax.grad` of a `jax.checkpoint`ed function writes it (JAX 0.10), one operand in the
    // generic form, and a barrier whose results are not its operands' types.
    let src = r#"func.func public @main(%arg0: tensor<2xf32>, %arg1: tensor<3xi32>) -> (tensor<2xf32>, tensor<3xi32>, tensor<2xf32>) {
  %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2xf32>
  %1:3 = stablehlo.optimization_barrier %arg0, %arg1, %0 : tensor<2xf32>, tensor<3xi32>, tensor<2xf32>
  %2 = stablehlo.multiply %1#0, %1#2 : tensor<2xf32>
  %3 = "stablehlo.optimization_barrier"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  return %2, %1#1, %3 : tensor<2xf32>, tensor<3xi32>, tensor<2xf32>
}"#;
    let x = f32s(&[2], &[1.5, -0.0]);
    let i = t(DType::I32, &[3], &[1.0, 2.0, 3.0]);
    assert_eq!(
        run(src, &[x, i]),
        "f32[2] [1.5, -0.0]; i32[3] [1, 2, 3]; f32[2] [1.5, -0.0]"
    );
    let p = ptir_mlir::import(src).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        ptir_ir::print(&p).matches("optimization_barrier").count(),
        2
    );
    let bad = r#"func.func @main(%arg0: tensor<2xf32>) -> tensor<2xi32> {
  %0 = "stablehlo.optimization_barrier"(%arg0) : (tensor<2xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}"#;
    let e = err(bad);
    assert!(
        e.contains("2:8") && e.contains("optimization_barrier"),
        "{e}"
    );
}

#[test]
fn reduce_precision_rounds_to_the_format_and_back() {
    // `jax.lax.reduce_precision(x, 5, 10)` as JAX 0.10 writes it, and the generic form.
    let src = r#"func.func public @main(%x: tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>) {
  %0 = stablehlo.reduce_precision %x, format = e5m10 : tensor<6xf32>
  %1 = "stablehlo.reduce_precision"(%x) <{exponent_bits = 8 : i32, mantissa_bits = 7 : i32}> : (tensor<6xf32>) -> tensor<6xf32>
  return %0, %1 : tensor<6xf32>, tensor<6xf32>
}"#;
    // A tie to even, one rounded up, f16's largest, beyond it, below its normals, NaN.
    let x = f32s(
        &[6],
        &[
            1.00048828125,
            1.00146484375,
            65504.0,
            65520.0,
            -1e-5,
            f64::NAN,
        ],
    );
    assert_eq!(
        run(src, &[x]),
        "f32[6] [1.0, 1.0019531, 65504.0, inf, -0.0, nan]; \
         f32[6] [1.0, 1.0, 65536.0, 65536.0, -1.001358e-5, nan]"
    );
    let bad = r#"func.func @main(%x: tensor<2xi32>) -> tensor<2xi32> {
  %0 = stablehlo.reduce_precision %x, format = e5m10 : tensor<2xi32>
  return %0 : tensor<2xi32>
}"#;
    let e = err(bad);
    assert!(e.contains("2:8") && e.contains("float"), "{e}");
    let bad = r#"func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.reduce_precision %x, format = x5 : tensor<2xf32>
  return %0 : tensor<2xf32>
}"#;
    let e = err(bad);
    assert!(e.contains("2:8") && e.contains("e5m10"), "{e}");
    let zero = r#"func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.reduce_precision %x, format = e0m3 : tensor<2xf32>
  return %0 : tensor<2xf32>
}"#;
    let e = err(zero);
    assert!(e.contains("2:8") && e.contains("exponent"), "{e}");
}

/// `lax.dot(i8, i8, preferred_element_type=i32)`, the int8-quantized matmul, and its kin:
/// products and sums are computed in the result's dtype, so nothing wraps at the operands'
/// width (five products of 127 * 127 are 80,645, not the -128 an 8-bit sum gives). For
/// integer results the op accumulates in them (`result_dtype`); i8 into f32 converts the
/// operands first (every i8 is an f32).
#[test]
fn mixed_precision_integer_contractions_compute_in_the_result_dtype() {
    let dot = |from: &str, to: &str| {
        format!(
            r#"func.func @main(%a: tensor<1x5x{from}>, %b: tensor<5x1x{from}>) -> tensor<1x1x{to}> {{
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1x5x{from}>, tensor<5x1x{from}>) -> tensor<1x1x{to}>
  return %0 : tensor<1x1x{to}>
}}"#
        )
    };
    let ones = |d: DType, x: f64| [t(d, &[1, 5], &[x; 5]), t(d, &[5, 1], &[x; 5])];
    assert_eq!(
        run(&dot("i8", "i32"), &ones(DType::I8, 127.0)),
        "i32[1,1] [80645]"
    );
    assert_eq!(
        run(&dot("i8", "i32"), &ones(DType::I8, -128.0)),
        "i32[1,1] [81920]"
    );
    assert_eq!(
        run(&dot("i8", "f32"), &ones(DType::I8, 127.0)),
        "f32[1,1] [80645.0]"
    );
    assert_eq!(
        run(&dot("i16", "i32"), &ones(DType::I16, 1000.0)),
        "i32[1,1] [5000000]"
    );
    assert_eq!(
        run(&dot("ui8", "i32"), &ones(DType::U8, 255.0)),
        "i32[1,1] [325125]"
    );
    let conv = r#"func.func @main(%x: tensor<1x1x5xi8>, %k: tensor<1x1x5xi8>) -> tensor<1x1x1xi32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x1x5xi8>, tensor<1x1x5xi8>) -> tensor<1x1x1xi32>
  return %0 : tensor<1x1x1xi32>
}"#;
    let xs = [
        t(DType::I8, &[1, 1, 5], &[127.0; 5]),
        t(DType::I8, &[1, 1, 5], &[127.0; 5]),
    ];
    assert_eq!(run(conv, &xs), "i32[1,1,1] [80645]");
}

/// A `return`'s type annotation is checked against the values it returns: a 4x8 value
/// declared 4x4 is a located error, not a silent accept.
#[test]
fn a_return_type_that_is_not_the_values_is_refused() {
    let src = r#"func.func @main(%a: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.add %a, %a : tensor<4x8xf32>
  return %0 : tensor<4x4xf32>
}"#;
    let e = err(src);
    assert!(
        e.contains("3:10")
            && e.contains(
                "operand 1 of `return` is declared `tensor<4x4xf32>`, but %0 is `tensor<4x8xf32>`"
            ),
        "{e}"
    );
}

/// The output's entry points are the input's: a private helper that is still called stays
/// private, one nothing calls any more (as after unrolling or inlining) is left out instead of
/// being printed `public`.
#[test]
fn private_functions_stay_private_and_dead_ones_go() {
    let src = r#"func.func public @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @used(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @used(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.exponential %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @dead(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}"#;
    let (p, source) = ptir_mlir::import_with(src, &ptir_mlir::ImportOptions::default()).unwrap();
    let options = ptir_mlir::ExportOptions {
        source: Some(&source),
        ..ptir_mlir::ExportOptions::default()
    };
    let out = ptir_mlir::export(&p, &options).unwrap();
    assert!(out.contains("func.func public @main("), "{out}");
    assert!(out.contains("func.func private @used("), "{out}");
    assert!(!out.contains("@dead"), "{out}");
}

/// `jnp.dot(bool, bool)` is refused with a message that says what to do, not "needs equal
/// numeric dtypes" for two equal dtypes.
#[test]
fn a_bool_dot_is_refused_with_what_to_do() {
    let src = r#"func.func @main(%a: tensor<4x4xi1>, %b: tensor<4x4xi1>) -> tensor<4x4xi1> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x4xi1>, tensor<4x4xi1>) -> tensor<4x4xi1>
  return %0 : tensor<4x4xi1>
}"#;
    let e = err(src);
    assert!(
        e.contains("2:") && e.contains("of bool operands") && e.contains("astype(jnp.int32)"),
        "{e}"
    );
}

/// JAX's `argmax` and `argsort` of a mask (`jnp.argmax(x > 0)`: the first true) compare bools
/// `UNSIGNED`, `false < true`; the IR's order ops take numbers, so the bools are ordered as
/// `u8` 0/1 and given back as bools. Ties (every false, every true) keep the first index.
#[test]
fn argmax_and_argsort_of_bools_order_false_before_true() {
    let src = r#"func.func @main(%m: tensor<3x4xi1>) -> (tensor<3xi32>, tensor<3x4xi32>) {
  %0 = stablehlo.iota dim = 1 : tensor<3x4xi32>
  %c = stablehlo.constant dense<false> : tensor<i1>
  %c_0 = stablehlo.constant dense<0> : tensor<i32>
  %1:2 = stablehlo.reduce(%m init: %c), (%0 init: %c_0) across dimensions = [1] : (tensor<3x4xi1>, tensor<3x4xi32>, tensor<i1>, tensor<i32>) -> (tensor<3xi1>, tensor<3xi32>)
   reducer(%a: tensor<i1>, %b: tensor<i1>) (%ai: tensor<i32>, %bi: tensor<i32>)  {
    %2 = stablehlo.compare GT, %a, %b, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %3 = stablehlo.compare NE, %a, %a, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %4 = stablehlo.or %2, %3 : tensor<i1>
    %5 = stablehlo.compare EQ, %a, %b, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %6 = stablehlo.compare LT, %ai, %bi, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.and %5, %6 : tensor<i1>
    %8 = stablehlo.or %4, %7 : tensor<i1>
    %9 = stablehlo.select %4, %a, %b : tensor<i1>, tensor<i1>
    %10 = stablehlo.select %8, %ai, %bi : tensor<i1>, tensor<i32>
    stablehlo.return %9, %10 : tensor<i1>, tensor<i32>
  }
  %11:2 = "stablehlo.sort"(%m, %0) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%p: tensor<i1>, %q: tensor<i1>, %r: tensor<i32>, %s: tensor<i32>):
    %12 = stablehlo.compare LT, %p, %q, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    stablehlo.return %12 : tensor<i1>
  }) : (tensor<3x4xi1>, tensor<3x4xi32>) -> (tensor<3x4xi1>, tensor<3x4xi32>)
  return %1#1, %11#1 : tensor<3xi32>, tensor<3x4xi32>
}"#;
    let mask = t(
        DType::Bool,
        &[3, 4],
        &[0., 1., 0., 1., 0., 0., 0., 0., 1., 1., 1., 1.],
    );
    assert_eq!(
        run(src, &[mask]),
        "i32[3] [1, 0, 0]; i32[3,4] [0, 2, 1, 3, 0, 1, 2, 3, 0, 1, 2, 3]"
    );
}
