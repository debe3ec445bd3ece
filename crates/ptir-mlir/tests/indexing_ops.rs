//! `stablehlo.gather` and `stablehlo.scatter` in the forms JAX prints them (generic, as
//! `jnp.take`, `x[:, ids]`, `jnp.take_along_axis` and `.at[].add/set/max/min/multiply` emit):
//! hand-computed results in the interpreter with clamped gather starts (index vectors explicit
//! or implicit), skipped scatter
//! updates and batching dims; export and import back to the same program; and the located
//! refusal of an update region PTIR does not have, which `--allow-opaque` keeps.

mod common;

use common::{err, run, t};
use ptir_ir::{DType, Op, OpKey, Program, ScatterKind, Value};
use ptir_mlir::ImportOptions;

fn i32s(shape: &[usize], xs: &[i64]) -> Value {
    let xs: Vec<f64> = xs.iter().map(|&x| x as f64).collect();
    t(DType::I32, shape, &xs)
}

fn keys(p: &Program) -> Vec<OpKey> {
    p.functions[0]
        .body
        .insts
        .iter()
        .map(|i| i.op.key())
        .collect()
}

/// `jnp.take(x, i, axis=0)`, `x[:, i]` and `jnp.take_along_axis(x, j, axis=1)`.
const GATHERS: &str = "func.func @main(%x: tensor<3x4xf32>, %i: tensor<2x1xi32>, %j: tensor<3x2x1xi32>) -> (tensor<2x4xf32>, tensor<3x2xf32>, tensor<3x2xf32>) {
  %0 = \"stablehlo.gather\"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
  %1 = \"stablehlo.gather\"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 3, 1>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<3x2xf32>
  %2 = \"stablehlo.gather\"(%x, %j) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<3x4xf32>, tensor<3x2x1xi32>) -> tensor<3x2xf32>
  return %0, %1, %2 : tensor<2x4xf32>, tensor<3x2xf32>, tensor<3x2xf32>
}";

#[test]
fn gathers_clamp_their_start_indices_and_batch_along_axis() {
    // x[r, c] = 4r + c.
    let xs: Vec<f64> = (0..12).map(f64::from).collect();
    let x = t(DType::F32, &[3, 4], &xs);
    // Rows (or columns) -1 and 1: -1 is clamped to 0.
    let i = i32s(&[2, 1], &[-1, 1]);
    // Row 0 takes columns 3 and 7 (clamped to 3), row 1 columns 0 and -2 (clamped to 0).
    let j = i32s(&[3, 2, 1], &[3, 7, 0, -2, 1, 2]);
    let (p, out) = run(GATHERS, &[x, i, j]);
    assert_eq!(
        out,
        "f32[2,4] [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]; \
         f32[3,2] [0.0, 1.0, 4.0, 5.0, 8.0, 9.0]; \
         f32[3,2] [3.0, 3.0, 4.0, 4.0, 9.0, 10.0]"
    );
    // One op for every form.
    let ks = keys(&p);
    assert_eq!(
        ks.iter().filter(|k| **k == OpKey::Gather).count(),
        3,
        "{ks:?}"
    );
}

/// `x.at[i].add(u)` on rows, then `.at[k].set(row)` (JAX's sorted, unique single index,
/// without `index_vector_dim`), then the gradient of `take_along_axis` (batching dims).
const SCATTERS: &str = "func.func @main(%x: tensor<3x2xf32>, %i: tensor<4x1xi32>, %u: tensor<4x2xf32>, %k: tensor<1xi32>, %row: tensor<2xf32>, %j: tensor<3x1x1xi32>, %v: tensor<3x1xf32>) -> (tensor<3x2xf32>, tensor<3x2xf32>) {
  %0 = \"stablehlo.scatter\"(%x, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<3x2xf32>, tensor<4x1xi32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  %1 = \"stablehlo.scatter\"(%0, %k, %row) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>, unique_indices = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<3x2xf32>, tensor<1xi32>, tensor<2xf32>) -> tensor<3x2xf32>
  %2 = \"stablehlo.scatter\"(%x, %j, %v) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<3x2xf32>, tensor<3x1x1xi32>, tensor<3x1xf32>) -> tensor<3x2xf32>
  return %1, %2 : tensor<3x2xf32>, tensor<3x2xf32>
}";

fn scatter_inputs() -> Vec<Value> {
    vec![
        t(DType::F32, &[3, 2], &[0.5; 6]),
        // Row 3 is out of bounds: skipped.
        i32s(&[4, 1], &[0, 2, 3, 0]),
        t(
            DType::F32,
            &[4, 2],
            &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
        ),
        i32s(&[1], &[1]),
        t(DType::F32, &[2], &[9.0, -9.0]),
        // Columns 1, 0 and 2 (out of bounds: skipped) of rows 0, 1, 2.
        i32s(&[3, 1, 1], &[1, 0, 2]),
        t(DType::F32, &[3, 1], &[10.0, 20.0, 30.0]),
    ]
}

