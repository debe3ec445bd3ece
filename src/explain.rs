//! `--explain` in the facade: the engines' provenance ([`Provenance`], kept by the pass
//! pipeline) carried through what `optimize` does after the pipeline (restored extern
//! definitions, injected definitions, outlining, legalization, renumbering), and turned into
//! the report's [`FunctionExplanation`]s.

use crate::report::{FunctionExplanation, OpExplanation};
use ptir_ir::{Function, Program};
use ptir_pass::explain::{Chain, Provenance};
use std::sync::Arc;

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
