//! Lower → saturate → extract → lift on every corpus program: the output verifies and computes
//! what the input computes.

use ptir_egraph::{EngineOptions, ExtractorKind};
use ptir_ir::{generate::random_inputs, Program};
use ptir_rules::RuleSet;
use std::path::Path;

fn corpus() -> Vec<(String, Program)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let mut out = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ptir"))
        .collect();
    paths.sort();
    for p in paths {
        let text = std::fs::read_to_string(&p).unwrap();
        out.push((
            p.file_name().unwrap().to_string_lossy().into_owned(),
            ptir_ir::parse(&text).unwrap(),
        ));
    }
    out
}

/// Runs `program`'s last function with an extern for `@log_event`.
fn run(program: &Program, seed: u64) -> Vec<ptir_ir::Value> {
    let f = program.functions.last().unwrap();
    let mut interp = ptir_ir::Interpreter::new(program)
        .with_seed(seed)
        .with_extern("log_event", |a: &[ptir_ir::Value], _| Ok(a[0].clone()));
    for (name, ext) in ptir_rules::externs::interpreter_externs() {
        interp = interp.with_extern_fn(name, ext);
    }
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