#[test]
fn implicit_index_vectors_clamp_too() {
    // `jnp.take` with `index_vector_dim = 1` on `[2]` ids: each id is one start index.
    let src = GATHERS
        .replace("%i: tensor<2x1xi32>", "%i: tensor<2xi32>")
        .replace(
            "(tensor<3x4xf32>, tensor<2x1xi32>)",
            "(tensor<3x4xf32>, tensor<2xi32>)",
        );
    let xs: Vec<f64> = (0..12).map(f64::from).collect();
    let x = t(DType::F32, &[3, 4], &xs);
    let j = i32s(&[3, 2, 1], &[3, 7, 0, -2, 1, 2]);
    let (p, out) = run(&src, &[x, i32s(&[2], &[-1, 1]), j]);
    assert!(
        out.starts_with("f32[2,4] [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]; "),
        "{out}"
    );
    assert_eq!(keys(&p)[0], OpKey::Gather);
}

#[test]
fn scatters_add_set_and_skip_updates_out_of_bounds() {
    let (p, out) = run(SCATTERS, &scatter_inputs());
    // Row 0 gets (1, 2) + (7, 8); row 2 gets (3, 4); (5, 6) at row 3 is skipped; row 1 is set.
    assert_eq!(
        out,
        "f32[3,2] [8.5, 10.5, 9.0, -9.0, 3.5, 4.5]; \
         f32[3,2] [0.5, 10.5, 20.5, 0.5, 0.5, 0.5]"
    );
    let ks = keys(&p);
    assert!(ks.contains(&OpKey::Scatter(ScatterKind::Set)), "{ks:?}");
    assert_eq!(
        ks.iter()
            .filter(|k| **k == OpKey::Scatter(ScatterKind::Add))
            .count(),
        2
    );
}

/// `x.at[i].max(u)` (`.min`, `.multiply`) on a vector of integers.
const COMBINE: &str = "func.func @main(%x: tensor<4xi32>, %i: tensor<3x1xi32>, %u: tensor<3xi32>) -> tensor<4xi32> {
  %0 = \"stablehlo.scatter\"(%x, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.maximum %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<4xi32>, tensor<3x1xi32>, tensor<3xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}";

#[test]
fn max_min_and_multiply_regions_combine_colliding_updates() {
    let inputs = [
        i32s(&[4], &[5, 5, 5, 5]),
        i32s(&[3, 1], &[1, 1, -1]),
        i32s(&[3], &[7, 3, 100]),
    ];
    for (op, kind, want) in [
        ("maximum", ScatterKind::Max, "[5, 7, 5, 5]"),
        ("minimum", ScatterKind::Min, "[5, 3, 5, 5]"),
        ("multiply", ScatterKind::Mul, "[5, 105, 5, 5]"),
    ] {
        let src = COMBINE.replace("stablehlo.maximum", &format!("stablehlo.{op}"));
        let (p, out) = run(&src, &inputs);
        assert_eq!(out, format!("i32[4] {want}"), "{op}");
        assert!(keys(&p).contains(&OpKey::Scatter(kind)), "{op}");
    }
}

#[test]
fn other_update_regions_are_located_refusals_that_allow_opaque_keeps() {
    let sub = COMBINE.replace("stablehlo.maximum", "stablehlo.subtract");
    let keep_current = SCATTERS.replace("stablehlo.return %b", "stablehlo.return %a");
    for (src, at) in [(&sub, "2:8"), (&keep_current, "7:8")] {
        let e = err(src);
        assert_eq!(
            e,
            format!(
                "{at}: unsupported `stablehlo.scatter` update region other than set, add, \
                 multiply, maximum or minimum (--allow-opaque keeps it as an opaque call)"
            )
        );
        let kept = ptir_mlir::import_with(src, &ImportOptions { allow_opaque: true });
        let (p, info) = kept.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(info.opaque.len(), 1);
        assert!(ptir_ir::verify(&p).is_ok());
    }
    // Updates of the wrong shape are a type error at the op, with the reason.
    let bad = COMBINE
        .replace("%u: tensor<3xi32>", "%u: tensor<2xi32>")
        .replace(
            "tensor<3x1xi32>, tensor<3xi32>)",
            "tensor<3x1xi32>, tensor<2xi32>)",
        );
    let e = err(&bad);
    assert!(e.starts_with("2:8: ") && e.contains("batch dims"), "{e}");
}

#[test]
fn the_zoo_models_read_without_allow_opaque() {
    for name in ["embedding_xent", "scatter_add"] {
        let path = format!(
            "{}/../../corpus/zoo/{name}.mlir",
            env!("CARGO_MANIFEST_DIR")
        );
        let src = std::fs::read_to_string(&path).unwrap();
        let p = ptir_mlir::import(&src).unwrap_or_else(|e| panic!("{name}: {e}"));
        ptir_ir::verify(&p).unwrap_or_else(|e| panic!("{name}: {e}"));
        let ops: Vec<&Op> = p
            .functions
            .iter()
            .flat_map(|f| &f.body.insts)
            .map(|i| &i.op)
            .collect();
        assert!(
            ops.iter()
                .any(|op| matches!(op, Op::Gather(_) | Op::Scatter { .. })),
            "{name}"
        );
    }
}
