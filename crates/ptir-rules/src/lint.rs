//! A lint for rule sets: the defects a rule file can have that no parse error catches, each
//! located at the rule's `file:line` ([`lint`], `ptir-opt lint-rules`).
//!
//! - **never fires** ([`LintKind::NeverFires`]): the left side calls a function no extern
//!   declares and no rule's result calls, so only a program that defines it itself could
//!   match (a misspelt callee, an extern declaration forgotten);
//! - **shadowed** ([`LintKind::Shadowed`]): an earlier rule has the same left side and
//!   conditions (up to variable names): the greedy driver, which applies the first of equal
//!   benefit, never applies this one;
//! - **loops** ([`LintKind::Loops`]): applying the rule, then another (or itself again), gives
//!   back the left side it started from, so a greedy run of the set does not converge (a rule
//!   `(add ?a ?b) => (add ?b ?a)`, or a rule and its inverse). Found by running the rules on
//!   their own left sides as terms, at the root, for rules without conditions (a condition
//!   may be what stops the loop);
//! - **unsound** ([`LintKind::Unsound`]): the rule's proof on the interpreter finds a
//!   counterexample ([`crate::example::prove`]). A rule raising to a library call with no
//!   body (a user's kernel) cannot be run, so it is not proven.
//!
//! ```
//! use ptir_rules::{lint, Registry, RuleSet};
//! let mut set = RuleSet::new(Registry::standard());
//! set.add_source("my.rules", "(rule swap (add ?a ?b) => (add ?b ?a))\n(rule swap-again (add ?x ?y) => (add ?y ?x))").unwrap();
//! let findings = lint::lint(&set, &lint::LintOptions { proof_seeds: 0, ..Default::default() });
//! let text: Vec<String> = findings.iter().map(ToString::to_string).collect();
//! assert_eq!(text[0], "my.rules:1: rule `swap` loops: applied twice it gives back its left side (the greedy driver does not converge)");
//! assert!(text.iter().any(|t| t.starts_with("my.rules:2: rule `swap-again` is shadowed by `swap` (my.rules:1)")));
//! ```

use crate::ast::{Attr, AttrValue, Location, Pattern, Rule, Term, TermId};
use crate::{RuleFilter, RuleSet};
use ptir_ir::OpKey;
use rustc_hash::FxHashMap;
use std::fmt;

/// What [`lint`] checks beyond the structure of the rules.
#[derive(Clone, Debug)]
pub struct LintOptions {
    /// Seeds each rule's proof runs on (0: no proofs).
    pub proof_seeds: u64,
    /// The rules the greedy driver runs, for the shadowing and loop checks (default: the
    /// exact rules, without the `algebra` and `priced` ones, as `ptir-opt --engine greedy`).
    pub greedy: RuleFilter,
}

impl Default for LintOptions {
    fn default() -> Self {
        let mut greedy = RuleFilter::exact();
        greedy
            .disabled
            .extend(["algebra".to_string(), "priced".to_string()]);
        LintOptions {
            proof_seeds: 16,
            greedy,
        }
    }
}

/// What kind of defect a [`Finding`] is (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LintKind {
    /// Its left side cannot occur.
    NeverFires,
    /// An earlier rule with the same left side always wins.
    Shadowed,
    /// It and the rules after it rewrite a term back to itself.
    Loops,
    /// Its proof found a counterexample.
    Unsound,
}

/// One defect of one rule.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Finding {
    /// Where the rule is written.
    pub location: Location,
    /// The rule.
    pub rule: String,
    /// The kind of defect.
    pub kind: LintKind,
    /// What is wrong, as a sentence continuing "rule `NAME` ...".
    pub message: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: rule `{}` {}",
            self.location, self.rule, self.message
        )
    }
}

