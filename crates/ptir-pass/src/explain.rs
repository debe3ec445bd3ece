//! Where each op came from: the rule chains behind `--explain`, shared by both engines.
//!
//! A [`Chain`] is the ordered list of rule names (and the engines' own steps: `fold`, `cse`)
//! that derived one value from the input, oldest first; an empty chain means the value's op is
//! an input op carried through. [`Provenance`] keeps the chain of every derived value of every
//! function while a pass pipeline runs: a pass that keeps value ids (the greedy passes) updates
//! it in place, a pass that renumbers (saturation lifts a new function) reports one
//! [`Derivation`] per output value, relative to its input's values, which
//! [`Provenance::derive`] composes with what earlier passes recorded.
//!
//! Chains are bounded: only the last [`CHAIN_LIMIT`] steps are kept and the rest counted
//! ([`Chain::elided`]), so a value rewritten ten thousand times costs as much as one rewritten
//! [`CHAIN_LIMIT`] times.
//!
//! ```
//! use ptir_pass::explain::{Chain, Derivation, Provenance};
//! use ptir_ir::ValueId;
//! let mut p = Provenance::default();
//! p.function_mut("f").insert(ValueId(3), Chain::default().then("neg-neg".into()));
//! // A pass that renumbers: its %0 is the input's %3 rewritten by `abs-neg`.
//! p.derive("f", vec![Derivation {
//!     value: ValueId(0),
//!     base: Some(ValueId(3)),
//!     chain: Chain::default().then("abs-neg".into()),
//! }]);
//! let chain = p.chain("f", ValueId(0)).unwrap();
//! assert_eq!(chain.rules().collect::<Vec<_>>(), ["neg-neg", "abs-neg"]);
//! assert!(p.chain("f", ValueId(3)).is_none());
//! ```

use ptir_ir::{Instruction, Program, ValueId};
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// The most steps a [`Chain`] keeps (the latest ones); older steps are only counted.
pub const CHAIN_LIMIT: usize = 32;

/// The step name of a constant fold (greedy folds, the e-graph analysis's folding).
pub const FOLD_STEP: &str = "fold";

/// The step name of a merge of two equal ops into one (greedy CSE, constant deduplication).
pub const CSE_STEP: &str = "cse";

/// The rules that derived one value, oldest first, at most [`CHAIN_LIMIT`] of them kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Chain {
    /// Steps before the ones kept.
    elided: usize,
    /// The steps kept, oldest first.
    rules: Vec<Arc<str>>,
}

impl Chain {
    /// No step: an input op carried through.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty() && self.elided == 0
    }

    /// This chain followed by `rule`.
    pub fn then(&self, rule: Arc<str>) -> Chain {
        let mut c = self.clone();
        c.push(rule);
        c
    }

    /// Appends `rule`, dropping the oldest step kept if the chain is full.
    pub fn push(&mut self, rule: Arc<str>) {
        if self.rules.len() == CHAIN_LIMIT {
            self.rules.remove(0);
            self.elided += 1;
        }
        self.rules.push(rule);
    }

    /// This chain followed by `later`.
    pub fn followed_by(&self, later: &Chain) -> Chain {
        let mut c = self.clone();
        // Steps `later` itself elided come after every step of `self`.
        if later.elided > 0 {
            c.elided += c.rules.len() + later.elided;
            c.rules.clear();
        }
        for r in &later.rules {
            c.push(r.clone());
        }
        c
    }

    /// A chain of `elided` uncounted steps followed by `rules` (the last [`CHAIN_LIMIT`] kept).
    pub fn from_steps(elided: usize, rules: impl IntoIterator<Item = Arc<str>>) -> Chain {
        let mut c = Chain {
            elided,
            rules: Vec::new(),
        };
        for r in rules {
            c.push(r);
        }
        c
    }

    /// The steps kept, oldest first.
    pub fn rules(&self) -> impl ExactSizeIterator<Item = &str> {
        self.rules.iter().map(|r| &**r)
    }

    /// How many older steps were dropped.
    pub fn elided(&self) -> usize {
        self.elided
    }

    /// Every step, kept or elided.
    pub fn len(&self) -> usize {
        self.elided + self.rules.len()
    }
}

impl fmt::Display for Chain {
    /// `unchanged`, or the steps joined by ` → `, after `… (N more)` if some were elided.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("unchanged");
        }
        if self.elided > 0 {
            write!(f, "… ({} more) → ", self.elided)?;
        }
        for (i, r) in self.rules.iter().enumerate() {
            if i > 0 {
                f.write_str(" → ")?;
            }
            f.write_str(r)?;
        }
        Ok(())
    }
}

/// How a pass that renumbers values derived one value of its output: from `base`, a value of
/// its input (whose own chain comes first), by `chain`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Derivation {
    /// The value of the pass's output.
    pub value: ValueId,
    /// The value of the pass's input it was derived from (`None`: from nothing the input
    /// computed, e.g. a constant).
    pub base: Option<ValueId>,
    /// The pass's own steps, oldest first (empty: `base`'s op carried through).
    pub chain: Chain,
}

