//! Rules of a `RuleSet` compiled to egg rewrites.
//!
//! A rule's source pattern becomes an egg `Pattern` (one root) or a [`JoinPattern`] (several,
//! searched by a hash join of the roots' matches rather than egg's scan per first-root match):
//! op terms become op e-nodes with token 0 (so impure ops never match), attribute literals
//! become attribute leaves, attribute variables pattern variables, and a shared subterm
//! (`?t:(...)` used twice) is simply written twice — hash-consing makes the two one e-class,
//! so DAG patterns need nothing special. Everything egg patterns cannot say is checked by the
//! [`RuleApplier`]: splat constants (by the class's splat element, known at any size), the rule's constraints
//! (`Rule::constraints_hold`), and building the result (`Rule::instantiate`), before the
//! union — which is refused, and reported with the rule's name, if the types disagree.
//!
//! Calls in source patterns match by callee prefix (`@foo` matches `@foo_0`), for the callees
//! and result types present in the e-graph when the rules are compiled; [`CallWatch`] tells
//! the runner when calls a rule introduced call for compiling again, so that rules compose.

use crate::analysis::{record_creation, Root};
use crate::analysis::{Guard, Watched};
use crate::analysis::{PtirEGraph, UNTYPED};
use crate::join::JoinPattern;
use crate::language::{AttrId, Children, OpKind, PtirNode};
use egg::{
    Applier, Id, Language, Pattern, PatternAst, RecExpr, Rewrite, Subst, Symbol, Var as EVar,
};
use ptir_ir::{Op, OpKey, Scalar, Type};
use ptir_rules::index::{AttrRef, Head, Subject};
use ptir_rules::{
    attr_slots, op_attrs, Attr, AttrValue, Bindings, Bound, Registry, ResultBuilder, Rule, RuleSet,
    Term, TermId, Var,
};
use smallvec::SmallVec;
use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

type ENodeOrVar = egg::ENodeOrVar<PtirNode>;

/// A rule that is not run by the e-graph engine, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkippedRule {
    /// The rule.
    pub name: String,
    /// Why.
    pub reason: String,
}

/// The rewrites of a rule set, compiled against one e-graph (whose tables hold the attribute
/// literals of the patterns).
pub struct CompiledRules {
    /// The rewrites: the builtin ones, then the rules' in the order they were compiled
    /// ([`order`](Self::order) is rule order).
    pub rewrites: Vec<Arc<Rewrite<PtirNode, crate::analysis::PtirAnalysis>>>,
    /// The rewrites' indices in rule order (builtin first, then by the rule's position in the
    /// set and its variant): the order the saturation loop searches and applies them in.
    pub order: Vec<usize>,
    /// Per rewrite: its place in [`order`](Self::order) (builtin, or 1 + the rule's position,
    /// and the variant).
    order_key: Vec<(usize, usize)>,
    registry: Arc<Registry>,
    /// How many of `rewrites`, at the front, are builtin ones, whose appliers read the nodes
    /// of the matched e-classes (the saturation loop applies them every time).
    pub builtin: usize,
    /// Rules left out (a variant that cannot be compiled).
    pub skipped: Vec<SkippedRule>,
    /// Per rewrite: its applier, if it looks its result up before building it (a
    /// `ResultPlan`). Such a match applied again finds its result and stops there, so the
    /// saturation loop need not remember it; and it can be applied in two passes
    /// ([`PlannedApplier::find_existing`]).
    pub(crate) planned: Vec<Option<PlannedApplier>>,
    /// Per rule of the set: was it compiled (or left out) here? The others were not asked
    /// for (see [`compile_where`]).
    pub attempted: Vec<bool>,
    /// The callees of the rules' source call patterns (`@foo` of `(call @foo ...)`).
    call_patterns: Vec<String>,
    /// The call kinds (callee, type) of the e-graph the rules were compiled against, sorted.
    callees: Vec<OpKind>,
}

impl CompiledRules {
    /// What to watch for while these rewrites run: calls their call patterns would match that
    /// they were not compiled for (see [`crate::saturate::saturate`]).
    pub fn call_watch(&self) -> CallWatch {
        CallWatch {
            patterns: self.call_patterns.clone(),
            known: self.callees.clone(),
        }
    }
}

/// Tells whether an e-graph has calls that rules with call patterns would match but were not
/// compiled for (so they must be compiled again to see them).
#[derive(Clone, Debug)]
pub struct CallWatch {
    patterns: Vec<String>,
    known: Vec<OpKind>,
}

impl CallWatch {
    /// Does `egraph` hold a pure call of a (callee, type) that some call pattern matches and
    /// the rules were not compiled for? Free when no rule has a call pattern.
    pub fn has_new(&self, egraph: &PtirEGraph) -> bool {
        if self.patterns.is_empty() {
            return false;
        }
        call_kinds(egraph).iter().any(|k| {
            self.known.binary_search(k).is_err()
                && k.callee
                    .is_some_and(|c| self.patterns.iter().any(|p| callee_matches(p, c.as_str())))
        })
    }
}

/// Compiles every rule of `rules` for `egraph`.
pub fn compile(rules: &RuleSet, egraph: &mut PtirEGraph) -> CompiledRules {
    compile_where(rules, egraph, |_| true)
}

/// Compiles the rules of `rules` at the positions `keep` accepts, and every multi-root rule,
/// for `egraph` (the saturation loop compiles only the rules the pattern index finds a place
/// for: compiling costs more than searching a rule that matches nowhere).
pub fn compile_where(
    rules: &RuleSet,
    egraph: &mut PtirEGraph,
    keep: impl Fn(usize) -> bool,
) -> CompiledRules {
    let registry = Arc::new(rules.registry().clone());
    let callees = call_kinds(egraph);
    let rewrites: Vec<_> = builtin_rewrites().into_iter().map(Arc::new).collect();
    let call_patterns = rules.source_callees().to_vec();
    let mut out = CompiledRules {
        builtin: rewrites.len(),
        order: (0..rewrites.len()).collect(),
        order_key: (0..rewrites.len()).map(|i| (0, i)).collect(),
        registry,
        planned: vec![None; rewrites.len()],
        attempted: vec![false; rules.rules().len()],
        rewrites,
        skipped: Vec::new(),
        call_patterns,
        callees: callees.clone(),
    };
    for (n, rule) in rules.rules().iter().enumerate() {
        let single = rule.source.roots.len() == 1;
        if !single || keep(n) {
            out.add(n, rule, egraph);
        }
    }
    out.sort();
    out
}

impl CompiledRules {
    /// Compiles the rules at the positions `keep` accepts that were not compiled yet (the
    /// pattern index found a place for them since), keeping [`order`](Self::order) rule
    /// order; returns whether any was added.
    pub fn compile_more(
        &mut self,
        rules: &RuleSet,
        egraph: &mut PtirEGraph,
        keep: impl Fn(usize) -> bool,
    ) -> bool {
        let before = self.rewrites.len();
        let mut any = false;
        for (n, rule) in rules.rules().iter().enumerate() {
            if !self.attempted[n] && keep(n) {
                self.add(n, rule, egraph);
                any = true;
            }
        }
        if self.rewrites.len() > before {
            self.sort();
        }
        any
    }

    /// Compiles rule `n` (every variant), or records why it is left out.
    fn add(&mut self, n: usize, rule: &Rule, egraph: &mut PtirEGraph) {
        self.attempted[n] = true;
        for (i, variant) in variants(rule, &self.callees).into_iter().enumerate() {
            let name = if i == 0 {
                rule.name.clone()
            } else {
                format!("{}#{i}", rule.name)
            };
            match rewrite(rule, &variant, &name, egraph, &self.registry) {
                Ok((rw, planned)) => {
                    self.rewrites.push(Arc::new(rw));
                    self.planned.push(planned);
                    self.order_key.push((n + 1, i));
                }
                Err(reason) => self.skipped.push(SkippedRule {
                    name: rule.name.clone(),
                    reason,
                }),
            }
        }
    }

    /// The position in the rule set of rewrite `r`'s rule (`None` for a builtin rewrite).
    pub(crate) fn rule_position(&self, r: usize) -> Option<usize> {
        (r >= self.builtin).then(|| self.order_key[r].0 - 1)
    }

