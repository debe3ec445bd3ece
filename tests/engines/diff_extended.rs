//! The testers against the engines: programs of the extended generator
//! (`GenConfig::extended`: trapping and looping helpers under guards and in zero-trip loops,
//! guarded divisions, fusion idioms, user functions named like the rule externs) and the rule
//! fuzzer's accepted rules with their probe programs, all through `ptir::diff`. Inputs on which
//! the input program itself fails are skipped by `diff` (and counted); every other difference
//! is a bug. The CLI runs the same at scale: `ptir-opt diff --random N [--rule-fuzz K]`.

use ptir::ir::generate::{generate, GenConfig};
use ptir::ir::Program;
use ptir::rules::fuzz;
use ptir::{Mismatch, Options};

/// Programs per test (each diff runs both engines and the interpreter on 8 input sets).
const PROGRAMS: u64 = 40;

/// The bundled rule externs, for generated functions to be named after.
fn rule_extern_names() -> Vec<String> {
    let set = ptir::rules::RuleSet::bundled().unwrap_or_else(|e| panic!("{e}"));
    set.externs().keys().cloned().collect()
}

/// Diffs `programs` and returns every difference (cost differences apart: they are not
/// miscompiles), one line each, and the number of skipped runs.
fn differences(programs: &[(String, Program)], options: &Options) -> (Vec<String>, usize) {
    let only: Vec<Program> = programs.iter().map(|(_, p)| p.clone()).collect();
    let mut bad = Vec::new();
    let mut skipped = 0;
    for ((label, p), r) in programs.iter().zip(ptir::diff_batch(&only, options)) {
        match r {
            Ok(r) => {
                skipped += r.skipped;
                for m in &r.mismatches {
                    if !matches!(m, Mismatch::Cost { .. }) {
                        bad.push(format!("{label}: {m}\n{p}"));
                    }
                }
            }
            Err(e) => bad.push(format!("{label}: {e}\n{p}")),
        }
    }
    (bad, skipped)
}

/// Fails listing every difference of [`differences`]; returns the number of skipped runs.
fn assert_no_differences(programs: &[(String, Program)], options: &Options) -> usize {
    let (bad, skipped) = differences(programs, options);
    assert!(
        bad.is_empty(),
        "{} difference(s):\n{}",
        bad.len(),
        bad.join("\n")
    );
    skipped
}

/// The extended generator's programs, with `tweak` applied to each config.
fn extended(seeds: std::ops::Range<u64>, tweak: impl Fn(&mut GenConfig)) -> Vec<(String, Program)> {
    let names = rule_extern_names();
    seeds
        .map(|s| {
            let mut cfg = GenConfig::extended(s, 30, names.clone());
            tweak(&mut cfg);
            (format!("seed {s}"), generate(&cfg))
        })
        .collect()
}

#[test]
fn extended_programs_compute_the_same_after_both_engines() {
    // Huge broadcasts are left to `huge_broadcasts_stay_in_their_branch` (known open).
    let programs = extended(1000..1000 + PROGRAMS, |c| c.huge_broadcast_weight = 0);
    let skipped = assert_no_differences(&programs, &Options::default());
    assert!(
        skipped > 0,
        "no input made a generated program fail: the guards are never tested"
    );
}

#[test]
fn huge_broadcasts_stay_in_their_branch() {
    let programs = extended(2000..2000 + PROGRAMS / 2, |c| c.huge_broadcast_weight = 4);
    assert_no_differences(&programs, &Options::default());
}

#[test]
fn fuzzed_rules_keep_both_engines_sound() {
    let fuzzed = fuzz::fuzz_rules(0, 40, 8);
    assert!(fuzzed.ill_formed.is_empty(), "{:?}", fuzzed.ill_formed);
    assert!(
        fuzzed.accepted.len() >= 10,
        "{} accepted",
        fuzzed.accepted.len()
    );
    let options = Options {
        rule_texts: vec![ptir::RuleText::new("fuzz.rules", fuzzed.rules_text())],
        prove_rules: false, // proven by fuzz_rules
        ..Options::default()
    };
    let mut programs = extended(3000..3000 + PROGRAMS / 4, |c| c.huge_broadcast_weight = 0);
    for r in fuzzed.accepted.iter().filter(|r| !r.cyclic) {
        for (i, p) in fuzz::probe_programs(r, 0, 2).into_iter().enumerate() {
            programs.push((format!("probe {}#{i}", r.name), p));
        }
    }
    assert_no_differences(&programs, &options);
}

