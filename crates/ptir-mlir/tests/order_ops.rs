//! `stablehlo.reduce` of two operands with JAX's `argmax`/`argmin` reducer (pretty
//! `reducer(...) (...) {...}` as JAX prints it, and generic), `stablehlo.sort` with JAX's
//! canonicalizing comparator, a plain `TOTALORDER` one, an integer one and several keys
//! (`jnp.lexsort`), and `chlo.top_k`:
//! hand-computed results in the interpreter (ties, NaN, signed zeros, infinities), export and
//! import back to the same program, and the located refusals of regions PTIR does not have.

use ptir_ir::{DType, Program, Value};
use ptir_mlir::ImportOptions;

mod common;
use common::t;

/// [`common::run`], and the program's PTIR text parses back to it.
fn run(src: &str, inputs: &[Value]) -> (Program, String) {
    let (p, out) = common::run(src, inputs);
    let text = ptir_ir::print(&p);
    assert_eq!(
        ptir_ir::parse(&text).as_ref(),
        Ok(&p),
        "text round trip of\n{text}"
    );
    (p, out)
}

/// JAX's argmax reducer (`%a`/`%b` the values, `%ai`/`%bi` the indices), direction `dir`.
fn arg_body(dir: &str) -> String {
    format!(
        "  %2 = stablehlo.compare {dir}, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %ai, %bi, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %a, %b : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %ai, %bi : tensor<i1>, tensor<i32>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i32>"
    )
}

/// `jnp.argmax` as JAX prints it (pretty) and `jnp.argmin` in the generic form.
fn arg_src(max: bool) -> String {
    let (dir, init) = if max {
        ("GT", "0xFF800000")
    } else {
        ("LT", "0x7F800000")
    };
    let head = format!(
        "func.func @main(%x: tensor<2x4xf32>) -> (tensor<2xf32>, tensor<2xi32>) {{
  %0 = stablehlo.iota dim = 1 : tensor<2x4xi32>
  %cst = stablehlo.constant dense<{init}> : tensor<f32>
  %c = stablehlo.constant dense<0> : tensor<i32>
"
    );
    let reduce = if max {
        format!("  %1:2 = stablehlo.reduce(%x init: %cst), (%0 init: %c) across dimensions = [1] : (tensor<2x4xf32>, tensor<2x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>)  {{
    {}
    }}
", arg_body(dir))
    } else {
        format!("  %1:2 = \"stablehlo.reduce\"(%x, %0, %cst, %c) <{{dimensions = array<i64: 1>}}> ({{
    ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    {}
    }}) : (tensor<2x4xf32>, tensor<2x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
", arg_body(dir))
    };
    format!("{head}{reduce}  return %1#0, %1#1 : tensor<2xf32>, tensor<2xi32>\n}}")
}

#[test]
fn argmax_and_argmin_pick_the_first_extremum_and_the_first_nan() {
    let nan = f64::NAN;
    // Row 0: a tie of maxima (3 at 1 and 2), a tie of minima (1 at 0 and 3).
    // Row 1: NaNs at 1 and 3: both reductions stop at the first NaN.
    let x = t(
        DType::F32,
        &[2, 4],
        &[1.0, 3.0, 3.0, 1.0, 2.0, nan, 5.0, nan],
    );
    let (_, max) = run(&arg_src(true), std::slice::from_ref(&x));
    assert_eq!(max, "f32[2] [3.0, nan]; i32[2] [1, 1]");
    let (_, min) = run(&arg_src(false), &[x]);
    assert_eq!(min, "f32[2] [1.0, nan]; i32[2] [0, 1]");
}

/// A generic `stablehlo.sort` of `operands` along dim 1 with `body` as its comparator.
fn sort_src(body: &str, key: &str, stable: bool) -> String {
    format!(
        "func.func @main(%x: tensor<1x6x{key}>) -> (tensor<1x6x{key}>, tensor<1x6xi32>) {{
  %i = stablehlo.iota dim = 1 : tensor<1x6xi32>
  %0:2 = \"stablehlo.sort\"(%x, %i) <{{dimension = 1 : i64, is_stable = {stable}}}> ({{
  ^bb0(%arg1: tensor<{key}>, %arg2: tensor<{key}>, %arg3: tensor<i32>, %arg4: tensor<i32>):
{body}
  }}) : (tensor<1x6x{key}>, tensor<1x6xi32>) -> (tensor<1x6x{key}>, tensor<1x6xi32>)
  return %0#0, %0#1 : tensor<1x6x{key}>, tensor<1x6xi32>
}}"
    )
}

