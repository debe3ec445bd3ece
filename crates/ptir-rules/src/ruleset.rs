//! [`RuleSet`]: every rule of a set of files, checked together, and filtered as MLIR's
//! `FrozenRewritePatternSet` filters patterns (by name or label; disabled wins).

use crate::ast::{Rule, Term, FAST_MATH};
use crate::callee::callee_matches;
use crate::error::RuleError;
use crate::index::PatternIndex;
use crate::loop_pat::LoopPattern;
use crate::parse::{parse_rules, ExternSpec, VariadicRule, VARIADIC_ARITY};
use crate::registry::Registry;
use indexmap::IndexMap;
use ptir_ir::OpKey;
use ptir_ir::Program;
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::OnceLock;

/// The fewest rules worked on in parallel (decoded from a library, or their reach found): a
/// rule takes a few microseconds, starting rayon's threads a few hundred, and every process
/// loads the bundled rules (a few hundred at most).
pub(crate) const PARALLEL_RULES_MIN: usize = 1024;

/// `f` of each of `items`, in order: on rayon's threads when `parallel`.
pub(crate) fn map_in_order<T: Sync, U: Send>(
    items: &[T],
    parallel: bool,
    f: impl Fn(&T) -> U + Sync + Send,
) -> Vec<U> {
    use rayon::prelude::*;
    match parallel {
        true => items.par_iter().map(f).collect(),
        false => items.iter().map(f).collect(),
    }
}

/// What a rule needs and makes, by op kind: all that [`RuleSet::retain_applicable`] reads of
/// it, which compiled libraries store beside each rule so that a load can skip decoding the
/// rules a program cannot use ([`RuleSet::add_compiled_applicable`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Reach {
    /// The op kinds of its source pattern (a match needs every one), constants for splats.
    pub needs: Vec<OpKey>,
    /// The op kinds its result builds, constants for splats.
    pub makes: Vec<OpKey>,
    /// Its result calls a native builder, which may build any op.
    pub makes_any: bool,
}

impl Reach {
    /// The reach of `rule`.
    pub fn of(rule: &Rule) -> Reach {
        let kind = |t: &Term| match t {
            Term::Op { key, .. } => Some(*key),
            Term::Splat { .. } => Some(OpKey::Constant),
            Term::Value(_) | Term::Native { .. } => None,
        };
        let result = &rule.result.terms;
        Reach {
            needs: rule.source.terms.iter().filter_map(kind).collect(),
            makes: result.iter().filter_map(kind).collect(),
            makes_any: result.iter().any(|t| matches!(t, Term::Native { .. })),
        }
    }
}

/// Which of the rules reaching as `reaches` can match a program whose ops are of the kinds
/// `present` (see [`RuleSet::retain_applicable`]): to a fixpoint, a rule can match if the
/// program, the engines ([`ENGINE_MADE`]) or a rule that can match make every kind it needs;
/// once a rule that can match makes any op, every rule can.
pub fn applicable(reaches: &[Reach], present: impl IntoIterator<Item = OpKey>) -> Vec<bool> {
    let mut present: HashSet<OpKey> = present.into_iter().chain(ENGINE_MADE).collect();
    let mut can = vec![false; reaches.len()];
    let mut any_op = false;
    loop {
        let mut grew = false;
        for (i, r) in reaches.iter().enumerate() {
            if can[i] || !(any_op || r.needs.iter().all(|k| present.contains(k))) {
                continue;
            }
            can[i] = true;
            for k in &r.makes {
                grew |= present.insert(*k);
            }
            grew |= r.makes_any && !std::mem::replace(&mut any_op, true);
        }
        if !grew {
            return can;
        }
    }
}

/// The op kinds the engines make without a rule, which every program may come to hold:
/// constants (folds materialize them) and tuples (the lowering of multi-result ops, and
/// `tuple_get(tuple(...))`, a built-in identity of both engines).
pub const ENGINE_MADE: [OpKey; 3] = [OpKey::Constant, OpKey::Tuple, OpKey::TupleGet];

/// The rule files bundled with the library (`rules/*.rules`), as (file name, text).
pub const BUNDLED: &[(&str, &str)] = &[
    (
        "rules/canonicalize.rules",
        include_str!("../../../rules/canonicalize.rules"),
    ),
    (
        "rules/tensor.rules",
        include_str!("../../../rules/tensor.rules"),
    ),
    (
        "rules/algebra.rules",
        include_str!("../../../rules/algebra.rules"),
    ),
    (
        "rules/fusion.rules",
        include_str!("../../../rules/fusion.rules"),
    ),
];

/// The source-written patterns bundled with the library (`rules/*.pat`: the fusion idioms at
/// the corpus shapes), as (file name, text).
pub const BUNDLED_PATS: &[(&str, &str)] = &[
    (
        "rules/softmax.pat",
        include_str!("../../../rules/softmax.pat"),
    ),
    ("rules/gelu.pat", include_str!("../../../rules/gelu.pat")),
    (
        "rules/layernorm.pat",
        include_str!("../../../rules/layernorm.pat"),
    ),
    (
        "rules/linear.pat",
        include_str!("../../../rules/linear.pat"),
    ),
    (
        "rules/moments.pat",
        include_str!("../../../rules/moments.pat"),
    ),
];

