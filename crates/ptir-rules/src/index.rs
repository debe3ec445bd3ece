//! The shared pattern index: one discrimination tree over the first source root of every rule
//! of a set, so that an engine tests an op (greedy) or an e-class (saturation) only against
//! the rules that can match it (seed 004's pattern automaton; e-matching's code trees).
//!
//! A rule's first root is read, down to [`INDEX_DEPTH`] op levels, as a preorder sequence of
//! symbols: an op term is its head (kind, callee, operand count) followed by one symbol per
//! attribute slot (a literal, or *any* for a variable or `?_`) and then its operands'
//! sequences; a splat constant is *splat* in an index built [`PatternIndex::with_splat_terms`],
//! which matches a position the subject says may be a splat constant
//! ([`Subject::may_be_splat`]), and `*` otherwise; a value variable, a reference to a named
//! term and everything below the depth limit is `*`, which matches any subtree. The sequences are stored in a
//! trie, and a query walks the trie and the subject together, through a [`Subject`]: what is
//! at a position (one defining op for an SSA value, the e-nodes of an e-class) and the head,
//! attributes and operands of each of them.
//!
//! **The index only over-approximates.** Every symbol is a condition that both engines'
//! matchers check too (the op kind, the callee by [`callee_matches`], the operand count, an
//! attribute literal by [`AttrValue::same`], a splat term's operand being a splat constant),
//! and everything else — repeated variables,
//! splat values, constraints, stated result types, further roots — is left to the engine, so
//! a rule the index leaves out cannot match there. Tested against unindexed matching in both
//! engines.
//!
//! Building costs one pass over each rule's first root: a 10,000-rule library is indexed in a
//! fraction of the time parsing it takes (`benches/rules.rs`).

use crate::ast::{Attr, AttrValue, Pattern, Rule, Term, TermId};
use crate::callee::callee_matches;
pub use crate::ops::AttrRef;
use ptir_ir::OpKey;
use rustc_hash::{FxHashMap, FxHasher};
use smallvec::SmallVec;
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

/// Op levels of a pattern the index tells apart: the root, its operands and theirs. Deeper
/// terms are `*`. (Most rules are that shallow; each level multiplies the paths a query
/// follows through an e-class.)
pub const INDEX_DEPTH: usize = 3;

impl AttrRef<'_> {
    /// A hash consistent with [`AttrValue::same`] (numbers by bit pattern, every NaN alike).
    fn key(self) -> u64 {
        let mut h = FxHasher::default();
        match self {
            AttrRef::Ints(x) => (0u8, x).hash(&mut h),
            AttrRef::Int(x) => (1u8, x).hash(&mut h),
            AttrRef::Bool(x) => (2u8, x).hash(&mut h),
            AttrRef::DType(x) => (3u8, x).hash(&mut h),
            AttrRef::Dims(x) => (4u8, x).hash(&mut h),
            AttrRef::Number(x) if x.is_nan() => (5u8, 0u64).hash(&mut h),
            AttrRef::Number(x) => (5u8, x.to_bits()).hash(&mut h),
            AttrRef::Conv(x) => (6u8, x).hash(&mut h),
            AttrRef::Window(x) => (7u8, x).hash(&mut h),
            AttrRef::Pad(x) => (8u8, x).hash(&mut h),
            AttrRef::Gather(x) => (9u8, x).hash(&mut h),
            AttrRef::Index(x) => (10u8, x).hash(&mut h),
        }
        h.finish()
    }

    /// [`AttrValue::same`], against a literal of a pattern.
    fn same(self, lit: &AttrValue) -> bool {
        match (self, lit) {
            (AttrRef::Number(a), AttrValue::Number(b)) => {
                (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
            }
            _ => self == AttrRef::from(lit),
        }
    }
}