    fn sort(&mut self) {
        self.order = (0..self.rewrites.len()).collect();
        let key = &self.order_key;
        self.order.sort_by_key(|&r| key[r]);
    }
}

/// The (callee, type) of every call node in the e-graph.
fn call_kinds(egraph: &PtirEGraph) -> Vec<OpKind> {
    let mut kinds: Vec<OpKind> = egraph
        .classes()
        .flat_map(|c| c.nodes.iter())
        .filter_map(|n| match n {
            PtirNode::Op(k, _) if k.key == OpKey::Call && k.token == 0 => Some(*k),
            _ => None,
        })
        .collect();
    kinds.sort();
    kinds.dedup();
    kinds
}

/// One choice of concrete call kind for each call term of the source (by term index).
type Variant = Vec<(TermId, OpKind)>;

fn variants(rule: &Rule, callees: &[OpKind]) -> Vec<Variant> {
    let mut out: Vec<Variant> = vec![Vec::new()];
    for (i, t) in rule.source.terms.iter().enumerate() {
        let Term::Op {
            key: OpKey::Call,
            callee: Some(c),
            ..
        } = t
        else {
            continue;
        };
        let options: Vec<OpKind> = callees
            .iter()
            .filter(|k| k.callee.is_some_and(|s| callee_matches(c, s.as_str())))
            .copied()
            .collect();
        out = out
            .into_iter()
            .flat_map(|v| {
                options.iter().map(move |k| {
                    let mut v = v.clone();
                    v.push((TermId(i), *k));
                    v
                })
            })
            .collect();
    }
    out
}

pub use ptir_rules::callee_matches;

fn root_var(i: usize) -> EVar {
    format!("?__root{i}")
        .parse()
        .expect("a valid variable name")
}

fn evar(v: &Var) -> EVar {
    format!("?{}", v.0).parse().expect("a valid variable name")
}

fn rewrite(
    rule: &Rule,
    variant: &Variant,
    name: &str,
    egraph: &mut PtirEGraph,
    registry: &Arc<Registry>,
) -> Result<
    (
        Rewrite<PtirNode, crate::analysis::PtirAnalysis>,
        Option<PlannedApplier>,
    ),
    String,
> {
    let mut c = PatternCompiler {
        rule,
        variant,
        egraph,
        fresh: 0,
        splats: Vec::new(),
    };
    let asts: Vec<PatternAst<PtirNode>> = rule
        .source
        .roots
        .iter()
        .map(|r| c.compile(*r))
        .collect::<Result<_, _>>()?;
    let applier = RuleApplier::new(rule, variant, registry, c.splats, egraph);
    let applier = SharedApplier(Arc::new(applier));
    let planned = (applier.0.plan.is_some()).then(|| PlannedApplier(Arc::clone(&applier.0)));
    let rw = if asts.len() == 1 {
        let pat = Pattern::new(asts.into_iter().next().ok_or("no root")?);
        Rewrite::new(name, pat, applier)
    } else {
        let roots = asts
            .into_iter()
            .enumerate()
            .map(|(i, a)| (root_var(i), Pattern::new(a)))
            .collect();
        Rewrite::new(name, JoinPattern::new(roots), applier)
    };
    rw.map(|rw| (rw, planned))
}

impl RuleApplier {
    /// The applier of `variant` of `rule`, whose source patterns bind `splats` (see
    /// `PatternCompiler`).
    fn new(
        rule: &Rule,
        variant: &Variant,
        registry: &Arc<Registry>,
        splats: Vec<(EVar, Attr)>,
        egraph: &mut PtirEGraph,
    ) -> Self {
        let applier = RuleApplier {
            rule: Arc::new(rule.clone()),
            registry: registry.clone(),
            splats,
            variant: variant.clone(),
            multi: rule.source.roots.len() > 1,
            value_vars: rule
                .source
                .terms
                .iter()
                .filter_map(|t| match t {
                    Term::Value(v) if v.0 != "_" => Some((v.clone(), evar(v))),
                    _ => None,
                })
                .collect(),
            attr_vars: rule
                .attr_vars
                .keys()
                .map(|v| (v.clone(), evar(v)))
                .collect(),
            plan: ResultPlan::new(rule, egraph),
            constraints: None,
            single_use: rule
                .single_use_values()
                .map(|v| (v.clone(), users_in_source(rule, v)))
                .collect(),
        };
        RuleApplier {
            constraints: TypeConstraints::new(&applier),
            ..applier
        }
    }
}

struct PatternCompiler<'a> {
    rule: &'a Rule,
    variant: &'a Variant,
    egraph: &'a mut PtirEGraph,
    fresh: usize,
    /// Splat terms: the variable standing for the constant, and the value it must have.
    splats: Vec<(EVar, Attr)>,
}

impl PatternCompiler<'_> {
    fn fresh_var(&mut self) -> EVar {
        self.fresh += 1;
        format!("?__f{}", self.fresh)
            .parse()
            .expect("a valid variable name")
    }

    fn compile(&mut self, root: TermId) -> Result<PatternAst<PtirNode>, String> {
        let mut ast = RecExpr::default();
        self.term(root, &mut ast)?;
        Ok(ast)
    }

    fn named(&self, v: &Var) -> Option<TermId> {
        (0..self.rule.source.terms.len())
            .map(TermId)
            .find(|&t| self.rule.source.term(t).name() == Some(v))
    }

    fn term(&mut self, id: TermId, ast: &mut PatternAst<PtirNode>) -> Result<Id, String> {
        match self.rule.source.term(id) {
            Term::Value(v) if v.0 == "_" => {
                let f = self.fresh_var();
                Ok(ast.add(ENodeOrVar::Var(f)))
            }
            Term::Value(v) => match self.named(v) {
                Some(t) => self.term(t, ast),
                None => Ok(ast.add(ENodeOrVar::Var(evar(v)))),
            },
            Term::Native { func, .. } => Err(format!("native builder `{func}` in a source")),
            Term::Splat { value, .. } => {
                let f = slot_var('s', id, 0);
                self.splats.push((f, value.clone()));
                Ok(ast.add(ENodeOrVar::Var(f)))
            }
            Term::Op {
                key,
                operands,
                attrs,
                ..
            } => {
                let mut children = Children::new();
                for (k, o) in operands.iter().enumerate() {
                    let child = match self.rule.source.term(*o) {
                        Term::Value(v) if v.0 == "_" => {
                            ast.add(ENodeOrVar::Var(slot_var('o', id, k)))
                        }
                        _ => self.term(*o, ast)?,
                    };
                    children.push(child);
                }
                for (k, a) in attrs.iter().enumerate() {
                    children.push(self.attr(a, slot_var('a', id, k), ast)?);
                }
                let kind = match self.variant.iter().find(|(t, _)| *t == id) {
                    Some((_, k)) => *k,
                    None if *key == OpKey::Call => {
                        return Err("no call of this callee in the e-graph".into())
                    }
                    None => OpKind::pure(*key),
                };
                Ok(ast.add(ENodeOrVar::ENode(PtirNode::Op(kind, children))))
            }
        }
    }

    /// An attribute of a source op term; `?_` becomes `ignore`, the variable of its slot.
    fn attr(
        &mut self,
        a: &Attr,
        ignore: EVar,
        ast: &mut PatternAst<PtirNode>,
    ) -> Result<Id, String> {
        match a {
            Attr::Var(v) => Ok(ast.add(ENodeOrVar::Var(evar(v)))),
            Attr::Ignore => Ok(ast.add(ENodeOrVar::Var(ignore))),
            Attr::Lit(x) => {
                let id = self.egraph.analysis.tables.attr(x);
                Ok(ast.add(ENodeOrVar::ENode(PtirNode::Attr(id))))
            }
            Attr::Call { func, .. } => Err(format!("native call `{func}` in a source pattern")),
        }
    }
}

