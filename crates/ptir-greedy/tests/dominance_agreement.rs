//! Agreement of the three dominance implementations on generated programs: the pre-order
//! interval test of `ptir_ir::analysis` ([`FunctionFacts::dominates`]), its Datalog form
//! ([`DominanceProgram`]) and the greedy rewriter's arena walk ([`Ir::dominates`], reached
//! through [`ProgramRewriter`]). Every (value, instruction) pair of every function of small
//! programs with nested `cond` / `while` / `scan` regions is asked of all three.

use ptir_greedy::{ProgramContext, ProgramRewriter};
use ptir_ir::analysis::{DominanceProgram, FunctionFacts};
use ptir_ir::generate::{generate, GenConfig};
use std::collections::BTreeSet;

/// Checks one generated program; returns how many pairs were compared and how many dominate.
fn check(seed: u64, size: usize) -> (usize, usize) {
    let program = generate(&GenConfig {
        seed,
        size,
        max_depth: 3,
        ..GenConfig::default()
    });
    ptir_ir::verify(&program).unwrap();
    let cx = ProgramContext::new(&program);
    let (mut pairs, mut positive) = (0, 0);
    for f in &program.functions {
        let facts = FunctionFacts::of(f);
        let queries: Vec<_> = facts
            .values()
            .flat_map(|(v, _)| facts.insts().iter().map(move |i| (v, i.id)))
            .collect();
        let mut dl = DominanceProgram::from_facts(&facts);
        dl.dominance_query = queries.clone();
        dl.run();
        let datalog: BTreeSet<_> = dl.dominates.iter().copied().collect();
        let rw = ProgramRewriter::new(f.clone(), &cx).unwrap();
        for &(v, i) in &queries {
            let by_facts = facts.dominates(v, i);
            let by_ir = rw.dominates(v, i);
            assert_eq!(
                by_facts, by_ir,
                "seed {seed} @{}: FunctionFacts says {by_facts}, Ir says {by_ir} for ({v}, {i:?})",
                f.name
            );
            assert_eq!(
                by_facts,
                datalog.contains(&(v, i)),
                "seed {seed} @{}: FunctionFacts and DominanceProgram disagree on ({v}, {i:?})",
                f.name
            );
            pairs += 1;
            positive += usize::from(by_facts);
        }
    }
    (pairs, positive)
}

#[test]
fn datalog_and_interval_dominance_agree_with_ir_dominates_on_generated_programs() {
    let (mut pairs, mut positive) = (0, 0);
    for seed in 0..48 {
        let (p, d) = check(seed, 12 + (seed as usize % 4) * 6);
        pairs += p;
        positive += d;
    }
    // The comparison is not vacuous: both answers occur many times.
    assert!(positive > 500, "{positive} dominating pairs of {pairs}");
    assert!(
        pairs - positive > 500,
        "{} non-dominating pairs",
        pairs - positive
    );
}