/// A checked set of rules with the registry they were checked against.
#[derive(Clone, Debug)]
pub struct RuleSet {
    rules: Vec<Rule>,
    /// Position of each rule in `rules`, by name (names are unique).
    by_name: FxHashMap<String, usize>,
    externs: IndexMap<String, ExternSpec>,
    /// `.pat` idioms over loops, applied before the rules (see [`crate::LoopPattern`]).
    loop_patterns: Vec<LoopPattern>,
    registry: Registry,
    /// The pattern index of `rules`, built on first use (both engines ask for it; a set is
    /// indexed once, not once per function saturated) and dropped when a rule is added.
    index: OnceLock<PatternIndex>,
    /// Every callee a rule's source names, sorted, built on first use and dropped with the
    /// index (the e-graph compiles call patterns per function: a set is walked once).
    source_callees: OnceLock<Vec<String>>,
    /// The variadic rules as written, and the arities past [`VARIADIC_ARITY`] they were
    /// expanded to.
    variadic: Vec<VariadicRule>,
    variadic_arities: std::collections::BTreeSet<usize>,
    /// The names and labels of the rules a load left undecoded because the program could not
    /// use them ([`RuleSet::add_compiled_applicable`]): still names a user may give.
    unloaded: Vec<(String, Vec<String>)>,
}

/// Which rules to keep: by name or label. An empty `enabled` list keeps everything not
/// disabled; a rule both enabled and disabled is disabled.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleFilter {
    /// Names or labels to keep (empty: all).
    pub enabled: Vec<String>,
    /// Names or labels to drop.
    pub disabled: Vec<String>,
}

/// A rule extern renamed for one program, because the program owns its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternRename {
    /// The extern's name in the rules.
    pub from: String,
    /// Its name in this program's rules and output.
    pub to: String,
    /// The program's own function or extern that owns the name.
    pub owner: String,
}

impl std::fmt::Display for ExternRename {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "rule extern @{} is @{} here: the program has its own @{}",
            self.from, self.to, self.owner
        )
    }
}

/// A name given to enable or disable rules that no rule of the set is called or labelled.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no rule is named or labelled `{name}`{}", suggestion.as_ref().map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default())]
pub struct UnknownRuleName {
    /// The name as given.
    pub name: String,
    /// The closest rule name or label, if one is close.
    pub suggestion: Option<String>,
}

impl RuleFilter {
    /// The default of both engines: everything but `fast-math` rules.
    pub fn exact() -> Self {
        RuleFilter {
            enabled: Vec::new(),
            disabled: vec![FAST_MATH.to_string()],
        }
    }

    /// Does the filter keep `rule`?
    pub fn keeps(&self, rule: &Rule) -> bool {
        self.keeps_named(&rule.name, &rule.labels)
    }

    /// Does the filter keep a rule or loop pattern with this name and these labels?
    pub fn keeps_named<L: AsRef<str>>(&self, name: &str, labels: &[L]) -> bool {
        let labelled = |k: &String| labels.iter().any(|l| l.as_ref() == k);
        let named = |keys: &[String]| keys.iter().any(|k| k == name || labelled(k));
        !named(&self.disabled) && (self.enabled.is_empty() || named(&self.enabled))
    }
}

impl RuleSet {
    /// An empty set checked against `registry`.
    pub fn new(registry: Registry) -> Self {
        RuleSet {
            rules: Vec::new(),
            by_name: FxHashMap::default(),
            externs: IndexMap::new(),
            loop_patterns: Vec::new(),
            registry,
            index: OnceLock::new(),
            source_callees: OnceLock::new(),
            variadic: Vec::new(),
            variadic_arities: Default::default(),
            unloaded: Vec::new(),
        }
    }

    /// The bundled `rules/` library ([`BUNDLED`] then [`BUNDLED_PATS`]), checked against
    /// [`Registry::standard`].
    ///
    /// ```
    /// let rules = ptir_rules::RuleSet::bundled().unwrap();
    /// assert!(rules.rule("mul-one").is_some());
    /// ```
    pub fn bundled() -> Result<Self, RuleError> {
        RuleSet::bundled_with(Registry::standard())
    }

    /// The bundled library checked against `registry`, which must hold what the bundled rules
    /// name (start from [`Registry::standard`] and add to it): a caller's own predicates and
    /// native functions for the rules it adds next.
    ///
    /// ```
    /// let mut registry = ptir_rules::Registry::standard();
    /// registry.add_predicate("rank1", 1, "a rank-1 tensor", |args| {
    ///     args[0].tensor().is_some_and(|t| t.shape.len() == 1)
    /// });
    /// let rules = ptir_rules::RuleSet::bundled_with(registry).unwrap();
    /// assert!(rules.registry().predicate("rank1").is_some());
    /// ```
    pub fn bundled_with(registry: Registry) -> Result<Self, RuleError> {
        let mut set = RuleSet::new(registry);
        for (file, text) in BUNDLED {
            set.add_source(file, text)?;
        }
        for (file, text) in BUNDLED_PATS {
            set.add_pat_source(file, text)?;
        }
        Ok(set)
    }

