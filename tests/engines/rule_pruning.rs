//! Dropping the rules that cannot match a program ([`ptir::Options::prune_rules`], on by
//! default) changes no output: on every corpus program (PTIR and JAX-exported StableHLO) and
//! on generated programs with regions, calls and every op kind, both engines, by default and
//! under `--fast-math`, print the same program with the rules pruned as with all of them.

use ptir::format::{read_program, Format};
use ptir::ir::generate::{generate, GenConfig};
use ptir::{Engine, Options};
use ptir_test_support::{corpus_programs, mlir_fixtures};

/// Generated programs compared.
const GENERATED: u64 = 40;

fn output(program: &ptir::ir::Program, options: &Options, prune_rules: bool) -> String {
    let options = Options {
        prune_rules,
        ..options.clone()
    };
    match ptir::optimize(program, &options) {
        Ok(out) => ptir::ir::print(&out.program),
        Err(e) => format!("error: {e}"),
    }
}

#[test]
fn dropping_the_rules_that_cannot_match_changes_no_output() {
    let mut programs: Vec<(String, ptir::ir::Program)> = corpus_programs();
    for (name, text) in mlir_fixtures() {
        match read_program(&text, Format::Mlir) {
            Ok(p) => programs.push((name, p)),
            Err(e) => panic!("{name}: {e}"),
        }
    }
    for seed in 0..GENERATED {
        let config = GenConfig::extended(seed, 30, vec!["linear".to_string()]);
        programs.push((format!("generated seed {seed}"), generate(&config)));
    }
    // Node and iteration limits only: a run cut by the clock could differ between the two.
    let limits = ptir::Limits {
        time: std::time::Duration::from_secs(600),
        ..ptir::Limits::default()
    };
    let mut compared = 0;
    for (name, program) in &programs {
        for engine in [Engine::Saturation, Engine::Greedy] {
            for fast_math in [false, true] {
                let options = Options {
                    engine,
                    fast_math,
                    limits: limits.clone(),
                    ..Options::default()
                };
                let (all, pruned) = (
                    output(program, &options, false),
                    output(program, &options, true),
                );
                assert_eq!(pruned, all, "{name}, {engine:?}, fast-math {fast_math}");
                compared += 1;
            }
        }
    }
    eprintln!("{compared} runs compared");
}

/// The rule set really is smaller where the program cannot hold the ops the rules need: a
/// matrix chain keeps its products' rules and loses the rest, and what a kept rule builds
/// keeps the rules matching it.
#[test]
fn a_matrix_chain_keeps_only_the_rules_its_products_can_reach() {
    let mut rules = ptir::load_rules(&Options::default()).unwrap();
    let total = rules.rules().len();
    let dropped = rules.retain_applicable([ptir::ir::OpKey::DotGeneral]);
    assert!(dropped > total / 2, "{dropped} of {total} dropped");
    assert!(rules.rule("dot-assoc-int").is_some() && rules.rule("dot-assoc-rev-int").is_some());
    // Every kept rule needs only op kinds a kept rule, the engines or the program make.
    let mut made: std::collections::BTreeSet<_> = ptir::rules::ENGINE_MADE.into_iter().collect();
    made.insert(ptir::ir::OpKey::DotGeneral);
    for r in rules.rules() {
        for t in &r.result.terms {
            if let ptir::rules::Term::Op { key, .. } = t {
                made.insert(*key);
            }
        }
    }
    for r in rules.rules() {
        for t in &r.source.terms {
            if let ptir::rules::Term::Op { key, .. } = t {
                assert!(made.contains(key), "{} needs {key:?}", r.name);
            }
        }
    }
}