/// The pattern variable of a slot of source term `t` that binds nothing the rule names: a
/// splat constant (`'s'`), a `?_` operand (`'o'`, operand `k`) or a `?_` attribute (`'a'`,
/// attribute `k`). Being a function of the slot, [`lookup_term`] finds what it matched, so
/// named terms (`?r:(slice ?x ?_ ?_ ?_)`, `?c:(splat ?v)`) can be looked up.
fn slot_var(kind: char, t: TermId, k: usize) -> EVar {
    format!("?__{kind}{}_{k}", t.0)
        .parse()
        .expect("a valid variable name")
}

/// An e-graph as the pattern index sees it: a position is an e-class, its nodes the
/// e-nodes; impure and region e-nodes have no head (patterns have token 0 and no regions).
pub(crate) struct EGraphSubject<'a>(pub &'a PtirEGraph);

impl EGraphSubject<'_> {
    /// The e-class of attribute slot `slot` of e-node `i` of class `c`, if it has it.
    fn attr_class(&self, (c, i): (Id, usize), slot: usize) -> Option<Id> {
        let PtirNode::Op(k, children) = &self.0[c].nodes[i] else {
            return None;
        };
        let (_, slots) = attr_slots(k.key)?;
        let first = children.len().checked_sub(slots.len())?;
        children.get(first + slot).copied()
    }
}

impl Subject for EGraphSubject<'_> {
    type Pos = Id;
    type Node = (Id, usize);

    fn nodes(&self, pos: Id, f: &mut dyn FnMut((Id, usize))) {
        let class = &self.0[pos];
        for i in 0..class.nodes.len() {
            f((class.id, i));
        }
    }

    /// A large class is searched by kind like egg's own e-matching does: its nodes are
    /// sorted after a rebuild (the pattern index is asked only then), and op nodes order by
    /// kind first.
    fn nodes_of(&self, pos: Id, key: OpKey, f: &mut dyn FnMut((Id, usize))) {
        let class = &self.0[pos];
        if class.nodes.len() < SORTED_SEARCH_FROM {
            return self.nodes(pos, f);
        }
        let below = |n: &PtirNode| match n {
            PtirNode::Param(..) | PtirNode::Attr(_) | PtirNode::Const(_) => true,
            PtirNode::Op(k, _) => k.key < key,
            PtirNode::Region(..) => false,
        };
        let from = class.nodes.partition_point(below);
        let of_key = |n: &PtirNode| matches!(n, PtirNode::Op(k, _) if k.key == key);
        for (i, _) in class
            .nodes
            .iter()
            .enumerate()
            .skip(from)
            .take_while(|(_, n)| of_key(n))
        {
            f((class.id, i));
        }
    }

    fn head(&self, (c, i): (Id, usize)) -> Option<Head<'_>> {
        let PtirNode::Op(k, children) = &self.0[c].nodes[i] else {
            return None;
        };
        if k.token != 0 {
            return None;
        }
        let (_, slots) = attr_slots(k.key)?;
        Some(Head {
            key: k.key,
            callee: k.callee.map(|c| c.as_str()),
            operands: children.len().checked_sub(slots.len())?,
        })
    }

    fn attr(&self, node: (Id, usize), slot: usize) -> Option<AttrRef<'_>> {
        let class = self.attr_class(node, slot)?;
        self.0[class].data.attr.as_deref().map(AttrRef::from)
    }

    fn attr_identity(&self, node: (Id, usize), slot: usize) -> Option<u64> {
        // An attribute is an e-class of its own, hash-consed by value.
        let class = self.attr_class(node, slot)?;
        Some(usize::from(self.0.find(class)) as u64)
    }

    fn operand(&self, (c, i): (Id, usize), k: usize) -> Id {
        self.0[c].nodes[i].children()[k]
    }
}

/// Classes of at least this many nodes are searched by kind with a binary search; smaller
/// ones are scanned. (egg's own threshold for `EClass::for_each_matching_node` is 50; for the
/// index query a scan calls a closure per node, and 3 measured best: the matrix chain's
/// queries at N = 40 took 241M instructions with 50, 162M with 8, 148M with 3.)
const SORTED_SEARCH_FROM: usize = 3;

/// Checks what patterns cannot say, builds the result, and unions it with the match.
struct RuleApplier {
    rule: Arc<Rule>,
    registry: Arc<Registry>,
    splats: Vec<(EVar, Attr)>,
    variant: Variant,
    multi: bool,
    /// The value variables of the source with their pattern variables, made once here
    /// rather than by formatting and interning a name for every variable of every match.
    value_vars: Vec<(Var, EVar)>,
    /// The attribute variables, likewise.
    attr_vars: Vec<(Var, EVar)>,
    /// The result as e-nodes to look up, when it can be written as such.
    plan: Option<ResultPlan>,
    /// The constraints, when they read only the types of value variables.
    constraints: Option<TypeConstraints>,
    /// The values `single-use` constraints name, each with the source terms that use it
    /// (decided at extraction: `crate::single_use`).
    single_use: Vec<(Var, Vec<TermId>)>,
}

/// A rule's constraints with their predicates looked up once, for a rule whose match binds
/// nothing but value variables (no splat, attribute variable or named term) and whose
/// constraints read only their types and literals (`(int ?a) (has-rank ?a 2)`): checked
/// straight off the classes, without the general [`Bindings`] keyed by name, the same
/// answer [`Rule::constraints_hold`] gives.
struct TypeConstraints(Vec<(ptir_rules::PredicateFn, SmallVec<[TypeArg; 3]>)>);

enum TypeArg {
    /// The type of a value variable's class.
    Value(EVar),
    /// A literal attribute.
    Lit(AttrValue),
}

impl TypeConstraints {
    fn new(applier: &RuleApplier) -> Option<Self> {
        let rule = &applier.rule;
        let named = (rule.source.terms.iter()).any(|t| {
            matches!(
                t,
                Term::Op { name: Some(_), .. } | Term::Splat { name: Some(_), .. }
            )
        });
        if named || !applier.splats.is_empty() || !applier.attr_vars.is_empty() {
            return None;
        }
        let constraints = rule.constraints.iter().map(|c| {
            let test = applier.registry.predicate(&c.pred)?.test.clone()?;
            let args = c.args.iter().map(|a| match a {
                Attr::Var(v) => {
                    let (_, e) = applier.value_vars.iter().find(|(w, _)| w == v)?;
                    Some(TypeArg::Value(*e))
                }
                Attr::Lit(x) => Some(TypeArg::Lit(x.clone())),
                _ => None,
            });
            Some((test, args.collect::<Option<_>>()?))
        });
        Some(TypeConstraints(constraints.collect::<Option<_>>()?))
    }

    fn hold(&self, egraph: &PtirEGraph, subst: &Subst) -> bool {
        // Borrowed, and pushed one by one into one buffer: a test runs for every match found,
        // and cloning each type it reads, then collecting the arguments through an `Option`,
        // was most of what it cost.
        let mut bound: SmallVec<[Bound; 3]> = SmallVec::new();
        self.0.iter().all(|(test, args)| {
            bound.clear();
            for a in args {
                bound.push(match a {
                    TypeArg::Value(v) => match subst.get(*v) {
                        Some(&id) => {
                            let ty = egraph[id].data.ty.as_ref();
                            Bound::Value(Cow::Borrowed(ty.unwrap_or(&UNTYPED)))
                        }
                        None => return false,
                    },
                    TypeArg::Lit(x) => Bound::Attr(Cow::Borrowed(x)),
                });
            }
            test(&bound)
        })
    }
}

/// The classes of a match's roots, or of a rule's results: one or two.
type Ids = SmallVec<[Id; 2]>;

/// The classes of a [`ResultPlan`]'s steps resolved so far.
type StepIds = SmallVec<[Id; 8]>;

/// A rule's result as e-nodes to look up before building it.
///
/// In a saturating run most matches are found again in every iteration, and their result is
/// already in the e-graph: looking it up costs a few hash probes, where building it through
/// [`Rule::instantiate`] makes each op, infers its type and interns its attributes before the
/// e-graph's hash-consing finds the node exists. A plan exists when every result term is a
/// value the match bound or a plain op (no callee, no type annotation, no splat constant,
/// no native builder, no auxiliary result; each attribute a literal or an attribute variable of
/// the source); a lookup that misses
/// anything falls back to building, so the plan decides nothing, it only saves work.
struct ResultPlan {
    /// The result terms in an order where operands come first.
    steps: Vec<PlanStep>,
    /// The step of each result root.
    roots: Vec<usize>,
}

