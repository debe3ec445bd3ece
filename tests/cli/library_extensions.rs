//! The library's extension points through `Options`: a caller's own predicates (the rule
//! registry) for its rules, and its extern implementations for `diff` and translation
//! validation, so that a user raising rule can be checked like the bundled ones.

use ptir::ir::{Tensor, Type, Value};
use ptir::{Engine, Error, ExternImpls, Options, RuleText};

/// One add on a vector, one on a matrix: the caller's predicate tells them apart.
const PROGRAM: &str = "func @f(%x: f32[4], %y: f32[2,2]) -> (f32[4], f32[2,2]) {
  %a = add %x, %x : f32[4]
  %b = add %y, %y : f32[2,2]
  return %a, %b
}";

/// Raises `x + x` on vectors to the caller's library call `@twice` (`x + x` is `2x` exactly).
const RULES: &str = "(extern twice :pure :cost 0.5)
; x + x is 2x, which the caller's library computes on vectors
(rule raise-twice (add ?x ?x) => (call @twice ?x) :when ((rank1 ?x)))
";

fn registry() -> ptir::rules::Registry {
    let mut registry = ptir::rules::Registry::standard();
    registry.add_predicate("rank1", 1, "a rank-1 tensor", |args| {
        args[0].tensor().is_some_and(|t| t.shape.len() == 1)
    });
    registry
}

/// `@twice` computing `factor * x`: 2 is the library's, 3 a wrong one.
fn externs(factor: f64) -> ExternImpls {
    ExternImpls::new().with("twice", move |args: &[Value], _: &Type| {
        let x = args
            .first()
            .and_then(Value::as_tensor)
            .ok_or("one tensor")?;
        let out: Vec<f64> = x.to_f64_vec().iter().map(|v| factor * v).collect();
        Ok(Value::Tensor(Tensor::from_f64(x.ty.clone(), &out)))
    })
}

fn options(engine: Engine, externs: ExternImpls) -> Options {
    Options {
        engine,
        rule_texts: vec![RuleText::new("mine.rules", RULES)],
        registry: registry(),
        externs,
        // The tensor model prices a fused call below the ops it replaces.
        cost: ptir::Cost::Tensor,
        ..Options::default()
    }
}

fn program() -> ptir::ir::Program {
    ptir::ir::parse(PROGRAM).expect("the program parses")
}

#[test]
fn a_callers_predicate_guards_its_rule_in_both_engines_and_validation_runs_its_extern() {
    for engine in [Engine::Greedy, Engine::Saturation] {
        let options = Options {
            validate: Some(8),
            ..options(engine, externs(2.0))
        };
        let out = ptir::optimize(&program(), &options).unwrap_or_else(|e| panic!("{engine}: {e}"));
        let text = ptir::ir::print(&out.program);
        assert_eq!(text.matches("call @twice").count(), 1, "{engine}:\n{text}");
        assert!(text.contains("add %1, %1 : f32[2,2]"), "{engine}:\n{text}");
        let validation = out.report.validation.expect("validated");
        assert_eq!(validation.compared, 8, "{engine}");
    }
}

#[test]
fn a_rule_naming_a_predicate_the_registry_lacks_is_a_located_error() {
    let options = Options {
        registry: ptir::rules::Registry::standard(),
        ..options(Engine::Saturation, ExternImpls::new())
    };
    let err = ptir::optimize(&program(), &options).expect_err("rank1 is unknown");
    let message = err.to_string();
    assert!(message.contains("mine.rules:3:"), "{message}");
    assert!(message.contains("rank1"), "{message}");
}

#[test]
fn diff_runs_the_callers_extern_and_catches_a_wrong_one() {
    // Without an implementation the outputs cannot run: an error, not a difference.
    let err = ptir::diff(&program(), &options(Engine::Saturation, ExternImpls::new()))
        .expect_err("@twice cannot run");
    assert!(err.to_string().contains("twice"), "{err}");

    let report = ptir::diff(&program(), &options(Engine::Saturation, externs(2.0)))
        .expect("both engines run");
    assert!(report.ok(), "{report}");

    // A library whose `@twice` computes 3x: both outputs differ from the input.
    let report = ptir::diff(&program(), &options(Engine::Saturation, externs(3.0)))
        .expect("both engines run");
    assert!(!report.ok(), "{report}");
    let options = Options {
        validate: Some(4),
        ..options(Engine::Greedy, externs(3.0))
    };
    match ptir::optimize(&program(), &options) {
        Err(Error::Validation(_)) => {}
        other => panic!("expected a validation error, got {other:?}"),
    }
}
