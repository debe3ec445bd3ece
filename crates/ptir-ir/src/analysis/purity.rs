//! Purity: which instructions and functions have no side effects.
//!
//! An instruction is pure when its op kind is pure ([`OpKey::is_pure_kind`]), every
//! instruction in its regions is pure, and, for a `call`, the callee is pure. A function is
//! pure when all its instructions are. `rng` is impure, and so are calls to externs declared
//! `impure` and calls to names that are neither a function nor an extern.
//!
//! Purity of functions is a fixpoint over the call graph, recursion included: mutually
//! recursive functions with no impure instruction are pure. Ascent cannot negate inside a
//! recursive stratum, so [`PurityProgram`] computes the least fixpoint of *impurity* (an
//! instruction is impure if it is `rng`, calls something impure, or contains something
//! impure) and gets `pure` by negation afterwards. The least fixpoint of impurity is the
//! greatest fixpoint of purity, which is what makes recursion pure.
//!
//! Ascent evaluates a rule's clauses in the order written (only the first two may be swapped
//! by size), so every recursive rule here and in the other analyses starts with its
//! recursive relation: each iteration then joins only the new tuples, through an index,
//! instead of scanning a whole fact relation.
//!
//! Functions are named by their index in [`Program::functions`] ([`FuncId`]) and externs by
//! theirs in [`Program::externs`] ([`ExternId`]); instruction ids are only unique within a
//! function, so instruction columns are `(FuncId, InstId)`.

use super::facts::FunctionFacts;
use crate::ops::OpKey;
use crate::program::{InstId, Program};
use rustc_hash::{FxHashMap, FxHashSet};

/// A function: its index in [`Program::functions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncId(pub u32);

/// A declared extern: its index in [`Program::externs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExternId(pub u32);

/// Is an op of this kind impure whatever its operands, callee and regions (`rng`)?
pub fn impure_by_itself(key: OpKey) -> bool {
    !key.is_pure_kind() && !matches!(key, OpKey::Call | OpKey::Cond | OpKey::While | OpKey::Scan)
}

#[allow(missing_docs)]
mod program {
    use super::{impure_by_itself, ExternId, FuncId};
    use crate::ops::OpKey;
    use crate::program::InstId;

    ascent::ascent! {
        /// Purity of instructions and functions of a whole program (see the module docs).
        pub struct PurityProgram;

        // Facts:

        /// Every function.
        relation function(FuncId);
        /// Every instruction, nested ones included.
        relation inst(FuncId, InstId);
        /// `op_kind(f, i, k)`: instruction `i` of `f` is a `k`.
        relation op_kind(FuncId, InstId, OpKey);
        /// `nested(f, c, op)`: `c` is directly in a region of the region op `op`.
        relation nested(FuncId, InstId, InstId);
        /// `calls_function(f, i, g)`: `i` calls function `g`.
        relation calls_function(FuncId, InstId, FuncId);
        /// `calls_extern(f, i, e)`: `i` calls extern `e`.
        relation calls_extern(FuncId, InstId, ExternId);
        /// Externs declared `impure`.
        relation impure_extern(ExternId);
        /// Calls of names that are neither a function nor an extern.
        relation calls_unknown(FuncId, InstId);

        // Rules:

        /// Instructions with a side effect, directly, through a callee or in a region.
        relation impure(FuncId, InstId);

        impure(f, i) <-- op_kind(f, i, k), if impure_by_itself(*k);
        impure(f, i) <-- calls_extern(f, i, e), impure_extern(e);
        impure(f, i) <-- calls_unknown(f, i);
        impure(f, i) <-- impure_function(g), calls_function(f, i, g);
        impure(f, op) <-- impure(f, c), nested(f, c, op);

        /// Functions with an impure instruction.
        relation impure_function(FuncId);

        impure_function(f) <-- impure(f, _);

        /// Instructions without side effects.
        relation pure(FuncId, InstId);

        pure(f, i) <-- inst(f, i), !impure(f, i);

        /// Functions all of whose instructions are pure.
        relation pure_function(FuncId);

        pure_function(f) <-- function(f), !impure_function(f);
    }
}

pub use program::PurityProgram;

