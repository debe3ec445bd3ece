//! Greedy canonicalize on generated chains of 10k, 100k and 1M instructions (mul by a splat
//! 1.0, neg of neg, add of a parameter, repeated: `ptir_test_support::chain::canonicalize_chain`),
//! through a `PassManager` that holds only the canonicalize pass (no verification after it;
//! MLIR's `--mlir-timing` reports the verifier apart from the canonicalizer too).
//!
//! The rules are those of the bundled library that fire on the chain (found by canonicalizing
//! a small chain with every greedy rule and folding off: `mul-one` and `neg-neg`).
//!
//! - `canonicalize`: folds and those rules, as MLIR's `--canonicalize` folds and applies
//!   patterns (the folders take `x * 1` and `neg(neg x)` first);
//! - `rules-only`: folding off, so the two rules do the work;
//! - `all-greedy-rules`: folds and every rule the greedy engine runs (the bundled library
//!   minus `fast-math` and `algebra`), the matching cost of a real rule library;
//! - `rules-only-unindexed`, `all-greedy-rules-unindexed`: the same with the pattern index off
//!   (`GreedyConfig::pattern_index`), what the index costs or saves;
//! - `default-pipeline`: what a user of the greedy crate runs,
//!   `ptir_greedy::default_pipeline` with the bundled library (canonicalize, cse, dce,
//!   verified after the run, `with_verify_each`, as the figures were measured);
//! - `optimize`: what a user of the library runs, `ptir::optimize` with the greedy engine and
//!   default `Options` (the rules loaded and checked, the pipeline, the costs, the output
//!   verified).
//!
//! Each sample canonicalizes a fresh copy of the program (making the copy and dropping the
//! result are not timed).
//! `cargo bench --bench canonicalize`; the comparison with `mlir-opt-22` is
//! `cargo run --release --example canonicalize_vs_mlir`; figures in `BENCHMARKS.md`.

// criterion's macros generate undocumented items.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use ptir_greedy::{Canonicalize, CanonicalizeStats, GreedyConfig};
use ptir_pass::{Pass, PassManager};
use ptir_rules::{RuleFilter, RuleSet};
use ptir_test_support::chain::canonicalize_chain;
use std::time::Duration;

const SIZES: [usize; 3] = [10_000, 100_000, 1_000_000];

/// The bundled rules minus `fast-math` and `algebra` (what the greedy engine runs).
fn greedy_filter() -> RuleFilter {
    RuleFilter {
        enabled: Vec::new(),
        disabled: vec!["fast-math".into(), "algebra".into(), "priced".into()],
    }
}

/// Names of the greedy rules that fire on a small chain when folding is off.
fn firing_rules(rules: &RuleSet) -> Vec<String> {
    let pass = Canonicalize::with_filtered_rules(rules, &greedy_filter())
        .expect("the bundled rules compile")
        .with_config(GreedyConfig::canonicalize().with_fold(false));
    let mut p = canonicalize_chain(100);
    let report = pass.run(&mut p).expect("canonicalize runs");
    let stats = report
        .stats::<CanonicalizeStats>()
        .map(|s| s.driver.clone())
        .unwrap_or_default();
    stats.rewrites.keys().cloned().collect()
}

fn only(pass: Canonicalize) -> PassManager {
    let mut pm = PassManager::new().with_verify_each(false);
    pm.add(pass);
    pm
}

fn canonicalize(c: &mut Criterion) {
    let rules = RuleSet::bundled().expect("the bundled rules load");
    let fired = firing_rules(&rules);
    assert!(!fired.is_empty(), "no bundled rule fires on the chain");
    let filter = RuleFilter {
        enabled: fired,
        disabled: Vec::new(),
    };
    let pass = || Canonicalize::with_filtered_rules(&rules, &filter).expect("the rules compile");
    let canon = only(pass());
    let rules_only = only(pass().with_config(GreedyConfig::canonicalize().with_fold(false)));
    let all = only(
        Canonicalize::with_filtered_rules(&rules, &greedy_filter()).expect("the rules compile"),
    );
    let unindexed = GreedyConfig::canonicalize().with_pattern_index(false);
    let rules_only_unindexed = only(pass().with_config(unindexed.clone().with_fold(false)));
    let all_unindexed = only(
        Canonicalize::with_filtered_rules(&rules, &greedy_filter())
            .expect("the rules compile")
            .with_config(unindexed),
    );
    let default_pipeline = ptir_greedy::default_pipeline(&rules)
        .expect("the bundled rules compile")
        .with_verify_each(true);
    let options = ptir::Options {
        engine: ptir::Engine::Greedy,
        ..ptir::Options::default()
    };
    let mut g = c.benchmark_group("canonicalize");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(4));
    for n in SIZES {
        let program = canonicalize_chain(n);
        g.throughput(Throughput::Elements(n as u64));
        let fresh = || program.clone();
        for (name, pm) in [
            ("canonicalize", &canon),
            ("rules-only", &rules_only),
            ("all-greedy-rules", &all),
            ("rules-only-unindexed", &rules_only_unindexed),
            ("all-greedy-rules-unindexed", &all_unindexed),
            ("default-pipeline", &default_pipeline),
        ] {
            g.bench_with_input(BenchmarkId::new(name, n), &n, |b, _| {
                // The program is returned, so dropping it is not timed either.
                b.iter_batched(
                    fresh,
                    |mut p| {
                        let r = pm.run(&mut p);
                        (p, r)
                    },
                    BatchSize::LargeInput,
                )
            });
        }
        g.bench_with_input(BenchmarkId::new("optimize", n), &n, |b, _| {
            b.iter(|| ptir::optimize(&program, &options))
        });
    }
    g.finish();
}

criterion_group!(benches, canonicalize);
criterion_main!(benches);
