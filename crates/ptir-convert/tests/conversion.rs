//! The conversion driver on whole programs: modes, rollback, the bundled targets checked by
//! the interpreter, and pattern sets that never finish.

use ptir_convert::{
    apply_conversion, default_patterns, ConversionError, ConversionMode, ConversionPattern,
    ConversionReport, ConversionTarget, Legality, RewriteContext,
};
use ptir_ir::generate::random_inputs;
use ptir_ir::{parse, Instruction, OpKey, Program, UnaryOp, Value};
use std::sync::Arc;

fn run(p: &Program, inputs: &[Value]) -> Vec<Value> {
    ptir_test_support::interpreter(p)
        .run("f", inputs)
        .unwrap_or_else(|e| panic!("{e}\n{p}"))
}

/// `before` converted in full for the bundled target `name` with the default patterns.
fn convert_bundled(before: &Program, name: &str) -> (Program, ConversionReport) {
    let mut after = before.clone();
    let target = ConversionTarget::bundled(name).unwrap();
    let patterns = default_patterns();
    let report = apply_conversion(&mut after, &target, &patterns, ConversionMode::Full)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    (after, report)
}

/// Checks that `after` computes what `before` computes on a few random inputs.
fn same_results(before: &Program, after: &Program) {
    let f = before.function("f").unwrap();
    for seed in 0..4 {
        let inputs = random_inputs(f, seed);
        assert_eq!(run(before, &inputs), run(after, &inputs), "{after}");
    }
}

const FUSED: &str = "extern @softmax_fused(f32[2,4]) -> (f32[2,4]) pure
extern @moments(f32[2,4]) -> ((f32[2], f32[2])) pure
extern @gelu_fused(f32[2,4]) -> (f32[2,4]) pure
func @f(%x: f32[2,4]) -> (f32[2,4], f32[2]) {
  %s = call @softmax_fused(%x) : f32[2,4]
  %g = call @gelu_fused(%s) : f32[2,4]
  %m = call @moments(%g) : (f32[2], f32[2])
  %q = tuple_get %m index=1 : f32[2]
  return %g, %q
}";

#[test]
fn portable_expands_every_fused_call_and_keeps_the_results() {
    let before = parse(FUSED).unwrap();
    let (after, report) = convert_bundled(&before, "portable");
    assert_eq!(report.rewrites["expand-fused-call"], 3);
    let mut calls = 0;
    after.functions[0]
        .body
        .walk(&mut |i, _| calls += (i.op.key() == OpKey::Call) as usize);
    assert_eq!(calls, 0, "{after}");
    assert!(after.externs.is_empty(), "{after}");
    same_results(&before, &after);
}

#[test]
fn a_failed_full_conversion_changes_nothing_and_names_every_illegal_op() {
    let text =
        "func @f(%x: f32[4]) -> (f32[4]) {\n  %a = exp %x : f32[4]\n  %b = neg %a : f32[4]\n  \
                %c = exp %b : f32[4]\n  return %c\n}";
    let before = parse(text).unwrap();
    let mut p = before.clone();
    let target =
        ConversionTarget::parse("t", "target no-exp\nlegal-ops *\nillegal-ops exp\n").unwrap();
    let err =
        apply_conversion(&mut p, &target, &default_patterns(), ConversionMode::Full).unwrap_err();
    assert_eq!(p, before, "rollback");
    let ConversionError::Illegal { ops, .. } = &err else {
        panic!("{err}");
    };
    let names: Vec<&str> = ops.iter().map(|o| o.instruction.as_str()).collect();
    assert_eq!(
        names,
        ["%1 = exp %0 : f32[4]", "%3 = exp %2 : f32[4]"],
        "{err}"
    );
    assert!(
        err.to_string()
            .contains("@f: `%1 = exp %0 : f32[4]` is illegal"),
        "{err}"
    );
}

#[test]
fn partial_conversion_keeps_unknown_ops_and_full_conversion_rejects_them() {
    let before = parse(FUSED).unwrap();
    // Only tuple_get and call are named; everything the expansions produce is unknown.
    let target = ConversionTarget::parse(
        "t",
        "target calls-only\nlegal-ops call tuple_get\nillegal-calls softmax_fused\n",
    )
    .unwrap();
    let mut partial = before.clone();
    let report = apply_conversion(
        &mut partial,
        &target,
        &default_patterns(),
        ConversionMode::Partial,
    )
    .unwrap();
    assert_eq!(report.rewrites["expand-fused-call"], 1);
    same_results(&before, &partial);
    let mut full = before.clone();
    let err = apply_conversion(
        &mut full,
        &target,
        &default_patterns(),
        ConversionMode::Full,
    );
    assert!(err.is_err());
    assert_eq!(full, before);
}

