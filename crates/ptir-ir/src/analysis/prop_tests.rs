//! Property and scaling tests: dominance against a naive scope walk on random programs with
//! nested regions, and every analysis on a generated 100k-instruction program.

use super::*;
use crate::program::{Function, InstId, Program, Region, ValueId};
use proptest::prelude::*;
use rustc_hash::FxHashSet;

/// Dominance by brute force: walk the function keeping the list of visible values, and
/// record every (visible value, point) pair. Blocks are numbered in pre-order, as
/// [`FunctionFacts`] documents.
#[derive(Default)]
struct Naive {
    dominates: FxHashSet<(ValueId, InstId)>,
    at_entry: FxHashSet<(ValueId, BlockId)>,
    at_results: FxHashSet<(ValueId, BlockId)>,
    blocks: u32,
}

impl Naive {
    fn of(f: &Function) -> Naive {
        let mut n = Naive::default();
        n.visit(&f.body, &mut Vec::new());
        n
    }

    fn visit(&mut self, region: &Region, visible: &mut Vec<ValueId>) {
        let b = BlockId(self.blocks);
        self.blocks += 1;
        let mark = visible.len();
        visible.extend(region.params.iter().map(|p| p.id));
        self.at_entry.extend(visible.iter().map(|&v| (v, b)));
        for inst in &region.insts {
            self.dominates
                .extend(visible.iter().map(|&v| (v, inst.id())));
            for r in inst.op.regions() {
                self.visit(r, visible);
            }
            visible.push(inst.result);
        }
        self.at_results.extend(visible.iter().map(|&v| (v, b)));
        visible.truncate(mark);
    }
}

/// Checks every (value, instruction) and (value, block) pair of `p`'s function against
/// [`Naive`], through the plain-Rust queries and through [`DominanceProgram`].
fn check_dominance(p: &Program) -> Result<(), TestCaseError> {
    let f = &p.functions[0];
    let facts = FunctionFacts::of(f);
    let naive = Naive::of(f);
    let values: Vec<ValueId> = facts.values().map(|(v, _)| v).collect();
    let blocks: Vec<BlockId> = (0..naive.blocks).map(BlockId).collect();
    prop_assert_eq!(facts.blocks().len(), blocks.len());
    let mut queries = Vec::new();
    for &v in &values {
        for i in facts.insts() {
            let expected = naive.dominates.contains(&(v, i.id));
            prop_assert_eq!(
                facts.dominates(v, i.id),
                expected,
                "{} dominates {}",
                v,
                i.id
            );
            queries.push((v, i.id));
        }
        for &b in &blocks {
            let entry = naive.at_entry.contains(&(v, b));
            prop_assert_eq!(facts.available_at(v, b), entry, "{} available at {}", v, b);
            let results = naive.at_results.contains(&(v, b));
            prop_assert_eq!(
                facts.available_at_results(v, b),
                results,
                "{} at results of {}",
                v,
                b
            );
        }
    }
    let mut dl = DominanceProgram::from_facts(&facts);
    dl.dominance_query = queries;
    dl.availability_query = values
        .iter()
        .flat_map(|&v| blocks.iter().map(move |&b| (v, b)))
        .collect();
    dl.run();
    let dominates: FxHashSet<(ValueId, InstId)> = dl.dominates.into_iter().collect();
    prop_assert_eq!(dominates, naive.dominates);
    let available: FxHashSet<(ValueId, BlockId)> = dl.available.into_iter().collect();
    prop_assert_eq!(available, naive.at_entry);
    Ok(())
}

/// Every operand and result slot is counted once.
fn check_use_counts(p: &Program) -> Result<(), TestCaseError> {
    let f = &p.functions[0];
    let a = Analysis::of(p);
    let fa = a.function(&f.name).unwrap();
    let mut slots = f.body.results.len();
    f.body.walk(&mut |inst, _| {
        slots += inst.operands.len();
        slots += inst
            .op
            .regions()
            .iter()
            .map(|r| r.results.len())
            .sum::<usize>();
    });
    let counted: usize = fa.facts().values().map(|(v, _)| fa.use_count(v)).sum();
    prop_assert_eq!(counted, slots);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn dominance_matches_a_naive_scope_walk(seed in any::<u64>(), budget in 1usize..60) {
        let p = crate::generate::scoped_program(seed, budget);
        prop_assert!(crate::verify(&p).is_ok(), "{}", crate::print(&p));
        check_dominance(&p)?;
        check_use_counts(&p)?;
    }

    #[test]
    fn analyses_do_not_panic_on_broken_programs(seed in any::<u64>(), junk in any::<u32>()) {
        let mut p = crate::generate::scoped_program(seed, 30);
        let body = &mut p.functions[0].body;
        if let Some(inst) = body.insts.last_mut() {
            inst.operands.push(ValueId(junk));
        }
        body.results.push(ValueId(junk));
        let a = Analysis::of(&p);
        prop_assert_eq!(a.functions().len(), 1);
    }
}

#[test]
fn all_analyses_scale_to_100k_instructions() {
    let n = 100_000;
    let p = crate::generate::loop_program(n);
    assert!(crate::verify(&p).is_ok());
    let start = std::time::Instant::now();
    let a = Analysis::of(&p);
    let elapsed = start.elapsed();
    eprintln!("analysed {} instructions in {elapsed:?}", p.num_insts());
    let f = a.function("big").unwrap();
    assert_eq!(p.num_insts(), n as usize - 3);
    assert!(a.is_pure_function("big"));
    assert_eq!(f.dead(), Vec::<InstId>::new());
    let invariant = f.loop_invariant();
    assert_eq!(invariant.len(), n as usize / 4);
    assert_eq!(invariant.first(), Some(&InstId(n / 2 + 3)));
    assert_eq!(invariant.last(), Some(&InstId(n / 2 + 3 + n / 4 - 1)));
    assert_eq!(f.use_count(ValueId(1)), 3);
    assert_eq!(f.use_count(ValueId(n - 1)), 1);
    assert!(f.dominates(ValueId(0), InstId(n - 1)));
    assert!(f.dominates(ValueId(2), InstId(n / 2 - 1)));
    assert!(!f.dominates(ValueId(n / 2 - 1), InstId(2)));
    assert!(!f.dominates(ValueId(n - 1), InstId(n)));
    assert!(!f.dominates(ValueId(n / 2 + 3), InstId(n / 2 + 2)));
}
