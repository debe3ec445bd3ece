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
