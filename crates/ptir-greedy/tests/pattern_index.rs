//! The pattern index changes which rule patterns the driver tries, never what it rewrites:
//! canonicalizing with and without it gives the same program and the same rewrites, on
//! generated programs and GPT-2 blocks, with the bundled rules, call patterns and generated
//! rules that never fire (which the index keeps the driver from trying at all).

use ptir_greedy::{directed_rule_filter, Canonicalize, GreedyConfig, GreedyStats};
use ptir_ir::generate::{generate, gpt2_stack, GenConfig, Gpt2Config};
use ptir_ir::Program;
use ptir_pass::Pass;
use ptir_rules::RuleSet;
use ptir_test_support::library::non_firing_rules;

fn rules() -> RuleSet {
    let mut rules = RuleSet::bundled().expect("the bundled rules load");
    rules
        .add_source("never.rules", &non_firing_rules(200))
        .expect("the generated rules load");
    rules
        .add_source(
            "calls.rules",
            "; negating twice is the identity
             (rule neg-neg-call (neg (neg (call @helper ?x))) => (call @helper ?x))",
        )
        .expect("the call rule loads");
    rules
}

/// Canonicalizes `program` with the index on or off, folding or not (without folding, the
/// rules with splat constants, `x * 1`, fire instead); the output and the statistics.
fn canonicalize(
    rules: &RuleSet,
    program: &Program,
    index: bool,
    fold: bool,
) -> (String, GreedyStats) {
    let config = GreedyConfig::canonicalize()
        .with_pattern_index(index)
        .with_fold(fold);
    let pass = Canonicalize::with_filtered_rules(rules, &directed_rule_filter())
        .expect("the rules compile")
        .with_config(config);
    let mut p = program.clone();
    let report = pass.run(&mut p).expect("canonicalize runs");
    (
        p.to_string(),
        report
            .stats::<ptir_greedy::CanonicalizeStats>()
            .map(|s| s.driver.clone())
            .unwrap_or_default(),
    )
}

#[test]
fn canonicalize_is_the_same_with_and_without_the_index() {
    let rules = rules();
    let mut programs: Vec<Program> = (0..60)
        .map(|seed| generate(&GenConfig::new(seed, 40)))
        .collect();
    programs.push(gpt2_stack(&Gpt2Config::small(2)).expect("the stack builds"));
    let (mut tried, mut tried_indexed, mut rewrites) = (0, 0, 0);
    let runs = programs
        .iter()
        .enumerate()
        .flat_map(|p| [(p, true), (p, false)]);
    for ((i, program), fold) in runs {
        let (with, s_with) = canonicalize(&rules, program, true, fold);
        let (without, s_without) = canonicalize(&rules, program, false, fold);
        assert_eq!(with, without, "program {i}, folding {fold}");
        assert_eq!(s_with.rewrites, s_without.rewrites, "program {i}");
        assert_eq!(s_with.folds, s_without.folds, "program {i}");
        assert!(s_with.attempts <= s_without.attempts, "program {i}");
        tried += s_without.attempts;
        tried_indexed += s_with.attempts;
        rewrites += s_with.total_rewrites();
    }
    assert!(rewrites > 0, "no rule fired: the comparison shows nothing");
    // The 200 generated rules are tried at every add, mul, exp, neg, tanh and transpose
    // without the index, and nowhere with it.
    assert!(
        tried_indexed * 2 < tried,
        "{tried_indexed} attempts with the index, {tried} without"
    );
}
