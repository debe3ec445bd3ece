//! Purity and dominance: the two program facts the driver, CSE and DCE rely on.
//!
//! The Datalog analyses of `ptir_ir::analysis` (ascent) will compute these for both engines;
//! until they land, this module computes them directly, behind the small surface the rest of
//! the crate uses ([`ProgramContext::is_pure_callee`], [`Ir::is_pure`](crate::Ir::is_pure),
//! [`Ir::dominates`](crate::Ir::dominates)), so that switching is a change to this file only.
//!
//! - **Purity.** An op is pure if its kind is ([`OpKey::is_pure_kind`]), every op in its
//!   regions is, and a call's callee is. Callee purity is the greatest fixpoint over the call
//!   graph: every function starts pure and becomes impure when its body (regions included)
//!   holds `rng`, a call of an impure extern, a call of an impure function, or a call of an
//!   unknown name. So mutually recursive functions without side effects are pure, as the
//!   Datalog formulation (`impure` first, `pure` by negation) has it.
//! - **Dominance.** A value is available in its own block after its definition and in every
//!   region nested below that point; a region op does not dominate the ops in its own regions.

use indexmap::IndexMap;
use ptir_ir::{ExternDecl, Function, Op, OpKey, Program, Region, Signature};
use rustc_hash::FxHashSet;

/// What a rewrite of one function needs to know about the rest of the program: the externs,
/// the signatures of all functions (to verify calls) and which callees are pure.
///
/// ```
/// let p = ptir_ir::parse("
/// extern @noise(f32[2]) -> (f32[2]) impure
/// func @f(%x: f32[2]) -> (f32[2]) {
///   %y = call @noise(%x) : f32[2]
///   return %y
/// }
/// func @g(%x: f32[2]) -> (f32[2]) {
///   %y = neg %x : f32[2]
///   return %y
/// }
/// ").unwrap();
/// let cx = ptir_greedy::ProgramContext::new(&p);
/// assert!(!cx.is_pure_callee("f"));
/// assert!(cx.is_pure_callee("g"));
/// ```
#[derive(Clone, Debug, Default)]
pub struct ProgramContext {
    externs: Vec<ExternDecl>,
    signatures: IndexMap<String, Signature>,
    impure: FxHashSet<String>,
}

impl ProgramContext {
    /// Collects the facts of `program`.
    pub fn new(program: &Program) -> Self {
        let signatures = program
            .functions
            .iter()
            .map(|f| {
                let sig = Signature {
                    params: f.param_types(),
                    results: f.result_types.clone(),
                };
                (f.name.clone(), sig)
            })
            .collect();
        ProgramContext {
            externs: program.externs.clone(),
            signatures,
            impure: impure_functions(program),
        }
    }

    /// Is a call of `name` free of side effects? Unknown names are not.
    pub fn is_pure_callee(&self, name: &str) -> bool {
        match self.externs.iter().find(|e| e.name == name) {
            Some(e) => e.pure,
            None => self.signatures.contains_key(name) && !self.impure.contains(name),
        }
    }

    /// The signature of function `name` of the program.
    pub fn signature(&self, name: &str) -> Option<&Signature> {
        self.signatures.get(name)
    }

    /// The declared externs.
    pub fn externs(&self) -> &[ExternDecl] {
        &self.externs
    }

    /// A program holding `f` alone, the other functions declared as externs with their
    /// signatures, so that `ptir_ir::verify` can check `f` with its calls.
    pub(crate) fn program_with(&self, f: Function) -> Program {
        let mut externs = self.externs.clone();
        for (name, sig) in &self.signatures {
            if *name != f.name && !externs.iter().any(|e| e.name == *name) {
                externs.push(ExternDecl {
                    name: name.clone(),
                    signature: Some(sig.clone()),
                    pure: !self.impure.contains(name),
                });
            }
        }
        Program {
            externs,
            functions: vec![f],
        }
    }
}

/// Is an op of this kind pure by itself, given the purity of callees? (Regions are the
/// caller's business.)
pub(crate) fn op_is_pure(op: &Op, cx: &ProgramContext) -> bool {
    match op {
        Op::Call { callee } => cx.is_pure_callee(callee),
        Op::Cond { .. } | Op::While { .. } | Op::Scan { .. } => true,
        _ => op.key().is_pure_kind(),
    }
}

/// The functions that are not pure: the greatest fixpoint described in the module docs.
fn impure_functions(program: &Program) -> FxHashSet<String> {
    let pure_externs: FxHashSet<&str> = program
        .externs
        .iter()
        .filter(|e| e.pure)
        .map(|e| e.name.as_str())
        .collect();
    let known: FxHashSet<&str> = program.functions.iter().map(|f| f.name.as_str()).collect();
    let mut impure: FxHashSet<String> = FxHashSet::default();
    loop {
        let before = impure.len();
        for f in &program.functions {
            if impure.contains(&f.name) {
                continue;
            }
            let callee_ok =
                |c: &str| pure_externs.contains(c) || (known.contains(c) && !impure.contains(c));
            if !region_is_pure(&f.body, &callee_ok) {
                impure.insert(f.name.clone());
            }
        }
        if impure.len() == before {
            return impure;
        }
    }
}

fn region_is_pure(r: &Region, callee_ok: &impl Fn(&str) -> bool) -> bool {
    let mut pure = true;
    r.walk(&mut |inst, _| {
        pure &= match &inst.op {
            Op::Call { callee } => callee_ok(callee),
            op => op.key() != OpKey::Rng,
        };
    });
    pure
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn purity_is_a_fixpoint_over_the_call_graph() {
        let p = ptir_ir::parse(
            "extern @noise(f32[2]) -> (f32[2]) impure
func @a(%x: f32[2]) -> (f32[2]) {
  %y = call @b(%x) : f32[2]
  return %y
}
func @b(%x: f32[2]) -> (f32[2]) {
  %y = call @a(%x) : f32[2]
  return %y
}
func @c(%x: f32[2]) -> (f32[2]) {
  %y = call @a(%x) : f32[2]
  %z = call @noise(%y) : f32[2]
  return %z
}
func @d(%x: f32[2]) -> (f32[2]) {
  %y = call @c(%x) : f32[2]
  return %y
}
func @e(%x: f32[2]) -> (f32[2]) {
  %r = rng uniform : f32[2]
  return %r
}
",
        )
        .unwrap();
        let cx = ProgramContext::new(&p);
        assert!(cx.is_pure_callee("a") && cx.is_pure_callee("b"));
        assert!(!cx.is_pure_callee("c") && !cx.is_pure_callee("d"));
        assert!(!cx.is_pure_callee("e") && !cx.is_pure_callee("nowhere"));
    }
}
