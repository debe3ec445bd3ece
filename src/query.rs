//! The match query of the facade: the rules [`Options`] select, matched against a program
//! without rewriting it ([`find_matches`]; `ptir-opt match` prints the result).

use crate::optimize::load_rules_for;
use crate::{Error, Options};
use ptir_ir::{Program, ValueId};
use rustc_hash::FxHashMap;

pub use ptir_greedy::RuleMatch;

/// Every match of the rules `options` select (bundled and user rule files, `--enable`,
/// `--disable`, `fast_math`) in `program`, which must verify: for each instruction (functions
/// in order, instructions in pre-order, nested ones included) and each rule rooted at its
/// kind, the first match whose constraints hold, with the rule's bindings; and the matches of
/// the loop patterns ([`ptir_rules::find_loop_matches`], parameters bound under their names in the pattern).
/// Nothing is rewritten; overlapping rule matches are all reported.
///
/// ```
/// let program = ptir::ir::parse("func @f(%x: f32[2,3]) -> (f32[2,3]) {
///   %t = transpose %x perm=[1,0] : f32[3,2]
///   %u = transpose %t perm=[1,0] : f32[2,3]
///   return %u
/// }")?;
/// let mut options = ptir::Options::default();
/// options.bundled_rules = false;
/// options.rule_texts.push(ptir::RuleText::new("my.rules",
///     "(rule transpose-of-transpose (transpose (transpose ?x ?p) ?q) => ?x
///        :when ((inverse-perm ?p ?q)))"));
/// let matches = ptir::find_matches(&program, &options)?;
/// assert_eq!(matches.len(), 1);
/// assert_eq!(matches[0].rule, "transpose-of-transpose");
/// assert_eq!(matches[0].attrs["p"].to_string(), "(1 0)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn find_matches(program: &Program, options: &Options) -> Result<Vec<RuleMatch>, Error> {
    ptir_ir::verify(program)?;
    let rules = load_rules_for(options, program)?;
    let mut matches = ptir_greedy::find_matches(program, &rules)?;
    let loops = ptir_rules::find_loop_matches(program, rules.loop_patterns());
    matches.extend(loops.into_iter().map(|m| RuleMatch {
        function: m.function,
        rule: m.pattern,
        roots: vec![m.root],
        matched: m.matched,
        values: m.bindings.into_iter().collect(),
        attrs: Default::default(),
    }));
    // In program order, as each list is: functions, then the roots' places (one map of every
    // instruction's place, so that sorting is linear in the program and the matches).
    let mut place: FxHashMap<(&str, ValueId), usize> = FxHashMap::default();
    for f in &program.functions {
        f.body.walk(&mut |i, _| {
            let n = place.len();
            place.entry((f.name.as_str(), i.result)).or_insert(n);
        });
    }
    matches.sort_by_cached_key(|m| place.get(&(m.function.as_str(), m.roots[0])).copied());
    Ok(matches)
}
