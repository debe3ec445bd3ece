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