#[test]
fn rules_the_proof_refuses_are_refused_on_load_with_their_location() {
    let fuzzed = fuzz::fuzz_rules(0, 40, 8);
    assert!(
        !fuzzed.rejected.is_empty(),
        "the fuzzer made no unsound rule"
    );
    for (rule, _) in fuzzed.rejected.iter().take(4) {
        let options = Options {
            rule_texts: vec![ptir::RuleText::new("mine.rules", rule.text.clone())],
            prove_rules: true,
            ..Options::default()
        };
        match ptir::load_rules(&options) {
            Err(ptir::Error::UnsoundRule {
                location,
                rule: name,
                counterexample,
            }) => {
                assert_eq!(location, "mine.rules:2");
                assert_eq!(name, rule.name);
                assert!(counterexample.contains("seed"), "{counterexample}");
            }
            other => panic!("{} was not refused: {other:?}", rule.text),
        }
    }
}

#[test]
fn an_unsound_user_rule_file_is_refused_by_the_cli() {
    let path = crate::support::scratch_file(
        "unsound",
        "unsound.rules",
        "; -0.0 + 0 is +0.0\n(rule my-add-zero (add ?x (splat 0)) => ?x)\n",
    );
    let args = ["corpus/softmax.ptir", "--prove-rules", "--rules", &path];
    let located = format!("{path}:2: rule `my-add-zero` is unsound");
    let stderr = crate::support::assert_user_error(&args, "", &located);
    assert!(stderr.contains("counterexample"), "{stderr}");
}

#[test]
fn the_cost_claim_is_held_with_the_exact_extractor() {
    // Seed 1031 (size 30): the DAG-greedy extractor misses a `moments` call that pays off
    // only when both of its results switch to it (eqsat 135 against greedy's 131); the exact
    // extractor proves 131. With the default extractor the excess is reported, not compared;
    // with the exact one it is compared, and holds.
    let programs = extended(1031..1032, |_| {});
    let program = &programs[0].1;
    let default = ptir::diff(program, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    assert!(default.ok(), "{default}");
    assert!(default.cost_unchecked.is_some());
    let exact = Options {
        extractor: ptir::egraph::ExtractorKind::Exact,
        ..Options::default()
    };
    let checked = ptir::diff(program, &exact).unwrap_or_else(|e| panic!("{e}"));
    assert!(checked.cost_unchecked.is_none());
    assert!(checked.ok(), "{checked}");
    let ptir::DiffCosts { greedy, eqsat, .. } = checked.costs;
    assert!(eqsat <= greedy, "{checked}");
}

/// Loop patterns made from generated programs' own loops (`fuzz::loop_pattern_probe`: the
/// first scan, while or cond a pattern may hold, every value it reads from outside a
/// parameter) raise that loop in both engines, and with `--outline` (the callee defined by
/// the pattern's body) the program still computes what it did, and both engines agree.
#[test]
fn loop_patterns_made_from_generated_loops_raise_them_and_keep_the_results() {
    let mut made = 0;
    for seed in 0..PROGRAMS {
        let program = generate(&GenConfig::extended(seed, 30, Vec::new()));
        let name = format!("fuzz_loop_{seed}");
        let Some(pat) = fuzz::loop_pattern_probe(&program, &name) else {
            continue;
        };
        made += 1;
        let options = Options {
            rule_texts: vec![ptir::RuleText::new("loop.pat", &pat)],
            outline: true,
            ..Options::default()
        };
        for engine in [ptir::Engine::Greedy, ptir::Engine::Saturation] {
            // Raised here; `differences` below compares the results (`validate` would
            // spend seconds redrawing inputs that run a looping helper out of fuel).
            let options = Options {
                engine,
                ..options.clone()
            };
            let out = ptir::optimize(&program, &options)
                .unwrap_or_else(|e| panic!("seed {seed}, {engine}: {e}\n{pat}\n{program}"));
            // The pattern is named after its function, `_` written `-`.
            let rule = name.replace('_', "-");
            assert!(
                out.report.rules_fired.iter().any(|r| r.rule == rule),
                "seed {seed}, {engine}: the loop was not raised\n{pat}\n{program}"
            );
        }
        let (bad, _) = differences(&[(format!("seed {seed}"), program)], &options);
        assert!(bad.is_empty(), "{}\n{pat}", bad.join("\n"));
    }
    assert!(
        made >= PROGRAMS / 2,
        "only {made} of {PROGRAMS} programs gave a loop pattern"
    );
}
