//! Patterns: the [`Pattern`] trait, the typed [`OpRewritePattern`], and the sets the driver
//! applies ([`PatternSet`] → [`FrozenPatternSet`]).
//!
//! The contract (MLIR's `RewritePattern`), which the driver's expensive checks enforce:
//! `match_and_rewrite` returns `true` **if and only if it changed the IR**; it decides the
//! match before it mutates anything; and it mutates only through the [`ProgramRewriter`] it is
//! given. A pattern must also be a deterministic function of the IR it inspects (the failure
//! cache relies on it: a pattern that failed is not retried on the same root until something
//! it read has changed).

use crate::ir::Ir;
use crate::rewriter::ProgramRewriter;
use crate::views::OpView;
use ptir_ir::{InstId, OpKey, ValueId};
use ptir_rules::index::{AttrRef, Head, PatternIndex, Subject};
use ptir_rules::{attr_slots, op_attr, Rule};
use rustc_hash::FxHashMap;
use std::marker::PhantomData;

/// Index of a pattern in its [`FrozenPatternSet`].
pub type PatternId = usize;

/// The benefit that means "never apply" (MLIR's `PatternBenefit::impossibleToMatch`):
/// freezing drops patterns with it.
pub const IMPOSSIBLE_TO_MATCH: u16 = u16::MAX;

/// The tag that makes a pattern match every op kind, so that the choice is deliberate
/// (MLIR's `MatchAnyOpTypeTag`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchAnyOpTypeTag;

/// What a pattern is rooted at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Roots {
    /// Ops of these kinds.
    Ops(Vec<OpKey>),
    /// Any op. Such patterns are tried on an op only where their benefit is strictly higher
    /// than the next op-specific pattern's.
    Any(MatchAnyOpTypeTag),
}

