//! Rules from a [`RuleSet`] compiled to greedy patterns.
//!
//! Each rule becomes a [`RulePattern`] rooted at the op kind of its first source root, with
//! the rule's name, labels, benefit and bounded-recursion flag. Applying it:
//!
//! 1. **Match** the source DAG anchored at the root (`matcher.rs`), other roots searched in
//!    the block, and check the rule's constraints with [`Rule::constraints_hold`]; the
//!    use-count predicate `single-use` is decided here (the value has exactly one user,
//!    an instruction or a block returning it; saturation decides it at extraction). Nothing
//!    has changed yet.
//! 2. **Build** the results with [`Rule::instantiate`] into a pending list (so a native
//!    function declining halfway leaves the IR untouched, as the contract requires), then
//!    insert them through the rewriter before the insertion point: the root, or for
//!    multi-root rules the last root in block order (every earlier root must have no use
//!    before it).
//! 3. **Replace** each root whose result differs from it, and erase the matched ops that
//!    are now dead (pure and unused).

mod matcher;
mod query;

pub use matcher::callee_matches;
pub use query::{find_matches, MatchError, RuleMatch};

use crate::ir::Ir;
use crate::pattern::{Pattern, PatternSet, Roots};
use crate::rewriter::ProgramRewriter;
use matcher::{attr_match, Leaf, Plan, Search, State};
use ptir_ir::{InstId, Op, OpKey, Type, ValueId};
use ptir_rules::{
    ApplyError, Attr, Bindings, Pattern as SourcePattern, Registry, ResultBuilder, Rule,
    RuleFilter, RuleSet, Term, TermId, Var,
};
use rustc_hash::FxHashSet;
use smallvec::SmallVec;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::Arc;

/// A rule that cannot be used by the greedy driver.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("rule `{rule}`: {message}")]
pub struct CompileError {
    /// The rule.
    pub rule: String,
    /// Why.
    pub message: String,
}

/// A rule of the rule language as a greedy [`Pattern`]; see the module docs.
#[derive(Clone, Debug)]
pub struct RulePattern {
    rule: Rule,
    registry: Arc<Registry>,
    plan: Plan,
    root: OpKey,
    /// When every result is a source variable (`=> ?x`): its value slot per root, so that
    /// applying needs no instantiation.
    forward: Option<Vec<usize>>,
    /// The matcher's state, reused across attempts.
    scratch: RefCell<State>,
}

impl RulePattern {
    /// Compiles one rule, checked against `registry`.
    pub fn new(rule: &Rule, registry: Arc<Registry>) -> Result<Self, CompileError> {
        let err = |m: &str| CompileError {
            rule: rule.name.clone(),
            message: m.to_string(),
        };
        let root = rule
            .root_key()
            .ok_or_else(|| err("the source root is not an op"))?;
        if rule.result.roots.len() != rule.source.roots.len() {
            return Err(err(
                "the number of results differs from the number of roots",
            ));
        }
        let plan = compile(&rule.source);
        let forward = rule
            .result
            .roots
            .iter()
            .map(|&t| match rule.result.term(t) {
                Term::Value(v) => plan.value_vars.iter().position(|x| x == v),
                _ => None,
            })
            .collect();
        Ok(RulePattern {
            plan,
            rule: rule.clone(),
            registry,
            root,
            forward,
            scratch: RefCell::new(State::default()),
        })
    }

    /// The rule.
    pub fn rule(&self) -> &Rule {
        &self.rule
    }
}

/// Compiles the rules `filter` keeps (use [`RuleFilter::exact`] to leave out `fast-math`).
pub fn compile_rules(set: &RuleSet, filter: &RuleFilter) -> Result<Vec<RulePattern>, CompileError> {
    let registry = Arc::new(set.registry().clone());
    set.rules()
        .iter()
        .filter(|r| filter.keeps(r))
        .map(|r| RulePattern::new(r, registry.clone()))
        .collect()
}

impl PatternSet {
    /// Adds the rules of `set` that `filter` keeps, in load order; returns how many.
    ///
    /// ```
    /// use ptir_greedy::PatternSet;
    /// use ptir_rules::{Registry, RuleFilter, RuleSet};
    /// let mut rules = RuleSet::new(Registry::standard());
    /// rules.add_source("r.rules", "(rule neg-neg (neg (neg ?x)) => ?x)
    ///     (rule sub-self :labels (fast-math) (sub ?x ?x) => (splat 0 ?x))").unwrap();
    /// let mut set = PatternSet::new();
    /// assert_eq!(set.add_rules(&rules, &RuleFilter::exact()).unwrap(), 1);
    /// ```
    pub fn add_rules(&mut self, set: &RuleSet, filter: &RuleFilter) -> Result<usize, CompileError> {
        let patterns = compile_rules(set, filter)?;
        let n = patterns.len();
        for p in patterns {
            self.add(p);
        }
        Ok(n)
    }
}

