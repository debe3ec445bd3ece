//! Times canonicalize on the bench chain (best of five runs per size), with the driver's
//! counters:
//! `cargo run --release -p ptir-greedy --example chain_timing [N...]`.

use ptir_greedy::{Canonicalize, GreedyConfig};
use ptir_pass::Pass;
use ptir_rules::{Registry, RuleSet};
use ptir_test_support::chain::{canonicalize_chain, CHAIN_RULES};
use std::time::Instant;

fn main() {
    let mut rules = RuleSet::new(Registry::standard());
    if let Err(e) = rules.add_source("chain.rules", CHAIN_RULES) {
        eprintln!("{e}");
        return;
    }
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![10_000, 100_000, 1_000_000]
    } else {
        sizes
    };
    for fold in [true, false] {
        let pass = match Canonicalize::with_rules(&rules) {
            Ok(p) => p.with_config(GreedyConfig::canonicalize().with_fold(fold)),
            Err(e) => {
                eprintln!("{e}");
                return;
            }
        };
        for &n in &sizes {
            let program = canonicalize_chain(n);
            let mut best = f64::INFINITY;
            let mut last = None;
            for _ in 0..5 {
                let mut p = program.clone();
                let start = Instant::now();
                let report = pass.run(&mut p);
                best = best.min(start.elapsed().as_secs_f64());
                last = Some((report, p));
            }
            let Some((report, p)) = last else { continue };
            let t = std::time::Duration::from_secs_f64(best);
            match report {
                Ok(r) => {
                    let g = r
                        .stats::<ptir_greedy::CanonicalizeStats>()
                        .map(|s| s.driver.clone())
                        .unwrap_or_default();
                    println!(
                        "fold={fold} n={n}: {:.1} ms, {} insts left, {} iterations, {} rewrites, {} folds, {} erased",
                        t.as_secs_f64() * 1e3,
                        p.num_insts(),
                        g.iterations,
                        g.total_rewrites(),
                        g.folds,
                        g.erased
                    );
                }
                Err(e) => eprintln!("{e}"),
            }
        }
    }
}