/// The last segment of a type's path, as a default debug name.
fn short_type_name(full: &'static str) -> &'static str {
    let base = full.split('<').next().unwrap_or(full);
    base.rsplit("::").next().unwrap_or(base)
}

/// A rewrite pattern. See the module docs for the contract.
pub trait Pattern {
    /// The op kinds this pattern is rooted at.
    fn roots(&self) -> Roots;

    /// Expected benefit, unitless; higher is tried first (default 1).
    fn benefit(&self) -> u16 {
        1
    }

    /// A name unique among patterns, for logs, statistics and filtering (default: the type's
    /// name).
    fn debug_name(&self) -> &str {
        short_type_name(std::any::type_name::<Self>())
    }

    /// Group names for filtering (default none).
    fn labels(&self) -> &[String] {
        &[]
    }

    /// May this pattern apply to ops it created itself (MLIR's `hasBoundedRewriteRecursion`)?
    /// Unless it says so, the driver does not apply it to its own results (default false).
    fn has_bounded_recursion(&self) -> bool {
        false
    }

    /// The rule this pattern applies, if it is one: the frozen set indexes rules
    /// ([`PatternIndex`]) so that each is tried only at ops its first root's shape can match.
    /// A pattern returning a rule promises not to match where that rule's first root cannot
    /// (default none: tried at every op of its root kinds).
    fn source_rule(&self) -> Option<&Rule> {
        None
    }

    /// Tries to rewrite at `root`. **Returns `true` iff it changed the IR; decides the match
    /// before mutating; mutates only through `rw`.** To give up with a reason, return
    /// `rw.notify_match_failure(root, || reason)`.
    fn match_and_rewrite(&self, root: InstId, rw: &mut ProgramRewriter<'_>) -> bool;
}

/// A pattern on one kind of op, seen through a typed view `T` (MLIR's
/// `OpRewritePattern<OpTy>`). Add it with [`PatternSet::add_op`].
///
/// ```
/// use ptir_greedy::{views::UnaryView, OpRewritePattern, PatternSet, ProgramRewriter, Ir};
/// use ptir_ir::{Op, UnaryOp};
///
/// /// `abs(abs x) = abs x`: the outer abs does nothing.
/// struct AbsAbs;
/// impl OpRewritePattern<UnaryView> for AbsAbs {
///     fn may_match(&self, op: &UnaryView, _: &Ir) -> bool {
///         op.kind == UnaryOp::Abs
///     }
///     fn match_and_rewrite(&self, op: UnaryView, rw: &mut ProgramRewriter) -> bool {
///         match rw.inst_of(op.operand).map(|i| rw.op(i)) {
///             Some(Op::Unary(UnaryOp::Abs)) => {
///                 rw.replace_op(op.root, op.operand);
///                 true
///             }
///             _ => rw.notify_match_failure(op.root, || "operand is not an abs".into()),
///         }
///     }
/// }
///
/// let mut set = PatternSet::new();
/// set.add_op(AbsAbs);
/// assert_eq!(set.freeze().name(0), "AbsAbs");
/// ```
pub trait OpRewritePattern<T: OpView> {
    /// See [`Pattern::benefit`].
    fn benefit(&self) -> u16 {
        1
    }

    /// See [`Pattern::debug_name`].
    fn debug_name(&self) -> &str {
        short_type_name(std::any::type_name::<Self>())
    }

    /// See [`Pattern::labels`].
    fn labels(&self) -> &[String] {
        &[]
    }

    /// See [`Pattern::has_bounded_recursion`].
    fn has_bounded_recursion(&self) -> bool {
        false
    }

    /// A cheap pre-check; `false` skips `match_and_rewrite` (default `true`). Must not mutate.
    fn may_match(&self, _op: &T, _ir: &Ir<'_>) -> bool {
        true
    }

    /// See [`Pattern::match_and_rewrite`]; `op` is the root seen through `T`.
    fn match_and_rewrite(&self, op: T, rw: &mut ProgramRewriter<'_>) -> bool;
}

/// The adapter making an [`OpRewritePattern<T>`] a [`Pattern`]: it checks the root's kind,
/// builds the view and calls the typed methods.
pub struct Typed<T, P> {
    pattern: P,
    _view: PhantomData<fn() -> T>,
}

impl<T, P> Typed<T, P> {
    /// Wraps a typed pattern.
    pub fn new(pattern: P) -> Self {
        Typed {
            pattern,
            _view: PhantomData,
        }
    }
}

/// The [`Pattern`] methods of an adapter around a pattern on one op kind `T` (field
/// `pattern`), which says its own benefit, name, labels and recursion.
macro_rules! typed_pattern_info {
    () => {
        fn roots(&self) -> Roots {
            Roots::Ops(T::keys())
        }
        fn benefit(&self) -> u16 {
            self.pattern.benefit()
        }
        fn debug_name(&self) -> &str {
            self.pattern.debug_name()
        }
        fn labels(&self) -> &[String] {
            self.pattern.labels()
        }
        fn has_bounded_recursion(&self) -> bool {
            self.pattern.has_bounded_recursion()
        }
    };
}

impl<T: OpView, P: OpRewritePattern<T>> Pattern for Typed<T, P> {
    typed_pattern_info!();
    fn match_and_rewrite(&self, root: InstId, rw: &mut ProgramRewriter<'_>) -> bool {
        match T::view(rw, root) {
            Some(view) if self.pattern.may_match(&view, rw) => {
                self.pattern.match_and_rewrite(view, rw)
            }
            Some(_) => rw.notify_match_failure(root, || "may_match declined".into()),
            None => false,
        }
    }
}

/// A pattern on one kind of op written as a separate match and rewrite (MLIR's `match` /
/// `rewrite` pair): [`match_op`](Self::match_op) inspects the IR and returns what the rewrite
/// needs, or why it does not apply; [`rewrite`](Self::rewrite) then changes the IR and cannot
/// fail. The contract of [`Pattern`] (decide before mutating; `true` iff changed) holds by
/// construction. Add it with [`PatternSet::add_match_rewrite`].
///
/// ```
/// use ptir_greedy::views::UnaryView;
/// use ptir_greedy::{Ir, MatchRewritePattern, PatternSet, ProgramRewriter};
/// use ptir_ir::{Op, UnaryOp, ValueId};
///
/// /// `neg(neg x) = x`.
/// struct NegNeg;
/// impl MatchRewritePattern<UnaryView> for NegNeg {
///     /// The value the root is replaced by.
///     type Match = ValueId;
///     fn match_op(&self, op: &UnaryView, ir: &Ir) -> Result<ValueId, String> {
///         let inner = ir.inst_of(op.operand).filter(|_| op.kind == UnaryOp::Neg);
///         match inner.map(|i| (ir.op(i), ir.operands(i))) {
///             Some((Op::Unary(UnaryOp::Neg), [x])) => Ok(*x),
///             _ => Err("not a neg of a neg".into()),
///         }
///     }
///     fn rewrite(&self, op: UnaryView, x: ValueId, rw: &mut ProgramRewriter) {
///         rw.replace_op(op.root, x);
///     }
/// }
///
/// let mut set = PatternSet::new();
/// set.add_match_rewrite(NegNeg);
/// assert_eq!(set.freeze().name(0), "NegNeg");
/// ```
pub trait MatchRewritePattern<T: OpView> {
    /// What a match found, handed to the rewrite.
    type Match;

    /// See [`Pattern::benefit`].
    fn benefit(&self) -> u16 {
        1
    }

    /// See [`Pattern::debug_name`].
    fn debug_name(&self) -> &str {
        short_type_name(std::any::type_name::<Self>())
    }

    /// See [`Pattern::labels`].
    fn labels(&self) -> &[String] {
        &[]
    }

    /// See [`Pattern::has_bounded_recursion`].
    fn has_bounded_recursion(&self) -> bool {
        false
    }

    /// Decides the match without mutating: what the rewrite needs, or why it does not apply
    /// (the reason reaches the step log and the listener).
    fn match_op(&self, op: &T, ir: &Ir<'_>) -> Result<Self::Match, String>;

    /// Rewrites a match; must change the IR (the driver's expensive checks say so if not).
    fn rewrite(&self, op: T, found: Self::Match, rw: &mut ProgramRewriter<'_>);
}

/// The adapter making a [`MatchRewritePattern<T>`] a [`Pattern`].
pub struct MatchThenRewrite<T, P> {
    pattern: P,
    _view: PhantomData<fn() -> T>,
}

impl<T, P> MatchThenRewrite<T, P> {
    /// Wraps a match-and-rewrite pattern.
    pub fn new(pattern: P) -> Self {
        MatchThenRewrite {
            pattern,
            _view: PhantomData,
        }
    }
}

impl<T: OpView, P: MatchRewritePattern<T>> Pattern for MatchThenRewrite<T, P> {
    typed_pattern_info!();
    fn match_and_rewrite(&self, root: InstId, rw: &mut ProgramRewriter<'_>) -> bool {
        let Some(view) = T::view(rw, root) else {
            return false;
        };
        match self.pattern.match_op(&view, rw) {
            Ok(found) => {
                self.pattern.rewrite(view, found, rw);
                true
            }
            Err(reason) => rw.notify_match_failure(root, || reason),
        }
    }
}

/// Which patterns a frozen set keeps, by debug name or label (MLIR's `disabledPatterns` /
/// `enabledPatterns`): an empty `enabled` keeps everything not disabled, and disabled wins.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PatternFilter {
    /// Names or labels to keep (empty: all).
    pub enabled: Vec<String>,
    /// Names or labels to drop.
    pub disabled: Vec<String>,
}

impl PatternFilter {
    /// Does the filter keep a pattern with this name and these labels?
    pub fn keeps(&self, name: &str, labels: &[String]) -> bool {
        let named = |keys: &[String]| keys.iter().any(|k| k == name || labels.contains(k));
        !named(&self.disabled) && (self.enabled.is_empty() || named(&self.enabled))
    }
}

struct Entry {
    pattern: Box<dyn Pattern>,
    extra_labels: Vec<String>,
}

/// Patterns being collected, in insertion order (which breaks benefit ties).
#[derive(Default)]
pub struct PatternSet {
    entries: Vec<Entry>,
}

impl std::fmt::Debug for PatternSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self
            .entries
            .iter()
            .map(|e| e.pattern.debug_name())
            .collect();
        f.debug_struct("PatternSet")
            .field("patterns", &names)
            .finish()
    }
}

impl PatternSet {
    /// An empty set.
    pub fn new() -> Self {
        PatternSet::default()
    }

    /// Adds a pattern.
    pub fn add(&mut self, p: impl Pattern + 'static) -> &mut Self {
        self.add_with_labels(&[], p)
    }

    /// Adds a pattern with extra labels (MLIR's `addWithLabel`).
    pub fn add_with_labels(&mut self, labels: &[&str], p: impl Pattern + 'static) -> &mut Self {
        self.entries.push(Entry {
            pattern: Box::new(p),
            extra_labels: labels.iter().map(|l| l.to_string()).collect(),
        });
        self
    }

    /// Adds a pattern already boxed (one an [`crate::OpRegistry`] made).
    pub fn add_boxed(&mut self, p: Box<dyn Pattern>) -> &mut Self {
        self.entries.push(Entry {
            pattern: p,
            extra_labels: Vec::new(),
        });
        self
    }

    /// Adds a typed pattern.
    pub fn add_op<T: OpView + 'static, P: OpRewritePattern<T> + 'static>(
        &mut self,
        p: P,
    ) -> &mut Self {
        self.add(Typed::<T, P>::new(p))
    }

    /// Adds a pattern written as a separate match and rewrite.
    pub fn add_match_rewrite<T: OpView + 'static, P: MatchRewritePattern<T> + 'static>(
        &mut self,
        p: P,
    ) -> &mut Self {
        self.add(MatchThenRewrite::<T, P>::new(p))
    }

    /// Number of patterns.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Is the set empty?
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Freezes the set with every pattern kept.
    pub fn freeze(self) -> FrozenPatternSet {
        self.freeze_with(&PatternFilter::default())
    }

    /// Freezes the set, keeping what `filter` keeps and dropping patterns whose benefit is
    /// [`IMPOSSIBLE_TO_MATCH`].
    pub fn freeze_with(self, filter: &PatternFilter) -> FrozenPatternSet {
        let mut frozen = FrozenPatternSet::default();
        for e in self.entries {
            let mut labels = e.pattern.labels().to_vec();
            labels.extend(e.extra_labels);
            let name = e.pattern.debug_name().to_string();
            let benefit = e.pattern.benefit();
            if benefit == IMPOSSIBLE_TO_MATCH || !filter.keeps(&name, &labels) {
                continue;
            }
            let id = frozen.info.len();
            match e.pattern.roots() {
                Roots::Ops(keys) => {
                    for k in keys {
                        frozen.by_root.entry(k).or_default().push(id);
                    }
                }
                Roots::Any(_) => frozen.any_op.push(id),
            }
            frozen.info.push(Info {
                bounded: e.pattern.has_bounded_recursion(),
                pattern: e.pattern,
                name,
                labels,
                benefit,
            });
        }
        let info = &frozen.info;
        for list in frozen.by_root.values_mut() {
            list.sort_by_key(|&id| std::cmp::Reverse(info[id].benefit));
        }
        frozen
            .any_op
            .sort_by_key(|&id| std::cmp::Reverse(info[id].benefit));
        frozen.index_rules();
        frozen
    }
}

struct Info {
    pattern: Box<dyn Pattern>,
    name: String,
    labels: Vec<String>,
    benefit: u16,
    bounded: bool,
}

/// A filtered set of patterns indexed by root kind, each list sorted by benefit (highest
/// first, ties in insertion order; the sort is stable).
#[derive(Default)]
pub struct FrozenPatternSet {
    info: Vec<Info>,
    by_root: FxHashMap<OpKey, Vec<PatternId>>,
    any_op: Vec<PatternId>,
    /// The rules of the rule patterns rooted at one kind.
    index: PatternIndex,
    /// The pattern of each rule of `index`.
    indexed: Vec<PatternId>,
    /// Per pattern: its root kind and position in that kind's list, if the index holds it.
    rank: Vec<Option<(OpKey, u32)>>,
    /// Per root kind: the patterns the index does not hold, with their positions.
    unindexed: FxHashMap<OpKey, Vec<(u32, PatternId)>>,
}

/// The patterns that may match one op ([`FrozenPatternSet::candidates`]), with the scratch
/// that finding them needs, reused from op to op.
#[derive(Clone, Debug, Default)]
pub struct Candidates {
    ids: Vec<PatternId>,
    rules: Vec<u32>,
    ranked: Vec<(u32, PatternId)>,
}

impl Candidates {
    /// The candidate patterns, in the order they are tried.
    pub fn ids(&self) -> &[PatternId] {
        &self.ids
    }
}

/// The greedy IR as the pattern index sees it: a value is its defining instruction.
struct IrSubject<'a, 'c>(&'a Ir<'c>);

impl Subject for IrSubject<'_, '_> {
    type Pos = ValueId;
    type Node = InstId;

    fn nodes(&self, pos: ValueId, f: &mut dyn FnMut(InstId)) {
        if let Some(i) = self.0.inst_of(pos) {
            f(i);
        }
    }

    fn head(&self, node: InstId) -> Option<Head<'_>> {
        let inst = self.0.inst(node)?;
        let key = inst.op.key();
        attr_slots(key)?;
        Some(Head {
            key,
            callee: match &inst.op {
                ptir_ir::Op::Call { callee } => Some(callee),
                _ => None,
            },
            operands: inst.operands.len(),
        })
    }

    fn attr(&self, node: InstId, slot: usize) -> Option<AttrRef<'_>> {
        let inst = self.0.inst(node)?;
        op_attr(&inst.op, &inst.ty, slot)
    }

    fn operand(&self, node: InstId, i: usize) -> ValueId {
        self.0
            .inst(node)
            .map_or(ValueId(u32::MAX), |inst| inst.operands[i])
    }

    fn may_be_splat(&self, pos: ValueId) -> bool {
        // As the matcher's splat terms: a `constant` op with all elements equal.
        self.0
            .constant(pos)
            .is_some_and(|l| l.splat_value().is_some())
    }
}

