//! Speculation: which instructions and functions may run where the input did not run them.
//!
//! Purity ([`super::purity`]) says an op may be *shared or deleted*: it has no side effect.
//! It does not say an op may be *executed more often*: a pure integer division traps on a zero
//! divisor, a pure `while` may never terminate, a pure call may do either in its body, and a
//! pure 25M-element broadcast costs 100 MB whether or not its branch is taken. Moving such an
//! op out of a `cond` branch, or out of a loop body that may run zero times, changes what the
//! program does. **Pure is not speculatable.**
//!
//! An instruction is *speculatable* when it cannot trap, terminates, and has a bounded result:
//!
//! - by itself ([`hazard`]): integer `div` / `rem` may trap, `while` may not terminate, `rng`
//!   is a side effect, and a result larger than [`SPECULATION_BYTE_LIMIT`] is too costly to
//!   compute where it is not needed;
//! - a `call` is speculatable when its callee is a function all of whose instructions are,
//!   and the callee cannot recurse (recursion may not terminate). Calls to externs and to
//!   unknown names are not: nothing is known of their bodies;
//! - a region op (`cond`, `scan`) is speculatable when everything in its regions is.
//!
//! Like purity, this is a fixpoint over the call graph, written as the least fixpoint of the
//! opposite (*hazardous*) and negated afterwards ([`SpeculationProgram`]). Recursion is found
//! from the call graph's strongly connected components (`analysis/recursion.rs`), linear in the
//! calls.
//!
//! **Architecture Invariant** (enforced by the e-graph's lifting, `ptir-egraph/src/lift.rs`):
//! a value that is not speculatable is never placed where it would run in more executions
//! than in the input. Speculatable values may be hoisted (loop-invariant code motion).

use super::facts::FunctionFacts;
use super::purity::{ExternId, FuncId};
use crate::ops::{BinaryOp, OpKey};
use crate::program::{InstId, Instruction, Program};
use crate::types::Type;
use rustc_hash::{FxHashMap, FxHashSet};

/// The largest result, in bytes, that may be computed speculatively: 16 MiB (4M `f32`
/// elements). Without it, hoisting a broadcast out of a branch that is rarely taken would
/// allocate its result on every run; with absurd shapes it would exhaust memory.
pub const SPECULATION_BYTE_LIMIT: usize = 1 << 24;

/// Can an op of kind `key` with result type `ty` trap, fail to terminate, or cost more than
/// [`SPECULATION_BYTE_LIMIT`] by itself, whatever its callee and regions hold?
///
/// `ty` is the result type (the dtype of an integer division is its operands'); `None` when
/// unknown, which is treated as hazardous only for the kinds that depend on it.
///
/// ```
/// use ptir_ir::analysis::speculation::hazard;
/// use ptir_ir::{BinaryOp, DType, OpKey, TensorType, Type};
/// let i32s = Type::Tensor(TensorType::new(DType::I32, vec![4]));
/// let f32s = Type::Tensor(TensorType::new(DType::F32, vec![4]));
/// assert!(hazard(OpKey::Binary(BinaryOp::Div), Some(&i32s)));
/// assert!(!hazard(OpKey::Binary(BinaryOp::Div), Some(&f32s)));
/// assert!(hazard(OpKey::While, Some(&f32s)));
/// ```
pub fn hazard(key: OpKey, ty: Option<&Type>) -> bool {
    let int_result = || match ty {
        Some(Type::Tensor(t)) => !t.dtype.is_float(),
        _ => true,
    };
    let kind = match key {
        OpKey::Binary(BinaryOp::Div | BinaryOp::Rem) => int_result(),
        OpKey::While => true,
        key if super::purity::impure_by_itself(key) => true,
        _ => false,
    };
    kind || ty.is_some_and(|t| t.size_bytes() > SPECULATION_BYTE_LIMIT)
}

/// [`hazard`] of an instruction.
pub fn inst_hazard(inst: &Instruction) -> bool {
    hazard(inst.op.key(), Some(&inst.ty))
}

#[allow(missing_docs)]
mod program {
    use super::{ExternId, FuncId};
    use crate::program::InstId;

    ascent::ascent! {
        /// Speculatable instructions and functions of a whole program (see the module docs).
        pub struct SpeculationProgram;

        // Facts:

        /// Every function.
        relation function(FuncId);
        /// Every instruction, nested ones included.
        relation inst(FuncId, InstId);
        /// Instructions that are hazardous by themselves ([`super::hazard`]).
        relation hazard(FuncId, InstId);
        /// `nested(f, c, op)`: `c` is directly in a region of the region op `op`.
        relation nested(FuncId, InstId, InstId);
        /// `calls_function(f, i, g)`: `i` calls function `g`.
        relation calls_function(FuncId, InstId, FuncId);
        /// `calls_extern(f, i, e)`: `i` calls extern `e`.
        relation calls_extern(FuncId, InstId, ExternId);
        /// Calls of names that are neither a function nor an extern.
        relation calls_unknown(FuncId, InstId);
        /// Functions that can reach themselves through calls (they may not terminate).
        relation recursive(FuncId);

        // Rules:

        /// Instructions that may trap, diverge or be too large, directly, through a callee or
        /// in a region.
        relation hazardous(FuncId, InstId);

        hazardous(f, i) <-- hazard(f, i);
        hazardous(f, i) <-- calls_extern(f, i, _);
        hazardous(f, i) <-- calls_unknown(f, i);
        hazardous(f, i) <-- hazardous_function(g), calls_function(f, i, g);
        hazardous(f, op) <-- hazardous(f, c), nested(f, c, op);

        /// Functions with a hazardous instruction, or that may recurse.
        relation hazardous_function(FuncId);

        hazardous_function(f) <-- hazardous(f, _);
        hazardous_function(f) <-- recursive(f);

        /// Instructions that may run where the input did not run them.
        relation speculatable(FuncId, InstId);

        speculatable(f, i) <-- inst(f, i), !hazardous(f, i);

        /// Functions whose calls are speculatable.
        relation speculatable_function(FuncId);

        speculatable_function(f) <-- function(f), !hazardous_function(f);
    }
}

