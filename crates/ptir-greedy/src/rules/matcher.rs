//! The DAG matcher: SSA value binding, backtracking, call-prefix matching.
//!
//! A rule's source pattern is matched **anchored at its first root**: the root term is
//! matched against the instruction the driver hands over, and each operand term against the
//! instruction *defining* the corresponding operand (`Term::Op` follows data flow down). There
//! are no choice points inside one root's DAG — every term meets exactly one candidate value —
//! so a single root needs no backtracking; a repeated variable (`(mul ?x ?x)`), a named term
//! used again (`?t`), or a shared term of the arena must meet the same value each time.
//!
//! **Multi-root rules** search the anchor's block for the other roots, in order. Candidates
//! are pruned by data flow: the compiler picks, for each further root, a path from the root
//! down to a term or variable bound by the roots before it, and the matcher walks *up* that
//! path through use lists (only users of the right kind, using the value at the right operand
//! position). A root sharing nothing with the earlier ones falls back to the block's
//! instructions of the right kind, from an index built once per block (not rescanned per
//! pattern op). Each candidate is tried with an undo trail, so a failure deeper in the search
//! (a later root, or the rule's constraints) backtracks to the next candidate.
//!
//! **Call-prefix matching**: a pattern calling `@foo` matches calls of `@foo`
//! and of `@foo_N` for any decimal `N` (functions extracted or specialized by composition).

use crate::ir::{BlockId, Ir};
use ptir_ir::{InstId, Op, OpKey, Scalar, ValueId};
use ptir_rules::{op_attrs, Attr, AttrValue, Pattern, Term, TermId, Var};
use rustc_hash::FxHashSet;

/// How an attribute slot of a source term is matched.
#[derive(Clone, Debug)]
pub(super) enum AttrMatch {
    /// Anything (`?_`).
    Ignore,
    /// Must equal ([`AttrValue::same`]).
    Lit(AttrValue),
    /// Binds the attribute variable in this slot; a repeated one must be equal.
    Var(usize),
    /// Cannot match (a native call in a source pattern).
    Never,
}

/// Where the search for a further root starts.
#[derive(Clone, Debug)]
pub(super) enum Search {
    /// The root is itself bound by an earlier root.
    Bound(TermId),
    /// Walk up from the value of `leaf` through `path` (bottom-up: each step is an op term
    /// and the operand position the value below sits at).
    Users {
        leaf: Leaf,
        path: Vec<(TermId, usize)>,
    },
    /// Every instruction of the root's kind in the anchor's block.
    Scan(OpKey),
}

/// A term whose value is known when a further root is searched.
#[derive(Clone, Copy, Debug)]
pub(super) enum Leaf {
    Term(TermId),
    Var(usize),
}

/// A source pattern compiled for matching.
#[derive(Clone, Debug)]
pub(super) struct Plan {
    pub source: Pattern,
    /// The value-variable slot each term binds (`Term::Value`, or a named term's name).
    pub value_slot: Vec<Option<usize>>,
    /// The attribute matchers of each op term (empty for others).
    pub attrs: Vec<Vec<AttrMatch>>,
    /// The value matcher of each splat term.
    pub splat: Vec<Option<AttrMatch>>,
    /// The slot of each splat term's `?like`.
    pub like: Vec<Option<usize>>,
    pub value_vars: Vec<Var>,
    pub attr_vars: Vec<Var>,
    /// For each root after the first, how to find candidates.
    pub searches: Vec<Search>,
}

/// The state of one match attempt, with an undo trail for backtracking.
#[derive(Clone, Debug, Default)]
pub(super) struct State {
    pub values: Vec<Option<ValueId>>,
    pub attrs: Vec<Option<AttrValue>>,
    pub terms: Vec<Option<ValueId>>,
    /// The instructions matched by op and splat terms, in match order.
    pub matched: Vec<InstId>,
    /// The instruction matched by each root.
    pub roots: Vec<InstId>,
    trail: Vec<Undo>,
}

#[derive(Clone, Debug)]
enum Undo {
    Value(usize),
    Attr(usize),
    Term(usize),
    Matched,
    Root,
}

impl State {
    /// Empties the state for a new attempt with `plan`, keeping its allocations.
    pub fn reset(&mut self, plan: &Plan) {
        self.values.clear();
        self.values.resize(plan.value_vars.len(), None);
        self.terms.clear();
        self.terms.resize(plan.source.terms.len(), None);
        self.attrs.clear();
        self.attrs.resize(plan.attr_vars.len(), None);
        self.matched.clear();
        self.roots.clear();
        self.trail.clear();
    }

    fn mark(&self) -> usize {
        self.trail.len()
    }

    fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            match self.trail.pop() {
                Some(Undo::Value(s)) => self.values[s] = None,
                Some(Undo::Attr(s)) => self.attrs[s] = None,
                Some(Undo::Term(t)) => self.terms[t] = None,
                Some(Undo::Matched) => drop(self.matched.pop()),
                Some(Undo::Root) => drop(self.roots.pop()),
                None => {}
            }
        }
    }

    fn bind_value(&mut self, slot: usize, v: ValueId) -> bool {
        match self.values[slot] {
            Some(prev) => prev == v,
            None => {
                self.values[slot] = Some(v);
                self.trail.push(Undo::Value(slot));
                true
            }
        }
    }

    fn bind_attr(&mut self, slot: usize, a: AttrValue) -> bool {
        match &self.attrs[slot] {
            Some(prev) => prev.same(&a),
            None => {
                self.attrs[slot] = Some(a);
                self.trail.push(Undo::Attr(slot));
                true
            }
        }
    }

    fn set_term(&mut self, t: TermId, v: ValueId) {
        self.terms[t.0] = Some(v);
        self.trail.push(Undo::Term(t.0));
    }

    fn push_matched(&mut self, i: InstId) {
        self.matched.push(i);
        self.trail.push(Undo::Matched);
    }

    fn push_root(&mut self, i: InstId) {
        self.roots.push(i);
        self.trail.push(Undo::Root);
    }
}

pub use ptir_rules::callee_matches;

impl Plan {
    /// Matches the whole source pattern with the first root at `anchor`, into `st`;
    /// `accept` decides each complete match (the constraints) and may reject it, which
    /// backtracks.
    pub fn find(
        &self,
        ir: &Ir<'_>,
        anchor: InstId,
        st: &mut State,
        accept: &mut dyn FnMut(&State) -> bool,
    ) -> bool {
        st.reset(self);
        let Some(&root) = self.source.roots.first() else {
            return false;
        };
        st.push_root(anchor);
        if !self.match_term(ir, st, root, anchor.value()) {
            return false;
        }
        match ir.arena.block_of(anchor) {
            Some(block) => self.search(ir, st, 1, block, accept),
            None => false,
        }
    }

    /// Matches roots `k..`, backtracking over candidates.
    fn search(
        &self,
        ir: &Ir<'_>,
        st: &mut State,
        k: usize,
        block: BlockId,
        accept: &mut dyn FnMut(&State) -> bool,
    ) -> bool {
        let Some(&root) = self.source.roots.get(k) else {
            return accept(st);
        };
        for c in self.candidates(ir, st, k, block) {
            if st.roots.contains(&c) || ir.arena.block_of(c) != Some(block) {
                continue;
            }
            // Dominance prunes before matching: the results go at the last root, so a root
            // used before a later root can never be replaced, whatever the roots still to
            // find; skip `c` if it or a root found before it is such a root.
            let blocked = st.roots.iter().any(|&r| {
                if ir.is_before_in_block(r, c) {
                    super::used_before(ir, r, c)
                } else {
                    super::used_before(ir, c, r)
                }
            });
            if blocked {
                continue;
            }
            let mark = st.mark();
            st.push_root(c);
            if self.match_term(ir, st, root, c.value()) && self.search(ir, st, k + 1, block, accept)
            {
                return true;
            }
            st.undo(mark);
        }
        false
    }