impl std::fmt::Debug for FrozenPatternSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.info.iter().map(|i| i.name.as_str()).collect();
        f.debug_struct("FrozenPatternSet")
            .field("patterns", &names)
            .finish()
    }
}

impl FrozenPatternSet {
    /// Number of patterns kept.
    pub fn len(&self) -> usize {
        self.info.len()
    }

    /// Is the set empty?
    pub fn is_empty(&self) -> bool {
        self.info.is_empty()
    }

    /// The pattern `id`.
    pub fn pattern(&self, id: PatternId) -> &dyn Pattern {
        &*self.info[id].pattern
    }

    /// The debug name of pattern `id`.
    pub fn name(&self, id: PatternId) -> &str {
        &self.info[id].name
    }

    /// The labels of pattern `id` (its own and those it was added with).
    pub fn labels(&self, id: PatternId) -> &[String] {
        &self.info[id].labels
    }

    /// The benefit of pattern `id`.
    pub fn benefit(&self, id: PatternId) -> u16 {
        self.info[id].benefit
    }

    /// Does pattern `id` handle recursive application?
    pub fn has_bounded_recursion(&self, id: PatternId) -> bool {
        self.info[id].bounded
    }

    /// The patterns rooted at `key`, in the order they are tried.
    pub fn for_root(&self, key: OpKey) -> &[PatternId] {
        self.by_root.get(&key).map_or(&[], |v| &v[..])
    }

