//! `stablehlo.convolution` and `stablehlo.reduce_window` as JAX prints them: the pretty
//! convolution (`dim_numbers = ..., window = {...}`), the generic forms `mlir-opt
//! --mlir-print-op-generic` prints, `raw` dimension numbers; hand-computed results in the
//! interpreter, export and import back to the same program, and the located refusals.

mod common;

use common::{err, run, t};
use ptir_ir::{DType, Op};
use ptir_mlir::ImportOptions;

const SIG: &str = "(%x: tensor<1x2x2x1xf32>, %k: tensor<2x2x1x1xf32>) -> tensor<1x3x3x1xf32>";
const TYPES: &str = "(tensor<1x2x2x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x3x3x1xf32>";

/// A `SAME`-padded NHWC/HWIO convolution in JAX's pretty form, and in two generic forms.
fn convolutions() -> [String; 3] {
    let module = |op: &str| {
        format!(
            "func.func @main{SIG} {{\n  %0 = {op} : {TYPES}\n  return %0 : tensor<1x3x3x1xf32>\n}}"
        )
    };
    [
        module(
            "stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], \
             window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], \
             reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, \
             precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}",
        ),
        module(
            "\"stablehlo.convolution\"(%x, %k) <{batch_group_count = 1 : i64, dimension_numbers = \
             #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, \
             lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, precision_config = \
             [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, \
             window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}>",
        ),
        module(
            "\"stablehlo.convolution\"(%x, %k) <{batch_group_count = 1 : i64, dimension_numbers = \
             #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, \
             input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, \
             kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], \
             output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, \
             feature_group_count = 1 : i64, padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>}>",
        ),
    ]
}

#[test]
fn pretty_generic_and_raw_convolutions_are_one_program() {
    let x = t(DType::F32, &[1, 2, 2, 1], &[1.0, 2.0, 3.0, 4.0]);
    let k = t(DType::F32, &[2, 2, 1, 1], &[1.0; 4]);
    let mut programs = Vec::new();
    for src in convolutions() {
        let (p, out) = run(&src, &[x.clone(), k.clone()]);
        assert_eq!(
            out,
            "f32[1,3,3,1] [1.0, 3.0, 2.0, 4.0, 10.0, 6.0, 3.0, 7.0, 4.0]"
        );
        programs.push(p);
    }
    assert_eq!(programs[0], programs[1]);
    assert_eq!(programs[0], programs[2]);
    let text = ptir_ir::print(&programs[0]);
    assert!(
        text.contains("convolution %0, %1 input=[0,3,1,2] kernel=[3,2,0,1] output=[0,3,1,2] pad_low=[1,1] pad_high=[1,1] : f32[1,3,3,1]"),
        "{text}"
    );
}

#[test]
fn grouped_strided_dilated_and_mixed_precision_convolutions() {
    // Depthwise (two feature groups), stride 2, rhs dilation 2, one dim reversed, bf16
    // operands accumulated in f32 (`preferred_element_type`).
    let src = "func.func @main(%x: tensor<1x2x7xbf16>, %k: tensor<2x1x2xbf16>) -> tensor<1x2x2xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [2], pad = [[0, -1]], rhs_dilate = [2], reverse = [true]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x2x7xbf16>, tensor<2x1x2xbf16>) -> tensor<1x2x2xf32>
  return %0 : tensor<1x2x2xf32>
}";
    let x = t(
        DType::BF16,
        &[1, 2, 7],
        &[
            1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
        ],
    );
    let k = t(DType::BF16, &[2, 1, 2], &[1.0, 10.0, 2.0, 3.0]);
    // Feature 0 over x[0..6] (cropped by one): windows (x0, x2) and (x2, x4), kernel
    // reversed (10, 1): 10*1 + 3 = 13, 10*3 + 5 = 35. Feature 1 by (3, 2) on ones: 5, 5.
    let (p, out) = run(src, &[x, k]);
    assert_eq!(out, "f32[1,2,2] [13.0, 35.0, 5.0, 5.0]");
    let conv = &p.functions[0].body.insts[0].op;
    assert!(matches!(conv, Op::Convolution(c) if c.result_dtype == Some(DType::F32)));
}

