//! CSE, DCE and the default pipeline: regions, impure ops, and a differential property test
//! (the pipeline's output verifies and computes what its input computes) on generated
//! programs.

mod common;

use common::{body, interpret, parse, same_results};
use ptir_greedy::{default_pipeline, Canonicalize, CanonicalizeStats, Cse, Dce, GreedyConfig};
use ptir_ir::generate::{generate, random_inputs, GenConfig, ENTRY};
use ptir_pass::{Pass, PassManager};
use ptir_rules::RuleFilter;

fn after(pass: &dyn Pass, text: &str) -> Vec<String> {
    let mut p = parse(text);
    pass.run(&mut p).unwrap();
    ptir_ir::verify(&p).unwrap();
    body(&p)
}

#[test]
fn cse_reuses_an_outer_value_in_a_region_but_never_shares_between_branches() {
    let text = "func @f(%0: f32[2], %9: bool[]) -> (f32[2], f32[2]) {
  %1 = exp %0 : f32[2]
  %2 = cond %9 : f32[2] {
    %3 = exp %0 : f32[2]
    %4 = tanh %0 : f32[2]
    %5 = add %3, %4 : f32[2]
    yield %5
  } {
    %6 = tanh %0 : f32[2]
    yield %6
  }
  %7 = tanh %0 : f32[2]
  %8 = add %2, %7 : f32[2]
  return %8, %1
}";
    let out = after(&Cse, text);
    assert_eq!(
        out,
        [
            "%1 = exp %0 : f32[2]",
            "%2 = cond %9 : f32[2] {",
            "%4 = tanh %0 : f32[2]",
            "%5 = add %1, %4 : f32[2]",
            "yield %5",
            "} {",
            "%6 = tanh %0 : f32[2]",
            "yield %6",
            "%7 = tanh %0 : f32[2]",
            "%8 = add %2, %7 : f32[2]",
            "return %8, %1",
        ]
    );
}

#[test]
fn cse_never_merges_impure_ops() {
    let text = "extern @noise(f32[2]) -> (f32[2]) impure
extern @twice(f32[2]) -> (f32[2]) pure
func @f(%0: f32[2]) -> (f32[2], f32[2], f32[2], f32[2], f32[2], f32[2]) {
  %1 = rng uniform : f32[2]
  %2 = rng uniform : f32[2]
  %3 = call @noise(%0) : f32[2]
  %4 = call @noise(%0) : f32[2]
  %5 = call @twice(%0) : f32[2]
  %6 = call @twice(%0) : f32[2]
  return %1, %2, %3, %4, %5, %6
}";
    let out = after(&Cse, text);
    assert_eq!(out.len(), 6, "{out:?}");
    assert_eq!(out.last().unwrap(), "return %1, %2, %3, %4, %5, %5");
}

#[test]
fn dce_erases_dead_pure_ops_and_regions_but_keeps_impure_ones() {
    let text = "extern @noise(f32[2]) -> (f32[2]) impure
func @f(%0: f32[2], %9: bool[]) -> (f32[2]) {
  %1 = exp %0 : f32[2]
  %2 = tanh %1 : f32[2]
  %3 = cond %9 : f32[2] {
    %4 = neg %2 : f32[2]
    yield %4
  } {
    yield %0
  }
  %5 = cond %9 : f32[2] {
    %6 = rng uniform : f32[2]
    yield %6
  } {
    yield %0
  }
  %7 = call @noise(%0) : f32[2]
  %8 = abs %0 : f32[2]
  return %8
}";
    let mut p = parse(text);
    let report = Dce.run(&mut p).unwrap();
    assert_eq!(report.erased, 3, "exp, tanh and the first cond");
    let out = body(&p);
    assert!(out.iter().any(|l| l.contains("rng")) && out.iter().any(|l| l.contains("@noise")));
    assert!(
        !out.iter().any(|l| l.contains("exp") || l.contains("neg")),
        "{out:?}"
    );
}

const RULES: &str = "
(rule mul-one (mul ?x (splat 1)) => ?x)
(rule neg-neg (neg (neg ?x)) => ?x)
(rule abs-abs (abs (abs ?x)) => (abs ?x))
(rule transpose-of-transpose
  (transpose (transpose ?x ?p) ?q) => ?x
  :when ((inverse-perm ?p ?q)))
(rule sub-neg (sub ?x (neg ?y)) => (add ?x ?y))
(rule not-not (not (not ?x)) => ?x)
(rule select-not (select (not ?p) ?a ?b) => (select ?p ?b ?a))
";

#[test]
fn the_default_pipeline_keeps_the_results_of_generated_programs() {
    let rules = ptir_test_support::rules(RULES);
    let pipeline = default_pipeline(&rules).unwrap().with_verify_each(true);
    let checked = {
        let canon = Canonicalize::with_filtered_rules(&rules, &RuleFilter::exact())
            .unwrap()
            .with_config(GreedyConfig::canonicalize().with_expensive_checks(true));
        let mut pm = PassManager::new().with_verify_each(true);
        pm.add(canon).add(Cse).add(Dce);
        pm
    };
    let (mut compared, mut shrunk) = (0, 0);
    for seed in 0..300u64 {
        let cfg = GenConfig {
            seed,
            size: 20 + (seed as usize % 5) * 10,
            ..GenConfig::default()
        };
        let input = generate(&cfg);
        let mut output = input.clone();
        let pm = if seed % 10 == 0 { &checked } else { &pipeline };
        if let Err(e) = pm.run(&mut output) {
            panic!("seed {seed}: {e}\n{}", ptir_ir::print(&input));
        }
        shrunk += usize::from(output.num_insts() < input.num_insts());
        let Some(main) = input.function(ENTRY) else {
            continue;
        };
        for run in 0..2 {
            let args = random_inputs(main, seed * 2 + run);
            compared += usize::from(same_results(&input, &output, ENTRY, &args, seed));
        }
    }
    assert!(compared > 500, "only {compared} runs compared");
    assert!(shrunk > 100, "the pipeline shrank only {shrunk} programs");
}

