//! Runs canonicalize once on the bench chain (for cachegrind / callgrind):
//! `phase_probe [N] [nofold]`.
use ptir_greedy::chain::{canonicalize_chain, CHAIN_RULES};
use ptir_greedy::*;
use ptir_rules::{Registry, RuleSet};

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200_000);
    let fold = std::env::args().nth(2).is_none();
    let mut p = canonicalize_chain(n);
    let mut rules = RuleSet::new(Registry::standard());
    rules.add_source("c", CHAIN_RULES).unwrap();
    let pass = Canonicalize::with_rules(&rules)
        .unwrap()
        .with_config(GreedyConfig::canonicalize().with_fold(fold));
    let r = pass.run(&mut p).unwrap();
    println!("{} insts left, {:?}", p.num_insts(), r.greedy);
}
