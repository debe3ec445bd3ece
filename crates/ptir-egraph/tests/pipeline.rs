//! Lower → saturate → extract → lift on every corpus program: the output verifies and computes
//! what the input computes.

use ptir_egraph::{EngineOptions, ExtractorKind};
use ptir_ir::{generate::random_inputs, Program};
use ptir_rules::RuleSet;
use ptir_test_support::{corpus_programs as corpus, interpreter};

/// Runs `program`'s last function on seeded inputs.
fn run(program: &Program, seed: u64) -> Vec<ptir_ir::Value> {
    let f = program.functions.last().unwrap();
    let interp = interpreter(program).with_seed(seed);
    interp.run(&f.name, &random_inputs(f, seed)).unwrap()
}

fn optimize(program: &Program, rules: &RuleSet) -> Program {
    let (out, _) = ptir_egraph::optimize(program, rules, &EngineOptions::default()).unwrap();
    out
}

#[test]
fn corpus_round_trips_through_the_egraph() {
    // Raising rules call fused externs, which need their reference implementations to run.
    let filter = ptir_rules::RuleFilter {
        enabled: vec![],
        disabled: vec!["raising".into(), "fast-math".into()],
    };
    let rules = RuleSet::bundled().unwrap().filtered(&filter);
    for (name, program) in corpus() {
        let out = optimize(&program, &rules);
        if let Err(e) = ptir_ir::verify(&out) {
            panic!("{name}: lifted program does not verify: {e}\n{out}");
        }
        assert_eq!(run(&out, 3), run(&program, 3), "{name}:\n{out}");
    }
}

/// Correctness never depends on extraction choosing well: under random costs (chaos), every
/// extractor's output still verifies and computes what the input computes; and every
/// extractor runs on every corpus program.
#[test]
fn corpus_survives_chaos_and_every_extractor() {
    let rules = RuleSet::bundled()
        .unwrap()
        .filtered(&ptir_rules::RuleFilter::exact());
    let mut kinds: Vec<ExtractorKind> = ExtractorKind::ALL.to_vec();
    kinds.extend((0..4).map(ExtractorKind::Chaos));
    for (name, program) in corpus() {
        for kind in &kinds {
            let options = EngineOptions {
                extractor: *kind,
                ..EngineOptions::default()
            };
            let (out, _) = ptir_egraph::optimize(&program, &rules, &options)
                .unwrap_or_else(|e| panic!("{name} {kind:?}: {e}"));
            assert_eq!(
                run(&out, 7),
                run(&program, 7),
                "{name} with {kind:?}:\n{out}"
            );
        }
    }
}