#[test]
fn analysis_changes_nothing_and_reports_what_cannot_be_legalized() {
    let before = parse(FUSED).unwrap();
    let mut p = before.clone();
    let target =
        ConversionTarget::parse("t", "target t\nlegal-ops *\nillegal-ops rng tuple_get\n").unwrap();
    let report = apply_conversion(
        &mut p,
        &target,
        &default_patterns(),
        ConversionMode::Analysis,
    )
    .unwrap();
    assert_eq!(p, before);
    assert_eq!(report.not_legalized.len(), 1);
    assert_eq!(report.not_legalized[0].legality, Legality::Illegal);
}

#[test]
fn f32_target_computes_bf16_arithmetic_in_f32_with_the_same_results() {
    let text = "func @f(%x: bf16[8], %y: bf16[8]) -> (bf16[8], bool[8]) {
  %a = add %x, %y : bf16[8]
  %m = mul %a, %x : bf16[8]
  %d = div %m, %y : bf16[8]
  %s = sqrt %d : bf16[8]
  %c = lt %s, %x : bool[8]
  %r = reshape %s : bf16[2,4]
  %b = reshape %r : bf16[8]
  return %b, %c
}";
    let before = parse(text).unwrap();
    let (after, _) = convert_bundled(&before, "f32");
    let mut bf16_arith = 0;
    after.functions[0].body.walk(&mut |i, _| {
        let arith = !matches!(i.op.key(), OpKey::Cast | OpKey::Reshape);
        let bf16 = i.ty.to_string().starts_with("bf16");
        bf16_arith += (arith && bf16) as usize;
    });
    assert_eq!(bf16_arith, 0, "{after}");
    same_results(&before, &after);
}

/// A pattern that replaces `exp` by `exp`: never legal.
struct Cycle;

impl ConversionPattern for Cycle {
    fn name(&self) -> &str {
        "cycle"
    }
    fn root(&self) -> Option<OpKey> {
        Some(OpKey::Unary(UnaryOp::Exp))
    }
    fn rewrite(
        &self,
        inst: &Instruction,
        _cx: &mut RewriteContext<'_>,
    ) -> Result<Option<Vec<Instruction>>, String> {
        Ok(Some(vec![inst.clone()]))
    }
}

#[test]
fn a_cycling_pattern_set_fails_at_the_depth_limit() {
    let before =
        parse("func @f(%x: f32[4]) -> (f32[4]) {\n  %a = exp %x : f32[4]\n  return %a\n}").unwrap();
    let mut p = before.clone();
    let target = ConversionTarget::new("t")
        .legal_all_ops()
        .illegal_op(OpKey::Unary(UnaryOp::Exp));
    let patterns: Vec<Box<dyn ConversionPattern>> = vec![Box::new(Cycle)];
    let err = apply_conversion(&mut p, &target, &patterns, ConversionMode::Full).unwrap_err();
    assert!(err.to_string().contains("nested rewrites"), "{err}");
    assert_eq!(p, before);
}

#[test]
fn dynamic_legality_decides_for_its_op_kind() {
    let text =
        "func @f(%x: f32[4], %y: f32[64]) -> (f32[4], f32[64]) {\n  %a = exp %x : f32[4]\n  \
                %b = exp %y : f32[64]\n  return %a, %b\n}";
    let p = parse(text).unwrap();
    // exp is legal only on small tensors.
    let target = ConversionTarget::new("small-exp")
        .legal_all_ops()
        .add_dynamic(
            Some(OpKey::Unary(UnaryOp::Exp)),
            Arc::new(|i: &Instruction, _: &[&ptir_ir::Type]| {
                Some(i.ty.as_tensor().is_some_and(|t| t.num_elements() <= 8))
            }),
        );
    let mut q = p.clone();
    let report = apply_conversion(
        &mut q,
        &target,
        &default_patterns(),
        ConversionMode::Analysis,
    )
    .unwrap();
    assert_eq!(report.not_legalized.len(), 1);
    assert!(report.not_legalized[0].instruction.contains("f32[64]"));
}

#[test]
fn a_users_own_function_named_like_a_fused_extern_is_not_expanded() {
    let text = "func @linear(%x: f32[4]) -> (f32[4]) {\n  %z = constant splat(0) : f32[4]\n  \
                %r = max %x, %z : f32[4]\n  return %r\n}\n\
                func @f(%x: f32[4]) -> (f32[4]) {\n  %y = call @linear(%x) : f32[4]\n  return %y\n}";
    let before = parse(text).unwrap();
    let (after, _) = convert_bundled(&before, "portable");
    assert_eq!(after, before);
}