/// What a callee name refers to.
#[derive(Clone, Copy)]
enum Callee {
    Function(FuncId),
    Extern(ExternId),
}

impl PurityProgram {
    /// A program loaded with the facts of `program`, whose functions' facts are `facts` (in
    /// the order of [`Program::functions`]).
    pub fn from_facts(program: &Program, facts: &[FunctionFacts]) -> PurityProgram {
        let mut dl = PurityProgram::default();
        let callees = callee_names(program);
        for (e, decl) in program.externs.iter().enumerate() {
            if !decl.pure {
                dl.impure_extern.push((ExternId(e as u32),));
            }
        }
        for (f, ff) in facts.iter().enumerate() {
            let f = FuncId(f as u32);
            dl.function.push((f,));
            for i in ff.insts() {
                dl.inst.push((f, i.id));
                dl.op_kind.push((f, i.id, i.key));
                if let Some(owner) = ff.block(i.block).and_then(|b| b.owner) {
                    dl.nested.push((f, i.id, owner));
                }
                match i.callee.as_deref().map(|c| callees.get(c)) {
                    None => {}
                    Some(Some(Callee::Function(g))) => dl.calls_function.push((f, i.id, *g)),
                    Some(Some(Callee::Extern(e))) => dl.calls_extern.push((f, i.id, *e)),
                    Some(None) => dl.calls_unknown.push((f, i.id)),
                }
            }
        }
        dl
    }
}

/// Callee name -> what it names; a function shadows an extern of the same name, and the
/// first of duplicates wins (the verifier rejects both).
fn callee_names(program: &Program) -> FxHashMap<&str, Callee> {
    let mut names = FxHashMap::default();
    for (e, decl) in program.externs.iter().enumerate() {
        names
            .entry(decl.name.as_str())
            .or_insert(Callee::Extern(ExternId(e as u32)));
    }
    for (f, func) in program.functions.iter().enumerate().rev() {
        names.insert(func.name.as_str(), Callee::Function(FuncId(f as u32)));
    }
    names
}

/// The purity of a whole program, as sets.
///
/// ```
/// use ptir_ir::analysis::{FuncId, FunctionFacts, Purity};
/// use ptir_ir::InstId;
/// let p = ptir_ir::parse(
///     "func @f(%0: f32[]) -> (f32[]) {\n  %1 = rng uniform : f32[]\n  %2 = exp %0 : f32[]\n  \
///      return %2\n}",
/// ).unwrap();
/// let facts: Vec<_> = p.functions.iter().map(FunctionFacts::of).collect();
/// let purity = Purity::of(&p, &facts);
/// assert!(!purity.is_pure_function(FuncId(0)));
/// assert!(purity.is_pure(FuncId(0), InstId(2)));
/// assert!(!purity.is_pure(FuncId(0), InstId(1)));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Purity {
    /// Per function (by index): is it pure?
    functions: Vec<bool>,
    /// Per function (by index): its pure instructions.
    insts: Vec<FxHashSet<InstId>>,
}

impl Purity {
    /// Runs [`PurityProgram`] on `program`, whose functions' facts are `facts`.
    pub fn of(program: &Program, facts: &[FunctionFacts]) -> Purity {
        let mut dl = PurityProgram::from_facts(program, facts);
        dl.run();
        let mut purity = Purity {
            functions: vec![false; facts.len()],
            insts: vec![FxHashSet::default(); facts.len()],
        };
        for (f,) in dl.pure_function {
            purity.functions[f.0 as usize] = true;
        }
        for (f, i) in dl.pure {
            purity.insts[f.0 as usize].insert(i);
        }
        purity
    }

    /// Is function `f` pure? (False for an unknown function.)
    pub fn is_pure_function(&self, f: FuncId) -> bool {
        self.functions.get(f.0 as usize).copied().unwrap_or(false)
    }

    /// Is instruction `i` of function `f` pure? (False if unknown.)
    pub fn is_pure(&self, f: FuncId, i: InstId) -> bool {
        self.insts.get(f.0 as usize).is_some_and(|s| s.contains(&i))
    }

    /// The pure instructions of function `f` (`None` for an unknown function).
    pub fn pure_insts(&self, f: FuncId) -> Option<&FxHashSet<InstId>> {
        self.insts.get(f.0 as usize)
    }
}
