//! Runs canonicalize once on the bench chain (for cachegrind / callgrind):
//! `phase_probe [N] [nofold|bundled|print]`. `bundled` canonicalizes with the bundled
//! library's greedy rules (what a user runs) instead of the two that fire on the chain;
//! `print` prints the chain (the input of `ptir-opt` runs) and stops.
use ptir_greedy::chain::{canonicalize_chain, CHAIN_RULES};
use ptir_greedy::*;
use ptir_pass::Pass;
use ptir_rules::{Registry, RuleSet};

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200_000);
    let mode = std::env::args().nth(2).unwrap_or_default();
    let mut p = canonicalize_chain(n);
    if mode == "print" {
        print!("{}", ptir_ir::print(&p));
        return;
    }
    let rules = if mode == "bundled" {
        RuleSet::bundled().unwrap()
    } else {
        let mut rules = RuleSet::new(Registry::standard());
        rules.add_source("c", CHAIN_RULES).unwrap();
        rules
    };
    let pass = Canonicalize::with_rules(&rules)
        .unwrap()
        .with_config(GreedyConfig::canonicalize().with_fold(mode != "nofold"));
    let r = pass.run(&mut p).unwrap();
    println!(
        "{} insts left, {:?}",
        p.num_insts(),
        r.stats::<ptir_greedy::CanonicalizeStats>()
    );
}