enum PlanStep {
    /// A value variable of the source.
    Var(EVar),
    /// A named source term (`?t` of `?t:(neg ?a)`).
    Named(TermId),
    /// An op e-node over earlier steps and attribute classes.
    Op {
        kind: OpKind,
        operands: Vec<usize>,
        attrs: Vec<PlanAttr>,
    },
}

enum PlanAttr {
    /// An attribute literal of the rule, interned at compile time, and its class once found
    /// (an attribute class is never merged with another, so its id stays canonical).
    Lit(AttrId, OnceLock<Id>),
    /// An attribute variable of the source.
    Var(EVar),
}

impl ResultPlan {
    fn new(rule: &Rule, egraph: &mut PtirEGraph) -> Option<Self> {
        if !rule.aux.is_empty() {
            // Auxiliary results are used by name: the general path builds them.
            return None;
        }
        let mut plan = ResultPlan {
            steps: Vec::new(),
            roots: Vec::new(),
        };
        let mut step_of = vec![None; rule.result.terms.len()];
        for &root in &rule.result.roots {
            let s = plan.step(rule, root, &mut step_of, egraph)?;
            plan.roots.push(s);
        }
        Some(plan)
    }

    /// The step of result term `t`, added after the steps of its operands.
    fn step(
        &mut self,
        rule: &Rule,
        t: TermId,
        step_of: &mut [Option<usize>],
        egraph: &mut PtirEGraph,
    ) -> Option<usize> {
        if let Some(s) = step_of[t.0] {
            return Some(s);
        }
        let step = match rule.result.term(t) {
            Term::Value(v) if rule.attr_vars.contains_key(v) => return None,
            Term::Value(v) => match named_source_term(rule, v) {
                Some(named) => PlanStep::Named(named),
                None => PlanStep::Var(evar(v)),
            },
            Term::Splat { .. } | Term::Native { .. } => return None,
            Term::Op {
                key,
                callee,
                operands,
                attrs,
                ty,
                ..
            } => {
                let (_, slots) = attr_slots(*key)?;
                if callee.is_some() || ty.is_some() || *key == OpKey::Call {
                    return None;
                }
                if attrs.len() != slots.len() {
                    return None;
                }
                let operands = operands
                    .iter()
                    .map(|&o| self.step(rule, o, step_of, egraph))
                    .collect::<Option<Vec<_>>>()?;
                let attrs = attrs
                    .iter()
                    .map(|a| match a {
                        Attr::Lit(x) => Some(PlanAttr::Lit(
                            egraph.analysis.tables.attr(x),
                            OnceLock::new(),
                        )),
                        Attr::Var(v) if rule.attr_vars.contains_key(v) => {
                            Some(PlanAttr::Var(evar(v)))
                        }
                        _ => None,
                    })
                    .collect::<Option<Vec<_>>>()?;
                PlanStep::Op {
                    kind: OpKind::pure(*key),
                    operands,
                    attrs,
                }
            }
        };
        self.steps.push(step);
        step_of[t.0] = Some(self.steps.len() - 1);
        Some(self.steps.len() - 1)
    }

    /// The classes of the result roots: with [`Find`], if every node of the result is in the
    /// e-graph; with [`Build`], once the missing nodes are added (`None` if one of them is
    /// ill-typed: building it through [`Rule::instantiate`] then reports the rule's error).
    ///
    /// `ids` holds the classes of the steps resolved so far: a lookup that misses leaves
    /// them there, and building goes on from the step that missed.
    fn resolve(
        &self,
        classes: &mut impl StepClasses,
        rule: &Rule,
        variant: &Variant,
        subst: &Subst,
        ids: &mut StepIds,
    ) -> Option<Ids> {
        // One node for every op looked up, written in place (egg's lookup canonicalizes its
        // children in place too): moving a node in and out of a buffer per step cost more
        // than the lookup's hashing.
        let mut scratch = PtirNode::Op(OpKind::pure(OpKey::Tuple), Children::new());
        for step in &self.steps[ids.len()..] {
            let id = match step {
                PlanStep::Op { .. } => {
                    step.write_node(ids, subst, &mut scratch, |leaf| classes.leaf(leaf))?;
                    classes.op(&mut scratch)?
                }
                _ => step.value(rule, variant, classes.egraph(), subst)?,
            };
            ids.push(id);
        }
        // Pushed, not collected: `SmallVec`'s `extend` costs more than the usual one root.
        let mut roots = Ids::new();
        for &s in &self.roots {
            roots.push(ids[s]);
        }
        Some(roots)
    }
}

/// How [`ResultPlan::resolve`] gets the classes of a result's e-nodes: [`Find`] looks them
/// up, [`Build`] adds those missing.
trait StepClasses {
    fn egraph(&self) -> &PtirEGraph;
    /// The class of an attribute leaf.
    fn leaf(&mut self, leaf: PtirNode) -> Option<Id>;
    /// The class of an op e-node, if it is well typed.
    fn op(&mut self, node: &mut PtirNode) -> Option<Id>;
}

/// Looks a result's e-nodes up, reading the e-graph only.
struct Find<'e>(&'e PtirEGraph);

impl StepClasses for Find<'_> {
    fn egraph(&self) -> &PtirEGraph {
        self.0
    }

    fn leaf(&mut self, leaf: PtirNode) -> Option<Id> {
        self.0.lookup(leaf)
    }

    fn op(&mut self, node: &mut PtirNode) -> Option<Id> {
        self.0.lookup(node)
    }
}

/// Adds a result's e-nodes (egg's `add` looks each up first).
struct Build<'e>(&'e mut PtirEGraph);

impl StepClasses for Build<'_> {
    fn egraph(&self) -> &PtirEGraph {
        self.0
    }

    fn leaf(&mut self, leaf: PtirNode) -> Option<Id> {
        Some(self.0.add(leaf))
    }

    fn op(&mut self, node: &mut PtirNode) -> Option<Id> {
        // The analysis types the node as it is added; an ill-typed one (a rule bug) is left
        // out of the result and the general path reports it, which fails the run.
        let id = self.0.add(node.clone());
        self.0[id].data.ty.as_ref()?;
        Some(id)
    }
}

impl PlanStep {
    /// The class of a step that is not an op: what the match bound.
    fn value(
        &self,
        rule: &Rule,
        variant: &Variant,
        egraph: &PtirEGraph,
        subst: &Subst,
    ) -> Option<Id> {
        match self {
            PlanStep::Var(v) => subst.get(*v).copied(),
            PlanStep::Named(t) => lookup_term(rule, variant, egraph, subst, *t),
            PlanStep::Op { .. } => None,
        }
    }

    /// Writes the e-node of an op step into `scratch`, over the classes of earlier steps in
    /// `ids`; `leaf` finds (or adds) the class of an attribute literal's leaf the first time.
    fn write_node(
        &self,
        ids: &StepIds,
        subst: &Subst,
        scratch: &mut PtirNode,
        mut leaf: impl FnMut(PtirNode) -> Option<Id>,
    ) -> Option<()> {
        let (
            PlanStep::Op {
                kind,
                operands,
                attrs,
            },
            PtirNode::Op(scratch_kind, children),
        ) = (self, scratch)
        else {
            return None;
        };
        *scratch_kind = *kind;
        children.clear();
        for &s in operands {
            children.push(ids[s]);
        }
        for a in attrs {
            children.push(match a {
                PlanAttr::Lit(x, class) => match class.get() {
                    Some(id) => *id,
                    None => {
                        let id = leaf(PtirNode::Attr(*x))?;
                        *class.get_or_init(|| id)
                    }
                },
                PlanAttr::Var(v) => *subst.get(*v)?,
            });
        }
        Some(())
    }
}

/// The source op terms that have value `v` (a variable or a named term) as an operand.
fn users_in_source(rule: &Rule, v: &Var) -> Vec<TermId> {
    let is_v = |o: &TermId| match rule.source.term(*o) {
        Term::Value(x) => x == v,
        t => t.name() == Some(v),
    };
    (0..rule.source.terms.len())
        .map(TermId)
        .filter(|&t| matches!(rule.source.term(t), Term::Op { operands, .. } if operands.iter().any(is_v)))
        .collect()
}