    /// Parses and checks one rule file's text and adds its rules; `file` names it in errors.
    /// A rule whose name is already in the set is an error.
    pub fn add_source(&mut self, file: &str, text: &str) -> Result<(), RuleError> {
        let contents = parse_rules(file, text, &self.registry)?;
        for e in contents.externs {
            self.externs.insert(e.name.clone(), e);
        }
        for rule in contents.rules {
            self.add_rule(rule)?;
        }
        self.add_variadic(contents.variadic)
    }

    /// Keeps variadic rules as written, expanded to the arities the set's others have.
    pub(crate) fn add_variadic(&mut self, templates: Vec<VariadicRule>) -> Result<(), RuleError> {
        // (Where the set was expanded before this file came, its rules follow.)
        let arities: Vec<usize> = self.variadic_arities.iter().copied().collect();
        for t in templates {
            self.expand_template(&t, &arities)?;
            self.variadic.push(t);
        }
        Ok(())
    }

    /// Expands every variadic rule (`?xs...`) to each of `arities` past [`VARIADIC_ARITY`]
    /// (rules hold 0 to it when loaded) that it does not have yet: the optimizer passes the
    /// lengths of a program's `concat`s, calls and `tuple`s, so that a list matches any
    /// arity, and only the arities a program has cost a rule (a 2,000-part concat adds one
    /// rule per variadic rule, not 1,984). Returns how many rules were added.
    ///
    /// ```
    /// let mut set = ptir_rules::RuleSet::new(ptir_rules::Registry::standard());
    /// set.add_source("f.rules", "(rule flat (concat ?a (concat ?a ?xs...) ?y) => (concat ?a ?xs... ?y))").unwrap();
    /// assert!(set.rule("flat/16").is_some() && set.rule("flat/20").is_none());
    /// assert_eq!(set.expand_variadic([3, 20, 2000]).unwrap(), 2);
    /// assert!(set.rule("flat/20").is_some() && set.rule("flat/19").is_none());
    /// assert_eq!(set.expand_variadic([20]).unwrap(), 0);
    /// ```
    pub fn expand_variadic(
        &mut self,
        arities: impl IntoIterator<Item = usize>,
    ) -> Result<usize, RuleError> {
        let new: Vec<usize> = (arities.into_iter())
            .filter(|&n| n > VARIADIC_ARITY && !self.variadic_arities.contains(&n))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        if new.is_empty() {
            return Ok(0);
        }
        let before = self.rules.len();
        for t in std::mem::take(&mut self.variadic) {
            // A filter that dropped the rule's loaded arities dropped the rule.
            if (self.rules.iter()).any(|r| r.labels.last() == Some(&t.name)) {
                self.expand_template(&t, &new)?;
            }
            self.variadic.push(t);
        }
        self.variadic_arities.extend(new);
        Ok(self.rules.len() - before)
    }

    /// Adds `t`'s rules of `arities` that the set does not have (a compiled library of an
    /// expanded set holds some already); another rule of the same name (a user's `NAME/40`)
    /// is the duplicate-name error it would be at an arity loaded with the file.
    fn expand_template(&mut self, t: &VariadicRule, arities: &[usize]) -> Result<(), RuleError> {
        for &n in arities {
            for rule in t.expand(n..=n, &self.registry)? {
                if self.rule(&rule.name) != Some(&rule) {
                    self.add_rule(rule)?;
                }
            }
        }
        Ok(())
    }

    /// The variadic rules as written (their expansions are among [`RuleSet::rules`]).
    pub fn variadic_rules(&self) -> &[VariadicRule] {
        &self.variadic
    }

    /// Parses a `.pat` file (source-written patterns) and adds its rules and externs. A
    /// `.pat` extern declaration states no cost, so it does not replace an earlier
    /// declaration of the same extern (from a rule file, with its `:cost`).
    pub fn add_pat_source(&mut self, file: &str, text: &str) -> Result<(), RuleError> {
        let contents = crate::pat::parse_pat(file, text)?;
        for e in contents.externs {
            self.externs.entry(e.name.clone()).or_insert(e);
        }
        for rule in contents.rules {
            self.add_rule(rule)?;
        }
        for p in contents.loop_patterns {
            self.add_loop_pattern(p)?;
        }
        Ok(())
    }

    /// Adds a loop pattern, rejecting a name a rule or loop pattern of the set already has.
    pub fn add_loop_pattern(&mut self, p: LoopPattern) -> Result<(), RuleError> {
        self.check_new_name(&p.name, &p.location)?;
        self.loop_patterns.push(p);
        Ok(())
    }

    /// An error if a rule or loop pattern of the set is already named `name` (a new one
    /// defined at `at`).
    fn check_new_name(&self, name: &str, at: &crate::Location) -> Result<(), RuleError> {
        let prev = self.rule(name).map(|r| &r.location).or_else(|| {
            (self.loop_patterns.iter())
                .find(|q| q.name == name)
                .map(|q| &q.location)
        });
        match prev {
            Some(prev) => Err(RuleError::new(
                &at.file,
                at.line,
                Some(name.to_string()),
                format!("duplicate rule name (first defined at {prev})"),
            )),
            None => Ok(()),
        }
    }