/// Builds the matcher's plan of a source pattern.
fn compile(source: &SourcePattern) -> Plan {
    let mut value_vars: Vec<Var> = Vec::new();
    let mut attr_vars: Vec<Var> = Vec::new();
    let slot = |vars: &mut Vec<Var>, v: &Var| match vars.iter().position(|x| x == v) {
        Some(i) => i,
        None => {
            vars.push(v.clone());
            vars.len() - 1
        }
    };
    let n = source.terms.len();
    let mut plan = Plan {
        source: source.clone(),
        value_slot: vec![None; n],
        attrs: vec![Vec::new(); n],
        splat: vec![None; n],
        like: vec![None; n],
        value_vars: Vec::new(),
        attr_vars: Vec::new(),
        searches: Vec::new(),
    };
    for (t, term) in source.terms.iter().enumerate() {
        let mut attr_slot = |v: &Var| slot(&mut attr_vars, v);
        match term {
            Term::Value(v) if v.0 != "_" => plan.value_slot[t] = Some(slot(&mut value_vars, v)),
            // (Native builders are results only: the parser refuses one in a source.)
            Term::Value(_) | Term::Native { .. } => {}
            Term::Op { attrs, name, .. } => {
                plan.attrs[t] = attrs
                    .iter()
                    .map(|a| attr_match(a, &mut attr_slot))
                    .collect();
                plan.value_slot[t] = name.as_ref().map(|v| slot(&mut value_vars, v));
            }
            Term::Splat { value, like, name } => {
                plan.splat[t] = Some(attr_match(value, &mut attr_slot));
                plan.value_slot[t] = name.as_ref().map(|v| slot(&mut value_vars, v));
                plan.like[t] = like.as_ref().map(|v| slot(&mut value_vars, v));
            }
        }
    }
    plan.value_vars = value_vars;
    plan.attr_vars = attr_vars;
    plan.searches = (1..source.roots.len())
        .map(|k| plan_search(&plan, k))
        .collect();
    plan
}

fn operands_of(p: &SourcePattern, t: TermId) -> &[TermId] {
    match p.term(t) {
        Term::Op { operands, .. } => operands,
        _ => &[],
    }
}

/// How to find candidates for root `k`: a shortest path down to something the earlier
/// roots bind.
fn plan_search(plan: &Plan, k: usize) -> Search {
    let p = &plan.source;
    let mut bound_terms = FxHashSet::default();
    let mut stack: Vec<TermId> = p.roots[..k].to_vec();
    while let Some(t) = stack.pop() {
        if bound_terms.insert(t) {
            stack.extend_from_slice(operands_of(p, t));
        }
    }
    let bound_slots: FxHashSet<usize> = bound_terms
        .iter()
        .filter_map(|t| plan.value_slot[t.0])
        .collect();
    let root = p.roots[k];
    if bound_terms.contains(&root) {
        return Search::Bound(root);
    }
    let mut queue = VecDeque::from([(root, Vec::<(TermId, usize)>::new())]);
    while let Some((t, path)) = queue.pop_front() {
        if t != root {
            let leaf = if bound_terms.contains(&t) {
                Some(Leaf::Term(t))
            } else {
                plan.value_slot[t.0]
                    .filter(|s| bound_slots.contains(s))
                    .map(Leaf::Var)
            };
            if let Some(leaf) = leaf {
                let mut path = path;
                path.reverse();
                return Search::Users { leaf, path };
            }
        }
        for (pos, &o) in operands_of(p, t).iter().enumerate() {
            let mut next = path.clone();
            next.push((t, pos));
            queue.push_back((o, next));
        }
    }
    match p.term(root) {
        Term::Op { key, .. } => Search::Scan(*key),
        _ => Search::Scan(OpKey::Constant),
    }
}

/// A result value before it is committed: an existing value or the `n`th pending op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pv {
    Old(ValueId),
    New(usize),
}

/// Collects the ops a rule's results need, without touching the IR.
struct Pending<'a, 'c> {
    ir: &'a Ir<'c>,
    ops: Vec<(Op, Vec<Pv>, Type)>,
}