    /// The candidate instructions for root `k`, deduplicated, in a deterministic order.
    fn candidates(&self, ir: &Ir<'_>, st: &State, k: usize, block: BlockId) -> Vec<InstId> {
        let Some(search) = self.searches.get(k - 1) else {
            return Vec::new();
        };
        let mut out: Vec<InstId> = match search {
            Search::Bound(t) => st.terms[t.0]
                .and_then(|v| ir.inst_of(v))
                .into_iter()
                .collect(),
            Search::Scan(key) => {
                ir.reads.uncacheable();
                ir.insts_of_kind(block, *key)
            }
            Search::Users { leaf, path } => {
                let start = match *leaf {
                    Leaf::Term(t) => st.terms[t.0],
                    Leaf::Var(s) => st.values[s],
                };
                let mut level: Vec<ValueId> = start.into_iter().collect();
                for &(term, pos) in path {
                    level = self.users_at(ir, &level, term, pos);
                }
                level.into_iter().map(ValueId::inst).collect()
            }
        };
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The values of the users of `values` that are ops of `term`'s kind using the value at
    /// operand `pos`.
    fn users_at(&self, ir: &Ir<'_>, values: &[ValueId], term: TermId, pos: usize) -> Vec<ValueId> {
        let Term::Op { key, .. } = self.source.term(term) else {
            return Vec::new();
        };
        let mut seen = FxHashSet::default();
        let mut out = Vec::new();
        for &v in values {
            for u in ir.users(v) {
                let crate::ir::User::Inst(i) = u else {
                    continue;
                };
                let Some(inst) = ir.inst(i) else { continue };
                if inst.op.key() == *key && inst.operands.get(pos) == Some(&v) && seen.insert(i) {
                    out.push(i.value());
                }
            }
        }
        out
    }

    /// Matches term `t` against value `v`, binding as it goes (bindings are left in place on
    /// failure: the caller undoes to its mark).
    fn match_term(&self, ir: &Ir<'_>, st: &mut State, t: TermId, v: ValueId) -> bool {
        if let Some(prev) = st.terms[t.0] {
            return prev == v;
        }
        let ok = match self.source.term(t) {
            Term::Value(_) => true,
            Term::Op { .. } => self.match_op(ir, st, t, v),
            Term::Splat { .. } => self.match_splat(ir, st, t, v),
            // Results only (the parser refuses one in a source).
            Term::Native { .. } => false,
        };
        if !ok {
            return false;
        }
        if let Some(s) = self.value_slot[t.0] {
            if !st.bind_value(s, v) {
                return false;
            }
        }
        st.set_term(t, v);
        true
    }

    fn match_op(&self, ir: &Ir<'_>, st: &mut State, t: TermId, v: ValueId) -> bool {
        let Term::Op {
            key,
            callee,
            operands,
            ty,
            ..
        } = self.source.term(t)
        else {
            return false;
        };
        let Some(i) = ir.inst_of(v) else { return false };
        if ir.op_key(i) != Some(*key) {
            return false;
        }
        let Some(inst) = ir.inst(i) else { return false };
        if inst.operands.len() != operands.len() {
            return false;
        }
        if let (Some(want), Op::Call { callee: got }) = (callee, &inst.op) {
            if !callee_matches(want, got) {
                return false;
            }
        }
        if ty.as_ref().is_some_and(|ty| *ty != inst.ty) {
            return false;
        }
        let matchers = &self.attrs[t.0];
        if !matchers.is_empty() {
            let values = op_attrs(&inst.op, &inst.ty);
            if values.len() != matchers.len() {
                return false;
            }
            for (m, a) in matchers.iter().zip(values) {
                if !match_attr(st, m, a) {
                    return false;
                }
            }
        }
        st.push_matched(i);
        operands
            .iter()
            .zip(&inst.operands)
            .all(|(&ot, &ov)| self.match_term(ir, st, ot, ov))
    }

    fn match_splat(&self, ir: &Ir<'_>, st: &mut State, t: TermId, v: ValueId) -> bool {
        let Some(lit) = ir.constant(v) else {
            return false;
        };
        let (Some(s), Some(d)) = (lit.splat_value(), ir.type_of(v).and_then(|t| t.as_tensor()))
        else {
            return false;
        };
        let dtype = d.dtype;
        if let Some(like) = self.like[t.0].and_then(|slot| st.values[slot]) {
            if ir.type_of(like) != ir.type_of(v) {
                return false;
            }
        }
        let equal = |x: f64| Scalar::from_number(dtype, x) == Some(s);
        let ok = match &self.splat[t.0] {
            None | Some(AttrMatch::Ignore) => true,
            Some(AttrMatch::Lit(AttrValue::Number(x))) => equal(*x),
            Some(AttrMatch::Var(slot)) => match &st.attrs[*slot] {
                Some(AttrValue::Number(x)) => equal(*x),
                Some(_) => false,
                None => s
                    .to_number(dtype)
                    .is_some_and(|x| st.bind_attr(*slot, AttrValue::Number(x))),
            },
            Some(_) => false,
        };
        if ok {
            if let Some(i) = ir.inst_of(v) {
                st.push_matched(i);
            }
        }
        ok
    }
}

fn match_attr(st: &mut State, m: &AttrMatch, a: AttrValue) -> bool {
    match m {
        AttrMatch::Ignore => true,
        AttrMatch::Lit(x) => x.same(&a),
        AttrMatch::Var(slot) => st.bind_attr(*slot, a),
        AttrMatch::Never => false,
    }
}

/// How a source attribute is matched, given the attribute variable slots.
pub(super) fn attr_match(a: &Attr, slot_of: &mut impl FnMut(&Var) -> usize) -> AttrMatch {
    match a {
        Attr::Ignore => AttrMatch::Ignore,
        Attr::Lit(x) => AttrMatch::Lit(x.clone()),
        Attr::Var(v) if v.0 == "_" => AttrMatch::Ignore,
        Attr::Var(v) => AttrMatch::Var(slot_of(v)),
        Attr::Call { .. } => AttrMatch::Never,
    }
}

#[cfg(test)]
mod tests {
    use super::callee_matches;

    #[test]
    fn call_prefix_matching_follows_seed_000() {
        assert!(callee_matches("transpose_mul", "transpose_mul"));
        assert!(callee_matches("transpose_mul", "transpose_mul_0"));
        assert!(callee_matches("transpose_mul", "transpose_mul_17"));
        assert!(!callee_matches("transpose_mul", "transpose_mul_add"));
        assert!(!callee_matches("transpose_mul", "foo_0"));
        assert!(!callee_matches("transpose_mul", "transpose_mul_"));
        assert!(!callee_matches("foo", "foo_bar_0"));
    }
}
