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

/// `abs(neg x)` is `abs x`: a canonicalization pattern a user registers in Rust.
struct AbsOfNeg;
impl ptir::greedy::MatchRewritePattern<ptir::greedy::views::UnaryView> for AbsOfNeg {
    type Match = ptir::ir::ValueId;
    fn match_op(
        &self,
        op: &ptir::greedy::views::UnaryView,
        ir: &ptir::greedy::Ir,
    ) -> Result<ptir::ir::ValueId, String> {
        use ptir::ir::{Op, UnaryOp};
        let inner = ir.inst_of(op.operand).filter(|_| op.kind == UnaryOp::Abs);
        match inner.map(|i| (ir.op(i), ir.operands(i))) {
            Some((Op::Unary(UnaryOp::Neg), [x])) => Ok(*x),
            _ => Err("not an abs of a neg".into()),
        }
    }
    fn rewrite(
        &self,
        op: ptir::greedy::views::UnaryView,
        x: ptir::ir::ValueId,
        rw: &mut ptir::greedy::ProgramRewriter,
    ) {
        rw.modify_in_place(op.root, |e| e.operands[0] = x);
    }
}

#[test]
fn per_op_folders_and_canonicalization_patterns_a_user_registers_run_in_canonicalize() {
    use ptir::greedy::{Fold, Ir, OpRegistry};
    use ptir::ir::{InstId, Op, OpKey};
    let program = ptir::ir::parse(
        "extern @my_id pure

func @f(%x: f32[4]) -> (f32[4]) {
  %i = call @my_id(%x) : f32[4]
  %n = neg %i : f32[4]
  %a = abs %n : f32[4]
  return %a
}",
    )
    .unwrap();
    let mut ops = OpRegistry::new();
    ops.add_folder(OpKey::Call, |ir: &Ir, i: InstId| match ir.op(i) {
        Op::Call { callee } if callee == "my_id" => Fold::Value(ir.operands(i)[0]),
        _ => Fold::None,
    });
    ops.add_canonicalization_pattern(|| {
        ptir::greedy::MatchThenRewrite::<ptir::greedy::views::UnaryView, _>::new(AbsOfNeg)
    });
    // Without the bundled rules, whose `abs-neg` does what the pattern does.
    let options = Options {
        engine: Engine::Greedy,
        bundled_rules: false,
        ops,
        ..Options::default()
    };
    let out = ptir::optimize(&program, &options).unwrap();
    // The call folded to %x, then abs(neg x) is abs x: one op left.
    let text = ptir::ir::print(&out.program);
    assert_eq!(out.program.num_insts(), 1, "{text}");
    assert!(text.contains("= abs %0 : f32[4]"), "{text}");
    assert!(
        out.report.rules_fired.iter().any(|r| r.rule == "AbsOfNeg"),
        "{}",
        out.report
    );
    // Without the hooks, nothing of it happens.
    let plain = Options {
        engine: Engine::Greedy,
        bundled_rules: false,
        ..Options::default()
    };
    assert_eq!(
        ptir::optimize(&program, &plain)
            .unwrap()
            .program
            .num_insts(),
        3
    );
}