/// JAX's comparator of `jnp.sort`/`lax.sort` on floats: -0 and NaN canonicalized, then
/// `LT TOTALORDER`.
const JAX_LESS: &str = "    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.select %1, %cst, %arg1 : tensor<i1>, tensor<f32>
    %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %4 = stablehlo.select %3, %cst_1, %2 : tensor<i1>, tensor<f32>
    %5 = stablehlo.compare EQ, %arg2, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.select %5, %cst, %arg2 : tensor<i1>, tensor<f32>
    %7 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %8 = stablehlo.select %7, %cst_1, %6 : tensor<i1>, tensor<f32>
    %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %9 : tensor<i1>";

#[test]
fn sorts_in_jax_order_and_in_total_order_carrying_indices() {
    let (inf, nan) = (f64::INFINITY, f64::NAN);
    let x = t(DType::F32, &[1, 6], &[3.0, -0.0, nan, 0.0, -inf, 3.0]);
    // JAX's order: -0 == +0 (kept in their order), NaN last; equal 3s in their order.
    let (p, jax) = run(&sort_src(JAX_LESS, "f32", true), std::slice::from_ref(&x));
    assert_eq!(
        jax,
        "f32[1,6] [-inf, -0.0, 0.0, 3.0, 3.0, nan]; i32[1,6] [4, 1, 3, 0, 5, 2]"
    );
    assert!(ptir_ir::print(&p).contains("sort %0, %1 dim=1 stable=true : (f32[1,6], i32[1,6])"));
    // `GT TOTALORDER`: descending, +0 before -0, NaN (positive) first.
    let greater = "    %1 = stablehlo.compare GT, %arg1, %arg2, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>";
    let (_, total) = run(&sort_src(greater, "f32", false), std::slice::from_ref(&x));
    assert_eq!(
        total,
        "f32[1,6] [nan, 3.0, 3.0, 0.0, -0.0, -inf]; i32[1,6] [2, 0, 5, 3, 1, 4]"
    );
    // The arguments swapped: `b < a` is descending too.
    let swapped = greater.replace("GT, %arg1, %arg2", "LT, %arg2, %arg1");
    assert_eq!(run(&sort_src(&swapped, "f32", false), &[x]).1, total);
    // An integer key compared plainly.
    let less = "    %1 = stablehlo.compare LT, %arg1, %arg2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>";
    let k = t(DType::I32, &[1, 6], &[2.0, -1.0, 2.0, 0.0, 7.0, -1.0]);
    assert_eq!(
        run(&sort_src(less, "i32", true), &[k]).1,
        "i32[1,6] [-1, -1, 0, 2, 2, 7]; i32[1,6] [1, 5, 3, 0, 2, 4]"
    );
}

/// `jnp.lexsort((a, b))` as JAX 0.10 exports it: a private helper sorting `b`, then `a`, then
/// the indices, with a comparator on the first two (the float key canonicalized).
const JAX_LEXSORT: &str = r#"module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xi32>) -> (tensor<8xi32> {jax.result_info = "result"}) {
    %0 = call @lexsort(%arg0, %arg1) : (tensor<8xf32>, tensor<8xi32>) -> tensor<8xi32>
    return %0 : tensor<8xi32>
  }
  func.func private @lexsort(%arg0: tensor<8xf32>, %arg1: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.iota dim = 0 : tensor<8xi32>
    %1:3 = "stablehlo.sort"(%arg1, %arg0, %0) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg2: tensor<i32>, %arg3: tensor<i32>, %arg4: tensor<f32>, %arg5: tensor<f32>, %arg6: tensor<i32>, %arg7: tensor<i32>):
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %2 = stablehlo.compare EQ, %arg4, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %3 = stablehlo.select %2, %cst_0, %arg4 : tensor<i1>, tensor<f32>
      %4 = stablehlo.compare NE, %arg4, %arg4, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %5 = stablehlo.select %4, %cst_1, %3 : tensor<i1>, tensor<f32>
      %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %6 = stablehlo.compare EQ, %arg5, %cst_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %7 = stablehlo.select %6, %cst_3, %arg5 : tensor<i1>, tensor<f32>
      %8 = stablehlo.compare NE, %arg5, %arg5, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %9 = stablehlo.select %8, %cst_4, %7 : tensor<i1>, tensor<f32>
      %10 = stablehlo.compare LT, %5, %9, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %11 = stablehlo.compare LT, %arg2, %arg3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %12 = stablehlo.compare EQ, %arg2, %arg3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %13 = stablehlo.and %12, %10 : tensor<i1>
      %14 = stablehlo.or %11, %13 : tensor<i1>
      stablehlo.return %14 : tensor<i1>
    }) : (tensor<8xi32>, tensor<8xf32>, tensor<8xi32>) -> (tensor<8xi32>, tensor<8xf32>, tensor<8xi32>)
    return %1#2 : tensor<8xi32>
  }
}"#;