/// The source term named `v` (`?t` of `?t:(neg ?a)`), if any.
fn named_source_term(rule: &Rule, v: &Var) -> Option<TermId> {
    (0..rule.source.terms.len())
        .map(TermId)
        .find(|&n| rule.source.term(n).name() == Some(v))
}

impl RuleApplier {
    /// What the match bound, or `None` if a splat constant does not match.
    fn bindings(&self, egraph: &PtirEGraph, subst: &Subst) -> Option<Bindings<Id>> {
        let mut b = Bindings::default();
        for (v, value) in &self.splats {
            let data = &egraph[*subst.get(*v)?].data;
            let first = data.splat?;
            let dtype = data.ty.as_ref()?.as_tensor()?.dtype;
            match value {
                Attr::Lit(AttrValue::Number(x))
                    if Scalar::from_number(dtype, *x) == Some(first) => {}
                Attr::Var(name) => {
                    let number = first.to_number(dtype)?;
                    if !bind_attr(&mut b, name, AttrValue::Number(number)) {
                        return None;
                    }
                }
                _ => return None,
            }
        }
        for (v, e) in &self.value_vars {
            if !b.values.contains_key(v) {
                if let Some(id) = subst.get(*e) {
                    b.values.insert(v.clone(), *id);
                }
            }
        }
        for (i, t) in self.rule.source.terms.iter().enumerate() {
            if let Term::Op { name: Some(n), .. } | Term::Splat { name: Some(n), .. } = t {
                let id = lookup_term(&self.rule, &self.variant, egraph, subst, TermId(i))?;
                b.values.insert(n.clone(), id);
            }
        }
        for (v, e) in &self.attr_vars {
            if let Some(id) = subst.get(*e) {
                if !bind_attr(&mut b, v, egraph[*id].data.attr.as_deref()?.clone()) {
                    return None;
                }
            }
        }
        Some(b)
    }

    fn roots(&self, eclass: Id, subst: &Subst) -> Option<Ids> {
        if self.multi {
            (0..self.rule.source.roots.len())
                .map(|i| subst.get(root_var(i)).copied())
                .collect()
        } else {
            Some(smallvec::smallvec![eclass])
        }
    }
}

/// Binds attribute variable `v` to `value`, or checks that the value it already has is the
/// same ([`AttrValue::same`]): a variable named twice (`(add (mul ?x (splat ?c)) (mul ?y
/// (splat ?c)))`) matches only where both places hold one value. egg unifies the variables of
/// its patterns itself; splat values are read off the e-classes here, so this is the place.
fn bind_attr(b: &mut Bindings<Id>, v: &Var, value: AttrValue) -> bool {
    match b.attrs.get(v) {
        Some(prev) => prev.same(&value),
        None => {
            b.attrs.insert(v.clone(), value);
            true
        }
    }
}

/// The class of source term `t` under `subst`, found by looking up its e-node.
fn lookup_term(
    rule: &Rule,
    variant: &Variant,
    egraph: &PtirEGraph,
    subst: &Subst,
    t: TermId,
) -> Option<Id> {
    match rule.source.term(t) {
        Term::Value(v) => match named_source_term(rule, v) {
            // A reference to a named term (`?t` of `?t:(neg ?a)`) is that term.
            Some(named) => lookup_term(rule, variant, egraph, subst, named),
            None => subst.get(evar(v)).copied(),
        },
        Term::Splat { .. } => subst.get(slot_var('s', t, 0)).copied(),
        Term::Native { .. } => None, // results only
        Term::Op { .. } => egraph.lookup(source_node(rule, variant, egraph, subst, t)?),
    }
}

/// The e-node of source term `t` under `subst` (children: the classes of its operands and
/// attributes), if `t` is an op, or names one.
fn source_node(
    rule: &Rule,
    variant: &Variant,
    egraph: &PtirEGraph,
    subst: &Subst,
    t: TermId,
) -> Option<PtirNode> {
    match rule.source.term(t) {
        Term::Value(v) => source_node(rule, variant, egraph, subst, named_source_term(rule, v)?),
        Term::Splat { .. } | Term::Native { .. } => None,
        Term::Op {
            key,
            operands,
            attrs,
            ..
        } => {
            let mut children = Children::new();
            for (k, o) in operands.iter().enumerate() {
                let id = match rule.source.term(*o) {
                    Term::Value(v) if v.0 == "_" => *subst.get(slot_var('o', t, k))?,
                    _ => lookup_term(rule, variant, egraph, subst, *o)?,
                };
                children.push(id);
            }
            for (k, a) in attrs.iter().enumerate() {
                let id = match a {
                    Attr::Var(v) => *subst.get(evar(v))?,
                    Attr::Ignore => *subst.get(slot_var('a', t, k))?,
                    Attr::Lit(x) => {
                        egraph.lookup(PtirNode::Attr(egraph.analysis.tables.lookup_attr(x)?))?
                    }
                    Attr::Call { .. } => return None,
                };
                children.push(id);
            }
            let kind = variant
                .iter()
                .find(|(id, _)| *id == t)
                .map(|(_, k)| *k)
                .unwrap_or(OpKind::pure(*key));
            Some(PtirNode::Op(kind, children))
        }
    }
}

/// A rule's applier as egg's rewrites hold it, shared with [`PlannedApplier`].
struct SharedApplier(Arc<RuleApplier>);

impl Applier<PtirNode, crate::analysis::PtirAnalysis> for SharedApplier {
    fn apply_one(
        &self,
        egraph: &mut PtirEGraph,
        eclass: Id,
        subst: &Subst,
        _ast: Option<&PatternAst<PtirNode>>,
        rule_name: Symbol,
    ) -> Vec<Id> {
        let applier = &self.0;
        let before = egraph.nodes().len();
        let mut changed = applier.apply_match(egraph, eclass, subst, rule_name);
        if changed.is_empty() && egraph.nodes().len() > before {
            // The result was built but its union merged nothing (the analysis had folded it
            // into the root's class already): the e-graph grew all the same, and an
            // application that grows it is one the report counts.
            changed.push(eclass);
        }
        if egraph.analysis.created.is_some() && egraph.nodes().len() > before {
            // With explanations on (`--explain`): the e-nodes this application added exist
            // because of it, applied at the first root's own e-node.
            let root = (applier.rule.source.roots.first())
                .and_then(|&t| source_node(&applier.rule, &applier.variant, egraph, subst, t))
                .map_or(Root::Class(eclass), Root::Node);
            record_creation(egraph, before, root, rule_name);
        }
        changed
    }
}

/// The applier of a rewrite whose result is a `ResultPlan`, for the saturation loop's first
/// pass over an iteration's matches.
///
/// The loop applies first the matches whose results are in the e-graph already: their unions
/// merge classes, so that the e-nodes the other matches then add are built over merged
/// classes and found more often. Applied in rule order instead, a rule whose results are new
/// (the right-nested sub-chains `(a (b c))` of a left-nested matrix chain) makes a new class
/// per match for sub-chains that another rule's matches are about to merge, and the work
/// depends on which rule comes first: 3.7x the unions at N = 80.
#[derive(Clone)]
pub(crate) struct PlannedApplier(Arc<RuleApplier>);

/// What the first pass finds for a match, reading the e-graph only (so that it runs on many
/// matches in parallel).
#[derive(Debug, PartialEq)]
pub(crate) enum Existing {
    /// Nothing to do: the result is the root's class already, or the constraints fail.
    Nothing,
    /// The roots, and the results to union them with, all in the e-graph.
    Union(Ids, Ids),
    /// A node of the result is not in the e-graph, or the result is not of the roots' types:
    /// the second pass applies the match ([`Applier::apply_one`]).
    Missing,
}

impl PlannedApplier {
    /// What a match of this rewrite rooted at `eclass` comes to if its result exists.
    pub(crate) fn find_existing(&self, egraph: &PtirEGraph, eclass: Id, subst: &Subst) -> Existing {
        self.0.find_existing(egraph, eclass, subst)
    }
}