/// The head of an op node of the subject: what rules dispatch on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Head<'a> {
    /// The op kind.
    pub key: OpKey,
    /// The callee of a `call`.
    pub callee: Option<&'a str>,
    /// The number of operands.
    pub operands: usize,
}

/// What the index needs to see of a program (greedy: SSA values and their defining ops) or of
/// an e-graph (e-classes and their e-nodes).
pub trait Subject {
    /// A position: a value, an e-class.
    type Pos: Copy;
    /// A node at a position: the op defining a value, an e-node of an e-class.
    type Node: Copy;

    /// Calls `f` on each node at `pos` (none for a block parameter).
    fn nodes(&self, pos: Self::Pos, f: &mut dyn FnMut(Self::Node));

    /// Calls `f` on each node at `pos` whose head has kind `key`, and possibly on others
    /// (the query checks heads itself). A subject whose positions hold many nodes sorted by
    /// kind (an e-class) finds them without looking at the rest.
    fn nodes_of(&self, pos: Self::Pos, key: OpKey, f: &mut dyn FnMut(Self::Node)) {
        let _ = key;
        self.nodes(pos, f);
    }

    /// The head of `node`, or `None` if no op term of a pattern can match it (a constant, an
    /// impure e-node, a region op).
    fn head(&self, node: Self::Node) -> Option<Head<'_>>;

    /// Attribute slot `slot` of `node` (in [`crate::attr_slots`] order), if it has it.
    fn attr(&self, node: Self::Node, slot: usize) -> Option<AttrRef<'_>>;

    /// A number that is the same for two attributes exactly when they are equal, if the
    /// subject interns them (an e-graph's attribute classes): a query then compares each
    /// distinct attribute with the pattern literals once, not once per node carrying it (the
    /// `dot_general`s of a matrix chain all carry the same dimension numbers). `None` (the
    /// default): compare every time.
    fn attr_identity(&self, node: Self::Node, slot: usize) -> Option<u64> {
        let _ = (node, slot);
        None
    }

    /// The position of operand `i` of `node`.
    fn operand(&self, node: Self::Node, i: usize) -> Self::Pos;

    /// Can a splat term (`(splat 0)`) match at `pos`: is it a constant whose elements are
    /// all equal? A subject may answer `true` when it cannot tell (the default). The greedy
    /// driver tells; an e-graph does not, since a class can become a splat constant in the
    /// middle of an iteration (the saturation loop asks the index only which rules to
    /// compile, and a rule compiled one iteration later would apply later), and its index is
    /// built without splat symbols.
    fn may_be_splat(&self, pos: Self::Pos) -> bool {
        let _ = pos;
        true
    }
}

/// The subject positions a query has still to visit, the next on top.
type Stack<P> = SmallVec<[P; 16]>;

/// The head of an op symbol: kind, interned callee (or none), operand count.
type OpSym = (OpKey, u32, u32);

const NO_CALLEE: u32 = u32::MAX;

/// A trie node.
#[derive(Clone, Debug, Default)]
struct Node {
    /// Rules whose sequence ends here.
    rules: Vec<u32>,
    /// `*` at an operand position.
    star: Option<u32>,
    /// A splat constant at an operand position.
    splat: Option<u32>,
    /// Op heads at an operand position.
    ops: FxHashMap<OpSym, u32>,
    /// The op kinds among `ops`, sorted, without duplicates.
    op_keys: Vec<OpKey>,
    /// Any value at an attribute position.
    any_attr: Option<u32>,
    /// Literals at an attribute position, by [`AttrRef::key`].
    lits: FxHashMap<u64, Vec<(AttrValue, u32)>>,
}

/// One symbol of a rule's sequence.
#[derive(Clone, Debug)]
enum Sym<'r> {
    Star,
    Splat,
    Op(OpSym),
    AnyAttr,
    Lit(&'r AttrValue),
}