    /// The any-op patterns, highest benefit first.
    pub fn any_op(&self) -> &[PatternId] {
        &self.any_op
    }

    /// The id of the pattern named `name`.
    pub fn find(&self, name: &str) -> Option<PatternId> {
        self.info.iter().position(|i| i.name == name)
    }

    /// Builds the pattern index over the rule patterns rooted at one kind.
    /// Ranks the patterns anew by `model` (MLIR's `PatternApplicator::applyCostModel`): each
    /// pattern's benefit becomes `model(name, labels, benefit)`, its declared benefit the
    /// last argument; patterns are tried at an op highest first, ties in their current order,
    /// and a pattern the model gives [`IMPOSSIBLE_TO_MATCH`] is not tried at all.
    ///
    /// ```
    /// # use ptir_greedy::{Pattern, PatternSet, ProgramRewriter, Roots, IMPOSSIBLE_TO_MATCH};
    /// # use ptir_ir::{OpKey, UnaryOp};
    /// # struct Named(&'static str);
    /// # impl Pattern for Named {
    /// #     fn roots(&self) -> Roots { Roots::Ops(vec![OpKey::Unary(UnaryOp::Exp)]) }
    /// #     fn match_and_rewrite(&self, _: ptir_ir::InstId, _: &mut ProgramRewriter<'_>) -> bool { false }
    /// #     fn debug_name(&self) -> &str { self.0 }
    /// # }
    /// let mut set = PatternSet::new();
    /// set.add(Named("first"));
    /// set.add(Named("second"));
    /// set.add(Named("never"));
    /// let mut frozen = set.freeze();
    /// frozen.apply_cost_model(&|name, _, benefit| match name {
    ///     "second" => benefit + 1,
    ///     "never" => IMPOSSIBLE_TO_MATCH,
    ///     _ => benefit,
    /// });
    /// let order: Vec<&str> = frozen.for_root(OpKey::Unary(UnaryOp::Exp)).iter().map(|&p| frozen.name(p)).collect();
    /// assert_eq!(order, ["second", "first"]);
    /// ```
    pub fn apply_cost_model(&mut self, model: &dyn Fn(&str, &[String], u16) -> u16) {
        for info in &mut self.info {
            info.benefit = model(&info.name, &info.labels, info.pattern.benefit());
        }
        let info = &self.info;
        let rank = |list: &mut Vec<PatternId>| {
            list.retain(|&id| info[id].benefit != IMPOSSIBLE_TO_MATCH);
            list.sort_by_key(|&id| std::cmp::Reverse(info[id].benefit));
        };
        self.by_root.values_mut().for_each(rank);
        rank(&mut self.any_op);
        self.index_rules();
    }

