//! Differential test on generated programs: the greedy driver and equality saturation, with
//! the default options but the exact extractor (with which `ptir::diff` holds the cost claim),
//! agree on 150 random programs (seeds 0..150, size 30): both outputs verify, compute what the
//! input computes on every input set, and saturation costs no more than greedy. `ptir-opt diff --random 2000 --seed S --size N` runs the same
//! check on more programs.

use ptir::ir::generate::{generate, GenConfig};
use std::time::Instant;

/// Programs diffed.
const PROGRAMS: u64 = 150;
/// Approximate instructions per program.
const SIZE: usize = 30;

#[test]
fn greedy_and_saturation_agree_on_generated_programs() {
    let start = Instant::now();
    let programs: Vec<_> = (0..PROGRAMS)
        .map(|seed| {
            generate(&GenConfig {
                seed,
                size: SIZE,
                ..GenConfig::default()
            })
        })
        .collect();
    let options = ptir::Options {
        extractor: ptir::egraph::ExtractorKind::Exact,
        ..ptir::Options::default()
    };
    let reports = ptir::diff_batch(&programs, &options);
    let mut failures = Vec::new();
    for (seed, (program, report)) in programs.iter().zip(reports).enumerate() {
        match report {
            Ok(r) if r.ok() => {}
            Ok(r) => failures.push(format!("seed {seed}:\n{r}\n{program}")),
            Err(e) => failures.push(format!("seed {seed}: {e}\n{program}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {PROGRAMS} programs mismatch; the first:\n{}",
        failures.len(),
        failures[0]
    );
    eprintln!("{PROGRAMS} programs diffed in {:.2?}", start.elapsed());
}

/// No program comes out costlier than it went in, under the default cost model, whichever
/// extractor chose (the tree extractor pays a shared value once per use, so it often finds a
/// costlier program: the engine then keeps the input function). Generated with the extended
/// generator (regions, impure calls, every op kind), 60 programs per extractor.
#[test]
fn optimization_never_raises_the_predicted_cost() {
    let mut failures = Vec::new();
    for extractor in [
        ptir::egraph::ExtractorKind::DagGreedy,
        ptir::egraph::ExtractorKind::Tree,
    ] {
        let options = ptir::Options {
            extractor,
            ..ptir::Options::default()
        };
        for seed in 0..60 {
            let program = generate(&GenConfig::extended(seed, SIZE, Vec::new()));
            match ptir::optimize(&program, &options) {
                Ok(out) => {
                    let (before, after) = (out.report.cost_before, out.report.cost_after);
                    if after > before + 1e-9 * before.abs() {
                        failures.push(format!(
                            "{extractor:?}, seed {seed}: {before} -> {after}\n{}",
                            ptir::ir::print(&program)
                        ));
                    }
                }
                Err(e) => failures.push(format!("{extractor:?}, seed {seed}: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
