//! Parsing and checking a generated library of 10,000 rules (SMR scaled to 2,000-10,000 GEMM
//! variations): the time `RuleSet::add_source` takes for the whole file, the time the
//! pattern index over them takes to build (`PatternIndex::new`), and the compiled library of
//! the same rules (`ptir_rules::compiled`): writing it (`RuleSet::to_compiled`) and loading
//! it without parsing (`RuleSet::from_compiled`); the sizes of the text and the library are
//! printed on stderr.
//!
//! `cargo bench --bench rules`; figures in `BENCHMARKS.md`.

// criterion's macros generate undocumented items.
#![allow(missing_docs)]

use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
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
    // The compiled library (SMR's serialized pattern automaton, loaded by every run), of
    // these rules and of the pattern-index benchmark's (sound rules that never fire).
    compiled(&mut g, "", &once, &text);
    let never = ptir_test_support::library::non_firing_rules(10_000);
    let mut never_set = RuleSet::new(Registry::standard());
    if let Err(e) = never_set.add_source("never.rules", &never) {
        panic!("the non-firing rules must load: {e}");
    }
    g.bench_function("parse+check/never-10000", |b| {
        b.iter(|| {
            let mut set = RuleSet::new(Registry::standard());
            set.add_source("never.rules", &never)
                .map(|()| set.rules().len())
        })
    });
    compiled(&mut g, "never-", &never_set, &never);
    g.finish();
}

/// Benches writing and loading the compiled library of `set` (parsed from `text`), ids
/// `compile/{prefix}10000` and `load-compiled/{prefix}10000`, and prints both sizes.
fn compiled(g: &mut BenchmarkGroup<'_, WallTime>, prefix: &str, set: &RuleSet, text: &str) {
    let bytes = match set.to_compiled() {
        Ok(bytes) => bytes,
        Err(e) => panic!("the rules must compile: {e}"),
    };
    match RuleSet::from_compiled(&bytes, Registry::standard()) {
        Ok(back) => assert_eq!(back.rules(), set.rules()),
        Err(e) => panic!("the library must load: {e}"),
    }
    eprintln!(
        "{prefix}10000 rules: text {} bytes, compiled library {} bytes",
        text.len(),
        bytes.len()
    );
    g.bench_function(format!("compile/{prefix}10000"), |b| {
        b.iter(|| set.to_compiled().map(|b| b.len()))
    });
    g.bench_function(format!("load-compiled/{prefix}10000"), |b| {
        b.iter(|| RuleSet::from_compiled(&bytes, Registry::standard()).map(|s| s.rules().len()))
    });
}

criterion_group!(benches, rules);
criterion_main!(benches);
