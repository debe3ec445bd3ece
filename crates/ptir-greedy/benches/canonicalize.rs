//! Canonicalize on generated chains of 10k, 100k and 1M instructions (mul by a splat 1.0,
//! neg of neg, add of a parameter, repeated: `ptir_greedy::chain`), with the rules
//! `mul-one` and `neg-neg`.
//!
//! - `canonicalize`: the pass as the pipeline runs it (folds and rules, top-down);
//! - `rules-only`: the same with folding off, so the two rules do the work;
//! - `pipeline`: canonicalize → cse → dce.
//!
//! Each sample canonicalizes a fresh copy of the program (the copy is not timed). Run with
//! `cargo bench -p ptir-greedy --bench canonicalize`.

// criterion's macros generate undocumented items.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use ptir_greedy::chain::{canonicalize_chain, CHAIN_RULES};
use ptir_greedy::{Canonicalize, GreedyConfig, Pass, PassManager};
use ptir_rules::{Registry, RuleSet};
use std::time::Duration;

const SIZES: [usize; 3] = [10_000, 100_000, 1_000_000];

fn rules() -> RuleSet {
    let mut rules = RuleSet::new(Registry::standard());
    rules
        .add_source("chain.rules", CHAIN_RULES)
        .expect("the bench rules parse");
    rules
}

fn canonicalize(c: &mut Criterion) {
    let rules = rules();
    let canon = Canonicalize::with_rules(&rules).expect("the bench rules compile");
    let rules_only = Canonicalize::with_rules(&rules)
        .expect("the bench rules compile")
        .with_config(GreedyConfig::canonicalize().with_fold(false));
    let pipeline = PassManager::default_pipeline(&rules)
        .expect("the bench rules compile")
        .with_verify_each(false);
    let mut g = c.benchmark_group("canonicalize");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5));
    for n in SIZES {
        let program = canonicalize_chain(n);
        g.throughput(Throughput::Elements(n as u64));
        let fresh = || program.clone();
        g.bench_with_input(BenchmarkId::new("canonicalize", n), &n, |b, _| {
            b.iter_batched(fresh, |mut p| canon.run(&mut p), BatchSize::LargeInput)
        });
        g.bench_with_input(BenchmarkId::new("rules-only", n), &n, |b, _| {
            b.iter_batched(fresh, |mut p| rules_only.run(&mut p), BatchSize::LargeInput)
        });
        g.bench_with_input(BenchmarkId::new("pipeline", n), &n, |b, _| {
            b.iter_batched(fresh, |mut p| pipeline.run(&mut p), BatchSize::LargeInput)
        });
    }
    g.finish();
}

criterion_group!(benches, canonicalize);
criterion_main!(benches);
