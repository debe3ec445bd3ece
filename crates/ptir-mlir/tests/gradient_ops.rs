//! `stablehlo.pad`, `stablehlo.reverse` and `stablehlo.select_and_scatter` as JAX prints them
//! in a conv net's gradient (pretty `pad`/`reverse`, generic `select_and_scatter` with its
//! two regions) and in the generic forms `mlir-opt --mlir-print-op-generic` prints:
//! hand-computed results in the interpreter, export and import back to the same program, and
//! the located refusals of the select and scatter regions PTIR does not have.

use ptir_ir::{DType, Op, SelectKind};
use ptir_mlir::ImportOptions;

mod common;
use common::{err, run, t};

/// `pad` and `reverse` in the pretty form JAX prints and in the generic form.
const LAYOUT: [&str; 2] = [
    "func.func @main(%x: tensor<2x3xf32>, %v: tensor<f32>) -> (tensor<4x4xf32>, tensor<2x3xf32>) {
  %0 = stablehlo.pad %x, %v, low = [1, -1], high = [0, 0], interior = [1, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x4xf32>
  %1 = stablehlo.reverse %x, dims = [0, 1] : tensor<2x3xf32>
  return %0, %1 : tensor<4x4xf32>, tensor<2x3xf32>
}",
    "func.func @main(%x: tensor<2x3xf32>, %v: tensor<f32>) -> (tensor<4x4xf32>, tensor<2x3xf32>) {
  %0 = \"stablehlo.pad\"(%x, %v) <{edge_padding_high = array<i64: 0, 0>, edge_padding_low = array<i64: 1, -1>, interior_padding = array<i64: 1, 1>}> : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x4xf32>
  %1 = \"stablehlo.reverse\"(%x) <{dimensions = array<i64: 0, 1>}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<4x4xf32>, tensor<2x3xf32>
}",
];

#[test]
fn pretty_and_generic_pad_and_reverse_are_one_program() {
    let x = t(DType::F32, &[2, 3], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let v = t(DType::F32, &[], &[9.0]);
    let mut programs = Vec::new();
    for src in LAYOUT {
        let (p, out) = run(src, &[x.clone(), v.clone()]);
        // Rows: padding, x0, a hole, x1; columns 1 _ 2 _ 3 cropped by one before.
        assert_eq!(
            out,
            "f32[4,4] [9.0, 9.0, 9.0, 9.0, 9.0, 2.0, 9.0, 3.0, 9.0, 9.0, 9.0, 9.0, 9.0, 5.0, 9.0, 6.0]; \
             f32[2,3] [6.0, 5.0, 4.0, 3.0, 2.0, 1.0]"
        );
        programs.push(p);
    }
    assert_eq!(programs[0], programs[1]);
}

/// JAX's max pooling gradient (`GE` select, `add` scatter), 2x2 windows, stride 2, padded.
const SCATTER: &str = "func.func @main(%x: tensor<3x4xf32>, %s: tensor<2x2xf32>) -> tensor<3x4xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = \"stablehlo.select_and_scatter\"(%x, %s, %cst) <{padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare  GE, %a, %b,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<3x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}";

#[test]
fn max_pooling_gradient_selects_the_first_maximum_and_never_the_padding() {
    // Windows: rows 0-1 (cols 0-1, 2-3) and row 2 with a padded row (cols 0-1, 2-3).
    let x = t(
        DType::F32,
        &[3, 4],
        &[
            1.0, 7.0, 2.0, 2.0, 7.0, 0.0, 2.0, 2.0, -5.0, -6.0, -8.0, -7.0,
        ],
    );
    let s = t(DType::F32, &[2, 2], &[10.0, 20.0, 30.0, 40.0]);
    let (p, out) = run(SCATTER, &[x.clone(), s.clone()]);
    assert_eq!(
        out,
        "f32[3,4] [0.0, 10.0, 20.0, 0.0, 0.0, 0.0, 0.0, 0.0, 30.0, 0.0, 0.0, 40.0]"
    );
    let ops: Vec<&Op> = p.functions[0].body.insts.iter().map(|i| &i.op).collect();
    assert!(
        ops.iter().any(|op| matches!(
            op,
            Op::SelectAndScatter {
                select: SelectKind::Ge,
                ..
            }
        )),
        "{ops:?}"
    );
    // The compare written with its operands swapped is the mirrored direction: `b <= a`.
    let swapped = SCATTER.replace("GE, %a, %b", "LE, %b, %a");
    let (q, out2) = run(&swapped, &[x, s]);
    assert_eq!((q, out2), (p, out));
}

#[test]
fn other_select_and_scatter_regions_are_located_refusals_that_allow_opaque_keeps() {
    let eq = SCATTER.replace("GE, %a, %b", "EQ, %a, %b");
    assert_eq!(
        err(&eq),
        "3:8: unsupported `stablehlo.select_and_scatter` select region other than one \
         GE/GT/LE/LT compare (--allow-opaque keeps it as an opaque call)"
    );
    let product = SCATTER.replace(
        "%1 = stablehlo.add %a, %b : tensor<f32>",
        "%1 = stablehlo.multiply %a, %b : tensor<f32>",
    );
    assert_eq!(
        err(&product),
        "3:8: unsupported `stablehlo.select_and_scatter` scatter region other than one add \
         (--allow-opaque keeps it as an opaque call)"
    );
    for src in [eq, product] {
        let kept = ptir_mlir::import_with(&src, &ImportOptions { allow_opaque: true });
        let (p, info) = kept.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(info.opaque.len(), 1);
        assert!(ptir_ir::verify(&p).is_ok());
    }
    // A source of the wrong shape is a type error at the op.
    let bad = SCATTER
        .replace("%s: tensor<2x2xf32>", "%s: tensor<2x3xf32>")
        .replace(
            "(tensor<3x4xf32>, tensor<2x2xf32>, tensor<f32>)",
            "(tensor<3x4xf32>, tensor<2x3xf32>, tensor<f32>)",
        );
    let e = err(&bad);
    assert!(
        e.starts_with("3:8: ") && e.contains("one element per window"),
        "{e}"
    );
    // Padding that crops more than the operand holds, at the op.
    let crop = LAYOUT[0].replace("low = [1, -1]", "low = [1, -9]");
    let e = err(&crop);
    assert!(e.starts_with("2:8: ") && e.contains("crops more"), "{e}");
}
