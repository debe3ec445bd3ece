//! Parsing and checking a generated library of 10,000 rules (SMR scaled to 2,000-10,000 GEMM
//! variations): the time `RuleSet::add_source` takes for the whole file, and the time the
//! pattern index over them takes to build (`PatternIndex::new`).
//!
//! `cargo bench --bench rules`; figures in `BENCHMARKS.md`.

// criterion's macros generate undocumented items.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ptir_rules::index::PatternIndex;
use ptir_rules::{Registry, RuleSet};
use std::fmt::Write;
use std::time::Duration;

/// `n` rules: GEMM-with-bias variations at different shapes raised to `@linear`, transposed
/// operand variants absorbed into `dot_general` dims, and elementwise chains with constraints.
pub fn generate_rules(n: usize) -> String {
    let mut text = String::new();
    for i in 0..n {
        let (m, k) = (1 + i % 64, 1 + (i / 64) % 64);
        let _ = match i % 3 {
            0 => writeln!(
                text,
                "; GEMM variation {i}: x w + broadcast b at width {m} is one linear call\n\
                 (rule gemm-bias-{i} :labels (fusion raising)\n  \
                 (add (dot_general ?x ?w (dims () () (1) (0))) (broadcast ?b (1) ({k} {m})))\n  \
                 => (call @linear ?x ?w ?b))"
            ),
            1 => writeln!(
                text,
                "; transposed-lhs GEMM variation {i}: the transpose folds into the dims\n\
                 (rule gemm-lhs-t-{i} :labels (tensor)\n  \
                 (dot_general (transpose ?a (1 0)) ?b (dims () () (1) (0)))\n  \
                 => (dot_general ?a ?b (dims () () (0) (0)))\n  :when ((has-shape ?a ({k} {m}))))"
            ),
            _ => writeln!(
                text,
                "; elementwise variation {i}: neg distributes over mul exactly\n\
                 (rule neg-mul-{i} :labels (algebra) :add-benefit {}\n  \
                 (neg (mul ?x ?t:(transpose ?y ?p)))\n  => (mul (neg ?x) ?t)\n  :when ((float ?x) (has-rank ?y 2)))",
                i % 5
            ),
        };
    }
    text
}

fn rules(c: &mut Criterion) {
    let text = generate_rules(10_000);
    let mut once = RuleSet::new(Registry::standard());
    if let Err(e) = once.add_source("generated.rules", &text) {
        panic!("the generated rules must load: {e}");
    }
    assert_eq!(once.rules().len(), 10_000);
    let mut g = c.benchmark_group("rules");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    g.throughput(Throughput::Elements(10_000));
    g.bench_function("parse+check/10000", |b| {
        b.iter(|| {
            let mut set = RuleSet::new(Registry::standard());
            set.add_source("generated.rules", &text)
                .map(|()| set.rules().len())
        })
    });
    // Loading a library must not cost more than parsing it: the pattern index of both
    // engines over the same 10,000 rules.
    g.bench_function("index/10000", |b| {
        b.iter(|| PatternIndex::new(once.rules()).len())
    });
    g.finish();
}

criterion_group!(benches, rules);
criterion_main!(benches);
