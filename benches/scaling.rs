//! Saturation and extraction of N-layer GPT-2 stacks (one function of N chained copies of
//! `corpus/gpt2_block.ptir`), with the rules and limits of `ptir::Options::default()` (what
//! `ptir-opt FILE` runs: the bundled rules without fast-math), each phase timed on its own:
//! the time per instruction must stay flat as the layers grow.
//!
//! `cargo bench --bench scaling`; figures in `BENCHMARKS.md`.

// criterion's macros generate undocumented items.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use ptir::cost::TensorCost;
use ptir::egraph::{choose, lower, saturate, ExtractorKind, SaturationOptions};
use ptir::ir::generate::{gpt2_stack, Gpt2Config};
use std::time::Duration;

const LAYERS: [usize; 3] = [12, 48, 96];

fn scaling(c: &mut Criterion) {
    let options = ptir::Options::default();
    let rules = ptir::load_rules(&options).expect("the bundled rules load");
    let limits: SaturationOptions = options.saturation();
    let mut group = c.benchmark_group("gpt2_stack");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    for layers in LAYERS {
        let program = gpt2_stack(&Gpt2Config::small(layers)).expect("the stack builds");
        group.throughput(Throughput::Elements(program.num_insts() as u64));
        let lowered = || lower(&program, "gpt2").expect("the stack lowers");
        group.bench_with_input(BenchmarkId::new("saturate", layers), &layers, |b, _| {
            b.iter_batched(
                lowered,
                |mut l| saturate(&mut l, &rules, &limits),
                BatchSize::LargeInput,
            )
        });
        let mut saturated = lowered();
        saturate(&mut saturated, &rules, &limits);
        group.bench_with_input(BenchmarkId::new("extract", layers), &layers, |b, _| {
            b.iter(|| choose(&saturated, &TensorCost::default(), ExtractorKind::DagGreedy))
        });
    }
    group.finish();
}

criterion_group!(benches, scaling);
criterion_main!(benches);