#[test]
fn sorts_by_several_keys_as_jax_lexsort_writes_them() {
    let nan = f64::NAN;
    let a = t(DType::F32, &[8], &[2.0, -0.0, nan, 1.0, 0.0, 5.0, 1.0, nan]);
    let b = t(DType::I32, &[8], &[1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0]);
    // By b, then by a (-0 == 0, NaN last), equal pairs by index.
    let (p, out) = run(JAX_LEXSORT, &[a, b]);
    assert_eq!(out, "i32[8] [1, 4, 5, 7, 3, 6, 0, 2]");
    assert!(ptir_ir::print(&p).contains("dim=0 keys=2 stable=true"));
    // Two keys but the second compared with `<=`, or the tie test on the wrong key: refused.
    for (from, to) in [
        ("compare LT, %5, %9", "compare LE, %5, %9"),
        ("compare EQ, %arg2, %arg3", "compare EQ, %arg6, %arg7"),
        ("stablehlo.and %12, %10", "stablehlo.or %12, %10"),
    ] {
        let src = JAX_LEXSORT.replace(from, to);
        let e = ptir_mlir::import(&src).unwrap_err().to_string();
        assert!(e.contains("lexicographically"), "{from}: {e}");
    }
    // Three keys, descending, totalOrder: the third key decides among equal pairs.
    let body = "    %1 = stablehlo.compare GT, %a0, %b0, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.compare EQ, %a0, %b0, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %3 = stablehlo.compare GT, %a1, %b1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %4 = stablehlo.compare EQ, %a1, %b1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %5 = stablehlo.compare GT, %a2, %b2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.and %4, %5 : tensor<i1>
    %7 = stablehlo.or %3, %6 : tensor<i1>
    %8 = stablehlo.and %2, %7 : tensor<i1>
    %9 = stablehlo.or %1, %8 : tensor<i1>
    stablehlo.return %9 : tensor<i1>";
    let src = format!(
        "func.func @main(%x: tensor<6xf32>, %y: tensor<6xi32>) -> tensor<6xi32> {{
  %i = stablehlo.iota dim = 0 : tensor<6xi32>
  %0:3 = \"stablehlo.sort\"(%x, %y, %i) <{{dimension = 0 : i64, is_stable = true}}> ({{
  ^bb0(%a0: tensor<f32>, %b0: tensor<f32>, %a1: tensor<i32>, %b1: tensor<i32>, %a2: tensor<i32>, %b2: tensor<i32>):
{body}
  }}) : (tensor<6xf32>, tensor<6xi32>, tensor<6xi32>) -> (tensor<6xf32>, tensor<6xi32>, tensor<6xi32>)
  return %0#2 : tensor<6xi32>
}}"
    );
    let x = t(DType::F32, &[6], &[1.0, 1.0, -0.0, 0.0, 1.0, 1.0]);
    let y = t(DType::I32, &[6], &[2.0, 3.0, 0.0, 0.0, 2.0, 3.0]);
    let (p, out) = run(&src, &[x, y]);
    assert_eq!(out, "i32[6] [5, 1, 4, 0, 3, 2]");
    assert!(ptir_ir::print(&p).contains("keys=3 descending=true stable=true total_order=true"));
}

/// A sort by 40 float keys in JAX's order (`jnp.lexsort` of 40 arrays): its comparator, whose
/// expression grows with every key, is still read as one (it was refused as unsupported).
#[test]
fn a_sort_by_forty_float_keys_is_read_back() {
    let n = 40;
    let params: Vec<String> = (0..n).map(|i| format!("%{i}: f32[3]")).collect();
    let args: Vec<String> = (0..n).map(|i| format!("%{i}")).collect();
    let types = vec!["f32[3]"; n].join(", ");
    let text = format!(
        "func @main({}) -> (f32[3]) {{\n  %{n} = sort {} dim=0 keys={n} stable=true : ({types})\n  %{} = tuple_get %{n} index=0 : f32[3]\n  return %{}\n}}\n",
        params.join(", "),
        args.join(", "),
        n + 1,
        n + 1
    );
    let p = ptir_ir::parse(&text).expect("parses");
    let mlir = ptir_mlir::export(&p, &ptir_mlir::ExportOptions::default()).expect("exports");
    let back = ptir_mlir::import(&mlir).expect("imports");
    assert!(ptir_ir::print(&back).contains(&format!("keys={n} stable=true")));
}