/// The pattern index of a list of rules; see the module docs. Rules are numbered by their
/// position in the list the index was built from.
#[derive(Clone, Debug)]
pub struct PatternIndex {
    nodes: Vec<Node>,
    /// Each trie node's parent (the root's is itself).
    parents: Vec<u32>,
    /// Each rule's trie node: where its sequence ends.
    ends: Vec<u32>,
    /// The pruning that leaves nothing out, made on first use: every run starts from it.
    unpruned: OnceLock<Pruning>,
    callees: FxHashMap<String, u32>,
    rules: usize,
    /// Are splat terms symbols of their own ([`PatternIndex::with_splat_terms`]), or `*`?
    splats: bool,
}

impl Default for PatternIndex {
    fn default() -> Self {
        PatternIndex {
            nodes: vec![Node::default()],
            parents: vec![0],
            ends: Vec::new(),
            unpruned: OnceLock::new(),
            callees: FxHashMap::default(),
            rules: 0,
            splats: false,
        }
    }
}

impl PatternIndex {
    /// Indexes the first source root of each rule, numbered in order.
    ///
    /// ```
    /// use ptir_rules::{index::PatternIndex, Registry, RuleSet};
    /// let mut set = RuleSet::new(Registry::standard());
    /// set.add_source("r.rules", "(rule neg-neg (neg (neg ?x)) => ?x)
    ///     (rule tt (transpose (transpose ?x (1 0)) (1 0)) => ?x)").unwrap();
    /// let index = PatternIndex::new(set.rules());
    /// assert_eq!(index.len(), 2);
    /// ```
    pub fn new<'r>(rules: impl IntoIterator<Item = &'r Rule>) -> Self {
        PatternIndex::build(rules, false)
    }

    /// [`PatternIndex::new`] where a splat term is a symbol of its own, followed only where
    /// the subject says a splat constant may be ([`Subject::may_be_splat`]): for a subject
    /// that can tell (the greedy driver's IR). For one that cannot (an e-graph), a splat
    /// symbol beside `*` only doubles the paths a query walks.
    pub fn with_splat_terms<'r>(rules: impl IntoIterator<Item = &'r Rule>) -> Self {
        PatternIndex::build(rules, true)
    }

    fn build<'r>(rules: impl IntoIterator<Item = &'r Rule>, splats: bool) -> Self {
        let mut index = PatternIndex {
            splats,
            ..PatternIndex::default()
        };
        let mut seq = Vec::new();
        for rule in rules {
            seq.clear();
            if let Some(&root) = rule.source.roots.first() {
                index.sequence(&rule.source, root, &mut seq);
            } else {
                seq.push(Sym::Star);
            }
            index.insert(&seq);
        }
        index
    }

    /// The number of rules indexed.
    pub fn len(&self) -> usize {
        self.rules
    }

    /// Whether no rule is indexed.
    pub fn is_empty(&self) -> bool {
        self.rules == 0
    }

    /// Appends the symbols of term `root` (at depth 0) to `out`, with an explicit stack.
    fn sequence<'r>(&mut self, p: &'r Pattern, root: TermId, out: &mut Vec<Sym<'r>>) {
        let mut stack = vec![(root, 0usize)];
        while let Some((t, depth)) = stack.pop() {
            if depth >= INDEX_DEPTH {
                out.push(Sym::Star);
                continue;
            }
            let Term::Op {
                key,
                callee,
                operands,
                attrs,
                ..
            } = p.term(t)
            else {
                let splat = self.splats && matches!(p.term(t), Term::Splat { .. });
                out.push(if splat { Sym::Splat } else { Sym::Star });
                continue;
            };
            let callee = match callee {
                Some(c) => {
                    let next = self.callees.len() as u32;
                    *self.callees.entry(c.clone()).or_insert(next)
                }
                None => NO_CALLEE,
            };
            out.push(Sym::Op((*key, callee, operands.len() as u32)));
            out.extend(attrs.iter().map(|a| match a {
                Attr::Lit(v) => Sym::Lit(v),
                _ => Sym::AnyAttr,
            }));
            stack.extend(operands.iter().rev().map(|&o| (o, depth + 1)));
        }
    }

    fn child(&mut self, node: usize, sym: &Sym<'_>) -> usize {
        let fresh = self.nodes.len() as u32;
        let n = &mut self.nodes[node];
        let slot = match sym {
            Sym::Star => n.star.get_or_insert(fresh),
            Sym::Splat => n.splat.get_or_insert(fresh),
            Sym::AnyAttr => n.any_attr.get_or_insert(fresh),
            Sym::Op(h) => {
                if let Err(i) = n.op_keys.binary_search(&h.0) {
                    n.op_keys.insert(i, h.0);
                }
                n.ops.entry(*h).or_insert(fresh)
            }
            Sym::Lit(v) => {
                let bucket = n.lits.entry(AttrRef::from(*v).key()).or_default();
                match bucket.iter().find(|(x, _)| AttrRef::from(*v).same(x)) {
                    Some((_, id)) => return *id as usize,
                    None => {
                        bucket.push(((*v).clone(), fresh));
                        return self.push_node(fresh, node);
                    }
                }
            }
        };
        let id = *slot;
        if id == fresh {
            self.push_node(fresh, node)
        } else {
            id as usize
        }
    }

    fn push_node(&mut self, id: u32, parent: usize) -> usize {
        self.nodes.push(Node::default());
        self.parents.push(parent as u32);
        id as usize
    }

    fn insert(&mut self, seq: &[Sym<'_>]) {
        let mut node = 0;
        for s in seq {
            node = self.child(node, s);
        }
        self.nodes[node].rules.push(self.rules as u32);
        self.ends.push(node as u32);
        self.rules += 1;
        self.unpruned = OnceLock::new();
    }

    /// The rules that may match at `pos`, appended to `out`, sorted and without duplicates
    /// (a rule reached by several paths through an e-class is listed once).
    pub fn candidates<S: Subject>(&self, subject: &S, pos: S::Pos, out: &mut Vec<u32>) {
        self.query(subject, pos, None, &mut QueryMemo::default(), out);
    }

    /// [`candidates`](Self::candidates) that need not report the rules `pruning` was made
    /// to leave out (it may still report some): a query skips every part of the trie that
    /// leads only to them. The saturation loop asks only for rules it has not compiled yet,
    /// so once the rules that match have been found, a query costs little more than a look
    /// at each e-class's heads.
    pub fn candidates_pruned<S: Subject>(
        &self,
        subject: &S,
        pos: S::Pos,
        pruning: &Pruning,
        out: &mut Vec<u32>,
    ) {
        let mut memo = QueryMemo::default();
        self.candidates_pruned_with(subject, pos, pruning, &mut memo, out);
    }

    /// [`candidates_pruned`](Self::candidates_pruned) for one of many queries of a subject
    /// that does not change between them (every e-class of an e-graph, between two
    /// iterations), which share `memo`: what each interned attribute
    /// ([`Subject::attr_identity`]) matched is worked out once for all of them. Clear the
    /// memo when the subject changes.
    pub fn candidates_pruned_with<S: Subject>(
        &self,
        subject: &S,
        pos: S::Pos,
        pruning: &Pruning,
        memo: &mut QueryMemo,
        out: &mut Vec<u32>,
    ) {
        self.query(subject, pos, Some(&pruning.dead), memo, out);
    }

    /// Which parts of the trie lead only to rules that `known` accepts (by their number).
    ///
    /// ```
    /// use ptir_rules::{index::PatternIndex, Registry, RuleSet};
    /// let mut set = RuleSet::new(Registry::standard());
    /// set.add_source("r.rules", "(rule nn (neg (neg ?x)) => ?x)\n(rule ne (neg (exp ?x)) => ?x)")
    ///     .unwrap();
    /// let index = PatternIndex::new(set.rules());
    /// let mut pruning = index.pruning(|r| r == 0);
    /// assert_eq!(pruning.known(), 1);
    /// index.prune(&mut pruning, |_| true); // every rule known now: the whole trie is dead
    /// assert_eq!(pruning.known(), 2);
    /// ```
    pub fn pruning(&self, known: impl Fn(u32) -> bool) -> Pruning {
        let mut pruning = self
            .unpruned
            .get_or_init(|| self.pruning_of_nothing())
            .clone();
        self.prune(&mut pruning, known);
        pruning
    }

    /// The pruning that leaves no rule out: each trie node counts the rules below it.
    fn pruning_of_nothing(&self) -> Pruning {
        let mut pruning = Pruning {
            dead: vec![true; self.nodes.len()],
            unknown_below: vec![0; self.nodes.len()],
            known: vec![false; self.rules],
        };
        for &end in &self.ends {
            self.each_ancestor(end, |n| {
                pruning.unknown_below[n] += 1;
                pruning.dead[n] = false;
            });
        }
        pruning
    }

    /// Updates `pruning` with the rules `known` accepts now: walks up from each newly known
    /// rule's end of sequence only, so that a run which compiles rules a few at a time does
    /// not walk the whole trie (10,000 rules' worth) each time.
    pub fn prune(&self, pruning: &mut Pruning, known: impl Fn(u32) -> bool) {
        if pruning.known.len() != self.rules || pruning.dead.len() != self.nodes.len() {
            // Made by another index: made again for this one.
            *pruning = self.pruning(known);
            return;
        }
        for (r, &end) in self.ends.iter().enumerate() {
            if pruning.known[r] || !known(r as u32) {
                continue;
            }
            pruning.known[r] = true;
            self.each_ancestor(end, |n| {
                pruning.unknown_below[n] -= 1;
                pruning.dead[n] = pruning.unknown_below[n] == 0;
            });
        }
    }

    /// Calls `f` on trie node `node` and each of its ancestors up to the root.
    fn each_ancestor(&self, node: u32, mut f: impl FnMut(usize)) {
        let mut at = node as usize;
        loop {
            f(at);
            if at == 0 {
                return;
            }
            at = self.parents[at] as usize;
        }
    }

    fn query<S: Subject>(
        &self,
        subject: &S,
        pos: S::Pos,
        dead: Option<&[bool]>,
        memo: &mut QueryMemo,
        out: &mut Vec<u32>,
    ) {
        let start = out.len();
        let mut q = Query {
            index: self,
            subject,
            dead,
            stack: Stack::new(),
            out,
            steps_left: QUERY_STEPS,
            given_up: Vec::new(),
            matched_attrs: &mut memo.matched_attrs,
        };
        q.stack.push(pos);
        q.walk(0);
        let out = q.out;
        out[start..].sort_unstable();
        let mut keep = start;
        for i in start..out.len() {
            if i == start || out[i] != out[keep - 1] {
                out[keep] = out[i];
                keep += 1;
            }
        }
        out.truncate(keep);
    }
}

