//! `gather` and `scatter_*` on small hand-computed cases: the row gather of `jnp.take`,
//! clamped start indices, the batching dims of `jnp.take_along_axis`, scatters that add, set,
//! multiply, take the max or min, and skip updates out of bounds; typing errors; text.

use super::*;
use crate::{GatherDims, IndexDims, ScatterKind};
use DType::*;

fn iota(d: DType, shape: &[usize]) -> Value {
    let xs: Vec<f64> = (0..crate::num_elements(shape)).map(|i| i as f64).collect();
    val(d, shape, &xs)
}

/// Dimension numbers: window, collapsed, (operand, indices) batching, start map, vector dim.
fn dims(
    window: &[usize],
    collapsed: &[usize],
    batching: (&[usize], &[usize]),
    start: &[usize],
    index_vector_dim: usize,
) -> IndexDims {
    IndexDims {
        window_dims: window.to_vec(),
        collapsed_dims: collapsed.to_vec(),
        operand_batching_dims: batching.0.to_vec(),
        indices_batching_dims: batching.1.to_vec(),
        start_index_map: start.to_vec(),
        index_vector_dim,
    }
}

fn gather(d: IndexDims, slice_sizes: &[usize]) -> Op {
    Op::Gather(Box::new(GatherDims {
        dims: d,
        slice_sizes: slice_sizes.to_vec(),
    }))
}

/// The scatter of single elements along dim 0 of a vector (`x.at[ids].add(u)`'s form).
fn scatter1(kind: ScatterKind) -> Op {
    Op::Scatter {
        kind,
        dims: Box::new(dims(&[], &[0], (&[], &[]), &[0], 1)),
    }
}

#[test]
fn row_gather_clamps_start_indices() {
    // x[r, c] = 2r + c; ids 2, -1, 7 read rows 2, 0 (clamped) and 2 (clamped).
    let op = gather(dims(&[1], &[0], (&[], &[]), &[0], 1), &[1, 2]);
    let ids = i32s(&[3, 1], &[2, -1, 7]);
    let r = apply_ok(op, &[iota(F32, &[3, 2]), ids], ty(F32, &[3, 2]));
    assert_eq!(nums(&r), [4.0, 5.0, 0.0, 1.0, 4.0, 5.0]);
}

#[test]
fn a_wide_slice_is_clamped_to_fit() {
    // A slice of 3 of [0, 1, 2, 3, 4] starting at 3 starts at 5 - 3 = 2; at -4, at 0.
    let op = gather(dims(&[1], &[], (&[], &[]), &[0], 1), &[3]);
    let ids = i32s(&[2, 1], &[3, -4]);
    let r = apply_ok(op, &[iota(F32, &[5]), ids], ty(F32, &[2, 3]));
    assert_eq!(nums(&r), [2.0, 3.0, 4.0, 0.0, 1.0, 2.0]);
}

#[test]
fn take_along_axis_gathers_per_batch_row() {
    // x = [[0, 1, 2], [3, 4, 5]]; row 0 takes columns 2 and 5 (clamped to 2), row 1 columns
    // 0 and -3 (clamped to 0): what `jnp.take_along_axis(x, ids, axis=1)` emits.
    let op = gather(dims(&[], &[1], (&[0], &[0]), &[1], 2), &[1, 1]);
    let ids = i32s(&[2, 2, 1], &[2, 5, 0, -3]);
    let r = apply_ok(op, &[iota(F32, &[2, 3]), ids], ty(F32, &[2, 2]));
    assert_eq!(nums(&r), [2.0, 2.0, 3.0, 3.0]);
}

#[test]
fn scatter_add_accumulates_and_skips_out_of_bounds() {
    // ids 1, 3, 1, 4, -1 into 4 elements: 4 and -1 are out of bounds and skipped.
    let ids = i32s(&[5, 1], &[1, 3, 1, 4, -1]);
    let u = f32s(&[5], &[10.0, 20.0, 30.0, 40.0, 50.0]);
    let x = f32s(&[4], &[1.0; 4]);
    let r = apply_ok(scatter1(ScatterKind::Add), &[x, ids, u], ty(F32, &[4]));
    assert_eq!(nums(&r), [1.0, 41.0, 1.0, 21.0]);
}

#[test]
fn scatter_combines_by_kind_in_update_order() {
    let run = |kind, x: &[f64]| {
        let ids = i32s(&[3, 1], &[0, 2, 0]);
        let u = i32s(&[3], &[5, -2, 3]);
        let xs: Vec<i64> = x.iter().map(|&v| v as i64).collect();
        nums(&apply_ok(
            scatter1(kind),
            &[i32s(&[3], &xs), ids, u],
            ty(I32, &[3]),
        ))
    };
    assert_eq!(run(ScatterKind::Set, &[1.0, 1.0, 1.0]), [3.0, 1.0, -2.0]);
    assert_eq!(run(ScatterKind::Mul, &[2.0, 2.0, 2.0]), [30.0, 2.0, -4.0]);
    assert_eq!(run(ScatterKind::Max, &[4.0, 4.0, 4.0]), [5.0, 4.0, 4.0]);
    assert_eq!(run(ScatterKind::Min, &[4.0, 4.0, 4.0]), [3.0, 4.0, -2.0]);
}

