//! DRR's result-side features in both engines: auxiliary result patterns (ops built before the
//! replacement, used by it by name) and native functions that build ops.

use ptir::{Engine, Options, RuleText};

/// Optimizes `program` with only `rules`, in `engine`, validated on seeded inputs; returns the
/// output's text and the rules that fired.
fn run(program: &str, rules: &str, engine: Engine) -> (String, Vec<String>) {
    let program = ptir::ir::parse(program).expect("the program parses");
    let options = Options {
        engine,
        bundled_rules: false,
        rule_texts: vec![RuleText::new("drr.rules", rules)],
        validate: Some(8),
        ..Options::default()
    };
    let out = ptir::optimize(&program, &options).unwrap_or_else(|e| panic!("{engine}: {e}"));
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
(extern my_mean :pure :cost 100)
; @my_mean is the mean over axis 1
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
        let parsed = ptir::ir::parse(program).expect("the program parses");
        let options = Options {
            engine,
            bundled_rules: false,
            rule_texts: vec![RuleText::new("drr.rules", rules)],
            ..Options::default()
        };
        let out = ptir::optimize(&parsed, &options).unwrap_or_else(|e| panic!("{engine}: {e}"));
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
