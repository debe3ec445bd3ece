//! Scaling of the IR layer: parse, print, verify (and parse + verify together, the figure the
//! issue targets) on generated straight-line chains of 10k, 100k and 1M instructions.
//!
//! `cargo bench --bench ir`; figures and machine in `BENCHMARKS.md`.

// `criterion_group!` and `criterion_main!` generate undocumented public functions.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use ptir_ir::generate::generate_chain;
use std::time::Duration;

const SIZES: [usize; 3] = [10_000, 100_000, 1_000_000];

fn ir(c: &mut Criterion) {
    let mut g = c.benchmark_group("ir");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for n in SIZES {
        let program = generate_chain(n);
        let text = ptir_ir::print(&program);
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("parse", n), &text, |b, t| {
            b.iter(|| ptir_ir::parse(t))
        });
        g.bench_with_input(BenchmarkId::new("print", n), &program, |b, p| {
            b.iter(|| ptir_ir::print(p))
        });
        g.bench_with_input(BenchmarkId::new("verify", n), &program, |b, p| {
            b.iter(|| ptir_ir::verify(p))
        });
        g.bench_with_input(BenchmarkId::new("parse+verify", n), &text, |b, t| {
            b.iter(|| ptir_ir::parse(t).map(|p| ptir_ir::verify(&p).is_ok()))
        });
    }
    g.finish();
}

criterion_group!(benches, ir);
criterion_main!(benches);