#[test]
fn top_k_takes_the_greatest_in_total_order_first_index_first() {
    let inf = f64::INFINITY;
    let src = "func.func @main(%x: tensor<2x5xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %values, %indices = chlo.top_k(%x, k = 3) : tensor<2x5xf32> -> (tensor<2x3xf32>, tensor<2x3xi32>)
  return %values, %indices : tensor<2x3xf32>, tensor<2x3xi32>
}";
    let x = t(
        DType::F32,
        &[2, 5],
        &[1.0, 5.0, 3.0, 5.0, 2.0, -0.0, 0.0, -1.0, inf, -inf],
    );
    let (_, out) = run(src, std::slice::from_ref(&x));
    assert_eq!(
        out,
        "f32[2,3] [5.0, 5.0, 3.0, inf, 0.0, -0.0]; i32[2,3] [1, 3, 2, 3, 1, 0]"
    );
    let generic = "func.func @main(%x: tensor<2x5xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %0:2 = \"chlo.top_k\"(%x) <{k = 3 : i64}> : (tensor<2x5xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  return %0#0, %0#1 : tensor<2x3xf32>, tensor<2x3xi32>
}";
    assert_eq!(run(generic, &[x]).1, out);
}

#[test]
fn other_reducers_and_comparators_are_located_refusals_that_allow_opaque_keeps() {
    let plain_less = "    %1 = stablehlo.compare LT, %arg1, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>";
    let by_index = "    %1 = stablehlo.compare LT, %arg3, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>";
    let first_max = arg_src(true).replace("LT, %ai, %bi", "GT, %ai, %bi");
    for (src, line, what) in [
        (
            sort_src(plain_less, "f32", true),
            3,
            "`stablehlo.sort` with a comparator",
        ),
        (
            sort_src(by_index, "f32", true),
            3,
            "`stablehlo.sort` with a comparator",
        ),
        (
            first_max,
            5,
            "`stablehlo.reduce` of several operands with a body",
        ),
    ] {
        let e = ptir_mlir::import(&src).unwrap_err().to_string();
        assert!(e.starts_with(&format!("{line}:")), "{e}");
        assert!(e.contains(what) && e.contains("--allow-opaque"), "{e}");
        let (p, info) = ptir_mlir::import_with(&src, &ImportOptions { allow_opaque: true })
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(info.opaque.len(), 1, "{}", ptir_ir::print(&p));
    }
}

/// A sort comparator whose integer compare has the other signedness than its keys (an
/// `UNSIGNED` compare of `i32`s orders -1 last) is refused, not read as the keys' own order;
/// the natural ones (`SIGNED` of `i32`, `UNSIGNED` of `ui32`) are read.
#[test]
fn a_sort_comparator_of_the_other_signedness_is_refused() {
    let module = |dtype: &str, kind: &str| {
        format!(
            "func.func @main(%a: tensor<4x{dtype}>) -> tensor<4x{dtype}> {{\n  %0 = \"stablehlo.sort\"(%a) ({{\n  ^bb0(%x: tensor<{dtype}>, %y: tensor<{dtype}>):\n    %c = stablehlo.compare LT, %x, %y, {kind} : (tensor<{dtype}>, tensor<{dtype}>) -> tensor<i1>\n    stablehlo.return %c : tensor<i1>\n  }}) {{dimension = 0 : i64, is_stable = true}} : (tensor<4x{dtype}>) -> tensor<4x{dtype}>\n  return %0 : tensor<4x{dtype}>\n}}"
        )
    };
    for (dtype, kind, read) in [
        ("i32", "SIGNED", true),
        ("ui32", "UNSIGNED", true),
        ("i32", "UNSIGNED", false),
        ("ui32", "SIGNED", false),
    ] {
        let got = ptir_mlir::import(&module(dtype, kind));
        assert_eq!(got.is_ok(), read, "{dtype} {kind}: {:?}", got.err());
        if let Err(e) = got {
            assert!(
                e.to_string()
                    .starts_with("2:8: unsupported `stablehlo.sort`"),
                "{e}"
            );
        }
    }
}
