//! Source-written patterns with named dimensions (seed 004): one `.pat` idiom written
//! at `f32[?m,?n]` fires at several shapes in both engines, and only where the constants agree
//! with the bound dimensions.

use crate::support::{ptir_opt, text};
use ptir::{Engine, Options};
use std::path::PathBuf;

/// The generic layer normalization idiom (`?m`, `?n`, and the constant `splat(?n)`).
fn layernorm_pat() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/layernorm_generic.pat")
}

/// corpus/layernorm.ptir at shape `f32[m,n]`, dividing by the constant `count`.
fn layernorm(m: usize, n: usize, count: f64) -> String {
    format!(
        "func @layernorm(%x: f32[{m},{n}], %gamma: f32[{n}], %beta: f32[{n}]) -> (f32[{m},{n}]) {{
  %n = constant splat({count:?}) : f32[{m}]
  %eps = constant splat(1e-5) : f32[{m}]
  %sum = reduce_sum %x axes=[1] keep_dims=false : f32[{m}]
  %mean = div %sum, %n : f32[{m}]
  %meanb = broadcast %mean dims=[0] : f32[{m},{n}]
  %d = sub %x, %meanb : f32[{m},{n}]
  %d2 = mul %d, %d : f32[{m},{n}]
  %ss = reduce_sum %d2 axes=[1] keep_dims=false : f32[{m}]
  %var = div %ss, %n : f32[{m}]
  %ve = add %var, %eps : f32[{m}]
  %r = rsqrt %ve : f32[{m}]
  %rb = broadcast %r dims=[0] : f32[{m},{n}]
  %xn = mul %d, %rb : f32[{m},{n}]
  %gb = broadcast %gamma dims=[1] : f32[{m},{n}]
  %bb = broadcast %beta dims=[1] : f32[{m},{n}]
  %xg = mul %xn, %gb : f32[{m},{n}]
  %y = add %xg, %bb : f32[{m},{n}]
  return %y
}}
"
    )
}

/// The rules that fired when `program` is optimized with only the generic pattern loaded.
fn fired(program: &str, engine: Engine) -> Vec<String> {
    let input = ptir::ir::parse(program).expect("the test program parses");
    let options = Options {
        engine,
        bundled_rules: false,
        rule_files: vec![layernorm_pat()],
        // The tensor model prices a fused call below the ops it replaces.
        cost: ptir::Cost::Tensor,
        ..Options::default()
    };
    let out = ptir::optimize(&input, &options).expect("optimizes");
    out.report.rules_fired.into_iter().map(|r| r.rule).collect()
}

#[test]
fn named_dims_fire_at_two_shapes_in_both_engines() {
    for engine in [Engine::Greedy, Engine::Saturation] {
        for (m, n) in [(4, 8), (2, 16), (3, 5)] {
            let rules = fired(&layernorm(m, n, n as f64), engine);
            assert!(
                rules.contains(&"layernorm".to_string()),
                "{engine} at f32[{m},{n}]: {rules:?}"
            );
        }
    }
}

#[test]
fn a_constant_that_is_not_the_bound_dim_does_not_fire() {
    for engine in [Engine::Greedy, Engine::Saturation] {
        // divides rows of 16 by 8: not a mean, so not a layer normalization
        let rules = fired(&layernorm(2, 16, 8.0), engine);
        assert!(
            !rules.contains(&"layernorm".to_string()),
            "{engine}: {rules:?}"
        );
    }
}

#[test]
fn report_json_names_the_generic_rule() {
    let pat = layernorm_pat();
    for shape in [(4, 8), (2, 16)] {
        let out = ptir_opt(
            &[
                "-",
                "--no-bundled-rules",
                "--rules",
                pat.to_str().unwrap(),
                "--report-json",
            ],
            &layernorm(shape.0, shape.1, shape.1 as f64),
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let report: serde_json::Value =
            serde_json::from_str(&text(&out.stdout)).expect("the report is JSON");
        assert!(
            report["rules_fired"].to_string().contains("\"layernorm\""),
            "{shape:?}: {report}"
        );
    }
}

/// A program with the `x * x + x` idiom of tests/fixtures/my_fused.pat, and a use after it.
const SQUARE_PLUS: &str = "func @f(%x: f32[4]) -> (f32[4]) {
  %s = mul %x, %x : f32[4]
  %y = add %s, %x : f32[4]
  %z = exp %y : f32[4]
  return %z
}
";

#[test]
fn an_injected_definition_makes_the_output_self_contained() {
    let input = ptir::ir::parse(SQUARE_PLUS).expect("parses");
    let x = ptir::ir::Tensor::from_f64(
        ptir::ir::TensorType::new(ptir::ir::DType::F32, vec![4]),
        &[0.5, -1.0, 2.0, 0.0],
    );
    let want = ptir::ir::run(&input, "f", &[x.clone().into()]).expect("the input runs");
    let pat = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/my_fused.pat");
    for engine in [Engine::Greedy, Engine::Saturation] {
        let options = Options {
            engine,
            bundled_rules: false,
            rule_files: vec![pat.clone()],
            // The tensor model prices a fused call below the ops it replaces.
            cost: ptir::Cost::Tensor,
            ..Options::default()
        };
        let out = ptir::optimize(&input, &options).expect("optimizes");
        let printed = ptir::ir::print(&out.program);
        assert!(
            out.report
                .rules_fired
                .iter()
                .any(|r| r.rule == "square-plus"),
            "{engine}: {:?}",
            out.report.rules_fired
        );
        assert!(printed.contains("func @my_fused("), "{engine}:\n{printed}");
        assert!(
            !printed.contains("extern @my_fused"),
            "{engine}:\n{printed}"
        );
        assert!(printed.contains("call @my_fused("), "{engine}:\n{printed}");
        // the plain interpreter, with no extern registered
        let got = ptir::ir::run(&out.program, "f", &[x.clone().into()]).expect("the output runs");
        assert_eq!(got, want, "{engine}:\n{printed}");
    }
}
