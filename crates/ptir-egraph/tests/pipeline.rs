//! Lower → saturate → extract → lift on every corpus program: the output verifies and computes
//! what the input computes.

use egg::{AstSize, Extractor, Id};
use ptir_egraph::{lift, lower, saturate, Limits, PtirNode};
use ptir_ir::{generate::random_inputs, Program};
use ptir_rules::RuleSet;
use std::path::Path;

fn corpus() -> Vec<(String, Program)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let mut out = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
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
    ptir_ir::Interpreter::new(program)
        .with_seed(seed)
        .with_extern("log_event", |a: &[ptir_ir::Value], _| Ok(a[0].clone()))
        .run(&f.name, &random_inputs(f, seed))
        .unwrap()
}

fn optimize(program: &Program, rules: &RuleSet) -> Program {
    let name = program.functions.last().unwrap().name.clone();
    let mut lowered = lower(program, &name).unwrap();
    let report = saturate(&mut lowered, rules, &Limits::default());
    assert!(report.rule_errors.is_empty(), "{report}");
    let ex = Extractor::new(&lowered.egraph, AstSize);
    let choose = |c: Id| -> PtirNode { ex.find_best_node(c).clone() };
    let f = lift(&lowered, &choose).unwrap();
    let mut out = program.clone();
    let i = out.functions.len() - 1;
    out.functions[i] = f;
    out
}

#[test]
fn corpus_round_trips_through_the_egraph() {
    let rules = RuleSet::bundled().unwrap();
    for (name, program) in corpus() {
        let out = optimize(&program, &rules);
        if let Err(e) = ptir_ir::verify(&out) {
            panic!("{name}: lifted program does not verify: {e}\n{out}");
        }
        assert_eq!(run(&out, 3), run(&program, 3), "{name}:\n{out}");
    }
}
