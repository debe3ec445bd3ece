//! Datalog analyses (ascent): purity, dominance, uses, dead code and loop invariance.
//!
//! These decide what the engines may share, move or delete: greedy CSE merges only pure ops
//! whose first definition dominates the others, DCE deletes only dead (pure, unused) ops, the
//! e-graph never merges impure ops, and lifting places values only where they are available
//! and hoists loop-invariant ones.
//!
//! The pipeline, per program:
//!
//! 1. [`FunctionFacts::of`] walks each function once: block tree, pre-order numbering,
//!    operands, callees, op kinds ([`facts`]).
//! 2. [`PurityProgram`] (whole program, call graph and recursion included) gives the pure
//!    instructions and functions ([`purity`]).
//! 3. [`SpeculationProgram`] (whole program too) gives the speculatable instructions and
//!    functions: those that cannot trap, terminate and are small ([`speculation`]). Pure is
//!    not speculatable: lifting hoists only the latter.
//! 4. Per function, [`UsesProgram`] gives use counts and dead instructions
//!    ([`uses`]) and [`LoopProgram`] the loop-invariant ones
//!    ([`loops`]), both from the facts and the pure set.
//! 5. Dominance needs no run: with the numbering it is an O(1) interval test on the facts
//!    ([`FunctionFacts::dominates`]), and [`DominanceProgram`] answers asked pairs in
//!    Datalog ([`dominance`]).
//!
//! Each Datalog program is a named `ascent!` struct with public relations, so a caller can
//! load the facts (`from_facts`), add its own, run it and read the relations; the wrappers
//! ([`Purity`], [`Uses`], [`LoopInvariance`], [`Analysis`]) turn the results into sets.
//!
//! **Architecture Invariant**: nothing here materializes a quadratic relation. Use counts,
//! liveness and purity are linear in the program; `reads` in [`LoopProgram`] is linear in the
//! program times the nesting depth; dominance is answered per asked pair. A 100k-instruction
//! block is analysed in well under a second.
//!
//! ```
//! use ptir_ir::analysis::Analysis;
//! use ptir_ir::{InstId, ValueId};
//! let p = ptir_ir::parse(
//!     "func @f(%0: f32[]) -> (f32[]) {\n  %1 = exp %0 : f32[]\n  %2 = neg %1 : f32[]\n  \
//!      %3 = rng uniform : f32[]\n  return %1\n}",
//! ).unwrap();
//! let a = Analysis::of(&p);
//! let f = a.function("f").unwrap();
//! assert!(f.is_pure(InstId(1)) && !f.is_pure(InstId(3)));
//! assert_eq!(f.dead(), vec![InstId(2)]);
//! assert_eq!(f.use_count(ValueId(1)), 2);
//! assert!(f.dominates(ValueId(1), InstId(2)));
//! assert!(!a.is_pure_function("f"));
//! ```

pub mod dominance;
pub mod facts;
pub mod loops;
pub mod purity;
mod recursion;
pub mod speculation;
pub mod trips;
pub mod uses;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod prop_tests;

pub use dominance::DominanceProgram;
pub use facts::{BlockFacts, BlockId, FunctionFacts, InstFacts, Pos, ValueFacts};
pub use loops::{LoopInvariance, LoopProgram};
pub use purity::{ExternId, FuncId, Purity, PurityProgram};
pub use recursion::{call_edges, recursive_functions};
pub use speculation::{Speculation, SpeculationProgram};
pub use uses::{Uses, UsesProgram};

use crate::program::{InstId, Program, ValueId};
use rustc_hash::FxHashSet;

/// Every analysis of a whole program.
///
/// See the [module docs](self) for an example.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    functions: Vec<FunctionAnalysis>,
    speculatable_functions: FxHashSet<String>,
}

impl Analysis {
    /// Runs every analysis on `program`.
    pub fn of(program: &Program) -> Analysis {
        let facts: Vec<FunctionFacts> = program.functions.iter().map(FunctionFacts::of).collect();
        let purity = Purity::of(program, &facts);
        let speculation = Speculation::of(program, &facts);
        let speculatable_functions = speculation
            .speculatable_functions(program)
            .into_iter()
            .map(str::to_string)
            .collect();
        let functions = facts
            .into_iter()
            .zip(&program.functions)
            .enumerate()
            .map(|(k, (facts, f))| {
                let id = FuncId(k as u32);
                let pure = purity.pure_insts(id).cloned().unwrap_or_default();
                FunctionAnalysis::new(f.name.clone(), facts, pure, purity.is_pure_function(id))
            })
            .collect();
        Analysis {
            functions,
            speculatable_functions,
        }
    }

    /// The analysis of the function named `name` (the first, if the name is duplicated).
    pub fn function(&self, name: &str) -> Option<&FunctionAnalysis> {
        self.functions.iter().find(|f| f.name == name)
    }

    /// The analyses of all functions, in the order of [`Program::functions`].
    pub fn functions(&self) -> &[FunctionAnalysis] {
        &self.functions
    }