pub use program::SpeculationProgram;

impl SpeculationProgram {
    /// A program loaded with the facts of `program`, whose functions' facts are `facts` (in
    /// the order of [`Program::functions`]).
    pub fn from_facts(program: &Program, facts: &[FunctionFacts]) -> SpeculationProgram {
        let mut dl = SpeculationProgram::default();
        let externs: FxHashMap<&str, ExternId> = program
            .externs
            .iter()
            .enumerate()
            .map(|(e, d)| (d.name.as_str(), ExternId(e as u32)))
            .collect();
        let functions: FxHashMap<&str, FuncId> = program
            .functions
            .iter()
            .enumerate()
            .rev()
            .map(|(f, d)| (d.name.as_str(), FuncId(f as u32)))
            .collect();
        let recursive = super::recursion::recursive_functions(program);
        for (f, (ff, func)) in facts.iter().zip(&program.functions).enumerate() {
            let f = FuncId(f as u32);
            dl.function.push((f,));
            if recursive.contains(func.name.as_str()) {
                dl.recursive.push((f,));
            }
            let mut hazards = FxHashSet::default();
            func.body.walk(&mut |i, _| {
                if inst_hazard(i) {
                    hazards.insert(i.id());
                }
            });
            for i in ff.insts() {
                dl.inst.push((f, i.id));
                if hazards.contains(&i.id) {
                    dl.hazard.push((f, i.id));
                }
                if let Some(owner) = ff.block(i.block).and_then(|b| b.owner) {
                    dl.nested.push((f, i.id, owner));
                }
                let Some(callee) = i.callee.as_deref() else {
                    continue;
                };
                match (functions.get(callee), externs.get(callee)) {
                    (Some(g), _) => dl.calls_function.push((f, i.id, *g)),
                    (None, Some(e)) => dl.calls_extern.push((f, i.id, *e)),
                    (None, None) => dl.calls_unknown.push((f, i.id)),
                }
            }
        }
        dl
    }
}

/// The speculatable instructions and functions of a whole program, as sets.
///
/// ```
/// use ptir_ir::analysis::{FuncId, FunctionFacts, Speculation};
/// use ptir_ir::InstId;
/// let p = ptir_ir::parse(
///     "func @safe(%0: i32[]) -> (i32[]) {\n  %1 = add %0, %0 : i32[]\n  return %1\n}\n\
///      func @traps(%0: i32[]) -> (i32[]) {\n  %1 = div %0, %0 : i32[]\n  return %1\n}\n\
///      func @loops(%0: i32[]) -> (i32[]) {\n  %1 = call @loops(%0) : i32[]\n  return %1\n}",
/// ).unwrap();
/// let facts: Vec<_> = p.functions.iter().map(FunctionFacts::of).collect();
/// let s = Speculation::of(&p, &facts);
/// assert!(s.is_speculatable_function(FuncId(0)));
/// assert!(!s.is_speculatable_function(FuncId(1)));   // may divide by zero
/// assert!(!s.is_speculatable_function(FuncId(2)));   // may not terminate
/// assert!(!s.is_speculatable(FuncId(1), InstId(1)));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Speculation {
    functions: Vec<bool>,
    insts: Vec<FxHashSet<InstId>>,
}

impl Speculation {
    /// Runs [`SpeculationProgram`] on `program`, whose functions' facts are `facts`.
    pub fn of(program: &Program, facts: &[FunctionFacts]) -> Speculation {
        let mut dl = SpeculationProgram::from_facts(program, facts);
        dl.run();
        let mut s = Speculation {
            functions: vec![false; facts.len()],
            insts: vec![FxHashSet::default(); facts.len()],
        };
        for (f,) in dl.speculatable_function {
            s.functions[f.0 as usize] = true;
        }
        for (f, i) in dl.speculatable {
            s.insts[f.0 as usize].insert(i);
        }
        s
    }

    /// May calls of function `f` run speculatively? (False for an unknown function.)
    pub fn is_speculatable_function(&self, f: FuncId) -> bool {
        self.functions.get(f.0 as usize).copied().unwrap_or(false)
    }

    /// May instruction `i` of function `f` run speculatively? (False if unknown.)
    pub fn is_speculatable(&self, f: FuncId, i: InstId) -> bool {
        self.insts.get(f.0 as usize).is_some_and(|s| s.contains(&i))
    }

    /// The names of the functions of `program` whose calls may run speculatively.
    pub fn speculatable_functions<'p>(&self, program: &'p Program) -> Vec<&'p str> {
        program
            .functions
            .iter()
            .enumerate()
            .filter(|(k, _)| self.is_speculatable_function(FuncId(*k as u32)))
            .map(|(_, f)| f.name.as_str())
            .collect()
    }
}