/// The parts of a [`PatternIndex`]'s trie a query may skip: see
/// [`PatternIndex::candidates_pruned`].
#[derive(Clone, Debug)]
pub struct Pruning {
    /// Per trie node: does it lead only to rules left out?
    dead: Vec<bool>,
    /// Per trie node: the rules not left out whose sequences end at or below it.
    unknown_below: Vec<u32>,
    /// Per rule: left out?
    known: Vec<bool>,
}

impl Pruning {
    /// How many rules are left out.
    pub fn known(&self) -> usize {
        self.known.iter().filter(|&&k| k).count()
    }
}

/// One query: the trie walked together with the subject.
struct Query<'a, S: Subject> {
    index: &'a PatternIndex,
    subject: &'a S,
    /// Trie nodes to skip, if pruned.
    dead: Option<&'a [bool]>,
    /// The subject positions left to visit, the next on top.
    stack: Stack<S::Pos>,
    out: &'a mut Vec<u32>,
    /// Trie steps left before the query stops following the subject (see [`QUERY_STEPS`]).
    steps_left: usize,
    /// Once out of steps: the trie nodes whose rules were all added.
    given_up: Vec<usize>,
    /// See [`QueryMemo`].
    matched_attrs: &'a mut FxHashMap<(usize, u64), SmallVec<[u32; 2]>>,
}