impl Existing {
    /// Applies what the first pass found, justified by `rule`; returns how many roots changed.
    pub(crate) fn apply(self, egraph: &mut PtirEGraph, rule: Symbol) -> usize {
        match self {
            Existing::Union(roots, results) => union_roots(egraph, roots, results, rule).len(),
            Existing::Nothing | Existing::Missing => 0,
        }
    }
}

impl RuleApplier {
    /// The classes of the result of the match `subst` through its plan, if it has one (see
    /// [`ResultPlan::resolve`]).
    fn result(
        &self,
        classes: &mut impl StepClasses,
        subst: &Subst,
        steps: &mut StepIds,
    ) -> Option<Ids> {
        let plan = self.plan.as_ref()?;
        plan.resolve(classes, &self.rule, &self.variant, subst, steps)
    }

    /// The classes of the values the `single-use` constraints name, each with the classes of
    /// its users inside the match; `None` if one has two (it has two users then, whatever
    /// extraction does).
    fn single_use_values(
        &self,
        egraph: &PtirEGraph,
        subst: &Subst,
        b: &Bindings<Id>,
    ) -> Option<Watched> {
        let mut out = SmallVec::new();
        for (v, users) in &self.single_use {
            let value = egraph.find(*b.values.get(v)?);
            let mut inside: SmallVec<[Id; 1]> = SmallVec::new();
            for &t in users {
                let class = lookup_term(&self.rule, &self.variant, egraph, subst, t)?;
                let class = egraph.find(class);
                if !inside.contains(&class) {
                    inside.push(class);
                }
            }
            if inside.len() > 1 {
                return None;
            }
            out.push((value, inside));
        }
        Some(out)
    }

    /// The e-node of each result root of a resolved plan (`steps`: the classes of its steps).
    fn plan_roots(
        &self,
        egraph: &PtirEGraph,
        subst: &Subst,
        steps: &StepIds,
    ) -> Option<SmallVec<[PtirNode; 1]>> {
        let plan = self.plan.as_ref()?;
        plan.roots
            .iter()
            .map(|&r| {
                let step = plan.steps.get(r)?;
                let mut node = PtirNode::Op(OpKind::pure(OpKey::Tuple), Children::new());
                step.write_node(steps, subst, &mut node, |leaf| egraph.lookup(leaf))?;
                Some(node)
            })
            .collect()
    }

    /// [`PlannedApplier::find_existing`].
    fn find_existing(&self, egraph: &PtirEGraph, eclass: Id, subst: &Subst) -> Existing {
        let Some(roots) = self.roots(eclass, subst) else {
            return Existing::Nothing;
        };
        let mut steps = StepIds::new();
        let Some(results) = self.result(&mut Find(egraph), subst, &mut steps) else {
            return Existing::Missing;
        };
        if done(egraph, &roots, &results) {
            return Existing::Nothing;
        }
        if self.check(egraph, subst).is_none() {
            return Existing::Nothing;
        }
        if !same_types(egraph, &roots, &results) || !self.single_use.is_empty() {
            // A `single-use` rule records its guard as it applies (second pass).
            return Existing::Missing;
        }
        Existing::Union(roots, results)
    }

    /// Whether the constraints hold (`None` if not), with the bindings by name if checking
    /// them took those.
    fn check(&self, egraph: &PtirEGraph, subst: &Subst) -> Option<Option<Bindings<Id>>> {
        match &self.constraints {
            Some(constraints) => constraints.hold(egraph, subst).then_some(None),
            None => {
                let b = self.bindings(egraph, subst)?;
                let type_of = |id: &Id| egraph[*id].data.ty.clone().unwrap_or(Type::Tuple(vec![]));
                // `single-use` holds here and is decided at extraction (`crate::single_use`).
                let engine = |pred: &str, _: &[Attr]| pred == ptir_rules::SINGLE_USE;
                let holds = (self.rule).constraints_hold(&b, &self.registry, type_of, engine);
                holds.then_some(Some(b))
            }
        }
    }

    /// [`Applier::apply_one`] without the record of what it added.
    fn apply_match(
        &self,
        egraph: &mut PtirEGraph,
        eclass: Id,
        subst: &Subst,
        rule_name: Symbol,
    ) -> Vec<Id> {
        let Some(roots) = self.roots(eclass, subst) else {
            return vec![];
        };
        let mut steps = StepIds::new();
        let found = self.result(&mut Find(egraph), subst, &mut steps);
        if found
            .as_ref()
            .is_some_and(|results| done(egraph, &roots, results))
        {
            return vec![];
        }
        let Some(b) = self.check(egraph, subst) else {
            return vec![];
        };
        let values = match (&b, self.single_use.is_empty()) {
            (_, true) => SmallVec::new(),
            (Some(b), false) => match self.single_use_values(egraph, subst, b) {
                Some(values) => values,
                None => return vec![],
            },
            (None, false) => return vec![],
        };
        // Built from the plan, the result's nodes are added as they are (their types checked
        // one by one); only a rule without a plan, or a result of the wrong type, takes the
        // general path, which says what is wrong.
        let planned = found.or_else(|| self.result(&mut Build(egraph), subst, &mut steps));
        if let Some(results) = planned.filter(|results| same_types(egraph, &roots, results)) {
            if !values.is_empty() {
                let fused = self.plan_roots(egraph, subst, &steps);
                let Some(fused) = fused else {
                    return vec![];
                };
                egraph.analysis.single_use.push(Guard {
                    fused: roots.iter().copied().zip(fused).collect(),
                    values,
                });
            }
            return union_roots(egraph, roots, results, rule_name);
        }
        let root_types: Vec<Type> = roots
            .iter()
            .map(|r| egraph[*r].data.ty.clone().unwrap_or(Type::Tuple(vec![])))
            .collect();
        // Only the general path needs the bindings by name.
        let Some(b) = b.or_else(|| self.bindings(egraph, subst)) else {
            return vec![];
        };
        let mut builder = EGraphBuilder {
            egraph,
            built: Vec::new(),
        };
        let results = match self
            .rule
            .instantiate(&b, &root_types, &self.registry, &mut builder)
        {
            Ok(r) => r,
            Err(
                ptir_rules::ApplyError::NativeDeclined(_)
                | ptir_rules::ApplyError::NoSuchValue { .. },
            ) => return vec![],
            Err(e) => {
                builder.egraph.analysis.type_errors.push(e.to_string());
                return vec![];
            }
        };
        let EGraphBuilder { egraph, built } = builder;
        if !values.is_empty() {
            // The fused e-node of each root: the last one built in its result's class.
            let fused: Option<SmallVec<[(Id, PtirNode); 1]>> = (roots.iter().zip(&results))
                .map(|(r, x)| {
                    let x = egraph.find(*x);
                    let node = built.iter().rev().find(|(id, _)| egraph.find(*id) == x)?;
                    Some((*r, node.1.clone()))
                })
                .collect();
            let Some(fused) = fused else {
                return vec![];
            };
            egraph.analysis.single_use.push(Guard { fused, values });
        }
        union_roots(egraph, roots, results, rule_name)
    }
}

/// Whether each root is the class of its result already: a match found again (every
/// iteration finds the old ones) has nothing left to do then, whatever its constraints say.
fn done(egraph: &PtirEGraph, roots: &Ids, results: &Ids) -> bool {
    (roots.iter().zip(results)).all(|(r, x)| egraph.find(*r) == egraph.find(*x))
}

/// Whether each root and its result are of one type (types are interned: equal types have
/// equal ids).
fn same_types(egraph: &PtirEGraph, roots: &Ids, results: &Ids) -> bool {
    let ty = |id: &Id| egraph[*id].data.ty_id;
    (roots.iter().zip(results)).all(|(r, x)| ty(r) == ty(x))
}

/// Unions each matched root with its result, justified by `rule` (what egg's explanations
/// name, `--explain`); returns the roots that changed.
fn union_roots(
    egraph: &mut PtirEGraph,
    roots: Ids,
    results: impl IntoIterator<Item = Id>,
    rule: Symbol,
) -> Vec<Id> {
    let mut changed = Vec::new();
    for (root, result) in roots.into_iter().zip(results) {
        if egraph.union_trusted(root, result, rule) {
            changed.push(root);
        }
    }
    changed
}

