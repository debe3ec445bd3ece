//! `--explain` in the facade: the engines' provenance ([`Provenance`], kept by the pass
//! pipeline) carried through what `optimize` does after the pipeline (restored extern
//! definitions, injected definitions, outlining, legalization, renumbering), and turned into
//! the report's [`FunctionExplanation`]s.

use crate::report::{FunctionExplanation, OpExplanation};
use ptir_ir::{Function, Instruction, Program, ValueId};
use ptir_rules::explain::{Chain, Provenance};
use rustc_hash::FxHashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// A hash of the op (attributes included) and type of every instruction of every function,
/// to see afterwards what a step after the pipeline changed ([`Snapshot::mark_changes`]).
pub(crate) struct Snapshot(FxHashMap<String, FxHashMap<ValueId, u64>>);

/// What [`Snapshot`] keeps of an instruction.
fn fingerprint(i: &Instruction) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    i.op.hash(&mut h);
    i.ty.hash(&mut h);
    h.finish()
}

impl Snapshot {
    /// The op kinds of `program`'s instructions.
    pub(crate) fn of(program: &Program) -> Self {
        let functions = program
            .functions
            .iter()
            .map(|f| {
                let mut kinds = FxHashMap::default();
                f.body.walk(&mut |i, _| {
                    kinds.insert(i.result, fingerprint(i));
                });
                (f.name.clone(), kinds)
            })
            .collect();
        Snapshot(functions)
    }

    /// Appends `step` to the chain of every instruction of `program` that is new since the
    /// snapshot or has another op, attributes or type (an outlined call, a legalized op): the
    /// ops a step after the pipeline made. (A new op is not told from which op it was
    /// expanded: its chain is the step alone.)
    pub(crate) fn mark_changes(&self, program: &Program, step: &str, provenance: &mut Provenance) {
        let step: Arc<str> = Arc::from(step);
        for f in &program.functions {
            let before = self.0.get(&f.name);
            let chains = provenance.function_mut(&f.name);
            f.body.walk(&mut |i, _| {
                if before.and_then(|b| b.get(&i.result)) != Some(&fingerprint(i)) {
                    chains.entry(i.result).or_default().push(step.clone());
                }
            });
        }
    }
}

/// Marks every instruction of function `f` as made by `step` (a definition the output gained
/// from a rule file).
pub(crate) fn mark_function(f: &Function, step: &str, provenance: &mut Provenance) {
    let chain = Chain::default().then(Arc::from(step));
    let chains = provenance.function_mut(&f.name);
    chains.clear();
    f.body.walk(&mut |i, _| {
        chains.insert(i.result, chain.clone());
    });
}

/// One entry per instruction of every function of `program`, in pre-order, with its chain
/// (value names are filled in by [`name_values`] once the program is renumbered).
pub(crate) fn explanations(program: &Program, provenance: &Provenance) -> Vec<FunctionExplanation> {
    let none = Chain::default();
    program
        .functions
        .iter()
        .map(|f| {
            let mut ops = Vec::new();
            f.body.walk(&mut |i, _| {
                let chain = provenance.chain(&f.name, i.result).unwrap_or(&none);
                ops.push(OpExplanation {
                    index: ops.len(),
                    value: i.result.to_string(),
                    op: i.op.name().to_string(),
                    rules: chain.rules().map(str::to_string).collect(),
                    elided: chain.elided(),
                });
            });
            FunctionExplanation {
                function: f.name.clone(),
                ops,
            }
        })
        .collect()
}

/// Gives each entry its value's name in `program` (the same program renumbered: the same
/// instructions in the same order).
pub(crate) fn name_values(explanations: &mut [FunctionExplanation], program: &Program) {
    for (e, f) in explanations.iter_mut().zip(&program.functions) {
        let mut k = 0;
        f.body.walk(&mut |i, _| {
            if let Some(op) = e.ops.get_mut(k) {
                op.value = i.result.to_string();
            }
            k += 1;
        });
    }
}