/// Every finding of `set`'s rules, in rule order (the proofs' last, one per unsound rule).
pub fn lint(set: &RuleSet, options: &LintOptions) -> Vec<Finding> {
    let rules = set.rules();
    let mut findings = Vec::new();
    never_fires(set, &mut findings);
    let greedy: Vec<&Rule> = rules.iter().filter(|r| options.greedy.keeps(r)).collect();
    shadowed(&greedy, &mut findings);
    loops(&greedy, &mut findings);
    if options.proof_seeds > 0 {
        // A raise to a library call with no body (a user's kernel, declared by `extern`)
        // cannot be run by the interpreter: it is not proven, nor called unsound.
        let unrunnable = |rule: &&Rule| {
            rule.result.terms.iter().any(|t| match t {
                Term::Op {
                    callee: Some(c), ..
                } => {
                    set.externs().get(c).is_some_and(|e| e.definition.is_none())
                        && crate::externs::reference_of(c).is_none()
                }
                _ => false,
            })
        };
        for rule in rules.iter().filter(|r| !unrunnable(r)) {
            if let Err(e) = crate::example::prove(rule, set.registry(), options.proof_seeds) {
                if e.is_counterexample() {
                    findings.push(finding(rule, LintKind::Unsound, format!("is unsound: {e}")));
                }
            }
        }
    }
    // In file order, as a compiler reports.
    findings.sort_by(|a, b| {
        (&a.location.file, a.location.line).cmp(&(&b.location.file, b.location.line))
    });
    findings
}

fn finding(rule: &Rule, kind: LintKind, message: String) -> Finding {
    Finding {
        location: rule.location.clone(),
        rule: rule.name.clone(),
        kind,
        message,
    }
}

