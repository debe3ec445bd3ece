//! Temporary: phases of canonicalize on the 1M chain.
use ptir_greedy::chain::{canonicalize_chain, CHAIN_RULES};
use ptir_greedy::*;
use ptir_rules::{Registry, RuleSet};
use std::time::Instant;

/// CPU time of this thread so far (Linux), in seconds: robust to a loaded machine.
fn cpu() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let fold = std::env::args().nth(2).is_none();
    let p = canonicalize_chain(n);
    let mut rules = RuleSet::new(Registry::standard());
    rules.add_source("c", CHAIN_RULES).unwrap();
    let mut set = PatternSet::new();
    set.add_rules(&rules, &ptir_rules::RuleFilter::exact())
        .unwrap();
    let frozen = set.freeze();
    for _ in 0..3 {
        let mut p = p.clone();
        let c0 = cpu();
        let t = Instant::now();
        let cx = ProgramContext::new(&p);
        let t1 = t.elapsed();
        let f = p.functions.pop().unwrap();
        let mut rw = ProgramRewriter::new(f, &cx).unwrap();
        let t2 = t.elapsed();
        let cfg = GreedyConfig::canonicalize()
            .with_fold(fold)
            .with_max_iterations(Some(1))
            .with_region_simplification(false);
        apply_patterns_greedily(&mut rw, &frozen, &cfg).unwrap();
        let t3 = t.elapsed();
        apply_patterns_greedily(&mut rw, &frozen, &cfg).unwrap();
        let t4 = t.elapsed();
        let f = rw.finish();
        let t5 = t.elapsed();
        drop(f);
        println!("cpu {:.1} ms", (cpu() - c0) * 1e3);
        println!(
            "context {t1:?} build {:?} iter1 {:?} iter2 {:?} finish {:?} total {t5:?}",
            t2 - t1,
            t3 - t2,
            t4 - t3,
            t5 - t4
        );
    }
}