impl ResultBuilder for Pending<'_, '_> {
    type Value = Pv;
    fn type_of(&self, v: &Pv) -> Type {
        match *v {
            Pv::Old(x) => self.ir.type_of(x).cloned(),
            Pv::New(i) => self.ops.get(i).map(|o| o.2.clone()),
        }
        .unwrap_or_else(|| Type::Tuple(Vec::new()))
    }
    fn build(&mut self, op: Op, operands: Vec<Pv>, ty: Type) -> Pv {
        self.ops.push((op, operands, ty));
        Pv::New(self.ops.len() - 1)
    }
}

impl RulePattern {
    fn bindings(&self, st: &State) -> Bindings<Pv> {
        let mut b = Bindings::default();
        for (var, v) in self.plan.value_vars.iter().zip(&st.values) {
            if let Some(v) = v {
                b.values.insert(var.clone(), Pv::Old(*v));
            }
        }
        for (var, a) in self.plan.attr_vars.iter().zip(&st.attrs) {
            if let Some(a) = a {
                b.attrs.insert(var.clone(), a.clone());
            }
        }
        b
    }

    /// Do the constraints hold for a complete match?
    fn accepts(&self, ir: &Ir<'_>, st: &State) -> bool {
        if self.rule.constraints.is_empty() {
            return true;
        }
        let b = self.bindings(st);
        let type_of = |v: &Pv| match v {
            Pv::Old(x) => ir
                .type_of(*x)
                .cloned()
                .unwrap_or_else(|| Type::Tuple(Vec::new())),
            Pv::New(_) => Type::Tuple(Vec::new()),
        };
        let engine = |pred: &str, args: &[Attr]| match (pred, args) {
            ("single-use", [Attr::Var(v)]) => match b.values.get(v) {
                Some(Pv::Old(x)) => ir.num_users(*x) == 1,
                _ => false,
            },
            _ => false,
        };
        self.rule
            .constraints_hold(&b, &self.registry, type_of, engine)
    }

    /// Where results go: the root, or the last root; `None` if some earlier root is used
    /// before that point (by an instruction, or by the result of a nested block, such as a
    /// `cond` branch yielding it): replacing it by a value defined at the insertion point
    /// would break dominance. (The matcher finds every root in the anchor's block.)
    fn insertion_point(&self, ir: &Ir<'_>, roots: &[InstId]) -> Option<InstId> {
        let mut at = *roots.first()?;
        for &r in &roots[1..] {
            if ir.is_before_in_block(at, r) {
                at = r;
            }
        }
        let used_early = roots.iter().any(|&r| r != at && used_before(ir, r, at));
        (!used_early).then_some(at)
    }
}

/// Is root `r`'s value used before `at`, a later instruction of its block (by an instruction,
/// or by the result of a nested block)? Then results inserted at `at` cannot replace it: the
/// use would read a value defined after it. The matcher prunes candidate roots with it
/// before matching them; [`RulePattern`]'s insertion point checks the final roots.
pub(crate) fn used_before(ir: &Ir<'_>, r: InstId, at: InstId) -> bool {
    let block = ir.block_of(at);
    ir.users(r.value()).any(|u| {
        let user = match u {
            crate::ir::User::Inst(user) => Some(user),
            // The block's own results come after every instruction of it.
            crate::ir::User::BlockResult(b) if b == block => None,
            crate::ir::User::BlockResult(b) => ir.parent_op(b),
        };
        matches!(
            user.and_then(|user| ir.ancestor_in(block, user)),
            Some(a) if a != at && !ir.is_before_in_block(at, a)
        )
    })
}

impl Pattern for RulePattern {
    fn roots(&self) -> Roots {
        Roots::Ops(vec![self.root])
    }
    fn benefit(&self) -> u16 {
        self.rule.benefit()
    }
    fn debug_name(&self) -> &str {
        &self.rule.name
    }
    fn labels(&self) -> &[String] {
        &self.rule.labels
    }
    fn has_bounded_recursion(&self) -> bool {
        self.rule.bounded_recursion
    }
    fn source_rule(&self) -> Option<&Rule> {
        Some(&self.rule)
    }

