//! The match query: where the rules of a set match in a program, with their bindings, without
//! rewriting anything (the `findMatches` of a pattern matcher, as `ptir-opt match` prints it).
//!
//! Every instruction of every function, nested ones included, is tried in pre-order as the
//! anchor (first root) of every rule rooted at its kind, in the rule set's order; the first
//! match the rule's constraints accept is reported, as the rewrite driver would apply it (a
//! multi-root rule searches its other roots in the anchor's block, backtracking). Constraints
//! hold as they do for rewriting, `single-use` included.

use super::RulePattern;
use crate::facts::ProgramContext;
use crate::ir::{InvalidFunction, Ir, WalkOrder};
use crate::rules::CompileError;
use indexmap::IndexMap;
use ptir_ir::{Program, ValueId};
use ptir_rules::{AttrValue, RuleSet};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// One match of one rule: see [`find_matches`].
#[derive(Clone, Debug, PartialEq)]
pub struct RuleMatch {
    /// The function it is in.
    pub function: String,
    /// The rule's name.
    pub rule: String,
    /// The value of each root, in the rule's root order (the first is the anchor).
    pub roots: Vec<ValueId>,
    /// Every instruction the source pattern matched (op and splat terms), by its value, in
    /// match order.
    pub matched: Vec<ValueId>,
    /// Each value variable (`?x`, named terms `?t:(...)`), without the `?`, and its value.
    pub values: IndexMap<String, ValueId>,
    /// Each attribute variable, without the `?`, and its value.
    pub attrs: IndexMap<String, AttrValue>,
}

/// Why the match query could not run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    /// A rule cannot be compiled to the matcher (its source root is not an op).
    #[error(transparent)]
    Rule(#[from] CompileError),
    /// A function defines a value twice (verify the program first).
    #[error(transparent)]
    Function(#[from] InvalidFunction),
}

/// Every match of the rules of `rules` in `program`: for each instruction (functions in
/// order, instructions in pre-order) and each rule rooted at its kind (in load order), the
/// first match the rule's constraints accept. Nothing is rewritten.
///
/// ```
/// use ptir_rules::{Registry, RuleSet};
/// let mut rules = RuleSet::new(Registry::standard());
/// rules.add_source("r.rules", "(rule neg-neg (neg (neg ?x)) => ?x)").unwrap();
/// let program = ptir_ir::parse("func @f(%0: f32[4]) -> (f32[4]) {
///   %1 = neg %0 : f32[4]
///   %2 = neg %1 : f32[4]
///   %3 = neg %2 : f32[4]
///   return %3
/// }").unwrap();
/// let matches = ptir_greedy::find_matches(&program, &rules).unwrap();
/// // At %2 (x = %0) and at %3 (x = %1): overlapping matches are all reported.
/// let at: Vec<String> = matches.iter().map(|m| format!("{} x={}", m.roots[0], m.values["x"])).collect();
/// assert_eq!(at, ["%2 x=%0", "%3 x=%1"]);
/// ```
pub fn find_matches(program: &Program, rules: &RuleSet) -> Result<Vec<RuleMatch>, MatchError> {
    let registry = Arc::new(rules.registry().clone());
    let patterns = rules
        .rules()
        .iter()
        .map(|r| RulePattern::new(r, registry.clone()))
        .collect::<Result<Vec<_>, _>>()?;
    let mut by_root: FxHashMap<ptir_ir::OpKey, Vec<&RulePattern>> = FxHashMap::default();
    for p in &patterns {
        by_root.entry(p.root).or_default().push(p);
    }
    let cx = ProgramContext::new(program);
    let mut out = Vec::new();
    for f in &program.functions {
        let ir = Ir::new(f.clone(), &cx)?;
        for anchor in ir.walk(WalkOrder::PreOrder) {
            let Some(candidates) = by_root.get(&ir.op(anchor).key()) else {
                continue;
            };
            for p in candidates {
                if let Some(m) = p.first_match(&ir, anchor) {
                    out.push(m);
                }
            }
        }
    }
    Ok(out)
}

impl RulePattern {
    /// The first match anchored at `anchor` that the constraints accept.
    fn first_match(&self, ir: &Ir<'_>, anchor: ptir_ir::InstId) -> Option<RuleMatch> {
        let mut st = super::State::default();
        if !self
            .plan
            .find(ir, anchor, &mut st, &mut |st| self.accepts(ir, st))
        {
            return None;
        }
        let values = self
            .plan
            .value_vars
            .iter()
            .zip(&st.values)
            .filter_map(|(var, v)| Some((var.0.clone(), (*v)?)))
            .collect();
        let attrs = self
            .plan
            .attr_vars
            .iter()
            .zip(&st.attrs)
            .filter_map(|(var, a)| Some((var.0.clone(), a.clone()?)))
            .collect();
        Some(RuleMatch {
            function: ir.function_name().to_string(),
            rule: self.rule.name.clone(),
            roots: st.roots.iter().map(|r| r.value()).collect(),
            matched: st.matched.iter().map(|i| i.value()).collect(),
            values,
            attrs,
        })
    }
}