/// What queries of one unchanging subject share
/// ([`PatternIndex::candidates_pruned_with`]): the children of each attribute trie node that
/// an interned attribute matches, by trie node and [`Subject::attr_identity`].
#[derive(Clone, Debug, Default)]
pub struct QueryMemo {
    matched_attrs: FxHashMap<(usize, u64), SmallVec<[u32; 2]>>,
}

impl QueryMemo {
    /// Forgets everything (the subject changed).
    pub fn clear(&mut self) {
        self.matched_attrs.clear();
    }
}

/// Trie steps one query takes before it answers without the subject: every rule below the
/// trie nodes it would still have followed. A query walks the trie and the subject together,
/// so its paths multiply by the nodes at each position: an e-class of a saturated e-graph
/// holds many e-nodes, often over classes that hold many too (or itself), and a pattern four
/// levels deep could take millions of steps at one class. The answer is a superset of the
/// exact one, which is all a query promises (a rule it names may still not match); no
/// program's op reaches the limit.
pub const QUERY_STEPS: usize = 1 << 14;

impl<S: Subject> Query<'_, S> {
    fn dead(&self, node: usize) -> bool {
        self.dead.is_some_and(|d| d[node])
    }

    /// Takes a step at trie node `node`; out of steps, adds every rule below it (once per
    /// node) and says so.
    fn out_of_steps(&mut self, node: usize) -> bool {
        if self.steps_left > 0 {
            self.steps_left -= 1;
            return false;
        }
        if !self.given_up.contains(&node) {
            self.given_up.push(node);
            let mut todo = vec![node];
            while let Some(i) = todo.pop() {
                if self.dead(i) {
                    continue;
                }
                let n = &self.index.nodes[i];
                self.out.extend_from_slice(&n.rules);
                todo.extend(
                    (n.star.iter().chain(&n.splat).chain(&n.any_attr)).map(|&c| c as usize),
                );
                todo.extend(n.ops.values().map(|&c| c as usize));
                todo.extend(n.lits.values().flatten().map(|&(_, c)| c as usize));
            }
        }
        true
    }

    /// Follows the trie from `node` with the subject positions left to visit on the stack.
    /// The recursion is bounded by the length of the longest sequence.
    fn walk(&mut self, node: usize) {
        if self.dead(node) || self.out_of_steps(node) {
            return;
        }
        let index = self.index;
        let n = &index.nodes[node];
        self.out.extend_from_slice(&n.rules);
        let Some(pos) = self.stack.pop() else { return };
        if let Some(star) = n.star {
            self.walk(star as usize);
        }
        if let Some(splat) = n.splat {
            if self.subject.may_be_splat(pos) {
                self.walk(splat as usize);
            }
        }
        if !n.ops.is_empty() {
            let s = self.subject;
            let mut visit = |x: S::Node| {
                let Some(h) = s.head(x) else { return };
                let mut follow = |callee: u32| {
                    let sym = (h.key, callee, h.operands as u32);
                    if let Some(&child) = n.ops.get(&sym) {
                        self.attrs(x, h, 0, child as usize);
                    }
                };
                match h.callee {
                    None => follow(NO_CALLEE),
                    Some(c) => {
                        for p in callee_patterns(c) {
                            if let Some(&id) = index.callees.get(p) {
                                follow(id);
                            }
                        }
                    }
                }
            };
            // Visit only the nodes of the kinds the trie continues with, when the subject can
            // find them without looking at every node (an e-class holding many).
            match &n.op_keys[..] {
                [key] => s.nodes_of(pos, *key, &mut visit),
                _ => s.nodes(pos, &mut visit),
            }
        }
        self.stack.push(pos);
    }

    /// Matches the attribute symbols of op node `x` from slot `slot`, then its operands.
    fn attrs(&mut self, x: S::Node, h: Head<'_>, slot: usize, node: usize) {
        if self.dead(node) || self.out_of_steps(node) {
            return;
        }
        let n = &self.index.nodes[node];
        if n.any_attr.is_none() && n.lits.is_empty() {
            // Past the attributes: the operands come next, the first on top.
            let depth = self.stack.len();
            let s = self.subject;
            (self.stack).extend((0..h.operands).rev().map(|i| s.operand(x, i)));
            self.walk(node);
            self.stack.truncate(depth);
            return;
        }
        if let Some(any) = n.any_attr {
            self.attrs(x, h, slot + 1, any as usize);
        }
        if n.lits.is_empty() {
            return;
        }
        let identity = self.subject.attr_identity(x, slot);
        let known = identity.and_then(|id| self.matched_attrs.get(&(node, id)));
        let matched = match known {
            Some(children) => children.clone(),
            None => {
                let Some(a) = self.subject.attr(x, slot) else {
                    return;
                };
                let bucket = n.lits.get(&a.key()).map_or(&[][..], |b| &b[..]);
                let matched: SmallVec<[u32; 2]> = (bucket.iter())
                    .filter(|(v, _)| a.same(v))
                    .map(|&(_, child)| child)
                    .collect();
                if let Some(id) = identity {
                    self.matched_attrs.insert((node, id), matched.clone());
                }
                matched
            }
        };
        for child in matched {
            self.attrs(x, h, slot + 1, child as usize);
        }
    }
}

