//! [`prove`]: a rule checked on many seeded examples, the check `tests/proof.rs` runs on the
//! bundled library and `ptir::optimize` runs on user-supplied rules.

use super::{instantiate, Example, InputKind, InstantiateError, Outcome, ATTEMPTS};
use crate::ast::Rule;
use crate::registry::Registry;

/// What a passed proof checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Proven {
    /// Seeds that gave an example.
    pub examples: usize,
    /// Input sets on which both functions ran and agreed.
    pub compared: usize,
}

/// Why a rule failed its proof.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProofError {
    /// `@source` and `@result` differ (or the result does not build or verify): the rule is
    /// wrong. The message holds the counterexample (seed, inputs, values, program).
    #[error("counterexample: {0}")]
    Counterexample(String),
    /// No seed gave an example, or the source failed on every input: nothing was checked.
    #[error("not checked: {0}")]
    Unchecked(String),
}

impl ProofError {
    /// Is this a counterexample (rather than a rule the sampler could not instantiate)?
    pub fn is_counterexample(&self) -> bool {
        matches!(self, ProofError::Counterexample(_))
    }
}

/// Proves `rule` on seeds `0..seeds`: each example must verify and its two functions must
/// agree on ordinary inputs and, for exact rules, on inputs full of special values (NaN,
/// ±inf, ±0, integer extremes); `fast-math` rules within tolerance on two ordinary sets.
/// Inputs on which the source itself fails prove nothing and are skipped.
///
/// ```
/// use ptir_rules::{example, RuleSet, Registry};
/// let mut set = RuleSet::new(Registry::standard());
/// set.add_source("t.rules", "(rule add-zero (add ?x (splat 0)) => ?x)").unwrap();
/// // -0.0 + 0 is +0.0: not an identity of IEEE floats.
/// let err = example::prove(&set.rules()[0], set.registry(), 20).unwrap_err();
/// assert!(err.is_counterexample(), "{err}");
/// ```
pub fn prove(rule: &Rule, registry: &Registry, seeds: u64) -> Result<Proven, ProofError> {
    let mut proven = Proven::default();
    let mut reason = String::new();
    for seed in 0..seeds {
        let ex = match instantiate(rule, registry, seed) {
            Ok(ex) => ex,
            Err(InstantiateError::NoInstance { reason: r, .. }) => {
                reason = r;
                continue;
            }
            Err(e) => return Err(ProofError::Counterexample(format!("seed {seed}: {e}"))),
        };
        proven.examples += 1;
        proven.compared += check_example(rule, &ex).map_err(ProofError::Counterexample)?;
    }
    if proven.examples == 0 {
        return Err(ProofError::Unchecked(format!(
            "no instance in any of {seeds} seeds ({ATTEMPTS} attempts each); the last attempt failed because {reason}"
        )));
    }
    if proven.compared == 0 {
        return Err(ProofError::Unchecked(format!(
            "@source fails on every input of its {} examples",
            proven.examples
        )));
    }
    Ok(proven)
}

/// Verifies an example of `rule` and compares its two functions on two input sets (its own,
/// and special values, or ordinary ones again under `fast-math`); returns on how many the
/// source ran, or the counterexample as a message. The one check of [`prove`] and of the
/// bundled library's proof test.
pub fn check_example(rule: &Rule, ex: &Example) -> Result<usize, String> {
    let program = ptir_ir::print(&ex.program);
    if let Err(e) = ptir_ir::verify(&ex.program) {
        return Err(format!("seed {}: does not verify: {e}\n{program}", ex.seed));
    }
    let fast = rule.is_fast_math();
    let second = if fast {
        InputKind::Ordinary
    } else {
        InputKind::Special
    };
    let sets = [
        ("ordinary", ex.inputs.clone()),
        (
            if fast { "ordinary" } else { "special" },
            ex.random_inputs(second, ex.seed + 1000),
        ),
    ];
    let mut compared = 0;
    for (kind, inputs) in sets {
        match ex.check(&inputs, fast) {
            Ok(Outcome::Same) => compared += 1,
            Ok(Outcome::Undefined(_)) => {}
            Err(diff) => {
                let inputs: Vec<String> = inputs.iter().map(|v| format!("  {v}")).collect();
                return Err(format!(
                    "seed {} ({kind} inputs{}): @source and @result differ:\n{diff}\nattributes: {}\n{program}inputs:\n{}",
                    ex.seed,
                    if fast { ", fast-math tolerance" } else { ", bit-exact" },
                    ex.describe_attrs(),
                    inputs.join("\n")
                ));
            }
        }
    }
    Ok(compared)
}