    /// The loop patterns (`.pat` idioms over `scan`, `while` and `cond`), in load order.
    pub fn loop_patterns(&self) -> &[LoopPattern] {
        &self.loop_patterns
    }

    /// Adds an already-built rule (e.g. from a `.pat` file), rejecting duplicate names and
    /// patterns that are cyclic, too deep or too large (see [`crate::RULE_DEPTH_LIMIT`]).
    pub fn add_rule(&mut self, rule: Rule) -> Result<(), RuleError> {
        crate::bounds::check(&rule).map_err(|e| {
            RuleError::new(
                &rule.location.file,
                rule.location.line,
                Some(rule.name.clone()),
                e.message,
            )
        })?;
        self.add_bounded_rule(rule)
    }

    /// [`RuleSet::add_rule`] for a rule whose patterns were checked against the bounds
    /// already (`crate::bounds::check`).
    pub(crate) fn add_bounded_rule(&mut self, rule: Rule) -> Result<(), RuleError> {
        self.check_new_name(&rule.name, &rule.location)?;
        self.by_name.insert(rule.name.clone(), self.rules.len());
        self.rules.push(rule);
        self.rules_changed();
        Ok(())
    }

    /// The pattern index of [`rules`](Self::rules) (rule `n` is `rules()[n]`), built on the
    /// first call.
    pub fn index(&self) -> &PatternIndex {
        self.index.get_or_init(|| PatternIndex::new(&self.rules))
    }

    /// Declares an extern that rule results may call.
    pub fn add_extern(&mut self, e: ExternSpec) {
        self.externs.insert(e.name.clone(), e);
    }

    /// All rules, in load order.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// The rule named `name`.
    pub fn rule(&self, name: &str) -> Option<&Rule> {
        self.by_name.get(name).map(|&i| &self.rules[i])
    }

    /// The externs rule results may call.
    pub fn externs(&self) -> &IndexMap<String, ExternSpec> {
        &self.externs
    }

    /// Declares in `program` every extern of the set that it neither defines nor declares
    /// (a program the rules may rewrite into calls of them then verifies); returns their
    /// names, in the set's order.
    ///
    /// ```
    /// let rules = ptir_rules::RuleSet::bundled().unwrap();
    /// let mut p = ptir_ir::parse("func @f(%0: f32[2]) -> (f32[2]) {\n  return %0\n}").unwrap();
    /// let added = rules.declare_externs(&mut p);
    /// assert!(added.iter().any(|name| name == "linear"));
    /// assert_eq!(p.externs.len(), added.len());
    /// assert!(rules.declare_externs(&mut p).is_empty());
    /// ```
    pub fn declare_externs(&self, program: &mut Program) -> Vec<String> {
        declare_all_externs(program, &self.externs)
    }

    /// Declares every extern of the set that `program` calls but neither defines nor declares
    /// (shape-polymorphic, with the declared purity), in the order it calls them: what an
    /// output needs to verify, as both engines leave it.
    ///
    /// ```
    /// let rules = ptir_rules::RuleSet::bundled().unwrap();
    /// let mut p = ptir_ir::parse("extern @linear(f32[2,2], f32[2,2], f32[2]) -> (f32[2,2]) pure\nfunc @f(%0: f32[2,2], %1: f32[2]) -> (f32[2,2]) {\n  %2 = call @linear(%0, %0, %1) : f32[2,2]\n  return %2\n}").unwrap();
    /// p.externs.clear();
    /// rules.declare_called_externs(&mut p);
    /// assert_eq!(p.externs.len(), 1);
    /// ```
    pub fn declare_called_externs(&self, program: &mut Program) {
        declare_called_externs(program, &[&self.externs]);
    }

    /// Every callee a rule's source pattern names (`(call @linear ...)` gives `linear`),
    /// sorted and without repeats; computed once per set.
    ///
    /// ```
    /// let rules = ptir_rules::RuleSet::bundled().unwrap();
    /// let callees = rules.source_callees();
    /// assert!(callees.windows(2).all(|w| w[0] < w[1]));
    /// ```
    pub fn source_callees(&self) -> &[String] {
        self.source_callees.get_or_init(|| {
            let mut callees: Vec<String> = (self.rules.iter())
                .flat_map(|r| r.source.terms.iter())
                .filter_map(|t| match t {
                    Term::Op {
                        key: ptir_ir::OpKey::Call,
                        callee: Some(c),
                        ..
                    } => Some(c.clone()),
                    _ => None,
                })
                .collect();
            callees.sort();
            callees.dedup();
            callees
        })
    }