/// Builds result ops as e-nodes.
struct EGraphBuilder<'a> {
    egraph: &'a mut PtirEGraph,
    /// The e-nodes built, with their classes (a `single-use` guard names the fused one).
    built: Vec<(Id, PtirNode)>,
}

impl ResultBuilder for EGraphBuilder<'_> {
    type Value = Id;

    fn type_of(&self, v: &Id) -> Type {
        self.egraph[*v]
            .data
            .ty
            .clone()
            .unwrap_or(Type::Tuple(vec![]))
    }

    fn build(&mut self, op: Op, operands: Vec<Id>, ty: Type) -> Id {
        let node = op_node(self.egraph, &op, Children::from_vec(operands), &ty);
        let id = self.egraph.add(node.clone());
        self.built.push((id, node));
        id
    }
}

/// The e-node of a (non-region) PTIR op with operand classes and result type `ty` (its
/// attribute leaves added).
fn op_node(egraph: &mut PtirEGraph, op: &Op, mut children: Children, ty: &Type) -> PtirNode {
    if let (Op::Constant(lit), Type::Tensor(t)) = (op, ty) {
        let c = egraph.analysis.tables.constant(t, lit);
        return PtirNode::Const(c);
    }
    for a in op_attrs(op, ty) {
        let id = egraph.analysis.tables.attr(&a);
        children.push(egraph.add(PtirNode::Attr(id)));
    }
    let key = op.key();
    let kind = OpKind {
        key,
        callee: match op {
            Op::Call { callee } => Some(Symbol::from(callee.as_str())),
            _ => None,
        },
        ty: (key == OpKey::Call).then(|| egraph.analysis.tables.ty(ty)),
        ..OpKind::pure(key)
    };
    PtirNode::Op(kind, children)
}

/// Rewrites every e-graph run has, beside the rule set: the structural identities that the
/// greedy driver's folders apply (`tuple_get(tuple(a, b), 1) = b`), which the rule language
/// cannot state for every tuple width.
fn builtin_rewrites() -> Vec<Rewrite<PtirNode, crate::analysis::PtirAnalysis>> {
    let t: EVar = "?t".parse().expect("a valid variable name");
    let i: EVar = "?i".parse().expect("a valid variable name");
    let mut ast = RecExpr::default();
    let tv = ast.add(ENodeOrVar::Var(t));
    let iv = ast.add(ENodeOrVar::Var(i));
    let kind = OpKind::pure(OpKey::TupleGet);
    ast.add(ENodeOrVar::ENode(PtirNode::Op(
        kind,
        smallvec::smallvec![tv, iv],
    )));
    Rewrite::new(
        "tuple-get-of-tuple",
        Pattern::new(ast),
        TupleGetOfTuple { t, i },
    )
    .into_iter()
    .collect()
}

/// `tuple_get(tuple(x0, x1, ...), i) = xi`.
struct TupleGetOfTuple {
    t: EVar,
    i: EVar,
}

impl Applier<PtirNode, crate::analysis::PtirAnalysis> for TupleGetOfTuple {
    fn apply_one(
        &self,
        egraph: &mut PtirEGraph,
        eclass: Id,
        subst: &Subst,
        _ast: Option<&PatternAst<PtirNode>>,
        rule_name: Symbol,
    ) -> Vec<Id> {
        let (Some(t), Some(i)) = (subst.get(self.t), subst.get(self.i)) else {
            return vec![];
        };
        let Some(&AttrValue::Int(index)) = egraph[*i].data.attr.as_deref() else {
            return vec![];
        };
        let elements: Vec<Id> = egraph[*t]
            .nodes
            .iter()
            .filter_map(|n| match n {
                PtirNode::Op(k, ch) if k.key == OpKey::Tuple && k.token == 0 => {
                    ch.get(index).copied()
                }
                _ => None,
            })
            .collect();
        let mut changed = Vec::new();
        for x in elements {
            if egraph[x].data.ty == egraph[eclass].data.ty
                && egraph.union_trusted(eclass, x, rule_name)
            {
                changed.push(eclass);
            }
        }
        changed
    }
}

/// Test support: `rules` compiled for `egraph` (rebuilt after), and the index of the rewrite
/// named `name`.
#[cfg(test)]
pub(crate) fn compiled_rewrite(
    egraph: &mut PtirEGraph,
    rules: &RuleSet,
    name: &str,
) -> (CompiledRules, usize) {
    let compiled = compile(rules, egraph);
    crate::rebuild::rebuild(egraph);
    let r = (compiled.rewrites.iter())
        .position(|rw| rw.name.as_str() == name)
        .unwrap();
    (compiled, r)
}

#[cfg(test)]
mod index_tests {
    use super::*;
    use crate::saturate::{saturate, SaturationOptions};
    use ptir_ir::generate::{generate, gpt2_stack, GenConfig, Gpt2Config};
    use ptir_pass::Limits;
    use ptir_pass::StopReason;
    use ptir_rules::index::PatternIndex;
    use ptir_test_support::library::non_firing_rules;

    /// Every e-class where a compiled single-root rule's egg pattern matches is one where the
    /// pattern index finds the rule, and where the pruned index finds it unless it was pruned
    /// as known: on generated programs and a GPT-2 block, saturated for
    /// two iterations (so that classes hold several nodes), with the bundled rules (fast-math
    /// included), call patterns and generated non-firing rules.
    #[test]
    fn the_index_prunes_no_rule_that_matches() {
        let mut rules = RuleSet::bundled().unwrap();
        rules
            .add_source("never.rules", &non_firing_rules(40))
            .unwrap();
        rules
            .add_source(
                "calls.rules",
                "(rule neg-call (neg (call @helper ?x)) => (call @helper (neg ?x)))
                 (rule tt (transpose (transpose ?x (1 0)) (1 0)) => ?x)",
            )
            .unwrap();
        let index = PatternIndex::new(rules.rules());
        // A pruned query may leave out the rules it was told are known (every third one).
        let known = |r: u32| r.is_multiple_of(3);
        let pruning = index.pruning(known);
        let mut programs: Vec<ptir_ir::Program> = (0..40)
            .map(|seed| generate(&GenConfig::new(seed, 40)))
            .collect();
        programs.push(gpt2_stack(&Gpt2Config::small(1)).unwrap());
        let limits = SaturationOptions {
            limits: Limits {
                iterations: Some(2),
                ..Limits::default()
            },
            pattern_index: false,
            ..SaturationOptions::default()
        };
        let mut checked = 0;
        for program in &programs {
            for f in &program.functions {
                let Ok(mut lowered) = crate::lower(program, &f.name) else {
                    continue;
                };
                saturate(&mut lowered, &rules, &limits);
                let egraph = &mut lowered.egraph;
                let compiled = compile(&rules, egraph);
                crate::rebuild::rebuild(egraph);
                let mut found = Vec::new();
                let mut pruned = Vec::new();
                for class in egraph.classes() {
                    found.clear();
                    pruned.clear();
                    index.candidates(&EGraphSubject(egraph), class.id, &mut found);
                    let subject = EGraphSubject(egraph);
                    index.candidates_pruned(&subject, class.id, &pruning, &mut pruned);
                    for (r, rw) in compiled.rewrites.iter().enumerate() {
                        // Single-root rules: the index speaks of their first root only.
                        let Some(n) = compiled.rule_position(r) else {
                            continue;
                        };
                        if rules.rules()[n].source.roots.len() != 1 {
                            continue;
                        }
                        let n = &(n as u32);
                        if rw.searcher.search_eclass(egraph, class.id).is_some() {
                            checked += 1;
                            assert!(
                                found.contains(n),
                                "`{}` matches e-class {} but the index leaves it out",
                                rw.name,
                                class.id
                            );
                            assert!(
                                known(*n) || pruned.contains(n),
                                "`{}` matches e-class {} but the pruned index leaves it out",
                                rw.name,
                                class.id
                            );
                        }
                    }
                }
            }
        }
        assert!(checked > 100, "only {checked} matches checked");
    }