#[test]
fn scatter_of_a_row_skips_only_the_elements_out_of_bounds() {
    // `x.at[1].set(row)`: the start index is a scalar vector (index_vector_dim 0, one
    // index), the row is the window. A window of 2 at 2 of a vector of 3 writes its first
    // element only (StableHLO checks each update element).
    let row = Op::Scatter {
        kind: ScatterKind::Set,
        dims: Box::new(dims(&[0], &[0], (&[], &[]), &[0], 0)),
    };
    let u = f32s(&[2], &[7.0, 8.0]);
    let r = apply_ok(
        row,
        &[f32s(&[3, 2], &[0.0; 6]), i32s(&[1], &[1]), u.clone()],
        ty(F32, &[3, 2]),
    );
    assert_eq!(nums(&r), [0.0, 0.0, 7.0, 8.0, 0.0, 0.0]);
    let edge = Op::Scatter {
        kind: ScatterKind::Set,
        dims: Box::new(dims(&[0], &[], (&[], &[]), &[0], 0)),
    };
    let r = apply_ok(
        edge,
        &[f32s(&[3], &[0.0; 3]), i32s(&[1], &[2]), u],
        ty(F32, &[3]),
    );
    assert_eq!(nums(&r), [0.0, 0.0, 7.0]);
}

#[test]
fn batched_scatter_adds_per_batch_row() {
    // The transpose of take_along_axis: row 0 adds 1 at column 2, row 1 adds 2 at column 0.
    let op = Op::Scatter {
        kind: ScatterKind::Add,
        dims: Box::new(dims(&[], &[1], (&[0], &[0]), &[1], 2)),
    };
    let ids = i32s(&[2, 1, 1], &[2, 0]);
    let u = f32s(&[2, 1], &[1.0, 2.0]);
    let r = apply_ok(op, &[f32s(&[2, 3], &[0.0; 6]), ids, u], ty(F32, &[2, 3]));
    assert_eq!(nums(&r), [0.0, 0.0, 1.0, 2.0, 0.0, 0.0]);
}

fn type_error(op: Op, args: &[Type]) -> String {
    let args: Vec<&Type> = args.iter().collect();
    crate::infer_type(&op, &args, &crate::InferContext::default()).expect_err("a type error")
}

#[test]
fn typing_errors_name_the_broken_rule() {
    let row = || gather(dims(&[1], &[0], (&[], &[]), &[0], 1), &[1, 2]);
    let e = type_error(row(), &[ty(F32, &[3, 2]), ty(F32, &[3, 1])]);
    assert!(e.contains("must be integers"), "{e}");
    let e = type_error(row(), &[ty(F32, &[3, 2]), ty(I32, &[3, 2])]);
    assert!(e.contains("start index map"), "{e}");
    let wide = gather(dims(&[1], &[0], (&[], &[]), &[0], 1), &[2, 2]);
    let e = type_error(wide, &[ty(F32, &[3, 2]), ty(I32, &[3, 1])]);
    assert!(e.contains("collapsed or batching dim 0"), "{e}");
    let e = type_error(
        scatter1(ScatterKind::Add),
        &[ty(Bool, &[4]), ty(I32, &[2, 1]), ty(Bool, &[2])],
    );
    assert!(e.contains("not defined on bool"), "{e}");
    let e = type_error(
        scatter1(ScatterKind::Add),
        &[ty(F32, &[4]), ty(I32, &[2, 1]), ty(F32, &[3])],
    );
    assert!(e.contains("batch dims"), "{e}");
}

#[test]
fn gather_and_scatter_round_trip_through_text() {
    let src = "func @f(%x: f32[2,3], %i: i32[2,2,1], %u: f32[2,2]) -> (f32[2,2], f32[2,3]) {
  %g = gather %x, %i window_dims=[] collapsed_dims=[1] operand_batching_dims=[0] indices_batching_dims=[0] start_index_map=[1] index_vector_dim=2 slice_sizes=[1,1] : f32[2,2]
  %s = scatter_max %x, %i, %u window_dims=[] collapsed_dims=[1] operand_batching_dims=[0] indices_batching_dims=[0] start_index_map=[1] index_vector_dim=2 : f32[2,3]
  return %g, %s
}";
    let p = crate::parse(src).expect("parses");
    let text = crate::print(&p);
    assert_eq!(crate::print(&crate::parse(&text).expect("reparses")), text);
    assert!(text.contains("scatter_max"), "{text}");
}