    /// The registry the rules were checked against (engines evaluate constraints with it).
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Drops the rules and loop patterns `filter` does not keep, in place (no copy of the
    /// rules kept: a rule library may be large).
    pub fn retain(&mut self, filter: &RuleFilter) {
        let (rules, patterns) = (self.rules.len(), self.loop_patterns.len());
        self.rules.retain(|r| filter.keeps(r));
        (self.loop_patterns).retain(|p| filter.keeps_named(&p.name, &p.labels));
        if (rules, patterns) != (self.rules.len(), self.loop_patterns.len()) {
            self.rules_removed();
        }
    }

    /// Drops the rules that can never match a program whose ops are of the kinds `present`,
    /// in place, and returns how many it dropped (MLIR's pattern applicator likewise never
    /// tries a pattern rooted at an op the IR cannot hold). A rule matches only where every
    /// op of its source pattern is; an op kind is there if the program has it, if it is one
    /// the engines make themselves ([`ENGINE_MADE`]: constants from folds, tuples), or if a
    /// rule that can match builds it in its result (to a fixpoint, so that a chain of rules
    /// is kept whole). A rule whose result calls a native builder may build any op: once one
    /// can match, every rule is kept. What a kept rule sees and does is unchanged, so an
    /// engine's output is the same with the dropped rules or without them (test
    /// `dropping_the_rules_that_cannot_match_changes_no_output`); a run is spared their
    /// indexing and matching.
    ///
    /// ```
    /// use ptir_ir::{OpKey, UnaryOp};
    /// let mut rules = ptir_rules::RuleSet::new(ptir_rules::Registry::standard());
    /// rules.add_source("r.rules", "
    ///     (rule neg-neg (neg (neg ?x)) => ?x)
    ///     (rule exp-log (exp (log ?x)) => ?x)
    ///     (rule log-sub (log (sub ?x ?y)) => (log (add ?x (neg ?y))))").unwrap();
    /// // A program of `neg`s: no `exp`, `log` or `sub` can appear.
    /// assert_eq!(rules.retain_applicable([OpKey::Unary(UnaryOp::Neg)]), 2);
    /// assert!(rules.rule("neg-neg").is_some() && rules.rule("exp-log").is_none());
    /// ```
    pub fn retain_applicable(&mut self, present: impl IntoIterator<Item = OpKey>) -> usize {
        let parallel = self.rules.len() >= PARALLEL_RULES_MIN;
        let reaches = map_in_order(&self.rules, parallel, Reach::of);
        let mut keep = applicable(&reaches, present).into_iter();
        let before = self.rules.len();
        self.rules.retain(|_| keep.next().unwrap_or(true));
        let dropped = before - self.rules.len();
        if dropped > 0 {
            self.rules_removed();
        }
        dropped
    }

    /// Room for `n` more rules (a library about to be added).
    pub(crate) fn reserve(&mut self, n: usize) {
        self.rules.reserve(n);
        self.by_name.reserve(n);
    }

    /// Notes a rule a load left undecoded (see [`RuleSet::add_compiled_applicable`]).
    pub(crate) fn add_unloaded(&mut self, name: String, labels: Vec<String>) {
        self.unloaded.push((name, labels));
    }

    /// After rules were dropped: their names and the index go too.
    fn rules_removed(&mut self) {
        // Renumbered in place (a library may be large: no name is copied): the names of
        // rules still there get their new positions, the others are left behind and go.
        let gone = usize::MAX;
        self.by_name.values_mut().for_each(|i| *i = gone);
        for (i, rule) in self.rules.iter().enumerate() {
            if let Some(at) = self.by_name.get_mut(rule.name.as_str()) {
                *at = i;
            }
        }
        self.by_name.retain(|_, i| *i != gone);
        self.rules_changed();
    }

    /// The rules `filter` keeps, in load order.
    pub fn filtered(&self, filter: &RuleFilter) -> RuleSet {
        let rules: Vec<Rule> = self
            .rules
            .iter()
            .filter(|r| filter.keeps(r))
            .cloned()
            .collect();
        RuleSet {
            by_name: rules
                .iter()
                .enumerate()
                .map(|(i, r)| (r.name.clone(), i))
                .collect(),
            rules,
            externs: self.externs.clone(),
            loop_patterns: self
                .loop_patterns
                .iter()
                .filter(|p| filter.keeps_named(&p.name, &p.labels))
                .cloned()
                .collect(),
            registry: self.registry.clone(),
            index: OnceLock::new(),
            source_callees: OnceLock::new(),
            variadic: self.variadic.clone(),
            variadic_arities: self.variadic_arities.clone(),
            unloaded: self.unloaded.clone(),
        }
    }

    /// This set for `program`: every extern whose name the program owns is renamed, in the
    /// extern declarations and in every rule's source and result patterns, to the first free
    /// name of [`crate::externs::candidate_names`] (`@ptir.linear`, ...). The program owns a
    /// name `E` if it defines a function that a call pattern `@E` would match (`@E` or
    /// `@E_N`), or declares such an extern other than exactly the declaration rule results
    /// add (`extern @E`, shape-polymorphic, the same purity). So rule results never call a
    /// user's function, and rule sources never mistake a user's function for the extern.
    /// Returns the set and what was renamed (nothing, and the set itself, not a copy, in the
    /// common case).
    ///
    /// ```
    /// let rules = ptir_rules::RuleSet::bundled().unwrap();
    /// let p = ptir_ir::parse("func @linear(%x: f32[2]) -> (f32[2]) {\n  return %x\n}").unwrap();
    /// let (renamed, notes) = rules.renaming_externs_for(&p);
    /// assert_eq!(notes[0].to_string(),
    ///     "rule extern @linear is @ptir.linear here: the program has its own @linear");
    /// assert!(renamed.externs().contains_key("ptir.linear"));
    /// ```
    pub fn renaming_externs_for(&self, program: &Program) -> (Cow<'_, RuleSet>, Vec<ExternRename>) {
        let renames = self.extern_renames_for(program);
        if renames.is_empty() {
            return (Cow::Borrowed(self), renames);
        }
        let mut out = self.clone();
        out.apply_renames(&renames);
        (Cow::Owned(out), renames)
    }

    /// [`RuleSet::renaming_externs_for`] in place, for a set the caller owns: renames what
    /// `program` owns and returns what was renamed.
    pub fn rename_externs_for(&mut self, program: &Program) -> Vec<ExternRename> {
        let renames = self.extern_renames_for(program);
        if !renames.is_empty() {
            self.apply_renames(&renames);
        }
        renames
    }

    /// The renames [`RuleSet::renaming_externs_for`] makes for `program`.
    fn extern_renames_for(&self, program: &Program) -> Vec<ExternRename> {
        let owner = |name: &str, pure: bool| -> Option<String> {
            // An outlined definition of the extern (`@linear_0` with the idiom's body) is the
            // library's, so rules compose over it. A function named exactly like the extern is
            // the user's even when its body is the idiom: it has one signature, and the rules
            // would call it at every other shape they raise (random program 1015734, size 5:
            // a user `@softmax_fused` on f32[4,2] called on f32[4]).
            // Names first: building the idiom to compare bodies costs more than a name.
            let function = program
                .functions
                .iter()
                .filter(|f| callee_matches(name, &f.name))
                .filter(|f| f.name == name || !crate::externs::is_definition(name, f))
                .map(|f| &f.name);
            let foreign_extern = program
                .externs
                .iter()
                .filter(|e| !(e.name == name && e.signature.is_none() && e.pure == pure))
                .map(|e| &e.name);
            function
                .chain(foreign_extern)
                .find(|n| callee_matches(name, n))
                .cloned()
        };
        let taken = |name: &str| {
            self.externs.contains_key(name)
                || program
                    .functions
                    .iter()
                    .map(|f| &f.name)
                    .any(|n| callee_matches(name, n) || callee_matches(n, name))
                || program
                    .externs
                    .iter()
                    .any(|e| callee_matches(name, &e.name))
        };
        let mut renames = Vec::new();
        for (name, spec) in &self.externs {
            let Some(owner) = owner(name, spec.pure) else {
                continue;
            };
            let to = crate::externs::candidate_names(name)
                .skip(1)
                .find(|n| !taken(n) && !renames.iter().any(|r: &ExternRename| r.to == *n))
                .unwrap_or_default();
            renames.push(ExternRename {
                from: name.clone(),
                to,
                owner,
            });
        }
        renames
    }

    /// Renames the externs `renames` names, in the declarations and every rule and loop
    /// pattern.
    fn apply_renames(&mut self, renames: &[ExternRename]) {
        let externs = self
            .externs
            .iter()
            .map(
                |(name, spec)| match renames.iter().find(|r| r.from == *name) {
                    Some(r) => (
                        r.to.clone(),
                        ExternSpec {
                            name: r.to.clone(),
                            ..spec.clone()
                        },
                    ),
                    None => (name.clone(), spec.clone()),
                },
            )
            .collect();
        self.externs = externs;
        for rule in &mut self.rules {
            for term in rule.source.terms.iter_mut().chain(&mut rule.result.terms) {
                if let Term::Op {
                    callee: Some(c), ..
                } = term
                {
                    if let Some(r) = renames.iter().find(|r| r.from == *c) {
                        *c = r.to.clone();
                    }
                }
            }
        }
        for p in &mut self.loop_patterns {
            p.rename_callees(|c| renames.iter().find(|r| r.from == c).map(|r| r.to.clone()));
        }
        // The index knows callees by name.
        self.rules_changed();
    }

    /// Drops what is built from the rules on first use (the index, the source callees).
    fn rules_changed(&mut self) {
        self.index = OnceLock::new();
        self.source_callees = OnceLock::new();
    }

    /// Checks that each of `names` (to enable or disable) is the name or a label of some rule
    /// of the set: a typo would otherwise keep no rule (enable) or drop none (disable), in
    /// silence. The error suggests the closest name or label.
    ///
    /// ```
    /// let rules = ptir_rules::RuleSet::bundled().unwrap();
    /// assert!(rules.check_names(&["fusion".to_string(), "mul-one".to_string()]).is_ok());
    /// let err = rules.check_names(&["fusoin".to_string()]).unwrap_err();
    /// assert_eq!(err.to_string(), "no rule is named or labelled `fusoin` (did you mean `fusion`?)");
    /// ```
    pub fn check_names<'a>(
        &self,
        names: impl IntoIterator<Item = &'a String>,
    ) -> Result<(), UnknownRuleName> {
        let known = || {
            let loops = self
                .loop_patterns
                .iter()
                .flat_map(|p| std::iter::once(&p.name).chain(&p.labels));
            let unloaded = (self.unloaded.iter()).flat_map(|(n, ls)| std::iter::once(n).chain(ls));
            self.rules
                .iter()
                .flat_map(|r| std::iter::once(&r.name).chain(&r.labels))
                .chain(loops)
                .chain(unloaded)
        };
        for name in names {
            if known().any(|k| k == name) {
                continue;
            }
            let suggestion = known()
                .map(|k| (edit_distance(k, name), k))
                .filter(|(d, k)| *d <= 2.max(k.len() / 3))
                .min_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)))
                .map(|(_, k)| k.clone());
            return Err(UnknownRuleName {
                name: name.clone(),
                suggestion,
            });
        }
        Ok(())
    }

    /// Names of rules without a doc comment saying why they are true.
    pub fn undocumented(&self) -> Vec<&str> {
        self.rules
            .iter()
            .filter(|r| r.doc.trim().is_empty())
            .map(|r| r.name.as_str())
            .collect()
    }
}

