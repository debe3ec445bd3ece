//! User loop patterns against a program of loops (issue target: matching 2,000 loop patterns
//! costs at most 2x matching none). The program: 900 `scan`s of an exponential moving average
//! (9 instructions each, constants varying so that about half match some pattern) chained by
//! elementwise ops, 9,002 instructions; the patterns: 2,000 variants of
//! `tests/fixtures/ema_loop.pat`'s, each with another constant, with named dimensions. Timed,
//! with 0 and 2,000 loop patterns loaded beside the bundled rules:
//!
//! - `match`: the match query on rules loaded once (`ptir::greedy::find_matches` for the
//!   rules, `ptir::rules::find_loop_matches` for the loops: what [`ptir::find_matches`] runs
//!   after loading);
//! - `load`: loading the rules ([`ptir::load_rules`]: the bundled library and the `.pat` text);
//! - `optimize`: [`ptir::optimize`] with default options (load, loop patterns, saturation).
//!
//! `cargo bench --bench loop_patterns`; figures in `BENCHMARKS.md`.

// criterion's macros generate undocumented items.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::fmt::Write as _;
use std::time::Duration;

const PATTERNS: [usize; 2] = [0, 2_000];

/// `n` loop patterns, the `k`th computing `h = a * h + (1 + k / 1000 - a) * x`.
fn patterns(n: usize) -> String {
    let mut text = String::new();
    for k in 0..n {
        let _ = writeln!(
            text,
            "extern @ema{k}(f32[?n], f32[?t,?n], f32[?n]) -> (f32[?n]) pure"
        );
    }
    for k in 0..n {
        let c = 1.0 + k as f64 / 1000.0;
        let _ = write!(
            text,
            "func @ema{k}_pattern(%h0: f32[?n], %xs: f32[?t,?n], %a: f32[?n]) -> (f32[?n]) {{
  %r = scan %h0, %xs num_carry=1 length=?t : f32[?n] {{
  ^(%h: f32[?n], %x: f32[?n]):
    %ah = mul %a, %h : f32[?n]
    %one = constant splat({c:?}) : f32[?n]
    %b = sub %one, %a : f32[?n]
    %bx = mul %b, %x : f32[?n]
    %next = add %ah, %bx : f32[?n]
    yield %next
  }}
  return %r
}}
func @ema{k}_replacement(%h0: f32[?n], %xs: f32[?t,?n], %a: f32[?n]) -> (f32[?n]) {{
  %y = call @ema{k}(%h0, %xs, %a) : f32[?n]
  return %y
}}
"
        );
    }
    text
}

/// 900 moving-average loops chained by elementwise ops.
fn program() -> String {
    let mut text = String::from(
        "func @big(%xs: f32[16,8], %a: f32[8]) -> (f32[8]) {
  %zero = constant splat(0.0) : f32[8]
  %acc0 = add %a, %a : f32[8]
",
    );
    for i in 0..900 {
        let c = 1.0 + ((i * 7) % 4000) as f64 / 1000.0;
        let _ = write!(
            text,
            "  %r{i} = scan %zero, %xs num_carry=1 length=16 : f32[8] {{
  ^(%s{i}: f32[8], %w{i}: f32[8]):
    %p{i} = mul %a, %s{i} : f32[8]
    %c{i} = constant splat({c:?}) : f32[8]
    %q{i} = sub %c{i}, %a : f32[8]
    %m{i} = mul %q{i}, %w{i} : f32[8]
    %n{i} = add %p{i}, %m{i} : f32[8]
    yield %n{i}
  }}
  %acc{j} = add %acc{i}, %r{i} : f32[8]
  %e{i} = exp %acc{j} : f32[8]
  %f{i} = mul %e{i}, %a : f32[8]
  %g{i} = add %f{i}, %acc{j} : f32[8]
",
            j = i + 1
        );
    }
    text.push_str("  return %acc900\n}\n");
    text
}

fn loop_patterns(c: &mut Criterion) {
    let program = ptir::ir::parse(&program()).expect("the program parses");
    let mut g = c.benchmark_group("loop_patterns");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for n in PATTERNS {
        let options = ptir::Options {
            rule_texts: vec![ptir::RuleText::new("many.pat", patterns(n))],
            ..Default::default()
        };
        let matches = ptir::find_matches(&program, &options).expect("the query runs");
        eprintln!("{n} loop patterns: {} matches", matches.len());
        let rules = ptir::load_rules(&options).expect("the rules load");
        g.bench_with_input(BenchmarkId::new("match", n), &n, |b, _| {
            b.iter(|| {
                let rules_matched = ptir::greedy::find_matches(&program, &rules);
                let loops = ptir::rules::find_loop_matches(&program, rules.loop_patterns());
                (rules_matched.expect("the query runs").len(), loops.len())
            })
        });
        g.bench_with_input(BenchmarkId::new("load", n), &n, |b, _| {
            b.iter(|| ptir::load_rules(&options).expect("the rules load"))
        });
        g.bench_with_input(BenchmarkId::new("optimize", n), &n, |b, _| {
            b.iter(|| ptir::optimize(&program, &options).expect("the program optimizes"))
        });
    }
    g.finish();
}

criterion_group!(benches, loop_patterns);
criterion_main!(benches);
