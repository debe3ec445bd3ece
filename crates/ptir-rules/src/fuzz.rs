//! A random rule fuzzer: well-typed rules in the shapes that broke the engines,
//! kept when the interpreter proof ([`crate::example::prove`]) accepts them, with programs
//! on which to try them.
//!
//! [`random_rule`] writes one rule as `.rules` text from one of these templates:
//!
//! - **factor**: a repeated variable, `(add (mul ?x ?c) (mul ?y ?c)) => (mul (add ?x ?y) ?c)`
//!   and its kin (`sub`/`mul`, `or`/`and`, `and`/`or`), guarded by `int` (sound) or not
//!   (unsound on floats: the proof refuses it);
//! - **named**: a named subterm used twice, `(add ?t:(exp ?x) ?t) => (mul ?t (splat 2))`,
//!   and unsound kin such as `(sub ?t:(..) ?t) => (splat 0)`;
//! - **splat**: identities with splat constants, sound (`x * 1`) and not (`x + 0` on `-0.0`);
//! - **roots**: multi-root rules, `(roots (add ?x ?y) (mul ?x ?y)) => (add ?y ?x) (mul ?y ?x)`;
//! - **commute**: a random elementwise term rewritten by swapping the operands of one of its
//!   commutative ops;
//! - **wrap**: a named root read by its own replacement, `?t:(exp ?x) => (neg (neg ?t))`
//!   (greedy must decline it: the new ops would read the value they replace);
//! - **variadic**: a list variable, `(concat 0 (concat 0 ?xs...) ?y) => (concat 0 ?xs... ?y)`,
//!   and unsound kin that moves `?y` to the front; its probes include an inner concat of
//!   more parts than rules are loaded with (17 to 40), so that the rule is expanded for the
//!   program in both engines.
//!
//! Each rule comes with *probes*: source patterns whose instances
//! ([`crate::example::instantiate`]) make programs on which the rule's matcher is tested,
//! the rule's own source and near misses of it (a repeated variable renamed apart, or bound
//! to two different splat constants), on which a rule must not fire.

use crate::example::{self, ProofError};
use crate::registry::Registry;
use crate::ruleset::RuleSet;
use ptir_ir::Program;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Commutative elementwise ops (on floats).
const COMMUTATIVE: [&str; 4] = ["add", "mul", "max", "min"];
/// Unary float ops.
const UNARY: [&str; 4] = ["neg", "abs", "exp", "tanh"];
/// (outer, inner) pairs of the factoring template: `outer(inner(x, c), inner(y, c))`.
const FACTOR: [(&str, &str); 4] = [("add", "mul"), ("sub", "mul"), ("or", "and"), ("and", "or")];
/// Splat identities (source, result), sound and unsound.
const SPLATS: [(&str, &str); 9] = [
    ("(mul ?x (splat 1))", "?x"),
    ("(mul (splat 1) ?x)", "?x"),
    ("(add ?x (splat 0))", "?x"),
    ("(sub ?x (splat 0))", "?x"),
    ("(mul ?x (splat 0))", "(splat 0)"),
    ("(div ?x (splat 1))", "?x"),
    ("(max ?x ?x)", "?x"),
    ("(neg (neg ?x))", "?x"),
    ("(mul ?x (splat 2))", "(add ?x ?x)"),
];

/// One generated rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuzzRule {
    /// The rule's name (`fuzz-<seed>-<template>`).
    pub name: String,
    /// The rule as `.rules` text.
    pub text: String,
    /// Source patterns to instantiate as test programs (with the rule's `:when`).
    pub probes: Vec<String>,
    /// The template it came from.
    pub template: &'static str,
    /// Its result matches its own source again (a commutation): greedy rewrites it forever
    /// until it has limits, so [`Fuzzed::rules_text`] leaves it out.
    pub cyclic: bool,
    /// The `:when` clause, empty if none (shared by the probes).
    when: String,
}

