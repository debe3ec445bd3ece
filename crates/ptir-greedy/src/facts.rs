//! What a rewrite of one function needs to know about the rest of the program
//! ([`ProgramContext`]: externs, signatures, which callees are pure) and the purity of an op
//! in it ([`op_is_pure`]).
//!
//! An op is pure if its kind is ([`OpKey::is_pure_kind`]), every op in its regions is, and a
//! call's callee is. [`ProgramContext`] computes callee purity as the greatest fixpoint over
//! the call graph (every function starts pure and becomes impure when its body holds `rng`, a
//! call of an impure extern, a call of an impure function, or a call of an unknown name),
//! which is what the Datalog formulation (`impure` first, `pure` by negation) gives; a test
//! holds the two to agreeing on generated programs. How a pass asks for purity and dominance
//! is `crate::queries`'.
//!
//! [`OpKey::is_pure_kind`]: ptir_ir::OpKey::is_pure_kind

use indexmap::IndexMap;
use ptir_ir::{ExternDecl, Function, Op, Program, Signature, ValueId};
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
    duplicates: IndexMap<String, ValueId>,
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
        let (impure, duplicates) = analyze(program);
        ProgramContext {
            externs: program.externs.clone(),
            signatures,
            impure,
            duplicates,
        }
    }

    /// Is a call of `name` free of side effects? Unknown names are not.
    pub fn is_pure_callee(&self, name: &str) -> bool {
        match self.externs.iter().find(|e| e.name == name) {
            Some(e) => e.pure,
            None => self.signatures.contains_key(name) && !self.impure.contains(name),
        }
    }

    /// A value that function `name` defines twice (then it does not verify, and a rewriter
    /// refuses it), if any.
    pub fn duplicate_definition(&self, name: &str) -> Option<ValueId> {
        self.duplicates.get(name).copied()
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

/// What one walk of a function finds.
struct Walked {
    has_rng: bool,
    callees: Vec<String>,
    /// A value defined twice (the function does not verify), if any.
    duplicate: Option<ValueId>,
}

fn walk_function(f: &Function) -> Walked {
    let mut seen: Vec<bool> = Vec::new();
    let mut facts = Walked {
        has_rng: false,
        callees: Vec::new(),
        duplicate: None,
    };
    let mut define = |v: ValueId, facts: &mut Walked| {
        let i = v.0 as usize;
        if seen.len() <= i {
            seen.resize(i + 1, false);
        }
        if std::mem::replace(&mut seen[i], true) && facts.duplicate.is_none() {
            facts.duplicate = Some(v);
        }
    };
    f.body.params.iter().for_each(|p| define(p.id, &mut facts));
    f.body.walk(&mut |inst, _| {
        define(inst.result, &mut facts);
        match &inst.op {
            Op::Call { callee } if !facts.callees.contains(callee) => {
                facts.callees.push(callee.clone())
            }
            op if ptir_ir::analysis::purity::impure_by_itself(op.key()) => facts.has_rng = true,
            Op::Cond { .. } | Op::While { .. } | Op::Scan { .. } => {
                for r in inst.op.regions() {
                    r.params.iter().for_each(|p| define(p.id, &mut facts));
                }
            }
            _ => {}
        }
    });
    facts
}

/// The functions that are not pure (the greatest fixpoint described in the module docs) and
/// the functions defining a value twice.
fn analyze(program: &Program) -> (FxHashSet<String>, IndexMap<String, ValueId>) {
    let facts: Vec<Walked> = program.functions.iter().map(walk_function).collect();
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
        for (f, facts) in program.functions.iter().zip(&facts) {
            let callee_ok = |c: &String| {
                pure_externs.contains(c.as_str())
                    || (known.contains(c.as_str()) && !impure.contains(c))
            };
            if !impure.contains(&f.name) && (facts.has_rng || !facts.callees.iter().all(callee_ok))
            {
                impure.insert(f.name.clone());
            }
        }
        if impure.len() == before {
            break;
        }
    }
    let duplicates = program
        .functions
        .iter()
        .zip(&facts)
        .filter_map(|(f, x)| Some((f.name.clone(), x.duplicate?)))
        .collect();
    (impure, duplicates)
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

    #[test]
    fn callee_purity_agrees_with_the_datalog_analysis() {
        use ptir_ir::generate::{generate, GenConfig};
        for seed in 0..100 {
            let p = generate(&GenConfig::new(seed, 40));
            let cx = ProgramContext::new(&p);
            let a = ptir_ir::analysis::Analysis::of(&p);
            for f in &p.functions {
                assert_eq!(
                    cx.is_pure_callee(&f.name),
                    a.is_pure_function(&f.name),
                    "seed {seed}"
                );
            }
        }
    }
}