/// The chain of every derived value, per function, while a pipeline runs. A value with no
/// entry is an input op carried through.
#[derive(Clone, Debug, Default)]
pub struct Provenance {
    functions: FxHashMap<String, FxHashMap<ValueId, Chain>>,
}

impl Provenance {
    /// The chains of function `name`'s derived values (created empty).
    pub fn function_mut(&mut self, name: &str) -> &mut FxHashMap<ValueId, Chain> {
        self.functions.entry(name.to_string()).or_default()
    }

    /// Takes the chains of function `name` out (empty if there are none).
    pub fn take_function(&mut self, name: &str) -> FxHashMap<ValueId, Chain> {
        self.functions.remove(name).unwrap_or_default()
    }

    /// Sets the chains of function `name`.
    pub fn set_function(&mut self, name: &str, chains: FxHashMap<ValueId, Chain>) {
        self.functions.insert(name.to_string(), chains);
    }

    /// The chain of `value` in function `function`, if it is derived.
    pub fn chain(&self, function: &str, value: ValueId) -> Option<&Chain> {
        self.functions.get(function)?.get(&value)
    }

    /// Drops the chains of values `program` no longer defines (erased ops, removed
    /// functions), so that a later op given a freed value number starts afresh.
    pub fn retain_defined(&mut self, program: &Program) {
        self.functions.retain(|name, chains| {
            let Some(f) = program.function(name) else {
                return false;
            };
            let mut defined = FxHashSet::default();
            f.body.walk(&mut |i, _| {
                defined.insert(i.result);
            });
            chains.retain(|v, _| defined.contains(v));
            true
        });
    }

    /// Replaces function `function`'s chains by those of a pass that renumbered it: each
    /// output value gets its base's chain followed by its own.
    pub fn derive(&mut self, function: &str, derivations: impl IntoIterator<Item = Derivation>) {
        let before = self.take_function(function);
        let mut after = FxHashMap::default();
        for d in derivations {
            let chain = match d.base.and_then(|b| before.get(&b)) {
                Some(base) => base.followed_by(&d.chain),
                None => d.chain,
            };
            if !chain.is_empty() {
                after.insert(d.value, chain);
            }
        }
        self.set_function(function, after);
    }
}

/// A hash of the op (attributes included) and type of every instruction of every function,
/// to see afterwards what a pass changed ([`Snapshot::mark_changes`]).
pub struct Snapshot(FxHashMap<String, FxHashMap<ValueId, u64>>);

/// What [`Snapshot`] keeps of an instruction.
fn fingerprint(i: &Instruction) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    i.op.hash(&mut h);
    i.ty.hash(&mut h);
    h.finish()
}

impl Snapshot {
    /// The op kinds of `program`'s instructions.
    pub fn of(program: &Program) -> Self {
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
    pub fn mark_changes(&self, program: &Program, step: &str, provenance: &mut Provenance) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn chain(rules: &[&str]) -> Chain {
        Chain::from_steps(0, rules.iter().map(|r| Arc::from(*r)))
    }

    #[test]
    fn a_long_chain_keeps_its_latest_steps_and_counts_the_rest() {
        let mut c = Chain::default();
        for i in 0..CHAIN_LIMIT + 5 {
            c.push(format!("r{i}").into());
        }
        assert_eq!(c.len(), CHAIN_LIMIT + 5);
        assert_eq!(c.elided(), 5);
        assert_eq!(c.rules().next(), Some("r5"));
        assert!(c.to_string().starts_with("… (5 more) → r5 → r6"), "{c}");
    }

    #[test]
    fn chains_of_values_no_longer_defined_are_dropped() {
        let program = ptir_ir::parse(
            "func @f(%0: f32[2]) -> (f32[2]) {\n  %1 = neg %0 : f32[2]\n  return %1\n}\n",
        )
        .unwrap();
        let mut p = Provenance::default();
        p.function_mut("f").insert(ValueId(1), chain(&["a"]));
        p.function_mut("f").insert(ValueId(7), chain(&["b"]));
        p.function_mut("gone").insert(ValueId(1), chain(&["c"]));
        p.retain_defined(&program);
        assert!(p.chain("f", ValueId(1)).is_some());
        assert!(p.chain("f", ValueId(7)).is_none());
        assert!(p.chain("gone", ValueId(1)).is_none());
    }

    #[test]
    fn composing_keeps_order_and_elision() {
        let a = chain(&["a", "b"]);
        assert_eq!(a.followed_by(&chain(&["c"])).to_string(), "a → b → c");
        let long = Chain::from_steps(3, [Arc::from("z")]);
        let c = a.followed_by(&long);
        assert_eq!((c.elided(), c.len()), (5, 6));
        assert_eq!(c.to_string(), "… (5 more) → z");
        assert_eq!(Chain::default().to_string(), "unchanged");
    }
}
