//! Verification at the boundaries: a program is verified once where it is read and once
//! before it is written, whatever the engine; after each pass only with `--verify-each`
//! (`Options::verify_each`), which the report counts (`verifications` in `--report-json`).

use crate::support::{assert_user_error, ptir_opt, text};

/// `ptir-opt FILE --report-json ARGS`: the report's verification count.
fn verifications(file: &str, args: &[&str]) -> u64 {
    let mut all = vec![file, "--report-json"];
    all.extend_from_slice(args);
    let out = ptir_opt(&all, "");
    assert!(out.status.success(), "{all:?}: {}", text(&out.stderr));
    let report: serde_json::Value =
        serde_json::from_str(&text(&out.stdout)).expect("the report is JSON");
    report["verifications"]
        .as_u64()
        .unwrap_or_else(|| panic!("{all:?}: no verification count in {report}"))
}

#[test]
fn an_mlir_input_is_verified_once_read_and_once_written() {
    let mlir = "corpus/mlir/layernorm.mlir";
    assert_eq!(verifications(mlir, &[]), 2, "eqsat");
    assert_eq!(verifications(mlir, &["--engine", "greedy"]), 2, "greedy");
    let mixed = ["--pass-pipeline", "canonicalize,eqsat,cse,dce"];
    assert_eq!(verifications(mlir, &mixed), 2, "a mixed pipeline");
    assert_eq!(verifications("corpus/layernorm.ptir", &[]), 2, "PTIR text");
}

#[test]
fn verify_each_verifies_after_every_pass_or_unit_of_function_passes() {
    let mlir = "corpus/mlir/layernorm.mlir";
    assert_eq!(
        verifications(mlir, &["--verify-each"]),
        7,
        "the loop steps, eqsat, the final steps: five passes"
    );
    // canonicalize, cse and dce run function by function as one unit: verified after it.
    let greedy = ["--engine", "greedy", "--verify-each"];
    assert_eq!(
        verifications(mlir, &greedy),
        7,
        "greedy: the loop steps, one unit, the final steps"
    );
    let mixed = [
        "--pass-pipeline",
        "canonicalize,eqsat,cse,dce",
        "--verify-each",
    ];
    assert_eq!(
        verifications(mlir, &mixed),
        5,
        "canonicalize | eqsat | cse,dce"
    );
}

#[test]
fn the_library_counts_its_verifications_too() {
    let program = ptir::ir::parse(
        "func @f(%x: f32[4]) -> (f32[4]) {\n  %a = neg %x : f32[4]\n  %b = neg %a : f32[4]\n  return %b\n}",
    )
    .unwrap();
    let mut options = ptir::Options::default();
    assert_eq!(
        ptir::optimize(&program, &options)
            .unwrap()
            .report
            .verifications,
        2
    );
    options.verify_each = true;
    options.pipeline = Some("canonicalize,eqsat".into());
    assert_eq!(
        ptir::optimize(&program, &options)
            .unwrap()
            .report
            .verifications,
        4
    );
}

#[test]
fn pipeline_passes_take_options_from_the_registry() {
    let out = ptir_opt(
        &[
            "corpus/softmax.ptir",
            "--pass-pipeline",
            "canonicalize{test-convergence=true},cse",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_user_error(
        &["corpus/softmax.ptir", "--pass-pipeline", "cse{x=1}"],
        "",
        "pass `cse` at column 1: `cse` takes no options (got `x`)",
    );
    assert_user_error(
        &["corpus/softmax.ptir", "--pass-pipeline", "cse,unrol"],
        "",
        "unknown pass `unrol` at column 5 (passes: loop-patterns, loop-idioms, unroll, inline, licm, canonicalize, cse, dce, eqsat, sibling-reductions)",
    );
}