/// Levenshtein distance between `a` and `b` (by chars), for suggestions.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (diag + usize::from(ca != *cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// Declares every extern of `externs` that `program` neither defines nor declares; returns
/// their names ([`RuleSet::declare_externs`] for one set).
pub fn declare_all_externs(
    program: &mut Program,
    externs: &IndexMap<String, ExternSpec>,
) -> Vec<String> {
    let mut added = Vec::new();
    for (name, spec) in externs {
        if program.function(name).is_none() && program.extern_decl(name).is_none() {
            program.externs.push(extern_decl(name, spec));
            added.push(name.clone());
        }
    }
    added
}

/// Declares every extern of `externs` (the first map naming it wins) that `program` calls but
/// neither defines nor declares, in the order it calls them
/// ([`RuleSet::declare_called_externs`] for one set).
pub fn declare_called_externs(program: &mut Program, externs: &[&IndexMap<String, ExternSpec>]) {
    for callee in program.called_names() {
        if program.function(&callee).is_some() || program.extern_decl(&callee).is_some() {
            continue;
        }
        if let Some(spec) = externs.iter().find_map(|e| e.get(&callee)) {
            let decl = extern_decl(&callee, spec);
            program.externs.push(decl);
        }
    }
}

/// The declaration of rule extern `name`: shape-polymorphic, with its declared purity.
fn extern_decl(name: &str, spec: &ExternSpec) -> ptir_ir::ExternDecl {
    ptir_ir::ExternDecl {
        name: name.to_string(),
        signature: None,
        pure: spec.pure,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::TermId;
    use ptir_ir::OpKey;

    fn set_of(registry: Registry, src: &str) -> RuleSet {
        let mut rules = RuleSet::new(registry);
        rules.add_source("r.rules", src).unwrap();
        rules
    }

    fn names(rules: &RuleSet) -> Vec<&str> {
        rules.rules().iter().map(|r| r.name.as_str()).collect()
    }

    /// What the engines make without a rule (constants from folds, tuples) is there in every
    /// program, and a rule that can match makes what its result builds, to a fixpoint.
    #[test]
    fn applicable_rules_are_those_reachable_from_the_program_and_the_engines() {
        use ptir_ir::{BinaryOp, UnaryOp};
        let src = "
            (rule mul-zero (mul ?x (splat 0)) => (splat 0 ?x))
            (rule get-of-pair (tuple_get (tuple ?a ?b) 1) => ?b)
            (rule neg-to-exp (neg ?x) => (exp ?x))
            (rule exp-to-log (exp ?x) => (log ?x))
            (rule log-log (log (log ?x)) => ?x)
            (rule abs-abs (abs (abs ?x)) => (abs ?x))";
        let mut rules = set_of(Registry::standard(), src);
        assert_eq!(rules.retain_applicable([OpKey::Binary(BinaryOp::Mul)]), 4);
        assert_eq!(names(&rules), ["mul-zero", "get-of-pair"]);
        let mut rules = set_of(Registry::standard(), src);
        assert_eq!(rules.retain_applicable([OpKey::Unary(UnaryOp::Neg)]), 2);
        assert_eq!(
            names(&rules),
            ["get-of-pair", "neg-to-exp", "exp-to-log", "log-log"]
        );
        assert!(rules.rule("abs-abs").is_none() && rules.rule("mul-zero").is_none());
        // What is left is indexed anew.
        assert_eq!(rules.index().len(), 4);
    }

    /// A native builder may build any op: once a rule calling one can match, every rule is
    /// kept; while none can, the others are pruned as usual.
    #[test]
    fn a_rule_whose_result_calls_a_builder_keeps_every_rule_once_it_can_match() {
        use crate::builders::{Built, BuiltOperand};
        use ptir_ir::UnaryOp;
        let mut registry = Registry::standard();
        registry.add_builder("same", 1, &[], "its argument", |_, _| {
            Some(Built {
                ops: vec![],
                value: BuiltOperand::Arg(0),
            })
        });
        let src = "
            (rule build (neg ?x) => (same ?x))
            (rule abs-abs (abs (abs ?x)) => (abs ?x))";
        let mut rules = set_of(registry.clone(), src);
        assert_eq!(rules.retain_applicable([OpKey::Unary(UnaryOp::Neg)]), 0);
        let mut rules = set_of(registry, src);
        assert_eq!(rules.retain_applicable([OpKey::Unary(UnaryOp::Exp)]), 2);
    }

    /// The labels a bundled rule may carry.
    const LABELS: &[&str] = &[
        "canonicalize",
        "tensor",
        "algebra",
        "priced",
        "fusion",
        "raising",
        "fast-math",
        "pat",
    ];

    fn callees(p: &crate::ast::Pattern) -> Vec<String> {
        p.terms
            .iter()
            .filter_map(|t| match t {
                Term::Op {
                    key: OpKey::Call,
                    callee,
                    ..
                } => callee.clone(),
                _ => None,
            })
            .collect()
    }

    /// `retain` keeps what `filtered` keeps, and finds rules by name afterwards (the map of
    /// names moves with the rules).
    #[test]
    fn retain_keeps_what_filtered_keeps() {
        let all = RuleSet::bundled().unwrap();
        let filter = RuleFilter::exact();
        let mut kept = all.clone();
        kept.retain(&filter);
        let names = |s: &RuleSet| s.rules().iter().map(|r| r.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&kept), names(&all.filtered(&filter)));
        assert!(kept.rules().len() < all.rules().len());
        for (i, r) in kept.rules().iter().enumerate() {
            assert!(std::ptr::eq(kept.rule(&r.name).unwrap(), &kept.rules()[i]));
        }
        assert!(all
            .rules()
            .iter()
            .any(|r| r.labels.iter().any(|l| l == FAST_MATH)));
        assert!(!kept
            .rules()
            .iter()
            .any(|r| r.labels.iter().any(|l| l == FAST_MATH)));
    }

    /// Does the source bind a float-only or float-restricted value? (fast-math rules must
    /// not reach integers, where their exact twins live.)
    fn restricted_to_floats(r: &Rule) -> bool {
        r.constraints.iter().any(|c| c.pred == "float")
    }

    #[test]
    fn the_bundled_library_loads_and_keeps_its_promises() {
        let set = RuleSet::bundled().unwrap();
        assert_eq!(
            set.undocumented(),
            Vec::<&str>::new(),
            "rules without a why"
        );
        let per_file = |f: &str| set.rules().iter().filter(|r| r.location.file == f).count();
        let in_rules: usize = BUNDLED.iter().map(|(f, _)| per_file(f)).sum();
        let in_pats: usize = BUNDLED_PATS.iter().map(|(f, _)| per_file(f)).sum();
        assert!(in_rules >= 60, "{in_rules} rules in rules/*.rules");
        assert!(in_pats >= 4, "{in_pats} source-written patterns");
        for r in set.rules() {
            let kebab = r
                .name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
            assert!(
                kebab && !r.name.starts_with('-'),
                "{}: not kebab-case",
                r.name
            );
            assert!(!r.labels.is_empty(), "{}: no labels", r.name);
            for l in &r.labels {
                assert!(
                    LABELS.contains(&l.as_str()),
                    "{}: unknown label {l}",
                    r.name
                );
            }
            if r.is_fast_math() {
                assert!(
                    restricted_to_floats(r),
                    "{}: fast-math but not float-only",
                    r.name
                );
            }
            for c in callees(&r.result) {
                assert!(
                    set.externs().contains_key(&c),
                    "{}: @{c} is not declared",
                    r.name
                );
            }
        }
    }

    #[test]
    fn pat_externs_keep_the_cost_a_rule_file_gave_them() {
        let set = RuleSet::bundled().unwrap();
        assert_eq!(set.externs()["softmax_fused"].cost, 4.0);
        assert_eq!(set.externs()["linear"].location.file, "rules/fusion.rules");
    }

    #[test]
    fn a_call_taken_apart_by_tuple_get_roots_is_typed_by_them() {
        let set = RuleSet::bundled().unwrap();
        let r = set.rule("moments").unwrap();
        let call = r
            .result
            .terms
            .iter()
            .position(|t| {
                matches!(
                    t,
                    Term::Op {
                        key: OpKey::Call,
                        ..
                    }
                )
            })
            .unwrap();
        assert_eq!(
            crate::parse::tuple_of_roots(&r.result, TermId(call)),
            Some(vec![0, 1])
        );
        // a call used by a non-root, or missing an element, stays an error
        let mut bad = RuleSet::new(Registry::standard());
        let err = bad
            .add_source(
                "b.rules",
                "(rule r (roots (neg ?x) (abs ?x)) => (tuple_get ?m:(call @f ?x) 1) (neg (tuple_get ?m 2)))",
            )
            .unwrap_err();
        assert!(err.to_string().contains("cannot be inferred"), "{err}");
    }
}
