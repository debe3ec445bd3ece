//! Matching time against the number of patterns (seed 004): the bundled rules plus
//! 0, 1k, 2k, 5k and 10k generated sound rules that never fire
//! (`ptir_test_support::library::non_firing_rules`), on 12 chained GPT-2 blocks, in both engines:
//!
//! - `eqsat`: saturation with the default limits (a fresh lowering per sample, not timed);
//! - `greedy`: the canonicalize pass with the greedy rules (`directed_rule_filter`), on a
//!   fresh copy of the program per sample;
//! - `eqsat-unindexed`, `greedy-unindexed`: the same with the pattern index off (each rule
//!   tried at every op or e-class of its root kind, as before the index).
//!
//! `cargo bench --bench pattern_index`; figures in `BENCHMARKS.md`.

// criterion's macros generate undocumented items.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion};
use ptir::egraph::{lower, saturate, SaturationOptions};
use ptir::greedy::{directed_rule_filter, Canonicalize, GreedyConfig};
use ptir::ir::generate::{gpt2_stack, Gpt2Config};
use ptir::pass::Pass;
use ptir::rules::{RuleFilter, RuleSet};
use ptir_test_support::library::non_firing_rules;
use std::time::Duration;

const EXTRA: [usize; 5] = [0, 1_000, 2_000, 5_000, 10_000];

/// The bundled rules plus `n` generated ones, without `fast-math` (as `ptir::optimize`
/// filters them by default).
fn rules_with(n: usize) -> RuleSet {
    let mut rules = RuleSet::bundled().expect("the bundled rules load");
    rules
        .add_source("never.rules", &non_firing_rules(n))
        .expect("the generated rules load");
    rules.filtered(&RuleFilter::exact())
}

fn pattern_index(c: &mut Criterion) {
    let program = gpt2_stack(&Gpt2Config::small(12)).expect("the stack builds");
    let mut g = c.benchmark_group("pattern_index");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for n in EXTRA {
        let rules = rules_with(n);
        for index in [true, false] {
            let suffix = if index { "" } else { "-unindexed" };
            let limits = SaturationOptions {
                pattern_index: index,
                ..SaturationOptions::default()
            };
            let mut once = lower(&program, "gpt2").expect("the stack lowers");
            let report = saturate(&mut once, &rules, &limits);
            eprintln!(
                "eqsat{suffix}, {n} extra rules: {}, {:.2?}",
                report.summary(),
                report.time
            );
            g.bench_with_input(BenchmarkId::new(format!("eqsat{suffix}"), n), &n, |b, _| {
                b.iter_batched(
                    || lower(&program, "gpt2").expect("the stack lowers"),
                    |mut l| saturate(&mut l, &rules, &limits),
                    BatchSize::LargeInput,
                )
            });
            let pass = Canonicalize::with_filtered_rules(&rules, &directed_rule_filter())
                .expect("the rules compile")
                .with_config(GreedyConfig::canonicalize().with_pattern_index(index));
            g.bench_with_input(
                BenchmarkId::new(format!("greedy{suffix}"), n),
                &n,
                |b, _| {
                    b.iter_batched(
                        || program.clone(),
                        |mut p| pass.run(&mut p).expect("canonicalize runs"),
                        BatchSize::LargeInput,
                    )
                },
            );
        }
    }
    g.finish();
}

criterion_group!(benches, pattern_index);
criterion_main!(benches);