    /// May calls of the function named `name` run where the input did not run them (false if
    /// there is none)? See [`speculation`].
    pub fn is_speculatable_function(&self, name: &str) -> bool {
        self.speculatable_functions.contains(name)
    }

    /// Is the function named `name` pure (false if there is none)?
    pub fn is_pure_function(&self, name: &str) -> bool {
        self.function(name).is_some_and(|f| f.pure_function)
    }
}

/// Every analysis of one function: facts, purity, uses, dead code, loop invariance, and
/// dominance queries. The facts and purity are computed with it; uses and loop invariance
/// the first time a decision asks for them ([`computed`](Self::computed) says which were),
/// so that a relation no decision reads is never computed: lowering into the e-graph reads
/// purity alone, `licm` loop invariance.
#[derive(Clone, Debug, Default)]
pub struct FunctionAnalysis {
    name: String,
    facts: FunctionFacts,
    pure: FxHashSet<InstId>,
    pure_function: bool,
    uses: std::sync::OnceLock<Uses>,
    loops: std::sync::OnceLock<LoopInvariance>,
}

impl FunctionAnalysis {
    /// Runs the per-function analyses, given the facts and the pure instructions (from a
    /// whole-program [`Purity`]).
    pub fn new(
        name: String,
        facts: FunctionFacts,
        pure: FxHashSet<InstId>,
        pure_function: bool,
    ) -> FunctionAnalysis {
        FunctionAnalysis {
            name,
            facts,
            pure,
            pure_function,
            uses: std::sync::OnceLock::new(),
            loops: std::sync::OnceLock::new(),
        }
    }

    /// The relations computed so far, by name (`facts`, `purity`, then `uses` and
    /// `loop-invariance` once asked for).
    ///
    /// ```
    /// let p = ptir_ir::parse("func @f(%x: f32[]) -> (f32[]) {\n  %y = neg %x : f32[]\n  return %y\n}").unwrap();
    /// let a = ptir_ir::Analysis::of(&p);
    /// let f = a.function("f").unwrap();
    /// assert_eq!(f.computed(), ["facts", "purity"]);
    /// assert_eq!(f.use_count(ptir_ir::ValueId(1)), 1);
    /// assert_eq!(f.computed(), ["facts", "purity", "uses"]);
    /// ```
    pub fn computed(&self) -> Vec<&'static str> {
        let mut out = vec!["facts", "purity"];
        if self.uses.get().is_some() {
            out.push("uses");
        }
        if self.loops.get().is_some() {
            out.push("loop-invariance");
        }
        out
    }

    fn uses(&self) -> &Uses {
        self.uses.get_or_init(|| Uses::of(&self.facts, &self.pure))
    }

    fn loops(&self) -> &LoopInvariance {
        (self.loops).get_or_init(|| LoopInvariance::of(&self.facts, &self.pure))
    }

    /// The function's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The facts the analyses ran on.
    pub fn facts(&self) -> &FunctionFacts {
        &self.facts
    }

    /// Is the function pure?
    pub fn is_pure_function(&self) -> bool {
        self.pure_function
    }

    /// Is instruction `i` pure (false if unknown)?
    pub fn is_pure(&self, i: InstId) -> bool {
        self.pure.contains(&i)
    }

    /// Does `def` dominate the instruction `user`? See [`FunctionFacts::dominates`].
    pub fn dominates(&self, def: ValueId, user: InstId) -> bool {
        self.facts.dominates(def, user)
    }

    /// Is `v` usable everywhere in `block`? See [`FunctionFacts::available_at`].
    pub fn available_at(&self, v: ValueId, block: BlockId) -> bool {
        self.facts.available_at(v, block)
    }

    /// May `block`'s results name `v`? See [`FunctionFacts::available_at_results`].
    pub fn available_at_results(&self, v: ValueId, block: BlockId) -> bool {
        self.facts.available_at_results(v, block)
    }

    /// How many operand and result slots name `v`.
    pub fn use_count(&self, v: ValueId) -> usize {
        self.uses().use_count(v)
    }

    /// Is `i` dead: pure, with a result that nothing live uses?
    pub fn is_dead(&self, i: InstId) -> bool {
        self.uses().is_dead(i)
    }

    /// The dead instructions, sorted.
    pub fn dead(&self) -> Vec<InstId> {
        self.uses().dead()
    }

    /// Is `i` loop invariant? See [`loops`].
    pub fn is_loop_invariant(&self, i: InstId) -> bool {
        self.loops().is_invariant(i)
    }

    /// The loop op a loop-invariant `i` may be hoisted out of.
    pub fn invariant_loop(&self, i: InstId) -> Option<InstId> {
        self.loops().loop_of(i)
    }

    /// The loop-invariant instructions, sorted.
    pub fn loop_invariant(&self) -> Vec<InstId> {
        self.loops().invariant()
    }
}
