//! The pattern index changes where saturation searches, never what it finds: with and without
//! it, every iteration applies the same rules the same number of times, bans the same rules,
//! and ends with an e-graph of the same size, on generated programs and GPT-2 blocks, with
//! the bundled rules (fast-math included), a call pattern and generated rules that never
//! fire.

use ptir_egraph::{lower, saturate, Limits, SaturationOptions, SaturationReport};
use ptir_ir::generate::{generate, gpt2_stack, GenConfig, Gpt2Config};
use ptir_ir::Program;
use ptir_rules::RuleSet;
use ptir_test_support::library::non_firing_rules;

/// What a run did, without its timings.
fn outcome(r: &SaturationReport) -> String {
    let mut out = format!("{} / {} rewrites\n", r.summary(), r.rewrites);
    for it in &r.iterations {
        out += &format!(
            "{} nodes {} classes {:?} banned {:?}\n",
            it.nodes, it.classes, it.applied, it.banned
        );
    }
    out + &format!("errors {:?}", r.rule_errors)
}

#[test]
fn saturation_is_the_same_with_and_without_the_index() {
    let mut rules = RuleSet::bundled().expect("the bundled rules load");
    rules
        .add_source("never.rules", &non_firing_rules(200))
        .expect("the generated rules load");
    let mut programs: Vec<Program> = (0..40)
        .map(|seed| generate(&GenConfig::new(seed, 30)))
        .collect();
    programs.push(gpt2_stack(&Gpt2Config::small(2)).expect("the stack builds"));
    let limits = |index: bool| SaturationOptions {
        limits: Limits {
            iterations: Some(6),
            nodes: Some(20_000),
            time: std::time::Duration::from_secs(600),
            ..Limits::default()
        },
        pattern_index: index,
        ..SaturationOptions::default()
    };
    let mut applied = 0;
    for (i, program) in programs.iter().enumerate() {
        for f in &program.functions {
            let (Ok(mut with), Ok(mut without)) =
                (lower(program, &f.name), lower(program, &f.name))
            else {
                continue;
            };
            let a = saturate(&mut with, &rules, &limits(true));
            let b = saturate(&mut without, &rules, &limits(false));
            assert_eq!(outcome(&a), outcome(&b), "program {i}, @{}", f.name);
            applied += a.rewrites;
        }
    }
    assert!(
        applied > 100,
        "only {applied} rewrites: the comparison shows little"
    );
}