    fn match_and_rewrite(&self, root: InstId, rw: &mut ProgramRewriter<'_>) -> bool {
        let mut fresh = State::default();
        let mut scratch = self.scratch.try_borrow_mut();
        let st = match scratch.as_deref_mut() {
            Ok(st) => st,
            Err(_) => &mut fresh,
        };
        if !self.plan.find(rw, root, st, &mut |st| self.accepts(rw, st)) {
            return rw.notify_match_failure(root, || "the source pattern does not match".into());
        }
        let Some(at) = self.insertion_point(rw, &st.roots) else {
            return rw.notify_match_failure(root, || "a root is used before the last root".into());
        };
        let (ops, results) = match self.results(rw, st) {
            Ok(r) => r,
            Err(ApplyError::NativeDeclined(f)) => {
                return rw.notify_match_failure(root, || format!("native function `{f}` declined"))
            }
            Err(e @ ApplyError::NoSuchValue { .. }) => {
                return rw.notify_match_failure(root, || e.to_string())
            }
            // A result of the wrong type is a bug in the rule: an error, as in the e-graph
            // engine, not a silent non-match.
            Err(e @ ApplyError::Build { .. }) => return rw.notify_rule_error(root, e.to_string()),
        };
        let root_value = |k: usize| st.roots[k].value();
        let unchanged = (0..results.len()).all(|k| results[k] == Pv::Old(root_value(k)));
        if unchanged && ops.is_empty() {
            return rw.notify_match_failure(root, || "the result is the matched root".into());
        }
        let crosses = results
            .iter()
            .enumerate()
            .any(|(i, r)| (0..st.roots.len()).any(|j| i != j && *r == Pv::Old(root_value(j))));
        if crosses {
            return rw.notify_match_failure(root, || "a result is another root's value".into());
        }
        // `?t:(neg ?a) => (neg (neg ?t))`: a new op reading a root it replaces would read
        // itself once the root's uses are redirected (an SSA cycle). Egg keeps both as one
        // e-class; the greedy driver declines, as MLIR's would refuse such a replacement.
        let replaced =
            |v: &Pv| (0..st.roots.len()).any(|k| *v == Pv::Old(root_value(k)) && results[k] != *v);
        if ops
            .iter()
            .any(|(_, operands, _)| operands.iter().any(replaced))
        {
            return rw.notify_match_failure(root, || "a result reads the root it replaces".into());
        }
        commit(rw, at, ops, &results, &st.roots, &st.matched);
        true
    }
}

type Built = (Vec<(Op, Vec<Pv>, Type)>, SmallVec<[Pv; 2]>);

impl RulePattern {
    /// The value replacing each root, and the ops to build first; `Err` says why the rule
    /// does not apply after all (a native function declined) or is wrong (a result of the
    /// wrong type). Touches nothing.
    fn results(&self, ir: &Ir<'_>, st: &State) -> Result<Built, ApplyError> {
        if let Some(forward) = &self.forward {
            let mut out = SmallVec::new();
            for (k, &slot) in forward.iter().enumerate() {
                let v = st.values[slot].ok_or_else(|| ApplyError::Build {
                    rule: self.rule.name.clone(),
                    message: format!("result {k} is unbound"),
                })?;
                let got = ir.type_of(v).cloned().unwrap_or(Type::Tuple(Vec::new()));
                self.rule
                    .check_result_type(k, &got, ir.type_of(st.roots[k].value()))?;
                out.push(Pv::Old(v));
            }
            return Ok((Vec::new(), out));
        }
        let root_types: Vec<Type> = st.roots.iter().map(|&r| ir.ty(r).clone()).collect();
        let b = self.bindings(st);
        let mut pending = Pending {
            ir,
            ops: Vec::new(),
        };
        let results = self
            .rule
            .instantiate(&b, &root_types, &self.registry, &mut pending)?;
        Ok((pending.ops, results.into_iter().collect()))
    }
}

/// Inserts the pending ops before `at`, replaces the roots and erases dead matched ops.
fn commit(
    rw: &mut ProgramRewriter<'_>,
    at: InstId,
    ops: Vec<(Op, Vec<Pv>, Type)>,
    results: &[Pv],
    roots: &[InstId],
    matched: &[InstId],
) {
    let mut built: Vec<ValueId> = Vec::with_capacity(ops.len());
    let resolve = |built: &[ValueId], v: Pv| match v {
        Pv::Old(x) => x,
        Pv::New(i) => built[i],
    };
    for (op, operands, ty) in ops {
        let operands = operands.into_iter().map(|v| resolve(&built, v)).collect();
        built.push(rw.insert_before(at, op, operands, ty).value());
    }
    for (&r, &res) in roots.iter().zip(results) {
        let v = resolve(&built, res);
        if v != r.value() {
            rw.replace_op(r, v);
        }
    }
    for &m in matched {
        if rw.is_trivially_dead(m) {
            rw.erase_inst(m);
        }
    }
}
