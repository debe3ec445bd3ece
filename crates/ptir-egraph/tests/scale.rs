//! Extraction of a 100,000-instruction chain: no stack overflow, and linear memory.
//!
//! Before the fix the DAG-greedy extractor kept an exact cost set per e-class, O(n) class ids
//! each on a chain: 19.7 GB at 100k instructions, then a crash. The test runs on a thread with
//! a 2 MiB stack, so recursion whose depth follows the chain would overflow it too.

use ptir_cost::TensorCost;
use ptir_egraph::{choose, lower, saturate, ExtractorKind, SaturationOptions};
use ptir_extract::{Extractor, GreedyDagExtractor};
use ptir_rules::RuleSet;

const CHAIN: usize = 100_000;

#[test]
fn a_100k_chain_extracts_on_a_small_stack() {
    let run = || {
        let program = ptir_ir::generate::generate_chain(CHAIN);
        let rules = RuleSet::bundled().expect("the bundled rules load");
        let mut lowered = lower(&program, "chain").expect("the chain lowers");
        let report = saturate(&mut lowered, &rules, &SaturationOptions::default());
        assert!(report.rule_errors.is_empty(), "{:?}", report.rule_errors);
        let model = TensorCost::default();
        let graph = lowered
            .extraction_graph(&model)
            .expect("the e-graph prices");
        let extraction = GreedyDagExtractor::default().extract(&graph);
        assert!(extraction.is_complete(&graph) && extraction.is_acyclic(&graph));
        // At most the chain, its parameter and the region node (the default node limit may
        // stop saturation before `neg, neg` pairs cancel).
        assert!(extraction.len() <= CHAIN + 2, "{}", extraction.len());
        assert!(extraction.len() >= CHAIN * 6 / 8, "{}", extraction.len());
        choose(&lowered, &model, ExtractorKind::DagGreedy).expect("extraction succeeds");
    };
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(run)
        .expect("a thread starts")
        .join()
        .expect("no panic, no overflow");
}
