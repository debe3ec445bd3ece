//! DRR's result-side features in both engines: auxiliary result patterns (ops built before the
//! replacement, used by it by name) and native functions that build ops.

use crate::support::{only_rules, optimize_text};
use ptir::{Engine, Options};

/// Optimizes `program` with only `rules`, in `engine`, validated on seeded inputs; returns the
/// output's text and the rules that fired.
fn run(program: &str, rules: &str, engine: Engine) -> (String, Vec<String>) {
    let out = optimize_text(program, &only_rules("drr.rules", rules, engine, 8));
    let fired = out
        .report
        .rules_fired
        .iter()
        .map(|r| r.rule.clone())
        .collect();
    (ptir::ir::print(&out.program), fired)
}

const NEG_SQUARE: &str = "func @f(%x: f32[4], %y: f32[4]) -> (f32[4]) {
  %a = neg %x : f32[4]
  %b = mul %a, %a : f32[4]
  %c = add %b, %y : f32[4]
  return %c
}
";

#[test]
fn auxiliary_results_are_built_and_used_by_the_replacement_in_both_engines() {
    let rules = "\
; (-x)(-x) is x x bit for bit (rounding is symmetric in sign), so the sum is x x + y
(rule my-neg-square-add
  (add (mul (neg ?x) (neg ?x)) ?y)
  => ?m:(mul ?x ?x) (add ?m ?y))
";
    for engine in [Engine::Greedy, Engine::Saturation] {
        let (text, fired) = run(NEG_SQUARE, rules, engine);
        assert_eq!(fired, ["my-neg-square-add"], "{engine}");
        assert!(!text.contains("neg"), "{engine}:\n{text}");
        assert!(text.contains("mul %0, %0"), "{engine}:\n{text}");
    }
}

#[test]
fn native_builders_build_ops_in_both_engines() {
    // A library call lowered to the ops of its definition by the `mean` builder: three ops
    // (reduce_sum, the count, div) that the result does not spell out.
    let program = "extern @my_mean pure
func @f(%x: f32[2,4]) -> (f32[2]) {
  %m = call @my_mean(%x) : f32[2]
  %n = neg %m : f32[2]
  return %n
}
";
    let rules = "\
(extern my_mean :pure :cost 1000)
; @my_mean is the mean over axis 1 (a slow library kernel: 1,000 FLOPs per result, where
; the reduction it lowers to costs 28 per element summed)
(rule lower-my-mean (call @my_mean ?x) => (mean ?x (1)))
";
    let expected = ptir::ir::parse(
        "func @f(%x: f32[2,4]) -> (f32[2]) {
  %s = reduce_sum %x axes=[1] keep_dims=false : f32[2]
  %c = constant splat(4.0) : f32[2]
  %m = div %s, %c : f32[2]
  %n = neg %m : f32[2]
  return %n
}
",
    )
    .expect("the expected program parses");
    for engine in [Engine::Greedy, Engine::Saturation] {
        let options = Options {
            validate: None,
            ..only_rules("drr.rules", rules, engine, 8)
        };
        let out = optimize_text(program, &options);
        let text = ptir::ir::print(&out.program);
        assert_eq!(out.report.fired("lower-my-mean"), 1, "{engine}");
        assert!(!text.contains("call"), "{engine}:\n{text}");
        // It computes the mean: the output runs like the expected program.
        let f = &out.program.functions[0];
        for seed in 0..4 {
            let inputs = ptir::ir::generate::try_random_inputs(f, seed).expect("inputs");
            let got = ptir::interpreter(&out.program)
                .run("f", &inputs)
                .expect("runs");
            let want = ptir::interpreter(&expected)
                .run("f", &inputs)
                .expect("runs");
            assert_eq!(got, want, "{engine}, seed {seed}");
        }
    }
}

const SUM_AND_SQUARES: &str = "func @f(%x: f32[3,4]) -> (f32[3], f32[3]) {
  %s = reduce_sum %x axes=[1] keep_dims=false : f32[3]
  %x2 = mul %x, %x : f32[3,4]
  %q = reduce_sum %x2 axes=[1] keep_dims=false : f32[3]
  return %s, %q
}
";

/// `=> (results T)` replaces root i by result i of the one op `T` (an extern with several
/// results), in both engines: the same rule as its `tuple_get` spelling, which it stands for.
#[test]
fn one_op_with_several_results_replaces_several_roots_in_both_engines() {
    let rule = |result: &str| {
        format!(
            "(extern moments :pure :cost 2)\n\
             (rule my-moments\n  \
               (roots (reduce_sum ?x (1) false) (reduce_sum (mul ?x ?x) (1) false))\n  \
               => {result})\n"
        )
    };
    let short = rule("(results ?m:(call @moments ?x))");
    let spelled = rule("(tuple_get ?m:(call @moments ?x) 0) (tuple_get ?m 1)");
    let parse = |text: &str| {
        let mut set = ptir::rules::RuleSet::new(ptir::rules::Registry::standard());
        set.add_source("r.rules", text).unwrap();
        set.rules()[0].clone()
    };
    assert_eq!(parse(&short).result, parse(&spelled).result);
    let unnamed = rule("(results (call @moments ?x))");
    for engine in [Engine::Greedy, Engine::Saturation] {
        // Priced by the rule file's extern cost (the roofline prices a call by its body,
        // the same two reductions, and keeps them).
        let options = Options {
            cost: ptir::Cost::Tensor,
            ..only_rules("r.rules", &unnamed, engine, 8)
        };
        let out = optimize_text(SUM_AND_SQUARES, &options);
        let text = ptir::ir::print(&out.program);
        let fired: Vec<&str> = out
            .report
            .rules_fired
            .iter()
            .map(|r| r.rule.as_str())
            .collect();
        assert_eq!(fired, ["my-moments"], "{engine}");
        assert_eq!(
            text.matches("call @moments").count(),
            1,
            "{engine}:\n{text}"
        );
        assert!(!text.contains("reduce_sum"), "{engine}:\n{text}");
    }
    // `results` takes exactly one op.
    let mut set = ptir::rules::RuleSet::new(ptir::rules::Registry::standard());
    for bad in [
        "(results)",
        "(results ?x)",
        "(results (call @moments ?x) (neg ?x))",
    ] {
        let err = set
            .add_source("r.rules", &rule(bad))
            .unwrap_err()
            .to_string();
        assert!(err.contains("`results` takes one op"), "{bad}: {err}");
    }
}