    fn index_rules(&mut self) {
        self.rank = vec![None; self.info.len()];
        self.unindexed.clear();
        let mut rules = Vec::new();
        for (key, list) in &self.by_root {
            for (pos, &id) in list.iter().enumerate() {
                let single = matches!(self.info[id].pattern.roots(), Roots::Ops(k) if k.len() == 1);
                if single && self.info[id].pattern.source_rule().is_some() {
                    self.rank[id] = Some((*key, pos as u32));
                    rules.push(id);
                } else {
                    self.unindexed
                        .entry(*key)
                        .or_default()
                        .push((pos as u32, id));
                }
            }
        }
        rules.sort_unstable();
        self.index = PatternIndex::with_splat_terms(
            rules
                .iter()
                .filter_map(|&id| self.info[id].pattern.source_rule()),
        );
        self.indexed = rules;
    }

    /// The patterns rooted at `op`'s kind that may match it, in the order of
    /// [`for_root`](Self::for_root), into `out`: every pattern the index does not hold, and
    /// the rule patterns whose first root's shape the pattern index finds at `op`.
    pub fn candidates(&self, ir: &Ir<'_>, op: InstId, out: &mut Candidates) {
        out.ids.clear();
        out.rules.clear();
        out.ranked.clear();
        let Some(key) = ir.op_key(op) else { return };
        self.index
            .candidates(&IrSubject(ir), op.value(), &mut out.rules);
        out.ranked.extend(out.rules.iter().filter_map(|&r| {
            let id = self.indexed[r as usize];
            match self.rank[id] {
                Some((k, pos)) if k == key => Some((pos, id)),
                _ => None,
            }
        }));
        out.ranked
            .extend_from_slice(self.unindexed.get(&key).map_or(&[], |v| &v[..]));
        out.ranked.sort_unstable();
        out.ids.extend(out.ranked.iter().map(|&(_, id)| id));
    }