/// A random elementwise term over `?x` and `?y`.
enum TermTree {
    Var(&'static str),
    Unary(&'static str, Box<TermTree>),
    Binary(&'static str, Box<TermTree>, Box<TermTree>),
}

impl TermTree {
    fn random(rng: &mut ChaCha8Rng, depth: usize) -> TermTree {
        if depth == 0 || rng.gen_bool(0.25) {
            return TermTree::Var(if rng.gen_bool(0.5) { "?x" } else { "?y" });
        }
        if rng.gen_bool(0.3) {
            let u = UNARY.choose(rng).copied().unwrap_or("neg");
            TermTree::Unary(u, Box::new(TermTree::random(rng, depth - 1)))
        } else {
            let b = COMMUTATIVE.choose(rng).copied().unwrap_or("add");
            let l = TermTree::random(rng, depth - 1);
            let r = TermTree::random(rng, depth - 1);
            TermTree::Binary(b, Box::new(l), Box::new(r))
        }
    }

    fn binaries(&self) -> usize {
        match self {
            TermTree::Var(_) => 0,
            TermTree::Unary(_, a) => a.binaries(),
            TermTree::Binary(_, a, b) => 1 + a.binaries() + b.binaries(),
        }
    }

    /// The text, with the operands of binary node number `swap` (pre-order) swapped.
    fn render(&self, swap: Option<usize>, counter: &mut usize) -> String {
        match self {
            TermTree::Var(v) => (*v).to_string(),
            TermTree::Unary(u, a) => format!("({u} {})", a.render(swap, counter)),
            TermTree::Binary(b, l, r) => {
                let here = *counter;
                *counter += 1;
                let (l, r) = (l.render(swap, counter), r.render(swap, counter));
                if swap == Some(here) {
                    format!("({b} {r} {l})")
                } else {
                    format!("({b} {l} {r})")
                }
            }
        }
    }

    fn vars(&self, out: &mut Vec<&'static str>) {
        match self {
            TermTree::Var(v) => {
                if !out.contains(v) {
                    out.push(v);
                }
            }
            TermTree::Unary(_, a) => a.vars(out),
            TermTree::Binary(_, a, b) => {
                a.vars(out);
                b.vars(out);
            }
        }
    }
}

/// The first variable of a pattern, for its `:when` clause.
fn guard(kind: &str, var: &str) -> String {
    format!("(({kind} {var}))")
}

/// A random rule from `seed` (deterministic); see the module docs for the templates.
///
/// ```
/// let r = ptir_rules::fuzz::random_rule(3);
/// let mut set = ptir_rules::RuleSet::new(ptir_rules::Registry::standard());
/// set.add_source("fuzz.rules", &r.text).unwrap();
/// ```
pub fn random_rule(seed: u64) -> FuzzRule {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let template = [
        "factor", "named", "splat", "roots", "commute", "wrap", "variadic",
    ][rng.gen_range(0..7)];
    let (source, result, when, probes): (String, String, String, Vec<String>) = match template {
        "factor" => {
            let (out, inner) = *FACTOR.choose(&mut rng).unwrap_or(&FACTOR[0]);
            let c_first = rng.gen_bool(0.3);
            let app = |v: &str, c: &str| {
                if c_first {
                    format!("({inner} {c} {v})")
                } else {
                    format!("({inner} {v} {c})")
                }
            };
            let source = format!("({out} {} {})", app("?x", "?c"), app("?y", "?c"));
            let result = format!("({inner} ({out} ?x ?y) ?c)");
            let when = match rng.gen_range(0..4) {
                0 => String::new(),
                1 => guard("float", "?x"),
                _ => guard("int", "?x"),
            };
            let (a, b) = (rng.gen_range(2..=5), rng.gen_range(6..=9));
            let probes = vec![
                source.clone(),
                format!("({out} {} {})", app("?x", "?c"), app("?y", "?d")),
                format!(
                    "({out} {} {})",
                    app("?x", &format!("(splat {a})")),
                    app("?y", &format!("(splat {b})"))
                ),
            ];
            (source, result, when, probes)
        }
        "named" => {
            let u = *UNARY.choose(&mut rng).unwrap_or(&"neg");
            let (op, result) = [
                ("add", "(mul ?t (splat 2))"),
                ("sub", "(splat 0)"),
                ("max", "?t"),
                ("min", "?t"),
                ("mul", "(mul ?t ?t)"),
            ][rng.gen_range(0..5)];
            let source = format!("({op} ?t:({u} ?x) ?t)");
            let probes = vec![source.clone(), format!("({op} ({u} ?x) ({u} ?y))")];
            (source, result.to_string(), guard("float", "?x"), probes)
        }
        "splat" => {
            let (s, r) = *SPLATS.choose(&mut rng).unwrap_or(&SPLATS[0]);
            let when = if rng.gen_bool(0.5) {
                guard("float", "?x")
            } else {
                guard("int", "?x")
            };
            (s.to_string(), r.to_string(), when, vec![s.to_string()])
        }
        "roots" => {
            let mut ops = COMMUTATIVE.to_vec();
            ops.shuffle(&mut rng);
            let (a, b) = (ops[0], ops[1]);
            if rng.gen_bool(0.5) {
                let source = format!("(roots ({a} ?x ?y) ({b} ?x ?y))");
                let result = format!("({a} ?y ?x) ({b} ?y ?x)");
                let probes = vec![source.clone(), format!("(roots ({a} ?x ?y) ({b} ?x ?z))")];
                (source, result, guard("float", "?x"), probes)
            } else {
                let u = *UNARY.choose(&mut rng).unwrap_or(&"neg");
                let source = format!("(roots ?t:({u} ?x) ({a} ?t ?y))");
                let result = format!("?t ({a} ?y ?t)");
                (source.clone(), result, guard("float", "?x"), vec![source])
            }
        }
        "wrap" => {
            let u = *UNARY.choose(&mut rng).unwrap_or(&"neg");
            let wrap = *[
                "(neg (neg ?t))",
                "(mul ?t (splat 1))",
                "(max ?t ?t)",
                "(add ?t (splat 0))",
            ]
            .choose(&mut rng)
            .unwrap_or(&"(neg (neg ?t))");
            let source = format!("?t:({u} ?x)");
            let probes = vec![format!("({u} ?x)")];
            (source, wrap.to_string(), guard("float", "?x"), probes)
        }
        "variadic" => {
            let source = "(concat 0 (concat 0 ?xs...) ?y)".to_string();
            let result = match rng.gen_bool(0.7) {
                true => "(concat 0 ?xs... ?y)",
                false => "(concat 0 ?y ?xs...)",
            };
            let parts = rng.gen_range(crate::VARIADIC_ARITY + 1..=40);
            let long: Vec<String> = (0..parts).map(|i| format!("?a{i}")).collect();
            let probes = vec![
                source.clone(),
                format!("(concat 0 (concat 0 {}) ?y)", long.join(" ")),
            ];
            (source, result.to_string(), String::new(), probes)
        }
        _ => {
            let tree = loop {
                let t = TermTree::random(&mut rng, 3);
                if t.binaries() > 0 {
                    break t;
                }
            };
            let swap = rng.gen_range(0..tree.binaries());
            let source = tree.render(None, &mut 0);
            let result = tree.render(Some(swap), &mut 0);
            let mut vars = Vec::new();
            tree.vars(&mut vars);
            let when = guard("float", vars[0]);
            (source.clone(), result, when, vec![source])
        }
    };
    let cyclic = template == "commute"
        || (template == "roots" && !source.contains("?t:"))
        || (template == "named" && source.starts_with("(mul"));
    let name = format!("fuzz-{seed}-{template}");
    let when_clause = if when.is_empty() {
        String::new()
    } else {
        format!("\n  :when {when}")
    };
    FuzzRule {
        text: format!("; generated by ptir_rules::fuzz::random_rule({seed})\n(rule {name}\n  {source}\n  => {result}{when_clause})\n"),
        name,
        probes,
        template,
        cyclic,
        when,
    }
}

/// The rules [`fuzz_rules`] made, split by the proof's verdict.
#[derive(Clone, Debug, Default)]
pub struct Fuzzed {
    /// Rules the proof accepted.
    pub accepted: Vec<FuzzRule>,
    /// Rules with a counterexample, and the counterexample.
    pub rejected: Vec<(FuzzRule, String)>,
    /// Rules the prover could not instantiate (or whose source failed on every input).
    pub unchecked: Vec<(FuzzRule, String)>,
    /// Rules the parser refused (a fuzzer bug: they should be well typed).
    pub ill_formed: Vec<(FuzzRule, String)>,
}

impl Fuzzed {
    /// The accepted rules that are not [`FuzzRule::cyclic`] as one `.rules` file.
    pub fn rules_text(&self) -> String {
        self.accepted
            .iter()
            .filter(|r| !r.cyclic)
            .map(|r| r.text.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Makes `count` rules from seeds `seed..seed + count` and proves each on `proof_seeds`
/// seeds.
pub fn fuzz_rules(seed: u64, count: usize, proof_seeds: u64) -> Fuzzed {
    let mut out = Fuzzed::default();
    for s in seed..seed + count as u64 {
        let rule = random_rule(s);
        let mut set = RuleSet::new(Registry::standard());
        if let Err(e) = set.add_source("fuzz.rules", &rule.text) {
            out.ill_formed.push((rule, e.to_string()));
            continue;
        }
        let Some(parsed) = set.rules().first() else {
            out.ill_formed.push((rule, "no rule parsed".into()));
            continue;
        };
        match example::prove(parsed, set.registry(), proof_seeds) {
            Ok(_) => out.accepted.push(rule),
            Err(e @ ProofError::Counterexample(_)) => out.rejected.push((rule, e.to_string())),
            Err(e) => out.unchecked.push((rule, e.to_string())),
        }
    }
    out
}

/// Programs on which to try `rule`: instances of each of its probes (from seeds
/// `seed..seed + per_probe`), each the probe's source as the function `@main`.
pub fn probe_programs(rule: &FuzzRule, seed: u64, per_probe: usize) -> Vec<Program> {
    let mut out = Vec::new();
    for (i, probe) in rule.probes.iter().enumerate() {
        let result = match probe.strip_prefix("(roots ") {
            Some(rest) => rest.strip_suffix(')').unwrap_or(rest).to_string(),
            None => probe.clone(),
        };
        let when = if rule.when.is_empty() {
            String::new()
        } else {
            format!(" :when {}", rule.when)
        };
        let text = format!("(rule probe-{i} {probe} => {result}{when})");
        let mut set = RuleSet::new(Registry::standard());
        if set.add_source("probe.rules", &text).is_err() {
            continue;
        }
        let Some(r) = set.rules().first() else {
            continue;
        };
        for s in seed..seed + per_probe as u64 {
            let Ok(ex) = example::instantiate(r, set.registry(), s) else {
                continue;
            };
            let mut program = ex.program;
            program.functions.retain(|f| f.name == example::SOURCE);
            for f in &mut program.functions {
                f.name = "main".to_string();
            }
            out.push(program);
        }
    }
    out
}

/// A loop pattern made from `program`'s first loop, as `.pat` text: the first top-level
/// `scan`, `while` or `cond` of a function with no `call` or `rng` in its regions (what a
/// loop pattern may hold), every value it reads from outside as a parameter of the pattern
/// (constants too: a parameter matches any value), replaced by a call of the pure extern
/// `@name`. Loaded with `--outline`, the callee is defined by the pattern's own body, so the
/// program must compute exactly what it did: the differential tester's probe of loop
/// patterns, matched and raised in both engines. `None` when the program has no such loop.
///
/// ```
/// let p = ptir_ir::parse("func @f(%0: f32[4], %1: bool[]) -> (f32[4]) {
///   %2 = cond %1 : f32[4] {
///     %3 = neg %0 : f32[4]
///     yield %3
///   } {
///     yield %0
///   }
///   return %2
/// }").unwrap();
/// let pat = ptir_rules::fuzz::loop_pattern_probe(&p, "probe").unwrap();
/// assert!(pat.contains("extern @probe(bool[], f32[4]) -> (f32[4]) pure"), "{pat}");
/// let mut set = ptir_rules::RuleSet::new(ptir_rules::Registry::standard());
/// set.add_pat_source("probe.pat", &pat).unwrap();
/// assert_eq!(set.loop_patterns().len(), 1);
/// ```
pub fn loop_pattern_probe(program: &Program, name: &str) -> Option<String> {
    use ptir_ir::analysis::purity::impure_by_itself;
    use ptir_ir::{ExternDecl, Function, Instruction, Op, Param, Region, Signature, ValueId};
    let is_loop = |op: &Op| matches!(op, Op::Scan { .. } | Op::While { .. } | Op::Cond { .. });
    let patternable = |inst: &Instruction| {
        let mut ok = true;
        for r in inst.op.regions() {
            r.walk(&mut |i, _| {
                ok &= !(matches!(i.op, Op::Call { .. }) || impure_by_itself(i.op.key()))
            });
        }
        ok
    };
    let (function, inst) = program.functions.iter().find_map(|f| {
        (f.body.insts.iter())
            .find(|i| is_loop(&i.op) && patternable(i))
            .map(|i| (f, i))
    })?;
    // What the loop defines inside, and what it reads, in order of first use.
    let mut defined = std::collections::HashSet::new();
    let mut read: Vec<ValueId> = inst.operands.clone();
    for r in inst.op.regions() {
        defined.extend(r.params.iter().map(|p| p.id));
        r.walk(&mut |i, _| {
            defined.insert(i.result);
            read.extend(&i.operands);
            for nested in i.op.regions() {
                defined.extend(nested.params.iter().map(|p| p.id));
                read.extend(&nested.results);
            }
        });
        read.extend(&r.results);
    }
    let mut seen = std::collections::HashSet::new();
    read.retain(|v| !defined.contains(v) && seen.insert(*v));
    // Every value read from outside is a parameter or a top-level value of the function.
    let type_of = |v: ValueId| {
        let param = function.body.params.iter().find(|p| p.id == v);
        let top = function.body.insts.iter().find(|i| i.result == v);
        param.map(|p| p.ty.clone()).or(top.map(|i| i.ty.clone()))
    };
    let params: Vec<Param> = (read.iter())
        .map(|&id| type_of(id).map(|ty| Param { id, ty }))
        .collect::<Option<_>>()?;
    let mut largest = inst.result.0;
    for r in inst.op.regions() {
        r.walk(&mut |i, _| largest = largest.max(i.result.0));
    }
    largest = params.iter().map(|p| p.id.0).fold(largest, u32::max);
    let function = |suffix: &str, insts: Vec<Instruction>, result: ValueId| Function {
        name: format!("{name}_{suffix}"),
        result_types: vec![inst.ty.clone()],
        body: Region {
            params: params.clone(),
            insts,
            results: vec![result],
        },
    };
    let call = Instruction {
        result: ValueId(largest + 1),
        ty: inst.ty.clone(),
        op: Op::Call {
            callee: name.to_string(),
        },
        operands: read.clone(),
    };
    let pat = Program {
        externs: vec![ExternDecl {
            name: name.to_string(),
            signature: Some(Signature {
                params: params.iter().map(|p| p.ty.clone()).collect(),
                results: vec![inst.ty.clone()],
            }),
            pure: true,
        }],
        functions: vec![
            function("pattern", vec![inst.clone()], inst.result),
            function("replacement", vec![call], ValueId(largest + 1)),
        ],
    };
    Some(ptir_ir::print(&pat))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_parse_and_the_proof_sorts_them() {
        let fuzzed = fuzz_rules(0, 60, 8);
        assert!(fuzzed.ill_formed.is_empty(), "{:?}", fuzzed.ill_formed);
        assert!(
            fuzzed.accepted.len() >= 15,
            "{} accepted",
            fuzzed.accepted.len()
        );
        assert!(
            fuzzed.rejected.len() >= 3,
            "{} rejected",
            fuzzed.rejected.len()
        );
        let templates: std::collections::BTreeSet<&str> =
            fuzzed.accepted.iter().map(|r| r.template).collect();
        assert_eq!(templates.len(), 7, "accepted templates: {templates:?}");
        let mut set = RuleSet::new(Registry::standard());
        set.add_source("fuzz.rules", &fuzzed.rules_text()).unwrap();
        let acyclic = fuzzed.accepted.iter().filter(|r| !r.cyclic).count();
        // A list rule is loaded as one rule per arity (`NAME/3`): count the names.
        let names: std::collections::BTreeSet<&str> = (set.rules().iter())
            .map(|r| crate::split_expansion_name(&r.name).map_or(r.name.as_str(), |(n, _)| n))
            .collect();
        assert_eq!(names.len(), acyclic);
    }

    /// The list rules: the flattening one is proved, the one that moves `?y` to the front is
    /// refused, and the probes include a concat past the loaded arities.
    #[test]
    fn list_rules_are_proved_and_probed_past_the_loaded_arities() {
        let rules: Vec<FuzzRule> = (0..300u64)
            .map(random_rule)
            .filter(|r| r.template == "variadic")
            .collect();
        let prove = |r: &FuzzRule| {
            let mut set = RuleSet::new(Registry::standard());
            set.add_source("fuzz.rules", &r.text).unwrap();
            let first = set.rules().first().cloned().unwrap();
            example::prove(&first, set.registry(), 8).is_ok()
        };
        let flatten = rules
            .iter()
            .find(|r| r.text.contains("=> (concat 0 ?xs... ?y)"));
        let moved = rules
            .iter()
            .find(|r| r.text.contains("=> (concat 0 ?y ?xs...)"));
        let (flatten, moved) = (flatten.unwrap(), moved.unwrap());
        assert!(prove(flatten), "{}", flatten.text);
        assert!(!prove(moved), "{}", moved.text);
        let longest = probe_programs(flatten, 0, 1)
            .iter()
            .flat_map(|p| p.functions.iter())
            .flat_map(|f| f.body.insts.iter())
            .filter(|i| matches!(i.op, ptir_ir::Op::Concat { .. }))
            .map(|i| i.operands.len())
            .max();
        assert!(longest > Some(crate::VARIADIC_ARITY), "{longest:?}");
    }

    #[test]
    fn the_repeated_variable_rule_is_accepted_and_probed_by_near_misses() {
        let found = (0..200u64).map(random_rule).find(|r| {
            r.template == "factor" && r.text.contains("(add (mul ?x ?c)") && r.when.contains("int")
        });
        let rule = found.expect("a factoring rule among 200 seeds");
        let mut set = RuleSet::new(Registry::standard());
        set.add_source("fuzz.rules", &rule.text).unwrap();
        assert!(example::prove(&set.rules()[0], set.registry(), 8).is_ok());
        let programs = probe_programs(&rule, 0, 2);
        assert!(programs.len() >= 4, "{} probe programs", programs.len());
        for p in &programs {
            assert!(ptir_ir::verify(p).is_ok(), "{p}");
        }
        assert!(programs
            .iter()
            .any(|p| ptir_ir::print(p).contains("constant")));
    }
}