#[test]
fn the_pipeline_canonicalizes_the_bench_chain() {
    let rules = ptir_test_support::rules(ptir_test_support::chain::CHAIN_RULES);
    let mut p = ptir_test_support::chain::canonicalize_chain(50);
    let report = default_pipeline(&rules)
        .unwrap()
        .with_verify_each(true)
        .run(&mut p)
        .unwrap();
    assert_eq!(p.num_insts(), 10, "ten adds are left");
    let text = report.to_string();
    assert!(
        text.contains("canonicalize") && text.contains("converged"),
        "{text}"
    );
}

#[test]
fn the_default_pipeline_with_the_bundled_rules_keeps_the_results_of_generated_programs() {
    let rules = ptir_rules::RuleSet::bundled().unwrap();
    let canon = Canonicalize::with_rules(&rules)
        .unwrap()
        .with_config(GreedyConfig::canonicalize().with_expensive_checks(true));
    let mut pm = PassManager::new().with_verify_each(true);
    pm.add(canon).add(Cse).add(Dce);
    let mut applied = 0;
    for seed in 0..200u64 {
        let input = generate(&GenConfig::new(seed, 40));
        let mut output = input.clone();
        let report = pm
            .run(&mut output)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{}", ptir_ir::print(&input)));
        applied += report.passes[0]
            .stats::<CanonicalizeStats>()
            .map_or(0, |g| g.driver.total_rewrites());
        let Some(main) = input.function(ENTRY) else {
            continue;
        };
        same_results(&input, &output, ENTRY, &random_inputs(main, seed), seed);
    }
    assert!(applied > 50, "only {applied} rule applications");
}

/// The pass manager runs canonicalize, cse and dce function by function in one rewriter
/// (function passes); run one pass at a time, over the whole program each, they must give the
/// same program and the same reports, on generated programs of several functions.
#[test]
fn function_passes_run_together_give_what_they_give_one_at_a_time() {
    let rules = ptir_rules::RuleSet::bundled().unwrap();
    let together = default_pipeline(&rules).unwrap().with_verify_each(true);
    let canon = Canonicalize::with_rules(&rules).unwrap();
    let mut checked = 0;
    for seed in 0..60u64 {
        let mut input = generate(&GenConfig::extended(seed, 30, vec![]));
        // Raising rules call the rule set's externs: declare them, as the facade does.
        rules.declare_externs(&mut input);
        let mut fused = input.clone();
        let report = together
            .run(&mut fused)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let mut separate = input.clone();
        let passes: [&dyn Pass; 3] = [&canon, &Cse, &Dce];
        for (pass, fused_report) in passes.iter().zip(&report.passes) {
            let r = pass.run(&mut separate).unwrap();
            ptir_ir::verify(&separate).unwrap();
            assert_eq!(r.pass, fused_report.pass);
            assert_eq!(r.changed, fused_report.changed, "seed {seed}, {}", r.pass);
            assert_eq!(r.erased, fused_report.erased, "seed {seed}, {}", r.pass);
            assert_eq!(
                r.stats::<CanonicalizeStats>(),
                fused_report.stats::<CanonicalizeStats>(),
                "seed {seed}, {}",
                r.pass
            );
            assert_eq!(r.runs, fused_report.runs, "seed {seed}, {}", r.pass);
        }
        assert_eq!(
            ptir_ir::print(&fused),
            ptir_ir::print(&separate),
            "seed {seed}:\n{}",
            ptir_ir::print(&input)
        );
        checked += usize::from(input.functions.len() > 1);
    }
    assert!(
        checked > 30,
        "only {checked} programs with several functions"
    );
}

#[test]
fn constants_move_to_the_right_of_commutative_ops_so_cse_merges_commuted_duplicates() {
    // MLIR's fold of commutative ops: `c * x` becomes `x * c`; the two products are then one
    // for CSE. Non-commutative ops (`sub`) keep their order, and two constants fold instead.
    let text = "func @f(%x: f32[2]) -> (f32[2], f32[2], f32[2], f32[2]) {
  %c = constant dense([2.0, 3.0]) : f32[2]
  %a = mul %c, %x : f32[2]
  %b = mul %x, %c : f32[2]
  %s = sub %c, %x : f32[2]
  %m = max %c, %x : f32[2]
  return %a, %b, %s, %m
}";
    let mut pm = PassManager::new();
    pm.add(Canonicalize::new(ptir_greedy::PatternSet::new().freeze()))
        .add(Cse)
        .add(Dce);
    let mut p = parse(text);
    let input = p.clone();
    pm.run(&mut p).unwrap();
    ptir_ir::verify(&p).unwrap();
    assert_eq!(
        body(&p),
        [
            "%1 = constant dense([2.0, 3.0]) : f32[2]",
            "%2 = mul %0, %1 : f32[2]",
            "%4 = sub %1, %0 : f32[2]",
            "%5 = max %0, %1 : f32[2]",
            "return %2, %2, %4, %5",
        ],
        "{}",
        ptir_ir::print(&p)
    );
    let inputs = ptir_ir::generate::random_inputs(&input.functions[0], 7);
    assert_eq!(
        interpret(&input, "f", &inputs).unwrap(),
        interpret(&p, "f", &inputs).unwrap()
    );
}