const POOLS: &str = r#"func.func @main(%x: tensor<4x4xf32>, %v: tensor<3xf32>, %n: tensor<4xi64>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2xf32>, tensor<4xi64>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %inf = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %z64 = stablehlo.constant dense<0> : tensor<i64>
  %0 = "stablehlo.reduce_window"(%x, %ninf) <{base_dilations = array<i64: 1, 1>, padding = dense<0> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<2x2xf32>
  %1 = "stablehlo.reduce_window"(%x, %zero) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<2x2xf32>
  %2 = "stablehlo.reduce_window"(%v, %inf) <{window_dimensions = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.minimum %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<3xf32>, tensor<f32>) -> tensor<2xf32>
  %3 = "stablehlo.reduce_window"(%n, %z64) <{base_dilations = array<i64: 1>, padding = dense<[[3, 0]]> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 4>, window_strides = array<i64: 1>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %r = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %r : tensor<i64>
  }) : (tensor<4xi64>, tensor<i64>) -> tensor<4xi64>
  return %0, %1, %2, %3 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2xf32>, tensor<4xi64>
}"#;

#[test]
fn max_average_min_pooling_and_cumulative_sums() {
    let x = t(
        DType::F32,
        &[4, 4],
        &(0..16).map(f64::from).collect::<Vec<_>>(),
    );
    let v = t(DType::F32, &[3], &[3.0, -0.0, 2.0]);
    let n = t(DType::I64, &[4], &[1.0, 2.0, 3.0, 4.0]);
    let (p, out) = run(POOLS, &[x, v, n]);
    assert_eq!(
        out,
        "f32[2,2] [5.0, 7.0, 13.0, 15.0]; f32[2,2] [10.0, 18.0, 42.0, 50.0]; \
         f32[2] [-0.0, -0.0]; i64[4] [1, 3, 6, 10]"
    );
    let text = ptir_ir::print(&p);
    assert!(text.contains("reduce_window_max"), "{text}");
    assert!(
        text.contains("window=[4] pad_low=[3] pad_high=[0]"),
        "{text}"
    );
}

#[test]
fn unsupported_windows_are_located_refusals_that_allow_opaque_keeps() {
    // A difference of a window's elements is no reduction (not associative).
    let difference = POOLS.replace(
        "%r = stablehlo.add %a, %b : tensor<f32>",
        "%r = stablehlo.subtract %a, %b : tensor<f32>",
    );
    assert_eq!(
        err(&difference),
        "11:8: unsupported `stablehlo.reduce_window` with body `stablehlo.subtract` on f32 \
         (--allow-opaque keeps it as an opaque call)"
    );
    let kept = ptir_mlir::import_with(&difference, &ImportOptions { allow_opaque: true });
    let (p, info) = kept.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(info.opaque.len(), 1);
    assert!(ptir_ir::verify(&p).is_ok());
    // A label twice, or a kernel whose features do not fit the input, at the op.
    let [pretty, ..] = convolutions();
    let twice = pretty.replace("[b, 0, 1, f]x", "[b, 0, 0, f]x");
    let e = err(&twice);
    assert!(
        e.starts_with("2:8: ") && e.contains("`0` is not one of b, f"),
        "{e}"
    );
    let groups = pretty.replace("feature_group_count = 1", "feature_group_count = 2");
    let e = err(&groups);
    assert!(
        e.starts_with("2:8: ") && e.contains("input features"),
        "{e}"
    );
    let field = pretty.replace("lhs_dilate", "lhs_dilation");
    let e = err(&field);
    assert!(
        e.contains("unknown convolution window field `lhs_dilation`"),
        "{e}"
    );
}
