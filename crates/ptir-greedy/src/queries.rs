//! Purity and dominance, the two program facts CSE and DCE rely on, behind one small trait
//! ([`Facts`]) with two sources.
//!
//! - [`Live`]: the rewriter's own answers ([`Ir::is_pure`], [`Ir::dominates`]), always
//!   current. The greedy driver, CSE and DCE use these: patterns insert and move
//!   instructions (a static numbering is stale after the first rewrite), and the Datalog run
//!   costs more than the whole canonicalization of a large function (about 1.1 s for facts
//!   and purity at a million instructions, against a pass budget of 0.4 s), and more than
//!   CSE or DCE themselves.
//! - `Datalog` (tests): the analyses of [`ptir_ir::analysis`] (ascent), computed on the
//!   program before a pass. CSE and DCE only erase instructions and rewire uses to values
//!   that dominate them, so the pre-order numbering and the purity of the surviving
//!   instructions stay exact for the whole pass: a test runs both passes with either source
//!   on generated programs and requires the same output.
//!
//! Dominance: a value is available in its own block after its definition and in every region
//! nested below that point; a region op does not dominate the ops in its own regions.

use crate::ir::Ir;
#[cfg(test)]
use ptir_ir::analysis::{FuncId, FunctionFacts, Purity};
#[cfg(test)]
use ptir_ir::Program;
use ptir_ir::{InstId, ValueId};
#[cfg(test)]
use rustc_hash::FxHashSet;

/// Purity and dominance, as a pass asks for them.
pub(crate) trait Facts {
    /// Is instruction `i` free of side effects (regions and callees included)?
    fn is_pure(&self, ir: &Ir<'_>, i: InstId) -> bool;
    /// Is `v` available at instruction `at`?
    fn dominates(&self, ir: &Ir<'_>, v: ValueId, at: InstId) -> bool;
}

/// The rewriter's own, always current answers.
pub(crate) struct Live;

impl Facts for Live {
    fn is_pure(&self, ir: &Ir<'_>, i: InstId) -> bool {
        ir.is_pure(i)
    }
    fn dominates(&self, ir: &Ir<'_>, v: ValueId, at: InstId) -> bool {
        ir.dominates(v, at)
    }
}

/// The Datalog analyses of one function, computed before the pass.
#[cfg(test)]
pub(crate) struct Datalog {
    facts: FunctionFacts,
    pure: FxHashSet<InstId>,
}

#[cfg(test)]
impl Facts for Datalog {
    fn is_pure(&self, _: &Ir<'_>, i: InstId) -> bool {
        self.pure.contains(&i)
    }
    fn dominates(&self, _: &Ir<'_>, v: ValueId, at: InstId) -> bool {
        self.facts.dominates(v, at)
    }
}

/// Runs the facts and purity analyses of `ptir_ir::analysis` on `program`; one [`Datalog`]
/// per function, in order.
#[cfg(test)]
pub(crate) fn datalog(program: &Program) -> Vec<Datalog> {
    let facts: Vec<FunctionFacts> = program.functions.iter().map(FunctionFacts::of).collect();
    let purity = Purity::of(program, &facts);
    facts
        .into_iter()
        .enumerate()
        .map(|(k, facts)| Datalog {
            pure: purity
                .pure_insts(FuncId(k as u32))
                .cloned()
                .unwrap_or_default(),
            facts,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cse_and_dce_do_the_same_with_live_and_datalog_facts() {
        use crate::passes::{cse, rewrite_functions};
        use crate::rewriter::ProgramRewriter;
        use ptir_ir::generate::{generate, GenConfig};
        type Run = fn(&mut ProgramRewriter<'_>, &dyn Facts) -> usize;
        let passes: [(&str, Run); 2] = [("cse", cse::eliminate), ("dce", crate::dead::sweep_with)];
        let mut erased = 0;
        for seed in 0..150 {
            let p = generate(&GenConfig::new(seed, 40));
            for (name, pass) in passes {
                let mut live = p.clone();
                let n = rewrite_functions(&mut live, |_, rw| Ok(pass(rw, &Live))).unwrap();
                erased += n.iter().sum::<usize>();
                let mut dl = p.clone();
                let facts = datalog(&dl);
                rewrite_functions(&mut dl, |k, rw| Ok(pass(rw, &facts[k]))).unwrap();
                assert_eq!(live, dl, "{name}, seed {seed}");
            }
        }
        assert!(erased > 0, "the generated programs exercise neither pass");
    }
}