    /// A class of many nodes is searched by kind with a binary search: it visits exactly the
    /// nodes of that kind that a scan finds.
    #[test]
    fn a_large_class_is_searched_by_kind_like_a_scan() {
        use ptir_ir::{DType, TensorType, UnaryOp};
        let mut egraph = PtirEGraph::default();
        let ty = egraph
            .analysis
            .tables
            .ty(&TensorType::new(DType::F32, vec![2]).into());
        let unary = [UnaryOp::Neg, UnaryOp::Exp, UnaryOp::Tanh];
        let mut class = None;
        for i in 0..3 * SORTED_SEARCH_FROM as u32 {
            let p = egraph.add(PtirNode::Param(i, ty));
            let kind = OpKind::pure(OpKey::Unary(unary[i as usize % 3]));
            let n = egraph.add(PtirNode::Op(kind, smallvec::smallvec![p]));
            let c = *class.get_or_insert(n);
            egraph.union(c, n);
        }
        crate::rebuild::rebuild(&mut egraph);
        let class = egraph.find(class.unwrap());
        let subject = EGraphSubject(&egraph);
        assert!(egraph[class].nodes.len() >= SORTED_SEARCH_FROM);
        for key in [OpKey::Unary(UnaryOp::Exp), OpKey::Unary(UnaryOp::Log)]
            .into_iter()
            .chain(unary.map(OpKey::Unary))
        {
            let mut scanned = Vec::new();
            subject.nodes(class, &mut |x| {
                if subject.head(x).is_some_and(|h| h.key == key) {
                    scanned.push(x);
                }
            });
            let mut by_kind = Vec::new();
            subject.nodes_of(class, key, &mut |x| by_kind.push(x));
            assert_eq!(by_kind, scanned, "{key:?}");
        }
    }

    /// Results looked up and built from the plan give the whole closure of a matrix chain
    /// under associativity (and nothing else), and a result of the wrong type is still
    /// reported by the rule's name.
    #[test]
    fn type_constraints_give_the_answer_of_the_general_check() {
        use egg::Searcher;
        let rules = crate::saturate::bundled_and_fuzzed(11_000, 80);
        let registry = Arc::new(rules.registry().clone());
        let mut programs: Vec<_> = (0..32)
            .map(|seed| generate(&GenConfig::extended(seed, 40, vec![])))
            .collect();
        programs.push(ptir_ir::generate::matrix_chain(6, 1).unwrap().0);
        let limits = SaturationOptions {
            limits: Limits {
                iterations: Some(3),
                ..Limits::default()
            },
            ..SaturationOptions::default()
        };
        let (mut fast_rules, mut checked, mut held) = (0, 0, 0);
        for (_, mut lowered) in crate::saturate::saturated(&programs, &rules, &limits) {
            let egraph = &mut lowered.egraph;
            crate::rebuild::rebuild(egraph);
            for rule in rules.rules().iter().filter(|r| r.source.roots.len() == 1) {
                let variant = Variant::default();
                let mut c = PatternCompiler {
                    rule,
                    variant: &variant,
                    egraph,
                    fresh: 0,
                    splats: Vec::new(),
                };
                let Ok(ast) = c.compile(rule.source.roots[0]) else {
                    continue;
                };
                let splats = std::mem::take(&mut c.splats);
                let applier = RuleApplier::new(rule, &variant, &registry, splats, egraph);
                let Some(fast) = &applier.constraints else {
                    continue;
                };
                fast_rules += 1;
                for m in Pattern::new(ast).search(egraph) {
                    for subst in &m.substs {
                        let b = applier.bindings(egraph, subst).unwrap();
                        let type_of =
                            |id: &Id| egraph[*id].data.ty.clone().unwrap_or(Type::Tuple(vec![]));
                        let general = rule.constraints_hold(&b, &registry, type_of, |_, _| false);
                        assert_eq!(fast.hold(egraph, subst), general, "{}", rule.name);
                        checked += 1;
                        held += usize::from(general);
                    }
                }
            }
        }
        assert!(
            fast_rules > 500 && checked > 1_000,
            "{fast_rules} rules, {checked} matches"
        );
        assert!(held > 100 && held < checked, "{held} of {checked} hold");
    }

    #[test]
    fn results_built_from_the_plan_are_those_of_the_general_path() {
        let rules = RuleSet::bundled().unwrap();
        let (program, _) = ptir_ir::generate::matrix_chain(8, 3).unwrap();
        let f = &program.functions[0].name;
        let mut lowered = crate::lower(&program, f).unwrap();
        let report = saturate(&mut lowered, &rules, &SaturationOptions::default());
        assert!(report.rule_errors.is_empty(), "{report}");
        // The closure of a chain of n matrices under associativity: each sub-chain of
        // length l is a class of l - 1 products; and the n matrices, the one attribute and
        // the function body's region node.
        let n = 8;
        let products: usize = (2..=n).map(|l| (n - l + 1) * (l - 1)).sum();
        assert_eq!(report.nodes, products + n + 2, "{report}");
        assert_eq!(report.stop, StopReason::Saturated, "{report}");
        let plans = compile(&rules, &mut lowered.egraph);
        let with_plan = |name: &str| {
            let rw = plans.rewrites.iter().find(|rw| rw.name.as_str() == name);
            rw.is_some()
        };
        assert!(with_plan("dot-assoc-int") && with_plan("dot-assoc-rev-int"));
        let mut bad = RuleSet::new(rules.registry().clone());
        bad.add_source(
            "bad.rules",
            "(rule bad-square (dot_general ?a ?b (dims () () (1) (0))) \
               => (dot_general ?a ?a (dims () () (1) (0))) :when ((int ?a)))",
        )
        .unwrap();
        let mut lowered = crate::lower(&program, f).unwrap();
        let report = saturate(&mut lowered, &bad, &SaturationOptions::default());
        assert!(
            report.rule_errors.iter().any(|e| e.contains("bad-square")),
            "{report}"
        );
    }

    /// The first pass over an iteration's matches unions a match's root with its result
    /// only if the result is in the e-graph already, and leaves the others to the second.
    #[test]
    fn the_first_pass_applies_only_matches_whose_result_exists() {
        let rules = RuleSet::bundled().unwrap();
        let dot = |x: &str, y: &str, ty: &str| {
            format!("dot_general {x}, {y} lhs_contract=[1] rhs_contract=[0] : i32[{ty}]")
        };
        let params = "%0: i32[2,3], %1: i32[3,4], %2: i32[4,5]";
        // ((a b) c) alone: its result (a (b c)) is not in the e-graph.
        let alone = format!(
            "func @f({params}) -> (i32[2,5]) {{\n  %3 = {}\n  %4 = {}\n  return %4\n}}",
            dot("%0", "%1", "2,4"),
            dot("%3", "%2", "2,5"),
        );
        // And beside (a (b c)).
        let both = format!(
            "func @f({params}) -> (i32[2,5], i32[2,5]) {{\n  %3 = {}\n  %4 = {}\n  %5 = {}\n  \
             %6 = {}\n  return %4, %6\n}}",
            dot("%0", "%1", "2,4"),
            dot("%3", "%2", "2,5"),
            dot("%1", "%2", "3,5"),
            dot("%0", "%5", "2,5"),
        );
        for (text, exists) in [(alone, false), (both, true)] {
            let program = ptir_ir::parse(&text).unwrap();
            let mut lowered = crate::lower(&program, "f").unwrap();
            let egraph = &mut lowered.egraph;
            let (compiled, r) = compiled_rewrite(egraph, &rules, "dot-assoc-int");
            let (rw, applier) = (&compiled.rewrites[r], compiled.planned[r].as_ref().unwrap());
            let matches = rw.searcher.search(egraph);
            assert_eq!(matches.len(), 1, "{text}");
            let m = &matches[0];
            let classes = egraph.number_of_classes();
            let found = applier.find_existing(egraph, m.eclass, &m.substs[0]);
            if !exists {
                assert_eq!(found, Existing::Missing, "{text}");
                continue;
            }
            let Existing::Union(roots, _) = &found else {
                panic!("{found:?}: {text}");
            };
            assert_eq!(roots[..], [m.eclass]);
            assert_eq!(found.apply(egraph, rw.name), 1);
            crate::rebuild::rebuild(egraph);
            assert_eq!(egraph.number_of_classes(), classes - 1);
        }
    }
}