    /// The order in which patterns are tried on an op of kind `key` (MLIR's
    /// `PatternApplicator`): op-specific and any-op patterns interleaved by benefit, an any-op
    /// pattern going first only when its benefit is strictly higher.
    pub fn order_for(&self, key: OpKey) -> Vec<PatternId> {
        let mut out = Vec::new();
        let mut cursor = ApplyOrder::default();
        while let Some(id) = cursor.next(self, key) {
            out.push(id);
        }
        out
    }
}

/// A cursor over [`FrozenPatternSet::order_for`] without allocating.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ApplyOrder {
    specific: usize,
    any: usize,
}

impl ApplyOrder {
    pub(crate) fn next(&mut self, set: &FrozenPatternSet, key: OpKey) -> Option<PatternId> {
        self.next_in(set, set.for_root(key))
    }

    /// The next of `specific` (a subsequence of one root kind's list) and the any-op
    /// patterns, in the order of [`FrozenPatternSet::order_for`].
    pub(crate) fn next_in(
        &mut self,
        set: &FrozenPatternSet,
        specific: &[PatternId],
    ) -> Option<PatternId> {
        let any = set.any_op();
        let mut best = specific.get(self.specific).copied();
        let mut from_any = false;
        if let Some(&a) = any.get(self.any) {
            if best.is_none_or(|b| set.benefit(b) < set.benefit(a)) {
                best = Some(a);
                from_any = true;
            }
        }
        let id = best?;
        if from_any {
            self.any += 1;
        } else {
            self.specific += 1;
        }
        Some(id)
    }
}