/// A source callee matches `@foo` and its numbered copies `@foo_0`, `@foo_1`.
fn base_callee(callee: &str) -> &str {
    match callee.rsplit_once('_') {
        Some((base, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => base,
        _ => callee,
    }
}

fn never_fires(set: &RuleSet, findings: &mut Vec<Finding>) {
    let mut produced: Vec<&str> = set.externs().keys().map(String::as_str).collect();
    for rule in set.rules() {
        for t in &rule.result.terms {
            if let Term::Op {
                callee: Some(c), ..
            } = t
            {
                produced.push(c);
            }
        }
    }
    for rule in set.rules() {
        let missing = rule.source.terms.iter().find_map(|t| match t {
            Term::Op {
                callee: Some(c), ..
            } if !produced.contains(&c.as_str()) && !produced.contains(&base_callee(c)) => Some(c),
            _ => None,
        });
        if let Some(callee) = missing {
            let message = format!(
                "never fires unless the program defines @{callee} itself: its left side calls \
                 it, and no extern declares it nor does any rule's result call it"
            );
            findings.push(finding(rule, LintKind::NeverFires, message));
        }
    }
}

/// A term of a rule set's ops over symbolic leaves, to run rules on without a program.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Sym {
    /// A value of the term the run started from (its `n`th variable).
    Leaf(usize),
    /// A value its left side matches without naming (`?_`, the `n`th): equal to no other.
    Unnamed(usize),
    Op {
        key: OpKey,
        callee: Option<String>,
        attrs: Vec<SymAttr>,
        operands: Vec<Sym>,
    },
    Splat(SymAttr),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum SymAttr {
    /// A literal, by its printed form.
    Lit(String),
    /// An attribute of the term the run started from (its `n`th attribute variable).
    Leaf(usize),
    /// A value as a condition's argument (which stands for its type).
    Value(Box<Sym>),
}

fn lit(v: &AttrValue) -> SymAttr {
    SymAttr::Lit(format!("{v:?}"))
}

/// The left side of `rule` as a term (variables numbered in the order they are met from the
/// root), with what each name stands for; `None` for what this analysis does not model (several
/// roots, stated types, ignored or computed attributes).
fn source_term(rule: &Rule) -> Option<(Sym, Env)> {
    let [root] = rule.source.roots[..] else {
        return None;
    };
    let mut env = Env::default();
    let sym = symbolize(&rule.source, root, &mut env)?;
    Some((sym, env))
}

/// What a rule's names stand for in a term: value variables and named terms, attribute
/// variables.
#[derive(Default, Clone)]
struct Env {
    values: FxHashMap<String, Sym>,
    attrs: FxHashMap<String, SymAttr>,
    /// Leaves given to `?_`, which binds nothing: each is a value of its own.
    ignored: usize,
}

/// The variable that binds nothing.
const IGNORED: &str = "_";

fn symbolize(p: &Pattern, t: TermId, env: &mut Env) -> Option<Sym> {
    let sym = match p.term(t) {
        Term::Value(v) if v.0 == IGNORED => {
            env.ignored += 1;
            return Some(Sym::Unnamed(env.ignored));
        }
        Term::Value(v) => {
            let n = env.values.len();
            return Some(
                env.values
                    .entry(v.0.clone())
                    .or_insert(Sym::Leaf(n))
                    .clone(),
            );
        }
        Term::Op {
            key,
            callee,
            operands,
            attrs,
            ty: None,
            ..
        } => {
            let attrs = attrs
                .iter()
                .map(|a| symbolize_attr(a, env))
                .collect::<Option<_>>()?;
            let operands = operands
                .iter()
                .map(|&o| symbolize(p, o, env))
                .collect::<Option<_>>()?;
            Sym::Op {
                key: *key,
                callee: callee.clone(),
                attrs,
                operands,
            }
        }
        Term::Splat { value, .. } => Sym::Splat(symbolize_attr(value, env)?),
        Term::Op { ty: Some(_), .. } | Term::Native { .. } => return None,
    };
    if let Some(name) = p.term(t).name() {
        env.values.insert(name.0.clone(), sym.clone());
    }
    Some(sym)
}

fn symbolize_attr(a: &Attr, env: &mut Env) -> Option<SymAttr> {
    match a {
        Attr::Lit(v) => Some(lit(v)),
        Attr::Var(v) => {
            let n = env.attrs.len();
            Some(
                env.attrs
                    .entry(v.0.clone())
                    .or_insert(SymAttr::Leaf(n))
                    .clone(),
            )
        }
        _ => None,
    }
}

/// The right side of `rule` (one root) with its names standing for what `env` says.
fn result_term(rule: &Rule, env: &Env) -> Option<Sym> {
    let [root] = rule.result.roots[..] else {
        return None;
    };
    instantiate(&rule.result, root, env)
}

fn instantiate(p: &Pattern, t: TermId, env: &Env) -> Option<Sym> {
    match p.term(t) {
        Term::Value(v) => match env.values.get(&v.0) {
            Some(s) => Some(s.clone()),
            // A result node named earlier in the result.
            None => {
                let named = (0..p.terms.len()).find(|&i| p.terms[i].name() == Some(v))?;
                instantiate(p, TermId(named), env)
            }
        },
        Term::Op {
            key,
            callee,
            operands,
            attrs,
            ..
        } => Some(Sym::Op {
            key: *key,
            callee: callee.clone(),
            attrs: attrs
                .iter()
                .map(|a| instantiate_attr(a, env))
                .collect::<Option<_>>()?,
            operands: operands
                .iter()
                .map(|&o| instantiate(p, o, env))
                .collect::<Option<_>>()?,
        }),
        Term::Splat { value, .. } => Some(Sym::Splat(instantiate_attr(value, env)?)),
        Term::Native { .. } => None,
    }
}

fn instantiate_attr(a: &Attr, env: &Env) -> Option<SymAttr> {
    match a {
        Attr::Lit(v) => Some(lit(v)),
        Attr::Var(v) => env.attrs.get(&v.0).cloned(),
        _ => None,
    }
}

/// Does the left side of `rule` match `sym` at its root? Its names' bindings if so.
fn matches(rule: &Rule, sym: &Sym) -> Option<Env> {
    let [root] = rule.source.roots[..] else {
        return None;
    };
    let mut env = Env::default();
    match_term(&rule.source, root, sym, &mut env).then_some(env)
}

fn match_term(p: &Pattern, t: TermId, sym: &Sym, env: &mut Env) -> bool {
    let ok = match (p.term(t), sym) {
        (Term::Value(v), _) if v.0 == IGNORED => true,
        (Term::Value(v), _) => match env.values.get(&v.0) {
            Some(bound) => bound == sym,
            None => {
                env.values.insert(v.0.clone(), sym.clone());
                true
            }
        },
        (
            Term::Op {
                key,
                callee,
                operands,
                attrs,
                ty: None,
                ..
            },
            Sym::Op {
                key: k,
                callee: c,
                attrs: a,
                operands: o,
            },
        ) => {
            key == k
                && callee.as_deref().map(base_callee) == c.as_deref().map(base_callee)
                && operands.len() == o.len()
                && attrs.len() == a.len()
                && attrs.iter().zip(a).all(|(x, y)| match_attr(x, y, env))
                && operands
                    .iter()
                    .zip(o)
                    .all(|(&x, y)| match_term(p, x, y, env))
        }
        (Term::Splat { value, .. }, Sym::Splat(v)) => match_attr(value, v, env),
        _ => false,
    };
    if let (true, Some(name)) = (ok, p.term(t).name()) {
        env.values.insert(name.0.clone(), sym.clone());
    }
    ok
}

fn match_attr(a: &Attr, sym: &SymAttr, env: &mut Env) -> bool {
    match a {
        Attr::Lit(v) => lit(v) == *sym,
        Attr::Var(v) => match env.attrs.get(&v.0) {
            Some(bound) => bound == sym,
            None => {
                env.attrs.insert(v.0.clone(), sym.clone());
                true
            }
        },
        Attr::Ignore => true,
        _ => false,
    }
}

/// The conditions of `rule` in terms of its left side's numbering (`env`), comparable across
/// rules that name their variables differently.
fn conditions(rule: &Rule, env: &Env) -> Option<Vec<(String, Vec<SymAttr>)>> {
    rule.constraints
        .iter()
        .map(|c| {
            let args = c
                .args
                .iter()
                .map(|a| match a {
                    Attr::Var(v) => (env.attrs.get(&v.0).cloned()).or_else(|| {
                        let value = env.values.get(&v.0)?;
                        Some(SymAttr::Value(Box::new(value.clone())))
                    }),
                    other => instantiate_attr(other, env),
                })
                .collect::<Option<_>>()?;
            Some((c.pred.clone(), args))
        })
        .collect()
}

fn shadowed(rules: &[&Rule], findings: &mut Vec<Finding>) {
    type Key = (Sym, Vec<(String, Vec<SymAttr>)>);
    let mut first: FxHashMap<Key, &Rule> = FxHashMap::default();
    for rule in rules {
        let Some((sym, env)) = source_term(rule) else {
            continue;
        };
        let Some(conds) = conditions(rule, &env) else {
            continue;
        };
        match first.get(&(sym.clone(), conds.clone())) {
            Some(earlier) => {
                let message = format!(
                    "is shadowed by `{}` ({}): the same left side and conditions, and the \
                     greedy driver applies the first",
                    earlier.name, earlier.location
                );
                findings.push(finding(rule, LintKind::Shadowed, message));
            }
            None => {
                first.insert((sym, conds), rule);
            }
        }
    }
}

fn loops(rules: &[&Rule], findings: &mut Vec<Finding>) {
    let free: Vec<&Rule> = (rules.iter().copied())
        .filter(|r| r.constraints.is_empty())
        .collect();
    let roots = RootIndex::of(&free);
    for (i, a) in free.iter().enumerate() {
        let Some((start, env)) = source_term(a) else {
            continue;
        };
        let Some(once) = result_term(a, &env) else {
            continue;
        };
        if once == start {
            let message = "loops: its result is its left side (the greedy driver does not \
                           converge)"
                .to_string();
            findings.push(finding(a, LintKind::Loops, message));
            continue;
        }
        let back = roots.candidates(&once).find(|&k| {
            let b = free[k];
            matches(b, &once)
                .and_then(|env| result_term(b, &env))
                .is_some_and(|twice| twice == start)
        });
        // A pair is reported once, at its first rule.
        let back = back.filter(|&k| k >= i).map(|k| free[k]);
        match back {
            Some(b) if b.name == a.name => {
                let message = "loops: applied twice it gives back its left side (the greedy \
                               driver does not converge)"
                    .to_string();
                findings.push(finding(a, LintKind::Loops, message));
            }
            Some(b) => {
                let message = format!(
                    "loops with `{}` ({}): one undoes the other (the greedy driver does not \
                     converge)",
                    b.name, b.location
                );
                findings.push(finding(a, LintKind::Loops, message));
            }
            None => {}
        }
    }
}

/// What a term's root must be for a left side to match it there.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum RootKind {
    Op(OpKey),
    Splat,
}

/// A left side's top two levels: its root, and for each operand the root it needs (`None`: a
/// variable, which matches any).
type Shape = (RootKind, Vec<Option<RootKind>>);

/// The widest an operand list may be for its shapes to be enumerated (`2^n` of them); wider
/// ones are looked up by their root alone.
const SHAPE_ARITY_LIMIT: usize = 4;

/// The rules by the top two levels their left side matches (a small discrimination tree),
/// so that a term is tried only against the rules that can match it: a set of 10,000 rules
/// is linted at load in a fraction of the time of trying every pair. Positions in the rule
/// list, in order.
struct RootIndex {
    by_shape: FxHashMap<Shape, Vec<usize>>,
    /// Rules whose root's operands are too many to enumerate, by root.
    by_root: FxHashMap<RootKind, Vec<usize>>,
    /// Rules whose one root is a variable: they match any term.
    any: Vec<usize>,
}

fn term_kind(p: &Pattern, t: TermId) -> Option<RootKind> {
    match p.term(t) {
        Term::Op { key, .. } => Some(RootKind::Op(*key)),
        Term::Splat { .. } => Some(RootKind::Splat),
        Term::Value(_) | Term::Native { .. } => None,
    }
}

fn sym_kind(sym: &Sym) -> Option<RootKind> {
    match sym {
        Sym::Op { key, .. } => Some(RootKind::Op(*key)),
        Sym::Splat(_) => Some(RootKind::Splat),
        Sym::Leaf(_) | Sym::Unnamed(_) => None,
    }
}

impl RootIndex {
    fn of(rules: &[&Rule]) -> RootIndex {
        let mut index = RootIndex {
            by_shape: FxHashMap::default(),
            by_root: FxHashMap::default(),
            any: Vec::new(),
        };
        for (k, rule) in rules.iter().enumerate() {
            // Several roots: `matches` takes none of them.
            let [root] = rule.source.roots[..] else {
                continue;
            };
            let Some(kind) = term_kind(&rule.source, root) else {
                if let Term::Value(_) = rule.source.term(root) {
                    index.any.push(k);
                }
                continue;
            };
            let operands = rule.source.operands(root);
            if operands.len() > SHAPE_ARITY_LIMIT {
                index.by_root.entry(kind).or_default().push(k);
                continue;
            }
            let below = operands
                .iter()
                .map(|&o| term_kind(&rule.source, o))
                .collect();
            index.by_shape.entry((kind, below)).or_default().push(k);
        }
        index
    }

    /// The positions of the rules that may match `sym` at its root, in rule order.
    fn candidates(&self, sym: &Sym) -> impl Iterator<Item = usize> {
        let mut all: Vec<usize> = self.any.clone();
        if let Some(kind) = sym_kind(sym) {
            if let Some(rules) = self.by_root.get(&kind) {
                all.extend(rules);
            }
            let operands: Vec<Option<RootKind>> = match sym {
                Sym::Op { operands, .. } => operands.iter().map(sym_kind).collect(),
                _ => Vec::new(),
            };
            if operands.len() <= SHAPE_ARITY_LIMIT {
                // Every shape that matches: each operand as it is, or a variable.
                for mask in 0..1usize << operands.len() {
                    let below = (operands.iter().enumerate())
                        .map(|(i, o)| if mask >> i & 1 == 1 { None } else { *o })
                        .collect();
                    if let Some(rules) = self.by_shape.get(&(kind, below)) {
                        all.extend(rules);
                    }
                }
            }
        }
        all.sort_unstable();
        all.dedup();
        all.into_iter()
    }
}