/// The callees of call patterns that match a call of `actual` ([`callee_matches`]): itself,
/// and the name before a final `_N`.
fn callee_patterns(actual: &str) -> impl Iterator<Item = &str> {
    let prefix = actual
        .rsplit_once('_')
        .map(|(p, _)| p)
        .filter(|p| callee_matches(p, actual));
    std::iter::once(actual).chain(prefix)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn callee_patterns_are_the_name_and_its_prefix() {
        assert_eq!(
            callee_patterns("foo_12").collect::<Vec<_>>(),
            ["foo_12", "foo"]
        );
        assert_eq!(callee_patterns("foo_x").collect::<Vec<_>>(), ["foo_x"]);
        assert_eq!(callee_patterns("foo").collect::<Vec<_>>(), ["foo"]);
        assert_eq!(
            callee_patterns("a_1_2").collect::<Vec<_>>(),
            ["a_1_2", "a_1"]
        );
    }

    #[test]
    fn literal_keys_agree_with_same() {
        let vals = [
            AttrValue::Number(f64::NAN),
            AttrValue::Number(-f64::NAN),
            AttrValue::Number(0.0),
            AttrValue::Number(-0.0),
            AttrValue::Ints(vec![1, 0]),
            AttrValue::Int(1),
        ];
        for a in &vals {
            for b in &vals {
                let same = a.same(b);
                assert_eq!(AttrRef::from(a).same(b), same, "{a:?} {b:?}");
                if same {
                    assert_eq!(AttrRef::from(a).key(), AttrRef::from(b).key());
                }
            }
        }
    }

    /// A subject of one position holding `n` `add` nodes whose operands are the position
    /// itself: every path through it matches, as in an e-class of a saturated e-graph that
    /// contains its own sums.
    struct SelfSums(usize);

    impl Subject for SelfSums {
        type Pos = ();
        type Node = usize;
        fn nodes(&self, _: (), f: &mut dyn FnMut(usize)) {
            (0..self.0).for_each(f);
        }
        fn head(&self, _: usize) -> Option<Head<'_>> {
            Some(Head {
                key: OpKey::Binary(ptir_ir::BinaryOp::Add),
                callee: None,
                operands: 2,
            })
        }
        fn attr(&self, _: usize, _: usize) -> Option<AttrRef<'_>> {
            None
        }
        fn operand(&self, _: usize, _: usize) {}
    }

    /// A trie node is dead exactly when every rule whose sequence ends at or below it is
    /// known, whether the pruning was made at once or updated as rules became known.
    #[test]
    fn pruning_updated_rule_by_rule_is_pruning_made_at_once() {
        let set = crate::RuleSet::bundled().unwrap();
        let index = PatternIndex::new(set.rules());
        // The definition: a backward pass (children are made after their parents).
        let reference = |known: &dyn Fn(u32) -> bool| -> Vec<bool> {
            let mut dead = vec![false; index.nodes.len()];
            for i in (0..index.nodes.len()).rev() {
                let n = &index.nodes[i];
                let mut children = (n.star.iter().chain(&n.splat).chain(&n.any_attr))
                    .chain(n.ops.values())
                    .chain(n.lits.values().flatten().map(|(_, c)| c));
                dead[i] = n.rules.iter().all(|&r| known(r)) && children.all(|&c| dead[c as usize]);
            }
            dead
        };
        let mut updated = index.pruning(|_| false);
        assert_eq!(updated.dead, reference(&|_| false));
        assert!(!updated.dead[0]);
        // Rules become known in a scrambled order, a few at a time.
        let n = index.len() as u32;
        for step in 1..=8u32 {
            let known = |r: u32| (r.wrapping_mul(2_654_435_761) % 8) < step;
            index.prune(&mut updated, known);
            index.prune(&mut updated, known); // again: nothing changes
            assert_eq!(updated.dead, reference(&known), "step {step}");
            assert_eq!(updated.dead, index.pruning(known).dead, "step {step}");
            assert_eq!(updated.known(), (0..n).filter(|&r| known(r)).count());
        }
        assert!(
            updated.dead.iter().all(|&d| d),
            "every rule known: all dead"
        );
        // A pruning made by another index is made again for this one, not misread.
        let mut other = PatternIndex::new(&set.rules()[..3]).pruning(|_| false);
        index.prune(&mut other, |r| r % 2 == 0);
        assert_eq!(other.dead, reference(&|r| r % 2 == 0));
    }

    #[test]
    fn a_query_whose_paths_multiply_stops_with_a_superset() {
        let mut rules = crate::RuleSet::new(crate::Registry::standard());
        // Seven op positions within the index's depth: a subject position of n nodes gives
        // n^7 paths.
        let text = "(rule tree :labels (t) \
                      (add (add (add ?a ?b) (add ?c ?d)) (add (add ?e ?f) (add ?g ?h))) \
                      => (add (add (add ?a ?b) (add ?c ?d)) (add (add ?e ?f) (add ?h ?g))))\n\
                    (rule mul-sum :labels (t) (add (mul ?a ?b) ?c) => (add (mul ?b ?a) ?c))\n\
                    (rule other :labels (t) (sub ?a ?b) => (add ?a (neg ?b)))";
        rules.add_source("t.rules", text).unwrap();
        let index = PatternIndex::new(rules.rules());
        // Exactly, 64^7 paths (4e12 steps); the query stops after its budget.
        let mut out = Vec::new();
        index.candidates(&SelfSums(64), (), &mut out);
        assert!(out.contains(&0), "{out:?}");
        assert!(!out.contains(&2), "{out:?}: no `sub` anywhere");
        // A small subject is answered exactly: no `mul` below the sums.
        let mut out = Vec::new();
        index.candidates(&SelfSums(2), (), &mut out);
        assert_eq!(out, [0]);
    }
}
